/* proc: one command at a time, fed from memory and read into memory. */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/proc.h"
#include "base/xalloc.h"

/* How long a command may take to end after SIGTERM before SIGKILL. */
#define PROC_GRACE	1.0
#define PROC_CHUNK	65536

/*
 * The signals whose default action ends a process and that may be caught,
 * but for SIGXFSZ (proc_ignore_xfsz) and those a fault raises (SIGSEGV,
 * SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT): each is sent on to
 * the running command, and then ends us. The realtime signals, SIGRTMIN
 * to SIGRTMAX, are stop signals too, and so is SIGPIPE: caught, it lets
 * a write of ours to a closed pipe fail with EPIPE, an output failure the
 * caller reports and ends on once its commands have been stopped, where
 * its default action would end us at once and leave them running.
 */
static const int stop_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM,
	SIGVTALRM, SIGPROF, SIGXCPU, SIGPIPE,
#ifdef SIGPOLL
	SIGPOLL,
#endif
#ifdef SIGPWR
	SIGPWR,
#endif
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
#ifdef SIGLOST
	SIGLOST,
#endif
};
#define NSTOP	(sizeof(stop_signals) / sizeof(stop_signals[0]))
#define NSIGS	128	/* above any signal number, SIGRTMAX included */

static volatile sig_atomic_t caught;
static int wake[2] = { -1, -1 };	/* the handlers write a byte here */
static struct sigaction old_act[NSIGS];	/* as we found them */
static unsigned char handled[NSIGS];	/* on_signal is their handler */
static int xfsz_saved;

static void
on_signal(int signo)
{
	int saved = errno;
	ssize_t n;

	if (signo != SIGCHLD && caught == 0)
		caught = signo;
	n = write(wake[1], "", 1);	/* full: a wake-up is pending */
	(void)n;
	errno = saved;
}

/* The monotonic clock, in seconds: for time-outs and durations. */
double
proc_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
set_flags(int fd, int fdflags, int flflags)
{
	int f;

	if (fdflags != 0 && ((f = fcntl(fd, F_GETFD)) == -1 ||
	    fcntl(fd, F_SETFD, f | fdflags) == -1))
		return -1;
	if (flflags != 0 && ((f = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, f | flflags) == -1))
		return -1;
	return 0;
}

/* Catches signo unless it was ignored when we started. */
static int
catch_signal(int signo, const struct sigaction *sa)
{
	if (signo <= 0 || signo >= NSIGS) {
		errno = EINVAL;
		return -1;
	}
	if (sigaction(signo, NULL, &old_act[signo]) == -1)
		return -1;
	if (old_act[signo].sa_handler == SIG_IGN)
		return 0;
	if (sigaction(signo, sa, NULL) == -1)
		return -1;
	handled[signo] = 1;
	return 0;
}

/*
 * Ignores SIGXFSZ, so that a write past the file size limit fails with
 * EFBIG and is reported as any write error; the commands get back what
 * we found. Call it first, before proc_init.
 */
int
proc_ignore_xfsz(void)
{
	struct sigaction ign;

	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	if (sigaction(SIGXFSZ, &ign, &old_act[SIGXFSZ]) == -1)
		return -1;
	xfsz_saved = 1;
	return 0;
}

/*
 * Installs the handlers. A stop signal that was ignored when we started
 * (a command run with nohup, or in the background of a script) stays
 * ignored, as the shell meant. From now on a write of ours to a pipe
 * whose reader has gone fails with EPIPE rather than ending us with our
 * commands still running: the caller reports it as a failed write, and
 * stops its commands before it ends. Returns -1 with errno on failure.
 */
int
proc_init(void)
{
	struct sigaction sa;
	size_t i;
	int signo;

	if (pipe(wake) == -1)
		return -1;
	if (set_flags(wake[0], FD_CLOEXEC, O_NONBLOCK) == -1 ||
	    set_flags(wake[1], FD_CLOEXEC, O_NONBLOCK) == -1)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	for (i = 0; i < NSTOP; i++)
		if (catch_signal(stop_signals[i], &sa) == -1)
			return -1;
	for (signo = SIGRTMIN; signo <= SIGRTMAX; signo++)
		if (catch_signal(signo, &sa) == -1)
			return -1;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	return sigaction(SIGCHLD, &sa, &old_act[SIGCHLD]);
}

