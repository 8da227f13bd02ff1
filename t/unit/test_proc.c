/*
 * Unit tests of lib/proc: input given and output gathered whole (also
 * when both are far larger than a pipe holds), exit statuses and signals,
 * a command that cannot start, the time limit, what a command leaves
 * behind in its group, and a stop signal sent on to the command.
 */
#include <sys/types.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "proc.h"
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
	return proc_run(argv, in, n, out, timeout, res);
}

static void
test_plain(void)
{
	struct buf out = BUF_INIT;
	struct proc_result res;
	char *argv[] = { (char *)"printf", (char *)"a%sb", (char *)"\t", NULL };

	unit_long(proc_run(argv, NULL, 0, &out, 0, &res), 0, "printf runs");
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
	unit_long(proc_run(missing, "x", 1, &out, 0, &res), PROC_NOEXEC,
	    "a missing command cannot start");
	unit_long(errno, ENOENT, "ENOENT");
	errno = 0;
	unit_long(proc_run(dir, "x", 1, &out, 0, &res), PROC_NOEXEC,
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

/* In a child: a run that a SIGTERM from elsewhere stops. */
static void
stop_on_signal(void)
{
	struct buf out = BUF_INIT;
	struct proc_result res;

	if (fork() == 0) {
		usleep(300000);
		kill(getppid(), SIGTERM);
		_exit(0);
	}
	if (sh("echo $$ >/tmp/llmkit-unit-proc.pid; exec sleep 30", "", 0,
	    &out, 0, &res) == PROC_CAUGHT && proc_caught() == SIGTERM)
		proc_die();
	_exit(99);
}

static void
test_stop(void)
{
	const char *err;
	long pid = 0;
	FILE *fp;
	double t = mono();
	int st;

	unlink("/tmp/llmkit-unit-proc.pid");
	st = unit_child(stop_on_signal, &err);
	unit_ok(mono() - t < 10, "a stop signal ends the run at once");
	unit_long(st, 128 + SIGTERM, "and us, by the same signal");
	if ((fp = fopen("/tmp/llmkit-unit-proc.pid", "r")) != NULL) {
		if (fscanf(fp, "%ld", &pid) != 1)
			pid = 0;
		fclose(fp);
	}
	unit_ok(pid > 0 && gone(pid), "the command is gone");
	unlink("/tmp/llmkit-unit-proc.pid");
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
	if (proc_init() == -1)
		unit_bail("proc_init");
	test_plain();
	test_large();
	test_noexec();
	test_timeout();
	test_leftovers();
	test_sleep();
	test_stop();
	return unit_done();
}
