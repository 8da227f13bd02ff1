/* verdict: the map step's input lines and its record, shared by checkers. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/io.h"
#include "base/num.h"
#include "base/src.h"
#include "base/utf8.h"
#include "check/verdict.h"
#include "json/jsonx.h"
#include "xml/xmlesc.h"

/*
 * -o report's record up to its errors: {"file", "line" (when line is
 * not 0), "valid", "status", "errors"}, the problems in the order given,
 * each in the --errors=json shape. A tool may add members; verdict_close
 * ends the record and its line.
 */
void
verdict_open(struct buf *b, const char *file, unsigned long line, int status,
    const struct diag_item *v, size_t n)
{
	size_t i;

	buf_adds(b, "{\"file\":\"");
	diag_escape(b, file, strlen(file), DIAG_ESC_JSON);
	buf_addc(b, '"');
	if (line > 0)
		buf_printf(b, ",\"line\":%lu", line);
	buf_printf(b, ",\"valid\":%s,\"status\":%d,\"errors\":[",
	    status == DIAG_INVALID || status == DIAG_TROUBLE ? "false" :
	    "true", status);
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_addc(b, ',');
		diag_item_json(b, file, &v[i]);
	}
	buf_addc(b, ']');
}

void
verdict_close(struct buf *b)
{
	buf_adds(b, "}\n");
}

/* A document's status counted for --summary. */
void
verdict_tally(struct verdict_tally *t, int status)
{
	t->documents++;
	if (status == DIAG_INVALID)
		t->invalid++;
	else if (status == DIAG_TROUBLE)
		t->trouble++;
	else
		t->valid++;
	if (status == DIAG_CRITICAL)
		t->critical++;
	else if (status == DIAG_EMERGENCY)
		t->emergency++;
}

/*
 * --summary's line: a JSON object with json, else a sentence; the
 * danger levels only for a tool that has them (danger).
 */
void
verdict_summary(struct buf *b, const struct verdict_tally *t, int json,
    int danger)
{
	buf_printf(b, json ? "{\"documents\":%lu,\"valid\":%lu,"
	    "\"invalid\":%lu" : "%lu documents: %lu valid, %lu invalid",
	    t->documents, t->valid, t->invalid);
	/* only when some were: the line a run that can have none writes */
	if (t->trouble > 0)
		buf_printf(b, json ? ",\"unchecked\":%lu" :
		    ", %lu not checked", t->trouble);
	if (danger)
		buf_printf(b, json ? ",\"critical\":%lu,\"emergency\":%lu" :
		    ", %lu critical, %lu emergency", t->critical, t->emergency);
	buf_adds(b, json ? "}\n" : "\n");
}

/*
 * verdict_summary's line written on standard output; a failed write is
 * seen when standard output is closed.
 */
void
verdict_put_summary(const struct verdict_tally *t, int json, int danger)
{
	struct buf b = BUF_INIT;

	verdict_summary(&b, t, json, danger);
	(void)io_write(b.data, b.len, stdout);
	buf_free(&b);
}

/*
 * s escaped for XML, as an attribute value (attr) or as text: s comes
 * from diag_escape, valid UTF-8 without a control character, so that
 * xmlesc_append has only the special characters to escape.
 */
static void
xml_text(struct buf *b, const char *s, size_t n, int attr)
{
	(void)xmlesc_append(b, s, n, attr ? XMLESC_ATTR : 0, NULL);
}

/*
 * The head of -o junit's report, which holds the counts of the run t, so
 * that the testcases come after the run: one testsuite named after the
 * tool, inside a testsuites of the same counts. Jenkins and GitLab read
 * either; no time, timestamp or host name, so that a report depends on
 * the inputs alone.
 */
void
verdict_junit_open(struct buf *b, const struct verdict_tally *t)
{
	struct buf name = BUF_INIT;

	diag_escape(&name, diag_progname(), strlen(diag_progname()), 0);
	buf_adds(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<testsuites name=\"");
	xml_text(b, name.data, name.len, 1);
	buf_printf(b, "\" tests=\"%lu\" failures=\"%lu\" "
	    "errors=\"%lu\">\n  <testsuite name=\"", t->documents, t->invalid, t->trouble);
	xml_text(b, name.data, name.len, 1);
	buf_printf(b, "\" tests=\"%lu\" failures=\"%lu\" errors=\"%lu\" "
	    "skipped=\"0\">\n", t->documents, t->invalid, t->trouble);
	buf_free(&name);
}

