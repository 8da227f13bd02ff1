/*
 * Unit tests of lib/llmr: the parsed document of valid queries and
 * responses (decoded text, trimmed list items, numbers), the problems of
 * invalid ones as data (rule, line, column, path, message, in document
 * order), warnings and --strict, --find origins, positions past a chunk
 * boundary, the nesting limit, the NUL byte that ends a text, one
 * validator reused for many documents (a deep one among them), the JSON
 * and feedback writers, llmr_report's lines on stderr, problems placed
 * in a JSON line by llmr_place, and the -o and -t arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/embed.h"
#include "contract/llmr.h"
#include "unit.h"

static const char seed_response[] =
    "<llmResponse>\n"
    "  <response>For college savings, financial advisors often recommend "
    "529 plans. They offer tax advantages and can be used for qualified "
    "education expenses. The amount to save depends on factors like "
    "current age of children, expected college costs, and your "
    "timeframe.</response>\n"
    "  <analysis>\n"
    "    <subject name=\"college-savings\" description=\"Discussion of "
    "saving strategies for children's higher education\" isNew=\"true\">\n"
    "      <keyword term=\"529-plan\" confidence=\"0.95\" />\n"
    "      <keyword term=\"tax-advantages\" confidence=\"0.85\" />\n"
    "      <keyword term=\"education-expenses\" confidence=\"0.90\" />\n"
    "      <keyword term=\"financial-planning\" confidence=\"0.75\" />\n"
    "    </subject>\n"
    "    <summaryUpdate>User asked about college savings amounts. "
    "Assistant explained 529 plans and mentioned that savings targets "
    "depend on children's ages and expected costs.</summaryUpdate>\n"
    "  </analysis>\n"
    "</llmResponse>\n";

static const char seed_query[] =
    "<llmQuery>\n"
    "  <userMessage>How much should we save for college?</userMessage>\n"
    "  <context topicId=\"family-planning-2025\" messageCount=\"12\">\n"
    "    <activeSubjects>family planning, education costs</activeSubjects>\n"
    "    <recentKeywords>children, university, tuition, savings"
    "</recentKeywords>\n"
    "  </context>\n"
    "</llmQuery>\n";

static struct llmr_opts
opts(enum llmr_type type, int find, int warnings, int strict)
{
	struct llmr_opts o;

	o.file = "t.xml";
	o.type = type;
	o.find = find;
	o.warnings = warnings;
	o.strict = strict;
	o.hint = 0;
	return o;
}

static int
check(struct llmr *v, const char *s, const struct llmr_opts *o)
{
	return llmr_check(v, s, strlen(s), o);
}

/* All the problems as "LINE:COL severity rule PATH: MESSAGE" lines. */
static char *
problems(const struct llmr *v)
{
	const struct diag_item *d;
	struct buf b = BUF_INIT;
	size_t i, n;

	d = llmr_diags(v, &n);
	for (i = 0; i < n; i++)
		buf_printf(&b, "%lu:%lu %s %s %s: %s\n", d[i].line, d[i].col,
		    d[i].severity == DIAG_ERROR ? "error" : "warning",
		    d[i].rule, d[i].path ? d[i].path : "-", d[i].message);
	return buf_cstr(&b);
}

static void
want_problems(struct llmr *v, const char *want, const char *what)
{
	char *got = problems(v);

	unit_str(got, want, what);
	free(got);
}

