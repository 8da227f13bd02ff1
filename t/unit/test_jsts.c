/*
 * The JSON-Schema-Test-Suite over lib/jsschema: every case of the .json
 * files of tests/draft4/, draft6/ and draft7/, each under its draft, one
 * TAP line per file with its counts, and a closing "# N passed, N failed"
 * per draft. A draft's directory missing from the suite is a failure.
 * The optional format cases of the formats lib/jsformat knows are run
 * and reported on comment lines, but only the required cases decide the
 * verdict. The suite is found in
 * $LLMKIT_JSTS, ../shared/testsuites/JSON-Schema-Test-Suite (from the
 * repository top, where the unit tests run) or, as Debian's package
 * json-schema-test-suite installs it, /usr/share/json-schema-test-suite.
 */
#include <sys/stat.h>

#include <glob.h>

#include <jansson.h>

#include "jsschema.h"
#include "unit.h"

static const char *const formats[] = {
	"date-time", "date", "time", "email", "hostname", "idn-hostname", "ipv4",
	"ipv6",
	"uri", "uri-reference", "json-pointer", "relative-json-pointer",
	"regex",
};

static const struct {
	const char	*dir;
	int		 draft;
} drafts[] = {
	{ "draft4", JSSCHEMA_DRAFT4 },
	{ "draft6", JSSCHEMA_DRAFT6 },
	{ "draft7", JSSCHEMA_DRAFT7 },
};

static int
is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static const char *
suite_dir(void)
{
	const char *e = getenv("LLMKIT_JSTS");

	if (e != NULL && *e != '\0')
		return e;
	if (is_dir("../shared/testsuites/JSON-Schema-Test-Suite/tests/draft7"))
		return "../shared/testsuites/JSON-Schema-Test-Suite";
	if (is_dir("/usr/share/json-schema-test-suite/tests/draft7"))
		return "/usr/share/json-schema-test-suite";
	return NULL;
}

/*
 * Runs the cases of one file; adds to *pass and *fail. With verbose, each
 * failing test gets a comment line.
 */
static void
run_file(const char *path, const struct jsschema_opts *opts, int verbose,
    size_t *pass, size_t *fail)
{
	json_error_t jerr;
	json_t *cases, *c, *tests, *t;
	struct jsschema *js;
	struct jsschema_result res;
	char err[512];
	size_t i, j;
	int got, want;

	if ((cases = json_load_file(path, JSON_ALLOW_NUL, &jerr)) == NULL) {
		printf("Bail out! %s: %s\n", path, jerr.text);
		exit(3);
	}
	json_array_foreach(cases, i, c) {
		tests = json_object_get(c, "tests");
		js = jsschema_compile(json_object_get(c, "schema"), NULL, opts,
		    err, sizeof(err));
		if (js == NULL) {
			*fail += json_array_size(tests);
			printf("#   %s: \"%s\": does not compile: %s\n", path,
			    json_string_value(json_object_get(c,
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
}

/*
 * The required cases of tests/SUB/ under opts, a TAP line per file, then
 * the optional format cases reported. No such directory, or one without
 * files, fails.
 */
static void
run_draft(const char *dir, const char *sub, const struct jsschema_opts *opts)
{
	char pattern[4096];
	glob_t g;
	size_t i, pass, fail, tpass = 0, tfail = 0, fpass = 0, ffail = 0;

	snprintf(pattern, sizeof(pattern), "%s/tests/%s/*.json", dir, sub);
	if (glob(pattern, 0, NULL, &g) != 0 || g.gl_pathc == 0) {
		unit_ok(0, unit_fmt("%s: no files match %s", sub, pattern));
		return;
	}
	for (i = 0; i < g.gl_pathc; i++) {
		pass = fail = 0;
		run_file(g.gl_pathv[i], opts, 1, &pass, &fail);
		unit_ok(fail == 0, unit_fmt("%s/%s: %zu passed, %zu failed",
		    sub, strrchr(g.gl_pathv[i], '/') + 1, pass, fail));
		tpass += pass;
		tfail += fail;
	}
	globfree(&g);

	printf("# %s optional formats (reported only):\n", sub);
	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		snprintf(pattern, sizeof(pattern),
		    "%s/tests/%s/optional/format/%s.json", dir, sub,
		    formats[i]);
		if (access(pattern, R_OK) != 0) {
			printf("# %s optional format %s: not in this suite\n",
			    sub, formats[i]);
			continue;
		}
		pass = fail = 0;
		run_file(pattern, opts, 1, &pass, &fail);
		printf("# %s optional format %s: %zu passed, %zu failed\n",
		    sub, formats[i], pass, fail);
		fpass += pass;
		ffail += fail;
	}
	printf("# %s optional formats: %zu passed, %zu failed\n", sub, fpass,
	    ffail);
	printf("# %s: %zu passed, %zu failed\n", sub, tpass, tfail);
}

int
main(void)
{
	const char *dir = suite_dir();
	struct jsschema_refmap map;
	struct jsschema_opts opts;
	char *remotes;
	size_t d, n;

	if (dir == NULL) {
		printf("Bail out! JSON-Schema-Test-Suite not found (set "
		    "LLMKIT_JSTS)\n");
		return 3;
	}
	n = strlen(dir) + 64;
	if ((remotes = malloc(n)) == NULL)
		unit_bail("malloc");
	snprintf(remotes, n, "%s/remotes/", dir);
	map.uri = "http://localhost:1234/";
	map.dir = remotes;
	opts.format = JSSCHEMA_FORMAT_DIALECT;
	opts.refmap = &map;
	opts.nrefmap = 1;
	opts.draft = 0;
	opts.files = NULL;
	opts.nfiles = 0;

	for (d = 0; d < sizeof(drafts) / sizeof(drafts[0]); d++) {
		opts.draft = drafts[d].draft;
		run_draft(dir, drafts[d].dir, &opts);
	}
	free(remotes);
	return unit_done();
}
