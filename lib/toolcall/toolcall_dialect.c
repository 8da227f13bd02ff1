/*
 * toolcall_dialect: the calls of the dialects of open models (qwen3,
 * invoke, glm, hermes, harmony, deepseek, mistral, llama3, kimi,
 * pythonic), driven by lib/tcdialect's forms. An opening is held until
 * its bytes say which form it is; the call is then held whole, to the
 * markup that ends it or to the end of its JSON value or list, and read
 * into a tree that toolcall_emit writes. A call larger than --max-size
 * is refused and skipped.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/jsonw.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "toolcall/pylit.h"
#include "toolcall/tcdialect.h"
#include "toolcall/toolcall_int.h"
#include "toolcall/tooldefs.h"

/*
 * Calls of the dialects of open models, driven by the forms of
 * lib/tcdialect's table: an opening is held with the bytes after it
 * until they say which of its forms it is (P_PEEK); a call is held to
 * the markup that ends it (P_HEAD, P_AFTER, P_CLOSE: found in one pass,
 * outside its JSON's strings where the form says), or to the end of its
 * JSON value (P_VALUE, P_JSON) or of its list (P_LIST), and read whole;
 * a section of calls is read between its calls in M_GAP, each of its
 * calls in M_RAW; the body of a harmony message that is no call is
 * prose or reasoning, streamed in M_BODY.
 */

/* The markup that the part of the call being read waits for, as said. */
static const char *
want_mark(const struct toolcall *tc)
{
	const struct tcd_form *f = tc->hold.form;
	size_t i;

	if (f == NULL) {
		/* not told yet: the form that is read when nothing says */
		f = tc->hold.forms[0];
		for (i = 0; i < tc->hold.nforms; i++)
			if (tc->hold.forms[i]->peek == NULL) {
				f = tc->hold.forms[i];
				break;
			}
	}
	switch (tc->hold.phase) {
	case P_HEAD:
		return HMESSAGE;
	case P_AFTER:
		return f->after;
	case P_QNAME:
	case P_QVAL:
		return f->after != NULL ? f->after : f->close[0];
	case P_VALUE:
	case P_JSON:
		return "the end of its JSON";
	case P_LIST:
		return "the end of its list";
	case P_PEEK:
		if (f->flags & TCD_F_HEAD)
			return HMESSAGE;
		if (f->close[0] == NULL)
			return "the end of its JSON";
		return f->after != NULL ? f->after : f->close[0];
	default:
		return f->close[0];
	}
}

static void
mark_add(struct toolcall *tc, const char *m, int kind)
{
	if (tc->hold.nmarks == MARKS_MAX)
		return;
	tc->hold.marks[tc->hold.nmarks].s = m;
	tc->hold.marks[tc->hold.nmarks].len = strlen(m);
	tc->hold.marks[tc->hold.nmarks].kind = kind;
	tc->hold.nmarks++;
}

/*
 * The markup that cuts the call short: the same opening again (for a
 * harmony message, either opening), or in a section the opening of its
 * next call and the section's end.
 */
static void
marks_cut(struct toolcall *tc)
{
	const struct tcd_form *f = tc->hold.form, *g;
	size_t i, n;

	if (tc->sect.form != NULL) {
		if (tc->sect.form->call_open != NULL)
			mark_add(tc, tc->sect.form->call_open, MK_RESTART);
		for (i = 0; tc->sect.form->end[i] != NULL; i++)
			mark_add(tc, tc->sect.form->end[i], MK_END);
		return;
	}
	if (!(f->flags & TCD_F_HEAD)) {
		mark_add(tc, f->open, MK_RESTART);
		return;
	}
	g = tcd_forms(&n);
	for (i = 0; i < n; i++)
		if ((g[i].flags & TCD_F_HEAD) && (tc->hold.phase != P_HEAD ||
		    tc->hold.hchan || strcmp(g[i].open, HCHANNEL) != 0))
			mark_add(tc, g[i].open, MK_RESTART);
}

/* The markup that the phase looks for, and the bytes that may begin it. */
void
tc_marks_set(struct toolcall *tc)
{
	const struct tcd_form *f = tc->hold.form;
	size_t i;

	tc->hold.nmarks = 0;
	tc->hold.mstr = 0;
	switch (tc->hold.phase) {
	case P_HEAD:
		mark_add(tc, HMESSAGE, MK_MESSAGE);
		if (!tc->hold.hchan)
			mark_add(tc, HCHANNEL, MK_CHAN);
		for (i = 0; f->close[i] != NULL; i++)
			mark_add(tc, f->close[i], MK_CLOSE);
		break;
	case P_AFTER:
		mark_add(tc, f->after, MK_AFTER);
		break;
	case P_VALUE:
		mark_add(tc, "{", MK_VALUE);
		break;
	default:
		for (i = 0; f->close[i] != NULL; i++)
			mark_add(tc, f->close[i], MK_CLOSE);
		/* a message whose head was refused is skipped as text */
		tc->hold.mstr = (f->flags & TCD_F_STRINGS) && !tc->call.bad;
		break;
	}
	marks_cut(tc);
	tc->hold.lead[0] = tc->hold.lead[1] = '<';
	for (i = 0; i < tc->hold.nmarks; i++)
		if (tc->hold.marks[i].s[0] != '<')
			tc->hold.lead[tc->hold.lead[0] == '<' ? 0 : 1] =
			    tc->hold.marks[i].s[0];
	if (tc->hold.lead[0] != '<' && tc->hold.lead[1] == '<' &&
	    tc->hold.nmarks > 0 && tc->hold.marks[0].s[0] != '<') {
		/* no markup of the phase begins with '<': both leads its own */
		for (i = 0; i < tc->hold.nmarks &&
		    tc->hold.marks[i].s[0] != '<'; i++)
			;
		if (i == tc->hold.nmarks)
			tc->hold.lead[1] = tc->hold.lead[0];
	}
}

