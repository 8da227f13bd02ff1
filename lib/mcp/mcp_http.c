/*
 * mcp_http: Streamable HTTP and HTTP+SSE, each exchange a libcurl easy
 * handle on the one multi handle of struct mcp, driven by mcp.c's poll
 * loop (mcp_http_poll waits on the transfers and mcp.c's descriptors at
 * once). TLS is verified as libcurl does by default; proxies come from
 * the environment as curl reads them; CURL_CA_BUNDLE or --cacert names
 * the certificates to trust.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* plain declarations: the functions are called through pointers */
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>
#include <jansson.h>

#include "config.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/dlib.h"
#include "base/jsonw.h"
#include "base/proc.h"
#include "base/xalloc.h"
#include "json/jsonx.h"
#include "mcp/mcp.h"
#include "mcp/mcp_http.h"
#include "mcp/mcp_int.h"
#include "mcp/sse.h"

#define RETRY_MS	1000	/* a stream's reconnection time, unless told */
#define MAX_RESUMES	10	/* reconnections of one request's stream */
#define ERR_BODY	300	/* bytes of an error's body said */

enum { X_POST, X_GET, X_DELETE };
enum { C_NONE, C_JSON, C_SSE, C_OTHER };

struct xfer {
	struct mcp_http	*h;
	CURL		*easy;
	struct curl_slist *hdrs;
	char		*body;
	int		 kind;
	long long	 id;		/* the request it carries, or 0 */
	int		 answered;	/* its response came */
	int		 ctype;
	long		 status;
	int		 resumes;	/* how often its stream was resumed */
	int		 running;	/* added to the multi handle */
	double		 start_at;	/* to be added then (a reconnection) */
	struct buf	 in;		/* a JSON body, or an error's */
	struct sse	 sse;
	int		 over;		/* a body past --max-line */
	char		 err[CURL_ERROR_SIZE];
	struct xfer	*next;
};

/* What happened to a request, for the one waiting on it. */
struct note {
	long long	 id;		/* 0: whatever request is waited on */
	int		 kind;		/* F_*, or 0 with MCP_HTTP_READY */
	long		 status;	/* the HTTP status, or 0 */
	char		*why;
	struct note	*next;
};

struct mcp_http {
	struct mcp	*m;
	struct mcp_server *s;
	struct xfer	*xfers;
	struct note	*notes, **tail;
	char		*session;	/* Mcp-Session-Id */
	char		*version;	/* MCP-Protocol-Version */
	char		*post_url;	/* HTTP+SSE: where messages go */
	int		 legacy;	/* HTTP+SSE */
	struct xfer	*stream;	/* the GET stream, or NULL */
	char		*auth;		/* the last 401's WWW-Authenticate */
	char		*meta_url;	/* its resource_metadata */
	int		 refused;	/* its endpoint event was refused */
};

/*
 * libcurl, loaded with dlopen when the first remote server is opened:
 * linked in, it and the thirty libraries it needs (TLS, Kerberos, LDAP,
 * SSH, ...) cost every start of mcp-run and llm-loop some twelve million
 * instructions, several milliseconds (t/bench/README), which a run with
 * local servers alone never uses. LLMKIT_LIBCURL names another file to
 * load. One thread: the state is not locked.
 */
#define CURL_SONAME	"libcurl.so.4"

