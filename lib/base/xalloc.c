/* xalloc: the only lib/ functions allowed to end the process (out of memory). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/xalloc.h"

/* Out of memory: says so and ends the process with status 3. */
void
xalloc_die(void)
{
	diag_warnx("out of memory");
	exit(DIAG_TROUBLE);
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
