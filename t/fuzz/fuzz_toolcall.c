/*
 * fuzz_toolcall: lib/toolcall on any bytes, plainly, with events, with
 * --strict and both, fed whole and in pieces whose sizes come from a hash
 * of the input, which also picks the --format (each of the twelve) and,
 * one input in eight, a small --max-size. The pieces must not change the
 * output or the status; every line must be JSON with the keys of its
 * kind; a call must span from one of the format's openers to its closing
 * markup and come out the moment that markup is fed, as the same call in
 * both modes; the text and error records of valid UTF-8 must give the
 * input back, calls aside; the status must say whether an error was
 * reported; --strict may only refuse more (without an error it changes
 * nothing); and the bytes the reader and expat scan stay within a few
 * times the input, however its openings repeat. All of that reads
 * reasoning as prose (--reasoning calls), as before it was known. The
 * spans of calls are followed for <tool> and the first four dialects
 * only (auto has the others' sections and harmony's channels): under
 * harmony, deepseek, mistral, llama3, kimi, pythonic and auto, the text,
 * reasoning and error records of valid UTF-8 are only found in the input
 * in their order.
 *
 * Reasoning, under each --begins-in-reasoning, with reasoning skipped
 * and written as events: the pieces change nothing; every line is JSON
 * of its kind; under no and yes the text, reasoning and error records
 * give the input back around the calls and the markers, each call from
 * one of the format's openers outside reasoning, and out the moment its
 * closing markup is fed. Under skip, no call lies inside reasoning: an
 * input cut in two, its first part's "<" taken out and "</think>" put
 * between, gives under yes and auto the calls, diagnostics and status of
 * its second part alone (under no); and a block of "<think>", the
 * middle of the input with its "</think>" taken out, and "</think>"
 * between markup-free prose and the rest, the same as no block at all
 * (prose without "<", "[" and "{", which begin every dialect's markup).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/diag.h"
#include "base/utf8.h"
#include "toolcall/toolcall.h"

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

/* The options of a run: reasoning read as prose unless said. */
static struct toolcall_opts
mk(int events, int strict, int reasoning, int begins)
{
	struct toolcall_opts o;

	memset(&o, 0, sizeof(o));
	o.events = events;
	o.strict = strict;
	o.max_size = max_size;
	o.format = format;
	o.reasoning = reasoning;
	o.begins = begins;
	return o;
}

/*
 * Feeds the input in pieces: whole (seed 0), a byte at a time noting when
 * each line comes out (seed 1), or of sizes from the seed.
 */
