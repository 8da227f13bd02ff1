/*
 * Unit tests of lib/tooldefs: each form of tool definitions read, with
 * its names, descriptions and compiled schemas (2020-12 by default,
 * relative references against the file); every error message; exact
 * look-up; and the prompt: its exact bytes for one set (the rules as the
 * golden prompt of tools-nested.json has them), and the example calls
 * that schemas of every kind give.
 */
#include <sys/stat.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "buf.h"
#include "jsschema.h"
#include "tooldefs.h"
#include "unit.h"

#define DIR	"t/data/toolcall-parse/"

/*
 * The rules that begin every prompt, as t/toolcall-parse.bats checks them
 * byte for byte: the golden prompt up to its list of tools.
 */
static void
golden_rules(struct buf *b)
{
	FILE *fp;
	char *line = NULL;
	size_t size = 0;
	ssize_t n;

	if ((fp = fopen(DIR "tools-nested.prompt", "r")) == NULL)
		unit_bail(DIR "tools-nested.prompt");
	while ((n = getline(&line, &size, fp)) > 0 &&
	    strcmp(line, "# Tools\n") != 0)
		buf_add(b, line, (size_t)n);
	if (b->len > 0)
		b->len--;	/* the empty line before "# Tools" */
	free(line);
	fclose(fp);
}

/* Loads path into defs: the status, the message in err. */
static int
load(struct tooldefs *defs, const char *path, char *err, size_t errlen)
{
	err[0] = '\0';
	return tooldefs_load(defs, path, err, errlen);
}

/* Whether instance (JSON text) is valid for tool name's schema. */
static int
valid(const struct tooldefs *defs, const char *name, const char *instance)
{
	const struct tooldef *d = tooldefs_find(defs, name, strlen(name));
	struct jsschema_result res;
	json_t *v;
	int rc;

	if (d == NULL || d->js == NULL)
		return -1;
	v = json_loads(instance, 0, NULL);
	rc = jsschema_validate(d->js, v, &res);
	if (rc != 0)
		jsschema_result_free(&res);
	json_decref(v);
	return rc;
}

static void
test_forms(void)
{
	static const struct {
		const char	*file;
		const char	*names;
		const char	*description;	/* of the first */
	} t[] = {
		{ DIR "tools-mcp.json", "read_file, get_time",
		    "Reads a file." },
		{ DIR "tools-mcp-response.json", "read_file",
		    "Reads a file." },
		{ DIR "tools-mcp-array.json", "read_file", NULL },
		{ DIR "tools-openai-chat.json", "get_weather",
		    "The weather in a city." },
		{ DIR "tools-openai-responses.json", "get_weather",
		    "The weather in a city." },
		{ DIR "tools-anthropic.json", "get_stock_price",
		    "The current price of a stock." },
		{ DIR "tools-nested.json", "apply_diff, search_files",
		    "Applies edits to a file: each replaces the search text "
		    "with the replacement." },
		{ DIR "tools-ref.json", "move_to", NULL },
	};
	struct tooldefs defs = { NULL, 0, NULL };
	struct buf b = BUF_INIT;
	char err[1024];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		unit_long(load(&defs, t[i].file, err, sizeof(err)), 0,
		    unit_fmt("%s: read", t[i].file));
		unit_str(err, "", unit_fmt("%s: no message", t[i].file));
		buf_reset(&b);
		tooldefs_names(&defs, &b);
		unit_mem(b.data, b.len, t[i].names,
		    unit_fmt("%s: the names in order", t[i].file));
		unit_ok(defs.n > 0 && (t[i].description == NULL ?
		    defs.v[0].description == NULL :
		    defs.v[0].description != NULL &&
		    strcmp(defs.v[0].description, t[i].description) == 0),
		    unit_fmt("%s: the description", t[i].file));
		unit_ok(defs.n > 0 && defs.v[0].schema != NULL &&
		    defs.v[0].js != NULL && defs.v[0].file == t[i].file,
		    unit_fmt("%s: the schema compiled, the file kept",
		    t[i].file));
		tooldefs_free(&defs);
		unit_ok(defs.n == 0 && defs.v == NULL,
		    unit_fmt("%s: freed", t[i].file));
	}
	buf_free(&b);
}

static void
test_no_schema(void)
{
	struct tooldefs defs = { NULL, 0, NULL };
	const struct tooldef *d;
	char err[1024];

	load(&defs, DIR "tools-mcp.json", err, sizeof(err));
	d = tooldefs_find(&defs, "get_time", 8);
	unit_ok(d != NULL && d->schema == NULL && d->js == NULL,
	    "a tool without a schema has none: the seed's typing");
	tooldefs_free(&defs);
}

