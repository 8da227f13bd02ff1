/*
 * diag: the exit statuses every tool shares, and the one place that prints
 * diagnostics: "FILE:LINE:COL: error: message" about input data (or one
 * JSON object per line with --errors=json, or one GitHub Actions workflow
 * command per line with --errors=github), "tool: message" otherwise.
 */
#ifndef LLMKIT_DIAG_H
#define LLMKIT_DIAG_H

#include <stdarg.h>

enum diag_status {
	DIAG_OK = 0,		/* every input accepted, all output written */
	DIAG_INVALID = 1,	/* at least one input read and rejected */
	DIAG_USAGE = 2,		/* unknown option, bad argument */
	DIAG_TROUBLE = 3,	/* unreadable input, failed write, no memory */
	DIAG_CRITICAL = 4,	/* jsonresp-check: valid, danger critical */
	DIAG_EMERGENCY = 5	/* jsonresp-check: valid, danger emergency */
};

enum diag_severity {
	DIAG_ERROR,
	DIAG_WARNING
};

/* How diag_item writes a diagnostic about the input (--errors). */
enum diag_format {
	DIAG_FMT_TEXT,		/* FILE:LINE:COL: error: MESSAGE */
	DIAG_FMT_JSON,		/* a JSON object a line */
	DIAG_FMT_GITHUB		/* ::error file=F,line=L,col=C,title=R::M */
};

/* Where a diagnostic points; line and col count from 1, col in characters. */
struct diag_loc {
	const char	*file;	/* display name, "<stdin>" for standard input */
	unsigned long	 line;
	unsigned long	 col;
	const char	*path;	/* JSON Pointer into a JSON input, or NULL */
};

/*
 * One diagnostic kept for later: a parser that must report all of a
 * document's problems in order, or turn them into feedback for a model,
 * collects them in a diag_list and prints the list at the end. path is
 * where in the document (a JSON Pointer, or an XPath-like path such as
 * /llmResponse/analysis/subject[2]), keyword a JSON Schema keyword
 * location; either may be NULL. With prefix, the line form shows the path
 * before the message ("FILE:L:C: error: PATH: MESSAGE").
 */
struct diag_item {
	enum diag_severity	 severity;
	unsigned long		 line;
	unsigned long		 col;
	const char		*rule;
	const char		*path;
	const char		*keyword;
	const char		*message;
	int			 prefix;
};

struct diag_list {
	struct diag_item	*v;
	size_t			 n;
	size_t			 cap;
};

#define DIAG_LIST_INIT	{ NULL, 0, 0 }

/* What diag_escape escapes beyond control characters and invalid UTF-8. */
#define DIAG_ESC_BACKSLASH	0x1
#define DIAG_ESC_QUOTE		0x2
#define DIAG_ESC_JSON		(DIAG_ESC_BACKSLASH | DIAG_ESC_QUOTE)
#define DIAG_ESC_PERCENT	0x4	/* %, CR, LF as %25, %0D, %0A */
#define DIAG_ESC_PROPERTY	0x8	/* and : and , as %3A and %2C */

struct buf;

void		 diag_escape(struct buf *, const char *, size_t, int);
void		 diag_setprogname(const char *);
const char	*diag_progname(void);
void		 diag_setjson(int);
void		 diag_setformat(enum diag_format);
void		 diag_setquiet(int);
void		 diag_at(enum diag_severity, const struct diag_loc *,
		    const char *, const char *, ...)
		    __attribute__((format(printf, 4, 5)));
void		 diag_vat(enum diag_severity, const struct diag_loc *,
		    const char *, const char *, va_list)
		    __attribute__((format(printf, 4, 0)));
void		 diag_schema(enum diag_severity, const struct diag_loc *,
		    const char *, const char *, const char *, const char *);
void		 diag_warnx(const char *, ...)
		    __attribute__((format(printf, 1, 2)));
void		 diag_warn(const char *, ...)
		    __attribute__((format(printf, 1, 2)));
void		 diag_item(const char *, const struct diag_item *);
void		 diag_item_json(struct buf *, const char *,
		    const struct diag_item *);
void		 diag_item_message(struct buf *, const struct diag_item *, int);
void		 diag_item_text(struct buf *, const char *,
		    const struct diag_item *);
void		 diag_item_github(struct buf *, const char *,
		    const struct diag_item *);
struct diag_item *diag_list_add(struct diag_list *, enum diag_severity,
		    unsigned long, unsigned long, const char *, const char *,
		    const char *, ...)
		    __attribute__((format(printf, 7, 8)));
void		 diag_list_sort(struct diag_list *);
void		 diag_list_print(const struct diag_list *, const char *);
void		 diag_list_clear(struct diag_list *);
void		 diag_list_free(struct diag_list *);
const char	*diag_quote(char *, size_t, const char *, size_t);
unsigned long	 diag_count(enum diag_severity);
int		 diag_max(int, int);

#endif
