/*
 * Unit tests of lib/thread: small threads serialized and written, checked
 * against the output of the JavaScript reference (t/oracle/reference.js,
 * run once by node to write the expected texts below), and the errors
 * and warnings of bad input with their exact lines on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/diag.h"
#include "json/jsonx.h"
#include "thread/thread.h"
#include "unit.h"

/* Threads and what serializeThreadToXml makes of them (node's output). */
static const char all_in[] =
    "[\n"
    "{\"type\":\"message\",\"role\":\"user\",\"content\":\"What is 2+"
    "2?\",\"iteration\":0},\n"
    "{\"type\":\"tool_call\",\"toolName\":\"calculator\",\"toolCallId"
    "\":\"c1\",\"args\":{\"expression\":\"2+2\",\"10\":1,\"2\":[1.0,-"
    "0],\"s\":\"\\u0001/\\u00e9\"},\"iteration\":1},\n"
    "{\"type\":\"tool_result\",\"toolCallId\":\"c1\",\"result\":4,\"i"
    "teration\":1},\n"
    "{\"type\":\"message\",\"role\":\"assistant\",\"content\":\"The a"
    "nswer is 4 & <done>.\",\"iteration\":1},\n"
    "{\"type\":\"message\",\"role\":\"system\",\"content\":\"sys 'q' "
    "\\\"dq\\\"\",\"iteration\":1.5},\n"
    "{\"type\":\"message\",\"role\":\"tool\",\"content\":\"other role"
    "\",\"iteration\":2},\n"
    "{\"type\":\"error\",\"error\":\"boom\",\"recoverable\":true,\"it"
    "eration\":2},\n"
    "{\"type\":\"error\",\"error\":\"fatal\",\"recoverable\":false,\""
    "iteration\":-0},\n"
    "{\"type\":\"human_input_requested\",\"question\":\"Proceed?\",\""
    "iteration\":3},\n"
    "{\"type\":\"human_input_received\",\"response\":\"yes\",\"iterat"
    "ion\":3},\n"
    "{\"type\":\"completion\",\"result\":\"done\\nreally\",\"iteratio"
    "n\":1e21},\n"
    "{\"type\":\"summary\",\"summary\":\"sum\",\"summarizedIterations"
    "\":[1,2,3.5,1e-7],\"iteration\":4}\n"
    "]";
static const char all_out[] =
    "<thread>\n"
    "  <event type=\"human\" id=\"0\" iteration=\"0\">What is 2+2?</e"
    "vent>\n"
    "  <event type=\"tool_input\" id=\"1\" name=\"calculator\" iterat"
    "ion=\"1\">{&quot;2&quot;:[1,0],&quot;10&quot;:1,&quot;expression"
    "&quot;:&quot;2+2&quot;,&quot;s&quot;:&quot;\\u0001/\xC3\xA9&quot"
    ";}</event>\n"
    "  <event type=\"tool_output\" id=\"2\" name=\"calculator\" statu"
    "s=\"success\" iteration=\"1\">4</event>\n"
    "  <event type=\"ai\" id=\"3\" iteration=\"1\">The answer is 4 &a"
    "mp; &lt;done&gt;.</event>\n"
    "  <event type=\"system\" id=\"4\" iteration=\"1.5\">sys &apos;q&"
    "apos; &quot;dq&quot;</event>\n"
    "  <event type=\"system\" id=\"5\" iteration=\"2\">other role</ev"
    "ent>\n"
    "  <event type=\"error\" id=\"6\" iteration=\"2\" recoverable=\"t"
    "rue\">boom</event>\n"
    "  <event type=\"error\" id=\"7\" iteration=\"0\" recoverable=\"f"
    "alse\">fatal</event>\n"
    "  <event type=\"human_input_requested\" id=\"8\" iteration=\"3\""
    ">Proceed?</event>\n"
    "  <event type=\"human_input_received\" id=\"9\" iteration=\"3\">"
    "yes</event>\n"
    "  <event type=\"completion\" id=\"10\" iteration=\"1e+21\">done\n"
    "really</event>\n"
    "  <event type=\"summary\" id=\"11\" iteration=\"4\" summarizedIt"
    "erations=\"1,2,3.5,1e-7\">sum</event>\n"
    "</thread>";

