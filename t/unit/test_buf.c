/* Unit tests of lib/buf: growth, embedded NULs, printf, reset and free. */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/diag.h"
#include "unit.h"

/* Lets malloc(SIZE_MAX) fail with NULL under ASan, as it does elsewhere. */
const char *__asan_default_options(void);
const char *
__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

static void
test_empty(void)
{
	struct buf b = BUF_INIT;
	char *s;

	unit_ok(b.data == NULL && b.len == 0 && b.cap == 0,
	    "BUF_INIT is empty and owns no memory");
	s = buf_cstr(&b);
	unit_ok(s != NULL && s[0] == '\0',
	    "buf_cstr of an empty buffer is \"\"");
	unit_long((long)b.len, 0, "buf_cstr leaves the length alone");
	buf_add(&b, "", 0);
	unit_long((long)b.len, 0, "adding nothing keeps the length");
	buf_adds(&b, "");
	unit_long((long)b.len, 0, "buf_adds of \"\" keeps the length");
	buf_free(&b);
	unit_ok(b.data == NULL && b.len == 0 && b.cap == 0,
	    "buf_free leaves an empty buffer");
	buf_free(&b);
	unit_ok(b.data == NULL, "buf_free twice is harmless");

	buf_add(&b, "x", 0);
	unit_ok(b.data == NULL, "adding zero bytes allocates nothing");
	buf_reserve(&b, 0);
	unit_ok(b.data == NULL, "reserving zero bytes allocates nothing");
}

static void
test_growth(void)
{
	struct buf b = BUF_INIT;
	char *want;
	size_t total = 0, i, n, caps = 0, lastcap = 0;
	int ok = 1, roomy = 1;

	/* many appends of every size from 0 to 299, then single bytes */
	want = malloc(1 << 20);
	for (n = 0; n < 300; n++) {
		char piece[300];

		for (i = 0; i < n; i++)
			piece[i] = (char)((n * 31 + i) & 0xFF);
		buf_add(&b, piece, n);
		memcpy(want + total, piece, n);
		total += n;
		if (b.len != total)
			ok = 0;
		if (b.len > 0 && b.cap < b.len + 1)
			roomy = 0;
	}
	unit_long((long)b.len, 299L * 300 / 2, "300 appends add up");
	unit_ok(ok, "the length follows every append");
	unit_ok(roomy, "the capacity always leaves room for a NUL");
	unit_bytes(b.data, b.len, want, total, "300 appends keep every byte");

	while (total < (1 << 20) - 1) {
		char c = (char)(total * 7);

		buf_addc(&b, c);
		want[total++] = c;
		if (b.cap != lastcap) {
			caps++;
			lastcap = b.cap;
		}
		if (b.cap < b.len)
			roomy = 0;
	}
	unit_ok(roomy, "buf_addc never writes past the capacity");
	unit_bytes(b.data, b.len, want, total,
	    "a megabyte of single-byte appends is kept");
	unit_ok(caps <= 8, "the capacity doubles (few reallocations)");
	if (caps > 8)
		printf("#   the capacity changed %zu times\n", caps);
	unit_ok(buf_cstr(&b)[total] == '\0',
	    "buf_cstr terminates a long buffer");
	free(want);
	buf_free(&b);
}

static void
test_boundaries(void)
{
	struct buf b = BUF_INIT;
	char want[200];
	size_t n;
	int ok = 1;

	/* every length across the first growth steps, byte by byte */
	for (n = 0; n < sizeof(want); n++) {
		want[n] = (char)('a' + n % 26);
		buf_addc(&b, want[n]);
		if (b.len != n + 1 || memcmp(b.data, want, n + 1) != 0 ||
		    buf_cstr(&b)[n + 1] != '\0' || b.len != n + 1)
			ok = 0;
	}
	unit_ok(ok, "buf_addc and buf_cstr agree at every length to 200");
	buf_free(&b);

	buf_grow(&b, 1000);
	unit_ok(b.cap >= 1001, "buf_grow(n) leaves room for n bytes and a NUL");
	n = b.cap;
	buf_grow(&b, 10);
	unit_long((long)b.cap, (long)n,
	    "buf_grow within the capacity keeps it");
	buf_reserve(&b, 500);
	memset(b.data, 'z', 500);
	b.len = 500;
	unit_ok(b.cap >= 501, "buf_reserve then direct writes");
	unit_ok(memcmp(buf_cstr(&b), "zzz", 3) == 0 && b.data[500] == '\0',
	    "buf_cstr after direct writes");
	buf_free(&b);
}

static void
test_nuls(void)
{
	struct buf b = BUF_INIT;
	char *s;

	buf_add(&b, "a\0b", 3);
	buf_addc(&b, '\0');
	buf_adds(&b, "c");
	unit_bytes(b.data, b.len, "a\0b\0c", 5, "embedded NULs are kept");
	s = buf_cstr(&b);
	unit_ok(s == b.data, "buf_cstr returns the buffer's own bytes");
	unit_bytes(s, 6, "a\0b\0c\0", 6, "buf_cstr adds a NUL after them");
	unit_long((long)b.len, 5, "buf_cstr does not count its NUL");
	buf_adds(&b, "d");
	unit_bytes(b.data, b.len, "a\0b\0cd", 6,
	    "appending after buf_cstr overwrites its NUL");
	buf_free(&b);
}

