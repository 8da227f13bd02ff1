/*
 * tooldefs_prompt: the system prompt that teaches a markup of tool calls
 * (seed 003's format, an open model's dialect, or pythonic calls) for a
 * set of tools: the rules of the markup, each tool's parameters, and one
 * example call made from its schema (tooldefs_example.c). The rules and
 * the writer of each markup are an entry of the table at the end; the
 * description of the parameters is the same in every markup.
 *
 * A schema is read as a view of its own keywords, those of the "$ref" it
 * names and those of its allOf, as if they were one schema: the first
 * value of a keyword found so, depth first, is the one shown. References
 * lead only to what the schema's compilation read (jsschema_document):
 * the prompt never opens a file.
 *
 * The prompt grows with the schema, no faster. Each view is worked out
 * once. A schema that several places expand (properties, items, anyOf,
 * oneOf, allOf, "$ref"), or that holds itself, is described once, as a
 * type of its own under a name, and shown by that name elsewhere; and the
 * description and the example of a tool stop at a budget in proportion
 * to the size of its schema.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/jsonw.h"
#include "base/num.h"
#include "base/xalloc.h"
#include "schema/jsschema.h"
#include "toolcall/tcdialect.h"
#include "toolcall/tooldefs.h"
#include "toolcall/tooldefs_int.h"

/* How far views and labels follow subschemas, "$ref"s included. */
#define MAX_DEPTH	1000
/* A label longer than this is a type of its own where it is used. */
#define LABEL_MAX	120

/* The decision to describe a schema by name. */
#define NAMED_YES	1
#define NAMED_NO	2
#define NAMED_DECIDING	3

static const char *const kwname[NKW] = {
	"type", "enum", "const", "default", "description", "items",
	"prefixItems", "anyOf", "oneOf", "properties", "format",
	"minLength", "maxLength", "minimum", "exclusiveMinimum", "maximum",
	"exclusiveMaximum", "minItems", "examples", "pattern"
};

/* The node of schema object s, made when it is new. */
struct node *
tooldefs_node(struct walk *w, const json_t *s)
{
	struct node *n;
	void **slot;

	if ((n = ptab_get(&w->nodes, s)) != NULL)
		return n;
	slot = ptab_slot(&w->nodes, s);
	n = xcalloc(1, sizeof(*n));
	n->s = s;
	*slot = n;
	w->order = xreallocarray(w->order, w->norder + 1, sizeof(*w->order));
	w->order[w->norder++] = n;
	return n;
}

/* ---- the walk: documents, references, what expands what ---- */

/* Whether the prompt expands the schemas of keyword k where they are. */
static int
expanding_keyword(const char *k)
{
	return strcmp(k, "properties") == 0 || strcmp(k, "items") == 0 ||
	    strcmp(k, "prefixItems") == 0 || strcmp(k, "anyOf") == 0 ||
	    strcmp(k, "oneOf") == 0 || strcmp(k, "allOf") == 0;
}

/* The size a value adds to its schema, about its bytes as text. */
static size_t
weight_of(const char *key, const json_t *v)
{
	return 2 + (key != NULL ? strlen(key) : 0) +
	    (json_is_string(v) ? json_string_length(v) : 0);
}

/* One value to walk: under key, in a map or not, expanded there or not. */
struct item {
	const json_t	*v;
	const char	*key;
	int		 map;
	int		 expand;
};

static void
push(struct item **st, size_t *n, size_t *cap, const json_t *v,
    const char *key, int map, int expand)
{
	if (!json_is_object(v) && !json_is_array(v))
		return;
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*st = xreallocarray(*st, *cap, sizeof(**st));
	}
	(*st)[(*n)++] = (struct item){ v, key, map, expand };
}

/*
 * Walks the document doc, at uri, under key: each schema object in it
 * gets its node, with the document and the name it stands under, and
 * counts the places of its own document that expand it. Iterative, since
 * documents nest deep. Each object is walked once.
 */
static void
walk_doc(struct walk *w, const json_t *doc, const char *uri,
    const char *key)
{
	struct item *st = NULL, it;
	size_t n = 0, cap = 0, i;
	struct node *nd;
	const char *k;
	json_t *m;

	push(&st, &n, &cap, doc, key, 0, 0);
	while (n > 0) {
		it = st[--n];
		if (json_is_array(it.v)) {
			json_array_foreach((json_t *)it.v, i, m) {
				w->weight += weight_of(NULL, m);
				push(&st, &n, &cap, m, it.key, 0, it.expand);
			}
			continue;
		}
		if (it.map) {
			json_object_foreach((json_t *)it.v, k, m) {
				w->weight += weight_of(k, m);
				push(&st, &n, &cap, m, k, 0, it.expand);
			}
			continue;
		}
		nd = tooldefs_node(w, it.v);
		nd->indeg += it.expand != 0;
		if (nd->walked)
			continue;
		nd->walked = 1;
		nd->uri = uri;
		nd->key = it.key;
		json_object_foreach((json_t *)it.v, k, m) {
			w->weight += weight_of(k, m);
			if (jsschema_data_keyword(k))
				continue;
			push(&st, &n, &cap, m, it.key, jsschema_map_keyword(k) &&
			    json_is_object(m), expanding_keyword(k));
		}
	}
	free(st);
}

/* uri kept for the walk's length: the same string each time. */
static const char *
keep_uri(struct walk *w, const char *uri)
{
	void *it;

	if (json_object_get(w->uris, uri) == NULL)
		json_object_set_new(w->uris, uri, json_null());
	it = json_object_iter_at(w->uris, uri);
	return json_object_iter_key(it);
}

/* The name a document's file gives: its last segment, no extension. */
static const char *
doc_key(const char *uri)
{
	const char *p = strrchr(uri, '/');

	return p != NULL && p[1] != '\0' ? p + 1 : uri;
}

/*
 * The schema that the "$ref" of s names: a JSON Pointer fragment in the
 * same document or in one the schema's compilation read; NULL for what
 * cannot be found so (an $anchor, a document not read).
 */
