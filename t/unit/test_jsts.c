/*
 * The JSON-Schema-Test-Suite over lib/jsschema: every case of the .json
 * files of tests/draft4/, draft6/, draft7/, draft2019-09/ and
 * draft2020-12/, each under its draft, one TAP line per file with its
 * counts, and a closing "# N passed, N failed" per draft; then the
 * required cases again as people write schemas, each schema given the
 * "$schema" of its draft when it has none and no draft in the options
 * (TAP lines "$schema draft4/ref.json: ..."). A draft that no
 * suite holds is a failure. Every file of optional/ and optional/format/
 * is run too and reported on a comment line
 * ("# optional draft7/optional/format/email.json: 20 passed, 0 failed"),
 * never deciding the verdict; in 2019-09 and 2020-12, where "format" is
 * an annotation, the files of optional/format/ are run with format
 * asserted (optional/format-assertion.json, about the dialect's own rule,
 * is not one of them). With LLMKIT_JSTS_VERBOSE set, each failing
 * optional case gets a comment line too, as the required ones always do.
 *
 * A draft is taken from the first of these that holds tests/DRAFT:
 * $LLMKIT_JSTS (alone, when set), ../shared/testsuites/
 * JSON-Schema-Test-Suite (from the repository top, where the unit tests
 * run), the copy in Debian's libtest-json-schema-acceptance-perl (every
 * draft) and Debian's json-schema-test-suite (draft3 to draft7).
 */
#include <sys/stat.h>

#include <glob.h>

#include <jansson.h>

#include "schema/jsschema.h"
#include "unit.h"

#define SUITE_SHARED	"../shared/testsuites/JSON-Schema-Test-Suite"
#define SUITE_PERL	"/usr/share/perl5/auto/share/dist/" \
			"Test-JSON-Schema-Acceptance"
#define SUITE_DEBIAN	"/usr/share/json-schema-test-suite"

static const struct {
	const char	*dir;
	int		 draft;
	const char	*uri;		/* its "$schema" */
} drafts[] = {
	{ "draft4", JSSCHEMA_DRAFT4, "http://json-schema.org/draft-04/schema#" },
	{ "draft6", JSSCHEMA_DRAFT6, "http://json-schema.org/draft-06/schema#" },
	{ "draft7", JSSCHEMA_DRAFT7, "http://json-schema.org/draft-07/schema#" },
	{ "draft2019-09", JSSCHEMA_DRAFT2019,
	    "https://json-schema.org/draft/2019-09/schema" },
	{ "draft2020-12", JSSCHEMA_DRAFT2020,
	    "https://json-schema.org/draft/2020-12/schema" },
};

