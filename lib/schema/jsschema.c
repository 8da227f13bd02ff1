/*
 * jsschema: a JSON Schema Draft-07 validator over jansson values.
 *
 * jsschema_compile walks the schema once: it gives every subschema its
 * base URI (RFC 3986 resolution of "$id" against the enclosing base),
 * registers the URIs that "$id" names, loads the documents that "$ref"
 * reaches (the schemas given as files first, each known by its file: URI
 * and its "$id"s; the built-in meta-schema; files under a ref map; the
 * local file a file: URI names), and
 * turns each subschema into a node whose keywords are ready to run
 * (numbers, compiled patterns, child nodes). A "$ref" points at the
 * target's node, so cycles in the reference graph cost nothing at
 * compile time. jsschema_validate then walks nodes only.
 *
 * Errors: every failing keyword adds one error, with the instance
 * location, the keyword location along the evaluation path (".../$ref/
 * ..." through references) and a message. A failed anyOf or oneOf adds
 * its own error and then the errors of the closest branch only. The
 * closest branch is chosen in this order: a branch that rejects the
 * value's type right at this location is the farthest; then the branch
 * whose errors reach deepest into the instance (it matched more of the
 * structure); then the one with the fewest errors; then the first.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "schema/jsschema_regex.h"
#include "base/embed.h"
#include "schema/jsschema_format.h"
#include "base/jsonw.h"
#include "base/num.h"
#include "schema/jsschema.h"
#include "base/ptab.h"
#include "base/utf8.h"
#include "base/xalloc.h"

#define DRAFT2019_09	JSSCHEMA_DRAFT2019
#define DRAFT2020_12	JSSCHEMA_DRAFT2020
#define DRAFT_UNKNOWN	(-1)
#define DRAFT_NOTSTRING	(-2)

/*
 * The dialects: the path of their "$schema" URI (after "http://" or
 * "https://", before an empty fragment), the keywords that are theirs,
 * their vocabularies in use when no meta-schema says otherwise, and the
 * formats they define.
 */
#define KW_CONST	0x01		/* const, contains, propertyNames */
#define KW_IF		0x02		/* if, then, else */
#define KW_BOOLSCHEMA	0x04		/* true and false are schemas */
#define KW_XBOOL	0x08		/* exclusiveMaximum is a boolean */
#define KW_2019		0x10		/* $defs, $anchor, dependent*, */
					/* min/maxContains, unevaluated*, */
					/* $ref beside other keywords */
#define KW_2020		0x20		/* prefixItems, $dynamicRef */

/* Vocabularies: the validation keywords, and "format" as an assertion. */
#define VOC_VALIDATION	0x01
#define VOC_FORMAT	0x02

static const struct dialect {
	int		 draft;
	const char	*path;
	unsigned	 kw;
	unsigned	 vocab;
	const char	*idkw;
	const char	*formats;	/* " a b ", or NULL: all jsschema_format's */
} dialects[] = {
	{ JSSCHEMA_DRAFT4, "json-schema.org/draft-04/schema",
	    KW_XBOOL, VOC_VALIDATION | VOC_FORMAT, "id",
	    " date-time email hostname ipv4 ipv6 uri " },
	{ JSSCHEMA_DRAFT6, "json-schema.org/draft-06/schema",
	    KW_CONST | KW_BOOLSCHEMA, VOC_VALIDATION | VOC_FORMAT, "$id",
	    " date-time email hostname ipv4 ipv6 uri uri-reference "
	    "uri-template json-pointer " },
	{ JSSCHEMA_DRAFT7, "json-schema.org/draft-07/schema",
	    KW_CONST | KW_IF | KW_BOOLSCHEMA, VOC_VALIDATION | VOC_FORMAT,
	    "$id", NULL },
	{ DRAFT2019_09, "json-schema.org/draft/2019-09/schema",
	    KW_CONST | KW_IF | KW_BOOLSCHEMA | KW_2019, VOC_VALIDATION,
	    "$id", NULL },
	{ DRAFT2020_12, "json-schema.org/draft/2020-12/schema",
	    KW_CONST | KW_IF | KW_BOOLSCHEMA | KW_2019 | KW_2020,
	    VOC_VALIDATION, "$id", NULL },
};

/* The built-in meta-schemas, by the path of their URI (as above). */
static const struct meta {
	const char	*path;
	const char	*text;
	const size_t	*len;
} metas[] = {
#define META(p, n)	{ p, embed_##n, &embed_##n##_len }
	META("json-schema.org/draft-04/schema", json_schema_draft_04),
	META("json-schema.org/draft-06/schema", json_schema_draft_06),
	META("json-schema.org/draft-07/schema", json_schema_draft_07),
	META("json-schema.org/draft/2019-09/schema", json_schema_2019_09),
	META("json-schema.org/draft/2019-09/meta/applicator",
	    json_schema_2019_09_meta_applicator),
	META("json-schema.org/draft/2019-09/meta/content",
	    json_schema_2019_09_meta_content),
	META("json-schema.org/draft/2019-09/meta/core",
	    json_schema_2019_09_meta_core),
	META("json-schema.org/draft/2019-09/meta/format",
	    json_schema_2019_09_meta_format),
	META("json-schema.org/draft/2019-09/meta/meta-data",
	    json_schema_2019_09_meta_meta_data),
	META("json-schema.org/draft/2019-09/meta/validation",
	    json_schema_2019_09_meta_validation),
	META("json-schema.org/draft/2020-12/schema", json_schema_2020_12),
	META("json-schema.org/draft/2020-12/meta/applicator",
	    json_schema_2020_12_meta_applicator),
	META("json-schema.org/draft/2020-12/meta/content",
	    json_schema_2020_12_meta_content),
	META("json-schema.org/draft/2020-12/meta/core",
	    json_schema_2020_12_meta_core),
	META("json-schema.org/draft/2020-12/meta/format-annotation",
	    json_schema_2020_12_meta_format_annotation),
	META("json-schema.org/draft/2020-12/meta/meta-data",
	    json_schema_2020_12_meta_meta_data),
	META("json-schema.org/draft/2020-12/meta/unevaluated",
	    json_schema_2020_12_meta_unevaluated),
	META("json-schema.org/draft/2020-12/meta/validation",
	    json_schema_2020_12_meta_validation),
#undef META
};

/*
 * Compiling recurses once per subschema inside another and once per
 * "$ref" followed to a schema not compiled yet; validating, once per
 * schema applied inside another (through "$ref", "allOf", "items", ...,
 * down the value's nesting). Both stop at a depth the C stack holds.
 */
#define JSSCHEMA_MAX_COMPILE_DEPTH	1000
#define JSSCHEMA_MAX_DEPTH		5000
/*
 * A document has this many errors at the most: a schema that applies a
 * subschema twice at each level (allOf of two $refs to it) doubles its
 * errors with each level of the value.
 */
#define JSSCHEMA_MAX_ERRORS		10000

enum {
	T_NULL = JSSCHEMA_T_NULL, T_BOOLEAN = JSSCHEMA_T_BOOLEAN,
	T_OBJECT = JSSCHEMA_T_OBJECT, T_ARRAY = JSSCHEMA_T_ARRAY,
	T_NUMBER = JSSCHEMA_T_NUMBER, T_STRING = JSSCHEMA_T_STRING,
	T_INTEGER = JSSCHEMA_T_INTEGER
};

static const char *const type_names[] = {
	"null", "boolean", "object", "array", "number", "string", "integer"
};

enum { NODE_FALSE, NODE_TRUE, NODE_OBJECT };

/* An exact decimal m * 10^e, for multipleOf. */
struct dec {
	unsigned long long	 m;
	int			 e;
};

struct node;
struct vset;

struct child {
	struct node	*n;
	const char	*seg;		/* "/properties/a", escaped */
};

struct patprop {
	const char	*pat;
	struct jsschema_regex	*re;
	struct child	 c;
};

struct dep {
	const char	*name;
	const json_t	*req;		/* array of names, or NULL */
	struct child	 c;		/* or a schema */
};

struct node {
	size_t		 id;		/* its index in jsschema's nodes */
	int		 kind;
	const json_t	*j;		/* the schema */
	size_t		 res;		/* its resource, in jsschema's res */
	struct node	*ref;
	int		 refonly;	/* up to Draft-07: siblings ignored */
	struct node	*dref;		/* $dynamicRef, $recursiveRef */
	const char	*dname;		/* its anchor, or NULL: a plain $ref */
	const char	*dseg;		/* "/$dynamicRef" */
	unsigned	 types;
	const json_t	*typev;		/* "type", for the message */
	const json_t	*enumv, *constv;
	const json_t	*multipleof, *maximum, *xmaximum;
	const json_t	*minimum, *xminimum;
	struct dec	 mul;
	long long	 maxlength, minlength, maxitems, minitems;
	long long	 maxprops, minprops;
	struct jsschema_regex	*pattern;
	const char	*patsrc;
	const char	*format;
	int		 items_array, uniqueitems;
	const char	*itemskw;	/* "items" or "prefixItems" */
	long long	 maxcontains, mincontains;
	int		 contains_ann;	/* 2020-12: contains evaluates items */
	struct child	 items, additem, contains, addprops, propnames;
	struct child	 uitems, uprops;	/* unevaluated* */
	struct child	 ifs, thens, elses, nots;
	struct child	*itemv, *allof, *anyof, *oneof, *props;
	size_t		 nitems, nallof, nanyof, noneof, nprops;
	const char	**propnames_v;
	size_t		*propslot;	/* name -> props index + 1 */
	size_t		 propcap;
	struct patprop	*pprops;
	size_t		 npprops;
	struct dep	*deps;
	size_t		 ndeps;
	const json_t	*required;
	struct vset	*enumset;
	int		 leaf;		/* no subschema: cheaper than a memo */
	int		 target;	/* of some "$ref" */
};

/* What the index knows of one subschema (a json_t): its base URI. */
struct sinfo {
	const json_t	*j;
	char		*base;
	struct node	*node;
	int		 draft;		/* of its resource; for an object */
	unsigned	 vocab;		/* VOC_* */
	const json_t	*res;		/* its resource's root */
	const json_t	*schemav;	/* the "$schema" that chose it */
};

/* A meta-schema other than the built-in ones: its dialect. */
struct cmeta {
	char		*uri;
	int		 draft;
	unsigned	 vocab;
};

/* A "$dynamicAnchor" (2019-09's "$recursiveAnchor": name ""). */
struct dynanchor {
	const json_t	*res;
	const char	*name;
	const json_t	*s;
	struct node	*node;
};

/* A URI that names a schema: a document, an $id, a plain-name fragment. */
struct reg {
	char		*uri;
	const json_t	*schema;
};

struct jsschema {
	struct node	*root;
	int		 format;	/* JSSCHEMA_FORMAT_* */
	int		 draft;		/* without "$schema" */
	struct jsschema_refmap *refmap;
	size_t		 nrefmap;
	char		*rootdir;	/* files only below it, or NULL */
	json_t		**docs;
	size_t		 ndocs;
	struct reg	*regs;
	size_t		 nregs;
	size_t		 regmark;	/* regs below it: of other documents */
	char		*dup;		/* a URI two documents claim */
	struct sinfo	**stab;		/* keyed by json_t * */
	size_t		 scap, sn;
	struct node	**nodes;
	size_t		 nnodes;
	struct cmeta	*cmetas;
	size_t		 ncmetas;
	struct dynanchor *dyn;
	size_t		 ndyn;
	const json_t	**res;		/* resources, by node->res */
	size_t		 nres;
	int		 dynamic;	/* a $dynamicRef is dynamic */
	unsigned char	*resdyn;	/* by res: it declares dynamic anchors */
	char		**strs;
	size_t		 nstrs;
};

/* A location in the schema or in the instance, as a chain up the C stack. */
struct kpath {
	const struct kpath	*up;
	const char		*seg;
};

struct ipath {
	const struct ipath	*up;
	const char		*key;	/* NULL: an array index */
	size_t			 idx;
	size_t			 depth;	/* of this location: root is 0 */
};

struct cctx {
	struct jsschema	*js;
	char		*err;
	size_t		 errlen;
	int		 failed;
	int		 refused;	/* the error is a refused reference */
	int		 depth;		/* compile() calls under way */
	const char	*lastref;	/* the last "$ref" followed */
	int		 draft;		/* of the schema being compiled */
	unsigned	 vocab;
	const json_t	*res;
};

static void	 str_text(struct buf *, const char *, size_t);
static struct vset *vset_new(void);
static long	 vset_find(const struct vset *, const json_t *, uint64_t);
static void	 vset_add(struct vset *, const json_t *, size_t, uint64_t);
static void	 vset_free(struct vset *);
static uint64_t	 jhash(const json_t *);

/* ---- small helpers ---- */

static char *
keep(struct jsschema *js, char *s)
{
	js->strs = xreallocarray(js->strs, js->nstrs + 1, sizeof(*js->strs));
	js->strs[js->nstrs++] = s;
	return s;
}

static void
esc_token(struct buf *b, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '~')
			buf_adds(b, "~0");
		else if (s[i] == '/')
			buf_adds(b, "~1");
		else
			buf_addc(b, s[i]);
	}
}

/* "/kw/name" with name escaped as a JSON Pointer token. */
static const char *
seg_key(struct jsschema *js, const char *kw, const char *name)
{
	struct buf b = BUF_INIT;

	buf_addc(&b, '/');
	buf_adds(&b, kw);
	buf_addc(&b, '/');
	esc_token(&b, name, strlen(name));
	return keep(js, buf_cstr(&b));
}

static const char *
seg_idx(struct jsschema *js, const char *kw, size_t i)
{
	struct buf b = BUF_INIT;

	buf_printf(&b, "/%s/%zu", kw, i);
	return keep(js, buf_cstr(&b));
}

static char *
kpath_str(const struct kpath *kp, const char *last)
{
	const struct kpath *k;
	struct buf b = BUF_INIT;
	const char **v;
	size_t n = 0, i;

	for (k = kp; k != NULL; k = k->up)
		n++;
	v = xreallocarray(NULL, n + 1, sizeof(*v));
	i = n;
	for (k = kp; k != NULL; k = k->up)
		v[--i] = k->seg;
	for (i = 0; i < n; i++)
		buf_adds(&b, v[i]);
	buf_adds(&b, last);
	free(v);
	return buf_cstr(&b);
}

static char *
ipath_str(const struct ipath *ip)
{
	const struct ipath *p, **v;
	struct buf b = BUF_INIT;
	size_t n = 0, i;

	for (p = ip; p != NULL; p = p->up)
		n++;
	v = xreallocarray(NULL, n + 1, sizeof(*v));
	i = n;
	for (p = ip; p != NULL; p = p->up)
		v[--i] = p;
	for (i = 0; i < n; i++) {
		buf_addc(&b, '/');
		if (v[i]->key != NULL)
			esc_token(&b, v[i]->key, strlen(v[i]->key));
		else
			buf_addu(&b, v[i]->idx);
	}
	free(v);
	return buf_cstr(&b);
}

/* ---- URIs (RFC 3986, section 5) ---- */

struct upart {
	const char	*p;
	size_t		 n;
	int		 has;
};

struct uri {
	struct upart	 scheme, auth, path, query, frag;
};

static void
uri_parse(const char *s, struct uri *u)
{
	const char *p = s, *q;

	memset(u, 0, sizeof(*u));
	for (q = s; isalnum((unsigned char)*q) || *q == '+' || *q == '-' ||
	    *q == '.'; q++)
		;
	if (*q == ':' && q > s && isalpha((unsigned char)*s)) {
		u->scheme.p = s;
		u->scheme.n = (size_t)(q - s);
		u->scheme.has = 1;
		p = q + 1;
	}
	if (p[0] == '/' && p[1] == '/') {
		p += 2;
		q = p + strcspn(p, "/?#");
		u->auth.p = p;
		u->auth.n = (size_t)(q - p);
		u->auth.has = 1;
		p = q;
	}
	q = p + strcspn(p, "?#");
	u->path.p = p;
	u->path.n = (size_t)(q - p);
	u->path.has = 1;
	p = q;
	if (*p == '?') {
		q = p + 1 + strcspn(p + 1, "#");
		u->query.p = p + 1;
		u->query.n = (size_t)(q - p - 1);
		u->query.has = 1;
		p = q;
	}
	if (*p == '#') {
		u->frag.p = p + 1;
		u->frag.n = strlen(p + 1);
		u->frag.has = 1;
	}
}

static void
pop_segment(struct buf *out)
{
	while (out->len > 0 && out->data[out->len - 1] != '/')
		out->len--;
	if (out->len > 0)
		out->len--;
}

/* RFC 3986, 5.2.4: remove_dot_segments, from s (n bytes) onto out. */
static void
remove_dots(const char *in, size_t n, struct buf *out)
{
	size_t i = 0, j, r;
	const char *s;

	while (i < n) {
		s = in + i;
		r = n - i;
		if (r >= 3 && memcmp(s, "../", 3) == 0)
			i += 3;
		else if (r >= 2 && memcmp(s, "./", 2) == 0)
			i += 2;
		else if (r >= 3 && memcmp(s, "/./", 3) == 0)
			i += 2;
		else if (r == 2 && memcmp(s, "/.", 2) == 0) {
			buf_addc(out, '/');
			i += 2;
		} else if (r >= 4 && memcmp(s, "/../", 4) == 0) {
			pop_segment(out);
			i += 3;
		} else if (r == 3 && memcmp(s, "/..", 3) == 0) {
			pop_segment(out);
			buf_addc(out, '/');
			i += 3;
		} else if ((r == 1 && s[0] == '.') ||
		    (r == 2 && memcmp(s, "..", 2) == 0))
			i = n;
		else {
			j = s[0] == '/' ? 1 : 0;
			while (j < r && s[j] != '/')
				j++;
			buf_add(out, s, j);
			i += j;
		}
	}
}

/*
 * Appends s (n bytes) to out with every byte that a URI's path may not
 * hold as it is (RFC 3986, 3.3: a space, a non-ASCII byte, "%" ...)
 * percent-encoded. With escapes, a "%XX" already there stays, in upper
 * case, and "?" too.
 */
static void
uri_encode(struct buf *out, const char *s, size_t n, int escapes)
{
	static const char hex[] = "0123456789ABCDEF";
	unsigned char c;
	size_t i;

	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (escapes && c == '%' && i + 2 < n &&
		    num_hexval(s[i + 1]) >= 0 && num_hexval(s[i + 2]) >= 0) {
			buf_addc(out, '%');
			buf_addc(out, hex[num_hexval(s[i + 1])]);
			buf_addc(out, hex[num_hexval(s[i + 2])]);
			i += 2;
		} else if ((c < 0x80 && isalnum(c)) ||
		    (c != '\0' && strchr("-._~!$&'()*+,;=:@/", c) != NULL) ||
		    (escapes && c == '?'))
			buf_addc(out, (char)c);
		else {
			buf_addc(out, '%');
			buf_addc(out, hex[c >> 4]);
			buf_addc(out, hex[c & 15]);
		}
	}
}

/*
 * A file: URI with what a path may not hold percent-encoded (a "$ref"
 * that names a file as "my schema.json"), so that one file has one URI;
 * the fragment is left as it is. Takes b, returns its string.
 */
static char *
file_norm(struct buf *b)
{
	struct buf out = BUF_INIT;
	size_t n;

	buf_cstr(b);
	n = strcspn(b->data, "#");
	uri_encode(&out, b->data, n, 1);
	buf_adds(&out, b->data + n);
	buf_free(b);
	return buf_cstr(&out);
}

