/*
 * fuzz_jsonresp: jsonresp_check on any bytes against seed 002's schema,
 * as a whole document plainly, with --strict and with --find, and the
 * same bytes as JSON lines through jsonresp_lines, all with one reused
 * checker. A run must end with status 1 exactly when an error was found
 * (0, 4 or 5 otherwise, a warning at most); problems must have positions
 * inside the text and a rule; an invalid document's feedback must be one
 * line that starts with the seed's message; --strict may only refuse
 * more; a fence found must lie inside the text; a value found by --find
 * must start with '{' or '['. Each line read by jsonresp_lines must get
 * the verdict and problems (rules and places) that a check of a copy of
 * that line alone gives; a line that holds a NUL byte is read up to it,
 * that byte included, and the next line after it. Anything else aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/embed.h"
#include "base/src.h"
#include "json/jsonx.h"
#include "jsonresp/jsonresp.h"
#include "schema/jsschema.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct jsschema	*schema;
static struct jsonresp	*plain, *strict, *find, *single;

/* The problems of the last check: "rule line:col\n" each. */
static void
problems(const struct jsonresp *jr, struct buf *b)
{
	const struct diag_list *l = jsonresp_diags(jr);
	size_t i;

	for (i = 0; i < l->n; i++)
		buf_printf(b, "%s %lu:%lu\n", l->v[i].rule, l->v[i].line,
		    l->v[i].col);
}

/* The invariants of one check of a text of n bytes and lines lines. */
static int
run(struct jsonresp *jr, struct src *src, unsigned long lines)
{
	const struct diag_list *l;
	struct buf fb = BUF_INIT;
	size_t i, errors = 0;
	int status;

	status = jsonresp_check(jr, src);
	l = jsonresp_diags(jr);
	for (i = 0; i < l->n; i++) {
		if (l->v[i].line < src->line || l->v[i].line > lines ||
		    l->v[i].col < 1 || l->v[i].col > src->n + 1 ||
		    l->v[i].rule == NULL || l->v[i].rule[0] == '\0' ||
		    l->v[i].message == NULL)
			abort();
		if (l->v[i].path != NULL && l->v[i].path[0] != '\0' &&
		    l->v[i].path[0] != '/')
			abort();
		if (l->v[i].severity == DIAG_ERROR)
			errors++;
		else if (status == DIAG_INVALID)
			abort();
	}
	if ((status == DIAG_INVALID) != (errors > 0))
		abort();
	if (status != DIAG_OK && status != DIAG_INVALID &&
	    status != DIAG_CRITICAL && status != DIAG_EMERGENCY)
		abort();
	if (status == DIAG_INVALID) {
		jsonresp_feedback(&fb, jr);
		if (fb.len < 2 || fb.data[fb.len - 1] != '\n' ||
		    memchr(fb.data, '\n', fb.len - 1) != NULL ||
		    strncmp(fb.data, "\xE2\x9A\xA0", 3) != 0)
			abort();
		buf_free(&fb);
	}
	return status;
}

struct lines {
	const char	*s;		/* the whole input */
	size_t		 n;
	const char	*line;		/* where the next line is looked for */
	unsigned long	 lineno;
};

/*
 * A line of jsonresp_lines: checked again from a copy of its own, the
 * same problems in the same places.
 */
