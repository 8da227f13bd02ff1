/*
 * loop: the agent loop of llm-loop(1). A thread of seed 004's events
 * (a file of JSON lines, continued across runs, locked while one runs)
 * is the record; each iteration the model's command gets the thread as
 * a prompt, its answer is read as it streams by toolcall's reader, each
 * call it makes runs on an MCP server kept for the whole run once a
 * person (or a rule) approves it, and the loop ends at an answer
 * without a call.
 */
#ifndef LLMKIT_LOOP_H
#define LLMKIT_LOOP_H

#include <stddef.h>

struct mcp;

/* -o: what goes to standard output. */
#define LOOP_OUT_PROSE	0
#define LOOP_OUT_EVENTS	1

struct loop_opts {
	char *const	*model;		/* the model's command, for execvp */
	const char	*thread;	/* -t: the thread's file, or NULL */
	const char	*system;	/* --system's text, or NULL */
	size_t		 system_len;
	const char	*message;	/* the user's, or NULL with resume */
	size_t		 message_len;
	int		 format;	/* TOOLCALL_FMT_* */
	int		 begins;	/* TOOLCALL_BEGINS_* */
	char *const	*allow;		/* --allow patterns */
	size_t		 nallow;
	int		 yes;		/* --yes: every call approved */
	int		 quiet;		/* -q */
	int		 output;	/* LOOP_OUT_* */
	int		 dry_run;
	long		 max_iter;	/* -n */
	long		 retries;
	double		 delay;		/* -w: the first retry's wait */
	size_t		 max_prompt;	/* --max-prompt, or 0: none */
};

/* The exit status of the run, as llm-loop(1) gives it. */
int	loop_run(struct mcp *, const struct loop_opts *);
/* Whether the n bytes at s are only white space (a message, a line). */
int	loop_blank(const char *, size_t);

#endif
