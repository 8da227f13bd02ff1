/*
 * Unit tests of lib/llmq: trimming, list items, counts, the contract's
 * checks with their exact diagnostics (command line, raw text and JSON
 * positions), context and --from-json objects, merging, and both forms
 * of the written document.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/src.h"
#include "base/xalloc.h"
#include "contract/contract.h"
#include "contract/llmq.h"
#include "json/jsonx.h"
#include "unit.h"

/* The seed's example query (section 1), as the seed lays it out. */
static const char seed_doc[] =
    "<llmQuery>\n"
    "  <userMessage>How much should we save for college?</userMessage>\n"
    "  <context topicId=\"family-planning-2025\" messageCount=\"12\">\n"
    "    <activeSubjects>family planning, education costs</activeSubjects>\n"
    "    <recentKeywords>children, university, tuition, savings"
    "</recentKeywords>\n"
    "  </context>\n"
    "</llmQuery>\n";

static const char seed_line[] =
    "<llmQuery><userMessage>How much should we save for college?"
    "</userMessage><context topicId=\"family-planning-2025\" "
    "messageCount=\"12\"><activeSubjects>family planning, education "
    "costs</activeSubjects><recentKeywords>children, university, "
    "tuition, savings</recentKeywords></context></llmQuery>\n";

/* A command-line source: "-s" and the like, the value quoted. */
static struct llmq_src
arg_src(const char *what, int argn, int quote)
{
	struct llmq_src src = { NULL, 0, 0, what, NULL, argn, quote };

	return src;
}

static void
trim_is(const char *s, const char *want, const char *what)
{
	size_t start, len;

	start = llmq_trim(s, strlen(s), &len);
	unit_mem(s + start, len, want, what);
}

static void
test_trim(void)
{
	trim_is("  a b  ", "a b", "spaces around go, the one inside stays");
	trim_is("\t\n\r\v\fx\r\n", "x", "ASCII white space of every kind");
	trim_is("\xC2\xA0x\xE3\x80\x80", "x", "U+00A0 and U+3000 go too");
	trim_is("\xE2\x80\x80\xE2\x80\x8Ax\xE2\x80\xA8\xE2\x80\xA9",
	    "x", "U+2000, U+200A, U+2028 and U+2029 go");
	trim_is("\xE1\x9A\x80\xE2\x80\xAF\xE2\x81\x9F\xEF\xBB\xBFx", "x",
	    "U+1680, U+202F, U+205F and U+FEFF go");
	trim_is("\xC2\x85x\xE2\x80\x8B", "\xC2\x85x\xE2\x80\x8B",
	    "U+0085 and U+200B stay, as JavaScript's trim() keeps them");
	trim_is(" \xC2\xA0 ", "", "white space only leaves nothing");
	trim_is("", "", "the empty text stays empty");
	trim_is("\xC3\xA9", "\xC3\xA9", "a character ending in a "
	    "continuation byte is not white space");
}

/* Adds one item; checks the status, what went to stderr and the list. */
static void
item(const char *s, size_t n, const struct llmq_src *src, int want,
    const char *want_err, const char *want_item, const char *what)
{
	struct llmq_list l;
	int r;

	memset(&l, 0, sizeof(l));
	unit_capture_begin();
	r = llmq_add_item(&l, s, n, src);
	unit_str(unit_capture_end(), want_err, unit_fmt("%s: stderr", what));
	unit_long(r, want, unit_fmt("%s: status", what));
	unit_ok(l.set, unit_fmt("%s: the list is set", what));
	if (want_item != NULL) {
		unit_long((long)l.n, 1, unit_fmt("%s: one item", what));
		if (l.n == 1)
			unit_mem(l.item[0], l.len[0], want_item,
			    unit_fmt("%s: the item", what));
	} else
		unit_long((long)l.n, 0, unit_fmt("%s: no item", what));
	while (l.n > 0)
		free(l.item[--l.n]);
	free(l.item);
	free(l.len);
}

#define ITEM(s, src, want, err, it, what) \
	item(s, sizeof(s) - 1, src, want, err, it, what)

static void
test_items(void)
{
	struct llmq_src s = arg_src("-s", 3, 1);
	struct llmq_src k = arg_src("-k", 5, 1);

	ITEM("college savings", &s, 0, "", "college savings", "a plain item");
	ITEM("  529 plan\t", &k, 0, "", "529 plan", "an item is trimmed");
	ITEM("<&>\"'", &k, 0, "", "<&>\"'", "specials are kept as they are");
	ITEM("", &s, -1, "test_llmq: -s \"\" is empty\n", NULL,
	    "an empty item");
	ITEM(" \t", &s, -1, "test_llmq: -s \" \\t\" is white space only\n",
	    NULL, "a white space item");
	ITEM("a,b", &s, -1, "test_llmq: -s \"a,b\" contains a comma\n", NULL,
	    "an item with a comma");
	ITEM(" , ", &k, -1, "test_llmq: -k \" , \" contains a comma\n", NULL,
	    "a lone comma is a comma, not an empty item");
	ITEM("a\x01", &k, -1, "test_llmq: -k \"a\\u0001\" holds U+0001, a "
	    "character XML 1.0 forbids\n", NULL, "a control character");
	ITEM("a\xEF\xBF\xBF", &k, -1, "test_llmq: -k \"a\xEF\xBF\xBF\" holds "
	    "U+FFFF, a character XML 1.0 forbids\n", NULL, "U+FFFF");
	ITEM("a\0b", &k, -1, "test_llmq: -k \"a\\u0000b\" holds U+0000, a "
	    "character XML 1.0 forbids\n", NULL, "a NUL");
	ITEM("a\xFF", &k, -1, "test_llmq: -k (argument 5) is not valid UTF-8: "
	    "byte 0xff at byte offset 1\n", NULL, "invalid UTF-8");
	ITEM("\xED\xA0\x80", &s, -1, "test_llmq: -s (argument 3) is not valid "
	    "UTF-8: byte 0xed at byte offset 0\n", NULL, "a surrogate");
}

