/*
 * fuzz_llmr: llmr_check on any bytes, as a whole document and with
 * --find, plainly, with warnings and with --strict, all with one reused
 * validator. A run must end DIAG_OK exactly when no error was found;
 * problems must have positions and come in document order; a valid
 * document's JSON must parse with jansson and hold its text; --strict may
 * only refuse more; warnings change no verdict; the verdict on
 * well-formedness must be expat's own (lib/xmlp). An input split in two
 * at a line "--next--" is also checked as two documents one after the
 * other: the second must get the verdict and problems a new validator
 * gives it, whatever the first was (a deep one, say). Anything else
 * aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <expat.h>
#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "contract/llmr.h"
#include "xml/xmlp.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct llmr	*v;

/* Whether a JSON member holds exactly the text t. */
static int
same(json_t *obj, const char *key, const struct llmr_text *t)
{
	json_t *s = json_object_get(obj, key);

	return json_is_string(s) && json_string_length(s) == t->len &&
	    memcmp(json_string_value(s), t->s, t->len) == 0;
}

static void
check_json(const struct llmr_doc *d)
{
	struct buf b = BUF_INIT;
	json_error_t err;
	json_t *j;

	llmr_json(&b, d);
	if (b.len == 0 || b.data[b.len - 1] != '\n' ||
	    memchr(b.data, '\n', b.len - 1) != NULL)
		abort();
	if ((j = json_loadb(b.data, b.len, 0, &err)) == NULL) {
		fprintf(stderr, "bad JSON: %s\n%.*s", err.text, (int)b.len,
		    b.data);
		abort();
	}
	if (d->type == LLMR_QUERY ? !same(j, "userMessage", &d->message) ||
	    !same(j, "topicId", &d->topic_id) :
	    !same(j, "response", &d->response) ||
	    !same(j, "summaryUpdate", &d->summary) ||
	    json_array_size(json_object_get(j, "subjects")) != d->nsubjects)
		abort();
	json_decref(j);
	buf_free(&b);
}

/*
 * One run; its status, whether a well-formedness error was found, and
 * whether the parse was stopped before the end (a DTD, deep nesting).
 */
static int
run(const char *s, size_t n, int find, int warnings, int strict, int *wf_bad,
    int *dtd)
{
	struct llmr_opts o = { "<fuzz>", LLMR_ANY, find, warnings, strict,
	    1 };
	const struct diag_item *d;
	struct buf fb = BUF_INIT;
	size_t i, nd, errors = 0;
	int status;

	status = llmr_check(v, s, n, &o);
	if (status != DIAG_OK && status != DIAG_INVALID)
		abort();
	d = llmr_diags(v, &nd);
	*wf_bad = *dtd = 0;
	for (i = 0; i < nd; i++) {
		if (d[i].line < 1 || d[i].col < 1 || d[i].rule == NULL ||
		    d[i].rule[0] == '\0' || d[i].message == NULL)
			abort();
		if (i > 0 && (d[i].line < d[i - 1].line ||
		    (d[i].line == d[i - 1].line && d[i].col < d[i - 1].col)))
			abort();
		if (d[i].severity == DIAG_WARNING && (strict || !warnings))
			abort();
		if (d[i].severity == DIAG_ERROR)
			errors++;
		if (strcmp(d[i].rule, "xml-syntax") == 0 ||
		    strcmp(d[i].rule, "utf8") == 0 ||
		    strcmp(d[i].rule, "bare-ampersand") == 0 ||
		    strcmp(d[i].rule, "outside-root") == 0)
			*wf_bad = 1;
		if (strcmp(d[i].rule, "dtd") == 0 ||
		    strcmp(d[i].rule, "nesting-depth") == 0)
			*dtd = 1;
	}
	if ((status == DIAG_OK) != (errors == 0))
		abort();
	if ((status == DIAG_OK) != (llmr_doc(v) != NULL))
		abort();
	if (status == DIAG_OK)
		check_json(llmr_doc(v));
	else {
		llmr_feedback(&fb, v, "prompt\n", 7);
		if (fb.len == 0 || strncmp(fb.data, "Your reply", 10) != 0)
			abort();
		buf_free(&fb);
	}
	return status;
}

/* The problems of the last check, as one text. */
static void
problems(const struct llmr *w, struct buf *b)
{
	const struct diag_item *d;
	size_t i, n;

	buf_reset(b);
	d = llmr_diags(w, &n);
	for (i = 0; i < n; i++)
		buf_printf(b, "%lu:%lu %d %s %s %s\n", d[i].line, d[i].col,
		    (int)d[i].severity, d[i].rule,
		    d[i].path != NULL ? d[i].path : "-", d[i].message);
}

/* s[0..n) checked after s[0..cut), and by a new validator: the same. */
static void
second(const char *s, size_t n, size_t cut, size_t next)
{
	struct llmr_opts o = { "<fuzz>", LLMR_ANY, 0, 1, 0, 1 };
	struct buf a = BUF_INIT, b = BUF_INIT;
	struct llmr *w = llmr_new();
	int st, sw;

	for (o.find = 0; o.find < 2; o.find++) {
		llmr_check(v, s, cut, &o);
		st = llmr_check(v, s + next, n - next, &o);
		problems(v, &a);
		sw = llmr_check(w, s + next, n - next, &o);
		problems(w, &b);
		if (st != sw || a.len != b.len ||
		    (a.len > 0 && memcmp(a.data, b.data, a.len) != 0))
			abort();
	}
	llmr_free(w);
	buf_free(&a);
	buf_free(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char marker[] = "\n--next--\n";
	const char *s = (const char *)data, *m;
	int find, plain, warned, strict, wf_bad, dtd, x, y;
	XML_Parser p;

	diag_setquiet(1);
	if (v == NULL)
		v = llmr_new();
	for (m = s; (m = memchr(m, '\n', size - (size_t)(m - s))) != NULL;
	    m++)
		if (size - (size_t)(m - s) >= sizeof(marker) - 1 &&
		    memcmp(m, marker, sizeof(marker) - 1) == 0) {
			second(s, size, (size_t)(m - s),
			    (size_t)(m - s) + sizeof(marker) - 1);
			break;
		}
	for (find = 0; find < 2; find++) {
		plain = run(s, size, find, 0, 0, &wf_bad, &dtd);
		warned = run(s, size, find, 1, 0, &x, &y);
		strict = run(s, size, find, 0, 1, &x, &y);
		if (warned != plain || (strict == DIAG_OK && plain != DIAG_OK))
			abort();
		if (find || dtd)
			continue;
		p = xmlp_create();
		if ((xmlp_parse_buffer(p, s, size, "<fuzz>") != DIAG_OK) !=
		    wf_bad)
			abort();
		XML_ParserFree(p);
	}
	return 0;
}