/* The stop signal that arrived, or 0. */
int
proc_caught(void)
{
	return caught;
}

static void
drain_wake(void)
{
	char b[64];

	while (read(wake[0], b, sizeof(b)) > 0)
		continue;
}

/* Milliseconds for poll(2) until the first of two moments (0: none). */
static int
poll_ms(double t, double a, double b)
{
	double next = 0, ms;

	if (a > 0)
		next = a;
	if (b > 0 && (next == 0 || b < next))
		next = b;
	if (next == 0)
		return -1;
	ms = (next - t) * 1000 + 1;
	if (ms < 0)
		return 0;
	return ms > 3600000 ? 3600000 : (int)ms;
}

/*
 * Waits the given seconds, or less when a stop signal comes: then returns
 * -1 (proc_caught says which).
 */
int
proc_sleep(double seconds)
{
	struct pollfd p;
	double end = proc_now() + seconds, t;

	p.fd = wake[0];
	p.events = POLLIN;
	while (!caught && (t = proc_now()) < end) {
		if (poll(&p, 1, poll_ms(t, end, 0)) > 0)
			drain_wake();
	}
	return caught ? -1 : 0;
}

/* Ends this process by the stop signal that arrived, as if by default. */
void
proc_die(void)
{
	sigset_t set;
	int signo = caught;

	signal(signo, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, signo);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(signo);
}

/* In the child: tells the parent why the command did not start, and ends. */
static void __attribute__((noreturn))
tell(int err, int e)
{
	ssize_t n;

	n = write(err, &e, sizeof(e));
	(void)n;
	_exit(127);
}

/*
 * In the child: the dispositions we found, then the command, in the
 * directory cwd and with the environment envp when they are not NULL.
 * What failed is told through err: errno, negated for chdir(2).
 */
static void __attribute__((noreturn))
child(char *const argv[], int in, int out, int eout, int err,
    const char *cwd, char *const envp[])
{
	extern char **environ;
	sigset_t none;
	int signo;

	setpgid(0, 0);
	for (signo = 1; signo < NSIGS; signo++)
		if (handled[signo])
			sigaction(signo, &old_act[signo], NULL);
	sigaction(SIGCHLD, &old_act[SIGCHLD], NULL);
	if (xfsz_saved)
		sigaction(SIGXFSZ, &old_act[SIGXFSZ], NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (dup2(in, 0) == -1 || dup2(out, 1) == -1 ||
	    (eout != -1 && dup2(eout, 2) == -1))
		goto fail;
	if (in != 0)
		close(in);
	if (out != 1)
		close(out);
	if (eout > 2)
		close(eout);
	if (cwd != NULL && chdir(cwd) == -1)
		tell(err, -errno);
	if (envp != NULL)
		environ = (char **)envp;
	execvp(argv[0], argv);
fail:
	tell(err, errno);
}

/* The running command and the pipes to it. */
struct run {
	pid_t		 pid;
	int		 in;		/* its standard input, or -1 */
	int		 out;		/* its standard output, or -1 */
	int		 eout;		/* its standard error, or -1 */
	const struct proc_err *err;	/* what to do with it, or NULL */
	size_t		 errgot;	/* bytes of it read */
	const char	*data;		/* what is left to give it */
	size_t		 left;
	struct buf	*answer;
	size_t		 got;		/* bytes of output read */
	size_t		 max;		/* the most it may write, or 0 */
	int		 reaped;
	int		 sent;		/* a signal was sent on: SIGKILL next */
	double		 kill_at;	/* when to send SIGKILL, or 0 */
};

static void
close_fd(int *fd)
{
	if (*fd != -1) {
		close(*fd);
		*fd = -1;
	}
}

/* Closes both ends of a pipe that are still open. */
static void
close_pipe(int p[2])
{
	close_fd(&p[0]);
	close_fd(&p[1]);
}

/* Sends the signal to the command's group, and SIGKILL after a grace. */
static void
stop_group(struct run *r, int signo, double t)
{
	if (r->sent)
		return;
	kill(-r->pid, signo);
	r->sent = 1;
	r->kill_at = t + PROC_GRACE;
}

/*
 * write(2), but SIGPIPE is blocked while we write, and the one a closed
 * pipe raises taken back, so that only a SIGPIPE sent to us by another
 * process stops us.
 */
static ssize_t
write_nopipe(int fd, const void *p, size_t len)
{
	static const struct timespec zero = { 0, 0 };
	sigset_t pipe_set, mask;
	ssize_t n;
	int e;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe_set, &mask);
	n = write(fd, p, len);
	e = errno;
	if (n == -1 && e == EPIPE)
		(void)sigtimedwait(&pipe_set, NULL, &zero);
	sigprocmask(SIG_SETMASK, &mask, NULL);
	errno = e;
	return n;
}

