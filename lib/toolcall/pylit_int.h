/*
 * pylit_int: what the literal reader (pylit.c) lends the calls form and
 * the scanner (pylit_calls.c), and no caller of pylit.h sees: the state
 * of a reading and the pieces that read a value and what is around it.
 */
#ifndef LLMKIT_PYLIT_INT_H
#define LLMKIT_PYLIT_INT_H

#include <stddef.h>
#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <jansson.h>

#include "base/buf.h"
#include "toolcall/pylit.h"

#define LIT	"invalid Python literal"
#define CALL	"invalid pythonic call"

/*
 * The kinds of Python value, as far as JSON and hashing tell them apart
 * (an int beyond 64 bits is K_INT though its JSON is a string).
 */
enum pylit_kind {
	K_NONE, K_BOOL, K_INT, K_FLOAT, K_STR, K_LIST, K_TUPLE, K_DICT, K_SET
};

/* A reading of a text: where it is, its first error, its buffers. */
struct pylit_p {
	const char		*s;
	size_t			 n;
	size_t			 pos;
	struct pylit_error	*err;
	int			 failed;
	size_t			 signoff;	/* the sign being applied */
	size_t			 maxdepth;	/* the deepest value read */
	size_t			 deepat;	/* its offset */
	struct buf		 str;		/* a string, as it is decoded */
	struct buf		 num;		/* a number's digits, no '_' */
	uint32_t		 hi;		/* half a surrogate pair */
	size_t			 hioff;		/* its escape */
};

/* A letter or '_', which a name starts with; then digits too. */
static inline int
pylit_ident0(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline int
pylit_ident(int c)
{
	return pylit_ident0(c) || (c >= '0' && c <= '9');
}

/*
 * The first byte from i on in s (n bytes) that may end a run of a
 * string's plain bytes: its quote q, a backslash, a line end, or with
 * high a byte past ASCII; n when there is none. 16 bytes at a time, as
 * most of a long string is plain.
 */
static inline size_t
pylit_plain(const char *s, size_t i, size_t n, char q, int high)
{
#ifdef __SSE2__
	const __m128i vq = _mm_set1_epi8(q), bs = _mm_set1_epi8('\\'),
	    nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
	__m128i v;
	int m;

	for (; i + 16 <= n; i += 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		m = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
		    _mm_cmpeq_epi8(v, vq), _mm_cmpeq_epi8(v, bs)),
		    _mm_or_si128(_mm_cmpeq_epi8(v, nl),
		    _mm_cmpeq_epi8(v, cr))));
		if (high)
			m |= _mm_movemask_epi8(v);
		if (m != 0)
			return i + (size_t)__builtin_ctz((unsigned)m);
	}
#endif
	for (; i < n; i++)
		if (s[i] == q || s[i] == '\\' || s[i] == '\n' ||
		    s[i] == '\r' || (high && (unsigned char)s[i] >= 0x80))
			break;
	return i;
}

void	 pylit_init(struct pylit_p *, const char *, size_t, size_t,
	    struct pylit_error *);
void	 pylit_done(struct pylit_p *);
json_t	*pylit_need(json_t *);
void	 pylit_fail(struct pylit_p *, size_t, const char *, const char *, ...)
	    __attribute__((format(printf, 4, 5)));
void	 pylit_expected(struct pylit_p *, size_t, const char *, const char *);
int	 pylit_blanks(struct pylit_p *, int, int);
json_t	*pylit_value(struct pylit_p *, size_t, int, struct buf *,
	    enum pylit_kind *);
int	 pylit_after(struct pylit_p *, int, enum pylit_kind, size_t);
void	 pylit_duplicate(struct pylit_p *, size_t, size_t, const char *,
	    const struct buf *, const struct buf *);

#endif