static void
test_response_doc(struct llmr *v)
{
	struct llmr_opts o = opts(LLMR_ANY, 0, 1, 1);
	const struct llmr_doc *d;
	size_t n;

	unit_long(check(v, seed_response, &o), DIAG_OK, "the seed response");
	llmr_diags(v, &n);
	unit_long((long)n, 0, "the seed response: no problem, strict");
	d = llmr_doc(v);
	unit_ok(d != NULL && d->type == LLMR_RESPONSE, "a response document");
	if (d == NULL)
		return;
	unit_mem(d->response.s, 36, "For college savings, financial advis",
	    "response text");
	unit_long((long)d->response.len, 254, "response length in bytes");
	unit_long(d->response.s[d->response.len], '\0', "ends with NUL");
	unit_long((long)d->nsubjects, 1, "one subject");
	unit_str(d->subjects[0].name.s, "college-savings", "subject name");
	unit_long((long)d->subjects[0].description.len, 63,
	    "description length");
	unit_long(d->subjects[0].is_new, 1, "isNew true");
	unit_long((long)d->subjects[0].nkeywords, 4, "four keywords");
	unit_str(d->subjects[0].keywords[3].term.s, "financial-planning",
	    "fourth term");
	unit_ok(d->subjects[0].keywords[2].confidence == 0.9,
	    "confidence 0.90");
	unit_mem(d->summary.s, 16, "User asked about", "summary text");
}

static void
test_query_doc(struct llmr *v)
{
	struct llmr_opts o = opts(LLMR_ANY, 0, 1, 1);
	const struct llmr_doc *d;

	unit_long(check(v, seed_query, &o), DIAG_OK, "the seed query");
	d = llmr_doc(v);
	unit_ok(d != NULL && d->type == LLMR_QUERY, "a query document");
	if (d == NULL)
		return;
	unit_str(d->message.s, "How much should we save for college?",
	    "userMessage");
	unit_str(d->topic_id.s, "family-planning-2025", "topicId");
	unit_long((long)d->message_count, 12, "messageCount");
	unit_long((long)d->nactive_subjects, 2, "two active subjects");
	unit_str(d->active_subjects[1].s, "education costs",
	    "trimmed, NUL-ended item");
	unit_long((long)d->nrecent_keywords, 4, "four recent keywords");
	unit_mem(d->recent_keywords[3].s, d->recent_keywords[3].len,
	    "savings", "last keyword");
	unit_long(d->response.len, 0, "no response text in a query");

	unit_long(check(v, "<llmQuery><userMessage> x </userMessage>"
	    "<context topicId='' messageCount='0'><recentKeywords>"
	    " a\t,\n b , </recentKeywords></context></llmQuery>", &o),
	    DIAG_INVALID, "an empty item is an error with strict");
	o = opts(LLMR_ANY, 0, 0, 0);
	unit_long(check(v, "<llmQuery><userMessage> x </userMessage>"
	    "<context topicId='' messageCount='0'><recentKeywords>"
	    " a\t,\n b , </recentKeywords></context></llmQuery>", &o),
	    DIAG_OK, "and nothing by default");
	d = llmr_doc(v);
	unit_str(d->message.s, " x ", "the message is not trimmed");
	unit_str(d->topic_id.s, "", "an empty topicId");
	unit_long((long)d->nactive_subjects, 0, "no activeSubjects");
	unit_long((long)d->nrecent_keywords, 2, "empty items are dropped");
	unit_str(d->recent_keywords[0].s, "a", "first item");
	unit_str(d->recent_keywords[1].s, "b", "second item");
}

