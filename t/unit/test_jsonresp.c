/*
 * Unit tests of lib/jsonresp: unfencing, --find, the seed rules and the
 * safety levels on jansson values, the problems of whole checks as data
 * (rule, line, column, path, keyword, in the order found), --lines read
 * in chunks (line numbers, byte offsets, a byte order mark, a NUL byte, a
 * report that stops the reading), the feedback text, the prompt, a
 * schema that cannot be used, and what -o and --summary write.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/embed.h"
#include "base/src.h"
#include "check/verdict.h"
#include "json/jsontree.h"
#include "json/jsonx.h"
#include "jsonresp/jsonresp.h"
#include "schema/jsschema.h"
#include "unit.h"

static const char minimal[] = "{\"type\":\"response\",\"safety\":"
    "{\"is_safe\":true,\"danger_level\":null,\"detected_concerns\":[],"
    "\"requires_intervention\":false},\"content\":{\"text_blocks\":"
    "[{\"type\":\"text\",\"content\":\"hi\"}]},\"metadata\":"
    "{\"model\":\"m\"}}";

/* A list as one text: "L:C severity rule path keyword [prefix] message". */
static const char *
listed(const struct diag_list *l)
{
	static struct buf b;
	const struct diag_item *it;
	size_t i;

	buf_reset(&b);
	for (i = 0; i < l->n; i++) {
		it = &l->v[i];
		buf_printf(&b, "%lu:%lu %s %s %s %s%s %s\n", it->line, it->col,
		    it->severity == DIAG_ERROR ? "error" : "warning", it->rule,
		    it->path != NULL ? it->path : "-",
		    it->keyword != NULL ? it->keyword : "-",
		    it->prefix ? " prefix" : "", it->message);
	}
	return buf_cstr(&b);
}

/* One text checked as a file named t.json; its status. */
static int
check(struct jsonresp *jr, const char *s)
{
	struct src src;

	src_init(&src, "t.json", s, strlen(s));
	return jsonresp_check(jr, &src);
}

static void
test_unfence(void)
{
	static const struct {
		const char	*s;
		int		 fenced;
		const char	*inside;
	} t[] = {
		{ "```json\n{}\n```", 1, "{}\n" },
		{ "  ```JSON \r\n[1]\r\n```\n\n", 1, "[1]\r\n" },
		{ "```\n{\"a\":1}\n```", 1, "{\"a\":1}\n" },
		{ "{}", 0, NULL },
		{ "```json{}```", 0, NULL },
		{ "```json\n{}", 0, NULL },
		{ "``````", 0, NULL },
		{ "```jsonx\n{}\n```", 0, NULL },
	};
	size_t i, a, b;
	int got;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		a = 0;
		b = strlen(t[i].s);
		got = jsonresp_unfence(t[i].s, &a, &b);
		unit_long(got, t[i].fenced, unit_fmt("unfence %zu: fenced",
		    i));
		if (got)
			unit_mem(t[i].s + a, b - a, t[i].inside,
			    unit_fmt("unfence %zu: the inside", i));
		else
			unit_long((long)b, (long)strlen(t[i].s),
			    unit_fmt("unfence %zu: the span is left", i));
	}
}