static void
test_find(void)
{
	struct tooldefs defs = { NULL, 0, NULL };
	struct buf b = BUF_INIT;
	char err[1024];

	load(&defs, DIR "tools-mcp.json", err, sizeof(err));
	load(&defs, DIR "tools-anthropic.json", err, sizeof(err));
	tooldefs_names(&defs, &b);
	unit_mem(b.data, b.len, "read_file, get_time, get_stock_price",
	    "two files: their tools in the order of the files");
	unit_ok(tooldefs_find(&defs, "get_time", 8) == &defs.v[1],
	    "find: the tool of that name");
	unit_ok(tooldefs_find(&defs, "get_timeout", 8) == &defs.v[1],
	    "find: len bytes of the name, no more");
	unit_ok(tooldefs_find(&defs, "get_tim", 7) == NULL,
	    "find: a prefix of a name is not the name");
	unit_ok(tooldefs_find(&defs, "Get_time", 8) == NULL,
	    "find: byte for byte, case included");
	unit_ok(tooldefs_find(&defs, "get_time ", 9) == NULL,
	    "find: white space included");
	tooldefs_free(&defs);
	buf_free(&b);
}

static void
test_validate(void)
{
	static const char draft[] =
	    "[{\"name\": \"t\", \"input_schema\": {\"type\": \"object\", "
	    "\"properties\": {\"p\": {\"prefixItems\": [{\"type\": "
	    "\"integer\"}]}}}},"
	    " {\"name\": \"u\", \"input_schema\": {\"$schema\": "
	    "\"http://json-schema.org/draft-07/schema#\", \"type\": "
	    "\"object\", \"properties\": {\"p\": {\"prefixItems\": "
	    "[{\"type\": \"integer\"}]}}}}]";
	struct tooldefs defs = { NULL, 0, NULL };
	struct buf b = BUF_INIT;
	char err[1024], path[sizeof(UNIT_TMPNAME)];

	load(&defs, DIR "tools-nested.json", err, sizeof(err));
	unit_long(valid(&defs, "apply_diff", "{\"path\": \"a\", \"edits\": "
	    "[{\"search\": \"x\", \"replace\": \"y\"}]}"), 0,
	    "a call that fits the schema is valid");
	unit_long(valid(&defs, "apply_diff", "{\"path\": \"a\", \"edits\": "
	    "[{\"search\": \"x\"}]}"), 1,
	    "a call that misses a property of a $defs object is not");
	unit_long(valid(&defs, "search_files", "{\"pattern\": \"a\", "
	    "\"exclude\": [], \"limits\": null}"), 0,
	    "a type array with null takes null");
	tooldefs_free(&defs);

	unit_tmpfile(path, draft, sizeof(draft) - 1);
	unit_long(load(&defs, path, err, sizeof(err)), 0, "draft: read");
	unit_long(valid(&defs, "t", "{\"p\": [\"x\"]}"), 1,
	    "a schema without $schema is 2020-12: prefixItems applies");
	unit_long(valid(&defs, "u", "{\"p\": [\"x\"]}"), 0,
	    "a schema's own $schema wins: Draft-07 knows no prefixItems");
	unlink(path);
	tooldefs_free(&defs);

	/* from elsewhere, the reference still finds its file */
	unit_long(chdir("t"), 0, "chdir t");
	unit_long(load(&defs, "data/toolcall-parse/tools-ref.json", err,
	    sizeof(err)), 0, "a relative $ref: read from another directory");
	unit_str(err, "", "a relative $ref: no message");
	unit_long(valid(&defs, "move_to", "{\"to\": {\"x\": 1, \"y\": 2}}"),
	    0, "a relative $ref resolves against the definition file");
	unit_long(valid(&defs, "move_to", "{\"to\": {\"x\": 1}}"), 1,
	    "a relative $ref: the other file's required applies");
	tooldefs_prompt(&defs, TOOLDEFS_TOOL, &b);
	unit_ok(b.data != NULL && strstr(b.data, "Parameters:\n"
	    "- to (object, required)\n  - x (number, required)\n"
	    "  - y (number, required)\n") != NULL &&
	    strstr(b.data, "  <to>\n    <x>1.5</x>\n    <y>1.5</y>\n"
	    "  </to>\n") != NULL,
	    "the prompt follows a $ref into the file beside the definitions");
	unit_long(chdir(".."), 0, "chdir ..");
	tooldefs_free(&defs);
	buf_free(&b);
}

