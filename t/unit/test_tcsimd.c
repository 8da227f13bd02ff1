/*
 * Unit tests of lib/toolcall/tcsimd: the hermes objects simdjson takes
 * give the bytes jansson's reading gives (escapes, unicode, numbers,
 * nesting to jansson's limit of 2048 levels); every case it must decline
 * is declined, its buffers left as they were; and tcd_parse_text, which
 * calls it, reads every call, taken or declined, as tcd_parse does: the
 * same name, the same arguments' text, the same error at the same offset
 * (every call above, every hermes fixture of t/data/toolcall-parse/
 * dialects and every prefix of one). The reader is linked in, so it
 * takes from the first byte; in a build without simdjson (configure
 * --with-simdjson=no) every call is declined, and read alike all the
 * same.
 */
#include "config.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/io.h"
#include "base/jsonw.h"
#include "json/jsimd.h"
#include "toolcall/tcdialect.h"
#include "toolcall/tcsimd.h"
#include "toolcall/tcsimd_int.h"
#include "unit.h"

#define DIR	"t/data/toolcall-parse/dialects"

/* What tcsimd_hermes says of a call the reader takes, when there is one. */
#ifdef HAVE_SIMDJSON
#define TAKES	1
#else
#define TAKES	0
#endif

/*
 * Whether tcd_parse_text reads the call s (n bytes) as tcd_parse does:
 * NULL, or what differs.
 */
static const char *
differs(const char *s, size_t n)
{
	struct buf want = BUF_INIT, got = BUF_INIT;
	struct tcd_call a, b;
	const char *na, *nb, *why = NULL;
	size_t la, lb;
	int ra, rb;

	ra = tcd_parse(TCD_HERMES, s, n, &a);
	rb = tcd_parse_text(TCD_HERMES, s, n, &b);
	if (ra != rb)
		why = "the status";
	else if (ra != 0) {
		if (strcmp(a.err, b.err) != 0)
			why = "the error";
		else if (a.erroff != b.erroff)
			why = "the offset";
	} else {
		na = tcd_name(&a, s, &la);
		nb = tcd_name(&b, s, &lb);
		jsonw_exact(&want, a.json);
		if (b.json != NULL)
			jsonw_exact(&got, b.json);
		else
			buf_add(&got, b.argtext.data, b.argtext.len);
		if (la != lb || memcmp(na, nb, la) != 0)
			why = "the name";
		else if (a.namebuf == NULL ? b.namebuf != NULL ||
		    b.name != a.name : b.namebuf == NULL)
			why = "where the name is";
		else if (got.len != want.len || memcmp(got.data, want.data,
		    got.len) != 0)
			why = "the arguments";
	}
	tcd_call_free(&a);
	tcd_call_free(&b);
	buf_free(&want);
	buf_free(&got);
	return why;
}

/* The call <tool_call>JSON</tool_call>: read alike by both. */
static void
same_call(const char *json, size_t n, const char *what)
{
	struct buf s = BUF_INIT;
	const char *why;

	buf_adds(&s, "<tool_call>");
	buf_add(&s, json, n);
	buf_adds(&s, "</tool_call>");
	why = differs(s.data, s.len);
	unit_ok(why == NULL, unit_fmt("%s: read as tcd_parse reads it", what));
	if (why != NULL)
		printf("#   %s differs\n", why);
	buf_free(&s);
}

