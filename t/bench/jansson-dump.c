/*
 * jansson-dump: the floor thread-serialize is measured against. It reads
 * its input whole (FILE, or stdin) as thread-serialize does, loads each
 * value of a JSON array or of JSON lines with its own json_loadb call and
 * the flags of lib/jsonx.h, as lib/jsonx.c does, and dumps every value in
 * compact form, one per line, into a buffer written out in large blocks.
 * No checks, no escaping: what is left is the price of jansson itself.
 * With -l it only loads (and frees) the values: the parsing part alone.
 *
 *	jansson-dump [-l] [FILE]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/io.h"
#include "json/jsonx.h"

#define FLUSH_AT	(1 << 16)

static int
ws(char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

static int
to_buf(const char *p, size_t n, void *arg)
{
	buf_add(arg, p, n);
	return 0;
}

static int
flush(struct buf *out)
{
	if (out->len > 0 && fwrite(out->data, 1, out->len, stdout) != out->len)
		return -1;
	buf_reset(out);
	return 0;
}

int
main(int argc, char *argv[])
{
	struct buf in = BUF_INIT, out = BUF_INIT;
	json_error_t err;
	json_t *v;
	const char *s, *why, *name = "-";
	size_t n, off = 0;
	unsigned long count = 0;
	int array = 0, load_only = 0;
	FILE *fp;

	if (argc > 1 && strcmp(argv[1], "-l") == 0) {
		load_only = 1;
		argc--;
		argv++;
	}
	if (argc > 2) {
		fputs("usage: jansson-dump [-l] [file]\n", stderr);
		return 2;
	}
	if (argc == 2)
		name = argv[1];
	if ((fp = io_open(name)) == NULL || io_slurp(fp, &in) != 0) {
		perror(name);
		return 3;
	}
	io_close(fp, name);
	s = buf_cstr(&in);
	n = in.len;
	if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
		off = 3;
	while (off < n && ws(s[off]))
		off++;
	if (off < n && s[off] == '[') {
		array = 1;
		off++;
	}
	for (;;) {
		while (off < n && ws(s[off]))
			off++;
		if (off >= n || (array && s[off] == ']'))
			break;
		if (array && count > 0) {
			why = "expected ','";
			if (s[off] != ',')
				goto bad;
			off++;
		}
		v = json_loadb(s + off, n - off, JSONX_FLAGS, &err);
		why = err.text;
		if (v == NULL)
			goto bad;
		off += (size_t)err.position;
		if (!load_only && json_dump_callback(v, to_buf, &out,
		    JSON_COMPACT | JSON_ENCODE_ANY) != 0) {
			fputs("jansson-dump: cannot dump a value\n", stderr);
			return 3;
		}
		if (!load_only)
			buf_addc(&out, '\n');
		json_decref(v);
		count++;
		if (out.len >= FLUSH_AT && flush(&out) != 0)
			break;
	}
	if (flush(&out) != 0 || io_fshut(stdout, "<stdout>") != 0)
		return 3;
	buf_free(&out);
	buf_free(&in);
	return 0;
bad:
	fprintf(stderr, "jansson-dump: %s: invalid JSON at byte %zu: %s\n",
	    name, off, why);
	return 1;
}
