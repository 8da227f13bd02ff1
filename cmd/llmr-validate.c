/*
 * llmr-validate: reads <llmResponse> and <llmQuery> documents (each file
 * one document) and checks each against every rule of seed 000's
 * contract, reporting all the problems of a document as FILE:LINE:COL
 * lines; on request it writes each valid document as JSON or text, or,
 * for an invalid one, a message that tells a model what to correct. It
 * exits 1 when a document is invalid, 3 when a file cannot be read.
 */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "cmd.h"
#include "diag.h"
#include "embed.h"
#include "io.h"
#include "llmr.h"

enum output { OUT_NONE, OUT_JSON, OUT_TEXT };

enum { OPT_FEEDBACK = CMD_OPT_FIRST, OPT_FIND, OPT_PROMPT, OPT_STRICT };

static const struct option longopts[] = {
	CMD_LONGOPTS,
	{ "feedback",		no_argument,		NULL, OPT_FEEDBACK },
	{ "find",		no_argument,		NULL, OPT_FIND },
	{ "output",		required_argument,	NULL, 'o' },
	{ "print-prompt",	no_argument,		NULL, OPT_PROMPT },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "strict",		no_argument,		NULL, OPT_STRICT },
	{ "type",		required_argument,	NULL, 't' },
	{ "warnings",		no_argument,		NULL, 'W' },
	{ NULL,			0,			NULL, 0 }
};

static const struct cmd self = {
	"usage: llmr-validate [-hqW] [--errors=json|text] [--feedback] [--find]\n"
	"                     [-o none|json|text] [--strict] [-t query|response]\n"
	"                     [FILE ...]\n"
	"       llmr-validate --print-prompt\n",
	"0 valid, 1 invalid, 2 usage, 3 trouble"
};

struct run {
	struct llmr		*v;
	struct llmr_opts	 opts;
	enum output		 output;
	int			 feedback;
	struct buf		 in;
	struct buf		 out;
};

/* What a document gives on standard output, if anything, into r->out. */
static void
render(struct run *r, int status)
{
	const struct llmr_doc *doc;

	buf_reset(&r->out);
	if ((doc = llmr_doc(r->v)) == NULL) {
		if (status == DIAG_INVALID && r->feedback)
			llmr_feedback(&r->out, r->v, embed_llm_response_prompt,
			    embed_llm_response_prompt_len);
	} else if (r->output == OUT_JSON)
		llmr_json(&r->out, doc);
	else if (r->output == OUT_TEXT) {
		if (doc->type == LLMR_QUERY)
			buf_add(&r->out, doc->message.s, doc->message.len);
		else
			buf_add(&r->out, doc->response.s, doc->response.len);
		buf_addc(&r->out, '\n');
	}
}

/*
 * Validates one operand. What it writes is flushed at once, so that a
 * failed standard output stops the loop before the next operand.
 */
static int
process(FILE *fp, const char *name, void *arg)
{
	struct run *r = arg;
	int status;

	r->opts.file = name;
	/* as far as llmr_check looks: to the first NUL byte */
	buf_reset(&r->in);
	if (io_slurp_text(fp, &r->in) != 0) {
		diag_warn("%s", name);
		return DIAG_TROUBLE;
	}
	status = llmr_check(r->v, buf_cstr(&r->in), r->in.len, &r->opts);
	llmr_report(r->v);
	render(r, status);
	if (r->out.len > 0 && (io_write(r->out.data, r->out.len,
	    stdout) != 0 || fflush(stdout) != 0))
		return DIAG_TROUBLE;	/* reported when stdout is closed */
	return status;
}

static enum output
output_arg(const char *s)
{
	if (strcmp(s, "none") == 0)
		return OUT_NONE;
	if (strcmp(s, "json") == 0)
		return OUT_JSON;
	if (strcmp(s, "text") != 0)
		cmd_usagex("-o must be none, json or text, not \"%s\"", s);
	return OUT_TEXT;
}

static enum llmr_type
type_arg(const char *s)
{
	if (strcmp(s, "query") == 0)
		return LLMR_QUERY;
	if (strcmp(s, "response") != 0)
		cmd_usagex("-t must be query or response, not \"%s\"", s);
	return LLMR_RESPONSE;
}

int
main(int argc, char *argv[])
{
	struct run r;
	int ch, prompt = 0, status;

	memset(&r, 0, sizeof(r));
	r.opts.type = LLMR_ANY;
	cmd_init(&self, argv);
	while ((ch = cmd_getopt(argc, argv, "ho:qt:W", longopts)) != -1) {
		switch (ch) {
		case 'o':
			r.output = output_arg(optarg);
			break;
		case 'q':
			diag_setquiet(1);
			break;
		case 't':
			r.opts.type = type_arg(optarg);
			break;
		case 'W':
			r.opts.warnings = 1;
			break;
		case OPT_FEEDBACK:
			r.feedback = 1;
			break;
		case OPT_FIND:
			r.opts.find = 1;
			break;
		case OPT_PROMPT:
			prompt = 1;
			break;
		case OPT_STRICT:
			r.opts.strict = 1;
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
	/* a model cannot add --find: its feedback goes without the hint */
	r.opts.hint = !r.feedback;
	r.v = llmr_new();
	status = cmd_operands(argc, argv, process, &r);
	llmr_free(r.v);
	buf_free(&r.in);
	buf_free(&r.out);
	return status;
}
