/* Unit tests of lib/jsschema: compile errors, messages, locations, refs. */
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>

#include <jansson.h>

#include "base/buf.h"
#include "schema/jsschema.h"
#include "unit.h"

static json_t *
parse(const char *text)
{
	json_error_t jerr;
	json_t *j = json_loads(text, JSON_DECODE_ANY, &jerr);

	if (j == NULL) {
		printf("Bail out! bad test JSON %s: %s\n", text, jerr.text);
		exit(3);
	}
	return j;
}

/*
 * Validates instance against schema and compares every error, one line
 * each as "INSTANCE|KEYWORD|MESSAGE", with want ("" when valid).
 */
static void
check_opts(const char *schema, const char *instance,
    const struct jsschema_opts *opts, const char *want, const char *what)
{
	json_t *s = parse(schema), *i = parse(instance);
	struct jsschema *js;
	struct jsschema_result res;
	struct buf got = BUF_INIT;
	char err[512];
	size_t k;
	int r;

	if ((js = jsschema_compile(s, NULL, opts, err, sizeof(err))) == NULL) {
		unit_ok(0, what);
		printf("#   does not compile: %s\n", err);
		goto out;
	}
	r = jsschema_validate(js, i, &res);
	for (k = 0; k < res.nerrors; k++)
		buf_printf(&got, "%s|%s|%s\n", res.errors[k].instance,
		    res.errors[k].keyword, res.errors[k].message);
	buf_cstr(&got);
	if (r != (want[0] != '\0')) {
		unit_ok(0, what);
		printf("#   status %d\n", r);
	} else
		unit_str(got.data, want, what);
	jsschema_result_free(&res);
	jsschema_free(js);
out:
	buf_free(&got);
	json_decref(s);
	json_decref(i);
}

static void
check(const char *schema, const char *instance, const char *want,
    const char *what)
{
	check_opts(schema, instance, NULL, want, what);
}

/* The schema does not compile, and the message is want. */
static void
check_compile_error(const char *schema, const struct jsschema_opts *opts,
    const char *want, const char *what)
{
	json_t *s = parse(schema);
	struct jsschema *js;
	char err[512];

	js = jsschema_compile(s, NULL, opts, err, sizeof(err));
	unit_ok(js == NULL, unit_fmt("%s: refused", what));
	unit_str(err, want, unit_fmt("%s: message", what));
	jsschema_free(js);
	json_decref(s);
}

static void
test_compile_errors(void)
{
	check_compile_error("{\"type\": 3}", NULL,
	    "\"type\" must be a type name or an array of them",
	    "a type that is a number");
	check_compile_error("{\"properties\": {\"a\": {\"type\": \"int\"}}}",
	    NULL, "/properties/a: \"type\" must be a type name or an array "
	    "of them", "an unknown type name, with its location");
	check_compile_error("{\"minLength\": -1}", NULL,
	    "\"minLength\" must be a non-negative integer",
	    "a negative minLength");
	check_compile_error("{\"multipleOf\": 0}", NULL,
	    "\"multipleOf\" must be greater than 0, found 0 (or a number "
	    "too small for a double, such as 1e-400, which reads as 0)",
	    "multipleOf 0");
	check_compile_error("{\"multipleOf\": 1e-400}", NULL,
	    "\"multipleOf\" must be greater than 0, found 0 (or a number "
	    "too small for a double, such as 1e-400, which reads as 0)",
	    "multipleOf 1e-400, which underflows to 0");
	check_compile_error("{\"patternProperties\": {\"a[\": {}}}", NULL,
	    "/patternProperties: invalid pattern \"a[\": unterminated "
	    "character class at offset 2", "an invalid patternProperties key");
	check_compile_error("{\"multipleOf\": -2}", NULL,
	    "\"multipleOf\" must be greater than 0", "multipleOf -2");
	check_compile_error("{\"required\": [\"a\", 1]}", NULL,
	    "\"required\" must be an array of strings",
	    "required with a number");
	check_compile_error("{\"anyOf\": []}", NULL,
	    "\"anyOf\" must be a non-empty array of schemas",
	    "an empty anyOf");
	check_compile_error("{\"items\": [3]}", NULL,
	    "/items/0: a schema must be an object or a boolean",
	    "an item schema that is a number");
	check_compile_error("{\"$ref\": \"#/definitions/nope\"}", NULL,
	    "/$ref: cannot resolve $ref \"#/definitions/nope\"",
	    "a $ref to a missing definition");
	check_compile_error("{\"$id\": \"http://x.test/a/b\", \"items\": "
	    "{\"$ref\": \"c#/d\"}}", NULL,
	    "/items/$ref: cannot resolve $ref to \"http://x.test/a/c\": not "
	    "loaded (give its schema with -r FILE, or map the URI to a "
	    "directory with --ref-map URI=DIR)",
	    "a $ref to another document, resolved against the base");
	check_compile_error("{\"$id\": \"http://x.test/a/b\", \"items\": "
	    "{\"$ref\": \"#/d\"}}", NULL,
	    "/items/$ref: cannot resolve $ref \"#/d\" "
	    "(\"http://x.test/a/b#/d\")",
	    "an unresolvable $ref names its absolute URI");
	check_compile_error("{\"definitions\": {\"x\": {\"$ref\": "
	    "\"#/a~1b\"}}}", NULL,
	    "/definitions/x/$ref: cannot resolve $ref \"#/a~1b\"",
	    "an unresolvable $ref in an unused definition");
	check_compile_error("{\"$ref\": \"http://example.com/s.json\"}", NULL,
	    "/$ref: cannot resolve $ref to \"http://example.com/s.json\": "
	    "not loaded (give its schema with -r FILE, or map the URI to a "
	    "directory with --ref-map URI=DIR)",
	    "a remote $ref without a ref map");
	check_compile_error("{\"$ref\": \"#foo\"}", NULL,
	    "/$ref: cannot resolve $ref \"#foo\"",
	    "a $ref to a missing plain-name fragment");
}

static void
test_type_messages(void)
{
	check("{\"type\": \"integer\"}", "\"x\"",
	    "|/type|expected integer, found string \"x\"\n",
	    "type integer, a string");
	check("{\"type\": \"integer\"}", "1.5",
	    "|/type|expected integer, found number 1.5\n",
	    "type integer, a fraction");
	check("{\"type\": \"integer\"}", "1.0", "",
	    "1.0 is an integer");
	check("{\"type\": [\"string\", \"null\", \"array\"]}", "true",
	    "|/type|expected string, null or array, found boolean true\n",
	    "several types");
	check("{\"type\": \"string\"}", "{}",
	    "|/type|expected string, found object\n", "an object");
	check("{\"type\": \"number\"}", "null",
	    "|/type|expected number, found null\n", "null");
	check("{\"type\": \"integer\"}",
	    "\"0123456789012345678901234567890123456789012345678901234567"
	    "8\xc3\xa9" "c\"",
	    "|/type|expected integer, found string \"0123456789012345678901"
	    "2345678901234567890123456789012345678\"...\n",
	    "a long string is cut, not inside a character");
	check("{\"type\": [\"string\", \"null\"]}", "1",
	    "|/type|expected string or null, found integer 1\n",
	    "types in the order of the schema");
}

static void
test_value_messages(void)
{
	check("{\"enum\": [1, \"a\", null]}", "2",
	    "|/enum|expected one of [1,\"a\",null], found integer 2\n",
	    "enum");
	check("{\"enum\": [1, \"a\", null]}", "1.0", "", "enum: 1 == 1.0");
	check("{\"const\": {\"a\": [1, 2], \"b\": null}}",
	    "{\"b\": null, \"a\": [1.0, 2]}", "",
	    "const: objects are unordered, 1 == 1.0");
	check("{\"const\": {\"a\": 1}}", "{\"a\": 1, \"b\": 2}",
	    "|/const|expected {\"a\":1} (const), found object\n",
	    "const: an extra property");
	check("{\"const\": \"a\\nb\"}", "\"a\\\"b\"",
	    "|/const|expected \"a\\nb\" (const), found string \"a\\\"b\"\n",
	    "const: strings are quoted and escaped");
}

static void
test_number_messages(void)
{
	check("{\"maximum\": 2}", "3",
	    "|/maximum|3 is greater than the maximum 2\n", "maximum");
	check("{\"maximum\": 2.5}", "2.5", "", "maximum: equal");
	check("{\"exclusiveMaximum\": 2.5}", "2.5",
	    "|/exclusiveMaximum|2.5 is not less than the exclusive maximum "
	    "2.5\n", "exclusiveMaximum");
	check("{\"minimum\": 1.1}", "1",
	    "|/minimum|1 is less than the minimum 1.1\n", "minimum");
	check("{\"exclusiveMinimum\": 0}", "0.0",
	    "|/exclusiveMinimum|0 is not greater than the exclusive "
	    "minimum 0\n", "exclusiveMinimum, a real");
	check("{\"multipleOf\": 2}", "7",
	    "|/multipleOf|7 is not a multiple of 2\n", "multipleOf");
	check("{\"multipleOf\": 0.0001}", "0.0075", "",
	    "multipleOf: 0.0075 of 0.0001, exactly");
	check("{\"multipleOf\": 0.01}", "19.99", "",
	    "multipleOf: 19.99 of 0.01");
	check("{\"multipleOf\": 0.1}", "0.3", "", "multipleOf: 0.3 of 0.1");
	check("{\"multipleOf\": 0.0001}", "0.00751",
	    "|/multipleOf|0.00751 is not a multiple of 0.0001\n",
	    "multipleOf: 0.00751 of 0.0001");
	check("{\"multipleOf\": 0.123456789}", "1e308",
	    "|/multipleOf|1e+308 is not a multiple of 0.123456789\n",
	    "multipleOf: 1e308 of 0.123456789");
	check("{\"multipleOf\": 1e-5}", "123456789", "",
	    "multipleOf: an integer of a small decimal");
	check("{\"multipleOf\": 3}", "-9223372036854775806", "",
	    "multipleOf: a large negative integer");
	check("{\"multipleOf\": 3}", "-9223372036854775807",
	    "|/multipleOf|-9223372036854775807 is not a multiple of 3\n",
	    "multipleOf: a large negative integer that is not");
	check("{\"multipleOf\": 2}", "-9223372036854775808", "",
	    "multipleOf: the smallest integer");
	check("{\"multipleOf\": 1000}", "1.5e6", "",
	    "multipleOf: 1.5e6 of 1000");
	check("{\"multipleOf\": 1e20}", "123",
	    "|/multipleOf|123 is not a multiple of 100000000000000000000\n",
	    "multipleOf: far smaller than the divisor");
	check("{\"maximum\": 9007199254740993}", "9007199254740992.0", "",
	    "maximum: an integer beyond doubles against a real");
}

