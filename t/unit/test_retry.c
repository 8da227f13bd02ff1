/*
 * Unit tests of lib/retry: the --pass list, the prompt read within its
 * limit, the block a rejected answer adds to the prompt, and the loop
 * itself with sh for the model and the check, the check's standard error
 * standing in for empty feedback.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/proc.h"
#include "retry/retry.h"
#include "unit.h"

#define BAD_PASS	"llm-retry: --pass must list exit statuses from 2 to 255, not "

static void
pass_fails(const char *arg, const char *msg)
{
	unsigned char pass[256];
	const char *err;

	memset(pass, 0, sizeof(pass));
	unit_capture_begin();
	unit_long(retry_pass(arg, pass), -1, unit_fmt("--pass \"%s\" refused",
	    arg));
	err = unit_capture_end();
	unit_str(err, msg, unit_fmt("--pass \"%s\": the reason", arg));
}

static void
test_pass(void)
{
	unsigned char pass[256];
	int i, n = 0;

	memset(pass, 0, sizeof(pass));
	unit_long(retry_pass("4,5", pass), 0, "\"4,5\"");
	unit_ok(pass[4] && pass[5], "4 and 5 listed");
	unit_long(retry_pass("0,007,255", pass), 0, "\"0,007,255\"");
	for (i = 0; i < 256; i++)
		n += pass[i];
	unit_long(n, 5, "the lists add up");
	unit_ok(pass[0] && pass[7] && pass[255], "0, 7 and 255 listed");
	pass_fails("1", "llm-retry: --pass cannot list 1, the status of a "
	    "rejected answer\n");
	pass_fails("4,1", "llm-retry: --pass cannot list 1, the status of a "
	    "rejected answer\n");
	pass_fails("256", BAD_PASS "\"256\"\n");
	pass_fails("0004", BAD_PASS "\"0004\"\n");
	pass_fails("4,,5", BAD_PASS "\"\"\n");
	pass_fails("", BAD_PASS "\"\"\n");
	pass_fails("-4", BAD_PASS "\"-4\"\n");
	pass_fails("4,x", BAD_PASS "\"x\"\n");
	pass_fails("+4", BAD_PASS "\"+4\"\n");
}

/* retry_read of a file holding text, max bytes at most. */
static int
read_text(const char *text, struct buf *b, size_t max)
{
	FILE *fp;
	int fd, rc;

	fd = unit_tmpfd();
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text) ||
	    lseek(fd, 0, SEEK_SET) == -1 || (fp = fdopen(fd, "rb")) == NULL)
		unit_bail("a temporary file");
	rc = retry_read(fp, "p.txt", b, max);
	fclose(fp);
	return rc;
}

static void
test_read(void)
{
	struct buf b = BUF_INIT;
	char *big;

	unit_long(read_text("abc", &b, 3), DIAG_OK, "3 bytes within 3");
	unit_mem(buf_cstr(&b), b.len, "abc", "read whole");
	buf_reset(&b);
	unit_capture_begin();
	unit_long(read_text("abcd", &b, 3), DIAG_TROUBLE, "4 bytes past 3");
	unit_str(unit_capture_end(), "llm-retry: p.txt: the prompt is larger "
	    "than --max-size (3 bytes)\n", "says so");
	buf_reset(&b);
	buf_adds(&b, "xy");
	unit_long(read_text("abc", &b, 3), DIAG_OK, "the limit counts what "
	    "is read, not what was there");
	unit_mem(buf_cstr(&b), b.len, "xyabc", "appended");
	buf_reset(&b);
	if ((big = malloc(200001)) == NULL)
		unit_bail("malloc");
	memset(big, 'x', 200000);
	big[200000] = '\0';
	unit_long(read_text(big, &b, 200000), DIAG_OK, "200000 bytes within "
	    "200000, over several reads");
	unit_long((long)b.len, 200000, "all of them");
	free(big);
	buf_free(&b);
}

