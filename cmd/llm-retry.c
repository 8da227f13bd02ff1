/*
 * llm-retry: reads a prompt, gives it to a model's command-line client,
 * and has a check command judge the answer; a rejected answer goes back
 * to the model with the check's feedback, up to a number of attempts. It
 * writes the first accepted answer, and exits 1 when none was accepted.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "buf.h"
#include "diag.h"
#include "io.h"
#include "num.h"
#include "proc.h"

static void usage(void) __attribute__((noreturn));

#define MAX_ATTEMPTS	1000
#define MAX_SECONDS	86400.0
/* The default limit on the prompt, on each answer and on each feedback. */
#define MAX_SIZE	((size_t)64 << 20)

enum { OPT_EMIT_LAST = 256, OPT_MAX_SIZE, OPT_PASS, OPT_VERSION };

static const struct option longopts[] = {
	{ "attempts",	required_argument,	NULL, 'n' },
	{ "check",	required_argument,	NULL, 'c' },
	{ "delay",	required_argument,	NULL, 'd' },
	{ "emit-last",	no_argument,		NULL, OPT_EMIT_LAST },
	{ "help",	no_argument,		NULL, 'h' },
	{ "max-size",	required_argument,	NULL, OPT_MAX_SIZE },
	{ "pass",	required_argument,	NULL, OPT_PASS },
	{ "prompt",	required_argument,	NULL, 'p' },
	{ "timeout",	required_argument,	NULL, 't' },
	{ "verbose",	no_argument,		NULL, 'v' },
	{ "version",	no_argument,		NULL, OPT_VERSION },
	{ NULL,		0,			NULL, 0 }
};

static const char synopsis[] =
    "usage: llm-retry [-hv] -c CHECK [-d SECONDS] [-n ATTEMPTS] [-p FILE]\n"
    "                 [-t SECONDS] [--emit-last] [--max-size BYTES]\n"
    "                 [--pass STATUSES]\n"
    "                 -- MODEL-COMMAND [ARG ...]\n";

struct opts {
	const char	*check;
	const char	*prompt_file;
	const char	*timeout_arg;
	double		 delay;
	double		 timeout;
	size_t		 max_size;
	long		 attempts;
	int		 emit_last;
	int		 verbose;
	unsigned char	 pass[256];	/* check statuses that also accept */
};

/* A decimal number of seconds, digits and one point only, in [0, max]. */
static int
seconds(const char *s, double *v)
{
	const char *p = s;
	int digits = 0, point = 0;

	for (; *p != '\0'; p++) {
		if (*p >= '0' && *p <= '9')
			digits++;
		else if (*p == '.' && !point)
			point = 1;
		else
			return -1;
	}
	if (digits == 0)
		return -1;
	*v = strtod(s, NULL);
	return *v <= MAX_SECONDS ? 0 : -1;
}

/*
 * Reads the prompt, at most max bytes of it: a longer one is trouble.
 * Returns DIAG_OK or DIAG_TROUBLE (reported).
 */
static int
read_prompt(const char *operand, struct buf *b, size_t max)
{
	FILE *fp;
	const char *name = io_name(operand);
	size_t n, want;
	int status = DIAG_OK;

	if ((fp = io_open(operand)) == NULL) {
		diag_warn("%s", operand);
		return DIAG_TROUBLE;
	}
	for (;;) {
		want = max - b->len < 65536 ? max - b->len + 1 : 65536;
		buf_reserve(b, want);
		n = fread(b->data + b->len, 1, want, fp);
		b->len += n;
		if (b->len > max) {
			diag_warnx("%s: the prompt is larger than --max-size "
			    "(%zu bytes)", name, max);
			status = DIAG_TROUBLE;
			break;
		}
		if (n < want) {
			if (ferror(fp)) {
				diag_warn("%s", name);
				status = DIAG_TROUBLE;
			}
			break;
		}
	}
	return diag_max(status, io_close(fp, operand));
}

