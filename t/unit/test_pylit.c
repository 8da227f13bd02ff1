/*
 * Unit tests of lib/pylit: values, every error with its offset, keys,
 * nesting, large texts, the calls form, the scanner; and Python itself
 * (ast.literal_eval and json.dumps, t/oracle/pylit.py) as the oracle of
 * a few hundred literals written by hand and by a generator. python3
 * must be there: without it the oracle's checks fail.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "toolcall/pylit.h"
#include "unit.h"

#define ORACLE	"t/oracle/pylit.py"
#define SET	"pylit-oracle-set"

static struct buf label;

/*
 * A literal as the label of one TAP line: control bytes and '#'
 * escaped; it lasts until the next call.
 */
static const char *
shown(const char *s, size_t n)
{
	struct buf *b = &label;
	size_t i;
	unsigned char c;

	buf_reset(b);
	for (i = 0; i < n && i < 200; i++) {
		c = (unsigned char)s[i];
		if (c == '\n')
			buf_adds(b, "\\n");
		else if (c == '\r')
			buf_adds(b, "\\r");
		else if (c < 0x20 || c == 0x7F || c == '#')
			buf_printf(b, "\\x%02x", c);
		else
			buf_addc(b, (char)c);
	}
	if (i < n)
		buf_adds(b, "...");
	return buf_cstr(b);
}

static char *
dump(const json_t *v)
{
	return json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
}

/* Parses s[0..n) and checks the end offset and the value's JSON text. */
static void
parse_ok(const char *s, size_t n, size_t want_end, const char *want,
    const char *what)
{
	struct pylit_error err;
	size_t end = (size_t)-1;
	json_t *v;
	char *d;

	v = pylit_parse(s, n, 0, &end, &err);
	unit_ok(v != NULL, unit_fmt("%s: parsed", what));
	if (v == NULL) {
		printf("#   error at %zu (%s): %s\n", err.offset, err.rule,
		    err.text);
		return;
	}
	unit_long((long)end, (long)want_end, unit_fmt("%s: ends at %zu",
	    what, want_end));
	d = dump(v);
	unit_str(d, want, unit_fmt("%s: value", what));
	free(d);
	json_decref(v);
}

/* Parses s[0..n), expecting an error at want_off with rule and text. */
static void
parse_bad(const char *s, size_t n, size_t want_off, const char *want_rule,
    const char *want_text, const char *what)
{
	struct pylit_error err;
	size_t end = 12345;
	json_t *v;
	char *d;

	memset(&err, 0, sizeof(err));
	v = pylit_parse(s, n, 0, &end, &err);
	unit_ok(v == NULL, unit_fmt("%s: refused", what));
	if (v != NULL) {
		d = dump(v);
		printf("#   got %s, ending at %zu\n", d, end);
		free(d);
		json_decref(v);
		return;
	}
	unit_long((long)end, 12345, unit_fmt("%s: end untouched", what));
	unit_long((long)err.offset, (long)want_off,
	    unit_fmt("%s: at offset %zu", what, want_off));
	unit_str(err.rule, want_rule, unit_fmt("%s: rule %s", what,
	    want_rule));
	unit_str(err.text, want_text, unit_fmt("%s: message", what));
}

#define OK(s, end, want) \
	parse_ok(s, sizeof(s) - 1, end, want, shown(s, sizeof(s) - 1))
#define OKW(s, end, want, what)	parse_ok(s, sizeof(s) - 1, end, want, what)
#define BAD(s, at, rule, text) \
	parse_bad(s, sizeof(s) - 1, at, rule, text, shown(s, sizeof(s) - 1))
#define BADW(s, at, rule, text, what) \
	parse_bad(s, sizeof(s) - 1, at, rule, text, what)
#define LIT	"invalid Python literal: "
#define SYN	"py-syntax"
#define TYP	"py-type"

static void
test_scalars(void)
{
	OK("None", 4, "null");
	OK("True", 4, "true");
	OK("False", 5, "false");
	OK("  1  ", 3, "1");
	OK("1 # a comment", 1, "1");
	OKW("# first\n  42", 12, "42", "a comment before the value");
	OKW("\\\n1", 3, "1", "a backslash and newline before the value");
	OKW("\f\t 7", 4, "7", "form feed and tab are blanks");
	OKW("1\n2", 1, "1", "a newline ends a literal at the top");
	OKW("1 2", 1, "1", "a second value is the caller's");
	OK("1, 2", 4, "[1,2]");
	OK("1 ,2", 4, "[1,2]");
	OK("1,", 2, "[1]");
	OK("1, 2,  # c", 5, "[1,2]");
	OK("'a', 'b' 'c'\n3", 12, "[\"a\",\"bc\"]");
	OK("(1, 2), -3 \\\n, 4", 16, "[[1,2],-3,4]");
	BAD("1, )", 3, SYN, LIT "expected a value, found ')'");
	BAD("1, x", 3, SYN, LIT "the name 'x' is not a literal");
	BAD("1, 2 + 3", 5, SYN, LIT "the operator '+' is not part of a "
	    "literal");

	/* ints */
	OK("0", 1, "0");
	OK("00", 2, "0");
	OK("0_0", 3, "0");
	OK("-0", 2, "0");
	OK("-1", 2, "-1");
	OK("+1", 2, "1");
	OK("- 1", 3, "-1");
	OK("-(1)", 4, "-1");
	OK("-( ( 2.5 ) )", 12, "-2.5");
	OK("(-1)", 4, "-1");
	OK("1_000_000", 9, "1000000");
	OK("0x_ff", 5, "255");
	OK("0XFF", 4, "255");
	OK("0o17", 4, "15");
	OK("0O7", 3, "7");
	OK("0b101", 5, "5");
	OK("0B1_0", 5, "2");
	OK("9223372036854775807", 19, "9223372036854775807");
	OK("-9223372036854775808", 20, "-9223372036854775808");
	OK("9223372036854775808", 19, "\"9223372036854775808\"");
	OK("-9223372036854775809", 20, "\"-9223372036854775809\"");
	OK("0x7fffffffffffffff", 18, "9223372036854775807");
	OK("0x8000000000000000", 18, "\"9223372036854775808\"");
	OK("-0x8000000000000000", 19, "-9223372036854775808");
	OK("0xFFFFFFFFFFFFFFFFFF", 20, "\"4722366482869645213695\"");
	OK("0o1000000000000000000000", 24, "\"9223372036854775808\"");
	OK("-0b1000000000000000000000000000000000"
	    "0000000000000000000000000000000", 68, "\"-18446744073709551616\"");
	OK("123456789012345678901234567890", 30,
	    "\"123456789012345678901234567890\"");

	/* floats */
	OK("1.5", 3, "1.5");
	OK(".5", 2, "0.5");
	OK("5.", 2, "5.0");
	OK("1e5", 3, "100000.0");
	OK("1E-3", 4, "0.001");
	OK("1.e2", 4, "100.0");
	OK("1_0.2_5", 7, "10.25");
	OK("1e1_0", 5, "10000000000.0");
	OK("09.5", 4, "9.5");
	OK("09e1", 4, "90.0");
	OK("00.0", 4, "0.0");
	OK("-0.0", 4, "-0.0");
	OK("+.5e+1", 6, "5.0");
	OK("1e-400", 6, "0.0");
	OK("4.9e-324", 8, "4.9406564584124654e-324");
	OK("1.7976931348623157e308", 22, "1.7976931348623157e308");
	OK("0.1", 3, "0.10000000000000001");
}

static void
test_strings(void)
{
	OK("'a'", 3, "\"a\"");
	OK("\"a\"", 3, "\"a\"");
	OK("''", 2, "\"\"");
	OK("\"\"\"x\"\"\"", 7, "\"x\"");
	OK("'''a\nb'''", 9, "\"a\\nb\"");
	OKW("'''a\r\nb'''", 10, "\"a\\nb\"", "CR LF in a string is LF");
	OKW("'''a\rb'''", 9, "\"a\\nb\"", "CR in a string is LF");
	OK("'''a''''b'", 10, "\"ab\"");
	OK("\"\"\"a\"\"\"\"\"", 9, "\"a\"");
	OK("'a' 'b'", 7, "\"ab\"");
	OK("'a' \"b\" '''c''' u'd' r'\\e'", 26, "\"abcd\\\\e\"");
	OK("'a'\\\n'b'", 8, "\"ab\"");
	OKW("'a'\n'b'", 3, "\"a\"", "no joining across a newline at the top");
	OKW("'a' # c\n'b'", 3, "\"a\"", "nor across a comment at the top");
	OKW("['a'\n 'b' # c\n 'c']", 19, "[\"abc\"]",
	    "joining across newlines and comments in brackets");
	OK("u'a'", 4, "\"a\"");
	OK("U'a'", 4, "\"a\"");
	OK("r'\\n'", 5, "\"\\\\n\"");
	OK("R'\\''", 5, "\"\\\\'\"");
	OK("r'\\\\'", 5, "\"\\\\\\\\\"");
	OK("r\"a\\\"b\"", 7, "\"a\\\\\\\"b\"");
	OK("r'a\\\nb'", 7, "\"a\\\\\\nb\"");
	OK("r'''\\''''", 9, "\"\\\\'\"");
	OK("'\\\\ \\' \\\" \\a \\b \\f \\n \\r \\t \\v'", 31,
	    "\"\\\\ ' \\\" \\u0007 \\b \\f \\n \\r \\t \\u000B\"");
	OK("'\\0'", 4, "\"\\u0000\"");
	OK("'\\101\\60'", 9, "\"A0\"");
	OK("'\\777'", 6, "\"\xc7\xbf\"");
	OK("'\\1234'", 7, "\"S4\"");
	OK("'\\x41\\xe9\\xFF'", 14, "\"A\xc3\xa9\xc3\xbf\"");
	OK("'\\u00e9\\u4E2D'", 14, "\"\xc3\xa9\xe4\xb8\xad\"");
	OK("'\\U0001F600'", 12, "\"\xf0\x9f\x98\x80\"");
	OK("'\\ud83d\\ude00'", 14, "\"\xf0\x9f\x98\x80\"");
	OKW("'\\ud83d' '\\ude00'", 17, "\"\xf0\x9f\x98\x80\"",
	    "a surrogate pair across two joined strings");
	OK("'\\q\\d\\8'", 8, "\"\\\\q\\\\d\\\\8\"");
	OK("'a\\\nb'", 6, "\"ab\"");
	OK("'a\\\r\nb'", 7, "\"ab\"");
	OK("'a\\\rb'", 6, "\"ab\"");
	OK("'\xc3\xa9\xf0\x9f\x98\x80'", 8, "\"\xc3\xa9\xf0\x9f\x98\x80\"");
	OK("'\x01\x7f\t'", 5, "\"\\u0001\x7f\\t\"");
	OKW("'a\0b'", 5, "\"a\\u0000b\"", "a NUL byte inside a string is kept");
	OK("'#[]{}()'", 9, "\"#[]{}()\"");
}

