/*
 * jsonresp-check: reads a model's JSON responses (a document per file, or
 * one per line with --lines) and checks each against seed 002's response
 * schema, or against the JSON Schema given with --schema (Draft-04 to
 * 2020-12). Each error names the file, line and column of the offending
 * value; a valid response whose danger level is critical or emergency
 * exits 4 or 5.
 */
#include <stdio.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "base/diag.h"
#include "base/embed.h"
#include "base/io.h"
#include "jsonresp/jsonresp.h"
#include "schema/jsschema.h"
#include "base/src.h"
#include "check/verdict.h"

enum {
	OPT_ASSERT_FORMAT = CMD_OPT_FIRST, OPT_DRAFT, OPT_FEEDBACK, OPT_FIND, OPT_LINES,
	OPT_NO_FORMAT, OPT_PRINT_PROMPT, OPT_PRINT_SCHEMA, OPT_REF_MAP,
	OPT_SCHEMA, OPT_STRICT, OPT_SUMMARY
};

static const struct option longopts[] = {
	CMD_LONGOPTS,
	{ "assert-format",	no_argument,		NULL, OPT_ASSERT_FORMAT },
	{ "draft",		required_argument,	NULL, OPT_DRAFT },
	{ "feedback",		no_argument,		NULL, OPT_FEEDBACK },
	{ "find",		no_argument,		NULL, OPT_FIND },
	{ "lines",		no_argument,		NULL, OPT_LINES },
	{ "no-format",		no_argument,		NULL, OPT_NO_FORMAT },
	{ "output",		required_argument,	NULL, 'o' },
	{ "print-prompt",	no_argument,		NULL, OPT_PRINT_PROMPT },
	{ "print-schema",	no_argument,		NULL, OPT_PRINT_SCHEMA },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "ref",		required_argument,	NULL, 'r' },
	{ "ref-map",		required_argument,	NULL, OPT_REF_MAP },
	{ "schema",		required_argument,	NULL, OPT_SCHEMA },
	{ "strict",		no_argument,		NULL, OPT_STRICT },
	{ "summary",		no_argument,		NULL, OPT_SUMMARY },
	{ NULL,			0,			NULL, 0 }
};

static const struct cmd self = {
	"usage: jsonresp-check [-hqx] [--assert-format] [--draft VERSION]\n"
	"                      [--errors=json|text] [--feedback] [--find] "
	"[--lines]\n"
	"                      [--no-format] [-o none|json|report] "
	"[--print-prompt]\n"
	"                      [--print-schema] [-r FILE] [--ref-map URI=DIR]\n"
	"                      [--schema FILE] [--strict] [--summary] "
	"[FILE ...]\n",
	"0 valid, 1 invalid, 2 usage, 3 trouble, 4 valid but critical, "
	"5 valid but emergency"
};

struct run {
	struct jsonresp	*jr;
	const char	*name;		/* the operand, as diagnostics name it */
	int		 lines;
	int		 feedback;
	int		 output;	/* enum jsonresp_output */
	struct verdict_tally tally;
	struct buf	 out;
};

/*
 * A document checked: its diagnostics, then what -o writes for it, or
 * with --feedback the line for the model, written at once. -1 once
 * standard output has failed.
 */
static int
report(const struct jsonresp *jr, int status, void *arg)
{
	struct run *r = arg;

	diag_list_print(jsonresp_diags(jr), r->name);
	verdict_tally(&r->tally, status);
	buf_reset(&r->out);
	if (r->output == JSONRESP_OUT_REPORT)
		jsonresp_report(&r->out, jr, r->name, r->lines, status);
	else if (r->output == JSONRESP_OUT_JSON)
		jsonresp_clean(&r->out, jr);
	else if (status == DIAG_INVALID && r->feedback)
		jsonresp_feedback(&r->out, jr);
	if (io_write(r->out.data, r->out.len, stdout) != 0 ||
	    (r->feedback && fflush(stdout) != 0))
		return -1;
	return 0;
}

/* One operand: a document, or with --lines one a line. */
static int
process(FILE *fp, const char *name, void *arg)
{
	struct run *r = arg;
	struct buf in = BUF_INIT;
	struct src src;
	int status;

	r->name = name;
	if (r->lines)
		return jsonresp_lines(r->jr, fp, name, report, r);
	if (io_slurp_text(fp, &in) != 0) {
		diag_warn("%s", name);
		buf_free(&in);
		return DIAG_TROUBLE;
	}
	src_init(&src, name, buf_cstr(&in), in.len);
	status = jsonresp_check(r->jr, &src);
	report(r->jr, status, r);
	buf_free(&in);
	return status;
}

