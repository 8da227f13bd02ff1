/*
 * toolcall_int: what the files of toolcall share and no caller of
 * toolcall.h sees: the reader's state (struct toolcall), the kinds and
 * limits of what it reads, the position and scan helpers every file
 * uses, inline, and each file's functions for the others. The files:
 * toolcall.c (the reader's life and its dispatch by mode, --format
 * openai), toolcall_out.c (records, problems, and the output held while
 * the start may be reasoning), toolcall_prose.c (prose, text events, the
 * openings looked for in it, harmony's message bodies), toolcall_lex.c
 * (a <tool> call's lexer and expat's feed), toolcall_tree.c (expat's
 * handlers and the call's tree), toolcall_emit.c (a call's JSON, typed
 * by the seed's rules or by --tools), toolcall_dialect.c (the held calls
 * of open models' dialects), toolcall_section.c (the bytes between the
 * calls of a section) and toolcall_think.c (reasoning blocks and the
 * lone closer that says the start was reasoning).
 */
#ifndef LLMKIT_TOOLCALL_INT_H
#define LLMKIT_TOOLCALL_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <expat.h>
#include <jansson.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/buf.h"
#include "base/diag.h"
#include "base/utf8.h"
#include "toolcall/pylit.h"
#include "toolcall/tcdialect.h"
#include "toolcall/toolcall.h"

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

#define OPEN_TAG	"<tool>"
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
struct think {
	const char	*open, *close;
	size_t		 olen, clen;
};
#define NTHINKS		2
extern const struct think tc_thinks[NTHINKS];	/* in toolcall_think.c */

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

/*
 * The reader's state is one struct toolcall, its parts nested in it, each
 * the state of the file that works on it.
 */

/* The prose being read (toolcall_prose.c). */
struct tc_prose {
	unsigned char		 u8[4];		/* a character cut by a read */
	size_t			 nu8;
	struct buf		 text;		/* events: prose to write */
	size_t			 tstart;
	int			 msgcont;	/* thread: the prose was cut */
	int			 answered;	/* the answer has begun */
	char			 hold[HOLD_MAX];	/* an opener begun */
	size_t			 nhold;
};

/* The openings the format reads, made once (toolcall_prose.c). */
struct tc_openers {
	struct opener		 op[OPENERS_MAX];
	size_t			 nop;
	char			 lead2;		/* one begins so, not with '<' */
	const struct tcd_form	*start_brace;	/* "{" and "[" at the */
	const struct tcd_form	*start_bracket;	/* answer's first byte */
};

/* The call being read, in any markup (toolcall_lex.c). */
struct tc_call {
	struct pos		 cpos;		/* of its "<" */
	struct buf		 raw;		/* its bytes from "<tool>" on */
	int			 rawgone;	/* over --max-size: not kept */
	size_t			 skipfrom;	/* refused: the raw offset to skip from */
	int			 restart;	/* <tool> again, right inside */
	int			 bad;		/* its error is reported */
	struct buf		 msg;
	struct pos		 epos;
	struct pos		 wpos;		/* warnings walk forward */
	size_t			 wraw;
	struct buf		 cid;		/* the call's own id, or empty */
	struct buf		 ename;		/* a refused call's tool, escaped, */
	int			 named;		/* when its error knows it */
	int			 unchecked;	/* its arguments could not be
						   checked: not the model's
						   fault, so not recoverable */
};

/* Where the lexer of a <tool> call stands (toolcall_lex.c). */
struct tc_lexer {
	enum lex		 lex, ret;
	int			 sub;
	char			 q;
	char			 tag[TAG_CAP];
	size_t			 ntag;
	char			 amp[AMP_MAX];
	size_t			 namp;
	size_t			 ampraw;
	size_t			 rsqb;		/* "]" held back at a read's end */
	int			 ltset;		/* the lexer passed a "<" at ltidx */
	size_t			 ltidx;
	size_t			 items;		/* elements and attributes lexed */
	size_t			 maxitems;
};