static void
test_containers(void)
{
	OK("[]", 2, "[]");
	OK("[ ]", 3, "[]");
	OK("[1, 2,]", 7, "[1,2]");
	OK("[\n1,\n2\n]", 8, "[1,2]");
	OK("[1, # one\n 2]", 13, "[1,2]");
	OK("[1, \\\n 2]", 9, "[1,2]");
	OK("[\r\n1,\r2]", 8, "[1,2]");
	OK("()", 2, "[]");
	OK("( )", 3, "[]");
	OK("(1,)", 4, "[1]");
	OK("(1, 2)", 6, "[1,2]");
	OK("((1,),)", 7, "[[1]]");
	OK("[()]", 4, "[[]]");
	OK("(1)", 3, "1");
	OK("((1))", 5, "1");
	OK("('a')", 5, "\"a\"");
	OK("{}", 2, "{}");
	OK("{1, 2}", 6, "[1,2]");
	OK("{2, 1, 2,}", 10, "[2,1]");
	OK("{1, True, 1.0, 2}", 17, "[1,2]");
	OK("{True, 1}", 9, "[true]");
	OK("{1.0, 1}", 8, "[1.0]");
	OK("{0, False, 0.0, -0.0}", 21, "[0]");
	OK("{'a', 'a', \"a\", 'b'}", 20, "[\"a\",\"b\"]");
	OK("{(1, 2), (1, 2), (1, (2,)), ((1, 2),)}", 38,
	    "[[1,2],[1,[2]],[[1,2]]]");
	OK("{(), (1,), ((),)}", 17, "[[],[1],[[]]]");
	OK("{'1', 1}", 8, "[\"1\",1]");
	OK("{None, 'None'}", 14, "[null,\"None\"]");
	OK("{123456789012345678901234567890, 123456789012345678901234567890}",
	    64, "[\"123456789012345678901234567890\"]");
	OK("{123456789012345678901234567890, '123456789012345678901234567890'}",
	    66, "[\"123456789012345678901234567890\","
	    "\"123456789012345678901234567890\"]");
	OK("set()", 5, "[]");
	OK("set ( )", 7, "[]");
	OK("[set(), {}]", 11, "[[],{}]");
	OK("{'a': None, 'b': True}", 22, "{\"a\":null,\"b\":true}");
	OK("{'b': 1, 'a': 2}", 16, "{\"b\":1,\"a\":2}");
	OK("{'a': [1, {'c': (None,)}],}", 27,
	    "{\"a\":[1,{\"c\":[null]}]}");
	OK("{\n  'a': 1,\n  'b': 2,\n}", 23, "{\"a\":1,\"b\":2}");
	OK("[[[[]]]]", 8, "[[[[]]]]");
}

static void
test_keys(void)
{
	struct pylit_error err;
	size_t end;

	OK("{1: 'a'}", 8, "{\"1\":\"a\"}");
	OK("{-1: 0}", 7, "{\"-1\":0}");
	OK("{0x10: 0}", 9, "{\"16\":0}");
	OK("{1.5: 0}", 8, "{\"1.5\":0}");
	OK("{100.0: 0}", 10, "{\"100.0\":0}");
	OK("{1e15: 0}", 9, "{\"1000000000000000.0\":0}");
	OK("{1e16: 0}", 9, "{\"1e+16\":0}");
	OK("{1.5e16: 0}", 11, "{\"1.5e+16\":0}");
	OK("{1e22: 0}", 9, "{\"1e+22\":0}");
	OK("{1e-4: 0}", 9, "{\"0.0001\":0}");
	OK("{1e-5: 0}", 9, "{\"1e-05\":0}");
	OK("{1.25e-7: 0}", 12, "{\"1.25e-07\":0}");
	OK("{0.1: 0}", 8, "{\"0.1\":0}");
	OK("{-0.0: 0}", 9, "{\"-0.0\":0}");
	OK("{0.0: 0}", 8, "{\"0.0\":0}");
	OK("{5e-324: 0}", 11, "{\"5e-324\":0}");
	OK("{1.7976931348623157e308: 0}", 27,
	    "{\"1.7976931348623157e+308\":0}");
	OK("{123.456: 0}", 12, "{\"123.456\":0}");
	OK("{True: 0, False: 1, None: 2}", 28,
	    "{\"true\":0,\"false\":1,\"null\":2}");
	OK("{123456789012345678901234567890: 0}", 35,
	    "{\"123456789012345678901234567890\":0}");
	OK("{'': 0}", 7, "{\"\":0}");
	OK("{1: 0, 2.0: 1, '3': 2}", 22, "{\"1\":0,\"2.0\":1,\"3\":2}");

	BAD("{'a': 1, 'a': 2}", 9, "duplicate-key",
	    "duplicate key \"a\", first at line 1, column 2");
	BAD("{'a': 1, \"a\": 2}", 9, "duplicate-key",
	    "duplicate key \"a\", first at line 1, column 2");
	BAD("{'a' 'b': 1, 'ab': 2}", 13, "duplicate-key",
	    "duplicate key \"ab\", first at line 1, column 2");
	BAD("{'x': 1, 'a': 1, 'b': 2, 'a': 3}", 25, "duplicate-key",
	    "duplicate key \"a\", first at line 1, column 10");
	BAD("{\n  'x': 1,\n  'x': 2}", 14, "duplicate-key",
	    "duplicate key \"x\", first at line 2, column 3");
	BAD("{'\xc3\xa9': 1, '\xc3\xa9': 2}", 10, "duplicate-key",
	    "duplicate key \"\xc3\xa9\", first at line 1, column 2");
	BAD("{1: 0, True: 1}", 7, "duplicate-key", "duplicate key \"true\" "
	    "(equal in Python to the key \"1\"), first at line 1, column 2");
	BAD("{1: 0, 1.0: 1}", 7, "duplicate-key", "duplicate key \"1.0\" "
	    "(equal in Python to the key \"1\"), first at line 1, column 2");
	BAD("{0: 0, False: 1}", 7, "duplicate-key", "duplicate key \"false\" "
	    "(equal in Python to the key \"0\"), first at line 1, column 2");
	BAD("{0.0: 0, -0.0: 1}", 9, "duplicate-key", "duplicate key \"-0.0\" "
	    "(equal in Python to the key \"0.0\"), first at line 1, column 2");
	BAD("{1e16: 0, 10000000000000000: 1}", 10, "duplicate-key",
	    "duplicate key \"10000000000000000\" (equal in Python to the key "
	    "\"1e+16\"), first at line 1, column 2");
	BAD("{1: 0, 0x1: 1}", 7, "duplicate-key",
	    "duplicate key \"1\", first at line 1, column 2");
	BAD("{1: 0, '1': 1}", 7, "duplicate-key",
	    "duplicate key \"1\", first at line 1, column 2");
	BAD("{'1': 0, 1: 1}", 9, "duplicate-key",
	    "duplicate key \"1\", first at line 1, column 2");
	BAD("{None: 0, 'null': 1}", 10, "duplicate-key",
	    "duplicate key \"null\", first at line 1, column 2");
	BAD("{'': 0, '': 1}", 8, "duplicate-key",
	    "duplicate key \"\", first at line 1, column 2");
	BAD("{'k': {'a': 1, 'a': 2}}", 15, "duplicate-key",
	    "duplicate key \"a\", first at line 1, column 8");

	memset(&err, 0, sizeof(err));
	unit_ok(pylit_parse("{1: 0, True: 1}", 15, 0, &end, &err) == NULL,
	    "a duplicate: refused");
	unit_long((long)err.first, 1, "a duplicate: the first key's offset");
	unit_str(err.key, "\"true\"", "a duplicate: the key, quoted");
	pylit_dup_text(&err, 7, 9);
	unit_str(err.text, "duplicate key \"true\" (equal in Python to the "
	    "key \"1\"), first at line 7, column 9",
	    "pylit_dup_text: the first place as the caller counts it");
}

