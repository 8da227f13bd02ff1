/*
 * llmq-encode: writes the <llmQuery> document of seed 000 for a message
 * (the operands, or standard input) and its context (options, a JSON
 * file), or, with --from-json, one query per line for JSON lines. It
 * fails, writing nothing for that query, when the query breaks the
 * contract: an empty or too long message, no topic, a bad count, too many
 * or bad list items, text that is not UTF-8 or that XML cannot hold.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "buf.h"
#include "diag.h"
#include "io.h"
#include "jsonx.h"
#include "llmq.h"
#include "xalloc.h"

static void usage(void) __attribute__((noreturn));

enum {
	OPT_CONTEXT = 256, OPT_ERRORS, OPT_FROM_JSON, OPT_KEYWORDS,
	OPT_SUBJECTS, OPT_VERSION
};

static const struct option longopts[] = {
	{ "context",	required_argument,	NULL, OPT_CONTEXT },
	{ "count",	required_argument,	NULL, 'n' },
	{ "errors",	required_argument,	NULL, OPT_ERRORS },
	{ "from-json",	no_argument,		NULL, OPT_FROM_JSON },
	{ "help",	no_argument,		NULL, 'h' },
	{ "keyword",	required_argument,	NULL, 'k' },
	{ "keywords",	required_argument,	NULL, OPT_KEYWORDS },
	{ "subject",	required_argument,	NULL, 's' },
	{ "subjects",	required_argument,	NULL, OPT_SUBJECTS },
	{ "topic",	required_argument,	NULL, 't' },
	{ "unbuffered",	no_argument,		NULL, 'u' },
	{ "version",	no_argument,		NULL, OPT_VERSION },
	{ NULL,		0,			NULL, 0 }
};

static const char synopsis[] =
    "usage: llmq-encode [-hu] [-t TOPIC] [-n COUNT] [-s SUBJECT] "
    "[-k KEYWORD]\n"
    "                   [--subjects LIST] [--keywords LIST] "
    "[--context FILE]\n"
    "                   [--errors=json|text] [MESSAGE ...]\n"
    "       llmq-encode --from-json [-hu] [--errors=json|text] "
    "[FILE ...]\n";

/* An option that gives part of the query, kept until the options are read. */
struct part {
	int		 opt;
	const char	*arg;
	int		 argn;
};

/* The arguments as given, before getopt_long reorders them. */
static char	**args;
static int	  nargs;

/* The parts of the query given as options, in order. */
static struct part	*parts;
static size_t		 nparts;

/* The number of the argument that p points into (counted from 1), or 0. */
static int
argnum(const char *p)
{
	int i;

	for (i = 1; i < nargs; i++)
		if (p >= args[i] && p <= args[i] + strlen(args[i]))
			return i;
	return 0;
}

/* The command-line parts into q, in the order given; -1 if any was bad. */
static int
add_parts(struct llmq *q, const struct part *p, size_t n)
{
	struct llmq_src src = { NULL, 0, 0, NULL, NULL, 0, 1 };
	size_t i;
	int bad = 0, r = 0;

	for (i = 0; i < n; i++) {
		src.argn = p[i].argn;
		switch (p[i].opt) {
		case 'k':
			src.what = "-k";
			r = llmq_add_item(&q->keywords, p[i].arg,
			    strlen(p[i].arg), &src);
			break;
		case 'n':
			src.what = "-n";
			r = llmq_set_count(q, p[i].arg, &src);
			break;
		case 's':
			src.what = "-s";
			r = llmq_add_item(&q->subjects, p[i].arg,
			    strlen(p[i].arg), &src);
			break;
		case OPT_KEYWORDS:
			src.what = "--keywords";
			r = llmq_add_items(&q->keywords, p[i].arg,
			    strlen(p[i].arg), &src);
			break;
		case OPT_SUBJECTS:
			src.what = "--subjects";
			r = llmq_add_items(&q->subjects, p[i].arg,
			    strlen(p[i].arg), &src);
			break;
		}
		if (r != 0)
			bad = 1;
	}
	return bad ? -1 : 0;
}

