/* Unit tests of lib/xmlesc: the five escapes; characters XML 1.0 forbids. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/utf8.h"
#include "unit.h"
#include "xml/xmlesc.h"

#define FFFD	"\xEF\xBF\xBD"

/* Escapes s into a fresh buffer and compares with want. */
static size_t
check(const char *s, size_t n, unsigned flags, const char *want,
    struct xmlesc_bad *bad, const char *what)
{
	struct buf b = BUF_INIT;
	size_t r;

	r = xmlesc_append(&b, s, n, flags, bad);
	unit_mem(b.data != NULL ? b.data : "", b.len, want, what);
	buf_free(&b);
	return r;
}

static void
test_specials(void)
{
	struct xmlesc_bad bad = { 0, 0, 0 };
	struct buf b = BUF_INIT;
	size_t r;

	r = check("a&b<c>d\"e'f", 11, 0, "a&amp;b&lt;c&gt;d\"e'f", &bad,
	    "text: & < > escaped, quotes kept");
	unit_long((long)r, 0, "text: nothing replaced");
	unit_long((long)bad.count, 0, "text: nothing counted");
	check("a&b<c>d\"e'f", 11, XMLESC_QUOTES,
	    "a&amp;b&lt;c&gt;d&quot;e&apos;f", &bad,
	    "attribute: all five escaped");
	check("&&<<>>\"\"''", 10, XMLESC_QUOTES,
	    "&amp;&amp;&lt;&lt;&gt;&gt;&quot;&quot;&apos;&apos;", NULL,
	    "attribute: specials side by side");
	check("\"'", 2, 0, "\"'", NULL, "text: quotes alone are kept");
	check("&amp;", 5, 0, "&amp;amp;", NULL,
	    "an entity in the input is escaped again");
	check("", 0, XMLESC_QUOTES, "", NULL, "empty input, empty output");
	check("plain text, nothing to do", 25, XMLESC_QUOTES,
	    "plain text, nothing to do", NULL, "plain text is copied");
	check("x&y", 2, 0, "x&amp;", NULL, "only n bytes are read");
	check("\t\n\r", 3, XMLESC_QUOTES, "\t\n\r", NULL,
	    "tab, newline and carriage return are kept");
	unit_long((long)bad.count, 0, "no forbidden character counted");

	buf_adds(&b, "<a b=\"");
	xmlesc_append(&b, "1<2", 3, XMLESC_QUOTES, NULL);
	buf_adds(&b, "\">");
	unit_str(buf_cstr(&b), "<a b=\"1&lt;2\">",
	    "escaped text is appended to what the buffer holds");
	buf_free(&b);
}

/* Tab, newline and carriage return as character references, by flag. */
static void
test_whitespace_refs(void)
{
	const char *in = "a\tb\nc\rd";

	check(in, 7, XMLESC_CR, "a\tb\nc&#13;d", NULL,
	    "XMLESC_CR: only the carriage return is a reference");
	check(in, 7, XMLESC_LF, "a\tb&#10;c\rd", NULL,
	    "XMLESC_LF: only the newline is a reference");
	check(in, 7, XMLESC_TAB, "a&#9;b\nc\rd", NULL,
	    "XMLESC_TAB: only the tab is a reference");
	check(in, 7, XMLESC_CR | XMLESC_LF, "a\tb&#10;c&#13;d", NULL,
	    "one-line text: newline and carriage return are references");
	check("\t\n\r\"'&", 6, XMLESC_ATTR, "&#9;&#10;&#13;&quot;&apos;&amp;",
	    NULL, "XMLESC_ATTR: every character an attribute value would lose");
	check("\x01\n", 2, XMLESC_LF, FFFD "&#10;", NULL,
	    "a forbidden character beside a reference is still replaced");
}

