/* cmd: program name, help, version, usage and the loop over operands. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "base/buf.h"
#include "base/cmd.h"
#include "base/diag.h"
#include "base/io.h"

/* --errors: how diagnostics about the input are written. */
static const struct cmd_choice errors_choices[] = {
	{ "github", DIAG_FMT_GITHUB }, { "json", DIAG_FMT_JSON },
	{ "text", DIAG_FMT_TEXT }, { NULL, 0 }
};

static const struct cmd	*self;
static const char	*sub;		/* the command of a tool of several */
static int		 out_said;	/* a failed write to stdout was told */

/*
 * Names the program after argv[0] (getopt's own messages too), and
 * ignores SIGXFSZ, so that a file grown past `ulimit -f` is a failed
 * write (status 3) rather than a killed tool. SIGPIPE keeps its default,
 * so that `tool | head` ends quietly; a tool that starts commands has
 * proc_init catch it, and a closed pipe is then a failed write, which
 * cmd_write reports (llmkit(7)).
 */
void
cmd_init(const struct cmd *c, char *argv[])
{
	self = c;
	diag_setprogname(argv[0]);
	signal(SIGXFSZ, SIG_IGN);
	argv[0] = (char *)diag_progname();
}

/*
 * For a tool of several commands (llmstore): from now on the help and
 * the usage are c's, those of the command called name, and an unknown
 * option or a missing value is "tool: NAME: unknown option -x" or
 * "tool: NAME: -x needs a value" (shorts begins with ':'). The caller
 * then sets optind to 0 and reads the command's options with cmd_getopt.
 */
void
cmd_sub(const struct cmd *c, const char *name)
{
	self = c;
	sub = name;
}

/*
 * getopt_long, but -h, --version and --errors are handled here and an
 * unknown option or a missing argument ends in the usage: what it returns
 * is one of the tool's own options, or -1 after the last.
 */
int
cmd_getopt(int argc, char *argv[], const char *shorts,
    const struct option *longs)
{
	int ch;

	if (sub != NULL)
		opterr = 0;
	for (;;) {
		ch = getopt_long(argc, argv, shorts, longs, NULL);
		if (sub != NULL && (ch == '?' || ch == ':'))
			cmd_usagex(ch == '?' ? "%s: unknown option %s" :
			    "%s: %s needs a value", sub, argv[optind - 1]);
		switch (ch) {
		case 'h':
			cmd_help();
		case CMD_OPT_VERSION:
			cmd_version();
		case CMD_OPT_ERRORS:
			diag_setformat(cmd_choice("--errors", optarg,
			    errors_choices));
			continue;
		case '?':
		case ':':
			cmd_usage();
		default:
			return ch;
		}
	}
}

/*
 * The usage, what each option does and the exit statuses on standard
 * output, a blank line between them; status 0.
 */
void
cmd_help(void)
{
	fputs(self->synopsis, stdout);
	if (self->options != NULL)
		printf("\n%s\n", self->options);
	printf("exit status: %s\n", self->statuses);
	exit(io_fshut(stdout, "<stdout>"));
}

/*
 * The options text of the command name (and s, or NULL) in the table
 * t; NULL when t has no such path.
 */
const char *
cmd_helpfor(const struct cmd_helppath *t, const char *name, const char *s)
{
	size_t n = strlen(name);

	for (; t->path != NULL; t++)
		if (strncmp(t->path, name, n) == 0 && (s == NULL ?
		    t->path[n] == '\0' : t->path[n] == ' ' &&
		    strcmp(t->path + n + 1, s) == 0))
			return t->text;
	return NULL;
}

void
cmd_version(void)
{
	printf("%s (llmkit) %s\n", diag_progname(), LLMKIT_VERSION);
	exit(io_fshut(stdout, "<stdout>"));
}

/* The usage on standard error; status 2. */
void
cmd_usage(void)
{
	fputs(self->synopsis, stderr);
	exit(DIAG_USAGE);
}

/* "tool: message", then the usage; status 2. */
void
cmd_usagex(const char *fmt, ...)
{
	struct buf msg = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	diag_warnx("%s", buf_cstr(&msg));
	buf_free(&msg);
	cmd_usage();
}

/* The value of the name arg in the table t, or -1 when t has no such name. */
int
cmd_choice_find(const char *arg, const struct cmd_choice *t)
{
	for (; t->name != NULL; t++)
		if (strcmp(arg, t->name) == 0)
			return t->value;
	return -1;
}

