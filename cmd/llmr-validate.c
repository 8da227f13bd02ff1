/*
 * llmr-validate: reads <llmResponse> and <llmQuery> documents (each file
 * one document) and checks each against every rule of seed 000's
 * contract, reporting all the problems of a document as FILE:LINE:COL
 * lines; on request it writes each valid document as JSON or text, or,
 * for an invalid one, a message that tells a model what to correct. It
 * exits 1 when a document is invalid, 3 when a file cannot be read.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "buf.h"
#include "diag.h"
#include "embed.h"
#include "io.h"
#include "llmr.h"

static void usage(void) __attribute__((noreturn));

enum output { OUT_NONE, OUT_JSON, OUT_TEXT };

enum {
	OPT_ERRORS = 256, OPT_FEEDBACK, OPT_FIND, OPT_PROMPT,
	OPT_STRICT, OPT_VERSION
};

static const struct option longopts[] = {
	{ "errors",		required_argument,	NULL, OPT_ERRORS },
	{ "feedback",		no_argument,		NULL, OPT_FEEDBACK },
	{ "find",		no_argument,		NULL, OPT_FIND },
	{ "help",		no_argument,		NULL, 'h' },
	{ "output",		required_argument,	NULL, 'o' },
	{ "print-prompt",	no_argument,		NULL, OPT_PROMPT },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "strict",		no_argument,		NULL, OPT_STRICT },
	{ "type",		required_argument,	NULL, 't' },
	{ "version",		no_argument,		NULL, OPT_VERSION },
	{ "warnings",		no_argument,		NULL, 'W' },
	{ NULL,			0,			NULL, 0 }
};

static const char synopsis[] =
    "usage: llmr-validate [-hqW] [--errors=json|text] [--feedback] [--find]\n"
    "                     [-o none|json|text] [--strict] [-t query|response]\n"
    "                     [FILE ...]\n"
    "       llmr-validate --print-prompt\n";

struct run {
	struct llmr		*v;
	struct llmr_opts	 opts;
	enum output		 output;
	int			 feedback;
	struct buf		 in;
	struct buf		 out;
};

/* Validates one operand; its status, or DIAG_TROUBLE when it is unreadable. */
static int
process(struct run *r, const char *operand)
{
	const struct llmr_doc *doc;
	int status;

	r->opts.file = io_name(operand);
	/* as far as llmr_check looks: to the first NUL byte */
	buf_reset(&r->in);
	if (io_read_text(operand, &r->in) != DIAG_OK)
		return DIAG_TROUBLE;

	status = llmr_check(r->v, r->in.data != NULL ? r->in.data : "",
	    r->in.len, &r->opts);
	llmr_report(r->v);
	buf_reset(&r->out);
	if ((doc = llmr_doc(r->v)) != NULL) {
		if (r->output == OUT_JSON)
			llmr_json(&r->out, doc);
		else if (r->output == OUT_TEXT) {
			buf_add(&r->out, doc->type == LLMR_QUERY ?
			    doc->message.s : doc->response.s,
			    doc->type == LLMR_QUERY ? doc->message.len :
			    doc->response.len);
			buf_addc(&r->out, '\n');
		}
	} else if (status == DIAG_INVALID && r->feedback)
		llmr_feedback(&r->out, r->v, embed_llm_response_prompt,
		    embed_llm_response_prompt_len);
	if (io_write(r->out.data, r->out.len, stdout) != 0)
		return DIAG_TROUBLE;	/* reported when stdout is closed */
	return status;
}

int
main(int argc, char *argv[])
{
	struct run r;
	int ch, i, prompt = 0, status = DIAG_OK;

	memset(&r, 0, sizeof(r));
	r.opts.type = LLMR_ANY;
	diag_setprogname(argv[0]);
	signal(SIGXFSZ, SIG_IGN);	/* a file too large: a write error */
	argv[0] = (char *)diag_progname();	/* getopt's messages too */
	while ((ch = getopt_long(argc, argv, "ho:qt:W", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'h':
			fputs(synopsis, stdout);
			fputs("exit status: 0 valid, 1 invalid, 2 usage, "
			    "3 trouble\n", stdout);
			return io_fshut(stdout, "<stdout>");
		case 'o':
			if (strcmp(optarg, "none") == 0)
				r.output = OUT_NONE;
			else if (strcmp(optarg, "json") == 0)
				r.output = OUT_JSON;
			else if (strcmp(optarg, "text") == 0)
				r.output = OUT_TEXT;
			else {
				diag_warnx("-o must be none, json or text, "
				    "not \"%s\"", optarg);
				usage();
			}
			break;
		case 'q':
			diag_setquiet(1);
			break;
		case 't':
			if (strcmp(optarg, "query") == 0)
				r.opts.type = LLMR_QUERY;
			else if (strcmp(optarg, "response") == 0)
				r.opts.type = LLMR_RESPONSE;
			else {
				diag_warnx("-t must be query or response, "
				    "not \"%s\"", optarg);
				usage();
			}
			break;
		case 'W':
			r.opts.warnings = 1;
			break;
		case OPT_ERRORS:
			if (diag_seterrors(optarg) != 0)
				usage();
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
		case OPT_VERSION:
			printf("llmr-validate (llmkit) %s\n", LLMKIT_VERSION);
			return io_fshut(stdout, "<stdout>");
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	if (prompt) {
		if (argc > 0) {
			diag_warnx("--print-prompt reads no input");
			usage();
		}
		io_write(embed_llm_response_prompt,
		    embed_llm_response_prompt_len, stdout);
		return io_fshut(stdout, "<stdout>");
	}

	r.v = llmr_new();
	if (argc == 0)
		status = process(&r, "-");
	for (i = 0; i < argc; i++)
		status = diag_max(status, process(&r, argv[i]));
	llmr_free(r.v);
	buf_free(&r.in);
	buf_free(&r.out);
	return diag_max(status, io_fshut(stdout, "<stdout>"));
}

static void
usage(void)
{
	fputs(synopsis, stderr);
	exit(DIAG_USAGE);
}
