/*
 * tcopenai: tool calls out of an OpenAI-compatible server's output, as it
 * streams: the message's text, its reasoning, each call the moment it is
 * complete, and every problem at its line and column in the input.
 *
 * THE FORMS. After a byte order mark and white space, the first byte
 * decides: "{" (or "[") is JSON, anything else server-sent events.
 *   JSON: a sequence of JSON objects. A first object written on one
 *	line makes the input JSON lines: each line is one object, and a
 *	line that is not (cut, or broken) is reported and the next line
 *	read. A first object that spans lines makes it JSON documents
 *	(pretty-printed, one or several): text between them that is not
 *	an object ends the reading of the input.
 *   SSE (the WHATWG event stream): lines end with LF, CR LF or CR; a
 *	line that begins with ":" is a comment; "data" lines are joined
 *	with LF and their event is read at the empty line that ends it (or
 *	at the end of the input: a last event without its empty line is
 *	read too); "event", "id" and "retry" are fields, as is "error"
 *	(llama.cpp's servers before the end of 2025 send their errors so);
 *	another line of the form NAME: (letters, digits, "-", "_", ".") is
 *	an unknown field, ignored. Any other line is an error; when it is
 *	the first line of the input, the input is not SSE at all and is
 *	not read further. Data "[DONE]" ends a stream: a stream may follow
 *	it (captures joined with cat). Empty data is nothing. The data of
 *	an "event: error" is an error the server reports.
 *
 * THE DOCUMENTS. Each JSON value (a document, a line, an event's data)
 * must be an object; it is read with lib/jsonx (a key that repeats is an
 * error), and its kind comes from its "object" or "type" or else its
 * shape. (The chunks of a chunk stream that only add to the text or to
 * the call under way, most of it, are read by simdjson without a tree,
 * to the same effect: lib/tcsimd, tcsimd_chunk.) The first document's kind is the input's: a document of
 * another kind is an error (and skipped), apart from errors the server
 * reports, which any stream may hold: an object whose "error" is not
 * null or false, or whose "object" or "type" is "error"; its message is
 * error.message, error (a string: Ollama) or message (vLLM).
 *   Chat Completions response ("object": "chat.completion", or
 *	choices[].message): choice 0's message.
 *   Chat Completions chunk ("chat.completion.chunk", or choices[].delta):
 *	choice 0's delta; the stream's calls joined by index.
 *   Responses API response ("object": "response", or "output"): its
 *	output items, in order.
 *   Responses API event ("type": "response.*"): the stream of one.
 *   Ollama chat line ("message" or "done"): /api/chat, streamed as
 *	lines or whole.
 * A legacy completion (choices[].text) is not read: an error.
 *
 * THE FIELDS, of a message (Chat) or a delta (chunk), in this order:
 * reasoning_content, or when it is not a string reasoning (vLLM,
 * OpenRouter): reasoning; content: a string, or an array of parts whose
 * "text" is read; refusal: text too (it is what the model said);
 * tool_calls[]: {id, type, function: {name, arguments}}; function_call
 * (the legacy single call): {name, arguments}. Then finish_reason.
 * Choices: only the choice whose "index" is 0 (or, with no index, the
 * first) is read; the others are skipped, with one warning an input (for
 * n > 1). Responses output items: "message" (content[]: output_text's
 * text, refusal's refusal), "reasoning" (summary[].text, then
 * content[].text, as reasoning), "function_call" ({call_id, name,
 * arguments}); another type (a hosted tool's call, a custom tool's) is
 * skipped with one warning a type. Ollama: message.thinking (reasoning),
 * message.content, message.tool_calls[]: {id, function: {name,
 * arguments}}, and "done", "done_reason". A field that is null counts as
 * absent; one of another type than read is an error (and not read),
 * except reasoning fields, which are read only as strings.
 *
 * A CALL is told with its id (Chat's id, Responses' call_id, Ollama's id:
 * NULL when there is none), its name, and its arguments: a string holding
 * a JSON object (as OpenAI sends them) or an object (as Ollama does); a
 * string that is empty or white space, a null or no arguments at all is
 * the empty object. The arguments are read as the JSON text of a
 * dialect's call is (lib/tcdialect): a key that repeats is an error, and
 * integers are exact unless one is past 64 bits; a writer writes them
 * with jsonw_exact, not as the model spaced them (the text as sent is
 * given beside, for a report of a bad call). A call whose arguments are
 * not JSON, not an object, or that has no name, is an error of that call
 * (told with the call), and the reading goes on.
 *   In a chunk stream a call is complete when a delta of another index
 *   comes (or, at the same index, one with another id: some servers
 *   number every call 0), at finish_reason, or at [DONE]. A delta
 *   without an index takes its place in its tool_calls. A delta whose
 *   index is below that of a call already complete (interleaved
 *   parallel calls) is an error, and skipped. At most one call is held.
 *   In a Responses stream a call begins at response.output_item.added,
 *   grows with response.function_call_arguments.delta and is complete
 *   at response.function_call_arguments.done (its "arguments" are then
 *   the call's) or response.output_item.done (the item's), whichever
 *   comes first. Text comes from response.output_text.delta and
 *   response.refusal.delta, reasoning from response.reasoning_text.delta
 *   and response.reasoning_summary_text.delta; other events are not
 *   read. Only the calls begun and not complete are held.
 *
 * THE END. A call begun and not complete when the input ends (or at
 * [DONE], in a Responses stream) is cut: an error of that call. A chunk
 * stream must end with finish_reason or [DONE]; in SSE without [DONE]
 * after a finish_reason it is a warning only. A Responses stream must
 * have response.completed (or .incomplete: a warning, or .failed: an
 * error); Ollama's lines a last one with "done": true. An input with no
 * document at all is an error. finish_reason "length" or
 * "content_filter", done_reason "length", and an incomplete, cancelled
 * or unfinished Responses response are warnings: what was read is told.
 *
 * MESSAGES (rule: message; P is a JSON Pointer given apart as the path;
 * CALL is: tool call "NAME" (id "ID"), or tool call at index N):
 *   format: not an OpenAI-compatible response: expected JSON or SSE
 *	"data:" lines, found "LINE"
 *   empty: the input holds no response
 *   sse: not an SSE line: "LINE"
 *   json-syntax, utf8, duplicate-key, json-number, json-depth: lib/
 *	jsonx's "invalid JSON: ..." message, at its place; and "invalid
 *	JSON: text after the value" (an event's data)
 *   shape: expected a JSON object, found X (X: an array, a string...,
 *	or at the top of a JSON input 'C' or byte 0xNN)
 *   shape: not a Chat Completions, Responses API or Ollama chat object
 *   shape: a legacy completion (choices[].text) holds no tool calls
 *   shape (P): an output item without a "type"
 *   shape: found KIND, but the input began with KIND
 *   shape (P): expected an object | an array | a string, found X
 *   shape (P): expected an integer from 0 to 999999999, found X
 *   choices (warning, P): only choice 0 is read: choice N is skipped,
 *	and any other
 *   choices (warning): the response has no choice 0
 *   api: the server reports an error: "MESSAGE" (or without a message,
 *	when none is found)
 *   api: the response failed: "MESSAGE" (or: no message)
 *   finish (warning, P): finish_reason "length": the output was cut at
 *	the token limit | finish_reason "content_filter": the output was
 *	cut by a content filter | done_reason "length": ...
 *   finish (warning): the response is incomplete: "REASON" (or: no
 *	reason) | the response was cancelled | the response is still
 *	"STATUS": its output may be partial
 *   tool-type (warning, P): a tool call of type "TYPE" is not read |
 *	an output item of type "TYPE" is not read
 *   tool-name: CALL has no name
 *   arguments: the arguments of CALL are X, not a JSON object or a
 *	string
 *   arguments: the arguments of CALL are not a JSON object: found X
 *   arguments: the arguments of CALL are not valid JSON: CAUSE
 *	(character N of the arguments), CAUSE one of: they end early;
 *	text after the JSON value; a duplicate key; they nest too deep; a
 *	number is out of range; a NUL byte; jansson's message
 *   order: a delta of tool call index N after that call was complete
 *   order: a delta of tool call index N after index M was complete
 *   stream: a delta of an item that was not added: "ID" (or: (no
 *	item_id)), for its .delta and .done events alike
 *   truncated: the input ends inside CALL | the stream ends inside CALL
 *   truncated: the stream ends before a finish_reason or data: [DONE]
 *	| the input ends before a finish_reason | the stream ends before
 *	response.completed | the input ends before a line with "done": true
 *   stream (warning): the stream ends without data: [DONE]
 * Where: a call's errors at the call (its first delta, its element),
 * except bad arguments, at the piece of the arguments (its string, or
 * the chunk or event that brought it) where JSON broke, and a cut call,
 * at the end of the input (just past its last byte that is not white
 * space) or at [DONE]. Columns count characters.
 *
 * This file reads the input and is the API; lib/tcopenai_read.c reads
 * each document and puts the calls together.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "json/jsonx.h"
#include "toolcall/tcopenai.h"
#include "toolcall/tcopenai_int.h"

static const char bom[] = "\xEF\xBB\xBF";

/*
 * The position just past n bytes at s, from t->pos: LF, CR LF and CR
 * end lines; columns count characters (the first byte of each).
 */