/* Gives the command more of its input; a command that stops reading ends it. */
static int
feed(struct run *r)
{
	ssize_t n;

	n = write_nopipe(r->in, r->data,
	    r->left > PROC_CHUNK ? PROC_CHUNK : r->left);
	if (n > 0) {
		r->data += n;
		r->left -= (size_t)n;
	} else if (n == -1 && errno != EAGAIN && errno != EINTR) {
		if (errno != EPIPE)
			return -1;
		r->left = 0;
	}
	if (r->left == 0)
		close_fd(&r->in);
	return 0;
}

/*
 * Reads more of the command's output; when it is more than max bytes
 * (reading one byte past it to know), stops reading and stops the command.
 */
static int
gather(struct run *r, struct proc_result *res, double t)
{
	size_t want = PROC_CHUNK;
	ssize_t n;

	if (r->max > 0 && r->max - r->got < want)
		want = r->max - r->got + 1;
	buf_reserve(r->answer, want);
	n = read(r->out, r->answer->data + r->answer->len, want);
	if (n > 0) {
		r->answer->len += (size_t)n;
		r->got += (size_t)n;
		if (r->max > 0 && r->got > r->max) {
			res->too_long = 1;
			close_fd(&r->out);
			if (!r->reaped)
				stop_group(r, SIGTERM, t);
		}
	} else if (n == 0)
		close_fd(&r->out);
	else if (errno != EAGAIN && errno != EINTR)
		return -1;
	return 0;
}

/*
 * Reads more of the command's standard error: copied on whole (a copy
 * that fails is given up, never the command), kept up to the limit.
 */
static int
gather_err(struct run *r, struct proc_result *res)
{
	char chunk[PROC_CHUNK];
	const struct proc_err *e = r->err;
	size_t keep, off;
	ssize_t n, w;

	n = read(r->eout, chunk, sizeof(chunk));
	if (n == 0)
		close_fd(&r->eout);
	if (n == 0 || (n == -1 && (errno == EAGAIN || errno == EINTR)))
		return 0;
	if (n == -1)
		return -1;
	for (off = 0; e->copy != -1 && off < (size_t)n; off += (size_t)w)
		if ((w = write_nopipe(e->copy, chunk + off, (size_t)n - off)) <= 0)
			break;
	keep = (size_t)n;
	if (e->max > 0 && e->max - r->errgot < keep) {
		keep = e->max - r->errgot;
		res->err_too_long = 1;
	}
	buf_add(e->text, chunk, keep);
	r->errgot += keep;
	return 0;
}

/*
 * Starts the command, gives it the input, and appends its output to
 * answer until it has ended and closed its output. After timeout seconds
 * (0: no limit) its process group gets SIGTERM, then SIGKILL. Whatever it
 * leaves behind in its group is killed when it has ended, so that nothing
 * keeps running unseen.
 */
