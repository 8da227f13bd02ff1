/*
 * Unit tests of lib/tcdialect: every fixture of t/data/toolcall-parse/
 * dialects (DIALECT-CASE.txt, one call's text, the file's last newline
 * not part of it; DIALECT-CASE.json, what it reads as), written after
 * the published examples of each model family and the tests of vLLM's
 * and SGLang's parsers, read alike by tcd_parse and tcd_parse_text;
 * every strict prefix of each fixture refused, as a truncated call is;
 * values byte for byte; and every error message with its offset.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/xalloc.h"
#include "toolcall/pylit.h"
#include "toolcall/tcdialect.h"
#include "unit.h"

#define DIR	"t/data/toolcall-parse/dialects"
#define LIT0(s)	(s), (sizeof(s) - 1)

/* DeepSeek's markup, with U+FF5C and U+2581 in UTF-8 */
#define BAR	"\xef\xbd\x9c"
#define LOW	"\xe2\x96\x81"
#define DSB	"<" BAR "tool" LOW "call" LOW "begin" BAR ">"
#define DSS	"<" BAR "tool" LOW "sep" BAR ">"
#define DSE	"<" BAR "tool" LOW "call" LOW "end" BAR ">"
#define DSCE	"<" BAR "tool" LOW "calls" LOW "end" BAR ">"

static const char *const names[] = {
	"", "qwen3", "invoke", "glm", "hermes", "harmony", "deepseek",
	"mistral", "llama3", "kimi", "pythonic"
};

/* The dialect a fixture's name begins with, or 0. */
static enum tcd_dialect
dialect_of(const char *path)
{
	const char *base = strrchr(path, '/') != NULL ? strrchr(path, '/') +
	    1 : path;
	size_t i, len;

	for (i = 1; i < sizeof(names) / sizeof(names[0]); i++) {
		len = strlen(names[i]);
		if (strncmp(base, names[i], len) == 0 && base[len] == '-')
			return (enum tcd_dialect)i;
	}
	return 0;
}

/* Whether the arguments of dialect d are a JSON object. */
static int
json_dialect(enum tcd_dialect d)
{
	return d >= TCD_HERMES;
}

/*
 * What the call s reads as, in compact JSON: {"name":...,"args":[[KEY,
 * VALUE],...]} for the raw-text dialects, {"name":...,"arguments":{...}}
 * for the JSON ones ({"name":...,"id":...,"arguments":...} where the
 * model wrote an id), {"error":...,"offset":N} for a malformed call. The
 * caller frees it.
 */
static char *
render_flags(enum tcd_dialect d, const char *s, size_t n, int flags)
{
	struct tcd_call c;
	json_error_t e;
	json_t *j, *args, *pair;
	const char *name;
	size_t i, len;
	char *out;

	if (tcd_parse_flags(d, s, n, flags, &c) != 0) {
		j = json_pack("{s:s, s:I}", "error", c.err, "offset",
		    (json_int_t)c.erroff);
	} else {
		name = tcd_name(&c, s, &len);
		j = json_object();
		json_object_set_new(j, "name", json_stringn(name, len));
		if (c.idlen > 0)
			json_object_set_new(j, "id", json_stringn(s + c.id,
			    c.idlen));
		if (json_dialect(d) && c.json != NULL) {
			json_object_set(j, "arguments", c.json);
		} else if (json_dialect(d)) {
			args = json_loadb(c.argtext.data, c.argtext.len,
			    JSON_DECODE_ANY, &e);
			if (args == NULL)
				unit_bail("the arguments' text");
			json_object_set_new(j, "arguments", args);
		} else {
			args = json_array();
			for (i = 0; i < c.nargs; i++) {
				pair = json_array();
				json_array_append_new(pair, json_stringn(s +
				    c.args[i].key, c.args[i].keylen));
				json_array_append_new(pair, json_stringn(s +
				    c.args[i].val, c.args[i].vallen));
				json_array_append_new(args, pair);
			}
			json_object_set_new(j, "args", args);
		}
	}
	tcd_call_free(&c);
	out = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	if (out == NULL)
		unit_bail("json_dumps");
	return out;
}

static char *
render(enum tcd_dialect d, const char *s, size_t n)
{
	return render_flags(d, s, n, 0);
}

/* Whether every prefix of s, shorter than n, is refused with a good error. */
static void
prefixes(enum tcd_dialect d, const char *s, size_t n, const char *what)
{
	struct tcd_call c;
	size_t len, bad = n;
	int r;

	for (len = 0; len < n && bad == n; len++) {
		r = tcd_parse(d, s, len, &c);
		if (r != -1 || c.erroff > len || strncmp(c.err, "malformed ",
		    10) != 0 || strchr(c.err, '\n') != NULL)
			bad = len;
		tcd_call_free(&c);
	}
	unit_ok(bad == n, unit_fmt("%s: every prefix is a malformed call",
	    what));
	if (bad != n)
		printf("#   the prefix of %zu bytes is not\n", bad);
}

/* Every fixture: read as its .json says, and cut at every byte refused. */
static void
test_fixtures(void)
{
	json_error_t e;
	json_t *want;
	glob_t g;
	char *s, *got, *wanted, path[4096];
	size_t i, n, len;
	enum tcd_dialect d;

	if (glob(DIR "/*.txt", 0, NULL, &g) != 0)
		unit_bail("glob " DIR "/*.txt");
	for (i = 0; i < g.gl_pathc; i++) {
		d = dialect_of(g.gl_pathv[i]);
		unit_ok(d != 0, unit_fmt("%s: the dialect is in its name",
		    g.gl_pathv[i]));
		if (d == 0)
			continue;
		s = unit_fixture(g.gl_pathv[i], &n);
		len = strlen(g.gl_pathv[i]);
		snprintf(path, sizeof(path), "%.*s.json", (int)(len - 4),
		    g.gl_pathv[i]);
		/* as the call's JSON is read: integers past int64 as reals */
		want = json_load_file(path, JSON_REJECT_DUPLICATES, &e);
		if (want == NULL && json_error_code(&e) ==
		    json_error_numeric_overflow)
			want = json_load_file(path, JSON_REJECT_DUPLICATES |
			    JSON_DECODE_INT_AS_REAL, &e);
		if (want == NULL)
			unit_bail(path);
		wanted = json_dumps(want, JSON_COMPACT);
		got = render(d, s, n);
		unit_str(got, wanted, g.gl_pathv[i]);
		free(got);
		/* the fast path, where there is one, reads it the same */
		got = render_flags(d, s, n, TCD_TEXT);
		unit_str(got, wanted, unit_fmt("%s: tcd_parse_text",
		    g.gl_pathv[i]));
		free(got);
		prefixes(d, s, n, g.gl_pathv[i]);
		free(wanted);
		json_decref(want);
		free(s);
	}
	unit_ok(g.gl_pathc >= 20, unit_fmt("%zu fixtures in " DIR,
	    g.gl_pathc));
	globfree(&g);
}

/*
 * A malformed call: the text with "@" where the error lies (taken out
 * before the text is read), and the message.
 */
struct bad {
	enum tcd_dialect d;
	const char	*text;
	size_t		 len;
	const char	*err;
};

#define BAD(d, text, err)	{ d, text, sizeof(text) - 1, err }