static void
test_string_messages(void)
{
	struct jsschema_opts nf = { 1, NULL, 0, 0, NULL, 0, 0 };

	check("{\"maxLength\": 2}", "\"\xc3\xa9\xc3\xa9\"", "",
	    "maxLength counts code points");
	check("{\"maxLength\": 2}", "\"abc\"",
	    "|/maxLength|string of 3 characters is longer than the maximum "
	    "length 2\n", "maxLength");
	check("{\"minLength\": 2}", "\"\xf0\x9f\x98\x80\"",
	    "|/minLength|string of 1 character is shorter than the minimum "
	    "length 2\n", "minLength, one astral character");
	check("{\"pattern\": \"^a+$\"}", "\"ab\"",
	    "|/pattern|string \"ab\" does not match the pattern \"^a+$\"\n",
	    "pattern");
	check("{\"pattern\": \"b\"}", "\"abc\"", "", "pattern is unanchored");
	check("{\"pattern\": \"^\\\\d$\"}", "\"\xd9\xa3\"",
	    "|/pattern|string \"\xd9\xa3\" does not match the pattern "
	    "\"^\\\\d$\"\n", "pattern: \\d is ASCII only");
	check("{\"format\": \"ipv4\"}", "\"1.2.3\"",
	    "|/format|string \"1.2.3\" is not a valid ipv4\n", "format");
	check_opts("{\"format\": \"ipv4\"}", "\"1.2.3\"", &nf, "",
	    "format with no_format");
	check("{\"format\": \"no-such-format\"}", "\"x\"", "",
	    "an unknown format is an annotation");
	check("{\"format\": \"ipv4\"}", "12", "",
	    "format ignores other types");
}

static void
test_array_messages(void)
{
	check("{\"items\": {\"type\": \"integer\"}}", "[1, \"x\", 2.5]",
	    "/1|/items/type|expected integer, found string \"x\"\n"
	    "/2|/items/type|expected integer, found number 2.5\n",
	    "items: every error, with its index");
	check("{\"items\": [{\"type\": \"string\"}], \"additionalItems\": "
	    "false}", "[\"a\", 1, 2]",
	    "/1|/additionalItems|unexpected item 1: \"items\" allows 1 item\n"
	    "/2|/additionalItems|unexpected item 2: \"items\" allows 1 item\n",
	    "additionalItems false");
	check("{\"items\": [true], \"additionalItems\": {\"type\": \"null\"}}",
	    "[1, 2]",
	    "/1|/additionalItems/type|expected null, found integer 2\n",
	    "additionalItems schema");
	check("{\"maxItems\": 1}", "[1, 2]",
	    "|/maxItems|array has 2 items, more than the maximum 1\n",
	    "maxItems");
	check("{\"minItems\": 2}", "[1]",
	    "|/minItems|array has 1 item, fewer than the minimum 2\n",
	    "minItems");
	check("{\"uniqueItems\": true}", "[{\"a\": 1}, 2, {\"a\": 1.0}]",
	    "|/uniqueItems|array items 0 and 2 are equal, but items must be "
	    "unique\n", "uniqueItems");
	check("{\"uniqueItems\": true}", "[[1], [true], 0, false]", "",
	    "uniqueItems: 1 is not true, 0 is not false");
	check("{\"contains\": {\"const\": 5}}", "[1, 2]",
	    "|/contains|array has no item that matches \"contains\" (2 items "
	    "checked)\n", "contains");
}

static void
test_object_messages(void)
{
	check("{\"required\": [\"name\", \"id\"]}", "{\"id\": 1}",
	    "|/required|missing required property \"name\"\n", "required");
	check("{\"maxProperties\": 1}", "{\"a\": 1, \"b\": 2}",
	    "|/maxProperties|object has 2 properties, more than the maximum "
	    "1\n", "maxProperties");
	check("{\"minProperties\": 1}", "{}",
	    "|/minProperties|object has 0 properties, fewer than the minimum "
	    "1\n", "minProperties");
	check("{\"properties\": {\"a/b\": {\"properties\": {\"c~d\": "
	    "{\"type\": \"string\"}}}}}", "{\"a/b\": {\"c~d\": 1}}",
	    "/a~1b/c~0d|/properties/a~1b/properties/c~0d/type|expected "
	    "string, found integer 1\n", "properties: pointers are escaped");
	check("{\"properties\": {\"a\": true}, \"patternProperties\": "
	    "{\"^x\": {\"type\": \"integer\"}}, \"additionalProperties\": "
	    "false}", "{\"a\": 1, \"x1\": \"s\", \"y\": 2}",
	    "/x1|/patternProperties/^x/type|expected integer, found string "
	    "\"s\"\n/y|/additionalProperties|unexpected property \"y\"\n",
	    "patternProperties and additionalProperties false");
	check("{\"additionalProperties\": {\"type\": \"boolean\"}}",
	    "{\"a\": true, \"b\": 0}",
	    "/b|/additionalProperties/type|expected boolean, found integer "
	    "0\n", "additionalProperties schema");
	check("{\"dependencies\": {\"a\": [\"b\", \"c\"], \"d\": {\"required\""
	    ": [\"e\"]}}}", "{\"a\": 1, \"c\": 2, \"d\": 3}",
	    "|/dependencies/a|property \"a\" requires property \"b\"\n"
	    "|/dependencies/d/required|missing required property \"e\"\n",
	    "dependencies, array and schema");
	check("{\"propertyNames\": {\"maxLength\": 2}}", "{\"ab\": 1, "
	    "\"abc\": 2}",
	    "|/propertyNames/maxLength|property name \"abc\": string of 3 "
	    "characters is longer than the maximum length 2\n",
	    "propertyNames");
	check("{\"propertyNames\": false}", "{\"a\": 1}",
	    "|/propertyNames|property name \"a\": no value is allowed here "
	    "(the schema is false), found string \"a\"\n",
	    "propertyNames false");
}

static void
test_applicators(void)
{
	check("false", "1",
	    "||no value is allowed here (the schema is false), found "
	    "integer 1\n", "the false schema");
	check("true", "{\"x\": [1]}", "", "the true schema");
	check("{\"allOf\": [{\"minimum\": 2}, {\"maximum\": 0}]}", "1",
	    "|/allOf/0/minimum|1 is less than the minimum 2\n"
	    "|/allOf/1/maximum|1 is greater than the maximum 0\n",
	    "allOf: the errors of every branch");
	check("{\"not\": {\"type\": \"string\"}}", "\"x\"",
	    "|/not|value must not match the schema of \"not\", found string "
	    "\"x\"\n", "not");
	check("{\"if\": {\"type\": \"string\"}, \"then\": {\"minLength\": 2}, "
	    "\"else\": {\"minimum\": 5}}", "\"a\"",
	    "|/then/minLength|string of 1 character is shorter than the "
	    "minimum length 2\n", "if/then");
	check("{\"if\": {\"type\": \"string\"}, \"then\": {\"minLength\": 2}, "
	    "\"else\": {\"minimum\": 5}}", "3",
	    "|/else/minimum|3 is less than the minimum 5\n", "if/else");
	check("{\"then\": false}", "3", "", "then without if");
	/* the closest branch: not the type mismatch, the deepest one */
	check("{\"anyOf\": [{\"type\": \"string\"}, {\"type\": \"object\", "
	    "\"properties\": {\"a\": {\"type\": \"object\", \"required\": "
	    "[\"b\"]}}}, {\"type\": \"object\", \"required\": [\"z\", "
	    "\"y\"]}]}", "{\"a\": {}}",
	    "|/anyOf|value matches none of the 3 schemas of \"anyOf\" (found "
	    "object); the closest one says:\n"
	    "/a|/anyOf/1/properties/a/required|missing required property "
	    "\"b\"\n", "anyOf: the deepest branch");
	check("{\"anyOf\": [{\"type\": \"string\"}, {\"required\": [\"z\", "
	    "\"y\"]}, {\"required\": [\"x\"]}]}", "{}",
	    "|/anyOf|value matches none of the 3 schemas of \"anyOf\" (found "
	    "object); the closest one says:\n"
	    "|/anyOf/2/required|missing required property \"x\"\n",
	    "anyOf: the branch with the fewest errors, type mismatch last");
	check("{\"anyOf\": [{\"type\": \"string\"}, {\"type\": \"null\"}]}",
	    "1",
	    "|/anyOf|value matches none of the 2 schemas of \"anyOf\" (found "
	    "integer 1); the closest one says:\n"
	    "|/anyOf/0/type|expected string, found integer 1\n",
	    "anyOf: all alike, the first");
	check("{\"anyOf\": [{\"type\": \"string\"}, {\"minimum\": 3}]}", "4",
	    "", "anyOf: one matches");
	check("{\"oneOf\": [{\"type\": \"integer\"}, {\"minimum\": 2}, "
	    "{\"maximum\": 9}]}", "3",
	    "|/oneOf|value matches 3 of the schemas of \"oneOf\" (0, 1, 2), "
	    "but must match exactly one\n", "oneOf: several match");
	check("{\"oneOf\": [{\"type\": \"integer\"}, {\"minimum\": 2}]}",
	    "1", "", "oneOf: exactly one");
	check("{\"oneOf\": [{\"type\": \"string\"}, {\"minimum\": 2}]}", "1",
	    "|/oneOf|value matches none of the 2 schemas of \"oneOf\" (found "
	    "integer 1); the closest one says:\n"
	    "|/oneOf/1/minimum|1 is less than the minimum 2\n",
	    "oneOf: none, the closest");
}

