/*
 * tcopenai: tool calls out of what an OpenAI-compatible server has
 * already parsed: a Chat Completions response, a Responses API response,
 * the SSE stream of either, or Ollama's /api/chat lines. It is fed the
 * bytes in pieces of any size, finds which form they are in, and reports
 * through callbacks, in the order of the input: the message's text, its
 * reasoning, each tool call the moment it is complete (its id, its name,
 * its arguments as a JSON object), and each problem with its line and
 * column. The forms, the fields read and every message are at the top
 * of lib/tcopenai.c.
 */
#ifndef LLMKIT_TCOPENAI_H
#define LLMKIT_TCOPENAI_H

#include <stddef.h>

#include <jansson.h>

#include "base/diag.h"

/*
 * A tool call, valid for the time of the callback it is given to. The
 * strings hold what the server sent, decoded from JSON; each ends with a
 * NUL, but may hold NUL bytes too: use the lengths. An empty id is none.
 */
struct tcopenai_call {
	const char	*id;		/* its id, or NULL when none is given */
	size_t		 idlen;
	const char	*name;		/* the tool's name (in an error, may */
	size_t		 namelen;	/* be empty) */
	json_t		*args;		/* the arguments; NULL in an error */
	const char	*text;		/* the arguments as sent: a string's */
	size_t		 textlen;	/* value, an object's JSON text */
	unsigned long	 line, col;	/* where the call begins */
};

/* A problem: severity, where (lines and columns from 1), and what. */
struct tcopenai_diag {
	enum diag_severity	 severity;
	unsigned long		 line, col;
	const char		*rule;
	const char		*path;	/* a JSON Pointer, or NULL */
	const char		*message;	/* one line, without the path */
	const struct tcopenai_call *call;	/* the call refused, or NULL */
};

/*
 * What the reader tells, each callback given arg; any may be NULL. A
 * callback that returns non-zero stops the reader (a failed write): it
 * tells nothing more, and tcopenai_feed and tcopenai_end return -1.
 */
struct tcopenai_cb {
	int	(*text)(void *, const char *, size_t);
	int	(*reasoning)(void *, const char *, size_t);
	int	(*call)(void *, const struct tcopenai_call *);
	int	(*diag)(void *, const struct tcopenai_diag *);
	void	*arg;
};

/* The form the input was found in. */
enum tcopenai_form {
	TCOPENAI_NONE,		/* nothing but white space yet */
	TCOPENAI_JSON,		/* JSON documents (one or several) */
	TCOPENAI_LINES,		/* JSON lines: one document a line */
	TCOPENAI_SSE		/* server-sent events */
};

struct tcopenai;

struct tcopenai	*tcopenai_new(const struct tcopenai_cb *);
int		 tcopenai_feed(struct tcopenai *, const char *, size_t);
int		 tcopenai_end(struct tcopenai *);
int		 tcopenai_status(const struct tcopenai *);
enum tcopenai_form tcopenai_form(const struct tcopenai *);
void		 tcopenai_free(struct tcopenai *);

#endif