static void
test_errors(void)
{
	BAD("", 0, SYN, LIT "expected a value, found the end of the text");
	BAD("   ", 3, SYN, LIT "expected a value, found the end of the text");
	BAD("# only a comment", 16, SYN,
	    LIT "expected a value, found the end of the text");
	BAD("]", 0, SYN, LIT "expected a value, found ']'");
	BAD("\x01", 0, SYN, LIT "expected a value, found U+0001");
	BAD("\x7f", 0, SYN, LIT "expected a value, found U+007F");
	BAD("\xc2\xa0" "1", 0, SYN, LIT "expected a value, found U+00A0");
	BAD("\xe4\xb8\xad", 0, SYN, LIT "expected a value, found U+4E2D");
	BAD("~1", 0, SYN, LIT "expected a value, found '~'");
	BAD("\0", 0, SYN, LIT "NUL byte");
	BAD("1\0", 1, SYN, LIT "NUL byte");
	BAD("[1,\0]", 3, SYN, LIT "NUL byte");
	BAD("[1 \0]", 3, SYN, LIT "NUL byte");
	BAD("[1 # \0\n]", 5, SYN, LIT "NUL byte");

	/* UTF-8 */
	BAD("\xff", 0, "utf8", "invalid UTF-8: byte 0xff at byte offset 0");
	BAD("'a\xff" "b'", 2, "utf8",
	    "invalid UTF-8: byte 0xff at byte offset 2");
	BAD("'''a\xc3'''", 4, "utf8",
	    "invalid UTF-8: byte 0xc3 at byte offset 4");
	BAD("'\xed\xa0\x80'", 1, "utf8",
	    "invalid UTF-8: byte 0xed at byte offset 1");
	BAD("[1 # \xff\n]", 5, "utf8",
	    "invalid UTF-8: byte 0xff at byte offset 5");
	BAD("# \xc0\n1", 2, "utf8",
	    "invalid UTF-8: byte 0xc0 at byte offset 2");
	BAD("[\xf5]", 1, "utf8", "invalid UTF-8: byte 0xf5 at byte offset 1");
	OKW("1 # \xff", 1, "1", "text after the literal is the caller's");

	/* containers */
	BAD("[1 2]", 3, SYN, LIT "expected ',' or ']', found '2'");
	BAD("[1,", 3, SYN, LIT "expected a value, found the end of the text");
	BAD("[1", 2, SYN, LIT "expected ',' or ']', found the end of the text");
	BAD("[,]", 1, SYN, LIT "expected a value, found ','");
	BAD("[1,,2]", 3, SYN, LIT "expected a value, found ','");
	BAD("[1 if x else 2]", 3, SYN, LIT "expected ',' or ']', found 'i'");
	BAD("(1 2)", 3, SYN, LIT "expected ',' or ')', found '2'");
	BAD("(1, 2", 5, SYN,
	    LIT "expected ',' or ')', found the end of the text");
	BAD("(,)", 1, SYN, LIT "expected a value, found ','");
	BAD("{1: 2, 3}", 8, SYN,
	    LIT "expected ':' after a dictionary key, found '}'");
	BAD("{1, 3: 4}", 5, SYN, LIT "expected ',' or '}', found ':'");
	BAD("{1 2}", 3, SYN, LIT "expected ',', ':' or '}', found '2'");
	BAD("{'a': 1 'b': 2}", 8, SYN, LIT "expected ',' or '}', found '''");
	BAD("{'a':}", 5, SYN, LIT "expected a value, found '}'");
	BAD("{'a': 1", 7, SYN,
	    LIT "expected ',' or '}', found the end of the text");
	BAD("{**a}", 1, SYN, LIT "expected a value, found '*'");
	BAD("[*a]", 1, SYN, LIT "expected a value, found '*'");
	BAD("{,}", 1, SYN, LIT "expected a value, found ','");

	/* signs */
	BAD("-", 1, SYN, LIT "expected a number, found the end of the text");
	BAD("-\n1", 1, SYN, LIT "expected a number, found the end of the line");
	BAD("[-]", 2, SYN, LIT "expected a number, found ']'");
	BAD("-'a'", 0, SYN, LIT "a sign (-) applies only to a number");
	BAD("+[1]", 0, SYN, LIT "a sign (+) applies only to a number");
	BAD("-{}", 0, SYN, LIT "a sign (-) applies only to a number");
	BAD("- -1", 0, SYN, LIT "a sign (-) applies only to a number");
	BAD("--1", 0, SYN, LIT "a sign (-) applies only to a number");
	BAD("-(-1)", 0, SYN, LIT "a sign (-) applies only to a number");
	BAD("-(1,)", 0, SYN, LIT "a sign (-) applies only to a number");
	BAD("-(1, 2)", 0, SYN, LIT "a sign (-) applies only to a number");
	BAD("-()", 0, SYN, LIT "a sign (-) applies only to a number");
	BAD("-None", 0, SYN, LIT "a sign (-) applies only to a number");
	BAD("-True", 0, SYN, LIT "a sign (-) applies only to a number");
	BAD("[1, -set()]", 4, SYN, LIT "a sign (-) applies only to a number");
	BAD("-r'x'", 0, SYN, LIT "a sign (-) applies only to a number");

	/* names and calls */
	BAD("foo", 0, SYN, LIT "the name 'foo' is not a literal");
	BAD("[1, x]", 4, SYN, LIT "the name 'x' is not a literal");
	BAD("-x", 1, SYN, LIT "the name 'x' is not a literal");
	BAD("not 1", 0, SYN, LIT "the name 'not' is not a literal");
	BAD("true", 0, SYN, LIT "'true' is JSON; Python writes True");
	BAD("false", 0, SYN, LIT "'false' is JSON; Python writes False");
	BAD("{'a': null}", 6, SYN, LIT "'null' is JSON; Python writes None");
	BAD("foo(1)", 0, SYN, LIT "a call of 'foo' is not a literal");
	BAD("float('inf')", 0, SYN, LIT "a call of 'float' is not a literal");
	BAD("set([1])", 0, SYN,
	    LIT "a call of 'set' is not a literal (set() alone is)");
	BAD("frozenset()", 0, SYN,
	    LIT "a call of 'frozenset' is not a literal");
	BAD("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 0, SYN,
	    LIT "the name 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...' is not a "
	    "literal");
	BAD("x'a'", 0, SYN, LIT "the name 'x' is not a literal");
	BAD("ur'x'", 0, SYN, LIT "invalid string prefix 'ur'");
	BAD("rr'x'", 0, SYN, LIT "invalid string prefix 'rr'");
	BAD("bu'x'", 0, SYN, LIT "invalid string prefix 'bu'");
	BAD("fb'x'", 0, SYN, LIT "invalid string prefix 'fb'");
	BAD("b'x'", 0, TYP, LIT "a bytes literal cannot be held in JSON");
	BAD("rb'x'", 0, TYP, LIT "a bytes literal cannot be held in JSON");
	BAD("Br\"x\"", 0, TYP, LIT "a bytes literal cannot be held in JSON");
	BAD("'a' b'x'", 4, TYP, LIT "a bytes literal cannot be held in JSON");
	BAD("f'x'", 0, SYN, LIT "an f-string is not a literal");
	BAD("RF'x'", 0, SYN, LIT "an f-string is not a literal");
	BAD("t'x'", 0, SYN, LIT "a t-string is not a literal");
	BAD("...", 0, TYP, LIT "Ellipsis (...) cannot be held in JSON");

	/* strings */
	BAD("'abc", 0, SYN, LIT "unterminated string");
	BAD("u'abc", 0, SYN, LIT "unterminated string");
	BAD("'a\nb'", 0, SYN, LIT "unterminated string");
	BAD("'a\rb'", 0, SYN, LIT "unterminated string");
	BAD("'a\\", 0, SYN, LIT "unterminated string");
	BAD("r'\\'", 0, SYN, LIT "unterminated string");
	BAD("[1, 'x]", 4, SYN, LIT "unterminated string");
	BAD("'''abc''", 0, SYN, LIT "unterminated triple-quoted string");
	BAD("'x' '''a", 4, SYN, LIT "unterminated triple-quoted string");
	BAD("'\\x4'", 1, SYN, LIT "truncated \\xXX escape");
	BAD("'\\x'", 1, SYN, LIT "truncated \\xXX escape");
	BAD("'ab\\xg0'", 3, SYN, LIT "truncated \\xXX escape");
	BAD("'\\u12'", 1, SYN, LIT "truncated \\uXXXX escape");
	BAD("'\\U0001F60'", 1, SYN, LIT "truncated \\UXXXXXXXX escape");
	BAD("'\\U00110000'", 1, SYN,
	    LIT "the escape \\U00110000 is beyond U+10FFFF");
	BAD("'\\N{BULLET}'", 1, SYN,
	    LIT "\\N{...} escapes (characters by name) are not supported");
	BAD("'\\ud800'", 1, TYP, LIT "the escape \\ud800 is half of a "
	    "surrogate pair, which UTF-8 cannot hold alone");
	BAD("'\\udc00'", 1, TYP, LIT "the escape \\udc00 is half of a "
	    "surrogate pair, which UTF-8 cannot hold alone");
	BAD("'\\U0000DBFF'", 1, TYP, LIT "the escape \\udbff is half of a "
	    "surrogate pair, which UTF-8 cannot hold alone");
	BAD("'\\ud800x'", 1, TYP, LIT "the escape \\ud800 is half of a "
	    "surrogate pair, which UTF-8 cannot hold alone");
	BAD("'\\ud800\\ud800'", 1, TYP, LIT "the escape \\ud800 is half of a "
	    "surrogate pair, which UTF-8 cannot hold alone");
	BAD("'\\ud800\\n'", 1, TYP, LIT "the escape \\ud800 is half of a "
	    "surrogate pair, which UTF-8 cannot hold alone");
	BAD("'x\\ud83d' 'y'", 2, TYP, LIT "the escape \\ud83d is half of a "
	    "surrogate pair, which UTF-8 cannot hold alone");
	BAD("'\\ud83d' r'\\''", 1, TYP, LIT "the escape \\ud83d is half of a "
	    "surrogate pair, which UTF-8 cannot hold alone");
	BAD("['\\ud83d']", 2, TYP, LIT "the escape \\ud83d is half of a "
	    "surrogate pair, which UTF-8 cannot hold alone");

	/* numbers */
	BAD("01", 0, SYN, LIT "leading zeros in a decimal integer (0o is "
	    "octal)");
	BAD("[007]", 1, SYN, LIT "leading zeros in a decimal integer (0o is "
	    "octal)");
	BAD("1_", 1, SYN, LIT "invalid decimal literal");
	BAD("1__0", 1, SYN, LIT "invalid decimal literal");
	BAD("1_.5", 1, SYN, LIT "invalid decimal literal");
	BAD("1._5", 2, SYN, LIT "invalid decimal literal");
	BAD("1e", 2, SYN, LIT "invalid decimal literal");
	BAD("1e+", 3, SYN, LIT "invalid decimal literal");
	BAD("1e5_", 3, SYN, LIT "invalid decimal literal");
	BAD("1abc", 1, SYN, LIT "invalid decimal literal");
	BAD("0x", 2, SYN, LIT "invalid hexadecimal literal");
	BAD("0x_", 3, SYN, LIT "invalid hexadecimal literal");
	BAD("0x1_", 4, SYN, LIT "invalid hexadecimal literal");
	BAD("0x1__2", 4, SYN, LIT "invalid hexadecimal literal");
	BAD("0xg", 2, SYN, LIT "invalid hexadecimal literal");
	BAD("0x1g", 3, SYN, LIT "invalid hexadecimal literal");
	BAD("0o", 2, SYN, LIT "invalid octal literal");
	BAD("0o8", 2, SYN, LIT "invalid digit '8' in octal literal");
	BAD("0o18", 3, SYN, LIT "invalid digit '8' in octal literal");
	BAD("0b2", 2, SYN, LIT "invalid digit '2' in binary literal");
	BAD("0b1e", 3, SYN, LIT "invalid binary literal");
	BAD("1j", 0, TYP, LIT "a complex number cannot be held in JSON");
	BAD("1.5J", 0, TYP, LIT "a complex number cannot be held in JSON");
	BAD("-2j", 0, TYP, LIT "a complex number cannot be held in JSON");
	BAD("1+2j", 0, TYP, LIT "a complex number cannot be held in JSON");
	BAD("-1.5 - 2e3j", 0, TYP,
	    LIT "a complex number cannot be held in JSON");
	BAD("[0, 1 -\n 2j]", 4, TYP,
	    LIT "a complex number cannot be held in JSON");
	BAD("(1)+2j", 0, TYP, LIT "a complex number cannot be held in JSON");
	BAD("1e400", 0, TYP, LIT "the number 1e400 is beyond the largest "
	    "double, 1.7976931348623157e308");
	BAD("[-1_0e400]", 1, TYP, LIT "the number -1_0e400 is beyond the "
	    "largest double, 1.7976931348623157e308");
	BAD("1000000000000000000000000000000000000000000000000000e300", 0, TYP,
	    LIT "the number 1000000000000000000000000000000000000... is "
	    "beyond the largest double, 1.7976931348623157e308");

	/* operators */
	BAD("1 + 2", 2, SYN, LIT "the operator '+' is not part of a literal");
	BAD("'a' * 3", 4, SYN, LIT "the operator '*' is not part of a literal");
	BAD("2**3", 1, SYN, LIT "the operator '**' is not part of a literal");
	BAD("[1 - 2]", 3, SYN, LIT "the operator '-' is not part of a literal");
	BAD("1 == 1", 2, SYN, LIT "the operator '==' is not part of a literal");
	BAD("[1 < 2]", 3, SYN, LIT "the operator '<' is not part of a literal");
	BAD("{'a': 1 | 2}", 8, SYN,
	    LIT "the operator '|' is not part of a literal");
	BAD("'a' % x", 4, SYN, LIT "the operator '%' is not part of a literal");
	BAD("[1][0]", 3, SYN, LIT "a subscript is not a literal");
	BAD("{'a': 1}['a']", 8, SYN, LIT "a subscript is not a literal");
	BAD("'a'.upper()", 3, SYN, LIT "an attribute is not a literal");
	BAD("(1)(2)", 3, SYN, LIT "a call is not a literal");
	BAD("[(1) (2)]", 5, SYN, LIT "a call is not a literal");
	OKW("1 # + 2", 1, "1", "an operator in a comment is no operator");

	/* hashing and keys */
	BAD("{(1, 2): 3}", 1, TYP, LIT "a tuple cannot be a key of a JSON "
	    "object");
	BAD("{[1]: 2}", 1, SYN, LIT "a list is not hashable (a set element "
	    "or dictionary key must be)");
	BAD("{{1: 2}: 3}", 1, SYN, LIT "a dict is not hashable (a set element "
	    "or dictionary key must be)");
	BAD("{{}: 3}", 1, SYN, LIT "a dict is not hashable (a set element "
	    "or dictionary key must be)");
	BAD("{{1}: 2}", 1, SYN, LIT "a set is not hashable (a set element "
	    "or dictionary key must be)");
	BAD("{set(): 1}", 1, SYN, LIT "a set is not hashable (a set element "
	    "or dictionary key must be)");
	BAD("{1, [2]}", 4, SYN, LIT "a list is not hashable (a set element "
	    "or dictionary key must be)");
	BAD("{(1, [2])}", 5, SYN, LIT "a list is not hashable (a set element "
	    "or dictionary key must be)");
	BAD("{(1, {})}", 5, SYN, LIT "a dict is not hashable (a set element "
	    "or dictionary key must be)");
	BAD("{'a\\0': 1}", 1, TYP, LIT "a dictionary key with a NUL "
	    "character (jansson holds none)");
	BAD("{1: 2, 'a\0b': 1}", 7, TYP, LIT "a dictionary key with a NUL "
	    "character (jansson holds none)");
	OKW("{'a': '\0'}", 10, "{\"a\":\"\\u0000\"}",
	    "a NUL in a value is kept");
}

