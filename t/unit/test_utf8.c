/* Unit tests of lib/utf8: decode, encode, validate, count, find positions. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/utf8.h"
#include "unit.h"

struct good {
	const char	*bytes;
	size_t		 len;
	uint32_t	 cp;
	const char	*what;
};

static const struct good goods[] = {
	{ "\0", 1, 0x0, "U+0000" },
	{ "A", 1, 0x41, "U+0041" },
	{ "\x7F", 1, 0x7F, "U+007F, the last one-byte character" },
	{ "\xC2\x80", 2, 0x80, "U+0080, the first two-byte character" },
	{ "\xC3\xA9", 2, 0xE9, "U+00E9" },
	{ "\xDF\xBF", 2, 0x7FF, "U+07FF, the last two-byte character" },
	{ "\xE0\xA0\x80", 3, 0x800, "U+0800, the first three-byte character" },
	{ "\xE2\x82\xAC", 3, 0x20AC, "U+20AC" },
	{ "\xED\x9F\xBF", 3, 0xD7FF, "U+D7FF, just below the surrogates" },
	{ "\xEE\x80\x80", 3, 0xE000, "U+E000, just above the surrogates" },
	{ "\xEF\xBF\xBD", 3, 0xFFFD, "U+FFFD" },
	{ "\xEF\xBF\xBF", 3, 0xFFFF, "U+FFFF, the last three-byte character" },
	{ "\xF0\x90\x80\x80", 4, 0x10000, "U+10000, the first four-byte one" },
	{ "\xF0\x9F\x98\x80", 4, 0x1F600, "U+1F600" },
	{ "\xF3\xBF\xBF\xBF", 4, 0xFFFFF, "U+FFFFF" },
	{ "\xF4\x8F\xBF\xBF", 4, 0x10FFFF, "U+10FFFF, the last code point" },
};

struct bad {
	const char	*bytes;
	size_t		 len;
	const char	*what;
};

static const struct bad bads[] = {
	{ "\xC0\x80", 2, "overlong U+0000 in two bytes (C0 80)" },
	{ "\xC1\xBF", 2, "overlong U+007F in two bytes (C1 BF)" },
	{ "\xE0\x80\x80", 3, "overlong U+0000 in three bytes (E0 80 80)" },
	{ "\xE0\x9F\xBF", 3, "overlong U+07FF in three bytes (E0 9F BF)" },
	{ "\xF0\x80\x80\x80", 4, "overlong U+0000 in four bytes" },
	{ "\xF0\x8F\xBF\xBF", 4, "overlong U+FFFF in four bytes" },
	{ "\xED\xA0\x80", 3, "the surrogate U+D800 (ED A0 80)" },
	{ "\xED\xAF\xBF", 3, "the surrogate U+DBFF (ED AF BF)" },
	{ "\xED\xB0\x80", 3, "the surrogate U+DC00 (ED B0 80)" },
	{ "\xED\xBF\xBF", 3, "the surrogate U+DFFF (ED BF BF)" },
	{ "\xED\xA0\xBD\xED\xB8\x80", 6, "a surrogate pair in CESU-8" },
	{ "\xF4\x90\x80\x80", 4, "U+110000, past the last code point" },
	{ "\xF7\xBF\xBF\xBF", 4, "U+1FFFFF (F7 BF BF BF)" },
	{ "\xF5\x80\x80\x80", 4, "lead byte F5" },
	{ "\xF8\x88\x80\x80\x80", 5, "a five-byte form (F8)" },
	{ "\xFC\x84\x80\x80\x80\x80", 6, "a six-byte form (FC)" },
	{ "\xFE", 1, "the byte FE" },
	{ "\xFF", 1, "the byte FF" },
	{ "\x80", 1, "a lone continuation byte 80" },
	{ "\xBF", 1, "a lone continuation byte BF" },
	{ "\x80\x80", 2, "two lone continuation bytes" },
	{ "\xC3", 1, "a two-byte sequence cut after one byte" },
	{ "\xE2\x82", 2, "a three-byte sequence cut after two bytes" },
	{ "\xE2", 1, "a three-byte sequence cut after one byte" },
	{ "\xF0\x9F\x98", 3, "a four-byte sequence cut after three bytes" },
	{ "\xF0\x9F", 2, "a four-byte sequence cut after two bytes" },
	{ "\xC3\x41", 2, "a two-byte lead before ASCII" },
	{ "\xC3\xC3\xA9", 3, "a two-byte lead before another lead" },
	{ "\xE2\x28\xA1", 3, "a bad second byte of three" },
	{ "\xE2\x82\x28", 3, "a bad third byte of three" },
	{ "\xF0\x9F\x41\x80", 4, "a bad third byte of four" },
	{ "\xF0\x9F\x98\x41", 4, "a bad fourth byte of four" },
};

static void
test_decode_table(void)
{
	char what[160];
	uint32_t cp;
	size_t i, len;

	for (i = 0; i < sizeof(goods) / sizeof(goods[0]); i++) {
		const struct good *g = &goods[i];

		cp = 0xDEADBEEF;
		len = utf8_decode(g->bytes, g->len, &cp);
		snprintf(what, sizeof(what), "decode %s: length", g->what);
		unit_long((long)len, (long)g->len, what);
		snprintf(what, sizeof(what), "decode %s: code point", g->what);
		unit_long((long)cp, (long)g->cp, what);
		/* more bytes after it change nothing */
		{
			char more[8];

			memcpy(more, g->bytes, g->len);
			memcpy(more + g->len, "\xC3\xA9z", 3);
			cp = 0;
			len = utf8_decode(more, g->len + 3, &cp);
			snprintf(what, sizeof(what),
			    "decode %s followed by more text", g->what);
			unit_ok(len == g->len && cp == g->cp, what);
		}
		if (g->len > 1) {
			snprintf(what, sizeof(what),
			    "decode %s with a byte too few available", g->what);
			unit_long((long)utf8_decode(g->bytes, g->len - 1, &cp),
			    0, what);
		}
	}
	for (i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		snprintf(what, sizeof(what), "decode rejects %s", bads[i].what);
		unit_long((long)utf8_decode(bads[i].bytes, bads[i].len, &cp),
		    0, what);
	}
	unit_long((long)utf8_decode("abc", 0, &cp), 0,
	    "decode of no bytes is 0");
}

