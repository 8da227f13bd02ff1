/* jsonw: JavaScript's JSON.stringify, Number.prototype.toString and String(). */
#include <float.h>
#include <math.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonw.h"
#include "base/xalloc.h"

/*
 * The p-digit decimal next to tmp ("D.DDDe+XX", p digits) towards x, in
 * out; returns whether it reads back as x. Needed where x is a power of
 * two: the doubles below it are twice as close as those above, so the
 * nearest p-digit decimal can miss while the next one up still hits.
 */
static int
neighbour(const char *tmp, int p, double x, char *out, size_t size)
{
	char d[24];
	int i, k = 0, e, up = strtod(tmp, NULL) < x;
	const char *ep = tmp + 1;

	d[k++] = tmp[0];
	if (*ep == '.')
		for (ep++; *ep != 'e'; ep++)
			d[k++] = *ep;
	e = atoi(ep + 1);
	for (i = p - 1; i >= 0; i--) {
		if (up && d[i] != '9') {
			d[i]++;
			break;
		}
		if (!up && d[i] != '0') {
			d[i]--;
			break;
		}
		d[i] = up ? '0' : '9';
	}
	if (i < 0 || d[0] == '0')
		return 0;	/* a carry changes the length: not this p */
	snprintf(out, size, "%c.%.*se%d", d[0], p - 1, d + 1, e);
	return strtod(out, NULL) == x;
}

/*
 * The shortest decimal digits that read back as x (x > 0, finite), as
 * ECMAScript's Number::toString chooses them: the fewest digits k, and of
 * those the closest to x. Writes the digits (no leading or trailing zeros)
 * to d and returns k; *exp10 is n, with x = 0.d * 10^n.
 */
static int
shortest_digits(double x, char d[32], int *exp10)
{
	char tmp[40], alt[40];
	int p, lo, k, e;
	char *ep;

	/*
	 * With 53 bits a decimal of 15 or fewer digits that reads back as x
	 * is x rounded to 15 digits, so trying 15, 16, 17 is enough. Below
	 * DBL_MIN precision falls off and every length has to be tried. At
	 * each length the nearest decimal is tried, then its neighbour.
	 */
	lo = x < DBL_MIN ? 1 : 15;
	for (p = lo; p <= 17; p++) {
		snprintf(tmp, sizeof(tmp), "%.*e", p - 1, x);
		if (strtod(tmp, NULL) == x)
			break;
		if (p > 1 && neighbour(tmp, p, x, alt, sizeof(alt))) {
			memcpy(tmp, alt, sizeof(tmp));
			break;
		}
	}
	/* tmp is "D.DDDDe[+-]XX" (or "De[+-]XX" for one digit) */
	k = 0;
	d[k++] = tmp[0];
	ep = tmp + 1;
	if (*ep == '.')
		for (ep++; *ep != 'e'; ep++)
			d[k++] = *ep;
	e = atoi(ep + 1);
	while (k > 1 && d[k - 1] == '0')
		k--;
	d[k] = '\0';
	*exp10 = e + 1;
	return k;
}

/* Number::toString(x) of ECMAScript (section 6.1.6.1.20), radix 10. */
void
jsonw_number(struct buf *b, double x)
{
	char d[32];
	int k, n, i;

	if (isnan(x)) {
		buf_add(b, "NaN", 3);
		return;
	}
	if (x == 0) {
		buf_addc(b, '0');
		return;
	}
	if (x < 0) {
		buf_addc(b, '-');
		x = -x;
	}
	if (isinf(x)) {
		buf_add(b, "Infinity", 8);
		return;
	}
	if (x < 9007199254740992.0 && x == floor(x)) {
		/* an exact integer of at most 16 digits: its digits are shortest */
		buf_addu(b, (unsigned long long)x);
		return;
	}
	k = shortest_digits(x, d, &n);
	buf_reserve(b, 32 + (n > 0 ? (size_t)n : (size_t)-n));
	if (k <= n && n <= 21) {
		buf_add(b, d, (size_t)k);
		for (i = k; i < n; i++)
			buf_addc(b, '0');
	} else if (0 < n && n <= 21) {
		buf_add(b, d, (size_t)n);
		buf_addc(b, '.');
		buf_add(b, d + n, (size_t)(k - n));
	} else if (-6 < n && n <= 0) {
		buf_add(b, "0.", 2);
		for (i = n; i < 0; i++)
			buf_addc(b, '0');
		buf_add(b, d, (size_t)k);
	} else {
		buf_addc(b, d[0]);
		if (k > 1) {
			buf_addc(b, '.');
			buf_add(b, d + 1, (size_t)(k - 1));
		}
		buf_printf(b, "e%c%d", n - 1 < 0 ? '-' : '+', abs(n - 1));
	}
}

