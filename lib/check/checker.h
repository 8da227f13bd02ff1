/*
 * checker: what the checkers (jsonresp-check, llmr-validate,
 * toolcall-parse) share. On the command line: the options -q, -o,
 * --lines, --summary, --feedback and --find, as one table from which
 * each checker takes those it has (struct checker's has), and the rules
 * of combination among them that it states (struct checker_rule); its
 * own options are added to the table by checker_getopt. In the run: the
 * loop over the operands, the count of the documents and what each
 * writes on standard output, and --summary's line at the end
 * (checker_run, with a callback per checker); with -o junit, what the
 * documents write is kept in a temporary file until the end, where the
 * report's head, which holds the counts, can be written before it.
 */
#ifndef LLMKIT_CHECKER_H
#define LLMKIT_CHECKER_H

#include <getopt.h>
#include <stdio.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "check/verdict.h"

/* The shared options, as bits of a checker's has and of its rules. */
#define CHECKER_QUIET		0x01	/* -q, --quiet */
#define CHECKER_OUTPUT		0x02	/* -o, --output NAME */
#define CHECKER_LINES		0x04	/* --lines */
#define CHECKER_SUMMARY		0x08	/* --summary */
#define CHECKER_FEEDBACK	0x10	/* --feedback */
#define CHECKER_FIND		0x20	/* --find */

/* A checker numbers its own long-only options from CHECKER_OPT_FIRST. */
enum {
	CHECKER_OPT_FEEDBACK = CMD_OPT_FIRST,
	CHECKER_OPT_FIND,
	CHECKER_OPT_LINES,
	CHECKER_OPT_SUMMARY,
	CHECKER_OPT_FIRST
};

/*
 * A rule of combination: the option opt (a CHECKER_ bit) given, none of
 * the options of the bits not may be, nor an -o whose number n has the
 * bit 1 << n in outs; else the usage, after why. A table of them ends
 * with an opt of 0.
 */
struct checker_rule {
	unsigned	 opt;
	unsigned	 not;
	unsigned	 outs;
	const char	*why;
};

#define CHECKER_MAXOPTS	48	/* long options of a checker, all told */

struct checker {
	/* what the checker says of itself */
	unsigned	 has;		/* the shared options it takes */
	const struct cmd_choice *outputs;	/* -o's names */
	const struct checker_rule *rules;
	/* what its command line gives */
	int		 output;	/* -o's number, 0 by default */
	int		 lines;
	int		 summary;
	int		 feedback;
	int		 find;
	/* checker_getopt's tables */
	struct option	 longs[CHECKER_MAXOPTS];
	char		 shorts[64];
};

/*
 * A checker's run: what checker_run was given, the operand being read,
 * the counts of --summary, and a buffer for what a document writes.
 */
struct checker_ops;

struct checker_run {
	const struct checker *ck;
	const struct checker_ops *ops;
	void		*arg;
	const char	*name;
	struct verdict_tally tally;
	struct buf	 out;
	FILE		*spool;		/* -o junit: the testcases so far */
	int		 spool_bad;	/* a write to it failed, said */
};

/*
 * A checker's part of the run: operand reads one operand, fp open as
 * name, and returns its status, having told checker_done of each of its
 * documents; report: the number of -o report, with which --summary's
 * line is JSON (-1: with any -o but the default); danger: --summary
 * counts the danger levels too; flush: each document's output is flushed
 * at once (else only with --feedback); junit: the number of -o junit,
 * with which what a document writes is a testcase of the report (0: the
 * checker has none, since 0 is the default -o).
 */
struct checker_ops {
	int		(*operand)(struct checker_run *, FILE *, const char *);
	int		 report;
	int		 danger;
	int		 flush;
	int		 junit;
};

int	checker_getopt(struct checker *, int, char *[], const char *,
	    const struct option *);
void	checker_rules(const struct checker *);
int	checker_run(const struct checker *, const struct checker_ops *,
	    void *, int, char *[]);
int	checker_done(struct checker_run *, int);
int	checker_junit(const struct checker_run *);

#endif
