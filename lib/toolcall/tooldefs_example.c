/*
 * tooldefs_example: the example call the prompt shows for a tool, made
 * from its schema: the required parameters (or all, when none is), each
 * its const, first enum value, default, first example or a placeholder
 * of its type; written in the markup the prompt teaches: seed 003's XML,
 * a dialect's raw-text values or JSON, or Python literals. A schema is
 * made into a value once and shared where it is used again; making and
 * writing stop at a budget in proportion to the schema, and then no
 * example is shown. What a markup cannot hold (a parameter's name, a
 * value that holds its markup) is left out of the call.
 */
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <expat.h>
#include <jansson.h>

#include "base/buf.h"
#include "base/jsonw.h"
#include "schema/jsschema_regex.h"
#include "toolcall/tooldefs.h"
#include "toolcall/tooldefs_int.h"
#include "xml/xmlesc.h"

/* ---- the example ---- */

static int
is_null_type(struct walk *w, const json_t *s)
{
	const char *t = json_string_value(tooldefs_kw(w, s, K_TYPE));

	return t != NULL && strcmp(t, "null") == 0;
}

/*
 * The schema an example value is made from: the first branch of anyOf
 * or oneOf that is not {"type":"null"}, or s.
 */
static const json_t *
first_branch(struct walk *w, const json_t *s)
{
	const json_t *br;
	size_t i;

	if (tooldefs_kw(w, s, K_TYPE) != NULL ||
	    (br = tooldefs_branches(w, s)) == NULL)
		return s;
	for (i = 0; i < json_array_size(br); i++)
		if (!is_null_type(w, json_array_get(br, i)))
			return json_array_get(br, i);
	return json_array_get(br, 0);
}


/*
 * Spends n of what making the example may take (the properties looked
 * at, the members and items made): 0, or -1 once it is spent, so that
 * making an example that would be too large to show stops early, in time
 * that grows with the schema.
 */
static int
spend(struct walk *w, size_t n)
{
	if (w->exover || n > w->exleft) {
		w->exover = 1;
		return -1;
	}
	w->exleft -= n;
	return 0;
}

/*
 * Example values. A string, where nothing else says what it is, is a
 * placeholder of its format.
 */
static const struct {
	const char	*format;
	const char	*value;
} formats[] = {
	{ "date",		"2024-01-31" },
	{ "date-time",		"2024-01-31T12:00:00Z" },
	{ "email",		"user@example.com" },
	{ "hostname",		"example.com" },
	{ "ipv4",		"192.0.2.1" },
	{ "ipv6",		"2001:db8::1" },
	{ "iri",		"https://example.com/" },
	{ "time",		"12:00:00Z" },
	{ "uri",		"https://example.com/" },
	{ "uuid",		"123e4567-e89b-12d3-a456-426614174000" },
};

/* ---- a string that matches a pattern ---- */

/* The longest string made from a pattern, and the deepest group. */
#define PATTERN_TEXT	256
#define PATTERN_NEST	64

/* A pattern being read: its text, where the reader is, how deep. */
struct pat {
	const char	*s;
	size_t		 n, i;
	int		 depth;
};

static int	pat_alt(struct pat *, struct buf *);

/* The end of the escape, class or group at p->i (on its first byte). */
static size_t
pat_skip_one(const struct pat *p, size_t i)
{
	int depth = 0, cls = 0;

	for (; i < p->n; i++) {
		if (p->s[i] == '\\') {
			i++;
			if (depth == 0 && !cls)
				return i + 1;
			continue;
		}
		if (cls) {
			if (p->s[i] == ']')
				cls = 0;
			if (!cls && depth == 0)
				return i + 1;
			continue;
		}
		if (p->s[i] == '[')
			cls = 1;
		else if (p->s[i] == '(')
			depth++;
		else if (p->s[i] == ')' && --depth <= 0)
			return i + 1;
		else if (depth == 0)
			return i + 1;
	}
	return p->n;
}

/* Whether character class item set (its text, [a, b)) holds c. */
static int
class_has(const char *s, size_t a, size_t b, char c)
{
	size_t i;
	char lo;

	for (i = a; i < b; i++) {
		if (s[i] == '\\' && i + 1 < b) {
			i++;
			if ((s[i] == 'd' && c >= '0' && c <= '9') ||
			    (s[i] == 'w' && (c == '_' || (c >= '0' &&
			    c <= '9') || ((c | 0x20) >= 'a' &&
			    (c | 0x20) <= 'z'))) ||
			    (s[i] == 's' && c == ' ') || s[i] == c)
				return 1;
			/* \D, \W, \S and the rest: taken to hold c */
			if (strchr("DWSbBcxu", s[i]) != NULL)
				return 1;
			continue;
		}
		lo = s[i];
		if (i + 2 < b && s[i + 1] == '-' && s[i + 2] != '\\') {
			if (c >= lo && c <= s[i + 2])
				return 1;
			i += 2;
		} else if (lo == c)
			return 1;
	}
	return 0;
}

