/*
 * fuzz_jsonx: jsonx_seq over any bytes, and jsonx_member on each value.
 * Offsets must stay inside the text; a value's text must parse alone to
 * the same value; a member's offset must hold the value jansson kept for
 * that key, and jsonx_locate must find the same place; a "utf8" error
 * must point at a byte that starts no UTF-8 character; a "duplicate-key"
 * error must point at two keys of one string, the first before the
 * second; a text with a NUL byte (never valid JSON) must be refused.
 * Anything else aborts.
 *
 * jansson skips a raw NUL byte between tokens without counting it in the
 * position it reports, so the end of a value with one inside comes out
 * short (and the text is refused later, at a wrong place): the two
 * equality checks leave such values alone.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/utf8.h"
#include "json/jsonx.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char *const keys[] = {
	"type", "args", "toolCallId", "a", "", "\xc3\xa9", "0"
};

/* The member key of the value v at s[start..end), found by jsonx_member. */
static void
check_member(const char *s, size_t n, size_t start, size_t end,
    json_t *v, const char *key, struct jsonx_locator *loc)
{
	struct jsonx_error err;
	json_t *want, *got;
	size_t at, vend;
	char ptr[32];

	at = jsonx_member(s, n, start, key);
	/* a pointer to the same key (none of the keys needs ~ escapes) */
	snprintf(ptr, sizeof(ptr), "/%s", key);
	if (json_is_object(v) && jsonx_locate(loc, start, ptr) != at)
		abort();
	if (at < start || at >= end)
		abort();
	want = json_is_object(v) ? json_object_get(v, key) : NULL;
	if (want == NULL) {
		if (at != start)
			abort();
		return;
	}
	if (at == start)
		abort();
	if ((got = jsonx_parse(s, n, at, &vend, &err)) == NULL)
		abort();
	if (vend > end || !json_equal(got, want))
		abort();
	json_decref(got);
}

/* The string token at off, decoded; NULL when it is not one. */
static json_t *
key_at(const char *s, size_t n, size_t off)
{
	size_t end;

	if (off >= n || s[off] != '"')
		return NULL;
	for (end = off + 1; end < n && s[end] != '"'; end++)
		if (s[end] == '\\')
			end++;
	if (end >= n)
		return NULL;
	return json_loadb(s + off, end + 1 - off, JSON_DECODE_ANY |
	    JSON_ALLOW_NUL, NULL);
}

/* Both places of a duplicate key hold the same key, the first one first. */
static void
check_duplicate(const char *s, size_t n, const struct jsonx_error *err)
{
	json_t *a, *b;

	if (err->first == JSONX_NOPOS || err->first >= err->offset ||
	    err->key[0] != '"')
		abort();
	a = key_at(s, n, err->first);
	b = key_at(s, n, err->offset);
	if (!json_is_string(a) || !json_equal(a, b))
		abort();
	json_decref(a);
	json_decref(b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct jsonx_seq seq;
	struct jsonx_error err;
	struct jsonx_locator loc;
	json_t *v, *alone;
	size_t start, end, look, k;
	const char *at;
	uint32_t cp;
	int r;

	jsonx_seq_init(&seq, s, size);
	if (seq.off > size)
		abort();
	jsonx_locator_init(&loc, s, size);
	while ((r = jsonx_seq_next(&seq, &v, &start, &err)) == 1) {
		end = seq.off;
		if (start >= end || end > size)
			abort();
		look = (end < size ? end + 1 : size) - start;
		if (memchr(s + start, '\0', look) != NULL) {
			for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
				if (jsonx_member(s, size, start, keys[k]) >=
				    size)
					abort();
			json_decref(v);
			continue;
		}
		alone = json_loadb(s + start, end - start,
		    JSON_DECODE_ANY | JSON_ALLOW_NUL | JSON_DECODE_INT_AS_REAL,
		    NULL);
		if (alone == NULL || !json_equal(alone, v))
			abort();
		json_decref(alone);
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			check_member(s, size, start, end, v, keys[k], &loc);
		json_decref(v);
	}
	if (r < 0) {
		if (err.offset > size || err.text[0] == '\0' ||
		    memchr(err.text, '\0', sizeof(err.text)) == NULL)
			abort();
		if (strcmp(err.rule, "utf8") == 0) {
			if (err.offset >= size)
				abort();
			at = s + err.offset;
			if ((unsigned char)*at < 0x80 ||
			    utf8_decode(at, size - err.offset, &cp) != 0)
				abort();
		} else if (strcmp(err.rule, "duplicate-key") == 0) {
			check_duplicate(s, size, &err);
		} else if (strcmp(err.rule, "json-syntax") != 0 &&
		    strcmp(err.rule, "json-depth") != 0 &&
		    strcmp(err.rule, "json-number") != 0)
			abort();
	} else if (r != 0 || memchr(s, '\0', size) != NULL)
		abort();
	jsonx_locator_free(&loc);
	/* after the end, the sequence stays ended */
	if (jsonx_seq_next(&seq, &v, &start, &err) != 0)
		abort();
	return 0;
}