static const struct bad bads[] = {
	/* qwen3 */
	BAD(TCD_QWEN3, "@", "<function=NAME> expected"),
	BAD(TCD_QWEN3, " \n@", "<function=NAME> expected"),
	BAD(TCD_QWEN3, "<tool_call>\n@{\"name\": \"f\"}\n</tool_call>",
	    "<function=NAME> expected"),
	BAD(TCD_QWEN3, "<tool_call>\n@<function=get_weather",
	    "<function= is not closed by >"),
	BAD(TCD_QWEN3, "<tool_call>\n@<function= >\n</function>\n"
	    "</tool_call>", "<function=> has no name"),
	BAD(TCD_QWEN3, "<tool_call>\n@<function=f>\n<parameter=a>\n1\n"
	    "</parameter>\n</tool_call>", "<function=NAME> has no </function>"),
	BAD(TCD_QWEN3, "<tool_call>\n<function=f>\n@hello\n<parameter=a>1"
	    "</parameter>\n</function>\n</tool_call>",
	    "text outside a parameter"),
	BAD(TCD_QWEN3, "<function=f>\n@<parameter=city",
	    "<parameter= is not closed by >"),
	BAD(TCD_QWEN3, "<function=f>\n@<parameter=>1</parameter>\n"
	    "</function>", "<parameter=> has no name"),
	BAD(TCD_QWEN3, "<tool_call>\n<function=a>\n</function>\n"
	    "@<function=b>\n</function>\n</tool_call>",
	    "a second <function=NAME> in one call"),
	BAD(TCD_QWEN3, "<function=a></function>@<function=b></function>",
	    "a second <function=NAME> in one call"),
	BAD(TCD_QWEN3, "@<tool_call>\n<function=f>\n</function>\n",
	    "<tool_call> has no </tool_call>"),
	BAD(TCD_QWEN3, "@<seed:tool_call><function=f></function>",
	    "<seed:tool_call> has no </seed:tool_call>"),
	BAD(TCD_QWEN3, "<function=f></function>\n@</tool_call>",
	    "text after </function>"),
	BAD(TCD_QWEN3, "<seed:tool_call><function=f></function>"
	    "@</tool_call>", "text after </function>"),
	BAD(TCD_QWEN3, "<tool_call><function=f></function></tool_call>\n@x",
	    "text after </tool_call>"),
	BAD(TCD_QWEN3, "<seed:tool_call><function=f></function>"
	    "</seed:tool_call>@x", "text after </seed:tool_call>"),
	/* invoke */
	BAD(TCD_INVOKE, "@", "<invoke name=\"NAME\"> expected"),
	BAD(TCD_INVOKE, "@<minimax:tool_call>\n<invoke name=\"f\">\n"
	    "</invoke>", "<invoke name=\"NAME\"> expected"),
	BAD(TCD_INVOKE, "@<invoked name=\"f\">\n</invoke>",
	    "<invoke name=\"NAME\"> expected"),
	BAD(TCD_INVOKE, "@<invoke>\n</invoke>",
	    "<invoke> has no name attribute"),
	BAD(TCD_INVOKE, "@<invoke id=\"1\">\n</invoke>",
	    "<invoke> has no name attribute"),
	BAD(TCD_INVOKE, "@<invoke name=f>\n</invoke>",
	    "<invoke> has no name attribute"),
	BAD(TCD_INVOKE, "@<invoke name=\"f>\n</invoke>",
	    "the name of <invoke> has no closing quote"),
	BAD(TCD_INVOKE, "@<invoke name=\"f\" id=\"2\">\n</invoke>",
	    "<invoke name=\"...\" is not closed by >"),
	BAD(TCD_INVOKE, "@<invoke name=\" \">\n</invoke>",
	    "<invoke name=\"\"> has no name"),
	BAD(TCD_INVOKE, "@<invoke name=\"f\">\n<parameter name=\"a\">1"
	    "</parameter>\n", "<invoke> has no </invoke>"),
	BAD(TCD_INVOKE, "<invoke name=\"f\">\n@text\n<parameter name=\"a\">"
	    "1</parameter>\n</invoke>", "text outside a parameter"),
	BAD(TCD_INVOKE, "<invoke name=\"f\">\n@<parameter>1</parameter>\n"
	    "</invoke>", "<parameter> has no name attribute"),
	BAD(TCD_INVOKE, "<invoke name=\"f\">\n@<parameter name=\"a>1"
	    "</parameter>\n</invoke>",
	    "the name of <parameter> has no closing quote"),
	BAD(TCD_INVOKE, "<invoke name=\"f\">\n@<parameter name=\"a\" "
	    "type=\"int\">1</parameter>\n</invoke>",
	    "<parameter name=\"...\" is not closed by >"),
	BAD(TCD_INVOKE, "<invoke name=\"f\">\n@<parameter name=''>1"
	    "</parameter>\n</invoke>", "<parameter name=\"\"> has no name"),
	BAD(TCD_INVOKE, "<invoke name=\"f\">\n</invoke>\n@<invoke name=\"g\">"
	    "\n</invoke>", "text after </invoke>"),
	/* glm */
	BAD(TCD_GLM, "@{\"name\": \"f\"}", "<tool_call> expected"),
	BAD(TCD_GLM, "@<tool_call>\n<function=f>\n</function>\n</tool_call>",
	    "<tool_call> has no name"),
	BAD(TCD_GLM, "@<tool_call><arg_key>a</arg_key><arg_value>1"
	    "</arg_value></tool_call>", "<tool_call> has no name"),
	BAD(TCD_GLM, "@<tool_call>get_date", "<tool_call> has no </tool_call>"),
	BAD(TCD_GLM, "@<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1"
	    "</arg_value>\n", "<tool_call> has no </tool_call>"),
	BAD(TCD_GLM, "<tool_call>f\n@<arg_value>1</arg_value>\n</tool_call>",
	    "text outside an argument"),
	BAD(TCD_GLM, "<tool_call>f<arg_key>a</arg_key><arg_value>1"
	    "</arg_value>@junk</tool_call>", "text outside an argument"),
	BAD(TCD_GLM, "<tool_call>f\n@<arg_key>a\n</tool_call>",
	    "<arg_key> has no </arg_key>"),
	BAD(TCD_GLM, "<tool_call>f\n@<arg_key> </arg_key>\n<arg_value>1"
	    "</arg_value>\n</tool_call>", "<arg_key></arg_key> has no name"),
	BAD(TCD_GLM, "<tool_call>f\n@<arg_key>a</arg_key>\n</tool_call>",
	    "<arg_key> has no <arg_value>"),
	BAD(TCD_GLM, "<tool_call>f@<arg_key>a</arg_key>x<arg_value>1"
	    "</arg_value></tool_call>", "<arg_key> has no <arg_value>"),
	BAD(TCD_GLM, "<tool_call>f\n<arg_key>a</arg_key>\n@<arg_value>1\n"
	    "</tool_call>", "<arg_value> has no </arg_value>"),
	BAD(TCD_GLM, "<tool_call>get_date</tool_call>\n@x",
	    "text after </tool_call>"),
	/* hermes */
	BAD(TCD_HERMES, "@{\"name\": \"f\"}", "<tool_call> expected"),
	BAD(TCD_HERMES, "@<tool_call>{\"name\": \"f\"}",
	    "<tool_call> has no </tool_call>"),
	BAD(TCD_HERMES, "@<tool_call>\n</tool_call>",
	    "<tool_call> holds no JSON"),
	BAD(TCD_HERMES, "<tool_call>{\"name\": \"f\"}</tool_call>@x",
	    "text after </tool_call>"),
	BAD(TCD_HERMES, "<tool_call>{\"name\": \"f@\0\"}</tool_call>",
	    "the JSON holds a NUL byte"),
	BAD(TCD_HERMES, "<tool_call>\n{\"name\": \"f\", \"arguments\": "
	    "{\"a\": 1}@\n</tool_call>", "the JSON ends early"),
	BAD(TCD_HERMES, "<tool_call>{\"name\": \"f\"} {@\"name\": \"g\"}"
	    "</tool_call>", "text after the JSON object"),
	BAD(TCD_HERMES, "<tool_call>{\"name\": \"f@\xff\"}</tool_call>",
	    "the JSON is not valid UTF-8"),
	BAD(TCD_HERMES, "<tool_call>{\"name\": \"f\", \"name\"@: \"g\"}"
	    "</tool_call>", "the JSON object has a duplicate key"),
	BAD(TCD_HERMES, "<tool_call>{\"name\": \"f\", \"arguments\": "
	    "{\"x\": 1e999@}}</tool_call>",
	    "a number in the JSON is out of range"),
	BAD(TCD_HERMES, "<tool_call>{'@name': 'f'}</tool_call>",
	    "invalid JSON: string or '}' expected"),
	BAD(TCD_HERMES, "<tool_call>{\"name\" \"f\"@}</tool_call>",
	    "invalid JSON: ':' expected"),
	/* the offset is in bytes: "é" is two */
	BAD(TCD_HERMES, "<tool_call>{\"name\": \"\xc3\xa9\" \"x\"@}"
	    "</tool_call>", "invalid JSON: '}' expected"),
	BAD(TCD_HERMES, "<tool_call>{\"name\": tru@}</tool_call>",
	    "invalid JSON: invalid token"),
	BAD(TCD_HERMES, "<tool_call>@[\"f\"]</tool_call>",
	    "the JSON is not an object"),
	BAD(TCD_HERMES, "<tool_call>\n@{\"arguments\": {}}\n</tool_call>",
	    "the JSON object has no \"name\""),
	BAD(TCD_HERMES, "<tool_call>{\"name\": @42}</tool_call>",
	    "\"name\" is not a string"),
	BAD(TCD_HERMES, "<tool_call>{\"name\": @\"\"}</tool_call>",
	    "\"name\" is empty"),
	BAD(TCD_HERMES, "<tool_call>{\"name\": \"f\", \"arguments\": @[1]}"
	    "</tool_call>", "\"arguments\" is not an object"),
	BAD(TCD_HERMES, "<tool_call>{\"name\": \"f\", \"arguments\": @null}"
	    "</tool_call>", "\"arguments\" is not an object"),
	BAD(TCD_HERMES, "<tool_call>{\"name\": \"f\", \"arguments\": "
	    "@\"[1]\"}</tool_call>",
	    "\"arguments\" is a string that holds no JSON object"),
	BAD(TCD_HERMES, "<tool_call>{\"name\": \"f\", \"arguments\": "
	    "@\"{\\\"a\\\": }\"}</tool_call>",
	    "\"arguments\" is a string that holds no JSON object"),
	BAD(TCD_HERMES, "<tool_call>{\"name\": \"f\", \"parameters\": @7}"
	    "</tool_call>", "\"parameters\" is not an object"),
	BAD(TCD_HERMES, "<tool_call>{\"name\": \"f\", \"arguments\": {}, "
	    "\"parameters\": @{}}</tool_call>",
	    "the JSON object has both \"arguments\" and \"parameters\""),
	/* harmony */
	BAD(TCD_HARMONY, "@assistant<|message|>{}<|call|>",
	    "<|start|> or <|channel|> expected"),
	BAD(TCD_HARMONY, " \n@", "<|start|> or <|channel|> expected"),
	BAD(TCD_HARMONY, "@<|channel|>commentary to=functions.f {}<|call|>",
	    "the head has no <|message|>"),
	BAD(TCD_HARMONY, "@<|start|><|channel|>commentary to=functions.f"
	    "<|message|>{}<|call|>", "<|start|> has no role"),
	BAD(TCD_HARMONY, "@<|start|> assistant<|channel|>commentary "
	    "to=functions.f<|message|>{}<|call|>", "<|start|> has no role"),
	BAD(TCD_HARMONY, "<|start|>assistant@<|channel|> to=functions.f"
	    "<|message|>{}<|call|>", "<|channel|> has no channel name"),
	BAD(TCD_HARMONY, "<|channel|>analysis @<|channel|>commentary "
	    "to=functions.f<|message|>{}<|call|>",
	    "a second <|channel|> in one head"),
	BAD(TCD_HARMONY, "<|channel|>commentary to=functions.f "
	    "@<|constrain|><|message|>{}<|call|>",
	    "<|constrain|> has no content type"),
	BAD(TCD_HARMONY, "<|channel|>commentary @to= json<|message|>{}"
	    "<|call|>", "to= has no recipient"),
	BAD(TCD_HARMONY, "<|start|>assistant to=functions.f<|channel|>"
	    "commentary @to=functions.g<|message|>{}<|call|>",
	    "a second recipient in one head"),
	BAD(TCD_HARMONY, "<|channel|>commentary to=functions.f @<|end|>"
	    "<|message|>{}<|call|>", "unknown markup in the head"),
	BAD(TCD_HARMONY, "<|start|>assistant<|channel|>commentary"
	    "@<|start|>assistant<|message|>{}<|call|>",
	    "unknown markup in the head"),
	BAD(TCD_HARMONY, "@<|channel|>final<|message|>Hello.<|return|>",
	    "the message has no to=functions.NAME"),
	BAD(TCD_HARMONY, "<|channel|>analysis @to=browser.search code"
	    "<|message|>{\"query\": \"x\"}<|call|>",
	    "the recipient is not functions.NAME"),
	BAD(TCD_HARMONY, "<|channel|>commentary @to=functions.<|message|>{}"
	    "<|call|>", "the recipient is not functions.NAME"),
	BAD(TCD_HARMONY, "@<|channel|>commentary to=functions.f<|message|>"
	    "{\"a\": 1}", "the message has no <|call|>"),
	BAD(TCD_HARMONY, "<|channel|>commentary to=functions.f<|message|>{}"
	    "<|call|>\n@x", "text after <|call|>"),
	BAD(TCD_HARMONY, "<|channel|>commentary to=functions.f<|message|>{}"
	    "<|end|>@<|start|>", "text after <|end|>"),
	BAD(TCD_HARMONY, "<|channel|>commentary to=functions.f<|message|>"
	    "@[1]<|call|>", "the JSON is not an object"),
	BAD(TCD_HARMONY, "<|channel|>commentary to=functions.f<|message|>"
	    "{\"a\": 1@<|call|>", "the JSON ends early"),
	BAD(TCD_HARMONY, "<|channel|>commentary to=functions.f<|message|>"
	    "{\"a\": \"@\0\"}<|call|>", "the JSON holds a NUL byte"),
	BAD(TCD_HARMONY, "<|channel|>commentary to=functions.f<|message|>"
	    "find@ the weather<|call|>", "invalid JSON: '[' or '{' expected"),
	/* deepseek */
	BAD(TCD_DEEPSEEK, "@function" DSS "f\n```json\n{}\n```" DSE,
	    DSB " expected"),
	BAD(TCD_DEEPSEEK, "@" DSB "foo" DSS "{\"x\": 1}",
	    DSB " has no " DSE),
	BAD(TCD_DEEPSEEK, DSB "foo" DSS "{}" DSE "@x", "text after " DSE),
	BAD(TCD_DEEPSEEK, DSB "foo" DSS "{}" DSE "\n@" DSCE,
	    "text after " DSE),
	BAD(TCD_DEEPSEEK, "@" DSB "foo{}" DSE, DSB " has no " DSS),
	BAD(TCD_DEEPSEEK, "@" DSB " " DSS "{}" DSE, DSB " has no name"),
	BAD(TCD_DEEPSEEK, DSB "function@" DSS "\n```json\n{}\n```" DSE,
	    DSS " has no name"),
	BAD(TCD_DEEPSEEK, DSB "foo@" DSS " " DSE, DSS " has no JSON after it"),
	BAD(TCD_DEEPSEEK, DSB "function" DSS "get_weather\n@{\"a\": 1}" DSE,
	    "the name has no ```json block after it"),
	BAD(TCD_DEEPSEEK, DSB "function" DSS "get_weather@" DSE,
	    "the name has no ```json block after it"),
	BAD(TCD_DEEPSEEK, DSB "function" DSS "f\n@```json\n{}\n" DSE,
	    "```json is not closed by ```"),
	BAD(TCD_DEEPSEEK, DSB "function" DSS "f\n@```json\n\n```" DSE,
	    "the ```json block holds no JSON"),
	BAD(TCD_DEEPSEEK, DSB "function" DSS "f\n```json\n{}\n```\n@done"
	    DSE, "text after the ```json block"),
	BAD(TCD_DEEPSEEK, DSB "foo" DSS "@[1]" DSE,
	    "the JSON is not an object"),
	BAD(TCD_DEEPSEEK, DSB "function" DSS "get_weather\n```json\n"
	    "{\"city\": \"Tokyo\"@\n```" DSE, "the JSON ends early"),
	/* mistral */
	BAD(TCD_MISTRAL, "@get_weather{}",
	    "[TOOL_CALLS] or a JSON object expected"),
	BAD(TCD_MISTRAL, "@[{\"name\": \"f\", \"arguments\": {}}]",
	    "[TOOL_CALLS] or a JSON object expected"),
	BAD(TCD_MISTRAL, "[TOOL_CALLS] @[{\"name\": \"add\", \"arguments\": "
	    "{}}]", "[TOOL_CALLS] [...] is a list: each object is read alone"),
	BAD(TCD_MISTRAL, "@[TOOL_CALLS][ARGS]{}", "[TOOL_CALLS] has no name"),
	BAD(TCD_MISTRAL, "@[TOOL_CALLS] {\"a\": 1}",
	    "[TOOL_CALLS] has no name"),
	BAD(TCD_MISTRAL, "@[TOOL_CALLS]toolname_no_args",
	    "[TOOL_CALLS]NAME has no arguments"),
	BAD(TCD_MISTRAL, "@[TOOL_CALLS]f[CALL_ID]abc123xyz",
	    "[TOOL_CALLS]NAME has no arguments"),
	BAD(TCD_MISTRAL, "[TOOL_CALLS]f@[CALL_ID] [ARGS]{}",
	    "[CALL_ID] has no id"),
	BAD(TCD_MISTRAL, "[TOOL_CALLS]f@[ARGS] \n",
	    "[ARGS] has no JSON after it"),
	BAD(TCD_MISTRAL, "[TOOL_CALLS]f[ARGS]{\"a\": 1} trailing@",
	    "text after the JSON object"),
	BAD(TCD_MISTRAL, "[TOOL_CALLS]bash{\"command\": \"print(\\\"hello "
	    "world!\\\")\\nre.compile(r'{}')\"@", "the JSON ends early"),
	BAD(TCD_MISTRAL, "[TOOL_CALLS]f[ARGS]\"x\"@",
	    "invalid JSON: '[' or '{' expected"),
	BAD(TCD_MISTRAL, "[TOOL_CALLS]f[ARGS]@[\"x\"]",
	    "the JSON is not an object"),
	BAD(TCD_MISTRAL, "@{\"arguments\": {}}",
	    "the JSON object has no \"name\""),
	BAD(TCD_MISTRAL, "{\"name\": \"add\", \"arguments\": @[3, 4]}",
	    "\"arguments\" is not an object"),
	/* llama3 */
	BAD(TCD_LLAMA3, "@", "a JSON object expected"),
	BAD(TCD_LLAMA3, "<|python_tag|> \n@", "a JSON object expected"),
	BAD(TCD_LLAMA3, "@{\"name\": \"toolWithoutParams\"}",
	    "the JSON object has no \"parameters\""),
	BAD(TCD_LLAMA3, "@{\"parameters\": {}}",
	    "the JSON object has no \"name\""),
	BAD(TCD_LLAMA3, "{\"name\": \"invalidTool\", \"parameters\": "
	    "{invalid@ json}", "invalid JSON: string or '}' expected"),
	BAD(TCD_LLAMA3, "<|python_tag|>print@(\"hi\")",
	    "invalid JSON: '[' or '{' expected"),
	BAD(TCD_LLAMA3, "{\"name\": \"f\", \"parameters\": {}};@ {\"name\": "
	    "\"g\", \"parameters\": {}}", "text after the JSON object"),
	BAD(TCD_LLAMA3, "{\"name\": \"f\", \"arguments\": {}, \"parameters\": "
	    "@{}}", "the JSON object has both \"arguments\" and "
	    "\"parameters\""),
	BAD(TCD_LLAMA3, "{\"name\": @[\"f\"], \"parameters\": {}}",
	    "\"name\" is not a string"),
	/* kimi */
	BAD(TCD_KIMI, "@functions.f:0<|tool_call_argument_begin|>{}"
	    "<|tool_call_end|>", "<|tool_call_begin|> expected"),
	BAD(TCD_KIMI, "@<|tool_call_begin|>functions.f:0"
	    "<|tool_call_argument_begin|>{}",
	    "<|tool_call_begin|> has no <|tool_call_end|>"),
	BAD(TCD_KIMI, "<|tool_call_begin|>functions.f:0"
	    "<|tool_call_argument_begin|>{}<|tool_call_end|>@x",
	    "text after <|tool_call_end|>"),
	BAD(TCD_KIMI, "@<|tool_call_begin|>functions.f:0 {}<|tool_call_end|>",
	    "<|tool_call_begin|> has no <|tool_call_argument_begin|>"),
	BAD(TCD_KIMI, "<|tool_call_begin|> @functions.invalid.0 "
	    "<|tool_call_argument_begin|>{}<|tool_call_end|>",
	    "the call's id is not functions.NAME:INDEX"),
	BAD(TCD_KIMI, "<|tool_call_begin|>@0<|tool_call_argument_begin|>{}"
	    "<|tool_call_end|>", "the call's id is not functions.NAME:INDEX"),
	BAD(TCD_KIMI, "<|tool_call_begin|>@functions.:0"
	    "<|tool_call_argument_begin|>{}<|tool_call_end|>",
	    "the call's id is not functions.NAME:INDEX"),
	BAD(TCD_KIMI, "<|tool_call_begin|>@functions.f:"
	    "<|tool_call_argument_begin|>{}<|tool_call_end|>",
	    "the call's id is not functions.NAME:INDEX"),
	BAD(TCD_KIMI, "<|tool_call_begin|>@functions.f:1a"
	    "<|tool_call_argument_begin|>{}<|tool_call_end|>",
	    "the call's id is not functions.NAME:INDEX"),
	BAD(TCD_KIMI, "@<|tool_call_begin|> <|tool_call_argument_begin|>{}"
	    "<|tool_call_end|>", "the call's id is not functions.NAME:INDEX"),
	BAD(TCD_KIMI, "<|tool_call_begin|>functions.f:0"
	    "@<|tool_call_argument_begin|> <|tool_call_end|>",
	    "<|tool_call_argument_begin|> has no JSON after it"),
	BAD(TCD_KIMI, "<|tool_call_begin|>functions.bad:0"
	    "<|tool_call_argument_begin|>{\"city\": \"Beijing\"@"
	    "<|tool_call_end|>", "the JSON ends early"),
};