static int
converse(struct run *r, double timeout, struct proc_result *res)
{
	struct pollfd p[4];
	double start = proc_now(), t;
	double limit = timeout > 0 ? start + timeout : 0;
	int st, nfds, watch, out_at, err_at, rc = 0;
	pid_t w;

	for (;;) {
		t = proc_now();
		if (caught && !r->reaped)
			stop_group(r, caught, t);
		watch = limit > 0 && !res->timed_out && (r->reaped ?
		    r->out != -1 || r->eout != -1 : !r->sent);
		if (watch && t >= limit) {
			/* stop it, or stop waiting for what escaped it */
			res->timed_out = 1;
			if (r->reaped) {
				close_fd(&r->out);
				close_fd(&r->eout);
			} else
				stop_group(r, SIGTERM, t);
		}
		if (r->kill_at > 0 && t >= r->kill_at && !r->reaped) {
			kill(-r->pid, SIGKILL);
			r->kill_at = 0;
		}
		if (!r->reaped) {
			while ((w = waitpid(r->pid, &st, WNOHANG)) == -1 &&
			    errno == EINTR)
				continue;
			if (w == r->pid) {
				r->reaped = 1;
				res->seconds = proc_now() - start;
				if (WIFSIGNALED(st))
					res->signo = WTERMSIG(st);
				else
					res->status = WEXITSTATUS(st);
				kill(-r->pid, SIGKILL);	/* what it left */
				close_fd(&r->in);
			}
		}
		if (r->reaped && r->out == -1 && r->eout == -1)
			break;

		nfds = 0;
		out_at = err_at = -1;
		p[nfds].fd = wake[0];
		p[nfds++].events = POLLIN;
		if (r->out != -1) {
			out_at = nfds;
			p[nfds].fd = r->out;
			p[nfds++].events = POLLIN;
		}
		if (r->eout != -1) {
			err_at = nfds;
			p[nfds].fd = r->eout;
			p[nfds++].events = POLLIN;
		}
		if (r->in != -1) {
			p[nfds].fd = r->in;
			p[nfds++].events = POLLOUT;
		}
		if (poll(p, (nfds_t)nfds, poll_ms(t, watch ? limit : 0,
		    r->kill_at)) == -1) {
			if (errno == EINTR)
				continue;
			rc = PROC_ERROR;
			break;
		}
		if (p[0].revents != 0)
			drain_wake();
		if (out_at != -1 && p[out_at].revents != 0 &&
		    gather(r, res, proc_now()) == -1) {
			rc = PROC_ERROR;
			break;
		}
		if (err_at != -1 && r->eout != -1 && p[err_at].revents != 0 &&
		    gather_err(r, res) == -1) {
			rc = PROC_ERROR;
			break;
		}
		if (r->in != -1 && p[nfds - 1].revents != 0 && feed(r) == -1) {
			rc = PROC_ERROR;
			break;
		}
	}
	if (!r->reaped) {		/* a failed system call: end it */
		kill(-r->pid, SIGKILL);
		while (waitpid(r->pid, &st, 0) == -1 && errno == EINTR)
			continue;
	}
	return rc;
}

/*
 * Forks the child of argv on the pipes (their child ends are closed
 * here), in a process group of its own, and waits until it has run the
 * command or failed to: 0 with *pid set; PROC_NOEXEC or PROC_NOCWD (the
 * child reaped, *pid -1, errno says why); PROC_ERROR when fork fails.
 */
static int
fork_child(char *const argv[], const char *cwd, char *const envp[],
    int in[2], int out[2], int eout[2], int err[2], pid_t *pid)
{
	ssize_t n;
	int e = 0;

	if ((*pid = fork()) == -1)
		return PROC_ERROR;
	if (*pid == 0)
		child(argv, in[0], out[1], eout[1], err[1], cwd, envp);
	setpgid(*pid, *pid);	/* both sides, whichever runs first */
	close_fd(&in[0]);
	close_fd(&out[1]);
	close_fd(&eout[1]);
	close_fd(&err[1]);
	while ((n = read(err[0], &e, sizeof(e))) == -1 && errno == EINTR)
		continue;
	if (n != (ssize_t)sizeof(e))
		return 0;
	while (waitpid(*pid, NULL, 0) == -1 && errno == EINTR)
		continue;
	*pid = -1;
	errno = e < 0 ? -e : e;
	return e < 0 ? PROC_NOCWD : PROC_NOEXEC;
}

/*
 * Runs argv (found on PATH as execvp does) with the input on its standard
 * input; its standard error is ours. Its output is appended to answer, at
 * most max bytes of it (0: no limit): a command that writes more is
 * stopped as at the time limit. Returns 0 when it has ended (res says
 * how), PROC_CAUGHT when a stop signal arrived meanwhile (the command has
 * been stopped and reaped), PROC_NOEXEC when it could not be started, or
 * PROC_ERROR; both with errno set.
 */
