/*
 * toolcall_out: what the reader writes, and where. Records and events go
 * to the FILE, or to the caller's buffer; problems are said at once, or
 * kept in the caller's list; a write that fails is remembered. While the
 * output's start may still be reasoning (--begins-in-reasoning auto),
 * the records and problems are held instead, in order, and then written
 * (tc_held_release) or dropped with the reasoning they came from.
 */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/jsonw.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "toolcall/toolcall_int.h"

/* A problem said at once, or kept in the caller's list. */
static void
diag_say(struct toolcall *tc, enum diag_severity sev, unsigned long line,
    unsigned long col, const char *rule, const char *msg)
{
	struct diag_loc loc = { tc->file, line, col, NULL };

	if (tc->opt.diags != NULL)
		diag_list_add(tc->opt.diags, sev, line, col, rule, NULL, "%s",
		    msg);
	else
		diag_at(sev, &loc, rule, "%s", msg);
}

/* The bytes that the output held while undecided takes. */
size_t
tc_held_size(const struct toolcall *tc)
{
	return tc->held.hseglen + tc->held.recs.len + tc->held.hdbytes;
}

/* A problem, held with the output while it may be reasoning's. */
void
tc_diag_pos(struct toolcall *tc, enum diag_severity sev, const struct pos *p,
    const char *rule, const char *msg)
{
	if (!tc->held.undecided) {
		diag_say(tc, sev, p->line, p->col, rule, msg);
		return;
	}
	diag_list_add(&tc->held.hdiags, sev, p->line, p->col, rule, NULL, "%s",
	    msg);
	/* only as the list grows: a realloc may copy, whatever the size */
	if (tc->held.hdatcap < tc->held.hdiags.cap) {
		tc->held.hdatcap = tc->held.hdiags.cap;
		tc->held.hdat = xreallocarray(tc->held.hdat, tc->held.hdatcap,
		    sizeof(size_t));
	}
	tc->held.hdat[tc->held.hdiags.n - 1] = tc->held.hseglen +
	    tc->held.recs.len;
	tc->held.hdbytes += sizeof(struct diag_item) + strlen(msg) +
	    strlen(rule) + 2;
	if (tc_held_size(tc) > tc->held.holdcap)
		tc_held_overflow(tc);
}

/*
 * Output. A failed write is remembered and reported by the caller. While
 * the stream is undecided, the sink is the held records.
 */

void
tc_put(struct toolcall *tc, const char *s, size_t n)
{
	if (tc->sink != NULL) {
		buf_add(tc->sink, s, n);
		if (tc->sink == &tc->held.recs &&
		    tc_held_size(tc) > tc->held.holdcap)
			tc_held_overflow(tc);
	} else if (n > 0 && fwrite(s, 1, n, tc->out) != n)
		tc->trouble = 1;
}

void
tc_puts(struct toolcall *tc, const char *s)
{
	tc_put(tc, s, strlen(s));
}

/* s as a JSON string; invalid UTF-8 is written as U+FFFD. */
void
tc_put_string(struct toolcall *tc, const char *s, size_t n)
{
	size_t i = 0, ok;

	buf_reset(&tc->tmp);
	buf_addc(&tc->tmp, '"');
	while (i < n) {
		ok = utf8_valid(s + i, n - i);
		jsonw_escape(&tc->tmp, s + i, ok);
		i += ok;
		if (i < n) {
			buf_add(&tc->tmp, "\xEF\xBF\xBD", 3);
			i++;
			while (i < n && ((unsigned char)s[i] & 0xC0) == 0x80)
				i++;
		}
	}
	buf_addc(&tc->tmp, '"');
	tc_put(tc, tc->tmp.data, tc->tmp.len);
}

static void
put_ulong(struct toolcall *tc, unsigned long v)
{
	buf_reset(&tc->tmp);
	buf_addu(&tc->tmp, v);
	tc_put(tc, tc->tmp.data, tc->tmp.len);
}

void
tc_flush(struct toolcall *tc)
{
	if (tc->out == NULL)
		return;
	if (fflush(tc->out) == EOF || ferror(tc->out))
		tc->trouble = 1;
}

/*
 * The error event of a bad call, its message in tc->call.msg at tc->call.epos,
 * the text it was read from raw (n bytes; NULL: not kept).
 */