/*
 * The message from standard input: all of it, after a byte order mark,
 * less one final newline (LF or CR LF), as "echo" and here-documents add.
 */
static int
stdin_message(struct llmq *q, struct buf *text, struct llmq_input *in)
{
	struct llmq_src src = { in, 0, 1, "the message", NULL, 0, 0 };
	size_t n;

	if (io_read_text("-", text) != DIAG_OK)
		return DIAG_TROUBLE;
	in->file = "<stdin>";
	in->text = buf_cstr(text);
	in->len = text->len;
	in->line = 1;
	in->base = 0;
	if (text->len >= 3 && memcmp(text->data, "\xEF\xBB\xBF", 3) == 0)
		src.off = 3;
	n = text->len - src.off;
	if (n > 0 && text->data[src.off + n - 1] == '\n') {
		n--;
		if (n > 0 && text->data[src.off + n - 1] == '\r')
			n--;
	}
	llmq_set_text(&q->message, text->data + src.off, n, &src);
	return DIAG_OK;
}

/* The message from the operands, joined by single spaces. */
static int
operand_message(struct llmq *q, int argc, char *argv[])
{
	struct llmq_src src = { NULL, 0, 0, "the message", NULL, 0, 0 };
	struct buf msg = BUF_INIT;
	int i, bad = 0;

	for (i = 0; i < argc; i++) {
		src.argn = argnum(argv[i]);
		if (llmq_check_text(argv[i], strlen(argv[i]), &src) != 0)
			bad = 1;
		if (i > 0)
			buf_addc(&msg, ' ');
		buf_adds(&msg, argv[i]);
	}
	src.argn = 0;
	if (!bad)
		llmq_set_text(&q->message, buf_cstr(&msg), msg.len, &src);
	buf_free(&msg);
	return bad ? DIAG_INVALID : DIAG_OK;
}

/* Reports a JSON error of jsonx at its place in an input. */
static void
json_error(const struct llmq_input *in, struct jsonx_error *err)
{
	struct diag_loc loc;

	/* a repeated key names its first place, counted as ours are */
	if (err->first != JSONX_NOPOS) {
		llmq_position(in, err->first, &loc.line, &loc.col);
		jsonx_dup_text(err, loc.line, loc.col);
	}
	llmq_position(in, err->offset, &loc.line, &loc.col);
	loc.file = in->file;
	loc.path = NULL;
	if (strcmp(err->rule, "utf8") == 0)
		diag_at(DIAG_ERROR, &loc, err->rule, "invalid UTF-8: byte "
		    "0x%02x at byte offset %zu",
		    (unsigned char)in->text[err->offset],
		    in->base + err->offset);
	else
		diag_at(DIAG_ERROR, &loc, err->rule, "%s", err->text);
}

/*
 * The one JSON value of an input from byte off on, with nothing but white
 * space after it; NULL when there is none (reported). line: the input is
 * a line of --from-json input, not a whole file.
 */
static json_t *
one_value(const struct llmq_input *in, size_t off, int line)
{
	struct jsonx_error err;
	json_t *v;
	size_t end;

	if ((v = jsonx_parse(in->text, in->len, off, &end, &err)) == NULL) {
		if (line)
			jsonx_end_noun(&err, "line");
		json_error(in, &err);
		return NULL;
	}
	end = jsonx_skip_ws(in->text, in->len, end);
	if (end < in->len) {
		err.offset = end;
		err.first = JSONX_NOPOS;
		snprintf(err.rule, sizeof(err.rule), "json-syntax");
		snprintf(err.text, sizeof(err.text), "invalid JSON: text "
		    "after the %s", line ? "object on the line" :
		    "context object");
		json_error(in, &err);
		json_decref(v);
		return NULL;
	}
	return v;
}