int
proc_run(char *const argv[], const void *input, size_t len,
    struct buf *answer, size_t max, double timeout, struct proc_result *res)
{
	return proc_run_err(argv, input, len, answer, max, timeout, NULL, res);
}

/*
 * proc_run, but with err not NULL the command's standard error goes
 * through a pipe: it is kept as err says, and a standard error longer
 * than its limit only sets res->err_too_long (the command goes on).
 */
int
proc_run_err(char *const argv[], const void *input, size_t len,
    struct buf *answer, size_t max, double timeout,
    const struct proc_err *perr, struct proc_result *res)
{
	struct run r;
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 };
	int eout[2] = { -1, -1 };
	int rc = PROC_ERROR, saved;

	memset(res, 0, sizeof(*res));
	memset(&r, 0, sizeof(r));
	r.in = r.out = r.eout = -1;
	if (caught)
		return PROC_CAUGHT;
	if (pipe(in) == -1 || pipe(out) == -1 || pipe(err) == -1 ||
	    set_flags(err[0], FD_CLOEXEC, 0) == -1 ||
	    set_flags(err[1], FD_CLOEXEC, 0) == -1 ||
	    set_flags(in[1], FD_CLOEXEC, O_NONBLOCK) == -1 ||
	    set_flags(out[0], FD_CLOEXEC, O_NONBLOCK) == -1)
		goto out;
	if (perr != NULL && (pipe(eout) == -1 ||
	    set_flags(eout[0], FD_CLOEXEC, O_NONBLOCK) == -1))
		goto out;
	if ((rc = fork_child(argv, NULL, NULL, in, out, eout, err,
	    &r.pid)) != 0)
		goto out;
	r.in = in[1];
	r.out = out[0];
	r.eout = eout[0];
	r.err = perr;
	in[1] = out[0] = eout[0] = -1;
	r.data = input;
	r.left = len;
	r.answer = answer;
	r.max = max;
	if (len == 0)
		close_fd(&r.in);
	rc = converse(&r, timeout, res);
	if (rc == 0 && caught)
		rc = PROC_CAUGHT;
out:
	saved = errno;
	close_fd(&r.in);
	close_fd(&r.out);
	close_fd(&r.eout);
	close_pipe(in);
	close_pipe(out);
	close_pipe(eout);
	close_pipe(err);
	errno = saved;
	return rc;
}

/*
 * Starts argv (found on PATH as execvp does, the PATH of envp when it is
 * given) for a conversation that lasts: its standard input, output and
 * error are pipes, our ends non-blocking and closed on exec; it runs in
 * a process group of its own, in the directory cwd (NULL: ours), with the
 * environment envp (NULL: ours). Returns 0, PROC_NOEXEC or PROC_NOCWD
 * (errno says why) when it could not be started, PROC_ERROR.
 */
int
proc_spawn(char *const argv[], const char *cwd, char *const envp[],
    struct proc_child *c)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, eout[2] = { -1, -1 };
	int err[2] = { -1, -1 };
	int rc = PROC_ERROR, saved;

	c->pid = -1;
	c->in = c->out = c->err = -1;
	if (pipe(in) == -1 || pipe(out) == -1 || pipe(eout) == -1 ||
	    pipe(err) == -1 ||
	    set_flags(err[0], FD_CLOEXEC, 0) == -1 ||
	    set_flags(err[1], FD_CLOEXEC, 0) == -1 ||
	    set_flags(in[1], FD_CLOEXEC, O_NONBLOCK) == -1 ||
	    set_flags(out[0], FD_CLOEXEC, O_NONBLOCK) == -1 ||
	    set_flags(eout[0], FD_CLOEXEC, O_NONBLOCK) == -1)
		goto out;
	if ((rc = fork_child(argv, cwd, envp, in, out, eout, err,
	    &c->pid)) != 0)
		goto out;
	c->in = in[1];
	c->out = out[0];
	c->err = eout[0];
	in[1] = out[0] = eout[0] = -1;
	rc = 0;
