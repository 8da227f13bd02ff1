/*
 * Unit tests of lib/diag: the three formats, quiet mode, counts, quoting,
 * warnx.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/diag.h"
#include "unit.h"

static void
test_progname(void)
{
	unit_str(diag_progname(), "llmkit",
	    "the program name defaults to llmkit");
	diag_setprogname("/usr/local/bin/thread-serialize");
	unit_str(diag_progname(), "thread-serialize",
	    "the program name drops the directory");
	diag_setprogname("plain");
	unit_str(diag_progname(), "plain", "a name without a directory");
	diag_setprogname("./t/unit/test_diag");
	unit_str(diag_progname(), "test_diag", "a relative path");
}

static void
test_statuses(void)
{
	unit_ok(DIAG_OK == 0 && DIAG_INVALID == 1 && DIAG_USAGE == 2 &&
	    DIAG_TROUBLE == 3 && DIAG_CRITICAL == 4 && DIAG_EMERGENCY == 5,
	    "the exit statuses of STYLE.md");
	unit_long(diag_max(DIAG_OK, DIAG_INVALID), 1, "diag_max(0, 1)");
	unit_long(diag_max(DIAG_TROUBLE, DIAG_INVALID), 3, "diag_max(3, 1)");
	unit_long(diag_max(2, 2), 2, "diag_max(2, 2)");
	unit_long(diag_max(DIAG_EMERGENCY, DIAG_CRITICAL), 5, "diag_max(5, 4)");
}

static void
test_text(void)
{
	struct diag_loc loc = { "in.json", 3, 7, NULL };
	struct diag_loc stdin_loc = { "<stdin>", 1, 1, "/0/type" };
	unsigned long e0 = diag_count(DIAG_ERROR);
	unsigned long w0 = diag_count(DIAG_WARNING);
	const char *got;
	char *big;

	unit_capture_begin();
	diag_at(DIAG_ERROR, &loc, "json-syntax", "bad %s", "thing");
	unit_str(unit_capture_end(), "in.json:3:7: error: bad thing\n",
	    "text: an error");
	unit_capture_begin();
	diag_at(DIAG_WARNING, &stdin_loc, "xml-char", "event %d: %s", 0,
	    "replaced \"\x1b\" with U+FFFD");
	unit_str(unit_capture_end(), "<stdin>:1:1: warning: event 0: "
	    "replaced \"\\u001b\" with U+FFFD\n",
	    "text: a warning; the path and rule are not shown");
	unit_capture_begin();
	diag_at(DIAG_ERROR, &loc, "r", "%s", "");
	unit_str(unit_capture_end(), "in.json:3:7: error: \n",
	    "text: an empty message");
	loc.line = 4294967295UL;
	loc.col = 123456;
	unit_capture_begin();
	diag_at(DIAG_ERROR, &loc, "r", "caf\xC3\xA9 %d%%", 100);
	unit_str(unit_capture_end(),
	    "in.json:4294967295:123456: error: caf\xC3\xA9 100%\n",
	    "text: big numbers, UTF-8 and a percent sign");

	big = malloc(20001);
	memset(big, 'm', 20000);
	big[20000] = '\0';
	unit_capture_begin();
	diag_at(DIAG_ERROR, &loc, "r", "%s!", big);
	got = unit_capture_end();
	unit_ok(strncmp(got, "in.json:4294967295:123456: error: mmm", 37)
	    == 0 && strlen(got) == 34 + 20000 + 2 &&
	    strcmp(got + 34 + 20000, "!\n") == 0,
	    "text: a 20000-character message is written whole");
	free(big);

	unit_long((long)(diag_count(DIAG_ERROR) - e0), 4,
	    "four errors counted");
	unit_long((long)(diag_count(DIAG_WARNING) - w0), 1,
	    "one warning counted");
}

static void
test_json(void)
{
	struct diag_loc loc = { "in.json", 3, 7, NULL };
	struct diag_loc path_loc = { "<stdin>", 12, 1, "/0/args/a~1b" };
	struct diag_loc odd = { "we\"ird\\name\n.json", 1, 2, "/" };

	diag_setjson(1);
	unit_capture_begin();
	diag_at(DIAG_ERROR, &loc, "json-syntax", "bad %s", "thing");
	unit_str(unit_capture_end(),
	    "{\"file\":\"in.json\",\"line\":3,\"column\":7,"
	    "\"severity\":\"error\",\"rule\":\"json-syntax\","
	    "\"message\":\"bad thing\"}\n", "json: an error without a path");
	unit_capture_begin();
	diag_at(DIAG_WARNING, &path_loc, "xml-char", "event %d: replaced", 4);
	unit_str(unit_capture_end(),
	    "{\"file\":\"<stdin>\",\"line\":12,\"column\":1,"
	    "\"severity\":\"warning\",\"rule\":\"xml-char\","
	    "\"message\":\"event 4: replaced\",\"path\":\"/0/args/a~1b\"}\n",
	    "json: a warning with a path");
	unit_capture_begin();
	diag_at(DIAG_ERROR, &odd, "x", "say \"hi\"\n\ttab \x01 caf\xC3\xA9 "
	    "back\\slash");
	unit_str(unit_capture_end(),
	    "{\"file\":\"we\\\"ird\\\\name\\n.json\",\"line\":1,"
	    "\"column\":2,\"severity\":\"error\",\"rule\":\"x\",\"message\":"
	    "\"say \\\"hi\\\"\\n\\ttab \\u0001 caf\xC3\xA9 back\\\\slash\","
	    "\"path\":\"/\"}\n", "json: every string is escaped");
	unit_capture_begin();
	diag_at(DIAG_ERROR, &loc, "r", "%s", "");
	unit_str(unit_capture_end(),
	    "{\"file\":\"in.json\",\"line\":3,\"column\":7,"
	    "\"severity\":\"error\",\"rule\":\"r\",\"message\":\"\"}\n",
	    "json: an empty message");
	diag_setjson(0);
	unit_capture_begin();
	diag_at(DIAG_ERROR, &loc, "r", "back to text");
	unit_str(unit_capture_end(), "in.json:3:7: error: back to text\n",
	    "diag_setjson(0) returns to text");
}

/*
 * --errors=github: a workflow command a diagnostic, escaped as GitHub
 * documents: %, CR and LF everywhere, : and , in the properties too.
 */
