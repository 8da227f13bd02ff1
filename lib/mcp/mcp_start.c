/*
 * mcp_start: a server started, spawned or connected, and the revision
 * agreed with it (the probe of the 2026-07-28 era, else initialize); its
 * tools listed, once for its life; and the server that is to run a call,
 * found by the tools listed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "config.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/jsonw.h"
#include "base/proc.h"
#include "base/utf8.h"
#include "mcp/mcp.h"
#include "mcp/mcp_http.h"
#include "mcp/mcp_int.h"
#include "schema/jsschema.h"

/*
 * Takes child ch, just started, as the process of server s, which is not
 * running: a new life, no revision agreed yet. A test may start a server
 * its own way and attach it.
 */
void
mcp_attach(struct mcp_server *s, const struct proc_child *ch)
{
	s->ch = *ch;
	s->running = 1;
	s->modern = 0;
	s->reaped = 0;
	s->next_id = 0;
	s->last_sent = 0;
	s->noise = 0;
	s->wrote = 0;
	s->took = s->call_at = NONE;
}

static int
spawn(struct mcp *m, struct mcp_server *s, struct reply *r)
{
	struct proc_child ch;
	char **env;
	size_t i;
	int rc;

	env = mcp_environment(s);
	rc = proc_spawn(s->argv, s->cwd, env, &ch);
	for (i = 0; env[i] != NULL; i++)
		free(env[i]);
	free(env);
	if (rc == 0) {
		mcp_attach(s, &ch);
		return 0;
	}
	if (rc == PROC_NOCWD)
		mcp_trouble(m, s, r, "%s: cannot start %s in %s: %s", s->name,
		    s->argv[0], s->cwd, strerror(errno));
	else
		mcp_trouble(m, s, r, "%s: cannot start %s: %s", s->name,
		    s->argv[0], strerror(errno));
	return -1;
}

/* The capabilities a server declared in the result of its lifecycle. */
static void
keep_caps(struct mcp_server *s, const json_t *result)
{
	json_t *caps = json_object_get(result, "capabilities");

	json_decref(s->caps);
	s->caps = json_is_object(caps) ? json_incref(caps) : json_object();
}

/* Whether server s declared capability name ("tools", "resources"). */
int
mcp_has_cap(const struct mcp_server *s, const char *name)
{
	return json_is_object(json_object_get(s->caps, name));
}

/*
 * Connects to remote server s: its transport readied, and for the
 * HTTP+SSE of 2024-11-05 (legacy) its event stream opened and its
 * endpoint awaited. 0, or -1 (said, in r).
 */
static int
connect_remote(struct mcp *m, struct mcp_server *s, struct reply *r,
    int legacy)
{
	struct proc_child none = { -1, -1, -1, -1 };

	if (!s->running)
		mcp_attach(s, &none);
	if (mcp_http_open(m, s, legacy) != 0) {
		if (mcp_http_trouble() != NULL)
			mcp_trouble(m, s, r, "%s: %s",
			    s->name, mcp_http_trouble());
		else
			mcp_trouble(m, s, r, "%s: libcurl cannot be started",
			    s->name);
		return -1;
	}
	if (!legacy)
		return 0;
	mcp_reply_reset(r);
	mcp_pump(m, s, MCP_HTTP_READY, proc_now() + m->timeout, r, -1);
	if (r->kind == R_RESULT)
		return 0;
	mcp_lost(m, s, r, "the opening of its event stream");
	return -1;
}

/*
 * Whether a remote server refused a message of Streamable HTTP as a
 * server of the HTTP+SSE transport does (400, 404 or 405), so that the
 * older transport is to be tried, as the specification's section on
 * backwards compatibility says.
 */
static int
older_transport(const struct mcp_server *s, const struct reply *r)
{
	return s->transport == MCP_HTTP && !mcp_http_legacy(s) &&
	    r->kind == R_FAIL && r->fail == F_FAILED &&
	    (r->status == 400 || r->status == 404 || r->status == 405);
}

/*
 * Whether s declared its capabilities, and tools not among them: a server
 * that is offered nothing to list or call. One whose lifecycle was not
 * seen (attached by a test) is taken at its word when it answers.
 */
int
mcp_no_tools(const struct mcp_server *s)
{
	return s->caps != NULL && !mcp_has_cap(s, "tools");
}