static void
test_problems(struct llmr *v)
{
	struct llmr_opts o = opts(LLMR_ANY, 0, 0, 0);
	const char *doc =
	    "<llmResponse>\n"
	    "  <analysis>\n"
	    "    <subject name='a' isNew='yes'><keyword confidence='2'/>\n"
	    "    <keyword term='b' confidence='.5'/></subject>\n"
	    "  </analysis>\n"
	    "  <response/><response>x</response>\n"
	    "</llmResponse>";

	unit_long(check(v, doc, &o), DIAG_INVALID, "an invalid response");
	unit_ok(llmr_doc(v) == NULL, "no document when invalid");
	want_problems(v,
	    "2:3 error required-element /llmResponse/analysis: "
	    "missing <summaryUpdate>\n"
	    "3:5 error required-attribute /llmResponse/analysis/subject[1]: "
	    "missing attribute \"description\"\n"
	    "3:23 error is-new /llmResponse/analysis/subject[1]: "
	    "isNew \"yes\" is not \"true\" or \"false\"\n"
	    "3:35 error required-attribute "
	    "/llmResponse/analysis/subject[1]/keyword[1]: "
	    "missing attribute \"term\"\n"
	    "3:44 error confidence /llmResponse/analysis/subject[1]/keyword[1]:"
	    " confidence \"2\" is outside 0.0-1.0\n"
	    "4:23 error confidence /llmResponse/analysis/subject[1]/keyword[2]:"
	    " confidence \".5\" is not a number\n"
	    "6:3 error empty-text /llmResponse/response[1]: text is empty\n"
	    "6:14 error element-count /llmResponse/response[2]: "
	    "2 <response> elements, exactly one allowed\n",
	    "every problem in document order");

	o = opts(LLMR_ANY, 0, 1, 0);
	unit_long(check(v, "<llmResponse><response>Hi</response><analysis>"
	    "<summaryUpdate/></analysis></llmResponse>", &o), DIAG_OK,
	    "warnings leave a document valid");
	want_problems(v,
	    "1:14 warning response-length /llmResponse/response: "
	    "text is 2 characters, 100-2000 recommended\n"
	    "1:37 warning subject-min /llmResponse/analysis: "
	    "no <subject>, 1-3 recommended\n", "the warnings");
	unit_ok(llmr_doc(v) != NULL, "a document despite warnings");

	o = opts(LLMR_ANY, 0, 0, 1);
	unit_long(check(v, "<llmResponse><response>Hi</response><analysis>"
	    "<summaryUpdate/></analysis></llmResponse>", &o), DIAG_INVALID,
	    "strict makes them errors");
	want_problems(v,
	    "1:14 error response-length /llmResponse/response: "
	    "text is 2 characters, 100-2000 recommended\n"
	    "1:37 error subject-min /llmResponse/analysis: "
	    "no <subject>, 1-3 recommended\n", "the same, as errors");
}

static void
test_syntax(struct llmr *v)
{
	struct llmr_opts o = opts(LLMR_ANY, 0, 0, 0);

	unit_long(llmr_check(v, "", 0, &o), DIAG_INVALID, "empty input");
	want_problems(v, "1:1 error xml-syntax -: no element found\n",
	    "empty input: expat's message");
	unit_long(llmr_check(v, "\xff\xfe<\0a\0", 6, &o), DIAG_INVALID,
	    "a UTF-16 byte order mark");
	want_problems(v, "1:1 error utf8 -: invalid UTF-8: byte 0xff at byte "
	    "offset 0\n", "refused as invalid UTF-8");
	unit_long(llmr_check(v, "<\0a\0", 4, &o), DIAG_INVALID,
	    "UTF-16 without a byte order mark");
	want_problems(v, "1:2 error xml-syntax -: not well-formed (NUL "
	    "byte)\n", "refused as expat refuses a NUL, named");
	unit_long(check(v, "\xef\xbb\xbf<llmQuery>\xc3</llmQuery>", &o),
	    DIAG_INVALID, "a bad byte after a byte order mark");
	want_problems(v, "1:11 error utf8 -: invalid UTF-8: byte 0xc3 at byte "
	    "offset 13\n", "offset in the whole input, column without BOM");
	unit_long(check(v, "<!DOCTYPE a [<!ENTITY x 'y'>]><llmQuery>&x;"
	    "</llmQuery>", &o), DIAG_INVALID, "a DTD");
	want_problems(v, "1:1 error dtd -: DTDs are not allowed\n",
	    "refused, at its start");
	unit_long(check(v, "  <llmQuery/> <x/>", &o), DIAG_INVALID,
	    "a second element");
	want_problems(v, "1:15 error outside-root -: text after the root "
	    "element\n", "is text after the root");
	unit_long(check(v, "\n<!-- c --><?p?>\n  Sure: <llmQuery/>", &o),
	    DIAG_INVALID, "prose before the root");
	want_problems(v, "3:3 error outside-root -: text before the root "
	    "element\n", "is text before it");
}

