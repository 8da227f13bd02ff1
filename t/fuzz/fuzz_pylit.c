/*
 * fuzz_pylit: pylit_parse, pylit_calls and pylit_scan over any bytes.
 * A literal read must end within the text, and its value, written back
 * as a Python literal (None, True, escapes: not JSON's spelling), must
 * read back whole to the same value; a refused one must point within
 * [off, n] with one line of text, a "utf8" error at a byte that starts no
 * UTF-8 character, a "duplicate-key" error after the first of the two.
 * The calls form the same, each list written back and read again. The
 * scan, fed in pieces of any size, must stop where the same scan of the
 * whole text stops; where the calls are read it must be done at their
 * end, and where it wants more the calls must not be readable. Anything
 * else aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/utf8.h"
#include "toolcall/pylit.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* s as a Python string literal: only what must be escaped is. */
static void
write_string(struct buf *b, const char *s, size_t n)
{
	size_t i;
	unsigned char c;

	buf_addc(b, '"');
	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			buf_printf(b, "\\%c", c);
		else if (c < 0x20 || c == 0x7F)
			buf_printf(b, "\\x%02x", c);
		else
			buf_addc(b, (char)c);
	}
	buf_addc(b, '"');
}

/* v as a Python literal that pylit reads as v. */
static void
write_py(struct buf *b, const json_t *v)
{
	const char *k;
	json_t *e;
	size_t i;
	char t[40];
	void *it;

	switch (json_typeof(v)) {
	case JSON_NULL:
		buf_adds(b, "None");
		break;
	case JSON_TRUE:
		buf_adds(b, "True");
		break;
	case JSON_FALSE:
		buf_adds(b, "False");
		break;
	case JSON_INTEGER:
		buf_printf(b, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		snprintf(t, sizeof(t), "%.17g", json_real_value(v));
		buf_adds(b, t);
		if (strpbrk(t, ".e") == NULL)
			buf_adds(b, ".0");
		break;
	case JSON_STRING:
		write_string(b, json_string_value(v), json_string_length(v));
		break;
	case JSON_ARRAY:
		buf_addc(b, '[');
		json_array_foreach(v, i, e) {
			if (i > 0)
				buf_adds(b, ", ");
			write_py(b, e);
		}
		buf_addc(b, ']');
		break;
	case JSON_OBJECT:
		buf_addc(b, '{');
		for (it = json_object_iter((json_t *)v), i = 0; it != NULL;
		    it = json_object_iter_next((json_t *)v, it), i++) {
			k = json_object_iter_key(it);
			if (i > 0)
				buf_adds(b, ", ");
			write_string(b, k, json_object_iter_key_len(it));
			buf_adds(b, ": ");
			write_py(b, json_object_iter_value(it));
		}
		buf_addc(b, '}');
		break;
	}
}

/* A refusal of the text s[0..n) read from off. */
static void
check_error(const char *s, size_t n, size_t off, const struct pylit_error *e)
{
	uint32_t cp;

	if (e->offset < off || e->offset > n || e->text[0] == '\0' ||
	    memchr(e->text, '\0', sizeof(e->text)) == NULL ||
	    strchr(e->text, '\n') != NULL)
		abort();
	if (strcmp(e->rule, "utf8") == 0) {
		if (e->offset >= n || (unsigned char)s[e->offset] < 0x80 ||
		    utf8_decode(s + e->offset, n - e->offset, &cp) != 0)
			abort();
	} else if (strcmp(e->rule, "duplicate-key") == 0) {
		if (e->first < off || e->first >= e->offset ||
		    e->key[0] != '"' || e->noun == NULL)
			abort();
	} else if (strcmp(e->rule, "py-syntax") != 0 &&
	    strcmp(e->rule, "py-type") != 0 &&
	    strcmp(e->rule, "py-depth") != 0)
		abort();
}

static void
check_literal(const char *s, size_t n, size_t off)
{
	struct pylit_error err;
	struct buf b = BUF_INIT;
	size_t end = (size_t)-1, end2;
	json_t *v, *again;

	if ((v = pylit_parse(s, n, off, &end, &err)) == NULL) {
		check_error(s, n, off, &err);
		return;
	}
	if (end < off || end > n)
		abort();
	write_py(&b, v);
	again = pylit_parse(b.data, b.len, 0, &end2, &err);
	if (again == NULL || end2 != b.len || !json_equal(v, again))
		abort();
	json_decref(again);
	json_decref(v);
	buf_free(&b);
}

/* The calls, and the scan of the same text. */
static void
check_calls(const char *s, size_t n, size_t chunk)
{
	struct pylit_call *calls, *calls2;
	struct pylit_error err;
	struct pylit_scan whole, parts;
	struct buf b = BUF_INIT;
	size_t nc, nc2, end = 0, end2, i, j, have;
	void *it;
	int r, rw, rp;

	r = pylit_calls(s, n, 0, &end, &calls, &nc, &err);
	if (r < 0) {
		if (calls != NULL || nc != 0)
			abort();
		check_error(s, n, 0, &err);
	} else {
		if (end > n)
			abort();
		buf_addc(&b, '[');
		for (i = 0; i < nc; i++) {
			if (calls[i].namelen == 0 ||
			    calls[i].name + calls[i].namelen > end ||
			    !json_is_object(calls[i].args))
				abort();
			buf_printf(&b, "%s%.*s(", i > 0 ? ", " : "",
			    (int)calls[i].namelen, s + calls[i].name);
			/* the keys are names: k=v, ... */
			for (it = json_object_iter(calls[i].args), j = 0;
			    it != NULL; it = json_object_iter_next(
			    calls[i].args, it), j++) {
				buf_printf(&b, "%s%s=", j > 0 ? ", " : "",
				    json_object_iter_key(it));
				write_py(&b, json_object_iter_value(it));
			}
			buf_addc(&b, ')');
		}
		buf_addc(&b, ']');
		if (pylit_calls(b.data, b.len, 0, &end2, &calls2, &nc2,
		    &err) < 0 || end2 != b.len || nc2 != nc)
			abort();
		for (i = 0; i < nc; i++)
			if (calls2[i].namelen != calls[i].namelen ||
			    memcmp(b.data + calls2[i].name, s + calls[i].name,
			    calls[i].namelen) != 0 ||
			    !json_equal(calls2[i].args, calls[i].args))
				abort();
		pylit_calls_free(calls2, nc2);
		pylit_calls_free(calls, nc);
	}
	buf_free(&b);

	pylit_scan_init(&whole, 0);
	rw = pylit_scan(&whole, s, n);
	pylit_scan_init(&parts, 0);
	for (have = 0, rp = PYLIT_MORE; rp == PYLIT_MORE && have < n;) {
		have = have + chunk < n ? have + chunk : n;
		rp = pylit_scan(&parts, s, have);
		if (parts.off > have)
			abort();
	}
	if (whole.off > n || rw != rp ||
	    (rw == PYLIT_DONE && parts.off != whole.off))
		abort();
	if (r == 0 && (rw != PYLIT_DONE || whole.off != end))
		abort();
	if (rw == PYLIT_MORE && r == 0)
		abort();
	if (rw == PYLIT_DONE && pylit_calls(s, whole.off, 0, &end2, &calls2,
	    &nc2, &err) == 0) {
		if (end2 != whole.off)
			abort();
		pylit_calls_free(calls2, nc2);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	size_t k;

	check_literal(s, size, 0);
	check_literal(s, size, size / 2);
	check_calls(s, size, size > 0 ? 1 + data[0] % 7 : 1);
	k = pylit_skip(s, size, size / 3);
	if (k < size / 3 || k > size)
		abort();
	return 0;
}
