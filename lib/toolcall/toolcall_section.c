/*
 * toolcall_section: the sections of calls, the markup in which the
 * dialects that wrap their calls (deepseek, mistral, llama3, kimi,
 * pythonic) put one or several: where a section opens, the bytes between
 * its calls (white space, a separator), where the next call opens, and
 * where the section ends and prose goes on.
 */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/xalloc.h"
#include "toolcall/pylit.h"
#include "toolcall/tcdialect.h"
#include "toolcall/toolcall_int.h"

/*
 * Sections of calls. The gap holds the section's bytes since its last
 * call ended (since its opening, before its first), and gscan is where
 * the look at them goes on; gpos is where the gap begins in the stream.
 */
void
tc_sect_open(struct toolcall *tc, const struct tcd_form *f, size_t mend)
{
	tc->sect.form = f;
	buf_reset(&tc->sect.gap);
	buf_add(&tc->sect.gap, tc->call.raw.data, mend);
	tc->sect.gfrom = tc->sect.gscan = mend;
	tc->sect.gpos = tc->sect.spos = tc->call.cpos;
	tc->sect.scalls = 0;
	tc->sect.sawsep = 0;
	if (!(f->flags & TCD_F_FIRST))
		tc->mode = M_GAP;
}

/* A call of the section opens at raw's first byte: what reads it. */
void
tc_call_phase(struct toolcall *tc)
{
	const struct tcd_form *f = tc->sect.form;

	tc->hold.form = f;
	tc->hold.dial = f->dialect;
	tc->hold.jstr = tc->hold.jesc = 0;
	if (f->flags & TCD_F_LIST) {
		tc->hold.phase = P_LIST;
		pylit_scan_init(tc->hold.py, 0);
		tc->hold.ncarry = 0;
		tc->hold.scan = 0;
	} else if (f->call_open == NULL) {
		tc->hold.phase = P_JSON;
		memset(&tc->hold.js, 0, sizeof(tc->hold.js));
		tc->hold.scan = 0;
	} else {
		tc->hold.phase = P_CLOSE;
		tc->hold.scan = strlen(f->call_open);
		tc_marks_set(tc);
	}
}

/*
 * The call of a section is over (tc->pos just after it): back between
 * its calls. A list that opened the output is a section of one call.
 */
void
tc_sect_resume(struct toolcall *tc)
{
	tc->sect.scalls++;
	tc->sect.tent = 0;
	if ((tc->sect.form->flags & TCD_F_LIST) &&
	    (tc->sect.form->flags & TCD_F_FIRST)) {
		tc->sect.form = NULL;
		return;
	}
	tc->mode = M_GAP;
	buf_reset(&tc->sect.gap);
	tc->sect.gfrom = tc->sect.gscan = 0;
	tc->sect.gpos = tc->pos;
	tc->sect.sawsep = 0;
}

/* The call ended at raw offset end; its section goes on. */
size_t
tc_raw_after(struct toolcall *tc, size_t end, size_t old)
{
	if (tc->sect.form != NULL && tc->mode == M_PROSE)
		tc_sect_resume(tc);
	return tc_read_again(tc, end, old);
}

/* The section ends at gap offset c: prose from there. */
static void
gap_close(struct toolcall *tc, size_t c)
{
	tc->pos = tc->sect.gpos;
	advance(&tc->pos, tc->sect.gap.data, c);
	tc->mode = M_PROSE;
	tc->sect.form = NULL;
}

/*
 * The gap's bytes from offset from on are read again: those of earlier
 * reads now, those of s (from base on) by the caller. How many of s are
 * used.
 */
static size_t
gap_read_again(struct toolcall *tc, size_t from, size_t base)
{
	char *again;
	size_t n;

	if (from >= base) {
		buf_reset(&tc->sect.gap);
		return from - base;
	}
	n = base - from;
	again = xmemdup(tc->sect.gap.data + from, n);
	buf_reset(&tc->sect.gap);
	tc->scanned += n;
	tc_process(tc, again, n);
	free(again);
	return 0;
}

/*
 * The section goes wrong at gap offset q: an error, whose raw is the
 * section's text up to q, and prose from q on.
 */
static void
sect_fail(struct toolcall *tc, size_t q, const char *what)
{
	buf_reset(&tc->call.raw);
	buf_add(&tc->call.raw, tc->sect.gap.data, q);
	tc->call.cpos = tc->sect.gpos;
	tc->call.rawgone = 0;
	tc->call.bad = 0;
	tc_call_error(tc, tc_call_pos(tc, q), "dialect",
	    "malformed %s call: %s", tcd_dialect_name(tc->sect.form->dialect),
	    what);
	tc_bad_end(tc, q);
	tc->sect.form = NULL;
}

/*
 * What the gap's bytes say from gscan on: the section's end (G_END), a
 * call's opening (G_CALL) or another byte (G_OTHER) at *qp, *lenp bytes
 * long; G_MORE while they do not tell yet. White space, and one
 * separator between two calls, are passed.
 */