static void
test_refs(void)
{
	const char *esc = "{\"definitions\": {\"t~f\": {\"type\": "
	    "\"integer\"}, \"s/f\": {\"type\": \"integer\"}, \"p%f\": "
	    "{\"type\": "
	    "\"integer\"}}, \"properties\": {\"t\": {\"$ref\": "
	    "\"#/definitions/t~0f\"}, \"s\": {\"$ref\": \"#/definitions/s~1f\""
	    "}, \"p\": {\"$ref\": \"#/definitions/p%25f\"}}}";

	check(esc, "{\"t\": 1, \"s\": 2, \"p\": 3}", "",
	    "refs with ~0 ~1 %25: valid");
	check(esc, "{\"t\": \"1\", \"s\": \"2\", \"p\": \"3\"}",
	    "/t|/properties/t/$ref/type|expected integer, found string "
	    "\"1\"\n"
	    "/s|/properties/s/$ref/type|expected integer, found string "
	    "\"2\"\n"
	    "/p|/properties/p/$ref/type|expected integer, found string "
	    "\"3\"\n", "refs with ~0 ~1 %25: the keyword path goes through "
	    "$ref");
	check("{\"properties\": {\"n\": {\"$ref\": \"#\"}, \"v\": {\"type\": "
	    "\"integer\"}}}", "{\"n\": {\"n\": {\"v\": \"x\"}}}",
	    "/n/n/v|/properties/n/$ref/properties/n/$ref/properties/v/type|"
	    "expected integer, found string \"x\"\n", "recursion through #");
	check("{\"$ref\": \"#\"}", "1",
	    "|/$ref/$ref|$ref loops back to a schema already applied to "
	    "this value\n", "a $ref to itself ends");
	check("{\"definitions\": {\"a\": {\"$ref\": \"#/definitions/b\"}, \"b\""
	    ": {\"$ref\": \"#/definitions/a\"}}, \"allOf\": [{\"$ref\": "
	    "\"#/definitions/a\"}]}", "1",
	    "|/allOf/0/$ref/$ref/$ref|$ref loops back to a schema already "
	    "applied to this value\n", "a loop of two $refs ends");
	check("{\"$id\": \"http://x.test/root.json\", \"allOf\": [{\"$ref\": "
	    "\"item.json\"}], \"definitions\": {\"i\": {\"$id\": "
	    "\"http://x.test/item.json\", \"type\": \"string\"}}}", "1",
	    "|/allOf/0/$ref/type|expected string, found integer 1\n",
	    "a $ref to an $id, resolved against the base");
	check("{\"allOf\": [{\"$ref\": \"#here\"}], \"definitions\": {\"a\": "
	    "{\"$id\": \"#here\", \"maximum\": 1}}}", "2",
	    "|/allOf/0/$ref/maximum|2 is greater than the maximum 1\n",
	    "a plain-name fragment");
	check("{\"$id\": \"http://x.test/a/b.json\", \"definitions\": {\"c\": "
	    "{\"$id\": \"../c/./d.json\", \"type\": \"null\"}}, \"allOf\": "
	    "[{\"$ref\": \"http://x.test/c/d.json\"}]}", "0",
	    "|/allOf/0/$ref/type|expected null, found integer 0\n",
	    "dot segments in $id");
	check("{\"$id\": \"http://x.test/a/b.json\", \"$ref\": \"#/definitions/"
	    "c\", \"definitions\": {\"c\": {\"$id\": \"http://x.test/c.json\", "
	    "\"type\": \"null\"}}}", "0",
	    "|/$ref/type|expected null, found integer 0\n",
	    "$ref hides a sibling $id");
	check("{\"$id\": \"urn:example:root\", \"properties\": {\"a\": "
	    "{\"$ref\": \"urn:example:root#/definitions/s\"}}, "
	    "\"definitions\": {\"s\": "
	    "{\"type\": \"string\"}}}", "{\"a\": null}",
	    "/a|/properties/a/$ref/type|expected string, found null\n",
	    "a URN base");
}

static void
test_meta_schema(void)
{
	check("{\"$ref\": \"http://json-schema.org/draft-07/schema#\"}",
	    "{\"type\": \"integer\", \"minimum\": 0, \"properties\": {\"a\": "
	    "{\"items\": [true, {\"enum\": [1]}]}}}", "",
	    "the meta-schema accepts a schema");
	check("{\"$ref\": \"http://json-schema.org/draft-07/schema\"}",
	    "{\"minLength\": -1}",
	    "/minLength|/$ref/properties/minLength/$ref/allOf/0/$ref/minimum|"
	    "-1 is less than the minimum 0\n",
	    "the meta-schema without #: a negative minLength");
	check("{\"$ref\": \"http://json-schema.org/draft-07/schema#\"}",
	    "{\"type\": \"integr\"}",
	    "/type|/$ref/properties/type/anyOf|value matches none of the 2 "
	    "schemas of \"anyOf\" (found string \"integr\"); the closest one "
	    "says:\n"
	    "/type|/$ref/properties/type/anyOf/0/$ref/enum|expected one of "
	    "[\"array\",\"boolean\",\"integer\",\"null\",\"number\",\"object\""
	    ",\"string\"], found string \"integr\"\n",
	    "the meta-schema: an unknown type");
	check("{\"$ref\": \"http://json-schema.org/draft-07/schema#\"}", "3",
	    "|/$ref/type|expected object or boolean, found integer 3\n",
	    "the meta-schema: a number is no schema");
}

#define D4	"\"$schema\": \"http://json-schema.org/draft-04/schema#\", "
#define D6	"\"$schema\": \"http://json-schema.org/draft-06/schema#\", "

