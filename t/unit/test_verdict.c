/*
 * test_verdict: the map step's pieces. The record with and without its
 * line, a tool's own members after it, the counts of --summary with and
 * without the danger levels; a line that holds a JSON string, and the
 * lines that do not; a problem in a string's text moved to where that
 * character is written in the line, past every kind of escape; and the
 * loop over lines, blank ones skipped, stopped when asked, a line that
 * holds a NUL byte cut there and its rest skipped, not held. -o junit's
 * head, testcases and end, escaped for XML.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/diag.h"
#include "check/verdict.h"
#include "unit.h"

static void
test_record(void)
{
	struct diag_item it = { DIAG_WARNING, 3, 9, "bare-ampersand", NULL,
	    NULL, "bare \"&\"", 0 };
	struct verdict_tally t = { 0, 0, 0, 0, 0, 0 };
	struct buf b = BUF_INIT;

	verdict_open(&b, "a.jsonl", 3, DIAG_OK, &it, 1);
	buf_adds(&b, ",\"calls\":[]");
	verdict_close(&b);
	unit_str(buf_cstr(&b), "{\"file\":\"a.jsonl\",\"line\":3,\"valid\":true,"
	    "\"status\":0,\"errors\":[{\"file\":\"a.jsonl\",\"line\":3,"
	    "\"column\":9,\"severity\":\"warning\",\"rule\":\"bare-ampersand\","
	    "\"message\":\"bare \\\"&\\\"\"}],\"calls\":[]}\n",
	    "record: a line's, a warning in it, a member of the tool's after");
	buf_reset(&b);
	verdict_open(&b, "<stdin>", 0, DIAG_INVALID, NULL, 0);
	verdict_close(&b);
	unit_str(buf_cstr(&b), "{\"file\":\"<stdin>\",\"valid\":false,"
	    "\"status\":1,\"errors\":[]}\n", "record: a file's, no line");
	verdict_tally(&t, DIAG_OK);
	verdict_tally(&t, DIAG_INVALID);
	verdict_tally(&t, DIAG_INVALID);
	buf_reset(&b);
	verdict_summary(&b, &t, 1, 0);
	unit_str(buf_cstr(&b), "{\"documents\":3,\"valid\":1,\"invalid\":2}\n",
	    "summary: JSON, no danger levels");
	buf_reset(&b);
	verdict_summary(&b, &t, 0, 0);
	unit_str(buf_cstr(&b), "3 documents: 1 valid, 2 invalid\n",
	    "summary: a sentence, no danger levels");
	buf_free(&b);
}

/* -o junit's pieces, from diagnostics of every kind. */
static void
test_junit(void)
{
	struct diag_item v[3] = {
		{ DIAG_WARNING, 1, 2, "w", NULL, NULL, "careful <here>", 0 },
		{ DIAG_ERROR, 3, 4, "r&1", "/a\"b", NULL,
		    "bad \x1b 'x' & y", 1 },
		{ DIAG_ERROR, 5, 6, "r2", NULL, NULL, "second", 0 }
	};
	struct verdict_tally t = { 0, 0, 0, 0, 0, 0 };
	struct buf b = BUF_INIT;

	verdict_tally(&t, DIAG_OK);
	verdict_tally(&t, DIAG_INVALID);
	verdict_junit_open(&b, &t);
	verdict_junit_close(&b);
	unit_str(buf_cstr(&b), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<testsuites name=\"test_verdict\" tests=\"2\" failures=\"1\" "
	    "errors=\"0\">\n  <testsuite name=\"test_verdict\" tests=\"2\" "
	    "failures=\"1\" errors=\"0\" skipped=\"0\">\n  </testsuite>\n"
	    "</testsuites>\n", "junit: the head with the counts, the end");
	buf_reset(&b);
	verdict_junit_case(&b, "a.json", 0, DIAG_OK, NULL, 0);
	unit_str(buf_cstr(&b), "    <testcase name=\"a.json\" "
	    "classname=\"test_verdict\"/>\n", "junit: a valid file");
	buf_reset(&b);
	verdict_junit_case(&b, "x&<y>\"\\.jsonl", 7, DIAG_CRITICAL, v, 1);
	unit_str(buf_cstr(&b), "    <testcase name=\"x&amp;&lt;y&gt;&quot;"
	    "\\\\.jsonl:7\" classname=\"test_verdict\">\n      <system-err>"
	    "x&amp;&lt;y&gt;\"\\\\.jsonl:1:2: warning: careful &lt;here&gt;\n"
	    "</system-err>\n    </testcase>\n",
	    "junit: a line, valid with a warning, the name escaped");
	buf_reset(&b);
	verdict_junit_case(&b, "f", 0, DIAG_INVALID, v, 3);
	unit_str(buf_cstr(&b), "    <testcase name=\"f\" "
	    "classname=\"test_verdict\">\n      <failure message=\"/a&quot;b: "
	    "bad \\u001b &apos;x&apos; &amp; y\" type=\"r&amp;1\">"
	    "f:3:4: error: /a\"b: bad \\u001b 'x' &amp; y\nf:5:6: error: "
	    "second\n</failure>\n      <system-err>f:1:2: warning: careful "
	    "&lt;here&gt;\n</system-err>\n    </testcase>\n",
	    "junit: an invalid one, its first error the failure's message "
	    "and type, its errors its text, its warnings apart");
	buf_free(&b);
}

