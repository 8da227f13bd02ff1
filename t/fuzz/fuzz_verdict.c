/*
 * fuzz_verdict: lib/verdict's reading of a --lines line on any bytes. A
 * line that is refused has exactly one error, on its line; a line that
 * is taken must be one JSON string, whose text jansson decodes the same.
 * Then every character of that text (CR LF one line end, as expat counts)
 * is placed by verdict_place: the places must go strictly forward, each
 * between the opening and the closing quote, and a place past the text
 * must be the closing quote. Anything else aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "diag.h"
#include "utf8.h"
#include "verdict.h"

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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diag_list errs = DIAG_LIST_INIT;
	struct buf text = BUF_INIT;
	const char *s = (const char *)data;
	const char *nl = memchr(s, '\n', size);
	size_t n = nl != NULL ? (size_t)(nl - s) : size, tok, i, k;
	unsigned long line = 1, col = 1, at, last, first, end;
	json_error_t je;
	json_t *v;
	uint32_t c;
	int cr = 0;

	diag_setquiet(1);
	if (verdict_string(s, n, 5, &text, &tok, &errs) != 0) {
		if (errs.n != 1 || errs.v[0].line != 5 || errs.v[0].col < 1)
			abort();
		goto out;
	}
	if (errs.n != 0 || tok >= n || s[tok] != '"')
		abort();
	v = json_loadb(s, n, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
	if (v == NULL || !json_is_string(v) ||
	    json_string_length(v) != text.len ||
	    memcmp(json_string_value(v), text.data, text.len) != 0)
		abort();
	json_decref(v);

	first = last = placed(s, n, tok, 1, 1);
	end = placed(s, n, tok, 1000000000UL, 1);
	if (placed(s, n, tok, 1000000000UL, 7) != end || first > end)
		abort();
	for (i = 0; i < text.len; i += k) {
		if ((k = utf8_decode(text.data + i, text.len - i, &c)) == 0)
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
			if (!(c == '\n' && i > 0 && text.data[i - 1] == '\r')) {
				line++;
				col = 1;
			}
		} else
			col++;
	}
	if (text.len > 0 && placed(s, n, tok, line, col) != end)
		abort();
out:
	diag_list_free(&errs);
	buf_free(&text);
	return 0;
}