/* The lines of the items of v[0..n) of severity sev, each ended by \n. */
static void
junit_lines(struct buf *b, const char *file, enum diag_severity sev,
    const struct diag_item *v, size_t n)
{
	struct buf line = BUF_INIT;
	size_t i;

	for (i = 0; i < n; i++) {
		if (v[i].severity != sev)
			continue;
		buf_reset(&line);
		diag_item_text(&line, file, &v[i]);
		buf_addc(&line, '\n');
		xml_text(b, line.data, line.len, 0);
	}
	buf_free(&line);
}

/*
 * -o junit's testcase of a document of file (with --lines, line is its
 * line, else 0) of the status given, its problems v[0..n): named after
 * the file, "FILE:LINE" with --lines, of the class named after the tool.
 * An invalid one holds a failure (one that could not be checked, status
 * 3, an error) whose message and type are its first error's message and
 * rule, and whose text is its errors as the line form writes them, one a
 * line; its warnings, valid or not, are in its system-err, the same way.
 */
void
verdict_junit_case(struct buf *b, const char *file, unsigned long line,
    int status, const struct diag_item *v, size_t n)
{
	struct buf s = BUF_INIT;
	const struct diag_item *first = NULL;
	size_t i, nwarn = 0;
	int bad;

	for (i = 0; i < n; i++) {
		if (v[i].severity == DIAG_WARNING)
			nwarn++;
		else if (first == NULL)
			first = &v[i];
	}
	buf_adds(b, "    <testcase name=\"");
	diag_escape(&s, file, strlen(file), DIAG_ESC_BACKSLASH);
	if (line > 0)
		buf_printf(&s, ":%lu", line);
	xml_text(b, s.data, s.len, 1);
	buf_reset(&s);
	buf_adds(b, "\" classname=\"");
	diag_escape(&s, diag_progname(), strlen(diag_progname()), 0);
	xml_text(b, s.data, s.len, 1);
	bad = status == DIAG_INVALID || status == DIAG_TROUBLE;
	if (!bad && nwarn == 0) {
		buf_adds(b, "\"/>\n");
		buf_free(&s);
		return;
	}
	buf_adds(b, "\">\n");
	/* JUnit's error: the case could not be run (a check failed) */
	if (bad) {
		buf_adds(b, status == DIAG_TROUBLE ? "      <error message=\"" :
		    "      <failure message=\"");
		if (first != NULL) {
			buf_reset(&s);
			diag_item_message(&s, first, 0);
			xml_text(b, s.data, s.len, 1);
		}
		buf_adds(b, "\" type=\"");
		if (first != NULL) {
			buf_reset(&s);
			diag_escape(&s, first->rule, strlen(first->rule), 0);
			xml_text(b, s.data, s.len, 1);
		}
		buf_adds(b, "\">");
		junit_lines(b, file, DIAG_ERROR, v, n);
		buf_adds(b, status == DIAG_TROUBLE ? "</error>\n" :
		    "</failure>\n");
	}
	if (nwarn > 0) {
		buf_adds(b, "      <system-err>");
		junit_lines(b, file, DIAG_WARNING, v, n);
		buf_adds(b, "</system-err>\n");
	}
	buf_adds(b, "    </testcase>\n");
	buf_free(&s);
}

void
verdict_junit_close(struct buf *b)
{
	buf_adds(b, "  </testsuite>\n</testsuites>\n");
}

void
verdict_lines_init(struct verdict_lines *r, int fd)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
}

void
verdict_lines_free(struct verdict_lines *r)
{
	buf_free(&r->in);
}

/*
 * The next line of the input, without its '\n': 1 with it at *s, n bytes
 * long, *base its offset in the input; 0 at the end; -1 on a read error,
 * errno set. read(2) as in io_slurp_text: a line is handed on as soon as
 * it has come. No line of text holds a NUL byte, so a line that does is
 * handed on at its first NUL, that byte its last, for the caller to
 * refuse; the rest of it up to its '\n' is read and dropped, not kept,
 * so that memory stays bounded by the longest line handed on, and the
 * next call gives the next line. An endless line of NULs (/dev/zero) is
 * thus read for ever, in constant memory, after its one line.
 */