static void
test_find(void)
{
	static const char prose[] = "a [list, of] {\"a\" 1} then [1,2] {}";
	static const char none[] = "No JSON {here} at all.";
	static const char nul[] = "x {\"a\":\0} [1]";
	static const char dup[] = "x {\"a\":1,\"a\":2} [1]";
	struct jsonx_error err;
	json_t *v;
	size_t at = 0;

	v = jsonresp_find(prose, 0, sizeof(prose) - 1, &at, &err);
	unit_ok(json_is_array(v) && json_array_size(v) == 2,
	    "find: the first value that reads whole");
	unit_long((long)at, 26, "find: its offset");
	json_decref(v);
	v = jsonresp_find(none, 0, sizeof(none) - 1, &at, &err);
	unit_ok(v == NULL && err.rule[0] == '\0', "find: nothing found");
	v = jsonresp_find(nul, 0, sizeof(nul) - 1, &at, &err);
	unit_ok(v == NULL, "find: a NUL byte refuses the text");
	unit_str(err.rule, "json-syntax", "find: a NUL byte's rule");
	unit_str(err.text, "invalid JSON: NUL byte", "find: its message");
	unit_long((long)err.offset, 7, "find: at the NUL byte");
	v = jsonresp_find(dup, 0, sizeof(dup) - 1, &at, &err);
	unit_ok(v == NULL, "find: a repeated key refuses the value found");
	unit_str(err.rule, "duplicate-key", "find: the repeated key's rule");
	unit_long((long)err.offset, 9, "find: at the second key");
}

static void
test_seed_rules(void)
{
	struct diag_list l = DIAG_LIST_INIT;
	json_error_t je;
	json_t *root;

	root = json_loads("{\"content\":{\"form\":{\"fields\":["
	    "{\"id\":\"a\",\"type\":\"radio\"},"
	    "{\"id\":\"b\",\"type\":\"select\",\"options\":[{}]},"
	    "{\"id\":\"a\",\"type\":\"scale\",\"min\":1},"
	    "{\"id\":\"c\\u001b\",\"type\":\"scale\",\"min\":2,\"max\":1.5},"
	    "{\"id\":\"c\\u001b\",\"type\":\"checkbox\",\"options\":[]},"
	    "{\"id\":3,\"type\":\"text\"}]}}}", 0, &je);
	if (root == NULL)
		unit_bail(je.text);
	jsonresp_seed_rules(root, &l);
	unit_str(listed(&l),
	    "0:0 error seed-options /content/form/fields/0 - prefix "
	    "a radio field needs a non-empty \"options\" array of "
	    "{\"value\", \"label\"}\n"
	    "0:0 error seed-unique-id /content/form/fields/2/id - prefix "
	    "field id \"a\" is already the id of field 0\n"
	    "0:0 error seed-scale /content/form/fields/2 - prefix "
	    "a scale field needs numeric \"min\" and \"max\"\n"
	    "0:0 error seed-scale /content/form/fields/3/min - prefix "
	    "a scale's min 2 is not below its max 1.5\n"
	    "0:0 error seed-unique-id /content/form/fields/4/id - prefix "
	    "field id \"c\\u001b\" is already the id of field 3\n"
	    "0:0 error seed-options /content/form/fields/4 - prefix "
	    "a checkbox field needs a non-empty \"options\" array of "
	    "{\"value\", \"label\"}\n",
	    "seed rules: each broken rule, with no keyword");
	json_decref(root);
	diag_list_clear(&l);
	root = json_loads("{\"content\":{\"form\":null}}", 0, &je);
	jsonresp_seed_rules(root, &l);
	unit_long((long)l.n, 0, "seed rules: no form, nothing to check");
	json_decref(root);
	diag_list_free(&l);
}

static void
test_safety(void)
{
	static const struct {
		const char	*level;
		int		 status;
		const char	*msg;
	} t[] = {
		{ "null", DIAG_OK, "" },
		{ "\"warning\"", DIAG_OK, "danger_level is \"warning\"" },
		{ "\"critical\"", DIAG_CRITICAL, "danger_level is \"critical\": "
		    "administrators should be told (status 4)" },
		{ "\"emergency\"", DIAG_EMERGENCY, "danger_level is "
		    "\"emergency\": show crisis resources, block the "
		    "conversation (status 5)" },
		{ "1", DIAG_OK, "" },
	};
	struct buf msg = BUF_INIT, doc = BUF_INIT;
	json_t *root;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		buf_reset(&doc);
		buf_printf(&doc, "{\"safety\":{\"danger_level\":%s}}",
		    t[i].level);
		root = json_loads(buf_cstr(&doc), 0, NULL);
		buf_reset(&msg);
		unit_long(jsonresp_safety(root, &msg), t[i].status,
		    unit_fmt("safety %s: the status", t[i].level));
		unit_str(buf_cstr(&msg), t[i].msg,
		    unit_fmt("safety %s: the warning", t[i].level));
		json_decref(root);
	}
	buf_reset(&msg);
	unit_long(jsonresp_safety(NULL, &msg), DIAG_OK,
	    "safety: no response, no level");
	buf_free(&msg);
	buf_free(&doc);
}

