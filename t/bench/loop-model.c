/*
 * loop-model: the model of t/bench/llm-loop.sh, a stand-in that answers
 * at once, so that what is timed is the loop around it. Unlike
 * t/fake-model it keeps no count of its calls (a sh script and its
 * processes would cost more than the loop it measures): the iteration it
 * answers is found in its prompt.
 *
 *	loop-model DIR
 *
 * It reads its whole prompt (standard input). A prompt with a line that
 * begins "Summarise the thread above" (llm-loop's request for a summary,
 * past --max-prompt) is answered with DIR/summary. Any other is the
 * prompt of iteration N, N being one more than the largest
 * iteration="K" after the first line "<thread>" (the serialized thread,
 * which holds the last iteration's events whatever was summarised): it is
 * answered with DIR/reply.N when that file exists, else DIR/reply. Each
 * call also writes to DIR/last a line "KB BYTES": KB the peak resident
 * memory (VmHWM) of its parent, the loop that runs it, as /proc tells
 * it, which is the loop's own memory without that of its servers and
 * models (a ru_maxrss of its children would take them in), and BYTES
 * the size of the prompt. Exits 0, or 3 (with a message) when it cannot
 * read or write what it must.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *progname = "loop-model";

static void __attribute__((noreturn))
die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", progname, what, strerror(errno));
	exit(3);
}

/* All of fd, into *buf (NUL ended); its length. */
static size_t
slurp(int fd, char **buf, const char *what)
{
	size_t len = 0, cap = 65536;
	ssize_t r;
	char *p;

	if ((p = malloc(cap)) == NULL)
		die("memory");
	for (;;) {
		if (cap - len < 4096 && (p = realloc(p, cap *= 2)) == NULL)
			die("memory");
		if ((r = read(fd, p + len, cap - len - 1)) == 0)
			break;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			die(what);
		}
		len += (size_t)r;
	}
	p[len] = '\0';
	*buf = p;
	return len;
}

static void
write_all(int fd, const char *s, size_t n, const char *what)
{
	ssize_t r;

	while (n > 0) {
		if ((r = write(fd, s, n)) < 0) {
			if (errno == EINTR)
				continue;
			die(what);
		}
		s += r;
		n -= (size_t)r;
	}
}

/* Copies the file path to standard output. */
static void
answer(const char *path)
{
	char *s;
	size_t n;
	int fd;

	if ((fd = open(path, O_RDONLY)) < 0)
		die(path);
	n = slurp(fd, &s, path);
	close(fd);
	write_all(STDOUT_FILENO, s, n, "standard output");
	free(s);
}

/*
 * The parent's VmHWM line, "VmHWM:\t  1234 kB", and the prompt's size as
 * "1234 SIZE\n" in DIR/last.
 */
static void
note_peak(const char *dir, size_t size)
{
	char path[64], out[4096], *s, *p;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/status", (long)getppid());
	if ((fd = open(path, O_RDONLY)) < 0)
		die(path);
	slurp(fd, &s, path);
	close(fd);
	if ((p = strstr(s, "\nVmHWM:")) == NULL) {
		errno = EINVAL;
		die("no VmHWM in /proc/PID/status");
	}
	p += 7;
	snprintf(out, sizeof(out), "%s/last", dir);
	if ((fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0)
		die(out);
	snprintf(path, sizeof(path), "%ld %zu\n", strtol(p, NULL, 10), size);
	write_all(fd, path, strlen(path), out);
	close(fd);
	free(s);
}

int
main(int argc, char *argv[])
{
	char path[4096], *prompt, *p;
	long it, last = -1;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", progname);
		return 2;
	}
	note_peak(argv[1], slurp(STDIN_FILENO, &prompt, "standard input"));
	if (strncmp(prompt, "Summarise the thread above", 26) == 0 ||
	    strstr(prompt, "\nSummarise the thread above") != NULL) {
		snprintf(path, sizeof(path), "%s/summary", argv[1]);
		answer(path);
		free(prompt);
		return 0;
	}
	p = strncmp(prompt, "<thread>\n", 9) == 0 ? prompt :
	    strstr(prompt, "\n<thread>\n");
	while (p != NULL && (p = strstr(p, " iteration=\"")) != NULL) {
		p += 12;
		if ((it = strtol(p, &p, 10)) > last)
			last = it;
	}
	snprintf(path, sizeof(path), "%s/reply.%ld", argv[1], last + 1);
	if (access(path, F_OK) != 0)
		snprintf(path, sizeof(path), "%s/reply", argv[1]);
	answer(path);
	free(prompt);
	return 0;
}
