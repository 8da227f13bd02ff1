/*
 * toolcall: seed 003's pure-XML tool calls, read out of a model's output
 * as it streams. Prose is scanned for "<tool>"; from there a small lexer
 * follows the call's tags, CDATA sections and comments, so that a bare "&"
 * can be passed to expat as "&amp;", and expat parses the call itself,
 * whose handlers escape values straight into one JSON buffer. The call is
 * written when expat closes its </tool>: the lexer gives expat each end tag
 * that begins "</tool" at once, and lexes nothing after the one that ends
 * the call, whose next bytes go back to the prose scanner. A bad call is
 * reported and skipped to its </tool> (or the next <tool>), and the stream
 * goes on. A model's reasoning is never read for calls: a block opens in
 * prose and its text is only searched for the marker that closes it; what
 * comes before the first marker may be reasoning too, if the chat template
 * opened it, and is then held until the stream tells.
 *
 * This file holds the reader's life (toolcall_new, _feed, _end, _free),
 * the stream's bytes handed to the reader of the mode it is in, and
 * --format openai, whose calls lib/tcopenai reads; toolcall_int.h says
 * which file holds the rest.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/jsonw.h"
#include "base/xalloc.h"
#include "toolcall/pylit.h"
#include "toolcall/tcopenai.h"
#include "toolcall/toolcall.h"
#include "toolcall/toolcall_int.h"

/*
 * The stream's bytes, to the reader. While undecided, each is looked at
 * once more, for a closing marker: anywhere, in prose or in a call's
 * markup, it makes all before it reasoning. With reasoning events the
 * undecided bytes are kept, to be written as reasoning then, up to the
 * bound of what is held.
 */
static void
feed_stream(struct toolcall *tc, const char *s, size_t n)
{
	size_t e, k, clen = 0, room;

	while (n > 0 && tc->held.undecided) {
		e = tc_closer_scan(tc, s, n, &clen);
		k = e == NONE ? n : e > clen ? e - clen : 0;
		if (tc->opt.events &&
		    tc->opt.reasoning == TOOLCALL_REASON_EVENTS) {
			room = tc->held.holdcap - tc->held.hraw.len;
			if (k > room) {
				buf_add(&tc->held.hraw, s, room);
				tc_process(tc, s, room);
				if (tc->held.undecided)
					tc_held_overflow(tc);
				s += room;
				n -= room;
				break;
			}
			buf_add(&tc->held.hraw, s, k);
		}
		tc_process(tc, s, k);
		s += k;
		n -= k;
		/* decided in between, the marker is read as such */
		if (e == NONE || !tc->held.undecided)
			continue;
		tc_lone_closer(tc, s, e - k, clen);
		s += e - k;
		n -= e - k;
	}
	if (n > 0)
		tc_process(tc, s, n);
}

/*
 * n bytes of the stream, each part read by the reader of the mode the
 * reader is in when it comes: each reader says how much it took.
 */
void
tc_process(struct toolcall *tc, const char *s, size_t n)
{
	size_t k;

	while (n > 0) {
		switch (tc->mode) {
		case M_PROSE:
			k = tc_prose_chunk(tc, s, n);
			break;
		case M_CALL:
			k = tc_call_chunk(tc, s, n);
			break;
		case M_RAW:
			k = tc_raw_chunk(tc, s, n);
			break;
		case M_RSKIP:
			k = tc_raw_skip(tc, s, n);
			break;
		case M_THINK:
			k = tc_think_chunk(tc, s, n);
			break;
		case M_GAP:
			k = tc_gap_chunk(tc, s, n);
			break;
		case M_BODY:
			k = tc_body_chunk(tc, s, n);
			break;
		default:
			k = tc_skip_chunk(tc, s, n);
			break;
		}
		s += k;
		n -= k;
	}
}

