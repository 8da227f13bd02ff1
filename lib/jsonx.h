/*
 * jsonx: jansson helpers. Values are read one at a time from a text held
 * in memory, each with its byte offset, so that diagnostics can point at
 * a line and column; a text is either one JSON array of values or a
 * sequence of values separated by whitespace (JSON lines).
 */
#ifndef LLMKIT_JSONX_H
#define LLMKIT_JSONX_H

#include <stddef.h>

#include <jansson.h>

/*
 * How every llmkit tool reads JSON: any value at top level, text after it
 * allowed (the caller goes on), "\u0000" kept, and every number a double,
 * as JSON.parse makes it (an integer beyond 2^53 is rounded, not refused).
 */
#define JSONX_FLAGS	(JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK | \
			 JSON_ALLOW_NUL | JSON_DECODE_INT_AS_REAL)

struct jsonx_error {
	size_t	offset;		/* byte offset of the problem in the text */
	char	rule[24];	/* "json-syntax", "utf8" */
	char	text[JSON_ERROR_TEXT_LENGTH + 48];
};

struct jsonx_seq {
	const char	*s;
	size_t		 n;
	size_t		 off;
	int		 array;		/* the text is one array of values */
	int		 state;		/* 0 first value, 1 later, 2 end */
};

json_t		*jsonx_parse(const char *, size_t, size_t, size_t *,
		    struct jsonx_error *);
size_t		 jsonx_skip_ws(const char *, size_t, size_t);
const char	*jsonx_typename(const json_t *);
size_t		 jsonx_member(const char *, size_t, size_t, const char *);
size_t		 jsonx_element(const char *, size_t, size_t, size_t);
void		 jsonx_seq_init(struct jsonx_seq *, const char *, size_t);
int		 jsonx_seq_next(struct jsonx_seq *, json_t **, size_t *,
		    struct jsonx_error *);

#endif
