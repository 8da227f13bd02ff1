/*
 * thread-serialize: reads AgentEvent objects (a JSON array, or JSON lines)
 * and writes the <thread> prompt document of seed 004, byte for byte what
 * serializeThreadToXml(events, {responsePrefix}) returns, then a newline.
 * It fails, writing nothing, on invalid JSON or UTF-8 and on an event with
 * a missing or mistyped field.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "buf.h"
#include "diag.h"
#include "io.h"
#include "thread.h"
#include "utf8.h"

static void usage(void) __attribute__((noreturn));

enum { OPT_ERRORS = 256, OPT_PREFIX, OPT_STRICT, OPT_VERSION };

static const struct option longopts[] = {
	{ "errors",		required_argument,	NULL, OPT_ERRORS },
	{ "help",		no_argument,		NULL, 'h' },
	{ "no-newline",		no_argument,		NULL, 'n' },
	{ "response-prefix",	required_argument,	NULL, OPT_PREFIX },
	{ "strict",		no_argument,		NULL, OPT_STRICT },
	{ "version",		no_argument,		NULL, OPT_VERSION },
	{ NULL,			0,			NULL, 0 }
};

static const char synopsis[] =
    "usage: thread-serialize [-hn] [--errors=json|text] "
    "[--response-prefix TEXT]\n"
    "                        [--strict] [FILE]\n";

int
main(int argc, char *argv[])
{
	struct thread_opts opts = { NULL, NULL, 0, 0 };
	struct thread_doc doc;
	struct buf in = BUF_INIT;
	const char *operand = "-";
	int ch, newline = 1, status;

	diag_setprogname(argv[0]);
	signal(SIGXFSZ, SIG_IGN);	/* a file too large: a write error */
	argv[0] = (char *)diag_progname();	/* getopt's messages too */
	while ((ch = getopt_long(argc, argv, "hn", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			fputs(synopsis, stdout);
			fputs("exit status: 0 written, 1 invalid input, "
			    "2 usage, 3 trouble\n", stdout);
			return io_fshut(stdout, "<stdout>");
		case 'n':
			newline = 0;
			break;
		case OPT_ERRORS:
			if (diag_seterrors(optarg) != 0)
				usage();
			break;
		case OPT_PREFIX:
			opts.prefix = optarg;
			opts.prefix_len = strlen(optarg);
			if (utf8_valid(optarg, opts.prefix_len) !=
			    opts.prefix_len) {
				diag_warnx("--response-prefix is not valid "
				    "UTF-8");
				usage();
			}
			break;
		case OPT_STRICT:
			opts.strict = 1;
			break;
		case OPT_VERSION:
			printf("thread-serialize (llmkit) %s\n", LLMKIT_VERSION);
			return io_fshut(stdout, "<stdout>");
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1) {
		diag_warnx("one input at most (the events of one thread)");
		usage();
	}
	if (argc == 1)
		operand = argv[0];
	opts.file = io_name(operand);

	if (io_read_text(operand, &in) != DIAG_OK) {
		buf_free(&in);
		return DIAG_TROUBLE;
	}

	thread_init(&doc);
	status = thread_serialize(&doc, buf_cstr(&in), in.len, &opts);
	buf_free(&in);
	if (status == DIAG_OK) {
		if (newline)
			buf_addc(&doc.text, '\n');
		if (thread_write(&doc, stdout) != 0)
			status = DIAG_TROUBLE;
	}
	thread_free(&doc);
	return diag_max(status, io_fshut(stdout, "<stdout>"));
}

static void
usage(void)
{
	fputs(synopsis, stderr);
	exit(DIAG_USAGE);
}
