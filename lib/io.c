/* io: opening operands, reading them whole, and closing with checks. */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "io.h"

/* Opens an operand for reading: "-" (or NULL) is standard input. */
FILE *
io_open(const char *operand)
{
	if (operand == NULL || strcmp(operand, "-") == 0)
		return stdin;
	return fopen(operand, "rb");
}

/* The name diagnostics show for an operand. */
const char *
io_name(const char *operand)
{
	if (operand == NULL || strcmp(operand, "-") == 0)
		return "<stdin>";
	return operand;
}

/*
 * Appends the rest of fp to b. Returns 0, or -1 with errno set on a read
 * error. A regular file is read into a buffer of its own size at once.
 */
int
io_slurp(FILE *fp, struct buf *b)
{
	struct stat st;
	size_t n, want;

	if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size > 0)
		buf_reserve(b, (size_t)st.st_size + 1);
	for (;;) {
		want = b->cap - b->len > 1 ? b->cap - b->len - 1 : 0;
		if (want < 65536) {
			buf_reserve(b, 65536);
			want = b->cap - b->len - 1;
		}
		n = fread(b->data + b->len, 1, want, fp);
		b->len += n;
		if (n < want) {
			if (ferror(fp))
				return -1;
			return 0;
		}
	}
}

/*
 * Appends the whole of an operand to b: open, read, close. Returns
 * DIAG_OK, or DIAG_TROUBLE when it cannot be (the reason reported).
 */
int
io_read(const char *operand, struct buf *b)
{
	FILE *fp;
	int status = DIAG_OK;

	if ((fp = io_open(operand)) == NULL) {
		diag_warn("%s", operand);
		return DIAG_TROUBLE;
	}
	if (io_slurp(fp, b) != 0) {
		diag_warn("%s", io_name(operand));
		status = DIAG_TROUBLE;
	}
	return diag_max(status, io_close(fp, operand));
}

/* Writes n bytes; -1 (errno set) when the stream fails. */
int
io_write(const void *p, size_t n, FILE *fp)
{
	if (n != 0 && fwrite(p, 1, n, fp) != n)
		return -1;
	return 0;
}

/* Closes an input operand (not stdin); reports and returns DIAG_TROUBLE on error. */
int
io_close(FILE *fp, const char *operand)
{
	if (fp == stdin)
		return DIAG_OK;
	if (fclose(fp) != 0) {
		diag_warn("%s", operand);
		return DIAG_TROUBLE;
	}
	return DIAG_OK;
}

/*
 * Flushes, tests and closes an output stream, so that a full disk or a
 * closed pipe shows in the exit status. Returns DIAG_OK or DIAG_TROUBLE.
 */
int
io_fshut(FILE *fp, const char *name)
{
	int bad;

	bad = fflush(fp) != 0;
	bad |= ferror(fp) != 0;
	if (bad && errno == 0)
		errno = EIO;
	if (fclose(fp) != 0)
		bad = 1;
	if (bad) {
		diag_warn("%s", name);
		return DIAG_TROUBLE;
	}
	return DIAG_OK;
}
