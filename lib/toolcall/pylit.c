/* pylit: Python literals into jansson values, as literal_eval reads them. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/jsonw.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "toolcall/pylit.h"
#include "toolcall/pylit_int.h"

/* A number as the tokenizer sees it; its digits are in p->num. */
struct numtok {
	size_t	end;
	int	base;
	int	isfloat;
	int	imag;
};

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* The value of c as a digit of base (up to 16), or -1. */
static int
digit_of(int c, int base)
{
	int d;

	if (is_digit(c))
		d = c - '0';
	else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
		d = (c | 0x20) - 'a' + 10;
	else
		return -1;
	return d < base ? d : -1;
}

/* A buffer's bytes, never NULL: jansson takes NULL for no string. */
static const char *
bytes(const struct buf *b)
{
	return b->data != NULL ? b->data : "";
}

json_t *
pylit_need(json_t *v)
{
	if (v == NULL)
		xalloc_die();
	return v;
}

static void
append(json_t *a, json_t *v)
{
	if (json_array_append_new(a, v) != 0)
		xalloc_die();
}

/* The first error is the one reported; those of the unwinding are not. */
void
pylit_fail(struct pylit_p *p, size_t off, const char *rule, const char *fmt,
    ...)
{
	struct pylit_error *err = p->err;
	va_list ap;

	if (p->failed)
		return;
	p->failed = 1;
	err->offset = off;
	err->first = PYLIT_NOPOS;
	err->key[0] = err->note[0] = '\0';
	err->noun = NULL;
	snprintf(err->rule, sizeof(err->rule), "%s", rule);
	va_start(ap, fmt);
	vsnprintf(err->text, sizeof(err->text), fmt, ap);
	va_end(ap);
}

static void
bad_utf8(struct pylit_p *p, size_t off)
{
	pylit_fail(p, off, "utf8", "invalid UTF-8: byte 0x%02x at byte offset "
	    "%zu", (unsigned char)p->s[off], off);
}

/*
 * Something other than what was due at off: says what was found there
 * (a NUL byte and invalid UTF-8 have errors of their own).
 */
void
pylit_expected(struct pylit_p *p, size_t off, const char *prefix,
    const char *what)
{
	unsigned char c;
	uint32_t cp;
	char at[24];

	if (off >= p->n) {
		pylit_fail(p, off, "py-syntax", "%s: expected %s, found the "
		    "end of the text", prefix, what);
		return;
	}
	c = (unsigned char)p->s[off];
	if (c == '\0') {
		pylit_fail(p, off, "py-syntax", "%s: NUL byte", prefix);
		return;
	}
	if (c >= 0x80 && utf8_decode(p->s + off, p->n - off, &cp) == 0) {
		bad_utf8(p, off);
		return;
	}
	if (c == '\n' || c == '\r')
		snprintf(at, sizeof(at), "the end of the line");
	else if (c < 0x20 || c == 0x7F)
		snprintf(at, sizeof(at), "U+%04X", c);
	else if (c < 0x80)
		snprintf(at, sizeof(at), "'%c'", c);
	else
		snprintf(at, sizeof(at), "U+%04X", (unsigned)cp);
	pylit_fail(p, off, "py-syntax", "%s: expected %s, found %s", prefix,
	    what, at);
}

static void
sign_error(struct pylit_p *p, int sign)
{
	pylit_fail(p, p->signoff, "py-syntax", LIT ": a sign (%c) applies only "
	    "to a number", sign);
}

/* A list, dict or set where Python must hash the value (a key, an element). */
static void
unhashable(struct pylit_p *p, size_t off, const char *what)
{
	pylit_fail(p, off, "py-syntax", LIT ": %s is not hashable (a set "
	    "element or dictionary key must be)", what);
}

/*
 * Past blanks, comments and backslashes before a newline, and with nl
 * newlines too. A comment with a NUL byte or invalid UTF-8 is an error,
 * or with quiet where the skip stops (text after a literal is not ours).
 */
int
pylit_blanks(struct pylit_p *p, int nl, int quiet)
{
	const char *s = p->s;
	size_t n = p->n, i = p->pos, k, len;
	uint32_t cp;

	while (i < n) {
		if (s[i] == ' ' || s[i] == '\t' || s[i] == '\f' ||
		    (nl && (s[i] == '\n' || s[i] == '\r')))
			i++;
		else if (s[i] == '\\' && i + 1 < n &&
		    (s[i + 1] == '\n' || s[i + 1] == '\r'))
			i += s[i + 1] == '\r' && i + 2 < n && s[i + 2] == '\n' ?
			    3 : 2;
		else if (s[i] == '#') {
			for (k = i + 1; k < n && s[k] != '\n' && s[k] != '\r';
			    k += len) {
				len = 1;
				if ((unsigned char)s[k] < 0x80 && s[k] != '\0')
					continue;
				if (s[k] != '\0' && (len = utf8_decode(s + k,
				    n - k, &cp)) != 0)
					continue;
				p->pos = i;
				if (quiet)
					return 0;
				if (s[k] == '\0')
					pylit_fail(p, k, "py-syntax",
					    LIT ": NUL byte");
				else
					bad_utf8(p, k);
				return -1;
			}
			i = k;
		} else
			break;
	}
	p->pos = i;
	return 0;
}

/*
 * The offset just past blanks, newlines, comments and backslashes before
 * a newline from off on: where the next token is (a comment that is not
 * UTF-8, or holds a NUL byte, is not skipped).
 */
size_t
pylit_skip(const char *s, size_t n, size_t off)
{
	struct pylit_p p;

	memset(&p, 0, sizeof(p));
	p.s = s;
	p.n = n;
	p.pos = off < n ? off : n;
	pylit_blanks(&p, 1, 1);
	return p.pos;
}

/* Decimal digits with single '_' between them, onto p->num. */
static int
digits(struct pylit_p *p, size_t *ip, int quiet)
{
	const char *s = p->s;
	size_t n = p->n, i = *ip;

	while (i < n && is_digit(s[i])) {
		buf_addc(&p->num, s[i++]);
		if (i < n && s[i] == '_') {
			if (i + 1 >= n || !is_digit(s[i + 1])) {
				if (!quiet)
					pylit_fail(p, i, "py-syntax",
					    LIT ": invalid decimal literal");
				return -1;
			}
			i++;
		}
	}
	*ip = i;
	return 0;
}

