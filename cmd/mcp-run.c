/*
 * mcp-run: reads the tool calls toolcall-parse writes, one JSON record a
 * line, runs each on the MCP server that has the tool (started over stdio
 * on first use, without a shell), and writes each answer as the
 * tool_result or error event thread-serialize reads, in input order.
 * A call that fails or is refused is status 1; a server that cannot be
 * started or breaks the protocol, 3. --list-tools writes their tools,
 * --list-servers their names.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "base/diag.h"
#include "base/num.h"
#include "base/proc.h"
#include "mcp/mcp.h"

#define MAX_SECONDS	86400.0

enum {
	OPT_LIST_SERVERS = CMD_OPT_FIRST,
	OPT_LIST_TOOLS,
	OPT_MAX_LINE,
	OPT_PROTOCOL,
	OPT_SERVER
};

static const struct option longopts[] = {
	CMD_LONGOPTS,
	{ "config",		required_argument,	NULL, 'c' },
	{ "list-servers",	no_argument,		NULL, OPT_LIST_SERVERS },
	{ "list-tools",		no_argument,		NULL, OPT_LIST_TOOLS },
	{ "max-line",		required_argument,	NULL, OPT_MAX_LINE },
	{ "protocol",		required_argument,	NULL, OPT_PROTOCOL },
	{ "server",		required_argument,	NULL, OPT_SERVER },
	{ "timeout",		required_argument,	NULL, 'T' },
	{ "unbuffered",		no_argument,		NULL, 'u' },
	{ NULL,			0,			NULL, 0 }
};

static const struct cmd self = {
	"usage: mcp-run [-hu] [-c FILE] [--errors=json|text] "
	"[--max-line SIZE]\n"
	"               [--protocol VERSION] [--server NAME=COMMAND] "
	"[-T SECONDS]\n"
	"               [FILE ...]\n"
	"       mcp-run --list-tools [-c FILE] [--max-line SIZE] "
	"[--server NAME=COMMAND]\n"
	"               [-T SECONDS] [NAME ...]\n"
	"       mcp-run --list-servers [-c FILE] [--server NAME=COMMAND]\n",
	"0 every call succeeded, 1 a call failed or was refused (a name was "
	"not listed), 2 usage, 3 trouble"
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

int
main(int argc, char *argv[])
{
	struct mcp m;
	const char *unknown, *file;
	char err[256];
	int ch, configured = 0, list = 0, names = 0, unbuffered = 0, status;

	proc_ignore_xfsz();	/* first: the servers get back what it finds */
	cmd_init(&self, argv);
	mcp_init(&m);
	m.note = say;
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
			configured = 1;
			if ((status = mcp_config_file(&m, optarg)) != DIAG_OK)
				goto out;
			break;
		case 'u':
			unbuffered = 1;
			break;
		case OPT_LIST_SERVERS:
			names = 1;
			break;
		case OPT_LIST_TOOLS:
			list = 1;
			break;
		case OPT_MAX_LINE:
			if ((m.max_line = num_size(optarg)) == 0)
				cmd_usagex("--max-line must be a positive size "
				    "in bytes (K, M, G allowed), not \"%s\"",
				    optarg);
			break;
		case OPT_PROTOCOL:
			m.proto = cmd_choice("--protocol", optarg,
			    mcp_protocols);
			break;
		case OPT_SERVER:
			configured = 1;
			if (mcp_server_arg(&m, optarg, err, sizeof(err)) != 0)
				cmd_usagex("%s", err);
			break;
		default:
			cmd_usage();
		}
	}
	argc -= optind;
	argv += optind;
	/* as Claude Code reads a project's servers */
	if (!configured && access(".mcp.json", F_OK) == 0 &&
	    (status = mcp_config_file(&m, ".mcp.json")) != DIAG_OK)
		goto out;
	if (m.n == 0)
		cmd_usagex("no server: give -c FILE or --server NAME=COMMAND, "
		    "or write .mcp.json here");
	if (list && names)
		cmd_usagex("--list-tools and --list-servers go one at a time");
	if (names && argc > 0)
		cmd_usagex("--list-servers takes no operand");
	if (list && argc > 0 &&
	    (unknown = mcp_keep(&m, argv, (size_t)argc)) != NULL) {
		diag_quote(err, sizeof(err), unknown, strlen(unknown));
		if ((file = mcp_disabled(&m, unknown)) != NULL)
			cmd_usagex("--list-tools: server %s is disabled in %s",
			    err, file);
		cmd_usagex("--list-tools: no server %s is configured", err);
	}
	mcp_sort(&m);
	if (!names && proc_init() == -1) {	/* before any server starts */
		diag_warn("signals");
		status = DIAG_TROUBLE;
	} else
		status = cmd_exit(mcp_run(&m, names ? MCP_RUN_SERVERS :
		    list ? MCP_RUN_TOOLS : MCP_RUN_CALLS, unbuffered, argc,
		    argv));
out:
	mcp_free(&m);
	return status;
}
