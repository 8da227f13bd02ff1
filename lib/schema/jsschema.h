/*
 * jsschema: JSON Schema validation of jansson values, in the dialects
 * Draft-04, Draft-06, Draft-07, 2019-09 and 2020-12. A schema is
 * compiled once, with its graph of "$id"s, anchors and references, and
 * then validates any number of instances. The dialect of each schema
 * resource is the one its "$schema" names (or, for a meta-schema of
 * one's own, that meta-schema's dialect and the vocabularies its
 * "$vocabulary" asks for), or the one it is reached from, or the
 * default. The meta-schemas of the five drafts are built in, with the
 * vocabulary meta-schemas of 2019-09 and 2020-12; other references
 * resolve to the schemas loaded beforehand (by their $id or their
 * file's location), to local files named by file: URIs, or through a
 * map of URI prefixes to local directories, never over the network.
 */
#ifndef LLMKIT_JSSCHEMA_H
#define LLMKIT_JSSCHEMA_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

struct jsschema;

/* --ref-map URI=DIR: a reference under uri is the file under dir. */
struct jsschema_refmap {
	const char	*uri;
	const char	*dir;
};

/* The dialects, by their draft. */
#define JSSCHEMA_DRAFT4		4
#define JSSCHEMA_DRAFT6		6
#define JSSCHEMA_DRAFT7		7
#define JSSCHEMA_DRAFT2019	201909
#define JSSCHEMA_DRAFT2020	202012

/*
 * "format": as its dialect defines it (an assertion in Draft-04, -06 and
 * -07, an annotation in 2019-09 and 2020-12 unless a meta-schema's
 * $vocabulary asks for format-assertion), an annotation only, or an
 * assertion in every dialect.
 */
#define JSSCHEMA_FORMAT_DIALECT		0
#define JSSCHEMA_FORMAT_ANNOTATE	1
#define JSSCHEMA_FORMAT_ASSERT		2

struct jsschema_opts {
	int		 format;	/* JSSCHEMA_FORMAT_* */
	const struct jsschema_refmap *refmap;
	size_t		 nrefmap;
	int		 draft;		/* without "$schema"; 0: Draft-07 */
	const char *const *files;	/* more schemas, read beforehand */
	size_t		 nfiles;
	int		 dialect;	/* the root's, whatever its "$schema" */
};

/*
 * The draft named by version, as --draft gives it: "4", "6", "7",
 * "2019-09" or "2020-12"; 0 for any other.
 */
int		 jsschema_draft(const char *version);
/*
 * The name of the draft ("Draft-04", ..., "2020-12") whose meta-schema
 * a "$schema" URI names, as a root's "$schema" is read; NULL for another.
 */
const char	*jsschema_uri_dialect(const char *uri);
int		 jsschema_opts_refmap(struct jsschema_opts *, char *);
void		 jsschema_opts_file(struct jsschema_opts *, const char *);
void		 jsschema_opts_free(struct jsschema_opts *);

/*
 * One failing keyword. keyword is the JSON Pointer of the keyword along
 * the evaluation path, through a reference as ".../$ref/...", e.g.
 * "/properties/a/$ref/type" (not the absolute "uri#/pointer" form).
 * message says what was expected and what was found, on one line, in
 * lower case. value is borrowed from the instance.
 */
struct jsschema_error {
	char		*instance;	/* JSON Pointer, "" for root */
	char		*keyword;
	char		*message;
	const json_t	*value;
};

struct jsschema_result {
	struct jsschema_error	*errors;
	size_t			 nerrors;
};

/*
 * Compiles schema (borrowed; a reference is kept) with its $id/$ref
 * graph against base_uri (or NULL), after reading opts->files, each
 * known by its file: URI and its $ids. NULL with a message in err (errlen
 * bytes) for an invalid schema, a $ref that cannot be resolved, or
 * subschemas nested (counting each $ref followed) more than 1000 deep,
 * or, with errno ELIBACC, when a pattern needs PCRE2 (loaded by the
 * first one) and it cannot be loaded: trouble, not a fault of the schema.
 * A file, whatever the options, is read only when it is a regular file:
 * never a FIFO, a device or a directory.
 */
struct jsschema	*jsschema_compile(json_t *schema, const char *base_uri,
		    const struct jsschema_opts *, char *err, size_t errlen);
/*
 * jsschema_compile for a schema that is not the user's own (a tool's
 * input schema): it reads no file but the regular files below the
 * directory root, their symbolic links resolved, and nothing from a ref
 * map or over any other scheme (the built-in meta-schemas are still
 * known; opts's ref map and files are not used). When it fails, errno
 * is EACCES if the error is a reference so refused, ELIBACC if PCRE2
 * cannot be loaded, EINVAL otherwise.
 */
struct jsschema	*jsschema_compile_below(json_t *schema, const char *base_uri,
		    const char *root, const struct jsschema_opts *,
		    char *err, size_t errlen);
/*
 * 0 when instance is valid, 1 when not: then every error is in *res,
 * which the caller frees with jsschema_result_free (*res is empty, and
 * need not be freed, after 0). Validation stops, with an error that says
 * so, when schemas apply one inside another more than 5000 deep (then
 * that error is the only one) or after 10000 errors. -1 when it cannot
 * tell: a "format" needs libidn2 or PCRE2, which cannot be loaded; then
 * the one error in *res says so.
 */
