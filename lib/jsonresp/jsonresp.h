/*
 * jsonresp: seed 002's checks of a model's JSON response, as
 * jsonresp-check makes them. jsonresp_check takes one document of a
 * source (a file, or a line of JSON lines): it finds it (the whole text,
 * the inside of a Markdown code fence, or with find the first JSON value
 * in prose), validates it against a compiled Draft-07 schema and, with
 * seed, against the rules of seed 002 that JSON Schema cannot state and
 * its safety levels. The problems are kept as a diag_list in the order
 * they were found, each with its byte offset until the document is done;
 * then all are placed (line and column) in one pass over the text.
 * jsonresp_feedback renders that list as the message seed 002 sends back
 * to the model, jsonresp_prompt puts a schema into seed 002's prompt,
 * and jsonresp_user_prompt makes a prompt for a user's schema. With clean, an accepted document's text is kept without its
 * fence, prose and white space, for jsonresp_clean; jsonresp_report
 * renders a document's verdict and problems as lib/verdict's record.
 * A checker serves any number of documents, one after another;
 * what it holds stays valid until the next jsonresp_check.
 */
#ifndef LLMKIT_JSONRESP_H
#define LLMKIT_JSONRESP_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "base/diag.h"
#include "base/src.h"
#include "json/jsonx.h"
#include "schema/jsschema.h"

/* The name of the default schema, in messages about it. */
#define JSONRESP_SCHEMA_NAME	"llm-response.schema.json"

struct jsonresp_opts {
	const struct jsschema	*schema;
	int			 seed;		/* seed 002's rules, safety */
	int			 find;		/* the first value in prose */
	int			 strict;	/* a fenced response is refused */
	int			 clean;		/* keep an accepted one's text */
};

/* What -o writes on standard output for each document. */
enum jsonresp_output {
	JSONRESP_OUT_NONE,
	JSONRESP_OUT_JSON,	/* the accepted document, compact */
	JSONRESP_OUT_REPORT,	/* a line of verdict, status and errors */
	JSONRESP_OUT_JUNIT	/* a JUnit XML report of the run */
};

struct jsonresp;
struct checker;

/*
 * A line of --lines, reported after jsonresp_lines has checked it;
 * returns 0 to go on, -1 to stop reading (the output has failed).
 */
typedef int	 jsonresp_report_fn(const struct jsonresp *, int, void *);

struct jsonresp	*jsonresp_new(const struct jsonresp_opts *);
void		 jsonresp_free(struct jsonresp *);
int		 jsonresp_check(struct jsonresp *, struct src *);
int		 jsonresp_lines(struct jsonresp *, FILE *, const char *,
		    jsonresp_report_fn *, void *);
const struct diag_list *jsonresp_diags(const struct jsonresp *);
void		 jsonresp_feedback(struct buf *, const struct jsonresp *);
extern const struct cmd_choice jsonresp_outputs[];

int		 jsonresp_run(const struct jsonresp_opts *,
		    const struct checker *, int, char *[]);
void		 jsonresp_clean(struct buf *, const struct jsonresp *);
void		 jsonresp_report(struct buf *, const struct jsonresp *,
		    const char *, int, int);
void		 jsonresp_junit(struct buf *, const struct jsonresp *,
		    const char *, int, int);

int		 jsonresp_unfence(const char *, size_t *, size_t *);
json_t		*jsonresp_find(const char *, size_t, size_t, size_t *,
		    struct jsonx_error *);
void		 jsonresp_seed_rules(const json_t *, struct diag_list *);
int		 jsonresp_safety(const json_t *, struct buf *);

int		 jsonresp_schema_read(const char *, struct buf *);
struct jsschema	*jsonresp_schema(const char *, const char *, size_t,
		    const struct jsschema_opts *);
struct jsschema	*jsonresp_builtin_schema(const struct jsschema_opts *);
/* How the user's schema is linted: --strict-schema, --keyword's lists. */
struct jsonresp_lint {
	int		 strict;
	const char *const *keywords;	/* NAME[,NAME...] each */
	size_t		 nkeywords;
};

size_t		 jsonresp_schema_lint(const char *, const char *, size_t,
		    const struct jsschema *, const struct jsonresp_lint *);
void		 jsonresp_prompt(struct buf *, const char *, size_t);
int		 jsonresp_user_prompt(struct buf *, const char *, const char *,
		    size_t, int);

#endif
