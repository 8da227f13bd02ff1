/*
 * toolcall_prose: the model's prose. Its bytes are checked as UTF-8 and,
 * with events, written as text (or, with thread, message) events, their
 * cuts made by the text alone. Prose is scanned for the openings the
 * format reads: the seed's <tool>, the reasoning markers, the dialects'
 * openers (made once per reader, tc_openers_make), and, at the answer's
 * start, a "{" or "[" that may open a call; an opening cut by a read is
 * held until its next bytes say. The body of a harmony message that is
 * no call is read here too, as prose or reasoning.
 */
#include <string.h>

#include "base/buf.h"
#include "base/diag.h"
#include "toolcall/tcdialect.h"
#include "toolcall/toolcall_int.h"

/* The first byte of s[i..n) that is not ASCII, or n. */
static size_t
find_nonascii(const unsigned char *s, size_t i, size_t n)
{
#ifdef __SSE2__
	int m;

	for (; i + 16 <= n; i += 16) {
		m = _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)
		    (const void *)(s + i)));
		if (m != 0)
			return i + (size_t)__builtin_ctz((unsigned)m);
	}
#endif
	while (i < n && s[i] < 0x80)
		i++;
	return i;
}

/* Text events. */

static void
text_event(struct toolcall *tc, const char *s, size_t n)
{
	tc_puts(tc, tc->think.rtext ? "{\"type\":\"reasoning\",\"text\":" :
	    "{\"type\":\"text\",\"text\":");
	tc_put_string(tc, s, n);
	tc_puts(tc, "}\n");
	if (tc->opt.unbuffered)
		tc_flush(tc);
}

/*
 * Thread: the answer's prose, the assistant's message event, its white
 * space at both ends trimmed (the layout around calls); blank, none.
 */
static int
message_event(struct toolcall *tc, const char *s, size_t n, int last)
{
	size_t a = 0;

	if (!tc->prose.msgcont)
		while (a < n && is_ws((unsigned char)s[a]))
			a++;
	while (last && n > a && is_ws((unsigned char)s[n - 1]))
		n--;
	if (n == a)
		return 0;
	tc_puts(tc,
	    "{\"type\":\"message\",\"role\":\"assistant\",\"content\":");
	tc_put_string(tc, s + a, n - a);
	buf_reset(&tc->tmp);
	buf_printf(&tc->tmp, ",\"iteration\":%ld}\n", tc->opt.iteration);
	tc_put(tc, tc->tmp.data, tc->tmp.len);
	if (tc->opt.unbuffered)
		tc_flush(tc);
	return 1;
}

/*
 * Thread: prose held up to --max-size bytes; past that, a message event
 * of as much, cut between characters, so that memory stays bounded.
 */
static void
message_bound(struct toolcall *tc)
{
	const char *d = tc->prose.text.data;
	size_t cut;

	while (tc->prose.text.len > tc->opt.max_size) {
		cut = tc->opt.max_size;
		while (cut > 1 && ((unsigned char)d[cut] & 0xC0) == 0x80)
			cut--;
		if (message_event(tc, d, cut, 0))
			tc->prose.msgcont = 1;
		memmove(tc->prose.text.data, d + cut, tc->prose.text.len - cut);
		tc->prose.text.len -= cut;
	}
}

/*
 * Writes the complete lines of the pending text, and pieces of at most
 * TEXT_MAX bytes of a longer line, cut between characters; what is left
 * is shorter and has no newline. The cuts depend only on the text, never
 * on how it was read.
 */
static void
text_lines(struct toolcall *tc)
{
	const char *d, *nl;
	size_t left, cut;

	for (;;) {
		d = tc->prose.text.data + tc->prose.tstart;
		left = tc->prose.text.len - tc->prose.tstart;
		if (left == 0)
			break;
		nl = memchr(d, '\n', left < TEXT_MAX ? left : TEXT_MAX);
		if (nl != NULL)
			cut = (size_t)(nl - d) + 1;
		else if (left >= TEXT_MAX) {
			cut = TEXT_MAX;
			while (cut < left && ((unsigned char)d[cut] & 0xC0) == 0x80)
				cut--;
		} else
			break;
		text_event(tc, d, cut);
		tc->prose.tstart += cut;
	}
	if (tc->prose.tstart > 0) {
		memmove(tc->prose.text.data,
		    tc->prose.text.data + tc->prose.tstart,
		    tc->prose.text.len - tc->prose.tstart);
		tc->prose.text.len -= tc->prose.tstart;
		tc->prose.tstart = 0;
	}
}

