/*
 * tcdialect_json: the calls of the dialects whose arguments are a JSON
 * object: harmony (gpt-oss), deepseek (V3, V3.1, R1), mistral, llama3
 * and kimi (K2). Each parser reads one call's whole text, as the
 * streaming reader cut it out of a section of calls (tcd_forms says how),
 * into the tool's name, the model's id of the call where it writes one,
 * and the arguments (c->json), or an error at an offset.
 *
 * The JSON is read as hermes's is (lib/tcdialect.c): by jansson, a key
 * that repeats refused, integers exact (reals only past int64), "\u0000"
 * kept and a raw NUL byte refused; the arguments must be an object. A
 * call that is a whole JSON object of hermes's members (llama3's, and
 * one object of mistral's list) is read by hermes's code, simdjson's fast
 * path included; bare arguments (harmony's, deepseek's, kimi's, mistral's
 * name form) go to simdjson too under TCD_TEXT (lib/tcsimd:
 * tcsimd_object), and jansson reads what it declines. White space around the call's text, and around the
 * parts of its markup, is allowed. Names are raw text where the markup
 * holds them: nothing is decoded or checked for UTF-8 (the writer of the
 * record does that).
 *
 * harmony (gpt-oss; OpenAI's harmony format):
 *	[<|start|>ROLE {ATTR}] <|channel|>CHANNEL {ATTR} <|message|> BODY
 *	(<|call|> | <|end|> | <|return|>)
 *	ATTR := to=RECIPIENT | <|constrain|>TYPE | TYPE
 *   e.g. <|start|>assistant<|channel|>commentary to=functions.get_weather
 *	<|constrain|>json<|message|>{"city": "Paris"}<|call|>
 *   reads as get_weather {"city": "Paris"}. The head runs from the
 *   opener to the first <|message|>; ROLE, CHANNEL, RECIPIENT and TYPE
 *   are words (they end at white space or "<|"); the recipient may come
 *   before <|channel|> (in the role's part, as the model writes it after
 *   "<|start|>assistant") or after it, once; the content type may be a
 *   word of the channel's part ("commentary json") or follow
 *   <|constrain|>. A call is a message to "functions.NAME": NAME is the
 *   tool (vLLM's reading; a recipient in another namespace, browser or
 *   python, is a tool the model's own runtime runs, never the client's).
 *   The BODY runs to the last end marker of the text; it is the
 *   arguments whatever the content type says (gpt-oss writes JSON; vLLM
 *   assumes JSON without one), and an empty body is a call with no
 *   arguments ({}), as vLLM's tests have it. Any end marker ends a call
 *   (vLLM takes a message to a function as a call however it ends;
 *   gpt-oss writes <|call|>, a stop token that servers may strip: with
 *   TCD_CUT the body runs to the end of the text). The channel decides
 *   nothing in the parser: tcd_harmony_head gives it to the reader, for
 *   which analysis is reasoning and final the answer.
 *
 * deepseek (DeepSeek V3, R1: V3's form; V3.1, V3.2's JSON form: V3.1's):
 *	<｜tool▁call▁begin｜> function <｜tool▁sep｜> NAME "\n"
 *	```json JSON ``` <｜tool▁call▁end｜>
 *	<｜tool▁call▁begin｜> NAME <｜tool▁sep｜> JSON <｜tool▁call▁end｜>
 *   (the bars are U+FF5C, the low lines U+2581, three bytes each in
 *   UTF-8.) e.g. <｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city":
 *   "Paris"}<｜tool▁call▁end｜> reads as get_weather {"city": "Paris"}.
 *   The part before the first <｜tool▁sep｜> is V3's type and the name is
 *   the first line after it, when that part is "function" and what
 *   follows the separator is not a JSON object; otherwise it is V3.1's
 *   name (so V3.1 may call a tool named "function"). V3's JSON is fenced
 *   by "```json" (or "```") and the last "```"; the JSON runs to the last
 *   <｜tool▁call▁end｜> of the text, so that a value may hold the markup.
 *   The section's <｜tool▁calls▁begin｜> and <｜tool▁calls▁end｜> are the
 *   reader's.
 *
 * mistral (Mistral 7B v0.3 and Nemo: the list; Small 3.1 and later,
 * Devstral, Magistral: the name form, [ARGS] and [CALL_ID] where the
 * tokenizer writes them, left out where a server decoded them away):
 *	[TOOL_CALLS] NAME [[CALL_ID] ID] [[ARGS]] JSON
 *	{"name": NAME, "arguments": {...}}	(one object of a list)
 *   e.g. [TOOL_CALLS]get_weather[CALL_ID]a1b2c3d4e[ARGS]{"city":
 *   "Paris"} reads as get_weather {"city": "Paris"} with id a1b2c3d4e.
 *   NAME runs to the first "[ARGS]", "[CALL_ID]" or "{"; ID to the next
 *   "[ARGS]" or "{"; both are trimmed and may not be empty. Several calls
 *   are several [TOOL_CALLS] in a row. The list [TOOL_CALLS] [{...},
 *   {...}] is a section of the reader's, whose objects come here one by
 *   one; an object is read as hermes's (an "id" member is ignored).
 *
 * llama3 (Llama 3.1, 3.2, 3.3 and 4 with JSON tool calls):
 *	[<|python_tag|>] {"name": NAME, "parameters": {...}}
 *   e.g. {"name": "get_weather", "parameters": {"city": "Paris"}}. The
 *   object is read as hermes's, "arguments" taken as "parameters", but
 *   one of them is required, as vLLM requires it: the model writes its
 *   calls as bare JSON, and a JSON answer {"name": "Ada"} must not be
 *   taken for a call (where the output begins with bare JSON, the reader
 *   asks tcd_is_answer first, and reads an answer as prose). Several
 *   calls, separated by ";" or white space, are a section of the
 *   reader's.
 *
 * kimi (Kimi K2):
 *	<|tool_call_begin|> ID <|tool_call_argument_begin|> JSON
 *	<|tool_call_end|>	ID := [functions.] NAME : INDEX
 *   e.g. <|tool_call_begin|>functions.get_weather:0
 *   <|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|> reads
 *   as get_weather {"city": "Paris"} with id functions.get_weather:0
 *   (the id Kimi wants back with the tool's result). NAME is what is
 *   between the optional "functions." and the last ":", which is
 *   followed by digits alone; dots in it are kept (SGLang's reading;
 *   vLLM keeps only the last part). A bare counter ("0"), which vLLM
 *   resolves against the request's tools, names no tool here: an error.
 *   The JSON runs to the last <|tool_call_end|> of the text. The
 *   section's markup (<|tool_calls_section_begin|>, or "call" singular)
 *   is the reader's.
 *
 * Errors: every message is "malformed DIALECT call: " and then
 *
 *   message					erroff: the byte offset of
 *   ------------------------------------------	---------------------------
 *   harmony
 *   <|start|> or <|channel|> expected		the first other byte (or n)
 *   the head has no <|message|>		the opener
 *   <|start|> has no role			<|start|>
 *   <|channel|> has no channel name		that <|channel|>
 *   a second <|channel|> in one head		the second <|channel|>
 *   <|constrain|> has no content type		<|constrain|>
 *   to= has no recipient			to=
 *   a second recipient in one head		the second to=
 *   unknown markup in the head			its "<|"
 *   the message has no to=functions.NAME	the opener
 *   the recipient is not functions.NAME	to=
 *   the message has no <|call|>		the opener
 *   text after <|call|> (or <|end|>, <|return|>)	the text
 *   deepseek
 *   <｜tool▁call▁begin｜> expected		the first other byte (or n)
 *   <｜tool▁call▁begin｜> has no <｜tool▁call▁end｜>
 *						<｜tool▁call▁begin｜>
 *   text after <｜tool▁call▁end｜>		the text
 *   <｜tool▁call▁begin｜> has no <｜tool▁sep｜>	<｜tool▁call▁begin｜>
 *   <｜tool▁call▁begin｜> has no name		<｜tool▁call▁begin｜>
 *   <｜tool▁sep｜> has no name			<｜tool▁sep｜>
 *   <｜tool▁sep｜> has no JSON after it		<｜tool▁sep｜>
 *   the name has no ```json block after it	the first byte after the
 *						name's line (or its end)
 *   ```json is not closed by ```		the opening ```
 *   the ```json block holds no JSON		the opening ```
 *   text after the ```json block		the text
 *   mistral
 *   [TOOL_CALLS] or a JSON object expected	the first other byte (or n)
 *   [TOOL_CALLS] [...] is a list: each object is read alone	its "["
 *   [TOOL_CALLS] has no name			[TOOL_CALLS]
 *   [TOOL_CALLS]NAME has no arguments		[TOOL_CALLS]
 *   [CALL_ID] has no id			[CALL_ID]
 *   [ARGS] has no JSON after it		[ARGS]
 *   llama3
 *   a JSON object expected			the end of the text
 *   the JSON object has no "parameters"	the JSON's first byte
 *   kimi
 *   <|tool_call_begin|> expected		the first other byte (or n)
 *   <|tool_call_begin|> has no <|tool_call_end|>	<|tool_call_begin|>
 *   text after <|tool_call_end|>		the text
 *   <|tool_call_begin|> has no <|tool_call_argument_begin|>
 *						<|tool_call_begin|>
 *   the call's id is not functions.NAME:INDEX	the id (<|tool_call_begin|>
 *						when there is none)
 *   <|tool_call_argument_begin|> has no JSON after it
 *						<|tool_call_argument_begin|>
 *   and, in every dialect, the JSON's: those of hermes (lib/tcdialect.c)
 *   from "the JSON holds a NUL byte" on, "the JSON is not an object"
 *   for arguments that are not one, and, where the call is a JSON object
 *   (llama3, mistral's list), every one of hermes's about its members.
 *
 * A harmony head that tcd_harmony_head refuses is "malformed harmony
 * message: " and the head's message of the table above.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

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

/*
 * DeepSeek's markup: U+FF5C FULLWIDTH VERTICAL LINE and U+2581 LOWER ONE
 * EIGHTH BLOCK, three bytes each in UTF-8.
 */