static void
test_find(struct llmr *v)
{
	struct llmr_opts o = opts(LLMR_ANY, 1, 0, 0);
	const struct llmr_doc *d;

	unit_long(check(v, "Über:\r\n```xml\r\n  <llmQuery><userMessage>é"
	    "</userMessage><context topicId='t' messageCount='x'/></llmQuery>"
	    "\r\n```\r\n<junk", &o), DIAG_INVALID, "--find, CR LF lines");
	want_problems(v, "3:62 error message-count /llmQuery/context: "
	    "messageCount \"x\" is not a non-negative integer\n",
	    "positions in the whole input");
	unit_long(check(v, "x <llmQueryy/> <llmQuery><userMessage>m"
	    "</userMessage><context topicId='t' messageCount='1'/></llmQuery>"
	    "</llmQuery> trailing", &o), DIAG_OK,
	    "--find: a whole name, and what follows is left alone");
	d = llmr_doc(v);
	unit_ok(d != NULL && strcmp(d->message.s, "m") == 0,
	    "the document found");
	o = opts(LLMR_RESPONSE, 1, 0, 0);
	unit_long(check(v, seed_query, &o), DIAG_INVALID,
	    "-t response --find in a query");
	want_problems(v, "1:1 error not-found -: no <llmResponse> element "
	    "found\n", "finds nothing");
}

static void
test_chunks(struct llmr *v)
{
	struct llmr_opts o = opts(LLMR_ANY, 0, 0, 0);
	struct buf b = BUF_INIT;
	size_t i;

	buf_adds(&b, "<llmQuery><userMessage>");
	for (i = 0; i < 70000; i++)
		buf_adds(&b, "\xe2\x82\xac");	/* the euro sign */
	buf_adds(&b, "</userMessage>\n<context topicId='t' messageCount='-1'/>"
	    "</llmQuery>");
	unit_long(check(v, buf_cstr(&b), &o), DIAG_INVALID,
	    "a 210 KB query");
	want_problems(v,
	    "1:11 error message-length /llmQuery/userMessage: text is 70000 "
	    "characters, at most 10000 allowed\n"
	    "2:22 error message-count /llmQuery/context: messageCount \"-1\" "
	    "is not a non-negative integer\n", "positions past 64 KiB");
	buf_free(&b);
}

/*
 * A response whose <response> holds the text "x" and n elements, each in
 * the one before, the last of them empty when empty is set.
 */
static char *
deep_response(size_t n, int empty)
{
	struct buf b = BUF_INIT;
	size_t i;

	buf_adds(&b, "<llmResponse><response>x");
	for (i = 0; i < n; i++)
		buf_adds(&b, i + 1 == n && empty ? "<e/>" : "<e>");
	for (i = empty && n > 0 ? 1 : 0; i < n; i++)
		buf_adds(&b, "</e>");
	buf_adds(&b, "</response><analysis><summaryUpdate/></analysis>"
	    "</llmResponse>");
	return buf_cstr(&b);
}