/*
 * --format openai: a server's response or stream, read by lib/tcopenai,
 * whose calls come parsed, each with its id. The message's text is the
 * prose (never read for calls: the server has taken them out), its
 * reasoning is reasoning, and each call goes to the writers of the
 * others, as a hermes call does: typed by its schema, validated, written
 * as a record or an event. Its problems come at their line and column
 * in the input, each with its JSON Pointer.
 */

/* A problem said with the JSON Pointer of its place, or kept. */
static void
diag_path(struct toolcall *tc, const struct tcopenai_diag *d)
{
	struct diag_item it, *kept;

	if (tc->opt.diags != NULL) {
		kept = diag_list_add(tc->opt.diags, d->severity, d->line,
		    d->col, d->rule, d->path, "%s", d->message);
		kept->prefix = d->path != NULL;
		return;
	}
	memset(&it, 0, sizeof(it));
	it.severity = d->severity;
	it.line = d->line;
	it.col = d->col;
	it.rule = d->rule;
	it.path = d->path;
	it.message = d->message;
	it.prefix = d->path != NULL;
	diag_item(tc->file, &it);
}

/* The answer's text, or its reasoning (r), which ends the other's run. */
static int
oa_words(struct toolcall *tc, int r, const char *s, size_t n)
{
	if (tc->think.rtext != r) {
		tc_prose_break(tc);
		tc->think.rtext = r;
	}
	if (!r ? tc_keeps_text(tc) : tc->opt.events && !tc->opt.thread &&
	    tc->opt.reasoning == TOOLCALL_REASON_EVENTS)
		tc_text_keep(tc, s, n);
	return tc->trouble ? -1 : 0;
}

static int
oa_text(void *arg, const char *s, size_t n)
{
	return oa_words(arg, 0, s, n);
}

static int
oa_reasoning(void *arg, const char *s, size_t n)
{
	return oa_words(arg, 1, s, n);
}

/* The call's id, JSON-escaped, as the thread's toolCallId. */
static void
oa_id(struct toolcall *tc, const struct tcopenai_call *c)
{
	buf_reset(&tc->call.cid);
	if (c->id != NULL)
		jsonw_escape(&tc->call.cid, c->id, c->idlen);
}

/* A call, whole: written as the others are, or refused. */
static int
oa_call(void *arg, const struct tcopenai_call *c)
{
	struct toolcall *tc = arg;
	struct pos at = { 0, c->line, c->col, 0 };

	tc_prose_break(tc);
	tc->think.rtext = 0;
	tc->call.cpos = at;
	tc->call.bad = 0;
	oa_id(tc, c);
	if (c->textlen > tc->opt.max_size)
		tc_call_error(tc, at, "max-size", "tool call larger than "
		    "--max-size (%zu bytes)", tc->opt.max_size);
	else {
		tc->tree.nnodes = 0;
		buf_reset(&tc->tree.names);
		buf_reset(&tc->tree.arena);
		tc->tree.sname = tc->tree.args = NONE;
		tc->tree.tname = tc_node_new(tc, "tool_name", NONE, R_META);
		tc_raw_value(tc, tc->tree.tname, c->name, c->namelen);
		tc->hold.hargs = json_incref(c->args);
		tc_emit_call(tc);
		json_decref(tc->hold.hargs);
		tc->hold.hargs = NULL;
	}
	if (tc->call.bad)
		tc_error_event(tc, c->text, c->textlen);
	buf_reset(&tc->call.cid);
	return tc->trouble ? -1 : 0;
}

/* A problem of the input, or of one call: then its error event too. */
static int
oa_diag(void *arg, const struct tcopenai_diag *d)
{
	struct toolcall *tc = arg;
	const struct tcopenai_call *c = d->call;

	if (d->severity == DIAG_ERROR)
		tc->status = diag_max(tc->status, DIAG_INVALID);
	if (c != NULL && d->severity == DIAG_ERROR)
		tc_prose_break(tc);
	diag_path(tc, d);
	if (c == NULL || d->severity != DIAG_ERROR)
		return tc->trouble ? -1 : 0;
	tc->call.epos.line = d->line;
	tc->call.epos.col = d->col;
	buf_reset(&tc->call.msg);
	buf_adds(&tc->call.msg, d->message);
	oa_id(tc, c);
	buf_reset(&tc->call.ename);
	jsonw_escape(&tc->call.ename, c->name, c->namelen);
	tc->call.named = c->namelen > 0;
	tc_error_event(tc, c->text, c->textlen);
	return tc->trouble ? -1 : 0;
}

