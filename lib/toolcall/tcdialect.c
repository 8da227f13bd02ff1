/*
 * tcdialect: one tool call of an open model's dialect, read from its
 * whole text (opening to closing markup, as the streaming reader found
 * it) into the tool's name and its arguments, or an error at an offset.
 * This file holds the dialects of raw-text values and hermes, and the
 * reading of a call's JSON that all JSON dialects share; the others are
 * in lib/tcdialect_json.c, the table of how calls stand in a stream in
 * lib/tcdialect_form.c.
 *
 * White space is space, tab, CR and LF; white space before the opening
 * and after the closing markup is allowed. Names, keys and values are
 * byte ranges of the text: nothing is decoded, nothing is checked for
 * UTF-8 (the writer of the record does that).
 *
 * qwen3 (Qwen3-Coder, Qwen3.5, Seed-OSS):
 *	[<tool_call> | <seed:tool_call>] <function=NAME>
 *	{<parameter=KEY> VALUE} </function> [</tool_call> | </seed:tool_call>]
 *   The wrapper is optional; when opened it must be closed by its own
 *   closing tag. NAME and KEY run to the first ">", trimmed, non-empty.
 *   A VALUE runs from after its tag to the next "<parameter=" or
 *   "</function>"; then a "</parameter>" at its end (only white space
 *   after it) is removed, so that a missing </parameter> is tolerated as
 *   the reference parsers tolerate it, and a "</parameter>" that is not
 *   the last thing before the next parameter stays in the value; then
 *   one newline right after the opening tag and one right before the
 *   closing tag are layout and removed ("\r\n" is one newline). Only
 *   white space may come between <function=NAME> and the first
 *   parameter. One function per call: a second <function= after
 *   </function> is an error (one inside a value is raw text).
 *   Parameter boundaries: with the tool's parameters known
 *   (tcd_parse_params, from its schema's "properties"), a VALUE ends
 *   instead at the first "</parameter>" followed, past white space, by
 *   "</function>" or by "<parameter=Y>" with Y one of them, written
 *   exactly, or right before such a "<parameter=Y>"; "<function=NAME>"
 *   inside a value, NAME made of a tool name's bytes, opens a call
 *   written in it, whose "</function>" is its own and inside which no
 *   value ends. The first parameter's tag, and the errors, are the rule
 *   above's; a call whose first non-white byte after <function=NAME> is
 *   not a tag is read by the rule above. tcd_qscan finds the ends as the
 *   bytes come, so that the streaming reader and this parser agree.
 *
 * invoke (MiniMax-M2, the <function_calls> form; the wrappers
 * <minimax:tool_call> and <function_calls> are the reader's):
 *	<invoke name="NAME"> {<parameter name="KEY"> VALUE} </invoke>
 *   The quote is " or ' (no entity decoded in NAME or KEY); white space
 *   is allowed around "=" and before ">"; no other attribute. NAME and
 *   KEY are trimmed and non-empty. A VALUE runs to the next
 *   "<parameter" + white space + "name" + white space + "=", or to
 *   "</invoke>", and is trimmed of its "</parameter>" and layout
 *   newlines as in qwen3.
 *
 * glm (GLM-4.5, 4.6, 4.7):
 *	<tool_call> NAME {<arg_key>KEY</arg_key> <arg_value>VALUE</arg_value>}
 *	</tool_call>
 *   NAME runs to the first "<" (a tool's name holds none: so the other
 *   dialects' markup after <tool_call> is an error, not a name), trimmed,
 *   non-empty. KEY runs to the first "</arg_key>", trimmed, non-empty;
 *   only white space comes between </arg_key> and <arg_value>, and
 *   between pairs. A VALUE runs to the first "</arg_value>" followed by
 *   white space and "<arg_key>" or "</tool_call>" (so that "</arg_value>"
 *   inside code survives), and is raw: not trimmed. No pair at all is a
 *   call with no arguments: <tool_call>get_date</tool_call>. Text
 *   between pairs is an error, but where a later "</arg_value>" may end
 *   the value it is the value's, by the same rule that keeps
 *   "</arg_value>" in code.
 *
 * hermes (Hermes, Qwen2.5, many models served by Ollama):
 *	<tool_call> JSON-OBJECT </tool_call>
 *   The JSON runs from after <tool_call> to the last "</tool_call>" of
 *   the text. It is read by jansson with duplicate keys refused and
 *   integers exact (read as reals only when one is past int64, as the
 *   seed's JSON text is). Its members: "name", a non-empty string;
 *   "arguments", an object, or a string holding a JSON object (as
 *   OpenAI's API writes it), or absent (no arguments); "parameters" (as
 *   Llama 3 writes it) is taken for "arguments" when that is absent,
 *   and both at once are an error. Other members ("id", "type") are
 *   ignored. A Python dict with single quotes is not JSON: an error.
 *   "\u0000" in a string is kept (as in the seed's JSON text); a raw
 *   NUL byte is an error.
 *   c->json is the arguments object; c->args stays empty. tcd_parse_text
 *   first gives the object to simdjson (lib/tcsimd), which writes the
 *   arguments' text, the bytes jsonw_exact writes of jansson's tree, many
 *   times faster, into c->argtext; what it declines (every error among
 *   it) is read by jansson as above. With TCD_CUT (the input ended
 *   before </tool_call>: the server stopped at its end-of-sequence
 *   token) the JSON runs to the end of the text. llama3's calls and the
 *   objects of mistral's list are read by the same code.
 *
 * A key that repeats is kept, in order: c->args is the call's arguments
 * as written (the reader makes repeated keys an array).
 *
 * Errors: every message is "malformed DIALECT call: " and then
 *
 *   message					erroff: the byte offset of
 *   ------------------------------------------	---------------------------
 *   qwen3
 *   <function=NAME> expected			the first other byte (or n)
 *   <function= is not closed by >		<function=
 *   <function=> has no name			<function=
 *   <function=NAME> has no </function>		<function=
 *   text outside a parameter			the text
 *   <parameter= is not closed by >		<parameter=
 *   <parameter=> has no name			<parameter=
 *   a second <function=NAME> in one call	the second <function=
 *   <tool_call> has no </tool_call>		<tool_call>
 *   <seed:tool_call> has no </seed:tool_call>	<seed:tool_call>
 *   text after </function>			the text
 *   text after </tool_call>			the text
 *   text after </seed:tool_call>		the text
 *   invoke
 *   <invoke name="NAME"> expected		the first other byte (or n)
 *   <invoke> has no name attribute		<invoke
 *   the name of <invoke> has no closing quote	<invoke
 *   <invoke name="..." is not closed by >	<invoke
 *   <invoke name=""> has no name		<invoke
 *   <invoke> has no </invoke>			<invoke
 *   text outside a parameter			the text
 *   <parameter> has no name attribute		<parameter
 *   the name of <parameter> has no closing quote	<parameter
 *   <parameter name="..." is not closed by >	<parameter
 *   <parameter name=""> has no name		<parameter
 *   text after </invoke>			the text
 *   glm
 *   <tool_call> expected			the first other byte (or n)
 *   <tool_call> has no name			<tool_call>
 *   <tool_call> has no </tool_call>		<tool_call>
 *   text outside an argument			the text
 *   <arg_key> has no </arg_key>		<arg_key>
 *   <arg_key></arg_key> has no name		<arg_key>
 *   <arg_key> has no <arg_value>		<arg_key>
 *   <arg_value> has no </arg_value>		<arg_value>
 *   text after </tool_call>			the text
 *   hermes
 *   <tool_call> expected			the first other byte (or n)
 *   <tool_call> has no </tool_call>		<tool_call>
 *   <tool_call> holds no JSON			<tool_call>
 *   text after </tool_call>			the text
 *   the JSON holds a NUL byte			the NUL byte
 *   the JSON ends early			where jansson stopped (*)
 *   text after the JSON object			where jansson stopped (*)
 *   the JSON is not valid UTF-8		where jansson stopped (*)
 *   the JSON object has a duplicate key	where jansson stopped (*)
 *   the JSON nests too deep			where jansson stopped (*)
 *   a number in the JSON is out of range	where jansson stopped (*)
 *   invalid JSON: MESSAGE			where jansson stopped (*)
 *   the JSON is not an object			the JSON's first byte
 *   the JSON object has no "name"		the JSON's first byte
 *   "name" is not a string			the value of "name"
 *   "name" is empty				the value of "name"
 *   "arguments" is not an object		its value
 *   "arguments" is a string that holds no JSON object	its value
 *   the JSON object has both "arguments" and "parameters"
 *						the value of "parameters"
 *   ("parameters" in the place of "arguments" when that one is used)
 *
 *   (A dialect tcd_parse does not know, a caller's mistake, is the
 *   error "unknown tool-call dialect N" at offset 0.)
 *
 *   (*) the JSON's first byte + json_error_t.position, which jansson
 *   (2.14) counts in bytes, not characters: just past the token it
 *   stopped at. MESSAGE is jansson's own, without its "near '...'"
 *   part: "':' expected", "invalid token", "unexpected newline",
 *   "string or '}' expected", "control character 0x1"...
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/xalloc.h"
#include "json/jsonx.h"
#include "toolcall/tcdialect.h"
#include "toolcall/tcdialect_int.h"
#include "toolcall/tcsimd.h"

#define NONE		TCDI_NONE
#define LIT(s)		TCDI_LIT(s)
#define is_ws		tcdi_is_ws
#define skip_ws		tcdi_skip_ws
#define at		tcdi_at
#define find		tcdi_find
#define find_last	tcdi_find_last
#define span		tcdi_span
#define fail		tcdi_fail

static const char *const dialect_names[] = {
	"", "qwen3", "invoke", "glm", "hermes", "harmony", "deepseek",
	"mistral", "llama3", "kimi", "pythonic"
};

const char *
tcd_dialect_name(int d)
{
	if (d < 1 || d > TCD_NDIALECTS)
		return NULL;
	return dialect_names[d];
}

/* The offset of the first len bytes of lit at or after p, or NONE. */
size_t
tcdi_find(const char *s, size_t n, size_t p, const char *lit, size_t len)
{
	const char *q;

	while (p < n && (q = memchr(s + p, lit[0], n - p)) != NULL) {
		p = (size_t)(q - s);
		if (at(s, n, p, lit, len))
			return p;
		p++;
	}
	return NONE;
}