/* RFC 3986, 5.2.2: ref resolved against base, a new string. */
static char *
uri_resolve(const char *base, const char *ref)
{
	struct uri b, r;
	const struct upart *scheme, *auth, *query;
	struct buf out = BUF_INIT, path = BUF_INIT;
	const char *slash;
	size_t i;

	uri_parse(base, &b);
	uri_parse(ref, &r);
	if (r.scheme.has) {
		scheme = &r.scheme;
		auth = &r.auth;
		remove_dots(r.path.p, r.path.n, &path);
		query = &r.query;
	} else {
		scheme = &b.scheme;
		if (r.auth.has) {
			auth = &r.auth;
			remove_dots(r.path.p, r.path.n, &path);
			query = &r.query;
		} else {
			auth = &b.auth;
			if (r.path.n == 0) {
				buf_add(&path, b.path.p, b.path.n);
				query = r.query.has ? &r.query : &b.query;
			} else {
				struct buf m = BUF_INIT;

				if (r.path.p[0] == '/')
					buf_add(&m, r.path.p, r.path.n);
				else if (b.auth.has && b.path.n == 0) {
					buf_addc(&m, '/');
					buf_add(&m, r.path.p, r.path.n);
				} else {
					slash = NULL;
					for (i = b.path.n; i > 0; i--)
						if (b.path.p[i - 1] == '/') {
							slash = b.path.p + i -
							    1;
							break;
						}
					if (slash != NULL)
						buf_add(&m, b.path.p,
						    (size_t)(slash - b.path.p)
						    + 1);
					buf_add(&m, r.path.p, r.path.n);
				}
				remove_dots(m.data, m.len, &path);
				buf_free(&m);
				query = &r.query;
			}
		}
	}
	if (scheme->has) {
		buf_add(&out, scheme->p, scheme->n);
		buf_addc(&out, ':');
	}
	if (auth->has) {
		buf_adds(&out, "//");
		buf_add(&out, auth->p, auth->n);
	}
	buf_add(&out, path.data, path.len);
	if (query->has) {
		buf_addc(&out, '?');
		buf_add(&out, query->p, query->n);
	}
	if (r.frag.has) {
		buf_addc(&out, '#');
		buf_add(&out, r.frag.p, r.frag.n);
	}
	buf_free(&path);
	if (scheme->has && scheme->n == 4 &&
	    strncasecmp(scheme->p, "file", 4) == 0)
		return file_norm(&out);
	return buf_cstr(&out);
}

char *
jsschema_uri_resolve(const char *base, const char *ref)
{
	return uri_resolve(base, ref);
}

char *
jsschema_file_uri(const char *path)
{
	struct buf abs = BUF_INIT, enc = BUF_INIT, out = BUF_INIT;
	size_t size;

	if (path[0] != '/') {
		for (size = 256;; size *= 2) {
			buf_reserve(&abs, size);
			if (getcwd(abs.data, abs.cap) != NULL)
				break;
			if (errno != ERANGE) {
				buf_free(&abs);
				return NULL;
			}
		}
		abs.len = strlen(abs.data);
		buf_addc(&abs, '/');
	}
	buf_adds(&abs, path);
	uri_encode(&enc, abs.data, abs.len, 0);
	buf_adds(&out, "file://");
	remove_dots(enc.data, enc.len, &out);
	buf_free(&abs);
	buf_free(&enc);
	return buf_cstr(&out);
}

/*
 * The local file that a file: URI (without fragment) names, decoded into
 * path: its host empty or "localhost", no query, no NUL. -1 if none.
 */
static int
file_path(const char *uri, struct buf *path)
{
	struct uri u;
	size_t i;
	int h, l;

	uri_parse(uri, &u);
	if (u.auth.has && u.auth.n != 0 && (u.auth.n != 9 ||
	    strncasecmp(u.auth.p, "localhost", 9) != 0))
		return -1;
	if (u.query.has || u.path.n == 0 || u.path.p[0] != '/')
		return -1;
	for (i = 0; i < u.path.n; i++) {
		if (u.path.p[i] == '%' && i + 2 < u.path.n &&
		    (h = num_hexval(u.path.p[i + 1])) >= 0 &&
		    (l = num_hexval(u.path.p[i + 2])) >= 0) {
			if (h == 0 && l == 0)
				return -1;
			buf_addc(path, (char)(h * 16 + l));
			i += 2;
		} else
			buf_addc(path, u.path.p[i]);
	}
	buf_cstr(path);
	return 0;
}

/* An empty fragment names the same resource as none: drop it. */
static char *
uri_key(char *s)
{
	size_t n = strlen(s);

	if (n > 0 && s[n - 1] == '#' && strchr(s, '#') == s + n - 1)
		s[n - 1] = '\0';
	return s;
}

/* ---- the index: json_t * -> base URI and node ---- */


/* ---- dialects ---- */

/* The dialect of draft, or NULL for one not known. */
static const struct dialect *
dialect_of(int draft)
{
	size_t i;

	for (i = 0; i < sizeof(dialects) / sizeof(dialects[0]); i++)
		if (dialects[i].draft == draft)
			return &dialects[i];
	return NULL;
}

/* A dialect this library validates. */
static int
draft_supported(int draft)
{
	return dialect_of(draft) != NULL;
}

/*
 * The draft a "$schema" URI names: http or https, the published path,
 * with or without an empty fragment; DRAFT_UNKNOWN for any other.
 */
static int
uri_draft(const char *uri)
{
	size_t i, n;

	if (strncmp(uri, "http://", 7) == 0)
		uri += 7;
	else if (strncmp(uri, "https://", 8) == 0)
		uri += 8;
	else
		return DRAFT_UNKNOWN;
	for (i = 0; i < sizeof(dialects) / sizeof(dialects[0]); i++) {
		n = strlen(dialects[i].path);
		if (strncmp(uri, dialects[i].path, n) == 0 &&
		    (uri[n] == '\0' || strcmp(uri + n, "#") == 0))
			return dialects[i].draft;
	}
	return DRAFT_UNKNOWN;
}

int
jsschema_draft(const char *version)
{
	if (strcmp(version, "4") == 0)
		return JSSCHEMA_DRAFT4;
	if (strcmp(version, "6") == 0)
		return JSSCHEMA_DRAFT6;
	if (strcmp(version, "7") == 0)
		return JSSCHEMA_DRAFT7;
	if (strcmp(version, "2019-09") == 0)
		return JSSCHEMA_DRAFT2019;
	if (strcmp(version, "2020-12") == 0)
		return JSSCHEMA_DRAFT2020;
	return 0;
}

/*
 * --ref-map URI=DIR added to opts: arg is cut at its '=' and must stay.
 * -1 when it is not URI=DIR, both parts non-empty.
 */
int
jsschema_opts_refmap(struct jsschema_opts *o, char *arg)
{
	struct jsschema_refmap *maps;
	char *eq;

	if ((eq = strchr(arg, '=')) == NULL || eq == arg || eq[1] == '\0')
		return -1;
	*eq = '\0';
	maps = xreallocarray((void *)o->refmap, o->nrefmap + 1,
	    sizeof(*maps));
	maps[o->nrefmap].uri = arg;
	maps[o->nrefmap].dir = eq + 1;
	o->refmap = maps;
	o->nrefmap++;
	return 0;
}

/* -r FILE added to opts: a schema file to load before compiling. */
void
jsschema_opts_file(struct jsschema_opts *o, const char *path)
{
	const char **files;

	files = xreallocarray((void *)o->files, o->nfiles + 1,
	    sizeof(*files));
	files[o->nfiles++] = path;
	o->files = files;
}

/* Frees what jsschema_opts_refmap and jsschema_opts_file added. */
void
jsschema_opts_free(struct jsschema_opts *o)
{
	free((void *)o->refmap);
	free((void *)o->files);
	o->refmap = NULL;
	o->files = NULL;
	o->nrefmap = o->nfiles = 0;
}

/* The built-in meta-schema at uri (http or https, no fragment), or NULL. */
static const struct meta *
builtin_meta(const char *uri)
{
	size_t i;

	if (strncmp(uri, "http://", 7) == 0)
		uri += 7;
	else if (strncmp(uri, "https://", 8) == 0)
		uri += 8;
	else
		return NULL;
	for (i = 0; i < sizeof(metas) / sizeof(metas[0]); i++)
		if (strcmp(uri, metas[i].path) == 0)
			return &metas[i];
	return NULL;
}

static struct sinfo *
sinfo_get(const struct jsschema *js, const json_t *j)
{
	size_t i;

	if (js->scap == 0)
		return NULL;
	for (i = ptab_hash(j) & (js->scap - 1); js->stab[i] != NULL;
	    i = (i + 1) & (js->scap - 1))
		if (js->stab[i]->j == j)
			return js->stab[i];
	return NULL;
}

static void
sinfo_insert(struct jsschema *js, struct sinfo *si)
{
	size_t i;

	for (i = ptab_hash(si->j) & (js->scap - 1); js->stab[i] != NULL;
	    i = (i + 1) & (js->scap - 1))
		;
	js->stab[i] = si;
}

static struct sinfo *
sinfo_add(struct jsschema *js, const json_t *j, const char *base)
{
	struct sinfo **old = js->stab, *si;
	size_t oldcap = js->scap, i;

	if ((js->sn + 1) * 2 > js->scap) {
		js->scap = js->scap ? js->scap * 2 : 64;
		js->stab = xcalloc(js->scap, sizeof(*js->stab));
		for (i = 0; i < oldcap; i++)
			if (old[i] != NULL)
				sinfo_insert(js, old[i]);
		free(old);
	}
	si = xcalloc(1, sizeof(*si));
	si->j = j;
	si->base = xstrdup(base);
	sinfo_insert(js, si);
	js->sn++;
	return si;
}

static const json_t *
reg_find(const struct jsschema *js, const char *uri)
{
	size_t i;

	for (i = 0; i < js->nregs; i++)
		if (strcmp(js->regs[i].uri, uri) == 0)
			return js->regs[i].schema;
	return NULL;
}

static int	 jeq(const json_t *, const json_t *);

/*
 * The first schema to claim a URI keeps it. A document that claims the
 * URI of another (below regmark) for different content is an error: dup.
 */
static void
reg_add(struct jsschema *js, const char *uri, const json_t *schema)
{
	size_t i;

	for (i = 0; i < js->nregs; i++)
		if (strcmp(js->regs[i].uri, uri) == 0) {
			if (i < js->regmark && js->dup == NULL &&
			    js->regs[i].schema != schema &&
			    !jeq(js->regs[i].schema, schema))
				js->dup = xstrdup(uri);
			return;
		}
	js->regs = xreallocarray(js->regs, js->nregs + 1, sizeof(*js->regs));
	js->regs[js->nregs].uri = xstrdup(uri);
	js->regs[js->nregs].schema = schema;
	js->nregs++;
}

/* Where a subschema is read: its dialect, vocabularies and resource. */
struct dial {
	int		 draft;
	unsigned	 vocab;
	const json_t	*res;		/* the resource's root */
};

static void index_at(struct jsschema *, const json_t *, const char *,
    const struct dial *, int);

static void
index_member(struct jsschema *js, const json_t *s, const char *kw,
    const char *base, const struct dial *in)
{
	const json_t *c;

	if ((c = json_object_get(s, kw)) != NULL)
		index_at(js, c, base, in, 0);
}

static void
index_array(struct jsschema *js, const json_t *a, const char *base,
    const struct dial *in)
{
	size_t i;

	if (!json_is_array(a))
		return;
	for (i = 0; i < json_array_size(a); i++)
		index_at(js, json_array_get(a, i), base, in, 0);
}

static void
index_map(struct jsschema *js, const json_t *m, const char *base,
    const struct dial *in)
{
	const char *k;
	json_t *v;

	if (!json_is_object(m))
		return;
	json_object_foreach((json_t *)m, k, v)
		index_at(js, v, base, in, 0);
}

/* The custom meta-schema at uri, as cmeta_load() read it, or NULL. */
static const struct cmeta *
cmeta_find(const struct jsschema *js, const char *uri)
{
	size_t i, n = strlen(uri);

	if (n > 0 && uri[n - 1] == '#')
		n--;
	for (i = 0; i < js->ncmetas; i++)
		if (strlen(js->cmetas[i].uri) == n &&
		    strncmp(js->cmetas[i].uri, uri, n) == 0)
			return &js->cmetas[i];
	return NULL;
}

/* The dialect "$schema" sv names, in *d; d->res is left as it is. */
static void
schema_dialect(const struct jsschema *js, const json_t *sv, struct dial *d)
{
	const struct dialect *dl;
	const struct cmeta *cm;

	if (!json_is_string(sv)) {
		d->draft = DRAFT_NOTSTRING;
		return;
	}
	d->draft = uri_draft(json_string_value(sv));
	if ((dl = dialect_of(d->draft)) != NULL)
		d->vocab = dl->vocab;
	else if ((cm = cmeta_find(js, json_string_value(sv))) != NULL) {
		d->draft = cm->draft;
		d->vocab = cm->vocab;
	}
}

/* Registers the anchor name of s, in base's resource; dyn: $dynamicAnchor. */
static void
index_anchor(struct jsschema *js, const json_t *s, const char *base,
    const json_t *res, const char *name, int dyn)
{
	struct buf b = BUF_INIT;

	if (name[0] != '\0') {
		buf_adds(&b, base);
		buf_addc(&b, '#');
		buf_adds(&b, name);
		reg_add(js, buf_cstr(&b), s);
		buf_free(&b);
	}
	if (!dyn)
		return;
	js->dyn = xreallocarray(js->dyn, js->ndyn + 1, sizeof(*js->dyn));
	js->dyn[js->ndyn].res = res;
	js->dyn[js->ndyn].name = name;
	js->dyn[js->ndyn].s = s;
	js->dyn[js->ndyn].node = NULL;
	js->ndyn++;
}

/*
 * Records the base URI, dialect and resource of s and of its subschemas,
 * and registers the URIs their "$id"s ("id" in Draft-04) and anchors
 * name. Up to Draft-07 a "$ref" hides its siblings, its "$id" too.
 * "$schema" chooses the dialect at the root of a document (root) and of
 * a resource that an id starts; the dialect of the schema around it
 * holds elsewhere. A "$schema" that names no dialect known here is
 * recorded as such, for compile() to report.
 */
static void
index_at(struct jsschema *js, const json_t *s, const char *base,
    const struct dial *in, int root)
{
	const struct dialect *d;
	const json_t *id, *items, *sv, *a;
	struct sinfo *si;
	struct dial dl = *in;
	char *abs = NULL, *hash;
	const char *nb = base;
	unsigned kw;

	if (json_is_boolean(s)) {
		if (sinfo_get(js, s) == NULL) {
			si = sinfo_add(js, s, base);
			si->draft = in->draft;
			si->vocab = in->vocab;
			si->res = in->res;
		}
		return;
	}
	if (!json_is_object(s) || sinfo_get(js, s) != NULL)
		return;
	d = dialect_of(dl.draft);
	id = json_object_get(s, d != NULL ? d->idkw : "$id");
	sv = json_object_get(s, "$schema");
	if (sv != NULL && (root || json_is_string(id))) {
		schema_dialect(js, sv, &dl);
		d = dialect_of(dl.draft);
		id = json_object_get(s, d != NULL ? d->idkw : "$id");
	} else
		sv = NULL;
	kw = d != NULL ? d->kw : 0;
	if (root)
		dl.res = s;
	if (json_is_string(id) && ((kw & KW_2019) ||
	    json_object_get(s, "$ref") == NULL)) {
		abs = uri_resolve(base, json_string_value(id));
		hash = strchr(abs, '#');
		if (hash != NULL && hash[1] != '\0') {
			reg_add(js, abs, s);
			if (json_string_value(id)[0] != '#') {
				*hash = '\0';
				reg_add(js, abs, s);
				nb = abs;
				dl.res = s;
			}
		} else {
			nb = uri_key(abs);
			reg_add(js, nb, s);
			dl.res = s;
		}
	}
	si = sinfo_add(js, s, nb);
	si->draft = dl.draft;
	si->vocab = dl.vocab;
	si->res = dl.res;
	si->schemav = sv;
	if (kw & KW_2019) {
		if (json_is_string(a = json_object_get(s, "$anchor")))
			index_anchor(js, s, nb, dl.res, json_string_value(a),
			    0);
		if (!(kw & KW_2020) && json_is_true(json_object_get(s,
		    "$recursiveAnchor")))
			index_anchor(js, s, nb, dl.res, "", 1);
		if ((kw & KW_2020) && json_is_string(a = json_object_get(s,
		    "$dynamicAnchor")))
			index_anchor(js, s, nb, dl.res, json_string_value(a),
			    1);
		index_map(js, json_object_get(s, "$defs"), nb, &dl);
		index_map(js, json_object_get(s, "dependentSchemas"), nb, &dl);
		index_member(js, s, "unevaluatedItems", nb, &dl);
		index_member(js, s, "unevaluatedProperties", nb, &dl);
		index_member(js, s, "contentSchema", nb, &dl);
	}
	if (kw & KW_2020)
		index_array(js, json_object_get(s, "prefixItems"), nb, &dl);
	else
		index_member(js, s, "additionalItems", nb, &dl);
	if (kw & KW_CONST) {
		index_member(js, s, "contains", nb, &dl);
		index_member(js, s, "propertyNames", nb, &dl);
	}
	index_member(js, s, "additionalProperties", nb, &dl);
	if (kw & KW_IF) {
		index_member(js, s, "if", nb, &dl);
		index_member(js, s, "then", nb, &dl);
		index_member(js, s, "else", nb, &dl);
	}
	index_member(js, s, "not", nb, &dl);
	items = json_object_get(s, "items");
	if (json_is_array(items))
		index_array(js, items, nb, &dl);
	else if (items != NULL)
		index_at(js, items, nb, &dl, 0);
	index_array(js, json_object_get(s, "allOf"), nb, &dl);
	index_array(js, json_object_get(s, "anyOf"), nb, &dl);
	index_array(js, json_object_get(s, "oneOf"), nb, &dl);
	index_map(js, json_object_get(s, "definitions"), nb, &dl);
	index_map(js, json_object_get(s, "properties"), nb, &dl);
	index_map(js, json_object_get(s, "patternProperties"), nb, &dl);
	index_map(js, json_object_get(s, "dependencies"), nb, &dl);
	free(abs);
}

/* The root of a document: its dialect is its "$schema" or the default. */
static void
index_schema(struct jsschema *js, const json_t *s, const char *base)
{
	struct dial d;

	d.draft = js->draft;
	d.vocab = dialect_of(js->draft)->vocab;
	d.res = s;
	index_at(js, s, base, &d, 1);
}

/* ---- compiling ---- */

static void cc_error(struct cctx *, const struct kpath *, const char *, ...)
    __attribute__((format(printf, 3, 4)));

