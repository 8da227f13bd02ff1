/*
 * toolcall_lex: a <tool> call's bytes, from its "<tool>" to its
 * "</tool>". The lexer follows its tags, CDATA sections, comments and
 * references, so that a bare "&" goes to expat as "&amp;" and the call's
 * end is seen the moment its tag is; the feed gives expat those bytes,
 * holding a token that may be incomplete so that expat's work stays
 * linear. A call that stops (closed, malformed, refused) is written or
 * reported here, and a bad one skipped to its </tool> or the next <tool>.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <expat.h>

#include "config.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "toolcall/toolcall_int.h"

/* The first "<", "&" or "]" in s[i..n), or n: the lexer's hot loop. */
static size_t
find_markup(const char *s, size_t i, size_t n)
{
#ifdef __SSE2__
	const __m128i lt = _mm_set1_epi8('<'), amp = _mm_set1_epi8('&'),
	    rsqb = _mm_set1_epi8(']');
	__m128i v;
	int m;

	for (; i + 16 <= n; i += 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		m = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
		    _mm_cmpeq_epi8(v, lt), _mm_cmpeq_epi8(v, amp)),
		    _mm_cmpeq_epi8(v, rsqb)));
		if (m != 0)
			return i + (size_t)__builtin_ctz((unsigned)m);
	}
#endif
	while (i < n && s[i] != '<' && s[i] != '&' && s[i] != ']')
		i++;
	return i;
}

/* The lexer of a call's bytes, shared by parsing and skipping. */

static int	ref_len(const char *, size_t);

/*
 * Moves the lexer over s[*ip..n). With amps, stops at an "&" that starts
 * no reference (or may not: the bytes end first) and returns LEX_AMP;
 * stops after each tag with LEX_TAG.
 */
