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
 * shape. The first document's kind is the input's: a document of
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
 *   api: the server reports an error: "MESSAGE"
 *   api: the response failed: "MESSAGE"
 *   finish (warning, P): finish_reason "length": the output was cut at
 *	the token limit | finish_reason "content_filter": the output was
 *	cut by a content filter | done_reason "length": ...
 *   finish (warning): the response is incomplete: "REASON" | the
 *	response was cancelled | the response is still "STATUS": its
 *	output may be partial
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
 *   stream: a delta of an item that was not added: "ID"
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
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "diag.h"
#include "jsonx.h"
#include "tcopenai.h"
#include "utf8.h"
#include "xalloc.h"

#define PTR_MAX		192	/* a JSON Pointer of ours, indices and all */
#define QUOTE_MAX	96	/* a name or an id quoted in a message */
#define INDEX_MAX	999999999L
#define WARNED_MAX	64	/* item types warned of, at most */
#define MARK_EVERY	4096	/* bytes between checkpoints of a walk */
#define TOLD_MAX	1024	/* Responses calls told, awaiting their item */

struct pos {
	unsigned long	line;
	unsigned long	col;
};

/* Where a run of a document's text begins in the input. */
struct seg {
	size_t		off;
	struct pos	at;
};

/* Where a piece of a call's arguments came from. */
struct piece {
	size_t		off;		/* in the arguments' text */
	struct pos	at;
};

/* A tool call being put together. */
struct pcall {
	int		 active;
	long		 index;		/* chat: its index; -1: function_call */
	int		 hasid;
	struct buf	 id, name, args;
	struct piece	*pieces;
	size_t		 npieces, piececap;
	struct pos	 at;		/* where it begins */
	const char	*badtype;	/* arguments of this JSON type */
	char		*type;		/* a type not "function" */
	unsigned long	 emitted;	/* Responses: told (the how manyth), */
					/* its item not done */
	struct buf	 keys[2];	/* Responses: its keys in the map */
};

/* A document being read: its text, and where its runs lie. */
struct doc {
	const char		*s;
	size_t			 n;
	const struct seg	*segs;
	size_t			 nsegs;
	struct jsonx_locator	 loc;
	int			 hasloc;
	size_t			 cseg, coff;	/* a cursor that walks forward */
	struct pos		 cpos;
	struct seg		*marks;		/* checkpoints of its walks, */
	size_t			 nmarks, markcap;	/* in order */
};

enum form { F_START, F_JSON, F_SSE };

enum kind {
	K_NONE, K_COMPLETION, K_CHUNK, K_RESPONSE, K_REVENT, K_OLLAMA,
	K_ERROR, K_UNKNOWN, K_LEGACY
};

static const char *const kind_names[] = {
	"", "a Chat Completions response", "a Chat Completions chunk",
	"a Responses API response", "a Responses API event",
	"an Ollama chat line", "", "", ""
};

struct tcopenai {
	struct tcopenai_cb	 cb;
	int			 status;
	int			 stopped;	/* a callback said so */
	int			 dead;		/* the input is not read further */
	int			 over;		/* tcopenai_end was called */
	enum form		 form;
	int			 lines;		/* JSON: 1 lines, 0 documents, */
						/* -1 not known yet */
	struct pos		 pos;		/* of the next byte */
	struct pos		 endat;		/* past the last byte not blank */
	int			 poscr;		/* the last byte was a CR */
	size_t			 nbom;
	int			 started;	/* past a byte order mark */
	unsigned long		 ndocs;

	/* JSON: the value being read */
	struct buf		 cur;
	struct pos		 curat;
	int			 inval, instr, esc, sawnl, skipline;
	size_t			 depth;

	/* SSE: the line being read, and the event being built */
	struct buf		 line;
	struct pos		 lineat;
	int			 linecr;	/* the last line ended with a CR */
	unsigned long		 nlines;	/* lines not empty */
	struct buf		 data;
	int			 hasdata;
	struct seg		*segs;
	size_t			 nsegs, segcap;
	struct buf		 event;
	int			 errevent;	/* the event is "error" */

	/* the stream */
	enum kind		 kind;
	int			 ended;		/* its own end was seen */
	int			 cut;		/* a call of it was cut */
	int			 choicewarn;
	json_t			*warned;	/* types warned of */
	struct pcall		 chat;		/* a chunk stream's call */
	long			 maxdone;	/* its highest index complete */
	struct pcall		 one;		/* a call given whole */
	struct pcall		*slots;		/* a Responses stream's calls */
	size_t			 nslots, slotcap;
	size_t			 ntold;		/* of them, told */
	unsigned long		 told;		/* calls told from slots */
	json_t			*slotmap;	/* key -> its slot */
	struct buf		 msg, tmp;
};

static const char bom[] = "\xEF\xBB\xBF";

