/*
 * tcdialect: one tool call of an open model's dialect, read from its
 * whole text. The streaming reader (lib/toolcall) finds where a call
 * begins and ends in the stream; these parsers take the call's text,
 * from its opening markup to its closing markup, and give its tool's
 * name and its arguments, or the error of a malformed call with the
 * offset it lies at.
 *
 *   qwen3    [<tool_call> | <seed:tool_call>] <function=NAME>
 *            <parameter=KEY>VALUE</parameter> ... </function>
 *            [</tool_call> | </seed:tool_call>]
 *   invoke   <invoke name="NAME"><parameter name="KEY">VALUE</parameter>
 *            ... </invoke>   (its wrappers are the reader's)
 *   glm      <tool_call>NAME<arg_key>KEY</arg_key><arg_value>VALUE
 *            </arg_value> ... </tool_call>
 *   hermes   <tool_call>{"name": NAME, "arguments": {...}}</tool_call>
 *   harmony  [<|start|>assistant] <|channel|>commentary to=functions.NAME
 *            [<|constrain|>json] <|message|>{...}<|call|>
 *   deepseek <｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME
 *            ```json {...} ```<｜tool▁call▁end｜>   (V3), or
 *            <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{...}<｜tool▁call▁end｜>
 *   mistral  [TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{...}, or one object
 *            {"name": NAME, "arguments": {...}} of [TOOL_CALLS][...]
 *   llama3   [<|python_tag|>] {"name": NAME, "parameters": {...}}
 *   kimi     <|tool_call_begin|>functions.NAME:IDX
 *            <|tool_call_argument_begin|>{...}<|tool_call_end|>
 *   pythonic [<|python_start|>] [NAME(KEY=VALUE, ...), ...]
 *            [<|python_end|>]   (a list of calls: lib/pylit reads it)
 *
 * Values of qwen3, invoke and glm are raw text: no entity is decoded;
 * the other dialects' arguments are a JSON object. The grammar of each
 * dialect, the decisions taken where models and their reference parsers
 * differ, and the table of every error message are at the top of
 * lib/tcdialect.c (the first four) and lib/tcdialect_json.c (the rest).
 *
 * Below the parsers is what the streaming reader needs to find calls in
 * a stream without knowing any dialect: the table of the markup that
 * begins a call or a section of calls and of what ends it (tcd_forms),
 * the end of a JSON value read across reads (tcd_jscan), the head of a
 * harmony message, whose channel says what it is (tcd_harmony_head), and
 * whether a call cut by the end of input is whole (TCD_CUT).
 */
#ifndef LLMKIT_TCDIALECT_H
#define LLMKIT_TCDIALECT_H

#include <stddef.h>

#include <jansson.h>

#include "base/buf.h"

enum tcd_dialect {
	TCD_QWEN3 = 1, TCD_INVOKE, TCD_GLM, TCD_HERMES, TCD_HARMONY,
	TCD_DEEPSEEK, TCD_MISTRAL, TCD_LLAMA3, TCD_KIMI, TCD_PYTHONIC
};
#define TCD_NDIALECTS	10		/* the last TCD_ */

/* One argument: byte ranges in the call's text. */
struct tcd_arg {
	size_t		 key, keylen;
	size_t		 val, vallen;
};

/*
 * Every range lies in the call's text. The name of a call whose name is
 * a JSON string (hermes, llama3, an object of mistral's list) is in
 * namebuf (namebuflen bytes, decoded, NUL-terminated) unless it is
 * written first in its object and without escapes: then only its range
 * in the text is set (name and namelen are 0 otherwise). tcd_name gives
 * whichever is the name. id is the call's own id where the model writes
 * one (kimi's functions.NAME:IDX, mistral's [CALL_ID]), as written;
 * idlen is 0 where it writes none.
 */
