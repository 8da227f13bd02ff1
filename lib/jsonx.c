/* jsonx: reading JSON values one by one with their positions (jansson). */
#include <stdio.h>
#include <string.h>

#include "jsonx.h"
#include "utf8.h"

static void
set_error(struct jsonx_error *err, size_t off, const char *rule,
    const char *text)
{
	err->offset = off;
	snprintf(err->rule, sizeof(err->rule), "%s", rule);
	snprintf(err->text, sizeof(err->text), "%s", text);
}

/* The offset just past JSON whitespace from off on. */
size_t
jsonx_skip_ws(const char *s, size_t n, size_t off)
{
	while (off < n && (s[off] == ' ' || s[off] == '\n' ||
	    s[off] == '\r' || s[off] == '\t'))
		off++;
	return off;
}

/* The JSON type of a value, as messages name it. */
const char *
jsonx_typename(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:	return "an object";
	case JSON_ARRAY:	return "an array";
	case JSON_STRING:	return "a string";
	case JSON_INTEGER:
	case JSON_REAL:		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:	return "a boolean";
	case JSON_NULL:	return "null";
	}
	return "a value";
}

/* Just past the last character before end that is not whitespace. */
static size_t
after_last(const char *s, size_t off, size_t end)
{
	while (end > off && (s[end - 1] == ' ' || s[end - 1] == '\n' ||
	    s[end - 1] == '\r' || s[end - 1] == '\t'))
		end--;
	return end;
}

/*
 * Where a jansson error points, given the offset pos it stopped at: at
 * the character it refused inside a string (which it has put back), at
 * the end of a truncated text (after its last character that is not
 * whitespace, where more was due), at the start of the token it names in
 * "near 'TOKEN'" when the text before pos spells it, else at the last
 * character read.
 */
static size_t
error_offset(const char *s, size_t n, size_t off, size_t pos,
    const char *text)
{
	const char *near, *q;
	size_t len;

	if (strstr(text, "control character") != NULL ||
	    strstr(text, "unexpected newline") != NULL)
		return pos < n ? pos : n;
	if (strstr(text, "near end of file") != NULL)
		return after_last(s, 0, pos < n ? pos : n);
	if ((near = strstr(text, "near '")) != NULL &&
	    (q = strrchr(near + 6, '\'')) != NULL) {
		len = (size_t)(q - (near + 6));
		if (len > 0 && pos - off >= len &&
		    memcmp(s + pos - len, near + 6, len) == 0)
			return pos - len;
	}
	if (pos > off)
		for (pos--; pos > off &&
		    ((unsigned char)s[pos] & 0xC0) == 0x80; pos--)
			;
	return pos;
}

/*
 * Parses the one value that starts at byte off of s (n bytes in all) and
 * sets *end past it. On failure returns NULL and fills err, with the
 * offset of the character jansson stopped at; invalid UTF-8 is reported
 * at its first bad byte.
 */
json_t *
jsonx_parse(const char *s, size_t n, size_t off, size_t *end,
    struct jsonx_error *err)
{
	json_error_t je;
	json_t *v;
	size_t pos, valid;
	char text[sizeof(err->text)];

	v = json_loadb(s + off, n - off, JSONX_FLAGS, &je);
	if (v != NULL) {
		const char *nul;

		*end = off + (size_t)je.position;
		/*
		 * jansson steps over a raw NUL byte after a number without
		 * counting it; a raw NUL is never JSON, so look for one.
		 */
		nul = memchr(s + off, '\0', (*end < n ? *end + 1 : n) - off);
		if (nul == NULL)
			return v;
		json_decref(v);
		set_error(err, (size_t)(nul - s), "json-syntax",
		    "invalid JSON: NUL byte");
		return NULL;
	}
	pos = off + (je.position > 0 ? (size_t)je.position : 0);
	if (pos > n)
		pos = n;
	/* jansson stops after a bad byte; find it exactly */
	valid = off + utf8_valid(s + off, (pos + 4 < n ? pos + 4 : n) - off);
	if (valid <= pos && valid < n && strstr(je.text, "decode") != NULL) {
		snprintf(text, sizeof(text),
		    "invalid UTF-8: byte 0x%02x at byte offset %zu",
		    (unsigned char)s[valid], valid);
		set_error(err, valid, "utf8", text);
		return NULL;
	}
	pos = error_offset(s, n, off, pos, je.text);
	snprintf(text, sizeof(text), "invalid JSON: %s", je.text);
	set_error(err, pos, "json-syntax", text);
	return NULL;
}

/* Starts reading s, after a byte order mark, as an array or a sequence. */
void
jsonx_seq_init(struct jsonx_seq *q, const char *s, size_t n)
{
	q->s = s;
	q->n = n;
	q->off = 0;
	if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
		q->off = 3;
	q->off = jsonx_skip_ws(s, n, q->off);
	q->array = q->off < n && s[q->off] == '[';
	if (q->array)
		q->off++;
	q->state = 0;
}

