/*
 * jsschema_format: the string formats of JSON Schema Draft-07, as the
 * JSON-Schema-Test-Suite's optional format cases read them.
 *
 * Checked: date-time, date, time (RFC 3339; a leap second only at 23:59
 * UTC), email and idn-email (RFC 5321 Mailbox: dot-atom or quoted local
 * part, host name or address literal; idn- also takes non-ASCII), hostname
 * (RFC 1123 labels; an "xn--" label must be an A-label as IDNA2008
 * registers it: libidn2 decodes it, checks that it re-encodes to itself
 * and checks its U-label against the IDNA2008 tables, CONTEXTJ, CONTEXTO
 * and the Bidi rule), idn-hostname (RFC 5890: labels separated by any of
 * the four dots of RFC 3490, each an NR-LDH label, an A-label or an NFC
 * U-label as libidn2's idn2_register_u8 accepts it, with no UTS #46
 * mapping; 253 octets and labels of 63 in A-label form; RFC 5893's rule
 * that EN and AN digits do not mix and that no label of a Bidi domain
 * name begins with a digit, which libidn2 leaves out), ipv4,
 * ipv6 (RFC 4291 text forms, no zone), uri and uri-reference (RFC 3986),
 * iri and iri-reference (RFC 3987: the same, non-ASCII allowed where
 * RFC 3987 allows ucschar), json-pointer (RFC 6901), relative-json-pointer,
 * regex (ECMA-262 through lib/jsschema_regex), uri-template (RFC 6570 level 4
 * syntax), and 2019-09's duration (RFC 3339, appendix A: ISO 8601
 * durations, weeks alone) and uuid (RFC 4122's 8-4-4-4-12 hex digits,
 * any case, any version).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <idn2.h>

#include "base/buf.h"
#include "base/dlib.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "schema/jsschema_format.h"
#include "schema/jsschema_pcre.h"
#include "schema/jsschema_regex.h"

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int
is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int
is_hex(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* n digits at s as a number, or -1 when one is not a digit. */
static int
digits(const char *s, size_t n)
{
	int v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!is_digit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

static int
check_date(const char *s, size_t n)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31,
	    30, 31 };
	int y, m, d, max;

	if (n != 10 || s[4] != '-' || s[7] != '-')
		return 0;
	if ((y = digits(s, 4)) < 0 || (m = digits(s + 5, 2)) < 0 ||
	    (d = digits(s + 8, 2)) < 0)
		return 0;
	if (m < 1 || m > 12 || d < 1)
		return 0;
	max = mdays[m - 1];
	if (m == 2 && y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))
		max = 29;
	return d <= max;
}

/* RFC 3339 full-time; a leap second only where UTC says 23:59:60. */
static int
check_time(const char *s, size_t n)
{
	int h, m, sec, oh = 0, om = 0, sign = 0, utc;
	size_t i = 8;

	if (n < 9 || s[2] != ':' || s[5] != ':')
		return 0;
	if ((h = digits(s, 2)) < 0 || (m = digits(s + 3, 2)) < 0 ||
	    (sec = digits(s + 6, 2)) < 0)
		return 0;
	if (h > 23 || m > 59 || sec > 60)
		return 0;
	if (s[i] == '.') {
		i++;
		if (i >= n || !is_digit((unsigned char)s[i]))
			return 0;
		while (i < n && is_digit((unsigned char)s[i]))
			i++;
	}
	if (i + 1 == n && (s[i] == 'Z' || s[i] == 'z'))
		sign = 0;
	else if (i + 6 == n && (s[i] == '+' || s[i] == '-') &&
	    s[i + 3] == ':') {
		sign = s[i] == '+' ? 1 : -1;
		if ((oh = digits(s + i + 1, 2)) < 0 ||
		    (om = digits(s + i + 4, 2)) < 0 || oh > 23 || om > 59)
			return 0;
	} else
		return 0;
	if (sec == 60) {
		utc = ((h * 60 + m - sign * (oh * 60 + om)) % 1440 + 1440) %
		    1440;
		if (utc != 23 * 60 + 59)
			return 0;
	}
	return 1;
}

