/*
 * llm-loop: the agent loop as one command. The user's message goes into
 * the thread; each iteration the model's command gets the thread as its
 * prompt, the calls in its answer run (once approved) on MCP servers
 * kept for the whole run, and their results go into the thread, until
 * an answer calls nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "base/diag.h"
#include "base/io.h"
#include "base/num.h"
#include "base/proc.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "loop/loop.h"
#include "mcp/mcp.h"
#include "toolcall/toolcall.h"
#include "toolcall/tooldefs.h"
#include "help/llm-loop.h"

#define MAX_SECONDS	86400.0
#define MAX_ITER	1000000
#define MAX_RETRIES	100

enum {
	OPT_ALLOW = CMD_OPT_FIRST,
	OPT_BEGINS,
	OPT_CACERT,
	OPT_DRY_RUN,
	OPT_FORMAT,
	OPT_MAX_PROMPT,
	OPT_RESUME,
	OPT_RETRIES,
	OPT_ROOT,
	OPT_SERVER,
	OPT_SYSTEM
};

static const struct option longopts[] = {
	CMD_LONGOPTS,
	{ "allow",		required_argument,	NULL, OPT_ALLOW },
	{ "begins-in-reasoning", required_argument,	NULL, OPT_BEGINS },
	{ "cacert",		required_argument,	NULL, OPT_CACERT },
	{ "config",		required_argument,	NULL, 'c' },
	{ "delay",		required_argument,	NULL, 'w' },
	{ "dry-run",		no_argument,		NULL, OPT_DRY_RUN },
	{ "format",		required_argument,	NULL, OPT_FORMAT },
	{ "max-iterations",	required_argument,	NULL, 'n' },
	{ "max-prompt",		required_argument,	NULL, OPT_MAX_PROMPT },
	{ "output",		required_argument,	NULL, 'o' },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "resume",		no_argument,		NULL, OPT_RESUME },
	{ "retries",		required_argument,	NULL, OPT_RETRIES },
	{ "root",		required_argument,	NULL, OPT_ROOT },
	{ "server",		required_argument,	NULL, OPT_SERVER },
	{ "system",		required_argument,	NULL, OPT_SYSTEM },
	{ "thread",		required_argument,	NULL, 't' },
	{ "timeout",		required_argument,	NULL, 'T' },
	{ "yes",		no_argument,		NULL, 'y' },
	{ NULL,			0,			NULL, 0 }
};

static const struct cmd self = {
	"usage: llm-loop [-hqy] [--allow PATTERN] "
	"[--begins-in-reasoning auto|yes|no]\n"
	"                [-c FILE] [--cacert FILE] [--dry-run]\n"
	"                [--errors=github|json|text] [--format NAME]\n"
	"                [--max-prompt BYTES] [-n MAX] [-o prose|events] "
	"[--resume]\n"
	"                [--retries N] [--root DIR] "
	"[--server NAME=COMMAND|URL]\n"
	"                [--system FILE] [-T SECONDS] [-t FILE] "
	"[-w SECONDS]\n"
	"                [MESSAGE ...] -- COMMAND [ARG ...]\n",
	"0 the model answered without a call, 1 no answer (-n reached, the "
	"person quit, or the thread file is not a thread), 2 usage, "
	"3 trouble",
	CMD_HELP
};

static const struct cmd_choice outputs[] = {
	{ "prose",	LOOP_OUT_PROSE },
	{ "events",	LOOP_OUT_EVENTS },
	{ NULL,		0 }
};

/* A file's whole text (the system prompt), or a usage error. */
static void
slurp(const char *opt, const char *path, struct buf *out)
{
	FILE *fp;

	if ((fp = fopen(path, "r")) == NULL || io_slurp(fp, out) != 0)
		cmd_usagex("%s %s: %s", opt, path, strerror(errno));
	fclose(fp);
	if (utf8_valid(out->data != NULL ? out->data : "", out->len) <
	    out->len)
		cmd_usagex("%s %s: not UTF-8", opt, path);
}