/* The end of the array at off: only whitespace may follow. */
static int
array_end(struct jsonx_seq *q, struct jsonx_error *err)
{
	q->off = jsonx_skip_ws(q->s, q->n, q->off + 1);
	q->state = 2;
	if (q->off < q->n) {
		set_error(err, q->off, "json-syntax",
		    "invalid JSON: text after the closing ']' of the array");
		return -1;
	}
	return 0;
}

/*
 * The next value: returns 1 and sets *v (the caller's reference) and
 * *start, its offset; 0 at the end; -1 with err filled on bad text.
 */
int
jsonx_seq_next(struct jsonx_seq *q, json_t **v, size_t *start,
    struct jsonx_error *err)
{
	const char *s = q->s;
	size_t n = q->n, end;

	if (q->state == 2)
		return 0;
	q->off = jsonx_skip_ws(s, n, q->off);
	if (q->array) {
		if (q->off >= n) {
			set_error(err, after_last(s, 0, n), "json-syntax",
			    "invalid JSON: the array is not closed with ']'");
			q->state = 2;
			return -1;
		}
		if (s[q->off] == ']' && q->state == 0)
			return array_end(q, err);
		if (q->state == 1) {
			if (s[q->off] == ']')
				return array_end(q, err);
			if (s[q->off] != ',') {
				set_error(err, q->off, "json-syntax",
				    "invalid JSON: expected ',' or ']' "
				    "after an array element");
				q->state = 2;
				return -1;
			}
			q->off = jsonx_skip_ws(s, n, q->off + 1);
		}
	} else if (q->off >= n) {
		q->state = 2;
		return 0;
	}
	*start = q->off;
	if ((*v = jsonx_parse(s, n, q->off, &end, err)) == NULL) {
		q->state = 2;
		return -1;
	}
	q->off = end;
	q->state = 1;
	return 1;
}

/* The offset just past the string token that starts at off (s[off] == '"'). */
static size_t
skip_string(const char *s, size_t n, size_t off)
{
	for (off++; off < n && s[off] != '"'; off++)
		if (s[off] == '\\')
			off++;
	return off < n ? off + 1 : n;
}

/* The offset just past the value that starts at off (valid JSON). */
static size_t
skip_value(const char *s, size_t n, size_t off)
{
	size_t depth = 0;

	do {
		switch (s[off]) {
		case '"':
			off = skip_string(s, n, off);
			continue;
		case '{':
		case '[':
			depth++;
			break;
		case '}':
		case ']':
			depth--;
			break;
		default:
			if (depth == 0) {
				while (off < n && !strchr(" \t\r\n,]}", s[off]))
					off++;
				return off;
			}
		}
		off++;
	} while (off < n && depth > 0);
	return off;
}

/* Whether the string token s[a..b) (quotes included) spells key. */
static int
key_is(const char *s, size_t a, size_t b, const char *key)
{
	size_t len = strlen(key);
	json_t *v;
	int same;

	if (memchr(s + a, '\\', b - a) == NULL)
		return b - a == len + 2 && memcmp(s + a + 1, key, len) == 0;
	v = json_loadb(s + a, b - a, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
	same = v != NULL && json_string_length(v) == len &&
	    memcmp(json_string_value(v), key, len) == 0;
	json_decref(v);
	return same;
}

/*
 * A position-finding scan of a well-formed object at off (one jansson has
 * already read): the offset of the value of its member key, the last one
 * when the key repeats (that is the value the parser kept), or off itself
 * when there is none.
 */
size_t
jsonx_member(const char *s, size_t n, size_t off, const char *key)
{
	size_t at = off, k, kend;

	if (off >= n || s[off] != '{')
		return off;
	off++;
	for (;;) {
		off = jsonx_skip_ws(s, n, off);
		if (off >= n || s[off] != '"')
			return at;
		k = off;
		kend = skip_string(s, n, off);
		off = jsonx_skip_ws(s, n, kend);
		if (off >= n || s[off] != ':')
			return at;
		off = jsonx_skip_ws(s, n, off + 1);
		if (key_is(s, k, kend, key))
			at = off;
		off = jsonx_skip_ws(s, n, skip_value(s, n, off));
		if (off >= n || s[off] != ',')
			return at;
		off++;
	}
}

/*
 * The same for an array at off (well-formed): the offset of its element
 * index, or off itself when it has no such element.
 */
size_t
jsonx_element(const char *s, size_t n, size_t off, size_t index)
{
	size_t at = off, i;

	if (off >= n || s[off] != '[')
		return at;
	off++;
	for (i = 0;; i++) {
		off = jsonx_skip_ws(s, n, off);
		if (off >= n || s[off] == ']')
			return at;
		if (i == index)
			return off;
		off = jsonx_skip_ws(s, n, skip_value(s, n, off));
		if (off >= n || s[off] != ',')
			return at;
		off++;
	}
}