static void
run_with(const char *in, size_t n, const struct toolcall_opts *opts,
    uint32_t seed, struct out *o)
{
	struct toolcall *t;
	unsigned long errors = diag_count(DIAG_ERROR);
	unsigned long warnings = diag_count(DIAG_WARNING);
	size_t at = 0, k, scanned = 0;
	uint32_t x = seed;
	FILE *f;

	memset(o, 0, sizeof(*o));
	if ((f = open_memstream(&o->s, &o->len)) == NULL)
		abort();
	if ((t = toolcall_new(opts, f, "<fuzz>")) == NULL)
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

/* A run that reads reasoning as prose, as the first checks want. */
static void
run(const char *in, size_t n, int events, int strict, uint32_t seed,
    struct out *o)
{
	struct toolcall_opts opts = mk(events, strict, TOOLCALL_REASON_CALLS,
	    TOOLCALL_BEGINS_NO);

	run_with(in, n, &opts, seed, o);
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

/* Where t (m bytes) first begins in s[from, n), or NONE. */
static size_t
findn(const char *s, size_t from, size_t n, const char *t, size_t m)
{
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
 * Reasoning's markers: the kind of block each opens (1, 2) or ends (-1,
 * -2). A block that the template opened (yes) is of kind 3, ended by
 * either closer.
 */
static const struct marker {
	const char	*tag;
	size_t		 len;
	int		 kind;
} markers[] = {
	{ "<think>", 7, 1 },
	{ "<seed:think>", 12, 2 },
	{ "</think>", 8, -1 },
	{ "</seed:think>", 13, -2 },
};

/*
 * Moves *cur over the markers at in[*cur] until the next record fits:
 * the reader is outside reasoning (want 0) or inside a block (want 1),
 * *inr being the kind of block it is in (0 none), and what follows is
 * the text t (tlen bytes; NULL: any, or an opener of the format when
 * call is set). Returns whether it could; want 2, over every marker
 * that can be passed.
 */
static int
align(const char *in, size_t n, size_t *cur, int *inr, int want,
    const char *t, size_t tlen, int call)
{
	const struct marker *m;
	size_t i;

	for (;;) {
		if (want < 2 && (*inr != 0) == want && (call ?
		    opener_at(in, n, *cur) != NULL : t == NULL ||
		    (tlen <= n - *cur && memcmp(in + *cur, t, tlen) == 0)))
			return 1;
		for (i = 0; i < 4; i++) {
			m = &markers[i];
			if (n - *cur >= m->len &&
			    memcmp(in + *cur, m->tag, m->len) == 0)
				break;
		}
		if (i == 4)
			return 0;
		if (*inr == 0 && m->kind > 0)
			*inr = m->kind;
		else if (*inr != 0 && m->kind < 0 && (*inr == 3 ||
		    *inr == -m->kind))
			*inr = 0;
		else
			return 0;
		*cur += m->len;
	}
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
 * followed. With reasoning (opts not reading it as prose, reasoning
 * events, begins no or yes) the reasoning records give back the blocks'
 * text, the markers being in no record, and every other record lies
 * outside the blocks; under auto the input is not followed.
 */
static void
check_lines(const struct out *o, const struct out *pos, const char *in,
    size_t n, const struct toolcall_opts *opts)
{
	const struct opener *op;
	const char *p, *nl, *type, *text;
	size_t len, k = 0, cur = 0, tlen, end, cut;
	int verbatim, loose, inr = 0, rs;
	json_t *j;

	rs = opts->reasoning != TOOLCALL_REASON_CALLS;
	if (rs && opts->begins == TOOLCALL_BEGINS_YES)
		inr = 3;
	/* the later dialects' records are only found in order */
	loose = pos != NULL && utf8_valid(in, n) == n &&
	    format >= TOOLCALL_FMT_HARMONY;
	/* under auto the calls held come out late: not followed then */
	verbatim = pos != NULL && utf8_valid(in, n) == n && !loose &&
	    !(rs && opts->begins == TOOLCALL_BEGINS_AUTO);
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
		if (type != NULL && (strcmp(type, "text") == 0 ||
		    (rs && strcmp(type, "reasoning") == 0))) {
			text = json_string_value(json_object_get(j, "text"));
			tlen = json_string_length(json_object_get(j, "text"));
			if (json_object_size(j) != 2 || text == NULL ||
			    tlen == 0 || memchr(text, '\n', tlen - 1) != NULL)
				fail("a bad text record", p, len);
			if (loose && (cur = findn(in, cur, n, text, tlen)) ==
			    NONE)
				fail("text that is not the input in its order",
				    p, len);
			if (verbatim && !align(in, n, &cur, &inr,
			    type[0] == 'r', text, tlen, 0))
				fail("text that is not the input", p, len);
			cur += tlen;
		} else if (type != NULL && strcmp(type, "tool_call") == 0) {
			if (j != NULL)
				check_call(j, p, len, 1);
			if (!verbatim) {
				json_decref(j);
				continue;
			}
			if (k >= pos->nlines || !align(in, n, &cur, &inr, 0,
			    NULL, 0, 1) || (op = opener_at(in, n, cur)) == NULL)
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
			if (loose && text != NULL && (cur = findn(in, cur, n,
			    text, tlen)) == NONE)
				fail("raw that is not the input in its order",
				    p, len);
			if (verbatim && text == NULL &&
			    max_size < TOOLCALL_MAX_SIZE) {
				verbatim = 0;	/* its bytes are gone */
				json_decref(j);
				continue;
			}
			if (verbatim && (text == NULL || !align(in, n, &cur,
			    &inr, 0, text, tlen, 0) ||
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
	/* markers may end the input, and a block be left open */
	if (verbatim)
		align(in, n, &cur, &inr, 2, NULL, 0, 0);
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
	/* (a call cut by the end of input is warned of in both) */
	if ((strict->status == DIAG_OK || memchr(in, '&', n) == NULL) &&
	    !same(plain, strict))
		fail("--strict changed what needs no strictness", in, n);
}

/* The calls, diagnostics and status of two runs are the same. */
static void
check_same(const char *why, const struct out *a, const struct out *b)
{
	if (!same(a, b))
		differ(why, 0, a, b);
}

/*
 * Appends n bytes of s to the buffer at *p (*len long), or aborts: room
 * for the input and the markers made once, as the first append asks.
 */
static void
append(char **p, size_t *len, const char *s, size_t n, size_t room)
{
	if (*p == NULL && (*p = malloc(room + 32)) == NULL)
		abort();
	memcpy(*p + *len, s, n);
	*len += n;
}

/* s without its "<", "[" and "{": prose that can hold no markup. */
static void
append_plain(char **p, size_t *len, const char *s, size_t n, size_t room)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != '<' && s[i] != '[' && s[i] != '{')
			append(p, len, s + i, 1, room);
}

/*
 * Reasoning, under every --begins-in-reasoning, skipped and as events:
 * fed whole, in pieces and a byte at a time, the same; each line of its
 * kind; under no and yes, with events, the input given back around the
 * calls, the blocks by reasoning records, and the calls on time.
 */
static void
check_reasoning(const char *in, size_t n, uint32_t seed)
{
	static const int begins[] = { TOOLCALL_BEGINS_NO, TOOLCALL_BEGINS_YES,
	    TOOLCALL_BEGINS_AUTO };
	struct toolcall_opts o;
	struct out whole[2], cut, bytes;
	size_t b;
	int ev;

	for (b = 0; b < 3; b++) {
		for (ev = 0; ev < 2; ev++) {
			o = mk(ev, 0, ev ? TOOLCALL_REASON_EVENTS :
			    TOOLCALL_REASON_SKIP, begins[b]);
			run_with(in, n, &o, 0, &whole[ev]);
			run_with(in, n, &o, seed, &cut);
			if (!same(&whole[ev], &cut))
				differ("pieces changed the output with "
				    "reasoning", ev, &whole[ev], &cut);
			out_free(&cut);
			run_with(in, n, &o, 1, &bytes);
			if (!same(&whole[ev], &bytes))
				differ("1-byte pieces changed the output with "
				    "reasoning", ev, &whole[ev], &bytes);
			check_lines(&whole[ev], ev ? &bytes : NULL, in, n, &o);
			out_free(&bytes);
		}
		/* reasoning's events change nothing else */
		check_modes(&whole[0], &whole[1]);
		out_free(&whole[0]);
		out_free(&whole[1]);
	}
}

/*
 * Under skip, nothing in reasoning is a call. The input cut at a point
 * of the hash, its first part A without "<" (no markup at all),
 * A "</think>" B: under yes and auto, B's own calls, diagnostics and
 * status, as read alone under no. And its prose P (the input's first
 * part without "<"), the middle R without "</think>", the rest S:
 * P "\n<think>" R "</think>" S gives, under no and auto, what P "\n" S
 * gives under no.
 */
static void
check_no_calls_in_reasoning(const char *in, size_t n, uint32_t seed)
{
	struct toolcall_opts yes = mk(0, 0, TOOLCALL_REASON_SKIP,
	    TOOLCALL_BEGINS_YES), no = yes, au = yes;
	struct out a, b;
	char *x = NULL, *r = NULL;
	size_t p = n > 0 ? seed % (n + 1) : 0, e = p, xl = 0, rl = 0, k;

	no.begins = TOOLCALL_BEGINS_NO;
	au.begins = TOOLCALL_BEGINS_AUTO;
	append_plain(&x, &xl, in, p, n);
	append(&x, &xl, "</think>", 8, n);
	append(&x, &xl, in + p, n - p, n);
	run_with(in + p, n - p, &no, 0, &b);
	run_with(x, xl, &yes, 0, &a);
	check_same("yes: what comes before a lone </think> made a call",
	    &b, &a);
	out_free(&a);
	run_with(x, xl, &au, 0, &a);
	check_same("auto: what comes before a lone </think> made a call",
	    &b, &a);
	out_free(&a);
	out_free(&b);

	/* a block in the middle */
	if (n > 0)
		e = p + (seed >> 8) % (n - p + 1);
	append(&r, &rl, in + p, e - p, n);
	while ((k = find(r, 0, rl, "</think>")) != NONE) {
		memmove(r + k, r + k + 8, rl - k - 8);
		rl -= 8;
	}
	xl = 0;
	append_plain(&x, &xl, in, p, n);
	append(&x, &xl, "\n", 1, n);
	append(&x, &xl, in + e, n - e, n);
	run_with(x, xl, &no, 0, &b);
	xl = 0;
	append_plain(&x, &xl, in, p, n);
	append(&x, &xl, "\n<think>", 8, n);
	append(&x, &xl, r, rl, n);
	append(&x, &xl, "</think>", 8, n);
	append(&x, &xl, in + e, n - e, n);
	run_with(x, xl, &no, 0, &a);
	check_same("no: a call in a block was written, or the block changed "
	    "what is around it", &b, &a);
	out_free(&a);
	run_with(x, xl, &au, 0, &a);
	check_same("auto: a call in a block was written, or the block "
	    "changed what is around it", &b, &a);
	out_free(&a);
	out_free(&b);
	free(x);
	free(r);
}

/* The prose handed on as it is read (the prose option), and its bytes. */
static void
keep_prose(void *arg, const char *s, size_t n)
{
	FILE *f = arg;

	if (n > 0 && fwrite(s, 1, n, f) != n)
		abort();
}

/* The bytes of s that are not white space, appended to f. */
static void
inked(FILE *f, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' &&
		    s[i] != '\r')
			fputc(s[i], f);
}

/*
 * With thread, the prose handed on as it is read is, white space aside,
 * what the message events hold, in their order, however the input is
 * cut (llm-loop shows the one and keeps the other).
 */
static void
check_prose(const char *in, size_t n, uint32_t seed)
{
	struct toolcall_opts opts;
	struct toolcall *t;
	char *said = NULL, *ink = NULL, *held = NULL, *line, *nl;
	size_t saidlen = 0, inklen = 0, heldlen = 0, at = 0, k;
	uint32_t x = seed;
	FILE *fs, *fi, *fh;
	json_t *ev, *c;

	opts = mk(0, 0, TOOLCALL_REASON_SKIP, (int)(seed >> 3) % 3);
	opts.thread = 1;
	if ((fs = open_memstream(&said, &saidlen)) == NULL ||
	    (fi = open_memstream(&ink, &inklen)) == NULL)
		abort();
	opts.prose = keep_prose;
	opts.prose_arg = fi;
	if ((t = toolcall_new(&opts, fs, "<fuzz>")) == NULL)
		abort();
	while (at < n) {
		k = 1 + next(&x) % 61;
		if (k > n - at)
			k = n - at;
		if (toolcall_feed(t, in + at, k) != 0)
			abort();
		at += k;
	}
	toolcall_end(t);
	toolcall_free(t);
	fclose(fs);
	fclose(fi);
	if ((fh = open_memstream(&held, &heldlen)) == NULL)
		abort();
	for (line = said; line < said + saidlen; line = nl + 1) {
		if ((nl = memchr(line, '\n', (size_t)(said + saidlen - line)))
		    == NULL)
			fail("a record without its newline", in, n);
		ev = json_loadb(line, (size_t)(nl - line), JSON_ALLOW_NUL,
		    NULL);
		c = json_object_get(ev, "content");
		if (json_is_string(c) && strcmp(json_string_value(
		    json_object_get(ev, "type")), "message") == 0)
			inked(fh, json_string_value(c), json_string_length(c));
		json_decref(ev);
	}
	fclose(fh);
	{
		char *a = NULL;
		size_t alen = 0;
		FILE *fa = open_memstream(&a, &alen);

		if (fa == NULL)
			abort();
		inked(fa, ink, inklen);
		fclose(fa);
		if (alen != heldlen || memcmp(a, held, alen) != 0)
			fail("the prose handed on is not the messages' text",
			    in, n);
		free(a);
	}
	free(said);
	free(ink);
	free(held);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data;
	struct toolcall_opts calls;
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
	format = (int)((seed >> 8 & 0xff) % (TOOLCALL_FMT_AUTO + 1));
	max_size = (seed >> 16 & 7) == 0 ? 16 + (seed >> 19) % 512 :
	    TOOLCALL_MAX_SIZE;
	calls = mk(0, 0, TOOLCALL_REASON_CALLS, TOOLCALL_BEGINS_NO);
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
			check_lines(&whole[m], &bytes, in, size, &calls);
			out_free(&bytes);
		} else
			check_lines(&whole[m], NULL, in, size, &calls);
	}
	check_modes(&whole[0], &whole[1]);
	check_modes(&whole[2], &whole[3]);
	check_strict(&whole[0], &whole[2], in, size);
	check_strict(&whole[1], &whole[3], in, size);
	for (m = 0; m < 4; m++)
		out_free(&whole[m]);
	check_reasoning(in, size, seed);
	check_no_calls_in_reasoning(in, size, seed);
	check_prose(in, size, seed);
	return 0;
}
