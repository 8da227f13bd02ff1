/*
 * Unit tests of lib/tcopenai: every fixture of t/data/toolcall-parse/
 * openai (CASE.in, an input as a server or a capture gives it; CASE.out,
 * what the reader tells of it, one event a line) read whole, in pieces
 * of every size (one byte at a time first), and cut in two at every
 * byte: the same events each time, so that no boundary (inside a line, a
 * string, an escape, a character, a CR LF) changes what is read. Then
 * the API: the form found, a callback that stops the reader, callbacks
 * left NULL, the arguments' numbers, and a reader given nothing.
 *
 * With a file as its operand, prints what the reader tells of it (to
 * write a fixture's .out, which is then checked by hand).
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/jsonw.h"
#include "base/xalloc.h"
#include "toolcall/tcopenai.h"
#include "unit.h"

#define DIR	"t/data/toolcall-parse/openai"

/* What a run tells, one event a line. */
struct log {
	struct buf	out;
	int		stop_at;	/* a callback's count to stop at, or 0 */
	int		count;
};

static int
counted(struct log *l)
{
	return l->stop_at != 0 && ++l->count >= l->stop_at ? -1 : 0;
}

static int
on_text(void *arg, const char *s, size_t n)
{
	struct log *l = arg;

	buf_adds(&l->out, "text ");
	jsonw_string(&l->out, s, n);
	buf_addc(&l->out, '\n');
	return counted(l);
}

static int
on_reasoning(void *arg, const char *s, size_t n)
{
	struct log *l = arg;

	buf_adds(&l->out, "reasoning ");
	jsonw_string(&l->out, s, n);
	buf_addc(&l->out, '\n');
	return counted(l);
}

/* A call: where, its name, its id, and its arguments or their text. */
static void
put_call(struct buf *b, const struct tcopenai_call *c)
{
	buf_printf(b, "%lu:%lu ", c->line, c->col);
	jsonw_string(b, c->name, c->namelen);
	if (c->id != NULL) {
		buf_adds(b, " id ");
		jsonw_string(b, c->id, c->idlen);
	}
	buf_addc(b, ' ');
	if (c->args != NULL)
		jsonw_exact(b, c->args);
	else {
		buf_adds(b, "raw ");
		jsonw_string(b, c->text, c->textlen);
	}
}

static int
on_call(void *arg, const struct tcopenai_call *c)
{
	struct log *l = arg;

	buf_adds(&l->out, "call ");
	put_call(&l->out, c);
	buf_addc(&l->out, '\n');
	return counted(l);
}

static int
on_diag(void *arg, const struct tcopenai_diag *d)
{
	struct log *l = arg;

	buf_printf(&l->out, "%s %lu:%lu %s: ", d->severity == DIAG_ERROR ?
	    "error" : "warning", d->line, d->col, d->rule);
	if (d->path != NULL)
		buf_printf(&l->out, "%s: ", d->path);
	buf_adds(&l->out, d->message);
	if (strchr(d->message, '\n') != NULL)
		buf_adds(&l->out, " [a message of several lines]");
	if (d->call != NULL) {
		if (d->call->args != NULL)
			buf_adds(&l->out, " [arguments given with an error]");
		buf_adds(&l->out, "\n  call ");
		put_call(&l->out, d->call);
	}
	buf_addc(&l->out, '\n');
	return counted(l);
}

static const struct tcopenai_cb cbs = {
	on_text, on_reasoning, on_call, on_diag, NULL
};

/*
 * Reads n bytes at s, fed in pieces of step bytes (0: whole; a step
 * past n: cut once, at step - n); returns the log, and in *status the
 * reader's status.
 */
