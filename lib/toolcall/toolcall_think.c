/*
 * toolcall_think: a model's reasoning, never read for calls. A block
 * opens in prose and its text is only searched for the marker that
 * closes it. While the start may be reasoning that the chat template
 * opened, every byte is also looked at for a lone closing marker, which
 * makes all before it reasoning (and the held output dropped).
 */
#include <string.h>

#include "base/buf.h"
#include "base/diag.h"
#include "toolcall/toolcall_int.h"

/* The reasoning markers (see struct think), the order prose looks in. */
const struct think tc_thinks[NTHINKS] = {
	{ "<think>", "</think>", 7, 8 },
	{ "<seed:think>", "</seed:think>", 12, 13 },
};

/*
 * The closing marker that the avail bytes at p begin, of block only (or,
 * NULL, of any): it when whole; NULL with *part set when the bytes are
 * the start of one.
 */
static const struct think *
closer_at(const struct think *only, const char *p, size_t avail, int *part)
{
	size_t i;
	int r;

	*part = 0;
	for (i = 0; i < NTHINKS; i++) {
		if (only != NULL && only != &tc_thinks[i])
			continue;
		r = mark_at(p, avail, tc_thinks[i].close, tc_thinks[i].clen);
		if (r == 2)
			return &tc_thinks[i];
		if (r == 1)
			*part = 1;
	}
	return NULL;
}

/* Reasoning text: not read, only kept for events (prose_bad is silent). */
static void
reasoning_text(struct toolcall *tc, const char *s, size_t n)
{
	tc_prose_text(tc, s, n);
}

/* A reasoning block opens: the prose before it ends. */
void
tc_think_begin(struct toolcall *tc, const struct opener *o)
{
	tc_prose_break(tc);
	/* the model writes its own blocks: what was held is its answer */
	if (tc->held.undecided)
		tc_held_release(tc);
	tc->think.tpos = tc->pos;
	advance(&tc->pos, o->tag, o->len);
	tc->think.block = o->think;
	tc->mode = M_THINK;
	tc->think.rtext = 1;
}

/* The block ends at its closing marker th, read. */
static void
think_close(struct toolcall *tc, const struct think *th)
{
	tc_prose_break(tc);
	advance(&tc->pos, th->close, th->clen);
	tc->think.block = NULL;
	tc->mode = M_PROSE;
	tc->think.rtext = 0;
}

/*
 * A closing marker in prose, with no block open: prose, said. (While the
 * stream is undecided, feed_stream takes it before prose sees it.)
 */
void
tc_stray_closer(struct toolcall *tc, const struct opener *o)
{
	char msg[80];

	tc_prose_settle(tc);
	snprintf(msg, sizeof(msg), "%s with no reasoning open, read as prose",
	    o->tag);
	tc_diag_pos(tc, DIAG_WARNING, &tc->pos, "reasoning", msg);
	tc_prose_text(tc, o->tag, o->len);
}

/*
 * Bytes of a reasoning block, up to its closing marker, which may be cut
 * by reads: its start is held as prose holds an opener's.
 */
size_t
tc_think_chunk(struct toolcall *tc, const char *s, size_t n)
{
	const struct think *th = NULL;
	const char *lt;
	size_t i = 0, j, k;
	int part = 1;

	if (tc->prose.nhold > 0) {
		while (i < n && th == NULL && part) {
			tc->prose.hold[tc->prose.nhold++] = s[i++];
			th = closer_at(tc->think.block, tc->prose.hold,
			    tc->prose.nhold, &part);
		}
		if (th != NULL) {
			tc->prose.nhold = 0;
			think_close(tc, th);
			return i;
		}
		if (part)
			return n;
		/* no marker: the last byte is read again, it may be a '<' */
		k = tc->prose.nhold - 1;
		tc->prose.nhold = 0;
		reasoning_text(tc, tc->prose.hold, k);
		return i - 1;
	}
	tc->scanned += n;
	while ((lt = memchr(s + i, '<', n - i)) != NULL) {
		j = (size_t)(lt - s);
		th = closer_at(tc->think.block, lt, n - j, &part);
		if (th != NULL) {
			reasoning_text(tc, s, j);
			think_close(tc, th);
			return j + th->clen;
		}
		if (part) {
			reasoning_text(tc, s, j);
			memcpy(tc->prose.hold, lt, n - j);
			tc->prose.nhold = n - j;
			return n;
		}
		i = j + 1;
	}
	reasoning_text(tc, s, n);
	return n;
}

/* The input ended inside reasoning: none of it was read for calls. */
void
tc_think_end(struct toolcall *tc)
{
	char msg[96];
	size_t k;

	if ((k = tc->prose.nhold) > 0) {
		tc->prose.nhold = 0;
		reasoning_text(tc, tc->prose.hold, k);
	}
	snprintf(msg, sizeof(msg),
	    "reasoning never closed: input ended before %s",
	    tc->think.block != NULL ? tc->think.block->close : "</think>");
	tc_diag_pos(tc, DIAG_WARNING, &tc->think.tpos, "reasoning", msg);
}