static int
report(const struct jsonresp *jr, int status, void *arg)
{
	struct lines *ls = arg;
	struct buf a = BUF_INIT, b = BUF_INIT;
	struct src src;
	const char *nl, *nul, *next, *end = ls->s + ls->n;
	char *copy;
	size_t len;

	for (;;) {		/* the next line that is not blank */
		if (ls->line >= end)
			abort();
		nl = memchr(ls->line, '\n', (size_t)(end - ls->line));
		len = (size_t)((nl != NULL ? nl : end) - ls->line);
		/* a line that holds a NUL ends just after it */
		if ((nul = memchr(ls->line, '\0', len)) != NULL)
			len = (size_t)(nul - ls->line) + 1;
		next = nl != NULL ? nl + 1 : end;
		ls->lineno++;
		if (jsonx_skip_ws(ls->line, len, ls->lineno == 1 ?
		    utf8_bom(ls->line, len) : 0) < len)
			break;
		ls->line = next;
	}
	copy = malloc(len > 0 ? len : 1);
	if (copy == NULL)
		abort();
	memcpy(copy, ls->line, len);
	ls->line = next;
	src_init(&src, "<fuzz>", copy, len);
	src_setline(&src, ls->lineno);
	if (run(single, &src, ls->lineno) != status)
		abort();
	problems(jr, &a);
	problems(single, &b);
	if (a.len != b.len || (a.len > 0 && memcmp(a.data, b.data,
	    a.len) != 0))
		abort();
	free(copy);
	buf_free(&a);
	buf_free(&b);
	return 0;
}

/* The input as JSON lines, through a pipe (it holds 64 KiB at least). */
static void
lines(const char *s, size_t n)
{
	struct lines ls = { s, n, s, 0 };
	const char *p;
	FILE *fp;
	int fd[2];

	if (n > 60000 || pipe(fd) != 0)
		return;
	if (n > 0 && write(fd[1], s, n) != (ssize_t)n)
		abort();
	close(fd[1]);
	if ((fp = fdopen(fd[0], "rb")) == NULL)
		abort();
	/* a byte order mark on a later line is text: not compared */
	for (p = s; (p = memchr(p, '\n', ls.n - (size_t)(p - s))) != NULL;
	    p++)
		if (utf8_bom(p + 1, ls.n - (size_t)(p + 1 - s)) != 0) {
			fclose(fp);
			return;
		}
	if (jsonresp_lines(plain, fp, "<fuzz>", report, &ls) == DIAG_TROUBLE)
		abort();
	fclose(fp);
	/* every line that is not blank was reported */
	for (p = ls.line; p < s + ls.n; p++)
		if (*p != '\n' && *p != ' ' && *p != '\t' && *p != '\r' &&
		    (ls.lineno > 0 || p >= s + utf8_bom(s, ls.n)))
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jsonresp_opts o = { NULL, 1, 0, 0, 0 };
	struct jsschema_opts jo = { 0, NULL, 0, 0, NULL, 0, 0 };
	const char *s = (const char *)data;
	struct jsonx_error err;
	struct src src;
	unsigned long nlines = 1;
	size_t i, a, b, at;
	json_t *v;
	int st_plain, st_strict;

	diag_setquiet(1);
	if (schema == NULL) {
		schema = jsonresp_schema(JSONRESP_SCHEMA_NAME,
		    embed_llm_response_schema, embed_llm_response_schema_len,
		    &jo);
		if (schema == NULL)
			abort();
		o.schema = schema;
		plain = jsonresp_new(&o);
		single = jsonresp_new(&o);
		o.strict = 1;
		strict = jsonresp_new(&o);
		o.strict = 0;
		o.find = 1;
		find = jsonresp_new(&o);
	}
	for (i = 0; i < size; i++)
		nlines += s[i] == '\n';
	src_init(&src, "<fuzz>", s, size);
	st_plain = run(plain, &src, nlines);
	src_init(&src, "<fuzz>", s, size);
	st_strict = run(strict, &src, nlines);
	if (st_strict != DIAG_INVALID && st_strict != st_plain)
		abort();
	src_init(&src, "<fuzz>", s, size);
	run(find, &src, nlines);
	a = 0;
	b = size;
	if (jsonresp_unfence(s, &a, &b) && (a > b || b + 3 > size ||
	    memcmp(s + b, "```", 3) != 0))
		abort();
	if ((v = jsonresp_find(s, 0, size, &at, &err)) != NULL) {
		if (at >= size || (s[at] != '{' && s[at] != '['))
			abort();
		json_decref(v);
	}
	lines(s, size);
	return 0;
}
