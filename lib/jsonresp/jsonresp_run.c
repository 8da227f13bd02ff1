/*
 * jsonresp_run: jsonresp-check's run over its operands, a document a
 * file or, with --lines, one a line, through lib/check/checker's run;
 * what -o, --feedback and --summary write for them; the names of its -o.
 */
#include <stdio.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "base/diag.h"
#include "base/io.h"
#include "base/src.h"
#include "check/checker.h"
#include "jsonresp/jsonresp.h"

/* The names of -o, for cmd_choice. */
const struct cmd_choice jsonresp_outputs[] = {
	{ "none", JSONRESP_OUT_NONE }, { "json", JSONRESP_OUT_JSON },
	{ "junit", JSONRESP_OUT_JUNIT }, { "report", JSONRESP_OUT_REPORT },
	{ NULL, 0 }
};

/*
 * A document checked: its diagnostics, then what -o writes for it, or
 * with --feedback the line for the model, written at once. -1 once
 * standard output has failed.
 */
static int
report(const struct jsonresp *jr, int status, void *arg)
{
	struct checker_run *cr = arg;
	const struct checker *ck = cr->ck;

	diag_list_print(jsonresp_diags(jr), cr->name);
	if (ck->output == JSONRESP_OUT_REPORT)
		jsonresp_report(&cr->out, jr, cr->name, ck->lines, status);
	else if (ck->output == JSONRESP_OUT_JUNIT)
		jsonresp_junit(&cr->out, jr, cr->name, ck->lines, status);
	else if (ck->output == JSONRESP_OUT_JSON)
		jsonresp_clean(&cr->out, jr);
	else if (status == DIAG_INVALID && ck->feedback)
		jsonresp_feedback(&cr->out, jr);
	return checker_done(cr, status);
}

/* One operand: a document, or with --lines one a line. */
static int
process(struct checker_run *cr, FILE *fp, const char *name)
{
	struct jsonresp *jr = cr->arg;
	struct buf in = BUF_INIT;
	struct src src;
	int status;

	if (cr->ck->lines)
		return jsonresp_lines(jr, fp, name, report, cr);
	if (io_slurp_text(fp, &in) != 0) {
		diag_warn("%s", name);
		buf_free(&in);
		return DIAG_TROUBLE;
	}
	src_init(&src, name, buf_cstr(&in), in.len);
	status = jsonresp_check(jr, &src);
	report(jr, status, cr);
	buf_free(&in);
	return status;
}

/*
 * Every operand (checker_run's rules) checked as o says, with the
 * shared options of ck (--find, -o, --feedback, --lines), then with
 * --summary the counts, the danger levels too when seed 002's schema is
 * the one checked; the highest status, standard
 * output not yet closed.
 */
int
jsonresp_run(const struct jsonresp_opts *o, const struct checker *ck,
    int argc, char *argv[])
{
	/* the danger levels are seed 002's: a user's schema has none */
	struct checker_ops ops = { process, -1, 0, 0, JSONRESP_OUT_JUNIT };
	struct jsonresp_opts opts = *o;
	struct jsonresp *jr;
	int status;

	ops.danger = o->seed;
	opts.find = ck->find;
	opts.clean = ck->output == JSONRESP_OUT_JSON;
	jr = jsonresp_new(&opts);
	status = checker_run(ck, &ops, jr, argc, argv);
	jsonresp_free(jr);
	return status;
}
