/*
 * jsschema_lint: what a compiled schema says that its dialect ignores.
 * It walks the user's document (the root compiled), each subschema in
 * the dialect the index gave it, and finds three things: a keyword no
 * dialect knows (with the nearest one the dialect knows, when one is
 * close: a typo), a keyword of another draft than the subschema's, and,
 * up to Draft-07, the keywords beside a "$ref", which those drafts
 * ignore. It looks only where a schema stands: never inside data
 * (enum, const, default, examples), into the names of properties, or
 * into the value of a keyword it does not know. Keywords that begin
 * with "x-" are extensions, as OpenAPI names them, and never found.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/jsonw.h"
#include "schema/jsschema.h"
#include "schema/jsschema_int.h"

/* The drafts, as bits. */
#define B4	0x01
#define B6	0x02
#define B7	0x04
#define B19	0x08
#define B20	0x10
#define B6UP	(B6 | B7 | B19 | B20)
#define B7UP	(B7 | B19 | B20)
#define B19UP	(B19 | B20)
#define BALL	(B4 | B6UP)

/* What the value of a keyword holds. */
enum {
	K_VALUE,	/* a value of its own: nothing to walk */
	K_SCHEMA,	/* a schema */
	K_ARRAY,	/* an array of schemas */
	K_MAP,		/* an object whose members are schemas */
	K_ITEMS,	/* a schema, or an array of them */
	K_DEPS,		/* members that are schemas or arrays of names */
	K_HARMLESS	/* a value; beside "$ref", nothing lost */
};

static const struct kwinfo {
	const char	*name;
	unsigned	 drafts;
	int		 kind;
} kws[] = {
	{ "$schema",		BALL,	K_HARMLESS },
	{ "id",			B4,	K_VALUE },
	{ "$id",		B6UP,	K_VALUE },
	{ "$ref",		BALL,	K_HARMLESS },
	{ "$comment",		B7UP,	K_HARMLESS },
	{ "title",		BALL,	K_HARMLESS },
	{ "description",	BALL,	K_HARMLESS },
	{ "default",		BALL,	K_HARMLESS },
	{ "examples",		B6UP,	K_HARMLESS },
	{ "readOnly",		B7UP,	K_HARMLESS },
	{ "writeOnly",		B7UP,	K_HARMLESS },
	{ "deprecated",		B19UP,	K_HARMLESS },
	{ "definitions",	BALL,	K_MAP },
	{ "$defs",		B19UP,	K_MAP },
	{ "type",		BALL,	K_VALUE },
	{ "enum",		BALL,	K_VALUE },
	{ "const",		B6UP,	K_VALUE },
	{ "multipleOf",		BALL,	K_VALUE },
	{ "maximum",		BALL,	K_VALUE },
	{ "exclusiveMaximum",	BALL,	K_VALUE },
	{ "minimum",		BALL,	K_VALUE },
	{ "exclusiveMinimum",	BALL,	K_VALUE },
	{ "maxLength",		BALL,	K_VALUE },
	{ "minLength",		BALL,	K_VALUE },
	{ "pattern",		BALL,	K_VALUE },
	{ "format",		BALL,	K_VALUE },
	{ "items",		BALL,	K_ITEMS },
	{ "additionalItems",	B4 | B6 | B7 | B19, K_SCHEMA },
	{ "prefixItems",	B20,	K_ARRAY },
	{ "maxItems",		BALL,	K_VALUE },
	{ "minItems",		BALL,	K_VALUE },
	{ "uniqueItems",	BALL,	K_VALUE },
	{ "contains",		B6UP,	K_SCHEMA },
	{ "maxContains",	B19UP,	K_VALUE },
	{ "minContains",	B19UP,	K_VALUE },
	{ "unevaluatedItems",	B19UP,	K_SCHEMA },
	{ "required",		BALL,	K_VALUE },
	{ "properties",		BALL,	K_MAP },
	{ "patternProperties",	BALL,	K_MAP },
	{ "additionalProperties", BALL,	K_SCHEMA },
	{ "propertyNames",	B6UP,	K_SCHEMA },
	{ "maxProperties",	BALL,	K_VALUE },
	{ "minProperties",	BALL,	K_VALUE },
	{ "dependencies",	BALL,	K_DEPS },
	{ "dependentRequired",	B19UP,	K_VALUE },
	{ "dependentSchemas",	B19UP,	K_MAP },
	{ "unevaluatedProperties", B19UP, K_SCHEMA },
	{ "allOf",		BALL,	K_ARRAY },
	{ "anyOf",		BALL,	K_ARRAY },
	{ "oneOf",		BALL,	K_ARRAY },
	{ "not",		BALL,	K_SCHEMA },
	{ "if",			B7UP,	K_SCHEMA },
	{ "then",		B7UP,	K_SCHEMA },
	{ "else",		B7UP,	K_SCHEMA },
	{ "contentMediaType",	B7UP,	K_HARMLESS },
	{ "contentEncoding",	B7UP,	K_HARMLESS },
	{ "contentSchema",	B19UP,	K_SCHEMA },
	{ "$anchor",		B19UP,	K_VALUE },
	{ "$vocabulary",	B19UP,	K_VALUE },
	{ "$recursiveRef",	B19,	K_VALUE },
	{ "$recursiveAnchor",	B19,	K_VALUE },
	{ "$dynamicRef",	B20,	K_VALUE },
	{ "$dynamicAnchor",	B20,	K_VALUE },
};