/*
 * verdict_string over s[0..n), a line at byte 1000 of its input: its
 * text, or its one error as "L:C rule: msg".
 */
static const char *
string2(const char *s, size_t n, unsigned long lineno, size_t *tok)
{
	struct diag_list errs = DIAG_LIST_INIT;
	struct buf text = BUF_INIT;
	const char *r;

	*tok = (size_t)-1;
	if (verdict_string(s, n, lineno, 1000, &text, tok, &errs) == 0)
		r = unit_fmt("%s", buf_cstr(&text));
	else
		r = unit_fmt("%lu:%lu %s: %s", errs.v[0].line, errs.v[0].col,
		    errs.v[0].rule, errs.v[0].message);
	unit_long((long)errs.n, *tok == (size_t)-1, "one error, or none");
	diag_list_free(&errs);
	buf_free(&text);
	return r;
}

/* string2 of a C string. */
static const char *
string(const char *s, unsigned long lineno, size_t *tok)
{
	return string2(s, strlen(s), lineno, tok);
}

static void
test_string(void)
{
	size_t tok;

	unit_str(string(" \t\"a\\nb\" ", 4, &tok), "a\nb", "a string, decoded");
	unit_long((long)tok, 2, "its opening quote");
	unit_str(string("\xEF\xBB\xBF\"x\"", 1, &tok), "x",
	    "a byte order mark before the first line's string");
	unit_str(string("\xEF\xBB\xBF\"x\"", 2, &tok),
	    "2:1 json-syntax: invalid JSON: invalid token near "
	    "'\xEF\xBB\xBF'",
	    "the same bytes on a later line are no JSON");
	unit_str(string("{\"a\":1}", 5, &tok), "5:1 line-type: expected a "
	    "JSON string that holds the text, found an object", "an object");
	unit_str(string("  true", 5, &tok), "5:3 line-type: expected a JSON "
	    "string that holds the text, found a boolean", "a boolean, placed");
	unit_str(string("\"\xC3\xA9\" x", 6, &tok), "6:5 json-syntax: invalid "
	    "JSON: text after the string", "text after it, columns in "
	    "characters");
	unit_str(string2("\"a\" \0x", 6, 7, &tok), "7:5 json-syntax: invalid "
	    "JSON: NUL byte", "a NUL after the string is named");
	unit_str(string2("\"a\"\0", 4, 7, &tok), "7:4 json-syntax: invalid "
	    "JSON: NUL byte", "a NUL just after it too");
	unit_str(string2("\0\"a\"", 4, 7, &tok), "7:1 json-syntax: invalid "
	    "JSON: NUL byte", "a NUL before it");
	unit_str(string2("\"a\0\"", 4, 7, &tok), "7:3 json-syntax: invalid "
	    "JSON: NUL byte", "a NUL in it");
	unit_str(string("\"abc", 7, &tok), "7:1 json-syntax: invalid JSON: "
	    "premature end of input near '\"abc'", "a string not ended");
	unit_str(string(" \"a\xC3\xA9\xFF\"", 3, &tok), "3:5 utf8: invalid "
	    "UTF-8: byte 0xff at byte offset 1005", "invalid UTF-8: at the "
	    "line's column, by its offset in the input");
	unit_str(string("\xEF\xBB\xBF\"\xC0\x80\"", 1, &tok), "1:2 utf8: "
	    "invalid UTF-8: byte 0xc0 at byte offset 1004", "the first line's "
	    "byte order mark counts in the offset");
	unit_str(string("\"\"", 0, &tok), "", "the empty string");
}