static enum lexev
lex_run(struct toolcall *tc, const char *s, size_t n, size_t *ip, int amps)
{
	size_t i = *ip;
	const char *p;
	unsigned char c;
	char q;
	int r = 0;

	while (i < n) {
		c = (unsigned char)s[i];
		switch (tc->lexer.lex) {
		case L_TEXT:
			if ((i = find_markup(s, i, n)) == n)
				break;
			if (s[i] == ']') {
				/*
				 * "]]>" outside CDATA is an XML error that
				 * expat finds before or after the text in
				 * front of it, as the reads fall: parsing
				 * gives that text to expat on its own, and
				 * the run of "]" with its ">" in one piece.
				 */
				for (r = 0; i + (size_t)r < n &&
				    s[i + (size_t)r] == ']'; r++)
					;
				if (amps && (i + (size_t)r == n ||
				    (r >= 2 && s[i + (size_t)r] == '>'))) {
					*ip = i;
					return i + (size_t)r == n ? LEX_RSQB :
					    LEX_CDEND;
				}
				i += (size_t)r;
				break;
			}
			if (s[i] == '&') {
				if (amps && (r = ref_len(s + i, n - i)) <= 0) {
					*ip = i;
					return LEX_AMP;
				}
				i += amps ? (size_t)r : 1;
				break;
			}
			tc->lexer.lex = L_LT;
			tc->lexer.ltset = 1;
			tc->lexer.ltidx = i++;
			break;
		case L_LT:
			if (c == '!') {
				tc->lexer.lex = L_BANG;
				tc->lexer.sub = 0;
				i++;
			} else if (c == '?') {
				tc->lexer.lex = L_PI;
				tc->lexer.sub = 0;
				i++;
			} else if (c == '/' || c == '_' || c == ':' ||
			    (unsigned)((c | 0x20) - 'a') < 26 || c >= 0x80) {
				tc->lexer.lex = L_TAG;
				tc->lexer.tag[0] = '<';
				tc->lexer.ntag = 1;
				/* a start tag: one element more */
				if (amps && c != '/' &&
				    ++tc->lexer.items > tc->lexer.maxitems) {
					*ip = i;
					return LEX_ITEM;
				}
			} else
				tc->lexer.lex = L_TEXT;	/* a stray "<" */
			break;
		case L_BANG:
			/* sub: bytes of "[CDATA[" matched, or -1 after one "-" */
			if (tc->lexer.sub == 0 && c == '-') {
				tc->lexer.sub = -1;
				i++;
			} else if (tc->lexer.sub == -1) {
				if (c == '-') {
					tc->lexer.lex = L_COMMENT;
					tc->lexer.sub = 0;
					i++;
				} else {
					tc->lexer.lex = L_TAG;
					tc->lexer.ntag = TAG_CAP;
				}
			} else if (tc->lexer.sub >= 0 && tc->lexer.sub < 7 &&
			    c == (unsigned char)"[CDATA["[tc->lexer.sub]) {
				if (++tc->lexer.sub == 7) {
					tc->lexer.lex = L_CDATA;
					tc->lexer.sub = 0;
				}
				i++;
			} else {
				tc->lexer.lex = L_TAG;
				tc->lexer.ntag = TAG_CAP;
			}
			break;
		case L_CDATA:
		case L_COMMENT:
			/* both end at two of a character and ">": "]]>", "-->" */
			q = tc->lexer.lex == L_CDATA ? ']' : '-';
			if (tc->lexer.sub == 0) {
				if ((p = memchr(s + i, q, n - i)) == NULL) {
					i = n;
					break;
				}
				i = (size_t)(p - s) + 1;
				tc->lexer.sub = 1;
			} else if (c == q) {
				tc->lexer.sub = 2;
				i++;
			} else {
				if (c == '>' && tc->lexer.sub == 2)
					tc->lexer.lex = L_TEXT;
				tc->lexer.sub = 0;
				i++;
			}
			break;
		case L_PI:
			if (c == '?')
				tc->lexer.sub = 1;
			else {
				if (c == '>' && tc->lexer.sub == 1)
					tc->lexer.lex = L_TEXT;
				tc->lexer.sub = 0;
			}
			i++;
			break;
		case L_TAG:
			if (c == '<') {
				/* a tag cut short: this "<" starts another */
				tc->lexer.lex = L_LT;
				tc->lexer.ltset = 1;
				tc->lexer.ltidx = i++;
				break;
			}
			i++;
			if (c == '>') {
				tc->lexer.lex = L_TEXT;
				*ip = i;
				return LEX_TAG;
			}
			if (c == '"' || c == '\'') {
				tc->lexer.q = (char)c;
				tc->lexer.lex = L_QUOTE;
			}
			if (tc->lexer.ntag < TAG_CAP)
				tc->lexer.tag[tc->lexer.ntag++] = (char)c;
			/* an "=" in a tag: one attribute more */
			if (c == '=' && amps &&
			    ++tc->lexer.items > tc->lexer.maxitems) {
				*ip = i;
				return LEX_ITEM;
			}
			break;
		case L_QUOTE:
			while (i < n && s[i] != tc->lexer.q && s[i] != '&' &&
			    s[i] != '<')
				i++;
			if (i == n)
				break;
			if (s[i] == '<') {
				/* no "<" in a value: the quote was never closed */
				tc->lexer.lex = L_LT;
				tc->lexer.ltset = 1;
				tc->lexer.ltidx = i++;
				break;
			}
			if (s[i] == '&') {
				if (amps && (r = ref_len(s + i, n - i)) <= 0) {
					*ip = i;
					return LEX_AMP;
				}
				i += amps ? (size_t)r : 1;
				break;
			}
			tc->lexer.lex = L_TAG;
			if (tc->lexer.ntag < TAG_CAP)
				tc->lexer.tag[tc->lexer.ntag++] = tc->lexer.q;
			i++;
			break;
		case L_AMP:
			/* skipping ends a reference: its bytes are plain text */
			tc->lexer.lex = tc->lexer.ret;
			break;
		}
	}
	*ip = n;
	return LEX_END;
}

/* The same, the bytes it passed counted. */
static enum lexev
lex(struct toolcall *tc, const char *s, size_t n, size_t *ip, int amps)
{
	size_t from = *ip;
	enum lexev ev = lex_run(tc, s, n, ip, amps);

	tc->scanned += *ip - from;
	return ev;
}

/* After LEX_TAG: 1 for "</tool>", 2 for "<tool>", 0 for any other tag. */
static int
tool_tag(const struct toolcall *tc)
{
	size_t i;

	if (tc->lexer.ntag == 5 && memcmp(tc->lexer.tag, "<tool", 5) == 0)
		return 2;
	if (tc->lexer.ntag < 6 || tc->lexer.ntag >= TAG_CAP ||
	    memcmp(tc->lexer.tag, "</tool", 6) != 0)
		return 0;
	for (i = 6; i < tc->lexer.ntag; i++)
		if (!is_ws((unsigned char)tc->lexer.tag[i]))
			return 0;
	return 1;
}