/* Adds a comma-separated list; checks stderr and the items, joined by |. */
static void
items(const char *s, int want, const char *want_err, const char *want_items,
    const char *what)
{
	struct llmq_src src = arg_src("--subjects", 2, 1);
	struct llmq_list l;
	struct buf got = BUF_INIT;
	size_t i;
	int r;

	memset(&l, 0, sizeof(l));
	unit_capture_begin();
	r = llmq_add_items(&l, s, strlen(s), &src);
	unit_str(unit_capture_end(), want_err, unit_fmt("%s: stderr", what));
	unit_long(r, want, unit_fmt("%s: status", what));
	unit_ok(l.set, unit_fmt("%s: the list is set", what));
	for (i = 0; i < l.n; i++) {
		if (i > 0)
			buf_addc(&got, '|');
		buf_add(&got, l.item[i], l.len[i]);
		free(l.item[i]);
	}
	unit_str(buf_cstr(&got), want_items, unit_fmt("%s: items", what));
	buf_free(&got);
	free(l.item);
	free(l.len);
}

static void
test_lists(void)
{
	items("a, b ,c", 0, "", "a|b|c", "items split on commas and trimmed");
	items("family planning", 0, "", "family planning", "one item");
	items("", 0, "", "", "an empty list has no items");
	items(" \t ", 0, "", "", "a white space list has no items");
	items("a,,b", -1, "test_llmq: item 2 of --subjects \"a,,b\" is "
	    "empty\n", "a|b", "an empty item between commas");
	items("a, ", -1, "test_llmq: item 2 of --subjects \"a, \" is empty\n",
	    "a", "a trailing comma");
	items(",", -1, "test_llmq: item 1 of --subjects \",\" is empty\n"
	    "test_llmq: item 2 of --subjects \",\" is empty\n", "",
	    "a lone comma: two empty items");
	items("a,\x02", -1, "test_llmq: --subjects \"a,\\u0002\" holds U+0002, "
	    "a character XML 1.0 forbids\n", "", "a control character");
	items("\xC0\xAF", -1, "test_llmq: --subjects (argument 2) is not "
	    "valid UTF-8: byte 0xc0 at byte offset 0\n", "",
	    "an overlong sequence");
}

static void
count(const char *arg, int want, unsigned long long want_v,
    const char *want_err)
{
	struct llmq_src src = arg_src("-n", 4, 1);
	struct llmq q;
	int r;

	llmq_init(&q);
	unit_capture_begin();
	r = llmq_set_count(&q, arg, &src);
	unit_str(unit_capture_end(), want_err,
	    unit_fmt("-n \"%s\": stderr", arg));
	unit_long(r, want, unit_fmt("-n \"%s\": status", arg));
	unit_long(q.count_set, want == 0, unit_fmt("-n \"%s\": set", arg));
	unit_ok(q.count == want_v, unit_fmt("-n \"%s\": value %llu", arg,
	    want_v));
	llmq_free(&q);
}

static void
test_count(void)
{
	count("12", 0, 12, "");
	count("0", 0, 0, "");
	count("007", 0, 7, "");
	count("9007199254740991", 0, 9007199254740991ULL, "");
	count("9007199254740992", -1, 0, "test_llmq: -n \"9007199254740992\" "
	    "is more than 9007199254740991\n");
	count("18446744073709551616", -1, 0, "test_llmq: -n "
	    "\"18446744073709551616\" is more than 9007199254740991\n");
	count("", -1, 0, "test_llmq: -n \"\" is not a non-negative integer\n");
	count("+1", -1, 0, "test_llmq: -n \"+1\" is not a non-negative "
	    "integer\n");
	count("-1", -1, 0, "test_llmq: -n \"-1\" is not a non-negative "
	    "integer\n");
	count(" 1", -1, 0, "test_llmq: -n \" 1\" is not a non-negative "
	    "integer\n");
	count("1 ", -1, 0, "test_llmq: -n \"1 \" is not a non-negative "
	    "integer\n");
	count("1e3", -1, 0, "test_llmq: -n \"1e3\" is not a non-negative "
	    "integer\n");
	count("1.0", -1, 0, "test_llmq: -n \"1.0\" is not a non-negative "
	    "integer\n");
	count("0x10", -1, 0, "test_llmq: -n \"0x10\" is not a non-negative "
	    "integer\n");
	count("\xFF", -1, 0, "test_llmq: -n (argument 4) is not valid UTF-8: "
	    "byte 0xff at byte offset 0\n");
}

/* The seed's example, built from command-line parts. */
static void
seed_query(struct llmq *q)
{
	struct llmq_src t = arg_src("-t", 2, 1), m = arg_src("the message",
	    0, 0), s = arg_src("-s", 0, 1);
	const char *msg = "How much should we save for college?";
	const char *kw[] = { "children", "university", "tuition", "savings" };
	size_t i;

	llmq_init(q);
	llmq_set_text(&q->topic, "family-planning-2025", 20, &t);
	llmq_set_text(&q->message, msg, strlen(msg), &m);
	q->count = 12;
	q->count_set = 1;
	llmq_add_item(&q->subjects, "family planning", 15, &s);
	llmq_add_items(&q->subjects, " education costs ", 17, &s);
	for (i = 0; i < 4; i++)
		llmq_add_item(&q->keywords, kw[i], strlen(kw[i]), &s);
}

