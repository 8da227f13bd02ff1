/*
 * mcp_int: what the files of lib/mcp share and no tool sees. A request
 * of mcp.c's conversation (mcp_request), how it ended (struct reply),
 * and the server's lifecycle (mcp_start, mcp_ready), for the parts that
 * speak to servers beside tools/call: resources, prompts, transports.
 * A call in flight (struct mcp_job), and the pieces of the conversation
 * that mcp_start and mcp_call take from mcp.c and give back to it.
 */
#ifndef LLMKIT_MCP_INT_H
#define LLMKIT_MCP_INT_H

#include <limits.h>
#include <stdarg.h>

#include <jansson.h>

#include "base/buf.h"
#include "mcp/mcp.h"

#define NONE	ULLONG_MAX	/* took, call_at: not known, no call */

/* How a request ended. */
enum {
	R_PENDING,
	R_RESULT,		/* its result came */
	R_ERROR,		/* a JSON-RPC error came */
	R_FAIL			/* no answer: see fail */
};

enum {
	F_TIMEOUT = 1,		/* none within the time limit */
	F_DIED,			/* the server ended */
	F_BROKEN,		/* the server wrote what is not JSON-RPC */
	F_CAUGHT,		/* a stop signal came */
	F_TROUBLE,		/* the server cannot be started or spoken to */
	F_LONG,			/* the server wrote a line past --max-line */
	F_FAILED		/* a remote server's exchange failed */
};

struct reply {
	int		 kind;
	int		 fail;
	json_t		*doc;		/* the response, owning what follows */
	json_t		*result;
	json_t		*error;
	struct buf	 why;		/* R_FAIL: what happened */
	int		 unread;	/* F_DIED: the request was never read */
	long		 status;	/* a remote server's HTTP status, or 0 */
};

/* A call in flight: mcp_call_run's, or one of -j's (mcp_job_start). */
struct mcp_job {
	const struct mcp_call *c;
	struct mcp_outcome *o;
	struct mcp_server *s;
	struct reply	 r;
	struct buf	 label;		/* "SERVER: TOOL", for its progress */
	long long	 id;		/* its tools/call, or 0 (a task's) */
	long long	 token;		/* its progress token */
	double		 deadline;	/* -T's, reset by its progress */
	double		 hard;		/* --max-time's, or 0 */
	unsigned long long call_at;	/* where its tools/call begins */
	int		 again;		/* it may be sent once more */
	int		 late;		/* it ran past --max-time */
	int		 state;
};

enum {
	J_READY,			/* routed, not sent */
	J_WAITING,			/* sent; its reply in r when it comes */
	J_REPLIED,			/* r holds how it ended */
	J_DONE				/* its outcome is written */
};

void	 mcp_reply_reset(struct reply *);
void	 mcp_rpc_error_text(struct buf *, const json_t *);
void	 mcp_notify(struct mcp_server *, const char *, json_t *);
void	 mcp_flush_out(struct mcp_server *);
void	 mcp_settle(struct mcp *);
json_t	*mcp_modern_meta(void);
long long mcp_send_request(struct mcp_server *, const char *, json_t *);
double	 mcp_limit(const struct mcp *, const struct mcp_server *);
int	 mcp_pump(struct mcp *, struct mcp_server *, long long, double,
	    struct reply *, int);
long long mcp_request(struct mcp *, struct mcp_server *, const char *,
	    json_t *, double, struct reply *);
void	 mcp_trouble(struct mcp *, struct mcp_server *, struct reply *,
	    const char *, ...) __attribute__((format(printf, 4, 5)));
void	 mcp_lost(struct mcp *, struct mcp_server *, struct reply *,
	    const char *);
int	 mcp_start(struct mcp *, struct mcp_server *, struct reply *);
int	 mcp_ready(struct mcp *, struct mcp_server *, struct reply *);
int	 mcp_has_cap(const struct mcp_server *, const char *);
int	 mcp_no_tools(const struct mcp_server *);
json_t	*mcp_client_caps(const struct mcp *);
json_t	*mcp_ask(struct mcp *, struct mcp_server *, const char *,
	    const json_t *, json_t **);
char	**mcp_words(const char *, size_t *);
int	 mcp_tools_of(struct mcp *, struct mcp_server *, struct reply *);
struct mcp_server *mcp_route(struct mcp *, const struct mcp_call *,
	    struct mcp_outcome *, struct reply *);
int	 mcp_idle(struct mcp *, double);
void	 mcp_progress_say(struct mcp *, const char *);
void	 mcp_progress_done(struct mcp *);
int	 mcp_task_wanted(struct mcp *, struct mcp_server *, const char *,
	    struct reply *);
long long mcp_task_call(struct mcp *, struct mcp_server *, json_t *, double,
	    struct reply *);

#endif
