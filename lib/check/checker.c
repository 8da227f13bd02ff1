/* checker: the checkers' shared options, their rules, and their run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "base/diag.h"
#include "base/io.h"
#include "check/checker.h"
#include "check/verdict.h"

/* The shared options, each with its bit; -o and -q have their letter. */
static const struct {
	unsigned	bit;
	struct option	opt;
} shared[] = {
	{ CHECKER_FEEDBACK, { "feedback", no_argument, NULL,
	    CHECKER_OPT_FEEDBACK } },
	{ CHECKER_FIND, { "find", no_argument, NULL, CHECKER_OPT_FIND } },
	{ CHECKER_LINES, { "lines", no_argument, NULL, CHECKER_OPT_LINES } },
	{ CHECKER_OUTPUT, { "output", required_argument, NULL, 'o' } },
	{ CHECKER_QUIET, { "quiet", no_argument, NULL, 'q' } },
	{ CHECKER_SUMMARY, { "summary", no_argument, NULL,
	    CHECKER_OPT_SUMMARY } }
};
#define NSHARED	(sizeof(shared) / sizeof(shared[0]))

static const struct option common[] = { CMD_LONGOPTS };
#define NCOMMON	(sizeof(common) / sizeof(common[0]))

/*
 * The long options of c: the skeleton's, then the shared ones c has and
 * its own (own, ended by a NULL name), in the order of their names, as a
 * checker's table has always listed them; the short ones: its own, then
 * -o and -q if it has them. A table too small is the programmer's error.
 */
static void
tables(struct checker *c, const char *shorts, const struct option *own)
{
	struct option o;
	size_t i, j, n;

	memcpy(c->longs, common, sizeof(common));
	n = NCOMMON;
	for (i = 0; i < NSHARED; i++)
		if (c->has & shared[i].bit)
			c->longs[n++] = shared[i].opt;
	for (; own->name != NULL; own++) {
		if (n + 1 >= CHECKER_MAXOPTS)
			abort();
		c->longs[n++] = *own;
	}
	memset(&c->longs[n], 0, sizeof(c->longs[n]));
	/* insertion sort, past the skeleton's three */
	for (i = NCOMMON + 1; i < n; i++) {
		o = c->longs[i];
		for (j = i; j > NCOMMON && strcmp(c->longs[j - 1].name,
		    o.name) > 0; j--)
			c->longs[j] = c->longs[j - 1];
		c->longs[j] = o;
	}
	if (strlen(shorts) + 4 >= sizeof(c->shorts))
		abort();
	snprintf(c->shorts, sizeof(c->shorts), "%s%s%s", shorts,
	    c->has & CHECKER_OUTPUT ? "o:" : "",
	    c->has & CHECKER_QUIET ? "q" : "");
}

/*
 * cmd_getopt over the shared options c has and the checker's own (shorts
 * and own): a shared one is taken into c here; what is returned is one
 * of the checker's own options, or -1 after the last.
 */
int
checker_getopt(struct checker *c, int argc, char *argv[], const char *shorts,
    const struct option *own)
{
	int ch;

	if (c->longs[0].name == NULL)
		tables(c, shorts, own);
	for (;;) {
		switch (ch = cmd_getopt(argc, argv, c->shorts, c->longs)) {
		case 'o':
			c->output = cmd_choice("-o", optarg, c->outputs);
			break;
		case 'q':
			diag_setquiet(1);
			break;
		case CHECKER_OPT_FEEDBACK:
			c->feedback = 1;
			break;
		case CHECKER_OPT_FIND:
			c->find = 1;
			break;
		case CHECKER_OPT_LINES:
			c->lines = 1;
			break;
		case CHECKER_OPT_SUMMARY:
			c->summary = 1;
			break;
		default:
			return ch;
		}
	}
}

/* Whether the shared option of the bit is given on c's command line. */
static int
given(const struct checker *c, unsigned bit)
{
	switch (bit) {
	case CHECKER_LINES:
		return c->lines;
	case CHECKER_SUMMARY:
		return c->summary;
	case CHECKER_FEEDBACK:
		return c->feedback;
	case CHECKER_FIND:
		return c->find;
	default:
		return 0;	/* -q and -o go with anything */
	}
}

/*
 * The rules of combination of c, in its table's order: the first one
 * broken ends in the usage, after its message.
 */