/* A JSON object simdjson takes: the same bytes as jansson's path. */
static void
taken(const char *json, size_t n, const char *what)
{
	struct buf name = BUF_INIT, args = BUF_INIT, s = BUF_INIT;
	struct tcd_call c;

	buf_adds(&name, "n");
	buf_adds(&args, "a");
	unit_long(tcsimd_hermes(json, n, &name, &args), TAKES,
	    unit_fmt(TAKES ? "%s: taken" : "%s: declined, no simdjson", what));
	if (!TAKES) {
		unit_mem(name.data, name.len, "n", unit_fmt("%s: the name's "
		    "buffer as it was", what));
		unit_mem(args.data, args.len, "a", unit_fmt("%s: the "
		    "arguments' buffer as it was", what));
	}
	buf_adds(&s, "<tool_call>");
	buf_add(&s, json, n);
	buf_adds(&s, "</tool_call>");
	if (tcd_parse_text(TCD_HERMES, s.data, s.len, &c) == 0)
		unit_ok(TAKES ? c.json == NULL && c.argtext.data != NULL :
		    c.json != NULL, unit_fmt(TAKES ? "%s: tcd_parse_text "
		    "gives text" : "%s: tcd_parse_text gives a tree", what));
	else
		unit_ok(0, unit_fmt("%s: tcd_parse_text reads it", what));
	tcd_call_free(&c);
	same_call(json, n, what);
	buf_free(&name);
	buf_free(&args);
	buf_free(&s);
}

/* One that it declines: its buffers as they were; jansson's reading. */
static void
declined(const char *json, size_t n, const char *what)
{
	struct buf name = BUF_INIT, args = BUF_INIT;

	buf_adds(&name, "n");
	buf_adds(&args, "a");
	unit_long(tcsimd_hermes(json, n, &name, &args), 0,
	    unit_fmt("%s: declined", what));
	unit_mem(name.data, name.len, "n", unit_fmt("%s: the name's buffer "
	    "as it was", what));
	unit_mem(args.data, args.len, "a", unit_fmt("%s: the arguments' "
	    "buffer as it was", what));
	same_call(json, n, what);
	buf_free(&name);
	buf_free(&args);
}

#define TAKEN(json, what)	taken(json, sizeof(json) - 1, what)
#define DECLINED(json, what)	declined(json, sizeof(json) - 1, what)

static void
test_taken(void)
{
	TAKEN("{\"name\":\"f\",\"arguments\":{\"s\":\"\\\"\\\\\\/\\b\\f\\n"
	    "\\r\\t\\u0001\\u001F\\u007f\\u00e9\\u20AC\\ud83d\\ude00\"}}",
	    "escapes, control characters, \\u escapes and a surrogate pair");
	TAKEN("{\"name\":\"f\",\"arguments\":{\"s\":\"na\xc3\xafve \xe4\xb8"
	    "\xad\xe6\x96\x87 \xf0\x9f\x9a\x80 \xed\x9f\xbf\"}}",
	    "UTF-8 as it is, U+D7FF too");
	TAKEN("{\"name\":\"f\",\"arguments\":{\"z\":\"a\\u0000b\"}}",
	    "\\u0000 in a value kept");
	TAKEN("{\"name\":\"f\",\"arguments\":{\"a\":-0,\"b\":0.1,\"c\":1e21,"
	    "\"d\":1E-7,\"e\":9007199254740993,\"f\":-0.0,\"g\":1.0,"
	    "\"h\":-9223372036854775808,\"i\":9223372036854775807,"
	    "\"j\":5e-324,\"k\":1e-400,\"l\":0.000001,\"m\":1.5e300,"
	    "\"n\":123456789012345678901234567890.5,\"o\":2E+0,"
	    "\"p\":-1e-7,\"q\":100,\"r\":1e20,\"s\":0.30000000000000004}}",
	    "numbers: integers exact, reals as JavaScript writes them");
	TAKEN("{\"name\":\"f\",\"arguments\":{\"a\":[1,[2,[]],{\"b\":{}},"
	    "null,true,false,\"\"],\"c\":{\"d\":[{}]}}}",
	    "nested arrays and objects");
	TAKEN("{\"name\":\"f\",\"arguments\":{}}", "an empty object");
	TAKEN("{\"name\":\"f\"}", "no arguments: an empty object");
	TAKEN("{\"name\":\"f\",\"parameters\":{\"a\":1}}",
	    "\"parameters\" for \"arguments\"");
	TAKEN("{ \"name\" :\t\"f\" ,\r\n\"arguments\" : { \"a\" : [ 1 , "
	    "2 ] } }", "white space between the tokens");
	TAKEN("{\"arguments\":{\"a\":1},\"name\":\"f\"}", "the name last");
	TAKEN("{\"name\":\"g\\u0065t\",\"arguments\":{\"a\":1}}",
	    "an escaped name");
	TAKEN("{\"name\":\"a\\u0000b\"}", "\\u0000 in the name");
	TAKEN("{\"id\":\"call_1\",\"type\":\"function\",\"name\":\"f\","
	    "\"arguments\":{\"a\":1},\"extra\":[{\"x\":18}]}",
	    "other members ignored");
	TAKEN("{\"name\":\"f\",\"arguments\":{\"2\":\"b\",\"10\":\"c\","
	    "\"1\":\"a\"}}", "members in their order, array indexes too");
	TAKEN("{\"name\":\"f\",\"arguments\":{\"k01\":1,\"k02\":2,\"k03\":3,"
	    "\"k04\":4,\"k05\":5,\"k06\":6,\"k07\":7,\"k08\":8,\"k09\":9,"
	    "\"k10\":10,\"k11\":11,\"k12\":12,\"k13\":13,\"k14\":14,"
	    "\"k15\":15,\"k16\":16,\"k17\":17,\"k18\":18}}",
	    "an object of 18 keys");
	TAKEN("{\"name\":\"f\",\"arguments\":{\"a\":\"x\",\"\\u0061\\u0062\":"
	    "\"y\",\"b\":1}}", "keys that differ once decoded");
}

