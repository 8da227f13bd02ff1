/*
 * Unit tests of lib/xmlp: well-formed and broken documents fed from
 * memory and from a file, the exact diagnostics on stderr, positions past
 * a chunk boundary and after multibyte characters, handlers that stop the
 * parse, the nesting limit of xmlp_depth, and xmlwf (expat's own
 * checker) as the judge of well-formedness.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <expat.h>

#include "base/buf.h"
#include "base/diag.h"
#include "unit.h"
#include "xml/xmlp.h"

/* Parses s[0..n) from memory; the status and what stderr got. */
static int
parse_buffer(const char *s, size_t n, const char *name, const char **err)
{
	XML_Parser p = xmlp_create();
	int status;

	unit_capture_begin();
	status = xmlp_parse_buffer(p, s, n, name);
	*err = unit_capture_end();
	XML_ParserFree(p);
	return status;
}

/* A file holding s[0..n), open for reading, gone when it is closed. */
static FILE *
doc_file(const char *s, size_t n)
{
	char path[sizeof(UNIT_TMPNAME)];
	FILE *fp;

	unit_tmpfile(path, s, n);
	if ((fp = fopen(path, "rb")) == NULL)
		unit_bail(path);
	unlink(path);
	return fp;
}

/* The same through a file read with xmlp_parse_stream. */
static int
parse_stream(const char *s, size_t n, const char *name, const char **err)
{
	XML_Parser p = xmlp_create();
	FILE *fp = doc_file(s, n);
	int status;

	unit_capture_begin();
	status = xmlp_parse_stream(p, fp, name);
	*err = unit_capture_end();
	fclose(fp);
	XML_ParserFree(p);
	return status;
}

/*
 * Asks xmlwf whether the document is well-formed: its one line of output
 * ("FILE:LINE:COL: message", the column from 0), or "" when it is. The
 * file it read was named path.
 */
static char *
xmlwf(const char *s, size_t n, char *path)
{
	struct buf b = BUF_INIT;
	char cmd[128], chunk[512];
	size_t len;
	FILE *pp;

	unit_tmpfile(path, s, n);
	snprintf(cmd, sizeof(cmd), "xmlwf -e UTF-8 '%s' 2>&1", path);
	if ((pp = popen(cmd, "r")) == NULL)
		unit_bail("popen xmlwf");
	while ((len = fread(chunk, 1, sizeof(chunk), pp)) > 0)
		buf_add(&b, chunk, len);
	pclose(pp);
	unlink(path);
	return buf_cstr(&b);
}

/*
 * Checks that xmlwf agrees with the expected diagnostic want (ours, or ""
 * for a well-formed document): same verdict, same line and column, and
 * the same message where ours is expat's ("xml-syntax").
 */
static void
check_oracle(const char *s, size_t n, const char *want, const char *what)
{
	char path[sizeof(UNIT_TMPNAME)], expect[512];
	char *got = xmlwf(s, n, path);
	unsigned long line, col;
	int msgat = 0;

	if (want[0] == '\0')
		expect[0] = '\0';
	else if (sscanf(want, "%*[^:]:%lu:%lu: error: %n", &line, &col,
		     &msgat) != 2 || msgat == 0) {
		unit_ok(0, "expected diagnostic has the FILE:LINE:COL form");
		free(got);
		return;
	} else if (strncmp(want + msgat, "invalid UTF-8", 13) == 0) {
		/* xmlwf says "invalid token" or "partial character" there */
		snprintf(expect, sizeof(expect), "%s:%lu:%lu: ", path, line,
		    col - 1);
		if (strlen(got) > strlen(expect))
			got[strlen(expect)] = '\0';
	} else if (strcmp(want + msgat, "not well-formed (NUL byte)\n") == 0)
		/* what xmlwf calls an invalid token, named */
		snprintf(expect, sizeof(expect), "%s:%lu:%lu: %s", path,
		    line, col - 1, "not well-formed (invalid token)\n");
	else
		snprintf(expect, sizeof(expect), "%s:%lu:%lu: %s", path,
		    line, col - 1, want + msgat);
	unit_str(got, expect, unit_fmt("xmlwf agrees: %s", what));
	free(got);
}

