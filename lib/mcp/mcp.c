/*
 * mcp: the JSON-RPC conversation with the servers that mcp_start started
 * and mcp_call sends calls: the messages sent them, the reading of what
 * they write, the pump that listens to them all, and their stop.
 */
#include <sys/ioctl.h>

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "config.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/jsonw.h"
#include "base/proc.h"
#include "base/xalloc.h"
#include "mcp/mcp.h"
#include "mcp/mcp_http.h"
#include "mcp/mcp_int.h"

#define CHUNK	65536
#define BIG	(16 * CHUNK)	/* a buffer given back once it is empty */

static void	vfail(struct reply *, int, const char *, va_list)
		    __attribute__((format(printf, 3, 0)));
static void	fail(struct reply *, int, const char *, ...)
		    __attribute__((format(printf, 3, 4)));

void
mcp_reply_reset(struct reply *r)
{
	json_decref(r->doc);
	r->doc = r->result = r->error = NULL;
	r->kind = R_PENDING;
	r->fail = 0;
	r->unread = 0;
	r->status = 0;
	buf_reset(&r->why);
}

static void
vfail(struct reply *r, int kind, const char *fmt, va_list ap)
{
	buf_reset(&r->why);
	buf_vprintf(&r->why, fmt, ap);
	r->kind = R_FAIL;
	r->fail = kind;
}

static void
fail(struct reply *r, int kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(r, kind, fmt, ap);
	va_end(ap);
}

/* "MESSAGE (JSON-RPC error CODE)" of an error object. */
void
mcp_rpc_error_text(struct buf *b, const json_t *error)
{
	buf_printf(b, "%s (JSON-RPC error %lld)",
	    json_string_value(json_object_get(error, "message")),
	    (long long)json_number_value(json_object_get(error, "code")));
}

/*
 * How much of its input server s may have read, in s->took, as the pipe
 * to it is about to be closed: all that was written to it, unless no
 * process holds the pipe's other end any more (it has ended, and left
 * nothing that reads for it), when what the pipe still holds was never
 * read. With wait, while a call is waited on whose bytes may all be in
 * the pipe still, the last reader (a process on its way out) is given up
 * to MCP_GRACE seconds to let go. A pipe that cannot tell what it holds
 * (FIONREAD on its writing end is Linux's) counts as read.
 */
static void
measure(struct mcp_server *s, int wait)
{
	struct pollfd p[2];
	double until = proc_now() + MCP_GRACE, t;
	unsigned long long left;
	int unread;

	if (s->ch.in == -1)
		return;		/* measured as it was closed */
	s->took = s->wrote;
	for (;;) {
		if (ioctl(s->ch.in, FIONREAD, &unread) == -1 || unread < 0 ||
		    (unsigned long long)unread > s->wrote)
			return;
		left = s->wrote - (unsigned long long)unread;
		p[0].fd = s->ch.in;
		p[0].events = 0;
		if (poll(p, 1, 0) == 1 && (p[0].revents & POLLERR) != 0) {
			s->took = left;
			return;
		}
		if (!wait || s->call_at == NONE || left > s->call_at ||
		    proc_caught() || (t = proc_now()) >= until)
			return;
		p[1].fd = proc_wakefd();
		p[1].events = POLLIN;
		if (poll(p, 2, (int)((until - t) * 1000) + 1) > 0 &&
		    p[1].revents != 0)
			proc_woken();
	}
}

/* Writes what is waiting for the server; a closed pipe drops it. */
void
mcp_flush_out(struct mcp_server *s)
{
	ssize_t n;

	while (s->woff < s->wbuf.len && s->ch.in != -1) {
		n = proc_write(s->ch.in, s->wbuf.data + s->woff,
		    s->wbuf.len - s->woff);
		if (n > 0) {
			s->woff += (size_t)n;
			s->wrote += (unsigned long long)n;
		} else if (n == -1 && errno == EINTR)
			continue;
		else if (n == -1 && errno == EAGAIN)
			return;
		else {
			measure(s, 0);
			proc_close_in(&s->ch);
		}
	}
	buf_reset(&s->wbuf);
	s->woff = 0;
}

/* Queues a line for the server; send_request then marks it its own. */
static void
send_msg(struct mcp_server *s, json_t *msg)
{
	s->last_sent = 0;
	if (s->http != NULL) {
		mcp_http_send(s, msg);
		json_decref(msg);
		return;
	}
	jsonw_stringify(&s->wbuf, msg);
	buf_addc(&s->wbuf, '\n');
	mcp_flush_out(s);
	json_decref(msg);
}

/*
 * The _meta of the 2026-07-28 era, a new reference. Its log level asks
 * for every log message, as a server of the 2025 era sends them when no
 * logging/setLevel came.
 */
json_t *
mcp_modern_meta(void)
{
	return json_pack("{s:s,s:{},s:{s:s,s:s},s:s}",
	    "io.modelcontextprotocol/protocolVersion", MCP_MODERN_VERSION,
	    "io.modelcontextprotocol/clientCapabilities",
	    "io.modelcontextprotocol/clientInfo",
	    "name", "mcp-run", "version", LLMKIT_VERSION,
	    "io.modelcontextprotocol/logLevel", "debug");
}

