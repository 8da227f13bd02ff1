/*
 * measure: runs a command several times and prints its median and fastest
 * wall-clock time, its median CPU time (user and system, all threads) and
 * its peak resident memory on one line of key=value pairs, for t/bench/run
 * to read:
 *
 *	measure [-n RUNS] [-i INPUT] [-x STATUS] -- CMD [ARG...]
 *
 * Each run has INPUT (default /dev/null) on stdin and /dev/null on stdout;
 * stderr is left alone. A run that does not exit STATUS (0 by default; 1
 * for a validator timed over input it must reject in part) ends measure
 * with status 1: the timing of a failing command means nothing.
 */
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long number(const char *, long, long, const char *);
static void usage(void) __attribute__((noreturn));

static const char *progname = "measure";

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorts the n values of v and returns their median. */
static double
median_of(double *v, long n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * One run of argv with in on stdin. Returns the wall time in seconds and
 * sets *cpu (seconds) and *rss_kb, or returns -1 (reported) when the
 * command could not run or did not exit with status want.
 */
static double
run_once(char *const argv[], int in, int out, int want, double *cpu,
    long *rss_kb)
{
	struct rusage ru;
	double t0, t1;
	pid_t pid;
	int status;

	if (lseek(in, 0, SEEK_SET) == -1 && errno != ESPIPE) {
		fprintf(stderr, "%s: input: %s\n", progname, strerror(errno));
		return -1;
	}
	t0 = now();
	if ((pid = fork()) == -1) {
		fprintf(stderr, "%s: fork: %s\n", progname, strerror(errno));
		return -1;
	}
	if (pid == 0) {
		if (dup2(in, STDIN_FILENO) == -1 ||
		    dup2(out, STDOUT_FILENO) == -1)
			_exit(126);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s: %s\n", progname, argv[0],
		    strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) == -1)
		if (errno != EINTR) {
			fprintf(stderr, "%s: wait4: %s\n", progname,
			    strerror(errno));
			return -1;
		}
	t1 = now();
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "%s: %s: killed by signal %d\n", progname,
		    argv[0], WTERMSIG(status));
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != want) {
		fprintf(stderr, "%s: %s: exit status %d\n", progname, argv[0],
		    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return -1;
	}
	*cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	    (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	*rss_kb = ru.ru_maxrss;		/* kilobytes on Linux and the BSDs */
	return t1 - t0;
}

int
main(int argc, char *argv[])
{
	const char *input = "/dev/null";
	double *t, *c, median, cpu;
	long runs = 5, want = 0, i, rss, peak = 0;
	int ch, in, out;

	while ((ch = getopt(argc, argv, "+i:n:x:")) != -1) {
		switch (ch) {
		case 'i':
			input = optarg;
			break;
		case 'n':
			runs = number(optarg, 1, 100000, "-n must be a count");
			break;
		case 'x':
			want = number(optarg, 0, 255,
			    "-x must be an exit status");
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();

	if ((in = open(input, O_RDONLY)) == -1) {
		fprintf(stderr, "%s: %s: %s\n", progname, input,
		    strerror(errno));
		return 2;
	}
	if ((out = open("/dev/null", O_WRONLY)) == -1) {
		fprintf(stderr, "%s: /dev/null: %s\n", progname,
		    strerror(errno));
		return 2;
	}
	t = calloc((size_t)runs, sizeof(*t));
	c = calloc((size_t)runs, sizeof(*c));
	if (t == NULL || c == NULL) {
		fprintf(stderr, "%s: %s\n", progname, strerror(errno));
		return 2;
	}
	for (i = 0; i < runs; i++) {
		if ((t[i] = run_once(argv, in, out, (int)want, &c[i],
		    &rss)) < 0)
			return 1;
		if (rss > peak)
			peak = rss;
	}
	median = median_of(t, runs);
	cpu = median_of(c, runs);
	printf("runs=%ld median=%.6f min=%.6f cpu=%.6f maxrss_kb=%ld\n", runs,
	    median, t[0], cpu, peak);
	free(t);
	free(c);
	close(in);
	close(out);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: <stdout>: %s\n", progname,
		    strerror(errno));
		return 2;
	}
	return 0;
}

/*
 * The whole number in s, from lo to hi; otherwise "WHAT from LO to HI,
 * not "S"" and the usage, status 2.
 */
static long
number(const char *s, long lo, long hi, const char *what)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno != 0 || *s == '\0' || *end != '\0' || n < lo || n > hi) {
		fprintf(stderr, "%s: %s from %ld to %ld, not \"%s\"\n",
		    progname, what, lo, hi, s);
		usage();
	}
	return n;
}

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-n runs] [-i input] [-x status] -- "
	    "command [argument ...]\n", progname);
	exit(2);
}
