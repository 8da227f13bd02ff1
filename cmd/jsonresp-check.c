/*
 * jsonresp-check: reads a model's JSON responses (a document per file, or
 * one per line with --lines) and checks each against seed 002's response
 * schema, or against the JSON Schema given with --schema (Draft-04 to
 * 2020-12). Each error names the file, line and column of the offending
 * value; a valid response whose danger level is critical or emergency
 * exits 4 or 5.
 */
#include <errno.h>
#include <stdio.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "base/diag.h"
#include "base/embed.h"
#include "base/io.h"
#include "check/checker.h"
#include "jsonresp/jsonresp.h"
#include "schema/jsschema.h"
#include "help/jsonresp-check.h"

/* How many times --custom-keyword may be given (each a list). */
#define CUSTOM_MAX	32

enum {
	OPT_ASSERT_FORMAT = CHECKER_OPT_FIRST, OPT_DIALECT, OPT_DRAFT,
	OPT_KEYWORD, OPT_NO_FORMAT, OPT_PRINT_PROMPT, OPT_PRINT_SCHEMA, OPT_REF_MAP,
	OPT_SCHEMA, OPT_STRICT, OPT_STRICT_SCHEMA
};

/* Its own options; -q, -o, --feedback, --find, --lines, --summary shared. */
static const struct option longopts[] = {
	{ "assert-format",	no_argument,		NULL, OPT_ASSERT_FORMAT },
	{ "custom-keyword",	required_argument,	NULL, OPT_KEYWORD },
	{ "dialect",		required_argument,	NULL, OPT_DIALECT },
	{ "draft",		required_argument,	NULL, OPT_DRAFT },
	{ "no-format",		no_argument,		NULL, OPT_NO_FORMAT },
	{ "print-prompt",	no_argument,		NULL, OPT_PRINT_PROMPT },
	{ "print-schema",	no_argument,		NULL, OPT_PRINT_SCHEMA },
	{ "ref",		required_argument,	NULL, 'r' },
	{ "ref-map",		required_argument,	NULL, OPT_REF_MAP },
	{ "schema",		required_argument,	NULL, OPT_SCHEMA },
	{ "strict",		no_argument,		NULL, OPT_STRICT },
	{ "strict-schema",	no_argument,		NULL, OPT_STRICT_SCHEMA },
	{ NULL,			0,			NULL, 0 }
};

static const struct checker_rule rules[] = {
	{ CHECKER_FEEDBACK, CHECKER_SUMMARY, 1U << JSONRESP_OUT_JSON |
	    1U << JSONRESP_OUT_JUNIT | 1U << JSONRESP_OUT_REPORT,
	    "--feedback cannot go with -o json, -o junit, -o report or "
	    "--summary: they write on standard output too" },
	{ CHECKER_SUMMARY, 0, 1U << JSONRESP_OUT_JUNIT, "--summary cannot go "
	    "with -o junit: the report holds the counts" },
	{ 0, 0, 0, NULL }
};

static struct checker ck = {
	.has = CHECKER_QUIET | CHECKER_OUTPUT | CHECKER_LINES |
	    CHECKER_SUMMARY | CHECKER_FEEDBACK | CHECKER_FIND,
	.outputs = jsonresp_outputs,
	.rules = rules,
	.output = JSONRESP_OUT_NONE
};

static const struct cmd self = {
	"usage: jsonresp-check [-hqx] [--assert-format]\n"
	"                      [--custom-keyword NAME[,...]] [--dialect VERSION]\n"
	"                      [--draft VERSION] [--errors=github|json|text]\n"
	"                      [--feedback] [--find] [--lines] [--no-format]\n"
	"                      [-o none|json|junit|report] [--print-prompt]\n"
	"                      [--print-schema] [-r FILE] [--ref-map URI=DIR]\n"
	"                      [--schema FILE] [--strict] [--strict-schema]\n"
	"                      [--summary] [FILE ...]\n",
	"0 valid, 1 invalid, 2 usage, 3 trouble, 4 valid but critical, "
	"5 valid but emergency",
	CMD_HELP
};