/* Sends a request (params stolen, NULL for none); returns its id. */
long long
mcp_send_request(struct mcp_server *s, const char *method, json_t *params)
{
	json_t *msg;
	long long id = ++s->next_id;

	if (s->modern) {
		if (params == NULL)
			params = json_object();
		if (json_is_object(json_object_get(params, "_meta")))
			json_object_update_new(json_object_get(params,
			    "_meta"), mcp_modern_meta());
		else
			json_object_set_new(params, "_meta", mcp_modern_meta());
	}
	msg = json_pack("{s:s,s:I,s:s}", "jsonrpc", "2.0", "id",
	    (json_int_t)id, "method", method);
	if (params != NULL)
		json_object_set_new(msg, "params", params);
	send_msg(s, msg);
	s->last_sent = id;
	return id;
}

void
mcp_notify(struct mcp_server *s, const char *method, json_t *params)
{
	json_t *msg;

	msg = json_pack("{s:s,s:s}", "jsonrpc", "2.0", "method", method);
	if (params != NULL)
		json_object_set_new(msg, "params", params);
	send_msg(s, msg);
}

/* How much of text (len bytes) to keep for at most max: whole characters. */
static size_t
cut_at(const char *text, size_t len, size_t max)
{
	size_t keep = max;
	int i;

	if (len <= max)
		return len;
	for (i = 0; i < 3 && keep > 1 &&
	    ((unsigned char)text[keep] & 0xC0) == 0x80; i++)
		keep--;
	return keep;
}

/*
 * Says a line of the server's (len bytes, and cut more that were dropped
 * before they were kept) through the note function: its first
 * MCP_ERR_LINE bytes at most, and then how many more were cut.
 */
static void
note(struct mcp *m, struct mcp_server *s, const char *text, size_t len,
    size_t cut)
{
	struct buf b = BUF_INIT;
	size_t keep;

	if (cut == 0 && len > 0 && text[len - 1] == '\r')
		len--;
	keep = cut_at(text, len, MCP_ERR_LINE);
	cut += len - keep;
	if (m->note == NULL)
		return;
	if (cut == 0) {
		m->note(m->note_arg, s->name, text, len);
		return;
	}
	buf_add(&b, text, keep);
	buf_printf(&b, "... (%zu more bytes cut)", cut);
	m->note(m->note_arg, s->name, b.data, b.len);
	buf_free(&b);
}

/* A log message: "LEVEL: DATA", DATA as is when a string, else JSON. */
static void
log_message(struct mcp *m, struct mcp_server *s, const json_t *params)
{
	struct buf b = BUF_INIT;
	const json_t *level, *data;

	level = json_object_get(params, "level");
	data = json_object_get(params, "data");
	buf_adds(&b, json_is_string(level) ? json_string_value(level) :
	    "log");
	buf_adds(&b, ": ");
	if (json_is_string(data))
		buf_add(&b, json_string_value(data), json_string_length(data));
	else if (data != NULL)
		jsonw_stringify(&b, data);
	note(m, s, b.data, b.len, 0);
	buf_free(&b);
}

/* The time limit of a request to s: its own, else -T's. */
double
mcp_limit(const struct mcp *m, const struct mcp_server *s)
{
	return s != NULL && s->timeout > 0 ? s->timeout : m->timeout;
}

static void	say_progress(struct mcp *, const char *, const char *);

/*
 * A progress notification: of the call waited on (its token), it resets
 * the call's time limit, and is said on stderr, "SERVER: TOOL: 40/100
 * MESSAGE", as one line that is written over on a terminal.
 */
static void
progress(struct mcp *m, struct mcp_server *s, const json_t *params)
{
	const json_t *tok, *p, *total, *msg;
	struct buf b = BUF_INIT;
	struct mcp_job *j = NULL;
	const char *label = m->label;
	size_t i;

	/* a number, as the server's messages are read (JavaScript's) */
	tok = json_object_get(params, "progressToken");
	if (!json_is_number(tok))
		return;
	for (i = 0; i < m->njobs && j == NULL; i++)
		if (m->jobs[i]->s == s && m->jobs[i]->state == J_WAITING &&
		    (double)m->jobs[i]->token == json_number_value(tok))
			j = m->jobs[i];
	if (j != NULL) {		/* one of -j's: its own time again */
		j->deadline = proc_now() + mcp_limit(m, s);
		if (j->hard > 0 && j->deadline > j->hard)
			j->deadline = j->hard;
		label = buf_cstr(&j->label);
	} else if (m->token == 0 || json_number_value(tok) != (double)m->token)
		return;
	else
		m->progressed = 1;
	p = json_object_get(params, "progress");
	total = json_object_get(params, "total");
	msg = json_object_get(params, "message");
	if (json_is_number(p)) {
		jsonw_stringify(&b, p);
		if (json_is_number(total)) {
			buf_addc(&b, '/');
			jsonw_stringify(&b, total);
		}
	}
	if (json_is_string(msg)) {
		buf_adds(&b, ": ");
		buf_add(&b, json_string_value(msg), json_string_length(msg));
	}
	say_progress(m, label, buf_cstr(&b));
	buf_free(&b);
}

/*
 * Says "SERVER: TOOL: TEXT" of the call waited on: a line of its own,
 * or on a terminal the one line, written over.
 */
void
mcp_progress_say(struct mcp *m, const char *text)
{
	say_progress(m, m->label, text);
}

