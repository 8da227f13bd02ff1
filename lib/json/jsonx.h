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
 * allowed (the caller goes on), "\u0000" kept, every number a double, as
 * JSON.parse makes it (an integer beyond 2^53 is rounded, not refused; a
 * number beyond the double range is an error), and a key that repeats in
 * an object an error, so that no reader acts on a value that another
 * reader of the same text (keeping the first rather than the last) would
 * not see.
 */
#define JSONX_FLAGS	(JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK | \
			 JSON_ALLOW_NUL | JSON_DECODE_INT_AS_REAL | \
			 JSON_REJECT_DUPLICATES)

/*
 * How deep values may nest: jansson's own limit. The top value is level
 * 1, a value inside an array or object one more than it: 2048 empty
 * arrays nested are read, a number inside 2048 arrays is not.
 */
#define JSONX_MAX_DEPTH	JSON_PARSER_MAX_DEPTH

#define JSONX_NOPOS	((size_t)-1)

/*
 * A JSON error. A caller decides by rule and code, never by the wording
 * of text: jsonx alone reads jansson's messages (for the place of an
 * error that only the message names, such as "near 'TOKEN'").
 */
struct jsonx_error {
	enum json_error_code code;	/* jansson's, json_error_unknown if ours */
	size_t	offset;		/* byte offset of the problem in the text */
	size_t	first;		/* duplicate-key: the first key's offset */
	char	rule[24];	/* "json-syntax", "utf8", "duplicate-key"... */
	char	key[80];	/* duplicate-key: the key, quoted and escaped */
	char	text[JSON_ERROR_TEXT_LENGTH + 128];
};

/*
 * Finds the offsets of the values that JSON Pointers name in a text that
 * jansson has read: each array or object on a pointer is indexed once, so
 * that many pointers into one document cost about one pass over it.
 */
struct jsonx_locator {
	const char	*s;
	size_t		 n;
	struct jsonx_cont {
		size_t		 off;		/* the container's '{' or '[' */
		json_t		*keys;		/* object: key -> offset */
		size_t		*elems;		/* array: element offsets */
		size_t		 nelems;
		unsigned long	 used;
	}		 cont[16];
	unsigned long	 clock;
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
json_t		*jsonx_load(const char *, size_t, size_t, json_error_t *);
size_t		 jsonx_skip_ws(const char *, size_t, size_t);
const char	*jsonx_typename(const json_t *);
size_t		 jsonx_member(const char *, size_t, size_t, const char *);
size_t		 jsonx_element(const char *, size_t, size_t, size_t);
void		 jsonx_seq_init(struct jsonx_seq *, const char *, size_t);
int		 jsonx_seq_next(struct jsonx_seq *, json_t **, size_t *,
		    struct jsonx_error *);
void		 jsonx_end_noun(struct jsonx_error *, const char *);
void		 jsonx_dup_text(struct jsonx_error *, unsigned long,
		    unsigned long);
void		 jsonx_locator_init(struct jsonx_locator *, const char *,
		    size_t);
size_t		 jsonx_locate(struct jsonx_locator *, size_t, const char *);
void		 jsonx_locator_free(struct jsonx_locator *);

#endif