/* Reads a malformed call: its message and offset. */
static void
check_bad(const struct bad *b)
{
	struct tcd_call c;
	const char *mark = memchr(b->text, '@', b->len);
	char *s, want[300];
	size_t off, n = b->len - 1;
	int r;

	if (mark == NULL)
		unit_bail("a bad call without its @");
	off = (size_t)(mark - b->text);
	s = xmalloc(n + 1);
	memcpy(s, b->text, off);
	memcpy(s + off, mark + 1, b->len - off - 1);
	s[n] = '\0';
	r = tcd_parse(b->d, s, n, &c);
	snprintf(want, sizeof(want), "malformed %s call: %s", names[b->d],
	    b->err);
	unit_long(r, -1, unit_fmt("%s %s: refused", names[b->d], b->err));
	unit_str(c.err, want, unit_fmt("%s %s: the message", names[b->d],
	    b->err));
	unit_long((long)c.erroff, (long)off, unit_fmt("%s %s: the offset",
	    names[b->d], b->err));
	tcd_call_free(&c);
	/* the fast path declines it, or refuses it alike */
	r = tcd_parse_text(b->d, s, n, &c);
	unit_ok(r == -1 && strcmp(c.err, want) == 0 && c.erroff == off,
	    unit_fmt("%s %s: tcd_parse_text alike", names[b->d], b->err));
	tcd_call_free(&c);
	free(s);
}