#define BAR		"\xef\xbd\x9c"
#define LOW		"\xe2\x96\x81"
#define DS_BEGIN	"<" BAR "tool" LOW "call" LOW "begin" BAR ">"
#define DS_SEP		"<" BAR "tool" LOW "sep" BAR ">"
#define DS_END		"<" BAR "tool" LOW "call" LOW "end" BAR ">"

/*
 * A call's bare arguments, the JSON object in [j, end) of s, as
 * tcdi_json_args reads them; with TCD_TEXT, as their text where
 * simdjson (lib/tcsimd) takes the object, and by jansson where it
 * declines, so that every error stays jansson's.
 */
static int
json_args(enum tcd_dialect d, const char *s, size_t j, size_t end,
    int flags, struct tcd_call *c)
{
	/* a NUL byte is the reference reader's error */
	if ((flags & TCD_TEXT) && memchr(s + j, '\0', end - j) == NULL &&
	    tcsimd_object(s + j, end - j, &c->argtext))
		return 0;
	return tcdi_json_args(d, s, j, end, c);
}

/* The end of a word of a harmony head: white space, "<|" or lim. */
static size_t
word_end(const char *s, size_t lim, size_t p)
{
	while (p < lim && !is_ws(s[p]) && !at(s, lim, p, LIT("<|")))
		p++;
	return p;
}

