/* buf: growable byte buffers. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/buf.h"
#include "base/xalloc.h"

/* Makes room for n more bytes (and a terminating NUL), doubling. */
void
buf_grow(struct buf *b, size_t n)
{
	size_t need, cap;

	if (n > SIZE_MAX - b->len - 1)
		xalloc_die();
	need = b->len + n + 1;
	if (need <= b->cap)
		return;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	b->data = xrealloc(b->data, cap);
	b->cap = cap;
}

void
buf_add(struct buf *b, const void *p, size_t n)
{
	if (n == 0)
		return;
	buf_reserve(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

/* The decimal digits of v; the hot paths' cheaper buf_printf("%llu"). */
void
buf_addu(struct buf *b, unsigned long long v)
{
	char tmp[24];
	size_t i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	buf_add(b, tmp + i, sizeof(tmp) - i);
}

void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

/* buf_printf with the arguments in ap (which it uses up). */
void
buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	buf_reserve(b, (size_t)n + 1);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

/* The contents as a C string (embedded NULs stay); never NULL. */
char *
buf_cstr(struct buf *b)
{
	buf_reserve(b, 1);
	b->data[b->len] = '\0';
	return b->data;
}

void
buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}