static void
written(const struct llmq *q, unsigned flags, const char *want,
    const char *what)
{
	struct buf b = BUF_INIT;

	buf_adds(&b, "before|");
	llmq_write(q, &b, flags);
	unit_mem(b.data + 7, b.len - 7, want, what);
	unit_mem(b.data, 7, "before|", unit_fmt("%s: appended", what));
	buf_free(&b);
}

static void
test_write(void)
{
	struct llmq q;
	struct llmq_src m = arg_src("the message", 0, 0);

	seed_query(&q);
	unit_capture_begin();
	unit_long(llmq_check(&q, LLMQ_PARTS | LLMQ_NEED_TOPIC), DIAG_OK,
	    "the seed's query passes");
	unit_str(unit_capture_end(), "", "the seed's query: nothing said");
	written(&q, 0, seed_doc, "the seed's example, byte for byte");
	written(&q, LLMQ_ONELINE, seed_line, "the seed's example on one line");

	llmq_free(&q);
	llmq_init(&q);
	llmq_set_text(&q.message, "a&b<c>d\"e'f\tg\nh\r\ni", 18, &m);
	llmq_set_text(&q.topic, "t&<>\"'\t\n\r", 9, &m);
	q.count = 9007199254740991ULL;
	llmq_add_item(&q.subjects, "x\ty&", 4, &m);
	written(&q, 0,
	    "<llmQuery>\n"
	    "  <userMessage>a&amp;b&lt;c&gt;d&quot;e&apos;f\tg\nh&#13;\ni"
	    "</userMessage>\n"
	    "  <context topicId=\"t&amp;&lt;&gt;&quot;&apos;&#9;&#10;&#13;\" "
	    "messageCount=\"9007199254740991\">\n"
	    "    <activeSubjects>x\ty&amp;</activeSubjects>\n"
	    "    <recentKeywords></recentKeywords>\n"
	    "  </context>\n"
	    "</llmQuery>\n",
	    "the layout: tab and newline kept in text, references for a "
	    "carriage return and in the attribute");
	written(&q, LLMQ_ONELINE,
	    "<llmQuery><userMessage>a&amp;b&lt;c&gt;d&quot;e&apos;f&#9;g&#10;"
	    "h&#13;&#10;i</userMessage><context topicId=\"t&amp;&lt;&gt;&quot;"
	    "&apos;&#9;&#10;&#13;\" messageCount=\"9007199254740991\">"
	    "<activeSubjects>x&#9;y&amp;</activeSubjects><recentKeywords>"
	    "</recentKeywords></context></llmQuery>\n",
	    "one line: tab, newline and carriage return as references");
	llmq_free(&q);
}

/* Checks q; compares the status and what went to stderr. */
static void
checked(const struct llmq *q, unsigned flags, int want, const char *err,
    const char *what)
{
	int r;

	unit_capture_begin();
	r = llmq_check(q, flags);
	unit_str(unit_capture_end(), err, unit_fmt("%s: stderr", what));
	unit_long(r, want, unit_fmt("%s: status", what));
}

/* n characters of text: "é" (two bytes) each. */
static char *
long_text(size_t n)
{
	char *s = malloc(2 * n + 1);
	size_t i;

	if (s == NULL)
		abort();
	for (i = 0; i < n; i++)
		memcpy(s + 2 * i, "\xC3\xA9", 2);
	s[2 * n] = '\0';
	return s;
}

