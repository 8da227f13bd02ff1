/* num: numbers given on the command line. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/num.h"

/*
 * A size in bytes: decimal digits, then K, M or G for powers of 1024.
 * Returns 0 for anything else, for 0, and for a size beyond SIZE_MAX.
 */
size_t
num_size(const char *arg)
{
	unsigned long long v;
	char *end;
	int shift;

	if (*arg < '0' || *arg > '9')
		return 0;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno != 0)
		return 0;
	shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
	if (shift != 0)
		end++;
	if (*end != '\0' || v == 0 || v > (SIZE_MAX >> shift))
		return 0;
	return (size_t)v << shift;
}

/*
 * A whole number in [min, max], as strtonum(3) reads it but decimal
 * digits only: no sign, no white space. Returns it with *errstr NULL, or
 * 0 with *errstr "invalid", "too small" or "too large".
 */
long long
num_whole(const char *arg, long long min, long long max, const char **errstr)
{
	unsigned long long v;
	char *end;

	*errstr = "invalid";
	if (*arg < '0' || *arg > '9')
		return 0;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (*end != '\0')
		return 0;
	if (errno == ERANGE || v > (unsigned long long)LLONG_MAX ||
	    (long long)v > max) {
		*errstr = "too large";
		return 0;
	}
	if ((long long)v < min) {
		*errstr = "too small";
		return 0;
	}
	*errstr = NULL;
	return (long long)v;
}

/*
 * A number of seconds: decimal digits with at most one point among or
 * after them ("2", "0.5", "5."), at most max. Returns 0 with *v set, or
 * -1.
 */
int
num_seconds(const char *arg, double max, double *v)
{
	const char *p;
	int digits = 0, point = 0;

	for (p = arg; *p != '\0'; p++) {
		if (*p >= '0' && *p <= '9')
			digits++;
		else if (*p == '.' && !point)
			point = 1;
		else
			return -1;
	}
	if (digits == 0)
		return -1;
	*v = strtod(arg, NULL);
	return *v <= max ? 0 : -1;
}

/* The value of c as a hexadecimal digit (either case), or -1. */
int
num_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
		return (c | 0x20) - 'a' + 10;
	return -1;
}
