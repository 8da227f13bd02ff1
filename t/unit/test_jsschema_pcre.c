/*
 * Unit tests of lib/schema's PCRE2, loaded when a pattern is first
 * compiled: in this process it cannot be (LLMKIT_LIBPCRE2 names a file
 * that is not there), so that no pattern compiles and says why, a schema
 * with one fails to compile as trouble (errno ELIBACC), the regex format
 * cannot tell, and what needs no pattern answers as before.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "schema/jsschema.h"
#include "schema/jsschema_format.h"
#include "schema/jsschema_regex.h"
#include "unit.h"

#define NOLIB	"/nonexistent/libpcre2-8.so.0"
#define WHY	"cannot load libpcre2-8 (" NOLIB ": cannot open shared " \
		"object file: No such file or directory)"

static void
regex(void)
{
	char err[256], tiny[8];

	unit_ok(jsschema_regex_trouble() == NULL, "no trouble before a load");
	unit_ok(jsschema_regex_compile("a+", 2, err, sizeof(err)) == NULL,
	    "a pattern does not compile");
	unit_str(err, WHY, "and err says why");
	unit_str(jsschema_regex_trouble() != NULL ? jsschema_regex_trouble() :
	    "(null)", WHY, "as jsschema_regex_trouble does");
	unit_ok(jsschema_regex_compile("(", 1, tiny, sizeof(tiny)) == NULL,
	    "nor does a bad one");
	unit_str(tiny, "cannot ", "a short err is cut, ended");
	unit_ok(jsschema_regex_compile("a", 1, NULL, 0) == NULL,
	    "no room for err");
}

static void
formats(void)
{
	unit_long(jsschema_format_check("regex", "a+", 2),
	    JSSCHEMA_FORMAT_TROUBLE, "the regex format cannot tell");
	unit_str(jsschema_format_trouble() != NULL ?
	    jsschema_format_trouble() : "(null)", WHY, "and says why");
	unit_long(jsschema_format_check("idn-hostname", "example.com", 11), 1,
	    "an ASCII idn-hostname needs no PCRE2");
	unit_long(jsschema_format_check("idn-hostname", "1.example", 9), 1,
	    "nor one with a digit first");
	unit_long(jsschema_format_check("idn-hostname", "-a.example", 10), 0,
	    "nor a bad one");
	unit_long(jsschema_format_check("date", "2026-11-29", 10), 1,
	    "a date needs none");
}

/* jsschema_compile of schema: NULL with errno want and the message. */
static void
compile(const char *schema, int want, const char *msg, const char *what)
{
	json_t *s = json_loads(schema, 0, NULL);
	struct jsschema *js;
	char err[512];

	if (s == NULL) {
		printf("Bail out! %s: bad test schema\n", what);
		exit(3);
	}
	errno = 0;
	js = jsschema_compile(s, NULL, NULL, err, sizeof(err));
	unit_ok(js == NULL, what);
	unit_long(errno, want, what);
	unit_str(js == NULL ? err : "(compiled)", msg, what);
	jsschema_free(js);
	json_decref(s);
}

int
main(void)
{
	json_t *s;
	struct jsschema *js;
	char err[256];

	setenv("LLMKIT_LIBPCRE2", NOLIB, 1);
	s = json_loads("{\"properties\": {\"a\": {\"type\": \"string\"}}}",
	    0, NULL);
	js = jsschema_compile(s, NULL, NULL, err, sizeof(err));
	unit_ok(js != NULL, "a schema without a pattern compiles");
	unit_ok(jsschema_regex_trouble() == NULL, "and loads nothing");
	jsschema_free(js);
	json_decref(s);
	regex();
	formats();
	compile("{\"properties\": {\"a\": {\"pattern\": \"^a\"}}}", ELIBACC,
	    "/properties/a: pattern \"^a\" cannot be compiled: " WHY,
	    "a pattern is trouble");
	compile("{\"patternProperties\": {\"x\": {}}}", ELIBACC,
	    "/patternProperties: pattern \"x\" cannot be compiled: " WHY,
	    "patternProperties too");
	compile("{\"type\": 7, \"pattern\": \"^a\"}", EINVAL,
	    "\"type\" must be a type name or an array of them",
	    "an earlier fault of the schema comes first");
	return unit_done();
}