/* The byte just past a byte order mark at the top of a file, or 0. */
static size_t
after_bom(const char *s, size_t n)
{
	return n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

/*
 * Reads the --context file into ctx and checks it in full, whether or not
 * options override its members. Returns a status.
 */
static int
read_context(struct llmq *ctx, const char *file, struct buf *text,
    struct llmq_input *in)
{
	json_t *v;
	size_t off;
	int status = DIAG_OK;

	if (io_read_text(file, text) != DIAG_OK)
		return DIAG_TROUBLE;
	in->file = io_name(file);
	in->text = buf_cstr(text);
	in->len = text->len;
	in->line = 1;
	in->base = 0;
	off = jsonx_skip_ws(in->text, in->len, after_bom(in->text, in->len));
	if ((v = one_value(in, off, 0)) == NULL)
		return DIAG_INVALID;
	if (llmq_read_context(ctx, in, off, v, 0) != 0)
		status = DIAG_INVALID;
	json_decref(v);
	return diag_max(status, llmq_check(ctx, LLMQ_PARTS));
}

/*
 * One query from the command line (q, where status says how its options
 * fared), the message and a context file; written when all is well.
 */
static int
encode(struct llmq *q, int status, int argc, char *argv[],
    const char *context)
{
	struct llmq ctx;
	struct llmq_input msg_in, ctx_in;
	struct buf msg_text = BUF_INIT, ctx_text = BUF_INIT, out = BUF_INIT;
	int ctx_status = DIAG_OK;

	if (argc == 0 || (argc == 1 && strcmp(argv[0], "-") == 0))
		status = diag_max(status, stdin_message(q, &msg_text,
		    &msg_in));
	else
		status = diag_max(status, operand_message(q, argc, argv));
	status = diag_max(status, llmq_check(q, LLMQ_PARTS));

	llmq_init(&ctx);
	if (context != NULL) {
		ctx_status = read_context(&ctx, context, &ctx_text, &ctx_in);
		status = diag_max(status, ctx_status);
	}
	if (ctx_status == DIAG_OK) {
		llmq_merge(q, &ctx);
		status = diag_max(status, llmq_check(q, LLMQ_NEED_TOPIC));
	}
	if (status == DIAG_OK) {
		llmq_write(q, &out, 0);
		if (io_write(out.data, out.len, stdout) != 0)
			status = DIAG_TROUBLE;
	}
	llmq_free(&ctx);
	buf_free(&msg_text);
	buf_free(&ctx_text);
	buf_free(&out);
	return status;
}

/*
 * One --from-json line: a query written on one line when it is good;
 * reported and skipped when it is not. Blank lines are skipped.
 */
static int
json_line(const struct llmq_input *in, struct buf *out)
{
	struct llmq q;
	json_t *v;
	size_t off;
	int status = DIAG_OK;

	off = in->base == 0 ? after_bom(in->text, in->len) : 0;
	off = jsonx_skip_ws(in->text, in->len, off);
	if (off == in->len)
		return DIAG_OK;
	if ((v = one_value(in, off, 1)) == NULL)
		return DIAG_INVALID;
	llmq_init(&q);
	if (llmq_read_line(&q, in, off, v) != 0)
		status = DIAG_INVALID;
	status = diag_max(status, llmq_check(&q,
	    LLMQ_PARTS | LLMQ_NEED_TOPIC));
	if (status == DIAG_OK)
		llmq_write(&q, out, LLMQ_ONELINE);
	llmq_free(&q);
	json_decref(v);
	return status;
}

/*
 * All the JSON lines of one operand. Returns the highest status; *stop
 * is set when standard output fails.
 */
static int
from_json(const char *operand, int unbuffered, int *stop)
{
	struct llmq_input in;
	struct buf out = BUF_INIT;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *fp;
	int status = DIAG_OK;

	if ((fp = io_open(operand)) == NULL) {
		diag_warn("%s", operand);
		return DIAG_TROUBLE;
	}
	in.file = io_name(operand);
	in.line = 0;
	in.base = 0;
	while ((len = io_getline_text(&line, &cap, fp)) != -1) {
		in.text = line;
		in.len = (size_t)len;
		in.line++;
		buf_reset(&out);
		status = diag_max(status, json_line(&in, &out));
		in.base += (size_t)len;
		if (out.len > 0 && (io_write(out.data, out.len, stdout) != 0 ||
		    (unbuffered && fflush(stdout) != 0))) {
			*stop = 1;
			break;
		}
		if (line[len - 1] == '\0')
			break;		/* reported: no JSON line holds one */
	}
	if (!*stop && ferror(fp)) {
		diag_warn("%s", in.file);
		status = DIAG_TROUBLE;
	}
	free(line);
	buf_free(&out);
	return diag_max(status, io_close(fp, operand));
}

int
main(int argc, char *argv[])
{
	struct llmq q;
	const char *topic = NULL, *context = NULL;
	int ch, i, topic_argn = 0, json = 0, unbuffered = 0, stop = 0;
	int status = DIAG_OK;

	diag_setprogname(argv[0]);
	signal(SIGXFSZ, SIG_IGN);	/* a file too large: a write error */
	argv[0] = (char *)diag_progname();	/* getopt's messages too */
	nargs = argc;
	args = xreallocarray(NULL, (size_t)argc + 1, sizeof(*args));
	memcpy(args, argv, ((size_t)argc + 1) * sizeof(*args));
	parts = xreallocarray(NULL, (size_t)argc + 1, sizeof(*parts));
	while ((ch = getopt_long(argc, argv, "hk:n:s:t:u", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'h':
			fputs(synopsis, stdout);
			fputs("exit status: 0 written, 1 invalid input, "
			    "2 usage, 3 trouble\n", stdout);
			free(args);
			free(parts);
			return io_fshut(stdout, "<stdout>");
		case 'k':
		case 'n':
		case 's':
		case OPT_KEYWORDS:
		case OPT_SUBJECTS:
			parts[nparts].opt = ch;
			parts[nparts].arg = optarg;
			parts[nparts].argn = argnum(optarg);
			nparts++;
			break;
		case 't':
			topic = optarg;
			topic_argn = argnum(optarg);
			break;
		case 'u':
			unbuffered = 1;
			break;
		case OPT_CONTEXT:
			context = optarg;
			break;
		case OPT_ERRORS:
			if (diag_seterrors(optarg) != 0)
				usage();
			break;
		case OPT_FROM_JSON:
			json = 1;
			break;
		case OPT_VERSION:
			printf("llmq-encode (llmkit) %s\n", LLMKIT_VERSION);
			free(args);
			free(parts);
			return io_fshut(stdout, "<stdout>");
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	if (json) {
		if (nparts > 0 || topic != NULL || context != NULL) {
			diag_warnx("--from-json takes the whole query from "
			    "its input: no -t, -n, -s, -k, --subjects, "
			    "--keywords or --context");
			usage();
		}
		if (argc == 0)
			status = from_json("-", unbuffered, &stop);
		for (i = 0; i < argc && !stop; i++)
			status = diag_max(status,
			    from_json(argv[i], unbuffered, &stop));
	} else {
		if (context != NULL && strcmp(context, "-") == 0 &&
		    (argc == 0 || (argc == 1 && strcmp(argv[0], "-") == 0))) {
			diag_warnx("--context - reads standard input: give the "
			    "message as operands");
			usage();
		}
		llmq_init(&q);
		q.no_topic = "give -t TOPIC, or a \"topicId\" in the "
		    "--context file";
		if (add_parts(&q, parts, nparts) != 0)
			status = DIAG_INVALID;
		if (topic != NULL) {
			struct llmq_src src = { NULL, 0, 0, "-t", NULL,
			    topic_argn, 1 };

			llmq_set_text(&q.topic, topic, strlen(topic), &src);
		}
		status = encode(&q, status, argc, argv, context);
		llmq_free(&q);
	}
	free(args);
	free(parts);
	return diag_max(status, io_fshut(stdout, "<stdout>"));
}

/* The usage on stderr, and status 2; valgrind likes the memory freed. */
static void
usage(void)
{
	free(args);
	free(parts);
	fputs(synopsis, stderr);
	exit(DIAG_USAGE);
}