/* The dialect by "$schema" or the default, and what each one knows. */
static void
test_dialects(void)
{
	struct jsschema_opts o4 = { 0, NULL, 0, JSSCHEMA_DRAFT4, NULL, 0, 0 };
	struct jsschema_opts o6 = { 0, NULL, 0, JSSCHEMA_DRAFT6, NULL, 0, 0 };
	struct jsschema_opts o7 = { 0, NULL, 0, JSSCHEMA_DRAFT7, NULL, 0, 0 };
	struct jsschema_opts o2020 = { 0, NULL, 0, 202012, NULL, 0, 0 };

	check("{" D4 "\"maximum\": 5, \"exclusiveMaximum\": true}", "5",
	    "|/exclusiveMaximum|5 is not less than the exclusive maximum 5\n",
	    "draft-04: a boolean exclusiveMaximum makes maximum exclusive");
	check("{" D4 "\"maximum\": 5, \"exclusiveMaximum\": false}", "5", "",
	    "draft-04: exclusiveMaximum false");
	check("{" D4 "\"minimum\": 5, \"exclusiveMinimum\": true}", "5",
	    "|/exclusiveMinimum|5 is not greater than the exclusive minimum "
	    "5\n",
	    "draft-04: a boolean exclusiveMinimum");
	check_opts("{\"minimum\": 5, \"exclusiveMinimum\": true}", "5.5", &o4,
	    "", "--draft 4: no $schema");
	check("{\"$schema\": \"https://json-schema.org/draft-04/schema\", "
	    "\"const\": 1, \"contains\": false, \"propertyNames\": false, "
	    "\"if\": false, \"else\": false}", "[2]", "",
	    "draft-04 (https, no #): no const, contains, propertyNames, if");
	check("{" D6 "\"const\": 1, \"if\": false, \"else\": false}", "2",
	    "|/const|expected 1 (const), found integer 2\n",
	    "draft-06: const, but no if");
	check("{" D6 "\"exclusiveMaximum\": 5}", "5",
	    "|/exclusiveMaximum|5 is not less than the exclusive maximum 5\n",
	    "draft-06: a numeric exclusiveMaximum");
	check("{" D6 "\"items\": false}", "[1]",
	    "/0|/items|no value is allowed here (the schema is false), found "
	    "integer 1\n",
	    "draft-06: boolean schemas");
	check("{" D4 "\"format\": \"date\"}", "\"x\"", "",
	    "draft-04: date is not one of its formats");
	check("{" D4 "\"format\": \"ipv4\"}", "\"x\"",
	    "|/format|string \"x\" is not a valid ipv4\n",
	    "draft-04: ipv4 is");
	check("{" D4 "\"id\": \"http://x.test/a.json\", \"items\": {\"$ref\": "
	    "\"b.json\"}, \"definitions\": {\"b\": {\"id\": \"b.json\", "
	    "\"type\": \"integer\"}}}", "[\"x\"]",
	    "/0|/items/$ref/type|expected integer, found string \"x\"\n",
	    "draft-04: id, not $id");
	check("{\"$ref\": \"http://json-schema.org/draft-04/schema#\"}",
	    "{\"minimum\": 0, \"exclusiveMinimum\": 1}",
	    "/exclusiveMinimum|/$ref/properties/exclusiveMinimum/type|"
	    "expected boolean, found integer 1\n",
	    "the draft-04 meta-schema is built in");
	check("{\"$ref\": \"http://json-schema.org/draft-06/schema\"}",
	    "{\"exclusiveMinimum\": 1, \"const\": 2}", "",
	    "the draft-06 meta-schema is built in");
	check("{\"definitions\": {\"a\": {\"$id\": \"http://x.test/a\", " D4
	    "\"id\": \"http://x.test/a\", \"maximum\": 1, "
	    "\"exclusiveMaximum\": true}}, \"$ref\": \"http://x.test/a\"}",
	    "1", "|/$ref/exclusiveMaximum|1 is not less than the exclusive "
	    "maximum 1\n",
	    "a draft-04 resource reached through $ref from draft-07");
	check_opts("{\"exclusiveMaximum\": 1}", "1", &o7,
	    "|/exclusiveMaximum|1 is not less than the exclusive maximum 1\n",
	    "--draft 7");

	check("{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", "
	    "\"properties\": {\"a\": true}, \"unevaluatedProperties\": false}",
	    "{\"a\": \"x\", \"b\": 1}", "/b|/unevaluatedProperties|unexpected "
	    "property \"b\": no subschema evaluates it "
	    "(unevaluatedProperties)\n", "2020-12");
	check("{\"$schema\": \"https://json-schema.org/draft/2019-09/schema#\", "
	    "\"items\": [true], \"unevaluatedItems\": false}", "[1, 2]",
	    "/1|/unevaluatedItems|unexpected item 1: no subschema evaluates it "
	    "(unevaluatedItems)\n", "2019-09");
	check_compile_error("{\"$schema\": \"http://json-schema.org/schema#\"}",
	    NULL, "unknown \"$schema\" \"http://json-schema.org/schema#\": "
	    "not a dialect known here (Draft-04, Draft-06, Draft-07, 2019-09, "
	    "2020-12), and no meta-schema with that URI is loaded (give it "
	    "with -r FILE)", "an unknown $schema");
	check_compile_error("{\"$schema\": \"http://json-schema.org/draft-07/"
	    "schema#x\"}", NULL, "unknown \"$schema\" "
	    "\"http://json-schema.org/draft-07/schema#x\": not a dialect "
	    "known here (Draft-04, Draft-06, Draft-07, 2019-09, 2020-12), and "
	    "no meta-schema with that URI is loaded (give it with -r FILE)",
	    "a $schema with a fragment");
	check_compile_error("{\"$schema\": 7}", NULL,
	    "\"$schema\" must be a string", "a $schema that is no string");
	check_compile_error("{\"items\": {\"$ref\": \"#/definitions/a\"}, "
	    "\"definitions\": {\"a\": {\"$id\": \"http://x.test/a\", "
	    "\"$schema\": \"http://x.test/meta\"}}}", NULL,
	    "/items/$ref: unknown \"$schema\" \"http://x.test/meta\": not a "
	    "dialect known here (Draft-04, Draft-06, Draft-07, 2019-09, "
	    "2020-12), and no meta-schema with that URI is loaded (give it "
	    "with -r FILE)",
	    "an unknown $schema reached through $ref");
	check_compile_error("{\"properties\": {\"a\": true}}", &o4,
	    "/properties/a: a schema must be an object in Draft-04 (a "
	    "boolean only as \"additionalItems\" or "
	    "\"additionalProperties\")", "draft-04: no boolean schemas");
	check_opts("{\"additionalProperties\": false, \"additionalItems\": "
	    "true}", "{\"a\": 1}", &o4,
	    "/a|/additionalProperties|unexpected property \"a\"\n",
	    "draft-04: additionalProperties false");
	check_compile_error("{\"maximum\": 1, \"exclusiveMaximum\": 1}", &o4,
	    "\"exclusiveMaximum\" must be a boolean in Draft-04",
	    "draft-04: a numeric exclusiveMaximum");
	check_compile_error("{\"minimum\": 1, \"exclusiveMinimum\": true}", &o6,
	    "\"exclusiveMinimum\" must be a number in Draft-06 (a boolean is "
	    "Draft-04's form)", "draft-06: a boolean exclusiveMinimum");
	check_opts("{\"prefixItems\": [true], \"items\": false}", "[1, 2]",
	    &o2020, "/1|/items|unexpected item 1: \"prefixItems\" allows 1 "
	    "item\n", "2020-12 as the default");
	unit_long(jsschema_draft("4"), 4, "jsschema_draft 4");
	unit_long(jsschema_draft("6"), 6, "jsschema_draft 6");
	unit_long(jsschema_draft("7"), 7, "jsschema_draft 7");
	unit_long(jsschema_draft("2019-09"), 201909, "jsschema_draft 2019-09");
	unit_long(jsschema_draft("2020-12"), 202012, "jsschema_draft 2020-12");
	unit_long(jsschema_draft("07"), 0, "jsschema_draft 07");
	unit_long(jsschema_draft("3"), 0, "jsschema_draft 3");
}

static void
test_refmap(void)
{
	char dir[] = "/tmp/llmkit-jsschema-XXXXXX", path[256];
	struct jsschema_refmap map[] = {
		{ "http://remote.test/s/", NULL },
	};
	struct jsschema_opts opts = { 0, map, 1, 0, NULL, 0, 0 };
	FILE *f;

	if (mkdtemp(dir) == NULL)
		unit_bail("mkdtemp");
	map[0].dir = dir;
	snprintf(path, sizeof(path), "%s/int.json", dir);
	if ((f = fopen(path, "w")) == NULL)
		unit_bail(path);
	fputs("{\"definitions\": {\"pos\": {\"type\": \"integer\", "
	    "\"exclusiveMinimum\": 0}}, \"allOf\": [{\"$ref\": "
	    "\"#/definitions/pos\"}]}", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/bad.json", dir);
	if ((f = fopen(path, "w")) == NULL)
		unit_bail(path);
	fputs("{\"type\": ", f);
	fclose(f);

	check_opts("{\"items\": {\"$ref\": \"http://remote.test/s/int.json\"}}",
	    "[1, 0]", &opts,
	    "/1|/items/$ref/allOf/0/$ref/exclusiveMinimum|0 is not greater "
	    "than the exclusive minimum 0\n", "a ref map: a remote file");
	check_opts("{\"$ref\": \"http://remote.test/s/int.json#/definitions/"
	    "pos\"}", "2", &opts, "", "a ref map: a fragment of a remote file");
	snprintf(path, sizeof(path), "/$ref: cannot load "
	    "\"http://remote.test/s/none.json\" from %s/none.json: No such "
	    "file or directory", dir);
	check_compile_error("{\"$ref\": \"http://remote.test/s/none.json\"}",
	    &opts, path, "a ref map: a missing file");
	check_compile_error("{\"$ref\": \"http://remote.test/s/x/../../y\"}",
	    &opts, "/$ref: cannot resolve $ref to \"http://remote.test/y\": "
	    "not loaded (give its schema with -r FILE, or map the URI to a "
	    "directory with --ref-map URI=DIR)",
	    "a ref map: dot segments do not lead out of its directory");
	snprintf(path, sizeof(path), "/$ref: cannot load "
	    "\"http://remote.test/s/bad.json\" from %s/bad.json: not JSON at "
	    "line 1, column 9: unexpected token near end of file", dir);
	check_compile_error("{\"$ref\": \"http://remote.test/s/bad.json\"}",
	    &opts, path, "a ref map: a file that is no JSON");

	snprintf(path, sizeof(path), "%s/int.json", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/bad.json", dir);
	unlink(path);
	rmdir(dir);
}

/* ref resolved against base is want. */
static void
check_resolve(const char *base, const char *ref, const char *want)
{
	char *got = jsschema_uri_resolve(base, ref);

	unit_str(got, want, unit_fmt("\"%s\" against \"%s\"", ref, base));
	free(got);
}

static void
check_file_uri(const char *path, const char *want)
{
	char *got = jsschema_file_uri(path);

	unit_str(got != NULL ? got : "(null)", want,
	    unit_fmt("the file: URI of \"%s\"", path));
	free(got);
}

/* Writes text to dir/name. */
static void
put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "w")) == NULL)
		unit_bail(path);
	fputs(text, f);
	fclose(f);
}

