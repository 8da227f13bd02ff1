/*
 * toolcall-parse: reads a model's output as it streams (prose, markdown,
 * anything) and writes each <tool> call in it as one JSON line the moment
 * its </tool> has been read; --events writes the prose and the errors too.
 * A malformed or truncated call is reported with its place in the stream
 * and skipped; the status is then 1 once the input has all been read.
 * What the model writes in its reasoning is never read for calls.
 * With --lines each line is a JSON string that holds one output, and
 * -o report writes one verdict record per input, its calls in it.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "base/diag.h"
#include "base/num.h"
#include "base/xalloc.h"
#include "check/checker.h"
#include "toolcall/toolcall.h"
#include "toolcall/tooldefs.h"
#include "help/toolcall-parse.h"

enum {
	OPT_BEGINS = CHECKER_OPT_FIRST,
	OPT_EVENTS,
	OPT_FORMAT,
	OPT_ITERATION,
	OPT_MAX_SIZE,
	OPT_NO_VALIDATE,
	OPT_PRINT_PROMPT,
	OPT_REASONING,
	OPT_STRICT,
	OPT_THREAD,
	OPT_TOOLS
};

/* Its own options; -q, -o, --lines and --summary are shared. */
static const struct option longopts[] = {
	{ "begins-in-reasoning", required_argument,	NULL, OPT_BEGINS },
	{ "events",		no_argument,		NULL, OPT_EVENTS },
	{ "format",		required_argument,	NULL, OPT_FORMAT },
	{ "iteration",		required_argument,	NULL, OPT_ITERATION },
	{ "max-size",		required_argument,	NULL, OPT_MAX_SIZE },
	{ "no-validate",	no_argument,		NULL, OPT_NO_VALIDATE },
	{ "print-prompt",	no_argument,		NULL, OPT_PRINT_PROMPT },
	{ "reasoning",		required_argument,	NULL, OPT_REASONING },
	{ "strict",		no_argument,		NULL, OPT_STRICT },
	{ "thread",		no_argument,		NULL, OPT_THREAD },
	{ "tools",		required_argument,	NULL, OPT_TOOLS },
	{ "unbuffered",		no_argument,		NULL, 'u' },
	{ NULL,			0,			NULL, 0 }
};

/* Its rule among the shared options; -o report's with its own are below. */
static const struct checker_rule rules[] = {
	{ CHECKER_SUMMARY, 0, 1U << TOOLCALL_OUT_JUNIT, "--summary cannot go "
	    "with -o junit: the report holds the counts" },
	{ 0, 0, 0, NULL }
};

static struct checker ck = {
	.has = CHECKER_QUIET | CHECKER_OUTPUT | CHECKER_LINES |
	    CHECKER_SUMMARY,
	.outputs = toolcall_outputs,
	.rules = rules,
	.output = TOOLCALL_OUT_NONE
};

/* Standard output's buffer, as large as a read of the input. */
static char	outbuf[65536];

static const struct cmd self = {
	"usage: toolcall-parse [-hqu] [--begins-in-reasoning auto|yes|no]\n"
	"                      [--errors=github|json|text] [--events] "
	"[--format NAME]\n"
	"                      [--iteration N] [--lines] [--max-size BYTES]\n"
	"                      [--no-validate] [-o none|junit|report] "
	"[--print-prompt]\n"
	"                      [--reasoning skip|events|calls] [--strict] "
	"[--summary]\n"
	"                      [--thread] [--tools FILE] [FILE ...]\n",
	"0 all calls read, 1 a malformed or truncated call, 2 usage, 3 trouble",
	CMD_HELP
};

