/*
 * fuzz_mcp: what mcp-run reads, on any bytes. The first byte chooses:
 * 'c' a configuration file, 'm' a line a server wrote, 's' a server that
 * answers a call, 'e' an event stream, 'h' a remote server whose every
 * HTTP answer is the rest of the bytes, anything else an input record. A
 * configuration accepted must declare only servers that are disabled,
 * or unusable with nothing else, or have a command or a URL and headers
 * of one line each, and one refused must declare none; a message must
 * be of the kind its members make it; a call must have a tool's name
 * and an id. A server is a forked child that writes the rest of the bytes as its
 * output (see serve), read by the real read loop of mcp_call_run: the
 * call must end promptly, never at the time limit (the server always
 * ends), with one line of valid UTF-8 and JSON that names the call, and
 * nothing may be left: no descriptor, no child, no process of the
 * server's, no memory. An event stream must give the same events read
 * whole and split at any two places, and no event's data past the
 * bound. A remote server's call must end with one record too, within
 * its time limit and a little. Anything else aborts.
 */
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <arpa/inet.h>

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
#include "mcp/sse.h"

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

/* Runs a call of tool "t" on server "s" of m, then the shutdown: its time. */
static double
run_call(struct mcp *m, struct mcp_call *c, struct mcp_outcome *o)
{
	double t;

	memset(c, 0, sizeof(*c));
	c->tool = "t";
	c->server = "s";
	c->args = json_object();
	c->id = (char *)"fuzz \"1\"";
	memset(o, 0, sizeof(*o));
	t = mono();
	mcp_call_run(m, c, o);
	mcp_shutdown(m);
	return mono() - t;
}

/*
 * The record of outcome o, a new reference: one line of valid UTF-8 and
 * JSON that names call id, of the type its status says.
 */