struct tcase {
	const char	*what;
	const char	*in;
	size_t		 n;
	int		 status;
	const char	*err;		/* stderr, exactly */
	int		 oracle;	/* xmlwf -e UTF-8 judges it too */
};

#define IN(s)	s, sizeof(s) - 1

static const struct tcase cases[] = {
	{ "a well-formed document",
	  IN("<?xml version=\"1.0\"?>\n"
	     "<a x=\"1\">t&amp;<b/><![CDATA[<]]></a>\n"),
	  DIAG_OK, "", 1 },
	{ "a mismatched tag, at the name in the end tag",
	  IN("<r>\n  <a>\n  </b>\n</r>\n"),
	  DIAG_INVALID, "t.xml:3:5: error: mismatched tag\n", 1 },
	{ "columns in characters after 2-, 3- and 4-byte characters",
	  IN("<a>\xc3\xa9\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80</b>"),
	  DIAG_INVALID, "t.xml:1:10: error: mismatched tag\n", 1 },
	{ "an empty input",
	  IN(""),
	  DIAG_INVALID, "t.xml:1:1: error: no element found\n", 1 },
	{ "an input of blank lines",
	  IN("\n\n  "),
	  DIAG_INVALID, "t.xml:3:3: error: no element found\n", 1 },
	{ "text after the root element",
	  IN("<a/>\njunk"),
	  DIAG_INVALID, "t.xml:2:1: error: junk after document element\n", 1 },
	{ "an unclosed root element",
	  IN("<a>\n<b></b>\n"),
	  DIAG_INVALID, "t.xml:3:1: error: no element found\n", 1 },
	{ "an undefined entity",
	  IN("<a>x &nbsp;</a>"),
	  DIAG_INVALID, "t.xml:1:6: error: undefined entity\n", 1 },
	{ "a character reference to a forbidden character",
	  IN("<a>&#1;</a>"),
	  DIAG_INVALID,
	  "t.xml:1:4: error: reference to invalid character number\n", 1 },
	{ "a raw control character",
	  IN("<a>\x1b[0m</a>"),
	  DIAG_INVALID, "t.xml:1:4: error: not well-formed (invalid token)\n",
	  1 },
	{ "U+FFFE, valid UTF-8 that XML forbids",
	  IN("<a>\xef\xbf\xbe</a>"),
	  DIAG_INVALID, "t.xml:1:4: error: not well-formed (invalid token)\n",
	  1 },
	{ "a byte that is not UTF-8, with its offset",
	  IN("<a>\xc3\xa9\xff</a>"),
	  DIAG_INVALID,
	  "t.xml:1:5: error: invalid UTF-8: byte 0xff at byte offset 5\n", 1 },
	{ "a lead byte without its continuation",
	  IN("<a>\xe2\x82</a>"),
	  DIAG_INVALID,
	  "t.xml:1:4: error: invalid UTF-8: byte 0xe2 at byte offset 3\n", 1 },
	{ "a character cut off by the end of the input",
	  IN("<a>\xc3"),
	  DIAG_INVALID,
	  "t.xml:1:4: error: invalid UTF-8: byte 0xc3 at byte offset 3\n", 1 },
	{ "a surrogate encoded in UTF-8",
	  IN("<a x='\xed\xa0\x80'/>"),
	  DIAG_INVALID,
	  "t.xml:1:7: error: invalid UTF-8: byte 0xed at byte offset 6\n", 1 },
	{ "a byte that is not UTF-8 in an element name",
	  IN("<a\xc0\x80/>"),
	  DIAG_INVALID,
	  "t.xml:1:3: error: invalid UTF-8: byte 0xc0 at byte offset 2\n", 1 },
	{ "a UTF-8 byte order mark, skipped",
	  IN("\xef\xbb\xbf<a/>"),
	  DIAG_OK, "", 1 },
	{ "a byte order mark, counted as the first character",
	  IN("\xef\xbb\xbf<a></b>"),
	  DIAG_INVALID, "t.xml:1:7: error: mismatched tag\n", 1 },
	{ "a declared Latin-1 document with a Latin-1 byte",
	  IN("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<a>caf\xe9</a>"),
	  DIAG_INVALID,
	  "t.xml:2:7: error: invalid UTF-8: byte 0xe9 at byte offset 50\n", 1 },
	{ "a declared Latin-1 document of ASCII alone",
	  IN("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<a>cafe</a>"),
	  DIAG_OK, "", 1 },
	{ "a declared encoding expat does not know",
	  IN("<?xml version=\"1.0\" encoding=\"x-unknown\"?><a/>"),
	  DIAG_OK, "", 1 },
	{ "a malformed XML declaration",
	  IN("<?xml version=\"1.0\" encoding=\"\"?><a/>"),
	  DIAG_INVALID, "t.xml:1:31: error: XML declaration not well-formed\n",
	  1 },
	{ "a UTF-16LE byte order mark",
	  IN("\xff\xfe<\0a\0/\0>\0"),
	  DIAG_INVALID,
	  "t.xml:1:1: error: invalid UTF-8: byte 0xff at byte offset 0\n", 0 },
	{ "a UTF-16BE byte order mark",
	  IN("\xfe\xff\0<\0a\0/\0>"),
	  DIAG_INVALID,
	  "t.xml:1:1: error: invalid UTF-8: byte 0xfe at byte offset 0\n", 0 },
	{ "UTF-16LE without a byte order mark",
	  IN("<\0a\0/\0>\0"),
	  DIAG_INVALID, "t.xml:1:2: error: not well-formed (NUL byte)\n",
	  0 },
	{ "UTF-16BE without a byte order mark",
	  IN("\0<\0a\0/\0>"),
	  DIAG_INVALID, "t.xml:1:1: error: not well-formed (NUL byte)\n",
	  0 },
	{ "a lone lead byte before a NUL",
	  IN("\xc3\0<a/>"),
	  DIAG_INVALID,
	  "t.xml:1:1: error: invalid UTF-8: byte 0xc3 at byte offset 0\n", 0 },
	{ "a single byte of UTF-16 byte order mark",
	  IN("\xff"),
	  DIAG_INVALID,
	  "t.xml:1:1: error: invalid UTF-8: byte 0xff at byte offset 0\n", 1 },
	{ "a NUL later in the document",
	  IN("<a>\0</a>"),
	  DIAG_INVALID, "t.xml:1:4: error: not well-formed (NUL byte)\n",
	  1 },
	{ "CR LF and CR as line ends",
	  IN("<a>\r\n\r</b>"),
	  DIAG_INVALID, "t.xml:3:3: error: mismatched tag\n", 1 },
};