/* text of n copies of a, then mid, then n copies of b */
static char *
nest(const char *a, size_t n, const char *mid, const char *b, size_t *len)
{
	struct buf t = BUF_INIT;
	size_t i;

	for (i = 0; i < n; i++)
		buf_adds(&t, a);
	buf_adds(&t, mid);
	for (i = 0; i < n; i++)
		buf_adds(&t, b);
	*len = t.len;
	return buf_cstr(&t);
}

static void
deep(const char *a, size_t n, const char *mid, const char *b, long want_off,
    const char *what)
{
	struct pylit_error err;
	size_t len, end = 0;
	json_t *v;
	char *t;

	t = nest(a, n, mid, b, &len);
	v = pylit_parse(t, len, 0, &end, &err);
	if (want_off < 0) {
		unit_ok(v != NULL && end == len, unit_fmt("%s: read", what));
		if (v == NULL)
			printf("#   %zu: %s\n", err.offset, err.text);
	} else {
		unit_ok(v == NULL, unit_fmt("%s: refused", what));
		if (v == NULL) {
			unit_long((long)err.offset, want_off,
			    unit_fmt("%s: at the value too deep", what));
			unit_str(err.rule, "py-depth", unit_fmt("%s: rule",
			    what));
			unit_str(err.text, LIT "a value nested deeper than "
			    "2048 levels", unit_fmt("%s: message", what));
		}
	}
	json_decref(v);
	free(t);
}

/* -(((...1...))): a sign goes through parentheses, which count */
static void
signed_deep(size_t n, long want_off)
{
	struct pylit_error err;
	struct buf t = BUF_INIT;
	size_t i, end = 0;
	json_t *v;

	buf_addc(&t, '-');
	for (i = 0; i < n; i++)
		buf_addc(&t, '(');
	buf_addc(&t, '1');
	for (i = 0; i < n; i++)
		buf_addc(&t, ')');
	v = pylit_parse(t.data, t.len, 0, &end, &err);
	if (want_off < 0)
		unit_ok(json_integer_value(v) == -1 && end == t.len,
		    unit_fmt("-1 in %zu parentheses: read", n));
	else
		unit_ok(v == NULL && (long)err.offset == want_off &&
		    strcmp(err.rule, "py-depth") == 0,
		    unit_fmt("-1 in %zu parentheses: refused", n));
	json_decref(v);
	buf_free(&t);
}

static void
test_depth(void)
{
	struct pylit_call *calls;
	struct pylit_error err;
	size_t len, end, nc;
	json_t *v;
	char *t;
	int r;

	deep("[", 2048, "", "]", -1, "2048 empty lists nested");
	deep("[", 2049, "", "]", 2048, "2049 empty lists nested");
	deep("[", 2047, "1", "]", -1, "a number in 2047 lists");
	deep("[", 2048, "1", "]", 2048, "a number in 2048 lists");
	deep("{'a':", 2047, "1", "}", -1, "a number in 2047 dicts");
	deep("{'a':", 2048, "1", "}", 2047 * 5 + 1,
	    "a number in 2048 dicts: its key is too deep already");
	deep("{'a':", 2047, "{}", "}", -1, "2048 dicts, the last empty");
	deep("(", 2048, "", ")", -1, "2048 parentheses, the last a tuple");
	deep("(", 2049, "", ")", 2048, "2049 parentheses");
	deep("(", 2047, "1", ")", -1, "a number in 2047 parentheses");
	deep("(", 2048, "1", ")", 2048, "a number in 2048 parentheses");
	deep("{'a': [", 1024, "", "]}", -1, "dicts and lists 2048 deep");
	deep("{'a': [", 1024, "[]", "]}", 1024 * 7,
	    "dicts and lists 2049 deep");
	deep("[", 2047, "", "]", -1, "2047 lists");
	t = nest("[", 2047, "", "]", &len);
	t = realloc(t, len + 4);
	memcpy(t + len, ", 1", 4);
	v = pylit_parse(t, len + 3, 0, &end, &err);
	unit_ok(json_array_size(v) == 2 && end == len + 3,
	    "2047 lists nested in a tuple without parentheses: read");
	json_decref(v);
	free(t);
	t = nest("[", 2048, "", "]", &len);
	t = realloc(t, len + 4);
	memcpy(t + len, ", 1", 4);
	parse_bad(t, len + 3, 2047, "py-depth", LIT "a value nested deeper "
	    "than 2048 levels", "2048 lists nested in a tuple without "
	    "parentheses");
	free(t);
	signed_deep(2047, -1);
	signed_deep(2048, 2049);

	/* the calls form: the list and the parentheses are two levels */
	t = nest("[", 2046, "", "]", &len);
	{
		struct buf c = BUF_INIT;

		buf_adds(&c, "[f(a=");
		buf_add(&c, t, len);
		buf_adds(&c, ")]");
		r = pylit_calls(c.data, c.len, 0, &end, &calls, &nc, &err);
		unit_ok(r == 0 && nc == 1 && end == c.len,
		    "a call whose argument has 2046 lists nested");
		pylit_calls_free(calls, nc);
		buf_reset(&c);
		buf_adds(&c, "[f(a=[");
		buf_add(&c, t, len);
		buf_adds(&c, "])]");
		r = pylit_calls(c.data, c.len, 0, &end, &calls, &nc, &err);
		unit_ok(r < 0 && err.offset == 2051 &&
		    strcmp(err.rule, "py-depth") == 0,
		    "a call whose argument has 2047 lists nested: refused at "
		    "the 2047th");
		buf_free(&c);
	}
	free(t);
}

