/*
 * Unit tests of lib/toolcall: exact output bytes, diagnostics and status
 * for calls, type inference, CDATA layout, repeated siblings, the events
 * mode's text records and every kind of error; a failed write; and the
 * streaming promise: output, diagnostics and status are the same whether
 * an input is fed whole, a byte at a time or in pieces of random sizes,
 * in default, events and strict mode, and with the tools of
 * tools-nested.json (typed and validated, plainly and as thread events),
 * for a built-in list of inputs and for every t/data/toolcall-parse/
 * *.txt (one file each). Reasoning is never read for calls: in blocks,
 * before a lone closing marker, under each --begins-in-reasoning and
 * --reasoning, fed in pieces of every size and cut at every byte, and
 * once the stream has told, each call comes out with its last byte.
 * The thread's message events; values as models write them (Python
 * literals, JSON inside strings) typed alike from an element, a hermes
 * call and an OpenAI response; and --format openai, every response of
 * t/data/toolcall-parse/openai fed in pieces of every size.
 */
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "toolcall/tcdialect.h"
#include "toolcall/toolcall.h"
#include "toolcall/tooldefs.h"
#include "unit.h"

/* The name every run gives its input, as diagnostics show it. */
#define FILE_NAME	"t.txt"

/* What one run gave: output, stderr, status, and whether a write failed. */
struct run {
	char	*out;
	size_t	 outlen;
	char	*err;
	int	 status;
	int	 failed;	/* a feed or the end returned other than 0 */
	unsigned long long work;	/* toolcall_work at the end */
	unsigned long long scanned;	/* toolcall_scanned at the end */
};

/* How a run cuts its input into pieces for toolcall_feed. */
enum {
	FEED_WHOLE,
	FEED_BYTES,
	FEED_READS,		/* 64 KiB, as toolcall-parse reads */
	FEED_RANDOM		/* FEED_RANDOM + k: random sizes, seed k */
};
#define FEED_SEEDS	5
#define FEED_SIZE	1000		/* FEED_SIZE + k: pieces of k bytes */
#define FEED_CUT	1000000		/* FEED_CUT + i: two, cut at byte i */
#define READ_SIZE	65536

static struct toolcall_opts
opts(int events, int strict, size_t max_size)
{
	struct toolcall_opts o;

	memset(&o, 0, sizeof(o));
	o.events = events;
	o.strict = strict;
	o.unbuffered = 0;
	o.max_size = max_size != 0 ? max_size : TOOLCALL_MAX_SIZE;
	return o;
}

static uint32_t
xorshift(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/*
 * The size of the next piece: all that is left, one byte, or a random
 * size whose range depends on the seed (seed 4 feeds empty pieces too).
 */
static size_t
piece(int how, uint32_t *state, size_t left)
{
	static const size_t range[FEED_SEEDS] = { 3, 17, 131, 4099, 9 };
	size_t n;

	if (how >= FEED_CUT) {
		/* the state holds the first piece's size, then no more */
		n = *state;
		*state = UINT32_MAX;
		return n < left ? n : left;
	}
	if (how >= FEED_SIZE)
		return (size_t)(how - FEED_SIZE) < left ?
		    (size_t)(how - FEED_SIZE) : left;
	if (how == FEED_WHOLE)
		return left;
	if (how == FEED_BYTES)
		return left < 1 ? left : 1;
	if (how == FEED_READS)
		return left < READ_SIZE ? left : READ_SIZE;
	n = xorshift(state) % range[how - FEED_RANDOM];
	if (how - FEED_RANDOM != 4)
		n++;
	return n < left ? n : left;
}

static void
run_free(struct run *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

/* Feeds n bytes of in to a new reader, cut as how says. */
static void
run(const struct toolcall_opts *o, const char *in, size_t n, int how,
    struct run *r)
{
	struct toolcall *t;
	uint32_t state = how >= FEED_CUT ? (uint32_t)(how - FEED_CUT) :
	    2463534242u + (uint32_t)how * 7919u;
	size_t at = 0, k;
	FILE *f;

	memset(r, 0, sizeof(*r));
	if ((f = open_memstream(&r->out, &r->outlen)) == NULL)
		unit_bail("open_memstream");
	unit_capture_begin();
	if ((t = toolcall_new(o, f, FILE_NAME)) == NULL)
		unit_bail("toolcall_new");
	do {
		k = piece(how, &state, n - at);
		if (toolcall_feed(t, in + at, k) != 0)
			r->failed = 1;
		at += k;
	} while (at < n);
	if (toolcall_end(t) != 0)
		r->failed = 1;
	r->status = toolcall_status(t);
	r->work = toolcall_work(t);
	r->scanned = toolcall_scanned(t);
	toolcall_free(t);
	if (fclose(f) != 0)
		unit_bail("fclose");
	if ((r->err = strdup(unit_capture_end())) == NULL)
		unit_bail("strdup");
}

static const char *
how_name(int how)
{
	static char s[32];

	if (how == FEED_WHOLE)
		return "whole";
	if (how == FEED_BYTES)
		return "1-byte pieces";
	if (how == FEED_READS)
		return "64 KiB pieces";
	if (how >= FEED_CUT) {
		snprintf(s, sizeof(s), "cut at byte %d", how - FEED_CUT);
		return s;
	}
	if (how >= FEED_SIZE) {
		snprintf(s, sizeof(s), "pieces of %d bytes", how - FEED_SIZE);
		return s;
	}
	snprintf(s, sizeof(s), "random pieces, seed %d", how - FEED_RANDOM);
	return s;
}

/*
 * The exact output, stderr and status of a run, fed whole and a byte at
 * a time.
 */
static void
want_n(const struct toolcall_opts *o, const char *in, size_t n,
    const char *out, const char *err, int status, const char *what)
{
	struct run r;
	int how;

	for (how = FEED_WHOLE; how <= FEED_BYTES; how++) {
		run(o, in, n, how, &r);
		unit_mem(r.out, r.outlen, out, unit_fmt("%s: output (%s)",
		    what, how_name(how)));
		unit_str(r.err, err, unit_fmt("%s: stderr (%s)", what,
		    how_name(how)));
		unit_long(r.status, status, unit_fmt("%s: status (%s)", what,
		    how_name(how)));
		unit_long(r.failed, 0, unit_fmt("%s: feed and end return 0 "
		    "(%s)", what, how_name(how)));
		run_free(&r);
	}
}

static void
want(const struct toolcall_opts *o, const char *in, const char *out,
    const char *err, int status, const char *what)
{
	want_n(o, in, strlen(in), out, err, status, what);
}

/* The JSON line of a call with server "local", tool t and arguments a. */
#define CALL(t, a) \
	"{\"server_name\":\"local\",\"tool_name\":\"" t "\",\"arguments\":" \
	a "}\n"
#define EV_CALL(t, a) \
	"{\"type\":\"tool_call\",\"server_name\":\"local\",\"tool_name\":\"" \
	t "\",\"arguments\":" a "}\n"
#define EV_TEXT(s)	"{\"type\":\"text\",\"text\":\"" s "\"}\n"

static const char seed_read_file[] =
    "<tool>\n"
    "<server_name>local</server_name>\n"
    "<tool_name>read_file</tool_name>\n"
    "<arguments>\n"
    "  <path>src/main.go</path>\n"
    "  <line_start>1</line_start>\n"
    "  <line_end>100</line_end>\n"
    "</arguments>\n"
    "</tool>\n";

static const char seed_write_file[] =
    "<tool>\n"
    "<server_name>local</server_name>\n"
    "<tool_name>write_to_file</tool_name>\n"
    "<arguments>\n"
    "  <path>src/main.go</path>\n"
    "  <content><![CDATA[package main\n"
    "\n"
    "import \"fmt\"\n"
    "\n"
    "func main() {\n"
    "\tfmt.Println(\"No escaping needed!\")\n"
    "\t// Any code with \"quotes\", 'apostrophes', backslashes\\, etc.\n"
    "}]]></content>\n"
    "</arguments>\n"
    "</tool>\n";

static const char seed_apply_diff[] =
    "<tool>\n"
    "<server_name>local</server_name>\n"
    "<tool_name>apply_diff</tool_name>\n"
    "<arguments>\n"
    "  <path>src/app.ts</path>\n"
    "  <edits>\n"
    "    <edit>\n"
    "      <search><![CDATA[const oldConfig = {\n"
    "\tapi: \"http://old.com\",\n"
    "\tkey: \"old_key\"\n"
    "};]]></search>\n"
    "      <replace><![CDATA[const newConfig = {\n"
    "\tapi: \"https://new.com\",\n"
    "\tkey: \"new_key\",\n"
    "\tverbose: true\n"
    "};]]></replace>\n"
    "    </edit>\n"
    "    <edit>\n"
    "      <search><![CDATA[function process(data) {\n"
    "\treturn data.map(x => x * 2);\n"
    "}]]></search>\n"
    "      <replace><![CDATA[function process(data) {\n"
    "\treturn data\n"
    "\t\t.filter(x => x > 0)\n"
    "\t\t.map(x => x * 2);\n"
    "}]]></replace>\n"
    "    </edit>\n"
    "  </edits>\n"
    "</arguments>\n"
    "</tool>\n";

static const char seed_search_files[] =
    "<tool>\n"
    "<server_name>local</server_name>\n"
    "<tool_name>search_files</tool_name>\n"
    "<arguments>\n"
    "  <path>src</path>\n"
    "  <pattern>\\.ts$</pattern>\n"
    "  <exclude>node_modules</exclude>\n"
    "  <exclude>dist</exclude>\n"
    "  <exclude>.git</exclude>\n"
    "</arguments>\n"
    "</tool>\n";

static const char seed_types[] =
    "<tool>\n"
    "<server_name>local</server_name>\n"
    "<tool_name>example</tool_name>\n"
    "<arguments>\n"
    "  <name>test</name>              <!-- string -->\n"
    "  <count>42</count>              <!-- int -->\n"
    "  <ratio>3.14</ratio>            <!-- float64 -->\n"
    "  <enabled>true</enabled>        <!-- bool -->\n"
    "  <disabled>false</disabled>     <!-- bool -->\n"
    "  <optional>null</optional>      <!-- nil -->\n"
    "</arguments>\n"
    "</tool>\n";

static const char seed_pattern[] =
    "<tool>\n"
    "<server_name>local</server_name>\n"
    "<tool_name>search_files</tool_name>\n"
    "<arguments>\n"
    "  <path>src</path>\n"
    "  <pattern><![CDATA[func.*\\(.*\\)]]></pattern>\n"
    "  <file_pattern>*.go</file_pattern>\n"
    "</arguments>\n"
    "</tool>\n";

static void
test_seed(void)
{
	struct toolcall_opts o = opts(0, 0, 0);

	want(&o, seed_read_file,
	    CALL("read_file", "{\"path\":\"src/main.go\",\"line_start\":1,"
	    "\"line_end\":100}"), "", DIAG_OK, "the seed's read_file");
	want(&o, seed_write_file,
	    CALL("write_to_file", "{\"path\":\"src/main.go\",\"content\":"
	    "\"package main\\n\\nimport \\\"fmt\\\"\\n\\nfunc main() {\\n"
	    "\\tfmt.Println(\\\"No escaping needed!\\\")\\n\\t// Any code "
	    "with \\\"quotes\\\", 'apostrophes', backslashes\\\\, etc.\\n}\"}"),
	    "", DIAG_OK, "the seed's write_to_file");
	want(&o, seed_apply_diff,
	    CALL("apply_diff", "{\"path\":\"src/app.ts\",\"edits\":{\"edit\":["
	    "{\"search\":\"const oldConfig = {\\n\\tapi: \\\"http://old.com"
	    "\\\",\\n\\tkey: \\\"old_key\\\"\\n};\",\"replace\":\"const "
	    "newConfig = {\\n\\tapi: \\\"https://new.com\\\",\\n\\tkey: "
	    "\\\"new_key\\\",\\n\\tverbose: true\\n};\"},"
	    "{\"search\":\"function process(data) {\\n\\treturn data.map(x "
	    "=> x * 2);\\n}\",\"replace\":\"function process(data) {\\n\\t"
	    "return data\\n\\t\\t.filter(x => x > 0)\\n\\t\\t.map(x => x * "
	    "2);\\n}\"}]}}"), "", DIAG_OK,
	    "the seed's apply_diff: an array of objects");
	want(&o, seed_search_files,
	    CALL("search_files", "{\"path\":\"src\",\"pattern\":\"\\\\.ts$\","
	    "\"exclude\":[\"node_modules\",\"dist\",\".git\"]}"), "", DIAG_OK,
	    "the seed's array arguments");
	want(&o, seed_types,
	    CALL("example", "{\"name\":\"test\",\"count\":42,\"ratio\":3.14,"
	    "\"enabled\":true,\"disabled\":false,\"optional\":null}"), "",
	    DIAG_OK, "the seed's type inference example");
	want(&o, seed_pattern,
	    CALL("search_files", "{\"path\":\"src\",\"pattern\":"
	    "\"func.*\\\\(.*\\\\)\",\"file_pattern\":\"*.go\"}"), "", DIAG_OK,
	    "the seed's CDATA pattern");
}

static void
test_calls(void)
{
	struct toolcall_opts o = opts(0, 0, 0);

	want(&o, "<tool><tool_name>t</tool_name></tool>",
	    CALL("t", "{}"), "", DIAG_OK, "the smallest call");
	want(&o, "I will read it.\n<tool><tool_name>a</tool_name></tool>\n"
	    "And now:<tool><server_name>mcp</server_name><tool_name>b"
	    "</tool_name><arguments><x>1</x></arguments></tool> done.\n",
	    CALL("a", "{}")
	    "{\"server_name\":\"mcp\",\"tool_name\":\"b\",\"arguments\":"
	    "{\"x\":1}}\n", "", DIAG_OK, "two calls in prose");
	want(&o, "<tool><tool_name>a</tool_name></tool><tool><tool_name>b"
	    "</tool_name></tool>", CALL("a", "{}") CALL("b", "{}"), "",
	    DIAG_OK, "two calls side by side");
	want(&o, "", "", "", DIAG_OK, "empty input");
	want(&o, "just prose, no call\n", "", "", DIAG_OK, "prose only");

	/* server_name */
	want(&o, "<tool><server_name></server_name><tool_name>t</tool_name>"
	    "</tool>", CALL("t", "{}"), "", DIAG_OK,
	    "an empty server_name is local");
	want(&o, "<tool><server_name> \n\t</server_name><tool_name>t"
	    "</tool_name></tool>", CALL("t", "{}"), "", DIAG_OK,
	    "a blank server_name is local");
	want(&o, "<tool><server_name/><tool_name>t</tool_name></tool>",
	    CALL("t", "{}"), "", DIAG_OK, "<server_name/> is local");
	want(&o, "<tool><tool_name>t</tool_name><server_name>1</server_name>"
	    "</tool>", "{\"server_name\":\"1\",\"tool_name\":\"t\","
	    "\"arguments\":{}}\n", "", DIAG_OK,
	    "server_name is never typed, whatever its place");
	want(&o, "<tool><server_name>\n  github\n</server_name><tool_name>\n"
	    "  42\n</tool_name></tool>", "{\"server_name\":\"github\","
	    "\"tool_name\":\"42\",\"arguments\":{}}\n", "", DIAG_OK,
	    "server_name and tool_name are trimmed, tool_name never typed");

	/* arguments */
	want(&o, "<tool><tool_name>t</tool_name><arguments/></tool>",
	    CALL("t", "{}"), "", DIAG_OK, "<arguments/> is {}");
	want(&o, "<tool><tool_name>t</tool_name><arguments>\n  \n"
	    "</arguments></tool>", CALL("t", "{}"), "", DIAG_OK,
	    "blank arguments are {}");
	want(&o, "<tool>\n<tool_name>t</tool_name>\n<arguments>\n"
	    "<a>1</a><b>2</b><a>3</a>\n</arguments>\n</tool>",
	    CALL("t", "{\"a\":[1,3],\"b\":2}"), "", DIAG_OK,
	    "repeated siblings become an array at the first one's place");
	want(&o, "<tool><tool_name>t</tool_name><arguments><x>a</x><x>b</x>"
	    "<x>c</x><y>1</y></arguments></tool>",
	    CALL("t", "{\"x\":[\"a\",\"b\",\"c\"],\"y\":1}"), "", DIAG_OK,
	    "three siblings, one array");
	want(&o, "<tool><tool_name>m</tool_name><arguments><matrix>\n"
	    " <row><c>1</c><c>2</c></row>\n <row><c>3</c></row>\n"
	    " <row><c/><c><d>x</d></c></row>\n</matrix></arguments></tool>",
	    CALL("m", "{\"matrix\":{\"row\":[{\"c\":[1,2]},{\"c\":3},"
	    "{\"c\":[\"\",{\"d\":\"x\"}]}]}}"), "", DIAG_OK,
	    "nested arrays and objects");
	want(&o, "<tool><tool_name>t</tool_name><arguments><o><p><q>deep</q>"
	    "</p></o></arguments></tool>",
	    CALL("t", "{\"o\":{\"p\":{\"q\":\"deep\"}}}"), "", DIAG_OK,
	    "nested objects");
	want(&o, "<tool><tool_name>t</tool_name><arguments><a mode=\"x\" "
	    "n='1'>v</a><b k=\"&amp;\"/></arguments></tool>",
	    CALL("t", "{\"a\":\"v\",\"b\":\"\"}"), "", DIAG_OK,
	    "attributes are ignored");
	want(&o, "<tool><tool_name>t</tool_name><arguments><tool>inner</tool>"
	    "<n>1</n></arguments></tool>",
	    CALL("t", "{\"tool\":\"inner\",\"n\":1}"), "", DIAG_OK,
	    "a <tool> inside arguments is an argument");
	want(&o, "<tool><?pi data?><tool_name>t<!-- c --></tool_name>"
	    "<!-- </tool> --><arguments><a>x<!-- y -->z<?p q?></a>"
	    "</arguments></tool>", CALL("t", "{\"a\":\"xz\"}"), "", DIAG_OK,
	    "comments and processing instructions are ignored");
	want(&o, "<tool><tool_name>t</tool_name><arguments><c><![CDATA["
	    "<tool>x</tool>]]></c><e>&lt;/tool&gt;</e></arguments></tool>",
	    CALL("t", "{\"c\":\"<tool>x</tool>\",\"e\":\"</tool>\"}"), "",
	    DIAG_OK, "tags in CDATA and escaped are content");
	want(&o, "<tool><tool_name>t</tool_name><arguments><e>&lt;&gt;&amp;"
	    "&quot;&apos;</e><n>&#233;&#x65E5;&#x1F600;</n></arguments>"
	    "</tool>", CALL("t", "{\"e\":\"<>&\\\"'\",\"n\":\""
	    "\xc3\xa9\xe6\x97\xa5\xf0\x9f\x98\x80\"}"), "", DIAG_OK,
	    "entities and numeric references");
	want(&o, "<tool id=\"1\"><tool_name>a</tool_name></tool>"
	    "<TOOL><tool_name>b</tool_name></TOOL>"
	    "<tool ><tool_name>c</tool_name></tool>"
	    "<tool/><tools><tool_name>d</tool_name></tools>", "", "",
	    DIAG_OK, "only <tool> exactly opens a call");
	want(&o, "```xml\n<tool><tool_name>f</tool_name></tool>\n```\n",
	    CALL("f", "{}"), "", DIAG_OK, "a call in a code fence");
	want(&o, "\xef\xbb\xbf<tool><tool_name>b</tool_name></tool>",
	    CALL("b", "{}"), "", DIAG_OK, "a byte order mark is skipped");
	want(&o, "<<tool><tool_name>l</tool_name></tool>>",
	    CALL("l", "{}"), "", DIAG_OK, "a call between stray angles");
	want(&o, "<tool\n<tool><tool_name>p</tool_name></tool>",
	    CALL("p", "{}"), "", DIAG_OK, "a call after a cut tag");
}

/* One row of the type inference table: the text and its JSON. */
struct row {
	const char	*xml;
	const char	*json;
};

static const struct row rows[] = {
	{ "true", "true" }, { "TRUE", "true" }, { "True", "true" },
	{ "false", "false" }, { "FALSE", "false" }, { "FaLsE", "false" },
	{ "null", "null" }, { "NULL", "null" }, { "Null", "null" },
	{ "007", "7" }, { "+5", "5" }, { "-0", "0" }, { "42", "42" },
	{ "-17", "-17" },
	{ "9223372036854775807", "9223372036854775807" },
	{ "-9223372036854775808", "-9223372036854775808" },
	{ "00000000000000000000001", "1" },
	{ "9007199254740993", "9007199254740993" },
	{ "3.14", "3.14" }, { ".5", "0.5" }, { "+.5", "0.5" }, { "42.", "42" },
	{ "1e21", "1e+21" }, { "1e20", "100000000000000000000" },
	{ "1E-7", "1e-7" }, { "0.000001", "0.000001" }, { "1e-5", "0.00001" },
	{ "1.23e10", "12300000000" }, { "-0.0", "0" }, { "2.50", "2.5" },
	{ "1E+2", "100" }, { "-.5e-3", "-0.0005" }, { "0.1", "0.1" },
	{ "0.30000000000000004", "0.30000000000000004" },
	{ "9007199254740993.0", "9007199254740992" },
	{ "1.7976931348623157e308", "1.7976931348623157e+308" },
	{ "123e-20", "1.23e-18" }, { "1.5e300", "1.5e+300" },
	{ "5e-324", "5e-324" }, { "0e-400", "0" }, { "0.0", "0" },
	{ "  42  ", "42" }, { "\n\t 3.5 \n", "3.5" }, { "&#49;", "1" },
	{ "&#x31;&#x30;", "10" }, { "&#32;7&#32;", "7" },
	{ "\"true\"", "\"\\\"true\\\"\"" }, { "0x1F", "\"0x1F\"" },
	{ "1e400", "\"1e400\"" }, { "-1e400", "\"-1e400\"" },
	{ "1e-400", "\"1e-400\"" }, { "NaN", "\"NaN\"" }, { "Inf", "\"Inf\"" },
	{ "+Inf", "\"+Inf\"" }, { "-Infinity", "\"-Infinity\"" },
	{ "9223372036854775808", "\"9223372036854775808\"" },
	{ "-9223372036854775809", "\"-9223372036854775809\"" },
	{ "123456789012345678901234567890",
	    "\"123456789012345678901234567890\"" },
	{ "1_000", "\"1_000\"" }, { "1,5", "\"1,5\"" }, { ".", "\".\"" },
	{ "5e", "\"5e\"" }, { "e5", "\"e5\"" }, { ".e5", "\".e5\"" },
	{ "+-5", "\"+-5\"" }, { "- 5", "\"- 5\"" }, { "1.2.3", "\"1.2.3\"" },
	{ "truex", "\"truex\"" }, { "yes", "\"yes\"" },
	{ " 1 2 ", "\"1 2\"" }, { "", "\"\"" }, { "   ", "\"\"" },
	{ "./src/main.go", "\"./src/main.go\"" },
};

static void
test_types(void)
{
	struct toolcall_opts o = opts(0, 0, 0);
	struct buf in = BUF_INIT, out = BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		buf_reset(&in);
		buf_reset(&out);
		buf_printf(&in, "<tool><tool_name>t</tool_name><arguments>"
		    "<v>%s</v></arguments></tool>", rows[i].xml);
		buf_printf(&out, CALL("t", "{\"v\":%s}"), rows[i].json);
		want(&o, buf_cstr(&in), buf_cstr(&out), "", DIAG_OK,
		    unit_fmt("typing <v>%s</v>", rows[i].xml));
	}
	want(&o, "<tool><tool_name>t</tool_name><arguments><a/><b></b>"
	    "<c>true</c><c>1</c><c><![CDATA[true]]></c><c><![CDATA[1]]></c>"
	    "</arguments></tool>", CALL("t", "{\"a\":\"\",\"b\":\"\","
	    "\"c\":[true,1,\"true\",\"1\"]}"), "", DIAG_OK,
	    "empty elements and CDATA are strings");
	buf_free(&in);
	buf_free(&out);
}

static void
test_cdata(void)
{
	struct toolcall_opts o = opts(0, 0, 0);

	want(&o, "<tool><tool_name>w</tool_name><arguments><content>\n"
	    "  <![CDATA[x]]>\n</content></arguments></tool>",
	    CALL("w", "{\"content\":\"x\"}"), "", DIAG_OK,
	    "CDATA between blank lines: the CDATA alone");
	want(&o, "<tool><tool_name>w</tool_name><arguments><c><![CDATA["
	    "]]]]><![CDATA[>]]></c></arguments></tool>",
	    CALL("w", "{\"c\":\"]]>\"}"), "", DIAG_OK, "a split ]]>");
	want(&o, "<tool><tool_name>w</tool_name><arguments><content><![CDATA["
	    "XML example: ]]]]><![CDATA[> is CDATA end marker]]></content>"
	    "</arguments></tool>", CALL("w", "{\"content\":\"XML example: ]]> "
	    "is CDATA end marker\"}"), "", DIAG_OK, "the seed's split ]]>");
	want(&o, "<tool><tool_name>w</tool_name><arguments><c>\n"
	    "<![CDATA[a]]>\n<!-- k -->\n<![CDATA[b]]>\n</c></arguments></tool>",
	    CALL("w", "{\"c\":\"ab\"}"), "", DIAG_OK,
	    "CDATA sections joined, blank text and comments dropped");
	want(&o, "<tool><tool_name>w</tool_name><arguments><c> <![CDATA[ 1 ]]>"
	    " </c></arguments></tool>", CALL("w", "{\"c\":\" 1 \"}"), "",
	    DIAG_OK, "CDATA is never trimmed nor typed");
	want(&o, "<tool><tool_name>w</tool_name><arguments><c>a <![CDATA[<b>]]>"
	    " c\n</c></arguments></tool>", CALL("w", "{\"c\":\"a <b> c\\n\"}"),
	    "", DIAG_OK, "CDATA and text: all of it as written");
	want(&o, "<tool><tool_name>w</tool_name><arguments><c>&lt;"
	    "<![CDATA[x]]></c></arguments></tool>", CALL("w", "{\"c\":\"<x\"}"),
	    "", DIAG_OK, "an entity makes text that is not blank");
	want(&o, "<tool><tool_name>w</tool_name><arguments><c><![CDATA[]]>"
	    "</c></arguments></tool>", CALL("w", "{\"c\":\"\"}"), "", DIAG_OK,
	    "an empty CDATA section");
	want(&o, "<tool><tool_name>w</tool_name><arguments><c><![CDATA[a\r\nb\r"
	    "c]]></c></arguments></tool>", CALL("w", "{\"c\":\"a\\nb\\nc\"}"),
	    "", DIAG_OK, "line ends in CDATA are normalized as XML says");
	want(&o, "<tool><tool_name>w</tool_name><arguments><c><![CDATA["
	    "\"q\" \\ / ]]>&#9;&#13;\x7f\xe2\x80\xa8\xc3\xa9</c></arguments>"
	    "</tool>",
	    CALL("w", "{\"c\":\"\\\"q\\\" \\\\ / \\t\\r\x7f\xe2\x80\xa8"
	    "\xc3\xa9\"}"), "", DIAG_OK, "JSON string escapes");
}

/* A big CDATA body, and the JSON string it must become. */
static void
test_big_cdata(void)
{
	struct toolcall_opts o = opts(0, 0, 0);
	static const char alphabet[] = "abc \"\\\t\n<>&]xyz\xc3\xa9";
	struct buf in = BUF_INIT, out = BUF_INIT;
	uint32_t state = 12345;
	size_t i;
	char c;

	buf_adds(&in, "<tool><tool_name>w</tool_name><arguments><content>"
	    "<![CDATA[");
	buf_adds(&out, "{\"server_name\":\"local\",\"tool_name\":\"w\","
	    "\"arguments\":{\"content\":\"");
	for (i = 0; i < 300000; i++) {
		/* the alphabet without its last character, é */
		c = alphabet[xorshift(&state) % (sizeof(alphabet) - 3)];
		if (i % 1000 == 999) {
			buf_adds(&in, "\xc3\xa9");
			buf_adds(&out, "\xc3\xa9");
		}
		switch (c) {
		case ']':	/* always as "]]>", split as it must be */
			buf_adds(&in, "]]]]><![CDATA[>");
			buf_adds(&out, "]]>");
			continue;
		case '"':
			buf_adds(&out, "\\\"");
			break;
		case '\\':
			buf_adds(&out, "\\\\");
			break;
		case '\t':
			buf_adds(&out, "\\t");
			break;
		case '\n':
			buf_adds(&out, "\\n");
			break;
		default:
			buf_addc(&out, c);
		}
		buf_addc(&in, c);
	}
	buf_adds(&in, "]]></content></arguments></tool>\n");
	buf_adds(&out, "\"}}\n");
	want_n(&o, in.data, in.len, buf_cstr(&out), "", DIAG_OK,
	    "a 300 KB CDATA body, byte for byte");
	buf_free(&in);
	buf_free(&out);
}

static void
test_events(void)
{
	struct toolcall_opts o = opts(1, 0, 0);

	want(&o, "Hi \xc3\xa9\nsecond line<tool><tool_name>t</tool_name>"
	    "</tool>after\n\n\nend",
	    EV_TEXT("Hi \xc3\xa9\\n") EV_TEXT("second line")
	    EV_CALL("t", "{}") EV_TEXT("after\\n") EV_TEXT("\\n")
	    EV_TEXT("\\n") EV_TEXT("end"), "", DIAG_OK,
	    "events: text cut after each newline, before a call, at the end");
	want(&o, "<tool><tool_name>a</tool_name></tool><tool><tool_name>b"
	    "</tool_name></tool>\n", EV_CALL("a", "{}") EV_CALL("b", "{}")
	    EV_TEXT("\\n"), "", DIAG_OK, "events: no empty text records");
	want(&o, "", "", "", DIAG_OK, "events: nothing for empty input");
	want(&o, "a\r\nb\rc\n", EV_TEXT("a\\r\\n") EV_TEXT("b\\rc\\n"), "",
	    DIAG_OK, "events: prose kept byte for byte, CR included");
	want(&o, "\xef\xbb\xbfHi\n", EV_TEXT("Hi\\n"), "", DIAG_OK,
	    "events: the byte order mark is not text");
	want(&o, "a\x01\b\f\x1b\x7f\"\\/\t\n",
	    EV_TEXT("a\\u0001\\b\\f\\u001b\x7f\\\"\\\\/\\t\\n"), "", DIAG_OK,
	    "events: control characters escaped");
	want_n(&o, "a\0b\n", 4, EV_TEXT("a\\u0000b\\n"), "", DIAG_OK,
	    "events: a NUL byte in prose");
	want(&o, "\xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80\n",
	    EV_TEXT("\xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80\\n"), "",
	    DIAG_OK, "events: multibyte prose as is");
	want(&o, "x <tool id=\"1\">y</tool>\n",
	    EV_TEXT("x <tool id=\\\"1\\\">y</tool>\\n"), "", DIAG_OK,
	    "events: a tag that is not a call is text");
	want(&o, seed_read_file, "{\"type\":\"tool_call\",\"server_name\":"
	    "\"local\",\"tool_name\":\"read_file\",\"arguments\":{\"path\":"
	    "\"src/main.go\",\"line_start\":1,\"line_end\":100}}\n"
	    EV_TEXT("\\n"), "", DIAG_OK, "events: the seed's call");
}

/* The events mode's cut of a line longer than 64 KiB. */
static void
test_long_line(void)
{
	struct toolcall_opts o = opts(1, 0, 0);
	struct buf in = BUF_INIT, joined = BUF_INIT;
	json_t *j, *text;
	json_error_t e;
	struct run r;
	size_t i, len, records = 0, bad = 0;
	char *p, *nl;

	for (i = 0; in.len < 200000; i++)
		buf_adds(&in, i % 3 == 0 ? "\xe6\x97\xa5" : i % 3 == 1 ?
		    "\xf0\x9f\x98\x80" : "e");
	buf_adds(&in, "\nshort\n");
	run(&o, in.data, in.len, FEED_WHOLE, &r);
	unit_long(r.status, DIAG_OK, "a 200 KB line: status");
	for (p = r.out; p < r.out + r.outlen; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(r.out + r.outlen - p))) ==
		    NULL)
			break;
		records++;
		j = json_loadb(p, (size_t)(nl - p), 0, &e);
		text = json_object_get(j, "text");
		len = json_string_length(text);
		if (j == NULL || !json_is_string(text) || len == 0 ||
		    len > 65536 || (len < 65536 - 3 &&
		    json_string_value(text)[len - 1] != '\n'))
			bad++;
		else
			buf_add(&joined, json_string_value(text), len);
		json_decref(j);
	}
	unit_long((long)bad, 0, "a 200 KB line: records of 1 to 65536 "
	    "bytes, cut near 64 KiB (valid JSON, whole characters)");
	unit_ok(records >= 5 && records <= 6, unit_fmt("a 200 KB line: "
	    "4 records for it, 1 for the next (%zu)", records));
	unit_bytes(joined.data, joined.len, in.data, in.len,
	    "a 200 KB line: the records give the input back");
	run_free(&r);
	buf_free(&in);
	buf_free(&joined);
}