/* Errors in a call. */

/* The stream position of the call's byte at raw offset off. */
struct pos
tc_call_pos(const struct toolcall *tc, size_t off)
{
	struct pos p = tc->call.cpos;

	advance(&p, tc->call.raw.data, off);
	return p;
}

void
tc_call_error(struct toolcall *tc, struct pos p, const char *rule,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tc_call_verror(tc, p, rule, fmt, ap);
	va_end(ap);
}

/* The same, its arguments in ap. */
void
tc_call_verror(struct toolcall *tc, struct pos p, const char *rule,
    const char *fmt, va_list ap)
{
	if (tc->call.bad)
		return;
	tc->call.bad = 1;
	tc->status = diag_max(tc->status, DIAG_INVALID);
	tc->call.epos = p;
	buf_reset(&tc->call.msg);
	buf_vprintf(&tc->call.msg, fmt, ap);
	tc_diag_pos(tc, DIAG_ERROR, &p, rule, buf_cstr(&tc->call.msg));
}

/* An error at a byte expat was given: fed offsets count the "amp;"s. */
size_t
tc_fed_to_raw(const struct toolcall *tc, size_t fed)
{
	size_t lo = 0, hi = tc->feed.nins, mid;

	/* how many insertions lie wholly before fed */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (tc->feed.ins[mid] + 4 * mid + 5 <= fed)
			lo = mid + 1;
		else
			hi = mid;
	}
	return fed - 4 * lo;
}

/* Reading the stream. */

/*
 * Gives expat the first n pending bytes. Returns 0 when it stopped: the
 * call ended, or failed. work counts what expat scans: the bytes of a
 * token it could not finish are scanned again with the next ones.
 */
static int
expat_give(struct toolcall *tc, size_t n)
{
	const char *p;
	size_t off = 0, k;
	XML_Index at;

	/* until an "&amp;" is put in, the bytes for expat are raw's */
	p = tc->feed.copied ? tc->feed.pend.data :
	    tc->call.raw.data + tc->feed.xfed;
	while (off < n) {
		k = n - off < FEED_MAX ? n - off : FEED_MAX;
		tc->feed.work += tc->feed.xfed - tc->feed.xdone + k;
		tc->feed.xfed += k;
		tc->feed.npend -= k;
		if (XML_Parse(tc->feed.xp, p + off, (int)k, 0) !=
		    XML_STATUS_OK) {
			if (!tc->feed.done)
				tc->feed.xerr = tc->feed.xspoilt = 1;
			return 0;
		}
		at = XML_GetCurrentByteIndex(tc->feed.xp);
		tc->feed.xdone = at < 0 ? 0 : (size_t)at;
		off += k;
	}
	if (tc->feed.copied) {
		memmove(tc->feed.pend.data, tc->feed.pend.data + n,
		    tc->feed.pend.len - n);
		tc->feed.pend.len -= n;
	}
	return 1;
}

/*
 * n more bytes for expat, held until handed. They are raw's own bytes,
 * already there, and are not copied, until bytes that differ are added.
 */
static void
pend_add(struct toolcall *tc, const char *s, size_t n, int same)
{
	if (!tc->feed.copied && !same) {
		tc->feed.copied = 1;
		buf_reset(&tc->feed.pend);
		buf_add(&tc->feed.pend, tc->call.raw.data + tc->feed.xfed,
		    tc->feed.npend);
	}
	if (tc->feed.copied)
		buf_add(&tc->feed.pend, s, n);
	tc->feed.npend += n;
}

/* Where the token the lexer is in began, in the bytes for expat. */
static size_t
tok_fed(const struct toolcall *tc)
{
	return tc->feed.tokraw + 4 * tc->feed.tokins;
}

/*
 * Bytes of the call for expat. They are held while a token (a tag, a
 * comment) may be incomplete: expat 2.5 scans such a token again from
 * its start on every XML_Parse, which makes a long one quadratic. A token
 * that goes on is given to expat when it reaches FEED_MIN bytes and then
 * each time it has doubled, so expat still finds its errors early and
 * the work stays linear. The points depend on the bytes alone, never on
 * the reads. Returns 0 when expat stopped.
 */
