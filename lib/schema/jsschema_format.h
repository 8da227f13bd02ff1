/* jsschema_format: the string formats of JSON Schema Draft-07 ("format"). */
#ifndef LLMKIT_JSSCHEMA_FORMAT_H
#define LLMKIT_JSSCHEMA_FORMAT_H

#include <stddef.h>

/* jsschema_format_check's answer when it cannot tell. */
#define JSSCHEMA_FORMAT_TROUBLE	(-2)

/*
 * 1 when s (len bytes, UTF-8) is valid for format name, 0 when not, -1
 * when name is not a format we know (then it is only an annotation),
 * JSSCHEMA_FORMAT_TROUBLE when the check needs a library that is loaded
 * then and it cannot be loaded: libidn2 and PCRE2 for a non-ASCII or
 * "xn--" label of idn-hostname or idn-email and an "xn--" label of
 * hostname or email, PCRE2 for regex. jsschema_format_trouble says why.
 */
int	jsschema_format_check(const char *name, const char *s, size_t len);
/*
 * Why the last check that could not tell could not: "cannot load libidn2
 * (REASON)" or "cannot load libpcre2-8 (REASON)"; NULL before any.
 */
const char *jsschema_format_trouble(void);

#endif