static void
say_progress(struct mcp *m, const char *label, const char *text)
{
	struct buf line = BUF_INIT;
	size_t len = strlen(text);

	buf_adds(&line, isatty(2) ? "\r\033[K" : "");
	diag_escape(&line, label, strlen(label), 0);
	buf_adds(&line, ": ");
	diag_escape(&line, text, len > MCP_ERR_LINE ? MCP_ERR_LINE : len, 0);
	if (isatty(2))
		m->progress_line = 1;
	else
		buf_addc(&line, '\n');
	fwrite(line.data, 1, line.len, stderr);
	buf_free(&line);
}

/* The progress line on a terminal, cleared once its call is over. */
void
mcp_progress_done(struct mcp *m)
{
	if (m->progress_line > 0)
		fputs("\r\033[K", stderr);
	m->progress_line = 0;
	m->token = 0;
	m->label = NULL;
	m->hard = 0;
}

/* Answers a request of the server's (mcp_ask). */
static void
answer(struct mcp *m, struct mcp_server *s, const struct mcp_msg *msg)
{
	json_t *out, *result, *error;

	out = json_pack("{s:s,s:O}", "jsonrpc", "2.0", "id", msg->id);
	result = mcp_ask(m, s, msg->method, msg->params, &error);
	if (result != NULL)
		json_object_set_new(out, "result", result);
	else
		json_object_set_new(out, "error", error);
	send_msg(s, out);
}

/*
 * Whether the response id is the request id: by JSON type and value, as
 * JSON-RPC compares them, so that neither 1.0 nor "1" answers request 1.
 */
static int
same_id(const struct mcp_msg *msg, long long id)
{
	return msg->id_integer && json_number_value(msg->id) == (double)id;
}

/*
 * Whether an error with a null id answers request id of s. JSON-RPC
 * gives a null id to the error about a message whose id could not be
 * read (a parse error, an invalid request): that can only be request id
 * when it was the last line sent to s. Otherwise it answers nothing.
 */
static int
null_answers(const struct mcp_server *s, const struct mcp_msg *msg,
    long long id)
{
	double code;

	if (!json_is_null(msg->id) || msg->error == NULL ||
	    s->last_sent != id)
		return 0;
	code = json_number_value(json_object_get(msg->error, "code"));
	return code == -32700 || code == -32600;
}

/*
 * Whether a line that mcp_msg_parse refused (msg) is noise rather than a
 * broken message: not JSON, or JSON that is not an object of "jsonrpc":
 * "2.0", as a banner, a console.log or a logger's JSON line is. A message
 * that says it is JSON-RPC and breaks its rules is not noise, nor is one
 * nested past what we read: either may be the answer waited for.
 */
static int
is_noise(const struct mcp_msg *msg)
{
	const json_t *v;

	if (msg->doc == NULL)
		return strcmp(msg->why, "nested too deep") != 0;
	v = json_object_get(msg->doc, "jsonrpc");
	return !json_is_object(msg->doc) || !json_is_string(v) ||
	    strcmp(json_string_value(v), "2.0") != 0;
}

/*
 * Says a line of server s's output that is noise, as its standard error
 * is said: quoted, its first MCP_ERR_LINE bytes at most, then how many
 * more were cut.
 */
static void
noise(struct mcp *m, struct mcp_server *s, const char *line, size_t len)
{
	struct buf b = BUF_INIT;
	size_t keep = cut_at(line, len, MCP_ERR_LINE);

	if (m->note == NULL)
		return;
	buf_adds(&b, "not JSON-RPC, passed over: ");
	jsonw_string(&b, line, keep);
	if (keep < len)
		buf_printf(&b, "... (%zu more bytes cut)", len - keep);
	m->note(m->note_arg, s->name, b.data, b.len);
	buf_free(&b);
}

/* The job of -j's waiting on s whose request msg answers, or NULL. */
static struct mcp_job *
job_of(struct mcp *m, const struct mcp_server *s, const struct mcp_msg *msg)
{
	struct mcp_job *j;
	size_t i;

	for (i = 0; i < m->njobs; i++) {
		j = m->jobs[i];
		if (j->s == s && j->state == J_WAITING &&
		    j->r.kind == R_PENDING && (same_id(msg, j->id) ||
		    null_answers(s, msg, j->id)))
			return j;
	}
	return NULL;
}

/*
 * Fails every job of -j's still waiting on s, kind and why; with took,
 * a job whose call s never read (all its bytes still in the pipe) is
 * marked unread, to be sent again once.
 */
static void
jobs_fail(struct mcp *m, const struct mcp_server *s, int kind,
    const char *why, int took)
{
	struct mcp_job *j;
	size_t i;

	for (i = 0; i < m->njobs; i++) {
		j = m->jobs[i];
		if (j->s != s || j->state != J_WAITING ||
		    j->r.kind != R_PENDING)
			continue;
		fail(&j->r, kind, "%s", why);
		j->r.unread = took && s->took != NONE && s->took <= j->call_at;
		m->jobs_done = 1;
	}
}

/*
 * One line from server s (len bytes, the newline off). The answer to the
 * request id of w, the server waited on, fills r; any other answer is
 * dropped (a cancelled request's). A line that is not JSON-RPC at all is
 * said and passed over, as the SDKs do, up to MCP_MAX_NOISE of them in
 * the server's life; the last of those, or a line that breaks JSON-RPC,
 * is said, and its text left in broke: the caller stops the server.
 */