static const json_t *
deref(struct walk *w, const json_t *s)
{
	struct node *n = tooldefs_node(w, s);
	struct buf tok = BUF_INIT;
	const json_t *t, *ref;
	const char *p, *frag;
	char *uri, *end;
	size_t i;
	int h, l;

	if (n->refstate == DONE)
		return n->ref;
	n->refstate = DONE;
	if (!json_is_string(ref = json_object_get(s, "$ref")))
		return NULL;
	uri = jsschema_uri_resolve(n->uri != NULL ? n->uri : w->base,
	    json_string_value(ref));
	if ((frag = strchr(uri, '#')) != NULL)
		*(char *)frag++ = '\0';
	else
		frag = "";
	if (strcmp(uri, w->base) == 0)
		t = w->root;
	else if ((t = jsschema_document(w->d->js, uri)) != NULL &&
	    json_is_object(t) && !tooldefs_node(w, t)->walked)
		walk_doc(w, t, keep_uri(w, uri), doc_key(uri));
	for (p = frag; t != NULL && *p == '/'; ) {
		buf_reset(&tok);
		for (p++; *p != '\0' && *p != '/'; p++) {
			if (p[0] == '~' && p[1] == '0')
				buf_addc(&tok, '~'), p++;
			else if (p[0] == '~' && p[1] == '1')
				buf_addc(&tok, '/'), p++;
			else if (p[0] == '%' && (h = num_hexval(p[1])) >= 0 &&
			    (l = num_hexval(p[2])) >= 0) {
				buf_addc(&tok, (char)(h << 4 | l));
				p += 2;
			} else
				buf_addc(&tok, *p);
		}
		if (json_is_object(t))
			t = json_object_getn(t, tok.data != NULL ? tok.data :
			    "", tok.len);
		else if (json_is_array(t) && tok.len > 0 &&
		    tok.data[0] >= '0' && tok.data[0] <= '9') {
			buf_cstr(&tok);
			i = strtoul(tok.data, &end, 10);
			t = *end == '\0' ? json_array_get(t, i) : NULL;
		} else
			t = NULL;
	}
	if (*p != '\0')
		t = NULL;
	buf_free(&tok);
	free(uri);
	n->ref = t;
	return t;
}

/* Whether s is only another name for what its "$ref" names. */
static int
is_alias(struct walk *w, const json_t *s)
{
	static const char *const own[] = {
	    "properties", "items", "prefixItems", "anyOf", "oneOf", "allOf",
	    "type", "enum", "const"
	};
	size_t i;

	if (!json_is_string(json_object_get(s, "$ref")))
		return 0;
	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (json_object_get(s, own[i]) != NULL)
			return 0;
	return json_is_object(deref(w, s));
}

/* What s stands for: the end of its chain of aliases. */
const json_t *
tooldefs_canon(struct walk *w, const json_t *s)
{
	int i;

	w->gen++;
	for (i = 0; i < MAX_DEPTH && json_is_object(s) && is_alias(w, s);
	    i++) {
		tooldefs_node(w, s)->mark = w->gen;
		if (tooldefs_node(w, deref(w, s))->mark == w->gen)
			break;
		s = deref(w, s);
	}
	return s;
}

/*
 * Walks the tool's schema and every document its references lead to,
 * and counts the places that expand each schema: an alias passes its own
 * on to what it names; the root is expanded once by the tool itself.
 */
static void
walk_tool(struct walk *w)
{
	struct node *n, *t;
	const json_t *r;
	size_t i;

	walk_doc(w, w->root, w->base, NULL);
	if (!json_is_object(w->root))
		return;
	tooldefs_node(w, w->root)->indeg++;
	/* in the order the nodes were made, which following grows */
	for (i = 0; i < w->norder; i++) {
		n = w->order[i];
		if ((r = deref(w, n->s)) != NULL && json_is_object(r) &&
		    !is_alias(w, n->s))
			tooldefs_node(w, r)->indeg++;
	}
	for (i = 0; i < w->norder; i++) {
		n = w->order[i];
		if (n->indeg == 0 || !is_alias(w, n->s))
			continue;
		t = tooldefs_node(w, tooldefs_canon(w, n->s));
		if (t != n)
			t->indeg += n->indeg;
	}
}

/* ---- views ---- */

/* The value of keyword k in the view of s, or NULL; worked out once. */
static const json_t *
kw_at(struct walk *w, const json_t *s, enum kwi k, int depth)
{
	const json_t *v, *all;
	struct node *n;
	size_t i;

	if (!json_is_object(s))
		return NULL;
	if ((v = json_object_get(s, kwname[k])) != NULL)
		return v;
	n = tooldefs_node(w, s);
	if (n->kst[k] == DONE)
		return n->kv[k];
	if (n->kst[k] == BUSY || depth > MAX_DEPTH)
		return NULL;
	n->kst[k] = BUSY;
	v = NULL;
	if (json_is_string(json_object_get(s, "$ref")))
		v = kw_at(w, deref(w, s), k, depth + 1);
	all = json_object_get(s, "allOf");
	for (i = 0; v == NULL && i < json_array_size(all); i++)
		v = kw_at(w, json_array_get(all, i), k, depth + 1);
	n->kst[k] = DONE;
	n->kv[k] = v;
	return v;
}

const json_t *
tooldefs_kw(struct walk *w, const json_t *s, enum kwi k)
{
	return kw_at(w, s, k, 0);
}

static struct prop *
prop_get(struct props *p, const char *name)
{
	json_t *i = json_object_get(p->index, name);

	return i != NULL ? &p->v[json_integer_value(i)] : NULL;
}

static struct prop *
prop_add(struct props *p, const char *name, const json_t *schema)
{
	p->v = xreallocarray(p->v, p->n + 1, sizeof(*p->v));
	p->v[p->n].name = name;
	p->v[p->n].schema = schema;
	p->v[p->n].required = 0;
	json_object_set_new(p->index, name, json_integer((json_int_t)p->n));
	return &p->v[p->n++];
}

/* The properties and "required" of the view of s, added to p, once each. */
static void
collect(struct walk *w, const json_t *s, struct props *p, int depth)
{
	const json_t *v, *all;
	const char *name;
	struct node *n;
	struct prop *q;
	size_t i;

	if (!json_is_object(s) || depth > MAX_DEPTH ||
	    (n = tooldefs_node(w, s))->mark == w->gen)
		return;
	n->mark = w->gen;
	json_object_foreach((json_t *)json_object_get(s, "properties"), name,
	    v)
		if (prop_get(p, name) == NULL)
			prop_add(p, name, v);
	if (json_is_string(json_object_get(s, "$ref")))
		collect(w, deref(w, s), p, depth + 1);
	all = json_object_get(s, "allOf");
	for (i = 0; i < json_array_size(all); i++)
		collect(w, json_array_get(all, i), p, depth + 1);
	v = json_object_get(s, "required");
	for (i = 0; i < json_array_size(v); i++) {
		if ((name = json_string_value(json_array_get(v, i))) == NULL)
			continue;
		if ((q = prop_get(p, name)) == NULL)
			q = prop_add(p, name, NULL);
		q->required = 1;
	}
}