/*
 * The first markup of the phase in d[from, n), outside the strings of
 * the call's JSON where the phase counts them (their state kept from
 * the last look), in one pass over the bytes however the markup
 * repeats: its offset with *k its index in the marks, or NONE with
 * *stop where the next look begins (n, or the start of markup that the
 * bytes end in).
 */
static size_t
mark_find(struct toolcall *tc, const char *d, size_t from, size_t n,
    size_t *k, size_t *stop)
{
	size_t i, j;
	int r, part;

	for (i = from; i < n; i++) {
		if (tc->hold.mstr) {
			if (tc->hold.jesc) {
				tc->hold.jesc = 0;
				continue;
			}
			/* in a string, its end or an escape; else one or markup */
			i = tc->hold.jstr ? find_either(d, i, n, '"', '\\') :
			    find_either(d, i, n, '"', '<');
			if (i == n)
				break;
			if (d[i] == '\\') {
				tc->hold.jesc = 1;
				continue;
			}
			if (d[i] == '"') {
				tc->hold.jstr = !tc->hold.jstr;
				continue;
			}
		} else if ((i = find_either(d, i, n, tc->hold.lead[0],
		    tc->hold.lead[1])) == n)
			break;
		part = 0;
		for (j = 0; j < tc->hold.nmarks; j++) {
			r = mark_at(d + i, n - i, tc->hold.marks[j].s,
			    tc->hold.marks[j].len);
			if (r == 2) {
				*k = j;
				*stop = i;
				return i;
			}
			part |= r;
		}
		if (part)
			break;		/* more bytes will say */
	}
	*stop = i < n ? i : n;
	return NONE;
}

/*
 * The first markup (mark_find's) from scan on, in raw's bytes up to old,
 * the last ones held, and then in the n at s that follow them: its
 * offset in raw, or NONE with scan moved on. Each byte is looked at once
 * (the few held at most twice), and s is not copied for the look.
 */
static size_t
raw_next(struct toolcall *tc, size_t old, const char *s, size_t n,
    size_t *k)
{
	size_t t, m, e, stop, from;

	if (tc->hold.scan < old) {
		/* markup begun in the last read: its bytes and a few of s */
		t = old - tc->hold.scan;
		m = n < HOLD_MAX + 2 ? n : HOLD_MAX + 2;
		buf_reset(&tc->tmp);
		buf_add(&tc->tmp, tc->call.raw.data + tc->hold.scan, t);
		buf_add(&tc->tmp, s, m);
		e = mark_find(tc, tc->tmp.data, 0, t + m, k, &stop);
		tc->scanned += (e != NONE ? e : stop);
		if (e != NONE)
			return tc->hold.scan + e;
		if (stop < t || m == n) {
			tc->hold.scan += stop;
			return NONE;
		}
		tc->hold.scan = old + (stop - t);
	}
	from = tc->hold.scan - old;
	e = mark_find(tc, s, from, n, k, &stop);
	tc->scanned += stop - from;
	tc->hold.scan = old + stop;
	return e == NONE ? NONE : old + e;
}

/* Raw holds the bytes of the call up to offset upto, s following old. */
static void
raw_upto(struct toolcall *tc, const char *s, size_t old, size_t upto)
{
	size_t got = tc->call.raw.len - old;

	if (upto > tc->call.raw.len) {
		buf_add(&tc->call.raw, s + got, upto - tc->call.raw.len);
		tc->scanned += upto - old - got;
	}
}

/*
 * The end of the JSON value that begins at scan, in raw's bytes held up
 * to old and then in the n at s: its offset in raw, or NONE, each byte
 * passed once.
 */
static size_t
json_next(struct toolcall *tc, size_t old, const char *s, size_t n)
{
	size_t r, from;

	if (tc->hold.scan < old) {
		r = tcd_jscan(&tc->hold.js, tc->call.raw.data + tc->hold.scan,
		    old - tc->hold.scan);
		if (r != NONE) {
			tc->scanned += r;
			return tc->hold.scan + r;
		}
		tc->scanned += old - tc->hold.scan;
		tc->hold.scan = old;
	}
	from = tc->hold.scan - old;
	if (from >= n)
		return NONE;
	r = tcd_jscan(&tc->hold.js, s + from, n - from);
	if (r != NONE) {
		tc->scanned += r;
		return old + from + r;
	}
	tc->scanned += n - from;
	tc->hold.scan = old + n;
	return NONE;
}

/*
 * pylit_scan over the n bytes at s, after those scanned before: the
 * offset in s just past the list's end (or the byte that ends it in
 * error), or NONE. s is scanned in place; a quote at its end, which
 * the next byte tells, is carried to the next look.
 */
