/*
 * llmq: the <llmQuery> document of seed 000 (section 1). A query is built
 * from parts that come from the command line, a raw text or JSON, each
 * part remembering where it came from so that a problem is reported
 * there; it is checked against the contract and written in the seed's
 * layout or in a one-line form. Problems go out through diag_ only.
 */
#ifndef LLMKIT_LLMQ_H
#define LLMKIT_LLMQ_H

#include <stddef.h>

#include <jansson.h>

#include "buf.h"

/* The largest count: every JSON reader holds it exactly (2^53 - 1). */
#define LLMQ_COUNT_MAX	9007199254740991ULL

/* A text that values are found in: a file, or one line of it. */
struct llmq_input {
	const char	*file;	/* display name, "<stdin>" for standard input */
	const char	*text;
	size_t		 len;
	unsigned long	 line;	/* the line text starts on, from 1 */
	size_t		 base;	/* the byte offset of text in the file */
};

/*
 * Where a part of a query came from. With an input, a problem is
 * reported as FILE:LINE:COL at the value's offset (or, for a raw value,
 * at the very character concerned); without one it is about the command
 * line, "tool: WHAT ...", with the value quoted after WHAT when quote is
 * set. The strings must outlive every check of the query.
 */
struct llmq_src {
	const struct llmq_input	*in;	/* NULL: the command line */
	size_t			 off;	/* the value's offset in in->text */
	int			 raw;	/* the value is in->text from off on,
					 * byte for byte (not a JSON string) */
	const char		*what;	/* how messages name it */
	const char		*path;	/* JSON Pointer, or NULL */
	int			 argn;	/* command line: argument number */
	int			 quote;	/* command line: show the value */
};

struct llmq_text {
	char		*s;	/* NUL-terminated, may hold NULs; NULL: unset */
	size_t		 len;
	struct llmq_src	 src;
};

struct llmq_list {
	char		**item;	/* trimmed, NUL-terminated */
	size_t		 *len;
	size_t		  n;
	size_t		  cap;
	int		  set;	/* given, even with no items */
	struct llmq_src	  src;	/* for the limit on the number of items */
};

struct llmq {
	struct llmq_text	 message;
	struct llmq_text	 topic;
	unsigned long long	 count;
	int			 count_set;
	struct llmq_src		 count_src;
	struct llmq_list	 subjects;
	struct llmq_list	 keywords;
	struct llmq_src		 src;		/* the query as a whole */
	const char		*no_topic;	/* what "no topic: " adds */
};

/* llmq_check: the parts that are set; that a topic is set at all. */
#define LLMQ_PARTS	0x1
#define LLMQ_NEED_TOPIC	0x2

/* llmq_write: one line, with tab, newline and carriage return as &#N;. */
#define LLMQ_ONELINE	0x1

void	llmq_init(struct llmq *);
void	llmq_free(struct llmq *);
void	llmq_set_text(struct llmq_text *, const char *, size_t,
	    const struct llmq_src *);
int	llmq_set_count(struct llmq *, const char *, const struct llmq_src *);
int	llmq_add_item(struct llmq_list *, const char *, size_t,
	    const struct llmq_src *);
int	llmq_add_items(struct llmq_list *, const char *, size_t,
	    const struct llmq_src *);
int	llmq_check_text(const char *, size_t, const struct llmq_src *);
int	llmq_read_context(struct llmq *, const struct llmq_input *, size_t,
	    const json_t *, int);
int	llmq_read_line(struct llmq *, const struct llmq_input *, size_t,
	    const json_t *);
void	llmq_merge(struct llmq *, struct llmq *);
int	llmq_check(const struct llmq *, unsigned);
void	llmq_write(const struct llmq *, struct buf *, unsigned);
size_t	llmq_trim(const char *, size_t, size_t *);
void	llmq_position(const struct llmq_input *, size_t, unsigned long *,
	    unsigned long *);

#endif
