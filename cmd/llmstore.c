/*
 * llmstore: the conversation memory of the kit, an SQLite file of seed
 * 001's objects. It stores validated <llmQuery> and <llmResponse>
 * documents, takes the subjects, keywords and summary out of each
 * response, and gives back the XML, those objects, and the context that
 * llmq-encode --context reads. It exits 1 when a document is rejected or
 * what was asked for is not there, 3 when the store cannot be used.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <expat.h>

#include "config.h"
#include "buf.h"
#include "diag.h"
#include "io.h"
#include "llmr.h"
#include "store.h"
#include "utf8.h"

static void usage(void) __attribute__((noreturn));

static const char synopsis[] =
    "usage: llmstore [-d PATH] put [-q] -t TOPIC -m MESSAGE [FILE]\n"
    "       llmstore [-d PATH] put [-q] --batch -t TOPIC FILE ...\n"
    "       llmstore [-d PATH] ls [-t TOPIC] [-m MESSAGE]\n"
    "                             [--format llm-query|llm-response]\n"
    "       llmstore [-d PATH] cat HASH | -m MESSAGE\n"
    "       llmstore [-d PATH] rm -m MESSAGE\n"
    "       llmstore [-d PATH] context TOPIC\n"
    "       llmstore [-d PATH] summary TOPIC [--version N]\n"
    "       llmstore [-d PATH] keywords TOPIC\n"
    "       llmstore [-d PATH] subjects TOPIC\n"
    "       llmstore [-d PATH] archive [--undo] TOPIC SUBJECT\n"
    "       llmstore [-d PATH] trace TERM [-t TOPIC]\n"
    "       llmstore [-d PATH] prompt set -M MODEL "
    "[--xml-schema-version N] [FILE]\n"
    "       llmstore [-d PATH] prompt get -M MODEL [--version N]\n"
    "       llmstore [-d PATH] prompt ls [-M MODEL]\n"
    "       llmstore [-d PATH] fsck\n"
    "       llmstore [-d PATH] export\n"
    "       llmstore [-d PATH] import [FILE]\n";

enum {
	OPT_BATCH = 256, OPT_FORMAT, OPT_UNDO, OPT_VERSION, OPT_XMLVERSION
};

/* Every option of every command; each command allows its own. */
static const struct option longopts[] = {
	{ "batch",		no_argument,		NULL, OPT_BATCH },
	{ "format",		required_argument,	NULL, OPT_FORMAT },
	{ "help",		no_argument,		NULL, 'h' },
	{ "message",		required_argument,	NULL, 'm' },
	{ "model",		required_argument,	NULL, 'M' },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "store",		required_argument,	NULL, 'd' },
	{ "topic",		required_argument,	NULL, 't' },
	{ "undo",		no_argument,		NULL, OPT_UNDO },
	{ "version",		required_argument,	NULL, OPT_VERSION },
	{ "xml-schema-version",	required_argument,	NULL, OPT_XMLVERSION },
	{ NULL,			0,			NULL, 0 }
};

/* The command line of one command. */
struct cmd {
	const char	*name;
	const char	*path;		/* the store */
	const char	*topic;
	const char	*message;
	const char	*model;
	const char	*format;
	long		 version;	/* --version N, 0 if not given */
	long		 xml_version;
	int		 batch;
	int		 undo;
	int		 argc;		/* operands */
	char		**argv;
};

/* A whole number from 1 on, for --version and --xml-schema-version. */
static long
whole(const char *opt, const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (arg[0] < '0' || arg[0] > '9' || *end != '\0' || errno != 0 ||
	    v < 1) {
		diag_warnx("%s must be a whole number from 1, not \"%s\"", opt,
		    arg);
		usage();
	}
	return v;
}

static void
not_empty(const char *opt, const char *arg)
{
	if (arg != NULL && *arg == '\0') {
		diag_warnx("%s must not be empty", opt);
		usage();
	}
}

/* A name of the command line (topic, message id, model, subject, term,
 * hash) must be UTF-8: the store writes it back as JSON. */
static void
valid_utf8(const char *what, const char *arg)
{
	struct buf q = BUF_INIT;
	size_t n;

	if (arg == NULL)
		return;
	n = strlen(arg);
	if (utf8_valid(arg, n) == n)
		return;
	store_quote(&q, arg, n);
	diag_warnx("%s must be valid UTF-8, not %s", what, buf_cstr(&q));
	buf_free(&q);
	usage();
}

