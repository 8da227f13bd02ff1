/*
 * sse: a reader of text/event-stream, the Server-Sent Events of the
 * HTML standard, fed as the bytes come (split anywhere): lines ended by
 * CR, LF or CRLF, a BOM at the start passed over, comments, the fields
 * event, data, id and retry; each complete event handed to a function.
 * An event's data (and a line) is bounded: past the bound the stream is
 * refused, so that a server cannot make us hold more than that.
 */
#ifndef LLMKIT_SSE_H
#define LLMKIT_SSE_H

#include <stddef.h>

#include "base/buf.h"

/*
 * An event: its type ("message" when none was given), its data (len
 * bytes, the lines joined by LF), the last event id so far ("" when none;
 * NUL-ended). Returns 0 to go on, -1 to stop reading.
 */
typedef int	sse_event_fn(void *, const char *type, const char *data,
		    size_t len, const char *id);

struct sse {
	struct buf	 line;		/* the line being read */
	struct buf	 data;		/* the event's data so far */
	struct buf	 type;		/* its type, or empty */
	struct buf	 id;		/* the last event id */
	size_t		 max;		/* the most data and line hold */
	long		 retry;		/* the reconnection time asked, or -1 */
	int		 cr;		/* the last byte was a CR */
	int		 begun;		/* the first bytes (a BOM?) are read */
	int		 over;		/* refused: a line or data past max */
};

void	sse_init(struct sse *, size_t);
int	sse_feed(struct sse *, const char *, size_t, sse_event_fn *, void *);
void	sse_free(struct sse *);

#endif
