/*
 * toolcall-parse: reads a model's output as it streams (prose, markdown,
 * anything) and writes each <tool> call in it as one JSON line the moment
 * its </tool> has been read; --events writes the prose and the errors too.
 * A malformed or truncated call is reported with its place in the stream
 * and skipped; the status is then 1 once the input has all been read.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "diag.h"
#include "io.h"
#include "num.h"
#include "toolcall.h"

#define READ_SIZE	65536

static void	usage(void) __attribute__((noreturn));

static char	outbuf[READ_SIZE];

enum { OPT_ERRORS = 256, OPT_EVENTS, OPT_MAX_SIZE, OPT_STRICT, OPT_VERSION };

static const struct option longopts[] = {
	{ "errors",		required_argument,	NULL, OPT_ERRORS },
	{ "events",		no_argument,		NULL, OPT_EVENTS },
	{ "help",		no_argument,		NULL, 'h' },
	{ "max-size",		required_argument,	NULL, OPT_MAX_SIZE },
	{ "strict",		no_argument,		NULL, OPT_STRICT },
	{ "unbuffered",		no_argument,		NULL, 'u' },
	{ "version",		no_argument,		NULL, OPT_VERSION },
	{ NULL,			0,			NULL, 0 }
};

static const char synopsis[] =
    "usage: toolcall-parse [-hu] [--errors=json|text] [--events] "
    "[--max-size BYTES]\n"
    "                      [--strict] [FILE ...]\n";

/* Reads one operand with read(2), so that no call waits for a full buffer. */
static int
process(int fd, const char *name, const struct toolcall_opts *opts)
{
	static char chunk[READ_SIZE];
	struct toolcall *tc;
	ssize_t n;
	int status;

	tc = toolcall_new(opts, stdout, name);
	for (;;) {
		/* what is written reaches the reader before we wait */
		if (fflush(stdout) == EOF)
			break;
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			diag_warn("%s", name);
			toolcall_end(tc);
			toolcall_free(tc);
			return DIAG_TROUBLE;
		}
		if (n == 0 || toolcall_feed(tc, chunk, (size_t)n) != 0)
			break;
	}
	if (toolcall_end(tc) != 0 || ferror(stdout)) {
		toolcall_free(tc);
		return DIAG_TROUBLE;
	}
	status = toolcall_status(tc);
	toolcall_free(tc);
	return status;
}

int
main(int argc, char *argv[])
{
	struct toolcall_opts opts = { 0, 0, 0, TOOLCALL_MAX_SIZE };
	const char *operand;
	int ch, fd, i, status = DIAG_OK, one;

	diag_setprogname(argv[0]);
	signal(SIGXFSZ, SIG_IGN);	/* a file too large: a write error */
	argv[0] = (char *)diag_progname();
	while ((ch = getopt_long(argc, argv, "hu", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			fputs(synopsis, stdout);
			fputs("exit status: 0 all calls read, 1 a malformed or "
			    "truncated call, 2 usage, 3 trouble\n", stdout);
			return io_fshut(stdout, "<stdout>");
		case 'u':
			opts.unbuffered = 1;
			break;
		case OPT_ERRORS:
			if (diag_seterrors(optarg) != 0)
				usage();
			break;
		case OPT_EVENTS:
			opts.events = 1;
			break;
		case OPT_MAX_SIZE:
			if ((opts.max_size = num_size(optarg)) == 0) {
				diag_warnx("--max-size must be a positive size "
				    "in bytes (K, M, G allowed), not \"%s\"",
				    optarg);
				usage();
			}
			break;
		case OPT_STRICT:
			opts.strict = 1;
			break;
		case OPT_VERSION:
			printf("toolcall-parse (llmkit) %s\n", LLMKIT_VERSION);
			return io_fshut(stdout, "<stdout>");
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	/* glibc ignores the size when it is to allocate the buffer itself */
	if (setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf)) != 0)
		return DIAG_TROUBLE;
	for (i = 0; i < (argc > 0 ? argc : 1); i++) {
		operand = argc > 0 ? argv[i] : "-";
		if (strcmp(operand, "-") == 0)
			fd = STDIN_FILENO;
		else if ((fd = open(operand, O_RDONLY)) < 0) {
			diag_warn("%s", operand);
			status = diag_max(status, DIAG_TROUBLE);
			continue;
		}
		one = process(fd, io_name(operand), &opts);
		if (fd != STDIN_FILENO)
			close(fd);
		status = diag_max(status, one);
		if (one == DIAG_TROUBLE && ferror(stdout))
			break;
	}
	return diag_max(status, io_fshut(stdout, "<stdout>"));
}

static void
usage(void)
{
	fputs(synopsis, stderr);
	exit(DIAG_USAGE);
}