static void
test_errors(void)
{
	struct toolcall_opts o = opts(0, 0, 0), ev = opts(1, 0, 0);
	struct toolcall_opts st = opts(0, 1, 0), evst = opts(1, 1, 0);
	struct toolcall_opts small = opts(0, 0, 37), tiny = opts(1, 0, 36);
	const char *good = "<tool><tool_name>g</tool_name></tool>\n";
	const char *mismatch =
	    "ab\n<tool><tool_name>t</tool_name><arguments><a></b></arguments>"
	    "</tool>\nz";

	want(&o, mismatch, "", FILE_NAME ":2:47: error: malformed tool call: "
	    "mismatched tag\n", DIAG_INVALID, "a mismatched tag");
	want(&ev, mismatch, EV_TEXT("ab\\n") "{\"type\":\"error\",\"message\":"
	    "\"malformed tool call: mismatched tag\",\"line\":2,\"column\":47,"
	    "\"raw\":\"<tool><tool_name>t</tool_name><arguments><a></b>"
	    "</arguments></tool>\"}\n"
	    EV_TEXT("\\n") EV_TEXT("z"), FILE_NAME ":2:47: error: malformed "
	    "tool call: mismatched tag\n", DIAG_INVALID,
	    "events: a mismatched tag");
	want(&o, "<tool>\n<tool_name>t</tool_name>\n<arguments><a></b>"
	    "</arguments>\n</tool>\n<tool><tool_name>g</tool_name></tool>",
	    CALL("g", "{}"), FILE_NAME ":3:17: error: malformed tool call: "
	    "mismatched tag\n", DIAG_INVALID,
	    "an XML error on line 3; the next call still comes out");
	want(&o, "\xc3\xa9 <tool><tool_name>t</b></tool>", "",
	    FILE_NAME ":1:23: error: malformed tool call: mismatched tag\n",
	    DIAG_INVALID, "columns count characters");
	want(&ev, "<tool><tool_name>t</b>\nprose <tool><tool_name>u"
	    "</tool_name></tool>", "{\"type\":\"error\",\"message\":"
	    "\"malformed tool call: mismatched tag\",\"line\":1,\"column\":21,"
	    "\"raw\":\"<tool><tool_name>t</b>\\nprose \"}\n" EV_CALL("u", "{}"),
	    FILE_NAME ":1:21: error: malformed tool call: mismatched tag\n",
	    DIAG_INVALID, "events: skipped to the next <tool>");
	want(&ev, "<tool><tool_name>t</tool_name><arguments><a>x < y</a>"
	    "<![CDATA[</tool>]]><!-- </tool> --></arguments></tool>after",
	    "{\"type\":\"error\",\"message\":\"malformed tool call: "
	    "not well-formed (invalid token)\",\"line\":1,\"column\":48,"
	    "\"raw\":\"<tool><tool_name>t</tool_name><arguments><a>x < y</a>"
	    "<![CDATA[</tool>]]><!-- </tool> --></arguments></tool>\"}\n"
	    EV_TEXT("after"), FILE_NAME ":1:48: error: "
	    "malformed tool call: not well-formed (invalid token)\n",
	    DIAG_INVALID, "events: skipped past CDATA and comments");
	want(&o, "<tool><tool_name>t</tool_name><arguments><a>&#0;</a>"
	    "</arguments></tool>", "", FILE_NAME ":1:45: error: malformed "
	    "tool call: reference to invalid character number\n",
	    DIAG_INVALID, "a reference to a forbidden character");
	want(&o, "<tool><tool_name>t</tool_name><arguments><a>\xff</a>"
	    "</arguments></tool>" "\n<tool><tool_name>g</tool_name></tool>",
	    CALL("g", "{}"), FILE_NAME ":1:45: error: malformed tool call: "
	    "not well-formed (invalid token)\n", DIAG_INVALID,
	    "invalid UTF-8 inside a call");
	want(&o, "<tool><!DOCTYPE x></tool>", "", FILE_NAME ":1:9: error: "
	    "malformed tool call: not well-formed (invalid token)\n",
	    DIAG_INVALID, "a DOCTYPE inside a call");

	/* truncated */
	want(&o, "x<tool><tool_name>t", "", FILE_NAME ":1:2: error: truncated "
	    "tool call: input ended before </tool>\n", DIAG_INVALID,
	    "a truncated call");
	want(&ev, "x<tool><tool_name>t</tool_name></too",
	    EV_TEXT("x") "{\"type\":\"error\",\"message\":\"truncated tool "
	    "call: input ended before </tool>\",\"line\":1,\"column\":2,"
	    "\"raw\":\"<tool><tool_name>t</tool_name></too\"}\n",
	    FILE_NAME ":1:2: error: truncated tool call: input ended before "
	    "</tool>\n", DIAG_INVALID, "events: a truncated call");
	want(&ev, "a\n<tool><tool_name>t</tool_name><arguments><c><![CDATA["
	    "</tool>", EV_TEXT("a\\n")
	    "{\"type\":\"error\",\"message\":\"truncated tool call: input "
	    "ended before </tool>\",\"line\":2,\"column\":1,\"raw\":"
	    "\"<tool><tool_name>t</tool_name><arguments><c><![CDATA[</tool>\"}"
	    "\n", FILE_NAME ":2:1: error: "
	    "truncated tool call: input ended before </tool>\n", DIAG_INVALID,
	    "events: truncated inside CDATA");
	want(&o, "a\rb\r\nc\n<tool>", "", FILE_NAME ":4:1: error: truncated "
	    "tool call: input ended before </tool>\n", DIAG_INVALID,
	    "lines end at LF, CR or CRLF");
	want(&o, "\r\n<tool>", "", FILE_NAME ":2:1: error: truncated tool call: "
	    "input ended before </tool>\n", DIAG_INVALID,
	    "CRLF is one line end, in one piece or two");
	want(&o, "a\r\n\xff\r\r\n\n\xfe", "", FILE_NAME ":2:1: error: "
	    "invalid UTF-8: byte 0xff at byte offset 3\n" FILE_NAME ":5:1: "
	    "error: invalid UTF-8: byte 0xfe at byte offset 8\n", DIAG_INVALID,
	    "CRLF and CR before invalid UTF-8");
	want(&o, "\r\r\n<tool>\r<tool_name>t</b>\r\n</tool>\n\xff", "",
	    FILE_NAME ":4:15: error: malformed tool call: mismatched tag\n"
	    FILE_NAME ":6:1: error: invalid UTF-8: byte 0xff at byte offset "
	    "36\n", DIAG_INVALID, "CR and CRLF inside and after a call");
	want(&o, "\xef\xbb\xbf<tool>", "", FILE_NAME ":1:1: error: truncated "
	    "tool call: input ended before </tool>\n", DIAG_INVALID,
	    "a byte order mark is not a column");

	/* structure */
	want(&o, "<tool><arguments/></tool>\n<tool><tool_name> </tool_name>"
	    "</tool>", "", FILE_NAME ":1:1: error: malformed tool call: "
	    "<tool_name> is missing or empty\n" FILE_NAME ":2:1: error: "
	    "malformed tool call: <tool_name> is missing or empty\n",
	    DIAG_INVALID, "tool_name missing or blank");
	want(&o, "<tool><tool_name>t</tool_name><foo/></tool>", "",
	    FILE_NAME ":1:31: error: malformed tool call: unexpected <foo> in "
	    "<tool>\n", DIAG_INVALID, "an unexpected element");
	want(&o, "<tool><tool_name>t</tool_name><tool_name>u</tool_name>"
	    "</tool>", "", FILE_NAME ":1:31: error: malformed tool call: "
	    "<tool_name> given twice\n", DIAG_INVALID, "tool_name twice");
	want(&o, "<tool><tool_name>t</tool_name><arguments/><arguments/>"
	    "</tool>", "", FILE_NAME ":1:43: error: malformed tool call: "
	    "<arguments> given twice\n", DIAG_INVALID, "arguments twice");
	want(&o, "<tool><tool_name>t<b/></tool_name></tool>", "",
	    FILE_NAME ":1:19: error: malformed tool call: <tool_name> must "
	    "hold text, not <b>\n", DIAG_INVALID, "an element in tool_name");
	want(&o, "<tool>hello<tool_name>t</tool_name></tool>", "",
	    FILE_NAME ":1:7: error: malformed tool call: text in <tool> "
	    "outside any element\n", DIAG_INVALID, "text in <tool>");
	want(&o, "<tool><tool_name>t</tool_name><arguments>x<a>1</a>"
	    "</arguments></tool>", "", FILE_NAME ":1:42: error: malformed tool "
	    "call: text in <arguments> outside any argument\n", DIAG_INVALID,
	    "text in <arguments>");
	want(&o, "<tool><tool_name>t</tool_name><arguments><a>x<b>1</b></a>"
	    "</arguments></tool>", "", FILE_NAME ":1:46: error: malformed tool "
	    "call: <a> mixes text and elements\n", DIAG_INVALID,
	    "text, then an element");
	want(&o, "<tool><tool_name>t</tool_name><arguments><a><b>1</b>x</a>"
	    "</arguments></tool>", "", FILE_NAME ":1:53: error: malformed tool "
	    "call: <a> mixes text and elements\n", DIAG_INVALID,
	    "an element, then text");
	want(&o, "<tool><foo/><bar/><tool_name>t</tool_name></tool>\n", "",
	    FILE_NAME ":1:7: error: malformed tool call: unexpected <foo> in "
	    "<tool>\n", DIAG_INVALID, "only the first error of a call");
	want(&ev, "<tool><foo>\n</foo><tool_name>t</tool_name></tool>\n",
	    "{\"type\":\"error\",\"message\":\"malformed tool call: unexpected "
	    "<foo> in <tool>\",\"line\":1,\"column\":7,\"raw\":\"<tool><foo>\\n"
	    "</foo><tool_name>t</tool_name></tool>\"}\n" EV_TEXT("\\n"),
	    FILE_NAME ":1:7: error: malformed tool call: unexpected <foo> in "
	    "<tool>\n", DIAG_INVALID, "events: a structure error's raw");

	/* the & rule */
	want(&o, "<tool><tool_name>t</tool_name><arguments><c>ls && pwd</c>"
	    "</arguments></tool>", CALL("t", "{\"c\":\"ls && pwd\"}"),
	    FILE_NAME ":1:48: warning: bare \"&\" taken as text (write "
	    "&amp;)\n" FILE_NAME ":1:49: warning: bare \"&\" taken as text "
	    "(write &amp;)\n", DIAG_OK, "bare & is a warning");
	want(&o, "<tool><tool_name>t</tool_name><arguments><c>a&b &nbsp; &amp x"
	    " & &#;</c></arguments></tool>",
	    CALL("t", "{\"c\":\"a&b &nbsp; &amp x & &#;\"}"),
	    FILE_NAME ":1:46: warning: bare \"&\" taken as text (write "
	    "&amp;)\n" FILE_NAME ":1:49: warning: bare \"&\" taken as text "
	    "(write &amp;)\n" FILE_NAME ":1:56: warning: bare \"&\" taken as "
	    "text (write &amp;)\n" FILE_NAME ":1:63: warning: bare \"&\" taken "
	    "as text (write &amp;)\n" FILE_NAME ":1:65: warning: bare \"&\" "
	    "taken as text (write &amp;)\n", DIAG_OK, "every kind of bare &");
	want(&o, "<tool><tool_name>a&b</tool_name><arguments><c k=\"x&y\">"
	    "<![CDATA[&]]><!-- & --></c></arguments></tool>",
	    CALL("a&b", "{\"c\":\"&\"}"), FILE_NAME ":1:19: warning: bare "
	    "\"&\" taken as text (write &amp;)\n" FILE_NAME ":1:51: warning: "
	    "bare \"&\" taken as text (write &amp;)\n", DIAG_OK,
	    "& in names and attributes; not in CDATA or comments");
	want(&st, "<tool><tool_name>t</tool_name><arguments><c>ls && pwd</c>"
	    "</arguments></tool>\n<tool><tool_name>g</tool_name></tool>",
	    CALL("g", "{}"), FILE_NAME ":1:48: error: malformed tool call: "
	    "bare \"&\" (write &amp;)\n", DIAG_INVALID,
	    "strict: bare & is an error");
	want(&evst, "<tool><tool_name>a&b</tool_name></tool>", "{\"type\":"
	    "\"error\",\"message\":\"malformed tool call: bare \\\"&\\\" "
	    "(write &amp;)\",\"line\":1,\"column\":19,\"raw\":\"<tool>"
	    "<tool_name>a&b</tool_name></tool>\"}\n", FILE_NAME ":1:19: error: "
	    "malformed tool call: bare \"&\" (write &amp;)\n", DIAG_INVALID,
	    "strict events: bare & is an error");
	want(&st, "x && y <tool><tool_name>a&amp;b</tool_name></tool>",
	    CALL("a&b", "{}"), "", DIAG_OK, "strict: & in prose is fine");

	/* max-size */
	want(&small, good, CALL("g", "{}"), "", DIAG_OK,
	    "a call of exactly --max-size bytes");
	want(&tiny, good, "{\"type\":\"error\",\"message\":\"tool call "
	    "larger than --max-size (36 bytes)\",\"line\":1,\"column\":1,"
	    "\"raw\":null}\n" EV_TEXT("\\n"), FILE_NAME ":1:1: error: tool "
	    "call larger than --max-size (36 bytes)\n", DIAG_INVALID,
	    "a call one byte over --max-size");
	want(&tiny, "a\n<tool><tool_name>long name</tool_name></tool>b<tool>"
	    "<tool_name>g</tool_name></tool>\nz", EV_TEXT("a\\n") "{\"type\":"
	    "\"error\",\"message\":\"tool call larger than --max-size (36 "
	    "bytes)\",\"line\":2,\"column\":1,\"raw\":null}\n" EV_TEXT("b")
	    "{\"type\":\"error\",\"message\":\"tool call larger than "
	    "--max-size (36 bytes)\",\"line\":2,\"column\":47,\"raw\":null}\n"
	    EV_TEXT("\\n") EV_TEXT("z"),
	    FILE_NAME ":2:1: error: tool call larger than --max-size (36 "
	    "bytes)\n" FILE_NAME ":2:47: error: tool call larger than "
	    "--max-size (36 bytes)\n", DIAG_INVALID,
	    "events: max-size errors, prose between them kept");

	/* invalid UTF-8 in prose */
	want(&o, "a\xff" "b\n\xc3\xa9\xfe<tool><tool_name>g</tool_name></tool>",
	    CALL("g", "{}"), FILE_NAME ":1:2: error: invalid UTF-8: byte 0xff "
	    "at byte offset 1\n" FILE_NAME ":2:2: error: invalid UTF-8: byte "
	    "0xfe at byte offset 6\n", DIAG_INVALID, "invalid UTF-8 in prose");
	want(&ev, "a\xff" "b\n", EV_TEXT("a\xef\xbf\xbd" "b\\n"),
	    FILE_NAME ":1:2: error: invalid UTF-8: byte 0xff at byte offset "
	    "1\n",
	    DIAG_INVALID, "events: invalid UTF-8 becomes U+FFFD");
	want(&o, "\xef\xbb\xbf\x80", "", FILE_NAME ":1:1: error: invalid "
	    "UTF-8: byte 0x80 at byte offset 3\n", DIAG_INVALID,
	    "after a byte order mark: offset in the file, column 1");
}

