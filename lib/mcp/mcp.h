/*
 * mcp: a client of the Model Context Protocol over stdio. The servers of
 * an editor's {"mcpServers": {...}} configuration, each started on first
 * use without a shell and spoken to in JSON-RPC 2.0, one message a line;
 * the lifecycle of the 2026-07-28 revision (server/discover, _meta on
 * every request) or, failing that, of 2025-11-25 (initialize); tool calls
 * routed by server or by tool name, and their answers as the tool_result
 * and error events that thread-serialize reads.
 */
#ifndef LLMKIT_MCP_H
#define LLMKIT_MCP_H

#include <stddef.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "base/proc.h"

#define MCP_MODERN_VERSION	"2026-07-28"
#define MCP_LEGACY_VERSION	"2025-11-25"
#define MCP_TIMEOUT		60.0	/* seconds, a request's default */
#define MCP_GRACE		2.0	/* each step of a server's shutdown */
#define MCP_MAX_PAGES		1000	/* tools/list pages of one server */
#define MCP_MAX_LINE		((size_t)64 << 20)	/* --max-line */
#define MCP_ERR_LINE		4096	/* bytes of a server's line said */
#define MCP_MAX_NOISE		100	/* lines not JSON-RPC that break one */

/* --protocol: negotiate, or pin an era. */
enum mcp_proto {
	MCP_PROTO_AUTO,
	MCP_PROTO_MODERN,
	MCP_PROTO_LEGACY
};

/* --elicit: how a server's elicitation/create is answered. */
enum mcp_elicit {
	MCP_ELICIT_ASK,			/* on the terminal; declined without */
	MCP_ELICIT_DEFAULTS,		/* accepted with the schema's defaults */
	MCP_ELICIT_DECLINE
};

/* How a server is reached. */
enum mcp_transport {
	MCP_STDIO,			/* a command, over its stdin and stdout */
	MCP_HTTP,			/* a URL: Streamable HTTP, else HTTP+SSE */
	MCP_SSE				/* a URL: the HTTP+SSE of 2024-11-05 */
};

struct mcp_http;
struct mcp_job;

struct mcp_server {
	char		 *name;
	enum mcp_transport transport;
	char		 *url;		/* remote: its address */
	char		**headers;	/* remote: "Name: value"s, or NULL */
	char		 *unusable;	/* why it cannot be used, or NULL */
	double		  timeout;	/* its own request time limit, or 0 */
	int		  disabled;	/* declared off: never started */
	char		**argv;		/* the command and its arguments */
	char		**env;		/* declared "NAME=VALUE"s, or NULL */
	char		 *cwd;		/* or NULL: ours */
	const char	 *file;		/* where it was declared */
	struct proc_child ch;
	int		  running;
	int		  modern;	/* the 2026-07-28 era was agreed */
	int		  reaped;	/* its process has ended, as end says */
	struct proc_result end;
	long long	  next_id;
	long long	  last_sent;	/* the request last sent, if a line's last */
	struct buf	  wbuf;		/* messages not yet written */
	size_t		  woff;
	unsigned long long wrote;	/* bytes written to its input */
	unsigned long long took;	/* of them, those it may have read */
	unsigned long long call_at;	/* where the call waited on begins */
	struct buf	  rbuf;		/* its standard output, a line's start */
	size_t		  rscan;	/* rbuf up to here holds no newline */
	struct buf	  ebuf;		/* its standard error, a line's start */
	size_t		  escan;	/* see err_lines */
	size_t		  ecut;		/* bytes cut from ebuf's line */
	unsigned	  noise;	/* its lines not JSON-RPC, this life */
	json_t		 *tools;	/* its tools, once listed */
	json_t		 *caps;		/* the capabilities it declared */
	struct mcp_http	 *http;		/* remote: the transport's state */
};

/* A line of a server's standard error or a log message, as it is said. */
typedef void	mcp_note_fn(void *, const char *server, const char *text,
		    size_t len);

struct mcp {
	struct mcp_server *v;		/* sorted by name */
	size_t		   n;
	size_t		   cap;		/* room in v */
	size_t		  *slots;	/* by names' hashes: index + 1, or 0 */
	struct mcp_server *off;		/* the disabled, sorted by name */
	size_t		   noff;
	size_t		   nslots;	/* a power of two, or 0 */
	size_t		   max_line;	/* the longest line of a server's */
	double		   timeout;
	enum mcp_proto	   proto;
	int		   trouble;	/* a server failed or broke: status 3 */
	int		   caught;	/* a stop signal came */
	char		 **roots;	/* --root: absolute paths */
	size_t		   nroots;
	enum mcp_elicit	   elicit;
	char		 **sampling;	/* --sampling: the command, or NULL */
	double		   paused;	/* seconds spent answering a server */
	double		   max_time;	/* --max-time: a call's bound, or 0 */
	double		   hard;	/* when the call waited on must end */
	long long	   token;	/* the call waited on's progress token */
	struct mcp_job	 **jobs;	/* -j: the calls in flight */
	size_t		   njobs;
	size_t		   jobs_cap;
	int		   jobs_done;	/* a reply to one of them came */
	size_t		   parallel;	/* -j: calls at once, 1 by default */
	int		   unordered;	/* --unordered: events as they end */
	const char	  *label;	/* "SERVER: TOOL" of that call */
	int		   progressed;	/* it reported progress */
	int		   tasks;	/* --tasks: optional ones as tasks */
	int		   progress_line; /* a progress line is on the tty */
	void		  *curlm;	/* the remote servers' transfers */
	const char	  *cacert;	/* --cacert, or NULL */
	mcp_note_fn	  *note;
	void		  *note_arg;
};

