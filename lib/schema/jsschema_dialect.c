/*
 * jsschema_dialect: the dialects this library validates (Draft-04,
 * Draft-06, Draft-07, 2019-09 and 2020-12), with their keywords, their
 * vocabularies and their formats; the built-in meta-schemas; the options
 * of a compilation; and the index, which gives every subschema (a
 * json_t) its base URI, its dialect and its resource, and registers the
 * URIs that "$id"s and anchors name.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/embed.h"
#include "base/ptab.h"
#include "base/xalloc.h"
#include "schema/jsschema.h"
#include "schema/jsschema_int.h"

/* The dialects this library validates, oldest first. */
static const struct dialect dialects[] = {
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

/* The built-in meta-schemas, by the path of their URI (as a dialect's). */
static const struct meta metas[] = {
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

/* ---- dialects ---- */

/* The dialect of draft, or NULL for one not known. */
const struct dialect *
jss_dialect_of(int draft)
{
	size_t i;

	for (i = 0; i < sizeof(dialects) / sizeof(dialects[0]); i++)
		if (dialects[i].draft == draft)
			return &dialects[i];
	return NULL;
}

/* A dialect this library validates. */
int
jss_draft_supported(int draft)
{
	return jss_dialect_of(draft) != NULL;
}

/* "Draft-04" or "2020-12", for a message; "Draft-07" for one not known. */
const char *
jss_dialect_name(int draft)
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

/*
 * The draft a "$schema" URI names: http or https, the published path,
 * with or without an empty fragment; DRAFT_UNKNOWN for any other.
 */
int
jss_schema_uri_draft(const char *uri)
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

const char *
jsschema_uri_dialect(const char *uri)
{
	int d = uri != NULL ? jss_schema_uri_draft(uri) : DRAFT_UNKNOWN;

	return jss_dialect_of(d) != NULL ? jss_dialect_name(d) : NULL;
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
const struct meta *
jss_builtin_meta(const char *uri)
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

/* ---- the index: json_t * -> base URI and node ---- */

/* What the index knows of the subschema j, or NULL. */
struct sinfo *
jss_index_get(const struct jsschema *js, const json_t *j)
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

/* A new entry for j, read against base; the caller fills in the rest. */
struct sinfo *
jss_index_add(struct jsschema *js, const json_t *j, const char *base)
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

/* The schema that uri (an id, a document, an anchor) names, or NULL. */
const json_t *
jss_uri_schema(const struct jsschema *js, const char *uri)
{
	size_t i;

	for (i = 0; i < js->nregs; i++)
		if (strcmp(js->regs[i].uri, uri) == 0)
			return js->regs[i].schema;
	return NULL;
}

/*
 * The first schema to claim a URI keeps it. A document that claims the
 * URI of another (below regmark) for different content is an error: dup.
 */
void
jss_uri_register(struct jsschema *js, const char *uri, const json_t *schema)
{
	size_t i;

	for (i = 0; i < js->nregs; i++)
		if (strcmp(js->regs[i].uri, uri) == 0) {
			if (i < js->regmark && js->dup == NULL &&
			    js->regs[i].schema != schema &&
			    !jss_json_equal(js->regs[i].schema, schema))
				js->dup = xstrdup(uri);
			return;
		}
	js->regs = xreallocarray(js->regs, js->nregs + 1, sizeof(*js->regs));
	js->regs[js->nregs].uri = xstrdup(uri);
	js->regs[js->nregs].schema = schema;
	js->nregs++;
}

static void
index_member(struct jsschema *js, const json_t *s, const char *kw,
    const char *base, const struct dial *in)
{
	const json_t *c;

	if ((c = json_object_get(s, kw)) != NULL)
		jss_index_schema(js, c, base, in, 0);
}

static void
index_array(struct jsschema *js, const json_t *a, const char *base,
    const struct dial *in)
{
	size_t i;

	if (!json_is_array(a))
		return;
	for (i = 0; i < json_array_size(a); i++)
		jss_index_schema(js, json_array_get(a, i), base, in, 0);
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
		jss_index_schema(js, v, base, in, 0);
}

/* The custom meta-schema at uri, as jss_load_metas() read it, or NULL. */
const struct cmeta *
jss_custom_meta(const struct jsschema *js, const char *uri)
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
	d->draft = jss_schema_uri_draft(json_string_value(sv));
	if ((dl = jss_dialect_of(d->draft)) != NULL)
		d->vocab = dl->vocab;
	else if ((cm = jss_custom_meta(js, json_string_value(sv))) != NULL) {
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
		jss_uri_register(js, buf_cstr(&b), s);
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
void
jss_index_schema(struct jsschema *js, const json_t *s, const char *base,
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
		if (jss_index_get(js, s) == NULL) {
			si = jss_index_add(js, s, base);
			si->draft = in->draft;
			si->vocab = in->vocab;
			si->res = in->res;
		}
		return;
	}
	if (!json_is_object(s) || jss_index_get(js, s) != NULL)
		return;
	d = jss_dialect_of(dl.draft);
	id = json_object_get(s, d != NULL ? d->idkw : "$id");
	sv = json_object_get(s, "$schema");
	if (sv != NULL && (root || json_is_string(id)) && s != js->forceroot) {
		schema_dialect(js, sv, &dl);
		d = jss_dialect_of(dl.draft);
		id = json_object_get(s, d != NULL ? d->idkw : "$id");
	} else
		sv = NULL;
	kw = d != NULL ? d->kw : 0;
	if (root)
		dl.res = s;
	if (json_is_string(id) && ((kw & KW_2019) ||
	    json_object_get(s, "$ref") == NULL)) {
		abs = jsschema_uri_resolve(base, json_string_value(id));
		hash = strchr(abs, '#');
		if (hash != NULL && hash[1] != '\0') {
			jss_uri_register(js, abs, s);
			if (json_string_value(id)[0] != '#') {
				*hash = '\0';
				jss_uri_register(js, abs, s);
				nb = abs;
				dl.res = s;
			}
		} else {
			nb = jss_drop_empty_frag(abs);
			jss_uri_register(js, nb, s);
			dl.res = s;
		}
	}
	si = jss_index_add(js, s, nb);
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
		jss_index_schema(js, items, nb, &dl, 0);
	index_array(js, json_object_get(s, "allOf"), nb, &dl);
	index_array(js, json_object_get(s, "anyOf"), nb, &dl);
	index_array(js, json_object_get(s, "oneOf"), nb, &dl);
	index_map(js, json_object_get(s, "definitions"), nb, &dl);
	index_map(js, json_object_get(s, "properties"), nb, &dl);
	index_map(js, json_object_get(s, "patternProperties"), nb, &dl);
	index_map(js, json_object_get(s, "dependencies"), nb, &dl);
	free(abs);
}

/*
 * The root of a document: its dialect is its "$schema", or in (that of
 * the schema that refers to it), or with in NULL the default.
 */
void
jss_index_document(struct jsschema *js, const json_t *s, const char *base,
    const struct dial *in)
{
	struct dial d;

	if (in != NULL)
		d = *in;
	else {
		d.draft = js->draft;
		d.vocab = jss_dialect_of(js->draft)->vocab;
	}
	d.res = s;
	jss_index_schema(js, s, base, &d, 1);
}

/*
 * The dialect the root of the document s is read in, before it is
 * indexed: its "$schema" when that names a dialect known here (one of
 * the drafts, or a meta-schema read), the default otherwise.
 */
void
jss_root_dialect(const struct jsschema *js, const json_t *s, struct dial *d)
{
	const json_t *sv = json_object_get(s, "$schema");

	d->draft = js->draft;
	d->vocab = jss_dialect_of(js->draft)->vocab;
	d->res = s;
	if (sv == NULL || s == js->forceroot)
		return;
	schema_dialect(js, sv, d);
	if (!jss_draft_supported(d->draft)) {
		d->draft = js->draft;
		d->vocab = jss_dialect_of(js->draft)->vocab;
	}
}