static void
test_github(void)
{
	struct diag_loc loc = { "in.json", 3, 7, NULL };
	struct diag_loc odd = { "a,b:c%d\r\n\x1b\xFF.json", 1, 2, "/x%y\nz" };
	struct diag_item it;
	struct buf b = BUF_INIT;

	diag_setformat(DIAG_FMT_GITHUB);
	unit_capture_begin();
	diag_at(DIAG_ERROR, &loc, "json-syntax", "bad %s", "thing");
	unit_str(unit_capture_end(), "::error file=in.json,line=3,col=7,"
	    "title=json-syntax::bad thing\n", "github: an error");
	unit_capture_begin();
	diag_at(DIAG_WARNING, &loc, "r", "a: b, c");
	unit_str(unit_capture_end(), "::warning file=in.json,line=3,col=7,"
	    "title=r::a: b, c\n",
	    "github: a warning; : and , kept in the message");
	unit_capture_begin();
	diag_schema(DIAG_ERROR, &odd, "schema", odd.path, "/k",
	    "50% of\r\nit \x1b[0m\\");
	unit_str(unit_capture_end(), "::error file=a%2Cb%3Ac%25d%0D%0A\\u001b"
	    "\xEF\xBF\xBD.json,line=1,col=2,title=schema::/x%25y%0Az: 50%25 "
	    "of%0D%0Ait \\u001b[0m\\\n", "github: %, CR, LF, : and , in the "
	    "file, % CR LF in the path and message, other controls as JSON");
	memset(&it, 0, sizeof(it));
	it.severity = DIAG_ERROR;
	it.line = it.col = 1;
	it.rule = "a:b,c%";
	it.message = "m";
	diag_item_github(&b, "f", &it);
	unit_mem(buf_cstr(&b), b.len, "::error file=f,line=1,col=1,"
	    "title=a%3Ab%2Cc%25::m", "github: the title is a property");
	buf_free(&b);
	unit_capture_begin();
	diag_warnx("not about data");
	unit_str(unit_capture_end(), "test_diag: not about data\n",
	    "diag_warnx is text in github mode too");
	diag_setformat(DIAG_FMT_TEXT);
	unit_capture_begin();
	diag_at(DIAG_ERROR, &loc, "r", "back to text");
	unit_str(unit_capture_end(), "in.json:3:7: error: back to text\n",
	    "diag_setformat(DIAG_FMT_TEXT) returns to text");
}

