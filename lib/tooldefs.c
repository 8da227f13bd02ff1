/*
 * tooldefs: tool definitions read from the forms agents hold, each input
 * schema compiled once, and the system prompt that teaches seed 003's
 * format for them, with an example call made from each schema.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "diag.h"
#include "jsonw.h"
#include "jsonx.h"
#include "jsschema.h"
#include "tooldefs.h"
#include "xalloc.h"
#include "xmlesc.h"

/* How deep the prompt follows subschemas, "$ref"s included. */
#define MAX_DEPTH	32
/* The most items an example array is given, whatever its minItems. */
#define MAX_ITEMS	16

/* Where a tool stands in its file, for messages: a JSON Pointer. */
struct at {
	const char	*file;
	char		 ptr[48];
	char		*err;
	size_t		 errlen;
};

static int	 fail(struct at *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

/* The message "FILE: POINTER: ..." (no pointer when it is ""); -1. */
static int
fail(struct at *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = at->ptr[0] != '\0' ?
	    snprintf(at->err, at->errlen, "%s: %s: ", at->file, at->ptr) :
	    snprintf(at->err, at->errlen, "%s: ", at->file);
	if (n < 0 || (size_t)n >= at->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(at->err + n, at->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* The JSON file path, or NULL with the message said. */
static json_t *
read_json(struct at *at)
{
	json_error_t je;
	json_t *doc;
	FILE *fp;
	int e;

	if ((fp = fopen(at->file, "r")) == NULL) {
		fail(at, "%s", strerror(errno));
		return NULL;
	}
	doc = json_loadf(fp, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &je);
	e = ferror(fp) ? errno : 0;
	fclose(fp);
	if (doc == NULL && e != 0)
		fail(at, "%s", strerror(e != 0 ? e : EIO));
	else if (doc == NULL)
		snprintf(at->err, at->errlen, "%s:%d:%d: the tool definitions "
		    "are not JSON: %s", at->file, je.line,
		    je.column > 0 ? je.column : 1, je.text);
	return doc;
}

/*
 * Adds one tool, the object t whose input schema is schema (or NULL):
 * 0, or -1 with the message said.
 */
static int
add(struct tooldefs *defs, struct at *at, const json_t *t,
    json_t *schema, const char *uri)
{
	struct jsschema_opts opts;
	struct tooldef *d;
	const json_t *v;
	const char *name;
	char q[80], msg[400];
	size_t i;

	name = json_string_value(v = json_object_get(t, "name"));
	if (name == NULL)
		return fail(at, "a tool must have a \"name\" string");
	if (*name == '\0')
		return fail(at, "the tool's name is empty");
	diag_quote(q, sizeof(q), name, json_string_length(v));
	for (i = 0; i < defs->n; i++)
		if (strcmp(defs->v[i].name, name) == 0)
			return fail(at, "tool %s is defined twice, first in %s",
			    q, defs->v[i].file);
	if (schema != NULL && !json_is_object(schema) &&
	    !json_is_boolean(schema))
		return fail(at, "tool %s: the input schema must be an object "
		    "or a boolean, not %s", q, jsonx_typename(schema));
	defs->v = xreallocarray(defs->v, defs->n + 1, sizeof(*defs->v));
	d = &defs->v[defs->n];
	memset(d, 0, sizeof(*d));
	if (schema != NULL) {
		memset(&opts, 0, sizeof(opts));
		opts.draft = JSSCHEMA_DRAFT2020;
		d->js = jsschema_compile(schema, uri, &opts, msg, sizeof(msg));
		if (d->js == NULL)
			return fail(at, "tool %s: the input schema does not "
			    "compile: %s", q, msg);
		d->schema = json_incref(schema);
	}
	d->name = xstrdup(name);
	v = json_object_get(t, "description");
	if (json_is_string(v))
		d->description = xstrdup(json_string_value(v));
	d->file = at->file;
	defs->n++;
	return 0;
}

/*
 * One element of an array of tools, in any of the four forms, told by
 * its members: "function" (Chat Completions), "type" alone (Responses),
 * "input_schema" (Anthropic), "inputSchema" or neither (MCP).
 */
static int
add_element(struct tooldefs *defs, struct at *at, const json_t *t,
    const char *uri)
{
	const json_t *type, *fn;
	char q[80];
	size_t n;

	if (!json_is_object(t))
		return fail(at, "a tool must be an object, not %s",
		    jsonx_typename(t));
	type = json_object_get(t, "type");
	if (type != NULL && !(json_is_string(type) &&
	    (strcmp(json_string_value(type), "function") == 0 ||
	    strcmp(json_string_value(type), "custom") == 0))) {
		if (!json_is_string(type))
			return fail(at, "\"type\" must be a string, not %s",
			    jsonx_typename(type));
		diag_quote(q, sizeof(q), json_string_value(type),
		    json_string_length(type));
		return fail(at, "a tool of type %s is not a function and "
		    "cannot be called in XML", q);
	}
	if ((fn = json_object_get(t, "function")) != NULL) {
		if (!json_is_object(fn))
			return fail(at, "\"function\" must be an object, not "
			    "%s", jsonx_typename(fn));
		n = strlen(at->ptr);
		snprintf(at->ptr + n, sizeof(at->ptr) - n, "/function");
		return add(defs, at, fn, json_object_get(fn, "parameters"),
		    uri);
	}
	if (type != NULL && json_object_get(t, "parameters") != NULL)
		return add(defs, at, t, json_object_get(t, "parameters"), uri);
	if (json_object_get(t, "input_schema") != NULL)
		return add(defs, at, t, json_object_get(t, "input_schema"),
		    uri);
	return add(defs, at, t, json_object_get(t, "inputSchema"), uri);
}

int
tooldefs_load(struct tooldefs *defs, const char *path, char *err,
    size_t errlen)
{
	struct at at = { path, "", err, errlen };
	json_t *doc, *tools, *result;
	const char *prefix = "";
	char *uri;
	size_t i;
	int rc = -1;

	if ((doc = read_json(&at)) == NULL)
		return -1;
	tools = doc;
	if (json_is_object(doc)) {
		result = json_object_get(doc, "result");
		if (json_is_object(result) && json_object_get(doc, "tools") ==
		    NULL) {
			tools = json_object_get(result, "tools");
			prefix = "/result/tools";
		} else {
			tools = json_object_get(doc, "tools");
			prefix = "/tools";
		}
	}
	if (!json_is_array(tools)) {
		fail(&at, "not tool definitions: expected an MCP tools/list "
		    "result ({\"tools\":[...]}) or the JSON-RPC response that "
		    "holds it, or an array of MCP, OpenAI Chat Completions, "
		    "OpenAI Responses or Anthropic tools");
		json_decref(doc);
		return -1;
	}
	if ((uri = jsschema_file_uri(path)) == NULL) {
		fail(&at, "%s", strerror(errno));
		json_decref(doc);
		return -1;
	}
	for (i = 0; i < json_array_size(tools); i++) {
		snprintf(at.ptr, sizeof(at.ptr), "%s/%zu", prefix, i);
		if (add_element(defs, &at, json_array_get(tools, i), uri) != 0)
			goto out;
	}
	rc = 0;
out:
	free(uri);
	json_decref(doc);
	return rc;
}

const struct tooldef *
tooldefs_find(const struct tooldefs *defs, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < defs->n; i++)
		if (strlen(defs->v[i].name) == len &&
		    memcmp(defs->v[i].name, name, len) == 0)
			return &defs->v[i];
	return NULL;
}

void
tooldefs_names(const struct tooldefs *defs, struct buf *b)
{
	size_t i;

	for (i = 0; i < defs->n; i++) {
		if (i > 0)
			buf_adds(b, ", ");
		buf_adds(b, defs->v[i].name);
	}
}

void
tooldefs_free(struct tooldefs *defs)
{
	size_t i;

	for (i = 0; i < defs->n; i++) {
		free(defs->v[i].name);
		free(defs->v[i].description);
		json_decref(defs->v[i].schema);
		jsschema_free(defs->v[i].js);
	}
	free(defs->v);
	defs->v = NULL;
	defs->n = 0;
}

/*
 * The prompt. A schema is read as a view of its own keywords, those of
 * the "$ref" it names (in the same document or in a file beside it) and
 * those of its allOf, as if they were one schema: the first value of a
 * keyword found so, depth first, is the one shown.
 */

/*
 * What a walk of one tool's schema knows: the schema, its base URI (its
 * file's), the other documents its references have read, by URI, and the
 * URI of the document every object and array of them stands in.
 */
struct walk {
	const json_t	*root;
	const char	*base;
	json_t		*docs;		/* URI -> document */
	json_t		*where;		/* "%p" of a value -> URI */
};

/* Notes that v and what it holds stand in the document at uri. */
static void
walk_index(struct walk *w, const json_t *v, const char *uri)
{
	char key[32];
	const char *k;
	json_t *m;
	size_t i;

	if (!json_is_object(v) && !json_is_array(v))
		return;
	snprintf(key, sizeof(key), "%p", (const void *)v);
	json_object_set_new(w->where, key, json_string(uri));
	if (json_is_object(v))
		json_object_foreach((json_t *)v, k, m)
			walk_index(w, m, uri);
	else
		for (i = 0; i < json_array_size(v); i++)
			walk_index(w, json_array_get(v, i), uri);
}

/* %XX decoded, as URIs write bytes. */
static void
add_decoded(struct buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const char *hi, *lo;
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '%' && i + 2 < n && s[i + 1] != '\0' &&
		    s[i + 2] != '\0' &&
		    (hi = strchr(hex, s[i + 1] | 0x20)) != NULL &&
		    (lo = strchr(hex, s[i + 2] | 0x20)) != NULL) {
			buf_addc(b, (char)((hi - hex) << 4 | (lo - hex)));
			i += 2;
		} else
			buf_addc(b, s[i]);
	}
}

/*
 * The document at uri: the tool's own schema for its base, or a file
 * read once (a file: URI, as the schema compiled); NULL for others.
 */
static const json_t *
walk_doc(struct walk *w, const char *uri)
{
	struct buf path = BUF_INIT;
	json_t *doc;

	if (strcmp(uri, w->base) == 0)
		return w->root;
	if ((doc = json_object_get(w->docs, uri)) != NULL)
		return doc;
	if (strncmp(uri, "file://", 7) != 0)
		return NULL;
	add_decoded(&path, uri + 7, strlen(uri + 7));
	doc = json_load_file(buf_cstr(&path), JSON_DECODE_ANY |
	    JSON_REJECT_DUPLICATES, NULL);
	buf_free(&path);
	if (doc == NULL)
		return NULL;
	json_object_set_new(w->docs, uri, doc);
	walk_index(w, doc, uri);
	return doc;
}

/*
 * The schema that the "$ref" ref of schema from names: a JSON Pointer
 * fragment in the same document or in another file; NULL for what
 * cannot be found so (an $anchor, a URI that is no file).
 */
static const json_t *
deref(struct walk *w, const json_t *from, const char *ref)
{
	struct buf tok = BUF_INIT;
	const json_t *s;
	const char *base, *p, *frag;
	char key[32], *uri, *end;
	size_t i;

	snprintf(key, sizeof(key), "%p", (const void *)from);
	base = json_string_value(json_object_get(w->where, key));
	if ((uri = jsschema_uri_resolve(base != NULL ? base : w->base,
	    ref)) == NULL)
		return NULL;
	if ((frag = strchr(uri, '#')) != NULL)
		*(char *)frag++ = '\0';
	else
		frag = "";
	s = walk_doc(w, uri);
	for (p = frag; s != NULL && *p == '/'; ) {
		buf_reset(&tok);
		for (p++; *p != '\0' && *p != '/'; p++) {
			if (p[0] == '~' && p[1] == '0')
				buf_addc(&tok, '~'), p++;
			else if (p[0] == '~' && p[1] == '1')
				buf_addc(&tok, '/'), p++;
			else if (p[0] == '%' && p[1] != '\0' && p[2] != '\0') {
				add_decoded(&tok, p, 3);
				p += 2;
			} else
				buf_addc(&tok, *p);
		}
		buf_cstr(&tok);
		if (json_is_object(s))
			s = json_object_get(s, tok.data);
		else if (json_is_array(s) && tok.len > 0 &&
		    tok.data[0] >= '0' && tok.data[0] <= '9') {
			i = strtoul(tok.data, &end, 10);
			s = *end == '\0' ? json_array_get(s, i) : NULL;
		} else
			s = NULL;
	}
	if (*p != '\0')
		s = NULL;
	buf_free(&tok);
	free(uri);
	return s;
}

/* The value of keyword kw in the view of s, or NULL. */
static const json_t *
kw(struct walk *w, const json_t *s, const char *k, int depth)
{
	const json_t *v, *all;
	size_t i;

	if (!json_is_object(s) || depth > MAX_DEPTH)
		return NULL;
	if ((v = json_object_get(s, k)) != NULL)
		return v;
	v = json_object_get(s, "$ref");
	if (json_is_string(v) &&
	    (v = kw(w, deref(w, s, json_string_value(v)), k,
	    depth + 1)) != NULL)
		return v;
	all = json_object_get(s, "allOf");
	for (i = 0; i < json_array_size(all); i++)
		if ((v = kw(w, json_array_get(all, i), k, depth + 1)) !=
		    NULL)
			return v;
	return NULL;
}

/* One property of an object schema: its name, schema and requiredness. */
struct prop {
	const char	*name;
	const json_t	*schema;
	int		 required;
};

struct props {
	struct prop	*v;
	size_t		 n;
};

static struct prop *
prop_get(struct props *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (strcmp(p->v[i].name, name) == 0)
			return &p->v[i];
	return NULL;
}

/* The properties and "required" of the view of s, added to p. */
static void
props_collect(struct walk *w, const json_t *s, struct props *p,
    int depth)
{
	const json_t *v, *all;
	const char *name;
	struct prop *q;
	size_t i;

	if (!json_is_object(s) || depth > MAX_DEPTH)
		return;
	json_object_foreach((json_t *)json_object_get(s, "properties"), name,
	    v) {
		if (prop_get(p, name) != NULL)
			continue;
		p->v = xreallocarray(p->v, p->n + 1, sizeof(*p->v));
		p->v[p->n].name = name;
		p->v[p->n].schema = v;
		p->v[p->n++].required = 0;
	}
	v = json_object_get(s, "$ref");
	if (json_is_string(v))
		props_collect(w, deref(w, s, json_string_value(v)), p,
		    depth + 1);
	all = json_object_get(s, "allOf");
	for (i = 0; i < json_array_size(all); i++)
		props_collect(w, json_array_get(all, i), p, depth + 1);
	v = json_object_get(s, "required");
	for (i = 0; i < json_array_size(v); i++) {
		if ((name = json_string_value(json_array_get(v, i))) == NULL)
			continue;
		if ((q = prop_get(p, name)) == NULL) {
			p->v = xreallocarray(p->v, p->n + 1, sizeof(*p->v));
			q = &p->v[p->n++];
			q->name = name;
			q->schema = NULL;
		}
		q->required = 1;
	}
}

/* The branches of the view's anyOf, or else its oneOf, or NULL. */
static const json_t *
branches(struct walk *w, const json_t *s)
{
	const json_t *v;

	if (json_array_size(v = kw(w, s, "anyOf", 0)) > 0)
		return v;
	if (json_array_size(v = kw(w, s, "oneOf", 0)) > 0)
		return v;
	return NULL;
}

static int
is_null_type(struct walk *w, const json_t *s)
{
	const char *t = json_string_value(kw(w, s, "type", 0));

	return t != NULL && strcmp(t, "null") == 0;
}

/*
 * The schema an example value is made from: the first branch of anyOf
 * or oneOf that is not {"type":"null"}, or s.
 */
static const json_t *
first_branch(struct walk *w, const json_t *s)
{
	const json_t *br;
	size_t i;

	if (kw(w, s, "type", 0) != NULL || (br = branches(w, s)) == NULL)
		return s;
	for (i = 0; i < json_array_size(br); i++)
		if (!is_null_type(w, json_array_get(br, i)))
			return json_array_get(br, i);
	return json_array_get(br, 0);
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

static void	 type_label(struct buf *, struct walk *, const json_t *,
		    int);

/* Adds label to the labels of l, unless it is there already. */
static void
label_add(json_t *l, struct buf *label)
{
	size_t i;

	buf_cstr(label);
	for (i = 0; i < json_array_size(l); i++)
		if (strcmp(json_string_value(json_array_get(l, i)),
		    label->data) == 0)
			return;
	json_array_append_new(l, json_string(label->data));
}

/* The name of one type; "array" with what its items are. */
static void
one_type(struct buf *b, struct walk *w, const json_t *s, const char *t,
    int depth)
{
	const json_t *items;

	buf_adds(b, t);
	if (strcmp(t, "array") != 0 || kw(w, s, "prefixItems", 0) != NULL)
		return;
	items = kw(w, s, "items", 0);
	if (json_is_object(items) && json_object_size(items) > 0) {
		buf_adds(b, " of ");
		type_label(b, w, items, depth + 1);
	}
}

/*
 * What a value of s is: "string", "integer or null", "array of object";
 * "any" when the schema does not say.
 */
static void
type_label(struct buf *b, struct walk *w, const json_t *s, int depth)
{
	struct buf one = BUF_INIT;
	const json_t *t, *br, *e;
	json_t *l;
	size_t i;

	if (depth > MAX_DEPTH || !json_is_object(s)) {
		buf_adds(b, "any");
		return;
	}
	l = json_array();
	t = kw(w, s, "type", 0);
	if (json_is_string(t))
		t = json_pack("[O]", t);
	else
		json_incref((json_t *)t);
	br = branches(w, s);
	for (i = 0; i < json_array_size(t); i++) {
		buf_reset(&one);
		if (json_is_string(json_array_get(t, i)))
			one_type(&one, w, s, json_string_value(
			    json_array_get(t, i)), depth);
		label_add(l, &one);
	}
	for (i = 0; t == NULL && i < json_array_size(br); i++) {
		buf_reset(&one);
		type_label(&one, w, json_array_get(br, i), depth + 1);
		label_add(l, &one);
	}
	json_decref((json_t *)t);
	if (json_array_size(l) == 0 && br == NULL &&
	    ((e = kw(w, s, "enum", 0)) != NULL ||
	    (e = kw(w, s, "const", 0)) != NULL)) {
		if (json_is_array(e) && e == kw(w, s, "enum", 0))
			for (i = 0; i < json_array_size(e); i++) {
				buf_reset(&one);
				buf_adds(&one, value_type(json_array_get(e,
				    i)));
				label_add(l, &one);
			}
		else {
			buf_reset(&one);
			buf_adds(&one, value_type(e));
			label_add(l, &one);
		}
	}
	if (json_array_size(l) == 0 && br == NULL) {
		buf_reset(&one);
		if (kw(w, s, "properties", 0) != NULL)
			buf_adds(&one, "object");
		else if (kw(w, s, "items", 0) != NULL ||
		    kw(w, s, "prefixItems", 0) != NULL)
			one_type(&one, w, s, "array", depth);
		if (one.len > 0)
			label_add(l, &one);
	}
	for (i = 0; i < json_array_size(l); i++) {
		if (i > 0)
			buf_adds(b, " or ");
		buf_adds(b, json_string_value(json_array_get(l, i)));
	}
	if (json_array_size(l) == 0)
		buf_adds(b, "any");
	json_decref(l);
	buf_free(&one);
}

/* A stack of the schemas a walk is inside, against "$ref" cycles. */
struct stack {
	const json_t	*v[MAX_DEPTH + 1];
	int		 n;
};

static int
stack_push(struct stack *st, const json_t *s)
{
	int i;

	if (st->n > MAX_DEPTH)
		return -1;
	for (i = 0; i < st->n; i++)
		if (st->v[i] == s)
			return -1;
	st->v[st->n++] = s;
	return 0;
}

/*
 * The object schema whose properties are listed under a parameter of
 * schema s: s itself, the items of an array, or the first branch of an
 * anyOf or oneOf that has properties; NULL for none.
 */
static const json_t *
nested(struct walk *w, const json_t *s, int depth)
{
	const json_t *v, *br;
	struct props p = { NULL, 0 };
	size_t i;

	if (!json_is_object(s) || depth > MAX_DEPTH)
		return NULL;
	props_collect(w, s, &p, 0);
	free(p.v);
	if (p.n > 0)
		return s;
	if ((v = kw(w, s, "items", 0)) != NULL &&
	    (v = nested(w, v, depth + 1)) != NULL)
		return v;
	br = branches(w, s);
	for (i = 0; i < json_array_size(br); i++)
		if ((v = nested(w, json_array_get(br, i), depth + 1)) !=
		    NULL)
			return v;
	return NULL;
}

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

/* The properties of object schema s, one line each, nested ones below. */
static void
list_props(struct buf *b, struct walk *w, const json_t *s, int indent,
    struct stack *st)
{
	struct props p = { NULL, 0 };
	const json_t *ps, *v, *sub;
	size_t i;

	if (stack_push(st, s) != 0)
		return;
	props_collect(w, s, &p, 0);
	for (i = 0; i < p.n; i++) {
		ps = p.v[i].schema;
		buf_printf(b, "%*s- %s (", indent, "", p.v[i].name);
		type_label(b, w, ps, 0);
		if (p.v[i].required)
			buf_adds(b, ", required");
		if (json_array_size(v = kw(w, ps, "enum", 0)) > 0) {
			buf_adds(b, ", one of ");
			add_values(b, v);
		} else if ((v = kw(w, ps, "const", 0)) != NULL) {
			buf_adds(b, ", always ");
			jsonw_stringify(b, v);
		}
		if ((v = kw(w, ps, "default", 0)) != NULL) {
			buf_adds(b, ", default ");
			jsonw_stringify(b, v);
		}
		buf_addc(b, ')');
		if (json_is_string(v = kw(w, ps, "description", 0)) &&
		    json_string_length(v) > 0) {
			buf_adds(b, ": ");
			add_text(b, json_string_value(v), indent + 2);
		}
		buf_addc(b, '\n');
		if ((sub = nested(w, ps, 0)) != NULL)
			list_props(b, w, sub, indent + 2, st);
	}
	free(p.v);
	st->n--;
}

/*
 * Example values. A string, where nothing else says what it is, is a
 * placeholder of its format.
 */
static const struct {
	const char	*format;
	const char	*value;
} formats[] = {
	{ "date",		"2024-01-31" },
	{ "date-time",		"2024-01-31T12:00:00Z" },
	{ "email",		"user@example.com" },
	{ "hostname",		"example.com" },
	{ "ipv4",		"192.0.2.1" },
	{ "ipv6",		"2001:db8::1" },
	{ "iri",		"https://example.com/" },
	{ "time",		"12:00:00Z" },
	{ "uri",		"https://example.com/" },
	{ "uuid",		"123e4567-e89b-12d3-a456-426614174000" },
};

static json_t *
gen_string(struct walk *w, const json_t *s)
{
	const char *f = json_string_value(kw(w, s, "format", 0));
	json_int_t min = json_integer_value(kw(w, s, "minLength", 0));
	const json_t *maxv = kw(w, s, "maxLength", 0);
	struct buf t = BUF_INIT;
	json_t *v;
	size_t i;

	buf_adds(&t, "example");
	for (i = 0; f != NULL && i < sizeof(formats) / sizeof(formats[0]);
	    i++)
		if (strcmp(f, formats[i].format) == 0) {
			buf_reset(&t);
			buf_adds(&t, formats[i].value);
		}
	while ((json_int_t)t.len < min && t.len < 64)
		buf_addc(&t, 'x');
	if (json_is_integer(maxv) && json_integer_value(maxv) >= 0 &&
	    (json_int_t)t.len > json_integer_value(maxv))
		t.len = (size_t)json_integer_value(maxv);
	v = json_stringn(t.data, t.len);
	buf_free(&t);
	return v;
}

/* x, moved into the bounds of s when it is out of them. */
static double
in_bounds(struct walk *w, const json_t *s, double x, double step)
{
	const json_t *v;

	if (json_is_number(v = kw(w, s, "minimum", 0)) &&
	    x < json_number_value(v))
		x = json_number_value(v);
	if (json_is_number(v = kw(w, s, "exclusiveMinimum", 0)) &&
	    x <= json_number_value(v))
		x = json_number_value(v) + step;
	if (json_is_number(v = kw(w, s, "maximum", 0)) &&
	    x > json_number_value(v))
		x = json_number_value(v);
	if (json_is_number(v = kw(w, s, "exclusiveMaximum", 0)) &&
	    x >= json_number_value(v))
		x = json_number_value(v) - step;
	return x;
}

static json_t	*gen(struct walk *, const json_t *, struct stack *);

/* An object: its required properties, or all of them when none is. */
static json_t *
gen_object(struct walk *w, const json_t *s, struct stack *st)
{
	struct props p = { NULL, 0 };
	json_t *o = json_object(), *v;
	size_t i, nreq = 0;

	props_collect(w, s, &p, 0);
	for (i = 0; i < p.n; i++)
		nreq += p.v[i].required;
	for (i = 0; i < p.n; i++) {
		if (nreq > 0 && !p.v[i].required)
			continue;
		v = p.v[i].schema != NULL ? gen(w, p.v[i].schema, st) :
		    json_string("example");
		if (v != NULL)
			json_object_set_new(o, p.v[i].name, v);
	}
	free(p.v);
	return o;
}

/* An array: one item per prefixItems, or max(1, minItems) items. */
static json_t *
gen_array(struct walk *w, const json_t *s, struct stack *st)
{
	const json_t *pre = kw(w, s, "prefixItems", 0);
	const json_t *items = kw(w, s, "items", 0);
	json_t *a = json_array(), *v;
	json_int_t n, i;

	for (i = 0; i < (json_int_t)json_array_size(pre); i++)
		if ((v = gen(w, json_array_get(pre, i), st)) != NULL)
			json_array_append_new(a, v);
	if (json_array_size(pre) > 0)
		return a;
	n = json_integer_value(kw(w, s, "minItems", 0));
	n = n < 1 ? 1 : n > MAX_ITEMS ? MAX_ITEMS : n;
	v = items != NULL ? gen(w, items, st) : json_string("example");
	for (i = 0; v != NULL && i < n; i++)
		json_array_append(a, v);
	json_decref(v);
	return a;
}

/* The type an example of s is made as: its first type but null. */
static const char *
gen_type(struct walk *w, const json_t *s)
{
	const json_t *t = kw(w, s, "type", 0);
	const char *first = NULL, *n;
	size_t i;

	if (json_is_string(t))
		return json_string_value(t);
	for (i = 0; i < json_array_size(t); i++) {
		if ((n = json_string_value(json_array_get(t, i))) == NULL)
			continue;
		if (strcmp(n, "null") != 0)
			return n;
		first = n;
	}
	if (first != NULL)
		return first;
	if (kw(w, s, "properties", 0) != NULL)
		return "object";
	if (kw(w, s, "items", 0) != NULL ||
	    kw(w, s, "prefixItems", 0) != NULL)
		return "array";
	return "string";
}

/*
 * An example value of schema s: its const, its first enum value, its
 * default, its first example, or a placeholder of its type. NULL when s
 * is already being made (a recursive schema), so that the property or
 * item that would recurse is left out.
 */
static json_t *
gen(struct walk *w, const json_t *s, struct stack *st)
{
	const json_t *v, *b;
	const char *t;
	json_t *r;

	if (!json_is_object(s))
		return json_string("example");
	if (stack_push(st, s) != 0)
		return NULL;
	if ((v = kw(w, s, "const", 0)) != NULL ||
	    json_array_size(v = kw(w, s, "enum", 0)) > 0 ||
	    (v = kw(w, s, "default", 0)) != NULL ||
	    json_array_size(v = kw(w, s, "examples", 0)) > 0) {
		if (json_is_array(v) && v != kw(w, s, "const", 0) &&
		    v != kw(w, s, "default", 0))
			v = json_array_get(v, 0);
		r = json_incref((json_t *)v);
	} else if ((b = first_branch(w, s)) != s)
		r = gen(w, b, st);
	else if (strcmp(t = gen_type(w, s), "object") == 0)
		r = gen_object(w, s, st);
	else if (strcmp(t, "array") == 0)
		r = gen_array(w, s, st);
	else if (strcmp(t, "integer") == 0)
		r = json_integer((json_int_t)ceil(in_bounds(w, s, 1, 1)));
	else if (strcmp(t, "number") == 0)
		r = json_real(in_bounds(w, s, 1.5, 1));
	else if (strcmp(t, "boolean") == 0)
		r = json_true();
	else if (strcmp(t, "null") == 0)
		r = json_null();
	else
		r = gen_string(w, s);
	st->n--;
	return r;
}

/* Whether s can be an element's name in a call. */
static int
xml_name(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!(*p >= 0x80 || *p == '_' ||
	    ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z')))
		return 0;
	for (p++; *p != '\0'; p++)
		if (!(*p >= 0x80 || *p == '_' || *p == '-' || *p == '.' ||
		    (*p >= '0' && *p <= '9') ||
		    ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z')))
			return 0;
	return 1;
}

static void
add_escaped(struct buf *b, const char *s, size_t n)
{
	xmlesc_append(b, s, n, 0, NULL);
}

/*
 * A string as the element's text: escaped, or in CDATA when it spans
 * lines or begins or ends with white space, which plain text loses.
 */
static void
xml_string(struct buf *b, const char *s, size_t n)
{
	size_t i;

	if (n == 0 || (memchr(s, '\n', n) == NULL &&
	    strchr(" \t\r\n", s[0]) == NULL &&
	    strchr(" \t\r\n", s[n - 1]) == NULL)) {
		add_escaped(b, s, n);
		return;
	}
	buf_adds(b, "<![CDATA[");
	for (i = 0; i < n; i++) {
		buf_addc(b, s[i]);
		/* "]]>" would end the section: "]]" in it, ">" in the next */
		if (s[i] == ']' && i + 2 < n && s[i + 1] == ']' &&
		    s[i + 2] == '>') {
			buf_adds(b, "]]]><![CDATA[");
			i++;
		}
	}
	buf_adds(b, "]]>");
}

/* Whether object o can be written as elements. */
static int
xml_object(const json_t *o)
{
	const char *k;
	json_t *v;

	if (json_object_size(o) == 0)
		return 0;
	json_object_foreach((json_t *)o, k, v)
		if (!xml_name(k))
			return 0;
	return 1;
}

/*
 * Value v as the element name, at indent: an array as the element
 * repeated, an object as elements inside it; what elements cannot hold
 * (an array in an array, an empty array or object, a key that is no XML
 * name) as JSON text.
 */
static void
xml_value(struct buf *b, const char *name, const json_t *v, int indent)
{
	struct buf t = BUF_INIT;
	const char *k;
	json_t *m;
	size_t i;

	if (json_is_array(v) && json_array_size(v) > 0) {
		for (i = 0; i < json_array_size(v); i++) {
			m = json_array_get(v, i);
			if (!json_is_array(m)) {
				xml_value(b, name, m, indent);
				continue;
			}
			buf_printf(b, "%*s<%s>", indent, "", name);
			jsonw_stringify(&t, m);
			add_escaped(b, t.data, t.len);
			buf_reset(&t);
			buf_printf(b, "</%s>\n", name);
		}
		buf_free(&t);
		return;
	}
	buf_printf(b, "%*s<%s>", indent, "", name);
	if (json_is_object(v) && xml_object(v)) {
		buf_addc(b, '\n');
		json_object_foreach((json_t *)v, k, m)
			xml_value(b, k, m, indent + 2);
		buf_printf(b, "%*s", indent, "");
	} else if (json_is_string(v))
		xml_string(b, json_string_value(v), json_string_length(v));
	else {
		jsonw_stringify(&t, v);
		add_escaped(b, t.data, t.len);
	}
	buf_printf(b, "</%s>\n", name);
	buf_free(&t);
}

/* The call of d that the prompt shows. */
static void
example(struct buf *b, struct walk *w, const struct tooldef *d)
{
	struct stack st = { { NULL }, 0 };
	const char *k;
	json_t *args, *v;

	buf_adds(b, "<tool>\n<server_name>local</server_name>\n<tool_name>");
	add_escaped(b, d->name, strlen(d->name));
	buf_adds(b, "</tool_name>\n<arguments>\n");
	args = d->schema != NULL ? gen(w, d->schema, &st) : NULL;
	if (json_is_object(args))
		json_object_foreach(args, k, v)
			if (xml_name(k))
				xml_value(b, k, v, 2);
	json_decref(args);
	buf_adds(b, "</arguments>\n</tool>\n");
}

static const char rules[] =
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

void
tooldefs_prompt(const struct tooldefs *defs, struct buf *b)
{
	struct stack st = { { NULL }, 0 };
	struct walk w[1];
	const struct tooldef *d;
	const json_t *top;
	char *base;
	size_t i;

	buf_adds(b, rules);
	if (defs == NULL || defs->n == 0)
		return;
	buf_adds(b, "\n# Tools\n");
	w->docs = json_object();
	w->where = json_object();
	for (i = 0; i < defs->n; i++) {
		d = &defs->v[i];
		/* without the working directory, references stay local */
		base = jsschema_file_uri(d->file);
		w->root = d->schema;
		w->base = base != NULL ? base : "";
		walk_index(w, d->schema, w->base);
		buf_printf(b, "\n## %s\n\n", d->name);
		if (d->description != NULL && *d->description != '\0') {
			add_text(b, d->description, 0);
			buf_adds(b, "\n\n");
		}
		top = d->schema != NULL ? nested(w, d->schema, 0) : NULL;
		if (d->schema == NULL)
			buf_adds(b, "Parameters: not described.\n");
		else if (top == NULL)
			buf_adds(b, "Parameters: none.\n");
		else {
			buf_adds(b, "Parameters:\n");
			list_props(b, w, top, 0, &st);
		}
		buf_adds(b, "\nExample:\n\n");
		example(b, w, d);
		free(base);
	}
	json_decref(w->docs);
	json_decref(w->where);
}
