/*
 * jsschema_regex: ECMA-262 regular expressions on PCRE2.
 *
 * The dialect is that of new RegExp(pattern, "u"), as ajv and the
 * JSON-Schema-Test-Suite read "pattern", "patternProperties" and the
 * "regex" format: the strict grammar of the "u" flag (no Annex B
 * leniency), code points rather than UTF-16 code units, no other flag.
 * A pattern is parsed here against that grammar and written out again
 * as a PCRE2 pattern that means the same, so that PCRE2 never sees a
 * construct it would read differently:
 *
 * - \d \D \w \W \b \B pass through (ASCII-only in PCRE2 without UCP, as
 *   in ECMA-262); \s and \S become explicit classes of ECMA-262's
 *   WhiteSpace and LineTerminator (U+FEFF, U+00A0, U+1680, U+2000-200A,
 *   U+2028/9, U+202F, U+205F, U+3000 included; U+0085 not); \S inside a
 *   class makes the class an alternation.
 * - "." is any code point but \n \r U+2028 U+2029; "$" is the end of the
 *   subject only (\z); "^" the start only.
 * - Every literal and character escape (\t \n \v \f \r, \cX, \0, \xHH,
 *   \uXXXX, \u{...}, a surrogate pair \uD83D\uDE00, the identity escapes
 *   of syntax characters and "/", and \- and \b in classes) becomes
 *   \x{...}; a lone surrogate, which no UTF-8 subject holds, never
 *   matches. [] never matches, [^] matches any code point.
 * - Named groups become numbered groups and \k<name> a numbered back
 *   reference, since ECMA-262 names may hold characters PCRE2's may not;
 *   back references to a group that has not matched match the empty
 *   string (PCRE2_MATCH_UNSET_BACKREF), as in ECMA-262.
 * - \p{...} and \P{...}: General_Category values and aliases (Letter,
 *   digit, ...), gc= and General_Category=, Script= / sc= and
 *   Script_Extensions= / scx=, and ECMA-262's binary properties, mapped
 *   to PCRE2's names (Assigned is \P{Cn}).
 * - Lookbehind: PCRE2 10.42 wants a bounded length; when it refuses a
 *   pattern for that, every lookbehind is run instead by a callout that
 *   tries the body, compiled apart, at each earlier start and asks it to
 *   end exactly here. Captures inside such a lookbehind stay unset, and a
 *   back reference inside one is refused.
 *
 * Refused, as ECMA-262 with "u" refuses them: inline flags (?i) and
 * (?i:...), (?#...), (?P...), (?>...), (?|...), conditionals, recursion,
 * possessive quantifiers (a++), lone { } ], a quantifier with nothing to
 * repeat or on an assertion (lookaheads included), {n,m} with n > m,
 * every escape that is not ECMA-262's (\a \e \A \z \Z \G \Q \E \h \R \K
 * \N \X \o, \c without a letter, \x without two hex digits, ...), octal
 * escapes and \0 before a digit, back references past the group count
 * or to an unknown name, duplicate group names, class ranges with a
 * class escape or out of order, unknown property names. Refused though
 * ECMA-262 accepts them (PCRE2 cannot say them): counts above 65535 in
 * {n,m}, Changes_When_NFKC_Casefolded and other properties PCRE2 lacks,
 * \u escapes inside group names. Not reproduced: ECMA-262 clears the
 * captures of a quantified group on each iteration; PCRE2 keeps them.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/num.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "schema/jsschema_pcre.h"
#include "schema/jsschema_regex.h"

/* Callout numbers: 1..JSSCHEMA_REGEX_MAXSUB run lookbehinds, END checks the end. */
#define JSSCHEMA_REGEX_MAXSUB	254
#define JSSCHEMA_REGEX_END	255

/*
 * Groups may nest this deep: the parser recurses once per group, and
 * PCRE2 refuses deeper nesting anyway (its own limit is set a little
 * above ours, for the groups the translation adds).
 */
#define JSSCHEMA_REGEX_MAX_NESTING	200

/*
 * A search may take JSSCHEMA_REGEX_MATCH_LIMIT steps of PCRE2's matcher, plus
 * JSSCHEMA_REGEX_MATCH_PER_BYTE per byte of the subject: a pattern that runs in
 * linear time never reaches that, one that backtracks without end soon
 * does. Backtracking depth (the interpreter's frames on the heap, JIT's
 * stack) is bounded the same way, so that (?:a|b)* matches a long
 * string whole.
 */
#define JSSCHEMA_REGEX_MATCH_LIMIT	5000000
#define JSSCHEMA_REGEX_MATCH_PER_BYTE	100
#define JSSCHEMA_REGEX_DEPTH_LIMIT	100000
#define JSSCHEMA_REGEX_DEPTH_PER_BYTE	4
#define JSSCHEMA_REGEX_JIT_STACK_BASE	(1024 * 1024)
#define JSSCHEMA_REGEX_JIT_STACK_PER_BYTE 128
/* Tries of lookbehind bodies in one search, each a match of its own. */
#define JSSCHEMA_REGEX_BEHIND_LIMIT	1000000

/* ECMA-262 WhiteSpace and LineTerminator, as PCRE2 class items. */
#define JSSCHEMA_REGEX_WS	"\\t\\n\\x{0B}\\f\\r\\x{20}\\x{A0}\\x{1680}" \
			"\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}" \
			"\\x{205F}\\x{3000}\\x{FEFF}"

#define JSSCHEMA_REGEX_OPTIONS	(PCRE2_UTF | PCRE2_DOLLAR_ENDONLY | \
			 PCRE2_MATCH_UNSET_BACKREF)

int	jsschema_regex_jit = 1;

struct jsschema_regex_sub {
	pcre2_code	*code;
	int		 neg;
};

struct jsschema_regex {
	pcre2_code		*code;
	pcre2_match_context	*mctx;
	struct jsschema_regex_sub	*subs;
	size_t			 nsubs;
};

