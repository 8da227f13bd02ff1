/*
 * xalloc: the only lib/ functions allowed to end the process (out of
 * memory). It sits below diag, which allocates: diag_setprogname hands
 * it the function that says so as the program's other errors are said.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

static void	(*say_oom)(void);

/* fn says "out of memory" when memory runs out; NULL: xalloc says it. */
void
xalloc_setoom(void (*fn)(void))
{
	say_oom = fn;
}

/*
 * Out of memory: says so and ends the process with status 3 (diag's
 * DIAG_TROUBLE, which this floor below diag cannot name).
 */
void
xalloc_die(void)
{
	if (say_oom != NULL)
		say_oom();
	else
		fputs("llmkit: out of memory\n", stderr);
	exit(3);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		xalloc_die();
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (p == NULL)
		xalloc_die();
	return p;
}

void *
xrealloc(void *old, size_t n)
{
	void *p = realloc(old, n ? n : 1);

	if (p == NULL)
		xalloc_die();
	return p;
}

void *
xreallocarray(void *old, size_t nmemb, size_t size)
{
	if (size != 0 && nmemb > SIZE_MAX / size)
		xalloc_die();
	return xrealloc(old, nmemb * size);
}

char *
xmemdup(const void *s, size_t n)
{
	char *p;

	if (n == SIZE_MAX)
		xalloc_die();
	p = xmalloc(n + 1);
	if (n > 0)	/* s may be NULL when n is 0 */
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xstrdup(const char *s)
{
	return xmemdup(s, strlen(s));
}