static void
test_check(struct jsonresp *jr)
{
	struct buf b = BUF_INIT;

	unit_long(check(jr, minimal), DIAG_OK, "check: a valid response");
	unit_long((long)jsonresp_diags(jr)->n, 0, "check: no problem");
	buf_printf(&b, "\xEF\xBB\xBF%.*s\"critical\"%s", 59, minimal,
	    minimal + 63);
	unit_long(check(jr, buf_cstr(&b)), DIAG_CRITICAL,
	    "check: critical, past a byte order mark");
	unit_str(listed(jsonresp_diags(jr)), "1:60 warning danger-level - - "
	    "danger_level is \"critical\": administrators should be told "
	    "(status 4)\n", "check: the warning at the level, no path");
	/* found in the order of the checks, placed in one pass */
	unit_long(check(jr, "{\"type\":\"response\",\"content\":{\"form\":"
	    "{\"fields\":[{\"id\":\"a\",\"type\":\"radio\",\"label\":\"l\"}]},\n"
	    "\"text_blocks\":[]}}"), DIAG_INVALID, "check: an invalid response");
	unit_str(listed(jsonresp_diags(jr)),
	    "1:1 error schema  /required prefix missing required property "
	    "\"safety\"\n"
	    "1:1 error schema  /required prefix missing required property "
	    "\"metadata\"\n"
	    "2:15 error schema /content/text_blocks "
	    "/properties/content/$ref/properties/text_blocks/minItems prefix "
	    "array has 0 items, fewer than the minimum 1\n"
	    "1:49 error seed-options /content/form/fields/0 - prefix a radio "
	    "field needs a non-empty \"options\" array of {\"value\", "
	    "\"label\"}\n",
	    "check: the schema's errors, then the seed's, in the order found");
	unit_long(check(jr, " \n\t"), DIAG_INVALID, "check: empty");
	unit_str(listed(jsonresp_diags(jr)), "2:2 error empty - - empty "
	    "input: no JSON document\n", "check: empty, at the end");
	unit_long(check(jr, "{\"type\":"), DIAG_INVALID, "check: cut short");
	unit_str(listed(jsonresp_diags(jr)), "1:9 error truncated - - "
	    "truncated: the JSON document ends before it is complete\n",
	    "check: truncated, by jansson's code");
	unit_long(check(jr, "{\"a\":1,\n \"a\":2}"), DIAG_INVALID,
	    "check: a repeated key");
	unit_str(listed(jsonresp_diags(jr)), "2:2 error duplicate-key - - "
	    "duplicate key \"a\", first at line 1, column 2\n",
	    "check: the repeated key names the first");
	unit_long(check(jr, "{}\n{}"), DIAG_INVALID, "check: two documents");
	unit_str(listed(jsonresp_diags(jr)), "2:1 error json-syntax - - "
	    "invalid JSON: text after the end of the document\n",
	    "check: text after the document");
	buf_free(&b);
}

static void
test_fence(void)
{
	struct jsonresp_opts o = { NULL, 0, 0, 1, 0 };
	struct jsonresp *jr;

	o.schema = NULL;
	jr = jsonresp_new(&o);
	unit_long(check(jr, "\n```json\n{}\n```\n"), DIAG_INVALID,
	    "strict: a fence is refused");
	unit_str(listed(jsonresp_diags(jr)), "2:1 error fence - - the "
	    "response is wrapped in a Markdown code fence (--strict)\n",
	    "strict: at the fence");
	jsonresp_free(jr);
}