/*
 * The number token at at (a digit, or a '.' before one), as Python's
 * tokenizer reads it; its digits, without '_' and base prefix, go to
 * p->num as a C string. quiet: only say whether it is one.
 */
static int
lex_number(struct pylit_p *p, size_t at, struct numtok *t, int quiet)
{
	static const char *const names[] = { "binary", "octal", "hexadecimal" };
	const char *s = p->s, *name;
	size_t n = p->n, i = at, nd = 0, z;
	int under;

	buf_reset(&p->num);
	t->base = 10;
	t->isfloat = t->imag = 0;
	if (s[i] == '0' && i + 1 < n && s[i + 1] != '\0' &&
	    strchr("xXoObB", s[i + 1]) != NULL) {
		t->base = (s[i + 1] | 0x20) == 'x' ? 16 :
		    (s[i + 1] | 0x20) == 'o' ? 8 : 2;
		name = names[t->base == 16 ? 2 : t->base == 8];
		for (i += 2;; i++, nd++) {
			under = i < n && s[i] == '_';
			i += under;
			if (i < n && digit_of(s[i], t->base) >= 0) {
				buf_addc(&p->num, s[i]);
				continue;
			}
			if (i < n && is_digit(s[i])) {
				if (!quiet)
					pylit_fail(p, i, "py-syntax", LIT ": "
					    "invalid digit '%c' in %s literal",
					    s[i], name);
				return -1;
			}
			if (under || nd == 0)
				goto bad;
			break;
		}
		if (i < n && pylit_ident(s[i]))
			goto bad;
		t->end = i;
		buf_addc(&p->num, '\0');
		p->num.len--;
		return 0;
	}
	name = "decimal";
	if (digits(p, &i, quiet) < 0)
		return -1;
	if (i < n && s[i] == '.') {
		t->isfloat = 1;
		buf_addc(&p->num, s[i++]);
		if (digits(p, &i, quiet) < 0)
			return -1;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		t->isfloat = 1;
		buf_addc(&p->num, 'e');
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			buf_addc(&p->num, s[i++]);
		if (i >= n || !is_digit(s[i]) || digits(p, &i, quiet) < 0)
			goto bad;
	}
	if (i < n && (s[i] == 'j' || s[i] == 'J')) {
		t->imag = 1;
		i++;
	}
	if (i < n && pylit_ident(s[i]))
		goto bad;
	if (!t->isfloat && !t->imag && p->num.data[0] == '0') {
		for (z = 0; z < p->num.len && p->num.data[z] == '0'; z++)
			;
		if (z < p->num.len) {
			if (!quiet)
				pylit_fail(p, at, "py-syntax", LIT ": leading "
				    "zeros in a decimal integer (0o is octal)");
			return -1;
		}
	}
	t->end = i;
	buf_addc(&p->num, '\0');
	p->num.len--;
	return 0;
bad:
	if (!quiet && !p->failed)
		pylit_fail(p, i, "py-syntax", LIT ": invalid %s literal", name);
	return -1;
}

/*
 * The digits d[0..len) of base 2, 8 or 16 (no leading zero) in decimal,
 * onto out; -1 past PYLIT_MAX_DIGITS digits, seen before the work.
 */
static int
to_decimal(const char *d, size_t len, int base, struct buf *out)
{
	uint32_t *limb;
	uint64_t cur;
	size_t nl = 1, i, k, bits = base == 16 ? 4 : base == 8 ? 3 : 1;
	size_t start = out->len;
	int v;

	/* at least (len - 1) * bits bits: at least that * log10(2) digits */
	if ((len - 1) * bits * 30103 / 100000 >= PYLIT_MAX_DIGITS)
		return -1;
	limb = xcalloc(len * bits / 29 + 2, sizeof(*limb));
	for (i = 0; i < len; i++) {
		v = digit_of(d[i], base);
		cur = (uint64_t)v;
		for (k = 0; k < nl; k++) {
			cur += (uint64_t)limb[k] * (uint64_t)base;
			limb[k] = (uint32_t)(cur % 1000000000);
			cur /= 1000000000;
		}
		if (cur != 0)
			limb[nl++] = (uint32_t)cur;
	}
	buf_printf(out, "%u", limb[nl - 1]);
	for (k = nl - 1; k-- > 0;)
		buf_printf(out, "%09u", limb[k]);
	free(limb);
	return out->len - start > PYLIT_MAX_DIGITS ? -1 : 0;
}

static void
too_long(struct pylit_p *p, size_t off)
{
	pylit_fail(p, off, "py-type", LIT ": an integer of more than %d digits "
	    "(Python's limit)", PYLIT_MAX_DIGITS);
}

/* The int whose digits are in p->num: an integer in 64 bits, else text. */
static json_t *
integer(struct pylit_p *p, const struct numtok *t, int sign, size_t start,
    struct buf *canon)
{
	static const char max[] = "9223372036854775807";
	static const char min[] = "9223372036854775808";
	const char *d = p->num.data;
	size_t len = p->num.len, i;
	uint64_t u = 0;
	struct buf big = BUF_INIT;
	json_int_t v;
	json_t *j;
	int dv, over = 0;

	while (len > 1 && *d == '0')
		d++, len--;
	if (t->base == 10)
		over = len > 19 || (len == 19 &&
		    memcmp(d, sign == '-' ? min : max, 19) > 0);
	for (i = 0; !over && i < len; i++) {
		dv = digit_of(d[i], t->base);
		if (u > (UINT64_MAX - (uint64_t)dv) / (uint64_t)t->base)
			over = 1;
		else
			u = u * (uint64_t)t->base + (uint64_t)dv;
	}
	if (!over && u > (uint64_t)INT64_MAX + (sign == '-'))
		over = 1;
	if (!over) {
		if (sign == '-')
			v = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN :
			    -(json_int_t)u;
		else
			v = (json_int_t)u;
		if (canon != NULL) {
			/* no printf: a set of many numbers makes many */
			buf_add(canon, v < 0 ? "i-" : "i", v < 0 ? 2 : 1);
			buf_addu(canon, v < 0 ? -(unsigned long long)v :
			    (unsigned long long)v);
			buf_addc(canon, ';');
		}
		return pylit_need(json_integer(v));
	}
	/* beyond 64 bits: its decimal digits, as a string */
	if (sign == '-')
		buf_addc(&big, '-');
	if (t->base == 10 && len <= PYLIT_MAX_DIGITS)
		buf_add(&big, d, len);
	else if (t->base == 10 || to_decimal(d, len, t->base, &big) < 0) {
		buf_free(&big);
		too_long(p, start);
		return NULL;
	}
	if (canon != NULL) {
		buf_addc(canon, 'i');
		buf_add(canon, big.data, big.len);
		buf_addc(canon, ';');
	}
	j = pylit_need(json_stringn_nocheck(big.data, big.len));
	buf_free(&big);
	return j;
}

