/*
 * jsschema_compile: a JSON Schema compiled into nodes, each resource in
 * its dialect: Draft-04, Draft-06, Draft-07, 2019-09 or 2020-12.
 *
 * jsschema_compile walks the schema once: the index gives every
 * subschema its base URI (RFC 3986 resolution of "$id" against the
 * enclosing base) and its dialect, and registers the URIs that "$id"s
 * and anchors name; the documents that "$ref" reaches are loaded (the
 * schemas given as files first, each known by its file: URI and its
 * "$id"s; the built-in meta-schemas; files under a ref map; the local
 * file a file: URI names); and each subschema turns into a node whose
 * keywords are ready to run (numbers, compiled patterns, child nodes).
 * A "$ref" points at the target's node, so cycles in the reference
 * graph cost nothing at compile time. jsschema_validate then walks
 * nodes only.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/xalloc.h"
#include "schema/jsschema.h"
#include "schema/jsschema_format.h"
#include "schema/jsschema_int.h"
#include "schema/jsschema_regex.h"

/* The names of the types, in the order of the T_* bits. */
static const char *const type_names[] = {
	"null", "boolean", "object", "array", "number", "string", "integer"
};

/* ---- small helpers ---- */

static char *
keep(struct jsschema *js, char *s)
{
	js->strs = xreallocarray(js->strs, js->nstrs + 1, sizeof(*js->strs));
	js->strs[js->nstrs++] = s;
	return s;
}

/* "/kw/name" with name escaped as a JSON Pointer token. */
static const char *
seg_key(struct jsschema *js, const char *kw, const char *name)
{
	struct buf b = BUF_INIT;

	buf_addc(&b, '/');
	buf_adds(&b, kw);
	buf_addc(&b, '/');
	jss_pointer_escape(&b, name, strlen(name));
	return keep(js, buf_cstr(&b));
}

static const char *
seg_idx(struct jsschema *js, const char *kw, size_t i)
{
	struct buf b = BUF_INIT;

	buf_printf(&b, "/%s/%zu", kw, i);
	return keep(js, buf_cstr(&b));
}

/* ---- compiling ---- */

static struct node *compile(struct cctx *, const json_t *, const char *,
    const struct kpath *);

/* The node a "$ref" reaches, loading documents as needed; NULL on error. */
static struct node *
resolve_ref(struct cctx *cc, const char *base, const char *ref,
    const struct kpath *where)
{
	struct jsschema *js = cc->js;
	char *abs, *hash, *frag;
	const json_t *t = NULL, *doc;
	const char *saved;
	struct sinfo *si;
	struct node *n = NULL;
	struct dial in;

	abs = jss_drop_empty_frag(jsschema_uri_resolve(base, ref));
	hash = strchr(abs, '#');
	frag = hash != NULL ? hash + 1 : NULL;
	if (hash != NULL)
		*hash = '\0';
	if ((doc = jss_uri_schema(js, abs)) == NULL) {
		if (jss_load_doc(cc, abs, where) == -1)
			goto out;
		doc = jss_uri_schema(js, abs);
	}
	if (frag == NULL || frag[0] == '\0')
		t = doc;
	else if (frag[0] == '/')
		t = jss_pointer_walk(doc, frag);
	else {
		*hash = '#';
		t = jss_uri_schema(js, abs);
	}
	if (hash != NULL)
		*hash = '#';
	if (t == NULL) {
		if (strcmp(ref, abs) == 0)
			jss_compile_error(cc, where, "cannot resolve $ref "
			    "\"%s\"", ref);
		else
			jss_compile_error(cc, where, "cannot resolve $ref "
			    "\"%s\" (\"%s\")", ref, abs);
		goto out;
	}
	if ((si = jss_index_get(js, t)) == NULL) {
		if (hash != NULL)
			*hash = '\0';
		if ((si = jss_index_get(js, doc)) != NULL) {
			in.draft = si->draft;
			in.vocab = si->vocab;
		} else {
			in.draft = js->draft;
			in.vocab = jss_dialect_of(js->draft)->vocab;
		}
		in.res = doc;
		jss_index_schema(js, t, abs, &in, 0);
		if ((si = jss_index_get(js, t)) == NULL) {
			jss_compile_error(cc, where, "$ref \"%s\" does not "
			    "point at a schema", ref);
			goto out;
		}
	}
	saved = cc->lastref;
	cc->lastref = ref;
	n = compile(cc, t, si->base, where);
	cc->lastref = saved;
out:
	free(abs);
	return n;
}

/*
 * The pattern text (quoted) at where did not compile, and err says why:
 * an invalid pattern, or PCRE2 that cannot be loaded, which is trouble
 * rather than a fault of the schema (when it is the first error).
 */
static void
bad_pattern(struct cctx *cc, const struct kpath *where, const char *text,
    const char *err)
{
	if (jsschema_regex_trouble() == NULL) {
		jss_compile_error(cc, where, "invalid pattern %s: %s", text,
		    err);
		return;
	}
	if (!cc->failed)
		cc->trouble = 1;
	jss_compile_error(cc, where, "pattern %s cannot be compiled: %s",
	    text, err);
}