static int
feed_as(struct toolcall *tc, const char *s, size_t n, int same)
{
	size_t total, k, start;

	while (n > 0) {
		total = tc->feed.xfed + tc->feed.npend;
		if (total + n < tc->feed.nextflush) {
			pend_add(tc, s, n, same);
			break;
		}
		k = tc->feed.nextflush > total ? tc->feed.nextflush - total : 0;
		pend_add(tc, s, k, same);
		s += k;
		n -= k;
		if (!expat_give(tc, tc->feed.npend))
			return 0;
		start = tok_fed(tc);
		tc->feed.nextflush = start + 2 * (tc->feed.xfed - start);
		if (tc->feed.nextflush <= tc->feed.xfed)
			tc->feed.nextflush = tc->feed.xfed + FEED_MIN;
	}
	return 1;
}

/* Bytes of raw, the next ones after those given or held. */
static int
feed_raw(struct toolcall *tc, const char *s, size_t n)
{
	return feed_as(tc, s, n, 1);
}

/* Gives expat every pending byte. Returns 0 when it stopped. */
int
tc_expat_give_all(struct toolcall *tc)
{
	return tc->feed.npend == 0 || expat_give(tc, tc->feed.npend);
}

/*
 * Gives expat the bytes before the token the lexer is in: they are
 * whole, and any error in them is found before what comes after.
 */
static int
expat_give_whole(struct toolcall *tc)
{
	size_t start = tok_fed(tc);

	if (start <= tc->feed.xfed)
		return 1;
	return expat_give(tc, start - tc->feed.xfed);
}

/* Whether every byte the lexer has passed makes whole tokens. */
static int
at_boundary(const struct toolcall *tc)
{
	enum lex l = tc->lexer.lex == L_AMP ? tc->lexer.ret : tc->lexer.lex;

	return (l == L_TEXT && tc->lexer.rsqb == 0) || l == L_CDATA;
}

/* A fresh parser, when the last one failed or cannot be reset. */
static void
parser_reset(struct toolcall *tc)
{
	if (!tc->feed.xspoilt &&
	    XML_ParserReset(tc->feed.xp, "UTF-8") == XML_TRUE)
		return;
	XML_ParserFree(tc->feed.xp);
	if ((tc->feed.xp = XML_ParserCreate("UTF-8")) == NULL)
		xalloc_die();
	tc->feed.xspoilt = 0;
}

void
tc_call_begin(struct toolcall *tc)
{
	tc_prose_break(tc);
	tc->prose.answered = 1;
	tc->mode = M_CALL;
	tc->call.cpos = tc->pos;
	buf_reset(&tc->call.raw);
	buf_add(&tc->call.raw, OPEN_TAG, OPEN_LEN);
	tc->call.rawgone = 0;
	tc->feed.nins = 0;
	tc->lexer.lex = L_TEXT;
	tc->lexer.sub = 0;
	tc->lexer.namp = 0;
	tc->feed.done = tc->feed.xerr = tc->call.restart = tc->call.bad = 0;
	tc->lexer.items = 0;
	tc->lexer.rsqb = 0;
	tc->call.wpos = tc->call.cpos;
	tc->call.wraw = 0;
	tc->tree.nnodes = 0;
	buf_reset(&tc->tree.names);
	buf_reset(&tc->tree.arena);
	tc->tree.nsegs = 0;
	tc->tree.content = 0;
	tc->tree.cur = NONE;
	tc->tree.depth = 0;
	tc->tree.incdata = 0;
	tc->tree.sname = tc->tree.tname = tc->tree.args = NONE;
	buf_reset(&tc->feed.pend);
	tc->feed.npend = 0;
	tc->feed.copied = 0;
	tc->feed.xfed = tc->feed.xdone = 0;
	tc->feed.tokraw = tc->feed.tokins = 0;
	tc->feed.nextflush = FEED_MIN;
	tc->lexer.ltset = 0;
	parser_reset(tc);
	/* one random salt for the stream, not a system call per call */
	XML_SetHashSalt(tc->feed.xp, tc->salt);
	XML_SetUserData(tc->feed.xp, tc);
	XML_SetElementHandler(tc->feed.xp, tc_on_start, tc_on_end);
	XML_SetCharacterDataHandler(tc->feed.xp, tc_on_text);
	XML_SetCdataSectionHandler(tc->feed.xp, tc_on_cdata_start,
	    tc_on_cdata_end);
#ifdef HAVE_XML_SETREPARSEDEFERRALENABLED
	/* answer the moment </tool> is in, not when more input comes */
	XML_SetReparseDeferralEnabled(tc->feed.xp, XML_FALSE);
#endif
	feed_raw(tc, OPEN_TAG, OPEN_LEN);
}

