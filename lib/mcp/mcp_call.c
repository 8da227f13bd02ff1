/*
 * mcp_call: a call run. Routed to its server, sent as tools/call (or as
 * a task), and its answer, or how it failed, made its event; alone
 * (mcp_call_run), or as one of the jobs of -j's, calls run at once and
 * settled as their replies come.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/jsonw.h"
#include "base/proc.h"
#include "base/xalloc.h"
#include "mcp/mcp.h"
#include "mcp/mcp_http.h"
#include "mcp/mcp_int.h"

/* {"type":TYPE,"toolCallId":ID,"toolName":T[,"serverName":S] */
static void
event_head(struct buf *b, const char *type, const struct mcp_call *c,
    const struct mcp_server *s)
{
	buf_printf(b, "{\"type\":\"%s\",\"toolCallId\":", type);
	jsonw_string(b, c->id, strlen(c->id));
	buf_adds(b, ",\"toolName\":");
	jsonw_string(b, c->tool, strlen(c->tool));
	if (s != NULL) {
		buf_adds(b, ",\"serverName\":");
		jsonw_string(b, s->name, strlen(s->name));
	}
}

static void
event_iteration(struct buf *b, const struct mcp_call *c)
{
	buf_adds(b, ",\"iteration\":");
	if (c->iteration != NULL)
		jsonw_stringify(b, c->iteration);
	else
		buf_addc(b, '0');
}

/*
 * What a tools/call result holds beside its text, for its event, an
 * error as a success: its structuredContent and its content items that
 * are not text, as sent, and its _meta less the server's name, which the
 * 2026-07-28 era puts on every result and serverName already says.
 */
static void
result_extras(struct buf *b, const json_t *result)
{
	const json_t *content, *item, *type, *sc, *meta;
	json_t *kept;
	size_t i;
	int others = 0;

	if ((sc = json_object_get(result, "structuredContent")) != NULL) {
		buf_adds(b, ",\"structuredContent\":");
		jsonw_stringify(b, sc);
	}
	content = json_object_get(result, "content");
	json_array_foreach(content, i, item) {
		type = json_object_get(item, "type");
		if (json_is_string(type) &&
		    strcmp(json_string_value(type), "text") == 0)
			continue;
		buf_adds(b, others++ == 0 ? ",\"content\":[" : ",");
		jsonw_stringify(b, item);
	}
	if (others > 0)
		buf_addc(b, ']');
	if ((meta = json_object_get(result, "_meta")) == NULL)
		return;
	kept = json_is_object(meta) ? json_copy((json_t *)meta) :
	    json_incref((json_t *)meta);
	if (json_is_object(kept))
		json_object_del(kept, "io.modelcontextprotocol/serverInfo");
	if (!json_is_object(kept) || json_object_size(kept) > 0) {
		buf_adds(b, ",\"_meta\":");
		jsonw_stringify(b, kept);
	}
	json_decref(kept);
}

/*
 * The error event of c, its message that of o; with result (or NULL),
 * the isError result it reports, whose extras follow.
 */
static void
error_event(struct mcp_outcome *o, const struct mcp_call *c,
    const struct mcp_server *s, const json_t *result)
{
	event_head(&o->record, "error", c, s);
	buf_adds(&o->record, ",\"error\":");
	jsonw_string(&o->record, o->message.data != NULL ? o->message.data :
	    "", o->message.len);
	buf_adds(&o->record, ",\"recoverable\":true");
	event_iteration(&o->record, c);
	if (result != NULL)
		result_extras(&o->record, result);
	buf_adds(&o->record, "}\n");
}

/* The text of a result's text items, joined by newlines. */
static void
joined_text(struct buf *b, const json_t *content)
{
	const json_t *item, *text;
	size_t i;
	int n = 0;

	json_array_foreach(content, i, item) {
		text = json_object_get(item, "text");
		if (!json_is_string(json_object_get(item, "type")) ||
		    strcmp(json_string_value(json_object_get(item, "type")),
		    "text") != 0 || !json_is_string(text))
			continue;
		if (n++ > 0)
			buf_addc(b, '\n');
		buf_add(b, json_string_value(text), json_string_length(text));
	}
}