static int
gap_look(struct toolcall *tc, size_t *qp, size_t *lenp)
{
	const struct tcd_form *f = tc->sect.form;
	const char *d = tc->sect.gap.data;
	size_t n = tc->sect.gap.len, q = tc->sect.gscan, i, len;
	int part, r;

	for (;;) {
		while (q < n && is_ws((unsigned char)d[q]))
			q++;
		tc->sect.gscan = q;
		if (q == n)
			return G_MORE;
		*qp = q;
		part = 0;
		for (i = 0; f->end[i] != NULL; i++) {
			len = strlen(f->end[i]);
			if ((r = mark_at(d + q, n - q, f->end[i], len)) == 2) {
				*lenp = len;
				return G_END;
			}
			part |= r;
		}
		if (f->call_open != NULL) {
			len = strlen(f->call_open);
			r = mark_at(d + q, n - q, f->call_open, len);
			if (r == 2) {
				*lenp = len;
				return G_CALL;
			}
			part |= r;
		} else if (d[q] == (f->flags & TCD_F_LIST ? '[' : '{')) {
			*lenp = 1;
			return G_CALL;
		}
		if (part)
			return G_MORE;
		if (f->sep != 0 && d[q] == f->sep && tc->sect.scalls > 0 &&
		    !tc->sect.sawsep) {
			tc->sect.sawsep = 1;
			q++;
			continue;
		}
		*lenp = 0;
		return G_OTHER;
	}
}

/* A call of the section opens at gap offset q, len bytes of markup. */
static void
gap_call(struct toolcall *tc, size_t q, size_t len)
{
	tc->call.cpos = tc->sect.gpos;
	advance(&tc->call.cpos, tc->sect.gap.data, q);
	tc->pos = tc->call.cpos;
	buf_reset(&tc->call.raw);
	buf_add(&tc->call.raw, tc->sect.gap.data + q, len);
	buf_reset(&tc->sect.gap);
	tc->mode = M_RAW;
	tc->call.rawgone = 0;
	tc->call.bad = 0;
	tc_call_phase(tc);
}

/*
 * Between the calls of a section: white space and separators pass, the
 * section's end ends it, a call's opening opens the call; any other
 * byte ends an open-ended section (prose goes on from the end of its
 * last call) and is the error of any other.
 */
size_t
tc_gap_chunk(struct toolcall *tc, const char *s, size_t n)
{
	const struct tcd_form *f = tc->sect.form;
	size_t i = 0, k, q = 0, len = 0, base;
	char what[96];
	int r;

	while ((r = gap_look(tc, &q, &len)) == G_MORE) {
		if (i == n)
			return n;
		/* white space at once, any other byte alone: a look each */
		for (k = i; k < n && is_ws((unsigned char)s[k]); k++)
			;
		if (k == i)
			k++;
		if (tc->sect.gap.len + (k - i) > GAP_MAX) {
			if (f->flags & TCD_F_OPENEND) {
				/* so much white space: the section has ended */
				base = tc->sect.gap.len - i;
				gap_close(tc, tc->sect.gfrom);
				return gap_read_again(tc, tc->sect.gfrom, base);
			}
			/* the white space is kept no longer */
			advance(&tc->sect.gpos, tc->sect.gap.data,
			    tc->sect.gscan);
			memmove(tc->sect.gap.data,
			    tc->sect.gap.data + tc->sect.gscan,
			    tc->sect.gap.len - tc->sect.gscan);
			tc->sect.gap.len -= tc->sect.gscan;
			tc->sect.gfrom = tc->sect.gscan = 0;
		}
		buf_add(&tc->sect.gap, s + i, k - i);
		tc->scanned += k - i;
		i = k;
	}
	base = tc->sect.gap.len - i;
	switch (r) {
	case G_END:
		gap_close(tc, q + len);
		return gap_read_again(tc, q + len, base);
	case G_CALL:
		if (tc->sect.scalls > 0 && !tc->sect.sawsep &&
		    (f->flags & TCD_F_NEEDSEP)) {
			snprintf(what, sizeof(what), "two calls with no \"%c\" "
			    "between them", f->sep);
			sect_fail(tc, q, what);
			return gap_read_again(tc, q, base);
		}
		gap_call(tc, q, len);
		return q + len >= base ? q + len - base : 0;
	default:
		if (f->flags & TCD_F_OPENEND) {
			k = tc->sect.gfrom;
			gap_close(tc, k);
			return gap_read_again(tc, k, base);
		}
		snprintf(what, sizeof(what), "text where %s or %s was "
		    "expected", f->call_open != NULL ? f->call_open :
		    "a JSON object", f->end[0]);
		sect_fail(tc, q, what);
		return gap_read_again(tc, q, base);
	}
}

/* The input ended between the calls of a section. */
void
tc_gap_eof(struct toolcall *tc)
{
	const struct tcd_form *f = tc->sect.form;
	char msg[96];
	char *again;
	size_t n;

	if (f->flags & TCD_F_OPENEND) {
		n = tc->sect.gap.len - tc->sect.gfrom;
		/* an empty gap may have no bytes at all, and a NULL data */
		again = xmemdup(n > 0 ? tc->sect.gap.data + tc->sect.gfrom : "",
		    n);
		gap_close(tc, tc->sect.gfrom);
		buf_reset(&tc->sect.gap);
		tc_process(tc, again, n);
		free(again);
		return;
	}
	if (tc->sect.scalls > 0) {
		snprintf(msg, sizeof(msg), "input ended before %s: the calls "
		    "are read without it", f->cut);
		tc_diag_pos(tc, DIAG_WARNING, &tc->sect.spos, "truncated", msg);
		gap_close(tc, tc->sect.gap.len);
		return;
	}
	/* no call at all: the section is cut short */
	buf_reset(&tc->call.raw);
	buf_add(&tc->call.raw, tc->sect.gap.data, tc->sect.gap.len);
	tc->call.cpos = tc->sect.gpos;
	tc->call.rawgone = 0;
	tc->call.bad = 0;
	tc_call_error(tc, tc->sect.spos, "truncated",
	    "truncated tool call: input ended before %s",
	    f->cut);
	tc_bad_end(tc, tc->call.raw.len);
	tc->sect.form = NULL;
}