/* A write error reaches the caller as -1. */
static void
test_write_error(void)
{
	struct toolcall_opts o = opts(0, 0, 0), ev = opts(1, 0, 0);
	struct toolcall *t;
	const char *call = "<tool><tool_name>t</tool_name></tool>";
	FILE *f;
	int rc;

	if ((f = fopen("/dev/full", "w")) == NULL)
		unit_bail("/dev/full");
	setvbuf(f, NULL, _IONBF, 0);
	t = toolcall_new(&o, f, FILE_NAME);
	unit_long(toolcall_feed(t, call, strlen(call)), -1,
	    "a call to /dev/full: toolcall_feed returns -1");
	toolcall_free(t);
	clearerr(f);

	t = toolcall_new(&ev, f, FILE_NAME);
	unit_long(toolcall_feed(t, "no newline", 10), 0,
	    "events to /dev/full: text kept, nothing written yet");
	unit_long(toolcall_end(t), -1,
	    "events to /dev/full: toolcall_end returns -1");
	toolcall_free(t);
	fclose(f);

	/* A buffered stream, with unbuffered set: each record flushed. */
	if ((f = fopen("/dev/full", "w")) == NULL)
		unit_bail("/dev/full");
	o.unbuffered = 1;
	t = toolcall_new(&o, f, FILE_NAME);
	rc = toolcall_feed(t, call, strlen(call));
	unit_long(rc, -1, "unbuffered to a buffered /dev/full: -1 at once");
	toolcall_free(t);
	fclose(f);
}

/* An input for the chunking checks, built in or read from a file. */
/* Hostile input (issue 13). */

/* n copies of s in b. */
static void
repeat(struct buf *b, const char *s, size_t n)
{
	while (n-- > 0)
		buf_adds(b, s);
}

/*
 * A call nested exactly DEPTH_MAX deep (<tool>, <arguments> and 4094
 * <a>) is read; one level more is an error at the 4095th <a>, expat is
 * fed no more of it, and the next call is read.
 */
static void
test_depth(void)
{
	struct toolcall_opts o = opts(0, 0, 0);
	struct buf in = BUF_INIT, out = BUF_INIT;

	buf_adds(&in, "<tool><tool_name>t</tool_name><arguments>");
	repeat(&in, "<a>", 4094);
	buf_adds(&in, "1");
	repeat(&in, "</a>", 4094);
	buf_adds(&in, "</arguments></tool>\n");
	buf_adds(&out, "{\"server_name\":\"local\",\"tool_name\":\"t\","
	    "\"arguments\":");
	repeat(&out, "{\"a\":", 4094);
	buf_adds(&out, "1");
	repeat(&out, "}", 4094);
	buf_adds(&out, "}\n");
	want_n(&o, in.data, in.len, buf_cstr(&out), "", DIAG_OK,
	    "elements nested 4096 deep, <tool> included");

	buf_reset(&in);
	buf_adds(&in, "<tool><tool_name>t</tool_name><arguments>");
	repeat(&in, "<a>", 4095);
	buf_adds(&in, "1</tool>\n<tool><tool_name>ok</tool_name></tool>\n");
	want_n(&o, in.data, in.len, CALL("ok", "{}"), FILE_NAME ":1:12324: "
	    "error: malformed tool call: elements nested deeper than 4096\n",
	    DIAG_INVALID, "elements nested 4097 deep; the next call is read");

	/* the issue's case: 500,000 levels spoilt the parser for the next */
	buf_reset(&in);
	buf_adds(&in, "<tool><tool_name>x</tool_name><arguments>");
	repeat(&in, "<a>", 500000);
	buf_adds(&in, "</tool>\n<tool><tool_name>ok</tool_name></tool>\n");
	want_n(&o, in.data, in.len, CALL("ok", "{}"), FILE_NAME ":1:12324: "
	    "error: malformed tool call: elements nested deeper than 4096\n",
	    DIAG_INVALID, "500,000 levels, then a good call");
	buf_free(&in);
	buf_free(&out);
}

/*
 * Elements and attributes of a call: one per 64 bytes of --max-size, and
 * 4096 at least. At --max-size 1M, 16384 are read (<tool_name>,
 * <arguments> and 16382 <a/>) and 16385 are an error at the tag that
 * goes over; the next call is read.
 */
static void
test_items(void)
{
	struct toolcall_opts o = opts(0, 0, 1 << 20);
	struct buf in = BUF_INIT, out = BUF_INIT;
	size_t i;

	buf_adds(&in, "<tool><tool_name>t</tool_name><arguments>");
	repeat(&in, "<a/>", 16382);
	buf_adds(&in, "</arguments></tool>\n");
	buf_adds(&out, "{\"server_name\":\"local\",\"tool_name\":\"t\","
	    "\"arguments\":{\"a\":[\"\"");
	repeat(&out, ",\"\"", 16381);
	buf_adds(&out, "]}}\n");
	want_n(&o, in.data, in.len, buf_cstr(&out), "", DIAG_OK,
	    "16384 elements at --max-size 1M");

	buf_reset(&in);
	buf_adds(&in, "<tool><tool_name>t</tool_name><arguments>");
	repeat(&in, "<a/>", 16383);
	buf_adds(&in, "</arguments></tool>\n<tool><tool_name>ok</tool_name>"
	    "</tool>\n");
	want_n(&o, in.data, in.len, CALL("ok", "{}"), FILE_NAME ":1:65570: "
	    "error: tool call holds more than 16384 elements and attributes\n",
	    DIAG_INVALID, "16385 elements at --max-size 1M");

	/* attributes count, in a tag that is refused before expat has it */
	buf_reset(&in);
	buf_adds(&in, "<tool><tool_name>t</tool_name><arguments><a");
	for (i = 0; i < 16381; i++)
		buf_printf(&in, " b%zu=''", i);
	buf_adds(&in, "/></arguments></tool>\n");
	want_n(&o, in.data, in.len, CALL("t", "{\"a\":\"\"}"), "", DIAG_OK,
	    "2 elements and 16382 attributes at --max-size 1M");
	buf_reset(&in);
	buf_adds(&in, "<tool><tool_name>t</tool_name><arguments><a");
	for (i = 0; i < 16382; i++)
		buf_printf(&in, " b%zu=''", i);
	buf_adds(&in, "/></arguments></tool>\n<tool><tool_name>ok</tool_name>"
	    "</tool>\n");
	want_n(&o, in.data, in.len, CALL("ok", "{}"), FILE_NAME ":1:42: "
	    "error: tool call holds more than 16384 elements and attributes\n",
	    DIAG_INVALID, "2 elements and 16383 attributes at --max-size 1M");

	/* a small --max-size still allows 4096 */
	o = opts(0, 0, 64 << 10);
	buf_reset(&in);
	buf_adds(&in, "<tool><tool_name>t</tool_name><arguments>");
	repeat(&in, "<a/>", 4094);
	buf_adds(&in, "</arguments></tool>\n");
	buf_reset(&out);
	buf_adds(&out, "{\"server_name\":\"local\",\"tool_name\":\"t\","
	    "\"arguments\":{\"a\":[\"\"");
	repeat(&out, ",\"\"", 4093);
	buf_adds(&out, "]}}\n");
	want_n(&o, in.data, in.len, buf_cstr(&out), "", DIAG_OK,
	    "4096 elements at --max-size 64K");
	buf_reset(&in);
	buf_adds(&in, "<tool><tool_name>t</tool_name><arguments>");
	repeat(&in, "<a/>", 4095);
	buf_adds(&in, "</arguments></tool>\n");
	want_n(&o, in.data, in.len, "", FILE_NAME ":1:16418: error: tool "
	    "call holds more than 4096 elements and attributes\n",
	    DIAG_INVALID, "4097 elements at --max-size 64K");
	buf_free(&in);
	buf_free(&out);
}

/*
 * Fed as toolcall-parse reads (64 KiB at a time), what expat scans stays
 * within a few times the input: each call of a dense stream is handed
 * over up to its </tool>, not to the end of the read, and a long token is
 * not scanned again from its start with every read.
 */
static void
linear(const char *in, size_t n, const char *first, size_t lines,
    const char *what)
{
	struct toolcall_opts o = opts(0, 0, 0);
	struct run r;
	size_t k = 0, i;

	run(&o, in, n, FEED_READS, &r);
	for (i = 0; i < r.outlen; i++)
		k += r.out[i] == '\n';
	unit_ok(r.outlen >= strlen(first) &&
	    memcmp(r.out, first, strlen(first)) == 0 && k == lines,
	    unit_fmt("%s: %zu calls, the first right", what, lines));
	unit_str(r.err, "", unit_fmt("%s: no diagnostics", what));
	unit_ok(r.work <= 3 * (unsigned long long)n, unit_fmt("%s: expat "
	    "scans %llu bytes of %zu, at most 3 times", what, r.work, n));
	run_free(&r);
}

static void
test_linear(void)
{
	struct buf in = BUF_INIT;

	repeat(&in, "<tool><tool_name>x</tool_name></tool>", 25000);
	linear(in.data, in.len, CALL("x", "{}"), 25000,
	    "25,000 back-to-back calls");
	buf_reset(&in);
	/* an end tag longer than the lexer keeps still ends the call there */
	repeat(&in, "<tool><tool_name>x</tool_name></tool                    >",
	    25000);
	linear(in.data, in.len, CALL("x", "{}"), 25000,
	    "25,000 calls ended by \"</tool\", 20 spaces and \">\"");
	buf_reset(&in);
	/* a "</tool>" in CDATA neither ends the call nor costs a feed */
	repeat(&in, "<tool><tool_name>x</tool_name><arguments><a><![CDATA["
	    "</tool></tool>]]></a></arguments></tool>", 10000);
	linear(in.data, in.len, CALL("x", "{\"a\":\"</tool></tool>\"}"),
	    10000, "10,000 calls with \"</tool>\" in CDATA");
	buf_reset(&in);
	buf_adds(&in, "<tool><tool_name>x</tool_name><arguments><a b=\"");
	repeat(&in, "xxxxxxxxxxxxxxxx", 1 << 18);
	buf_adds(&in, "\">1</a></arguments></tool>\n");
	linear(in.data, in.len, CALL("x", "{\"a\":1}"), 1,
	    "a 4 MiB attribute value");
	buf_reset(&in);
	buf_adds(&in, "<tool><tool_name>x</tool_name><!--");
	repeat(&in, "xxxxxxxxxxxxxxxx", 1 << 18);
	buf_adds(&in, "--></tool>\n");
	linear(in.data, in.len, CALL("x", "{}"), 1, "a 4 MiB comment");
	buf_reset(&in);
	buf_adds(&in, "<tool><tool_name>x</tool_name><arguments><a>");
	repeat(&in, "<?x ", 1 << 20);
	buf_adds(&in, "?>1</a></arguments></tool>\n");
	linear(in.data, in.len, CALL("x", "{\"a\":1}"), 1,
	    "a 4 MiB processing instruction");
	buf_free(&in);
}

/*
 * A token held back from expat is still given to it as it grows: an
 * error 100 KB into a tag is found there, not at its end; the call is
 * skipped and the next read.
 */
static void
test_long_token_error(void)
{
	struct toolcall_opts o = opts(0, 0, 0);
	struct buf in = BUF_INIT;

	buf_adds(&in, "<tool><tool_name>x</tool_name><arguments><a b=\"");
	repeat(&in, "x", 100000);
	buf_adds(&in, "\001");
	repeat(&in, "y", 100000);
	buf_adds(&in, "\"/></arguments></tool>\n<tool><tool_name>ok"
	    "</tool_name></tool>\n");
	want_n(&o, in.data, in.len, CALL("ok", "{}"), FILE_NAME ":1:100048: "
	    "error: malformed tool call: not well-formed (invalid token)\n",
	    DIAG_INVALID, "an error 100 KB into a tag");
	buf_free(&in);
}

/*
 * The bytes of an encoded surrogate, ED A0 80, in prose are one bad
 * character: one error at its column, one U+FFFD, one column.
 */
