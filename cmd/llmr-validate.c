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
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cmd.h"
#include "diag.h"
#include "embed.h"
#include "io.h"
#include "llmr.h"
#include "verdict.h"
#include "xalloc.h"

enum output { OUT_NONE, OUT_JSON, OUT_TEXT, OUT_REPORT };

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

struct run {
	struct llmr		*v;
	struct llmr_opts	 opts;
	enum output		 output;
	int			 feedback;
	int			 lines;
	const char		*name;		/* the operand being read */
	struct verdict_tally	 tally;
	struct diag_list	 errs;		/* a line that is no string */
	struct diag_item	*placed;	/* a line's problems, placed */
	size_t			 nplaced;
	struct buf		 in;
	struct buf		 out;
};

/*
 * What a document gives on standard output, if anything, into r->out;
 * with -o report its record, line 0 for a file.
 */
static void
render(struct run *r, int status, const char *name, unsigned long line,
    const struct diag_item *v, size_t n, const struct llmr_doc *doc)
{
	buf_reset(&r->out);
	if (r->output == OUT_REPORT) {
		verdict_open(&r->out, name, line, status, v, n);
		verdict_close(&r->out);
	} else if (doc == NULL) {
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
 * A document checked, its problems v[0..n) and, when valid, doc:
 * reported, counted, and what it writes flushed at once, so that a failed
 * standard output stops the loop before the next one. -1 once standard
 * output has failed.
 */
static int
done(struct run *r, int status, const char *name, unsigned long line,
    const struct diag_item *v, size_t n, const struct llmr_doc *doc)
{
	size_t i;

	for (i = 0; i < n; i++)
		diag_item(name, &v[i]);
	verdict_tally(&r->tally, status);
	render(r, status, name, line, v, n, doc);
	if (r->out.len > 0 && (io_write(r->out.data, r->out.len,
	    stdout) != 0 || fflush(stdout) != 0))
		return -1;	/* reported when stdout is closed */
	return 0;
}

/*
 * A line of --lines: a JSON string that holds a document, whose problems
 * are placed where their text is written in the line.
 */
static int
check_line(void *arg, const char *s, size_t n, unsigned long lineno,
    int *status)
{
	struct run *r = arg;
	const char *name = r->name;
	const struct diag_item *v;
	size_t nv, tok;

	diag_list_clear(&r->errs);
	if (verdict_string(s, n, lineno, &r->in, &tok, &r->errs) != 0) {
		*status = DIAG_INVALID;
		return done(r, *status, name, lineno, r->errs.v, r->errs.n,
		    NULL);
	}
	*status = llmr_check(r->v, r->in.data, r->in.len, &r->opts);
	v = llmr_diags(r->v, &nv);
	if (nv > r->nplaced) {
		r->placed = xreallocarray(r->placed, nv, sizeof(*v));
		r->nplaced = nv;
	}
	if (nv > 0)
		memcpy(r->placed, v, nv * sizeof(*v));
	verdict_place(s, n, tok, lineno, r->placed, nv);
	return done(r, *status, name, lineno, r->placed, nv,
	    llmr_doc(r->v));
}

/* Validates one operand: a document, or with --lines one a line. */
static int
process(FILE *fp, const char *name, void *arg)
{
	struct run *r = arg;
	const struct diag_item *v;
	size_t nv;
	int status;

	r->opts.file = name;
	if (r->lines) {
		r->name = name;
		return verdict_each(fileno(fp), name, check_line, r);
	}
	/* as far as llmr_check looks: to the first NUL byte */
	buf_reset(&r->in);
	if (io_slurp_text(fp, &r->in) != 0) {
		diag_warn("%s", name);
		return DIAG_TROUBLE;
	}
	status = llmr_check(r->v, buf_cstr(&r->in), r->in.len, &r->opts);
	v = llmr_diags(r->v, &nv);
	if (done(r, status, name, 0, v, nv, llmr_doc(r->v)) != 0)
		return DIAG_TROUBLE;
	return status;
}

static enum output
output_arg(const char *s)
{
	if (strcmp(s, "none") == 0)
		return OUT_NONE;
	if (strcmp(s, "json") == 0)
		return OUT_JSON;
	if (strcmp(s, "report") == 0)
		return OUT_REPORT;
	if (strcmp(s, "text") != 0)
		cmd_usagex("-o must be none, json, report or text, not \"%s\"",
		    s);
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
	int ch, prompt = 0, status, summary = 0;

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
		case OPT_LINES:
			r.lines = 1;
			break;
		case OPT_PROMPT:
			prompt = 1;
			break;
		case OPT_STRICT:
			r.opts.strict = 1;
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

	if (prompt) {
		if (argc > 0)
			cmd_usagex("--print-prompt reads no input");
		io_write(embed_llm_response_prompt,
		    embed_llm_response_prompt_len, stdout);
		return cmd_exit(DIAG_OK);
	}
	if (r.feedback && (r.lines || r.output == OUT_REPORT || summary))
		cmd_usagex("--feedback cannot go with --lines, -o report or "
		    "--summary: it is for one document, and alone on standard "
		    "output");
	/* a model cannot add --find: its feedback goes without the hint */
	r.opts.hint = !r.feedback;
	r.v = llmr_new();
	status = cmd_loop(argc, argv, process, &r);
	if (summary) {
		buf_reset(&r.out);
		verdict_summary(&r.out, &r.tally, r.output == OUT_REPORT, 0);
		(void)io_write(r.out.data, r.out.len, stdout);
	}
	status = cmd_exit(status);
	llmr_free(r.v);
	diag_list_free(&r.errs);
	free(r.placed);
	buf_free(&r.in);
	buf_free(&r.out);
	return status;
}