static void
test_depth(struct llmr *v)
{
	struct llmr_opts o = opts(LLMR_ANY, 0, 0, 0);
	char *s;

	s = deep_response(4094, 0);
	unit_long(check(v, s, &o), DIAG_OK, "nesting 4096 deep is accepted");
	free(s);
	s = deep_response(4095, 0);
	unit_long(check(v, s, &o), DIAG_INVALID, "nesting 4097 deep");
	want_problems(v, "1:12307 error nesting-depth -: element nesting "
	    "deeper than 4096 levels\n", "is refused at the 4097th start tag");
	free(s);
	s = deep_response(4095, 1);
	unit_long(check(v, s, &o), DIAG_INVALID, "an empty element 4097 deep");
	want_problems(v, "1:12307 error nesting-depth -: element nesting "
	    "deeper than 4096 levels\n", "is refused the same way");
	free(s);
	o = opts(LLMR_ANY, 1, 0, 0);
	s = deep_response(4095, 0);
	unit_long(check(v, s, &o), DIAG_INVALID, "--find: nesting 4097 deep");
	want_problems(v, "1:12307 error nesting-depth -: element nesting "
	    "deeper than 4096 levels\n", "--find: the same message");
	free(s);
	/* expat 2.5 spoils a parser reset after such a document */
	o = opts(LLMR_ANY, 0, 0, 0);
	s = deep_response(500000, 0);
	unit_long(check(v, s, &o), DIAG_INVALID, "nesting 500,000 deep");
	free(s);
	unit_long(check(v, seed_response, &o), DIAG_OK,
	    "the next document is checked as on its own");
	unit_ok(llmr_doc(v) != NULL, "and kept parsed");
}

static void
test_nul(struct llmr *v)
{
	struct llmr_opts o = opts(LLMR_ANY, 1, 0, 0);

	unit_long(llmr_check(v, "Sure:\n a\0<llmQuery/>", 20, &o),
	    DIAG_INVALID, "--find: a NUL byte before the root");
	want_problems(v, "2:3 error not-found -: NUL byte before any "
	    "<llmResponse> or <llmQuery> element\n", "ends the search");
	unit_long(llmr_check(v, "<llmQuery><userMessage>m</userMessage>"
	    "<context topicId='t' messageCount='1'/></llmQuery>\0\xff", 90,
	    &o), DIAG_OK, "--find: a NUL byte after the document");
	o = opts(LLMR_ANY, 0, 0, 0);
	unit_long(llmr_check(v, "<llmQuery/>\n\0<!-- -->", 21, &o),
	    DIAG_INVALID, "a NUL byte after the root");
	want_problems(v, "2:1 error outside-root -: text after the root "
	    "element\n", "is text after it, whatever follows");
}

static void
test_strict_unknowns(struct llmr *v)
{
	struct llmr_opts o = opts(LLMR_ANY, 0, 0, 1);
	const struct diag_item *d;
	struct buf b = BUF_INIT;
	size_t i, n;

	for (i = 0; i < 4096; i++)
		buf_adds(&b, "<x a='1'>");
	buf_adds(&b, "text");
	for (i = 0; i < 4096; i++)
		buf_adds(&b, "</x>");
	unit_long(check(v, buf_cstr(&b), &o), DIAG_INVALID,
	    "a deep tree under an unknown root");
	want_problems(v, "1:1 error root /x: root element must be "
	    "<llmResponse> or <llmQuery>\n", "reported once");
	buf_reset(&b);
	buf_adds(&b, "<llmQuery><userMessage>m</userMessage><context "
	    "topicId='t' messageCount='1'/>");
	for (i = 0; i < 1000; i++)
		buf_adds(&b, "<x/>");
	buf_adds(&b, "<yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"
	    "yyyyyyyyyyyyyyyyyyyyyyyy/></llmQuery>");
	unit_long(check(v, buf_cstr(&b), &o), DIAG_INVALID,
	    "many unknown elements");
	d = llmr_diags(v, &n);
	unit_long((long)n, 1001, "each reported");
	unit_str(d[0].path, "/llmQuery/x", "without an index");
	unit_str(d[1000].path, "/llmQuery/yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"
	    "yyyyyyyyyyyyyyyyyyyyyyyyyyyyy...", "a long name cut");
	o = opts(LLMR_ANY, 0, 0, 0);
	unit_long(check(v, buf_cstr(&b), &o), DIAG_OK, "ignored by default");
	buf_free(&b);
}

