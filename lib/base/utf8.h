/* utf8: validation, decoding, encoding, counting and text positions. */
#ifndef LLMKIT_UTF8_H
#define LLMKIT_UTF8_H

#include <stddef.h>
#include <stdint.h>

size_t	utf8_decode(const char *, size_t, uint32_t *);
size_t	utf8_encode(uint32_t, char *);
size_t	utf8_valid(const char *, size_t);
size_t	utf8_plain(const char *, size_t);
size_t	utf8_count(const char *, size_t);

/* Walks a text forward, so that many positions in one text cost one pass. */
struct utf8_cursor {
	const char	*s;
	size_t		 start;		/* past a byte order mark */
	size_t		 off;
	unsigned long	 line;
	unsigned long	 col;
	int		 cr;		/* CR and CR LF end lines too (XML) */
};

size_t	utf8_bom(const char *, size_t);
void	utf8_cursor_init(struct utf8_cursor *, const char *, size_t);
void	utf8_cursor_at(struct utf8_cursor *, size_t, unsigned long *,
	    unsigned long *);
void	utf8_position(const char *, size_t, unsigned long *, unsigned long *);

#endif