static void
test_block(void)
{
	struct buf p = BUF_INIT, a = BUF_INIT, f = BUF_INIT;

	buf_adds(&p, "Q");
	buf_adds(&a, "A1");
	buf_adds(&f, "F1\n");
	retry_block(&p, 1, &a, &f);
	unit_mem(buf_cstr(&p), p.len, "Q\n\nYour answer (attempt 1):\n\nA1\n"
	    "\nIt was rejected (attempt 1):\n\nF1\n", "a newline added where "
	    "one is missing, none where there is one");
	buf_reset(&p);
	buf_reset(&f);
	retry_block(&p, 12, &a, &f);
	unit_mem(buf_cstr(&p), p.len, "\nYour answer (attempt 12):\n\nA1\n"
	    "\nIt was rejected (attempt 12):\n\n(the check gave no reason)\n",
	    "an empty prompt; no feedback");
	buf_free(&p);
	buf_free(&a);
	buf_free(&f);
}

static char model_sh[] = "echo \"A$LLM_RETRY_ATTEMPT\"";

static void
setup(struct retry *r, char **model, const char *check)
{
	retry_init(r);
	model[0] = (char *)"sh";
	model[1] = (char *)"-c";
	model[2] = model_sh;
	model[3] = NULL;
	r->model = model;
	r->check = check;
	r->delay = 0;
	buf_adds(&r->prompt, "Q\n");
}

static void
test_run(void)
{
	struct retry r;
	char *model[4];

	setup(&r, model, "[ \"$(cat)\" = A2 ] || { echo 'not A2' >&2; "
	    "exit 1; }");
	unit_capture_begin();
	unit_long(retry_run(&r), RETRY_ACCEPTED, "the second answer accepted");
	unit_str(unit_capture_end(), "not A2\n", "the check's stderr still "
	    "reaches ours");
	unit_mem(buf_cstr(&r.answer), r.answer.len, "A2\n", "the answer");
	unit_long(r.status, 0, "by status 0");
	unit_mem(buf_cstr(&r.prompt), r.prompt.len, "Q\n\nYour answer (attempt "
	    "1):\n\nA1\n\nIt was rejected (attempt 1):\n\nnot A2\n",
	    "with stdout empty, stderr was the feedback");
	retry_free(&r);

	setup(&r, model, "cat >/dev/null; echo out; echo err >&2; exit 1");
	r.attempts = 2;
	unit_capture_begin();
	unit_long(retry_run(&r), RETRY_NONE, "two answers rejected");
	unit_str(unit_capture_end(), "err\nerr\n", "stderr passed through");
	unit_long(r.made, 2, "two attempts made");
	unit_ok(r.rejected, "answers reached the check");
	unit_mem(buf_cstr(&r.last), r.last.len, "A2\n", "the last answer");
	unit_mem(buf_cstr(&r.said), r.said.len, "out\n", "stdout, not stderr, "
	    "said");
	retry_free(&r);

	setup(&r, model, "echo 'no object' >&2; exit 1");
	r.attempts = 2;
	r.max_size = 5;
	unit_capture_begin();
	unit_long(retry_run(&r), DIAG_TROUBLE, "a standard error longer than "
	    "--max-size, as feedback");
	unit_str(unit_capture_end(), "no object\nllm-retry: attempt 1: the "
	    "check's standard error, its feedback, is larger than --max-size "
	    "(5 bytes)\n", "is trouble");
	retry_free(&r);

	setup(&r, model, "exit 5");
	r.pass[5] = 1;
	unit_long(retry_run(&r), RETRY_ACCEPTED, "a status of --pass accepts");
	unit_long(r.status, 5, "and is told");
	retry_free(&r);

	setup(&r, model, "exit 7");
	unit_capture_begin();
	unit_long(retry_run(&r), DIAG_TROUBLE, "any other status is trouble");
	unit_str(unit_capture_end(), "llm-retry: attempt 1: the check exited "
	    "with status 7\n", "and says so");
	retry_free(&r);
}

int
main(void)
{
	diag_setprogname("llm-retry");
	if (proc_init() == -1)
		unit_bail("proc_init");
	test_pass();
	test_read();
	test_block();
	test_run();
	return unit_done();
}
