/*
 * Unit tests of lib/jsschema_format's libidn2, loaded when a format first
 * needs it: in this process it cannot be (LLMKIT_LIBIDN2 names a file
 * that is not there), so that every check that needs it says it cannot
 * tell, every other answers as before, and the validator stops with one
 * error. test_jsschema_format holds the answers when it loads.
 */
#include <stdlib.h>

#include <jansson.h>

#include "base/buf.h"
#include "schema/jsschema.h"
#include "schema/jsschema_format.h"
#include "unit.h"

#define NOLIB	"/nonexistent/libidn2.so.0"
#define WHY	NOLIB ": cannot open shared object file: No such file " \
		"or directory"

struct row {
	const char	*fmt;
	const char	*s;
	int		 want;
};

/*
 * Only a label that IDNA2008 must judge needs the library (idn-email
 * takes non-ASCII in its domain as idn-hostname would not: its "xn--"
 * labels alone are checked).
 */
static const struct row rows[] = {
	{ "hostname", "example.com", 1 },
	{ "hostname", "-bad.example", 0 },
	{ "hostname", "xn--bcher-kva.example", JSSCHEMA_FORMAT_TROUBLE },
	{ "email", "joe@example.com", 1 },
	{ "email", "joe@xn--bcher-kva.example", JSSCHEMA_FORMAT_TROUBLE },
	{ "idn-hostname", "example.com", 1 },
	{ "idn-hostname", "a..b", 0 },
	{ "idn-hostname", "b\303\274cher.example", JSSCHEMA_FORMAT_TROUBLE },
	{ "idn-email", "joe@example.com", 1 },
	{ "idn-email", "\303\274@b\303\274cher.example", 1 },
	{ "idn-email", "\303\274@xn--bcher-kva.example",
	    JSSCHEMA_FORMAT_TROUBLE },
	{ "idn-email", "\377@example.com", 0 },
	{ "date", "2026-11-29", 1 },
};

static void
formats(void)
{
	size_t i;

	unit_ok(jsschema_format_trouble() == NULL, "no trouble before a load");
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		unit_long(jsschema_format_check(rows[i].fmt, rows[i].s,
		    strlen(rows[i].s)), rows[i].want,
		    unit_fmt("%s \"%s\"", rows[i].fmt, rows[i].s));
	unit_str(jsschema_format_trouble() != NULL ?
	    jsschema_format_trouble() : "(null)", "cannot load libidn2 (" WHY
	    ")", "why it failed");
}

/*
 * The validator, with the notes of annotations asked for: -1 and the one
 * error, the errors before it dropped.
 */
static void
validate(const char *schema, const char *instance, const char *want,
    const char *what)
{
	json_t *s = json_loads(schema, 0, NULL);
	json_t *v = json_loads(instance, JSON_DECODE_ANY, NULL);
	struct jsschema_opts o = { JSSCHEMA_FORMAT_DIALECT, NULL, 0, 0, NULL,
	    0, 0 };
	struct jsschema_result res, notes;
	struct jsschema *js;
	struct buf got = BUF_INIT;
	char err[256];
	size_t k;

	if (s == NULL || v == NULL ||
	    (js = jsschema_compile(s, NULL, &o, err, sizeof(err))) == NULL) {
		printf("Bail out! %s: bad test schema or instance\n", what);
		exit(3);
	}
	unit_long(jsschema_validate_notes(js, v, &res, &notes), -1, what);
	for (k = 0; k < res.nerrors; k++)
		buf_printf(&got, "%s|%s|%s\n", res.errors[k].instance,
		    res.errors[k].keyword, res.errors[k].message);
	unit_str(buf_cstr(&got), want, what);
	jsschema_result_free(&res);
	jsschema_result_free(&notes);
	buf_free(&got);
	jsschema_free(js);
	json_decref(s);
	json_decref(v);
}

int
main(void)
{
	setenv("LLMKIT_LIBIDN2", NOLIB, 1);
	formats();
	validate("{\"properties\": {\"a\": {\"minimum\": 5}, \"h\": "
	    "{\"format\": \"idn-hostname\"}}}",
	    "{\"a\": 1, \"h\": \"b\303\274cher.example\"}",
	    "/h|/properties/h/format|string \"b\303\274cher.example\" "
	    "cannot be checked against the format idn-hostname: cannot load "
	    "libidn2 (" WHY ")\n", "an earlier error is dropped");
	validate("{\"anyOf\": [{\"format\": \"hostname\"}, "
	    "{\"type\": \"string\"}]}", "\"xn--bcher-kva.example\"",
	    "|/anyOf/0/format|string \"xn--bcher-kva.example\" cannot be "
	    "checked against the format hostname: cannot load libidn2 (" WHY
	    ")\n", "a branch of anyOf that cannot tell stops it all");
	validate("{\"$schema\": \"https://json-schema.org/draft/2020-12/"
	    "schema\", \"format\": \"idn-email\"}",
	    "\"\303\274@xn--bcher-kva.example\"",
	    "|/format|string \"\303\274@xn--bcher-kva.example\" cannot be "
	    "checked against the format idn-email: cannot load libidn2 ("
	    WHY ")\n", "an annotation by its dialect, checked for its note");
	return unit_done();
}