static void
test_json(struct llmr *v)
{
	struct llmr_opts o = opts(LLMR_ANY, 0, 0, 0);
	struct buf b = BUF_INIT;

	check(v, "<llmResponse><response>a\"\\\n&lt;\t&#1F600;</response>"
	    "<analysis><summaryUpdate> s </summaryUpdate><subject name='n'"
	    " description='d&#10;e' isNew='false'><keyword term='t' "
	    "confidence='1e-1'/><keyword term='u' confidence='-0'/></subject>"
	    "<subject name='m' description='' isNew='true'/></analysis>"
	    "</llmResponse>", &o);
	unit_ok(llmr_doc(v) == NULL, "a bad character reference");
	check(v, "<llmResponse><response>a\"\\\n&lt;\t&#x1F600;</response>"
	    "<analysis><summaryUpdate> s </summaryUpdate><subject name='n'"
	    " description='d&#10;e' isNew='false'><keyword term='t' "
	    "confidence='1e-1'/><keyword term='u' confidence='-0'/></subject>"
	    "<subject name='m' description='' isNew='true'/></analysis>"
	    "</llmResponse>", &o);
	unit_ok(llmr_doc(v) != NULL, "a response for JSON");
	if (llmr_doc(v) != NULL)
		llmr_json(&b, llmr_doc(v));
	unit_str(buf_cstr(&b), "{\"response\":\"a\\\"\\\\\\n<\\t"
	    "\xf0\x9f\x98\x80\",\"subjects\":[{\"name\":\"n\","
	    "\"description\":\"d\\ne\","
	    "\"isNew\":false,\"keywords\":[{\"term\":\"t\",\"confidence\":0.1},"
	    "{\"term\":\"u\",\"confidence\":0}]},{\"name\":\"m\","
	    "\"description\":\"\",\"isNew\":true,\"keywords\":[]}],"
	    "\"summaryUpdate\":\" s \"}\n", "the response as JSON");
	buf_reset(&b);
	check(v, seed_query, &o);
	llmr_json(&b, llmr_doc(v));
	unit_str(buf_cstr(&b), "{\"userMessage\":\"How much should we save "
	    "for college?\",\"topicId\":\"family-planning-2025\","
	    "\"messageCount\":12,\"activeSubjects\":[\"family planning\","
	    "\"education costs\"],\"recentKeywords\":[\"children\","
	    "\"university\",\"tuition\",\"savings\"]}\n", "the query as JSON");
	buf_free(&b);
}

static void
test_feedback(struct llmr *v)
{
	struct llmr_opts o = opts(LLMR_ANY, 0, 1, 0);
	struct buf b = BUF_INIT;
	const char *head =
	    "Your reply is not a valid <llmResponse> document. These problems "
	    "were found in it (line:column: element: problem):\n"
	    "- 1:14: /llmResponse/response: text is empty\n"
	    "\nWrite your whole reply again with these problems corrected, in "
	    "the format below.\n\n";

	check(v, "<llmResponse><response/><analysis><summaryUpdate/></analysis>"
	    "</llmResponse>", &o);
	llmr_feedback(&b, v, embed_llm_response_prompt,
	    embed_llm_response_prompt_len);
	unit_ok(b.len == strlen(head) + embed_llm_response_prompt_len,
	    "feedback: the errors and the prompt");
	unit_mem(b.data, strlen(head), head, "warnings are left out");
	unit_ok(memcmp(b.data + strlen(head), embed_llm_response_prompt,
	    embed_llm_response_prompt_len) == 0, "the prompt, byte for byte");
	buf_free(&b);
}

static void
test_report(struct llmr *v)
{
	struct llmr_opts o = opts(LLMR_ANY, 0, 1, 0);
	struct buf b = BUF_INIT;
	FILE *capture;
	char chunk[512];
	size_t n;
	int saved;

	check(v, "<llmQuery>\n<context topicId='t'/></llmQuery>", &o);
	fflush(stderr);
	if ((capture = tmpfile()) == NULL || (saved = dup(2)) == -1 ||
	    dup2(fileno(capture), 2) == -1) {
		perror("test_llmr");
		exit(3);
	}
	llmr_report(v);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(capture);
	while ((n = fread(chunk, 1, sizeof(chunk), capture)) > 0)
		buf_add(&b, chunk, n);
	fclose(capture);
	unit_str(buf_cstr(&b),
	    "t.xml:1:1: error: /llmQuery: missing <userMessage>\n"
	    "t.xml:2:1: error: /llmQuery/context: missing attribute "
	    "\"messageCount\"\n", "llmr_report's lines");
	buf_free(&b);
}

