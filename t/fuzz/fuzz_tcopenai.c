/*
 * fuzz_tcopenai: lib/tcopenai on any bytes, fed whole, one byte at a
 * time, in pieces whose sizes come from a hash of the input, and whole
 * without the fast path of the common Chat Completions chunk (simdjson's,
 * held to the reader's own). The four must tell the same events, in the
 * same order, and end with the same status; a text or reasoning is never empty and always valid
 * UTF-8; a call has a name and an arguments object; a problem has a
 * rule, a line and a column from 1 and a message of one line, and the
 * call of an error has no arguments; the status is 1 exactly when an
 * error was told.
 *
 * Then the whole path of toolcall-parse --format openai (lib/toolcall)
 * on the same bytes: plainly, with events and reasoning events, and as
 * thread events, the last two with tools defined without a schema ("t",
 * and unless a bit of the hash says, the first tool the reader told of),
 * so that calls to others are refused; each whole and in pieces, which
 * change nothing. Every line is one JSON object; the calls and errors
 * written are the reader's, in its order: each good call to a defined
 * tool written with the same name and arguments, its thread id the
 * reader's or call-0-K (K counting the calls written), each bad one and
 * each call to another tool an error event that names its tool and id
 * as the reader did; the text and reasoning events put together are the
 * reader's text and reasoning; the thread's messages are the reader's
 * text between calls, errors and reasoning, trimmed, none blank; the
 * status is the reader's, or 1 when a call was refused. Anything else
 * aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/jsonw.h"
#include "base/utf8.h"
#include "toolcall/tcopenai.h"
#include "toolcall/tcopenai_int.h"
#include "toolcall/toolcall.h"
#include "toolcall/tooldefs.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

struct log {
	struct buf	out;
	unsigned long	errors;
	json_t		*seq;		/* calls ["call", name, args, id] */
					/* and bad ones ["bad", name, id] */
	struct buf	text, reasoning;
	struct buf	stretch;	/* text since the last call */
	json_t		*stretches;	/* the text between calls, trimmed */
};

static void
stretch_end(struct log *l)
{
	size_t a = 0, b = l->stretch.len;
	const char *d = l->stretch.data;

	while (a < b && strchr(" \t\r\n", d[a]) != NULL)
		a++;
	while (b > a && strchr(" \t\r\n", d[b - 1]) != NULL)
		b--;
	if (b > a)
		json_array_append_new(l->stretches, json_stringn(d + a,
		    b - a));
	buf_reset(&l->stretch);
}

static json_t *
id_of(const struct tcopenai_call *c)
{
	return c->id != NULL ? json_stringn(c->id, c->idlen) : json_null();
}

static int
on_text(void *arg, const char *s, size_t n)
{
	struct log *l = arg;

	if (n == 0 || utf8_valid(s, n) != n)
		abort();
	buf_adds(&l->out, "text ");
	jsonw_string(&l->out, s, n);
	buf_addc(&l->out, '\n');
	buf_add(&l->text, s, n);
	buf_add(&l->stretch, s, n);
	return 0;
}

static int
on_reasoning(void *arg, const char *s, size_t n)
{
	struct log *l = arg;

	if (n == 0 || utf8_valid(s, n) != n)
		abort();
	buf_adds(&l->out, "reasoning ");
	jsonw_string(&l->out, s, n);
	buf_addc(&l->out, '\n');
	buf_add(&l->reasoning, s, n);
	/* reasoning ends a stretch of text, as a block ends prose */
	stretch_end(l);
	return 0;
}

static void
put_call(struct buf *b, const struct tcopenai_call *c)
{
	if (c->line == 0 || c->col == 0 || c->name == NULL ||
	    c->text == NULL || (c->id != NULL && c->idlen == 0))
		abort();
	buf_printf(b, "%lu:%lu ", c->line, c->col);
	jsonw_string(b, c->name, c->namelen);
	if (c->id != NULL)
		jsonw_string(b, c->id, c->idlen);
	jsonw_string(b, c->text, c->textlen);
}

