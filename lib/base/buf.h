/* buf: a growable byte buffer; every append succeeds or ends the process. */
#ifndef LLMKIT_BUF_H
#define LLMKIT_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

struct buf {
	char	*data;
	size_t	 len;
	size_t	 cap;
};

#define BUF_INIT { NULL, 0, 0 }

void	 buf_grow(struct buf *, size_t);
void	 buf_add(struct buf *, const void *, size_t);
void	 buf_adds(struct buf *, const char *);
void	 buf_addu(struct buf *, unsigned long long);
void	 buf_printf(struct buf *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 buf_vprintf(struct buf *, const char *, va_list)
	    __attribute__((format(printf, 2, 0)));
char	*buf_cstr(struct buf *);
void	 buf_free(struct buf *);

/* Room for n more bytes; the hot paths call this once, then write freely. */
static inline void
buf_reserve(struct buf *b, size_t n)
{
	if (b->cap - b->len < n)
		buf_grow(b, n);
}

static inline void
buf_addc(struct buf *b, char c)
{
	if (b->len == b->cap)
		buf_grow(b, 1);
	b->data[b->len++] = c;
}

static inline void
buf_reset(struct buf *b)
{
	b->len = 0;
}

#endif
