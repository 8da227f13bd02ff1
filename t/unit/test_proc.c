/*
 * Unit tests of lib/proc: input given and output gathered whole (also
 * when both are far larger than a pipe holds), exit statuses and signals,
 * a command that cannot start, the time limit, what a command leaves
 * behind in its group, a stop signal sent on to the command, and a
 * write of ours to a closed pipe, which fails rather than ends us.
 */
#include <sys/types.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/proc.h"
#include "unit.h"

static char *
pattern(size_t n)
{
	char *p = malloc(n ? n : 1);
	size_t i;

	if (p == NULL)
		unit_bail("malloc");
	for (i = 0; i < n; i++)
		p[i] = (char)((i * 131 + i / 251) & 0xFF);
	return p;
}

/*
 * Whether a process is gone; a killed orphan is reaped by init a moment
 * later, so this waits for it up to 5 s.
 */
static int
gone(long pid)
{
	int i;

	for (i = 0; i < 500; i++) {
		if (kill((pid_t)pid, 0) == -1 && errno == ESRCH)
			return 1;
		usleep(10000);
	}
	return 0;
}

static double
mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Runs sh -c script with the input; the output in out. */
static int
sh(const char *script, const char *in, size_t n, struct buf *out,
    double timeout, struct proc_result *res)
{
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)script, NULL };

	buf_reset(out);
	return proc_run(argv, in, n, out, 0, timeout, res);
}

static void
test_plain(void)
{
	struct buf out = BUF_INIT;
	struct proc_result res;
	char *argv[] = { (char *)"printf", (char *)"a%sb", (char *)"\t", NULL };

	unit_long(proc_run(argv, NULL, 0, &out, 0, 0, &res), 0, "printf runs");
	unit_mem(buf_cstr(&out), out.len, "a\tb", "its output, from PATH");
	unit_long(res.status, 0, "status 0");
	unit_long(res.signo, 0, "no signal");
	unit_long(res.timed_out, 0, "no time limit reached");

	unit_long(sh("cat; exit 7", "in\0put", 6, &out, 0, &res), 0,
	    "sh -c runs");
	unit_bytes(out.data, out.len, "in\0put", 6, "input with a NUL back");
	unit_long(res.status, 7, "exit status 7");

	unit_long(sh("kill -USR1 $$", "", 0, &out, 0, &res), 0,
	    "a killed command is still a run");
	unit_long(res.signo, SIGUSR1, "the signal that ended it");

	unit_long(sh("echo $LLMKIT_PROC_TEST", "", 0, &out, 0, &res), 0,
	    "the environment is passed on");
	unit_str(buf_cstr(&out), "yes\n", "an environment variable seen");

	unit_long(sh("ps -o pgid= -p $$; echo $$", "", 0, &out, 0, &res), 0,
	    "ps runs");
	{
		long pgid = -1, pid = -2;

		sscanf(buf_cstr(&out), "%ld %ld", &pgid, &pid);
		unit_long(pgid, pid, "the command leads a process group");
	}
	buf_free(&out);
}

static void
test_large(void)
{
	struct buf out = BUF_INIT;
	struct proc_result res;
	size_t n = 8u << 20;
	char *in = pattern(n);

	unit_long(sh("cat", in, n, &out, 0, &res), 0, "8 MiB through cat");
	unit_long((long)out.len, (long)n, "all 8 MiB back");
	unit_ok(out.len == n && memcmp(out.data, in, n) == 0,
	    "byte for byte");
	unit_long(sh("head -c 10", in, n, &out, 0, &res), 0,
	    "a command that reads 10 bytes of 8 MiB");
	unit_bytes(out.data, out.len, "\0\x83\x06\x89\x0c\x8f\x12\x95\x18"
	    "\x9b", 10, "its 10 bytes");
	unit_long(sh("exec 0<&-; head -c 3000000 /dev/zero", in, n, &out, 0,
	    &res), 0, "a command that closes its input and writes 3 MB");
	unit_long((long)out.len, 3000000, "its 3 MB");
	buf_free(&out);
	free(in);
}

