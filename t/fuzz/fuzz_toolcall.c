/*
 * fuzz_toolcall: lib/toolcall on any bytes, plainly, with events, with
 * --strict and both, fed whole and in pieces whose sizes come from a hash
 * of the input, which also picks the --format (each of the six) and, one
 * input in eight, a small --max-size. The pieces must not change the
 * output or the status; every line must be JSON with the keys of its
 * kind; a call must span from one of the format's openers to its closing
 * markup and come out the moment that markup is fed, as the same call in
 * both modes; the text and error records of valid UTF-8 must give the
 * input back, calls aside; the status must say whether an error was
 * reported; --strict may only refuse more (without an error it changes
 * nothing); and the bytes the reader and expat scan stay within a few
 * times the input, however its openings repeat. Anything else aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "diag.h"
#include "toolcall.h"
#include "utf8.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* What the hash of the input chose: a --format and a --max-size. */
static int	format;
static size_t	max_size;

/* The markup that opens a call, and the formats it does so under. */
static const struct opener {
	const char	*tag;
	size_t		 len;
	unsigned	 on;		/* 1 << TOOLCALL_FMT_* */
} openers[] = {
	{ "<tool>", 6, 1 << TOOLCALL_FMT_TOOL },
	{ "<tool_call>", 11, 1 << TOOLCALL_FMT_QWEN3 |
	    1 << TOOLCALL_FMT_GLM | 1 << TOOLCALL_FMT_HERMES },
	{ "<seed:tool_call>", 16, 1 << TOOLCALL_FMT_QWEN3 },
	{ "<function=", 10, 1 << TOOLCALL_FMT_QWEN3 },
	{ "<invoke ", 8, 1 << TOOLCALL_FMT_INVOKE },
};
#define NOPENERS	(sizeof(openers) / sizeof(openers[0]))

/* One run's output, and for each line the input bytes fed before it. */
struct out {
	char	*s;
	size_t	 len;
	size_t	*fed;		/* bytes fed when line k came out */
	size_t	 nlines;
	size_t	 nfed;		/* room in fed */
	int	 status;
	unsigned long errors, warnings;
};

static void
fail(const char *why, const char *s, size_t n)
{
	fprintf(stderr, "fuzz_toolcall: %s\n%.*s\n", why, (int)n, s);
	abort();
}

/* Shows the two outputs that should have been the same, then aborts. */
static void
differ(const char *why, int mode, const struct out *a, const struct out *b)
{
	fprintf(stderr, "fuzz_toolcall: %s (events %d, strict %d)\n"
	    "whole (status %d, %lu errors, %lu warnings):\n%.*s\n"
	    "pieces (status %d, %lu errors, %lu warnings):\n%.*s\n", why,
	    mode & 1, mode >> 1, a->status, a->errors, a->warnings,
	    (int)a->len, a->s, b->status, b->errors, b->warnings, (int)b->len,
	    b->s);
	abort();
}

