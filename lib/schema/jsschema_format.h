/* jsschema_format: the string formats of JSON Schema Draft-07 ("format"). */
#ifndef LLMKIT_JSSCHEMA_FORMAT_H
#define LLMKIT_JSSCHEMA_FORMAT_H

#include <stddef.h>

/*
 * 1 when s (len bytes, UTF-8) is valid for format name, 0 when not, -1
 * when name is not a format we know (then it is only an annotation).
 */
int	jsschema_format_check(const char *name, const char *s, size_t len);

#endif