struct parser {
	const char	*p;
	size_t		 len;
	size_t		 pos;
	char		*err;
	size_t		 errlen;
	int		 failed;
	int		 ngroups;	/* capture groups in the whole pattern */
	int		 nextgroup;	/* groups opened so far */
	struct buf	*names;		/* names[i]: group i + 1's, or empty */
	int		 emulate;	/* lookbehinds as callouts */
	int		 inbehind;	/* inside an emulated lookbehind */
	int		 depth;		/* groups open around the position */
	struct jsschema_regex	*re;
};

/* What one class atom turned out to be. */
enum { ATOM_ERR = -1, ATOM_CP, ATOM_CLASS };

static int	parse_disjunction(struct parser *, struct buf *);
static int	fail(struct parser *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

static int
fail(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ps->failed)
		return -1;
	ps->failed = 1;
	if (ps->errlen == 0)
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(ps->err, ps->errlen, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < ps->errlen)
		snprintf(ps->err + n, ps->errlen - (size_t)n,
		    " at offset %zu", ps->pos);
	return -1;
}

static int
peek(const struct parser *ps, size_t ahead)
{
	return ps->pos + ahead < ps->len ?
	    (unsigned char)ps->p[ps->pos + ahead] : -1;
}

static int
is_syntax(int c)
{
	return c != -1 && c != 0 && strchr("^$\\.*+?()[]{}|", c) != NULL;
}

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* Reads the code point at the current position; -1 on invalid UTF-8. */
static long
next_cp(struct parser *ps)
{
	uint32_t cp;
	size_t n;

	n = utf8_decode(ps->p + ps->pos, ps->len - ps->pos, &cp);
	if (n == 0)
		return fail(ps, "invalid utf-8");
	ps->pos += n;
	return (long)cp;
}

