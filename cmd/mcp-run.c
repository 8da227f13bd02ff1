/*
 * mcp-run: reads the tool calls toolcall-parse writes, one JSON record a
 * line, runs each on the MCP server that has the tool (started over stdio
 * on first use, without a shell), and writes each answer as the
 * tool_result or error event thread-serialize reads, in input order.
 * A call that fails or is refused is status 1; a server that cannot be
 * started or breaks the protocol, 3. --list-tools writes their tools,
 * --list-servers their names; --list-resources, --read, --list-prompts
 * and --get-prompt what they hold beside tools.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "base/diag.h"
#include "base/num.h"
#include "base/proc.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "mcp/mcp.h"
#include "help/mcp-run.h"

#define MAX_SECONDS	86400.0
#define MAX_JOBS	1024

enum {
	OPT_ARG = CMD_OPT_FIRST,
	OPT_CACERT,
	OPT_ELICIT,
	OPT_GET_PROMPT,
	OPT_LIST_PROMPTS,
	OPT_LIST_RESOURCES,
	OPT_LIST_SERVERS,
	OPT_LIST_TOOLS,
	OPT_MAX_LINE,
	OPT_MAX_TIME,
	OPT_PROTOCOL,
	OPT_READ,
	OPT_ROOT,
	OPT_SAMPLING,
	OPT_SERVER,
	OPT_TASKS,
	OPT_UNORDERED
};

/* What a run does but calls, in the order their conflicts are told. */
static const struct {
	int		 opt;
	const char	*name;
	enum mcp_run_mode mode;
} modes[] = {
	{ OPT_LIST_TOOLS,	"--list-tools",		MCP_RUN_TOOLS },
	{ OPT_LIST_SERVERS,	"--list-servers",	MCP_RUN_SERVERS },
	{ OPT_LIST_RESOURCES,	"--list-resources",	MCP_RUN_RESOURCES },
	{ OPT_READ,		"--read",		MCP_RUN_READ },
	{ OPT_LIST_PROMPTS,	"--list-prompts",	MCP_RUN_PROMPTS },
	{ OPT_GET_PROMPT,	"--get-prompt",		MCP_RUN_PROMPT }
};
#define NMODES	(sizeof(modes) / sizeof(modes[0]))

static const struct option longopts[] = {
	CMD_LONGOPTS,
	{ "arg",		required_argument,	NULL, OPT_ARG },
	{ "cacert",		required_argument,	NULL, OPT_CACERT },
	{ "config",		required_argument,	NULL, 'c' },
	{ "elicit",		required_argument,	NULL, OPT_ELICIT },
	{ "get-prompt",		required_argument,	NULL, OPT_GET_PROMPT },
	{ "list-prompts",	no_argument,		NULL, OPT_LIST_PROMPTS },
	{ "list-resources",	no_argument,		NULL, OPT_LIST_RESOURCES },
	{ "list-servers",	no_argument,		NULL, OPT_LIST_SERVERS },
	{ "list-tools",		no_argument,		NULL, OPT_LIST_TOOLS },
	{ "max-line",		required_argument,	NULL, OPT_MAX_LINE },
	{ "max-time",		required_argument,	NULL, OPT_MAX_TIME },
	{ "protocol",		required_argument,	NULL, OPT_PROTOCOL },
	{ "read",		required_argument,	NULL, OPT_READ },
	{ "root",		required_argument,	NULL, OPT_ROOT },
	{ "sampling",		required_argument,	NULL, OPT_SAMPLING },
	{ "server",		required_argument,	NULL, OPT_SERVER },
	{ "tasks",		no_argument,		NULL, OPT_TASKS },
	{ "timeout",		required_argument,	NULL, 'T' },
	{ "unbuffered",		no_argument,		NULL, 'u' },
	{ "unordered",		no_argument,		NULL, OPT_UNORDERED },
	{ "jobs",		required_argument,	NULL, 'j' },
	{ NULL,			0,			NULL, 0 }
};

static const struct cmd self = {
	"usage: mcp-run [-hu] [--cacert FILE] [-c FILE] "
	"[--elicit ask|defaults|decline]\n"
	"               [--errors=github|json|text] [-j N] [--max-line SIZE]\n"
	"               [--max-time SECONDS] [--protocol VERSION] "
	"[--root DIR]\n"
	"               [--sampling COMMAND] [--server NAME=COMMAND|URL] "
	"[--tasks]\n"
	"               [-T SECONDS] [--unordered] [FILE ...]\n"
	"       mcp-run --list-tools [-c FILE] [--max-line SIZE] "
	"[--server NAME=COMMAND]\n"
	"               [-T SECONDS] [NAME ...]\n"
	"       mcp-run --list-servers [-c FILE] [--server NAME=COMMAND]\n"
	"       mcp-run --list-resources | --list-prompts [-c FILE] "
	"[--max-line SIZE]\n"
	"               [--server NAME=COMMAND] [-T SECONDS] [NAME ...]\n"
	"       mcp-run --read URI ... [-c FILE] [--max-line SIZE]\n"
	"               [--server NAME=COMMAND] [-T SECONDS] [NAME ...]\n"
	"       mcp-run --get-prompt PROMPT [--arg KEY=VALUE ...] [-c FILE]\n"
	"               [--max-line SIZE] [--server NAME=COMMAND] "
	"[-T SECONDS]\n"
	"               [NAME ...]\n",
	"0 every call succeeded, 1 a call, read or prompt failed or was "
	"refused (a name was not listed), 2 usage, 3 trouble",
	CMD_HELP
};

