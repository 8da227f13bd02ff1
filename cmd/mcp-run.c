/*
 * mcp-run: reads the tool calls toolcall-parse writes, one JSON record a
 * line, runs each on the MCP server that has the tool (started over stdio
 * on first use, without a shell), and writes each answer as the
 * tool_result or error event thread-serialize reads, in input order.
 * A call that fails or is refused is status 1; a server that cannot be
 * started or breaks the protocol, 3. --list-tools writes their tools,
 * --list-servers their names.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "cmd.h"
#include "diag.h"
#include "io.h"
#include "jsonx.h"
#include "mcp.h"
#include "num.h"
#include "proc.h"
#include "src.h"

#define MAX_SECONDS	86400.0
#define READ_SIZE	65536

enum {
	OPT_LIST_SERVERS = CMD_OPT_FIRST,
	OPT_LIST_TOOLS,
	OPT_PROTOCOL,
	OPT_SERVER
};

static const struct option longopts[] = {
	CMD_LONGOPTS,
	{ "config",		required_argument,	NULL, 'c' },
	{ "list-servers",	no_argument,		NULL, OPT_LIST_SERVERS },
	{ "list-tools",		no_argument,		NULL, OPT_LIST_TOOLS },
	{ "protocol",		required_argument,	NULL, OPT_PROTOCOL },
	{ "server",		required_argument,	NULL, OPT_SERVER },
	{ "timeout",		required_argument,	NULL, 'T' },
	{ "unbuffered",		no_argument,		NULL, 'u' },
	{ NULL,			0,			NULL, 0 }
};

static const struct cmd self = {
	"usage: mcp-run [-hu] [-c FILE] [--errors=json|text] "
	"[--protocol VERSION]\n"
	"               [--server NAME=COMMAND] [-T SECONDS] [FILE ...]\n"
	"       mcp-run --list-tools [-c FILE] [--server NAME=COMMAND] "
	"[-T SECONDS]\n"
	"               [NAME ...]\n"
	"       mcp-run --list-servers [-c FILE] [--server NAME=COMMAND]\n",
	"0 every call succeeded, 1 a call failed or was refused (a name was "
	"not listed), 2 usage, 3 trouble"
};

struct run {
	struct mcp	*m;
	int		 unbuffered;
	unsigned long	 calls;		/* read so far, in all operands */
};

/* A server's line on our standard error: "NAME: TEXT". */
static void
say(void *arg, const char *server, const char *text, size_t len)
{
	struct buf line = BUF_INIT;

	diag_escape(&line, server, strlen(server), 0);
	buf_adds(&line, ": ");
	diag_escape(&line, text, len, 0);
	buf_addc(&line, '\n');
	fwrite(line.data, 1, line.len, stderr);
	buf_free(&line);
}

/* A diagnostic at the value that ptr names in the record at off of src. */
static void
at(struct src *src, size_t off, const char *ptr, const char *rule,
    const char *msg)
{
	struct jsonx_locator l;
	struct diag_loc loc;

	jsonx_locator_init(&l, src->s, src->n);
	src_loc(src, jsonx_locate(&l, off, ptr), &loc);
	jsonx_locator_free(&l);
	loc.path = *ptr != '\0' ? ptr : NULL;
	diag_at(DIAG_ERROR, &loc, rule, "%s", msg);
}

/* One input line: its call run and its event written. A status. */
static int
one_line(struct run *r, struct src *src)
{
	struct jsonx_error err;
	struct diag_loc loc;
	struct mcp_outcome o;
	struct mcp_call c;
	struct buf text = BUF_INIT;
	const char *ptr;
	char msg[256];
	json_t *v;
	size_t off, end;
	int rc;

	off = jsonx_skip_ws(src->s, src->n, src->start);
	if (off == src->n)
		return DIAG_OK;
	if ((v = jsonx_parse(src->s, src->n, off, &end, &err)) == NULL ||
	    (end = jsonx_skip_ws(src->s, src->n, end)) < src->n) {
		if (v != NULL) {
			err.offset = end;
			err.first = JSONX_NOPOS;
			snprintf(err.rule, sizeof(err.rule), "json-syntax");
			snprintf(err.text, sizeof(err.text), "invalid JSON: "
			    "text after the record");
		} else
			jsonx_end_noun(&err, "line");
		if (err.first != JSONX_NOPOS) {
			src_loc(src, err.first, &loc);
			jsonx_dup_text(&err, loc.line, loc.col);
		}
		src_loc(src, err.offset, &loc);
		loc.path = NULL;
		diag_at(DIAG_ERROR, &loc, err.rule, "%s", err.text);
		json_decref(v);
		return DIAG_INVALID;
	}
	rc = mcp_call_read(&c, v, r->calls + 1, msg, sizeof(msg), &ptr);
	if (rc <= 0) {
		if (rc < 0)
			at(src, off, ptr, "mcp-call", msg);
		json_decref(v);
		return rc < 0 ? DIAG_INVALID : DIAG_OK;
	}
	r->calls++;
	memset(&o, 0, sizeof(o));
	mcp_call_run(r->m, &c, &o);
	if (o.status == DIAG_INVALID && o.refused)
		at(src, off, o.ptr, "mcp-refused", buf_cstr(&o.message));
	else if (o.status == DIAG_INVALID) {
		diag_quote(msg, sizeof(msg), c.tool, strlen(c.tool));
		buf_printf(&text, "tool %s on %s failed: %s", msg, o.server,
		    buf_cstr(&o.message));
		at(src, off, c.ptr_tool, "mcp-failed", buf_cstr(&text));
		buf_free(&text);
	}
	if (io_write(o.record.data, o.record.len, stdout) != 0 ||
	    (r->unbuffered && fflush(stdout) != 0))
		o.status = DIAG_TROUBLE;
	mcp_call_free(&c);
	json_decref(v);
	rc = o.status;
	buf_free(&o.record);
	buf_free(&o.message);
	return rc;
}