struct tcd_call {
	size_t		 name, namelen;	/* the tool's name, in the text, */
	char		*namebuf;	/* or a JSON one, decoded */
	size_t		 namebuflen;
	size_t		 id, idlen;	/* the model's id of the call */
	struct tcd_arg	*args;		/* raw-text dialects, in order */
	size_t		 nargs, argcap;
	json_t		*json;		/* JSON dialects: the arguments, */
	struct buf	 argtext;	/* or (TCD_TEXT) their text */
	size_t		 erroff;	/* a malformed call: where, */
	char		 err[256];	/* and what, one line */
};

/*
 * Reads the call s (n bytes: its whole text, opening to closing markup)
 * in dialect d into *c: 0, or -1 with c->erroff and c->err set. The
 * caller frees *c with tcd_call_free, either way. pythonic's calls come
 * as a list, which pylit_calls (lib/pylit.h) reads whole: tcd_parse
 * refuses the dialect ("malformed pythonic call: a list of calls is
 * read whole, by pylit_calls").
 */
int		 tcd_parse(enum tcd_dialect d, const char *s, size_t n,
		    struct tcd_call *c);

/*
 * The same, for a caller that needs no tree of a JSON call's arguments:
 * they may come as their JSON text, as jsonw_exact writes the tree, in
 * c->argtext (c->json NULL then), read many times faster. The name, the errors and their offsets are
 * tcd_parse's.
 */
int		 tcd_parse_text(enum tcd_dialect d, const char *s, size_t n,
		    struct tcd_call *c);

/*
 * tcd_parse with flags: TCD_TEXT is tcd_parse_text's reading; TCD_CUT
 * says that the input ended before the call's closing markup (s is all
 * there was of it): where that markup is the form's cut (tcd_forms:
 * hermes's </tool_call>, a harmony call's <|call|>), the call is read as
 * if it followed, so that a call whose JSON is whole is a call (the
 * caller warns that the markup is missing); in the other dialects the
 * text is read as it is, and is refused as a call without its end.
 */
#define TCD_TEXT	0x1
#define TCD_CUT		0x2
int		 tcd_parse_flags(enum tcd_dialect d, const char *s, size_t n,
		    int flags, struct tcd_call *c);
void		 tcd_call_free(struct tcd_call *c);

/*
 * The parameters of the tool a qwen3 call names, as its schema's
 * "properties" list them: where a value ends is then said by them
 * (lib/tcdialect.c, "Parameter boundaries"). name[i] is len[i] bytes;
 * maxlen the longest.
 */
struct tcd_params {
	const char	**name;
	size_t		*len;
	size_t		 n, maxlen;
};

/*
 * tcd_parse_flags, the call's tool having the parameters pp (NULL: not
 * known, the same as tcd_parse_flags). Only qwen3 reads them.
 */
int		 tcd_parse_params(enum tcd_dialect d, const char *s, size_t n,
		    int flags, const struct tcd_params *pp, struct tcd_call *c);

/*
 * The head of a qwen3 call: whether s (n bytes) is, white space aside,
 * an optional wrapper (<tool_call> or <seed:tool_call>) and
 * "<function=NAME>" whose ">" is the last byte of s and the first after
 * "<function=", NAME trimmed, non-empty and holding no "<": its range
 * in *name and *namelen. 1 if so, else 0.
 */
int		 tcd_qwen3_head(const char *s, size_t n, size_t *name,
		    size_t *namelen);

/*
 * The values of a qwen3 call whose tool's parameters are known, found
 * as the call's bytes come: zero the struct, set pp and p (the offset
 * just past <function=NAME>), and call tcd_qscan with the bytes so far
 * (s, n: the call's text from its first byte; eof when no more come).
 * Each byte is looked at once, but for markup begun at the end of the
 * bytes, which is looked at again with the next ones.
 *   TCDQ_MORE   more bytes are needed (at eof: the call has no end)
 *   TCDQ_ARG    a value ended: key, keylen, and the value's bytes
 *               [val, vend), its </parameter> (if written) and layout
 *               newlines not yet removed
 *   TCDQ_END    </function> ends the function at fend
 *   TCDQ_OTHER  what follows <function=NAME> is not a parameter's
 *               tag or </function>: the call is read by today's rule
 */