void
tooldefs_props(struct walk *w, const json_t *s, struct props *p)
{
	p->v = NULL;
	p->n = 0;
	p->index = json_object();
	w->gen++;
	collect(w, s, p, 0);
}

void
tooldefs_props_free(struct props *p)
{
	free(p->v);
	json_decref(p->index);
}

/* The branches of the view's anyOf, or else its oneOf, or NULL. */
const json_t *
tooldefs_branches(struct walk *w, const json_t *s)
{
	const json_t *v;

	if (json_array_size(v = tooldefs_kw(w, s, K_ANYOF)) > 0)
		return v;
	if (json_array_size(v = tooldefs_kw(w, s, K_ONEOF)) > 0)
		return v;
	return NULL;
}

/* ---- types by name ---- */

static const char	*label(struct walk *, const json_t *, int);
static const json_t	*nested(struct walk *, const json_t *, int, int);

/* Whether a label is one word of JSON's types, naming nothing. */
static int
simple(const char *l)
{
	static const char *const words[] = {
	    "string", "integer", "number", "boolean", "null", "object",
	    "array", "any"
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(l, words[i]) == 0)
			return 1;
	return 0;
}

/*
 * The name t is described by: from the name it stands under, letters,
 * digits, '_', '-' and '.' alone, made unique; a JSON type's word is
 * never a name. The tool's own schema is "arguments", described by its
 * parameters; any other goes into the queue of types to describe.
 */
static const char *
use_name(struct walk *w, const json_t *t)
{
	static const char *const taken[] = {
	    "string", "integer", "number", "boolean", "null", "object",
	    "array", "any", "arguments"
	};
	struct node *n = tooldefs_node(w, t);
	struct buf b = BUF_INIT;
	const char *k;
	size_t i, base, nth;

	if (n->name != NULL)
		return n->name;
	if (t == w->root || t == w->top) {
		n->name = xstrdup("arguments");
		return n->name;
	}
	for (k = n->key != NULL ? n->key : ""; *k != '\0' && b.len < 40; k++)
		if ((*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') ||
		    (*k >= '0' && *k <= '9') || *k == '_' || *k == '-' ||
		    (*k == '.' && strcmp(k, ".json") != 0))
			buf_addc(&b, *k);
		else if (*k == '.')
			break;
	if (b.len == 0)
		buf_adds(&b, "schema");
	base = b.len;
	for (i = 0; i < sizeof(taken) / sizeof(taken[0]); i++)
		if (strcmp(buf_cstr(&b), taken[i]) == 0)
			json_object_set_new(w->names, taken[i], json_true());
	for (nth = 2; json_object_get(w->names, buf_cstr(&b)) != NULL; nth++) {
		b.len = base;
		buf_printf(&b, "-%zu", nth);
	}
	json_object_set_new(w->names, b.data, json_true());
	n->name = buf_cstr(&b);
	w->queue = xreallocarray(w->queue, w->nqueue + 1, sizeof(*w->queue));
	w->queue[w->nqueue++] = n;
	return n->name;
}

/*
 * Whether t is described by name where it is used: when it holds itself,
 * when its label is long, or when more than one place expands it and it
 * has properties to list or a label of more than one word. Decided once.
 */
static int
is_named(struct walk *w, const json_t *t)
{
	struct node *n = tooldefs_node(w, t);
	const char *l;
	int yes;

	if (n->named == NAMED_YES || n->named == NAMED_NO)
		return n->named == NAMED_YES;
	if (t == w->root || t == w->top || n->lstate == BUSY ||
	    n->nstate == BUSY ||
	    n->named == NAMED_DECIDING) {
		n->reentered = 1;
		return 1;
	}
	n->named = NAMED_DECIDING;
	l = label(w, t, 0);
	yes = l == NULL || strlen(l) > LABEL_MAX ||
	    (n->indeg >= 2 && (!simple(l) || nested(w, t, 1, 0) != NULL));
	n->named = yes || n->reentered ? NAMED_YES : NAMED_NO;
	return n->named == NAMED_YES;
}

/* ---- labels ---- */

/* The label of c where another schema uses it: its name, or its label. */
static const char *
child_label(struct walk *w, const json_t *c, int depth)
{
	const json_t *t;
	const char *l;

	if (!json_is_object(c))
		return "any";
	t = tooldefs_canon(w, c);
	if (is_named(w, t))
		return use_name(w, t);
	if ((l = label(w, c, depth)) != NULL)
		return l;
	return use_name(w, t);
}

/* Adds l to the labels in b (joined by " or "), unless it is there. */
static void
label_add(struct buf *b, json_t *seen, const char *l)
{
	if (json_object_get(seen, l) != NULL)
		return;
	json_object_set_new(seen, l, json_true());
	if (b->len > 0)
		buf_adds(b, " or ");
	buf_adds(b, l);
}

/* The name of one type; "array" with what its items are. */
static void
one_type(struct buf *b, struct walk *w, const json_t *s, const char *t,
    int depth)
{
	const json_t *items;

	buf_adds(b, t);
	if (strcmp(t, "array") != 0 || tooldefs_kw(w, s, K_PREFIXITEMS) != NULL)
		return;
	items = tooldefs_kw(w, s, K_ITEMS);
	if (json_is_object(items) && json_object_size(items) > 0) {
		buf_adds(b, " of ");
		buf_adds(b, child_label(w, items, depth + 1));
	}
}

/* The JSON type of a value, as a schema's "type" names it. */
static const char *
value_type(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:	return "object";
	case JSON_ARRAY:	return "array";
	case JSON_STRING:	return "string";
	case JSON_INTEGER:	return "integer";
	case JSON_REAL:		return "number";
	case JSON_TRUE:
	case JSON_FALSE:	return "boolean";
	case JSON_NULL:		break;
	}
	return "null";
}

/*
 * What a value of s is: "string", "integer or null", "array of object",
 * "array of edit" (a type described by name); "any" when the schema does
 * not say. Worked out once; NULL while it is being worked out (s holds
 * itself).
 */
