/*
 * fuzz_verdict: lib/verdict's --lines on any bytes, NUL bytes and all.
 * The input is a whole --lines input: verdict_each must hand on every
 * line that is not blank exactly once, with its number, its offset and
 * its bytes, a line that holds a NUL up to that NUL and no further, and
 * the line after it next; verdict_lines_next must hand on the same when
 * the input comes in reads of every size (a pipe fed a chunk at a time).
 * Each line so handed gets exactly one verdict from verdict_string: a
 * line refused has exactly one error, on its line (a line that holds a
 * NUL is always refused; invalid UTF-8 is named by its offset in the
 * input); a line taken is one JSON string, whose text jansson decodes
 * the same. Then every character of that text (CR LF one line end, as
 * expat counts) is placed by verdict_place: the places must go strictly
 * forward, each between the opening and the closing quote, and a place
 * past the text must be the closing quote. The reports for CI are made
 * of each line, its bytes the file's name and the text (or the error) the
 * message: a GitHub workflow command must be one line of UTF-8 without a
 * control character, its file property without a bare : or ,; -o junit's
 * report, with a failure and a warning, must be well-formed XML (expat).
 * Anything else aborts.
 */
#define _GNU_SOURCE	/* memfd_create */
#include <sys/mman.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <expat.h>
#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/utf8.h"
#include "check/verdict.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static unsigned long
placed(const char *s, size_t n, size_t tok, unsigned long line,
    unsigned long col)
{
	struct diag_item it;

	memset(&it, 0, sizeof(it));
	it.line = line;
	it.col = col;
	verdict_place(s, n, tok, 5, &it, 1);
	if (it.line != 5)
		abort();
	return it.col;
}

/* The places of the text of a string taken, at s[tok]: as said above. */
static void
check_places(const char *s, size_t n, size_t tok, const struct buf *text)
{
	unsigned long line = 1, col = 1, at, last, first, end;
	size_t i, k;
	uint32_t c;
	int cr = 0;

	first = last = placed(s, n, tok, 1, 1);
	end = placed(s, n, tok, 1000000000UL, 1);
	if (placed(s, n, tok, 1000000000UL, 7) != end || first > end)
		abort();
	for (i = 0; i < text->len; i += k) {
		if ((k = utf8_decode(text->data + i, text->len - i, &c)) == 0)
			abort();
		/* the LF of a CR LF has no place of its own */
		if (!(cr && c == '\n')) {
			at = placed(s, n, tok, line, col);
			if ((i > 0 && at <= last) || at >= end)
				abort();
			last = at;
		}
		cr = c == '\r';
		if (c == '\n' || c == '\r') {
			if (c == '\r' || i == 0 ||
			    text->data[i - 1] != '\r') {
				line++;
				col = 1;
			}
		} else
			col++;
	}
	if (text->len > 0 && placed(s, n, tok, line, col) != end)
		abort();
}

/*
 * The reports for CI of a problem whose message is msg, in a file named
 * after the n bytes at s (up to a NUL), on line lineno: as said above.
 */
static void
check_reports(const char *s, size_t n, unsigned long lineno, const char *msg)
{
	struct verdict_tally t = { 2, 1, 1, 0, 0, 0 };
	struct diag_item v[2];
	struct buf name = BUF_INIT, g = BUF_INIT, x = BUF_INIT;
	const char *file, *p, *end;
	XML_Parser xp;
	size_t i;

	buf_add(&name, s, n < 64 ? n : 64);
	file = buf_cstr(&name);
	memset(v, 0, sizeof(v));
	v[0].severity = DIAG_ERROR;
	v[0].line = lineno;
	v[0].col = 1;
	v[0].rule = "r,u:le%";
	v[0].path = file;
	v[0].prefix = 1;
	v[0].message = msg;
	v[1] = v[0];
	v[1].severity = DIAG_WARNING;
	v[1].path = NULL;
	diag_item_github(&g, file, &v[0]);
	if (utf8_valid(g.data, g.len) != g.len ||
	    strncmp(g.data, "::error file=", 13) != 0)
		abort();
	for (i = 0; i < g.len; i++)
		if ((unsigned char)g.data[i] < 0x20 ||
		    (unsigned char)g.data[i] == 0x7f)
			abort();
	/* the file's value ends at the first , and holds no : */
	p = g.data + 13;
	if ((end = memchr(p, ',', g.len - 13)) == NULL ||
	    strncmp(end, ",line=", 6) != 0 ||
	    memchr(p, ':', (size_t)(end - p)) != NULL)
		abort();
	verdict_junit_open(&x, &t);
	verdict_junit_case(&x, file, lineno, DIAG_INVALID, v, 2);
	verdict_junit_case(&x, file, 0, DIAG_OK, &v[1], 1);
	verdict_junit_close(&x);
	if ((xp = XML_ParserCreate(NULL)) == NULL)
		abort();
	if (XML_Parse(xp, x.data, (int)x.len, 1) != XML_STATUS_OK)
		abort();
	XML_ParserFree(xp);
	buf_free(&name);
	buf_free(&g);
	buf_free(&x);
}

/*
 * The one verdict of line lineno, s[0..n) at byte base of the input:
 * DIAG_INVALID with exactly one error, or DIAG_OK with its text.
 */