/*
 * Every two-byte string, and three- and four-byte strings over every lead
 * byte and every second byte, against the table of RFC 3629 section 4.
 */
static size_t
rfc_length(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xBF;
	size_t len, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		len = 2;
	else if (c == 0xE0)
		len = 3, lo = 0xA0;
	else if (c == 0xED)
		len = 3, hi = 0x9F;
	else if (c >= 0xE1 && c <= 0xEF)
		len = 3;
	else if (c == 0xF0)
		len = 4, lo = 0x90;
	else if (c == 0xF4)
		len = 4, hi = 0x8F;
	else if (c >= 0xF1 && c <= 0xF3)
		len = 4;
	else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return len;
}

/* Decodes s[0..n) and compares with the RFC; counts and shows mismatches. */
static void
compare(const unsigned char *s, size_t n, size_t *wrong)
{
	size_t got, want;
	uint32_t cp;

	got = utf8_decode((const char *)s, n, &cp);
	want = rfc_length(s, n);
	if (got != want && (*wrong)++ < 5)
		printf("#   %02x %02x %02x %02x (%zu bytes): got %zu, "
		    "want %zu\n", s[0], s[1], n > 2 ? s[2] : 0,
		    n > 3 ? s[3] : 0, n, got, want);
}

static void
test_decode_exhaustive(void)
{
	static const unsigned char tails[] = { 0x00, 0x41, 0x7F, 0x80, 0x9F,
	    0xA0, 0xBF, 0xC0, 0xC2, 0xFF };
	unsigned char s[4];
	unsigned a, b, t;
	size_t wrong = 0, tried = 0;

	for (a = 0; a < 256; a++) {
		for (b = 0; b < 256; b++) {
			s[0] = (unsigned char)a;
			s[1] = (unsigned char)b;
			compare(s, 2, &wrong);
			for (t = 0; t < sizeof(tails) * sizeof(tails); t++) {
				s[2] = tails[t / sizeof(tails)];
				s[3] = tails[t % sizeof(tails)];
				compare(s, 4, &wrong);
				tried++;
			}
		}
	}
	unit_ok(wrong == 0 && tried == 256 * 256 * 100,
	    "decode agrees with RFC 3629 over 6.6 million byte strings");
}

