/*
 * store: llmstore's SQLite file of seed 001's objects — XML message
 * attachments (inline up to 1 KiB, else a blob addressed by its SHA-256),
 * and the keywords, subjects, summary versions and system prompt
 * templates taken from them. Every function returns a diag status;
 * problems are reported through diag as "PATH: message". Data is written
 * to the FILE given, one JSON object per line.
 */
#ifndef LLMKIT_STORE_H
#define LLMKIT_STORE_H

#include <stdio.h>

#include "base/buf.h"
#include "base/sha256.h"
#include "contract/llmr.h"

#define STORE_INLINE_MAX	1024	/* bytes of XML kept in the row */
#define STORE_SCHEMA		1	/* PRAGMA user_version */
#define STORE_APPLICATION_ID	0x4C4C4D53	/* "LLMS" */
#define STORE_CONTEXT_SUBJECTS	20
#define STORE_CONTEXT_KEYWORDS	50
/* What import takes and fsck accepts (put never goes beyond them). */
#define STORE_SEQ_MAX		1000000000000LL	/* a message's place */
#define STORE_TIME_MAX		999999999999999LL	/* ms (LLMSTORE_NOW) */
#define STORE_COUNT_MAX		9007199254740991LL	/* 2^53 - 1 */

struct store;

/* One document for store_put. */
struct store_doc {
	const char		*file;		/* for diagnostics */
	const char		*topic;
	const char		*message;
	const char		*xml;
	size_t			 len;
	const struct llmr_doc	*doc;		/* the validated document */
	char			 hash[SHA256_HEX];	/* out: the attachment's */
};

int	store_open(struct store **, const char *, int);
void	store_close(struct store *);
int	store_begin(struct store *, int);
int	store_commit(struct store *);
void	store_rollback(struct store *);

int	store_put(struct store *, struct store_doc *);
int	store_ls(struct store *, const char *, const char *, const char *,
	    FILE *);
int	store_cat(struct store *, const char *, const char *, FILE *);
int	store_rm(struct store *, const char *);
int	store_context(struct store *, const char *, FILE *);
void	store_empty_context(const char *, FILE *);
int	store_summary(struct store *, const char *, long, FILE *);
int	store_keywords(struct store *, const char *, FILE *);
int	store_subjects(struct store *, const char *, FILE *);
int	store_archive(struct store *, const char *, const char *, int);
int	store_trace(struct store *, const char *, const char *, FILE *);
int	store_prompt_set(struct store *, const char *, long, const char *,
	    size_t, struct buf *);
int	store_prompt_get(struct store *, const char *, long, FILE *);
int	store_prompt_ls(struct store *, const char *, FILE *);
int	store_fsck(struct store *);
int	store_export(struct store *, FILE *);
int	store_import(struct store *, const char *, FILE *);

/* The options and operands of one command of llmstore(1). */
struct store_args {
	const char	*path;		/* -d: the store */
	const char	*topic;		/* -t */
	const char	*message;	/* -m */
	const char	*model;		/* -M */
	const char	*format;	/* --format */
	long		 revision;	/* --revision N, 0 if not given */
	long		 xml_version;	/* --xml-schema-version N, 0 if not */
	int		 batch;		/* --batch */
	int		 undo;		/* --undo */
	int		 argc;		/* the operands */
	char		**argv;
};

/*
 * What a command takes (store_args_check): the options it needs, as its
 * usage error says them ("rm needs -m MESSAGE": each -X in it), and its
 * operands: how many, what a wrong count says, and the names of the
 * first two, which must be UTF-8 (NULL: not checked).
 */
struct store_rules {
	const char	*need;
	int		 min;
	int		 max;
	const char	*takes;		/* "one TOPIC" */
	const char	*names[2];	/* "TOPIC", "SUBJECT" */
	int		 or_message;	/* -m stands for the operands */
};

/* How a command uses the store (store_run). */
#define STORE_WRITES	0x1	/* writes: a missing store is made */
#define STORE_OWNTX	0x2	/* begins and commits its transaction */
#define STORE_MAYBE	0x4	/* a missing store is given as NULL */

typedef int	store_cmd_fn(struct store *, const struct store_args *);

int		store_run(int, store_cmd_fn *, const struct store_args *);
store_cmd_fn	store_cmd_put, store_cmd_ls, store_cmd_cat, store_cmd_rm,
		store_cmd_context, store_cmd_summary, store_cmd_keywords,
		store_cmd_subjects, store_cmd_archive, store_cmd_trace,
		store_cmd_prompt_set, store_cmd_prompt_get,
		store_cmd_prompt_ls, store_cmd_fsck, store_cmd_export,
		store_cmd_import;
char		*store_batch_id(const char *);
int		 store_args_check(const char *, const struct store_rules *,
		    const struct store_args *, struct buf *);

void	store_normalize(struct buf *, const char *, size_t);
void	store_quote(struct buf *, const char *, size_t);

#endif