static const char holes_in[] =
    "{\"type\":\"tool_result\",\"toolCallId\":\"a\",\"result\":{\"x\""
    ":1},\"iteration\":0}\n"
    "{\"type\":\"tool_call\",\"toolName\":\"first\",\"toolCallId\":\""
    "a\",\"args\":{},\"iteration\":0}\n"
    "\n"
    "{\"type\":\"tool_result\",\"toolCallId\":\"b\",\"result\":[1,[2,"
    "null],\"x\"],\"iteration\":1}\n"
    "{\"type\":\"tool_result\",\"toolCallId\":\"a\",\"result\":null,\""
    "iteration\":1}\n"
    "{\"type\":\"tool_call\",\"toolName\":\"a&b\\\"c'<>\",\"toolCallI"
    "d\":\"a\",\"args\":{\"k\":[true,false,null]},\"iteration\":2}\n"
    "{\"type\":\"tool_call\",\"toolName\":\"noid\",\"args\":{\"z\":\""
    "<&>\"},\"iteration\":2}\n"
    "{\"type\":\"tool_result\",\"toolCallId\":\"c\",\"result\":\"<tag"
    "> & 'q'\",\"iteration\":3}\n"
    "{\"type\":\"tool_call\",\"toolName\":\"cee\",\"toolCallId\":\"c\""
    ",\"args\":{\"1\":1,\"0\":0},\"iteration\":3}\n";
static const char holes_out[] =
    "<thread>\n"
    "  <event type=\"tool_output\" id=\"0\" name=\"a&amp;b&quot;c&apo"
    "s;&lt;&gt;\" status=\"success\" iteration=\"0\">[object Object]<"
    "/event>\n"
    "  <event type=\"tool_input\" id=\"1\" name=\"first\" iteration=\""
    "0\">{}</event>\n"
    "  <event type=\"tool_output\" id=\"2\" name=\"unknown\" status=\""
    "success\" iteration=\"1\">1,2,,x</event>\n"
    "  <event type=\"tool_output\" id=\"3\" name=\"a&amp;b&quot;c&apo"
    "s;&lt;&gt;\" status=\"success\" iteration=\"1\">null</event>\n"
    "  <event type=\"tool_input\" id=\"4\" name=\"a&amp;b&quot;c&apos"
    ";&lt;&gt;\" iteration=\"2\">{&quot;k&quot;:[true,false,null]}</e"
    "vent>\n"
    "  <event type=\"tool_input\" id=\"5\" name=\"noid\" iteration=\""
    "2\">{&quot;z&quot;:&quot;&lt;&amp;&gt;&quot;}</event>\n"
    "  <event type=\"tool_output\" id=\"6\" name=\"cee\" status=\"suc"
    "cess\" iteration=\"3\">&lt;tag&gt; &amp; &apos;q&apos;</event>\n"
    "  <event type=\"tool_input\" id=\"7\" name=\"cee\" iteration=\"3"
    "\">{&quot;0&quot;:0,&quot;1&quot;:1}</event>\n"
    "</thread>";

static const char unknown_in[] =
    "\xEF\xBB\xBF{\"type\":\"message\",\"role\":\"user\",\"content\":"
    "\"hi\",\"iteration\":0}\n"
    "{\"type\":\"mystery\",\"iteration\":0}\n"
    "{\"type\":\"message\",\"role\":\"assistant\",\"content\":\"ho\","
    "\"iteration\":0}\n";
static const char unknown_out[] =
    "<thread>\n"
    "  <event type=\"human\" id=\"0\" iteration=\"0\">hi</event>\n"
    "  <event type=\"ai\" id=\"2\" iteration=\"0\">ho</event>\n"
    "</thread>";

struct result {
	int		 status;	/* of thread_serialize */
	int		 wrote;		/* of thread_write, when status is 0 */
	char		*out;		/* what thread_write wrote */
	size_t		 outlen;
	unsigned long	 events, skipped, folded;
	const char	*err;		/* what went to stderr */
};

/* Whether run() keeps summarized events, as the reference does. */
static int	keep_summarized;

