/* Unit tests of lib/xalloc: contents, zeroing, growth, out-of-memory exit. */
#include <sys/wait.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "xalloc.h"
#include "unit.h"

/* Lets malloc(SIZE_MAX) fail with NULL under ASan, as it does elsewhere. */
const char *__asan_default_options(void);
const char *
__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

static void
test_malloc(void)
{
	char *p, *q;
	int *z;
	size_t i;
	int zero = 1;

	p = xmalloc(0);
	unit_ok(p != NULL, "xmalloc(0) returns memory");
	free(p);
	p = xmalloc(100);
	memset(p, 'x', 100);
	unit_ok(p[0] == 'x' && p[99] == 'x', "xmalloc(100) is writable");
	q = xrealloc(p, 100000);
	unit_ok(q[0] == 'x' && q[99] == 'x', "xrealloc keeps the contents");
	q[99999] = 'y';
	p = xrealloc(q, 0);
	unit_ok(p != NULL, "xrealloc to 0 bytes still returns memory");
	free(p);
	p = xrealloc(NULL, 10);
	unit_ok(p != NULL, "xrealloc(NULL, n) allocates");
	free(p);

	z = xcalloc(1000, sizeof(*z));
	for (i = 0; i < 1000; i++)
		if (z[i] != 0)
			zero = 0;
	unit_ok(zero, "xcalloc zeroes its memory");
	free(z);
	p = xcalloc(0, 0);
	unit_ok(p != NULL, "xcalloc(0, 0) returns memory");
	free(p);
}

static void
test_reallocarray(void)
{
	long *a = NULL;
	size_t n, i;
	int ok = 1;

	for (n = 1; n <= 4096; n *= 2) {
		a = xreallocarray(a, n, sizeof(*a));
		for (i = n / 2; i < n; i++)
			a[i] = (long)(i * i);
	}
	for (i = 0; i < 4096; i++)
		if (a[i] != (long)(i * i))
			ok = 0;
	unit_ok(ok, "xreallocarray grows an array and keeps its elements");
	a = xreallocarray(a, 3, sizeof(*a));
	unit_ok(a[0] == 0 && a[1] == 1 && a[2] == 4,
	    "xreallocarray shrinks it and keeps the first elements");
	free(a);
	a = xreallocarray(NULL, 0, sizeof(*a));
	unit_ok(a != NULL, "xreallocarray of 0 elements returns memory");
	free(a);
	a = xreallocarray(NULL, SIZE_MAX, 0);
	unit_ok(a != NULL, "xreallocarray with a size of 0 does not overflow");
	free(a);
}

static void
test_dup(void)
{
	char *p;
	const char *s = "hello, world";

	p = xstrdup(s);
	unit_ok(p != s, "xstrdup makes a copy");
	unit_str(p, "hello, world", "xstrdup copies the string");
	free(p);
	p = xstrdup("");
	unit_ok(p != NULL && p[0] == '\0', "xstrdup(\"\") is \"\"");
	free(p);

	p = xmemdup("a\0b\0c", 5);
	unit_ok(memcmp(p, "a\0b\0c", 5) == 0,
	    "xmemdup copies bytes past a NUL");
	unit_ok(p[5] == '\0', "xmemdup adds a terminating NUL");
	free(p);
	p = xmemdup("abcdef", 3);
	unit_str(p, "abc", "xmemdup copies n bytes and no more");
	free(p);
	p = xmemdup("x", 0);
	unit_ok(p != NULL && p[0] == '\0', "xmemdup of 0 bytes is \"\"");
	free(p);
}

/*
 * Removes the lines a sanitizer or valgrind adds ("==PID==..."), which
 * speak of the deliberately huge allocation, not of our output.
 */
static void
drop_tool_lines(char *s)
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

/* Runs fn in a child with stderr in a file; returns the exit status. */
static int
child(void (*fn)(void), char *err, size_t errsize)
{
	char path[] = "/tmp/llmkit-unit-XXXXXX";
	int fd, status;
	ssize_t n;
	pid_t pid;

	fflush(stdout);
	if ((fd = mkstemp(path)) < 0)
		return -1;
	unlink(path);
	if ((pid = fork()) == 0) {
		dup2(fd, 2);
		fn();
		_exit(0);
	}
	waitpid(pid, &status, 0);
	n = pread(fd, err, errsize - 1, 0);
	err[n > 0 ? n : 0] = '\0';
	close(fd);
	drop_tool_lines(err);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void
array_overflow(void)
{
	xreallocarray(NULL, SIZE_MAX / 2 + 1, 2);
}

static void
memdup_overflow(void)
{
	xmemdup("", SIZE_MAX);
}

static void
huge_malloc(void)
{
	xmalloc(SIZE_MAX / 2);
}

static void
huge_calloc(void)
{
	xcalloc(SIZE_MAX / 4, 8);
}

static void
test_oom(void)
{
	char err[256];

	unit_long(child(array_overflow, err, sizeof(err)), DIAG_TROUBLE,
	    "xreallocarray whose product overflows exits with status 3");
	unit_str(err, "test_xalloc: out of memory\n",
	    "and says it is out of memory");
	unit_long(child(memdup_overflow, err, sizeof(err)), DIAG_TROUBLE,
	    "xmemdup of SIZE_MAX bytes exits with status 3");
	unit_str(err, "test_xalloc: out of memory\n",
	    "and says it is out of memory");
	unit_long(child(huge_malloc, err, sizeof(err)), DIAG_TROUBLE,
	    "xmalloc that fails exits with status 3");
	unit_str(err, "test_xalloc: out of memory\n",
	    "and says it is out of memory");
	unit_long(child(huge_calloc, err, sizeof(err)), DIAG_TROUBLE,
	    "xcalloc that fails exits with status 3");
	unit_str(err, "test_xalloc: out of memory\n",
	    "and says it is out of memory");
}

int
main(int argc, char *argv[])
{
	diag_setprogname(argv[0]);
	test_malloc();
	test_reallocarray();
	test_dup();
	test_oom();
	return unit_done();
}
