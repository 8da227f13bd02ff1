/*
 * unit: a minimal TAP harness for the C unit tests. Each check prints
 * "ok N - what" or "not ok N - what" with the values that differed;
 * unit_done() prints the plan and returns the exit status. Below the
 * checks are the helpers several tests share: labels built with printf,
 * stderr captured into a string, a function run in a child process, and
 * temporary files. A helper that cannot do its work bails out (a TAP
 * "Bail out!" line, exit status 3): the test could not be run.
 */
#ifndef LLMKIT_UNIT_H
#define LLMKIT_UNIT_H

#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The name unit_tmpfile() gives a temporary file, before mkstemp. */
#define UNIT_TMPNAME	"/tmp/llmkit-unit-XXXXXX"

static int unit_n, unit_failed;

/* The text of the last unit_fmt() and of the last capture of stderr. */
static char	*unit_label, *unit_captured;
static size_t	 unit_label_size, unit_captured_size;

/* Where stderr is while it is captured, and where it was before. */
static int	 unit_capture_fd = -1, unit_saved_stderr = -1;

static inline void unit_bail(const char *) __attribute__((noreturn));

static inline void
unit_bail(const char *what)
{
	printf("Bail out! %s: %s\n", what, strerror(errno));
	exit(3);
}

static inline void
unit_ok(int cond, const char *what)
{
	unit_n++;
	if (!cond)
		unit_failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", unit_n, what);
}

/*
 * Shows n bytes of s from byte from on, a few hundred at the most, on a
 * TAP comment line: quotes, backslashes and control characters escaped.
 */
static inline void
unit_show(const char *label, const char *s, size_t n, size_t from)
{
	size_t i, end = n - from > 240 ? from + 240 : n;
	unsigned char c;

	printf("#   %s %s\"", label, from > 0 ? "..." : "");
	for (i = from; i < end; i++) {
		c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c == '\n')
			printf("\\n");
		else if (c < 0x20 || c == 0x7F)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	printf("\"%s (%zu bytes)\n", end < n ? "..." : "", n);
}

/*
 * Compares gn bytes of got with wn bytes of want; either may hold NULs.
 * On failure, shows both from a little before the first difference.
 */
static inline void
unit_bytes(const char *got, size_t gn, const char *want, size_t wn,
    const char *what)
{
	size_t at = 0;

	if (got == NULL)
		got = "";
	while (at < gn && at < wn && got[at] == want[at])
		at++;
	unit_ok(gn == wn && at == wn, what);
	if (gn == wn && at == wn)
		return;
	printf("#   the first difference is at byte %zu\n", at);
	at = at > 60 ? at - 60 : 0;
	unit_show("got: ", got, gn, at);
	unit_show("want:", want, wn, at);
}

/* Compares n bytes of got with the C string want, showing both on failure. */
static inline void
unit_mem(const char *got, size_t n, const char *want, const char *what)
{
	unit_bytes(got, n, want, strlen(want), what);
}

static inline void
unit_str(const char *got, const char *want, const char *what)
{
	unit_mem(got, strlen(got), want, what);
}

static inline void
unit_long(long got, long want, const char *what)
{
	unit_ok(got == want, what);
	if (got != want)
		printf("#   got: %ld, want: %ld\n", got, want);
}

/* Makes room for n bytes in *p, of *size bytes now, or bails out. */
static inline void
unit_room(char **p, size_t *size, size_t n)
{
	size_t want = *size != 0 ? *size : 256;
	char *q;

	if (n <= *size)
		return;
	while (want < n)
		want *= 2;
	if ((q = realloc(*p, want)) == NULL)
		unit_bail("realloc");
	*p = q;
	*size = want;
}

/*
 * The whole of the file path, its length in *n, NUL-terminated and
 * malloc'd; bails out when it cannot be read.
 */
static inline char *
unit_slurp(const char *path, size_t *n)
{
	char *s = NULL;
	size_t size = 0, len = 0, k;
	FILE *f;

	if ((f = fopen(path, "rb")) == NULL)
		unit_bail(path);
	do {
		unit_room(&s, &size, len + 8192 + 1);
		len += k = fread(s + len, 1, 8192, f);
	} while (k > 0);
	if (ferror(f))
		unit_bail(path);
	fclose(f);
	s[len] = '\0';
	*n = len;
	return s;
}

/* A test fixture: unit_slurp with the file's last newline left out. */
static inline char *
unit_fixture(const char *path, size_t *n)
{
	char *s = unit_slurp(path, n);

	if (*n > 0 && s[*n - 1] == '\n')
		s[--*n] = '\0';
	return s;
}