/*
 * The probe of the 2026-07-28 era, which a server slow to start has the
 * whole time limit to answer: 1 modern, 0 legacy (r holds the answer
 * that says so), 2 legacy once started again (the server ended), 3 no
 * answer in time, -1 failed (said). With --protocol 2026-07-28 a server
 * that ends or does not answer has failed.
 */
static int
discover(struct mcp *m, struct mcp_server *s, struct reply *r)
{
	struct buf b = BUF_INIT;

	mcp_reply_reset(r);
	mcp_send_request(s, "server/discover", json_pack("{s:o}", "_meta",
	    mcp_modern_meta()));
	mcp_pump(m, s, s->next_id, proc_now() + m->timeout, r, -1);
	if (r->kind == R_RESULT || r->kind == R_ERROR) {
		switch (mcp_discover_era(r->result, r->error)) {
		case MCP_ERA_MODERN:
			keep_caps(s, r->result);
			mcp_http_agreed(s, MCP_MODERN_VERSION);
			return s->modern = 1;
		case MCP_ERA_NONE:
			jsonw_stringify(&b, mcp_unsupported(r->error));
			mcp_trouble(m, s, r, "%s: the server speaks only %s, which "
			    "mcp-run does not speak", s->name, buf_cstr(&b));
			buf_free(&b);
			return -1;
		default:
			return 0;
		}
	}
	if (m->proto == MCP_PROTO_AUTO && r->fail == F_TIMEOUT)
		return 3;
	if (older_transport(s, r))
		return 0;	/* initialize tells which transport */
	if (m->proto == MCP_PROTO_AUTO && r->fail == F_DIED)
		return spawn(m, s, r) == 0 ? 2 : -1;
	mcp_lost(m, s, r, "server/discover");
	return -1;
}

/* The params of initialize, a new reference. */
static json_t *
init_params(const struct mcp *m)
{
	return json_pack("{s:s,s:o,s:{s:s,s:s}}", "protocolVersion",
	    MCP_LEGACY_VERSION, "capabilities", mcp_client_caps(m),
	    "clientInfo", "name", "mcp-run", "version", LLMKIT_VERSION);
}

/*
 * --protocol pins 2026-07-28, and server s answered the probe as a
 * server of the 2025 era does (r holds the answer): trouble that names
 * the revisions it speaks, from the answer when it lists them, else the
 * one it answers initialize with, so that no call is sent it outside a
 * lifecycle. -1.
 */
static int
not_modern(struct mcp *m, struct mcp_server *s, struct reply *r)
{
	struct buf probe = BUF_INIT, b = BUF_INIT;
	const json_t *sup, *pv;
	char q[80];

	sup = r->error != NULL ? mcp_unsupported(r->error) :
	    json_object_get(r->result, "supportedVersions");
	if (json_is_array(sup)) {
		jsonw_stringify(&b, sup);
		mcp_trouble(m, s, r, "%s: the server speaks only %s, not %s, "
		    "which --protocol pins", s->name, buf_cstr(&b),
		    MCP_MODERN_VERSION);
		buf_free(&b);
		return -1;
	}
	if (r->error != NULL) {
		buf_adds(&probe, "server/discover failed: ");
		mcp_rpc_error_text(&probe, r->error);
	} else
		buf_printf(&probe, "server/discover answered without %s",
		    MCP_MODERN_VERSION);
	mcp_request(m, s, "initialize", init_params(m), m->timeout, r);
	pv = json_object_get(r->result, "protocolVersion");
	if (r->kind == R_RESULT && json_is_string(pv))
		mcp_trouble(m, s, r, "%s: the server speaks %s, not %s, which "
		    "--protocol pins", s->name, diag_quote(q, sizeof(q),
		    json_string_value(pv), json_string_length(pv)),
		    MCP_MODERN_VERSION);
	else if (r->kind == R_ERROR &&
	    (sup = mcp_unsupported(r->error)) != NULL) {
		jsonw_stringify(&b, sup);
		mcp_trouble(m, s, r, "%s: the server speaks only %s, not %s, "
		    "which --protocol pins", s->name, buf_cstr(&b),
		    MCP_MODERN_VERSION);
	} else if (r->kind == R_FAIL && (r->fail == F_CAUGHT ||
	    r->fail == F_BROKEN))
		mcp_lost(m, s, r, "initialize");
	else
		mcp_trouble(m, s, r, "%s: the server does not speak %s, which "
		    "--protocol pins: %s", s->name, MCP_MODERN_VERSION,
		    buf_cstr(&probe));
	buf_free(&probe);
	buf_free(&b);
	return -1;
}