static int
on_call(void *arg, const struct tcopenai_call *c)
{
	struct log *l = arg;

	if (!json_is_object(c->args) || c->namelen == 0)
		abort();
	buf_adds(&l->out, "call ");
	put_call(&l->out, c);
	jsonw_exact(&l->out, c->args);
	buf_addc(&l->out, '\n');
	stretch_end(l);
	json_array_append_new(l->seq, json_pack("[s,s#,O,o]", "call",
	    c->name, (int)c->namelen, c->args, id_of(c)));
	return 0;
}

static int
on_diag(void *arg, const struct tcopenai_diag *d)
{
	struct log *l = arg;

	if (d->line == 0 || d->col == 0 || d->rule == NULL ||
	    d->rule[0] == '\0' || d->message == NULL ||
	    d->message[0] == '\0' || strchr(d->message, '\n') != NULL ||
	    (d->path != NULL && d->path[0] != '/') ||
	    (d->call != NULL && d->call->args != NULL))
		abort();
	if (d->severity == DIAG_ERROR)
		l->errors++;
	if (d->severity == DIAG_ERROR && d->call != NULL) {
		stretch_end(l);
		json_array_append_new(l->seq, json_pack("[s,s#,o]", "bad",
		    d->call->name, (int)d->call->namelen, id_of(d->call)));
	}
	buf_printf(&l->out, "%d %lu:%lu %s %s %s", (int)d->severity,
	    d->line, d->col, d->rule, d->path != NULL ? d->path : "-",
	    d->message);
	if (d->call != NULL)
		put_call(&l->out, d->call);
	buf_addc(&l->out, '\n');
	return 0;
}

/*
 * What the reader tells of n bytes at s, fed in pieces: whole when step
 * is 0, else of sizes 1 to step, picked by h; with slow, without the
 * fast path of the common chunk.
 */
static void
run(const uint8_t *s, size_t n, size_t step, uint32_t h, int slow,
    struct log *l)
{
	struct tcopenai_cb cb = { on_text, on_reasoning, on_call, on_diag,
	    NULL };
	struct tcopenai *r;
	size_t i, k;

	memset(l, 0, sizeof(*l));
	l->seq = json_array();
	l->stretches = json_array();
	cb.arg = l;
	r = tcopenai_new(&cb);
	r->slow = slow;
	if (step == 0)
		tcopenai_feed(r, (const char *)s, n);
	else
		for (i = 0; i < n; i += k) {
			h = h * 1103515245u + 12345u;
			k = 1 + (h >> 16) % step;
			if (k > n - i)
				k = n - i;
			tcopenai_feed(r, (const char *)s + i, k);
		}
	tcopenai_end(r);
	if ((tcopenai_status(r) != 0) != (l->errors != 0))
		abort();
	stretch_end(l);
	buf_printf(&l->out, "status %d\n", tcopenai_status(r));
	tcopenai_free(r);
}

static void
log_free(struct log *l)
{
	buf_free(&l->out);
	buf_free(&l->text);
	buf_free(&l->reasoning);
	buf_free(&l->stretch);
	json_decref(l->seq);
	json_decref(l->stretches);
}

/* lib/toolcall's output of the bytes in one mode. */
struct out {
	char	*s;
	size_t	 len;
	int	 status;
};

/* Feeds n bytes at s to lib/toolcall, as run() feeds the reader. */
static void
tc_run(const struct toolcall_opts *o, const uint8_t *s, size_t n,
    size_t step, uint32_t h, struct out *r)
{
	struct toolcall *t;
	size_t i, k;
	FILE *f;

	memset(r, 0, sizeof(*r));
	if ((f = open_memstream(&r->s, &r->len)) == NULL ||
	    (t = toolcall_new(o, f, "<fuzz>")) == NULL)
		abort();
	for (i = 0; i < n; i += k) {
		h = h * 1103515245u + 12345u;
		k = step == 0 ? n : 1 + (h >> 16) % step;
		if (k > n - i)
			k = n - i;
		if (toolcall_feed(t, (const char *)s + i, k) != 0)
			abort();
	}
	if (toolcall_end(t) != 0)
		abort();
	r->status = toolcall_status(t);
	toolcall_free(t);
	if (fclose(f) != 0 || (r->len > 0 && r->s[r->len - 1] != '\n'))
		abort();
}