/* Prose: checked as UTF-8 and, with events, kept for text events. */

/* The length of a UTF-8 sequence that starts with c, 0 if none does. */
static size_t
u8_len(unsigned char c)
{
	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		return 2;
	if (c >= 0xE0 && c <= 0xEF)
		return 3;
	if (c >= 0xF0 && c <= 0xF4)
		return 4;
	return 0;
}

/*
 * How many bytes at s (n available) begin a well-formed sequence: its
 * length when whole, fewer when it is cut or broken (at least 1).
 */
static size_t
u8_prefix(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xBF;
	size_t len = u8_len(s[0]), i;

	if (len == 0)
		return 1;
	if (s[0] == 0xE0)
		lo = 0xA0;
	else if (s[0] == 0xED)
		hi = 0x9F;
	else if (s[0] == 0xF0)
		lo = 0x90;
	else if (s[0] == 0xF4)
		hi = 0x8F;
	for (i = 1; i < len && i < n; i++) {
		if (s[i] < lo || s[i] > hi)
			break;
		lo = 0x80;
		hi = 0xBF;
	}
	return i;
}

/*
 * The bytes at s (n available) that one character takes, well-formed or
 * not: the first byte and the continuation bytes after it, up to the
 * length it announces (*want). An encoded surrogate (ED A0 80), an
 * overlong form (C0 80) or a cut sequence (E2 82 then "x") is one bad
 * character; a stray continuation byte is one on its own.
 */
static size_t
u8_group(const unsigned char *s, size_t n, size_t *want)
{
	size_t len = 1, i;

	if (s[0] >= 0xC0 && s[0] <= 0xDF)
		len = 2;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		len = 3;
	else if (s[0] >= 0xF0 && s[0] <= 0xF7)
		len = 4;
	for (i = 1; i < len && i < n && (s[i] & 0xC0) == 0x80; i++)
		;
	*want = len;
	return i;
}

/*
 * Whether the text being read is kept for events: prose with events, and
 * reasoning with reasoning events too.
 */
static int
in_reasoning(const struct toolcall *tc)
{
	return tc->mode == M_THINK || (tc->mode == M_BODY && tc->think.rtext);
}

int
tc_keeps_text(const struct toolcall *tc)
{
	if (tc->opt.thread)
		return !in_reasoning(tc);
	return tc->opt.events && (!in_reasoning(tc) ||
	    tc->opt.reasoning == TOOLCALL_REASON_EVENTS);
}

/* Text kept: with events, its lines written; with thread, held. */
void
tc_text_keep(struct toolcall *tc, const char *s, size_t n)
{
	buf_add(&tc->prose.text, s, n);
	/* undecided prose may yet be reasoning: it waits */
	if (tc->opt.thread && tc->opt.prose != NULL && tc->held.undecided)
		buf_add(&tc->held.hprose, s, n);
	else if (tc->opt.thread && tc->opt.prose != NULL)
		tc->opt.prose(tc->opt.prose_arg, s, n);
	if (tc->opt.thread)
		message_bound(tc);
	else
		text_lines(tc);
}

/*
 * Prose that is not white space: the answer has begun, and what only
 * its start may open (llama3's bare JSON, a pythonic list) is prose.
 */
static void
answer_seen(struct toolcall *tc, const char *s, size_t n)
{
	size_t i;

	if (tc->mode != M_PROSE)
		return;
	for (i = 0; i < n; i++)
		if (!is_ws((unsigned char)s[i])) {
			tc->prose.answered = 1;
			return;
		}
}

static void
prose_ok(struct toolcall *tc, const char *s, size_t n)
{
	if (n == 0)
		return;
	if (!tc->prose.answered)
		answer_seen(tc, s, n);
	advance(&tc->pos, s, n);
	if (tc_keeps_text(tc))
		tc_text_keep(tc, s, n);
}

/*
 * A bad character of prose: an error. In reasoning, which is not read,
 * it is none, and is written as prose's are.
 */