/*
 * The calls of one operand, a line each, read with read(2) once the
 * servers have been listened to until it is readable: a server's lines
 * reach stderr while we wait for input, and a stop signal ends the wait.
 */
static int
process(FILE *fp, const char *name, void *arg)
{
	static char chunk[READ_SIZE];
	struct run *r = arg;
	struct buf in = BUF_INIT;
	struct src src;
	unsigned long lineno = 0;
	size_t off = 0, scan = 0, end;
	ssize_t n;
	char *nl;
	int status = DIAG_OK, eof = 0;

	while (!r->m->caught && !ferror(stdout)) {
		nl = in.len > scan ? memchr(in.data + scan, '\n', in.len - scan) :
		    NULL;
		if (nl == NULL && !eof) {
			scan = in.len;
			(void)fflush(stdout);	/* nothing waits in it meanwhile */
			if (mcp_wait(r->m, fileno(fp)) != 0)
				break;
			while ((n = read(fileno(fp), chunk, sizeof(chunk))) ==
			    -1 && errno == EINTR)
				continue;
			if (n < 0) {
				diag_warn("%s", name);
				status = DIAG_TROUBLE;
				break;
			}
			if (n == 0)
				eof = 1;
			buf_add(&in, chunk, (size_t)n);
			continue;
		}
		if (nl == NULL && off == in.len)
			break;
		end = nl != NULL ? (size_t)(nl - in.data) + 1 : in.len;
		src_init(&src, name, in.data + off, end - off);
		src_setrecord(&src, ++lineno);
		status = diag_max(status, one_line(r, &src));
		off = scan = end;
		if (off > READ_SIZE && off * 2 > in.len) {
			memmove(in.data, in.data + off, in.len - off);
			in.len -= off;
			off = scan = 0;
		}
	}
	buf_free(&in);
	return status;
}

int
main(int argc, char *argv[])
{
	struct mcp m;
	struct run r;
	struct buf out = BUF_INIT;
	const char *unknown;
	char err[256];
	int ch, list = 0, names = 0, status = DIAG_OK;

	proc_ignore_xfsz();	/* first: the servers get back what it finds */
	cmd_init(&self, argv);
	mcp_init(&m);
	memset(&r, 0, sizeof(r));
	r.m = &m;
	while ((ch = cmd_getopt(argc, argv, "T:c:hut:", longopts)) != -1) {
		switch (ch) {
		case 'T':
		case 't':	/* the spelling */
			if (num_seconds(optarg, MAX_SECONDS, &m.timeout) ==
			    -1 || m.timeout <= 0)
				cmd_usagex("-%c must be a number of seconds "
				    "above 0, at most 86400, not \"%s\"", ch,
				    optarg);
			break;
		case 'c':
			if ((status = mcp_config_file(&m, optarg)) != DIAG_OK)
				goto out;
			break;
		case 'u':
			r.unbuffered = 1;
			break;
		case OPT_LIST_SERVERS:
			names = 1;
			break;
		case OPT_LIST_TOOLS:
			list = 1;
			break;
		case OPT_PROTOCOL:
			if (mcp_proto_arg(&m, optarg) != 0)
				cmd_usagex("--protocol must be auto, %s or %s, "
				    "not \"%s\"", MCP_MODERN_VERSION,
				    MCP_LEGACY_VERSION, optarg);
			break;
		case OPT_SERVER:
			if (mcp_server_arg(&m, optarg, err, sizeof(err)) != 0)
				cmd_usagex("%s", err);
			break;
		default:
			cmd_usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (m.n == 0)
		cmd_usagex("no server: give -c FILE or --server NAME=COMMAND");
	if (list && names)
		cmd_usagex("--list-tools and --list-servers go one at a time");
	if (names && argc > 0)
		cmd_usagex("--list-servers takes no operand");
	if (list && argc > 0 &&
	    (unknown = mcp_keep(&m, argv, (size_t)argc)) != NULL)
		cmd_usagex("--list-tools: no server %s is configured",
		    diag_quote(err, sizeof(err), unknown, strlen(unknown)));
	mcp_sort(&m);
	if (names) {
		if (mcp_list_servers(&m, &out) > 0)
			status = DIAG_INVALID;
		(void)io_write(out.data, out.len, stdout);
		status = cmd_exit(status);
		goto out;
	}
	m.note = say;
	if (proc_init() == -1) {
		diag_warn("signals");
		status = DIAG_TROUBLE;
		goto out;
	}
	if (list) {
		status = mcp_list_tools(&m, &out) == 0 ? DIAG_OK : DIAG_TROUBLE;
		(void)io_write(out.data, out.len, stdout);
	} else
		status = cmd_loop(argc, argv, process, &r);
	mcp_shutdown(&m);
	if (m.trouble || m.caught)
		status = diag_max(status, DIAG_TROUBLE);
	status = cmd_exit(status);
out:
	buf_free(&out);
	mcp_free(&m);
	return status;
}
