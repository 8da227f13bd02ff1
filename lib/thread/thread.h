/*
 * thread: AgentEvent objects (seed 004) to the <thread> prompt document,
 * byte for byte what serializeThreadToXml(events, {responsePrefix})
 * returns, except that characters XML 1.0 forbids become U+FFFD.
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
};

/* A tool_output name, resolved when every tool_call has been seen. */
struct thread_hole {
	size_t	 offset;		/* where in text the name goes */
	json_t	*call_id;		/* the tool_result's toolCallId */
};

struct thread_doc {
	struct buf		 text;
	struct thread_hole	*holes;
	size_t			 nholes;
	size_t			 holecap;
	json_t			*names;	/* toolCallId -> toolName */
	unsigned long		 events;
	unsigned long		 skipped;
};

void	thread_init(struct thread_doc *);
int	thread_serialize(struct thread_doc *, const char *, size_t,
	    const struct thread_opts *);
int	thread_write(struct thread_doc *, FILE *);
void	thread_free(struct thread_doc *);

#endif