static void
cc_error(struct cctx *cc, const struct kpath *where, const char *fmt, ...)
{
	va_list ap;
	char *loc;
	int n;

	if (cc->failed++)
		return;
	if (cc->errlen == 0)
		return;
	loc = kpath_str(where, "");
	n = snprintf(cc->err, cc->errlen, "%s%s", loc,
	    loc[0] != '\0' ? ": " : "");
	free(loc);
	if (n < 0 || (size_t)n >= cc->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(cc->err + n, cc->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

static void
add_doc(struct jsschema *js, json_t *doc)
{
	js->docs = xreallocarray(js->docs, js->ndocs + 1, sizeof(*js->docs));
	js->docs[js->ndocs++] = doc;
}

/*
 * Adds doc, known as uri and by its $ids. -1 when one of them is already
 * the URI of a different schema, named by js->dup.
 */
static int
add_loaded(struct jsschema *js, json_t *doc, const char *uri)
{
	add_doc(js, doc);
	js->regmark = js->nregs;
	reg_add(js, uri, doc);
	index_schema(js, doc, uri);
	js->regmark = 0;
	return js->dup != NULL ? -1 : 0;
}

/* Why open_regular() refused a file that is there. */
#define NOT_DIR		1	/* a directory */
#define NOT_REGULAR	2	/* a FIFO, a device, a socket */

/*
 * path opened for reading when it is a regular file, without waiting on
 * a FIFO or reading a device for ever: a stream, or NULL with errno set
 * or *notreg (NOT_DIR, NOT_REGULAR) set for a file that is there.
 */
static FILE *
open_regular(const char *path, int *notreg)
{
	struct stat st;
	FILE *fp;
	int fd, flags, e;

	*notreg = 0;
	/* O_NONBLOCK: open(2) of a FIFO without a writer would wait */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1)
		return NULL;
	if (fstat(fd, &st) == -1) {
		e = errno;
		close(fd);
		errno = e;
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		*notreg = S_ISDIR(st.st_mode) ? NOT_DIR : NOT_REGULAR;
		close(fd);
		return NULL;
	}
	if ((flags = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == -1 ||
	    (fp = fdopen(fd, "r")) == NULL) {
		e = errno;
		close(fd);
		errno = e;
		return NULL;
	}
	return fp;
}

/* What open_regular()'s failure was, in words. */
static const char *
open_why(int notreg, int errnum)
{
	if (notreg == NOT_REGULAR)
		return "not a regular file";
	return strerror(notreg == NOT_DIR ? EISDIR : errnum);
}

FILE *
jsschema_fopen(const char *path, const char **why)
{
	FILE *fp;
	int notreg;

	if ((fp = open_regular(path, &notreg)) == NULL)
		*why = open_why(notreg, errno);
	return fp;
}

/*
 * The JSON document in the file path, or NULL: then *why is the reason
 * it could not be read (and *notreg set when it is there but no regular
 * file), or *why is NULL and jerr says why it is no JSON.
 */
static json_t *
read_file(const char *path, json_error_t *jerr, const char **why,
    int *notreg)
{
	json_t *doc;
	FILE *fp;

	*why = NULL;
	if ((fp = open_regular(path, notreg)) == NULL) {
		*why = open_why(*notreg, errno);
		return NULL;
	}
	errno = 0;
	doc = json_loadf(fp, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, jerr);
	if (doc == NULL && ferror(fp))
		*why = strerror(errno != 0 ? errno : EIO);
	fclose(fp);
	return doc;
}

static int	 load_metas(struct cctx *, const json_t *);

/* Reads the schemas of opts->files; 0, or -1 with the error set. */
static int
load_files(struct cctx *cc, const char *const *files, size_t nfiles)
{
	json_error_t jerr;
	json_t *doc;
	const char *why;
	char *uri;
	size_t i;
	int e;

	for (i = 0; i < nfiles; i++) {
		if ((uri = jsschema_file_uri(files[i])) == NULL) {
			cc_error(cc, NULL, "%s: %s", files[i], strerror(errno));
			return -1;
		}
		if ((doc = read_file(files[i], &jerr, &why, &e)) == NULL) {
			if (why != NULL)
				cc_error(cc, NULL, "%s: %s", files[i], why);
			else
				cc_error(cc, NULL, "%s:%d:%d: the schema is "
				    "not JSON: %s", files[i], jerr.line,
				    jerr.column > 0 ? jerr.column : 1,
				    jerr.text);
			free(uri);
			return -1;
		}
		if (load_metas(cc, doc) == -1) {
			json_decref(doc);
			free(uri);
			return -1;
		}
		e = add_loaded(cc->js, doc, uri);
		free(uri);
		if (e == -1) {
			cc_error(cc, NULL, "%s: a different schema with the URI "
			    "\"%s\" is already loaded", files[i], cc->js->dup);
			return -1;
		}
	}
	return 0;
}

/* A reference jsschema_compile_below refuses: the error says so. */
static void
cc_refuse(struct cctx *cc, const struct kpath *where, const char *uri,
    const char *why)
{
	if (!cc->failed)
		cc->refused = 1;
	cc_error(cc, where, "cannot load \"%s\": %s", uri, why);
}

/*
 * The document in the file the file: URI uri names, read as
 * jsschema_compile_below asks: when the file, its symbolic links
 * resolved, is below the root and is a regular file. NULL with the
 * error set.
 */
static json_t *
load_below_root(struct cctx *cc, const char *uri, const struct kpath *where)
{
	const char *root = cc->js->rootdir, *why;
	struct buf path = BUF_INIT, msg = BUF_INIT;
	json_error_t jerr;
	json_t *doc = NULL;
	char *real = NULL;
	size_t n = strlen(root);
	int notreg;

	if (file_path(uri, &path) == -1) {
		buf_printf(&msg, "not a file below %s", root);
		cc_refuse(cc, where, uri, buf_cstr(&msg));
		goto out;
	}
	if ((real = realpath(path.data, NULL)) == NULL) {
		cc_error(cc, where, "cannot load \"%s\": %s", uri,
		    strerror(errno));
		goto out;
	}
	/* the root itself is no file; "/" is the root of every file */
	if (strncmp(real, root, n) != 0 || (real[n] != '/' &&
	    !(n == 1 && root[0] == '/'))) {
		buf_printf(&msg, "not a file below %s", root);
		cc_refuse(cc, where, uri, buf_cstr(&msg));
		goto out;
	}
	if ((doc = read_file(real, &jerr, &why, &notreg)) != NULL)
		goto out;
	if (notreg)
		cc_refuse(cc, where, uri, why);
	else if (why != NULL)
		cc_error(cc, where, "cannot load \"%s\": %s", uri, why);
	else
		cc_error(cc, where, "cannot load \"%s\": not JSON at line %d, "
		    "column %d: %s", uri, jerr.line, jerr.column > 0 ?
		    jerr.column : 1, jerr.text);
out:
	free(real);
	buf_free(&path);
	buf_free(&msg);
	return doc;
}

/*
 * Loads the document at uri (no fragment): the built-in meta-schema, a
 * file under a ref map, or the local file a file: URI names; with a
 * root, the built-in meta-schemas and files below the root alone. 0, or
 * -1 with the error set.
 */
static int
load_doc(struct cctx *cc, const char *uri, const struct kpath *where)
{
	struct jsschema *js = cc->js;
	json_error_t jerr;
	json_t *doc = NULL;
	const char *rest, *why;
	struct buf path = BUF_INIT;
	const struct meta *meta;
	size_t i, n;
	int e;

	if ((meta = builtin_meta(uri)) != NULL) {
		doc = json_loadb(meta->text, *meta->len, 0, &jerr);
		if (doc == NULL) {
			cc_error(cc, where, "built-in meta-schema: %s",
			    jerr.text);
			return -1;
		}
	}
	if (doc == NULL && js->rootdir != NULL) {
		if (strncasecmp(uri, "file:", 5) == 0)
			doc = load_below_root(cc, uri, where);
		else {
			buf_printf(&path, "not a file below %s", js->rootdir);
			cc_refuse(cc, where, uri, buf_cstr(&path));
			buf_free(&path);
		}
		if (doc == NULL)
			return -1;
	}
	for (i = 0; doc == NULL && i < js->nrefmap; i++) {
		n = strlen(js->refmap[i].uri);
		if (strncmp(uri, js->refmap[i].uri, n) != 0)
			continue;
		rest = uri + n;
		if (strcmp(rest, "..") == 0 || strncmp(rest, "../", 3) == 0 ||
		    strstr(rest, "/../") != NULL ||
		    (strlen(rest) >= 3 &&
		    strcmp(rest + strlen(rest) - 3, "/..") == 0)) {
			cc_error(cc, where, "$ref \"%s\" leaves the directory "
			    "it is mapped to", uri);
			return -1;
		}
		buf_adds(&path, js->refmap[i].dir);
		if (path.len > 0 && path.data[path.len - 1] != '/' &&
		    rest[0] != '/')
			buf_addc(&path, '/');
		buf_adds(&path, rest);
		doc = read_file(buf_cstr(&path), &jerr, &why, &e);
		if (doc == NULL) {
			if (why != NULL)
				cc_error(cc, where, "cannot load \"%s\" from "
				    "%s: %s", uri, path.data, why);
			else
				cc_error(cc, where, "cannot load \"%s\" from "
				    "%s: not JSON at line %d, column %d: %s",
				    uri, path.data, jerr.line,
				    jerr.column > 0 ? jerr.column : 1,
				    jerr.text);
			buf_free(&path);
			return -1;
		}
		buf_free(&path);
	}
	if (doc == NULL && strncasecmp(uri, "file:", 5) == 0) {
		if (file_path(uri, &path) == -1) {
			buf_free(&path);
			cc_error(cc, where, "cannot load \"%s\": not a local "
			    "file", uri);
			return -1;
		}
		doc = read_file(path.data, &jerr, &why, &e);
		buf_free(&path);
		if (doc == NULL) {
			if (why != NULL)
				cc_error(cc, where, "cannot load \"%s\": %s",
				    uri, why);
			else
				cc_error(cc, where, "cannot load \"%s\": not "
				    "JSON at line %d, column %d: %s", uri,
				    jerr.line, jerr.column > 0 ?
				    jerr.column : 1, jerr.text);
			return -1;
		}
	}
	if (doc == NULL) {
		if (strchr(uri, ':') == NULL)
			cc_error(cc, where, "cannot resolve $ref to \"%s\": "
			    "a relative reference, and the schema has no base "
			    "URI (no $id, no file)", uri);
		else
			cc_error(cc, where, "cannot resolve $ref to \"%s\": "
			    "not loaded (give its schema with -r FILE, or map "
			    "the URI to a directory with --ref-map URI=DIR)",
			    uri);
		return -1;
	}
	if (load_metas(cc, doc) == -1) {
		json_decref(doc);
		return -1;
	}
	if (add_loaded(js, doc, uri) == -1) {
		cc_error(cc, where, "cannot load \"%s\": a different schema "
		    "with the URI \"%s\" is already loaded", uri, js->dup);
		return -1;
	}
	return 0;
}

/*
 * jsschema_external_ref: the references of a document, with the base
 * each is read against, and the URIs its "$id"s give it.
 */
struct xref {
	json_t		*ids;		/* URI -> true */
	const json_t	*first;		/* the first reference that leaves */
	json_t		*refs;		/* [[resolved URI, the reference]] */
};

/* Whether key k of a schema holds data (an instance), not schemas. */
int
jsschema_data_keyword(const char *k)
{
	return strcmp(k, "enum") == 0 || strcmp(k, "const") == 0 ||
	    strcmp(k, "default") == 0 || strcmp(k, "examples") == 0;
}

/* Whether key k of a schema holds an object whose values are schemas. */
int
jsschema_map_keyword(const char *k)
{
	return strcmp(k, "properties") == 0 ||
	    strcmp(k, "patternProperties") == 0 ||
	    strcmp(k, "$defs") == 0 || strcmp(k, "definitions") == 0 ||
	    strcmp(k, "dependentSchemas") == 0 ||
	    strcmp(k, "dependencies") == 0;
}

static void
xref_walk(struct xref *x, const json_t *v, const char *base, int map)
{
	static const char *const refkw[] = {
	    "$ref", "$dynamicRef", "$recursiveRef"
	};
	const json_t *id, *r;
	const char *k;
	char *nb = NULL, *u;
	json_t *m;
	size_t i;

	if (json_is_array(v)) {
		json_array_foreach((json_t *)v, i, m)
			xref_walk(x, m, base, 0);
		return;
	}
	if (!json_is_object(v))
		return;
	if (map) {
		json_object_foreach((json_t *)v, k, m)
			xref_walk(x, m, base, 0);
		return;
	}
	if (json_is_string(id = json_object_get(v, "$id"))) {
		nb = uri_key(uri_resolve(base, json_string_value(id)));
		if (strchr(nb, '#') != NULL)
			*strchr(nb, '#') = '\0';
		json_object_set_new(x->ids, nb, json_true());
		base = nb;
	}
	for (i = 0; i < sizeof(refkw) / sizeof(refkw[0]); i++) {
		if (!json_is_string(r = json_object_get(v, refkw[i])))
			continue;
		u = uri_resolve(base, json_string_value(r));
		if (strchr(u, '#') != NULL)
			*strchr(u, '#') = '\0';
		json_array_append_new(x->refs, json_pack("[sO]", u, r));
		free(u);
	}
	r = json_object_get(v, "$schema");
	if (x->first == NULL && json_is_string(r) &&
	    uri_draft(json_string_value(r)) == DRAFT_UNKNOWN) {
		u = uri_key(xstrdup(json_string_value(r)));
		if (builtin_meta(u) == NULL)
			x->first = r;
		free(u);
	}
	json_object_foreach((json_t *)v, k, m)
		if (!jsschema_data_keyword(k))
			xref_walk(x, m, base, jsschema_map_keyword(k));
	free(nb);
}

const json_t *
jsschema_document(const struct jsschema *js, const char *uri)
{
	const json_t *doc;
	char *u;

	u = uri_key(uri_resolve("", uri));
	if (strchr(u, '#') != NULL)
		*strchr(u, '#') = '\0';
	doc = reg_find(js, u);
	free(u);
	return doc;
}

char *
jsschema_external_ref(const json_t *schema, const char *base_uri)
{
	struct xref x;
	const json_t *r;
	const char *u;
	char *base, *found = NULL;
	size_t i;

	base = uri_key(uri_resolve("", base_uri != NULL ? base_uri : ""));
	if (strchr(base, '#') != NULL)
		*strchr(base, '#') = '\0';
	x.ids = json_object();
	x.refs = json_array();
	x.first = NULL;
	json_object_set_new(x.ids, base, json_true());
	xref_walk(&x, schema, base, 0);
	for (i = 0; x.first == NULL && i < json_array_size(x.refs); i++) {
		r = json_array_get(x.refs, i);
		u = json_string_value(json_array_get(r, 0));
		if (json_object_get(x.ids, u) == NULL &&
		    builtin_meta(u) == NULL)
			x.first = json_array_get(r, 1);
	}
	if (x.first != NULL)
		found = xstrdup(json_string_value(x.first));
	json_decref(x.ids);
	json_decref(x.refs);
	free(base);
	return found;
}

/* Whether load_doc() has a place to look for uri: a doc is there or not. */
static int
doc_known(const struct jsschema *js, const char *uri)
{
	size_t i;

	/* below a root, a meta-schema not had is a reference refused */
	if (builtin_meta(uri) != NULL || reg_find(js, uri) != NULL ||
	    strncasecmp(uri, "file:", 5) == 0 || js->rootdir != NULL)
		return 1;
	for (i = 0; i < js->nrefmap; i++)
		if (strncmp(uri, js->refmap[i].uri,
		    strlen(js->refmap[i].uri)) == 0)
			return 1;
	return 0;
}

/*
 * The vocabularies a meta-schema's "$vocabulary" v names, for its
 * dialect d: -1, with the error set, for a required one not known here.
 */
static int
vocab_of(struct cctx *cc, const char *uri, int d, const json_t *v)
{
	static const char *const known[] = {
	    "core", "applicator", "unevaluated", "meta-data",
	    "format-annotation", "content"
	};
	const char *k, *name, *pre = d == DRAFT2020_12 ?
	    "https://json-schema.org/draft/2020-12/vocab/" :
	    "https://json-schema.org/draft/2019-09/vocab/";
	unsigned vocab = 0;
	json_t *jv;
	size_t i;
	int ok;

	if (!json_is_object(v))
		return (int)dialect_of(d)->vocab;
	json_object_foreach((json_t *)v, k, jv) {
		ok = 0;
		name = strncmp(k, pre, strlen(pre)) == 0 ? k + strlen(pre) : "";
		if (strcmp(name, "validation") == 0) {
			vocab |= VOC_VALIDATION;
			ok = 1;
		} else if ((d == DRAFT2020_12 &&
		    strcmp(name, "format-assertion") == 0) ||
		    (d == DRAFT2019_09 && strcmp(name, "format") == 0)) {
			if (d == DRAFT2020_12 || json_is_true(jv))
				vocab |= VOC_FORMAT;
			ok = 1;
		}
		for (i = 0; !ok && i < sizeof(known) / sizeof(known[0]); i++)
			ok = strcmp(name, known[i]) == 0;
		if (!ok && json_is_true(jv)) {
			cc_error(cc, NULL, "the meta-schema \"%s\" requires the "
			    "vocabulary \"%s\", which is not known here", uri,
			    k);
			return -1;
		}
	}
	return (int)vocab;
}

/*
 * The meta-schema js->cmetas[i] names, read when it can be had: its
 * dialect is that of its own "$schema" (2019-09 or 2020-12), with the
 * vocabularies of its "$vocabulary". It stays unknown otherwise. 0, or
 * -1 with the error set.
 */
static int
cmeta_read(struct cctx *cc, size_t i)
{
	struct jsschema *js = cc->js;
	const json_t *doc, *sv;
	char *uri = js->cmetas[i].uri;
	int d, vocab;

	if (strchr(uri, '#') != NULL || !doc_known(js, uri))
		return 0;
	if ((doc = reg_find(js, uri)) == NULL) {
		if (load_doc(cc, uri, NULL) == -1)
			return -1;
		doc = reg_find(js, uri);
	}
	sv = json_object_get(doc, "$schema");
	d = json_is_string(sv) ? uri_draft(json_string_value(sv)) :
	    DRAFT_UNKNOWN;
	if (d != DRAFT2019_09 && d != DRAFT2020_12)
		return 0;
	if ((vocab = vocab_of(cc, uri, d, json_object_get(doc,
	    "$vocabulary"))) == -1)
		return -1;
	js->cmetas[i].draft = d;
	js->cmetas[i].vocab = (unsigned)vocab;
	return 0;
}

/*
 * Reads the meta-schemas that the "$schema"s in doc name, other than the
 * built-in ones (see cmeta_read), before doc is indexed. 0, or -1 with
 * the error set.
 */
static int
load_metas(struct cctx *cc, const json_t *doc)
{
	struct jsschema *js = cc->js;
	const json_t *sv;
	const char *k;
	json_t *v;
	size_t i;

	if (json_is_array(doc)) {
		json_array_foreach((json_t *)doc, i, v)
			if (load_metas(cc, v) == -1)
				return -1;
		return 0;
	}
	if (!json_is_object(doc))
		return 0;
	sv = json_object_get(doc, "$schema");
	if (json_is_string(sv) && uri_draft(json_string_value(sv)) ==
	    DRAFT_UNKNOWN && cmeta_find(js, json_string_value(sv)) == NULL) {
		js->cmetas = xreallocarray(js->cmetas, js->ncmetas + 1,
		    sizeof(*js->cmetas));
		i = js->ncmetas++;
		js->cmetas[i].uri = uri_key(xstrdup(json_string_value(sv)));
		js->cmetas[i].draft = DRAFT_UNKNOWN;
		js->cmetas[i].vocab = 0;
		if (cmeta_read(cc, i) == -1)
			return -1;
	}
	json_object_foreach((json_t *)doc, k, v)
		if (load_metas(cc, v) == -1)
			return -1;
	return 0;
}

/* Walks the JSON Pointer p (URI-escaped, as in a fragment) from s. */
static const json_t *
walk_pointer(const json_t *s, const char *frag)
{
	struct buf dec = BUF_INIT, tok = BUF_INIT;
	const char *p;
	size_t i;
	char *end, c;
	unsigned long long idx;
	int h, l;

	for (p = frag; *p != '\0'; p++) {
		if (*p == '%' && (h = num_hexval(p[1])) >= 0 &&
		    (l = num_hexval(p[2])) >= 0) {
			buf_addc(&dec, (char)(h * 16 + l));
			p += 2;
		} else
			buf_addc(&dec, *p);
	}
	buf_cstr(&dec);
	i = 0;
	while (s != NULL && i < dec.len) {
		/* dec.data[i] is '/' */
		i++;
		buf_reset(&tok);
		while (i < dec.len && dec.data[i] != '/') {
			c = i + 1 < dec.len ? dec.data[i + 1] : '\0';
			if (dec.data[i] == '~' && (c == '0' || c == '1')) {
				buf_addc(&tok, c == '0' ? '~' : '/');
				i += 2;
			} else
				buf_addc(&tok, dec.data[i++]);
		}
		buf_cstr(&tok);
		if (json_is_object(s))
			s = json_object_getn(s, tok.data, tok.len);
		else if (json_is_array(s)) {
			if (tok.len == 0 || !isdigit((unsigned char)tok.data[0])
			    || (tok.len > 1 && tok.data[0] == '0'))
				s = NULL;
			else {
				idx = strtoull(tok.data, &end, 10);
				s = *end == '\0' && idx < json_array_size(s) ?
				    json_array_get(s, (size_t)idx) : NULL;
			}
		} else
			s = NULL;
	}
	buf_free(&dec);
	buf_free(&tok);
	return s;
}

static struct node *compile(struct cctx *, const json_t *, const char *,
    const struct kpath *);

/* The node a "$ref" reaches, loading documents as needed; NULL on error. */
static struct node *
resolve_ref(struct cctx *cc, const char *base, const char *ref,
    const struct kpath *where)
{
	struct jsschema *js = cc->js;
	char *abs, *hash, *frag;
	const json_t *t = NULL, *doc;
	const char *saved;
	struct sinfo *si;
	struct node *n = NULL;
	struct dial in;

	abs = uri_key(uri_resolve(base, ref));
	hash = strchr(abs, '#');
	frag = hash != NULL ? hash + 1 : NULL;
	if (hash != NULL)
		*hash = '\0';
	if ((doc = reg_find(js, abs)) == NULL) {
		if (load_doc(cc, abs, where) == -1)
			goto out;
		doc = reg_find(js, abs);
	}
	if (frag == NULL || frag[0] == '\0')
		t = doc;
	else if (frag[0] == '/')
		t = walk_pointer(doc, frag);
	else {
		*hash = '#';
		t = reg_find(js, abs);
	}
	if (hash != NULL)
		*hash = '#';
	if (t == NULL) {
		if (strcmp(ref, abs) == 0)
			cc_error(cc, where, "cannot resolve $ref \"%s\"", ref);
		else
			cc_error(cc, where, "cannot resolve $ref \"%s\" "
			    "(\"%s\")", ref, abs);
		goto out;
	}
	if ((si = sinfo_get(js, t)) == NULL) {
		if (hash != NULL)
			*hash = '\0';
		if ((si = sinfo_get(js, doc)) != NULL) {
			in.draft = si->draft;
			in.vocab = si->vocab;
		} else {
			in.draft = js->draft;
			in.vocab = dialect_of(js->draft)->vocab;
		}
		in.res = doc;
		index_at(js, t, abs, &in, 0);
		if ((si = sinfo_get(js, t)) == NULL) {
			cc_error(cc, where, "$ref \"%s\" does not point at "
			    "a schema", ref);
			goto out;
		}
	}
	saved = cc->lastref;
	cc->lastref = ref;
	n = compile(cc, t, si->base, where);
	cc->lastref = saved;
out:
	free(abs);
	return n;
}

static int
type_bit(const json_t *t)
{
	size_t i;

	if (!json_is_string(t))
		return 0;
	for (i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
		if (strcmp(json_string_value(t), type_names[i]) == 0)
			return 1 << i;
	return 0;
}

/* A non-negative integer keyword (2.0 counts), or -1 when absent. */
static long long
get_count(struct cctx *cc, const json_t *s, const char *kw,
    const struct kpath *where)
{
	const json_t *v = json_object_get(s, kw);
	double d;

	if (v == NULL)
		return -1;
	if (json_is_integer(v) && json_integer_value(v) >= 0)
		return json_integer_value(v);
	if (json_is_real(v)) {
		d = json_real_value(v);
		if (d >= 0 && d == floor(d) && d < 9e18)
			return (long long)d;
	}
	cc_error(cc, where, "\"%s\" must be a non-negative integer", kw);
	return -1;
}

static const json_t *
get_number(struct cctx *cc, const json_t *s, const char *kw,
    const struct kpath *where)
{
	const json_t *v = json_object_get(s, kw);

	if (v != NULL && !json_is_number(v)) {
		cc_error(cc, where, "\"%s\" must be a number", kw);
		return NULL;
	}
	return v;
}

static const char *dialect_name(int);

/*
 * "exclusiveMaximum" (or Minimum): a number in Draft-06 and later, set
 * in *excl; Draft-04's boolean, which makes *bound exclusive.
 */
static void
get_exclusive(struct cctx *cc, const json_t *s, const char *kw,
    const json_t **bound, const json_t **excl, const struct kpath *where)
{
	const json_t *v = json_object_get(s, kw);

	*excl = NULL;
	if (v == NULL)
		return;
	if (dialect_of(cc->draft)->kw & KW_XBOOL) {
		if (!json_is_boolean(v))
			cc_error(cc, where, "\"%s\" must be a boolean in "
			    "Draft-04", kw);
		else if (json_is_true(v)) {
			*excl = *bound;
			*bound = NULL;
		}
	} else if (json_is_boolean(v))
		cc_error(cc, where, "\"%s\" must be a number in %s (a "
		    "boolean is Draft-04's form)", kw,
		    dialect_name(cc->draft));
	else
		*excl = get_number(cc, s, kw, where);
}

/* Whether the dialect d defines the format name (one jsschema_format knows). */
static int
format_of(const struct dialect *d, const char *name)
{
	const char *p;
	size_t n = strlen(name);

	if (d->formats == NULL)
		return 1;
	for (p = strstr(d->formats, name); p != NULL;
	    p = strstr(p + 1, name))
		if (p[-1] == ' ' && p[n] == ' ')
			return 1;
	return 0;
}

static void dec_of(const json_t *, struct dec *);

static void
sub(struct cctx *cc, const json_t *s, const char *kw, const char *base,
    struct child *c, const struct kpath *where)
{
	const json_t *v = json_object_get(s, kw);
	struct kpath k;
	struct buf b = BUF_INIT;

	if (v == NULL)
		return;
	buf_addc(&b, '/');
	buf_adds(&b, kw);
	c->seg = keep(cc->js, buf_cstr(&b));
	k.up = where;
	k.seg = c->seg;
	c->n = compile(cc, v, base, &k);
}

static struct child *
sub_array(struct cctx *cc, const json_t *s, const char *kw, const char *base,
    size_t *np, const struct kpath *where)
{
	const json_t *a = json_object_get(s, kw);
	struct child *v;
	struct kpath k;
	size_t i;

	*np = 0;
	if (a == NULL)
		return NULL;
	if (!json_is_array(a) || json_array_size(a) == 0) {
		cc_error(cc, where, "\"%s\" must be a non-empty array of "
		    "schemas", kw);
		return NULL;
	}
	v = xcalloc(json_array_size(a), sizeof(*v));
	*np = json_array_size(a);
	for (i = 0; i < *np; i++) {
		v[i].seg = seg_idx(cc->js, kw, i);
		k.up = where;
		k.seg = v[i].seg;
		v[i].n = compile(cc, json_array_get(a, i), base, &k);
	}
	return v;
}

static int
string_array(const json_t *a)
{
	size_t i;

	if (!json_is_array(a))
		return 0;
	for (i = 0; i < json_array_size(a); i++)
		if (!json_is_string(json_array_get(a, i)))
			return 0;
	return 1;
}

static size_t
str_hash(const char *s, size_t n)
{
	unsigned long long h = 14695981039346656037ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return (size_t)h;
}

/* The index in n->props of the property named key, or -1. */
static long
prop_find(const struct node *n, const char *key, size_t len)
{
	size_t i, k;

	if (n->propcap == 0)
		return -1;
	for (i = str_hash(key, len) & (n->propcap - 1);
	    (k = n->propslot[i]) != 0; i = (i + 1) & (n->propcap - 1))
		if (strlen(n->propnames_v[k - 1]) == len &&
		    memcmp(n->propnames_v[k - 1], key, len) == 0)
			return (long)(k - 1);
	return -1;
}

static void
prop_index(struct node *n)
{
	size_t i, j, cap = 8;

	while (cap < n->nprops * 2)
		cap *= 2;
	n->propslot = xcalloc(cap, sizeof(*n->propslot));
	n->propcap = cap;
	for (i = 0; i < n->nprops; i++) {
		j = str_hash(n->propnames_v[i], strlen(n->propnames_v[i])) &
		    (cap - 1);
		while (n->propslot[j] != 0)
			j = (j + 1) & (cap - 1);
		n->propslot[j] = i + 1;
	}
}

/* The schemas of kw (an array), in v: "items", "prefixItems". */
static void
compile_itemv(struct cctx *cc, struct node *n, const json_t *s,
    const char *kw, const char *base, const struct kpath *where)
{
	const json_t *v = json_object_get(s, kw);
	struct kpath kp;
	size_t i;

	n->items_array = 1;
	n->itemskw = kw;
	n->nitems = json_array_size(v);
	n->itemv = xcalloc(n->nitems + 1, sizeof(*n->itemv));
	for (i = 0; i < n->nitems; i++) {
		n->itemv[i].seg = seg_idx(cc->js, kw, i);
		kp.up = where;
		kp.seg = n->itemv[i].seg;
		n->itemv[i].n = compile(cc, json_array_get(v, i), base, &kp);
	}
}

/*
 * "dependencies" (kind 0: names or a schema per property),
 * "dependentRequired" (1: names) or "dependentSchemas" (2: a schema).
 */
static void
compile_deps(struct cctx *cc, struct node *n, const json_t *s,
    const char *kw, int kind, const char *base, const struct kpath *where)
{
	const json_t *v = json_object_get(s, kw);
	const char *k;
	json_t *jv;
	struct kpath kp;
	size_t i;

	if (v == NULL)
		return;
	if (!json_is_object(v)) {
		cc_error(cc, where, "\"%s\" must be an object", kw);
		return;
	}
	n->deps = xreallocarray(n->deps, n->ndeps + json_object_size(v) + 1,
	    sizeof(*n->deps));
	json_object_foreach((json_t *)v, k, jv) {
		i = n->ndeps++;
		memset(&n->deps[i], 0, sizeof(n->deps[i]));
		n->deps[i].name = k;
		n->deps[i].c.seg = seg_key(cc->js, kw, k);
		kp.up = where;
		kp.seg = n->deps[i].c.seg;
		if (kind != 2 && json_is_array(jv)) {
			if (!string_array(jv))
				cc_error(cc, &kp, "must be an array of names%s",
				    kind == 0 ? " or a schema" : "");
			n->deps[i].req = jv;
		} else if (kind == 1)
			cc_error(cc, &kp, "must be an array of names");
		else
			n->deps[i].c.n = compile(cc, jv, base, &kp);
	}
}

/*
 * The assertions of the validation vocabulary (all of them before
 * 2019-09; a meta-schema's "$vocabulary" may leave them out since).
 */
static void
compile_assertions(struct cctx *cc, struct node *n, const json_t *s,
    const char *base, const struct kpath *where)
{
	const struct dialect *d = dialect_of(cc->draft);
	const json_t *v, *t;
	struct buf b = BUF_INIT;
	char err[256];
	uint64_t h;
	size_t i;

	if ((v = json_object_get(s, "type")) != NULL) {
		n->typev = v;
		if (json_is_array(v)) {
			for (i = 0; i < json_array_size(v); i++) {
				t = json_array_get(v, i);
				if (type_bit(t) == 0)
					cc_error(cc, where, "unknown type in "
					    "\"type\"");
				n->types |= (unsigned)type_bit(t);
			}
		} else if ((n->types = (unsigned)type_bit(v)) == 0)
			cc_error(cc, where, "\"type\" must be a type name or "
			    "an array of them");
	}
	if ((v = json_object_get(s, "enum")) != NULL) {
		if (!json_is_array(v))
			cc_error(cc, where, "\"enum\" must be an array");
		else {
			n->enumv = v;
			n->enumset = vset_new();
			for (i = 0; i < json_array_size(v); i++) {
				t = json_array_get(v, i);
				h = jhash(t);
				if (vset_find(n->enumset, t, h) == -1)
					vset_add(n->enumset, t, i, h);
			}
		}
	}
	if (d->kw & KW_CONST)
		n->constv = json_object_get(s, "const");
	if ((n->multipleof = get_number(cc, s, "multipleOf", where)) != NULL) {
		if (json_number_value(n->multipleof) == 0) {
			/* strtod reads 1e-400 as 0: say so */
			cc_error(cc, where, "\"multipleOf\" must be greater "
			    "than 0, found 0 (or a number too small for a "
			    "double, such as 1e-400, which reads as 0)");
			n->multipleof = NULL;
		} else if (json_number_value(n->multipleof) < 0) {
			cc_error(cc, where, "\"multipleOf\" must be greater "
			    "than 0");
			n->multipleof = NULL;
		} else
			dec_of(n->multipleof, &n->mul);
	}
	n->maximum = get_number(cc, s, "maximum", where);
	n->minimum = get_number(cc, s, "minimum", where);
	get_exclusive(cc, s, "exclusiveMaximum", &n->maximum, &n->xmaximum,
	    where);
	get_exclusive(cc, s, "exclusiveMinimum", &n->minimum, &n->xminimum,
	    where);
	n->maxlength = get_count(cc, s, "maxLength", where);
	n->minlength = get_count(cc, s, "minLength", where);
	n->maxitems = get_count(cc, s, "maxItems", where);
	n->minitems = get_count(cc, s, "minItems", where);
	n->maxprops = get_count(cc, s, "maxProperties", where);
	n->minprops = get_count(cc, s, "minProperties", where);
	if (d->kw & KW_2019) {
		n->maxcontains = get_count(cc, s, "maxContains", where);
		n->mincontains = get_count(cc, s, "minContains", where);
		compile_deps(cc, n, s, "dependentRequired", 1, base, where);
	}
	if ((v = json_object_get(s, "pattern")) != NULL) {
		if (!json_is_string(v))
			cc_error(cc, where, "\"pattern\" must be a string");
		else {
			n->patsrc = json_string_value(v);
			n->pattern = jsschema_regex_compile(n->patsrc,
			    json_string_length(v), err, sizeof(err));
			if (n->pattern == NULL) {
				str_text(&b, n->patsrc, json_string_length(v));
				cc_error(cc, where, "invalid pattern %s: %s",
				    buf_cstr(&b), err);
				buf_free(&b);
			}
		}
	}
	if ((v = json_object_get(s, "uniqueItems")) != NULL)
		n->uniqueitems = json_is_true(v);
	if ((v = json_object_get(s, "required")) != NULL) {
		if (!string_array(v))
			cc_error(cc, where, "\"required\" must be an array of "
			    "strings");
		else
			n->required = v;
	}
}

/* A node without subschemas (but for its references). */
static int
no_subschemas(const struct node *n)
{
	return n->items.n == NULL && n->nitems == 0 &&
	    n->additem.n == NULL && n->contains.n == NULL &&
	    n->addprops.n == NULL && n->propnames.n == NULL &&
	    n->ifs.n == NULL && n->nots.n == NULL && n->nallof == 0 &&
	    n->nanyof == 0 && n->noneof == 0 && n->nprops == 0 &&
	    n->npprops == 0 && n->ndeps == 0 && n->uitems.n == NULL &&
	    n->uprops.n == NULL;
}

/*
 * A node whose one keyword is "$ref" (2019-09 and later let others stand
 * beside it): applied as the reference alone, as up to Draft-07, which
 * keeps the C stack that a chain of references takes as small.
 */
static int
ref_alone(const struct node *n)
{
	return n->ref != NULL && n->dref == NULL && no_subschemas(n) &&
	    n->types == 0 && n->enumv == NULL && n->constv == NULL &&
	    n->multipleof == NULL && n->maximum == NULL &&
	    n->xmaximum == NULL && n->minimum == NULL && n->xminimum == NULL &&
	    n->maxlength < 0 && n->minlength < 0 && n->maxitems < 0 &&
	    n->minitems < 0 && n->maxprops < 0 && n->minprops < 0 &&
	    n->maxcontains < 0 && n->mincontains < 0 && n->pattern == NULL &&
	    n->format == NULL && !n->uniqueitems && n->required == NULL;
}

/* Whether "format" asserts here, by the option and the vocabularies. */
static int
format_asserts(const struct cctx *cc, const json_t *v)
{
	const struct dialect *d = dialect_of(cc->draft);

	if (cc->js->format == JSSCHEMA_FORMAT_ANNOTATE || !json_is_string(v) ||
	    jsschema_format_check(json_string_value(v), "", 0) == -1)
		return 0;
	if (cc->js->format == JSSCHEMA_FORMAT_ASSERT)
		return 1;
	return (cc->vocab & VOC_FORMAT) && format_of(d, json_string_value(v));
}

static void
compile_object(struct cctx *cc, struct node *n, const json_t *s,
    const char *base, const struct kpath *where)
{
	struct jsschema *js = cc->js;
	const struct dialect *d = dialect_of(cc->draft);
	const json_t *v;
	const char *k;
	json_t *jv;
	struct kpath kp;
	struct buf b = BUF_INIT;
	char err[256];
	size_t i;

	n->maxlength = n->minlength = n->maxitems = n->minitems = -1;
	n->maxprops = n->minprops = n->maxcontains = n->mincontains = -1;
	if (cc->vocab & VOC_VALIDATION)
		compile_assertions(cc, n, s, base, where);
	if ((v = json_object_get(s, "format")) != NULL &&
	    format_asserts(cc, v))
		n->format = json_string_value(v);
	n->itemskw = "items";
	if (d->kw & KW_2020) {
		v = json_object_get(s, "prefixItems");
		if (v != NULL && (!json_is_array(v) ||
		    json_array_size(v) == 0))
			cc_error(cc, where, "\"prefixItems\" must be a "
			    "non-empty array of schemas");
		else if (v != NULL) {
			compile_itemv(cc, n, s, "prefixItems", base, where);
			sub(cc, s, "items", base, &n->additem, where);
		} else
			sub(cc, s, "items", base, &n->items, where);
		n->contains_ann = 1;
	} else if (json_is_array(json_object_get(s, "items"))) {
		compile_itemv(cc, n, s, "items", base, where);
		sub(cc, s, "additionalItems", base, &n->additem, where);
	} else
		sub(cc, s, "items", base, &n->items, where);
	if (d->kw & KW_CONST) {
		sub(cc, s, "contains", base, &n->contains, where);
		sub(cc, s, "propertyNames", base, &n->propnames, where);
	}
	sub(cc, s, "additionalProperties", base, &n->addprops, where);
	sub(cc, s, "not", base, &n->nots, where);
	if ((d->kw & KW_IF) && json_object_get(s, "if") != NULL) {
		sub(cc, s, "if", base, &n->ifs, where);
		sub(cc, s, "then", base, &n->thens, where);
		sub(cc, s, "else", base, &n->elses, where);
	}
	if (d->kw & KW_2019) {
		sub(cc, s, "unevaluatedItems", base, &n->uitems, where);
		sub(cc, s, "unevaluatedProperties", base, &n->uprops, where);
		compile_deps(cc, n, s, "dependentSchemas", 2, base, where);
	}
	n->allof = sub_array(cc, s, "allOf", base, &n->nallof, where);
	n->anyof = sub_array(cc, s, "anyOf", base, &n->nanyof, where);
	n->oneof = sub_array(cc, s, "oneOf", base, &n->noneof, where);
	if ((v = json_object_get(s, "properties")) != NULL) {
		if (!json_is_object(v))
			cc_error(cc, where, "\"properties\" must be an object");
		else {
			n->props = xcalloc(json_object_size(v) + 1,
			    sizeof(*n->props));
			n->propnames_v = xcalloc(json_object_size(v) + 1,
			    sizeof(*n->propnames_v));
			json_object_foreach((json_t *)v, k, jv) {
				i = n->nprops++;
				n->propnames_v[i] = k;
				n->props[i].seg = seg_key(js, "properties", k);
				kp.up = where;
				kp.seg = n->props[i].seg;
				n->props[i].n = compile(cc, jv, base, &kp);
			}
			prop_index(n);
		}
	}
	if ((v = json_object_get(s, "patternProperties")) != NULL) {
		if (!json_is_object(v))
			cc_error(cc, where, "\"patternProperties\" must be an "
			    "object");
		else {
			n->pprops = xcalloc(json_object_size(v) + 1,
			    sizeof(*n->pprops));
			json_object_foreach((json_t *)v, k, jv) {
				i = n->npprops++;
				n->pprops[i].pat = k;
				n->pprops[i].c.seg = seg_key(js,
				    "patternProperties", k);
				kp.up = where;
				kp.seg = n->pprops[i].c.seg;
				n->pprops[i].re = jsschema_regex_compile(k, strlen(k),
				    err, sizeof(err));
				if (n->pprops[i].re == NULL) {
					/* the key, which may be long, quoted */
					kp.seg = "/patternProperties";
					str_text(&b, k, strlen(k));
					cc_error(cc, &kp, "invalid pattern %s: %s",
					    buf_cstr(&b), err);
					buf_free(&b);
					kp.seg = n->pprops[i].c.seg;
				}
				n->pprops[i].c.n = compile(cc, jv, base, &kp);
			}
		}
	}
	compile_deps(cc, n, s, "dependencies", 0, base, where);
	n->leaf = no_subschemas(n) && n->ref == NULL && n->dref == NULL;
	/* Compiled now: a "$ref" in them that cannot resolve is an error. */
	for (i = 0; i < 2; i++) {
		k = i == 0 ? "definitions" : "$defs";
		if (i == 1 && !(d->kw & KW_2019))
			break;
		if ((v = json_object_get(s, k)) == NULL ||
		    !json_is_object(v))
			continue;
		json_object_foreach((json_t *)v, k, jv) {
			kp.up = where;
			kp.seg = seg_key(js, i == 0 ? "definitions" : "$defs",
			    k);
			compile(cc, jv, base, &kp);
		}
	}
}

static struct node *
new_node(struct jsschema *js)
{
	struct node *n;

	n = xcalloc(1, sizeof(*n));
	js->nodes = xreallocarray(js->nodes, js->nnodes + 1,
	    sizeof(*js->nodes));
	n->id = js->nnodes;
	js->nodes[js->nnodes++] = n;
	return n;
}

/*
 * The error for compile() at its depth limit. The path to here may be
 * as long as the limit: it is given up to the first "$ref" (where a
 * chain of references starts), or cut after a few segments.
 */
static struct node *
too_deep(struct cctx *cc, const struct kpath *where)
{
	const struct kpath *k;
	const char **v;
	struct buf b = BUF_INIT;
	size_t n = 0, i;

	if (!cc->failed) {
		for (k = where; k != NULL; k = k->up)
			n++;
		v = xreallocarray(NULL, n + 1, sizeof(*v));
		i = n;
		for (k = where; k != NULL; k = k->up)
			v[--i] = k->seg;
		for (i = 0; i < n; i++) {
			if (i == 16) {
				buf_adds(&b, "/...");
				break;
			}
			buf_adds(&b, v[i]);
			if (strcmp(v[i], "/$ref") == 0)
				break;
		}
		free(v);
		if (b.len > 0)
			buf_adds(&b, ": ");
		buf_printf(&b, "subschemas nest more than %d deep, counting "
		    "each $ref followed", JSSCHEMA_MAX_COMPILE_DEPTH);
		if (cc->lastref != NULL) {
			buf_adds(&b, " (the last one: ");
			str_text(&b, cc->lastref, strlen(cc->lastref));
			buf_addc(&b, ')');
		}
		cc_error(cc, NULL, "%s", buf_cstr(&b));
		buf_free(&b);
	}
	cc->failed++;
	return new_node(cc->js);
}

/* The index in js->res of the resource whose root is r, added if new. */
static size_t
res_id(struct jsschema *js, const json_t *r)
{
	size_t i;

	for (i = 0; i < js->nres; i++)
		if (js->res[i] == r)
			return i;
	js->res = xreallocarray(js->res, js->nres + 1, sizeof(*js->res));
	js->res[js->nres] = r;
	return js->nres++;
}

/*
 * 2020-12's "$dynamicRef" and 2019-09's "$recursiveRef": the target they
 * resolve to as a "$ref" does, and the anchor that makes them dynamic
 * (the target declares the "$dynamicAnchor" the fragment names, or
 * "$recursiveAnchor": true), or none: then they are a "$ref".
 */
static void
compile_dynref(struct cctx *cc, struct node *n, const json_t *s,
    const struct sinfo *si, const struct kpath *where)
{
	int y2020 = dialect_of(cc->draft)->kw & KW_2020;
	const char *kw = y2020 ? "$dynamicRef" : "$recursiveRef", *frag;
	const json_t *r = json_object_get(s, kw), *a;
	struct kpath k;

	if (r == NULL)
		return;
	if (!json_is_string(r)) {
		cc_error(cc, where, "\"%s\" must be a string", kw);
		return;
	}
	n->dseg = y2020 ? "/$dynamicRef" : "/$recursiveRef";
	k.up = where;
	k.seg = n->dseg;
	n->dref = resolve_ref(cc, si->base, json_string_value(r), &k);
	if (n->dref == NULL)
		return;
	n->dref->target = 1;
	if (!json_is_object(n->dref->j))
		return;
	if (y2020) {
		frag = strchr(json_string_value(r), '#');
		a = json_object_get(n->dref->j, "$dynamicAnchor");
		if (frag != NULL && json_is_string(a) &&
		    strcmp(frag + 1, json_string_value(a)) == 0)
			n->dname = json_string_value(a);
	} else if (json_is_true(json_object_get(n->dref->j,
	    "$recursiveAnchor")))
		n->dname = "";
	if (n->dname != NULL)
		cc->js->dynamic = 1;
}

/* The node of schema s, one compile() deeper, made for the index entry si. */
static struct node *
compile_node(struct cctx *cc, const json_t *s, struct sinfo *si,
    const struct kpath *where)
{
	struct node *n;
	const json_t *ref;
	struct kpath k;
	int y2019;

	n = new_node(cc->js);
	n->j = s;
	si->node = n;
	if (json_is_boolean(s)) {
		n->kind = json_is_true(s) ? NODE_TRUE : NODE_FALSE;
		return n;
	}
	if (!json_is_object(s)) {
		n->kind = NODE_TRUE;
		cc_error(cc, where, "a schema must be an object or a boolean");
		return n;
	}
	n->kind = NODE_OBJECT;
	n->res = res_id(cc->js, si->res);
	y2019 = dialect_of(cc->draft)->kw & KW_2019;
	if ((ref = json_object_get(s, "$ref")) != NULL) {
		if (!json_is_string(ref)) {
			cc_error(cc, where, "\"$ref\" must be a string");
			n->kind = NODE_TRUE;
			return n;
		}
		k.up = where;
		k.seg = "/$ref";
		n->ref = resolve_ref(cc, si->base, json_string_value(ref), &k);
		if (n->ref != NULL)
			n->ref->target = 1;
		if (!y2019) {
			n->refonly = 1;
			if (n->ref == NULL)
				n->kind = NODE_TRUE;
			return n;
		}
	}
	if (y2019)
		compile_dynref(cc, n, s, si, where);
	compile_object(cc, n, s, si->base, where);
	n->refonly = ref_alone(n);
	return n;
}

/* "Draft-04" or "2020-12". */
static const char *
dialect_name(int draft)
{
	switch (draft) {
	case JSSCHEMA_DRAFT4:
		return "Draft-04";
	case JSSCHEMA_DRAFT6:
		return "Draft-06";
	case DRAFT2019_09:
		return "2019-09";
	case DRAFT2020_12:
		return "2020-12";
	default:
		return "Draft-07";
	}
}

/* The error for a resource whose "$schema" names no supported dialect. */
static void
dialect_error(struct cctx *cc, const struct sinfo *si,
    const struct kpath *where)
{
	struct buf b = BUF_INIT;
	const char *uri;

	if (si->draft == DRAFT_NOTSTRING) {
		cc_error(cc, where, "\"$schema\" must be a string");
		return;
	}
	uri = si->schemav != NULL ? json_string_value(si->schemav) : "";
	str_text(&b, uri, strlen(uri));
	if (cmeta_find(cc->js, uri) != NULL && strchr(uri, '#') == NULL &&
	    reg_find(cc->js, cmeta_find(cc->js, uri)->uri) != NULL)
		cc_error(cc, where, "\"$schema\" %s: a meta-schema whose own "
		    "\"$schema\" is neither 2019-09 nor 2020-12", buf_cstr(&b));
	else
		cc_error(cc, where, "unknown \"$schema\" %s: not a dialect "
		    "known here (Draft-04, Draft-06, Draft-07, 2019-09, "
		    "2020-12), and no meta-schema with that URI is loaded "
		    "(give it with -r FILE)", buf_cstr(&b));
	buf_free(&b);
}

/*
 * The node of schema s (whose base URI is base unless the index knows
 * better): made once per json_t, so that references share it and cycles
 * end. JSSCHEMA_MAX_COMPILE_DEPTH calls deep at the most.
 */
static struct node *
compile(struct cctx *cc, const json_t *s, const char *base,
    const struct kpath *where)
{
	struct jsschema *js = cc->js;
	struct sinfo *si;
	struct node *n;
	struct dial in, saved;

	if ((si = sinfo_get(js, s)) == NULL) {
		in.draft = cc->draft;
		in.vocab = cc->vocab;
		in.res = cc->res;
		index_at(js, s, base, &in, 0);
		if ((si = sinfo_get(js, s)) == NULL) {
			si = sinfo_add(js, s, base);
			si->draft = in.draft;
			si->vocab = in.vocab;
			si->res = in.res;
		}
	}
	if (json_is_boolean(s) && !(dialect_of(cc->draft)->kw &
	    KW_BOOLSCHEMA) && (where == NULL ||
	    (strcmp(where->seg, "/additionalItems") != 0 &&
	    strcmp(where->seg, "/additionalProperties") != 0)))
		cc_error(cc, where, "a schema must be an object in %s (a "
		    "boolean only as \"additionalItems\" or "
		    "\"additionalProperties\")", dialect_name(cc->draft));
	if (si->node != NULL)
		return si->node;
	if (json_is_object(s) && !draft_supported(si->draft)) {
		dialect_error(cc, si, where);
		return new_node(js);
	}
	if (cc->depth == JSSCHEMA_MAX_COMPILE_DEPTH)
		return too_deep(cc, where);
	cc->depth++;
	saved.draft = cc->draft;
	saved.vocab = cc->vocab;
	saved.res = cc->res;
	if (json_is_object(s)) {
		cc->draft = si->draft;
		cc->vocab = si->vocab;
		cc->res = si->res;
	}
	n = compile_node(cc, s, si, where);
	cc->draft = saved.draft;
	cc->vocab = saved.vocab;
	cc->res = saved.res;
	cc->depth--;
	return n;
}

static void
node_free(struct node *n)
{
	size_t i;

	jsschema_regex_free(n->pattern);
	for (i = 0; i < n->npprops; i++)
		jsschema_regex_free(n->pprops[i].re);
	free(n->itemv);
	free(n->allof);
	free(n->anyof);
	free(n->oneof);
	free(n->props);
	free(n->propnames_v);
	free(n->propslot);
	free(n->pprops);
	free(n->deps);
	vset_free(n->enumset);
	free(n);
}

void
jsschema_free(struct jsschema *js)
{
	size_t i;

	if (js == NULL)
		return;
	for (i = 0; i < js->nnodes; i++)
		node_free(js->nodes[i]);
	free(js->nodes);
	for (i = 0; i < js->scap; i++)
		if (js->stab[i] != NULL) {
			free(js->stab[i]->base);
			free(js->stab[i]);
		}
	free(js->stab);
	for (i = 0; i < js->nregs; i++)
		free(js->regs[i].uri);
	free(js->regs);
	free(js->dup);
	for (i = 0; i < js->ncmetas; i++)
		free(js->cmetas[i].uri);
	free(js->cmetas);
	free(js->dyn);
	free(js->res);
	free(js->resdyn);
	for (i = 0; i < js->nstrs; i++)
		free(js->strs[i]);
	free(js->strs);
	for (i = 0; i < js->nrefmap; i++) {
		free((char *)js->refmap[i].uri);
		free((char *)js->refmap[i].dir);
	}
	free(js->refmap);
	free(js->rootdir);
	for (i = 0; i < js->ndocs; i++)
		json_decref(js->docs[i]);
	free(js->docs);
	free(js);
}

/*
 * When a "$dynamicRef" is dynamic, the schemas of every dynamic anchor
 * are compiled, and the resources that declare them are marked: only
 * those enter the dynamic scope when validating.
 */
static void
compile_dyn(struct cctx *cc)
{
	struct jsschema *js = cc->js;
	struct sinfo *si;
	struct node *n;
	size_t i;

	if (!js->dynamic)
		return;
	for (i = 0; i < js->ndyn && !cc->failed; i++) {
		si = sinfo_get(js, js->dyn[i].s);
		cc->draft = si->draft;
		cc->vocab = si->vocab;
		cc->res = si->res;
		/* compiling may load documents, whose anchors move js->dyn */
		n = compile(cc, js->dyn[i].s, si->base, NULL);
		js->dyn[i].node = n;
	}
	js->resdyn = xcalloc(js->nres + 1, 1);
	for (i = 0; i < js->ndyn && !cc->failed; i++)
		js->resdyn[js->dyn[i].node->res] = 1;
}

struct jsschema *
jsschema_compile(json_t *schema, const char *base_uri,
    const struct jsschema_opts *opts, char *err, size_t errlen)
{
	return jsschema_compile_below(schema, base_uri, NULL, opts, err,
	    errlen);
}

struct jsschema *
jsschema_compile_below(json_t *schema, const char *base_uri,
    const char *root, const struct jsschema_opts *opts, char *err,
    size_t errlen)
{
	struct jsschema *js;
	struct cctx cc;
	char *base;
	size_t i;

	if (errlen > 0)
		err[0] = '\0';
	js = xcalloc(1, sizeof(*js));
	js->draft = JSSCHEMA_DRAFT7;
	if (opts != NULL) {
		js->format = opts->format;
		if (opts->draft != 0)
			js->draft = opts->draft;
		if (opts->nrefmap > 0 && root == NULL) {
			js->refmap = xcalloc(opts->nrefmap,
			    sizeof(*js->refmap));
			for (i = 0; i < opts->nrefmap; i++) {
				js->refmap[i].uri =
				    xstrdup(opts->refmap[i].uri);
				js->refmap[i].dir =
				    xstrdup(opts->refmap[i].dir);
			}
			js->nrefmap = opts->nrefmap;
		}
	}
	cc.js = js;
	cc.refused = 0;
	cc.err = err;
	cc.errlen = errlen;
	cc.failed = 0;
	cc.depth = 0;
	cc.lastref = NULL;
	cc.draft = js->draft;
	cc.vocab = draft_supported(js->draft) ?
	    dialect_of(js->draft)->vocab : 0;
	cc.res = schema;
	add_doc(js, json_incref(schema));
	if (!draft_supported(js->draft)) {
		cc_error(&cc, NULL, "draft %d is not known", js->draft);
		jsschema_free(js);
		errno = EINVAL;
		return NULL;
	}
	if (root != NULL && (js->rootdir = realpath(root, NULL)) == NULL) {
		cc_error(&cc, NULL, "%s: %s", root, strerror(errno));
		jsschema_free(js);
		errno = EINVAL;
		return NULL;
	}
	base = uri_key(uri_resolve("", base_uri != NULL ? base_uri : ""));
	if (strchr(base, '#') != NULL)
		*strchr(base, '#') = '\0';
	reg_add(js, base, schema);
	if ((opts == NULL || root != NULL ||
	    load_files(&cc, opts->files, opts->nfiles) == 0) &&
	    load_metas(&cc, schema) == 0) {
		js->regmark = js->nregs;
		index_schema(js, schema, base);
		js->regmark = 0;
		if (js->dup != NULL)
			cc_error(&cc, NULL, "a different schema with the URI "
			    "\"%s\" is already loaded", js->dup);
		else
			js->root = compile(&cc, schema, base, NULL);
	}
	if (!cc.failed)
		compile_dyn(&cc);
	free(base);
	if (cc.failed) {
		jsschema_free(js);
		errno = cc.refused ? EACCES : EINVAL;
		return NULL;
	}
	return js;
}

/* ---- numbers and equality ---- */

static int
num_cmp(const json_t *a, const json_t *b)
{
	long long i, ri;
	double r, da, db;
	int sign = 1, c;

	if (json_is_integer(a) && json_is_integer(b)) {
		i = json_integer_value(a);
		ri = json_integer_value(b);
		return (i > ri) - (i < ri);
	}
	if (json_is_integer(a) != json_is_integer(b)) {
		if (json_is_integer(a)) {
			i = json_integer_value(a);
			r = json_real_value(b);
		} else {
			i = json_integer_value(b);
			r = json_real_value(a);
			sign = -1;
		}
		if (r >= -9.2e18 && r <= 9.2e18 && r == floor(r)) {
			ri = (long long)r;
			c = (i > ri) - (i < ri);
		} else
			c = ((double)i > r) - ((double)i < r);
		return sign * c;
	}
	da = json_real_value(a);
	db = json_real_value(b);
	return (da > db) - (da < db);
}

/* JSON equality: 1 == 1.0; objects compare as unordered maps. */
static int
jeq(const json_t *a, const json_t *b)
{
	const char *k;
	json_t *v;
	size_t i;

	if (json_is_number(a) && json_is_number(b))
		return num_cmp(a, b) == 0;
	if (json_typeof(a) != json_typeof(b))
		return 0;
	switch (json_typeof(a)) {
	case JSON_STRING:
		return json_string_length(a) == json_string_length(b) &&
		    memcmp(json_string_value(a), json_string_value(b),
		    json_string_length(a)) == 0;
	case JSON_ARRAY:
		if (json_array_size(a) != json_array_size(b))
			return 0;
		for (i = 0; i < json_array_size(a); i++)
			if (!jeq(json_array_get(a, i), json_array_get(b, i)))
				return 0;
		return 1;
	case JSON_OBJECT:
		if (json_object_size(a) != json_object_size(b))
			return 0;
		json_object_foreach((json_t *)a, k, v) {
			const json_t *w = json_object_get(b, k);

			if (w == NULL || !jeq(v, w))
				return 0;
		}
		return 1;
	default:
		return 1;
	}
}

/* ---- hashing values, for enum and uniqueItems ---- */

static uint64_t
mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/*
 * A hash that agrees with jeq(): values jeq() finds equal hash alike. A
 * number hashes as its double (1 and 1.0 alike; integers that jeq()
 * tells apart may share one), an object as the sum of its members'
 * hashes (the order of members does not count).
 */
static uint64_t
jhash(const json_t *v)
{
	const char *k;
	json_t *m;
	uint64_t h, bits;
	double d;
	size_t i;

	switch (json_typeof(v)) {
	case JSON_NULL:
		return mix64(1);
	case JSON_TRUE:
		return mix64(2);
	case JSON_FALSE:
		return mix64(3);
	case JSON_INTEGER:
	case JSON_REAL:
		d = json_is_integer(v) ? (double)json_integer_value(v) :
		    json_real_value(v);
		if (d == 0)
			d = 0;	/* -0 too */
		memcpy(&bits, &d, sizeof(bits));
		return mix64(bits ^ 0x4000000000000000ULL) + 4;
	case JSON_STRING:
		return mix64((uint64_t)str_hash(json_string_value(v),
		    json_string_length(v)) + 5);
	case JSON_ARRAY:
		h = 6;
		for (i = 0; i < json_array_size(v); i++)
			h = mix64(h ^ jhash(json_array_get(v, i)));
		return h;
	default:
		h = 7 + json_object_size(v);
		json_object_foreach((json_t *)v, k, m)
			h += mix64(mix64((uint64_t)str_hash(k, strlen(k))) ^
			    jhash(m));
		return mix64(h);
	}
}

/* A set of values (by index into an array the caller keeps), by jhash. */
struct vset {
	size_t		*slot;		/* entry + 1, or 0 */
	size_t		 cap;
	struct vent {
		const json_t	*v;
		uint64_t	 h;
		size_t		 idx;
	}		*ent;
	size_t		 n;
};

static struct vset *
vset_new(void)
{
	return xcalloc(1, sizeof(struct vset));
}

static void
vset_free(struct vset *vs)
{
	if (vs == NULL)
		return;
	free(vs->slot);
	free(vs->ent);
	free(vs);
}

/* The index of a member equal to v (whose hash is h), or -1. */
static long
vset_find(const struct vset *vs, const json_t *v, uint64_t h)
{
	size_t i, k;

	if (vs->cap == 0)
		return -1;
	for (i = (size_t)h & (vs->cap - 1); (k = vs->slot[i]) != 0;
	    i = (i + 1) & (vs->cap - 1))
		if (vs->ent[k - 1].h == h && jeq(vs->ent[k - 1].v, v))
			return (long)vs->ent[k - 1].idx;
	return -1;
}

static void
vset_add(struct vset *vs, const json_t *v, size_t idx, uint64_t h)
{
	size_t i, j;

	if ((vs->n + 1) * 2 > vs->cap) {
		free(vs->slot);
		vs->cap = vs->cap ? vs->cap * 2 : 16;
		vs->slot = xcalloc(vs->cap, sizeof(*vs->slot));
		/* at most half as many entries as slots */
		vs->ent = xreallocarray(vs->ent, vs->cap / 2,
		    sizeof(*vs->ent));
		for (j = 0; j < vs->n; j++) {
			for (i = (size_t)vs->ent[j].h & (vs->cap - 1);
			    vs->slot[i] != 0; i = (i + 1) & (vs->cap - 1))
				;
			vs->slot[i] = j + 1;
		}
	}
	vs->ent[vs->n].v = v;
	vs->ent[vs->n].h = h;
	vs->ent[vs->n].idx = idx;
	for (i = (size_t)h & (vs->cap - 1); vs->slot[i] != 0;
	    i = (i + 1) & (vs->cap - 1))
		;
	vs->slot[i] = ++vs->n;
}

/* The shortest decimal that reads back as d, as digits and exponent. */
static void
dec_of_double(double d, struct dec *out)
{
	char b[64], *p;
	int prec, e;

	for (prec = 1; prec <= 17; prec++) {
		snprintf(b, sizeof(b), "%.*e", prec - 1, d);
		if (strtod(b, NULL) == d)
			break;
	}
	if (prec > 17)
		prec = 17;
	out->m = 0;
	for (p = b; *p != '\0' && *p != 'e'; p++)
		if (isdigit((unsigned char)*p))
			out->m = out->m * 10 + (unsigned long long)(*p - '0');
	e = *p == 'e' ? atoi(p + 1) : 0;
	out->e = e - (prec - 1);
}

static void
dec_of(const json_t *v, struct dec *d)
{
	long long i;

	if (json_is_integer(v)) {
		i = json_integer_value(v);
		d->m = i < 0 ? (unsigned long long)(-(i + 1)) + 1 :
		    (unsigned long long)i;
		d->e = 0;
	} else
		dec_of_double(fabs(json_real_value(v)), d);
	while (d->m != 0 && d->m % 10 == 0) {
		d->m /= 10;
		d->e++;
	}
}

static unsigned long long
mulmod(unsigned long long a, unsigned long long b, unsigned long long m)
{
	unsigned long long r = 0;

	a %= m;
	while (b != 0) {
		if (b & 1) {
			r += a;
			if (r >= m)
				r -= m;
		}
		a += a;
		if (a >= m)
			a -= m;
		b >>= 1;
	}
	return r;
}

/* Exactly: is v (a number) an integer multiple of mul? */
static int
is_multiple(const json_t *v, const struct dec *mul)
{
	struct dec x;
	unsigned long long r, b;
	int d, k;

	dec_of(v, &x);
	if (x.m == 0)
		return 1;
	d = x.e - mul->e;
	if (d >= 0) {
		r = x.m % mul->m;
		for (k = 0; k < d && r != 0; k++)
			r = mulmod(r, 10, mul->m);
		return r == 0;
	}
	b = mul->m;
	for (k = 0; k < -d; k++) {
		if (b > ULLONG_MAX / 10)
			return 0;
		b *= 10;
	}
	return x.m % b == 0;
}

/* ---- messages ---- */

static void
num_text(struct buf *b, const json_t *v)
{
	/* as JavaScript writes numbers: 150, 1.5, 1e+21 */
	if (json_is_integer(v))
		buf_printf(b, "%lld", (long long)json_integer_value(v));
	else
		jsonw_number(b, json_real_value(v));
}

/* A string as a JSON string literal, cut after about 60 bytes. */
static void
str_text(struct buf *b, const char *s, size_t n)
{
	size_t i, lim = n;
	unsigned char c;

	if (lim > 60) {
		lim = 60;
		while (lim > 0 && ((unsigned char)s[lim] & 0xC0) == 0x80)
			lim--;
	}
	buf_addc(b, '"');
	for (i = 0; i < lim; i++) {
		c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			buf_addc(b, '\\');
			buf_addc(b, (char)c);
		} else if (c == '\n')
			buf_adds(b, "\\n");
		else if (c == '\t')
			buf_adds(b, "\\t");
		else if (c == '\r')
			buf_adds(b, "\\r");
		else if (c < 0x20 || c == 0x7F)
			buf_printf(b, "\\u%04x", c);
		else
			buf_addc(b, (char)c);
	}
	buf_addc(b, '"');
	if (lim < n)
		buf_adds(b, "...");
}

static unsigned inst_type(const json_t *);

/* What was found: "string \"x\"", "integer 3", "object", ... */
static void
desc(struct buf *b, const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_NULL:
		buf_adds(b, "null");
		break;
	case JSON_TRUE:
		buf_adds(b, "boolean true");
		break;
	case JSON_FALSE:
		buf_adds(b, "boolean false");
		break;
	case JSON_OBJECT:
		buf_adds(b, "object");
		break;
	case JSON_ARRAY:
		buf_adds(b, "array");
		break;
	case JSON_STRING:
		buf_adds(b, "string ");
		str_text(b, json_string_value(v), json_string_length(v));
		break;
	default:
		buf_adds(b, inst_type(v) & T_INTEGER ? "integer " : "number ");
		num_text(b, v);
		break;
	}
}

/* A JSON value in compact form, as JSON.stringify, cut after about 80 bytes. */
static void
json_text(struct buf *b, const json_t *v)
{
	struct buf t = BUF_INIT;
	size_t n;

	jsonw_stringify(&t, v);
	n = t.len;
	if (n > 80) {
		n = 80;
		while (n > 0 && ((unsigned char)t.data[n] & 0xC0) == 0x80)
			n--;
		buf_add(b, t.data, n);
		buf_adds(b, "...");
	} else
		buf_add(b, t.data, n);
	buf_free(&t);
}

static const char *
plural(long long n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* ---- validation ---- */

/*
 * How close a failing branch of anyOf or oneOf comes (see the top of
 * the file): what its errors would be, without the errors.
 */
struct score {
	unsigned	 count;		/* errors */
	unsigned	 depth;		/* the deepest error's location */
	char		 typefail;	/* "type" fails on the value itself */
	char		 anytype;	/* some error comes from a "type" */
};

/*
 * What is known of one node applied to one value: the verdict, and the
 * score of its errors (depth relative to the value's).
 */
struct memo {
	const struct node	*n;
	const json_t		*v;
	size_t			 ctx;
	struct ann		*ann;	/* what n evaluated of v, when valid */
	struct score		 sc;
	signed char		 verdict;	/* -1: not known yet */
	char			 scored;
};

/*
 * The value a "$ref" to a node is being applied to right now, and the
 * depth of that frame. The frames that apply references to one value are
 * together at the top of the stack, so one value per node is enough.
 */
struct busy {
	const json_t	*v;
	int		 depth;
};

/*
 * Three modes: full (errors made), quiet (> 0: the verdict alone) and
 * scoring (> 0, not quiet: errors counted into sc, none made). Quiet
 * and scoring results are remembered per (node, value), so that anyOf
 * and oneOf cost each pair once, however many branches reach it.
 */
struct vctx {
	const struct jsschema	*js;
	int			 quiet;
	int			 scoring;
	struct score		 sc;
	const json_t		*scv;	/* the value sc.typefail is about */
	struct jsschema_error	*e;
	size_t			 n, cap;
	struct memo		*memo;
	size_t			 nmemo, memocap, *mslot, mcap;
	int			 depth;	/* validate() calls under way */
	int			 taint;	/* depth of the frame a loop went back to */
	struct jsschema_error	*stop;	/* a limit was reached */
	int			 keep_errors;	/* those before stop hold */
	json_t			**keep;	/* property names, alive as memo keys */
	size_t			 nkeep, capkeep;
	struct busy		*busy;	/* by node id, made when first needed */
	struct buf		 msg;
	/*
	 * The dynamic scope: the resources that declare dynamic anchors,
	 * outermost first, each once; and its id (ctx), for the memo.
	 */
	size_t			*scope;
	size_t			 nscope, capscope;
	unsigned char		*onscope;	/* by resource */
	size_t			 ctx;
	struct ctxent		*ctxv;	/* ctx - 1 -> (up, res) */
	size_t			 nctx, ctxcap, *ctxslot, ctxslots;
};

/*
 * What the keywords applied to one array or object evaluated, for
 * "unevaluatedItems" and "unevaluatedProperties": every member (all),
 * the first items (prefix), or members by index (bits; an object's in
 * the order json_object_foreach gives).
 */
struct ann {
	size_t		 n;
	int		 all;
	size_t		 prefix;
	unsigned char	*bits;
};

struct ctxent {
	size_t		 up;
	size_t		 res;
};

static void
ann_init(struct ann *a, const json_t *v)
{
	memset(a, 0, sizeof(*a));
	a->n = json_is_array(v) ? json_array_size(v) : json_object_size(v);
}

static void
ann_set(struct ann *a, size_t i)
{
	if (a->bits == NULL)
		a->bits = xcalloc(a->n / 8 + 1, 1);
	a->bits[i / 8] |= (unsigned char)(1u << (i % 8));
}

static int
ann_has(const struct ann *a, size_t i)
{
	return a->all || i < a->prefix || (a->bits != NULL &&
	    (a->bits[i / 8] & (1u << (i % 8))));
}

static void
ann_merge(struct ann *to, const struct ann *from)
{
	size_t i;

	to->all |= from->all;
	if (from->prefix > to->prefix)
		to->prefix = from->prefix;
	if (from->bits == NULL || to->all)
		return;
	if (to->bits == NULL)
		to->bits = xcalloc(to->n / 8 + 1, 1);
	for (i = 0; i < to->n / 8 + 1; i++)
		to->bits[i] |= from->bits[i];
}

/*
 * The id of the dynamic scope ctx with the resource res pushed on it:
 * scopes are interned, so that the memo tells them apart.
 */
static size_t
ctx_push(struct vctx *c, size_t ctx, size_t res)
{
	size_t i, j, h;

	h = ptab_hash((void *)(uintptr_t)(ctx * 65599 + res + 1));
	if (c->ctxslots > 0)
		for (i = h & (c->ctxslots - 1); c->ctxslot[i] != 0;
		    i = (i + 1) & (c->ctxslots - 1)) {
			j = c->ctxslot[i] - 1;
			if (c->ctxv[j].up == ctx && c->ctxv[j].res == res)
				return j + 1;
		}
	if ((c->nctx + 1) * 2 > c->ctxslots) {
		free(c->ctxslot);
		c->ctxslots = c->ctxslots ? c->ctxslots * 2 : 16;
		c->ctxslot = xcalloc(c->ctxslots, sizeof(*c->ctxslot));
		for (j = 0; j < c->nctx; j++) {
			h = ptab_hash((void *)(uintptr_t)(c->ctxv[j].up *
			    65599 + c->ctxv[j].res + 1));
			for (i = h & (c->ctxslots - 1); c->ctxslot[i] != 0;
			    i = (i + 1) & (c->ctxslots - 1))
				;
			c->ctxslot[i] = j + 1;
		}
		h = ptab_hash((void *)(uintptr_t)(ctx * 65599 + res + 1));
	}
	if (c->nctx == c->ctxcap) {
		c->ctxcap = c->ctxcap ? c->ctxcap * 2 : 16;
		c->ctxv = xreallocarray(c->ctxv, c->ctxcap, sizeof(*c->ctxv));
	}
	c->ctxv[c->nctx].up = ctx;
	c->ctxv[c->nctx].res = res;
	for (i = h & (c->ctxslots - 1); c->ctxslot[i] != 0;
	    i = (i + 1) & (c->ctxslots - 1))
		;
	c->ctxslot[i] = ++c->nctx;
	return c->nctx;
}

static unsigned
inst_type(const json_t *v)
{
	double d;

	switch (json_typeof(v)) {
	case JSON_NULL:
		return T_NULL;
	case JSON_TRUE:
	case JSON_FALSE:
		return T_BOOLEAN;
	case JSON_OBJECT:
		return T_OBJECT;
	case JSON_ARRAY:
		return T_ARRAY;
	case JSON_STRING:
		return T_STRING;
	case JSON_INTEGER:
		return T_INTEGER | T_NUMBER;
	default:
		d = json_real_value(v);
		return isfinite(d) && d == floor(d) ? T_INTEGER | T_NUMBER :
		    T_NUMBER;
	}
}

/* Starts the message of an error; err_push() takes it. */
static struct buf *
msg(struct vctx *c)
{
	buf_reset(&c->msg);
	return &c->msg;
}

static void	stop_here(struct vctx *, const struct ipath *,
		    const struct kpath *, const json_t *, int);

/* Does the keyword kp + seg end with "/type"? */
static int
ends_type(const struct kpath *kp, const char *seg)
{
	size_t n;

	/* "/type" holds one "/": it lies in the last segment */
	while (seg[0] == '\0' && kp != NULL) {
		seg = kp->seg;
		kp = kp->up;
	}
	n = strlen(seg);
	return n >= 5 && strcmp(seg + n - 5, "/type") == 0;
}

static void
err_push(struct vctx *c, const struct ipath *ip, const struct kpath *kp,
    const char *seg, const json_t *v)
{
	struct jsschema_error *e;
	unsigned d = ip != NULL ? (unsigned)ip->depth : 0;

	if (c->scoring) {
		if (c->sc.count < UINT_MAX)
			c->sc.count++;
		if (d > c->sc.depth)
			c->sc.depth = d;
		if (ends_type(kp, seg)) {
			c->sc.anytype = 1;
			if (v == c->scv)
				c->sc.typefail = 1;
		}
		return;
	}
	if (c->stop != NULL)
		return;
	if (c->n == JSSCHEMA_MAX_ERRORS) {
		stop_here(c, ip, kp, v, 1);
		return;
	}
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 8;
		c->e = xreallocarray(c->e, c->cap, sizeof(*c->e));
	}
	e = &c->e[c->n++];
	e->instance = ipath_str(ip);
	e->keyword = kpath_str(kp, seg);
	e->message = xmemdup(buf_cstr(&c->msg), c->msg.len + 1);
	e->value = v;
}

static void
err_free(struct jsschema_error *e)
{
	free(e->instance);
	free(e->keyword);
	free(e->message);
}

static int validate(struct vctx *, const struct node *, const json_t *,
    const struct ipath *, const struct kpath *, struct ann *);

/*
 * The verdict alone, without errors; with a, what n evaluated is added
 * to *a when n holds (the annotations of a failing schema are dropped).
 */
static int
check(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	struct ann t;
	int r;

	c->quiet++;
	if (a == NULL)
		r = validate(c, n, v, ip, kp, NULL);
	else {
		ann_init(&t, v);
		r = validate(c, n, v, ip, kp, &t);
		if (r == 0)
			ann_merge(a, &t);
		free(t.bits);
	}
	c->quiet--;
	return r;
}

#define SUB(x) do {							\
	if (x) {							\
		if (c->quiet)						\
			return 1;					\
		bad = 1;						\
	}								\
} while (0)

#define FAIL() do {							\
	if (c->quiet)							\
		return 1;						\
	bad = 1;							\
} while (0)

