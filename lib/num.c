/* num: numbers given on the command line. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "num.h"

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