static void
test_surrogate(void)
{
	struct toolcall_opts o = opts(0, 0, 0), e = opts(1, 0, 0);
	struct buf in = BUF_INIT;

	repeat(&in, "x", 129);
	buf_adds(&in, "\xed\xa0\x80<tool></tool>\n");
	want_n(&o, in.data, in.len, "", FILE_NAME ":1:130: error: invalid "
	    "UTF-8: byte 0xed at byte offset 129\n" FILE_NAME ":1:131: error: "
	    "malformed tool call: <tool_name> is missing or empty\n",
	    DIAG_INVALID, "an encoded surrogate in prose");
	want(&e, "a\xed\xa0\x80" "b\x80\x80" "c\xe2\x82" "d\n",
	    EV_TEXT("a\xef\xbf\xbd" "b\xef\xbf\xbd\xef\xbf\xbd" "c\xef\xbf\xbd"
	    "d\\n"), FILE_NAME ":1:2: error: invalid UTF-8: byte 0xed at byte "
	    "offset 1\n" FILE_NAME ":1:4: error: invalid UTF-8: byte 0x80 at "
	    "byte offset 5\n" FILE_NAME ":1:5: error: invalid UTF-8: byte 0x80 "
	    "at byte offset 6\n" FILE_NAME ":1:7: error: invalid UTF-8: byte "
	    "0xe2 at byte offset 8\n", DIAG_INVALID,
	    "bad characters in prose, one U+FFFD and one column each");
	buf_free(&in);
}

struct input {
	char	*name;
	char	*data;
	size_t	 len;
};

static struct input	*inputs;
static size_t		 ninputs, inputs_cap;

static void
add_input(const char *name, const char *data, size_t len)
{
	struct input *in;

	if (ninputs == inputs_cap) {
		inputs_cap = inputs_cap != 0 ? inputs_cap * 2 : 64;
		if ((inputs = realloc(inputs, inputs_cap * sizeof(*inputs))) ==
		    NULL)
			unit_bail("realloc");
	}
	in = &inputs[ninputs++];
	if ((in->name = strdup(name)) == NULL ||
	    (in->data = malloc(len + 1)) == NULL)
		unit_bail("malloc");
	memcpy(in->data, data, len);
	in->data[len] = '\0';
	in->len = len;
}

#define ADD(name, s)	add_input(name, s, sizeof(s) - 1)

/*
 * Calls to the tools of tools-nested.json: typed by their schemas (a
 * string "007", an integer "2.0", a boolean "False", null, an array of
 * objects by repeated elements, of one item, a one-element array of
 * strings, an object as JSON text) and valid; and calls that fail
 * validation (a missing property, a value of no allowed type, below a
 * minimum, outside an enum, in JSON text), to a tool not defined, and
 * one good call.
 */
#define TOOLS_FILE	"t/data/toolcall-parse/tools-nested.json"
#define TYPED		"calls typed by tools-nested.json"
#define TYPED_INPUT \
    "Typed by the schemas:\n" \
    "<tool>\n" \
    "<server_name>fs</server_name>\n" \
    "<tool_name>apply_diff</tool_name>\n" \
    "<arguments>\n" \
    "  <path>007</path>\n" \
    "  <edits><search><![CDATA[if (a < b) ]]]]><![CDATA[>]]></search>\n" \
    "    <replace>x &amp;&amp; y</replace><count>2.0</count></edits>\n" \
    "  <edits><search>1</search><replace>true</replace></edits>\n" \
    "  <backup>False</backup>\n" \
    "</arguments>\n" \
    "</tool>\n" \
    "<tool><tool_name>apply_diff</tool_name><arguments><path>p</path>" \
    "<edits><search>s</search><replace/></edits><backup>null</backup>" \
    "</arguments></tool>\n" \
    "<tool>\n" \
    "<tool_name>search_files</tool_name>\n" \
    "<arguments>\n" \
    "  <pattern>42</pattern><mode>regex</mode>\n" \
    "  <exclude>true</exclude>\n" \
    "  <limits>{\"max_results\": 5.0, \"max_bytes\": 1e3}</limits>\n" \
    "</arguments>\n" \
    "</tool>\n" \
    "<tool><tool_name>search_files</tool_name><arguments><pattern> a " \
    "</pattern><exclude>[\"b\", \"c\"]</exclude><limits>NULL</limits>" \
    "</arguments></tool>\n"
#define FAILING		"calls that fail tools-nested.json"
#define FAILING_INPUT \
    "Calls that fail:\n" \
    "<tool><tool_name>apply_diff</tool_name><arguments><path>p</path>" \
    "<backup>maybe</backup></arguments></tool>\n" \
    "<tool><tool_name>apply_diff</tool_name><arguments><path>p</path>" \
    "<edits><search>s</search><replace>r</replace><count>0</count>" \
    "</edits><edits><search>t</search></edits></arguments></tool>\n" \
    "<tool><tool_name>search_files</tool_name><arguments><pattern>x" \
    "</pattern><mode>glob</mode><exclude/><limits><max_results>1.5" \
    "</max_results></limits></arguments></tool>\n" \
    "<tool><tool_name>read_file</tool_name><arguments><path>a</path>" \
    "</arguments></tool>\n" \
    "<tool><tool_name>search_files</tool_name><arguments><pattern>y" \
    "</pattern><exclude>z</exclude><limits>{\"max_bytes\": \"lots\"}" \
    "</limits></arguments></tool>\n" \
    "<tool><tool_name>search_files</tool_name><arguments><pattern>y" \
    "</pattern><exclude>z</exclude><limits>{}</limits></arguments>" \
    "</tool>\n"

static void
builtin_inputs(void)
{
	struct buf b = BUF_INIT;
	size_t i;

	/* reasoning: blocks, a lone closer, markers in calls and cut */
	ADD("reasoning blocks", "<think>\nMaybe <tool_call>\n{\"name\": \"x\"}"
	    "\n</tool_call> no.\n</think>\nText\n<tool><tool_name>a"
	    "</tool_name></tool><seed:think>\xff</think></seed:think>"
	    "<invoke name=\"b\"></invoke></think>\n");
	ADD("reasoning opened", "Draft <tool><tool_name>x</tool_name></tool>"
	    "<tool_call>{\"name\": \"y\", \"arguments\": {\"s\": \"</think>\"}}"
	    "</tool_call>\n</think>\n<tool><tool_name>a</tool_name><arguments>"
	    "<c><![CDATA[<think>]]></c></arguments></tool><think>r");
	ADD("reasoning held", "a\n<tool><tool_name>x</tool_nam></tool>\n<tool>"
	    "<tool_name>y</tool_name></tool>\n<think></think>\n<tool_call>z"
	    "</tool_call></think>\n");

	ADD("dialects mixed", "Let me look.\n<tool_call>\n{\"name\": "
	    "\"search_files\", \"arguments\": {\"pattern\": \"007\", "
	    "\"exclude\": [\"a\"], \"limits\": null}}\n</tool_call>\n"
	    "<tool_call>apply_diff\n<arg_key>path</arg_key>\n<arg_value>"
	    "a.c</arg_value>\n<arg_key>edits</arg_key>\n<arg_value>[{"
	    "\"search\": \"x\", \"replace\": \"y\"}]</arg_value>\n"
	    "</tool_call>\n<tool_call>\n<function=search_files>\n"
	    "<parameter=pattern>\nif (a < b && c) { x(\"</div>\"); }\n"
	    "</parameter>\n<parameter=exclude>\nb\n</parameter>\n"
	    "<parameter=limits>\nnull\n</parameter>\n</function>\n"
	    "</tool_call>\n<function_calls>\n<invoke name=\"search_files\">\n"
	    "<parameter name=\"pattern\">&amp;</parameter>\n<parameter "
	    "name=\"exclude\">c</parameter>\n<parameter name=\"limits\">"
	    "{}</parameter>\n</invoke>\n</function_calls>\nDone.\n");
	ADD("dialects cut short", "<tool_call>{\"name\": \"x\"\n"
	    "<tool_call>get_date</tool_call>\n<function=f>\n<parameter=a>"
	    "\n1\n<function=g></function>\n<invoke name=\"h\">"
	    "<parameter name=\"k\">v");
	ADD("seed read_file", seed_read_file);
	ADD("seed write_to_file", seed_write_file);
	ADD("seed apply_diff", seed_apply_diff);
	ADD("seed search_files", seed_search_files);
	ADD("seed types", seed_types);
	ADD("seed pattern", seed_pattern);
	ADD("prose and calls", "I will read the file.\n" "<tool>\n"
	    "<tool_name>read_file</tool_name>\n<arguments><path>a</path>"
	    "</arguments>\n</tool>\nThen write it:\n<tool><tool_name>w"
	    "</tool_name></tool> and done.\n");
	ADD("split CDATA", "<tool><tool_name>w</tool_name><arguments>"
	    "<c><![CDATA[a]]]]><![CDATA[>b]]></c><d>\n <![CDATA[x]]>\n "
	    "<![CDATA[y]]> </d><e>t<![CDATA[u]]>v</e></arguments></tool>");
	ADD("entities", "<tool><tool_name>e</tool_name><arguments><e>&lt;&gt;"
	    "&amp;&quot;&apos;</e><f a=\"&lt;&amp;\">x&amp;y</f></arguments>"
	    "</tool>");
	ADD("numeric references", "<tool><tool_name>n</tool_name><arguments>"
	    "<a>&#49;</a><b>&#x41;&#233;&#x65E5;&#x1F600;</b><c>&#0;</c>"
	    "</arguments></tool><tool><tool_name>m</tool_name><arguments>"
	    "<d>&#xD800;</d></arguments></tool>");
	ADD("bare ampersands", "<tool><tool_name>a&b</tool_name><arguments>"
	    "<c>ls && pwd</c><d>&nbsp; &amp x & y &#; &#x; &#12a;</d>"
	    "<e k=\"&\"><![CDATA[&&]]></e></arguments></tool> & prose &amp;\n");
	ADD("comment with </tool>", "<tool><!-- </tool> <tool> --><tool_name>c"
	    "</tool_name><arguments><!-- </tool> --><a>1<!-- </tool> --></a>"
	    "</arguments></tool>\n");
	ADD("CDATA with <tool> and </tool>", "<tool><tool_name>w</tool_name>"
	    "<arguments><content><![CDATA[<tool>x</tool></tool><tool>]]>"
	    "</content></arguments></tool>tail");
	ADD("multibyte prose", "Caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac "
	    "\xf0\x9f\x98\x80\n<tool><tool_name>\xe6\x97\xa5</tool_name>"
	    "<arguments><e>\xf0\x9f\x98\x80</e></arguments></tool>\xc3\xa9\n"
	    "\xf0\x9f\x98\x80");
	ADD("invalid UTF-8 in prose", "abc\xff\xfe def\n\xc3(\n\xed\xa0\x80"
	    "\xc0\xaf\xf4\x90\x80\x80\n<tool><tool_name>g</tool_name></tool>"
	    "\xe6\x97");
	ADD("malformed calls", "one <tool><tool_name>t</b></tool> two "
	    "<tool><a>x < y</a></tool>\n<tool><tool_name>t</tool_name><a></b>"
	    "\nthree <tool><tool_name>g</tool_name></tool><tool><!DOCTYPE x>"
	    "</tool>\xff");
	ADD("truncated call", "prose\n<tool><tool_name>t</tool_name>"
	    "<arguments><c><![CDATA[never ends");
	ADD("truncated end tag", "<tool><tool_name>t</tool_name></too");
	ADD("truncated open tag", "text <tool");
	ADD("nested arrays", "<tool><tool_name>m</tool_name><arguments><matrix>"
	    "<row><c>1</c><c>2</c></row><row><c>3</c></row><row><c/><c><d>x"
	    "</d></c></row></matrix><a>1</a><b>2</b><a>3</a></arguments>"
	    "</tool>");
	ADD("not calls", "<tool id=\"1\">a</tool><TOOL>b</TOOL><tool >c</tool>"
	    "<tool/><tools>d</tools><tool\n>e</tool>");
	ADD("escaped </tool>", "<tool><tool_name>t</tool_name><arguments><e>"
	    "&lt;/tool&gt;&lt;tool&gt;</e></arguments></tool>");
	ADD("code fence", "```xml\n<tool><tool_name>f</tool_name></tool>\n"
	    "```\n");
	ADD("byte order mark", "\xef\xbb\xbf" "hello\n<tool><tool_name>b"
	    "</tool_name></tool>");
	ADD("structure errors", "<tool><arguments/></tool>\n<tool><tool_name>t"
	    "</tool_name><foo/></tool><tool><tool_name>t</tool_name><tool_name>"
	    "u</tool_name></tool>\n<tool><tool_name>t<b/></tool_name></tool>"
	    "<tool>hello<tool_name>t</tool_name></tool><tool><tool_name>t"
	    "</tool_name><arguments>x<a>1</a></arguments></tool>\n<tool>"
	    "<tool_name>t</tool_name><arguments><a>x<b>1</b></a></arguments>"
	    "</tool><tool><tool_name>g</tool_name></tool>");
	ADD("typing", "<tool><tool_name>t</tool_name><arguments><a>true</a>"
	    "<a>FALSE</a><a>null</a><a>007</a><a>+5</a><a>-0</a><a>3.14</a>"
	    "<a>.5</a><a>42.</a><a>1e21</a><a>1.23e10</a><a>\"true\"</a>"
	    "<a>0x1F</a><a>1e400</a><a>NaN</a><a>9223372036854775808</a>"
	    "</arguments></tool>");
	ADD("recovery to the next <tool>", "<tool><tool_name>t</b>\nprose "
	    "<tool><tool_name>u</tool_name></tool>");
	ADD("recovery past CDATA", "<tool><a>x < y</a><![CDATA[</tool>]]>"
	    "<!-- </tool> --></tool>after\n");
	ADD("CRLF lines", "a\r\nb\r\n<tool>\r\n<tool_name>t</tool_name>\r\n"
	    "<arguments><c><![CDATA[x\r\ny]]></c></arguments>\r\n</tool>\r\n");
	ADD("CRLF before errors", "\r\n<tool>\r\n<tool_name>t</b>\r\n</tool>"
	    "\r\n\xff\r\r\n\xfe\r<tool>");
	ADD("control bytes", "a\x01\b\f\x1b\x7f\"\\/\t\n<tool><tool_name>t"
	    "</tool_name><arguments><c>\x01</c></arguments></tool>");
	add_input("NUL bytes", "a\0b\n<tool><tool_name>\0</tool_name></tool>",
	    41);
	ADD("empty", "");
	ADD("prose without newline", "just some words");
	ADD("newlines only", "\n\n\n");
	ADD("calls side by side", "<tool><tool_name>a</tool_name></tool><tool>"
	    "<tool_name>b</tool_name></tool><tool><tool_name>c</tool_name>"
	    "</tool>");
	ADD("stray angles", "<<tool><tool_name>l</tool_name></tool>>< tool>"
	    "</<tool><tool_name>m</tool_name></tool>");
	ADD("processing instructions", "<?xml version=\"1.0\"?><tool><?pi x?>"
	    "<tool_name>t</tool_name><arguments><a>1<?p?></a></arguments>"
	    "</tool>");
	ADD("inner tool element", "<tool><tool_name>t</tool_name><arguments>"
	    "<tool>inner</tool><tool><x>1</x></tool></arguments></tool>");
	ADD("a big call, small max", "<tool><tool_name>a long tool name"
	    "</tool_name><arguments><c><![CDATA[" "0123456789012345678901234"
	    "567890123456789012345678901234567890123456789012345678901234567890"
	    "123456789012345678901234567890123456789012345678901234567890123456"
	    "789012345678901234567890123456789012345678901234567890]]></c>"
	    "</arguments></tool>\nmore <tool><tool_name>s</tool_name></tool>"
	    "<tool><tool_name>z</tool_name>");

	ADD("text in <tool> ending in an XML error", "<tool>x]]></tool>");
	ADD("text in <arguments> ending in an XML error", "<tool><tool_name>t"
	    "</tool_name><arguments>x]]></arguments></tool>");
	ADD("mixed text ending in an XML error", "<tool><tool_name>t"
	    "</tool_name><arguments><a><b/>x < y</a></arguments></tool>");
	ADD("text in <tool>, then a bad reference", "<tool>a&#0;</tool>\n");

	/* hostile input (issue 13) */
	ADD("an encoded surrogate in prose", "a\xed\xa0\x80" "b\x80\x80\n"
	    "<tool><tool_name>t</tool_name></tool>\xed\xa0");
	ADD("a bare & in a tag after an error in it", "<tool><tool_name>t"
	    "</tool_name><arguments><a \001 b=\"&\" c='&'/></arguments></tool>"
	    "<tool><tool_name>t</tool_name><arguments><a b=\"&\" \001/>"
	    "</arguments></tool>");
	buf_adds(&b, "<tool><tool_name>t</tool_name><arguments>");
	repeat(&b, "<a>", 4100);
	buf_adds(&b, "</tool>\n<tool><tool_name>ok</tool_name></tool>\n");
	add_input("deep nesting, then a good call", b.data, b.len);
	buf_reset(&b);
	buf_adds(&b, "<tool><tool_name>t</tool_name><!--");
	repeat(&b, "x", 70000);
	buf_adds(&b, "--");
	repeat(&b, "y", 70000);
	buf_adds(&b, "--></tool>\n<tool><tool_name>ok</tool_name></tool>\n");
	add_input("a 140 KB comment with -- in it", b.data, b.len);
	buf_reset(&b);
	buf_adds(&b, "<tool><tool_name>t</tool_name><arguments><a b='&");
	repeat(&b, "x", 70000);
	buf_adds(&b, "&\001&");
	repeat(&b, "y", 70000);
	buf_adds(&b, "&'/></arguments></tool>\n<tool><tool_name>ok</tool_name>"
	    "</tool>\n");
	add_input("bare &s around an error 70 KB into a tag", b.data, b.len);
	buf_reset(&b);

	/* calls to the tools of tools-nested.json (issue 16) */
	ADD(TYPED, TYPED_INPUT);
	ADD(FAILING, FAILING_INPUT);

	/* a prose line longer than 64 KiB */
	for (i = 0; b.len < 70000; i++)
		buf_adds(&b, i % 2 == 0 ? "\xe6\x97\xa5" : "\xf0\x9f\x98\x80");
	buf_adds(&b, "\n<tool><tool_name>t</tool_name></tool>");
	add_input("a 70 KB prose line", b.data, b.len);
	buf_free(&b);
}

/* Every .txt file in t/data/toolcall-parse, when there is such a directory. */
static void
file_inputs(void)
{
	struct buf b = BUF_INIT;
	char chunk[8192];
	glob_t g;
	size_t i, n;
	FILE *f;
	int rc;

	rc = glob("t/data/toolcall-parse/*.txt", 0, NULL, &g);
	if (rc == GLOB_NOMATCH) {
		printf("# no t/data/toolcall-parse/*.txt: built-in inputs "
		    "only\n");
		return;
	}
	if (rc != 0)
		unit_bail("glob");
	for (i = 0; i < g.gl_pathc; i++) {
		if ((f = fopen(g.gl_pathv[i], "rb")) == NULL)
			unit_bail(g.gl_pathv[i]);
		buf_reset(&b);
		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			buf_add(&b, chunk, n);
		if (ferror(f))
			unit_bail(g.gl_pathv[i]);
		fclose(f);
		add_input(g.gl_pathv[i], b.data != NULL ? b.data : "", b.len);
	}
	printf("# %zu inputs from t/data/toolcall-parse\n", g.gl_pathc);
	globfree(&g);
	buf_free(&b);
}

/* Whether two runs gave the same; shows what differs when not. */
static void
same(const struct run *a, const struct run *b, const char *what)
{
	int ok = a->outlen == b->outlen &&
	    memcmp(a->out, b->out, a->outlen) == 0 &&
	    strcmp(a->err, b->err) == 0 && a->status == b->status &&
	    a->failed == b->failed;
	size_t at = 0;

	unit_ok(ok, what);
	if (ok)
		return;
	while (at < a->outlen && at < b->outlen && a->out[at] == b->out[at])
		at++;
	printf("#   output differs at byte %zu\n", at);
	at = at > 60 ? at - 60 : 0;
	unit_show("whole: ", a->out, a->outlen, at);
	unit_show("pieces:", b->out, b->outlen, at);
	unit_show("whole stderr: ", a->err, strlen(a->err), 0);
	unit_show("pieces stderr:", b->err, strlen(b->err), 0);
	printf("#   status %d and %d, failed %d and %d\n", a->status,
	    b->status, a->failed, b->failed);
}