/* The letter of an option in the "allowed" lists of run(). */
static int
letter(int ch)
{
	switch (ch) {
	case OPT_BATCH:
		return 'B';
	case OPT_FORMAT:
		return 'F';
	case OPT_UNDO:
		return 'U';
	case OPT_VERSION:
		return 'V';
	case OPT_XMLVERSION:
		return 'X';
	default:
		return ch;
	}
}

/* Reads the options that the command allows (letters of allowed). */
static void
parse(struct cmd *c, int argc, char **argv, const char *allowed)
{
	char shorts[32];
	const char *a;
	int ch;
	size_t n = 0;

	shorts[n++] = ':';
	for (a = allowed; *a != '\0'; a++)
		if (strchr("dmMqt", *a) != NULL) {
			shorts[n++] = *a;
			if (*a != 'q')
				shorts[n++] = ':';
		}
	shorts[n] = '\0';
	optind = 0;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		if (ch == ':') {
			diag_warnx("%s: %s needs a value", c->name,
			    argv[optind - 1]);
			usage();
		}
		if (ch == '?' || strchr(allowed, letter(ch)) == NULL) {
			diag_warnx("%s: unknown option %s", c->name,
			    argv[optind - 1]);
			usage();
		}
		switch (ch) {
		case 'd':
			c->path = optarg;
			break;
		case 'm':
			c->message = optarg;
			break;
		case 'M':
			c->model = optarg;
			break;
		case 'q':
			diag_setquiet(1);
			break;
		case 't':
			c->topic = optarg;
			break;
		case OPT_BATCH:
			c->batch = 1;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "llm-query") != 0 &&
			    strcmp(optarg, "llm-response") != 0) {
				diag_warnx("--format must be llm-query or "
				    "llm-response, not \"%s\"", optarg);
				usage();
			}
			c->format = optarg;
			break;
		case OPT_UNDO:
			c->undo = 1;
			break;
		case OPT_VERSION:
			c->version = whole("--version", optarg);
			break;
		case OPT_XMLVERSION:
			c->xml_version = whole("--xml-schema-version", optarg);
			break;
		}
	}
	c->argc = argc - optind;
	c->argv = argv + optind;
	not_empty("-t", c->topic);
	not_empty("-m", c->message);
	not_empty("-M", c->model);
	valid_utf8("-t", c->topic);
	valid_utf8("-m", c->message);
	valid_utf8("-M", c->model);
}

static void
operands(const struct cmd *c, int min, int max, const char *what)
{
	if (c->argc < min || c->argc > max) {
		diag_warnx("%s takes %s", c->name, what);
		usage();
	}
}

/* ----------------------------------------------------------------- put */

/* The message id of a --batch file: its base name without ".xml". */
static char *
batch_id(const char *file)
{
	const char *base = strrchr(file, '/');
	size_t n;
	char *id;

	base = base != NULL ? base + 1 : file;
	n = strlen(base);
	if (n > 4 && strcmp(base + n - 4, ".xml") == 0)
		n -= 4;
	if ((id = malloc(n + 1)) == NULL) {
		diag_warnx("out of memory");
		exit(DIAG_TROUBLE);
	}
	memcpy(id, base, n);
	id[n] = '\0';
	return id;
}

/* The message ids of a batch, checked before anything is read. */
static void
batch_names(const struct cmd *c)
{
	struct buf q = BUF_INIT;
	char *id;
	int i;

	for (i = 0; i < c->argc; i++) {
		id = batch_id(c->argv[i]);
		if (utf8_valid(id, strlen(id)) != strlen(id)) {
			free(id);
			store_quote(&q, c->argv[i], strlen(c->argv[i]));
			diag_warnx("put --batch: the message id of %s must be "
			    "valid UTF-8", buf_cstr(&q));
			buf_free(&q);
			usage();
		}
		free(id);
	}
}

/*
 * The operand on a line of put --batch, as sha256sum(1) writes a file
 * name: a name with a newline or a backslash has them escaped as \n and
 * \\, and the line then begins with a backslash.
 */
