/*
 * jsschema_int: what the files of lib/schema's validator share and no
 * caller of jsschema.h sees: the dialects, the compiled schema (nodes,
 * the index of subschemas, the URIs registered), the context of a
 * compilation, and the functions one file takes from another. The files:
 * jsschema_uri.c (URIs and JSON Pointers), jsschema_dialect.c (the
 * dialects, the built-in meta-schemas, the options, and the index of
 * subschemas), jsschema_load.c (the documents a schema refers to),
 * jsschema_compile.c (schemas into nodes), jsschema_value.c (equality,
 * order, hashing and sets of JSON values, and their text in messages),
 * jsschema_validate.c (nodes applied to an instance), jsschema_vtype.c
 * (the keywords of one type of instance; the two share jsschema_vint.h),
 * jsschema_place.c (the types a schema allows at a place of a value)
 * and jsschema_lint.c (what a schema says that its dialect ignores).
 * Names shared between the files begin with jss_.
 */
#ifndef LLMKIT_JSSCHEMA_INT_H
#define LLMKIT_JSSCHEMA_INT_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "schema/jsschema.h"
#include "schema/jsschema_regex.h"

#define DRAFT2019_09	JSSCHEMA_DRAFT2019
#define DRAFT2020_12	JSSCHEMA_DRAFT2020
#define DRAFT_UNKNOWN	(-1)
#define DRAFT_NOTSTRING	(-2)

/* The keywords that are a dialect's own. */
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

/*
 * A dialect: the path of its "$schema" URI (after "http://" or
 * "https://", before an empty fragment), the keywords that are its own,
 * its vocabularies in use when no meta-schema says otherwise, and the
 * formats it defines.
 */
struct dialect {
	int		 draft;
	const char	*path;
	unsigned	 kw;
	unsigned	 vocab;
	const char	*idkw;
	const char	*formats;	/* " a b ", or NULL: all jsschema_format's */
};

/* A built-in meta-schema, by the path of its URI (as a dialect's). */
struct meta {
	const char	*path;
	const char	*text;
	const size_t	*len;
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
	const char	*fnote;		/* "format", an annotation that fails */
	int		 fnote_draft;	/* the dialect that makes it one */
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
	const json_t	*forceroot;	/* its "$schema" overruled: draft */
	int		 draftgiven;	/* draft is the options', not the default */
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
	int		 trouble;	/* the error is PCRE2 not loaded */
	int		 depth;		/* compile() calls under way */
	const char	*lastref;	/* the last "$ref" followed */
	int		 draft;		/* of the schema being compiled */
	unsigned	 vocab;
	const json_t	*res;
};

/* Where a subschema is read: its dialect, vocabularies and resource. */
struct dial {
	int		 draft;
	unsigned	 vocab;
	const json_t	*res;		/* the resource's root */
};

/* jsschema_uri.c: URIs (RFC 3986) and JSON Pointers (RFC 6901). */
char		*jss_drop_empty_frag(char *);
int		 jss_file_uri_path(const char *, struct buf *);
void		 jss_pointer_escape(struct buf *, const char *, size_t);
const json_t	*jss_pointer_walk(const json_t *, const char *);
char		*jss_keyword_location(const struct kpath *, const char *);
char		*jss_instance_location(const struct ipath *);

/* jsschema_dialect.c: the dialects and the index of subschemas. */
const struct dialect *jss_dialect_of(int);
int		 jss_draft_supported(int);
const char	*jss_dialect_name(int);
int		 jss_schema_uri_draft(const char *);
const struct meta *jss_builtin_meta(const char *);
struct sinfo	*jss_index_get(const struct jsschema *, const json_t *);
struct sinfo	*jss_index_add(struct jsschema *, const json_t *,
		    const char *);
void		 jss_index_schema(struct jsschema *, const json_t *,
		    const char *, const struct dial *, int);
void		 jss_index_document(struct jsschema *, const json_t *,
		    const char *, const struct dial *);
void		 jss_root_dialect(const struct jsschema *, const json_t *,
		    struct dial *);
const json_t	*jss_uri_schema(const struct jsschema *, const char *);
void		 jss_uri_register(struct jsschema *, const char *,
		    const json_t *);
const struct cmeta *jss_custom_meta(const struct jsschema *, const char *);

/* jsschema_load.c: the documents, and the errors of a compilation. */
void		 jss_compile_error(struct cctx *, const struct kpath *,
		    const char *, ...) __attribute__((format(printf, 3, 4)));
void		 jss_add_doc(struct jsschema *, json_t *);
int		 jss_load_files(struct cctx *, const char *const *, size_t);
int		 jss_index_files(struct cctx *, const char *const *, size_t,
		    const struct dial *);
int		 jss_load_doc(struct cctx *, const char *,
		    const struct kpath *);
int		 jss_load_metas(struct cctx *, const json_t *);

/* jsschema_value.c: JSON values as the keywords compare them. */
int		 jss_num_cmp(const json_t *, const json_t *);
int		 jss_json_equal(const json_t *, const json_t *);
uint64_t	 jss_json_hash(const json_t *);
struct vset	*jss_vset_new(void);
void		 jss_vset_free(struct vset *);
long		 jss_vset_find(const struct vset *, const json_t *, uint64_t);
void		 jss_vset_add(struct vset *, const json_t *, size_t, uint64_t);
void		 jss_decimal_of(const json_t *, struct dec *);
void		 jss_num_text(struct buf *, const json_t *);
void		 jss_str_text(struct buf *, const char *, size_t);
void		 jss_describe(struct buf *, const json_t *);
void		 jss_json_text(struct buf *, const json_t *);

/*
 * Called for every property of every object and for every value
 * validated: static inline, so that each file's calls can be inlined.
 */

/* FNV-1a of the n bytes at s. */
static inline size_t
jss_str_hash(const char *s, size_t n)
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
static inline long
jss_prop_find(const struct node *n, const char *key, size_t len)
{
	size_t i, k;

	if (n->propcap == 0)
		return -1;
	for (i = jss_str_hash(key, len) & (n->propcap - 1);
	    (k = n->propslot[i]) != 0; i = (i + 1) & (n->propcap - 1))
		if (strlen(n->propnames_v[k - 1]) == len &&
		    memcmp(n->propnames_v[k - 1], key, len) == 0)
			return (long)(k - 1);
	return -1;
}

/*
 * The T_* bits of v's type: an integer, or a real without a fraction, is
 * a number too.
 */
static inline unsigned
jss_inst_type(const json_t *v)
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

#endif