static void
test_errors(void)
{
	static const struct {
		const char	*file;
		const char	*msg;	/* after "FILE" */
	} t[] = {
		{ "tools-bad-json.json", ":2:16: the tool definitions are not "
		    "JSON: string or '}' expected near '}'" },
		{ "tools-dup-key.json", ":1:21: the tool definitions are not "
		    "JSON: duplicate object key near '\"tools\"'" },
		{ "tools-bad-shape.json", ": not tool definitions: expected "
		    "an MCP tools/list result ({\"tools\":[...]}) or the "
		    "JSON-RPC response that holds it, or an array of MCP, "
		    "OpenAI Chat Completions, OpenAI Responses or Anthropic "
		    "tools" },
		{ "tools-no-name.json", ": /tools/0: a tool must have a "
		    "\"name\" string" },
		{ "tools-twice.json", ": /1: tool \"a\" is defined twice, "
		    "first in " DIR "tools-twice.json" },
		{ "tools-schema-string.json", ": /0: tool \"f\": the input "
		    "schema must be an object or a boolean, not a string" },
		{ "tools-builtin.json", ": /0: a tool of type "
		    "\"web_search_preview\" is not a function and cannot be "
		    "called in XML" },
		{ "tools-bad-function.json", ": /0: \"function\" must be an "
		    "object, not a string" },
		{ "tools-not-object.json", ": /tools/0: a tool must be an "
		    "object, not a string" },
		{ "tools-bad-type.json", ": /0: \"type\" must be a string, "
		    "not a number" },
		{ "missing.json", ": No such file or directory" },
	};
	struct tooldefs defs = { NULL, 0, NULL };
	char err[1024], cwd[4096], want[8192];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(want, sizeof(want), DIR "%s%s", t[i].file,
		    t[i].msg);
		snprintf(cwd, sizeof(cwd), DIR "%s", t[i].file);
		unit_long(load(&defs, cwd, err, sizeof(err)), -1,
		    unit_fmt("%s: refused", t[i].file));
		unit_str(err, want, unit_fmt("%s: the message", t[i].file));
		tooldefs_free(&defs);
	}

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		unit_bail("getcwd");
	snprintf(want, sizeof(want), DIR "tools-bad-schema.json: /0/function: "
	    "tool \"f\": the input schema does not compile: "
	    "/properties/p/$ref: cannot resolve $ref \"#/$defs/missing\" "
	    "(\"file://%s/" DIR "tools-bad-schema.json#/$defs/missing\")",
	    cwd);
	unit_long(load(&defs, DIR "tools-bad-schema.json", err, sizeof(err)),
	    -1, "a schema that does not compile: refused");
	unit_str(err, want, "a schema that does not compile: jsschema's "
	    "message, with the tool");
	tooldefs_free(&defs);

	load(&defs, DIR "tools-mcp.json", err, sizeof(err));
	unit_long(load(&defs, DIR "tools-mcp-array.json", err, sizeof(err)),
	    -1, "a name defined in an earlier file: refused");
	unit_str(err, DIR "tools-mcp-array.json: /0: tool \"read_file\" is "
	    "defined twice, first in " DIR "tools-mcp.json",
	    "a name defined in an earlier file: where the first was");
	unit_long((long)defs.n, 2, "the earlier file's tools are kept");
	tooldefs_free(&defs);
}

static void
test_prompt_exact(void)
{
	static const char tools[] =
	    "\n"
	    "# Tools\n"
	    "\n"
	    "## get_weather\n"
	    "\n"
	    "The weather in a city.\n"
	    "\n"
	    "Parameters:\n"
	    "- city (string, required)\n"
	    "- unit (string or null, required, one of \"celsius\", "
	    "\"fahrenheit\", null)\n"
	    "\n"
	    "Example:\n"
	    "\n"
	    "<tool>\n"
	    "<server_name>local</server_name>\n"
	    "<tool_name>get_weather</tool_name>\n"
	    "<arguments>\n"
	    "  <city>example</city>\n"
	    "  <unit>celsius</unit>\n"
	    "</arguments>\n"
	    "</tool>\n";
	struct tooldefs defs = { NULL, 0, NULL };
	struct buf b = BUF_INIT, again = BUF_INIT, want = BUF_INIT;
	char err[1024];

	golden_rules(&want);
	tooldefs_prompt(&defs, TOOLDEFS_TOOL, &b);
	unit_bytes(b.data, b.len, want.data, want.len,
	    "no tools: the rules alone");
	load(&defs, DIR "tools-openai-chat.json", err, sizeof(err));
	buf_reset(&b);
	tooldefs_prompt(&defs, TOOLDEFS_TOOL, &b);
	buf_adds(&want, tools);
	unit_bytes(b.data, b.len, want.data, want.len,
	    "the prompt of tools-openai-chat.json, byte for byte");
	tooldefs_prompt(&defs, TOOLDEFS_TOOL, &again);
	unit_bytes(again.data, again.len, b.data, b.len,
	    "the same definitions give the same bytes");
	tooldefs_free(&defs);
	buf_free(&b);
	buf_free(&again);
	buf_free(&want);
}