/* "4,5": the statuses --pass accepts besides 0; 1 never. */
static void
parse_pass(const char *arg, unsigned char *pass)
{
	const char *p = arg, *end;
	long v;
	size_t n;

	for (;;) {
		end = strchr(p, ',');
		n = end != NULL ? (size_t)(end - p) : strlen(p);
		v = -1;
		if (n > 0 && n <= 3 && strspn(p, "0123456789") >= n)
			v = strtol(p, NULL, 10);
		if (v == 1) {
			diag_warnx("--pass cannot list 1, the status of a "
			    "rejected answer");
			usage();
		}
		if (v < 0 || v > 255) {
			diag_warnx("--pass must list exit statuses from 2 to "
			    "255, not \"%.*s\"", (int)n, p);
			usage();
		}
		pass[v] = 1;
		if (end == NULL)
			break;
		p = end + 1;
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

/* What the model is told after attempt i was rejected (see the manual). */
static void
add_rejection(struct buf *prompt, long i, const struct buf *answer,
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

/* Runs one command; on a stop signal this process ends here. */
static int
run(char *const argv[], const struct buf *in, struct buf *out,
    size_t max, double timeout, struct proc_result *res)
{
	int rc;

	buf_reset(out);
	rc = proc_run(argv, in->data, in->len, out, max, timeout, res);
	if (rc == PROC_CAUGHT) {
		proc_die();
		exit(128 + proc_caught());
	}
	if (rc == PROC_NOEXEC)
		diag_warn("%s", argv[0]);
	else if (rc == PROC_ERROR)
		diag_warn("running %s", argv[0]);
	return rc;
}

/* Says why the model's run was no answer; 0 when it was one. */
static int
model_failed(long i, const struct opts *o, const struct proc_result *res,
    const struct buf *answer)
{
	if (res->too_long)
		diag_warnx("attempt %ld: the model command's answer is larger "
		    "than --max-size (%zu bytes)", i, o->max_size);
	else if (res->timed_out)
		diag_warnx("attempt %ld: the model command timed out after "
		    "%g s", i, o->timeout);
	else if (res->signo != 0)
		diag_warnx("attempt %ld: the model command was killed by "
		    "signal %d", i, res->signo);
	else if (res->status != 0)
		diag_warnx("attempt %ld: the model command exited with "
		    "status %d", i, res->status);
	else if (blank(answer))
		diag_warnx("attempt %ld: the model command wrote no answer",
		    i);
	else
		return 0;
	return 1;
}

static int
retry(const struct opts *o, char *const model[], struct buf *prompt)
{
	char *check[] = { (char *)"/bin/sh", (char *)"-c", (char *)o->check,
	    NULL };
	struct buf answer = BUF_INIT, feedback = BUF_INIT, last = BUF_INIT;
	struct buf said = BUF_INIT, tmp;
	struct proc_result res;
	const char *plural;
	char num[32];
	long i, made;
	int status = DIAG_INVALID, rejected = 0;

	for (i = 1; i <= o->attempts; i++) {
		if (i > 1 && proc_sleep(o->delay) == -1) {
			proc_die();
			exit(128 + proc_caught());
		}
		snprintf(num, sizeof(num), "%ld", i);
		setenv("LLM_RETRY_ATTEMPT", num, 1);
		if (run(model, prompt, &answer, o->max_size, o->timeout,
		    &res) != 0) {
			status = DIAG_TROUBLE;
			goto out;
		}
		if (o->verbose)
			verbose(i, "model", &res);
		if (model_failed(i, o, &res, &answer))
			continue;
		if (run(check, &answer, &feedback, o->max_size, 0, &res) != 0) {
			status = DIAG_TROUBLE;
			goto out;
		}
		if (o->verbose)
			verbose(i, "check", &res);
		if (res.too_long) {
			diag_warnx("attempt %ld: the check's feedback is larger "
			    "than --max-size (%zu bytes)", i, o->max_size);
			status = DIAG_TROUBLE;
			goto out;
		}
		if (res.signo != 0) {
			diag_warnx("attempt %ld: the check was killed by signal "
			    "%d", i, res.signo);
			status = DIAG_TROUBLE;
			goto out;
		}
		if (res.status == 0 || o->pass[res.status]) {
			if (io_write(answer.data, answer.len, stdout) != 0)
				status = DIAG_TROUBLE;
			else
				status = res.status;
			goto out;
		}
		if (res.status != 1) {
			diag_warnx("attempt %ld: the check exited with status %d",
			    i, res.status);
			status = DIAG_TROUBLE;
			goto out;
		}
		rejected = 1;
		if (i < o->attempts)
			add_rejection(prompt, i, &answer, &feedback);
		tmp = last, last = answer, answer = tmp;
		tmp = said, said = feedback, feedback = tmp;
		if (i < o->attempts && prompt->len > o->max_size) {
			diag_warnx("attempt %ld: the prompt of attempt %ld would "
			    "be larger than --max-size (%zu bytes)", i, i + 1,
			    o->max_size);
			break;
		}
	}
	made = i > o->attempts ? o->attempts : i;
	plural = made == 1 ? "" : "s";
	if (!rejected)
		diag_warnx("no answer accepted in %ld attempt%s", made, plural);
	else if (said.len == 0)
		diag_warnx("no answer accepted in %ld attempt%s; the check gave "
		    "no feedback", made, plural);
	else {
		diag_warnx("no answer accepted in %ld attempt%s; the last check "
		    "said:", made, plural);
		fwrite(said.data, 1, said.len, stderr);
		if (said.data[said.len - 1] != '\n')
			fputc('\n', stderr);
	}
	if (o->emit_last && rejected &&
	    io_write(last.data, last.len, stdout) != 0)
		status = DIAG_TROUBLE;
out:
	buf_free(&answer);
	buf_free(&feedback);
	buf_free(&last);
	buf_free(&said);
	return status;
}

int
main(int argc, char *argv[])
{
	struct opts o;
	struct buf prompt = BUF_INIT;
	char *end, num[32];
	int ch, status;

	memset(&o, 0, sizeof(o));
	o.attempts = 3;
	o.delay = 0.5;
	o.max_size = MAX_SIZE;
	diag_setprogname(argv[0]);
	proc_ignore_xfsz();	/* a file too large: a write error */
	argv[0] = (char *)diag_progname();	/* getopt's messages too */
	while ((ch = getopt_long(argc, argv, "+c:d:hn:p:t:v", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'c':
			o.check = optarg;
			break;
		case 'd':
			if (seconds(optarg, &o.delay) == -1) {
				diag_warnx("-d must be a number of seconds from "
				    "0 to 86400, not \"%s\"", optarg);
				usage();
			}
			break;
		case 'h':
			fputs(synopsis, stdout);
			fputs("\nexit status: 0 accepted, 1 no answer accepted, "
			    "2 usage, 3 trouble; or the check's status listed "
			    "in --pass\n", stdout);
			return io_fshut(stdout, "<stdout>");
		case 'n':
			errno = 0;
			o.attempts = strtol(optarg, &end, 10);
			if (optarg[0] < '0' || optarg[0] > '9' ||
			    *end != '\0' || errno != 0 || o.attempts < 1 ||
			    o.attempts > MAX_ATTEMPTS) {
				diag_warnx("-n must be a whole number from 1 to "
				    "%d, not \"%s\"", MAX_ATTEMPTS, optarg);
				usage();
			}
			break;
		case 'p':
			o.prompt_file = optarg;
			break;
		case 't':
			if (seconds(optarg, &o.timeout) == -1 ||
			    o.timeout <= 0) {
				diag_warnx("-t must be a number of seconds above "
				    "0, at most 86400, not \"%s\"", optarg);
				usage();
			}
			break;
		case 'v':
			o.verbose = 1;
			break;
		case OPT_EMIT_LAST:
			o.emit_last = 1;
			break;
		case OPT_MAX_SIZE:
			if ((o.max_size = num_size(optarg)) == 0) {
				diag_warnx("--max-size must be a positive size "
				    "in bytes (K, M, G allowed), not \"%s\"",
				    optarg);
				usage();
			}
			break;
		case OPT_PASS:
			parse_pass(optarg, o.pass);
			break;
		case OPT_VERSION:
			printf("llm-retry (llmkit) %s\n", LLMKIT_VERSION);
			return io_fshut(stdout, "<stdout>");
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (o.check == NULL) {
		diag_warnx("-c CHECK is required");
		usage();
	}
	if (argc == 0) {
		diag_warnx("no model command given");
		usage();
	}

	if (read_prompt(o.prompt_file != NULL ? o.prompt_file : "-", &prompt,
	    o.max_size) != DIAG_OK) {
		buf_free(&prompt);
		return DIAG_TROUBLE;
	}
	if (proc_init() == -1) {
		diag_warn("signals");
		buf_free(&prompt);
		return DIAG_TROUBLE;
	}
	snprintf(num, sizeof(num), "%ld", o.attempts);
	setenv("LLM_RETRY_ATTEMPTS", num, 1);
	status = retry(&o, argv, &prompt);
	buf_free(&prompt);
	if (io_fshut(stdout, "<stdout>") != DIAG_OK)
		status = DIAG_TROUBLE;
	return status;
}

static void
usage(void)
{
	fputs(synopsis, stderr);
	exit(DIAG_USAGE);
}
