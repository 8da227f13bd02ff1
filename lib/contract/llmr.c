/*
 * llmr: seed 000's contract checked over an element tree that expat
 * builds in one pass. Only the elements the contract knows become nodes
 * (and, with --strict, the unknown ones, to be reported); the text of the
 * five text elements and the attributes the contract names are kept. A
 * second pass over the nodes, which sit in document order, applies the
 * rules; the problems are then sorted by position and given paths. While
 * it parses it keeps byte offsets only: a line and column is worked out
 * (lib/src) for a problem found and for a subject of a valid response.
 */

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <expat.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/jsonw.h"
#include "base/src.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "check/verdict.h"
#include "contract/contract.h"
#include "contract/llmr.h"
#include "xml/xmlesc.h"
#include "xml/xmlp.h"

#define NONE		((size_t)-1)
#define NAME_SHOWN	64	/* bytes of an input's element name in a path */
#define QUOTE_SIZE	80	/* room for a quoted attribute value */

enum kind {
	K_UNKNOWN,		/* not in the contract (kept with --strict) */
	K_BADROOT,		/* a root element of another name */
	K_QUERY, K_MESSAGE, K_CONTEXT, K_ACTIVE, K_RECENT,
	K_RDOC, K_RESPONSE, K_ANALYSIS, K_SUBJECT, K_KEYWORD, K_SUMMARY,
	K_COUNT
};

enum card {
	C_ROOT,			/* the root */
	C_ONE,			/* exactly one */
	C_OPT,			/* zero or one */
	C_MANY			/* counted by rules of their own */
};

/*
 * The elements of the contract: each one's parent, its slot among the
 * parent's kinds of children, how many there may be, whether it holds
 * text, and its attributes (all of them required).
 */
static const struct kindinfo {
	const char	*name;
	enum kind	 parent;
	int		 slot;
	enum card	 card;
	int		 text;
	const char	*attrs[3];
} kinds[K_COUNT] = {
	[K_UNKNOWN] =	{ NULL, K_COUNT, 0, C_MANY, 0, { NULL } },
	[K_BADROOT] =	{ NULL, K_COUNT, 0, C_ROOT, 0, { NULL } },
	[K_QUERY] =	{ "llmQuery", K_COUNT, 0, C_ROOT, 0, { NULL } },
	[K_MESSAGE] =	{ "userMessage", K_QUERY, 0, C_ONE, 1, { NULL } },
	[K_CONTEXT] =	{ "context", K_QUERY, 1, C_ONE, 0,
			    { "topicId", "messageCount", NULL } },
	[K_ACTIVE] =	{ "activeSubjects", K_CONTEXT, 0, C_OPT, 1, { NULL } },
	[K_RECENT] =	{ "recentKeywords", K_CONTEXT, 1, C_OPT, 1, { NULL } },
	[K_RDOC] =	{ "llmResponse", K_COUNT, 0, C_ROOT, 0, { NULL } },
	[K_RESPONSE] =	{ "response", K_RDOC, 0, C_ONE, 1, { NULL } },
	[K_ANALYSIS] =	{ "analysis", K_RDOC, 1, C_ONE, 0, { NULL } },
	[K_SUBJECT] =	{ "subject", K_ANALYSIS, 0, C_MANY, 0,
			    { "name", "description", "isNew" } },
	[K_KEYWORD] =	{ "keyword", K_SUBJECT, 0, C_MANY, 0,
			    { "term", "confidence", NULL } },
	[K_SUMMARY] =	{ "summaryUpdate", K_ANALYSIS, 1, C_ONE, 1, { NULL } },
};

/* The attributes, by their index in kindinfo.attrs. */
enum { A_TOPIC = 0, A_COUNT = 1 };
enum { A_NAME = 0, A_DESCRIPTION = 1, A_ISNEW = 2 };
enum { A_TERM = 0, A_CONFIDENCE = 1 };

struct node {
	enum kind	 kind;
	size_t		 parent;	/* NONE for the root */
	size_t		 nth;		/* its rank among its kind, from 1 */
	size_t		 kids[2];	/* children of each slot */
	size_t		 name;		/* unknown or bad root: name, in pool */
	size_t		 tag;		/* offset of its '<' in the text */
	size_t		 attr[3];	/* values in pool, or NONE */
	size_t		 text;		/* its content, in text */
	size_t		 textlen;
	double		 confidence;	/* a keyword's, once checked */
	int		 stray;		/* text seen where elements belong */
};

/* A problem found, before it is sorted and given its place and path. */
struct item {
	enum diag_severity	 sev;
	const char		*rule;
	size_t			 off;	/* in the whole text, src's */
	size_t			 seq;
	size_t			 node;	/* the element, or NONE */
	size_t			 msg;	/* in msgs */
};

struct llmr {
	XML_Parser		 p;	/* the current document's, or NULL */
	const struct llmr_opts	*opts;
	struct src		 src;	/* the whole text */
	struct xmlp_origin	 origin;
	const char		*in;	/* the text parsed, at origin.offset */
	size_t			 inlen;
	enum llmr_type		 root;	/* the root's type, once seen */

	struct node		*nodes;
	size_t			 nnodes, nodecap;
	size_t			*stack;	/* open nodes */
	size_t			 depth, stackcap;
	unsigned long		 ignore; /* levels inside an ignored element */
	int			 stopped; /* a handler stopped the parse */
	int			 done;	/* --find: the root element ended */
	int			 closed; /* the root element ended */
	size_t			 root_end; /* the offset just past it */
	struct buf		 pool;	/* names and attribute values */
	struct buf		 text;	/* the content of text elements */

	struct item		*items;
	size_t			 nitems, itemcap;
	struct buf		 msgs;
	struct buf		 path;
	struct diag_list	 diags;	/* the items, in order, with paths */
	unsigned long		 errors;

	int			 valid;
	struct llmr_doc		 doc;
	struct llmr_subject	*subjects;
	size_t			 subjectcap;
	struct llmr_keyword	*keywords;
	size_t			 keywordcap;
	struct llmr_text	*lists;
	size_t			 listcap;
};

/* Grows an array of n elements of size sz so that it can hold one more. */
static void *
grow(void *a, size_t n, size_t *cap, size_t sz)
{
	if (n < *cap)
		return a;
	*cap = *cap ? *cap * 2 : 16;
	return xreallocarray(a, *cap, sz);
}