struct seen {
	struct buf	 text;
	int		 stop;		/* after this many reports */
	int		 n;
};

static int
seen_report(const struct jsonresp *jr, int status, void *arg)
{
	struct seen *s = arg;

	buf_printf(&s->text, "%d\n%s", status, listed(jsonresp_diags(jr)));
	return ++s->n == s->stop ? -1 : 0;
}

/* jsonresp_lines over the n bytes of text; its status. */
static int
lines(struct jsonresp *jr, const char *text, size_t n, struct seen *s)
{
	char path[] = UNIT_TMPNAME;
	FILE *fp;
	int status;

	unit_tmpfile(path, text, n);
	if ((fp = fopen(path, "rb")) == NULL)
		unit_bail(path);
	buf_reset(&s->text);
	s->n = 0;
	status = jsonresp_lines(jr, fp, "t.jsonl", seen_report, s);
	fclose(fp);
	unlink(path);
	return status;
}

static void
test_lines(struct jsonresp *jr)
{
	struct seen s = { BUF_INIT, 0, 0 };
	struct buf in = BUF_INIT;
	size_t i;

	buf_printf(&in, "\xEF\xBB\xBF{\"type\":1}\n\n  \r\n\xEF\xBB\xBF{}\r\n"
	    "[\"\xff\"]");
	unit_long(lines(jr, in.data, in.len, &s), DIAG_INVALID,
	    "lines: the highest status");
	unit_str(buf_cstr(&s.text),
	    "1\n"
	    "1:1 error schema  /required prefix missing required property "
	    "\"safety\"\n"
	    "1:1 error schema  /required prefix missing required property "
	    "\"content\"\n"
	    "1:1 error schema  /required prefix missing required property "
	    "\"metadata\"\n"
	    "1:9 error schema /type /properties/type/const prefix expected "
	    "\"response\" (const), found integer 1\n"
	    "1\n"
	    "4:1 error json-syntax - - invalid JSON: invalid token near "
	    "'\xEF\xBB\xBF'\n"
	    "1\n"
	    "5:3 error utf8 - - invalid UTF-8: byte 0xff at byte offset 28\n",
	    "lines: blank lines skipped, positions in the file, a BOM only "
	    "first");
	/* a line of 200,000 bytes, and lines across many reads */
	buf_reset(&in);
	buf_adds(&in, "[0");
	for (i = 0; i < 100000; i++)
		buf_adds(&in, ",1");
	buf_adds(&in, "]\n");
	for (i = 0; i < 5000; i++)
		buf_printf(&in, "%s\n", minimal);
	buf_add(&in, "{\"a\":\0}\n{}\n", 11);
	unit_long(lines(jr, in.data, in.len, &s), DIAG_INVALID,
	    "lines: long and many");
	unit_ok(strstr(buf_cstr(&s.text), "\n1\n5002:6 error json-syntax - - "
	    "invalid JSON: NUL byte\n1\n5003:1 error schema ") != NULL,
	    "lines: a NUL byte ends its line, and the next line is read");
	unit_long(s.n, 5003, "lines: each line reported, the one after a NUL "
	    "too");
	s.stop = 2;
	unit_long(lines(jr, in.data, in.len, &s), DIAG_INVALID,
	    "lines: a report that stops the reading");
	unit_long(s.n, 2, "lines: no line is read after it");
	buf_free(&in);
	buf_free(&s.text);
}