/*
 * Positions are worked out from offsets: lines end at CR LF, CR and LF as
 * expat ends them, for problems and for the subjects of a valid response.
 */
static void
test_offsets(struct llmr *v)
{
	struct llmr_opts o = opts(LLMR_ANY, 0, 0, 0);
	const struct diag_item *d;
	const struct llmr_doc *doc;
	char cr[sizeof(seed_response)], *p;
	size_t n;

	check(v, "<llmResponse>\r<response>x</response>\r\n<analysis>\r"
	    "<subject name=\"a\" description=\"d\" isNew=\"maybe\"/>\r"
	    "<summaryUpdate>s</summaryUpdate></analysis></llmResponse>", &o);
	want_problems(v, "4:35 error is-new /llmResponse/analysis/subject[1]: "
	    "isNew \"maybe\" is not \"true\" or \"false\"\n",
	    "offsets: CR and CR LF end lines");
	d = llmr_diags(v, &n);
	unit_ok(n == 1 && d[0].prefix, "offsets: a path is shown before the "
	    "message, which does not hold it");

	memcpy(cr, seed_response, sizeof(cr));
	for (p = cr; (p = strchr(p, '\n')) != NULL; p++)
		*p = '\r';
	unit_long(check(v, cr, &o), DIAG_OK, "offsets: a response in CR lines");
	doc = llmr_doc(v);
	unit_ok(doc != NULL && doc->nsubjects == 1 &&
	    doc->subjects[0].line == 4 && doc->subjects[0].col == 5,
	    "offsets: a subject's line and column, from its offset");

	check(v, "\xEF\xBB\xBF<llmResponse><response>\xC3\xA9 & b</response>"
	    "</llmResponse>", &o);
	want_problems(v, "1:26 error bare-ampersand -: bare \"&\" "
	    "(write &amp;)\n", "offsets: a bare & at itself, as toolcall-parse");
	d = llmr_diags(v, &n);
	unit_ok(n == 1 && !d[0].prefix, "offsets: no path, no prefix");
}

/* A confidence reads as strtod reads it, short decimals and all. */
static void
test_confidence(struct llmr *v)
{
	static const char *const vals[] = { "0.95", "0.1", "1e0", "-0",
	    "0.30000000000000004", "0.123456789012345", "0.1234567890123456",
	    "1", "0.000000000000001" };
	struct llmr_opts o = opts(LLMR_ANY, 0, 0, 0);
	const struct llmr_doc *d;
	struct buf b = BUF_INIT;
	char what[80];
	double want;
	size_t i, n = sizeof(vals) / sizeof(vals[0]);

	buf_adds(&b, "<llmResponse><response>r</response><analysis>"
	    "<subject name=\"s\" description=\"d\" isNew=\"true\">");
	for (i = 0; i < n; i++)
		buf_printf(&b, "<keyword term=\"t\" confidence=\"%s\"/>",
		    vals[i]);
	buf_adds(&b, "</subject><summaryUpdate/></analysis></llmResponse>");
	unit_long(check(v, buf_cstr(&b), &o), DIAG_OK, "confidence: valid");
	d = llmr_doc(v);
	for (i = 0; d != NULL && i < n; i++) {
		want = strtod(vals[i], NULL);
		snprintf(what, sizeof(what), "confidence %s as strtod reads it",
		    vals[i]);
		unit_ok(memcmp(&d->subjects[0].keywords[i].confidence, &want,
		    sizeof(want)) == 0, what);
	}
	buf_free(&b);
}