/* A head's error, its message without the prefix, in h: -1. */
static int
head_fail(struct tcd_head *h, size_t off, const char *msg)
{
	snprintf(h->err, sizeof(h->err), "%s", msg);
	h->erroff = off;
	return -1;
}

static enum tcd_channel
channel_of(const char *s, size_t len)
{
	if (len == 8 && memcmp(s, "analysis", 8) == 0)
		return TCD_CH_ANALYSIS;
	if (len == 10 && memcmp(s, "commentary", 10) == 0)
		return TCD_CH_COMMENTARY;
	if (len == 5 && memcmp(s, "final", 5) == 0)
		return TCD_CH_FINAL;
	return TCD_CH_OTHER;
}

/*
 * The head of the message at s into *h: 0, or -1 with h->err (the
 * message alone) and h->erroff set. *op is set to the opener's offset.
 */
static int
head_read(const char *s, size_t n, struct tcd_head *h, size_t *op)
{
	size_t p, m, w, t;
	int haschan = 0;

	memset(h, 0, sizeof(*h));
	p = *op = skip_ws(s, n, 0);
	if (!at(s, n, p, LIT("<|start|>")) && !at(s, n, p, LIT("<|channel|>")))
		return head_fail(h, p, "<|start|> or <|channel|> expected");
	if ((m = find(s, n, p, LIT("<|message|>"))) == NONE)
		return head_fail(h, p, "the head has no <|message|>");
	if (at(s, m, p, LIT("<|start|>"))) {
		w = word_end(s, m, p + 9);
		if (w == p + 9)
			return head_fail(h, p, "<|start|> has no role");
		h->role = p + 9;
		h->rolelen = w - (p + 9);
		p = w;
	}
	for (;;) {
		if ((p = skip_ws(s, m, p)) == m)
			break;
		if (at(s, m, p, LIT("<|channel|>"))) {
			if (haschan)
				return head_fail(h, p,
				    "a second <|channel|> in one head");
			if ((w = word_end(s, m, p + 11)) == p + 11)
				return head_fail(h, p,
				    "<|channel|> has no channel name");
			haschan = 1;
			h->chan = p + 11;
			h->chanlen = w - h->chan;
			h->channel = channel_of(s + h->chan, h->chanlen);
		} else if (at(s, m, p, LIT("<|constrain|>"))) {
			if ((w = word_end(s, m, p + 13)) == p + 13)
				return head_fail(h, p,
				    "<|constrain|> has no content type");
			h->ctype = p + 13;
			h->ctypelen = w - h->ctype;
		} else if (at(s, m, p, LIT("<|")))
			return head_fail(h, p, "unknown markup in the head");
		else if (at(s, m, p, LIT("to="))) {
			if (h->tolen != 0)
				return head_fail(h, p,
				    "a second recipient in one head");
			if ((w = word_end(s, m, p + 3)) == p + 3)
				return head_fail(h, p, "to= has no recipient");
			h->to = p + 3;
			h->tolen = w - h->to;
		} else {
			w = word_end(s, m, p);
			h->ctype = p;
			h->ctypelen = w - p;
		}
		p = w;
	}
	h->body = m + 11;
	t = h->to;
	h->call = h->tolen > 10 && memcmp(s + t, "functions.", 10) == 0;
	return 0;
}