/* What a <tool> call's bytes give expat, and when (toolcall_lex.c). */
struct tc_feed {
	XML_Parser		 xp;
	int			 xspoilt;	/* a fresh parser for the next call */
	size_t			*ins;		/* raw offsets of "&" fed as "&amp;" */
	size_t			 nins, insc;
	size_t			 npend;		/* bytes for expat, not yet given */
	int			 copied;	/* an "&amp;" was put in: */
	struct buf		 pend;		/* they are here, not in raw */
	size_t			 xfed;		/* bytes given to expat */
	size_t			 xdone;		/* of them, what expat has parsed */
	size_t			 tokraw;	/* raw offset of the last "<" */
	size_t			 tokins;	/* "&amp;"s inserted before it */
	size_t			 nextflush;	/* a long token: feed up to here */
	unsigned long long	 work;		/* bytes expat has scanned */
	int			 done;		/* expat closed </tool> */
	int			 xerr;		/* expat failed */
	size_t			 endfed;
};

/* A call's tree, built by expat's handlers (toolcall_tree.c). */
struct tc_tree {
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
	size_t			*hash;		/* of names, for siblings */
	size_t			 hashcap;
};

/* A call written from its tree (toolcall_emit.c). */
struct tc_emit {
	struct buf		 rec;		/* a typed call, to validate */
	struct buf		 val;		/* a value's text, unescaped */
	int			 wrapping;	/* a value as an array's item */
	int			 build;		/* values built as written */
};

/* A call of an open model's dialect, held whole (toolcall_dialect.c). */
struct tc_hold {
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
};

/* A section of calls (toolcall_section.c). */
struct tc_sect {
	const struct tcd_form	*form;		/* its form, or NULL */
	struct buf		 gap;		/* its bytes after its last call */
	size_t			 gfrom;		/* where prose would go on */
	size_t			 gscan;		/* where the look goes on */
	struct pos		 gpos;		/* where the gap begins */
	struct pos		 spos;		/* where the section began */
	unsigned long		 scalls;	/* its calls so far */
	int			 sawsep;	/* a separator after the last */
	int			 tent;		/* its first call may be prose */
};

/* Reasoning (toolcall_think.c). */
struct tc_think {
	const struct think	*block;		/* M_THINK: its block; NULL: */
						/* the template opened it */
	struct pos		 tpos;		/* where the block began */
	int			 rtext;		/* text events are reasoning */
	char			 ccarry[HOLD_MAX];	/* a closer begun */
	size_t			 nccarry;
};

/*
 * The output held while the start may be reasoning (toolcall_out.c):
 * auto, before any marker.
 */
struct tc_held {
	int			 undecided;
	struct buf		 recs;		/* the records, after */
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
	struct buf		 hprose;	/* the prose option's text */
	size_t			 holdcap;	/* what they may take */
};

struct toolcall {
	struct toolcall_opts	 opt;
	unsigned long		 salt;		/* expat's, against hash flooding */
	FILE			*out;
	const char		*file;
	int			 status;
	int			 trouble;	/* a write failed */
	int			 unchecked;	/* a call's arguments could not
						   be checked: status 3 */
	enum mode		 mode;
	struct pos		 pos;		/* of the next byte not consumed */
	int			 started;	/* past a byte order mark */
	size_t			 nbom;
	struct buf		 tmp;
	struct buf		*sink;		/* output goes here, not to out */
	unsigned long		 ncalls;	/* calls written: their ids */
	unsigned long long	 scanned;	/* bytes our own scanners passed */
	struct tcopenai		*oa;		/* --format openai: its reader */

	struct tc_prose		 prose;
	struct tc_openers	 openers;
	struct tc_call		 call;
	struct tc_lexer		 lexer;
	struct tc_feed		 feed;
	struct tc_tree		 tree;
	struct tc_emit		 emit;
	struct tc_hold		 hold;
	struct tc_sect		 sect;
	struct tc_think		 think;
	struct tc_held		 held;
};

/*
 * utf8_count, 16 bytes at a time: a call's JSON is often one long line,
 * which advance counts whole.
 */
static inline size_t
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
static inline void
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

/* The first a or b in s[i..n), or n: a hermes call's scan for its end. */
static inline size_t
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

static inline int
is_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static inline int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* 2 when the m bytes of t are at p (avail there), 1 when its start is. */
static inline int
mark_at(const char *p, size_t avail, const char *t, size_t m)
{
	if (avail >= m)
		return memcmp(p, t, m) == 0 ? 2 : 0;
	return memcmp(p, t, avail) == 0;
}

/* toolcall_out.c */
size_t		 tc_held_size(const struct toolcall *);
void		 tc_diag_pos(struct toolcall *, enum diag_severity,
		    const struct pos *, const char *, const char *);