/* The hint that --find exists, where the caller asks for it. */
static void
test_hint(struct llmr *v)
{
	struct llmr_opts o = opts(LLMR_ANY, 0, 0, 0);
	static const char doc[] = "Here:\n<llmResponse/>\n";

	check(v, doc, &o);
	want_problems(v, "1:1 error outside-root -: text before the root "
	    "element\n", "hint: none unless asked for");
	o.hint = 1;
	check(v, doc, &o);
	want_problems(v, "1:1 error outside-root -: text before the root "
	    "element (use --find to read a document inside other text)\n",
	    "hint: text before the root");
	check(v, "<llmResponse/>\n```\n", &o);
	want_problems(v, "2:1 error outside-root -: text after the root "
	    "element (use --find to read a document inside other text)\n",
	    "hint: text after the root");
	o.find = 1;
	check(v, doc, &o);
	want_problems(v, "2:1 error required-element /llmResponse: missing "
	    "<response>\n2:1 error required-element /llmResponse: missing "
	    "<analysis>\n", "hint: none with find");
}

/*
 * llmr_place: a problem in a JSON line's string moves from the text's
 * line and column to where the line writes it, escapes and all.
 */
static void
test_place(struct llmr *v)
{
	static const char line[] = " \"<llmResponse>\\n<response>x</response>"
	    "<analysis><subject name=\\\"a\\\" description=\\\"d\\\" "
	    "isNew=\\\"maybe\\\"/><summaryUpdate>s</summaryUpdate></analysis>"
	    "</llmResponse>\"";
	struct llmr_opts o = opts(LLMR_ANY, 0, 0, 0);

	check(v, "<llmResponse>\n<response>x</response><analysis><subject "
	    "name=\"a\" description=\"d\" isNew=\"maybe\"/><summaryUpdate>s"
	    "</summaryUpdate></analysis></llmResponse>", &o);
	want_problems(v, "2:67 error is-new /llmResponse/analysis/subject[1]: "
	    "isNew \"maybe\" is not \"true\" or \"false\"\n",
	    "place: the problem in the text");
	llmr_place(v, line, sizeof(line) - 1, 1, 7);
	want_problems(v, "7:88 error is-new /llmResponse/analysis/subject[1]: "
	    "isNew \"maybe\" is not \"true\" or \"false\"\n",
	    "place: the problem where line 7 writes it");
}

/* -o's and -t's arguments, and what names none. */
static void
test_args(void)
{
	unit_long(cmd_choice_find("none", llmr_outputs), LLMR_OUT_NONE,
	    "-o none");
	unit_long(cmd_choice_find("json", llmr_outputs), LLMR_OUT_JSON,
	    "-o json");
	unit_long(cmd_choice_find("report", llmr_outputs), LLMR_OUT_REPORT,
	    "-o report");
	unit_long(cmd_choice_find("text", llmr_outputs), LLMR_OUT_TEXT,
	    "-o text");
	unit_long(cmd_choice_find("Text", llmr_outputs), -1, "-o Text: none");
	unit_long(cmd_choice_find("query", llmr_types), LLMR_QUERY, "-t query");
	unit_long(cmd_choice_find("response", llmr_types), LLMR_RESPONSE,
	    "-t response");
	unit_long(cmd_choice_find("", llmr_types), -1, "-t \"\": none");
}

int
main(void)
{
	struct llmr *v = llmr_new();

	test_response_doc(v);
	test_query_doc(v);
	test_problems(v);
	test_syntax(v);
	test_find(v);
	test_chunks(v);
	test_depth(v);
	test_nul(v);
	test_strict_unknowns(v);
	test_json(v);
	test_feedback(v);
	test_report(v);
	test_offsets(v);
	test_confidence(v);
	test_hint(v);
	test_place(v);
	test_args();
	test_response_doc(v);	/* the validator is still as new */
	llmr_free(v);
	return unit_done();
}
