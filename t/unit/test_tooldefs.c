/*
 * Unit tests of lib/tooldefs: each form of tool definitions read, with
 * its names, descriptions and compiled schemas (2020-12 by default,
 * relative references against the file); every error message; exact
 * look-up; and the prompt: its exact bytes for one set (the rules as the
 * golden prompt of tools-nested.json has them), and the example calls
 * that schemas of every kind give. Then the prompt in every markup: its
 * golden bytes for each test definition file; each example call read
 * back by the dialect's parser (lib/tcdialect, lib/pylit) into the tool
 * and the arguments of the hermes example, which validate; the names a
 * markup cannot hold, and the values it cannot, left out.
 */
#include <sys/stat.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "schema/jsschema.h"
#include "toolcall/pylit.h"
#include "toolcall/tcdialect.h"
#include "toolcall/tooldefs.h"
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
	struct tooldefs defs = { NULL, 0, NULL, 0 };
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
	struct tooldefs defs = { NULL, 0, NULL, 0 };
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
	struct tooldefs defs = { NULL, 0, NULL, 0 };
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
	struct tooldefs defs = { NULL, 0, NULL, 0 };
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
	struct tooldefs defs = { NULL, 0, NULL, 0 };
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
	struct tooldefs defs = { NULL, 0, NULL, 0 };
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

static void	tool_part_in(const char *, int, struct buf *);

/* The part of the prompt from "Parameters:" on, for one schema. */
static void
tool_part(const char *schema, struct buf *out)
{
	tool_part_in(schema, TOOLDEFS_TOOL, out);
}