static void
handle_line(struct mcp *m, struct mcp_server *s, const char *line,
    size_t len, struct mcp_server *w, long long id, struct reply *r,
    struct buf *broke)
{
	struct mcp_msg msg;
	struct mcp_job *j;
	char q[120];
	size_t i;

	if (len > 0 && line[len - 1] == '\r')
		len--;
	for (i = 0; i < len && (line[i] == ' ' || line[i] == '\t'); i++)
		continue;
	if (i == len)
		return;
	if (mcp_msg_parse(&msg, line, len) != 0) {
		if (!is_noise(&msg))
			buf_printf(broke, "%s: not a JSON-RPC message (%s): %s",
			    s->name, msg.why, diag_quote(q, sizeof(q), line,
			    len));
		else if (++s->noise >= MCP_MAX_NOISE)
			buf_printf(broke, "%s: %u lines that are not JSON-RPC "
			    "messages, the last (%s): %s", s->name, s->noise,
			    msg.why, diag_quote(q, sizeof(q), line, len));
		else
			noise(m, s, line, len);
		if (broke->len > 0) {
			diag_warnx("%s", buf_cstr(broke));
			m->trouble = 1;
		}
		mcp_msg_free(&msg);
		return;
	}
	switch (msg.kind) {
	case MCP_MSG_REQUEST:
		answer(m, s, &msg);
		break;
	case MCP_MSG_NOTIFICATION:
		if (strcmp(msg.method, "notifications/message") == 0)
			log_message(m, s, msg.params);
		else if (strcmp(msg.method, "notifications/progress") == 0)
			progress(m, s, msg.params);
		break;
	case MCP_MSG_RESPONSE:
		if ((s != w || r->kind != R_PENDING || (!same_id(&msg, id) &&
		    !null_answers(s, &msg, id))) &&
		    (j = job_of(m, s, &msg)) != NULL) {
			j->r.kind = msg.result != NULL ? R_RESULT : R_ERROR;
			j->r.result = msg.result;
			j->r.error = msg.error;
			j->r.doc = msg.doc;
			m->jobs_done = 1;
			return;
		}
		if (s != w || r->kind != R_PENDING || (!same_id(&msg, id) &&
		    !null_answers(s, &msg, id))) {
			if (json_is_null(msg.id))
				diag_warnx("%s: an error for no request (its "
				    "\"id\" is null) is passed over: %s",
				    s->name, diag_quote(q, sizeof(q), line,
				    len));
			break;
		}
		r->kind = msg.result != NULL ? R_RESULT : R_ERROR;
		r->result = msg.result;
		r->error = msg.error;
		r->doc = msg.doc;
		return;
	default:
		break;
	}
	mcp_msg_free(&msg);
}

/*
 * Passes on the complete lines of a server's standard error; at EOF, the
 * rest too. Of a line, the first MCP_ERR_LINE bytes are kept, and what
 * comes after them, up to its end, is counted and dropped as it comes:
 * a server's standard error holds no more memory than that, however long
 * its lines. While ecut is not 0, ebuf's first escan bytes are the kept
 * part of a line that was cut; otherwise its first escan bytes hold no
 * newline.
 */
static void
err_lines(struct mcp *m, struct mcp_server *s, int eof)
{
	struct buf *b = &s->ebuf;
	size_t off = 0, from = s->escan, end, keep;
	char *nl;

	if (b->len == 0)
		return;
	while ((nl = memchr(b->data + from, '\n', b->len - from)) != NULL) {
		end = (size_t)(nl - b->data);
		if (s->ecut > 0) {	/* its kept part, then all it cut */
			note(m, s, b->data, s->escan, s->ecut + end -
			    s->escan);
			s->ecut = 0;
		} else
			note(m, s, b->data + off, end - off, 0);
		off = from = end + 1;
	}
	if (s->ecut > 0) {		/* the cut line goes on */
		s->ecut += b->len - s->escan;
		b->len = s->escan;
	} else if (b->len - off > MCP_ERR_LINE) {
		keep = cut_at(b->data + off, b->len - off, MCP_ERR_LINE);
		s->ecut = b->len - off - keep;
		b->len = off + keep;
	}
	if (eof && (off < b->len || s->ecut > 0)) {
		note(m, s, b->data + off, b->len - off, s->ecut);
		s->ecut = 0;
		off = b->len;
	}
	memmove(b->data, b->data + off, b->len - off);
	b->len -= off;
	s->escan = b->len;
}

/* Reads more of a pipe into b; 1 read, 0 nothing now, -1 its end. */
static int
read_more(int *fd, struct buf *b)
{
	ssize_t n;

	buf_reserve(b, CHUNK);
	while ((n = read(*fd, b->data + b->len, CHUNK)) == -1 &&
	    errno == EINTR)
		continue;
	if (n > 0) {
		b->len += (size_t)n;
		return 1;
	}
	if (n == -1 && errno == EAGAIN)
		return 0;
	close(*fd);
	*fd = -1;
	return -1;
}

/*
 * How many bytes pipe fd holds now; a chunk's worth when it cannot say.
 * What is read of a server that has ended stops there, so that a process
 * it left that keeps its pipes open and writes cannot keep us reading.
 */
