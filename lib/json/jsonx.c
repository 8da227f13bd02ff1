/*
 * jsonx: reading JSON values one by one with their positions: jansson,
 * or for an array or object, once it pays, simdjson (jsonx_simd.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/src.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "json/jsimd.h"
#include "json/jsonx.h"
#include "json/jsonx_simd.h"

unsigned long	jsonx_simd_reads;

static size_t	skip_string(const char *, size_t, size_t);
static size_t	skip_value(const char *, size_t, size_t);

static void
set_error(struct jsonx_error *err, size_t off, const char *rule,
    const char *text)
{
	err->code = json_error_unknown;
	err->offset = off;
	err->first = JSONX_NOPOS;
	err->key[0] = '\0';
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

/* Whether the string tokens s[a..) and s[b..) hold the same string. */
static int
same_key(const char *s, size_t n, size_t a, size_t b)
{
	size_t ae = skip_string(s, n, a), be = skip_string(s, n, b);
	json_t *x, *y;
	int same;

	if (memchr(s + a, '\\', ae - a) == NULL &&
	    memchr(s + b, '\\', be - b) == NULL)
		return ae - a == be - b && memcmp(s + a, s + b, ae - a) == 0;
	x = json_loadb(s + a, ae - a, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
	y = json_loadb(s + b, be - b, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
	same = x != NULL && y != NULL && json_equal(x, y);
	json_decref(x);
	json_decref(y);
	return same;
}

/*
 * The '{' of the object whose member key starts at key, in the value that
 * starts at off (which reads well up to key): one pass with a stack of
 * the arrays and objects open at each point.
 */
static size_t
enclosing_object(const char *s, size_t n, size_t off, size_t key)
{
	size_t *open = NULL, depth = 0, cap = 0, at = off;

	while (off < key) {
		switch (s[off]) {
		case '"':
			off = skip_string(s, n, off);
			continue;
		case '{':
		case '[':
			if (depth == cap) {
				cap = cap ? 2 * cap : 64;
				open = xreallocarray(open, cap, sizeof(*open));
			}
			open[depth++] = off;
			break;
		case '}':
		case ']':
			if (depth > 0)
				depth--;
			break;
		}
		off++;
	}
	if (depth > 0)
		at = open[depth - 1];
	free(open);
	return at;
}

/*
 * Sets the text of a duplicate-key error, given the position of the
 * key's first occurrence (for callers that count lines their own way).
 */
void
jsonx_dup_text(struct jsonx_error *err, unsigned long line, unsigned long col)
{
	snprintf(err->text, sizeof(err->text), "duplicate key %s, first at "
	    "line %lu, column %lu", err->key, line, col);
}

/*
 * jansson refused a key that the object already has, and stopped at pos,
 * just past it: the error is at that second key, and names the first.
 */
static void
duplicate(const char *s, size_t n, size_t off, size_t pos,
    struct jsonx_error *err)
{
	size_t key, obj, k, bs;
	unsigned long line, col;
	json_t *v;

	if (pos < off + 2 || s[pos - 1] != '"') {	/* not where expected */
		set_error(err, pos, "duplicate-key", "duplicate key");
		return;
	}
	/* back from its closing quote to the opening one */
	for (key = pos - 2; key > off; key--) {
		if (s[key] != '"')
			continue;
		for (bs = 0; key - bs > off && s[key - bs - 1] == '\\'; bs++)
			;
		if (bs % 2 == 0)
			break;
	}
	set_error(err, key, "duplicate-key", "");
	v = json_loadb(s + key, skip_string(s, n, key) - key,
	    JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
	if (json_is_string(v))
		diag_quote(err->key, sizeof(err->key), json_string_value(v),
		    json_string_length(v));
	else
		diag_quote(err->key, sizeof(err->key), "", 0);
	json_decref(v);
	/* the first member of the enclosing object with the same key */
	obj = enclosing_object(s, n, off, key);
	err->first = key;
	for (k = jsonx_skip_ws(s, n, obj + 1); k < key && s[k] == '"';) {
		if (same_key(s, n, k, key)) {
			err->first = k;
			break;
		}
		k = jsonx_skip_ws(s, n, skip_string(s, n, k));
		k = jsonx_skip_ws(s, n, k + 1);		/* the ':' */
		k = jsonx_skip_ws(s, n, skip_value(s, n, k));
		k = jsonx_skip_ws(s, n, k + 1);		/* the ',' */
	}
	utf8_position(s, err->first, &line, &col);
	jsonx_dup_text(err, line, col);
}

/*
 * A number beyond the range of a double, which jansson refused as it
 * stopped at pos, just past it: named (cut when long) at its start.
 */
static void
out_of_range(const char *s, size_t off, size_t pos, struct jsonx_error *err)
{
	char text[sizeof(err->text)];
	size_t a = pos, len;

	while (a > off && strchr("0123456789+-.eE", s[a - 1]) != NULL &&
	    s[a - 1] != '\0')
		a--;
	len = pos - a;
	snprintf(text, sizeof(text), "invalid JSON: the number %.*s%s is out "
	    "of range (beyond the largest double, 1.7976931348623157e308)",
	    (int)(len > 40 ? 37 : len), s + a, len > 40 ? "..." : "");
	set_error(err, a, "json-number", text);
}

#ifdef HAVE_SIMDJSON

/* Linked in, or else (a null address) loaded with the kit's engines. */
#pragma weak jsonx_simd_open

static json_t *
host_boolean(int b)
{
	return b ? json_true() : json_false();
}

static void
host_decref(json_t *v)
{
	json_decref(v);
}

static const struct jsonx_simd_host host = {
	json_object, json_array, json_stringn_nocheck, json_integer, json_real,
	host_boolean, json_null, json_object_setn_new_nocheck,
	json_array_append_new, json_object_size, host_decref
};

/*
 * The simdjson engine, to read a value of the text whose n bytes from
 * here on are offered to it, or NULL when jansson reads.
 */
static const struct jsonx_simd_engine *
engine(size_t n)
{
	static const struct jsonx_simd_engine *e;
	const struct jsonx_simd_engine *(*open)(int,
	    const struct jsonx_simd_host *);
	void *sym;

	if (!jsimd_ready(n, jsonx_simd_open != NULL))
		return NULL;
	if (e != NULL)
		return e;
	if (jsonx_simd_open != NULL)
		open = jsonx_simd_open;
	else if ((sym = jsimd_sym("jsonx_simd_open")) != NULL)
		/* POSIX guarantees the conversion that ISO C leaves out */
		memcpy(&open, &sym, sizeof(open));
	else
		return NULL;
	return e = open(JSONX_SIMD_ABI, &host);
}

/*
 * Just past the closing bracket of the array or object at off, found by
 * counting brackets outside strings, or JSONX_NOPOS when the text ends
 * first. Only a guess in bad text, which the engine then refuses. Also
 * JSONX_NOPOS for an integer -0, whose sign simdjson loses.
 */
static size_t
value_end(const char *s, size_t n, size_t off)
{
	const char *p, *q, *b, *e = s + n;
	size_t depth = 0;

	for (p = s + off; p < e; p++) {
		switch (*p) {
		case '"':
			/* the next quote that an even run of '\\' precedes */
			for (;;) {
				if ((q = memchr(p + 1, '"', (size_t)(e - p - 1)))
				    == NULL)
					return JSONX_NOPOS;
				for (b = q; b[-1] == '\\'; b--)
					;
				p = q;
				if ((q - b) % 2 == 0)
					break;
			}
			break;
		case '[':
		case '{':
			depth++;
			break;
		case ']':
		case '}':
			if (--depth == 0)
				return (size_t)(p - s) + 1;
			break;
		case '-':
			if (e - p > 1 && p[1] == '0' && (e - p == 2 ||
			    (p[2] != '.' && p[2] != 'e' && p[2] != 'E')))
				return JSONX_NOPOS;
			break;
		}
	}
	return JSONX_NOPOS;
}

/*
 * The bytes that the engine has looked at in vain (a value it declined,
 * or text where value_end found none), and those read into values either
 * way. A caller that reads again from the place where a reading failed
 * (jsonresp_find) would have the engine look at the rest of a text that
 * is all brackets again and again: once the waste outgrows what was read
 * by WASTE_MAX, jansson reads alone, which stops where the text goes
 * wrong, so that time stays linear.
 */
#define WASTE_MAX	((size_t)1 << 20)

static size_t waste, useful;

/*
 * The array or object at off read by the engine as json_loadb reads it
 * with flags, when the text from off on is offered to it (jansson has
 * read JSIMD_LOAD_MIN bytes, or the text is that long): *end set past
 * it; NULL when it declines, or when whole says that only white space
 * may follow it and something else does (jansson's to refuse).
 */
static json_t *
engine_parse(const char *s, size_t n, size_t off, size_t flags, int whole,
    size_t *end)
{
	const struct jsonx_simd_engine *eng;
	size_t e;
	json_t *v;

	if (off >= n || (s[off] != '{' && s[off] != '[') ||
	    waste > useful + WASTE_MAX ||
	    (eng = engine(n - off >= JSIMD_LOAD_MIN ? n - off : 0)) == NULL)
		return NULL;
	if ((e = value_end(s, n, off)) == JSONX_NOPOS) {
		waste += n - off;
		return NULL;
	}
	if (whole && jsonx_skip_ws(s, n, e) != n) {
		waste += e - off;
		return NULL;
	}
	if ((v = eng->parse(s + off, e - off, flags)) == NULL) {
		waste += e - off;
		return NULL;
	}
	*end = e;
	useful += e - off;
	jsonx_simd_reads++;
	return v;
}

void
jsonx_simd_reset(void)
{
	waste = useful = 0;
}

/* n bytes that jansson has read, counted towards loading the engine. */
static void
engine_count(size_t n)
{
	useful += n;
	(void)jsimd_ready(n, jsonx_simd_open != NULL);
}

#else /* !HAVE_SIMDJSON: jansson reads everything */

void
jsonx_simd_reset(void)
{
}

static json_t *
engine_parse(const char *s, size_t n, size_t off, size_t flags, int whole,
    size_t *end)
{
	return NULL;
}

static void
engine_count(size_t n)
{
}

#endif

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
	const char *nul;
	char text[sizeof(err->text)];
	enum json_error_code code;

	if ((v = engine_parse(s, n, jsonx_skip_ws(s, n, off), JSONX_FLAGS, 0,
	    end)) == NULL &&
	    (v = json_loadb(s + off, n - off, JSONX_FLAGS, &je)) != NULL) {
		*end = off + (size_t)je.position;
		engine_count(*end - off);	/* what jansson has read */
	}
	if (v != NULL) {
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
	/* it takes a raw NUL byte for the end of the text */
	nul = memchr(s + off, '\0', (pos < n ? pos + 1 : n) - off);
	if (nul != NULL && (size_t)(nul - s) <= valid) {
		set_error(err, (size_t)(nul - s), "json-syntax",
		    "invalid JSON: NUL byte");
		return NULL;
	}
	code = json_error_code(&je);
	if (valid <= pos && valid < n && code == json_error_invalid_utf8) {
		snprintf(text, sizeof(text),
		    "invalid UTF-8: byte 0x%02x at byte offset %zu",
		    (unsigned char)s[valid], valid);
		set_error(err, valid, "utf8", text);
		err->code = code;
		return NULL;
	}
	if (code == json_error_duplicate_key) {
		duplicate(s, n, off, pos, err);
		err->code = code;
		return NULL;
	}
	if (code == json_error_numeric_overflow) {
		out_of_range(s, off, pos, err);
		err->code = code;
		return NULL;
	}
	pos = error_offset(s, n, off, pos, je.text);
	if (code == json_error_stack_overflow) {
		snprintf(text, sizeof(text), "invalid JSON: a value "
		    "nested deeper than %d levels", JSONX_MAX_DEPTH);
		set_error(err, pos, "json-depth", text);
		err->code = code;
		return NULL;
	}
	snprintf(text, sizeof(text), "invalid JSON: %s", je.text);
	set_error(err, pos, "json-syntax", text);
	err->code = code;
	return NULL;
}

/*
 * json_loadb(s, n, flags, e), to the same result: the same tree (numbers
 * integers or doubles as flags say, keys in the same order), or NULL and
 * the same error in *e, which jansson words, since whatever the engine
 * declines jansson reads. An array or object that is the whole text but
 * for white space around it is read by the engine once that pays, as in
 * jsonx_parse, and *e is then set as json_loadb sets it on success. With
 * JSON_DISABLE_EOF_CHECK jansson reads: its caller wants to know where
 * jansson stopped (e->position), and no reader of the kit asks for it.
 */
json_t *
jsonx_load(const char *s, size_t n, size_t flags, json_error_t *e)
{
	size_t end, read;
	json_t *v;

	if (s != NULL && !(flags & JSON_DISABLE_EOF_CHECK) &&
	    (v = engine_parse(s, n, jsonx_skip_ws(s, n, 0), flags, 1,
	    &end)) != NULL) {
		if (e != NULL) {
			/* jansson's own state after a text read well */
			json_decref(json_loadb("[]", 2, 0, e));
			e->position = (int)n;
		}
		return v;
	}
	if ((v = json_loadb(s, n, flags, e)) != NULL) {
		read = n;
		if ((flags & JSON_DISABLE_EOF_CHECK) && e != NULL)
			read = (size_t)e->position;
		engine_count(read);	/* what jansson has read */
	}
	return v;
}

/*
 * jansson says "near end of file" when the text ran out; a caller whose
 * text is a line or a string names it: "near end of line".
 */
void
jsonx_end_noun(struct jsonx_error *err, const char *noun)
{
	static const char eof[] = "near end of file";
	struct buf b = BUF_INIT;
	char *at;

	if (err->code != json_error_premature_end_of_input ||
	    (at = strstr(err->text, eof)) == NULL)
		return;
	buf_add(&b, err->text, (size_t)(at - err->text));
	buf_printf(&b, "near end of %s%s", noun, at + sizeof(eof) - 1);
	snprintf(err->text, sizeof(err->text), "%s", buf_cstr(&b));
	buf_free(&b);
}

/* Starts reading s, after a byte order mark, as an array or a sequence. */
void
jsonx_seq_init(struct jsonx_seq *q, const char *s, size_t n)
{
	q->s = s;
	q->n = n;
	q->off = 0;
	q->off = jsonx_skip_ws(s, n, utf8_bom(s, n));
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

void
jsonx_locator_init(struct jsonx_locator *l, const char *s, size_t n)
{
	memset(l, 0, sizeof(*l));
	l->s = s;
	l->n = n;
}

static void
cont_free(struct jsonx_cont *c)
{
	json_decref(c->keys);
	free(c->elems);
	memset(c, 0, sizeof(*c));
}

void
jsonx_locator_free(struct jsonx_locator *l)
{
	size_t i;

	for (i = 0; i < sizeof(l->cont) / sizeof(l->cont[0]); i++)
		cont_free(&l->cont[i]);
}

/* Indexes the object at off: each key (the last when it repeats) -> offset. */
static void
index_object(const char *s, size_t n, size_t off, struct jsonx_cont *c)
{
	size_t k, kend;
	json_t *key;

	c->keys = json_object();
	for (off++;;) {
		off = jsonx_skip_ws(s, n, off);
		if (off >= n || s[off] != '"')
			return;
		k = off;
		kend = skip_string(s, n, off);
		off = jsonx_skip_ws(s, n, kend);
		if (off >= n || s[off] != ':')
			return;
		off = jsonx_skip_ws(s, n, off + 1);
		if (memchr(s + k, '\\', kend - k) == NULL && kend - k >= 2)
			json_object_setn_new(c->keys, s + k + 1, kend - k - 2,
			    json_integer((json_int_t)off));
		else if ((key = json_loadb(s + k, kend - k, JSON_DECODE_ANY |
		    JSON_ALLOW_NUL, NULL)) != NULL) {
			if (json_is_string(key))
				json_object_setn_new(c->keys,
				    json_string_value(key),
				    json_string_length(key),
				    json_integer((json_int_t)off));
			json_decref(key);
		}
		off = jsonx_skip_ws(s, n, skip_value(s, n, off));
		if (off >= n || s[off] != ',')
			return;
		off++;
	}
}

/* Indexes the array at off: the offset of each element. */
static void
index_array(const char *s, size_t n, size_t off, struct jsonx_cont *c)
{
	size_t cap = 0;

	for (off++;;) {
		off = jsonx_skip_ws(s, n, off);
		if (off >= n || s[off] == ']')
			return;
		if (c->nelems == cap) {
			cap = cap ? 2 * cap : 16;
			c->elems = xreallocarray(c->elems, cap,
			    sizeof(*c->elems));
		}
		c->elems[c->nelems++] = off;
		off = jsonx_skip_ws(s, n, skip_value(s, n, off));
		if (off >= n || s[off] != ',')
			return;
		off++;
	}
}

/* The index of the array or object at off: kept, or made in place of the
 * one used longest ago. */
static struct jsonx_cont *
container(struct jsonx_locator *l, size_t off)
{
	struct jsonx_cont *c, *old = &l->cont[0];
	size_t i;

	for (i = 0; i < sizeof(l->cont) / sizeof(l->cont[0]); i++) {
		c = &l->cont[i];
		if (c->used > 0 && c->off == off) {
			c->used = ++l->clock;
			return c;
		}
		if (c->used < old->used)
			old = c;
	}
	cont_free(old);
	old->off = off;
	old->used = ++l->clock;
	if (l->s[off] == '{')
		index_object(l->s, l->n, off, old);
	else
		index_array(l->s, l->n, off, old);
	return old;
}

/*
 * The offset of the value at the JSON Pointer ptr in the well-formed
 * value at off, as far as the pointer leads (off itself when it leads
 * nowhere).
 */
size_t
jsonx_locate(struct jsonx_locator *l, size_t off, const char *ptr)
{
	const char *s = l->s;
	struct jsonx_cont *c;
	struct buf seg = BUF_INIT;
	json_t *at;
	size_t next, i;
	char *end;

	off = jsonx_skip_ws(s, l->n, off);
	while (*ptr == '/' && off < l->n &&
	    (s[off] == '{' || s[off] == '[')) {
		buf_reset(&seg);
		for (ptr++; *ptr != '\0' && *ptr != '/'; ptr++) {
			if (ptr[0] == '~' && ptr[1] == '1') {
				buf_addc(&seg, '/');
				ptr++;
			} else if (ptr[0] == '~' && ptr[1] == '0') {
				buf_addc(&seg, '~');
				ptr++;
			} else
				buf_addc(&seg, *ptr);
		}
		c = container(l, off);
		if (s[off] == '{') {
			at = json_object_getn(c->keys, seg.len > 0 ? seg.data :
			    "", seg.len);
			if (at == NULL)
				break;
			next = (size_t)json_integer_value(at);
		} else {
			buf_addc(&seg, '\0');
			if (seg.data[0] < '0' || seg.data[0] > '9')
				break;
			i = strtoul(seg.data, &end, 10);
			if (*end != '\0' || i >= c->nelems)
				break;
			next = c->elems[i];
		}
		off = jsonx_skip_ws(s, l->n, next);
	}
	buf_free(&seg);
	return off;
}