/* Applies ch to v: a member of the value (a NULL), or the value itself. */
static int
v_child(struct vctx *c, const struct child *ch, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	struct kpath k;

	k.up = kp;
	k.seg = ch->seg;
	return validate(c, ch->n, v, ip, &k, a);
}

static int
score_better(const struct score *a, const struct score *b)
{
	if (a->typefail != b->typefail)
		return a->typefail < b->typefail;
	if (a->depth != b->depth)
		return a->depth > b->depth;
	return a->count < b->count;
}

/*
 * Adds score f of errors about value v (at instance depth d, and f's
 * depth relative to d when rel) to the score being counted.
 */
static void
score_add(struct vctx *c, const struct score *f, const json_t *v, size_t d,
    int rel)
{
	unsigned depth = rel ? (unsigned)d + f->depth : f->depth;

	if (f->count == 0)
		return;
	c->sc.count = f->count > UINT_MAX - c->sc.count ? UINT_MAX :
	    c->sc.count + f->count;
	if (depth > c->sc.depth)
		c->sc.depth = depth;
	c->sc.anytype |= f->anytype;
	if (v == c->scv && f->typefail)
		c->sc.typefail = 1;
}

/* The score of the errors branch ch would give value v, counted only. */
static void
branch_score(struct vctx *c, const struct child *ch, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct score *out)
{
	struct score saved = c->sc;
	const json_t *savedv = c->scv;

	memset(&c->sc, 0, sizeof(c->sc));
	c->scv = v;
	c->scoring++;
	v_child(c, ch, v, ip, kp, NULL);
	c->scoring--;
	*out = c->sc;
	c->sc = saved;
	c->scv = savedv;
}