static void
test_declined(void)
{
	DECLINED("{\"name\":\"f\",\"arguments\":{\"a\":9007199254740993,"
	    "\"b\":18446744073709551616}}",
	    "an integer past uint64: every integer a real in jansson");
	DECLINED("{\"name\":\"f\",\"arguments\":{\"a\":9007199254740993,"
	    "\"b\":9223372036854775808}}",
	    "an integer past int64 within uint64");
	DECLINED("{\"name\":\"f\",\"arguments\":{\"a\":-9223372036854775809}}",
	    "an integer below int64");
	DECLINED("{\"id\":18446744073709551616,\"name\":\"f\",\"arguments\":"
	    "{\"a\":9007199254740993}}",
	    "an integer past int64 in an ignored member");
	DECLINED("{\"name\":\"f\",\"arguments\":\"{\\\"a\\\":1}\"}",
	    "\"arguments\" given as a JSON string");
	DECLINED("{\"name\":\"f\",\"arguments\":{\"a\\u0000\":1}}",
	    "\\u0000 in a key");
	DECLINED("{\"name\":\"f\",\"arguments\":{\"a\":\"\\udc00\"}}",
	    "a lone low surrogate");
	DECLINED("{\"name\":\"f\",\"arguments\":{\"a\":\"\\ud800\"}}",
	    "a lone high surrogate");
	DECLINED("{\"name\":\"f\",\"arguments\":{\"a\":\"\\ud800\\u0041\"}}",
	    "a high surrogate before no low one");
	DECLINED("{\"name\":\"f\",\"arguments\":{\"a\":1e400}}",
	    "1e400, out of range");
	DECLINED("{\"name\":\"f\",\"arguments\":{\"a\":-1e400}}",
	    "-1e400, out of range");
	DECLINED("{\"name\":\"f\",\"name\":\"g\"}", "a duplicate key at the top");
	DECLINED("{\"name\":\"f\",\"arguments\":{\"a\":1,\"a\":2}}",
	    "a duplicate key in the arguments");
	DECLINED("{\"name\":\"f\",\"arguments\":{\"a\":[{\"b\":1,\"\\u0062\":"
	    "2}]}}", "a duplicate key, escaped, deep inside");
	DECLINED("{\"id\":{\"x\":1,\"x\":1},\"name\":\"f\"}",
	    "a duplicate key in an ignored member");
	DECLINED("{\"name\":\"f\",\"arguments\":{\"k01\":1,\"k02\":2,\"k03\":3,"
	    "\"k04\":4,\"k05\":5,\"k06\":6,\"k07\":7,\"k08\":8,\"k09\":9,"
	    "\"k10\":10,\"k11\":11,\"k12\":12,\"k13\":13,\"k14\":14,"
	    "\"k15\":15,\"k16\":16,\"k17\":17,\"k03\":18}}",
	    "a duplicate key in an object of 18 keys");
	DECLINED("{\"arguments\":{}}", "no name");
	DECLINED("{\"name\":1}", "a name that is not a string");
	DECLINED("{\"name\":\"\"}", "an empty name");
	DECLINED("{\"name\":\"f\",\"arguments\":{},\"parameters\":{}}",
	    "both \"arguments\" and \"parameters\"");
	DECLINED("{\"name\":\"f\",\"arguments\":[1]}", "arguments as an array");
	DECLINED("{\"name\":\"f\",\"arguments\":null}", "arguments null");
	DECLINED("{\"name\":\"f\",\"parameters\":\"x\"}",
	    "parameters as a string");
	DECLINED("[{\"name\":\"f\"}]", "an array, not an object");
	DECLINED("\xef\xbb\xbf{\"name\":\"f\"}", "a byte order mark");
	DECLINED("{\"name\":\"f\",}", "a comma before }");
	DECLINED("{\"name\":\"f\"} x", "text after the object");
	DECLINED("{\"name\":\"f\",\"arguments\":{\"a\":\"\xc3\"}}",
	    "invalid UTF-8");
	DECLINED("{\"name\":\"f\",\"arguments\":{\"a\":\"\xed\xa0\x80\"}}",
	    "a surrogate written in UTF-8");
	DECLINED("{\"name\":\"f\",\"arguments\":{\"a\":\"\x01\"}}",
	    "a raw control character");
	DECLINED("{\"name\":\"f\",\"arguments\":{\"a\":01}}", "a leading zero");
	DECLINED("{\"name\":\"f\",\"arguments\":{\"a\":1.}}",
	    "a point without digits");
	DECLINED("{'name':'f'}", "a Python dict");
	DECLINED("{\"name\":\"f\"", "an object not closed");
	DECLINED("", "nothing");
}