static void
advance_bytes(struct tcopenai *t, const unsigned char *p,
    const unsigned char *e)
{
	for (; p < e; p++) {
		if (*p == '\n') {
			if (!t->poscr)
				t->pos.line++;
			t->pos.col = 1;
			t->poscr = 0;
			continue;
		}
		t->poscr = 0;
		if (*p == '\r') {
			t->pos.line++;
			t->pos.col = 1;
			t->poscr = 1;
			continue;
		}
		if ((*p & 0xC0) != 0x80)
			t->pos.col++;
		if (*p != ' ' && *p != '\t')
			t->endat = t->pos;
	}
}

#ifdef __SSE2__
/* The bits set in m, a mask of 16 (no popcnt instruction assumed). */
static unsigned
bits16(unsigned m)
{
	m = m - ((m >> 1) & 0x5555);
	m = (m & 0x3333) + ((m >> 2) & 0x3333);
	m = (m + (m >> 4)) & 0x0f0f;
	return (m + (m >> 8)) & 0x1f;
}
#endif

/*
 * advance, 16 bytes at a time where they end no line: every byte of the
 * input comes this way.
 */
static void
advance(struct tcopenai *t, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *e = p + n;
#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'),
	    sp = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t'),
	    lim = _mm_set1_epi8(-64);
	unsigned chars, blank, last;
	__m128i v;

	for (; e - p >= 16; p += 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)p);
		if (_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, nl),
		    _mm_cmpeq_epi8(v, cr))) != 0) {
			advance_bytes(t, p, p + 16);
			continue;
		}
		/* characters: the bytes that are no continuation (0x80-0xbf) */
		chars = ~(unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(v, lim)) &
		    0xffff;
		blank = (unsigned)_mm_movemask_epi8(_mm_or_si128(
		    _mm_cmpeq_epi8(v, sp), _mm_cmpeq_epi8(v, tab)));
		if (blank != 0xffff) {
			last = 31 - (unsigned)__builtin_clz(~blank & 0xffff);
			t->endat.line = t->pos.line;
			t->endat.col = t->pos.col +
			    bits16(chars & ((2u << last) - 1));
		}
		t->pos.col += bits16(chars);
		t->poscr = 0;
	}