static void
test_encode(void)
{
	char out[4];
	uint32_t cp, back;
	size_t len, want, bad = 0, wronglen = 0, i;

	for (i = 0; i < sizeof(goods) / sizeof(goods[0]); i++) {
		char what[160];

		memset(out, 0, sizeof(out));
		len = utf8_encode(goods[i].cp, out);
		snprintf(what, sizeof(what), "encode %s", goods[i].what);
		unit_ok(len == goods[i].len &&
		    memcmp(out, goods[i].bytes, len) == 0, what);
	}
	for (cp = 0; cp <= 0x10FFFF; cp++) {
		if (cp == 0xD800)
			cp = 0xE000;
		len = utf8_encode(cp, out);
		want = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
		if (len != want)
			wronglen++;
		back = 0xFFFFFFFF;
		if (utf8_decode(out, len, &back) != len || back != cp ||
		    utf8_valid(out, len) != len || utf8_count(out, len) != 1) {
			if (bad++ < 5)
				printf("#   U+%04X does not round-trip\n",
				    (unsigned)cp);
		}
	}
	unit_long((long)wronglen, 0,
	    "encode uses the shortest form for every code point");
	unit_long((long)bad, 0,
	    "every code point but the surrogates round-trips through "
	    "encode and decode");
}

static void
test_valid(void)
{
	unit_long((long)utf8_plain("", 0), 0, "plain: empty text");
	unit_long((long)utf8_plain("read_file", 9), 9, "plain: a name");
	unit_long((long)utf8_plain("r\xC3\xA9sum\xC3\xA9 <x>", 12), 12,
	    "plain: accents and markup are plain");
	unit_long((long)utf8_plain("echo\0evil", 9), 4, "plain: NUL ends it");
	unit_long((long)utf8_plain("a\nb", 3), 1, "plain: a newline ends it");
	unit_long((long)utf8_plain("a\tb", 3), 1, "plain: a tab ends it");
	unit_long((long)utf8_plain("a\x1B[2J", 5), 1, "plain: ESC ends it");
	unit_long((long)utf8_plain("ab\x7F", 3), 2, "plain: DEL ends it");
	unit_long((long)utf8_plain("a\xC2\x85", 3), 1, "plain: C1 NEL ends it");
	unit_long((long)utf8_plain("a\xC2\xA0", 3), 3, "plain: U+00A0 is plain");
	unit_long((long)utf8_plain("ab\xFF", 3), 2, "plain: a bad byte ends it");
	unit_long((long)utf8_valid("", 0), 0, "valid: empty text");
	unit_long((long)utf8_valid("abc", 3), 3, "valid: ASCII");
	unit_long((long)utf8_valid("a\0b", 3), 3, "valid: NUL is a character");
	unit_long((long)utf8_valid("h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x98\x80",
	    15), 15, "valid: text of every length");
	unit_long((long)utf8_valid("ab\xFF" "cd", 5), 2,
	    "valid: stops before FF");
	unit_long((long)utf8_valid("\x80" "abc", 4), 0,
	    "valid: a leading continuation byte");
	unit_long((long)utf8_valid("\xC3\xA9\xC3", 3), 2,
	    "valid: a sequence cut by the end of the text");
	unit_long((long)utf8_valid("\xC3\xA9", 1), 0,
	    "valid: n cuts a sequence");
	unit_long((long)utf8_valid("\xE2\x82\xAC\xE2\x82\xAC\xED\xA0\x80x", 10),
	    6, "valid: stops at a surrogate");
	unit_long((long)utf8_valid("xy\xC0\x80", 4), 2,
	    "valid: stops at an overlong NUL");
	unit_long((long)utf8_valid("\xF0\x9F\x98\x80\xF4\x90\x80\x80", 8), 4,
	    "valid: stops past U+10FFFF");
	unit_long((long)utf8_valid("abc\xE2\x82" "d", 6), 3,
	    "valid: stops at a sequence cut short by ASCII");
	unit_long((long)utf8_valid("\xEF\xBB\xBF{}", 5), 5,
	    "valid: a byte order mark is valid UTF-8");
}

static void
test_count(void)
{
	unit_long((long)utf8_count("", 0), 0, "count: empty text");
	unit_long((long)utf8_count("abc", 3), 3, "count: ASCII");
	unit_long((long)utf8_count("a\0b", 3), 3, "count: NUL counts");
	unit_long((long)utf8_count("h\xC3\xA9llo", 6), 5,
	    "count: a two-byte character is one");
	unit_long((long)utf8_count("\xF0\x9F\x98\x80\xE2\x82\xAC\xC3\xA9 a",
	    11), 5, "count: one of every length");
	unit_long((long)utf8_count("\xE2\x82\xAC\xE2\x82\xAC", 3), 1,
	    "count: only the first n bytes");
}