static int
blank_char(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Whether s[0..n) is empty or XML white space only. */
static int
blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!blank_char(s[i]))
			return 0;
	return 1;
}

static const char *
plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/* A value from the input, fit for a message (quoted, maybe cut). */
static const char *
quote(char out[QUOTE_SIZE], const char *s)
{
	return diag_quote(out, QUOTE_SIZE, s, strlen(s));
}

static void vadd_item(struct llmr *, enum diag_severity, const char *,
    size_t, size_t, const char *, va_list)
    __attribute__((format(printf, 6, 0)));

/* Notes a problem at byte off of the text parsed (v->in). */
static void
vadd_item(struct llmr *v, enum diag_severity sev, const char *rule,
    size_t off, size_t node, const char *fmt, va_list ap)
{
	struct item *it;

	v->items = grow(v->items, v->nitems, &v->itemcap, sizeof(*v->items));
	it = &v->items[v->nitems];
	it->sev = sev;
	it->rule = rule;
	it->off = v->origin.offset + off;
	it->seq = v->nitems++;
	it->node = node;
	it->msg = v->msgs.len;
	buf_vprintf(&v->msgs, fmt, ap);
	buf_addc(&v->msgs, '\0');
	if (sev == DIAG_ERROR)
		v->errors++;
}