static void
test_cases(void)
{
	const struct tcase *c;
	const char *err;
	size_t i;
	int status;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		c = &cases[i];
		status = parse_buffer(c->in, c->n, "t.xml", &err);
		unit_long(status, c->status,
		    unit_fmt("buffer: %s: status", c->what));
		unit_str(err, c->err, unit_fmt("buffer: %s: stderr", c->what));

		status = parse_stream(c->in, c->n, "t.xml", &err);
		unit_long(status, c->status,
		    unit_fmt("stream: %s: status", c->what));
		unit_str(err, c->err, unit_fmt("stream: %s: stderr", c->what));

		if (c->oracle)
			check_oracle(c->in, c->n, c->err, c->what);
	}
}

/*
 * "<r>\n<a>", then count times U+00E9 (2 bytes each, so that one of them
 * straddles the 64 KiB chunk boundary), then tail.
 */
static void
long_line(struct buf *b, size_t count, const char *tail)
{
	size_t i;

	buf_reset(b);
	buf_adds(b, "<r>\n<a>");
	for (i = 0; i < count; i++)
		buf_add(b, "\xc3\xa9", 2);
	buf_adds(b, tail);
}

static void
both(const char *s, size_t n, int want_status, const char *want_err,
    const char *what)
{
	const char *err;
	int status;

	status = parse_buffer(s, n, "big.xml", &err);
	unit_long(status, want_status, unit_fmt("buffer: %s", what));
	unit_str(err, want_err, unit_fmt("buffer: %s", what));
	status = parse_stream(s, n, "big.xml", &err);
	unit_long(status, want_status, unit_fmt("stream: %s", what));
	unit_str(err, want_err, unit_fmt("stream: %s", what));
	check_oracle(s, n, want_err, what);
}

