/*
 * fuzz_xmlp: xmlp_parse_buffer on any bytes, with handlers that ask for
 * positions, stop at a <stop> element and keep the nesting depth with
 * xmlp_depth, and xmlp_parse_stream on the same bytes, which must come
 * to the same verdict and error. No element past XMLP_DEPTH_MAX may reach
 * the handlers, and a parse stopped there is DIAG_INVALID. A "utf8"
 * error must point at a byte that starts no UTF-8 character. Anything
 * else aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <expat.h>

#include "base/diag.h"
#include "base/utf8.h"
#include "xml/xmlp.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

struct run {
	XML_Parser	 p;
	unsigned long	 elements;
	size_t		 depth;
	int		 deep;		/* stopped by xmlp_depth */
};

static void XMLCALL
on_start(void *data, const XML_Char *el, const XML_Char **attr)
{
	struct xmlp_origin o = { "<fuzz>", 1, 1, 0 };
	struct run *r = data;
	struct diag_loc loc;
	struct xmlp_error err;

	if (r->deep)
		return;
	if (xmlp_depth(r->p, r->depth + 1, &o, &err) != 0) {
		if (strcmp(err.rule, "nesting-depth") != 0 ||
		    err.loc.line < 1 || err.loc.col < 1)
			abort();
		r->deep = 1;
		return;
	}
	if (++r->depth > XMLP_DEPTH_MAX)
		abort();
	r->elements++;
	xmlp_loc(r->p, "<fuzz>", &loc);
	if (loc.line < 1 || loc.col < 1 || strcmp(loc.file, "<fuzz>") != 0)
		abort();
	if (strcmp(el, "stop") == 0)
		XML_StopParser(r->p, XML_FALSE);
}

static void XMLCALL
on_end(void *data, const XML_Char *el)
{
	struct run *r = data;

	if (r->deep)
		return;
	if (r->depth == 0)
		abort();
	r->depth--;
}

/* One parse; its status, error count and error description. */
struct result {
	int			status;
	int			deep;
	unsigned long		errors;
	int			described;
	struct xmlp_error	err;
};

static void
parse(const char *s, size_t n, int stream, struct result *res)
{
	struct xmlp_origin o = { "<fuzz>", 1, 1, 0 };
	unsigned long before = diag_count(DIAG_ERROR);
	struct run r = { NULL, 0, 0, 0 };
	FILE *fp;

	r.p = xmlp_create();
	XML_SetUserData(r.p, &r);
	XML_SetElementHandler(r.p, on_start, on_end);
	if (stream) {
		/* fmemopen wants at least one byte */
		if ((fp = fmemopen((void *)(n ? s : " "), n ? n : 1, "rb")) ==
		    NULL)
			abort();
		if (n == 0)
			fgetc(fp);
		res->status = xmlp_parse_stream(r.p, fp, "<fuzz>");
		fclose(fp);
	} else
		res->status = xmlp_parse_buffer(r.p, s, n, "<fuzz>");
	res->deep = r.deep;
	res->errors = diag_count(DIAG_ERROR) - before;
	memset(&res->err, 0, sizeof(res->err));
	res->described = xmlp_error(r.p, &o, &res->err);
	XML_ParserFree(r.p);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct result a, b;
	const struct xmlp_error *e = &a.err;
	uint32_t cp;
	size_t off;

	diag_setquiet(1);
	parse(s, size, 0, &a);
	parse(s, size, 1, &b);
	if (a.status != DIAG_OK && a.status != DIAG_INVALID)
		abort();
	/* an error is reported once, a handler's stop not at all */
	if (a.status == DIAG_OK ? a.errors != 0 : a.errors > 1)
		abort();
	if (a.status != b.status || a.errors != b.errors ||
	    a.described != b.described || a.deep != b.deep)
		abort();
	if (a.deep && (a.status != DIAG_INVALID || a.errors != 0))
		abort();
	if (a.described == 0) {
		if (e->loc.line != b.err.loc.line ||
		    e->loc.col != b.err.loc.col ||
		    strcmp(e->rule, b.err.rule) != 0 ||
		    strcmp(e->text, b.err.text) != 0)
			abort();
		if (e->loc.line < 1 || e->loc.col < 1 || a.errors != 1)
			abort();
		if (strcmp(e->rule, "utf8") == 0) {
			if (sscanf(e->text, "invalid UTF-8: byte 0x%*x at byte "
				"offset %zu", &off) != 1)
				abort();
			if (off >= size || (unsigned char)s[off] < 0x80 ||
			    utf8_decode(s + off, size - off, &cp) != 0)
				abort();
		}
	}
	return 0;
}