/*
 * {"name":"f","arguments":{"a":X}}, X being levels arrays with a 1 in
 * the innermost (or nothing): the top is level 1, the arguments 2.
 */
static void
deep(size_t levels, int one, struct buf *b)
{
	size_t i;

	buf_reset(b);
	buf_adds(b, "{\"name\":\"f\",\"arguments\":{\"a\":");
	for (i = 0; i < levels; i++)
		buf_addc(b, '[');
	if (one)
		buf_addc(b, '1');
	for (i = 0; i < levels; i++)
		buf_addc(b, ']');
	buf_adds(b, "}}");
}

static void
test_depth(void)
{
	struct buf b = BUF_INIT;

	/* the 1 at level 2048, then 2049 */
	deep(2045, 1, &b);
	taken(b.data, b.len, "a number at level 2048");
	deep(2046, 1, &b);
	declined(b.data, b.len, "a number at level 2049");
	/* an empty array at level 2048, then 2049 */
	deep(2046, 0, &b);
	taken(b.data, b.len, "an empty array at level 2048");
	deep(2047, 0, &b);
	declined(b.data, b.len, "an empty array at level 2049");
	deep(5000, 1, &b);
	declined(b.data, b.len, "5000 levels");
	buf_free(&b);
}

/* A call over 1 MiB has a parser of its own; the next small one, the kept. */
static void
test_large(void)
{
	struct buf b = BUF_INIT;
	size_t i;

	buf_adds(&b, "{\"name\":\"w\",\"arguments\":{\"s\":\"");
	for (i = 0; i < 60000; i++)
		buf_adds(&b, "line \\\"q\\\" \\u00e9\\n");
	buf_adds(&b, "\",\"n\":[1,2.5]}}");
	taken(b.data, b.len, "a call of 1.5 MB");
	buf_add(&b, "x", 1);
	declined(b.data, b.len, "a call of 1.5 MB with text after it");
	TAKEN("{\"name\":\"f\",\"arguments\":{\"a\":[1]}}",
	    "a small call after a large one");
	buf_free(&b);
}