static void
test_chunks(void)
{
	struct buf b = BUF_INIT;

	unit_ok((65536 - 7) % 2 == 1,
	    "the test's U+00E9 straddles the chunk boundary");
	long_line(&b, 40000, "</a></r>\n");
	both(b.data, b.len, DIAG_OK, "",
	    "a character straddling the chunk boundary");
	long_line(&b, 40000, "</b></r>\n");
	/* "<a>" and 40000 characters, then "</": the name is column 40006 */
	both(b.data, b.len, DIAG_INVALID,
	    "big.xml:2:40006: error: mismatched tag\n",
	    "an error past the chunk boundary, columns in characters");
	long_line(&b, 40000, "\xff</a></r>\n");
	both(b.data, b.len, DIAG_INVALID,
	    "big.xml:2:40004: error: invalid UTF-8: byte 0xff at byte offset "
	    "80007\n", "a bad byte past the chunk boundary, with its offset");
	/* 200 chunks and a bit, to go through the loops many times */
	long_line(&b, 200 * 32768 + 5, "</a>\n</r>\n<x/>");
	both(b.data, b.len, DIAG_INVALID,
	    "big.xml:4:1: error: junk after document element\n",
	    "an error in the last of 201 chunks");
	buf_reset(&b);
	buf_adds(&b, "<r>");
	while (b.len < 2 * 65536 - 4)
		buf_addc(&b, ' ');
	buf_adds(&b, "</r>");
	unit_long((long)b.len, 2 * 65536, "test input is exactly 2 chunks");
	both(b.data, b.len, DIAG_OK, "",
	    "an input of exactly two chunks, then a final empty one");
	b.len--;
	both(b.data, b.len, DIAG_INVALID,
	    "big.xml:1:131069: error: unclosed token\n",
	    "an input one byte short of two chunks");
	buf_free(&b);
}

/* What the handlers of the stop test saw, and their parser. */
struct run {
	XML_Parser	 p;
	const char	*name;
	int		 elements;
	struct diag_loc	 at_b;
};

/* Notes where <b> is; reports <stop> as a rule violation and stops. */
static void XMLCALL
on_start(void *data, const XML_Char *el, const XML_Char **attr)
{
	struct run *r = data;
	struct diag_loc loc;

	r->elements++;
	if (strcmp(el, "b") == 0)
		xmlp_loc(r->p, r->name, &r->at_b);
	if (strcmp(el, "stop") == 0) {
		xmlp_loc(r->p, r->name, &loc);
		diag_at(DIAG_ERROR, &loc, "test", "<%s> is not allowed here",
		    el);
		XML_StopParser(r->p, XML_FALSE);
	}
}

/* A parser whose start handler is on_start, with r as its state. */
static void
run_init(struct run *r, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->p = xmlp_create();
	XML_SetUserData(r->p, r);
	XML_SetStartElementHandler(r->p, on_start);
}

static void
test_handler_stop(void)
{
	static const char doc[] = "<r>\n  <b/>\n\t<stop/>\n  <c/>\n</r>\n";
	struct xmlp_origin o = { "h.xml", 1, 1, 0 };
	struct xmlp_error xe;
	struct run r;
	const char *err;
	int status;

	run_init(&r, "h.xml");
	unit_capture_begin();
	status = xmlp_parse_buffer(r.p, doc, sizeof(doc) - 1, "h.xml");
	err = unit_capture_end();
	unit_long(status, DIAG_INVALID, "a handler's stop: DIAG_INVALID");
	unit_str(err, "h.xml:3:2: error: <stop> is not allowed here\n",
	    "a handler's stop: only the handler's message");
	unit_long(r.elements, 3, "no element after the stop is seen");
	unit_long((long)r.at_b.line, 2, "xmlp_loc in a handler: line");
	unit_long((long)r.at_b.col, 3, "xmlp_loc in a handler: column");
	unit_ok(r.at_b.file != NULL && strcmp(r.at_b.file, "h.xml") == 0 &&
	    r.at_b.path == NULL, "xmlp_loc: file name, no path");
	unit_long(xmlp_error(r.p, &o, &xe), -1,
	    "xmlp_error: nothing to describe after a handler's stop");
	XML_ParserFree(r.p);
}

/* Counts open elements through xmlp_depth, which may stop the parse. */
struct deep {
	XML_Parser		 p;
	struct xmlp_origin	 o;
	size_t			 depth;
	size_t			 elements;
	int			 stopped;
};

