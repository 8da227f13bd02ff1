/*
 * verdict: every checker as a map step. Its input is JSON lines, a line
 * a document (jsonresp-check's a JSON value; llmr-validate's and
 * toolcall-parse's a JSON string that holds the text, read here with
 * verdict_string); its output with -o report is one record per document,
 * of one shape in every tool: {"file","line" (with --lines),"valid",
 * "status","errors"}, written by verdict_open, a tool's own members
 * after it, and verdict_close. verdict_tally and verdict_summary count
 * a run for --summary. A problem found in a string's text is placed by
 * verdict_place at the line and column of the JSON line where its text
 * is written, escapes and all, so that an editor lands on it.
 * -o junit writes a JUnit XML report of a run instead: verdict_junit_open
 * with the counts, a verdict_junit_case a document, verdict_junit_close.
 */
#ifndef LLMKIT_VERDICT_H
#define LLMKIT_VERDICT_H

#include <stddef.h>

#include "base/buf.h"
#include "base/diag.h"

/* The counts of --summary. */
struct verdict_tally {
	unsigned long	documents;
	unsigned long	valid;		/* status 0, 4 or 5 */
	unsigned long	invalid;
	unsigned long	trouble;	/* status 3: could not be checked */
	unsigned long	critical;
	unsigned long	emergency;
};

/* A line of JSON lines read by verdict_lines_next. */
struct verdict_lines {
	int		 fd;
	struct buf	 in;
	size_t		 off;		/* in.data[0]'s offset in the input */
	size_t		 start;		/* the next line's, in in */
	size_t		 scan;		/* where its '\n' may be, in in */
	int		 skip;		/* the rest of a line with a NUL */
	int		 eof;
};

void	verdict_open(struct buf *, const char *, unsigned long, int,
	    const struct diag_item *, size_t);
void	verdict_close(struct buf *);
void	verdict_tally(struct verdict_tally *, int);
void	verdict_summary(struct buf *, const struct verdict_tally *, int, int);
void	verdict_put_summary(const struct verdict_tally *, int, int);
void	verdict_junit_open(struct buf *, const struct verdict_tally *);
void	verdict_junit_case(struct buf *, const char *, unsigned long, int,
	    const struct diag_item *, size_t);
void	verdict_junit_close(struct buf *);

/*
 * A line of verdict_each, not blank, numbered from 1, at a byte offset
 * of the input: its status in *st; returns -1 to stop reading (the
 * output has failed), else 0.
 */
typedef int	verdict_line_fn(void *, const char *, size_t, unsigned long,
		    size_t, int *);

int	verdict_each(int, const char *, verdict_line_fn *, void *);
void	verdict_lines_init(struct verdict_lines *, int);
int	verdict_lines_next(struct verdict_lines *, const char **, size_t *,
	    size_t *);
void	verdict_lines_free(struct verdict_lines *);

int	verdict_string(const char *, size_t, unsigned long, size_t,
	    struct buf *, size_t *, struct diag_list *);
void	verdict_place(const char *, size_t, size_t, unsigned long,
	    struct diag_item *, size_t);

#endif