/* Where verdict_place puts a problem at (line, col) of s's text. */
static const char *
place(const char *s, unsigned long line, unsigned long col)
{
	struct diag_item it;
	size_t tok = strspn(s, " ");

	memset(&it, 0, sizeof(it));
	it.line = line;
	it.col = col;
	verdict_place(s, strlen(s), tok, 9, &it, 1);
	return unit_fmt("%lu:%lu", it.line, it.col);
}

static void
test_place(void)
{
	const char *s = "  \"ab\\ncd\\r\\nef\\rg\\u00e9\\ud83d\\ude00\xC3\xA9"
	    "\\\"h\\\\i\\/j\\tk\"";

	unit_str(place(s, 1, 1), "9:4", "the first character");
	unit_str(place(s, 1, 2), "9:5", "the second");
	unit_str(place(s, 1, 3), "9:6", "the escaped LF that ends line 1");
	unit_str(place(s, 2, 1), "9:8", "line 2, after \\n");
	unit_str(place(s, 2, 3), "9:10", "\\r\\n, one line end, 2 escapes");
	unit_str(place(s, 3, 1), "9:14", "line 3, after \\r\\n");
	unit_str(place(s, 4, 1), "9:18", "line 4, after a lone \\r");
	unit_str(place(s, 4, 2), "9:19", "a \\u escape");
	unit_str(place(s, 4, 3), "9:25", "a surrogate pair, one character");
	unit_str(place(s, 4, 4), "9:37", "raw UTF-8, one column");
	unit_str(place(s, 4, 5), "9:38", "\\\"");
	unit_str(place(s, 4, 6), "9:40", "h");
	unit_str(place(s, 4, 7), "9:41", "\\\\");
	unit_str(place(s, 4, 9), "9:44", "\\/");
	unit_str(place(s, 4, 11), "9:47", "\\t");
	unit_str(place(s, 4, 12), "9:49", "k");
	unit_str(place(s, 4, 13), "9:50", "the end: the closing quote");
	unit_str(place(s, 8, 1), "9:50", "past the end: the closing quote");
}

struct each {
	struct buf	 seen;
	int		 stop;		/* at this line, -1 */
};

static int
each_line(void *arg, const char *s, size_t n, unsigned long lineno,
    size_t base, int *st)
{
	struct each *e = arg;

	buf_printf(&e->seen, "%lu@%zu:", lineno, base);
	buf_add(&e->seen, s, n);
	buf_addc(&e->seen, ';');
	*st = n > 0 && s[0] == 'x' ? DIAG_INVALID : DIAG_OK;
	return (long)lineno == e->stop ? -1 : 0;
}

/* verdict_each over data; what it handed on goes to seen. */
static int
each(const char *data, size_t n, int stop, struct buf *seen)
{
	char path[sizeof(UNIT_TMPNAME)];
	struct each e = { BUF_INIT, stop };
	int fd, st;

	unit_tmpfile(path, data, n);
	if ((fd = open(path, O_RDONLY)) == -1)
		unit_bail(path);
	st = verdict_each(fd, "t.jsonl", each_line, &e);
	close(fd);
	unlink(path);
	buf_free(seen);
	*seen = e.seen;
	return st;
}

