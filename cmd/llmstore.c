/*
 * llmstore: the conversation memory of the kit, an SQLite file of seed
 * 001's objects. It stores validated <llmQuery> and <llmResponse>
 * documents, takes the subjects, keywords and summary out of each
 * response, and gives back the XML, those objects, and the context that
 * llmq-encode --context reads. It exits 1 when a document is rejected or
 * what was asked for is not there, 3 when the store cannot be used.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "base/diag.h"
#include "base/num.h"
#include "store/store.h"
#include "help/llmstore.h"

#define PROG		"llmstore [-d PATH] "

enum { OPT_FORMAT = CMD_OPT_FIRST, OPT_REV, OPT_XML };

#define O_BATCH	{ "batch", no_argument, &args.batch, 1 }
#define O_FMT	{ "format", required_argument, NULL, OPT_FORMAT }
#define O_MSG	{ "message", required_argument, NULL, 'm' }
#define O_MODEL	{ "model", required_argument, NULL, 'M' }
#define O_QUIET	{ "quiet", no_argument, NULL, 'q' }
#define O_REV	{ "revision", required_argument, NULL, OPT_REV }
#define O_STORE	{ "store", required_argument, NULL, 'd' }
#define O_TOPIC	{ "topic", required_argument, NULL, 't' }
#define O_UNDO	{ "undo", no_argument, &args.undo, 1 }
#define O_XML	{ "xml-schema-version", required_argument, NULL, OPT_XML }
#define O_END	{ NULL, 0, NULL, 0 }
#define O_CMD	CMD_LONGOPTS_NOERRORS, O_STORE

static struct store_args args;

static const struct option
    o_put[] = { CMD_LONGOPTS, O_BATCH, O_MSG, O_QUIET, O_STORE, O_TOPIC,
	O_END },
    o_ls[] = { O_CMD, O_FMT, O_MSG, O_TOPIC, O_END },
    o_msg[] = { O_CMD, O_MSG, O_END },
    o_none[] = { O_CMD, O_END },
    o_rev[] = { O_CMD, O_REV, O_END },
    o_undo[] = { O_CMD, O_UNDO, O_END },
    o_topic[] = { O_CMD, O_TOPIC, O_END },
    o_pset[] = { O_CMD, O_MODEL, O_XML, O_END },
    o_pget[] = { O_CMD, O_MODEL, O_REV, O_END },
    o_model[] = { O_CMD, O_MODEL, O_END };

/*
 * One row a command: its name (and sub), how it uses the store
 * (store_run) and what it does; its options; what it takes (the options
 * it needs, how many operands and which, see store_rules); its usage.
 */
static const struct command {
	const char		*name, *sub;
	int			 how;
	store_cmd_fn		*fn;
	const char		*shorts;
	const struct option	*longs;
	struct store_rules	 rules;
	const char		*usage;
} commands[] = {
	{ "put", NULL, STORE_WRITES | STORE_OWNTX, store_cmd_put, ":d:hm:qt:",
	    o_put, { "put needs -t TOPIC and -m MESSAGE", 0, 1,
	    "one FILE at most", { 0 }, 0 }, PROG "put [-q] "
	    "[--errors=github|json|text] -t TOPIC\n"
	    "                              -m MESSAGE [FILE]\n"
	    "       " PROG "put [-q] [--errors=github|json|text] --batch\n"
	    "                              -t TOPIC FILE ..." },
	{ "ls", NULL, 0, store_cmd_ls, ":d:hm:t:", o_ls, { NULL, 0, 0,
	    "no operand", { 0 }, 0 }, PROG "ls [-t TOPIC] [-m MESSAGE]\n"
	    "                             [--format llm-query|llm-response]" },
	{ "cat", NULL, 0, store_cmd_cat, ":d:hm:", o_msg, { NULL, 1, 1,
	    "one HASH or -m MESSAGE", { "HASH" }, 1 },
	    PROG "cat HASH | -m MESSAGE" },
	{ "rm", NULL, STORE_WRITES, store_cmd_rm, ":d:hm:", o_msg,
	    { "rm needs -m MESSAGE", 0, 0, "no operand", { 0 }, 0 },
	    PROG "rm -m MESSAGE" },
	{ "context", NULL, STORE_MAYBE, store_cmd_context, ":d:h", o_none,
	    { NULL, 1, 1, "one TOPIC", { "TOPIC" }, 0 }, PROG "context TOPIC" },
	{ "summary", NULL, 0, store_cmd_summary, ":d:h", o_rev, { NULL, 1, 1,
	    "one TOPIC", { "TOPIC" }, 0 },
	    PROG "summary TOPIC [--revision N]" },
	{ "keywords", NULL, 0, store_cmd_keywords, ":d:h", o_none, { NULL, 1,
	    1, "one TOPIC", { "TOPIC" }, 0 }, PROG "keywords TOPIC" },
	{ "subjects", NULL, 0, store_cmd_subjects, ":d:h", o_none, { NULL, 1,
	    1, "one TOPIC", { "TOPIC" }, 0 }, PROG "subjects TOPIC" },
	{ "archive", NULL, STORE_WRITES, store_cmd_archive, ":d:h", o_undo,
	    { NULL, 2, 2, "TOPIC and SUBJECT", { "TOPIC", "SUBJECT" }, 0 },
	    PROG "archive [--undo] TOPIC SUBJECT" },
	{ "trace", NULL, 0, store_cmd_trace, ":d:ht:", o_topic, { NULL, 1, 1,
	    "one TERM", { "TERM" }, 0 }, PROG "trace TERM [-t TOPIC]" },
	{ "prompt", "set", STORE_WRITES | STORE_OWNTX, store_cmd_prompt_set,
	    ":d:hM:", o_pset, { "prompt set needs -M MODEL", 0, 1,
	    "one FILE at most", { 0 }, 0 }, PROG "prompt set -M MODEL "
	    "[--xml-schema-version N] [FILE]" },
	{ "prompt", "get", 0, store_cmd_prompt_get, ":d:hM:", o_pget,
	    { "prompt get needs -M MODEL", 0, 0, "no operand", { 0 }, 0 },
	    PROG "prompt get -M MODEL [--revision N]" },
	{ "prompt", "ls", 0, store_cmd_prompt_ls, ":d:hM:", o_model, { NULL, 0,
	    0, "no operand", { 0 }, 0 }, PROG "prompt ls [-M MODEL]" },
	{ "fsck", NULL, 0, store_cmd_fsck, ":d:h", o_none, { NULL, 0, 0,
	    "no operand", { 0 }, 0 }, PROG "fsck" },
	{ "export", NULL, 0, store_cmd_export, ":d:h", o_none, { NULL, 0, 0,
	    "no operand", { 0 }, 0 }, PROG "export" },
	{ "import", NULL, STORE_WRITES, store_cmd_import, ":d:h", o_none,
	    { NULL, 0, 1, "one FILE at most", { 0 }, 0 }, PROG "import [FILE]" }
};
#define NCOMMANDS	(sizeof(commands) / sizeof(commands[0]))