/* One character of the class at p->i ("[" read): -1 when none is found. */
static int
pat_class(struct pat *p, struct buf *b)
{
	static const char tries[] = "a0_ x-Z.";
	size_t a, e;
	const char *t;
	int neg;

	if ((neg = p->i < p->n && p->s[p->i] == '^'))
		p->i++;
	a = p->i;
	for (e = a; e < p->n && p->s[e] != ']'; e++)
		if (p->s[e] == '\\')
			e++;
	if (e >= p->n)
		return -1;
	p->i = e + 1;
	if (!neg && e == a)
		return -1;	/* [] matches nothing */
	if (neg) {
		for (t = tries; *t != '\0'; t++)
			if (!class_has(p->s, a, e, *t)) {
				buf_addc(b, *t);
				return 0;
			}
		return -1;
	}
	if (p->s[a] == '\\' && a + 1 < e) {
		switch (p->s[a + 1]) {
		case 'd':	buf_addc(b, '0'); return 0;
		case 'w':	buf_addc(b, 'a'); return 0;
		case 's':	buf_addc(b, ' '); return 0;
		case 'n':	buf_addc(b, '\n'); return 0;
		case 't':	buf_addc(b, '\t'); return 0;
		}
		if (strchr("DWSbBcxu0123456789", p->s[a + 1]) != NULL)
			return -1;
		buf_addc(b, p->s[a + 1]);
		return 0;
	}
	/* a character of more than one byte: all of it */
	buf_addc(b, p->s[a]);
	for (a++; a < e && ((unsigned char)p->s[a] & 0xC0) == 0x80; a++)
		buf_addc(b, p->s[a]);
	return 0;
}

/* The atom at p->i, made once into b: 1 when it is none (an anchor). */
static int
pat_atom(struct pat *p, struct buf *b)
{
	char c = p->s[p->i++];
	int r;

	switch (c) {
	case '^':
	case '$':
		return 1;
	case '.':
		buf_addc(b, 'a');
		return 0;
	case '[':
		return pat_class(p, b);
	case '(':
		if (p->i < p->n && p->s[p->i] == '?') {
			if (p->i + 1 < p->n && p->s[p->i + 1] == ':')
				p->i += 2;
			else if (p->i + 1 < p->n && p->s[p->i + 1] == '<' &&
			    p->i + 2 < p->n && p->s[p->i + 2] != '=' &&
			    p->s[p->i + 2] != '!') {
				/* a named group: its name skipped */
				while (p->i < p->n && p->s[p->i] != '>')
					p->i++;
				p->i++;
			} else {
				/* a lookaround makes nothing */
				p->i = pat_skip_one(p, p->i - 1);
				return 1;
			}
		}
		if (++p->depth > PATTERN_NEST)
			return -1;
		r = pat_alt(p, b);
		p->depth--;
		if (r < 0 || p->i >= p->n || p->s[p->i] != ')')
			return -1;
		p->i++;
		return 0;
	case '\\':
		if (p->i >= p->n)
			return -1;
		c = p->s[p->i++];
		switch (c) {
		case 'd':	buf_addc(b, '0'); return 0;
		case 'D':	buf_addc(b, 'a'); return 0;
		case 'w':	buf_addc(b, 'a'); return 0;
		case 'W':	buf_addc(b, '-'); return 0;
		case 's':	buf_addc(b, ' '); return 0;
		case 'S':	buf_addc(b, 'a'); return 0;
		case 'n':	buf_addc(b, '\n'); return 0;
		case 't':	buf_addc(b, '\t'); return 0;
		case 'b':
		case 'B':	return 1;
		}
		if (strchr("cxukpP0123456789", c) != NULL)
			return -1;
		buf_addc(b, c);
		return 0;
	case '*':
	case '+':
	case '?':
	case '{':
	case '|':
	case ')':
		return -1;
	}
	/* a character of more than one byte: all of it */
	buf_addc(b, c);
	for (; p->i < p->n && ((unsigned char)p->s[p->i] & 0xC0) == 0x80;
	    p->i++)
		buf_addc(b, p->s[p->i]);
	return 0;
}

/*
 * The quantifier at p->i: how many times the atom before it is made, the
 * fewest it allows; 1 when there is none, -1 when it cannot be read.
 */
static long
pat_times(struct pat *p)
{
	long lo = 1;
	char *end;

	if (p->i >= p->n)
		return 1;
	switch (p->s[p->i]) {
	case '?':
	case '*':
		lo = 0;
		p->i++;
		break;
	case '+':
		p->i++;
		break;
	case '{':
		if (p->i + 1 >= p->n || p->s[p->i + 1] < '0' ||
		    p->s[p->i + 1] > '9')
			return 1;	/* a literal brace */
		lo = strtol(p->s + p->i + 1, &end, 10);
		while (end < p->s + p->n && *end != '}')
			end++;
		if (end >= p->s + p->n || lo > PATTERN_TEXT)
			return -1;
		p->i = (size_t)(end - p->s) + 1;
		break;
	default:
		return 1;
	}
	if (p->i < p->n && p->s[p->i] == '?')
		p->i++;
	return lo;
}