static void
test_file_uris(void)
{
	char dir[] = "/tmp/llmkit-jsschema-XXXXXX", path[512], cwd[512];
	/* what the test writes in dir, removed at the end in this order */
	static const char *const made[] = {
		"sp ace/m\xc3\xa4in.json", "sp ace/t.json", "sp ace",
		"u.json", "i.json", "i2.json"
	};
	char want[1024], err[512], *base;
	const char *files[2];
	size_t i;
	struct jsschema_opts opts = { 0, NULL, 0, 0, files, 0, 0 };
	struct jsschema *js;
	json_t *s;

	check_resolve("file:///a/b/c.json", "d.json", "file:///a/b/d.json");
	check_resolve("file:///a/b/c.json", "sub/d.json",
	    "file:///a/b/sub/d.json");
	check_resolve("file:///a/b/c.json", "../x.json", "file:///a/x.json");
	check_resolve("file:///a/b/c.json", "sub/../../y.json#/definitions/x",
	    "file:///a/y.json#/definitions/x");
	check_resolve("file:///a/b/c.json", "../../../../z.json",
	    "file:///z.json");
	check_resolve("file:///a/b/c.json", "/etc/./s.json",
	    "file:///etc/s.json");
	check_resolve("file:///a/b/c.json", "#/definitions/x",
	    "file:///a/b/c.json#/definitions/x");
	check_resolve("file:///a/b/c.json", "my schema.json",
	    "file:///a/b/my%20schema.json");
	check_resolve("file:///a/b/c.json", "caf\xc3\xa9.json",
	    "file:///a/b/caf%C3%A9.json");
	check_resolve("file:///a/b/c.json", "caf%c3%a9.json",
	    "file:///a/b/caf%C3%A9.json");
	check_resolve("file:///a/b/c.json", "x.json#/a b",
	    "file:///a/b/x.json#/a b");
	check_resolve("file:///a/my%20dir/c.json", "d.json",
	    "file:///a/my%20dir/d.json");
	check_resolve("file:///a/b/c.json", "https://example.com/x.json",
	    "https://example.com/x.json");
	check_resolve("https://example.com/a/b.json", "my schema.json",
	    "https://example.com/a/my schema.json");

	check_file_uri("/tmp/a b/caf\xc3\xa9.json",
	    "file:///tmp/a%20b/caf%C3%A9.json");
	check_file_uri("/a/./b/../c.json", "file:///a/c.json");
	check_file_uri("/x/100%.json", "file:///x/100%25.json");
	check_file_uri("/x/a#b?.json", "file:///x/a%23b%3F.json");
	check_file_uri("/x/(a)+[b]@c:d.json", "file:///x/(a)+%5Bb%5D@c:d.json");

	if (mkdtemp(dir) == NULL)
		unit_bail("mkdtemp");
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		unit_bail("getcwd");
	snprintf(path, sizeof(path), "%s/sp ace", dir);
	if (mkdir(path, 0700) == -1 || chdir(path) == -1)
		unit_bail(path);
	snprintf(want, sizeof(want), "file://%s/sp%%20ace/s.json", dir);
	check_file_uri("s.json", want);
	snprintf(want, sizeof(want), "file://%s/x.json", dir);
	check_file_uri("../x.json", want);

	/* a schema in "sp ace" that refers to a sibling and to its parent */
	put(path, "m\xc3\xa4in.json", "{\"properties\": {\"a\": {\"$ref\": "
	    "\"t.json#/definitions/n\"}, \"b\": {\"$ref\": \"../u.json\"}}}");
	put(path, "t.json", "{\"definitions\": {\"n\": {\"type\": \"null\"}}}");
	put(dir, "u.json", "{\"$ref\": \"https://example.com/i.json\"}");
	put(dir, "i.json", "{\"$id\": \"https://example.com/i.json\", "
	    "\"type\": \"integer\"}");
	put(dir, "i2.json", "{\"$id\": \"https://example.com/i.json\", "
	    "\"type\": \"string\"}");
	s = parse("{\"$ref\": \"m\xc3\xa4in.json\"}");
	base = jsschema_file_uri("here.json");
	snprintf(want, sizeof(want), "%s/i.json", dir);
	files[0] = want;
	opts.nfiles = 1;
	js = jsschema_compile(s, base, &opts, err, sizeof(err));
	unit_ok(js != NULL, "refs to a file with a non-ASCII name, a sibling, "
	    "a parent and an $id given as a file compile");
	if (js == NULL)
		printf("#   %s\n", err);
	else {
		struct jsschema_result res;

		json_decref(s);
		s = parse("{\"a\": null, \"b\": 1.5}");
		unit_long(jsschema_validate(js, s, &res), 1,
		    "a value checked through four files");
		unit_ok(res.nerrors == 1 && strcmp(res.errors[0].keyword,
		    "/$ref/properties/b/$ref/$ref/type") == 0,
		    "its one error is that of the $id's schema");
		jsschema_result_free(&res);
		jsschema_free(js);
	}
	json_decref(s);

	s = parse("{\"$ref\": \"https://example.com/i.json\"}");
	snprintf(path, sizeof(path), "%s/i2.json", dir);
	files[1] = path;
	opts.nfiles = 2;
	js = jsschema_compile(s, base, &opts, err, sizeof(err));
	snprintf(want, sizeof(want), "%s: a different schema with the URI "
	    "\"https://example.com/i.json\" is already loaded", path);
	unit_ok(js == NULL, "one $id in two different files does not compile");
	unit_str(err, want, "and says so");
	jsschema_free(js);
	json_decref(s);
	free(base);

	if (chdir(cwd) == -1)
		unit_bail(cwd);
	for (i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, made[i]);
		if (unlink(path) == -1)
			rmdir(path);	/* the directory, emptied by then */
	}
	rmdir(dir);
}

static void
test_api(void)
{
	json_t *s = parse("{\"properties\": {\"a\": {\"type\": \"string\"}}}");
	json_t *i = parse("{\"a\": [1]}");
	struct jsschema_result res = { NULL, 7 };
	struct jsschema *js;
	char err[64];

	js = jsschema_compile(s, "http://x.test/base.json", NULL, err,
	    sizeof(err));
	json_decref(s);		/* the compiled schema keeps its own */
	unit_ok(js != NULL, "compiles with a base URI");
	unit_long(jsschema_validate(js, i, &res), 1, "invalid: status 1");
	unit_long((long)res.nerrors, 1, "one error");
	unit_ok(res.nerrors == 1 && res.errors[0].value ==
	    json_object_get(i, "a"), "the error points at the instance value");
	jsschema_result_free(&res);
	unit_ok(res.errors == NULL && res.nerrors == 0,
	    "the result is empty after it is freed");
	json_decref(i);
	i = parse("{\"a\": \"x\"}");
	res.nerrors = 7;
	unit_long(jsschema_validate(js, i, &res), 0, "valid: status 0");
	unit_ok(res.errors == NULL && res.nerrors == 0,
	    "valid: no errors");
	json_decref(i);
	jsschema_free(js);
}

static char *xfmt(const char *, ...) __attribute__((format(printf, 1, 2)));

static char *
xfmt(const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	return buf_cstr(&b);
}

/* A schema: the root is a $ref to d1, d1 to d2, ..., dn is last. */
static char *
ref_chain(size_t n, const char *last)
{
	struct buf b = BUF_INIT;
	size_t i;

	buf_adds(&b, "{\"$ref\": \"#/definitions/d1\", \"definitions\": {");
	for (i = 1; i < n; i++)
		buf_printf(&b, "\"d%zu\": {\"$ref\": \"#/definitions/d%zu\"}, ",
		    i, i + 1);
	buf_printf(&b, "\"d%zu\": %s}}", n, last);
	return buf_cstr(&b);
}

/* s n times, then t, then u n times: a new string. */
static char *
repeat(const char *s, size_t n, const char *t, const char *u)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < n; i++)
		buf_adds(&b, s);
	buf_adds(&b, t);
	for (i = 0; i < n; i++)
		buf_adds(&b, u);
	return buf_cstr(&b);
}

/*
 * Validates instance against schema: the status, and the first error's
 * instance location and message as "INSTANCE|MESSAGE" in got (size n).
 */
static int
first_error(const char *schema, const char *instance, char *got, size_t n)
{
	json_t *sj = parse(schema), *ij = parse(instance);
	struct jsschema_result res;
	struct jsschema *js;
	char err[512];
	int r;

	got[0] = '\0';
	if ((js = jsschema_compile(sj, NULL, NULL, err, sizeof(err))) == NULL) {
		snprintf(got, n, "compile: %s", err);
		r = 2;
	} else {
		r = jsschema_validate(js, ij, &res);
		if (r != 0)
			snprintf(got, n, "%s|%s (%zu errors)",
			    res.errors[0].instance, res.errors[0].message,
			    res.nerrors);
		jsschema_result_free(&res);
		jsschema_free(js);
	}
	json_decref(sj);
	json_decref(ij);
	return r;
}

/*
 * Compiling stops 1000 compile() calls deep (JSSCHEMA_MAX_COMPILE_DEPTH),
 * counting each $ref followed; validating, 5000 validate() calls deep.
 */
static void
deep_schema(struct buf *b)
{
	int i;

	buf_adds(b, "{\"allOf\": [{\"properties\": {\"x\": {\"$ref\": "
	    "\"#/definitions/a0\"}}}], \"definitions\": {");
	for (i = 0; i < 11; i++)
		buf_printf(b, "\"a%d\": {\"$ref\": \"#/definitions/a%d\"}, ", i,
		    i + 1);
	buf_adds(b, "\"a11\": {\"$ref\": \"#/definitions/arr\"}, \"arr\": "
	    "{\"type\": \"array\", \"items\": {\"$ref\": "
	    "\"#/definitions/a0\"}}}}");
}

/*
 * unevaluatedProperties under two references to one schema at each of
 * 40 levels: what a target evaluates is remembered, so that this ends
 * at once (without it, 2^40 walks), in both modes (the verdict alone
 * under anyOf, the errors at the top).
 */