static void
test_quiet(void)
{
	struct diag_loc loc = { "q.json", 1, 1, NULL };
	unsigned long e0 = diag_count(DIAG_ERROR);
	unsigned long w0 = diag_count(DIAG_WARNING);

	diag_setquiet(1);
	unit_capture_begin();
	diag_at(DIAG_ERROR, &loc, "r", "hidden");
	diag_at(DIAG_WARNING, &loc, "r", "hidden");
	diag_at(DIAG_WARNING, &loc, "r", "hidden");
	diag_setjson(1);
	diag_at(DIAG_ERROR, &loc, "r", "hidden");
	diag_setjson(0);
	unit_str(unit_capture_end(), "", "quiet: nothing is printed");
	unit_long((long)(diag_count(DIAG_ERROR) - e0), 2,
	    "quiet: errors are still counted");
	unit_long((long)(diag_count(DIAG_WARNING) - w0), 2,
	    "quiet: warnings are still counted");
	diag_setquiet(0);
	unit_capture_begin();
	diag_at(DIAG_ERROR, &loc, "r", "shown");
	unit_str(unit_capture_end(), "q.json:1:1: error: shown\n",
	    "diag_setquiet(0) speaks again");
}

static void
quote(size_t size, const char *s, size_t n, const char *want,
    const char *what)
{
	char out[256];
	const char *r;

	memset(out, 'Z', sizeof(out));
	r = diag_quote(out, size, s, n);
	unit_ok(r == out, what);
	unit_str(out, want, what);
	unit_ok(out[size] == 'Z', "quote: nothing written past size");
}

static void
test_quote(void)
{
	char out[4] = "abc";

	quote(80, "hello", 5, "\"hello\"", "quote: plain text");
	quote(80, "", 0, "\"\"", "quote: the empty string");
	quote(80, "abcdef", 3, "\"abc\"", "quote: only n bytes");
	quote(80, "a\x01\nb\"\\/", 7, "\"a\\u0001\\nb\\\"\\\\/\"",
	    "quote: controls, newline, quote and backslash escaped");
	quote(80, "a\0b", 3, "\"a\\u0000b\"", "quote: a NUL is escaped");
	quote(80, "\xC3\xA9\xF0\x9F\x98\x80", 6, "\"\xC3\xA9\xF0\x9F\x98\x80\"",
	    "quote: UTF-8 is kept");
	quote(16, "abcdefghijklmnopqrstuvwxyz", 26, "\"abcdefghij...\"",
	    "quote: cut to fill 16 bytes");
	quote(14, "abcdefghijk", 11, "\"abcdefghijk\"",
	    "quote: text that fits exactly is not cut");
	quote(14, "abcdefghijkl", 12, "\"abcdefgh...\"",
	    "quote: one byte too many is cut");
	quote(8, "abcde", 5, "\"abcde\"", "quote: the smallest size, fitting");
	quote(8, "abcdefg", 7, "\"ab...\"", "quote: the smallest size, cut");
	quote(12, "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", 10,
	    "\"\xC3\xA9\xC3\xA9\xC3\xA9...\"",
	    "quote: cut between two-byte characters");
	quote(11, "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", 10,
	    "\"\xC3\xA9\xC3\xA9...\"",
	    "quote: never cut inside a character");
	quote(10, "a\xF0\x9F\x98\x80" "b", 6, "\"a\xF0\x9F\x98\x80" "b\"",
	    "quote: a four-byte character that fits");
	quote(8, "a\xF0\x9F\x98\x80" "b", 6, "\"a...\"",
	    "quote: a four-byte character that does not fit is dropped");
	quote(20, "\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01", 10,
	    "\"\\u0001\\u0001...\"", "quote: never cut inside an escape");
	quote(12, "ab\x01" "cd", 5, "\"ab...\"",
	    "quote: an escape that does not fit is dropped");
	quote(7, "abc", 3, "\"abc\"", "quote: 7 bytes hold a short text");
	quote(6, "abcdef", 6, "\"...\"", "quote: 6 bytes hold only the dots");
	quote(5, "abc", 3, "", "quote: below 6 bytes, nothing");
	quote(1, "abc", 3, "", "quote: one byte, nothing");
	unit_ok(diag_quote(out, 0, "x", 1) == out && strcmp(out, "abc") == 0,
	    "quote: size 0 writes nothing");
}

