/*
 * fuzz_tcdialect: tcd_parse_flags over any bytes, the first picking the
 * dialect (its value modulo the number of dialects) and whether the
 * call was cut by the end of input (TCD_CUT, the next bit). It must
 * return 0 or -1; on 0 the name is non-empty and every range (the name,
 * the id, each key and value) lies in the text, a call of a JSON dialect
 * has an arguments object and a raw-text one has none; on -1 the offset
 * is at most the text's length and the message one non-empty line.
 * TCD_TEXT, which gives a call that is a JSON object (hermes, llama3,
 * mistral's list) and bare arguments (harmony, deepseek, mistral, kimi)
 * to simdjson first (lib/tcsimd), must read every call as jansson does: the same status, error and offset, name, id,
 * and arguments' text (jsonw_exact's of the tree). The same bytes are
 * also read as a harmony message's head (tcd_harmony_head: its ranges in
 * the text, or its error) and as a JSON value fed to tcd_jscan in two
 * pieces cut where the second byte says, which must end where the whole
 * does. A qwen3 call is read again with parameters known
 * (tcd_parse_params), and tcd_qscan must end alike fed whole and a byte
 * more at a time. Anything else aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/jsonw.h"
#include "toolcall/tcdialect.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Whether [off, off + len) lies in n bytes. */
static int
inside(size_t off, size_t len, size_t n)
{
	return off <= n && len <= n - off;
}

/* The arguments of a JSON call as jsonw_exact writes them, in b. */
static void
args_text(const struct tcd_call *c, struct buf *b)
{
	if (c->json != NULL)
		jsonw_exact(b, c->json);
	else
		buf_add(b, c->argtext.data, c->argtext.len);
}

/* The TCD_TEXT reading of s, held against the one in a. */
static void
same_text(enum tcd_dialect d, const char *s, size_t n, int flags, int ra,
    const struct tcd_call *a)
{
	struct buf want = BUF_INIT, got = BUF_INIT;
	struct tcd_call b;
	const char *na, *nb;
	size_t la, lb;
	int rb;

	rb = tcd_parse_flags(d, s, n, flags | TCD_TEXT, &b);
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
	    (a->namebuf == NULL) != (b.namebuf == NULL) ||
	    a->id != b.id || a->idlen != b.idlen)
		abort();
	if (a->json != NULL) {
		args_text(a, &want);
		args_text(&b, &got);
		if (got.len != want.len || memcmp(got.data, want.data,
		    got.len) != 0)
			abort();
	}
	buf_free(&want);
	buf_free(&got);
	tcd_call_free(&b);
}

static void
check_call(enum tcd_dialect d, const char *s, size_t n, int flags)
{
	struct tcd_call c;
	const char *name;
	size_t i, len;
	int r, json = d >= TCD_HERMES;

	r = tcd_parse_flags(d, s, n, flags, &c);
	if (r == 0) {
		if ((c.namebuf == NULL && c.namelen == 0) ||
		    !inside(c.name, c.namelen, n) ||
		    !inside(c.id, c.idlen, n))
			abort();
		for (i = 0; i < c.nargs; i++)
			if (c.args[i].keylen == 0 ||
			    !inside(c.args[i].key, c.args[i].keylen, n) ||
			    !inside(c.args[i].val, c.args[i].vallen, n))
				abort();
		if (json != json_is_object(c.json) || (json && c.nargs != 0))
			abort();
		if (c.namebuf != NULL && d != TCD_HERMES &&
		    d != TCD_LLAMA3 && d != TCD_MISTRAL)
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
	same_text(d, s, n, flags, r, &c);
	tcd_call_free(&c);
}

/*
 * qwen3 with parameters known (tcd_parse_params): ranges in the text,
 * and tcd_qscan, fed a byte more at a time, ends where it ends fed the
 * whole text.
 */
static void
check_params(const char *s, size_t n)
{
	static const char *names[] = { "path", "content", "a" };
	static size_t lens[] = { 4, 7, 1 };
	static const struct tcd_params pp = { names, lens, 3, 7 };
	struct tcd_qscan q1, q2;
	struct tcd_call c;
	const char *f, *g;
	size_t i, m;
	int r1, r2;

	if (tcd_parse_params(TCD_QWEN3, s, n, 0, &pp, &c) == 0) {
		for (i = 0; i < c.nargs; i++)
			if (!inside(c.args[i].key, c.args[i].keylen, n) ||
			    !inside(c.args[i].val, c.args[i].vallen, n))
				abort();
	} else if (c.erroff > n)
		abort();
	tcd_call_free(&c);
	for (f = s; f + 10 <= s + n && memcmp(f, "<function=", 10) != 0; f++)
		;
	if (f + 10 > s + n ||
	    (g = memchr(f, '>', n - (size_t)(f - s))) == NULL)
		return;
	memset(&q1, 0, sizeof(q1));
	q1.pp = &pp;
	q1.p = (size_t)(g - s) + 1;
	q2 = q1;
	while ((r1 = tcd_qscan(&q1, s, n, 1)) == TCDQ_ARG)
		;
	m = q2.p;
	for (;;) {
		r2 = tcd_qscan(&q2, s, m, m == n);
		if (r2 == TCDQ_MORE && m < n)
			m++;
		else if (r2 != TCDQ_ARG)
			break;
	}
	if (r1 != r2 || (r1 == TCDQ_END && q1.fend != q2.fend))
		abort();
}

static void
check_head(const char *s, size_t n)
{
	struct tcd_head h;

	if (tcd_harmony_head(s, n, &h) == 0) {
		if (!inside(h.role, h.rolelen, n) ||
		    !inside(h.chan, h.chanlen, n) ||
		    !inside(h.to, h.tolen, n) ||
		    !inside(h.ctype, h.ctypelen, n) ||
		    h.body < 11 || h.body > n ||
		    memcmp(s + h.body - 11, "<|message|>", 11) != 0 ||
		    (h.call && (h.tolen <= 10 ||
		    memcmp(s + h.to, "functions.", 10) != 0)) ||
		    (h.channel == TCD_CH_NONE) != (h.chanlen == 0))
			abort();
	} else if (h.erroff > n || strchr(h.err, '\n') != NULL ||
	    strncmp(h.err, "malformed harmony message: ", 27) != 0)
		abort();
}

static void
check_jscan(const char *s, size_t n, size_t cut)
{
	struct tcd_jscan a, b;
	size_t whole, e;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	whole = tcd_jscan(&a, s, n);
	if (whole != (size_t)-1 && (whole == 0 || whole > n))
		abort();
	if (cut > n)
		cut = n;
	if ((e = tcd_jscan(&b, s, cut)) == (size_t)-1 &&
	    (e = tcd_jscan(&b, s + cut, n - cut)) != (size_t)-1)
		e += cut;
	if (e != whole)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum tcd_dialect d;
	const char *s;
	size_t n;
	int flags;

	if (size == 0)
		return 0;
	d = (enum tcd_dialect)(TCD_QWEN3 + data[0] % TCD_NDIALECTS);
	flags = (data[0] / TCD_NDIALECTS) & 1 ? TCD_CUT : 0;
	s = (const char *)data + 1;
	n = size - 1;
	check_call(d, s, n, flags);
	if (d == TCD_HARMONY)
		check_head(s, n);
	if (d == TCD_QWEN3)
		check_params(s, n);
	check_jscan(s, n, n > 0 ? (unsigned char)s[0] : 0);
	return 0;
}