static int
is_type(const json_t *j, const char *type)
{
	const char *v = json_string_value(json_object_get(j, "type"));

	return v != NULL && strcmp(v, type) == 0;
}

/* A string member of j, appended to b; abort when it is not one. */
static void
add_str(struct buf *b, const json_t *j, const char *key)
{
	const json_t *v = json_object_get(j, key);

	if (!json_is_string(v) || json_string_length(v) == 0)
		abort();
	buf_add(b, json_string_value(v), json_string_length(v));
}

static int
same_bytes(const struct buf *a, const struct buf *b)
{
	return a->len == b->len && (a->len == 0 ||
	    memcmp(a->data, b->data, a->len) == 0);
}

/* Whether the tool named by the JSON string name is defined. */
static int
known(const struct tooldefs *defs, const json_t *name)
{
	return defs == NULL || tooldefs_find(defs, json_string_value(name),
	    json_string_length(name)) != NULL;
}

/*
 * The error event j of item it (a bad call, or a call refused): in a
 * thread, its tool named when it has a name, its id when it has one.
 */
static void
check_error(int m, const json_t *j, const json_t *it)
{
	const json_t *name = json_array_get(it, 1);
	const json_t *id = json_array_get(it, json_array_size(it) - 1);

	if (!is_type(j, "error"))
		abort();
	if (m != 2)
		return;
	if (json_string_length(name) > 0 ? !json_equal(json_object_get(j,
	    "toolName"), name) : json_object_get(j, "toolName") != NULL)
		abort();
	if (json_is_string(id) ? !json_equal(json_object_get(j,
	    "toolCallId"), id) : json_object_get(j, "toolCallId") != NULL)
		abort();
}

/*
 * Checks the output of mode m (0 plain, 1 events, 2 thread) against the
 * reader's log l, the tools being defs (NULL: none, every call taken).
 */
static void
check(int m, const struct out *r, const struct log *l,
    const struct tooldefs *defs)
{
	struct buf text = BUF_INIT, reasoning = BUF_INIT, id = BUF_INIT;
	const char *p, *nl;
	size_t k = 0, nm = 0, nw = 0, refused = 0;
	json_t *j, *it;
	json_error_t e;

	for (p = r->s; p < r->s + r->len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(r->s + r->len - p));
		if ((j = json_loadb(p, (size_t)(nl - p), JSON_ALLOW_NUL,
		    &e)) == NULL)
			j = json_loadb(p, (size_t)(nl - p), JSON_ALLOW_NUL |
			    JSON_DECODE_INT_AS_REAL, &e);
		if (!json_is_object(j))
			abort();
		if (m == 1 && is_type(j, "text"))
			add_str(&text, j, "text");
		else if (m == 1 && is_type(j, "reasoning"))
			add_str(&reasoning, j, "text");
		else if (m == 2 && is_type(j, "message")) {
			if (!json_equal(json_object_get(j, "content"),
			    json_array_get(l->stretches, nm++)))
				abort();
		} else {
			/* a bad call writes nothing but in events */
			while ((it = json_array_get(l->seq, k)) != NULL &&
			    m == 0 && strcmp(json_string_value(
			    json_array_get(it, 0)), "bad") == 0)
				k++;
			if (it == NULL)
				abort();
			k++;
			if (strcmp(json_string_value(json_array_get(it, 0)),
			    "bad") == 0)
				check_error(m, j, it);
			else if (!known(defs, json_array_get(it, 1))) {
				check_error(m, j, it);
				refused++;
			} else {
				if (!json_equal(json_object_get(j, m == 2 ?
				    "toolName" : "tool_name"),
				    json_array_get(it, 1)) ||
				    !json_equal(json_object_get(j, m == 2 ?
				    "args" : "arguments"),
				    json_array_get(it, 2)))
					abort();
				nw++;
				buf_reset(&id);
				if (json_is_string(json_array_get(it, 3)))
					buf_add(&id, json_string_value(
					    json_array_get(it, 3)),
					    json_string_length(
					    json_array_get(it, 3)));
				else
					buf_printf(&id, "call-0-%zu", nw);
				if (m == 2 && (!json_is_string(json_object_get(
				    j, "toolCallId")) || json_string_length(
				    json_object_get(j, "toolCallId")) != id.len ||
				    memcmp(json_string_value(json_object_get(j,
				    "toolCallId")), id.data, id.len) != 0))
					abort();
			}
		}
		json_decref(j);
	}
	/* in plain mode the bad calls after the last call wrote nothing */
	for (; (it = json_array_get(l->seq, k)) != NULL && m == 0; k++)
		if (strcmp(json_string_value(json_array_get(it, 0)), "bad") != 0)
			abort();
	if (k != json_array_size(l->seq))
		abort();
	if (m == 1 && (!same_bytes(&text, &l->text) ||
	    !same_bytes(&reasoning, &l->reasoning)))
		abort();
	if (m == 2 && nm != json_array_size(l->stretches))
		abort();
	if (r->status != (l->errors > 0 || refused > 0 ? DIAG_INVALID :
	    DIAG_OK))
		abort();
	buf_free(&text);
	buf_free(&reasoning);
	buf_free(&id);
}