static int
check_datetime(const char *s, size_t n)
{
	if (n < 11 || (s[10] != 'T' && s[10] != 't'))
		return 0;
	return check_date(s, 10) && check_time(s + 11, n - 11);
}

static int
check_ipv4(const char *s, size_t n)
{
	size_t i = 0, start;
	int part, v;

	for (part = 0; part < 4; part++) {
		if (part > 0) {
			if (i >= n || s[i] != '.')
				return 0;
			i++;
		}
		start = i;
		while (i < n && is_digit((unsigned char)s[i]) && i - start < 4)
			i++;
		if (i == start || i - start > 3 ||
		    (i - start > 1 && s[start] == '0'))
			return 0;
		if ((v = digits(s + start, i - start)) > 255)
			return 0;
	}
	return i == n;
}

static int
check_ipv6(const char *s, size_t n)
{
	size_t i = 0, start, j;
	int groups = 0, gap = 0;

	if (n >= 2 && s[0] == ':' && s[1] == ':') {
		gap = 1;
		i = 2;
		if (i == n)
			return 1;
	} else if (n > 0 && s[0] == ':')
		return 0;
	for (;;) {
		start = i;
		while (i < n && is_hex((unsigned char)s[i]))
			i++;
		if (i < n && s[i] == '.') {
			/* an IPv4 address closes the address */
			for (j = start; j < n && s[j] != ':'; j++)
				;
			if (j != n || !check_ipv4(s + start, n - start))
				return 0;
			groups += 2;
			break;
		}
		if (i == start || i - start > 4)
			return 0;
		groups++;
		if (i == n)
			break;
		if (s[i] != ':')
			return 0;
		i++;
		if (i < n && s[i] == ':') {
			if (gap)
				return 0;
			gap = 1;
			i++;
			if (i == n)
				break;
		} else if (i == n)
			return 0;
	}
	return gap ? groups <= 7 : groups == 8;
}

/*
 * Why the last check that could not tell could not ("cannot load ..."),
 * for jsschema_format_trouble.
 */
static const char *trouble;

/* jss_pcre_load, the reason kept when it fails. */
static int
pcre_load(void)
{
	if (jss_pcre_load() == 0)
		return 0;
	trouble = jss_pcre_trouble();
	return -1;
}

/* Does the PCRE2 pattern pat match somewhere in s? PCRE2 is loaded. */
static int
found(const char *pat, const char *s, size_t n)
{
	pcre2_code *code;
	pcre2_match_data *md;
	PCRE2_SIZE off;
	int ec, rc;

	code = jss_pcre.compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED,
	    PCRE2_UTF, &ec, &off, NULL);
	if (code == NULL)
		return 0;
	if ((md = jss_pcre.match_data_create_from_pattern(code, NULL)) == NULL)
		xalloc_die();
	rc = jss_pcre.match(code, (PCRE2_SPTR)s, n, 0, 0, md, NULL);
	jss_pcre.match_data_free(md);
	jss_pcre.code_free(code);
	return rc >= 0;
}

/* Digits of Bidi class EN and AN that IDNA2008 allows (PVALID). */
#define BIDI_EN	"[0-9\\x{6F0}-\\x{6F9}]"
#define BIDI_AN	"[\\x{660}-\\x{669}\\x{10D30}-\\x{10D39}]"
/* Letters of the right-to-left blocks (Bidi R and AL) and AN digits. */
#define BIDI_RTL "(?:(?=\\p{L})[\\x{590}-\\x{8FF}\\x{FB1D}-\\x{FDFF}" \
		"\\x{FE70}-\\x{FEFF}\\x{10800}-\\x{10FFF}\\x{1E800}-\\x{1EFFF}]|" \
		BIDI_AN ")"

/*
 * libidn2, loaded with dlopen the first time a label needs IDNA2008:
 * linked in, it and libunistring cost every run of every tool that
 * links lib/schema a good part of its start-up (t/bench/README), for
 * formats few schemas use (lib/base/dlib.h; LLMKIT_LIBIDN2 names
 * another file to load).
 */
static struct {
	int	 (*register_u8)(const uint8_t *, const uint8_t *, uint8_t **,
		    int);
	int	 (*to_unicode_8z8z)(const char *, char **, int);
	void	 (*free)(void *);
} libidn;