static void
test_annotation_memo(void)
{
	struct buf b = BUF_INIT;
	char got[2048];
	int i;

	buf_adds(&b, "{\"$schema\": "
	    "\"https://json-schema.org/draft/2020-12/schema\", "
	    "\"anyOf\": [{\"$ref\": \"#/$defs/d0\"}, {\"required\": [\"z\"]}], "
	    "\"$ref\": \"#/$defs/d0\", \"unevaluatedProperties\": false, "
	    "\"$defs\": {");
	for (i = 0; i < 40; i++) {
		if (i > 0)
			buf_addc(&b, ',');
		buf_printf(&b, "\"d%d\": {\"properties\": {\"a%d\": true}, "
		    "\"allOf\": [", i, i);
		if (i < 39)
			buf_printf(&b, "{\"$ref\": \"#/$defs/d%d\"}, "
			    "{\"$ref\": \"#/$defs/d%d\"}]}", i + 1, i + 1);
		else
			buf_adds(&b, "true]}");
	}
	buf_adds(&b, "}}");
	unit_long(first_error(buf_cstr(&b), "{\"a39\": 1, \"x\": 2}", got,
	    sizeof(got)), 1, "unevaluated* through 2^40 paths: at once");
	unit_str(got, "/x|unexpected property \"x\": no subschema evaluates it "
	    "(unevaluatedProperties) (1 errors)", "and the one member left");
	buf_free(&b);
}

static void
test_depth_limits(void)
{
	struct buf b = BUF_INIT;
	char got[2048], *s, *t, *u;

	s = ref_chain(999, "{\"type\": \"integer\"}");
	unit_long(first_error(s, "\"x\"", got, sizeof(got)), 1,
	    "the root and a chain of 999 $refs compile");
	unit_str(got, "|expected integer, found string \"x\" (1 errors)",
	    "and validate");
	free(s);
	s = ref_chain(1000, "{\"type\": \"integer\"}");
	unit_long(first_error(s, "\"x\"", got, sizeof(got)), 2,
	    "the root and a chain of 1000 $refs do not compile");
	unit_str(got, "compile: /$ref: subschemas nest more than 1000 deep, "
	    "counting each $ref followed (the last one: "
	    "\"#/definitions/d1000\")", "the message names the limit");
	free(s);
	s = ref_chain(50000, "{}");
	unit_long(first_error(s, "1", got, sizeof(got)), 2,
	    "a chain of 50,000 $refs: refused, no crash");
	free(s);
	s = repeat("{\"items\": ", 999, "{\"type\": \"integer\"}", "}");
	t = repeat("[", 999, "\"x\"", "]");
	unit_long(first_error(s, t, got, sizeof(got)), 1,
	    "subschemas nested 1000 deep compile");
	free(s);
	free(t);
	s = repeat("{\"items\": ", 1000, "{}", "}");
	unit_long(first_error(s, "1", got, sizeof(got)), 2,
	    "subschemas nested 1001 deep do not");
	unit_str(got, "compile: /items/items/items/items/items/items/items/"
	    "items/items/items/items/items/items/items/items/items/...: "
	    "subschemas nest more than 1000 deep, counting each $ref followed",
	    "the path is cut after 16 segments");
	free(s);

	/*
	 * Each array level applies 14 schemas (a0 ... a11, arr, and the
	 * items $ref): the array d deep is validated 14 d + 2 calls deep.
	 */
	deep_schema(&b);
	t = repeat("[", 357, "", "]");
	u = xfmt("{\"x\": %s}", t);
	unit_long(first_error(buf_cstr(&b), u, got, sizeof(got)), 0,
	    "validation 5000 calls deep is fine");
	free(t);
	free(u);
	t = repeat("[", 358, "", "]");
	u = xfmt("{\"x\": %s}", t);
	unit_long(first_error(buf_cstr(&b), u, got, sizeof(got)), 1,
	    "validation 5001 calls deep is an error of the value");
	free(t);
	free(u);
	t = repeat("/0", 357, "", "");
	u = xfmt("/x%s|schemas applied one inside another nest more "
	    "than 5000 deep (through $ref, allOf, items, ... and down the "
	    "value); validation stopped here (1 errors)", t);
	unit_str(got, u, "its one error says where it stopped");
	free(t);
	free(u);
	buf_free(&b);
}

/* enum and uniqueItems go by hash: equality stays that of JSON values. */
static void
test_hashed_equality(void)
{
	check("{\"uniqueItems\": true}", "[1, 2, {\"a\": [1, {}], \"b\": 1}, "
	    "3, {\"b\": 1.0, \"a\": [1.0, {}]}, 2]",
	    "|/uniqueItems|array items 1 and 5 are equal, but items must be "
	    "unique\n", "uniqueItems: 1 is 1.0, member order does not count, "
	    "the first pair");
	check("{\"uniqueItems\": true}", "[0, -0.0, false]",
	    "|/uniqueItems|array items 0 and 1 are equal, but items must be "
	    "unique\n", "uniqueItems: 0 and -0.0 are equal");
	check("{\"uniqueItems\": true}", "[1, true, \"1\", [1], {\"1\": 1}, "
	    "null, 0, false, [], {}, \"\", 9007199254740993, "
	    "9007199254740992]", "", "uniqueItems: all different");
	check("{\"enum\": [1, \"a\", {\"k\": [2, 3]}, null]}",
	    "{\"k\": [2.0, 3]}", "", "enum: an object with 2.0 for 2");
	check("{\"enum\": [1, \"a\", {\"k\": [2, 3]}, null]}", "true",
	    "|/enum|expected one of [1,\"a\",{\"k\":[2,3]},null], found "
	    "boolean true\n", "enum: true is not 1");
	check("{\"enum\": [[1, 2]]}", "[2, 1]",
	    "|/enum|expected one of [[1,2]], found array\n",
	    "enum: array order counts");
}

/* The options a command line builds: --ref-map and -r, and their free. */
static void
test_opts(void)
{
	struct jsschema_opts o = { 0, NULL, 0, 0, NULL, 0, 0 };
	char good[] = "https://x.example/=dir", bad1[] = "nodir",
	    bad2[] = "=dir", bad3[] = "uri=";

	unit_ok(jsschema_opts_refmap(&o, good) == 0, "URI=DIR is a map");
	unit_ok(o.nrefmap == 1 && strcmp(o.refmap[0].uri,
	    "https://x.example/") == 0 && strcmp(o.refmap[0].dir, "dir") == 0,
	    "cut at its '='");
	unit_ok(jsschema_opts_refmap(&o, bad1) == -1, "no '=': refused");
	unit_ok(jsschema_opts_refmap(&o, bad2) == -1, "no URI: refused");
	unit_ok(jsschema_opts_refmap(&o, bad3) == -1, "no DIR: refused");
	unit_long((long)o.nrefmap, 1, "a refused map is not added");
	jsschema_opts_file(&o, "a.json");
	jsschema_opts_file(&o, "b.json");
	unit_ok(o.nfiles == 2 && strcmp(o.files[1], "b.json") == 0,
	    "-r files in order");
	jsschema_opts_free(&o);
	unit_ok(o.refmap == NULL && o.files == NULL && o.nrefmap == 0 &&
	    o.nfiles == 0, "freed and emptied");
}

/* The types at a place: "KEY/KEY/#0" walks members and items. */
static unsigned
types_at(const char *schema, const char *path)
{
	struct jsschema_place *p, *q;
	struct jsschema *js;
	json_t *s = parse(schema);
	const char *c = path, *e;
	unsigned t;
	char err[256];

	js = jsschema_compile(s, NULL, NULL, err, sizeof(err));
	if (js == NULL) {
		printf("# %s\n", err);
		json_decref(s);
		return 0xffff;
	}
	p = jsschema_place_root(js);
	while (*c != '\0') {
		e = strchr(c, '/');
		if (e == NULL)
			e = c + strlen(c);
		if (*c == '#')
			q = jsschema_place_item(p, (size_t)atoi(c + 1));
		else
			q = jsschema_place_member(p, c, (size_t)(e - c));
		jsschema_place_free(p);
		p = q;
		c = *e == '/' ? e + 1 : e;
	}
	t = jsschema_place_types(p);
	jsschema_place_free(p);
	jsschema_free(js);
	json_decref(s);
	return t;
}