/*
 * Appends the errors of the closest of the n branches (all failing): the
 * branches are scored first, and only the closest one makes its errors.
 */
static void
closest_branch(struct vctx *c, const struct child *br, size_t n,
    const json_t *v, const struct ipath *ip, const struct kpath *kp)
{
	struct score best, s;
	size_t i, bi = 0;

	memset(&best, 0, sizeof(best));
	for (i = 0; i < n && c->stop == NULL; i++) {
		branch_score(c, &br[i], v, ip, kp, &s);
		if (i == 0 || score_better(&s, &best)) {
			best = s;
			bi = i;
		}
	}
	if (c->stop != NULL)
		return;
	if (c->scoring)
		score_add(c, &best, v, 0, 0);
	else
		v_child(c, &br[bi], v, ip, kp, NULL);
}

static int
v_number(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp)
{
	struct buf *m;
	int bad = 0;

	if (n->multipleof != NULL && !is_multiple(v, &n->mul)) {
		FAIL();
		m = msg(c);
		num_text(m, v);
		buf_adds(m, " is not a multiple of ");
		num_text(m, n->multipleof);
		err_push(c, ip, kp, "/multipleOf", v);
	}
	if (n->maximum != NULL && num_cmp(v, n->maximum) > 0) {
		FAIL();
		m = msg(c);
		num_text(m, v);
		buf_adds(m, " is greater than the maximum ");
		num_text(m, n->maximum);
		err_push(c, ip, kp, "/maximum", v);
	}
	if (n->xmaximum != NULL && num_cmp(v, n->xmaximum) >= 0) {
		FAIL();
		m = msg(c);
		num_text(m, v);
		buf_adds(m, " is not less than the exclusive maximum ");
		num_text(m, n->xmaximum);
		err_push(c, ip, kp, "/exclusiveMaximum", v);
	}
	if (n->minimum != NULL && num_cmp(v, n->minimum) < 0) {
		FAIL();
		m = msg(c);
		num_text(m, v);
		buf_adds(m, " is less than the minimum ");
		num_text(m, n->minimum);
		err_push(c, ip, kp, "/minimum", v);
	}
	if (n->xminimum != NULL && num_cmp(v, n->xminimum) <= 0) {
		FAIL();
		m = msg(c);
		num_text(m, v);
		buf_adds(m, " is not greater than the exclusive minimum ");
		num_text(m, n->xminimum);
		err_push(c, ip, kp, "/exclusiveMinimum", v);
	}
	return bad;
}