/* How many lines s holds. */
static size_t
lines(const char *s, size_t n)
{
	size_t k = 0;

	while (n-- > 0)
		k += *s++ == '\n';
	return k;
}

/*
 * With the tools, the typed calls are written and nothing is said; of
 * the failing ones only the last is written, and each other is an error
 * (in thread mode an error event too). In thread mode the first line of
 * each input is the assistant's message, the only prose that is not
 * blank.
 */
static void
tools_ran(const struct run *r, const char *name, const char *mode,
    int thread)
{
	if (strcmp(name, TYPED) == 0) {
		unit_ok(r->status == DIAG_OK && r->err[0] == '\0' &&
		    lines(r->out, r->outlen) == (thread ? 5u : 4u),
		    unit_fmt("%s, %s: 4 calls written, no error", name,
		    mode));
		return;
	}
	if (strcmp(name, FAILING) != 0)
		return;
	unit_ok(r->status == DIAG_INVALID && lines(r->err, strlen(r->err)) ==
	    5 && lines(r->out, r->outlen) == (thread ? 7u : 1u),
	    unit_fmt("%s, %s: 5 errors, 1 call written", name, mode));
}

static void
test_chunking(void)
{
	struct toolcall_opts modes[13];
	static const char *const mode_names[13] = {
		"default", "events", "strict", "events, strict, max 256",
		"tools", "tools, thread", "auto", "auto, events, max 256",
		"auto, tools, thread", "auto, begins auto",
		"auto, begins auto, reasoning events, events, max 256",
		"auto, begins yes, reasoning events, events",
		"auto, begins auto, tools, thread"
	};
	struct tooldefs defs = { NULL, 0, NULL, 0 };
	struct run whole, cut;
	char err[512];
	size_t i, m;
	int how;

	if (tooldefs_load(&defs, TOOLS_FILE, err, sizeof(err)) != 0)
		unit_bail(err);
	modes[0] = opts(0, 0, 0);
	modes[1] = opts(1, 0, 0);
	modes[2] = opts(0, 1, 0);
	modes[3] = opts(1, 1, 256);
	modes[4] = opts(0, 0, 0);
	modes[4].tools = &defs;
	modes[5] = modes[4];
	modes[5].thread = 1;
	modes[5].iteration = 3;
	modes[6] = opts(0, 0, 0);
	modes[6].format = TOOLCALL_FMT_AUTO;
	modes[7] = opts(1, 0, 256);
	modes[7].format = TOOLCALL_FMT_AUTO;
	modes[8] = modes[5];
	modes[8].format = TOOLCALL_FMT_AUTO;
	modes[9] = modes[6];
	modes[9].begins = TOOLCALL_BEGINS_AUTO;
	modes[10] = modes[7];
	modes[10].begins = TOOLCALL_BEGINS_AUTO;
	modes[10].reasoning = TOOLCALL_REASON_EVENTS;
	modes[11] = opts(1, 0, 0);
	modes[11].format = TOOLCALL_FMT_AUTO;
	modes[11].begins = TOOLCALL_BEGINS_YES;
	modes[11].reasoning = TOOLCALL_REASON_EVENTS;
	modes[12] = modes[8];
	modes[12].begins = TOOLCALL_BEGINS_AUTO;
	builtin_inputs();
	file_inputs();
	unit_ok(ninputs >= 30, unit_fmt("at least 30 inputs (%zu)", ninputs));
	for (i = 0; i < ninputs; i++)
		for (m = 0; m < 13; m++) {
			run(&modes[m], inputs[i].data, inputs[i].len,
			    FEED_WHOLE, &whole);
			unit_long(whole.failed, 0, unit_fmt("%s, %s: no write "
			    "error", inputs[i].name, mode_names[m]));
			if (m == 4 || m == 5 || m == 12)
				tools_ran(&whole, inputs[i].name, mode_names[m],
				    m != 4);
			for (how = FEED_BYTES; how < FEED_RANDOM + FEED_SEEDS;
			    how++) {
				if (how == FEED_READS)
					continue;
				run(&modes[m], inputs[i].data, inputs[i].len,
				    how, &cut);
				same(&whole, &cut, unit_fmt("%s, %s: whole "
				    "= %s", inputs[i].name, mode_names[m],
				    how_name(how)));
				run_free(&cut);
			}
			run_free(&whole);
		}
	for (i = 0; i < ninputs; i++) {
		free(inputs[i].name);
		free(inputs[i].data);
	}
	free(inputs);
	tooldefs_free(&defs);
}

/*
 * The thread keeps the conversation: each stretch of prose, between
 * calls and reasoning, is the assistant's message event, trimmed, before
 * the call that ends it; blank prose writes none; one longer than
 * max_size is cut between characters.
 */
#define MSG(s, it) \
	"{\"type\":\"message\",\"role\":\"assistant\",\"content\":\"" s \
	"\",\"iteration\":" #it "}\n"
#define TH_CALL(t, a, id, it) \
	"{\"type\":\"tool_call\",\"toolName\":\"" t "\",\"args\":" a \
	",\"toolCallId\":\"" id "\",\"iteration\":" #it \
	",\"serverName\":\"local\"}\n"

static void
test_thread_messages(void)
{
	struct toolcall_opts o = opts(0, 0, 0);

	o.thread = 1;
	o.iteration = 2;
	want(&o, " Let me look.\n<tool><tool_name>a</tool_name></tool>\n \n"
	    "<tool><tool_name>b</tool_name></tool>Then \"this\".\t\n",
	    MSG("Let me look.", 2) TH_CALL("a", "{}", "call-2-1", 2)
	    TH_CALL("b", "{}", "call-2-2", 2) MSG("Then \\\"this\\\".", 2),
	    "", DIAG_OK, "thread: prose around calls, trimmed, blank none");
	want(&o, "", "", "", DIAG_OK, "thread: no input, no event");
	want(&o, " \r\n\t", "", "", DIAG_OK, "thread: blank, no event");
	want(&o, "Before <think>x</think> after", MSG("Before", 2)
	    MSG("after", 2), "", DIAG_OK, "thread: a block ends a stretch");
	o.begins = TOOLCALL_BEGINS_AUTO;
	want(&o, "drafted<tool><tool_name>a</tool_name></tool></think>Now.",
	    MSG("Now.", 2), "", DIAG_OK, "thread: before a lone closer, "
	    "nothing");
	o.begins = TOOLCALL_BEGINS_NO;
	want(&o, "a\xff <tool><tool_name>a</tool_name></tool>",
	    MSG("a\xef\xbf\xbd", 2) TH_CALL("a", "{}", "call-2-1", 2),
	    FILE_NAME ":1:2: error: invalid UTF-8: byte 0xff at byte offset "
	    "1\n", DIAG_INVALID, "thread: a bad byte is U+FFFD");
	o.max_size = 8;
	/*
	 * Pieces of 8 bytes, cut before the é that byte 8 ends: put
	 * together they give the stretch, trimmed at its two ends only.
	 */
	want(&o, "  x\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9 yz \n",
	    MSG("x\xc3\xa9\xc3\xa9", 2) MSG("\xc3\xa9\xc3\xa9 yz ", 2), "",
	    DIAG_OK, "thread: cut at max_size, between characters");
	want(&o, "abcdefgh        ij", MSG("abcdefgh", 2) MSG("        ", 2)
	    MSG("ij", 2), "", DIAG_OK, "thread: a piece of white space in "
	    "the middle is kept");
	want(&o, "          abc", MSG("abc", 2), "", DIAG_OK, "thread: "
	    "white space at the start is trimmed, however long");
}

/*
 * Values as models write them, typed by tools-types.json's schema: one
 * argument's text, given as an element's text, as a hermes call's JSON
 * string and as an OpenAI call's, gives the same value.
 */
#define TYPES_FILE	"t/data/toolcall-parse/tools-types.json"

static const struct {
	const char	*key, *text, *json;
} lits[] = {
	{ "z", "None", "null" },
	{ "z", "'None'", "null" },
	{ "z", "\"null\"", "null" },
	{ "z", "nil", "\"nil\"" },
	{ "b", "True", "true" },
	{ "b", "'False'", "false" },
	{ "b", "\"true\"", "true" },
	{ "b", "yes", "\"yes\"" },
	{ "o", "{'k': 1}", "{\"k\":1}" },
	{ "o", "{\"k\": 2}", "{\"k\":2}" },
	{ "o", "\"{\\\"k\\\": 3}\"", "{\"k\":3}" },
	{ "o", "'{\"k\": 4}'", "{\"k\":4}" },
	{ "o", "{'k': '5'}", "{\"k\":5}" },
	{ "o", " {'k': 6,} # comment ", "{\"k\":6}" },
	{ "o", "dict(k=1)", "\"dict(k=1)\"" },
	{ "o", "__import__('os').system('id')",
	    "\"__import__('os').system('id')\"" },
	{ "o", "{'k': 1} {'k': 2}", "\"{'k': 1} {'k': 2}\"" },
	{ "o", "{'k': 1, 'k': 2}", "\"{'k': 1, 'k': 2}\"" },
	{ "a", "[1, 2]", "[1,2]" },
	{ "a", "(1, 2)", "[1,2]" },
	{ "a", "(1,)", "[1]" },
	{ "a", "1, 2", "[1,2]" },
	{ "a", "['3', 0x10]", "[3,16]" },
	{ "a", "\"[5]\"", "[5]" },
	{ "a", "{1, 2}", "[1,2]" },
	{ "a", "7", "[7]" },
	{ "a", "x", "[\"x\"]" },
	{ "tags", "['a', \"b\"]", "[\"a\",\"b\"]" },
	{ "tags", "solo", "[\"solo\"]" },
	{ "opt", "None", "null" },
	{ "opt", "3", "3" },
	{ "ta", "None", "\"None\"" },
	{ "s", "None", "\"None\"" },
	{ "s", "{'k': 1}", "\"{'k': 1}\"" },
	{ "free", "None", "\"None\"" },
};

/* The openai response of one call of typed with arguments args. */
static char *
openai_one(const char *args)
{
	json_t *r;
	char *s;

	r = json_pack("{s:s,s:[{s:i,s:{s:[{s:s,s:s,s:{s:s,s:s}}]},s:s}]}",
	    "object", "chat.completion", "choices", "index", 0, "message",
	    "tool_calls", "id", "c1", "type", "function", "function", "name",
	    "typed", "arguments", args, "finish_reason", "tool_calls");
	if (r == NULL || (s = json_dumps(r, JSON_COMPACT)) == NULL)
		unit_bail("json_pack");
	json_decref(r);
	return s;
}

static void
test_literals(void)
{
	struct tooldefs defs = { NULL, 0, NULL, 0 };
	struct toolcall_opts o = opts(0, 0, 0);
	struct buf in = BUF_INIT, out = BUF_INIT, what = BUF_INIT;
	json_t *s;
	char err[512], *js, *resp;
	size_t i;

	if (tooldefs_load(&defs, TYPES_FILE, err, sizeof(err)) != 0)
		unit_bail(err);
	o.tools = &defs;
	o.no_validate = 1;
	for (i = 0; i < sizeof(lits) / sizeof(lits[0]); i++) {
		buf_reset(&out);
		buf_printf(&out, CALL("typed", "{\"%s\":%s}"), lits[i].key,
		    lits[i].json);
		buf_reset(&in);
		buf_printf(&in, "<tool><tool_name>typed</tool_name><arguments>"
		    "<%s>%s</%s></arguments></tool>", lits[i].key,
		    lits[i].text, lits[i].key);
		o.format = TOOLCALL_FMT_TOOL;
		/* a label of its own: want() makes its own with unit_fmt */
		buf_reset(&what);
		buf_printf(&what, "<%s>%s</%s>", lits[i].key, lits[i].text,
		    lits[i].key);
		want(&o, buf_cstr(&in), buf_cstr(&out), "", DIAG_OK,
		    buf_cstr(&what));
		s = json_string(lits[i].text);
		js = json_dumps(s, JSON_ENCODE_ANY);
		buf_reset(&in);
		buf_printf(&in, "{\"%s\": %s}", lits[i].key, js);
		resp = openai_one(buf_cstr(&in));
		buf_reset(&in);
		buf_printf(&in, "<tool_call>{\"name\": \"typed\", \"arguments\": "
		    "{\"%s\": %s}}</tool_call>", lits[i].key, js);
		o.format = TOOLCALL_FMT_HERMES;
		buf_reset(&what);
		buf_printf(&what, "hermes \"%s\": %s", lits[i].key, js);
		want(&o, buf_cstr(&in), buf_cstr(&out), "", DIAG_OK,
		    buf_cstr(&what));
		o.format = TOOLCALL_FMT_OPENAI;
		buf_reset(&what);
		buf_printf(&what, "openai \"%s\": %s", lits[i].key, js);
		want(&o, resp, buf_cstr(&out), "", DIAG_OK, buf_cstr(&what));
		free(resp);
		free(js);
		json_decref(s);
	}
	/* a JSON value that is not a string keeps what the model wrote */
	o.format = TOOLCALL_FMT_HERMES;
	want(&o, "<tool_call>{\"name\": \"typed\", \"arguments\": {\"a\": 7, "
	    "\"s\": 1, \"o\": [\"x\"]}}</tool_call>", CALL("typed", "{\"a\":7,"
	    "\"s\":1,\"o\":[\"x\"]}"), "", DIAG_OK,
	    "hermes: values not strings are as written");
	tooldefs_free(&defs);
	buf_free(&in);
	buf_free(&out);
	buf_free(&what);
}

/*
 * --format openai: each response of t/data/toolcall-parse/openai gives
 * the same output, diagnostics and status fed whole or in pieces of any
 * size, in every mode; the thread keeps the server's ids.
 */
static void
test_openai(void)
{
	struct tooldefs defs = { NULL, 0, NULL, 0 };
	struct toolcall_opts modes[4];
	static const char *const names[4] = {
		"openai", "openai, events, reasoning events",
		"openai, tools, thread", "openai, events, max 64"
	};
	struct run whole, cut;
	struct buf b = BUF_INIT;
	char err[512], chunk[8192];
	glob_t g;
	size_t i, m, n;
	int how;
	FILE *f;

	if (tooldefs_load(&defs, TYPES_FILE, err, sizeof(err)) != 0)
		unit_bail(err);
	for (m = 0; m < 4; m++) {
		modes[m] = opts(m == 1 || m == 3, 0, m == 3 ? 64 : 0);
		modes[m].format = TOOLCALL_FMT_OPENAI;
	}
	modes[1].reasoning = TOOLCALL_REASON_EVENTS;
	modes[2].tools = &defs;
	modes[2].thread = 1;
	modes[2].iteration = 5;
	want(&modes[2], "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":"
	    "\" Sure. \",\"tool_calls\":[{\"index\":0,\"id\":\"x\\\"1\","
	    "\"function\":{\"name\":\"typed\",\"arguments\":\"{\\\"i\\\": \\\"4"
	    "\\\"}\"}}]}}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{"
	    "\"tool_calls\":[{\"index\":1,\"function\":{\"name\":\"typed\","
	    "\"arguments\":\"{}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\n"
	    "data: [DONE]\n\n", MSG("Sure.", 5) TH_CALL("typed", "{\"i\":4}",
	    "x\\\"1", 5) TH_CALL("typed", "{}", "call-5-2", 5), "", DIAG_OK,
	    "openai, thread: the server's ids, else ours");
	if (glob("t/data/toolcall-parse/openai/*.in", 0, NULL, &g) != 0)
		unit_bail("glob t/data/toolcall-parse/openai/*.in");
	unit_ok(g.gl_pathc >= 40, unit_fmt("at least 40 responses (%zu)",
	    g.gl_pathc));
	for (i = 0; i < g.gl_pathc; i++) {
		if ((f = fopen(g.gl_pathv[i], "rb")) == NULL)
			unit_bail(g.gl_pathv[i]);
		buf_reset(&b);
		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			buf_add(&b, chunk, n);
		fclose(f);
		for (m = 0; m < 4; m++) {
			run(&modes[m], b.data, b.len, FEED_WHOLE, &whole);
			unit_long(whole.failed, 0, unit_fmt("%s, %s: no write "
			    "error", g.gl_pathv[i], names[m]));
			for (how = FEED_BYTES; how < FEED_RANDOM + FEED_SEEDS;
			    how++) {
				if (how == FEED_READS)
					continue;
				run(&modes[m], b.data, b.len, how, &cut);
				same(&whole, &cut, unit_fmt("%s, %s: whole = "
				    "%s", g.gl_pathv[i], names[m],
				    how_name(how)));
				run_free(&cut);
			}
			run_free(&whole);
		}
	}
	globfree(&g);
	buf_free(&b);
	tooldefs_free(&defs);
}

/*
 * A model in a repetition loop writes an opening again and again, with
 * no closing markup (or half of it) between: each is a call cut short by
 * the next, reported at its place, and the good call after them is
 * read. Fed as toolcall-parse reads, the reader passes each byte a few
 * times at most, not again for every opening after it; in small pieces
 * it says the same as fed whole.
 */
struct repeated {
	int		 format;
	const char	*unit;		/* written again and again */
	size_t		 col;		/* the column of its error in it, */
	const char	*msg;		/* and the error */
	const char	*good;		/* then a call of tool "ok" */
};

#define TRUNC		"error: truncated tool call: a new "
#define OUTSIDE		"error: malformed tool call: text in <tool> outside " \
			"any element"
#define INVALID		"error: malformed tool call: not well-formed " \
			"(invalid token)"
#define TOOL_OK		"<tool><tool_name>ok</tool_name></tool>\n"
#define INVOKE_OK	"<invoke name=\"ok\"></invoke>\n"
#define GLM_OK		"<tool_call>ok</tool_call>\n"
#define HERMES_OK	"<tool_call>{\"name\": \"ok\"}</tool_call>\n"

static const struct repeated repeats[] = {
	{ TOOLCALL_FMT_TOOL, "<tool>\n", 1, TRUNC "<tool> began before "
	    "</tool>", TOOL_OK },
	{ TOOLCALL_FMT_TOOL, "<tool>", 1, TRUNC "<tool> began before </tool>",
	    TOOL_OK },
	{ TOOLCALL_FMT_TOOL, "<tool>text ", 7, OUTSIDE, TOOL_OK },
	{ TOOLCALL_FMT_TOOL, "<tool><![CDATA[<tool>]]>", 16, OUTSIDE,
	    TOOL_OK },
	{ TOOLCALL_FMT_TOOL, "<tool></too", 12, INVALID, TOOL_OK },
	{ TOOLCALL_FMT_INVOKE, "<invoke ", 1, TRUNC "<invoke began before "
	    "</invoke>", INVOKE_OK },
	{ TOOLCALL_FMT_INVOKE, "<invoke name=\"f\"></invoke", 1, TRUNC
	    "<invoke began before </invoke>", INVOKE_OK },
	{ TOOLCALL_FMT_QWEN3, "<function=f>", 1, TRUNC "<function= began "
	    "before </function>", "<function=ok></function>\n" },
	{ TOOLCALL_FMT_QWEN3, "<tool_call>\n", 1, TRUNC "<tool_call> began "
	    "before </function>", "<tool_call><function=ok></function>"
	    "</tool_call>\n" },
	{ TOOLCALL_FMT_QWEN3, "<seed:tool_call><function=f></function>", 1,
	    TRUNC "<seed:tool_call> began before </seed:tool_call>",
	    "<seed:tool_call><function=ok></function></seed:tool_call>\n" },
	{ TOOLCALL_FMT_GLM, "<tool_call>", 1, TRUNC "<tool_call> began "
	    "before </tool_call>", GLM_OK },
	{ TOOLCALL_FMT_GLM, "<tool_call>f</tool_call", 1, TRUNC "<tool_call> "
	    "began before </tool_call>", GLM_OK },
	{ TOOLCALL_FMT_HERMES, "<tool_call>", 1, TRUNC "<tool_call> began "
	    "before </tool_call>", HERMES_OK },
	{ TOOLCALL_FMT_HERMES, "<tool_call>{\"a\": \"</tool_call>\"}", 1,
	    TRUNC "<tool_call> began before </tool_call>", HERMES_OK },
	{ TOOLCALL_FMT_AUTO, "<tool_call> ", 1, TRUNC "<tool_call> began "
	    "before </tool_call>", HERMES_OK },
	{ TOOLCALL_FMT_AUTO, "<tool_call><invoke <function=f><tool>", 1,
	    TRUNC "<tool_call> began before </tool_call>", HERMES_OK },
	{ TOOLCALL_FMT_AUTO, "<invoke <tool_call><function=f>", 1, TRUNC
	    "<invoke began before </invoke>", INVOKE_OK },
	{ TOOLCALL_FMT_AUTO, "<tool><invoke ", 15, INVALID, TOOL_OK },
	{ TOOLCALL_FMT_AUTO, "<tool_call><tool>", 1, TRUNC "<tool_call> "
	    "began before </tool_call>", HERMES_OK },
};

