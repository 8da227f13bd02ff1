/*
 * thread-serialize: reads AgentEvent objects (a JSON array, or JSON lines)
 * and writes the <thread> prompt document of seed 004, byte for byte what
 * serializeThreadToXml(events, {responsePrefix}) returns, then a newline.
 * By default the events a summary event summarizes are folded into it;
 * --keep-summarized writes them all, as the seed does. It fails, writing
 * nothing, on invalid JSON or UTF-8 and on an event with a missing or
 * mistyped field.
 */
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "base/diag.h"
#include "base/io.h"
#include "base/utf8.h"
#include "thread/thread.h"
#include "help/thread-serialize.h"

enum { OPT_KEEP = CMD_OPT_FIRST, OPT_PREFIX, OPT_STRICT };

static const struct option longopts[] = {
	CMD_LONGOPTS,
	{ "keep-summarized",	no_argument,		NULL, OPT_KEEP },
	{ "no-newline",		no_argument,		NULL, 'n' },
	{ "response-prefix",	required_argument,	NULL, OPT_PREFIX },
	{ "strict",		no_argument,		NULL, OPT_STRICT },
	{ NULL,			0,			NULL, 0 }
};

static const struct cmd self = {
	"usage: thread-serialize [-hn] [--errors=github|json|text]\n"
	"                        [--keep-summarized] [--response-prefix TEXT]\n"
	"                        [--strict] [FILE]\n",
	"0 written, 1 invalid input, 2 usage, 3 trouble",
	CMD_HELP
};

struct run {
	struct thread_opts	 opts;
	int			 newline;
};

/* The events of one thread, read whole, written as one document. */
static int
process(FILE *fp, const char *name, void *arg)
{
	struct run *r = arg;
	struct thread_doc doc;
	struct buf in = BUF_INIT;
	int status;

	r->opts.file = name;
	if (io_slurp_text(fp, &in) != 0) {
		diag_warn("%s", name);
		buf_free(&in);
		return DIAG_TROUBLE;
	}
	thread_init(&doc);
	status = thread_serialize(&doc, buf_cstr(&in), in.len, &r->opts);
	buf_free(&in);
	if (status == DIAG_OK) {
		if (r->newline)
			buf_addc(&doc.text, '\n');
		if (thread_write(&doc, stdout) != 0)
			status = DIAG_TROUBLE;
	}
	thread_free(&doc);
	return status;
}

int
main(int argc, char *argv[])
{
	struct run r = { { NULL, NULL, 0, 0, 0 }, 1 };
	int ch;

	cmd_init(&self, argv);
	while ((ch = cmd_getopt(argc, argv, "hn", longopts)) != -1) {
		switch (ch) {
		case 'n':
			r.newline = 0;
			break;
		case OPT_KEEP:
			r.opts.keep_summarized = 1;
			break;
		case OPT_PREFIX:
			r.opts.prefix = optarg;
			r.opts.prefix_len = strlen(optarg);
			if (utf8_valid(optarg, r.opts.prefix_len) !=
			    r.opts.prefix_len)
				cmd_usagex("--response-prefix is not valid "
				    "UTF-8");
			break;
		case OPT_STRICT:
			r.opts.strict = 1;
			break;
		default:
			cmd_usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		cmd_usagex("one input at most (the events of one thread)");
	return cmd_operands_exit(argc, argv, process, &r);
}