static uint32_t
next(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/*
 * Feeds the input in pieces: whole (seed 0), a byte at a time noting when
 * each line comes out (seed 1), or of sizes from the seed.
 */
static void
run(const char *in, size_t n, int events, int strict, uint32_t seed,
    struct out *o)
{
	struct toolcall_opts opts = { events, strict, 0, max_size, NULL,
	    0, 0, 0, format };
	struct toolcall *t;
	unsigned long errors = diag_count(DIAG_ERROR);
	unsigned long warnings = diag_count(DIAG_WARNING);
	size_t at = 0, k, scanned = 0;
	uint32_t x = seed;
	FILE *f;

	memset(o, 0, sizeof(*o));
	if ((f = open_memstream(&o->s, &o->len)) == NULL)
		abort();
	if ((t = toolcall_new(&opts, f, "<fuzz>")) == NULL)
		abort();
	o->nfed = n + 16;
	if (seed == 1 && (o->fed = calloc(o->nfed, sizeof(size_t))) == NULL)
		abort();
	while (at < n) {
		k = seed == 0 ? n : seed == 1 ? 1 : 1 + next(&x) % 97;
		if (k > n - at)
			k = n - at;
		if (toolcall_feed(t, in + at, k) != 0)
			abort();
		at += k;
		if (seed != 1)
			continue;
		/* each line that came out now came with this byte */
		fflush(f);
		for (; scanned < o->len; scanned++)
			if (o->s[scanned] == '\n') {
				if (o->nlines == o->nfed)
					fail("more lines than bytes", in, n);
				o->fed[o->nlines++] = at;
			}
	}
	if (toolcall_end(t) != 0)
		abort();
	o->status = toolcall_status(t);
	o->errors = diag_count(DIAG_ERROR) - errors;
	o->warnings = diag_count(DIAG_WARNING) - warnings;
	if ((o->status == DIAG_INVALID) != (o->errors > 0))
		fail("a status that does not match the errors", in, n);
	/* each byte passed a few times, not once more for each call after */
	if (toolcall_scanned(t) > 32 * (unsigned long long)n + 4096 ||
	    toolcall_work(t) > 32 * (unsigned long long)n + 4096)
		fail("the work is not linear in the input", in, n);
	toolcall_free(t);
	if (fclose(f) != 0)
		abort();
	if (o->status != DIAG_OK && o->status != DIAG_INVALID)
		abort();
	if (o->len > 0 && o->s[o->len - 1] != '\n')
		fail("output does not end with a newline", o->s, o->len);
}

static void
out_free(struct out *o)
{
	free(o->s);
	free(o->fed);
}

static int
same(const struct out *a, const struct out *b)
{
	return a->len == b->len && memcmp(a->s, b->s, a->len) == 0 &&
	    a->status == b->status && a->errors == b->errors &&
	    a->warnings == b->warnings;
}

static int
is_key(json_t *j, const char *key, const char *kind)
{
	json_t *v = json_object_get(j, key);

	if (strcmp(kind, "string") == 0)
		return json_is_string(v);
	if (strcmp(kind, "object") == 0)
		return json_is_object(v);
	if (strcmp(kind, "line") == 0)	/* read as a double */
		return json_is_number(v) && json_number_value(v) >= 1 &&
		    json_number_value(v) == (double)(long long)
		    json_number_value(v);
	return json_is_string(v) || json_is_null(v);	/* raw */
}

/* A call's three members, in their order, after "{" or {"type":..., */
static void
check_call(json_t *j, const char *line, size_t n, size_t extra)
{
	const char *name;
	size_t i, len;

	if (json_object_size(j) != 3 + extra || !is_key(j, "server_name",
	    "string") || !is_key(j, "tool_name", "string") ||
	    !is_key(j, "arguments", "object"))
		fail("a call without its members", line, n);
	name = json_string_value(json_object_get(j, "tool_name"));
	len = json_string_length(json_object_get(j, "tool_name"));
	/* a hermes name may hold "\u0000": its length, not strspn */
	for (i = 0; i < len && strchr(" \t\r\n", name[i]) != NULL &&
	    name[i] != '\0'; i++)
		;
	if (i == len ||
	    json_string_length(json_object_get(j, "server_name")) == 0)
		fail("an empty tool_name or server_name", line, n);
	if (extra == 0 && strncmp(line, "{" "\"server_name\":\"", 16) != 0)
		fail("a call's members out of order", line, n);
	if (extra == 1 && strncmp(line, "{\"type\":\"tool_call\",\"server_name"
	    "\":\"", 35) != 0)
		fail("a tool_call's members out of order", line, n);
}

/* Whether s[0..n) ends with an end tag of tool: "</tool", white space, ">". */
static int
ends_tool(const char *s, size_t n)
{
	if (n < 7 || s[n - 1] != '>')
		return 0;
	for (n--; n > 6 && (s[n - 1] == ' ' || s[n - 1] == '\t' ||
	    s[n - 1] == '\r' || s[n - 1] == '\n'); n--)
		;
	return n >= 6 && memcmp(s + n - 6, "</tool", 6) == 0;
}

/* The opener of the format that in[at..n) begins with, or NULL. */
static const struct opener *
opener_at(const char *in, size_t n, size_t at)
{
	const struct opener *o;
	size_t i;

	for (i = 0; i < NOPENERS; i++) {
		o = &openers[i];
		if ((format == TOOLCALL_FMT_AUTO || (o->on & 1u << format)) &&
		    n - at >= o->len && memcmp(in + at, o->tag, o->len) == 0)
			return o;
	}
	return NULL;
}

/* Where t first begins in s[from, n), or NONE. */
#define NONE	((size_t)-1)

static size_t
find(const char *s, size_t from, size_t n, const char *t)
{
	size_t m = strlen(t);

	for (; from + m <= n; from++)
		if (memcmp(s + from, t, m) == 0)
			return from;
	return NONE;
}

/*
 * Where the call of a dialect that opener o begins at in[at] ends, just
 * past its closing markup, or 0 when it is not closed: then *cut is where
 * the same opener begins again before the closing markup, cutting it
 * short, or NONE. The closing markup: </function> for <function=, and
 * for qwen3 in a wrapper its first </function> then the wrapper's end;
 * </invoke> for <invoke; </tool_call> for glm and hermes. Under auto,
 * what <tool_call> opens is told from the bytes after it and white space:
 * "{" hermes, "<function=" qwen3, else glm.
 */
/*
 * A hermes call from p on: its end past "</tool_call>", or a new
 * "<tool_call>" in *cut, outside the strings of its JSON; 0 for neither.
 */
static size_t
hermes_end(const char *in, size_t n, size_t p, size_t *cut)
{
	int str = 0, esc = 0;

	for (; p < n; p++) {
		if (str) {
			if (esc)
				esc = 0;
			else if (in[p] == '\\')
				esc = 1;
			else if (in[p] == '"')
				str = 0;
		} else if (in[p] == '"')
			str = 1;
		else if (n - p >= 11 && memcmp(in + p, "<tool_call>", 11) == 0) {
			*cut = p;
			return 0;
		} else if (n - p >= 12 && memcmp(in + p, "</tool_call>", 12) == 0)
			return p + 12;
	}
	return 0;
}

static size_t
dialect_end(const char *in, size_t n, size_t at, const struct opener *o,
    size_t *cut)
{
	const char *end = "</tool_call>", *wrap = NULL;
	size_t p = at + o->len, m, e, r;
	int hermes = 0;

	*cut = NONE;
	if (o->tag[1] == 'f')
		end = "</function>";
	else if (o->tag[1] == 'i')
		end = "</invoke>";
	else if (o->tag[1] == 's')
		end = "</function>", wrap = "</seed:tool_call>";
	else if (format == TOOLCALL_FMT_QWEN3)
		end = "</function>", wrap = "</tool_call>";
	else if (format == TOOLCALL_FMT_HERMES)
		hermes = 1;
	else if (format == TOOLCALL_FMT_AUTO) {
		while (p < n && strchr(" \t\r\n", in[p]) != NULL && in[p] != 0)
			p++;
		if (p == n)
			return 0;
		m = n - p < 10 ? n - p : 10;
		if (in[p] == '{')
			hermes = 1;
		else if (in[p] == '<' && memcmp(in + p, "<function=", m) == 0) {
			if (m < 10)
				return 0;
			end = "</function>", wrap = "</tool_call>";
		}
	}
	if (hermes)
		return hermes_end(in, n, at + o->len, cut);
	e = find(in, at + o->len, n, end);
	r = find(in, at + o->len, n, o->tag);
	if (r != NONE && (e == NONE || r < e)) {
		*cut = r;
		return 0;
	}
	if (e == NONE)
		return 0;
	e += strlen(end);
	if (wrap == NULL)
		return e;
	/* in a wrapper, a new opening before the wrapper's end cuts too */
	m = find(in, e, n, wrap);
	if (r != NONE && (m == NONE || r < m)) {
		*cut = r;
		return 0;
	}
	return m == NONE ? 0 : m + strlen(wrap);
}

/*
 * A line of output as JSON, which must be an object; NULL for a call
 * whose arguments have a key with a "\u0000", which jansson does not
 * read: a NUL byte in a key of a dialect's raw text is written so
 * (lib/toolcall, a finding: corpus nul_in_key). Such a line must be a
 * call, of a dialect, from input with a NUL byte in it.
 */
static json_t *
load(const char *p, size_t len, const char *in, size_t n)
{
	json_error_t e;
	json_t *j;

	/* numbers as JavaScript writes them: 1.23e20 has 21 digits */
	if ((j = json_loadb(p, len, JSON_ALLOW_NUL | JSON_DECODE_INT_AS_REAL,
	    &e)) != NULL && json_is_object(j))
		return j;
	if (j == NULL && strstr(e.text, "NUL byte in object key") != NULL &&
	    format != TOOLCALL_FMT_TOOL && memchr(in, '\0', n) != NULL &&
	    (strncmp(p, "{\"server_name\":", 15) == 0 ||
	    strncmp(p, "{\"type\":\"tool_call\",", 20) == 0))
		return NULL;
	fail("not a JSON object", p, len);
	return NULL;
}

/*
 * Checks every line of an output; in events mode also that the text and
 * error records give the input back around the calls, when the input is
 * valid UTF-8 (pos is the byte-at-a-time run, which knows where each
 * call ended). A call spans from one of the format's openers to its
 * closing markup (for <tool>, to "</tool", white space and ">", as far
 * as the call ends by it: what lies between is expat's to judge) and
 * comes out when that markup's last byte is fed; an error's raw begins
 * with an opener and, for a dialect, ends at its closing markup, where
 * the same opener comes again, or at the end of the input. Past a small
 * --max-size, an error's raw is null and the input is no longer
 * followed.
 */
static void
check_lines(const struct out *o, const struct out *pos, const char *in,
    size_t n)
{
	const struct opener *op;
	const char *p, *nl, *type, *text;
	size_t len, k = 0, cur = 0, tlen, end, cut;
	int verbatim;
	json_t *j;

	verbatim = pos != NULL && utf8_valid(in, n) == n;
	if (n >= 3 && memcmp(in, "\xef\xbb\xbf", 3) == 0)
		cur = 3;
	for (p = o->s; p < o->s + o->len; p = nl + 1, k++) {
		nl = memchr(p, '\n', (size_t)(o->s + o->len - p));
		len = (size_t)(nl - p);
		if ((j = load(p, len, in, n)) == NULL) {
			/* a key with "\u0000": the JSON is not read */
			if (pos == NULL)
				continue;
		} else if (pos == NULL) {
			check_call(j, p, len, 0);
			json_decref(j);
			continue;
		}
		if (strncmp(p, "{\"type\":\"", 9) != 0)
			fail("type is not first", p, len);
		type = j == NULL ? "tool_call" :
		    json_string_value(json_object_get(j, "type"));
		if (type != NULL && strcmp(type, "text") == 0) {
			text = json_string_value(json_object_get(j, "text"));
			tlen = json_string_length(json_object_get(j, "text"));
			if (json_object_size(j) != 2 || text == NULL ||
			    tlen == 0 || memchr(text, '\n', tlen - 1) != NULL)
				fail("a bad text record", p, len);
			if (verbatim && (tlen > n - cur ||
			    memcmp(in + cur, text, tlen) != 0))
				fail("text that is not the input", p, len);
			cur += tlen;
		} else if (type != NULL && strcmp(type, "tool_call") == 0) {
			if (j != NULL)
				check_call(j, p, len, 1);
			if (!verbatim) {
				json_decref(j);
				continue;
			}
			if (k >= pos->nlines ||
			    (op = opener_at(in, n, cur)) == NULL)
				fail("a call that does not begin with an "
				    "opener of its format, or came late", p,
				    len);
			if (op->len == 6 ? pos->fed[k] < cur + 13 ||
			    !ends_tool(in + cur, pos->fed[k] - cur) :
			    dialect_end(in, n, cur, op, &cut) != pos->fed[k])
				fail("a call that does not end at its closing "
				    "markup, or came late", p, len);
			if (pos->fed[k] - cur > max_size)
				fail("a call larger than --max-size", p, len);
			cur = pos->fed[k];
		} else if (type != NULL && strcmp(type, "error") == 0) {
			if (json_object_size(j) != 5 ||
			    !is_key(j, "message", "string") ||
			    !is_key(j, "line", "line") ||
			    !is_key(j, "column", "line") ||
			    !is_key(j, "raw", "raw"))
				fail("a bad error record", p, len);
			text = json_string_value(json_object_get(j, "raw"));
			tlen = json_string_length(json_object_get(j, "raw"));
			if (verbatim && text == NULL &&
			    max_size < TOOLCALL_MAX_SIZE) {
				verbatim = 0;	/* its bytes are gone */
				json_decref(j);
				continue;
			}
			if (verbatim && (text == NULL || tlen > n - cur ||
			    memcmp(in + cur, text, tlen) != 0 ||
			    (op = opener_at(text, tlen, 0)) == NULL))
				fail("raw that is not the input, or not a call",
				    p, len);
			if (verbatim && op->len != 6) {
				end = dialect_end(in, n, cur, op, &cut);
				if (end == 0)
					end = cut != NONE ? cut : n;
				if (cur + tlen != end)
					fail("raw that does not end at the "
					    "call's end", p, len);
			}
			cur += tlen;
		} else
			fail("an unknown type", p, len);
		json_decref(j);
	}
	if (verbatim && cur != n)
		fail("records that do not cover the input", in, n);
}

/* Line k of an output, as a pointer and a length. */
static const char *
line_at(const struct out *o, const char *from, size_t *len)
{
	const char *nl = memchr(from, '\n', (size_t)(o->s + o->len - from));

	*len = (size_t)(nl - from);
	return from;
}

/* The calls of events mode are the calls of plain mode, type added. */
static void
check_modes(const struct out *plain, const struct out *ev)
{
	const char *p = plain->s, *q = ev->s, *a, *b;
	size_t la, lb;

	if (plain->status != ev->status || plain->errors != ev->errors ||
	    plain->warnings != ev->warnings)
		fail("events changed the diagnostics", ev->s, ev->len);
	for (; q < ev->s + ev->len; q = b + lb + 1) {
		b = line_at(ev, q, &lb);
		if (strncmp(b, "{\"type\":\"tool_call\",", 20) != 0)
			continue;
		if (p >= plain->s + plain->len)
			fail("a call in events mode only", b, lb);
		a = line_at(plain, p, &la);
		if (la != lb - 19 || memcmp(a + 1, b + 20, la - 1) != 0)
			fail("a call that differs between modes", b, lb);
		p = a + la + 1;
	}
	if (p != plain->s + plain->len)
		fail("a call in plain mode only", p,
		    (size_t)(plain->s + plain->len - p));
}

/*
 * --strict refuses more, and only bare ampersands: with no error of its
 * own, or no "&" in the input at all, it changes nothing. Beyond that it
 * may differ: its error skips to the next <tool>, where plain mode's call
 * goes on to its </tool>, so it may even give a call (or report an error
 * in prose) that plain mode does not. The dialects' values are raw text,
 * where "&" is no error: under every format, --strict touches only the
 * calls of <tool>, so this holds for all.
 */
static void
check_strict(const struct out *plain, const struct out *strict,
    const char *in, size_t n)
{
	if (strict->status < plain->status)
		fail("--strict accepted what plain mode refused", in, n);
	if ((strict->status == DIAG_OK || memchr(in, '&', n) == NULL) &&
	    (!same(plain, strict) || strict->warnings != 0))
		fail("--strict changed what needs no strictness", in, n);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data;
	struct out whole[4], cut, bytes;
	uint32_t seed = 2166136261u;
	size_t i;
	int m;

	diag_setquiet(1);
	for (i = 0; i < size; i++)
		seed = (seed ^ data[i]) * 16777619u;
	if (seed < 2)
		seed += 2;
	/* a byte of the hash for the format, three bits for --max-size */
	format = (int)((seed >> 8 & 0xff) % 6);
	max_size = (seed >> 16 & 7) == 0 ? 16 + (seed >> 19) % 512 :
	    TOOLCALL_MAX_SIZE;
	for (m = 0; m < 4; m++) {
		run(in, size, m & 1, m >> 1, 0, &whole[m]);
		run(in, size, m & 1, m >> 1, seed, &cut);
		if (!same(&whole[m], &cut))
			differ("pieces changed the output", m, &whole[m], &cut);
		out_free(&cut);
		if (m & 1) {
			run(in, size, 1, m >> 1, 1, &bytes);
			if (!same(&whole[m], &bytes))
				differ("1-byte pieces changed the output", m,
				    &whole[m], &bytes);
			check_lines(&whole[m], &bytes, in, size);
			out_free(&bytes);
		} else
			check_lines(&whole[m], NULL, in, size);
	}
	check_modes(&whole[0], &whole[1]);
	check_modes(&whole[2], &whole[3]);
	check_strict(&whole[0], &whole[2], in, size);
	check_strict(&whole[1], &whole[3], in, size);
	for (m = 0; m < 4; m++)
		out_free(&whole[m]);
	return 0;
}