static int
v_string(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp)
{
	const char *s = json_string_value(v);
	size_t len = json_string_length(v);
	long long count;
	struct buf *m;
	int bad = 0, r;

	if (n->maxlength >= 0 || n->minlength >= 0) {
		count = (long long)utf8_count(s, len);
		if (n->maxlength >= 0 && count > n->maxlength) {
			FAIL();
			m = msg(c);
			buf_printf(m, "string of %lld %s is longer than the "
			    "maximum length %lld", count,
			    plural(count, "character", "characters"),
			    n->maxlength);
			err_push(c, ip, kp, "/maxLength", v);
		}
		if (n->minlength >= 0 && count < n->minlength) {
			FAIL();
			m = msg(c);
			buf_printf(m, "string of %lld %s is shorter than the "
			    "minimum length %lld", count,
			    plural(count, "character", "characters"),
			    n->minlength);
			err_push(c, ip, kp, "/minLength", v);
		}
	}
	if (n->pattern != NULL &&
	    (r = jsschema_regex_search(n->pattern, s, len)) != 1) {
		FAIL();
		m = msg(c);
		buf_adds(m, "string ");
		str_text(m, s, len);
		if (r == 0)
			buf_adds(m, " does not match the pattern ");
		else
			buf_adds(m, " could not be matched (resource limit) "
			    "against the pattern ");
		str_text(m, n->patsrc, strlen(n->patsrc));
		err_push(c, ip, kp, "/pattern", v);
	}
	if (n->format != NULL && jsschema_format_check(n->format, s, len) == 0) {
		FAIL();
		m = msg(c);
		buf_adds(m, "string ");
		str_text(m, s, len);
		buf_printf(m, " is not a valid %s", n->format);
		err_push(c, ip, kp, "/format", v);
	}
	return bad;
}

