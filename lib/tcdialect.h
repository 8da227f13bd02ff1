/*
 * tcdialect: one tool call of an open model's dialect, read from its
 * whole text. The streaming reader (lib/toolcall) finds where a call
 * begins and ends in the stream; these parsers take the call's text,
 * from its opening markup to its closing markup, and give its tool's
 * name and its arguments, or the error of a malformed call with the
 * offset it lies at.
 *
 *   qwen3   [<tool_call> | <seed:tool_call>] <function=NAME>
 *           <parameter=KEY>VALUE</parameter> ... </function>
 *           [</tool_call> | </seed:tool_call>]
 *   invoke  <invoke name="NAME"><parameter name="KEY">VALUE</parameter>
 *           ... </invoke>   (its wrappers are the reader's)
 *   glm     <tool_call>NAME<arg_key>KEY</arg_key><arg_value>VALUE
 *           </arg_value> ... </tool_call>
 *   hermes  <tool_call>{"name": NAME, "arguments": {...}}</tool_call>
 *
 * Values of qwen3, invoke and glm are raw text: no entity is decoded.
 * The grammar of each dialect, the decisions taken where models and
 * their reference parsers differ, and the table of every error message
 * are at the top of lib/tcdialect.c.
 */
#ifndef LLMKIT_TCDIALECT_H
#define LLMKIT_TCDIALECT_H

#include <stddef.h>

#include <jansson.h>

#include "buf.h"

enum tcd_dialect { TCD_QWEN3 = 1, TCD_INVOKE, TCD_GLM, TCD_HERMES };

/* One argument: byte ranges in the call's text. */
struct tcd_arg {
	size_t		 key, keylen;
	size_t		 val, vallen;
};

/*
 * Every range lies in the call's text. A hermes name is in namebuf
 * (namebuflen bytes, decoded, NUL-terminated) unless it is written first
 * in its object and without escapes: then only its range in the text is
 * set (name and namelen are 0 otherwise). tcd_name gives whichever is
 * the name.
 */
struct tcd_call {
	size_t		 name, namelen;	/* the tool's name, in the text, */
	char		*namebuf;	/* or hermes's, decoded */
	size_t		 namebuflen;
	struct tcd_arg	*args;		/* raw-text dialects, in order */
	size_t		 nargs, argcap;
	json_t		*json;		/* hermes: the arguments object, */
	struct buf	 argtext;	/* or (tcd_parse_text) their text */
	size_t		 erroff;	/* a malformed call: where, */
	char		 err[256];	/* and what, one line */
};

/*
 * Reads the call s (n bytes: its whole text, opening to closing markup)
 * in dialect d into *c: 0, or -1 with c->erroff and c->err set. The
 * caller frees *c with tcd_call_free, either way.
 */
int		 tcd_parse(enum tcd_dialect d, const char *s, size_t n,
		    struct tcd_call *c);

/*
 * The same, for a caller that needs no tree of a hermes call's
 * arguments: they may come as their JSON text, as jsonw_exact writes the
 * tree, in c->argtext (c->json NULL then), read many times faster. The
 * name, the errors and their offsets are tcd_parse's.
 */
int		 tcd_parse_text(enum tcd_dialect d, const char *s, size_t n,
		    struct tcd_call *c);
void		 tcd_call_free(struct tcd_call *c);

/* The tool's name of a call read from s: its bytes and, in *len, length. */
const char	*tcd_name(const struct tcd_call *c, const char *s,
		    size_t *len);

#endif