/* Every hermes fixture, and every prefix of it, read alike by both. */
static void
test_fixtures(void)
{
	struct buf b = BUF_INIT;
	const char *why = NULL;
	glob_t g;
	size_t i, n, len;

	if (glob(DIR "/hermes-*.txt", 0, NULL, &g) != 0)
		unit_bail("glob " DIR "/hermes-*.txt");
	for (i = 0; i < g.gl_pathc; i++) {
		buf_reset(&b);
		if (io_read(g.gl_pathv[i], &b) != DIAG_OK)
			unit_bail(g.gl_pathv[i]);
		/* the file's last newline is not the call's */
		n = b.len > 0 && b.data[b.len - 1] == '\n' ? b.len - 1 : b.len;
		why = differs(b.data, n);
		unit_ok(why == NULL, unit_fmt("%s: read as tcd_parse reads it",
		    g.gl_pathv[i]));
		if (why != NULL)
			printf("#   %s differs\n", why);
		for (len = 0; len < n; len++)
			if ((why = differs(b.data, len)) != NULL)
				break;
		unit_ok(len == n, unit_fmt("%s: every prefix read as "
		    "tcd_parse reads it", g.gl_pathv[i]));
		if (len < n)
			printf("#   the prefix of %zu bytes: %s differs\n", len,
			    why);
	}
	globfree(&g);
	buf_free(&b);
}

/*
 * The reader refuses a loader of another version (tcsimd_open, the one
 * symbol of tcsimd.so), and gives its functions to one of its own;
 * without simdjson every function declines.
 */
static void
test_open(void)
{
#ifdef HAVE_SIMDJSON
	static const struct tcsimd_host h = { buf_grow, buf_add, buf_addu,
	    jsonw_string, jsonw_number };
	const struct tcsimd_reader *r;

	unit_ok(tcsimd_open(TCSIMD_ABI + 1, &h) == NULL,
	    "a loader of another version is refused");
	r = tcsimd_open(TCSIMD_ABI, &h);
	unit_ok(r != NULL && r->hermes != NULL && r->object != NULL &&
	    r->chunk != NULL, "a loader of this version gets the reader");
#else
	static const char chunk[] = "{\"object\":\"chat.completion.chunk\","
	    "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}]}";
	struct tcsimd_delta c;
	struct buf args = BUF_INIT;

	unit_long(tcsimd_object("{\"a\":1}", 7, &args), 0,
	    "no simdjson: bare arguments declined");
	unit_long((long)args.len, 0, "no simdjson: nothing written");
	unit_long(tcsimd_chunk(chunk, sizeof(chunk) - 1, &c), 0,
	    "no simdjson: a chunk declined");
#endif
}

/*
 * LLMKIT_JSON=jansson: the reader declines everything. Then simdjson for
 * the rest of the test, whatever the suite runs under: the reader, once
 * it has been given, is kept.
 */
static void
test_env(void)
{
	struct buf args = BUF_INIT;

	if (setenv("LLMKIT_JSON", "jansson", 1) != 0)
		unit_bail("setenv");
	jsimd_reset();
	unit_long(tcsimd_object("{\"a\":1}", 7, &args), 0,
	    "LLMKIT_JSON=jansson: bare arguments declined");
	unit_long((long)args.len, 0, "LLMKIT_JSON=jansson: nothing written");
	if (setenv("LLMKIT_JSON", "simdjson", 1) != 0)
		unit_bail("setenv");
	jsimd_reset();
	unit_long(tcsimd_object("{\"a\":1}", 7, &args), TAKES,
	    "LLMKIT_JSON=simdjson: bare arguments read when built with it");
	buf_free(&args);
}

int
main(void)
{
	test_env();
	test_open();
	test_fixtures();
	test_taken();
	test_declined();
	test_depth();
	test_large();
	return unit_done();
}