/* The same for the last one after p, or NONE. */
size_t
tcdi_find_last(const char *s, size_t n, size_t p, const char *lit,
    size_t len)
{
	size_t last = NONE, q;

	while ((q = find(s, n, p, lit, len)) != NONE) {
		last = q;
		p = q + 1;
	}
	return last;
}

static void
trim(const char *s, size_t *a, size_t *b)
{
	while (*a < *b && is_ws(s[*a]))
		(*a)++;
	while (*b > *a && is_ws(s[*b - 1]))
		(*b)--;
}

/* [a, b) trimmed, in *off and *len: whether anything is left. */
int
tcdi_span(const char *s, size_t a, size_t b, size_t *off, size_t *len)
{
	trim(s, &a, &b);
	*off = a;
	*len = b - a;
	return *len != 0;
}

/* Sets the call's error, one line: always returns -1. */
int
tcdi_fail(struct tcd_call *c, enum tcd_dialect d, size_t off,
    const char *fmt, ...)
{
	va_list ap;
	int k;

	k = snprintf(c->err, sizeof(c->err), "malformed %s call: ",
	    dialect_names[d]);
	va_start(ap, fmt);
	vsnprintf(c->err + k, sizeof(c->err) - (size_t)k, fmt, ap);
	va_end(ap);
	c->erroff = off;
	return -1;
}