static void
test_places(void)
{
	unit_long(types_at("{}", ""), JSSCHEMA_T_ALL, "no schema: all types");
	unit_long(types_at("{\"properties\": {\"a\": {\"type\": \"string\"}}}",
	    "a"), JSSCHEMA_T_STRING, "a property");
	unit_long(types_at("{\"properties\": {\"a\": {\"type\": \"string\"}}}",
	    "b"), JSSCHEMA_T_ALL, "a member no schema names");
	unit_long(types_at("{\"properties\": {\"n\": {\"type\": \"number\"}}}",
	    "n"), JSSCHEMA_T_NUMBER | JSSCHEMA_T_INTEGER,
	    "number counts integer in");
	unit_long(types_at("{\"properties\": {\"o\": {\"anyOf\": [{\"type\": "
	    "\"integer\"}, {\"type\": \"null\"}]}}}", "o"),
	    JSSCHEMA_T_INTEGER | JSSCHEMA_T_NULL, "a nullable anyOf");
	unit_long(types_at("{\"properties\": {\"o\": {\"type\": [\"boolean\", "
	    "\"string\"]}}}", "o"), JSSCHEMA_T_BOOLEAN | JSSCHEMA_T_STRING,
	    "a type array");
	unit_long(types_at("{\"$schema\": "
	    "\"https://json-schema.org/draft/2020-12/schema\", \"properties\": "
	    "{\"l\": {\"$ref\": \"#/$defs/list\"}}, \"$defs\": {\"list\": "
	    "{\"type\": \"array\", \"items\": {\"$ref\": \"#/$defs/it\"}}, "
	    "\"it\": {\"type\": \"object\", \"properties\": {\"z\": {\"enum\": "
	    "[\"007\", \"008\"]}}}}}", "l/#3/z"), JSSCHEMA_T_STRING,
	    "through $ref into $defs, items and an enum of strings");
	unit_long(types_at("{\"$schema\": "
	    "\"https://json-schema.org/draft/2020-12/schema\", \"prefixItems\": "
	    "[{\"type\": \"null\"}], \"items\": {\"type\": \"boolean\"}}", "#0"),
	    JSSCHEMA_T_NULL, "prefixItems");
	unit_long(types_at("{\"$schema\": "
	    "\"https://json-schema.org/draft/2020-12/schema\", \"prefixItems\": "
	    "[{\"type\": \"null\"}], \"items\": {\"type\": \"boolean\"}}", "#1"),
	    JSSCHEMA_T_BOOLEAN, "items after prefixItems");
	unit_long(types_at("{\"allOf\": [{\"type\": [\"string\", \"integer\"]}, "
	    "{\"type\": [\"integer\", \"null\"]}]}", ""), JSSCHEMA_T_INTEGER,
	    "allOf: what every branch allows");
	unit_long(types_at("{\"patternProperties\": {\"^x-\": {\"type\": "
	    "\"integer\"}}, \"additionalProperties\": {\"type\": \"boolean\"}}",
	    "x-a"), JSSCHEMA_T_INTEGER, "patternProperties");
	unit_long(types_at("{\"patternProperties\": {\"^x-\": {\"type\": "
	    "\"integer\"}}, \"additionalProperties\": {\"type\": \"boolean\"}}",
	    "y"), JSSCHEMA_T_BOOLEAN, "additionalProperties");
	unit_long(types_at("{\"properties\": {\"f\": false}}", "f"), 0,
	    "a false schema allows nothing");
	unit_long(types_at("{\"$defs\": {\"a\": {\"type\": \"array\", \"items\": "
	    "{\"$ref\": \"#/$defs/a\"}}}, \"$ref\": \"#/$defs/a\"}", "#0/#0/#0"),
	    JSSCHEMA_T_ARRAY, "a recursive schema");
}

/* jsschema_external_ref on schema (against base) is want (NULL: none). */
static void
check_external(const char *schema, const char *base, const char *want,
    const char *what)
{
	json_t *s = parse(schema);
	char *got = jsschema_external_ref(s, base);

	if (want == NULL)
		unit_ok(got == NULL, what);
	else
		unit_str(got != NULL ? got : "(none)", want, what);
	free(got);
	json_decref(s);
}

static void
test_external_ref(void)
{
	check_external("{\"$ref\": \"#/$defs/a\", \"$defs\": {\"a\": {}}}",
	    NULL, NULL, "a pointer into the document stays in it");
	check_external("{\"properties\": {\"a\": {\"$ref\": \"#\"}}}", NULL,
	    NULL, "\"#\" stays");
	check_external("{\"$ref\": \"file:///home/user/secret.json\"}", NULL,
	    "file:///home/user/secret.json", "a file: URI leaves");
	check_external("{\"properties\": {\"a\": {\"items\": {\"$ref\": "
	    "\"other.json#/x\"}}}}", NULL, "other.json#/x",
	    "a relative reference leaves, deep in the schema");
	check_external("{\"anyOf\": [{\"$ref\": \"#/$defs/x\"}], \"$defs\": "
	    "{\"x\": {\"$ref\": \"https://example.com/s.json\"}}}", NULL,
	    "https://example.com/s.json", "an http: one, in $defs");
	check_external("{\"$id\": \"https://example.com/a.json\", \"$defs\": "
	    "{\"b\": {\"$id\": \"b.json\", \"type\": \"string\"}}, "
	    "\"properties\": {\"x\": {\"$ref\": \"b.json\"}, \"y\": "
	    "{\"$ref\": \"https://example.com/a.json#/$defs/b\"}}}", NULL,
	    NULL, "one to a URI the document's $ids give stays");
	check_external("{\"$ref\": \"http://json-schema.org/draft-07/schema#\"}",
	    NULL, NULL, "a built-in meta-schema, which reads no file, does "
	    "not count");
	check_external("{\"$schema\": \"file:///etc/meta.json\"}", NULL,
	    "file:///etc/meta.json", "a $schema no draft knows leaves");
	check_external("{\"$schema\": "
	    "\"https://json-schema.org/draft/2020-12/schema\"}", NULL, NULL,
	    "a draft's $schema does not");
	check_external("{\"$dynamicRef\": \"x.json#meta\"}", NULL, "x.json#meta",
	    "a $dynamicRef leaves too");
	check_external("{\"enum\": [{\"$ref\": \"x.json\"}], \"const\": "
	    "{\"$ref\": \"x.json\"}, \"default\": {\"$ref\": \"x.json\"}, "
	    "\"examples\": [{\"$ref\": \"x.json\"}]}", NULL, NULL,
	    "a \"$ref\" in data (enum, const, default, examples) is no "
	    "reference");
	check_external("{\"properties\": {\"enum\": {\"$ref\": \"x.json\"}}}",
	    NULL, "x.json", "a property named enum is a schema");
	check_external("{\"$ref\": \"t.json#/$defs/a\"}", "file:///d/t.json",
	    NULL, "against its base, its own file stays");
	check_external("{\"$ref\": \"u.json\"}", "file:///d/t.json", "u.json",
	    "a sibling file leaves its document");
	check_external("true", NULL, NULL, "a boolean schema has none");
}

/*
 * jsschema_compile_below on schema, whose base is dir/t.json and root
 * dir: NULL and the message want with errno EACCES (refused) or EINVAL,
 * or a schema (want NULL).
 */
static void
check_below(const char *dir, const char *schema, int errnum,
    const char *want, const char *what)
{
	json_t *s = parse(schema);
	struct jsschema *js;
	char base[512], err[512];

	snprintf(base, sizeof(base), "file://%s/t.json", dir);
	errno = 0;
	js = jsschema_compile_below(s, base, dir, NULL, err, sizeof(err));
	if (want == NULL) {
		unit_ok(js != NULL, what);
		if (js == NULL)
			printf("#   %s\n", err);
	} else {
		unit_ok(js == NULL && errno == errnum, unit_fmt("%s: refused, "
		    "errno %s", what, errnum == EACCES ? "EACCES" : "EINVAL"));
		unit_str(err, want, unit_fmt("%s: message", what));
	}
	jsschema_free(js);
	json_decref(s);
}