static json_t *
record_of(const struct mcp_outcome *o, const char *id)
{
	const char *nl;
	json_t *rec;

	check(o->record.len > 0 && o->record.data[o->record.len - 1] == '\n',
	    "no record, or one without its newline");
	nl = memchr(o->record.data, '\n', o->record.len);
	check(nl == o->record.data + o->record.len - 1,
	    "a record of two lines");
	check(utf8_valid(o->record.data, o->record.len) == o->record.len,
	    "a record that is not UTF-8");
	rec = json_loadb(o->record.data, o->record.len - 1,
	    JSON_REJECT_DUPLICATES, NULL);
	check(rec != NULL, "a record that is not JSON");
	check(json_is_string(json_object_get(rec, "toolCallId")) &&
	    strcmp(json_string_value(json_object_get(rec, "toolCallId")),
	    id) == 0, "a record without the call's id");
	check((o->status == DIAG_OK) == (strcmp(json_string_value(
	    json_object_get(rec, "type")), "tool_result") == 0),
	    "a status that does not match the record");
	return rec;
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
	const char *payload = (const char *)h + S_HEAD, *e;
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

	t = run_call(&m, &c, &o);

	check(t < 15, "the call did not end promptly");
	rec = record_of(&o, c.id);
	e = json_string_value(json_object_get(rec, "error"));
	check(e == NULL || strncmp(e, "timed out after", 15) != 0,
	    "a call timed out: the server's end was not seen");
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

static int
collect(void *arg, const char *type, const char *data, size_t len,
    const char *id)
{
	struct buf *b = arg;

	buf_printf(b, "%zu:%s|%zu:%s|%zu:", strlen(type), type, strlen(id), id,
	    len);
	buf_add(b, data, len);
	return 0;
}

/* The events of n bytes, split at a and b (a <= b <= n), in out. */
static int
stream(struct buf *out, const char *s, size_t n, size_t a, size_t b,
    size_t max, long *retry)
{
	struct sse e;
	int rc;

	buf_reset(out);
	sse_init(&e, max);
	rc = sse_feed(&e, s, a, collect, out);
	if (rc == 0)
		rc = sse_feed(&e, s + a, b - a, collect, out);
	if (rc == 0)
		rc = sse_feed(&e, s + b, n - b, collect, out);
	check(rc == 0 || e.over, "a stream refused without a reason");
	check(e.data.len <= max && e.line.len <= max, "past the bound");
	*retry = e.retry;
	sse_free(&e);
	return rc;
}

/* An event stream (the bytes after 'e'): split points and bound first. */
static void
events(const uint8_t *h, size_t size)
{
	struct buf whole = BUF_INIT, split = BUF_INIT;
	const char *s = (const char *)h + 3;
	size_t n, a, b, max;
	long r1, r2;
	int rc1, rc2;

	if (size < 3)
		return;
	n = size - 3;
	a = n == 0 ? 0 : h[0] % (n + 1);
	b = a + (n - a == 0 ? 0 : h[1] % (n - a + 1));
	max = 4 + (size_t)h[2] * 4;
	rc1 = stream(&whole, s, n, n, n, max, &r1);
	rc2 = stream(&split, s, n, a, b, max, &r2);
	check(rc1 == rc2, "split, the stream is refused or not otherwise");
	check(r1 == r2, "split, another reconnection time");
	if (rc1 == 0)
		check(whole.len == split.len && (whole.len == 0 ||
		    memcmp(whole.data, split.data, whole.len) == 0),
		    "split, other events");
	buf_free(&whole);
	buf_free(&split);
}

/*
 * The remote server, in the child: accepts connections on fd, reads
 * what comes first of each request, and writes payload
 * as the answer in two pieces, cut bytes apart, then closes.
 */
static void __attribute__((noreturn))
http_serve(int fd, const char *payload, size_t n, size_t cut)
{
	struct timeval tv = { 0, 200000 };
	char req[65536];
	int c, k;

	for (k = 0; k < 40; k++) {
		if ((c = accept(fd, NULL, NULL)) == -1)
			_exit(0);
		setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		(void)read(c, req, sizeof(req));	/* what it asks: all one */
		write_all(c, payload, cut < n ? cut : n);
		usleep(1000);
		if (cut < n)
			write_all(c, payload + cut, n - cut);
		shutdown(c, SHUT_RDWR);
		close(c);
	}
	_exit(0);
}

/* A remote server (the bytes after 'h'): cut, max_line, then its answer. */
static void
remote(const uint8_t *h, size_t size)
{
	struct sockaddr_in sa;
	socklen_t salen = sizeof(sa);
	struct mcp m;
	struct mcp_call c;
	struct mcp_outcome o;
	char arg[80], err[64];
	json_t *rec;
	pid_t pid;
	double t;
	int fd;

	if (size < 2)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == -1 ||
	    listen(fd, 8) == -1 ||
	    getsockname(fd, (struct sockaddr *)&sa, &salen) == -1)
		abort();
	if ((pid = fork()) == 0)
		http_serve(fd, (const char *)h + 2, size - 2, (size_t)h[0] * 8);
	check(pid > 0, "fork");
	close(fd);
	mcp_init(&m);
	m.timeout = 2;
	m.proto = MCP_PROTO_MODERN;
	m.max_line = 16 + (size_t)h[1] * 64;
	snprintf(arg, sizeof(arg), "s=http://127.0.0.1:%d/mcp",
	    ntohs(sa.sin_port));
	if (mcp_server_arg(&m, arg, err, sizeof(err)) != 0)
		abort();
	t = run_call(&m, &c, &o);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);

	check(t < 8, "the call did not end within its time limit");
	rec = record_of(&o, c.id);
	check(!m.v[0].running, "a server still running");
	json_decref(rec);
	json_decref(c.args);
	buf_free(&o.record);
	buf_free(&o.message);
	mcp_free(&m);
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
	else if (data[0] == 'e')
		events(data + 1, size - 1);
	else if (data[0] == 'h')
		remote(data + 1, size - 1);
	else
		record(s, size - 1);
	return 0;
}