/* Serializes in[0..n) with the options; writes it when it is good. */
static void
run(const char *in, size_t n, const char *file, const char *prefix,
    int strict, struct result *r)
{
	struct thread_opts opts;
	struct thread_doc doc;
	FILE *fp;

	memset(&opts, 0, sizeof(opts));
	opts.file = file;
	opts.prefix = prefix;
	opts.prefix_len = prefix != NULL ? strlen(prefix) : 0;
	opts.strict = strict;
	opts.keep_summarized = keep_summarized;
	memset(r, 0, sizeof(*r));
	r->wrote = -2;
	thread_init(&doc);
	unit_capture_begin();
	r->status = thread_serialize(&doc, in, n, &opts);
	r->err = unit_capture_end();
	r->events = doc.events;
	r->skipped = doc.skipped;
	r->folded = doc.folded;
	if (r->status == DIAG_OK) {
		fp = open_memstream(&r->out, &r->outlen);
		r->wrote = thread_write(&doc, fp);
		fclose(fp);
	}
	thread_free(&doc);
}

#define RUN(s, file, prefix, strict, r) \
	run(s, sizeof(s) - 1, file, prefix, strict, r)

static void
done(struct result *r)
{
	free(r->out);
	r->out = NULL;
}

/* A good thread: status 0, written whole, nothing on stderr. */
static void
good(const char *in, size_t n, const char *prefix, const char *want,
    const char *what)
{
	struct result r;

	run(in, n, "t.json", prefix, 0, &r);
	unit_long(r.status, DIAG_OK, unit_fmt("%s: status 0", what));
	unit_long(r.wrote, 0, unit_fmt("%s: written", what));
	unit_mem(r.out, r.outlen, want, unit_fmt("%s: the document", what));
	unit_str(r.err, "", unit_fmt("%s: nothing on stderr", what));
	done(&r);
}

#define GOOD(s, prefix, want, what) \
	good(s, sizeof(s) - 1, prefix, want, what)

/*
 * A good thread with the prefix of the tests: the JavaScript reference
 * writes the document it writes without one, a newline and the prefix.
 */
static const char test_prefix[] =
    "Based on the above thread, I will now <&>";

static void
good_prefixed(const char *in, size_t n, const char *doc, const char *what)
{
	struct buf want = BUF_INIT;

	buf_printf(&want, "%s\n%s", doc, test_prefix);
	good(in, n, test_prefix, buf_cstr(&want), what);
	buf_free(&want);
}

/* A bad thread: status 1, nothing written, these lines on stderr. */
static void
bad(const char *in, size_t n, const char *file, int strict,
    const char *want_err, const char *what)
{
	struct result r;

	run(in, n, file, NULL, strict, &r);
	unit_long(r.status, DIAG_INVALID, unit_fmt("%s: status 1", what));
	unit_ok(r.out == NULL, unit_fmt("%s: not written", what));
	unit_str(r.err, want_err, unit_fmt("%s: the diagnostics", what));
	done(&r);
}

#define BAD(s, file, strict, want, what) \
	bad(s, sizeof(s) - 1, file, strict, want, what)

static void
test_empty(void)
{
	GOOD("[]", NULL, "<thread>\n</thread>", "an empty array");
	GOOD(" [\n]\n", NULL, "<thread>\n</thread>", "an empty array on lines");
	GOOD("", NULL, "<thread>\n</thread>", "an empty text");
	GOOD("\n\n", NULL, "<thread>\n</thread>", "blank lines");
	GOOD("\xEF\xBB\xBF", NULL, "<thread>\n</thread>",
	    "a byte order mark alone");
	GOOD("[]", "Go on:", "<thread>\n</thread>\nGo on:",
	    "an empty thread and a prefix");
	GOOD("[]", "", "<thread>\n</thread>", "an empty prefix adds nothing");
}

static void
test_good(void)
{
	struct result r;

	/* all_in's summary lists 3.5: only the reference's form takes it */
	keep_summarized = 1;
	GOOD(all_in, NULL, all_out, "one event of every type");
	good_prefixed(all_in, sizeof(all_in) - 1, all_out,
	    "every type, with a prefix written as it is");
	GOOD(holes_in, NULL, holes_out,
	    "tool_output names resolved from later calls");
	good_prefixed(holes_in, sizeof(holes_in) - 1, holes_out,
	    "names resolved, with a prefix");

	RUN(all_in, "t.json", NULL, 0, &r);
	unit_ok(r.events == 12 && r.skipped == 0 && r.folded == 0,
	    "twelve events written, none skipped or folded");
	done(&r);
	keep_summarized = 0;

	BAD("{\"type\":\"message\",\"type\":\"completion\",\"result\":\"r\","
	    "\"iteration\":1}", "t.json", 0, "t.json:1:19: error: duplicate key "
	    "\"type\", first at line 1, column 2\n",
	    "a duplicate key is refused, not taken with its last value");
}