int
tcd_harmony_head(const char *s, size_t n, struct tcd_head *h)
{
	char msg[sizeof(h->err)];
	size_t o;

	if (head_read(s, n, h, &o) == 0)
		return 0;
	memcpy(msg, h->err, sizeof(msg));
	/* (its messages are short: the prefix leaves them room) */
	snprintf(h->err, sizeof(h->err), "malformed harmony message: %.200s",
	    msg);
	return -1;
}

/* The last of harmony's end markers in s from p on: its offset and name. */
static size_t
harmony_end(const char *s, size_t n, size_t p, const char **mark)
{
	static const char *const marks[] = {
		"<|call|>", "<|end|>", "<|return|>"
	};
	size_t i, q, e = NONE;

	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		q = find_last(s, n, p, marks[i], strlen(marks[i]));
		if (q != NONE && (e == NONE || q > e)) {
			e = q;
			*mark = marks[i];
		}
	}
	return e;
}

int
tcdi_parse_harmony(const char *s, size_t n, int flags, struct tcd_call *c)
{
	struct tcd_head h;
	const char *mark = NULL;
	size_t o, e, p, j, len;

	if (head_read(s, n, &h, &o) != 0)
		return fail(c, TCD_HARMONY, h.erroff, "%s", h.err);
	if (h.tolen == 0)
		return fail(c, TCD_HARMONY, o,
		    "the message has no to=functions.NAME");
	if (!h.call)
		return fail(c, TCD_HARMONY, h.to - 3,
		    "the recipient is not functions.NAME");
	c->name = h.to + 10;
	c->namelen = h.tolen - 10;
	if (flags & TCD_CUT)
		e = n;
	else if ((e = harmony_end(s, n, h.body, &mark)) == NONE)
		return fail(c, TCD_HARMONY, o, "the message has no <|call|>");
	else if ((p = skip_ws(s, n, e + strlen(mark))) < n)
		return fail(c, TCD_HARMONY, p, "text after %s", mark);
	if (!span(s, h.body, e, &j, &len)) {
		/* cut right after <|message|>: more likely cut than empty */
		if (flags & TCD_CUT)
			return fail(c, TCD_HARMONY, o,
			    "the message has no <|call|>");
		c->json = json_object();
		return 0;
	}
	return json_args(TCD_HARMONY, s, j, j + len, flags, c);
}

/*
 * deepseek V3: the name's line and the fenced JSON in [p, e), after the
 * separator at sp; the JSON's place in *j and *end.
 */