static void
add_arg(struct tcd_call *c, size_t key, size_t keylen, size_t val,
    size_t vallen)
{
	struct tcd_arg *a;

	if (c->nargs == c->argcap) {
		c->argcap = c->argcap != 0 ? c->argcap * 2 : 8;
		c->args = xreallocarray(c->args, c->argcap, sizeof(*c->args));
	}
	a = &c->args[c->nargs++];
	a->key = key;
	a->keylen = keylen;
	a->val = val;
	a->vallen = vallen;
}

/*
 * A qwen3 or invoke value [a, b) as written up to the next tag: without
 * a "</parameter>" that ends it, and without one newline of layout on
 * either side.
 */
static void
add_value(struct tcd_call *c, const char *s, size_t key, size_t keylen,
    size_t a, size_t b)
{
	size_t t = b;

	while (t > a && is_ws(s[t - 1]))
		t--;
	if (t - a >= 12 && memcmp(s + t - 12, "</parameter>", 12) == 0)
		b = t - 12;
	if (b - a >= 1 && s[a] == '\n')
		a++;
	else if (b - a >= 2 && s[a] == '\r' && s[a + 1] == '\n')
		a += 2;
	if (b > a && s[b - 1] == '\n') {
		b--;
		if (b > a && s[b - 1] == '\r')
			b--;
	}
	add_arg(c, key, keylen, a, b - a);
}

/* qwen3: the next "<parameter=" or "</function>" from p, or NONE. */
static size_t
qwen3_next(const char *s, size_t n, size_t p)
{
	const char *q;

	for (; p < n && (q = memchr(s + p, '<', n - p)) != NULL; p++) {
		p = (size_t)(q - s);
		if (at(s, n, p, LIT("<parameter=")) ||
		    at(s, n, p, LIT("</function>")))
			return p;
	}
	return NONE;
}

/*
 * Whether the len bytes of lit are at p in s (n bytes): 2 if so, 1 when
 * the bytes end in a part of them (more may say), else 0.
 */
static int
pre(const char *s, size_t n, size_t p, const char *lit, size_t len)
{
	if (n - p >= len)
		return memcmp(s + p, lit, len) == 0 ? 2 : 0;
	return memcmp(s + p, lit, n - p) == 0;
}

/*
 * qwen3, the tool's parameters known: whether the name of one and ">"
 * follow p (as pre says), its length in *len.
 */
static int
known_key(const struct tcd_params *pp, const char *s, size_t n, size_t p,
    size_t *len)
{
	const char *g;
	size_t m, i;

	m = n - p < pp->maxlen + 1 ? n - p : pp->maxlen + 1;
	if ((g = memchr(s + p, '>', m)) == NULL)
		return m < pp->maxlen + 1;
	m = (size_t)(g - (s + p));
	for (i = 0; i < pp->n; i++)
		if (m > 0 && pp->len[i] == m &&
		    memcmp(pp->name[i], s + p, m) == 0) {
			*len = m;
			return 2;
		}
	return 0;
}

#define QNAME_MAX	128	/* of a call's name written in a value */

/*
 * qwen3: whether a tool's name and ">" follow "<function=" at p (as pre
 * says): a call written inside a value, whose </function> is its own.
 * The name is what tools are named by: letters, digits, "_-.:/", and
 * any byte of a character past ASCII; so that "<function=" in code (a
 * string, a format) opens nothing.
 */