/* The k-th line of s (from 1), in *line; whether there is one. */
static int
nth_line(const char *s, size_t k, struct buf *line)
{
	const char *e;

	for (; k > 1 && (s = strchr(s, '\n')) != NULL; k--)
		s++;
	if (s == NULL || *s == '\0')
		return 0;
	e = strchr(s, '\n');
	buf_reset(line);
	buf_add(line, s, e != NULL ? (size_t)(e - s) : strlen(s));
	return 1;
}

/* The unit as a test's name shows it: a newline as a backslash and n. */
static const char *
shown(const char *unit)
{
	static char s[64];
	size_t i = 0;

	for (; *unit != '\0' && i + 3 < sizeof(s); unit++)
		if (*unit == '\n') {
			s[i++] = '\\';
			s[i++] = 'n';
		} else
			s[i++] = *unit;
	s[i] = '\0';
	return s;
}

static void
test_repeats(void)
{
	const struct repeated *rp;
	struct toolcall_opts o = opts(0, 0, 0);
	struct buf in = BUF_INIT, line = BUF_INIT, want = BUF_INIT;
	struct run whole, cut;
	const char *name;
	size_t i, k, len, col;
	int how;

	for (i = 0; i < sizeof(repeats) / sizeof(repeats[0]); i++) {
		rp = &repeats[i];
		name = shown(rp->unit);
		o.format = rp->format;
		len = strlen(rp->unit);
		/* 256 KiB: seconds when each opening costs the rest again */
		k = ((size_t)256 << 10) / len;
		buf_reset(&in);
		repeat(&in, rp->unit, k);
		buf_adds(&in, rp->good);
		run(&o, in.data, in.len, FEED_READS, &whole);
		unit_mem(whole.out, whole.outlen, CALL("ok", "{}"), unit_fmt("%s "
		    "again and again: the good call after them", name));
		unit_long(whole.status, DIAG_INVALID, unit_fmt("%s again and "
		    "again: status 1", name));
		unit_long((long)lines(whole.err, strlen(whole.err)), (long)k,
		    unit_fmt("%s again and again: %zu errors", name, k));
		buf_reset(&want);
		buf_printf(&want, FILE_NAME ":1:%zu: %s", rp->col, rp->msg);
		nth_line(whole.err, 1, &line);
		unit_str(buf_cstr(&line), buf_cstr(&want), unit_fmt("%s again "
		    "and again: the first error", name));
		/* the last at its place: a line each, or one line of them */
		buf_reset(&want);
		col = rp->col + (k - 1) * len;
		if (strchr(rp->unit, '\n') != NULL)
			buf_printf(&want, FILE_NAME ":%zu:%zu: %s", k, rp->col,
			    rp->msg);
		else
			buf_printf(&want, FILE_NAME ":1:%zu: %s", col, rp->msg);
		nth_line(whole.err, k, &line);
		unit_str(buf_cstr(&line), buf_cstr(&want), unit_fmt("%s again "
		    "and again: the last error", name));
		unit_ok(whole.scanned <= 4 * (unsigned long long)in.len,
		    unit_fmt("%s again and again: %llu bytes scanned of %zu, "
		    "at most 4 times", name, whole.scanned, in.len));
		unit_ok(whole.work <= 3 * (unsigned long long)in.len,
		    unit_fmt("%s again and again: expat scans %llu bytes of "
		    "%zu, at most 3 times", name, whole.work, in.len));
		run(&o, in.data, in.len, FEED_RANDOM + 3, &cut);
		same(&whole, &cut, unit_fmt("%s again and again: 64 KiB = "
		    "%s", name, how_name(FEED_RANDOM + 3)));
		run_free(&cut);
		run_free(&whole);

		/* a few of them, cut anywhere */
		buf_reset(&in);
		buf_adds(&in, "a\n");
		repeat(&in, rp->unit, 20);
		buf_adds(&in, rp->good);
		buf_adds(&in, "b\n");
		for (o.events = 0; o.events <= 1; o.events++) {
			run(&o, in.data, in.len, FEED_WHOLE, &whole);
			for (how = FEED_BYTES; how < FEED_RANDOM + FEED_SEEDS;
			    how++) {
				run(&o, in.data, in.len, how, &cut);
				same(&whole, &cut, unit_fmt("20 of %s%s: whole "
				    "= %s", name, o.events ? ", events" :
				    "", how_name(how)));
				run_free(&cut);
			}
			run_free(&whole);
		}
		o.events = 0;
	}
	buf_free(&in);
	buf_free(&line);
	buf_free(&want);
}

/*
 * One long call of a dialect, its text free of markup or its opening
 * followed by a long run of white space (under auto, before the bytes
 * that say which dialect it is): fed as toolcall-parse reads, the look
 * for its end goes on where the last one stopped, once over each byte.
 */
static void
test_long_calls(void)
{
	static const struct {
		int		 format;
		const char	*head, *fill, *tail, *call;
	} longs[] = {
		{ TOOLCALL_FMT_INVOKE, "<invoke name=\"f\"><parameter name=\"a\">",
		    "x", "</parameter></invoke>", "{\"a\":\"" },
		{ TOOLCALL_FMT_QWEN3, "<tool_call><function=f><parameter=a>",
		    "x", "</function></tool_call>", "{\"a\":\"" },
		{ TOOLCALL_FMT_GLM, "<tool_call>f<arg_key>a</arg_key>"
		    "<arg_value>", "x", "</arg_value></tool_call>",
		    "{\"a\":\"" },
		{ TOOLCALL_FMT_HERMES, "<tool_call>{\"name\": \"f\", "
		    "\"arguments\": {\"a\": \"", "x", "\"}}</tool_call>",
		    "{\"a\":\"" },
		{ TOOLCALL_FMT_AUTO, "<tool_call>", " ", "{\"name\": \"f\"}"
		    "</tool_call>", "{}" },
		{ TOOLCALL_FMT_AUTO, "<tool_call>", "\n", "<function=f>"
		    "</function></tool_call>", "{}" },
	};
	struct toolcall_opts o = opts(0, 0, 0);
	struct buf in = BUF_INIT, want = BUF_INIT;
	struct run r;
	size_t i, k = (size_t)1 << 20;

	for (i = 0; i < sizeof(longs) / sizeof(longs[0]); i++) {
		o.format = longs[i].format;
		buf_reset(&in);
		buf_adds(&in, longs[i].head);
		repeat(&in, longs[i].fill, k);
		buf_adds(&in, longs[i].tail);
		buf_reset(&want);
		buf_adds(&want, "{\"server_name\":\"local\",\"tool_name\":"
		    "\"f\",\"arguments\":");
		buf_adds(&want, longs[i].call);
		if (strcmp(longs[i].call, "{}") != 0) {
			repeat(&want, longs[i].fill, k);
			buf_adds(&want, "\"}");
		}
		buf_adds(&want, "}\n");
		run(&o, in.data, in.len, FEED_READS, &r);
		unit_mem(r.out, r.outlen, buf_cstr(&want), unit_fmt("%s, 1 MiB "
		    "of %s: the call", longs[i].head, shown(longs[i].fill)));
		unit_str(r.err, "", unit_fmt("%s, 1 MiB of %s: no diagnostics",
		    longs[i].head, shown(longs[i].fill)));
		unit_ok(r.scanned <= 3 * (unsigned long long)in.len,
		    unit_fmt("%s, 1 MiB of %s: %llu bytes scanned of %zu, at "
		    "most 3 times", longs[i].head, shown(longs[i].fill),
		    r.scanned, in.len));
		run_free(&r);
	}
	buf_free(&in);
	buf_free(&want);
}

/*
 * Reasoning (<think> ... </think>, <seed:think> ... </seed:think>) is
 * never read for calls: the exact output, diagnostics and status of each
 * case, and the same in pieces of every size and cut at every byte, so
 * that each marker is cut at each of its bytes.
 */

#define RS		TOOLCALL_REASON_SKIP
#define RE		TOOLCALL_REASON_EVENTS
#define RC		TOOLCALL_REASON_CALLS
#define BN		TOOLCALL_BEGINS_NO
#define BY		TOOLCALL_BEGINS_YES
#define BA		TOOLCALL_BEGINS_AUTO
#define EV_REASON(s)	"{\"type\":\"reasoning\",\"text\":\"" s "\"}\n"
#define UNCLOSED(lc, m)	FILE_NAME ":" lc ": warning: reasoning never " \
			"closed: input ended before " m "\n"
#define STRAY(lc, m)	FILE_NAME ":" lc ": warning: " m " with no " \
			"reasoning open, read as prose\n"

static struct toolcall_opts
ropts(int events, int reasoning, int begins, int format)
{
	struct toolcall_opts o = opts(events, 0, 0);

	o.reasoning = reasoning;
	o.begins = begins;
	o.format = format;
	return o;
}

/* Whether two runs gave the same, without a word. */
static int
alike(const struct run *a, const struct run *b)
{
	return a->outlen == b->outlen && memcmp(a->out, b->out,
	    a->outlen) == 0 && strcmp(a->err, b->err) == 0 &&
	    a->status == b->status && a->failed == b->failed;
}

/*
 * want, and the same in pieces of every size from 1 byte to the whole,
 * and in two pieces cut at every byte.
 */
static void
want_all(const struct toolcall_opts *o, const char *in, const char *out,
    const char *err, int status, const char *what)
{
	struct run whole, r;
	size_t n = strlen(in), k;
	int how, ok = 1;

	want(o, in, out, err, status, what);
	run(o, in, n, FEED_WHOLE, &whole);
	for (k = 0; ok && k <= 2 * n; k++) {
		how = k < n ? FEED_SIZE + (int)k + 1 : FEED_CUT + (int)(k - n);
		run(o, in, n, how, &r);
		if (!alike(&whole, &r)) {
			same(&whole, &r, unit_fmt("%s: whole = %s", what,
			    how_name(how)));
			ok = 0;
		}
		run_free(&r);
	}
	if (ok)
		unit_ok(1, unit_fmt("%s: the same in pieces of every size "
		    "and cut at every byte", what));
	run_free(&whole);
}

/*
 * Fed a byte at a time, line k of the output comes out once at[k]
 * bytes have been fed (strlen(in) + 1: at the end).
 */
static void
want_at(const struct toolcall_opts *o, const char *in, const size_t *at,
    size_t nat, const char *what)
{
	struct toolcall *t;
	char *out = NULL;
	size_t len = 0, n = strlen(in), i, k = 0, seen = 0;
	int ok = 1;
	FILE *f;

	if ((f = open_memstream(&out, &len)) == NULL)
		unit_bail("open_memstream");
	unit_capture_begin();
	if ((t = toolcall_new(o, f, FILE_NAME)) == NULL)
		unit_bail("toolcall_new");
	for (i = 0; i <= n; i++) {
		if (i < n)
			toolcall_feed(t, in + i, 1);
		else
			toolcall_end(t);
		fflush(f);
		for (; seen < len; seen++)
			if (out[seen] == '\n' && (k >= nat || at[k++] != i + 1))
				ok = 0;
	}
	toolcall_free(t);
	fclose(f);
	unit_capture_end();
	unit_ok(ok && k == nat, what);
	free(out);
}

/* The offset just past the first needle in in, from the offset from on. */
static size_t
past(const char *in, const char *needle, size_t from)
{
	const char *p = strstr(in + from, needle);

	if (p == NULL)
		unit_bail(needle);
	return (size_t)(p - in) + strlen(needle);
}

#define DS_CALLS	"<｜tool▁calls▁begin｜>"

/* A call of each format, to tool "bad" or to tool "ok". */
static const struct {
	int		 format;
	const char	*bad, *ok, *okline;
} fcalls[] = {
	{ TOOLCALL_FMT_TOOL, "<tool><tool_name>bad</tool_name></tool>",
	    "<tool><tool_name>ok</tool_name></tool>", CALL("ok", "{}") },
	{ TOOLCALL_FMT_QWEN3, "<tool_call>\n<function=bad>\n<parameter=a>\n"
	    "1\n</parameter>\n</function>\n</tool_call>",
	    "<function=ok></function>", CALL("ok", "{}") },
	{ TOOLCALL_FMT_QWEN3, "<seed:tool_call><function=bad></function>"
	    "</seed:tool_call>", "<seed:tool_call><function=ok></function>"
	    "</seed:tool_call>", CALL("ok", "{}") },
	{ TOOLCALL_FMT_INVOKE, "<invoke name=\"bad\"></invoke>",
	    "<invoke name=\"ok\"><parameter name=\"a\">1</parameter>"
	    "</invoke>", CALL("ok", "{\"a\":\"1\"}") },
	{ TOOLCALL_FMT_GLM, "<tool_call>bad</tool_call>",
	    "<tool_call>ok\n<arg_key>a</arg_key><arg_value>1</arg_value>"
	    "</tool_call>", CALL("ok", "{\"a\":\"1\"}") },
	{ TOOLCALL_FMT_HERMES, "<tool_call>{\"name\": \"bad\"}</tool_call>",
	    "<tool_call>{\"name\": \"ok\", \"arguments\": {\"a\": 1}}"
	    "</tool_call>", CALL("ok", "{\"a\":1}") },
	{ TOOLCALL_FMT_AUTO, "<tool_call>{\"name\": \"bad\"}</tool_call>"
	    "<invoke name=\"bad\"></invoke><tool><tool_name>bad</tool_name>"
	    "</tool><tool_call>bad</tool_call>", "<tool_call>\n<function=ok>"
	    "</function>\n</tool_call>", CALL("ok", "{}") },
	/* the dialects of open models: each form, drafted and made */
	{ TOOLCALL_FMT_HARMONY, "<|channel|>commentary to=functions.bad "
	    "<|constrain|>json<|message|>{}<|call|>", "<|start|>assistant"
	    "<|channel|>commentary to=functions.ok <|constrain|>json"
	    "<|message|>{\"a\": 1}<|call|>", CALL("ok", "{\"a\":1}") },
	{ TOOLCALL_FMT_DEEPSEEK, DS_CALLS "<｜tool▁call▁begin｜>bad"
	    "<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>", DS_CALLS
	    "<｜tool▁call▁begin｜>function<｜tool▁sep｜>ok\n```json\n"
	    "{\"a\": 1}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
	    CALL("ok", "{\"a\":1}") },
	{ TOOLCALL_FMT_DEEPSEEK, "<｜tool▁call▁begin｜>bad<｜tool▁sep｜>{}"
	    "<｜tool▁call▁end｜>", "<｜tool▁call▁begin｜>ok<｜tool▁sep｜>"
	    "{\"a\": 1}<｜tool▁call▁end｜>", CALL("ok", "{\"a\":1}") },
	{ TOOLCALL_FMT_MISTRAL, "[TOOL_CALLS]bad[ARGS]{}",
	    "[TOOL_CALLS]ok[ARGS]{\"a\": 1}", CALL("ok", "{\"a\":1}") },
	{ TOOLCALL_FMT_MISTRAL, "[TOOL_CALLS][{\"name\": \"bad\", "
	    "\"arguments\": {}}]", "[TOOL_CALLS] [{\"name\": \"ok\", "
	    "\"arguments\": {\"a\": 1}}]", CALL("ok", "{\"a\":1}") },
	{ TOOLCALL_FMT_LLAMA3, "{\"name\": \"bad\", \"parameters\": {}}",
	    "{\"name\": \"ok\", \"parameters\": {\"a\": 1}}",
	    CALL("ok", "{\"a\":1}") },
	{ TOOLCALL_FMT_LLAMA3, "<|python_tag|>{\"name\": \"bad\", "
	    "\"parameters\": {}}; {\"name\": \"bad\", \"parameters\": {}}",
	    "<|python_tag|>{\"name\": \"ok\", \"parameters\": {\"a\": 1}}"
	    "<|eom_id|>", CALL("ok", "{\"a\":1}") },
	{ TOOLCALL_FMT_KIMI, "<|tool_calls_section_begin|><|tool_call_begin|>"
	    "functions.bad:0<|tool_call_argument_begin|>{}<|tool_call_end|>"
	    "<|tool_calls_section_end|>", "<|tool_calls_section_begin|>"
	    "<|tool_call_begin|>functions.ok:0<|tool_call_argument_begin|>"
	    "{\"a\": 1}<|tool_call_end|><|tool_calls_section_end|>",
	    CALL("ok", "{\"a\":1}") },
	{ TOOLCALL_FMT_PYTHONIC, "[bad(), bad(x=[1])]", "[ok(a=1)]",
	    CALL("ok", "{\"a\":1}") },
	{ TOOLCALL_FMT_PYTHONIC, "<|python_start|>[bad()]<|python_end|>",
	    "<|python_start|>[ok(a=1)]<|python_end|>",
	    CALL("ok", "{\"a\":1}") },
	{ TOOLCALL_FMT_AUTO, "<|channel|>commentary to=functions.bad"
	    "<|message|>{}<|call|>" DS_CALLS "<｜tool▁call▁begin｜>bad"
	    "<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
	    "[TOOL_CALLS]bad[ARGS]{}<|python_tag|>{\"name\": \"bad\", "
	    "\"parameters\": {}}\n<|tool_call_begin|>functions.bad:0"
	    "<|tool_call_argument_begin|>{}<|tool_call_end|>"
	    "<|python_start|>[bad()]<|python_end|>", "[ok(a=1)]",
	    CALL("ok", "{\"a\":1}") },
	/* cut short and left open: nothing of it is an error either */
	{ TOOLCALL_FMT_HARMONY, "<|channel|>commentary to=functions.bad"
	    "<|message|>{\"a\": ", "<|channel|>commentary to=functions.ok"
	    "<|message|>{}<|call|>", CALL("ok", "{}") },
	{ TOOLCALL_FMT_KIMI, "<|tool_call_begin|>functions.bad:0"
	    "<|tool_call_argument_begin|>{", "<|tool_call_begin|>"
	    "functions.ok:0<|tool_call_argument_begin|>{}<|tool_call_end|>",
	    CALL("ok", "{}") },
	{ TOOLCALL_FMT_PYTHONIC, "<|python_start|>[bad(a='", "[ok()]",
	    CALL("ok", "{}") },
	{ TOOLCALL_FMT_TOOL, "<tool><tool_name>bad</tool_n",
	    "<tool><tool_name>ok</tool_name></tool>", CALL("ok", "{}") },
	{ TOOLCALL_FMT_HERMES, "<tool_call>{\"name\": \"bad\", <tool_call>",
	    "<tool_call>{\"name\": \"ok\"}</tool_call>", CALL("ok", "{}") },
};
#define NFCALLS		(sizeof(fcalls) / sizeof(fcalls[0]))