static size_t
pending(int fd)
{
	int n;

	if (ioctl(fd, FIONREAD, &n) == -1 || n < 0)
		return CHUNK;
	return (size_t)n;
}

static void
read_err(struct mcp *m, struct mcp_server *s)
{
	int rc;

	if (s->ch.err == -1)
		return;
	rc = read_more(&s->ch.err, &s->ebuf);
	if (rc != 0)
		err_lines(m, s, rc == -1);
}

/* What the standard error of a server that has ended holds now, said. */
static void
err_now(struct mcp *m, struct mcp_server *s)
{
	size_t left, len;

	if (s->ch.err != -1)
		for (left = pending(s->ch.err); left > 0; ) {
			len = s->ebuf.len;
			if (read_more(&s->ch.err, &s->ebuf) != 1)
				break;
			len = s->ebuf.len - len;
			left -= len < left ? len : left;
			err_lines(m, s, 0);
		}
	err_lines(m, s, 1);
}

/* The servers being stopped, for drain. */
struct stopping {
	struct mcp		 *m;
	struct mcp_server	**set;
};

/* A stopping server's output is thrown away; its stderr passed on. */
static void
drain(void *arg, size_t i, int fd)
{
	struct stopping *st = arg;
	struct mcp_server *s = st->set[i];

	if (fd == s->ch.err)
		read_err(st->m, s);
	else {
		buf_reset(&s->rbuf);
		(void)read_more(&s->ch.out, &s->rbuf);
	}
}

/*
 * Stops the servers of set (n of them), as proc_end does, MCP_GRACE
 * seconds a step; their standard error is passed on meanwhile, their
 * output thrown away. res (or NULL) gets how the first one ended.
 */
static void
stop_set(struct mcp *m, struct mcp_server **set, size_t n, int gentle,
    struct proc_result *res)
{
	struct stopping st = { m, set };
	struct proc_child **ch;
	struct proc_result *ends;
	struct mcp_server *s;
	size_t i, k;

	for (i = k = 0; i < n; i++) {	/* the remote ones, first */
		s = set[i];
		if (s->transport == MCP_STDIO) {
			set[k++] = s;
			continue;
		}
		mcp_http_close(m, s, gentle);
		s->running = 0;
		s->modern = 0;
		buf_reset(&s->wbuf);
		buf_free(&s->rbuf);
		s->rscan = 0;
		memset(&s->end, 0, sizeof(s->end));
		if (res != NULL && i == 0)
			*res = s->end;
	}
	if ((n = k) == 0)
		return;
	ch = xcalloc(n, sizeof(*ch));
	ends = xcalloc(n, sizeof(*ends));
	for (i = 0; i < n; i++)
		ch[i] = &set[i]->ch;
	proc_end(ch, n, gentle, MCP_GRACE, drain, &st, ends);
	for (i = 0; i < n; i++) {
		s = set[i];
		if (!s->reaped)		/* else it was reaped before */
			s->end = ends[i];
		err_now(m, s);
		proc_close(&s->ch);
		s->running = 0;
		s->modern = 0;
		s->reaped = 0;
		buf_reset(&s->wbuf);
		buf_free(&s->rbuf);
		buf_free(&s->ebuf);
		s->woff = s->rscan = s->escan = s->ecut = 0;
	}
	if (res != NULL)
		*res = set[0]->end;
	free(ch);
	free(ends);
}

static void
stop(struct mcp *m, struct mcp_server *s, int gentle,
    struct proc_result *res)
{
	stop_set(m, &s, 1, gentle, res);
}

/* "server NAME exited with status N" or "... was killed by signal N". */
static void
ended(struct reply *r, const struct mcp_server *s,
    const struct proc_result *res)
{
	if (res->signo != 0)
		fail(r, F_DIED, "server %s was killed by signal %d", s->name,
		    res->signo);
	else
		fail(r, F_DIED, "server %s exited with status %d", s->name,
		    res->status);
}

/*
 * Whether the process of running server s has ended: reaped now or
 * before, how in s->end; what it left in its group has been killed.
 */
static int
reaped(struct mcp_server *s)
{
	struct proc_result res;

	if (!s->reaped && s->ch.pid != -1 && proc_reaped(&s->ch, &res)) {
		s->end = res;
		s->reaped = 1;
	}
	return s->reaped;
}

/*
 * The lines of server s's output read so far, at eof the rest too; r
 * fills with the answer to request id of w. The search for a newline
 * goes on where it stopped. Returns 0, or -1 when s broke the protocol
 * or wrote a line longer than m->max_line: it has been stopped, and the
 * request of w failed if it was waiting for s.
 */
static int
out_lines(struct mcp *m, struct mcp_server *s, int eof,
    struct mcp_server *w, long long id, struct reply *r)
{
	struct buf broke = BUF_INIT, *b = &s->rbuf;
	char *nl;
	size_t off = 0, end;
	int kind = F_BROKEN;