void
checker_rules(const struct checker *c)
{
	const struct checker_rule *r;
	unsigned bit;
	int bad;

	for (r = c->rules; r != NULL && r->opt != 0; r++) {
		if (!given(c, r->opt))
			continue;
		bad = (r->outs & 1U << c->output) != 0;
		for (bit = 1; bit <= CHECKER_FIND; bit <<= 1)
			if ((r->not & bit) && given(c, bit))
				bad = 1;
		if (bad)
			cmd_usagex("%s", r->why);
	}
}

static int
process(FILE *fp, const char *name, void *arg)
{
	struct checker_run *r = arg;

	r->name = name;
	return r->ops->operand(r, fp, name);
}

/*
 * -o junit's report on standard output: its head, with the counts, then
 * the testcases kept in r's spool, then its end. DIAG_OK, or DIAG_TROUBLE
 * when the spool cannot be read back (said); a failed write is seen when
 * standard output is closed.
 */
static int
junit_report(struct checker_run *r)
{
	struct buf b = BUF_INIT;
	char chunk[65536];
	size_t n;
	int status = DIAG_OK;

	verdict_junit_open(&b, &r->tally);
	(void)io_write(b.data, b.len, stdout);
	buf_reset(&b);
	rewind(r->spool);
	while ((n = fread(chunk, 1, sizeof(chunk), r->spool)) > 0)
		if (io_write(chunk, n, stdout) != 0)
			break;
	if (ferror(r->spool)) {
		diag_warn("-o junit: temporary file");
		status = DIAG_TROUBLE;
	} else {
		verdict_junit_close(&b);
		(void)io_write(b.data, b.len, stdout);
	}
	buf_free(&b);
	return status;
}

/*
 * Every operand (cmd_loop's rules) read by ops->operand, with arg for
 * its own state in the run's arg, then --summary's line: a JSON object
 * with -o report (ops->report), else a sentence; or with -o junit
 * (ops->junit) the report. Returns the highest status; standard output
 * stays open for cmd_exit. No report is written when its temporary file
 * has failed: part of one would count only some documents.
 */
int
checker_run(const struct checker *c, const struct checker_ops *ops,
    void *arg, int argc, char *argv[])
{
	struct checker_run r;
	const char *dir;
	int status;

	memset(&r, 0, sizeof(r));
	r.ck = c;
	r.ops = ops;
	r.arg = arg;
	if (checker_junit(&r) && (r.spool = io_tmpfile(&dir)) == NULL) {
		diag_warn("-o junit: cannot make a temporary file in %s", dir);
		return DIAG_TROUBLE;
	}
	status = cmd_loop(argc, argv, process, &r);
	if (c->summary)
		verdict_put_summary(&r.tally, ops->report == -1 ?
		    c->output != 0 : c->output == ops->report, ops->danger);
	if (r.spool != NULL) {
		if (!r.spool_bad && fflush(r.spool) != 0) {
			diag_warn("-o junit: temporary file");
			r.spool_bad = 1;
		}
		if (r.spool_bad)
			status = diag_max(status, DIAG_TROUBLE);
		else if (!ferror(stdout))
			status = diag_max(status, junit_report(&r));
		(void)fclose(r.spool);
	}
	buf_free(&r.out);
	return status;
}

/* Whether the run writes -o junit's report. */
int
checker_junit(const struct checker_run *r)
{
	return r->ops->junit > 0 && r->ck->output == r->ops->junit;
}

/*
 * A document read, of the status given: counted for --summary, and what
 * its checker put in r->out written (then emptied), flushed at once when
 * ops->flush says or with --feedback, so that a consumer or a model has
 * it before the next is read; with -o junit, kept for the report. -1
 * once standard output, or the report's temporary file, has failed.
 */
int
checker_done(struct checker_run *r, int status)
{
	if (r->spool != NULL) {
		if (r->spool_bad)
			return -1;
		verdict_tally(&r->tally, status);
		if (r->out.len > 0 && fwrite(r->out.data, 1, r->out.len,
		    r->spool) != r->out.len) {
			diag_warn("-o junit: temporary file");
			r->spool_bad = 1;
			return -1;
		}
		buf_reset(&r->out);
		return 0;
	}
	verdict_tally(&r->tally, status);
	if (r->out.len > 0 && io_write(r->out.data, r->out.len, stdout) != 0)
		return -1;
	if ((r->ck->feedback || (r->ops->flush && r->out.len > 0)) &&
	    fflush(stdout) != 0)
		return -1;
	buf_reset(&r->out);
	return 0;
}
