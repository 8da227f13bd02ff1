/* xmlesc: escaping for XML 1.0 text and attributes, replacing forbidden characters. */
#include "xml/xmlesc.h"

/*
 * Byte classes: 0 copies as is; 1 is a special character; 2 a C0 control
 * XML forbids; 3 is 0xEF, which may start U+FFFE or U+FFFF; 4 a quote,
 * special only with XMLESC_QUOTES; 5, 6 and 7 are tab, newline and
 * carriage return, special only with their flag.
 */
static const unsigned char cls[256] = {
	2, 2, 2, 2, 2, 2, 2, 2, 2, 5, 6, 2, 2, 7, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	0, 0, 4, 0, 0, 0, 1, 4, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0,
	[0xEF] = 3,
};

/* Whether XML 1.0 allows the code point in a document (production Char). */
int
xmlesc_allowed(uint32_t cp)
{
	if (cp < 0x20)
		return cp == 0x9 || cp == 0xA || cp == 0xD;
	if (cp >= 0xD800 && cp <= 0xDFFF)
		return 0;
	if (cp == 0xFFFE || cp == 0xFFFF)
		return 0;
	return cp <= 0x10FFFF;
}

static void
note_bad(struct xmlesc_bad *bad, size_t off, uint32_t cp)
{
	if (bad == NULL)
		return;
	if (bad->count++ == 0) {
		bad->offset = off;
		bad->cp = cp;
	}
}

/*
 * Appends s (n bytes of valid UTF-8) to out, escaped. Returns the number
 * of forbidden characters replaced, also added to *bad when given.
 */
size_t
xmlesc_append(struct buf *out, const char *s, size_t n, unsigned flags,
    struct xmlesc_bad *bad)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned char plain[8] = { 1, 0, 0, 0, 0, 0, 0, 0 };
	size_t i = 0, run, replaced = 0;
	unsigned char c;

	/* which classes copy as they are, under these flags */
	plain[4] = !(flags & XMLESC_QUOTES);
	plain[5] = !(flags & XMLESC_TAB);
	plain[6] = !(flags & XMLESC_LF);
	plain[7] = !(flags & XMLESC_CR);
	buf_reserve(out, n);
	while (i < n) {
		run = i;
		while (i < n && plain[cls[u[i]]])
			i++;
		buf_add(out, s + run, i - run);
		if (i == n)
			break;
		c = u[i];
		switch (cls[c]) {
		case 1:
		case 4:
			if (c == '&')
				buf_add(out, "&amp;", 5);
			else if (c == '<')
				buf_add(out, "&lt;", 4);
			else if (c == '>')
				buf_add(out, "&gt;", 4);
			else if (c == '"')
				buf_add(out, "&quot;", 6);
			else
				buf_add(out, "&apos;", 6);
			i++;
			break;
		case 5:
			buf_add(out, "&#9;", 4);
			i++;
			break;
		case 6:
			buf_add(out, "&#10;", 5);
			i++;
			break;
		case 7:
			buf_add(out, "&#13;", 5);
			i++;
			break;
		case 2:
			note_bad(bad, i, c);
			replaced++;
			buf_add(out, "\xEF\xBF\xBD", 3);
			i++;
			break;
		default:	/* 0xEF */
			if (i + 2 < n && u[i + 1] == 0xBF &&
			    (u[i + 2] == 0xBE || u[i + 2] == 0xBF)) {
				note_bad(bad, i, u[i + 2] == 0xBE ?
				    0xFFFE : 0xFFFF);
				replaced++;
				buf_add(out, "\xEF\xBF\xBD", 3);
				i += 3;
			} else
				buf_addc(out, (char)u[i++]);
			break;
		}
	}
	return replaced;
}
