/*
 * tcsimd: a hermes call's JSON object, or a call's bare arguments,
 * read by simdjson, many times faster than jansson reads it, for a
 * caller that needs the arguments as text rather than as a tree. It
 * takes only what jansson's reading (as lib/tcdialect does it) would give
 * the same bytes for, and declines the rest, which the caller then reads
 * with jansson: so every error, and every case where the two readers
 * differ, stays jansson's. The reader is loaded only once enough JSON
 * has come for it to pay (lib/json/jsimd.h); until then, and
 * in a build without simdjson, every function here declines.
 */
#ifndef LLMKIT_TCSIMD_H
#define LLMKIT_TCSIMD_H

#include <stddef.h>

#include "base/buf.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The JSON object s (n bytes, no white space around it): 1 when it is a
 * well-formed hermes call that jansson would read the same, its "name"
 * (decoded) appended to name and its arguments to args as jsonw_exact
 * writes them; 0 when declined (the buffers as they were), for an error
 * or anything jansson's reading would not give the same bytes for: no
 * string "name" or an empty one, "arguments" that is not an object (a
 * string holding one included), "arguments" and "parameters" both, a key
 * that repeats or holds a NUL, an integer past int64 (jansson reads
 * every number as a real then), more than 2048 levels of values.
 */
int	tcsimd_hermes(const char *s, size_t n, struct buf *name,
	    struct buf *args);

/*
 * The JSON object s (n bytes, no white space around it), a call's
 * arguments written bare (harmony, deepseek, mistral's name form, kimi):
 * 1 when jansson would read it alike, the object appended to args as
 * jsonw_exact writes it; 0 when declined (args as it was), for an error,
 * a value that is not an object, or the cases tcsimd_hermes declines
 * among the arguments.
 */
int	tcsimd_object(const char *s, size_t n, struct buf *args);

/*
 * The common chunk of a Chat Completions stream, as lib/tcopenai reads
 * it: an object "chat.completion.chunk" without "error" or "type", whose
 * one choice (index 0) has a delta and no finish_reason; the delta holds
 * no reasoning, refusal or function_call, its content is a string or
 * none, and its tool_calls at most one element, of no id (or an empty
 * one), of type "function" or none, whose function's name and arguments
 * are strings or none. Its parts go to *c, the strings valid up to the
 * next call; 1 when s is that and jansson (as lib/jsonx reads a
 * document) would read it alike, 0 when declined (the reader's own
 * path reads it then).
 */
struct tcsimd_delta {
	const char	*content;
	size_t		 contentlen;
	int		 hascall;	/* a tool call delta: */
	int		 hasindex;	/* its index, when not absent */
	double		 index;
	const char	*name, *args;	/* its function's, where not absent */
	size_t		 namelen, argslen;
	int		 hasname, hasargs;
};

int	tcsimd_chunk(const char *s, size_t n, struct tcsimd_delta *c);

#ifdef __cplusplus
}
#endif

#endif