/* The number at p->pos, with sign ('+', '-' or 0) before it. */
static json_t *
number(struct pylit_p *p, int sign, struct buf *canon, enum pylit_kind *kind)
{
	struct numtok t;
	size_t at = p->pos, start = sign ? p->signoff : at, len;
	double x;

	if (lex_number(p, at, &t, 0) < 0)
		return NULL;
	if (t.imag) {
		pylit_fail(p, start, "py-type", LIT ": a complex number cannot "
		    "be held in JSON");
		return NULL;
	}
	p->pos = t.end;
	if (!t.isfloat) {
		*kind = K_INT;
		return integer(p, &t, sign, start, canon);
	}
	x = strtod(p->num.data, NULL);
	if (isinf(x)) {
		len = t.end - at;
		pylit_fail(p, start, "py-type", LIT ": the number %s%.*s%s is "
		    "beyond the largest double, 1.7976931348623157e308",
		    sign == '-' ? "-" : "", (int)(len > 40 ? 37 : len),
		    p->s + at, len > 40 ? "..." : "");
		return NULL;
	}
	if (sign == '-')
		x = -x;
	if (canon != NULL) {
		/* Python's 1.0 == 1: an integral float hashes as the int */
		if (x == 0)
			buf_adds(canon, "i0;");
		else if (x == floor(x))
			buf_printf(canon, "i%.0f;", x);
		else
			buf_printf(canon, "f%.17g;", x);
	}
	*kind = K_FLOAT;
	return pylit_need(json_real(x));
}

static int
lone(struct pylit_p *p)
{
	pylit_fail(p, p->hioff, "py-type", LIT ": the escape \\u%04x is half "
	    "of a surrogate pair, which UTF-8 cannot hold alone",
	    (unsigned)p->hi);
	return -1;
}

/* Appends code point cp, which the escape at off wrote. */
static int
put_cp(struct pylit_p *p, uint32_t cp, size_t off)
{
	char u8[4];

	if (p->hi != 0) {
		if (cp < 0xDC00 || cp > 0xDFFF)
			return lone(p);
		cp = 0x10000 + ((p->hi - 0xD800) << 10) + (cp - 0xDC00);
		p->hi = 0;
	} else if (cp >= 0xD800 && cp <= 0xDFFF) {
		p->hi = cp;
		p->hioff = off;
		if (cp >= 0xDC00)
			return lone(p);
		return 0;
	}
	buf_add(&p->str, u8, utf8_encode(cp, u8));
	return 0;
}

/* Bytes of the text itself onto the string. */
static int
put(struct pylit_p *p, const char *s, size_t n)
{
	if (p->hi != 0)
		return lone(p);
	buf_add(&p->str, s, n);
	return 0;
}

/* The escape at s[*ip] (a backslash) of a string that is not raw. */
static int
escape(struct pylit_p *p, size_t *ip)
{
	static const char simple[] = "\\\\''\"\"a\ab\bf\fn\nr\rt\tv\v";
	const char *s = p->s, *x;
	size_t n = p->n, at = *ip, i = at + 1, want, k;
	uint32_t cp = 0;
	int d;

	if ((x = strchr(simple, s[i])) != NULL && s[i] != '\0' &&
	    (x - simple) % 2 == 0) {
		*ip = i + 1;
		return put(p, x + 1, 1);
	}
	if (s[i] >= '0' && s[i] <= '7') {
		for (k = 0; k < 3 && i < n && s[i] >= '0' && s[i] <= '7'; k++)
			cp = cp * 8 + (uint32_t)(s[i++] - '0');
		*ip = i;
		return put_cp(p, cp, at);
	}
	switch (s[i]) {
	case 'x':
		want = 2;
		break;
	case 'u':
		want = 4;
		break;
	case 'U':
		want = 8;
		break;
	case 'N':
		pylit_fail(p, at, "py-syntax", LIT ": \\N{...} escapes "
		    "(characters by name) are not supported");
		return -1;
	default:
		/* kept as written, backslash and all; the next is read anew */
		*ip = i;
		return put(p, "\\", 1);
	}
	for (k = 0, i++; k < want; k++, i++) {
		if (i >= n || (d = digit_of(s[i], 16)) < 0) {
			pylit_fail(p, at, "py-syntax", LIT ": truncated \\%c%s "
			    "escape", s[at + 1], want == 2 ? "XX" : want == 4 ?
			    "XXXX" : "XXXXXXXX");
			return -1;
		}
		cp = cp * 16 + (uint32_t)d;
	}
	if (cp > 0x10FFFF) {
		pylit_fail(p, at, "py-syntax", LIT ": the escape \\U%08x is "
		    "beyond U+10FFFF", (unsigned)cp);
		return -1;
	}
	*ip = i;
	return put_cp(p, cp, at);
}

/* Whether a string literal starts at i: a quote, or a prefix and one. */
static int
string_starts(const char *s, size_t n, size_t i)
{
	size_t k;

	for (k = 0; k < 3 && i + k < n; k++) {
		if (s[i + k] == '\'' || s[i + k] == '"')
			return 1;
		if (s[i + k] == '\0' || strchr("rRuUbBfFtT", s[i + k]) == NULL)
			return 0;
	}
	return 0;
}