/* A jansson number as a double (integers, when a caller kept them, too). */
static double
number_value(const json_t *v)
{
	if (json_is_integer(v))
		return (double)json_integer_value(v);
	return json_real_value(v);
}

/* JSON.stringify(s): quoted, with the escapes QuoteJSONString uses. */
void
jsonw_string(struct buf *b, const char *s, size_t n)
{
	buf_reserve(b, n + 2);
	buf_addc(b, '"');
	jsonw_escape(b, s, n);
	buf_addc(b, '"');
}

/*
 * The bytes a JSON string cannot hold as they are (1), and those that
 * begin or go on a character to be checked (2).
 */
#define H2	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2
static const unsigned char needs_escape[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	['"'] = 1, ['\\'] = 1,
	[0x80] = H2, H2, H2, H2, H2, H2, H2, H2
};
#undef H2

/*
 * Whether any of the eight bytes at p is below 0x20, '"', '\\' or
 * above 0x7F (the start or the rest of a character to be checked).
 */
static inline int
escapes8(const unsigned char *p)
{
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	uint64_t x, q, b;

	memcpy(&x, p, 8);
	q = x ^ (ones * '"');
	b = x ^ (ones * '\\');
	return (((x - ones * 0x20) & ~x) | ((q - ones) & ~q) |
	    ((b - ones) & ~b) | x) & highs ? 1 : 0;
}

/*
 * The length of the UTF-8 character at u (n bytes left), 2 to 4, or 0
 * when its bytes are none (a stray continuation, an overlong form, a
 * surrogate, past U+10FFFF, or cut short): utf8_decode's test, inline
 * and without the code point, for the writer's inner loop.
 */
static inline size_t
char_len(const unsigned char *u, size_t n)
{
	unsigned c = u[0];

	if (c >= 0xC2 && c <= 0xDF)
		return n >= 2 && (u[1] & 0xC0) == 0x80 ? 2 : 0;
	if (c >= 0xE0 && c <= 0xEF) {
		if (n < 3 || (u[2] & 0xC0) != 0x80)
			return 0;
		if (c == 0xE0)
			return u[1] >= 0xA0 && u[1] <= 0xBF ? 3 : 0;
		if (c == 0xED)
			return u[1] >= 0x80 && u[1] <= 0x9F ? 3 : 0;
		return (u[1] & 0xC0) == 0x80 ? 3 : 0;
	}
	if (c >= 0xF0 && c <= 0xF4) {
		if (n < 4 || (u[2] & 0xC0) != 0x80 || (u[3] & 0xC0) != 0x80)
			return 0;
		if (c == 0xF0)
			return u[1] >= 0x90 && u[1] <= 0xBF ? 4 : 0;
		if (c == 0xF4)
			return u[1] >= 0x80 && u[1] <= 0x8F ? 4 : 0;
		return (u[1] & 0xC0) == 0x80 ? 4 : 0;
	}
	return 0;
}

/*
 * Copies the run of characters above ASCII at u[i] to *op, a byte that
 * begins no character as U+FFFD, until an ASCII byte or end; the last
 * character may pass end. Returns where the run stops.
 */
static inline size_t
put_chars(char **op, const unsigned char *u, size_t i, size_t n, size_t end)
{
	char *o = *op;
	size_t len;

	do {
		if ((len = char_len(u + i, n - i)) == 0) {
			memcpy(o, "\xEF\xBF\xBD", 3);
			o += 3;
			i++;
			continue;
		}
		o[0] = (char)u[i];
		o[1] = (char)u[i + 1];
		if (len > 2)
			o[2] = (char)u[i + 2];
		if (len > 3)
			o[3] = (char)u[i + 3];
		o += len;
		i += len;
	} while (i < end && u[i] >= 0x80);
	*op = o;
	return i;
}