/*
 * The first alternative of the alternation at p->i, into b, the others
 * passed over; p->i is left on the ')' that ends a group, or at the end.
 */
static int
pat_alt(struct pat *p, struct buf *b)
{
	struct buf one = BUF_INIT;
	long k, t;
	int r = 0;

	while (p->i < p->n && p->s[p->i] != '|' && p->s[p->i] != ')') {
		buf_reset(&one);
		if ((r = pat_atom(p, &one)) < 0)
			break;
		if ((t = pat_times(p)) < 0) {
			r = -1;
			break;
		}
		/* an anchor or a lookaround makes nothing, however often */
		for (k = 0; r == 0 && k < t; k++) {
			if (b->len + one.len > PATTERN_TEXT) {
				r = -1;
				break;
			}
			buf_add(b, one.data, one.len);
		}
		if (r < 0)
			break;
		r = 0;
	}
	while (r >= 0 && p->i < p->n && p->s[p->i] == '|')
		for (p->i++; p->i < p->n && p->s[p->i] != '|' &&
		    p->s[p->i] != ')'; )
			p->i = pat_skip_one(p, p->i);
	buf_free(&one);
	return r < 0 ? -1 : 0;
}

/*
 * A string that pattern re (its text pat, n bytes) matches, into t: its
 * fewest repetitions and first alternatives, the first character of a
 * class; checked by re itself. -1 when the pattern uses what this does
 * not make (back references, \u escapes) or makes too long a string.
 */
static int
pat_string(const struct jsschema_regex *re, const char *pat, size_t n, struct buf *t)
{
	struct pat p = { pat, n, 0, 0 };

	buf_reset(t);
	if (pat_alt(&p, t) != 0 || p.i != n)
		return -1;
	return jsschema_regex_search(re, t->data != NULL ? t->data : "", t->len) == 1 ?
	    0 : -1;
}

static json_t *
gen_string(struct walk *w, const json_t *s)
{
	const char *f = json_string_value(tooldefs_kw(w, s, K_FORMAT));
	json_int_t min = json_integer_value(tooldefs_kw(w, s, K_MINLENGTH));
	const json_t *maxv = tooldefs_kw(w, s, K_MAXLENGTH);
	const json_t *pat = tooldefs_kw(w, s, K_PATTERN);
	struct buf t = BUF_INIT, m = BUF_INIT;
	struct jsschema_regex *re;
	char err[256];
	json_t *v;
	size_t i;

	buf_adds(&t, "example");
	for (i = 0; f != NULL && i < sizeof(formats) / sizeof(formats[0]);
	    i++)
		if (strcmp(f, formats[i].format) == 0) {
			buf_reset(&t);
			buf_adds(&t, formats[i].value);
		}
	while ((json_int_t)t.len < min && t.len < 64)
		buf_addc(&t, 'x');
	if (json_is_integer(maxv) && json_integer_value(maxv) >= 0 &&
	    (json_int_t)t.len > json_integer_value(maxv))
		t.len = (size_t)json_integer_value(maxv);
	/* a pattern the placeholder does not match makes one that it does */
	if (json_is_string(pat) && (re = jsschema_regex_compile(json_string_value(pat),
	    json_string_length(pat), err, sizeof(err))) != NULL) {
		if (jsschema_regex_search(re, t.data, t.len) != 1 &&
		    pat_string(re, json_string_value(pat),
		    json_string_length(pat), &m) == 0) {
			buf_reset(&t);
			buf_add(&t, m.data, m.len);
		}
		jsschema_regex_free(re);
	}
	v = json_stringn(t.data != NULL ? t.data : "", t.len);
	buf_free(&t);
	buf_free(&m);
	return v;
}

/* x, moved into the bounds of s when it is out of them. */
static double
in_bounds(struct walk *w, const json_t *s, double x, double step)
{
	const json_t *v;

	if (json_is_number(v = tooldefs_kw(w, s, K_MINIMUM)) &&
	    x < json_number_value(v))
		x = json_number_value(v);
	if (json_is_number(v = tooldefs_kw(w, s, K_EXCLUSIVEMINIMUM)) &&
	    x <= json_number_value(v))
		x = json_number_value(v) + step;
	if (json_is_number(v = tooldefs_kw(w, s, K_MAXIMUM)) &&
	    x > json_number_value(v))
		x = json_number_value(v);
	if (json_is_number(v = tooldefs_kw(w, s, K_EXCLUSIVEMAXIMUM)) &&
	    x >= json_number_value(v))
		x = json_number_value(v) - step;
	return x;
}

static json_t	*gen(struct walk *, const json_t *, int);

