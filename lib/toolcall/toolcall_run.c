/*
 * toolcall: toolcall-parse(1)'s run over its operands, given its options
 * as a toolcall_args (toolcall_formats, toolcall_reasonings and
 * toolcall_beginnings are the names of --format, --reasoning and
 * --begins-in-reasoning, for cmd_choice).
 * Each operand is read as it streams and its calls written at once; with
 * --lines each line is a JSON string that holds one output, and with
 * -o report each input gives one verdict record (lib/verdict), its calls
 * in it (with -o junit, a testcase of the report, without them); the
 * loop over operands and --summary's counts at the end are
 * lib/check/checker's run, of which this is the callback.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "base/diag.h"
#include "base/io.h"
#include "check/checker.h"
#include "check/verdict.h"
#include "toolcall/tcdialect.h"
#include "toolcall/toolcall.h"

#define READ_SIZE	65536

/* A run: its options, and what its inputs share beside the checker's. */
struct run {
	struct toolcall_opts	 opts;
	int			 report;	/* -o report or junit */
	struct diag_list	 diags;		/* an input's, to place or report */
	struct buf		 calls;		/* -o report: an input's calls */
	struct buf		 in;		/* --lines: a line's text */
};

/* The names of -o, --reasoning and --begins-in-reasoning, for cmd_choice. */
const struct cmd_choice toolcall_outputs[] = {
	{ "none", TOOLCALL_OUT_NONE }, { "junit", TOOLCALL_OUT_JUNIT },
	{ "report", TOOLCALL_OUT_REPORT }, { NULL, 0 }
};

const struct cmd_choice toolcall_reasonings[] = {
	{ "skip", TOOLCALL_REASON_SKIP }, { "events", TOOLCALL_REASON_EVENTS },
	{ "calls", TOOLCALL_REASON_CALLS }, { NULL, 0 }
};

const struct cmd_choice toolcall_beginnings[] = {
	{ "auto", TOOLCALL_BEGINS_AUTO }, { "yes", TOOLCALL_BEGINS_YES },
	{ "no", TOOLCALL_BEGINS_NO }, { NULL, 0 }
};

/*
 * The names of --format, for cmd_choice: "tool", each dialect's name as
 * lib/tcdialect gives it (its number is the TCD_), "auto" and "openai".
 */
const struct cmd_choice *
toolcall_formats(void)
{
	static struct cmd_choice t[TCD_NDIALECTS + 4];
	const char *d;
	int i, n = 0;

	if (t[0].name != NULL)
		return t;
	t[n].name = "tool";
	t[n++].value = TOOLCALL_FMT_TOOL;
	for (i = 1; (d = tcd_dialect_name(i)) != NULL; i++) {
		t[n].name = d;
		t[n++].value = i;
	}
	t[n].name = "auto";
	t[n++].value = TOOLCALL_FMT_AUTO;
	t[n].name = "openai";
	t[n++].value = TOOLCALL_FMT_OPENAI;
	return t;
}

/*
 * An input read, its problems kept in r->diags (none when they were said
 * as they came): said now, counted, and with -o report its record
 * written, the calls in it, at once; with -o junit its testcase. -1 once
 * standard output has failed.
 */
static int
done(struct checker_run *cr, int status, const char *name,
    unsigned long line)
{
	struct run *r = cr->arg;
	struct buf *out = &cr->out;
	const char *p, *end, *nl;
	size_t i;

	for (i = 0; i < r->diags.n; i++)
		diag_item(name, &r->diags.v[i]);
	if (!r->report)
		return checker_done(cr, status);
	if (checker_junit(cr)) {
		verdict_junit_case(out, name, line, status, r->diags.v,
		    r->diags.n);
		return checker_done(cr, status);
	}
	verdict_open(out, name, line, status, r->diags.v, r->diags.n);
	buf_adds(out, ",\"calls\":[");
	/* the calls' lines, comma-joined: no record holds a raw newline */
	p = r->calls.data;
	end = p + r->calls.len;
	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if (p > r->calls.data)
			buf_addc(out, ',');
		buf_add(out, p, (size_t)(nl - p));
	}
	buf_addc(out, ']');
	verdict_close(out);
	return checker_done(cr, status);
}

/*
 * One operand, read with read(2) rather than stdio, so that no call waits
 * for a full buffer: what has arrived is parsed, and written, at once
 * (with -o report, once the input has ended).
 */
static int
process_stream(FILE *fp, const char *name, struct checker_run *cr)
{
	struct run *r = cr->arg;
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
		/* a testcase holds no calls: they are let go as they come,
		 * so that memory stays bounded by one call */
		if (checker_junit(cr))
			buf_reset(&r->calls);
	}
	if (toolcall_end(tc) != 0 || ferror(stdout)) {
		toolcall_free(tc);
		return DIAG_TROUBLE;
	}
	status = toolcall_status(tc);
	toolcall_free(tc);
	if (done(cr, status, name, 0) != 0)
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
    size_t base, int *status)
{
	struct checker_run *cr = arg;
	struct run *r = cr->arg;
	const char *name = cr->name;
	struct toolcall *tc;
	size_t tok;
	int bad;

	buf_reset(&r->calls);
	diag_list_clear(&r->diags);
	if (verdict_string(s, n, lineno, base, &r->in, &tok,
	    &r->diags) != 0) {
		*status = DIAG_INVALID;
		return done(cr, *status, name, lineno);
	}
	tc = toolcall_new(&r->opts, r->report ? NULL : stdout, name);
	bad = toolcall_feed(tc, r->in.data, r->in.len) != 0 ||
	    toolcall_end(tc) != 0;
	*status = toolcall_status(tc);
	toolcall_free(tc);
	if (bad)
		return -1;
	verdict_place(s, n, tok, lineno, r->diags.v, r->diags.n);
	return done(cr, *status, name, lineno);
}

static int
process(struct checker_run *cr, FILE *fp, const char *name)
{
	if (cr->ck->lines)
		return verdict_each(fileno(fp), name, check_line, cr);
	return process_stream(fp, name, cr);
}

/*
 * toolcall-parse's operands (argc and argv past the options), each read
 * as a gives, and with --summary its line after them. Returns the
 * highest status; standard output stays open for cmd_exit.
 */
int
toolcall_run(const struct toolcall_args *a, int argc, char *argv[])
{
	static const struct checker_ops ops = { process, TOOLCALL_OUT_REPORT,
	    0, 1, TOOLCALL_OUT_JUNIT };
	struct run r;
	int status;

	memset(&r, 0, sizeof(r));
	r.opts = a->opts;
	r.report = a->ck->output == TOOLCALL_OUT_REPORT ||
	    a->ck->output == TOOLCALL_OUT_JUNIT;
	if (a->ck->lines || r.report)
		r.opts.diags = &r.diags;
	if (r.report)
		r.opts.sink = &r.calls;
	status = checker_run(a->ck, &ops, &r, argc, argv);
	diag_list_free(&r.diags);
	buf_free(&r.calls);
	buf_free(&r.in);
	return status;
}