static void
test_check_args(void)
{
	struct llmq q;
	struct llmq_src m = arg_src("the message", 0, 0);
	struct llmq_src t = arg_src("-t", 2, 1);
	struct llmq_src s = arg_src("-s", 0, 1);
	char *text;
	size_t i;

	llmq_init(&q);
	q.no_topic = "give -t";
	checked(&q, LLMQ_PARTS, DIAG_OK, "", "nothing set, nothing wrong");
	checked(&q, LLMQ_NEED_TOPIC, DIAG_INVALID,
	    "test_llmq: no topic: give -t\n", "no topic");
	q.no_topic = "";
	checked(&q, LLMQ_NEED_TOPIC, DIAG_INVALID, "test_llmq: no topic\n",
	    "no topic, nothing to add");
	q.no_topic = NULL;
	checked(&q, LLMQ_NEED_TOPIC, DIAG_OK, "",
	    "no topic, not to be reported again");

	llmq_set_text(&q.message, "", 0, &m);
	llmq_set_text(&q.topic, "", 0, &t);
	checked(&q, LLMQ_PARTS | LLMQ_NEED_TOPIC, DIAG_INVALID,
	    "test_llmq: the message is empty\n"
	    "test_llmq: -t \"\" is empty\n", "an empty message and topic");
	llmq_set_text(&q.message, " \n\xE3\x80\x80\t", 6, &m);
	llmq_set_text(&q.topic, "\xC2\xA0", 2, &t);
	checked(&q, LLMQ_PARTS, DIAG_INVALID,
	    "test_llmq: the message is white space only\n"
	    "test_llmq: -t \"\xC2\xA0\" is white space only\n",
	    "white space only");
	llmq_set_text(&q.message, "a\x1B[0m", 5, &m);
	llmq_set_text(&q.topic, "\xEF\xBF\xBE", 3, &t);
	checked(&q, LLMQ_PARTS, DIAG_INVALID,
	    "test_llmq: the message holds U+001B, a character XML 1.0 "
	    "forbids\n"
	    "test_llmq: -t \"\xEF\xBF\xBE\" holds U+FFFE, a character XML 1.0 "
	    "forbids\n", "characters XML forbids");

	text = long_text(CONTRACT_MESSAGE_MAX);
	llmq_set_text(&q.message, text, strlen(text), &m);
	llmq_set_text(&q.topic, "t", 1, &t);
	checked(&q, LLMQ_PARTS | LLMQ_NEED_TOPIC, DIAG_OK, "",
	    "10000 two-byte characters are allowed");
	free(text);
	text = long_text(CONTRACT_MESSAGE_MAX + 1);
	llmq_set_text(&q.message, text, strlen(text), &m);
	checked(&q, LLMQ_PARTS, DIAG_INVALID, "test_llmq: the message is "
	    "10001 characters long, more than 10000\n",
	    "10001 characters are too many");
	free(text);
	llmq_set_text(&q.message, "m", 1, &m);

	for (i = 0; i < CONTRACT_ACTIVE_SUBJECTS_MAX; i++)
		llmq_add_item(&q.subjects, "s", 1, &s);
	for (i = 0; i < CONTRACT_RECENT_KEYWORDS_MAX; i++)
		llmq_add_item(&q.keywords, "k", 1, &s);
	checked(&q, LLMQ_PARTS, DIAG_OK, "", "20 subjects and 50 keywords");
	llmq_add_item(&q.subjects, "s", 1, &s);
	llmq_add_item(&q.keywords, "k", 1, &s);
	checked(&q, LLMQ_PARTS, DIAG_INVALID,
	    "test_llmq: too many subjects: 21, at most 20\n"
	    "test_llmq: too many keywords: 51, at most 50\n",
	    "21 subjects and 51 keywords");
	checked(&q, LLMQ_NEED_TOPIC, DIAG_OK, "",
	    "without LLMQ_PARTS the parts are not checked");
	llmq_free(&q);
}

/* Checks a message taken raw from an input: positions are exact. */
static void
raw(const char *text, size_t n, size_t off, size_t len, const char *err,
    const char *what)
{
	struct llmq_input in;
	struct llmq_src src = { &in, off, 1, "the message", NULL, 0, 0 };
	struct llmq q;

	llmq_input_init(&in, "<stdin>", text, n);
	llmq_init(&q);
	llmq_set_text(&q.message, text + off, len, &src);
	checked(&q, LLMQ_PARTS, *err != '\0' ? DIAG_INVALID : DIAG_OK, err,
	    what);
	llmq_free(&q);
}

#define RAW(s, off, len, err, what) raw(s, sizeof(s) - 1, off, len, err, what)

static void
test_check_raw(void)
{
	char *text;

	RAW("ab\ncd\xFF", 0, 6, "<stdin>:2:3: error: invalid UTF-8: byte 0xff "
	    "at byte offset 5\n", "invalid UTF-8: line, column and offset");
	RAW("\xEF\xBB\xBF\xC3\xA9\x07", 3, 3, "<stdin>:1:2: error: the message "
	    "holds U+0007, a character XML 1.0 forbids\n",
	    "after a byte order mark, at the character itself");
	RAW("\xEF\xBB\xBF", 3, 0, "<stdin>:1:1: error: the message is empty\n",
	    "a byte order mark alone");
	RAW(" \n \n", 0, 3, "<stdin>:1:1: error: the message is white space "
	    "only\n", "white space only, at the start");
	/* "a\nbc" in place of the first two characters: 10007 in all */
	text = long_text(CONTRACT_MESSAGE_MAX + 5);
	memcpy(text, "a\nbc", 4);
	raw(text, strlen(text), 0, strlen(text), "<stdin>:2:9999: error: the "
	    "message is 10007 characters long, more than 10000\n",
	    "too long: at the first character too many");
	free(text);
}

/* Parses a JSON text into v at *off; NULL (a failed check) when it fails. */
static json_t *
parse(const char *s, size_t *off, const char *what)
{
	struct jsonx_error err;
	size_t end;
	json_t *v;

	*off = jsonx_skip_ws(s, strlen(s), 0);
	v = jsonx_parse(s, strlen(s), *off, &end, &err);
	unit_ok(v != NULL, unit_fmt("%s: the JSON parses", what));
	return v;
}

/* Reads a context object; compares the status, stderr and the document. */
static void
context(const char *s, int want, const char *err, const char *doc,
    const char *what)
{
	struct llmq_input in;
	struct llmq_src m = arg_src("the message", 0, 0);
	struct llmq q;
	struct buf b = BUF_INIT;
	size_t off;
	json_t *v;
	int r;

	llmq_input_init(&in, "ctx.json", s, strlen(s));
	if ((v = parse(s, &off, what)) == NULL)
		return;
	llmq_init(&q);
	unit_capture_begin();
	r = llmq_read_context(&q, &in, off, v, 0);
	if (llmq_check(&q, LLMQ_PARTS) != DIAG_OK)
		r = -1;
	unit_str(unit_capture_end(), err, unit_fmt("%s: stderr", what));
	unit_long(r, want, unit_fmt("%s: status", what));
	if (doc != NULL) {
		llmq_set_text(&q.message, "m", 1, &m);
		llmq_write(&q, &b, LLMQ_ONELINE);
		unit_str(buf_cstr(&b), doc, unit_fmt("%s: document", what));
	}
	buf_free(&b);
	llmq_free(&q);
	json_decref(v);
}