int
main(int argc, char *argv[])
{
	struct mcp m;
	struct loop_opts o;
	struct buf system = BUF_INIT, message = BUF_INIT;
	char err[256], **allow = NULL;
	const char *errstr;
	int ch, i, dash = -1, configured = 0, resume = 0, status;
	size_t nallow = 0;

	proc_ignore_xfsz();	/* first: the commands get back what it finds */
	cmd_init(&self, argv);
	/* the model's command: after the first "--", never read here */
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			dash = i;
			break;
		}
	mcp_init(&m);
	memset(&o, 0, sizeof(o));
	o.max_iter = 20;
	o.retries = 2;
	o.delay = 1;
	o.begins = TOOLCALL_BEGINS_AUTO;
	while ((ch = cmd_getopt(dash >= 0 ? dash : argc, argv, "T:c:hn:o:qt:w:y",
	    longopts)) != -1) {
		switch (ch) {
		case 'T':
			if (num_seconds(optarg, MAX_SECONDS, &m.timeout) ==
			    -1 || m.timeout <= 0)
				cmd_usagex("-T must be a number of seconds "
				    "above 0, at most 86400, not \"%s\"",
				    optarg);
			break;
		case 'c':
			configured = 1;
			if ((status = mcp_config_file(&m, optarg)) != DIAG_OK)
				goto out;
			break;
		case 'n':
			o.max_iter = (long)num_whole(optarg, 1, MAX_ITER,
			    &errstr);
			if (errstr != NULL)
				cmd_usagex("-n must be a whole number from 1 to "
				    "%d, not \"%s\"", MAX_ITER, optarg);
			break;
		case 'o':
			o.output = cmd_choice("-o", optarg, outputs);
			break;
		case 'q':
			o.quiet = 1;
			break;
		case 't':
			o.thread = optarg;
			break;
		case 'w':
			if (num_seconds(optarg, MAX_SECONDS, &o.delay) == -1)
				cmd_usagex("-w must be a number of seconds from "
				    "0 to 86400, not \"%s\"", optarg);
			break;
		case 'y':
			o.yes = 1;
			break;
		case OPT_ALLOW:
			if (*optarg == '\0')
				cmd_usagex("--allow wants a pattern, "
				    "SERVER:TOOL or SERVER");
			allow = xreallocarray(allow, nallow + 1,
			    sizeof(*allow));
			allow[nallow++] = optarg;
			break;
		case OPT_BEGINS:
			o.begins = cmd_choice("--begins-in-reasoning", optarg,
			    toolcall_beginnings);
			break;
		case OPT_CACERT:
			m.cacert = optarg;
			break;
		case OPT_DRY_RUN:
			o.dry_run = 1;
			break;
		case OPT_FORMAT:
			o.format = cmd_choice("--format", optarg,
			    toolcall_formats());
			if (tooldefs_markup_name(o.format) == NULL)
				cmd_usagex("--format %s reads calls but cannot "
				    "be taught to a model: name one markup",
				    optarg);
			break;
		case OPT_MAX_PROMPT:
			if ((o.max_prompt = num_size(optarg)) == 0)
				cmd_usagex("--max-prompt must be a positive "
				    "size in bytes (K, M, G allowed), not "
				    "\"%s\"", optarg);
			break;
		case OPT_RESUME:
			resume = 1;
			break;
		case OPT_RETRIES:
			o.retries = (long)num_whole(optarg, 0, MAX_RETRIES,
			    &errstr);
			if (errstr != NULL)
				cmd_usagex("--retries must be a whole number "
				    "from 0 to %d, not \"%s\"", MAX_RETRIES,
				    optarg);
			break;
		case OPT_ROOT:
			if (mcp_root_arg(&m, optarg, err, sizeof(err)) != 0)
				cmd_usagex("%s", err);
			break;
		case OPT_SERVER:
			configured = 1;
			if (mcp_server_arg(&m, optarg, err, sizeof(err)) != 0)
				cmd_usagex("%s", err);
			break;
		case OPT_SYSTEM:
			buf_reset(&system);
			slurp("--system", optarg, &system);
			o.system = buf_cstr(&system);
			o.system_len = system.len;
			break;
		default:
			cmd_usage();
		}
	}
	if (dash < 0 || dash + 1 >= argc)
		cmd_usagex("no model command: give it after --");
	o.model = argv + dash + 1;
	o.allow = allow;
	o.nallow = nallow;
	if (resume && optind < dash)
		cmd_usagex("--resume takes no message");
	if (resume && o.thread == NULL)
		cmd_usagex("--resume goes with -t FILE");
	if (!resume) {
		for (i = optind; i < dash; i++) {
			if (i > optind)
				buf_addc(&message, ' ');
			buf_adds(&message, argv[i]);
		}
		if (optind == dash && io_slurp(stdin, &message) != 0) {
			diag_warn("<stdin>");
			status = DIAG_TROUBLE;
			goto out;
		}
		if (loop_blank(message.data, message.len))
			cmd_usagex("no message: give it as operands or on "
			    "standard input");
		if (utf8_valid(message.data, message.len) < message.len)
			cmd_usagex("the message is not UTF-8");
		o.message = buf_cstr(&message);
		o.message_len = message.len;
	}
	/* as Claude Code reads a project's servers */
	if (!configured && access(".mcp.json", F_OK) == 0 &&
	    (status = mcp_config_file(&m, ".mcp.json")) != DIAG_OK)
		goto out;
	mcp_sort(&m);
	if (!o.quiet)
		m.note = mcp_say;
	if (proc_init() == -1) {
		diag_warn("signals");
		status = DIAG_TROUBLE;
	} else
		status = cmd_exit(loop_run(&m, &o));
out:
	free(allow);
	buf_free(&system);
	buf_free(&message);
	mcp_free(&m);
	return status;
}
