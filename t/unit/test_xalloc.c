/* Unit tests of lib/xalloc: contents, zeroing, growth, out-of-memory exit. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/xalloc.h"
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

/* Allocations that cannot be made, and what each of them is. */
static const struct {
	void		 (*fn)(void);
	const char	*what;
} ooms[] = {
	{ array_overflow,
	    "xreallocarray whose product overflows exits with status 3" },
	{ memdup_overflow, "xmemdup of SIZE_MAX bytes exits with status 3" },
	{ huge_malloc, "xmalloc that fails exits with status 3" },
	{ huge_calloc, "xcalloc that fails exits with status 3" },
};

static void
test_oom(void)
{
	const char *err;
	size_t i;

	for (i = 0; i < sizeof(ooms) / sizeof(ooms[0]); i++) {
		unit_long(unit_child(ooms[i].fn, &err), DIAG_TROUBLE,
		    ooms[i].what);
		unit_str(err, "test_xalloc: out of memory\n",
		    "and says it is out of memory");
	}
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
