/*
 * fuzz_mcp: what mcp-run reads, on any bytes. The first byte chooses:
 * 'c' a configuration file, 'm' a line a server wrote, 's' a server that
 * answers a call, anything else an input record. A configuration
 * accepted must declare only servers that are disabled, or unusable
 * with nothing else, or have a command or a URL and headers of one line
 * each, and one refused must declare none; a message must be of the kind
 * its members make it; a call must have a tool's name and an id. A
 * server is a forked child that writes the rest of the bytes as its
 * output (see serve), read by the real read loop of mcp_call_run: the
 * call must end promptly, never at the time limit (the server always
 * ends), with one line of valid UTF-8 and JSON that names the call, and
 * nothing may be left: no descriptor, no child, no process of the
 * server's, no memory. Anything else aborts.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/proc.h"
#include "base/utf8.h"
#include "json/jsonx.h"
#include "mcp/mcp.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz_mcp: %s\n", what);
		abort();
	}
}

static void
config(const char *s, size_t n)
{
	struct mcp m;
	struct mcp_server *sv;
	char **env;
	size_t i, j;
	int rc;

	mcp_init(&m);
	rc = mcp_config_load(&m, "c.json", s, n);
	check(rc == 0 || m.n == 0, "a refused file declared a server");
	for (i = 0; i < m.n; i++) {
		sv = &m.v[i];
		check(sv->name[0] != '\0' || sv->unusable != NULL,
		    "a usable server without a name");
		check(sv->unusable == NULL || (sv->argv == NULL &&
		    sv->url == NULL && sv->headers == NULL && sv->env == NULL),
		    "an unusable server with a command or a URL");
		check(sv->unusable != NULL || sv->disabled ||
		    (sv->transport == MCP_STDIO ? sv->argv != NULL &&
		    sv->argv[0][0] != '\0' : sv->url != NULL &&
		    strpbrk(sv->url, " \t\r\n") == NULL),
		    "a usable server without a command or a URL");
		for (j = 0; sv->headers != NULL && sv->headers[j] != NULL; j++)
			check(strpbrk(sv->headers[j], "\r\n") == NULL &&
			    strstr(sv->headers[j], ": ") != NULL,
			    "a header that is not one line of Name: value");
		env = mcp_environment(&m.v[i]);
		for (j = 0; env[j] != NULL; j++) {
			check(strchr(env[j], '=') > env[j],
			    "an environment entry without a name");
			free(env[j]);
		}
		free(env);
	}
	mcp_sort(&m);
	for (i = 1; i < m.n; i++)
		check(strcmp(m.v[i - 1].name, m.v[i].name) < 0,
		    "servers out of order, or twice");
	mcp_free(&m);
}

static void
message(const char *s, size_t n)
{
	struct mcp_msg m;

	if (mcp_msg_parse(&m, s, n) != 0)
		check(m.kind == MCP_MSG_BAD && m.why[0] != '\0',
		    "a bad message without a reason");
	else if (m.kind == MCP_MSG_RESPONSE)
		check(m.id != NULL && (m.result == NULL) != (m.error == NULL) &&
		    (m.result == NULL || !json_is_null(m.id)),
		    "a response of the wrong shape");
	else if (m.kind == MCP_MSG_REQUEST)
		check(m.method != NULL && m.id != NULL && !json_is_null(m.id),
		    "a request of the wrong shape");
	else
		check(m.kind == MCP_MSG_NOTIFICATION && m.method != NULL &&
		    m.id == NULL, "a notification of the wrong shape");
	mcp_msg_free(&m);
}

static void
record(const char *s, size_t n)
{
	struct jsonx_error err;
	struct mcp_call c;
	const char *ptr;
	char msg[256];
	json_t *v;
	size_t end;
	int rc;

	if ((v = jsonx_parse(s, n, jsonx_skip_ws(s, n, 0), &end, &err)) ==
	    NULL)
		return;
	rc = mcp_call_read(&c, v, 42, msg, sizeof(msg), &ptr);
	if (rc == 1) {
		check(c.tool != NULL && c.tool[0] != '\0', "a call without "
		    "a tool");
		check(c.id != NULL && c.id[0] != '\0', "a call without an id");
		check(c.args != NULL, "a call without arguments");
		mcp_call_free(&c);
	} else if (rc == -1)
		check(msg[0] != '\0' && ptr != NULL && (ptr[0] == '\0' ||
		    ptr[0] == '/'), "a bad record without a message");
	else
		check(rc == 0, "an unknown verdict");
	json_decref(v);
}

/* A scripted server (the bytes after 's'): a header, then what it writes. */
enum {
	S_READ = 0x01,		/* it reads the call's line first */
	S_ORPHAN = 0x02,	/* it leaves a child that holds its output */
	S_STDERR = 0x04,	/* it writes on its standard error too */
	S_EARLY = 0x08,		/* it ends after cut bytes */
	S_HEAD = 5		/* flags, status, repeats, max_line, cut */
};