struct tcd_qscan {
	const struct tcd_params *pp;
	size_t		 p;		/* the next byte to look at */
	int		 st;
	size_t		 depth;		/* calls written inside the value */
	size_t		 key, keylen;	/* the value's parameter */
	size_t		 val, vend;	/* its bytes */
	size_t		 nkey, nkeylen;	/* the next one's */
	size_t		 fend;		/* </function> */
};
#define TCDQ_MORE	0
#define TCDQ_ARG	1
#define TCDQ_END	2
#define TCDQ_OTHER	3
int		 tcd_qscan(struct tcd_qscan *q, const char *s, size_t n,
		    int eof);

/*
 * Whether s (n bytes), a whole JSON value where a form of d with
 * TCD_F_START reads a call at the start of an output, is an answer in
 * JSON instead: a value that JSON reads but no call could be (llama3: an
 * object with neither "parameters" nor "arguments", as vLLM requires one
 * of them). A value that is not JSON is no answer: its call's error
 * says what is wrong with it.
 */
int		 tcd_is_answer(enum tcd_dialect d, const char *s, size_t n);

/* The tool's name of a call read from s: its bytes and, in *len, length. */
const char	*tcd_name(const struct tcd_call *c, const char *s,
		    size_t *len);

/* The dialect's name ("qwen3", "harmony"...), or NULL for no dialect. */
const char	*tcd_dialect_name(int d);

/*
 * What the streaming reader needs to know of each dialect, as data: the
 * forms its calls take in a stream. A form begins with its opening
 * markup, open, found in prose. Several forms may share one open (hermes,
 * glm and qwen3 share "<tool_call>"; mistral's two forms "[TOOL_CALLS]"):
 * then the bytes after it, white space passed, say which: the form whose
 * peek they begin with, or, when none does, the one whose peek is NULL.
 * A reader of one dialect (--format) takes its own forms alone, and its
 * form for an opener whatever follows it. A section's own markup is open,
 * white space and its peek; a call's text begins with its open.
 *
 * A form without TCD_F_SECTION is one call, whose text runs from open
 * to the end of its closing markup: the first of close[] that comes
 * after the markup after (when that is not NULL: qwen3's wrapper ends
 * only after </function>). A form whose close[0] is NULL is a call that
 * ends with its JSON value instead: the value begins at the first "{"
 * of the text after open (tcd_jscan finds its end).
 *
 * A form with TCD_F_SECTION opens a section of calls, whose markup is no
 * call's: in it come calls, each opened by call_open and closed by the
 * first of close[], or, when call_open is NULL, each a JSON value that
 * begins with "{"; between two calls, white space and at most one sep
 * byte (with TCD_F_NEEDSEP, exactly one); after the last, end[] closes
 * the section (and, with TCD_F_OPENEND, so does any other byte: the
 * prose goes on from the end of the last call, white space and a sep
 * after it included). With TCD_F_FIRST the opener is the first byte of
 * the first call.
 *
 * TCD_F_STRINGS: the closing markup counts only outside the strings of
 * the call's JSON, which may hold it (quotes counted from open on, a
 * backslash escaping the byte after it). TCD_F_START: open counts only
 * as the first byte of the output that is not white space, reasoning
 * aside (llama3's bare JSON, pythonic's bare list), and the first call
 * of its section may still be prose: an answer in JSON (tcd_is_answer)
 * is read as prose, not refused as a call. TCD_F_PEEK: the peek must
 * follow open, white space passed, even where the form is alone for its
 * open: else open is prose (llama3's "{" must be followed by a key's
 * '"'; with TCD_F_FIRST the peek is looked at, not passed). TCD_F_LIST:
 * the calls of the section are lists of pythonic calls, each from "["
 * to its "]" (pylit_scan finds it, pylit_calls reads it) instead of JSON
 * values; with TCD_F_START, "[" opens one only where pylit_calls_begin
 * says a list of calls stands. TCD_F_HEAD: a
 * harmony message; tcd_harmony_head reads its head once "<|message|>"
 * has come, and says whether it is a call (closed by close[], outside
 * its JSON's strings) or reasoning or prose (closed by the first of
 * close[], strings not counted, or by the end of input).
 *
 * cut: the markup whose absence at the end of input, after whole JSON,
 * leaves a call (or, for a section, the calls read) whole, said with a
 * warning: the markup that ends a call, which TCD_CUT reads it without,
 * or the section's end. NULL: a call cut by the end of input is
 * truncated, an error. A call that ends with its JSON (llama3's,
 * mistral's) is whole once its JSON is, so that the end-of-sequence
 * token a server strips after it costs nothing and is not warned of.
 *
 * Every markup in the table is at most TCD_MARKUP_MAX bytes long, so
 * that a reader holds no more to find one split across reads, and every
 * markup that ends a call or cuts it short (close, after, end, and the
 * open and call_open of forms with a close) begins with "<".
 */