static void
test_large(void)
{
	struct pylit_error err;
	struct buf t = BUF_INIT;
	size_t i, end = 0, big = 10 * 1024 * 1024, ok;
	json_t *v, *e;
	const char *sv;
	char key[32];

	/* a 10 MB string, of plain text, escapes and joined pieces */
	buf_addc(&t, '\'');
	for (i = 0; i < big; i++)
		buf_addc(&t, (char)('a' + i % 26));
	buf_addc(&t, '\'');
	v = pylit_parse(t.data, t.len, 0, &end, &err);
	unit_ok(v != NULL && end == t.len && json_string_length(v) == big,
	    "a 10 MB string is read whole");
	sv = json_string_value(v);
	for (i = 0, ok = 1; sv != NULL && i < big; i++)
		ok &= sv[i] == (char)('a' + i % 26);
	unit_ok(sv != NULL && ok, "a 10 MB string: every byte");
	json_decref(v);

	buf_reset(&t);
	buf_adds(&t, "\"\"\"");
	for (i = 0; i < big / 8; i++)
		buf_adds(&t, "\\n\\x41\r\n");
	buf_adds(&t, "\"\"\" 'z'");
	v = pylit_parse(t.data, t.len, 0, &end, &err);
	unit_ok(v != NULL && end == t.len &&
	    json_string_length(v) == big / 8 * 3 + 1,
	    "a 10 MB string of escapes and CR LF, and a piece joined");
	sv = json_string_value(v);
	unit_ok(sv != NULL && memcmp(sv, "\nA\n\nA\n", 6) == 0 &&
	    sv[big / 8 * 3] == 'z', "a 10 MB string of escapes: its value");
	json_decref(v);

	/* 100,000 elements: a list, a dict, a set that keeps half */
	buf_reset(&t);
	buf_addc(&t, '[');
	for (i = 0; i < 100000; i++)
		buf_printf(&t, "%zu, ", i);
	buf_addc(&t, ']');
	v = pylit_parse(t.data, t.len, 0, &end, &err);
	unit_ok(v != NULL && end == t.len && json_array_size(v) == 100000,
	    "a list of 100,000 numbers");
	for (i = 0, ok = 1; v != NULL && i < 100000; i++)
		ok &= json_integer_value(json_array_get(v, i)) ==
		    (json_int_t)i;
	unit_ok(v != NULL && ok, "a list of 100,000 numbers: each in place");
	json_decref(v);

	buf_reset(&t);
	buf_addc(&t, '{');
	for (i = 0; i < 100000; i++)
		buf_printf(&t, "%zu: '%zu', ", i, i);
	buf_addc(&t, '}');
	v = pylit_parse(t.data, t.len, 0, &end, &err);
	unit_ok(v != NULL && end == t.len && json_object_size(v) == 100000,
	    "a dict of 100,000 int keys");
	snprintf(key, sizeof(key), "%d", 99999);
	e = json_object_get(v, key);
	unit_ok(json_is_string(e) && strcmp(json_string_value(e), key) == 0,
	    "a dict of 100,000 keys: the last one");
	json_decref(v);

	buf_reset(&t);
	buf_addc(&t, '{');
	for (i = 0; i < 100000; i++)
		buf_printf(&t, i % 2 ? "%zu.0, " : "%zu, ", i / 2);
	buf_addc(&t, '}');
	v = pylit_parse(t.data, t.len, 0, &end, &err);
	unit_ok(v != NULL && end == t.len && json_array_size(v) == 50000,
	    "a set of 100,000 numbers, each twice (1 and 1.0): 50,000 kept");
	unit_ok(v != NULL &&
	    json_integer_value(json_array_get(v, 49999)) == 49999,
	    "a set of 100,000: the first of each kept, in order");
	json_decref(v);

	buf_reset(&t);
	buf_adds(&t, "[f(");
	for (i = 0; i < 100000; i++)
		buf_printf(&t, "a%zu=%zu, ", i, i);
	buf_adds(&t, ")]");
	{
		struct pylit_call *calls;
		size_t nc;
		int r;

		r = pylit_calls(t.data, t.len, 0, &end, &calls, &nc, &err);
		unit_ok(r == 0 && nc == 1 &&
		    json_object_size(calls[0].args) == 100000,
		    "a call with 100,000 arguments");
		pylit_calls_free(calls, nc);
	}
	buf_free(&t);

	/* the longest integer Python writes, and one digit more */
	buf_addc(&t, '1');
	for (i = 1; i < PYLIT_MAX_DIGITS; i++)
		buf_addc(&t, '0');
	v = pylit_parse(t.data, t.len, 0, &end, &err);
	unit_ok(json_is_string(v) && json_string_length(v) == 4300,
	    "an integer of 4300 digits: a string of them");
	json_decref(v);
	buf_addc(&t, '0');
	v = pylit_parse(t.data, t.len, 0, &end, &err);
	unit_ok(v == NULL && err.offset == 0 && strcmp(err.text, LIT "an "
	    "integer of more than 4300 digits (Python's limit)") == 0,
	    "an integer of 4301 digits: refused");
	buf_reset(&t);
	buf_adds(&t, "0x");
	for (i = 0; i < 3571; i++)
		buf_addc(&t, 'f');
	v = pylit_parse(t.data, t.len, 0, &end, &err);
	unit_ok(json_is_string(v) && json_string_length(v) == 4300,
	    "0x and 3571 f: 4300 decimal digits");
	json_decref(v);
	buf_adds(&t, "ff");
	v = pylit_parse(t.data, t.len, 0, &end, &err);
	unit_ok(v == NULL && strcmp(err.rule, "py-type") == 0,
	    "0x and 3573 f: more than 4300 decimal digits, refused");
	buf_reset(&t);
	buf_adds(&t, "-0b1");
	for (i = 0; i < 10000000; i++)
		buf_addc(&t, '0');
	v = pylit_parse(t.data, t.len, 0, &end, &err);
	unit_ok(v == NULL && err.offset == 0 && strcmp(err.rule, "py-type") ==
	    0, "a binary integer of 10 million digits: refused unconverted");
	buf_free(&t);
}

/* Reads the calls at s, checking the names, the arguments and the end. */
static void
calls_ok(const char *s, size_t want_end, const char *want, const char *what)
{
	struct pylit_call *calls;
	struct pylit_error err;
	struct buf got = BUF_INIT;
	size_t nc, i, end = 0;
	char *d;

	if (pylit_calls(s, strlen(s), 0, &end, &calls, &nc, &err) < 0) {
		unit_ok(0, unit_fmt("%s: read", what));
		printf("#   %zu: %s\n", err.offset, err.text);
		return;
	}
	for (i = 0; i < nc; i++) {
		d = dump(calls[i].args);
		buf_printf(&got, "%s%.*s%s", i ? " " : "",
		    (int)calls[i].namelen, s + calls[i].name, d);
		free(d);
	}
	unit_str(buf_cstr(&got), want, unit_fmt("%s: the calls", what));
	unit_long((long)end, (long)want_end, unit_fmt("%s: ends at %zu", what,
	    want_end));
	pylit_calls_free(calls, nc);
	buf_free(&got);
}

static void
calls_bad(const char *s, size_t n, size_t want_off, const char *rule,
    const char *text, const char *what)
{
	struct pylit_call *calls = (struct pylit_call *)1;
	struct pylit_error err;
	size_t nc = 99, end = 12345;

	unit_long(pylit_calls(s, n, 0, &end, &calls, &nc, &err), -1,
	    unit_fmt("%s: refused", what));
	unit_ok(calls == NULL && nc == 0 && end == 12345,
	    unit_fmt("%s: no calls, no end", what));
	unit_long((long)err.offset, (long)want_off, unit_fmt("%s: at %zu",
	    what, want_off));
	unit_str(err.rule, rule, unit_fmt("%s: rule", what));
	unit_str(err.text, text, unit_fmt("%s: message", what));
}

#define CALLS_OK(s, end, want)	calls_ok(s, end, want, shown(s, strlen(s)))
#define CALLS_BAD(s, at, rule, text) \
	calls_bad(s, sizeof(s) - 1, at, rule, text, shown(s, sizeof(s) - 1))
#define CL	"invalid pythonic call: "

