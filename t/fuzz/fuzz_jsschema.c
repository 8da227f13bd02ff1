/*
 * fuzz_jsschema: lib/jsschema on any schema and any instance. The input
 * is the schema's text, a NUL byte, then the instance's text (without a
 * NUL byte the whole input is both); each is read as jsonresp-check reads
 * it. When the schema compiles, the instance is validated twice, with
 * "format" asserted or not as a bit of the input's hash says. Then:
 * jsschema_validate returns 0 exactly when it reports no error and 1
 * otherwise (or -1 with one error when libidn2 cannot be loaded, which
 * is said once it was tried); every error has a one-line message, an instance pointer that
 * resolves in the instance (to the error's value, or to the object whose
 * property name failed), and a keyword pointer that is empty or starts
 * with "/"; the second run, which notes the formats that are annotations
 * and fail (jsschema_validate_notes), reports the same errors in the same
 * order, and its notes are about strings and hold as errors do; and
 * the schemas {} and true accept the instance while false rejects it.
 * A schema without "$schema" is read in one of the five dialects, as
 * another byte of the hash says, and a third byte may read it in one of
 * them whatever its "$schema" says (--dialect). A schema that compiles
 * is linted: each finding has a rule and a one-line message, its
 * subschema's pointer resolves to an object of the schema, and its
 * keyword's pointer is that pointer and one more segment, and resolves.
 * A schema that does not compile must say why. A schema whose text names "llmkit.test/meta/" is compiled with
 * the custom meta-schemas below loaded (as by -r FILE), so that its
 * "$schema" can choose vocabularies. Anything else aborts; ASan's leak
 * check covers the frees.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "schema/jsschema.h"
#include "schema/jsschema_format.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* As jsonresp-check reads a schema (and, but for the EOF check, a response). */
#define READ_FLAGS	(JSON_DECODE_ANY | JSON_ALLOW_NUL | \
			 JSON_DECODE_INT_AS_REAL)

static void
fail(const char *why, const char *a, const char *b)
{
	fprintf(stderr, "fuzz_jsschema: %s\n%s\n%s\n", why,
	    a != NULL ? a : "(null)", b != NULL ? b : "(null)");
	abort();
}

/*
 * The value at JSON Pointer p in v, or NULL when p does not resolve:
 * "" is v, and each "/segment" (~1 for "/", ~0 for "~") steps into an
 * object's member or an array's element (decimal, no leading zero).
 */
static const json_t *
resolve(const json_t *v, const char *p)
{
	char *key;
	size_t k, i;

	/* a segment is no longer than the pointer (a key may be long) */
	if ((key = malloc(strlen(p) + 1)) == NULL)
		abort();
	while (v != NULL && *p != '\0') {
		if (*p++ != '/') {
			v = NULL;
			break;
		}
		for (k = 0; *p != '\0' && *p != '/'; p++) {
			if (*p == '~') {
				if (p[1] == '0')
					key[k++] = '~';
				else if (p[1] == '1')
					key[k++] = '/';
				else
					break;
				p++;
			} else
				key[k++] = *p;
		}
		if (*p == '~') {
			v = NULL;
			break;
		}
		key[k] = '\0';
		if (json_is_object(v))
			v = json_object_get(v, key);
		else if (json_is_array(v)) {
			for (i = 0; i < k && key[i] >= '0' && key[i] <= '9'; i++)
				continue;
			if (k == 0 || (k > 1 && key[0] == '0') || k > 9 ||
			    i < k)
				v = NULL;
			else
				v = json_array_get(v, strtoul(key, NULL, 10));
		} else
			v = NULL;
	}
	free(key);
	return v;
}

/* One finding of jsschema_lint on the schema arg. */
static void
check_lint(void *arg, const struct jsschema_lint *f)
{
	const json_t *schema = arg;
	size_t n = strlen(f->pointer);

	if (f->rule == NULL || f->message[0] == '\0' ||
	    strchr(f->message, '\n') != NULL)
		fail("a lint finding without a rule or a one-line message",
		    f->rule, f->message);
	if (!json_is_object(resolve(schema, f->pointer)))
		fail("a lint finding's pointer is no object of the schema",
		    f->pointer, f->message);
	if (strncmp(f->keyword, f->pointer, n) != 0 || f->keyword[n] != '/' ||
	    strchr(f->keyword + n + 1, '/') != NULL ||
	    resolve(schema, f->keyword) == NULL)
		fail("a lint finding's keyword is not in its subschema",
		    f->keyword, f->pointer);
}