/* Its prefix (letters before the quote at q): raw, or an error. */
static int
prefix(struct pylit_p *p, size_t at, size_t q)
{
	int raw = 0, u = 0, b = 0, f = 0, t = 0, twice = 0;
	size_t i;

	for (i = at; i < q; i++)
		switch (p->s[i] | 0x20) {
		case 'r':
			twice |= raw++;
			break;
		case 'u':
			twice |= u++;
			break;
		case 'b':
			twice |= b++;
			break;
		case 'f':
			twice |= f++;
			break;
		default:
			twice |= t++;
			break;
		}
	if (twice || (u && q - at > 1) || b + f + t > 1) {
		pylit_fail(p, at, "py-syntax", LIT ": invalid string prefix "
		    "'%.*s'", (int)(q - at), p->s + at);
		return -1;
	}
	if (b)
		pylit_fail(p, at, "py-type", LIT ": a bytes literal cannot be "
		    "held in JSON");
	else if (f)
		pylit_fail(p, at, "py-syntax", LIT ": an f-string is not a "
		    "literal");
	else if (t)
		pylit_fail(p, at, "py-syntax", LIT ": a t-string is not a "
		    "literal");
	return b || f || t ? -1 : raw;
}

/* One string literal at p->pos (its prefix too), decoded onto p->str. */
static int
piece(struct pylit_p *p)
{
	const char *s = p->s;
	size_t n = p->n, at = p->pos, i = at, k, len;
	int raw, triple;
	uint32_t cp;
	char q, c, e;

	while (s[i] != '\'' && s[i] != '"')
		i++;
	if ((raw = prefix(p, at, i)) < 0)
		return -1;
	q = s[i];
	triple = i + 2 < n && s[i + 1] == q && s[i + 2] == q;
	i += triple ? 3 : 1;
	for (;;) {
		/* a run of plain bytes at once: most of any long string */
		k = pylit_plain(s, i, n, q, 1);
		if (k > i && put(p, s + i, k - i) < 0)
			return -1;
		if ((i = k) >= n)
			break;
		c = s[i];
		if (c == q) {
			if (!triple) {
				p->pos = i + 1;
				return 0;
			}
			if (i + 2 < n && s[i + 1] == q && s[i + 2] == q) {
				p->pos = i + 3;
				return 0;
			}
			if (put(p, &q, 1) < 0)
				return -1;
			i++;
		} else if (c == '\n' || c == '\r') {
			if (!triple)
				break;
			/* Python reads CR LF and CR as LF */
			if (put(p, "\n", 1) < 0)
				return -1;
			i += c == '\r' && i + 1 < n && s[i + 1] == '\n' ? 2 : 1;
		} else if ((unsigned char)c >= 0x80) {
			if ((len = utf8_decode(s + i, n - i, &cp)) == 0) {
				bad_utf8(p, i);
				return -1;
			}
			if (put(p, s + i, len) < 0)
				return -1;
			i += len;
		} else if (i + 1 >= n) {
			break;
		} else if ((e = s[i + 1]) == '\n' || e == '\r') {
			/* a backslash before a newline joins the lines */
			if (raw && put(p, "\\\n", 2) < 0)
				return -1;
			i += e == '\r' && i + 2 < n && s[i + 2] == '\n' ? 3 : 2;
		} else if (raw) {
			/* kept; a quote or backslash after it ends nothing */
			if (put(p, "\\", 1) < 0)
				return -1;
			i++;
			if (e == q || e == '\\') {
				buf_addc(&p->str, e);
				i++;
			}
		} else if (escape(p, &i) < 0)
			return -1;
	}
	pylit_fail(p, at, "py-syntax", LIT ": unterminated %sstring",
	    triple ? "triple-quoted " : "");
	return -1;
}

/* A string at p->pos: the literals there, joined. */
static json_t *
string(struct pylit_p *p, int nl, struct buf *canon, enum pylit_kind *kind)
{
	size_t end;

	buf_reset(&p->str);
	p->hi = 0;
	for (;;) {
		if (piece(p) < 0)
			return NULL;
		end = p->pos;
		pylit_blanks(p, nl, 1);
		if (!string_starts(p->s, p->n, p->pos)) {
			p->pos = end;
			break;
		}
	}
	if (p->hi != 0) {
		lone(p);
		return NULL;
	}
	if (canon != NULL) {
		buf_addc(canon, 's');
		buf_addu(canon, p->str.len);
		buf_addc(canon, ':');
		buf_add(canon, p->str.data, p->str.len);
	}
	*kind = K_STR;
	return pylit_need(json_stringn_nocheck(bytes(&p->str), p->str.len));
}

/* A name at p->pos: None, True, False, set(), a string's prefix, or wrong. */
static json_t *
name(struct pylit_p *p, size_t depth, int sign, struct buf *canon,
    enum pylit_kind *kind)
{
	const char *s = p->s, *w;
	size_t at = p->pos, i = at, len;

	while (i < p->n && pylit_ident(s[i]))
		i++;
	len = i - at;
	if (len <= 2 && string_starts(s, p->n, at)) {
		if (sign)
			goto sign_err;
		return string(p, depth > 1, canon, kind);
	}
	w = s + at;
	if ((len == 4 && memcmp(w, "None", 4) == 0) ||
	    (len == 4 && memcmp(w, "True", 4) == 0) ||
	    (len == 5 && memcmp(w, "False", 5) == 0)) {
		if (sign)
			goto sign_err;
		p->pos = i;
		*kind = *w == 'N' ? K_NONE : K_BOOL;
		if (canon != NULL)
			buf_adds(canon, *w == 'N' ? "N" : *w == 'T' ? "i1;" :
			    "i0;");
		return pylit_need(*w == 'N' ? json_null() : *w == 'T' ?
		    json_true() : json_false());
	}
	p->pos = i;
	pylit_blanks(p, depth > 1, 1);
	if (p->pos < p->n && s[p->pos] == '(') {
		if (len == 3 && memcmp(w, "set", 3) == 0) {
			p->pos++;
			if (pylit_blanks(p, 1, 0) < 0)
				return NULL;
			if (p->pos < p->n && s[p->pos] == ')') {
				if (sign)
					goto sign_err;
				if (canon != NULL) {
					unhashable(p, at, "a set");
					return NULL;
				}
				p->pos++;
				*kind = K_SET;
				return pylit_need(json_array());
			}
		}
		pylit_fail(p, at, "py-syntax", LIT ": a call of '%.*s%s' is "
		    "not a literal%s", (int)(len > 40 ? 37 : len), w,
		    len > 40 ? "..." : "", len == 3 &&
		    memcmp(w, "set", 3) == 0 ? " (set() alone is)" : "");
		return NULL;
	}
	if ((len == 4 && memcmp(w, "true", 4) == 0) ||
	    (len == 5 && memcmp(w, "false", 5) == 0) ||
	    (len == 4 && memcmp(w, "null", 4) == 0))
		pylit_fail(p, at, "py-syntax", LIT ": '%.*s' is JSON; Python "
		    "writes %s", (int)len, w, *w == 't' ? "True" : *w == 'f' ?
		    "False" : "None");
	else
		pylit_fail(p, at, "py-syntax", LIT ": the name '%.*s%s' is not "
		    "a literal", (int)(len > 40 ? 37 : len), w,
		    len > 40 ? "..." : "");
	return NULL;
sign_err:
	sign_error(p, sign);
	return NULL;
}