#endif
	advance_bytes(t, p, e);
}

/* A JSON value whole in t->cur: a document. */
static void
json_value(struct tcopenai *t, const char *noun)
{
	struct seg sg;

	sg.off = 0;
	sg.at = t->curat;
	t->inval = 0;
	tcopenai_read_doc(t, t->cur.data, t->cur.len, &sg, 1, noun);
	buf_reset(&t->cur);
}

/* What stands where a JSON object was due: a character, or a byte. */
static const char *
found(char *out, size_t size, unsigned char c)
{
	if (c >= 0x20 && c < 0x7F)
		snprintf(out, size, "'%c'", c);
	else
		snprintf(out, size, "byte 0x%02x", c);
	return out;
}

/* JSON: values found in n bytes at s, each read when whole. */
static void
json_bytes(struct tcopenai *t, const char *s, size_t n)
{
	const char *nl;
	size_t i = 0, from;
	unsigned char c;
	char what[16];
	int ev;

	while (i < n && !t->stopped && !t->dead) {
		if (t->skipline) {
			nl = memchr(s + i, '\n', n - i);
			from = i;
			i = nl != NULL ? (size_t)(nl - s) + 1 : n;
			advance(t, s + from, i - from);
			t->skipline = nl == NULL;
			continue;
		}
		if (!t->inval) {
			c = (unsigned char)s[i];
			if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
				advance(t, s + i++, 1);
				continue;
			}
			if (c != '{') {
				tcopenai_say(t, DIAG_ERROR, t->pos, "shape",
				    NULL, NULL, "expected a JSON object, "
				    "found %s", found(what, sizeof(what), c));
				if (t->lines == 1)
					t->skipline = 1;
				else
					t->dead = 1;
				continue;
			}
			t->inval = 1;
			t->curat = t->pos;
			t->depth = 0;
			t->instr = t->esc = t->sawnl = 0;
		}
		from = i;
		for (ev = 0; i < n && ev == 0; i++) {
			c = (unsigned char)s[i];
			if (c == '\n') {
				t->sawnl = 1;
				if (t->lines == 1)
					ev = 2;
			}
			if (t->instr) {
				if (t->esc)
					t->esc = 0;
				else if (c == '\\')
					t->esc = 1;
				else if (c == '"')
					t->instr = 0;
			} else if (c == '"')
				t->instr = 1;
			else if (c == '{' || c == '[')
				t->depth++;
			else if ((c == '}' || c == ']') && --t->depth == 0)
				ev = 1;
		}
		/* a line cut inside its value: read without its newline */
		buf_add(&t->cur, s + from, i - from - (ev == 2));
		advance(t, s + from, i - from);
		if (ev == 1) {
			if (t->lines < 0)
				t->lines = !t->sawnl;
			json_value(t, t->lines == 1 ? "line" : NULL);
		} else if (ev == 2)
			json_value(t, "line");
	}
}