static void
test_context(void)
{
	context("{\"topicId\": \"t\", \"messageCount\": 12, "
	    "\"activeSubjects\": [\" a \", \"b\"], "
	    "\"recentKeywords\": [\"k\"], \"more\": [1]}", 0,
	    "", "<llmQuery><userMessage>m</userMessage><context topicId=\"t\" "
	    "messageCount=\"12\"><activeSubjects>a, b</activeSubjects>"
	    "<recentKeywords>k</recentKeywords></context></llmQuery>\n",
	    "a full context; an unknown member is ignored");
	context("{\"topicId\": \"t\", \"messageCount\": 12.0}", 0, "",
	    "<llmQuery><userMessage>m</userMessage><context topicId=\"t\" "
	    "messageCount=\"12\"><activeSubjects></activeSubjects>"
	    "<recentKeywords></recentKeywords></context></llmQuery>\n",
	    "12.0 is the integer 12");
	context("{\"topicId\": \"t\", \"messageCount\": -0, "
	    "\"activeSubjects\": []}", 0, "",
	    "<llmQuery><userMessage>m</userMessage><context topicId=\"t\" "
	    "messageCount=\"0\"><activeSubjects></activeSubjects>"
	    "<recentKeywords></recentKeywords></context></llmQuery>\n",
	    "-0 is 0");
	context("{\"topicId\": \"t\", \"messageCount\": 9007199254740991}", 0,
	    "",
	    "<llmQuery><userMessage>m</userMessage><context topicId=\"t\" "
	    "messageCount=\"9007199254740991\"><activeSubjects>"
	    "</activeSubjects><recentKeywords></recentKeywords></context>"
	    "</llmQuery>\n", "2^53 - 1 is the largest count");
	context("{}", 0, "", NULL, "an empty context");
	context("{\"messageCount\": 9007199254740992}", -1,
	    "ctx.json:1:18: error: \"messageCount\" 9007199254740992 is more "
	    "than 9007199254740991\n", NULL, "2^53 is too large");
	context("{\"messageCount\": 1.5}", -1, "ctx.json:1:18: error: "
	    "\"messageCount\" 1.5 is not a non-negative integer\n", NULL,
	    "1.5 is not an integer");
	context("{\"messageCount\": -1}", -1, "ctx.json:1:18: error: "
	    "\"messageCount\" -1 is not a non-negative integer\n", NULL,
	    "-1 is negative");
	context("{\"messageCount\": \"12\"}", -1, "ctx.json:1:18: error: "
	    "\"messageCount\" must be a number, found a string\n", NULL,
	    "a count in a string");
	context("{\"topicId\": null}", -1, "ctx.json:1:13: error: \"topicId\" "
	    "must be a string, found null\n", NULL, "a null topic");
	context("{\"topicId\": \" \"}", -1, "ctx.json:1:13: error: \"topicId\" "
	    "is white space only\n", NULL, "a white space topic");
	context("{\"topicId\": \"a\\u0000\"}", -1, "ctx.json:1:13: error: "
	    "\"topicId\" holds U+0000, a character XML 1.0 forbids\n", NULL,
	    "a NUL in the topic");
	context("{\"activeSubjects\": \"a, b\"}", -1, "ctx.json:1:20: error: "
	    "\"activeSubjects\" must be an array, found a string\n", NULL,
	    "a list in a string");
	context("{\n  \"recentKeywords\": [\"a\",\n    \"\", \"b,c\", true]\n}",
	    -1,
	    "ctx.json:3:5: error: \"recentKeywords\" item at index 1 is "
	    "empty\n"
	    "ctx.json:3:9: error: \"recentKeywords\" item at index 2 contains "
	    "a comma\n"
	    "ctx.json:3:16: error: \"recentKeywords\" item at index 3 must be "
	    "a string, found a boolean\n", NULL,
	    "bad items, each at its place");
	context("[]", -1, "ctx.json:1:1: error: expected an object, found an "
	    "array\n", NULL, "not an object");
}

static void
test_context_limits(void)
{
	struct buf s = BUF_INIT;
	size_t i;

	buf_adds(&s, "{\"activeSubjects\": [");
	for (i = 0; i < CONTRACT_ACTIVE_SUBJECTS_MAX + 1; i++)
		buf_adds(&s, i > 0 ? ", \"s\"" : "\"s\"");
	buf_adds(&s, "], \"recentKeywords\": [");
	for (i = 0; i < CONTRACT_RECENT_KEYWORDS_MAX + 1; i++)
		buf_adds(&s, i > 0 ? ", \"k\"" : "\"k\"");
	buf_adds(&s, "]}");
	context(buf_cstr(&s), -1, "ctx.json:1:20: error: too many subjects in "
	    "\"activeSubjects\": 21, at most 20\n"
	    "ctx.json:1:145: error: too many keywords in \"recentKeywords\": "
	    "51, at most 50\n", NULL, "21 subjects and 51 keywords");
	buf_free(&s);
}

/* An input that is line 7 of b.jsonl, at byte 100 of it. */
static void
line7(struct llmq_input *in, const char *s)
{
	llmq_input_init(in, "b.jsonl", s, strlen(s));
	src_setline(&in->src, 7);
	in->base = 100;
}

