/*
 * loop_int: the loop's state, shared by its files: loop.c (the thread
 * and the iterations), loop_model.c (the model's command, read as it
 * streams) and loop_ask.c (approval of a call).
 */
#ifndef LLMKIT_LOOP_INT_H
#define LLMKIT_LOOP_INT_H

#include <jansson.h>

#include "base/buf.h"
#include "base/proc.h"
#include "loop/loop.h"
#include "toolcall/tooldefs.h"

struct loop {
	const struct loop_opts *o;
	struct mcp	*m;
	int		 fd;		/* the thread's file, or -1 */
	struct buf	 events;	/* the thread's lines the prompt holds */
	long		 last;		/* the highest iteration in the thread */
	int		 have_tools;
	struct tooldefs	 defs;
	json_t		*servers;	/* tool name -> the server listing it */
	struct buf	 tools_prompt;
	char		**always;	/* "SERVER:TOOL"s answered always */
	size_t		 nalways;
	int		 tty;		/* /dev/tty, -1 before, -2 without */
	int		 status;	/* the run's, once it is known */
	int		 stop;		/* quit, a stop signal, or trouble */
	int		 checked;	/* the thread read has been checked */
	/* the iteration being read */
	long		 iter;
	unsigned long	 added;		/* events it added */
	unsigned long	 calls;		/* tool_call and error events */
	struct buf	 prose;		/* its message events' contents */
	char		 shown;		/* the last byte of prose shown, or 0 */
	struct buf	 pending;	/* the reader's records not yet used */
	int		 summarising;	/* the answer is a summary's */
};

/* loop.c */
int	loop_add(struct loop *, const char *, size_t);
int	loop_add_json(struct loop *, json_t *);
void	loop_prose(void *, const char *, size_t);

/* loop_model.c: the model's run, its answer fed to fn as it comes. */
typedef int	loop_feed_fn(void *, const char *, size_t);

struct loop_answer {
	struct proc_result res;
	unsigned long long bytes;	/* of its standard output */
	int		 nonblank;	/* some of them not white space */
	struct buf	 err;		/* its standard error's last bytes */
	int		 started;	/* 0: it could not be started; errno */
	int		 stopped;	/* fn asked for the end */
};

int	loop_model(struct loop *, const struct buf *, loop_feed_fn *, void *,
	    struct loop_answer *);

/* loop_ask.c: whether a call runs. */
enum loop_verdict {
	LOOP_RUN,
	LOOP_REFUSED,
	LOOP_QUIT
};

enum loop_verdict loop_approve(struct loop *, const char *server,
	    const char *tool, const json_t *args);
void	loop_ask_free(struct loop *);
void	loop_shorten(struct buf *, const json_t *, size_t);

#endif
