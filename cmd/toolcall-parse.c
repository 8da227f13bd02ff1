/*
 * toolcall-parse: reads a model's output as it streams (prose, markdown,
 * anything) and writes each <tool> call in it as one JSON line the moment
 * its </tool> has been read; --events writes the prose and the errors too.
 * A malformed or truncated call is reported with its place in the stream
 * and skipped; the status is then 1 once the input has all been read.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "diag.h"
#include "num.h"
#include "toolcall.h"
#include "tooldefs.h"

#define READ_SIZE	65536

static char	outbuf[READ_SIZE];

enum {
	OPT_EVENTS = CMD_OPT_FIRST,
	OPT_FORMAT,
	OPT_ITERATION,
	OPT_MAX_SIZE,
	OPT_NO_VALIDATE,
	OPT_PRINT_PROMPT,
	OPT_STRICT,
	OPT_THREAD,
	OPT_TOOLS
};

static const struct option longopts[] = {
	CMD_LONGOPTS,
	{ "events",		no_argument,		NULL, OPT_EVENTS },
	{ "format",		required_argument,	NULL, OPT_FORMAT },
	{ "iteration",		required_argument,	NULL, OPT_ITERATION },
	{ "max-size",		required_argument,	NULL, OPT_MAX_SIZE },
	{ "no-validate",	no_argument,		NULL, OPT_NO_VALIDATE },
	{ "print-prompt",	no_argument,		NULL, OPT_PRINT_PROMPT },
	{ "strict",		no_argument,		NULL, OPT_STRICT },
	{ "thread",		no_argument,		NULL, OPT_THREAD },
	{ "tools",		required_argument,	NULL, OPT_TOOLS },
	{ "unbuffered",		no_argument,		NULL, 'u' },
	{ NULL,			0,			NULL, 0 }
};

static const struct cmd self = {
	"usage: toolcall-parse [-hu] [--errors=json|text] [--events] "
	"[--format NAME]\n"
	"                      [--iteration N] [--max-size BYTES] "
	"[--no-validate]\n"
	"                      [--print-prompt] [--strict] [--thread] "
	"[--tools FILE]\n"
	"                      [FILE ...]\n",
	"0 all calls read, 1 a malformed or truncated call, 2 usage, 3 trouble"
};

/* The TOOLCALL_FMT_ of --format's name, or -1. */
static int
format_arg(const char *name)
{
	static const char *const names[] = {
		"tool", "qwen3", "invoke", "glm", "hermes", "auto"
	};
	int i;

	for (i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

/*
 * One operand, read with read(2) rather than stdio, so that no call waits
 * for a full buffer: what has arrived is parsed, and written, at once.
 */
static int
process(FILE *fp, const char *name, void *arg)
{
	static char chunk[READ_SIZE];
	const struct toolcall_opts *opts = arg;
	struct toolcall *tc;
	ssize_t n;
	int status;

	tc = toolcall_new(opts, stdout, name);
	for (;;) {
		/* what is written reaches the reader before we wait */
		if (fflush(stdout) == EOF)
			break;
		n = read(fileno(fp), chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			diag_warn("%s", name);
			toolcall_end(tc);
			toolcall_free(tc);
			return DIAG_TROUBLE;
		}
		if (n == 0 || toolcall_feed(tc, chunk, (size_t)n) != 0)
			break;
	}
	if (toolcall_end(tc) != 0 || ferror(stdout)) {
		toolcall_free(tc);
		return DIAG_TROUBLE;
	}
	status = toolcall_status(tc);
	toolcall_free(tc);
	return status;
}

int
main(int argc, char *argv[])
{
	struct toolcall_opts opts = { 0, 0, 0, TOOLCALL_MAX_SIZE, NULL, 0, 0, 0,
	    TOOLCALL_FMT_TOOL };
	struct tooldefs defs = { NULL, 0 };
	struct buf prompt = BUF_INIT;
	const char *errstr;
	char err[1024];
	int ch, ntools = 0, print_prompt = 0, status, iteration = 0;

	cmd_init(&self, argv);
	while ((ch = cmd_getopt(argc, argv, "hu", longopts)) != -1) {
		switch (ch) {
		case 'u':
			opts.unbuffered = 1;
			break;
		case OPT_EVENTS:
			opts.events = 1;
			break;
		case OPT_FORMAT:
			if ((opts.format = format_arg(optarg)) == -1)
				cmd_usagex("--format must be tool, qwen3, invoke, "
				    "glm, hermes or auto, not \"%s\"", optarg);
			break;
		case OPT_ITERATION:
			opts.iteration = (long)num_whole(optarg, 0, LONG_MAX,
			    &errstr);
			if (errstr != NULL)
				cmd_usagex("--iteration must be a whole number, "
				    "not \"%s\"", optarg);
			iteration = 1;
			break;
		case OPT_MAX_SIZE:
			if ((opts.max_size = num_size(optarg)) == 0)
				cmd_usagex("--max-size must be a positive size "
				    "in bytes (K, M, G allowed), not \"%s\"",
				    optarg);
			break;
		case OPT_NO_VALIDATE:
			opts.no_validate = 1;
			break;
		case OPT_PRINT_PROMPT:
			print_prompt = 1;
			break;
		case OPT_STRICT:
			opts.strict = 1;
			break;
		case OPT_THREAD:
			opts.thread = 1;
			break;
		case OPT_TOOLS:
			if (tooldefs_load(&defs, optarg, err, sizeof(err)) != 0) {
				diag_warnx("%s", err);
				tooldefs_free(&defs);
				return DIAG_USAGE;
			}
			ntools++;
			break;
		default:
			cmd_usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (opts.thread && opts.events)
		cmd_usagex("--thread and --events cannot go together: each "
		    "says how calls are written");
	if (iteration && !opts.thread)
		cmd_usagex("--iteration goes with --thread");
	if (opts.no_validate && ntools == 0)
		cmd_usagex("--no-validate goes with --tools");
	if (ntools > 0)
		opts.tools = &defs;
	if (print_prompt) {
		tooldefs_prompt(&defs, &prompt);
		fwrite(prompt.data, 1, prompt.len, stdout);
		buf_free(&prompt);
		tooldefs_free(&defs);
		return cmd_exit(DIAG_OK);
	}
	/* glibc ignores the size when it is to allocate the buffer itself */
	if (setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf)) != 0) {
		tooldefs_free(&defs);
		return DIAG_TROUBLE;
	}
	status = cmd_operands(argc, argv, process, &opts);
	tooldefs_free(&defs);
	return status;
}