static void
prose_bad(struct toolcall *tc, const char *s, size_t n)
{
	char msg[64];
	unsigned long col = tc->pos.col;

	if (tc->mode == M_PROSE)
		tc->prose.answered = 1;
	if (!in_reasoning(tc)) {
		snprintf(msg, sizeof(msg), "invalid UTF-8: byte 0x%02x at byte "
		    "offset %llu", (unsigned char)s[0], tc->pos.off);
		tc_diag_pos(tc, DIAG_ERROR, &tc->pos, "utf8", msg);
		tc->status = diag_max(tc->status, DIAG_INVALID);
	}
	/* one character, whatever its bytes: no line ends in it */
	advance(&tc->pos, s, n);
	tc->pos.col = col + 1;
	tc->pos.cr = 0;
	if (tc_keeps_text(tc))
		tc_text_keep(tc, "\xEF\xBF\xBD", 3);
}

/*
 * Prose bytes; a character cut at the end is held for the next read
 * unless final.
 */
void
tc_prose_text(struct toolcall *tc, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char seq[8];
	size_t i = 0, run = 0, want, k, take;

	if (tc->prose.nu8 > 0 && n > 0) {
		/* finish the character the last read cut */
		take = n < 4 - tc->prose.nu8 ? n : 4 - tc->prose.nu8;
		memcpy(seq, tc->prose.u8, tc->prose.nu8);
		memcpy(seq + tc->prose.nu8, s, take);
		k = u8_group(seq, tc->prose.nu8 + take, &want);
		if (k == tc->prose.nu8 + take && k < want) {
			memcpy(tc->prose.u8 + tc->prose.nu8, s, take);
			tc->prose.nu8 += take;
			return;
		}
		if (u8_len(seq[0]) == k && u8_prefix(seq, k) == k)
			prose_ok(tc, (const char *)seq, k);
		else
			prose_bad(tc, (const char *)seq, k);
		i = run = k - tc->prose.nu8;
		tc->prose.nu8 = 0;
	}
	while ((i = find_nonascii(s, i, n)) < n) {
		k = u8_group(s + i, n - i, &want);
		if (u8_len(s[i]) == k && u8_prefix(s + i, k) == k) {
			i += k;
			continue;
		}
		prose_ok(tc, str + run, i - run);
		if (i + k == n && k < want) {
			memcpy(tc->prose.u8, s + i, k);
			tc->prose.nu8 = k;
			return;
		}
		prose_bad(tc, str + i, k);
		i += k;
		run = i;
	}
	prose_ok(tc, str + run, n - run);
}

/* A character cut by the last read, and by markup after it: a bad one. */
void
tc_prose_settle(struct toolcall *tc)
{
	size_t n;

	if (tc->prose.nu8 > 0) {
		n = tc->prose.nu8;
		tc->prose.nu8 = 0;
		prose_bad(tc, (const char *)tc->prose.u8, n);
	}
}

/*
 * Prose ends (a call or a reasoning block begins, or the input ends), or
 * reasoning does: write what is held.
 */
void
tc_prose_break(struct toolcall *tc)
{
	tc_prose_settle(tc);
	if (tc->opt.thread) {
		message_event(tc, tc->prose.text.data, tc->prose.text.len, 1);
		tc->prose.msgcont = 0;
	} else if (tc->opt.events && tc->prose.text.len > 0)
		text_event(tc, tc->prose.text.data, tc->prose.text.len);
	buf_reset(&tc->prose.text);
}

/*
 * The openings the format reads, made once for a reader from the fixed
 * ones (<tool>, reasoning's markers) and the dialects' forms (tcd_forms):
 * each opening once, with its forms that the format reads, in the
 * table's order. A reasoning marker is one in every format, unless
 * reasoning is read as prose. The forms that only open an output
 * (TCD_F_START) are kept apart: prose looks for them only before the
 * answer's first byte.
 */
static int
form_on(const struct toolcall *tc, const struct tcd_form *f)
{
	return tc->opt.format == TOOLCALL_FMT_AUTO ||
	    tc->opt.format == (int)f->dialect;
}

static void
opener_add(struct toolcall *tc, const char *tag, int dial,
    const struct think *th, const struct tcd_form *f)
{
	struct opener *o;
	size_t i;

	for (i = 0; f != NULL && i < tc->openers.nop; i++) {
		o = &tc->openers.op[i];
		if (o->dial == D_FORM && strcmp(o->tag, tag) == 0) {
			if (o->nforms < FORMS_MAX)
				o->forms[o->nforms++] = f;
			return;
		}
	}
	if (tc->openers.nop == OPENERS_MAX)
		return;
	o = &tc->openers.op[tc->openers.nop++];
	memset(o, 0, sizeof(*o));
	o->tag = tag;
	o->len = strlen(tag);
	o->dial = dial;
	o->think = th;
	if (f != NULL) {
		o->forms[0] = f;
		o->nforms = 1;
	}
	if (tag[0] != '<')
		tc->openers.lead2 = tag[0];
}