/*
 * The event of a tools/call result: tool_result, or error for isError;
 * either keeps what the result holds beside its text.
 */
static void
result_event(struct mcp_outcome *o, const struct mcp_call *c,
    const struct mcp_server *s, const json_t *result)
{
	const json_t *content, *sc;
	struct buf text = BUF_INIT;

	content = json_object_get(result, "content");
	if (!json_is_array(content))
		content = NULL;
	joined_text(&text, content);
	sc = json_object_get(result, "structuredContent");
	if (json_is_true(json_object_get(result, "isError"))) {
		buf_add(&o->message, text.data, text.len);
		buf_free(&text);
		/* the model is told something, whatever the tool gave */
		if (o->message.len == 0 && sc != NULL) {
			buf_adds(&o->message, "the tool reported an error: ");
			jsonw_stringify(&o->message, sc);
		} else if (o->message.len == 0)
			buf_adds(&o->message, content != NULL ?
			    "the tool reported an error without a text" :
			    "the tool reported an error without a text (its "
			    "\"content\" is not an array)");
		error_event(o, c, s, result);
		o->status = DIAG_INVALID;
		return;
	}
	event_head(&o->record, "tool_result", c, s);
	buf_adds(&o->record, ",\"result\":");
	jsonw_string(&o->record, text.data != NULL ? text.data : "",
	    text.len);
	buf_free(&text);
	event_iteration(&o->record, c);
	result_extras(&o->record, result);
	buf_adds(&o->record, "}\n");
}

/*
 * Whether a result of the 2026 era is other than complete, as the
 * "input_required" of a server that asks the client for input (which
 * mcp-run, declaring no capability, gives none); said in o->message.
 */
static int
incomplete(struct mcp_outcome *o, const json_t *result)
{
	const json_t *rt;
	char q[80];

	rt = json_object_get(result, "resultType");
	if (rt == NULL || (json_is_string(rt) &&
	    strcmp(json_string_value(rt), "complete") == 0))
		return 0;
	if (json_is_string(rt))
		diag_quote(q, sizeof(q), json_string_value(rt),
		    json_string_length(rt));
	else
		snprintf(q, sizeof(q), "that is not a string");
	buf_printf(&o->message, "the server answered a result of type %s, "
	    "which mcp-run does not take", q);
	return 1;
}

/* A job for call c, its outcome o (initialised by the caller): routed. */
static struct mcp_job *
job_new(struct mcp *m, const struct mcp_call *c, struct mcp_outcome *o)
{
	struct mcp_job *j = xcalloc(1, sizeof(*j));

	j->c = c;
	j->o = o;
	j->again = 1;
	o->status = DIAG_OK;
	if ((j->s = mcp_route(m, c, o, &j->r)) == NULL) {
		if (!m->caught) {
			o->refused = 1;
			o->status = DIAG_INVALID;
			error_event(o, c, NULL, NULL);
		}
		j->state = J_DONE;
		return j;
	}
	o->server = j->s->name;
	j->state = J_READY;
	return j;
}

/* The end of a job whose server could not be started or spoken to. */
static void
job_failed(struct mcp *m, struct mcp_job *j)
{
	if (j->r.fail != F_CAUGHT && !m->caught) {
		buf_adds(&j->o->message, buf_cstr(&j->r.why));
		j->o->status = DIAG_TROUBLE;
		error_event(j->o, j->c, j->s, NULL);
	}
	j->state = J_DONE;
}

/*
 * Sends the call of job j to its server, started if it is not running
 * (or has ended since its last call). With wait, or for a tool called
 * as a task, the answer is waited for here (J_REPLIED); else the job
 * waits among -j's (J_WAITING) until pump fills its reply.
 */