static void
test_reason_blocks(void)
{
	static const char *const kinds[][2] = {
		{ "<think>", "</think>" }, { "<seed:think>", "</seed:think>" }
	};
	static const int begins[] = { BN, BA, BY };
	struct toolcall_opts o;
	struct buf in = BUF_INIT, want_out = BUF_INIT;
	size_t i, k, b;

	for (i = 0; i < NFCALLS; i++)
		for (k = 0; k < 2; k++)
			for (b = 0; b < 3; b++) {
				o = ropts(0, RS, begins[b], fcalls[i].format);
				buf_reset(&in);
				buf_adds(&in, kinds[k][0]);
				buf_adds(&in, "\nLet me try ");
				buf_adds(&in, fcalls[i].bad);
				buf_adds(&in, " but no.\n");
				buf_adds(&in, kinds[k][1]);
				buf_adds(&in, "\n");
				buf_adds(&in, fcalls[i].ok);
				buf_adds(&in, "\n");
				want_all(&o, buf_cstr(&in), fcalls[i].okline,
				    "", DIAG_OK, unit_fmt("format %d, %s, "
				    "begins %d: the call in the block is not "
				    "read, the one after is", fcalls[i].format,
				    kinds[k][0], begins[b]));
			}
	/* what was dropped, read as before: the drafts are calls */
	for (i = 0; i < 7; i++) {
		o = ropts(0, RC, BN, fcalls[i].format);
		buf_reset(&in);
		buf_adds(&in, "<think>");
		buf_adds(&in, fcalls[i].bad);
		buf_adds(&in, "</think>\n");
		buf_adds(&in, fcalls[i].ok);
		buf_reset(&want_out);
		if (i == 6)
			buf_adds(&want_out, CALL("bad", "{}") CALL("bad", "{}")
			    CALL("bad", "{}") CALL("bad", "{}"));
		else if (i == 1)
			buf_adds(&want_out, CALL("bad", "{\"a\":\"1\"}"));
		else
			buf_adds(&want_out, CALL("bad", "{}"));
		buf_adds(&want_out, fcalls[i].okline);
		want_all(&o, buf_cstr(&in), buf_cstr(&want_out), "", DIAG_OK,
		    unit_fmt("format %d, --reasoning calls: the draft is a "
		    "call, as before", fcalls[i].format));
	}
	buf_free(&in);
	buf_free(&want_out);
}

/*
 * The output begins inside reasoning that the template opened: only a
 * lone closing marker appears. yes and auto drop what comes before it,
 * a call left open there too; no reads it, and warns of the marker.
 */
static void
test_reason_opened(void)
{
	static const char *const closers[] = { "</think>", "</seed:think>" };
	struct toolcall_opts o;
	struct buf in = BUF_INIT, want_out = BUF_INIT, err = BUF_INIT;
	size_t i, k;

	for (i = 0; i < NFCALLS; i++)
		for (k = 0; k < 2; k++) {
			buf_reset(&in);
			buf_adds(&in, "I could call ");
			buf_adds(&in, fcalls[i].bad);
			buf_adds(&in, "\n");
			buf_adds(&in, closers[k]);
			buf_adds(&in, "\n\n");
			buf_adds(&in, fcalls[i].ok);
			o = ropts(0, RS, BY, fcalls[i].format);
			want_all(&o, buf_cstr(&in), fcalls[i].okline, "",
			    DIAG_OK, unit_fmt("format %d, lone %s, yes: what "
			    "comes before is reasoning", fcalls[i].format,
			    closers[k]));
			o.begins = BA;
			want_all(&o, buf_cstr(&in), fcalls[i].okline, "",
			    DIAG_OK, unit_fmt("format %d, lone %s, auto: what "
			    "was held is dropped", fcalls[i].format,
			    closers[k]));
		}
	/* no: the draft is a call, the marker prose, with a warning */
	o = ropts(0, RS, BN, TOOLCALL_FMT_AUTO);
	want_all(&o, "I could call <tool_call>{\"name\": \"bad\"}</tool_call>"
	    "\n</think>\n<tool_call>ok</tool_call>",
	    CALL("bad", "{}") CALL("ok", "{}"), STRAY("2:1", "</think>"),
	    DIAG_OK, "lone </think>, no: the calls before it are written");
	want_all(&o, "a </seed:think> b", "", STRAY("1:3", "</seed:think>"),
	    DIAG_OK, "lone </seed:think>, no: a warning");
	/* a call left open by the reasoning, its error not said */
	o = ropts(0, RS, BA, TOOLCALL_FMT_AUTO);
	want_all(&o, "Use <tool_call>{\"name\": \"bad\", \"x\": [1,\n"
	    "</think>\n<tool_call>{\"name\": \"ok\"}</tool_call>\n",
	    CALL("ok", "{}"), "", DIAG_OK, "auto: a call left open in the "
	    "reasoning is dropped with it");
	want_all(&o, "<tool><tool_name>bad</tool_name><arguments><a></b>"
	    "</arguments></tool>\xff</think><tool><tool_name>ok</tool_name>"
	    "</tool>", CALL("ok", "{}"), "", DIAG_OK, "auto: the errors "
	    "before a lone </think> are dropped, and their status");
	/* the marker inside what was read as a call ends the reasoning */
	o = ropts(0, RS, BA, TOOLCALL_FMT_HERMES);
	want_all(&o, "<tool_call>{\"name\": \"bad\", \"arguments\": {\"x\": "
	    "\"</think>\"}}</tool_call>\n<tool_call>{\"name\": \"ok\"}"
	    "</tool_call>\n",
	    CALL("ok", "{}"), "", DIAG_OK, "auto: a lone </think> in a "
	    "hermes string ends the reasoning too");
	o.begins = BN;
	want_all(&o, "<tool_call>{\"name\": \"bad\", \"arguments\": {\"x\": "
	    "\"</think>\"}}</tool_call>\n<tool_call>{\"name\": \"ok\"}"
	    "</tool_call>\n",
	    CALL("bad", "{\"x\":\"</think>\"}") CALL("ok", "{}"), "", DIAG_OK,
	    "no: </think> in a call is its content");
	/* positions go on past the reasoning dropped */
	o = ropts(0, RS, BA, TOOLCALL_FMT_TOOL);
	want_all(&o, "ab\n\xc3\xa9</think>\xc3\xa9<tool><tool_name>t"
	    "</tool_nam></tool>", "", FILE_NAME ":2:31: error: malformed "
	    "tool call: mismatched tag\n", DIAG_INVALID, "auto: positions "
	    "count the reasoning dropped");
	o.begins = BY;
	want_all(&o, "ab\n\xc3\xa9</think>\xc3\xa9<tool><tool_name>t"
	    "</tool_nam></tool>", "", FILE_NAME ":2:31: error: malformed "
	    "tool call: mismatched tag\n", DIAG_INVALID, "yes: positions "
	    "count the reasoning dropped");
	/* yes: with no closing marker, all of it; either closes it */
	want_all(&o, "<tool><tool_name>bad</tool_name></tool>\n", "",
	    UNCLOSED("1:1", "</think>"), DIAG_OK, "yes: no closing marker, "
	    "all of it is reasoning");
	want_all(&o, "a</seed:think><tool><tool_name>ok</tool_name></tool>",
	    CALL("ok", "{}"), "", DIAG_OK, "yes: </seed:think> ends it too");
	want_all(&o, "\xef\xbb\xbf</think>x<tool><tool_name>t</tool_nam>"
	    "</tool>", "", FILE_NAME ":1:30: error: malformed tool call: "
	    "mismatched tag\n", DIAG_INVALID, "yes: a byte order mark is "
	    "neither reasoning nor a column");
	buf_free(&in);
	buf_free(&want_out);
	buf_free(&err);
}

/*
 * Under auto, what comes before the first marker is held: a <think>
 * in prose, or the end, writes it in its order, errors included; a
 * <think> inside a call is its content and tells nothing.
 */
static void
test_reason_held(void)
{
	struct toolcall_opts o = ropts(1, RS, BA, TOOLCALL_FMT_TOOL);
	const char *held = "Hi\n<tool><tool_name>a</tool_nam></tool>\n"
	    "<tool><tool_name>b</tool_name></tool> & \xff\n";
	const char *events = EV_TEXT("Hi\\n") "{\"type\":\"error\","
	    "\"message\":\"malformed tool call: mismatched tag\",\"line\":2,"
	    "\"column\":21,\"raw\":\"<tool><tool_name>a</tool_nam></tool>\"}\n"
	    EV_TEXT("\\n") EV_CALL("b", "{}") EV_TEXT(" & \xef\xbf\xbd\\n");
	const char *errs = FILE_NAME ":2:21: error: malformed tool call: "
	    "mismatched tag\n" FILE_NAME ":3:41: error: invalid UTF-8: byte "
	    "0xff at byte offset 80\n";
	struct buf in = BUF_INIT, out = BUF_INIT;

	want_all(&o, held, events, errs, DIAG_INVALID, "auto, events: held "
	    "to the end, written in order");
	buf_adds(&in, held);
	buf_adds(&in, "<think>r</think><tool><tool_name>c</tool_name></tool>");
	buf_adds(&out, events);
	buf_adds(&out, EV_CALL("c", "{}"));
	want_all(&o, buf_cstr(&in), buf_cstr(&out), errs, DIAG_INVALID,
	    "auto, events: <think> writes what was held, in order");
	buf_reset(&in);
	buf_adds(&in, held);
	buf_adds(&in, "</think>\n<tool><tool_name>c</tool_name></tool>");
	want_all(&o, buf_cstr(&in), EV_TEXT("\\n") EV_CALL("c", "{}"), "",
	    DIAG_OK, "auto, events: a lone </think> drops what was held");
	o.reasoning = RE;
	buf_reset(&out);
	buf_adds(&out, EV_REASON("Hi\\n") EV_REASON("<tool><tool_name>a"
	    "</tool_nam></tool>\\n") EV_REASON("<tool><tool_name>b"
	    "</tool_name></tool> & \xef\xbf\xbd\\n") EV_TEXT("\\n")
	    EV_CALL("c", "{}"));
	want_all(&o, buf_cstr(&in), buf_cstr(&out), "", DIAG_OK,
	    "auto, reasoning events: what was held is written as reasoning");
	o.begins = BY;
	want_all(&o, buf_cstr(&in), buf_cstr(&out), "", DIAG_OK,
	    "yes, reasoning events: the same");
	o.begins = BA;
	want_all(&o, "</think>x", EV_TEXT("x"), "", DIAG_OK,
	    "auto, reasoning events: no empty reasoning");

	/* a <think> inside a call is content: still undecided after it */
	o = ropts(0, RS, BA, TOOLCALL_FMT_TOOL);
	want_all(&o, "<tool><tool_name>a</tool_name><arguments><x><![CDATA["
	    "<think>]]></x></arguments></tool>\n</think>\n<tool><tool_name>b"
	    "</tool_name></tool>", CALL("b", "{}"), "", DIAG_OK,
	    "auto: <think> inside a call tells nothing");
	want_all(&o, "<tool><tool_name>a</tool_name><arguments><x><![CDATA["
	    "<think>]]></x></arguments></tool>", CALL("a",
	    "{\"x\":\"<think>\"}"), "", DIAG_OK, "auto: <think> inside a "
	    "call is its content");
	/* thread: the ids count the calls written */
	o.thread = 1;
	o.iteration = 2;
	want_all(&o, "<tool><tool_name>a</tool_name></tool><tool>x</tool>"
	    "</think><tool><tool_name>b</tool_name></tool>",
	    "{\"type\":\"tool_call\",\"toolName\":\"b\",\"args\":{},"
	    "\"toolCallId\":\"call-2-1\",\"iteration\":2,\"serverName\":"
	    "\"local\"}\n", "", DIAG_OK, "auto, thread: the dropped calls "
	    "and errors take no id");
	o.reasoning = RE;
	want_all(&o, "<think>r</think><tool><tool_name>b</tool_name></tool>",
	    "{\"type\":\"tool_call\",\"toolName\":\"b\",\"args\":{},"
	    "\"toolCallId\":\"call-2-1\",\"iteration\":2,\"serverName\":"
	    "\"local\"}\n", "", DIAG_OK, "thread: no reasoning in it");
	buf_free(&in);
	buf_free(&out);
}

/*
 * Under auto, a large value is held where the call's reader put it, not
 * copied: written in its order with what comes around it, the same as
 * under no, and dropped with the rest before a lone </think>.
 */
static void
test_reason_large(void)
{
	struct toolcall_opts no = ropts(1, RS, BN, TOOLCALL_FMT_AUTO);
	struct toolcall_opts au = ropts(1, RS, BA, TOOLCALL_FMT_AUTO);
	struct buf in = BUF_INIT, big = BUF_INIT;
	struct run a, b;
	const char *tail[] = { "", "<think>r</think><tool><tool_name>z"
	    "</tool_name></tool>" };
	size_t i, k, body = 0;
	int how;

	repeat(&big, "\xc3\xa9\"x", (3 << 20) / 4);
	for (k = 0; k < 2; k++) {
		buf_reset(&in);
		buf_adds(&in, "a\n<tool><tool_name>one</tool_name><arguments>"
		    "<c><![CDATA[");
		buf_add(&in, big.data, big.len);
		buf_adds(&in, "]]></c><d>");
		buf_add(&in, big.data, big.len);
		buf_adds(&in, "</d></arguments></tool>\n<tool><tool_name>x"
		    "</tool_nam></tool><tool_call>two\n<arg_key>k</arg_key>"
		    "<arg_value>");
		buf_add(&in, big.data, big.len);
		buf_adds(&in, "</arg_value></tool_call> & \xff\n");
		body = in.len;
		buf_adds(&in, tail[k]);
		for (i = 0; i < 2; i++) {
			au.events = no.events = (int)i;
			how = i == 0 ? FEED_WHOLE : FEED_RANDOM + 3;
			run(&no, in.data, in.len, how, &a);
			run(&au, in.data, in.len, how, &b);
			same(&a, &b, unit_fmt("auto, %s, 3 MiB values, %s: "
			    "written as under no", i ? "events" : "calls",
			    k ? "then <think>" : "to the end"));
			unit_ok(lines(b.out, b.outlen) >= 2, unit_fmt("auto, "
			    "3 MiB values: %zu lines written",
			    lines(b.out, b.outlen)));
			run_free(&a);
			run_free(&b);
		}
	}
	in.len = body;
	buf_adds(&in, "</think><tool><tool_name>y</tool_name></tool>");
	run(&au, in.data, in.len, FEED_READS, &b);
	unit_mem(b.out, b.outlen, EV_CALL("y", "{}"), "auto, 3 MiB values "
	    "held before a lone </think>: dropped");
	unit_str(b.err, "", "auto, 3 MiB values dropped: nothing said");
	run_free(&b);
	buf_free(&in);
	buf_free(&big);
}

/* Blocks repeated, nested, left open; their text with events. */
static void
test_reason_shapes(void)
{
	struct toolcall_opts o = ropts(0, RS, BA, TOOLCALL_FMT_TOOL);
	struct toolcall_opts e = ropts(1, RE, BA, TOOLCALL_FMT_TOOL);
	struct toolcall_opts c = ropts(1, RC, BN, TOOLCALL_FMT_TOOL);

	want_all(&o, "<think>a<think>b</think>c</think>d<tool><tool_name>ok"
	    "</tool_name></tool>", CALL("ok", "{}"), STRAY("1:26",
	    "</think>"), DIAG_OK, "nested: the first </think> ends it");
	want_all(&e, "<think>a<think>b</think>c</think>d", EV_REASON("a"
	    "<think>b") EV_TEXT("c</think>d"), STRAY("1:26", "</think>"),
	    DIAG_OK, "nested, events: the second <think> is reasoning");
	want_all(&o, "<think>x</think><tool><tool_name>a</tool_name></tool>"
	    "<think><tool><tool_name>bad</tool_name></tool></think><tool>"
	    "<tool_name>b</tool_name></tool><think>y</think>",
	    CALL("a", "{}") CALL("b", "{}"), "", DIAG_OK,
	    "repeated blocks between calls");
	want_all(&o, "<seed:think>a</think><tool><tool_name>bad</tool_name>"
	    "</tool></seed:think><tool><tool_name>ok</tool_name></tool>",
	    CALL("ok", "{}"), "", DIAG_OK, "a block ends at its own kind's "
	    "marker");
	want_all(&o, "<think>a</seed:think><tool><tool_name>bad</tool_name>"
	    "</tool>", "", UNCLOSED("1:1", "</think>"), DIAG_OK,
	    "<think> is not ended by </seed:think>");
	want_all(&o, "a <seed:think>\nb <tool><tool_name>bad</tool_name>"
	    "</tool>", "", UNCLOSED("1:3", "</seed:think>"), DIAG_OK,
	    "left open: nothing in it is read, a warning at its opening");
	want_all(&e, "a <think>b\nc", EV_TEXT("a ") EV_REASON("b\\n")
	    EV_REASON("c"), UNCLOSED("1:3", "</think>"), DIAG_OK,
	    "left open, events: its text is reasoning");
	want_all(&e, "<think></think><think>\n</think>",
	    EV_REASON("\\n"), "", DIAG_OK, "events: no empty reasoning");
	want_all(&e, "<think>\xc3\xa9 \xff \xed\xa0\x80 \xe2\x82</think>\n",
	    EV_REASON("\xc3\xa9 \xef\xbf\xbd \xef\xbf\xbd \xef\xbf\xbd")
	    EV_TEXT("\\n"), "", DIAG_OK, "reasoning is not read: its invalid "
	    "UTF-8 is no error, and U+FFFD with events");
	want_all(&o, "<think", "", "", DIAG_OK, "half a marker at the end "
	    "is prose");
	want_all(&o, "<think>a</think", "", UNCLOSED("1:1", "</think>"),
	    DIAG_OK, "half a closer at the end is reasoning");
	want_all(&o, "<thinking><tool><tool_name>ok</tool_name></tool>"
	    "</thinking>", CALL("ok", "{}"), "", DIAG_OK,
	    "<thinking> is not a marker");
	want_all(&o, "x</think<tool><tool_name>ok</tool_name></tool>",
	    CALL("ok", "{}"), "", DIAG_OK, "half a closer is no closer");
	/* --reasoning calls: the markers are prose, as before */
	want_all(&c, "<think>a<tool><tool_name>t</tool_name></tool></think>",
	    EV_TEXT("<think>a") EV_CALL("t", "{}") EV_TEXT("</think>"), "",
	    DIAG_OK, "--reasoning calls: markers are text, drafts calls");
	c.begins = BA;
	want_all(&c, "a</think>", EV_TEXT("a</think>"), "", DIAG_OK,
	    "--reasoning calls: no begins, no warning");
}

/*
 * Once the stream has told, a call comes out the moment its closing
 * markup is fed; under auto, before that, at the end.
 */
static void
test_reason_stream(void)
{
	struct toolcall_opts o = ropts(0, RS, BA, TOOLCALL_FMT_AUTO);
	const char *in;
	size_t at[3];

	in = "<think>x <tool_call>bad</tool_call></think>\n<tool_call>{"
	    "\"name\": \"a\"}</tool_call> then <invoke name=\"b\"></invoke>";
	at[0] = past(in, "</tool_call> then", 0) - 5;
	at[1] = strlen(in);
	want_at(&o, in, at, 2, "auto, after <think>...</think>: each call "
	    "at once");
	in = "r <tool_call>bad</tool_call></think>\n<tool_call>{\"name\": "
	    "\"a\"}</tool_call> <tool><tool_name>b</tool_name></tool> .";
	at[0] = past(in, "</tool_call> <tool>", 0) - 7;
	at[1] = past(in, "</tool>", 0);
	want_at(&o, in, at, 2, "auto, after a lone </think>: each call at "
	    "once");
	o.begins = BY;
	want_at(&o, in, at, 2, "yes, after </think>: each call at once");
	o.begins = BN;
	in = "<tool_call>{\"name\": \"a\"}</tool_call> x";
	at[0] = past(in, "</tool_call>", 0);
	want_at(&o, in, at, 1, "no: a call at once");
	o.begins = BA;
	at[0] = strlen(in) + 1;
	want_at(&o, in, at, 1, "auto, no marker: the call at the end");
	in = "<tool_call>{\"name\": \"a\"}</tool_call> <think>";
	at[0] = strlen(in);
	want_at(&o, in, at, 1, "auto: the held call with the <think>");
}

static void
test_reasoning(void)
{
	test_reason_blocks();
	test_reason_opened();
	test_reason_held();
	test_reason_shapes();
	test_reason_stream();
	test_reason_large();
}

/*
 * The dialects of open models, read from t/data/toolcall-parse/dialects
 * (written after the published examples of each model family and the
 * tests of vLLM's and SGLang's parsers): every DIALECT-CASE.out, a whole
 * model output, gives the events its DIALECT-CASE.calls says (what the
 * reader of test_tcdialect, which knows no dialect but lib/tcdialect's
 * table, reads), and every DIALECT-CASE.txt, one call, the call its
 * .json says; each the same in pieces of every size and cut at every
 * byte, and held under --begins-in-reasoning auto.
 */