static void
batch_line(struct buf *out, const char *hash, const char *operand)
{
	const char *p;

	if (strpbrk(operand, "\n\\") != NULL)
		buf_addc(out, '\\');
	buf_adds(out, hash);
	buf_adds(out, "  ");
	for (p = operand; *p != '\0'; p++)
		if (*p == '\n')
			buf_adds(out, "\\n");
		else if (*p == '\\')
			buf_adds(out, "\\\\");
		else
			buf_addc(out, *p);
	buf_addc(out, '\n');
}

static int
put_one(struct store *s, struct llmr *v, const char *operand,
    const char *topic, const char *message, struct buf *in, struct buf *out,
    int batch)
{
	struct llmr_opts opts;
	struct store_doc d;
	int status;

	memset(&opts, 0, sizeof(opts));
	opts.file = io_name(operand);
	opts.type = LLMR_ANY;
	buf_reset(in);
	if (io_read_text(operand, in) != DIAG_OK)
		return DIAG_TROUBLE;
	status = llmr_check(v, in->data != NULL ? in->data : "", in->len,
	    &opts);
	llmr_report(v);
	if (status != DIAG_OK || llmr_doc(v) == NULL)
		return status != DIAG_OK ? status : DIAG_INVALID;
	memset(&d, 0, sizeof(d));
	d.file = opts.file;
	d.topic = topic;
	d.message = message;
	d.xml = in->data != NULL ? in->data : "";
	d.len = in->len;
	d.doc = llmr_doc(v);
	if ((status = store_put(s, &d)) != DIAG_OK)
		return status;
	if (batch)
		batch_line(out, d.hash, operand);
	else {
		buf_adds(out, d.hash);
		buf_addc(out, '\n');
	}
	return DIAG_OK;
}

static int
cmd_put(struct cmd *c, struct store *s)
{
	struct buf in = BUF_INIT, out = BUF_INIT;
	struct llmr *v = llmr_new();
	char *id;
	int i, status;

	if ((status = store_begin(s, 1)) != DIAG_OK)
		goto done;
	if (c->batch)
		for (i = 0; i < c->argc && status != DIAG_TROUBLE; i++) {
			id = batch_id(c->argv[i]);
			if (*id == '\0') {
				diag_warnx("%s: no message id in the file name",
				    c->argv[i]);
				status = diag_max(status, DIAG_INVALID);
			} else
				status = diag_max(status, put_one(s, v,
				    c->argv[i], c->topic, id, &in, &out, 1));
			free(id);
		}
	else
		status = put_one(s, v, c->argc > 0 ? c->argv[0] : "-",
		    c->topic, c->message, &in, &out, 0);
	if (status == DIAG_OK)
		status = store_commit(s);
	if (status == DIAG_OK)
		io_write(out.data, out.len, stdout);
	else
		store_rollback(s);
done:
	llmr_free(v);
	buf_free(&in);
	buf_free(&out);
	return status;
}

/* ------------------------------------------------------------- prompts */

static int
cmd_prompt_set(struct cmd *c, struct store *s)
{
	struct buf text = BUF_INIT, out = BUF_INIT;
	const char *operand = c->argc > 0 ? c->argv[0] : "-";
	int status = DIAG_INVALID;

	if (io_read(operand, &text) != DIAG_OK) {
		buf_free(&text);
		return DIAG_TROUBLE;
	}
	if (text.len == 0)
		diag_warnx("%s: the prompt is empty", io_name(operand));
	else if (utf8_valid(text.data, text.len) != text.len ||
	    memchr(text.data, '\0', text.len) != NULL)
		diag_warnx("%s: the prompt is not valid UTF-8",
		    io_name(operand));
	else if ((status = store_begin(s, 1)) == DIAG_OK) {
		status = store_prompt_set(s, c->model, c->xml_version > 0 ?
		    c->xml_version : 1, text.data, text.len, &out);
		if (status == DIAG_OK)
			status = store_commit(s);
		else
			store_rollback(s);
		/* what says "stored" only once it is */
		if (status == DIAG_OK &&
		    io_write(out.data, out.len, stdout) != 0)
			status = DIAG_TROUBLE;
	}
	buf_free(&text);
	buf_free(&out);
	return status;
}

