/*
 * llmq-encode: writes the <llmQuery> document of seed 000 for a message
 * (the operands, or standard input) and its context (options, a JSON
 * file), or, with --from-json, one query per line for JSON lines. It
 * fails, writing nothing for that query, when the query breaks the
 * contract: an empty or too long message, no topic, a bad count, too many
 * or bad list items, text that is not UTF-8 or that XML cannot hold.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "base/diag.h"
#include "base/io.h"
#include "contract/llmq.h"
#include "help/llmq-encode.h"

enum {
	OPT_CONTEXT = CMD_OPT_FIRST, OPT_FROM_JSON, OPT_KEYWORDS,
	OPT_SUBJECTS
};

static const struct option longopts[] = {
	CMD_LONGOPTS,
	{ "context",	required_argument,	NULL, OPT_CONTEXT },
	{ "count",	required_argument,	NULL, 'n' },
	{ "from-json",	no_argument,		NULL, OPT_FROM_JSON },
	{ "keyword",	required_argument,	NULL, 'k' },
	{ "keywords",	required_argument,	NULL, OPT_KEYWORDS },
	{ "subject",	required_argument,	NULL, 's' },
	{ "subjects",	required_argument,	NULL, OPT_SUBJECTS },
	{ "topic",	required_argument,	NULL, 't' },
	{ "unbuffered",	no_argument,		NULL, 'u' },
	{ NULL,		0,			NULL, 0 }
};

static const struct cmd self = {
	"usage: llmq-encode [-hu] [-t TOPIC] [-n COUNT] [-s SUBJECT] "
	"[-k KEYWORD]\n"
	"                   [--subjects LIST] [--keywords LIST] "
	"[--context FILE]\n"
	"                   [--errors=github|json|text] [MESSAGE ...]\n"
	"       llmq-encode --from-json [-hu] [--errors=github|json|text] "
	"[FILE ...]\n",
	"0 written, 1 invalid input, 2 usage, 3 trouble",
	CMD_HELP
};

/* The command line; freed at exit, the usage's included, for valgrind. */
static struct llmq_args	args;

static void
args_free(void)
{
	llmq_args_free(&args);
}

/* Whether the message is standard input: no operand, or "-" alone. */
static int
from_stdin(int argc, char *argv[])
{
	return argc == 0 || (argc == 1 && strcmp(argv[0], "-") == 0);
}

/*
 * The one query of the command line: the options' parts, the message from
 * the operands or standard input, the rest from a context file; written
 * when all is well, every problem reported when not.
 */
static int
encode(int argc, char *argv[], const char *context)
{
	struct llmq q, ctx;
	struct llmq_input msg_in, ctx_in;
	struct buf out = BUF_INIT;
	int status, ctx_status = DIAG_OK;

	llmq_init(&q);
	llmq_init(&ctx);
	memset(&msg_in, 0, sizeof(msg_in));
	memset(&ctx_in, 0, sizeof(ctx_in));
	q.no_topic = "give -t TOPIC, or a \"topicId\" in the --context file";
	status = llmq_args_parts(&q, &args);
	if (from_stdin(argc, argv))
		status = diag_max(status, llmq_read_message(&q, &msg_in, "-"));
	else
		status = diag_max(status,
		    llmq_args_message(&q, &args, argc, argv));
	status = diag_max(status, llmq_check(&q, LLMQ_PARTS));
	if (context != NULL) {
		ctx_status = llmq_read_context_file(&ctx, &ctx_in, context);
		status = diag_max(status, ctx_status);
	}
	if (ctx_status == DIAG_OK) {
		llmq_merge(&q, &ctx);
		status = diag_max(status, llmq_check(&q, LLMQ_NEED_TOPIC));
	}
	if (status == DIAG_OK) {
		llmq_write(&q, &out, 0);
		if (io_write(out.data, out.len, stdout) != 0)
			status = DIAG_TROUBLE;
	}
	llmq_free(&q);
	llmq_free(&ctx);
	llmq_input_free(&msg_in);
	llmq_input_free(&ctx_in);
	buf_free(&out);
	return status;
}

/* The JSON lines of one operand, each query written as it is read. */
static int
from_json(FILE *fp, const char *name, void *unbuffered)
{
	return llmq_read_lines(fp, name, stdout, *(int *)unbuffered);
}

int
main(int argc, char *argv[])
{
	const char *context = NULL;
	int ch, json = 0, unbuffered = 0;

	cmd_init(&self, argv);
	llmq_args_init(&args, argc, argv);
	atexit(args_free);
	while ((ch = cmd_getopt(argc, argv, "hk:n:s:t:u", longopts)) != -1) {
		switch (ch) {
		case 'k':
			llmq_args_add(&args, LLMQ_KEYWORD, "-k", optarg);
			break;
		case 'n':
			llmq_args_add(&args, LLMQ_COUNT, "-n", optarg);
			break;
		case 's':
			llmq_args_add(&args, LLMQ_SUBJECT, "-s", optarg);
			break;
		case 't':
			llmq_args_add(&args, LLMQ_TOPIC, "-t", optarg);
			break;
		case 'u':
			unbuffered = 1;
			break;
		case OPT_CONTEXT:
			context = optarg;
			break;
		case OPT_FROM_JSON:
			json = 1;
			break;
		case OPT_KEYWORDS:
			llmq_args_add(&args, LLMQ_KEYWORDS, "--keywords",
			    optarg);
			break;
		case OPT_SUBJECTS:
			llmq_args_add(&args, LLMQ_SUBJECTS, "--subjects",
			    optarg);
			break;
		default:
			cmd_usage();
		}
	}
	argc -= optind;
	argv += optind;

	if (json) {
		if (args.n > 0 || context != NULL)
			cmd_usagex("--from-json takes the whole query from "
			    "its input: no -t, -n, -s, -k, --subjects, "
			    "--keywords or --context");
		return cmd_operands_exit(argc, argv, from_json, &unbuffered);
	}
	if (context != NULL && strcmp(context, "-") == 0 &&
	    from_stdin(argc, argv))
		cmd_usagex("--context - reads standard input: give the "
		    "message as operands");
	return cmd_exit(encode(argc, argv, context));
}
