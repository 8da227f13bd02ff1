/*
 * llmr: the validator of seed 000's <llmQuery> and <llmResponse>
 * documents, shared by llmr-validate and llmstore. llmr_check parses one
 * document, checks every rule of the contract and keeps the problems as
 * a diag_list in document order (each "FILE:LINE:COL: PATH: MESSAGE",
 * the path the element's, with a rule name); a valid document is also
 * kept parsed, as an llmr_doc. One validator (buffers that only grow, a
 * new expat parser for each document, so that none is spoiled by the one
 * before) serves any number of documents, one after another; what it
 * returns stays valid until the next llmr_check. Elements nest at most
 * XMLP_DEPTH_MAX deep. A text ends at its first NUL byte, which no
 * document holds; io_slurp_text reads an input that far and no further.
 * llmr_run (lib/llmr_run.c) is llmr-validate's run over its operands.
 */
#ifndef LLMKIT_LLMR_H
#define LLMKIT_LLMR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "base/diag.h"

enum llmr_type {
	LLMR_ANY,		/* either root is accepted */
	LLMR_QUERY,		/* <llmQuery> */
	LLMR_RESPONSE		/* <llmResponse> */
};

struct llmr_opts {
	const char	*file;		/* display name, "<stdin>" for stdin */
	enum llmr_type	 type;		/* the roots accepted */
	int		 find;		/* the first root element in text */
	int		 warnings;	/* SHOULD rules broken are warnings */
	int		 strict;	/* ... errors, and unknowns too */
	int		 hint;		/* text around the root: name --find */
};

/* Decoded text, NUL-terminated (XML text holds no NUL), with its length. */
struct llmr_text {
	const char	*s;
	size_t		 len;
};

struct llmr_keyword {
	struct llmr_text	 term;
	double			 confidence;
};

struct llmr_subject {
	unsigned long		 line;		/* of its start tag */
	unsigned long		 col;
	struct llmr_text	 name;
	struct llmr_text	 description;
	int			 is_new;
	struct llmr_keyword	*keywords;
	size_t			 nkeywords;
};

/* A valid document; the members of the other type are empty. */
struct llmr_doc {
	enum llmr_type		 type;
	/* <llmResponse> */
	struct llmr_text	 response;
	struct llmr_subject	*subjects;
	size_t			 nsubjects;
	struct llmr_text	 summary;
	/* <llmQuery> */
	struct llmr_text	 message;
	struct llmr_text	 topic_id;
	uint64_t		 message_count;
	struct llmr_text	*active_subjects;	/* items, trimmed */
	size_t			 nactive_subjects;
	struct llmr_text	*recent_keywords;
	size_t			 nrecent_keywords;
};

/* What llmr_run writes on standard output for each document (-o). */
enum llmr_output {
	LLMR_OUT_NONE,
	LLMR_OUT_JSON,		/* a valid one as a line of JSON */
	LLMR_OUT_TEXT,		/* a valid one's response or message */
	LLMR_OUT_REPORT,	/* lib/verdict's record, valid or not */
	LLMR_OUT_JUNIT		/* a JUnit XML report of the run */
};

struct checker;

/*
 * llmr-validate's run: the checks, and the shared options of a checker
 * (lib/checker): -o (enum llmr_output), --feedback (the message for a
 * model), --lines (a JSON string a line), --summary (the counts, last).
 */
struct llmr_run_opts {
	struct llmr_opts	 check;		/* its file set per operand */
	const struct checker	*ck;
};

struct llmr;

struct llmr		*llmr_new(void);
void			 llmr_free(struct llmr *);
int			 llmr_check(struct llmr *, const char *, size_t,
			    const struct llmr_opts *);
const struct llmr_doc	*llmr_doc(const struct llmr *);
const struct diag_item	*llmr_diags(const struct llmr *, size_t *);
void			 llmr_report(const struct llmr *);
void			 llmr_json(struct buf *, const struct llmr_doc *);
void			 llmr_feedback(struct buf *, const struct llmr *,
			    const char *, size_t);
void			 llmr_place(struct llmr *, const char *, size_t,
			    size_t, unsigned long);

extern const struct cmd_choice llmr_outputs[], llmr_types[];

int			 llmr_run(const struct llmr_run_opts *, int, char *[]);

#endif