static void
oa_new(struct toolcall *tc)
{
	struct tcopenai_cb cb;

	memset(&cb, 0, sizeof(cb));
	cb.text = oa_text;
	cb.reasoning = oa_reasoning;
	cb.call = oa_call;
	cb.diag = oa_diag;
	cb.arg = tc;
	tc->oa = tcopenai_new(&cb);
}

/* The public face. */

static const char bom[] = "\xEF\xBB\xBF";

struct toolcall *
toolcall_new(const struct toolcall_opts *opt, FILE *out, const char *file)
{
	struct toolcall *tc = xcalloc(1, sizeof(*tc));

	tc->opt = *opt;
	if (tc->opt.max_size == 0)
		tc->opt.max_size = TOOLCALL_MAX_SIZE;
	/* what a call may hold, so that its memory follows --max-size */
	tc->lexer.maxitems = tc->opt.max_size / ITEM_BYTES;
	if (tc->lexer.maxitems < ITEMS_MIN)
		tc->lexer.maxitems = ITEMS_MIN;
	tc->out = out;
	tc->sink = tc->opt.sink;
	tc->file = file;
	tc->status = DIAG_OK;
	tc->pos.line = tc->pos.col = 1;
	tc->mode = M_PROSE;
	tc->held.holdcap = tc->opt.max_size > TOOLCALL_MAX_SIZE ?
	    tc->opt.max_size : TOOLCALL_MAX_SIZE;
	tc->held.share = tc->opt.max_size / 2 < HOLD_SHARE ?
	    tc->opt.max_size / 2 + 1 : HOLD_SHARE;
	tc_openers_make(tc);
	tc->hold.py = xmalloc(sizeof(*tc->hold.py));
	pylit_scan_init(tc->hold.py, 0);
	if (tc->opt.format == TOOLCALL_FMT_OPENAI)
		oa_new(tc);	/* reasoning comes apart: nothing is held */
	else if (tc->opt.reasoning != TOOLCALL_REASON_CALLS &&
	    tc->opt.begins == TOOLCALL_BEGINS_YES) {
		/* the template opened reasoning: it ends at either closer */
		tc->mode = M_THINK;
		tc->think.tpos = tc->pos;
		tc->think.rtext = 1;
	} else if (tc->opt.reasoning != TOOLCALL_REASON_CALLS &&
	    tc->opt.begins == TOOLCALL_BEGINS_AUTO) {
		tc->held.undecided = 1;
		tc->sink = &tc->held.recs;
	}
	if ((tc->feed.xp = XML_ParserCreate("UTF-8")) == NULL)
		xalloc_die();
	if (getentropy(&tc->salt, sizeof(tc->salt)) != 0)
		tc->salt = (unsigned long)(uintptr_t)tc ^ (unsigned long)time(NULL);
	/* never NULL, so that offsets into them are always defined */
	buf_reserve(&tc->call.raw, 64);
	buf_reserve(&tc->tree.arena, 64);
	buf_reserve(&tc->tree.names, 64);
	buf_reserve(&tc->prose.text, 64);
	buf_reserve(&tc->call.msg, 64);
	return tc;
}

/* Reads n more bytes of the stream. Returns -1 after a failed write. */
int
toolcall_feed(struct toolcall *tc, const char *s, size_t n)
{
	if (tc->oa != NULL)
		return tcopenai_feed(tc->oa, s, n) != 0 || tc->trouble ? -1 : 0;
	while (!tc->started && n > 0) {
		if (*s == bom[tc->nbom]) {
			s++;
			n--;
			if (++tc->nbom == 3) {
				tc->started = 1;
				tc->pos.off = 3;
			}
			continue;
		}
		tc->started = 1;
		feed_stream(tc, bom, tc->nbom);
	}
	feed_stream(tc, s, n);
	return tc->trouble ? -1 : 0;
}