static const char *
label(struct walk *w, const json_t *s, int depth)
{
	struct buf l = BUF_INIT, one = BUF_INIT;
	const json_t *t, *br, *e;
	struct node *n;
	json_t *seen;
	size_t i;

	if (!json_is_object(s) || depth > MAX_DEPTH)
		return "any";
	n = tooldefs_node(w, s);
	if (n->lstate == DONE)
		return n->label;
	if (n->lstate == BUSY)
		return NULL;
	n->lstate = BUSY;
	seen = json_object();
	t = tooldefs_kw(w, s, K_TYPE);
	br = tooldefs_branches(w, s);
	if (json_is_string(t)) {
		one_type(&one, w, s, json_string_value(t), depth);
		label_add(&l, seen, buf_cstr(&one));
	}
	for (i = 0; json_is_array(t) && i < json_array_size(t); i++) {
		buf_reset(&one);
		if (json_is_string(json_array_get(t, i)))
			one_type(&one, w, s, json_string_value(
			    json_array_get(t, i)), depth);
		label_add(&l, seen, buf_cstr(&one));
	}
	for (i = 0; t == NULL && i < json_array_size(br); i++)
		label_add(&l, seen, child_label(w, json_array_get(br, i),
		    depth + 1));
	if (l.len == 0 && br == NULL &&
	    ((e = tooldefs_kw(w, s, K_ENUM)) != NULL ||
	    (e = tooldefs_kw(w, s, K_CONST)) != NULL)) {
		if (json_is_array(e) && e == tooldefs_kw(w, s, K_ENUM))
			for (i = 0; i < json_array_size(e); i++)
				label_add(&l, seen, value_type(
				    json_array_get(e, i)));
		else
			label_add(&l, seen, value_type(e));
	}
	if (l.len == 0 && br == NULL) {
		buf_reset(&one);
		if (tooldefs_kw(w, s, K_PROPERTIES) != NULL)
			buf_adds(&one, "object");
		else if (tooldefs_kw(w, s, K_ITEMS) != NULL ||
		    tooldefs_kw(w, s, K_PREFIXITEMS) != NULL)
			one_type(&one, w, s, "array", depth);
		if (one.len > 0)
			label_add(&l, seen, buf_cstr(&one));
	}
	if (l.len == 0)
		buf_adds(&l, "any");
	json_decref(seen);
	buf_free(&one);
	n->label = buf_cstr(&l);
	n->lstate = DONE;
	return n->label;
}

/*
 * The object schema whose properties are listed under a parameter of
 * schema s: s itself, the items of an array, or the first branch of an
 * anyOf or oneOf that has properties; NULL for none, and for a type
 * described by name (unless s is the type being described, top).
 */
static const json_t *
nested(struct walk *w, const json_t *s, int top, int depth)
{
	const json_t *v, *br, *r = NULL;
	struct props p;
	struct node *n;
	size_t i;

	if (!json_is_object(s) || depth > MAX_DEPTH)
		return NULL;
	if (!top && is_named(w, tooldefs_canon(w, s)))
		return NULL;
	n = tooldefs_node(w, s);
	if (n->nstate == DONE)
		return n->nest;
	if (n->nstate == BUSY)
		return NULL;
	n->nstate = BUSY;
	tooldefs_props(w, s, &p);
	if (p.n > 0)
		r = s;
	tooldefs_props_free(&p);
	if (r == NULL && (v = tooldefs_kw(w, s, K_ITEMS)) != NULL)
		r = nested(w, v, 0, depth + 1);
	br = tooldefs_branches(w, s);
	for (i = 0; r == NULL && i < json_array_size(br); i++)
		r = nested(w, json_array_get(br, i), 0, depth + 1);
	n->nest = r;
	n->nstate = DONE;
	return r;
}

/* ---- the description ---- */

/* Text that may span lines, each line after the first indented. */
static void
add_text(struct buf *b, const char *s, int indent)
{
	size_t n = strlen(s);

	while (n > 0 && strchr(" \t\r\n", s[n - 1]) != NULL)
		n--;
	for (; n > 0; s++, n--) {
		if (*s == '\r')
			continue;
		buf_addc(b, *s);
		if (*s == '\n')
			buf_printf(b, "%*s", indent, "");
	}
}

/* The JSON values of v, an array, as "a", "b", "c". */
static void
add_values(struct buf *b, const json_t *v)
{
	size_t i;

	for (i = 0; i < json_array_size(v); i++) {
		if (i > 0)
			buf_adds(b, ", ");
		jsonw_stringify(b, json_array_get(v, i));
	}
}

/*
 * Keyword k of s for its line: of its view; or of s alone when s is an
 * alias of a type described by name, whose own line says the rest once.
 */
static const json_t *
kw_line(struct walk *w, const json_t *s, enum kwi k, int own)
{
	return own ? json_object_get(s, kwname[k]) : tooldefs_kw(w, s, k);
}

/*
 * One line: "- NAME (LABEL, required, one of ..., default ...): TEXT",
 * lead being "- " for a property, "Type " for a type described by name.
 */
static void
line(struct buf *b, struct walk *w, int indent, const char *lead,
    const char *name, const json_t *s, const char *lab, int required)
{
	const json_t *v;
	int own;

	own = json_is_object(s) && is_alias(w, s) &&
	    is_named(w, tooldefs_canon(w, s));
	buf_printf(b, "%*s%s%s (%s", indent, "", lead, name, lab);
	if (required)
		buf_adds(b, ", required");
	if (json_array_size(v = kw_line(w, s, K_ENUM, own)) > 0) {
		buf_adds(b, ", one of ");
		add_values(b, v);
	} else if ((v = kw_line(w, s, K_CONST, own)) != NULL) {
		buf_adds(b, ", always ");
		jsonw_stringify(b, v);
	}
	if ((v = kw_line(w, s, K_DEFAULT, own)) != NULL) {
		buf_adds(b, ", default ");
		jsonw_stringify(b, v);
	}
	buf_addc(b, ')');
	if (json_is_string(v = kw_line(w, s, K_DESCRIPTION, own)) &&
	    json_string_length(v) > 0) {
		buf_adds(b, ": ");
		add_text(b, json_string_value(v), indent + 2);
	}
	buf_addc(b, '\n');
}

/* Whether the description has spent its budget: then it says so, once. */
static int
spent(struct buf *b, struct walk *w)
{
	if (b->len <= w->stop)
		return 0;
	if (!w->over)
		buf_adds(b, "(The rest is left out: this tool's schema is too "
		    "large to describe.)\n");
	w->over = 1;
	return 1;
}

/* The properties of object schema s, one line each, nested ones below. */
static void
list_props(struct buf *b, struct walk *w, const json_t *s, int indent,
    int depth)
{
	struct props p;
	struct node *n = tooldefs_node(w, s);
	const json_t *ps, *sub;
	size_t i;

	if (n->listing || depth > MAX_NEST)
		return;
	n->listing = 1;
	tooldefs_props(w, s, &p);
	for (i = 0; i < p.n && !spent(b, w); i++) {
		ps = p.v[i].schema;
		line(b, w, indent, "- ", p.v[i].name, ps,
		    child_label(w, ps, 0), p.v[i].required);
		if ((sub = nested(w, ps, 0, 0)) != NULL)
			list_props(b, w, sub, indent + 2, depth + 1);
	}
	tooldefs_props_free(&p);
	n->listing = 0;
}