int
main(int argc, char *argv[])
{
	struct toolcall_args a;
	struct tooldefs defs = { NULL, 0, NULL, 0 };
	struct buf prompt = BUF_INIT;
	const char *errstr, **tools = NULL;
	char err[1024];
	int ch, ntools = 0, print_prompt = 0, status, iteration = 0, i;
	int begins = 0, rc;

	memset(&a, 0, sizeof(a));
	a.opts.max_size = TOOLCALL_MAX_SIZE;
	a.opts.format = TOOLCALL_FMT_TOOL;
	a.opts.reasoning = TOOLCALL_REASON_SKIP;
	a.opts.begins = TOOLCALL_BEGINS_AUTO;
	cmd_init(&self, argv);
	while ((ch = checker_getopt(&ck, argc, argv, "hu", longopts)) != -1) {
		switch (ch) {
		case 'u':
			a.opts.unbuffered = 1;
			break;
		case OPT_BEGINS:
			a.opts.begins = cmd_choice("--begins-in-reasoning",
			    optarg, toolcall_beginnings);
			begins = 1;
			break;
		case OPT_EVENTS:
			a.opts.events = 1;
			break;
		case OPT_FORMAT:
			a.opts.format = cmd_choice("--format", optarg,
			    toolcall_formats());
			break;
		case OPT_ITERATION:
			a.opts.iteration = (long)num_whole(optarg, 0, LONG_MAX,
			    &errstr);
			if (errstr != NULL)
				cmd_usagex("--iteration must be a whole number, "
				    "not \"%s\"", optarg);
			iteration = 1;
			break;
		case OPT_MAX_SIZE:
			if ((a.opts.max_size = num_size(optarg)) == 0)
				cmd_usagex("--max-size must be a positive size "
				    "in bytes (K, M, G allowed), not \"%s\"",
				    optarg);
			break;
		case OPT_NO_VALIDATE:
			a.opts.no_validate = 1;
			break;
		case OPT_PRINT_PROMPT:
			print_prompt = 1;
			break;
		case OPT_REASONING:
			a.opts.reasoning = cmd_choice("--reasoning", optarg,
			    toolcall_reasonings);
			break;
		case OPT_STRICT:
			a.opts.strict = 1;
			break;
		case OPT_THREAD:
			a.opts.thread = 1;
			break;
		case OPT_TOOLS:
			/* read after the options: their warnings follow -q
			 * and --errors wherever those are */
			tools = xreallocarray(tools, ntools + 1,
			    sizeof(*tools));
			tools[ntools++] = optarg;
			break;
		default:
			cmd_usage();
		}
	}
	argc -= optind;
	argv += optind;
	for (i = 0; i < ntools; i++)
		if ((rc = tooldefs_load(&defs, tools[i], err,
		    sizeof(err))) != 0) {
			diag_warnx("%s", err);
			tooldefs_free(&defs);
			free(tools);
			return rc == TOOLDEFS_TROUBLE ? DIAG_TROUBLE :
			    DIAG_USAGE;
		}
	free(tools);
	if (a.opts.thread && a.opts.events)
		cmd_usagex("--thread and --events cannot go together: each "
		    "says how calls are written");
	if (iteration && !a.opts.thread)
		cmd_usagex("--iteration goes with --thread");
	if (a.opts.format == TOOLCALL_FMT_OPENAI &&
	    a.opts.reasoning == TOOLCALL_REASON_CALLS)
		cmd_usagex("--reasoning calls does not go with --format openai: "
		    "the server sends reasoning apart, and no call in it");
	if (a.opts.format == TOOLCALL_FMT_OPENAI && begins)
		cmd_usagex("--begins-in-reasoning does not go with --format "
		    "openai: the server sends reasoning apart");
	if (begins && a.opts.reasoning == TOOLCALL_REASON_CALLS)
		cmd_usagex("--begins-in-reasoning goes with --reasoning skip "
		    "or events: with calls, reasoning is prose");
	if (a.opts.no_validate && ntools == 0)
		cmd_usagex("--no-validate goes with --tools");
	if (ck.output == TOOLCALL_OUT_REPORT &&
	    (a.opts.events || a.opts.thread))
		cmd_usagex("-o report cannot go with --%s: the record holds the "
		    "calls", a.opts.events ? "events" : "thread");
	if (ck.output == TOOLCALL_OUT_JUNIT &&
	    (a.opts.events || a.opts.thread))
		cmd_usagex("-o junit cannot go with --%s: the report is all it "
		    "writes", a.opts.events ? "events" : "thread");
	checker_rules(&ck);
	if (print_prompt && a.opts.format == TOOLCALL_FMT_OPENAI)
		cmd_usagex("--print-prompt does not go with --format openai: "
		    "the server takes the tools in its request");
	if (ntools > 0)
		a.opts.tools = &defs;
	a.ck = &ck;
	if (print_prompt) {
		/* auto reads every markup: it is taught the kit's own */
		tooldefs_prompt(&defs, a.opts.format == TOOLCALL_FMT_AUTO ?
		    TOOLCALL_FMT_TOOL : a.opts.format, &prompt);
		fwrite(prompt.data, 1, prompt.len, stdout);
		buf_free(&prompt);
		tooldefs_free(&defs);
		return cmd_exit(DIAG_OK);
	}
	/*
	 * A call is written as soon as it is read, and flushed before each
	 * read; the buffer holds what one read gives (glibc ignores the size
	 * when it is to allocate the buffer itself).
	 */
	if (setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf)) != 0)
		status = DIAG_TROUBLE;
	else
		status = toolcall_run(&a, argc, argv);
	status = cmd_exit(status);
	tooldefs_free(&defs);
	return status;
}