out:
	saved = errno;
	close_pipe(in);
	close_pipe(out);
	close_pipe(eout);
	close_pipe(err);
	errno = saved;
	return rc;
}

/*
 * Whether the child has ended, without waiting: 1 (res says how; what it
 * left in its group is killed), or 0 while it runs.
 */
int
proc_reaped(struct proc_child *c, struct proc_result *res)
{
	pid_t w;
	int st;

	if (c->pid == -1)
		return 1;
	while ((w = waitpid(c->pid, &st, WNOHANG)) == -1 && errno == EINTR)
		continue;
	if (w != c->pid)
		return 0;
	memset(res, 0, sizeof(*res));
	if (WIFSIGNALED(st))
		res->signo = WTERMSIG(st);
	else
		res->status = WEXITSTATUS(st);
	kill(-c->pid, SIGKILL);
	c->pid = -1;
	return 1;
}

/* Sends signo to the child's process group, if it still runs (0: none). */
void
proc_signal(const struct proc_child *c, int signo)
{
	if (c->pid != -1 && signo != 0)
		kill(-c->pid, signo);
}

/* Closes our end of the child's standard input (its end of file). */
void
proc_close_in(struct proc_child *c)
{
	close_fd(&c->in);
}

/* Closes our ends of the child's pipes, its standard input first. */
void
proc_close(struct proc_child *c)
{
	close_fd(&c->in);
	close_fd(&c->out);
	close_fd(&c->err);
}

/*
 * The descriptor that becomes readable when a signal has come (a stop
 * signal, or SIGCHLD): poll(2) it beside a child's pipes, and call
 * proc_woken when it is.
 */
int
proc_wakefd(void)
{
	return wake[0];
}

void
proc_woken(void)
{
	drain_wake();
}

/* write(2) to a child's pipe: one that has closed it is EPIPE, no signal. */
ssize_t
proc_write(int fd, const void *p, size_t len)
{
	return write_nopipe(fd, p, len);
}

/*
 * Ends the n children of set, all at once: with gentle, their standard
 * input is closed and they get grace seconds to end on their own; then
 * SIGTERM to each one's process group, grace seconds more, and SIGKILL.
 * Until they have all been reaped, drain(arg, i, fd) is called whenever
 * the output or the standard error fd of child i can be read (it reads
 * it, and closes it at its end). res (or NULL) gets how each ended.
 * Their pipes are left to the caller.
 */
void
proc_end(struct proc_child *const set[], size_t n, int gentle, double grace,
    proc_drain_fn *drain, void *arg, struct proc_result res[])
{
	struct proc_result one;
	struct pollfd *p;
	double until = proc_now() + grace, t;
	size_t i, np, left;
	int step = gentle ? 0 : 1;

	p = xcalloc(2 * n + 1, sizeof(*p));
	for (i = 0; i < n; i++) {
		close_fd(&set[i]->in);
		proc_signal(set[i], gentle ? 0 : SIGTERM);
	}
	for (;;) {
		for (i = left = 0; i < n; i++) {
			if (set[i]->pid == -1)
				continue;
			if (proc_reaped(set[i], &one)) {
				if (res != NULL)
					res[i] = one;
			} else
				left++;
		}
		if (left == 0)
			break;
		if ((t = proc_now()) >= until) {
			for (i = 0; i < n; i++)
				proc_signal(set[i], step == 0 ? SIGTERM : SIGKILL);
			until = t + (step++ == 0 ? grace : 3600);
		}
		np = 0;
		p[np].fd = wake[0];
		p[np++].events = POLLIN;
		for (i = 0; i < n; i++) {
			p[np].fd = set[i]->out;
			p[np++].events = POLLIN;
			p[np].fd = set[i]->err;
			p[np++].events = POLLIN;
		}
		if (poll(p, (nfds_t)np, poll_ms(proc_now(), until, 0)) <= 0)
			continue;
		if (p[0].revents != 0)
			drain_wake();
		for (i = 0; i < n; i++) {
			if (p[1 + 2 * i].revents != 0 && set[i]->out != -1)
				drain(arg, i, set[i]->out);
			if (p[2 + 2 * i].revents != 0 && set[i]->err != -1)
				drain(arg, i, set[i]->err);
		}
	}
	free(p);
}