void
tc_openers_make(struct toolcall *tc)
{
	const struct tcd_form *f;
	size_t n, i;

	if (tc->opt.format == TOOLCALL_FMT_TOOL ||
	    tc->opt.format == TOOLCALL_FMT_AUTO)
		opener_add(tc, OPEN_TAG, 0, NULL, NULL);
	if (tc->opt.reasoning != TOOLCALL_REASON_CALLS)
		for (i = 0; i < NTHINKS; i++) {
			opener_add(tc, tc_thinks[i].open, D_THINK,
			    &tc_thinks[i], NULL);
			opener_add(tc, tc_thinks[i].close, D_STRAY,
			    &tc_thinks[i], NULL);
		}
	f = tcd_forms(&n);
	for (i = 0; i < n; i++) {
		if (!form_on(tc, &f[i]))
			continue;
		if (!(f[i].flags & TCD_F_START))
			opener_add(tc, f[i].open, D_FORM, NULL, &f[i]);
		else if (f[i].open[0] == '{')
			tc->openers.start_brace = &f[i];
		else
			tc->openers.start_bracket = &f[i];
	}
}

/*
 * The opener that the avail bytes at p begin: 2 with *op set when one is
 * whole, 1 when the bytes are the start of one, 0 when of none. (No
 * opening is the start of another.)
 */
static int
opener_at(const struct toolcall *tc, const char *p, size_t avail,
    const struct opener **op)
{
	const struct opener *o;
	size_t i, m;
	int r = 0;

	for (i = 0; i < tc->openers.nop; i++) {
		o = &tc->openers.op[i];
		m = avail < o->len ? avail : o->len;
		if (memcmp(p, o->tag, m) != 0)
			continue;
		if (m == o->len) {
			*op = o;
			return 2;
		}
		r = 1;
	}
	return r;
}

static void
opener_begin(struct toolcall *tc, const struct opener *o)
{
	if (o->dial == 0)
		tc_call_begin(tc);
	else if (o->dial == D_THINK)
		tc_think_begin(tc, o);
	else if (o->dial == D_STRAY)
		tc_stray_closer(tc, o);
	else
		tc_raw_begin(tc, o);
}

/* The next byte of s[i..n) that may begin an opener, or NULL. */
static const char *
next_lead(const struct toolcall *tc, const char *s, size_t i, size_t n)
{
	if (tc->openers.lead2 == 0)
		return memchr(s + i, '<', n - i);
	i = find_either(s, i, n, '<', tc->openers.lead2);
	return i < n ? s + i : NULL;
}

/*
 * Before the answer's first byte that is not white space (reasoning
 * aside): a "{" or "[" there may open a form that only an output's
 * start opens. The bytes of s it took, or NONE to read s as prose.
 */
static size_t
answer_start(struct toolcall *tc, const char *s, size_t n)
{
	const struct tcd_form *f = NULL;
	size_t i = 0;

	while (i < n && is_ws((unsigned char)s[i]))
		i++;
	if (i == n) {
		tc_prose_text(tc, s, n);
		return n;
	}
	if (s[i] == '{')
		f = tc->openers.start_brace;
	else if (s[i] == '[')
		f = tc->openers.start_bracket;
	if (f == NULL)
		return NONE;
	tc_prose_text(tc, s, i);
	tc_start_begin(tc, f);
	return i + 1;
}