static struct dlib idn2_lib = {
	"libidn2.so.0", "LLMKIT_LIBIDN2", "libidn2", 0, NULL
};

#define FN(f)	{ "idn2_" #f, &libidn.f, sizeof(libidn.f) }
static const struct dlib_fn idn2_fns[] = {
	FN(register_u8), FN(to_unicode_8z8z), FN(free)
};
#undef FN

/*
 * 0 once libidn2 is loaded, -1 when it cannot be (for ever after), the
 * reason kept.
 */
static int
idn_load(void)
{
	if (dlib_load(&idn2_lib, idn2_fns, sizeof(idn2_fns) /
	    sizeof(idn2_fns[0])) == 0)
		return 0;
	trouble = idn2_lib.why;
	return -1;
}

const char *
jsschema_format_trouble(void)
{
	return trouble;
}

/*
 * One label as IDNA2008 registers it (RFC 5891 section 4, by libidn2): an
 * "xn--" label (any case) must be an A-label, a label with non-ASCII a
 * U-label (NFC, no mapping). Its U-label goes to u, the length of its
 * A-label to *alen. libidn2 leaves out one rule of RFC 5893 (Bidi rule 4:
 * EN and AN digits not both in a label), checked here with PCRE2. -1
 * when libidn2 or PCRE2 cannot be loaded.
 */
static int
idna_label(const char *s, size_t n, struct buf *u, size_t *alen)
{
	char *l, *ul = NULL;
	uint8_t *out = NULL;
	size_t i;
	int ascii = 1, rc;

	if (memchr(s, '\0', n) != NULL)
		return 0;
	if (idn_load() != 0 || pcre_load() != 0)
		return -1;
	l = xmemdup(s, n);
	for (i = 0; i < n; i++)
		if ((unsigned char)l[i] >= 0x80)
			ascii = 0;
	if (ascii) {
		for (i = 0; i < n; i++)
			if (l[i] >= 'A' && l[i] <= 'Z')
				l[i] = (char)(l[i] - 'A' + 'a');
		rc = libidn.register_u8(NULL, (uint8_t *)l, &out, 0);
		if (rc == IDN2_OK)
			rc = libidn.to_unicode_8z8z(l, &ul, 0);
	} else
		rc = libidn.register_u8((uint8_t *)l, NULL, &out, 0);
	if (rc == IDN2_OK) {
		*alen = strlen((char *)out);
		buf_adds(u, ul != NULL ? ul : l);
	}
	libidn.free(out);
	libidn.free(ul);
	free(l);
	return rc == IDN2_OK && !(found(BIDI_EN, u->data, u->len) &&
	    found(BIDI_AN, u->data, u->len));
}

/* An NR-LDH label: letters, digits, inner hyphens, 1 to 63 bytes. */
static int
ldh_label(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > 63 || s[0] == '-' || s[n - 1] == '-')
		return 0;
	for (i = 0; i < n; i++)
		if (!is_alpha((unsigned char)s[i]) &&
		    !is_digit((unsigned char)s[i]) && s[i] != '-')
			return 0;
	return 1;
}

/*
 * An "xn--" label: an A-label whose U-label passes IDNA2008; -1 when
 * libidn2 cannot be loaded.
 */
static int
alabel_ok(const char *s, size_t n)
{
	struct buf u = BUF_INIT;
	size_t alen;
	int ok;

	ok = idna_label(s, n, &u, &alen);
	buf_free(&u);
	return ok;
}

/*
 * RFC 1123 host name; with idn, labels may hold non-ASCII letters. -1
 * when an "xn--" label needs libidn2 and it cannot be loaded.
 */
static int
check_hostname(const char *s, size_t n, int idn)
{
	size_t i = 0, start;
	unsigned char c;
	int ok;

	if (n == 0 || n > 253)
		return 0;
	for (;;) {
		start = i;
		while (i < n && s[i] != '.') {
			c = (unsigned char)s[i];
			if (!is_alpha(c) && !is_digit(c) && c != '-' &&
			    !(idn && c >= 0x80))
				return 0;
			i++;
		}
		if (i == start || i - start > 63 || s[start] == '-' ||
		    s[i - 1] == '-')
			return 0;
		if (i - start >= 4 && strncasecmp(s + start, "xn--", 4) == 0 &&
		    (ok = alabel_ok(s + start, i - start)) != 1)
			return ok;
		if (i == n)
			return 1;
		i++;
	}
}