static void
job_send(struct mcp *m, struct mcp_job *j, int wait)
{
	const struct mcp_call *c = j->c;
	struct mcp_server *s = j->s;
	json_t *params;
	char q[80];
	int task;

	mcp_reply_reset(&j->r);
	if (mcp_ready(m, s, &j->r) != 0) {
		job_failed(m, j);
		return;
	}
	if (mcp_no_tools(s)) {
		buf_printf(&j->o->message, "server %s declared no tools",
		    diag_quote(q, sizeof(q), s->name, strlen(s->name)));
		j->o->ptr = c->ptr_server;
		j->o->refused = 1;
		j->o->status = DIAG_INVALID;
		error_event(j->o, c, s, NULL);
		j->state = J_DONE;
		return;
	}
	task = mcp_task_wanted(m, s, c->tool, &j->r);	/* may list tools */
	/* the token is the request's id, as the SDKs make it */
	j->token = s->next_id + 1;
	params = json_pack("{s:s,s:O,s:{s:I}}", "name", c->tool,
	    "arguments", c->args, "_meta", "progressToken",
	    (json_int_t)j->token);
	buf_reset(&j->label);
	buf_printf(&j->label, "%s: %s", s->name, c->tool);
	if (m->max_time > 0 && j->hard == 0)
		j->hard = proc_now() + m->max_time;
	j->call_at = s->wrote + (s->wbuf.len - s->woff);
	if (!wait && !task) {
		mcp_reply_reset(&j->r);	/* what the lifecycle left there */
		j->id = mcp_send_request(s, "tools/call", params);
		j->deadline = proc_now() + mcp_limit(m, s);
		if (j->hard > 0 && j->deadline > j->hard)
			j->deadline = j->hard;
		j->state = J_WAITING;
		return;
	}
	m->token = j->token;
	m->label = buf_cstr(&j->label);
	m->hard = j->hard;
	s->call_at = j->call_at;
	if (task)
		j->id = mcp_task_call(m, s, params, mcp_limit(m, s), &j->r);
	else
		j->id = mcp_request(m, s, "tools/call", params, mcp_limit(m, s),
		    &j->r);
	s->call_at = NONE;
	j->late = m->hard > 0 && proc_now() >= m->hard;
	mcp_progress_done(m);
	j->state = J_REPLIED;
}

/*
 * What the reply of job j makes of its call: its event (and for a
 * failed call its message) in j->o, J_DONE; or, for a call its server
 * ended without reading, the call sent once more.
 */
static void
job_end(struct mcp *m, struct mcp_job *j, int wait)
{
	struct mcp_outcome *o = j->o;
	const struct mcp_call *c = j->c;
	struct mcp_server *s = j->s;
	struct reply *r = &j->r;

	if (r->kind == R_FAIL && r->fail == F_DIED && r->unread && j->again) {
		j->again = 0;
		job_send(m, j, wait);
		return;
	}
	j->state = J_DONE;
	if (r->kind == R_RESULT && s->modern && incomplete(o, r->result)) {
		o->status = DIAG_INVALID;
		error_event(o, c, s, NULL);
	} else if (r->kind == R_RESULT)
		result_event(o, c, s, r->result);
	else if (r->kind == R_ERROR) {
		mcp_rpc_error_text(&o->message, r->error);
		o->status = DIAG_INVALID;
		error_event(o, c, s, NULL);
	} else if (r->fail == F_TIMEOUT) {
		if (j->late)
			buf_printf(&o->message, "ran past --max-time (%g s)",
			    m->max_time);
		else
			buf_printf(&o->message, "timed out after %g s",
			    mcp_limit(m, s));
		if (j->id != 0 && s->running) {	/* else a task's, cancelled */
			mcp_http_cancel(s, j->id);
			mcp_notify(s, "notifications/cancelled", json_pack(
			    "{s:I,s:s}", "requestId", (json_int_t)j->id,
			    "reason", buf_cstr(&o->message)));
			mcp_flush_out(s);
		}
		o->status = DIAG_INVALID;
		error_event(o, c, s, NULL);
	} else if (r->fail == F_DIED || r->fail == F_LONG ||
	    r->fail == F_FAILED) {
		buf_adds(&o->message, buf_cstr(&r->why));
		if (r->fail == F_DIED)
			buf_adds(&o->message, r->unread ?
			    " before it read the call" : " during the call");
		o->status = DIAG_INVALID;
		error_event(o, c, s, NULL);
	} else
		job_failed(m, j);
}