static char *
run(const char *s, size_t n, size_t step, int *status)
{
	struct tcopenai_cb cb = cbs;
	struct tcopenai *r;
	struct log l;
	size_t i, k;

	memset(&l, 0, sizeof(l));
	cb.arg = &l;
	r = tcopenai_new(&cb);
	if (step == 0)
		tcopenai_feed(r, s, n);
	else if (step > n) {
		tcopenai_feed(r, s, step - n);
		tcopenai_feed(r, s + (step - n), n - (step - n));
	} else
		for (i = 0; i < n; i += k) {
			k = n - i < step ? n - i : step;
			tcopenai_feed(r, s + i, k);
		}
	tcopenai_end(r);
	*status = tcopenai_status(r);
	tcopenai_free(r);
	buf_printf(&l.out, "status %d\n", *status);
	return buf_cstr(&l.out);
}

/* One fixture, read whole, then fed in every way, always the same. */
static void
fixture(const char *in)
{
	char out[4096], *s, *want, *whole, *got;
	const char *base = strrchr(in, '/') + 1;
	size_t n, wn, step, bad = 0;
	int status, st;

	snprintf(out, sizeof(out), "%.*s.out", (int)(strlen(in) - 3), in);
	s = unit_slurp(in, &n);
	want = unit_slurp(out, &wn);
	whole = run(s, n, 0, &status);
	unit_mem(whole, strlen(whole), want, unit_fmt("%s: what is told",
	    base));
	/* in pieces of every size (1: a byte at a time), cut in two anywhere */
	for (step = 1; step < 2 * n && bad == 0; step++) {
		got = run(s, n, step, &st);
		if (strcmp(got, whole) != 0) {
			bad++;
			unit_mem(got, strlen(got), whole, unit_fmt("%s: fed in "
			    "%s %zu, as whole", base, step > n ? "two at" :
			    "pieces of", step > n ? step - n : step));
		}
		free(got);
	}
	unit_ok(bad == 0, unit_fmt("%s: the same events however it is fed%s",
	    base, bad ? " (see above)" : ""));
	free(whole);
	free(want);
	free(s);
}

/* The form a reader finds in s. */
static enum tcopenai_form
form_of(const char *s)
{
	struct tcopenai_cb none;
	struct tcopenai *r;
	enum tcopenai_form f;

	memset(&none, 0, sizeof(none));
	r = tcopenai_new(&none);
	tcopenai_feed(r, s, strlen(s));
	f = tcopenai_form(r);
	tcopenai_free(r);
	return f;
}

static void
test_forms(void)
{
	unit_long(form_of(""), TCOPENAI_NONE, "nothing: no form yet");
	unit_long(form_of(" \n\t"), TCOPENAI_NONE, "white space: no form yet");
	unit_long(form_of("\xEF\xBB\xBF{\n\"a\": 1}"), TCOPENAI_JSON,
	    "an object over lines, after a BOM: JSON documents");
	unit_long(form_of("{\"a\":1}\n{"), TCOPENAI_LINES,
	    "an object on one line: JSON lines");
	unit_long(form_of("  {\"a\":"), TCOPENAI_JSON,
	    "an object begun: JSON, lines or not yet known");
	unit_long(form_of("data: {}\n"), TCOPENAI_SSE, "data: SSE");
	unit_long(form_of("\r\n: ping\r\n"), TCOPENAI_SSE, "a comment: SSE");
}

static const char two_calls[] =
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
    "\"id\":\"a\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}}]}\n\n"
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,"
    "\"id\":\"b\",\"function\":{\"name\":\"g\",\"arguments\":\"{}\"}}]}}]}\n\n"
    "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":"
    "\"tool_calls\"}]}\n\ndata: [DONE]\n\n";

/*
 * What is told of s fed up to the end of the first "mark" in it (or
 * all of it when mark is NULL): the reader is left open, not ended.
 */
static char *
told_by(const char *s, const char *mark)
{
	struct tcopenai_cb cb = cbs;
	struct tcopenai *r;
	struct log l;
	const char *at;
	size_t n = strlen(s);

	if (mark != NULL && (at = strstr(s, mark)) != NULL)
		n = (size_t)(at - s) + strlen(mark);
	memset(&l, 0, sizeof(l));
	cb.arg = &l;
	r = tcopenai_new(&cb);
	tcopenai_feed(r, s, n);
	tcopenai_free(r);
	return buf_cstr(&l.out);
}