/* SSE: the event whose lines were read is whole. */
static void
sse_dispatch(struct tcopenai *t)
{
	const char *s = t->data.data;
	size_t n = t->data.len, a, b;

	if (t->hasdata) {
		a = jsonx_skip_ws(s, n, 0);
		for (b = n; b > a && strchr(" \t\r\n", s[b - 1]) != NULL; b--)
			;
		if (b - a == 6 && memcmp(s + a, "[DONE]", 6) == 0) {
			t->ndocs++;
			tcopenai_stream_close(t, 1, t->segs[0].at);
		} else if (b > a) {
			t->errevent = t->event.len == 5 &&
			    memcmp(t->event.data, "error", 5) == 0;
			tcopenai_read_doc(t, s, n, t->segs, t->nsegs, NULL);
			t->errevent = 0;
		}
	}
	buf_reset(&t->data);
	buf_reset(&t->event);
	t->hasdata = 0;
	t->nsegs = 0;
}

/* Whether the n bytes at s may name an SSE field. */
static int
field_name(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strchr("abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.", s[i]) == NULL ||
		    s[i] == '\0')
			return 0;
	return n > 0;
}

/* SSE: one line, whole in t->line, that began at t->lineat. */
static void
sse_line(struct tcopenai *t)
{
	const char *s = t->line.data;
	size_t n = t->line.len, k, v;
	struct seg sg;
	char q[QUOTE_MAX];

	if (n == 0) {
		sse_dispatch(t);
		return;
	}
	t->nlines++;
	if (s[0] == ':')
		return;
	for (k = 0; k < n && s[k] != ':'; k++)
		;
	v = k < n ? k + 1 : n;
	if (v < n && s[v] == ' ')
		v++;
	sg.at = t->lineat;
	sg.at.col += v;		/* a field's name is ASCII */
	if (k == 4 && memcmp(s, "data", 4) == 0) {
		if (t->hasdata)
			buf_addc(&t->data, '\n');
		if (t->nsegs == t->segcap) {
			t->segcap = t->segcap ? 2 * t->segcap : 4;
			t->segs = xreallocarray(t->segs, t->segcap,
			    sizeof(*t->segs));
		}
		sg.off = t->data.len;
		t->segs[t->nsegs++] = sg;
		buf_add(&t->data, s + v, n - v);
		t->hasdata = 1;
	} else if (k == 5 && memcmp(s, "event", 5) == 0) {
		buf_reset(&t->event);
		buf_add(&t->event, s + v, n - v);
	} else if (k == 5 && memcmp(s, "error", 5) == 0) {
		/* llama.cpp's, before its servers sent data: {"error"...} */
		sg.off = 0;
		t->errevent = 1;
		tcopenai_read_doc(t, s + v, n - v, &sg, 1, NULL);
		t->errevent = 0;
	} else if ((k == 2 && memcmp(s, "id", 2) == 0) ||
	    (k == 5 && memcmp(s, "retry", 5) == 0) ||
	    (k < n && field_name(s, k)))
		;	/* a field not read */
	else if (t->nlines == 1) {
		tcopenai_say(t, DIAG_ERROR, t->lineat, "format", NULL, NULL,
		    "not an OpenAI-compatible response: expected JSON or "
		    "SSE \"data:\" lines, found %s", diag_quote(q, sizeof(q),
		    s, n));
		t->dead = 1;
	} else
		tcopenai_say(t, DIAG_ERROR, t->lineat, "sse", NULL, NULL,
		    "not an SSE line: %s", diag_quote(q, sizeof(q), s, n));
}