static double
mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n > 0 && (w = write(fd, p, n)) > 0) {
		p += w;
		n -= (size_t)w;
	}
}

/*
 * The server, in the child: reads the call's line (S_READ), leaves a
 * child of its own that holds its output and tells its pid on tell
 * (S_ORPHAN), writes the payload repeats + 1 times (and on its standard
 * error, S_STDERR), no more than cut bytes (S_EARLY), and exits.
 */
static void __attribute__((noreturn))
serve(const uint8_t *h, const char *payload, size_t n, int tell)
{
	size_t i, left = (h[0] & S_EARLY) ? (size_t)h[4] * 64 : SIZE_MAX, k;
	pid_t g;
	char c;

	if (h[0] & S_READ)
		while (read(0, &c, 1) == 1 && c != '\n')
			continue;
	if (h[0] & S_ORPHAN) {
		if ((g = fork()) == 0) {
			close(0);
			close(2);
			close(tell);
			sleep(10);
			_exit(0);
		}
		write_all(tell, (const char *)&g, sizeof(g));
	}
	close(tell);
	for (i = 0; i <= h[2] && left > 0; i++) {
		k = n < left ? n : left;
		write_all(1, payload, k);
		if (h[0] & S_STDERR)
			write_all(2, payload, k);
		left -= k;
	}
	_exit(h[1]);
}

/* How many descriptors are open, of the first 1024. */
static int
open_fds(void)
{
	int fd, n = 0;

	for (fd = 0; fd < 1024; fd++)
		n += fcntl(fd, F_GETFD) != -1;
	return n;
}