static int
has_draft(const char *dir, const char *sub)
{
	char p[4096];
	struct stat st;

	snprintf(p, sizeof(p), "%s/tests/%s", dir, sub);
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * The suite that holds tests/SUB, or NULL after a failing TAP line that
 * says where it was looked for.
 */
static const char *
suite_dir(const char *sub)
{
	static const char *const dirs[] = {
		SUITE_SHARED, SUITE_PERL, SUITE_DEBIAN,
	};
	const char *e = getenv("LLMKIT_JSTS");
	size_t i;

	if (e != NULL && *e != '\0') {
		if (has_draft(e, sub))
			return e;
		unit_ok(0, unit_fmt("%s: LLMKIT_JSTS=%s holds no tests/%s",
		    sub, e, sub));
		return NULL;
	}
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (has_draft(dirs[i], sub))
			return dirs[i];
	unit_ok(0, unit_fmt("%s: no JSON-Schema-Test-Suite holds tests/%s "
	    "(looked in $LLMKIT_JSTS, unset, %s, %s and %s): install "
	    "Debian's libtest-json-schema-acceptance-perl (tools/deps) or "
	    "set LLMKIT_JSTS", sub, sub, SUITE_SHARED, SUITE_PERL,
	    SUITE_DEBIAN));
	return NULL;
}

/*
 * The schema of a case as people write one: given the "$schema" of the
 * draft (uri) when it has none, so that no option names the draft; a
 * new reference. Booleans and objects with a "$schema" are kept.
 */
static json_t *
with_schema(json_t *schema, const char *uri)
{
	json_t *c;

	if (uri == NULL || !json_is_object(schema) ||
	    json_object_get(schema, "$schema") != NULL)
		return json_incref(schema);
	c = json_object();
	json_object_set_new(c, "$schema", json_string(uri));
	json_object_update(c, schema);
	return c;
}

/*
 * Runs the cases of one file; adds to *pass and *fail. With verbose, each
 * failing test gets a comment line. A file with integers beyond jansson's
 * (optional/bignum.json) is read as jsonresp-check reads every file,
 * each number a double. Returns -1, with the reason in err, when the file
 * cannot be read.
 */
static int
run_file(const char *path, const struct jsschema_opts *opts, const char *uri,
    int verbose, size_t *pass, size_t *fail, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *cases, *c, *tests, *t, *schema;
	struct jsschema *js;
	struct jsschema_result res;
	size_t i, j;
	int got, want;

	if ((cases = json_load_file(path, JSON_ALLOW_NUL, &jerr)) == NULL &&
	    (cases = json_load_file(path, JSON_ALLOW_NUL |
	    JSON_DECODE_INT_AS_REAL, &jerr)) == NULL) {
		snprintf(err, errlen, "%s", jerr.text);
		return -1;
	}
	json_array_foreach(cases, i, c) {
		tests = json_object_get(c, "tests");
		schema = with_schema(json_object_get(c, "schema"), uri);
		js = jsschema_compile(schema, NULL, opts, err, errlen);
		json_decref(schema);
		if (js == NULL) {
			*fail += json_array_size(tests);
			if (verbose)
				printf("#   %s: \"%s\": does not compile: %s\n",
				    path, json_string_value(json_object_get(c,
				    "description")), err);
			continue;
		}
		json_array_foreach(tests, j, t) {
			want = json_is_true(json_object_get(t, "valid"));
			got = jsschema_validate(js, json_object_get(t, "data"),
			    &res) == 0;
			if (got == want)
				(*pass)++;
			else {
				(*fail)++;
				if (verbose)
					printf("#   %s: \"%s\" / \"%s\": got "
					    "%s, want %s\n", path,
					    json_string_value(json_object_get(
					    c, "description")),
					    json_string_value(json_object_get(
					    t, "description")),
					    got ? "valid" : "invalid",
					    want ? "valid" : "invalid");
			}
			jsschema_result_free(&res);
		}
		jsschema_free(js);
	}
	json_decref(cases);
	return 0;
}

/*
 * The optional cases of the files matching tests/SUB/GLOB: a comment line
 * per file, added to *tpass and *tfail.
 */
static void
run_optional(const char *dir, const char *sub, const char *pat,
    const struct jsschema_opts *opts, size_t *tpass, size_t *tfail)
{
	char pattern[4096], err[512];
	glob_t g;
	size_t i, pass, fail, skip = strlen(dir) + strlen("/tests/");
	int verbose = getenv("LLMKIT_JSTS_VERBOSE") != NULL;

	snprintf(pattern, sizeof(pattern), "%s/tests/%s/%s", dir, sub, pat);
	if (glob(pattern, 0, NULL, &g) != 0) {
		printf("# optional %s/%s: no such files\n", sub, pat);
		return;
	}
	for (i = 0; i < g.gl_pathc; i++) {
		pass = fail = 0;
		if (run_file(g.gl_pathv[i], opts, NULL, verbose, &pass, &fail,
		    err, sizeof(err)) == -1)
			printf("# optional %s: cannot be read: %s\n",
			    g.gl_pathv[i] + skip, err);
		else
			printf("# optional %s: %zu passed, %zu failed\n",
			    g.gl_pathv[i] + skip, pass, fail);
		*tpass += pass;
		*tfail += fail;
	}
	globfree(&g);
}

/*
 * The required cases of tests/SUB/ under opts, a TAP line per file, then
 * the optional cases reported. With uri, each case's schema is given
 * that "$schema" when it has none (opts names no draft), and the
 * required cases alone are run, their TAP lines beginning "$schema". No
 * such directory, or one without files, fails.
 */
static void
run_draft(const char *dir, const char *sub, const struct jsschema_opts *opts,
    const char *uri)
{
	const char *how = uri != NULL ? "$schema " : "";
	struct jsschema_opts fopts = *opts;
	char pattern[4096], err[512];
	glob_t g;
	size_t i, pass, fail, tpass = 0, tfail = 0, opass = 0, ofail = 0;

	snprintf(pattern, sizeof(pattern), "%s/tests/%s/*.json", dir, sub);
	if (glob(pattern, 0, NULL, &g) != 0 || g.gl_pathc == 0) {
		unit_ok(0, unit_fmt("%s: no files match %s", sub, pattern));
		return;
	}
	for (i = 0; i < g.gl_pathc; i++) {
		pass = fail = 0;
		if (run_file(g.gl_pathv[i], opts, uri, 1, &pass, &fail, err,
		    sizeof(err)) == -1)
			unit_ok(0, unit_fmt("%s%s/%s: cannot be read: %s", how,
			    sub, strrchr(g.gl_pathv[i], '/') + 1, err));
		else
			unit_ok(fail == 0, unit_fmt("%s%s/%s: %zu passed, %zu "
			    "failed", how, sub, strrchr(g.gl_pathv[i], '/') + 1,
			    pass, fail));
		tpass += pass;
		tfail += fail;
	}
	globfree(&g);
	if (uri != NULL) {
		printf("# %s with $schema (%s): %zu passed, %zu failed\n", sub,
		    dir, tpass, tfail);
		return;
	}

	if (opts->draft == JSSCHEMA_DRAFT2019 ||
	    opts->draft == JSSCHEMA_DRAFT2020)
		fopts.format = JSSCHEMA_FORMAT_ASSERT;
	run_optional(dir, sub, "optional/*.json", opts, &opass, &ofail);
	run_optional(dir, sub, "optional/format/*.json", &fopts, &opass,
	    &ofail);
	printf("# %s optional (reported only): %zu passed, %zu failed\n", sub,
	    opass, ofail);
	printf("# %s (%s): %zu passed, %zu failed\n", sub, dir, tpass, tfail);
}

int
main(void)
{
	const char *dir;
	struct jsschema_refmap map;
	struct jsschema_opts opts;
	char remotes[4096];
	size_t d;

	map.uri = "http://localhost:1234/";
	map.dir = remotes;
	opts.format = JSSCHEMA_FORMAT_DIALECT;
	opts.refmap = &map;
	opts.nrefmap = 1;
	opts.files = NULL;
	opts.nfiles = 0;
	opts.dialect = 0;

	for (d = 0; d < sizeof(drafts) / sizeof(drafts[0]); d++) {
		if ((dir = suite_dir(drafts[d].dir)) == NULL)
			continue;
		snprintf(remotes, sizeof(remotes), "%s/remotes/", dir);
		opts.draft = drafts[d].draft;
		run_draft(dir, drafts[d].dir, &opts, NULL);
		opts.draft = 0;
		run_draft(dir, drafts[d].dir, &opts, drafts[d].uri);
	}
	return unit_done();
}
