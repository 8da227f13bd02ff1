/*
 * mcp_task: a tool called as a task (2025-11-25). The server answers
 * tools/call at once with a task; its status is polled with tasks/get as
 * its pollInterval asks, and once it is over (or needs input, which
 * comes as the server's requests while tasks/result waits) its result is
 * taken with tasks/result, the tools/call result it would have given.
 * A task past the call's time limit is cancelled with tasks/cancel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/proc.h"
#include "mcp/mcp.h"
#include "mcp/mcp_int.h"

#define POLL_MIN	0.05	/* seconds: the least wait between polls */
#define POLL_MAX	30.0	/* and the most */
#define POLL_DEFAULT	1.0	/* when the server names none */

/* The listed tool called name on s, or NULL. */
static const json_t *
find_tool(const struct mcp_server *s, const char *name)
{
	const json_t *t;
	size_t i;

	json_array_foreach(s->tools, i, t)
		if (json_is_string(json_object_get(t, "name")) &&
		    strcmp(json_string_value(json_object_get(t, "name")),
		    name) == 0)
			return t;
	return NULL;
}

/*
 * Whether tool is to be called as a task on s: the server takes tasks
 * for tools/call, and the tool's execution.taskSupport is "required",
 * or "optional" with --tasks. The server's tools are listed for it,
 * once, only when it takes tasks.
 */
int
mcp_task_wanted(struct mcp *m, struct mcp_server *s, const char *tool,
    struct reply *r)
{
	const json_t *t, *ts;

	if (!json_is_object(json_object_get(json_object_get(json_object_get(
	    json_object_get(s->caps, "tasks"), "requests"), "tools"),
	    "call")))
		return 0;
	if (s->tools == NULL && mcp_tools_of(m, s, r) != 0)
		return 0;
	t = find_tool(s, tool);
	ts = json_object_get(json_object_get(t, "execution"), "taskSupport");
	if (!json_is_string(ts))
		return 0;
	return strcmp(json_string_value(ts), "required") == 0 ||
	    (m->tasks && strcmp(json_string_value(ts), "optional") == 0);
}

/* Says a task's status message, as progress is said. */
static void
status_note(struct mcp *m, const json_t *task, struct buf *last)
{
	const json_t *st = json_object_get(task, "status"),
	    *msg = json_object_get(task, "statusMessage");
	struct buf b = BUF_INIT;

	if (json_is_string(st))
		buf_adds(&b, json_string_value(st));
	if (json_is_string(msg)) {
		buf_adds(&b, ": ");
		buf_add(&b, json_string_value(msg), json_string_length(msg));
	}
	if (b.len > 0 && (last->len != b.len ||
	    memcmp(last->data, b.data, b.len) != 0)) {
		buf_reset(last);
		buf_add(last, b.data, b.len);
		mcp_progress_say(m, buf_cstr(&b));
		m->progressed = 1;
	}
	buf_free(&b);
}

/* Whether status st is one to take the result in: over, or asking. */
static int
resolved(const char *st)
{
	return strcmp(st, "completed") == 0 || strcmp(st, "failed") == 0 ||
	    strcmp(st, "cancelled") == 0 || strcmp(st, "input_required") == 0;
}

/*
 * Calls the tool of params (stolen; tools/call's) on s as a task; r gets
 * what tools/call would have: the result, a JSON-RPC error, or a
 * failure (F_TIMEOUT once the task has been cancelled). Returns the id
 * of the last request sent.
 */
long long
mcp_task_call(struct mcp *m, struct mcp_server *s, json_t *params,
    double limit, struct reply *r)
{
	struct buf last = BUF_INIT;
	const json_t *task, *st, *pi;
	char *id = NULL;
	double until, wait;
	long long rid;

	json_object_set_new(params, "task", json_object());
	rid = mcp_request(m, s, "tools/call", params, limit, r);
	if (r->kind != R_RESULT)
		goto out;
	task = json_object_get(r->result, "task");
	if (!json_is_string(json_object_get(task, "taskId"))) {
		/* a server may answer at once, with no task */
		goto out;
	}
	id = strdup(json_string_value(json_object_get(task, "taskId")));
	until = proc_now() + limit;
	for (;;) {
		st = json_object_get(task, "status");
		status_note(m, task, &last);
		if (m->progressed) {
			until = proc_now() + limit;
			m->progressed = 0;
		}
		if (json_is_string(st) && resolved(json_string_value(st)))
			break;
		pi = json_object_get(task, "pollInterval");
		wait = json_is_number(pi) ? json_number_value(pi) / 1000 :
		    POLL_DEFAULT;
		wait = wait < POLL_MIN ? POLL_MIN : wait > POLL_MAX ? POLL_MAX :
		    wait;
		if (m->hard > 0 && until > m->hard)
			until = m->hard;
		if (proc_now() + wait > until)
			wait = until - proc_now();
		if (wait > 0 && mcp_idle(m, wait) != 0) {
			mcp_reply_reset(r);
			r->kind = R_FAIL;
			r->fail = F_CAUGHT;
			goto out;
		}
		if (proc_now() >= until) {
			rid = mcp_request(m, s, "tasks/cancel", json_pack(
			    "{s:s}", "taskId", id), limit, r);
			mcp_reply_reset(r);
			r->kind = R_FAIL;
			r->fail = F_TIMEOUT;
			buf_printf(&r->why, "no answer");
			rid = 0;	/* cancelled as a task */
			goto out;
		}
		rid = mcp_request(m, s, "tasks/get", json_pack("{s:s}",
		    "taskId", id), limit, r);
		if (r->kind != R_RESULT)
			goto out;
		task = r->result;
	}
	/* the result, which waits for the end (and brings its questions) */
	rid = mcp_request(m, s, "tasks/result", json_pack("{s:s}", "taskId",
	    id), limit, r);
out:
	free(id);
	buf_free(&last);
	return rid;
}