static void
check_told(const char *s, const char *mark, const char *want,
    const char *what)
{
	char *got = told_by(s, mark);

	unit_str(got, want, what);
	free(got);
}

/* Each call is told the moment it is complete, not at the end. */
static void
test_moment(void)
{
	static const char whole[] = "{\n \"object\": \"chat.completion\",\n"
	    " \"choices\": [{\"index\": 0, \"message\": {\"tool_calls\": [{\"id\":"
	    " \"a\", \"function\": {\"name\": \"f\", \"arguments\": \"{}\"}}]}}]\n}";
	static const char lines[] = "{\"message\":{\"tool_calls\":[{\"function\":"
	    "{\"name\":\"f\",\"arguments\":{\"x\":1}}}]},\"done\":false}"
	    "{\"message\":{\"content\":\"more\"},\"done\":true}\n";
	static const char revents[] =
	    "data: {\"type\":\"response.output_item.added\",\"output_index\":0,"
	    "\"item\":{\"type\":\"function_call\",\"id\":\"fc\",\"call_id\":\"c\","
	    "\"name\":\"f\",\"arguments\":\"\"}}\n\n"
	    "data: {\"type\":\"response.function_call_arguments.delta\","
	    "\"item_id\":\"fc\",\"output_index\":0,\"delta\":\"{}\"}\n\n"
	    "data: {\"type\":\"response.function_call_arguments.done\","
	    "\"item_id\":\"fc\",\"output_index\":0,\"arguments\":\"{}\"}\n\n"
	    "data: {\"type\":\"response.completed\"}\n\n";

	check_told(two_calls, "\"index\":1,", "", "a chunk stream: nothing told "
	    "before the event of the next index is whole");
	check_told(two_calls, "\"arguments\":\"{}\"}}]}}]}\n\ndata: {\"choices\":"
	    "[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"b\","
	    "\"function\":{\"name\":\"g\",\"arguments\":\"{}\"}}]}}]}\n",
	    "", "a chunk stream: an event is read at its empty line");
	check_told(two_calls, "\"arguments\":\"{}\"}}]}}]}\n\ndata: {\"choices\":"
	    "[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"b\","
	    "\"function\":{\"name\":\"g\",\"arguments\":\"{}\"}}]}}]}\n\n",
	    "call 1:53 \"f\" id \"a\" {}\n", "a chunk stream: a call is told "
	    "when a delta of another index is read");
	check_told(two_calls, "\"finish_reason\":\"tool_calls\"}]}\n\n",
	    "call 1:53 \"f\" id \"a\" {}\ncall 3:53 \"g\" id \"b\" {}\n",
	    "a chunk stream: the last call is told at finish_reason");
	check_told(whole, "}}]}}]\n", "", "a document: nothing told before "
	    "its end");
	check_told(whole, "}}]}}]\n}", "call 3:54 \"f\" id \"a\" {}\n",
	    "a document: its calls told at its closing brace");
	check_told(lines, "}}}]},\"done\":false}", "call 1:27 \"f\" {\"x\":1}\n",
	    "JSON lines: a call told at its object's closing brace");
	check_told(revents, "\"delta\":\"{}\"}\n\n", "", "a Responses stream: "
	    "nothing told while the arguments grow");
	check_told(revents, "\"arguments\":\"{}\"}\n\n",
	    "call 1:68 \"f\" id \"c\" {}\n", "a Responses stream: a call told "
	    "at response.function_call_arguments.done");
}

/* The line and column of byte off of s, counted plainly. */
static void
naive_pos(const char *s, size_t off, unsigned long *line, unsigned long *col)
{
	size_t i;

	*line = *col = 1;
	for (i = 0; i < off; i++) {
		if (s[i] == '\n') {
			++*line;
			*col = 1;
		} else if (((unsigned char)s[i] & 0xC0) != 0x80)
			++*col;
	}
}