static void
test_each(void)
{
	static const char in[] = "a\n\n \t\nx\nb";
	static const char nul[] = "a\nb\0c\nd\n\0\n\0\0x\n\0";
	struct buf seen = BUF_INIT;

	unit_long(each(in, sizeof(in) - 1, 0, &seen), DIAG_INVALID,
	    "each: the highest status");
	unit_str(buf_cstr(&seen), "1@0:a;4@6:x;5@8:b;",
	    "each: blank lines skipped, counted");
	unit_long(each(in, sizeof(in) - 1, 4, &seen), DIAG_TROUBLE,
	    "each: stopped");
	unit_str(buf_cstr(&seen), "1@0:a;4@6:x;",
	    "each: nothing after the stop");
	unit_long(each(nul, sizeof(nul) - 1, 0, &seen), DIAG_OK,
	    "each: NUL bytes end no input");
	unit_bytes(seen.data, seen.len, "1@0:a;2@2:b\0;3@6:d;4@8:\0;"
	    "5@10:\0;6@14:\0;", 39, "each: a line ends at its first NUL, "
	    "the next line is read");
	buf_free(&seen);
}

/*
 * verdict_lines_next over data, a line at a time, into seen: each line,
 * then "@base;"; the most the reader held at once in *held.
 */
static void
lines(const char *data, size_t n, struct buf *seen, size_t *held)
{
	char path[sizeof(UNIT_TMPNAME)];
	struct verdict_lines r;
	const char *s;
	size_t len, base;
	int fd, more;

	unit_tmpfile(path, data, n);
	if ((fd = open(path, O_RDONLY)) == -1)
		unit_bail(path);
	verdict_lines_init(&r, fd);
	buf_reset(seen);
	*held = 0;
	while ((more = verdict_lines_next(&r, &s, &len, &base)) == 1) {
		buf_add(seen, s, len);
		buf_printf(seen, "@%zu;", base);
		if (r.in.cap > *held)
			*held = r.in.cap;
	}
	unit_long(more, 0, "lines: the end, no error");
	verdict_lines_free(&r);
	close(fd);
	unlink(path);
}

/*
 * The rest of a line that holds a NUL byte is skipped, not held, however
 * long, and the line after it is read; a long line without one is read
 * whole.
 */
static void
test_lines_nul(void)
{
	size_t big = 16 * 65536 + 17, n, held;
	char *in = malloc(big + 16);
	struct buf seen = BUF_INIT, want = BUF_INIT;

	if (in == NULL)
		unit_bail("malloc");
	/* "a\n", a line of big NULs, "b\n", "c" */
	memcpy(in, "a\n", 2);
	memset(in + 2, '\0', big);
	memcpy(in + 2 + big, "\nb\nc", 4);
	n = big + 6;
	lines(in, n, &seen, &held);
	buf_printf(&want, "a@0;%c@2;b@%zu;c@%zu;", '\0', big + 3, big + 5);
	unit_bytes(seen.data, seen.len, want.data, want.len,
	    "lines: a NUL line ends at its first NUL, the next is read");
	unit_ok(held <= 2 * 65536 + 2, "lines: the NULs skipped are not held");
	/* the same line, of x's but for its last byte */
	memset(in + 2, 'x', big - 1);
	lines(in, n, &seen, &held);
	buf_reset(&want);
	buf_adds(&want, "a@0;");
	buf_add(&want, in + 2, big);
	buf_printf(&want, "@2;b@%zu;c@%zu;", big + 3, big + 5);
	unit_bytes(seen.data, seen.len, want.data, want.len,
	    "lines: a long line is whole, up to its NUL at the end");
	unit_ok(held > big, "lines: a line handed on is held whole");
	/* a NUL line last, with no LF, and nothing after the NUL */
	lines("a\n\0", 3, &seen, &held);
	unit_bytes(seen.data, seen.len, "a@0;\0@2;", 8,
	    "lines: a NUL as the last byte");
	lines("a\nb\0c", 5, &seen, &held);
	unit_bytes(seen.data, seen.len, "a@0;b\0@2;", 9,
	    "lines: a NUL line last, no LF");
	free(in);
	buf_free(&seen);
	buf_free(&want);
}

int
main(int argc, char *argv[])
{
	diag_setprogname(argc > 0 ? argv[0] : "test_verdict");
	test_record();
	test_junit();
	test_string();
	test_place();
	test_each();
	test_lines_nul();
	unit_free();
	return unit_done();
}
