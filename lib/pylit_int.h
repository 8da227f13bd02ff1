/*
 * pylit_int: what the literal reader (pylit.c) lends the calls form and
 * the scanner (pylit_calls.c), and no caller of pylit.h sees: the state
 * of a reading and the pieces that read a value and what is around it.
 */
#ifndef LLMKIT_PYLIT_INT_H
#define LLMKIT_PYLIT_INT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "buf.h"
#include "pylit.h"

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