/*
 * The lifecycle of the 2025 era: initialize; 0, or -1 (said). A server
 * that refuses the 2025 revision and names 2026-07-28 among those it
 * speaks (one too slow to start for the probe, or one whose answer to
 * the probe was lost) is probed again, and spoken to in the 2026-07-28
 * era; unless --protocol pins 2025-11-25, which the trouble then says.
 */
static int
initialize(struct mcp *m, struct mcp_server *s, struct reply *r)
{
	struct buf b = BUF_INIT;
	const json_t *pv, *sup;
	char q[80];

again:
	mcp_request(m, s, "initialize", init_params(m), mcp_limit(m, s), r);
	if (older_transport(s, r)) {
		if (connect_remote(m, s, r, 1) != 0)
			return -1;
		goto again;
	}
	if (r->kind == R_ERROR && (sup = mcp_unsupported(r->error)) != NULL) {
		jsonw_stringify(&b, sup);
		if (m->proto == MCP_PROTO_AUTO &&
		    mcp_discover_era(NULL, r->error) == MCP_ERA_MODERN)
			switch (discover(m, s, r)) {
			case 1:
				buf_free(&b);
				return 0;
			case -1:
				buf_free(&b);
				return -1;
			default:
				break;
			}
		mcp_trouble(m, s, r, "%s: the server speaks only %s, not %s%s",
		    s->name, buf_cstr(&b), MCP_LEGACY_VERSION,
		    m->proto == MCP_PROTO_LEGACY ? ", which --protocol pins" :
		    "");
		buf_free(&b);
		return -1;
	}
	if (r->kind != R_RESULT) {
		mcp_lost(m, s, r, "initialize");
		return -1;
	}
	pv = json_object_get(r->result, "protocolVersion");
	if (!mcp_legacy_version(pv)) {
		if (json_is_string(pv))
			diag_quote(q, sizeof(q), json_string_value(pv),
			    json_string_length(pv));
		else
			snprintf(q, sizeof(q), "%s", pv == NULL ? "none" :
			    "that is not a string");
		mcp_trouble(m, s, r, "%s: the server answered protocol revision "
		    "%s, which mcp-run does not speak", s->name, q);
		return -1;
	}
	keep_caps(s, r->result);
	mcp_http_agreed(s, json_string_value(pv));
	mcp_notify(s, "notifications/initialized", NULL);
	mcp_http_listen(s);
	return 0;
}

/*
 * Starts s and agrees on a revision with it: the probe, and initialize
 * when the server is of the 2025 era. --protocol 2025-11-25 initializes
 * at once; --protocol 2026-07-28 probes and takes no other era. 0, or -1
 * (said, in r).
 */
int
mcp_start(struct mcp *m, struct mcp_server *s, struct reply *r)
{
	if (s->unusable != NULL) {
		mcp_trouble(m, s, r, "%s", s->unusable);
		return -1;
	}
	if (s->transport != MCP_STDIO) {
		if (connect_remote(m, s, r, s->transport == MCP_SSE) != 0)
			return -1;
	} else if (spawn(m, s, r) != 0)
		return -1;
	if (m->proto != MCP_PROTO_LEGACY)
		switch (discover(m, s, r)) {
		case -1:
			return -1;
		case 1:
			return 0;
		default:
			if (m->proto == MCP_PROTO_MODERN)
				return not_modern(m, s, r);
			break;
		}
	return initialize(m, s, r);
}

/*
 * Server s ready for a request: what the servers did meanwhile taken in,
 * and s started (again) when it is not running. 0, or -1 (said, in r).
 */
int
mcp_ready(struct mcp *m, struct mcp_server *s, struct reply *r)
{
	if (s->running)
		mcp_settle(m);
	if (!s->running && mcp_start(m, s, r) != 0)
		return -1;
	return 0;
}