#define TCD_F_SECTION	0x01
#define TCD_F_STRINGS	0x02
#define TCD_F_START	0x04
#define TCD_F_HEAD	0x08
#define TCD_F_NEEDSEP	0x10
#define TCD_F_OPENEND	0x20
#define TCD_F_FIRST	0x40
#define TCD_F_PEEK	0x80
#define TCD_F_LIST	0x100

#define TCD_MARKUP_MAX	28

struct tcd_form {
	const char	*open;
	enum tcd_dialect dialect;
	const char	*peek;
	unsigned	 flags;
	const char	*call_open;
	const char	*close[4];	/* NULL-terminated */
	const char	*after;
	char		 sep;
	const char	*end[3];	/* NULL-terminated */
	const char	*cut;
};

/* The table, in the order a reader tries its forms; *n its length. */
const struct tcd_form *tcd_forms(size_t *n);

/*
 * The end of a JSON value read across reads, strings and escapes kept
 * from one read to the next: a value that begins with "{" or "[" ends
 * where the bracket that opened it is closed (brackets are counted, not
 * matched: the parser says what is wrong), any other byte is a value of
 * one byte, which the parser refuses. White space before the value is
 * passed. Zero the struct before the value's first byte.
 */
struct tcd_jscan {
	size_t		 depth;
	int		 began, str, esc;
};

/*
 * Passes the n bytes at s: the offset in them just past the value's
 * last byte, or (size_t)-1 when it has not ended (the state kept).
 */
size_t		 tcd_jscan(struct tcd_jscan *js, const char *s, size_t n);

/*
 * The head of a harmony message, from its opener ("<|start|>" or
 * "<|channel|>") to "<|message|>", and the channel, which says what its
 * body is: analysis is reasoning (never a call's place, unless it is
 * addressed to a tool), final is the answer, commentary is a call when
 * addressed to a function and prose (a preamble) when not.
 */
enum tcd_channel {
	TCD_CH_NONE, TCD_CH_ANALYSIS, TCD_CH_COMMENTARY, TCD_CH_FINAL,
	TCD_CH_OTHER
};

struct tcd_head {
	enum tcd_channel channel;
	size_t		 role, rolelen;	/* after <|start|>: "assistant" */
	size_t		 chan, chanlen;	/* the channel's name, as written */
	size_t		 to, tolen;	/* the recipient, tolen 0 if none */
	size_t		 ctype, ctypelen; /* "json", "code"... or 0 */
	size_t		 body;		/* just past <|message|> */
	int		 call;		/* to=functions.NAME: a call */
	size_t		 erroff;	/* a malformed head: where, */
	char		 err[256];	/* and what, one line */
};

/*
 * Reads the head of the message s (n bytes from its opener, white space
 * before it allowed, up to its first "<|message|>" at least) into *h: 0,
 * or -1 with h->erroff and h->err set ("malformed harmony message:
 * ..."). A message with a recipient outside "functions." (browser.search,
 * python) is addressed to a tool the model's own runtime runs: h->call
 * is 0, and a reader treats it as reasoning.
 */
int		 tcd_harmony_head(const char *s, size_t n, struct tcd_head *h);

#endif
