/*
 * toolcall-parse: reads a model's output as it streams (prose, markdown,
 * anything) and writes each <tool> call in it as one JSON line the moment
 * its </tool> has been read; --events writes the prose and the errors too.
 * A malformed or truncated call is reported with its place in the stream
 * and skipped; the status is then 1 once the input has all been read.
 * With --lines each line is a JSON string that holds one output, and
 * -o report writes one verdict record per input, its calls in it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "cmd.h"
#include "diag.h"
#include "io.h"
#include "num.h"
#include "toolcall.h"
#include "tooldefs.h"
#include "verdict.h"

#define READ_SIZE	65536

static char	outbuf[READ_SIZE];

enum {
	OPT_EVENTS = CMD_OPT_FIRST,
	OPT_FORMAT,
	OPT_ITERATION,
	OPT_LINES,
	OPT_MAX_SIZE,
	OPT_NO_VALIDATE,
	OPT_PRINT_PROMPT,
	OPT_STRICT,
	OPT_SUMMARY,
	OPT_THREAD,
	OPT_TOOLS
};

static const struct option longopts[] = {
	CMD_LONGOPTS,
	{ "events",		no_argument,		NULL, OPT_EVENTS },
	{ "format",		required_argument,	NULL, OPT_FORMAT },
	{ "iteration",		required_argument,	NULL, OPT_ITERATION },
	{ "lines",		no_argument,		NULL, OPT_LINES },
	{ "max-size",		required_argument,	NULL, OPT_MAX_SIZE },
	{ "no-validate",	no_argument,		NULL, OPT_NO_VALIDATE },
	{ "output",		required_argument,	NULL, 'o' },
	{ "print-prompt",	no_argument,		NULL, OPT_PRINT_PROMPT },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "strict",		no_argument,		NULL, OPT_STRICT },
	{ "summary",		no_argument,		NULL, OPT_SUMMARY },
	{ "thread",		no_argument,		NULL, OPT_THREAD },
	{ "tools",		required_argument,	NULL, OPT_TOOLS },
	{ "unbuffered",		no_argument,		NULL, 'u' },
	{ NULL,			0,			NULL, 0 }
};

static const struct cmd self = {
	"usage: toolcall-parse [-hqu] [--errors=json|text] [--events] "
	"[--format NAME]\n"
	"                      [--iteration N] [--lines] [--max-size BYTES]\n"
	"                      [--no-validate] [-o none|report] "
	"[--print-prompt]\n"
	"                      [--strict] [--summary] [--thread] "
	"[--tools FILE]\n"
	"                      [FILE ...]\n",
	"0 all calls read, 1 a malformed or truncated call, 2 usage, 3 trouble"
};

struct run {
	struct toolcall_opts	 opts;
	int			 lines;
	const char		*name;		/* the operand being read */
	int			 report;	/* -o report */
	struct verdict_tally	 tally;
	struct diag_list	 diags;		/* an input's, to place or report */
	struct buf		 calls;		/* -o report: an input's calls */
	struct buf		 in;		/* --lines: a line's text */
	struct buf		 out;
};

/*
 * An input read, its problems v[0..n) kept (none when they were said as
 * they came): said now, counted, and with -o report its record written,
 * the calls in it, at once. -1 once standard output has failed.
 */
static int
done(struct run *r, int status, const char *name, unsigned long line)
{
	const char *p, *end, *nl;
	size_t i;

	for (i = 0; i < r->diags.n; i++)
		diag_item(name, &r->diags.v[i]);
	verdict_tally(&r->tally, status);
	if (!r->report)
		return 0;
	buf_reset(&r->out);
	verdict_open(&r->out, name, line, status, r->diags.v, r->diags.n);
	buf_adds(&r->out, ",\"calls\":[");
	/* the calls' lines, comma-joined: no record holds a raw newline */
	p = r->calls.data;
	end = p + r->calls.len;
	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if (p > r->calls.data)
			buf_addc(&r->out, ',');
		buf_add(&r->out, p, (size_t)(nl - p));
	}
	buf_addc(&r->out, ']');
	verdict_close(&r->out);
	if (io_write(r->out.data, r->out.len, stdout) != 0 ||
	    fflush(stdout) != 0)
		return -1;
	return 0;
}

/*
 * One operand, read with read(2) rather than stdio, so that no call waits
 * for a full buffer: what has arrived is parsed, and written, at once
 * (with -o report, once the input has ended).
 */
static int
process_stream(FILE *fp, const char *name, struct run *r)
{
	static char chunk[READ_SIZE];
	struct toolcall *tc;
	ssize_t n;
	int status;

	buf_reset(&r->calls);
	diag_list_clear(&r->diags);
	tc = toolcall_new(&r->opts, r->report ? NULL : stdout, name);
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
	if (done(r, status, name, 0) != 0)
		return DIAG_TROUBLE;
	return status;
}