static struct lc_table {
	CURLcode	 (*global_init)(long);
	void		 (*global_cleanup)(void);
	CURLM		*(*multi_init)(void);
	CURLMcode	 (*multi_cleanup)(CURLM *);
	CURLMcode	 (*multi_add_handle)(CURLM *, CURL *);
	CURLMcode	 (*multi_remove_handle)(CURLM *, CURL *);
	CURLMcode	 (*multi_perform)(CURLM *, int *);
	CURLMcode	 (*multi_poll)(CURLM *, struct curl_waitfd *,
			    unsigned, int, int *);
	CURLMsg		*(*multi_info_read)(CURLM *, int *);
	CURL		*(*easy_init)(void);
	void		 (*easy_cleanup)(CURL *);
	CURLcode	 (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode	 (*easy_getinfo)(CURL *, CURLINFO, ...);
	const char	*(*easy_strerror)(CURLcode);
	struct curl_slist *(*slist_append)(struct curl_slist *,
			    const char *);
	void		 (*slist_free_all)(struct curl_slist *);
	CURLU		*(*url)(void);
	void		 (*url_cleanup)(CURLU *);
	CURLUcode	 (*url_set)(CURLU *, CURLUPart, const char *,
			    unsigned);
	CURLUcode	 (*url_get)(const CURLU *, CURLUPart, char **,
			    unsigned);
	void		 (*free)(void *);
} libcurl;

static struct dlib curl_lib = {
	CURL_SONAME, "LLMKIT_LIBCURL", "libcurl", 0, NULL
};

/* curl.h makes these two macros, to count their arguments */
#undef curl_easy_setopt
#undef curl_easy_getinfo
#define curl_global_init	libcurl.global_init
#define curl_global_cleanup	libcurl.global_cleanup
#define curl_multi_init		libcurl.multi_init
#define curl_multi_cleanup	libcurl.multi_cleanup
#define curl_multi_add_handle	libcurl.multi_add_handle
#define curl_multi_remove_handle libcurl.multi_remove_handle
#define curl_multi_perform	libcurl.multi_perform
#define curl_multi_poll		libcurl.multi_poll
#define curl_multi_info_read	libcurl.multi_info_read
#define curl_easy_init		libcurl.easy_init
#define curl_easy_cleanup	libcurl.easy_cleanup
#define curl_easy_setopt	libcurl.easy_setopt
#define curl_easy_getinfo	libcurl.easy_getinfo
#define curl_easy_strerror	libcurl.easy_strerror
#define curl_slist_append	libcurl.slist_append
#define curl_slist_free_all	libcurl.slist_free_all
#define curl_url		libcurl.url
#define curl_url_cleanup	libcurl.url_cleanup
#define curl_url_set		libcurl.url_set
#define curl_url_get		libcurl.url_get
#define curl_free		libcurl.free

/* The functions of libcurl, by their names, where libcurl keeps them. */
static const struct dlib_fn lc_fns[] = {
#define FN(f)	{ "curl_" #f, &libcurl.f, sizeof(libcurl.f) }
	FN(global_init), FN(global_cleanup), FN(multi_init),
	FN(multi_cleanup), FN(multi_add_handle), FN(multi_remove_handle),
	FN(multi_perform), FN(multi_poll), FN(multi_info_read),
	FN(easy_init), FN(easy_cleanup), FN(easy_setopt), FN(easy_getinfo),
	FN(easy_strerror), FN(slist_append), FN(slist_free_all), FN(url),
	FN(url_cleanup), FN(url_set), FN(url_get), FN(free)
#undef FN
};

/* 0 once libcurl is loaded, -1 when it cannot be (for ever after). */
static int
lc_load(void)
{
	return dlib_load(&curl_lib, lc_fns, sizeof(lc_fns) /
	    sizeof(lc_fns[0]));
}

const char *
mcp_http_trouble(void)
{
	return curl_lib.why;
}

static CURLM *
multi(struct mcp *m)
{
	if (m->curlm == NULL) {
		if (lc_load() != 0 ||
		    curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
			return NULL;
		m->curlm = curl_multi_init();
	}
	return m->curlm;
}


static void
add_note(struct mcp_http *h, long long id, int kind, long status,
    const char *why)
{
	struct note *n = xcalloc(1, sizeof(*n));

	n->id = id;
	n->kind = kind;
	n->status = status;
	n->why = xstrdup(why);
	*h->tail = n;
	h->tail = &n->next;
}

/*
 * Takes the oldest note of s: 1 with the request it is about (0 for
 * whatever request is waited on, MCP_HTTP_READY for the transport), its
 * kind (0 or F_*), the HTTP status and the text; 0 when there is none.
 */
int
mcp_http_take(struct mcp_server *s, long long *id, int *kind, long *status,
    struct buf *why)
{
	struct mcp_http *h = s->http;
	struct note *n;

	if (h == NULL || (n = h->notes) == NULL)
		return 0;
	if ((h->notes = n->next) == NULL)
		h->tail = &h->notes;
	*id = n->id;
	*kind = n->kind;
	*status = n->status;
	buf_reset(why);
	buf_adds(why, n->why);
	free(n->why);
	free(n);
	return 1;
}

/* A message from the server into its rbuf: one line, as stdio's are. */
static void
deliver(struct xfer *x, const char *data, size_t len)
{
	struct buf *b = &x->h->s->rbuf;
	json_t *doc, *id;
	size_t i, at;

	at = b->len;
	buf_add(b, data, len);
	for (i = at; i < b->len; i++)	/* JSON's own blanks: same doc */
		if (b->data[i] == '\n' || b->data[i] == '\r')
			b->data[i] = '\t';
	buf_addc(b, '\n');
	if (x->id == 0 || x->answered)
		return;
	if ((doc = jsonx_load(data, len, 0, NULL)) == NULL)
		return;
	id = json_object_get(doc, "id");
	if (json_is_integer(id) && json_integer_value(id) == x->id &&
	    (json_object_get(doc, "result") != NULL ||
	    json_object_get(doc, "error") != NULL))
		x->answered = 1;
	json_decref(doc);
}

/*
 * An answer that came with an HTTP error status: a JSON-RPC error for
 * request x->id, whatever id it holds (HTTP ties it to its request), is
 * delivered as its answer; 1 then, else 0.
 */
static int
error_answer(struct xfer *x)
{
	json_t *doc, *err;
	struct buf b = BUF_INIT;
	int rc = 0;

	if (x->id == 0 || x->in.len == 0 ||
	    (doc = jsonx_load(x->in.data, x->in.len, 0, NULL)) == NULL)
		return 0;
	err = json_object_get(doc, "error");
	if (json_is_object(err) && json_is_string(json_object_get(err,
	    "message")) && json_is_number(json_object_get(err, "code"))) {
		json_object_set_new(doc, "id", json_integer(x->id));
		jsonw_stringify(&b, doc);
		deliver(x, b.data, b.len);
		buf_free(&b);
		rc = 1;
	}
	json_decref(doc);
	return rc;
}

/* The legacy "endpoint" event: where to POST, on the stream's origin. */
static void
endpoint(struct mcp_http *h, const char *data, size_t len)
{
	CURLU *base = curl_url(), *to = curl_url();
	struct buf why = BUF_INIT;
	char *rel = xmalloc(len + 1), *url = NULL, *a = NULL, *b = NULL;
	char q[120];
	CURLUPart part[] = { CURLUPART_SCHEME, CURLUPART_HOST,
	    CURLUPART_PORT };
	size_t i;
	int same = 1;

	memcpy(rel, data, len);
	rel[len] = '\0';
	if (curl_url_set(base, CURLUPART_URL, h->s->url, 0) != CURLUE_OK ||
	    curl_url_set(to, CURLUPART_URL, h->s->url, 0) != CURLUE_OK ||
	    memchr(data, '\0', len) != NULL ||
	    curl_url_set(to, CURLUPART_URL, rel, 0) != CURLUE_OK ||
	    curl_url_get(to, CURLUPART_URL, &url, 0) != CURLUE_OK) {
		buf_printf(&why, "%s: the endpoint event names no URL: %s",
		    h->s->name, diag_quote(q, sizeof(q), data, len));
		add_note(h, MCP_HTTP_READY, F_TROUBLE, 0, buf_cstr(&why));
		h->refused = 1;
		goto out;
	}
	for (i = 0; i < 3 && same; i++) {
		a = b = NULL;
		curl_url_get(base, part[i], &a, CURLU_DEFAULT_PORT);
		curl_url_get(to, part[i], &b, CURLU_DEFAULT_PORT);
		same = a != NULL && b != NULL && strcasecmp(a, b) == 0;
		curl_free(a);
		curl_free(b);
	}
	if (!same) {
		buf_printf(&why, "%s: the endpoint event names another "
		    "origin, which is refused: %s", h->s->name, diag_quote(q,
		    sizeof(q), url, strlen(url)));
		add_note(h, MCP_HTTP_READY, F_TROUBLE, 0, buf_cstr(&why));
		h->refused = 1;
		goto out;
	}
	free(h->post_url);
	h->post_url = xstrdup(url);
	add_note(h, MCP_HTTP_READY, 0, 0, "");
out:
	buf_free(&why);
	curl_free(url);
	curl_url_cleanup(base);
	curl_url_cleanup(to);
	free(rel);
}

static int
on_event(void *arg, const char *type, const char *data, size_t len,
    const char *id)
{
	struct xfer *x = arg;

	(void)id;
	if (strcmp(type, "message") == 0)
		deliver(x, data, len);
	else if (strcmp(type, "endpoint") == 0 && x->h->legacy &&
	    x == x->h->stream && x->h->post_url == NULL)
		endpoint(x->h, data, len);
	return 0;
}

static size_t
on_body(char *p, size_t size, size_t n, void *arg)
{
	struct xfer *x = arg;
	size_t len = size * n;
	const char *ct = NULL;

	if (x->ctype == C_NONE) {
		curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &x->status);
		curl_easy_getinfo(x->easy, CURLINFO_CONTENT_TYPE, &ct);
		if (ct != NULL && strncasecmp(ct, "text/event-stream", 17) == 0)
			x->ctype = C_SSE;
		else if (ct != NULL &&
		    strncasecmp(ct, "application/json", 16) == 0)
			x->ctype = C_JSON;
		else
			x->ctype = C_OTHER;
	}
	if (x->ctype == C_SSE && x->status / 100 == 2) {
		if (sse_feed(&x->sse, p, len, on_event, x) != 0) {
			x->over = 1;
			return 0;
		}
		return len;
	}
	if (x->status / 100 != 2 && x->in.len + len > ERR_BODY * 64)
		return len;	/* an error's body: its start is enough */
	if (x->in.len + len > x->h->m->max_line) {
		x->over = 1;
		return 0;
	}
	buf_add(&x->in, p, len);
	return len;
}

/* A header line: the session id, and what a 401 asks for. */
static size_t
on_header(char *p, size_t size, size_t n, void *arg)
{
	struct xfer *x = arg;
	struct mcp_http *h = x->h;
	size_t len = size * n, k;
	char *v, *e, *rm;

	while (len > 0 && (p[len - 1] == '\n' || p[len - 1] == '\r'))
		len--;
	if ((v = memchr(p, ':', len)) == NULL)
		return size * n;
	k = (size_t)(v - p);
	for (v++; v < p + len && (*v == ' ' || *v == '\t'); v++)
		continue;
	e = p + len;
	if (k == 14 && strncasecmp(p, "mcp-session-id", 14) == 0 &&
	    e > v && x->kind == X_POST) {
		free(h->session);
		h->session = xmalloc((size_t)(e - v) + 1);
		memcpy(h->session, v, (size_t)(e - v));
		h->session[e - v] = '\0';
	} else if (k == 16 && strncasecmp(p, "www-authenticate", 16) == 0) {
		free(h->auth);
		h->auth = xmalloc((size_t)(e - v) + 1);
		memcpy(h->auth, v, (size_t)(e - v));
		h->auth[e - v] = '\0';
		free(h->meta_url);
		h->meta_url = NULL;
		if ((rm = strstr(h->auth, "resource_metadata=\"")) != NULL) {
			rm += 19;
			h->meta_url = xstrdup(rm);
			if ((rm = strchr(h->meta_url, '"')) != NULL)
				*rm = '\0';
		}
	}
	return size * n;
}

/* Whether a header of the user's (s->headers) names name. */
static int
user_has(const struct mcp_server *s, const char *name)
{
	size_t i, n = strlen(name);

	for (i = 0; s->headers != NULL && s->headers[i] != NULL; i++)
		if (strncasecmp(s->headers[i], name, n) == 0 &&
		    s->headers[i][n] == ':')
			return 1;
	return 0;
}

/*
 * A header value as the 2026-07-28 revision writes one: as it is when it
 * is printable ASCII without blanks at its ends, else its UTF-8 in
 * base64 between "=?base64?" and "?=".
 */
static void
header_value(struct buf *b, const char *v, size_t len)
{
	static const char b64[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *u = (const unsigned char *)v;
	size_t i;
	int plain = len > 0 && u[0] != ' ' && u[0] != '\t' &&
	    u[len - 1] != ' ' && u[len - 1] != '\t';

	for (i = 0; plain && i < len; i++)
		plain = u[i] == '\t' || (u[i] >= 32 && u[i] <= 126);
	if (plain && len >= 11 && strncmp(v, "=?base64?", 9) == 0 &&
	    strncmp(v + len - 2, "?=", 2) == 0)
		plain = 0;
	if (plain) {
		buf_add(b, v, len);
		return;
	}
	buf_adds(b, "=?base64?");
	for (i = 0; i + 2 < len; i += 3) {
		buf_addc(b, b64[u[i] >> 2]);
		buf_addc(b, b64[((u[i] & 3) << 4) | (u[i + 1] >> 4)]);
		buf_addc(b, b64[((u[i + 1] & 15) << 2) | (u[i + 2] >> 6)]);
		buf_addc(b, b64[u[i + 2] & 63]);
	}
	if (len - i == 1) {
		buf_addc(b, b64[u[i] >> 2]);
		buf_addc(b, b64[(u[i] & 3) << 4]);
		buf_adds(b, "==");
	} else if (len - i == 2) {
		buf_addc(b, b64[u[i] >> 2]);
		buf_addc(b, b64[((u[i] & 3) << 4) | (u[i + 1] >> 4)]);
		buf_addc(b, b64[(u[i + 1] & 15) << 2]);
		buf_addc(b, '=');
	}
	buf_adds(b, "?=");
}

static struct curl_slist *
add_header(struct curl_slist *l, struct buf *b)
{
	struct curl_slist *n = curl_slist_append(l, buf_cstr(b));

	buf_reset(b);
	if (n == NULL)
		xalloc_die();
	return n;
}

/*
 * The headers of a request: the user's, then what the transport says
 * (the session, the revision, and for a 2026-07-28 request its method
 * and name), each unless the user gave it.
 */
static struct curl_slist *
headers(struct mcp_http *h, int kind, const json_t *msg)
{
	struct mcp_server *s = h->s;
	struct curl_slist *l = NULL;
	struct buf b = BUF_INIT;
	const json_t *params, *pv, *name = NULL;
	const char *method;
	size_t i;

	for (i = 0; s->headers != NULL && s->headers[i] != NULL; i++) {
		buf_adds(&b, s->headers[i]);
		l = add_header(l, &b);
	}
	if (kind == X_POST) {
		buf_adds(&b, "Content-Type: application/json");
		l = add_header(l, &b);
	}
	if (kind != X_DELETE && !user_has(s, "Accept")) {
		buf_adds(&b, kind == X_GET ? "Accept: text/event-stream" :
		    "Accept: application/json, text/event-stream");
		l = add_header(l, &b);
	}
	if (h->session != NULL && !h->legacy) {
		buf_printf(&b, "Mcp-Session-Id: %s", h->session);
		l = add_header(l, &b);
	}
	params = json_object_get(msg, "params");
	pv = json_object_get(json_object_get(params, "_meta"),
	    "io.modelcontextprotocol/protocolVersion");
	method = json_string_value(json_object_get(msg, "method"));
	if (json_is_string(pv) && method != NULL &&
	    json_object_get(msg, "id") != NULL) {
		buf_printf(&b, "MCP-Protocol-Version: %s",
		    json_string_value(pv));
		l = add_header(l, &b);
		buf_adds(&b, "Mcp-Method: ");
		header_value(&b, method, strlen(method));
		l = add_header(l, &b);
		if (strcmp(method, "tools/call") == 0 ||
		    strcmp(method, "prompts/get") == 0)
			name = json_object_get(params, "name");
		else if (strcmp(method, "resources/read") == 0)
			name = json_object_get(params, "uri");
		else if (strncmp(method, "tasks/", 6) == 0)
			name = json_object_get(params, "taskId");
		if (json_is_string(name)) {
			buf_adds(&b, "Mcp-Name: ");
			header_value(&b, json_string_value(name),
			    json_string_length(name));
			l = add_header(l, &b);
		}
	} else if (h->version != NULL && !h->legacy) {
		buf_printf(&b, "MCP-Protocol-Version: %s", h->version);
		l = add_header(l, &b);
	}
	buf_free(&b);
	return l;
}

static struct xfer *
xfer_new(struct mcp_http *h, int kind, const char *url, long long id)
{
	struct xfer *x = xcalloc(1, sizeof(*x));
	const char *ca;

	x->h = h;
	x->kind = kind;
	x->id = id;
	sse_init(&x->sse, h->m->max_line);
	if ((x->easy = curl_easy_init()) == NULL)
		xalloc_die();
	curl_easy_setopt(x->easy, CURLOPT_URL, url);
	curl_easy_setopt(x->easy, CURLOPT_PRIVATE, x);
	curl_easy_setopt(x->easy, CURLOPT_ERRORBUFFER, x->err);
	curl_easy_setopt(x->easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(x->easy, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(x->easy, CURLOPT_WRITEDATA, x);
	curl_easy_setopt(x->easy, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(x->easy, CURLOPT_HEADERDATA, x);
	curl_easy_setopt(x->easy, CURLOPT_USERAGENT, "mcp-run/"
	    LLMKIT_VERSION);
	curl_easy_setopt(x->easy, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(x->easy, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(x->easy, CURLOPT_TCP_KEEPALIVE, 1L);
	if ((ca = h->m->cacert) != NULL ||
	    ((ca = getenv("CURL_CA_BUNDLE")) != NULL && *ca != '\0'))
		curl_easy_setopt(x->easy, CURLOPT_CAINFO, ca);
	if (kind == X_DELETE)
		curl_easy_setopt(x->easy, CURLOPT_CUSTOMREQUEST, "DELETE");
	x->next = h->xfers;
	h->xfers = x;
	return x;
}

static void
xfer_go(struct xfer *x)
{
	curl_easy_setopt(x->easy, CURLOPT_HTTPHEADER, x->hdrs);
	if (curl_multi_add_handle(x->h->m->curlm, x->easy) != CURLM_OK)
		xalloc_die();
	x->running = 1;
}

static void
xfer_free(struct xfer *x)
{
	struct xfer **pp;

	for (pp = &x->h->xfers; *pp != NULL; pp = &(*pp)->next)
		if (*pp == x) {
			*pp = x->next;
			break;
		}
	if (x->h->stream == x)
		x->h->stream = NULL;
	if (x->running)
		curl_multi_remove_handle(x->h->m->curlm, x->easy);
	curl_easy_cleanup(x->easy);
	curl_slist_free_all(x->hdrs);
	free(x->body);
	buf_free(&x->in);
	sse_free(&x->sse);
	free(x);
}

/*
 * A GET of the stream of s: the legacy transport's (whose first event
 * names where to POST), the server's own stream of a session, or the
 * resumption of a request's stream after last (with id, that request).
 */
static struct xfer *
listen_get(struct mcp_http *h, long long id, const char *last, double at)
{
	struct xfer *x = xfer_new(h, X_GET, h->s->url, id);
	struct buf b = BUF_INIT;

	x->hdrs = headers(h, X_GET, NULL);
	if (last != NULL && *last != '\0') {
		buf_printf(&b, "Last-Event-ID: %s", last);
		x->hdrs = add_header(x->hdrs, &b);
	}
	buf_free(&b);
	if (at > proc_now())
		x->start_at = at;
	else
		xfer_go(x);
	return x;
}

/*
 * Readies the transport of remote server s, not running: with legacy,
 * the HTTP+SSE of 2024-11-05, whose GET stream is opened (its endpoint
 * comes as a note with id MCP_HTTP_READY). 0, or -1.
 */
int
mcp_http_open(struct mcp *m, struct mcp_server *s, int legacy)
{
	struct mcp_http *h;

	if (multi(m) == NULL)
		return -1;
	if (s->http == NULL) {
		s->http = h = xcalloc(1, sizeof(*h));
		h->m = m;
		h->s = s;
		h->tail = &h->notes;
	}
	h = s->http;
	h->legacy = legacy;
	if (legacy)
		h->stream = listen_get(h, 0, NULL, 0);
	return 0;
}

int
mcp_http_legacy(const struct mcp_server *s)
{
	return s->http != NULL && s->http->legacy;
}

/* The revision agreed in the lifecycle, sent as MCP-Protocol-Version. */
void
mcp_http_agreed(struct mcp_server *s, const char *version)
{
	struct mcp_http *h = s->http;

	if (h == NULL)
		return;
	free(h->version);
	h->version = xstrdup(version);
}

/*
 * Opens the stream of a session, once its lifecycle is over, for the
 * messages of the server's that belong to no request.
 */
void
mcp_http_listen(struct mcp_server *s)
{
	struct mcp_http *h = s->http;

	if (h != NULL && !h->legacy && h->session != NULL && h->stream == NULL)
		h->stream = listen_get(h, 0, NULL, 0);
}

/* POSTs message msg (a request, a notification or a response) to s. */
void
mcp_http_send(struct mcp_server *s, const json_t *msg)
{
	struct mcp_http *h = s->http;
	struct xfer *x;
	struct buf b = BUF_INIT;
	const json_t *id = json_object_get(msg, "id");
	long long rid = 0;

	if (json_object_get(msg, "method") != NULL && json_is_integer(id))
		rid = json_integer_value(id);
	x = xfer_new(h, X_POST, h->legacy && h->post_url != NULL ?
	    h->post_url : s->url, rid);
	jsonw_stringify(&b, msg);
	x->body = buf_cstr(&b);		/* b's memory is x's now */
	curl_easy_setopt(x->easy, CURLOPT_POSTFIELDSIZE_LARGE,
	    (curl_off_t)b.len);
	curl_easy_setopt(x->easy, CURLOPT_POSTFIELDS, x->body);
	x->hdrs = headers(h, X_POST, msg);
	xfer_go(x);
}

/* Drops the exchange of request id (cancelled): its answer is not read. */
void
mcp_http_cancel(struct mcp_server *s, long long id)
{
	struct xfer *x, *next;

	if (s->http == NULL)
		return;
	for (x = s->http->xfers; x != NULL; x = next) {
		next = x->next;
		if (x->id == id)
			xfer_free(x);
	}
}

/* What a 401 or 403 asks for, and how to give it. */
static void
refused(struct buf *b, struct xfer *x)
{
	struct mcp_http *h = x->h;

	buf_printf(b, "%s: %s answered HTTP %ld", h->s->name, h->s->url,
	    x->status);
	if (h->auth != NULL)
		buf_printf(b, " (WWW-Authenticate: %s)", h->auth);
	if (h->meta_url != NULL)
		buf_printf(b, "; its protected-resource metadata is at %s",
		    h->meta_url);
	buf_printf(b, "; give a token with \"headers\": {\"Authorization\": "
	    "\"Bearer TOKEN\"} in its entry%s", x->status == 403 ?
	    " (this one was refused)" : "");
}

/* Says the start of an error's body, on one line. */
static void
body_text(struct buf *b, const struct xfer *x)
{
	char q[ERR_BODY + 8];
	size_t len = x->in.len < ERR_BODY ? x->in.len : ERR_BODY;

	if (len > 0)
		buf_printf(b, ": %s", diag_quote(q, sizeof(q), x->in.data,
		    len));
}

/*
 * libcurl's message without the time it took (" after 12 ms"), which
 * would make the same fault read differently each time.
 */
static void
untimed(char *msg)
{
	char *p = msg, *q;

	while ((p = strstr(p, " after ")) != NULL) {
		for (q = p + 7; *q >= '0' && *q <= '9'; q++)
			continue;
		if (q > p + 7 && strncmp(q, " ms", 3) == 0)
			memmove(p, q + 3, strlen(q + 3) + 1);
		else
			p += 7;
	}
}

/* An exchange has ended: what it means for its request, as a note. */
static void
done(struct xfer *x, CURLcode rc)
{
	struct mcp_http *h = x->h;
	struct buf why = BUF_INIT;
	long long id = x->kind == X_GET && x->id == 0 ? 0 : x->id;
	int kind = 0;
	double at;

	curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &x->status);
	if (x->over) {
		kind = F_LONG;
		buf_printf(&why, "server %s wrote a message longer than "
		    "--max-line (%zu bytes)", h->s->name, h->m->max_line);
	} else if (rc != CURLE_OK) {
		kind = x->kind == X_GET && x->id == 0 && !h->legacy ? 0 :
		    F_TROUBLE;
		untimed(x->err);
		buf_printf(&why, "%s: %s %s: %s", h->s->name, x->kind ==
		    X_POST ? "POST" : x->kind == X_GET ? "GET" : "DELETE",
		    h->s->url, x->err[0] != '\0' ? x->err :
		    curl_easy_strerror(rc));
	} else if (x->kind == X_DELETE) {
		;
	} else if (x->status == 401 || x->status == 403) {
		kind = F_TROUBLE;
		refused(&why, x);
	} else if (x->status == 404 && h->session != NULL && !h->legacy) {
		kind = F_DIED;		/* the session has expired */
		buf_printf(&why, "server %s ended the session", h->s->name);
	} else if (x->status / 100 != 2) {
		if (x->kind == X_POST && error_answer(x))
			goto out;
		kind = F_FAILED;
		buf_printf(&why, "%s: %s %s answered HTTP %ld", h->s->name,
		    x->kind == X_POST ? "POST" : "GET", h->s->url,
		    x->status);
		body_text(&why, x);
	} else if (x->ctype == C_JSON && x->in.len > 0) {
		/* what answers a notification or a response is no message */
		if (x->id != 0 || x->kind == X_GET)
			deliver(x, x->in.data, x->in.len);
	} else if (x->kind == X_GET && x->id == 0) {
		/* a stream ended: legacy's is the connection */
		if (h->legacy && h->refused)
			;	/* said: its endpoint was refused */
		else if (h->legacy) {
			kind = F_DIED;
			buf_printf(&why, "server %s closed its event stream",
			    h->s->name);
		} else if (x == h->stream && h->session != NULL) {
			at = proc_now() + (x->sse.retry >= 0 ? x->sse.retry :
			    RETRY_MS) / 1000.0;
			h->stream = NULL;
			h->stream = listen_get(h, 0, buf_cstr(&x->sse.id), at);
		}
	} else if (x->id != 0 && !x->answered && !h->legacy) {
		/* a request's stream ended before its answer */
		if (x->ctype == C_SSE && x->sse.id.len > 0 &&
		    x->resumes < MAX_RESUMES) {
			at = proc_now() + (x->sse.retry >= 0 ? x->sse.retry :
			    RETRY_MS) / 1000.0;
			listen_get(h, x->id, buf_cstr(&x->sse.id), at)->resumes =
			    x->resumes + 1;
		} else {
			kind = F_FAILED;
			buf_printf(&why, "server %s answered %s", h->s->name,
			    x->ctype == C_SSE ? "with a stream that ended "
			    "before the answer, and cannot be resumed (no "
			    "event id)" : x->status == 202 ? "202 Accepted, "
			    "with no answer" : "with neither JSON nor an event "
			    "stream");
		}
	}
	if (kind != 0) {
		if (x->kind == X_GET && x->id == 0 && !h->legacy)
			;	/* a session's own stream: nothing waits on it */
		else if (x->kind == X_GET && x->id == 0 && h->post_url == NULL)
			add_note(h, MCP_HTTP_READY, kind, x->status,
			    buf_cstr(&why));
		else if (id != 0 || x->kind == X_GET)
			add_note(h, id, kind, x->status, buf_cstr(&why));
		else
			diag_warnx("%s", buf_cstr(&why));
	}
out:
	buf_free(&why);
	xfer_free(x);
}

/* The time in ms until the next reconnection is due, or -1 for none. */
static int
next_due(struct mcp *m, int ms)
{
	struct xfer *x;
	double t = proc_now(), d;
	size_t i;

	for (i = 0; i < m->n; i++)
		if (m->v[i].http != NULL)
			for (x = m->v[i].http->xfers; x != NULL; x = x->next) {
				if (x->running)
					continue;
				if (x->start_at <= t) {
					xfer_go(x);
					continue;
				}
				d = (x->start_at - t) * 1000 + 1;
				if (ms < 0 || d < ms)
					ms = (int)d;
			}
	return ms;
}

/*
 * poll(2) for mcp.c's descriptors p (n of them, revents filled) and the
 * transfers at once, at most ms milliseconds (-1: no limit). Returns how
 * many of p are ready, as poll does.
 */
int
mcp_http_poll(struct mcp *m, struct pollfd *p, size_t n, int ms)
{
	struct curl_waitfd *w;
	size_t i;
	int ready = 0, got;

	ms = next_due(m, ms);
	w = xcalloc(n + 1, sizeof(*w));
	for (i = 0; i < n; i++) {
		w[i].fd = p[i].fd;
		w[i].events = (short)((p[i].events & POLLIN ? CURL_WAIT_POLLIN :
		    0) | (p[i].events & POLLOUT ? CURL_WAIT_POLLOUT : 0));
		p[i].revents = 0;
	}
	if (curl_multi_poll(m->curlm, w, (unsigned)n, ms < 0 ? 1000000 : ms,
	    &got) != CURLM_OK) {
		free(w);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (w[i].fd < 0)
			continue;
		p[i].revents = (short)((w[i].revents & CURL_WAIT_POLLIN ?
		    POLLIN : 0) | (w[i].revents & CURL_WAIT_POLLOUT ? POLLOUT :
		    0) | (w[i].revents & CURL_WAIT_POLLPRI ? POLLPRI : 0));
		ready += p[i].revents != 0;
	}
	free(w);
	return ready;
}

/* Moves the transfers on; what ends is turned into notes. */
void
mcp_http_perform(struct mcp *m)
{
	CURLMsg *msg;
	struct xfer *x;
	int left;

	if (m->curlm == NULL)
		return;
	(void)next_due(m, -1);
	curl_multi_perform(m->curlm, &left);
	while ((msg = curl_multi_info_read(m->curlm, &left)) != NULL) {
		if (msg->msg != CURLMSG_DONE)
			continue;
		x = NULL;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE,
		    (char **)&x);
		if (x != NULL)
			done(x, msg->data.result);
	}
}

/*
 * The end of s's transport: every exchange dropped; with gentle, a
 * session's DELETE, given up to MCP_GRACE seconds.
 */
void
mcp_http_close(struct mcp *m, struct mcp_server *s, int gentle)
{
	struct mcp_http *h = s->http;
	struct note *n;
	struct xfer *x;
	double until = proc_now() + MCP_GRACE;
	int left;

	if (h == NULL)
		return;
	while (h->xfers != NULL)
		xfer_free(h->xfers);
	if (gentle && h->session != NULL && !h->legacy) {
		x = xfer_new(h, X_DELETE, s->url, 0);
		x->hdrs = headers(h, X_DELETE, NULL);
		xfer_go(x);
		while (h->xfers != NULL && proc_now() < until &&
		    !proc_caught()) {
			curl_multi_poll(m->curlm, NULL, 0, 100, NULL);
			curl_multi_perform(m->curlm, &left);
			if (curl_multi_info_read(m->curlm, &left) != NULL)
				xfer_free(x);
		}
		while (h->xfers != NULL)
			xfer_free(h->xfers);
	}
	while ((n = h->notes) != NULL) {
		h->notes = n->next;
		free(n->why);
		free(n);
	}
	free(h->session);
	free(h->version);
	free(h->post_url);
	free(h->auth);
	free(h->meta_url);
	free(h);
	s->http = NULL;
}

/* The end of every transfer: after each server's mcp_http_close. */
void
mcp_http_end(struct mcp *m)
{
	if (m->curlm == NULL)
		return;
	curl_multi_cleanup(m->curlm);
	m->curlm = NULL;
	curl_global_cleanup();
}
