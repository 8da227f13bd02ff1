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
#include "contract/llmr.h"

enum {
	OPT_FEEDBACK = CMD_OPT_FIRST, OPT_FIND, OPT_LINES, OPT_PROMPT,
	OPT_STRICT, OPT_SUMMARY
};

static const struct option longopts[] = {
	CMD_LONGOPTS,
	{ "feedback",		no_argument,		NULL, OPT_FEEDBACK },
	{ "find",		no_argument,		NULL, OPT_FIND },
	{ "lines",		no_argument,		NULL, OPT_LINES },
	{ "output",		required_argument,	NULL, 'o' },
	{ "print-prompt",	no_argument,		NULL, OPT_PROMPT },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "strict",		no_argument,		NULL, OPT_STRICT },
	{ "summary",		no_argument,		NULL, OPT_SUMMARY },
	{ "type",		required_argument,	NULL, 't' },
	{ "warnings",		no_argument,		NULL, 'W' },
	{ NULL,			0,			NULL, 0 }
};

static const struct cmd self = {
	"usage: llmr-validate [-hqW] [--errors=json|text] [--feedback] [--find]\n"
	"                     [--lines] [-o none|json|report|text] [--strict]\n"
	"                     [--summary] [-t query|response] [FILE ...]\n"
	"       llmr-validate --print-prompt\n",
	"0 valid, 1 invalid, 2 usage, 3 trouble"
};

int
main(int argc, char *argv[])
{
	struct llmr_run_opts r;
	int ch, prompt = 0;

	memset(&r, 0, sizeof(r));
	r.check.type = LLMR_ANY;
	cmd_init(&self, argv);
	while ((ch = cmd_getopt(argc, argv, "ho:qt:W", longopts)) != -1) {
		switch (ch) {
		case 'o':
			r.output = cmd_choice("-o", optarg, llmr_outputs);
			break;
		case 'q':
			diag_setquiet(1);
			break;
		case 't':
			r.check.type = cmd_choice("-t", optarg, llmr_types);
			break;
		case 'W':
			r.check.warnings = 1;
			break;
		case OPT_FEEDBACK:
			r.feedback = 1;
			break;
		case OPT_FIND:
			r.check.find = 1;
			break;
		case OPT_LINES:
			r.lines = 1;
			break;
		case OPT_PROMPT:
			prompt = 1;
			break;
		case OPT_STRICT:
			r.check.strict = 1;
			break;
		case OPT_SUMMARY:
			r.summary = 1;
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
	if (r.feedback && (r.lines || r.output == LLMR_OUT_REPORT ||
	    r.summary))
		cmd_usagex("--feedback cannot go with --lines, -o report or "
		    "--summary: it is for one document, and alone on standard "
		    "output");
	return cmd_exit(llmr_run(&r, argc, argv));
}
