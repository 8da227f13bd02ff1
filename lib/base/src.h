/*
 * src: one input as the parsers see it, its display name and its bytes,
 * with a byte order mark recognised once. A parser keeps byte offsets;
 * src_loc turns one into FILE:LINE:COL only when a diagnostic is made.
 * A record of a stream (a line of --lines) is a source of its own whose
 * first line is the line it has in its file. Lines end at a LF, or in
 * XML (src_setxml) also at a CR or CR LF.
 */
#ifndef LLMKIT_SRC_H
#define LLMKIT_SRC_H

#include <stddef.h>

#include "base/diag.h"
#include "base/utf8.h"

struct src {
	const char		*name;	/* display name, "<stdin>" for stdin */
	const char		*s;
	size_t			 n;
	size_t			 start;	/* past a byte order mark, 0 or 3 */
	unsigned long		 line;	/* the line s starts on in its file */
	struct utf8_cursor	 cur;
};

void	src_init(struct src *, const char *, const char *, size_t);
void	src_setline(struct src *, unsigned long);
void	src_setrecord(struct src *, unsigned long);
void	src_setxml(struct src *);
void	src_loc(struct src *, size_t, struct diag_loc *);

#endif