static void
test_noexec(void)
{
	struct buf out = BUF_INIT;
	struct proc_result res;
	char *missing[] = { (char *)"llmkit-no-such-command", NULL };
	char *dir[] = { (char *)"/tmp", NULL };

	errno = 0;
	unit_long(proc_run(missing, "x", 1, &out, 0, 0, &res), PROC_NOEXEC,
	    "a missing command cannot start");
	unit_long(errno, ENOENT, "ENOENT");
	errno = 0;
	unit_long(proc_run(dir, "x", 1, &out, 0, 0, &res), PROC_NOEXEC,
	    "a directory cannot start");
	unit_long(errno, EACCES, "EACCES");
	buf_free(&out);
}

static void
test_timeout(void)
{
	struct buf out = BUF_INIT;
	struct proc_result res;
	double t = mono();

	unit_long(sh("echo early; exec sleep 30", "", 0, &out, 0.2, &res), 0,
	    "a slow command under a limit of 0.2 s");
	unit_long(res.timed_out, 1, "the limit was reached");
	unit_long(res.signo, SIGTERM, "it ended by SIGTERM");
	unit_str(buf_cstr(&out), "early\n", "what it wrote before");
	unit_ok(mono() - t < 10, "it did not run its 30 s");

	t = mono();
	unit_long(sh("trap '' TERM; sleep 30 & wait; exit 0", "", 0, &out,
	    0.2, &res), 0, "a command that ignores SIGTERM");
	unit_long(res.timed_out, 1, "the limit was reached");
	unit_ok(mono() - t < 10, "SIGKILL followed");

	unit_long(sh("exit 0", "", 0, &out, 5, &res), 0,
	    "a quick command under a limit");
	unit_long(res.timed_out, 0, "the limit was not reached");
	buf_free(&out);
}

static void
test_leftovers(void)
{
	struct buf out = BUF_INIT;
	struct proc_result res;
	long pid = 0;
	double t = mono();

	/* The background sleep holds the output open; it is killed. */
	unit_long(sh("sleep 30 & echo $!", "", 0, &out, 0, &res), 0,
	    "a command that leaves a process behind");
	unit_ok(mono() - t < 10, "its output ended without waiting for it");
	sscanf(buf_cstr(&out), "%ld", &pid);
	unit_ok(pid > 0 && gone(pid), "what it left behind is gone");
	buf_free(&out);
}

static int stop_signo;	/* the signal stop_on_signal is sent */
/* Where the command writes its pid: this test's own, as two suites may run. */
static char stop_pidfile[64];

/*
 * In a child: a run that stop_signo from elsewhere stops, once the
 * command has written its pid (a fixed delay could come first on a
 * loaded machine).
 */
static void
stop_on_signal(void)
{
	struct buf out = BUF_INIT;
	struct proc_result res;
	char cmd[256];
	int i;

	if (fork() == 0) {
		for (i = 0; i < 1000 && access(stop_pidfile, F_OK) != 0; i++)
			usleep(10000);
		usleep(100000);
		kill(getppid(), stop_signo);
		_exit(0);
	}
	snprintf(cmd, sizeof(cmd), "echo $$ >%s.new && mv %s.new %s; "
	    "exec sleep 30", stop_pidfile, stop_pidfile, stop_pidfile);
	if (sh(cmd, "", 0, &out, 0, &res) == PROC_CAUGHT &&
	    proc_caught() == stop_signo)
		proc_die();
	_exit(99);
}

static void
stop_by(int signo, const char *name)
{
	const char *err;
	long pid = 0;
	FILE *fp;
	double t = mono();
	int st;

	stop_signo = signo;
	snprintf(stop_pidfile, sizeof(stop_pidfile),
	    "/tmp/llmkit-unit-proc.%ld.pid", (long)getpid());
	unlink(stop_pidfile);
	st = unit_child(stop_on_signal, &err);
	unit_ok(mono() - t < 10, name);
	unit_long(st, 128 + signo, "and us, by the same signal");
	if ((fp = fopen(stop_pidfile, "r")) != NULL) {
		if (fscanf(fp, "%ld", &pid) != 1)
			pid = 0;
		fclose(fp);
	}
	unit_ok(pid > 0 && gone(pid), "the command is gone");
	unlink(stop_pidfile);
}

static void
test_stop(void)
{
	stop_by(SIGTERM, "SIGTERM ends the run at once");
	stop_by(SIGUSR1, "SIGUSR1 ends the run at once");
	stop_by(SIGALRM, "SIGALRM ends the run at once");
	stop_by(SIGPIPE, "SIGPIPE from another process ends the run at once");
	stop_by(SIGRTMIN + 1, "a realtime signal ends the run at once");
}