static void
test_calls(void)
{
	/* what vLLM's tests of its llama4_pythonic parser write */
	CALLS_OK("[get_weather(city='LA', metric='C')]", 36,
	    "get_weather{\"city\":\"LA\",\"metric\":\"C\"}");
	CALLS_OK("[register_user(name='Doe', age=9, address={'city': 'LA', "
	    "'state': 'CA'}, role=None, passed_test=True, aliases=['John', "
	    "'Johnny'])]", 130, "register_user{\"name\":\"Doe\",\"age\":9,"
	    "\"address\":{\"city\":\"LA\",\"state\":\"CA\"},\"role\":null,"
	    "\"passed_test\":true,\"aliases\":[\"John\",\"Johnny\"]}");
	CALLS_OK("[get_weather()]", 15, "get_weather{}");
	CALLS_OK("[do_something_cool(additional_data={})]", 39,
	    "do_something_cool{\"additional_data\":{}}");
	CALLS_OK("[do_something_cool(steps=[])]", 29,
	    "do_something_cool{\"steps\":[]}");
	CALLS_OK("[get_weather(city='Martha\\'s Vineyard', "
	    "metric='\\\"cool units\\\"')]", 65, "get_weather{\"city\":"
	    "\"Martha's Vineyard\",\"metric\":\"\\\"cool units\\\"\"}");
	CALLS_OK("[get_weather(city='LA',metric='C'),register_user(name='Doe',"
	    "age=9)]", 67, "get_weather{\"city\":\"LA\",\"metric\":\"C\"} "
	    "register_user{\"name\":\"Doe\",\"age\":9}");

	CALLS_OK("[]", 2, "");
	CALLS_OK("  [ ]  and then prose", 5, "");
	CALLS_OK("[f(a=1)] and then prose", 8, "f{\"a\":1}");
	CALLS_OK("[\n  f(\n    a=1,  # one\n  ),\n  g(b=-2.5,),\n]", 43,
	    "f{\"a\":1} g{\"b\":-2.5}");
	CALLS_OK("[a.b.c(x=1)]", 12, "a.b.c{\"x\":1}");
	CALLS_OK("[brave_search.call(query='x')]", 30,
	    "brave_search.call{\"query\":\"x\"}");
	CALLS_OK("[resolve-library-id(libraryName='react')]", 41,
	    "resolve-library-id{\"libraryName\":\"react\"}");
	CALLS_OK("[f (a = 1)]", 11, "f{\"a\":1}");
	CALLS_OK("[f(from='a', class=1, max-results=5)]", 37,
	    "f{\"from\":\"a\",\"class\":1,\"max-results\":5}");
	CALLS_OK("[f(a=(1, 2), b={1, 2}, c={1: 2}, d=0x10, e='''x''')]", 52,
	    "f{\"a\":[1,2],\"b\":[1,2],\"c\":{\"1\":2},\"d\":16,\"e\":\"x\"}");
	CALLS_OK("[f(s='a' 'b')]", 14, "f{\"s\":\"ab\"}");

	CALLS_BAD("", 0, SYN, CL "expected '[' to open a list of calls, found "
	    "the end of the text");
	CALLS_BAD("f(a=1)", 0, SYN, CL "expected '[' to open a list of calls, "
	    "found 'f'");
	CALLS_BAD("(f(a=1))", 0, SYN, CL "expected '[' to open a list of "
	    "calls, found '('");
	CALLS_BAD("[1]", 1, SYN, CL "expected a call name(key=value, ...), "
	    "found '1'");
	CALLS_BAD("[f(a=1), 'x']", 9, SYN, CL "expected a call name(key=value, "
	    "...), found '''");
	CALLS_BAD("[f]", 2, SYN, CL "expected '(' after the name of the "
	    "function, found ']'");
	CALLS_BAD("[f.(a=1)]", 2, SYN, CL "expected '(' after the name of the "
	    "function, found '.'");
	CALLS_BAD("[f(1)]", 3, SYN, CL "a positional argument; write each as "
	    "name=value");
	CALLS_BAD("[f(a=1, 'x')]", 8, SYN, CL "a positional argument; write "
	    "each as name=value");
	CALLS_BAD("[f(x)]", 3, SYN, CL "a positional argument; write each as "
	    "name=value");
	CALLS_BAD("[f(a==1)]", 3, SYN, CL "a positional argument; write each "
	    "as name=value");
	CALLS_BAD("[f(*a)]", 3, SYN, CL "an unpacked argument (* or **); "
	    "write each as name=value");
	CALLS_BAD("[f(**k)]", 3, SYN, CL "an unpacked argument (* or **); "
	    "write each as name=value");
	CALLS_BAD("[f(,)]", 3, SYN, CL "expected an argument name=value, "
	    "found ','");
	CALLS_BAD("[f(a=1 b=2)]", 7, SYN, CL "expected ',' or ')' after an "
	    "argument, found 'b'");
	CALLS_BAD("[f(a=1) g(b=2)]", 8, SYN, CL "expected ',' or ']' after a "
	    "call, found 'g'");
	CALLS_BAD("[f(a=1)", 7, SYN, CL "expected ',' or ']' after a call, "
	    "found the end of the text");
	CALLS_BAD("[f(a=", 5, SYN, LIT "expected a value, found the end of "
	    "the text");
	CALLS_BAD("[f(a=x)]", 5, SYN, LIT "the name 'x' is not a literal");
	CALLS_BAD("[f(a=1+2)]", 6, SYN, LIT "the operator '+' is not part of "
	    "a literal");
	CALLS_BAD("[f(a=1, b=2, a=3)]", 13, "duplicate-key", "duplicate "
	    "keyword argument \"a\", first at line 1, column 4");
	CALLS_BAD("[f(a=1),\n g(x=1,\n    x=2)]", 21, "duplicate-key",
	    "duplicate keyword argument \"x\", first at line 2, column 4");
	CALLS_BAD("[f(a=\xff)]", 5, "utf8", "invalid UTF-8: byte 0xff at byte "
	    "offset 5");
	CALLS_BAD("[f(a=1)\0]", 7, SYN, CL "NUL byte");
	CALLS_BAD("[f(a={'k': 1, 'k': 2})]", 14, "duplicate-key",
	    "duplicate key \"k\", first at line 1, column 7");
}

/* Scans s fed in pieces of chunk bytes; *off is where the scan stopped. */
static int
scan(const char *s, size_t n, size_t chunk, size_t *off)
{
	struct pylit_scan sc;
	size_t have = 0;
	int r = PYLIT_MORE;

	pylit_scan_init(&sc, 0);
	while (r == PYLIT_MORE && have < n) {
		have = have + chunk < n ? have + chunk : n;
		r = pylit_scan(&sc, s, have);
		if (sc.off > have)
			return -1;
	}
	*off = sc.off;
	return r;
}

/*
 * Scans s whole, byte by byte and in pieces of 3, wanting the same
 * verdict each time, and where PYLIT_DONE the same place.
 */
static void
scan_is(const char *s, size_t n, int want, size_t want_off, const char *what)
{
	static const size_t chunks[] = { 1, 3, (size_t)-1 / 2 };
	size_t i, off;
	int r;

	for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		r = scan(s, n, chunks[i], &off);
		unit_ok(r == want && (want == PYLIT_MORE || off == want_off),
		    unit_fmt("%s: %s at %zu (read %s)", what,
		    want == PYLIT_DONE ? "done" : "more", want_off,
		    chunks[i] == 1 ? "a byte at a time" : chunks[i] == 3 ?
		    "3 bytes at a time" : "whole"));
		if (r != want || (want == PYLIT_DONE && off != want_off))
			printf("#   got %d at %zu\n", r, off);
	}
}

#define SCAN(s, want, off) \
	scan_is(s, sizeof(s) - 1, want, off, shown(s, sizeof(s) - 1))
#define SCANW(s, want, off, what) scan_is(s, sizeof(s) - 1, want, off, what)

static void
test_scan(void)
{
	struct pylit_scan sc;
	struct pylit_call *calls;
	struct pylit_error err;
	size_t n, end, nc;
	char *t;
	int r;

	SCAN("[f(a=1)]", PYLIT_DONE, 8);
	SCAN("[f(a=1)] and prose", PYLIT_DONE, 8);
	SCAN("  \n# c\n[]", PYLIT_DONE, 9);
	SCAN("[f(a=1)", PYLIT_MORE, 0);
	SCAN("[f(a=1), g(b=[1, {2: (3,)}])]", PYLIT_DONE, 29);
	SCAN("[f(a=']')]", PYLIT_DONE, 10);
	SCAN("[f(a=\"]\")]", PYLIT_DONE, 10);
	SCAN("[f(a='\\']')]", PYLIT_DONE, 12);
	SCAN("[f(a=r'\\']')]", PYLIT_DONE, 13);
	SCAN("[f(a='\\\\')]", PYLIT_DONE, 11);
	SCAN("[f(a='''x]\n'''' ]')]", PYLIT_DONE, 20);
	SCAN("[f(a=\"\"\"\"\"\")]", PYLIT_DONE, 13);
	SCAN("[f(a='')]", PYLIT_DONE, 9);
	SCAN("[f(a='' ']')]", PYLIT_DONE, 13);
	SCAN("[f(a=1)  # ]\n]", PYLIT_DONE, 14);
	SCAN("[f(a=1)  # ]\r]", PYLIT_DONE, 14);
	SCAN("[f(a='\\\r\n]')]", PYLIT_DONE, 13);
	SCAN("[f(a='''", PYLIT_MORE, 0);
	SCAN("[f(a='", PYLIT_MORE, 0);
	SCAN("[f(a=''", PYLIT_MORE, 0);
	SCAN("[f(a='''x''", PYLIT_MORE, 0);
	SCAN("[f(a=1  # ]", PYLIT_MORE, 0);

	/* where no more text could make it right: done, the parser says */
	SCANW("[f(a=1))", PYLIT_DONE, 8, "a ')' closes a '['");
	SCANW("x[f(a=1)]", PYLIT_DONE, 1, "no bracket first");
	SCANW("]", PYLIT_DONE, 1, "a closing bracket first");
	SCANW("[f(a='x\n')]", PYLIT_DONE, 8, "a newline in a one-line string");
	SCANW("[f(a=1)\0]", PYLIT_DONE, 8, "a NUL byte");
	t = nest("[", 2049, "", "]", &n);
	scan_is(t, n, PYLIT_DONE, 2049, "the 2049th bracket");
	free(t);
	t = nest("[", 2048, "", "]", &n);
	scan_is(t, n, PYLIT_DONE, n, "2048 brackets");
	free(t);

	/* the scan waits at a quote that may open three */
	pylit_scan_init(&sc, 0);
	unit_long(pylit_scan(&sc, "[f(a=''", 7), PYLIT_MORE,
	    "[f(a='': more");
	unit_long((long)sc.off, 5, "[f(a='': it waits at the first quote");
	unit_long(pylit_scan(&sc, "[f(a='')]", 9), PYLIT_DONE,
	    "[f(a='')]: done");
	unit_long((long)sc.off, 9, "[f(a='')]: at the end");
	unit_long(pylit_scan(&sc, "[f(a='')]", 9), PYLIT_DONE,
	    "done stays done");

	/* where the scan says, the parser agrees */
	pylit_scan_init(&sc, 0);
	r = pylit_scan(&sc, "[f(a=1)) x", 10);
	unit_ok(r == PYLIT_DONE && pylit_calls("[f(a=1)) x", sc.off, 0, &end,
	    &calls, &nc, &err) < 0 && err.offset == 7,
	    "a ')' for a '[': the parser's error is at it");
	pylit_scan_init(&sc, 3);
	r = pylit_scan(&sc, "xx [g(b='])')] y", 16);
	unit_ok(r == PYLIT_DONE && sc.off == 14 && pylit_calls("xx [g(b='])')]"
	    " y", sc.off, 3, &end, &calls, &nc, &err) == 0 && end == 14 &&
	    nc == 1, "a scan from an offset, and the parser reads to it");
	pylit_calls_free(calls, nc);
}