/*
 * The length of the label separator at s (RFC 3490 section 3.1: full stop,
 * ideographic full stop, fullwidth full stop, halfwidth ideographic full
 * stop), 0 when there is none.
 */
static size_t
idn_dot(const char *s, size_t n)
{
	if (n > 0 && s[0] == '.')
		return 1;
	if (n >= 3 && (memcmp(s, "\xE3\x80\x82", 3) == 0 ||
	    memcmp(s, "\xEF\xBC\x8E", 3) == 0 ||
	    memcmp(s, "\xEF\xBD\xA1", 3) == 0))
		return 3;
	return 0;
}

/*
 * RFC 5890 internationalized host name: labels between the four dots,
 * each an NR-LDH label, an A-label or a U-label (IDNA2008 through
 * libidn2), at most 253 octets in A-label form; in a Bidi domain name
 * (one with a right-to-left label) no label begins with a digit (RFC 5893
 * section 2, rule 1). -1 when libidn2 cannot be loaded.
 */
static int
check_idn_hostname(const char *s, size_t n)
{
	struct buf u = BUF_INIT;
	size_t i = 0, start, dot = 0, alen, total = 0;
	int ok = 1, rtl = 0, digit = 0, ascii;

	if (n == 0 || utf8_valid(s, n) != n)
		return 0;
	while (ok) {
		start = i;
		ascii = 1;
		while (i < n && (dot = idn_dot(s + i, n - i)) == 0) {
			if ((unsigned char)s[i] >= 0x80)
				ascii = 0;
			i++;
		}
		buf_reset(&u);
		if (ascii && (i - start < 4 ||
		    strncasecmp(s + start, "xn--", 4) != 0)) {
			ok = ldh_label(s + start, i - start) &&
			    (i - start < 4 || s[start + 2] != '-' ||
			    s[start + 3] != '-');
			/* no right-to-left letter, no AN digit: no PCRE2 */
			digit |= i > start && is_digit(s[start]);
			alen = i - start;
		} else if ((ok = idna_label(s + start, i - start, &u,
		    &alen)) == 1) {
			rtl |= found(BIDI_RTL, u.data, u.len);
			digit |= found("^(?:" BIDI_EN "|" BIDI_AN ")", u.data,
			    u.len);
		}
		if (ok != 1)
			break;
		total += alen + (dot > 0);
		if (i == n)
			break;
		i += dot;
		if (i == n)
			ok = 0;
	}
	buf_free(&u);
	if (ok == -1)
		return -1;
	return ok && total <= 253 && !(rtl && digit);
}

static int
is_atext(int c, int idn)
{
	return is_alpha(c) || is_digit(c) || strchr("!#$%&'*+-/=?^_`{|}~",
	    c) != NULL || (idn && c >= 0x80);
}

/*
 * RFC 5321 Mailbox: Local-part "@" ( Domain / address-literal ). -1 as
 * check_hostname.
 */
static int
check_email(const char *s, size_t n, int idn)
{
	size_t i = 0, at;
	unsigned char c;

	if (n > 0 && s[0] == '"') {
		for (i = 1; i < n && s[i] != '"'; i++) {
			c = (unsigned char)s[i];
			if (c == '\\') {
				if (++i == n || (unsigned char)s[i] < 0x20)
					return 0;
			} else if (c < 0x20 || c == 0x7F || (c >= 0x80 && !idn))
				return 0;
		}
		if (i == n || i + 1 == n || s[i + 1] != '@')
			return 0;
		at = i + 1;
	} else {
		for (i = 0; i < n && s[i] != '@'; i++) {
			c = (unsigned char)s[i];
			if (c == '.') {
				if (i == 0 || s[i - 1] == '.')
					return 0;
			} else if (c == 0 || !is_atext(c, idn))
				return 0;
		}
		if (i == 0 || i == n || s[i - 1] == '.')
			return 0;
		at = i;
	}
	s += at + 1;
	n -= at + 1;
	if (n > 2 && s[0] == '[' && s[n - 1] == ']') {
		if (n > 7 && strncmp(s + 1, "IPv6:", 5) == 0)
			return check_ipv6(s + 6, n - 7);
		return check_ipv4(s + 1, n - 2);
	}
	return check_hostname(s, n, idn);
}