static void
test_unknown(void)
{
	struct result r;

	RUN(unknown_in, "t.jsonl", NULL, 0, &r);
	unit_long(r.status, DIAG_OK, "an unknown type: status 0");
	unit_mem(r.out, r.outlen, unknown_out,
	    "an unknown type is skipped and its id used up");
	unit_str(r.err, "t.jsonl:2:9: warning: event 1: unknown type "
	    "\"mystery\", skipped\n", "an unknown type: one warning");
	unit_ok(r.events == 2 && r.skipped == 1, "two written, one skipped");
	done(&r);

	BAD(unknown_in, "t.jsonl", 1, "t.jsonl:2:9: error: event 1: unknown "
	    "type \"mystery\"\n", "an unknown type under --strict");
}

static void
test_forbidden(void)
{
	static const char ansi[] = "{\"type\":\"message\",\"role\":\"user\","
	    "\"content\":\"a\\u001b[31mred\\u0007\",\"iteration\":0}\n";
	static const char names[] = "{\"type\":\"tool_call\",\"toolName\":"
	    "\"t\\u0001\",\"toolCallId\":\"x\",\"args\":{\"s\":\"\\u0001\"},"
	    "\"iteration\":0}\n{\"type\":\"tool_result\",\"toolCallId\":\"x\","
	    "\"result\":\"\\uffff\",\"iteration\":0}\n";
	static const char nul[] = "[{\"type\":\"completion\",\"result\":"
	    "\"a\\u0000b\",\"iteration\":0}]";
	struct result r;

	RUN(ansi, "t.jsonl", NULL, 0, &r);
	unit_long(r.status, DIAG_OK, "forbidden characters: status 0");
	unit_mem(r.out, r.outlen, "<thread>\n  <event type=\"human\" id=\"0\" "
	    "iteration=\"0\">a\xEF\xBF\xBD[31mred\xEF\xBF\xBD</event>\n"
	    "</thread>", "forbidden characters become U+FFFD");
	unit_str(r.err, "t.jsonl:1:43: warning: event 0: replaced 2 "
	    "characters that XML 1.0 forbids (first U+001B in \"content\") "
	    "with U+FFFD\n", "forbidden characters: one warning per event");
	done(&r);
	BAD(ansi, "t.jsonl", 1, "t.jsonl:1:43: error: event 0: \"content\" "
	    "holds U+001B, a character XML 1.0 forbids\n",
	    "forbidden characters under --strict");

	RUN(names, "t.jsonl", NULL, 0, &r);
	unit_mem(r.out, r.outlen, "<thread>\n  <event type=\"tool_input\" "
	    "id=\"0\" name=\"t\xEF\xBF\xBD\" iteration=\"0\">{&quot;s&quot;:"
	    "&quot;\\u0001&quot;}</event>\n  <event type=\"tool_output\" "
	    "id=\"1\" name=\"t\xEF\xBF\xBD\" status=\"success\" "
	    "iteration=\"0\">"
	    "\xEF\xBF\xBD</event>\n</thread>",
	    "a forbidden character in a name, and U+FFFF in a result");
	unit_str(r.err, "t.jsonl:1:32: warning: event 0: replaced 1 character "
	    "that XML 1.0 forbids (first U+0001 in \"toolName\") with U+FFFD\n"
	    "t.jsonl:2:49: warning: event 1: replaced 1 character that XML "
	    "1.0 forbids (first U+FFFF in \"result\") with U+FFFD\n",
	    "each event warns once, naming its field");
	done(&r);

	RUN(nul, "t.json", NULL, 0, &r);
	unit_mem(r.out, r.outlen, "<thread>\n  <event type=\"completion\" "
	    "id=\"0\" iteration=\"0\">a\xEF\xBF\xBD" "b</event>\n</thread>",
	    "a NUL becomes U+FFFD");
	unit_str(r.err, "t.json:1:32: warning: event 0: replaced 1 character "
	    "that XML 1.0 forbids (first U+0000 in \"result\") with U+FFFD\n",
	    "a NUL is reported as U+0000");
	done(&r);
}