/* A walk: where the findings go, and what told the root's dialect. */
struct lint {
	const struct jsschema	*js;
	jsschema_lint_fn	*fn;
	void			*arg;
	size_t			 n;
	int			 depth;
};

static unsigned
draft_bit(int draft)
{
	switch (draft) {
	case JSSCHEMA_DRAFT4:
		return B4;
	case JSSCHEMA_DRAFT6:
		return B6;
	case JSSCHEMA_DRAFT7:
		return B7;
	case DRAFT2019_09:
		return B19;
	default:
		return B20;
	}
}

/* The drafts of a mask, oldest first, as jss_dialect_name says them. */
static int
bit_draft(unsigned bit)
{
	switch (bit) {
	case B4:
		return JSSCHEMA_DRAFT4;
	case B6:
		return JSSCHEMA_DRAFT6;
	case B7:
		return JSSCHEMA_DRAFT7;
	case B19:
		return DRAFT2019_09;
	default:
		return DRAFT2020_12;
	}
}

static const struct kwinfo *
kw_find(const char *k)
{
	size_t i;

	for (i = 0; i < sizeof(kws) / sizeof(kws[0]); i++)
		if (strcmp(kws[i].name, k) == 0)
			return &kws[i];
	return NULL;
}

/*
 * The edit distance of a and b, a swap of two neighbours counting one
 * (optimal string alignment); more than max is max + 1. Keywords are
 * short: a name longer than 64 bytes is never near one.
 */
static size_t
distance(const char *a, const char *b, size_t max)
{
	size_t d[3][65], la = strlen(a), lb = strlen(b), i, j, c, v;

	if (la > 64 || lb > 64 || (la > lb ? la - lb : lb - la) > max)
		return max + 1;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		d[i % 3][0] = i;
		for (j = 1; j <= lb; j++) {
			c = a[i - 1] != b[j - 1];
			v = d[(i - 1) % 3][j] + 1;
			if (d[i % 3][j - 1] + 1 < v)
				v = d[i % 3][j - 1] + 1;
			if (d[(i - 1) % 3][j - 1] + c < v)
				v = d[(i - 1) % 3][j - 1] + c;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[(i - 2) % 3][j - 2] + 1 < v)
				v = d[(i - 2) % 3][j - 2] + 1;
			d[i % 3][j] = v;
		}
	}
	return d[la % 3][lb] > max ? max + 1 : d[la % 3][lb];
}

/*
 * The keyword of the draft bit nearest to the unknown k: an edit or two
 * away (one for a name of four bytes or fewer), fewer edits than half
 * its length (so that "of" is not taken for "if"), or NULL.
 */