static void
check_result(int rc, const struct jsschema_result *r, const json_t *inst)
{
	const struct jsschema_error *e;
	const json_t *at;
	size_t i;

	if (rc == -1 && (jsschema_format_trouble() == NULL ||
	    r->nerrors != 1))
		fail("-1 without libidn2's trouble and its one error", NULL,
		    NULL);
	if (rc != 0 && rc != 1 && rc != -1)
		fail("jsschema_validate returned neither 0, 1 nor -1", NULL,
		    NULL);
	if ((rc == 0) != (r->nerrors == 0))
		fail("the status does not match the number of errors", NULL,
		    NULL);
	if (rc == 0 && r->errors != NULL)
		fail("errors left after a valid instance", NULL, NULL);
	for (i = 0; i < r->nerrors; i++) {
		e = &r->errors[i];
		if (e->message == NULL || e->message[0] == '\0' ||
		    strchr(e->message, '\n') != NULL)
			fail("an error without a one-line message", e->instance,
			    e->message);
		if (e->instance == NULL || e->keyword == NULL)
			fail("an error without its pointers", e->instance,
			    e->keyword);
		if (e->keyword[0] != '\0' && e->keyword[0] != '/')
			fail("a keyword pointer that is not a pointer",
			    e->keyword, e->message);
		if ((at = resolve(inst, e->instance)) == NULL)
			fail("an instance pointer that does not resolve",
			    e->instance, e->message);
		if (e->value != at)
			fail("an error's value is not the value at its pointer",
			    e->instance, e->message);
	}
}

static int
same_result(const struct jsschema_result *a, const struct jsschema_result *b)
{
	size_t i;

	if (a->nerrors != b->nerrors)
		return 0;
	for (i = 0; i < a->nerrors; i++)
		if (strcmp(a->errors[i].instance, b->errors[i].instance) != 0 ||
		    strcmp(a->errors[i].keyword, b->errors[i].keyword) != 0 ||
		    strcmp(a->errors[i].message, b->errors[i].message) != 0 ||
		    a->errors[i].value != b->errors[i].value)
			return 0;
	return 1;
}

static const int drafts[] = {
	JSSCHEMA_DRAFT4, JSSCHEMA_DRAFT6, JSSCHEMA_DRAFT7, JSSCHEMA_DRAFT2019,
	JSSCHEMA_DRAFT2020
};
#define NDRAFTS	(sizeof(drafts) / sizeof(drafts[0]))

/*
 * Meta-schemas with a "$vocabulary" of their own: 2020-12 without the
 * validation vocabulary (and an unknown optional one), 2020-12 with
 * format-assertion, 2019-09 with only core, applicator and format, and
 * one that requires a vocabulary not known here.
 */
#define V20	"\"https://json-schema.org/draft/2020-12/vocab/"
#define M20	"{\"$ref\": \"https://json-schema.org/draft/2020-12/meta/"
#define V19	"\"https://json-schema.org/draft/2019-09/vocab/"
#define M19	"{\"$ref\": \"https://json-schema.org/draft/2019-09/meta/"
static const char *const metas[] = {
	"{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\","
	" \"$id\": \"https://llmkit.test/meta/2020-no-validation\","
	" \"$vocabulary\": {" V20 "core\": true, " V20 "applicator\": true,"
	" " V20 "unevaluated\": true, \"https://llmkit.test/vocab/x\": false},"
	" \"$dynamicAnchor\": \"meta\", \"allOf\": [" M20 "core\"},"
	" " M20 "applicator\"}, " M20 "unevaluated\"}]}",
	"{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\","
	" \"$id\": \"https://llmkit.test/meta/2020-format-assertion\","
	" \"$vocabulary\": {" V20 "core\": true, " V20 "applicator\": true,"
	" " V20 "validation\": true, " V20 "format-assertion\": false},"
	" \"$dynamicAnchor\": \"meta\", \"allOf\": [" M20 "core\"},"
	" " M20 "applicator\"}, " M20 "validation\"}]}",
	"{\"$schema\": \"https://json-schema.org/draft/2019-09/schema\","
	" \"$id\": \"https://llmkit.test/meta/2019-no-validation\","
	" \"$vocabulary\": {" V19 "core\": true, " V19 "applicator\": true,"
	" " V19 "format\": true}, \"$recursiveAnchor\": true,"
	" \"allOf\": [" M19 "core\"}, " M19 "applicator\"},"
	" " M19 "format\"}]}",
	"{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\","
	" \"$id\": \"https://llmkit.test/meta/2020-unknown\","
	" \"$vocabulary\": {" V20 "core\": true,"
	" \"https://llmkit.test/vocab/x\": true}}"
};
#define NMETAS	(sizeof(metas) / sizeof(metas[0]))
static char path[NMETAS][32];
static const char *paths[NMETAS];

/* Whether the n bytes at s hold "llmkit.test/meta/". */
static int
names_meta(const char *s, size_t n)
{
	static const char w[] = "llmkit.test/meta/";
	const char *p, *end = s + n;

	for (p = s; (p = memchr(p, 'l', (size_t)(end - p))) != NULL &&
	    (size_t)(end - p) >= sizeof(w) - 1; p++)
		if (memcmp(p, w, sizeof(w) - 1) == 0)
			return 1;
	return 0;
}