static void
test_errors(void)
{
	BAD("[{\"type\":\"message\",\"role\":\"user\",\"iteration\":0}]",
	    "t.json", 0, "t.json:1:2: error: event 0: missing \"content\" "
	    "(a string)\n", "a missing field");
	BAD("{\"type\":\"message\",\"role\":\"user\",\"content\":\"x\","
	    "\"iteration\":0}\n{\"type\":\"message\",\"role\":\"user\","
	    "\"content\":5,\"iteration\":\"0\"}\n", "t.jsonl", 0,
	    "t.jsonl:2:57: error: event 1: \"iteration\" must be a number, "
	    "found a string\nt.jsonl:2:43: error: event 1: \"content\" must "
	    "be a string, found a number\n",
	    "two mistyped fields are both reported");
	BAD("[1, \"s\"]", "t.json", 0, "t.json:1:2: error: event 0: expected "
	    "an object, found a number\nt.json:1:5: error: event 1: expected "
	    "an object, found a string\n", "events that are not objects");
	BAD("{\"type\":\"tool_call\",\"toolName\":\"x\",\"args\":[1],"
	    "\"iteration\":0}", "t.jsonl", 0, "t.jsonl:1:43: error: event 0: "
	    "\"args\" must be an object, found an array\n",
	    "args that are not an object");
	BAD("{\"type\":\"tool_call\",\"toolName\":\"x\",\"toolCallId\":7,"
	    "\"args\":{},\"iteration\":0}", "t.jsonl", 0, "t.jsonl:1:49: "
	    "error: event 0: \"toolCallId\" must be a string, found a number\n",
	    "a tool call id that is not a string");
	keep_summarized = 1;
	BAD("{\"type\":\"summary\",\"summary\":\"s\",\"summarizedIterations\":"
	    "[1,\"2\"],\"iteration\":0}", "t.jsonl", 0, "t.jsonl:1:59: error: "
	    "event 0: \"summarizedIterations\" must be an array of numbers, "
	    "found a string at index 1\n",
	    "summarized iterations that are not numbers, kept");
	keep_summarized = 0;
	BAD("{\"type\":\"summary\",\"summary\":\"s\",\"summarizedIterations\":"
	    "[1,\"2\"],\"iteration\":0}", "t.jsonl", 0, "t.jsonl:1:59: error: "
	    "event 0: \"summarizedIterations\" must be an array of non-negative "
	    "integers, found a string at index 1\n",
	    "summarized iterations that are not numbers, folded");
	BAD("{\"iteration\":0}", "t.jsonl", 0, "t.jsonl:1:1: error: event 0: "
	    "missing \"type\" (a string)\n", "a missing type");
	BAD("\xEF\xBB\xBF{\"type\":5}", "t.jsonl", 0, "t.jsonl:1:9: error: "
	    "event 0: \"type\" must be a string, found a number\n",
	    "a byte order mark takes no column");
	BAD("[{\"type\":\"summary\",\"summary\":\"s\","
	    "\"summarizedIterations\":[1,2,[]],\"iteration\":0}]", "t.json", 0,
	    "t.json:1:62: error: event 0: \"summarizedIterations\" must be "
	    "an array of non-negative integers, found an array at index 2\n",
	    "an array inside summarized iterations");
	BAD("{\"type\":\"summary\",\"summary\":\"s\",\"summarizedIterations\":"
	    "{},\"iteration\":0}", "t.jsonl", 0, "t.jsonl:1:56: error: "
	    "event 0: \"summarizedIterations\" must be an array of non-negative "
	    "integers, found an object\n",
	    "summarized iterations that are an object");
	BAD("{\"type\":5}", "t.jsonl", 0, "t.jsonl:1:9: error: event 0: "
	    "\"type\" must be a string, found a number\n",
	    "a type that is not a string");
	BAD("{\"type\":\"error\",\"error\":\"e\",\"iteration\":0}",
	    "t.jsonl", 0,
	    "t.jsonl:1:1: error: event 0: missing \"recoverable\" "
	    "(a boolean)\n", "a missing recoverable");
	BAD("{\"type\":\"tool_result\",\"result\":1,\"iteration\":0}",
	    "t.jsonl", 0, "t.jsonl:1:1: error: event 0: missing \"toolCallId\" "
	    "(a string)\n", "a tool result without its call id");
	BAD("{\"type\":\"tool_result\",\"toolCallId\":\"a\",\"iteration\":0}",
	    "t.jsonl", 0, "t.jsonl:1:1: error: event 0: missing \"result\" "
	    "(a value)\n", "a tool result without a result");
	BAD("{\"type\":\"message\",\"role\":1,\"content\":\"c\","
	    "\"iteration\":0}",
	    "t.jsonl", 0, "t.jsonl:1:26: error: event 0: \"role\" must be a "
	    "string, found a number\n", "a role that is not a string");
	BAD("{\"type\":\"message\",\"role\":\"user\",\"content\":\"ok\","
	    "\"content\":5,\"iteration\":0}", "t.jsonl", 0, "t.jsonl:1:48: "
	    "error: duplicate key \"content\", first at line 1, column 33\n",
	    "a duplicate key is an error at the second, naming the first");
	BAD("[{\"type\":\"completion\",\"result\":\"r\",\"iteration\":0},\n"
	    " {\"type\":\"completion\",\"result\":[],\"iteration\":0},\n"
	    " {\"type\":\"completion\",\"result\":\"r\",\"iteration\":0}]",
	    "t.json", 0, "t.json:2:32: error: event 1: \"result\" must be a "
	    "string, found an array\n", "one bad event among good ones");
	BAD("{\"type\":\"completion\",\"result\":\"r\",\"iteration\":0}\n\n"
	    "  {\"type\":\"completion\",\"result\":\"\xC3\xA9\","
	    "\"iteration\":null}\n", "t.jsonl", 0, "t.jsonl:3:49: error: "
	    "event 1: \"iteration\" must be a number, found null\n",
	    "a bad event after a blank line, columns in characters");
}

