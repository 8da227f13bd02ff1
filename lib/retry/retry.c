/* retry: a model, a check, and the feedback between them. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/num.h"
#include "base/proc.h"
#include "retry/retry.h"

void
retry_init(struct retry *r)
{
	memset(r, 0, sizeof(*r));
	r->attempts = 3;
	r->delay = 0.5;
	r->max_size = (size_t)64 << 20;
}

void
retry_free(struct retry *r)
{
	buf_free(&r->prompt);
	buf_free(&r->answer);
	buf_free(&r->last);
	buf_free(&r->said);
}

/*
 * "4,5": the statuses --pass accepts besides 0, added to pass; 1 never.
 * Returns 0, or -1 with the reason reported.
 */
int
retry_pass(const char *arg, unsigned char *pass)
{
	const char *p = arg, *end, *errstr = "invalid";
	char item[4];
	long long v = 0;
	size_t n;

	for (;;) {
		end = strchr(p, ',');
		n = end != NULL ? (size_t)(end - p) : strlen(p);
		if (n < sizeof(item)) {
			memcpy(item, p, n);
			item[n] = '\0';
			v = num_whole(item, 0, 255, &errstr);
		}
		if (errstr == NULL && v == 1) {
			diag_warnx("--pass cannot list 1, the status of a "
			    "rejected answer");
			return -1;
		}
		if (n >= sizeof(item) || errstr != NULL) {
			diag_warnx("--pass must list exit statuses from 2 to "
			    "255, not \"%.*s\"", (int)n, p);
			return -1;
		}
		pass[v] = 1;
		if (end == NULL)
			return 0;
		p = end + 1;
	}
}

/*
 * Appends fp to b, at most max bytes of it: a longer input is trouble.
 * Returns DIAG_OK or DIAG_TROUBLE (reported).
 */
int
retry_read(FILE *fp, const char *name, struct buf *b, size_t max)
{
	size_t n, want, start = b->len;

	for (;;) {
		want = max - (b->len - start) < 65536 ?
		    max - (b->len - start) + 1 : 65536;
		buf_reserve(b, want);
		n = fread(b->data + b->len, 1, want, fp);
		b->len += n;
		if (b->len - start > max) {
			diag_warnx("%s: the prompt is larger than --max-size "
			    "(%zu bytes)", name, max);
			return DIAG_TROUBLE;
		}
		if (n < want) {
			if (!ferror(fp))
				return DIAG_OK;
			diag_warn("%s", name);
			return DIAG_TROUBLE;
		}
	}
}

static int
blank(const struct buf *b)
{
	size_t i;

	for (i = 0; i < b->len; i++)
		if (strchr(" \t\r\n", b->data[i]) == NULL || b->data[i] == '\0')
			return 0;
	return 1;
}

static void
add_line(struct buf *b, const struct buf *text)
{
	buf_add(b, text->data, text->len);
	if (text->len > 0 && text->data[text->len - 1] != '\n')
		buf_addc(b, '\n');
}

/* What the model is told after attempt i was rejected (llm-retry(1)). */
void
retry_block(struct buf *prompt, long i, const struct buf *answer,
    const struct buf *feedback)
{
	if (prompt->len > 0 && prompt->data[prompt->len - 1] != '\n')
		buf_addc(prompt, '\n');
	buf_printf(prompt, "\nYour answer (attempt %ld):\n\n", i);
	add_line(prompt, answer);
	buf_printf(prompt, "\nIt was rejected (attempt %ld):\n\n", i);
	if (feedback->len == 0)
		buf_adds(prompt, "(the check gave no reason)\n");
	else
		add_line(prompt, feedback);
}

static void
verbose(long i, const char *who, const struct proc_result *res)
{
	if (res->too_long)
		diag_warnx("attempt %ld: %s stopped, output larger than "
		    "--max-size, %.2f s", i, who, res->seconds);
	else if (res->timed_out)
		diag_warnx("attempt %ld: %s timed out, %.2f s", i, who,
		    res->seconds);
	else if (res->signo != 0)
		diag_warnx("attempt %ld: %s killed by signal %d, %.2f s", i,
		    who, res->signo, res->seconds);
	else
		diag_warnx("attempt %ld: %s status %d, %.2f s", i, who,
		    res->status, res->seconds);
}

/* Says why the model's run was no answer; 0 when it was one. */
static int
model_failed(const struct retry *r, long i, const struct proc_result *res)
{
	if (res->too_long)
		diag_warnx("attempt %ld: the model command's answer is larger "
		    "than --max-size (%zu bytes)", i, r->max_size);
	else if (res->timed_out)
		diag_warnx("attempt %ld: the model command timed out after "
		    "%g s", i, r->timeout);
	else if (res->signo != 0)
		diag_warnx("attempt %ld: the model command was killed by "
		    "signal %d", i, res->signo);
	else if (res->status != 0)
		diag_warnx("attempt %ld: the model command exited with "
		    "status %d", i, res->status);
	else if (blank(&r->answer))
		diag_warnx("attempt %ld: the model command wrote no answer",
		    i);
	else
		return 0;
	return 1;
}