/* A bad call ends at raw offset end (NONE when its bytes are gone). */
void
tc_bad_end(struct toolcall *tc, size_t end)
{
	if (tc->call.rawgone || end == NONE)
		tc_error_event(tc, NULL, 0);
	else
		tc_error_event(tc, tc->call.raw.data, end);
	if (!tc->call.rawgone && end != NONE)
		tc->pos = tc_call_pos(tc, end);
	tc->mode = M_PROSE;
}

/* Past --max-size: the call's bytes are no longer kept. */
void
tc_raw_drop(struct toolcall *tc)
{
	tc->pos = tc_call_pos(tc, tc->call.raw.len);
	tc->call.rawgone = 1;
	buf_free(&tc->call.raw);
}

/*
 * The call ended at raw offset end, but raw holds more, from base on
 * out of the bytes being read: returns how many of those are used, after
 * reading again any held bytes of an earlier read that come after end.
 */
size_t
tc_read_again(struct toolcall *tc, size_t end, size_t base)
{
	char *again;
	size_t n;

	if (end >= base)
		return end - base;
	n = base - end;
	tc->scanned += n;
	again = xmemdup(tc->call.raw.data + end, n);
	tc_process(tc, again, n);
	free(again);
	return 0;
}

/*
 * Skips a bad call from raw offset from: finds its </tool>, or the
 * <tool> of the next call, among the bytes read so far.
 */
static size_t
skip_held(struct toolcall *tc, size_t from, size_t base, size_t used)
{
	size_t i = from, end;
	int t = 0;

	while (lex(tc, tc->call.raw.data, tc->call.raw.len, &i, 0) == LEX_TAG)
		if ((t = tool_tag(tc)) != 0)
			break;
	if (t == 0) {
		tc->mode = M_SKIP;
		return used;
	}
	end = t == 1 ? i : i - OPEN_LEN;
	tc_bad_end(tc, end);
	return tc_read_again(tc, end, base);
}

static int
amp_literal(struct toolcall *tc)
{
	/* what comes before the "&" is judged before it */
	if (!(at_boundary(tc) ? tc_expat_give_all(tc) : expat_give_whole(tc)))
		return 0;
	if (tc->opt.strict) {
		tc_call_error(tc, tc_call_pos(tc, tc->lexer.ampraw),
		    "bare-ampersand",
		    "malformed tool call: bare \"&\" (write &amp;)");
		tc->call.skipfrom = tc->lexer.ampraw + 1;
		return 0;
	}
	advance(&tc->call.wpos, tc->call.raw.data + tc->call.wraw,
	    tc->lexer.ampraw - tc->call.wraw);
	tc->call.wraw = tc->lexer.ampraw;
	tc_diag_pos(tc, DIAG_WARNING, &tc->call.wpos, "bare-ampersand",
	    "bare \"&\" taken as text (write &amp;)");
	if (tc->feed.nins == tc->feed.insc) {
		tc->feed.insc = tc->feed.insc ? 2 * tc->feed.insc : 16;
		tc->feed.ins = xreallocarray(tc->feed.ins, tc->feed.insc,
		    sizeof(*tc->feed.ins));
	}
	tc->feed.ins[tc->feed.nins++] = tc->lexer.ampraw;
	return feed_as(tc, "&amp;", 5, 0) &&
	    feed_as(tc, tc->lexer.amp + 1, tc->lexer.namp - 1, 0);
}

