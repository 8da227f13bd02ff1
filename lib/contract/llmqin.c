/*
 * llmq: where a query's text comes from. The command line (options kept
 * until all are read, arguments named by number), a message read whole,
 * a --context file, and JSON lines read one at a time, each query written
 * as soon as its line is read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/io.h"
#include "base/src.h"
#include "base/xalloc.h"
#include "contract/llmq.h"
#include "json/jsonx.h"

/* An input over s[0..n), named name: line 1 and byte 0 of its file. */
void
llmq_input_init(struct llmq_input *in, const char *name, const char *s,
    size_t n)
{
	memset(in, 0, sizeof(*in));
	src_init(&in->src, name, s, n);
}

void
llmq_input_free(struct llmq_input *in)
{
	buf_free(&in->text);
	memset(in, 0, sizeof(*in));
}

/* Reads operand whole into in (named as diagnostics name it). */
static int
input_read(struct llmq_input *in, const char *operand)
{
	memset(in, 0, sizeof(*in));
	if (io_read_text(operand, &in->text) != DIAG_OK)
		return DIAG_TROUBLE;
	src_init(&in->src, io_name(operand), buf_cstr(&in->text),
	    in->text.len);
	return DIAG_OK;
}

/* The arguments as given (argc of argv), before any option is read. */
void
llmq_args_init(struct llmq_args *a, int argc, char *argv[])
{
	memset(a, 0, sizeof(*a));
	a->argc = argc;
	a->argv = xreallocarray(NULL, (size_t)argc + 1, sizeof(*a->argv));
	memcpy(a->argv, argv, ((size_t)argc + 1) * sizeof(*a->argv));
}

