/*
 * jsschema_load: the documents a schema brings in, and the errors of a
 * compilation. It reads the schema files given beforehand and the
 * documents that a "$ref" reaches: a built-in meta-schema, a file under
 * a ref map, the local file a file: URI names (below a root only, for
 * jsschema_compile_below), each a regular file; and the meta-schemas,
 * other than the built-in ones, that a "$schema" names, for their
 * vocabularies. It also finds, without loading anything, the first
 * reference that leaves a document (jsschema_external_ref).
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/io.h"
#include "base/xalloc.h"
#include "json/jsonx.h"
#include "schema/jsschema.h"
#include "schema/jsschema_int.h"

/* ---- errors ---- */

/*
 * The error of a compilation, into cc->err: the schema location where,
 * then the message. The first error is the one kept; any error fails.
 */
void
jss_compile_error(struct cctx *cc, const struct kpath *where, const char *fmt,
    ...)
{
	va_list ap;
	char *loc;
	int n;

	if (cc->failed++)
		return;
	if (cc->errlen == 0)
		return;
	loc = jss_keyword_location(where, "");
	n = snprintf(cc->err, cc->errlen, "%s%s", loc,
	    loc[0] != '\0' ? ": " : "");
	free(loc);
	if (n < 0 || (size_t)n >= cc->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(cc->err + n, cc->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

/* ---- documents ---- */

/* Keeps doc, whose reference the caller gives up, until js is freed. */
void
jss_add_doc(struct jsschema *js, json_t *doc)
{
	js->docs = xreallocarray(js->docs, js->ndocs + 1, sizeof(*js->docs));
	js->docs[js->ndocs++] = doc;
}

/*
 * Adds doc, known as uri and by its $ids, read in the dialect in when it
 * has no "$schema" (NULL: left to be indexed later, by jss_index_files).
 * -1 when one of them is already the URI of a different schema, named by
 * js->dup.
 */
static int
add_loaded(struct jsschema *js, json_t *doc, const char *uri,
    const struct dial *in)
{
	jss_add_doc(js, doc);
	js->regmark = js->nregs;
	jss_uri_register(js, uri, doc);
	if (in != NULL || json_is_string(json_object_get(doc, "$schema")))
		jss_index_document(js, doc, uri, in);
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
	struct buf text = BUF_INIT;
	json_t *doc = NULL;
	FILE *fp;

	*why = NULL;
	if ((fp = open_regular(path, notreg)) == NULL) {
		*why = open_why(*notreg, errno);
		return NULL;
	}
	/*
	 * Read whole, then as json_loadf would read it (the same positions
	 * and messages; only jerr->source differs, which no message names),
	 * so that a large schema may be read by the simdjson engine.
	 */
	errno = 0;
	if (io_slurp(fp, &text) != 0)
		*why = strerror(errno != 0 ? errno : EIO);
	else
		doc = jsonx_load(text.len > 0 ? text.data : "", text.len,
		    JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, jerr);
	fclose(fp);
	buf_free(&text);
	return doc;
}

/*
 * Reads the schemas of opts->files; 0, or -1 with the error set. Those
 * with a "$schema" are indexed at once; the others wait for the dialect
 * of the schema that refers to them (jss_index_files).
 */
int
jss_load_files(struct cctx *cc, const char *const *files, size_t nfiles)
{
	json_error_t jerr;
	json_t *doc;
	const char *why;
	char *uri;
	size_t i;
	int e;

	for (i = 0; i < nfiles; i++) {
		if ((uri = jsschema_file_uri(files[i])) == NULL) {
			jss_compile_error(cc, NULL, "%s: %s", files[i],
			    strerror(errno));
			return -1;
		}
		if ((doc = read_file(files[i], &jerr, &why, &e)) == NULL) {
			if (why != NULL)
				jss_compile_error(cc, NULL, "%s: %s", files[i],
				    why);
			else
				jss_compile_error(cc, NULL, "%s:%d:%d: the "
				    "schema is not JSON: %s", files[i],
				    jerr.line, jerr.column > 0 ? jerr.column :
				    1, jerr.text);
			free(uri);
			return -1;
		}
		if (jss_load_metas(cc, doc) == -1) {
			json_decref(doc);
			free(uri);
			return -1;
		}
		e = add_loaded(cc->js, doc, uri, NULL);
		free(uri);
		if (e == -1) {
			jss_compile_error(cc, NULL, "%s: a different schema "
			    "with the URI \"%s\" is already loaded", files[i],
			    cc->js->dup);
			return -1;
		}
	}
	return 0;
}

/*
 * Indexes the files jss_load_files() read that have no "$schema" of their
 * own, in the dialect in of the schema compiled (in->res), which refers
 * to them. 0, or -1 with the error set.
 */
int
jss_index_files(struct cctx *cc, const char *const *files, size_t nfiles,
    const struct dial *in)
{
	struct jsschema *js = cc->js;
	const json_t *doc;
	char *uri;
	size_t i;

	for (i = 0; i < nfiles; i++) {
		if ((uri = jsschema_file_uri(files[i])) == NULL) {
			jss_compile_error(cc, NULL, "%s: %s", files[i],
			    strerror(errno));
			return -1;
		}
		doc = jss_uri_schema(js, uri);
		if (doc != NULL && doc != in->res &&
		    jss_index_get(js, doc) == NULL) {
			js->regmark = js->nregs;
			jss_index_document(js, doc, uri, in);
			js->regmark = 0;
		}
		free(uri);
		if (js->dup != NULL) {
			jss_compile_error(cc, NULL, "%s: a different schema "
			    "with the URI \"%s\" is already loaded", files[i],
			    js->dup);
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
	jss_compile_error(cc, where, "cannot load \"%s\": %s", uri, why);
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

	if (jss_file_uri_path(uri, &path) == -1) {
		buf_printf(&msg, "not a file below %s", root);
		cc_refuse(cc, where, uri, buf_cstr(&msg));
		goto out;
	}
	if ((real = realpath(path.data, NULL)) == NULL) {
		jss_compile_error(cc, where, "cannot load \"%s\": %s", uri,
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
		jss_compile_error(cc, where, "cannot load \"%s\": %s", uri,
		    why);
	else
		jss_compile_error(cc, where, "cannot load \"%s\": not JSON at "
		    "line %d, column %d: %s", uri, jerr.line, jerr.column > 0 ?
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
int
jss_load_doc(struct cctx *cc, const char *uri, const struct kpath *where)
{
	struct jsschema *js = cc->js;
	json_error_t jerr;
	json_t *doc = NULL;
	const char *rest, *why;
	struct buf path = BUF_INIT;
	const struct meta *meta;
	struct dial in;
	size_t i, n;
	int e;

	if ((meta = jss_builtin_meta(uri)) != NULL) {
		doc = jsonx_load(meta->text, *meta->len, 0, &jerr);
		if (doc == NULL) {
			jss_compile_error(cc, where, "built-in meta-schema: %s",
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
			jss_compile_error(cc, where, "$ref \"%s\" leaves the "
			    "directory it is mapped to", uri);
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
				jss_compile_error(cc, where, "cannot load "
				    "\"%s\" from %s: %s", uri, path.data, why);
			else
				jss_compile_error(cc, where, "cannot load "
				    "\"%s\" from %s: not JSON at line %d, "
				    "column %d: %s", uri, path.data, jerr.line,
				    jerr.column > 0 ? jerr.column : 1,
				    jerr.text);
			buf_free(&path);
			return -1;
		}
		buf_free(&path);
	}
	if (doc == NULL && strncasecmp(uri, "file:", 5) == 0) {
		if (jss_file_uri_path(uri, &path) == -1) {
			buf_free(&path);
			jss_compile_error(cc, where, "cannot load \"%s\": not "
			    "a local file", uri);
			return -1;
		}
		doc = read_file(path.data, &jerr, &why, &e);
		buf_free(&path);
		if (doc == NULL) {
			if (why != NULL)
				jss_compile_error(cc, where, "cannot load "
				    "\"%s\": %s", uri, why);
			else
				jss_compile_error(cc, where, "cannot load "
				    "\"%s\": not JSON at line %d, column %d: "
				    "%s", uri, jerr.line, jerr.column > 0 ?
				    jerr.column : 1, jerr.text);
			return -1;
		}
	}
	if (doc == NULL) {
		if (strchr(uri, ':') == NULL)
			jss_compile_error(cc, where, "cannot resolve $ref to "
			    "\"%s\": a relative reference, and the schema has "
			    "no base URI (no $id, no file)", uri);
		else
			jss_compile_error(cc, where, "cannot resolve $ref to "
			    "\"%s\": not loaded (give its schema with -r FILE, "
			    "or map the URI to a directory with --ref-map "
			    "URI=DIR)", uri);
		return -1;
	}
	if (jss_load_metas(cc, doc) == -1) {
		json_decref(doc);
		return -1;
	}
	/* without "$schema", the dialect of the schema that refers to it */
	in.draft = cc->draft;
	in.vocab = cc->vocab;
	in.res = doc;
	if (add_loaded(js, doc, uri, &in) == -1) {
		jss_compile_error(cc, where, "cannot load \"%s\": a different "
		    "schema with the URI \"%s\" is already loaded", uri,
		    js->dup);
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
		nb = jss_drop_empty_frag(jsschema_uri_resolve(base,
		    json_string_value(id)));
		if (strchr(nb, '#') != NULL)
			*strchr(nb, '#') = '\0';
		json_object_set_new(x->ids, nb, json_true());
		base = nb;
	}
	for (i = 0; i < sizeof(refkw) / sizeof(refkw[0]); i++) {
		if (!json_is_string(r = json_object_get(v, refkw[i])))
			continue;
		u = jsschema_uri_resolve(base, json_string_value(r));
		if (strchr(u, '#') != NULL)
			*strchr(u, '#') = '\0';
		json_array_append_new(x->refs, json_pack("[sO]", u, r));
		free(u);
	}
	r = json_object_get(v, "$schema");
	if (x->first == NULL && json_is_string(r) &&
	    jss_schema_uri_draft(json_string_value(r)) == DRAFT_UNKNOWN) {
		u = jss_drop_empty_frag(xstrdup(json_string_value(r)));
		if (jss_builtin_meta(u) == NULL)
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

	u = jss_drop_empty_frag(jsschema_uri_resolve("", uri));
	if (strchr(u, '#') != NULL)
		*strchr(u, '#') = '\0';
	doc = jss_uri_schema(js, u);
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

	base = jss_drop_empty_frag(jsschema_uri_resolve("", base_uri != NULL ?
	    base_uri : ""));
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
		    jss_builtin_meta(u) == NULL)
			x.first = json_array_get(r, 1);
	}
	if (x.first != NULL)
		found = xstrdup(json_string_value(x.first));
	json_decref(x.ids);
	json_decref(x.refs);
	free(base);
	return found;
}

/* Whether jss_load_doc() has a place to look for uri: a doc is there or not. */
static int
doc_known(const struct jsschema *js, const char *uri)
{
	size_t i;

	/* below a root, a meta-schema not had is a reference refused */
	if (jss_builtin_meta(uri) != NULL || jss_uri_schema(js, uri) != NULL ||
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
		return (int)jss_dialect_of(d)->vocab;
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
			jss_compile_error(cc, NULL, "the meta-schema \"%s\" "
			    "requires the vocabulary \"%s\", which is not "
			    "known here", uri, k);
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
	if ((doc = jss_uri_schema(js, uri)) == NULL) {
		if (jss_load_doc(cc, uri, NULL) == -1)
			return -1;
		doc = jss_uri_schema(js, uri);
	}
	sv = json_object_get(doc, "$schema");
	d = json_is_string(sv) ? jss_schema_uri_draft(json_string_value(sv)) :
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
int
jss_load_metas(struct cctx *cc, const json_t *doc)
{
	struct jsschema *js = cc->js;
	const json_t *sv;
	const char *k;
	json_t *v;
	size_t i;

	if (json_is_array(doc)) {
		json_array_foreach((json_t *)doc, i, v)
			if (jss_load_metas(cc, v) == -1)
				return -1;
		return 0;
	}
	if (!json_is_object(doc))
		return 0;
	sv = json_object_get(doc, "$schema");
	if (json_is_string(sv) && jss_schema_uri_draft(json_string_value(sv)) ==
	    DRAFT_UNKNOWN && jss_custom_meta(js, json_string_value(sv)) ==
	    NULL) {
		js->cmetas = xreallocarray(js->cmetas, js->ncmetas + 1,
		    sizeof(*js->cmetas));
		i = js->ncmetas++;
		js->cmetas[i].uri =
		    jss_drop_empty_frag(xstrdup(json_string_value(sv)));
		js->cmetas[i].draft = DRAFT_UNKNOWN;
		js->cmetas[i].vocab = 0;
		if (cmeta_read(cc, i) == -1)
			return -1;
	}
	json_object_foreach((json_t *)doc, k, v)
		if (jss_load_metas(cc, v) == -1)
			return -1;
	return 0;
}