/* Whether an imaginary number (2j) comes at i, after blanks. */
static int
imaginary(struct pylit_p *p, size_t i, int nl)
{
	struct numtok t;
	size_t save = p->pos;

	p->pos = i;
	pylit_blanks(p, nl, 1);
	i = p->pos;
	p->pos = save;
	if (i >= p->n || !(is_digit(p->s[i]) || (p->s[i] == '.' &&
	    i + 1 < p->n && is_digit(p->s[i + 1]))))
		return 0;
	return lex_number(p, i, &t, 1) == 0 && t.imag;
}

/*
 * Past the blanks after a value of kind k (at vat), at what must be a
 * separator, a closing bracket or (at the top, nl 0) the end of the
 * literal, where p->pos stays. An operator there would make the text an
 * expression (1+2, 'a'*3, [1][0]), which is no literal: an error.
 */
int
pylit_after(struct pylit_p *p, int nl, enum pylit_kind k, size_t vat)
{
	static const char *const two[] = {
		"**", "//", "<<", ">>", "<=", ">=", "==", "!=", "->"
	};
	const char *s = p->s;
	size_t i, save = p->pos, j;
	char c;

	if (pylit_blanks(p, nl, !nl) < 0)
		return -1;
	i = p->pos;
	if (!nl)
		p->pos = save;
	if (i >= p->n)
		return 0;
	c = s[i];
	if (c == '\0') {
		pylit_fail(p, i, "py-syntax", LIT ": NUL byte");
		return -1;
	}
	if ((c == '+' || c == '-') && (k == K_INT || k == K_FLOAT) &&
	    imaginary(p, i + 1, nl)) {
		pylit_fail(p, vat, "py-type", LIT ": a complex number cannot "
		    "be held in JSON");
		return -1;
	}
	if (c == '(' || c == '[' || c == '.') {
		pylit_fail(p, i, "py-syntax", LIT ": %s is not a literal",
		    c == '(' ? "a call" : c == '[' ? "a subscript" :
		    "an attribute");
		return -1;
	}
	if (strchr("+-*/%@&|^~<>!", c) == NULL &&
	    !(c == '=' && i + 1 < p->n && s[i + 1] == '='))
		return 0;
	for (j = 0; j < sizeof(two) / sizeof(two[0]); j++)
		if (i + 1 < p->n && memcmp(s + i, two[j], 2) == 0)
			break;
	pylit_fail(p, i, "py-syntax", LIT ": the operator '%.*s' is not part "
	    "of a literal", j < sizeof(two) / sizeof(two[0]) ? 2 : 1, s + i);
	return -1;
}

static json_t *
list(struct pylit_p *p, size_t depth, struct buf *canon, enum pylit_kind *kind)
{
	const char *s = p->s;
	size_t vat;
	json_t *a, *v;
	enum pylit_kind k;

	if (canon != NULL) {
		unhashable(p, p->pos, "a list");
		return NULL;
	}
	a = pylit_need(json_array());
	p->pos++;
	if (pylit_blanks(p, 1, 0) < 0)
		goto bad;
	if (p->pos < p->n && s[p->pos] == ']') {
		p->pos++;
		*kind = K_LIST;
		return a;
	}
	for (;;) {
		vat = p->pos;
		if ((v = pylit_value(p, depth + 1, 0, NULL, &k)) == NULL)
			goto bad;
		append(a, v);
		if (pylit_after(p, 1, k, vat) < 0)
			goto bad;
		if (p->pos < p->n && s[p->pos] == ',') {
			p->pos++;
			if (pylit_blanks(p, 1, 0) < 0)
				goto bad;
		} else if (p->pos >= p->n || s[p->pos] != ']') {
			pylit_expected(p, p->pos, LIT, "',' or ']'");
			goto bad;
		}
		if (p->pos < p->n && s[p->pos] == ']') {
			p->pos++;
			*kind = K_LIST;
			return a;
		}
	}
bad:
	json_decref(a);
	return NULL;
}

/*
 * A '(' at p->pos: a tuple, or parentheses around one value (which a
 * sign goes through: -(1) is -1). A tuple's canon is its elements' and
 * then its length, so that no two tuples share one.
 */
static json_t *
paren(struct pylit_p *p, size_t depth, int sign, struct buf *canon,
    enum pylit_kind *kind)
{
	const char *s = p->s;
	size_t vat, count = 1;
	json_t *a, *v;
	enum pylit_kind k;

	p->pos++;
	if (pylit_blanks(p, 1, 0) < 0)
		return NULL;
	if (p->pos < p->n && s[p->pos] == ')') {
		if (sign) {
			sign_error(p, sign);
			return NULL;
		}
		p->pos++;
		if (canon != NULL)
			buf_adds(canon, "0)");
		*kind = K_TUPLE;
		return pylit_need(json_array());
	}
	vat = p->pos;
	if ((v = pylit_value(p, depth + 1, sign, canon, &k)) == NULL)
		return NULL;
	if (pylit_after(p, 1, k, vat) < 0) {
		json_decref(v);
		return NULL;
	}
	if (p->pos < p->n && s[p->pos] == ')') {
		p->pos++;
		*kind = k;
		return v;
	}
	a = pylit_need(json_array());
	append(a, v);
	if (p->pos >= p->n || s[p->pos] != ',') {
		pylit_expected(p, p->pos, LIT, "',' or ')'");
		goto bad;
	}
	if (sign) {
		sign_error(p, sign);
		goto bad;
	}
	for (;;) {
		p->pos++;		/* the ',' */
		if (pylit_blanks(p, 1, 0) < 0)
			goto bad;
		if (p->pos < p->n && s[p->pos] == ')')
			break;
		vat = p->pos;
		if ((v = pylit_value(p, depth + 1, 0, canon, &k)) == NULL)
			goto bad;
		append(a, v);
		count++;
		if (pylit_after(p, 1, k, vat) < 0)
			goto bad;
		if (p->pos < p->n && s[p->pos] == ')')
			break;
		if (p->pos >= p->n || s[p->pos] != ',') {
			pylit_expected(p, p->pos, LIT, "',' or ')'");
			goto bad;
		}
	}
	p->pos++;
	if (canon != NULL) {
		buf_addu(canon, count);
		buf_addc(canon, ')');
	}
	*kind = K_TUPLE;
	return a;
bad:
	json_decref(a);
	return NULL;
}