int
main(int argc, char *argv[])
{
	struct jsschema_opts jo = { 0, NULL, 0, 0, NULL, 0, 0 };
	struct jsonresp_opts o = { NULL, 1, 0, 0, 0 };
	struct buf text = BUF_INIT, out = BUF_INIT;
	struct jsschema *schema = NULL;
	const char *schema_file = NULL;
	struct jsonresp_lint lint = { 0, NULL, 0 };
	/* on the stack: -h and a usage error exit with nothing to free */
	const char *keywords[CUSTOM_MAX];
	int ch, print_prompt = 0, print_schema = 0, status;

	cmd_init(&self, argv);
	lint.keywords = keywords;
	while ((ch = checker_getopt(&ck, argc, argv, "hr:x", longopts)) != -1) {
		switch (ch) {
		case 'r':
			jsschema_opts_file(&jo, optarg);
			break;
		case 'x':
			ck.output = JSONRESP_OUT_JSON;
			break;
		case OPT_ASSERT_FORMAT:
			jo.format = JSSCHEMA_FORMAT_ASSERT;
			break;
		case OPT_DIALECT:
			if ((jo.dialect = jsschema_draft(optarg)) == 0)
				cmd_usagex("--dialect %s: unknown dialect (4, "
				    "6, 7, 2019-09 and 2020-12 are known)",
				    optarg);
			break;
		case OPT_DRAFT:
			if ((jo.draft = jsschema_draft(optarg)) == 0)
				cmd_usagex("--draft %s: unknown draft (4, 6, "
				    "7, 2019-09 and 2020-12 are known)", optarg);
			break;
		case OPT_KEYWORD:
			if (lint.nkeywords == CUSTOM_MAX)
				cmd_usagex("--custom-keyword: at most %d times; "
				    "give the names as lists, NAME,NAME,...",
				    CUSTOM_MAX);
			keywords[lint.nkeywords++] = optarg;
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
		case OPT_STRICT_SCHEMA:
			lint.strict = 1;
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
	if (lint.nkeywords > 0 && schema_file == NULL)
		cmd_usagex("--custom-keyword goes with --schema: the built-in "
		    "schema has no keyword of its own");
	if (jo.dialect != 0 && schema_file == NULL)
		cmd_usagex("--dialect goes with --schema: the built-in schema "
		    "is Draft-07");
	checker_rules(&ck);
	if (schema_file == NULL)
		buf_add(&text, embed_llm_response_schema,
		    embed_llm_response_schema_len);
	else if (jsonresp_schema_read(schema_file, &text) != DIAG_OK) {
		status = DIAG_TROUBLE;
		goto out;
	}
	if (print_schema || print_prompt) {
		if (print_prompt && schema_file != NULL) {
			if ((status = jsonresp_user_prompt(&out, schema_file,
			    text.data, text.len, ck.find)) != DIAG_OK)
				goto out;
		} else if (print_prompt)
			jsonresp_prompt(&out, text.data, text.len);
		else
			buf_add(&out, text.data, text.len);
		/* a failed write shows in cmd_exit's close */
		(void)io_write(out.data, out.len, stdout);
		status = cmd_exit(DIAG_OK);
		goto out;
	}
	o.schema = schema = schema_file != NULL ? jsonresp_schema(schema_file,
	    text.data, text.len, &jo) : jsonresp_builtin_schema(&jo);
	if (schema == NULL) {
		/* a schema that cannot be read is usage, no PCRE2 trouble */
		status = errno == ELIBACC ? DIAG_TROUBLE : DIAG_USAGE;
		goto out;
	}
	/* the built-in schema is clean: its lint would cost every run */
	if (schema_file != NULL && jsonresp_schema_lint(schema_file,
	    text.data, text.len, schema, &lint) > 0 && lint.strict) {
		status = DIAG_USAGE;
		goto out;
	}
	status = cmd_exit(jsonresp_run(&o, &ck, argc, argv));
out:
	jsschema_free(schema);
	jsschema_opts_free(&jo);
	buf_free(&text);
	buf_free(&out);
	return status;
}