size_t
tc_prose_chunk(struct toolcall *tc, const char *s, size_t n)
{
	const struct opener *o = NULL;
	const char *lt;
	size_t i = 0, j, k;
	int r = 1;

	if (tc->prose.nhold > 0) {
		/* an opener begun at the end of the last read */
		while (i < n && r == 1) {
			tc->prose.hold[tc->prose.nhold++] = s[i++];
			r = opener_at(tc, tc->prose.hold, tc->prose.nhold, &o);
		}
		if (r == 2) {
			tc->prose.nhold = 0;
			opener_begin(tc, o);
			return i;
		}
		if (r == 1)
			return n;
		/* no opener: the last byte is read again, it may be a '<' */
		k = tc->prose.nhold - 1;
		tc->prose.nhold = 0;
		tc_prose_text(tc, tc->prose.hold, k);
		return i - 1;
	}
	if (!tc->prose.answered && (k = answer_start(tc, s, n)) != NONE)
		return k;
	while ((lt = next_lead(tc, s, i, n)) != NULL) {
		j = (size_t)(lt - s);
		r = opener_at(tc, lt, n - j, &o);
		if (r == 2) {
			tc_prose_text(tc, s, j);
			opener_begin(tc, o);
			return j + o->len;
		}
		if (r == 1) {
			tc_prose_text(tc, s, j);
			memcpy(tc->prose.hold, lt, n - j);
			tc->prose.nhold = n - j;
			return n;
		}
		i = j + 1;
	}
	tc_prose_text(tc, s, n);
	return n;
}

/*
 * The body of a harmony message that is no call: prose, or reasoning,
 * up to the first of its end markers, or to the opening of a message,
 * which begins the next.
 */
static int
body_at(const struct toolcall *tc, const char *p, size_t avail,
    const struct opener **op, size_t *len, int *part)
{
	const struct tcd_form *f = tc->hold.form;
	size_t i;
	int r;

	*part = 0;
	for (i = 0; f->close[i] != NULL; i++) {
		r = mark_at(p, avail, f->close[i], strlen(f->close[i]));
		if (r == 2) {
			*op = NULL;
			*len = strlen(f->close[i]);
			return 1;
		}
		*part |= r;
	}
	for (i = 0; i < tc->openers.nop; i++) {
		if (tc->openers.op[i].dial != D_FORM ||
		    !(tc->openers.op[i].forms[0]->flags & TCD_F_HEAD))
			continue;
		r = mark_at(p, avail, tc->openers.op[i].tag,
		    tc->openers.op[i].len);
		if (r == 2) {
			*op = &tc->openers.op[i];
			*len = tc->openers.op[i].len;
			return 1;
		}
		*part |= r;
	}
	return 0;
}

/* The body ends at its marker of len bytes, or a message's opening. */
static void
body_end(struct toolcall *tc, const struct opener *o, const char *mark,
    size_t len)
{
	tc_prose_break(tc);
	tc->mode = M_PROSE;
	tc->think.rtext = 0;
	if (o != NULL)
		opener_begin(tc, o);
	else
		advance(&tc->pos, mark, len);
}

size_t
tc_body_chunk(struct toolcall *tc, const char *s, size_t n)
{
	const struct opener *o = NULL;
	const char *lt;
	size_t i = 0, j, k, len = 0;
	int part = 1, r = 0;

	if (tc->prose.nhold > 0) {
		while (i < n && r == 0 && part) {
			tc->prose.hold[tc->prose.nhold++] = s[i++];
			r = body_at(tc, tc->prose.hold, tc->prose.nhold, &o,
			    &len, &part);
		}
		if (r != 0) {
			tc->prose.nhold = 0;
			body_end(tc, o, tc->prose.hold, len);
			return i;
		}
		if (part)
			return n;
		/* no marker: the last byte is read again, it may be a '<' */
		k = tc->prose.nhold - 1;
		tc->prose.nhold = 0;
		tc_prose_text(tc, tc->prose.hold, k);
		return i - 1;
	}
	tc->scanned += n;
	while ((lt = memchr(s + i, '<', n - i)) != NULL) {
		j = (size_t)(lt - s);
		if (body_at(tc, lt, n - j, &o, &len, &part)) {
			tc_prose_text(tc, s, j);
			body_end(tc, o, lt, len);
			return j + len;
		}
		if (part) {
			tc_prose_text(tc, s, j);
			memcpy(tc->prose.hold, lt, n - j);
			tc->prose.nhold = n - j;
			return n;
		}
		i = j + 1;
	}
	tc_prose_text(tc, s, n);
	return n;
}

/* The input ended in a message's body: reasoning says it was cut. */
void
tc_body_eof(struct toolcall *tc)
{
	size_t k;

	if ((k = tc->prose.nhold) > 0) {
		tc->prose.nhold = 0;
		tc_prose_text(tc, tc->prose.hold, k);
	}
	if (tc->think.rtext)
		tc_diag_pos(tc, DIAG_WARNING, &tc->think.tpos, "reasoning",
		    "reasoning never closed: input ended before <|end|>");
}