/*
 * Python's repr() of a double (x finite), which json.dumps writes for
 * a float key: the shortest digits that read back as x (JavaScript
 * chooses the same ones), fixed from 1e-4 up to 1e16, else with an
 * exponent of at least two digits: 0.0001, 1e-05, 1e+16, 100.0.
 */
static void
py_repr(struct buf *out, double x)
{
	struct buf js = BUF_INIT;
	char d[40];
	const char *t, *q, *e;
	int k = 0, decpt, i;

	if (x == 0) {
		buf_adds(out, signbit(x) ? "-0.0" : "0.0");
		return;
	}
	if (x < 0) {
		buf_addc(out, '-');
		x = -x;
	}
	jsonw_number(&js, x);
	t = buf_cstr(&js);
	/* JavaScript wrote DDD, DDD.DDD, 0.0DDD or D.DDDe+N */
	if ((e = strchr(t, 'e')) != NULL) {
		for (q = t; q < e && k < 32; q++)
			if (*q != '.')
				d[k++] = *q;
		decpt = atoi(e + 1) + 1;
	} else if (t[0] == '0') {
		for (q = t + 2, decpt = 0; *q == '0'; q++)
			decpt--;
		for (; *q != '\0' && k < 32; q++)
			d[k++] = *q;
	} else {
		q = strchr(t, '.');
		decpt = q != NULL ? (int)(q - t) : (int)strlen(t);
		for (q = t; *q != '\0' && k < 32; q++)
			if (*q != '.')
				d[k++] = *q;
	}
	buf_free(&js);
	while (k > 1 && d[k - 1] == '0')
		k--;
	if (decpt <= -4 || decpt > 16) {
		buf_addc(out, d[0]);
		if (k > 1) {
			buf_addc(out, '.');
			buf_add(out, d + 1, (size_t)k - 1);
		}
		buf_printf(out, "e%c%02d", decpt - 1 < 0 ? '-' : '+',
		    abs(decpt - 1));
	} else if (decpt <= 0) {
		buf_add(out, "0.", 2);
		for (i = decpt; i < 0; i++)
			buf_addc(out, '0');
		buf_add(out, d, (size_t)k);
	} else if (decpt >= k) {
		buf_add(out, d, (size_t)k);
		for (i = k; i < decpt; i++)
			buf_addc(out, '0');
		buf_add(out, ".0", 2);
	} else {
		buf_add(out, d, (size_t)decpt);
		buf_addc(out, '.');
		buf_add(out, d + decpt, (size_t)(k - decpt));
	}
}

/* The JSON key json.dumps makes of key (of kind k, at off), onto out. */
static int
key_text(struct pylit_p *p, json_t *key, enum pylit_kind k, size_t off,
    struct buf *out)
{
	switch (k) {
	case K_STR:
		if (memchr(json_string_value(key), '\0',
		    json_string_length(key)) != NULL) {
			pylit_fail(p, off, "py-type", LIT ": a dictionary key "
			    "with a NUL character (jansson holds none)");
			return -1;
		}
		buf_add(out, json_string_value(key), json_string_length(key));
		return 0;
	case K_INT:
		if (json_is_string(key))
			buf_add(out, json_string_value(key),
			    json_string_length(key));
		else
			buf_printf(out, "%" JSON_INTEGER_FORMAT,
			    json_integer_value(key));
		return 0;
	case K_FLOAT:
		py_repr(out, json_real_value(key));
		return 0;
	case K_BOOL:
	case K_NONE:
		buf_adds(out, k == K_NONE ? "null" : json_is_true(key) ?
		    "true" : "false");
		return 0;
	default:
		pylit_fail(p, off, "py-type", LIT ": a tuple cannot be a key "
		    "of a JSON object");
		return -1;
	}
}

/* The JSON key of the key at off, read again (to name an earlier one). */
static void
key_again(struct pylit_p *p, size_t off, struct buf *out)
{
	struct pylit_error err;
	struct buf canon = BUF_INIT;
	struct pylit_p q;
	json_t *v;
	enum pylit_kind k;

	memset(&q, 0, sizeof(q));
	q.s = p->s;
	q.n = p->n;
	q.pos = off;
	q.err = &err;
	if ((v = pylit_value(&q, 2, 0, &canon, &k)) != NULL)
		key_text(&q, v, k, off, out);
	json_decref(v);
	buf_free(&canon);
	buf_free(&q.str);
	buf_free(&q.num);
}

/*
 * The duplicate at off of the key or keyword argument (noun) first at
 * first; text and was are their JSON keys, which differ when the two are
 * equal in Python only (1 and True).
 */
void
pylit_duplicate(struct pylit_p *p, size_t off, size_t first, const char *noun,
    const struct buf *text, const struct buf *was)
{
	struct pylit_error *err = p->err;
	unsigned long line, col;
	char q[80];

	pylit_fail(p, off, "duplicate-key", "duplicate %s", noun);
	err->first = first;
	err->noun = noun;
	diag_quote(err->key, sizeof(err->key), bytes(text), text->len);
	if (was->len != text->len ||
	    memcmp(bytes(was), bytes(text), text->len) != 0)
		snprintf(err->note, sizeof(err->note), " (equal in Python to "
		    "the key %s)", diag_quote(q, sizeof(q), bytes(was),
		    was->len));
	utf8_position(p->s, first, &line, &col);
	pylit_dup_text(err, line, col);
}