static void
test_max(void)
{
	struct buf out = BUF_INIT;
	struct proc_result res;
	char *argv[] = { (char *)"sh", (char *)"-c", NULL, NULL };
	double t;

	argv[2] = (char *)"head -c 100 /dev/zero";
	unit_long(proc_run(argv, "", 0, &out, 100, 0, &res), 0,
	    "100 bytes under a limit of 100");
	unit_long(res.too_long, 0, "are not too long");
	unit_long((long)out.len, 100, "and are all there");
	unit_long(res.status, 0, "status 0");

	buf_reset(&out);
	argv[2] = (char *)"head -c 101 /dev/zero";
	unit_long(proc_run(argv, "", 0, &out, 100, 0, &res), 0,
	    "101 bytes under a limit of 100");
	unit_long(res.too_long, 1, "are too long");

	buf_reset(&out);
	t = mono();
	argv[2] = (char *)"exec cat /dev/zero";
	unit_long(proc_run(argv, "", 0, &out, 65536, 0, &res), 0,
	    "an endless output");
	unit_long(res.too_long, 1, "is stopped");
	unit_ok(out.len <= 65537, "no more than the limit and a byte is kept");
	unit_ok(mono() - t < 10, "at once");

	buf_reset(&out);
	t = mono();
	argv[2] = (char *)"trap '' TERM PIPE; while :; do echo x; done "
	    "2>/dev/null";
	unit_long(proc_run(argv, "", 0, &out, 1000, 0, &res), 0,
	    "an endless output that ignores SIGTERM and SIGPIPE");
	unit_long(res.too_long, 1, "is stopped");
	unit_long(res.signo, SIGKILL, "by SIGKILL");
	unit_ok(mono() - t < 10, "a second later");
	buf_free(&out);
}

static void
test_xfsz(void)
{
	struct buf out = BUF_INIT;
	struct proc_result res;

	unit_long(sh("kill -XFSZ $$", "", 0, &out, 0, &res), 0,
	    "a command sent SIGXFSZ");
	unit_long(res.signo, SIGXFSZ, "dies of it: we ignore it, not the "
	    "commands");
	buf_free(&out);
}

/* Runs sh -c script keeping its standard error as err says. */
static int
sh_err(const char *script, struct buf *out, const struct proc_err *err,
    struct proc_result *res)
{
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)script, NULL };

	buf_reset(out);
	buf_reset(err->text);
	return proc_run_err(argv, "in", 2, out, 0, 0, err, res);
}

/* Reads what is in the pipe now (its writer closed). */
static void
drain(int fd, struct buf *b)
{
	char chunk[4096];
	ssize_t n;

	buf_reset(b);
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		buf_add(b, chunk, (size_t)n);
}

static void
test_err(void)
{
	struct buf out = BUF_INIT, text = BUF_INIT, copied = BUF_INIT;
	struct proc_err err = { &text, 0, -1 };
	struct proc_result res;
	int fds[2];

	if (pipe(fds) == -1)
		unit_bail("pipe");
	err.copy = fds[1];
	unit_long(sh_err("cat; echo err >&2; echo out", &out, &err, &res), 0,
	    "standard error kept");
	unit_mem(buf_cstr(&out), out.len, "inout\n", "standard output apart");
	unit_mem(buf_cstr(&text), text.len, "err\n", "standard error kept");
	unit_long(res.err_too_long, 0, "within no limit");
	close(fds[1]);
	drain(fds[0], &copied);
	close(fds[0]);
	unit_mem(buf_cstr(&copied), copied.len, "err\n", "and copied on");

	if (pipe(fds) == -1)
		unit_bail("pipe");
	err.copy = fds[1];
	err.max = 3;
	unit_long(sh_err("printf 12345 >&2; exit 1", &out, &err, &res), 0,
	    "standard error past its limit");
	unit_mem(buf_cstr(&text), text.len, "123", "the first 3 bytes kept");
	unit_long(res.err_too_long, 1, "err_too_long said");
	unit_long(res.status, 1, "the command not stopped for it");
	unit_long(res.too_long, 0, "nor its output");
	close(fds[1]);
	drain(fds[0], &copied);
	close(fds[0]);
	unit_mem(buf_cstr(&copied), copied.len, "12345", "all of it copied");

	/* both pipes far fuller than a pipe holds, at once */
	err.copy = -1;
	err.max = 0;
	unit_long(sh_err("head -c 300000 /dev/zero >&2 & "
	    "head -c 300000 /dev/zero; wait", &out, &err, &res), 0,
	    "300 KB on each of its outputs");
	unit_long((long)out.len, 300000, "all of the output");
	unit_long((long)text.len, 300000, "all of the standard error");
	buf_free(&out);
	buf_free(&text);
	buf_free(&copied);
}