/* The part of the prompt from "Parameters:" on, for one schema. */
static void
tool_part(const char *schema, struct buf *out)
{
	struct tooldefs defs = { NULL, 0, NULL };
	struct buf b = BUF_INIT, doc = BUF_INIT;
	char err[1024], path[sizeof(UNIT_TMPNAME)];
	const char *at;

	buf_printf(&doc, "[{\"name\": \"t\", \"input_schema\": %s}]", schema);
	unit_tmpfile(path, doc.data, doc.len);
	if (load(&defs, path, err, sizeof(err)) != 0)
		printf("# %s\n", err);
	unlink(path);
	tooldefs_prompt(&defs, TOOLDEFS_TOOL, &b);
	buf_reset(out);
	if (b.data != NULL && (at = strstr(b.data, "Parameters")) != NULL)
		buf_add(out, at, b.len - (size_t)(at - b.data));
	tooldefs_free(&defs);
	buf_free(&b);
	buf_free(&doc);
}

#define CALL_HEAD	"\nExample:\n\n<tool>\n<server_name>local</server_name>\n" \
			"<tool_name>t</tool_name>\n<arguments>\n"
#define CALL_TAIL	"</arguments>\n</tool>\n"
#define ARGS		"Type arguments: an object that holds the parameters " \
			"above.\n"

/* d0 to d24 of an anyOf of two references to the next, d25 an integer. */
#define D(i, j)		"\"d" #i "\": {\"anyOf\": [{\"$ref\": \"#/$defs/d" \
			#j "\"}, {\"$ref\": \"#/$defs/d" #j "\"}]}, "
#define CHAIN25		"{\"properties\": {\"a\": {\"$ref\": \"#/$defs/d0\"}}, " \
			"\"$defs\": {" D(0, 1) D(1, 2) D(2, 3) D(3, 4) \
			D(4, 5) D(5, 6) D(6, 7) D(7, 8) D(8, 9) D(9, 10) \
			D(10, 11) D(11, 12) D(12, 13) D(13, 14) D(14, 15) \
			D(15, 16) D(16, 17) D(17, 18) D(18, 19) D(19, 20) \
			D(20, 21) D(21, 22) D(22, 23) D(23, 24) D(24, 25) \
			"\"d25\": {\"type\": \"integer\"}}}"
/* l0 to l29 of two required properties of the next, l30 an integer. */
#define L(i, j)		"\"l" #i "\": {\"properties\": {\"a\": {\"$ref\": " \
			"\"#/$defs/l" #j "\"}, \"b\": {\"$ref\": \"#/$defs/l" \
			#j "\"}}, \"required\": [\"a\", \"b\"]}, "
#define LATTICE30	"{\"$ref\": \"#/$defs/l0\", \"$defs\": {" L(0, 1) \
			L(1, 2) L(2, 3) L(3, 4) L(4, 5) L(5, 6) L(6, 7) \
			L(7, 8) L(8, 9) L(9, 10) L(10, 11) L(11, 12) \
			L(12, 13) L(13, 14) L(14, 15) L(15, 16) L(16, 17) \
			L(17, 18) L(18, 19) L(19, 20) L(20, 21) L(21, 22) \
			L(22, 23) L(23, 24) L(24, 25) L(25, 26) L(26, 27) \
			L(27, 28) L(28, 29) L(29, 30) \
			"\"l30\": {\"type\": \"integer\"}}}"

