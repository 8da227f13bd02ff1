/*
 * thread: the <thread> serializer of seed 004. Each event is parsed once
 * and written into one buffer; the names of tool_output events are left
 * as holes and filled from the final toolCallId -> toolName map when the
 * document is written, since a later tool_call may still change them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/io.h"
#include "base/jsonw.h"
#include "base/src.h"
#include "base/xalloc.h"
#include "json/jsonx.h"
#include "thread/thread.h"
#include "xml/xmlesc.h"

/* What one event is being checked and written with. */
struct ev {
	struct thread_doc		*doc;
	const struct thread_opts	*opts;
	struct src			*src;	/* the whole input */
	int				 array;	/* input is one array */
	size_t				 start;	/* offset of the event */
	unsigned long			 index;
	json_t				*obj;
	int				 bad;	/* an error was reported */
	long				 elem;	/* report at this element, or -1 */
	struct xmlesc_bad		 xbad;	/* forbidden characters */
	const char			*xfield; /* the field of the first */
	struct buf			*scratch;
};

enum want { W_STRING, W_NUMBER, W_BOOLEAN, W_OBJECT, W_ANY, W_NUMBERS };

static const char *const wantname[] = {
	"a string", "a number", "a boolean", "an object", "a value",
	"an array of numbers"
};