static int
check_pointer(const char *s, size_t n)
{
	size_t i;

	if (n > 0 && s[0] != '/')
		return 0;
	for (i = 0; i < n; i++)
		if (s[i] == '~' && (i + 1 == n || (s[i + 1] != '0' &&
		    s[i + 1] != '1')))
			return 0;
	return 1;
}

static int
check_relpointer(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && is_digit((unsigned char)s[i]))
		i++;
	if (i == 0 || (i > 1 && s[0] == '0'))
		return 0;
	if (i + 1 == n && s[i] == '#')
		return 1;
	return check_pointer(s + i, n - i);
}

/* URI and IRI parsing (RFC 3986, RFC 3987). */
struct uri {
	const char	*s;
	size_t		 n;
	size_t		 i;
	int		 iri;
};

static int
is_unreserved(int c)
{
	return is_alpha(c) || is_digit(c) || c == '-' || c == '.' ||
	    c == '_' || c == '~';
}

static int
is_subdelim(int c)
{
	return c != 0 && strchr("!$&'()*+,;=", c) != NULL;
}

/*
 * Takes one character of the kind: unreserved, pct-encoded, sub-delims,
 * the bytes of extra, and for an IRI any non-ASCII character.
 */
static int
uri_char(struct uri *u, const char *extra)
{
	unsigned char c;
	uint32_t cp;
	size_t len;

	if (u->i >= u->n)
		return 0;
	c = (unsigned char)u->s[u->i];
	if (c == '%') {
		if (u->n - u->i < 3)
			return 0;
		if (!is_hex((unsigned char)u->s[u->i + 1]) ||
		    !is_hex((unsigned char)u->s[u->i + 2]))
			return 0;
		u->i += 3;
		return 1;
	}
	if (c >= 0x80) {
		if (!u->iri || (len = utf8_decode(u->s + u->i, u->n - u->i,
		    &cp)) == 0)
			return 0;
		u->i += len;
		return 1;
	}
	if (is_unreserved(c) || is_subdelim(c) ||
	    (c != 0 && strchr(extra, c) != NULL)) {
		u->i++;
		return 1;
	}
	return 0;
}

static void
uri_chars(struct uri *u, const char *extra)
{
	while (uri_char(u, extra))
		;
}

static int
ipvfuture(const char *s, size_t n)
{
	size_t i = 1;

	if (n < 4 || (s[0] != 'v' && s[0] != 'V'))
		return 0;
	while (i < n && is_hex((unsigned char)s[i]))
		i++;
	if (i == 1 || i >= n - 1 || s[i] != '.')
		return 0;
	for (i++; i < n; i++)
		if (!is_unreserved((unsigned char)s[i]) &&
		    !is_subdelim((unsigned char)s[i]) && s[i] != ':')
			return 0;
	return 1;
}

/* authority, after "//": [ userinfo "@" ] host [ ":" port ] */
static int
uri_authority(struct uri *u)
{
	size_t end = u->i, at = (size_t)-1, j;

	while (end < u->n && u->s[end] != '/' && u->s[end] != '?' &&
	    u->s[end] != '#')
		end++;
	for (j = u->i; j < end; j++)
		if (u->s[j] == '@') {
			if (at != (size_t)-1)
				return 0;
			at = j;
		}
	if (at != (size_t)-1) {
		uri_chars(u, ":");
		if (u->i != at)
			return 0;
		u->i++;
	}
	if (u->i < end && u->s[u->i] == '[') {
		for (j = u->i; j < end && u->s[j] != ']'; j++)
			;
		if (j == end || (!check_ipv6(u->s + u->i + 1, j - u->i - 1) &&
		    !ipvfuture(u->s + u->i + 1, j - u->i - 1)))
			return 0;
		u->i = j + 1;
	} else
		uri_chars(u, "");
	if (u->i < end && u->s[u->i] == ':') {
		for (u->i++; u->i < end; u->i++)
			if (!is_digit((unsigned char)u->s[u->i]))
				return 0;
	}
	return u->i == end;
}