/* After "&": 1 to go on, 2 at a whole reference, 0 when it is none. */
static int
amp_step(struct toolcall *tc, char c)
{
	static const char *const names[] = { "lt", "gt", "amp", "quot",
	    "apos" };
	const char *a = tc->lexer.amp + 1;
	size_t k = tc->lexer.namp - 1, i;
	int hex;

	if (a[0] == '#' && k >= 1) {
		hex = k >= 2 && a[1] == 'x';
		if (c == ';')
			goto end;
		if (k == 1 && c == 'x')
			goto more;
		if (hex ? (is_digit(c) || (c >= 'a' && c <= 'f') ||
		    (c >= 'A' && c <= 'F')) : is_digit(c))
			goto more;
		return 0;
	}
	if (k == 0 && c == '#')
		goto more;
	if (c == ';')
		goto end;
	for (i = 0; i < 5; i++)
		if (strlen(names[i]) > k && memcmp(names[i], a, k) == 0 &&
		    names[i][k] == c)
			goto more;
	return 0;
more:
	if (tc->lexer.namp + 2 > AMP_MAX)
		return 0;
	tc->lexer.amp[tc->lexer.namp++] = c;
	return 1;
end:
	if (a[0] == '#') {
		if (k < 2 || (a[1] == 'x' && k < 3))
			return 0;
	} else {
		for (i = 0; i < 5; i++)
			if (strlen(names[i]) == k && memcmp(names[i], a, k) == 0)
				break;
		if (i == 5)
			return 0;
	}
	tc->lexer.amp[tc->lexer.namp++] = c;
	return 2;
}

/*
 * At "&" with n bytes in hand: the length of the reference it starts, 0
 * when it starts none, -1 when the bytes end before that is known. The
 * same verdicts as amp_step's, byte by byte.
 */
static int
ref_len(const char *s, size_t n)
{
	const char *name;
	size_t i, d;
	int hex;

	if (n < 2)
		return -1;
	switch (s[1]) {
	case '#':
		i = 2;
		hex = i < n && s[i] == 'x';
		i += (size_t)hex;
		for (d = i; i < n && i < AMP_MAX - 1 && (is_digit(s[i]) ||
		    (hex && ((s[i] >= 'a' && s[i] <= 'f') ||
		    (s[i] >= 'A' && s[i] <= 'F')))); i++)
			;
		if (i == n)
			return -1;
		return s[i] == ';' && i > d ? (int)i + 1 : 0;
	case 'l':
		name = "&lt;";
		break;
	case 'g':
		name = "&gt;";
		break;
	case 'q':
		name = "&quot;";
		break;
	case 'a':
		if (n < 3)
			return -1;
		name = s[2] == 'p' ? "&apos;" : "&amp;";
		break;
	default:
		return 0;
	}
	for (i = 2; name[i] != '\0'; i++) {
		if (i == n)
			return -1;
		if (s[i] != name[i])
			return 0;
	}
	return (int)i;
}

/* Feeds the held run of "]" and then s[0..n), in one piece. */
static int
held_rsqb(struct toolcall *tc, const char *s, size_t n)
{
	size_t k = tc->lexer.rsqb;

	tc->lexer.rsqb = 0;
	buf_reset(&tc->tmp);
	buf_reserve(&tc->tmp, k + n);
	memset(tc->tmp.data, ']', k);
	memcpy(tc->tmp.data + k, s, n);
	tc->tmp.len = k + n;
	return feed_raw(tc, tc->tmp.data, tc->tmp.len);
}

/*
 * Keeps s[*kept..upto) in raw, after the bytes of s kept before: raw holds
 * every byte given to expat, and those the lexer passed.
 */
static void
raw_keep(struct toolcall *tc, const char *s, size_t *kept, size_t upto)
{
	if (upto > *kept) {
		buf_add(&tc->call.raw, s + *kept, upto - *kept);
		tc->scanned += upto - *kept;
		*kept = upto;
	}
}

/*
 * Whether expat must see the tag just lexed now: it may be "</tool>",
 * which ends the call, or a <tool> start tag, which may begin the next
 * call right inside this one. Either way nothing after it is lexed for
 * this call before expat has said, so that a call cut short by the next
 * leaves no bytes to read again but that tag.
 */
static int
end_tag(const struct toolcall *tc)
{
	if (tc->lexer.ntag >= 6 && memcmp(tc->lexer.tag, "</tool", 6) == 0)
		return 1;
	return tc->lexer.ntag >= 5 && memcmp(tc->lexer.tag, "<tool", 5) == 0 &&
	    (tc->lexer.ntag == 5 || tc->lexer.tag[5] == '/' ||
	    is_ws((unsigned char)tc->lexer.tag[5]));
}