static size_t
list_scan(struct toolcall *tc, const char *s, size_t n)
{
	struct pylit_scan *py = tc->hold.py;
	char tmp[HOLD_MAX];
	size_t nc = tc->hold.ncarry, m, from = 0;

	tc->hold.ncarry = 0;
	if (nc > 0) {
		m = n < 8 ? n : 8;
		memcpy(tmp, tc->hold.carry, nc);
		memcpy(tmp + nc, s, m);
		py->off = 0;
		if (pylit_scan(py, tmp, nc + m) == PYLIT_DONE)
			return py->off > nc ? py->off - nc : 0;
		if (py->off < nc) {
			/* still waiting: s was too short to tell */
			memcpy(tc->hold.carry, tmp + py->off, nc + m - py->off);
			tc->hold.ncarry = nc + m - py->off;
			tc->scanned += m;
			return NONE;
		}
		from = py->off - nc;
	}
	py->off = from;
	if (pylit_scan(py, s, n) == PYLIT_DONE) {
		tc->scanned += py->off - from;
		return py->off;
	}
	tc->scanned += n - from;
	memcpy(tc->hold.carry, s + py->off, n - py->off);
	tc->hold.ncarry = n - py->off;
	return NONE;
}

/* The same, for a list whose bytes from scan on are held up to old. */
static size_t
list_next(struct toolcall *tc, size_t old, const char *s, size_t n)
{
	size_t r, from;

	if (tc->hold.scan < old) {
		r = list_scan(tc, tc->call.raw.data + tc->hold.scan,
		    old - tc->hold.scan);
		if (r != NONE)
			return tc->hold.scan + r;
		tc->hold.scan = old;
	}
	from = tc->hold.scan - old;
	if (from >= n)
		return NONE;
	r = list_scan(tc, s + from, n - from);
	tc->hold.scan = r == NONE ? old + n : old + from + r;
	return r == NONE ? NONE : old + from + r;
}

/* Adds s (n bytes, JSON-escaped) to the arena as the value of node id. */
void
tc_raw_value(struct toolcall *tc, size_t id, const char *s, size_t n)
{
	struct node *v = &tc->tree.nodes[id];

	v->val = tc->tree.arena.len;
	jsonw_escape(&tc->tree.arena, s, n);
	v->vallen = tc->tree.arena.len - v->val;
	v->kind = K_STRING;
}

/*
 * The bytes of [off, off + n) in the call are UTF-8: 0, or -1 with the
 * call's error made at the first bad byte.
 */
static int
raw_utf8(struct toolcall *tc, size_t off, size_t n)
{
	size_t ok = utf8_valid(tc->call.raw.data + off, n);

	if (ok == n)
		return 0;
	tc_call_error(tc, tc_call_pos(tc, off + ok), "utf8",
	    "invalid UTF-8: byte 0x%02x at byte offset %llu",
	    (unsigned char)tc->call.raw.data[off + ok],
	    tc_call_pos(tc, off + ok).off);
	return -1;
}

/*
 * A name or key of the call, off and n in raw: UTF-8, and no NUL byte,
 * which no JSON reader keeps in a member's name. 0, or -1 with the
 * call's error made.
 */
static int
raw_name(struct toolcall *tc, size_t off, size_t n)
{
	const char *nul = memchr(tc->call.raw.data + off, '\0', n);

	if (nul == NULL)
		return raw_utf8(tc, off, n);
	tc_call_error(tc, tc_call_pos(tc, (size_t)(nul - tc->call.raw.data)),
	    "dialect", "malformed %s call: a name holds a NUL byte",
	    tcd_dialect_name(tc->hold.dial));
	return -1;
}

/* The call c of a dialect as the tree tc_emit_call writes: 0, or -1. */
static int
raw_tree(struct toolcall *tc, const struct tcd_call *c)
{
	const char *d = tc->call.raw.data;
	size_t i, id, namelen;
	const char *name;

	tc->tree.nnodes = 0;
	buf_reset(&tc->tree.names);
	buf_reset(&tc->tree.arena);
	tc->tree.sname = tc->tree.args = NONE;
	name = tcd_name(c, d, &namelen);
	if (c->namebuf == NULL && raw_name(tc, c->name, c->namelen) != 0)
		return -1;
	tc->tree.tname = tc_node_new(tc, "tool_name", NONE, R_META);
	tc_raw_value(tc, tc->tree.tname, name, namelen);
	if (c->json != NULL) {
		tc->hold.hargs = json_incref(c->json);
		return 0;
	}
	if (c->argtext.data != NULL) {
		tc->hold.htext = &c->argtext;
		return 0;
	}
	tc->tree.args = tc_node_new(tc, "arguments", NONE, R_ARGS);
	for (i = 0; i < c->nargs; i++) {
		if (raw_name(tc, c->args[i].key, c->args[i].keylen) != 0 ||
		    raw_utf8(tc, c->args[i].val, c->args[i].vallen) != 0)
			return -1;
		id = tc_node_newn(tc, d + c->args[i].key, c->args[i].keylen,
		    tc->tree.args, R_ARG);
		tc_raw_value(tc, id, d + c->args[i].val, c->args[i].vallen);
	}
	return 0;
}

/*
 * The call is in raw[0, end): read it, write it or its error. cut: the
 * input ended before the markup that ends it, which the form's cut
 * says it may lack: a call whose JSON is whole is read, with a warning;
 * else it is truncated.
 */