void
tc_error_event(struct toolcall *tc, const char *raw, size_t n)
{
	if (tc->opt.thread) {
		/* as mcp-run writes a failed call's: its id and tool first */
		tc_puts(tc, "{\"type\":\"error\",");
		if (tc->call.cid.len > 0) {
			tc_puts(tc, "\"toolCallId\":\"");
			tc_put(tc, tc->call.cid.data, tc->call.cid.len);
			tc_puts(tc, "\",");
		}
		if (tc->call.named) {
			tc_puts(tc, "\"toolName\":\"");
			tc_put(tc, tc->call.ename.data, tc->call.ename.len);
			tc_puts(tc, "\",");
		}
		tc_puts(tc, "\"error\":");
		tc_put_string(tc, tc->call.msg.data, tc->call.msg.len);
		buf_reset(&tc->tmp);
		buf_printf(&tc->tmp, ",\"recoverable\":%s,\"iteration\":%ld}\n",
		    tc->call.unchecked ? "false" : "true", tc->opt.iteration);
		tc_put(tc, tc->tmp.data, tc->tmp.len);
	} else if (tc->opt.events) {
		tc_puts(tc, "{\"type\":\"error\",\"message\":");
		tc_put_string(tc, tc->call.msg.data, tc->call.msg.len);
		tc_puts(tc, ",\"line\":");
		put_ulong(tc, tc->call.epos.line);
		tc_puts(tc, ",\"column\":");
		put_ulong(tc, tc->call.epos.col);
		tc_puts(tc, ",\"raw\":");
		if (raw == NULL)
			tc_puts(tc, "null");
		else
			tc_put_string(tc, raw, n);
		tc_puts(tc, "}\n");
	}
	tc->call.named = tc->call.unchecked = 0;
	buf_reset(&tc->call.cid);
	if (tc->opt.unbuffered)
		tc_flush(tc);
}

/* What was held, gone. */
void
tc_held_free(struct toolcall *tc)
{
	size_t i;

	for (i = 0; i < tc->held.nhsegs; i++) {
		if (!tc->held.hsegs[i].own)
			continue;
		/* the call being written still reads its arena */
		if (tc->held.arenagone &&
		    tc->held.hsegs[i].data == tc->tree.arena.data)
			tc->held.arenagone = 0;
		else
			free(tc->held.hsegs[i].data);
	}
	free(tc->held.hsegs);
	tc->held.hsegs = NULL;
	tc->held.nhsegs = tc->held.hsegcap = 0;
	tc->held.hseglen = 0;
	buf_free(&tc->held.recs);
	diag_list_free(&tc->held.hdiags);
	free(tc->held.hdat);
	tc->held.hdat = NULL;
	tc->held.hdatcap = 0;
	tc->held.hdbytes = 0;
	buf_free(&tc->held.hraw);
	buf_free(&tc->held.hprose);
}

/*
 * Undecided: the output from the start on is held, its records, its
 * problems and its status, since a closing marker with no opening may
 * still come and make it reasoning. The stream decides at the first
 * marker (or the end): tc_held_release writes what was held, as it would
 * have been; tc_held_free forgets it.
 */
/*
 * Writes the held records from byte *done of them up to byte upto, *seg
 * and *in saying where *done is: in which segment and how far into it
 * (past the segments, in the records held after them).
 */
static void
held_put(struct toolcall *tc, size_t *done, size_t *seg, size_t *in,
    size_t upto)
{
	const struct hseg *h;
	size_t k;

	while (*done < upto && *seg < tc->held.nhsegs) {
		h = &tc->held.hsegs[*seg];
		k = h->len - *in < upto - *done ? h->len - *in : upto - *done;
		tc_put(tc, h->data + h->off + *in, k);
		*done += k;
		if ((*in += k) == h->len) {
			(*seg)++;
			*in = 0;
		}
	}
	if (*done < upto) {
		tc_put(tc, tc->held.recs.data + (*done - tc->held.hseglen),
		    upto - *done);
		*done = upto;
	}
}

void
tc_held_release(struct toolcall *tc)
{
	struct diag_item *it;
	size_t i, done = 0, seg = 0, in = 0;

	tc->held.undecided = 0;
	tc->think.nccarry = 0;
	tc->sink = tc->opt.sink;
	/* each problem after the records written before it, as it came */
	for (i = 0; i < tc->held.hdiags.n; i++) {
		it = &tc->held.hdiags.v[i];
		if (tc->held.hdat[i] > done) {
			held_put(tc, &done, &seg, &in, tc->held.hdat[i]);
			tc_flush(tc);
		}
		diag_say(tc, it->severity, it->line, it->col, it->rule,
		    it->message);
	}
	held_put(tc, &done, &seg, &in, tc->held.hseglen + tc->held.recs.len);
	tc_flush(tc);
	if (tc->held.hprose.len > 0)
		tc->opt.prose(tc->opt.prose_arg, tc->held.hprose.data,
		    tc->held.hprose.len);
	tc_held_free(tc);
}

/*
 * Held output and problems past their bound (the larger of --max-size
 * and 64 MiB, more than any model writes in one answer): written, as if
 * no marker could come, so that memory stays bounded.
 */
void
tc_held_overflow(struct toolcall *tc)
{
	struct pos start = { 0, 1, 1, 0 };
	char msg[160];

	tc_held_release(tc);
	snprintf(msg, sizeof(msg), "no reasoning marker before %zu bytes of "
	    "output and its problems were held: the output is read as "
	    "outside reasoning",
	    tc->held.holdcap);
	tc_diag_pos(tc, DIAG_WARNING, &start, "reasoning", msg);
}
