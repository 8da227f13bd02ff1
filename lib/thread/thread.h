/*
 * thread: AgentEvent objects (seed 004) to the <thread> prompt document,
 * byte for byte what serializeThreadToXml(events, {responsePrefix})
 * returns, except that characters XML 1.0 forbids become U+FFFD. By
 * default the events a summary event summarizes are folded into it (left
 * out, the summary in their place); keep_summarized writes them all, as
 * the seed does. thread-serialize and llm-loop share this one fold.
 */
#ifndef LLMKIT_THREAD_H
#define LLMKIT_THREAD_H

#include <stdio.h>

#include <jansson.h>

#include "base/buf.h"

struct thread_opts {
	const char	*file;		/* input name for diagnostics */
	const char	*prefix;	/* response prefix, or NULL */
	size_t		 prefix_len;
	int		 strict;	/* warnings are errors */
	int		 keep_summarized; /* 0: fold summarized events */
};

/* A tool_output name, resolved when every tool_call has been seen. */
struct thread_hole {
	size_t	 offset;		/* where in text the name goes */
	json_t	*call_id;		/* the tool_result's toolCallId */
};

/*
 * One event of the input, as the fold sees it. Its line is text[off..end)
 * without its id, which goes at idat: the ids are positions among the
 * events written, known only when every summary has been read.
 */
struct thread_ev {
	size_t	 off, idat, end;	/* no text (off == end): skipped */
	size_t	 hole;			/* its name hole, or SIZE_MAX */
	double	 iter;			/* its iteration, when key is set */
	size_t	 list, nlist;		/* a summary's iterations in iters */
	size_t	 place;			/* where it is written */
	size_t	 next;			/* the next summary at the same place */
	unsigned char key;		/* iteration: a non-negative integer */
	unsigned char summary;		/* a good summary event */
	unsigned char out;		/* left out by a later summary */
};

struct thread_doc {
	struct buf		 text;
	struct thread_hole	*holes;
	size_t			 nholes;
	size_t			 holecap;
	json_t			*names;	/* toolCallId -> toolName */
	struct thread_ev	*evs;	/* every event of the input */
	size_t			 nevs, evcap;
	double			*iters;	/* the summaries' iterations */
	size_t			 niters, itercap;
	size_t			*order;	/* the events written, in order */
	size_t			 norder;
	size_t			 tail;	/* where "\n</thread>" starts */
	unsigned long		 events;	/* events written */
	unsigned long		 skipped;	/* of an unknown type */
	unsigned long		 folded;	/* left out by a summary */
};

void	thread_init(struct thread_doc *);
int	thread_serialize(struct thread_doc *, const char *, size_t,
	    const struct thread_opts *);
int	thread_write(struct thread_doc *, FILE *);
void	thread_free(struct thread_doc *);

#endif