/* The whole path of --format openai, in its three modes. */
static void
toolcall_path(const uint8_t *data, size_t size, uint32_t h,
    const struct log *l)
{
	static char tname[] = "t", file[] = "<fuzz>";
	struct tooldef v[2];
	struct tooldefs defs;
	struct toolcall_opts o;
	struct out whole, cut;
	json_t *it, *name;
	size_t i;
	int m;

	memset(v, 0, sizeof(v));
	defs.v = v;
	defs.n = 0;
	defs.index = json_object();
	json_array_foreach(l->seq, i, it) {
		name = json_array_get(it, 1);
		/* a name jansson keeps as a key: no NUL in it */
		if ((h & 2) || json_string_length(name) == 0 ||
		    strlen(json_string_value(name)) !=
		    json_string_length(name))
			continue;
		v[0].name = (char *)json_string_value(name);
		v[0].file = file;
		json_object_set_new(defs.index, v[0].name, json_integer(0));
		defs.n = 1;
		break;
	}
	if (json_object_get(defs.index, tname) == NULL) {
		v[defs.n].name = tname;
		v[defs.n].file = file;
		json_object_set_new(defs.index, tname,
		    json_integer((json_int_t)defs.n));
		defs.n++;
	}
	for (m = 0; m < 3; m++) {
		memset(&o, 0, sizeof(o));
		o.max_size = TOOLCALL_MAX_SIZE;
		o.format = TOOLCALL_FMT_OPENAI;
		o.events = m == 1;
		o.reasoning = m == 1 ? TOOLCALL_REASON_EVENTS :
		    TOOLCALL_REASON_SKIP;
		o.thread = m == 2;
		o.tools = m == 0 ? NULL : &defs;
		o.no_validate = (h >> 2) & 1;
		tc_run(&o, data, size, 0, h, &whole);
		tc_run(&o, data, size, 1 + h % 61, h, &cut);
		if (whole.len != cut.len || (whole.len > 0 && memcmp(whole.s,
		    cut.s, whole.len) != 0) || whole.status != cut.status)
			abort();
		check(m, &whole, l, m == 0 ? NULL : &defs);
		free(whole.s);
		free(cut.s);
	}
	json_decref(defs.index);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct log whole, bytes, pieces, slow;
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < size; i++)
		h = (h ^ data[i]) * 16777619u;
	run(data, size, 0, h, 0, &whole);
	run(data, size, 1, h, 0, &bytes);
	run(data, size, 1 + h % 97, h, 0, &pieces);
	run(data, size, 0, h, 1, &slow);
	if (bytes.out.len != whole.out.len || pieces.out.len !=
	    whole.out.len || slow.out.len != whole.out.len ||
	    memcmp(bytes.out.data, whole.out.data, whole.out.len) != 0 ||
	    memcmp(pieces.out.data, whole.out.data, whole.out.len) != 0 ||
	    memcmp(slow.out.data, whole.out.data, whole.out.len) != 0)
		abort();
	diag_setquiet(1);
	toolcall_path(data, size, h, &whole);
	log_free(&whole);
	log_free(&bytes);
	log_free(&pieces);
	log_free(&slow);
	return 0;
}