/* [ "?" query ] [ "#" fragment ] to the end */
static int
uri_tail(struct uri *u)
{
	if (u->i < u->n && u->s[u->i] == '?') {
		u->i++;
		uri_chars(u, ":@/?");
	}
	if (u->i < u->n && u->s[u->i] == '#') {
		u->i++;
		uri_chars(u, ":@/?");
	}
	return u->i == u->n;
}

/*
 * hier-part or relative-part then the tail; noscheme: the first segment
 * of a relative path may hold no ":".
 */
static int
uri_rest(struct uri *u, int noscheme)
{
	if (u->i + 1 < u->n && u->s[u->i] == '/' && u->s[u->i + 1] == '/') {
		u->i += 2;
		if (!uri_authority(u))
			return 0;
	} else if (noscheme) {
		uri_chars(u, "@");
		if (u->i < u->n && u->s[u->i] == ':')
			return 0;
	}
	uri_chars(u, ":@/");
	return uri_tail(u);
}

/* scheme ":" ...; 0 when there is no scheme */
static int
uri_scheme(struct uri *u)
{
	size_t i = 0;

	if (u->n == 0 || !is_alpha((unsigned char)u->s[0]))
		return 0;
	while (i < u->n && (is_alpha((unsigned char)u->s[i]) ||
	    is_digit((unsigned char)u->s[i]) || u->s[i] == '+' ||
	    u->s[i] == '-' || u->s[i] == '.'))
		i++;
	if (i == u->n || u->s[i] != ':')
		return 0;
	u->i = i + 1;
	return 1;
}

static int
check_uri(const char *s, size_t n, int iri, int ref)
{
	struct uri u = { s, n, 0, iri };

	if (uri_scheme(&u) && uri_rest(&u, 0))
		return 1;
	if (!ref)
		return 0;
	u.i = 0;
	return uri_rest(&u, 1);
}

/* An RFC 6570 varspec list inside braces, from s to e. */
static int
template_expr(const char *s, const char *e)
{
	const char *p = s;
	int len, nd;

	if (p < e && strchr("+#./;?&", *p) != NULL)
		p++;
	for (;;) {
		len = 0;
		for (;;) {
			if (p < e && (is_alpha((unsigned char)*p) ||
			    is_digit((unsigned char)*p) || *p == '_'))
				p++;
			else if (p + 2 < e && *p == '%' &&
			    is_hex((unsigned char)p[1]) &&
			    is_hex((unsigned char)p[2]))
				p += 3;
			else
				break;
			len++;
			if (p + 1 < e && *p == '.' && p[1] != '.' &&
			    p[1] != ',' && p[1] != ':' && p[1] != '*')
				p++;
		}
		if (len == 0)
			return 0;
		if (p < e && *p == '*')
			p++;
		else if (p < e && *p == ':') {
			p++;
			if (p == e || *p < '1' || *p > '9')
				return 0;
			for (nd = 0; p < e && is_digit((unsigned char)*p); p++)
				nd++;
			if (nd > 4)
				return 0;
		}
		if (p == e)
			return 1;
		if (*p != ',')
			return 0;
		p++;
	}
}

static int
check_template(const char *s, size_t n)
{
	const char *p = s, *e = s + n, *close;
	unsigned char c;

	while (p < e) {
		c = (unsigned char)*p;
		if (c == '{') {
			close = memchr(p, '}', (size_t)(e - p));
			if (close == NULL || !template_expr(p + 1, close))
				return 0;
			p = close + 1;
		} else if (c == '%') {
			if (e - p < 3 || !is_hex((unsigned char)p[1]) ||
			    !is_hex((unsigned char)p[2]))
				return 0;
			p += 3;
		} else if (c <= 0x20 || c == 0x7F || strchr("\"<>\\^`|}",
		    c) != NULL)
			return 0;
		else
			p++;
	}
	return utf8_valid(s, n) == n;
}

