/*
 * tcdialect_int: what the files of lib/tcdialect share: the byte
 * helpers of the parsers, their errors, and the reading of a call's JSON
 * (jansson's, with simdjson's fast path where the reading is hermes's).
 * Private to lib/tcdialect*.c.
 */
#ifndef LLMKIT_TCDIALECT_INT_H
#define LLMKIT_TCDIALECT_INT_H

#include <stddef.h>
#include <string.h>

#include "toolcall/tcdialect.h"

#define TCDI_NONE	((size_t)-1)
#define TCDI_LIT(s)	(s), (sizeof(s) - 1)

static inline int
tcdi_is_ws(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

static inline size_t
tcdi_skip_ws(const char *s, size_t n, size_t p)
{
	while (p < n && tcdi_is_ws(s[p]))
		p++;
	return p;
}

/* Whether s (n bytes) holds the len bytes of lit at p. */
static inline int
tcdi_at(const char *s, size_t n, size_t p, const char *lit, size_t len)
{
	return p <= n && n - p >= len && memcmp(s + p, lit, len) == 0;
}

size_t	 tcdi_find(const char *, size_t, size_t, const char *, size_t);
size_t	 tcdi_find_last(const char *, size_t, size_t, const char *, size_t);
int	 tcdi_span(const char *, size_t, size_t, size_t *, size_t *);
int	 tcdi_fail(struct tcd_call *, enum tcd_dialect, size_t, const char *,
	    ...) __attribute__((format(printf, 4, 5)));
int	 tcdi_json_call(enum tcd_dialect, const char *, size_t, size_t, int,
	    int, struct tcd_call *);
int	 tcdi_json_args(enum tcd_dialect, const char *, size_t, size_t,
	    struct tcd_call *);

int	 tcdi_parse_harmony(const char *, size_t, int, struct tcd_call *);
int	 tcdi_parse_deepseek(const char *, size_t, int, struct tcd_call *);
int	 tcdi_parse_mistral(const char *, size_t, int, struct tcd_call *);
int	 tcdi_parse_llama3(const char *, size_t, int, struct tcd_call *);
int	 tcdi_parse_kimi(const char *, size_t, int, struct tcd_call *);

#endif
