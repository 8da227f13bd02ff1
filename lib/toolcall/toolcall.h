/*
 * toolcall: the streaming reader of seed 003's pure-XML tool calls. It is
 * fed a model's output in pieces of any size, finds every <tool> block in
 * the prose, and writes each call as one JSON line the moment its </tool>
 * has been read (or, with events, the prose, calls and errors in order).
 * A caller may take the records in a buffer and the problems in a list
 * instead (toolcall-parse's -o report). A model's reasoning (<think> ...
 * </think>) is never read for calls: reasoning says what it is done with,
 * begins whether the output begins inside it. It reads instead, with
 * TOOLCALL_FMT_OPENAI, a server's response or stream whose calls the
 * server has parsed, and writes them alike. toolcall_run
 * (lib/toolcall/toolcall_run.c) is toolcall-parse's run over its operands.
 */
#ifndef LLMKIT_TOOLCALL_H
#define LLMKIT_TOOLCALL_H

#include <stddef.h>
#include <stdio.h>

#include "base/cmd.h"

struct buf;
struct diag_list;
struct tooldefs;

struct toolcall_opts {
	int	events;		/* text, tool_call and error records */
	int	strict;		/* a bare "&" is an error, not a warning */
	int	unbuffered;	/* flush after every record */
	size_t	max_size;	/* largest call in bytes, <tool> to </tool> */
	const struct tooldefs *tools;	/* or NULL: the seed's typing */
	int	no_validate;	/* with tools: typed, not validated */
	int	thread;		/* thread-serialize's events, prose too */
	long	iteration;	/* theirs, with thread */
	int	format;		/* TOOLCALL_FMT_* */
	struct buf *sink;	/* or NULL: records go here, not to the FILE */
	struct diag_list *diags;	/* or NULL: problems kept, not said */
	int	reasoning;	/* TOOLCALL_REASON_* */
	int	begins;		/* TOOLCALL_BEGINS_*: inside reasoning? */
	/* or NULL: with thread, each piece of prose as it is read */
	void	(*prose)(void *, const char *, size_t);
	void	*prose_arg;
};

/*
 * What is done with the text of reasoning blocks: dropped, written as
 * reasoning events (with events), or, unsafely, read for calls as prose
 * is, the markers being prose too.
 */
#define TOOLCALL_REASON_SKIP	0
#define TOOLCALL_REASON_EVENTS	1
#define TOOLCALL_REASON_CALLS	2

/*
 * Whether the output begins inside reasoning that the chat template
 * opened: no, only explicit blocks are reasoning (zero, as a caller
 * that sets nothing gets it); yes, all up to the first closing marker
 * is; auto, what comes before the first marker is held until a marker
 * or the end says.
 */
#define TOOLCALL_BEGINS_NO	0
#define TOOLCALL_BEGINS_YES	1
#define TOOLCALL_BEGINS_AUTO	2

/*
 * The markup of calls read: the seed's <tool>, a dialect of open models
 * (the same numbers as lib/tcdialect's TCD_), or each call's own.
 */
#define TOOLCALL_FMT_TOOL	0
#define TOOLCALL_FMT_QWEN3	1
#define TOOLCALL_FMT_INVOKE	2
#define TOOLCALL_FMT_GLM	3
#define TOOLCALL_FMT_HERMES	4
#define TOOLCALL_FMT_HARMONY	5
#define TOOLCALL_FMT_DEEPSEEK	6
#define TOOLCALL_FMT_MISTRAL	7
#define TOOLCALL_FMT_LLAMA3	8
#define TOOLCALL_FMT_KIMI	9
#define TOOLCALL_FMT_PYTHONIC	10
#define TOOLCALL_FMT_AUTO	11

/*
 * Not a dialect of a model's text, and apart from their numbers: an
 * OpenAI-compatible server's response or stream, whose calls the server
 * has parsed (lib/tcopenai). Its reasoning comes apart from its text:
 * begins is not read, and reasoning calls is taken for skip.
 */
#define TOOLCALL_FMT_OPENAI	64

#define TOOLCALL_MAX_SIZE ((size_t)64 << 20)

struct toolcall;

struct toolcall	*toolcall_new(const struct toolcall_opts *, FILE *,
		    const char *);
int		 toolcall_feed(struct toolcall *, const char *, size_t);
int		 toolcall_end(struct toolcall *);
int		 toolcall_status(const struct toolcall *);
unsigned long long toolcall_work(const struct toolcall *);
unsigned long long toolcall_scanned(const struct toolcall *);
void		 toolcall_free(struct toolcall *);

/*
 * -o's numbers: the calls as they come, a verdict record an input, or a
 * JUnit XML report of the run.
 */
#define TOOLCALL_OUT_NONE	0
#define TOOLCALL_OUT_REPORT	1
#define TOOLCALL_OUT_JUNIT	2

struct checker;

/*
 * What toolcall-parse's command line asks of its run (toolcall_run): the
 * options of the parse, and the shared ones of a checker (lib/checker):
 * -o, --lines (a JSON string a line), --summary (the counts at the end).
 */
struct toolcall_args {
	struct toolcall_opts opts;	/* its diags and sink set by the run */
	const struct checker *ck;
};

extern const struct cmd_choice toolcall_reasonings[], toolcall_beginnings[],
		 toolcall_outputs[];

const struct cmd_choice *toolcall_formats(void);
int		 toolcall_run(const struct toolcall_args *, int, char *[]);

#endif
