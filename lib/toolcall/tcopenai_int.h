/*
 * tcopenai_int: what the two parts of lib/tcopenai share and no caller
 * of tcopenai.h sees: the reader, the documents it reads and the calls
 * it puts together. tcopenai.c reads the input (its form, its SSE lines
 * and events, its JSON values, where each lies) and is the API;
 * tcopenai_read.c reads each document (Chat Completions, Responses,
 * Ollama) and puts its calls together. The rules of both are at the top
 * of tcopenai.c.
 */
#ifndef LLMKIT_TCOPENAI_INT_H
#define LLMKIT_TCOPENAI_INT_H

#include <stddef.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "toolcall/tcopenai.h"

#define PTR_MAX		192	/* a JSON Pointer of ours, indices and all */
#define QUOTE_MAX	96	/* a name or an id quoted in a message */
#define INDEX_MAX	999999999L
#define WARNED_MAX	64	/* item types warned of, at most */
#define MARK_EVERY	4096	/* bytes between checkpoints of a walk */
#define TOLD_MAX	1024	/* Responses calls told, awaiting their item */

struct pos {
	unsigned long	line;
	unsigned long	col;
};

/* Where a run of a document's text begins in the input. */
struct seg {
	size_t		off;
	struct pos	at;
};

/* Where a piece of a call's arguments came from. */
struct piece {
	size_t		off;		/* in the arguments' text */
	struct pos	at;
};

/* A tool call being put together. */
struct pcall {
	int		 active;
	long		 index;		/* chat: its index; -1: function_call */
	int		 hasid;
	struct buf	 id, name, args;
	struct piece	*pieces;
	size_t		 npieces, piececap;
	struct pos	 at;		/* where it begins */
	const char	*badtype;	/* arguments of this JSON type */
	char		*type;		/* a type not "function" */
	unsigned long	 emitted;	/* Responses: told (the how manyth), */
					/* its item not done */
	struct buf	 keys[2];	/* Responses: its keys in the map */
};

enum form { F_START, F_JSON, F_SSE };

enum kind {
	K_NONE, K_COMPLETION, K_CHUNK, K_RESPONSE, K_REVENT, K_OLLAMA,
	K_ERROR, K_UNKNOWN, K_LEGACY
};

struct tcopenai {
	struct tcopenai_cb	 cb;
	int			 status;
	int			 stopped;	/* a callback said so */
	int			 dead;		/* the rest is not read */
	int			 over;		/* tcopenai_end was called */
	enum form		 form;
	int			 lines;		/* JSON lines 1, documents 0, */
						/* not known yet -1 */
	struct pos		 pos;		/* of the next byte */
	struct pos		 endat;		/* past its last non-blank */
	int			 poscr;		/* the last byte was a CR */
	size_t			 nbom;
	int			 started;	/* past a byte order mark */
	unsigned long		 ndocs;

	/* JSON: the value being read */
	struct buf		 cur;
	struct pos		 curat;
	int			 inval, instr, esc, sawnl, skipline;
	size_t			 depth;

	/* SSE: the line being read, and the event being built */
	struct buf		 line;
	struct pos		 lineat;
	int			 linecr;	/* the last line ended in CR */
	unsigned long		 nlines;	/* lines not empty */
	struct buf		 data;
	int			 hasdata;
	struct seg		*segs;
	size_t			 nsegs, segcap;
	struct buf		 event;
	int			 errevent;	/* the event is "error" */

	/* the stream */
	enum kind		 kind;
	int			 ended;		/* its own end was seen */
	int			 cut;		/* a call of it was cut */
	int			 choicewarn;
	json_t			*warned;	/* types warned of */
	struct pcall		 chat;		/* a chunk stream's call */
	long			 maxdone;	/* its highest index complete */
	struct pcall		 one;		/* a call given whole */
	struct pcall		*slots;		/* a Responses stream's calls */
	size_t			 nslots, slotcap;
	size_t			 ntold;		/* of them, told */
	unsigned long		 told;		/* calls told from slots */
	json_t			*slotmap;	/* key -> its slot */
	struct buf		 msg, tmp;

	int			 slow;		/* no fast path: the */
						/* fuzzer's reference */
};

void	tcopenai_say(struct tcopenai *, enum diag_severity, struct pos,
	    const char *, const char *, const struct tcopenai_call *,
	    const char *, ...) __attribute__((format(printf, 7, 8)));
void	tcopenai_read_doc(struct tcopenai *, const char *, size_t,
	    const struct seg *, size_t, const char *);
void	tcopenai_stream_close(struct tcopenai *, int, struct pos);
void	tcopenai_calls_free(struct tcopenai *);

#endif