int
main(int argc, char *argv[])
{
	struct jsschema_opts jo = { 0, NULL, 0, 0, NULL, 0 };
	struct jsonresp_opts o = { NULL, 1, 0, 0, 0 };
	struct run r = { NULL, NULL, 0, 0, 0, { 0, 0, 0, 0, 0 }, BUF_INIT };
	struct buf text = BUF_INIT;
	struct jsschema *schema = NULL;
	const char *schema_file = NULL;
	int ch, print_prompt = 0, print_schema = 0, status, summary = 0;

	cmd_init(&self, argv);
	while ((ch = cmd_getopt(argc, argv, "ho:qr:x", longopts)) != -1) {
		switch (ch) {
		case 'o':
			r.output = cmd_choice("-o", optarg, jsonresp_outputs);
			break;
		case 'q':
			diag_setquiet(1);
			break;
		case 'r':
			jsschema_opts_file(&jo, optarg);
			break;
		case 'x':
			r.output = JSONRESP_OUT_JSON;
			break;
		case OPT_ASSERT_FORMAT:
			jo.format = JSSCHEMA_FORMAT_ASSERT;
			break;
		case OPT_DRAFT:
			if ((jo.draft = jsschema_draft(optarg)) == 0)
				cmd_usagex("--draft %s: unknown draft (4, 6, "
				    "7, 2019-09 and 2020-12 are known)", optarg);
			break;
		case OPT_FEEDBACK:
			r.feedback = 1;
			break;
		case OPT_FIND:
			o.find = 1;
			break;
		case OPT_LINES:
			r.lines = 1;
			break;
		case OPT_NO_FORMAT:
			jo.format = JSSCHEMA_FORMAT_ANNOTATE;
			break;
		case OPT_PRINT_PROMPT:
			print_prompt = 1;
			break;
		case OPT_PRINT_SCHEMA:
			print_schema = 1;
			break;
		case OPT_REF_MAP:
			if (jsschema_opts_refmap(&jo, optarg) != 0)
				cmd_usagex("--ref-map must be URI=DIR, not "
				    "\"%s\"", optarg);
			break;
		case OPT_SCHEMA:
			schema_file = optarg;
			o.seed = 0;
			break;
		case OPT_STRICT:
			o.strict = 1;
			break;
		case OPT_SUMMARY:
			summary = 1;
			break;
		default:
			cmd_usage();
		}
	}
	argc -= optind;
	argv += optind;
	if ((print_schema || print_prompt) && argc > 0)
		cmd_usagex("--print-%s reads no input",
		    print_prompt ? "prompt" : "schema");
	if (r.feedback && (r.output != JSONRESP_OUT_NONE || summary))
		cmd_usagex("--feedback cannot go with -o json, -o report or "
		    "--summary: they write on standard output too");
	if (schema_file == NULL)
		buf_add(&text, embed_llm_response_schema,
		    embed_llm_response_schema_len);
	else if (jsonresp_schema_read(schema_file, &text) != DIAG_OK) {
		status = DIAG_TROUBLE;
		goto out;
	}
	if (print_schema || print_prompt) {
		if (print_prompt)
			jsonresp_prompt(&r.out, text.data, text.len);
		else
			buf_add(&r.out, text.data, text.len);
		/* a failed write shows in cmd_exit's close */
		(void)io_write(r.out.data, r.out.len, stdout);
		status = cmd_exit(DIAG_OK);
		goto out;
	}
	o.schema = schema = jsonresp_schema(schema_file != NULL ?
	    schema_file : JSONRESP_SCHEMA_NAME, text.data, text.len, &jo);
	if (schema == NULL) {
		status = DIAG_USAGE;
		goto out;
	}
	o.clean = r.output == JSONRESP_OUT_JSON;
	r.jr = jsonresp_new(&o);
	status = cmd_loop(argc, argv, process, &r);
	if (summary)
		verdict_put_summary(&r.tally, r.output != JSONRESP_OUT_NONE, 1);
	status = cmd_exit(status);
out:
	jsonresp_free(r.jr);
	jsschema_free(schema);
	jsschema_opts_free(&jo);
	buf_free(&text);
	buf_free(&r.out);
	return status;
}