/* Sets the text of a duplicate-key error from the first one's place. */
void
pylit_dup_text(struct pylit_error *err, unsigned long line, unsigned long col)
{
	snprintf(err->text, sizeof(err->text), "duplicate %s %s%s, first at "
	    "line %lu, column %lu", err->noun != NULL ? err->noun : "key",
	    err->key, err->note, line, col);
}

/*
 * The rest of a dict whose first key (key, of kind k at kat, canon kc)
 * has been read, p->pos at its ':'. A key is refused when the object has
 * its JSON key already, or (for a number, a bool, None) when one before
 * is equal in Python: pyeq maps those keys' canons to their offsets.
 */
static json_t *
dict(struct pylit_p *p, size_t depth, json_t *key, enum pylit_kind k,
    size_t kat, struct buf *kc)
{
	const char *s = p->s;
	struct buf text = BUF_INIT, was = BUF_INIT;
	json_t *o, *pyeq = NULL, *v, *at;
	size_t *offs = NULL, noffs = 0, cap = 0, i, vat, first;
	enum pylit_kind vk;

	o = pylit_need(json_object());
	for (;;) {
		buf_reset(&text);
		if (key_text(p, key, k, kat, &text) < 0)
			goto bad;
		json_decref(key);
		key = NULL;
		first = PYLIT_NOPOS;
		if (json_object_getn(o, bytes(&text), text.len) != NULL) {
			for (i = 0; i < noffs && first == PYLIT_NOPOS; i++) {
				buf_reset(&was);
				key_again(p, offs[i], &was);
				if (was.len == text.len && memcmp(bytes(&was),
				    bytes(&text), text.len) == 0)
					first = offs[i];
			}
			if (first == PYLIT_NOPOS)	/* not expected */
				first = kat;
		} else if (k != K_STR) {
			if (pyeq == NULL)
				pyeq = pylit_need(json_object());
			if ((at = json_object_getn(pyeq, kc->data, kc->len)) !=
			    NULL) {
				first = (size_t)json_integer_value(at);
				key_again(p, first, &was);
			} else if (json_object_setn_new_nocheck(pyeq, kc->data,
			    kc->len, pylit_need(json_integer((json_int_t)
			    kat))) != 0)
				xalloc_die();
		}
		if (first != PYLIT_NOPOS) {
			if (was.len == 0 && text.len > 0)
				buf_add(&was, text.data, text.len);
			pylit_duplicate(p, kat, first, "key", &text, &was);
			goto bad;
		}
		if (noffs == cap) {
			cap = cap ? 2 * cap : 16;
			offs = xreallocarray(offs, cap, sizeof(*offs));
		}
		offs[noffs++] = kat;
		p->pos++;		/* the ':' */
		if (pylit_blanks(p, 1, 0) < 0)
			goto bad;
		vat = p->pos;
		if ((v = pylit_value(p, depth + 1, 0, NULL, &vk)) == NULL)
			goto bad;
		if (json_object_setn_new_nocheck(o, bytes(&text), text.len,
		    v) != 0)
			xalloc_die();
		if (pylit_after(p, 1, vk, vat) < 0)
			goto bad;
		if (p->pos < p->n && s[p->pos] == ',') {
			p->pos++;
			if (pylit_blanks(p, 1, 0) < 0)
				goto bad;
		} else if (p->pos >= p->n || s[p->pos] != '}') {
			pylit_expected(p, p->pos, LIT, "',' or '}'");
			goto bad;
		}
		if (p->pos < p->n && s[p->pos] == '}')
			break;
		kat = p->pos;
		buf_reset(kc);
		if ((key = pylit_value(p, depth + 1, 0, kc, &k)) == NULL ||
		    pylit_after(p, 1, k, kat) < 0)
			goto bad;
		if (p->pos >= p->n || s[p->pos] != ':') {
			pylit_expected(p, p->pos, LIT,
			    "':' after a dictionary key");
			goto bad;
		}
	}
	p->pos++;
	buf_free(&text);
	buf_free(&was);
	json_decref(pyeq);
	free(offs);
	return o;
bad:
	json_decref(key);
	json_decref(o);
	buf_free(&text);
	buf_free(&was);
	json_decref(pyeq);
	free(offs);
	return NULL;
}

/*
 * The rest of a set whose first element (v, canon ec) has been read:
 * an array of the elements no element before is equal to.
 */
static json_t *
set(struct pylit_p *p, size_t depth, json_t *v, struct buf *ec)
{
	const char *s = p->s;
	json_t *a, *seen;
	size_t vat;
	enum pylit_kind k;

	a = pylit_need(json_array());
	seen = pylit_need(json_object());
	for (;;) {
		if (json_object_getn(seen, ec->data, ec->len) != NULL)
			json_decref(v);
		else {
			if (json_object_setn_new_nocheck(seen, ec->data,
			    ec->len, pylit_need(json_null())) != 0)
				xalloc_die();
			append(a, v);
		}
		if (p->pos < p->n && s[p->pos] == ',') {
			p->pos++;
			if (pylit_blanks(p, 1, 0) < 0)
				goto bad;
		} else if (p->pos >= p->n || s[p->pos] != '}') {
			pylit_expected(p, p->pos, LIT, "',' or '}'");
			goto bad;
		}
		if (p->pos < p->n && s[p->pos] == '}')
			break;
		vat = p->pos;
		buf_reset(ec);
		if ((v = pylit_value(p, depth + 1, 0, ec, &k)) == NULL)
			goto bad;
		if (pylit_after(p, 1, k, vat) < 0) {
			json_decref(v);
			goto bad;
		}
	}
	p->pos++;
	json_decref(seen);
	return a;
bad:
	json_decref(seen);
	json_decref(a);
	return NULL;
}