/*
 * Runs one command, its output in out and, with err not NULL, its
 * standard error kept in err too. Returns 0, RETRY_CAUGHT, or
 * DIAG_TROUBLE (reported).
 */
static int
run(char *const argv[], const struct buf *in, struct buf *out,
    struct buf *err, const struct retry *r, double timeout,
    struct proc_result *res)
{
	struct proc_err keep = { err, r->max_size, STDERR_FILENO };
	int rc;

	buf_reset(out);
	if (err != NULL)
		buf_reset(err);
	rc = proc_run_err(argv, in->data, in->len, out, r->max_size, timeout,
	    err != NULL ? &keep : NULL, res);
	if (rc == PROC_CAUGHT)
		return RETRY_CAUGHT;
	if (rc == PROC_NOEXEC)
		diag_warn("%s", argv[0]);
	else if (rc == PROC_ERROR)
		diag_warn("running %s", argv[0]);
	return rc == 0 ? 0 : DIAG_TROUBLE;
}

/*
 * The check's verdict on attempt i's answer: its status, with the
 * feedback (its standard output or, when that is empty, its standard
 * error) in feedback; DIAG_TROUBLE (reported) when it could not judge.
 */
static int
judge(struct retry *r, long i, struct buf *feedback, struct buf *err,
    int *verdict)
{
	char *check[] = { (char *)"/bin/sh", (char *)"-c", (char *)r->check,
	    NULL };
	struct proc_result res;
	struct buf tmp;
	int rc;

	if ((rc = run(check, &r->answer, feedback, err, r, 0, &res)) != 0)
		return rc;
	if (r->verbose)
		verbose(i, "check", &res);
	if (res.too_long || (res.err_too_long && feedback->len == 0 &&
	    res.status == 1 && res.signo == 0)) {
		diag_warnx("attempt %ld: the check's %s is larger than "
		    "--max-size (%zu bytes)", i, res.too_long ? "feedback" :
		    "standard error, its feedback,", r->max_size);
		return DIAG_TROUBLE;
	}
	if (res.signo != 0) {
		diag_warnx("attempt %ld: the check was killed by signal %d", i,
		    res.signo);
		return DIAG_TROUBLE;
	}
	if (res.status != 0 && res.status != 1 && !r->pass[res.status]) {
		diag_warnx("attempt %ld: the check exited with status %d", i,
		    res.status);
		return DIAG_TROUBLE;
	}
	if (feedback->len == 0)
		tmp = *feedback, *feedback = *err, *err = tmp;
	*verdict = res.status;
	return 0;
}

/*
 * The attempts, as llm-retry(1) tells them; r->prompt grows with each
 * rejected answer. Returns RETRY_ACCEPTED, RETRY_NONE, RETRY_CAUGHT or
 * DIAG_TROUBLE (reported).
 */
int
retry_run(struct retry *r)
{
	struct buf *prompt = &r->prompt;
	struct buf feedback = BUF_INIT, err = BUF_INIT, tmp;
	struct proc_result res;
	char num[32];
	long i;
	int rc = RETRY_NONE, verdict;

	r->rejected = 0;
	for (i = 1; i <= r->attempts; i++) {
		if (i > 1 && proc_sleep(r->delay) == -1) {
			rc = RETRY_CAUGHT;
			break;
		}
		snprintf(num, sizeof(num), "%ld", i);
		setenv("LLM_RETRY_ATTEMPT", num, 1);
		if ((rc = run(r->model, prompt, &r->answer, NULL, r,
		    r->timeout, &res)) != 0)
			break;
		rc = RETRY_NONE;
		if (r->verbose)
			verbose(i, "model", &res);
		if (model_failed(r, i, &res))
			continue;
		if ((rc = judge(r, i, &feedback, &err, &verdict)) != 0)
			break;
		if (verdict != 1) {
			r->status = verdict;
			rc = RETRY_ACCEPTED;
			break;
		}
		rc = RETRY_NONE;
		r->rejected = 1;
		if (i < r->attempts)
			retry_block(prompt, i, &r->answer, &feedback);
		tmp = r->last, r->last = r->answer, r->answer = tmp;
		tmp = r->said, r->said = feedback, feedback = tmp;
		if (i < r->attempts && prompt->len > r->max_size) {
			diag_warnx("attempt %ld: the prompt of attempt %ld would "
			    "be larger than --max-size (%zu bytes)", i, i + 1,
			    r->max_size);
			break;
		}
	}
	r->made = i > r->attempts ? r->attempts : i;
	buf_free(&feedback);
	buf_free(&err);
	return rc;
}