/*
 * Says when tool t's input schema refers outside itself: a server's
 * schema is never let read a file or a URL of the user's, so that
 * toolcall-parse --tools leaves such a tool out (unless the reference is
 * to a regular file below the tools file's directory). Told here, where
 * the server is named, so that the user knows before a prompt lacks it.
 */
static void
external_ref(const struct mcp_server *s, const json_t *t)
{
	const json_t *n = json_object_get(t, "name");
	char q[80], r[120], *ref;

	if ((ref = jsschema_external_ref(json_object_get(t, "inputSchema"),
	    NULL)) == NULL)
		return;
	diag_warnx("%s: tool %s: its input schema refers outside itself, to "
	    "%s", s->name, diag_quote(q, sizeof(q), json_string_value(n),
	    json_string_length(n)), diag_quote(r, sizeof(r), ref,
	    strlen(ref)));
	free(ref);
}

/*
 * The tools of a listing that can be offered and routed to: an object
 * with a name of plain text (utf8_plain: no NUL, newline, ESC or other
 * control character), which a prompt, a routing table and a terminal
 * all take as one name. Each other is left out, said with its server.
 */
static json_t *
good_tools(const struct mcp_server *s, json_t *tools)
{
	json_t *kept, *t;
	const json_t *n;
	char q[80];
	size_t i, len;

	kept = json_array();
	json_array_foreach(tools, i, t) {
		n = json_object_get(t, "name");
		len = json_string_length(n);
		if (!json_is_object(t))
			diag_warnx("%s: a tool that is not an object is left "
			    "out", s->name);
		else if (!json_is_string(n))
			diag_warnx("%s: a tool without a \"name\" string is "
			    "left out", s->name);
		else if (len == 0)
			diag_warnx("%s: a tool with an empty name is left out",
			    s->name);
		else if (utf8_plain(json_string_value(n), len) < len)
			diag_warnx("%s: tool %s is left out: its name holds a "
			    "control character", s->name, diag_quote(q,
			    sizeof(q), json_string_value(n), len));
		else {
			json_array_append(kept, t);
			external_ref(s, t);
		}
	}
	json_decref(tools);
	return kept;
}

/*
 * Lists the tools of s, once for its life: 0, or -1 (said, in r). A
 * server that declared no "tools" capability has none, and is not asked.
 */
static int
list_tools(struct mcp *m, struct mcp_server *s, struct reply *r)
{
	json_t *tools, *cursor = NULL, *params;
	const json_t *page;
	int npages;

	if (s->tools != NULL)
		return 0;
	if (mcp_ready(m, s, r) != 0)
		return -1;
	if (mcp_no_tools(s)) {
		s->tools = json_array();
		return 0;
	}
	tools = json_array();
	for (npages = 0; npages < MCP_MAX_PAGES; npages++) {
		params = cursor != NULL ? json_pack("{s:O}", "cursor", cursor) :
		    NULL;
		json_decref(cursor);
		cursor = NULL;
		mcp_request(m, s, "tools/list", params, mcp_limit(m, s), r);
		if (r->kind != R_RESULT) {
			mcp_lost(m, s, r, "tools/list");
			break;
		}
		page = json_object_get(r->result, "tools");
		if (!json_is_array(page)) {
			mcp_trouble(m, s, r, "%s: tools/list answered without a "
			    "\"tools\" array", s->name);
			break;
		}
		json_array_extend(tools, (json_t *)page);
		cursor = json_object_get(r->result, "nextCursor");
		if (!json_is_string(cursor)) {
			cursor = NULL;
			s->tools = good_tools(s, tools);
			return 0;
		}
		json_incref(cursor);
	}
	if (npages == MCP_MAX_PAGES)
		mcp_trouble(m, s, r, "%s: tools/list goes on past %d pages",
		    s->name, MCP_MAX_PAGES);
	json_decref(cursor);
	json_decref(tools);
	return -1;
}

/* The tools of s listed, once for its life: 0, or -1 (said, in r). */
int
mcp_tools_of(struct mcp *m, struct mcp_server *s, struct reply *r)
{
	return list_tools(m, s, r);
}

/*
 * The tools of s for the routing: listed once; a server that cannot be
 * listed (said once) has none, and is not tried again for the routing.
 */