/*
 * Lexes and feeds bytes of a call, s being at raw offset base, up to the
 * end of its </tool>: the bytes after it are neither lexed nor kept in
 * raw. Returns 0 when the call ended or failed; *used is how many bytes
 * of s are in raw.
 */
static int
call_bytes(struct toolcall *tc, const char *s, size_t m, size_t base,
    size_t *used)
{
	size_t i = 0, fs = 0;
	enum lexev ev;
	int r;

	*used = 0;
	if (tc->lexer.rsqb > 0) {
		/* a run of "]" held back from the last read goes on */
		while (i < m && s[i] == ']')
			i++;
		if (i == m) {
			raw_keep(tc, s, used, m);
			tc->lexer.rsqb += m;
			return 1;
		}
		if (s[i] == '>' && tc->lexer.rsqb + i >= 2)
			i++;
		raw_keep(tc, s, used, i);
		r = held_rsqb(tc, s, i);
		fs = i;
		if (!r)
			return 0;
	}
	for (;;) {
		while (tc->lexer.lex == L_AMP && i < m) {
			r = amp_step(tc, s[i]);
			raw_keep(tc, s, used, i + 1);
			if (r == 1) {
				fs = ++i;
				continue;
			}
			tc->lexer.lex = tc->lexer.ret;
			if (r == 2) {
				fs = ++i;
				if (!feed_raw(tc, tc->lexer.amp,
				    tc->lexer.namp))
					return 0;
			} else {
				fs = i;
				if (!amp_literal(tc))
					return 0;
			}
		}
		if (tc->lexer.lex == L_AMP)
			return 1;
		ev = lex(tc, s, m, &i, 1);
		raw_keep(tc, s, used, i);
		if (tc->lexer.ltset) {
			/* a token begins: a long one is held back from here */
			tc->lexer.ltset = 0;
			tc->feed.tokraw = base + tc->lexer.ltidx;
			tc->feed.tokins = tc->feed.nins;
			tc->feed.nextflush = tok_fed(tc) + FEED_MIN;
		}
		if (ev == LEX_TAG && end_tag(tc)) {
			/* whole tokens go to expat at once: the tag is answered */
			if (!feed_raw(tc, s + fs, i - fs) ||
			    !tc_expat_give_all(tc))
				return 0;
			fs = i;
			continue;
		}
		if (ev == LEX_CDEND) {
			if (!feed_raw(tc, s + fs, i - fs) ||
			    !tc_expat_give_all(tc))
				return 0;
			fs = i;
			while (s[i] == ']')
				i++;
			i++;
			continue;
		}
		if (ev == LEX_RSQB) {
			/* the run of "]" ends the read: hold it back */
			if (!feed_raw(tc, s + fs, i - fs) ||
			    !tc_expat_give_all(tc))
				return 0;
			raw_keep(tc, s, used, m);
			tc->lexer.rsqb += m - i;
			return 1;
		}
		if (ev == LEX_AMP && ref_len(s + i, m - i) == 0) {
			if (!feed_raw(tc, s + fs, i - fs))
				return 0;
			tc->lexer.amp[0] = '&';
			tc->lexer.namp = 1;
			tc->lexer.ampraw = base + i;
			fs = ++i;
			raw_keep(tc, s, used, i);
			if (!amp_literal(tc))
				return 0;
			continue;
		}
		if (ev == LEX_AMP) {
			/* the read ends inside it: decide byte by byte */
			if (!feed_raw(tc, s + fs, i - fs))
				return 0;
			tc->lexer.ret = tc->lexer.lex;
			tc->lexer.lex = L_AMP;
			tc->lexer.amp[0] = '&';
			tc->lexer.namp = 1;
			tc->lexer.ampraw = base + i;
			fs = ++i;
			raw_keep(tc, s, used, i);
			continue;
		}
		if (ev == LEX_ITEM) {
			/* what comes before the tag is judged before it */
			if (!feed_raw(tc, s + fs, i - fs) ||
			    !expat_give_whole(tc))
				return 0;
			tc_call_error(tc, tc_call_pos(tc, tc->feed.tokraw),
			    "max-items",
			    "tool call holds more than %zu elements and "
			    "attributes",
			    tc->lexer.maxitems);
			tc->call.skipfrom = base + i;
			return 0;
		}
		if (ev == LEX_END)
			break;
	}
	if (!feed_raw(tc, s + fs, m - fs))
		return 0;
	/* whole tokens go to expat at once: a </tool> is answered now */
	return !at_boundary(tc) || tc_expat_give_all(tc);
}