void		 tc_put(struct toolcall *, const char *, size_t);
void		 tc_puts(struct toolcall *, const char *);
void		 tc_put_string(struct toolcall *, const char *, size_t);
void		 tc_flush(struct toolcall *);
void		 tc_error_event(struct toolcall *, const char *, size_t);
void		 tc_held_free(struct toolcall *);
void		 tc_held_release(struct toolcall *);
void		 tc_held_overflow(struct toolcall *);

/* toolcall_prose.c */
int		 tc_keeps_text(const struct toolcall *);
void		 tc_text_keep(struct toolcall *, const char *, size_t);
void		 tc_prose_text(struct toolcall *, const char *, size_t);
void		 tc_prose_settle(struct toolcall *);
void		 tc_prose_break(struct toolcall *);
void		 tc_openers_make(struct toolcall *);
size_t		 tc_prose_chunk(struct toolcall *, const char *, size_t);
size_t		 tc_body_chunk(struct toolcall *, const char *, size_t);
void		 tc_body_eof(struct toolcall *);

/* toolcall_lex.c */
struct pos	 tc_call_pos(const struct toolcall *, size_t);
void		 tc_call_error(struct toolcall *, struct pos, const char *,
		    const char *, ...) __attribute__((format(printf, 4, 5)));
void		 tc_call_verror(struct toolcall *, struct pos, const char *,
		    const char *, va_list)
		    __attribute__((format(printf, 4, 0)));
size_t		 tc_fed_to_raw(const struct toolcall *, size_t);
int		 tc_expat_give_all(struct toolcall *);
void		 tc_call_begin(struct toolcall *);
void		 tc_bad_end(struct toolcall *, size_t);
void		 tc_raw_drop(struct toolcall *);
size_t		 tc_read_again(struct toolcall *, size_t, size_t);
size_t		 tc_call_stopped(struct toolcall *, size_t, size_t);
size_t		 tc_call_chunk(struct toolcall *, const char *, size_t);
size_t		 tc_skip_chunk(struct toolcall *, const char *, size_t);

/* toolcall_tree.c */
size_t		 tc_node_new(struct toolcall *, const char *, size_t,
		    enum role);
size_t		 tc_node_newn(struct toolcall *, const char *, size_t, size_t,
		    enum role);
void XMLCALL	 tc_on_start(void *, const XML_Char *, const XML_Char **);
void XMLCALL	 tc_on_cdata_start(void *);
void XMLCALL	 tc_on_cdata_end(void *);
void XMLCALL	 tc_on_text(void *, const XML_Char *, int);
void		 tc_trim_escaped(const char *, size_t *, size_t *);
int		 tc_seed_typed(const char *, size_t, struct buf *);
void XMLCALL	 tc_on_end(void *, const XML_Char *);

/* toolcall_emit.c */
int		 tc_emit_call(struct toolcall *);

/* toolcall_dialect.c */
void		 tc_marks_set(struct toolcall *);
void		 tc_raw_value(struct toolcall *, size_t, const char *, size_t);
void		 tc_raw_begin(struct toolcall *, const struct opener *);
void		 tc_start_begin(struct toolcall *, const struct tcd_form *);
size_t		 tc_raw_chunk(struct toolcall *, const char *, size_t);
size_t		 tc_raw_skip(struct toolcall *, const char *, size_t);
void		 tc_raw_eof(struct toolcall *);

/* toolcall_section.c */
void		 tc_sect_open(struct toolcall *, const struct tcd_form *,
		    size_t);
void		 tc_call_phase(struct toolcall *);
void		 tc_sect_resume(struct toolcall *);
size_t		 tc_raw_after(struct toolcall *, size_t, size_t);
size_t		 tc_gap_chunk(struct toolcall *, const char *, size_t);
void		 tc_gap_eof(struct toolcall *);

/* toolcall_think.c */
void		 tc_think_begin(struct toolcall *, const struct opener *);
void		 tc_stray_closer(struct toolcall *, const struct opener *);
size_t		 tc_think_chunk(struct toolcall *, const char *, size_t);
void		 tc_think_end(struct toolcall *);
void		 tc_lone_closer(struct toolcall *, const char *, size_t,
		    size_t);
size_t		 tc_closer_scan(struct toolcall *, const char *, size_t,
		    size_t *);

/* toolcall.c */
void		 tc_process(struct toolcall *, const char *, size_t);

#endif