	while (broke.len == 0 && off < b->len) {
		nl = memchr(b->data + s->rscan, '\n', b->len - s->rscan);
		end = nl != NULL ? (size_t)(nl - b->data) : b->len;
		if (end - off > m->max_line) {
			kind = F_LONG;
			buf_printf(&broke, "server %s wrote a line longer than "
			    "--max-line (%zu bytes)", s->name, m->max_line);
			if (s != w || r->kind != R_PENDING) {
				diag_warnx("%s", buf_cstr(&broke));
				m->trouble = 1;
			}
			break;
		}
		if (nl == NULL && !eof) {
			s->rscan = b->len;
			break;
		}
		handle_line(m, s, b->data + off, end - off, w, id, r, &broke);
		off = s->rscan = nl != NULL ? end + 1 : end;
	}
	if (broke.len > 0) {
		jobs_fail(m, s, kind, buf_cstr(&broke), 0);
		stop(m, s, 0, NULL);
		if (s == w && r->kind == R_PENDING)
			fail(r, kind, "%s", buf_cstr(&broke));
		buf_free(&broke);
		return -1;
	}
	if (off > 0) {
		memmove(b->data, b->data + off, b->len - off);
		b->len -= off;
		s->rscan -= off;
	}
	if (b->cap > BIG && b->len <= CHUNK) {	/* a long line's room */
		memset(&broke, 0, sizeof(broke));
		buf_add(&broke, b->data, b->len);
		buf_free(b);
		*b = broke;
	}
	return 0;
}

/*
 * Server s has ended, or has closed its output: what it may have read
 * of its input is measured, it is stopped (what is left of its group
 * ends), and the request of w fails if it was waiting for s, unread set
 * when the request was never read.
 */
static void
finish(struct mcp *m, struct mcp_server *s, struct mcp_server *w,
    struct reply *r)
{
	struct proc_result res;
	struct reply died;
	int waited = s == w && r->kind == R_PENDING, unread;

	measure(s, waited);
	unread = s->call_at != NONE && s->took <= s->call_at;
	memset(&res, 0, sizeof(res));
	memset(&died, 0, sizeof(died));
	if (m->njobs > 0) {	/* -j's calls on s: how it ended, said */
		stop(m, s, 1, &res);
		ended(&died, s, &res);
		jobs_fail(m, s, F_DIED, buf_cstr(&died.why), 1);
		buf_free(&died.why);
	} else
		stop(m, s, 1, &res);
	if (waited) {
		ended(r, s, &res);
		r->unread = unread;
	}
}

/*
 * Server s's process has ended, while a process it left may hold its
 * output open: what the pipes hold now is read (what it wrote before it
 * ended is not lost), and it is finished.
 */
static void
gone(struct mcp *m, struct mcp_server *s, struct mcp_server *w,
    long long id, struct reply *r)
{
	size_t left, len;

	if (s->ch.out != -1)
		for (left = pending(s->ch.out); left > 0; ) {
			len = s->rbuf.len;
			if (read_more(&s->ch.out, &s->rbuf) != 1)
				break;
			len = s->rbuf.len - len;
			left -= len < left ? len : left;
			if (out_lines(m, s, 0, w, id, r) != 0)
				return;
		}
	if (out_lines(m, s, 1, w, id, r) == 0)
		finish(m, s, w, r);
}

/*
 * A note of remote server s about request nid, for the job of -j's that
 * waits on it (0: any of them): 1 when one took it, else 0.
 */
static int
job_note(struct mcp *m, struct mcp_server *s, long long nid, int kind,
    long status, struct buf *why)
{
	struct mcp_job *j;
	size_t i;
	int took = 0;

	for (i = 0; i < m->njobs; i++) {
		j = m->jobs[i];
		if (j->s != s || j->state != J_WAITING ||
		    j->r.kind != R_PENDING || (nid != 0 && nid != j->id))
			continue;
		if (kind == F_TROUBLE && !took) {
			diag_warnx("%s", buf_cstr(why));
			m->trouble = 1;
		}
		fail(&j->r, kind, "%s", buf_cstr(why));
		j->r.status = status;
		j->r.unread = kind == F_DIED && status == 404;
		m->jobs_done = took = 1;
	}
	return took;
}

/*
 * What the remote servers did: their transfers moved on, the messages
 * that came handled as lines, and the notes about their requests taken:
 * one about request id of w fills r (the transport of a legacy server
 * ready, with id MCP_HTTP_READY: R_RESULT), others are said. A server
 * whose session ended or that wrote too long a message is stopped.
 * Returns whether anything came.
 */
static int
remote(struct mcp *m, struct mcp_server *w, long long id, struct reply *r)
{
	struct buf why = BUF_INIT;
	struct mcp_server *s;
	long long nid;
	long status;
	size_t i;
	int kind, any = 0, end;

	mcp_http_perform(m);
	for (i = 0; i < m->n; i++) {
		s = &m->v[i];
		if (!s->running || s->http == NULL)
			continue;
		if (s->rbuf.len > 0) {
			any = 1;
			if (out_lines(m, s, 0, w, id, r) != 0)
				continue;
		}
		end = 0;
		while (mcp_http_take(s, &nid, &kind, &status, &why)) {
			any = 1;
			end |= kind == F_DIED || kind == F_LONG;
			if (s != w || r->kind != R_PENDING ||
			    (nid != id && nid != 0)) {
				if (kind != 0 && !job_note(m, s, nid, kind,
				    status, &why))
					diag_warnx("%s", buf_cstr(&why));
				continue;
			}
			if (kind == 0) {
				r->kind = R_RESULT;
				continue;
			}
			if (kind == F_TROUBLE) {	/* it cannot be used */
				diag_warnx("%s", buf_cstr(&why));
				m->trouble = 1;
			}
			fail(r, kind, "%s", buf_cstr(&why));
			r->status = status;
			r->unread = kind == F_DIED && status == 404;
		}
		if (end) {
			jobs_fail(m, s, F_DIED, "the server's session ended", 1);
			stop(m, s, 0, NULL);
		}
	}
	buf_free(&why);
	return any;
}