static void
test_errors(void)
{
	struct buf b = BUF_INIT;
	struct tcd_call c;
	size_t i;

	for (i = 0; i < sizeof(bads) / sizeof(bads[0]); i++)
		check_bad(&bads[i]);

	/* jansson's limit of depth, 2048 */
	buf_adds(&b, "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": ");
	for (i = 0; i < 2048; i++)
		buf_adds(&b, "[");
	buf_adds(&b, "]}}</tool_call>");
	/* two objects and 2047 arrays: one level too many */
	unit_long(tcd_parse(TCD_HERMES, b.data, b.len, &c), -1,
	    "hermes: 2049 levels of JSON refused");
	unit_str(c.err, "malformed hermes call: the JSON nests too deep",
	    "hermes: 2049 levels of JSON: the message");
	unit_long((long)c.erroff, 11 + 33 + 2047,
	    "hermes: 2049 levels of JSON: just past the 2049th level's [");
	tcd_call_free(&c);
	buf_free(&b);

	unit_long(tcd_parse((enum tcd_dialect)99, "x", 1, &c), -1,
	    "an unknown dialect refused");
	unit_str(c.err, "unknown tool-call dialect 99",
	    "an unknown dialect: the message");
	tcd_call_free(&c);
	tcd_call_free(&c);
	unit_ok(c.args == NULL && c.json == NULL && c.namebuf == NULL,
	    "tcd_call_free twice is harmless");
}

/* One good call and what it reads as. */
struct good {
	enum tcd_dialect d;
	const char	*text;
	size_t		 len;
	const char	*want;
	const char	*what;
};

#define GOOD(d, text, want, what) \
	{ d, text, sizeof(text) - 1, want, what }

static const struct good goods[] = {
	GOOD(TCD_QWEN3, "<function=f>\n<parameter=a>\n1</parameter> tail\n"
	    "<parameter=b>2</parameter>\n</function>",
	    "{\"name\":\"f\",\"args\":[[\"a\",\"1</parameter> tail\"],"
	    "[\"b\",\"2\"]]}",
	    "a </parameter> with text after it stays in the value"),
	GOOD(TCD_QWEN3, "<function=f><parameter=a>x <function=g> y"
	    "</parameter></function>",
	    "{\"name\":\"f\",\"args\":[[\"a\",\"x <function=g> y\"]]}",
	    "a <function= inside a value is text"),
	GOOD(TCD_QWEN3, "<tool_call>\n<function= f >\n<parameter= a b >"
	    "\r\n\r\n</parameter>\n</function>\n</tool_call>",
	    "{\"name\":\"f\",\"args\":[[\"a b\",\"\"]]}",
	    "names trimmed; two CRLF newlines of layout and nothing else"),
	GOOD(TCD_QWEN3, "<function=f><parameter=a>\n\n</parameter>\t"
	    "</function>",
	    "{\"name\":\"f\",\"args\":[[\"a\",\"\"]]}",
	    "a value of two newlines is empty"),
	GOOD(TCD_QWEN3, "<function=f><parameter=a>\r</parameter>"
	    "</function>",
	    "{\"name\":\"f\",\"args\":[[\"a\",\"\\r\"]]}",
	    "a lone CR is no newline"),
	GOOD(TCD_QWEN3, " \n<tool_call><function=f></function></tool_call>"
	    "\n ", "{\"name\":\"f\",\"args\":[]}",
	    "white space around the call"),
	GOOD(TCD_INVOKE, "<invoke name=\"f\"><parameter name=\"a\">"
	    "1 < 2 && x</parameter><parameter name=\"a\">two</parameter>"
	    "</invoke>",
	    "{\"name\":\"f\",\"args\":[[\"a\",\"1 < 2 && x\"],[\"a\","
	    "\"two\"]]}", "a repeated key kept in order"),
	GOOD(TCD_INVOKE, "<invoke name=\"f\"><parameter name=\"a\">"
	    "<parameter> <parameter id=\"1\"></invoke>",
	    "{\"name\":\"f\",\"args\":[[\"a\",\"<parameter> "
	    "<parameter id=\\\"1\\\">\"]]}",
	    "a <parameter without a name inside a value is text"),
	GOOD(TCD_INVOKE, "<invoke name=\"a&amp;b\"></invoke>",
	    "{\"name\":\"a&amp;b\",\"args\":[]}",
	    "no entity is decoded in a name"),
	GOOD(TCD_GLM, "<tool_call> f \n<arg_key> a </arg_key> <arg_value>"
	    " 1 </arg_value> </tool_call>",
	    "{\"name\":\"f\",\"args\":[[\"a\",\" 1 \"]]}",
	    "glm: name and key trimmed, the value not"),
	GOOD(TCD_GLM, "<tool_call>f<arg_key>a</arg_key><arg_value>"
	    "</arg_value></tool_call>",
	    "{\"name\":\"f\",\"args\":[[\"a\",\"\"]]}", "glm: an empty value"),
	GOOD(TCD_GLM, "<tool_call>f<arg_key>a</arg_key><arg_value>1"
	    "</arg_value>x<arg_key>b</arg_key><arg_value>2</arg_value>"
	    "</tool_call>",
	    "{\"name\":\"f\",\"args\":[[\"a\",\"1</arg_value>x<arg_key>b"
	    "</arg_key><arg_value>2\"]]}",
	    "glm: a value runs to the </arg_value> that may end it"),
	GOOD(TCD_HERMES, "<tool_call>{\"name\":\"f\",\"arguments\":"
	    "{\"id\":9007199254740993,\"r\":1.0,\"z\":\"\\u0000\"}}"
	    "</tool_call>",
	    "{\"name\":\"f\",\"arguments\":{\"id\":9007199254740993,"
	    "\"r\":1.0,\"z\":\"\\u0000\"}}",
	    "hermes: integers exact, \\u0000 kept"),
	GOOD(TCD_HERMES, "<tool_call>{\"name\":\"f\",\"arguments\":"
	    "\"{\\\"id\\\":9007199254740993}\"}</tool_call>",
	    "{\"name\":\"f\",\"arguments\":{\"id\":9007199254740993}}",
	    "hermes: integers exact in a string of arguments"),
	GOOD(TCD_HERMES, "<tool_call>{\"name\":\"f\",\"arguments\":{\"s\":"
	    "\"</tool_call>\"}}</tool_call>",
	    "{\"name\":\"f\",\"arguments\":{\"s\":\"</tool_call>\"}}",
	    "hermes: the JSON runs to the last </tool_call>"),
	GOOD(TCD_HARMONY, "<|channel|>commentary to=functions.f<|message|>"
	    "{\"n\": 9007199254740993}<|return|>",
	    "{\"name\":\"f\",\"arguments\":{\"n\":9007199254740993}}",
	    "harmony: integers exact; <|return|> ends a call too"),
	GOOD(TCD_DEEPSEEK, DSB "function" DSS " f \r\n```\r\n{\"a\": 1}\r\n```"
	    DSE, "{\"name\":\"f\",\"arguments\":{\"a\":1}}",
	    "deepseek: V3's fence without json, CRLF"),
	GOOD(TCD_MISTRAL, " [TOOL_CALLS] get_weather [CALL_ID] x1 [ARGS] "
	    "{\"a\": 1} ", "{\"name\":\"get_weather\",\"id\":\"x1\","
	    "\"arguments\":{\"a\":1}}",
	    "mistral: white space around each part"),
	GOOD(TCD_MISTRAL, "[TOOL_CALLS]f[CALL_ID]x1{}",
	    "{\"name\":\"f\",\"id\":\"x1\",\"arguments\":{}}",
	    "mistral: an id without [ARGS]"),
	GOOD(TCD_LLAMA3, "{\"name\": \"f\", \"parameters\": "
	    "\"{\\\"a\\\": 1}\"}",
	    "{\"name\":\"f\",\"arguments\":{\"a\":1}}",
	    "llama3: parameters as a string of JSON"),
	GOOD(TCD_KIMI, "<|tool_call_begin|>functions.f:007"
	    "<|tool_call_argument_begin|>{\"a\": [\"<|tool_call_end|>\"]}"
	    "<|tool_call_end|>", "{\"name\":\"f\",\"id\":\"functions.f:007\","
	    "\"arguments\":{\"a\":[\"<|tool_call_end|>\"]}}",
	    "kimi: the JSON runs to the last <|tool_call_end|>"),
};

static void
test_good(void)
{
	struct tcd_call c;
	const char *s, *name;
	size_t i, len;
	char *got;

	for (i = 0; i < sizeof(goods) / sizeof(goods[0]); i++) {
		got = render(goods[i].d, goods[i].text, goods[i].len);
		unit_str(got, goods[i].want, unit_fmt("%s %s",
		    names[goods[i].d], goods[i].what));
		free(got);
	}

	/* an escaped name: its range in the text, its bytes decoded */
	s = "<tool_call>{\"name\": \"get\\u005fdate\"}</tool_call>";
	unit_long(tcd_parse(TCD_HERMES, s, strlen(s), &c), 0,
	    "hermes: an escaped name");
	unit_long((long)c.namelen, 0,
	    "hermes: an escaped name: no range in the text");
	name = tcd_name(&c, s, &len);
	unit_mem(name, len, "get_date", "hermes: an escaped name: decoded");
	unit_ok(name == c.namebuf && c.namebuflen == 8 &&
	    c.namebuf[8] == '\0', "hermes: an escaped name: in namebuf");
	tcd_call_free(&c);
	s = "<tool_call>{\"name\": \"get_date\"}</tool_call>";
	unit_long(tcd_parse(TCD_HERMES, s, strlen(s), &c), 0,
	    "hermes: a plain name");
	name = tcd_name(&c, s, &len);
	unit_ok(c.namebuf == NULL && name == s + 21 && len == 8,
	    "hermes: a plain name points into the text");
	tcd_call_free(&c);
}

/* A call cut by the end of input, read with TCD_CUT. */
static void
test_cut(void)
{
	static const struct {
		enum tcd_dialect d;
		const char	*text, *plain, *cut, *what;
	} cuts[] = {
		{ TCD_HERMES, "<tool_call>{\"name\": \"f\", \"arguments\": "
		    "{\"s\": \"</tool_call>\"}}",
		    "{\"error\":\"malformed hermes call: text after "
		    "</tool_call>\",\"offset\":57}",
		    "{\"name\":\"f\",\"arguments\":{\"s\":\"</tool_call>\"}}",
		    "hermes: the JSON runs to the end, markup in it or not" },
		{ TCD_HERMES, "<tool_call>{\"name\": \"f\"", NULL,
		    "{\"error\":\"malformed hermes call: the JSON ends early\","
		    "\"offset\":23}", "hermes: a cut JSON is no call" },
		{ TCD_HERMES, "<tool_call>\n", NULL,
		    "{\"error\":\"malformed hermes call: <tool_call> holds no "
		    "JSON\",\"offset\":0}", "hermes: no JSON is no call" },
		{ TCD_HARMONY, "<|start|>assistant<|channel|>commentary "
		    "to=functions.get_weather <|constrain|>json<|message|>"
		    "{\"city\": \"<|call|>\"}\n", NULL,
		    "{\"name\":\"get_weather\",\"arguments\":{\"city\":"
		    "\"<|call|>\"}}", "harmony: a server stripped <|call|>" },
		{ TCD_HARMONY, "<|channel|>commentary to=functions.f"
		    "<|message|>{\"a\": [1,", NULL,
		    "{\"error\":\"malformed harmony call: the JSON ends "
		    "early\",\"offset\":56}",
		    "harmony: a cut JSON is no call" },
		{ TCD_HARMONY, "<|channel|>commentary to=functions.f"
		    "<|message|> ", NULL,
		    "{\"error\":\"malformed harmony call: the message has no "
		    "<|call|>\",\"offset\":0}",
		    "harmony: cut right after <|message|>, no call" },
		{ TCD_KIMI, "<|tool_call_begin|>functions.f:0"
		    "<|tool_call_argument_begin|>{}", NULL,
		    "{\"error\":\"malformed kimi call: <|tool_call_begin|> has "
		    "no <|tool_call_end|>\",\"offset\":0}",
		    "kimi: no cut is whole" },
		{ TCD_GLM, "<tool_call>get_date", NULL,
		    "{\"error\":\"malformed glm call: <tool_call> has no "
		    "</tool_call>\",\"offset\":0}", "glm: no cut is whole" },
	};
	size_t i, n;
	char *got;

	for (i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		n = strlen(cuts[i].text);
		if (cuts[i].plain != NULL) {
			got = render(cuts[i].d, cuts[i].text, n);
			unit_str(got, cuts[i].plain, unit_fmt("%s, not cut",
			    cuts[i].what));
			free(got);
		}
		got = render_flags(cuts[i].d, cuts[i].text, n, TCD_CUT);
		unit_str(got, cuts[i].cut, cuts[i].what);
		free(got);
		got = render_flags(cuts[i].d, cuts[i].text, n,
		    TCD_CUT | TCD_TEXT);
		unit_str(got, cuts[i].cut, unit_fmt("%s, TCD_TEXT",
		    cuts[i].what));
		free(got);
	}
}

/* A harmony head and what tcd_harmony_head reads in it. */
static char *
head_render(const char *s)
{
	struct tcd_head h;
	json_t *j;
	char *out;

	if (tcd_harmony_head(s, strlen(s), &h) != 0)
		j = json_pack("{s:s, s:I}", "error", h.err, "offset",
		    (json_int_t)h.erroff);
	else
		j = json_pack("{s:i, s:s%, s:s%, s:s%, s:s%, s:I, s:b}",
		    "channel", (int)h.channel, "role", s + h.role, h.rolelen,
		    "chan", s + h.chan, h.chanlen, "to", s + h.to, h.tolen,
		    "ctype", s + h.ctype, h.ctypelen, "body",
		    (json_int_t)h.body, "call", h.call);
	out = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	if (out == NULL)
		unit_bail("json_dumps");
	return out;
}

static void
test_head(void)
{
	static const struct {
		const char	*text, *want, *what;
	} heads[] = {
		{ "<|channel|>analysis<|message|>We need the weather.",
		    "{\"channel\":1,\"role\":\"\",\"chan\":\"analysis\","
		    "\"to\":\"\",\"ctype\":\"\",\"body\":30,\"call\":false}",
		    "analysis: reasoning" },
		{ "<|start|>assistant<|channel|>final<|message|>Hi.",
		    "{\"channel\":3,\"role\":\"assistant\",\"chan\":\"final\","
		    "\"to\":\"\",\"ctype\":\"\",\"body\":45,\"call\":false}",
		    "final: the answer" },
		{ "<|start|>assistant<|channel|>commentary "
		    "to=functions.get_weather <|constrain|>json<|message|>{}",
		    "{\"channel\":2,\"role\":\"assistant\",\"chan\":"
		    "\"commentary\",\"to\":\"functions.get_weather\","
		    "\"ctype\":\"json\",\"body\":93,\"call\":true}",
		    "commentary to a function: a call" },
		{ " \n<|start|>assistant to=functions.f<|channel|>commentary "
		    "json<|message|>",
		    "{\"channel\":2,\"role\":\"assistant\",\"chan\":"
		    "\"commentary\",\"to\":\"functions.f\",\"ctype\":\"json\","
		    "\"body\":72,\"call\":true}",
		    "the recipient before <|channel|>, json in the head" },
		{ "<|channel|>commentary <|message|>I will look it up.",
		    "{\"channel\":2,\"role\":\"\",\"chan\":\"commentary\","
		    "\"to\":\"\",\"ctype\":\"\",\"body\":33,\"call\":false}",
		    "commentary to no one: a preamble" },
		{ "<|channel|>analysis to=browser.search code<|message|>{}",
		    "{\"channel\":1,\"role\":\"\",\"chan\":\"analysis\","
		    "\"to\":\"browser.search\",\"ctype\":\"code\",\"body\":53,"
		    "\"call\":false}", "a built-in tool: no call of ours" },
		{ "<|start|>functions.get_weather to=assistant<|channel|>"
		    "commentary<|message|>{\"t\": 20}",
		    "{\"channel\":2,\"role\":\"functions.get_weather\","
		    "\"chan\":\"commentary\",\"to\":\"assistant\","
		    "\"ctype\":\"\",\"body\":75,\"call\":false}",
		    "a tool's answer: no call" },
		{ "<|start|>assistant<|message|>Hi.",
		    "{\"channel\":0,\"role\":\"assistant\",\"chan\":\"\","
		    "\"to\":\"\",\"ctype\":\"\",\"body\":29,\"call\":false}",
		    "no channel" },
		{ "<|channel|>summary<|message|>",
		    "{\"channel\":4,\"role\":\"\",\"chan\":\"summary\","
		    "\"to\":\"\",\"ctype\":\"\",\"body\":29,\"call\":false}",
		    "another channel" },
		{ "<|channel|><|message|>x",
		    "{\"error\":\"malformed harmony message: <|channel|> has "
		    "no channel name\",\"offset\":0}", "no channel name" },
		{ "<|channel|>analysis",
		    "{\"error\":\"malformed harmony message: the head has no "
		    "<|message|>\",\"offset\":0}", "no <|message|>" },
		{ "Hi<|message|>",
		    "{\"error\":\"malformed harmony message: <|start|> or "
		    "<|channel|> expected\",\"offset\":0}", "no opener" },
	};
	size_t i;
	char *got;

	for (i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
		got = head_render(heads[i].text);
		unit_str(got, heads[i].want, unit_fmt("harmony head: %s",
		    heads[i].what));
		free(got);
	}
}

/* The end tcd_jscan finds in s, fed in pieces of size k (0: whole). */
static size_t
jscan_end(const char *s, size_t n, size_t k)
{
	struct tcd_jscan js;
	size_t i, m, e;

	memset(&js, 0, sizeof(js));
	if (k == 0)
		return tcd_jscan(&js, s, n);
	for (i = 0; i < n; i += m) {
		m = n - i < k ? n - i : k;
		if ((e = tcd_jscan(&js, s + i, m)) != (size_t)-1)
			return i + e;
	}
	return (size_t)-1;
}

static void
test_jscan(void)
{
	static const struct {
		const char	*text;
		size_t		 end;
		const char	*what;
	} vals[] = {
		{ "{\"a\": \"}\"} tail", 10, "a bracket in a string" },
		{ "[1, [2, {\"x\": \"\\\"]\"}]] [", 22, "an escaped quote" },
		{ "  {\"s\": \"\\\\\"}}", 13, "an escaped backslash" },
		{ "{\"s\": \"\\u007d\"}", 15, "a \\u escape" },
		{ "\n{}{}", 3, "white space before, a value after" },
		{ "\"abc\"", 1, "a string: one byte" },
		{ "  x}", 3, "a bare word: one byte" },
		{ "{\"a\": [", (size_t)-1, "no end yet" },
		{ "{\"a\": \"}", (size_t)-1, "no end yet, in a string" },
		{ " \t", (size_t)-1, "white space alone" },
	};
	size_t i, k, n, got;
	int same;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		n = strlen(vals[i].text);
		unit_long((long)jscan_end(vals[i].text, n, 0),
		    (long)vals[i].end, unit_fmt("tcd_jscan: %s", vals[i].what));
		same = 1;
		for (k = 1; k <= n; k++)
			if ((got = jscan_end(vals[i].text, n, k)) !=
			    vals[i].end)
				same = 0;
		unit_ok(same, unit_fmt("tcd_jscan: %s, in pieces of every "
		    "size", vals[i].what));
	}
}