static void
test_prompt_examples(void)
{
	static const struct {
		const char	*what;
		const char	*schema;
		const char	*want;
	} t[] = {
		{ "no properties", "{\"type\": \"object\"}",
		    "Parameters: none.\n" CALL_HEAD CALL_TAIL },
		{ "boolean schema", "true",
		    "Parameters: none.\n" CALL_HEAD CALL_TAIL },
		{ "no required: every property, placeholders by type",
		    "{\"properties\": {\"s\": {\"type\": \"string\"}, "
		    "\"i\": {\"type\": \"integer\"}, \"n\": {\"type\": "
		    "\"number\"}, \"b\": {\"type\": \"boolean\"}, \"z\": "
		    "{\"type\": \"null\"}, \"a\": {}}}",
		    "Parameters:\n- s (string)\n- i (integer)\n- n (number)\n"
		    "- b (boolean)\n- z (null)\n- a (any)\n" CALL_HEAD
		    "  <s>example</s>\n  <i>1</i>\n  <n>1.5</n>\n"
		    "  <b>true</b>\n  <z>null</z>\n  <a>example</a>\n"
		    CALL_TAIL },
		{ "required ones only, in the order of properties",
		    "{\"properties\": {\"a\": {}, \"b\": {}, \"c\": {}}, "
		    "\"required\": [\"c\", \"a\"]}",
		    "Parameters:\n- a (any, required)\n- b (any)\n"
		    "- c (any, required)\n" CALL_HEAD
		    "  <a>example</a>\n  <c>example</c>\n" CALL_TAIL },
		{ "const, enum, default and examples, in that order",
		    "{\"properties\": {\"c\": {\"const\": 3, \"default\": 4}, "
		    "\"e\": {\"enum\": [\"x\", 2], \"default\": 2}, "
		    "\"d\": {\"default\": false, \"examples\": [true]}, "
		    "\"x\": {\"examples\": [2.5]}}}",
		    "Parameters:\n- c (integer, always 3, default 4)\n"
		    "- e (string or integer, one of \"x\", 2, default 2)\n"
		    "- d (any, default false)\n- x (any)\n" CALL_HEAD
		    "  <c>3</c>\n  <e>x</e>\n  <d>false</d>\n  <x>2.5</x>\n"
		    CALL_TAIL },
		{ "strings: escaped, in CDATA over lines, ]]> split",
		    "{\"properties\": {\"a\": {\"default\": \"x < y && z\"}, "
		    "\"b\": {\"default\": \"a]]>b\\nc\"}, \"c\": {\"default\": "
		    "\" pad\"}, \"d\": {\"default\": \"\"}}}",
		    "Parameters:\n- a (any, default \"x < y && z\")\n"
		    "- b (any, default \"a]]>b\\nc\")\n"
		    "- c (any, default \" pad\")\n- d (any, default \"\")\n"
		    CALL_HEAD
		    "  <a>x &lt; y &amp;&amp; z</a>\n"
		    "  <b><![CDATA[a]]]]><![CDATA[>b\nc]]></b>\n"
		    "  <c><![CDATA[ pad]]></c>\n  <d></d>\n" CALL_TAIL },
		{ "bounds and formats",
		    "{\"properties\": {\"i\": {\"type\": \"integer\", "
		    "\"minimum\": 5}, \"j\": {\"type\": \"integer\", "
		    "\"exclusiveMaximum\": 0}, \"n\": {\"type\": \"number\", "
		    "\"maximum\": 0.25}, \"s\": {\"type\": \"string\", "
		    "\"minLength\": 9}, \"t\": {\"type\": \"string\", "
		    "\"maxLength\": 3}, \"u\": {\"type\": \"string\", "
		    "\"format\": \"uri\"}}}",
		    "Parameters:\n- i (integer)\n- j (integer)\n- n (number)\n"
		    "- s (string)\n- t (string)\n- u (string)\n" CALL_HEAD
		    "  <i>5</i>\n  <j>-1</j>\n  <n>0.25</n>\n"
		    "  <s>examplexx</s>\n  <t>exa</t>\n"
		    "  <u>https://example.com/</u>\n" CALL_TAIL },
		{ "arrays: repeated, minItems, prefixItems, nested as JSON",
		    "{\"properties\": {\"a\": {\"type\": \"array\", \"items\": "
		    "{\"type\": \"integer\"}, \"minItems\": 2}, \"p\": "
		    "{\"prefixItems\": [{\"type\": \"string\"}, {\"type\": "
		    "\"boolean\"}]}, \"m\": {\"type\": \"array\", \"items\": "
		    "{\"type\": \"array\", \"items\": {\"type\": "
		    "\"integer\"}}}, \"o\": {\"type\": \"array\", \"items\": "
		    "{\"type\": \"object\", \"properties\": {\"k\": "
		    "{\"const\": \"v\"}}}}}}",
		    "Parameters:\n- a (array of integer)\n- p (array)\n"
		    "- m (array of array of integer)\n- o (array of object)\n"
		    "  - k (string, always \"v\")\n" CALL_HEAD
		    "  <a>1</a>\n  <a>1</a>\n  <p>example</p>\n"
		    "  <p>true</p>\n  <m>[1]</m>\n  <o>\n    <k>v</k>\n"
		    "  </o>\n" CALL_TAIL },
		{ "objects: nested, empty and with keys that are no names",
		    "{\"properties\": {\"o\": {\"type\": \"object\", "
		    "\"properties\": {\"in\": {\"type\": \"object\", "
		    "\"properties\": {\"x\": {\"type\": \"integer\"}}}}}, "
		    "\"e\": {\"type\": \"object\"}, \"k\": {\"default\": "
		    "{\"a b\": 1}}, \"bad name\": {}}}",
		    "Parameters:\n- o (object)\n  - in (object)\n"
		    "    - x (integer)\n- e (object)\n"
		    "- k (any, default {\"a b\":1})\n- bad name (any)\n"
		    CALL_HEAD
		    "  <o>\n    <in>\n      <x>1</x>\n    </in>\n  </o>\n"
		    "  <e>{}</e>\n  <k>{\"a b\":1}</k>\n" CALL_TAIL },
		{ "$ref into $defs, allOf, nullable anyOf, type arrays",
		    "{\"allOf\": [{\"properties\": {\"a\": {\"$ref\": "
		    "\"#/$defs/A\"}}}, {\"required\": [\"a\", \"n\"]}], "
		    "\"properties\": {\"n\": {\"anyOf\": [{\"type\": "
		    "\"null\"}, {\"type\": \"integer\", \"description\": "
		    "\"N.\"}]}, \"t\": {\"type\": [\"null\", \"boolean\"]}}, "
		    "\"$defs\": {\"A\": {\"description\": \"An A.\", "
		    "\"type\": \"object\", \"properties\": {\"x~/\": "
		    "{\"$ref\": \"#/$defs/A/properties/y\"}, \"y\": "
		    "{\"type\": \"string\", \"enum\": [\"q\"]}}}}}",
		    "Parameters:\n- n (null or integer, required)\n"
		    "- t (null or boolean)\n"
		    "- a (object, required): An A.\n"
		    "  - x~/ (string, one of \"q\")\n"
		    "  - y (string, one of \"q\")\n" CALL_HEAD
		    "  <n>1</n>\n  <a>{\"x~/\":\"q\",\"y\":\"q\"}</a>\n"
		    CALL_TAIL },
		{ "a recursive schema is named, its example stops where it "
		    "would repeat",
		    "{\"$ref\": \"#/$defs/node\", \"$defs\": {\"node\": "
		    "{\"type\": \"object\", \"properties\": {\"name\": "
		    "{\"type\": \"string\"}, \"kids\": {\"type\": \"array\", "
		    "\"items\": {\"$ref\": \"#/$defs/node\"}}}}}}",
		    "Parameters:\n- name (string)\n"
		    "- kids (array of arguments)\n\n" ARGS CALL_HEAD
		    "  <name>example</name>\n  <kids>\n"
		    "    <name>example</name>\n  </kids>\n" CALL_TAIL },
		{ "a schema used twice is described once, by name",
		    "{\"properties\": {\"from\": {\"$ref\": \"#/$defs/pt\", "
		    "\"description\": \"Start.\"}, \"to\": {\"$ref\": "
		    "\"#/$defs/pt\"}}, \"required\": [\"to\"], \"$defs\": "
		    "{\"pt\": {\"description\": \"A point.\", \"properties\": "
		    "{\"x\": {\"type\": \"number\"}}, \"required\": "
		    "[\"x\"]}}}",
		    "Parameters:\n- from (pt): Start.\n- to (pt, required)\n"
		    "\nType pt (object): A point.\n- x (number, required)\n"
		    CALL_HEAD "  <to>\n    <x>1.5</x>\n  </to>\n" CALL_TAIL },
		{ "a shared type of one word is that word where it is used",
		    "{\"properties\": {\"a\": {\"$ref\": \"#/$defs/id\"}, "
		    "\"b\": {\"type\": \"array\", \"items\": {\"$ref\": "
		    "\"#/$defs/id\"}}}, \"$defs\": {\"id\": {\"type\": "
		    "\"string\", \"format\": \"uuid\"}}}",
		    "Parameters:\n- a (string)\n- b (array of string)\n"
		    CALL_HEAD "  <a>123e4567-e89b-12d3-a456-426614174000</a>\n"
		    "  <b>123e4567-e89b-12d3-a456-426614174000</b>\n"
		    CALL_TAIL },
		{ "an anyOf of itself twice is named, its example the branch "
		    "that ends",
		    "{\"properties\": {\"a\": {\"anyOf\": [{\"$ref\": "
		    "\"#/properties/a\"}, {\"$ref\": \"#/properties/a\"}, "
		    "{\"type\": \"integer\"}]}}}",
		    "Parameters:\n- a (a)\n\nType a (a or integer)\n"
		    CALL_HEAD "  <a>1</a>\n" CALL_TAIL },
		{ "25 $defs, each an anyOf of two references to the next",
		    CHAIN25,
		    "Parameters:\n- a (integer)\n" CALL_HEAD "  <a>1</a>\n"
		    CALL_TAIL },
		{ "types named after where they stand, made unique, never a "
		    "type's word",
		    "{\"properties\": {\"s\": {\"$ref\": \"#/$defs/string\"}, "
		    "\"t\": {\"$ref\": \"#/$defs/string\"}, \"u\": {\"$ref\": "
		    "\"#/$defs/a%20b\"}, \"v\": {\"$ref\": \"#/$defs/a%20b\"}, "
		    "\"w\": {\"$ref\": \"#/$defs/ab\"}, \"x\": {\"$ref\": "
		    "\"#/$defs/ab\"}}, \"$defs\": {\"string\": "
		    "{\"properties\": {\"k\": {}}}, \"a b\": {\"properties\": "
		    "{\"k\": {}}}, \"ab\": {\"properties\": {\"k\": {}}}}}",
		    "Parameters:\n- s (string-2)\n- t (string-2)\n- u (ab)\n"
		    "- v (ab)\n- w (ab-2)\n- x (ab-2)\n"
		    "\nType string-2 (object)\n- k (any)\n"
		    "\nType ab (object)\n- k (any)\n"
		    "\nType ab-2 (object)\n- k (any)\n" CALL_HEAD
		    "  <s>\n    <k>example</k>\n  </s>\n"
		    "  <t>\n    <k>example</k>\n  </t>\n"
		    "  <u>\n    <k>example</k>\n  </u>\n"
		    "  <v>\n    <k>example</k>\n  </v>\n"
		    "  <w>\n    <k>example</k>\n  </w>\n"
		    "  <x>\n    <k>example</k>\n  </x>\n" CALL_TAIL },
		{ "element names as expat reads them: a letter of another "
		    "script is one, a multiplication sign or a space is not",
		    "{\"properties\": {\"\xe5\x90\x8d\": {\"type\": "
		    "\"integer\"}, \"a\xc3\x97" "b\": {\"type\": \"integer\"}, "
		    "\"x\xe2\x80\x80y\": {\"type\": \"integer\"}}}",
		    "Parameters:\n- \xe5\x90\x8d (integer)\n"
		    "- a\xc3\x97" "b (integer)\n- x\xe2\x80\x80y (integer)\n"
		    CALL_HEAD "  <\xe5\x90\x8d>1</\xe5\x90\x8d>\n" CALL_TAIL },
		{ "a call whose smallest example is far larger than the "
		    "schema is not shown",
		    LATTICE30,
		    NULL },
	};
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		tool_part(t[i].schema, &b);
		if (t[i].want != NULL)
			unit_mem(b.data, b.len, t[i].want, t[i].what);
		else
			unit_ok(b.len > 0 && b.len < 4096 && strstr(b.data,
			    "\nType l29 (object)\n- a (integer, required)\n"
			    "- b (integer, required)\n\nExample:\n\n(None: a "
			    "call of this tool would be too large to show.)\n")
			    != NULL, t[i].what);
	}
	buf_free(&b);
}