static void
raw_done(struct toolcall *tc, size_t end, int cut)
{
	struct tcd_call c;
	char msg[96];
	int r, flags = cut ? TCD_CUT : 0;

	tc->call.raw.len = end;
	memset(&c, 0, sizeof(c));
	/* a tree of the arguments only for a schema to type them by */
	if (tc->opt.tools == NULL)
		flags |= TCD_TEXT;
	r = tcd_parse_params(tc->hold.dial, tc->call.raw.data, end, flags,
	    tc->hold.qknown ? &tc->hold.qp : NULL, &c);
	if (r != 0) {
		if (cut)
			tc_call_error(tc, tc->call.cpos, "truncated",
			    "truncated tool call: input ended before %s",
			    tc->hold.form->cut);
		else
			tc_call_error(tc, tc_call_pos(tc, c.erroff), "dialect",
			    "%s", c.err);
		tc_bad_end(tc, end);
	} else if (raw_tree(tc, &c) == 0 && tc_emit_call(tc)) {
		tc->pos = tc_call_pos(tc, end);
		tc->mode = M_PROSE;
	} else
		tc_bad_end(tc, end);
	if (r == 0 && cut) {
		snprintf(msg, sizeof(msg), "input ended before %s: the call is "
		    "read without it", tc->hold.form->cut);
		tc_diag_pos(tc, DIAG_WARNING, &tc->call.cpos, "truncated", msg);
	}
	tcd_call_free(&c);
	json_decref(tc->hold.hargs);
	tc->hold.hargs = NULL;
	tc->hold.htext = NULL;
}

/* A pythonic list's error, at its place in the stream. */
static void
list_error(struct toolcall *tc, struct pylit_error *err)
{
	static const char pre[] = "invalid pythonic call: ";
	struct pos p = tc_call_pos(tc, err->offset), q;
	const char *text = err->text;

	if (strcmp(err->rule, "utf8") == 0) {
		tc_call_error(tc, p, "utf8",
		    "invalid UTF-8: byte 0x%02x at byte offset %llu",
		    (unsigned char)tc->call.raw.data[err->offset], p.off);
		return;
	}
	if (strcmp(err->rule, "duplicate-key") == 0) {
		q = tc_call_pos(tc, err->first);
		pylit_dup_text(err, q.line, q.col);
	}
	if (strncmp(text, pre, sizeof(pre) - 1) == 0)
		text += sizeof(pre) - 1;
	tc_call_error(tc, p, "dialect", "malformed pythonic call: %s", text);
}

/*
 * A list of pythonic calls is in raw[0, end): each call written, at the
 * place of its name, or the list's error.
 */
static void
list_done(struct toolcall *tc, size_t end)
{
	struct pylit_call *calls = NULL;
	struct pylit_error err;
	struct pos cpos = tc->call.cpos;
	size_t e, ncalls = 0, i;

	tc->call.raw.len = end;
	if (pylit_calls(tc->call.raw.data, end, 0, &e, &calls, &ncalls,
	    &err) != 0) {
		list_error(tc, &err);
		tc_bad_end(tc, end);
		return;
	}
	for (i = 0; i < ncalls; i++) {
		tc->tree.nnodes = 0;
		buf_reset(&tc->tree.names);
		buf_reset(&tc->tree.arena);
		tc->tree.sname = tc->tree.args = NONE;
		tc->tree.tname = tc_node_new(tc, "tool_name", NONE, R_META);
		tc_raw_value(tc, tc->tree.tname,
		    tc->call.raw.data + calls[i].name, calls[i].namelen);
		tc->hold.hargs = json_incref(calls[i].args);
		tc->call.bad = 0;
		tc->call.cpos = tc_call_pos(tc, calls[i].name);
		if (!tc_emit_call(tc)) {
			tc->call.cpos = cpos;
			tc_bad_end(tc, end);
		}
		tc->call.cpos = cpos;
		json_decref(tc->hold.hargs);
		tc->hold.hargs = NULL;
	}
	pylit_calls_free(calls, ncalls);
	tc->pos = tc_call_pos(tc, end);
	tc->mode = M_PROSE;
}

static size_t	form_begin(struct toolcall *);

/* The opening begins a form whose bytes are held from here. */
static void
raw_open(struct toolcall *tc, const char *tag, size_t len,
    const struct tcd_form *const *forms, size_t nforms)
{
	const struct tcd_form *f = forms[0];

	tc_prose_break(tc);
	tc->mode = M_RAW;
	tc->call.cpos = tc->pos;
	buf_reset(&tc->call.raw);
	buf_add(&tc->call.raw, tag, len);
	tc->call.rawgone = 0;
	tc->call.bad = 0;
	tc->hold.forms = forms;
	tc->hold.nforms = nforms;
	tc->hold.form = tc->sect.form = NULL;
	tc->sect.tent = 0;
	tc->hold.scan = len;
	tc->hold.jstr = tc->hold.jesc = 0;
	tc->hold.qknown = 0;
	tc->prose.answered = 1;
	advance(&tc->pos, tag, len);
	if (nforms > 1 || (f->flags & TCD_F_PEEK) ||
	    ((f->flags & TCD_F_LIST) && (f->flags & TCD_F_START))) {
		tc->hold.phase = P_PEEK;
		pylit_scan_init(tc->hold.py, 0);
		return;
	}
	tc->hold.form = f;
	form_begin(tc);
}

void
tc_raw_begin(struct toolcall *tc, const struct opener *o)
{
	raw_open(tc, o->tag, o->len, o->forms, o->nforms);
}