/* The markups of a form, for the checks of the table. */
static size_t
form_marks(const struct tcd_form *f, const char **m)
{
	size_t k = 0, i;

	m[k++] = f->open;
	m[k++] = f->peek;
	m[k++] = f->call_open;
	m[k++] = f->after;
	m[k++] = f->cut;
	for (i = 0; f->close[i] != NULL; i++)
		m[k++] = f->close[i];
	for (i = 0; f->end[i] != NULL; i++)
		m[k++] = f->end[i];
	return k;
}

/* Whether mark is one of the NULL-terminated list. */
static int
in_list(const char *mark, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strcmp(mark, *list) == 0)
			return 1;
	return 0;
}

static void
test_forms(void)
{
	const struct tcd_form *f, *g;
	const char *m[16];
	size_t n, i, j, k, longest = 0, defaults;
	int seen[TCD_NDIALECTS + 1] = { 0 }, ok, all;

	f = tcd_forms(&n);
	ok = 1;
	for (i = 0; i < n; i++) {
		k = form_marks(&f[i], m);
		for (j = 0; j < k; j++)
			if (m[j] != NULL && strlen(m[j]) > longest)
				longest = strlen(m[j]);
		if (f[i].open == NULL || f[i].open[0] == '\0' ||
		    tcd_dialect_name(f[i].dialect) == NULL)
			ok = 0;
		seen[f[i].dialect] = 1;
		/* a call ends, a section too */
		if (!(f[i].flags & TCD_F_SECTION) && f[i].close[0] == NULL &&
		    f[i].dialect != TCD_MISTRAL)
			ok = 0;
		if ((f[i].flags & TCD_F_SECTION) && f[i].end[0] == NULL &&
		    !(f[i].flags & TCD_F_OPENEND))
			ok = 0;
		/* what a cut leaves out is what ends the call or section */
		if (f[i].cut != NULL && !in_list(f[i].cut, f[i].close) &&
		    !in_list(f[i].cut, f[i].end))
			ok = 0;
	}
	unit_ok(ok, "tcd_forms: every form names its dialect and its end");
	unit_long((long)longest, TCD_MARKUP_MAX,
	    "tcd_forms: TCD_MARKUP_MAX is the longest markup");
	all = 1;
	for (i = 1; i <= TCD_NDIALECTS; i++)
		if (!seen[i])
			all = 0;
	unit_ok(all, "tcd_forms: every dialect has a form");
	/* forms that share an opener: one default, the others peek apart */
	ok = 1;
	for (i = 0; i < n; i++) {
		defaults = 0;
		for (j = 0; j < n; j++) {
			g = &f[j];
			if (strcmp(g->open, f[i].open) != 0)
				continue;
			if (g->peek == NULL)
				defaults++;
			else if (j != i && f[i].peek != NULL &&
			    strcmp(g->peek, f[i].peek) == 0)
				ok = 0;
		}
		if (defaults > 1)
			ok = 0;
	}
	unit_ok(ok, "tcd_forms: forms that share an opener are told apart");
	/* what a streaming reader looks for in a call begins with "<" */
	ok = 1;
	for (i = 0; i < n; i++) {
		for (j = 0; f[i].close[j] != NULL; j++)
			if (f[i].close[j][0] != '<')
				ok = 0;
		for (j = 0; f[i].end[j] != NULL; j++)
			if (f[i].end[j][0] != '<' && !(f[i].flags &
			    TCD_F_NEEDSEP))
				ok = 0;
		if ((f[i].after != NULL && f[i].after[0] != '<') ||
		    (f[i].close[0] != NULL && f[i].open[0] != '<') ||
		    (f[i].call_open != NULL && f[i].call_open[0] != '<'))
			ok = 0;
		/* a required peek, and a start, only of an output's start */
		if ((f[i].flags & TCD_F_PEEK) && !(f[i].flags & TCD_F_START))
			ok = 0;
		if ((f[i].flags & TCD_F_START) && (!(f[i].flags &
		    TCD_F_FIRST) || strlen(f[i].open) != 1))
			ok = 0;
		if ((f[i].flags & TCD_F_LIST) && (f[i].call_open != NULL ||
		    !(f[i].flags & TCD_F_SECTION)))
			ok = 0;
	}
	unit_ok(ok, "tcd_forms: markup in a call begins with \"<\"; a "
	    "required peek and a start are an output's start's");
#define ANSWER(d, s)	tcd_is_answer(d, s, strlen(s))
	unit_ok(ANSWER(TCD_LLAMA3, "{\"name\": \"Ada\"}") &&
	    ANSWER(TCD_LLAMA3, "[1]") && !ANSWER(TCD_LLAMA3, "{\"name\": "
	    "\"f\", \"parameters\": {}}") && !ANSWER(TCD_LLAMA3, "{\"name\": "
	    "\"f\", \"arguments\": 1}") && !ANSWER(TCD_LLAMA3, "{\"a\" b}") &&
	    !ANSWER(TCD_HERMES, "{}"),
	    "tcd_is_answer: JSON with neither parameters nor arguments");
	unit_str(tcd_dialect_name(TCD_DEEPSEEK), "deepseek",
	    "tcd_dialect_name: deepseek");
	unit_ok(tcd_dialect_name(0) == NULL && tcd_dialect_name(99) == NULL,
	    "tcd_dialect_name: no dialect, NULL");
}