/* A problem, told: an error makes the input's status 1. */
static void
say(struct tcopenai *t, enum diag_severity sev, struct pos at,
    const char *rule, const char *path, const struct tcopenai_call *c,
    const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static void
say(struct tcopenai *t, enum diag_severity sev, struct pos at,
    const char *rule, const char *path, const struct tcopenai_call *c,
    const char *fmt, ...)
{
	struct tcopenai_diag d;
	va_list ap;

	if (t->stopped)
		return;
	if (sev == DIAG_ERROR)
		t->status = DIAG_INVALID;
	if (t->cb.diag == NULL)
		return;
	buf_reset(&t->msg);
	va_start(ap, fmt);
	buf_vprintf(&t->msg, fmt, ap);
	va_end(ap);
	d.severity = sev;
	d.line = at.line;
	d.col = at.col;
	d.rule = rule;
	d.path = path;
	d.message = buf_cstr(&t->msg);
	d.call = c;
	if (t->cb.diag(t->cb.arg, &d) != 0)
		t->stopped = 1;
}

static const char *ptr(char *, const char *, const char *, ...)
    __attribute__((format(printf, 3, 4)));

static void
tell_text(struct tcopenai *t, int reasoning, const char *s, size_t n)
{
	int (*fn)(void *, const char *, size_t);

	fn = reasoning ? t->cb.reasoning : t->cb.text;
	if (t->stopped || n == 0 || fn == NULL)
		return;
	if (fn(t->cb.arg, s, n) != 0)
		t->stopped = 1;
}

static void
tell_string(struct tcopenai *t, int reasoning, const json_t *v)
{
	if (json_is_string(v))
		tell_text(t, reasoning, json_string_value(v),
		    json_string_length(v));
}

/*
 * The position just past n bytes at s, from t->pos: LF, CR LF and CR
 * end lines; columns count characters (the first byte of each).
 */
static void
advance(struct tcopenai *t, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *e = p + n;

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

/* The last of the n runs at v (sorted by offset) to begin at or before off. */
static size_t
seg_find(const struct seg *v, size_t n, size_t off)
{
	size_t lo = 0, hi = n, mid;

	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (v[mid].off <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Where byte off of the document lies in the input. The cursor walks
 * forward from where it was, or from the start of off's run; a walk
 * leaves a checkpoint every MARK_EVERY bytes, so that going back (an
 * error found out of the text's order) costs no more than that.
 */
static struct pos
doc_pos(struct doc *d, size_t off)
{
	const char *p, *e;
	size_t seg, m;

	if (off > d->n)
		off = d->n;
	seg = seg_find(d->segs, d->nsegs, off);
	if (seg != d->cseg || off < d->coff) {
		d->cseg = seg;
		d->coff = d->segs[seg].off;
		d->cpos = d->segs[seg].at;
		if (d->nmarks > 0) {
			m = seg_find(d->marks, d->nmarks, off);
			if (d->marks[m].off <= off &&
			    d->marks[m].off > d->coff) {
				d->coff = d->marks[m].off;
				d->cpos = d->marks[m].at;
			}
		}
	}
	for (p = d->s + d->coff, e = d->s + off; p < e; p++) {
		if ((size_t)(p - d->s) >= (d->nmarks > 0 ?
		    d->marks[d->nmarks - 1].off : 0) + MARK_EVERY) {
			if (d->nmarks == d->markcap) {
				d->markcap = d->markcap ? 2 * d->markcap : 16;
				d->marks = xreallocarray(d->marks, d->markcap,
				    sizeof(*d->marks));
			}
			d->marks[d->nmarks].off = (size_t)(p - d->s);
			d->marks[d->nmarks++].at = d->cpos;
		}
		if (*p == '\n' || *p == '\r') {
			if (!(*p == '\n' && p > d->s && p[-1] == '\r'))
				d->cpos.line++;
			d->cpos.col = 1;
		} else if ((*p & 0xC0) != 0x80)
			d->cpos.col++;
	}
	d->coff = off;
	return d->cpos;
}

/* The offset of the value at the JSON Pointer ptr of the document. */
static size_t
doc_locate(struct doc *d, const char *ptr)
{
	if (!d->hasloc) {
		jsonx_locator_init(&d->loc, d->s, d->n);
		d->hasloc = 1;
	}
	return jsonx_locate(&d->loc, 0, ptr);
}

/* Where the value at the JSON Pointer ptr of the document lies. */
static struct pos
doc_at(struct doc *d, const char *ptr)
{
	return doc_pos(d, doc_locate(d, ptr));
}

static const char *
type_name(json_type want)
{
	switch (want) {
	case JSON_OBJECT:	return "an object";
	case JSON_ARRAY:	return "an array";
	case JSON_STRING:	return "a string";
	default:		return "a value";
	}
}

/*
 * The member key of obj (at the pointer at) when it is of the type want;
 * NULL when it is absent or null, or (an error) of another type.
 */
static json_t *
get(struct tcopenai *t, struct doc *d, const json_t *obj, const char *at,
    const char *key, json_type want)
{
	json_t *v = json_object_get(obj, key);
	char p[PTR_MAX];

	if (v == NULL || json_is_null(v))
		return NULL;
	if (json_typeof(v) == want)
		return v;
	ptr(p, at, "/%s", key);
	say(t, DIAG_ERROR, doc_at(d, p), "shape", p, NULL,
	    "expected %s, found %s", type_name(want), jsonx_typename(v));
	return NULL;
}

/* at, then what printf makes of fmt, in out (PTR_MAX bytes). */
static const char *
ptr(char *out, const char *at, const char *fmt, ...)
{
	size_t k = strlen(at);
	va_list ap;

	if (k >= PTR_MAX)
		k = PTR_MAX - 1;
	memmove(out, at, k);
	va_start(ap, fmt);
	vsnprintf(out + k, PTR_MAX - k, fmt, ap);
	va_end(ap);
	return out;
}

/* A string member, or NULL: not told when of another type. */
static const char *
str(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

static int
is(const char *s, const char *lit)
{
	return s != NULL && strcmp(s, lit) == 0;
}

/*
 * The member key of obj as an index: 1 and *v; 0 when absent or null;
 * -1 (an error) when it is not an integer from 0 to INDEX_MAX.
 */
static int
get_index(struct tcopenai *t, struct doc *d, const json_t *obj,
    const char *at, const char *key, long *v)
{
	json_t *j = json_object_get(obj, key);
	char p[PTR_MAX];
	double x;

	if (j == NULL || json_is_null(j))
		return 0;
	x = json_number_value(j);
	if (json_is_number(j) && x >= 0 && x <= INDEX_MAX &&
	    x == (double)(long)x) {
		*v = (long)x;
		return 1;
	}
	ptr(p, at, "/%s", key);
	say(t, DIAG_ERROR, doc_at(d, p), "shape", p, NULL, "expected an "
	    "integer from 0 to %ld, found %s", INDEX_MAX, json_is_number(j) ?
	    "another number" : jsonx_typename(j));
	return -1;
}

/* Just past the object or array (well-formed) at off of s. */
static size_t
value_end(const char *s, size_t n, size_t off)
{
	size_t depth = 0;
	int instr = 0;

	for (; off < n; off++) {
		if (instr) {
			if (s[off] == '\\')
				off++;
			else if (s[off] == '"')
				instr = 0;
			continue;
		}
		switch (s[off]) {
		case '"':
			instr = 1;
			break;
		case '{':
		case '[':
			depth++;
			break;
		case '}':
		case ']':
			if (--depth == 0)
				return off + 1;
			break;
		}
	}
	return n;
}

/*
 * Reads n bytes of JSON as a dialect's call is read: any value, a key
 * that repeats an error, integers exact unless one is past int64.
 */
static json_t *
load_exact(const char *s, size_t n, json_error_t *e)
{
	int flags = JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL;
	json_t *j;

	j = json_loadb(s, n, flags, e);
	if (j == NULL && json_error_code(e) == json_error_numeric_overflow)
		j = json_loadb(s, n, flags | JSON_DECODE_INT_AS_REAL, e);
	return j;
}

static void
pc_reset(struct pcall *pc)
{
	pc->active = 0;
	pc->index = 0;
	pc->hasid = 0;
	buf_reset(&pc->id);
	buf_reset(&pc->name);
	buf_reset(&pc->args);
	pc->npieces = 0;
	pc->badtype = NULL;
	free(pc->type);
	pc->type = NULL;
	pc->emitted = 0;
}

/* Gives back what a call told holds, but for its keys. */
static void
pc_release(struct pcall *pc)
{
	buf_free(&pc->id);
	buf_free(&pc->name);
	buf_free(&pc->args);
	free(pc->pieces);
	pc->pieces = NULL;
	pc->npieces = pc->piececap = 0;
	free(pc->type);
	pc->type = NULL;
}

static void
pc_free(struct pcall *pc)
{
	pc_release(pc);
	buf_free(&pc->keys[0]);
	buf_free(&pc->keys[1]);
}

/* n bytes more of the call's arguments, which came from at. */
static void
pc_piece(struct pcall *pc, const char *s, size_t n, struct pos at)
{
	if (n == 0)
		return;
	if (pc->npieces == pc->piececap) {
		pc->piececap = pc->piececap ? 2 * pc->piececap : 4;
		pc->pieces = xreallocarray(pc->pieces, pc->piececap,
		    sizeof(*pc->pieces));
	}
	pc->pieces[pc->npieces].off = pc->args.len;
	pc->pieces[pc->npieces].at = at;
	pc->npieces++;
	buf_add(&pc->args, s, n);
}

static void
pc_id(struct pcall *pc, const json_t *id)
{
	if (!json_is_string(id) || json_string_length(id) == 0 || pc->hasid)
		return;
	buf_add(&pc->id, json_string_value(id), json_string_length(id));
	pc->hasid = 1;
}

static void
pc_type(struct pcall *pc, const char *type)
{
	/* Chat's calls are of type "function", Responses' "function_call" */
	if (type != NULL && strcmp(type, "function") != 0 &&
	    strcmp(type, "function_call") != 0 && pc->type == NULL)
		pc->type = xstrdup(type);
}

/*
 * The member key of obj (at the pointer at), the call's arguments or a
 * piece of them: a string's value, or an object's text. With stream,
 * the piece is placed at the document (a chunk or an event), else at the
 * member itself.
 */
static void
pc_args(struct pcall *pc, struct doc *d, const json_t *obj, const char *at,
    const char *key, int stream)
{
	json_t *a = json_object_get(obj, key);
	char p[PTR_MAX];
	size_t off;

	if (a == NULL || json_is_null(a))
		return;
	ptr(p, at, "/%s", key);
	if (json_is_string(a))
		pc_piece(pc, json_string_value(a), json_string_length(a),
		    stream ? d->segs[0].at : doc_at(d, p));
	else if (json_is_object(a)) {
		off = doc_locate(d, p);
		pc_piece(pc, d->s + off, value_end(d->s, d->n, off) - off,
		    stream ? d->segs[0].at : doc_pos(d, off));
	} else if (pc->badtype == NULL)
		pc->badtype = jsonx_typename(a);
}

/* "tool call "NAME" (id "ID")", or what stands for it, in t->tmp. */
static const char *
describe(struct tcopenai *t, const struct pcall *pc)
{
	char q[QUOTE_MAX];

	buf_reset(&t->tmp);
	buf_adds(&t->tmp, "tool call");
	if (pc->name.len > 0)
		buf_printf(&t->tmp, " %s", diag_quote(q, sizeof(q),
		    pc->name.data, pc->name.len));
	if (pc->hasid)
		buf_printf(&t->tmp, " (id %s)", diag_quote(q, sizeof(q),
		    pc->id.data, pc->id.len));
	else if (pc->name.len == 0 && pc->index >= 0)
		buf_printf(&t->tmp, " at index %ld", pc->index);
	else if (pc->name.len == 0 && pc->index == -1)
		buf_adds(&t->tmp, " (function_call)");
	return buf_cstr(&t->tmp);
}

/* The call as the callbacks see it; its arguments are set apart. */
static void
pc_view(struct pcall *pc, struct tcopenai_call *c)
{
	memset(c, 0, sizeof(*c));
	if (pc->hasid) {
		c->id = buf_cstr(&pc->id);
		c->idlen = pc->id.len;
	}
	c->name = buf_cstr(&pc->name);
	c->namelen = pc->name.len;
	c->text = buf_cstr(&pc->args);
	c->textlen = pc->args.len;
	c->line = pc->at.line;
	c->col = pc->at.col;
}

/* Where byte off of the call's arguments came from. */
static struct pos
pc_where(const struct pcall *pc, size_t off)
{
	size_t lo = 0, hi = pc->npieces, mid;

	if (pc->npieces == 0)
		return pc->at;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (pc->pieces[mid].off <= off)
			lo = mid;
		else
			hi = mid;
	}
	return pc->pieces[lo].at;
}

/* The call's arguments are not JSON: jansson's error e, placed. */
static void
args_error(struct tcopenai *t, struct pcall *pc,
    const struct tcopenai_call *c, const json_error_t *e)
{
	size_t pos = e->position > 0 ? (size_t)e->position : 0, chars, k;
	const char *cause, *near;
	char why[JSON_ERROR_TEXT_LENGTH];

	if (pos > pc->args.len)
		pos = pc->args.len;
	switch (json_error_code(e)) {
	case json_error_premature_end_of_input:
		cause = "they end early";
		break;
	case json_error_end_of_input_expected:
		cause = "text after the JSON value";
		break;
	case json_error_duplicate_key:
		cause = "a duplicate key";
		break;
	case json_error_stack_overflow:
		cause = "they nest too deep";
		break;
	case json_error_numeric_overflow:
		cause = "a number is out of range";
		break;
	default:
		/* jansson's message, its fixed part */
		near = strstr(e->text, " near ");
		k = near != NULL ? (size_t)(near - e->text) : strlen(e->text);
		snprintf(why, sizeof(why), "%.*s", (int)k, e->text);
		cause = why;
		break;
	}
	chars = utf8_count(pc->args.data, pos);
	say(t, DIAG_ERROR, pc_where(pc, pos > 0 ? pos - 1 : 0), "arguments",
	    NULL, c, "the arguments of %s are not valid JSON: %s (character "
	    "%zu of the arguments)", describe(t, pc), cause,
	    chars > 0 ? chars : 1);
}

/* The call is complete: told, or its error. */
static void
pc_finish(struct tcopenai *t, struct pcall *pc)
{
	struct tcopenai_call c;
	json_error_t e;
	json_t *args = NULL;
	const char *s = buf_cstr(&pc->args), *nul;
	size_t n = pc->args.len;
	char q[QUOTE_MAX];

	pc_view(pc, &c);
	if (pc->type != NULL) {
		say(t, DIAG_WARNING, pc->at, "tool-type", NULL, NULL,
		    "a tool call of type %s is not read", diag_quote(q,
		    sizeof(q), pc->type, strlen(pc->type)));
		return;
	}
	if (pc->name.len == 0) {
		say(t, DIAG_ERROR, pc->at, "tool-name", NULL, &c,
		    "%s has no name", describe(t, pc));
		return;
	}
	if (pc->badtype != NULL) {
		say(t, DIAG_ERROR, pc->at, "arguments", NULL, &c, "the "
		    "arguments of %s are %s, not a JSON object or a string",
		    describe(t, pc), pc->badtype);
		return;
	}
	if (jsonx_skip_ws(s, n, 0) == n)
		args = json_object();
	else if ((nul = memchr(s, '\0', n)) != NULL) {
		say(t, DIAG_ERROR, pc_where(pc, (size_t)(nul - s)),
		    "arguments", NULL, &c, "the arguments of %s are not "
		    "valid JSON: a NUL byte (character %zu of the arguments)",
		    describe(t, pc), utf8_count(s, (size_t)(nul - s)) + 1);
		return;
	} else if ((args = load_exact(s, n, &e)) == NULL) {
		args_error(t, pc, &c, &e);
		return;
	} else if (!json_is_object(args)) {
		say(t, DIAG_ERROR, pc_where(pc, 0), "arguments", NULL, &c,
		    "the arguments of %s are not a JSON object: found %s",
		    describe(t, pc), jsonx_typename(args));
		json_decref(args);
		return;
	}
	c.args = args;
	if (t->cb.call != NULL && !t->stopped &&
	    t->cb.call(t->cb.arg, &c) != 0)
		t->stopped = 1;
	json_decref(args);
}

/* The call was begun and the stream ends at at: it is cut. */
static void
pc_cut(struct tcopenai *t, struct pcall *pc, struct pos at, int eoi)
{
	struct tcopenai_call c;

	pc_view(pc, &c);
	say(t, DIAG_ERROR, at, "truncated", NULL, &c, "the %s ends inside %s",
	    eoi ? "input" : "stream", describe(t, pc));
	t->cut = 1;
}

/* A chunk stream's call is complete. */
static void
chat_done(struct tcopenai *t)
{
	if (!t->chat.active)
		return;
	if (t->chat.index > t->maxdone)
		t->maxdone = t->chat.index;
	pc_finish(t, &t->chat);
	pc_reset(&t->chat);
}

/* A warning of a type of output item not read, once a type. */
static void
warn_type(struct tcopenai *t, struct doc *d, const char *at,
    const char *type)
{
	char q[QUOTE_MAX];

	if (json_object_get(t->warned, type) != NULL ||
	    json_object_size(t->warned) >= WARNED_MAX)
		return;
	json_object_set_new(t->warned, type, json_true());
	say(t, DIAG_WARNING, doc_at(d, at), "tool-type", at, NULL,
	    "an output item of type %s is not read",
	    diag_quote(q, sizeof(q), type, strlen(type)));
}

/* A message's content: a string, or parts whose "text" is read. */
static void
read_content(struct tcopenai *t, struct doc *d, const json_t *m,
    const char *at)
{
	json_t *c = json_object_get(m, "content"), *part;
	char p[PTR_MAX];
	size_t i;

	if (json_is_string(c)) {
		tell_string(t, 0, c);
		return;
	}
	if (!json_is_array(c)) {
		get(t, d, m, at, "content", JSON_STRING);	/* its error */
		return;
	}
	json_array_foreach(c, i, part) {
		if (!json_is_object(part)) {
			ptr(p, at, "/content/%zu", i);
			say(t, DIAG_ERROR, doc_at(d, p), "shape", p, NULL,
			    "expected an object, found %s",
			    jsonx_typename(part));
			continue;
		}
		if (str(part, "type") == NULL || is(str(part, "type"), "text"))
			tell_string(t, 0, json_object_get(part, "text"));
	}
}

/* The reasoning of a message, a delta or an Ollama message. */
static void
read_reasoning(struct tcopenai *t, const json_t *m)
{
	json_t *r = json_object_get(m, "reasoning_content");

	if (!json_is_string(r))
		r = json_object_get(m, "reasoning");
	if (!json_is_string(r))
		r = json_object_get(m, "thinking");
	tell_string(t, 1, r);
}

/* finish_reason or done_reason: the warnings of an output cut short. */
static void
read_finish(struct tcopenai *t, struct doc *d, const json_t *obj,
    const char *at, const char *key)
{
	const char *why = str(obj, key);
	char p[PTR_MAX];

	if (!is(why, "length") && !is(why, "content_filter"))
		return;
	ptr(p, at, "/%s", key);
	say(t, DIAG_WARNING, doc_at(d, p), "finish", p, NULL, "%s \"%s\": the "
	    "output was cut %s", key, why, is(why, "length") ?
	    "at the token limit" : "by a content filter");
}

/*
 * A call given whole: fn (at fnat) holds its name and arguments, the
 * element (at at) its id and type. index stands for it in messages.
 */
static void
whole_call(struct tcopenai *t, struct doc *d, const json_t *el,
    const char *at, const json_t *fn, const char *fnat, const char *idkey,
    long index)
{
	struct pcall *pc = &t->one;
	json_t *name;

	pc_reset(pc);
	pc->active = 1;
	pc->index = index;
	pc->at = doc_at(d, at);
	pc_type(pc, str(el, "type"));
	if (idkey != NULL)
		pc_id(pc, get(t, d, el, at, idkey, JSON_STRING));
	if (fn != NULL) {
		if ((name = get(t, d, fn, fnat, "name", JSON_STRING)) != NULL)
			buf_add(&pc->name, json_string_value(name),
			    json_string_length(name));
		pc_args(pc, d, fn, fnat, "arguments", 0);
	}
	pc_finish(t, pc);
	pc_reset(pc);
}

/* A Chat Completions message's tool_calls[i], at at. */
static void
message_call(struct tcopenai *t, struct doc *d, const json_t *tc, size_t i,
    const char *at)
{
	char p[PTR_MAX];

	if (!json_is_object(tc)) {
		say(t, DIAG_ERROR, doc_at(d, at), "shape", at, NULL,
		    "expected an object, found %s", jsonx_typename(tc));
		return;
	}
	ptr(p, at, "/function");
	whole_call(t, d, tc, at, get(t, d, tc, at, "function", JSON_OBJECT),
	    p, "id", (long)i);
}

/*
 * A chunk's tool_calls[i], at at: a piece of the call at its index, and
 * the call before it complete when it is another's.
 */
static void
chunk_call(struct tcopenai *t, struct doc *d, const json_t *tc, size_t i,
    const char *at)
{
	struct pcall *pc = &t->chat;
	json_t *id, *fn, *name;
	char p[PTR_MAX];
	long ix;
	int r;

	if (!json_is_object(tc)) {
		say(t, DIAG_ERROR, doc_at(d, at), "shape", at, NULL,
		    "expected an object, found %s", jsonx_typename(tc));
		return;
	}
	if ((r = get_index(t, d, tc, at, "index", &ix)) < 0)
		return;
	if (r == 0)
		ix = (long)i;
	id = get(t, d, tc, at, "id", JSON_STRING);
	if (id != NULL && json_string_length(id) == 0)
		id = NULL;
	if (pc->active && (pc->index != ix || (id != NULL && pc->hasid &&
	    (pc->id.len != json_string_length(id) || memcmp(pc->id.data,
	    json_string_value(id), pc->id.len) != 0))))
		chat_done(t);
	if (!pc->active) {
		if (ix < t->maxdone || (ix == t->maxdone && id == NULL)) {
			if (ix == t->maxdone)
				say(t, DIAG_ERROR, doc_at(d, at), "order", NULL,
				    NULL, "a delta of tool call index %ld after "
				    "that call was complete", ix);
			else
				say(t, DIAG_ERROR, doc_at(d, at), "order", NULL,
				    NULL, "a delta of tool call index %ld after "
				    "index %ld was complete", ix, t->maxdone);
			return;
		}
		pc->active = 1;
		pc->index = ix;
		pc->at = doc_at(d, at);
	}
	pc_id(pc, id);
	pc_type(pc, str(tc, "type"));
	ptr(p, at, "/function");
	if ((fn = get(t, d, tc, at, "function", JSON_OBJECT)) == NULL)
		return;
	if ((name = get(t, d, fn, p, "name", JSON_STRING)) != NULL)
		buf_add(&pc->name, json_string_value(name),
		    json_string_length(name));
	pc_args(pc, d, fn, p, "arguments", 1);
}

/* A chunk's function_call (the legacy single call), at at. */
static void
chunk_function(struct tcopenai *t, struct doc *d, const json_t *fc,
    const char *at)
{
	struct pcall *pc = &t->chat;
	json_t *name;

	if (pc->active && pc->index != -1)
		chat_done(t);
	if (!pc->active) {
		pc->active = 1;
		pc->index = -1;
		pc->at = doc_at(d, at);
	}
	if ((name = get(t, d, fc, at, "name", JSON_STRING)) != NULL)
		buf_add(&pc->name, json_string_value(name),
		    json_string_length(name));
	pc_args(pc, d, fc, at, "arguments", 1);
}

/* A Chat Completions message or a chunk's delta m, at at. */
static void
read_message(struct tcopenai *t, struct doc *d, const json_t *m,
    const char *at, int delta)
{
	json_t *calls, *tc, *fc;
	char p[PTR_MAX];
	size_t i;

	read_reasoning(t, m);
	read_content(t, d, m, at);
	tell_string(t, 0, get(t, d, m, at, "refusal", JSON_STRING));
	if ((calls = get(t, d, m, at, "tool_calls", JSON_ARRAY)) != NULL)
		json_array_foreach(calls, i, tc) {
			ptr(p, at, "/tool_calls/%zu", i);
			if (delta)
				chunk_call(t, d, tc, i, p);
			else
				message_call(t, d, tc, i, p);
		}
	if ((fc = get(t, d, m, at, "function_call", JSON_OBJECT)) != NULL) {
		ptr(p, at, "/function_call");
		if (delta)
			chunk_function(t, d, fc, p);
		else
			whole_call(t, d, fc, p, fc, p, NULL, -1);
	}
}

/*
 * Choice 0 of choices (NULL when there is none), its place in *at; any
 * other is warned of, once an input.
 */
static json_t *
choice0(struct tcopenai *t, struct doc *d, const json_t *choices,
    size_t *at)
{
	json_t *c, *found = NULL;
	char p[PTR_MAX];
	size_t i;
	long ix;
	int r;

	json_array_foreach(choices, i, c) {
		snprintf(p, sizeof(p), "/choices/%zu", i);
		if (!json_is_object(c)) {
			say(t, DIAG_ERROR, doc_at(d, p), "shape", p, NULL,
			    "expected an object, found %s",
			    jsonx_typename(c));
			continue;
		}
		if ((r = get_index(t, d, c, p, "index", &ix)) < 0)
			continue;
		if (r == 0)
			ix = (long)i;
		if (ix == 0 && found == NULL) {
			found = c;
			*at = i;
		} else if (!t->choicewarn) {
			t->choicewarn = 1;
			say(t, DIAG_WARNING, doc_at(d, p), "choices", p, NULL,
			    "only choice 0 is read: choice %ld is skipped, "
			    "and any other", ix);
		}
	}
	return found;
}

/* A Chat Completions response, or a chunk of a stream. */
static void
read_chat(struct tcopenai *t, struct doc *d, const json_t *v, int chunk)
{
	json_t *choices, *c, *m;
	char p[PTR_MAX];
	size_t at;

	if ((choices = get(t, d, v, "", "choices", JSON_ARRAY)) == NULL)
		return;
	if ((c = choice0(t, d, choices, &at)) == NULL) {
		if (!chunk)
			say(t, DIAG_WARNING, d->segs[0].at, "choices", NULL,
			    NULL, "the response has no choice 0");
		return;
	}
	snprintf(p, sizeof(p), "/choices/%zu", at);
	if ((m = get(t, d, c, p, chunk ? "delta" : "message",
	    JSON_OBJECT)) != NULL) {
		snprintf(p, sizeof(p), "/choices/%zu/%s", at, chunk ?
		    "delta" : "message");
		read_message(t, d, m, p, chunk);
		snprintf(p, sizeof(p), "/choices/%zu", at);
	}
	/* the warning first: it says why a call it ends may be cut */
	read_finish(t, d, c, p, "finish_reason");
	if (chunk && get(t, d, c, p, "finish_reason", JSON_STRING) != NULL) {
		chat_done(t);
		t->ended = 1;
	}
}

/* A Responses output item, whole, at at; stream: its text was told. */
static void
read_item(struct tcopenai *t, struct doc *d, const json_t *it,
    const char *at, int stream)
{
	static const char *const parts[] = { "summary", "content" };
	const char *type = str(it, "type");
	json_t *list, *el;
	size_t i, k;

	if (!json_is_object(it)) {
		say(t, DIAG_ERROR, doc_at(d, at), "shape", at, NULL,
		    "expected an object, found %s", jsonx_typename(it));
		return;
	}
	if (is(type, "function_call")) {
		whole_call(t, d, it, at, it, at, "call_id", -2);
		return;
	}
	if (is(type, "message")) {
		if (stream || (list = get(t, d, it, at, "content",
		    JSON_ARRAY)) == NULL)
			return;
		json_array_foreach(list, i, el) {
			if (is(str(el, "type"), "output_text"))
				tell_string(t, 0, json_object_get(el, "text"));
			else if (is(str(el, "type"), "refusal"))
				tell_string(t, 0, json_object_get(el,
				    "refusal"));
		}
		return;
	}
	if (is(type, "reasoning")) {
		for (k = 0; !stream && k < 2; k++) {
			if ((list = get(t, d, it, at, parts[k],
			    JSON_ARRAY)) == NULL)
				continue;
			json_array_foreach(list, i, el)
				tell_string(t, 1, json_object_get(el, "text"));
		}
		return;
	}
	if (type != NULL)
		warn_type(t, d, at, type);
	else if (json_object_get(it, "type") == NULL)
		say(t, DIAG_ERROR, doc_at(d, at), "shape", at, NULL,
		    "an output item without a \"type\"");
	else
		get(t, d, it, at, "type", JSON_STRING);	/* its error */
}

/* A Responses API response, at at ("" or an event's "/response"). */
static void
read_status(struct tcopenai *t, struct doc *d, const json_t *r,
    const char *at)
{
	const char *status = str(r, "status"), *why;
	json_t *e, *det;
	char q[512], p[PTR_MAX];

	ptr(p, at, "/status");
	if (is(status, "failed")) {
		e = json_object_get(r, "error");
		why = str(e, "message");
		say(t, DIAG_ERROR, doc_at(d, p), "api", p, NULL,
		    "the response failed: %s", why != NULL ? diag_quote(q,
		    sizeof(q), why, strlen(why)) : "no message");
	} else if (is(status, "incomplete")) {
		det = json_object_get(r, "incomplete_details");
		why = str(det, "reason");
		say(t, DIAG_WARNING, doc_at(d, p), "finish", p, NULL,
		    "the response is incomplete: %s", why != NULL ?
		    diag_quote(q, sizeof(q), why, strlen(why)) : "no reason");
	} else if (is(status, "cancelled"))
		say(t, DIAG_WARNING, doc_at(d, p), "finish", p, NULL,
		    "the response was cancelled");
	else if (is(status, "in_progress") || is(status, "queued"))
		say(t, DIAG_WARNING, doc_at(d, p), "finish", p, NULL,
		    "the response is still \"%s\": its output may be partial",
		    status);
}

static void
read_response(struct tcopenai *t, struct doc *d, const json_t *v)
{
	json_t *out, *it;
	char p[PTR_MAX];
	size_t i;

	read_status(t, d, v, "");
	if ((out = get(t, d, v, "", "output", JSON_ARRAY)) != NULL)
		json_array_foreach(out, i, it) {
			snprintf(p, sizeof(p), "/output/%zu", i);
			read_item(t, d, it, p, 0);
		}
}

/* The key of a Responses event's item in the slot map, in b: 0, or -1. */
static int
slot_key(struct buf *b, int which, const json_t *v)
{
	json_t *j;
	double x;

	buf_reset(b);
	if (which == 0) {
		j = json_object_get(v, "item_id");
		if (!json_is_string(j))
			return -1;
		buf_addc(b, 'i');
		buf_add(b, json_string_value(j), json_string_length(j));
		return 0;
	}
	j = json_object_get(v, "output_index");
	x = json_number_value(j);
	if (!json_is_number(j) || x < 0 || x > INDEX_MAX)
		return -1;
	buf_printf(b, "o%.0f", x);
	return 0;
}

/* The call in progress of a Responses event, or NULL. */
static struct pcall *
slot_find(struct tcopenai *t, const json_t *v, size_t *k)
{
	json_t *j;
	int which;

	for (which = 0; which < 2; which++) {
		if (slot_key(&t->tmp, which, v) != 0)
			continue;
		j = json_object_getn(t->slotmap, t->tmp.data, t->tmp.len);
		if (j != NULL) {
			*k = (size_t)json_integer_value(j);
			return &t->slots[*k];
		}
	}
	return NULL;
}

/* A new call in progress, for the item of added (an event). */
static struct pcall *
slot_new(struct tcopenai *t, const json_t *added, const json_t *item)
{
	struct pcall *pc;
	json_t *ids;
	size_t k = t->nslots;
	int which;

	if (t->nslots == t->slotcap) {
		t->slotcap = t->slotcap ? 2 * t->slotcap : 4;
		t->slots = xreallocarray(t->slots, t->slotcap,
		    sizeof(*t->slots));
	}
	pc = &t->slots[t->nslots++];
	memset(pc, 0, sizeof(*pc));
	/* keyed by the item's id and by its output index */
	ids = json_pack("{s:O?,s:O?}", "item_id", json_object_get(item, "id"),
	    "output_index", json_object_get(added, "output_index"));
	for (which = 0; which < 2; which++)
		if (slot_key(&pc->keys[which], which, ids) == 0)
			json_object_setn_new(t->slotmap, pc->keys[which].data,
			    pc->keys[which].len, json_integer((json_int_t)k));
	json_decref(ids);
	return pc;
}

static void
slot_del(struct tcopenai *t, size_t k)
{
	struct pcall *pc = &t->slots[k], *last;
	int which;

	for (which = 0; which < 2; which++)
		if (pc->keys[which].len > 0)
			json_object_deln(t->slotmap, pc->keys[which].data,
			    pc->keys[which].len);
	if (pc->emitted != 0)
		t->ntold--;
	pc_free(pc);
	last = &t->slots[--t->nslots];
	if (pc == last)
		return;
	*pc = *last;
	for (which = 0; which < 2; which++)
		if (pc->keys[which].len > 0)
			json_object_setn_new(t->slotmap, pc->keys[which].data,
			    pc->keys[which].len, json_integer((json_int_t)k));
}

/*
 * A Responses slot's call complete: told, its memory given back, its
 * keys kept until its item is done, so that the item is not told again.
 * Of TOLD_MAX such calls the oldest is forgotten: a stream would have
 * to keep that many items open to see one told twice.
 */
static void
slot_told(struct tcopenai *t, struct pcall *pc)
{
	size_t k, old = 0;

	pc_finish(t, pc);
	pc->emitted = ++t->told;
	pc_release(pc);
	if (++t->ntold <= TOLD_MAX)
		return;
	for (k = 0; k < t->nslots; k++)
		if (t->slots[k].emitted != 0 && (t->slots[old].emitted == 0 ||
		    t->slots[k].emitted < t->slots[old].emitted))
			old = k;
	slot_del(t, old);
}

/* response.output_item.done: the item's call complete, if not yet. */
static void
item_done(struct tcopenai *t, struct doc *d, const json_t *v)
{
	struct pcall *pc;
	json_t *item, *name, *ids;
	size_t k;

	if ((item = get(t, d, v, "", "item", JSON_OBJECT)) == NULL)
		return;
	if (!is(str(item, "type"), "function_call")) {
		read_item(t, d, item, "/item", 1);
		return;
	}
	ids = json_pack("{s:O?,s:O?}", "item_id", json_object_get(item, "id"),
	    "output_index", json_object_get(v, "output_index"));
	pc = slot_find(t, ids, &k);
	json_decref(ids);
	if (pc == NULL) {
		read_item(t, d, item, "/item", 1);
		return;
	}
	if (!pc->emitted) {
		/* the item is the call as it ends */
		pc_id(pc, json_object_get(item, "call_id"));
		name = json_object_get(item, "name");
		if (pc->name.len == 0 && json_is_string(name))
			buf_add(&pc->name, json_string_value(name),
			    json_string_length(name));
		if (json_object_get(item, "arguments") != NULL) {
			buf_reset(&pc->args);
			pc->npieces = 0;
			pc_args(pc, d, item, "/item", "arguments", 0);
		}
		pc_finish(t, pc);
	}
	slot_del(t, k);
}

/* An event of a Responses stream. */
static void
read_revent(struct tcopenai *t, struct doc *d, const json_t *v)
{
	const char *type = str(v, "type");
	struct pcall *pc;
	json_t *item, *j, *r;
	char q[QUOTE_MAX];
	size_t k;

	if (is(type, "response.output_item.added")) {
		item = get(t, d, v, "", "item", JSON_OBJECT);
		if (!is(str(item, "type"), "function_call"))
			return;
		pc = slot_new(t, v, item);
		pc->active = 1;
		pc->index = -2;
		pc->at = doc_at(d, "/item");
		pc_id(pc, json_object_get(item, "call_id"));
		j = json_object_get(item, "name");
		if (json_is_string(j))
			buf_add(&pc->name, json_string_value(j),
			    json_string_length(j));
		pc_args(pc, d, item, "/item", "arguments", 1);
	} else if (is(type, "response.function_call_arguments.delta") ||
	    is(type, "response.function_call_arguments.done")) {
		if ((pc = slot_find(t, v, &k)) == NULL) {
			j = json_object_get(v, "item_id");
			say(t, DIAG_ERROR, d->segs[0].at, "stream", NULL, NULL,
			    "a delta of an item that was not added: %s",
			    json_is_string(j) ? diag_quote(q, sizeof(q),
			    json_string_value(j), json_string_length(j)) :
			    "(no item_id)");
			return;
		}
		if (pc->emitted)
			return;
		if (is(type, "response.function_call_arguments.delta")) {
			if ((j = get(t, d, v, "", "delta", JSON_STRING)))
				pc_piece(pc, json_string_value(j),
				    json_string_length(j), d->segs[0].at);
			return;
		}
		if (json_object_get(v, "arguments") != NULL) {
			buf_reset(&pc->args);
			pc->npieces = 0;
			pc_args(pc, d, v, "", "arguments", 0);
		}
		j = json_object_get(v, "name");
		if (pc->name.len == 0 && json_is_string(j))
			buf_add(&pc->name, json_string_value(j),
			    json_string_length(j));
		slot_told(t, pc);
	} else if (is(type, "response.output_item.done"))
		item_done(t, d, v);
	else if (is(type, "response.output_text.delta") ||
	    is(type, "response.refusal.delta"))
		tell_string(t, 0, get(t, d, v, "", "delta", JSON_STRING));
	else if (is(type, "response.reasoning_text.delta") ||
	    is(type, "response.reasoning_summary_text.delta"))
		tell_string(t, 1, get(t, d, v, "", "delta", JSON_STRING));
	else if (is(type, "response.completed") ||
	    is(type, "response.incomplete") || is(type, "response.failed")) {
		t->ended = 1;
		if ((r = get(t, d, v, "", "response", JSON_OBJECT)) != NULL)
			read_status(t, d, r, "/response");
	}
}

/* An Ollama /api/chat line (or its whole response). */
static void
read_ollama(struct tcopenai *t, struct doc *d, const json_t *v)
{
	json_t *m, *fn, *calls, *tc;
	char p[PTR_MAX], f[PTR_MAX];
	size_t i;
	long ix;

	if ((m = get(t, d, v, "", "message", JSON_OBJECT)) != NULL) {
		read_reasoning(t, m);
		tell_string(t, 0, get(t, d, m, "/message", "content",
		    JSON_STRING));
		if ((calls = get(t, d, m, "/message", "tool_calls",
		    JSON_ARRAY)) != NULL)
			json_array_foreach(calls, i, tc) {
				snprintf(p, sizeof(p),
				    "/message/tool_calls/%zu", i);
				if (!json_is_object(tc)) {
					say(t, DIAG_ERROR, doc_at(d, p),
					    "shape", p, NULL, "expected an "
					    "object, found %s",
					    jsonx_typename(tc));
					continue;
				}
				ptr(f, p, "/function");
				fn = get(t, d, tc, p, "function", JSON_OBJECT);
				if (get_index(t, d, fn, f, "index", &ix) <= 0)
					ix = (long)i;
				whole_call(t, d, tc, p, fn, f, "id", ix);
			}
	}
	t->ended = json_is_true(json_object_get(v, "done"));
	read_finish(t, d, v, "", "done_reason");
}

/* An error the server reports in its stream, or as its response. */
static void
read_error(struct tcopenai *t, struct doc *d, const json_t *v)
{
	json_t *e = json_object_get(v, "error");
	const char *m = NULL, *p = NULL;
	char q[512];

	if (json_is_string(e)) {
		m = json_string_value(e);
		p = "/error";
	} else if ((m = str(e, "message")) != NULL)
		p = "/error/message";
	else if ((m = str(v, "message")) != NULL)
		p = "/message";
	t->ended = 1;
	say(t, DIAG_ERROR, p != NULL ? doc_at(d, p) : d->segs[0].at, "api",
	    p, NULL, "the server reports an error%s%s", m != NULL ? ": " : "",
	    m != NULL ? diag_quote(q, sizeof(q), m, strlen(m)) : "");
}

/* The kind of the object v. */
static enum kind
kind_of(const struct tcopenai *t, const json_t *v)
{
	const char *obj = str(v, "object"), *type = str(v, "type");
	json_t *e = json_object_get(v, "error"), *ch, *c0;

	if (t->errevent)
		return K_ERROR;
	if (is(obj, "response"))	/* a failed one has its error */
		return K_RESPONSE;
	if ((e != NULL && !json_is_null(e) && !json_is_false(e)) ||
	    is(obj, "error") || is(type, "error"))
		return K_ERROR;
	if (is(obj, "chat.completion.chunk"))
		return K_CHUNK;
	if (is(obj, "chat.completion"))
		return K_COMPLETION;
	if (is(obj, "text_completion"))
		return K_LEGACY;
	if (type != NULL && strncmp(type, "response.", 9) == 0)
		return K_REVENT;
	if (json_is_array(ch = json_object_get(v, "choices"))) {
		c0 = json_array_get(ch, 0);
		if (json_object_get(c0, "delta") != NULL)
			return K_CHUNK;
		if (json_object_get(c0, "message") != NULL)
			return K_COMPLETION;
		if (json_object_get(c0, "text") != NULL)
			return K_LEGACY;
		return t->kind == K_COMPLETION ? K_COMPLETION : K_CHUNK;
	}
	if (json_is_array(json_object_get(v, "output")))
		return K_RESPONSE;
	if (json_object_get(v, "message") != NULL ||
	    json_object_get(v, "done") != NULL)
		return K_OLLAMA;
	return K_UNKNOWN;
}

/* jsonx's error e of the document, at its place. */
static void
json_fail(struct tcopenai *t, struct doc *d, struct jsonx_error *e)
{
	struct pos first, at;

	if (e->code == json_error_duplicate_key && e->first != JSONX_NOPOS) {
		first = doc_pos(d, e->first);
		jsonx_dup_text(e, first.line, first.col);
	}
	at = doc_pos(d, e->offset);
	say(t, DIAG_ERROR, at, e->rule, NULL, NULL, "%s", e->text);
}

/*
 * One JSON document, n bytes at s, whose runs lie at segs in the input;
 * noun names its end in a message of jansson's ("line"), or is NULL.
 */
static void
read_doc(struct tcopenai *t, const char *s, size_t n, const struct seg *segs,
    size_t nsegs, const char *noun)
{
	struct jsonx_error err;
	struct doc d;
	json_t *v;
	size_t end;
	enum kind k;

	memset(&d, 0, sizeof(d));
	d.s = s;
	d.n = n;
	d.segs = segs;
	d.nsegs = nsegs;
	d.cpos = segs[0].at;
	t->ndocs++;
	if ((v = jsonx_parse(s, n, 0, &end, &err)) == NULL) {
		if (noun != NULL)
			jsonx_end_noun(&err, noun);
		json_fail(t, &d, &err);
		goto out;
	}
	if ((end = jsonx_skip_ws(s, n, end)) < n) {
		say(t, DIAG_ERROR, doc_pos(&d, end), "json-syntax", NULL, NULL,
		    "invalid JSON: text after the value");
		goto out;
	}
	if (!json_is_object(v)) {
		say(t, DIAG_ERROR, segs[0].at, "shape", NULL, NULL,
		    "expected a JSON object, found %s", jsonx_typename(v));
		goto out;
	}
	k = kind_of(t, v);
	if (k == K_ERROR) {
		read_error(t, &d, v);
		goto out;
	}
	if (k == K_UNKNOWN || k == K_LEGACY) {
		say(t, DIAG_ERROR, segs[0].at, "shape", NULL, NULL, "%s",
		    k == K_LEGACY ? "a legacy completion (choices[].text) "
		    "holds no tool calls" : "not a Chat Completions, "
		    "Responses API or Ollama chat object");
		goto out;
	}
	if (t->kind == K_NONE)
		t->kind = k;
	if (k != t->kind) {
		say(t, DIAG_ERROR, segs[0].at, "shape", NULL, NULL, "found %s, "
		    "but the input began with %s", kind_names[k],
		    kind_names[t->kind]);
		goto out;
	}
	switch (k) {
	case K_COMPLETION:
	case K_CHUNK:
		read_chat(t, &d, v, k == K_CHUNK);
		break;
	case K_RESPONSE:
		read_response(t, &d, v);
		break;
	case K_REVENT:
		read_revent(t, &d, v);
		break;
	case K_OLLAMA:
		read_ollama(t, &d, v);
		break;
	default:
		break;
	}
out:
	json_decref(v);
	if (d.hasloc)
		jsonx_locator_free(&d.loc);
	free(d.marks);
}

/*
 * The stream ends, at [DONE] (done) or at the end of the input, at at:
 * what is in progress is complete (a chunk stream's call, at [DONE]) or
 * cut, and the stream must have had its own end. A new one may follow.
 */
static void
stream_close(struct tcopenai *t, int done, struct pos at)
{
	size_t k;

	if (t->chat.active) {
		if (done)
			chat_done(t);
		else
			pc_cut(t, &t->chat, at, 1);
		pc_reset(&t->chat);
	}
	for (k = 0; k < t->nslots; k++)
		if (!t->slots[k].emitted)
			pc_cut(t, &t->slots[k], at, !done);
	while (t->nslots > 0)
		slot_del(t, t->nslots - 1);
	if (!t->cut)
		switch (t->kind) {
		case K_CHUNK:
			if (done)
				break;
			if (t->form != F_SSE) {
				if (!t->ended)
					say(t, DIAG_ERROR, at, "truncated",
					    NULL, NULL, "the input ends before "
					    "a finish_reason");
			} else if (t->ended)
				say(t, DIAG_WARNING, at, "stream", NULL,
				    NULL, "the stream ends without data: "
				    "[DONE]");
			else
				say(t, DIAG_ERROR, at, "truncated", NULL, NULL,
				    "the stream ends before a finish_reason "
				    "or data: [DONE]");
			break;
		case K_REVENT:
			if (!t->ended)
				say(t, DIAG_ERROR, at, "truncated", NULL, NULL,
				    "the stream ends before "
				    "response.completed");
			break;
		case K_OLLAMA:
			if (!t->ended)
				say(t, DIAG_ERROR, at, "truncated", NULL, NULL,
				    "the input ends before a line with "
				    "\"done\": true");
			break;
		default:
			break;
		}
	t->kind = K_NONE;
	t->ended = 0;
	t->cut = 0;
	t->maxdone = -1;
}

/* A JSON value whole in t->cur: a document. */
static void
json_value(struct tcopenai *t, const char *noun)
{
	struct seg sg;

	sg.off = 0;
	sg.at = t->curat;
	t->inval = 0;
	read_doc(t, t->cur.data, t->cur.len, &sg, 1, noun);
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
				say(t, DIAG_ERROR, t->pos, "shape", NULL, NULL,
				    "expected a JSON object, found %s",
				    found(what, sizeof(what), c));
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
			} else if (t->instr) {
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
			stream_close(t, 1, t->segs[0].at);
		} else if (b > a) {
			t->errevent = t->event.len == 5 &&
			    memcmp(t->event.data, "error", 5) == 0;
			read_doc(t, s, n, t->segs, t->nsegs, NULL);
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
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789-_.", s[i]) == NULL || s[i] == '\0')
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
		read_doc(t, s + v, n - v, &sg, 1, NULL);
		t->errevent = 0;
	} else if ((k == 2 && memcmp(s, "id", 2) == 0) ||
	    (k == 5 && memcmp(s, "retry", 5) == 0) ||
	    (k < n && field_name(s, k)))
		;	/* a field not read */
	else if (t->nlines == 1) {
		say(t, DIAG_ERROR, t->lineat, "format", NULL, NULL, "not an "
		    "OpenAI-compatible response: expected JSON or SSE "
		    "\"data:\" lines, found %s", diag_quote(q, sizeof(q), s,
		    n));
		t->dead = 1;
	} else
		say(t, DIAG_ERROR, t->lineat, "sse", NULL, NULL,
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
		stream_close(t, 0, t->endat);
	if (!t->dead && t->ndocs == 0 && t->status == DIAG_OK)
		say(t, DIAG_ERROR, t->endat, "empty", NULL, NULL,
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
	size_t k;

	if (t == NULL)
		return;
	for (k = 0; k < t->nslots; k++)
		pc_free(&t->slots[k]);
	free(t->slots);
	pc_free(&t->chat);
	pc_free(&t->one);
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