/* Reads what fd has, waiting for some: bytes read, 0 at its end. */
static ssize_t
drain_some(int fd, struct buf *out)
{
	char b[4096];
	struct pollfd p;
	ssize_t n;

	p.fd = fd;
	p.events = POLLIN;
	if (poll(&p, 1, 5000) <= 0)
		return -1;
	while ((n = read(fd, b, sizeof(b))) < 0 && errno == EINTR)
		continue;
	if (n > 0)
		buf_add(out, b, (size_t)n);
	return n;
}

/* Reads fd to its end into out; -1 on a read error. */
static int
read_all(int fd, struct buf *out)
{
	ssize_t n;

	while ((n = drain_some(fd, out)) > 0 || (n < 0 && errno == EAGAIN))
		continue;
	return n == 0 ? 0 : -1;
}

/* Waits for the child to end, 5 s at the most. */
static int
reap(struct proc_child *c, struct proc_result *res)
{
	int i;

	for (i = 0; i < 500; i++) {
		if (proc_reaped(c, res))
			return 1;
		usleep(10000);
	}
	return 0;
}

static void
test_spawn(void)
{
	struct proc_child c;
	struct proc_result res;
	struct buf out = BUF_INIT, err = BUF_INIT;
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)"pwd; echo "
	    "\"$A:$LLMKIT_PROC_TEST\"; ps -o pgid= -p $$; echo $$; cat; "
	    "echo oops >&2; exit 5", NULL };
	char *env[] = { (char *)"A=1", (char *)"PATH=/usr/bin:/bin", NULL };
	char *missing[] = { (char *)"llmkit-no-such-command", NULL };
	long pgid = -1, pid = -2;

	unit_long(proc_spawn(argv, "/", env, &c), 0, "sh spawned in /");
	unit_ok(c.pid > 0 && c.in != -1 && c.out != -1 && c.err != -1,
	    "its pid and three pipes");
	unit_long(proc_write(c.in, "fed\n", 4), 4, "its input written");
	proc_close_in(&c);
	unit_long(read_all(c.out, &out), 0, "its output read to the end");
	unit_long(read_all(c.err, &err), 0, "its standard error too");
	unit_ok(reap(&c, &res), "it has ended");
	unit_long(res.status, 5, "exit status 5");
	unit_long(c.pid, -1, "reaped: no pid");
	{
		char dir[8], who[16];

		sscanf(buf_cstr(&out), "%7s %15s %ld %ld", dir, who, &pgid,
		    &pid);
		unit_str(dir, "/", "it ran in the directory given");
		unit_str(who, "1:", "with the environment given, ours not");
	}
	unit_long(pgid, pid, "it leads a process group");
	unit_ok(strstr(buf_cstr(&out), "fed\n") != NULL,
	    "it read what was written");
	unit_str(buf_cstr(&err), "oops\n", "its standard error apart");
	proc_close(&c);

	errno = 0;
	unit_long(proc_spawn(missing, NULL, NULL, &c), PROC_NOEXEC,
	    "a command not found is not spawned");
	unit_long(errno, ENOENT, "errno says why");
	unit_long(c.pid, -1, "no pid");
	errno = 0;
	unit_long(proc_spawn(argv, "/nonexistent/dir", NULL, &c), PROC_NOCWD,
	    "a directory that cannot be entered");
	unit_long(errno, ENOENT, "errno says why");

	/* a child that ignores its input's end: SIGTERM to its group */
	{
		char *stubborn[] = { (char *)"sh", (char *)"-c",
		    (char *)"trap '' TERM; sleep 30 & echo $!; wait", NULL };
		long child = 0;

		buf_reset(&out);
		unit_long(proc_spawn(stubborn, NULL, NULL, &c), 0,
		    "a stubborn child");
		proc_close_in(&c);
		while (strchr(buf_cstr(&out), '\n') == NULL &&
		    drain_some(c.out, &out) > 0)
			continue;
		sscanf(buf_cstr(&out), "%ld", &child);
		unit_ok(child > 0, "its own child's pid");
		unit_long(proc_reaped(&c, &res), 0, "it runs on");
		proc_signal(&c, SIGTERM);
		usleep(100000);
		unit_long(proc_reaped(&c, &res), 0, "it ignores SIGTERM");
		proc_signal(&c, SIGKILL);
		unit_ok(reap(&c, &res), "SIGKILL ends it");
		unit_long(res.signo, SIGKILL, "killed by SIGKILL");
		unit_ok(gone(child), "and the rest of its group");
		proc_close(&c);
	}
	buf_free(&out);
	buf_free(&err);
}

