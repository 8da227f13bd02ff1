/* utf8: strict UTF-8 (RFC 3629): no overlongs, surrogates or values past U+10FFFF. */
#include <string.h>

#include "base/utf8.h"

/*
 * Decodes the sequence at s (n bytes available) into *cp. Returns its
 * length, 1 to 4, or 0 when the bytes are not well-formed UTF-8.
 */
size_t
utf8_decode(const char *str, size_t n, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	uint32_t c, min;
	size_t len, i;

	if (n == 0)
		return 0;
	c = s[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if (c >= 0xC2 && c <= 0xDF) {
		len = 2, c &= 0x1F, min = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3, c &= 0x0F, min = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4, c &= 0x07, min = 0x10000;
	} else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return len;
}

/* Writes cp (a Unicode scalar value) as UTF-8 into out[4]; returns the length. */
size_t
utf8_encode(uint32_t cp, char *out)
{
	unsigned char *o = (unsigned char *)out;

	if (cp < 0x80) {
		o[0] = (unsigned char)cp;
		return 1;
	} else if (cp < 0x800) {
		o[0] = (unsigned char)(0xC0 | (cp >> 6));
		o[1] = (unsigned char)(0x80 | (cp & 0x3F));
		return 2;
	} else if (cp < 0x10000) {
		o[0] = (unsigned char)(0xE0 | (cp >> 12));
		o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (unsigned char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (unsigned char)(0xF0 | (cp >> 18));
	o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
	o[3] = (unsigned char)(0x80 | (cp & 0x3F));
	return 4;
}

/* The length of the longest well-formed prefix: n when all of s is UTF-8. */
size_t
utf8_valid(const char *s, size_t n)
{
	size_t i = 0, len;
	uint32_t cp;

	while (i < n) {
		if ((unsigned char)s[i] < 0x80) {
			i++;
			continue;
		}
		if ((len = utf8_decode(s + i, n - i, &cp)) == 0)
			return i;
		i += len;
	}
	return n;
}

/*
 * The length of the longest prefix that is UTF-8 and holds no control
 * character (C0, DEL or C1): n when all of s is plain text of one line,
 * as a name that goes into a prompt, a heading or a routing table must be.
 */
size_t
utf8_plain(const char *s, size_t n)
{
	size_t i = 0, len;
	uint32_t cp;

	while (i < n) {
		if ((unsigned char)s[i] < 0x80) {
			if ((unsigned char)s[i] < 0x20 || s[i] == 0x7F)
				return i;
			i++;
			continue;
		}
		if ((len = utf8_decode(s + i, n - i, &cp)) == 0 ||
		    (cp >= 0x80 && cp < 0xA0))
			return i;
		i += len;
	}
	return n;
}

/* Code points in s, which must be valid UTF-8 (continuation bytes skipped). */
size_t
utf8_count(const char *s, size_t n)
{
	size_t i, count = 0;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			count++;
	return count;
}

/* 3 when s starts with a UTF-8 byte order mark, else 0: its length. */
size_t
utf8_bom(const char *s, size_t n)
{
	return n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

/* Starts at the top of s (n bytes); a byte order mark takes no column. */
void
utf8_cursor_init(struct utf8_cursor *c, const char *s, size_t n)
{
	c->s = s;
	c->start = utf8_bom(s, n);
	c->off = c->start;
	c->line = 1;
	c->col = 1;
	c->cr = 0;
}

/* The next line end in [p, e): a LF, or with cr a CR too; NULL if none. */
static const char *
next_eol(const char *p, const char *e, int cr)
{
	const char *lf, *r;

	lf = memchr(p, '\n', (size_t)(e - p));
	if (cr && (r = memchr(p, '\r', (size_t)((lf != NULL ? lf : e) - p))) !=
	    NULL)
		return r;
	return lf;
}

/*
 * The line and column (both from 1, the column in characters) of the
 * character that starts at byte offset off. A LF ends a line; with cr, as
 * XML counts them, a CR or a CR LF too. Moving forward costs only the
 * bytes in between, and only the last line's are counted one by one;
 * moving back starts again from the top.
 */
void
utf8_cursor_at(struct utf8_cursor *c, size_t off, unsigned long *line,
    unsigned long *col)
{
	const char *s = c->s, *e, *from, *q;
	int cr;

	if (off < c->start)
		off = c->start;		/* a byte order mark is 1:1 */
	e = s + off;
	if (off < c->off) {
		c->off = c->start;
		c->line = 1;
		c->col = 1;
	}
	from = s + c->off;
	/* one look for a CR, rather than one before every LF (and one
	 * just before, whose LF is here) */
	cr = c->cr && ((from > s + c->start && from[-1] == '\r') ||
	    memchr(from, '\r', (size_t)(e - from)) != NULL);
	for (; (q = next_eol(from, e, cr)) != NULL; from = q + 1) {
		c->col = 1;
		if (!(cr && *q == '\n' && q > s + c->start && q[-1] == '\r'))
			c->line++;	/* a CR LF was counted at its CR */
	}
	c->col += utf8_count(from, (size_t)(e - from));
	c->off = off;
	*line = c->line;
	*col = c->col;
}

/* utf8_cursor_at for a single position in s (at least off bytes). */
void
utf8_position(const char *s, size_t off, unsigned long *line,
    unsigned long *col)
{
	struct utf8_cursor c;

	utf8_cursor_init(&c, s, off);
	utf8_cursor_at(&c, off, line, col);
}