static void
test_skip(void)
{
	unit_long((long)pylit_skip("  # c\n \\\n\tx", 11, 0), 10,
	    "pylit_skip: blanks, a comment, a continuation");
	unit_long((long)pylit_skip("\r\n\f x", 5, 0), 4,
	    "pylit_skip: CR LF and form feed");
	unit_long((long)pylit_skip("  # \xff\nx", 7, 0), 2,
	    "pylit_skip: stops at a comment that is not UTF-8");
	unit_long((long)pylit_skip("  # a\0\nx", 8, 0), 2,
	    "pylit_skip: stops at a comment with a NUL byte");
	unit_long((long)pylit_skip("ab", 2, 5), 2,
	    "pylit_skip: an offset past the end is the end");
	unit_long((long)pylit_skip("\\x", 2, 0), 0,
	    "pylit_skip: a backslash before no newline stays");
}

/*
 * The oracle. Literals go to Python in a file, each as "LENGTH\n"
 * and its bytes and "\n"; the verdicts come back one JSON line each.
 */

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static unsigned
rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static const char *
pick(const char *const *v, size_t n)
{
	return v[rnd((unsigned)n)];
}

#define PICK(v)	pick(v, sizeof(v) / sizeof(v[0]))

/* Blanks between tokens: inside brackets (nl) newlines and comments too. */
static void
gen_blank(struct buf *b, int nl)
{
	static const char *const any[] = { "", "", "", " ", "  ", "\t", "\f",
	    "\\\n" };
	static const char *const inner[] = { "\n", "\r\n", "\r", " # c\n",
	    "\n  ", " #[]'\"\n" };

	if (nl && rnd(4) == 0)
		buf_adds(b, PICK(inner));
	else
		buf_adds(b, PICK(any));
}

static void
gen_int(struct buf *b)
{
	static const char *const fixed[] = { "0", "00", "0_0", "7",
	    "9223372036854775807", "9223372036854775808",
	    "18446744073709551615", "18446744073709551616", "0x0", "0o0",
	    "0b0", "0x7FFF_FFFF_FFFF_FFFF", "0x8000000000000000", "0b1_0_1",
	    "0o7_7_7", "1_000_000" };
	unsigned i, k;

	switch (rnd(8)) {
	case 0:
		buf_adds(b, PICK(fixed));
		break;
	case 1:
		buf_printf(b, "%u", rnd(1000000));
		break;
	case 2:
		buf_printf(b, rnd(2) ? "0x%x" : "0X%X", rnd(100000));
		break;
	case 3:
		buf_printf(b, "0%c%o", rnd(2) ? 'o' : 'O', rnd(100000));
		break;
	case 4:
		buf_adds(b, rnd(2) ? "0b1" : "0B1");
		for (i = rnd(70); i > 0; i--)
			buf_adds(b, rnd(3) == 0 ? "_1" : rnd(2) ? "0" : "1");
		break;
	case 5:		/* beyond 64 bits, or near */
		buf_printf(b, "%u", 1 + rnd(9));
		for (i = 15 + rnd(30); i > 0; i--) {
			buf_printf(b, "%u", rnd(10));
			if (rnd(8) == 0)
				buf_addc(b, '_');
		}
		buf_printf(b, "%u", rnd(10));
		break;
	case 6:
		buf_adds(b, "0x");
		for (i = 14 + rnd(20); i > 0; i--)
			buf_addc(b, "0123456789abcdefABCDEF"[rnd(22)]);
		break;
	default:
		k = rnd(4);
		buf_printf(b, "%u", 1 + rnd(9));
		for (i = 0; i < k; i++)
			buf_printf(b, "_%03u", rnd(1000));
		break;
	}
}

static void
gen_float(struct buf *b)
{
	static const char *const fixed[] = { "1.5", ".5", "5.", "1e5",
	    "1E-3", "1.e2", "1_0.2_5", "1e1_0", "09.5", "09e1", "00.0",
	    "0.0", "0.1", "1e-400", "4.9e-324", "2.2250738585072014e-308",
	    "1.7976931348623157e308", "1e16", "1e15", "1e-5", "1e-4",
	    "123456789012345678901234567890.5", "0.000001", "1e22", "1e21",
	    "9007199254740993.0", "0.30000000000000004", "1_000.000_1e-1_0" };
	union {
		double d;
		uint64_t u;
	} x;
	char t[40];

	switch (rnd(3)) {
	case 0:
		buf_adds(b, PICK(fixed));
		break;
	case 1:
		buf_printf(b, "%u.%u", rnd(1000), rnd(1000));
		if (rnd(2))
			buf_printf(b, "e%s%u", rnd(2) ? "-" : "+", rnd(30));
		break;
	default:
		do
			x.u = ((uint64_t)rnd(1u << 31) << 33) ^
			    ((uint64_t)rnd(1u << 31) << 2) ^ rnd(4);
		while (!isfinite(x.d));
		snprintf(t, sizeof(t), "%.17g", fabs(x.d));
		buf_adds(b, t);
		if (strpbrk(t, ".e") == NULL)
			buf_adds(b, ".0");
		break;
	}
}

/* A string literal: any quotes, prefixes, escapes and characters. */
static void
gen_string(struct buf *b, int nl)
{
	static const char *const quotes[] = { "'", "\"", "'''", "\"\"\"" };
	static const char *const plain[] = { "a", "Z", " ", "x y",
	    "\xc3\xa9", "\xe4\xb8\xad", "\xf0\x9f\x98\x80", "\t", "#", "[",
	    "]", "(", ")", "{", "}", ",", ":", "=", "\x01", "\x7f", "0",
	    "\xc3\x9f", "'", "\"" };
	static const char *const escapes[] = { "\\n", "\\t", "\\\\", "\\'",
	    "\\\"", "\\a", "\\b", "\\f", "\\v", "\\r", "\\0", "\\101",
	    "\\777", "\\1234", "\\x41", "\\xe9", "\\xFF", "\\x00", "\\u00e9",
	    "\\u4e2d", "\\U0001F600", "\\U00000041", "\\ud83d\\ude00",
	    "\\uD83D\\uDE00", "\\d", "\\q", "\\8", "\\ ", "\\\n", "\\\r\n",
	    "\\\xc3\xa9" };
	static const char *const raw[] = { "a", " ", "\\d", "\\n", "\\\\",
	    "\\\n", "\xc3\xa9", "\\'", "\\\"", "x" };
	const char *q = PICK(quotes), *piece;
	int triple = strlen(q) == 3, israw = rnd(4) == 0;
	unsigned i;

	buf_adds(b, israw ? (rnd(2) ? "r" : "R") : rnd(5) == 0 ?
	    (rnd(2) ? "u" : "U") : "");
	buf_adds(b, q);
	for (i = rnd(8); i > 0; i--) {
		if (israw)
			piece = PICK(raw);
		else if (triple && rnd(6) == 0)
			piece = rnd(2) ? "\n" : "\r\n";
		else
			piece = rnd(3) == 0 ? PICK(escapes) : PICK(plain);
		if (piece[0] == q[0] && piece[1] == '\0')
			buf_addc(b, '\\');	/* a quote of ours, escaped */
		buf_adds(b, piece);
	}
	buf_adds(b, q);
	if (rnd(5) == 0) {		/* another piece, joined */
		buf_adds(b, rnd(2) ? " " : "\\\n");
		gen_string(b, nl);
	}
}

static void	gen_value(struct buf *, int, int);

/* A value Python can hash: a key or a set's element. */
static void
gen_hashable(struct buf *b, int depth)
{
	unsigned i, n;

	switch (rnd(depth < 3 ? 8 : 7)) {
	case 0:
		buf_adds(b, rnd(3) == 0 ? "None" : rnd(2) ? "True" : "False");
		break;
	case 1:
	case 2:
		if (rnd(4) == 0)
			buf_adds(b, rnd(2) ? "-" : "+");
		if (rnd(2))
			gen_int(b);
		else
			gen_float(b);
		break;
	case 7:
		buf_addc(b, '(');
		for (i = 0, n = rnd(3); i < n; i++) {
			gen_hashable(b, depth + 1);
			buf_adds(b, ", ");
		}
		buf_addc(b, ')');
		break;
	default:
		gen_string(b, 1);
		break;
	}
}

/* A value at nesting level depth; nl: newlines are blanks here. */
static void
gen_value(struct buf *b, int depth, int nl)
{
	static const char *const open[] = { "[", "(", "{", "{" };
	static const char *const close[] = { "]", ")", "}", "}" };
	unsigned i, n, k = rnd(depth < 5 ? 9 : 4);

	if (k < 4) {
		gen_hashable(b, depth);
		return;
	}
	if (k == 4) {			/* parentheses around a value */
		buf_addc(b, '(');
		gen_blank(b, 1);
		gen_value(b, depth + 1, 1);
		gen_blank(b, 1);
		buf_addc(b, ')');
		return;
	}
	k -= 5;
	n = rnd(5);
	if (k == 2 && n == 0)
		n = 1;			/* {} is a dict; the set has one */
	buf_adds(b, open[k]);
	gen_blank(b, 1);
	for (i = 0; i < n; i++) {
		if (k == 2)
			gen_hashable(b, depth + 1);
		else if (k == 3) {
			gen_hashable(b, depth + 1);
			gen_blank(b, 1);
			buf_addc(b, ':');
			gen_blank(b, 1);
			gen_value(b, depth + 1, 1);
		} else
			gen_value(b, depth + 1, 1);
		gen_blank(b, 1);
		if (i + 1 < n || rnd(3) == 0 || (k == 1 && n == 1))
			buf_addc(b, ',');
		gen_blank(b, 1);
	}
	buf_adds(b, close[k]);
}