/*
 * The jobs of -j's whose time is up at t fail (F_TIMEOUT), after the
 * time paused (a person's, a command's) is given back to each; returns
 * the soonest time limit of those still waiting, or 0 for none.
 */
static double
jobs_due(struct mcp *m, double t, double paused)
{
	struct mcp_job *j;
	double soonest = 0;
	size_t i;

	for (i = 0; i < m->njobs; i++) {
		j = m->jobs[i];
		if (j->state != J_WAITING || j->r.kind != R_PENDING)
			continue;
		j->deadline += paused;
		if (t >= j->deadline) {
			fail(&j->r, F_TIMEOUT, "no answer");
			j->late = j->hard > 0 && t >= j->hard;
			m->jobs_done = 1;
		} else if (soonest == 0 || j->deadline < soonest)
			soonest = j->deadline;
	}
	return soonest;
}

/*
 * Listens to every running server until the answer to request id of w
 * has come, or until the deadline (fail F_TIMEOUT), or until w ended
 * (F_DIED), broke the protocol (F_BROKEN) or wrote too long a line
 * (F_LONG), or a stop signal came (F_CAUGHT). Meanwhile the servers'
 * requests are answered, their log messages and standard error said, and
 * the end of each noticed: the end of its output, or of its process even
 * while a process it left holds its output open. With w NULL and
 * deadline 0, until infd is readable: returns 1 then, and 0 after a stop
 * signal; with deadline -1, what the servers have done so far is taken
 * in, without waiting.
 */
int
mcp_pump(struct mcp *m, struct mcp_server *w, long long id, double deadline,
    struct reply *r, int infd)
{
	struct pollfd *p;
	struct mcp_server *s;
	size_t i, np;
	double t, soonest, paused;
	int ms, rc, ready = 0, rounds = 0;

	p = xcalloc(3 * m->n + 2, sizeof(*p));
	while (r->kind == R_PENDING) {
		if (proc_caught()) {
			m->caught = 1;
			fail(r, F_CAUGHT, "interrupted by signal %d",
			    proc_caught());
			break;
		}
		for (i = 0; i < m->n; i++)
			if (m->v[i].running && reaped(&m->v[i]))
				gone(m, &m->v[i], w, id, r);
		if (r->kind != R_PENDING)
			break;
		if (w != NULL && !w->running) {
			fail(r, F_DIED, "server %s is not running", w->name);
			break;
		}
		paused = m->paused;	/* a person's time, a command's */
		m->paused = 0;
		if (paused > 0 && deadline > 0)
			deadline += paused;
		if (m->progressed && deadline > 0)
			deadline = proc_now() + mcp_limit(m, w);
		m->progressed = 0;
		if (m->hard > 0 && deadline > m->hard)
			deadline = m->hard;
		t = proc_now();
		if (deadline > 0 && t >= deadline) {
			fail(r, F_TIMEOUT, "no answer");
			break;
		}
		soonest = jobs_due(m, t, paused);
		if (w == NULL && deadline >= 0 && m->jobs_done)
			break;		/* a job of -j's has its reply */
		np = 0;
		p[np].fd = proc_wakefd();
		p[np++].events = POLLIN;
		p[np].fd = infd;
		p[np++].events = POLLIN;
		for (i = 0; i < m->n; i++) {
			s = &m->v[i];
			p[np].fd = s->running ? s->ch.out : -1;
			p[np++].events = POLLIN;
			p[np].fd = s->running ? s->ch.err : -1;
			p[np++].events = POLLIN;
			p[np].fd = s->running && s->woff < s->wbuf.len ?
			    s->ch.in : -1;
			p[np++].events = POLLOUT;
		}
		ms = deadline > 0 ? (int)((deadline - t) * 1000) + 1 :
		    deadline < 0 ? 0 : -1;
		if (soonest > 0 && deadline >= 0 && (ms < 0 ||
		    (soonest - t) * 1000 + 1 < ms))
			ms = (int)((soonest - t) * 1000) + 1;
		rc = m->curlm != NULL ? mcp_http_poll(m, p, np, ms) :
		    poll(p, np, ms);
		if (m->curlm != NULL && remote(m, w, id, r))
			rc = 1;
		if (deadline < 0 && (rc == 0 || ++rounds > 8))
			break;
		if (rc <= 0)
			continue;
		if (p[0].revents != 0)
			proc_woken();
		for (i = 0; i < m->n; i++) {
			s = &m->v[i];
			if (s->running && p[4 + 3 * i].revents != 0)
				mcp_flush_out(s);
			if (s->running && p[3 + 3 * i].revents != 0)
				read_err(m, s);
			if (!s->running || p[2 + 3 * i].revents == 0 ||
			    s->ch.out == -1)
				continue;
			rc = read_more(&s->ch.out, &s->rbuf);
			if (rc != 0 && out_lines(m, s, rc == -1, w, id, r) ==
			    0 && rc == -1)
				finish(m, s, w, r);
		}
		if (infd != -1 && p[1].revents != 0) {
			ready = 1;
			break;
		}
	}
	free(p);
	return ready;
}

