/*
 * jsschema_value: JSON values as the keywords see them. Numbers compare
 * by value whatever their representation (1 == 1.0), values by JSON
 * equality (objects as unordered maps), with a hash that agrees with it
 * for the sets that "enum" and "uniqueItems" look values up in; a
 * number as an exact decimal, for "multipleOf"; and values as the
 * messages of errors show them.
 */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/jsonw.h"
#include "base/xalloc.h"
#include "schema/jsschema.h"
#include "schema/jsschema_int.h"

/* ---- numbers and equality ---- */

/* -1, 0 or 1 as number a is less than, equal to or greater than b. */
int
jss_num_cmp(const json_t *a, const json_t *b)
{
	long long i, ri;
	double r, da, db;
	int sign = 1, c;

	if (json_is_integer(a) && json_is_integer(b)) {
		i = json_integer_value(a);
		ri = json_integer_value(b);
		return (i > ri) - (i < ri);
	}
	if (json_is_integer(a) != json_is_integer(b)) {
		if (json_is_integer(a)) {
			i = json_integer_value(a);
			r = json_real_value(b);
		} else {
			i = json_integer_value(b);
			r = json_real_value(a);
			sign = -1;
		}
		if (r >= -9.2e18 && r <= 9.2e18 && r == floor(r)) {
			ri = (long long)r;
			c = (i > ri) - (i < ri);
		} else
			c = ((double)i > r) - ((double)i < r);
		return sign * c;
	}
	da = json_real_value(a);
	db = json_real_value(b);
	return (da > db) - (da < db);
}

/* JSON equality: 1 == 1.0; objects compare as unordered maps. */
int
jss_json_equal(const json_t *a, const json_t *b)
{
	const char *k;
	json_t *v;
	size_t i;

	if (json_is_number(a) && json_is_number(b))
		return jss_num_cmp(a, b) == 0;
	if (json_typeof(a) != json_typeof(b))
		return 0;
	switch (json_typeof(a)) {
	case JSON_STRING:
		return json_string_length(a) == json_string_length(b) &&
		    memcmp(json_string_value(a), json_string_value(b),
		    json_string_length(a)) == 0;
	case JSON_ARRAY:
		if (json_array_size(a) != json_array_size(b))
			return 0;
		for (i = 0; i < json_array_size(a); i++)
			if (!jss_json_equal(json_array_get(a, i),
			    json_array_get(b, i)))
				return 0;
		return 1;
	case JSON_OBJECT:
		if (json_object_size(a) != json_object_size(b))
			return 0;
		json_object_foreach((json_t *)a, k, v) {
			const json_t *w = json_object_get(b, k);

			if (w == NULL || !jss_json_equal(v, w))
				return 0;
		}
		return 1;
	default:
		return 1;
	}
}

/* ---- hashing values, for enum and uniqueItems ---- */

static uint64_t
mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/*
 * A hash that agrees with jss_json_equal(): values it finds equal hash
 * alike. A number hashes as its double (1 and 1.0 alike; integers that
 * jss_json_equal() tells apart may share one), an object as the sum of
 * its members' hashes (the order of members does not count).
 */
uint64_t
jss_json_hash(const json_t *v)
{
	const char *k;
	json_t *m;
	uint64_t h, bits;
	double d;
	size_t i;

	switch (json_typeof(v)) {
	case JSON_NULL:
		return mix64(1);
	case JSON_TRUE:
		return mix64(2);
	case JSON_FALSE:
		return mix64(3);
	case JSON_INTEGER:
	case JSON_REAL:
		d = json_is_integer(v) ? (double)json_integer_value(v) :
		    json_real_value(v);
		if (d == 0)
			d = 0;	/* -0 too */
		memcpy(&bits, &d, sizeof(bits));
		return mix64(bits ^ 0x4000000000000000ULL) + 4;
	case JSON_STRING:
		return mix64((uint64_t)jss_str_hash(json_string_value(v),
		    json_string_length(v)) + 5);
	case JSON_ARRAY:
		h = 6;
		for (i = 0; i < json_array_size(v); i++)
			h = mix64(h ^ jss_json_hash(json_array_get(v, i)));
		return h;
	default:
		h = 7 + json_object_size(v);
		json_object_foreach((json_t *)v, k, m)
			h += mix64(mix64((uint64_t)jss_str_hash(k, strlen(k))) ^
			    jss_json_hash(m));
		return mix64(h);
	}
}

/*
 * A set of values (by index into an array the caller keeps), by
 * jss_json_hash().
 */
struct vset {
	size_t		*slot;		/* entry + 1, or 0 */
	size_t		 cap;
	struct vent {
		const json_t	*v;
		uint64_t	 h;
		size_t		 idx;
	}		*ent;
	size_t		 n;
};

struct vset *
jss_vset_new(void)
{
	return xcalloc(1, sizeof(struct vset));
}

void
jss_vset_free(struct vset *vs)
{
	if (vs == NULL)
		return;
	free(vs->slot);
	free(vs->ent);
	free(vs);
}

/* The index of a member equal to v (whose hash is h), or -1. */
long
jss_vset_find(const struct vset *vs, const json_t *v, uint64_t h)
{
	size_t i, k;

	if (vs->cap == 0)
		return -1;
	for (i = (size_t)h & (vs->cap - 1); (k = vs->slot[i]) != 0;
	    i = (i + 1) & (vs->cap - 1))
		if (vs->ent[k - 1].h == h && jss_json_equal(vs->ent[k - 1].v,
		    v))
			return (long)vs->ent[k - 1].idx;
	return -1;
}