/* SSE: lines found in n bytes at s, each read when whole. */
static void
sse_bytes(struct tcopenai *t, const char *s, size_t n)
{
	const char *lf, *cr, *eol;
	size_t i = 0, k;

	while (i < n && !t->stopped && !t->dead) {
		if (t->linecr) {
			t->linecr = 0;
			if (s[i] == '\n') {	/* the LF of a CR LF */
				advance(t, s + i++, 1);
				t->lineat = t->pos;
				continue;
			}
		}
		lf = memchr(s + i, '\n', n - i);
		k = lf != NULL ? (size_t)(lf - s) : n;
		cr = memchr(s + i, '\r', k - i);
		eol = cr != NULL ? cr : lf;
		k = eol != NULL ? (size_t)(eol - s) : n;
		buf_add(&t->line, s + i, k - i);
		advance(t, s + i, k - i);
		if ((i = k) == n)
			break;
		advance(t, s + i++, 1);
		t->linecr = *eol == '\r';
		sse_line(t);
		buf_reset(&t->line);
		t->lineat = t->pos;
	}
}

/*
 * Before the form is known: white space, kept for the line SSE would
 * read; then the first other byte decides.
 */
static size_t
start_bytes(struct tcopenai *t, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '\n' || s[i] == '\r') {
			buf_reset(&t->line);
			advance(t, s + i, 1);
			t->lineat = t->pos;
			t->linecr = s[i] == '\r';
			continue;
		}
		if (s[i] == ' ' || s[i] == '\t') {
			buf_addc(&t->line, s[i]);
			advance(t, s + i, 1);
			continue;
		}
		if (s[i] == '{' || s[i] == '[') {
			t->form = F_JSON;
			buf_reset(&t->line);
		} else {
			t->form = F_SSE;
			/* the LF of a CR LF is past: that CR ended a line */
			t->linecr = 0;
		}
		break;
	}
	return i;
}