int
verdict_lines_next(struct verdict_lines *r, const char **s, size_t *n,
    size_t *base)
{
	char *nl, *nul;
	size_t end;
	ssize_t got;

	for (;;) {
		nl = nul = NULL;
		if (r->in.len > r->scan)
			nl = memchr(r->in.data + r->scan, '\n',
			    r->in.len - r->scan);
		end = nl != NULL ? (size_t)(nl - r->in.data) : r->in.len;
		if (r->skip) {
			/* the rest of a line that held a NUL */
			r->start = r->scan = end + (nl != NULL);
			r->skip = nl == NULL;
			if (nl != NULL)
				continue;
		} else {
			if (end > r->scan)
				nul = memchr(r->in.data + r->scan, '\0',
				    end - r->scan);
			if (nul != NULL)
				end = (size_t)(nul - r->in.data) + 1;
			if (nul != NULL || nl != NULL ||
			    (r->eof && r->start < r->in.len)) {
				*s = r->in.data + r->start;
				*n = end - r->start;
				*base = r->off + r->start;
				r->start = r->scan = end +
				    (nul == NULL && nl != NULL);
				r->skip = nul != NULL;
				return 1;
			}
			r->scan = r->in.len;
		}
		if (r->eof)
			return 0;
		/* the line begun goes to the front, more is read after it */
		if (r->start > 0) {
			memmove(r->in.data, r->in.data + r->start,
			    r->in.len - r->start);
			r->in.len -= r->start;
			r->scan -= r->start;
			r->off += r->start;
			r->start = 0;
		}
		buf_reserve(&r->in, 65536 + 1);
		got = read(r->fd, r->in.data + r->in.len,
		    r->in.cap - r->in.len - 1);
		if (got == -1 && errno == EINTR)
			continue;
		if (got == -1)
			return -1;
		if (got == 0)
			r->eof = 1;
		else
			r->in.len += (size_t)got;
	}
}

/*
 * --lines of llmr-validate and toolcall-parse: each line of fd that is
 * not blank handed to fn, one at a time, so that memory grows with the
 * longest line; a line that holds a NUL byte ends there, as
 * verdict_lines_next says, and the next line is read. Returns the
 * highest status of the lines, or DIAG_TROUBLE once fn has stopped or fd
 * cannot be read (said, as name).
 */
int
verdict_each(int fd, const char *name, verdict_line_fn *fn, void *arg)
{
	struct verdict_lines lr;
	const char *s;
	size_t n, base;
	unsigned long lineno;
	int status = DIAG_OK, st, more;

	verdict_lines_init(&lr, fd);
	for (lineno = 1; (more = verdict_lines_next(&lr, &s, &n, &base)) == 1;
	    lineno++) {
		if (jsonx_skip_ws(s, n, 0) == n)
			continue;
		if (fn(arg, s, n, lineno, base, &st) != 0) {
			status = DIAG_TROUBLE;
			break;
		}
		status = diag_max(status, st);
	}
	if (more == -1) {
		diag_warn("%s", name);
		status = DIAG_TROUBLE;
	}
	verdict_lines_free(&lr);
	return status;
}

/* The column of byte off of line lineno, s[0..n), in characters. */
static unsigned long
column(const char *s, size_t n, unsigned long lineno, size_t off)
{
	struct diag_loc loc;
	struct src src;

	src_init(&src, "", s, n);
	src_setrecord(&src, lineno);
	src_loc(&src, off, &loc);
	return loc.col;
}

/*
 * A line of llmr-validate's or toolcall-parse's --lines, at byte base of
 * the input: one JSON string, white space around it, that holds the text
 * to check. 0 with its text in text and the offset of its opening quote
 * in *tok; -1 with the problem added to errs, placed on the line. A byte
 * that is not UTF-8 is named by its offset in the input, as in a whole
 * file: the line and column already place it in the line.
 */
int
verdict_string(const char *s, size_t n, unsigned long lineno, size_t base,
    struct buf *text, size_t *tok, struct diag_list *errs)
{
	struct jsonx_error err;
	json_t *v;
	size_t at, end;