/* A "{" or "[" that begins the answer, and may begin a call. */
void
tc_start_begin(struct toolcall *tc, const struct tcd_form *f)
{
	tc->hold.startform = f;
	raw_open(tc, f->open, strlen(f->open), &tc->hold.startform, 1);
}

/*
 * The form of the opening is known: what reads on. For a section other
 * than one whose opening is its first call's, the section is open (its
 * markup the gap's) and the offset of the markup's end is returned:
 * what raw holds after it is read again. NONE otherwise.
 */
static size_t
form_begin(struct toolcall *tc)
{
	const struct tcd_form *f = tc->hold.form;
	size_t mend;

	tc->hold.dial = f->dialect;
	tc->hold.jstr = tc->hold.jesc = 0;
	if (f->flags & TCD_F_SECTION) {
		if (f->flags & TCD_F_FIRST) {
			/* the opening is the first byte of the first call */
			tc_sect_open(tc, f, 0);
			tc->sect.tent = (f->flags & TCD_F_START) &&
			    !(f->flags & TCD_F_LIST);
			tc_call_phase(tc);
			return NONE;
		}
		mend = f->peek != NULL ? tc->hold.scan + strlen(f->peek) :
		    strlen(f->open);
		tc_sect_open(tc, f, mend);
		return mend;
	}
	tc->hold.hchan = strcmp(f->open, HCHANNEL) == 0;
	if (f->flags & TCD_F_HEAD)
		tc->hold.phase = P_HEAD;
	else if (f->close[0] == NULL)
		tc->hold.phase = P_VALUE;
	else if (f->after != NULL)
		tc->hold.phase = P_AFTER;
	else
		tc->hold.phase = P_CLOSE;
	if (f->dialect == TCD_QWEN3 && tc->opt.tools != NULL) {
		/* its tool's parameters may say where its values end */
		tc->hold.phase = P_QNAME;
		tc->hold.qfrom = tc->hold.scan;
		return NONE;
	}
	tc_marks_set(tc);
	return NONE;
}

/*
 * A qwen3 call's head, "<function=NAME>", ends at raw's last byte: its
 * tool's parameters, from its schema's "properties", in tc->hold.qp; 0 when
 * the head is no call's or the tool or its properties are not known.
 */
static int
qwen3_params(struct toolcall *tc)
{
	const struct tooldef *def;
	json_t *props;
	const char *key;
	json_t *v;
	size_t name, namelen, n;

	if (!tcd_qwen3_head(tc->call.raw.data, tc->call.raw.len, &name,
	    &namelen) ||
	    (def = tooldefs_find(tc->opt.tools, tc->call.raw.data + name,
	    namelen)) == NULL ||
	    def->schema == NULL ||
	    !json_is_object(props = json_object_get(def->schema, "properties")))
		return 0;
	n = json_object_size(props);
	if (n > tc->hold.qcap) {
		tc->hold.qp.name = xreallocarray(tc->hold.qp.name, n,
		    sizeof(*tc->hold.qp.name));
		tc->hold.qp.len = xreallocarray(tc->hold.qp.len, n,
		    sizeof(*tc->hold.qp.len));
		tc->hold.qcap = n;
	}
	tc->hold.qp.n = tc->hold.qp.maxlen = 0;
	json_object_foreach(props, key, v) {
		tc->hold.qp.name[tc->hold.qp.n] = key;
		tc->hold.qp.len[tc->hold.qp.n] = strlen(key);
		if (tc->hold.qp.len[tc->hold.qp.n] > tc->hold.qp.maxlen)
			tc->hold.qp.maxlen = tc->hold.qp.len[tc->hold.qp.n];
		tc->hold.qp.n++;
	}
	return 1;
}

/*
 * P_QNAME, P_QVAL: a qwen3 call read with --tools, the bytes of s (take
 * of them, after old) put in raw. 1 when its end is at *end (then
 * tc->hold.phase is what reads on: P_CLOSE for its wrapper's end, or none),
 * 0 for more, -1 when the call is read by today's rule (phase and marks
 * set, scan where that reading begins).
 */
static int
qwen3_step(struct toolcall *tc, const char *s, size_t take, size_t old,
    size_t *end)
{
	const char *g;
	size_t from;
	int r;

	raw_upto(tc, s, old, old + take);
	if (tc->hold.phase == P_QNAME) {
		from = tc->hold.scan;
		g = from < tc->call.raw.len ? memchr(tc->call.raw.data + from,
		    '>', tc->call.raw.len - from) : NULL;
		tc->hold.scan = g != NULL ?
		    (size_t)(g - tc->call.raw.data) + 1 : tc->call.raw.len;
		tc->scanned += tc->hold.scan - from;
		if (g == NULL)
			return 0;
		tc->call.raw.len = tc->hold.scan;
		if (!qwen3_params(tc)) {
			tc->call.raw.len = old > tc->hold.scan ? old :
			    tc->hold.scan;
			goto other;
		}
		tc->call.raw.len = old + take;
		memset(&tc->hold.qs, 0, sizeof(tc->hold.qs));
		tc->hold.qs.pp = &tc->hold.qp;
		tc->hold.qs.p = tc->hold.scan;
		tc->hold.qknown = 1;
		tc->hold.phase = P_QVAL;
	}
	from = tc->hold.qs.p;
	while ((r = tcd_qscan(&tc->hold.qs, tc->call.raw.data, tc->call.raw.len,
		    0)) == TCDQ_ARG)
		;
	tc->scanned += tc->hold.qs.p - from;
	if (r == TCDQ_MORE)
		return 0;
	if (r == TCDQ_OTHER) {
		tc->hold.qknown = 0;
		goto other;
	}
	*end = tc->hold.qs.fend + 11;
	if (tc->hold.form->after != NULL) {
		tc->hold.phase = P_CLOSE;
		tc->hold.scan = *end;
		tc_marks_set(tc);
	}
	return 1;
other:
	tc->hold.phase = tc->hold.form->after != NULL ? P_AFTER : P_CLOSE;
	tc->hold.scan = tc->hold.qfrom;
	tc_marks_set(tc);
	return -1;
}