/* Reads one --from-json line, of line 7 of a file, at byte 100. */
static void
line(const char *s, int want, const char *err, const char *doc,
    const char *what)
{
	struct llmq_input in;
	struct llmq q;
	struct buf b = BUF_INIT;
	size_t off;
	json_t *v;
	int r;

	line7(&in, s);
	if ((v = parse(s, &off, what)) == NULL)
		return;
	llmq_init(&q);
	unit_capture_begin();
	r = llmq_read_line(&q, &in, off, v);
	if (llmq_check(&q, LLMQ_PARTS | LLMQ_NEED_TOPIC) != DIAG_OK)
		r = -1;
	unit_str(unit_capture_end(), err, unit_fmt("%s: stderr", what));
	unit_long(r, want, unit_fmt("%s: status", what));
	if (doc != NULL) {
		llmq_write(&q, &b, LLMQ_ONELINE);
		unit_str(buf_cstr(&b), doc, unit_fmt("%s: document", what));
	}
	buf_free(&b);
	llmq_free(&q);
	json_decref(v);
}

static void
test_line(void)
{
	line("{\"userMessage\": \"a\\nb\", \"context\": {\"topicId\": \"t\"}, "
	    "\"id\": 3}", 0, "", "<llmQuery><userMessage>a&#10;b</userMessage>"
	    "<context topicId=\"t\" messageCount=\"0\"><activeSubjects>"
	    "</activeSubjects><recentKeywords></recentKeywords></context>"
	    "</llmQuery>\n", "a good line");
	line("{\"userMessage\": \"\", \"context\": {\"topicId\": \"t\"}}", -1,
	    "b.jsonl:7:17: error: \"userMessage\" is empty\n", NULL,
	    "an empty message");
	line("{\"context\": {}}", -1,
	    "b.jsonl:7:1: error: missing \"userMessage\" (a string)\n"
	    "b.jsonl:7:13: error: no topic: no \"topicId\" in \"context\"\n",
	    NULL, "no message, no topic");
	line("{\"userMessage\": \"m\"}", -1,
	    "b.jsonl:7:1: error: no topic: no \"context\" with a \"topicId\"\n",
	    NULL, "no context");
	line("{\"userMessage\": [], \"context\": {\"topicId\": 1}}", -1,
	    "b.jsonl:7:17: error: \"userMessage\" must be a string, found an "
	    "array\n"
	    "b.jsonl:7:44: error: \"topicId\" must be a string, found a "
	    "number\n", NULL, "mistyped: no \"no topic\" beside them");
	line("{\"userMessage\": \"m\", \"context\": 3}", -1,
	    "b.jsonl:7:33: error: \"context\" must be an object, found a "
	    "number\n", NULL, "a context that is not an object");
	line("\"m\"", -1, "b.jsonl:7:1: error: expected an object, found a "
	    "string\n", NULL, "a line that is not an object");
}

static void
test_line_json_errors(void)
{
	struct llmq_input in;
	const char *s = "{\"userMessage\": \"m\", \"context\": {\"topicId\": "
	    "\"t\", \"activeSubjects\": [\"\"]}}";
	struct llmq q;
	size_t off;
	json_t *v;

	line7(&in, s);
	if ((v = parse(s, &off, "--errors=json")) == NULL)
		return;
	llmq_init(&q);
	diag_setjson(1);
	unit_capture_begin();
	llmq_read_line(&q, &in, off, v);
	unit_str(unit_capture_end(), "{\"file\":\"b.jsonl\",\"line\":7,"
	    "\"column\":69,\"severity\":\"error\",\"rule\":\"empty-item\","
	    "\"message\":\"\\\"activeSubjects\\\" item at index 0 is empty\","
	    "\"path\":\"/context/activeSubjects/0\"}\n",
	    "--errors=json: the rule and the JSON Pointer in the line");
	diag_setjson(0);
	llmq_free(&q);
	json_decref(v);
}

/*
 * The command line: parts kept in order and applied at the end, each
 * problem naming its option and value; an operand named by its number
 * as given, although getopt_long has moved it since.
 */
static void
test_args(void)
{
	const char *args[] = { "tool", "-t", "a", "hi", "-k", "x,y", "-n",
	    "z", "-sb\xFF", "-t", "top", "w\x07", NULL };
	char **argv = (char **)args;
	char *moved[] = { argv[3], argv[11] };
	struct llmq_args a;
	struct llmq q;
	struct buf b = BUF_INIT;
	int r;

	llmq_args_init(&a, 12, argv);
	llmq_args_add(&a, LLMQ_TOPIC, "-t", argv[2]);
	llmq_args_add(&a, LLMQ_KEYWORD, "-k", argv[5]);
	llmq_args_add(&a, LLMQ_COUNT, "-n", argv[7]);
	llmq_args_add(&a, LLMQ_SUBJECT, "-s", argv[8] + 2);
	llmq_args_add(&a, LLMQ_TOPIC, "-t", argv[10]);
	unit_long((long)a.v[3].argn, 8, "args: an attached value is its "
	    "argument's");
	llmq_init(&q);
	unit_capture_begin();
	r = llmq_args_parts(&q, &a);
	unit_str(unit_capture_end(), "test_llmq: -k \"x,y\" contains a comma\n"
	    "test_llmq: -n \"z\" is not a non-negative integer\n"
	    "test_llmq: -s (argument 8) is not valid UTF-8: byte 0xff at "
	    "byte offset 1\n", "args: every bad part, in command-line order");
	unit_long(r, DIAG_INVALID, "args: bad parts are DIAG_INVALID");
	unit_mem(q.topic.s, q.topic.len, "top", "args: the last -t counts");
	unit_capture_begin();
	r = llmq_args_message(&q, &a, 2, moved);
	unit_str(unit_capture_end(), "test_llmq: the message (argument 11) "
	    "holds U+0007, a character XML 1.0 forbids\n",
	    "args: an operand is named by its number as given");
	unit_long(r, DIAG_INVALID, "args: a bad operand is DIAG_INVALID");
	unit_ok(q.message.s == NULL, "args: no message from bad operands");
	llmq_free(&q);

	llmq_args_free(&a);
	llmq_args_init(&a, 12, argv);
	llmq_args_add(&a, LLMQ_SUBJECTS, "--subjects", argv[5]);
	llmq_args_add(&a, LLMQ_KEYWORDS, "--keywords", argv[5]);
	llmq_args_add(&a, LLMQ_TOPIC, "-t", argv[2]);
	llmq_init(&q);
	moved[1] = argv[10];
	unit_long(llmq_args_parts(&q, &a), DIAG_OK, "args: good parts");
	unit_long(llmq_args_message(&q, &a, 2, moved), DIAG_OK,
	    "args: good operands");
	llmq_write(&q, &b, LLMQ_ONELINE);
	unit_str(buf_cstr(&b), "<llmQuery><userMessage>hi top</userMessage>"
	    "<context topicId=\"a\" messageCount=\"0\"><activeSubjects>x, y"
	    "</activeSubjects><recentKeywords>x, y</recentKeywords>"
	    "</context></llmQuery>\n",
	    "args: operands joined by one space, lists split");
	buf_free(&b);
	llmq_free(&q);
	llmq_args_free(&a);
}

