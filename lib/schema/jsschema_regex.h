/*
 * jsschema_regex: ECMA-262 regular expressions (as JSON Schema's "pattern" and
 * "format": "regex" read them, with the "u" flag) run on PCRE2. A pattern
 * is checked against ECMA-262's grammar and rewritten where PCRE2 reads
 * the same text differently; what ECMA-262 refuses is refused here too.
 */
#ifndef LLMKIT_JSSCHEMA_REGEX_H
#define LLMKIT_JSSCHEMA_REGEX_H

#include <stddef.h>

struct jsschema_regex;

/*
 * NULL and a message in err (errlen bytes) when p (len bytes, UTF-8) is
 * not a valid ECMA-262 pattern, or when PCRE2, loaded with dlopen by the
 * first call, cannot be loaded: then jsschema_regex_trouble says so, and
 * err holds the same words.
 */
struct jsschema_regex	*jsschema_regex_compile(const char *p, size_t len, char *err,
		    size_t errlen);
/*
 * 1 when the pattern matches somewhere in s (len bytes, UTF-8;
 * unanchored, as JSON Schema asks), 0 when not, -1 on a matching error
 * (e.g. resource limit).
 */
int		 jsschema_regex_search(const struct jsschema_regex *, const char *s, size_t len);
void		 jsschema_regex_free(struct jsschema_regex *);
/*
 * "cannot load libpcre2-8 (REASON)" once PCRE2 could not be loaded (then
 * no pattern compiles, for the life of the process), else NULL.
 */
const char	*jsschema_regex_trouble(void);

/*
 * 1 (the default): patterns compiled from now on run on PCRE2's JIT
 * where it has one; 0: on its interpreter, as where it has none (tests).
 */
extern int	 jsschema_regex_jit;

#endif
