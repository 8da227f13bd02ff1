/*
 * jsschema_vtype: the keywords that apply to one type of instance:
 * numbers (multipleOf, maximum, minimum and their exclusive forms),
 * strings (maxLength, minLength, pattern, format), arrays (items,
 * prefixItems, additionalItems, maxItems, minItems, uniqueItems,
 * contains) and objects (maxProperties, minProperties, required,
 * properties, patternProperties, additionalProperties, dependencies,
 * dependentRequired, dependentSchemas, propertyNames). The walk in
 * jsschema_validate.c calls them for a value of their type; they call
 * back into it for the subschemas applied inside the value.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "schema/jsschema.h"
#include "schema/jsschema_format.h"
#include "schema/jsschema_int.h"
#include "schema/jsschema_regex.h"
#include "schema/jsschema_vint.h"

/* ---- small helpers ---- */

static unsigned long long
mulmod(unsigned long long a, unsigned long long b, unsigned long long m)
{
	unsigned long long r = 0;

	a %= m;
	while (b != 0) {
		if (b & 1) {
			r += a;
			if (r >= m)
				r -= m;
		}
		a += a;
		if (a >= m)
			a -= m;
		b >>= 1;
	}
	return r;
}

/* Exactly: is v (a number) an integer multiple of mul? */
static int
is_multiple(const json_t *v, const struct dec *mul)
{
	struct dec x;
	unsigned long long r, b;
	int d, k;

	jss_decimal_of(v, &x);
	if (x.m == 0)
		return 1;
	d = x.e - mul->e;
	if (d >= 0) {
		r = x.m % mul->m;
		for (k = 0; k < d && r != 0; k++)
			r = mulmod(r, 10, mul->m);
		return r == 0;
	}
	b = mul->m;
	for (k = 0; k < -d; k++) {
		if (b > ULLONG_MAX / 10)
			return 0;
		b *= 10;
	}
	return x.m % b == 0;
}