/*
 * A reader of a whole model output, for the fixtures DIALECT-CASE.out
 * (DIALECT-CASE.calls: what it reads as, a JSON array of events): it
 * knows no dialect, only what tcd_forms, tcd_jscan, tcd_harmony_head,
 * tcd_is_answer and pylit (for pythonic's lists) say, as the streaming
 * reader does, and so shows that they say enough to read vLLM's and
 * SGLang's whole outputs: prose, reasoning, parallel calls in their
 * sections, and calls cut by the end of input.
 */
struct out {
	const char	*s;
	size_t		 n;
	int		 d;		/* the dialect read, 0: every one */
	size_t		 first;		/* the output's first byte not blank */
	int		 answer;	/* it began with an answer in JSON */
	json_t		*ev;
};

static void
ev_text(struct out *o, const char *kind, size_t a, size_t b)
{
	json_t *last = json_array_get(o->ev, json_array_size(o->ev) - 1);
	json_t *prev;
	char *t;

	if (a >= b)
		return;
	if (last != NULL && (prev = json_object_get(last, kind)) != NULL) {
		t = xmalloc(json_string_length(prev) + (b - a) + 1);
		memcpy(t, json_string_value(prev), json_string_length(prev));
		memcpy(t + json_string_length(prev), o->s + a, b - a);
		json_object_set_new(last, kind, json_stringn(t,
		    json_string_length(prev) + (b - a)));
		free(t);
		return;
	}
	json_array_append_new(o->ev, json_pack("{s:s%}", kind, o->s + a,
	    b - a));
}

static void
ev_error(struct out *o, size_t off, const char *msg)
{
	json_array_append_new(o->ev, json_pack("{s:s, s:I}", "error", msg,
	    "offset", (json_int_t)off));
}

/* The call [a, b) of dialect d: its event; whether it was a call. */
static int
ev_call(struct out *o, enum tcd_dialect d, size_t a, size_t b, int flags)
{
	json_error_t e;
	json_t *j;
	char *r;
	int ok;

	r = render_flags(d, o->s + a, b - a, flags);
	if ((j = json_loads(r, 0, &e)) == NULL)
		unit_bail("a call's rendering");
	free(r);
	ok = json_object_get(j, "error") == NULL;
	if (ok)
		json_array_append_new(o->ev, json_pack("{s:o}", "call", j));
	else {
		ev_error(o, a + (size_t)json_integer_value(json_object_get(j,
		    "offset")), json_string_value(json_object_get(j,
		    "error")));
		json_decref(j);
	}
	return ok;
}

static void
ev_cut(struct out *o, const char *mark)
{
	json_array_append_new(o->ev, json_pack("{s:s+}", "warning",
	    "input ended before ", mark));
}

