/*
 * retry: the loop of llm-retry(1). A prompt goes to a model's command,
 * its answer to a check command; a rejected answer goes back to the model
 * with the check's feedback, up to a number of attempts.
 */
#ifndef LLMKIT_RETRY_H
#define LLMKIT_RETRY_H

#include <stdio.h>

#include "base/buf.h"

/* The loop's settings, given by the caller, and how it ended. */
struct retry {
	const char	*check;		/* run by /bin/sh -c */
	char *const	*model;		/* run as execvp(3) runs it */
	double		 delay;		/* seconds between two attempts */
	double		 timeout;	/* seconds for a model's run, 0: none */
	size_t		 max_size;	/* prompt, answer, feedback: each */
	long		 attempts;
	int		 verbose;	/* a line for each command that ran */
	unsigned char	 pass[256];	/* check statuses that also accept */
	struct buf	 prompt;	/* grows with each rejected answer */

	struct buf	 answer;	/* the answer accepted */
	int		 status;	/* the check's status that accepted it */
	struct buf	 last;		/* the last rejected answer */
	struct buf	 said;		/* the feedback on it */
	long		 made;		/* attempts made */
	int		 rejected;	/* some answer reached the check */
};

/* How retry_run ends, besides DIAG_TROUBLE (reported). */
enum {
	RETRY_ACCEPTED = 0,	/* answer and status say which */
	RETRY_NONE = 1,		/* no answer accepted: last, said, made */
	RETRY_CAUGHT = -1	/* a stop signal arrived (proc_caught) */
};

void	retry_init(struct retry *);
void	retry_free(struct retry *);
int	retry_pass(const char *, unsigned char *);
int	retry_read(FILE *, const char *, struct buf *, size_t);
void	retry_block(struct buf *, long, const struct buf *,
	    const struct buf *);
int	retry_run(struct retry *);

#endif