/*
 * A label for one check, made with printf: unit_fmt("%s: status", what).
 * It lasts until the next call, which is all a check needs of it.
 */
static inline const char *unit_fmt(const char *, ...)
    __attribute__((format(printf, 1, 2)));

static inline const char *
unit_fmt(const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(unit_label, unit_label_size, fmt, ap);
		va_end(ap);
		if (n < 0)
			unit_bail("vsnprintf");
		if ((size_t)n < unit_label_size)
			return unit_label;
		unit_room(&unit_label, &unit_label_size, (size_t)n + 1);
	}
}

/* Frees the buffers of unit_fmt() and of the captures. */
static inline void
unit_free(void)
{
	free(unit_label);
	free(unit_captured);
	unit_label = unit_captured = NULL;
	unit_label_size = unit_captured_size = 0;
}

/* A new temporary file, open for reading and writing, already unlinked. */
static inline int
unit_tmpfd(void)
{
	char path[] = UNIT_TMPNAME;
	int fd;

	if ((fd = mkstemp(path)) == -1)
		unit_bail("mkstemp");
	unlink(path);
	return fd;
}

/*
 * Writes n bytes of data to a new temporary file whose name goes to path
 * (sizeof(UNIT_TMPNAME) bytes). The caller unlinks it.
 */
static inline void
unit_tmpfile(char *path, const void *data, size_t n)
{
	int fd;

	memcpy(path, UNIT_TMPNAME, sizeof(UNIT_TMPNAME));
	if ((fd = mkstemp(path)) == -1)
		unit_bail("mkstemp");
	if (write(fd, data, n) != (ssize_t)n || close(fd) == -1)
		unit_bail(path);
}

/* Sends stderr to a temporary file until unit_capture_end(). */
static inline void
unit_capture_begin(void)
{
	fflush(stderr);
	unit_capture_fd = unit_tmpfd();
	if ((unit_saved_stderr = dup(STDERR_FILENO)) == -1 ||
	    dup2(unit_capture_fd, STDERR_FILENO) == -1)
		unit_bail("capturing stderr");
}

/*
 * Restores stderr; returns all that was written to it meanwhile, as a
 * string that lasts until the next capture.
 */
static inline const char *
unit_capture_end(void)
{
	size_t len = 0;
	ssize_t n;

	fflush(stderr);
	if (dup2(unit_saved_stderr, STDERR_FILENO) == -1)
		unit_bail("restoring stderr");
	close(unit_saved_stderr);
	for (;;) {
		unit_room(&unit_captured, &unit_captured_size, len + 4096);
		n = pread(unit_capture_fd, unit_captured + len,
		    unit_captured_size - len - 1, (off_t)len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			unit_bail("reading what went to stderr");
		if (n == 0)
			break;
		len += (size_t)n;
	}
	unit_captured[len] = '\0';
	close(unit_capture_fd);
	unit_capture_fd = unit_saved_stderr = -1;
	return unit_captured;
}

/*
 * Removes from s the lines valgrind and the sanitizers add ("==PID==..."):
 * they speak of what a child did on purpose, not of its output.
 */
static inline void
unit_drop_tool_lines(char *s)
{
	char *r = s, *w = s, *nl;
	size_t len;

	while (*r != '\0') {
		nl = strchr(r, '\n');
		len = nl != NULL ? (size_t)(nl - r) + 1 : strlen(r);
		if (strncmp(r, "==", 2) != 0) {
			memmove(w, r, len);
			w += len;
		}
		r += len;
	}
	*w = '\0';
}

/*
 * Runs fn in a child process, for what ends a process (an exit on out of
 * memory): returns the child's exit status (0 when fn returns, 128 + N
 * when signal N kills it) and points *err at what it wrote to stderr,
 * the lines of valgrind and the sanitizers left out, until the next
 * capture.
 */
static inline int
unit_child(void (*fn)(void), const char **err)
{
	int status;
	pid_t pid;

	fflush(stdout);
	unit_capture_begin();
	if ((pid = fork()) == -1)
		unit_bail("fork");
	if (pid == 0) {
		unit_free();	/* nothing of ours for a leak checker to see */
		fn();
		_exit(0);
	}
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR)
			unit_bail("waitpid");
	unit_capture_end();
	unit_drop_tool_lines(unit_captured);
	*err = unit_captured;
	return WIFEXITED(status) ? WEXITSTATUS(status) :
	    128 + WTERMSIG(status);
}

static inline int
unit_done(void)
{
	unit_free();
	printf("1..%d\n", unit_n);
	return unit_failed != 0;
}

#endif