static void
test_bad_text(void)
{
	/* jsonx points at the token jansson names: the start of "x" */
	BAD("[{\"type\" \"x\"}]", "t.json", 0, "t.json:1:10: error: invalid "
	    "JSON: ':' expected near '\"x\"'\n", "a syntax error");
	BAD("{\"type\":\"message\",\"role\":\"user\",\"content\":\"\xFF\","
	    "\"iteration\":0}", "t.jsonl", 0, "t.jsonl:1:44: error: invalid "
	    "UTF-8: byte 0xff at byte offset 43\n", "invalid UTF-8");
	BAD("{\"type\":\"completion\",\"result\":\"r\",\"iteration\":0}\n"
	    "{\"type\":", "t.jsonl", 0, "t.jsonl:2:9: error: invalid JSON: "
	    "unexpected token near end of file\n", "a text cut short");
	BAD("[{\"type\":\"completion\",\"result\":\"r\",\"iteration\":0}",
	    "t.json", 0, "t.json:1:50: error: invalid JSON: the array is not "
	    "closed with ']'\n", "an unclosed array");
	BAD("[{\"type\":\"completion\",\"result\":5,\"iteration\":0}] []",
	    "t.json", 0, "t.json:1:32: error: event 0: \"result\" must be a "
	    "string, found a number\nt.json:1:50: error: invalid JSON: text "
	    "after the closing ']' of the array\n",
	    "a bad event, then bad text after the array");
}

static void
test_nul(void)
{
	BAD("\0", "t.jsonl", 0, "t.jsonl:1:1: error: invalid JSON: NUL "
	    "byte\n", "a lone NUL byte");
	BAD("{\"type\":\"completion\",\"result\":\"r\",\"iteration\":0}\n"
	    " \0", "t.jsonl", 0, "t.jsonl:2:2: error: invalid JSON: NUL byte\n",
	    "a NUL byte after an event");
	BAD("{\"type\":\"completion\",\"result\":\"r\0\",\"iteration\":0}",
	    "t.jsonl", 0, "t.jsonl:1:33: error: invalid JSON: NUL byte\n",
	    "a NUL byte in a string");
	BAD("[1 x\0", "t.json", 0, "t.json:1:2: error: event 0: expected an "
	    "object, found a number\nt.json:1:4: error: invalid JSON: expected "
	    "',' or ']' after an array element\n",
	    "an error before a NUL byte is that error");
}

/* An event whose result holds a string depth levels deep. */
static char *
deep_result(size_t depth, size_t *n)
{
	struct buf b = BUF_INIT;
	size_t i;

	buf_adds(&b, "{\"type\":\"completion\",\"iteration\":0,\"result\":");
	for (i = 2; i < depth; i++)
		buf_addc(&b, '[');
	buf_adds(&b, "\"r\"");
	for (i = 2; i < depth; i++)
		buf_addc(&b, ']');
	buf_addc(&b, '}');
	*n = b.len;
	return buf_cstr(&b);
}