/*
 * Digits and a unit, one or more times, each unit the one after the last
 * in units ("YMD": Y, YM, YMD, M, MD, D). How many, or -1.
 */
static int
dur_part(const char **p, const char *e, const char *units)
{
	const char *q, *u, *last = NULL;
	int count = 0;

	while (*p < e && is_digit((unsigned char)**p)) {
		for (q = *p; q < e && is_digit((unsigned char)*q); q++)
			;
		if (q == e || *q == '\0' || (u = strchr(units, *q)) == NULL ||
		    (last != NULL && u != last + 1))
			return -1;
		last = u;
		*p = q + 1;
		count++;
	}
	return count;
}

static int
check_duration(const char *s, size_t n)
{
	const char *p = s + 1, *e = s + n;
	int date, time = 0;

	if (n < 3 || s[0] != 'P')
		return 0;
	if (s[n - 1] == 'W') {
		for (p = s + 1; p < e - 1; p++)
			if (!is_digit((unsigned char)*p))
				return 0;
		return 1;
	}
	if ((date = dur_part(&p, e, "YMD")) == -1)
		return 0;
	if (p < e) {
		if (*p++ != 'T' || (time = dur_part(&p, e, "HMS")) <= 0)
			return 0;
	}
	return p == e && date + time > 0;
}

static int
check_uuid(const char *s, size_t n)
{
	size_t i;

	if (n != 36)
		return 0;
	for (i = 0; i < n; i++)
		if ((i == 8 || i == 13 || i == 18 || i == 23) ? s[i] != '-' :
		    !is_hex((unsigned char)s[i]))
			return 0;
	return 1;
}

/* JSSCHEMA_FORMAT_TROUBLE when PCRE2 cannot be loaded. */
static int
check_regex(const char *s, size_t n)
{
	struct jsschema_regex *re;

	if ((re = jsschema_regex_compile(s, n, NULL, 0)) == NULL) {
		if ((trouble = jsschema_regex_trouble()) != NULL)
			return JSSCHEMA_FORMAT_TROUBLE;
		return 0;
	}
	jsschema_regex_free(re);
	return 1;
}

/* The format names that need libidn2, by their check. */
static int
idn_check(const char *name, const char *s, size_t n)
{
	if (strcmp(name, "idn-email") == 0)
		return utf8_valid(s, n) == n ? check_email(s, n, 1) : 0;
	if (strcmp(name, "email") == 0)
		return check_email(s, n, 0);
	if (strcmp(name, "hostname") == 0)
		return check_hostname(s, n, 0);
	if (strcmp(name, "idn-hostname") == 0)
		return check_idn_hostname(s, n);
	return -2;
}

int
jsschema_format_check(const char *name, const char *s, size_t n)
{
	int r;

	if ((r = idn_check(name, s, n)) != -2)
		return r == -1 ? JSSCHEMA_FORMAT_TROUBLE : r;
	if (strcmp(name, "date-time") == 0)
		return check_datetime(s, n);
	if (strcmp(name, "date") == 0)
		return check_date(s, n);
	if (strcmp(name, "time") == 0)
		return check_time(s, n);
	if (strcmp(name, "ipv4") == 0)
		return check_ipv4(s, n);
	if (strcmp(name, "ipv6") == 0)
		return check_ipv6(s, n);
	if (strcmp(name, "uri") == 0)
		return check_uri(s, n, 0, 0);
	if (strcmp(name, "uri-reference") == 0)
		return check_uri(s, n, 0, 1);
	if (strcmp(name, "iri") == 0)
		return check_uri(s, n, 1, 0);
	if (strcmp(name, "iri-reference") == 0)
		return check_uri(s, n, 1, 1);
	if (strcmp(name, "json-pointer") == 0)
		return check_pointer(s, n);
	if (strcmp(name, "relative-json-pointer") == 0)
		return check_relpointer(s, n);
	if (strcmp(name, "regex") == 0)
		return check_regex(s, n);
	if (strcmp(name, "uri-template") == 0)
		return check_template(s, n);
	if (strcmp(name, "duration") == 0)
		return check_duration(s, n);
	if (strcmp(name, "uuid") == 0)
		return check_uuid(s, n);
	return -1;
}