static void XMLCALL
deep_start(void *data, const XML_Char *el, const XML_Char **attr)
{
	struct deep *d = data;
	struct xmlp_error xe;

	if (d->stopped)
		return;
	if (xmlp_depth(d->p, d->depth + 1, &d->o, &xe) != 0) {
		diag_at(DIAG_ERROR, &xe.loc, xe.rule, "%s", xe.text);
		d->stopped = 1;
		return;
	}
	d->depth++;
	d->elements++;
}

static void XMLCALL
deep_end(void *data, const XML_Char *el)
{
	struct deep *d = data;

	if (!d->stopped)
		d->depth--;
}

/* "<r>" and n - 1 nested "<a>", then tail; the status and stderr. */
static int
parse_deep(struct deep *d, size_t n, const char *tail, const char **err)
{
	struct buf b = BUF_INIT;
	size_t i;
	int status;

	memset(d, 0, sizeof(*d));
	d->o.file = "d.xml";
	d->o.line = d->o.col = 1;
	d->p = xmlp_create();
	XML_SetUserData(d->p, d);
	XML_SetElementHandler(d->p, deep_start, deep_end);
	buf_adds(&b, "<r>\n");
	for (i = 1; i < n; i++)
		buf_adds(&b, "<a>");
	for (i = 1; i < n; i++)
		buf_adds(&b, "</a>");
	buf_adds(&b, tail);
	unit_capture_begin();
	status = xmlp_parse_within(d->p, b.data, b.len, &d->o, NULL, NULL);
	*err = unit_capture_end();
	XML_ParserFree(d->p);
	buf_free(&b);
	return status;
}

static void
test_depth(void)
{
	struct deep d;
	const char *err;

	unit_long(parse_deep(&d, XMLP_DEPTH_MAX, "</r>", &err), DIAG_OK,
	    "depth: XMLP_DEPTH_MAX levels are well-formed");
	unit_str(err, "", "depth: at the limit, no message");
	unit_long((long)d.elements, XMLP_DEPTH_MAX, "depth: every element");
	/* past the limit, and a syntax error some chunks later */
	unit_long(parse_deep(&d, XMLP_DEPTH_MAX + 1,
	    unit_fmt("</r>%*s&", 3 * XMLP_CHUNK, ""), &err), DIAG_INVALID,
	    "depth: one level more is refused");
	unit_str(err, unit_fmt("d.xml:2:%d: error: element nesting deeper "
	    "than 4096 levels\n", 3 * (XMLP_DEPTH_MAX - 1) + 1),
	    "depth: the message, at the start tag, and nothing after it");
	unit_long((long)d.elements, XMLP_DEPTH_MAX,
	    "depth: no element after the stop");
	unit_long(XMLP_DEPTH_MAX, 4096, "depth: the limit the messages name");
	unit_long(parse_deep(&d, 1, "<a><b><c/></b></a></r>", &err),
	    DIAG_OK, "depth: shallow");
	unit_long((long)d.depth, 0, "depth: every level closed");
}

static void
test_handler_stop_stream(void)
{
	struct buf b = BUF_INIT;
	struct run r;
	const char *err;
	int status;
	FILE *fp;

	buf_adds(&b, "<r>\n");
	while (b.len < 70000)
		buf_adds(&b, "  <b/>\n");
	buf_adds(&b, "\xc3\xa9<stop/>\n<c/></r>");
	fp = doc_file(b.data, b.len);
	buf_free(&b);
	run_init(&r, "h.xml");
	unit_capture_begin();
	status = xmlp_parse_stream(r.p, fp, "h.xml");
	err = unit_capture_end();
	fclose(fp);
	unit_long(status, DIAG_INVALID,
	    "stream: a stop in the second chunk: DIAG_INVALID");
	unit_str(err, "h.xml:10002:2: error: <stop> is not allowed here\n",
	    "stream: a stop in the second chunk: the handler's message");
	unit_long(r.elements, 10002, "stream: every element up to the stop");
	XML_ParserFree(r.p);
}

/* Parses s[0..n), found at o in a larger file; what stderr got. */
static int
parse_within(const char *s, size_t n, const struct xmlp_origin *o,
    const char **err)
{
	XML_Parser p = xmlp_create();
	int status;

	unit_capture_begin();
	status = xmlp_parse_within(p, s, n, o, NULL, NULL);
	*err = unit_capture_end();
	XML_ParserFree(p);
	return status;
}