static int
type_bit(const json_t *t)
{
	size_t i;

	if (!json_is_string(t))
		return 0;
	for (i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
		if (strcmp(json_string_value(t), type_names[i]) == 0)
			return 1 << i;
	return 0;
}

/* A non-negative integer keyword (2.0 counts), or -1 when absent. */
static long long
get_count(struct cctx *cc, const json_t *s, const char *kw,
    const struct kpath *where)
{
	const json_t *v = json_object_get(s, kw);
	double d;

	if (v == NULL)
		return -1;
	if (json_is_integer(v) && json_integer_value(v) >= 0)
		return json_integer_value(v);
	if (json_is_real(v)) {
		d = json_real_value(v);
		if (d >= 0 && d == floor(d) && d < 9e18)
			return (long long)d;
	}
	jss_compile_error(cc, where, "\"%s\" must be a non-negative integer",
	    kw);
	return -1;
}

static const json_t *
get_number(struct cctx *cc, const json_t *s, const char *kw,
    const struct kpath *where)
{
	const json_t *v = json_object_get(s, kw);

	if (v != NULL && !json_is_number(v)) {
		jss_compile_error(cc, where, "\"%s\" must be a number", kw);
		return NULL;
	}
	return v;
}

/*
 * "exclusiveMaximum" (or Minimum): a number in Draft-06 and later, set
 * in *excl; Draft-04's boolean, which makes *bound exclusive.
 */
static void
get_exclusive(struct cctx *cc, const json_t *s, const char *kw,
    const json_t **bound, const json_t **excl, const struct kpath *where)
{
	const json_t *v = json_object_get(s, kw);

	*excl = NULL;
	if (v == NULL)
		return;
	if (jss_dialect_of(cc->draft)->kw & KW_XBOOL) {
		if (!json_is_boolean(v))
			jss_compile_error(cc, where, "\"%s\" must be a boolean "
			    "in Draft-04", kw);
		else if (json_is_true(v)) {
			*excl = *bound;
			*bound = NULL;
		}
	} else if (json_is_boolean(v))
		jss_compile_error(cc, where, "\"%s\" must be a number in %s (a "
		    "boolean is Draft-04's form)", kw,
		    jss_dialect_name(cc->draft));
	else
		*excl = get_number(cc, s, kw, where);
}

/* Whether the dialect d defines the format name (one jsschema_format knows). */
static int
format_of(const struct dialect *d, const char *name)
{
	const char *p;
	size_t n = strlen(name);

	if (d->formats == NULL)
		return 1;
	/* "" and "a b" are no format, though the list's spaces would match */
	if (n == 0 || strchr(name, ' ') != NULL)
		return 0;
	for (p = strstr(d->formats, name); p != NULL;
	    p = strstr(p + 1, name))
		if (p[-1] == ' ' && p[n] == ' ')
			return 1;
	return 0;
}

static void
sub(struct cctx *cc, const json_t *s, const char *kw, const char *base,
    struct child *c, const struct kpath *where)
{
	const json_t *v = json_object_get(s, kw);
	struct kpath k;
	struct buf b = BUF_INIT;

	if (v == NULL)
		return;
	buf_addc(&b, '/');
	buf_adds(&b, kw);
	c->seg = keep(cc->js, buf_cstr(&b));
	k.up = where;
	k.seg = c->seg;
	c->n = compile(cc, v, base, &k);
}

static struct child *
sub_array(struct cctx *cc, const json_t *s, const char *kw, const char *base,
    size_t *np, const struct kpath *where)
{
	const json_t *a = json_object_get(s, kw);
	struct child *v;
	struct kpath k;
	size_t i;

	*np = 0;
	if (a == NULL)
		return NULL;
	if (!json_is_array(a) || json_array_size(a) == 0) {
		jss_compile_error(cc, where, "\"%s\" must be a non-empty array "
		    "of schemas", kw);
		return NULL;
	}
	v = xcalloc(json_array_size(a), sizeof(*v));
	*np = json_array_size(a);
	for (i = 0; i < *np; i++) {
		v[i].seg = seg_idx(cc->js, kw, i);
		k.up = where;
		k.seg = v[i].seg;
		v[i].n = compile(cc, json_array_get(a, i), base, &k);
	}
	return v;
}

static int
string_array(const json_t *a)
{
	size_t i;

	if (!json_is_array(a))
		return 0;
	for (i = 0; i < json_array_size(a); i++)
		if (!json_is_string(json_array_get(a, i)))
			return 0;
	return 1;
}

static void
prop_index(struct node *n)
{
	size_t i, j, cap = 8;

	while (cap < n->nprops * 2)
		cap *= 2;
	n->propslot = xcalloc(cap, sizeof(*n->propslot));
	n->propcap = cap;
	for (i = 0; i < n->nprops; i++) {
		j = jss_str_hash(n->propnames_v[i], strlen(n->propnames_v[i])) &
		    (cap - 1);
		while (n->propslot[j] != 0)
			j = (j + 1) & (cap - 1);
		n->propslot[j] = i + 1;
	}
}

/* The schemas of kw (an array), in v: "items", "prefixItems". */
static void
compile_itemv(struct cctx *cc, struct node *n, const json_t *s,
    const char *kw, const char *base, const struct kpath *where)
{
	const json_t *v = json_object_get(s, kw);
	struct kpath kp;
	size_t i;

	n->items_array = 1;
	n->itemskw = kw;
	n->nitems = json_array_size(v);
	n->itemv = xcalloc(n->nitems + 1, sizeof(*n->itemv));
	for (i = 0; i < n->nitems; i++) {
		n->itemv[i].seg = seg_idx(cc->js, kw, i);
		kp.up = where;
		kp.seg = n->itemv[i].seg;
		n->itemv[i].n = compile(cc, json_array_get(v, i), base, &kp);
	}
}

/*
 * "dependencies" (kind 0: names or a schema per property),
 * "dependentRequired" (1: names) or "dependentSchemas" (2: a schema).
 */
static void
compile_deps(struct cctx *cc, struct node *n, const json_t *s,
    const char *kw, int kind, const char *base, const struct kpath *where)
{
	const json_t *v = json_object_get(s, kw);
	const char *k;
	json_t *jv;
	struct kpath kp;
	size_t i;

	if (v == NULL)
		return;
	if (!json_is_object(v)) {
		jss_compile_error(cc, where, "\"%s\" must be an object", kw);
		return;
	}
	n->deps = xreallocarray(n->deps, n->ndeps + json_object_size(v) + 1,
	    sizeof(*n->deps));
	json_object_foreach((json_t *)v, k, jv) {
		i = n->ndeps++;
		memset(&n->deps[i], 0, sizeof(n->deps[i]));
		n->deps[i].name = k;
		n->deps[i].c.seg = seg_key(cc->js, kw, k);
		kp.up = where;
		kp.seg = n->deps[i].c.seg;
		if (kind != 2 && json_is_array(jv)) {
			if (!string_array(jv))
				jss_compile_error(cc, &kp, "must be an array "
				    "of names%s", kind == 0 ? " or a schema" :
				    "");
			n->deps[i].req = jv;
		} else if (kind == 1)
			jss_compile_error(cc, &kp, "must be an array of names");
		else
			n->deps[i].c.n = compile(cc, jv, base, &kp);
	}
}

/*
 * The assertions of the validation vocabulary (all of them before
 * 2019-09; a meta-schema's "$vocabulary" may leave them out since).
 */
static void
compile_assertions(struct cctx *cc, struct node *n, const json_t *s,
    const char *base, const struct kpath *where)
{
	const struct dialect *d = jss_dialect_of(cc->draft);
	const json_t *v, *t;
	struct buf b = BUF_INIT;
	char err[256];
	uint64_t h;
	size_t i;

	if ((v = json_object_get(s, "type")) != NULL) {
		n->typev = v;
		if (json_is_array(v)) {
			for (i = 0; i < json_array_size(v); i++) {
				t = json_array_get(v, i);
				if (type_bit(t) == 0)
					jss_compile_error(cc, where, "unknown "
					    "type in \"type\"");
				n->types |= (unsigned)type_bit(t);
			}
		} else if ((n->types = (unsigned)type_bit(v)) == 0)
			jss_compile_error(cc, where, "\"type\" must be a type "
			    "name or an array of them");
	}
	if ((v = json_object_get(s, "enum")) != NULL) {
		if (!json_is_array(v))
			jss_compile_error(cc, where, "\"enum\" must be an "
			    "array");
		else {
			n->enumv = v;
			n->enumset = jss_vset_new();
			for (i = 0; i < json_array_size(v); i++) {
				t = json_array_get(v, i);
				h = jss_json_hash(t);
				if (jss_vset_find(n->enumset, t, h) == -1)
					jss_vset_add(n->enumset, t, i, h);
			}
		}
	}
	if (d->kw & KW_CONST)
		n->constv = json_object_get(s, "const");
	if ((n->multipleof = get_number(cc, s, "multipleOf", where)) != NULL) {
		if (json_number_value(n->multipleof) == 0) {
			/* strtod reads 1e-400 as 0: say so */
			jss_compile_error(cc, where, "\"multipleOf\" must be "
			    "greater than 0, found 0 (or a number too small "
			    "for a double, such as 1e-400, which reads as 0)");
			n->multipleof = NULL;
		} else if (json_number_value(n->multipleof) < 0) {
			jss_compile_error(cc, where, "\"multipleOf\" must be "
			    "greater than 0");
			n->multipleof = NULL;
		} else
			jss_decimal_of(n->multipleof, &n->mul);
	}
	n->maximum = get_number(cc, s, "maximum", where);
	n->minimum = get_number(cc, s, "minimum", where);
	get_exclusive(cc, s, "exclusiveMaximum", &n->maximum, &n->xmaximum,
	    where);
	get_exclusive(cc, s, "exclusiveMinimum", &n->minimum, &n->xminimum,
	    where);
	n->maxlength = get_count(cc, s, "maxLength", where);
	n->minlength = get_count(cc, s, "minLength", where);
	n->maxitems = get_count(cc, s, "maxItems", where);
	n->minitems = get_count(cc, s, "minItems", where);
	n->maxprops = get_count(cc, s, "maxProperties", where);
	n->minprops = get_count(cc, s, "minProperties", where);
	if (d->kw & KW_2019) {
		n->maxcontains = get_count(cc, s, "maxContains", where);
		n->mincontains = get_count(cc, s, "minContains", where);
		compile_deps(cc, n, s, "dependentRequired", 1, base, where);
	}
	if ((v = json_object_get(s, "pattern")) != NULL) {
		if (!json_is_string(v))
			jss_compile_error(cc, where, "\"pattern\" must be a "
			    "string");
		else {
			n->patsrc = json_string_value(v);
			n->pattern = jsschema_regex_compile(n->patsrc,
			    json_string_length(v), err, sizeof(err));
			if (n->pattern == NULL) {
				jss_str_text(&b, n->patsrc,
				    json_string_length(v));
				bad_pattern(cc, where, buf_cstr(&b), err);
				buf_free(&b);
			}
		}
	}
	if ((v = json_object_get(s, "uniqueItems")) != NULL)
		n->uniqueitems = json_is_true(v);
	if ((v = json_object_get(s, "required")) != NULL) {
		if (!string_array(v))
			jss_compile_error(cc, where, "\"required\" must be an "
			    "array of strings");
		else
			n->required = v;
	}
}

/* A node without subschemas (but for its references). */
static int
no_subschemas(const struct node *n)
{
	return n->items.n == NULL && n->nitems == 0 &&
	    n->additem.n == NULL && n->contains.n == NULL &&
	    n->addprops.n == NULL && n->propnames.n == NULL &&
	    n->ifs.n == NULL && n->nots.n == NULL && n->nallof == 0 &&
	    n->nanyof == 0 && n->noneof == 0 && n->nprops == 0 &&
	    n->npprops == 0 && n->ndeps == 0 && n->uitems.n == NULL &&
	    n->uprops.n == NULL;
}

/*
 * A node whose one keyword is "$ref" (2019-09 and later let others stand
 * beside it): applied as the reference alone, as up to Draft-07, which
 * keeps the C stack that a chain of references takes as small.
 */
static int
ref_alone(const struct node *n)
{
	return n->ref != NULL && n->dref == NULL && no_subschemas(n) &&
	    n->types == 0 && n->enumv == NULL && n->constv == NULL &&
	    n->multipleof == NULL && n->maximum == NULL &&
	    n->xmaximum == NULL && n->minimum == NULL && n->xminimum == NULL &&
	    n->maxlength < 0 && n->minlength < 0 && n->maxitems < 0 &&
	    n->minitems < 0 && n->maxprops < 0 && n->minprops < 0 &&
	    n->maxcontains < 0 && n->mincontains < 0 && n->pattern == NULL &&
	    n->format == NULL && !n->uniqueitems && n->required == NULL;
}

/* Whether "format" asserts here, by the option and the vocabularies. */
static int
format_asserts(const struct cctx *cc, const json_t *v)
{
	const struct dialect *d = jss_dialect_of(cc->draft);

	if (cc->js->format == JSSCHEMA_FORMAT_ANNOTATE || !json_is_string(v) ||
	    jsschema_format_check(json_string_value(v), "", 0) == -1)
		return 0;
	if (cc->js->format == JSSCHEMA_FORMAT_ASSERT)
		return 1;
	return (cc->vocab & VOC_FORMAT) && format_of(d, json_string_value(v));
}

static void
compile_object(struct cctx *cc, struct node *n, const json_t *s,
    const char *base, const struct kpath *where)
{
	struct jsschema *js = cc->js;
	const struct dialect *d = jss_dialect_of(cc->draft);
	const json_t *v;
	const char *k;
	json_t *jv;
	struct kpath kp;
	struct buf b = BUF_INIT;
	char err[256];
	size_t i;

	n->maxlength = n->minlength = n->maxitems = n->minitems = -1;
	n->maxprops = n->minprops = n->maxcontains = n->mincontains = -1;
	if (cc->vocab & VOC_VALIDATION)
		compile_assertions(cc, n, s, base, where);
	if ((v = json_object_get(s, "format")) != NULL &&
	    format_asserts(cc, v))
		n->format = json_string_value(v);
	else if (v != NULL && cc->js->format == JSSCHEMA_FORMAT_DIALECT &&
	    json_is_string(v) && format_of(d, json_string_value(v)) &&
	    jsschema_format_check(json_string_value(v), "", 0) != -1) {
		/* an annotation by the dialect: jsschema_validate_notes */
		n->fnote = json_string_value(v);
		n->fnote_draft = cc->draft;
	}
	n->itemskw = "items";
	if (d->kw & KW_2020) {
		v = json_object_get(s, "prefixItems");
		if (v != NULL && (!json_is_array(v) ||
		    json_array_size(v) == 0))
			jss_compile_error(cc, where, "\"prefixItems\" must be "
			    "a non-empty array of schemas");
		else if (v != NULL) {
			compile_itemv(cc, n, s, "prefixItems", base, where);
			sub(cc, s, "items", base, &n->additem, where);
		} else
			sub(cc, s, "items", base, &n->items, where);
		n->contains_ann = 1;
	} else if (json_is_array(json_object_get(s, "items"))) {
		compile_itemv(cc, n, s, "items", base, where);
		sub(cc, s, "additionalItems", base, &n->additem, where);
	} else
		sub(cc, s, "items", base, &n->items, where);
	if (d->kw & KW_CONST) {
		sub(cc, s, "contains", base, &n->contains, where);
		sub(cc, s, "propertyNames", base, &n->propnames, where);
	}
	sub(cc, s, "additionalProperties", base, &n->addprops, where);
	sub(cc, s, "not", base, &n->nots, where);
	if ((d->kw & KW_IF) && json_object_get(s, "if") != NULL) {
		sub(cc, s, "if", base, &n->ifs, where);
		sub(cc, s, "then", base, &n->thens, where);
		sub(cc, s, "else", base, &n->elses, where);
	}
	if (d->kw & KW_2019) {
		sub(cc, s, "unevaluatedItems", base, &n->uitems, where);
		sub(cc, s, "unevaluatedProperties", base, &n->uprops, where);
		compile_deps(cc, n, s, "dependentSchemas", 2, base, where);
	}
	n->allof = sub_array(cc, s, "allOf", base, &n->nallof, where);
	n->anyof = sub_array(cc, s, "anyOf", base, &n->nanyof, where);
	n->oneof = sub_array(cc, s, "oneOf", base, &n->noneof, where);
	if ((v = json_object_get(s, "properties")) != NULL) {
		if (!json_is_object(v))
			jss_compile_error(cc, where, "\"properties\" must be "
			    "an object");
		else {
			n->props = xcalloc(json_object_size(v) + 1,
			    sizeof(*n->props));
			n->propnames_v = xcalloc(json_object_size(v) + 1,
			    sizeof(*n->propnames_v));
			json_object_foreach((json_t *)v, k, jv) {
				i = n->nprops++;
				n->propnames_v[i] = k;
				n->props[i].seg = seg_key(js, "properties", k);
				kp.up = where;
				kp.seg = n->props[i].seg;
				n->props[i].n = compile(cc, jv, base, &kp);
			}
			prop_index(n);
		}
	}
	if ((v = json_object_get(s, "patternProperties")) != NULL) {
		if (!json_is_object(v))
			jss_compile_error(cc, where, "\"patternProperties\" "
			    "must be an object");
		else {
			n->pprops = xcalloc(json_object_size(v) + 1,
			    sizeof(*n->pprops));
			json_object_foreach((json_t *)v, k, jv) {
				i = n->npprops++;
				n->pprops[i].pat = k;
				n->pprops[i].c.seg = seg_key(js,
				    "patternProperties", k);
				kp.up = where;
				kp.seg = n->pprops[i].c.seg;
				n->pprops[i].re = jsschema_regex_compile(k, strlen(k),
				    err, sizeof(err));
				if (n->pprops[i].re == NULL) {
					/* the key, which may be long, quoted */
					kp.seg = "/patternProperties";
					jss_str_text(&b, k, strlen(k));
					bad_pattern(cc, &kp, buf_cstr(&b),
					    err);
					buf_free(&b);
					kp.seg = n->pprops[i].c.seg;
				}
				n->pprops[i].c.n = compile(cc, jv, base, &kp);
			}
		}
	}
	compile_deps(cc, n, s, "dependencies", 0, base, where);
	n->leaf = no_subschemas(n) && n->ref == NULL && n->dref == NULL;
	/* Compiled now: a "$ref" in them that cannot resolve is an error. */
	for (i = 0; i < 2; i++) {
		k = i == 0 ? "definitions" : "$defs";
		if (i == 1 && !(d->kw & KW_2019))
			break;
		if ((v = json_object_get(s, k)) == NULL ||
		    !json_is_object(v))
			continue;
		json_object_foreach((json_t *)v, k, jv) {
			kp.up = where;
			kp.seg = seg_key(js, i == 0 ? "definitions" : "$defs",
			    k);
			compile(cc, jv, base, &kp);
		}
	}
}

static struct node *
new_node(struct jsschema *js)
{
	struct node *n;

	n = xcalloc(1, sizeof(*n));
	js->nodes = xreallocarray(js->nodes, js->nnodes + 1,
	    sizeof(*js->nodes));
	n->id = js->nnodes;
	js->nodes[js->nnodes++] = n;
	return n;
}

/*
 * The error for compile() at its depth limit. The path to here may be
 * as long as the limit: it is given up to the first "$ref" (where a
 * chain of references starts), or cut after a few segments.
 */
static struct node *
too_deep(struct cctx *cc, const struct kpath *where)
{
	const struct kpath *k;
	const char **v;
	struct buf b = BUF_INIT;
	size_t n = 0, i;

	if (!cc->failed) {
		for (k = where; k != NULL; k = k->up)
			n++;
		v = xreallocarray(NULL, n + 1, sizeof(*v));
		i = n;
		for (k = where; k != NULL; k = k->up)
			v[--i] = k->seg;
		for (i = 0; i < n; i++) {
			if (i == 16) {
				buf_adds(&b, "/...");
				break;
			}
			buf_adds(&b, v[i]);
			if (strcmp(v[i], "/$ref") == 0)
				break;
		}
		free(v);
		if (b.len > 0)
			buf_adds(&b, ": ");
		buf_printf(&b, "subschemas nest more than %d deep, counting "
		    "each $ref followed", JSSCHEMA_MAX_COMPILE_DEPTH);
		if (cc->lastref != NULL) {
			buf_adds(&b, " (the last one: ");
			jss_str_text(&b, cc->lastref, strlen(cc->lastref));
			buf_addc(&b, ')');
		}
		jss_compile_error(cc, NULL, "%s", buf_cstr(&b));
		buf_free(&b);
	}
	cc->failed++;
	return new_node(cc->js);
}

/* The index in js->res of the resource whose root is r, added if new. */
static size_t
res_id(struct jsschema *js, const json_t *r)
{
	size_t i;

	for (i = 0; i < js->nres; i++)
		if (js->res[i] == r)
			return i;
	js->res = xreallocarray(js->res, js->nres + 1, sizeof(*js->res));
	js->res[js->nres] = r;
	return js->nres++;
}

/*
 * 2020-12's "$dynamicRef" and 2019-09's "$recursiveRef": the target they
 * resolve to as a "$ref" does, and the anchor that makes them dynamic
 * (the target declares the "$dynamicAnchor" the fragment names, or
 * "$recursiveAnchor": true), or none: then they are a "$ref".
 */
static void
compile_dynref(struct cctx *cc, struct node *n, const json_t *s,
    const struct sinfo *si, const struct kpath *where)
{
	int y2020 = jss_dialect_of(cc->draft)->kw & KW_2020;
	const char *kw = y2020 ? "$dynamicRef" : "$recursiveRef", *frag;
	const json_t *r = json_object_get(s, kw), *a;
	struct kpath k;

	if (r == NULL)
		return;
	if (!json_is_string(r)) {
		jss_compile_error(cc, where, "\"%s\" must be a string", kw);
		return;
	}
	n->dseg = y2020 ? "/$dynamicRef" : "/$recursiveRef";
	k.up = where;
	k.seg = n->dseg;
	n->dref = resolve_ref(cc, si->base, json_string_value(r), &k);
	if (n->dref == NULL)
		return;
	n->dref->target = 1;
	if (!json_is_object(n->dref->j))
		return;
	if (y2020) {
		frag = strchr(json_string_value(r), '#');
		a = json_object_get(n->dref->j, "$dynamicAnchor");
		if (frag != NULL && json_is_string(a) &&
		    strcmp(frag + 1, json_string_value(a)) == 0)
			n->dname = json_string_value(a);
	} else if (json_is_true(json_object_get(n->dref->j,
	    "$recursiveAnchor")))
		n->dname = "";
	if (n->dname != NULL)
		cc->js->dynamic = 1;
}

/* The node of schema s, one compile() deeper, made for the index entry si. */
static struct node *
compile_node(struct cctx *cc, const json_t *s, struct sinfo *si,
    const struct kpath *where)
{
	struct node *n;
	const json_t *ref;
	struct kpath k;
	int y2019;

	n = new_node(cc->js);
	n->j = s;
	si->node = n;
	if (json_is_boolean(s)) {
		n->kind = json_is_true(s) ? NODE_TRUE : NODE_FALSE;
		return n;
	}
	if (!json_is_object(s)) {
		n->kind = NODE_TRUE;
		jss_compile_error(cc, where, "a schema must be an object or a "
		    "boolean");
		return n;
	}
	n->kind = NODE_OBJECT;
	n->res = res_id(cc->js, si->res);
	y2019 = jss_dialect_of(cc->draft)->kw & KW_2019;
	if ((ref = json_object_get(s, "$ref")) != NULL) {
		if (!json_is_string(ref)) {
			jss_compile_error(cc, where, "\"$ref\" must be a "
			    "string");
			n->kind = NODE_TRUE;
			return n;
		}
		k.up = where;
		k.seg = "/$ref";
		n->ref = resolve_ref(cc, si->base, json_string_value(ref), &k);
		if (n->ref != NULL)
			n->ref->target = 1;
		if (!y2019) {
			n->refonly = 1;
			if (n->ref == NULL)
				n->kind = NODE_TRUE;
			return n;
		}
	}
	if (y2019)
		compile_dynref(cc, n, s, si, where);
	compile_object(cc, n, s, si->base, where);
	n->refonly = ref_alone(n);
	return n;
}

/* The error for a resource whose "$schema" names no supported dialect. */
static void
dialect_error(struct cctx *cc, const struct sinfo *si,
    const struct kpath *where)
{
	struct buf b = BUF_INIT;
	const char *uri;

	if (si->draft == DRAFT_NOTSTRING) {
		jss_compile_error(cc, where, "\"$schema\" must be a string");
		return;
	}
	uri = si->schemav != NULL ? json_string_value(si->schemav) : "";
	jss_str_text(&b, uri, strlen(uri));
	if (jss_custom_meta(cc->js, uri) != NULL && strchr(uri, '#') == NULL &&
	    jss_uri_schema(cc->js, jss_custom_meta(cc->js, uri)->uri) != NULL)
		jss_compile_error(cc, where, "\"$schema\" %s: a meta-schema "
		    "whose own \"$schema\" is neither 2019-09 nor 2020-12",
		    buf_cstr(&b));
	else
		jss_compile_error(cc, where, "unknown \"$schema\" %s: not a "
		    "dialect known here (Draft-04, Draft-06, Draft-07, "
		    "2019-09, 2020-12), and no meta-schema with that URI is "
		    "loaded (give it with -r FILE)", buf_cstr(&b));
	buf_free(&b);
}

/*
 * The node of schema s (whose base URI is base unless the index knows
 * better): made once per json_t, so that references share it and cycles
 * end. JSSCHEMA_MAX_COMPILE_DEPTH calls deep at the most.
 */
static struct node *
compile(struct cctx *cc, const json_t *s, const char *base,
    const struct kpath *where)
{
	struct jsschema *js = cc->js;
	struct sinfo *si;
	struct node *n;
	struct dial in, saved;

	if ((si = jss_index_get(js, s)) == NULL) {
		in.draft = cc->draft;
		in.vocab = cc->vocab;
		in.res = cc->res;
		jss_index_schema(js, s, base, &in, 0);
		if ((si = jss_index_get(js, s)) == NULL) {
			si = jss_index_add(js, s, base);
			si->draft = in.draft;
			si->vocab = in.vocab;
			si->res = in.res;
		}
	}
	if (json_is_boolean(s) && !(jss_dialect_of(cc->draft)->kw &
	    KW_BOOLSCHEMA) && (where == NULL ||
	    (strcmp(where->seg, "/additionalItems") != 0 &&
	    strcmp(where->seg, "/additionalProperties") != 0)))
		jss_compile_error(cc, where, "a schema must be an object in %s "
		    "(a boolean only as \"additionalItems\" or "
		    "\"additionalProperties\")", jss_dialect_name(cc->draft));
	if (si->node != NULL)
		return si->node;
	if (json_is_object(s) && !jss_draft_supported(si->draft)) {
		dialect_error(cc, si, where);
		return new_node(js);
	}
	if (cc->depth == JSSCHEMA_MAX_COMPILE_DEPTH)
		return too_deep(cc, where);
	cc->depth++;
	saved.draft = cc->draft;
	saved.vocab = cc->vocab;
	saved.res = cc->res;
	if (json_is_object(s)) {
		cc->draft = si->draft;
		cc->vocab = si->vocab;
		cc->res = si->res;
	}
	n = compile_node(cc, s, si, where);
	cc->draft = saved.draft;
	cc->vocab = saved.vocab;
	cc->res = saved.res;
	cc->depth--;
	return n;
}

static void
node_free(struct node *n)
{
	size_t i;

	jsschema_regex_free(n->pattern);
	for (i = 0; i < n->npprops; i++)
		jsschema_regex_free(n->pprops[i].re);
	free(n->itemv);
	free(n->allof);
	free(n->anyof);
	free(n->oneof);
	free(n->props);
	free(n->propnames_v);
	free(n->propslot);
	free(n->pprops);
	free(n->deps);
	jss_vset_free(n->enumset);
	free(n);
}

void
jsschema_free(struct jsschema *js)
{
	size_t i;

	if (js == NULL)
		return;
	for (i = 0; i < js->nnodes; i++)
		node_free(js->nodes[i]);
	free(js->nodes);
	for (i = 0; i < js->scap; i++)
		if (js->stab[i] != NULL) {
			free(js->stab[i]->base);
			free(js->stab[i]);
		}
	free(js->stab);
	for (i = 0; i < js->nregs; i++)
		free(js->regs[i].uri);
	free(js->regs);
	free(js->dup);
	for (i = 0; i < js->ncmetas; i++)
		free(js->cmetas[i].uri);
	free(js->cmetas);
	free(js->dyn);
	free(js->res);
	free(js->resdyn);
	for (i = 0; i < js->nstrs; i++)
		free(js->strs[i]);
	free(js->strs);
	for (i = 0; i < js->nrefmap; i++) {
		free((char *)js->refmap[i].uri);
		free((char *)js->refmap[i].dir);
	}
	free(js->refmap);
	free(js->rootdir);
	for (i = 0; i < js->ndocs; i++)
		json_decref(js->docs[i]);
	free(js->docs);
	free(js);
}

/*
 * When a "$dynamicRef" is dynamic, the schemas of every dynamic anchor
 * are compiled, and the resources that declare them are marked: only
 * those enter the dynamic scope when validating.
 */
static void
compile_dyn(struct cctx *cc)
{
	struct jsschema *js = cc->js;
	struct sinfo *si;
	struct node *n;
	size_t i;

	if (!js->dynamic)
		return;
	for (i = 0; i < js->ndyn && !cc->failed; i++) {
		si = jss_index_get(js, js->dyn[i].s);
		cc->draft = si->draft;
		cc->vocab = si->vocab;
		cc->res = si->res;
		/* compiling may load documents, whose anchors move js->dyn */
		n = compile(cc, js->dyn[i].s, si->base, NULL);
		js->dyn[i].node = n;
	}
	js->resdyn = xcalloc(js->nres + 1, 1);
	for (i = 0; i < js->ndyn && !cc->failed; i++)
		js->resdyn[js->dyn[i].node->res] = 1;
}

struct jsschema *
jsschema_compile(json_t *schema, const char *base_uri,
    const struct jsschema_opts *opts, char *err, size_t errlen)
{
	return jsschema_compile_below(schema, base_uri, NULL, opts, err,
	    errlen);
}

struct jsschema *
jsschema_compile_below(json_t *schema, const char *base_uri,
    const char *root, const struct jsschema_opts *opts, char *err,
    size_t errlen)
{
	struct jsschema *js;
	struct cctx cc;
	struct dial rootd;
	char *base;
	size_t i;

	if (errlen > 0)
		err[0] = '\0';
	js = xcalloc(1, sizeof(*js));
	js->draft = JSSCHEMA_DRAFT7;
	if (opts != NULL) {
		js->format = opts->format;
		if (opts->draft != 0) {
			js->draft = opts->draft;
			js->draftgiven = 1;
		}
		if (opts->dialect != 0) {
			js->draft = opts->dialect;
			js->forceroot = schema;
		}
		if (opts->nrefmap > 0 && root == NULL) {
			js->refmap = xcalloc(opts->nrefmap,
			    sizeof(*js->refmap));
			for (i = 0; i < opts->nrefmap; i++) {
				js->refmap[i].uri =
				    xstrdup(opts->refmap[i].uri);
				js->refmap[i].dir =
				    xstrdup(opts->refmap[i].dir);
			}
			js->nrefmap = opts->nrefmap;
		}
	}
	cc.js = js;
	cc.refused = 0;
	cc.trouble = 0;
	cc.err = err;
	cc.errlen = errlen;
	cc.failed = 0;
	cc.depth = 0;
	cc.lastref = NULL;
	cc.draft = js->draft;
	cc.vocab = jss_draft_supported(js->draft) ?
	    jss_dialect_of(js->draft)->vocab : 0;
	cc.res = schema;
	jss_add_doc(js, json_incref(schema));
	if (!jss_draft_supported(js->draft)) {
		jss_compile_error(&cc, NULL, "draft %d is not known",
		    js->draft);
		jsschema_free(js);
		errno = EINVAL;
		return NULL;
	}
	if (root != NULL && (js->rootdir = realpath(root, NULL)) == NULL) {
		jss_compile_error(&cc, NULL, "%s: %s", root, strerror(errno));
		jsschema_free(js);
		errno = EINVAL;
		return NULL;
	}
	base = jss_drop_empty_frag(jsschema_uri_resolve("", base_uri != NULL ?
	    base_uri : ""));
	if (strchr(base, '#') != NULL)
		*strchr(base, '#') = '\0';
	jss_uri_register(js, base, schema);
	if ((opts == NULL || root != NULL ||
	    jss_load_files(&cc, opts->files, opts->nfiles) == 0) &&
	    jss_load_metas(&cc, schema) == 0 &&
	    (jss_root_dialect(js, schema, &rootd), opts == NULL ||
	    root != NULL || jss_index_files(&cc, opts->files, opts->nfiles,
	    &rootd) == 0)) {
		js->regmark = js->nregs;
		jss_index_document(js, schema, base, NULL);
		js->regmark = 0;
		if (js->dup != NULL)
			jss_compile_error(&cc, NULL, "a different schema with "
			    "the URI \"%s\" is already loaded", js->dup);
		else
			js->root = compile(&cc, schema, base, NULL);
	}
	if (!cc.failed)
		compile_dyn(&cc);
	free(base);
	if (cc.failed) {
		jsschema_free(js);
		errno = cc.trouble ? ELIBACC : cc.refused ? EACCES : EINVAL;
		return NULL;
	}
	return js;
}