static void
test_warn(void)
{
	diag_setprogname("/some/where/test_diag");
	unit_capture_begin();
	diag_warnx("cannot do %s %d", "that", 42);
	unit_str(unit_capture_end(), "test_diag: cannot do that 42\n",
	    "diag_warnx: program name and message");
	unit_capture_begin();
	errno = ENOENT;
	diag_warn("%s", "missing.json");
	unit_str(unit_capture_end(),
	    "test_diag: missing.json: No such file or directory\n",
	    "diag_warn: with strerror(errno)");
	unit_capture_begin();
	errno = ENOSPC;
	diag_warn("<stdout>");
	unit_str(unit_capture_end(),
	    "test_diag: <stdout>: No space left on device\n",
	    "diag_warn: another errno");
	diag_setjson(1);
	unit_capture_begin();
	diag_warnx("not about data");
	unit_str(unit_capture_end(), "test_diag: not about data\n",
	    "diag_warnx is text in JSON mode too");
	diag_setjson(0);
}

/* Hostile input (issue 13): what diag quotes from input is escaped. */
static void
test_escape(void)
{
	struct diag_loc bad = { "a\nb\x1b[31m\xFF\\.json", 1, 2,
	    "/x\ny\x1b[31mRED" };
	struct buf b = BUF_INIT;

	diag_escape(&b, "a\"b\\c\n\t\r\b\f\x01\x1b\x7f\xC2\x85\xC2\xA0\xC3\xA9"
	    "\xFF\xC3\0z", 23, 0);
	unit_mem(buf_cstr(&b), b.len, "a\"b\\c\\n\\t\\r\\b\\f\\u0001"
	    "\\u001b\\u007f\\u0085\xC2\xA0\xC3\xA9\xEF\xBF\xBD\xEF\xBF\xBD"
	    "\\u0000z", "escape: controls (C0, DEL, C1), invalid bytes -> "
	    "U+FFFD; quote and backslash kept");
	buf_reset(&b);
	diag_escape(&b, "a\"b\\c", 5, DIAG_ESC_BACKSLASH);
	unit_mem(buf_cstr(&b), b.len, "a\"b\\\\c",
	    "escape: backslash escaped, quote kept");
	buf_reset(&b);
	diag_escape(&b, "a\"b\\c", 5, DIAG_ESC_JSON);
	unit_mem(buf_cstr(&b), b.len, "a\\\"b\\\\c",
	    "escape: the inside of a JSON string");
	buf_free(&b);

	unit_capture_begin();
	diag_schema(DIAG_ERROR, &bad, "schema", bad.path,
	    "/additionalProperties",
	    "unexpected \x1b]0;x\x07 \"\\n\"");
	unit_str(unit_capture_end(),
	    "a\\nb\\u001b[31m\xEF\xBF\xBD\\\\.json:1:2: "
	    "error: /x\\ny\\u001b[31mRED: unexpected \\u001b]0;x\\u0007 "
	    "\"\\n\"\n", "text: file name, pointer and message escaped");
	diag_setjson(1);
	unit_capture_begin();
	diag_schema(DIAG_ERROR, &bad, "schema", bad.path, "/k\xFF",
	    "m\xFF\x1b");
	unit_str(unit_capture_end(), "{\"file\":\"a\\nb\\u001b[31m\xEF\xBF\xBD"
	    "\\\\.json\",\"line\":1,\"column\":2,\"severity\":\"error\","
	    "\"rule\":\"schema\",\"message\":\"m\xEF\xBF\xBD\\u001b\","
	    "\"path\":\"/x\\ny\\u001b[31mRED\","
	    "\"keywordLocation\":\"/k\xEF\xBF\xBD\"}\n",
	    "json: invalid UTF-8 becomes U+FFFD: valid JSON");
	diag_setjson(0);
	unit_capture_begin();
	errno = ENOENT;
	diag_warn("%s", "no\x1b[2J\xFE");
	unit_str(unit_capture_end(), "test_diag: no\\u001b[2J\xEF\xBF\xBD: "
	    "No such file or directory\n", "warn: a file name escaped");
}