void
jss_vset_add(struct vset *vs, const json_t *v, size_t idx, uint64_t h)
{
	size_t i, j;

	if ((vs->n + 1) * 2 > vs->cap) {
		free(vs->slot);
		vs->cap = vs->cap ? vs->cap * 2 : 16;
		vs->slot = xcalloc(vs->cap, sizeof(*vs->slot));
		/* at most half as many entries as slots */
		vs->ent = xreallocarray(vs->ent, vs->cap / 2,
		    sizeof(*vs->ent));
		for (j = 0; j < vs->n; j++) {
			for (i = (size_t)vs->ent[j].h & (vs->cap - 1);
			    vs->slot[i] != 0; i = (i + 1) & (vs->cap - 1))
				;
			vs->slot[i] = j + 1;
		}
	}
	vs->ent[vs->n].v = v;
	vs->ent[vs->n].h = h;
	vs->ent[vs->n].idx = idx;
	for (i = (size_t)h & (vs->cap - 1); vs->slot[i] != 0;
	    i = (i + 1) & (vs->cap - 1))
		;
	vs->slot[i] = ++vs->n;
}

/* The shortest decimal that reads back as d, as digits and exponent. */
static void
dec_of_double(double d, struct dec *out)
{
	char b[64], *p;
	int prec, e;

	for (prec = 1; prec <= 17; prec++) {
		snprintf(b, sizeof(b), "%.*e", prec - 1, d);
		if (strtod(b, NULL) == d)
			break;
	}
	if (prec > 17)
		prec = 17;
	out->m = 0;
	for (p = b; *p != '\0' && *p != 'e'; p++)
		if (isdigit((unsigned char)*p))
			out->m = out->m * 10 + (unsigned long long)(*p - '0');
	e = *p == 'e' ? atoi(p + 1) : 0;
	out->e = e - (prec - 1);
}

/* The magnitude of number v as an exact decimal, m without trailing 0s. */
void
jss_decimal_of(const json_t *v, struct dec *d)
{
	long long i;

	if (json_is_integer(v)) {
		i = json_integer_value(v);
		d->m = i < 0 ? (unsigned long long)(-(i + 1)) + 1 :
		    (unsigned long long)i;
		d->e = 0;
	} else
		dec_of_double(fabs(json_real_value(v)), d);
	while (d->m != 0 && d->m % 10 == 0) {
		d->m /= 10;
		d->e++;
	}
}

/* ---- messages ---- */

void
jss_num_text(struct buf *b, const json_t *v)
{
	/* as JavaScript writes numbers: 150, 1.5, 1e+21 */
	if (json_is_integer(v))
		buf_printf(b, "%lld", (long long)json_integer_value(v));
	else
		jsonw_number(b, json_real_value(v));
}

/* A string as a JSON string literal, cut after about 60 bytes. */
void
jss_str_text(struct buf *b, const char *s, size_t n)
{
	size_t i, lim = n;
	unsigned char c;

	if (lim > 60) {
		lim = 60;
		while (lim > 0 && ((unsigned char)s[lim] & 0xC0) == 0x80)
			lim--;
	}
	buf_addc(b, '"');
	for (i = 0; i < lim; i++) {
		c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			buf_addc(b, '\\');
			buf_addc(b, (char)c);
		} else if (c == '\n')
			buf_adds(b, "\\n");
		else if (c == '\t')
			buf_adds(b, "\\t");
		else if (c == '\r')
			buf_adds(b, "\\r");
		else if (c < 0x20 || c == 0x7F)
			buf_printf(b, "\\u%04x", c);
		else
			buf_addc(b, (char)c);
	}
	buf_addc(b, '"');
	if (lim < n)
		buf_adds(b, "...");
}

/* What was found: "string \"x\"", "integer 3", "object", ... */
void
jss_describe(struct buf *b, const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_NULL:
		buf_adds(b, "null");
		break;
	case JSON_TRUE:
		buf_adds(b, "boolean true");
		break;
	case JSON_FALSE:
		buf_adds(b, "boolean false");
		break;
	case JSON_OBJECT:
		buf_adds(b, "object");
		break;
	case JSON_ARRAY:
		buf_adds(b, "array");
		break;
	case JSON_STRING:
		buf_adds(b, "string ");
		jss_str_text(b, json_string_value(v), json_string_length(v));
		break;
	default:
		buf_adds(b, jss_inst_type(v) & T_INTEGER ? "integer " :
		    "number ");
		jss_num_text(b, v);
		break;
	}
}

/* A JSON value in compact form, as JSON.stringify, cut after about 80 bytes. */
void
jss_json_text(struct buf *b, const json_t *v)
{
	struct buf t = BUF_INIT;
	size_t n;

	jsonw_stringify(&t, v);
	n = t.len;
	if (n > 80) {
		n = 80;
		while (n > 0 && ((unsigned char)t.data[n] & 0xC0) == 0x80)
			n--;
		buf_add(b, t.data, n);
		buf_adds(b, "...");
	} else
		buf_add(b, t.data, n);
	buf_free(&t);
}