/*
 * The call [a, end of input) of form f, cut before its markup: a call
 * and the warning where TCD_CUT reads it whole, else truncated at a, as
 * any call the end of input cuts short (the parser's own complaint about
 * a JSON cut short would say less).
 */
static void
ev_cut_call(struct out *o, const struct tcd_form *f, size_t a)
{
	json_error_t e;
	json_t *j;
	char *r;

	if (f->cut == NULL) {
		ev_error(o, a, "truncated: input ended in the call");
		return;
	}
	r = render_flags(f->dialect, o->s + a, o->n - a, TCD_CUT);
	if ((j = json_loads(r, 0, &e)) == NULL)
		unit_bail("a call's rendering");
	free(r);
	if (json_object_get(j, "error") != NULL) {
		json_decref(j);
		ev_error(o, a, "truncated: input ended in the call");
		return;
	}
	json_array_append_new(o->ev, json_pack("{s:o}", "call", j));
	ev_cut(o, f->cut);
}

static int
form_on(const struct out *o, const struct tcd_form *f)
{
	return o->d == 0 || (int)f->dialect == o->d;
}

/* The form whose opener is at p, or NULL: its peek, or the default. */
static const struct tcd_form *
form_at(const struct out *o, size_t p)
{
	const struct tcd_form *f, *def = NULL, *any = NULL;
	struct pylit_scan sc;
	size_t n, i, q;
	int yes;

	f = tcd_forms(&n);
	for (i = 0; i < n; i++) {
		q = strlen(f[i].open);
		if (!form_on(o, &f[i]) || o->n - p < q ||
		    memcmp(o->s + p, f[i].open, q) != 0)
			continue;
		if ((f[i].flags & TCD_F_START) && (p != o->first || o->answer))
			continue;
		if ((f[i].flags & TCD_F_LIST) && (f[i].flags & TCD_F_START)) {
			/* "[" only where a list of calls stands */
			pylit_scan_init(&sc, 0);
			if (pylit_calls_begin(&sc, o->s + p, o->n - p, &yes) ==
			    PYLIT_DONE && yes)
				return &f[i];
			continue;
		}
		q = p + strlen(f[i].open);
		while (q < o->n && strchr(" \t\r\n", o->s[q]) != NULL)
			q++;
		if (f[i].peek != NULL && o->n - q >= strlen(f[i].peek) &&
		    memcmp(o->s + q, f[i].peek, strlen(f[i].peek)) == 0)
			return &f[i];
		if (f[i].flags & TCD_F_PEEK)
			continue;
		if (f[i].peek == NULL && def == NULL)
			def = &f[i];
		if (any == NULL)
			any = &f[i];
	}
	/* one dialect read: its form, whatever follows */
	return def != NULL ? def : any;
}

/*
 * The first of the marks (NULL-terminated) from p on, outside JSON
 * strings with strings: its offset, and in *len its length; or NONE.
 */
static size_t
mark_from(const struct out *o, size_t p, const char *const *marks,
    int strings, size_t *len)
{
	int str = 0, esc = 0;
	size_t i;

	for (; p < o->n; p++) {
		if (strings && (esc || str)) {
			if (esc)
				esc = 0;
			else if (o->s[p] == '\\')
				esc = 1;
			else if (o->s[p] == '"')
				str = 0;
			continue;
		}
		if (strings && o->s[p] == '"') {
			str = 1;
			continue;
		}
		for (i = 0; marks[i] != NULL; i++) {
			*len = strlen(marks[i]);
			if (o->n - p >= *len && memcmp(o->s + p, marks[i],
			    *len) == 0)
				return p;
		}
	}
	return (size_t)-1;
}

/* A JSON value from p: its end, or NONE. */
static size_t
json_from(const struct out *o, size_t p)
{
	struct tcd_jscan js;
	size_t e;

	memset(&js, 0, sizeof(js));
	e = tcd_jscan(&js, o->s + p, o->n - p);
	return e == (size_t)-1 ? e : p + e;
}

/* A harmony message at p: its end. */
static size_t
out_message(struct out *o, const struct tcd_form *f, size_t p)
{
	const char *ends[] = { "<|message|>", NULL };
	struct tcd_head h;
	size_t e, len;

	if (mark_from(o, p, ends, 0, &len) == (size_t)-1) {
		ev_error(o, p, "truncated: input ended before <|message|>");
		return o->n;
	}
	if (tcd_harmony_head(o->s + p, o->n - p, &h) != 0) {
		ev_error(o, p + h.erroff, h.err);
		e = mark_from(o, p, f->close, 0, &len);
		return e == (size_t)-1 ? o->n : e + len;
	}
	if (h.call) {
		if ((e = mark_from(o, p + h.body, f->close, 1, &len)) !=
		    (size_t)-1) {
			ev_call(o, f->dialect, p, e + len, 0);
			return e + len;
		}
		ev_cut_call(o, f, p);
		return o->n;
	}
	e = mark_from(o, p + h.body, f->close, 0, &len);
	ev_text(o, h.channel == TCD_CH_ANALYSIS || h.tolen > 0 ?
	    "reasoning" : "text", p + h.body, e == (size_t)-1 ? o->n : e);
	return e == (size_t)-1 ? o->n : e + len;
}

/* A call of form f at p: its end. */
static size_t
out_call(struct out *o, const struct tcd_form *f, size_t p)
{
	const char *after[] = { f->after, NULL };
	size_t from = p + strlen(f->open), e, len;

	if (f->flags & TCD_F_HEAD)
		return out_message(o, f, p);
	if (f->close[0] == NULL) {
		/* it ends with its JSON, from its first "{" */
		while (from < o->n && o->s[from] != '{')
			from++;
		if (from == o->n || (e = json_from(o, from)) == (size_t)-1) {
			ev_error(o, p, "truncated: input ended in the call");
			return o->n;
		}
		ev_call(o, f->dialect, p, e, 0);
		return e;
	}
	if (f->after != NULL) {
		if ((e = mark_from(o, from, after, 0, &len)) == (size_t)-1)
			goto cut;
		from = e + len;
	}
	if ((e = mark_from(o, from, f->close, f->flags & TCD_F_STRINGS,
	    &len)) != (size_t)-1) {
		ev_call(o, f->dialect, p, e + len, 0);
		return e + len;
	}
cut:
	ev_cut_call(o, f, p);
	return o->n;
}

/* The end of the pythonic list at p, just past its "]", or NONE. */
static size_t
list_from(const struct out *o, size_t p)
{
	struct pylit_scan sc;

	pylit_scan_init(&sc, 0);
	if (pylit_scan(&sc, o->s + p, o->n - p) != PYLIT_DONE)
		return (size_t)-1;
	return p + sc.off;
}

/* The pythonic list [a, b): an event for each call, or its error. */
static void
ev_list(struct out *o, size_t a, size_t b)
{
	static const char pre[] = "invalid pythonic call: ";
	struct pylit_call *calls;
	struct pylit_error err;
	const char *text;
	size_t end, n, i;

	if (pylit_calls(o->s + a, b - a, 0, &end, &calls, &n, &err) != 0) {
		text = err.text;
		if (strncmp(text, pre, sizeof(pre) - 1) == 0)
			text += sizeof(pre) - 1;
		ev_error(o, a + err.offset, unit_fmt("malformed pythonic call: "
		    "%s", text));
		return;
	}
	for (i = 0; i < n; i++)
		json_array_append_new(o->ev, json_pack("{s:{s:s%, s:O}}",
		    "call", "name", o->s + a + calls[i].name, calls[i].namelen,
		    "arguments", calls[i].args));
	pylit_calls_free(calls, n);
}

/* A section of form f at p: its end. */
static size_t
out_section(struct out *o, const struct tcd_form *f, size_t p)
{
	const char *open[] = { f->call_open, NULL };
	size_t q, e, len, i, ncalls = 0, last;
	int sawsep = 0;

	q = p;
	if (!(f->flags & TCD_F_FIRST)) {
		q += strlen(f->open);
		if (f->peek != NULL) {
			while (q < o->n && strchr(" \t\r\n", o->s[q]) != NULL)
				q++;
			q += strlen(f->peek);
		}
	}
	for (last = q;;) {
		while (q < o->n && strchr(" \t\r\n", o->s[q]) != NULL)
			q++;
		if (q == o->n) {
			/* no call at all: the section is cut short */
			if (f->cut != NULL && ncalls == 0)
				ev_error(o, p, "truncated: input ended in the "
				    "call");
			else if (f->cut != NULL)
				ev_cut(o, f->cut);
			return q;
		}
		for (i = 0; f->end[i] != NULL; i++)
			if (o->n - q >= strlen(f->end[i]) && memcmp(o->s + q,
			    f->end[i], strlen(f->end[i])) == 0)
				return q + strlen(f->end[i]);
		if (ncalls > 0 && !sawsep && f->sep != 0 && o->s[q] == f->sep) {
			sawsep = 1;
			q++;
			continue;
		}
		if (f->call_open != NULL ? mark_from(o, q, open, 0, &len) != q :
		    o->s[q] != (f->flags & TCD_F_LIST ? '[' : '{')) {
			/* prose again, from the end of the last call */
			if (f->flags & TCD_F_OPENEND)
				return last;
			ev_error(o, q, "text in a section of calls");
			return q;
		}
		if (ncalls > 0 && !sawsep && (f->flags & TCD_F_NEEDSEP)) {
			ev_error(o, q, "two calls without their separator");
			return q;
		}
		if (f->call_open != NULL)
			e = mark_from(o, q + len, f->close,
			    f->flags & TCD_F_STRINGS, &len);
		else {
			e = f->flags & TCD_F_LIST ? list_from(o, q) :
			    json_from(o, q);
			len = 0;
		}
		if (e == (size_t)-1) {
			ev_error(o, q, "truncated: input ended in the call");
			return o->n;
		}
		if (ncalls == 0 && (f->flags & TCD_F_START) &&
		    tcd_is_answer(f->dialect, o->s + q, e - q)) {
			/* an answer in JSON: prose, read again as such */
			o->answer = 1;
			return p;
		}
		if (f->flags & TCD_F_LIST)
			ev_list(o, q, e);
		else
			ev_call(o, f->dialect, q, e + len, 0);
		q = last = e + len;
		ncalls++;
		sawsep = 0;
		/* a list that opens the output is all there is */
		if ((f->flags & TCD_F_LIST) && (f->flags & TCD_F_FIRST))
			return q;
	}
}