/* The stream has ended: an open call is truncated. */
int
toolcall_end(struct toolcall *tc)
{
	size_t k;

	if (tc->oa != NULL) {
		tcopenai_end(tc->oa);
		tc_prose_break(tc);
		tc_flush(tc);
		return tc->trouble ? -1 : 0;
	}
	if (!tc->started) {
		tc->started = 1;
		feed_stream(tc, bom, tc->nbom);
	}
	/* no marker came: what was held is the answer's */
	if (tc->held.undecided)
		tc_held_release(tc);
	/*
	 * held bytes first: an error in them comes before the end; a
	 * dialect's call or a section may give back prose
	 */
	for (;;) {
		if (tc->mode == M_CALL && !tc_expat_give_all(tc))
			tc_call_stopped(tc, tc->call.raw.len, 0);
		else if (tc->mode == M_RAW)
			tc_raw_eof(tc);
		else if (tc->mode == M_GAP)
			tc_gap_eof(tc);
		else
			break;
	}
	switch (tc->mode) {
	case M_PROSE:
		if ((k = tc->prose.nhold) > 0) {
			tc->prose.nhold = 0;
			tc_prose_text(tc, tc->prose.hold, k);
		}
		break;
	case M_RSKIP:
		tc_bad_end(tc, NONE);
		tc->sect.form = NULL;
		break;
	case M_CALL:
		tc_call_error(tc, tc->call.cpos, "truncated",
		    "truncated tool call: input ended before </tool>");
		tc_bad_end(tc, tc->call.raw.len);
		break;
	case M_SKIP:
		tc_bad_end(tc, tc->call.rawgone ? NONE : tc->call.raw.len);
		break;
	case M_THINK:
		tc_think_end(tc);
		break;
	case M_BODY:
		tc_body_eof(tc);
		break;
	default:
		break;
	}
	tc_prose_break(tc);
	tc_flush(tc);
	return tc->trouble ? -1 : 0;
}

int
toolcall_status(const struct toolcall *tc)
{
	return tc->unchecked ? DIAG_TROUBLE : tc->status;
}

/*
 * The bytes expat has scanned, a token it could not finish counted again
 * each time it is given more: a few times the input at most, so that
 * tests can see the feeding stay linear.
 */
unsigned long long
toolcall_work(const struct toolcall *tc)
{
	return tc->feed.work;
}

/*
 * The bytes the reader's own scanners have passed: lexed, searched for
 * a dialect's markup, kept and read again. A few times the input at
 * most, however its calls repeat or are cut short.
 */
unsigned long long
toolcall_scanned(const struct toolcall *tc)
{
	return tc->scanned;
}

void
toolcall_free(struct toolcall *tc)
{
	if (tc == NULL)
		return;
	XML_ParserFree(tc->feed.xp);
	tcopenai_free(tc->oa);
	free(tc->hold.qp.name);
	free(tc->hold.qp.len);
	buf_free(&tc->prose.text);
	buf_free(&tc->tmp);
	buf_free(&tc->emit.rec);
	buf_free(&tc->emit.val);
	buf_free(&tc->call.raw);
	buf_free(&tc->feed.pend);
	buf_free(&tc->call.msg);
	buf_free(&tc->call.cid);
	buf_free(&tc->call.ename);
	buf_free(&tc->tree.names);
	buf_free(&tc->tree.arena);
	free(tc->feed.ins);
	free(tc->tree.nodes);
	free(tc->tree.segs);
	free(tc->tree.hash);
	buf_free(&tc->sect.gap);
	free(tc->hold.py);
	tc_held_free(tc);
	free(tc);
}