static void
test_controls(void)
{
	char in[3], want[16], what[80];
	unsigned c;
	size_t r;
	int flags;

	for (flags = 0; flags <= XMLESC_QUOTES; flags += XMLESC_QUOTES) {
		for (c = 0; c < 0x20; c++) {
			struct xmlesc_bad bad = { 0, 0, 0 };
			int ok = c == 0x9 || c == 0xA || c == 0xD;

			in[0] = 'x';
			in[1] = (char)c;
			in[2] = 'y';
			if (ok)
				snprintf(want, sizeof(want), "x%cy", (char)c);
			else
				snprintf(want, sizeof(want), "x" FFFD "y");
			snprintf(what, sizeof(what), "%s: control 0x%02X %s",
			    flags ? "attribute" : "text", c,
			    ok ? "kept" : "replaced with U+FFFD");
			/* c == 0 cannot go in want; compare it by hand */
			if (c == 0) {
				struct buf b = BUF_INIT;

				r = xmlesc_append(&b, in, 3, (unsigned)flags,
				    &bad);
				unit_mem(b.data, b.len, "x" FFFD "y", what);
				buf_free(&b);
			} else
				r = check(in, 3, (unsigned)flags, want, &bad,
				    what);
			snprintf(what, sizeof(what), "%s: control 0x%02X "
			    "counted, at offset 1", flags ? "attribute" :
			    "text", c);
			unit_ok(ok ? r == 0 && bad.count == 0 :
			    r == 1 && bad.count == 1 && bad.offset == 1 &&
			    bad.cp == c, what);
		}
	}
}

static void
test_nonchars(void)
{
	struct xmlesc_bad bad = { 0, 0, 0 };
	size_t r;

	r = check("a\xEF\xBF\xBE" "b", 5, 0, "a" FFFD "b", &bad,
	    "U+FFFE replaced");
	unit_ok(r == 1 && bad.count == 1 && bad.offset == 1 &&
	    bad.cp == 0xFFFE, "U+FFFE counted at offset 1");
	memset(&bad, 0, sizeof(bad));
	r = check("\xEF\xBF\xBF", 3, XMLESC_QUOTES, FFFD, &bad,
	    "U+FFFF alone replaced");
	unit_ok(r == 1 && bad.count == 1 && bad.offset == 0 &&
	    bad.cp == 0xFFFF, "U+FFFF counted at offset 0");
	memset(&bad, 0, sizeof(bad));
	r = check("\xC3\xA9\xEF\xBF\xBF", 5, 0, "\xC3\xA9" FFFD, &bad,
	    "U+FFFF at the very end replaced");
	unit_ok(r == 1 && bad.offset == 2 && bad.cp == 0xFFFF,
	    "U+FFFF at the end counted at offset 2");
}

static void
test_kept(void)
{
	static const struct {
		const char *s, *what;
	} kept[] = {
		{ "\x7F", "U+007F (DEL)" },
		{ "\xC2\x80", "U+0080" },
		{ "\xC2\x85", "U+0085 (NEL)" },
		{ "\xC2\x9F", "U+009F" },
		{ "\xC3\xA9", "U+00E9" },
		{ "\xE2\x80\xA8", "U+2028" },
		{ "\xED\x9F\xBF", "U+D7FF" },
		{ "\xEE\x80\x80", "U+E000" },
		{ "\xEF\x80\x80", "U+F000 (lead byte EF)" },
		{ "\xEF\xBB\xBF", "U+FEFF (lead byte EF)" },
		{ "\xEF\xBF\xB0", "U+FFF0 (EF BF)" },
		{ "\xEF\xBF\xBC", "U+FFFC (EF BF)" },
		{ "\xEF\xBF\xBD", "U+FFFD (EF BF)" },
		{ "\xEF\xBE\xBE", "U+FFBE (EF BE BE)" },
		{ "\xEF\xBE\xBF", "U+FFBF (EF BE BF)" },
		{ "\xF0\x9F\x98\x80", "U+1F600" },
		{ "\xF0\x9F\xBF\xBE", "U+1FFFE (a noncharacter XML allows)" },
		{ "\xF4\x8F\xBF\xBF", "U+10FFFF" },
	};
	struct xmlesc_bad bad = { 0, 0, 0 };
	char in[16], what[120];
	size_t i, n, r;

	for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		n = strlen(kept[i].s);
		memcpy(in, "<", 1);
		memcpy(in + 1, kept[i].s, n);
		memcpy(in + 1 + n, "'", 2);
		{
			char want[32];

			snprintf(want, sizeof(want), "&lt;%s&apos;",
			    kept[i].s);
			snprintf(what, sizeof(what), "%s is kept",
			    kept[i].what);
			r = check(in, n + 2, XMLESC_QUOTES, want, &bad, what);
		}
		snprintf(what, sizeof(what), "%s is not counted", kept[i].what);
		unit_ok(r == 0 && bad.count == 0, what);
	}
}