static struct buf	 synopsis = BUF_INIT, why = BUF_INIT;
static struct cmd	 self = { NULL, "0 done, 1 rejected or not found, "
			    "2 usage, 3 trouble", NULL };

/* What a usage error leaves, freed at exit for valgrind's count. */
static void
bufs_free(void)
{
	buf_free(&synopsis);
	buf_free(&why);
}

/* The usage lines of the commands called name, of all for NULL. */
static const struct cmd *
usage_of(const char *name, const char *sub)
{
	const struct command *c;

	buf_reset(&synopsis);
	for (c = commands; c < commands + NCOMMANDS; c++)
		if ((name == NULL || strcmp(c->name, name) == 0) &&
		    (sub == NULL || strcmp(c->sub, sub) == 0))
			buf_printf(&synopsis, "%s%s\n", synopsis.len == 0 ?
			    "usage: " : "       ", c->usage);
	self.synopsis = buf_cstr(&synopsis);
	self.options = name == NULL ? CMD_HELP :
	    cmd_helpfor(cmd_help_paths, name, sub);
	return &self;
}

static long
whole(const char *opt, const char *arg)
{
	const char *errstr;
	long v = (long)num_whole(arg, 1, LONG_MAX, &errstr);

	if (errstr != NULL)
		cmd_usagex("%s must be a whole number from 1, not \"%s\"", opt,
		    arg);
	return v;
}

int
main(int argc, char *argv[])
{
	const struct command *c;
	int ch;

	atexit(bufs_free);
	cmd_init(usage_of(NULL, NULL), argv);
	while ((ch = cmd_getopt(argc, argv, "+d:h", o_none)) != -1)
		args.path = optarg;	/* -d, the only one */
	if ((argc -= optind) == 0)
		cmd_usagex("no command given");
	argv += optind;
	for (c = commands; c < commands + NCOMMANDS; c++)
		if (strcmp(c->name, argv[0]) == 0 && (c->sub == NULL ||
		    (argc > 1 && strcmp(c->sub, argv[1]) == 0)))
			break;
	if (c == commands + NCOMMANDS && strcmp(argv[0], "prompt") == 0) {
		cmd_sub(usage_of("prompt", NULL), "prompt");
		optind = 0;
		cmd_getopt(argc, argv, "+:h", o_none);
		if (argc < 2)
			cmd_usagex("prompt needs set, get or ls");
		cmd_usagex("prompt needs set, get or ls, not \"%s\"", argv[1]);
	} else if (c == commands + NCOMMANDS)
		cmd_usagex("unknown command \"%s\"", argv[0]);
	cmd_sub(usage_of(c->name, c->sub), c->name);
	if (c->sub != NULL)
		argc--, argv++;
	optind = 0;
	while ((ch = cmd_getopt(argc, argv, c->shorts, c->longs)) != -1) {
		switch (ch) {
		case 'M':
			args.model = optarg;
			break;
		case 'd':
			args.path = optarg;
			break;
		case 'm':
			args.message = optarg;
			break;
		case 'q':
			diag_setquiet(1);
			break;
		case 't':
			args.topic = optarg;
			break;
		case OPT_FORMAT:
			args.format = optarg;
			break;
		case OPT_REV:
			args.revision = whole("--revision", optarg);
			break;
		case OPT_XML:
			args.xml_version = whole("--xml-schema-version",
			    optarg);
			break;
		}			/* 0: --batch, --undo */
	}
	args.argc = argc - optind;
	args.argv = argv + optind;
	if (store_args_check(c->name, &c->rules, &args, &why) != 0)
		cmd_usagex("%s", buf_cstr(&why));
	return cmd_exit(store_run(c->how, c->fn, &args));
}