static int
deepseek_v3(const char *s, size_t sp, size_t p, size_t e, size_t *j,
    size_t *end, struct tcd_call *c)
{
	size_t nl, f, q, cl, len;

	if ((nl = find(s, e, p, LIT("\n"))) == NONE)
		nl = e;
	if (!span(s, p, nl, &c->name, &c->namelen))
		return fail(c, TCD_DEEPSEEK, sp, DS_SEP " has no name");
	f = skip_ws(s, e, nl);
	if (!at(s, e, f, LIT("```")))
		return fail(c, TCD_DEEPSEEK, f,
		    "the name has no ```json block after it");
	q = f + 3;
	if (at(s, e, q, LIT("json")))
		q += 4;
	if ((cl = find_last(s, e, q, LIT("```"))) == NONE)
		return fail(c, TCD_DEEPSEEK, f, "```json is not closed by ```");
	if ((p = skip_ws(s, e, cl + 3)) < e)
		return fail(c, TCD_DEEPSEEK, p, "text after the ```json block");
	if (!span(s, q, cl, j, &len))
		return fail(c, TCD_DEEPSEEK, f,
		    "the ```json block holds no JSON");
	*end = *j + len;
	return 0;
}

int
tcdi_parse_deepseek(const char *s, size_t n, int flags, struct tcd_call *c)
{
	const size_t lb = sizeof(DS_BEGIN) - 1, ls = sizeof(DS_SEP) - 1,
	    le = sizeof(DS_END) - 1;
	size_t t, e, p, sp, a, alen, j, len, end = 0;

	t = skip_ws(s, n, 0);
	if (!at(s, n, t, LIT(DS_BEGIN)))
		return fail(c, TCD_DEEPSEEK, t, DS_BEGIN " expected");
	if ((e = find_last(s, n, t + lb, LIT(DS_END))) == NONE)
		return fail(c, TCD_DEEPSEEK, t, DS_BEGIN " has no " DS_END);
	if ((p = skip_ws(s, n, e + le)) < n)
		return fail(c, TCD_DEEPSEEK, p, "text after " DS_END);
	if ((sp = find(s, e, t + lb, LIT(DS_SEP))) == NONE)
		return fail(c, TCD_DEEPSEEK, t, DS_BEGIN " has no " DS_SEP);
	span(s, t + lb, sp, &a, &alen);
	j = skip_ws(s, e, sp + ls);
	if (alen == 8 && memcmp(s + a, "function", 8) == 0 &&
	    (j == e || s[j] != '{')) {
		if (deepseek_v3(s, sp, sp + ls, e, &j, &end, c) != 0)
			return -1;
	} else {
		if (alen == 0)
			return fail(c, TCD_DEEPSEEK, t,
			    DS_BEGIN " has no name");
		c->name = a;
		c->namelen = alen;
		if (!span(s, sp + ls, e, &j, &len))
			return fail(c, TCD_DEEPSEEK, sp,
			    DS_SEP " has no JSON after it");
		end = j + len;
	}
	return json_args(TCD_DEEPSEEK, s, j, end, flags, c);
}

/*
 * mistral: from p, the first "[ARGS]", "[CALL_ID]" (with ids, when
 * callid) or "{", or NONE.
 */
static size_t
mistral_next(const char *s, size_t n, size_t p, int callid)
{
	for (; p < n; p++) {
		if (s[p] == '{' || at(s, n, p, LIT("[ARGS]")))
			return p;
		if (callid && at(s, n, p, LIT("[CALL_ID]")))
			return p;
	}
	return NONE;
}

