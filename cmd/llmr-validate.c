/*
 * llmr-validate: reads <llmResponse> and <llmQuery> documents (each file
 * one document) and checks each against every rule of seed 000's
 * contract, reporting all the problems of a document as FILE:LINE:COL
 * lines; on request it writes each valid document as JSON or text, or,
 * for an invalid one, a message that tells a model what to correct. With
 * --lines each line is a JSON string that holds a document, and -o report
 * writes one verdict record per document, as every checker does. It
 * exits 1 when a document is invalid, 3 when a file cannot be read.
 */
#include <stdio.h>
#include <string.h>

#include "base/cmd.h"
#include "base/diag.h"
#include "base/embed.h"
#include "base/io.h"
#include "check/checker.h"
#include "contract/llmr.h"
#include "help/llmr-validate.h"

enum {
	OPT_PROMPT = CHECKER_OPT_FIRST, OPT_STRICT
};

/* Its own options; -q, -o, --feedback, --find, --lines, --summary shared. */
static const struct option longopts[] = {
	{ "print-prompt",	no_argument,		NULL, OPT_PROMPT },
	{ "strict",		no_argument,		NULL, OPT_STRICT },
	{ "type",		required_argument,	NULL, 't' },
	{ "warnings",		no_argument,		NULL, 'W' },
	{ NULL,			0,			NULL, 0 }
};

static const struct checker_rule rules[] = {
	{ CHECKER_FEEDBACK, CHECKER_LINES | CHECKER_SUMMARY,
	    1U << LLMR_OUT_JUNIT | 1U << LLMR_OUT_REPORT, "--feedback cannot "
	    "go with --lines, -o junit, -o report or --summary: it is for one "
	    "document, and alone on standard output" },
	{ CHECKER_SUMMARY, 0, 1U << LLMR_OUT_JUNIT, "--summary cannot go "
	    "with -o junit: the report holds the counts" },
	{ 0, 0, 0, NULL }
};

static struct checker ck = {
	.has = CHECKER_QUIET | CHECKER_OUTPUT | CHECKER_LINES |
	    CHECKER_SUMMARY | CHECKER_FEEDBACK | CHECKER_FIND,
	.outputs = llmr_outputs,
	.rules = rules,
	.output = LLMR_OUT_NONE
};

static const struct cmd self = {
	"usage: llmr-validate [-hqW] [--errors=github|json|text] [--feedback]\n"
	"                     [--find] [--lines] "
	"[-o none|json|junit|report|text]\n"
	"                     [--strict] [--summary] [-t query|response] "
	"[FILE ...]\n"
	"       llmr-validate --print-prompt\n",
	"0 valid, 1 invalid, 2 usage, 3 trouble",
	CMD_HELP
};

int
main(int argc, char *argv[])
{
	struct llmr_run_opts r;
	int ch, prompt = 0;

	memset(&r, 0, sizeof(r));
	r.check.type = LLMR_ANY;
	cmd_init(&self, argv);
	while ((ch = checker_getopt(&ck, argc, argv, "ht:W", longopts)) != -1) {
		switch (ch) {
		case 't':
			r.check.type = cmd_choice("-t", optarg, llmr_types);
			break;
		case 'W':
			r.check.warnings = 1;
			break;
		case OPT_PROMPT:
			prompt = 1;
			break;
		case OPT_STRICT:
			r.check.strict = 1;
			break;
		default:
			cmd_usage();
		}
	}
	argc -= optind;
	argv += optind;

	if (prompt) {
		if (argc > 0)
			cmd_usagex("--print-prompt reads no input");
		io_write(embed_llm_response_prompt,
		    embed_llm_response_prompt_len, stdout);
		return cmd_exit(DIAG_OK);
	}
	checker_rules(&ck);
	r.check.find = ck.find;
	r.ck = &ck;
	return cmd_exit(llmr_run(&r, argc, argv));
}