/*
 * The call stopped: expat closed it, or failed, or the call was refused
 * (a bare "&" with --strict, too many elements) and is skipped from
 * skipfrom. s[0..used) of the bytes being read are in raw from base on.
 * Returns how many of them are used.
 */
size_t
tc_call_stopped(struct toolcall *tc, size_t base, size_t used)
{
	size_t at, i;
	XML_Index fed;

	if (tc->feed.done) {
		at = tc_fed_to_raw(tc, tc->feed.endfed);
		if (!tc->call.bad && tc_emit_call(tc)) {
			tc->pos = tc_call_pos(tc, at);
			tc->mode = M_PROSE;
		} else
			tc_bad_end(tc, at);
		return tc_read_again(tc, at, base);
	}
	if (tc->feed.xerr) {
		fed = tc->call.restart ? (XML_Index)tc->feed.endfed :
		    XML_GetCurrentByteIndex(tc->feed.xp);
		at = tc_fed_to_raw(tc, fed < 0 ? 0 : (size_t)fed);
		if (at < OPEN_LEN)
			at = OPEN_LEN;
		if (at > tc->call.raw.len)
			at = tc->call.raw.len;
		if (!tc->call.restart)
			tc_call_error(tc, tc_call_pos(tc, at), "xml",
			    "malformed tool call: %s",
			    XML_ErrorString(XML_GetErrorCode(tc->feed.xp)));
		/* where the lexer stands at the error */
		tc->lexer.lex = L_TEXT;
		tc->lexer.sub = 0;
		i = OPEN_LEN;
		while (lex(tc, tc->call.raw.data, at, &i, 0) != LEX_END)
			;
		return skip_held(tc, at, base, used);
	}
	tc->feed.xspoilt = 1;
	return skip_held(tc, tc->call.skipfrom, base, used);
}

size_t
tc_call_chunk(struct toolcall *tc, const char *s, size_t n)
{
	size_t max = tc->opt.max_size, lim, m, base, used;
	int ok;

	lim = tc->call.raw.len < max ? max - tc->call.raw.len : 0;
	m = n < lim ? n : lim;
	base = tc->call.raw.len;
	ok = call_bytes(tc, s, m, base, &used);
	if (ok && m == n)
		return n;
	if (ok && tc_expat_give_all(tc)) {
		tc_call_error(tc, tc->call.cpos, "max-size",
		    "tool call larger than --max-size (%zu bytes)",
		    max);
		tc_raw_drop(tc);
		if (tc->lexer.lex == L_AMP)
			tc->lexer.lex = tc->lexer.ret;
		tc->mode = M_SKIP;
		return m;
	}
	return tc_call_stopped(tc, base, used);
}

size_t
tc_skip_chunk(struct toolcall *tc, const char *s, size_t n)
{
	size_t base = tc->call.raw.len, i = 0, end, room;
	int t = 0;

	if (!tc->call.rawgone) {
		/* the bytes are kept up to --max-size, for the error event */
		room = tc->opt.max_size > tc->call.raw.len ?
		    tc->opt.max_size - tc->call.raw.len : 0;
		if (room == 0) {
			tc_raw_drop(tc);
			return 0;
		}
		if (n > room)
			n = room;
	}
	while (lex(tc, s, n, &i, 0) == LEX_TAG)
		if ((t = tool_tag(tc)) != 0)
			break;
	/* up to the end of the skip, not the read's: the rest comes again */
	if (!tc->call.rawgone) {
		buf_add(&tc->call.raw, s, t == 0 ? n : i);
		tc->scanned += t == 0 ? n : i;
	}
	if (t == 0) {
		if (tc->call.rawgone)
			advance(&tc->pos, s, n);
		return n;
	}
	if (!tc->call.rawgone) {
		end = base + i - (t == 2 ? OPEN_LEN : 0);
		tc_bad_end(tc, end);
		return tc_read_again(tc, end, base);
	}
	advance(&tc->pos, s, i);
	tc_bad_end(tc, NONE);
	if (t == 2) {
		/* "<tool>" has no newline: step back over it */
		tc->pos.off -= OPEN_LEN;
		tc->pos.col -= OPEN_LEN;
		tc_call_begin(tc);
	}
	return i;
}