static const json_t *
routing_tools(struct mcp *m, struct mcp_server *s, struct reply *r)
{
	if (s->tools == NULL && list_tools(m, s, r) != 0 && !m->caught)
		s->tools = json_array();
	return s->tools;
}

/*
 * Whether the listed tools of s hold one called name (len bytes), the
 * names compared whole, so that "echo\u0000evil" is never "echo".
 */
static int
has_tool(const struct mcp_server *s, const char *name, size_t len)
{
	const json_t *t, *n;
	size_t i;

	json_array_foreach(s->tools, i, t) {
		n = json_object_get(t, "name");
		if (json_is_string(n) && json_string_length(n) == len &&
		    memcmp(json_string_value(n), name, len) == 0)
			return 1;
	}
	return 0;
}

/*
 * The server that is to run call c, or NULL with the refusal in
 * o->message (and o->ptr its place). No server named, or "local" (the
 * name toolcall-parse gives when the model named none) unless a server
 * is called so: the one server that has the tool.
 */
struct mcp_server *
mcp_route(struct mcp *m, const struct mcp_call *c, struct mcp_outcome *o,
    struct reply *r)
{
	struct mcp_server *s, *found = NULL;
	struct buf names = BUF_INIT;
	const char *file;
	char q[80];
	size_t i, n = 0;

	if (c->server != NULL && *c->server != '\0' &&
	    (strcmp(c->server, "local") != 0 || mcp_find(m, "local") != NULL)) {
		if ((s = mcp_find(m, c->server)) != NULL)
			return s;
		diag_quote(q, sizeof(q), c->server, strlen(c->server));
		if ((file = mcp_disabled(m, c->server)) != NULL)
			buf_printf(&o->message, "server %s is disabled in %s", q,
			    file);
		else
			buf_printf(&o->message, "no server %s is configured", q);
		o->ptr = c->ptr_server;
		return NULL;
	}
	for (i = 0; i < m->n && !m->caught; i++) {
		s = &m->v[i];
		if (routing_tools(m, s, r) == NULL ||
		    !has_tool(s, c->tool, strlen(c->tool)))
			continue;
		if (n++ > 0)
			buf_adds(&names, ", ");
		buf_adds(&names, s->name);
		found = s;
	}
	diag_quote(q, sizeof(q), c->tool, strlen(c->tool));
	o->ptr = c->ptr_tool;
	if (n == 0)
		buf_printf(&o->message, "no server has a tool %s", q);
	else if (n > 1)
		buf_printf(&o->message, "tool %s is on more than one server "
		    "(%s): name one in server_name", q, buf_cstr(&names));
	buf_free(&names);
	return n == 1 ? found : NULL;
}

/*
 * Starts every server, in the order of their names, and writes all their
 * tools to out as one tools/list result, each tool's _meta marked with
 * "llmkit/server". Returns 0, or -1 when a server could not be listed
 * (said; nothing is written).
 */
int
mcp_list_tools(struct mcp *m, struct buf *out)
{
	struct reply r;
	json_t *all, *t, *meta;
	const json_t *e;
	size_t i, j;
	int rc = 0;

	memset(&r, 0, sizeof(r));
	all = json_array();
	for (i = 0; i < m->n && rc == 0; i++) {
		if (list_tools(m, &m->v[i], &r) != 0) {
			rc = -1;
			break;
		}
		if (mcp_no_tools(&m->v[i]))
			diag_warnx("%s: the server declared no tools",
			    m->v[i].name);
		json_array_foreach(m->v[i].tools, j, e) {
			t = json_is_object(e) ? json_copy((json_t *)e) :
			    json_object();
			meta = json_object_get(t, "_meta");
			meta = json_is_object(meta) ? json_copy(meta) :
			    json_object();
			json_object_set_new(meta, "llmkit/server",
			    json_string(m->v[i].name));
			json_object_set_new(t, "_meta", meta);
			json_array_append_new(all, t);
		}
	}
	if (rc == 0 && !m->caught) {
		buf_adds(out, "{\"tools\":");
		jsonw_stringify(out, all);
		buf_adds(out, "}\n");
	}
	json_decref(all);
	mcp_reply_reset(&r);
	buf_free(&r.why);
	return m->caught ? -1 : rc;
}