/* proc_end's drain: what the children write, appended to one buffer. */
static void
gather_all(void *arg, size_t i, int fd)
{
	struct buf *b = arg;
	char chunk[256];
	ssize_t n;

	if ((n = read(fd, chunk, sizeof(chunk))) > 0) {
		buf_printf(b, "%zu:", i);
		buf_add(b, chunk, (size_t)n);
	}
}

static void
test_end(void)
{
	char *polite[] = { (char *)"sh", (char *)"-c",
	    (char *)"cat >/dev/null; echo bye; exit 4", NULL };
	char *deaf[] = { (char *)"sh", (char *)"-c",
	    (char *)"exec >/dev/null 2>&1; exec sleep 30", NULL };
	char *stubborn[] = { (char *)"sh", (char *)"-c",
	    (char *)"exec >/dev/null 2>&1; trap '' TERM; sleep 30 & wait; "
	    "sleep 30", NULL };
	struct proc_child c[3], *set[3] = { &c[0], &c[1], &c[2] };
	struct proc_result res[3];
	struct buf said = BUF_INIT;
	double t;

	unit_long(proc_spawn(polite, NULL, NULL, &c[0]), 0, "a child that "
	    "ends at the end of its input");
	unit_long(proc_spawn(deaf, NULL, NULL, &c[1]), 0, "one that ends on "
	    "SIGTERM");
	unit_long(proc_spawn(stubborn, NULL, NULL, &c[2]), 0, "one that "
	    "ignores SIGTERM");
	t = mono();
	proc_end(set, 3, 1, 0.3, gather_all, &said, res);
	t = mono() - t;
	unit_long(res[0].status, 4, "the first ended on its own, status 4");
	unit_long(res[1].signo, SIGTERM, "the second by SIGTERM");
	unit_long(res[2].signo, SIGKILL, "the third by SIGKILL");
	unit_ok(c[0].pid == -1 && c[1].pid == -1 && c[2].pid == -1,
	    "all reaped");
	unit_ok(t >= 0.6, "after two graces");
	unit_ok(c[0].in == -1, "their input closed");
	unit_str(buf_cstr(&said), "0:bye\n", "what they said drained");
	proc_close(&c[0]);
	proc_close(&c[1]);
	proc_close(&c[2]);
	buf_free(&said);
}

/* In a child: a write of ours to a pipe whose reader has gone. */
static void
write_closed(void)
{
	int p[2];

	if (pipe(p) == -1)
		_exit(98);
	close(p[0]);
	if (write(p[1], "x", 1) == -1 && errno == EPIPE)
		_exit(7);
	_exit(99);
}

static void
test_closed_pipe(void)
{
	struct buf out = BUF_INIT;
	struct proc_result res;
	const char *err;

	unit_long(unit_child(write_closed, &err), 7, "a write of ours to a "
	    "pipe whose reader has gone fails with EPIPE, and we live");
	unit_long(sh("kill -PIPE $$", "", 0, &out, 0, &res), 0,
	    "a command sent SIGPIPE");
	unit_long(res.signo, SIGPIPE, "dies of it: its action is the default");
	buf_free(&out);
}

static void
test_sleep(void)
{
	double t = mono();

	unit_long(proc_sleep(0.2), 0, "a wait of 0.2 s");
	unit_ok(mono() - t >= 0.2, "lasts at least 0.2 s");
}

int
main(void)
{
	setenv("LLMKIT_PROC_TEST", "yes", 1);
	if (proc_ignore_xfsz() == -1 || proc_init() == -1)
		unit_bail("proc_init");
	test_plain();
	test_large();
	test_noexec();
	test_timeout();
	test_leftovers();
	test_max();
	test_xfsz();
	test_closed_pipe();
	test_err();
	test_sleep();
	test_stop();
	test_spawn();
	test_end();
	return unit_done();
}