/*
 * Writes the meta-schemas, once, to files that are unlinked at once and
 * read through /proc/self/fd (Linux), so that no run leaves them behind.
 */
static void
init_metas(void)
{
	char tmpl[] = "/tmp/fuzz_jsschema.XXXXXX";
	size_t i, n;
	int fd;

	for (i = 0; i < NMETAS; i++) {
		memcpy(tmpl + sizeof(tmpl) - 7, "XXXXXX", 6);
		if ((fd = mkstemp(tmpl)) == -1 || unlink(tmpl) == -1)
			abort();
		n = strlen(metas[i]);
		if (write(fd, metas[i], n) != (ssize_t)n)
			abort();
		snprintf(path[i], sizeof(path[i]), "/proc/self/fd/%d", fd);
		paths[i] = path[i];
	}
}

/* The schemas {}, true and false, compiled once. */
static struct jsschema *trivial[3];

static void
init_trivial(void)
{
	static const char *const text[3] = { "{}", "true", "false" };
	const struct jsschema_opts opts = { 0, NULL, 0, 0, NULL, 0, 0 };
	char err[256];
	json_t *v;
	int i;

	for (i = 0; i < 3; i++) {
		if ((v = json_loads(text[i], JSON_DECODE_ANY, NULL)) == NULL ||
		    (trivial[i] = jsschema_compile(v, NULL, &opts, err,
		    sizeof(err))) == NULL)
			abort();
		json_decref(v);
	}
}

static void
check_trivial(const json_t *inst)
{
	struct jsschema_result r = { NULL, 0 };
	int i, rc;

	for (i = 0; i < 3; i++) {
		rc = jsschema_validate(trivial[i], inst, &r);
		check_result(rc, &r, inst);
		if (rc != (i == 2))
			fail(i == 2 ? "false accepted an instance" :
			    "{} or true rejected an instance", i == 2 ?
			    "false" : i == 0 ? "{}" : "true",
			    r.nerrors > 0 ? r.errors[0].message : NULL);
		jsschema_result_free(&r);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data, *nul;
	struct jsschema_result r1 = { NULL, 0 }, r2 = { NULL, 0 };
	struct jsschema_result notes;
	struct jsschema_opts opts = { 0, NULL, 0, 0, NULL, 0, 0 };
	struct jsschema *js;
	size_t slen, ilen;
	uint32_t h = 2166136261u;
	json_t *schema, *inst;
	char err[512];
	int rc1, rc2;
	size_t i;

	if (trivial[0] == NULL) {
		init_trivial();
		init_metas();
	}
	for (i = 0; i < size; i++)
		h = (h ^ data[i]) * 16777619u;
	opts.format = (int)((h >> 29) % 3);
	opts.draft = drafts[(h >> 8) % NDRAFTS];	/* without "$schema" */
	if ((h >> 16) % 4 == 0)				/* --dialect */
		opts.dialect = drafts[(h >> 18) % NDRAFTS];

	nul = memchr(in, '\0', size);
	slen = nul != NULL ? (size_t)(nul - in) : size;
	ilen = nul != NULL ? size - slen - 1 : size;
	inst = json_loadb(nul != NULL ? nul + 1 : in, ilen, READ_FLAGS, NULL);
	if (inst != NULL)
		check_trivial(inst);
	if (names_meta(in, slen)) {
		opts.files = paths;
		opts.nfiles = NMETAS;
	}
	if ((schema = json_loadb(in, slen, READ_FLAGS, NULL)) == NULL) {
		json_decref(inst);
		return 0;
	}
	err[0] = '\0';
	js = jsschema_compile(schema, NULL, &opts, err, sizeof(err));
	if (js == NULL) {
		if (err[0] == '\0' || memchr(err, '\0', sizeof(err)) == NULL)
			fail("a schema refused without a message", NULL, NULL);
		json_decref(schema);
		json_decref(inst);
		return 0;
	}
	jsschema_lint(js, check_lint, schema);
	json_decref(schema);
	if (inst != NULL) {
		rc1 = jsschema_validate(js, inst, &r1);
		check_result(rc1, &r1, inst);
		/* the second with notes: they change no error */
		rc2 = jsschema_validate_notes(js, inst, &r2, &notes);
		check_result(rc2, &r2, inst);
		check_result(notes.nerrors > 0, &notes, inst);
		for (i = 0; i < notes.nerrors; i++)
			if (!json_is_string(notes.errors[i].value))
				fail("a note about a value that is no string",
				    notes.errors[i].instance,
				    notes.errors[i].message);
		/* an annotation may need libidn2 where an assertion did not */
		if (rc2 != -1 && (rc1 != rc2 || !same_result(&r1, &r2)))
			fail("a second validation gave other errors", NULL,
			    NULL);
		jsschema_result_free(&r1);
		jsschema_result_free(&r2);
		jsschema_result_free(&notes);
		json_decref(inst);
	}
	jsschema_free(js);
	return 0;
}
