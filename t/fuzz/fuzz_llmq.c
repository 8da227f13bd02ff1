/*
 * fuzz_llmq: lib/llmq on any bytes, read as a --from-json line, as a
 * --context object and as raw text (a message from standard input, a
 * --subjects list). A query it accepts must be written, in both forms,
 * as well-formed XML (expat decides) from which expat reads back exactly
 * the message, the topic and the lists; the one-line form must hold no
 * newline but the last, no tab and no carriage return. Anything else
 * aborts. The bytes are also read as a whole --from-json input, each
 * line a query: every line written must be a well-formed document.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <expat.h>
#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "contract/llmq.h"
#include "json/jsonx.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* What expat reads back from a written query. */
struct back {
	struct buf	 message, topic, subjects, keywords;
	struct buf	*text;		/* the element being read, or NULL */
	int		 topics;	/* topicId attributes seen */
};

static void XMLCALL
on_start(void *ud, const XML_Char *name, const XML_Char **attr)
{
	struct back *b = ud;
	size_t i;

	b->text = NULL;
	if (strcmp(name, "userMessage") == 0)
		b->text = &b->message;
	else if (strcmp(name, "activeSubjects") == 0)
		b->text = &b->subjects;
	else if (strcmp(name, "recentKeywords") == 0)
		b->text = &b->keywords;
	else if (strcmp(name, "context") == 0)
		for (i = 0; attr[i] != NULL; i += 2)
			if (strcmp(attr[i], "topicId") == 0) {
				buf_adds(&b->topic, attr[i + 1]);
				b->topics++;
			}
}

static void XMLCALL
on_end(void *ud, const XML_Char *name)
{
	struct back *b = ud;

	b->text = NULL;
}

static void XMLCALL
on_text(void *ud, const XML_Char *s, int len)
{
	struct back *b = ud;

	if (b->text != NULL)
		buf_add(b->text, s, (size_t)len);
}

/* Aborts unless got holds exactly n bytes of want. */
static void
same(const struct buf *got, const char *want, size_t n, const char *what,
    const struct buf *doc)
{
	if (got->len == n && (n == 0 || memcmp(got->data, want, n) == 0))
		return;
	fprintf(stderr, "fuzz_llmq: %s read back differs in:\n%.*s", what,
	    (int)doc->len, doc->data);
	abort();
}

/* A list as the document holds it: the items joined by ", ". */
static void
joined(const struct llmq_list *l, struct buf *out)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (i > 0)
			buf_add(out, ", ", 2);
		buf_add(out, l->item[i], l->len[i]);
	}
}

/* Writes q in one form, parses it back and compares. */
static void
verify_form(const struct llmq *q, unsigned flags)
{
	struct buf doc = BUF_INIT, want = BUF_INIT;
	struct back b;
	XML_Parser p;
	size_t i;

	llmq_write(q, &doc, flags);
	if (doc.len == 0 || doc.data[doc.len - 1] != '\n')
		abort();
	if (flags & LLMQ_ONELINE)
		for (i = 0; i + 1 < doc.len; i++)
			if (doc.data[i] == '\n' || doc.data[i] == '\t' ||
			    doc.data[i] == '\r')
				abort();
	memset(&b, 0, sizeof(b));
	if ((p = XML_ParserCreate("UTF-8")) == NULL)
		abort();
	XML_SetUserData(p, &b);
	XML_SetElementHandler(p, on_start, on_end);
	XML_SetCharacterDataHandler(p, on_text);
	if (XML_Parse(p, doc.data, (int)doc.len, 1) != XML_STATUS_OK) {
		fprintf(stderr, "fuzz_llmq: not XML (%s):\n%.*s",
		    XML_ErrorString(XML_GetErrorCode(p)), (int)doc.len,
		    doc.data);
		abort();
	}
	XML_ParserFree(p);
	if (b.topics != 1)
		abort();
	same(&b.message, q->message.s, q->message.len, "message", &doc);
	same(&b.topic, q->topic.s, q->topic.len, "topic", &doc);
	joined(&q->subjects, &want);
	same(&b.subjects, want.data, want.len, "subjects", &doc);
	buf_reset(&want);
	joined(&q->keywords, &want);
	same(&b.keywords, want.data, want.len, "keywords", &doc);
	buf_free(&want);
	buf_free(&doc);
	buf_free(&b.message);
	buf_free(&b.topic);
	buf_free(&b.subjects);
	buf_free(&b.keywords);
}

