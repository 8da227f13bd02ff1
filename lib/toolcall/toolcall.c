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
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <expat.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "config.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/jsonw.h"
#include "schema/jsschema.h"
#include "toolcall/pylit.h"
#include "toolcall/tcdialect.h"
#include "toolcall/tcopenai.h"
#include "toolcall/toolcall.h"
#include "toolcall/tooldefs.h"
#include "base/utf8.h"
#include "base/xalloc.h"

#define TEXT_MAX	65536	/* the longest text event, in bytes */
#define AMP_MAX		64	/* the longest reference looked at */
#define DEPTH_MAX	4096	/* elements nested in a call, <tool> included */
#define TAG_CAP		16	/* bytes of a tag kept to spot <tool>, </tool> */
#define FEED_MAX	((size_t)1 << 30)	/* what one XML_Parse takes */
#define FEED_MIN	((size_t)1 << 16)	/* a token held before expat sees it */
#define ITEM_BYTES	64	/* --max-size bytes per element or attribute */
#define ITEMS_MIN	4096	/* elements and attributes allowed at least */
#define NONE		((size_t)-1)
#define HOLD_SHARE	((size_t)1 << 20)	/* a value held, not copied, */
						/* or half of --max-size */

static const char open_tag[] = "<tool>";
#define OPEN_LEN	6

enum mode {
	M_PROSE, M_CALL, M_SKIP, M_RAW, M_RSKIP, M_THINK, M_GAP, M_BODY
};

/*
 * Reasoning: the blocks in which a model thinks before it answers. A
 * block opens where a call could, in prose (inside a call's markup its
 * marker is the call's content), and ends at the first closing marker of
 * its kind: an opening marker inside it is reasoning text, as everything
 * up to its end is. harmony's analysis channel
 * ("<|channel|>analysis<|message|>" to "<|end|>") is a block of this
 * kind: it joins the table with the harmony dialect.
 */
static const struct think {
	const char	*open, *close;
	size_t		 olen, clen;
} thinks[] = {
	{ "<think>", "</think>", 7, 8 },
	{ "<seed:think>", "</seed:think>", 12, 13 },
};
#define NTHINKS		(sizeof(thinks) / sizeof(thinks[0]))

/*
 * The markup that opens a call: the seed's <tool>, and those of the
 * dialects of open models (lib/tcdialect's forms), whose calls are held
 * whole until their closing markup and then read. An opening that forms
 * of several dialects share ("<tool_call>": qwen3, glm or hermes) is the
 * one --format reads, or under auto the one its next bytes say.
 */
#define D_FORM		(-1)		/* a dialect's: its forms say */
#define D_THINK		(-3)		/* not a call: reasoning begins */
#define D_STRAY		(-4)		/* its end, where none is open */
#define HOLD_MAX	TCD_MARKUP_MAX	/* the longest opener */
#define FORMS_MAX	4		/* forms of one opening */
#define OPENERS_MAX	48
#define MARKS_MAX	12		/* markup one part of a call waits for */
#define PEEK_STEP	16		/* bytes put in raw for a peek at once */
#define GAP_MAX		((size_t)1 << 16)	/* white space kept in a section */
#define HMESSAGE	"<|message|>"	/* ends a harmony message's head */
#define HCHANNEL	"<|channel|>"

struct opener {
	const char	*tag;
	size_t		 len;
	int		 dial;		/* 0 for <tool>, D_FORM, D_THINK, D_STRAY */
	const struct think *think;	/* D_THINK, D_STRAY: whose marker */
	const struct tcd_form *forms[FORMS_MAX];	/* D_FORM: its forms */
	size_t		 nforms;
};

/*
 * Where a dialect's call is: its opening's form not yet told, in a
 * harmony message's head, before qwen3's </function> (the form's after),
 * before its closing markup, before its JSON or in it, in a list; with
 * --tools, a qwen3 call before the ">" of its <function=NAME> (P_QNAME),
 * and, its tool's parameters known, in its values (P_QVAL), whose ends
 * tcd_qscan finds.
 */
enum phase {
	P_PEEK, P_HEAD, P_AFTER, P_CLOSE, P_VALUE, P_JSON, P_LIST, P_QNAME,
	P_QVAL
};

/* What markup a phase looks for does when found. */
enum { MK_CLOSE, MK_AFTER, MK_MESSAGE, MK_CHAN, MK_VALUE, MK_RESTART, MK_END };

struct mark {
	const char	*s;
	size_t		 len;
	int		 kind;
};

enum { PK_FORM, PK_MORE, PK_PROSE };		/* peek's answers */
enum { G_MORE, G_END, G_CALL, G_OTHER };	/* gap_look's */

/* Where the lexer of a call stands. */
enum lex {
	L_TEXT, L_AMP, L_LT, L_BANG, L_CDATA, L_COMMENT, L_PI, L_TAG, L_QUOTE
};

enum lexev { LEX_END, LEX_AMP, LEX_TAG, LEX_CDEND, LEX_RSQB, LEX_ITEM };

enum kind { K_STRING, K_TOKEN, K_OBJECT };

/* Whose content an element is: what may be inside it. */
enum role { R_TOOL, R_META, R_ARGS, R_ARG };

struct pos {
	unsigned long long	off;	/* bytes into the operand */
	unsigned long		line;
	unsigned long		col;
	int			cr;	/* just after a "\r" */
};

struct node {
	size_t		name, namelen;	/* in names */
	size_t		parent, first, last, next;
	size_t		same;		/* next sibling of the same name */
	size_t		tail;		/* the last of them, in the first */
	size_t		val, vallen;	/* in arena */
	enum kind	kind;
	enum role	role;
	int		haschild;
	int		nonws;		/* content that is not white space */
	int		dup;		/* a later sibling of the same name */
	int		multi;		/* the first of several of its name */
	int		cdata;		/* a string of CDATA sections alone */
};

/* A run of an element's content in the arena, already JSON-escaped. */
struct seg {
	size_t	off, len;
	int	cdata;
	int	ws;			/* only XML white space */
};

/*
 * Output held, in order: a value of a call's arena that is large enough
 * is held where it is, in the arena's own buffer (own: the segment frees
 * it), not copied.
 */
struct hseg {
	char	*data;
	size_t	 off, len;
	int	 own;
};

struct toolcall {
	struct toolcall_opts	 opt;
	unsigned long		 salt;		/* expat's, against hash flooding */
	FILE			*out;
	const char		*file;
	int			 status;
	int			 trouble;	/* a write failed */
	enum mode		 mode;
	struct pos		 pos;		/* of the next byte not consumed */
	int			 started;	/* past a byte order mark */
	size_t			 nbom;
	unsigned char		 u8[4];		/* a character cut by a read */
	size_t			 nu8;
	struct buf		 text;		/* events: prose to write */
	size_t			 tstart;
	struct buf		 tmp;
	struct buf		*sink;		/* output goes here, not to out */
	struct buf		 rec;		/* a typed call, to validate */
	struct buf		 val;		/* a value's text, unescaped */
	int			 wrapping;	/* a value as an array's item */
	int			 build;		/* values built as written */

	/* a call of an open model's dialect, held whole */
	int			 dial;		/* TCD_* of its form */
	const struct tcd_form *const *forms;	/* its opening's, */
	size_t			 nforms;
	const struct tcd_form	*form;		/* the one it is (NULL: untold) */
	const struct tcd_form	*startform;	/* the answer's first byte's */
	enum phase		 phase;
	size_t			 scan;		/* raw: no marker starts before; */
						/* where the next look begins */
	struct mark		 marks[MARKS_MAX];	/* what the phase looks for */
	size_t			 nmarks;
	char			 lead[2];	/* the bytes that begin them */
	int			 mstr;		/* outside JSON strings only */
	int			 hchan;		/* a harmony head's channel came */
	size_t			 qfrom;		/* P_QNAME: where the look began */
	int			 qknown;	/* P_QVAL: its tool's parameters */
	struct tcd_qscan	 qs;		/* are qp, its values found by qs */
	struct tcd_params	 qp;
	size_t			 qcap;
	char			 carry[HOLD_MAX + 4];	/* M_RSKIP: a marker's start; */
	size_t			 ncarry;	/* P_LIST: a quote's */
	json_t			*hargs;		/* JSON dialects: the arguments, */
	const struct buf	*htext;		/* or their JSON text */
	int			 jstr, jesc;	/* in a JSON string */
	struct tcd_jscan	 js;		/* P_JSON: where the value ends */
	struct pylit_scan	*py;		/* P_LIST: where the list ends */
	char			 hold[HOLD_MAX];	/* prose: an opener begun */
	size_t			 nhold;
	unsigned long		 ncalls;	/* calls written: their ids */
	struct buf		 cid;		/* the call's own id, or empty */
	struct buf		 ename;		/* a refused call's tool, escaped, */
	int			 named;		/* when its error knows it */
	int			 msgcont;	/* thread: the prose was cut */
	struct tcopenai		*oa;		/* --format openai: its reader */

	/* a section of calls */
	const struct tcd_form	*sect;		/* its form, or NULL */
	struct buf		 gap;		/* its bytes after its last call */
	size_t			 gfrom;		/* where prose would go on */
	size_t			 gscan;		/* where the look goes on */
	struct pos		 gpos;		/* where the gap begins */
	struct pos		 spos;		/* where the section began */
	unsigned long		 scalls;	/* its calls so far */
	int			 sawsep;	/* a separator after the last */
	int			 tent;		/* its first call may be prose */
	int			 answered;	/* the answer has begun */

	/* the openings the format reads */
	struct opener		 op[OPENERS_MAX];
	size_t			 nop;
	char			 lead2;		/* one begins so, not with '<' */
	const struct tcd_form	*start_brace;	/* "{" and "[" at the */
	const struct tcd_form	*start_bracket;	/* answer's first byte */

	/* the call being read */
	struct pos		 cpos;		/* of its "<" */
	struct buf		 raw;		/* its bytes from "<tool>" on */
	int			 rawgone;	/* over --max-size: not kept */
	size_t			*ins;		/* raw offsets of "&" fed as "&amp;" */
	size_t			 nins, insc;
	enum lex		 lex, ret;
	int			 sub;
	char			 q;
	char			 tag[TAG_CAP];
	size_t			 ntag;
	char			 amp[AMP_MAX];
	size_t			 namp;
	size_t			 ampraw;
	XML_Parser		 xp;
	int			 xspoilt;	/* a fresh parser for the next call */
	size_t			 npend;		/* bytes for expat, not yet given */
	int			 copied;	/* an "&amp;" was put in: */
	struct buf		 pend;		/* they are here, not in raw */
	size_t			 xfed;		/* bytes given to expat */
	size_t			 xdone;		/* of them, what expat has parsed */
	size_t			 tokraw;	/* raw offset of the last "<" */
	size_t			 tokins;	/* "&amp;"s inserted before it */
	size_t			 nextflush;	/* a long token: feed up to here */
	int			 ltset;		/* the lexer passed a "<" at ltidx */
	size_t			 ltidx;
	unsigned long long	 work;		/* bytes expat has scanned */
	unsigned long long	 scanned;	/* bytes our own scanners passed */
	int			 done;		/* expat closed </tool> */
	int			 xerr;		/* expat failed */
	size_t			 skipfrom;	/* refused: the raw offset to skip from */
	size_t			 items;		/* elements and attributes lexed */
	size_t			 maxitems;
	int			 restart;	/* <tool> again, right inside */
	size_t			 rsqb;		/* "]" held back at a read's end */
	size_t			 endfed;
	int			 bad;		/* its error is reported */
	struct buf		 msg;
	struct pos		 epos;
	struct pos		 wpos;		/* warnings walk forward */
	size_t			 wraw;

	/* its tree */
	struct node		*nodes;
	size_t			 nnodes, nodecap;
	size_t			 cur;
	size_t			 depth;
	int			 incdata;
	struct buf		 names;
	struct buf		 arena;
	struct seg		*segs;
	size_t			 nsegs, segcap;
	size_t			 content;
	size_t			 sname, tname, args;
	size_t			*hash;
	size_t			 hashcap;

	/* reasoning */
	const struct think	*think;		/* M_THINK: its block; NULL: */
						/* the template opened it */
	struct pos		 tpos;		/* where the block began */
	int			 rtext;		/* text events are reasoning */
	int			 undecided;	/* auto, before any marker: */
	struct buf		 held;		/* the records, after */
	struct hseg		*hsegs;		/* these, */
	size_t			 nhsegs, hsegcap;
	size_t			 hseglen;	/* which hold so many bytes, */
	int			 arenagone;	/* a segment owns the arena */
	size_t			 share;		/* a value as large is shared */
	struct diag_list	 hdiags;	/* the problems, */
	size_t			*hdat;		/* where each came, */
	size_t			 hdatcap;	/* (its room) */
	size_t			 hdbytes;	/* their size, */
	struct buf		 hraw;		/* its bytes, for events */
	size_t			 holdcap;	/* what they may take */
	char			 ccarry[HOLD_MAX];	/* a closer begun */
	size_t			 nccarry;
};

static void	process(struct toolcall *, const char *, size_t);
static void	hold_overflow(struct toolcall *);
static void	hold_release(struct toolcall *);

/*
 * utf8_count, 16 bytes at a time: a call's JSON is often one long line,
 * which advance counts whole.
 */
static size_t
count_chars(const char *s, size_t n)
{
	size_t i = 0, count = 0;
#ifdef __SSE2__
	/* continuation bytes, 0x80-0xbf, are the signed bytes below -64 */
	const __m128i lim = _mm_set1_epi8(-64), zero = _mm_setzero_si128();
	__m128i v, acc;
	uint64_t half[2];
	size_t k;

	while (i + 16 <= n) {
		/* at most 255 blocks before a byte's sum could overflow */
		acc = zero;
		for (k = 0; k < 255 && i + 16 <= n; k++, i += 16) {
			v = _mm_loadu_si128((const __m128i *)(const void *)
			    (s + i));
			acc = _mm_sub_epi8(acc, _mm_cmplt_epi8(v, lim));
		}
		_mm_storeu_si128((__m128i *)(void *)half,
		    _mm_sad_epu8(acc, zero));
		count += 16 * k - (size_t)(half[0] + half[1]);
	}
#endif
	/* i is 0 when s is NULL (n 0): no offset is applied to it */
	return i == n ? count : count + utf8_count(s + i, n - i);
}

/* Moves p over n bytes of s: lines on "\n", columns in characters. */
static void
advance(struct pos *p, const char *s, size_t n)
{
	size_t i = 0, lines = 0, last, k;
	int cr = p->cr;
#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n'), ret = _mm_set1_epi8('\r'),
	    zero = _mm_setzero_si128();
	__m128i v[4], r, sum, acc = zero;
	uint64_t half[2];

	/*
	 * Blocks without a carriage return, 64 bytes and then 16 at a time:
	 * their newlines are counted in bytes, summed by _mm_sad_epu8.
	 */
	for (; !cr && i + 64 <= n; i += 64) {
		for (k = 0; k < 4; k++)
			v[k] = _mm_loadu_si128((const __m128i *)(const void *)
			    (s + i + 16 * k));
		r = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v[0], ret),
		    _mm_cmpeq_epi8(v[1], ret)), _mm_or_si128(
		    _mm_cmpeq_epi8(v[2], ret), _mm_cmpeq_epi8(v[3], ret)));
		if (_mm_movemask_epi8(r) != 0)
			break;
		/* 0 - (-1 - 1) - (-1 - 1): at most 4 a byte */
		sum = _mm_sub_epi8(_mm_sub_epi8(zero, _mm_add_epi8(
		    _mm_cmpeq_epi8(v[0], nl), _mm_cmpeq_epi8(v[1], nl))),
		    _mm_add_epi8(_mm_cmpeq_epi8(v[2], nl),
		    _mm_cmpeq_epi8(v[3], nl)));
		acc = _mm_add_epi64(acc, _mm_sad_epu8(sum, zero));
	}
	for (; !cr && i + 16 <= n; i += 16) {
		v[0] = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		if (_mm_movemask_epi8(_mm_cmpeq_epi8(v[0], ret)) != 0)
			break;
		acc = _mm_add_epi64(acc, _mm_sad_epu8(_mm_sub_epi8(zero,
		    _mm_cmpeq_epi8(v[0], nl)), zero));
	}
	_mm_storeu_si128((__m128i *)(void *)half, acc);
	lines = (size_t)(half[0] + half[1]);
#endif
	/* a line ends at "\n", "\r" or "\r\n" */
	for (; i < n; i++) {
		if (s[i] == '\r' || (s[i] == '\n' && !cr))
			lines++;
		cr = s[i] == '\r';
	}
	p->off += n;
	if (lines == 0) {
		/* a "\n" that ends a "\r\n" is no character of the line */
		p->col += count_chars(s, n) - (n > 0 && p->cr && s[0] == '\n');
		p->cr = n > 0 ? s[n - 1] == '\r' : p->cr;
		return;
	}
	p->cr = s[n - 1] == '\r';
	for (last = n; s[last - 1] != '\n' && s[last - 1] != '\r'; last--)
		;
	p->line += lines;
	p->col = 1 + count_chars(s + last, n - last);
}

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

/* The first a or b in s[i..n), or n: a hermes call's scan for its end. */
static size_t
find_either(const char *s, size_t i, size_t n, char a, char b)
{
#ifdef __SSE2__
	const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b);
	__m128i v;
	int m;

	for (; i + 16 <= n; i += 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		m = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, va),
		    _mm_cmpeq_epi8(v, vb)));
		if (m != 0)
			return i + (size_t)__builtin_ctz((unsigned)m);
	}
#endif
	while (i < n && s[i] != a && s[i] != b)
		i++;
	return i;
}

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

static int
is_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

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
static size_t
held_size(const struct toolcall *tc)
{
	return tc->hseglen + tc->held.len + tc->hdbytes;
}

/* A problem, held with the output while it may be reasoning's. */
static void
diag_pos(struct toolcall *tc, enum diag_severity sev, const struct pos *p,
    const char *rule, const char *msg)
{
	if (!tc->undecided) {
		diag_say(tc, sev, p->line, p->col, rule, msg);
		return;
	}
	diag_list_add(&tc->hdiags, sev, p->line, p->col, rule, NULL, "%s",
	    msg);
	/* only as the list grows: a realloc may copy, whatever the size */
	if (tc->hdatcap < tc->hdiags.cap) {
		tc->hdatcap = tc->hdiags.cap;
		tc->hdat = xreallocarray(tc->hdat, tc->hdatcap,
		    sizeof(size_t));
	}
	tc->hdat[tc->hdiags.n - 1] = tc->hseglen + tc->held.len;
	tc->hdbytes += sizeof(struct diag_item) + strlen(msg) + strlen(rule) +
	    2;
	if (held_size(tc) > tc->holdcap)
		hold_overflow(tc);
}

/*
 * Output. A failed write is remembered and reported by the caller. While
 * the stream is undecided, the sink is the held records.
 */

static void
put(struct toolcall *tc, const char *s, size_t n)
{
	if (tc->sink != NULL) {
		buf_add(tc->sink, s, n);
		if (tc->sink == &tc->held && held_size(tc) > tc->holdcap)
			hold_overflow(tc);
	} else if (n > 0 && fwrite(s, 1, n, tc->out) != n)
		tc->trouble = 1;
}