/*
 * Takes in what the servers have done meanwhile, without waiting: the
 * lines they wrote, and the end of one that has ended, which is then
 * started again when it is needed rather than sent a call it will never
 * read.
 */
void
mcp_settle(struct mcp *m)
{
	struct reply r;

	memset(&r, 0, sizeof(r));
	mcp_pump(m, NULL, 0, -1, &r, -1);
	mcp_reply_reset(&r);
	buf_free(&r.why);
}

/*
 * Listens to the servers for seconds (a task's poll interval): 0, or -1
 * when a stop signal came.
 */
int
mcp_idle(struct mcp *m, double seconds)
{
	struct reply r;

	memset(&r, 0, sizeof(r));
	mcp_pump(m, NULL, 0, proc_now() + seconds, &r, -1);
	mcp_reply_reset(&r);
	buf_free(&r.why);
	return m->caught ? -1 : 0;
}

/*
 * Waits until fd can be read, listening to the running servers
 * meanwhile (their requests, log messages, standard error, ends).
 * Returns 0, 1 when a job of -j's has its reply first, or -1 when a
 * stop signal came.
 */
int
mcp_wait(struct mcp *m, int fd)
{
	struct reply r;
	int ready;

	memset(&r, 0, sizeof(r));
	ready = m->jobs_done ? 0 : mcp_pump(m, NULL, 0, 0, &r, fd);
	mcp_reply_reset(&r);
	buf_free(&r.why);
	return ready ? 0 : m->caught ? -1 : 1;
}


/* A request to s and its answer in r, within timeout seconds. */
long long
mcp_request(struct mcp *m, struct mcp_server *s, const char *method,
    json_t *params, double timeout, struct reply *r)
{
	long long id;

	mcp_reply_reset(r);
	id = mcp_send_request(s, method, params);
	mcp_pump(m, s, id, proc_now() + timeout, r, -1);
	return id;
}

/* A fault that makes s useless: said, s stopped, status 3 at the end. */
void
mcp_trouble(struct mcp *m, struct mcp_server *s, struct reply *r,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(r, F_TROUBLE, fmt, ap);
	va_end(ap);
	diag_warnx("%s", buf_cstr(&r->why));
	m->trouble = 1;
	jobs_fail(m, s, F_TROUBLE, buf_cstr(&r->why), 0);
	if (s->running)
		stop(m, s, 0, NULL);
}

/*
 * What a failed request of the lifecycle or of tools/list means: the
 * server is of no use (said; r->fail F_TROUBLE) unless a stop signal
 * came. what names the request.
 */
void
mcp_lost(struct mcp *m, struct mcp_server *s, struct reply *r,
    const char *what)
{
	struct buf b = BUF_INIT;

	if (r->kind == R_ERROR) {
		mcp_rpc_error_text(&b, r->error);
		mcp_trouble(m, s, r, "%s: %s failed: %s", s->name, what,
		    buf_cstr(&b));
	} else if (r->fail == F_TIMEOUT)
		mcp_trouble(m, s, r, "%s: no answer to %s within %g s", s->name,
		    what, mcp_limit(m, s));
	else if (r->fail == F_DIED || r->fail == F_LONG) {
		buf_adds(&b, buf_cstr(&r->why));
		mcp_trouble(m, s, r, "%s during %s", buf_cstr(&b), what);
	} else if (r->fail == F_BROKEN) {
		r->fail = F_TROUBLE;	/* said already */
		m->trouble = 1;
	} else if (r->fail == F_FAILED) {	/* a remote server's */
		buf_adds(&b, buf_cstr(&r->why));
		mcp_trouble(m, s, r, "%s (during %s)", buf_cstr(&b), what);
	} else if (r->fail == F_TROUBLE && s->running)	/* said already */
		stop(m, s, 0, NULL);
	buf_free(&b);
}

/*
 * The end: each running server's standard input closed, MCP_GRACE
 * seconds for all to end, then SIGTERM, then SIGKILL.
 */
int
mcp_shutdown(struct mcp *m)
{
	struct mcp_server **set;
	size_t i, n = 0;

	set = xcalloc(m->n + 1, sizeof(*set));
	for (i = 0; i < m->n; i++)
		if (m->v[i].running) {
			mcp_flush_out(&m->v[i]);
			set[n++] = &m->v[i];
		}
	if (n > 0)
		stop_set(m, set, n, 1, NULL);
	free(set);
	return 0;
}

void
mcp_free(struct mcp *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		mcp_http_close(m, &m->v[i], 0);
		mcp_server_clear(&m->v[i]);
	}
	for (i = 0; i < m->noff; i++)
		mcp_server_clear(&m->off[i]);
	mcp_http_end(m);
	for (i = 0; i < m->nroots; i++)
		free(m->roots[i]);
	for (i = 0; m->sampling != NULL && m->sampling[i] != NULL; i++)
		free(m->sampling[i]);
	free(m->roots);
	free(m->sampling);
	m->roots = m->sampling = NULL;
	m->nroots = 0;
	free(m->jobs);
	m->jobs = NULL;
	m->njobs = m->jobs_cap = 0;
	free(m->v);
	free(m->off);
	free(m->slots);
	m->v = m->off = NULL;
	m->slots = NULL;
	m->n = m->cap = m->nslots = m->noff = 0;
}
