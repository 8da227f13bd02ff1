/*
 * Unit tests of lib/store and lib/sha256: the normal form of terms, names
 * quoted for diagnostics, the hashes (FIPS 180-4's examples; an
 * attachment's hash is that of its line without the hash), the inline
 * limit at 1024 bytes, a repeated put, what one response leaves in a
 * store in memory, and the rules of llmstore's command lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/sha256.h"
#include "contract/llmr.h"
#include "store/store.h"
#include "unit.h"

static void
norm(const char *in, const char *want)
{
	struct buf b = BUF_INIT;

	store_normalize(&b, in, strlen(in));
	unit_str(b.data, want, unit_fmt("normal form of \"%s\"", want));
	buf_free(&b);
}

static void
test_normalize(void)
{
	norm("529-Plan", "529-plan");
	norm("  Tax \t Advantages\r\n", "tax advantages");
	norm("\xc3\x89" "cole", "\xc3\x89" "cole");	/* ASCII only */
	norm(" \n\t ", "");
	norm("", "");
}

static void
quote(const char *in, size_t n, const char *want)
{
	struct buf b = BUF_INIT;

	store_quote(&b, in, n);
	unit_str(buf_cstr(&b), want, unit_fmt("quoted %s", want));
	buf_free(&b);
}

/* Names in diagnostics: one line of valid UTF-8 whatever they hold. */
static void
test_quote(void)
{
	quote("t", 1, "\"t\"");
	quote("", 0, "\"\"");
	quote("a\xff" "b", 3, "\"a\\xFFb\"");
	quote("a\nb\t\"\\", 6, "\"a\\nb\\t\\\"\\\\\"");
	quote("\x1b[31m", 5, "\"\\u001b[31m\"");
	quote("\xc3\x89" "cole", 6, "\"\xc3\x89" "cole\"");
	quote("\xc3", 1, "\"\\xC3\"");		/* cut short */
	quote("\xed\xa0\x80", 3, "\"\\xED\\xA0\\x80\"");	/* a surrogate */
	quote("a\0b", 3, "\"a\\u0000b\"");
}

static void
test_sha256(void)
{
	char h[SHA256_HEX];

	unit_long(sha256_hex("abc", 3, h), 0, "sha256 of abc");
	unit_str(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61"
	    "f20015ad", "FIPS 180-4's abc");
	sha256_hex("", 0, h);
	unit_str(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b"
	    "7852b855", "the empty string");
	unit_long(sha256_ishex(h), 1, "a hash is hex");
	unit_long(sha256_ishex("E3B0"), 0, "upper case or short is not");
}

/* A valid response of exactly n bytes (n >= 400), padded in its text. */
static char *
response(size_t n, const char *subject, const char *term)
{
#define TAIL "</response><analysis><subject name=\"%s\" " \
	    "description=\"d\" isNew=\"true\"><keyword term=\"%s\" " \
	    "confidence=\"0.5\"/></subject><summaryUpdate>s</summaryUpdate>" \
	    "</analysis></llmResponse>"
	char head[512], *doc;
	int h, t;

	h = snprintf(head, sizeof(head), "<llmResponse><response>");
	t = snprintf(NULL, 0, TAIL, subject, term);
	doc = malloc(n + 1);
	memcpy(doc, head, (size_t)h);
	memset(doc + h, 'x', n - (size_t)h - (size_t)t);
	snprintf(doc + n - t, (size_t)t + 1, TAIL, subject, term);
	return doc;
}

/* Validates and puts doc; the put's status, the hash in hash. */
static int
put(struct store *s, struct llmr *v, const char *msg, const char *doc,
    char hash[SHA256_HEX])
{
	struct llmr_opts o;
	struct store_doc d;
	int st;

	memset(&o, 0, sizeof(o));
	o.file = msg;
	if (llmr_check(v, doc, strlen(doc), &o) != DIAG_OK)
		return -1;
	memset(&d, 0, sizeof(d));
	d.file = msg;
	d.topic = "t";
	d.message = msg;
	d.xml = doc;
	d.len = strlen(doc);
	d.doc = llmr_doc(v);
	if (store_begin(s, 1) != DIAG_OK)
		return -1;
	st = store_put(s, &d);
	if (st == DIAG_OK)
		st = store_commit(s);
	else
		store_rollback(s);
	memcpy(hash, d.hash, SHA256_HEX);
	return st;
}

/* What a command writes, in a string. */
static char *
output(struct store *s, int (*fn)(struct store *, const char *, FILE *),
    const char *arg)
{
	char *text = NULL;
	size_t n;
	FILE *fp = open_memstream(&text, &n);

	store_begin(s, 0);
	fn(s, arg, fp);
	store_rollback(s);
	fclose(fp);
	return text;
}

static int
ls(struct store *s, const char *msg, FILE *fp)
{
	return store_ls(s, NULL, msg, NULL, fp);
}