/* Reads text as a --context file; compares the status and stderr. */
static void
read_file(const char *text, size_t n, int want, const char *err,
    const char *what)
{
	char path[sizeof(UNIT_TMPNAME)];
	struct llmq_input in;
	struct llmq q;
	struct buf got = BUF_INIT;
	const char *s, *p;
	int r;

	unit_tmpfile(path, text, n);
	llmq_init(&q);
	unit_capture_begin();
	r = llmq_read_context_file(&q, &in, path);
	/* the file's name is not known beforehand: "FILE" stands for it */
	for (s = unit_capture_end(); (p = strstr(s, path)) != NULL;
	    s = p + strlen(path)) {
		buf_add(&got, s, (size_t)(p - s));
		buf_adds(&got, "FILE");
	}
	buf_adds(&got, s);
	unit_str(buf_cstr(&got), err, unit_fmt("%s: stderr", what));
	buf_free(&got);
	unit_long(r, want, unit_fmt("%s: status", what));
	llmq_free(&q);
	llmq_input_free(&in);
	unlink(path);
}

#define READ_FILE(s, want, err, what) \
	read_file(s, sizeof(s) - 1, want, err, what)

static void
test_read_files(void)
{
	char path[sizeof(UNIT_TMPNAME)];
	struct llmq_input in;
	struct llmq q;
	int r;

	READ_FILE("\xEF\xBB\xBF {\"topicId\": \"t\"} \n", DIAG_OK, "",
	    "context: a byte order mark and white space around");
	READ_FILE("{\"topicId\": \"t\"} []", DIAG_INVALID, "FILE:1:18: error: "
	    "invalid JSON: text after the context object\n",
	    "context: text after the object");
	READ_FILE("{\"topicId\": \"\", \"recentKeywords\": [\"a,b\"]}",
	    DIAG_INVALID, "FILE:1:36: error: \"recentKeywords\" item at "
	    "index 0 contains a comma\n"
	    "FILE:1:13: error: \"topicId\" is empty\n",
	    "context: checked in full");
	READ_FILE("{\"topicId\": \"\xFF\"}", DIAG_INVALID, "FILE:1:14: "
	    "error: invalid UTF-8: byte 0xff at byte offset 13\n",
	    "context: invalid UTF-8, at its byte");
	READ_FILE("", DIAG_INVALID, "FILE:1:1: error: invalid JSON: "
	    "unexpected token near end of file\n", "context: an empty file");
	unit_capture_begin();
	r = llmq_read_context_file(&q, &in, "/no/such/file");
	unit_str(unit_capture_end(), "test_llmq: /no/such/file: No such file "
	    "or directory\n", "context: a missing file is reported");
	unit_long(r, DIAG_TROUBLE, "context: a missing file is trouble");
	llmq_input_free(&in);

	unit_tmpfile(path, "\xEF\xBB\xBFm\x01\r\n", 7);
	llmq_init(&q);
	unit_capture_begin();
	r = llmq_read_message(&q, &in, path);
	unit_str(unit_capture_end(), "", "message: read, not checked");
	unit_long(r, DIAG_OK, "message: status");
	unit_mem(q.message.s, q.message.len, "m\x01", "message: past the byte "
	    "order mark, less the final CR LF");
	unit_capture_begin();
	llmq_check(&q, LLMQ_PARTS);
	unit_ok(strstr(unit_capture_end(), ":1:2: error: the message holds "
	    "U+0001, a character XML 1.0 forbids\n") != NULL,
	    "message: a problem at its place in the file");
	llmq_free(&q);
	llmq_input_free(&in);
	unlink(path);
}

/* Reads JSON lines from text into a string; compares all it gives. */
static void
lines(const char *text, size_t n, int unbuffered, int want,
    const char *out, const char *err, const char *what)
{
	FILE *in, *o;
	char *got = NULL, *copy = xmalloc(n + 1);
	size_t len = 0;
	int r;

	memcpy(copy, text, n);
	if ((in = fmemopen(copy, n, "r")) == NULL ||
	    (o = open_memstream(&got, &len)) == NULL)
		unit_bail("fmemopen");
	unit_capture_begin();
	r = llmq_read_lines(in, "b.jsonl", o, unbuffered);
	unit_str(unit_capture_end(), err, unit_fmt("%s: stderr", what));
	fclose(o);
	unit_str(got, out, unit_fmt("%s: output", what));
	unit_long(r, want, unit_fmt("%s: status", what));
	fclose(in);
	free(copy);
	free(got);
}