/* An object: its required properties, or all of them when none is. */
static json_t *
gen_object(struct walk *w, const json_t *s, int depth)
{
	struct props p;
	json_t *o = json_object(), *v;
	size_t i, nreq = 0;

	tooldefs_props(w, s, &p);
	for (i = 0; i < p.n; i++)
		nreq += p.v[i].required;
	for (i = 0; spend(w, i == 0 ? p.n : 0) == 0 && i < p.n; i++) {
		if ((nreq > 0 && !p.v[i].required) || spend(w, 1) != 0)
			continue;
		v = p.v[i].schema != NULL ? gen(w, p.v[i].schema, depth + 1) :
		    json_string("example");
		if (v != NULL)
			json_object_set_new(o, p.v[i].name, v);
	}
	tooldefs_props_free(&p);
	return o;
}

/* An array: one item per prefixItems, or max(1, minItems) items. */
static json_t *
gen_array(struct walk *w, const json_t *s, int depth)
{
	const json_t *pre = tooldefs_kw(w, s, K_PREFIXITEMS);
	const json_t *items = tooldefs_kw(w, s, K_ITEMS);
	json_t *a = json_array(), *v;
	json_int_t n, i;

	for (i = 0; i < (json_int_t)json_array_size(pre) && spend(w, 1) == 0;
	    i++)
		if ((v = gen(w, json_array_get(pre, i), depth + 1)) != NULL)
			json_array_append_new(a, v);
	if (json_array_size(pre) > 0)
		return a;
	n = json_integer_value(tooldefs_kw(w, s, K_MINITEMS));
	n = n < 1 ? 1 : n > MAX_ITEMS ? MAX_ITEMS : n;
	if (spend(w, (size_t)n) != 0)
		return a;
	v = items != NULL ? gen(w, items, depth + 1) : json_string("example");
	for (i = 0; v != NULL && i < n; i++)
		json_array_append(a, v);
	json_decref(v);
	return a;
}

/* The type an example of s is made as: its first type but null. */
static const char *
gen_type(struct walk *w, const json_t *s)
{
	const json_t *t = tooldefs_kw(w, s, K_TYPE);
	const char *first = NULL, *n;
	size_t i;

	if (json_is_string(t))
		return json_string_value(t);
	for (i = 0; i < json_array_size(t); i++) {
		if ((n = json_string_value(json_array_get(t, i))) == NULL)
			continue;
		if (strcmp(n, "null") != 0)
			return n;
		first = n;
	}
	if (first != NULL)
		return first;
	if (tooldefs_kw(w, s, K_PROPERTIES) != NULL)
		return "object";
	if (tooldefs_kw(w, s, K_ITEMS) != NULL ||
	    tooldefs_kw(w, s, K_PREFIXITEMS) != NULL)
		return "array";
	return "string";
}

/*
 * The example of the first branch of s, b, or else of the first of the
 * others that has one (the first may hold s itself).
 */
static json_t *
gen_branch(struct walk *w, const json_t *s, const json_t *b, int depth)
{
	const json_t *br = tooldefs_branches(w, s);
	json_t *r;
	size_t i;

	if ((r = gen(w, b, depth)) != NULL)
		return r;
	for (i = 0; r == NULL && i < json_array_size(br); i++)
		if (json_array_get(br, i) != b)
			r = gen(w, json_array_get(br, i), depth);
	return r;
}

/*
 * An example value of schema s: its const, its first enum value, its
 * default, its first example, or a placeholder of its type. Made once
 * for each schema, and shared where the schema is used again; NULL when
 * s is already being made (a recursive schema) or nests too deep (in
 * objects and arrays), so that the property or item that would hold it
 * is left out.
 */
static json_t *
gen(struct walk *w, const json_t *s, int depth)
{
	const json_t *v, *b;
	const char *t;
	struct node *n;
	json_t *r;

	if (!json_is_object(s))
		return json_string("example");
	n = tooldefs_node(w, s);
	if (w->exover)
		return NULL;
	if (n->exstate == DONE)
		return n->ex != NULL ? json_incref(n->ex) : NULL;
	if (n->exstate == BUSY || depth > MAX_NEST)
		return NULL;
	n->exstate = BUSY;
	if ((v = tooldefs_kw(w, s, K_CONST)) != NULL ||
	    json_array_size(v = tooldefs_kw(w, s, K_ENUM)) > 0 ||
	    (v = tooldefs_kw(w, s, K_DEFAULT)) != NULL ||
	    json_array_size(v = tooldefs_kw(w, s, K_EXAMPLES)) > 0) {
		if (json_is_array(v) && v != tooldefs_kw(w, s, K_CONST) &&
		    v != tooldefs_kw(w, s, K_DEFAULT))
			v = json_array_get(v, 0);
		r = json_incref((json_t *)v);
	} else if ((b = tooldefs_canon(w, s)) != s) {
		/* what holds itself: its properties that do not, or none */
		if (tooldefs_node(w, b)->exstate != BUSY)
			r = gen(w, b, depth);
		else if (tooldefs_kw(w, s, K_PROPERTIES) != NULL)
			r = gen_object(w, s, depth);
		else
			r = NULL;
	} else if ((b = first_branch(w, s)) != s)
		r = gen_branch(w, s, b, depth);
	else if (strcmp(t = gen_type(w, s), "object") == 0)
		r = gen_object(w, s, depth);
	else if (strcmp(t, "array") == 0)
		r = gen_array(w, s, depth);
	else if (strcmp(t, "integer") == 0)
		r = json_integer((json_int_t)ceil(in_bounds(w, s, 1, 1)));
	else if (strcmp(t, "number") == 0)
		r = json_real(in_bounds(w, s, 1.5, 1));
	else if (strcmp(t, "boolean") == 0)
		r = json_true();
	else if (strcmp(t, "null") == 0)
		r = json_null();
	else
		r = gen_string(w, s);
	n->ex = r;
	n->exstate = DONE;
	return r != NULL ? json_incref(r) : NULL;
}