/* A list keeps the problems, sorts them stably and prints them. */
static void
test_list(void)
{
	struct diag_list l = DIAG_LIST_INIT;
	struct diag_item *it;

	diag_list_add(&l, DIAG_ERROR, 3, 1, "r3", NULL, "third %d", 3);
	it = diag_list_add(&l, DIAG_ERROR, 1, 5, "r1", "/a/b[2]", "first");
	it->prefix = 1;
	diag_list_add(&l, DIAG_WARNING, 1, 5, "r2", "/a", "second");
	diag_list_sort(&l);
	unit_str(l.v[0].rule, "r1", "sorted: 1:5 first");
	unit_str(l.v[1].rule, "r2", "one place: the order they came in");
	unit_str(l.v[2].message, "third 3", "the message formatted");
	unit_capture_begin();
	diag_list_print(&l, "f.xml");
	unit_str(unit_capture_end(), "f.xml:1:5: error: /a/b[2]: first\n"
	    "f.xml:1:5: warning: second\nf.xml:3:1: error: third 3\n",
	    "text: the path before the message only with prefix");
	diag_setjson(1);
	unit_capture_begin();
	diag_list_print(&l, "f.xml");
	diag_setjson(0);
	unit_str(unit_capture_end(), "{\"file\":\"f.xml\",\"line\":1,"
	    "\"column\":5,\"severity\":\"error\",\"rule\":\"r1\","
	    "\"message\":\"first\",\"path\":\"/a/b[2]\"}\n"
	    "{\"file\":\"f.xml\",\"line\":1,\"column\":5,"
	    "\"severity\":\"warning\",\"rule\":\"r2\",\"message\":"
	    "\"second\",\"path\":\"/a\"}\n"
	    "{\"file\":\"f.xml\",\"line\":3,\"column\":1,"
	    "\"severity\":\"error\",\"rule\":\"r3\",\"message\":"
	    "\"third 3\"}\n", "json: the path a member, not in the message");
	diag_list_clear(&l);
	unit_long((long)l.n, 0, "cleared");
	diag_list_add(&l, DIAG_ERROR, 1, 1, "r", NULL, "again");
	unit_long((long)l.n, 1, "used again");
	diag_list_free(&l);
}

int
main(void)
{
	test_progname();
	test_statuses();
	test_text();
	test_json();
	test_github();
	test_quiet();
	test_quote();
	test_warn();
	test_escape();
	test_list();
	return unit_done();
}
