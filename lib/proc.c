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

#include "buf.h"
#include "proc.h"

/* How long a command may take to end after SIGTERM before SIGKILL. */
#define PROC_GRACE	1.0
#define PROC_CHUNK	65536

/* The signals that end us; each is sent on to the running command. */
static const int stop_signals[] = { SIGHUP, SIGINT, SIGTERM };
#define NSTOP	(sizeof(stop_signals) / sizeof(stop_signals[0]))

static volatile sig_atomic_t caught;
static int wake[2] = { -1, -1 };	/* the handlers write a byte here */
static struct sigaction old_stop[NSTOP], old_chld, old_pipe;

static void
on_signal(int signo)
{
	int saved = errno;

	if (signo != SIGCHLD && caught == 0)
		caught = signo;
	(void)write(wake[1], "", 1);	/* full: a wake-up is pending */
	errno = saved;
}

static double
now(void)
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

/*
 * Installs the handlers. A stop signal that was ignored when we started
 * (a command run with nohup, or in the background of a script) stays
 * ignored, as the shell meant. Returns -1 with errno on failure.
 */
int
proc_init(void)
{
	struct sigaction sa;
	size_t i;

	if (pipe(wake) == -1)
		return -1;
	if (set_flags(wake[0], FD_CLOEXEC, O_NONBLOCK) == -1 ||
	    set_flags(wake[1], FD_CLOEXEC, O_NONBLOCK) == -1)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	for (i = 0; i < NSTOP; i++) {
		if (sigaction(stop_signals[i], NULL, &old_stop[i]) == -1)
			return -1;
		if (old_stop[i].sa_handler != SIG_IGN &&
		    sigaction(stop_signals[i], &sa, NULL) == -1)
			return -1;
	}
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	if (sigaction(SIGCHLD, &sa, &old_chld) == -1)
		return -1;
	return sigaction(SIGPIPE, NULL, &old_pipe);
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
	double end = now() + seconds, t;

	p.fd = wake[0];
	p.events = POLLIN;
	while (!caught && (t = now()) < end) {
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

/* In the child: the dispositions we found, then the command. */
static void __attribute__((noreturn))
child(char *const argv[], int in, int out, int err)
{
	size_t i;
	sigset_t none;
	int e;

	setpgid(0, 0);
	for (i = 0; i < NSTOP; i++)
		sigaction(stop_signals[i], &old_stop[i], NULL);
	sigaction(SIGCHLD, &old_chld, NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (dup2(in, 0) == -1 || dup2(out, 1) == -1)
		goto fail;
	if (in != 0)
		close(in);
	if (out != 1)
		close(out);
	execvp(argv[0], argv);
fail:
	e = errno;
	(void)write(err, &e, sizeof(e));
	_exit(127);
}

/* The running command and the pipes to it. */
struct run {
	pid_t		 pid;
	int		 in;		/* its standard input, or -1 */
	int		 out;		/* its standard output, or -1 */
	const char	*data;		/* what is left to give it */
	size_t		 left;
	struct buf	*answer;
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

/* Gives the command more of its input; a command that stops reading ends it. */
static int
feed(struct run *r)
{
	ssize_t n;

	n = write(r->in, r->data, r->left > PROC_CHUNK ? PROC_CHUNK : r->left);
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

static int
gather(struct run *r)
{
	ssize_t n;

	buf_reserve(r->answer, PROC_CHUNK);
	n = read(r->out, r->answer->data + r->answer->len, PROC_CHUNK);
	if (n > 0)
		r->answer->len += (size_t)n;
	else if (n == 0)
		close_fd(&r->out);
	else if (errno != EAGAIN && errno != EINTR)
		return -1;
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
	struct pollfd p[3];
	double start = now(), t, limit = timeout > 0 ? start + timeout : 0;
	int st, nfds, watch, rc = 0;
	pid_t w;

	for (;;) {
		t = now();
		if (caught && !r->reaped)
			stop_group(r, caught, t);
		watch = limit > 0 && !res->timed_out &&
		    (r->reaped ? r->out != -1 : !r->sent);
		if (watch && t >= limit) {
			/* stop it, or stop waiting for what escaped it */
			res->timed_out = 1;
			if (r->reaped)
				close_fd(&r->out);
			else
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
				res->seconds = now() - start;
				if (WIFSIGNALED(st))
					res->signo = WTERMSIG(st);
				else
					res->status = WEXITSTATUS(st);
				kill(-r->pid, SIGKILL);	/* what it left */
				close_fd(&r->in);
			}
		}
		if (r->reaped && r->out == -1)
			break;

		nfds = 0;
		p[nfds].fd = wake[0];
		p[nfds++].events = POLLIN;
		if (r->out != -1) {
			p[nfds].fd = r->out;
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
		if (r->out != -1 && p[1].revents != 0 && gather(r) == -1) {
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
 * Runs argv (found on PATH as execvp does) with the input on its standard
 * input; its standard error is ours. Returns 0 when it has ended (res says
 * how), PROC_CAUGHT when a stop signal arrived meanwhile (the command has
 * been stopped and reaped), PROC_NOEXEC when it could not be started, or
 * PROC_ERROR; both with errno set.
 */
int
proc_run(char *const argv[], const void *input, size_t len,
    struct buf *answer, double timeout, struct proc_result *res)
{
	struct sigaction ign;
	struct run r;
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 };
	int e = 0, rc = PROC_ERROR, saved;
	ssize_t n;

	memset(res, 0, sizeof(*res));
	memset(&r, 0, sizeof(r));
	r.in = r.out = -1;
	if (caught)
		return PROC_CAUGHT;
	if (pipe(in) == -1 || pipe(out) == -1 || pipe(err) == -1 ||
	    set_flags(err[0], FD_CLOEXEC, 0) == -1 ||
	    set_flags(err[1], FD_CLOEXEC, 0) == -1 ||
	    set_flags(in[1], FD_CLOEXEC, O_NONBLOCK) == -1 ||
	    set_flags(out[0], FD_CLOEXEC, O_NONBLOCK) == -1)
		goto out;
	/* A command that stops reading is not our end: EPIPE, no signal. */
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	if (sigaction(SIGPIPE, &ign, NULL) == -1)
		goto out;
	if ((r.pid = fork()) == -1)
		goto out;
	if (r.pid == 0)
		child(argv, in[0], out[1], err[1]);
	setpgid(r.pid, r.pid);	/* both sides, whichever runs first */
	close_fd(&in[0]);
	close_fd(&out[1]);
	close_fd(&err[1]);
	while ((n = read(err[0], &e, sizeof(e))) == -1 && errno == EINTR)
		continue;
	if (n == (ssize_t)sizeof(e)) {
		while (waitpid(r.pid, NULL, 0) == -1 && errno == EINTR)
			continue;
		errno = e;
		rc = PROC_NOEXEC;
		goto out;
	}
	r.in = in[1];
	r.out = out[0];
	in[1] = out[0] = -1;
	r.data = input;
	r.left = len;
	r.answer = answer;
	if (len == 0)
		close_fd(&r.in);
	rc = converse(&r, timeout, res);
	if (rc == 0 && caught)
		rc = PROC_CAUGHT;
out:
	saved = errno;
	close_fd(&r.in);
	close_fd(&r.out);
	close_fd(&in[0]);
	close_fd(&in[1]);
	close_fd(&out[0]);
	close_fd(&out[1]);
	close_fd(&err[0]);
	close_fd(&err[1]);
	sigaction(SIGPIPE, &old_pipe, NULL);
	errno = saved;
	return rc;
}
