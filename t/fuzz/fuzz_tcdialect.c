/*
 * fuzz_tcdialect: tcd_parse over any bytes, the first picking the
 * dialect. It must return 0 or -1; on 0 the name is non-empty and every
 * range (the name, each key and value) lies in the text, a hermes call
 * has an arguments object and a raw-text one has none; on -1 the offset
 * is at most the text's length and the message one non-empty line.
 * tcd_parse_text, which gives a hermes call to simdjson first (lib/
 * jsonfast), must read every call as tcd_parse does: the same status,
 * error and offset, name, and arguments' text (jsonw_exact's of the
 * tree). Anything else aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "jsonw.h"
#include "tcdialect.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Whether [off, off + len) lies in n bytes. */
static int
inside(size_t off, size_t len, size_t n)
{
	return off <= n && len <= n - off;
}

/* tcd_parse_text's reading of s, held against tcd_parse's, in a. */
static void
same_text(enum tcd_dialect d, const char *s, size_t n, int ra,
    const struct tcd_call *a)
{
	struct buf want = BUF_INIT, got = BUF_INIT;
	struct tcd_call b;
	const char *na, *nb;
	size_t la, lb;
	int rb;

	rb = tcd_parse_text(d, s, n, &b);
	if (rb != ra)
		abort();
	if (ra != 0) {
		if (b.erroff != a->erroff || strcmp(b.err, a->err) != 0)
			abort();
		tcd_call_free(&b);
		return;
	}
	na = tcd_name(a, s, &la);
	nb = tcd_name(&b, s, &lb);
	if (la != lb || memcmp(na, nb, la) != 0 ||
	    (a->namebuf == NULL) != (b.namebuf == NULL))
		abort();
	if (d == TCD_HERMES) {
		jsonw_exact(&want, a->json);
		if (b.json != NULL)
			jsonw_exact(&got, b.json);
		else
			buf_add(&got, b.argtext.data, b.argtext.len);
		if (got.len != want.len || memcmp(got.data, want.data,
		    got.len) != 0)
			abort();
	}
	buf_free(&want);
	buf_free(&got);
	tcd_call_free(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tcd_call c;
	enum tcd_dialect d;
	const char *s, *name;
	size_t n, i, len;
	int r;

	if (size == 0)
		return 0;
	d = (enum tcd_dialect)(TCD_QWEN3 + data[0] % 4);
	s = (const char *)data + 1;
	n = size - 1;
	r = tcd_parse(d, s, n, &c);
	if (r == 0) {
		if ((c.namebuf == NULL && c.namelen == 0) ||
		    !inside(c.name, c.namelen, n))
			abort();
		for (i = 0; i < c.nargs; i++)
			if (c.args[i].keylen == 0 ||
			    !inside(c.args[i].key, c.args[i].keylen, n) ||
			    !inside(c.args[i].val, c.args[i].vallen, n))
				abort();
		if ((d == TCD_HERMES) != json_is_object(c.json))
			abort();
		if (d != TCD_HERMES && c.namebuf != NULL)
			abort();
		name = tcd_name(&c, s, &len);
		if (len == 0 || name == NULL)
			abort();
		if (c.namebuf != NULL && (name != c.namebuf ||
		    c.namebuf[len] != '\0'))
			abort();
	} else if (r == -1) {
		if (c.erroff > n || c.err[0] == '\0' ||
		    memchr(c.err, '\0', sizeof(c.err)) == NULL ||
		    strchr(c.err, '\n') != NULL ||
		    strncmp(c.err, "malformed ", 10) != 0)
			abort();
	} else
		abort();
	same_text(d, s, n, r, &c);
	tcd_call_free(&c);
	return 0;
}