int
tcdi_parse_mistral(const char *s, size_t n, int flags, struct tcd_call *c)
{
	size_t t, p, x, y, j, len;

	t = skip_ws(s, n, 0);
	if (t < n && s[t] == '{') {
		span(s, t, n, &j, &len);
		return tcdi_json_call(TCD_MISTRAL, s, j, j + len,
		    flags & TCD_TEXT, 0, c);
	}
	if (!at(s, n, t, LIT("[TOOL_CALLS]")))
		return fail(c, TCD_MISTRAL, t,
		    "[TOOL_CALLS] or a JSON object expected");
	p = skip_ws(s, n, t + 12);
	if (p < n && s[p] == '[' && !at(s, n, p, LIT("[ARGS]")) &&
	    !at(s, n, p, LIT("[CALL_ID]")))
		return fail(c, TCD_MISTRAL, p,
		    "[TOOL_CALLS] [...] is a list: each object is read alone");
	if ((x = mistral_next(s, n, p, 1)) == NONE)
		return fail(c, TCD_MISTRAL, t,
		    "[TOOL_CALLS]NAME has no arguments");
	if (!span(s, p, x, &c->name, &c->namelen))
		return fail(c, TCD_MISTRAL, t, "[TOOL_CALLS] has no name");
	if (at(s, n, x, LIT("[CALL_ID]"))) {
		if ((y = mistral_next(s, n, x + 9, 0)) == NONE)
			return fail(c, TCD_MISTRAL, t,
			    "[TOOL_CALLS]NAME has no arguments");
		if (!span(s, x + 9, y, &c->id, &c->idlen))
			return fail(c, TCD_MISTRAL, x, "[CALL_ID] has no id");
		x = y;
	}
	p = x;
	if (at(s, n, x, LIT("[ARGS]")))
		p += 6;
	if (!span(s, p, n, &j, &len))
		return fail(c, TCD_MISTRAL, x, "[ARGS] has no JSON after it");
	return json_args(TCD_MISTRAL, s, j, j + len, flags, c);
}

int
tcdi_parse_llama3(const char *s, size_t n, int flags, struct tcd_call *c)
{
	size_t t, j, len;

	t = skip_ws(s, n, 0);
	if (at(s, n, t, LIT("<|python_tag|>")))
		t += 14;
	if (!span(s, t, n, &j, &len))
		return fail(c, TCD_LLAMA3, j, "a JSON object expected");
	return tcdi_json_call(TCD_LLAMA3, s, j, j + len, flags & TCD_TEXT, 1,
	    c);
}

/* kimi: the id [a, a + len) of a call: its name in c, or -1. */
static int
kimi_id(const char *s, size_t a, size_t len, struct tcd_call *c)
{
	size_t colon = NONE, i, b = a;

	for (i = a; i < a + len; i++)
		if (s[i] == ':')
			colon = i;
	if (colon == NONE || colon + 1 == a + len)
		return -1;
	for (i = colon + 1; i < a + len; i++)
		if (s[i] < '0' || s[i] > '9')
			return -1;
	if (at(s, a + len, a, LIT("functions.")))
		b += 10;
	if (colon == b)
		return -1;
	c->name = b;
	c->namelen = colon - b;
	c->id = a;
	c->idlen = len;
	return 0;
}

int
tcdi_parse_kimi(const char *s, size_t n, int flags, struct tcd_call *c)
{
	size_t t, e, p, a, id, idlen, j, len;

	t = skip_ws(s, n, 0);
	if (!at(s, n, t, LIT("<|tool_call_begin|>")))
		return fail(c, TCD_KIMI, t, "<|tool_call_begin|> expected");
	if ((e = find_last(s, n, t + 19, LIT("<|tool_call_end|>"))) == NONE)
		return fail(c, TCD_KIMI, t,
		    "<|tool_call_begin|> has no <|tool_call_end|>");
	if ((p = skip_ws(s, n, e + 17)) < n)
		return fail(c, TCD_KIMI, p, "text after <|tool_call_end|>");
	if ((a = find(s, e, t + 19, LIT("<|tool_call_argument_begin|>"))) ==
	    NONE)
		return fail(c, TCD_KIMI, t, "<|tool_call_begin|> has no "
		    "<|tool_call_argument_begin|>");
	if (!span(s, t + 19, a, &id, &idlen))
		return fail(c, TCD_KIMI, t,
		    "the call's id is not functions.NAME:INDEX");
	if (kimi_id(s, id, idlen, c) != 0)
		return fail(c, TCD_KIMI, id,
		    "the call's id is not functions.NAME:INDEX");
	if (!span(s, a + 28, e, &j, &len))
		return fail(c, TCD_KIMI, a,
		    "<|tool_call_argument_begin|> has no JSON after it");
	return json_args(TCD_KIMI, s, j, j + len, flags, c);
}

int
tcd_is_answer(enum tcd_dialect d, const char *s, size_t n)
{
	json_error_t e;
	json_t *v;
	int r;

	if (d != TCD_LLAMA3)
		return 0;
	/* read as jansson reads any JSON: whether it is a call comes after */
	if ((v = jsonx_load(s, n, JSON_ALLOW_NUL, &e)) == NULL)
		return 0;
	r = !json_is_object(v) || (json_object_get(v, "parameters") == NULL &&
	    json_object_get(v, "arguments") == NULL);
	json_decref(v);
	return r;
}
