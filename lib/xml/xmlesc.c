/* xmlesc: escaping for XML 1.0 text and attributes, replacing forbidden characters. */
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <string.h>

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
 * The escapes, eight bytes each so that one is copied in one move, and
 * which of them each special byte takes (its index plus one).
 */
static const char escapes[8][8] = {
	"&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#9;", "&#10;", "&#13;"
};
static const unsigned char escape_len[8] = { 5, 4, 4, 6, 6, 4, 5, 5 };
static const unsigned char escape_of[128] = {
	['&'] = 1, ['<'] = 2, ['>'] = 3, ['"'] = 4, ['\''] = 5,
	['\t'] = 6, ['\n'] = 7, ['\r'] = 8
};

/*
 * Appends s (n bytes of valid UTF-8) to out, escaped. Returns the number
 * of forbidden characters replaced, also added to *bad when given.
 * Written a block at a time into room for the worst (every byte becoming
 * "&quot;"), since text for a prompt is often JSON, thick with quotes.
 */
size_t
xmlesc_append(struct buf *out, const char *s, size_t n, unsigned flags,
    struct xmlesc_bad *bad)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned char plain[8] = { 1, 0, 0, 0, 0, 0, 0, 0 }, c, k;
	size_t i = 0, block, end, replaced = 0;
	char *o;
#ifdef __SSE2__
	const __m128i amp = _mm_set1_epi8('&'), lt = _mm_set1_epi8('<'),
	    gt = _mm_set1_epi8('>'), ef = _mm_set1_epi8((char)0xEF),
	    ctl = _mm_set1_epi8(0x1F);
	/*
	 * the quotes, and the tab, newline and carriage return that the
	 * flags let through; a byte that stands for none where they do not
	 */
	const __m128i dq = _mm_set1_epi8(flags & XMLESC_QUOTES ? '"' : '&'),
	    sq = _mm_set1_epi8(flags & XMLESC_QUOTES ? '\'' : '&'),
	    tab = _mm_set1_epi8(flags & XMLESC_TAB ? ' ' : '\t'),
	    lf = _mm_set1_epi8(flags & XMLESC_LF ? ' ' : '\n'),
	    cr = _mm_set1_epi8(flags & XMLESC_CR ? ' ' : '\r');
	__m128i v, m;
	int bits;
#endif

	/* which classes copy as they are, under these flags */
	plain[4] = !(flags & XMLESC_QUOTES);
	plain[5] = !(flags & XMLESC_TAB);
	plain[6] = !(flags & XMLESC_LF);
	plain[7] = !(flags & XMLESC_CR);
	while (i < n) {
		block = n - i < 4096 ? n - i : 4096;
		buf_reserve(out, 6 * block + 16);
		o = out->data + out->len;
		for (end = i + block; i < end;) {
#ifdef __SSE2__
			/* sixteen bytes that need no escaping are copied whole */
			while (i + 16 <= end) {
				v = _mm_loadu_si128((const __m128i *)
				    (const void *)(u + i));
				m = _mm_or_si128(_mm_or_si128(
				    _mm_cmpeq_epi8(v, amp), _mm_cmpeq_epi8(v, lt)),
				    _mm_or_si128(_mm_cmpeq_epi8(v, gt),
				    _mm_cmpeq_epi8(v, dq)));
				m = _mm_or_si128(m, _mm_or_si128(
				    _mm_cmpeq_epi8(v, sq), _mm_cmpeq_epi8(v, ef)));
				/*
				 * below 0x20 (its minimum with 0x1F is itself),
				 * unless a control character let through
				 */
				m = _mm_or_si128(m, _mm_andnot_si128(_mm_or_si128(
				    _mm_cmpeq_epi8(v, tab), _mm_or_si128(
				    _mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr))),
				    _mm_cmpeq_epi8(_mm_min_epu8(v, ctl), v)));
				_mm_storeu_si128((__m128i *)(void *)o, v);
				if ((bits = _mm_movemask_epi8(m)) == 0) {
					o += 16;
					i += 16;
					continue;
				}
				bits = __builtin_ctz((unsigned)bits);
				o += bits;
				i += (size_t)bits;
				break;
			}
			if (i >= end)
				break;
#endif
			c = u[i];
			k = cls[c];
			if (plain[k]) {
				*o++ = (char)c;
				i++;
			} else if (k == 2) {
				note_bad(bad, i, c);
				replaced++;
				memcpy(o, "\xEF\xBF\xBD", 3);
				o += 3;
				i++;
			} else if (k != 3) {
				k = escape_of[c] - 1;
				memcpy(o, escapes[k], 8);
				o += escape_len[k];
				i++;
			} else if (i + 2 < n && u[i + 1] == 0xBF &&
			    (u[i + 2] == 0xBE || u[i + 2] == 0xBF)) {
				/* U+FFFE or U+FFFF; may end past the block */
				note_bad(bad, i, u[i + 2] == 0xBE ?
				    0xFFFE : 0xFFFF);
				replaced++;
				memcpy(o, "\xEF\xBF\xBD", 3);
				o += 3;
				i += 3;
			} else
				*o++ = (char)u[i++];
		}
		out->len = (size_t)(o - out->data);
	}
	return replaced;
}