/*
 * "ab\ncd\xC3\xA9\xE2\x82\xAC\n\xF0\x9F\x98\x80x\n\nz": the offsets of its
 * characters and where they are.
 */
static const char text[] =
    "ab\ncd\xC3\xA9\xE2\x82\xAC\n\xF0\x9F\x98\x80x\n\nz";

static const struct {
	size_t		off;
	unsigned long	line, col;
} where[] = {
	{ 0, 1, 1 }, { 1, 1, 2 }, { 2, 1, 3 },
	{ 3, 2, 1 }, { 4, 2, 2 }, { 5, 2, 3 }, { 7, 2, 4 }, { 10, 2, 5 },
	{ 11, 3, 1 }, { 15, 3, 2 }, { 16, 3, 3 },
	{ 17, 4, 1 },
	{ 18, 5, 1 }, { 19, 5, 2 },
};

#define NWHERE	(sizeof(where) / sizeof(where[0]))

static void
test_positions(void)
{
	struct utf8_cursor c;
	unsigned long line, col;
	char what[120];
	size_t i;
	int ok;

	for (i = 0; i < NWHERE; i++) {
		utf8_position(text, where[i].off, &line, &col);
		snprintf(what, sizeof(what),
		    "position of offset %zu is %lu:%lu", where[i].off,
		    where[i].line, where[i].col);
		unit_ok(line == where[i].line && col == where[i].col, what);
		if (line != where[i].line || col != where[i].col)
			printf("#   got %lu:%lu\n", line, col);
	}

	utf8_cursor_init(&c, text, sizeof(text) - 1);
	ok = 1;
	for (i = 0; i < NWHERE; i++) {
		utf8_cursor_at(&c, where[i].off, &line, &col);
		if (line != where[i].line || col != where[i].col)
			ok = 0;
	}
	unit_ok(ok, "a cursor moving forward finds every position");

	ok = 1;
	for (i = NWHERE; i-- > 0;) {
		utf8_cursor_at(&c, where[i].off, &line, &col);
		if (line != where[i].line || col != where[i].col)
			ok = 0;
	}
	unit_ok(ok, "a cursor moving backward finds every position");

	/* jumping about: forward, back, the same place twice */
	utf8_cursor_init(&c, text, sizeof(text) - 1);
	utf8_cursor_at(&c, 15, &line, &col);
	unit_ok(line == 3 && col == 2, "cursor: a first jump to offset 15");
	utf8_cursor_at(&c, 15, &line, &col);
	unit_ok(line == 3 && col == 2, "cursor: the same offset again");
	utf8_cursor_at(&c, 4, &line, &col);
	unit_ok(line == 2 && col == 2, "cursor: back to offset 4");
	utf8_cursor_at(&c, 18, &line, &col);
	unit_ok(line == 5 && col == 1, "cursor: forward again to offset 18");
	utf8_cursor_at(&c, 0, &line, &col);
	unit_ok(line == 1 && col == 1, "cursor: back to the start");

	/* a carriage return is a character of its line */
	utf8_position("a\r\nb", 2, &line, &col);
	unit_ok(line == 1 && col == 3, "a carriage return takes a column");
	utf8_position("a\r\nb", 3, &line, &col);
	unit_ok(line == 2 && col == 1, "CRLF ends a line once");
	/* a tab is one character */
	utf8_position("\t\tx", 2, &line, &col);
	unit_ok(line == 1 && col == 3, "a tab takes one column");
}