static void
test_within(void)
{
	static const char text[] = "prose first: <a>\n<b></c></a>";
	struct xmlp_origin o = { "mail.txt", 7, 14, 120 };
	const char *err;

	unit_long(parse_within(text + 13, sizeof(text) - 14, &o, &err),
	    DIAG_INVALID, "within: status");
	unit_str(err, "mail.txt:8:6: error: mismatched tag\n",
	    "within: a line after the first keeps its column");
	parse_within("<a></c>", 7, &o, &err);
	unit_str(err, "mail.txt:7:19: error: mismatched tag\n",
	    "within: the first line is shifted by the origin's column");
	parse_within("<a>\xff</a>", 8, &o, &err);
	unit_str(err, "mail.txt:7:17: error: invalid UTF-8: byte 0xff at "
	    "byte offset 123\n", "within: the byte offset is the file's");
	parse_within("\xfe\xff", 2, &o, &err);
	unit_str(err, "mail.txt:7:14: error: invalid UTF-8: byte 0xfe at "
	    "byte offset 120\n", "within: a refused start at the origin");
}

static void
test_error_struct(void)
{
	struct xmlp_origin o = { "e.xml", 1, 1, 0 };
	struct xmlp_error xe;
	XML_Parser p;

	p = xmlp_create();
	unit_long(xmlp_error(p, &o, &xe), -1,
	    "xmlp_error: nothing to describe before a parse");
	XML_Parse(p, "<a>\n  <b>&bad;</b></a>", 20, 1);
	unit_long(xmlp_error(p, &o, &xe), 0, "xmlp_error: describes an error");
	unit_str(xe.rule, "xml-syntax", "xmlp_error: rule");
	unit_str(xe.text, "undefined entity", "xmlp_error: message");
	unit_long((long)xe.loc.line, 2, "xmlp_error: line");
	unit_long((long)xe.loc.col, 6, "xmlp_error: column");
	XML_ParserFree(p);
}

/* What a collecting caller's xmlp_report_fn keeps. */
struct kept {
	int			n;
	struct xmlp_error	err;
};

static void
keep(void *arg, const struct xmlp_error *err)
{
	struct kept *k = arg;

	k->n++;
	k->err = *err;
}

/* Parses s, a whole file, with errors handed to keep; what stderr got. */
static int
parse_kept(const char *s, struct kept *k, const char **err)
{
	struct xmlp_origin o = { "k.xml", 1, 1, 0 };
	XML_Parser p = xmlp_create();
	int status;

	memset(k, 0, sizeof(*k));
	unit_capture_begin();
	status = xmlp_parse_within(p, s, strlen(s), &o, keep, k);
	*err = unit_capture_end();
	XML_ParserFree(p);
	return status;
}

static void
test_report_fn(void)
{
	struct xmlp_origin o = { "mail.txt", 7, 14, 120 };
	struct kept k;
	const char *err;
	XML_Parser p;

	unit_long(parse_kept("<a>\n<b></c></a>", &k, &err), DIAG_INVALID,
	    "report fn: status");
	unit_str(err, "", "report fn: nothing printed");
	unit_long(k.n, 1, "report fn: called once");
	unit_str(k.err.rule, "xml-syntax", "report fn: rule");
	unit_str(k.err.text, "mismatched tag", "report fn: message");
	unit_long((long)k.err.loc.line, 2, "report fn: line");
	unit_long((long)k.err.loc.col, 6, "report fn: column");
	unit_long((long)k.err.offset, 9, "report fn: byte offset");
	unit_long(parse_kept("<a>x</a>", &k, &err), DIAG_OK,
	    "report fn: a good document");
	unit_long(k.n, 0, "report fn: not called for a good document");
	unit_long(parse_kept("\xff\xfe<a/>", &k, &err), DIAG_INVALID,
	    "report fn: a refused start");
	unit_str(k.err.rule, "utf8", "report fn: a refused start's rule");
	unit_long((long)k.err.offset, 0, "report fn: a refused start's offset");

	p = xmlp_create();
	memset(&k, 0, sizeof(k));
	xmlp_parse_within(p, "<a></c>", 7, &o, keep, &k);
	unit_long((long)k.err.offset, 125, "report fn: the offset is the file's");
	unit_long((long)k.err.loc.col, 19, "report fn: the column the file's");
	XML_ParserFree(p);
}