/*
 * The inside of a JSON string holding s, as JSON.stringify writes it, so
 * that pieces escaped apart join into the escape of the whole. What is
 * written is always UTF-8: a byte that does not begin a well-formed
 * character of s (raw bytes a server or a command line gave) is written
 * as U+FFFD, so that no reader of the kit's JSON ever refuses it.
 */
void
jsonw_escape(struct buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, block, end;
	char *o;
#ifdef __SSE2__
	const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'),
	    ctl = _mm_set1_epi8(0x1F);
	__m128i v;
	int m, hi, k;
#endif

	/*
	 * a block at a time, with room for every byte to become \u00XX
	 * (a character that passes the block's end is 3 bytes at the most)
	 */
	while (i < n) {
		block = n - i < 4096 ? n - i : 4096;
		buf_reserve(b, 6 * block + 16);
		o = b->data + b->len;
		for (end = i + block; i < end; i++) {
#ifdef __SSE2__
			/*
			 * sixteen bytes that need no escape are copied whole,
			 * and a run of characters above ASCII is checked here
			 */
			while (i + 16 <= end) {
				v = _mm_loadu_si128((const __m128i *)(const void *)
				    (u + i));
				m = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
				    _mm_cmpeq_epi8(v, quote),
				    _mm_cmpeq_epi8(v, bslash)), _mm_cmpeq_epi8(
				    _mm_min_epu8(v, ctl), v)));
				hi = _mm_movemask_epi8(v);
				_mm_storeu_si128((__m128i *)(void *)o, v);
				if ((m | hi) == 0) {
					o += 16;
					i += 16;
					continue;
				}
				k = __builtin_ctz((unsigned)(m | hi));
				o += k;
				i += (size_t)k;
				if (m & (1 << k))
					break;
				i = put_chars(&o, u, i, n, end);
			}
			if (i >= end)
				break;
#endif
			/* then eight at a time, while none needs escaping */
			while (i + 8 <= end && !escapes8(u + i)) {
				memcpy(o, u + i, 8);
				o += 8;
				i += 8;
			}
			if (i == end)
				break;
			if (!needs_escape[u[i]]) {
				*o++ = (char)u[i];
				continue;
			}
			if (needs_escape[u[i]] == 2) {
				i = put_chars(&o, u, i, n, end) - 1;
				continue;
			}
			*o++ = '\\';
			switch (u[i]) {
			case '"':	*o++ = '"'; break;
			case '\\':	*o++ = '\\'; break;
			case '\b':	*o++ = 'b'; break;
			case '\f':	*o++ = 'f'; break;
			case '\n':	*o++ = 'n'; break;
			case '\r':	*o++ = 'r'; break;
			case '\t':	*o++ = 't'; break;
			default:
				*o++ = 'u';
				*o++ = '0';
				*o++ = '0';
				*o++ = hex[u[i] >> 4];
				*o++ = hex[u[i] & 0xF];
				break;
			}
		}
		b->len = (size_t)(o - b->data);
	}
}

/*
 * Whether an object key is an array index, which JavaScript objects list
 * first, in ascending order: a canonical decimal from 0 to 2^32 - 2.
 */
static int
array_index(const char *key, size_t len, uint32_t *index)
{
	uint64_t v = 0;
	size_t i;

	if (len == 0 || len > 10 || (key[0] == '0' && len > 1))
		return 0;
	for (i = 0; i < len; i++) {
		if (key[i] < '0' || key[i] > '9')
			return 0;
		v = v * 10 + (uint64_t)(key[i] - '0');
	}
	if (v > 4294967294u)
		return 0;
	*index = (uint32_t)v;
	return 1;
}

struct keyref {
	uint32_t	 index;
	const char	*key;
	size_t		 len;
	json_t		*value;
};