static int
fname_at(const char *s, size_t n, size_t p, size_t *end)
{
	unsigned char ch;
	size_t i;

	for (i = p; i < n && i - p <= QNAME_MAX; i++) {
		ch = (unsigned char)s[i];
		if (ch == '>') {
			*end = i + 1;
			return i > p ? 2 : 0;
		}
		if (!(ch >= 0x80 || (ch >= 'a' && ch <= 'z') ||
		    (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		    strchr("_-.:/", ch) != NULL))
			return 0;
	}
	return i == n;
}

enum { Q_START, Q_KEY, Q_VAL, Q_CLOSED, Q_NEXT, Q_FEND, Q_DONE };

int
tcd_qscan(struct tcd_qscan *q, const char *s, size_t n, int eof)
{
	const char *r;
	size_t p = q->p, t, len = 0;
	int a, b, c, d, k;

	for (;;) {
		switch (q->st) {
		case Q_START:
			/* white space, then a parameter or </function> */
			if ((p = skip_ws(s, n, p)) == n)
				goto more;
			a = pre(s, n, p, LIT("</function>"));
			b = pre(s, n, p, LIT("<parameter="));
			if (a == 2) {
				q->fend = p;
				q->p = p + 11;
				q->st = Q_DONE;
				return TCDQ_END;
			}
			if (b == 2) {
				q->key = p += 11;
				q->st = Q_KEY;
				continue;
			}
			if ((a | b) != 0 && !eof)
				goto more;
			return TCDQ_OTHER;
		case Q_KEY:
			/* the first parameter's: any name, as ever */
			if (p >= n || (r = memchr(s + p, '>', n - p)) == NULL) {
				p = n;
				if (eof)
					return TCDQ_OTHER;
				goto more;
			}
			t = (size_t)(r - s);
			if (!span(s, q->key, t, &q->key, &q->keylen) ||
			    memchr(s + q->key, '<', q->keylen) != NULL)
				return TCDQ_OTHER;
			p = q->val = t + 1;
			q->st = Q_VAL;
			continue;
		case Q_NEXT:
			q->key = q->nkey;
			q->keylen = q->nkeylen;
			q->val = p;
			q->depth = 0;
			q->st = Q_VAL;
			continue;
		case Q_VAL:
			if (p >= n || (r = memchr(s + p, '<', n - p)) == NULL) {
				p = n;
				goto more;
			}
			t = (size_t)(r - s);
			a = pre(s, n, t, LIT("</parameter>"));
			b = pre(s, n, t, LIT("</function>"));
			c = pre(s, n, t, LIT("<function="));
			d = pre(s, n, t, LIT("<parameter="));
			p = t + 1;
			if (a == 2 && q->depth == 0) {
				q->vend = t + 12;
				p = t + 12;
				q->st = Q_CLOSED;
			} else if (b == 2) {
				/* a call's inside the value; else text */
				if (q->depth > 0)
					q->depth--;
			} else if (c == 2) {
				k = fname_at(s, n, t + 10, &p);
				if (k == 2)
					q->depth++;
				else if (k == 1 && !eof) {
					p = t;
					goto more;
				} else
					p = t + 1;
			} else if (d == 2 && q->depth == 0) {
				/* a </parameter> left out */
				k = known_key(q->pp, s, n, t + 11, &len);
				if (k == 2) {
					q->vend = t;
					goto next;
				}
				if (k == 1 && !eof) {
					p = t;
					goto more;
				}
			} else if ((a | b | c | d) == 1 && !eof) {
				p = t;
				goto more;
			}
			continue;
		case Q_CLOSED:
			/* after </parameter>: does the next tag end the value? */
			if ((p = skip_ws(s, n, p)) == n)
				goto more;
			a = pre(s, n, p, LIT("</function>"));
			b = pre(s, n, p, LIT("<parameter="));
			if (a == 2) {
				q->fend = p;
				q->p = p + 11;
				q->st = Q_FEND;
				return TCDQ_ARG;
			}
			if (b == 2) {
				t = p;
				k = known_key(q->pp, s, n, t + 11, &len);
				if (k == 2)
					goto next;
				if (k == 1 && !eof)
					goto more;
			} else if ((a | b) == 1 && !eof)
				goto more;
			q->st = Q_VAL;
			continue;
		case Q_FEND:
			q->st = Q_DONE;
			/* FALLTHROUGH */
		default:
			return TCDQ_END;
		}
	}
next:
	q->nkey = t + 11;
	q->nkeylen = len;
	q->p = t + 12 + len;
	q->st = Q_NEXT;
	return TCDQ_ARG;
more:
	q->p = p;
	return TCDQ_MORE;
}

/*
 * The values of a call whose tool's parameters are known: 0 with *e at
 * </function>, 1 when what follows the function's tag is read by
 * today's rule, -1 on an error.
 */
static int
qwen3_known(const char *s, size_t n, size_t p, size_t f,
    const struct tcd_params *pp, struct tcd_call *c, size_t *e)
{
	struct tcd_qscan q;
	int r;

	memset(&q, 0, sizeof(q));
	q.pp = pp;
	q.p = p;
	while ((r = tcd_qscan(&q, s, n, 1)) == TCDQ_ARG)
		add_value(c, s, q.key, q.keylen, q.val, q.vend);
	if (r == TCDQ_OTHER)
		return 1;
	if (r == TCDQ_MORE)
		return fail(c, TCD_QWEN3, f,
		    "<function=NAME> has no </function>");
	*e = q.fend;
	return 0;
}

int
tcd_qwen3_head(const char *s, size_t n, size_t *name, size_t *namelen)
{
	size_t p, e;

	p = skip_ws(s, n, 0);
	if (at(s, n, p, LIT("<tool_call>")))
		p = skip_ws(s, n, p + 11);
	else if (at(s, n, p, LIT("<seed:tool_call>")))
		p = skip_ws(s, n, p + 16);
	if (!at(s, n, p, LIT("<function=")) ||
	    (e = find(s, n, p + 10, LIT(">"))) != n - 1 ||
	    !span(s, p + 10, e, name, namelen))
		return 0;
	return memchr(s + *name, '<', *namelen) == NULL;
}

static int
parse_qwen3(const char *s, size_t n, const struct tcd_params *pp,
    struct tcd_call *c)
{
	const char *wrap = NULL, *wrap_close = NULL;
	size_t p, w = 0, f, e, a, key = 0, keylen = 0;
	int first = 1, r;

	p = skip_ws(s, n, 0);
	if (at(s, n, p, LIT("<tool_call>"))) {
		wrap = "<tool_call>";
		wrap_close = "</tool_call>";
	} else if (at(s, n, p, LIT("<seed:tool_call>"))) {
		wrap = "<seed:tool_call>";
		wrap_close = "</seed:tool_call>";
	}
	if (wrap != NULL) {
		w = p;
		p = skip_ws(s, n, p + strlen(wrap));
	}
	if (!at(s, n, p, LIT("<function=")))
		return fail(c, TCD_QWEN3, p, "<function=NAME> expected");
	f = p;
	if ((e = find(s, n, f + 10, LIT(">"))) == NONE)
		return fail(c, TCD_QWEN3, f, "<function= is not closed by >");
	if (!span(s, f + 10, e, &c->name, &c->namelen))
		return fail(c, TCD_QWEN3, f, "<function=> has no name");
	if (pp != NULL &&
	    (r = qwen3_known(s, n, e + 1, f, pp, c, &e)) != 1) {
		if (r != 0)
			return -1;
		goto closed;
	}
	for (p = e + 1;; first = 0) {
		if ((e = qwen3_next(s, n, p)) == NONE)
			return fail(c, TCD_QWEN3, f,
			    "<function=NAME> has no </function>");
		if (first && (a = skip_ws(s, n, p)) < e)
			return fail(c, TCD_QWEN3, a,
			    "text outside a parameter");
		if (!first)
			add_value(c, s, key, keylen, p, e);
		if (at(s, n, e, LIT("</function>")))
			break;
		if ((p = find(s, n, e + 11, LIT(">"))) == NONE)
			return fail(c, TCD_QWEN3, e,
			    "<parameter= is not closed by >");
		if (!span(s, e + 11, p++, &key, &keylen))
			return fail(c, TCD_QWEN3, e,
			    "<parameter=> has no name");
	}
closed:
	p = skip_ws(s, n, e + 11);
	if (wrap != NULL && at(s, n, p, wrap_close, strlen(wrap_close))) {
		if ((p = skip_ws(s, n, p + strlen(wrap_close))) < n)
			return fail(c, TCD_QWEN3, p, "text after %s",
			    wrap_close);
		return 0;
	}
	if (wrap != NULL && p == n)
		return fail(c, TCD_QWEN3, w, "%s has no %s", wrap, wrap_close);
	if (p == n)
		return 0;
	if (at(s, n, p, LIT("<function=")))
		return fail(c, TCD_QWEN3, p,
		    "a second <function=NAME> in one call");
	return fail(c, TCD_QWEN3, p, "text after </function>");
}

/*
 * invoke: after a tag's name at p, white space, "name", "=" with white
 * space around it: the offset past them, or NONE.
 */
static size_t
name_attr(const char *s, size_t n, size_t p)
{
	if (p >= n || !is_ws(s[p]))
		return NONE;
	p = skip_ws(s, n, p);
	if (!at(s, n, p, LIT("name")))
		return NONE;
	p = skip_ws(s, n, p + 4);
	if (p >= n || s[p] != '=')
		return NONE;
	return skip_ws(s, n, p + 1);
}

/* invoke: whether a parameter's tag, "<parameter name=", starts at p. */
static int
invoke_param(const char *s, size_t n, size_t p)
{
	return at(s, n, p, LIT("<parameter")) &&
	    name_attr(s, n, p + 10) != NONE;
}

/* invoke: the next parameter or "</invoke>" from p, or NONE. */
static size_t
invoke_next(const char *s, size_t n, size_t p)
{
	const char *q;

	for (; p < n && (q = memchr(s + p, '<', n - p)) != NULL; p++) {
		p = (size_t)(q - s);
		if (at(s, n, p, LIT("</invoke>")) || invoke_param(s, n, p))
			return p;
	}
	return NONE;
}

/*
 * invoke: the tag at t, "<invoke" or "<parameter" (tag, of taglen bytes),
 * with its one attribute name="NAME": the trimmed name in *off and
 * *len, and in *end the offset past its ">".
 */
static int
named_tag(const char *s, size_t n, size_t t, const char *tag,
    size_t taglen, struct tcd_call *c, size_t *off, size_t *len, size_t *end)
{
	size_t p, q;

	if ((p = name_attr(s, n, t + taglen)) == NONE || p >= n ||
	    (s[p] != '"' && s[p] != '\''))
		return fail(c, TCD_INVOKE, t, "%s> has no name attribute",
		    tag);
	if ((q = find(s, n, p + 1, s + p, 1)) == NONE)
		return fail(c, TCD_INVOKE, t,
		    "the name of %s> has no closing quote", tag);
	*end = skip_ws(s, n, q + 1) + 1;
	if (*end > n || s[*end - 1] != '>')
		return fail(c, TCD_INVOKE, t,
		    "%s name=\"...\" is not closed by >", tag);
	if (!span(s, p + 1, q, off, len))
		return fail(c, TCD_INVOKE, t, "%s name=\"\"> has no name", tag);
	return 0;
}

static int
parse_invoke(const char *s, size_t n, struct tcd_call *c)
{
	size_t p, t, e, a, b, key = 0, keylen = 0;
	int first = 1;

	t = skip_ws(s, n, 0);
	if (!at(s, n, t, LIT("<invoke")) || (t + 7 < n && !is_ws(s[t + 7]) &&
	    s[t + 7] != '>'))
		return fail(c, TCD_INVOKE, t,
		    "<invoke name=\"NAME\"> expected");
	if (named_tag(s, n, t, LIT("<invoke"), c, &c->name, &c->namelen,
	    &p) != 0)
		return -1;
	for (;; first = 0) {
		if ((e = invoke_next(s, n, p)) == NONE)
			return fail(c, TCD_INVOKE, t,
			    "<invoke> has no </invoke>");
		if (first && (a = skip_ws(s, n, p)) < e) {
			/* a <parameter> whose tag is wrong: say how */
			if (at(s, n, a, LIT("<parameter")) && (a + 10 == n ||
			    is_ws(s[a + 10]) || s[a + 10] == '>'))
				return named_tag(s, n, a, LIT("<parameter"), c,
				    &a, &b, &p);
			return fail(c, TCD_INVOKE, a,
			    "text outside a parameter");
		}
		if (!first)
			add_value(c, s, key, keylen, p, e);
		if (at(s, n, e, LIT("</invoke>")))
			break;
		if (named_tag(s, n, e, LIT("<parameter"), c, &key, &keylen,
		    &p) != 0)
			return -1;
	}
	p = skip_ws(s, n, e + 9);
	if (p < n)
		return fail(c, TCD_INVOKE, p, "text after </invoke>");
	return 0;
}

/*
 * glm: the end of the value that starts at p: the first "</arg_value>"
 * followed by white space and "<arg_key>" or "</tool_call>", or NONE.
 */
static size_t
glm_value_end(const char *s, size_t n, size_t p)
{
	size_t e, q;

	while ((e = find(s, n, p, LIT("</arg_value>"))) != NONE) {
		q = skip_ws(s, n, e + 12);
		if (at(s, n, q, LIT("<arg_key>")) ||
		    at(s, n, q, LIT("</tool_call>")))
			return e;
		p = e + 1;
	}
	return NONE;
}

static int
parse_glm(const char *s, size_t n, struct tcd_call *c)
{
	size_t t, p, a, b, k, v, e;	/* the key: a, b bytes */

	t = skip_ws(s, n, 0);
	if (!at(s, n, t, LIT("<tool_call>")))
		return fail(c, TCD_GLM, t, "<tool_call> expected");
	if ((p = find(s, n, t + 11, LIT("<"))) == NONE)
		p = n;
	if (!span(s, t + 11, p, &c->name, &c->namelen))
		return fail(c, TCD_GLM, t, "<tool_call> has no name");
	while (p < n && at(s, n, p, LIT("<arg_key>"))) {
		k = p;
		if ((e = find(s, n, k + 9, LIT("</arg_key>"))) == NONE)
			return fail(c, TCD_GLM, k,
			    "<arg_key> has no </arg_key>");
		if (!span(s, k + 9, e, &a, &b))
			return fail(c, TCD_GLM, k,
			    "<arg_key></arg_key> has no name");
		v = skip_ws(s, n, e + 10);
		if (!at(s, n, v, LIT("<arg_value>")))
			return fail(c, TCD_GLM, k,
			    "<arg_key> has no <arg_value>");
		if ((e = glm_value_end(s, n, v + 11)) == NONE) {
			/* no end is followed by what may follow a value */
			if ((e = find_last(s, n, v + 11,
			    LIT("</arg_value>"))) == NONE)
				return fail(c, TCD_GLM, v,
				    "<arg_value> has no </arg_value>");
			if ((p = skip_ws(s, n, e + 12)) == n)
				return fail(c, TCD_GLM, t,
				    "<tool_call> has no </tool_call>");
			return fail(c, TCD_GLM, p, "text outside an argument");
		}
		add_arg(c, a, b, v + 11, e - (v + 11));
		p = skip_ws(s, n, e + 12);
	}
	if (p == n)
		return fail(c, TCD_GLM, t, "<tool_call> has no </tool_call>");
	if (!at(s, n, p, LIT("</tool_call>")))
		return fail(c, TCD_GLM, p, "text outside an argument");
	if ((p = skip_ws(s, n, p + 12)) < n)
		return fail(c, TCD_GLM, p, "text after </tool_call>");
	return 0;
}

/*
 * Reads n bytes of JSON at s as the seed's JSON text is read: duplicate
 * keys refused, integers exact unless one is past int64.
 */
static json_t *
load_exact(const char *s, size_t n, json_error_t *e)
{
	json_t *j;

	j = jsonx_load(s, n, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, e);
	if (j == NULL && json_error_code(e) == json_error_numeric_overflow)
		j = jsonx_load(s, n, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL |
		    JSON_DECODE_INT_AS_REAL, e);
	return j;
}

/* The error jansson gave for the JSON at offset j of the call. */
static int
json_fail(struct tcd_call *c, enum tcd_dialect d, size_t j, size_t len,
    const json_error_t *e)
{
	size_t off = j + (e->position > 0 ? (size_t)e->position : 0);
	const char *near;
	int k;

	if (off > j + len)
		off = j + len;
	switch (json_error_code(e)) {
	case json_error_premature_end_of_input:
		return fail(c, d, off, "the JSON ends early");
	case json_error_end_of_input_expected:
		return fail(c, d, off, "text after the JSON object");
	case json_error_invalid_utf8:
		return fail(c, d, off, "the JSON is not valid UTF-8");
	case json_error_duplicate_key:
		return fail(c, d, off, "the JSON object has a duplicate key");
	case json_error_stack_overflow:
		return fail(c, d, off, "the JSON nests too deep");
	case json_error_numeric_overflow:
		return fail(c, d, off, "a number in the JSON is out of range");
	default:
		/* jansson's message: its fixed part, one line */
		near = strstr(e->text, " near ");
		k = near != NULL ? (int)(near - e->text) : (int)strlen(e->text);
		return fail(c, d, off, "invalid JSON: %.*s", k, e->text);
	}
}

/* jansson would take a NUL byte for the end of its input. */
static int
has_nul(enum tcd_dialect d, const char *s, size_t j, size_t end,
    struct tcd_call *c)
{
	const char *nul = memchr(s + j, '\0', end - j);

	if (nul == NULL)
		return 0;
	fail(c, d, (size_t)(nul - s), "the JSON holds a NUL byte");
	return 1;
}

/*
 * A call's arguments: the JSON object in [j, end) of s (not empty, no
 * white space around it) into c->json, or the error of dialect d.
 */
int
tcdi_json_args(enum tcd_dialect d, const char *s, size_t j, size_t end,
    struct tcd_call *c)
{
	json_error_t e;
	json_t *v;

	if (has_nul(d, s, j, end, c))
		return -1;
	if ((v = load_exact(s + j, end - j, &e)) == NULL)
		return json_fail(c, d, j, end - j, &e);
	if (!json_is_object(v)) {
		json_decref(v);
		return fail(c, d, j, "the JSON is not an object");
	}
	c->json = v;
	return 0;
}

/*
 * The tool's name, len bytes decoded at name, of the object at j (the
 * text up to end, read without error): its place in the text when it is
 * the first member and written without escapes, else a copy.
 */
static void
json_name_set(const char *s, size_t end, size_t j, const char *name,
    size_t len, struct tcd_call *c)
{
	size_t q, p;
	int escaped = 0;

	/* most models write "name" first: its place costs little then */
	q = skip_ws(s, end, j + 1);
	if (at(s, end, q, LIT("\"name\""))) {
		q = skip_ws(s, end, q + 6);
		q = skip_ws(s, end, q + 1);	/* the colon */
		for (p = q + 1; s[p] != '"'; p++)
			if (s[p] == '\\') {
				escaped = 1;
				p++;
			}
		if (!escaped) {
			c->name = q + 1;
			c->namelen = p - (q + 1);
			return;
		}
	}
	c->namebuflen = len;
	c->namebuf = xmalloc(len + 1);
	memcpy(c->namebuf, name, len);
	c->namebuf[len] = '\0';
}

/*
 * The tool's name, from the member "name" of the object at j (the text
 * up to end); the member's place is looked for in the text only for an
 * error, or to point at a name written without escapes.
 */
static int
json_name(enum tcd_dialect d, const char *s, size_t end, size_t j,
    json_t *name, struct tcd_call *c)
{
	if (!json_is_string(name))
		return fail(c, d, jsonx_member(s, end, j, "name"),
		    "\"name\" is not a string");
	if (json_string_length(name) == 0)
		return fail(c, d, jsonx_member(s, end, j, "name"),
		    "\"name\" is empty");
	json_name_set(s, end, j, json_string_value(name),
	    json_string_length(name), c);
	return 0;
}

/*
 * The arguments (the member what of the object at j, in the text up to
 * end) into c->json; their place is looked for only for an error.
 */
static int
json_members(enum tcd_dialect d, const char *what, const char *s,
    size_t end, size_t j, json_t *args, struct tcd_call *c)
{
	json_error_t e;
	json_t *v;

	if (args == NULL) {
		c->json = json_object();
		return 0;
	}
	if (json_is_object(args)) {
		c->json = json_incref(args);
		return 0;
	}
	if (!json_is_string(args))
		return fail(c, d, jsonx_member(s, end, j, what),
		    "\"%s\" is not an object", what);
	v = load_exact(json_string_value(args), json_string_length(args), &e);
	if (!json_is_object(v)) {
		json_decref(v);
		return fail(c, d, jsonx_member(s, end, j, what),
		    "\"%s\" is a string that holds no JSON object", what);
	}
	c->json = v;
	return 0;
}

/*
 * A call that is a JSON object of hermes's members, in [j, end) of s
 * (not empty, no white space around it), read as dialect d's; with
 * text, the arguments as JSON text where simdjson (lib/tcsimd) takes
 * the object, and jansson's tree where it declines; with need, a call
 * without "arguments" or "parameters" is refused (llama3's).
 */
int
tcdi_json_call(enum tcd_dialect d, const char *s, size_t j, size_t end,
    int text, int need, struct tcd_call *c)
{
	struct buf name = BUF_INIT;
	json_error_t e;
	json_t *v = NULL, *args, *params;
	int r;

	if (has_nul(d, s, j, end, c))
		return -1;
	if (text && tcsimd_hermes(s + j, end - j, &name, &c->argtext)) {
		/* simdjson gives "{}" for no arguments: were they there? */
		if (need && c->argtext.len == 2 &&
		    jsonx_member(s, end, j, "arguments") == j &&
		    jsonx_member(s, end, j, "parameters") == j) {
			buf_free(&name);
			return fail(c, d, j, "the JSON object has no "
			    "\"parameters\"");
		}
		json_name_set(s, end, j, name.data, name.len, c);
		buf_free(&name);
		return 0;
	}
	buf_free(&name);	/* declined: its length was put back, not freed */
	if ((v = load_exact(s + j, end - j, &e)) == NULL)
		return json_fail(c, d, j, end - j, &e);
	r = -1;
	if (!json_is_object(v)) {
		fail(c, d, j, "the JSON is not an object");
		goto out;
	}
	if (json_object_get(v, "name") == NULL) {
		fail(c, d, j, "the JSON object has no \"name\"");
		goto out;
	}
	if (json_name(d, s, end, j, json_object_get(v, "name"), c) != 0)
		goto out;
	args = json_object_get(v, "arguments");
	params = json_object_get(v, "parameters");
	if (args != NULL && params != NULL) {
		fail(c, d, jsonx_member(s, end, j, "parameters"),
		    "the JSON object has both \"arguments\" and "
		    "\"parameters\"");
		goto out;
	}
	if (need && args == NULL && params == NULL) {
		fail(c, d, j, "the JSON object has no \"parameters\"");
		goto out;
	}
	if (args != NULL || params == NULL)
		r = json_members(d, "arguments", s, end, j, args, c);
	else
		r = json_members(d, "parameters", s, end, j, params, c);
out:
	json_decref(v);
	return r;
}

/*
 * hermes: <tool_call> JSON </tool_call>; cut, the input ended before
 * </tool_call>: the JSON runs to the end of the text.
 */
static int
parse_hermes(const char *s, size_t n, int flags, struct tcd_call *c)
{
	size_t t, j, end, p;

	t = skip_ws(s, n, 0);
	if (!at(s, n, t, LIT("<tool_call>")))
		return fail(c, TCD_HERMES, t, "<tool_call> expected");
	if (flags & TCD_CUT)
		end = n;
	else if ((end = find_last(s, n, t + 11, LIT("</tool_call>"))) ==
	    NONE)
		return fail(c, TCD_HERMES, t,
		    "<tool_call> has no </tool_call>");
	else if ((p = skip_ws(s, n, end + 12)) < n)
		return fail(c, TCD_HERMES, p, "text after </tool_call>");
	j = skip_ws(s, n, t + 11);
	while (end > j && is_ws(s[end - 1]))
		end--;
	if (j == end)
		return fail(c, TCD_HERMES, t, "<tool_call> holds no JSON");
	return tcdi_json_call(TCD_HERMES, s, j, end, flags & TCD_TEXT, 0, c);
}

int
tcd_parse_flags(enum tcd_dialect d, const char *s, size_t n, int flags,
    struct tcd_call *c)
{
	return tcd_parse_params(d, s, n, flags, NULL, c);
}

int
tcd_parse_params(enum tcd_dialect d, const char *s, size_t n, int flags,
    const struct tcd_params *pp, struct tcd_call *c)
{
	memset(c, 0, sizeof(*c));
	switch (d) {
	case TCD_QWEN3:
		return parse_qwen3(s, n, pp, c);
	case TCD_INVOKE:
		return parse_invoke(s, n, c);
	case TCD_GLM:
		return parse_glm(s, n, c);
	case TCD_HERMES:
		return parse_hermes(s, n, flags, c);
	case TCD_HARMONY:
		return tcdi_parse_harmony(s, n, flags, c);
	case TCD_DEEPSEEK:
		return tcdi_parse_deepseek(s, n, flags, c);
	case TCD_MISTRAL:
		return tcdi_parse_mistral(s, n, flags, c);
	case TCD_LLAMA3:
		return tcdi_parse_llama3(s, n, flags, c);
	case TCD_KIMI:
		return tcdi_parse_kimi(s, n, flags, c);
	case TCD_PYTHONIC:
		return fail(c, d, 0, "a list of calls is read whole, by "
		    "pylit_calls");
	}
	snprintf(c->err, sizeof(c->err), "unknown tool-call dialect %d",
	    (int)d);
	return -1;
}

int
tcd_parse(enum tcd_dialect d, const char *s, size_t n, struct tcd_call *c)
{
	return tcd_parse_flags(d, s, n, 0, c);
}

int
tcd_parse_text(enum tcd_dialect d, const char *s, size_t n,
    struct tcd_call *c)
{
	return tcd_parse_flags(d, s, n, TCD_TEXT, c);
}

void
tcd_call_free(struct tcd_call *c)
{
	free(c->args);
	free(c->namebuf);
	buf_free(&c->argtext);
	json_decref(c->json);
	memset(c, 0, sizeof(*c));
}

const char *
tcd_name(const struct tcd_call *c, const char *s, size_t *len)
{
	if (c->namebuf != NULL) {
		*len = c->namebuflen;
		return c->namebuf;
	}
	*len = c->namelen;
	return s + c->name;
}