/* Bare "&": rule bare-ampersand, at the "&" itself, as toolcall-parse. */
static void
test_bare_amp(void)
{
	static const struct {
		const char	*doc;
		const char	*rule;
		unsigned long	 col;
	} amps[] = {
		{ "<a>x & y</a>", "bare-ampersand", 6 },
		{ "<a>x &amp y</a>", "bare-ampersand", 6 },
		{ "<a>x &</a>", "bare-ampersand", 6 },
		{ "<a>\xC3\xA9&&lt;</a>", "bare-ampersand", 5 },
		{ "<a>&#x4g;</a>", "bare-ampersand", 4 },
		{ "<a b=\"1 & 2\"/>", "bare-ampersand", 9 },
		{ "<a>&bad;</a>", "xml-syntax", 4 },
		{ "<a&b/>", "xml-syntax", 3 },
		{ "<a b&c=\"\"/>", "xml-syntax", 5 },
	};
	char what[96];
	struct kept k;
	const char *err;
	size_t i;

	for (i = 0; i < sizeof(amps) / sizeof(amps[0]); i++) {
		parse_kept(amps[i].doc, &k, &err);
		snprintf(what, sizeof(what), "bare &: %s is %s at column %lu",
		    amps[i].doc, amps[i].rule, amps[i].col);
		/* one character of two bytes before it in one case */
		unit_ok(k.n == 1 && strcmp(k.err.rule, amps[i].rule) == 0 &&
		    k.err.loc.col == amps[i].col && k.err.offset ==
		    amps[i].col - 1 + (amps[i].doc[3] == '\xC3'), what);
	}
	parse_buffer("<a>x & y</a>", 12, "t.xml", &err);
	unit_str(err, "t.xml:1:6: error: bare \"&\" (write &amp;)\n",
	    "bare &: the message toolcall-parse gives");
}

static void
test_json_errors(void)
{
	const char *err;

	diag_setjson(1);
	parse_buffer("<a></b>", 7, "j.xml", &err);
	unit_str(err, "{\"file\":\"j.xml\",\"line\":1,\"column\":6,"
	    "\"severity\":\"error\",\"rule\":\"xml-syntax\","
	    "\"message\":\"mismatched tag\"}\n",
	    "--errors=json: rule xml-syntax");
	parse_buffer("<a>\x80</a>", 8, "j.xml", &err);
	unit_str(err, "{\"file\":\"j.xml\",\"line\":1,\"column\":4,"
	    "\"severity\":\"error\",\"rule\":\"utf8\","
	    "\"message\":\"invalid UTF-8: byte 0x80 at byte offset 3\"}\n",
	    "--errors=json: rule utf8");
	diag_setjson(0);

	diag_setquiet(1);
	unit_long(parse_buffer("<a>", 3, "q.xml", &err), DIAG_INVALID,
	    "quiet: the status stays");
	unit_str(err, "", "quiet: nothing on stderr");
	diag_setquiet(0);
}

/* A directory opens for reading, but reading it fails with EISDIR. */
static void
test_read_error(void)
{
	static const char dir[] = "/tmp";
	XML_Parser p = xmlp_create();
	char want[128];
	const char *err;
	int status;
	FILE *fp;

	if ((fp = fopen(dir, "r")) == NULL) {
		unit_ok(0, "a directory opens for reading");
		XML_ParserFree(p);
		return;
	}
	unit_capture_begin();
	status = xmlp_parse_stream(p, fp, dir);
	err = unit_capture_end();
	fclose(fp);
	unit_long(status, DIAG_TROUBLE, "a read error is DIAG_TROUBLE");
	snprintf(want, sizeof(want), "test_xmlp: %s: %s\n", dir,
	    strerror(EISDIR));
	unit_str(err, want, "a read error: tool: NAME: strerror");
	XML_ParserFree(p);
}

int
main(int argc, char *argv[])
{
	(void)argc;
	diag_setprogname(argv[0]);
	test_cases();
	test_chunks();
	test_handler_stop();
	test_handler_stop_stream();
	test_depth();
	test_within();
	test_error_struct();
	test_report_fn();
	test_bare_amp();
	test_json_errors();
	test_read_error();
	return unit_done();
}
