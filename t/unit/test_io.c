/* Unit tests of lib/io: operands, reads of files and pipes, checked writes. */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/io.h"
#include "unit.h"

/* n bytes of a pattern with NULs and every byte value in it. */
static char *
pattern(size_t n)
{
	char *p = malloc(n ? n : 1);
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (char)((i * 131 + i / 256) & 0xFF);
	return p;
}

/* Whether standard input is still an open descriptor. */
static int
fcntl_ok(void)
{
	return fcntl(0, F_GETFD) != -1;
}

static void
test_operands(void)
{
	FILE *fp;
	char path[sizeof(UNIT_TMPNAME)];

	unit_ok(io_open("-") == stdin, "io_open(\"-\") is stdin");
	unit_ok(io_open(NULL) == stdin, "io_open(NULL) is stdin");
	unit_str(io_name("-"), "<stdin>", "io_name(\"-\") is <stdin>");
	unit_str(io_name(NULL), "<stdin>", "io_name(NULL) is <stdin>");
	unit_str(io_name("dir/a.json"), "dir/a.json",
	    "io_name of a file is its operand");
	unit_str(io_name("--"), "--", "io_name(\"--\") is a file name");

	errno = 0;
	fp = io_open("/nonexistent/llmkit/file.json");
	unit_ok(fp == NULL && errno == ENOENT,
	    "io_open of a missing file fails with ENOENT");

	unit_tmpfile(path, "{}", 2);
	fp = io_open(path);
	unit_ok(fp != NULL && fp != stdin, "io_open opens a file");
	unit_long(io_close(fp, path), DIAG_OK, "io_close of a file is DIAG_OK");
	if (!fcntl_ok())	/* run with stdin closed: give it one */
		open("/dev/null", O_RDONLY);
	unit_long(io_close(stdin, "-"), DIAG_OK, "io_close(stdin) is DIAG_OK");
	unit_ok(fcntl_ok(), "io_close leaves stdin open");
	unlink(path);
}

static void
test_slurp_file(void)
{
	static const size_t sizes[] = { 0, 1, 65535, 65536, 65537, 300001 };
	struct buf b = BUF_INIT;
	char path[sizeof(UNIT_TMPNAME)];
	char *data;
	size_t i;
	FILE *fp;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		data = pattern(sizes[i]);
		unit_tmpfile(path, data, sizes[i]);
		fp = io_open(path);
		buf_reset(&b);
		unit_ok(io_slurp(fp, &b) == 0 && b.len == sizes[i] &&
		    (sizes[i] == 0 || memcmp(b.data, data, sizes[i]) == 0),
		    unit_fmt("io_slurp of a %zu-byte file", sizes[i]));
		io_close(fp, path);
		unlink(path);
		free(data);
	}

	unit_tmpfile(path, "world", 5);
	fp = io_open(path);
	buf_reset(&b);
	buf_adds(&b, "hello, ");
	unit_ok(io_slurp(fp, &b) == 0, "io_slurp after other content");
	unit_str(buf_cstr(&b), "hello, world",
	    "io_slurp appends to the buffer");
	io_close(fp, path);
	unlink(path);

	/* what is left of a file after a first read */
	unit_tmpfile(path, "0123456789", 10);
	fp = io_open(path);
	getc(fp);
	getc(fp);
	buf_reset(&b);
	unit_ok(io_slurp(fp, &b) == 0, "io_slurp of a file partly read");
	unit_str(buf_cstr(&b), "23456789", "io_slurp reads the rest of it");
	io_close(fp, path);
	unlink(path);

	fp = fopen("/tmp", "rb");
	buf_reset(&b);
	errno = 0;
	unit_ok(fp != NULL && io_slurp(fp, &b) == -1 && errno == EISDIR,
	    "io_slurp of a directory fails with EISDIR");
	if (fp != NULL)
		fclose(fp);
	buf_free(&b);
}

/*
 * A pipe from another program (popen, so that no copy of this process
 * lives on beside it): 200000 bytes of a known pattern, more than the
 * 64 KiB a pipe holds, arriving in short reads.
 */
