/*
 * fuzz_jsonx: jsonx_seq over any bytes, and jsonx_member on each value.
 * Offsets must stay inside the text; a value's text must parse alone to
 * the same value; a member's offset must hold the value jansson kept for
 * that key; a "utf8" error must point at a byte that starts no UTF-8
 * character; a text with a NUL byte (never valid JSON) must be refused.
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

#include "jsonx.h"
#include "utf8.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char *const keys[] = {
	"type", "args", "toolCallId", "a", "", "\xc3\xa9", "0"
};

/* The member key of the value v at s[start..end), found by jsonx_member. */
static void
check_member(const char *s, size_t n, size_t start, size_t end,
    json_t *v, const char *key)
{
	struct jsonx_error err;
	json_t *want, *got;
	size_t at, vend;

	at = jsonx_member(s, n, start, key);
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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct jsonx_seq seq;
	struct jsonx_error err;
	json_t *v, *alone;
	size_t start, end, look, k;
	const char *at;
	uint32_t cp;
	int r;

	jsonx_seq_init(&seq, s, size);
	if (seq.off > size)
		abort();
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
			check_member(s, size, start, end, v, keys[k]);
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
		} else if (strcmp(err.rule, "json-syntax") != 0)
			abort();
	} else if (r != 0 || memchr(s, '\0', size) != NULL)
		abort();
	/* after the end, the sequence stays ended */
	if (jsonx_seq_next(&seq, &v, &start, &err) != 0)
		abort();
	return 0;
}
