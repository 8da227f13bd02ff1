/* jsschema_format: the string formats of JSON Schema Draft-07 ("format"). */
#ifndef LLMKIT_JSSCHEMA_FORMAT_H
#define LLMKIT_JSSCHEMA_FORMAT_H

#include <stddef.h>

/* jsschema_format_check's answer when it cannot tell. */
#define JSSCHEMA_FORMAT_TROUBLE	(-2)

/*
 * 1 when s (len bytes, UTF-8) is valid for format name, 0 when not, -1
 * when name is not a format we know (then it is only an annotation),
 * JSSCHEMA_FORMAT_TROUBLE when the check needs libidn2 (idn-hostname,
 * idn-email, and an "xn--" label of hostname or email), which is loaded
 * then, and it cannot be loaded: jsschema_format_trouble says why.
 */
int	jsschema_format_check(const char *name, const char *s, size_t len);
/* Why libidn2 could not be loaded, or NULL when it has not failed. */
const char *jsschema_format_trouble(void);

#endif