static void
test_slurp_pipe(void)
{
	const size_t n = 200000;
	struct buf b = BUF_INIT;
	char *want = malloc(n);
	size_t i;
	FILE *fp;
	int ok;

	for (i = 0; i < n; i++)
		want[i] = "0123456789abcdef\n"[i % 17];
	fflush(stdout);
	fp = popen("yes 0123456789abcdef | head -c 200000", "r");
	if (fp == NULL) {
		perror("popen");
		exit(3);
	}
	unit_ok(io_slurp(fp, &b) == 0, "io_slurp of a pipe succeeds");
	ok = b.len == n && memcmp(b.data, want, n) == 0;
	unit_ok(ok, "io_slurp reads 200000 bytes from a pipe whole");
	if (!ok)
		printf("#   read %zu bytes\n", b.len);
	unit_long(pclose(fp), 0, "the writer wrote it all");

	fp = popen("true", "r");
	buf_reset(&b);
	unit_ok(io_slurp(fp, &b) == 0 && b.len == 0,
	    "io_slurp of an empty pipe reads nothing");
	pclose(fp);
	free(want);
	buf_free(&b);
}

static void
test_write(void)
{
	char path[sizeof(UNIT_TMPNAME)], back[16];
	FILE *fp;
	int fd;

	unit_tmpfile(path, "", 0);
	fp = fopen(path, "wb");
	unit_long(io_write("abc", 3, fp), 0, "io_write of 3 bytes");
	unit_long(io_write("", 0, fp), 0, "io_write of nothing");
	unit_long(io_write("d\0e", 3, fp), 0, "io_write with a NUL");
	unit_capture_begin();
	unit_long(io_fshut(fp, path), DIAG_OK, "io_fshut of a good file");
	unit_str(unit_capture_end(), "",
	    "io_fshut of a good file says nothing");
	fd = open(path, O_RDONLY);
	memset(back, 0, sizeof(back));
	unit_long((long)read(fd, back, sizeof(back)), 6, "six bytes written");
	unit_ok(memcmp(back, "abcd\0e", 6) == 0, "the bytes are right");
	close(fd);
	unlink(path);

	fp = fopen("/dev/full", "wb");
	setvbuf(fp, NULL, _IONBF, 0);
	errno = 0;
	unit_long(io_write("abc", 3, fp), -1,
	    "io_write to an unbuffered /dev/full fails");
	unit_long(errno, ENOSPC, "with ENOSPC");
	fclose(fp);
}

static void
test_fshut(void)
{
	FILE *fp;
	int status;

	diag_setprogname("test_io");
	fp = fopen("/dev/full", "wb");
	unit_long(io_write("some output\n", 12, fp), 0,
	    "a buffered write to /dev/full seems to succeed");
	unit_capture_begin();
	status = io_fshut(fp, "/dev/full");
	unit_str(unit_capture_end(),
	    "test_io: /dev/full: No space left on device\n",
	    "io_fshut on /dev/full names the file and the error");
	unit_long(status, DIAG_TROUBLE,
	    "io_fshut on /dev/full is DIAG_TROUBLE");

	/* the error of an earlier write, with nothing left to flush */
	fp = fopen("/dev/full", "wb");
	setvbuf(fp, NULL, _IONBF, 0);
	io_write("x", 1, fp);
	errno = 0;
	unit_capture_begin();
	status = io_fshut(fp, "<stdout>");
	unit_long(status, DIAG_TROUBLE,
	    "io_fshut after a failed unbuffered write is DIAG_TROUBLE");
	unit_str(unit_capture_end(), "test_io: <stdout>: Input/output error\n",
	    "and reports an I/O error");
}

/* io_read: a whole file, a missing one, a directory, each reported once. */
static void
test_read(void)
{
	struct buf b = BUF_INIT;
	char path[sizeof(UNIT_TMPNAME)];
	char *p = pattern(100000);

	unit_tmpfile(path, p, 100000);
	buf_adds(&b, "kept");
	unit_long(io_read(path, &b), DIAG_OK, "io_read of a file");
	unit_ok(b.len == 100004 && memcmp(b.data, "kept", 4) == 0 &&
	    memcmp(b.data + 4, p, 100000) == 0, "appended, byte for byte");
	unlink(path);
	unit_capture_begin();
	unit_long(io_read(path, &b), DIAG_TROUBLE, "io_read of a missing file");
	unit_str(unit_capture_end(), unit_fmt("test_io: %s: No such file or "
	    "directory\n", path), "says why, once");
	unit_capture_begin();
	unit_long(io_read("/", &b), DIAG_TROUBLE, "io_read of a directory");
	unit_str(unit_capture_end(), "test_io: /: Is a directory\n",
	    "says why, once");
	unit_long((long)b.len, 100004, "failures add nothing");
	buf_free(&b);
	free(p);
}