static json_t *
read_output(const char *s, size_t n, int d)
{
	const struct tcd_form *f = NULL;
	struct out o;
	size_t pos = 0, p;

	o.s = s;
	o.n = n;
	o.d = d;
	o.answer = 0;
	o.ev = json_array();
	for (o.first = 0; o.first < n && strchr(" \t\r\n", s[o.first]) !=
	    NULL; o.first++)
		;
	while (pos < n) {
		for (p = pos; p < n && (f = form_at(&o, p)) == NULL; p++)
			;
		ev_text(&o, "text", pos, p);
		if (p == n)
			break;
		if (f->flags & TCD_F_SECTION)
			pos = out_section(&o, f, p);
		else
			pos = out_call(&o, f, p);
	}
	return o.ev;
}

/* Every DIALECT-CASE.out, read as its .calls says. */
static void
test_outputs(void)
{
	json_error_t e;
	json_t *want, *got;
	glob_t g;
	char *s, *a, *b, path[4096];
	size_t i, n, len;
	int d;

	if (glob(DIR "/*.out", 0, NULL, &g) != 0)
		unit_bail("glob " DIR "/*.out");
	for (i = 0; i < g.gl_pathc; i++) {
		d = dialect_of(g.gl_pathv[i]);
		s = unit_fixture(g.gl_pathv[i], &n);
		len = strlen(g.gl_pathv[i]);
		snprintf(path, sizeof(path), "%.*s.calls", (int)(len - 4),
		    g.gl_pathv[i]);
		if ((want = json_load_file(path, 0, &e)) == NULL)
			unit_bail(path);
		got = read_output(s, n, d);
		a = json_dumps(got, JSON_COMPACT);
		b = json_dumps(want, JSON_COMPACT);
		unit_str(a, b, g.gl_pathv[i]);
		free(a);
		free(b);
		json_decref(got);
		json_decref(want);
		free(s);
	}
	unit_ok(g.gl_pathc >= 20, unit_fmt("%zu outputs in " DIR,
	    g.gl_pathc));
	globfree(&g);
}

/*
 * qwen3 with the tool's parameters known (path and content): where a
 * value ends, as tcd_parse_params reads a call's whole text and as
 * tcd_qscan finds it when the bytes come one at a time.
 */
static const char *const qparams[] = { "path", "content" };
static size_t qlens[] = { 4, 7 };
static const struct tcd_params qpp = { (const char **)qparams, qlens, 2, 7 };

static char *
render_params(const char *s, size_t n)
{
	struct tcd_call c;
	json_t *j, *args;
	size_t i;
	char *out;

	if (tcd_parse_params(TCD_QWEN3, s, n, 0, &qpp, &c) != 0)
		j = json_pack("{s:s, s:I}", "error", c.err, "offset",
		    (json_int_t)c.erroff);
	else {
		args = json_array();
		for (i = 0; i < c.nargs; i++)
			json_array_append_new(args, json_pack("[s%s%]",
			    s + c.args[i].key, c.args[i].keylen,
			    s + c.args[i].val, c.args[i].vallen));
		j = json_pack("{s:s%, s:o}", "name", s + c.name, c.namelen,
		    "args", args);
	}
	tcd_call_free(&c);
	out = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	return out;
}

/* The events of tcd_qscan over s, fed whole (step 0) or a byte more at
 * a time: "A key=value" per value, "E offset" at the end, "O", "M". */
static void
qscan_events(const char *s, size_t n, int step, struct buf *b)
{
	struct tcd_qscan q;
	size_t m, fe;
	int r;

	memset(&q, 0, sizeof(q));
	q.pp = &qpp;
	q.p = (size_t)(strchr(strstr(s, "<function="), '>') - s) + 1;
	m = step ? q.p : n;
	for (;;) {
		r = tcd_qscan(&q, s, m, m == n);
		if (r == TCDQ_ARG) {
			buf_printf(b, "A %.*s=%.*s|", (int)q.keylen, s + q.key,
			    (int)(q.vend - q.val), s + q.val);
			continue;
		}
		if (r == TCDQ_MORE && m < n) {
			m++;
			continue;
		}
		fe = q.fend;
		buf_printf(b, r == TCDQ_END ? "E %zu" : r == TCDQ_OTHER ?
		    "O" : "M", fe);
		return;
	}
}

static void
test_qwen3_params(void)
{
	static const char *const cases[][2] = {
		{ "<function=w><parameter=path>a</parameter>"
		  "<parameter=content>b</parameter></function>",
		  "{\"name\":\"w\",\"args\":[[\"path\",\"a\"],"
		  "[\"content\",\"b\"]]}" },
		/* </parameter> and text: the value's */
		{ "<function=w><parameter=content>x</parameter>y"
		  "</parameter></function>",
		  "{\"name\":\"w\",\"args\":[[\"content\",\"x</parameter>y\"]]}" },
		/* <parameter=x>, x no parameter: text */
		{ "<function=w><parameter=content>\n<parameter=x>1</parameter>"
		  "\n</parameter>\n</function>",
		  "{\"name\":\"w\",\"args\":[[\"content\","
		  "\"<parameter=x>1</parameter>\"]]}" },
		/* </function> not after </parameter>: text */
		{ "<tool_call><function=w><parameter=content>a</function>b"
		  "</parameter></function></tool_call>",
		  "{\"name\":\"w\",\"args\":[[\"content\",\"a</function>b\"]]}" },
		/* a call inside, its </parameter></function> its own */
		{ "<function=w><parameter=content><function=g><parameter=path>"
		  "p</parameter></function></parameter></function>",
		  "{\"name\":\"w\",\"args\":[[\"content\",\"<function=g>"
		  "<parameter=path>p</parameter></function>\"]]}" },
		/* "<function=" in code opens nothing */
		{ "<function=w><parameter=content>f(\"<function=\")"
		  "</parameter></function>",
		  "{\"name\":\"w\",\"args\":[[\"content\","
		  "\"f(\\\"<function=\\\")\"]]}" },
		/* a </parameter> left out before a parameter */
		{ "<function=w><parameter=path>a<parameter=content>b"
		  "</parameter></function>",
		  "{\"name\":\"w\",\"args\":[[\"path\",\"a\"],"
		  "[\"content\",\"b\"]]}" },
		/* a parameter's tag with white space in it: text */
		{ "<function=w><parameter=path>a</parameter><parameter= content>"
		  "b</parameter></function>",
		  "{\"name\":\"w\",\"args\":[[\"path\","
		  "\"a</parameter><parameter= content>b\"]]}" },
		/* no parameter */
		{ "<function=w>\n</function>", "{\"name\":\"w\",\"args\":[]}" },
		/* no boundary: no end */
		{ "<function=w><parameter=path>a</function>",
		  "{\"error\":\"malformed qwen3 call: <function=NAME> has no "
		  "</function>\",\"offset\":0}" },
		/* the opening alone in a value holds the call open */
		{ "<function=w><parameter=path><function=g></parameter>"
		  "</function>",
		  "{\"error\":\"malformed qwen3 call: <function=NAME> has no "
		  "</function>\",\"offset\":0}" },
		/* today's rule where the first tag is not a parameter's */
		{ "<function=w>x<parameter=path>a</parameter></function>",
		  "{\"error\":\"malformed qwen3 call: text outside a "
		  "parameter\",\"offset\":12}" },
		{ "<function=w><parameter=>a</parameter></function>",
		  "{\"error\":\"malformed qwen3 call: <parameter=> has no "
		  "name\",\"offset\":12}" },
		/* after </function>, as ever */
		{ "<function=w></function>x",
		  "{\"error\":\"malformed qwen3 call: text after </function>\","
		  "\"offset\":23}" },
	};
	struct buf a = BUF_INIT, b = BUF_INIT;
	size_t i, n, name, len;
	char *got;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		n = strlen(cases[i][0]);
		got = render_params(cases[i][0], n);
		unit_str(got, cases[i][1], unit_fmt("qwen3 with parameters, "
		    "case %zu", i));
		free(got);
		buf_reset(&a);
		buf_reset(&b);
		qscan_events(cases[i][0], n, 0, &a);
		qscan_events(cases[i][0], n, 1, &b);
		unit_str(buf_cstr(&b), buf_cstr(&a), unit_fmt("qwen3 with "
		    "parameters, case %zu: the same a byte at a time", i));
	}
	unit_ok(tcd_qwen3_head(LIT0(" <tool_call>\n<function= w >"), &name,
	    &len) && name == 24 && len == 1, "qwen3 head: wrapped");
	unit_ok(tcd_qwen3_head(LIT0("<seed:tool_call><function=w>"), &name,
	    &len) && name == 26, "qwen3 head: seed's wrapper");
	unit_ok(!tcd_qwen3_head(LIT0("<function=a<b>"), &name, &len),
	    "qwen3 head: a name holding < is none");
	unit_ok(!tcd_qwen3_head(LIT0("<function=>"), &name, &len),
	    "qwen3 head: no name");
	unit_ok(!tcd_qwen3_head(LIT0("<function=w>>"), &name, &len),
	    "qwen3 head: the > not the last byte");
	buf_free(&a);
	buf_free(&b);
}

int
main(void)
{
	test_fixtures();
	test_errors();
	test_good();
	test_cut();
	test_head();
	test_jscan();
	test_forms();
	test_outputs();
	test_qwen3_params();
	return unit_done();
}