/* One tool call read from an input record (mcp_call_read). */
struct mcp_call {
	const char	*tool;
	const char	*server;	/* or NULL when none is named */
	json_t		*args;
	char		*id;		/* toolCallId, made when not given */
	json_t		*iteration;	/* the number given, or NULL: 0 */
	const char	*ptr_tool;	/* JSON Pointers, for diagnostics */
	const char	*ptr_server;
};

/* What a server sent, read by mcp_msg_parse. */
enum mcp_msg_kind {
	MCP_MSG_BAD,
	MCP_MSG_RESPONSE,
	MCP_MSG_REQUEST,
	MCP_MSG_NOTIFICATION
};

struct mcp_msg {
	enum mcp_msg_kind kind;
	json_t		*doc;
	json_t		*id;		/* request or response, or NULL */
	int		 id_integer;	/* a number id written as an integer */
	const char	*method;	/* request or notification */
	json_t		*params;	/* or NULL */
	json_t		*result;	/* response: its result, or NULL */
	json_t		*error;		/* response: its error, or NULL */
	char		 why[96];	/* bad: what is wrong with it */
};

/* What the answer to the server/discover probe says (mcp_discover_era). */
enum mcp_era {
	MCP_ERA_LEGACY,			/* initialize is to be tried */
	MCP_ERA_MODERN,			/* 2026-07-28 */
	MCP_ERA_NONE			/* no revision we speak */
};

/* What a call became: its event, and a diagnostic for a failed call. */
struct mcp_outcome {
	struct buf	 record;	/* the event line, newline ended */
	struct buf	 message;	/* the error, or empty */
	const char	*ptr;		/* where the fault points, or NULL */
	const char	*server;	/* the server it went to, or NULL */
	int		 status;	/* 0, 1, or 3 for trouble */
	int		 refused;	/* not sent: the routing refused it */
};

/* What mcp_run does. */
enum mcp_run_mode {
	MCP_RUN_CALLS,			/* the calls of the input records */
	MCP_RUN_TOOLS,			/* --list-tools */
	MCP_RUN_SERVERS,		/* --list-servers */
	MCP_RUN_RESOURCES,		/* --list-resources */
	MCP_RUN_PROMPTS,		/* --list-prompts */
	MCP_RUN_READ,			/* --read */
	MCP_RUN_PROMPT			/* --get-prompt */
};

struct mcp_ask;

void	 mcp_init(struct mcp *);
int	 mcp_config_load(struct mcp *, const char *, const char *, size_t);
int	 mcp_config_file(struct mcp *, const char *);
size_t	 mcp_jsonc_blank(char *, size_t);
int	 mcp_expand(struct buf *, const char *, const char *, struct buf *);
int	 mcp_gemini_file(const char *);
void	 mcp_env_add(char ***, size_t *, const char *, size_t, const char *);
void	 mcp_env_dedupe(char **, size_t *);
unsigned long mcp_dotenv(char ***, size_t *, const char *, size_t);
const char *mcp_disabled(struct mcp *, const char *);
extern const struct cmd_choice mcp_protocols[];
extern const struct cmd_choice mcp_elicits[];

int	 mcp_proto_arg(struct mcp *, const char *);
int	 mcp_server_arg(struct mcp *, const char *, char *, size_t);
int	 mcp_root_arg(struct mcp *, const char *, char *, size_t);
int	 mcp_sampling_arg(struct mcp *, const char *, char *, size_t);
void	 mcp_sort(struct mcp *);
struct mcp_server *mcp_find(struct mcp *, const char *);
const char *mcp_keep(struct mcp *, char *const [], size_t);
size_t	 mcp_list_servers(const struct mcp *, struct buf *);
char	**mcp_environment(const struct mcp_server *);
void	 mcp_server_clear(struct mcp_server *);
int	 mcp_call_read(struct mcp_call *, json_t *, unsigned long, char *,
	    size_t, const char **);
void	 mcp_call_free(struct mcp_call *);
int	 mcp_msg_parse(struct mcp_msg *, const char *, size_t);
void	 mcp_msg_free(struct mcp_msg *);
int	 mcp_legacy_version(const json_t *);
const json_t *mcp_unsupported(const json_t *);
enum mcp_era mcp_discover_era(const json_t *, const json_t *);
void	 mcp_attach(struct mcp_server *, const struct proc_child *);
void	 mcp_call_run(struct mcp *, const struct mcp_call *,
	    struct mcp_outcome *);
struct mcp_job *mcp_job_start(struct mcp *, const struct mcp_call *,
	    struct mcp_outcome *);
int	 mcp_job_done(const struct mcp_job *);
void	 mcp_job_free(struct mcp *, struct mcp_job *);
int	 mcp_jobs_wait(struct mcp *);
void	 mcp_jobs_settle(struct mcp *);
int	 mcp_list_tools(struct mcp *, struct buf *);
int	 mcp_wait(struct mcp *, int);
int	 mcp_shutdown(struct mcp *);
mcp_note_fn mcp_say;
int	 mcp_run(struct mcp *, enum mcp_run_mode, const struct mcp_ask *,
	    int, int, char *[]);
void	 mcp_free(struct mcp *);

/*
 * mcp_res: the servers' resources and prompts. What --read and
 * --get-prompt ask: the URIs in order, or a prompt and its arguments.
 */
struct mcp_ask {
	char	**uris;
	size_t	  nuris;
	const char *prompt;
	json_t	 *args;			/* an object of strings, or NULL */
};

int	 mcp_res_run(struct mcp *, enum mcp_run_mode, const struct mcp_ask *,
	    int, struct buf *);

#endif