/*
 * The first pair of equal items of array a, as the loop over i and then
 * j > i finds it: the smallest i with an equal item after it, and the
 * first such j. 1 and the pair, or 0. Linear: each item meets only the
 * items of its hash.
 */
static int
unique_pair(const json_t *a, size_t *pi, size_t *pj)
{
	struct vset *vs;
	size_t size = json_array_size(a), i, *second;
	const json_t *x;
	uint64_t h;
	long k;
	int found = 0;

	if (size < 2)
		return 0;
	vs = vset_new();
	second = xcalloc(size, sizeof(*second));	/* j + 1 */
	for (i = 0; i < size; i++) {
		x = json_array_get(a, i);
		h = jhash(x);
		if ((k = vset_find(vs, x, h)) == -1)
			vset_add(vs, x, i, h);
		else if (second[k] == 0)
			second[k] = i + 1;
	}
	for (i = 0; i < size && !found; i++)
		if (second[i] != 0) {
			*pi = i;
			*pj = second[i] - 1;
			found = 1;
		}
	free(second);
	vset_free(vs);
	return found;
}

/* count items match "contains", beyond limit, minContains or (max) max-. */
static int
contains_bound(struct vctx *c, const struct ipath *ip, const struct kpath *kp,
    const json_t *v, size_t count, long long limit, int max)
{
	if (c->quiet)
		return 1;
	buf_printf(msg(c), "array has %zu %s that %s \"contains\", %s than the "
	    "%s %lld (%s)", count, plural((long long)count, "item", "items"),
	    plural((long long)count, "matches", "match"), max ? "more" :
	    "fewer", max ? "maximum" : "minimum", limit, max ? "maxContains" :
	    "minContains");
	err_push(c, ip, kp, max ? "/maxContains" : "/minContains", v);
	return 1;
}

/* "contains", with "minContains" and "maxContains". */
static int
v_contains(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	size_t size = json_array_size(v), i, count = 0;
	long long need = n->mincontains >= 0 ? n->mincontains : 1;
	int every = n->maxcontains >= 0 || (a != NULL && n->contains_ann);
	struct ipath ci;
	struct kpath k;

	ci.up = ip;
	ci.key = NULL;
	ci.depth = (ip != NULL ? ip->depth : 0) + 1;
	k.up = kp;
	k.seg = n->contains.seg;
	for (i = 0; i < size && (every || (long long)count < need); i++) {
		ci.idx = i;
		if (check(c, n->contains.n, json_array_get(v, i), &ci, &k,
		    NULL) != 0)
			continue;
		count++;
		if (a != NULL && n->contains_ann)
			ann_set(a, i);
	}
	if ((long long)count < need && n->mincontains >= 0)
		return contains_bound(c, ip, kp, v, count, n->mincontains, 0);
	if ((long long)count < need) {
		if (c->quiet)
			return 1;
		buf_printf(msg(c), "array has no item that matches \"contains\" "
		    "(%zu %s checked)", size, plural((long long)size, "item",
		    "items"));
		err_push(c, ip, kp, "/contains", v);
		return 1;
	}
	if (n->maxcontains >= 0 && (long long)count > n->maxcontains)
		return contains_bound(c, ip, kp, v, count, n->maxcontains, 1);
	return 0;
}

static int
v_array(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	size_t size = json_array_size(v), i, j;
	struct ipath ci;
	struct buf *m;
	int bad = 0;

	ci.up = ip;
	ci.key = NULL;
	ci.depth = (ip != NULL ? ip->depth : 0) + 1;
	if (n->items.n != NULL) {
		for (i = 0; i < size; i++) {
			ci.idx = i;
			SUB(v_child(c, &n->items, json_array_get(v, i), &ci,
			    kp, NULL));
		}
		if (a != NULL)
			a->all = 1;
	}
	if (n->items_array) {
		for (i = 0; i < size && i < n->nitems; i++) {
			ci.idx = i;
			SUB(v_child(c, &n->itemv[i], json_array_get(v, i), &ci,
			    kp, NULL));
		}
		if (a != NULL && i > a->prefix)
			a->prefix = i;
		for (i = n->nitems; n->additem.n != NULL && i < size; i++) {
			ci.idx = i;
			if (n->additem.n->kind == NODE_FALSE) {
				FAIL();
				m = msg(c);
				buf_printf(m, "unexpected item %zu: \"%s\" "
				    "allows %zu %s", i, n->itemskw, n->nitems,
				    plural((long long)n->nitems, "item",
				    "items"));
				err_push(c, &ci, kp, n->additem.seg,
				    json_array_get(v, i));
			} else
				SUB(v_child(c, &n->additem,
				    json_array_get(v, i), &ci, kp, NULL));
		}
		if (a != NULL && n->additem.n != NULL)
			a->all = 1;
	}
	if (n->maxitems >= 0 && (long long)size > n->maxitems) {
		FAIL();
		m = msg(c);
		buf_printf(m, "array has %zu %s, more than the maximum %lld",
		    size, plural((long long)size, "item", "items"),
		    n->maxitems);
		err_push(c, ip, kp, "/maxItems", v);
	}
	if (n->minitems >= 0 && (long long)size < n->minitems) {
		FAIL();
		m = msg(c);
		buf_printf(m, "array has %zu %s, fewer than the minimum %lld",
		    size, plural((long long)size, "item", "items"),
		    n->minitems);
		err_push(c, ip, kp, "/minItems", v);
	}
	if (n->uniqueitems && unique_pair(v, &i, &j)) {
		FAIL();
		m = msg(c);
		buf_printf(m, "array items %zu and %zu are equal, but items "
		    "must be unique", i, j);
		err_push(c, ip, kp, "/uniqueItems", v);
	}
	if (n->contains.n != NULL)
		SUB(v_contains(c, n, v, ip, kp, a));
	return bad;
}

static int
v_object(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	size_t size = json_object_size(v), i, j, from, ki = 0;
	const json_t *name;
	const char *key;
	json_t *jv, *ks;
	struct ipath ci;
	struct buf *m;
	char *old;
	int bad = 0;

	ci.up = ip;
	ci.depth = (ip != NULL ? ip->depth : 0) + 1;
	if (n->maxprops >= 0 && (long long)size > n->maxprops) {
		FAIL();
		m = msg(c);
		buf_printf(m, "object has %zu %s, more than the maximum %lld",
		    size, plural((long long)size, "property", "properties"),
		    n->maxprops);
		err_push(c, ip, kp, "/maxProperties", v);
	}
	if (n->minprops >= 0 && (long long)size < n->minprops) {
		FAIL();
		m = msg(c);
		buf_printf(m, "object has %zu %s, fewer than the minimum %lld",
		    size, plural((long long)size, "property", "properties"),
		    n->minprops);
		err_push(c, ip, kp, "/minProperties", v);
	}
	if (n->required != NULL)
		for (i = 0; i < json_array_size(n->required); i++) {
			name = json_array_get(n->required, i);
			if (json_object_getn(v, json_string_value(name),
			    json_string_length(name)) != NULL)
				continue;
			FAIL();
			m = msg(c);
			buf_adds(m, "missing required property ");
			str_text(m, json_string_value(name),
			    json_string_length(name));
			err_push(c, ip, kp, "/required", v);
		}
	/* one pass over the instance serves the three keywords */
	if (n->nprops > 0 || n->npprops > 0 || n->addprops.n != NULL)
		json_object_foreach((json_t *)v, key, jv) {
			int matched = 0;
			long pi = prop_find(n, key, strlen(key));

			ci.key = key;
			if (pi >= 0)
				SUB(v_child(c, &n->props[pi], jv, &ci, kp,
				    NULL));
			for (i = 0; i < n->npprops; i++) {
				if (jsschema_regex_search(n->pprops[i].re, key,
				    strlen(key)) != 1)
					continue;
				matched = 1;
				SUB(v_child(c, &n->pprops[i].c, jv, &ci, kp,
				    NULL));
			}
			if (a != NULL && (matched || pi >= 0))
				ann_set(a, ki);
			ki++;
			if (n->addprops.n == NULL || matched || pi >= 0)
				continue;
			if (n->addprops.n->kind == NODE_FALSE) {
				FAIL();
				m = msg(c);
				buf_adds(m, "unexpected property ");
				str_text(m, key, strlen(key));
				err_push(c, &ci, kp, n->addprops.seg, jv);
			} else
				SUB(v_child(c, &n->addprops, jv, &ci, kp,
				    NULL));
		}
	if (a != NULL && n->addprops.n != NULL)
		a->all = 1;
	for (i = 0; i < n->ndeps; i++) {
		if (json_object_get(v, n->deps[i].name) == NULL)
			continue;
		if (n->deps[i].req == NULL) {
			SUB(v_child(c, &n->deps[i].c, v, ip, kp, a));
			continue;
		}
		for (j = 0; j < json_array_size(n->deps[i].req); j++) {
			name = json_array_get(n->deps[i].req, j);
			if (json_object_get(v, json_string_value(name)) !=
			    NULL)
				continue;
			FAIL();
			m = msg(c);
			buf_adds(m, "property ");
			str_text(m, n->deps[i].name, strlen(n->deps[i].name));
			buf_adds(m, " requires property ");
			str_text(m, json_string_value(name),
			    json_string_length(name));
			err_push(c, ip, kp, n->deps[i].c.seg, v);
		}
	}
	if (n->propnames.n != NULL)
		json_object_foreach((json_t *)v, key, jv) {
			int r, had;

			if ((ks = json_string(key)) == NULL)
				xalloc_die();
			/* a memo key: no other string may take its address */
			if (c->nkeep == c->capkeep) {
				c->capkeep = c->capkeep ? c->capkeep * 2 : 16;
				c->keep = xreallocarray(c->keep, c->capkeep,
				    sizeof(*c->keep));
			}
			c->keep[c->nkeep++] = ks;
			from = c->n;
			had = c->sc.anytype;
			c->sc.anytype = 0;
			r = v_child(c, &n->propnames, ks, ip, kp, NULL);
			/* its errors are about v, where "type" counts */
			if (c->scoring && c->sc.anytype && v == c->scv)
				c->sc.typefail = 1;
			c->sc.anytype |= had;
			for (j = from; j < c->n; j++) {
				/* the name is no value of the instance */
				c->e[j].value = v;
				old = c->e[j].message;
				m = msg(c);
				buf_adds(m, "property name ");
				str_text(m, key, strlen(key));
				buf_adds(m, ": ");
				buf_adds(m, old);
				c->e[j].message = xmemdup(buf_cstr(m),
				    m->len + 1);
				free(old);
			}
			SUB(r);
		}
	return bad;
}

static struct memo *memo_find(const struct vctx *, const struct node *,
		    const json_t *);
static size_t	memo_get(struct vctx *, const struct node *, const json_t *);

/* An array or object with members: what a full run remembers as valid. */
static int
container(const json_t *v)
{
	return (json_is_array(v) && json_array_size(v) > 0) ||
	    (json_is_object(v) && json_object_size(v) > 0);
}

/*
 * Only a reference brings a node to a value by two paths (allOf of two
 * references to one schema, at every level of the value): a full run
 * remembers here that the target accepts an array or object, and does
 * not walk it again (unless it is to collect what the target evaluates).
 * The target is t, the keyword seg ("/$ref", "/$dynamicRef", ...).
 */
static int
v_ref(struct vctx *c, const struct node *t, const char *seg, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	struct busy *b, old;
	struct kpath k;
	struct memo *e;
	struct ann own, *use;
	size_t mi;
	int r, bad = 0, full = !c->quiet && !c->scoring && container(v);

	if (c->busy == NULL)
		c->busy = xcalloc(c->js->nnodes, sizeof(*c->busy));
	b = &c->busy[t->id];
	if (b->v == v) {
		/* what this gives depends on that frame being under way */
		if (b->depth < c->taint)
			c->taint = b->depth;
		FAIL();
		buf_printf(msg(c), "%s loops back to a schema already applied "
		    "to this value", seg + 1);
		err_push(c, ip, kp, seg, v);
		return bad;
	}
	if (full && (e = memo_find(c, t, v)) != NULL && e->verdict == 0 &&
	    (a == NULL || e->ann != NULL)) {
		if (a != NULL)
			ann_merge(a, e->ann);
		return 0;
	}
	old = *b;
	b->v = v;
	b->depth = c->depth + 1;
	k.up = kp;
	k.seg = seg;
	use = a;
	if (full && a != NULL) {
		ann_init(&own, v);
		use = &own;
	}
	r = validate(c, t, v, ip, &k, use);
	c->busy[t->id] = old;
	if (use == &own)
		ann_merge(a, &own);
	/* not from a loop back below: validate() has reset taint */
	if (full && r == 0 && c->taint > c->depth && c->stop == NULL) {
		mi = memo_get(c, t, v);
		c->memo[mi].verdict = 0;
		if (use == &own && c->memo[mi].ann == NULL) {
			c->memo[mi].ann = xmalloc(sizeof(own));
			*c->memo[mi].ann = own;
			own.bits = NULL;
		}
	}
	if (use == &own)
		free(own.bits);
	return r;
}

/*
 * "$dynamicRef" and "$recursiveRef": when dynamic, the target is the
 * schema of the outermost resource in the dynamic scope that declares
 * the anchor; else the one it resolves to.
 */
static int
v_dynref(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	const struct jsschema *js = c->js;
	const struct node *t = n->dref;
	size_t i, j;

	for (i = 0; n->dname != NULL && i < c->nscope; i++)
		for (j = 0; j < js->ndyn; j++)
			if (js->dyn[j].node->res == c->scope[i] &&
			    strcmp(js->dyn[j].name, n->dname) == 0) {
				t = js->dyn[j].node;
				goto found;
			}
found:
	return v_ref(c, t, n->dseg, v, ip, kp, a);
}

/* The names of "type" as the schema gives them: "a, b or c". */
static void
type_list(struct buf *m, const json_t *t)
{
	size_t i, n;

	if (json_is_string(t)) {
		buf_adds(m, json_string_value(t));
		return;
	}
	n = json_array_size(t);
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_adds(m, i + 1 == n ? " or " : ", ");
		buf_adds(m, json_string_value(json_array_get(t, i)));
	}
}

static size_t
memo_hash(const struct node *n, const json_t *v, size_t ctx)
{
	return ptab_hash(n) ^ (ptab_hash(v) * 31) ^
	    (ctx * 0x9e3779b97f4a7c15ULL);
}

/* The memo of (n, v), or NULL. */
static struct memo *
memo_find(const struct vctx *c, const struct node *n, const json_t *v)
{
	struct memo *e;
	size_t i;

	if (c->mcap > 0)
		for (i = memo_hash(n, v, c->ctx) & (c->mcap - 1);
		    c->mslot[i] != 0; i = (i + 1) & (c->mcap - 1)) {
			e = &c->memo[c->mslot[i] - 1];
			if (e->n == n && e->v == v && e->ctx == c->ctx)
				return e;
		}
	return NULL;
}

/* The index of the memo of (n, v), made when there is none. */
static size_t
memo_get(struct vctx *c, const struct node *n, const json_t *v)
{
	struct memo *e;
	size_t i, j;

	if ((e = memo_find(c, n, v)) != NULL)
		return (size_t)(e - c->memo);
	if ((c->nmemo + 1) * 2 > c->mcap) {
		free(c->mslot);
		c->mcap = c->mcap ? c->mcap * 2 : 64;
		c->mslot = xcalloc(c->mcap, sizeof(*c->mslot));
		for (j = 0; j < c->nmemo; j++) {
			for (i = memo_hash(c->memo[j].n, c->memo[j].v,
			    c->memo[j].ctx) & (c->mcap - 1); c->mslot[i] != 0;
			    i = (i + 1) & (c->mcap - 1))
				;
			c->mslot[i] = j + 1;
		}
	}
	if (c->nmemo == c->memocap) {
		c->memocap = c->memocap ? c->memocap * 2 : 64;
		c->memo = xreallocarray(c->memo, c->memocap, sizeof(*c->memo));
	}
	e = &c->memo[c->nmemo];
	memset(e, 0, sizeof(*e));
	e->n = n;
	e->v = v;
	e->ctx = c->ctx;
	e->verdict = -1;
	for (i = memo_hash(n, v, c->ctx) & (c->mcap - 1); c->mslot[i] != 0;
	    i = (i + 1) & (c->mcap - 1))
		;
	c->mslot[i] = ++c->nmemo;
	return c->nmemo - 1;
}

/*
 * Validation has gone JSSCHEMA_MAX_DEPTH deep, or found the error after
 * the JSSCHEMA_MAX_ERRORS-th (toomany): it stops, with this error.
 */
static void
stop_here(struct vctx *c, const struct ipath *ip, const struct kpath *kp,
    const json_t *v, int toomany)
{
	struct jsschema_error *e;
	struct buf b = BUF_INIT;

	if (toomany)
		buf_printf(&b, "more than %d errors; validation stopped here",
		    JSSCHEMA_MAX_ERRORS);
	else
		buf_printf(&b, "schemas applied one inside another nest more "
		    "than %d deep (through $ref, allOf, items, ... and down "
		    "the value); validation stopped here", JSSCHEMA_MAX_DEPTH);
	c->keep_errors = toomany;
	e = xcalloc(1, sizeof(*e));
	e->instance = ipath_str(ip);
	e->keyword = kpath_str(kp, "");
	e->message = buf_cstr(&b);
	e->value = v;
	c->stop = e;
}

static int	validate_node(struct vctx *, const struct node *,
		    const json_t *, const struct ipath *, const struct kpath *,
		    struct ann *);

