/*
 * llmr_run: llmr-validate's run over its operands, a document a file or,
 * with --lines, a JSON string a line; what -o, --feedback and --summary
 * write for them.
 */
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "base/embed.h"
#include "base/io.h"
#include "check/checker.h"
#include "check/verdict.h"
#include "contract/llmr.h"

/* What llmr-validate's documents share, beside the checker's run. */
struct run {
	const struct checker	*ck;
	struct llmr		*v;
	struct llmr_opts	 opts;
	struct diag_list	 errs;		/* a line that is no string */
	struct buf		 in;
};

/* The names of -o, for cmd_choice. */
const struct cmd_choice llmr_outputs[] = {
	{ "none", LLMR_OUT_NONE }, { "json", LLMR_OUT_JSON },
	{ "junit", LLMR_OUT_JUNIT }, { "report", LLMR_OUT_REPORT },
	{ "text", LLMR_OUT_TEXT }, { NULL, 0 }
};

/* The names of -t, for cmd_choice. */
const struct cmd_choice llmr_types[] = {
	{ "query", LLMR_QUERY }, { "response", LLMR_RESPONSE }, { NULL, 0 }
};

/*
 * What a document gives on standard output, if anything, into out;
 * with -o report its record, with -o junit its testcase, line 0 for a
 * file.
 */
static void
render(struct checker_run *cr, int status, unsigned long line,
    const struct diag_item *v, size_t n, const struct llmr_doc *doc)
{
	struct run *r = cr->arg;
	struct buf *out = &cr->out;

	if (r->ck->output == LLMR_OUT_REPORT) {
		verdict_open(out, cr->name, line, status, v, n);
		verdict_close(out);
	} else if (r->ck->output == LLMR_OUT_JUNIT)
		verdict_junit_case(out, cr->name, line, status, v, n);
	else if (doc == NULL) {
		if (status == DIAG_INVALID && r->ck->feedback)
			llmr_feedback(out, r->v, embed_llm_response_prompt,
			    embed_llm_response_prompt_len);
	} else if (r->ck->output == LLMR_OUT_JSON)
		llmr_json(out, doc);
	else if (r->ck->output == LLMR_OUT_TEXT) {
		if (doc->type == LLMR_QUERY)
			buf_add(out, doc->message.s, doc->message.len);
		else
			buf_add(out, doc->response.s, doc->response.len);
		buf_addc(out, '\n');
	}
}

/*
 * A document checked, its problems v[0..n) and, when valid, doc:
 * reported, counted, and what it writes flushed at once, so that a failed
 * standard output stops the loop before the next one. -1 once standard
 * output has failed (reported when it is closed).
 */
static int
done(struct checker_run *cr, int status, unsigned long line,
    const struct diag_item *v, size_t n, const struct llmr_doc *doc)
{
	size_t i;

	for (i = 0; i < n; i++)
		diag_item(cr->name, &v[i]);
	render(cr, status, line, v, n, doc);
	return checker_done(cr, status);
}

/*
 * A line of --lines: a JSON string that holds a document, whose problems
 * are placed where their text is written in the line.
 */
static int
check_line(void *arg, const char *s, size_t n, unsigned long lineno,
    size_t base, int *status)
{
	struct checker_run *cr = arg;
	struct run *r = cr->arg;
	const struct diag_item *v;
	size_t nv, tok;

	diag_list_clear(&r->errs);
	if (verdict_string(s, n, lineno, base, &r->in, &tok,
	    &r->errs) != 0) {
		*status = DIAG_INVALID;
		return done(cr, *status, lineno, r->errs.v, r->errs.n, NULL);
	}
	*status = llmr_check(r->v, r->in.data, r->in.len, &r->opts);
	llmr_place(r->v, s, n, tok, lineno);
	v = llmr_diags(r->v, &nv);
	return done(cr, *status, lineno, v, nv, llmr_doc(r->v));
}

/* Validates one operand: a document, or with --lines one a line. */
static int
process(struct checker_run *cr, FILE *fp, const char *name)
{
	struct run *r = cr->arg;
	const struct diag_item *v;
	size_t nv;
	int status;

	r->opts.file = name;
	if (r->ck->lines)
		return verdict_each(fileno(fp), name, check_line, cr);
	/* as far as llmr_check looks: to the first NUL byte */
	buf_reset(&r->in);
	if (io_slurp_text(fp, &r->in) != 0) {
		diag_warn("%s", name);
		return DIAG_TROUBLE;
	}
	status = llmr_check(r->v, buf_cstr(&r->in), r->in.len, &r->opts);
	v = llmr_diags(r->v, &nv);
	if (done(cr, status, 0, v, nv, llmr_doc(r->v)) != 0)
		return DIAG_TROUBLE;
	return status;
}

/*
 * Every operand (checker_run's rules) validated and reported as ro says,
 * then with --summary the counts; the highest status, standard output
 * not yet closed.
 */
int
llmr_run(const struct llmr_run_opts *ro, int argc, char *argv[])
{
	static const struct checker_ops ops = { process, LLMR_OUT_REPORT,
	    0, 1, LLMR_OUT_JUNIT };
	struct run r;
	int status;

	memset(&r, 0, sizeof(r));
	r.ck = ro->ck;
	r.opts = ro->check;
	/* a model cannot add --find: its feedback goes without the hint */
	r.opts.hint = !ro->ck->feedback;
	r.v = llmr_new();
	status = checker_run(ro->ck, &ops, &r, argc, argv);
	llmr_free(r.v);
	diag_list_free(&r.errs);
	buf_free(&r.in);
	return status;
}
