/*
 * cmd: the skeleton every tool's main() is built on. The program name,
 * -h, --version, --errors and usage() from one synopsis; one getopt loop
 * that handles those itself; and the one operand loop with the house's
 * rules (llmkit(7), "Operands").
 */
#ifndef LLMKIT_CMD_H
#define LLMKIT_CMD_H

#include <getopt.h>
#include <stdio.h>

#include "base/buf.h"

/*
 * What a tool tells the skeleton about itself. options is what -h
 * writes between the usage and the exit statuses: "options:\n" and a
 * line an option, the CMD_HELP that tools/help writes into the tool's
 * generated header help/TOOL.h from the completions' description of its
 * options; NULL for none.
 */
struct cmd {
	const char	*synopsis;	/* "usage: tool ...\n", one or more lines */
	const char	*statuses;	/* "0 valid, 1 invalid, 2 usage, 3 trouble" */
	const char	*options;	/* -h's lines about the options */
};

/*
 * For a tool of several commands, the options of each command path
 * ("put", "prompt set"), as help/TOOL.h has them in cmd_help_paths; a
 * table of them ends with a NULL path.
 */
struct cmd_helppath {
	const char	*path;
	const char	*text;
};

/*
 * The long options every tool has; a tool puts CMD_LONGOPTS in its own
 * table and numbers its own long-only options from CMD_OPT_FIRST.
 */
enum {
	CMD_OPT_ERRORS = 256,
	CMD_OPT_VERSION,
	CMD_OPT_FIRST
};

#define CMD_LONGOPTS \
	{ "errors",	required_argument,	NULL, CMD_OPT_ERRORS }, \
	{ "help",	no_argument,		NULL, 'h' }, \
	{ "version",	no_argument,		NULL, CMD_OPT_VERSION }

/* Like CMD_LONGOPTS, for a tool without --errors. */
#define CMD_LONGOPTS_NOERRORS \
	{ "help",	no_argument,		NULL, 'h' }, \
	{ "version",	no_argument,		NULL, CMD_OPT_VERSION }

/*
 * A name that a choice argument may be (-o json, --format hermes) and
 * the number it stands for, never -1; a table of them ends with a NULL
 * name, and its order is the order its usage message lists them in.
 */
struct cmd_choice {
	const char	*name;
	int		 value;
};

/*
 * One operand: fp is open for reading (standard input for "-"), name is
 * what diagnostics call it. Returns the operand's status.
 */
typedef int	 cmd_process_fn(FILE *fp, const char *name, void *arg);

void		 cmd_init(const struct cmd *, char *[]);
void		 cmd_sub(const struct cmd *, const char *);
int		 cmd_getopt(int, char *[], const char *, const struct option *);
void		 cmd_help(void) __attribute__((noreturn));
void		 cmd_version(void) __attribute__((noreturn));
void		 cmd_usage(void) __attribute__((noreturn));
void		 cmd_usagex(const char *, ...)
		    __attribute__((noreturn, format(printf, 1, 2)));
const char	*cmd_helpfor(const struct cmd_helppath *, const char *,
		    const char *);
int		 cmd_choice(const char *, const char *,
		    const struct cmd_choice *);
int		 cmd_choice_find(const char *, const struct cmd_choice *);
void		 cmd_choice_why(struct buf *, const char *, const char *,
		    const struct cmd_choice *);
int		 cmd_loop(int, char *[], cmd_process_fn *, void *);
int		 cmd_operands_exit(int, char *[], cmd_process_fn *, void *);
int		 cmd_operand(const char *, cmd_process_fn *, void *);
int		 cmd_write(const void *, size_t);
int		 cmd_flush(void);
int		 cmd_exit(int);

#endif
