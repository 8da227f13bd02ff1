/* xmlp: expat fed in chunks; its errors and positions as diagnostics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <expat.h>

#include "base/diag.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "xml/xmlp.h"

/*
 * Expat allocates through these, so that running out of memory ends the
 * process with status 3, as every other allocation in llmkit does.
 */
static const XML_Memory_Handling_Suite xmlp_mem = { xmalloc, xrealloc, free };

/*
 * A parser that reads its text as UTF-8 whatever the XML declaration
 * says. It never returns NULL: out of memory ends the process.
 */
XML_Parser
xmlp_create(void)
{
	XML_Parser p;

	p = XML_ParserCreate_MM("UTF-8", &xmlp_mem, NULL);
	if (p == NULL)
		xalloc_die();
	return p;
}

/* A position in a text (line and column from 1) in the terms of its file. */
static void
shift(struct diag_loc *loc, const struct xmlp_origin *o, unsigned long line,
    unsigned long col)
{
	loc->file = o->file;
	loc->line = o->line + line - 1;
	loc->col = line == 1 ? o->col + col - 1 : col;
	loc->path = NULL;
}

/* xmlp_loc for a text that sits at o in its file. */
void
xmlp_loc_within(XML_Parser p, const struct xmlp_origin *o, struct diag_loc *loc)
{
	shift(loc, o, (unsigned long)XML_GetCurrentLineNumber(p),
	    (unsigned long)XML_GetCurrentColumnNumber(p) + 1);
}

/* Where the parser is: in a handler, the start of the markup it reports. */
void
xmlp_loc(XML_Parser p, const char *name, struct diag_loc *loc)
{
	struct xmlp_origin o = { name, 1, 1, 0 };

	xmlp_loc_within(p, &o, loc);
}

static void
utf8_error(struct xmlp_error *err, unsigned char byte, unsigned long long off)
{
	err->rule = "utf8";
	snprintf(err->text, sizeof(err->text),
	    "invalid UTF-8: byte 0x%02x at byte offset %llu", byte, off);
}

/* A NUL byte is named as such, not as expat's "invalid token". */
static void
nul_error(struct xmlp_error *err)
{
	snprintf(err->text, sizeof(err->text), "not well-formed (NUL byte)");
}

/* A byte of a name, or of a character reference ("#x41"). */
static int
ref_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '#' || c == '.' || c == '-' ||
	    c == '_' || c == ':' || c >= 0x80;
}

/*
 * An "&" that starts no reference: expat stops just past it, or past the
 * name that follows it, at the byte that cannot go on, ctx[at]. The error
 * is moved back to the "&" and told as toolcall-parse tells it. Returns 0
 * when ctx[at] is no such place.
 */
static int
amp_error(struct xmlp_error *err, const char *ctx, int at)
{
	int i = at;

	while (i > 0 && ref_byte((unsigned char)ctx[i - 1]))
		i--;
	if (i == 0 || ctx[i - 1] != '&')
		return 0;
	i--;
	err->rule = "bare-ampersand";
	snprintf(err->text, sizeof(err->text), "bare \"&\" (write &amp;)");
	/* a name holds no line end: back on the same line */
	err->loc.col -= utf8_count(ctx + i, (size_t)(at - i));
	err->offset -= (size_t)(at - i);
	return 1;
}

/*
 * Describes the error the parser stopped on. Returns 0, or -1 when there
 * is none to describe: no error, a handler stopped or suspended the
 * parse, or memory ran out (which is no fault of the document). Bytes
 * that are not UTF-8, NUL bytes and a bare "&" are told apart from
 * expat's "invalid token" by looking at the input there, which expat
 * keeps around the error.
 */
int
xmlp_error(XML_Parser p, const struct xmlp_origin *o, struct xmlp_error *err)
{
	enum XML_Error code = XML_GetErrorCode(p);
	const char *ctx;
	int at = 0, size = 0;
	uint32_t cp;

	if (code == XML_ERROR_NONE || code == XML_ERROR_ABORTED ||
	    code == XML_ERROR_NO_MEMORY)
		return -1;
	xmlp_loc_within(p, o, &err->loc);
	err->offset = o->offset + (size_t)XML_GetCurrentByteIndex(p);
	err->rule = "xml-syntax";
	snprintf(err->text, sizeof(err->text), "%s", XML_ErrorString(code));
	if (code != XML_ERROR_INVALID_TOKEN && code != XML_ERROR_PARTIAL_CHAR)
		return 0;
	ctx = XML_GetInputContext(p, &at, &size);
	if (ctx == NULL || at < 0 || at >= size)
		return 0;
	if (ctx[at] == '\0')
		nul_error(err);
	else if ((unsigned char)ctx[at] >= 0x80 &&
	    utf8_decode(ctx + at, (size_t)(size - at), &cp) == 0)
		utf8_error(err, (unsigned char)ctx[at], err->offset);
	else if (code == XML_ERROR_INVALID_TOKEN)
		amp_error(err, ctx, at);
	return 0;
}

/*
 * Expat takes text that starts with a UTF-16 byte order mark, or with a
 * NUL byte among its first two, for UTF-16 even when told it is UTF-8.
 * Such a start is described here as the error those bytes would be
 * anywhere else (filling err, printing nothing); returns 0 when the start
 * is fine, -1 otherwise.
 */