static void
test_printf(void)
{
	struct buf b = BUF_INIT;
	char *big, *want;
	size_t i;

	buf_printf(&b, "%d-%s-%c", 42, "xy", 'z');
	unit_str(buf_cstr(&b), "42-xy-z", "buf_printf formats");
	buf_printf(&b, "%s", "");
	unit_long((long)b.len, 7, "buf_printf of nothing adds nothing");
	buf_printf(&b, "|%5.2f|%-4s|%lu", 3.14159, "a", 123456789UL);
	unit_str(buf_cstr(&b), "42-xy-z| 3.14|a   |123456789",
	    "buf_printf appends to what is there");
	buf_free(&b);

	big = malloc(100001);
	for (i = 0; i < 100000; i++)
		big[i] = (char)('A' + i % 23);
	big[100000] = '\0';
	buf_adds(&b, "<");
	buf_printf(&b, "%s>", big);
	want = malloc(100003);
	want[0] = '<';
	memcpy(want + 1, big, 100000);
	want[100001] = '>';
	unit_bytes(b.data, b.len, want, 100002,
	    "buf_printf writes 100000 characters whole");
	unit_ok(buf_cstr(&b)[100002] == '\0', "and terminates them");
	buf_reset(&b);
	buf_printf(&b, "%70000d", 7);
	unit_long((long)b.len, 70000, "a 70000-wide field is written whole");
	unit_ok(b.data[0] == ' ' && b.data[69998] == ' ' &&
	    b.data[69999] == '7', "with its padding");
	free(big);
	free(want);
	buf_free(&b);
}

/* Appends as the callers of buf_vprintf do: their own arguments. */
static void
vappend(struct buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
vappend(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

static void
test_vprintf(void)
{
	struct buf b = BUF_INIT;

	vappend(&b, "%s=%d", "n", -5);
	unit_str(buf_cstr(&b), "n=-5", "buf_vprintf formats a va_list");
	vappend(&b, ", %s", "");
	vappend(&b, "%s", "");
	unit_str(buf_cstr(&b), "n=-5, ", "buf_vprintf appends, nothing for \"\"");
	buf_reset(&b);
	vappend(&b, "%40000d|%s", 1, "end");
	unit_long((long)b.len, 40004, "buf_vprintf writes a long result whole");
	unit_str(buf_cstr(&b) + 39999, "1|end", "up to its last characters");
	buf_free(&b);
}

static void
test_addu(void)
{
	struct buf b = BUF_INIT;

	buf_addu(&b, 0);
	unit_str(buf_cstr(&b), "0", "buf_addu 0");
	buf_addc(&b, ',');
	buf_addu(&b, 7);
	buf_addc(&b, ',');
	buf_addu(&b, 10);
	buf_addc(&b, ',');
	buf_addu(&b, 4294967296ULL);
	buf_addc(&b, ',');
	buf_addu(&b, ULLONG_MAX);
	unit_str(buf_cstr(&b), "0,7,10,4294967296,18446744073709551615",
	    "buf_addu writes decimal digits up to ULLONG_MAX");
	buf_free(&b);
}

static void
test_reset(void)
{
	struct buf b = BUF_INIT;
	char *data;
	size_t cap;

	buf_adds(&b, "hello, world");
	data = b.data;
	cap = b.cap;
	buf_reset(&b);
	unit_long((long)b.len, 0, "buf_reset empties the buffer");
	unit_ok(b.data == data && b.cap == cap, "buf_reset keeps the memory");
	unit_str(buf_cstr(&b), "", "buf_cstr after buf_reset is \"\"");
	buf_adds(&b, "bye");
	unit_str(buf_cstr(&b), "bye", "appending after buf_reset starts over");
	buf_free(&b);
	buf_adds(&b, "again");
	unit_str(buf_cstr(&b), "again", "a freed buffer can be used again");
	buf_free(&b);
}

static void
grow_too_much(void)
{
	struct buf b = BUF_INIT;

	buf_adds(&b, "0123456789");
	buf_grow(&b, SIZE_MAX - 5);
}

static void
test_overflow(void)
{
	const char *err;

	unit_long(unit_child(grow_too_much, &err), DIAG_TROUBLE,
	    "a size that overflows ends the process with status 3");
	unit_str(err, "test_buf: out of memory\n",
	    "and says it is out of memory");
}

int
main(int argc, char *argv[])
{
	diag_setprogname(argv[0]);
	test_empty();
	test_growth();
	test_boundaries();
	test_nuls();
	test_printf();
	test_vprintf();
	test_addu();
	test_reset();
	test_overflow();
	return unit_done();
}