static void
test_counting(void)
{
	struct xmlesc_bad bad = { 0, 0, 0 };
	const char *in = "ab\x01" "cd\xEF\xBF\xBF\x1B[31m&\x7F";
	size_t r;

	r = check(in, strlen(in), 0,
	    "ab" FFFD "cd" FFFD FFFD "[31m&amp;\x7F", &bad,
	    "three forbidden characters among others");
	unit_long((long)r, 3, "three replaced");
	unit_long((long)bad.count, 3, "three counted");
	unit_long((long)bad.offset, 2, "the first at offset 2");
	unit_long((long)bad.cp, 1, "the first is U+0001");

	r = check("\xEF\xBF\xBE\x02", 4, 0, FFFD FFFD, &bad,
	    "a second call");
	unit_long((long)r, 2, "the second call returns its own count");
	unit_long((long)bad.count, 5, "the counts add up across calls");
	unit_ok(bad.offset == 2 && bad.cp == 1,
	    "the first one stays the first of all");

	r = check("\x1B\x1B", 2, 0, FFFD FFFD, NULL, "no record kept");
	unit_long((long)r, 2, "the count is returned without a record");
}

/* The XML 1.0 Char production, written out from the specification. */
static int
xml_char(uint32_t c)
{
	return c == 0x9 || c == 0xA || c == 0xD ||
	    (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) ||
	    (c >= 0x10000 && c <= 0x10FFFF);
}

static void
test_allowed(void)
{
	uint32_t c;
	size_t wrong = 0;

	for (c = 0; c <= 0x110100; c++)
		if (!xmlesc_allowed(c) != !xml_char(c) && wrong++ < 5)
			printf("#   U+%04X: got %d\n", (unsigned)c,
			    xmlesc_allowed(c));
	if (xmlesc_allowed(0xFFFFFFFF) || xmlesc_allowed(0x7FFFFFFF))
		wrong++;
	unit_long((long)wrong, 0,
	    "xmlesc_allowed is XML 1.0's Char over every value");
	unit_ok(xmlesc_allowed(0x9) && xmlesc_allowed(0xA) &&
	    xmlesc_allowed(0xD) && !xmlesc_allowed(0x0) &&
	    !xmlesc_allowed(0x1F) && xmlesc_allowed(0x20),
	    "xmlesc_allowed: the C0 range");
	unit_ok(xmlesc_allowed(0xD7FF) && !xmlesc_allowed(0xD800) &&
	    !xmlesc_allowed(0xDFFF) && xmlesc_allowed(0xE000),
	    "xmlesc_allowed: the surrogates");
	unit_ok(xmlesc_allowed(0xFFFD) && !xmlesc_allowed(0xFFFE) &&
	    !xmlesc_allowed(0xFFFF) && xmlesc_allowed(0x10000) &&
	    xmlesc_allowed(0x10FFFF) && !xmlesc_allowed(0x110000),
	    "xmlesc_allowed: the top of the range");
}

/* Every scalar value, alone: replaced exactly when xmlesc_allowed says no. */
static void
test_every_char(void)
{
	struct buf b = BUF_INIT;
	struct xmlesc_bad bad;
	char enc[4];
	uint32_t c;
	size_t n, r, wrong = 0;
	int good;

	for (c = 0; c <= 0x10FFFF; c++) {
		if (c == 0xD800)
			c = 0xE000;
		n = utf8_encode(c, enc);
		buf_reset(&b);
		memset(&bad, 0, sizeof(bad));
		r = xmlesc_append(&b, enc, n, XMLESC_QUOTES, &bad);
		if (c == '&' || c == '<' || c == '>' || c == '"' || c == '\'')
			good = r == 0 && b.len > 1 && b.data[0] == '&';
		else if (xml_char(c))
			good = r == 0 && b.len == n &&
			    memcmp(b.data, enc, n) == 0 && bad.count == 0;
		else
			good = r == 1 && b.len == 3 &&
			    memcmp(b.data, FFFD, 3) == 0 && bad.count == 1 &&
			    bad.offset == 0 && bad.cp == c;
		if (!good && wrong++ < 5)
			printf("#   U+%04X mishandled\n", (unsigned)c);
	}
	unit_long((long)wrong, 0,
	    "every code point is kept, escaped or replaced as XML 1.0 asks");
	buf_free(&b);
}

