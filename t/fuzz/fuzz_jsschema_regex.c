/*
 * fuzz_jsschema_regex: lib/jsschema_regex on any pattern. The input is the pattern, a
 * NUL byte, then a subject (without a NUL byte the whole input is the
 * pattern); the pattern is cut to its longest valid UTF-8 prefix, as
 * jsschema_regex_compile asks (a schema's strings are always UTF-8). A pattern
 * that does not compile must say why. One that does is searched in a few
 * subjects made from the input: the empty string, the pattern itself,
 * the given subject, the given subject or pattern repeated, and runs of
 * "a" and of the pattern's first character with a character that cannot
 * match after them (what makes a backtracking engine blow up). Every
 * search must end (the match limit; the fuzzer's -timeout catches a hang)
 * with 0, 1 or -1, and a second search of the same subject must give the
 * same answer. Anything else aborts; ASan's leak check covers the frees.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "schema/jsschema_regex.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
fail(const char *why, const char *p, size_t plen, const char *s, size_t slen)
{
	fprintf(stderr, "fuzz_jsschema_regex: %s\npattern: %.*s\nsubject: %.*s\n",
	    why, (int)plen, p, (int)slen, s);
	abort();
}

static void
search(const struct jsschema_regex *re, const char *p, size_t plen, const char *s,
    size_t slen)
{
	int a, b;

	a = jsschema_regex_search(re, s, slen);
	if (a != 0 && a != 1 && a != -1)
		fail("jsschema_regex_search returned neither 0, 1 nor -1", p, plen, s,
		    slen);
	b = jsschema_regex_search(re, s, slen);
	if (a != b)
		fail("a second search gave another answer", p, plen, s, slen);
}

/* s repeated until n bytes are written, then tail. */
static size_t
repeat(char *out, size_t n, const char *s, size_t slen, const char *tail)
{
	size_t k = 0, t = strlen(tail);

	if (slen > 0)
		while (k + slen <= n) {
			memcpy(out + k, s, slen);
			k += slen;
		}
	memcpy(out + k, tail, t);
	return k + t;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data, *nul, *subj;
	char err[512], *buf;
	struct jsschema_regex *re;
	size_t plen, slen, n, first;
	uint32_t cp;

	nul = memchr(in, '\0', size);
	plen = nul != NULL ? (size_t)(nul - in) : size;
	subj = nul != NULL ? nul + 1 : "";
	slen = nul != NULL ? size - plen - 1 : 0;
	plen = utf8_valid(in, plen);
	slen = utf8_valid(subj, slen);

	err[0] = '\0';
	if ((re = jsschema_regex_compile(in, plen, err, sizeof(err))) == NULL) {
		if (err[0] == '\0' || memchr(err, '\0', sizeof(err)) == NULL)
			fail("a pattern refused without a message", in, plen,
			    "", 0);
		return 0;
	}
	search(re, in, plen, "", 0);
	search(re, in, plen, in, plen);
	search(re, in, plen, subj, slen);
	if ((buf = malloc(4 * 256 + 64)) == NULL)
		abort();
	n = repeat(buf, 4 * 256, subj, slen > 256 ? 256 : slen, "");
	search(re, in, plen, buf, n);
	n = repeat(buf, 4 * 256, in, plen > 256 ? 256 : plen, "\n");
	search(re, in, plen, buf, n);
	n = repeat(buf, 64, "a", 1, "!");
	search(re, in, plen, buf, n);
	/* the pattern's first character (or the subject's), repeated */
	first = plen > 0 ? utf8_decode(in, plen, &cp) : 0;
	if (first > 0 && first <= 4) {
		n = repeat(buf, 128, in, first, "\xe2\x80\xa8");
		search(re, in, plen, buf, n);
	}
	free(buf);
	jsschema_regex_free(re);
	return 0;
}
