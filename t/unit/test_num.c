/* Unit tests of lib/num: sizes given on the command line. */
#include <stdint.h>
#include <stdio.h>

#include "base/num.h"
#include "unit.h"

int
main(void)
{
	char big[64];

	unit_long((long)num_size("1"), 1, "one byte");
	unit_long((long)num_size("64M"), 64L << 20, "M is 2^20");
	unit_long((long)num_size("3K"), 3072, "K is 2^10");
	unit_long((long)num_size("2G"), 2L << 30, "G is 2^30");
	unit_long((long)num_size("0"), 0, "0 is refused");
	unit_long((long)num_size(""), 0, "nothing is refused");
	unit_long((long)num_size("-1"), 0, "a sign is refused");
	unit_long((long)num_size("+1"), 0, "a plus sign is refused");
	unit_long((long)num_size(" 1"), 0, "white space is refused");
	unit_long((long)num_size("1k"), 0, "a lower-case suffix is refused");
	unit_long((long)num_size("1KB"), 0, "text after the suffix");
	unit_long((long)num_size("1.5M"), 0, "a fraction is refused");
	snprintf(big, sizeof(big), "%zu", (size_t)SIZE_MAX);
	unit_ok(num_size(big) == SIZE_MAX, "SIZE_MAX itself");
	snprintf(big, sizeof(big), "%zuK", (size_t)(SIZE_MAX >> 10) + 1);
	unit_long((long)num_size(big), 0, "beyond SIZE_MAX with a suffix");
	unit_long((long)num_size("99999999999999999999999"), 0,
	    "beyond unsigned long long");
	return unit_done();
}