/*
 * The parameters of the tool, then each type described by name, in the
 * order they were first named (describing one may name more).
 */
static void
describe(struct buf *b, struct walk *w)
{
	const json_t *top, *sub;
	struct node *t;
	size_t i;

	if (w->root == NULL) {
		buf_adds(b, "Parameters: not described.\n");
		return;
	}
	if ((top = nested(w, w->root, 1, 0)) == NULL) {
		buf_adds(b, "Parameters: none.\n");
		return;
	}
	buf_adds(b, "Parameters:\n");
	list_props(b, w, top, 0, 0);
	t = tooldefs_node(w, w->top);
	if (t->name == NULL)
		t = tooldefs_node(w, w->root);
	if (t->name != NULL && !spent(b, w))
		buf_adds(b, "\nType arguments: an object that holds the "
		    "parameters above.\n");
	for (i = 0; i < w->nqueue && !spent(b, w); i++) {
		t = w->queue[i];
		buf_addc(b, '\n');
		line(b, w, 0, "Type ", t->name, t->s, label(w, t->s, 0), 0);
		if ((sub = nested(w, t->s, 1, 0)) != NULL)
			list_props(b, w, sub, 0, 0);
	}
}

/* ---- the prompt ---- */

_Static_assert(TOOLDEFS_PYTHONIC == TCD_PYTHONIC,
    "the pythonic calls follow the dialects");

static const char rules_tool[] =
"You can call the tools described below. To call one, write a <tool>\n"
"element in your answer, in this form:\n"
"\n"
"<tool>\n"
"<server_name>local</server_name>\n"
"<tool_name>TOOL_NAME</tool_name>\n"
"<arguments>\n"
"  <PARAMETER_NAME>VALUE</PARAMETER_NAME>\n"
"</arguments>\n"
"</tool>\n"
"\n"
"Each call is run as soon as its </tool> has been written. The rules:\n"
"\n"
"1. Begin a call with <tool> exactly: lowercase, with no attributes and\n"
"   no spaces. Every <tool> element you write is a call, in a code block\n"
"   too: never write one as an illustration.\n"
"2. <server_name> is local. <tool_name> is the name of a tool below,\n"
"   exactly as it is written there.\n"
"3. Inside <arguments>, give each parameter as an element named after\n"
"   it. Give every required parameter; leave out the optional ones you do\n"
"   not need.\n"
"4. In text, escape XML's special characters as entities: first each &\n"
"   as &amp;, then each < as &lt; and each > as &gt;. So a && b < c is\n"
"   written a &amp;&amp; b &lt; c.\n"
"5. Write code, the contents of files, and any long or multi-line text\n"
"   in a CDATA section instead, where nothing is escaped:\n"
"   <content><![CDATA[if (a && b < c) return;]]></content>. If the text\n"
"   holds ]]>, end the section there and begin another: ]]]]><![CDATA[>.\n"
"6. Write numbers, true, false and null as plain text: <count>3</count>.\n"
"7. Write an array by repeating its element, one element per item, in\n"
"   order: <path>a.txt</path><path>b.txt</path>. An array of one item is\n"
"   one element.\n"
"8. Write an object as an element that holds one element per property:\n"
"   <range><start>1</start><end>9</end></range>. An array of objects\n"
"   repeats that element, one per object.\n";

/* DeepSeek's markup: its bars are U+FF5C, its low lines U+2581. */
#define BAR		"\xef\xbd\x9c"
#define LOW		"\xe2\x96\x81"
#define DS_CALLS_BEGIN	"<" BAR "tool" LOW "calls" LOW "begin" BAR ">"
#define DS_CALLS_END	"<" BAR "tool" LOW "calls" LOW "end" BAR ">"
#define DS_BEGIN	"<" BAR "tool" LOW "call" LOW "begin" BAR ">"
#define DS_SEP		"<" BAR "tool" LOW "sep" BAR ">"
#define DS_END		"<" BAR "tool" LOW "call" LOW "end" BAR ">"

static const char rules_qwen3[] =
"You can call the tools described below. To call one, write a <tool_call>\n"
"element in your answer, in this form:\n"
"\n"
"<tool_call>\n"
"<function=TOOL_NAME>\n"
"<parameter=PARAMETER_NAME>\n"
"VALUE\n"
"</parameter>\n"
"</function>\n"
"</tool_call>\n"
"\n"
"Each call is run as soon as its </tool_call> has been written. The\n"
"rules:\n"
"\n"
"1. Begin a call with <tool_call> exactly: lowercase, with no attributes\n"
"   and no spaces. Every <tool_call> you write is a call, in a code block\n"
"   too: never write one as an illustration.\n"
"2. After <function= comes the name of a tool below, exactly as it is\n"
"   written there, then >.\n"
"3. Give each parameter in a <parameter=NAME> element of its own, NAME\n"
"   being the parameter's name. Give every required parameter; leave out\n"
"   the optional ones you do not need.\n"
"4. Write a string value raw, exactly as it is: no entities, no CDATA, no\n"
"   quotes, no escapes. So a && b < c is written a && b < c. It may span\n"
"   lines: the newline after <parameter=NAME> and the one before\n"
"   </parameter> are layout, and every other character is the value's.\n"
"5. Write a value of any other type as JSON: 3, 1.5, true, false, null,\n"
"   an array as [\"a.txt\", \"b.txt\"] and an object as\n"
"   {\"start\": 1, \"end\": 9}.\n"
"6. A value cannot hold the markup of a call: <tool_call>, <function=,\n"
"   <parameter= or their closing tags.\n"
"7. To call several tools, write one <tool_call> after another.\n";