/* Notes a problem at byte off of v->in; node names the element, or is NONE. */
static void
add_item(struct llmr *v, enum diag_severity sev, const char *rule,
    size_t off, size_t node, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static void
add_item(struct llmr *v, enum diag_severity sev, const char *rule,
    size_t off, size_t node, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd_item(v, sev, rule, off, node, fmt, ap);
	va_end(ap);
}

/* A rule broken by the element, reported at its start tag. */
static void
at_node(struct llmr *v, enum diag_severity sev, size_t node, const char *rule,
    const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void
at_node(struct llmr *v, enum diag_severity sev, size_t node, const char *rule,
    const char *fmt, ...)
{
	const struct node *nd = &v->nodes[node];
	va_list ap;

	va_start(ap, fmt);
	vadd_item(v, sev, rule, nd->tag, node, fmt, ap);
	va_end(ap);
}

/*
 * Where attribute name starts in the element's start tag, which expat
 * has found well-formed: the tag's own offset when it is not there.
 */
static size_t
attr_off(const struct llmr *v, const struct node *nd, const char *name)
{
	const char *s = v->in;
	size_t i = nd->tag + 1, n = v->inlen, len = strlen(name), a;
	char q;

	while (i < n && !blank_char(s[i]) && s[i] != '/' && s[i] != '>')
		i++;
	for (;;) {
		while (i < n && blank_char(s[i]))
			i++;
		if (i >= n || s[i] == '/' || s[i] == '>')
			return nd->tag;
		a = i;
		while (i < n && !blank_char(s[i]) && s[i] != '=')
			i++;
		if (i - a == len && memcmp(s + a, name, len) == 0)
			return a;
		while (i < n && s[i] != '"' && s[i] != '\'')
			i++;
		if (i >= n)
			return nd->tag;
		q = s[i++];
		while (i < n && s[i] != q)
			i++;
		i++;
	}
}

/* A rule broken by an attribute, reported where the attribute is. */
static void
at_attr(struct llmr *v, enum diag_severity sev, size_t node, const char *attr,
    const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static void
at_attr(struct llmr *v, enum diag_severity sev, size_t node, const char *attr,
    const char *rule, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd_item(v, sev, rule, attr_off(v, &v->nodes[node], attr), node, fmt,
	    ap);
	va_end(ap);
}

/* Whether SHOULD rules are checked, and how they are reported. */
static int
should(const struct llmr *v, enum diag_severity *sev)
{
	*sev = v->opts->strict ? DIAG_ERROR : DIAG_WARNING;
	return v->opts->warnings || v->opts->strict;
}

static const char *
pool_str(const struct llmr *v, size_t off)
{
	return v->pool.data + off;
}

static size_t
pool_add(struct llmr *v, const char *s)
{
	size_t off = v->pool.len;

	buf_add(&v->pool, s, strlen(s) + 1);
	return off;
}

/* ------------------------------------------------------------ parsing */

static enum kind
root_kind(const struct llmr *v, const char *name)
{
	enum llmr_type t = v->opts->type;

	if (t != LLMR_RESPONSE && strcmp(name, "llmQuery") == 0)
		return K_QUERY;
	if (t != LLMR_QUERY && strcmp(name, "llmResponse") == 0)
		return K_RDOC;
	return K_BADROOT;
}

static enum kind
child_kind(enum kind parent, const char *name)
{
	int k;

	for (k = 0; k < K_COUNT; k++)
		if (kinds[k].parent == parent &&
		    strcmp(kinds[k].name, name) == 0)
			return (enum kind)k;
	return K_UNKNOWN;
}

static int
attr_index(enum kind k, const char *name)
{
	int i;

	for (i = 0; i < 3 && kinds[k].attrs[i] != NULL; i++)
		if (strcmp(kinds[k].attrs[i], name) == 0)
			return i;
	return -1;
}

static size_t
add_node(struct llmr *v, enum kind k, size_t parent)
{
	struct node *nd;

	v->nodes = grow(v->nodes, v->nnodes, &v->nodecap, sizeof(*v->nodes));
	nd = &v->nodes[v->nnodes];
	memset(nd, 0, sizeof(*nd));
	nd->kind = k;
	nd->parent = parent;
	nd->name = NONE;
	nd->attr[0] = nd->attr[1] = nd->attr[2] = NONE;
	nd->tag = (size_t)XML_GetCurrentByteIndex(v->p);
	if (parent != NONE && k != K_UNKNOWN)
		nd->nth = ++v->nodes[parent].kids[kinds[k].slot];
	return v->nnodes++;
}

/* The first m-byte pattern at or after s[i] (m >= 1), or NULL. */
static const char *
search(const char *s, size_t n, size_t i, const char *pat, size_t m)
{
	const char *p;

	while (i < n && (p = memchr(s + i, pat[0], n - i)) != NULL) {
		i = (size_t)(p - s);
		if (n - i >= m && memcmp(p, pat, m) == 0)
			return p;
		i++;
	}
	return NULL;
}

/*
 * The offset of the first thing at or after s[i] that is not white space,
 * a comment or a processing instruction (the XML declaration is one, to
 * this end): what may stand beside the root element. A comment or
 * instruction that does not end is where it starts.
 */
static size_t
skip_misc(const char *s, size_t n, size_t i)
{
	const char *e;

	for (;;) {
		while (i < n && blank_char(s[i]))
			i++;
		if (n - i >= 4 && memcmp(s + i, "<!--", 4) == 0)
			e = search(s, n, i + 4, "-->", 3);
		else if (n - i >= 2 && memcmp(s + i, "<?", 2) == 0)
			e = search(s, n, i + 2, "?>", 2);
		else
			return i;
		if (e == NULL)
			return i;
		i = (size_t)(e - s) + (e[0] == '-' ? 3 : 2);
	}
}

static void
root_ended(struct llmr *v)
{
	v->closed = 1;
	/* past the end tag, or past an empty element's tag (count 0) */
	v->root_end = (size_t)XML_GetCurrentByteIndex(v->p) +
	    (size_t)XML_GetCurrentByteCount(v->p);
	if (v->opts->find) {
		v->done = 1;
		XML_StopParser(v->p, XML_FALSE);
	}
}

static void XMLCALL
on_start(void *data, const XML_Char *name, const XML_Char **attrs)
{
	struct llmr *v = data;
	struct xmlp_error err;
	char q[QUOTE_SIZE];
	size_t parent = NONE, id;
	enum kind k;
	int i, a;

	if (v->stopped)
		return;
	if (xmlp_depth(v->p, v->depth + v->ignore + 1, &v->origin,
	    &err) != 0) {
		add_item(v, DIAG_ERROR, err.rule, err.offset - v->origin.offset,
		    NONE, "%s", err.text);
		v->stopped = 1;
		return;
	}
	if (v->ignore > 0) {
		v->ignore++;
		return;
	}
	if (v->depth == 0)
		k = root_kind(v, name);
	else {
		parent = v->stack[v->depth - 1];
		k = child_kind(v->nodes[parent].kind, name);
		if (k == K_UNKNOWN && !v->opts->strict) {
			v->ignore = 1;
			return;
		}
	}
	id = add_node(v, k, parent);
	if (k == K_UNKNOWN || k == K_BADROOT) {
		v->nodes[id].name = pool_add(v, name);
		if (k == K_UNKNOWN)
			at_node(v, DIAG_ERROR, id, "unknown-element",
			    "unknown element");
		v->ignore = 1;
		return;
	}
	if (parent == NONE)
		v->root = k == K_QUERY ? LLMR_QUERY : LLMR_RESPONSE;
	v->stack = grow(v->stack, v->depth, &v->stackcap, sizeof(*v->stack));
	v->stack[v->depth++] = id;
	for (i = 0; attrs[i] != NULL; i += 2) {
		if ((a = attr_index(k, attrs[i])) >= 0)
			v->nodes[id].attr[a] = pool_add(v, attrs[i + 1]);
		else if (v->opts->strict)
			at_attr(v, DIAG_ERROR, id, attrs[i],
			    "unknown-attribute", "unknown attribute %s",
			    quote(q, attrs[i]));
	}
	if (kinds[k].text)
		v->nodes[id].text = v->text.len;
}

static void XMLCALL
on_end(void *data, const XML_Char *name)
{
	struct llmr *v = data;
	struct node *nd;

	if (v->stopped)
		return;
	if (v->ignore > 0) {
		if (--v->ignore == 0 && v->depth == 0)
			root_ended(v);
		return;
	}
	nd = &v->nodes[v->stack[--v->depth]];
	if (kinds[nd->kind].text) {
		nd->textlen = v->text.len - nd->text;
		buf_addc(&v->text, '\0');
	}
	if (v->depth == 0)
		root_ended(v);
}

static void XMLCALL
on_text(void *data, const XML_Char *s, int len)
{
	struct llmr *v = data;
	struct node *nd;
	size_t i = 0, n = (size_t)len;

	if (v->stopped || v->ignore > 0 || v->depth == 0)
		return;
	nd = &v->nodes[v->stack[v->depth - 1]];
	if (kinds[nd->kind].text) {
		/* the hot path, some 200 pieces to a response: no call */
		buf_reserve(&v->text, n);
		memcpy(v->text.data + v->text.len, s, n);
		v->text.len += n;
		return;
	}
	if (!v->opts->strict || nd->stray || blank(s, n))
		return;
	nd->stray = 1;
	/* expat hands each line end over alone: blanks before text are
	 * spaces and tabs, a byte each in the input too */
	while (blank_char(s[i]))
		i++;
	add_item(v, DIAG_ERROR, "unexpected-text",
	    (size_t)XML_GetCurrentByteIndex(v->p) + i, v->stack[v->depth - 1],
	    "unexpected text");
}

/* A DOCTYPE ends the document at once: no DTD, so no entity is defined. */
static void XMLCALL
on_doctype(void *data, const XML_Char *name, const XML_Char *sysid,
    const XML_Char *pubid, int has_internal_subset)
{
	struct llmr *v = data;
	size_t at = (size_t)XML_GetCurrentByteIndex(v->p);

	/* expat is past the name; report where the declaration starts */
	while (at > 0 && !(v->in[at] == '<' && v->inlen - at >= 9 &&
	    memcmp(v->in + at, "<!DOCTYPE", 9) == 0))
		at--;
	add_item(v, DIAG_ERROR, "dtd", at, NONE, "DTDs are not allowed");
	v->stopped = 1;
	XML_StopParser(v->p, XML_FALSE);
}

/* The hint that --find exists, for text around the root, where wanted. */
static const char *
find_hint(const struct llmr *v)
{
	return v->opts->hint && !v->opts->find ?
	    " (use --find to read a document inside other text)" : "";
}

/*
 * The error that ended the parse (xmlp_report_fn): noted as it is, or,
 * when it lies at or past text after the root, as that text.
 */
static void
on_error(void *data, const struct xmlp_error *err)
{
	struct llmr *v = data;
	size_t at, off = err->offset - v->origin.offset;

	at = v->closed ? skip_misc(v->in, v->inlen, v->root_end) : v->inlen;
	if (strcmp(err->rule, "utf8") != 0 && at < v->inlen && at <= off)
		add_item(v, DIAG_ERROR, "outside-root", at, NONE,
		    "text after the root element%s", find_hint(v));
	else
		add_item(v, DIAG_ERROR, err->rule, off, NONE, "%s", err->text);
}

/* Parses the text; DIAG_OK when it is well-formed. */
static int
parse(struct llmr *v)
{
	int status;

	status = xmlp_parse_within(v->p, v->in, v->inlen, &v->origin,
	    on_error, v);
	/* stopped by a handler: at the root's end with --find, or noted */
	if (status == DIAG_INVALID && v->done)
		return DIAG_OK;
	return status;
}

/*
 * The offset of the first "<llmResponse" or "<llmQuery" start tag (of the
 * type asked for) in s[from..n), or NONE. The name must end there: at
 * white space, '>', '/' or the end of the text.
 */
static size_t
find_root(const char *s, size_t n, size_t from, enum llmr_type type)
{
	static const char *const names[] = { "llmQuery", "llmResponse" };
	const char *p;
	size_t i = from, len, e;
	int t;

	while (i < n && (p = memchr(s + i, '<', n - i)) != NULL) {
		i = (size_t)(p - s) + 1;
		for (t = 0; t < 2; t++) {
			if ((t == 0 && type == LLMR_RESPONSE) ||
			    (t == 1 && type == LLMR_QUERY))
				continue;
			len = strlen(names[t]);
			if (n - i < len || memcmp(s + i, names[t], len) != 0)
				continue;
			e = i + len;
			if (e == n || blank_char(s[e]) || s[e] == '>' ||
			    s[e] == '/')
				return i - 1;
		}
	}
	return NONE;
}

/*
 * Whether a character other than white space comes before the root
 * element (or a DOCTYPE), past comments and instructions, at *at. A byte
 * that is no character, or one XML forbids, is left to the parser, whose
 * message says more.
 */
static int
text_before(const char *s, size_t n, size_t i, size_t *at)
{
	uint32_t cp;

	i = skip_misc(s, n, i);
	if (i == n || s[i] == '<')
		return 0;
	if (utf8_decode(s + i, n - i, &cp) == 0 || !xmlesc_allowed(cp))
		return 0;
	*at = i;
	return 1;
}

/* ------------------------------------------------------------- rules */

static struct llmr_text
node_text(const struct llmr *v, const struct node *nd)
{
	struct llmr_text t;

	t.s = v->text.data + nd->text;
	t.len = nd->textlen;
	return t;
}

/* Whether s matches [a-z0-9]+(-[a-z0-9]+)*: lowercase and hyphenated. */
static int
hyphenated(const char *s)
{
	int want = 1;		/* a letter or digit must come next */

	for (; *s != '\0'; s++) {
		if ((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9'))
			want = 0;
		else if (*s == '-' && !want)
			want = 1;
		else
			return 0;
	}
	return !want;
}

static const char *
digits(const char *s)
{
	while (*s >= '0' && *s <= '9')
		s++;
	return s;
}

/*
 * Whether s is a number as JSON writes one:
 * -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, with nothing around it.
 */
static int
json_number(const char *s)
{
	const char *e;

	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		s = digits(s);
	else
		return 0;
	if (*s == '.') {
		if ((e = digits(s + 1)) == s + 1)
			return 0;
		s = e;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if ((e = digits(s)) == s)
			return 0;
		s = e;
	}
	return *s == '\0';
}

/*
 * A decimal integer, digits only: 0, -1 when it is not one, -2 when it is
 * more than CONTRACT_COUNT_MAX (2^53 - 1), the largest count llmq-encode
 * writes and every JSON reader holds exactly.
 */
static int
count_value(const char *s, uint64_t *out)
{
	uint64_t n = 0;
	int big = 0;

	if (*s == '\0')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (big || n > (CONTRACT_COUNT_MAX - (uint64_t)(*s - '0')) / 10) {
			big = 1;	/* still to be told from no number */
			continue;
		}
		n = n * 10 + (uint64_t)(*s - '0');
	}
	if (*s != '\0')
		return -1;
	if (big)
		return -2;
	*out = n;
	return 0;
}

/*
 * The next item of a comma-separated list at s[*pos..n), trimmed of XML
 * white space, as [*a, *b). Returns 0 when the list is done.
 */
static int
next_item(const char *s, size_t n, size_t *pos, size_t *a, size_t *b)
{
	size_t i = *pos;

	if (i > n)
		return 0;
	*a = i;
	while (i < n && s[i] != ',')
		i++;
	*pos = i + 1;
	*b = i;
	while (*a < *b && blank_char(s[*a]))
		(*a)++;
	while (*b > *a && blank_char(s[*b - 1]))
		(*b)--;
	return 1;
}

/* How many there are of the element's kind, by its own rules. */
static void
check_count(struct llmr *v, size_t id)
{
	const struct node *nd = &v->nodes[id];
	const struct kindinfo *ki = &kinds[nd->kind];
	size_t total = v->nodes[nd->parent].kids[ki->slot];

	if ((ki->card == C_ONE || ki->card == C_OPT) && nd->nth == 2)
		at_node(v, DIAG_ERROR, id, "element-count",
		    "%zu <%s> elements, %s allowed", total, ki->name,
		    ki->card == C_ONE ? "exactly one" : "at most one");
	if (nd->kind == K_SUBJECT && nd->nth == CONTRACT_SUBJECTS_MAX + 1)
		at_node(v, DIAG_ERROR, id, "subject-count",
		    "%zu <subject> elements, at most %d allowed", total,
		    CONTRACT_SUBJECTS_MAX);
	if (nd->kind == K_KEYWORD && nd->nth == CONTRACT_KEYWORDS_MAX + 1)
		at_node(v, DIAG_ERROR, id, "keyword-count",
		    "%zu <keyword> elements, at most %d allowed", total,
		    CONTRACT_KEYWORDS_MAX);
}

/* The required children and attributes that are missing. */
static void
check_missing(struct llmr *v, size_t id)
{
	const struct node *nd = &v->nodes[id];
	const struct kindinfo *ki = &kinds[nd->kind];
	int k, a;

	for (k = 0; k < K_COUNT; k++)
		if (kinds[k].parent == nd->kind && kinds[k].card == C_ONE &&
		    nd->kids[kinds[k].slot] == 0)
			at_node(v, DIAG_ERROR, id, "required-element",
			    "missing <%s>", kinds[k].name);
	for (a = 0; a < 3 && ki->attrs[a] != NULL; a++)
		if (nd->attr[a] == NONE)
			at_node(v, DIAG_ERROR, id, "required-attribute",
			    "missing attribute \"%s\"", ki->attrs[a]);
}

/* The SHOULD rule on the length of a text, in characters. */
static void
check_length(struct llmr *v, size_t id, size_t chars, size_t min, size_t max,
    const char *rule)
{
	enum diag_severity sev;

	if (should(v, &sev) && (chars < min || chars > max))
		at_node(v, sev, id, rule,
		    "text is %zu character%s, %zu-%zu recommended", chars,
		    plural(chars), min, max);
}

static void
check_text(struct llmr *v, size_t id)
{
	const struct node *nd = &v->nodes[id];
	struct llmr_text t = node_text(v, nd);
	enum diag_severity sev;
	size_t chars;

	if ((nd->kind == K_MESSAGE || nd->kind == K_RESPONSE) &&
	    blank(t.s, t.len)) {
		at_node(v, DIAG_ERROR, id, "empty-text", "%s",
		    t.len == 0 ? "text is empty" : "text is only white space");
		return;
	}
	/* counted only where a rule looks at the count */
	if (nd->kind != K_MESSAGE && !should(v, &sev))
		return;
	chars = utf8_count(t.s, t.len);
	if (nd->kind == K_MESSAGE && chars > CONTRACT_MESSAGE_MAX)
		at_node(v, DIAG_ERROR, id, "message-length",
		    "text is %zu characters, at most %d allowed", chars,
		    CONTRACT_MESSAGE_MAX);
	else if (nd->kind == K_RESPONSE)
		check_length(v, id, chars, CONTRACT_RESPONSE_MIN,
		    CONTRACT_RESPONSE_MAX, "response-length");
	else if (nd->kind == K_SUMMARY && !blank(t.s, t.len))
		check_length(v, id, chars, CONTRACT_SUMMARY_MIN,
		    CONTRACT_SUMMARY_MAX, "summary-length");
}

static void
check_list(struct llmr *v, size_t id)
{
	const struct node *nd = &v->nodes[id];
	struct llmr_text t = node_text(v, nd);
	enum diag_severity sev;
	size_t pos = 0, a, b, index = 0, items = 0;
	size_t max = nd->kind == K_ACTIVE ? CONTRACT_ACTIVE_SUBJECTS_MAX :
	    CONTRACT_RECENT_KEYWORDS_MAX;

	if (blank(t.s, t.len))
		return;
	while (next_item(t.s, t.len, &pos, &a, &b)) {
		index++;
		if (a < b)
			items++;
		else if (should(v, &sev))
			at_node(v, sev, id, "list-item", "item %zu is empty",
			    index);
	}
	if (items > max)
		at_node(v, DIAG_ERROR, id, "list-count",
		    "%zu items, at most %zu allowed", items, max);
}

static void
check_context(struct llmr *v, size_t id)
{
	const struct node *nd = &v->nodes[id];
	char q[QUOTE_SIZE];
	const char *s;
	uint64_t n;
	int r;

	if (nd->attr[A_COUNT] == NONE)
		return;
	s = pool_str(v, nd->attr[A_COUNT]);
	if ((r = count_value(s, &n)) == -1)
		at_attr(v, DIAG_ERROR, id, "messageCount", "message-count",
		    "messageCount %s is not a non-negative integer",
		    quote(q, s));
	else if (r == -2)
		at_attr(v, DIAG_ERROR, id, "messageCount", "message-count",
		    "messageCount %s is too large (at most %llu)", quote(q, s),
		    (unsigned long long)CONTRACT_COUNT_MAX);
}

static void
check_subject(struct llmr *v, size_t id)
{
	const struct node *nd = &v->nodes[id];
	enum diag_severity sev;
	char q[QUOTE_SIZE];
	const char *s;
	size_t n;

	if (nd->attr[A_ISNEW] != NONE) {
		s = pool_str(v, nd->attr[A_ISNEW]);
		if (strcmp(s, "true") != 0 && strcmp(s, "false") != 0)
			at_attr(v, DIAG_ERROR, id, "isNew", "is-new",
			    "isNew %s is not \"true\" or \"false\"",
			    quote(q, s));
	}
	if (!should(v, &sev))
		return;
	if (nd->attr[A_NAME] != NONE &&
	    !hyphenated(s = pool_str(v, nd->attr[A_NAME])))
		at_attr(v, sev, id, "name", "name-form",
		    "name %s is not lowercase and hyphenated", quote(q, s));
	if (nd->attr[A_DESCRIPTION] != NONE) {
		s = pool_str(v, nd->attr[A_DESCRIPTION]);
		n = utf8_count(s, strlen(s));
		if (n < CONTRACT_DESCRIPTION_MIN ||
		    n > CONTRACT_DESCRIPTION_MAX)
			at_attr(v, sev, id, "description",
			    "description-length",
			    "description is %zu character%s, %d-%d recommended",
			    n, plural(n), CONTRACT_DESCRIPTION_MIN,
			    CONTRACT_DESCRIPTION_MAX);
	}
	n = nd->kids[0];
	if (n <= CONTRACT_KEYWORDS_MAX && (n < CONTRACT_KEYWORDS_MIN ||
	    n > CONTRACT_KEYWORDS_WANT_MAX))
		at_node(v, sev, id, "keyword-range",
		    "%zu <keyword> element%s, %d-%d recommended", n,
		    plural(n), CONTRACT_KEYWORDS_MIN,
		    CONTRACT_KEYWORDS_WANT_MAX);
}

/*
 * The value of s, which json_number accepts, as strtod reads it. A short
 * decimal (15 digits at most, no exponent) is worked out at once: an
 * integer below 2^53 divided by an exact power of ten is rounded once,
 * to the nearest double, as strtod rounds.
 */
static double
number_value(const char *s)
{
	static const double tens[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6,
	    1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
	const char *p = s + (*s == '-');
	uint64_t m = 0;
	int digits = 0, frac = -1;
	double d;

	for (; (*p >= '0' && *p <= '9') || (*p == '.' && frac < 0); p++) {
		if (*p == '.') {
			frac = 0;
			continue;
		}
		m = m * 10 + (uint64_t)(*p - '0');
		if (++digits > 15)
			return strtod(s, NULL);
		if (frac >= 0)
			frac++;
	}
	if (*p != '\0')
		return strtod(s, NULL);		/* an exponent */
	d = (double)m / tens[frac > 0 ? frac : 0];
	return *s == '-' ? -d : d;
}

static void
check_keyword(struct llmr *v, size_t id)
{
	struct node *nd = &v->nodes[id];
	enum diag_severity sev;
	char q[QUOTE_SIZE];
	const char *s = NULL;
	double c = 0.0;

	if (nd->attr[A_CONFIDENCE] != NONE) {
		s = pool_str(v, nd->attr[A_CONFIDENCE]);
		if (!json_number(s)) {
			at_attr(v, DIAG_ERROR, id, "confidence", "confidence",
			    "confidence %s is not a number", quote(q, s));
			s = NULL;
		} else if ((c = nd->confidence = number_value(s)) < 0.0 ||
		    c > 1.0) {
			at_attr(v, DIAG_ERROR, id, "confidence", "confidence",
			    "confidence %s is outside 0.0-1.0", quote(q, s));
			s = NULL;
		}
	}
	if (!should(v, &sev))
		return;
	if (nd->attr[A_TERM] != NONE &&
	    !hyphenated(pool_str(v, nd->attr[A_TERM])))
		at_attr(v, sev, id, "term", "term-form",
		    "term %s is not lowercase and hyphenated",
		    quote(q, pool_str(v, nd->attr[A_TERM])));
	if (s != NULL && c < CONTRACT_CONFIDENCE_MIN)
		at_attr(v, sev, id, "confidence", "confidence-low",
		    "confidence %s is below %g", quote(q, s),
		    CONTRACT_CONFIDENCE_MIN);
}

static void
check_analysis(struct llmr *v, size_t id)
{
	enum diag_severity sev;

	if (should(v, &sev) && v->nodes[id].kids[0] < CONTRACT_SUBJECTS_MIN)
		at_node(v, sev, id, "subject-min",
		    "no <subject>, %d-%d recommended", CONTRACT_SUBJECTS_MIN,
		    CONTRACT_SUBJECTS_MAX);
}

/* Every rule, element by element, in document order. */
static void
check(struct llmr *v)
{
	const struct node *nd;
	enum llmr_type t = v->opts->type;
	size_t id;

	for (id = 0; id < v->nnodes; id++) {
		nd = &v->nodes[id];
		switch (nd->kind) {
		case K_UNKNOWN:
			continue;	/* reported as it was found */
		case K_BADROOT:
			at_node(v, DIAG_ERROR, id, "root",
			    "root element must be %s",
			    t == LLMR_QUERY ? "<llmQuery>" :
			    t == LLMR_RESPONSE ? "<llmResponse>" :
			    "<llmResponse> or <llmQuery>");
			return;
		default:
			break;
		}
		if (nd->parent != NONE)
			check_count(v, id);
		check_missing(v, id);
		switch (nd->kind) {
		case K_MESSAGE:
		case K_RESPONSE:
		case K_SUMMARY:
			check_text(v, id);
			break;
		case K_ACTIVE:
		case K_RECENT:
			check_list(v, id);
			break;
		case K_CONTEXT:
			check_context(v, id);
			break;
		case K_ANALYSIS:
			check_analysis(v, id);
			break;
		case K_SUBJECT:
			check_subject(v, id);
			break;
		case K_KEYWORD:
			check_keyword(v, id);
			break;
		default:
			break;
		}
	}
}

/* ------------------------------------------------------------ results */

/* An element name from the input, cut after NAME_SHOWN bytes. */
static void
add_name(struct buf *b, const char *s)
{
	size_t n = strlen(s);

	if (n <= NAME_SHOWN) {
		buf_add(b, s, n);
		return;
	}
	n = NAME_SHOWN;
	while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	buf_add(b, s, n);
	buf_add(b, "...", 3);
}

/*
 * The element's path: names from the root, each with its position among
 * its siblings of that name where there may be several (<subject> and
 * <keyword> always, the others when repeated). Unknown elements have no
 * index.
 */
static void
add_path(const struct llmr *v, struct buf *b, size_t id)
{
	const struct node *nd = &v->nodes[id];
	const struct kindinfo *ki = &kinds[nd->kind];

	if (nd->parent != NONE)
		add_path(v, b, nd->parent);
	buf_addc(b, '/');
	if (ki->name == NULL) {
		add_name(b, pool_str(v, nd->name));
		return;
	}
	buf_adds(b, ki->name);
	if (nd->parent != NONE && (ki->card == C_MANY ||
	    v->nodes[nd->parent].kids[ki->slot] > 1)) {
		buf_addc(b, '[');
		buf_addu(b, nd->nth);
		buf_addc(b, ']');
	}
}

static int
by_position(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * The problems in document order, each with its line and column (one
 * pass over the text for them all) and its element's path, as v->diags.
 */
static void
finish_diags(struct llmr *v)
{
	struct diag_item *d;
	struct diag_loc loc;
	struct item *it;
	size_t i;

	if (v->nitems > 1)
		qsort(v->items, v->nitems, sizeof(*v->items), by_position);
	for (i = 0; i < v->nitems; i++) {
		it = &v->items[i];
		src_loc(&v->src, it->off, &loc);
		buf_reset(&v->path);
		if (it->node != NONE)
			add_path(v, &v->path, it->node);
		d = diag_list_add(&v->diags, it->sev, loc.line, loc.col,
		    it->rule, it->node != NONE ? buf_cstr(&v->path) : NULL,
		    "%s", v->msgs.data + it->msg);
		d->prefix = d->path != NULL;
	}
}

static struct llmr_text
attr_text(const struct llmr *v, const struct node *nd, int a)
{
	struct llmr_text t;

	t.s = pool_str(v, nd->attr[a]);
	t.len = strlen(t.s);
	return t;
}

/*
 * The items of a list element, trimmed, into v->lists from *n on. Each
 * is ended in place, in the element's text, by a NUL written over the
 * comma or white space after it (the whole text is not needed again).
 */
static void
split_list(struct llmr *v, const struct node *nd, size_t *n)
{
	char *s = v->text.data + nd->text;
	size_t pos = 0, a, b, len = nd->textlen;

	if (blank(s, len))
		return;
	while (next_item(s, len, &pos, &a, &b)) {
		if (a == b)
			continue;
		v->lists = grow(v->lists, *n, &v->listcap, sizeof(*v->lists));
		s[b] = '\0';
		v->lists[*n].s = s + a;
		v->lists[(*n)++].len = b - a;
	}
}

static void
build_query(struct llmr *v)
{
	struct llmr_doc *d = &v->doc;
	const struct node *nd;
	size_t id, n = 0, active = 0, recent = 0;

	d->type = LLMR_QUERY;
	for (id = 0; id < v->nnodes; id++) {
		nd = &v->nodes[id];
		switch (nd->kind) {
		case K_MESSAGE:
			d->message = node_text(v, nd);
			break;
		case K_CONTEXT:
			d->topic_id = attr_text(v, nd, A_TOPIC);
			count_value(pool_str(v, nd->attr[A_COUNT]),
			    &d->message_count);
			break;
		case K_ACTIVE:
			active = n;
			split_list(v, nd, &n);
			d->nactive_subjects = n - active;
			break;
		case K_RECENT:
			recent = n;
			split_list(v, nd, &n);
			d->nrecent_keywords = n - recent;
			break;
		default:
			break;
		}
	}
	/* NULL for none: an offset from a NULL array is undefined */
	d->active_subjects = d->nactive_subjects > 0 ? v->lists + active : NULL;
	d->recent_keywords = d->nrecent_keywords > 0 ? v->lists + recent : NULL;
}

static void
build_response(struct llmr *v)
{
	struct llmr_doc *d = &v->doc;
	struct llmr_subject *sub = NULL;
	struct llmr_keyword *kw;
	const struct node *nd;
	struct diag_loc loc;
	size_t id, nsub = 0, nkw = 0;

	d->type = LLMR_RESPONSE;
	for (id = 0; id < v->nnodes; id++) {
		nd = &v->nodes[id];
		if (nd->kind == K_SUBJECT)
			nsub++;
		else if (nd->kind == K_KEYWORD)
			nkw++;
	}
	if (nsub > v->subjectcap) {
		v->subjectcap = nsub;
		v->subjects = xreallocarray(v->subjects, nsub,
		    sizeof(*v->subjects));
	}
	if (nkw > v->keywordcap) {
		v->keywordcap = nkw;
		v->keywords = xreallocarray(v->keywords, nkw,
		    sizeof(*v->keywords));
	}
	d->subjects = v->subjects;
	kw = v->keywords;
	for (id = 0; id < v->nnodes; id++) {
		nd = &v->nodes[id];
		switch (nd->kind) {
		case K_RESPONSE:
			d->response = node_text(v, nd);
			break;
		case K_SUMMARY:
			d->summary = node_text(v, nd);
			break;
		case K_SUBJECT:
			sub = &v->subjects[d->nsubjects++];
			/* llmstore's warnings name them; in order, one pass */
			src_loc(&v->src, v->origin.offset + nd->tag, &loc);
			sub->line = loc.line;
			sub->col = loc.col;
			sub->name = attr_text(v, nd, A_NAME);
			sub->description = attr_text(v, nd, A_DESCRIPTION);
			sub->is_new = strcmp(pool_str(v, nd->attr[A_ISNEW]),
			    "true") == 0;
			sub->keywords = kw;
			sub->nkeywords = 0;
			break;
		case K_KEYWORD:
			kw->term = attr_text(v, nd, A_TERM);
			kw->confidence = nd->confidence;
			kw++;
			sub->nkeywords++;
			break;
		default:
			break;
		}
	}
}

/* ---------------------------------------------------------------- api */

/*
 * A validator; it never returns NULL (no memory ends the process). Its
 * parser is made for each document, by llmr_check.
 */
struct llmr *
llmr_new(void)
{
	return xcalloc(1, sizeof(struct llmr));
}

void
llmr_free(struct llmr *v)
{
	if (v == NULL)
		return;
	XML_ParserFree(v->p);
	free(v->nodes);
	free(v->stack);
	buf_free(&v->pool);
	buf_free(&v->text);
	free(v->items);
	buf_free(&v->msgs);
	buf_free(&v->path);
	diag_list_free(&v->diags);
	free(v->subjects);
	free(v->keywords);
	free(v->lists);
	free(v);
}

static void
start(struct llmr *v, const struct llmr_opts *opts)
{
	v->opts = opts;
	v->root = LLMR_ANY;
	v->nnodes = 0;
	v->depth = 0;
	v->ignore = 0;
	v->stopped = 0;
	v->done = 0;
	v->closed = 0;
	buf_reset(&v->pool);
	buf_reset(&v->text);
	v->nitems = 0;
	buf_reset(&v->msgs);
	diag_list_clear(&v->diags);
	v->errors = 0;
	v->valid = 0;
	memset(&v->doc, 0, sizeof(v->doc));
	/*
	 * A new parser for each document rather than XML_ParserReset: a
	 * reset parser can be spoiled by the document before (expat 2.5,
	 * after deep nesting), and a new one costs no measurable time.
	 */
	XML_ParserFree(v->p);
	v->p = xmlp_create();
	XML_SetUserData(v->p, v);
	XML_SetElementHandler(v->p, on_start, on_end);
	XML_SetCharacterDataHandler(v->p, on_text);
	XML_SetStartDoctypeDeclHandler(v->p, on_doctype);
}

/*
 * Validates s[0..n), one document (with opts->find, the first root
 * element in it). The text ends at its first NUL byte, if it has one:
 * an error there, or, with opts->find, harmless after the document
 * found. Returns DIAG_OK when it is valid, DIAG_INVALID when it is not,
 * DIAG_TROUBLE when expat ran out of memory (reported). The problems,
 * warnings included, are in llmr_diags; nothing is printed.
 */
int
llmr_check(struct llmr *v, const char *s, size_t n,
    const struct llmr_opts *opts)
{
	const char *nul;
	size_t from, at;
	int status = DIAG_INVALID;

	/* no document holds a NUL byte: the text ends at the first */
	if ((nul = memchr(s, '\0', n)) != NULL)
		n = (size_t)(nul - s) + 1;
	start(v, opts);
	src_init(&v->src, opts->file, s, n);
	src_setxml(&v->src);
	from = v->src.start;	/* past a byte order mark */
	v->origin.file = opts->file;
	v->origin.offset = 0;
	v->in = s;
	v->inlen = n;
	if (opts->find) {
		if ((at = find_root(s, n, from, opts->type)) == NONE) {
			add_item(v, DIAG_ERROR, "not-found",
			    nul != NULL ? n - 1 : from, NONE,
			    nul != NULL ? "NUL byte before any %s element" :
			    "no %s element found",
			    opts->type == LLMR_QUERY ? "<llmQuery>" :
			    opts->type == LLMR_RESPONSE ? "<llmResponse>" :
			    "<llmResponse> or <llmQuery>");
			goto out;
		}
		from = at;
	} else if (text_before(s, n, from, &at)) {
		add_item(v, DIAG_ERROR, "outside-root", at, NONE,
		    "text before the root element%s", find_hint(v));
		goto out;
	}
	/* positions come from offsets (src), not from xmlp's loc */
	v->origin.line = v->origin.col = 1;
	v->origin.offset = from;
	v->in = s + from;
	v->inlen = n - from;
	if ((status = parse(v)) == DIAG_OK)
		check(v);
out:
	finish_diags(v);
	if (status == DIAG_OK && v->errors > 0)
		status = DIAG_INVALID;
	if (status == DIAG_OK) {
		v->valid = 1;
		if (v->root == LLMR_QUERY)
			build_query(v);
		else
			build_response(v);
	}
	return status;
}

/* The document llmr_check last found valid, or NULL. */
const struct llmr_doc *
llmr_doc(const struct llmr *v)
{
	return v->valid ? &v->doc : NULL;
}

/*
 * The problems llmr_check last found, in document order; each one's path
 * is its element's, or NULL.
 */
const struct diag_item *
llmr_diags(const struct llmr *v, size_t *n)
{
	*n = v->diags.n;
	return v->diags.v;
}

/*
 * The problems llmr_check last found in the text of the JSON string at
 * s[tok..n), line lineno of JSON lines, moved to where their characters
 * are written in that line (verdict_place).
 */
void
llmr_place(struct llmr *v, const char *s, size_t n, size_t tok,
    unsigned long lineno)
{
	verdict_place(s, n, tok, lineno, v->diags.v, v->diags.n);
}

/* The problems printed: "FILE:LINE:COL: error: PATH: MESSAGE". */
void
llmr_report(const struct llmr *v)
{
	diag_list_print(&v->diags, v->opts->file);
}

static void
json_list(struct buf *b, const struct llmr_text *t, size_t n)
{
	size_t i;

	buf_addc(b, '[');
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_addc(b, ',');
		jsonw_string(b, t[i].s, t[i].len);
	}
	buf_addc(b, ']');
}

/* A valid document as one line of JSON, newline included. */
void
llmr_json(struct buf *b, const struct llmr_doc *d)
{
	const struct llmr_subject *sub;
	size_t i, k;

	if (d->type == LLMR_QUERY) {
		buf_adds(b, "{\"userMessage\":");
		jsonw_string(b, d->message.s, d->message.len);
		buf_adds(b, ",\"topicId\":");
		jsonw_string(b, d->topic_id.s, d->topic_id.len);
		buf_adds(b, ",\"messageCount\":");
		buf_addu(b, d->message_count);
		buf_adds(b, ",\"activeSubjects\":");
		json_list(b, d->active_subjects, d->nactive_subjects);
		buf_adds(b, ",\"recentKeywords\":");
		json_list(b, d->recent_keywords, d->nrecent_keywords);
		buf_adds(b, "}\n");
		return;
	}
	buf_adds(b, "{\"response\":");
	jsonw_string(b, d->response.s, d->response.len);
	buf_adds(b, ",\"subjects\":[");
	for (i = 0; i < d->nsubjects; i++) {
		sub = &d->subjects[i];
		buf_adds(b, i > 0 ? ",{\"name\":" : "{\"name\":");
		jsonw_string(b, sub->name.s, sub->name.len);
		buf_adds(b, ",\"description\":");
		jsonw_string(b, sub->description.s, sub->description.len);
		buf_adds(b, sub->is_new ? ",\"isNew\":true" :
		    ",\"isNew\":false");
		buf_adds(b, ",\"keywords\":[");
		for (k = 0; k < sub->nkeywords; k++) {
			buf_adds(b, k > 0 ? ",{\"term\":" : "{\"term\":");
			jsonw_string(b, sub->keywords[k].term.s,
			    sub->keywords[k].term.len);
			buf_adds(b, ",\"confidence\":");
			jsonw_number(b, sub->keywords[k].confidence);
			buf_addc(b, '}');
		}
		buf_adds(b, "]}");
	}
	buf_adds(b, "],\"summaryUpdate\":");
	jsonw_string(b, d->summary.s, d->summary.len);
	buf_adds(b, "}\n");
}

/*
 * The message for a model whose document llmr_check refused: its errors,
 * one a line, then, for a response, the prompt that gives the format
 * (embed_llm_response_prompt, which lib/ leaves to the caller so that
 * it links without the data objects). For a query (by its root, or by
 * the type asked for) there is no prompt to restate.
 */
void
llmr_feedback(struct buf *b, const struct llmr *v, const char *prompt,
    size_t prompt_len)
{
	const struct diag_item *d;
	enum llmr_type t = v->root;
	size_t i;

	if (t == LLMR_ANY)
		t = v->opts->type == LLMR_QUERY ? LLMR_QUERY : LLMR_RESPONSE;
	buf_printf(b, "Your reply is not a valid <%s> document. These "
	    "problems were found in it (line:column: element: problem):\n",
	    t == LLMR_QUERY ? "llmQuery" : "llmResponse");
	for (i = 0; i < v->diags.n; i++) {
		d = &v->diags.v[i];
		if (d->severity != DIAG_ERROR)
			continue;
		buf_printf(b, "- %lu:%lu: %s%s%s\n", d->line, d->col,
		    d->path != NULL ? d->path : "",
		    d->path != NULL ? ": " : "", d->message);
	}
	if (t == LLMR_QUERY) {
		buf_adds(b, "\nWrite the whole <llmQuery> document again with "
		    "these problems corrected.\n");
		return;
	}
	buf_adds(b, "\nWrite your whole reply again with these problems "
	    "corrected, in the format below.\n\n");
	buf_add(b, prompt, prompt_len);
}