static void
test_depth(void)
{
	struct result r;
	char *in;
	size_t n;

	in = deep_result(JSONX_MAX_DEPTH, &n);
	run(in, n, "t.jsonl", NULL, 0, &r);
	unit_long(r.status, DIAG_INVALID, "a completion's result must be a "
	    "string: the limit is not what fails it");
	unit_str(r.err, "t.jsonl:1:45: error: event 0: \"result\" must be a "
	    "string, found an array\n", "values as deep as the limit");
	done(&r);
	free(in);

	in = deep_result(JSONX_MAX_DEPTH + 1, &n);
	run(in, n, "t.jsonl", NULL, 0, &r);
	unit_long(r.status, DIAG_INVALID, "values past the limit: status 1");
	unit_str(r.err, "t.jsonl:1:2092: error: invalid JSON: a value nested "
	    "deeper than 2048 levels\n", "the error is at the value too deep");
	done(&r);
	free(in);
}

static void
test_json_errors(void)
{
	diag_setjson(1);
	BAD("[{\"type\":\"message\",\"role\":\"user\",\"iteration\":0},\n"
	    " {\"type\":\"message\",\"role\":\"user\",\"content\":[],"
	    "\"iteration\":0}]", "in.json", 0,
	    "{\"file\":\"in.json\",\"line\":1,\"column\":2,"
	    "\"severity\":\"error\",\"rule\":\"missing-field\","
	    "\"message\":\"event 0: missing "
	    "\\\"content\\\" (a string)\",\"path\":\"/0\"}\n"
	    "{\"file\":\"in.json\",\"line\":2,\"column\":44,\"severity\":"
	    "\"error\",\"rule\":\"field-type\",\"message\":\"event 1: "
	    "\\\"content\\\" must be a string, found an array\",\"path\":"
	    "\"/1/content\"}\n", "JSON diagnostics with paths into an array");
	BAD("{\"type\":\"message\",\"role\":\"user\",\"iteration\":0}\n"
	    "{\"type\":\"message\",\"role\":\"user\",\"content\":{},"
	    "\"iteration\":0}\n", "<stdin>", 0,
	    "{\"file\":\"<stdin>\",\"line\":1,\"column\":1,"
	    "\"severity\":\"error\",\"rule\":\"missing-field\","
	    "\"message\":\"event 0: missing "
	    "\\\"content\\\" (a string)\",\"path\":\"\"}\n"
	    "{\"file\":\"<stdin>\",\"line\":2,\"column\":43,\"severity\":"
	    "\"error\",\"rule\":\"field-type\",\"message\":\"event 1: "
	    "\\\"content\\\" must be a string, found an object\",\"path\":"
	    "\"/content\"}\n", "JSON diagnostics with paths into JSON lines");
	BAD("[1,", "in.json", 0,
	    "{\"file\":\"in.json\",\"line\":1,\"column\":2,"
	    "\"severity\":\"error\",\"rule\":\"not-object\","
	    "\"message\":\"event 0: expected an object, found a number\","
	    "\"path\":\"/0\"}\n"
	    "{\"file\":\"in.json\",\"line\":1,\"column\":4,"
	    "\"severity\":\"error\","
	    "\"rule\":\"json-syntax\",\"message\":\"invalid JSON: unexpected "
	    "token near end of file\"}\n", "JSON diagnostics of bad text");
	diag_setjson(0);
}

static void
test_write_error(void)
{
	struct thread_opts opts = { "t.jsonl", NULL, 0, 0, 0 };
	struct thread_doc doc;
	FILE *fp;

	thread_init(&doc);
	unit_long(thread_serialize(&doc, holes_in, sizeof(holes_in) - 1, &opts),
	    DIAG_OK, "a thread for /dev/full");
	fp = fopen("/dev/full", "wb");
	setvbuf(fp, NULL, _IONBF, 0);
	unit_long(thread_write(&doc, fp), -1,
	    "thread_write to a full device fails");
	fclose(fp);
	{
		char *out = NULL;
		size_t len = 0;

		fp = open_memstream(&out, &len);
		unit_long(thread_write(&doc, fp), 0, "the same document again");
		fclose(fp);
		unit_mem(out, len, holes_out,
		    "thread_write can write a document twice");
		free(out);
	}
	thread_free(&doc);
	unit_ok(doc.holes == NULL && doc.names == NULL && doc.text.data == NULL,
	    "thread_free leaves nothing behind");
}