static int
import(struct store *s, const char *operand)
{
	FILE *fp;
	int status;

	if ((fp = io_open(operand)) == NULL) {
		diag_warn("%s", operand);
		return DIAG_TROUBLE;
	}
	status = store_import(s, io_name(operand), fp);
	if (io_close(fp, operand) != DIAG_OK)
		status = DIAG_TROUBLE;
	return status;
}

/* ---------------------------------------------------------------- main */

/* Which commands there are, what they allow, and how they use the store. */
enum use { READS, WRITES };

static int
run(struct cmd *c, int argc, char **argv)
{
	struct store *s = NULL;
	const char *name = c->name, *sub = NULL;
	enum use use = READS;
	int status;

	if (strcmp(name, "put") == 0) {
		parse(c, argc, argv, "dmqtB");
		if (c->topic == NULL || (!c->batch && c->message == NULL)) {
			if (c->batch)
				diag_warnx("put --batch needs -t TOPIC");
			else
				diag_warnx("put needs -t TOPIC and -m MESSAGE");
			usage();
		}
		if (c->batch && c->message != NULL) {
			diag_warnx("put --batch takes the message ids from the "
			    "file names, not -m");
			usage();
		}
		if (c->batch) {
			operands(c, 1, 1 << 30, "one FILE or more with --batch");
			batch_names(c);
		} else
			operands(c, 0, 1, "one FILE at most");
		use = WRITES;
	} else if (strcmp(name, "ls") == 0) {
		parse(c, argc, argv, "dmtF");
		operands(c, 0, 0, "no operand");
	} else if (strcmp(name, "cat") == 0) {
		parse(c, argc, argv, "dm");
		operands(c, c->message != NULL ? 0 : 1,
		    c->message != NULL ? 0 : 1, "one HASH or -m MESSAGE");
		if (c->message == NULL)
			valid_utf8("HASH", c->argv[0]);
	} else if (strcmp(name, "rm") == 0) {
		parse(c, argc, argv, "dm");
		if (c->message == NULL) {
			diag_warnx("rm needs -m MESSAGE");
			usage();
		}
		operands(c, 0, 0, "no operand");
		use = WRITES;
	} else if (strcmp(name, "context") == 0 ||
	    strcmp(name, "keywords") == 0 || strcmp(name, "subjects") == 0) {
		parse(c, argc, argv, "d");
		operands(c, 1, 1, "one TOPIC");
		valid_utf8("TOPIC", c->argv[0]);
	} else if (strcmp(name, "summary") == 0) {
		parse(c, argc, argv, "dV");
		operands(c, 1, 1, "one TOPIC");
		valid_utf8("TOPIC", c->argv[0]);
	} else if (strcmp(name, "archive") == 0) {
		parse(c, argc, argv, "dU");
		operands(c, 2, 2, "TOPIC and SUBJECT");
		valid_utf8("TOPIC", c->argv[0]);
		valid_utf8("SUBJECT", c->argv[1]);
		use = WRITES;
	} else if (strcmp(name, "trace") == 0) {
		parse(c, argc, argv, "dt");
		operands(c, 1, 1, "one TERM");
		valid_utf8("TERM", c->argv[0]);
	} else if (strcmp(name, "prompt") == 0) {
		if (argc < 2) {
			diag_warnx("prompt needs set, get or ls");
			usage();
		}
		sub = argv[1];
		if (strcmp(sub, "set") == 0) {
			parse(c, argc - 1, argv + 1, "dMX");
			operands(c, 0, 1, "one FILE at most");
			use = WRITES;
		} else if (strcmp(sub, "get") == 0) {
			parse(c, argc - 1, argv + 1, "dMV");
			operands(c, 0, 0, "no operand");
		} else if (strcmp(sub, "ls") == 0) {
			parse(c, argc - 1, argv + 1, "dM");
			operands(c, 0, 0, "no operand");
		} else {
			diag_warnx("prompt needs set, get or ls, not \"%s\"",
			    sub);
			usage();
		}
		if (c->model == NULL && strcmp(sub, "ls") != 0) {
			diag_warnx("prompt %s needs -M MODEL", sub);
			usage();
		}
	} else if (strcmp(name, "fsck") == 0 || strcmp(name, "export") == 0) {
		parse(c, argc, argv, "d");
		operands(c, 0, 0, "no operand");
	} else if (strcmp(name, "import") == 0) {
		parse(c, argc, argv, "d");
		operands(c, 0, 1, "one FILE at most");
		use = WRITES;
	} else {
		diag_warnx("unknown command \"%s\"", name);
		usage();
	}
	if (c->path == NULL)
		c->path = getenv("LLMSTORE");
	if (c->path == NULL || *c->path == '\0')
		c->path = "llmstore.db";

	/* A conversation's first turn has no store yet: an empty context. */
	if (strcmp(name, "context") == 0 && access(c->path, F_OK) != 0 &&
	    errno == ENOENT) {
		store_empty_context(c->argv[0], stdout);
		return DIAG_OK;
	}
	if ((status = store_open(&s, c->path, use == WRITES)) != DIAG_OK) {
		store_close(s);
		return status;
	}
	if (strcmp(name, "put") == 0)
		status = cmd_put(c, s);
	else if (sub != NULL && strcmp(sub, "set") == 0)
		status = cmd_prompt_set(c, s);
	else if ((status = store_begin(s, use == WRITES)) == DIAG_OK) {
		if (strcmp(name, "ls") == 0)
			status = store_ls(s, c->topic, c->message, c->format,
			    stdout);
		else if (strcmp(name, "cat") == 0)
			status = store_cat(s, c->message == NULL ?
			    c->argv[0] : NULL, c->message, stdout);
		else if (strcmp(name, "rm") == 0)
			status = store_rm(s, c->message);
		else if (strcmp(name, "context") == 0)
			status = store_context(s, c->argv[0], stdout);
		else if (strcmp(name, "summary") == 0)
			status = store_summary(s, c->argv[0], c->version,
			    stdout);
		else if (strcmp(name, "keywords") == 0)
			status = store_keywords(s, c->argv[0], stdout);
		else if (strcmp(name, "subjects") == 0)
			status = store_subjects(s, c->argv[0], stdout);
		else if (strcmp(name, "archive") == 0)
			status = store_archive(s, c->argv[0], c->argv[1],
			    !c->undo);
		else if (strcmp(name, "trace") == 0)
			status = store_trace(s, c->argv[0], c->topic, stdout);
		else if (strcmp(name, "prompt") == 0 && strcmp(sub, "get") == 0)
			status = store_prompt_get(s, c->model, c->version,
			    stdout);
		else if (strcmp(name, "prompt") == 0)
			status = store_prompt_ls(s, c->model, stdout);
		else if (strcmp(name, "fsck") == 0)
			status = store_fsck(s);
		else if (strcmp(name, "export") == 0)
			status = store_export(s, stdout);
		else
			status = import(s, c->argc > 0 ? c->argv[0] : "-");
		if (status == DIAG_OK && use == WRITES)
			status = store_commit(s);
		else
			store_rollback(s);
	}
	store_close(s);
	return status;
}

