/*
 * tcopenai_read: one document of an OpenAI-compatible server's output,
 * read for its text, its reasoning and its calls (a Chat Completions
 * response or chunk, a Responses API response or event, an Ollama chat
 * line), and the calls of a stream put together and told the moment each
 * is complete. The kinds, the fields read and every message are at the
 * top of lib/tcopenai.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "json/jsonx.h"
#include "toolcall/tcopenai.h"
#include "toolcall/tcopenai_int.h"
#include "toolcall/tcsimd.h"

/* A document being read: its text, and where its runs lie. */
struct doc {
	const char		*s;
	size_t			 n;
	const struct seg	*segs;
	size_t			 nsegs;
	struct jsonx_locator	 loc;
	int			 hasloc;
	size_t			 cseg, coff;	/* a cursor, walking forward */
	struct pos		 cpos;
	struct seg		*marks;		/* checkpoints of its walks, */
	size_t			 nmarks, markcap;	/* in order */
};

static const char *const kind_names[] = {
	"", "a Chat Completions response", "a Chat Completions chunk",
	"a Responses API response", "a Responses API event",
	"an Ollama chat line", "", "", ""
};

static void vsay(struct tcopenai *, enum diag_severity, struct pos,
    const char *, const char *, const struct tcopenai_call *, const char *,
    va_list) __attribute__((format(printf, 7, 0)));

/* A problem, told: an error makes the input's status 1. */
static void
vsay(struct tcopenai *t, enum diag_severity sev, struct pos at,
    const char *rule, const char *path, const struct tcopenai_call *c,
    const char *fmt, va_list ap)
{
	struct tcopenai_diag d;

	if (t->stopped)
		return;
	if (sev == DIAG_ERROR)
		t->status = DIAG_INVALID;
	if (t->cb.diag == NULL)
		return;
	buf_reset(&t->msg);
	buf_vprintf(&t->msg, fmt, ap);
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

static void
say(struct tcopenai *t, enum diag_severity sev, struct pos at,
    const char *rule, const char *path, const struct tcopenai_call *c,
    const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static void
say(struct tcopenai *t, enum diag_severity sev, struct pos at,
    const char *rule, const char *path, const struct tcopenai_call *c,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(t, sev, at, rule, path, c, fmt, ap);
	va_end(ap);
}

void
tcopenai_say(struct tcopenai *t, enum diag_severity sev, struct pos at,
    const char *rule, const char *path, const struct tcopenai_call *c,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(t, sev, at, rule, path, c, fmt, ap);
	va_end(ap);
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

	j = jsonx_load(s, n, flags, e);
	if (j == NULL && json_error_code(e) == json_error_numeric_overflow)
		j = jsonx_load(s, n, flags | JSON_DECODE_INT_AS_REAL, e);
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
				say(t, DIAG_ERROR, doc_at(d, at), "order",
				    NULL, NULL, "a delta of tool call index "
				    "%ld after that call was complete", ix);
			else
				say(t, DIAG_ERROR, doc_at(d, at), "order",
				    NULL, NULL, "a delta of tool call index "
				    "%ld after index %ld was complete", ix,
				    t->maxdone);
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
 * The common chunk of a chunk stream, read by simdjson (lib/tcsimd)
 * without a tree: 1 when it was read, as read_chat would read it; 0 when
 * it is not that chunk, or its tool call delta begins or ends a call
 * (which the reader's own path reads, with the places it needs).
 */
static int
fast_chunk(struct tcopenai *t, const char *s, size_t n,
    const struct seg *segs)
{
	struct tcsimd_delta c;
	struct pcall *pc = &t->chat;
	long ix = 0;

	/* a NUL byte and the first chunk: the reader's own path */
	if (t->slow || t->kind != K_CHUNK || t->errevent || n == 0 ||
	    s[0] != '{' ||
	    memchr(s, '\0', n) != NULL || !tcsimd_chunk(s, n, &c))
		return 0;
	if (c.hascall) {
		/* get_index's reading */
		if (c.hasindex) {
			if (!(c.index >= 0 && c.index <= INDEX_MAX &&
			    c.index == (double)(long)c.index))
				return 0;
			ix = (long)c.index;
		}
		if (!pc->active || pc->index != ix)
			return 0;
	}
	t->ndocs++;
	/*
	 * The call's pieces before the text, which read_chat tells first:
	 * nothing sees them before the call is complete, and the strings
	 * are simdjson's only until its next reading.
	 */
	if (c.hasname)
		buf_add(&pc->name, c.name, c.namelen);
	if (c.hasargs)
		pc_piece(pc, c.args, c.argslen, segs[0].at);
	tell_text(t, 0, c.content, c.contentlen);
	return 1;
}

/*
 * One JSON document, n bytes at s, whose runs lie at segs in the input;
 * noun names its end in a message of jansson's ("line"), or is NULL.
 */
void
tcopenai_read_doc(struct tcopenai *t, const char *s, size_t n,
    const struct seg *segs, size_t nsegs, const char *noun)
{
	struct jsonx_error err;
	struct doc d;
	json_t *v;
	size_t end;
	enum kind k;

	if (fast_chunk(t, s, n, segs))
		return;
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
void
tcopenai_stream_close(struct tcopenai *t, int done, struct pos at)
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

void
tcopenai_calls_free(struct tcopenai *t)
{
	size_t k;

	for (k = 0; k < t->nslots; k++)
		pc_free(&t->slots[k]);
	free(t->slots);
	pc_free(&t->chat);
	pc_free(&t->one);
}