/*
 * A simple model of the escaping, a character at a time, to compare long
 * mixed texts with.
 */
static void
model(struct buf *out, const char *s, size_t n, unsigned flags,
    size_t *count)
{
	size_t i = 0, len;
	uint32_t c;

	while (i < n) {
		len = utf8_decode(s + i, n - i, &c);
		if (c == '&')
			buf_adds(out, "&amp;");
		else if (c == '<')
			buf_adds(out, "&lt;");
		else if (c == '>')
			buf_adds(out, "&gt;");
		else if (c == '"' && (flags & XMLESC_QUOTES))
			buf_adds(out, "&quot;");
		else if (c == '\'' && (flags & XMLESC_QUOTES))
			buf_adds(out, "&apos;");
		else if (c == '\t' && (flags & XMLESC_TAB))
			buf_adds(out, "&#9;");
		else if (c == '\n' && (flags & XMLESC_LF))
			buf_adds(out, "&#10;");
		else if (c == '\r' && (flags & XMLESC_CR))
			buf_adds(out, "&#13;");
		else if (!xml_char(c)) {
			buf_adds(out, FFFD);
			(*count)++;
		} else
			buf_add(out, s + i, len);
		i += len;
	}
}

/*
 * Texts of random pieces under every combination of flags, from empty to
 * longer than the 4096-byte blocks the escaping works in (so that runs
 * of plain text, escapes and a U+FFFE cross sixteen-byte and block
 * boundaries), escape as the model does, count what they replace and
 * place the first at its offset.
 */
static void
test_mixed(void)
{
	static const char *const pieces[] = { "a", "&", "<", ">", "\"", "'",
	    "\x01", "\x1B", "\t", "\xEF\xBF\xBE", "\xEF\xBF\xBF",
	    "\xEF\xBF\xBD", "\xEF\x80\x80", "\xC3\xA9", "\xF0\x9F\x98\x80",
	    "text ", "\xEF\xBB\xBF", "\x7F", "\r\n", "\n",
	    "plain text that needs no escaping at all, ",
	    "{\"key\": \"value\"}" };
	enum { NPIECES = sizeof(pieces) / sizeof(pieces[0]) };
	struct buf in = BUF_INIT, got = BUF_INIT, want = BUF_INIT;
	struct xmlesc_bad bad;
	size_t i, r, count, first, same = 0, trials = 600;
	unsigned seed = 12345, flags;

	for (i = 0; i < trials; i++) {
		size_t k, len = i % 10 == 9 ? 400 + i * 3 : (i * 13) % 97;

		buf_reset(&in);
		first = SIZE_MAX;
		for (k = 0; k < len; k++) {
			seed = seed * 1103515245 + 12345;
			buf_adds(&in, pieces[(seed >> 16) % NPIECES]);
		}
		flags = (unsigned)i % 16;
		buf_reset(&got);
		buf_reset(&want);
		memset(&bad, 0, sizeof(bad));
		count = 0;
		r = xmlesc_append(&got, in.data, in.len, flags, &bad);
		model(&want, in.data, in.len, flags, &count);
		for (k = 0; k < in.len && first == SIZE_MAX; k++)
			if ((unsigned char)in.data[k] < 0x20 &&
			    in.data[k] != '\t' && in.data[k] != '\n' &&
			    in.data[k] != '\r')
				first = k;
			else if (k + 2 < in.len &&
			    memcmp(in.data + k, "\xEF\xBF", 2) == 0 &&
			    (unsigned char)in.data[k + 2] >= 0xBE)
				first = k;
		if (r == count && bad.count == count &&
		    (count == 0 || bad.offset == first) &&
		    got.len == want.len &&
		    (got.len == 0 || memcmp(got.data, want.data, got.len) == 0))
			same++;
	}
	unit_long((long)same, (long)trials,
	    "600 mixed texts up to 10 KB, under every flag, escape as the "
	    "model does");
	buf_free(&in);
	buf_free(&got);
	buf_free(&want);
}

int
main(void)
{
	test_specials();
	test_whitespace_refs();
	test_controls();
	test_nonchars();
	test_kept();
	test_counting();
	test_allowed();
	test_every_char();
	test_mixed();
	return unit_done();
}