static void
test_feedback(struct jsonresp *jr)
{
	struct buf b = BUF_INIT;

	check(jr, "{\"type\":\"response\",\"safety\":{},\"content\":"
	    "{\"text_blocks\":[],\"x\\\\\\n\":1},\"metadata\":{\"model\":\"m\"}}");
	jsonresp_feedback(&b, jr);
	unit_str(buf_cstr(&b), "\xE2\x9A\xA0\xEF\xB8\x8F Your previous "
	    "response did not match the required JSON schema. Please review "
	    "the schema carefully and provide a response that strictly "
	    "follows it. Errors: /safety: missing required property "
	    "\"is_safe\", /safety: missing required property "
	    "\"danger_level\", /safety: missing required property "
	    "\"detected_concerns\", /safety: missing required property "
	    "\"requires_intervention\", /content/text_blocks: array has 0 "
	    "items, fewer than the minimum 1, /content/x\\\\\\n: unexpected "
	    "property \"x\\\\\\n\"\n",
	    "feedback: the errors as the diagnostics write them, one line");
	buf_reset(&b);
	check(jr, "nope");
	jsonresp_feedback(&b, jr);
	unit_str(strstr(buf_cstr(&b), "Errors: "), "Errors: invalid JSON: "
	    "invalid token near 'nope'\n",
	    "feedback: an error about the whole document has no pointer");
	buf_free(&b);
}

static void
test_prompt(void)
{
	struct buf b = BUF_INIT;
	const char *at;

	jsonresp_prompt(&b, "{\"x\":1}\n\n", 9);
	at = strstr(buf_cstr(&b), "{\"x\":1}");
	unit_ok(at != NULL && strstr(b.data, "{{SCHEMA}}") == NULL,
	    "prompt: the schema in place of {{SCHEMA}}");
	unit_ok(at != NULL && at[7] == '\n' && at[8] != '\n',
	    "prompt: the template's line ends the schema's");
	unit_ok(b.len == embed_jsonresp_prompt_len - 10 + 7,
	    "prompt: nothing else changed");
	buf_free(&b);
}

static void
test_schema(void)
{
	struct jsschema_opts jo = { 0, NULL, 0, 0, NULL, 0, 0 };
	struct jsschema *s;
	const char *err;

	unit_capture_begin();
	s = jsonresp_schema("s.json", "{\"type\":\n", 9, &jo);
	err = unit_capture_end();
	unit_ok(s == NULL, "schema: not JSON");
	unit_ok(strncmp(err, "test_jsonresp: s.json:2:1: the schema is not "
	    "JSON: ", 51) == 0, "schema: not JSON, said with its place");
	unit_capture_begin();
	s = jsonresp_schema("s.json", "{\"minLength\":-1}", 16, &jo);
	err = unit_capture_end();
	unit_ok(s == NULL, "schema: does not compile");
	unit_ok(strncmp(err, "test_jsonresp: s.json: ", 23) == 0,
	    "schema: does not compile, said with the file");
}

/*
 * -o json: an accepted document without its fence, prose and white
 * space, strings and numbers as written; nothing for a refused one or
 * when the checker keeps none.
 */
static void
test_clean(void)
{
	struct jsschema_opts jo = { 0, NULL, 0, 0, NULL, 0, 0 };
	struct jsonresp_opts o = { NULL, 0, 0, 0, 1 };
	struct jsschema *any = jsonresp_schema("any.json", "{}", 2, &jo);
	struct jsonresp *jr;
	struct buf b = BUF_INIT;

	if (any == NULL)
		unit_bail("the schema {}");
	o.schema = any;
	jr = jsonresp_new(&o);
	unit_long(check(jr, "```json\n{ \"a\" : [ 1 , 2.50 ,\n\"x \\\" y\" ],"
	    "\t\"b\": {} }\n```\n"), DIAG_OK, "clean: a fenced document");
	jsonresp_clean(&b, jr);
	unit_str(buf_cstr(&b), "{\"a\":[1,2.50,\"x \\\" y\"],\"b\":{}}\n",
	    "clean: without fence and white space, as written");
	buf_reset(&b);
	unit_long(check(jr, " \"a  b\" \n"), DIAG_OK, "clean: a string");
	jsonresp_clean(&b, jr);
	unit_str(buf_cstr(&b), "\"a  b\"\n", "clean: a string's spaces kept");
	buf_reset(&b);
	unit_long(check(jr, "{"), DIAG_INVALID, "clean: a refused document");
	jsonresp_clean(&b, jr);
	unit_long((long)b.len, 0, "clean: nothing for a refused document");
	jsonresp_free(jr);
	o.find = 1;
	jr = jsonresp_new(&o);
	unit_long(check(jr, "Here: { \"k\" : [ ] } and [1] after."),
	    DIAG_OK, "clean: a document in prose, with find");
	jsonresp_clean(&b, jr);
	unit_str(buf_cstr(&b), "{\"k\":[]}\n",
	    "clean: the value found, without the prose after it");
	jsonresp_free(jr);
	o.clean = 0;
	jr = jsonresp_new(&o);
	buf_reset(&b);
	check(jr, "{}");
	jsonresp_clean(&b, jr);
	unit_long((long)b.len, 0, "clean: nothing kept without clean");
	jsonresp_free(jr);
	jsschema_free(any);
	buf_free(&b);
}

