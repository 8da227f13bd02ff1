/*
 * jansson-parse: the floor jsonresp-check --lines is measured against. It
 * reads its input whole (FILE, or stdin) as jsonresp-check does, loads
 * each non-blank line with its own json_loadb call and the flags of
 * lib/jsonx.h, and frees the value: no schema, no positions, no output but
 * the count of documents. A line that does not load ends it with status 1,
 * so that a benchmark cannot time a parse that failed.
 *
 *	jansson-parse [FILE]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/io.h"
#include "json/jsonx.h"

int
main(int argc, char *argv[])
{
	struct buf in = BUF_INIT;
	json_error_t err;
	json_t *v;
	const char *s, *nl, *name = "-";
	size_t n, off, len, k;
	unsigned long count = 0, line = 0;
	FILE *fp;

	if (argc > 2) {
		fputs("usage: jansson-parse [file]\n", stderr);
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
	for (off = 0; off < n; off += len + 1) {
		line++;
		nl = memchr(s + off, '\n', n - off);
		len = nl != NULL ? (size_t)(nl - (s + off)) : n - off;
		for (k = 0; k < len && strchr(" \t\r", s[off + k]) != NULL; k++)
			;
		if (k == len)
			continue;
		if ((v = json_loadb(s + off, len, JSONX_FLAGS &
		    ~JSON_DISABLE_EOF_CHECK, &err)) == NULL) {
			fprintf(stderr, "jansson-parse: %s:%lu: %s\n", name, line,
			    err.text);
			return 1;
		}
		json_decref(v);
		count++;
	}
	buf_free(&in);
	printf("%lu documents\n", count);
	return 0;
}
