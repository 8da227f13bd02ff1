/*
 * llmq: the <llmQuery> document of seed 000 (section 1). A query is built
 * from parts that come from the command line, a raw text or JSON, each
 * part remembering where it came from so that a problem is reported
 * there; it is checked against the contract and written in the seed's
 * layout or in a one-line form. llmqin.c reads a query's text: the
 * command line, a message or --context file read whole, JSON lines one
 * at a time. Problems go out through diag_ only.
 */
#ifndef LLMKIT_LLMQ_H
#define LLMKIT_LLMQ_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/src.h"
#include "contract/contract.h"

/*
 * A text that values are found in: a file, or one line of it (the line
 * it starts on set with src_setline). text holds it when it was read
 * here; it must outlive every check of a query that has parts from it.
 */
struct llmq_input {
	struct src	 src;	/* name, bytes, positions made on demand */
	size_t		 base;	/* the byte offset of the text in its file */
	struct buf	 text;
};

/*
 * Where a part of a query came from. With an input, a problem is
 * reported as FILE:LINE:COL at the value's offset (or, for a raw value,
 * at the very character concerned); without one it is about the command
 * line, "tool: WHAT ...", with the value quoted after WHAT when quote is
 * set. The strings must outlive every check of the query.
 */
struct llmq_src {
	struct llmq_input	*in;	/* NULL: the command line */
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

/* What an option gives of a query (llmq_args_add). */
enum llmq_part {
	LLMQ_COUNT, LLMQ_KEYWORD, LLMQ_KEYWORDS, LLMQ_SUBJECT, LLMQ_SUBJECTS,
	LLMQ_TOPIC
};

/*
 * A query's command line: the parts its options give, kept in order
 * until every option is read, so that a usage error is reported alone;
 * and the arguments as given, since getopt_long reorders them, so that a
 * problem can name its argument by number.
 */
struct llmq_args {
	char		**argv;		/* the arguments as given */
	int		  argc;
	struct llmq_arg {
		enum llmq_part	 part;
		const char	*what;	/* how messages name the option */
		const char	*arg;
		int		 argn;
	}		 *v;
	size_t		  n;
	size_t		  cap;
};

/* llmq_check: the parts that are set; that a topic is set at all. */
#define LLMQ_PARTS	0x1
#define LLMQ_NEED_TOPIC	0x2

/* llmq_write: one line, with tab, newline and carriage return as &#N;. */
#define LLMQ_ONELINE	0x1

void	llmq_input_init(struct llmq_input *, const char *, const char *,
	    size_t);
void	llmq_input_free(struct llmq_input *);
void	llmq_args_init(struct llmq_args *, int, char *[]);
void	llmq_args_add(struct llmq_args *, enum llmq_part, const char *,
	    const char *);
int	llmq_args_parts(struct llmq *, const struct llmq_args *);
int	llmq_args_message(struct llmq *, const struct llmq_args *, int,
	    char *[]);
void	llmq_args_free(struct llmq_args *);
int	llmq_read_message(struct llmq *, struct llmq_input *, const char *);
int	llmq_read_context_file(struct llmq *, struct llmq_input *,
	    const char *);
int	llmq_read_lines(FILE *, const char *, FILE *, int);
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
int	llmq_read_context(struct llmq *, struct llmq_input *, size_t,
	    const json_t *, int);
int	llmq_read_line(struct llmq *, struct llmq_input *, size_t,
	    const json_t *);
void	llmq_merge(struct llmq *, struct llmq *);
int	llmq_check(const struct llmq *, unsigned);
void	llmq_write(const struct llmq *, struct buf *, unsigned);
size_t	llmq_trim(const char *, size_t, size_t *);

#endif