/*
 * A line of --lines: a JSON string that holds a model's output, whose
 * problems are placed where their text is written in the line. -1 once
 * standard output has failed.
 */
static int
check_line(void *arg, const char *s, size_t n, unsigned long lineno,
    int *status)
{
	struct run *r = arg;
	const char *name = r->name;
	struct toolcall *tc;
	size_t tok;
	int bad;

	buf_reset(&r->calls);
	diag_list_clear(&r->diags);
	if (verdict_string(s, n, lineno, &r->in, &tok, &r->diags) != 0) {
		*status = DIAG_INVALID;
		return done(r, *status, name, lineno);
	}
	tc = toolcall_new(&r->opts, r->report ? NULL : stdout, name);
	bad = toolcall_feed(tc, r->in.data, r->in.len) != 0 ||
	    toolcall_end(tc) != 0;
	*status = toolcall_status(tc);
	toolcall_free(tc);
	if (bad)
		return -1;
	verdict_place(s, n, tok, lineno, r->diags.v, r->diags.n);
	return done(r, *status, name, lineno);
}

static int
process(FILE *fp, const char *name, void *arg)
{
	struct run *r = arg;

	if (r->lines) {
		r->name = name;
		return verdict_each(fileno(fp), name, check_line, r);
	}
	return process_stream(fp, name, r);
}

int
main(int argc, char *argv[])
{
	struct run r;
	struct tooldefs defs = { NULL, 0 };
	struct buf prompt = BUF_INIT;
	const char *errstr;
	char err[1024];
	int ch, ntools = 0, print_prompt = 0, status, iteration = 0;
	int summary = 0;

	memset(&r, 0, sizeof(r));
	r.opts.max_size = TOOLCALL_MAX_SIZE;
	r.opts.format = TOOLCALL_FMT_TOOL;
	cmd_init(&self, argv);
	while ((ch = cmd_getopt(argc, argv, "ho:qu", longopts)) != -1) {
		switch (ch) {
		case 'o':
			if (strcmp(optarg, "report") == 0)
				r.report = 1;
			else if (strcmp(optarg, "none") == 0)
				r.report = 0;
			else
				cmd_usagex("-o must be none or report, not "
				    "\"%s\"", optarg);
			break;
		case 'q':
			diag_setquiet(1);
			break;
		case 'u':
			r.opts.unbuffered = 1;
			break;
		case OPT_EVENTS:
			r.opts.events = 1;
			break;
		case OPT_FORMAT:
			if ((r.opts.format = toolcall_format(optarg)) == -1)
				cmd_usagex("--format must be tool, qwen3, invoke, "
				    "glm, hermes or auto, not \"%s\"", optarg);
			break;
		case OPT_ITERATION:
			r.opts.iteration = (long)num_whole(optarg, 0, LONG_MAX,
			    &errstr);
			if (errstr != NULL)
				cmd_usagex("--iteration must be a whole number, "
				    "not \"%s\"", optarg);
			iteration = 1;
			break;
		case OPT_LINES:
			r.lines = 1;
			break;
		case OPT_MAX_SIZE:
			if ((r.opts.max_size = num_size(optarg)) == 0)
				cmd_usagex("--max-size must be a positive size "
				    "in bytes (K, M, G allowed), not \"%s\"",
				    optarg);
			break;
		case OPT_NO_VALIDATE:
			r.opts.no_validate = 1;
			break;
		case OPT_PRINT_PROMPT:
			print_prompt = 1;
			break;
		case OPT_STRICT:
			r.opts.strict = 1;
			break;
		case OPT_SUMMARY:
			summary = 1;
			break;
		case OPT_THREAD:
			r.opts.thread = 1;
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
	if (r.opts.thread && r.opts.events)
		cmd_usagex("--thread and --events cannot go together: each "
		    "says how calls are written");
	if (iteration && !r.opts.thread)
		cmd_usagex("--iteration goes with --thread");
	if (r.opts.no_validate && ntools == 0)
		cmd_usagex("--no-validate goes with --tools");
	if (r.report && (r.opts.events || r.opts.thread))
		cmd_usagex("-o report cannot go with --%s: the record holds the "
		    "calls", r.opts.events ? "events" : "thread");
	if (r.lines || r.report)
		r.opts.diags = &r.diags;
	if (r.report)
		r.opts.sink = &r.calls;
	if (ntools > 0)
		r.opts.tools = &defs;
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
	status = cmd_loop(argc, argv, process, &r);
	if (summary) {
		buf_reset(&r.out);
		verdict_summary(&r.out, &r.tally, r.report, 0);
		(void)io_write(r.out.data, r.out.len, stdout);
	}
	status = cmd_exit(status);
	tooldefs_free(&defs);
	diag_list_free(&r.diags);
	buf_free(&r.calls);
	buf_free(&r.in);
	buf_free(&r.out);
	return status;
}