/* The literals written by hand, for the oracle as well. */
static const char *const hand[] = {
	"None", "True", "False", "0", "-0", "+7", "- 7", "-(7)", "(-7)",
	"1_000", "0x_ff", "0o17", "0b101", "0XAB", "00", "0_0",
	"9223372036854775807", "-9223372036854775808", "9223372036854775808",
	"-9223372036854775809", "0xFFFFFFFFFFFFFFFFFF", "1.5", ".5", "5.",
	"1e5", "1E-3", "1_0.2_5", "1e1_0", "09.5", "09e1", "-0.0", "1e-400",
	"4.9e-324", "2.4e-324", "1.7976931348623157e308", "0.1",
	"'a'", "\"a\"", "''", "'''a\nb'''", "'''a\r\nb'''", "'''a\rb'''",
	"'a' 'b'", "'a' \"b\" '''c''' u'd' r'\\e'", "'a'\\\n'b'", "u'x'",
	"r'\\n'", "R'\\''", "r'\\\\'", "r'a\\\nb'", "'\\\\ \\' \\\" \\a'",
	"'\\b\\f\\n\\r\\t\\v'", "'\\0'", "'\\101'", "'\\777'", "'\\1234'",
	"'\\x41\\xe9'", "'\\u00e9'", "'\\U0001F600'", "'\\ud83d\\ude00'",
	"'\\ud83d' '\\ude00'", "'\\q\\d\\8'", "'a\\\nb'", "'a\\\r\nb'",
	"'\xc3\xa9\xf0\x9f\x98\x80'", "'\x01\x7f'", "[]", "[1, 2,]",
	"[\n1,\n2\n]", "[1, # c\n 2]", "[1, \\\n 2]", "()", "(1,)", "(1, 2)",
	"((1,),)", "[()]", "(1)", "((1))", "{}", "{1, 2}", "{1, True, 1.0}",
	"{True, 1}", "{1.0, 1}", "{0, False, -0.0}", "{'a', 'a', 'b'}",
	"{(1, 2), (1, 2)}", "set()", "{'a': set()}", "{'a': None, 'b': True}",
	"{1: 'a'}", "{1.5: 0}", "{100.0: 0}", "{1e15: 0}", "{1e16: 0}",
	"{1e22: 0}", "{1e-4: 0}", "{1e-5: 0}", "{0.1: 0}", "{-0.0: 0}",
	"{5e-324: 0}", "{True: 0, False: 1, None: 2}", "{2.5e-7: 0}",
	"{123456789012345678901234567890: 0}", "{'': 0}", "{1: 0, 2.0: 1}",
	"{'a': 1, 'a': 2}", "{1: 0, True: 1}", "{1: 0, 1.0: 1}",
	"{0.0: 0, -0.0: 1}", "{1: 0, '1': 1}", "{None: 0, 'null': 1}",
	"{(1, 2): 3}", "{[1]: 2}", "{{1}: 2}", "{(1, [2])}", "{1, [2]}",
	"", "]", "[1 2]", "[1,", "(1 2)", "{1: 2, 3}", "{1, 3: 4}", "{**a}",
	"[*a]", "-", "-'a'", "--1", "-(-1)", "-(1,)", "-()", "-None", "-True",
	"foo", "true", "null", "foo(1)", "set([1])", "float('inf')", "b'x'",
	"rb'x'", "f'x'", "rf'x'", "ur'x'", "...", "'abc", "'a\nb'", "r'\\'",
	"'''abc''", "'\\x4'", "'\\u12'", "'\\U00110000'", "'\\ud800'",
	"'\\udc00'", "'\\ud800\\ud800'", "01", "1_", "1__0", "1_.5", "1._5",
	"1e", "1abc", "0x", "0x_", "0x1_", "0xg", "0o8", "0b2", "1j", "1+2j",
	"-1.5-2j", "(1)+2j", "1e400", "-1e400", "1 + 2", "'a' * 3", "2**3",
	"[1 - 2]", "[1][0]", "'a'.upper()", "(1)(2)", "\xff", "'a\xff" "b'",
	"[1 # \xff\n]", "\xc2\xa0" "1", "\x01", "~1", "1 # c", "# c\n1",
	"\\\n1", "\f1", "[\r\n1,\r2]",
	"{'a': [1, {'c': (None,)}],}", "[[[[]]]]", "{1: 2,}", "[1,]",
	"1, 2", "1,", "(1, 2), 3", "'a', 'b'", "1, 2,  # c", "{'a\\0': 1}",
};

/* Whether ours (pylit's value) is want (the oracle's), numbers exactly. */
static int
same(const json_t *ours, const json_t *want)
{
	const json_t *set = json_is_object(want) &&
	    json_object_size(want) == 1 ? json_object_get(want, SET) : NULL;
	const char *k;
	void *a, *b;
	size_t i, j, n;
	char *used;
	double x, y;
	int ok;

	if (set != NULL) {		/* a bag: the orders differ */
		n = json_array_size(set);
		if (!json_is_array(ours) || json_array_size(ours) != n)
			return 0;
		used = calloc(n + 1, 1);
		for (i = 0, ok = 1; ok && i < n; i++) {
			for (j = 0; j < n; j++)
				if (!used[j] && same(json_array_get(ours, j),
				    json_array_get(set, i)))
					break;
			if (j == n)
				ok = 0;
			else
				used[j] = 1;
		}
		free(used);
		return ok;
	}
	if (json_typeof(ours) != json_typeof(want))
		return 0;
	switch (json_typeof(want)) {
	case JSON_OBJECT:
		if (json_object_size(ours) != json_object_size(want))
			return 0;
		for (a = json_object_iter((json_t *)ours),
		    b = json_object_iter((json_t *)want);
		    a != NULL && b != NULL;
		    a = json_object_iter_next((json_t *)ours, a),
		    b = json_object_iter_next((json_t *)want, b)) {
			k = json_object_iter_key(a);
			if (json_object_iter_key_len(a) !=
			    json_object_iter_key_len(b) || memcmp(k,
			    json_object_iter_key(b),
			    json_object_iter_key_len(a)) != 0 ||
			    !same(json_object_iter_value(a),
			    json_object_iter_value(b)))
				return 0;
		}
		return 1;
	case JSON_ARRAY:
		n = json_array_size(want);
		if (json_array_size(ours) != n)
			return 0;
		for (i = 0; i < n; i++)
			if (!same(json_array_get(ours, i),
			    json_array_get(want, i)))
				return 0;
		return 1;
	case JSON_STRING:
		return json_string_length(ours) == json_string_length(want) &&
		    memcmp(json_string_value(ours), json_string_value(want),
		    json_string_length(want)) == 0;
	case JSON_INTEGER:
		return json_integer_value(ours) == json_integer_value(want);
	case JSON_REAL:
		x = json_real_value(ours);
		y = json_real_value(want);
		return x == y && signbit(x) == signbit(y);
	default:
		return 1;
	}
}

/* pylit's verdict on s against Python's line: 1 when they agree. */
static int
agree(const char *s, size_t n, const char *line, size_t i)
{
	struct pylit_error err;
	json_t *o, *want, *v;
	size_t end = 0;
	int ok;
	char *d;

	o = json_loads(line, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
	want = json_object_get(o, "ok");
	v = pylit_parse(s, n, 0, &end, &err);
	/* read whole: only blanks and comments may follow */
	if (v != NULL && pylit_skip(s, n, end) != n) {
		json_decref(v);
		v = NULL;
		snprintf(err.text, sizeof(err.text), "text after the end, %zu",
		    end);
	}
	if (o == NULL)
		ok = 0;
	else if (want == NULL)
		ok = v == NULL;
	else
		ok = v != NULL && same(v, want);
	if (!ok) {
		printf("# literal %zu disagrees with Python:\n", i);
		unit_show("literal:", s, n, 0);
		printf("#   python: %s", line);
		d = v != NULL ? dump(v) : NULL;
		printf("#   pylit:  %s\n", d != NULL ? d : err.text);
		free(d);
	}
	json_decref(v);
	json_decref(o);
	return ok;
}

static void
test_oracle(void)
{
	/* no NUL byte: pylit keeps one in a string, where Python refuses */
	static const char spoil[] = "[](){},:'\"\\ \n#-+.1xe_";
	struct buf all = BUF_INIT, one = BUF_INIT;
	size_t *offs, *lens, nlit, i, at, bad = 0, lines = 0, okays = 0;
	char path[sizeof(UNIT_TMPNAME)], cmd[256], *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *fp;

	nlit = sizeof(hand) / sizeof(hand[0]) + 600;
	offs = calloc(nlit, sizeof(*offs));
	lens = calloc(nlit, sizeof(*lens));
	for (i = 0; i < nlit; i++) {
		buf_reset(&one);
		if (i < sizeof(hand) / sizeof(hand[0]))
			buf_adds(&one, hand[i]);
		else {
			if (rnd(3) == 0)
				buf_adds(&one, rnd(2) ? "-" : "+");
			gen_value(&one, 1, 0);
			/* a third of them spoilt a little: a byte out or in */
			if (i % 3 == 0 && one.len > 0) {
				at = rnd((unsigned)one.len);
				if (rnd(2))
					memmove(one.data + at,
					    one.data + at + 1,
					    one.len-- - at - 1);
				else {
					buf_addc(&one, ' ');
					memmove(one.data + at + 1,
					    one.data + at, one.len - at - 1);
					one.data[at] = spoil[rnd(sizeof(spoil) -
					    1)];
				}
			}
		}
		buf_printf(&all, "%zu\n", one.len);
		offs[i] = all.len;
		lens[i] = one.len;
		buf_add(&all, one.data, one.len);
		buf_addc(&all, '\n');
	}
	unit_tmpfile(path, all.data, all.len);
	snprintf(cmd, sizeof(cmd), "python3 %s %s", ORACLE, path);
	fflush(stdout);
	if ((fp = popen(cmd, "r")) == NULL)
		unit_bail("popen");
	while ((len = getline(&line, &cap, fp)) != -1) {
		if (lines < nlit) {
			bad += !agree(all.data + offs[lines], lens[lines],
			    line, lines);
			okays += strncmp(line, "{\"ok\"", 5) == 0;
		}
		lines++;
	}
	unit_long(pclose(fp), 0, "python3 runs the oracle and exits 0");
	unlink(path);
	unit_long((long)lines, (long)nlit, "python3 gives a verdict on each "
	    "literal");
	unit_long((long)bad, 0, unit_fmt("pylit agrees with ast.literal_eval "
	    "and json.dumps on %zu literals (%zu read, %zu refused)", nlit,
	    okays, lines - okays));
	unit_ok(okays > nlit / 3 && lines - okays > nlit / 10,
	    "the oracle's literals are both read and refused");
	free(line);
	free(offs);
	free(lens);
	buf_free(&all);
	buf_free(&one);
}

int
main(void)
{
	test_scalars();
	test_strings();
	test_containers();
	test_keys();
	test_errors();
	test_depth();
	test_large();
	test_calls();
	test_scan();
	test_skip();
	test_oracle();
	buf_free(&label);
	return unit_done();
}