static const struct option mainopts[] = {
	{ "help",	no_argument,		NULL, 'h' },
	{ "store",	required_argument,	NULL, 'd' },
	{ "version",	no_argument,		NULL, OPT_VERSION },
	{ NULL,		0,			NULL, 0 }
};

int
main(int argc, char *argv[])
{
	struct cmd c;
	int ch, status;

	memset(&c, 0, sizeof(c));
	diag_setprogname(argv[0]);
	signal(SIGXFSZ, SIG_IGN);	/* a file too large: a write error */
	argv[0] = (char *)diag_progname();
	while ((ch = getopt_long(argc, argv, "+d:h", mainopts, NULL)) != -1) {
		switch (ch) {
		case 'd':
			c.path = optarg;
			break;
		case 'h':
			fputs(synopsis, stdout);
			fputs("exit status: 0 done, 1 rejected or not found, "
			    "2 usage, 3 trouble\n", stdout);
			return io_fshut(stdout, "<stdout>");
		case OPT_VERSION:
			printf("llmstore (llmkit) %s\n", LLMKIT_VERSION);
			return io_fshut(stdout, "<stdout>");
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0) {
		diag_warnx("no command given");
		usage();
	}
	c.name = argv[0];
	status = run(&c, argc, argv);
	if (io_fshut(stdout, "<stdout>") != DIAG_OK)
		status = DIAG_TROUBLE;
	return status;
}

static void
usage(void)
{
	fputs(synopsis, stderr);
	exit(DIAG_USAGE);
}