/* A '{' at p->pos: a dict or a set, as its first ':' or ',' tells. */
static json_t *
brace(struct pylit_p *p, size_t depth, struct buf *canon, enum pylit_kind *kind)
{
	const char *s = p->s;
	struct buf ec = BUF_INIT;
	size_t at = p->pos, vat;
	json_t *v, *r = NULL;
	enum pylit_kind k;
	int isdict;

	p->pos++;
	if (pylit_blanks(p, 1, 0) < 0)
		return NULL;
	if (p->pos < p->n && s[p->pos] == '}') {
		if (canon != NULL) {
			unhashable(p, at, "a dict");
			return NULL;
		}
		p->pos++;
		*kind = K_DICT;
		return pylit_need(json_object());
	}
	vat = p->pos;
	if ((v = pylit_value(p, depth + 1, 0, &ec, &k)) == NULL)
		goto out;
	if (pylit_after(p, 1, k, vat) < 0) {
		json_decref(v);
		goto out;
	}
	isdict = p->pos < p->n && s[p->pos] == ':';
	if (!isdict && p->pos < p->n && s[p->pos] != ',' && s[p->pos] != '}') {
		pylit_expected(p, p->pos, LIT, "',', ':' or '}'");
		json_decref(v);
		goto out;
	}
	if (canon != NULL) {
		unhashable(p, at, isdict ? "a dict" : "a set");
		json_decref(v);
		goto out;
	}
	*kind = isdict ? K_DICT : K_SET;
	r = isdict ? dict(p, depth, v, k, vat, &ec) : set(p, depth, v, &ec);
out:
	buf_free(&ec);
	return r;
}

/*
 * The value at p->pos, at nesting level depth, with sign ('+' or '-',
 * at p->signoff) before it or 0. With canon, the value must be one
 * Python can hash (a set element, a dict key), and a text that is the
 * same for two values exactly when Python holds them equal is appended
 * to canon: 1, 1.0 and True share one.
 */
json_t *
pylit_value(struct pylit_p *p, size_t depth, int sign, struct buf *canon,
    enum pylit_kind *kind)
{
	const char *s = p->s;
	size_t at = p->pos;
	unsigned char c;

	if (depth > PYLIT_MAX_DEPTH) {
		pylit_fail(p, at, "py-depth", LIT ": a value nested deeper "
		    "than %d levels", PYLIT_MAX_DEPTH);
		return NULL;
	}
	if (depth > p->maxdepth) {
		p->maxdepth = depth;
		p->deepat = at;
	}
	if (at >= p->n) {
		pylit_expected(p, at, LIT, sign ? "a number" : "a value");
		return NULL;
	}
	c = (unsigned char)s[at];
	if (is_digit(c) || (c == '.' && at + 1 < p->n && is_digit(s[at + 1])))
		return number(p, sign, canon, kind);
	if (c == '(')
		return paren(p, depth, sign, canon, kind);
	if (c == '+' || c == '-') {
		if (sign) {
			sign_error(p, sign);
			return NULL;
		}
		p->signoff = at;
		p->pos++;
		if (pylit_blanks(p, depth > 1, 0) < 0)
			return NULL;
		return pylit_value(p, depth, c, canon, kind);
	}
	if (pylit_ident0(c))
		return name(p, depth, sign, canon, kind);
	if (sign && c != '\0' && strchr("[{'\"", c) != NULL) {
		sign_error(p, sign);
		return NULL;
	}
	if (c == '[')
		return list(p, depth, canon, kind);
	if (c == '{')
		return brace(p, depth, canon, kind);
	if (c == '\'' || c == '"')
		return string(p, depth > 1, canon, kind);
	if (at + 2 < p->n && memcmp(s + at, "...", 3) == 0) {
		pylit_fail(p, at, "py-type", LIT ": Ellipsis (...) cannot be "
		    "held in JSON");
		return NULL;
	}
	pylit_expected(p, at, LIT, sign ? "a number" : "a value");
	return NULL;
}

void
pylit_init(struct pylit_p *p, const char *s, size_t n, size_t off,
    struct pylit_error *err)
{
	memset(p, 0, sizeof(*p));
	p->s = s;
	p->n = n;
	p->pos = off < n ? off : n;
	p->err = err;
}

void
pylit_done(struct pylit_p *p)
{
	buf_free(&p->str);
	buf_free(&p->num);
}

/*
 * After the top value, a comma makes it the first element of a tuple
 * written without parentheses (1, 2), as literal_eval reads one: up to
 * the end of the line, a comma at the end included. The first value
 * was read at level 1, and is now at 2.
 */
static json_t *
bare_tuple(struct pylit_p *p, json_t *first)
{
	const char *s = p->s;
	size_t end = p->pos, vat;
	json_t *a, *v;
	enum pylit_kind k;

	pylit_blanks(p, 0, 1);
	if (p->pos >= p->n || s[p->pos] != ',') {
		p->pos = end;
		return first;
	}
	if (p->maxdepth >= PYLIT_MAX_DEPTH) {
		pylit_fail(p, p->deepat, "py-depth", LIT ": a value nested "
		    "deeper than %d levels", PYLIT_MAX_DEPTH);
		json_decref(first);
		return NULL;
	}
	a = pylit_need(json_array());
	append(a, first);
	for (;;) {
		end = ++p->pos;		/* past the ',' */
		pylit_blanks(p, 0, 1);
		if (p->pos >= p->n || s[p->pos] == '\n' || s[p->pos] == '\r' ||
		    s[p->pos] == '#')
			break;
		vat = p->pos;
		if ((v = pylit_value(p, 2, 0, NULL, &k)) == NULL)
			goto bad;
		append(a, v);
		if (pylit_after(p, 0, k, vat) < 0)
			goto bad;
		end = p->pos;
		pylit_blanks(p, 0, 1);
		if (p->pos >= p->n || s[p->pos] != ',')
			break;
	}
	p->pos = end;
	return a;
bad:
	json_decref(a);
	return NULL;
}

/*
 * Parses the one literal at s[off..n), blanks and comments before it
 * skipped, and sets *end just past it. On failure returns NULL with err
 * filled.
 */
json_t *
pylit_parse(const char *s, size_t n, size_t off, size_t *end,
    struct pylit_error *err)
{
	struct pylit_p p;
	json_t *v = NULL;
	enum pylit_kind k;
	size_t at;

	pylit_init(&p, s, n, off, err);
	if (pylit_blanks(&p, 1, 0) == 0) {
		at = p.pos;
		v = pylit_value(&p, 1, 0, NULL, &k);
		if (v != NULL && pylit_after(&p, 0, k, at) < 0) {
			json_decref(v);
			v = NULL;
		}
		if (v != NULL)
			v = bare_tuple(&p, v);
	}
	if (v != NULL)
		*end = p.pos;
	pylit_done(&p);
	return v;
}