/*
 * What the opening begins, from the bytes after it, its white space
 * passed once (scan moves over it), however many reads bring it: PK_FORM
 * once known (tc->hold.form), PK_MORE while the bytes so far do not say,
 * PK_PROSE when they say that it opens nothing (a required peek that
 * does not follow, a "[" that opens no list of calls).
 */
static int
form_peek(struct toolcall *tc)
{
	const struct tcd_form *f = tc->hold.forms[0], *def = NULL;
	const char *d = tc->call.raw.data;
	size_t i = tc->hold.scan, n = tc->call.raw.len, k, m, len;
	int more = 0, yes;

	if ((f->flags & TCD_F_LIST) && (f->flags & TCD_F_START)) {
		if (pylit_calls_begin(tc->hold.py, d, n, &yes) == PYLIT_MORE) {
			tc->scanned += n - tc->hold.scan;
			tc->hold.scan = n;
			return PK_MORE;
		}
		if (!yes)
			return PK_PROSE;
		tc->hold.form = f;
		return PK_FORM;
	}
	while (i < n && is_ws((unsigned char)d[i]))
		i++;
	tc->scanned += i - tc->hold.scan;
	tc->hold.scan = i;
	if (i == n)
		return PK_MORE;
	for (k = 0; k < tc->hold.nforms; k++) {
		f = tc->hold.forms[k];
		if (f->peek == NULL) {
			if (def == NULL)
				def = f;
			continue;
		}
		len = strlen(f->peek);
		m = n - i < len ? n - i : len;
		if (memcmp(d + i, f->peek, m) != 0)
			continue;
		if (m < len) {
			more = 1;
			continue;
		}
		tc->hold.form = f;
		return PK_FORM;
	}
	if (more)
		return PK_MORE;
	if (def != NULL) {
		tc->hold.form = def;
		return PK_FORM;
	}
	if (tc->hold.forms[0]->flags & TCD_F_START)
		return PK_PROSE;
	/* (a peek is required only of an output's start) */
	tc->hold.form = tc->hold.forms[0];
	return PK_FORM;
}

/*
 * The bytes of s (n of them, following old) that peek needs, put in
 * raw: its answer, PK_MORE with all n in raw.
 */
static int
raw_peek(struct toolcall *tc, const char *s, size_t n, size_t old)
{
	size_t w;
	int r;

	for (;;) {
		w = tc->call.raw.len - old;
		/* white space, and then the bytes that peek looks at */
		if (tc->hold.scan == tc->call.raw.len)
			while (w < n && is_ws((unsigned char)s[w]))
				w++;
		w = n - w > PEEK_STEP ? w + PEEK_STEP : n;
		raw_upto(tc, s, old, old + w);
		if ((r = form_peek(tc)) != PK_MORE)
			return r;
		if (w == n)
			return PK_MORE;
	}
}

/*
 * What began the answer opens no call after all: the bytes held are
 * prose, read again (the answer having begun, as prose).
 */
static size_t
prose_again(struct toolcall *tc, size_t old)
{
	tc->mode = M_PROSE;
	tc->sect.form = NULL;
	tc->hold.form = NULL;
	tc->sect.tent = 0;
	tc->pos = tc->call.cpos;
	return tc_read_again(tc, 0, old);
}

/*
 * A harmony message's head has come: raw[0, end) ends with its
 * <|message|>. 1 to read on in M_RAW, the message being a call (or a
 * head refused, skipped to the message's end); 0 when its body is prose
 * or reasoning, which M_BODY reads from end on.
 */
static int
head_done(struct toolcall *tc, size_t end)
{
	struct tcd_head h;
	int reasoning;

	tc->hold.scan = end;
	if (tcd_harmony_head(tc->call.raw.data, end, &h) != 0) {
		tc_call_error(tc, tc_call_pos(tc, h.erroff), "dialect", "%s",
		    h.err);
		tc->hold.phase = P_CLOSE;
		tc_marks_set(tc);
		return 1;
	}
	if (h.call) {
		tc->hold.phase = P_CLOSE;
		tc->hold.jstr = tc->hold.jesc = 0;
		tc_marks_set(tc);
		return 1;
	}
	/* analysis, and a message to the model's own tools, are reasoning */
	reasoning = (h.channel == TCD_CH_ANALYSIS || h.tolen > 0) &&
	    tc->opt.reasoning != TOOLCALL_REASON_CALLS;
	tc->pos = tc_call_pos(tc, end);
	if (reasoning && tc->held.undecided)
		tc_held_release(tc);
	tc->mode = M_BODY;
	tc->think.rtext = reasoning;
	tc->think.tpos = tc->call.cpos;
	return 0;
}