/* -o report's line, -o's names, and --summary's counts in both forms. */
static void
test_report(struct jsonresp *jr)
{
	struct verdict_tally t = { 0, 0, 0, 0, 0, 0 };
	struct buf b = BUF_INIT;
	struct src src;
	int st;

	st = check(jr, "[]");
	jsonresp_report(&b, jr, "a\"b.json", 0, st);
	unit_str(buf_cstr(&b), "{\"file\":\"a\\\"b.json\",\"valid\":false,"
	    "\"status\":1,\"errors\":[{\"file\":\"a\\\"b.json\",\"line\":1,"
	    "\"column\":1,\"severity\":\"error\",\"rule\":\"schema\","
	    "\"message\":\"expected object, found array\","
	    "\"path\":\"\",\"keywordLocation\":\"/type\"}]}\n",
	    "report: an invalid document, its errors as --errors=json");
	verdict_tally(&t, st);
	buf_reset(&b);
	src_init(&src, "l.jsonl", minimal, strlen(minimal));
	src_setrecord(&src, 7);
	st = jsonresp_check(jr, &src);
	jsonresp_report(&b, jr, "l.jsonl", 1, st);
	unit_str(buf_cstr(&b), "{\"file\":\"l.jsonl\",\"line\":7,"
	    "\"valid\":true,\"status\":0,\"errors\":[]}\n",
	    "report: a valid line of --lines, with its line");
	verdict_tally(&t, st);
	verdict_tally(&t, DIAG_CRITICAL);
	verdict_tally(&t, DIAG_EMERGENCY);
	buf_reset(&b);
	verdict_summary(&b, &t, 1, 1);
	unit_str(buf_cstr(&b), "{\"documents\":4,\"valid\":3,\"invalid\":1,"
	    "\"critical\":1,\"emergency\":1}\n", "summary: as JSON");
	buf_reset(&b);
	verdict_summary(&b, &t, 0, 1);
	unit_str(buf_cstr(&b), "4 documents: 3 valid, 1 invalid, 1 critical, "
	    "1 emergency\n", "summary: as text");
	unit_long(cmd_choice_find("none", jsonresp_outputs), JSONRESP_OUT_NONE,
	    "-o none");
	unit_long(cmd_choice_find("json", jsonresp_outputs), JSONRESP_OUT_JSON,
	    "-o json");
	unit_long(cmd_choice_find("report", jsonresp_outputs),
	    JSONRESP_OUT_REPORT,
	    "-o report");
	unit_long(cmd_choice_find("JSON", jsonresp_outputs), -1,
	    "-o: no other name");
	buf_free(&b);
}

/* v as JSON text: members in order, every double to its last bit */
static char *
dump(const json_t *v)
{
	return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY |
	    JSON_REAL_PRECISION(17));
}

/*
 * The built-in schema's tree, built from the steps compiled in, is the
 * one its text gives; and jsontree_build refuses steps out of balance.
 */