/* A query that passed the checks: both forms must read back as it is. */
static void
verify(const struct llmq *q)
{
	if (q->message.s == NULL || q->topic.s == NULL)
		abort();
	verify_form(q, 0);
	verify_form(q, LLMQ_ONELINE);
}

static void
as_json(const char *s, size_t n)
{
	struct llmq_input in;
	struct llmq_src m = { &in, 0, 1, "the message", NULL, 0, 0 };
	struct jsonx_error err;
	struct llmq q;
	size_t off, end;
	json_t *v;
	int r;

	llmq_input_init(&in, "<fuzz>", s, n);
	off = jsonx_skip_ws(s, n, in.src.start);
	if ((v = jsonx_parse(s, n, off, &end, &err)) == NULL)
		return;

	llmq_init(&q);
	r = llmq_read_line(&q, &in, off, v);
	if (llmq_check(&q, LLMQ_PARTS | LLMQ_NEED_TOPIC) == DIAG_OK && r == 0)
		verify(&q);
	llmq_free(&q);

	llmq_init(&q);
	r = llmq_read_context(&q, &in, off, v, 0);
	if (llmq_check(&q, LLMQ_PARTS) == DIAG_OK && r == 0 &&
	    q.topic.s != NULL) {
		llmq_set_text(&q.message, "m", 1, &m);
		verify(&q);
	}
	llmq_free(&q);
	json_decref(v);
}

/* The bytes as a raw message, and as a comma-separated list. */
static void
as_text(const char *s, size_t n)
{
	struct llmq_input in;
	struct llmq_src src = { &in, 0, 1, "the message", NULL, 0, 0 };
	struct llmq q;
	int r;

	llmq_input_init(&in, "<fuzz>", s, n);
	llmq_init(&q);
	llmq_set_text(&q.message, s, n, &src);
	llmq_set_text(&q.topic, s, n, &src);
	r = llmq_add_items(&q.subjects, s, n, &src);
	if (llmq_check(&q, LLMQ_PARTS | LLMQ_NEED_TOPIC) == DIAG_OK && r == 0)
		verify(&q);
	llmq_free(&q);

	llmq_init(&q);
	llmq_set_text(&q.message, "m", 1, &src);
	llmq_set_text(&q.topic, "t", 1, &src);
	r = llmq_add_item(&q.keywords, s, n, &src);
	if (llmq_check(&q, LLMQ_PARTS | LLMQ_NEED_TOPIC) == DIAG_OK && r == 0)
		verify(&q);
	llmq_free(&q);
}

/* The bytes as --from-json input: each line written is a document. */
static void
as_lines(const char *s, size_t n)
{
	FILE *in, *out;
	char *text = NULL, *p, *nl;
	size_t len = 0;
	XML_Parser xp;

	if (n == 0 || (in = fmemopen((void *)s, n, "r")) == NULL)
		return;
	if ((out = open_memstream(&text, &len)) == NULL)
		abort();
	llmq_read_lines(in, "<fuzz>", out, 0);
	fclose(in);
	if (fclose(out) != 0)
		abort();
	for (p = text; p < text + len; p = nl + 1) {
		if ((nl = memchr(p, '\n', len - (size_t)(p - text))) == NULL)
			abort();	/* every query ends its line */
		if ((xp = XML_ParserCreate("UTF-8")) == NULL)
			abort();
		if (XML_Parse(xp, p, (int)(nl - p), 1) != XML_STATUS_OK)
			abort();
		XML_ParserFree(xp);
	}
	free(text);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	diag_setquiet(1);
	as_json((const char *)data, size);
	as_text((const char *)data, size);
	as_lines((const char *)data, size);
	return 0;
}