/*
 * The fold: a summary in the place of the first event it leaves out, the
 * ids renumbered, names from folded calls, stacked summaries, and the
 * same thread kept whole as the reference writes it.
 */
static const char fold_in[] =
    "{\"type\":\"message\",\"role\":\"user\",\"content\":\"go\","
    "\"iteration\":0}\n"
    "{\"type\":\"tool_call\",\"toolName\":\"ls\",\"toolCallId\":\"a\","
    "\"args\":{},\"iteration\":1}\n"
    "{\"type\":\"mystery\",\"iteration\":1}\n"
    "{\"type\":\"summary\",\"summary\":\"S1\",\"summarizedIterations\":"
    "[1],\"iteration\":2}\n"
    "{\"type\":\"message\",\"role\":\"user\",\"content\":\"mid\","
    "\"iteration\":0}\n"
    "{\"type\":\"summary\",\"summary\":\"S2\",\"summarizedIterations\":"
    "[2,3],\"iteration\":3}\n"
    "{\"type\":\"tool_result\",\"toolCallId\":\"a\",\"result\":1,"
    "\"iteration\":4}\n";
static const char fold_out[] =
    "<thread>\n"
    "  <event type=\"human\" id=\"0\" iteration=\"0\">go</event>\n"
    "  <event type=\"summary\" id=\"1\" iteration=\"3\" "
    "summarizedIterations=\"2,3\">S2</event>\n"
    "  <event type=\"human\" id=\"2\" iteration=\"0\">mid</event>\n"
    "  <event type=\"tool_output\" id=\"3\" name=\"ls\" "
    "status=\"success\" iteration=\"4\">1</event>\n"
    "</thread>";
static const char fold_kept[] =
    "<thread>\n"
    "  <event type=\"human\" id=\"0\" iteration=\"0\">go</event>\n"
    "  <event type=\"tool_input\" id=\"1\" name=\"ls\" "
    "iteration=\"1\">{}</event>\n"
    "  <event type=\"summary\" id=\"3\" iteration=\"2\" "
    "summarizedIterations=\"1\">S1</event>\n"
    "  <event type=\"human\" id=\"4\" iteration=\"0\">mid</event>\n"
    "  <event type=\"summary\" id=\"5\" iteration=\"3\" "
    "summarizedIterations=\"2,3\">S2</event>\n"
    "  <event type=\"tool_output\" id=\"6\" name=\"ls\" "
    "status=\"success\" iteration=\"4\">1</event>\n"
    "</thread>";

static void
test_fold(void)
{
	struct result r;

	RUN(fold_in, "t.jsonl", NULL, 0, &r);
	unit_long(r.status, DIAG_OK, "a fold: status 0");
	unit_mem(r.out, r.outlen, fold_out, "stacked summaries fold into the "
	    "newest, at the place of the first event left out");
	unit_ok(r.events == 4 && r.skipped == 1 && r.folded == 3,
	    "four events written, three folded");
	done(&r);

	keep_summarized = 1;
	RUN(fold_in, "t.jsonl", NULL, 0, &r);
	unit_mem(r.out, r.outlen, fold_kept,
	    "keep_summarized writes what the reference writes");
	unit_ok(r.events == 6 && r.folded == 0, "six events, none folded");
	done(&r);
	keep_summarized = 0;

	BAD("{\"type\":\"summary\",\"summary\":\"s\",\"summarizedIterations\":"
	    "[0,0.5],\"iteration\":0}", "t.jsonl", 0, "t.jsonl:1:59: error: "
	    "event 0: \"summarizedIterations\" must be an array of non-negative "
	    "integers, found 0.5 at index 1\n", "a fraction cannot be folded");
}

int
main(void)
{
	diag_setprogname("test_thread");
	test_empty();
	test_good();
	test_unknown();
	test_fold();
	test_forbidden();
	test_errors();
	test_bad_text();
	test_nul();
	test_depth();
	test_json_errors();
	test_write_error();
	return unit_done();
}