void
llmq_args_free(struct llmq_args *a)
{
	free(a->argv);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

/* The number of the argument that p points into (counted from 1), or 0. */
static int
argnum(const struct llmq_args *a, const char *p)
{
	int i;

	for (i = 1; i < a->argc; i++)
		if (p >= a->argv[i] && p <= a->argv[i] + strlen(a->argv[i]))
			return i;
	return 0;
}

/*
 * Keeps a part of the query that an option gives: arg, from the option
 * that messages call what (both must outlive the query).
 */
void
llmq_args_add(struct llmq_args *a, enum llmq_part part, const char *what,
    const char *arg)
{
	struct llmq_arg *p;

	if (a->n == a->cap) {
		a->cap = a->cap > 0 ? a->cap * 2 : 8;
		a->v = xreallocarray(a->v, a->cap, sizeof(*a->v));
	}
	p = &a->v[a->n++];
	p->part = part;
	p->what = what;
	p->arg = arg;
	p->argn = argnum(a, arg);
}

/*
 * The parts kept into q, in the order given, every problem reported: the
 * last topic and count count, the items add up. Returns DIAG_OK or
 * DIAG_INVALID.
 */
int
llmq_args_parts(struct llmq *q, const struct llmq_args *a)
{
	struct llmq_src src = { NULL, 0, 0, NULL, NULL, 0, 1 };
	const struct llmq_arg *p;
	size_t i, n;
	int r, bad = 0;

	for (i = 0; i < a->n; i++) {
		p = &a->v[i];
		src.what = p->what;
		src.argn = p->argn;
		n = strlen(p->arg);
		r = 0;
		switch (p->part) {
		case LLMQ_COUNT:
			r = llmq_set_count(q, p->arg, &src);
			break;
		case LLMQ_KEYWORD:
			r = llmq_add_item(&q->keywords, p->arg, n, &src);
			break;
		case LLMQ_KEYWORDS:
			r = llmq_add_items(&q->keywords, p->arg, n, &src);
			break;
		case LLMQ_SUBJECT:
			r = llmq_add_item(&q->subjects, p->arg, n, &src);
			break;
		case LLMQ_SUBJECTS:
			r = llmq_add_items(&q->subjects, p->arg, n, &src);
			break;
		case LLMQ_TOPIC:
			llmq_set_text(&q->topic, p->arg, n, &src);
			break;
		}
		if (r != 0)
			bad = 1;
	}
	return bad ? DIAG_INVALID : DIAG_OK;
}

/*
 * The message from operands (argc of argv, past the options), joined by
 * single spaces; a bad one is reported by its argument number. Returns
 * DIAG_OK or DIAG_INVALID.
 */
int
llmq_args_message(struct llmq *q, const struct llmq_args *a, int argc,
    char *argv[])
{
	struct llmq_src src = { NULL, 0, 0, "the message", NULL, 0, 0 };
	struct buf msg = BUF_INIT;
	int i, bad = 0;

	for (i = 0; i < argc; i++) {
		src.argn = argnum(a, argv[i]);
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

/*
 * The message from an operand ("-" for standard input), read into in: all
 * of it after a byte order mark, less one final newline (LF or CR LF),
 * as "echo" and here-documents add. Returns DIAG_OK or DIAG_TROUBLE.
 */
int
llmq_read_message(struct llmq *q, struct llmq_input *in, const char *operand)
{
	struct llmq_src src = { in, 0, 1, "the message", NULL, 0, 0 };
	const char *s;
	size_t n;

	if (input_read(in, operand) != DIAG_OK)
		return DIAG_TROUBLE;
	src.off = in->src.start;
	s = in->src.s + src.off;
	n = in->src.n - src.off;
	if (n > 0 && s[n - 1] == '\n') {
		n--;
		if (n > 0 && s[n - 1] == '\r')
			n--;
	}
	llmq_set_text(&q->message, s, n, &src);
	return DIAG_OK;
}

/* Reports a JSON error of jsonx at its place in an input. */
static void
json_error(struct llmq_input *in, struct jsonx_error *err)
{
	struct diag_loc loc;

	/* a repeated key names its first place, counted as ours are */
	if (err->first != JSONX_NOPOS) {
		src_loc(&in->src, err->first, &loc);
		jsonx_dup_text(err, loc.line, loc.col);
	}
	src_loc(&in->src, err->offset, &loc);
	loc.path = NULL;
	if (strcmp(err->rule, "utf8") == 0)
		diag_at(DIAG_ERROR, &loc, err->rule, "invalid UTF-8: byte "
		    "0x%02x at byte offset %zu",
		    (unsigned char)in->src.s[err->offset],
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
one_value(struct llmq_input *in, size_t off, int line)
{
	struct jsonx_error err;
	json_t *v;
	size_t end;

	v = jsonx_parse(in->src.s, in->src.n, off, &end, &err);
	if (v == NULL) {
		if (line)
			jsonx_end_noun(&err, "line");
		json_error(in, &err);
		return NULL;
	}
	end = jsonx_skip_ws(in->src.s, in->src.n, end);
	if (end < in->src.n) {
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

/*
 * Reads a --context file into ctx, through in, and checks it in full,
 * whether or not options override its members. Returns a status.
 */
int
llmq_read_context_file(struct llmq *ctx, struct llmq_input *in,
    const char *file)
{
	json_t *v;
	size_t off;
	int status = DIAG_OK;

	if (input_read(in, file) != DIAG_OK)
		return DIAG_TROUBLE;
	off = jsonx_skip_ws(in->src.s, in->src.n, in->src.start);
	if ((v = one_value(in, off, 0)) == NULL)
		return DIAG_INVALID;
	if (llmq_read_context(ctx, in, off, v, 0) != 0)
		status = DIAG_INVALID;
	json_decref(v);
	return diag_max(status, llmq_check(ctx, LLMQ_PARTS));
}

/*
 * One --from-json line: the query appended to out in one line when it is
 * good; reported when it is not. A blank line is nothing. A byte order
 * mark is skipped on the first line only; on a later one it is a token
 * that fails where it stands, the one place reported on such a line.
 */
static int
json_line(struct llmq_input *in, struct buf *out)
{
	struct llmq q;
	json_t *v;
	size_t off;
	int status = DIAG_OK;

	off = jsonx_skip_ws(in->src.s, in->src.n,
	    in->base == 0 ? in->src.start : 0);
	if (off == in->src.n)
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
 * The --from-json lines of fp (name for diagnostics): each good one
 * written to out as soon as it is read (flushed, with unbuffered), each
 * bad one reported and skipped. A line that holds a NUL byte is bad at
 * it, reported at once, and the rest of it read and dropped, not kept:
 * the next line is read. Returns the highest status; once out fails
 * nothing more is read, and DIAG_TROUBLE is returned (the caller reports
 * the failed output when it closes it).
 */
int
llmq_read_lines(FILE *fp, const char *name, FILE *out, int unbuffered)
{
	struct llmq_input in;
	struct buf doc = BUF_INIT;
	char *line = NULL;
	size_t cap = 0, base = 0;
	unsigned long lineno = 0;
	ssize_t len;
	int status = DIAG_OK;

	while ((len = io_getline_text(&line, &cap, fp)) != -1) {
		llmq_input_init(&in, name, line, (size_t)len);
		src_setline(&in.src, ++lineno);
		in.base = base;
		base += (size_t)len;
		buf_reset(&doc);
		status = diag_max(status, json_line(&in, &doc));
		if (io_write(doc.data, doc.len, out) != 0 ||
		    (doc.len > 0 && unbuffered && fflush(out) != 0)) {
			status = DIAG_TROUBLE;
			goto out;
		}
		if (line[len - 1] == '\0')
			base += io_skip_line(fp);
	}
	if (ferror(fp)) {
		diag_warn("%s", name);
		status = DIAG_TROUBLE;
	}
out:
	free(line);
	buf_free(&doc);
	return status;
}
