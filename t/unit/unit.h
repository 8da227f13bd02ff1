/*
 * unit: a minimal TAP harness for the C unit tests. Each check prints
 * "ok N - what" or "not ok N - what" with the values that differed;
 * unit_done() prints the plan and returns the exit status.
 */
#ifndef LLMKIT_UNIT_H
#define LLMKIT_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_n, unit_failed;

static inline void
unit_ok(int cond, const char *what)
{
	unit_n++;
	if (!cond)
		unit_failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", unit_n, what);
}

/* Compares n bytes of got with the C string want, showing both on failure. */
static inline void
unit_mem(const char *got, size_t n, const char *want, const char *what)
{
	int same = n == strlen(want) && memcmp(got, want, n) == 0;

	unit_ok(same, what);
	if (!same)
		printf("#   got:  \"%.*s\" (%zu bytes)\n#   want: \"%s\" (%zu bytes)\n",
		    (int)n, got, n, want, strlen(want));
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

static inline int
unit_done(void)
{
	printf("1..%d\n", unit_n);
	return unit_failed != 0;
}

#endif
