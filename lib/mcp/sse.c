/*
 * sse: Server-Sent Events, read as the HTML standard's "event stream
 * interpretation" says, whatever the chunks the bytes come in.
 */
#include <string.h>

#include "base/buf.h"
#include "mcp/sse.h"

void
sse_init(struct sse *e, size_t max)
{
	memset(e, 0, sizeof(*e));
	e->max = max;
	e->retry = -1;
}

void
sse_free(struct sse *e)
{
	buf_free(&e->line);
	buf_free(&e->data);
	buf_free(&e->type);
	buf_free(&e->id);
}

/* The blank line: the event so far is dispatched, if it has data. */
static int
dispatch(struct sse *e, sse_event_fn *fn, void *arg)
{
	int rc = 0;

	if (e->data.len > 0) {
		e->data.len--;		/* the LF after its last line */
		rc = fn(arg, e->type.len > 0 ? buf_cstr(&e->type) : "message",
		    e->data.data, e->data.len, buf_cstr(&e->id));
	}
	buf_reset(&e->data);
	buf_reset(&e->type);
	return rc;
}

/* One line (len bytes, no end), a field or a comment. */
static int
field(struct sse *e, const char *l, size_t len, sse_event_fn *fn, void *arg)
{
	const char *colon, *v;
	size_t n, vlen, i;
	long r;

	if (len == 0)
		return dispatch(e, fn, arg);
	if (l[0] == ':')
		return 0;
	colon = memchr(l, ':', len);
	n = colon != NULL ? (size_t)(colon - l) : len;
	v = colon != NULL ? colon + 1 : l + len;
	vlen = len - (size_t)(v - l);
	if (vlen > 0 && *v == ' ') {
		v++;
		vlen--;
	}
	if (n == 4 && memcmp(l, "data", 4) == 0) {
		if (e->data.len + vlen + 1 > e->max) {
			e->over = 1;
			return -1;
		}
		buf_add(&e->data, v, vlen);
		buf_addc(&e->data, '\n');
	} else if (n == 5 && memcmp(l, "event", 5) == 0) {
		buf_reset(&e->type);
		buf_add(&e->type, v, vlen);
	} else if (n == 2 && memcmp(l, "id", 2) == 0) {
		if (memchr(v, '\0', vlen) == NULL) {
			buf_reset(&e->id);
			buf_add(&e->id, v, vlen);
		}
	} else if (n == 5 && memcmp(l, "retry", 5) == 0 && vlen > 0) {
		for (i = 0, r = 0; i < vlen && v[i] >= '0' && v[i] <= '9';
		    i++)
			if (r < 100000000L)
				r = r * 10 + (v[i] - '0');
		if (i == vlen)
			e->retry = r;
	}
	return 0;
}

/*
 * Reads n more bytes of the stream, handing each complete event to fn.
 * Returns 0, or -1 when fn stopped or a line or an event's data went
 * past the bound (e->over set; the stream is refused from then on).
 */
int
sse_feed(struct sse *e, const char *p, size_t n, sse_event_fn *fn, void *arg)
{
	const char *end = p + n, *q;
	size_t len;

	if (e->over)
		return -1;
	if (!e->begun && n > 0) {
		/* a BOM, perhaps in pieces: kept in line until it is whole */
		static const char bom[] = "\xEF\xBB\xBF";

		while (p < end && e->line.len < 3 &&
		    (unsigned char)*p == (unsigned char)bom[e->line.len])
			buf_addc(&e->line, *p++);
		if (e->line.len < 3 && p == end)
			return 0;
		if (e->line.len == 3)
			buf_reset(&e->line);
		e->begun = 1;
	}
	while (p < end) {
		if (e->cr && *p == '\n') {	/* a CRLF's LF */
			e->cr = 0;
			p++;
			continue;
		}
		e->cr = 0;
		for (q = p; q < end && *q != '\n' && *q != '\r'; q++)
			continue;
		len = (size_t)(q - p);
		if (e->line.len + len > e->max) {
			e->over = 1;
			return -1;
		}
		if (q == end) {
			buf_add(&e->line, p, len);
			break;
		}
		e->cr = *q == '\r';
		if (e->line.len > 0) {
			buf_add(&e->line, p, len);
			if (field(e, e->line.data, e->line.len, fn, arg) != 0)
				return -1;
			buf_reset(&e->line);
		} else if (field(e, p, len, fn, arg) != 0)
			return -1;
		p = q + 1;
	}
	return 0;
}