static const char *
plural(long long n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void
ann_set(struct ann *a, size_t i)
{
	if (a->bits == NULL)
		a->bits = xcalloc(a->n / 8 + 1, 1);
	a->bits[i / 8] |= (unsigned char)(1u << (i % 8));
}

/*
 * A "format" that is an annotation in its dialect and that the string v
 * fails: noted, on a run that makes errors (not in the branches that
 * anyOf, oneOf, not and if try quietly), when the caller asked.
 */
static void
note_push(struct vctx *c, const struct node *n, const struct ipath *ip,
    const struct kpath *kp, const json_t *v)
{
	struct jsschema_result *r = c->notes;
	struct jsschema_error *e;
	struct buf m = BUF_INIT;

	if (r == NULL || c->quiet || c->scoring ||
	    r->nerrors == JSSCHEMA_MAX_ERRORS)
		return;
	if (r->nerrors == c->notecap) {
		c->notecap = c->notecap ? c->notecap * 2 : 4;
		r->errors = xreallocarray(r->errors, c->notecap,
		    sizeof(*r->errors));
	}
	buf_adds(&m, "string ");
	jss_str_text(&m, json_string_value(v), json_string_length(v));
	buf_printf(&m, " is not a valid %s; \"format\" is an annotation in "
	    "%s", n->fnote, jss_dialect_name(n->fnote_draft));
	e = &r->errors[r->nerrors++];
	e->instance = jss_instance_location(ip);
	e->keyword = jss_keyword_location(kp, "/format");
	e->message = xstrdup(buf_cstr(&m));
	e->value = v;
	buf_free(&m);
}

/* ---- the keywords of each type ---- */

int
jss_v_number(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp)
{
	struct buf *m;
	int bad = 0;

	if (n->multipleof != NULL && !is_multiple(v, &n->mul)) {
		FAIL();
		m = jss_msg(c);
		jss_num_text(m, v);
		buf_adds(m, " is not a multiple of ");
		jss_num_text(m, n->multipleof);
		jss_err_push(c, ip, kp, "/multipleOf", v);
	}
	if (n->maximum != NULL && jss_num_cmp(v, n->maximum) > 0) {
		FAIL();
		m = jss_msg(c);
		jss_num_text(m, v);
		buf_adds(m, " is greater than the maximum ");
		jss_num_text(m, n->maximum);
		jss_err_push(c, ip, kp, "/maximum", v);
	}
	if (n->xmaximum != NULL && jss_num_cmp(v, n->xmaximum) >= 0) {
		FAIL();
		m = jss_msg(c);
		jss_num_text(m, v);
		buf_adds(m, " is not less than the exclusive maximum ");
		jss_num_text(m, n->xmaximum);
		jss_err_push(c, ip, kp, "/exclusiveMaximum", v);
	}
	if (n->minimum != NULL && jss_num_cmp(v, n->minimum) < 0) {
		FAIL();
		m = jss_msg(c);
		jss_num_text(m, v);
		buf_adds(m, " is less than the minimum ");
		jss_num_text(m, n->minimum);
		jss_err_push(c, ip, kp, "/minimum", v);
	}
	if (n->xminimum != NULL && jss_num_cmp(v, n->xminimum) <= 0) {
		FAIL();
		m = jss_msg(c);
		jss_num_text(m, v);
		buf_adds(m, " is not greater than the exclusive minimum ");
		jss_num_text(m, n->xminimum);
		jss_err_push(c, ip, kp, "/exclusiveMinimum", v);
	}
	return bad;
}

/*
 * The string v cannot be checked against the format fmt (a library it
 * needs cannot be loaded): validation stops, whatever the mode, with
 * this error alone, and says it could not tell.
 */
static int
cannot_check(struct vctx *c, const struct ipath *ip, const struct kpath *kp,
    const json_t *v, const char *fmt)
{
	struct jsschema_error *e;
	struct buf b = BUF_INIT;

	if (c->stop != NULL)
		return 1;
	buf_adds(&b, "string ");
	jss_str_text(&b, json_string_value(v), json_string_length(v));
	buf_printf(&b, " cannot be checked against the format %s: %s", fmt,
	    jsschema_format_trouble());
	e = xcalloc(1, sizeof(*e));
	e->instance = jss_instance_location(ip);
	e->keyword = jss_keyword_location(kp, "/format");
	e->message = buf_cstr(&b);
	e->value = v;
	c->keep_errors = 0;
	c->trouble = 1;
	c->stop = e;
	return 1;
}

int
jss_v_string(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp)
{
	const char *s = json_string_value(v);
	size_t len = json_string_length(v);
	long long count;
	struct buf *m;
	int bad = 0, r;

	if (n->maxlength >= 0 || n->minlength >= 0) {
		count = (long long)utf8_count(s, len);
		if (n->maxlength >= 0 && count > n->maxlength) {
			FAIL();
			m = jss_msg(c);
			buf_printf(m, "string of %lld %s is longer than the "
			    "maximum length %lld", count,
			    plural(count, "character", "characters"),
			    n->maxlength);
			jss_err_push(c, ip, kp, "/maxLength", v);
		}
		if (n->minlength >= 0 && count < n->minlength) {
			FAIL();
			m = jss_msg(c);
			buf_printf(m, "string of %lld %s is shorter than the "
			    "minimum length %lld", count,
			    plural(count, "character", "characters"),
			    n->minlength);
			jss_err_push(c, ip, kp, "/minLength", v);
		}
	}
	if (n->pattern != NULL &&
	    (r = jsschema_regex_search(n->pattern, s, len)) != 1) {
		FAIL();
		m = jss_msg(c);
		buf_adds(m, "string ");
		jss_str_text(m, s, len);
		if (r == 0)
			buf_adds(m, " does not match the pattern ");
		else
			buf_adds(m, " could not be matched (resource limit) "
			    "against the pattern ");
		jss_str_text(m, n->patsrc, strlen(n->patsrc));
		jss_err_push(c, ip, kp, "/pattern", v);
	}
	if (n->format != NULL &&
	    (r = jsschema_format_check(n->format, s, len)) != 1) {
		if (r == JSSCHEMA_FORMAT_TROUBLE)
			return cannot_check(c, ip, kp, v, n->format);
		FAIL();
		m = jss_msg(c);
		buf_adds(m, "string ");
		jss_str_text(m, s, len);
		buf_printf(m, " is not a valid %s", n->format);
		jss_err_push(c, ip, kp, "/format", v);
	}
	if (n->fnote != NULL && c->notes != NULL &&
	    (r = jsschema_format_check(n->fnote, s, len)) != 1) {
		if (r == JSSCHEMA_FORMAT_TROUBLE)
			return cannot_check(c, ip, kp, v, n->fnote);
		note_push(c, n, ip, kp, v);
	}
	return bad;
}

/*
 * The first pair of equal items of array a, as the loop over i and then
 * j > i finds it: the smallest i with an equal item after it, and the
 * first such j. 1 and the pair, or 0. Linear: each item meets only the
 * items of its hash.
 */
static int
unique_pair(const json_t *a, size_t *pi, size_t *pj)
{
	struct vset *vs;
	size_t size = json_array_size(a), i, *second;
	const json_t *x;
	uint64_t h;
	long k;
	int found = 0;

	if (size < 2)
		return 0;
	vs = jss_vset_new();
	second = xcalloc(size, sizeof(*second));	/* j + 1 */
	for (i = 0; i < size; i++) {
		x = json_array_get(a, i);
		h = jss_json_hash(x);
		if ((k = jss_vset_find(vs, x, h)) == -1)
			jss_vset_add(vs, x, i, h);
		else if (second[k] == 0)
			second[k] = i + 1;
	}
	for (i = 0; i < size && !found; i++)
		if (second[i] != 0) {
			*pi = i;
			*pj = second[i] - 1;
			found = 1;
		}
	free(second);
	jss_vset_free(vs);
	return found;
}

/* count items match "contains", beyond limit, minContains or (max) max-. */
static int
contains_bound(struct vctx *c, const struct ipath *ip, const struct kpath *kp,
    const json_t *v, size_t count, long long limit, int max)
{
	if (c->quiet)
		return 1;
	buf_printf(jss_msg(c), "array has %zu %s that %s \"contains\", %s "
	    "than the %s %lld (%s)", count, plural((long long)count, "item",
	    "items"), plural((long long)count, "matches", "match"), max ?
	    "more" : "fewer", max ? "maximum" : "minimum", limit, max ?
	    "maxContains" : "minContains");
	jss_err_push(c, ip, kp, max ? "/maxContains" : "/minContains", v);
	return 1;
}

/* "contains", with "minContains" and "maxContains". */
static int
v_contains(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	size_t size = json_array_size(v), i, count = 0;
	long long need = n->mincontains >= 0 ? n->mincontains : 1;
	int every = n->maxcontains >= 0 || (a != NULL && n->contains_ann);
	struct ipath ci;
	struct kpath k;

	ci.up = ip;
	ci.key = NULL;
	ci.depth = (ip != NULL ? ip->depth : 0) + 1;
	k.up = kp;
	k.seg = n->contains.seg;
	for (i = 0; i < size && (every || (long long)count < need); i++) {
		ci.idx = i;
		if (jss_check(c, n->contains.n, json_array_get(v, i), &ci, &k,
		    NULL) != 0)
			continue;
		count++;
		if (a != NULL && n->contains_ann)
			ann_set(a, i);
	}
	if ((long long)count < need && n->mincontains >= 0)
		return contains_bound(c, ip, kp, v, count, n->mincontains, 0);
	if ((long long)count < need) {
		if (c->quiet)
			return 1;
		buf_printf(jss_msg(c), "array has no item that matches "
		    "\"contains\" (%zu %s checked)", size,
		    plural((long long)size, "item", "items"));
		jss_err_push(c, ip, kp, "/contains", v);
		return 1;
	}
	if (n->maxcontains >= 0 && (long long)count > n->maxcontains)
		return contains_bound(c, ip, kp, v, count, n->maxcontains, 1);
	return 0;
}

/* What an array's or an object's count is checked by, and called. */
struct bounds {
	const char	*what;		/* "array", "object" */
	const char	*one, *many;	/* what it counts */
	const char	*maxkw, *minkw;	/* the keywords, as paths */
};

static const struct bounds item_bounds = {
	"array", "item", "items", "/maxItems", "/minItems"
};
static const struct bounds property_bounds = {
	"object", "property", "properties", "/maxProperties", "/minProperties"
};

/*
 * The size of array or object v against a maximum and a minimum (-1:
 * none): 1 when it is outside either, each error made unless quiet.
 */
static int
count_bounds(struct vctx *c, const struct ipath *ip, const struct kpath *kp,
    const json_t *v, size_t size, long long max, long long min,
    const struct bounds *b)
{
	const char *noun = plural((long long)size, b->one, b->many);
	int bad = 0;

	if (max >= 0 && (long long)size > max) {
		FAIL();
		buf_printf(jss_msg(c), "%s has %zu %s, more than the maximum "
		    "%lld", b->what, size, noun, max);
		jss_err_push(c, ip, kp, b->maxkw, v);
	}
	if (min >= 0 && (long long)size < min) {
		FAIL();
		buf_printf(jss_msg(c), "%s has %zu %s, fewer than the minimum "
		    "%lld", b->what, size, noun, min);
		jss_err_push(c, ip, kp, b->minkw, v);
	}
	return bad;
}

int
jss_v_array(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	size_t size = json_array_size(v), i, j;
	struct ipath ci;
	struct buf *m;
	int bad = 0;

	ci.up = ip;
	ci.key = NULL;
	ci.depth = (ip != NULL ? ip->depth : 0) + 1;
	if (n->items.n != NULL) {
		for (i = 0; i < size; i++) {
			ci.idx = i;
			SUB(jss_v_child(c, &n->items, json_array_get(v, i), &ci,
			    kp, NULL));
		}
		if (a != NULL)
			a->all = 1;
	}
	if (n->items_array) {
		for (i = 0; i < size && i < n->nitems; i++) {
			ci.idx = i;
			SUB(jss_v_child(c, &n->itemv[i],
			    json_array_get(v, i), &ci, kp, NULL));
		}
		if (a != NULL && i > a->prefix)
			a->prefix = i;
		for (i = n->nitems; n->additem.n != NULL && i < size; i++) {
			ci.idx = i;
			if (n->additem.n->kind == NODE_FALSE) {
				FAIL();
				m = jss_msg(c);
				buf_printf(m, "unexpected item %zu: \"%s\" "
				    "allows %zu %s", i, n->itemskw, n->nitems,
				    plural((long long)n->nitems, "item",
				    "items"));
				jss_err_push(c, &ci, kp, n->additem.seg,
				    json_array_get(v, i));
			} else
				SUB(jss_v_child(c, &n->additem,
				    json_array_get(v, i), &ci, kp, NULL));
		}
		if (a != NULL && n->additem.n != NULL)
			a->all = 1;
	}
	if (count_bounds(c, ip, kp, v, size, n->maxitems, n->minitems,
	    &item_bounds))
		FAIL();
	if (n->uniqueitems && unique_pair(v, &i, &j)) {
		FAIL();
		m = jss_msg(c);
		buf_printf(m, "array items %zu and %zu are equal, but items "
		    "must be unique", i, j);
		jss_err_push(c, ip, kp, "/uniqueItems", v);
	}
	if (n->contains.n != NULL)
		SUB(v_contains(c, n, v, ip, kp, a));
	return bad;
}

int
jss_v_object(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	size_t size = json_object_size(v), i, j, from, ki = 0;
	const json_t *name;
	const char *key;
	json_t *jv, *ks;
	struct ipath ci;
	struct buf *m;
	char *old;
	int bad = 0;

	ci.up = ip;
	ci.depth = (ip != NULL ? ip->depth : 0) + 1;
	if (count_bounds(c, ip, kp, v, size, n->maxprops, n->minprops,
	    &property_bounds))
		FAIL();
	if (n->required != NULL)
		for (i = 0; i < json_array_size(n->required); i++) {
			name = json_array_get(n->required, i);
			if (json_object_getn(v, json_string_value(name),
			    json_string_length(name)) != NULL)
				continue;
			FAIL();
			m = jss_msg(c);
			buf_adds(m, "missing required property ");
			jss_str_text(m, json_string_value(name),
			    json_string_length(name));
			jss_err_push(c, ip, kp, "/required", v);
		}
	/* one pass over the instance serves the three keywords */
	if (n->nprops > 0 || n->npprops > 0 || n->addprops.n != NULL)
		json_object_foreach((json_t *)v, key, jv) {
			int matched = 0;
			long pi = jss_prop_find(n, key, strlen(key));

			ci.key = key;
			if (pi >= 0)
				SUB(jss_v_child(c, &n->props[pi], jv, &ci, kp,
				    NULL));
			for (i = 0; i < n->npprops; i++) {
				if (jsschema_regex_search(n->pprops[i].re, key,
				    strlen(key)) != 1)
					continue;
				matched = 1;
				SUB(jss_v_child(c, &n->pprops[i].c, jv, &ci, kp,
				    NULL));
			}
			if (a != NULL && (matched || pi >= 0))
				ann_set(a, ki);
			ki++;
			if (n->addprops.n == NULL || matched || pi >= 0)
				continue;
			if (n->addprops.n->kind == NODE_FALSE) {
				FAIL();
				m = jss_msg(c);
				buf_adds(m, "unexpected property ");
				jss_str_text(m, key, strlen(key));
				jss_err_push(c, &ci, kp, n->addprops.seg, jv);
			} else
				SUB(jss_v_child(c, &n->addprops, jv, &ci, kp,
				    NULL));
		}
	if (a != NULL && n->addprops.n != NULL)
		a->all = 1;
	for (i = 0; i < n->ndeps; i++) {
		if (json_object_get(v, n->deps[i].name) == NULL)
			continue;
		if (n->deps[i].req == NULL) {
			SUB(jss_v_child(c, &n->deps[i].c, v, ip, kp, a));
			continue;
		}
		for (j = 0; j < json_array_size(n->deps[i].req); j++) {
			name = json_array_get(n->deps[i].req, j);
			if (json_object_get(v, json_string_value(name)) !=
			    NULL)
				continue;
			FAIL();
			m = jss_msg(c);
			buf_adds(m, "property ");
			jss_str_text(m, n->deps[i].name,
			    strlen(n->deps[i].name));
			buf_adds(m, " requires property ");
			jss_str_text(m, json_string_value(name),
			    json_string_length(name));
			jss_err_push(c, ip, kp, n->deps[i].c.seg, v);
		}
	}
	if (n->propnames.n != NULL)
		json_object_foreach((json_t *)v, key, jv) {
			int r, had;

			if ((ks = json_string(key)) == NULL)
				xalloc_die();
			/* a memo key: no other string may take its address */
			if (c->nkeep == c->capkeep) {
				c->capkeep = c->capkeep ? c->capkeep * 2 : 16;
				c->keep = xreallocarray(c->keep, c->capkeep,
				    sizeof(*c->keep));
			}
			c->keep[c->nkeep++] = ks;
			from = c->n;
			had = c->sc.anytype;
			c->sc.anytype = 0;
			r = jss_v_child(c, &n->propnames, ks, ip, kp, NULL);
			/* its errors are about v, where "type" counts */
			if (c->scoring && c->sc.anytype && v == c->scv)
				c->sc.typefail = 1;
			c->sc.anytype |= had;
			for (j = from; j < c->n; j++) {
				/* the name is no value of the instance */
				c->e[j].value = v;
				old = c->e[j].message;
				m = jss_msg(c);
				buf_adds(m, "property name ");
				jss_str_text(m, key, strlen(key));
				buf_adds(m, ": ");
				buf_adds(m, old);
				c->e[j].message = xmemdup(buf_cstr(m),
				    m->len + 1);
				free(old);
			}
			SUB(r);
		}
	return bad;
}