static int
check_line(const char *s, size_t n, unsigned long lineno, size_t base)
{
	struct diag_list errs = DIAG_LIST_INIT;
	struct buf text = BUF_INIT;
	json_error_t je;
	json_t *v;
	size_t tok;
	unsigned long long off;
	unsigned int byte;
	int status = DIAG_INVALID;

	if (verdict_string(s, n, lineno, base, &text, &tok, &errs) != 0) {
		if (errs.n != 1 || errs.v[0].line != lineno ||
		    errs.v[0].col < 1)
			abort();
		/* invalid UTF-8: the byte named is at its offset, here */
		if (strcmp(errs.v[0].rule, "utf8") == 0 &&
		    (sscanf(errs.v[0].message, "invalid UTF-8: byte 0x%x at "
		    "byte offset %llu", &byte, &off) != 2 || off < base ||
		    off >= base + n || byte != (unsigned char)s[off - base]))
			abort();
		check_reports(s, n, lineno, errs.v[0].message);
		goto out;
	}
	if (memchr(s, '\0', n) != NULL)
		abort();	/* no JSON string line holds a raw NUL */
	if (errs.n != 0 || tok >= n || s[tok] != '"')
		abort();
	/* from the quote: the first line may start with a byte order mark */
	v = json_loadb(s + tok, n - tok, JSON_DECODE_ANY | JSON_ALLOW_NUL,
	    &je);
	if (v == NULL || !json_is_string(v) ||
	    json_string_length(v) != text.len ||
	    memcmp(json_string_value(v), text.data, text.len) != 0)
		abort();
	json_decref(v);
	check_places(s, n, tok, &text);
	check_reports(s, n, lineno, buf_cstr(&text));
	status = DIAG_OK;
out:
	diag_list_free(&errs);
	buf_free(&text);
	return status;
}

/* A line handed on, in seen: "lineno@base:n:" and its bytes. */
static void
note(struct buf *seen, unsigned long lineno, size_t base, const char *s,
    size_t n)
{
	buf_printf(seen, "%lu@%zu:%zu:", lineno, base, n);
	buf_add(seen, s, n);
}

/* verdict_each's rule for a blank line: JSON white space alone. */
static int
blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return 0;
	return 1;
}

struct each {
	struct buf	 seen;
	unsigned long	 lines;		/* verdicts given */
	unsigned long	 invalid;
};

static int
each_line(void *arg, const char *s, size_t n, unsigned long lineno,
    size_t base, int *st)
{
	struct each *e = arg;

	note(&e->seen, lineno, base, s, n);
	*st = check_line(s, n, lineno, base);
	e->lines++;
	e->invalid += *st == DIAG_INVALID;
	return 0;
}

/* What verdict_each must hand on: data cut at '\n', each at its NUL. */
static void
expected(const char *s, size_t size, struct buf *want, unsigned long *lines,
    unsigned long *nul_lines)
{
	const char *nl, *nul;
	unsigned long lineno = 1;
	size_t at, end, n;

	*lines = *nul_lines = 0;
	for (at = 0; at < size; at = end + 1, lineno++) {
		nl = memchr(s + at, '\n', size - at);
		end = nl != NULL ? (size_t)(nl - s) : size;
		nul = memchr(s + at, '\0', end - at);
		n = nul != NULL ? (size_t)(nul - s) + 1 - at : end - at;
		if (blank(s + at, n))
			continue;
		note(want, lineno, at, s + at, n);
		(*lines)++;
		*nul_lines += nul != NULL;
	}
}

/*
 * verdict_lines_next over a pipe fed data a chunk at a time, of sizes
 * drawn from the data, each read(2) getting exactly one chunk: what it
 * hands on, blank lines left out, into seen.
 */
static void
chunked(const char *s, size_t size, struct buf *seen)
{
	struct verdict_lines r;
	const char *line;
	uint32_t x = 2166136261u;
	unsigned long lineno;
	size_t i, at = 0, want, n, base;
	ssize_t w;
	int fd[2], more;

	for (i = 0; i < size; i++)
		x = (x ^ (unsigned char)s[i]) * 16777619u;
	if (pipe(fd) != 0 || fcntl(fd[0], F_SETFL, O_NONBLOCK) != 0)
		abort();
	verdict_lines_init(&r, fd[0]);
	for (lineno = 1;;) {
		more = verdict_lines_next(&r, &line, &n, &base);
		if (more == 1) {
			if (!blank(line, n))
				note(seen, lineno, base, line, n);
			lineno++;
			continue;
		}
		if (more == 0)
			break;
		if (errno != EAGAIN)
			abort();
		if (at == size) {
			close(fd[1]);
			fd[1] = -1;
			continue;
		}
		/* 1 to 8 bytes mostly, now and then up to 4 KiB */
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		want = x % 8 == 0 ? 1 + (x >> 8) % 4096 : 1 + (x >> 8) % 8;
		if (want > size - at)
			want = size - at;
		if ((w = write(fd[1], s + at, want)) <= 0)
			abort();
		at += (size_t)w;
	}
	if (fd[1] != -1)
		abort();	/* the end before all was written */
	verdict_lines_free(&r);
	close(fd[0]);
}

static int
same(const struct buf *a, const struct buf *b)
{
	return a->len == b->len &&
	    (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct each e = { BUF_INIT, 0, 0 };
	struct buf want = BUF_INIT, got = BUF_INIT;
	const char *s = (const char *)data;
	unsigned long lines, nul_lines;
	int fd, st;

	diag_setquiet(1);
	expected(s, size, &want, &lines, &nul_lines);
	if ((fd = memfd_create("lines", 0)) == -1 ||
	    (size > 0 && write(fd, s, size) != (ssize_t)size) ||
	    lseek(fd, 0, SEEK_SET) != 0)
		abort();
	st = verdict_each(fd, "t.jsonl", each_line, &e);
	close(fd);
	if (!same(&e.seen, &want) ||
	    e.lines != lines || e.invalid < nul_lines ||
	    st != (e.invalid > 0 ? DIAG_INVALID : DIAG_OK))
		abort();
	chunked(s, size, &got);
	if (!same(&got, &want))
		abort();
	buf_free(&e.seen);
	buf_free(&want);
	buf_free(&got);
	return 0;
}