static int
cmp_index(const void *a, const void *b)
{
	const struct keyref *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

static void	stringify(struct buf *, const json_t *, int);

static void
member(struct buf *b, int *first, const char *key, size_t len,
    const json_t *value, int exact)
{
	if (!*first)
		buf_addc(b, ',');
	*first = 0;
	jsonw_string(b, key, len);
	buf_addc(b, ':');
	stringify(b, value, exact);
}

static void
stringify_object(struct buf *b, const json_t *obj)
{
	struct keyref *idx = NULL;
	size_t nidx = 0, cap = 0, i, len;
	const char *key;
	json_t *value;
	uint32_t index;
	int first = 1;

	/* jansson keeps insertion order; only index keys need moving */
	json_object_keylen_foreach((json_t *)obj, key, len, value) {
		if (!array_index(key, len, &index))
			continue;
		if (nidx == cap) {
			cap = cap ? cap * 2 : 8;
			idx = xreallocarray(idx, cap, sizeof(*idx));
		}
		idx[nidx].index = index;
		idx[nidx].key = key;
		idx[nidx].len = len;
		idx[nidx].value = value;
		nidx++;
	}
	buf_addc(b, '{');
	if (nidx > 0) {
		qsort(idx, nidx, sizeof(*idx), cmp_index);
		for (i = 0; i < nidx; i++)
			member(b, &first, idx[i].key, idx[i].len,
			    idx[i].value, 0);
	}
	json_object_keylen_foreach((json_t *)obj, key, len, value) {
		if (nidx > 0 && array_index(key, len, &index))
			continue;
		member(b, &first, key, len, value, 0);
	}
	buf_addc(b, '}');
	free(idx);
}

/* An object's members in their order, as jsonw_exact writes them. */
static void	exact_object(struct buf *, const json_t *);

/*
 * JSON.stringify's text of v, or with exact, jsonw_exact's: the two differ
 * in the order of members and in integers only.
 */
static void
stringify(struct buf *b, const json_t *v, int exact)
{
	size_t i, n;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		if (exact)
			exact_object(b, v);
		else
			stringify_object(b, v);
		break;
	case JSON_ARRAY:
		buf_addc(b, '[');
		n = json_array_size(v);
		for (i = 0; i < n; i++) {
			if (i > 0)
				buf_addc(b, ',');
			stringify(b, json_array_get(v, i), exact);
		}
		buf_addc(b, ']');
		break;
	case JSON_STRING:
		jsonw_string(b, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		if (exact) {
			buf_printf(b, "%" JSON_INTEGER_FORMAT,
			    json_integer_value(v));
			break;
		}
		/* FALLTHROUGH */
	case JSON_REAL: {
		double x = number_value(v);

		/* JSON.stringify writes null for NaN and the infinities */
		if (isfinite(x))
			jsonw_number(b, x);
		else
			buf_add(b, "null", 4);
		break;
	}
	case JSON_TRUE:
		buf_add(b, "true", 4);
		break;
	case JSON_FALSE:
		buf_add(b, "false", 5);
		break;
	case JSON_NULL:
		buf_add(b, "null", 4);
		break;
	}
}

static void
exact_object(struct buf *b, const json_t *obj)
{
	const char *key;
	json_t *value;
	size_t len;
	int first = 1;

	buf_addc(b, '{');
	json_object_keylen_foreach((json_t *)obj, key, len, value)
		member(b, &first, key, len, value, 1);
	buf_addc(b, '}');
}

/* JSON.stringify(v) of the value JSON.parse would have made. */
void
jsonw_stringify(struct buf *b, const json_t *v)
{
	stringify(b, v, 0);
}

/*
 * v as compact JSON text as jansson holds it: members in their order,
 * integers exactly, other numbers as JavaScript writes them.
 */
void
jsonw_exact(struct buf *b, const json_t *v)
{
	stringify(b, v, 1);
}

/* Array.prototype.join(",") as String() applies it: null becomes "". */
static void
tostring(struct buf *b, const json_t *v, int in_array)
{
	size_t i, n;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		buf_add(b, "[object Object]", 15);
		break;
	case JSON_ARRAY:
		n = json_array_size(v);
		for (i = 0; i < n; i++) {
			if (i > 0)
				buf_addc(b, ',');
			tostring(b, json_array_get(v, i), 1);
		}
		break;
	case JSON_STRING:
		buf_add(b, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
	case JSON_REAL:
		jsonw_number(b, number_value(v));
		break;
	case JSON_TRUE:
		buf_add(b, "true", 4);
		break;
	case JSON_FALSE:
		buf_add(b, "false", 5);
		break;
	case JSON_NULL:
		if (!in_array)
			buf_add(b, "null", 4);
		break;
	}
}

/* String(v): strings as they are, arrays comma-joined, objects "[object Object]". */
void
jsonw_tostring(struct buf *b, const json_t *v)
{
	tostring(b, v, 0);
}