static void
test_put(void)
{
	struct store *s;
	struct llmr *v = llmr_new();
	char h1[SHA256_HEX], h2[SHA256_HEX], h3[SHA256_HEX], want[SHA256_HEX];
	char *a = response(1024, "Budget", "Rent"), *b = response(1025,
	    "budget", "food"), *line, *cut;

	setenv("LLMSTORE_NOW", "1000", 1);
	if (store_open(&s, ":memory:", 1) != DIAG_OK)
		unit_bail("store_open");
	unit_long(put(s, v, "m1", a, h1), DIAG_OK, "a put of 1024 bytes");
	unit_capture_begin();	/* the isNew warning */
	unit_long(put(s, v, "m2", b, h2), DIAG_OK, "a put of 1025 bytes");
	unit_capture_end();
	line = output(s, ls, "m1");
	unit_ok(strstr(line, "\"xmlContent\":") != NULL &&
	    strstr(line, "\"size\":1024,") != NULL, "1024 bytes are inline");
	cut = strstr(line, ",\"hash\":");
	strcpy(cut, "}");
	sha256_hex(line, strlen(line), want);
	unit_str(h1, want, "the hash is that of the line without it");
	free(line);
	line = output(s, ls, "m2");
	sha256_hex(b, 1025, want);
	unit_ok(strstr(line, want) != NULL && strstr(line, "xmlContent") ==
	    NULL, "1025 bytes are a blob named by its SHA-256");
	free(line);

	unit_long(put(s, v, "m1", a, h3), DIAG_OK, "the same put again");
	unit_str(h3, h1, "gives the stored hash");
	unit_capture_begin();
	unit_long(put(s, v, "m1", b, h3), DIAG_INVALID,
	    "the id with other bytes is refused");
	unit_capture_end();

	line = output(s, store_context, "t");
	unit_str(line, "{\"topicId\":\"t\",\"messageCount\":2,"
	    "\"activeSubjects\":[\"budget\"],\"recentKeywords\":[\"food\","
	    "\"rent\"]}\n", "the context: normal forms, most recent first");
	free(line);
	line = output(s, store_subjects, "t");
	unit_ok(strstr(line, "\"keywords\":[\"rent\",\"food\"],\"timeRanges\":"
	    "[{\"start\":1000,\"end\":1000}],\"messageCount\":2,") != NULL,
	    "one subject over two responses in a row: one time range");
	free(line);
	unit_long(store_fsck(s), DIAG_OK, "fsck finds nothing");
	store_close(s);
	llmr_free(v);
	free(a);
	free(b);
}

static void
batch_id(const char *file, const char *want)
{
	char *id = store_batch_id(file);

	unit_str(id, want, unit_fmt("the message id of %s", file));
	free(id);
}

/* What store_args_check says of a command line, or "" when it passes. */
static void
args(const struct store_rules *r, const struct store_args *a,
    const char *want, const char *what)
{
	struct buf why = BUF_INIT;
	int rc = store_args_check("cmd", r, a, &why);

	unit_str(buf_cstr(&why), want, what);
	unit_long(rc, *want == '\0' ? 0 : -1, what);
	buf_free(&why);
}

static void
test_args(void)
{
	static const struct store_rules put = { "put needs -t TOPIC and "
	    "-m MESSAGE", 0, 1, "one FILE at most", { NULL, NULL }, 0 };
	static const struct store_rules cat = { NULL, 1, 1,
	    "one HASH or -m MESSAGE", { "HASH", NULL }, 1 };
	static const struct store_rules archive = { NULL, 2, 2,
	    "TOPIC and SUBJECT", { "TOPIC", "SUBJECT" }, 0 };
	char a0[] = "a", a1[] = "b", a2[] = "r\xff.xml", a3[] = "c\xff";
	char *ops[] = { a0, a1, a2, NULL }, *pair[] = { a0, a3, NULL };
	struct store_args a;

	batch_id("r12.xml", "r12");
	batch_id("answers/r12.xml", "r12");
	batch_id("dir.xml/notes", "notes");
	batch_id("a.xml.xml", "a.xml");
	batch_id(".xml", ".xml");
	batch_id("d/", "");

	memset(&a, 0, sizeof(a));
	a.topic = "t";
	a.message = "m";
	args(&put, &a, "", "put -t t -m m");
	a.message = NULL;
	args(&put, &a, "put needs -t TOPIC and -m MESSAGE", "put -t t");
	a.topic = "";
	args(&put, &a, "-t must not be empty", "put -t ''");
	a.topic = "t\xc3";
	args(&put, &a, "-t must be valid UTF-8, not \"t\\xC3\"",
	    "put -t not UTF-8");
	a.topic = "t";
	a.batch = 1;
	args(&put, &a, "cmd takes one FILE or more with --batch",
	    "put --batch without a file");
	a.argc = 3;
	a.argv = ops;
	args(&put, &a, "put --batch: the message id of \"r\\xFF.xml\" must "
	    "be valid UTF-8", "put --batch with an id that is not UTF-8");
	a.argc = 2;
	args(&put, &a, "", "put --batch a b");
	a.topic = NULL;
	args(&put, &a, "put --batch needs -t TOPIC", "put --batch without -t");

	memset(&a, 0, sizeof(a));
	args(&cat, &a, "cmd takes one HASH or -m MESSAGE", "cat");
	a.message = "m";
	args(&cat, &a, "", "cat -m m");
	a.argc = 1;
	a.argv = ops;
	args(&cat, &a, "cmd takes one HASH or -m MESSAGE", "cat -m m a");
	a.message = NULL;
	args(&cat, &a, "", "cat a");
	a.format = "xml";
	args(&cat, &a, "--format must be llm-query or llm-response, not "
	    "\"xml\"", "--format xml");

	memset(&a, 0, sizeof(a));
	a.argc = 2;
	a.argv = pair;
	args(&archive, &a, "SUBJECT must be valid UTF-8, not \"c\\xFF\"",
	    "archive a c\\xFF");
	a.argc = 1;
	args(&archive, &a, "cmd takes TOPIC and SUBJECT", "archive a");
}

int
main(void)
{
	diag_setprogname("test_store");
	test_normalize();
	test_quote();
	test_sha256();
	test_put();
	test_args();
	return unit_done();
}