static const char rules_invoke[] =
"You can call the tools described below. To call them, write a\n"
"<minimax:tool_call> element in your answer that holds one <invoke>\n"
"element for each call, in this form:\n"
"\n"
"<minimax:tool_call>\n"
"<invoke name=\"TOOL_NAME\">\n"
"<parameter name=\"PARAMETER_NAME\">VALUE</parameter>\n"
"</invoke>\n"
"</minimax:tool_call>\n"
"\n"
"Each call is run as soon as its </invoke> has been written. The rules:\n"
"\n"
"1. Begin a call with <invoke name= exactly: lowercase, with one space.\n"
"   Every <invoke> you write is a call, in a code block too: never write\n"
"   one as an illustration.\n"
"2. The name attribute of <invoke> is the name of a tool below, exactly\n"
"   as it is written there, in double quotes (in single quotes when it\n"
"   holds a double quote).\n"
"3. Give each parameter in a <parameter name=\"NAME\"> element of its own,\n"
"   NAME being the parameter's name, quoted so. Give every required\n"
"   parameter; leave out the optional ones you do not need.\n"
"4. Write a string value raw, exactly as it is: no entities, no CDATA, no\n"
"   quotes, no escapes. So a && b < c is written a && b < c. It may span\n"
"   lines: a newline right after <parameter name=\"NAME\"> and one right\n"
"   before </parameter> are layout, and every other character is the\n"
"   value's.\n"
"5. Write a value of any other type as JSON: 3, 1.5, true, false, null,\n"
"   an array as [\"a.txt\", \"b.txt\"] and an object as\n"
"   {\"start\": 1, \"end\": 9}.\n"
"6. A value cannot hold the markup of a call: <invoke, <parameter or\n"
"   their closing tags.\n"
"7. To call several tools, write one <invoke> after another, in one\n"
"   <minimax:tool_call>.\n";

static const char rules_glm[] =
"You can call the tools described below. To call one, write a <tool_call>\n"
"element in your answer, in this form:\n"
"\n"
"<tool_call>TOOL_NAME\n"
"<arg_key>PARAMETER_NAME</arg_key>\n"
"<arg_value>VALUE</arg_value>\n"
"</tool_call>\n"
"\n"
"Each call is run as soon as its </tool_call> has been written. The\n"
"rules:\n"
"\n"
"1. Begin a call with <tool_call> exactly: lowercase, with no attributes\n"
"   and no spaces. Every <tool_call> you write is a call, in a code block\n"
"   too: never write one as an illustration.\n"
"2. Right after <tool_call> comes the name of a tool below, exactly as it\n"
"   is written there, then a newline.\n"
"3. Give each parameter as a pair: its name in <arg_key>, then its value\n"
"   in <arg_value>. Give every required parameter; leave out the optional\n"
"   ones you do not need. A call without parameters is the name alone:\n"
"   <tool_call>TOOL_NAME</tool_call>.\n"
"4. Write a string value raw, exactly as it is: no entities, no CDATA, no\n"
"   quotes, no escapes. So a && b < c is written a && b < c. It may span\n"
"   lines: all that is between <arg_value> and </arg_value> is the value,\n"
"   white space too.\n"
"5. Write a value of any other type as JSON: 3, 1.5, true, false, null,\n"
"   an array as [\"a.txt\", \"b.txt\"] and an object as\n"
"   {\"start\": 1, \"end\": 9}.\n"
"6. A value cannot hold the markup of a call: <tool_call>, <arg_key>,\n"
"   <arg_value> or their closing tags.\n"
"7. To call several tools, write one <tool_call> after another.\n";

static const char rules_hermes[] =
"You can call the tools described below. To call one, write a <tool_call>\n"
"element in your answer that holds a JSON object, in this form:\n"
"\n"
"<tool_call>\n"
"{\"name\": \"TOOL_NAME\", \"arguments\": {\"PARAMETER_NAME\": VALUE}}\n"
"</tool_call>\n"
"\n"
"Each call is run as soon as its </tool_call> has been written. The\n"
"rules:\n"
"\n"
"1. Begin a call with <tool_call> exactly: lowercase, with no attributes\n"
"   and no spaces. Every <tool_call> you write is a call, in a code block\n"
"   too: never write one as an illustration.\n"
"2. \"name\" is the name of a tool below, exactly as it is written there.\n"
"3. \"arguments\" is an object with one member for each parameter, named\n"
"   after it. Give every required parameter; leave out the optional ones\n"
"   you do not need.\n"
"4. Write JSON strictly: strings in double quotes, with \\\" for a quote,\n"
"   \\\\ for a backslash and \\n for a newline in them; numbers, true, "
"false\n"
"   and null bare; arrays in [ ] and objects in { }; each key once; no\n"
"   comments and no trailing commas.\n"
"5. To call several tools, write one <tool_call> after another.\n";

static const char rules_harmony[] =
"You can call the tools described below. To call one, write a message to\n"
"it on the commentary channel, in this form:\n"
"\n"
"<|channel|>commentary to=functions.TOOL_NAME "
"<|constrain|>json<|message|>{\"PARAMETER_NAME\": VALUE}<|call|>\n"
"\n"
"The call is run as soon as its <|call|> has been written. The rules:\n"
"\n"
"1. The recipient, after to=, is functions. and the name of a tool below,\n"
"   exactly as it is written there.\n"
"2. The message is a JSON object with one member for each parameter,\n"
"   named after it. Give every required parameter; leave out the optional\n"
"   ones you do not need.\n"
"3. Write JSON strictly: strings in double quotes, with \\\" for a quote,\n"
"   \\\\ for a backslash and \\n for a newline in them; numbers, true, "
"false\n"
"   and null bare; arrays in [ ] and objects in { }; each key once; no\n"
"   comments and no trailing commas.\n"
"4. <|call|> ends your turn: make one call at a time, and the next, if\n"
"   you need one, once the result of the last has come back.\n";

static const char rules_deepseek[] =
"You can call the tools described below. To call them, write the calls in\n"
"your answer between " DS_CALLS_BEGIN " and " DS_CALLS_END ", each in\n"
"this form:\n"
"\n"
DS_CALLS_BEGIN DS_BEGIN "TOOL_NAME" DS_SEP "{\"PARAMETER_NAME\": VALUE}"
DS_END DS_CALLS_END "\n"
"\n"
"Each call is run as soon as its " DS_END " has been written. The\n"
"rules:\n"
"\n"
"1. Write the markup exactly as it is shown, with its full-width bars "
BAR "\n"
"   and the " LOW " between its words.\n"
"2. Between " DS_BEGIN " and " DS_SEP " comes the name of a tool\n"
"   below, exactly as it is written there.\n"
"3. After " DS_SEP " comes a JSON object with one member for each\n"
"   parameter, named after it. Give every required parameter; leave out\n"
"   the optional ones you do not need.\n"
"4. Write JSON strictly: strings in double quotes, with \\\" for a quote,\n"
"   \\\\ for a backslash and \\n for a newline in them; numbers, true, "
"false\n"
"   and null bare; arrays in [ ] and objects in { }; each key once; no\n"
"   comments and no trailing commas.\n"
"5. To call several tools, write one " DS_BEGIN " ...\n"
"   " DS_END " after another, all between one " DS_CALLS_BEGIN "\n"
"   and its " DS_CALLS_END ".\n";