static void
test_builtin_tree(void)
{
	static const struct jsontree_op kinds[] = {
		{ JSONTREE_ARRAY, NULL, 0, NULL, 0, 0 },
		{ JSONTREE_OBJECT, NULL, 0, NULL, 0, 0 },
		{ JSONTREE_ARRAY, "b", 1, NULL, 0, 0 },
		{ JSONTREE_END, NULL, 0, NULL, 0, 0 },
		{ JSONTREE_STRING, "a", 1, "x\0y", 3, 0 },
		{ JSONTREE_END, NULL, 0, NULL, 0, 0 },
		{ JSONTREE_REAL, NULL, 0, NULL, 0, -0.0 },
		{ JSONTREE_REAL, NULL, 0, NULL, 0, 0x1.fffffffffffffp+1023 },
		{ JSONTREE_TRUE, NULL, 0, NULL, 0, 0 },
		{ JSONTREE_FALSE, NULL, 0, NULL, 0, 0 },
		{ JSONTREE_NULL, NULL, 0, NULL, 0, 0 },
		{ JSONTREE_END, NULL, 0, NULL, 0, 0 },
	};
	static const struct jsontree_op extra[] = {
		{ JSONTREE_TRUE, NULL, 0, NULL, 0, 0 },
		{ JSONTREE_TRUE, NULL, 0, NULL, 0, 0 },
	};
	json_t *text, *tree;
	char *a, *b;

	text = json_loadb(embed_llm_response_schema,
	    embed_llm_response_schema_len, JSON_DECODE_ANY |
	    JSON_DECODE_INT_AS_REAL | JSON_ALLOW_NUL | JSON_REJECT_DUPLICATES,
	    NULL);
	tree = jsontree_build(embed_llm_response_schema_tree,
	    embed_llm_response_schema_tree_len);
	unit_ok(text != NULL && tree != NULL && json_equal(text, tree),
	    "the built-in schema: its tree is its text's");
	a = dump(text);
	b = dump(tree);
	unit_str(b, a, "the built-in schema: its tree in the text's order");
	free(a);
	free(b);
	json_decref(text);
	json_decref(tree);

	tree = jsontree_build(kinds, sizeof(kinds) / sizeof(kinds[0]));
	a = dump(tree);
	unit_str(a, "[{\"b\":[],\"a\":\"x\\u0000y\"},-0.0,"
	    "1.7976931348623157e308,true,false,null]", "jsontree: each kind");
	free(a);
	json_decref(tree);
	unit_ok(jsontree_build(kinds, 11) == NULL, "jsontree: an array open");
	unit_ok(jsontree_build(kinds + 11, 1) == NULL,
	    "jsontree: an END with nothing open");
	unit_ok(jsontree_build(extra, 2) == NULL,
	    "jsontree: a value after the top one");
	unit_ok(jsontree_build(kinds, 0) == NULL, "jsontree: no step");
}

int
main(int argc, char *argv[])
{
	struct jsschema_opts jo = { 0, NULL, 0, 0, NULL, 0, 0 };
	struct jsonresp_opts o = { NULL, 1, 0, 0, 0 };
	struct jsschema *schema;
	struct jsonresp *jr;

	diag_setprogname(argc > 0 ? argv[0] : "test_jsonresp");
	/* the schema as jsonresp-check builds it; test_schema reads text */
	schema = jsonresp_builtin_schema(&jo);
	if (schema == NULL)
		unit_bail("the default schema");
	test_builtin_tree();
	o.schema = schema;
	jr = jsonresp_new(&o);
	test_unfence();
	test_find();
	test_seed_rules();
	test_safety();
	test_check(jr);
	test_fence();
	test_lines(jr);
	test_feedback(jr);
	test_prompt();
	test_schema();
	test_clean();
	test_report(jr);
	jsonresp_free(jr);
	jsschema_free(schema);
	unit_free();
	return unit_done();
}
