/* io: opening operands, reading them whole, and closing with checks. */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/io.h"
#include "base/xalloc.h"

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

/* Opens an operand, reads it with slurp into b, closes it. */
static int
read_operand(const char *operand, struct buf *b,
    int (*slurp)(FILE *, struct buf *))
{
	FILE *fp;
	int status = DIAG_OK;

	if ((fp = io_open(operand)) == NULL) {
		diag_warn("%s", operand);
		return DIAG_TROUBLE;
	}
	if (slurp(fp, b) != 0) {
		diag_warn("%s", io_name(operand));
		status = DIAG_TROUBLE;
	}
	return diag_max(status, io_close(fp, operand));
}

/*
 * Appends the whole of an operand to b: open, read, close. Returns
 * DIAG_OK, or DIAG_TROUBLE when it cannot be (the reason reported).
 */
int
io_read(const char *operand, struct buf *b)
{
	return read_operand(operand, b, io_slurp);
}

/*
 * Appends the rest of fp to b, as io_slurp does, up to and including its
 * first NUL byte and nothing after it: no text the tools read holds one,
 * so the input is refused there, and an endless input such as /dev/zero
 * is not read for ever. read(2) rather than fread, so that a NUL that
 * comes down a pipe its writer keeps open ends the read at once. Returns
 * 0, or -1 with errno set on a read error.
 */
int
io_slurp_text(FILE *fp, struct buf *b)
{
	struct stat st;
	const char *nul;
	ssize_t n;

	if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size > 0)
		buf_reserve(b, (size_t)st.st_size + 1);
	for (;;) {
		/*
		 * grown only when full, so that a file read whole is not
		 * copied to make room for the read that finds its end
		 */
		if (b->cap - b->len < 2)
			buf_reserve(b, 65536 + 1);
		n = read(fileno(fp), b->data + b->len, b->cap - b->len - 1);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return -1;
		if (n == 0)
			return 0;
		if ((nul = memchr(b->data + b->len, '\0', (size_t)n)) != NULL) {
			b->len = (size_t)(nul - b->data) + 1;
			return 0;
		}
		b->len += (size_t)n;
	}
}

/* io_read, through io_slurp_text. */
int
io_read_text(const char *operand, struct buf *b)
{
	return read_operand(operand, b, io_slurp_text);
}

/*
 * getline(3), but a line also ends just after a NUL byte, which no text
 * line holds: the caller reports the line, at once, and then either ends
 * its input there or drops the rest of the line with io_skip_line, so
 * that the bytes after the NUL are never kept. Returns the length, or -1
 * at the end of the input or on a read error (ferror).
 */
ssize_t
io_getline_text(char **line, size_t *cap, FILE *fp)
{
	size_t n = 0;
	int c;

	while ((c = getc_unlocked(fp)) != EOF) {
		if (n + 2 > *cap) {
			*cap = *cap < 64 ? 128 : *cap * 2;
			*line = xrealloc(*line, *cap);
		}
		(*line)[n++] = (char)c;
		if (c == '\n' || c == '\0')
			break;
	}
	if (n == 0)
		return -1;
	(*line)[n] = '\0';
	return (ssize_t)n;
}

/*
 * Reads and drops the rest of a line up to and including its '\n': what
 * io_getline_text left of a line that held a NUL byte, however long, in
 * constant memory. Returns the number of bytes dropped; a read error is
 * seen with ferror.
 */
size_t
io_skip_line(FILE *fp)
{
	size_t n = 0;
	int c;

	while ((c = getc_unlocked(fp)) != EOF) {
		n++;
		if (c == '\n')
			break;
	}
	return n;
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

/*
 * A temporary file open for reading and writing, in $TMPDIR or else
 * /tmp, the folder's name in *dir; unlinked at once, so that it goes
 * when it is closed or the tool ends, however it ends. NULL, errno set,
 * when it cannot be made.
 */
FILE *
io_tmpfile(const char **dir)
{
	struct buf path = BUF_INIT;
	FILE *fp = NULL;
	int fd, e;

	if ((*dir = getenv("TMPDIR")) == NULL || **dir == '\0')
		*dir = "/tmp";
	buf_printf(&path, "%s/llmkit.XXXXXX", *dir);
	if ((fd = mkstemp(buf_cstr(&path))) != -1) {
		(void)unlink(path.data);
		if ((fp = fdopen(fd, "w+")) == NULL) {
			e = errno;
			(void)close(fd);
			errno = e;
		}
	}
	buf_free(&path);
	return fp;
}