/* Four hex digits after \u; -1 (without a message) when they are not. */
static long
hex4(struct parser *ps, size_t at)
{
	long v = 0;
	int i, h;

	for (i = 0; i < 4; i++) {
		if (at + (size_t)i >= ps->len ||
		    (h = num_hexval((unsigned char)ps->p[at + (size_t)i])) == -1)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

/* The rest of a \u escape, the "u" already read. */
static long
unicode_escape(struct parser *ps)
{
	long v, lo;
	int h;

	if (peek(ps, 0) == '{') {
		ps->pos++;
		v = 0;
		if (num_hexval(peek(ps, 0)) == -1)
			return fail(ps, "invalid unicode escape");
		while ((h = num_hexval(peek(ps, 0))) != -1) {
			v = v * 16 + h;
			if (v > 0x10FFFF)
				return fail(ps, "unicode escape past U+10FFFF");
			ps->pos++;
		}
		if (peek(ps, 0) != '}')
			return fail(ps, "invalid unicode escape");
		ps->pos++;
		return v;
	}
	if ((v = hex4(ps, ps->pos)) == -1)
		return fail(ps, "invalid unicode escape");
	ps->pos += 4;
	if (v >= 0xD800 && v <= 0xDBFF && peek(ps, 0) == '\\' &&
	    peek(ps, 1) == 'u' && (lo = hex4(ps, ps->pos + 2)) >= 0xDC00 &&
	    lo <= 0xDFFF) {
		ps->pos += 6;
		v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
	}
	return v;
}

/*
 * A CharacterEscape, the backslash and the letter c already read (c is
 * the letter): its code point, or -1 when ECMA-262 has no such escape.
 */
static long
char_escape(struct parser *ps, int c, int inclass)
{
	int h1, h2, x;

	switch (c) {
	case 'f':
		return 0x0C;
	case 'n':
		return 0x0A;
	case 'r':
		return 0x0D;
	case 't':
		return 0x09;
	case 'v':
		return 0x0B;
	case 'c':
		x = peek(ps, 0);
		if ((x >= 'a' && x <= 'z') || (x >= 'A' && x <= 'Z')) {
			ps->pos++;
			return x % 32;
		}
		return fail(ps, "invalid escape \\c");
	case '0':
		if (is_digit(peek(ps, 0)))
			return fail(ps, "invalid octal escape");
		return 0;
	case 'x':
		if ((h1 = num_hexval(peek(ps, 0))) == -1 ||
		    (h2 = num_hexval(peek(ps, 1))) == -1)
			return fail(ps, "invalid escape \\x");
		ps->pos += 2;
		return h1 * 16 + h2;
	case 'u':
		return unicode_escape(ps);
	case '-':
		if (inclass)
			return '-';
		break;
	default:
		if (is_syntax(c) || c == '/')
			return c;
		break;
	}
	if (c >= 0x20 && c < 0x7F)
		return fail(ps, "invalid escape \\%c", c);
	return fail(ps, "invalid escape");
}

static void
add_cp(struct buf *out, long cp)
{
	if ((cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') ||
	    (cp >= 'A' && cp <= 'Z'))
		buf_addc(out, (char)cp);
	else
		buf_printf(out, "\\x{%lX}", (unsigned long)cp);
}

static int
is_surrogate(long cp)
{
	return cp >= 0xD800 && cp <= 0xDFFF;
}

/* A class range lo-hi, surrogates left out (no UTF-8 subject has them). */
static void
add_range(struct buf *body, long lo, long hi)
{
	if (is_surrogate(lo))
		lo = 0xE000;
	if (is_surrogate(hi))
		hi = 0xD7FF;
	if (lo > hi)
		return;
	if (lo == hi) {
		add_cp(body, lo);
		return;
	}
	if (lo < 0xD800 && hi > 0xDFFF) {
		/* PCRE2 takes such a range, but say it plainly. */
		add_range(body, lo, 0xD7FF);
		add_range(body, 0xE000, hi);
		return;
	}
	add_cp(body, lo);
	buf_addc(body, '-');
	add_cp(body, hi);
}

struct gcname {
	const char	*pcre;
	const char	*names[3];
};

/* General_Category values and their aliases (PropertyValueAliases.txt). */
static const struct gcname gcnames[] = {
	{ "C", { "C", "Other", NULL } },
	{ "Cc", { "Cc", "Control", "cntrl" } },
	{ "Cf", { "Cf", "Format", NULL } },
	{ "Cn", { "Cn", "Unassigned", NULL } },
	{ "Co", { "Co", "Private_Use", NULL } },
	{ "Cs", { "Cs", "Surrogate", NULL } },
	{ "L", { "L", "Letter", NULL } },
	{ "L&", { "LC", "Cased_Letter", NULL } },
	{ "Ll", { "Ll", "Lowercase_Letter", NULL } },
	{ "Lm", { "Lm", "Modifier_Letter", NULL } },
	{ "Lo", { "Lo", "Other_Letter", NULL } },
	{ "Lt", { "Lt", "Titlecase_Letter", NULL } },
	{ "Lu", { "Lu", "Uppercase_Letter", NULL } },
	{ "M", { "M", "Mark", "Combining_Mark" } },
	{ "Mc", { "Mc", "Spacing_Mark", NULL } },
	{ "Me", { "Me", "Enclosing_Mark", NULL } },
	{ "Mn", { "Mn", "Nonspacing_Mark", NULL } },
	{ "N", { "N", "Number", NULL } },
	{ "Nd", { "Nd", "Decimal_Number", "digit" } },
	{ "Nl", { "Nl", "Letter_Number", NULL } },
	{ "No", { "No", "Other_Number", NULL } },
	{ "P", { "P", "Punctuation", "punct" } },
	{ "Pc", { "Pc", "Connector_Punctuation", NULL } },
	{ "Pd", { "Pd", "Dash_Punctuation", NULL } },
	{ "Pe", { "Pe", "Close_Punctuation", NULL } },
	{ "Pf", { "Pf", "Final_Punctuation", NULL } },
	{ "Pi", { "Pi", "Initial_Punctuation", NULL } },
	{ "Po", { "Po", "Other_Punctuation", NULL } },
	{ "Ps", { "Ps", "Open_Punctuation", NULL } },
	{ "S", { "S", "Symbol", NULL } },
	{ "Sc", { "Sc", "Currency_Symbol", NULL } },
	{ "Sk", { "Sk", "Modifier_Symbol", NULL } },
	{ "Sm", { "Sm", "Math_Symbol", NULL } },
	{ "So", { "So", "Other_Symbol", NULL } },
	{ "Z", { "Z", "Separator", NULL } },
	{ "Zl", { "Zl", "Line_Separator", NULL } },
	{ "Zp", { "Zp", "Paragraph_Separator", NULL } },
	{ "Zs", { "Zs", "Space_Separator", NULL } },
};

/* ECMA-262's binary properties (table-binary-unicode-properties). */
static const char *const binprops[] = {
	"ASCII", "ASCII_Hex_Digit", "AHex", "Alphabetic", "Alpha", "Any",
	"Assigned", "Bidi_Control", "Bidi_C", "Bidi_Mirrored", "Bidi_M",
	"Case_Ignorable", "CI", "Cased", "Changes_When_Casefolded", "CWCF",
	"Changes_When_Casemapped", "CWCM", "Changes_When_Lowercased", "CWL",
	"Changes_When_NFKC_Casefolded", "CWKCF", "Changes_When_Titlecased",
	"CWT", "Changes_When_Uppercased", "CWU", "Dash",
	"Default_Ignorable_Code_Point", "DI", "Deprecated", "Dep",
	"Diacritic", "Dia", "Emoji", "Emoji_Component", "EComp",
	"Emoji_Modifier", "EMod", "Emoji_Modifier_Base", "EBase",
	"Emoji_Presentation", "EPres", "Extended_Pictographic", "ExtPict",
	"Extender", "Ext", "Grapheme_Base", "Gr_Base", "Grapheme_Extend",
	"Gr_Ext", "Hex_Digit", "Hex", "IDS_Binary_Operator", "IDSB",
	"IDS_Trinary_Operator", "IDST", "ID_Continue", "IDC", "ID_Start",
	"IDS", "Ideographic", "Ideo", "Join_Control", "Join_C",
	"Logical_Order_Exception", "LOE", "Lowercase", "Lower", "Math",
	"Noncharacter_Code_Point", "NChar", "Pattern_Syntax", "Pat_Syn",
	"Pattern_White_Space", "Pat_WS", "Quotation_Mark", "QMark",
	"Radical", "Regional_Indicator", "RI", "Sentence_Terminal", "STerm",
	"Soft_Dotted", "SD", "Terminal_Punctuation", "Term",
	"Unified_Ideograph", "UIdeo", "Uppercase", "Upper",
	"Variation_Selector", "VS", "White_Space", "space", "XID_Continue",
	"XIDC", "XID_Start", "XIDS",
};

static int
name_is(const char *s, size_t n, const char *name)
{
	return strlen(name) == n && memcmp(s, name, n) == 0;
}

static const char *
gc_lookup(const char *s, size_t n)
{
	size_t i, j;

	for (i = 0; i < sizeof(gcnames) / sizeof(gcnames[0]); i++)
		for (j = 0; j < 3 && gcnames[i].names[j] != NULL; j++)
			if (name_is(s, n, gcnames[i].names[j]))
				return gcnames[i].pcre;
	return NULL;
}

/*
 * Checks a PCRE2 property item on its own, so that a name PCRE2 does not
 * know is reported as such rather than as a broken pattern.
 */
static int
pcre_knows(const char *item)
{
	pcre2_code *c;
	PCRE2_SIZE off;
	int ec;

	c = jss_pcre.compile((PCRE2_SPTR)item, PCRE2_ZERO_TERMINATED, PCRE2_UTF,
	    &ec, &off, NULL);
	if (c == NULL)
		return 0;
	jss_pcre.code_free(c);
	return 1;
}

/* \p{...} or \P{...}, the letter (p or P) already read. */
static int
property(struct parser *ps, int letter, struct buf *out)
{
	const char *name, *value = NULL, *eq, *gc, *end;
	size_t nlen, vlen = 0, i;
	int neg = letter == 'P', ok;
	struct buf item = BUF_INIT;

	if (peek(ps, 0) != '{')
		return fail(ps, "invalid property name");
	name = ps->p + ps->pos + 1;
	end = memchr(name, '}', ps->len - ps->pos - 1);
	if (end == NULL)
		return fail(ps, "invalid property name");
	nlen = (size_t)(end - name);
	for (i = 0; i < nlen; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		    (name[i] >= 'A' && name[i] <= 'Z') ||
		    is_digit((unsigned char)name[i]) || name[i] == '_' ||
		    name[i] == '='))
			return fail(ps, "invalid property name");
	if ((eq = memchr(name, '=', nlen)) != NULL) {
		value = eq + 1;
		vlen = nlen - (size_t)(value - name);
		nlen = (size_t)(eq - name);
		if (vlen == 0 || memchr(value, '=', vlen) != NULL)
			return fail(ps, "invalid property name");
	}
	if (value == NULL && (gc = gc_lookup(name, nlen)) != NULL)
		buf_printf(&item, "\\%c{%s}", neg ? 'P' : 'p', gc);
	else if (value == NULL && name_is(name, nlen, "Assigned"))
		buf_printf(&item, "\\%c{Cn}", neg ? 'p' : 'P');
	else if (value == NULL) {
		for (i = 0; i < sizeof(binprops) / sizeof(binprops[0]); i++)
			if (name_is(name, nlen, binprops[i]))
				break;
		if (i == sizeof(binprops) / sizeof(binprops[0]))
			return fail(ps, "invalid property name");
		buf_printf(&item, "\\%c{%.*s}", neg ? 'P' : 'p', (int)nlen,
		    name);
	} else if (name_is(name, nlen, "General_Category") ||
	    name_is(name, nlen, "gc")) {
		if ((gc = gc_lookup(value, vlen)) == NULL)
			return fail(ps, "invalid property name");
		buf_printf(&item, "\\%c{%s}", neg ? 'P' : 'p', gc);
	} else if (name_is(name, nlen, "Script") || name_is(name, nlen, "sc"))
		buf_printf(&item, "\\%c{sc:%.*s}", neg ? 'P' : 'p', (int)vlen,
		    value);
	else if (name_is(name, nlen, "Script_Extensions") ||
	    name_is(name, nlen, "scx"))
		buf_printf(&item, "\\%c{scx:%.*s}", neg ? 'P' : 'p',
		    (int)vlen, value);
	else
		return fail(ps, "invalid property name");
	ok = pcre_knows(buf_cstr(&item));
	if (ok)
		buf_add(out, item.data, item.len);
	buf_free(&item);
	if (!ok)
		return fail(ps, "property not supported");
	ps->pos += nlen + (value != NULL ? vlen + 1 : 0) + 2;
	return 0;
}

/*
 * One class atom. A code point goes to *cp; a class escape goes straight
 * into body (\S sets *nots instead: a class cannot say "not these").
 */
static int
class_atom(struct parser *ps, long *cp, struct buf *body, int *nots)
{
	int c;

	if (peek(ps, 0) != '\\') {
		if ((*cp = next_cp(ps)) == -1)
			return ATOM_ERR;
		return ATOM_CP;
	}
	ps->pos++;
	if ((c = peek(ps, 0)) == -1)
		return fail(ps, "\\ at end of pattern");
	ps->pos++;
	switch (c) {
	case 'd':
	case 'D':
	case 'w':
	case 'W':
		buf_addc(body, '\\');
		buf_addc(body, (char)c);
		return ATOM_CLASS;
	case 's':
		buf_adds(body, JSSCHEMA_REGEX_WS);
		return ATOM_CLASS;
	case 'S':
		*nots = 1;
		return ATOM_CLASS;
	case 'p':
	case 'P':
		return property(ps, c, body) == -1 ? ATOM_ERR : ATOM_CLASS;
	case 'b':
		*cp = 0x08;
		return ATOM_CP;
	default:
		break;
	}
	if (c >= 0x80) {
		ps->pos--;
		return fail(ps, "invalid escape");
	}
	if ((*cp = char_escape(ps, c, 1)) == -1)
		return ATOM_ERR;
	return ATOM_CP;
}

/* A class, the "[" already read. */
static int
parse_class(struct parser *ps, struct buf *out)
{
	struct buf body = BUF_INIT;
	int neg = 0, nots = 0, ka, kb, rc = -1;
	long a, b;

	if (peek(ps, 0) == '^') {
		neg = 1;
		ps->pos++;
	}
	for (;;) {
		if (peek(ps, 0) == -1) {
			fail(ps, "unterminated character class");
			goto out;
		}
		if (peek(ps, 0) == ']') {
			ps->pos++;
			break;
		}
		if ((ka = class_atom(ps, &a, &body, &nots)) == ATOM_ERR)
			goto out;
		if (peek(ps, 0) != '-' || peek(ps, 1) == ']' ||
		    peek(ps, 1) == -1) {
			if (ka == ATOM_CP)
				add_range(&body, a, a);
			continue;
		}
		ps->pos++;
		if ((kb = class_atom(ps, &b, &body, &nots)) == ATOM_ERR)
			goto out;
		if (ka != ATOM_CP || kb != ATOM_CP) {
			fail(ps, "invalid character class range");
			goto out;
		}
		if (a > b) {
			fail(ps, "range out of order in character class");
			goto out;
		}
		add_range(&body, a, b);
	}
	if (!neg && !nots) {
		if (body.len == 0)
			buf_adds(out, "(?!)");
		else
			buf_printf(out, "[%.*s]", (int)body.len, body.data);
	} else if (neg && !nots) {
		if (body.len == 0)
			buf_adds(out, "[\\x{0}-\\x{10FFFF}]");
		else
			buf_printf(out, "[^%.*s]", (int)body.len, body.data);
	} else if (!neg) {
		/* the class or any non-white-space character */
		if (body.len == 0)
			buf_adds(out, "[^" JSSCHEMA_REGEX_WS "]");
		else
			buf_printf(out, "(?:[^" JSSCHEMA_REGEX_WS "]|[%.*s])",
			    (int)body.len, body.data);
	} else {
		/* white space, but not of the class */
		if (body.len == 0)
			buf_adds(out, "[" JSSCHEMA_REGEX_WS "]");
		else
			buf_printf(out, "(?:(?![%.*s])[" JSSCHEMA_REGEX_WS "])",
			    (int)body.len, body.data);
	}
	rc = 0;
out:
	buf_free(&body);
	return rc;
}

/* A decimal number of at most 9 digits; -2 if longer, -1 if none. */
static long
decimal(struct parser *ps)
{
	long v = 0;
	int n = 0;

	if (!is_digit(peek(ps, 0)))
		return -1;
	while (is_digit(peek(ps, 0))) {
		if (n++ < 9)
			v = v * 10 + (peek(ps, 0) - '0');
		ps->pos++;
	}
	return n > 9 ? -2 : v;
}

/* A GroupName after "<", up to and past ">"; its bytes go to name. */
static int
group_name(struct parser *ps, struct buf *name)
{
	size_t start = ps->pos;
	long cp;
	int first = 1;

	for (;;) {
		if (peek(ps, 0) == '>')
			break;
		if (peek(ps, 0) == -1 || peek(ps, 0) == '\\')
			return fail(ps, "invalid capture group name");
		if ((cp = next_cp(ps)) == -1)
			return -1;
		if (!(cp == '$' || cp == '_' || (cp >= 'a' && cp <= 'z') ||
		    (cp >= 'A' && cp <= 'Z') || cp >= 0x80 ||
		    (!first && cp >= '0' && cp <= '9')))
			return fail(ps, "invalid capture group name");
		first = 0;
	}
	if (first)
		return fail(ps, "invalid capture group name");
	buf_add(name, ps->p + start, ps->pos - start);
	ps->pos++;
	return 0;
}

/* A back reference to group n (counted from 1 in the whole pattern). */
static int
backref(struct parser *ps, long n, struct buf *out)
{
	if (ps->inbehind)
		return fail(ps, "back reference in a variable-length "
		    "lookbehind not supported");
	buf_printf(out, "(?:\\g{%ld})", n);
	return 0;
}

/* An escape outside a class, the backslash read. */
static int
atom_escape(struct parser *ps, struct buf *out)
{
	struct buf name = BUF_INIT;
	long n, cp;
	int c, i;

	if ((c = peek(ps, 0)) == -1)
		return fail(ps, "\\ at end of pattern");
	if (c >= '1' && c <= '9') {
		if ((n = decimal(ps)) < 0 || n > ps->ngroups)
			return fail(ps, "invalid escape");
		return backref(ps, n, out);
	}
	ps->pos++;
	switch (c) {
	case 'd':
	case 'D':
	case 'w':
	case 'W':
		buf_addc(out, '\\');
		buf_addc(out, (char)c);
		return 0;
	case 's':
		buf_adds(out, "[" JSSCHEMA_REGEX_WS "]");
		return 0;
	case 'S':
		buf_adds(out, "[^" JSSCHEMA_REGEX_WS "]");
		return 0;
	case 'p':
	case 'P':
		return property(ps, c, out);
	case 'k':
		if (peek(ps, 0) != '<') {
			fail(ps, "invalid named reference");
			return -1;
		}
		ps->pos++;
		if (group_name(ps, &name) == -1) {
			buf_free(&name);
			return -1;
		}
		for (i = 0; i < ps->ngroups; i++)
			if (ps->names[i].len == name.len &&
			    memcmp(ps->names[i].data, name.data, name.len) == 0)
				break;
		buf_free(&name);
		if (i == ps->ngroups)
			return fail(ps, "invalid named capture referenced");
		return backref(ps, i + 1, out);
	default:
		break;
	}
	if (c >= 0x80) {
		ps->pos--;
		return fail(ps, "invalid escape");
	}
	if ((cp = char_escape(ps, c, 0)) == -1)
		return -1;
	if (is_surrogate(cp))
		buf_adds(out, "(?:(?!))");
	else
		add_cp(out, cp);
	return 0;
}

/* {n}, {n,}, {n,m} at "{"; -1 and a message when it is not one. */
static int
braces(struct parser *ps, struct buf *out)
{
	long lo, hi = -1;

	ps->pos++;
	if ((lo = decimal(ps)) == -1)
		return fail(ps, "incomplete quantifier");
	if (peek(ps, 0) == ',') {
		ps->pos++;
		if (peek(ps, 0) != '}' && (hi = decimal(ps)) == -1)
			return fail(ps, "incomplete quantifier");
		if (hi == -1)
			hi = -3;	/* open */
	} else
		hi = lo;
	if (peek(ps, 0) != '}')
		return fail(ps, "incomplete quantifier");
	ps->pos++;
	if (lo == -2 || hi == -2 || lo > 65535 || hi > 65535)
		return fail(ps, "quantifier bound above 65535 not supported");
	if (hi >= 0 && lo > hi)
		return fail(ps, "numbers out of order in {} quantifier");
	if (hi == -3)
		buf_printf(out, "{%ld,}", lo);
	else
		buf_printf(out, "{%ld,%ld}", lo, hi);
	return 0;
}

static int
quantifier(struct parser *ps, struct buf *out)
{
	int c = peek(ps, 0);

	if (c == '*' || c == '+' || c == '?') {
		buf_addc(out, (char)c);
		ps->pos++;
	} else if (c == '{') {
		if (braces(ps, out) == -1)
			return -1;
	} else
		return 0;
	if (peek(ps, 0) == '?') {
		buf_addc(out, '?');
		ps->pos++;
	}
	return 0;
}

static int	compile_sub(struct parser *, struct buf *, int);

/* A lookbehind body, "(?<=" or "(?<!" read: native or as a callout. */
static int
lookbehind(struct parser *ps, int neg, struct buf *out)
{
	struct buf body = BUF_INIT;
	int first, i, saved, rc;

	if (!ps->emulate) {
		buf_adds(out, neg ? "(?<!" : "(?<=");
		if (parse_disjunction(ps, out) == -1)
			return -1;
		if (peek(ps, 0) != ')')
			return fail(ps, "unterminated group");
		ps->pos++;
		buf_addc(out, ')');
		return 0;
	}
	first = ps->nextgroup;
	saved = ps->inbehind;
	ps->inbehind = 1;
	rc = parse_disjunction(ps, &body);
	ps->inbehind = saved;
	if (rc == -1 || peek(ps, 0) != ')') {
		buf_free(&body);
		return rc == -1 ? -1 : fail(ps, "unterminated group");
	}
	ps->pos++;
	if ((rc = compile_sub(ps, &body, neg)) != -1) {
		buf_printf(out, "(?C%d)", rc);
		/* the body's groups keep their numbers, never set */
		for (i = first; i < ps->nextgroup; i++)
			buf_adds(out, "(){0}");
	}
	buf_free(&body);
	return rc == -1 ? -1 : 0;
}

static int	group_body(struct parser *, struct buf *, int *);

/* A group or assertion at "(", JSSCHEMA_REGEX_MAX_NESTING deep at the most. */
static int
group(struct parser *ps, struct buf *out, int *quantifiable)
{
	int rc;

	if (ps->depth == JSSCHEMA_REGEX_MAX_NESTING)
		return fail(ps, "groups nested more than %d deep",
		    JSSCHEMA_REGEX_MAX_NESTING);
	ps->depth++;
	rc = group_body(ps, out, quantifiable);
	ps->depth--;
	return rc;
}

static int
group_body(struct parser *ps, struct buf *out, int *quantifiable)
{
	struct buf name = BUF_INIT;

	ps->pos++;
	*quantifiable = 1;
	if (peek(ps, 0) != '?') {
		ps->nextgroup++;
		buf_addc(out, '(');
	} else if (peek(ps, 1) == ':') {
		ps->pos += 2;
		buf_adds(out, "(?:");
	} else if (peek(ps, 1) == '=' || peek(ps, 1) == '!') {
		buf_adds(out, peek(ps, 1) == '=' ? "(?=" : "(?!");
		ps->pos += 2;
		*quantifiable = 0;
	} else if (peek(ps, 1) == '<' &&
	    (peek(ps, 2) == '=' || peek(ps, 2) == '!')) {
		ps->pos += 3;
		*quantifiable = 0;
		return lookbehind(ps, ps->p[ps->pos - 1] == '!', out);
	} else if (peek(ps, 1) == '<') {
		ps->pos += 2;
		if (group_name(ps, &name) == -1) {
			buf_free(&name);
			return -1;
		}
		buf_free(&name);
		ps->nextgroup++;
		buf_addc(out, '(');
	} else {
		ps->pos++;
		return fail(ps, "invalid group");
	}
	if (parse_disjunction(ps, out) == -1)
		return -1;
	if (peek(ps, 0) != ')')
		return fail(ps, "unterminated group");
	ps->pos++;
	buf_addc(out, ')');
	return 0;
}

static int
parse_term(struct parser *ps, struct buf *out)
{
	int c = peek(ps, 0), quantifiable = 1;
	long cp;

	switch (c) {
	case '^':
		ps->pos++;
		buf_addc(out, '^');
		return 0;
	case '$':
		ps->pos++;
		buf_adds(out, "\\z");
		return 0;
	case '\\':
		if (peek(ps, 1) == 'b' || peek(ps, 1) == 'B') {
			buf_addc(out, '\\');
			buf_addc(out, (char)peek(ps, 1));
			ps->pos += 2;
			return 0;
		}
		ps->pos++;
		if (atom_escape(ps, out) == -1)
			return -1;
		break;
	case '.':
		ps->pos++;
		buf_adds(out, "[^\\n\\r\\x{2028}\\x{2029}]");
		break;
	case '(':
		if (group(ps, out, &quantifiable) == -1)
			return -1;
		break;
	case '[':
		ps->pos++;
		if (parse_class(ps, out) == -1)
			return -1;
		break;
	case '*':
	case '+':
	case '?':
	case '{':
		return fail(ps, "nothing to repeat");
	case ']':
	case '}':
		return fail(ps, "lone quantifier brackets");
	default:
		if ((cp = next_cp(ps)) == -1)
			return -1;
		add_cp(out, cp);
		break;
	}
	if (!quantifiable)
		return 0;
	return quantifier(ps, out);
}

static int
parse_disjunction(struct parser *ps, struct buf *out)
{
	for (;;) {
		while (peek(ps, 0) != -1 && peek(ps, 0) != '|' &&
		    peek(ps, 0) != ')')
			if (parse_term(ps, out) == -1)
				return -1;
		if (peek(ps, 0) != '|')
			return 0;
		ps->pos++;
		buf_addc(out, '|');
	}
}

/*
 * Counts the capture groups and notes their names, so that \3 and
 * \k<name> may look ahead of themselves, as ECMA-262 allows.
 */
static int
prescan(struct parser *ps)
{
	size_t i, cap = 0, j, start;
	int inclass = 0;
	const char *p = ps->p;

	for (i = 0; i < ps->len; i++) {
		if (p[i] == '\\') {
			i++;
			continue;
		}
		if (inclass) {
			if (p[i] == ']')
				inclass = 0;
			continue;
		}
		if (p[i] == '[') {
			inclass = 1;
			continue;
		}
		if (p[i] != '(')
			continue;
		if (i + 1 < ps->len && p[i + 1] == '?' && !(i + 2 < ps->len &&
		    p[i + 2] == '<' && i + 3 < ps->len && p[i + 3] != '=' &&
		    p[i + 3] != '!'))
			continue;
		if ((size_t)ps->ngroups == cap) {
			cap = cap ? cap * 2 : 8;
			ps->names = xreallocarray(ps->names, cap,
			    sizeof(*ps->names));
		}
		memset(&ps->names[ps->ngroups], 0, sizeof(*ps->names));
		if (i + 1 < ps->len && p[i + 1] == '?') {
			start = i + 3;
			for (j = start; j < ps->len && p[j] != '>'; j++)
				;
			buf_add(&ps->names[ps->ngroups], p + start,
			    j - start);
			for (j = 0; j < (size_t)ps->ngroups; j++)
				if (ps->names[j].len == ps->names[ps->ngroups].len &&
				    ps->names[j].len > 0 && memcmp(ps->names[j].data,
				    ps->names[ps->ngroups].data,
				    ps->names[j].len) == 0) {
					ps->ngroups++;
					ps->pos = i;
					return fail(ps, "duplicate capture group "
					    "name");
				}
		}
		ps->ngroups++;
		if (ps->ngroups > 65535) {
			ps->pos = i;
			return fail(ps, "too many capture groups");
		}
	}
	return 0;
}

/*
 * With callouts, PCRE2 must not make a repeat possessive across one: the
 * callouts decide what matches. (Skipping start positions that cannot
 * match is still right: a callout only ever takes matches away.)
 */
static pcre2_code *
pcre_compile(struct buf *pat, int emulate, int *ec, PCRE2_SIZE *off)
{
	pcre2_compile_context *cctx;
	pcre2_code *code;

	if ((cctx = jss_pcre.compile_context_create(NULL)) == NULL)
		xalloc_die();
	/* the translation adds a few groups around classes and bodies */
	jss_pcre.set_parens_nest_limit(cctx, JSSCHEMA_REGEX_MAX_NESTING + 8);
	code = jss_pcre.compile((PCRE2_SPTR)(pat->data != NULL ?
	    pat->data : ""), pat->len, JSSCHEMA_REGEX_OPTIONS |
	    (emulate ? PCRE2_NO_AUTO_POSSESS : 0), ec, off, cctx);
	jss_pcre.compile_context_free(cctx);
	return code;
}

/* Compiles an emulated lookbehind's body; its callout number, or -1. */
static int
compile_sub(struct parser *ps, struct buf *body, int neg)
{
	struct buf pat = BUF_INIT;
	struct jsschema_regex *re = ps->re;
	pcre2_code *code;
	PCRE2_SIZE off;
	int ec;

	if (re->nsubs == JSSCHEMA_REGEX_MAXSUB)
		return fail(ps, "too many variable-length lookbehinds");
	buf_printf(&pat, "(?:%.*s)(?C%d)", (int)body->len,
	    body->data != NULL ? body->data : "", JSSCHEMA_REGEX_END);
	code = pcre_compile(&pat, 1, &ec, &off);
	buf_free(&pat);
	if (code == NULL)
		return fail(ps, "pcre2 refuses a lookbehind (error %d)", ec);
	re->subs = xreallocarray(re->subs, re->nsubs + 1, sizeof(*re->subs));
	re->subs[re->nsubs].code = code;
	re->subs[re->nsubs].neg = neg;
	return (int)++re->nsubs;
}

/* Translates the whole pattern; 0, or -1 with ps's message. */
static int
translate(struct parser *ps, struct buf *out)
{
	ps->pos = 0;
	ps->nextgroup = 0;
	ps->depth = 0;
	if (parse_disjunction(ps, out) == -1)
		return -1;
	if (peek(ps, 0) == ')')
		return fail(ps, "unmatched )");
	return 0;
}

void
jsschema_regex_free(struct jsschema_regex *re)
{
	size_t i;

	if (re == NULL)
		return;
	for (i = 0; i < re->nsubs; i++)
		jss_pcre.code_free(re->subs[i].code);
	free(re->subs);
	jss_pcre.code_free(re->code);
	jss_pcre.match_context_free(re->mctx);
	free(re);
}

const char *
jsschema_regex_trouble(void)
{
	return jss_pcre_trouble();
}

struct jsschema_regex *
jsschema_regex_compile(const char *p, size_t len, char *err, size_t errlen)
{
	struct parser ps;
	struct buf out = BUF_INIT;
	struct jsschema_regex *re;
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE off;
	int ec, i;

	if (errlen > 0)
		err[0] = '\0';
	/* loaded before the pattern is read: reading it asks PCRE2 too */
	if (jss_pcre_load() != 0) {
		if (errlen > 0)
			snprintf(err, errlen, "%s", jss_pcre_trouble());
		return NULL;
	}
	memset(&ps, 0, sizeof(ps));
	ps.p = p;
	ps.len = len;
	ps.err = err;
	ps.errlen = errlen;
	re = xcalloc(1, sizeof(*re));
	ps.re = re;
	if (prescan(&ps) == -1 || translate(&ps, &out) == -1)
		goto bad;
	re->code = pcre_compile(&out, 0, &ec, &off);
	if (re->code == NULL && (ec == PCRE2_ERROR_LOOKBEHIND_NOT_FIXED_LENGTH ||
	    ec == PCRE2_ERROR_LOOKBEHIND_TOO_COMPLICATED ||
	    ec == PCRE2_ERROR_LOOKBEHIND_TOO_LONG)) {
		buf_reset(&out);
		ps.emulate = 1;
		if (translate(&ps, &out) == -1)
			goto bad;
		re->code = pcre_compile(&out, 1, &ec, &off);
	}
	if (re->code == NULL) {
		jss_pcre.get_error_message(ec, msg, sizeof(msg));
		ps.pos = len;
		fail(&ps, "pcre2: %s", (const char *)msg);
		goto bad;
	}
	/* the bodies of lookbehinds run anchored, which JIT does not do */
	if (jsschema_regex_jit)
		(void)jss_pcre.jit_compile(re->code, PCRE2_JIT_COMPLETE);
	if ((re->mctx = jss_pcre.match_context_create(NULL)) == NULL)
		xalloc_die();
	goto out;
bad:
	jsschema_regex_free(re);
	re = NULL;
out:
	for (i = 0; i < ps.ngroups; i++)
		buf_free(&ps.names[i]);
	free(ps.names);
	buf_free(&out);
	return re;
}

/* The state of one search, for the callouts of emulated lookbehinds. */
struct search {
	const struct jsschema_regex	*re;
	pcre2_match_context	*mctx;
	PCRE2_SIZE		 target;	/* where a body must end */
	unsigned long		 tries;		/* of bodies so far */
	int			 error;
};

/*
 * A lookbehind at the current position: does its body match some
 * stretch of the subject that ends here? 0 goes on, 1 backtracks.
 */
static int
callout(pcre2_callout_block *cb, void *data)
{
	struct search *st = data;
	const struct jsschema_regex_sub *sub;
	pcre2_match_data *md;
	PCRE2_SIZE k, here = cb->current_position, saved;
	int rc, found = 0;

	if (cb->callout_number == JSSCHEMA_REGEX_END)
		return cb->current_position == st->target ? 0 : 1;
	if (cb->callout_number == 0 || cb->callout_number > st->re->nsubs)
		return PCRE2_ERROR_CALLOUT;
	sub = &st->re->subs[cb->callout_number - 1];
	if ((md = jss_pcre.match_data_create(1, NULL)) == NULL)
		xalloc_die();
	saved = st->target;
	for (k = here + 1; k-- > 0;) {
		if (k < cb->subject_length && (cb->subject[k] & 0xC0) == 0x80)
			continue;
		if (++st->tries > JSSCHEMA_REGEX_BEHIND_LIMIT) {
			st->error = 1;
			break;
		}
		st->target = here;
		rc = jss_pcre.match(sub->code, cb->subject, cb->subject_length,
		    k, PCRE2_ANCHORED | PCRE2_NO_UTF_CHECK, md, st->mctx);
		if (rc >= 0) {
			found = 1;
			break;
		}
		if (rc != PCRE2_ERROR_NOMATCH) {
			st->error = 1;
			break;
		}
	}
	st->target = saved;
	jss_pcre.match_data_free(md);
	if (st->error)
		return PCRE2_ERROR_CALLOUT;
	return found != sub->neg ? 0 : 1;
}

/* A budget of base plus per_byte for each byte of len, saturated. */
static uint32_t
budget(uint32_t base, uint32_t per_byte, size_t len)
{
	if (len > (UINT32_MAX - base) / per_byte)
		return UINT32_MAX;
	return base + per_byte * (uint32_t)len;
}

/* One run of the pattern over s; PCRE2's return code. */
static int
run(const struct jsschema_regex *re, pcre2_match_context *mctx, const char *s,
    size_t len)
{
	pcre2_match_data *md;
	struct search st;
	int rc;

	if ((md = jss_pcre.match_data_create_from_pattern(re->code, NULL)) ==
	    NULL)
		xalloc_die();
	memset(&st, 0, sizeof(st));
	st.re = re;
	st.mctx = mctx;
	if (re->nsubs > 0)
		jss_pcre.set_callout(mctx, callout, &st);
	rc = jss_pcre.match(re->code, (PCRE2_SPTR)(s != NULL ? s : ""), len, 0,
	    0, md, mctx);
	jss_pcre.match_data_free(md);
	return rc;
}

/*
 * JIT first, on its small default stack; a search that needs more
 * stack is run again on one that grows with the subject. Without JIT
 * the interpreter keeps its backtracking frames on the heap, as deep as
 * the depth limit lets it.
 */
int
jsschema_regex_search(const struct jsschema_regex *re, const char *s, size_t len)
{
	pcre2_match_context *mctx;
	pcre2_jit_stack *stack;
	size_t max;
	int rc;

	if ((mctx = jss_pcre.match_context_copy(re->mctx)) == NULL)
		xalloc_die();
	jss_pcre.set_match_limit(mctx, budget(JSSCHEMA_REGEX_MATCH_LIMIT,
	    JSSCHEMA_REGEX_MATCH_PER_BYTE, len));
	jss_pcre.set_depth_limit(mctx, budget(JSSCHEMA_REGEX_DEPTH_LIMIT,
	    JSSCHEMA_REGEX_DEPTH_PER_BYTE, len));
	rc = run(re, mctx, s, len);
	if (rc == PCRE2_ERROR_JIT_STACKLIMIT) {
		max = len > (SIZE_MAX / 2 - JSSCHEMA_REGEX_JIT_STACK_BASE) /
		    JSSCHEMA_REGEX_JIT_STACK_PER_BYTE ? SIZE_MAX / 2 :
		    JSSCHEMA_REGEX_JIT_STACK_BASE + JSSCHEMA_REGEX_JIT_STACK_PER_BYTE * len;
		stack = jss_pcre.jit_stack_create(32 * 1024, max, NULL);
		if (stack != NULL) {
			jss_pcre.jit_stack_assign(mctx, NULL, stack);
			rc = run(re, mctx, s, len);
			jss_pcre.jit_stack_free(stack);
		}
	}
	jss_pcre.match_context_free(mctx);
	if (rc >= 0)
		return 1;
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	return -1;
}