/*
 * Appends to b why arg is no choice of the option opt: "OPT must be A,
 * B or C, not "ARG"", the names in the table's order.
 */
void
cmd_choice_why(struct buf *b, const char *opt, const char *arg,
    const struct cmd_choice *t)
{
	size_t i;

	buf_printf(b, "%s must be ", opt);
	for (i = 0; t[i].name != NULL; i++)
		buf_printf(b, "%s%s", i == 0 ? "" : t[i + 1].name == NULL ?
		    " or " : ", ", t[i].name);
	buf_printf(b, ", not \"%s\"", arg);
}

/*
 * A choice argument arg of the option opt turned into its number by the
 * table t; a name that t has not ends in the usage, after the message
 * of cmd_choice_why.
 */
int
cmd_choice(const char *opt, const char *arg, const struct cmd_choice *t)
{
	struct buf why = BUF_INIT;
	int v;

	if ((v = cmd_choice_find(arg, t)) != -1)
		return v;
	cmd_choice_why(&why, opt, arg, t);
	diag_warnx("%s", buf_cstr(&why));
	buf_free(&why);
	cmd_usage();
}

/*
 * One operand: open it ("-" is standard input), process it, close it.
 * One that cannot be opened is reported ("tool: FILE: reason") and is
 * status 3. Returns the operand's status.
 */
int
cmd_operand(const char *operand, cmd_process_fn *fn, void *arg)
{
	FILE *fp;
	int status;

	if ((fp = io_open(operand)) == NULL) {
		diag_warn("%s", operand);
		return DIAG_TROUBLE;
	}
	status = fn(fp, io_name(operand), arg);
	return diag_max(status, io_close(fp, operand));
}

/*
 * The loop over operands (argc and argv past the options): none means
 * "-". Each is processed in turn and the highest status kept; an
 * unreadable one is reported and the next one read (status 3 at the end);
 * once standard output has failed nothing more is read, since nothing
 * more can be written. Returns the status; standard output stays open,
 * for a tool that writes a last line after the loop.
 */
int
cmd_loop(int argc, char *argv[], cmd_process_fn *fn, void *arg)
{
	int i, status = DIAG_OK;

	for (i = 0; i < (argc > 0 ? argc : 1) && !ferror(stdout); i++)
		status = diag_max(status,
		    cmd_operand(argc > 0 ? argv[i] : "-", fn, arg));
	return status;
}

/*
 * Says that standard output failed, with the reason the failed call gave
 * (so that no later system call's errno stands in for it), once.
 */
static int
out_failed(int e)
{
	if (!out_said) {
		out_said = 1;
		errno = e != 0 ? e : EIO;
		diag_warn("<stdout>");
	}
	return DIAG_TROUBLE;
}

/*
 * Writes n bytes on standard output, through its buffer. A failure (a
 * full disk; with SIGPIPE caught, a reader that has gone) is reported at
 * once, "tool: <stdout>: Broken pipe", and once. Returns DIAG_OK or
 * DIAG_TROUBLE.
 */
int
cmd_write(const void *p, size_t n)
{
	if (ferror(stdout))
		return DIAG_TROUBLE;
	errno = 0;
	if (io_write(p, n, stdout) != 0)
		return out_failed(errno);
	return DIAG_OK;
}

/* Flushes standard output, as cmd_write writes. */
int
cmd_flush(void)
{
	if (ferror(stdout))
		return DIAG_TROUBLE;
	errno = 0;
	if (fflush(stdout) != 0)
		return out_failed(errno);
	return DIAG_OK;
}

/*
 * cmd_loop, then cmd_exit: the status with standard output closed and
 * checked, for a tool that writes nothing after its operands.
 */
int
cmd_operands_exit(int argc, char *argv[], cmd_process_fn *fn, void *arg)
{
	return cmd_exit(cmd_loop(argc, argv, fn, arg));
}

/*
 * A tool's last step: standard output flushed and closed, checked; a
 * failure that cmd_write or cmd_flush told already is not told again.
 */
int
cmd_exit(int status)
{
	if (!out_said)
		return diag_max(status, io_fshut(stdout, "<stdout>"));
	(void)fclose(stdout);
	return DIAG_TROUBLE;
}