int		 jsschema_validate(const struct jsschema *,
		    const json_t *instance, struct jsschema_result *res);
/*
 * jsschema_validate, and in *notes (always set; the caller frees it with
 * jsschema_result_free) each "format" that is an annotation by its
 * dialect (2019-09, 2020-12 without the format-assertion vocabulary, and
 * JSSCHEMA_FORMAT_DIALECT) and that a string fails, as a jsschema_error
 * whose message ends "; "format" is an annotation in DIALECT". They are
 * those of the schemas applied as errors are made: not of the branches
 * that anyOf, oneOf, not and if try on the way to a verdict.
 */
int		 jsschema_validate_notes(const struct jsschema *,
		    const json_t *instance, struct jsschema_result *res,
		    struct jsschema_result *notes);
void		 jsschema_result_free(struct jsschema_result *);
void		 jsschema_free(struct jsschema *);

/*
 * Places, for typing text as a schema would have it (toolcall-parse):
 * the root of a schema, and from a place the place of a member of an
 * object or of an item of an array, through $ref, allOf, anyOf and oneOf.
 * jsschema_place_types gives the JSSCHEMA_T_* bits of the types the
 * schema allows there (JSSCHEMA_T_NUMBER counts JSSCHEMA_T_INTEGER in;
 * an enum or const allows the types of its values); JSSCHEMA_T_ALL when
 * no schema constrains it, 0 when none can be valid there.
 */
#define JSSCHEMA_T_NULL		0x01
#define JSSCHEMA_T_BOOLEAN	0x02
#define JSSCHEMA_T_OBJECT	0x04
#define JSSCHEMA_T_ARRAY	0x08
#define JSSCHEMA_T_NUMBER	0x10
#define JSSCHEMA_T_STRING	0x20
#define JSSCHEMA_T_INTEGER	0x40
#define JSSCHEMA_T_ALL		0x7f

struct jsschema_place;

struct jsschema_place *jsschema_place_root(const struct jsschema *);
struct jsschema_place *jsschema_place_member(const struct jsschema_place *,
		    const char *key, size_t len);
struct jsschema_place *jsschema_place_item(const struct jsschema_place *,
		    size_t idx);
unsigned	 jsschema_place_types(const struct jsschema_place *);
void		 jsschema_place_free(struct jsschema_place *);

/*
 * The file: URI of path (relative to the working directory, which is not
 * resolved through symbolic links), percent-encoded where RFC 3986 wants
 * it, a new string; NULL, with errno set, when the working directory
 * cannot be had.
 */
char		*jsschema_file_uri(const char *path);
/* RFC 3986 resolution of ref against base, a new string. */
char		*jsschema_uri_resolve(const char *base, const char *ref);
/*
 * The document (or the schema whose "$id" it is) that uri names among
 * those js has read, the fragment ignored; NULL for one it has not. A
 * reader of the schema follows its references so, to what was checked
 * when it compiled, and never opens a file of its own.
 */
const json_t	*jsschema_document(const struct jsschema *, const char *uri);
/*
 * path opened for reading when it is a regular file, without waiting on
 * a FIFO or a device; NULL with *why set ("not a regular file", "Is a
 * directory" or the system's reason).
 */
FILE		*jsschema_fopen(const char *path, const char **why);
/*
 * The first reference in schema (read against base_uri, or NULL) that
 * leaves its document: a "$ref", "$dynamicRef" or "$recursiveRef" to a
 * URI that is neither the document's nor one of its "$id"s, or a
 * "$schema" that names no draft known here; NULL when there is none.
 * Built-in meta-schemas, which are read from no file, do not count. A
 * new string, the reference as written.
 */
char		*jsschema_external_ref(const json_t *schema,
		    const char *base_uri);
/*
 * The lint of a compiled schema's own document (not of the documents it
 * refers to): each keyword that no dialect knows ("requried: unknown
 * keyword; did you mean required?"), each keyword of another draft than
 * its subschema's ("const is a Draft-06 keyword; under Draft-04, as
 * $schema says, it is ignored"), and up to Draft-07 the keywords beside a
 * "$ref" that those drafts ignore; never inside data or the value of an
 * unknown keyword, never a keyword that begins with "x-". fn is called
 * for each finding, in the document's order; the count is returned.
 */
struct jsschema_lint {
	const char	*rule;		/* "unknown-keyword", "draft-keyword", */
					/* "ref-siblings" */
	const char	*pointer;	/* the subschema's, "" for the root */
	const char	*keyword;	/* the keyword's own pointer */
	const char	*name;		/* the keyword's name */
	const char	*message;	/* one line, beginning with a keyword */
};

typedef void	 jsschema_lint_fn(void *, const struct jsschema_lint *);

size_t		 jsschema_lint(const struct jsschema *, jsschema_lint_fn *,
		    void *);

/*
 * Whether a keyword holds data (enum, const, default, examples), or an
 * object whose members are schemas (properties, $defs and the like): what
 * a walk over a schema's subschemas passes over, or walks member by member.
 */
int		 jsschema_data_keyword(const char *);
int		 jsschema_map_keyword(const char *);

#endif