static const char *
nearest(const char *k, unsigned bit)
{
	const char *best = NULL;
	size_t i, d, bestd, max = strlen(k) <= 4 ? 1 : 2;

	bestd = max + 1;
	for (i = 0; i < sizeof(kws) / sizeof(kws[0]); i++) {
		if (!(kws[i].drafts & bit))
			continue;
		d = distance(k, kws[i].name, max);
		if (d < bestd && 2 * d < strlen(k)) {
			bestd = d;
			best = kws[i].name;
		}
	}
	return best;
}

/*
 * A keyword no dialect knows, for a message: as written, or as a JSON
 * string when it holds a control character, so that the message stays
 * one line that says what is there.
 */
static void
kw_name(struct buf *b, const char *k)
{
	const char *p;

	for (p = k; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			jsonw_string(b, k, strlen(k));
			return;
		}
	buf_adds(b, k);
}

/* One finding: at the subschema ptr, about its keyword k. */
static void
found(struct lint *l, const char *rule, const char *ptr, const char *k,
    const char *msg)
{
	struct buf kp = BUF_INIT;
	struct jsschema_lint f;

	buf_adds(&kp, ptr);
	buf_addc(&kp, '/');
	jss_pointer_escape(&kp, k, strlen(k));
	f.rule = rule;
	f.pointer = ptr;
	f.keyword = buf_cstr(&kp);
	f.name = k;
	f.message = msg;
	l->n++;
	l->fn(l->arg, &f);
	buf_free(&kp);
}

/* "Draft-06", "Draft-04 to 2019-09": the drafts of a keyword. */
static void
drafts_text(struct buf *b, unsigned drafts, unsigned bit)
{
	unsigned first = drafts & -drafts, last = first;

	while (last << 1 & drafts)
		last <<= 1;
	if (first > bit)
		buf_printf(b, "a %s keyword", jss_dialect_name(bit_draft(first)));
	else if (first == last)
		buf_printf(b, "a keyword of %s alone",
		    jss_dialect_name(bit_draft(first)));
	else
		buf_printf(b, "a keyword of %s to %s",
		    jss_dialect_name(bit_draft(first)),
		    jss_dialect_name(bit_draft(last)));
}

static void	lint_schema(struct lint *, const json_t *, struct buf *, int,
		    const char *);

static void
lint_at(struct lint *l, const json_t *s, struct buf *ptr, const char *k,
    const char *sub, int draft, const char *why)
{
	size_t len = ptr->len;

	buf_addc(ptr, '/');
	jss_pointer_escape(ptr, k, strlen(k));
	if (sub != NULL) {
		buf_addc(ptr, '/');
		jss_pointer_escape(ptr, sub, strlen(sub));
	}
	lint_schema(l, s, ptr, draft, why);
	ptr->len = len;
	buf_cstr(ptr);
}

static void
lint_array(struct lint *l, const json_t *a, struct buf *ptr, const char *k,
    int draft, const char *why)
{
	char idx[32];
	size_t i;

	if (!json_is_array(a))
		return;
	for (i = 0; i < json_array_size(a); i++) {
		snprintf(idx, sizeof(idx), "%zu", i);
		lint_at(l, json_array_get(a, i), ptr, k, idx, draft, why);
	}
}

/*
 * Up to Draft-07, the keywords beside "$ref" that would mean something
 * without it: one finding that names them.
 */