#define LINES(s, want, out, err, what) \
	lines(s, sizeof(s) - 1, 0, want, out, err, what)

#define Q(m)	"{\"userMessage\":\"" m "\",\"context\":{\"topicId\":\"t\"}}"
#define DOC(m)	"<llmQuery><userMessage>" m "</userMessage><context " \
		"topicId=\"t\" messageCount=\"0\"><activeSubjects>" \
		"</activeSubjects><recentKeywords></recentKeywords>" \
		"</context></llmQuery>\n"

static void
test_lines(void)
{
	char two[] = Q("a") "\n" Q("") "\n";
	FILE *in, *full;

	LINES("\xEF\xBB\xBF" Q("a") "\n\n  \t\n" Q("") "\n" Q("b"),
	    DIAG_INVALID, DOC("a") DOC("b"), "b.jsonl:4:16: error: \"userMessage\" is "
	    "empty\n", "a byte order mark, blank lines, a bad line, no final "
	    "newline");
	LINES(Q("a") "\n" Q("\xFF") "\n", DIAG_INVALID, DOC("a"),
	    "b.jsonl:2:17: error: invalid UTF-8: byte 0xff at byte offset "
	    "62\n", "invalid UTF-8: its offset in the file");
	LINES(Q("a") "\n\xEF\xBB\xBF" Q("b") "\n", DIAG_INVALID, DOC("a"),
	    "b.jsonl:2:1: error: invalid JSON: invalid token near "
	    "'\xEF\xBB\xBF'\n", "a byte order mark on a later line is "
	    "refused");
	LINES("{\"userMessage\":\n\"a\"}\n", DIAG_INVALID, "",
	    "b.jsonl:1:16: error: invalid JSON: unexpected token near "
	    "end of line\n"
	    "b.jsonl:2:4: error: invalid JSON: text after the object on the "
	    "line\n", "a value may not span lines");
	LINES(Q("a") "\n{\"userMessage\":\0\"b\"}\n" Q("c") "\n", DIAG_INVALID,
	    DOC("a") DOC("c"), "b.jsonl:2:16: error: invalid JSON: NUL "
	    "byte\n", "a NUL byte ends its line: the next one is read");
	LINES(Q("a") "\n{\"x\":\0abc}\n" Q("\xFF") "\n", DIAG_INVALID,
	    DOC("a"),
	    "b.jsonl:2:6: error: invalid JSON: NUL byte\n"
	    "b.jsonl:3:17: error: invalid UTF-8: byte 0xff at byte offset "
	    "73\n", "the rest of a NUL line, skipped, counts in offsets");
	lines("", 0, 0, DIAG_OK, "", "", "an empty input");

	/* out fails: the line after the first good one is not read */
	if ((in = fmemopen(two, sizeof(two) - 1, "r")) == NULL ||
	    (full = fopen("/dev/full", "w")) == NULL)
		unit_bail("/dev/full");
	unit_capture_begin();
	unit_long(llmq_read_lines(in, "b.jsonl", full, 1), DIAG_TROUBLE,
	    "a failed output is trouble");
	unit_str(unit_capture_end(), "", "a failed output: nothing more is "
	    "read, nothing reported (the caller closes the output)");
	fclose(in);
	fclose(full);
}

static void
test_merge(void)
{
	struct llmq q, ctx;
	struct llmq_src a = arg_src("-t", 0, 1);
	struct buf b = BUF_INIT;

	llmq_init(&q);
	llmq_init(&ctx);
	llmq_set_text(&q.message, "m", 1, &a);
	llmq_set_text(&ctx.message, "not this", 8, &a);
	llmq_set_text(&ctx.topic, "ctx-topic", 9, &a);
	ctx.count = 5;
	ctx.count_set = 1;
	llmq_add_item(&ctx.subjects, "ctx-s", 5, &a);
	llmq_add_item(&ctx.keywords, "ctx-k", 5, &a);
	llmq_add_items(&q.subjects, "", 0, &a);
	llmq_add_item(&q.keywords, "k", 1, &a);
	llmq_merge(&q, &ctx);
	llmq_write(&q, &b, LLMQ_ONELINE);
	unit_str(buf_cstr(&b), "<llmQuery><userMessage>m</userMessage>"
	    "<context topicId=\"ctx-topic\" messageCount=\"5\">"
	    "<activeSubjects></activeSubjects><recentKeywords>k"
	    "</recentKeywords></context></llmQuery>\n",
	    "merge: what q lacks comes from the context; an empty list set "
	    "on the command line stays empty");
	unit_ok(ctx.topic.s == NULL && ctx.message.s != NULL,
	    "merge: moved, not copied; the context keeps what was not taken");
	llmq_free(&ctx);
	llmq_free(&q);
	buf_free(&b);
}

int
main(void)
{
	diag_setprogname("test_llmq");
	test_trim();
	test_items();
	test_lists();
	test_count();
	test_write();
	test_check_args();
	test_check_raw();
	test_context();
	test_context_limits();
	test_line();
	test_line_json_errors();
	test_merge();
	test_args();
	test_read_files();
	test_lines();
	return unit_done();
}