/* With cr, lines end as XML ends them: at CR LF, CR or LF. */
static void
test_positions_cr(void)
{
	static const char t[] = "a\r\nb\rc\nd\r\r\xC3\xA9x";
	struct utf8_cursor c;
	unsigned long line, col;

	utf8_cursor_init(&c, t, sizeof(t) - 1);
	c.cr = 1;
	utf8_cursor_at(&c, 1, &line, &col);
	unit_ok(line == 1 && col == 2, "cr: a CR is no column");
	utf8_cursor_at(&c, 2, &line, &col);
	unit_ok(line == 2 && col == 1, "cr: the LF of a CR LF is past it");
	utf8_cursor_at(&c, 3, &line, &col);
	unit_ok(line == 2 && col == 1, "cr: CR LF ends one line");
	utf8_cursor_at(&c, 5, &line, &col);
	unit_ok(line == 3 && col == 1, "cr: a CR alone ends a line");
	utf8_cursor_at(&c, 7, &line, &col);
	unit_ok(line == 4 && col == 1, "cr: a LF alone ends a line");
	utf8_cursor_at(&c, 12, &line, &col);
	unit_ok(line == 6 && col == 2, "cr: CR CR is two lines");
	utf8_cursor_init(&c, t, sizeof(t) - 1);
	c.cr = 1;
	utf8_cursor_at(&c, 12, &line, &col);
	unit_ok(line == 6 && col == 2, "cr: one jump gives the same");
}

/* A byte order mark at the top takes no column; elsewhere it is a character. */
static void
test_positions_bom(void)
{
	static const char bom[] = "\xEF\xBB\xBF" "ab\n\xEF\xBB\xBF" "c";
	struct utf8_cursor c;
	unsigned long line, col;

	utf8_cursor_init(&c, bom, sizeof(bom) - 1);
	utf8_cursor_at(&c, 3, &line, &col);
	unit_ok(line == 1 && col == 1, "bom: the first character is at 1:1");
	utf8_cursor_at(&c, 4, &line, &col);
	unit_ok(line == 1 && col == 2, "bom: the second at 1:2");
	utf8_cursor_at(&c, 9, &line, &col);
	unit_ok(line == 2 && col == 2,
	    "bom: one on a later line is a character");
	utf8_cursor_at(&c, 4, &line, &col);
	unit_ok(line == 1 && col == 2, "bom: moving back skips it again");
	utf8_cursor_at(&c, 0, &line, &col);
	unit_ok(line == 1 && col == 1, "bom: its own offset is 1:1");
	utf8_cursor_at(&c, 10, &line, &col);
	unit_ok(line == 2 && col == 3, "bom: the end of the text");
	utf8_position(bom, 5, &line, &col);
	unit_ok(line == 1 && col == 3, "bom: utf8_position skips it too");
	utf8_position("\xEF\xBB", 2, &line, &col);
	unit_ok(line == 1 && col == 2, "bom: two bytes of one are no mark");
	utf8_cursor_init(&c, "\xEF\xBB\xBF", 2);
	utf8_cursor_at(&c, 2, &line, &col);
	unit_ok(line == 1 && col == 2, "bom: only n bytes are looked at");
}

/* A long text: the cursor agrees with utf8_position at every offset. */
static void
test_positions_long(void)
{
	static const char *const pieces[] = { "a", "\xC3\xA9", "\n",
	    "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "  ", "\n\n" };
	char big[4096];
	size_t n = 0, i, starts[4096], nstarts = 0;
	unsigned long l1, c1, l2, c2, line = 1, col = 1;
	struct utf8_cursor c;
	int ok = 1, ok_fwd = 1;

	for (i = 0; n < sizeof(big) - 8; i++) {
		const char *p = pieces[(i * 7 + i / 3) % 7];

		memcpy(big + n, p, strlen(p));
		n += strlen(p);
	}
	big[n] = '\0';
	utf8_cursor_init(&c, big, n);
	for (i = 0; i < n; i++) {
		if (((unsigned char)big[i] & 0xC0) == 0x80)
			continue;
		starts[nstarts++] = i;
		utf8_cursor_at(&c, i, &l1, &c1);
		if (l1 != line || c1 != col)
			ok_fwd = 0;
		if (big[i] == '\n')
			line++, col = 1;
		else
			col++;
	}
	unit_ok(ok_fwd, "a cursor counts lines and characters over 4 KiB");
	for (i = 0; i < nstarts; i++) {
		size_t off = starts[(i * 389) % nstarts];

		utf8_cursor_at(&c, off, &l1, &c1);
		utf8_position(big, off, &l2, &c2);
		if (l1 != l2 || c1 != c2)
			ok = 0;
	}
	unit_ok(ok, "a cursor jumping about agrees with utf8_position");
}

int
main(void)
{
	test_decode_table();
	test_decode_exhaustive();
	test_encode();
	test_valid();
	test_count();
	test_positions();
	test_positions_long();
	test_positions_bom();
	test_positions_cr();
	return unit_done();
}