	at = jsonx_skip_ws(s, n, utf8_bom(s, lineno == 1 ? n : 0));
	if ((v = jsonx_parse(s, n, at, &end, &err)) == NULL) {
		if (strcmp(err.rule, "utf8") == 0)
			snprintf(err.text, sizeof(err.text), "invalid UTF-8: "
			    "byte 0x%02x at byte offset %zu",
			    (unsigned char)s[err.offset], base + err.offset);
		diag_list_add(errs, DIAG_ERROR, lineno, column(s, n, lineno,
		    err.offset), err.rule, NULL, "%s", err.text);
		return -1;
	}
	if (!json_is_string(v)) {
		diag_list_add(errs, DIAG_ERROR, lineno, column(s, n, lineno,
		    at), "line-type", NULL, "expected a JSON string that holds "
		    "the text, found %s", jsonx_typename(v));
		json_decref(v);
		return -1;
	}
	if ((end = jsonx_skip_ws(s, n, end)) < n) {
		/* a NUL is named as jsonx_parse names it, wherever it is */
		diag_list_add(errs, DIAG_ERROR, lineno, column(s, n, lineno,
		    end), "json-syntax", NULL, "invalid JSON: %s",
		    s[end] == '\0' ? "NUL byte" : "text after the string");
		json_decref(v);
		return -1;
	}
	buf_reset(text);
	buf_add(text, json_string_value(v), json_string_length(v));
	(void)buf_cstr(text);
	json_decref(v);
	*tok = at;
	return 0;
}

static int
hex4(const char *s, uint32_t *c)
{
	int i, d;

	*c = 0;
	for (i = 0; i < 4; i++) {
		if ((d = num_hexval((unsigned char)s[i])) == -1)
			return -1;
		*c = *c << 4 | (uint32_t)d;
	}
	return 0;
}

/*
 * The bytes of the raw JSON string at s[i..n) that one character of its
 * text takes, that character in *c: an escape (a surrogate pair one
 * character), or a character as written. The string is valid JSON.
 */
static size_t
raw_char(const char *s, size_t n, size_t i, uint32_t *c)
{
	static const char from[] = "bfnrt", to[] = "\b\f\n\r\t";
	const char *p;
	uint32_t lo;
	size_t k;

	if (s[i] != '\\') {
		k = utf8_decode(s + i, n - i, c);
		return k > 0 ? k : 1;
	}
	if (i + 1 >= n)
		return 1;
	if (s[i + 1] != 'u') {
		p = strchr(from, s[i + 1]);
		*c = p != NULL ? (uint32_t)(unsigned char)to[p - from] :
		    (uint32_t)(unsigned char)s[i + 1];
		return 2;
	}
	if (i + 6 > n || hex4(s + i + 2, c) != 0)
		return 2;
	if (*c >= 0xD800 && *c < 0xDC00 && i + 12 <= n && s[i + 6] == '\\' &&
	    s[i + 7] == 'u' && hex4(s + i + 8, &lo) == 0 &&
	    lo >= 0xDC00 && lo < 0xE000)
		return 12;
	return 6;
}

/*
 * The problems v[0..nv) that a checker found in the text of the JSON
 * string at s[tok..n), line lineno, each at a line and column of that
 * text (CR, LF and CR LF end its lines; columns in characters), are
 * moved to where that character is written in the line: a problem at
 * the end of the text points at the closing quote.
 */
void
verdict_place(const char *s, size_t n, size_t tok, unsigned long lineno,
    struct diag_item *v, size_t nv)
{
	unsigned long line, col;
	uint32_t c, next;
	size_t i, j, k, kn;

	for (j = 0; j < nv; j++) {
		line = col = 1;
		for (i = tok + 1; i < n && s[i] != '"'; i += k) {
			if (line > v[j].line || (line == v[j].line &&
			    col >= v[j].col))
				break;
			k = raw_char(s, n, i, &c);
			/* CR LF is one line end: taken as one step */
			if (c == '\r' && i + k < n && s[i + k] != '"') {
				kn = raw_char(s, n, i + k, &next);
				if (next == '\n')
					k += kn;
			}
			if (c == '\n' || c == '\r') {
				line++;
				col = 1;
			} else
				col++;
		}
		v[j].line = lineno;
		v[j].col = column(s, n, lineno, i < n ? i : n);
	}
}
