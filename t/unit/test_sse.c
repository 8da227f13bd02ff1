/*
 * Unit tests of lib/mcp/sse: the events of a stream, written as
 * "TYPE|ID|DATA;" each, for the ends of line, a BOM, comments, the
 * fields and their odd forms, an event left unfinished, the bound; and
 * every stream read whole, split at each byte, and one byte at a time,
 * gives the same events.
 */
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "mcp/sse.h"
#include "unit.h"

static int
collect(void *arg, const char *type, const char *data, size_t len,
    const char *id)
{
	struct buf *b = arg;

	buf_printf(b, "%s|%s|", type, id);
	buf_add(b, data, len);
	buf_addc(b, ';');
	return 0;
}

/* The events of text (len bytes) fed in pieces of step bytes (0: whole). */
static int
events(struct buf *out, const char *text, size_t len, size_t step,
    size_t max, long *retry)
{
	struct sse e;
	size_t i, n;
	int rc = 0;

	buf_reset(out);
	sse_init(&e, max);
	for (i = 0; i < len && rc == 0; i += n) {
		n = step == 0 || len - i < step ? len - i : step;
		rc = sse_feed(&e, text + i, n, collect, out);
	}
	if (retry != NULL)
		*retry = e.retry;
	sse_free(&e);
	return rc;
}

struct ev {
	const char	*in;
	const char	*want;
	const char	*what;
};

static const struct ev evs[] = {
	{ "data: a\n\n", "message||a;", "one event, LF" },
	{ "data: a\r\n\r\n", "message||a;", "CRLF" },
	{ "data: a\r\r", "message||a;", "CR alone" },
	{ "data: a\r\ndata: b\r\rdata:c\n\n", "message||a\nb;message||c;",
	    "ends of line mixed" },
	{ "\xEF\xBB\xBF" "data: a\n\n", "message||a;", "a BOM at the start" },
	{ "data: \xEF\xBB\xBF" "a\n\n", "message||\xEF\xBB\xBF" "a;",
	    "a BOM inside is data" },
	{ "\xEF\xBB" "data: a\n\n", "", "half a BOM: a field of another name" },
	{ ": ping\ndata: a\n\n", "message||a;", "a comment" },
	{ "data:a\n\n", "message||a;", "no space after the colon" },
	{ "data:  a\n\n", "message|| a;", "only one space is taken off" },
	{ "data\n\n", "message||;", "a field with no colon: empty data" },
	{ "data\ndata\n\n", "message||\n;", "two empty data lines" },
	{ "event: endpoint\ndata: /m?s=1\n\n", "endpoint||/m?s=1;",
	    "an event type" },
	{ "event: x\n\ndata: a\n\n", "message||a;",
	    "an event without data is not dispatched, and its type ends" },
	{ "id: 7\ndata: a\n\ndata: b\n\n", "message|7|a;message|7|b;",
	    "an id lasts" },
	{ "id: 7\n\nid\ndata: b\n\n", "message||b;", "an empty id clears it" },
	{ "id: 7\ndata: a\n\nid: 8\0x\ndata: b\n\n",
	    "message|7|a;message|7|b;", "an id with a NUL is passed over" },
	{ "retry: 50\ndata: a\n\n", "message||a;", "retry is no event" },
	{ "foo: bar\ndata: a\n\n", "message||a;", "an unknown field" },
	{ "data: a\n", "", "an event the stream ends before" },
	{ "data: a\ndata: b\n\n", "message||a\nb;", "data lines joined" },
	{ "DATA: a\n\n", "", "field names are case-sensitive" },
};

/* The stream of ev->in, of its length with a NUL inside counted. */
static size_t
in_len(const struct ev *ev)
{
	const char *p = ev->in;

	if (strstr(ev->what, "NUL") != NULL)
		return strlen(p) + 1 + strlen(p + strlen(p) + 1);
	return strlen(p);
}

static void
test_events(void)
{
	struct buf out = BUF_INIT, whole = BUF_INIT;
	size_t i, len, step;
	int same;

	for (i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		len = in_len(&evs[i]);
		events(&whole, evs[i].in, len, 0, 1000, NULL);
		unit_mem(whole.data != NULL ? whole.data : "", whole.len,
		    evs[i].want, evs[i].what);
		for (same = 1, step = 1; step <= len && same; step++) {
			events(&out, evs[i].in, len, step, 1000, NULL);
			same = out.len == whole.len && (out.len == 0 ||
			    memcmp(out.data, whole.data, out.len) == 0);
		}
		unit_ok(same, unit_fmt("%s, in pieces of every size",
		    evs[i].what));
	}
	buf_free(&out);
	buf_free(&whole);
}

static void
test_fields(void)
{
	struct buf out = BUF_INIT;
	long retry;

	events(&out, "retry: 2500\n", 12, 0, 100, &retry);
	unit_long(retry, 2500, "retry: the reconnection time");
	events(&out, "retry: 25x\n", 11, 0, 100, &retry);
	unit_long(retry, -1, "retry: not all digits is passed over");
	events(&out, "retry:\n", 7, 0, 100, &retry);
	unit_long(retry, -1, "retry: empty is passed over");
	events(&out, "retry: 99999999999999\n", 22, 0, 100, &retry);
	unit_ok(retry > 0, "retry: a huge value stays positive");
	buf_free(&out);
}

static void
test_bound(void)
{
	struct buf out = BUF_INIT;
	char big[64];
	struct sse e;

	unit_long(events(&out, "data: 0123456789\n\n", 18, 0, 16, NULL), 0,
	    "a line of 16 bytes within a bound of 16");
	unit_long(events(&out, "data: 0123456789\n\n", 18, 0, 15, NULL), -1,
	    "a line past the bound is refused");
	unit_long(events(&out, "data: 0123456789\ndata: 01234567\n\n", 34,
	    0, 20, NULL), 0, "data of 20 bytes (its LFs counted) within 20");
	unit_long(events(&out, "data: 0123456789\ndata: 012345678\n\n", 35,
	    0, 20, NULL), -1, "data past the bound is refused");
	memset(big, 'x', sizeof(big));
	unit_long(events(&out, big, sizeof(big), 5, 20, NULL), -1,
	    "a line past the bound, fed in pieces, is refused");
	sse_init(&e, 10);
	(void)sse_feed(&e, big, sizeof(big), collect, &out);
	unit_long(sse_feed(&e, "\n\n", 2, collect, &out), -1,
	    "a stream refused stays refused");
	unit_ok(e.over, "and says why");
	sse_free(&e);
	buf_free(&out);
}

static int
stop_at_first(void *arg, const char *type, const char *data, size_t len,
    const char *id)
{
	(void)type;
	(void)data;
	(void)len;
	(void)id;
	++*(int *)arg;
	return -1;
}

static void
test_stop(void)
{
	struct sse e;
	int n = 0;

	sse_init(&e, 100);
	unit_long(sse_feed(&e, "data: a\n\ndata: b\n\n", 18, stop_at_first,
	    &n), -1, "a function that stops the reading");
	unit_long(n, 1, "is called once");
	sse_free(&e);
}

int
main(void)
{
	test_events();
	test_fields();
	test_bound();
	test_stop();
	return unit_done();
}