static const char rules_mistral[] =
"You can call the tools described below. To call one, write [TOOL_CALLS]\n"
"in your answer, then the tool's name, [ARGS] and the arguments as a JSON\n"
"object, in this form:\n"
"\n"
"[TOOL_CALLS]TOOL_NAME[ARGS]{\"PARAMETER_NAME\": VALUE}\n"
"\n"
"Each call is run as soon as its JSON object has been written. The rules:\n"
"\n"
"1. Write [TOOL_CALLS] and [ARGS] exactly as they are shown, in capitals.\n"
"   Every [TOOL_CALLS] you write is a call, in a code block too: never\n"
"   write one as an illustration.\n"
"2. After [TOOL_CALLS] comes the name of a tool below, exactly as it is\n"
"   written there.\n"
"3. After [ARGS] comes a JSON object with one member for each parameter,\n"
"   named after it. Give every required parameter; leave out the optional\n"
"   ones you do not need.\n"
"4. Write JSON strictly: strings in double quotes, with \\\" for a quote,\n"
"   \\\\ for a backslash and \\n for a newline in them; numbers, true, "
"false\n"
"   and null bare; arrays in [ ] and objects in { }; each key once; no\n"
"   comments and no trailing commas.\n"
"5. To call several tools, write one call after another, each from its\n"
"   own [TOOL_CALLS].\n";

static const char rules_llama3[] =
"You can call the tools described below. To call one, answer with a JSON\n"
"object that names the tool and holds its parameters, in this form:\n"
"\n"
"{\"name\": \"TOOL_NAME\", \"parameters\": {\"PARAMETER_NAME\": VALUE}}\n"
"\n"
"Each call is run as soon as its object has been written. The rules:\n"
"\n"
"1. Begin your answer with the call, with nothing before it, not even a\n"
"   code fence: a JSON object anywhere else in your answer is not a call.\n"
"2. \"name\" is the name of a tool below, exactly as it is written there.\n"
"3. \"parameters\" is an object with one member for each parameter, named\n"
"   after it. Give every required parameter; leave out the optional ones\n"
"   you do not need.\n"
"4. Write JSON strictly: strings in double quotes, with \\\" for a quote,\n"
"   \\\\ for a backslash and \\n for a newline in them; numbers, true, "
"false\n"
"   and null bare; arrays in [ ] and objects in { }; each key once; no\n"
"   comments and no trailing commas.\n"
"5. To call several tools, write their objects one after another,\n"
"   separated by semicolons: {\"name\": ...}; {\"name\": ...}.\n";

static const char rules_kimi[] =
"You can call the tools described below. To call them, write the calls in\n"
"your answer between <|tool_calls_section_begin|> and\n"
"<|tool_calls_section_end|>, each in this form:\n"
"\n"
"<|tool_calls_section_begin|>\n"
"<|tool_call_begin|>functions.TOOL_NAME:INDEX<|tool_call_argument_begin|>"
"{\"PARAMETER_NAME\": "
"VALUE}<|tool_call_end|>\n"
"<|tool_calls_section_end|>\n"
"\n"
"Each call is run as soon as its <|tool_call_end|> has been written. The\n"
"rules:\n"
"\n"
"1. Write the markup exactly as it is shown.\n"
"2. After <|tool_call_begin|> comes the call's id: functions., the name\n"
"   of a tool below, exactly as it is written there, a colon and INDEX,\n"
"   the number of the call, counting your calls from 0.\n"
"3. After <|tool_call_argument_begin|> comes a JSON object with one\n"
"   member for each parameter, named after it. Give every required\n"
"   parameter; leave out the optional ones you do not need.\n"
"4. Write JSON strictly: strings in double quotes, with \\\" for a quote,\n"
"   \\\\ for a backslash and \\n for a newline in them; numbers, true, "
"false\n"
"   and null bare; arrays in [ ] and objects in { }; each key once; no\n"
"   comments and no trailing commas.\n"
"5. To call several tools, write one <|tool_call_begin|> ...\n"
"   <|tool_call_end|> after another, in one section.\n";

static const char rules_pythonic[] =
"You can call the tools described below. To call them, answer with a\n"
"Python list of calls, in this form:\n"
"\n"
"[TOOL_NAME(PARAMETER_NAME=VALUE, PARAMETER_NAME=VALUE)]\n"
"\n"
"The calls are run once the list has been written. The rules:\n"
"\n"
"1. When you call tools, answer with the list alone: nothing before it\n"
"   and nothing after it.\n"
"2. Each call is the name of a tool below, exactly as it is written\n"
"   there, and its arguments in parentheses.\n"
"3. Give each argument by its name, as NAME=VALUE, never by position.\n"
"   Give every required parameter; leave out the optional ones you do not\n"
"   need.\n"
"4. Write each value as a Python literal: a string in quotes, with \\\" for\n"
"   a quote, \\\\ for a backslash and \\n for a newline in it; numbers as 3\n"
"   or 1.5; True, False and None; a list as [\"a.txt\", \"b.txt\"] and a "
"dict\n"
"   as {\"start\": 1, \"end\": 9}. No variables, no expressions and no "
"calls\n"
"   in a value.\n"
"5. To call several tools, put several calls in the list, separated by\n"
"   commas: [TOOL_NAME(...), TOOL_NAME(...)].\n";

/* What a raw value cannot hold: the markup that begins or ends a part. */
static const char *const mk_qwen3[] = {
	"<tool_call>", "</tool_call>", "<seed:tool_call>", "</seed:tool_call>",
	"<function=", "</function>", "<parameter=", "</parameter>", NULL
};
static const char *const mk_invoke[] = {
	"<invoke", "</invoke>", "<parameter", "</parameter>", NULL
};
static const char *const mk_glm[] = {
	"<tool_call>", "</tool_call>", "<arg_key>", "</arg_key>",
	"<arg_value>", "</arg_value>", NULL
};