/* Reports a problem at the event's field (its value, when it has one). */
static void
report(struct ev *e, enum diag_severity sev, const char *field,
    const char *rule, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void
report(struct ev *e, enum diag_severity sev, const char *field,
    const char *rule, const char *fmt, ...)
{
	struct buf path = BUF_INIT, msg = BUF_INIT;
	struct diag_loc loc;
	const char *s = e->src->s;
	size_t n = e->src->n, off = e->start;
	va_list ap;

	if (field != NULL)
		off = jsonx_member(s, n, e->start, field);
	if (field != NULL && e->elem >= 0)
		off = jsonx_element(s, n, off, (size_t)e->elem);
	src_loc(e->src, off, &loc);
	if (e->array)
		buf_printf(&path, "/%lu", e->index);
	if (field != NULL)
		buf_printf(&path, "/%s", field);
	if (field != NULL && e->elem >= 0)
		buf_printf(&path, "/%ld", e->elem);
	loc.path = buf_cstr(&path);
	buf_printf(&msg, "event %lu: ", e->index);
	va_start(ap, fmt);
	buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	diag_at(sev, &loc, rule, "%s", buf_cstr(&msg));
	buf_free(&path);
	buf_free(&msg);
	if (sev == DIAG_ERROR)
		e->bad = 1;
}

/* Whether a JSON string is exactly lit ("a\u0000b" is not "a"). */
static int
str_is(const json_t *v, const char *lit)
{
	size_t len = strlen(lit);

	return json_string_length(v) == len &&
	    memcmp(json_string_value(v), lit, len) == 0;
}

static int
is_type(const json_t *v, enum want w)
{
	size_t i;

	switch (w) {
	case W_STRING:	return json_is_string(v);
	case W_NUMBER:	return json_is_number(v);
	case W_BOOLEAN:	return json_is_boolean(v);
	case W_OBJECT:	return json_is_object(v);
	case W_ANY:	return 1;
	case W_NUMBERS:
		if (!json_is_array(v))
			return 0;
		for (i = 0; i < json_array_size(v); i++)
			if (!json_is_number(json_array_get(v, i)))
				return 0;
		return 1;
	}
	return 0;
}

/* The event's field, or NULL (reported) when it is missing or mistyped. */
static json_t *
field(struct ev *e, const char *name, enum want w)
{
	json_t *v = json_object_get(e->obj, name);

	if (v == NULL) {
		report(e, DIAG_ERROR, NULL, "missing-field",
		    "missing \"%s\" (%s)", name, wantname[w]);
		return NULL;
	}
	if (!is_type(v, w)) {
		size_t i;

		if (w == W_NUMBERS && json_is_array(v)) {
			for (i = 0; json_is_number(json_array_get(v, i)); i++)
				;
			e->elem = (long)i;
			report(e, DIAG_ERROR, name, "field-type",
			    "\"%s\" must be %s, found %s at index %zu", name,
			    wantname[w], jsonx_typename(json_array_get(v, i)),
			    i);
			e->elem = -1;
		} else
			report(e, DIAG_ERROR, name, "field-type",
			    "\"%s\" must be %s, found %s", name, wantname[w],
			    jsonx_typename(v));
		return NULL;
	}
	return v;
}

/* Escaped text into the document, noting forbidden characters. */
static void
put_text(struct ev *e, const char *field_name, const char *s, size_t n)
{
	size_t before = e->xbad.count;

	xmlesc_append(&e->doc->text, s, n, XMLESC_QUOTES, &e->xbad);
	if (before == 0 && e->xbad.count > 0)
		e->xfield = field_name;
}

static void
put_string(struct ev *e, const char *field_name, const json_t *v)
{
	put_text(e, field_name, json_string_value(v), json_string_length(v));
}

static void
put_attr_number(struct ev *e, const char *attr, const json_t *v)
{
	struct buf *t = &e->doc->text;

	buf_addc(t, ' ');
	buf_adds(t, attr);
	buf_add(t, "=\"", 2);
	jsonw_number(t, json_number_value(v));
	buf_addc(t, '"');
}

static void
add_hole(struct thread_doc *doc, json_t *call_id)
{
	if (doc->nholes == doc->holecap) {
		doc->holecap = doc->holecap ? doc->holecap * 2 : 64;
		doc->holes = xreallocarray(doc->holes, doc->holecap,
		    sizeof(*doc->holes));
	}
	doc->holes[doc->nholes].offset = doc->text.len;
	doc->holes[doc->nholes].call_id = json_incref(call_id);
	doc->nholes++;
}

/*
 * Checks one event and, when it is good, writes its <event> line. The
 * fields are looked up first, so a bad event writes nothing of its own
 * (the caller throws the document away anyway).
 */
static void
one_event(struct ev *e)
{
	struct thread_doc *doc = e->doc;
	struct buf *t = &doc->text;
	const char *type, *xtype, *body_field = NULL;
	json_t *jt, *it, *body = NULL, *name = NULL, *id = NULL, *rec = NULL;
	json_t *iters = NULL;
	enum { B_STRING, B_JSON, B_STRINGIFY } how = B_STRING;
	size_t i;

	if (!json_is_object(e->obj)) {
		report(e, DIAG_ERROR, NULL, "not-object",
		    "expected an object, found %s", jsonx_typename(e->obj));
		return;
	}
	if ((jt = field(e, "type", W_STRING)) == NULL)
		return;
	type = json_string_value(jt);
	if (str_is(jt, "message")) {
		json_t *role = field(e, "role", W_STRING);

		body_field = "content";
		xtype = "system";
		if (role != NULL && str_is(role, "user"))
			xtype = "human";
		else if (role != NULL && str_is(role, "assistant"))
			xtype = "ai";
	} else if (str_is(jt, "tool_call")) {
		xtype = "tool_input";
		name = field(e, "toolName", W_STRING);
		body_field = "args";
		how = B_STRINGIFY;
		if ((id = json_object_get(e->obj, "toolCallId")) != NULL &&
		    !json_is_string(id)) {
			report(e, DIAG_ERROR, "toolCallId", "field-type",
			    "\"toolCallId\" must be a string, found %s",
			    jsonx_typename(id));
			id = NULL;
		}
	} else if (str_is(jt, "tool_result")) {
		xtype = "tool_output";
		id = field(e, "toolCallId", W_STRING);
		body_field = "result";
		how = B_JSON;
	} else if (str_is(jt, "error")) {
		xtype = "error";
		body_field = "error";
		rec = field(e, "recoverable", W_BOOLEAN);
	} else if (str_is(jt, "human_input_requested")) {
		xtype = type;
		body_field = "question";
	} else if (str_is(jt, "human_input_received")) {
		xtype = type;
		body_field = "response";
	} else if (str_is(jt, "completion")) {
		xtype = type;
		body_field = "result";
	} else if (str_is(jt, "summary")) {
		xtype = type;
		body_field = "summary";
		iters = field(e, "summarizedIterations", W_NUMBERS);
	} else {
		char q[80];

		diag_quote(q, sizeof(q), type, json_string_length(jt));
		if (e->opts->strict)
			report(e, DIAG_ERROR, "type", "unknown-type",
			    "unknown type %s", q);
		else
			report(e, DIAG_WARNING, "type", "unknown-type",
			    "unknown type %s, skipped", q);
		doc->skipped++;
		return;
	}
	it = field(e, "iteration", W_NUMBER);
	body = field(e, body_field, how == B_STRING ? W_STRING :
	    how == B_STRINGIFY ? W_OBJECT : W_ANY);
	if (e->bad)
		return;

	buf_add(t, "\n  <event type=\"", 16);
	buf_adds(t, xtype);
	buf_add(t, "\" id=\"", 6);
	buf_addu(t, e->index);
	buf_addc(t, '"');
	if (name != NULL) {
		buf_add(t, " name=\"", 7);
		put_string(e, "toolName", name);
		buf_addc(t, '"');
		if (id != NULL)
			json_object_setn_new_nocheck(doc->names,
			    json_string_value(id), json_string_length(id),
			    json_incref(name));
	} else if (how == B_JSON) {
		buf_add(t, " name=\"", 7);
		add_hole(doc, id);
		buf_add(t, "\" status=\"success\"", 18);
	}
	put_attr_number(e, "iteration", it);
	if (rec != NULL)
		buf_adds(t, json_is_true(rec) ? " recoverable=\"true\"" :
		    " recoverable=\"false\"");
	if (iters != NULL) {
		buf_add(t, " summarizedIterations=\"", 23);
		for (i = 0; i < json_array_size(iters); i++) {
			if (i > 0)
				buf_addc(t, ',');
			jsonw_number(t, json_number_value(
			    json_array_get(iters, i)));
		}
		buf_addc(t, '"');
	}
	buf_addc(t, '>');
	if (how == B_STRING)
		put_string(e, body_field, body);
	else {
		buf_reset(e->scratch);
		if (how == B_STRINGIFY)
			jsonw_stringify(e->scratch, body);
		else
			jsonw_tostring(e->scratch, body);
		put_text(e, body_field, e->scratch->data, e->scratch->len);
	}
	buf_add(t, "</event>", 8);
	doc->events++;

	if (e->xbad.count > 0 && e->opts->strict)
		report(e, DIAG_ERROR, e->xfield, "xml-char", "\"%s\" holds "
		    "U+%04X, a character XML 1.0 forbids", e->xfield,
		    (unsigned)e->xbad.cp);
	else if (e->xbad.count > 0)
		report(e, DIAG_WARNING, e->xfield, "xml-char", "replaced %zu "
		    "character%s that XML 1.0 forbids (first U+%04X in \"%s\") "
		    "with U+FFFD", e->xbad.count, e->xbad.count == 1 ? "" : "s",
		    (unsigned)e->xbad.cp, e->xfield);
}

void
thread_init(struct thread_doc *doc)
{
	memset(doc, 0, sizeof(*doc));
	doc->names = json_object();
	if (doc->names == NULL)
		xalloc_die();
}

/*
 * Reads the events in[0..n) and builds the document in doc. Returns
 * DIAG_OK, or DIAG_INVALID when any event or the text itself was bad (all
 * of it reported); then doc must not be written.
 */
int
thread_serialize(struct thread_doc *doc, const char *in, size_t n,
    const struct thread_opts *opts)
{
	struct jsonx_seq seq;
	struct jsonx_error err;
	struct src src;
	struct buf scratch = BUF_INIT;
	struct ev e;
	struct diag_loc loc;
	size_t start;
	json_t *v;
	int r, bad = 0;

	src_init(&src, opts->file, in, n);
	jsonx_seq_init(&seq, in, n);
	/* the document is about as long as the events: grow it once, not often */
	buf_reserve(&doc->text, n + n / 4 + 64);
	buf_adds(&doc->text, "<thread>");
	for (unsigned long index = 0;; index++) {
		r = jsonx_seq_next(&seq, &v, &start, &err);
		if (r == 0)
			break;
		if (r < 0) {
			src_loc(&src, err.offset, &loc);
			loc.path = NULL;
			diag_at(DIAG_ERROR, &loc, err.rule, "%s", err.text);
			bad = 1;
			break;
		}
		memset(&e, 0, sizeof(e));
		e.doc = doc;
		e.opts = opts;
		e.src = &src;
		e.array = seq.array;
		e.start = start;
		e.index = index;
		e.obj = v;
		e.scratch = &scratch;
		e.elem = -1;
		one_event(&e);
		bad |= e.bad;
		json_decref(v);
	}
	buf_free(&scratch);
	buf_add(&doc->text, "\n</thread>", 10);
	if (opts->prefix != NULL && opts->prefix_len > 0) {
		buf_addc(&doc->text, '\n');
		buf_add(&doc->text, opts->prefix, opts->prefix_len);
	}
	return bad ? DIAG_INVALID : DIAG_OK;
}

/* Writes the document, filling in tool_output names; -1 on a write error. */
int
thread_write(struct thread_doc *doc, FILE *fp)
{
	struct buf name = BUF_INIT;
	const struct thread_hole *h;
	json_t *tool;
	size_t i, at = 0;
	int r = 0;

	for (i = 0; i < doc->nholes && r == 0; i++) {
		h = &doc->holes[i];
		buf_reset(&name);
		tool = json_object_getn(doc->names,
		    json_string_value(h->call_id),
		    json_string_length(h->call_id));
		if (tool != NULL)
			xmlesc_append(&name, json_string_value(tool),
			    json_string_length(tool), XMLESC_QUOTES, NULL);
		else
			buf_add(&name, "unknown", 7);
		if (io_write(doc->text.data + at, h->offset - at, fp) != 0 ||
		    io_write(name.data, name.len, fp) != 0)
			r = -1;
		at = h->offset;
	}
	if (r == 0 && io_write(doc->text.data + at, doc->text.len - at, fp) != 0)
		r = -1;
	buf_free(&name);
	return r;
}

void
thread_free(struct thread_doc *doc)
{
	size_t i;

	for (i = 0; i < doc->nholes; i++)
		json_decref(doc->holes[i].call_id);
	free(doc->holes);
	json_decref(doc->names);
	buf_free(&doc->text);
	memset(doc, 0, sizeof(*doc));
}