int
xmlp_check_start(const char *text, size_t n, const struct xmlp_origin *o,
    struct xmlp_error *err)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i;

	for (i = 0; i < 2 && i < n; i++)
		if (s[i] == 0x00 || s[i] == 0xFE || s[i] == 0xFF)
			break;
	if (i == 2 || i == n)
		return 0;
	if (i == 1 && s[0] >= 0x80)
		i = 0;		/* a lead byte with no continuation */
	shift(&err->loc, o, 1, i + 1);
	err->offset = o->offset + i;
	if (s[i] == 0x00) {
		err->rule = "xml-syntax";
		nul_error(err);
	} else
		utf8_error(err, s[i], o->offset + i);
	return -1;
}

/*
 * For a start-element handler: depth is the element's own depth, 1 for
 * the root. Returns 0 while it is at most XMLP_DEPTH_MAX; past it, fills
 * err (rule "nesting-depth", at the element's start tag), stops the
 * parse and returns -1. The handler reports err as it reports its own
 * problems, and must ignore the handlers expat may still call for the
 * token it stopped in (the end of an empty element).
 */
int
xmlp_depth(XML_Parser p, size_t depth, const struct xmlp_origin *o,
    struct xmlp_error *err)
{
	if (depth <= XMLP_DEPTH_MAX)
		return 0;
	xmlp_loc_within(p, o, &err->loc);
	err->offset = o->offset + (size_t)XML_GetCurrentByteIndex(p);
	err->rule = "nesting-depth";
	snprintf(err->text, sizeof(err->text),
	    "element nesting deeper than %d levels", XMLP_DEPTH_MAX);
	XML_StopParser(p, XML_FALSE);
	return -1;
}

/* A well-formedness error to fn, or printed when fn is NULL. */
static int
report(const struct xmlp_error *err, xmlp_report_fn *fn, void *arg)
{
	if (fn != NULL)
		fn(arg, err);
	else
		diag_at(DIAG_ERROR, &err->loc, err->rule, "%s", err->text);
	return DIAG_INVALID;
}

/* The status of a parse that expat ended early, reported once. */
static int
failed(XML_Parser p, const struct xmlp_origin *o, xmlp_report_fn *fn,
    void *arg)
{
	struct xmlp_error err;

	if (XML_GetErrorCode(p) == XML_ERROR_NO_MEMORY) {
		diag_warnx("%s: out of memory", o->file);
		return DIAG_TROUBLE;
	}
	if (xmlp_error(p, o, &err) != 0)
		return DIAG_INVALID;	/* a handler stopped it */
	return report(&err, fn, arg);
}

/*
 * Parses the rest of fp as one document, reading it in chunks into
 * expat's own buffer (fread waits for a whole chunk or the end, so this
 * is for documents, not for live streams). Returns DIAG_OK; DIAG_INVALID
 * for a document that is not well-formed (reported) or that a handler
 * stopped; DIAG_TROUBLE when fp cannot be read ("tool: NAME: strerror").
 */
int
xmlp_parse_stream(XML_Parser p, FILE *fp, const char *name)
{
	struct xmlp_origin o = { name, 1, 1, 0 };
	struct xmlp_error err;
	void *chunk;
	size_t n;
	int final, first = 1;

	do {
		if ((chunk = XML_GetBuffer(p, XMLP_CHUNK)) == NULL)
			return failed(p, &o, NULL, NULL);
		n = fread(chunk, 1, XMLP_CHUNK, fp);
		if (ferror(fp)) {
			diag_warn("%s", name);
			return DIAG_TROUBLE;
		}
		final = n < XMLP_CHUNK;
		if (first && xmlp_check_start(chunk, n, &o, &err) != 0)
			return report(&err, NULL, NULL);
		first = 0;
		if (XML_ParseBuffer(p, (int)n, final) != XML_STATUS_OK)
			return failed(p, &o, NULL, NULL);
	} while (!final);
	return DIAG_OK;
}

/*
 * Parses s[0..n), one whole document that sits at o in its file, in
 * chunks (any size will do). A well-formedness error goes to fn(arg,
 * error) for a caller that collects its problems, or is printed when fn
 * is NULL. Statuses as for xmlp_parse_stream, but for the read error.
 */
int
xmlp_parse_within(XML_Parser p, const char *s, size_t n,
    const struct xmlp_origin *o, xmlp_report_fn *fn, void *arg)
{
	struct xmlp_error err;
	size_t len;
	int final;

	if (xmlp_check_start(s, n, o, &err) != 0)
		return report(&err, fn, arg);
	do {
		len = n < XMLP_CHUNK ? n : XMLP_CHUNK;
		final = len == n;
		if (XML_Parse(p, s, (int)len, final) != XML_STATUS_OK)
			return failed(p, o, fn, arg);
		s += len;
		n -= len;
	} while (!final);
	return DIAG_OK;
}

/* xmlp_parse_within for a text that is the whole of its file. */
int
xmlp_parse_buffer(XML_Parser p, const char *s, size_t n, const char *name)
{
	struct xmlp_origin o = { name, 1, 1, 0 };

	return xmlp_parse_within(p, s, n, &o, NULL, NULL);
}