/* The markups, by their numbers (TOOLDEFS_TOOL, TCD_*, TOOLDEFS_PYTHONIC). */
static const struct markup markups[TOOLDEFS_NMARKUPS] = {
	[TOOLDEFS_TOOL] = { "tool", rules_tool, tooldefs_fault_tool,
	    tooldefs_write_tool, NULL, NULL, NULL, NULL, NULL, NULL,
	    LAYOUT_RAW, 0, 0, NULL },
	[TCD_QWEN3] = { "qwen3", rules_qwen3, tooldefs_fault_raw,
	    tooldefs_write_raw, "<tool_call>\n<function=", ">\n",
	    "</function>\n</tool_call>\n", "<parameter=", ">",
	    "</parameter>\n", LAYOUT_ALWAYS, 0, 0, mk_qwen3 },
	[TCD_INVOKE] = { "invoke", rules_invoke, tooldefs_fault_raw,
	    tooldefs_write_raw, "<minimax:tool_call>\n<invoke name=", ">\n",
	    "</invoke>\n</minimax:tool_call>\n", "<parameter name=", ">",
	    "</parameter>\n", LAYOUT_NEEDED, 1, 0, mk_invoke },
	[TCD_GLM] = { "glm", rules_glm, tooldefs_fault_raw,
	    tooldefs_write_raw, "<tool_call>", "\n", "</tool_call>\n",
	    "<arg_key>", "</arg_key>\n<arg_value>", "</arg_value>\n",
	    LAYOUT_RAW, 0, 0, mk_glm },
	[TCD_HERMES] = { "hermes", rules_hermes, NULL, tooldefs_write_json,
	    "<tool_call>\n{\"name\": ", ", \"arguments\": ",
	    "}\n</tool_call>\n", NULL, NULL, NULL, LAYOUT_RAW, 0, 1, NULL },
	[TCD_HARMONY] = { "harmony", rules_harmony, tooldefs_fault_harmony,
	    tooldefs_write_json, "<|channel|>commentary to=functions.",
	    " <|constrain|>json<|message|>", "<|call|>\n", NULL, NULL, NULL,
	    LAYOUT_RAW, 0, 0, NULL },
	[TCD_DEEPSEEK] = { "deepseek", rules_deepseek,
	    tooldefs_fault_deepseek, tooldefs_write_json,
	    DS_CALLS_BEGIN DS_BEGIN, DS_SEP, DS_END DS_CALLS_END "\n", NULL,
	    NULL, NULL, LAYOUT_RAW, 0, 0, NULL },
	[TCD_MISTRAL] = { "mistral", rules_mistral, tooldefs_fault_mistral,
	    tooldefs_write_json, "[TOOL_CALLS]", "[ARGS]", "\n", NULL, NULL,
	    NULL, LAYOUT_RAW, 0, 0, NULL },
	[TCD_LLAMA3] = { "llama3", rules_llama3, NULL, tooldefs_write_json,
	    "{\"name\": ", ", \"parameters\": ", "}\n", NULL, NULL, NULL,
	    LAYOUT_RAW, 0, 1, NULL },
	[TCD_KIMI] = { "kimi", rules_kimi, tooldefs_fault_kimi,
	    tooldefs_write_json,
	    "<|tool_calls_section_begin|>\n<|tool_call_begin|>functions.",
	    ":0<|tool_call_argument_begin|>",
	    "<|tool_call_end|>\n<|tool_calls_section_end|>\n", NULL, NULL, NULL,
	    LAYOUT_RAW, 0, 0, NULL },
	[TOOLDEFS_PYTHONIC] = { "pythonic", rules_pythonic,
	    tooldefs_fault_python, tooldefs_write_python, "[", "(", ")]\n",
	    NULL, NULL, NULL, LAYOUT_RAW, 0, 0, NULL },
};

static void
walk_free(struct walk *w)
{
	size_t i;

	for (i = 0; i < w->norder; i++) {
		free(w->order[i]->label);
		free(w->order[i]->name);
		json_decref(w->order[i]->ex);
		free(w->order[i]);
	}
	free(w->order);
	ptab_free(&w->nodes);
	free(w->queue);
	json_decref(w->uris);
	json_decref(w->names);
}

const char *
tooldefs_markup_name(int markup)
{
	if (markup < 0 || markup >= TOOLDEFS_NMARKUPS)
		return NULL;
	return markups[markup].name;
}

/*
 * Whether tool d can be called in markup m: when its name cannot be
 * written there, it is left out of the prompt, and a warning says why.
 */
static int
callable(const struct markup *m, const struct tooldef *d)
{
	struct diag_loc loc;
	const char *why;
	char q[80];

	if ((why = tooldefs_fault(m, d->name, 0)) == NULL)
		return 1;
	/* the definitions are not read again: the place is the file's */
	loc.file = d->file;
	loc.line = loc.col = 1;
	loc.path = NULL;
	diag_quote(q, sizeof(q), d->name, strlen(d->name));
	diag_at(DIAG_WARNING, &loc, "tool-name", "tool %s%s%s is left out of "
	    "the %s prompt: its name %s", q, d->server != NULL ?
	    " of server " : "", d->server != NULL ? d->server : "", m->name,
	    why);
	return 0;
}

int
tooldefs_prompt(const struct tooldefs *defs, int markup, struct buf *b)
{
	const struct markup *m;
	const struct tooldef *d;
	struct walk w;
	char *base;
	size_t i, start;
	int any = 0;

	if (markup < 0 || markup >= TOOLDEFS_NMARKUPS)
		return -1;
	m = &markups[markup];
	buf_adds(b, m->rules);
	for (i = 0; defs != NULL && i < defs->n; i++) {
		d = &defs->v[i];
		if (!callable(m, d))
			continue;
		if (!any++)
			buf_adds(b, "\n# Tools\n");
		memset(&w, 0, sizeof(w));
		w.d = d;
		w.uris = json_object();
		w.names = json_object();
		/* without the working directory, references stay local */
		base = jsschema_file_uri(d->file);
		w.base = keep_uri(&w, base != NULL ? base : "");
		free(base);
		w.root = d->schema;
		if (w.root != NULL) {
			walk_tool(&w);
			w.top = tooldefs_canon(&w, w.root);
		}
		/* the name as the call holds it: <tool_name> escapes it */
		buf_adds(b, "\n## ");
		if (markup == TOOLDEFS_TOOL)
			tooldefs_xml_text(b, d->name, strlen(d->name));
		else
			buf_adds(b, d->name);
		buf_adds(b, "\n\n");
		if (d->description != NULL && *d->description != '\0') {
			add_text(b, d->description, 0);
			buf_adds(b, "\n\n");
		}
		start = b->len;
		w.stop = start + BUDGET_BASE + BUDGET_DESC * w.weight;
		describe(b, &w);
		buf_adds(b, "\nExample:\n\n");
		tooldefs_example(b, &w, d, m);
		walk_free(&w);
	}
	return 0;
}