/* Writes text to dir/name. */
static void
put(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((fp = fopen(path, "w")) == NULL || fputs(text, fp) == EOF ||
	    fclose(fp) != 0)
		unit_bail(path);
}

/*
 * Tools that a server could send to do harm are left out, each with a
 * warning at its place that names it and its server, and the others are
 * kept: a name that is empty or holds a control character, a schema
 * whose reference leaves the file's directory or names what is not a
 * regular file. A sibling file below the directory is read, once: the
 * prompt shows what the compilation read, never the file as it is now.
 */
static void
test_left_out(void)
{
	static const char tools[] =
	    "{\"tools\": [\n"
	    "{\"name\": \"nul\\u0000\", \"_meta\": {\"llmkit/server\": "
	    "\"evil\"}},\n"
	    "{\"name\": \"\"},\n"
	    "{\"name\": \"esc\\u001b[2J\", \"_meta\": {\"llmkit/server\": "
	    "\"e\\nvil\"}},\n"
	    "{\"name\": \"up\", \"inputSchema\": {\"$ref\": "
	    "\"../secret.json\"}},\n"
	    "{\"name\": \"meta\", \"inputSchema\": {\"$schema\": "
	    "\"file://%s/secret.json\"}},\n"
	    "{\"name\": \"ok\", \"inputSchema\": {\"properties\": "
	    "{\"p\": {\"$ref\": \"pt.json\"}}}}\n"
	    "]}\n";
	struct tooldefs defs = { NULL, 0, NULL };
	struct buf b = BUF_INIT, want = BUF_INIT, text = BUF_INIT;
	char top[] = "/tmp/llmkit-unit-XXXXXX", dir[64], path[128];
	char err[1024], *real;
	const char *got;

	if (mkdtemp(top) == NULL)
		unit_bail("mkdtemp");
	snprintf(dir, sizeof(dir), "%s/d", top);
	if (mkdir(dir, 0700) == -1)
		unit_bail(dir);
	put(top, "secret.json", "{\"description\": \"SECRET\"}");
	put(dir, "pt.json", "{\"properties\": {\"x\": {\"type\": "
	    "\"number\"}}}");
	buf_printf(&text, tools, top);
	put(dir, "t.json", buf_cstr(&text));
	snprintf(path, sizeof(path), "%s/t.json", dir);
	if ((real = realpath(dir, NULL)) == NULL)
		unit_bail(dir);
	unit_capture_begin();
	unit_long(load(&defs, path, err, sizeof(err)), 0,
	    "left out: the file is read");
	got = unit_capture_end();
	unit_str(err, "", "left out: no error");
	tooldefs_names(&defs, &b);
	unit_mem(b.data, b.len, "ok", "left out: the other tools are kept");
	buf_printf(&want,
	    "%s:2:10: warning: tool \"nul\\u0000\" of server \"evil\" is "
	    "left out: its name holds a control character\n"
	    "%s:3:10: warning: tool \"\" is left out: its name is empty\n"
	    "%s:4:10: warning: tool \"esc\\u001b[2J\" of server "
	    "\"e\\nvil\" is left out: its name holds a control character\n"
	    "%s:5:31: warning: tool \"up\" is left out: a reference of its "
	    "input schema is refused: /$ref: cannot load \"file://%s/"
	    "secret.json\": not a file below %s\n"
	    "%s:6:33: warning: tool \"meta\" is left out: a reference of its "
	    "input schema is refused: cannot load \"file://%s/"
	    "secret.json\": not a file below %s\n",
	    path, path, path, path, top, real, path, top, real);
	unit_str(got, buf_cstr(&want), "left out: a warning each, at its "
	    "place, naming the tool and its server");

	/* the sibling changed after loading: the prompt shows what was read */
	put(dir, "pt.json", "{\"properties\": {\"y\": {\"type\": "
	    "\"string\"}}}");
	buf_reset(&b);
	tooldefs_prompt(&defs, TOOLDEFS_TOOL, &b);
	unit_ok(b.data != NULL && strstr(b.data, "Parameters:\n- p (object)\n"
	    "  - x (number)\n") != NULL, "the prompt follows a $ref to the "
	    "document the compilation read, not to the file again");
	tooldefs_free(&defs);

	snprintf(path, sizeof(path), "%s/pt.json", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/t.json", dir);
	unlink(path);
	rmdir(dir);
	snprintf(path, sizeof(path), "%s/secret.json", top);
	unlink(path);
	rmdir(top);
	free(real);
	buf_free(&b);
	buf_free(&want);
	buf_free(&text);
}

/* Names are bytes: two that differ past a NUL's place are two names. */
static void
test_names_bytes(void)
{
	static const char tools[] =
	    "[{\"name\": \"é\"}, {\"name\": \"e\\u0301\"}, "
	    "{\"name\": \"a\"}, {\"name\": \"a \"}]";
	struct tooldefs defs = { NULL, 0, NULL };
	struct buf b = BUF_INIT;
	char err[1024], path[sizeof(UNIT_TMPNAME)];

	unit_tmpfile(path, tools, sizeof(tools) - 1);
	unit_long(load(&defs, path, err, sizeof(err)), 0,
	    "names: no two alike byte for byte");
	tooldefs_names(&defs, &b);
	unit_mem(b.data, b.len, "é, e\xcc\x81, a, a ",
	    "names: composed and decomposed, with and without a space");
	unit_ok(tooldefs_find(&defs, "a ", 2) == &defs.v[3] &&
	    tooldefs_find(&defs, "a", 1) == &defs.v[2],
	    "names: found by length and bytes");
	tooldefs_free(&defs);
	unlink(path);
	buf_free(&b);
}

int
main(void)
{
	test_forms();
	test_no_schema();
	test_find();
	test_validate();
	test_errors();
	test_left_out();
	test_names_bytes();
	test_prompt_exact();
	test_prompt_examples();
	return unit_done();
}