/* A command-line text that goes to a server: UTF-8, or a usage error. */
static void
utf8_arg(const char *opt, const char *arg)
{
	char q[256];

	if (utf8_valid(arg, strlen(arg)) < strlen(arg))
		cmd_usagex("%s: %s is not UTF-8", opt, diag_quote(q, sizeof(q),
		    arg, strlen(arg)));
}

/* --arg KEY=VALUE into the prompt's arguments. */
static void
prompt_arg(json_t *args, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char q[256], *key;

	if (eq == NULL || eq == arg)
		cmd_usagex("--arg wants KEY=VALUE, not %s", diag_quote(q,
		    sizeof(q), arg, strlen(arg)));
	utf8_arg("--arg", arg);
	key = xmalloc((size_t)(eq - arg) + 1);
	memcpy(key, arg, (size_t)(eq - arg));
	key[eq - arg] = '\0';
	if (json_object_get(args, key) != NULL)
		cmd_usagex("--arg %s is given twice", diag_quote(q, sizeof(q),
		    key, strlen(key)));
	json_object_set_new(args, key, json_string(eq + 1));
	free(key);
}

int
main(int argc, char *argv[])
{
	struct mcp m;
	struct mcp_ask ask;
	const char *unknown, *mode_name = NULL, *file, *errstr;
	char err[256];
	int ch, configured = 0, unbuffered = 0, status;
	size_t i, given = 0;
	enum mcp_run_mode mode = MCP_RUN_CALLS;
	unsigned char seen[NMODES];

	proc_ignore_xfsz();	/* first: the servers get back what it finds */
	cmd_init(&self, argv);
	mcp_init(&m);
	m.note = mcp_say;
	memset(&ask, 0, sizeof(ask));
	memset(seen, 0, sizeof(seen));
	while ((ch = cmd_getopt(argc, argv, "T:c:hj:ut:", longopts)) != -1) {
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
		case OPT_CACERT:
			m.cacert = optarg;
			break;
		case OPT_ELICIT:
			m.elicit = cmd_choice("--elicit", optarg, mcp_elicits);
			break;
		case OPT_ROOT:
			if (mcp_root_arg(&m, optarg, err, sizeof(err)) != 0)
				cmd_usagex("%s", err);
			break;
		case OPT_SAMPLING:
			if (mcp_sampling_arg(&m, optarg, err, sizeof(err)) != 0)
				cmd_usagex("%s", err);
			break;
		case OPT_TASKS:
			m.tasks = 1;
			break;
		case OPT_UNORDERED:
			m.unordered = 1;
			break;
		case 'j':
			m.parallel = (size_t)num_whole(optarg, 1, MAX_JOBS,
			    &errstr);
			if (errstr != NULL)
				cmd_usagex("-j must be a whole number from 1 to "
				    "%d, not \"%s\"", MAX_JOBS, optarg);
			break;
		case OPT_MAX_TIME:
			if (num_seconds(optarg, MAX_SECONDS, &m.max_time) ==
			    -1 || m.max_time <= 0)
				cmd_usagex("--max-time must be a number of "
				    "seconds above 0, at most 86400, not \"%s\"",
				    optarg);
			break;
		case OPT_ARG:
			/* made only when needed: a usage error leaves none */
			if (ask.args == NULL)
				ask.args = json_object();
			prompt_arg(ask.args, optarg);
			given++;
			break;
		case OPT_GET_PROMPT:
			if (ask.prompt != NULL)
				cmd_usagex("--get-prompt is given twice");
			utf8_arg("--get-prompt", optarg);
			ask.prompt = optarg;
			goto chosen;
		case OPT_READ:
			utf8_arg("--read", optarg);
			ask.uris = xreallocarray(ask.uris, ask.nuris + 1,
			    sizeof(*ask.uris));
			ask.uris[ask.nuris++] = optarg;
			goto chosen;
		case OPT_LIST_PROMPTS:
		case OPT_LIST_RESOURCES:
		case OPT_LIST_SERVERS:
		case OPT_LIST_TOOLS:
		chosen:
			for (i = 0; i < NMODES; i++)
				if (modes[i].opt == ch)
					seen[i] = 1;
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
	for (i = 0; i < NMODES; i++) {
		if (!seen[i])
			continue;
		if (mode_name != NULL)
			cmd_usagex("%s and %s go one at a time", mode_name,
			    modes[i].name);
		mode_name = modes[i].name;
		mode = modes[i].mode;
	}
	if (given > 0 && mode != MCP_RUN_PROMPT)
		cmd_usagex("--arg goes with --get-prompt");
	if (mode == MCP_RUN_SERVERS && argc > 0)
		cmd_usagex("--list-servers takes no operand");
	if (mode != MCP_RUN_CALLS && argc > 0 &&
	    (unknown = mcp_keep(&m, argv, (size_t)argc)) != NULL) {
		diag_quote(err, sizeof(err), unknown, strlen(unknown));
		if ((file = mcp_disabled(&m, unknown)) != NULL)
			cmd_usagex("%s: server %s is disabled in %s", mode_name,
			    err, file);
		cmd_usagex("%s: no server %s is configured", mode_name, err);
	}
	mcp_sort(&m);
	if (mode != MCP_RUN_SERVERS && proc_init() == -1) {
		/* before any server starts */
		diag_warn("signals");
		status = DIAG_TROUBLE;
	} else
		status = cmd_exit(mcp_run(&m, mode, &ask, unbuffered, argc,
		    argv));
out:
	free(ask.uris);
	json_decref(ask.args);
	mcp_free(&m);
	return status;
}
