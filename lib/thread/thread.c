/*
 * thread: the <thread> serializer of seed 004. Each event is parsed once
 * and written into one buffer; the names of tool_output events are left
 * as holes and filled from the final toolCallId -> toolName map when the
 * document is written, since a later tool_call may still change them.
 * The ids are left out too: which events a summary folds, and so the
 * position of each event written, is known only at the end of the input.
 */
#include <stdarg.h>
#include <stdint.h>
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

enum want {
	W_STRING, W_NUMBER, W_BOOLEAN, W_OBJECT, W_ANY, W_NUMBERS, W_ITERS
};

static const char *const wantname[] = {
	"a string", "a number", "a boolean", "an object", "a value",
	"an array of numbers", "an array of non-negative integers"
};

/*
 * Whether v is a number that can be an iteration a summary folds: a whole
 * number, not negative, compared as a double as JavaScript compares
 * numbers (every double from 2^53 up is whole).
 */
static int
is_iter(const json_t *v)
{
	double d;

	if (!json_is_number(v))
		return 0;
	d = json_number_value(v);
	if (!(d >= 0))
		return 0;
	return d >= 9007199254740992.0 || d == (double)(int64_t)d;
}

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
	case W_ITERS:
		if (!json_is_array(v))
			return 0;
		for (i = 0; i < json_array_size(v); i++)
			if (w == W_NUMBERS ?
			    !json_is_number(json_array_get(v, i)) :
			    !is_iter(json_array_get(v, i)))
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

		if ((w == W_NUMBERS || w == W_ITERS) && json_is_array(v)) {
			struct buf found = BUF_INIT;
			json_t *x;

			for (i = 0; (x = json_array_get(v, i)) != NULL &&
			    (w == W_NUMBERS ? json_is_number(x) : is_iter(x));
			    i++)
				;
			/* a number is shown: "found a number" says nothing */
			if (json_is_number(x))
				jsonw_number(&found, json_number_value(x));
			else
				buf_adds(&found, jsonx_typename(x));
			e->elem = (long)i;
			report(e, DIAG_ERROR, name, "field-type",
			    "\"%s\" must be %s, found %s at index %zu", name,
			    wantname[w], buf_cstr(&found), i);
			e->elem = -1;
			buf_free(&found);
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

/* A new record for the event being read, with no text yet. */
static struct thread_ev *
add_ev(struct thread_doc *doc)
{
	struct thread_ev *r;

	if (doc->nevs == doc->evcap) {
		doc->evcap = doc->evcap ? doc->evcap * 2 : 64;
		doc->evs = xreallocarray(doc->evs, doc->evcap,
		    sizeof(*doc->evs));
	}
	r = &doc->evs[doc->nevs++];
	memset(r, 0, sizeof(*r));
	r->off = r->idat = r->end = doc->text.len;
	r->hole = SIZE_MAX;
	return r;
}

/* A summary's iterations, kept for the fold. */
static void
add_iters(struct thread_doc *doc, struct thread_ev *r, const json_t *a)
{
	size_t i, n = json_array_size(a);

	if (doc->itercap - doc->niters < n) {
		while (doc->itercap - doc->niters < n)
			doc->itercap = doc->itercap ? doc->itercap * 2 : 64;
		doc->iters = xreallocarray(doc->iters, doc->itercap,
		    sizeof(*doc->iters));
	}
	r->list = doc->niters;
	r->nlist = n;
	/* + 0.0 makes -0 the key of 0 */
	for (i = 0; i < n; i++)
		doc->iters[doc->niters++] =
		    json_number_value(json_array_get(a, i)) + 0.0;
}

/*
 * Checks one event and, when it is good, writes its <event> line, all
 * but its id. The fields are looked up first, so a bad event writes
 * nothing of its own (the caller throws the document away anyway). Every
 * event gets a record, a skipped one too: it still uses up an id.
 */
static void
one_event(struct ev *e)
{
	struct thread_doc *doc = e->doc;
	struct buf *t = &doc->text;
	struct thread_ev *r = add_ev(doc);
	const char *type, *xtype, *body_field = NULL;
	json_t *jt, *it, *body = NULL, *name = NULL, *id = NULL, *rec = NULL;
	json_t *iters = NULL;
	enum { B_STRING, B_JSON, B_STRINGIFY } how = B_STRING;
	size_t i;

	/* an event of an unknown type is folded by its iteration too */
	it = json_object_get(e->obj, "iteration");
	if (is_iter(it)) {
		r->key = 1;
		r->iter = json_number_value(it) + 0.0;
	}
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
		iters = field(e, "summarizedIterations",
		    e->opts->keep_summarized ? W_NUMBERS : W_ITERS);
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

	if (iters != NULL && !e->opts->keep_summarized) {
		r->summary = 1;
		add_iters(doc, r, iters);
	}
	r->off = t->len;
	buf_add(t, "\n  <event type=\"", 16);
	buf_adds(t, xtype);
	buf_add(t, "\" id=\"", 6);
	r->idat = t->len;
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
		r->hole = doc->nholes;
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
	r->end = t->len;

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

/* Iterations -> the last summary listing each, and where it folds to. */
struct islot {
	double	 key;
	size_t	 last;		/* the last summary that lists it */
	size_t	 min;		/* least place of its events so far */
	int	 used;
};

struct itab {
	struct islot	*slot;
	size_t		 mask;
	size_t		 used;
};

static size_t
itab_hash(double key)
{
	uint64_t h;

	memcpy(&h, &key, sizeof(h));
	/* splitmix64's finalizer: whole numbers differ in few bits */
	h ^= h >> 30;
	h *= UINT64_C(0xbf58476d1ce4e5b9);
	h ^= h >> 27;
	h *= UINT64_C(0x94d049bb133111eb);
	h ^= h >> 31;
	return (size_t)h;
}

/* Doubles the table, so that it grows with the iterations, not the lists. */
static void
itab_grow(struct itab *tab)
{
	struct islot *old = tab->slot;
	size_t i, j, n = tab->mask + 1;

	tab->slot = xcalloc(n * 2, sizeof(*tab->slot));
	tab->mask = n * 2 - 1;
	for (i = 0; i < n; i++) {
		if (!old[i].used)
			continue;
		for (j = itab_hash(old[i].key) & tab->mask; tab->slot[j].used;
		    j = (j + 1) & tab->mask)
			;
		tab->slot[j] = old[i];
	}
	free(old);
}

static struct islot *
itab_find(struct itab *tab, double key, int add)
{
	size_t i;

	for (i = itab_hash(key) & tab->mask; tab->slot[i].used;
	    i = (i + 1) & tab->mask)
		if (tab->slot[i].key == key)
			return &tab->slot[i];
	if (!add)
		return NULL;
	if (2 * (tab->used + 1) > tab->mask + 1) {
		itab_grow(tab);
		return itab_find(tab, key, 1);
	}
	tab->used++;
	tab->slot[i].used = 1;
	tab->slot[i].key = key;
	tab->slot[i].min = SIZE_MAX;
	return &tab->slot[i];
}

/*
 * Decides which events are written and in what order. An event is left
 * out when a later summary lists its iteration; a summary is written at
 * the least place of the events it leaves out (a summary it leaves out
 * counts at its own place, so stacked summaries fold into the newest),
 * or at its own when it leaves none out. One pass over the summaries'
 * lists notes for each iteration the last summary listing it; one pass
 * over the events keeps for each iteration the least place of its events
 * so far, which is where a summary listing it folds to: time and memory
 * linear in the events and the lists.
 */
static void
fold(struct thread_doc *doc, const struct thread_opts *opts)
{
	struct itab tab = { NULL, 63, 0 };
	struct thread_ev *r;
	struct islot *sl;
	size_t i, k, *head;

	doc->order = xreallocarray(NULL, doc->nevs ? doc->nevs : 1,
	    sizeof(*doc->order));
	doc->norder = 0;
	if (opts->keep_summarized || doc->niters == 0) {
		for (i = 0; i < doc->nevs; i++)
			doc->order[doc->norder++] = i;
		goto count;
	}
	tab.slot = xcalloc(tab.mask + 1, sizeof(*tab.slot));
	for (i = 0; i < doc->nevs; i++) {
		r = &doc->evs[i];
		for (k = 0; r->summary && k < r->nlist; k++)
			itab_find(&tab, doc->iters[r->list + k], 1)->last = i;
	}
	head = xreallocarray(NULL, doc->nevs, sizeof(*head));
	for (i = 0; i < doc->nevs; i++) {
		r = &doc->evs[i];
		head[i] = SIZE_MAX;
		r->place = i;
		for (k = 0; r->summary && k < r->nlist; k++) {
			sl = itab_find(&tab, doc->iters[r->list + k], 0);
			if (sl->min < r->place)
				r->place = sl->min;
		}
		if (r->key && (sl = itab_find(&tab, r->iter, 0)) != NULL) {
			r->out = sl->last > i;
			if (r->place < sl->min)
				sl->min = r->place;
		}
	}
	/* the summaries kept, at their places, in input order */
	for (i = doc->nevs; i-- > 0;) {
		r = &doc->evs[i];
		if (r->summary && !r->out) {
			r->next = head[r->place];
			head[r->place] = i;
		}
	}
	for (i = 0; i < doc->nevs; i++) {
		r = &doc->evs[i];
		if (!r->summary && !r->out)
			doc->order[doc->norder++] = i;
		for (k = head[i]; k != SIZE_MAX; k = doc->evs[k].next)
			doc->order[doc->norder++] = k;
	}
	free(head);
	free(tab.slot);
count:
	doc->events = doc->folded = 0;
	for (i = 0; i < doc->nevs; i++)
		if (doc->evs[i].out)
			doc->folded++;
	for (i = 0; i < doc->norder; i++)
		if (doc->evs[doc->order[i]].end > doc->evs[doc->order[i]].off)
			doc->events++;
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
	if (!bad)
		fold(doc, opts);
	doc->tail = doc->text.len;
	buf_add(&doc->text, "\n</thread>", 10);
	if (opts->prefix != NULL && opts->prefix_len > 0) {
		buf_addc(&doc->text, '\n');
		buf_add(&doc->text, opts->prefix, opts->prefix_len);
	}
	return bad ? DIAG_INVALID : DIAG_OK;
}

/* Writes one event's line with its id and its name, if it has a hole. */
static int
write_ev(const struct thread_doc *doc, const struct thread_ev *r,
    unsigned long id, struct buf *tmp, FILE *fp)
{
	const char *t = doc->text.data;
	const struct thread_hole *h;
	json_t *tool;
	size_t at = r->idat;

	buf_reset(tmp);
	buf_addu(tmp, id);
	if (io_write(t + r->off, r->idat - r->off, fp) != 0 ||
	    io_write(tmp->data, tmp->len, fp) != 0)
		return -1;
	if (r->hole != SIZE_MAX) {
		h = &doc->holes[r->hole];
		buf_reset(tmp);
		tool = json_object_getn(doc->names,
		    json_string_value(h->call_id),
		    json_string_length(h->call_id));
		if (tool != NULL)
			xmlesc_append(tmp, json_string_value(tool),
			    json_string_length(tool), XMLESC_QUOTES, NULL);
		else
			buf_add(tmp, "unknown", 7);
		if (io_write(t + at, h->offset - at, fp) != 0 ||
		    io_write(tmp->data, tmp->len, fp) != 0)
			return -1;
		at = h->offset;
	}
	return io_write(t + at, r->end - at, fp);
}

/*
 * Writes the document: the events kept, in order, with their ids and
 * their tool_output names; -1 on a write error. An event skipped for its
 * unknown type has no line but uses up its id, as in the seed.
 */
int
thread_write(struct thread_doc *doc, FILE *fp)
{
	struct buf tmp = BUF_INIT;
	const struct thread_ev *r;
	size_t i;
	int ret = 0;

	if (io_write(doc->text.data, 8, fp) != 0)	/* "<thread>" */
		ret = -1;
	for (i = 0; i < doc->norder && ret == 0; i++) {
		r = &doc->evs[doc->order[i]];
		if (r->end > r->off && write_ev(doc, r, i, &tmp, fp) != 0)
			ret = -1;
	}
	if (ret == 0 && io_write(doc->text.data + doc->tail,
	    doc->text.len - doc->tail, fp) != 0)
		ret = -1;
	buf_free(&tmp);
	return ret;
}

void
thread_free(struct thread_doc *doc)
{
	size_t i;

	for (i = 0; i < doc->nholes; i++)
		json_decref(doc->holes[i].call_id);
	free(doc->holes);
	free(doc->evs);
	free(doc->iters);
	free(doc->order);
	json_decref(doc->names);
	buf_free(&doc->text);
	memset(doc, 0, sizeof(*doc));
}