/* Whether process pid has ended (gone, or a zombie), within 3 s. */
static int
ended(pid_t pid)
{
	char path[64], st[256], *p;
	FILE *fp;
	int i;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	for (i = 0; i < 300; i++) {
		if ((fp = fopen(path, "r")) == NULL)
			return 1;
		p = fgets(st, sizeof(st), fp);
		fclose(fp);
		if (p != NULL && (p = strrchr(st, ')')) != NULL &&
		    p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'))
			return 1;
		usleep(10000);
	}
	return 0;
}

/*
 * Signals as libFuzzer set them, but SIGCHLD, which proc_init catches so
 * that a server's end wakes the read loop.
 */
static void
init_signals(void)
{
	static struct sigaction was[65];
	int i;

	for (i = 1; i < 65; i++)
		sigaction(i, NULL, &was[i]);
	if (proc_init() == -1)
		abort();
	for (i = 1; i < 65; i++)
		if (i != SIGCHLD && i != SIGKILL && i != SIGSTOP)
			sigaction(i, &was[i], NULL);
}

static void
server(const uint8_t *h, size_t size)
{
	static int ready;
	struct mcp m;
	struct mcp_call c;
	struct mcp_outcome o;
	struct proc_child ch;
	char err[64];
	int in[2], out[2], eout[2], tell[2], fds;
	const char *payload = (const char *)h + S_HEAD, *nl, *e;
	json_t *rec;
	pid_t g = -1;
	double t;

	if (size < S_HEAD)
		return;
	if (!ready) {
		init_signals();
		ready = 1;
	}
	fds = open_fds();
	mcp_init(&m);
	m.timeout = 2;
	m.proto = MCP_PROTO_MODERN;
	m.max_line = 16 + (size_t)h[3] * 64;
	/* started again, for a call it did not read: it cannot start */
	if (mcp_server_arg(&m, "s=/nonexistent/fuzz-mcp-server", err,
	    sizeof(err)) != 0 || pipe(in) == -1 || pipe(out) == -1 ||
	    pipe(eout) == -1 || pipe(tell) == -1)
		abort();
	if ((ch.pid = fork()) == 0) {
		setpgid(0, 0);
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(eout[1], 2);
		close(in[0]), close(in[1]), close(out[0]), close(out[1]);
		close(eout[0]), close(eout[1]), close(tell[0]);
		serve(h, payload, size - S_HEAD, tell[1]);
	}
	check(ch.pid > 0, "fork");
	setpgid(ch.pid, ch.pid);
	close(in[0]), close(out[1]), close(eout[1]), close(tell[1]);
	ch.in = in[1], ch.out = out[0], ch.err = eout[0];
	fcntl(ch.in, F_SETFL, O_NONBLOCK);
	fcntl(ch.out, F_SETFL, O_NONBLOCK);
	fcntl(ch.err, F_SETFL, O_NONBLOCK);
	mcp_attach(&m.v[0], &ch);
	m.v[0].modern = 1;

	memset(&c, 0, sizeof(c));
	c.tool = "t";
	c.server = "s";
	c.args = json_object();
	c.id = (char *)"fuzz \"1\"";
	memset(&o, 0, sizeof(o));
	t = mono();
	mcp_call_run(&m, &c, &o);
	mcp_shutdown(&m);
	t = mono() - t;

	check(t < 15, "the call did not end promptly");
	check(o.record.len > 0 && o.record.data[o.record.len - 1] == '\n',
	    "no record, or one without its newline");
	nl = memchr(o.record.data, '\n', o.record.len);
	check(nl == o.record.data + o.record.len - 1, "a record of two lines");
	check(utf8_valid(o.record.data, o.record.len) == o.record.len,
	    "a record that is not UTF-8");
	rec = json_loadb(o.record.data, o.record.len - 1,
	    JSON_REJECT_DUPLICATES, NULL);
	check(rec != NULL, "a record that is not JSON");
	check(json_is_string(json_object_get(rec, "toolCallId")) &&
	    strcmp(json_string_value(json_object_get(rec, "toolCallId")),
	    c.id) == 0, "a record without the call's id");
	e = json_string_value(json_object_get(rec, "error"));
	check(e == NULL || strncmp(e, "timed out after", 15) != 0,
	    "a call timed out: the server's end was not seen");
	check((o.status == DIAG_OK) == (strcmp(json_string_value(
	    json_object_get(rec, "type")), "tool_result") == 0),
	    "a status that does not match the record");
	json_decref(rec);

	if (read(tell[0], &g, sizeof(g)) == (ssize_t)sizeof(g))
		check(ended(g), "the child the server left is still running");
	close(tell[0]);
	check(!m.v[0].running, "a server still running");
	check(waitpid(ch.pid, NULL, WNOHANG) == -1 && errno == ECHILD,
	    "the server was not reaped");
	json_decref(c.args);
	buf_free(&o.record);
	buf_free(&o.message);
	mcp_free(&m);
	check(open_fds() == fds, "a descriptor left open");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data + 1;

	if (size == 0)
		return 0;
	diag_setquiet(1);
	if (data[0] == 'c')
		config(s, size - 1);
	else if (data[0] == 'm')
		message(s, size - 1);
	else if (data[0] == 's')
		server(data + 1, size - 1);
	else
		record(s, size - 1);
	return 0;
}