/*
 * A document of many calls whose "id" (a number: an error) comes after
 * its arguments: each error is placed going back from the arguments,
 * past checkpoints of the walk. Every place against a plain count.
 */
static void
test_going_back(void)
{
	struct buf in = BUF_INIT, want = BUF_INIT;
	const char *at, *p;
	unsigned long line, col, k;
	int status;
	char *got;

	buf_adds(&in, "{\"object\": \"chat.completion\", \"choices\": [{"
	    "\"index\": 0, \"message\": {\"tool_calls\": [\n");
	for (k = 0; k < 400; k++)
		buf_printf(&in, "%s  {\"function\": {\"name\": \"f\u00e9\","
		    " \"arguments\": \"{\\\"n\\\": %lu}\"}, \"id\": %lu}",
		    k > 0 ? ",\n" : "", k, k);
	buf_adds(&in, "]}}]}\n");
	buf_cstr(&in);
	for (p = in.data, k = 0; (at = strstr(p, "\"id\": ")) != NULL;
	    p = at + 1, k++) {
		naive_pos(in.data, (size_t)(at + 6 - in.data), &line, &col);
		buf_printf(&want, "error %lu:%lu shape: /choices/0/message/"
		    "tool_calls/%lu/id: expected a string, found a number\n",
		    line, col, k);
		naive_pos(in.data, (size_t)(strstr(at - 80, "{\"function\"") -
		    in.data), &line, &col);
		buf_printf(&want, "call %lu:%lu \"f\u00e9\" {\"n\":%lu}\n", line,
		    col, k);
	}
	buf_adds(&want, "status 1\n");
	got = run(in.data, in.len, 0, &status);
	unit_str(got, buf_cstr(&want), "going back past checkpoints: every "
	    "place as a plain count has it");
	free(got);
	buf_free(&in);
	buf_free(&want);
}

/*
 * Responses calls told at their arguments' .done wait for their item's
 * .done, so that it is not told again; of more than 1024 such, the
 * oldest is forgotten, and only its item is told again.
 */
static void
test_told_bound(void)
{
	struct buf in = BUF_INIT;
	unsigned long k, n = 1025;
	const char *p;
	size_t calls = 0;
	int status;
	char *got;

	for (k = 0; k < n; k++)
		buf_printf(&in, "data: {\"type\":\"response.output_item.added\","
		    "\"output_index\":%lu,\"item\":{\"type\":\"function_call\","
		    "\"id\":\"fc%lu\",\"call_id\":\"c%lu\",\"name\":\"f\"}}\n\n"
		    "data: {\"type\":\"response.function_call_arguments.done\","
		    "\"item_id\":\"fc%lu\",\"output_index\":%lu,"
		    "\"arguments\":\"{}\"}\n\n", k, k, k, k, k);
	for (k = 0; k < n; k++)
		buf_printf(&in, "data: {\"type\":\"response.output_item.done\","
		    "\"output_index\":%lu,\"item\":{\"type\":\"function_call\","
		    "\"id\":\"fc%lu\",\"call_id\":\"c%lu\",\"name\":\"f\","
		    "\"arguments\":\"{}\"}}\n\n", k, k, k);
	buf_adds(&in, "data: {\"type\":\"response.completed\"}\n\n");
	got = run(in.data, in.len, 0, &status);
	for (p = got; (p = strstr(p, "call ")) != NULL; p++)
		calls++;
	unit_long((long)calls, (long)n + 1, "1025 calls told, then awaiting "
	    "their items: the first is forgotten and told again");
	unit_ok(strstr(got, "\"c0\" {}\ncall") != NULL &&
	    strstr(strstr(got, "\"c1024\" {}\n"), "\"c0\"") != NULL,
	    "the call told again is the oldest, after the others");
	unit_long(status, 0, "1025 calls awaiting their items: status 0");
	free(got);
	buf_free(&in);
}

