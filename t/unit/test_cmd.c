/*
 * Unit tests of lib/num's whole numbers, seconds and hexadecimal digits,
 * lib/cmd's choice arguments, and lib/src.
 */
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "base/num.h"
#include "base/src.h"
#include "unit.h"

static void
whole(void)
{
	const char *err;

	unit_long((long)num_whole("42", 1, 100, &err), 42, "42 in 1..100");
	unit_ok(err == NULL, "no error for 42");
	num_whole("0", 1, 100, &err);
	unit_str(err, "too small", "0 below 1");
	num_whole("101", 1, 100, &err);
	unit_str(err, "too large", "101 above 100");
	num_whole("99999999999999999999999", 1, 100, &err);
	unit_str(err, "too large", "beyond long long");
	num_whole("-1", -5, 5, &err);
	unit_str(err, "invalid", "a sign is refused");
	num_whole(" 1", 0, 5, &err);
	unit_str(err, "invalid", "white space is refused");
	num_whole("1x", 0, 5, &err);
	unit_str(err, "invalid", "text after the digits");
	num_whole("", 0, 5, &err);
	unit_str(err, "invalid", "nothing is refused");
}

static void
seconds(void)
{
	double v = -1;

	unit_ok(num_seconds("2", 10, &v) == 0 && v == 2.0, "2 seconds");
	unit_ok(num_seconds("0.5", 10, &v) == 0 && v == 0.5, "half");
	unit_ok(num_seconds("5.", 10, &v) == 0 && v == 5.0, "5.");
	unit_ok(num_seconds(".", 10, &v) == -1, "a point alone");
	unit_ok(num_seconds("1.2.3", 10, &v) == -1, "two points");
	unit_ok(num_seconds("11", 10, &v) == -1, "above the maximum");
	unit_ok(num_seconds("1e3", 10000, &v) == -1, "no exponent");
	unit_ok(num_seconds("-1", 10, &v) == -1, "no sign");
}

static void
hexval(void)
{
	static const char digits[] = "0123456789abcdefABCDEF";
	static const int values[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
	    12, 13, 14, 15, 10, 11, 12, 13, 14, 15 };
	size_t i;
	int ok = 1;

	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		ok &= num_hexval(digits[i]) == values[i];
	unit_ok(ok, "every hexadecimal digit, either case");
	unit_long(num_hexval('g'), -1, "g is no digit");
	unit_long(num_hexval('G'), -1, "G is no digit");
	unit_long(num_hexval('/'), -1, "the byte before 0");
	unit_long(num_hexval(':'), -1, "the byte after 9");
	unit_long(num_hexval('`'), -1, "the byte before a");
	unit_long(num_hexval('@'), -1, "the byte before A");
	unit_long(num_hexval(0), -1, "NUL");
	unit_long(num_hexval(0xC1), -1, "a byte above ASCII");
}

static void
choice(void)
{
	static const struct cmd_choice one[] = { { "auto", 7 }, { NULL, 0 } };
	static const struct cmd_choice two[] = { { "query", 1 },
	    { "response", 2 }, { NULL, 0 } };
	static const struct cmd_choice three[] = { { "none", 0 },
	    { "report", 3 }, { "json", 1 }, { NULL, 0 } };
	struct buf b = BUF_INIT;

	unit_long(cmd_choice_find("none", three), 0, "the first name");
	unit_long(cmd_choice_find("report", three), 3, "a name's own value");
	unit_long(cmd_choice_find("json", three), 1, "the last name");
	unit_long(cmd_choice_find("JSON", three), -1, "case counts");
	unit_long(cmd_choice_find("", three), -1, "an empty argument");
	unit_long(cmd_choice_find("non", three), -1, "no prefix of a name");
	unit_long(cmd_choice_find("nonee", three), -1, "no name and more");
	cmd_choice_why(&b, "-o", "xml", three);
	unit_str(buf_cstr(&b), "-o must be none, report or json, not \"xml\"",
	    "three names: the last after \"or\"");
	buf_reset(&b);
	cmd_choice_why(&b, "-t", "", two);
	unit_str(buf_cstr(&b), "-t must be query or response, not \"\"",
	    "two names");
	buf_reset(&b);
	cmd_choice_why(&b, "--mode", "x", one);
	unit_str(buf_cstr(&b), "--mode must be auto, not \"x\"", "one name");
	buf_free(&b);
}

static void
source(void)
{
	static const char text[] = "\xEF\xBB\xBF" "ab\n\xC3\xA9x\n";
	struct src s;
	struct diag_loc loc = { NULL, 0, 0, "/p" };

	unit_long((long)utf8_bom(text, 3), 3, "a BOM");
	unit_long((long)utf8_bom(text, 2), 0, "half a BOM is none");
	src_init(&s, "f.json", text, sizeof(text) - 1);
	unit_long((long)s.start, 3, "the text starts past the BOM");
	src_loc(&s, 3, &loc);
	unit_ok(loc.line == 1 && loc.col == 1, "the first character: 1:1");
	unit_str(loc.file, "f.json", "the file");
	unit_str(loc.path, "/p", "the path is left alone");
	src_loc(&s, 8, &loc);
	unit_ok(loc.line == 2 && loc.col == 2, "after a two-byte character");
	src_loc(&s, 4, &loc);
	unit_ok(loc.line == 1 && loc.col == 2, "backwards");
	src_loc(&s, 999, &loc);
	unit_ok(loc.line == 3 && loc.col == 1, "past the end: the end");
	src_init(&s, "<stdin>", "x\ny", 3);
	src_setline(&s, 10);
	src_loc(&s, 2, &loc);
	unit_ok(loc.line == 11 && loc.col == 1, "a record from line 10");
	src_init(&s, "<stdin>", "\xEF\xBB\xBFx", 4);
	src_setrecord(&s, 1);
	unit_long((long)s.start, 3, "the first record: its BOM is skipped");
	src_init(&s, "<stdin>", "\xEF\xBB\xBFx", 4);
	src_setrecord(&s, 2);
	src_loc(&s, 3, &loc);
	unit_ok(s.start == 0 && loc.line == 2 && loc.col == 2,
	    "a later record: a BOM is text and takes a column");
}

int
main(void)
{
	whole();
	seconds();
	hexval();
	choice();
	source();
	return unit_done();
}