static void
lint_ref(struct lint *l, const json_t *s, const char *ptr, int draft,
    const char *why)
{
	const struct kwinfo *kw;
	struct buf names = BUF_INIT, msg = BUF_INIT;
	const char *k;
	json_t *v;
	size_t n = 0;

	json_object_foreach((json_t *)s, k, v) {
		/* definitions stay reachable by a pointer */
		if ((kw = kw_find(k)) == NULL || kw->kind == K_HARMLESS ||
		    strcmp(k, "definitions") == 0 ||
		    !(kw->drafts & draft_bit(draft)))
			continue;
		if (n++ > 0)
			buf_adds(&names, ", ");
		buf_adds(&names, k);
	}
	if (n > 0) {
		buf_printf(&msg, "$ref: %s beside it %s ignored in %s, %s; "
		    "put the $ref in an allOf to apply %s", buf_cstr(&names),
		    n > 1 ? "are" : "is", jss_dialect_name(draft), why,
		    n > 1 ? "them" : "it");
		found(l, "ref-siblings", ptr, "$ref", buf_cstr(&msg));
	}
	buf_free(&names);
	buf_free(&msg);
}

/*
 * The subschema s at ptr, in the dialect draft unless the index knows
 * better, that dialect told by why ("as $schema says").
 */
static void
lint_schema(struct lint *l, const json_t *s, struct buf *ptr, int draft,
    const char *why)
{
	const struct kwinfo *kw;
	const struct sinfo *si;
	struct buf msg = BUF_INIT;
	const char *k, *near;
	json_t *v, *m;
	const char *mk;
	unsigned bit;

	if (!json_is_object(s) || l->depth >= JSSCHEMA_MAX_COMPILE_DEPTH)
		return;
	if ((si = jss_index_get(l->js, s)) != NULL &&
	    jss_draft_supported(si->draft)) {
		draft = si->draft;
		if (si->schemav != NULL)
			why = "as $schema says";
	}
	bit = draft_bit(draft);
	l->depth++;
	if (draft != DRAFT2019_09 && draft != DRAFT2020_12 &&
	    json_object_get(s, "$ref") != NULL)
		lint_ref(l, s, buf_cstr(ptr), draft, why);
	json_object_foreach((json_t *)s, k, v) {
		if (strncmp(k, "x-", 2) == 0)
			continue;
		buf_reset(&msg);
		if ((kw = kw_find(k)) == NULL) {
			kw_name(&msg, k);
			buf_adds(&msg, ": unknown keyword");
			if ((near = nearest(k, bit)) != NULL)
				buf_printf(&msg, "; did you mean %s?", near);
			found(l, "unknown-keyword", buf_cstr(ptr), k,
			    buf_cstr(&msg));
			continue;
		}
		if (!(kw->drafts & bit)) {
			buf_printf(&msg, "%s is ", k);
			drafts_text(&msg, kw->drafts, bit);
			buf_printf(&msg, "; under %s, %s, it is ignored",
			    jss_dialect_name(draft), why);
			found(l, "draft-keyword", buf_cstr(ptr), k,
			    buf_cstr(&msg));
			continue;
		}
		switch (kw->kind) {
		case K_SCHEMA:
			lint_at(l, v, ptr, k, NULL, draft, why);
			break;
		case K_ITEMS:
			if (json_is_array(v))
				lint_array(l, v, ptr, k, draft, why);
			else
				lint_at(l, v, ptr, k, NULL, draft, why);
			break;
		case K_ARRAY:
			lint_array(l, v, ptr, k, draft, why);
			break;
		case K_MAP:
		case K_DEPS:
			if (!json_is_object(v))
				break;
			json_object_foreach(v, mk, m)
				lint_at(l, m, ptr, k, mk, draft, why);
			break;
		default:
			break;
		}
	}
	l->depth--;
	buf_free(&msg);
}

size_t
jsschema_lint(const struct jsschema *js, jsschema_lint_fn *fn, void *arg)
{
	struct buf ptr = BUF_INIT;
	struct lint l;
	const char *why;

	if (js == NULL || js->ndocs == 0)
		return 0;
	l.js = js;
	l.fn = fn;
	l.arg = arg;
	l.n = 0;
	l.depth = 0;
	if (js->forceroot != NULL)
		why = "as --dialect says";
	else if (js->draftgiven)
		why = "as --draft says";
	else
		why = "the default without $schema";
	buf_cstr(&ptr);
	lint_schema(&l, js->docs[0], &ptr, js->draft, why);
	buf_free(&ptr);
	return l.n;
}