static void
bytes(struct tcopenai *t, const char *s, size_t n)
{
	size_t k;

	if (t->form == F_START) {
		k = start_bytes(t, s, n);
		s += k;
		n -= k;
	}
	if (t->form == F_JSON)
		json_bytes(t, s, n);
	else if (t->form == F_SSE)
		sse_bytes(t, s, n);
}

struct tcopenai *
tcopenai_new(const struct tcopenai_cb *cb)
{
	struct tcopenai *t;

	t = xcalloc(1, sizeof(*t));
	t->cb = *cb;
	t->status = DIAG_OK;
	t->lines = -1;
	t->pos.line = t->pos.col = 1;
	t->endat = t->lineat = t->pos;
	t->maxdone = -1;
	t->warned = json_object();
	t->slotmap = json_object();
	return t;
}

/* n more bytes of the input; -1 once a callback has stopped the reader. */
int
tcopenai_feed(struct tcopenai *t, const char *s, size_t n)
{
	if (t->over)
		return -1;
	while (!t->started && n > 0) {
		if (*s == bom[t->nbom]) {
			s++;
			n--;
			if (++t->nbom == 3)
				t->started = 1;
			continue;
		}
		t->started = 1;
		bytes(t, bom, t->nbom);	/* the start of one, but not one */
	}
	if (!t->stopped && !t->dead)
		bytes(t, s, n);
	return t->stopped ? -1 : 0;
}

/*
 * The input has ended: a value or a line cut short is read as it is, an
 * event without its empty line is read, and the stream must have ended.
 */
int
tcopenai_end(struct tcopenai *t)
{
	if (t->over)
		return t->stopped ? -1 : 0;
	if (!t->started) {
		t->started = 1;
		bytes(t, bom, t->nbom);
	}
	t->over = 1;
	if (t->stopped || t->dead)
		return t->stopped ? -1 : 0;
	if (t->form == F_JSON && t->inval)
		json_value(t, NULL);
	if (t->form == F_SSE) {
		if (t->line.len > 0)
			sse_line(t);
		buf_reset(&t->line);
		if (!t->dead)
			sse_dispatch(t);
	}
	if (!t->dead && t->kind != K_NONE)
		tcopenai_stream_close(t, 0, t->endat);
	if (!t->dead && t->ndocs == 0 && t->status == DIAG_OK)
		tcopenai_say(t, DIAG_ERROR, t->endat, "empty", NULL, NULL,
		    "the input holds no response");
	return t->stopped ? -1 : 0;
}

/* DIAG_OK, or DIAG_INVALID once an error has been told. */
int
tcopenai_status(const struct tcopenai *t)
{
	return t->status;
}

enum tcopenai_form
tcopenai_form(const struct tcopenai *t)
{
	switch (t->form) {
	case F_JSON:
		return t->lines == 1 ? TCOPENAI_LINES : TCOPENAI_JSON;
	case F_SSE:
		return TCOPENAI_SSE;
	default:
		return TCOPENAI_NONE;
	}
}

void
tcopenai_free(struct tcopenai *t)
{
	if (t == NULL)
		return;
	tcopenai_calls_free(t);
	json_decref(t->warned);
	json_decref(t->slotmap);
	buf_free(&t->cur);
	buf_free(&t->line);
	buf_free(&t->data);
	free(t->segs);
	buf_free(&t->event);
	buf_free(&t->msg);
	buf_free(&t->tmp);
	free(t);
}