static void
test_below_root(void)
{
	char top[] = "/tmp/llmkit-jsschema-XXXXXX", dir[256], path[512];
	char want[1024], *real;
	static const char *const made[] = {
		"d/sub/s.json", "d/sub/q.json", "d/sub", "d/fifo", "d/dir",
		"d/out.json",
		"d/in.json", "d/p.json", "d", "secret.json"
	};
	const char *why;
	FILE *fp;
	size_t i;

	if (mkdtemp(top) == NULL)
		unit_bail("mkdtemp");
	snprintf(dir, sizeof(dir), "%s/d", top);
	snprintf(path, sizeof(path), "%s/sub", dir);
	if (mkdir(dir, 0700) == -1 || mkdir(path, 0700) == -1)
		unit_bail(path);
	if ((real = realpath(dir, NULL)) == NULL)
		unit_bail(dir);
	put(top, "secret.json", "{\"type\": \"string\"}");
	put(dir, "p.json", "{\"type\": \"integer\"}");
	put(path, "s.json", "{\"$ref\": \"../p.json\"}");
	put(path, "q.json", "{\"type\": \"integer\"}");
	snprintf(path, sizeof(path), "%s/fifo", dir);
	if (mkfifo(path, 0600) == -1)
		unit_bail(path);
	snprintf(path, sizeof(path), "%s/dir", dir);
	if (mkdir(path, 0700) == -1)
		unit_bail(path);
	snprintf(path, sizeof(path), "%s/out.json", dir);
	snprintf(want, sizeof(want), "%s/secret.json", top);
	if (symlink(want, path) == -1)
		unit_bail(path);
	snprintf(path, sizeof(path), "%s/in.json", dir);
	if (symlink("sub/q.json", path) == -1)
		unit_bail(path);

	check_below(dir, "{\"$ref\": \"#/$defs/a\", \"$defs\": {\"a\": {}}}",
	    0, NULL, "below: the same document");
	check_below(dir, "{\"$ref\": \"p.json\"}", 0, NULL,
	    "below: a sibling file");
	check_below(dir, "{\"$ref\": \"sub/s.json\"}", 0, NULL,
	    "below: a file in a subdirectory, which refers back up to the root");
	check_below(dir, "{\"$ref\": \"in.json\"}", 0, NULL,
	    "below: a symbolic link that stays below");
	check_below(dir, "{\"$ref\": \"http://json-schema.org/draft-07/"
	    "schema#\"}", 0, NULL, "below: a built-in meta-schema");
	snprintf(want, sizeof(want), "/$ref: cannot load \"file://%s/"
	    "secret.json\": not a file below %s", top, real);
	check_below(dir, "{\"$ref\": \"../secret.json\"}", EACCES, want,
	    "below: a parent's file");
	snprintf(want, sizeof(want), "/$ref: cannot load \"file://%s/"
	    "out.json\": not a file below %s", dir, real);
	check_below(dir, "{\"$ref\": \"out.json\"}", EACCES, want,
	    "below: a symbolic link out");
	snprintf(want, sizeof(want), "/$ref: cannot load \"file://%s/"
	    "%%2E%%2E/secret.json\": not a file below %s", dir, real);
	check_below(dir, "{\"$ref\": \"%2e%2e/secret.json\"}", EACCES, want,
	    "below: dots percent-encoded");
	snprintf(want, sizeof(want), "/$ref: cannot load \"file://%s/fifo\": "
	    "not a regular file", dir);
	check_below(dir, "{\"$ref\": \"fifo\"}", EACCES, want,
	    "below: a FIFO, not waited on");
	snprintf(want, sizeof(want), "/$ref: cannot load \"file://%s/dir\": "
	    "Is a directory", dir);
	check_below(dir, "{\"$ref\": \"dir\"}", EACCES, want,
	    "below: a directory");
	snprintf(want, sizeof(want), "/$ref: cannot load \"file:///dev/zero\": "
	    "not a file below %s", real);
	check_below(dir, "{\"$ref\": \"file:///dev/zero\"}", EACCES, want,
	    "below: a device");
	snprintf(want, sizeof(want), "/$ref: cannot load "
	    "\"https://example.com/s.json\": not a file below %s", real);
	check_below(dir, "{\"$ref\": \"https://example.com/s.json\"}", EACCES,
	    want, "below: http:");
	snprintf(want, sizeof(want), "/$ref: cannot load "
	    "\"file://host/x.json\": not a file below %s", real);
	check_below(dir, "{\"$ref\": \"file://host/x.json\"}", EACCES, want,
	    "below: a file: URI with a host");
	snprintf(want, sizeof(want), "cannot load \"file://%s/secret.json\": "
	    "not a file below %s", top, real);
	snprintf(path, sizeof(path), "{\"$schema\": \"file://%s/secret.json\"}",
	    top);
	check_below(dir, path, EACCES, want, "below: a $schema out");
	snprintf(want, sizeof(want), "cannot load \"https://example.com/m\": "
	    "not a file below %s", real);
	check_below(dir, "{\"$schema\": \"https://example.com/m\"}", EACCES,
	    want, "below: a $schema over http: is refused too");
	snprintf(want, sizeof(want), "/$ref: cannot load \"file://%s/"
	    "none.json\": No such file or directory", dir);
	check_below(dir, "{\"$ref\": \"none.json\"}", EINVAL, want,
	    "below: a missing file is an error, not a refusal");
	snprintf(want, sizeof(want), "/$ref: cannot resolve $ref "
	    "\"#/nowhere\" (\"file://%s/t.json#/nowhere\")", dir);
	check_below(dir, "{\"$ref\": \"#/nowhere\"}", EINVAL, want,
	    "below: an error of the document itself");

	/* jsschema_fopen: regular files alone, at once */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	unit_ok(jsschema_fopen(path, &why) == NULL &&
	    strcmp(why, "not a regular file") == 0, "fopen: a FIFO is refused "
	    "without waiting for a writer");
	unit_ok(jsschema_fopen("/dev/null", &why) == NULL &&
	    strcmp(why, "not a regular file") == 0, "fopen: a device too");
	unit_ok(jsschema_fopen(dir, &why) == NULL &&
	    strcmp(why, "Is a directory") == 0, "fopen: a directory");
	unit_ok(jsschema_fopen("/nonexistent/x", &why) == NULL &&
	    strcmp(why, "No such file or directory") == 0,
	    "fopen: a missing file");
	snprintf(path, sizeof(path), "%s/p.json", dir);
	fp = jsschema_fopen(path, &why);
	unit_ok(fp != NULL && fgetc(fp) == '{', "fopen: a regular file is "
	    "read, and blocks again as files do");
	if (fp != NULL)
		fclose(fp);

	for (i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", top, made[i]);
		if (unlink(path) == -1)
			rmdir(path);
	}
	rmdir(top);
	free(real);
}

/* jsschema_document: what the compilation read, by URI. */
static void
test_document(void)
{
	json_t *s = parse("{\"$id\": \"https://example.com/a.json\", "
	    "\"definitions\": {\"b\": {\"$id\": \"b.json\"}}, "
	    "\"properties\": {\"m\": {\"$ref\": "
	    "\"http://json-schema.org/draft-07/schema#\"}}}");
	struct jsschema *js;
	const json_t *m;
	char err[512];

	js = jsschema_compile(s, "file:///x/t.json", NULL, err, sizeof(err));
	unit_ok(js != NULL, "document: compiles");
	unit_ok(jsschema_document(js, "file:///x/t.json") == s,
	    "document: the schema, by its base");
	unit_ok(jsschema_document(js, "https://example.com/a.json#/x") == s,
	    "document: by its $id, the fragment ignored");
	unit_ok(jsschema_document(js, "https://example.com/b.json") ==
	    json_object_get(json_object_get(s, "definitions"), "b"),
	    "document: a subschema by its $id");
	m = jsschema_document(js, "http://json-schema.org/draft-07/schema");
	unit_ok(json_is_object(m) && json_object_get(m, "definitions") != NULL,
	    "document: a meta-schema it read");
	unit_ok(jsschema_document(js, "file:///x/other.json") == NULL,
	    "document: none for what it did not read");
	jsschema_free(js);
	json_decref(s);
}

/*
 * schema's notes (each "INSTANCE|KEYWORD|MESSAGE") for instance, with
 * want, and its verdict valid.
 */
static void
check_notes(const char *schema, const char *instance, int format,
    const char *want, const char *what)
{
	struct jsschema_opts opts = { 0 };
	json_t *s = parse(schema), *i = parse(instance);
	struct jsschema_result res, notes;
	struct jsschema *js;
	struct buf got = BUF_INIT;
	char err[512];
	size_t k;
	int r;

	opts.format = format;
	if ((js = jsschema_compile(s, NULL, &opts, err, sizeof(err))) == NULL) {
		unit_ok(0, what);
		printf("#   does not compile: %s\n", err);
		goto out;
	}
	r = jsschema_validate_notes(js, i, &res, &notes);
	for (k = 0; k < notes.nerrors; k++)
		buf_printf(&got, "%s|%s|%s\n", notes.errors[k].instance,
		    notes.errors[k].keyword, notes.errors[k].message);
	buf_cstr(&got);
	if (r != 0) {
		unit_ok(0, what);
		printf("#   status %d\n", r);
	} else
		unit_str(got.data, want, what);
	jsschema_result_free(&res);
	jsschema_result_free(&notes);
	jsschema_free(js);
out:
	buf_free(&got);
	json_decref(s);
	json_decref(i);
}

/* A format that is an annotation and fails: a note, never an error. */
static void
test_format_notes(void)
{
	const char *s20 = "{\"$schema\": \"https://json-schema.org/draft/"
	    "2020-12/schema\", \"properties\": {\"a\": {\"format\": "
	    "\"email\"}, \"b\": {\"$ref\": \"#/$defs/d\"}, \"c\": "
	    "{\"anyOf\": [{\"format\": \"ipv4\"}]}}, \"$defs\": {\"d\": "
	    "{\"format\": \"date\"}}}";

	check_notes(s20, "{\"a\": \"x\", \"b\": \"y\", \"c\": \"z\"}",
	    JSSCHEMA_FORMAT_DIALECT,
	    "/a|/properties/a/format|string \"x\" is not a valid email; "
	    "\"format\" is an annotation in 2020-12\n"
	    "/b|/properties/b/$ref/format|string \"y\" is not a valid date; "
	    "\"format\" is an annotation in 2020-12\n",
	    "notes: 2020-12 formats that fail, through $ref, not in anyOf");
	check_notes(s20, "{\"a\": \"me@example.com\", \"b\": "
	    "\"2024-02-29\"}", JSSCHEMA_FORMAT_DIALECT, "",
	    "notes: none for formats that hold");
	check_notes(s20, "{\"a\": \"x\"}", JSSCHEMA_FORMAT_ANNOTATE, "",
	    "notes: none with JSSCHEMA_FORMAT_ANNOTATE");
	check_notes("{\"$schema\": \"https://json-schema.org/draft/2019-09/"
	    "schema\", \"format\": \"no-such\"}", "\"x\"",
	    JSSCHEMA_FORMAT_DIALECT, "", "notes: none for an unknown format");
	/* the fuzzer's: "" was looked for before the start of the list */
	check_notes("{\"$schema\": \"http://json-schema.org/draft-04/"
	    "schema#\", \"properties\": {\"a\": {\"format\": \"\"}, "
	    "\"b\": {\"format\": \"email hostname\"}}}",
	    "{\"a\": \"x\", \"b\": \"y\"}", JSSCHEMA_FORMAT_DIALECT, "",
	    "notes: none for \"\" or \"email hostname\" in Draft-04");
	unit_str(jsschema_uri_dialect("https://json-schema.org/draft/2020-12/"
	    "schema"), "2020-12", "uri_dialect: 2020-12");
	unit_str(jsschema_uri_dialect("http://json-schema.org/draft-04/"
	    "schema#"), "Draft-04", "uri_dialect: Draft-04");
	unit_ok(jsschema_uri_dialect("https://example.com/s") == NULL,
	    "uri_dialect: another URI is NULL");
	unit_ok(jsschema_uri_dialect(NULL) == NULL, "uri_dialect: NULL");
}

int
main(void)
{
	test_compile_errors();
	test_type_messages();
	test_value_messages();
	test_number_messages();
	test_string_messages();
	test_array_messages();
	test_object_messages();
	test_applicators();
	test_refs();
	test_meta_schema();
	test_dialects();
	test_refmap();
	test_file_uris();
	test_api();
	test_depth_limits();
	test_annotation_memo();
	test_places();
	test_hashed_equality();
	test_opts();
	test_external_ref();
	test_below_root();
	test_document();
	test_format_notes();
	return unit_done();
}