/*
 * Whether s can be an element's name in a call: an ASCII name without
 * ':', or else one that expat, which reads the calls, takes (XML's rules
 * for other characters are long, and expat's are the ones that count).
 */
static int
xml_name(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	struct buf doc = BUF_INIT;
	XML_Parser xp;
	int ascii = 1, ok;

	if (!(*p >= 0x80 || *p == '_' ||
	    ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z')))
		return 0;
	for (; *p != '\0'; p++) {
		if (*p >= 0x80)
			ascii = 0;
		else if (!(*p == '_' || *p == '-' || *p == '.' ||
		    (*p >= '0' && *p <= '9') ||
		    ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z')))
			return 0;
	}
	if (ascii)
		return 1;
	if ((xp = XML_ParserCreate("UTF-8")) == NULL)
		return 0;
	buf_printf(&doc, "<%s/>", s);
	ok = XML_Parse(xp, doc.data, (int)doc.len, 1) == XML_STATUS_OK;
	XML_ParserFree(xp);
	buf_free(&doc);
	return ok;
}

/* Whether object o can be written as elements. */
static int
xml_object(const json_t *o)
{
	const char *k;
	json_t *v;

	if (json_object_size(o) == 0)
		return 0;
	json_object_foreach((json_t *)o, k, v)
		if (!xml_name(k))
			return 0;
	return 1;
}

/*
 * What writing v costs, about its bytes, up to limit (then limit + 1):
 * a value shared in several places costs in each, though it is counted
 * once for each, so that an example made of shared values is priced in
 * time that grows with the values, not with the example.
 */
static size_t
cost(struct ptab *memo, const json_t *v, size_t limit)
{
	const char *k;
	json_t *m;
	void *was;
	size_t c, i;

	if ((was = ptab_get(memo, v)) != NULL)
		return (size_t)(uintptr_t)was - 1;
	c = ELEMENT_COST;
	if (json_is_string(v))
		c += json_string_length(v);
	else if (json_is_array(v))
		json_array_foreach((json_t *)v, i, m) {
			c += cost(memo, m, limit);
			if (c > limit)
				break;
		}
	else if (json_is_object(v))
		json_object_foreach((json_t *)v, k, m) {
			c += 2 * strlen(k) + cost(memo, m, limit);
			if (c > limit)
				break;
		}
	if (c > limit)
		c = limit + 1;
	/* kept plus one, so that no value is a NULL slot */
	*ptab_slot(memo, v) = (void *)(uintptr_t)(c + 1);
	return c;
}

void
tooldefs_xml_text(struct buf *b, const char *s, size_t n)
{
	xmlesc_append(b, s, n, 0, NULL);
}

/*
 * A string as the element's text: escaped, or in CDATA when it spans
 * lines or begins or ends with white space, which plain text loses.
 */
static void
xml_string(struct buf *b, const char *s, size_t n)
{
	size_t i;

	if (n == 0 || (memchr(s, '\n', n) == NULL &&
	    strchr(" \t\r\n", s[0]) == NULL &&
	    strchr(" \t\r\n", s[n - 1]) == NULL)) {
		tooldefs_xml_text(b, s, n);
		return;
	}
	buf_adds(b, "<![CDATA[");
	for (i = 0; i < n; i++) {
		buf_addc(b, s[i]);
		/* "]]>" would end the section: "]]" in it, ">" in the next */
		if (s[i] == ']' && i + 2 < n && s[i + 1] == ']' &&
		    s[i + 2] == '>') {
			buf_adds(b, "]]]><![CDATA[");
			i++;
		}
	}
	buf_adds(b, "]]>");
}

/*
 * Value v as the element name, at indent: an array as the element
 * repeated, an object as elements inside it; what elements cannot hold
 * (an array in an array, an empty array or object, a key that is no XML
 * name) as JSON text.
 */
static void
xml_value(struct buf *b, const char *name, const json_t *v, int indent)
{
	struct buf t = BUF_INIT;
	const char *k;
	json_t *m;
	size_t i;

	if (json_is_array(v) && json_array_size(v) > 0) {
		for (i = 0; i < json_array_size(v); i++) {
			m = json_array_get(v, i);
			if (!json_is_array(m)) {
				xml_value(b, name, m, indent);
				continue;
			}
			buf_printf(b, "%*s<%s>", indent, "", name);
			jsonw_stringify(&t, m);
			tooldefs_xml_text(b, t.data, t.len);
			buf_reset(&t);
			buf_printf(b, "</%s>\n", name);
		}
		buf_free(&t);
		return;
	}
	buf_printf(b, "%*s<%s>", indent, "", name);
	if (json_is_object(v) && xml_object(v)) {
		buf_addc(b, '\n');
		json_object_foreach((json_t *)v, k, m)
			xml_value(b, k, m, indent + 2);
		buf_printf(b, "%*s", indent, "");
	} else if (json_is_string(v))
		xml_string(b, json_string_value(v), json_string_length(v));
	else {
		jsonw_stringify(&t, v);
		tooldefs_xml_text(b, t.data, t.len);
	}
	buf_printf(b, "</%s>\n", name);
	buf_free(&t);
}

/* ---- the call in each markup ---- */

/*
 * How deep a value of an example may nest (itself level 1): the readers
 * of the calls refuse a value past the depth of jansson's reader, 2048
 * levels counted from the call's own.
 */
#define VALUE_DEPTH	1024

/* Whether s begins or ends with white space, which the readers trim. */
static int
edge_space(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && (strchr(" \t\r\n", s[0]) != NULL ||
	    strchr(" \t\r\n", s[n - 1]) != NULL);
}

/* Why s, a tool's name or with key a parameter's, cannot be in m's calls. */
const char *
tooldefs_fault(const struct markup *m, const char *s, int key)
{
	return m->fault != NULL ? m->fault(m, s, key) : NULL;
}

const char *
tooldefs_fault_tool(const struct markup *m, const char *s, int key)
{
	return key && !xml_name(s) ? "is no XML name" : NULL;
}

/* qwen3, invoke, glm: a name runs to the markup's next '<' or '>'. */
const char *
tooldefs_fault_raw(const struct markup *m, const char *s, int key)
{
	const char *p;

	if (*s == '\0')
		return "is empty";
	for (p = s; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7F)
			return "holds a control character";
	if (edge_space(s))
		return "begins or ends with white space";
	if (strpbrk(s, "<>") != NULL)
		return "holds < or >";
	if (m->quoted && strchr(s, '"') != NULL && strchr(s, '\'') != NULL)
		return "holds both kinds of quote";
	return NULL;
}

/* harmony: the name is a word of the head, after to=functions. */
const char *
tooldefs_fault_harmony(const struct markup *m, const char *s, int key)
{
	if (key)
		return NULL;
	if (strpbrk(s, " \t\r\n") != NULL)
		return "holds white space";
	if (strstr(s, "<|") != NULL)
		return "holds <|";
	return NULL;
}

/* deepseek: the name runs to <｜tool▁sep｜>, trimmed. */
const char *
tooldefs_fault_deepseek(const struct markup *m, const char *s, int key)
{
	if (key)
		return NULL;
	if (edge_space(s))
		return "begins or ends with white space";
	if (strstr(s, "<\xef\xbd\x9c") != NULL)
		return "holds <\xef\xbd\x9c";
	return NULL;
}

/* mistral: the name runs to [ARGS], [CALL_ID] or '{', trimmed. */
const char *
tooldefs_fault_mistral(const struct markup *m, const char *s, int key)
{
	if (key)
		return NULL;
	if (edge_space(s))
		return "begins or ends with white space";
	if (strpbrk(s, "[{") != NULL)
		return "holds [ or {";
	return NULL;
}

/* kimi: the name is in the call's id, before <|tool_call_argument_begin|>. */
const char *
tooldefs_fault_kimi(const struct markup *m, const char *s, int key)
{
	if (!key && strstr(s, "<|") != NULL)
		return "holds <|";
	return NULL;
}

/*
 * pythonic: a tool's name is Python names joined by '.' or '-', a
 * keyword argument's joined by '-' (as lib/pylit reads them).
 */
const char *
tooldefs_fault_python(const struct markup *m, const char *s, int key)
{
	static const char word[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789";
	size_t i = 0, k;

	/* the first byte a letter or '_', each part after a separator
	 * one byte of word or more */
	if (s[0] == '\0' || strchr(word, s[0]) == NULL ||
	    (s[0] >= '0' && s[0] <= '9'))
		goto bad;
	for (;;) {
		if ((k = strspn(s + i, word)) == 0)
			goto bad;
		i += k;
		if (s[i] == '\0')
			return NULL;
		if (!(s[i] == '-' || (!key && s[i] == '.')))
			goto bad;
		i++;
	}
bad:
	return key ? "is no Python name" : "is not Python names joined by "
	    ". or -";
}

/*
 * v as JSON text, a space after each ':' and ',' as Python's json.dumps
 * writes it, which is how models see JSON in their training: members in
 * their order, integers exact. -1 when it nests past VALUE_DEPTH.
 */
static int
json_text(struct buf *b, const json_t *v, int depth)
{
	const char *k;
	json_t *m;
	size_t i;

	if (depth > VALUE_DEPTH)
		return -1;
	if (json_is_object(v)) {
		buf_addc(b, '{');
		i = 0;
		json_object_foreach((json_t *)v, k, m) {
			if (i++ > 0)
				buf_adds(b, ", ");
			jsonw_string(b, k, strlen(k));
			buf_adds(b, ": ");
			if (json_text(b, m, depth + 1) != 0)
				return -1;
		}
		buf_addc(b, '}');
	} else if (json_is_array(v)) {
		buf_addc(b, '[');
		json_array_foreach((json_t *)v, i, m) {
			if (i > 0)
				buf_adds(b, ", ");
			if (json_text(b, m, depth + 1) != 0)
				return -1;
		}
		buf_addc(b, ']');
	} else
		jsonw_exact(b, v);
	return 0;
}

/* A Python string literal in double quotes, its text escaped. */
static void
py_string(struct buf *b, const char *s, size_t n)
{
	size_t i;
	unsigned char c;

	buf_addc(b, '"');
	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			buf_printf(b, "\\%c", c);
		else if (c == '\n')
			buf_adds(b, "\\n");
		else if (c == '\r')
			buf_adds(b, "\\r");
		else if (c == '\t')
			buf_adds(b, "\\t");
		else if (c < 0x20 || c == 0x7F)
			buf_printf(b, "\\x%02x", c);
		else
			buf_addc(b, (char)c);
	}
	buf_addc(b, '"');
}

/*
 * v as a Python literal, as ast.literal_eval reads it back into the same
 * JSON: dicts and lists, True, False and None. -1 when it nests past
 * VALUE_DEPTH, or has a key with a NUL character, which lib/pylit
 * refuses.
 */
static int
py_text(struct buf *b, const json_t *v, int depth)
{
	const char *k;
	json_t *m;
	size_t i, klen;

	if (depth > VALUE_DEPTH)
		return -1;
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		buf_addc(b, '{');
		i = 0;
		json_object_keylen_foreach((json_t *)v, k, klen, m) {
			if (memchr(k, '\0', klen) != NULL)
				return -1;
			if (i++ > 0)
				buf_adds(b, ", ");
			py_string(b, k, klen);
			buf_adds(b, ": ");
			if (py_text(b, m, depth + 1) != 0)
				return -1;
		}
		buf_addc(b, '}');
		break;
	case JSON_ARRAY:
		buf_addc(b, '[');
		json_array_foreach((json_t *)v, i, m) {
			if (i > 0)
				buf_adds(b, ", ");
			if (py_text(b, m, depth + 1) != 0)
				return -1;
		}
		buf_addc(b, ']');
		break;
	case JSON_STRING:
		py_string(b, json_string_value(v), json_string_length(v));
		break;
	case JSON_TRUE:
		buf_adds(b, "True");
		break;
	case JSON_FALSE:
		buf_adds(b, "False");
		break;
	case JSON_NULL:
		buf_adds(b, "None");
		break;
	default:
		jsonw_exact(b, v);
	}
	return 0;
}

/*
 * Whether v can be written as XML's text: none of its strings holds a
 * character XML 1.0 forbids (C0 controls but tab, newline, CR), nor a CR,
 * which an XML reader reads as a newline, in CDATA too. A value shared in
 * several places is walked in each: v is no larger than the budget.
 */
static int
xml_holds(const json_t *v)
{
	const char *k, *s;
	json_t *m;
	size_t i, n;

	if (json_is_string(v)) {
		s = json_string_value(v);
		n = json_string_length(v);
		for (i = 0; i < n; i++)
			if ((unsigned char)s[i] < 0x20 && s[i] != '\t' &&
			    s[i] != '\n')
				return 0;
	} else if (json_is_array(v)) {
		json_array_foreach((json_t *)v, i, m)
			if (!xml_holds(m))
				return 0;
	} else if (json_is_object(v))
		json_object_foreach((json_t *)v, k, m)
			if (!xml_holds(m))
				return 0;
	return 1;
}

void
tooldefs_write_tool(struct buf *b, const struct markup *m, const char *name,
    const json_t *args)
{
	const char *k;
	json_t *v;

	buf_adds(b, "<tool>\n<server_name>local</server_name>\n<tool_name>");
	xml_string(b, name, strlen(name));
	buf_adds(b, "</tool_name>\n<arguments>\n");
	if (json_is_object(args))
		json_object_foreach((json_t *)args, k, v)
			if (tooldefs_fault(m, k, 1) == NULL && xml_holds(v))
				xml_value(b, k, v, 2);
	buf_adds(b, "</arguments>\n</tool>\n");
}

/* A name in the raw-text markup: in an attribute's quotes, or as it is. */
static void
raw_name(struct buf *b, const struct markup *m, const char *s)
{
	char q = strchr(s, '"') != NULL ? '\'' : '"';

	if (m->quoted)
		buf_addc(b, q);
	buf_adds(b, s);
	if (m->quoted)
		buf_addc(b, q);
}

/*
 * The text of value v in a raw-text dialect: a string as it is, any other
 * value as JSON; and in *nl whether newlines of layout go around it. -1
 * when the text holds the markup, or loses a byte to the layout (a CR
 * before the newline that ends it: the reader takes the two for one
 * newline).
 */
static int
raw_text(struct buf *t, const struct markup *m, const json_t *v, int *nl)
{
	const char *const *mk;
	const char *s;
	size_t n;

	if (json_is_string(v))
		buf_add(t, json_string_value(v), json_string_length(v));
	else if (json_text(t, v, 1) != 0)
		return -1;
	s = buf_cstr(t);
	n = t->len;
	/* a NUL cuts the text short for strstr: such a value is kept out */
	if (memchr(s, '\0', n) != NULL)
		return -1;
	for (mk = m->markups; mk != NULL && *mk != NULL; mk++)
		if (strstr(s, *mk) != NULL)
			return -1;
	switch (m->layout) {
	case LAYOUT_ALWAYS:
		*nl = 1;
		break;
	case LAYOUT_NEEDED:
		*nl = (n > 0 && s[0] == '\n') || (n > 1 && s[0] == '\r' &&
		    s[1] == '\n') || (n > 0 && s[n - 1] == '\n');
		break;
	default:
		*nl = 0;
	}
	return *nl && n > 0 && s[n - 1] == '\r' ? -1 : 0;
}

void
tooldefs_write_raw(struct buf *b, const struct markup *m, const char *name,
    const json_t *args)
{
	struct buf t = BUF_INIT;
	const char *k;
	json_t *v;
	int nl;

	buf_adds(b, m->open);
	raw_name(b, m, name);
	buf_adds(b, m->mid);
	if (json_is_object(args))
		json_object_foreach((json_t *)args, k, v) {
			buf_reset(&t);
			if (tooldefs_fault(m, k, 1) != NULL ||
			    raw_text(&t, m, v, &nl) != 0)
				continue;
			buf_adds(b, m->kopen);
			raw_name(b, m, k);
			buf_adds(b, m->kmid);
			if (nl)
				buf_addc(b, '\n');
			buf_add(b, t.data, t.len);
			if (nl)
				buf_addc(b, '\n');
			buf_adds(b, m->kclose);
		}
	buf_adds(b, m->close);
	buf_free(&t);
}

void
tooldefs_write_json(struct buf *b, const struct markup *m, const char *name,
    const json_t *args)
{
	struct buf t = BUF_INIT;
	const char *k;
	json_t *v;
	int first = 1;

	buf_adds(b, m->open);
	if (m->jsonname)
		jsonw_string(b, name, strlen(name));
	else
		buf_adds(b, name);
	buf_adds(b, m->mid);
	buf_addc(b, '{');
	if (json_is_object(args))
		json_object_foreach((json_t *)args, k, v) {
			buf_reset(&t);
			if (tooldefs_fault(m, k, 1) != NULL ||
			    json_text(&t, v, 1) != 0)
				continue;
			if (!first)
				buf_adds(b, ", ");
			first = 0;
			jsonw_string(b, k, strlen(k));
			buf_adds(b, ": ");
			buf_add(b, t.data, t.len);
		}
	buf_addc(b, '}');
	buf_adds(b, m->close);
	buf_free(&t);
}

void
tooldefs_write_python(struct buf *b, const struct markup *m,
    const char *name, const json_t *args)
{
	struct buf t = BUF_INIT;
	const char *k;
	json_t *v;
	int first = 1;

	buf_adds(b, m->open);
	buf_adds(b, name);
	buf_adds(b, m->mid);
	if (json_is_object(args))
		json_object_foreach((json_t *)args, k, v) {
			buf_reset(&t);
			if (tooldefs_fault(m, k, 1) != NULL ||
			    py_text(&t, v, 1) != 0)
				continue;
			if (!first)
				buf_adds(b, ", ");
			first = 0;
			buf_adds(b, k);
			buf_addc(b, '=');
			buf_add(b, t.data, t.len);
		}
	buf_adds(b, m->close);
	buf_free(&t);
}

/*
 * The call of d that the prompt shows, in markup m, or a line that says
 * there is none when writing it would pass the budget (a schema whose
 * smallest call is far larger than itself).
 */
void
tooldefs_example(struct buf *b, struct walk *w, const struct tooldef *d,
    const struct markup *m)
{
	struct ptab memo = { NULL, NULL, 0, 0 };
	size_t limit = BUDGET_BASE + BUDGET_EXAMPLE * w->weight;
	json_t *args;

	w->exleft = limit / ELEMENT_COST;
	args = d->schema != NULL ? gen(w, d->schema, 0) : NULL;
	if (w->exover || (args != NULL && cost(&memo, args, limit) > limit))
		buf_adds(b, "(None: a call of this tool would be too large to "
		    "show.)\n");
	else
		m->write(b, m, d->name, args);
	json_decref(args);
	ptab_free(&memo);
}
