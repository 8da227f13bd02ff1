/*
 * mcp_http: the remote transports of MCP, over libcurl. Streamable HTTP
 * (each message POSTed; an answer as JSON or as an SSE stream; sessions,
 * MCP-Protocol-Version, the 2026-07-28 headers, resumption of a broken
 * stream with Last-Event-ID, DELETE at the end) and the HTTP+SSE of
 * 2024-11-05 (a GET stream whose "endpoint" event names where to POST).
 * The messages a server sends land in its rbuf as lines, as a stdio
 * server's do; what happens to a request (a failed exchange, an expired
 * session) is left as a note that mcp.c takes with mcp_http_take.
 */
#ifndef LLMKIT_MCP_HTTP_H
#define LLMKIT_MCP_HTTP_H

#include <poll.h>

#include <jansson.h>

#include "base/buf.h"
#include "mcp/mcp.h"

#define MCP_HTTP_READY	(-1)	/* the id of a note: the transport is up */

/*
 * 0, or -1 when libcurl cannot be started: then, when it could not be
 * loaded (it is loaded with dlopen when the first remote server is
 * opened), mcp_http_trouble says why: "cannot load libcurl (REASON)".
 */
int	 mcp_http_open(struct mcp *, struct mcp_server *, int);
const char *mcp_http_trouble(void);
int	 mcp_http_legacy(const struct mcp_server *);
void	 mcp_http_agreed(struct mcp_server *, const char *);
void	 mcp_http_listen(struct mcp_server *);
void	 mcp_http_send(struct mcp_server *, const json_t *);
void	 mcp_http_cancel(struct mcp_server *, long long);
int	 mcp_http_poll(struct mcp *, struct pollfd *, size_t, int);
void	 mcp_http_perform(struct mcp *);
int	 mcp_http_take(struct mcp_server *, long long *, int *, long *,
	    struct buf *);
void	 mcp_http_close(struct mcp *, struct mcp_server *, int);
void	 mcp_http_end(struct mcp *);

#endif