static void
puts_lit(struct toolcall *tc, const char *s)
{
	put(tc, s, strlen(s));
}

/* s as a JSON string; invalid UTF-8 is written as U+FFFD. */
static void
put_string(struct toolcall *tc, const char *s, size_t n)
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
	put(tc, tc->tmp.data, tc->tmp.len);
}

static void
put_ulong(struct toolcall *tc, unsigned long v)
{
	buf_reset(&tc->tmp);
	buf_addu(&tc->tmp, v);
	put(tc, tc->tmp.data, tc->tmp.len);
}

static void
flush(struct toolcall *tc)
{
	if (tc->out == NULL)
		return;
	if (fflush(tc->out) == EOF || ferror(tc->out))
		tc->trouble = 1;
}

/* Text events. */

static void
text_event(struct toolcall *tc, const char *s, size_t n)
{
	puts_lit(tc, tc->rtext ? "{\"type\":\"reasoning\",\"text\":" :
	    "{\"type\":\"text\",\"text\":");
	put_string(tc, s, n);
	puts_lit(tc, "}\n");
	if (tc->opt.unbuffered)
		flush(tc);
}

/*
 * Thread: the answer's prose, the assistant's message event, its white
 * space at both ends trimmed (the layout around calls); blank, none.
 */
static int
message_event(struct toolcall *tc, const char *s, size_t n, int last)
{
	size_t a = 0;

	if (!tc->msgcont)
		while (a < n && is_ws((unsigned char)s[a]))
			a++;
	while (last && n > a && is_ws((unsigned char)s[n - 1]))
		n--;
	if (n == a)
		return 0;
	puts_lit(tc, "{\"type\":\"message\",\"role\":\"assistant\","
	    "\"content\":");
	put_string(tc, s + a, n - a);
	buf_reset(&tc->tmp);
	buf_printf(&tc->tmp, ",\"iteration\":%ld}\n", tc->opt.iteration);
	put(tc, tc->tmp.data, tc->tmp.len);
	if (tc->opt.unbuffered)
		flush(tc);
	return 1;
}

/*
 * Thread: prose held up to --max-size bytes; past that, a message event
 * of as much, cut between characters, so that memory stays bounded.
 */
static void
message_bound(struct toolcall *tc)
{
	const char *d = tc->text.data;
	size_t cut;

	while (tc->text.len > tc->opt.max_size) {
		cut = tc->opt.max_size;
		while (cut > 1 && ((unsigned char)d[cut] & 0xC0) == 0x80)
			cut--;
		if (message_event(tc, d, cut, 0))
			tc->msgcont = 1;
		memmove(tc->text.data, d + cut, tc->text.len - cut);
		tc->text.len -= cut;
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
		d = tc->text.data + tc->tstart;
		left = tc->text.len - tc->tstart;
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
		tc->tstart += cut;
	}
	if (tc->tstart > 0) {
		memmove(tc->text.data, tc->text.data + tc->tstart,
		    tc->text.len - tc->tstart);
		tc->text.len -= tc->tstart;
		tc->tstart = 0;
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
	return tc->mode == M_THINK || (tc->mode == M_BODY && tc->rtext);
}

static int
keeps_text(const struct toolcall *tc)
{
	if (tc->opt.thread)
		return !in_reasoning(tc);
	return tc->opt.events && (!in_reasoning(tc) ||
	    tc->opt.reasoning == TOOLCALL_REASON_EVENTS);
}

/* Text kept: with events, its lines written; with thread, held. */
static void
text_keep(struct toolcall *tc, const char *s, size_t n)
{
	buf_add(&tc->text, s, n);
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
			tc->answered = 1;
			return;
		}
}

static void
prose_ok(struct toolcall *tc, const char *s, size_t n)
{
	if (n == 0)
		return;
	if (!tc->answered)
		answer_seen(tc, s, n);
	advance(&tc->pos, s, n);
	if (keeps_text(tc))
		text_keep(tc, s, n);
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
		tc->answered = 1;
	if (!in_reasoning(tc)) {
		snprintf(msg, sizeof(msg), "invalid UTF-8: byte 0x%02x at "
		    "byte offset %llu", (unsigned char)s[0], tc->pos.off);
		diag_pos(tc, DIAG_ERROR, &tc->pos, "utf8", msg);
		tc->status = DIAG_INVALID;
	}
	/* one character, whatever its bytes: no line ends in it */
	advance(&tc->pos, s, n);
	tc->pos.col = col + 1;
	tc->pos.cr = 0;
	if (keeps_text(tc))
		text_keep(tc, "\xEF\xBF\xBD", 3);
}

/*
 * Prose bytes; a character cut at the end is held for the next read
 * unless final.
 */
static void
prose_text(struct toolcall *tc, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char seq[8];
	size_t i = 0, run = 0, want, k, take;

	if (tc->nu8 > 0 && n > 0) {
		/* finish the character the last read cut */
		take = n < 4 - tc->nu8 ? n : 4 - tc->nu8;
		memcpy(seq, tc->u8, tc->nu8);
		memcpy(seq + tc->nu8, s, take);
		k = u8_group(seq, tc->nu8 + take, &want);
		if (k == tc->nu8 + take && k < want) {
			memcpy(tc->u8 + tc->nu8, s, take);
			tc->nu8 += take;
			return;
		}
		if (u8_len(seq[0]) == k && u8_prefix(seq, k) == k)
			prose_ok(tc, (const char *)seq, k);
		else
			prose_bad(tc, (const char *)seq, k);
		i = run = k - tc->nu8;
		tc->nu8 = 0;
	}
	while ((i = find_nonascii(s, i, n)) < n) {
		k = u8_group(s + i, n - i, &want);
		if (u8_len(s[i]) == k && u8_prefix(s + i, k) == k) {
			i += k;
			continue;
		}
		prose_ok(tc, str + run, i - run);
		if (i + k == n && k < want) {
			memcpy(tc->u8, s + i, k);
			tc->nu8 = k;
			return;
		}
		prose_bad(tc, str + i, k);
		i += k;
		run = i;
	}
	prose_ok(tc, str + run, n - run);
}

/* A character cut by the last read, and by markup after it: a bad one. */
static void
prose_settle(struct toolcall *tc)
{
	size_t n;

	if (tc->nu8 > 0) {
		n = tc->nu8;
		tc->nu8 = 0;
		prose_bad(tc, (const char *)tc->u8, n);
	}
}

/*
 * Prose ends (a call or a reasoning block begins, or the input ends), or
 * reasoning does: write what is held.
 */