/* The same, in markup m. */
static void
tool_part_in(const char *schema, int m, struct buf *out)
{
	struct tooldefs defs = { NULL, 0, NULL, 0 };
	struct buf b = BUF_INIT, doc = BUF_INIT;
	char err[1024], path[sizeof(UNIT_TMPNAME)];
	const char *at;

	buf_printf(&doc, "[{\"name\": \"t\", \"input_schema\": %s}]", schema);
	unit_tmpfile(path, doc.data, doc.len);
	if (load(&defs, path, err, sizeof(err)) != 0)
		printf("# %s\n", err);
	unlink(path);
	tooldefs_prompt(&defs, m, &b);
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
		{ "a string XML cannot hold (a CR, a control character) "
		    "leaves its parameter out",
		    "{\"properties\": {\"a\": {\"default\": \"x\\ry\"}, "
		    "\"b\": {\"default\": [\"\\u0001\"]}, \"c\": "
		    "{\"default\": \"tab\\tand\\nline\"}}}",
		    "Parameters:\n- a (any, default \"x\\ry\")\n"
		    "- b (any, default [\"\\u0001\"])\n"
		    "- c (any, default \"tab\\tand\\nline\")\n" CALL_HEAD
		    "  <c><![CDATA[tab\tand\nline]]></c>\n" CALL_TAIL },
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
	struct tooldefs defs = { NULL, 0, NULL, 0 };
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
	struct tooldefs defs = { NULL, 0, NULL, 0 };
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

/* ---- the prompt in every markup ---- */

/* The test definition files that load, without their ".json". */
static const char *const prompt_files[] = {
	"tools-anthropic", "tools-empty-name", "tools-mcp", "tools-mcp-array",
	"tools-mcp-response", "tools-names", "tools-nested",
	"tools-openai-chat", "tools-openai-responses", "tools-ref",
	"tools-shared", "tools-types"
};

static const char *const markup_names[TOOLDEFS_NMARKUPS] = {
	"tool", "qwen3", "invoke", "glm", "hermes", "harmony", "deepseek",
	"mistral", "llama3", "kimi", "pythonic"
};

#define DS_BAR		"\xef\xbd\x9c"
#define DS_LOW		"\xe2\x96\x81"

/* Around a call, the markup of the reader's section, which no parser reads. */
static const struct {
	const char	*pre, *post;
} section[TOOLDEFS_NMARKUPS] = {
	[TCD_INVOKE] = { "<minimax:tool_call>\n", "</minimax:tool_call>\n" },
	[TCD_DEEPSEEK] = { "<" DS_BAR "tool" DS_LOW "calls" DS_LOW "begin"
	    DS_BAR ">", "<" DS_BAR "tool" DS_LOW "calls" DS_LOW "end" DS_BAR
	    ">\n" },
	[TCD_KIMI] = { "<|tool_calls_section_begin|>\n",
	    "<|tool_calls_section_end|>\n" },
};

/* The whole of file path into b; unit_bail when it cannot be read. */
static void
slurp(const char *path, struct buf *b)
{
	size_t n;
	char *s = unit_slurp(path, &n);

	buf_add(b, s, n);
	free(s);
}

/*
 * Loads DIR FILE ".json" quietly (its warnings are the loader's tests').
 * The tools keep the path: it lasts until the next file is loaded.
 */
static void
load_quiet(struct tooldefs *defs, const char *file)
{
	static char path[512];
	char err[1024];

	snprintf(path, sizeof(path), DIR "%s.json", file);
	unit_capture_begin();
	if (load(defs, path, err, sizeof(err)) != 0)
		printf("# %s\n", err);
	unit_capture_end();
}

static void
test_markup_names(void)
{
	struct tooldefs defs = { NULL, 0, NULL, 0 };
	struct buf b = BUF_INIT;
	int m;

	for (m = 0; m < TOOLDEFS_NMARKUPS; m++)
		unit_str(tooldefs_markup_name(m) != NULL ?
		    tooldefs_markup_name(m) : "(null)", markup_names[m],
		    unit_fmt("markup %d is %s", m, markup_names[m]));
	unit_ok(tooldefs_markup_name(-1) == NULL &&
	    tooldefs_markup_name(TOOLDEFS_NMARKUPS) == NULL,
	    "no markup before the first or after the last");
	unit_long(tooldefs_prompt(&defs, TOOLDEFS_NMARKUPS, &b), -1,
	    "a markup it does not know: -1");
	unit_long(tooldefs_prompt(&defs, -1, &b), -1,
	    "a negative markup: -1");
	unit_long((long)b.len, 0, "and nothing written");
	unit_ok(TOOLDEFS_PYTHONIC == TCD_PYTHONIC &&
	    TCD_QWEN3 == 1 && TCD_KIMI == 9, "the numbers of toolcall-parse's "
	    "--format: tool 0, then the dialects, pythonic last");
}

/*
 * The prompt of each test definition file in each markup, byte for byte
 * as its golden file, t/data/toolcall-parse/prompts/MARKUP/FILE.prompt.
 */
static void
test_prompt_goldens(void)
{
	struct tooldefs defs = { NULL, 0, NULL, 0 };
	struct buf b = BUF_INIT, want = BUF_INIT;
	char path[512];
	size_t i;
	int m;

	for (i = 0; i < sizeof(prompt_files) / sizeof(prompt_files[0]); i++) {
		load_quiet(&defs, prompt_files[i]);
		for (m = 0; m < TOOLDEFS_NMARKUPS; m++) {
			snprintf(path, sizeof(path), DIR "prompts/%s/%s.prompt",
			    markup_names[m], prompt_files[i]);
			buf_reset(&want);
			slurp(path, &want);
			buf_reset(&b);
			unit_capture_begin();
			tooldefs_prompt(&defs, m, &b);
			unit_capture_end();
			unit_bytes(b.data, b.len, want.data, want.len,
			    unit_fmt("%s: byte for byte", path));
		}
		tooldefs_free(&defs);
	}
	buf_free(&b);
	buf_free(&want);
}

/* n bytes of s, and a NUL. */
static char *
dupn(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d == NULL)
		unit_bail("malloc");
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/*
 * The example call at the end of the prompt p (plen bytes and a NUL) of
 * one tool, read by the parser of markup m: 0 with *name (malloc'd) and
 * *args (for the raw-text dialects an object of each key's text as a
 * string), or -1 with why.
 */
static int
read_example(int m, const char *p, size_t plen, char **name, json_t **args,
    struct buf *why)
{
	const char *ex, *at, *s;
	struct tcd_call c;
	struct pylit_call *calls;
	struct pylit_error pe;
	size_t n, len, i, end, ncalls;
	const char *pre = section[m].pre, *post = section[m].post;

	*name = NULL;
	*args = NULL;
	for (ex = NULL, at = p; (at = strstr(at, "\nExample:\n\n")) != NULL;
	    at++)
		ex = at + 11;
	if (ex == NULL) {
		buf_adds(why, "no example");
		return -1;
	}
	n = plen - (size_t)(ex - p);
	if (pre != NULL) {
		if (n < strlen(pre) + strlen(post) ||
		    strncmp(ex, pre, strlen(pre)) != 0 ||
		    strcmp(ex + n - strlen(post), post) != 0) {
			buf_adds(why, "not in its section's markup");
			return -1;
		}
		ex += strlen(pre);
		n -= strlen(pre) + strlen(post);
	}
	if (m == TOOLDEFS_PYTHONIC) {
		if (pylit_calls(ex, n, 0, &end, &calls, &ncalls, &pe) != 0) {
			buf_adds(why, pe.text);
			return -1;
		}
		if (ncalls != 1 || strspn(ex + end, "\n") != n - end) {
			buf_printf(why, "%zu calls, %zu bytes after", ncalls,
			    n - end);
			pylit_calls_free(calls, ncalls);
			return -1;
		}
		*name = dupn(ex + calls[0].name, calls[0].namelen);
		*args = json_incref(calls[0].args);
		pylit_calls_free(calls, ncalls);
		return 0;
	}
	if (tcd_parse(m, ex, n, &c) != 0) {
		buf_adds(why, c.err);
		tcd_call_free(&c);
		return -1;
	}
	s = tcd_name(&c, ex, &len);
	*name = dupn(s, len);
	if (c.json != NULL)
		*args = json_incref(c.json);
	else {
		*args = json_object();
		for (i = 0; i < c.nargs; i++) {
			char *k = dupn(ex + c.args[i].key, c.args[i].keylen);

			json_object_set_new(*args, k, json_stringn(ex +
			    c.args[i].val, c.args[i].vallen));
			free(k);
		}
	}
	tcd_call_free(&c);
	return 0;
}

/*
 * Whether the arguments read from a raw-text dialect's call (each key's
 * text) are ref's: a string as it is, any other value as JSON text.
 */
static int
raw_equal(const json_t *raw, const json_t *ref)
{
	const char *k;
	json_t *v, *t;
	int ok;

	if (json_object_size(raw) != json_object_size(ref))
		return 0;
	json_object_foreach((json_t *)ref, k, v) {
		if ((t = json_object_get(raw, k)) == NULL)
			return 0;
		if (json_is_string(v)) {
			if (!json_equal(t, v))
				return 0;
			continue;
		}
		v = json_incref(v);
		t = json_loadb(json_string_value(t), json_string_length(t),
		    JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
		ok = t != NULL && json_equal(t, v);
		json_decref(t);
		json_decref(v);
		if (!ok)
			return 0;
	}
	return 1;
}

/*
 * Each tool's example in each markup but <tool> (t/toolcall-parse.bats
 * and test_prompt_examples read that one), read back by the dialect's
 * parser alone: one call of the tool, whose arguments are those of the
 * hermes example (read as JSON, the reference) and validate against the
 * tool's schema. The tools a markup leaves out are listed in left, as
 * "markup:name".
 */
static void
parse_back(const struct tooldefs *defs, const char *what, struct buf *left)
{
	struct buf p = BUF_INIT, why = BUF_INIT;
	struct jsschema_result res;
	const struct tooldef *d;
	char *name, *refname;
	json_t *args, *ref;
	size_t i;
	int m, ok;

	for (i = 0; i < defs->n; i++) {
		struct tooldefs one = { &defs->v[i], 1, NULL, 1 };

		d = &defs->v[i];
		buf_reset(&p);
		buf_reset(&why);
		tooldefs_prompt(&one, TCD_HERMES, &p);
		if (read_example(TCD_HERMES, buf_cstr(&p), p.len, &refname, &ref,
		    &why) != 0) {
			unit_ok(0, unit_fmt("%s: %s: hermes: %s", what,
			    d->name, buf_cstr(&why)));
			continue;
		}
		ok = d->js == NULL || jsschema_validate(d->js, ref, &res) == 0;
		if (!ok)
			jsschema_result_free(&res);
		unit_ok(ok && strcmp(refname, d->name) == 0, unit_fmt("%s: "
		    "%s: the hermes example names it, and validates", what,
		    d->name));
		for (m = 1; m < TOOLDEFS_NMARKUPS; m++) {
			if (m == TCD_HERMES)
				continue;
			buf_reset(&p);
			buf_reset(&why);
			unit_capture_begin();
			tooldefs_prompt(&one, m, &p);
			unit_capture_end();
			if (strstr(buf_cstr(&p), "\n# Tools\n") == NULL) {
				buf_printf(left, "%s:%s\n", markup_names[m],
				    d->name);
				continue;
			}
			if (read_example(m, buf_cstr(&p), p.len, &name, &args,
			    &why) != 0) {
				unit_ok(0, unit_fmt("%s: %s: %s: %s", what,
				    d->name, markup_names[m], buf_cstr(&why)));
				continue;
			}
			if (m == TCD_QWEN3 || m == TCD_INVOKE ||
			    m == TCD_GLM)
				ok = raw_equal(args, ref);
			else {
				ok = json_equal(args, ref) && (d->js == NULL ||
				    jsschema_validate(d->js, args, &res) == 0);
				if (!ok && d->js != NULL)
					jsschema_result_free(&res);
			}
			unit_ok(ok && strcmp(name, d->name) == 0,
			    unit_fmt("%s: %s: the %s example reads back as "
			    "the tool, its arguments the hermes example's%s",
			    what, d->name, markup_names[m], m < TCD_HERMES ?
			    "" : ", valid"));
			free(name);
			json_decref(args);
		}
		free(refname);
		json_decref(ref);
	}
	buf_free(&p);
	buf_free(&why);
}

static void
test_prompt_read_back(void)
{
	struct tooldefs defs = { NULL, 0, NULL, 0 };
	struct buf left = BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(prompt_files) / sizeof(prompt_files[0]); i++) {
		load_quiet(&defs, prompt_files[i]);
		parse_back(&defs, prompt_files[i], &left);
		tooldefs_free(&defs);
	}
	unit_mem(left.data != NULL ? left.data : "", left.len,
	    "qwen3:x</tool_name><tool_name>y & z\n"
	    "invoke:x</tool_name><tool_name>y & z\n"
	    "glm:x</tool_name><tool_name>y & z\n"
	    "harmony:x</tool_name><tool_name>y & z\n"
	    "pythonic:x</tool_name><tool_name>y & z\n"
	    "harmony:## **bold** [l](u) `c`\n"
	    "mistral:## **bold** [l](u) `c`\n"
	    "pythonic:## **bold** [l](u) `c`\n"
	    "qwen3: padded \n"
	    "invoke: padded \n"
	    "glm: padded \n"
	    "harmony: padded \n"
	    "deepseek: padded \n"
	    "mistral: padded \n"
	    "pythonic: padded \n",
	    "the test definitions: the tools each markup leaves out");
	buf_free(&left);
}

/*
 * The names a markup cannot hold: each tool whose name one cannot is left
 * out of its prompt, with a warning at the file that says why; every
 * other is called by its name in the example, read back so.
 */
static void
test_prompt_names(void)
{
	static const char tools[] =
	    "{\"tools\": [{\"name\": \"plain_name\"}, {\"name\": \"a b\"}, "
	    "{\"name\": \"a<b\"}, {\"name\": \" pad\"}, {\"name\": \"q\\\"u'o\"}, "
	    "{\"name\": \"q\\\"u\"}, {\"name\": \"x{y\"}, {\"name\": \"x[y\"}, "
	    "{\"name\": \"pi<|pe\", \"_meta\": {\"llmkit/server\": \"s\"}}, "
	    "{\"name\": \"bar<\\uff5cx\"}, {\"name\": \"dot.ted-name\"}, "
	    "{\"name\": \"9lives\"}, {\"name\": \"a..b\"}]}";
	/* each name left out, as the warning quotes it, a tab, and why */
#define PY	"\tis not Python names joined by . or -\n"
	static const char *const warned[TOOLDEFS_NMARKUPS] = {
		[TCD_QWEN3] = "a<b\tholds < or >\n pad\tbegins or ends with "
		    "white space\npi<|pe\tholds < or >\nbar<\xef\xbd\x9cx\t"
		    "holds < or >\n",
		[TCD_INVOKE] = "a<b\tholds < or >\n pad\tbegins or ends with "
		    "white space\nq\\\"u'o\tholds both kinds of quote\npi<|pe\t"
		    "holds < or >\nbar<\xef\xbd\x9cx\tholds < or >\n",
		[TCD_GLM] = "a<b\tholds < or >\n pad\tbegins or ends with "
		    "white space\npi<|pe\tholds < or >\nbar<\xef\xbd\x9cx\t"
		    "holds < or >\n",
		[TCD_HARMONY] = "a b\tholds white space\n pad\tholds white "
		    "space\npi<|pe\tholds <|\n",
		[TCD_DEEPSEEK] = " pad\tbegins or ends with white space\n"
		    "bar<\xef\xbd\x9cx\tholds <\xef\xbd\x9c\n",
		[TCD_MISTRAL] = " pad\tbegins or ends with white space\n"
		    "x{y\tholds [ or {\nx[y\tholds [ or {\n",
		[TCD_KIMI] = "pi<|pe\tholds <|\n",
		[TOOLDEFS_PYTHONIC] = "a b" PY "a<b" PY " pad" PY "q\\\"u'o"
		    PY "q\\\"u" PY "x{y" PY "x[y" PY "pi<|pe" PY
		    "bar<\xef\xbd\x9cx" PY "9lives" PY "a..b" PY,
	};
#undef PY
	struct tooldefs defs = { NULL, 0, NULL, 0 };
	struct buf b = BUF_INIT, want = BUF_INIT, left = BUF_INIT;
	char err[1024], path[sizeof(UNIT_TMPNAME)];
	const char *w, *e, *tab;
	int m;

	unit_tmpfile(path, tools, sizeof(tools) - 1);
	unit_long(load(&defs, path, err, sizeof(err)), 0, "names: loaded");
	for (m = 0; m < TOOLDEFS_NMARKUPS; m++) {
		buf_reset(&want);
		for (w = warned[m]; w != NULL && *w != '\0'; w = e + 1) {
			tab = strchr(w, '\t');
			e = strchr(tab, '\n');
			buf_printf(&want, "%s:1:1: warning: tool \"%.*s\"%s is "
			    "left out of the %s prompt: its name %.*s\n", path,
			    (int)(tab - w), w, strncmp(w, "pi<", 3) == 0 ?
			    " of server \"s\"" : "", markup_names[m],
			    (int)(e - tab - 1), tab + 1);
		}
		buf_reset(&b);
		unit_capture_begin();
		tooldefs_prompt(&defs, m, &b);
		w = unit_capture_end();
		unit_str(w, buf_cstr(&want), unit_fmt("names: %s: a warning for "
		    "each name it cannot hold, at the file", markup_names[m]));
	}
	buf_reset(&b);
	unit_capture_begin();
	tooldefs_prompt(&defs, TCD_INVOKE, &b);
	unit_capture_end();
	unit_ok(strstr(buf_cstr(&b), "\n## q\"u\n") != NULL &&
	    strstr(b.data, "<invoke name='q\"u'>") != NULL &&
	    strstr(b.data, "<invoke name=\"a b\">") != NULL,
	    "names: invoke quotes a name with \" in single quotes, as it is "
	    "in the heading");
	buf_reset(&b);
	tooldefs_prompt(&defs, TOOLDEFS_TOOL, &b);
	unit_ok(strstr(buf_cstr(&b), "\n## a&lt;b\n") != NULL &&
	    strstr(b.data, "\n## pi<|pe\n") == NULL,
	    "names: <tool> escapes a name in its heading, the others not");
	/* every name kept reads back as itself; the left out, listed */
	parse_back(&defs, "names", &left);
	unit_long((long)defs.n, 13, "names: all thirteen tools");
	tooldefs_free(&defs);
	unlink(path);
	buf_free(&b);
	buf_free(&want);
	buf_free(&left);
}

/*
 * One tool of schema, whose properties' defaults (or consts) are the
 * example: in each markup, the example read back holds each of them as
 * it is but those of left[markup] ("a|b", names of properties the markup
 * cannot hold).
 */
static void
check_values(const char *what, const char *schema,
    const char *const left[TOOLDEFS_NMARKUPS])
{
	struct tooldefs defs = { NULL, 0, NULL, 0 };
	struct buf doc = BUF_INIT, p = BUF_INIT, why = BUF_INIT;
	char err[1024], path[sizeof(UNIT_TMPNAME)], *name;
	const char *k, *l, *e;
	json_t *ref, *want, *args, *v;
	int m, ok;

	buf_printf(&doc, "[{\"name\": \"t\", \"input_schema\": %s}]", schema);
	unit_tmpfile(path, doc.data, doc.len);
	if (load(&defs, path, err, sizeof(err)) != 0)
		printf("# %s\n", err);
	unlink(path);
	ref = json_object();
	json_object_foreach(json_object_get(defs.v[0].schema, "properties"), k,
	    v)
		json_object_set(ref, k, json_object_get(v, "default") != NULL ?
		    json_object_get(v, "default") : json_object_get(v, "const"));
	for (m = 1; m < TOOLDEFS_NMARKUPS; m++) {
		want = json_deep_copy(ref);
		for (l = left[m]; l != NULL && *l != '\0'; l = e + (*e != '\0')) {
			e = strchr(l, '|') != NULL ? strchr(l, '|') : l + strlen(l);
			buf_reset(&why);
			buf_add(&why, l, (size_t)(e - l));
			json_object_del(want, buf_cstr(&why));
		}
		buf_reset(&p);
		buf_reset(&why);
		tooldefs_prompt(&defs, m, &p);
		if (read_example(m, buf_cstr(&p), p.len, &name, &args,
		    &why) != 0) {
			unit_ok(0, unit_fmt("%s: %s: %s", what, markup_names[m],
			    buf_cstr(&why)));

			json_decref(want);
			continue;
		}
		ok = m == TCD_QWEN3 || m == TCD_INVOKE || m == TCD_GLM ?
		    raw_equal(args, want) : json_equal(args, want);
		unit_ok(ok && strcmp(name, "t") == 0, unit_fmt("%s: %s: read "
		    "back, each value as it is, but %s", what, markup_names[m],
		    left[m] != NULL ? left[m] : "none left out"));
		if (!ok) {
			char *g = json_dumps(args, JSON_COMPACT);

			printf("#   got %s\n", g);
			free(g);
		}
		free(name);
		json_decref(args);
		json_decref(want);
	}
	json_decref(ref);
	tooldefs_free(&defs);
	buf_free(&doc);
	buf_free(&p);
	buf_free(&why);
}

static void
test_prompt_values(void)
{
	static const char *const values_left[TOOLDEFS_NMARKUPS] = {
		[TCD_QWEN3] = "cr|mk_q|obj|ctl|deep",
		[TCD_INVOKE] = "mk_q|mk_i|obj|ctl|deep",
		[TCD_GLM] = "mk_g|ctl|deep",
		[TCD_HERMES] = "deep", [TCD_HARMONY] = "deep",
		[TCD_DEEPSEEK] = "deep", [TCD_MISTRAL] = "deep",
		[TCD_LLAMA3] = "deep", [TCD_KIMI] = "deep",
		[TOOLDEFS_PYTHONIC] = "deep",
	};
	static const char *const keys_left[TOOLDEFS_NMARKUPS] = {
		[TCD_QWEN3] = "<k>| k|",
		[TCD_INVOKE] = "<k>| k|q\"'",
		[TCD_GLM] = "<k>| k|",
		[TOOLDEFS_PYTHONIC] = "a b|<k>| k|1k|q\"'|",
	};
	struct buf deep = BUF_INIT, schema = BUF_INIT;
	int i;

	for (i = 0; i < 1100; i++)
		buf_addc(&deep, '[');
	for (i = 0; i < 1100; i++)
		buf_addc(&deep, ']');
	/* a schema large enough for its budget to hold the deep value */
	buf_adds(&schema, "{\"description\": \"");
	for (i = 0; i < 40000; i++)
		buf_addc(&schema, 'x');
	buf_printf(&schema, "\", \"properties\": {"
	    "\"nl\": {\"type\": \"string\", \"default\": \"\\nlead and "
	    "trail\\n\"}, "
	    "\"crlf\": {\"type\": \"string\", \"default\": \"\\r\\nx\\r\\n\"}, "
	    "\"cr\": {\"type\": \"string\", \"default\": \"ends in CR\\r\"}, "
	    "\"code\": {\"type\": \"string\", \"default\": \"if (a && b < c) "
	    "{ return \\\"x\\\\\\\\y\\\"; }\\n\\ttab\"}, "
	    "\"mk_q\": {\"default\": \"has </parameter> in it\"}, "
	    "\"mk_g\": {\"default\": \"has </arg_value> in it\"}, "
	    "\"mk_i\": {\"default\": \"has <invoke name= in it\"}, "
	    "\"obj\": {\"default\": {\"k\": \"</parameter>\", \"l\": [true, "
	    "null, 1.5, -7, \"\\u0001\"]}}, "
	    "\"ctl\": {\"default\": \"nul\\u0000 bell\\u0007 del\\u007f "
	    "\xc3\xa9 \\\"'\\\\\"}, "
	    "\"deep\": {\"default\": %s}}}", buf_cstr(&deep));
	check_values("values", buf_cstr(&schema), values_left);
	check_values("keys", "{\"properties\": {\"a b\": {\"const\": 1}, "
	    "\"<k>\": {\"const\": 2}, \" k\": {\"const\": 3}, \"k-1\": "
	    "{\"const\": 4}, \"from\": {\"const\": 5}, \"1k\": {\"const\": 6}, "
	    "\"q\\\"'\": {\"const\": 7}}}", keys_left);
	buf_free(&deep);
	buf_free(&schema);
}

/* The exact text of each markup's writer for a few values. */
static void
test_prompt_writers(void)
{
	static const char schema[] = "{\"properties\": {"
	    "\"s\": {\"const\": \"a \\\"q\\\" \\\\ \\n\\t\\u0001 \xc3\xa9\"}, "
	    "\"n\": {\"const\": [1, 2.5, true, false, null, {}, []]}}, "
	    "\"required\": [\"s\", \"n\"]}";
	static const char *const want[TOOLDEFS_NMARKUPS] = {
		[TCD_QWEN3] = "<tool_call>\n<function=t>\n<parameter=s>\n"
		    "a \"q\" \\ \n\t\x01 \xc3\xa9\n</parameter>\n<parameter=n>\n"
		    "[1, 2.5, true, false, null, {}, []]\n</parameter>\n"
		    "</function>\n</tool_call>\n",
		[TCD_INVOKE] = "<minimax:tool_call>\n<invoke name=\"t\">\n"
		    "<parameter name=\"s\">a \"q\" \\ \n\t\x01 \xc3\xa9"
		    "</parameter>\n<parameter name=\"n\">[1, 2.5, true, false, "
		    "null, {}, []]</parameter>\n</invoke>\n"
		    "</minimax:tool_call>\n",
		[TCD_GLM] = "<tool_call>t\n<arg_key>s</arg_key>\n<arg_value>"
		    "a \"q\" \\ \n\t\x01 \xc3\xa9</arg_value>\n<arg_key>n"
		    "</arg_key>\n<arg_value>[1, 2.5, true, false, null, {}, []]"
		    "</arg_value>\n</tool_call>\n",
		[TCD_HERMES] = "<tool_call>\n{\"name\": \"t\", \"arguments\": "
		    "{\"s\": \"a \\\"q\\\" \\\\ \\n\\t\\u0001 \xc3\xa9\", \"n\": "
		    "[1, 2.5, true, false, null, {}, []]}}\n</tool_call>\n",
		[TCD_HARMONY] = "<|channel|>commentary to=functions.t "
		    "<|constrain|>json<|message|>{\"s\": \"a \\\"q\\\" \\\\ "
		    "\\n\\t\\u0001 \xc3\xa9\", \"n\": [1, 2.5, true, false, null, "
		    "{}, []]}<|call|>\n",
		[TCD_DEEPSEEK] = "<" DS_BAR "tool" DS_LOW "calls" DS_LOW "begin"
		    DS_BAR "><" DS_BAR "tool" DS_LOW "call" DS_LOW "begin" DS_BAR
		    ">t<" DS_BAR "tool" DS_LOW "sep" DS_BAR ">{\"s\": \"a "
		    "\\\"q\\\" \\\\ \\n\\t\\u0001 \xc3\xa9\", \"n\": [1, 2.5, "
		    "true, false, null, {}, []]}<" DS_BAR "tool" DS_LOW "call"
		    DS_LOW "end" DS_BAR "><" DS_BAR "tool" DS_LOW "calls" DS_LOW
		    "end" DS_BAR ">\n",
		[TCD_MISTRAL] = "[TOOL_CALLS]t[ARGS]{\"s\": \"a \\\"q\\\" \\\\ "
		    "\\n\\t\\u0001 \xc3\xa9\", \"n\": [1, 2.5, true, false, null, "
		    "{}, []]}\n",
		[TCD_LLAMA3] = "{\"name\": \"t\", \"parameters\": {\"s\": \"a "
		    "\\\"q\\\" \\\\ \\n\\t\\u0001 \xc3\xa9\", \"n\": [1, 2.5, "
		    "true, false, null, {}, []]}}\n",
		[TCD_KIMI] = "<|tool_calls_section_begin|>\n<|tool_call_begin|>"
		    "functions.t:0<|tool_call_argument_begin|>{\"s\": \"a "
		    "\\\"q\\\" \\\\ \\n\\t\\u0001 \xc3\xa9\", \"n\": [1, 2.5, "
		    "true, false, null, {}, []]}<|tool_call_end|>\n"
		    "<|tool_calls_section_end|>\n",
		[TOOLDEFS_PYTHONIC] = "[t(s=\"a \\\"q\\\" \\\\ \\n\\t\\x01 "
		    "\xc3\xa9\", n=[1, 2.5, True, False, None, {}, []])]\n",
	};
	struct buf b = BUF_INIT;
	const char *at;
	int m;

	for (m = 1; m < TOOLDEFS_NMARKUPS; m++) {
		tool_part_in(schema, m, &b);
		at = b.data != NULL ? strstr(buf_cstr(&b), "Example:\n\n") :
		    NULL;
		at = at != NULL ? at + 10 : "";
		unit_str(at, want[m], unit_fmt("the %s writer: its markup, "
		    "strings and the other values", markup_names[m]));
	}
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
	test_markup_names();
	test_prompt_goldens();
	test_prompt_read_back();
	test_prompt_names();
	test_prompt_values();
	test_prompt_writers();
	return unit_done();
}
