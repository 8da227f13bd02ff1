/*
 * llm-retry: reads a prompt, gives it to a model's command-line client,
 * and has a check command judge the answer; a rejected answer goes back
 * to the model with the check's feedback, up to a number of attempts. It
 * writes the first accepted answer, and exits 1 when none was accepted.
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "base/diag.h"
#include "base/num.h"
#include "base/proc.h"
#include "retry/retry.h"
#include "help/llm-retry.h"

#define MAX_ATTEMPTS	1000
#define MAX_SECONDS	86400.0

enum { OPT_EMIT_LAST = CMD_OPT_FIRST, OPT_MAX_SIZE, OPT_PASS };

static const struct option longopts[] = {
	CMD_LONGOPTS_NOERRORS,
	{ "attempts",	required_argument,	NULL, 'n' },
	{ "check",	required_argument,	NULL, 'c' },
	{ "delay",	required_argument,	NULL, 'w' },
	{ "emit-last",	no_argument,		NULL, OPT_EMIT_LAST },
	{ "max-size",	required_argument,	NULL, OPT_MAX_SIZE },
	{ "pass",	required_argument,	NULL, OPT_PASS },
	{ "prompt",	required_argument,	NULL, 'p' },
	{ "timeout",	required_argument,	NULL, 'T' },
	{ "verbose",	no_argument,		NULL, 'v' },
	{ NULL,		0,			NULL, 0 }
};

static const struct cmd self = {
	"usage: llm-retry [-hv] -c CHECK [-n ATTEMPTS] [-p FILE] [-T SECONDS]\n"
	"                 [-w SECONDS] [--emit-last] [--max-size BYTES]\n"
	"                 [--pass STATUSES]\n"
	"                 -- MODEL-COMMAND [ARG ...]\n",
	"0 accepted, 1 no answer accepted, 2 usage, 3 trouble; or the check's "
	"status listed in --pass",
	CMD_HELP
};

static int
read_prompt(FILE *fp, const char *name, void *arg)
{
	struct retry *r = arg;

	return retry_read(fp, name, &r->prompt, r->max_size);
}

/* Says that no answer was accepted, and what the last check said. */
static void
no_answer(const struct retry *r)
{
	const char *plural = r->made == 1 ? "" : "s";

	if (!r->rejected)
		diag_warnx("no answer accepted in %ld attempt%s", r->made,
		    plural);
	else if (r->said.len == 0)
		diag_warnx("no answer accepted in %ld attempt%s; the check "
		    "gave no feedback", r->made, plural);
	else {
		diag_warnx("no answer accepted in %ld attempt%s; the last "
		    "check said:", r->made, plural);
		fwrite(r->said.data, 1, r->said.len, stderr);
		if (r->said.data[r->said.len - 1] != '\n')
			fputc('\n', stderr);
	}
}

/* The loop, and what it leaves on standard output; the exit status. */
static int
run(struct retry *r, int emit_last)
{
	char num[32];
	int rc;

	snprintf(num, sizeof(num), "%ld", r->attempts);
	setenv("LLM_RETRY_ATTEMPTS", num, 1);
	rc = retry_run(r);
	if (rc == RETRY_CAUGHT) {
		proc_die();
		return 128 + proc_caught();
	}
	if (rc == RETRY_ACCEPTED)
		rc = cmd_write(r->answer.data, r->answer.len) != DIAG_OK ?
		    DIAG_TROUBLE : r->status;
	else if (rc == RETRY_NONE) {
		no_answer(r);
		if (emit_last && r->rejected &&
		    cmd_write(r->last.data, r->last.len) != DIAG_OK)
			rc = DIAG_TROUBLE;
	}
	return rc;
}

int
main(int argc, char *argv[])
{
	struct retry r;
	const char *errstr, *prompt = "-";
	int ch, emit_last = 0, status;

	proc_ignore_xfsz();	/* first: the commands get back what it finds */
	cmd_init(&self, argv);
	retry_init(&r);
	while ((ch = cmd_getopt(argc, argv, "+T:c:d:hn:p:t:vw:", longopts))
	    != -1) {
		switch (ch) {
		case 'T':
		case 't':	/* the old spelling, kept for scripts */
			if (num_seconds(optarg, MAX_SECONDS, &r.timeout) ==
			    -1 || r.timeout <= 0)
				cmd_usagex("-%c must be a number of seconds "
				    "above 0, at most 86400, not \"%s\"", ch,
				    optarg);
			break;
		case 'c':
			r.check = optarg;
			break;
		case 'd':	/* the old spelling, kept for scripts */
		case 'w':
			if (num_seconds(optarg, MAX_SECONDS, &r.delay) == -1)
				cmd_usagex("-%c must be a number of seconds "
				    "from 0 to 86400, not \"%s\"", ch, optarg);
			break;
		case 'n':
			r.attempts = num_whole(optarg, 1, MAX_ATTEMPTS, &errstr);
			if (errstr != NULL)
				cmd_usagex("-n must be a whole number from 1 "
				    "to %d, not \"%s\"", MAX_ATTEMPTS, optarg);
			break;
		case 'p':
			prompt = optarg;
			break;
		case 'v':
			r.verbose = 1;
			break;
		case OPT_EMIT_LAST:
			emit_last = 1;
			break;
		case OPT_MAX_SIZE:
			if ((r.max_size = num_size(optarg)) == 0)
				cmd_usagex("--max-size must be a positive size "
				    "in bytes (K, M, G allowed), not \"%s\"",
				    optarg);
			break;
		case OPT_PASS:
			if (retry_pass(optarg, r.pass) != 0)
				cmd_usage();
			break;
		default:
			cmd_usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (r.check == NULL)
		cmd_usagex("-c CHECK is required");
	if (argc == 0)
		cmd_usagex("no model command given");
	r.model = argv;

	if (cmd_operand(prompt, read_prompt, &r) != DIAG_OK)
		status = DIAG_TROUBLE;
	else if (proc_init() == -1) {
		diag_warn("signals");
		status = DIAG_TROUBLE;
	} else
		status = run(&r, emit_last);
	retry_free(&r);
	/* a failed write is trouble, even after an accepted answer */
	if (cmd_exit(DIAG_OK) != DIAG_OK)
		status = DIAG_TROUBLE;
	return status;
}