static void
prose_break(struct toolcall *tc)
{
	prose_settle(tc);
	if (tc->opt.thread) {
		message_event(tc, tc->text.data, tc->text.len, 1);
		tc->msgcont = 0;
	} else if (tc->opt.events && tc->text.len > 0)
		text_event(tc, tc->text.data, tc->text.len);
	buf_reset(&tc->text);
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
		switch (tc->lex) {
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
			tc->lex = L_LT;
			tc->ltset = 1;
			tc->ltidx = i++;
			break;
		case L_LT:
			if (c == '!') {
				tc->lex = L_BANG;
				tc->sub = 0;
				i++;
			} else if (c == '?') {
				tc->lex = L_PI;
				tc->sub = 0;
				i++;
			} else if (c == '/' || c == '_' || c == ':' ||
			    (unsigned)((c | 0x20) - 'a') < 26 || c >= 0x80) {
				tc->lex = L_TAG;
				tc->tag[0] = '<';
				tc->ntag = 1;
				/* a start tag: one element more */
				if (amps && c != '/' &&
				    ++tc->items > tc->maxitems) {
					*ip = i;
					return LEX_ITEM;
				}
			} else
				tc->lex = L_TEXT;	/* a stray "<" */
			break;
		case L_BANG:
			/* sub: bytes of "[CDATA[" matched, or -1 after one "-" */
			if (tc->sub == 0 && c == '-') {
				tc->sub = -1;
				i++;
			} else if (tc->sub == -1) {
				if (c == '-') {
					tc->lex = L_COMMENT;
					tc->sub = 0;
					i++;
				} else {
					tc->lex = L_TAG;
					tc->ntag = TAG_CAP;
				}
			} else if (tc->sub >= 0 && tc->sub < 7 &&
			    c == (unsigned char)"[CDATA["[tc->sub]) {
				if (++tc->sub == 7) {
					tc->lex = L_CDATA;
					tc->sub = 0;
				}
				i++;
			} else {
				tc->lex = L_TAG;
				tc->ntag = TAG_CAP;
			}
			break;
		case L_CDATA:
		case L_COMMENT:
			/* both end at two of a character and ">": "]]>", "-->" */
			q = tc->lex == L_CDATA ? ']' : '-';
			if (tc->sub == 0) {
				if ((p = memchr(s + i, q, n - i)) == NULL) {
					i = n;
					break;
				}
				i = (size_t)(p - s) + 1;
				tc->sub = 1;
			} else if (c == q) {
				tc->sub = 2;
				i++;
			} else {
				if (c == '>' && tc->sub == 2)
					tc->lex = L_TEXT;
				tc->sub = 0;
				i++;
			}
			break;
		case L_PI:
			if (c == '?')
				tc->sub = 1;
			else {
				if (c == '>' && tc->sub == 1)
					tc->lex = L_TEXT;
				tc->sub = 0;
			}
			i++;
			break;
		case L_TAG:
			if (c == '<') {
				/* a tag cut short: this "<" starts another */
				tc->lex = L_LT;
				tc->ltset = 1;
				tc->ltidx = i++;
				break;
			}
			i++;
			if (c == '>') {
				tc->lex = L_TEXT;
				*ip = i;
				return LEX_TAG;
			}
			if (c == '"' || c == '\'') {
				tc->q = (char)c;
				tc->lex = L_QUOTE;
			}
			if (tc->ntag < TAG_CAP)
				tc->tag[tc->ntag++] = (char)c;
			/* an "=" in a tag: one attribute more */
			if (c == '=' && amps && ++tc->items > tc->maxitems) {
				*ip = i;
				return LEX_ITEM;
			}
			break;
		case L_QUOTE:
			while (i < n && s[i] != tc->q && s[i] != '&' &&
			    s[i] != '<')
				i++;
			if (i == n)
				break;
			if (s[i] == '<') {
				/* no "<" in a value: the quote was never closed */
				tc->lex = L_LT;
				tc->ltset = 1;
				tc->ltidx = i++;
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
			tc->lex = L_TAG;
			if (tc->ntag < TAG_CAP)
				tc->tag[tc->ntag++] = tc->q;
			i++;
			break;
		case L_AMP:
			/* skipping ends a reference: its bytes are plain text */
			tc->lex = tc->ret;
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

	if (tc->ntag == 5 && memcmp(tc->tag, "<tool", 5) == 0)
		return 2;
	if (tc->ntag < 6 || tc->ntag >= TAG_CAP ||
	    memcmp(tc->tag, "</tool", 6) != 0)
		return 0;
	for (i = 6; i < tc->ntag; i++)
		if (!is_ws((unsigned char)tc->tag[i]))
			return 0;
	return 1;
}

/* Errors in a call. */

/* The stream position of the call's byte at raw offset off. */
static struct pos
call_pos(const struct toolcall *tc, size_t off)
{
	struct pos p = tc->cpos;

	advance(&p, tc->raw.data, off);
	return p;
}

static void
call_error(struct toolcall *tc, struct pos p, const char *rule,
    const char *fmt, ...)
{
	va_list ap;

	if (tc->bad)
		return;
	tc->bad = 1;
	tc->status = DIAG_INVALID;
	tc->epos = p;
	buf_reset(&tc->msg);
	va_start(ap, fmt);
	buf_vprintf(&tc->msg, fmt, ap);
	va_end(ap);
	diag_pos(tc, DIAG_ERROR, &p, rule, buf_cstr(&tc->msg));
}

/* An error at a byte expat was given: fed offsets count the "amp;"s. */
static size_t
fed_to_raw(const struct toolcall *tc, size_t fed)
{
	size_t lo = 0, hi = tc->nins, mid;

	/* how many insertions lie wholly before fed */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (tc->ins[mid] + 4 * mid + 5 <= fed)
			lo = mid + 1;
		else
			hi = mid;
	}
	return fed - 4 * lo;
}

/* The tree of a call, built by expat's handlers. */

static size_t	node_newn(struct toolcall *, const char *, size_t, size_t,
		    enum role);

static size_t
node_new(struct toolcall *tc, const char *name, size_t parent,
    enum role role)
{
	return node_newn(tc, name, strlen(name), parent, role);
}

/* A node of the call's tree, named by len bytes at name. */
static size_t
node_newn(struct toolcall *tc, const char *name, size_t len, size_t parent,
    enum role role)
{
	struct node *n;
	size_t id;

	if (tc->nnodes == tc->nodecap) {
		tc->nodecap = tc->nodecap ? 2 * tc->nodecap : 64;
		tc->nodes = xreallocarray(tc->nodes, tc->nodecap,
		    sizeof(*tc->nodes));
	}
	id = tc->nnodes++;
	n = &tc->nodes[id];
	memset(n, 0, sizeof(*n));
	n->name = tc->names.len;
	n->namelen = len;
	buf_add(&tc->names, name, len);
	buf_addc(&tc->names, '\0');
	n->parent = parent;
	n->first = n->last = n->next = n->same = NONE;
	n->role = role;
	n->kind = role == R_TOOL || role == R_ARGS ? K_OBJECT : K_STRING;
	if (parent != NONE) {
		if (tc->nodes[parent].last == NONE)
			tc->nodes[parent].first = id;
		else
			tc->nodes[tc->nodes[parent].last].next = id;
		tc->nodes[parent].last = id;
	}
	return id;
}

static struct pos
here(struct toolcall *tc, size_t extra)
{
	XML_Index fed = XML_GetCurrentByteIndex(tc->xp);

	return call_pos(tc, fed_to_raw(tc, (size_t)(fed < 0 ? 0 : fed) +
	    extra));
}

static void
structure(struct toolcall *tc, size_t extra, const char *fmt,
    const char *a, const char *b)
{
	call_error(tc, here(tc, extra), "structure", fmt, a, b);
}

static void XMLCALL
on_start(void *ud, const XML_Char *name, const XML_Char **atts)
{
	struct toolcall *tc = ud;
	struct node *p;
	size_t parent = tc->cur, *slot = NULL;
	enum role role = R_ARG;

	(void)atts;
	if (tc->depth++ == 0) {
		tc->cur = node_new(tc, "tool", NONE, R_TOOL);
		tc->content = tc->arena.len;
		return;
	}
	if (tc->depth == 2 && strcmp(name, "tool") == 0) {
		/* the model began the next call without ending this one */
		call_error(tc, tc->cpos, "truncated", "truncated tool call: "
		    "a new <tool> began before </tool>");
		tc->restart = 1;
		tc->endfed = (size_t)XML_GetCurrentByteIndex(tc->xp);
		XML_StopParser(tc->xp, XML_FALSE);
		return;
	}
	if (tc->depth > DEPTH_MAX) {
		/* no more of this call for expat, whose memory would grow */
		call_error(tc, here(tc, 0), "structure", "malformed tool "
		    "call: elements nested deeper than %d", DEPTH_MAX);
		XML_StopParser(tc->xp, XML_FALSE);
		return;
	}
	if (tc->bad)
		return;
	p = &tc->nodes[parent];
	switch (p->role) {
	case R_TOOL:
		if (strcmp(name, "server_name") == 0)
			slot = &tc->sname;
		else if (strcmp(name, "tool_name") == 0)
			slot = &tc->tname;
		else if (strcmp(name, "arguments") == 0)
			slot = &tc->args;
		else {
			structure(tc, 0, "malformed tool call: unexpected "
			    "<%s> in <tool>%s", name, "");
			return;
		}
		if (*slot != NONE) {
			structure(tc, 0, "malformed tool call: <%s> given "
			    "twice%s", name, "");
			return;
		}
		role = slot == &tc->args ? R_ARGS : R_META;
		break;
	case R_META:
		structure(tc, 0, "malformed tool call: <%s> must hold text, "
		    "not <%s>", tc->names.data + p->name, name);
		return;
	case R_ARG:
		if (p->nonws) {
			structure(tc, 0, "malformed tool call: <%s> mixes "
			    "text and elements%s", tc->names.data + p->name,
			    "");
			return;
		}
		break;
	case R_ARGS:
		break;
	}
	/* white space before the first child was layout */
	p->haschild = 1;
	p->kind = K_OBJECT;
	tc->arena.len = tc->content;
	tc->nsegs = 0;
	tc->cur = node_new(tc, name, parent, role);
	if (slot != NULL)
		*slot = tc->cur;
	tc->content = tc->arena.len;
	tc->incdata = 0;
}

static void XMLCALL
on_cdata_start(void *ud)
{
	struct toolcall *tc = ud;
	struct node *n;

	tc->incdata = 1;
	if (tc->bad || tc->cur == NONE)
		return;
	n = &tc->nodes[tc->cur];
	if ((n->role == R_ARG || n->role == R_META) && !n->haschild) {
		/* an empty section still makes the value a CDATA string */
		if (tc->nsegs == tc->segcap) {
			tc->segcap = tc->segcap ? 2 * tc->segcap : 16;
			tc->segs = xreallocarray(tc->segs, tc->segcap,
			    sizeof(*tc->segs));
		}
		tc->segs[tc->nsegs++] = (struct seg){ tc->arena.len, 0, 1, 1 };
	}
}

static void XMLCALL
on_cdata_end(void *ud)
{
	struct toolcall *tc = ud;

	tc->incdata = 0;
}

static void XMLCALL
on_text(void *ud, const XML_Char *s, int len)
{
	struct toolcall *tc = ud;
	struct node *n;
	struct seg *g;
	size_t i = 0, off, n_ = (size_t)len;
	int ws;

	if (tc->bad || tc->cur == NONE || len <= 0)
		return;
	n = &tc->nodes[tc->cur];
	while (i < n_ && is_ws((unsigned char)s[i]))
		i++;
	ws = i == n_;
	if (n->role == R_TOOL || n->role == R_ARGS || n->haschild) {
		if (ws)
			return;
		if (n->role == R_TOOL)
			structure(tc, i, "malformed tool call: text in <tool> "
			    "outside any element%s%s", "", "");
		else if (n->role == R_ARGS)
			structure(tc, i, "malformed tool call: text in "
			    "<arguments> outside any argument%s%s", "", "");
		else
			structure(tc, i, "malformed tool call: <%s> mixes "
			    "text and elements%s", tc->names.data + n->name, "");
		return;
	}
	if (!ws)
		n->nonws = 1;
	off = tc->arena.len;
	if (n_ == 1 && s[0] == '\n')
		buf_add(&tc->arena, "\\n", 2);	/* expat's every line end */
	else
		jsonw_escape(&tc->arena, s, n_);
	if (tc->nsegs > 0 && (g = &tc->segs[tc->nsegs - 1])->cdata ==
	    tc->incdata && g->off + g->len == off) {
		g->len += tc->arena.len - off;
		g->ws &= ws;
		return;
	}
	if (tc->nsegs == tc->segcap) {
		tc->segcap = tc->segcap ? 2 * tc->segcap : 16;
		tc->segs = xreallocarray(tc->segs, tc->segcap,
		    sizeof(*tc->segs));
	}
	tc->segs[tc->nsegs++] = (struct seg){ off, tc->arena.len - off,
	    tc->incdata, ws };
}

/* Trims XML white space off both ends of JSON-escaped text. */
static void
trim_escaped(const char *d, size_t *ap, size_t *bp)
{
	size_t a = *ap, b = *bp, k;

	for (;;) {
		if (a < b && d[a] == ' ')
			a++;
		else if (b - a >= 2 && d[a] == '\\' &&
		    (d[a + 1] == 'n' || d[a + 1] == 't' || d[a + 1] == 'r'))
			a += 2;
		else
			break;
	}
	for (;;) {
		if (b > a && d[b - 1] == ' ')
			b--;
		else if (b - a >= 2 && d[b - 2] == '\\' &&
		    (d[b - 1] == 'n' || d[b - 1] == 't' || d[b - 1] == 'r')) {
			/* an odd run of backslashes ends in an escape */
			for (k = 0; b - 2 - k > a && d[b - 3 - k] == '\\'; k++)
				;
			if (k % 2 != 0)
				break;
			b -= 2;
		} else
			break;
	}
	*ap = a;
	*bp = b;
}

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The seed's type inference: writes the JSON token for s to out and
 * returns 1, or returns 0 for a value that stays a string.
 */
static int
typed(const char *s, size_t n, struct buf *out)
{
	static const char max[] = "9223372036854775807";
	static const char min[] = "9223372036854775808";
	size_t i = 0, ds, nd, nf = 0, z;
	int neg = 0, dot = 0, nonzero = 0;
	char *copy, *end;
	double x;

	if (n == 4 && strncasecmp(s, "true", 4) == 0) {
		buf_add(out, "true", 4);
		return 1;
	}
	if (n == 5 && strncasecmp(s, "false", 5) == 0) {
		buf_add(out, "false", 5);
		return 1;
	}
	if (n == 4 && strncasecmp(s, "null", 4) == 0) {
		buf_add(out, "null", 4);
		return 1;
	}
	if (i < n && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	for (ds = i; i < n && is_digit(s[i]); i++)
		nonzero |= s[i] != '0';
	nd = i - ds;
	if (nd > 0 && i == n) {
		for (z = ds; z < n - 1 && s[z] == '0'; z++)
			;
		if (n - z > 19 || (n - z == 19 &&
		    memcmp(s + z, neg ? min : max, 19) > 0))
			return 0;
		if (neg && nonzero)
			buf_addc(out, '-');
		buf_add(out, s + z, n - z);
		return 1;
	}
	if (i < n && s[i] == '.') {
		dot = 1;
		for (i++; i < n && is_digit(s[i]); i++, nf++)
			nonzero |= s[i] != '0';
	}
	if (nd + nf == 0)
		return 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		if (i == n || !is_digit(s[i]))
			return 0;
		while (i < n && is_digit(s[i]))
			i++;
		dot = 1;
	}
	if (!dot || i != n)
		return 0;
	copy = xmemdup(s, n + 1);
	copy[n] = '\0';
	x = strtod(copy, &end);
	free(copy);
	/* past the doubles, or so small it would read back as zero */
	if (x - x != 0 || (x == 0 && nonzero))
		return 0;
	jsonw_number(out, x);
	return 1;
}

/* The value of an element without children, from its content runs. */
static void
leaf_value(struct toolcall *tc, struct node *n)
{
	char *d = tc->arena.data;
	size_t a = tc->content, b = tc->arena.len, i, dst;
	int cdata = 0, text = 0;

	for (i = 0; i < tc->nsegs; i++) {
		if (tc->segs[i].cdata)
			cdata = 1;
		else if (!tc->segs[i].ws)
			text = 1;
	}
	n->kind = K_STRING;
	n->cdata = cdata && !text;
	if (cdata && !text) {
		/* the sections alone: white space around them is layout */
		for (dst = a, i = 0; i < tc->nsegs; i++) {
			if (!tc->segs[i].cdata)
				continue;
			if (dst != tc->segs[i].off)
				memmove(d + dst, d + tc->segs[i].off,
				    tc->segs[i].len);
			dst += tc->segs[i].len;
		}
		b = dst;
	} else if (!cdata) {
		trim_escaped(d, &a, &b);
		if (n->role == R_ARG && tc->opt.tools == NULL &&
		    memchr(d + a, '\\', b - a) == NULL) {
			buf_reset(&tc->tmp);
			if (typed(d + a, b - a, &tc->tmp)) {
				n->kind = K_TOKEN;
				a = tc->content;
				tc->arena.len = a;
				buf_add(&tc->arena, tc->tmp.data, tc->tmp.len);
				b = tc->arena.len;
			}
		}
	}
	n->val = a;
	n->vallen = b - a;
	tc->arena.len = b;
}

static void XMLCALL
on_end(void *ud, const XML_Char *name)
{
	struct toolcall *tc = ud;
	struct node *n;

	(void)name;
	if (--tc->depth == 0) {
		tc->done = 1;
		tc->endfed = (size_t)XML_GetCurrentByteIndex(tc->xp) +
		    (size_t)XML_GetCurrentByteCount(tc->xp);
		XML_StopParser(tc->xp, XML_FALSE);
		return;
	}
	if (tc->bad)
		return;
	n = &tc->nodes[tc->cur];
	if (n->haschild || n->role == R_ARGS)
		tc->arena.len = tc->content;
	else
		leaf_value(tc, n);
	tc->cur = n->parent;
	tc->content = tc->arena.len;
	tc->nsegs = 0;
}

/* Writing a call. */

static size_t
name_hash(const char *s, size_t n)
{
	size_t h = 2166136261u, i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* Links the children of one object that share a name, in order. */
static void
group(struct toolcall *tc, size_t id)
{
	struct node *m, *f;
	size_t c, k = 0, cap = 16, h, *t;

	for (c = tc->nodes[id].first; c != NONE; c = tc->nodes[c].next)
		k++;
	if (k < 2)
		return;
	while (cap < 2 * k)
		cap *= 2;
	if (cap > tc->hashcap) {
		tc->hash = xreallocarray(tc->hash, cap, sizeof(*tc->hash));
		tc->hashcap = cap;
	}
	t = tc->hash;
	for (h = 0; h < cap; h++)
		t[h] = NONE;
	for (c = tc->nodes[id].first; c != NONE; c = m->next) {
		m = &tc->nodes[c];
		h = name_hash(tc->names.data + m->name, m->namelen) & (cap - 1);
		while (t[h] != NONE) {
			f = &tc->nodes[t[h]];
			if (f->namelen == m->namelen && memcmp(tc->names.data +
			    f->name, tc->names.data + m->name, m->namelen) == 0)
				break;
			h = (h + 1) & (cap - 1);
		}
		if (t[h] == NONE) {
			t[h] = c;
			m->tail = c;
			continue;
		}
		f = &tc->nodes[t[h]];
		f->multi = 1;
		m->dup = 1;
		tc->nodes[f->tail].same = c;
		f->tail = c;
	}
}

static void	emit_value(struct toolcall *, size_t);
static void	hold_arena(struct toolcall *, size_t, size_t);

static json_t	*emit_members(struct toolcall *, size_t,
		    const struct jsschema_place *);

/* An object as the seed's typing writes it: no schema's place. */
static void
emit_object(struct toolcall *tc, size_t id)
{
	json_decref(emit_members(tc, id, NULL));
}

/* A segment of held output, n bytes at off in data, which it may own. */
static void
hseg_add(struct toolcall *tc, char *data, size_t off, size_t n, int own)
{
	if (tc->nhsegs == tc->hsegcap) {
		tc->hsegcap = tc->hsegcap ? 2 * tc->hsegcap : 8;
		tc->hsegs = xreallocarray(tc->hsegs, tc->hsegcap,
		    sizeof(*tc->hsegs));
	}
	tc->hsegs[tc->nhsegs].data = data;
	tc->hsegs[tc->nhsegs].off = off;
	tc->hsegs[tc->nhsegs].len = n;
	tc->hsegs[tc->nhsegs].own = own;
	tc->nhsegs++;
	tc->hseglen += n;
}

/*
 * While undecided, a large value of the call being written is held in
 * the arena where it lies: the records before it become a segment, it
 * another, and the arena is the segments' once the call is written, so
 * that a large call is not held twice.
 */
static void
hold_arena(struct toolcall *tc, size_t off, size_t n)
{
	if (tc->held.len > 0) {
		hseg_add(tc, tc->held.data, 0, tc->held.len, 1);
		memset(&tc->held, 0, sizeof(tc->held));
	}
	hseg_add(tc, tc->arena.data, off, n, !tc->arenagone);
	tc->arenagone = 1;
	if (held_size(tc) > tc->holdcap)
		hold_overflow(tc);
}

/* The call is written: a new arena, when a segment has the old one. */
static void
arena_renew(struct toolcall *tc)
{
	if (!tc->arenagone)
		return;
	tc->arenagone = 0;
	memset(&tc->arena, 0, sizeof(tc->arena));
	buf_reserve(&tc->arena, 64);
}

static void
emit_value(struct toolcall *tc, size_t id)
{
	struct node *n = &tc->nodes[id];

	switch (n->kind) {
	case K_OBJECT:
		emit_object(tc, id);
		break;
	case K_TOKEN:
		put(tc, tc->arena.data + n->val, n->vallen);
		break;
	case K_STRING:
		put(tc, "\"", 1);
		if (n->vallen >= tc->share && tc->sink == &tc->held)
			hold_arena(tc, n->val, n->vallen);
		else
			put(tc, tc->arena.data + n->val, n->vallen);
		put(tc, "\"", 1);
		break;
	}
}

/* Typing by a tool's schema. */

/* The four hex digits at p, as jsonw_escape writes them. */
static unsigned long
hex4(const char *p)
{
	unsigned long c = 0;
	int i;

	for (i = 0; i < 4; i++)
		c = c * 16 + (unsigned long)(p[i] <= '9' ? p[i] - '0' :
		    (p[i] | 0x20) - 'a' + 10);
	return c;
}

/*
 * The text that s (n bytes, JSON-escaped as jsonw_escape writes it, so
 * well formed) stands for, in tc->val.
 */
static void
unescape(struct toolcall *tc, const char *s, size_t n)
{
	static const char esc[] = "b\bf\fn\nr\rt\t";
	const char *e = s + n, *p, *x;
	unsigned long c;
	char u8[4];

	buf_reset(&tc->val);
	while ((p = memchr(s, '\\', (size_t)(e - s))) != NULL) {
		buf_add(&tc->val, s, (size_t)(p - s));
		s = p + 2;
		if (p[1] == 'u') {
			c = hex4(p + 2);
			s = p + 6;
			if (c >= 0xD800 && c < 0xDC00 && e - s >= 6 &&
			    s[0] == '\\' && s[1] == 'u') {
				c = 0x10000 + ((c - 0xD800) << 10) +
				    (hex4(s + 2) - 0xDC00);
				s += 6;
			}
			buf_add(&tc->val, u8, utf8_encode((uint32_t)c, u8));
		} else if (p[1] != '\0' && (x = strchr(esc, p[1])) != NULL &&
		    (x - esc) % 2 == 0)
			buf_addc(&tc->val, x[1]);
		else		/* " \ / */
			buf_addc(&tc->val, p[1]);
	}
	buf_add(&tc->val, s, (size_t)(e - s));
}

/*
 * With validation, the typed arguments are also built as jansson values
 * while they are written (tc->build), so that the schema checks them
 * without parsing the text again. These are their leaves.
 */

/* JSON-escaped text (as jsonw_escape writes it) as a string value. */
static json_t *
string_json(struct toolcall *tc, const char *s, size_t n)
{
	if (memchr(s, '\\', n) == NULL)
		return json_stringn_nocheck(s, n);
	unescape(tc, s, n);
	return json_stringn_nocheck(tc->val.data, tc->val.len);
}

/* A token that typed() wrote, in tc->tmp, as a value. */
static json_t *
token_json(const struct buf *t)
{
	char *copy;
	json_t *j;

	if (t->data[0] == 'n')
		return json_null();
	if (t->data[0] == 't')
		return json_true();
	if (t->data[0] == 'f')
		return json_false();
	copy = xmemdup(t->data, t->len + 1);
	copy[t->len] = '\0';
	if (strpbrk(copy, ".eE") == NULL)
		j = json_integer(strtoll(copy, NULL, 10));
	else
		j = json_real(strtod(copy, NULL));
	free(copy);
	return j;
}

/* Whether v is of a type in want among null, boolean, object, array. */
static int
literal_fits(const json_t *v, unsigned want)
{
	return (json_is_null(v) && (want & JSSCHEMA_T_NULL)) ||
	    (json_is_boolean(v) && (want & JSSCHEMA_T_BOOLEAN)) ||
	    (json_is_object(v) && (want & JSSCHEMA_T_OBJECT)) ||
	    (json_is_array(v) && (want & JSSCHEMA_T_ARRAY));
}

/*
 * The n bytes at s, as models write a value of a type in want among
 * null, boolean, object and array: JSON text, or else a Python literal
 * (None, True, False, '...', a dict, a list, a tuple) read by lib/pylit,
 * never evaluated; with again, either one inside a string of the other
 * (JSON double-encoded, a quoted dict). A new value, or NULL when the
 * text is none of these, or not of a type wanted.
 */
static json_t *
literal(const char *s, size_t n, unsigned want, int again)
{
	struct pylit_error pe;
	json_t *j, *in;
	size_t end;
	int flags = JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL;
	json_error_t e;

	/* integers as written: an id keeps its digits */
	j = json_loadb(s, n, flags, &e);
	if (j == NULL && json_error_code(&e) == json_error_numeric_overflow)
		j = json_loadb(s, n, flags | JSON_DECODE_INT_AS_REAL, NULL);
	if (j == NULL && (j = pylit_parse(s, n, 0, &end, &pe)) != NULL &&
	    pylit_skip(s, n, end) != n) {
		json_decref(j);
		j = NULL;
	}
	if (j == NULL)
		return NULL;
	if (json_is_string(j) && again) {
		in = literal(json_string_value(j), json_string_length(j), want,
		    0);
		json_decref(j);
		return in;
	}
	if (literal_fits(j, want))
		return j;
	json_decref(j);
	return NULL;
}

static json_t	*json_typed(struct toolcall *, json_t *,
		    const struct jsschema_place *);

/*
 * Text s (JSON-escaped) that is a literal of a type in want, its strings
 * typed by the places of pl (json_typed), written as JSON: 1, or 0 when
 * it is not. With tc->build, *jp is its value.
 */
static int
put_literal(struct toolcall *tc, const char *s, size_t n,
    const struct jsschema_place *pl, unsigned want, json_t **jp)
{
	json_t *j;

	unescape(tc, s, n);
	if ((j = literal(tc->val.data, tc->val.len, want, 1)) == NULL)
		return 0;
	json_decref(json_typed(tc, j, pl));
	buf_reset(&tc->val);
	jsonw_exact(&tc->val, j);
	put(tc, tc->val.data, tc->val.len);
	if (tc->build)
		*jp = j;
	else
		json_decref(j);
	return 1;
}

static json_t	*emit_typed(struct toolcall *, size_t,
		    const struct jsschema_place *);

/* A string value from the arena, or NULL when not building. */
static json_t *
emit_string(struct toolcall *tc, size_t id)
{
	struct node *n = &tc->nodes[id];

	emit_value(tc, id);
	return tc->build ? string_json(tc, tc->arena.data + n->val,
	    n->vallen) : NULL;
}

/* Where no schema says: the value typed by the seed's rules, as today. */
static json_t *
emit_seed(struct toolcall *tc, size_t id)
{
	struct node *n = &tc->nodes[id];
	const char *d = tc->arena.data + n->val;
	size_t a = 0, b = n->vallen;

	/* a dialect's raw text carries no types: a string */
	if (n->kind != K_STRING || n->role != R_ARG || n->cdata ||
	    tc->dial != 0)
		return emit_string(tc, id);
	trim_escaped(d, &a, &b);
	buf_reset(&tc->tmp);
	if (a == 0 && b == n->vallen && memchr(d, '\\', b) == NULL &&
	    typed(d, b, &tc->tmp)) {
		put(tc, tc->tmp.data, tc->tmp.len);
		return tc->build ? token_json(&tc->tmp) : NULL;
	}
	return emit_string(tc, id);
}

/*
 * A value without child elements, as the types t of its place allow, in
 * this order: null, integer (5.0 is 5), number, boolean (any case), a
 * literal of null, boolean, object or array (literal()), string. A value
 * that fits none is an array of one item when t allows arrays, else the
 * string.
 */
static json_t *
emit_leaf(struct toolcall *tc, size_t id, const struct jsschema_place *pl,
    unsigned t)
{
	struct node *n = &tc->nodes[id];
	struct jsschema_place *ip;
	const char *d = tc->arena.data + n->val;
	size_t a = 0, b = n->vallen;
	json_t *j = NULL, *item;
	int k = 0;

	trim_escaped(d, &a, &b);
	buf_reset(&tc->tmp);
	if (memchr(d + a, '\\', b - a) == NULL && typed(d + a, b - a,
	    &tc->tmp)) {
		/* 'n'ull, 't'rue, 'f'alse, an integer or a number */
		k = tc->tmp.data[0];
		if (k != 'n' && k != 't' && k != 'f')
			k = memchr(tc->tmp.data, '.', tc->tmp.len) == NULL &&
			    memchr(tc->tmp.data, 'e', tc->tmp.len) == NULL ?
			    'i' : 'r';
	}
	if (((t & JSSCHEMA_T_NULL) && k == 'n') ||
	    ((t & JSSCHEMA_T_INTEGER) && k == 'i') ||
	    ((t & JSSCHEMA_T_NUMBER) && (k == 'i' || k == 'r')) ||
	    ((t & JSSCHEMA_T_BOOLEAN) && (k == 't' || k == 'f'))) {
		put(tc, tc->tmp.data, tc->tmp.len);
		return tc->build ? token_json(&tc->tmp) : NULL;
	}
	if ((t & (JSSCHEMA_T_NULL | JSSCHEMA_T_BOOLEAN | JSSCHEMA_T_OBJECT |
	    JSSCHEMA_T_ARRAY)) && put_literal(tc, d + a, b - a, pl, t, &j))
		return j;
	if (!(t & JSSCHEMA_T_STRING) && (t & JSSCHEMA_T_ARRAY) &&
	    !tc->wrapping) {
		/* once: a schema of arrays of arrays would go on */
		tc->wrapping = 1;
		put(tc, "[", 1);
		ip = jsschema_place_item(pl, 0);
		item = emit_typed(tc, id, ip);
		jsschema_place_free(ip);
		put(tc, "]", 1);
		tc->wrapping = 0;
		if (tc->build) {
			j = json_array();
			json_array_append_new(j, item);
		}
		return j;
	}
	return emit_string(tc, id);
}

/* The children of id, all of one name, as the items of an array. */
static int
one_name(const struct toolcall *tc, size_t id)
{
	const struct node *f, *m;
	size_t c;

	if ((c = tc->nodes[id].first) == NONE)
		return 0;
	f = &tc->nodes[c];
	for (; c != NONE; c = m->next) {
		m = &tc->nodes[c];
		if (m->namelen != f->namelen || memcmp(tc->names.data +
		    m->name, tc->names.data + f->name, f->namelen) != 0)
			return 0;
	}
	return 1;
}

/*
 * Whether the schema at ip declares a member named as element c: no
 * schema applies to an undeclared one, or none allows it.
 */
static int
declared(const struct toolcall *tc, const struct jsschema_place *ip,
    size_t c)
{
	struct jsschema_place *mp;
	unsigned t;

	mp = jsschema_place_member(ip, tc->names.data + tc->nodes[c].name,
	    tc->nodes[c].namelen);
	t = jsschema_place_types(mp);
	jsschema_place_free(mp);
	return t != JSSCHEMA_T_ALL && t != 0;
}

/* The elements of the chain from c (by same, or by next), as an array. */
static json_t *
emit_items(struct toolcall *tc, size_t c, int bysame,
    const struct jsschema_place *pl)
{
	struct jsschema_place *ip;
	json_t *a = tc->build ? json_array() : NULL, *v;
	size_t k = 0;

	put(tc, "[", 1);
	for (; c != NONE; c = bysame ? tc->nodes[c].same :
	    tc->nodes[c].next, k++) {
		if (k > 0)
			put(tc, ",", 1);
		ip = pl == NULL ? NULL : jsschema_place_item(pl, k);
		v = emit_typed(tc, c, ip);
		jsschema_place_free(ip);
		if (a != NULL)
			json_array_append_new(a, v);
	}
	put(tc, "]", 1);
	return a;
}

static json_t *
emit_members(struct toolcall *tc, size_t id, const struct jsschema_place *pl)
{
	struct jsschema_place *mp;
	struct node *m;
	json_t *o = tc->build ? json_object() : NULL, *v;
	size_t c;
	int first = 1;

	group(tc, id);
	put(tc, "{", 1);
	for (c = tc->nodes[id].first; c != NONE; c = m->next) {
		m = &tc->nodes[c];
		if (m->dup)
			continue;
		if (!first)
			put(tc, ",", 1);
		first = 0;
		put_string(tc, tc->names.data + m->name, m->namelen);
		put(tc, ":", 1);
		mp = pl == NULL ? NULL : jsschema_place_member(pl,
		    tc->names.data + m->name, m->namelen);
		if (m->multi)
			v = emit_items(tc, c, 1, mp);
		else
			v = emit_typed(tc, c, mp);
		jsschema_place_free(mp);
		if (o != NULL)
			json_object_setn_new_nocheck(o, tc->names.data +
			    m->name, m->namelen, v);
	}
	put(tc, "}", 1);
	return o;
}

/*
 * The value of element id as its place's types have it (the seed's
 * typing where no schema constrains it, or pl is NULL: the tool has no
 * schema). Child elements make an object, or the items of an array where
 * the place wants an array: the children when they all have one name and
 * the items are no objects, or objects that do not declare that name (a
 * wrapper, as <edits><edit>...</edit><edit>...</edit></edits>); else the
 * object as its one item. With tc->build, the value built; else NULL.
 */
static json_t *
emit_typed(struct toolcall *tc, size_t id, const struct jsschema_place *pl)
{
	struct jsschema_place *ip;
	json_t *j = NULL, *v;
	unsigned t, it;

	t = pl != NULL ? jsschema_place_types(pl) : JSSCHEMA_T_ALL;
	if (t == JSSCHEMA_T_ALL && tc->nodes[id].kind == K_OBJECT)
		return emit_members(tc, id, pl);
	if (t == JSSCHEMA_T_ALL)
		return emit_seed(tc, id);
	if (tc->nodes[id].kind != K_OBJECT)
		return emit_leaf(tc, id, pl, t);
	if ((t & JSSCHEMA_T_OBJECT) || !(t & JSSCHEMA_T_ARRAY))
		return emit_members(tc, id, pl);
	ip = jsschema_place_item(pl, 0);
	it = jsschema_place_types(ip);
	if (one_name(tc, id) && (!(it & JSSCHEMA_T_OBJECT) ||
	    !declared(tc, ip, tc->nodes[id].first)))
		j = emit_items(tc, tc->nodes[id].first, 0, pl);
	else {
		put(tc, "[", 1);
		v = emit_members(tc, id, ip);
		put(tc, "]", 1);
		if (tc->build) {
			j = json_array();
			json_array_append_new(j, v);
		}
	}
	jsschema_place_free(ip);
	return j;
}

/*
 * The arguments of a JSON dialect (hermes's, a server's) keep the types
 * the model wrote, but a string where its place allows no string is
 * typed as an element's text is (emit_leaf), so that what models write
 * for a value, True, None, {'a': 1}, "[1, 2]", "5", is the value: the
 * same ladder, the same array of one item. v is changed where it lies;
 * a string typed is given back, a new value, for its container to take
 * (NULL: v stays).
 */
static json_t *
json_leaf(struct toolcall *tc, const char *s, size_t n,
    const struct jsschema_place *pl, unsigned t)
{
	struct jsschema_place *ip;
	json_t *j, *item;
	size_t a = 0, b = n;
	int k = 0;

	while (a < b && is_ws((unsigned char)s[a]))
		a++;
	while (b > a && is_ws((unsigned char)s[b - 1]))
		b--;
	buf_reset(&tc->tmp);
	if (typed(s + a, b - a, &tc->tmp)) {
		k = tc->tmp.data[0];
		if (k != 'n' && k != 't' && k != 'f')
			k = memchr(tc->tmp.data, '.', tc->tmp.len) == NULL &&
			    memchr(tc->tmp.data, 'e', tc->tmp.len) == NULL ?
			    'i' : 'r';
	}
	if (((t & JSSCHEMA_T_NULL) && k == 'n') ||
	    ((t & JSSCHEMA_T_INTEGER) && k == 'i') ||
	    ((t & JSSCHEMA_T_NUMBER) && (k == 'i' || k == 'r')) ||
	    ((t & JSSCHEMA_T_BOOLEAN) && (k == 't' || k == 'f')))
		return token_json(&tc->tmp);
	if ((t & (JSSCHEMA_T_NULL | JSSCHEMA_T_BOOLEAN | JSSCHEMA_T_OBJECT |
	    JSSCHEMA_T_ARRAY)) && (j = literal(s + a, b - a, t, 1)) != NULL) {
		json_decref(json_typed(tc, j, pl));
		return j;
	}
	if (!(t & JSSCHEMA_T_ARRAY) || tc->wrapping)
		return NULL;
	/* once: a schema of arrays of arrays would go on */
	tc->wrapping = 1;
	ip = jsschema_place_item(pl, 0);
	item = json_stringn_nocheck(s, n);
	if ((j = json_typed(tc, item, ip)) != NULL) {
		json_decref(item);
		item = j;
	}
	jsschema_place_free(ip);
	tc->wrapping = 0;
	j = json_array();
	json_array_append_new(j, item);
	return j;
}

static json_t *
json_typed(struct toolcall *tc, json_t *v, const struct jsschema_place *pl)
{
	struct jsschema_place *cp;
	const char *key;
	json_t *m, *nv;
	void *it;
	size_t i;
	unsigned t;

	if (pl == NULL)
		return NULL;
	t = jsschema_place_types(pl);
	if (json_is_string(v))
		return t == JSSCHEMA_T_ALL || (t & JSSCHEMA_T_STRING) ? NULL :
		    json_leaf(tc, json_string_value(v), json_string_length(v),
		    pl, t);
	if (json_is_array(v))
		json_array_foreach(v, i, m) {
			cp = jsschema_place_item(pl, i);
			if ((nv = json_typed(tc, m, cp)) != NULL)
				json_array_set_new(v, i, nv);
			jsschema_place_free(cp);
		}
	else if (json_is_object(v))
		for (it = json_object_iter(v); it != NULL;
		    it = json_object_iter_next(v, it)) {
			key = json_object_iter_key(it);
			cp = jsschema_place_member(pl, key,
			    json_object_iter_key_len(it));
			if ((nv = json_typed(tc, json_object_iter_value(it),
			    cp)) != NULL)
				json_object_iter_set_new(v, it, nv);
			jsschema_place_free(cp);
		}
	return NULL;
}

/*
 * The tool a call names, by the text of its <tool_name>; NULL, with the
 * call's error made, for a name no definition has.
 */
static const struct tooldef *
call_tool(struct toolcall *tc)
{
	const struct tooldef *def;
	struct node *n = &tc->nodes[tc->tname];
	struct buf names = BUF_INIT;
	char q[80];

	unescape(tc, tc->arena.data + n->val, n->vallen);
	if ((def = tooldefs_find(tc->opt.tools, tc->val.data,
	    tc->val.len)) != NULL)
		return def;
	diag_quote(q, sizeof(q), tc->val.data, tc->val.len);
	tooldefs_names(tc->opt.tools, &names);
	call_error(tc, tc->cpos, "unknown-tool", "tool call to %s, which is "
	    "not defined (the tools are: %s)", q, buf_cstr(&names));
	buf_free(&names);
	return NULL;
}

/*
 * Checks the arguments of a call (built as they were written) against
 * the tool's schema: 0, or -1 with the call's error made, each schema
 * error with its JSON Pointer.
 */
static int
call_valid(struct toolcall *tc, const struct tooldef *def, json_t *args)
{
	struct jsschema_result res;
	struct buf m = BUF_INIT;
	size_t i;

	if (jsschema_validate(def->js, args, &res) == 0)
		return 0;
	for (i = 0; i < res.nerrors; i++) {
		buf_adds(&m, i > 0 ? "; " : "");
		if (res.errors[i].instance[0] != '\0') {
			buf_adds(&m, res.errors[i].instance);
			buf_adds(&m, ": ");
		}
		buf_adds(&m, res.errors[i].message);
	}
	jsschema_result_free(&res);
	call_error(tc, tc->cpos, "schema", "the arguments of \"%s\" do not "
	    "match its schema: %s", def->name, buf_cstr(&m));
	buf_free(&m);
	return -1;
}

/*
 * The call, with its arguments typed by def's schema (or the seed's);
 * with tc->build, their value, else NULL.
 */
static json_t *
put_call(struct toolcall *tc, const struct tooldef *def)
{
	struct jsschema_place *pl;
	json_t *args = NULL;

	if (tc->opt.thread)
		puts_lit(tc, "{\"type\":\"tool_call\",\"toolName\":");
	else
		puts_lit(tc, tc->opt.events ? "{\"type\":\"tool_call\","
		    "\"server_name\":" : "{\"server_name\":");
	if (tc->opt.thread)
		emit_value(tc, tc->tname);
	else if (tc->sname != NONE && tc->nodes[tc->sname].vallen > 0)
		emit_value(tc, tc->sname);
	else
		puts_lit(tc, "\"local\"");
	puts_lit(tc, tc->opt.thread ? ",\"args\":" : ",\"tool_name\":");
	if (!tc->opt.thread) {
		emit_value(tc, tc->tname);
		puts_lit(tc, ",\"arguments\":");
	}
	if (tc->htext != NULL)
		/* hermes, read without a tree (never with tc->build) */
		put(tc, tc->htext->data, tc->htext->len);
	else if (tc->hargs != NULL) {
		/* JSON, typed as the model wrote it, but for its strings */
		if (def != NULL && def->js != NULL) {
			pl = jsschema_place_root(def->js);
			json_decref(json_typed(tc, tc->hargs, pl));
			jsschema_place_free(pl);
		}
		buf_reset(&tc->val);
		jsonw_exact(&tc->val, tc->hargs);
		put(tc, tc->val.data, tc->val.len);
		if (tc->build)
			args = json_incref(tc->hargs);
	} else if (tc->args == NONE) {
		puts_lit(tc, "{}");
		if (tc->build)
			args = json_object();
	} else if (def == NULL)
		emit_object(tc, tc->args);
	else if (def->js == NULL)
		args = emit_members(tc, tc->args, NULL);
	else {
		pl = jsschema_place_root(def->js);
		args = emit_members(tc, tc->args, pl);
		jsschema_place_free(pl);
	}
	if (tc->opt.thread) {
		puts_lit(tc, ",\"toolCallId\":");
		buf_reset(&tc->tmp);
		/* the id the call came with, else one of ours */
		if (tc->cid.len > 0)
			buf_printf(&tc->tmp, "\"%s\"", buf_cstr(&tc->cid));
		else
			buf_printf(&tc->tmp, "\"call-%ld-%lu\"",
			    tc->opt.iteration, tc->ncalls + 1);
		buf_printf(&tc->tmp, ",\"iteration\":%ld", tc->opt.iteration);
		put(tc, tc->tmp.data, tc->tmp.len);
		puts_lit(tc, ",\"serverName\":");
		if (tc->sname != NONE && tc->nodes[tc->sname].vallen > 0)
			emit_value(tc, tc->sname);
		else
			puts_lit(tc, "\"local\"");
	}
	puts_lit(tc, "}\n");
	return args;
}

/*
 * The call is whole: write it, unless its tool_name is missing, or, with
 * tool definitions, the tool is not defined or its arguments do not
 * match its schema.
 */
static int
emit_call(struct toolcall *tc)
{
	const struct tooldef *def = NULL;
	struct buf *sink;
	json_t *args;
	int r;

	if (tc->tname == NONE || tc->nodes[tc->tname].vallen == 0) {
		call_error(tc, tc->cpos, "tool-name", "malformed tool call: "
		    "<tool_name> is missing or empty");
		return 0;
	}
	/* a refused call's error event names its tool */
	buf_reset(&tc->ename);
	buf_add(&tc->ename, tc->arena.data + tc->nodes[tc->tname].val,
	    tc->nodes[tc->tname].vallen);
	tc->named = 1;
	if (tc->opt.tools != NULL && (def = call_tool(tc)) == NULL)
		return 0;
	if (def == NULL || def->js == NULL || tc->opt.no_validate) {
		put_call(tc, def);
		arena_renew(tc);
	} else {
		buf_reset(&tc->rec);
		sink = tc->sink;
		tc->sink = &tc->rec;
		tc->build = 1;
		args = put_call(tc, def);
		tc->build = 0;
		tc->sink = sink;
		r = call_valid(tc, def, args);
		json_decref(args);
		if (r != 0)
			return 0;
		put(tc, tc->rec.data, tc->rec.len);
	}
	tc->ncalls++;
	tc->named = 0;
	buf_reset(&tc->cid);
	if (tc->opt.unbuffered)
		flush(tc);
	return 1;
}

/* Reading the stream. */

/*
 * Gives expat the first n pending bytes. Returns 0 when it stopped: the
 * call ended, or failed. work counts what expat scans: the bytes of a
 * token it could not finish are scanned again with the next ones.
 */
static int
hand(struct toolcall *tc, size_t n)
{
	const char *p;
	size_t off = 0, k;
	XML_Index at;

	/* until an "&amp;" is put in, the bytes for expat are raw's */
	p = tc->copied ? tc->pend.data : tc->raw.data + tc->xfed;
	while (off < n) {
		k = n - off < FEED_MAX ? n - off : FEED_MAX;
		tc->work += tc->xfed - tc->xdone + k;
		tc->xfed += k;
		tc->npend -= k;
		if (XML_Parse(tc->xp, p + off, (int)k, 0) != XML_STATUS_OK) {
			if (!tc->done)
				tc->xerr = tc->xspoilt = 1;
			return 0;
		}
		at = XML_GetCurrentByteIndex(tc->xp);
		tc->xdone = at < 0 ? 0 : (size_t)at;
		off += k;
	}
	if (tc->copied) {
		memmove(tc->pend.data, tc->pend.data + n, tc->pend.len - n);
		tc->pend.len -= n;
	}
	return 1;
}

/*
 * n more bytes for expat, held until handed. They are raw's own bytes,
 * already there, and are not copied, until bytes that differ are added.
 */
static void
hold(struct toolcall *tc, const char *s, size_t n, int same)
{
	if (!tc->copied && !same) {
		tc->copied = 1;
		buf_reset(&tc->pend);
		buf_add(&tc->pend, tc->raw.data + tc->xfed, tc->npend);
	}
	if (tc->copied)
		buf_add(&tc->pend, s, n);
	tc->npend += n;
}

/* Where the token the lexer is in began, in the bytes for expat. */
static size_t
tok_fed(const struct toolcall *tc)
{
	return tc->tokraw + 4 * tc->tokins;
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
		total = tc->xfed + tc->npend;
		if (total + n < tc->nextflush) {
			hold(tc, s, n, same);
			break;
		}
		k = tc->nextflush > total ? tc->nextflush - total : 0;
		hold(tc, s, k, same);
		s += k;
		n -= k;
		if (!hand(tc, tc->npend))
			return 0;
		start = tok_fed(tc);
		tc->nextflush = start + 2 * (tc->xfed - start);
		if (tc->nextflush <= tc->xfed)
			tc->nextflush = tc->xfed + FEED_MIN;
	}
	return 1;
}

/* Bytes of raw, the next ones after those given or held. */
static int
feed(struct toolcall *tc, const char *s, size_t n)
{
	return feed_as(tc, s, n, 1);
}

/* Gives expat every pending byte. Returns 0 when it stopped. */
static int
flush_all(struct toolcall *tc)
{
	return tc->npend == 0 || hand(tc, tc->npend);
}

/*
 * Gives expat the bytes before the token the lexer is in: they are
 * whole, and any error in them is found before what comes after.
 */
static int
flush_before(struct toolcall *tc)
{
	size_t start = tok_fed(tc);

	if (start <= tc->xfed)
		return 1;
	return hand(tc, start - tc->xfed);
}

/* Whether every byte the lexer has passed makes whole tokens. */
static int
at_boundary(const struct toolcall *tc)
{
	enum lex l = tc->lex == L_AMP ? tc->ret : tc->lex;

	return (l == L_TEXT && tc->rsqb == 0) || l == L_CDATA;
}

/* A fresh parser, when the last one failed or cannot be reset. */
static void
parser_reset(struct toolcall *tc)
{
	if (!tc->xspoilt && XML_ParserReset(tc->xp, "UTF-8") == XML_TRUE)
		return;
	XML_ParserFree(tc->xp);
	if ((tc->xp = XML_ParserCreate("UTF-8")) == NULL)
		xalloc_die();
	tc->xspoilt = 0;
}

static void
begin_call(struct toolcall *tc)
{
	prose_break(tc);
	tc->answered = 1;
	tc->mode = M_CALL;
	tc->cpos = tc->pos;
	buf_reset(&tc->raw);
	buf_add(&tc->raw, open_tag, OPEN_LEN);
	tc->rawgone = 0;
	tc->nins = 0;
	tc->lex = L_TEXT;
	tc->sub = 0;
	tc->namp = 0;
	tc->done = tc->xerr = tc->restart = tc->bad = 0;
	tc->items = 0;
	tc->rsqb = 0;
	tc->wpos = tc->cpos;
	tc->wraw = 0;
	tc->nnodes = 0;
	buf_reset(&tc->names);
	buf_reset(&tc->arena);
	tc->nsegs = 0;
	tc->content = 0;
	tc->cur = NONE;
	tc->depth = 0;
	tc->incdata = 0;
	tc->sname = tc->tname = tc->args = NONE;
	buf_reset(&tc->pend);
	tc->npend = 0;
	tc->copied = 0;
	tc->xfed = tc->xdone = 0;
	tc->tokraw = tc->tokins = 0;
	tc->nextflush = FEED_MIN;
	tc->ltset = 0;
	parser_reset(tc);
	/* one random salt for the stream, not a system call per call */
	XML_SetHashSalt(tc->xp, tc->salt);
	XML_SetUserData(tc->xp, tc);
	XML_SetElementHandler(tc->xp, on_start, on_end);
	XML_SetCharacterDataHandler(tc->xp, on_text);
	XML_SetCdataSectionHandler(tc->xp, on_cdata_start, on_cdata_end);
#ifdef HAVE_XML_SETREPARSEDEFERRALENABLED
	/* answer the moment </tool> is in, not when more input comes */
	XML_SetReparseDeferralEnabled(tc->xp, XML_FALSE);
#endif
	feed(tc, open_tag, OPEN_LEN);
}

/*
 * The error event of a bad call, its message in tc->msg at tc->epos,
 * the text it was read from raw (n bytes; NULL: not kept).
 */
static void
error_event(struct toolcall *tc, const char *raw, size_t n)
{
	if (tc->opt.thread) {
		/* as mcp-run writes a failed call's: its id and tool first */
		puts_lit(tc, "{\"type\":\"error\",");
		if (tc->cid.len > 0) {
			puts_lit(tc, "\"toolCallId\":\"");
			put(tc, tc->cid.data, tc->cid.len);
			puts_lit(tc, "\",");
		}
		if (tc->named) {
			puts_lit(tc, "\"toolName\":\"");
			put(tc, tc->ename.data, tc->ename.len);
			puts_lit(tc, "\",");
		}
		puts_lit(tc, "\"error\":");
		put_string(tc, tc->msg.data, tc->msg.len);
		buf_reset(&tc->tmp);
		buf_printf(&tc->tmp, ",\"recoverable\":true,\"iteration\":%ld}\n",
		    tc->opt.iteration);
		put(tc, tc->tmp.data, tc->tmp.len);
	} else if (tc->opt.events) {
		puts_lit(tc, "{\"type\":\"error\",\"message\":");
		put_string(tc, tc->msg.data, tc->msg.len);
		puts_lit(tc, ",\"line\":");
		put_ulong(tc, tc->epos.line);
		puts_lit(tc, ",\"column\":");
		put_ulong(tc, tc->epos.col);
		puts_lit(tc, ",\"raw\":");
		if (raw == NULL)
			puts_lit(tc, "null");
		else
			put_string(tc, raw, n);
		puts_lit(tc, "}\n");
	}
	tc->named = 0;
	buf_reset(&tc->cid);
	if (tc->opt.unbuffered)
		flush(tc);
}

/* A bad call ends at raw offset end (NONE when its bytes are gone). */
static void
end_bad(struct toolcall *tc, size_t end)
{
	if (tc->rawgone || end == NONE)
		error_event(tc, NULL, 0);
	else
		error_event(tc, tc->raw.data, end);
	if (!tc->rawgone && end != NONE)
		tc->pos = call_pos(tc, end);
	tc->mode = M_PROSE;
}

/* Past --max-size: the call's bytes are no longer kept. */
static void
drop_raw(struct toolcall *tc)
{
	tc->pos = call_pos(tc, tc->raw.len);
	tc->rawgone = 1;
	buf_free(&tc->raw);
}

/*
 * The call ended at raw offset end, but raw holds more, from base on
 * out of the bytes being read: returns how many of those are used, after
 * reading again any held bytes of an earlier read that come after end.
 */
static size_t
rest(struct toolcall *tc, size_t end, size_t base)
{
	char *again;
	size_t n;

	if (end >= base)
		return end - base;
	n = base - end;
	tc->scanned += n;
	again = xmemdup(tc->raw.data + end, n);
	process(tc, again, n);
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

	while (lex(tc, tc->raw.data, tc->raw.len, &i, 0) == LEX_TAG)
		if ((t = tool_tag(tc)) != 0)
			break;
	if (t == 0) {
		tc->mode = M_SKIP;
		return used;
	}
	end = t == 1 ? i : i - OPEN_LEN;
	end_bad(tc, end);
	return rest(tc, end, base);
}

static int
amp_literal(struct toolcall *tc)
{
	/* what comes before the "&" is judged before it */
	if (!(at_boundary(tc) ? flush_all(tc) : flush_before(tc)))
		return 0;
	if (tc->opt.strict) {
		call_error(tc, call_pos(tc, tc->ampraw), "bare-ampersand",
		    "malformed tool call: bare \"&\" (write &amp;)");
		tc->skipfrom = tc->ampraw + 1;
		return 0;
	}
	advance(&tc->wpos, tc->raw.data + tc->wraw, tc->ampraw - tc->wraw);
	tc->wraw = tc->ampraw;
	diag_pos(tc, DIAG_WARNING, &tc->wpos, "bare-ampersand",
	    "bare \"&\" taken as text (write &amp;)");
	if (tc->nins == tc->insc) {
		tc->insc = tc->insc ? 2 * tc->insc : 16;
		tc->ins = xreallocarray(tc->ins, tc->insc, sizeof(*tc->ins));
	}
	tc->ins[tc->nins++] = tc->ampraw;
	return feed_as(tc, "&amp;", 5, 0) &&
	    feed_as(tc, tc->amp + 1, tc->namp - 1, 0);
}

/* After "&": 1 to go on, 2 at a whole reference, 0 when it is none. */
static int
amp_step(struct toolcall *tc, char c)
{
	static const char *const names[] = { "lt", "gt", "amp", "quot",
	    "apos" };
	const char *a = tc->amp + 1;
	size_t k = tc->namp - 1, i;
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
	if (tc->namp + 2 > AMP_MAX)
		return 0;
	tc->amp[tc->namp++] = c;
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
	tc->amp[tc->namp++] = c;
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
	size_t k = tc->rsqb;

	tc->rsqb = 0;
	buf_reset(&tc->tmp);
	buf_reserve(&tc->tmp, k + n);
	memset(tc->tmp.data, ']', k);
	memcpy(tc->tmp.data + k, s, n);
	tc->tmp.len = k + n;
	return feed(tc, tc->tmp.data, tc->tmp.len);
}

/*
 * Keeps s[*kept..upto) in raw, after the bytes of s kept before: raw holds
 * every byte given to expat, and those the lexer passed.
 */
static void
keep(struct toolcall *tc, const char *s, size_t *kept, size_t upto)
{
	if (upto > *kept) {
		buf_add(&tc->raw, s + *kept, upto - *kept);
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
	if (tc->ntag >= 6 && memcmp(tc->tag, "</tool", 6) == 0)
		return 1;
	return tc->ntag >= 5 && memcmp(tc->tag, "<tool", 5) == 0 &&
	    (tc->ntag == 5 || tc->tag[5] == '/' ||
	    is_ws((unsigned char)tc->tag[5]));
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
	if (tc->rsqb > 0) {
		/* a run of "]" held back from the last read goes on */
		while (i < m && s[i] == ']')
			i++;
		if (i == m) {
			keep(tc, s, used, m);
			tc->rsqb += m;
			return 1;
		}
		if (s[i] == '>' && tc->rsqb + i >= 2)
			i++;
		keep(tc, s, used, i);
		r = held_rsqb(tc, s, i);
		fs = i;
		if (!r)
			return 0;
	}
	for (;;) {
		while (tc->lex == L_AMP && i < m) {
			r = amp_step(tc, s[i]);
			keep(tc, s, used, i + 1);
			if (r == 1) {
				fs = ++i;
				continue;
			}
			tc->lex = tc->ret;
			if (r == 2) {
				fs = ++i;
				if (!feed(tc, tc->amp, tc->namp))
					return 0;
			} else {
				fs = i;
				if (!amp_literal(tc))
					return 0;
			}
		}
		if (tc->lex == L_AMP)
			return 1;
		ev = lex(tc, s, m, &i, 1);
		keep(tc, s, used, i);
		if (tc->ltset) {
			/* a token begins: a long one is held back from here */
			tc->ltset = 0;
			tc->tokraw = base + tc->ltidx;
			tc->tokins = tc->nins;
			tc->nextflush = tok_fed(tc) + FEED_MIN;
		}
		if (ev == LEX_TAG && end_tag(tc)) {
			/* whole tokens go to expat at once: the tag is answered */
			if (!feed(tc, s + fs, i - fs) || !flush_all(tc))
				return 0;
			fs = i;
			continue;
		}
		if (ev == LEX_CDEND) {
			if (!feed(tc, s + fs, i - fs) || !flush_all(tc))
				return 0;
			fs = i;
			while (s[i] == ']')
				i++;
			i++;
			continue;
		}
		if (ev == LEX_RSQB) {
			/* the run of "]" ends the read: hold it back */
			if (!feed(tc, s + fs, i - fs) || !flush_all(tc))
				return 0;
			keep(tc, s, used, m);
			tc->rsqb += m - i;
			return 1;
		}
		if (ev == LEX_AMP && ref_len(s + i, m - i) == 0) {
			if (!feed(tc, s + fs, i - fs))
				return 0;
			tc->amp[0] = '&';
			tc->namp = 1;
			tc->ampraw = base + i;
			fs = ++i;
			keep(tc, s, used, i);
			if (!amp_literal(tc))
				return 0;
			continue;
		}
		if (ev == LEX_AMP) {
			/* the read ends inside it: decide byte by byte */
			if (!feed(tc, s + fs, i - fs))
				return 0;
			tc->ret = tc->lex;
			tc->lex = L_AMP;
			tc->amp[0] = '&';
			tc->namp = 1;
			tc->ampraw = base + i;
			fs = ++i;
			keep(tc, s, used, i);
			continue;
		}
		if (ev == LEX_ITEM) {
			/* what comes before the tag is judged before it */
			if (!feed(tc, s + fs, i - fs) || !flush_before(tc))
				return 0;
			call_error(tc, call_pos(tc, tc->tokraw), "max-items",
			    "tool call holds more than %zu elements and "
			    "attributes", tc->maxitems);
			tc->skipfrom = base + i;
			return 0;
		}
		if (ev == LEX_END)
			break;
	}
	if (!feed(tc, s + fs, m - fs))
		return 0;
	/* whole tokens go to expat at once: a </tool> is answered now */
	return !at_boundary(tc) || flush_all(tc);
}

/*
 * The call stopped: expat closed it, or failed, or the call was refused
 * (a bare "&" with --strict, too many elements) and is skipped from
 * skipfrom. s[0..used) of the bytes being read are in raw from base on.
 * Returns how many of them are used.
 */
static size_t
call_stopped(struct toolcall *tc, size_t base, size_t used)
{
	size_t at, i;
	XML_Index fed;

	if (tc->done) {
		at = fed_to_raw(tc, tc->endfed);
		if (!tc->bad && emit_call(tc)) {
			tc->pos = call_pos(tc, at);
			tc->mode = M_PROSE;
		} else
			end_bad(tc, at);
		return rest(tc, at, base);
	}
	if (tc->xerr) {
		fed = tc->restart ? (XML_Index)tc->endfed :
		    XML_GetCurrentByteIndex(tc->xp);
		at = fed_to_raw(tc, fed < 0 ? 0 : (size_t)fed);
		if (at < OPEN_LEN)
			at = OPEN_LEN;
		if (at > tc->raw.len)
			at = tc->raw.len;
		if (!tc->restart)
			call_error(tc, call_pos(tc, at), "xml", "malformed "
			    "tool call: %s",
			    XML_ErrorString(XML_GetErrorCode(tc->xp)));
		/* where the lexer stands at the error */
		tc->lex = L_TEXT;
		tc->sub = 0;
		i = OPEN_LEN;
		while (lex(tc, tc->raw.data, at, &i, 0) != LEX_END)
			;
		return skip_held(tc, at, base, used);
	}
	tc->xspoilt = 1;
	return skip_held(tc, tc->skipfrom, base, used);
}

static size_t
call_chunk(struct toolcall *tc, const char *s, size_t n)
{
	size_t max = tc->opt.max_size, lim, m, base, used;
	int ok;

	lim = tc->raw.len < max ? max - tc->raw.len : 0;
	m = n < lim ? n : lim;
	base = tc->raw.len;
	ok = call_bytes(tc, s, m, base, &used);
	if (ok && m == n)
		return n;
	if (ok && flush_all(tc)) {
		call_error(tc, tc->cpos, "max-size", "tool call larger than "
		    "--max-size (%zu bytes)", max);
		drop_raw(tc);
		if (tc->lex == L_AMP)
			tc->lex = tc->ret;
		tc->mode = M_SKIP;
		return m;
	}
	return call_stopped(tc, base, used);
}

static size_t
skip_chunk(struct toolcall *tc, const char *s, size_t n)
{
	size_t base = tc->raw.len, i = 0, end, room;
	int t = 0;

	if (!tc->rawgone) {
		/* the bytes are kept up to --max-size, for the error event */
		room = tc->opt.max_size > tc->raw.len ?
		    tc->opt.max_size - tc->raw.len : 0;
		if (room == 0) {
			drop_raw(tc);
			return 0;
		}
		if (n > room)
			n = room;
	}
	while (lex(tc, s, n, &i, 0) == LEX_TAG)
		if ((t = tool_tag(tc)) != 0)
			break;
	/* up to the end of the skip, not the read's: the rest comes again */
	if (!tc->rawgone) {
		buf_add(&tc->raw, s, t == 0 ? n : i);
		tc->scanned += t == 0 ? n : i;
	}
	if (t == 0) {
		if (tc->rawgone)
			advance(&tc->pos, s, n);
		return n;
	}
	if (!tc->rawgone) {
		end = base + i - (t == 2 ? OPEN_LEN : 0);
		end_bad(tc, end);
		return rest(tc, end, base);
	}
	advance(&tc->pos, s, i);
	end_bad(tc, NONE);
	if (t == 2) {
		/* "<tool>" has no newline: step back over it */
		tc->pos.off -= OPEN_LEN;
		tc->pos.col -= OPEN_LEN;
		begin_call(tc);
	}
	return i;
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

	for (i = 0; f != NULL && i < tc->nop; i++) {
		o = &tc->op[i];
		if (o->dial == D_FORM && strcmp(o->tag, tag) == 0) {
			if (o->nforms < FORMS_MAX)
				o->forms[o->nforms++] = f;
			return;
		}
	}
	if (tc->nop == OPENERS_MAX)
		return;
	o = &tc->op[tc->nop++];
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
		tc->lead2 = tag[0];
}

static void
openers_make(struct toolcall *tc)
{
	const struct tcd_form *f;
	size_t n, i;

	if (tc->opt.format == TOOLCALL_FMT_TOOL ||
	    tc->opt.format == TOOLCALL_FMT_AUTO)
		opener_add(tc, open_tag, 0, NULL, NULL);
	if (tc->opt.reasoning != TOOLCALL_REASON_CALLS)
		for (i = 0; i < NTHINKS; i++) {
			opener_add(tc, thinks[i].open, D_THINK, &thinks[i], NULL);
			opener_add(tc, thinks[i].close, D_STRAY, &thinks[i],
			    NULL);
		}
	f = tcd_forms(&n);
	for (i = 0; i < n; i++) {
		if (!form_on(tc, &f[i]))
			continue;
		if (!(f[i].flags & TCD_F_START))
			opener_add(tc, f[i].open, D_FORM, NULL, &f[i]);
		else if (f[i].open[0] == '{')
			tc->start_brace = &f[i];
		else
			tc->start_bracket = &f[i];
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

	for (i = 0; i < tc->nop; i++) {
		o = &tc->op[i];
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

static void	begin_raw(struct toolcall *, const struct opener *);
static void	begin_start(struct toolcall *, const struct tcd_form *);
static size_t	form_begin(struct toolcall *);
static void	begin_think(struct toolcall *, const struct opener *);
static void	stray(struct toolcall *, const struct opener *);

static void
begin(struct toolcall *tc, const struct opener *o)
{
	if (o->dial == 0)
		begin_call(tc);
	else if (o->dial == D_THINK)
		begin_think(tc, o);
	else if (o->dial == D_STRAY)
		stray(tc, o);
	else
		begin_raw(tc, o);
}

/* The next byte of s[i..n) that may begin an opener, or NULL. */
static const char *
next_lead(const struct toolcall *tc, const char *s, size_t i, size_t n)
{
	if (tc->lead2 == 0)
		return memchr(s + i, '<', n - i);
	i = find_either(s, i, n, '<', tc->lead2);
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
		prose_text(tc, s, n);
		return n;
	}
	if (s[i] == '{')
		f = tc->start_brace;
	else if (s[i] == '[')
		f = tc->start_bracket;
	if (f == NULL)
		return NONE;
	prose_text(tc, s, i);
	begin_start(tc, f);
	return i + 1;
}

static size_t
prose(struct toolcall *tc, const char *s, size_t n)
{
	const struct opener *o = NULL;
	const char *lt;
	size_t i = 0, j, k;
	int r = 1;

	if (tc->nhold > 0) {
		/* an opener begun at the end of the last read */
		while (i < n && r == 1) {
			tc->hold[tc->nhold++] = s[i++];
			r = opener_at(tc, tc->hold, tc->nhold, &o);
		}
		if (r == 2) {
			tc->nhold = 0;
			begin(tc, o);
			return i;
		}
		if (r == 1)
			return n;
		/* no opener: the last byte is read again, it may be a '<' */
		k = tc->nhold - 1;
		tc->nhold = 0;
		prose_text(tc, tc->hold, k);
		return i - 1;
	}
	if (!tc->answered && (k = answer_start(tc, s, n)) != NONE)
		return k;
	while ((lt = next_lead(tc, s, i, n)) != NULL) {
		j = (size_t)(lt - s);
		r = opener_at(tc, lt, n - j, &o);
		if (r == 2) {
			prose_text(tc, s, j);
			begin(tc, o);
			return j + o->len;
		}
		if (r == 1) {
			prose_text(tc, s, j);
			memcpy(tc->hold, lt, n - j);
			tc->nhold = n - j;
			return n;
		}
		i = j + 1;
	}
	prose_text(tc, s, n);
	return n;
}

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
	const struct tcd_form *f = tc->form;
	size_t i;

	if (f == NULL) {
		/* not told yet: the form that is read when nothing says */
		f = tc->forms[0];
		for (i = 0; i < tc->nforms; i++)
			if (tc->forms[i]->peek == NULL) {
				f = tc->forms[i];
				break;
			}
	}
	switch (tc->phase) {
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
	if (tc->nmarks == MARKS_MAX)
		return;
	tc->marks[tc->nmarks].s = m;
	tc->marks[tc->nmarks].len = strlen(m);
	tc->marks[tc->nmarks].kind = kind;
	tc->nmarks++;
}

/*
 * The markup that cuts the call short: the same opening again (for a
 * harmony message, either opening), or in a section the opening of its
 * next call and the section's end.
 */
static void
marks_cut(struct toolcall *tc)
{
	const struct tcd_form *f = tc->form, *g;
	size_t i, n;

	if (tc->sect != NULL) {
		if (tc->sect->call_open != NULL)
			mark_add(tc, tc->sect->call_open, MK_RESTART);
		for (i = 0; tc->sect->end[i] != NULL; i++)
			mark_add(tc, tc->sect->end[i], MK_END);
		return;
	}
	if (!(f->flags & TCD_F_HEAD)) {
		mark_add(tc, f->open, MK_RESTART);
		return;
	}
	g = tcd_forms(&n);
	for (i = 0; i < n; i++)
		if ((g[i].flags & TCD_F_HEAD) && (tc->phase != P_HEAD ||
		    tc->hchan || strcmp(g[i].open, HCHANNEL) != 0))
			mark_add(tc, g[i].open, MK_RESTART);
}

/* The markup that the phase looks for, and the bytes that may begin it. */
static void
marks_set(struct toolcall *tc)
{
	const struct tcd_form *f = tc->form;
	size_t i;

	tc->nmarks = 0;
	tc->mstr = 0;
	switch (tc->phase) {
	case P_HEAD:
		mark_add(tc, HMESSAGE, MK_MESSAGE);
		if (!tc->hchan)
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
		tc->mstr = (f->flags & TCD_F_STRINGS) && !tc->bad;
		break;
	}
	marks_cut(tc);
	tc->lead[0] = tc->lead[1] = '<';
	for (i = 0; i < tc->nmarks; i++)
		if (tc->marks[i].s[0] != '<')
			tc->lead[tc->lead[0] == '<' ? 0 : 1] = tc->marks[i].s[0];
	if (tc->lead[0] != '<' && tc->lead[1] == '<' && tc->nmarks > 0 &&
	    tc->marks[0].s[0] != '<') {
		/* no markup of the phase begins with '<': both leads its own */
		for (i = 0; i < tc->nmarks && tc->marks[i].s[0] != '<'; i++)
			;
		if (i == tc->nmarks)
			tc->lead[1] = tc->lead[0];
	}
}

/* 2 when the m bytes of t are at p (avail there), 1 when its start is. */
static int
mark_at(const char *p, size_t avail, const char *t, size_t m)
{
	if (avail >= m)
		return memcmp(p, t, m) == 0 ? 2 : 0;
	return memcmp(p, t, avail) == 0;
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
		if (tc->mstr) {
			if (tc->jesc) {
				tc->jesc = 0;
				continue;
			}
			/* in a string, its end or an escape; else one or markup */
			i = tc->jstr ? find_either(d, i, n, '"', '\\') :
			    find_either(d, i, n, '"', '<');
			if (i == n)
				break;
			if (d[i] == '\\') {
				tc->jesc = 1;
				continue;
			}
			if (d[i] == '"') {
				tc->jstr = !tc->jstr;
				continue;
			}
		} else if ((i = find_either(d, i, n, tc->lead[0],
		    tc->lead[1])) == n)
			break;
		part = 0;
		for (j = 0; j < tc->nmarks; j++) {
			r = mark_at(d + i, n - i, tc->marks[j].s,
			    tc->marks[j].len);
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

	if (tc->scan < old) {
		/* markup begun in the last read: its bytes and a few of s */
		t = old - tc->scan;
		m = n < HOLD_MAX + 2 ? n : HOLD_MAX + 2;
		buf_reset(&tc->tmp);
		buf_add(&tc->tmp, tc->raw.data + tc->scan, t);
		buf_add(&tc->tmp, s, m);
		e = mark_find(tc, tc->tmp.data, 0, t + m, k, &stop);
		tc->scanned += (e != NONE ? e : stop);
		if (e != NONE)
			return tc->scan + e;
		if (stop < t || m == n) {
			tc->scan += stop;
			return NONE;
		}
		tc->scan = old + (stop - t);
	}
	from = tc->scan - old;
	e = mark_find(tc, s, from, n, k, &stop);
	tc->scanned += stop - from;
	tc->scan = old + stop;
	return e == NONE ? NONE : old + e;
}

/* Raw holds the bytes of the call up to offset upto, s following old. */
static void
raw_upto(struct toolcall *tc, const char *s, size_t old, size_t upto)
{
	size_t got = tc->raw.len - old;

	if (upto > tc->raw.len) {
		buf_add(&tc->raw, s + got, upto - tc->raw.len);
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

	if (tc->scan < old) {
		r = tcd_jscan(&tc->js, tc->raw.data + tc->scan,
		    old - tc->scan);
		if (r != NONE) {
			tc->scanned += r;
			return tc->scan + r;
		}
		tc->scanned += old - tc->scan;
		tc->scan = old;
	}
	from = tc->scan - old;
	if (from >= n)
		return NONE;
	r = tcd_jscan(&tc->js, s + from, n - from);
	if (r != NONE) {
		tc->scanned += r;
		return old + from + r;
	}
	tc->scanned += n - from;
	tc->scan = old + n;
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
	struct pylit_scan *py = tc->py;
	char tmp[HOLD_MAX];
	size_t nc = tc->ncarry, m, from = 0;

	tc->ncarry = 0;
	if (nc > 0) {
		m = n < 8 ? n : 8;
		memcpy(tmp, tc->carry, nc);
		memcpy(tmp + nc, s, m);
		py->off = 0;
		if (pylit_scan(py, tmp, nc + m) == PYLIT_DONE)
			return py->off > nc ? py->off - nc : 0;
		if (py->off < nc) {
			/* still waiting: s was too short to tell */
			memcpy(tc->carry, tmp + py->off, nc + m - py->off);
			tc->ncarry = nc + m - py->off;
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
	memcpy(tc->carry, s + py->off, n - py->off);
	tc->ncarry = n - py->off;
	return NONE;
}

/* The same, for a list whose bytes from scan on are held up to old. */
static size_t
list_next(struct toolcall *tc, size_t old, const char *s, size_t n)
{
	size_t r, from;

	if (tc->scan < old) {
		r = list_scan(tc, tc->raw.data + tc->scan, old - tc->scan);
		if (r != NONE)
			return tc->scan + r;
		tc->scan = old;
	}
	from = tc->scan - old;
	if (from >= n)
		return NONE;
	r = list_scan(tc, s + from, n - from);
	tc->scan = r == NONE ? old + n : old + from + r;
	return r == NONE ? NONE : old + from + r;
}

/* Adds s (n bytes, JSON-escaped) to the arena as the value of node id. */
static void
raw_value(struct toolcall *tc, size_t id, const char *s, size_t n)
{
	struct node *v = &tc->nodes[id];

	v->val = tc->arena.len;
	jsonw_escape(&tc->arena, s, n);
	v->vallen = tc->arena.len - v->val;
	v->kind = K_STRING;
}

/*
 * The bytes of [off, off + n) in the call are UTF-8: 0, or -1 with the
 * call's error made at the first bad byte.
 */
static int
raw_utf8(struct toolcall *tc, size_t off, size_t n)
{
	size_t ok = utf8_valid(tc->raw.data + off, n);

	if (ok == n)
		return 0;
	call_error(tc, call_pos(tc, off + ok), "utf8", "invalid UTF-8: byte "
	    "0x%02x at byte offset %llu", (unsigned char)tc->raw.data[off +
	    ok], call_pos(tc, off + ok).off);
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
	const char *nul = memchr(tc->raw.data + off, '\0', n);

	if (nul == NULL)
		return raw_utf8(tc, off, n);
	call_error(tc, call_pos(tc, (size_t)(nul - tc->raw.data)), "dialect",
	    "malformed %s call: a name holds a NUL byte",
	    tcd_dialect_name(tc->dial));
	return -1;
}

/* The call c of a dialect as the tree emit_call writes: 0, or -1. */
static int
raw_tree(struct toolcall *tc, const struct tcd_call *c)
{
	const char *d = tc->raw.data;
	size_t i, id, namelen;
	const char *name;

	tc->nnodes = 0;
	buf_reset(&tc->names);
	buf_reset(&tc->arena);
	tc->sname = tc->args = NONE;
	name = tcd_name(c, d, &namelen);
	if (c->namebuf == NULL && raw_name(tc, c->name, c->namelen) != 0)
		return -1;
	tc->tname = node_new(tc, "tool_name", NONE, R_META);
	raw_value(tc, tc->tname, name, namelen);
	if (c->json != NULL) {
		tc->hargs = json_incref(c->json);
		return 0;
	}
	if (c->argtext.data != NULL) {
		tc->htext = &c->argtext;
		return 0;
	}
	tc->args = node_new(tc, "arguments", NONE, R_ARGS);
	for (i = 0; i < c->nargs; i++) {
		if (raw_name(tc, c->args[i].key, c->args[i].keylen) != 0 ||
		    raw_utf8(tc, c->args[i].val, c->args[i].vallen) != 0)
			return -1;
		id = node_newn(tc, d + c->args[i].key, c->args[i].keylen,
		    tc->args, R_ARG);
		raw_value(tc, id, d + c->args[i].val, c->args[i].vallen);
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

	tc->raw.len = end;
	memset(&c, 0, sizeof(c));
	/* a tree of the arguments only for a schema to type them by */
	if (tc->opt.tools == NULL)
		flags |= TCD_TEXT;
	r = tcd_parse_params(tc->dial, tc->raw.data, end, flags,
	    tc->qknown ? &tc->qp : NULL, &c);
	if (r != 0) {
		if (cut)
			call_error(tc, tc->cpos, "truncated", "truncated tool "
			    "call: input ended before %s", tc->form->cut);
		else
			call_error(tc, call_pos(tc, c.erroff), "dialect", "%s",
			    c.err);
		end_bad(tc, end);
	} else if (raw_tree(tc, &c) == 0 && emit_call(tc)) {
		tc->pos = call_pos(tc, end);
		tc->mode = M_PROSE;
	} else
		end_bad(tc, end);
	if (r == 0 && cut) {
		snprintf(msg, sizeof(msg), "input ended before %s: the call "
		    "is read without it", tc->form->cut);
		diag_pos(tc, DIAG_WARNING, &tc->cpos, "truncated", msg);
	}
	tcd_call_free(&c);
	json_decref(tc->hargs);
	tc->hargs = NULL;
	tc->htext = NULL;
}

/* A pythonic list's error, at its place in the stream. */
static void
list_error(struct toolcall *tc, struct pylit_error *err)
{
	static const char pre[] = "invalid pythonic call: ";
	struct pos p = call_pos(tc, err->offset), q;
	const char *text = err->text;

	if (strcmp(err->rule, "utf8") == 0) {
		call_error(tc, p, "utf8", "invalid UTF-8: byte 0x%02x at byte "
		    "offset %llu", (unsigned char)tc->raw.data[err->offset],
		    p.off);
		return;
	}
	if (strcmp(err->rule, "duplicate-key") == 0) {
		q = call_pos(tc, err->first);
		pylit_dup_text(err, q.line, q.col);
	}
	if (strncmp(text, pre, sizeof(pre) - 1) == 0)
		text += sizeof(pre) - 1;
	call_error(tc, p, "dialect", "malformed pythonic call: %s", text);
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
	struct pos cpos = tc->cpos;
	size_t e, ncalls = 0, i;

	tc->raw.len = end;
	if (pylit_calls(tc->raw.data, end, 0, &e, &calls, &ncalls,
	    &err) != 0) {
		list_error(tc, &err);
		end_bad(tc, end);
		return;
	}
	for (i = 0; i < ncalls; i++) {
		tc->nnodes = 0;
		buf_reset(&tc->names);
		buf_reset(&tc->arena);
		tc->sname = tc->args = NONE;
		tc->tname = node_new(tc, "tool_name", NONE, R_META);
		raw_value(tc, tc->tname, tc->raw.data + calls[i].name,
		    calls[i].namelen);
		tc->hargs = json_incref(calls[i].args);
		tc->bad = 0;
		tc->cpos = call_pos(tc, calls[i].name);
		if (!emit_call(tc)) {
			tc->cpos = cpos;
			end_bad(tc, end);
		}
		tc->cpos = cpos;
		json_decref(tc->hargs);
		tc->hargs = NULL;
	}
	pylit_calls_free(calls, ncalls);
	tc->pos = call_pos(tc, end);
	tc->mode = M_PROSE;
}

/*
 * Sections of calls. The gap holds the section's bytes since its last
 * call ended (since its opening, before its first), and gscan is where
 * the look at them goes on; gpos is where the gap begins in the stream.
 */
static void
sect_open(struct toolcall *tc, const struct tcd_form *f, size_t mend)
{
	tc->sect = f;
	buf_reset(&tc->gap);
	buf_add(&tc->gap, tc->raw.data, mend);
	tc->gfrom = tc->gscan = mend;
	tc->gpos = tc->spos = tc->cpos;
	tc->scalls = 0;
	tc->sawsep = 0;
	if (!(f->flags & TCD_F_FIRST))
		tc->mode = M_GAP;
}

/* A call of the section opens at raw's first byte: what reads it. */
static void
call_phase(struct toolcall *tc)
{
	const struct tcd_form *f = tc->sect;

	tc->form = f;
	tc->dial = f->dialect;
	tc->jstr = tc->jesc = 0;
	if (f->flags & TCD_F_LIST) {
		tc->phase = P_LIST;
		pylit_scan_init(tc->py, 0);
		tc->ncarry = 0;
		tc->scan = 0;
	} else if (f->call_open == NULL) {
		tc->phase = P_JSON;
		memset(&tc->js, 0, sizeof(tc->js));
		tc->scan = 0;
	} else {
		tc->phase = P_CLOSE;
		tc->scan = strlen(f->call_open);
		marks_set(tc);
	}
}

/*
 * The call of a section is over (tc->pos just after it): back between
 * its calls. A list that opened the output is a section of one call.
 */
static void
sect_resume(struct toolcall *tc)
{
	tc->scalls++;
	tc->tent = 0;
	if ((tc->sect->flags & TCD_F_LIST) && (tc->sect->flags & TCD_F_FIRST)) {
		tc->sect = NULL;
		return;
	}
	tc->mode = M_GAP;
	buf_reset(&tc->gap);
	tc->gfrom = tc->gscan = 0;
	tc->gpos = tc->pos;
	tc->sawsep = 0;
}

/* The call ended at raw offset end; its section goes on. */
static size_t
raw_after(struct toolcall *tc, size_t end, size_t old)
{
	if (tc->sect != NULL && tc->mode == M_PROSE)
		sect_resume(tc);
	return rest(tc, end, old);
}

/* The section ends at gap offset c: prose from there. */
static void
gap_close(struct toolcall *tc, size_t c)
{
	tc->pos = tc->gpos;
	advance(&tc->pos, tc->gap.data, c);
	tc->mode = M_PROSE;
	tc->sect = NULL;
}

/*
 * The gap's bytes from offset from on are read again: those of earlier
 * reads now, those of s (from base on) by the caller. How many of s are
 * used.
 */
static size_t
gap_rest(struct toolcall *tc, size_t from, size_t base)
{
	char *again;
	size_t n;

	if (from >= base) {
		buf_reset(&tc->gap);
		return from - base;
	}
	n = base - from;
	again = xmemdup(tc->gap.data + from, n);
	buf_reset(&tc->gap);
	tc->scanned += n;
	process(tc, again, n);
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
	buf_reset(&tc->raw);
	buf_add(&tc->raw, tc->gap.data, q);
	tc->cpos = tc->gpos;
	tc->rawgone = 0;
	tc->bad = 0;
	call_error(tc, call_pos(tc, q), "dialect", "malformed %s call: %s",
	    tcd_dialect_name(tc->sect->dialect), what);
	end_bad(tc, q);
	tc->sect = NULL;
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
	const struct tcd_form *f = tc->sect;
	const char *d = tc->gap.data;
	size_t n = tc->gap.len, q = tc->gscan, i, len;
	int part, r;

	for (;;) {
		while (q < n && is_ws((unsigned char)d[q]))
			q++;
		tc->gscan = q;
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
		if (f->sep != 0 && d[q] == f->sep && tc->scalls > 0 &&
		    !tc->sawsep) {
			tc->sawsep = 1;
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
	tc->cpos = tc->gpos;
	advance(&tc->cpos, tc->gap.data, q);
	tc->pos = tc->cpos;
	buf_reset(&tc->raw);
	buf_add(&tc->raw, tc->gap.data + q, len);
	buf_reset(&tc->gap);
	tc->mode = M_RAW;
	tc->rawgone = 0;
	tc->bad = 0;
	call_phase(tc);
}

/*
 * Between the calls of a section: white space and separators pass, the
 * section's end ends it, a call's opening opens the call; any other
 * byte ends an open-ended section (prose goes on from the end of its
 * last call) and is the error of any other.
 */
static size_t
gap_chunk(struct toolcall *tc, const char *s, size_t n)
{
	const struct tcd_form *f = tc->sect;
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
		if (tc->gap.len + (k - i) > GAP_MAX) {
			if (f->flags & TCD_F_OPENEND) {
				/* so much white space: the section has ended */
				base = tc->gap.len - i;
				gap_close(tc, tc->gfrom);
				return gap_rest(tc, tc->gfrom, base);
			}
			/* the white space is kept no longer */
			advance(&tc->gpos, tc->gap.data, tc->gscan);
			memmove(tc->gap.data, tc->gap.data + tc->gscan,
			    tc->gap.len - tc->gscan);
			tc->gap.len -= tc->gscan;
			tc->gfrom = tc->gscan = 0;
		}
		buf_add(&tc->gap, s + i, k - i);
		tc->scanned += k - i;
		i = k;
	}
	base = tc->gap.len - i;
	switch (r) {
	case G_END:
		gap_close(tc, q + len);
		return gap_rest(tc, q + len, base);
	case G_CALL:
		if (tc->scalls > 0 && !tc->sawsep &&
		    (f->flags & TCD_F_NEEDSEP)) {
			snprintf(what, sizeof(what), "two calls with no \"%c\" "
			    "between them", f->sep);
			sect_fail(tc, q, what);
			return gap_rest(tc, q, base);
		}
		gap_call(tc, q, len);
		return q + len >= base ? q + len - base : 0;
	default:
		if (f->flags & TCD_F_OPENEND) {
			k = tc->gfrom;
			gap_close(tc, k);
			return gap_rest(tc, k, base);
		}
		snprintf(what, sizeof(what), "text where %s or %s was "
		    "expected", f->call_open != NULL ? f->call_open :
		    "a JSON object", f->end[0]);
		sect_fail(tc, q, what);
		return gap_rest(tc, q, base);
	}
}

/* The input ended between the calls of a section. */
static void
gap_eof(struct toolcall *tc)
{
	const struct tcd_form *f = tc->sect;
	char msg[96];
	char *again;
	size_t n;

	if (f->flags & TCD_F_OPENEND) {
		n = tc->gap.len - tc->gfrom;
		/* an empty gap may have no bytes at all, and a NULL data */
		again = xmemdup(n > 0 ? tc->gap.data + tc->gfrom : "", n);
		gap_close(tc, tc->gfrom);
		buf_reset(&tc->gap);
		process(tc, again, n);
		free(again);
		return;
	}
	if (tc->scalls > 0) {
		snprintf(msg, sizeof(msg), "input ended before %s: the calls "
		    "are read without it", f->cut);
		diag_pos(tc, DIAG_WARNING, &tc->spos, "truncated", msg);
		gap_close(tc, tc->gap.len);
		return;
	}
	/* no call at all: the section is cut short */
	buf_reset(&tc->raw);
	buf_add(&tc->raw, tc->gap.data, tc->gap.len);
	tc->cpos = tc->gpos;
	tc->rawgone = 0;
	tc->bad = 0;
	call_error(tc, tc->spos, "truncated", "truncated tool call: input "
	    "ended before %s", f->cut);
	end_bad(tc, tc->raw.len);
	tc->sect = NULL;
}

/* The opening begins a form whose bytes are held from here. */
static void
raw_open(struct toolcall *tc, const char *tag, size_t len,
    const struct tcd_form *const *forms, size_t nforms)
{
	const struct tcd_form *f = forms[0];

	prose_break(tc);
	tc->mode = M_RAW;
	tc->cpos = tc->pos;
	buf_reset(&tc->raw);
	buf_add(&tc->raw, tag, len);
	tc->rawgone = 0;
	tc->bad = 0;
	tc->forms = forms;
	tc->nforms = nforms;
	tc->form = tc->sect = NULL;
	tc->tent = 0;
	tc->scan = len;
	tc->jstr = tc->jesc = 0;
	tc->qknown = 0;
	tc->answered = 1;
	advance(&tc->pos, tag, len);
	if (nforms > 1 || (f->flags & TCD_F_PEEK) ||
	    ((f->flags & TCD_F_LIST) && (f->flags & TCD_F_START))) {
		tc->phase = P_PEEK;
		pylit_scan_init(tc->py, 0);
		return;
	}
	tc->form = f;
	form_begin(tc);
}

static void
begin_raw(struct toolcall *tc, const struct opener *o)
{
	raw_open(tc, o->tag, o->len, o->forms, o->nforms);
}

/* A "{" or "[" that begins the answer, and may begin a call. */
static void
begin_start(struct toolcall *tc, const struct tcd_form *f)
{
	tc->startform = f;
	raw_open(tc, f->open, strlen(f->open), &tc->startform, 1);
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
	const struct tcd_form *f = tc->form;
	size_t mend;

	tc->dial = f->dialect;
	tc->jstr = tc->jesc = 0;
	if (f->flags & TCD_F_SECTION) {
		if (f->flags & TCD_F_FIRST) {
			/* the opening is the first byte of the first call */
			sect_open(tc, f, 0);
			tc->tent = (f->flags & TCD_F_START) &&
			    !(f->flags & TCD_F_LIST);
			call_phase(tc);
			return NONE;
		}
		mend = f->peek != NULL ? tc->scan + strlen(f->peek) :
		    strlen(f->open);
		sect_open(tc, f, mend);
		return mend;
	}
	tc->hchan = strcmp(f->open, HCHANNEL) == 0;
	if (f->flags & TCD_F_HEAD)
		tc->phase = P_HEAD;
	else if (f->close[0] == NULL)
		tc->phase = P_VALUE;
	else if (f->after != NULL)
		tc->phase = P_AFTER;
	else
		tc->phase = P_CLOSE;
	if (f->dialect == TCD_QWEN3 && tc->opt.tools != NULL) {
		/* its tool's parameters may say where its values end */
		tc->phase = P_QNAME;
		tc->qfrom = tc->scan;
		return NONE;
	}
	marks_set(tc);
	return NONE;
}

/*
 * A qwen3 call's head, "<function=NAME>", ends at raw's last byte: its
 * tool's parameters, from its schema's "properties", in tc->qp; 0 when
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

	if (!tcd_qwen3_head(tc->raw.data, tc->raw.len, &name, &namelen) ||
	    (def = tooldefs_find(tc->opt.tools, tc->raw.data + name,
	    namelen)) == NULL || def->schema == NULL ||
	    !json_is_object(props = json_object_get(def->schema,
	    "properties")))
		return 0;
	n = json_object_size(props);
	if (n > tc->qcap) {
		tc->qp.name = xreallocarray(tc->qp.name, n,
		    sizeof(*tc->qp.name));
		tc->qp.len = xreallocarray(tc->qp.len, n, sizeof(*tc->qp.len));
		tc->qcap = n;
	}
	tc->qp.n = tc->qp.maxlen = 0;
	json_object_foreach(props, key, v) {
		tc->qp.name[tc->qp.n] = key;
		tc->qp.len[tc->qp.n] = strlen(key);
		if (tc->qp.len[tc->qp.n] > tc->qp.maxlen)
			tc->qp.maxlen = tc->qp.len[tc->qp.n];
		tc->qp.n++;
	}
	return 1;
}

/*
 * P_QNAME, P_QVAL: a qwen3 call read with --tools, the bytes of s (take
 * of them, after old) put in raw. 1 when its end is at *end (then
 * tc->phase is what reads on: P_CLOSE for its wrapper's end, or none),
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
	if (tc->phase == P_QNAME) {
		from = tc->scan;
		g = from < tc->raw.len ? memchr(tc->raw.data + from, '>',
		    tc->raw.len - from) : NULL;
		tc->scan = g != NULL ? (size_t)(g - tc->raw.data) + 1 :
		    tc->raw.len;
		tc->scanned += tc->scan - from;
		if (g == NULL)
			return 0;
		tc->raw.len = tc->scan;
		if (!qwen3_params(tc)) {
			tc->raw.len = old > tc->scan ? old : tc->scan;
			goto other;
		}
		tc->raw.len = old + take;
		memset(&tc->qs, 0, sizeof(tc->qs));
		tc->qs.pp = &tc->qp;
		tc->qs.p = tc->scan;
		tc->qknown = 1;
		tc->phase = P_QVAL;
	}
	from = tc->qs.p;
	while ((r = tcd_qscan(&tc->qs, tc->raw.data, tc->raw.len, 0)) ==
	    TCDQ_ARG)
		;
	tc->scanned += tc->qs.p - from;
	if (r == TCDQ_MORE)
		return 0;
	if (r == TCDQ_OTHER) {
		tc->qknown = 0;
		goto other;
	}
	*end = tc->qs.fend + 11;
	if (tc->form->after != NULL) {
		tc->phase = P_CLOSE;
		tc->scan = *end;
		marks_set(tc);
	}
	return 1;
other:
	tc->phase = tc->form->after != NULL ? P_AFTER : P_CLOSE;
	tc->scan = tc->qfrom;
	marks_set(tc);
	return -1;
}

/*
 * What the opening begins, from the bytes after it, its white space
 * passed once (scan moves over it), however many reads bring it: PK_FORM
 * once known (tc->form), PK_MORE while the bytes so far do not say,
 * PK_PROSE when they say that it opens nothing (a required peek that
 * does not follow, a "[" that opens no list of calls).
 */
static int
peek(struct toolcall *tc)
{
	const struct tcd_form *f = tc->forms[0], *def = NULL;
	const char *d = tc->raw.data;
	size_t i = tc->scan, n = tc->raw.len, k, m, len;
	int more = 0, yes;

	if ((f->flags & TCD_F_LIST) && (f->flags & TCD_F_START)) {
		if (pylit_calls_begin(tc->py, d, n, &yes) == PYLIT_MORE) {
			tc->scanned += n - tc->scan;
			tc->scan = n;
			return PK_MORE;
		}
		if (!yes)
			return PK_PROSE;
		tc->form = f;
		return PK_FORM;
	}
	while (i < n && is_ws((unsigned char)d[i]))
		i++;
	tc->scanned += i - tc->scan;
	tc->scan = i;
	if (i == n)
		return PK_MORE;
	for (k = 0; k < tc->nforms; k++) {
		f = tc->forms[k];
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
		tc->form = f;
		return PK_FORM;
	}
	if (more)
		return PK_MORE;
	if (def != NULL) {
		tc->form = def;
		return PK_FORM;
	}
	if (tc->forms[0]->flags & TCD_F_START)
		return PK_PROSE;
	/* (a peek is required only of an output's start) */
	tc->form = tc->forms[0];
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
		w = tc->raw.len - old;
		/* white space, and then the bytes that peek looks at */
		if (tc->scan == tc->raw.len)
			while (w < n && is_ws((unsigned char)s[w]))
				w++;
		w = n - w > PEEK_STEP ? w + PEEK_STEP : n;
		raw_upto(tc, s, old, old + w);
		if ((r = peek(tc)) != PK_MORE)
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
	tc->sect = NULL;
	tc->form = NULL;
	tc->tent = 0;
	tc->pos = tc->cpos;
	return rest(tc, 0, old);
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

	tc->scan = end;
	if (tcd_harmony_head(tc->raw.data, end, &h) != 0) {
		call_error(tc, call_pos(tc, h.erroff), "dialect", "%s", h.err);
		tc->phase = P_CLOSE;
		marks_set(tc);
		return 1;
	}
	if (h.call) {
		tc->phase = P_CLOSE;
		tc->jstr = tc->jesc = 0;
		marks_set(tc);
		return 1;
	}
	/* analysis, and a message to the model's own tools, are reasoning */
	reasoning = (h.channel == TCD_CH_ANALYSIS || h.tolen > 0) &&
	    tc->opt.reasoning != TOOLCALL_REASON_CALLS;
	tc->pos = call_pos(tc, end);
	if (reasoning && tc->undecided)
		hold_release(tc);
	tc->mode = M_BODY;
	tc->rtext = reasoning;
	tc->tpos = tc->cpos;
	return 0;
}

/* Past --max-size: the call is refused, and skipped to its end. */
static void
raw_over(struct toolcall *tc)
{
	size_t m;

	call_error(tc, tc->cpos, "max-size", "tool call larger than "
	    "--max-size (%zu bytes)", tc->opt.max_size);
	tc->mode = M_RSKIP;
	if (tc->phase == P_PEEK) {
		tc->form = tc->forms[0];
		for (m = 0; m < tc->nforms; m++)
			if (tc->forms[m]->peek == NULL)
				tc->form = tc->forms[m];
		tc->dial = tc->form->dialect;
		tc->phase = tc->form->close[0] == NULL ? P_VALUE : P_CLOSE;
	}
	/* skipped to the wrapper's end, or the message's */
	if (tc->phase == P_AFTER || tc->phase == P_HEAD ||
	    tc->phase == P_QNAME || tc->phase == P_QVAL)
		tc->phase = P_CLOSE;
	if (tc->phase == P_CLOSE) {
		m = tc->raw.len < HOLD_MAX + 2 ? tc->raw.len : HOLD_MAX + 2;
		memcpy(tc->carry, tc->raw.data + tc->raw.len - m, m);
		tc->ncarry = m;
	}
	drop_raw(tc);
}

/*
 * The bytes of a dialect's call, held to --max-size, until it ends: only
 * those up to the markup that ends it or cuts it short are put in raw,
 * and those after are read anew.
 */
static size_t
raw_chunk(struct toolcall *tc, const char *s, size_t n)
{
	size_t old = tc->raw.len, room, take, e, end, k;
	const struct mark *mk;
	int r;

	room = tc->opt.max_size > old ? tc->opt.max_size - old : 0;
	take = n < room ? n : room;
	for (;;) {
		switch (tc->phase) {
		case P_PEEK:
			r = raw_peek(tc, s, take, old);
			if (r == PK_MORE)
				goto more;
			if (r == PK_PROSE)
				return prose_again(tc, old);
			if ((e = form_begin(tc)) != NONE)
				return rest(tc, e, old);
			continue;
		case P_JSON:
			if ((e = json_next(tc, old, s, take)) == NONE) {
				raw_upto(tc, s, old, old + take);
				goto more;
			}
			raw_upto(tc, s, old, e);
			/* a JSON answer that began the output is prose */
			if (tc->tent && tcd_is_answer(tc->dial, tc->raw.data, e))
				return prose_again(tc, old);
			tc->tent = 0;
			raw_done(tc, e, 0);
			return raw_after(tc, e, old);
		case P_LIST:
			if ((e = list_next(tc, old, s, take)) == NONE) {
				raw_upto(tc, s, old, old + take);
				goto more;
			}
			raw_upto(tc, s, old, e);
			list_done(tc, e);
			return raw_after(tc, e, old);
		case P_QNAME:
		case P_QVAL:
			if ((r = qwen3_step(tc, s, take, old, &e)) == 0)
				goto more;
			if (r < 0 || tc->phase == P_CLOSE) {
				/* today's rule, or the wrapper's end */
				if (tc->raw.len > old)
					tc->raw.len = old;
				continue;
			}
			raw_upto(tc, s, old, e);
			raw_done(tc, e, 0);
			return raw_after(tc, e, old);
		default:
			break;
		}
		if ((e = raw_next(tc, old, s, take, &k)) == NONE) {
			raw_upto(tc, s, old, old + take);
			goto more;
		}
		mk = &tc->marks[k];
		end = e + mk->len;
		switch (mk->kind) {
		case MK_AFTER:
			/* qwen3's </function>; its wrapper's end comes next */
			raw_upto(tc, s, old, end);
			tc->phase = P_CLOSE;
			tc->scan = end;
			marks_set(tc);
			continue;
		case MK_CHAN:
			/* the channel of a head that <|start|> opened */
			tc->hchan = 1;
			tc->scan = end;
			marks_set(tc);
			continue;
		case MK_VALUE:
			tc->phase = P_JSON;
			memset(&tc->js, 0, sizeof(tc->js));
			tc->scan = e;
			continue;
		case MK_MESSAGE:
			raw_upto(tc, s, old, end);
			if (head_done(tc, end))
				continue;
			return rest(tc, end, old);
		case MK_CLOSE:
			raw_upto(tc, s, old, end);
			raw_done(tc, end, 0);
			return raw_after(tc, end, old);
		default:
			/* MK_RESTART, MK_END: the call is cut short */
			raw_upto(tc, s, old, e);
			if (tc->phase == P_HEAD)
				call_error(tc, tc->cpos, "truncated", "truncated "
				    "harmony message: a new %s began before %s",
				    mk->s, want_mark(tc));
			else if (mk->kind == MK_RESTART)
				call_error(tc, tc->cpos, "truncated", "truncated "
				    "tool call: a new %.*s began before %s",
				    (int)strcspn(mk->s, " "), mk->s,
				    want_mark(tc));
			else
				call_error(tc, tc->cpos, "truncated", "truncated "
				    "tool call: %s came before %s", mk->s,
				    want_mark(tc));
			end_bad(tc, e);
			return raw_after(tc, e, old);
		}
	}
more:
	if (take < n) {
		/* an output's start held so long is prose */
		if (tc->phase == P_PEEK && (tc->forms[0]->flags & TCD_F_START))
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
	end_bad(tc, NONE);
	if (tc->sect != NULL)
		sect_resume(tc);
}

/*
 * A call past --max-size, its bytes not kept: skipped to the markup that
 * ends it (found across reads through the last bytes carried), or to the
 * end of its JSON or its list.
 */
static size_t
raw_skip(struct toolcall *tc, const char *s, size_t n)
{
	const char *const *tags, *p;
	size_t m, k, i, j, best = NONE;
	char both[2 * (HOLD_MAX + 4)];

	switch (tc->phase) {
	case P_VALUE:
		if ((p = memchr(s, '{', n)) == NULL) {
			advance(&tc->pos, s, n);
			return n;
		}
		k = (size_t)(p - s);
		advance(&tc->pos, s, k);
		tc->phase = P_JSON;
		memset(&tc->js, 0, sizeof(tc->js));
		return k;
	case P_JSON:
	case P_LIST:
		k = tc->phase == P_JSON ? tcd_jscan(&tc->js, s, n) :
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
	tags = tc->form->close;
	for (j = 0; tags[j] != NULL; j++) {
		/*
		 * a marker split between the carried bytes and these (one
		 * wholly in the carried bytes was seen, and did not end the
		 * call: in a hermes string, or before a qwen3 call's
		 * </function>)
		 */
		m = strlen(tags[j]);
		k = n < m - 1 ? n : m - 1;
		memcpy(both, tc->carry, tc->ncarry);
		memcpy(both + tc->ncarry, s, k);
		i = tc->ncarry >= m - 1 ? tc->ncarry - (m - 1) : 0;
		p = find_bytes(both + i, tc->ncarry + k - i, tags[j], m);
		if (p != NULL)
			i = (size_t)(p - both) + m - tc->ncarry;
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
		if (tc->ncarry + k > HOLD_MAX + 2) {
			i = tc->ncarry + k - (HOLD_MAX + 2);
			memmove(tc->carry, tc->carry + i, tc->ncarry - i);
			tc->ncarry -= i;
		}
		memcpy(tc->carry + tc->ncarry, s + n - k, k);
		tc->ncarry += k;
		return n;
	}
	advance(&tc->pos, s, best);
	skip_done(tc);
	return best;
}

/* The input ended in a dialect's call. */
static void
raw_eof(struct toolcall *tc)
{
	const struct tcd_form *f = tc->form;
	char *again;
	size_t n;

	if (tc->phase == P_PEEK && (tc->forms[0]->flags & TCD_F_START)) {
		/* the answer's first byte opened no call after all */
		tc->mode = M_PROSE;
		tc->pos = tc->cpos;
		n = tc->raw.len;
		again = xmemdup(tc->raw.data, n);
		process(tc, again, n);
		free(again);
		return;
	}
	if (tc->phase == P_CLOSE && tc->sect == NULL && f->cut != NULL &&
	    !tc->bad) {
		raw_done(tc, tc->raw.len, 1);
		return;
	}
	if (tc->phase == P_HEAD)
		call_error(tc, tc->cpos, "truncated", "truncated harmony "
		    "message: input ended before " HMESSAGE);
	else
		call_error(tc, tc->cpos, "truncated", "truncated tool call: "
		    "input ended before %s", want_mark(tc));
	end_bad(tc, tc->raw.len);
	tc->sect = NULL;
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
	const struct tcd_form *f = tc->form;
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
	for (i = 0; i < tc->nop; i++) {
		if (tc->op[i].dial != D_FORM ||
		    !(tc->op[i].forms[0]->flags & TCD_F_HEAD))
			continue;
		r = mark_at(p, avail, tc->op[i].tag, tc->op[i].len);
		if (r == 2) {
			*op = &tc->op[i];
			*len = tc->op[i].len;
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
	prose_break(tc);
	tc->mode = M_PROSE;
	tc->rtext = 0;
	if (o != NULL)
		begin(tc, o);
	else
		advance(&tc->pos, mark, len);
}

static size_t
body_chunk(struct toolcall *tc, const char *s, size_t n)
{
	const struct opener *o = NULL;
	const char *lt;
	size_t i = 0, j, k, len = 0;
	int part = 1, r = 0;

	if (tc->nhold > 0) {
		while (i < n && r == 0 && part) {
			tc->hold[tc->nhold++] = s[i++];
			r = body_at(tc, tc->hold, tc->nhold, &o, &len, &part);
		}
		if (r != 0) {
			tc->nhold = 0;
			body_end(tc, o, tc->hold, len);
			return i;
		}
		if (part)
			return n;
		/* no marker: the last byte is read again, it may be a '<' */
		k = tc->nhold - 1;
		tc->nhold = 0;
		prose_text(tc, tc->hold, k);
		return i - 1;
	}
	tc->scanned += n;
	while ((lt = memchr(s + i, '<', n - i)) != NULL) {
		j = (size_t)(lt - s);
		if (body_at(tc, lt, n - j, &o, &len, &part)) {
			prose_text(tc, s, j);
			body_end(tc, o, lt, len);
			return j + len;
		}
		if (part) {
			prose_text(tc, s, j);
			memcpy(tc->hold, lt, n - j);
			tc->nhold = n - j;
			return n;
		}
		i = j + 1;
	}
	prose_text(tc, s, n);
	return n;
}

/* The input ended in a message's body: reasoning says it was cut. */
static void
body_eof(struct toolcall *tc)
{
	size_t k;

	if ((k = tc->nhold) > 0) {
		tc->nhold = 0;
		prose_text(tc, tc->hold, k);
	}
	if (tc->rtext)
		diag_pos(tc, DIAG_WARNING, &tc->tpos, "reasoning", "reasoning "
		    "never closed: input ended before <|end|>");
}

/* Reasoning. */

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
		if (only != NULL && only != &thinks[i])
			continue;
		r = mark_at(p, avail, thinks[i].close, thinks[i].clen);
		if (r == 2)
			return &thinks[i];
		if (r == 1)
			*part = 1;
	}
	return NULL;
}

/* Reasoning text: not read, only kept for events (prose_bad is silent). */
static void
reason(struct toolcall *tc, const char *s, size_t n)
{
	prose_text(tc, s, n);
}

/* A reasoning block opens: the prose before it ends. */
static void
begin_think(struct toolcall *tc, const struct opener *o)
{
	prose_break(tc);
	/* the model writes its own blocks: what was held is its answer */
	if (tc->undecided)
		hold_release(tc);
	tc->tpos = tc->pos;
	advance(&tc->pos, o->tag, o->len);
	tc->think = o->think;
	tc->mode = M_THINK;
	tc->rtext = 1;
}

/* The block ends at its closing marker th, read. */
static void
think_close(struct toolcall *tc, const struct think *th)
{
	prose_break(tc);
	advance(&tc->pos, th->close, th->clen);
	tc->think = NULL;
	tc->mode = M_PROSE;
	tc->rtext = 0;
}

/*
 * A closing marker in prose, with no block open: prose, said. (While the
 * stream is undecided, feed_stream takes it before prose sees it.)
 */
static void
stray(struct toolcall *tc, const struct opener *o)
{
	char msg[80];

	prose_settle(tc);
	snprintf(msg, sizeof(msg), "%s with no reasoning open, read as prose",
	    o->tag);
	diag_pos(tc, DIAG_WARNING, &tc->pos, "reasoning", msg);
	prose_text(tc, o->tag, o->len);
}

/*
 * Bytes of a reasoning block, up to its closing marker, which may be cut
 * by reads: its start is held as prose holds an opener's.
 */
static size_t
think_chunk(struct toolcall *tc, const char *s, size_t n)
{
	const struct think *th = NULL;
	const char *lt;
	size_t i = 0, j, k;
	int part = 1;

	if (tc->nhold > 0) {
		while (i < n && th == NULL && part) {
			tc->hold[tc->nhold++] = s[i++];
			th = closer_at(tc->think, tc->hold, tc->nhold, &part);
		}
		if (th != NULL) {
			tc->nhold = 0;
			think_close(tc, th);
			return i;
		}
		if (part)
			return n;
		/* no marker: the last byte is read again, it may be a '<' */
		k = tc->nhold - 1;
		tc->nhold = 0;
		reason(tc, tc->hold, k);
		return i - 1;
	}
	tc->scanned += n;
	while ((lt = memchr(s + i, '<', n - i)) != NULL) {
		j = (size_t)(lt - s);
		th = closer_at(tc->think, lt, n - j, &part);
		if (th != NULL) {
			reason(tc, s, j);
			think_close(tc, th);
			return j + th->clen;
		}
		if (part) {
			reason(tc, s, j);
			memcpy(tc->hold, lt, n - j);
			tc->nhold = n - j;
			return n;
		}
		i = j + 1;
	}
	reason(tc, s, n);
	return n;
}

/* The input ended inside reasoning: none of it was read for calls. */
static void
think_end(struct toolcall *tc)
{
	char msg[96];
	size_t k;

	if ((k = tc->nhold) > 0) {
		tc->nhold = 0;
		reason(tc, tc->hold, k);
	}
	snprintf(msg, sizeof(msg), "reasoning never closed: input ended "
	    "before %s", tc->think != NULL ? tc->think->close : "</think>");
	diag_pos(tc, DIAG_WARNING, &tc->tpos, "reasoning", msg);
}

/* What was held, gone. */
static void
hold_free(struct toolcall *tc)
{
	size_t i;

	for (i = 0; i < tc->nhsegs; i++) {
		if (!tc->hsegs[i].own)
			continue;
		/* the call being written still reads its arena */
		if (tc->arenagone && tc->hsegs[i].data == tc->arena.data)
			tc->arenagone = 0;
		else
			free(tc->hsegs[i].data);
	}
	free(tc->hsegs);
	tc->hsegs = NULL;
	tc->nhsegs = tc->hsegcap = 0;
	tc->hseglen = 0;
	buf_free(&tc->held);
	diag_list_free(&tc->hdiags);
	free(tc->hdat);
	tc->hdat = NULL;
	tc->hdatcap = 0;
	tc->hdbytes = 0;
	buf_free(&tc->hraw);
}

/*
 * Undecided: the output from the start on is held, its records, its
 * problems and its status, since a closing marker with no opening may
 * still come and make it reasoning. The stream decides at the first
 * marker (or the end): hold_release writes what was held, as it would
 * have been; hold_drop forgets it.
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

	while (*done < upto && *seg < tc->nhsegs) {
		h = &tc->hsegs[*seg];
		k = h->len - *in < upto - *done ? h->len - *in : upto - *done;
		put(tc, h->data + h->off + *in, k);
		*done += k;
		if ((*in += k) == h->len) {
			(*seg)++;
			*in = 0;
		}
	}
	if (*done < upto) {
		put(tc, tc->held.data + (*done - tc->hseglen), upto - *done);
		*done = upto;
	}
}

static void
hold_release(struct toolcall *tc)
{
	struct diag_item *it;
	size_t i, done = 0, seg = 0, in = 0;

	tc->undecided = 0;
	tc->nccarry = 0;
	tc->sink = tc->opt.sink;
	/* each problem after the records written before it, as it came */
	for (i = 0; i < tc->hdiags.n; i++) {
		it = &tc->hdiags.v[i];
		if (tc->hdat[i] > done) {
			held_put(tc, &done, &seg, &in, tc->hdat[i]);
			flush(tc);
		}
		diag_say(tc, it->severity, it->line, it->col, it->rule,
		    it->message);
	}
	held_put(tc, &done, &seg, &in, tc->hseglen + tc->held.len);
	flush(tc);
	hold_free(tc);
}

/*
 * Held output past its bound (the larger of --max-size and 64 MiB, more
 * than any model writes in one answer): written, as if no marker could
 * come, so that memory stays bounded.
 */
static void
hold_overflow(struct toolcall *tc)
{
	struct pos start = { 0, 1, 1, 0 };
	char msg[160];

	hold_release(tc);
	snprintf(msg, sizeof(msg), "no reasoning marker before %zu bytes of "
	    "output were held: the output is read as outside reasoning",
	    tc->holdcap);
	diag_pos(tc, DIAG_WARNING, &start, "reasoning", msg);
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
		if (!tc->rawgone)
			p = call_pos(tc, tc->raw.len);
		break;
	case M_PROSE:
	case M_BODY:
		advance(&p, (const char *)tc->u8, tc->nu8);
		advance(&p, tc->hold, tc->nhold);
		break;
	case M_GAP:
		p = tc->gpos;
		advance(&p, tc->gap.data, tc->gap.len);
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
static void
lone_closer(struct toolcall *tc, const char *s, size_t k, size_t clen)
{
	struct pos p = stream_pos(tc);
	struct buf raw = tc->hraw;

	advance(&p, s, k);
	memset(&tc->hraw, 0, sizeof(tc->hraw));
	if (tc->mode == M_CALL || tc->mode == M_SKIP)
		tc->xspoilt = 1;
	tc->mode = M_PROSE;
	tc->sect = NULL;
	tc->tent = 0;
	buf_reset(&tc->gap);
	tc->answered = 0;	/* all before was reasoning */
	tc->nhold = tc->nu8 = 0;
	buf_reset(&tc->text);
	tc->msgcont = 0;
	tc->rawgone = 0;
	tc->status = DIAG_OK;
	tc->ncalls = 0;
	tc->undecided = 0;
	tc->nccarry = 0;
	tc->sink = tc->opt.sink;
	hold_free(tc);
	if (raw.len > 0) {
		/* the marker's first bytes came with an earlier read */
		raw.len -= clen - k < raw.len ? clen - k : raw.len;
		tc->mode = M_THINK;
		tc->rtext = 1;
		reason(tc, raw.data, raw.len);
		prose_break(tc);
		tc->mode = M_PROSE;
		tc->rtext = 0;
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
static size_t
closer_scan(struct toolcall *tc, const char *s, size_t n, size_t *clen)
{
	const struct think *th;
	char both[2 * HOLD_MAX];
	size_t nc = tc->nccarry, k, i;
	int part;

	tc->scanned += n;
	tc->nccarry = 0;
	if (nc > 0) {
		/* the carried bytes begin with the marker's "<" */
		k = n < HOLD_MAX ? n : HOLD_MAX;
		memcpy(both, tc->ccarry, nc);
		memcpy(both + nc, s, k);
		if ((th = closer_at(NULL, both, nc + k, &part)) != NULL) {
			*clen = th->clen;
			return th->clen - nc;
		}
		if (part) {
			memcpy(tc->ccarry, both, nc + k);
			tc->nccarry = nc + k;
			return NONE;
		}
	}
	for (i = 0; (i = find_close(s, i, n)) < n; i++) {
		if ((th = closer_at(NULL, s + i, n - i, &part)) != NULL) {
			*clen = th->clen;
			return i + th->clen;
		}
		if (part) {
			memcpy(tc->ccarry, s + i, n - i);
			tc->nccarry = n - i;
			return NONE;
		}
	}
	return NONE;
}

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

	while (n > 0 && tc->undecided) {
		e = closer_scan(tc, s, n, &clen);
		k = e == NONE ? n : e > clen ? e - clen : 0;
		if (tc->opt.events &&
		    tc->opt.reasoning == TOOLCALL_REASON_EVENTS) {
			room = tc->holdcap - tc->hraw.len;
			if (k > room) {
				buf_add(&tc->hraw, s, room);
				process(tc, s, room);
				if (tc->undecided)
					hold_overflow(tc);
				s += room;
				n -= room;
				break;
			}
			buf_add(&tc->hraw, s, k);
		}
		process(tc, s, k);
		s += k;
		n -= k;
		/* decided in between, the marker is read as such */
		if (e == NONE || !tc->undecided)
			continue;
		lone_closer(tc, s, e - k, clen);
		s += e - k;
		n -= e - k;
	}
	if (n > 0)
		process(tc, s, n);
}

static void
process(struct toolcall *tc, const char *s, size_t n)
{
	size_t k;

	while (n > 0) {
		switch (tc->mode) {
		case M_PROSE:
			k = prose(tc, s, n);
			break;
		case M_CALL:
			k = call_chunk(tc, s, n);
			break;
		case M_RAW:
			k = raw_chunk(tc, s, n);
			break;
		case M_RSKIP:
			k = raw_skip(tc, s, n);
			break;
		case M_THINK:
			k = think_chunk(tc, s, n);
			break;
		case M_GAP:
			k = gap_chunk(tc, s, n);
			break;
		case M_BODY:
			k = body_chunk(tc, s, n);
			break;
		default:
			k = skip_chunk(tc, s, n);
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
	if (tc->rtext != r) {
		prose_break(tc);
		tc->rtext = r;
	}
	if (!r ? keeps_text(tc) : tc->opt.events && !tc->opt.thread &&
	    tc->opt.reasoning == TOOLCALL_REASON_EVENTS)
		text_keep(tc, s, n);
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
	buf_reset(&tc->cid);
	if (c->id != NULL)
		jsonw_escape(&tc->cid, c->id, c->idlen);
}

/* A call, whole: written as the others are, or refused. */
static int
oa_call(void *arg, const struct tcopenai_call *c)
{
	struct toolcall *tc = arg;
	struct pos at = { 0, c->line, c->col, 0 };

	prose_break(tc);
	tc->rtext = 0;
	tc->cpos = at;
	tc->bad = 0;
	oa_id(tc, c);
	if (c->textlen > tc->opt.max_size)
		call_error(tc, at, "max-size", "tool call larger than "
		    "--max-size (%zu bytes)", tc->opt.max_size);
	else {
		tc->nnodes = 0;
		buf_reset(&tc->names);
		buf_reset(&tc->arena);
		tc->sname = tc->args = NONE;
		tc->tname = node_new(tc, "tool_name", NONE, R_META);
		raw_value(tc, tc->tname, c->name, c->namelen);
		tc->hargs = json_incref(c->args);
		emit_call(tc);
		json_decref(tc->hargs);
		tc->hargs = NULL;
	}
	if (tc->bad)
		error_event(tc, c->text, c->textlen);
	buf_reset(&tc->cid);
	return tc->trouble ? -1 : 0;
}

/* A problem of the input, or of one call: then its error event too. */
static int
oa_diag(void *arg, const struct tcopenai_diag *d)
{
	struct toolcall *tc = arg;
	const struct tcopenai_call *c = d->call;

	if (d->severity == DIAG_ERROR)
		tc->status = DIAG_INVALID;
	if (c != NULL && d->severity == DIAG_ERROR)
		prose_break(tc);
	diag_path(tc, d);
	if (c == NULL || d->severity != DIAG_ERROR)
		return tc->trouble ? -1 : 0;
	tc->epos.line = d->line;
	tc->epos.col = d->col;
	buf_reset(&tc->msg);
	buf_adds(&tc->msg, d->message);
	oa_id(tc, c);
	buf_reset(&tc->ename);
	jsonw_escape(&tc->ename, c->name, c->namelen);
	tc->named = c->namelen > 0;
	error_event(tc, c->text, c->textlen);
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
	tc->maxitems = tc->opt.max_size / ITEM_BYTES;
	if (tc->maxitems < ITEMS_MIN)
		tc->maxitems = ITEMS_MIN;
	tc->out = out;
	tc->sink = tc->opt.sink;
	tc->file = file;
	tc->status = DIAG_OK;
	tc->pos.line = tc->pos.col = 1;
	tc->mode = M_PROSE;
	tc->holdcap = tc->opt.max_size > TOOLCALL_MAX_SIZE ?
	    tc->opt.max_size : TOOLCALL_MAX_SIZE;
	tc->share = tc->opt.max_size / 2 < HOLD_SHARE ?
	    tc->opt.max_size / 2 + 1 : HOLD_SHARE;
	openers_make(tc);
	tc->py = xmalloc(sizeof(*tc->py));
	pylit_scan_init(tc->py, 0);
	if (tc->opt.format == TOOLCALL_FMT_OPENAI)
		oa_new(tc);	/* reasoning comes apart: nothing is held */
	else if (tc->opt.reasoning != TOOLCALL_REASON_CALLS &&
	    tc->opt.begins == TOOLCALL_BEGINS_YES) {
		/* the template opened reasoning: it ends at either closer */
		tc->mode = M_THINK;
		tc->tpos = tc->pos;
		tc->rtext = 1;
	} else if (tc->opt.reasoning != TOOLCALL_REASON_CALLS &&
	    tc->opt.begins == TOOLCALL_BEGINS_AUTO) {
		tc->undecided = 1;
		tc->sink = &tc->held;
	}
	if ((tc->xp = XML_ParserCreate("UTF-8")) == NULL)
		xalloc_die();
	if (getentropy(&tc->salt, sizeof(tc->salt)) != 0)
		tc->salt = (unsigned long)(uintptr_t)tc ^ (unsigned long)time(NULL);
	/* never NULL, so that offsets into them are always defined */
	buf_reserve(&tc->raw, 64);
	buf_reserve(&tc->arena, 64);
	buf_reserve(&tc->names, 64);
	buf_reserve(&tc->text, 64);
	buf_reserve(&tc->msg, 64);
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
		prose_break(tc);
		flush(tc);
		return tc->trouble ? -1 : 0;
	}
	if (!tc->started) {
		tc->started = 1;
		feed_stream(tc, bom, tc->nbom);
	}
	/* no marker came: what was held is the answer's */
	if (tc->undecided)
		hold_release(tc);
	/*
	 * held bytes first: an error in them comes before the end; a
	 * dialect's call or a section may give back prose
	 */
	for (;;) {
		if (tc->mode == M_CALL && !flush_all(tc))
			call_stopped(tc, tc->raw.len, 0);
		else if (tc->mode == M_RAW)
			raw_eof(tc);
		else if (tc->mode == M_GAP)
			gap_eof(tc);
		else
			break;
	}
	switch (tc->mode) {
	case M_PROSE:
		if ((k = tc->nhold) > 0) {
			tc->nhold = 0;
			prose_text(tc, tc->hold, k);
		}
		break;
	case M_RSKIP:
		end_bad(tc, NONE);
		tc->sect = NULL;
		break;
	case M_CALL:
		call_error(tc, tc->cpos, "truncated", "truncated tool call: "
		    "input ended before </tool>");
		end_bad(tc, tc->raw.len);
		break;
	case M_SKIP:
		end_bad(tc, tc->rawgone ? NONE : tc->raw.len);
		break;
	case M_THINK:
		think_end(tc);
		break;
	case M_BODY:
		body_eof(tc);
		break;
	default:
		break;
	}
	prose_break(tc);
	flush(tc);
	return tc->trouble ? -1 : 0;
}

int
toolcall_status(const struct toolcall *tc)
{
	return tc->status;
}

/*
 * The bytes expat has scanned, a token it could not finish counted again
 * each time it is given more: a few times the input at most, so that
 * tests can see the feeding stay linear.
 */
unsigned long long
toolcall_work(const struct toolcall *tc)
{
	return tc->work;
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
	XML_ParserFree(tc->xp);
	tcopenai_free(tc->oa);
	free(tc->qp.name);
	free(tc->qp.len);
	buf_free(&tc->text);
	buf_free(&tc->tmp);
	buf_free(&tc->rec);
	buf_free(&tc->val);
	buf_free(&tc->raw);
	buf_free(&tc->pend);
	buf_free(&tc->msg);
	buf_free(&tc->cid);
	buf_free(&tc->ename);
	buf_free(&tc->names);
	buf_free(&tc->arena);
	free(tc->ins);
	free(tc->nodes);
	free(tc->segs);
	free(tc->hash);
	buf_free(&tc->gap);
	free(tc->py);
	hold_free(tc);
	free(tc);
}