/*
 * Applies node n to value v, JSSCHEMA_MAX_DEPTH calls deep at the most.
 * Verdicts and scores are remembered, unless they came from a "$ref"
 * loop back to a frame below this one (then they hold only while that
 * frame is under way). A full run makes its errors every time (but see
 * v_ref()).
 */
static int
validate(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	struct score outer;
	const json_t *outerv;
	struct buf *m;
	struct memo *e;
	struct ann own, *use;
	size_t mi = 0, ctx = c->ctx;
	int r, d, memo, push;

	if (n->kind == NODE_TRUE)
		return 0;
	if (n->kind == NODE_FALSE) {
		if (c->quiet)
			return 1;
		m = msg(c);
		buf_adds(m, "no value is allowed here (the schema is false), "
		    "found ");
		desc(m, v);
		err_push(c, ip, kp, "", v);
		return 1;
	}
	if (c->stop != NULL)
		return 1;
	if (c->depth == JSSCHEMA_MAX_DEPTH) {
		stop_here(c, ip, kp, v, 0);
		return 1;
	}
	/*
	 * Only a "$ref" brings a node to a value by more than one path, or
	 * without end down the value: its targets are remembered, and
	 * every other node is reached once per target's frame and mode.
	 */
	memo = (c->quiet || c->scoring) && n->target && !n->leaf &&
	    (a == NULL || c->quiet);
	if (memo) {
		mi = memo_get(c, n, v);
		e = &c->memo[mi];
		if (c->quiet && e->verdict != -1 && (a == NULL ||
		    e->verdict != 0 || e->ann != NULL)) {
			if (a != NULL && e->verdict == 0)
				ann_merge(a, e->ann);
			return e->verdict;
		}
		if (!c->quiet && c->memo[mi].scored) {
			score_add(c, &c->memo[mi].sc, v,
			    ip != NULL ? ip->depth : 0, 1);
			return c->memo[mi].verdict;
		}
	}
	outer = c->sc;
	outerv = c->scv;
	if (c->scoring && !c->quiet) {
		memset(&c->sc, 0, sizeof(c->sc));
		c->scv = v;
	}
	/* a resource with dynamic anchors enters the dynamic scope once */
	push = c->js->resdyn != NULL && c->js->resdyn[n->res] &&
	    !c->onscope[n->res];
	if (push) {
		if (c->nscope == c->capscope) {
			c->capscope = c->capscope ? c->capscope * 2 : 8;
			c->scope = xreallocarray(c->scope, c->capscope,
			    sizeof(*c->scope));
		}
		c->scope[c->nscope++] = n->res;
		c->onscope[n->res] = 1;
		c->ctx = ctx_push(c, ctx, n->res);
	}
	/* what it evaluates is remembered too, apart from the rest of a */
	use = a;
	if (memo && a != NULL) {
		ann_init(&own, v);
		use = &own;
	}
	d = ++c->depth;
	r = validate_node(c, n, v, ip, kp, use);
	c->depth--;
	if (use == &own && r == 0)
		ann_merge(a, &own);
	if (push) {
		c->nscope--;
		c->onscope[n->res] = 0;
		c->ctx = ctx;
	}
	if (c->taint >= d) {
		c->taint = INT_MAX;
		if (memo && c->stop == NULL) {
			c->memo[mi].verdict = r;
			if (use == &own && r == 0 && c->memo[mi].ann == NULL) {
				/* its bits go with it */
				c->memo[mi].ann = xmalloc(sizeof(own));
				*c->memo[mi].ann = own;
				own.bits = NULL;
			}
			if (!c->quiet) {
				c->memo[mi].sc = c->sc;
				if (c->sc.count > 0)
					c->memo[mi].sc.depth -= ip != NULL ?
					    (unsigned)ip->depth : 0;
				c->memo[mi].scored = 1;
			}
		}
	}
	if (c->scoring && !c->quiet) {
		struct score f = c->sc;

		c->sc = outer;
		c->scv = outerv;
		score_add(c, &f, v, 0, 0);
	}
	if (use == &own)
		free(own.bits);
	return r;
}

/* "unevaluatedItems" and "unevaluatedProperties", after the rest. */
static int
v_unevaluated(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	const struct child *ch = json_is_array(v) ? &n->uitems : &n->uprops;
	struct ipath ci;
	struct buf *m;
	const char *key;
	json_t *jv;
	size_t i;
	int bad = 0;

	if (ch->n == NULL)
		return 0;
	ci.up = ip;
	ci.key = NULL;
	ci.depth = (ip != NULL ? ip->depth : 0) + 1;
	if (json_is_array(v)) {
		for (i = a->prefix; !a->all && i < json_array_size(v); i++) {
			if (ann_has(a, i))
				continue;
			ci.idx = i;
			jv = json_array_get(v, i);
			if (ch->n->kind != NODE_FALSE) {
				SUB(v_child(c, ch, jv, &ci, kp, NULL));
				continue;
			}
			FAIL();
			buf_printf(msg(c), "unexpected item %zu: no subschema "
			    "evaluates it (unevaluatedItems)", i);
			err_push(c, &ci, kp, ch->seg, jv);
		}
	} else if (!a->all) {
		i = 0;
		json_object_foreach((json_t *)v, key, jv) {
			if (ann_has(a, i++))
				continue;
			ci.key = key;
			if (ch->n->kind != NODE_FALSE) {
				SUB(v_child(c, ch, jv, &ci, kp, NULL));
				continue;
			}
			FAIL();
			m = msg(c);
			buf_adds(m, "unexpected property ");
			str_text(m, key, strlen(key));
			buf_adds(m, ": no subschema evaluates it "
			    "(unevaluatedProperties)");
			err_push(c, &ci, kp, ch->seg, jv);
		}
	}
	a->all = 1;
	return bad;
}

static int	v_keywords(struct vctx *, const struct node *, const json_t *,
		    const struct ipath *, const struct kpath *, struct ann *);

/*
 * Applies the keywords of n to v. What they evaluate of an array or
 * object is collected in *a when the schema around asks (a is not NULL),
 * or when n has "unevaluatedItems" or "unevaluatedProperties".
 */
static int
validate_node(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	struct ann own;
	int r;

	if (n->refonly)
		return v_ref(c, n->ref, "/$ref", v, ip, kp, a);
	if (!json_is_array(v) && !json_is_object(v))
		a = NULL;
	else if ((json_is_array(v) ? n->uitems.n : n->uprops.n) != NULL) {
		/* its own: what the schema around evaluated does not count */
		ann_init(&own, v);
		r = v_keywords(c, n, v, ip, kp, &own);
		if (a != NULL)
			ann_merge(a, &own);
		free(own.bits);
		return r;
	}
	return v_keywords(c, n, v, ip, kp, a);
}

static int
v_keywords(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	unsigned t;
	struct buf *m;
	struct ann first, br;
	size_t i, nvalid;
	int bad = 0, have;

	if (n->ref != NULL)
		SUB(v_ref(c, n->ref, "/$ref", v, ip, kp, a));
	if (n->dref != NULL)
		SUB(v_dynref(c, n, v, ip, kp, a));
	t = inst_type(v);
	if (n->types != 0 && (n->types & t) == 0) {
		FAIL();
		m = msg(c);
		buf_adds(m, "expected ");
		type_list(m, n->typev);
		buf_adds(m, ", found ");
		desc(m, v);
		err_push(c, ip, kp, "/type", v);
	}
	if (n->enumv != NULL) {
		if (vset_find(n->enumset, v, jhash(v)) == -1) {
			FAIL();
			m = msg(c);
			buf_adds(m, "expected one of ");
			json_text(m, n->enumv);
			buf_adds(m, ", found ");
			desc(m, v);
			err_push(c, ip, kp, "/enum", v);
		}
	}
	if (n->constv != NULL && !jeq(n->constv, v)) {
		FAIL();
		m = msg(c);
		buf_adds(m, "expected ");
		json_text(m, n->constv);
		buf_adds(m, " (const), found ");
		desc(m, v);
		err_push(c, ip, kp, "/const", v);
	}
	if (t & T_NUMBER)
		SUB(v_number(c, n, v, ip, kp));
	else if (t == T_STRING)
		SUB(v_string(c, n, v, ip, kp));
	else if (t == T_ARRAY)
		SUB(v_array(c, n, v, ip, kp, a));
	else if (t == T_OBJECT)
		SUB(v_object(c, n, v, ip, kp, a));
	for (i = 0; i < n->nallof; i++)
		SUB(v_child(c, &n->allof[i], v, ip, kp, a));
	if (n->nanyof > 0) {
		struct kpath k = { kp, NULL };

		/* every branch, when what they evaluate is asked for */
		for (i = 0, nvalid = 0; i < n->nanyof; i++) {
			k.seg = n->anyof[i].seg;
			if (check(c, n->anyof[i].n, v, ip, &k, a) == 0 &&
			    nvalid++ == 0 && a == NULL)
				break;
		}
		if (nvalid == 0) {
			FAIL();
			m = msg(c);
			buf_printf(m, "value matches none of the %zu schemas "
			    "of \"anyOf\" (found ", n->nanyof);
			desc(m, v);
			buf_adds(m, "); the closest one says:");
			err_push(c, ip, kp, "/anyOf", v);
			closest_branch(c, n->anyof, n->nanyof, v, ip, kp);
		}
	}
	if (n->noneof > 0) {
		struct kpath k = { kp, NULL };
		struct buf list = BUF_INIT;

		nvalid = 0;
		have = 0;
		for (i = 0; i < n->noneof; i++) {
			k.seg = n->oneof[i].seg;
			if (a != NULL)
				ann_init(&br, v);
			if (check(c, n->oneof[i].n, v, ip, &k,
			    a != NULL ? &br : NULL) != 0) {
				if (a != NULL)
					free(br.bits);
				continue;
			}
			if (a != NULL && !have) {
				first = br;
				have = 1;
			} else if (a != NULL)
				free(br.bits);
			if (++nvalid > 1 && c->quiet)
				break;
			if (!c->quiet)
				buf_printf(&list, "%s%zu", nvalid > 1 ? ", " :
				    "", i);
		}
		if (have) {
			if (nvalid == 1)
				ann_merge(a, &first);
			free(first.bits);
		}
		if (nvalid == 0) {
			FAIL();
			m = msg(c);
			buf_printf(m, "value matches none of the %zu schemas "
			    "of \"oneOf\" (found ", n->noneof);
			desc(m, v);
			buf_adds(m, "); the closest one says:");
			err_push(c, ip, kp, "/oneOf", v);
			closest_branch(c, n->oneof, n->noneof, v, ip, kp);
		} else if (nvalid > 1) {
			if (c->quiet) {
				buf_free(&list);
				return 1;
			}
			bad = 1;
			m = msg(c);
			buf_printf(m, "value matches %zu of the schemas of "
			    "\"oneOf\" (%s), but must match exactly one",
			    nvalid, buf_cstr(&list));
			err_push(c, ip, kp, "/oneOf", v);
		}
		buf_free(&list);
	}
	if (n->nots.n != NULL) {
		struct kpath k = { kp, n->nots.seg };

		if (check(c, n->nots.n, v, ip, &k, NULL) == 0) {
			FAIL();
			m = msg(c);
			buf_adds(m, "value must not match the schema of \"not\""
			    ", found ");
			desc(m, v);
			err_push(c, ip, kp, "/not", v);
		}
	}
	if (n->ifs.n != NULL) {
		struct kpath k = { kp, n->ifs.seg };

		if (check(c, n->ifs.n, v, ip, &k, a) == 0) {
			if (n->thens.n != NULL)
				SUB(v_child(c, &n->thens, v, ip, kp, a));
		} else if (n->elses.n != NULL)
			SUB(v_child(c, &n->elses, v, ip, kp, a));
	}
	if (a != NULL)
		SUB(v_unevaluated(c, n, v, ip, kp, a));
	return bad;
}

int
jsschema_validate(const struct jsschema *js, const json_t *instance,
    struct jsschema_result *res)
{
	struct vctx c;
	size_t i;

	memset(&c, 0, sizeof(c));
	c.js = js;
	c.taint = INT_MAX;
	if (js->resdyn != NULL)
		c.onscope = xcalloc(js->nres + 1, 1);
	validate(&c, js->root, instance, NULL, NULL, NULL);
	if (c.stop != NULL) {
		/* deep: the errors so far may be half of what they would be */
		while (!c.keep_errors && c.n > 0)
			err_free(&c.e[--c.n]);
		c.e = xreallocarray(c.e, c.n + 1, sizeof(*c.e));
		c.e[c.n++] = *c.stop;
		free(c.stop);
	}
	for (i = 0; i < c.nmemo; i++)
		if (c.memo[i].ann != NULL) {
			free(c.memo[i].ann->bits);
			free(c.memo[i].ann);
		}
	for (i = 0; i < c.nkeep; i++)
		json_decref(c.keep[i]);
	free(c.keep);
	free(c.memo);
	free(c.mslot);
	free(c.busy);
	free(c.scope);
	free(c.onscope);
	free(c.ctxv);
	free(c.ctxslot);
	buf_free(&c.msg);
	res->errors = c.e;
	res->nerrors = c.n;
	if (c.n == 0) {
		free(c.e);
		res->errors = NULL;
		return 0;
	}
	return 1;
}

void
jsschema_result_free(struct jsschema_result *res)
{
	size_t i;

	if (res == NULL)
		return;
	for (i = 0; i < res->nerrors; i++)
		err_free(&res->errors[i]);
	free(res->errors);
	res->errors = NULL;
	res->nerrors = 0;
}

/* ---- places: the types a schema allows at a member of a value ---- */

/*
 * A place is a set of alternatives (what anyOf and oneOf split), each a
 * conjunction of the nodes that apply there together (what $ref and
 * allOf join). Both are bounded: past the bounds, alternatives and nodes
 * are left out, and the types found are those of the rest.
 */
#define PLACE_ALTS	64
#define PLACE_NODES	256

struct alt {
	const struct node	**v;
	size_t			  n;
};

struct jsschema_place {
	struct alt	*a;
	size_t		 n;
	int		 any;		/* an alternative no schema constrains */
};

static int
alt_add(struct alt *a, const struct node *x)
{
	size_t i;

	if (x == NULL || a->n == PLACE_NODES)
		return 0;
	for (i = 0; i < a->n; i++)
		if (a->v[i] == x)
			return 0;
	if (a->v == NULL)
		a->v = xcalloc(PLACE_NODES, sizeof(*a->v));
	a->v[a->n++] = x;
	return 1;
}

static struct alt
alt_copy(const struct alt *a)
{
	struct alt c;

	c.v = xcalloc(PLACE_NODES, sizeof(*c.v));
	memcpy(c.v, a->v, a->n * sizeof(*c.v));
	c.n = a->n;
	return c;
}

/*
 * Follows the nodes of a from index i on: their references and allOf
 * join a; anyOf and oneOf split it into one alternative per branch (per
 * pair of branches when a node has both). a is then p's, or freed.
 */
static void
place_expand(struct jsschema_place *p, struct alt *a, size_t i)
{
	const struct node *x;
	struct alt c;
	size_t j, k, na, no;

	for (; i < a->n; i++) {
		x = a->v[i];
		if (x->kind != NODE_OBJECT)
			continue;
		alt_add(a, x->ref);
		alt_add(a, x->dref);
		for (j = 0; j < x->nallof; j++)
			alt_add(a, x->allof[j].n);
		if (x->nanyof == 0 && x->noneof == 0)
			continue;
		na = x->nanyof > 0 ? x->nanyof : 1;
		no = x->noneof > 0 ? x->noneof : 1;
		for (j = 0; j < na; j++)
			for (k = 0; k < no && p->n < PLACE_ALTS; k++) {
				c = alt_copy(a);
				if (x->nanyof > 0)
					alt_add(&c, x->anyof[j].n);
				if (x->noneof > 0)
					alt_add(&c, x->oneof[k].n);
				place_expand(p, &c, i + 1);
			}
		free(a->v);
		return;
	}
	if (p->n == PLACE_ALTS) {
		free(a->v);
		return;
	}
	p->a = xreallocarray(p->a, p->n + 1, sizeof(*p->a));
	p->a[p->n++] = *a;
}

/* The place a conjunction c of nodes makes, added to p. */
static void
place_add(struct jsschema_place *p, struct alt *c)
{
	if (c->n == 0) {
		p->any = 1;
		free(c->v);
		return;
	}
	place_expand(p, c, 0);
}

struct jsschema_place *
jsschema_place_root(const struct jsschema *js)
{
	struct jsschema_place *p = xcalloc(1, sizeof(*p));
	struct alt c = { NULL, 0 };

	alt_add(&c, js->root);
	place_add(p, &c);
	return p;
}

/* The nodes that apply to member key (len bytes) of a value at x. */
static void
member_nodes(const struct node *x, const char *key, size_t len,
    struct alt *c)
{
	size_t k;
	long pi;
	int own = 0;

	if ((pi = prop_find(x, key, len)) >= 0) {
		alt_add(c, x->props[pi].n);
		own = 1;
	}
	for (k = 0; k < x->npprops; k++)
		if (jsschema_regex_search(x->pprops[k].re, key, len) == 1) {
			alt_add(c, x->pprops[k].c.n);
			own = 1;
		}
	if (!own)
		alt_add(c, x->addprops.n);
}

/* The nodes that apply to item idx of a value at x. */
static void
item_nodes(const struct node *x, size_t idx, struct alt *c)
{
	if (x->items_array)
		alt_add(c, idx < x->nitems ? x->itemv[idx].n : x->additem.n);
	else
		alt_add(c, x->items.n);
}

/* The place one step down from p: member key (len bytes), or item idx. */
static struct jsschema_place *
place_step(const struct jsschema_place *p, const char *key, size_t len,
    size_t idx)
{
	struct jsschema_place *q = xcalloc(1, sizeof(*q));
	const struct node *x;
	struct alt c;
	size_t i, j;

	q->any = p->any;
	for (i = 0; i < p->n; i++) {
		c.v = NULL;
		c.n = 0;
		for (j = 0; j < p->a[i].n; j++) {
			x = p->a[i].v[j];
			if (x->kind != NODE_OBJECT)
				continue;
			if (key != NULL)
				member_nodes(x, key, len, &c);
			else
				item_nodes(x, idx, &c);
		}
		place_add(q, &c);
	}
	return q;
}

struct jsschema_place *
jsschema_place_member(const struct jsschema_place *p, const char *key,
    size_t len)
{
	return place_step(p, key, len, 0);
}

struct jsschema_place *
jsschema_place_item(const struct jsschema_place *p, size_t idx)
{
	return place_step(p, NULL, 0, idx);
}

/* The types node x allows, "number" counting "integer" in. */
static unsigned
node_types(const struct node *x)
{
	unsigned t = JSSCHEMA_T_ALL, e = 0;
	size_t i;

	if (x->kind == NODE_FALSE)
		return 0;
	if (x->kind == NODE_TRUE)
		return JSSCHEMA_T_ALL;
	if (x->types != 0)
		t = x->types | (x->types & T_NUMBER ? T_INTEGER : 0);
	if (x->enumv != NULL) {
		for (i = 0; i < json_array_size(x->enumv); i++)
			e |= inst_type(json_array_get(x->enumv, i));
		t &= e;
	}
	if (x->constv != NULL)
		t &= inst_type(x->constv);
	return t;
}

unsigned
jsschema_place_types(const struct jsschema_place *p)
{
	unsigned t = p->any ? JSSCHEMA_T_ALL : 0, c;
	size_t i, j;

	for (i = 0; i < p->n; i++) {
		c = JSSCHEMA_T_ALL;
		for (j = 0; j < p->a[i].n; j++)
			c &= node_types(p->a[i].v[j]);
		t |= c;
	}
	return t;
}

void
jsschema_place_free(struct jsschema_place *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->n; i++)
		free(p->a[i].v);
	free(p->a);
	free(p);
}
