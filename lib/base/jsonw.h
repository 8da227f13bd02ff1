/*
 * jsonw: JSON text written as JavaScript writes it. jsonw_stringify is
 * JSON.stringify after JSON.parse (array-index keys first, shortest
 * round-trip numbers, lowercase \u escapes); jsonw_tostring is String().
 */
#ifndef LLMKIT_JSONW_H
#define LLMKIT_JSONW_H

#include <stddef.h>

#include <jansson.h>

#include "base/buf.h"

void	jsonw_number(struct buf *, double);
void	jsonw_string(struct buf *, const char *, size_t);
void	jsonw_escape(struct buf *, const char *, size_t);
void	jsonw_stringify(struct buf *, const json_t *);
void	jsonw_exact(struct buf *, const json_t *);
void	jsonw_tostring(struct buf *, const json_t *);

#endif