static void
job_free(struct mcp_job *j)
{
	mcp_reply_reset(&j->r);
	buf_free(&j->r.why);
	buf_free(&j->label);
	free(j);
}

/*
 * Runs call c: routes it, starts its server if it is not running (or
 * has ended since its last call), sends tools/call and waits for the
 * answer. A server that ends without having read any of the call (its
 * bytes all still in the pipe) is started again and sent it, once; one
 * that read it, even in part, fails it. o (initialised by the caller)
 * gets the event line and, for a failed call, its message; o->status is
 * 0, 1 for a failed or refused call, 3 when the server could not be
 * started or broke the protocol. After a stop signal o->record is empty.
 */
void
mcp_call_run(struct mcp *m, const struct mcp_call *c, struct mcp_outcome *o)
{
	struct mcp_job *j = job_new(m, c, o);

	if (j->state == J_READY)
		job_send(m, j, 1);
	while (j->state == J_REPLIED)
		job_end(m, j, 1);
	job_free(j);
}

/*
 * Starts call c as one of -j's: routed, its server started, its
 * tools/call sent; the job is done at once when the call was refused,
 * its server could not be started, or it ran as a task. Else it waits
 * among m->jobs until mcp_jobs_settle sees its reply.
 */
struct mcp_job *
mcp_job_start(struct mcp *m, const struct mcp_call *c, struct mcp_outcome *o)
{
	struct mcp_job *j = job_new(m, c, o);

	if (j->state == J_READY)
		job_send(m, j, 0);
	while (j->state == J_REPLIED)
		job_end(m, j, 0);
	if (j->state == J_WAITING) {
		if (m->njobs == m->jobs_cap) {
			m->jobs_cap = m->jobs_cap > 0 ? 2 * m->jobs_cap : 8;
			m->jobs = xreallocarray(m->jobs, m->jobs_cap,
			    sizeof(*m->jobs));
		}
		m->jobs[m->njobs++] = j;
	}
	return j;
}

int
mcp_job_done(const struct mcp_job *j)
{
	return j->state == J_DONE;
}

/* Frees job j, which is done (or the run is over). */
void
mcp_job_free(struct mcp *m, struct mcp_job *j)
{
	size_t i;

	for (i = 0; i < m->njobs; i++)
		if (m->jobs[i] == j) {
			m->jobs[i] = m->jobs[--m->njobs];
			break;
		}
	job_free(j);
}

/*
 * The jobs whose reply has come are ended (their events made, or their
 * calls sent again); those done leave m->jobs.
 */
void
mcp_jobs_settle(struct mcp *m)
{
	struct mcp_job *j;
	size_t i;

	m->jobs_done = 0;
	for (i = 0; i < m->njobs; ) {
		j = m->jobs[i];
		if (j->state == J_WAITING && j->r.kind != R_PENDING)
			j->state = J_REPLIED;
		while (j->state == J_REPLIED)
			job_end(m, j, 0);
		if (j->state == J_DONE)
			m->jobs[i] = m->jobs[--m->njobs];
		else
			i++;
	}
}

/*
 * Listens to the servers until a job of -j's has its reply (or its time
 * is up): 0, or -1 after a stop signal. Jobs waiting on nothing: 0.
 */
int
mcp_jobs_wait(struct mcp *m)
{
	struct reply r;

	if (m->njobs == 0)
		return 0;
	memset(&r, 0, sizeof(r));
	if (!m->jobs_done)
		mcp_pump(m, NULL, 0, 0, &r, -1);
	mcp_reply_reset(&r);
	buf_free(&r.why);
	return m->caught ? -1 : 0;
}