/* Past --max-size: the call is refused, and skipped to its end. */
static void
raw_over(struct toolcall *tc)
{
	size_t m;

	tc_call_error(tc, tc->call.cpos, "max-size", "tool call larger than "
	    "--max-size (%zu bytes)", tc->opt.max_size);
	tc->mode = M_RSKIP;
	if (tc->hold.phase == P_PEEK) {
		tc->hold.form = tc->hold.forms[0];
		for (m = 0; m < tc->hold.nforms; m++)
			if (tc->hold.forms[m]->peek == NULL)
				tc->hold.form = tc->hold.forms[m];
		tc->hold.dial = tc->hold.form->dialect;
		tc->hold.phase = tc->hold.form->close[0] == NULL ?
		    P_VALUE : P_CLOSE;
	}
	/* skipped to the wrapper's end, or the message's */
	if (tc->hold.phase == P_AFTER || tc->hold.phase == P_HEAD ||
	    tc->hold.phase == P_QNAME || tc->hold.phase == P_QVAL)
		tc->hold.phase = P_CLOSE;
	if (tc->hold.phase == P_CLOSE) {
		m = tc->call.raw.len < HOLD_MAX + 2 ? tc->call.raw.len :
		    HOLD_MAX + 2;
		memcpy(tc->hold.carry, tc->call.raw.data + tc->call.raw.len - m,
		    m);
		tc->hold.ncarry = m;
	}
	tc_raw_drop(tc);
}

/*
 * The bytes of a dialect's call, held to --max-size, until it ends: only
 * those up to the markup that ends it or cuts it short are put in raw,
 * and those after are read anew.
 */
size_t
tc_raw_chunk(struct toolcall *tc, const char *s, size_t n)
{
	size_t old = tc->call.raw.len, room, take, e, end, k;
	const struct mark *mk;
	int r;

	room = tc->opt.max_size > old ? tc->opt.max_size - old : 0;
	take = n < room ? n : room;
	for (;;) {
		switch (tc->hold.phase) {
		case P_PEEK:
			r = raw_peek(tc, s, take, old);
			if (r == PK_MORE)
				goto more;
			if (r == PK_PROSE)
				return prose_again(tc, old);
			if ((e = form_begin(tc)) != NONE)
				return tc_read_again(tc, e, old);
			continue;
		case P_JSON:
			if ((e = json_next(tc, old, s, take)) == NONE) {
				raw_upto(tc, s, old, old + take);
				goto more;
			}
			raw_upto(tc, s, old, e);
			/* a JSON answer that began the output is prose */
			if (tc->sect.tent &&
			    tcd_is_answer(tc->hold.dial, tc->call.raw.data, e))
				return prose_again(tc, old);
			tc->sect.tent = 0;
			raw_done(tc, e, 0);
			return tc_raw_after(tc, e, old);
		case P_LIST:
			if ((e = list_next(tc, old, s, take)) == NONE) {
				raw_upto(tc, s, old, old + take);
				goto more;
			}
			raw_upto(tc, s, old, e);
			list_done(tc, e);
			return tc_raw_after(tc, e, old);
		case P_QNAME:
		case P_QVAL:
			if ((r = qwen3_step(tc, s, take, old, &e)) == 0)
				goto more;
			if (r < 0 || tc->hold.phase == P_CLOSE) {
				/* today's rule, or the wrapper's end */
				if (tc->call.raw.len > old)
					tc->call.raw.len = old;
				continue;
			}
			raw_upto(tc, s, old, e);
			raw_done(tc, e, 0);
			return tc_raw_after(tc, e, old);
		default:
			break;
		}
		if ((e = raw_next(tc, old, s, take, &k)) == NONE) {
			raw_upto(tc, s, old, old + take);
			goto more;
		}
		mk = &tc->hold.marks[k];
		end = e + mk->len;
		switch (mk->kind) {
		case MK_AFTER:
			/* qwen3's </function>; its wrapper's end comes next */
			raw_upto(tc, s, old, end);
			tc->hold.phase = P_CLOSE;
			tc->hold.scan = end;
			tc_marks_set(tc);
			continue;
		case MK_CHAN:
			/* the channel of a head that <|start|> opened */
			tc->hold.hchan = 1;
			tc->hold.scan = end;
			tc_marks_set(tc);
			continue;
		case MK_VALUE:
			tc->hold.phase = P_JSON;
			memset(&tc->hold.js, 0, sizeof(tc->hold.js));
			tc->hold.scan = e;
			continue;
		case MK_MESSAGE:
			raw_upto(tc, s, old, end);
			if (head_done(tc, end))
				continue;
			return tc_read_again(tc, end, old);
		case MK_CLOSE:
			raw_upto(tc, s, old, end);
			raw_done(tc, end, 0);
			return tc_raw_after(tc, end, old);
		default:
			/* MK_RESTART, MK_END: the call is cut short */
			raw_upto(tc, s, old, e);
			if (tc->hold.phase == P_HEAD)
				tc_call_error(tc, tc->call.cpos, "truncated",
				    "truncated harmony message: a new %s began "
				    "before %s",
				    mk->s, want_mark(tc));
			else if (mk->kind == MK_RESTART)
				tc_call_error(tc, tc->call.cpos, "truncated",
				    "truncated tool call: a new %.*s began "
				    "before %s",
				    (int)strcspn(mk->s, " "), mk->s,
				    want_mark(tc));
			else
				tc_call_error(tc, tc->call.cpos, "truncated",
				    "truncated tool call: %s came before %s",
				    mk->s, want_mark(tc));
			tc_bad_end(tc, e);
			return tc_raw_after(tc, e, old);
		}
	}
more:
	if (take < n) {
		/* an output's start held so long is prose */
		if (tc->hold.phase == P_PEEK &&
		    (tc->hold.forms[0]->flags & TCD_F_START))
			return prose_again(tc, old);
		raw_over(tc);
	}
	return take;
}

