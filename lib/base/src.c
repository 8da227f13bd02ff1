/* src: an input's name and bytes, and positions in it made on demand. */

#include "base/src.h"

/* A source named name over s[0..n); s must outlive it. */
void
src_init(struct src *src, const char *name, const char *s, size_t n)
{
	src->name = name;
	src->s = s;
	src->n = n;
	src->start = utf8_bom(s, n);
	src->line = 1;
	utf8_cursor_init(&src->cur, s, n);
}

/* The source is a record that starts on line line of its file. */
void
src_setline(struct src *src, unsigned long line)
{
	src->line = line;
}

/*
 * The source is a record of a stream that starts on line line of its
 * file: past the first line, the bytes of a byte order mark are text, as
 * they are in the middle of a file.
 */
void
src_setrecord(struct src *src, unsigned long line)
{
	src->line = line;
	if (line > 1 && src->start != 0) {
		src->start = 0;
		src->cur.start = src->cur.off = 0;
	}
}

/* Lines end as XML ends them: at a CR LF, a CR or a LF. */
void
src_setxml(struct src *src)
{
	src->cur.cr = 1;
}

/*
 * The place of byte offset off (at most n): its file, line and column,
 * the column in characters, a byte order mark taking none. Offsets asked
 * for in increasing order cost one pass over the text in all; the path
 * member is left as it was.
 */
void
src_loc(struct src *src, size_t off, struct diag_loc *loc)
{
	if (off > src->n)
		off = src->n;
	if (off < src->start)
		off = src->start;
	utf8_cursor_at(&src->cur, off, &loc->line, &loc->col);
	loc->line += src->line - 1;
	loc->file = src->name;
}
