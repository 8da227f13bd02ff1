/*
 * proc: runs a command with its standard input given from memory and its
 * standard output gathered into memory (its standard error too, when
 * asked, while it still reaches ours), in a process group of its own,
 * under an optional time limit and an optional limit on the size of its
 * output; a signal that asks this process to end is sent on to the
 * command, which is reaped before the caller hears of it. And children
 * that last (proc_spawn), spoken to over three pipes while the caller
 * polls them beside proc_wakefd, and ended together by proc_end: their
 * input closed, a grace, SIGTERM to their groups, a grace, SIGKILL.
 */
#ifndef LLMKIT_PROC_H
#define LLMKIT_PROC_H
#include <sys/types.h>

#include <stddef.h>

#include "base/buf.h"

/* How a command ended. */
struct proc_result {
	int	status;		/* exit status, when signo is 0 */
	int	signo;		/* the signal that ended it, or 0 */
	int	timed_out;	/* ended because the time limit was reached */
	int	too_long;	/* stopped for writing more than the limit */
	int	err_too_long;	/* its standard error went past the limit */
	double	seconds;	/* from its start to its end */
};

/* What proc_run returns besides 0 (the command ran; see the result). */
enum {
	PROC_ERROR = -1,	/* a system call failed; errno says why */
	PROC_NOEXEC = -2,	/* the command could not be started; errno */
	PROC_NOCWD = -3,	/* its directory could not be entered; errno */
	PROC_CAUGHT = 1		/* a signal asked us to end (proc_caught) */
};

/* A child that lasts (proc_spawn): its pid (-1 once reaped) and pipes. */
struct proc_child {
	pid_t	pid;
	int	in;		/* its standard input, ours to write */
	int	out;		/* its standard output */
	int	err;		/* its standard error */
};

/* Reads what a child's pipe fd has, for proc_end; closes it at its end. */
typedef void	proc_drain_fn(void *, size_t, int);

/*
 * A command's standard error, kept as well as copied to a descriptor:
 * the first max bytes (0: all) are appended to text, and every byte is
 * written to copy (-1: none) as it comes.
 */
struct proc_err {
	struct buf	*text;
	size_t		 max;
	int		 copy;
};

int	proc_ignore_xfsz(void);
double	proc_now(void);
int	proc_init(void);
int	proc_run(char *const[], const void *, size_t, struct buf *, size_t,
	    double, struct proc_result *);
int	proc_run_err(char *const[], const void *, size_t, struct buf *,
	    size_t, double, const struct proc_err *, struct proc_result *);
int	proc_caught(void);
int	proc_sleep(double);
void	proc_die(void);
int	proc_spawn(char *const[], const char *, char *const[],
	    struct proc_child *);
int	proc_reaped(struct proc_child *, struct proc_result *);
void	proc_signal(const struct proc_child *, int);
void	proc_close_in(struct proc_child *);
void	proc_close(struct proc_child *);
int	proc_wakefd(void);
void	proc_woken(void);
ssize_t	proc_write(int, const void *, size_t);
void	proc_end(struct proc_child *const[], size_t, int, double,
	    proc_drain_fn *, void *, struct proc_result[]);

#endif