/* The first m bytes of t in the n at s, or NULL (memmem, which is GNU's). */
static const char *
find_bytes(const char *s, size_t n, const char *t, size_t m)
{
	const char *p, *e = s + n;

	while (m > 0 && (size_t)(e - s) >= m &&
	    (p = memchr(s, t[0], (size_t)(e - s) - m + 1)) != NULL) {
		if (memcmp(p, t, m) == 0)
			return p;
		s = p + 1;
	}
	return NULL;
}

/* A call skipped past --max-size has ended. */
static void
skip_done(struct toolcall *tc)
{
	tc_bad_end(tc, NONE);
	if (tc->sect.form != NULL)
		tc_sect_resume(tc);
}

/*
 * A call past --max-size, its bytes not kept: skipped to the markup that
 * ends it (found across reads through the last bytes carried), or to the
 * end of its JSON or its list.
 */
size_t
tc_raw_skip(struct toolcall *tc, const char *s, size_t n)
{
	const char *const *tags, *p;
	size_t m, k, i, j, best = NONE;
	char both[2 * (HOLD_MAX + 4)];

	switch (tc->hold.phase) {
	case P_VALUE:
		if ((p = memchr(s, '{', n)) == NULL) {
			advance(&tc->pos, s, n);
			return n;
		}
		k = (size_t)(p - s);
		advance(&tc->pos, s, k);
		tc->hold.phase = P_JSON;
		memset(&tc->hold.js, 0, sizeof(tc->hold.js));
		return k;
	case P_JSON:
	case P_LIST:
		k = tc->hold.phase == P_JSON ? tcd_jscan(&tc->hold.js, s, n) :
		    list_scan(tc, s, n);
		if (k == NONE) {
			advance(&tc->pos, s, n);
			return n;
		}
		advance(&tc->pos, s, k);
		skip_done(tc);
		return k;
	default:
		break;
	}
	tags = tc->hold.form->close;
	for (j = 0; tags[j] != NULL; j++) {
		/*
		 * a marker split between the carried bytes and these (one
		 * wholly in the carried bytes was seen, and did not end the
		 * call: in a hermes string, or before a qwen3 call's
		 * </function>)
		 */
		m = strlen(tags[j]);
		k = n < m - 1 ? n : m - 1;
		memcpy(both, tc->hold.carry, tc->hold.ncarry);
		memcpy(both + tc->hold.ncarry, s, k);
		i = tc->hold.ncarry >= m - 1 ? tc->hold.ncarry - (m - 1) : 0;
		p = find_bytes(both + i, tc->hold.ncarry + k - i, tags[j], m);
		if (p != NULL)
			i = (size_t)(p - both) + m - tc->hold.ncarry;
		else if ((p = find_bytes(s, n, tags[j], m)) != NULL)
			i = (size_t)(p - s) + m;
		else
			continue;
		if (best == NONE || i < best)
			best = i;
	}
	if (best == NONE) {
		advance(&tc->pos, s, n);
		k = n < HOLD_MAX + 2 ? n : HOLD_MAX + 2;
		if (tc->hold.ncarry + k > HOLD_MAX + 2) {
			i = tc->hold.ncarry + k - (HOLD_MAX + 2);
			memmove(tc->hold.carry, tc->hold.carry + i,
			    tc->hold.ncarry - i);
			tc->hold.ncarry -= i;
		}
		memcpy(tc->hold.carry + tc->hold.ncarry, s + n - k, k);
		tc->hold.ncarry += k;
		return n;
	}
	advance(&tc->pos, s, best);
	skip_done(tc);
	return best;
}

/* The input ended in a dialect's call. */
void
tc_raw_eof(struct toolcall *tc)
{
	const struct tcd_form *f = tc->hold.form;
	char *again;
	size_t n;

	if (tc->hold.phase == P_PEEK &&
	    (tc->hold.forms[0]->flags & TCD_F_START)) {
		/* the answer's first byte opened no call after all */
		tc->mode = M_PROSE;
		tc->pos = tc->call.cpos;
		n = tc->call.raw.len;
		again = xmemdup(tc->call.raw.data, n);
		tc_process(tc, again, n);
		free(again);
		return;
	}
	if (tc->hold.phase == P_CLOSE && tc->sect.form == NULL &&
	    f->cut != NULL && !tc->call.bad) {
		raw_done(tc, tc->call.raw.len, 1);
		return;
	}
	if (tc->hold.phase == P_HEAD)
		tc_call_error(tc, tc->call.cpos, "truncated",
		    "truncated harmony message: input ended before " HMESSAGE);
	else
		tc_call_error(tc, tc->call.cpos, "truncated",
		    "truncated tool call: input ended before %s",
		    want_mark(tc));
	tc_bad_end(tc, tc->call.raw.len);
	tc->sect.form = NULL;
}