/* The position of the next byte of the stream, whatever is held. */
static struct pos
stream_pos(const struct toolcall *tc)
{
	struct pos p = tc->pos;

	switch (tc->mode) {
	case M_CALL:
	case M_SKIP:
	case M_RAW:
		if (!tc->call.rawgone)
			p = tc_call_pos(tc, tc->call.raw.len);
		break;
	case M_PROSE:
	case M_BODY:
		advance(&p, (const char *)tc->prose.u8, tc->prose.nu8);
		advance(&p, tc->prose.hold, tc->prose.nhold);
		break;
	case M_GAP:
		p = tc->sect.gpos;
		advance(&p, tc->sect.gap.data, tc->sect.gap.len);
		break;
	default:
		break;
	}
	return p;
}

/*
 * A closing marker with no opening, in undecided output: everything
 * before it was reasoning, a call left open in it too. The held output
 * is forgotten (with reasoning events, the text is written as such) and
 * the reader starts again in prose after the marker, whose last k bytes
 * are at s, the others having been read with the bytes before.
 */
void
tc_lone_closer(struct toolcall *tc, const char *s, size_t k, size_t clen)
{
	struct pos p = stream_pos(tc);
	struct buf raw = tc->held.hraw;

	advance(&p, s, k);
	memset(&tc->held.hraw, 0, sizeof(tc->held.hraw));
	if (tc->mode == M_CALL || tc->mode == M_SKIP)
		tc->feed.xspoilt = 1;
	tc->mode = M_PROSE;
	tc->sect.form = NULL;
	tc->sect.tent = 0;
	buf_reset(&tc->sect.gap);
	tc->prose.answered = 0;	/* all before was reasoning */
	tc->prose.nhold = tc->prose.nu8 = 0;
	buf_reset(&tc->prose.text);
	tc->prose.msgcont = 0;
	tc->call.rawgone = 0;
	tc->status = DIAG_OK;
	tc->unchecked = 0;
	tc->ncalls = 0;
	tc->held.undecided = 0;
	tc->think.nccarry = 0;
	tc->sink = tc->opt.sink;
	tc_held_free(tc);
	if (raw.len > 0) {
		/* the marker's first bytes came with an earlier read */
		raw.len -= clen - k < raw.len ? clen - k : raw.len;
		tc->mode = M_THINK;
		tc->think.rtext = 1;
		reasoning_text(tc, raw.data, raw.len);
		tc_prose_break(tc);
		tc->mode = M_PROSE;
		tc->think.rtext = 0;
	}
	buf_free(&raw);
	tc->pos = p;
}

/* The first "</" in s[i..n), or a "<" that ends s: n when none. */
static size_t
find_close(const char *s, size_t i, size_t n)
{
#ifdef __SSE2__
	const __m128i lt = _mm_set1_epi8('<'), sl = _mm_set1_epi8('/');
	__m128i a, b;
	int m;

	for (; i + 17 <= n; i += 16) {
		a = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		b = _mm_loadu_si128((const __m128i *)(const void *)(s + i +
		    1));
		m = _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, lt),
		    _mm_cmpeq_epi8(b, sl)));
		if (m != 0)
			return i + (size_t)__builtin_ctz((unsigned)m);
	}
#endif
	for (; i < n; i++)
		if (s[i] == '<' && (i + 1 == n || s[i + 1] == '/'))
			return i;
	return n;
}

/*
 * Where the first closing marker ends in s (n bytes, after those of the
 * last reads), or NONE; *clen is its length. A marker that s ends in is
 * carried to the next look.
 */
size_t
tc_closer_scan(struct toolcall *tc, const char *s, size_t n, size_t *clen)
{
	const struct think *th;
	char both[2 * HOLD_MAX];
	size_t nc = tc->think.nccarry, k, i;
	int part;

	tc->scanned += n;
	tc->think.nccarry = 0;
	if (nc > 0) {
		/* the carried bytes begin with the marker's "<" */
		k = n < HOLD_MAX ? n : HOLD_MAX;
		memcpy(both, tc->think.ccarry, nc);
		memcpy(both + nc, s, k);
		if ((th = closer_at(NULL, both, nc + k, &part)) != NULL) {
			*clen = th->clen;
			return th->clen - nc;
		}
		if (part) {
			memcpy(tc->think.ccarry, both, nc + k);
			tc->think.nccarry = nc + k;
			return NONE;
		}
	}
	for (i = 0; (i = find_close(s, i, n)) < n; i++) {
		if ((th = closer_at(NULL, s + i, n - i, &part)) != NULL) {
			*clen = th->clen;
			return i + th->clen;
		}
		if (part) {
			memcpy(tc->think.ccarry, s + i, n - i);
			tc->think.nccarry = n - i;
			return NONE;
		}
	}
	return NONE;
}