/* A callback that returns non-zero: nothing more is told. */
static void
test_stop(void)
{
	struct tcopenai_cb cb = cbs;
	struct tcopenai *r;
	struct log l;
	int fed, ended;

	memset(&l, 0, sizeof(l));
	l.stop_at = 1;
	cb.arg = &l;
	r = tcopenai_new(&cb);
	fed = tcopenai_feed(r, two_calls, sizeof(two_calls) - 1);
	ended = tcopenai_end(r);
	unit_long(fed, -1, "a callback stops it: tcopenai_feed returns -1");
	unit_long(ended, -1, "a callback stops it: tcopenai_end returns -1");
	unit_str(buf_cstr(&l.out), "call 1:53 \"f\" id \"a\" {}\n",
	    "a callback stops it: nothing told after");
	unit_long(tcopenai_feed(r, "x", 1), -1,
	    "a callback stops it: feeding more returns -1");
	tcopenai_free(r);
	buf_free(&l.out);
}

/* Callbacks left NULL: nothing told, the status still kept. */
static void
test_null(void)
{
	static const char bad[] = "data: {\"choices\":[{\"delta\":{\"content\":"
	    "\"hi\",\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"f\","
	    "\"arguments\":\"[\"}}]},\"finish_reason\":\"stop\"}]}\n\n";
	struct tcopenai_cb cb;
	struct tcopenai *r;

	memset(&cb, 0, sizeof(cb));
	r = tcopenai_new(&cb);
	unit_long(tcopenai_feed(r, two_calls, sizeof(two_calls) - 1), 0,
	    "no callbacks: fed");
	unit_long(tcopenai_end(r), 0, "no callbacks: ended");
	unit_long(tcopenai_status(r), DIAG_OK, "no callbacks: status 0");
	tcopenai_free(r);
	r = tcopenai_new(&cb);
	tcopenai_feed(r, bad, sizeof(bad) - 1);
	tcopenai_end(r);
	unit_long(tcopenai_status(r), DIAG_INVALID,
	    "no callbacks: an error still makes the status 1");
	tcopenai_free(r);
	tcopenai_free(NULL);
}

/* tcopenai_end twice, and feeding after it: nothing more happens. */
static void
test_end_twice(void)
{
	struct tcopenai_cb cb = cbs;
	struct tcopenai *r;
	struct log l;

	memset(&l, 0, sizeof(l));
	cb.arg = &l;
	r = tcopenai_new(&cb);
	tcopenai_end(r);
	unit_long(tcopenai_end(r), 0, "a second tcopenai_end returns 0");
	unit_long(tcopenai_feed(r, "data: x\n\n", 9), -1,
	    "feeding after the end returns -1");
	unit_str(buf_cstr(&l.out), "error 1:1 empty: the input holds no "
	    "response\n", "the end said once");
	tcopenai_free(r);
	buf_free(&l.out);
}

int
main(int argc, char *argv[])
{
	glob_t g;
	size_t i, n;
	char *s, *out;
	int status;

	if (argc > 1) {
		s = unit_slurp(argv[1], &n);
		out = run(s, n, 0, &status);
		fputs(out, stdout);
		free(out);
		free(s);
		return 0;
	}
	if (glob(DIR "/*.in", 0, NULL, &g) != 0 || g.gl_pathc == 0)
		unit_bail(DIR);
	for (i = 0; i < g.gl_pathc; i++)
		fixture(g.gl_pathv[i]);
	unit_ok(g.gl_pathc >= 40, unit_fmt("%zu fixtures read",
	    (size_t)g.gl_pathc));
	globfree(&g);
	test_forms();
	test_moment();
	test_going_back();
	test_told_bound();
	test_stop();
	test_null();
	test_end_twice();
	return unit_done();
}