/*
 * io_slurp_text and io_getline_text end a text just after its first NUL
 * byte; /dev/zero, which has no end, is read no further than that.
 */
static void
test_text(void)
{
	char path[sizeof(UNIT_TMPNAME)];
	struct buf b = BUF_INIT;
	char *line = NULL;
	size_t cap = 0;
	FILE *fp;

	unit_tmpfile(path, "ab\0cd\0e", 7);
	fp = fopen(path, "rb");
	unit_ok(fp != NULL && io_slurp_text(fp, &b) == 0 && b.len == 3 &&
	    memcmp(b.data, "ab", 3) == 0,
	    "io_slurp_text keeps the text through its first NUL byte");
	if (fp != NULL)
		fclose(fp);
	buf_reset(&b);
	unit_tmpfile(path, "abc\n", 4);
	unit_long(io_read_text(path, &b), DIAG_OK, "io_read_text of a file");
	unit_str(buf_cstr(&b), "abc\n", "io_read_text reads a text whole");
	buf_reset(&b);
	fp = fopen("/dev/zero", "rb");
	unit_ok(fp != NULL && io_slurp_text(fp, &b) == 0 && b.len == 1 &&
	    b.data[0] == '\0', "io_slurp_text of /dev/zero stops at once");
	unit_long(io_getline_text(&line, &cap, fp), 1,
	    "io_getline_text of /dev/zero: one NUL byte is a line");
	if (fp != NULL)
		fclose(fp);
	unit_tmpfile(path, "a\nb\0c\nd", 7);
	fp = fopen(path, "rb");
	unit_long(io_getline_text(&line, &cap, fp), 2, "a line ends at LF");
	unit_str(line, "a\n", "with its LF");
	unit_long(io_getline_text(&line, &cap, fp), 2, "or just after a NUL");
	unit_ok(memcmp(line, "b\0", 3) == 0, "with its NUL");
	unit_long(io_getline_text(&line, &cap, fp), 2, "the next line");
	unit_long(io_getline_text(&line, &cap, fp), 1, "a last line, no LF");
	unit_str(line, "d", "d alone");
	unit_long(io_getline_text(&line, &cap, fp), -1, "then the end");
	fclose(fp);
	unlink(path);
	free(line);
	buf_free(&b);
}

/*
 * io_skip_line drops the rest of a line that held a NUL byte, through
 * its LF, however long; the line after it is read whole.
 */
static void
test_skip_line(void)
{
	char path[sizeof(UNIT_TMPNAME)];
	size_t big = 200000, cap = 0;
	char *in, *line = NULL;
	FILE *fp;

	if ((in = malloc(big + 8)) == NULL)
		unit_bail("malloc");
	memcpy(in, "a\0", 2);
	memset(in + 2, '\0', big);
	memcpy(in + 2 + big, "b\nc\0", 4);
	unit_tmpfile(path, in, big + 6);
	fp = fopen(path, "rb");
	unit_long(io_getline_text(&line, &cap, fp), 2,
	    "a NUL line, to its NUL");
	unit_ok(cap < 1024, "io_getline_text holds no more of it");
	unit_long((long)io_skip_line(fp), (long)big + 2,
	    "io_skip_line drops the rest of it, with its LF");
	unit_long(io_getline_text(&line, &cap, fp), 2, "the next line");
	unit_ok(memcmp(line, "c\0", 3) == 0, "is read, up to its own NUL");
	unit_long((long)io_skip_line(fp), 0, "nothing left to skip");
	unit_long(io_getline_text(&line, &cap, fp), -1, "the end");
	unit_ok(!ferror(fp), "no read error");
	fclose(fp);
	unlink(path);
	free(line);
	free(in);
}

int
main(void)
{
	test_operands();
	test_slurp_file();
	test_slurp_pipe();
	test_write();
	test_fshut();
	test_read();
	test_text();
	test_skip_line();
	return unit_done();
}