#define DDIR		"t/data/toolcall-parse/dialects"

/* The format of a fixture's name: its dialect's, or auto. */
static int
fixture_format(const char *path)
{
	const char *base = strrchr(path, '/') + 1, *d;
	size_t len;
	int i;

	for (i = 1; (d = tcd_dialect_name(i)) != NULL; i++) {
		len = strlen(d);
		if (strncmp(base, d, len) == 0 && base[len] == '-')
			return i;
	}
	return TOOLCALL_FMT_AUTO;
}

/* [[KEY, VALUE]...] as the reader writes it: a key repeated, an array. */
static json_t *
pairs_object(json_t *pairs)
{
	json_t *o = json_object(), *pair, *k, *v, *was, *a;
	size_t i;

	json_array_foreach(pairs, i, pair) {
		k = json_array_get(pair, 0);
		v = json_array_get(pair, 1);
		was = json_object_get(o, json_string_value(k));
		if (was == NULL) {
			json_object_set(o, json_string_value(k), v);
			continue;
		}
		if (!json_is_array(was)) {
			a = json_array();
			json_array_append(a, was);
			json_object_set_new(o, json_string_value(k), a);
			was = a;
		}
		json_array_append(was, v);
	}
	return o;
}

/* A fixture's call, {"name", "arguments"}: its id and pairs undone. */
static json_t *
fixture_call(json_t *c)
{
	json_t *pairs = json_object_get(c, "args");

	if (pairs != NULL)
		return json_pack("{s:O, s:o}", "name", json_object_get(c,
		    "name"), "arguments", pairs_object(pairs));
	return json_pack("{s:O, s:O}", "name", json_object_get(c, "name"),
	    "arguments", json_object_get(c, "arguments"));
}

/* Appends text of kind to the events, to the last one when of its kind. */
static void
add_text(json_t *ev, const char *kind, const char *s, size_t n)
{
	json_t *last = json_array_get(ev, json_array_size(ev) - 1), *prev;
	struct buf b = BUF_INIT;

	if (last != NULL && (prev = json_object_get(last, kind)) != NULL) {
		buf_add(&b, json_string_value(prev), json_string_length(prev));
		buf_add(&b, s, n);
		json_object_set_new(last, kind, json_stringn(b.data, b.len));
		buf_free(&b);
		return;
	}
	json_array_append_new(ev, json_pack("{s:s%}", kind, s, n));
}

/*
 * A run's records (events, reasoning events) and its warnings, as a
 * fixture's .calls has them: the text and reasoning of a stretch joined,
 * each call's name and arguments, each error's message and place, and
 * the warnings at the end (their explanation after the markup cut).
 */
static json_t *
run_events(const struct run *r)
{
	json_t *ev = json_array(), *j;
	json_error_t e;
	const char *p, *nl, *type, *w;
	size_t len;

	for (p = r->out; p < r->out + r->outlen; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(r->out + r->outlen - p));
		j = json_loadb(p, (size_t)(nl - p), 0, &e);
		if (j == NULL && json_error_code(&e) ==
		    json_error_numeric_overflow)
			j = json_loadb(p, (size_t)(nl - p),
			    JSON_DECODE_INT_AS_REAL, &e);
		if (j == NULL)
			unit_bail("a record that is not JSON");
		type = json_string_value(json_object_get(j, "type"));
		if (strcmp(type, "text") == 0 || strcmp(type, "reasoning") == 0)
			add_text(ev, type, json_string_value(json_object_get(j,
			    "text")), json_string_length(json_object_get(j,
			    "text")));
		else if (strcmp(type, "tool_call") == 0)
			json_array_append_new(ev, json_pack("{s:{s:O, s:O}}",
			    "call", "name", json_object_get(j, "tool_name"),
			    "arguments", json_object_get(j, "arguments")));
		else
			json_array_append_new(ev, json_pack("{s:O, s:O, s:O}",
			    "error", json_object_get(j, "message"), "line",
			    json_object_get(j, "line"), "column",
			    json_object_get(j, "column")));
		json_decref(j);
	}
	for (p = r->err; (w = strstr(p, ": warning: ")) != NULL; p = nl + 1) {
		w += 11;
		nl = strchr(w, '\n');
		len = (size_t)(nl - w);
		if (strstr(w, ": the call") != NULL &&
		    strstr(w, ": the call") < nl)
			len = (size_t)(strstr(w, ": the call") - w);
		json_array_append_new(ev, json_pack("{s:s%}", "warning", w,
		    len));
	}
	return ev;
}

/*
 * The messages of the reference reader's own errors, and the beginning
 * of this reader's for them (the parsers' messages are the same).
 */
static const char *const reference_errors[][2] = {
	{ "truncated: input ended in the call",
	    "truncated tool call: input ended before " },
	{ "truncated: input ended before <|message|>",
	    "truncated harmony message: input ended before <|message|>" },
	{ "text in a section of calls", "malformed " },
	{ "two calls without their separator",
	    "malformed mistral call: two calls with no \",\"" },
};

/*
 * A fixture's .calls as this reader says it: calls without their ids,
 * errors at their line and column, the reference reader's own messages
 * taken as this reader's where these begin as they should.
 */
static json_t *
fixture_events(json_t *want, json_t *got, const char *in)
{
	json_t *ev = json_array(), *x, *g, *c;
	const char *msg, *have;
	unsigned long line, col;
	size_t i, k;

	json_array_foreach(want, i, x) {
		if ((c = json_object_get(x, "call")) != NULL) {
			json_array_append_new(ev, json_pack("{s:o}", "call",
			    fixture_call(c)));
			continue;
		}
		if ((msg = json_string_value(json_object_get(x, "error"))) ==
		    NULL) {
			json_array_append(ev, x);
			continue;
		}
		utf8_position(in, (size_t)json_integer_value(json_object_get(x,
		    "offset")), &line, &col);
		g = json_array_get(got, i);
		have = g != NULL ? json_string_value(json_object_get(g,
		    "error")) : NULL;
		for (k = 0; have != NULL && k < sizeof(reference_errors) /
		    sizeof(reference_errors[0]); k++)
			if (strcmp(msg, reference_errors[k][0]) == 0 &&
			    strncmp(have, reference_errors[k][1],
			    strlen(reference_errors[k][1])) == 0)
				msg = have;
		json_array_append_new(ev, json_pack("{s:s, s:I, s:I}", "error",
		    msg, "line", (json_int_t)line, "column", (json_int_t)col));
	}
	return ev;
}

/* The run fed whole, and the same in pieces of every size and cut anywhere. */
static void
every_piece(const struct toolcall_opts *o, const char *in, size_t n,
    const struct run *whole, const char *what)
{
	struct run r;
	size_t k;
	int how, ok = 1;

	for (k = 0; ok && k <= 2 * n; k++) {
		how = k < n ? FEED_SIZE + (int)k + 1 : FEED_CUT + (int)(k - n);
		run(o, in, n, how, &r);
		if (!alike(whole, &r)) {
			same(whole, &r, unit_fmt("%s: whole = %s", what,
			    how_name(how)));
			ok = 0;
		}
		run_free(&r);
	}
	if (ok)
		unit_ok(1, unit_fmt("%s: the same in pieces of every size and "
		    "cut at every byte", what));
}

static void
test_dialect_outputs(void)
{
	struct toolcall_opts o = ropts(1, RE, BN, 0);
	struct run whole, held;
	json_error_t e;
	json_t *want, *got, *exp;
	glob_t g;
	char *in, *a, *b, path[4096];
	size_t i, n, len;

	if (glob(DDIR "/*.out", 0, NULL, &g) != 0)
		unit_bail("glob " DDIR "/*.out");
	for (i = 0; i < g.gl_pathc; i++) {
		in = unit_fixture(g.gl_pathv[i], &n);
		len = strlen(g.gl_pathv[i]);
		snprintf(path, sizeof(path), "%.*s.calls", (int)(len - 4),
		    g.gl_pathv[i]);
		if ((want = json_load_file(path, 0, &e)) == NULL)
			unit_bail(path);
		o.format = fixture_format(g.gl_pathv[i]);
		o.begins = BN;
		run(&o, in, n, FEED_WHOLE, &whole);
		got = run_events(&whole);
		exp = fixture_events(want, got, in);
		a = json_dumps(got, JSON_COMPACT | JSON_ENSURE_ASCII);
		b = json_dumps(exp, JSON_COMPACT | JSON_ENSURE_ASCII);
		unit_str(a, b, unit_fmt("%s: the events of its .calls",
		    g.gl_pathv[i]));
		every_piece(&o, in, n, &whole, g.gl_pathv[i]);
		/* held to the end, or to harmony's reasoning: the same */
		o.begins = BA;
		run(&o, in, n, FEED_WHOLE, &held);
		same(&whole, &held, unit_fmt("%s: under --begins-in-reasoning "
		    "auto, the same", g.gl_pathv[i]));
		run_free(&held);
		run_free(&whole);
		free(a);
		free(b);
		json_decref(want);
		json_decref(got);
		json_decref(exp);
		free(in);
	}
	unit_ok(g.gl_pathc >= 50, unit_fmt("%zu outputs in " DDIR,
	    g.gl_pathc));
	globfree(&g);
}

/*
 * Under auto, one output that writes the calls of every dialect, each
 * after another's, and harmony's channels: reasoning, a call holding its
 * own closing markup in a string, and the final answer as prose.
 */
static const char mixed_in[] =
	"[first(n=1)]\n"
	"Prose, then <tool_call>{\"name\": \"hermes\", \"arguments"
	"\": {\"q\": \"</tool_call>\"}}</tool_call>\n"
	"<|channel|>analysis<|message|>Maybe <tool_call>{\"name\": "
	"\"bad\", \"arguments\": {}}</tool_call>.<|end|><|start|>as"
	"sistant<|channel|>commentary to=functions.harmony <|constr"
	"ain|>json<|message|>{\"m\": \"<|call|>\"}<|call|>\n"
	"<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>deepseek<｜tool▁sep｜"
	">{\"d\": 1}<｜tool▁call▁end｜><｜tool▁calls▁end｜>\n"
	"[TOOL_CALLS]mistral[ARGS]{\"x\": []} and [TOOL_CALLS][{\"n"
	"ame\": \"mistral2\", \"arguments\": {}}]\n"
	"<|python_tag|>{\"name\": \"llama3\", \"parameters\": {\"u"
	"\": \"é\"}}; {\"name\": \"llama3b\", \"parameters\": {}}<|"
	"eom_id|>\n"
	"<|tool_calls_section_begin|><|tool_call_begin|>functions.k"
	"imi:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool"
	"_calls_section_end|>\n"
	"<|python_start|>[py(s='[x]'), py2()]<|python_end|>\n"
	"<invoke name=\"inv\"><parameter name=\"p\">1</parameter></"
	"invoke> <function=qw></function> <tool_call>glm<arg_key>k<"
	"/arg_key><arg_value>v</arg_value></tool_call>\n"
	"<|channel|>final<|message|>Done.<|return|>\n";
static const char mixed_out[] =
	"{\"type\":\"tool_call\",\"server_name\":\"local\",\"tool_n"
	"ame\":\"first\",\"arguments\":{\"n\":1}}\n"
	"{\"type\":\"text\",\"text\":\"\\n\"}\n"
	"{\"type\":\"text\",\"text\":\"Prose, then \"}\n"
	"{\"type\":\"tool_call\",\"server_name\":\"local\",\"tool_n"
	"ame\":\"hermes\",\"arguments\":{\"q\":\"</tool_call>\"}}\n"
	"{\"type\":\"text\",\"text\":\"\\n\"}\n"
	"{\"type\":\"reasoning\",\"text\":\"Maybe <tool_call>{\\\"n"
	"ame\\\": \\\"bad\\\", \\\"arguments\\\": {}}</tool_call>."
	"\"}\n"
	"{\"type\":\"tool_call\",\"server_name\":\"local\",\"tool_n"
	"ame\":\"harmony\",\"arguments\":{\"m\":\"<|call|>\"}}\n"
	"{\"type\":\"text\",\"text\":\"\\n\"}\n"
	"{\"type\":\"tool_call\",\"server_name\":\"local\",\"tool_n"
	"ame\":\"deepseek\",\"arguments\":{\"d\":1}}\n"
	"{\"type\":\"text\",\"text\":\"\\n\"}\n"
	"{\"type\":\"tool_call\",\"server_name\":\"local\",\"tool_n"
	"ame\":\"mistral\",\"arguments\":{\"x\":[]}}\n"
	"{\"type\":\"text\",\"text\":\" and \"}\n"
	"{\"type\":\"tool_call\",\"server_name\":\"local\",\"tool_n"
	"ame\":\"mistral2\",\"arguments\":{}}\n"
	"{\"type\":\"text\",\"text\":\"\\n\"}\n"
	"{\"type\":\"tool_call\",\"server_name\":\"local\",\"tool_n"
	"ame\":\"llama3\",\"arguments\":{\"u\":\"é\"}}\n"
	"{\"type\":\"tool_call\",\"server_name\":\"local\",\"tool_n"
	"ame\":\"llama3b\",\"arguments\":{}}\n"
	"{\"type\":\"text\",\"text\":\"\\n\"}\n"
	"{\"type\":\"tool_call\",\"server_name\":\"local\",\"tool_n"
	"ame\":\"kimi\",\"arguments\":{}}\n"
	"{\"type\":\"text\",\"text\":\"\\n\"}\n"
	"{\"type\":\"tool_call\",\"server_name\":\"local\",\"tool_n"
	"ame\":\"py\",\"arguments\":{\"s\":\"[x]\"}}\n"
	"{\"type\":\"tool_call\",\"server_name\":\"local\",\"tool_n"
	"ame\":\"py2\",\"arguments\":{}}\n"
	"{\"type\":\"text\",\"text\":\"\\n\"}\n"
	"{\"type\":\"tool_call\",\"server_name\":\"local\",\"tool_n"
	"ame\":\"inv\",\"arguments\":{\"p\":\"1\"}}\n"
	"{\"type\":\"text\",\"text\":\" \"}\n"
	"{\"type\":\"tool_call\",\"server_name\":\"local\",\"tool_n"
	"ame\":\"qw\",\"arguments\":{}}\n"
	"{\"type\":\"text\",\"text\":\" \"}\n"
	"{\"type\":\"tool_call\",\"server_name\":\"local\",\"tool_n"
	"ame\":\"glm\",\"arguments\":{\"k\":\"v\"}}\n"
	"{\"type\":\"text\",\"text\":\"\\n\"}\n"
	"{\"type\":\"text\",\"text\":\"Done.\"}\n"
	"{\"type\":\"text\",\"text\":\"\\n\"}\n";

static void
test_dialect_mixed(void)
{
	struct toolcall_opts o = ropts(1, RE, BN, TOOLCALL_FMT_AUTO);

	want_all(&o, mixed_in, mixed_out, "", DIAG_OK, "every dialect in "
	    "one output, under auto");
}

/* Every DIALECT-CASE.txt: the call its .json says, however it is fed. */
static void
test_dialect_calls(void)
{
	struct toolcall_opts o = opts(1, 0, 0);
	struct run whole;
	json_error_t e;
	json_t *want, *got, *exp;
	glob_t g;
	char *in, *a, *b, path[4096];
	size_t i, n, len, ncalls = 0;

	if (glob(DDIR "/*.txt", 0, NULL, &g) != 0)
		unit_bail("glob " DDIR "/*.txt");
	for (i = 0; i < g.gl_pathc; i++) {
		in = unit_fixture(g.gl_pathv[i], &n);
		len = strlen(g.gl_pathv[i]);
		snprintf(path, sizeof(path), "%.*s.json", (int)(len - 4),
		    g.gl_pathv[i]);
		/* as the call's JSON is read: integers past int64 as reals */
		want = json_load_file(path, 0, &e);
		if (want == NULL && json_error_code(&e) ==
		    json_error_numeric_overflow)
			want = json_load_file(path, JSON_DECODE_INT_AS_REAL,
			    &e);
		if (want == NULL)
			unit_bail(path);
		o.format = fixture_format(g.gl_pathv[i]);
		if (o.format == TOOLCALL_FMT_MISTRAL &&
		    in[strspn(in, " \t\r\n")] == '{') {
			/* one object of a list: the list in its markup */
			a = xmalloc(n + sizeof("[TOOL_CALLS][]"));
			n = (size_t)sprintf(a, "[TOOL_CALLS][%s]", in);
			free(in);
			in = a;
		}
		run(&o, in, n, FEED_WHOLE, &whole);
		got = run_events(&whole);
		exp = json_pack("[{s:o}]", "call", fixture_call(want));
		a = json_dumps(got, JSON_COMPACT | JSON_ENSURE_ASCII);
		b = json_dumps(exp, JSON_COMPACT | JSON_ENSURE_ASCII);
		unit_str(a, b, unit_fmt("%s: the call of its .json",
		    g.gl_pathv[i]));
		unit_str(whole.err, "", unit_fmt("%s: nothing said",
		    g.gl_pathv[i]));
		every_piece(&o, in, n, &whole, g.gl_pathv[i]);
		ncalls++;
		run_free(&whole);
		free(a);
		free(b);
		json_decref(want);
		json_decref(got);
		json_decref(exp);
		free(in);
	}
	unit_ok(ncalls >= 70, unit_fmt("%zu calls in " DDIR, ncalls));
	globfree(&g);
}

/*
 * qwen3's parameter boundaries: the calls of t/data/toolcall-parse/
 * dialects/bound, whose values hold qwen3's own markup, read with the
 * tools of its tools.json (CASE.with: each value whole) and without
 * (CASE.without: today's rule), under --format qwen3 and auto, the
 * same in pieces of every size and cut at every byte.
 */
#define BDIR		DDIR "/bound"

static void
test_qwen3_bounds(void)
{
	static const char *const cases[] = {
		"close-parameter", "unknown-parameter", "whole-call",
		"function-close", "two-parameters"
	};
	static const int fmts[] = { TOOLCALL_FMT_QWEN3, TOOLCALL_FMT_AUTO };
	struct tooldefs defs = { NULL, 0, NULL, 0 };
	struct toolcall_opts o;
	struct run whole;
	char err[512], path[256], what[128], *in, *want;
	size_t i, f, t, n, wn;
	int ok;

	if (tooldefs_load(&defs, BDIR "/tools.json", err, sizeof(err)) != 0)
		unit_bail(err);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(path, sizeof(path), BDIR "/%s.txt", cases[i]);
		in = unit_fixture(path, &n);
		for (t = 0; t < 2; t++) {
			snprintf(path, sizeof(path), BDIR "/%s.%s", cases[i],
			    t ? "with" : "without");
			want = unit_fixture(path, &wn);
			for (f = 0; f < 2; f++) {
				o = ropts(0, RS, BN, fmts[f]);
				o.tools = t ? &defs : NULL;
				snprintf(what, sizeof(what),
				    "qwen3 %s, %s, %s tools", cases[i],
				    f ? "auto" : "qwen3", t ? "with" : "without");
				run(&o, in, n, FEED_WHOLE, &whole);
				/* (unit_fixture drops the file's last newline) */
				ok = whole.outlen == wn + 1 &&
				    memcmp(whole.out, want, wn) == 0;
				unit_ok(ok, unit_fmt("%s: its output", what));
				if (!ok)
					unit_show("got:", whole.out,
					    whole.outlen, 0);
				if (t)
					unit_ok(whole.status == 0 &&
					    *whole.err == '\0',
					    unit_fmt("%s: nothing said", what));
				every_piece(&o, in, n, &whole, what);
				run_free(&whole);
			}
			free(want);
		}
		free(in);
	}
	tooldefs_free(&defs);
}

int
main(void)
{
	test_seed();
	test_calls();
	test_types();
	test_cdata();
	test_big_cdata();
	test_events();
	test_long_line();
	test_errors();
	test_write_error();
	test_depth();
	test_items();
	test_linear();
	test_long_token_error();
	test_surrogate();
	test_repeats();
	test_long_calls();
	test_chunking();
	test_reasoning();
	test_thread_messages();
	test_literals();
	test_openai();
	test_dialect_outputs();
	test_dialect_calls();
	test_dialect_mixed();
	test_qwen3_bounds();
	return unit_done();
}
