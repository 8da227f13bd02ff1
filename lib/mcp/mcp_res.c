/*
 * mcp_res: what the servers hold beside their tools. --list-resources
 * and --list-prompts, every page of each server that declared the
 * capability; --read and --get-prompt, each sent to the server named, or
 * to the one server whose listing holds the resource (or a template that
 * its URI matches) or the prompt.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/jsonw.h"
#include "base/xalloc.h"
#include "mcp/mcp.h"
#include "mcp/mcp_int.h"

#define METHOD_NOT_FOUND	-32601

/* What is asked of the servers, and their listings for the routing. */
struct ask {
	struct mcp	*m;
	struct reply	 r;
	int		 prompts;	/* prompts, not resources */
	const char	*cap;		/* "resources" or "prompts" */
	json_t		**held;		/* by server: its listing, or NULL */
	unsigned char	*tried;		/* by server: listed, or failed */
};

/*
 * Every page of method's result array key from s into *out (a new
 * array): 0; 1 when optional and the server has no such method; -1 when
 * it failed (said, in r).
 */
static int
pages(struct mcp *m, struct mcp_server *s, const char *method,
    const char *key, int optional, struct reply *r, json_t **out)
{
	json_t *all, *cursor = NULL, *params;
	const json_t *page;
	int npages;

	*out = NULL;
	all = json_array();
	for (npages = 0; npages < MCP_MAX_PAGES; npages++) {
		params = cursor != NULL ? json_pack("{s:O}", "cursor", cursor) :
		    NULL;
		json_decref(cursor);
		cursor = NULL;
		mcp_request(m, s, method, params, m->timeout, r);
		if (optional && npages == 0 && r->kind == R_ERROR &&
		    json_number_value(json_object_get(r->error, "code")) ==
		    METHOD_NOT_FOUND) {
			json_decref(all);
			return 1;
		}
		if (r->kind != R_RESULT) {
			mcp_lost(m, s, r, method);
			break;
		}
		page = json_object_get(r->result, key);
		if (!json_is_array(page)) {
			mcp_trouble(m, s, r, "%s: %s answered without a \"%s\" "
			    "array", s->name, method, key);
			break;
		}
		json_array_extend(all, (json_t *)page);
		cursor = json_object_get(r->result, "nextCursor");
		if (!json_is_string(cursor)) {
			*out = all;
			return 0;
		}
		json_incref(cursor);
	}
	if (npages == MCP_MAX_PAGES)
		mcp_trouble(m, s, r, "%s: %s goes on past %d pages", s->name,
		    method, MCP_MAX_PAGES);
	json_decref(cursor);
	json_decref(all);
	return -1;
}

/*
 * The listing of s, started if need be: {"resources": [...],
 * "resourceTemplates": [...]} or {"prompts": [...]}, a new reference;
 * an empty one when s did not declare the capability; NULL when s failed
 * (said, in a->r).
 */
static json_t *
listing(struct ask *a, struct mcp_server *s)
{
	json_t *list, *v;

	if (mcp_ready(a->m, s, &a->r) != 0)
		return NULL;
	list = json_object();
	if (!mcp_has_cap(s, a->cap)) {
		json_object_set_new(list, a->prompts ? "prompts" : "resources",
		    json_array());
		if (!a->prompts)
			json_object_set_new(list, "resourceTemplates",
			    json_array());
		return list;
	}
	if (a->prompts) {
		if (pages(a->m, s, "prompts/list", "prompts", 0, &a->r, &v) < 0)
			goto failed;
		json_object_set_new(list, "prompts", v);
		return list;
	}
	if (pages(a->m, s, "resources/list", "resources", 0, &a->r, &v) < 0)
		goto failed;
	json_object_set_new(list, "resources", v);
	/* a server without templates may lack the method altogether */
	switch (pages(a->m, s, "resources/templates/list",
	    "resourceTemplates", 1, &a->r, &v)) {
	case -1:
		goto failed;
	case 1:
		v = json_array();
		break;
	default:
		break;
	}
	json_object_set_new(list, "resourceTemplates", v);
	return list;
failed:
	json_decref(list);
	return NULL;
}

/* The listing of the i-th server for the routing, asked for once. */
static const json_t *
held(struct ask *a, size_t i)
{
	if (!a->tried[i]) {
		a->tried[i] = 1;
		a->held[i] = listing(a, &a->m->v[i]);
	}
	return a->held[i];
}

/*
 * Whether expression operator op (RFC 6570: '\0' for a simple string)
 * can have expanded to byte c: a simple string's value has its reserved
 * characters percent-encoded, so it never holds "/", "?" or "#"; "+" and
 * "#" keep them all; a path's, a label's or a parameter's ends before
 * the query, a query's before the fragment.
 */
static int
expands_to(char op, char c)
{
	switch (op) {
	case '+':
	case '#':
		return 1;
	case '/':
	case '.':
	case ';':
		return c != '?' && c != '#';
	case '?':
	case '&':
		return c != '#';
	default:
		return c != '/' && c != '?' && c != '#';
	}
}

/*
 * Whether uri (n bytes) is an expansion of template t: its literal text
 * equal, each {expression} empty or a run of the bytes its operator can
 * give, which begins with the operator's own character ("/" of {/path},
 * "?" of {?query}) but for a simple string's and {+reserved}'s. Matched
 * as a glob is, position by position: time is the product of the two
 * lengths, memory that of the URI.
 */
static int
template_match(const char *t, size_t tn, const char *uri, size_t n)
{
	unsigned char *at, *next, *swap;
	const char *close;
	size_t i, j;
	char op;
	int any, run;

	at = xcalloc(n + 1, 1);
	next = xcalloc(n + 1, 1);
	at[0] = 1;
	for (i = 0; i < tn; i++) {
		if (t[i] == '{' && (close = memchr(t + i, '}', tn - i)) !=
		    NULL) {
			op = t[i + 1] != '}' && strchr("+#./;?&", t[i + 1]) !=
			    NULL ? t[i + 1] : '\0';
			for (run = 0, j = 0; j <= n; j++) {
				if (j == 0)
					run = 0;
				else if (op == '\0' || op == '+')
					run = (run || at[j - 1]) &&
					    expands_to(op, uri[j - 1]);
				else
					run = (at[j - 1] && uri[j - 1] == op) ||
					    (run && expands_to(op, uri[j - 1]));
				next[j] = at[j] || run;
			}
			i = (size_t)(close - t);
		} else {
			next[0] = 0;
			for (j = 1; j <= n; j++)
				next[j] = at[j - 1] && uri[j - 1] == t[i];
		}
		swap = at;
		at = next;
		next = swap;
		for (any = 0, j = 0; j <= n && !any; j++)
			any = at[j];
		if (!any)
			break;
	}
	any = at[n];
	free(at);
	free(next);
	return any;
}

/* Whether the string member key of an object of array v is s (n bytes). */
static int
has_string(const json_t *v, const char *key, const char *s, size_t n)
{
	const json_t *e, *k;
	size_t i;

	json_array_foreach(v, i, e) {
		k = json_object_get(e, key);
		if (json_is_string(k) && json_string_length(k) == n &&
		    memcmp(json_string_value(k), s, n) == 0)
			return 1;
	}
	return 0;
}

/* Whether a template of the resource listing l matches uri. */
static int
has_template(const json_t *l, const char *uri, size_t n)
{
	const json_t *e, *t;
	size_t i;

	json_array_foreach(json_object_get(l, "resourceTemplates"), i, e) {
		t = json_object_get(e, "uriTemplate");
		if (json_is_string(t) && template_match(json_string_value(t),
		    json_string_length(t), uri, n))
			return 1;
	}
	return 0;
}

/*
 * Whether listing l holds name (len bytes): on the first pass, a prompt
 * of that name or a resource of that URI; on the second, a template
 * that the URI matches.
 */
static int
holds(const struct ask *a, const json_t *l, int pass, const char *name,
    size_t len)
{
	if (pass == 0 && a->prompts)
		return has_string(json_object_get(l, "prompts"), "name", name,
		    len);
	if (pass == 0)
		return has_string(json_object_get(l, "resources"), "uri", name,
		    len);
	return !a->prompts && has_template(l, name, len);
}

/*
 * The server for name (a URI or a prompt's name): the only one kept when
 * it was named, else the one whose listing holds it (for a URI, a
 * listed resource before a template). NULL when there is none or more
 * than one (said), or a stop signal came; *status then says how bad.
 */
static struct mcp_server *
route(struct ask *a, const char *name, int named, int *status)
{
	struct mcp *m = a->m;
	struct buf names = BUF_INIT;
	const json_t *l;
	size_t i, n, len = strlen(name), found = 0;
	int pass, declared = 0, failed = 0;
	char q[80];

	diag_quote(q, sizeof(q), name, len);
	if (named) {
		if (mcp_ready(m, &m->v[0], &a->r) != 0) {
			*status = DIAG_TROUBLE;
			return NULL;
		}
		if (mcp_has_cap(&m->v[0], a->cap))
			return &m->v[0];
		diag_warnx("%s: the server did not declare %s, so it is not "
		    "asked for %s", m->v[0].name, a->cap, q);
		*status = DIAG_INVALID;
		return NULL;
	}
	for (pass = 0, n = 0; pass < 2 && n == 0 && !m->caught; pass++) {
		for (i = 0; i < m->n && !m->caught; i++) {
			if ((l = held(a, i)) == NULL) {
				failed = 1;
				continue;
			}
			declared |= mcp_has_cap(&m->v[i], a->cap);
			if (!holds(a, l, pass, name, len))
				continue;
			buf_printf(&names, "%s%s", n++ > 0 ? ", " : "",
			    m->v[i].name);
			found = i;
		}
	}
	*status = failed ? DIAG_TROUBLE : DIAG_INVALID;
	if (m->caught)
		*status = DIAG_TROUBLE;
	else if (n > 1)
		diag_warnx("%s %s is on more than one server (%s): name one",
		    a->prompts ? "prompt" : "resource", q, buf_cstr(&names));
	else if (n == 0 && !declared)
		diag_warnx("no server declared %s, so none is asked for %s",
		    a->cap, q);
	else if (n == 0)
		diag_warnx("no server has a %s %s", a->prompts ? "prompt" :
		    "resource", q);
	buf_free(&names);
	return n == 1 ? &m->v[found] : NULL;
}

/* A copy of object v with "llmkit/server": s's name in its _meta. */
static json_t *
marked(const struct mcp_server *s, const json_t *v)
{
	json_t *c, *meta;

	c = json_copy((json_t *)v);
	meta = json_object_get(c, "_meta");
	meta = json_is_object(meta) ? json_copy(meta) : json_object();
	json_object_set_new(meta, "llmkit/server", json_string(s->name));
	json_object_set_new(c, "_meta", meta);
	return c;
}

/*
 * The objects of array key of listing l, each marked with s, added to
 * the array key of all; each other item is left out and said.
 */
static void
gather(json_t *all, const struct mcp_server *s, const json_t *l,
    const char *key, const char *noun)
{
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(l, key), i, e) {
		if (json_is_object(e))
			json_array_append_new(json_object_get(all, key),
			    marked(s, e));
		else
			diag_warnx("%s: a %s that is not an object is left out",
			    s->name, noun);
	}
}

/*
 * --list-resources, --list-prompts: the listings of the servers, one
 * document. A server named (named) that did not declare the capability
 * is said, status 1; one that fails makes it 3, and nothing is written.
 */
static int
list(struct ask *a, int named, struct buf *out)
{
	struct mcp *m = a->m;
	json_t *all, *l;
	size_t i;
	int status = DIAG_OK;

	all = a->prompts ? json_pack("{s:[]}", "prompts") :
	    json_pack("{s:[],s:[]}", "resources", "resourceTemplates");
	for (i = 0; i < m->n && !m->caught; i++) {
		if ((l = listing(a, &m->v[i])) == NULL) {
			status = DIAG_TROUBLE;
			break;
		}
		if (named && !mcp_has_cap(&m->v[i], a->cap)) {
			diag_warnx("%s: the server did not declare %s, so it "
			    "is not asked for them", m->v[i].name, a->cap);
			status = DIAG_INVALID;
		}
		if (a->prompts)
			gather(all, &m->v[i], l, "prompts", "prompt");
		else {
			gather(all, &m->v[i], l, "resources", "resource");
			gather(all, &m->v[i], l, "resourceTemplates",
			    "resource template");
		}
		json_decref(l);
	}
	if (status != DIAG_TROUBLE && !m->caught) {
		jsonw_stringify(out, all);
		buf_addc(out, '\n');
	}
	json_decref(all);
	return m->caught ? DIAG_TROUBLE : status;
}

/*
 * What a request that was sent and not answered with a result means,
 * said: 1 for a JSON-RPC error, a timeout (the request then cancelled),
 * a server that ended or wrote too long a line; 3 for trouble.
 */
static int
unanswered(struct ask *a, struct mcp_server *s, const char *method,
    const char *q, long long id)
{
	struct reply *r = &a->r;
	struct buf b = BUF_INIT;
	int status = DIAG_INVALID;

	if (r->kind == R_ERROR)
		mcp_rpc_error_text(&b, r->error);
	else if (r->fail == F_TIMEOUT) {
		buf_printf(&b, "timed out after %g s", a->m->timeout);
		mcp_notify(s, "notifications/cancelled", json_pack("{s:I,s:s}",
		    "requestId", (json_int_t)id, "reason", buf_cstr(&b)));
	} else if (r->fail == F_DIED || r->fail == F_LONG)
		buf_adds(&b, buf_cstr(&r->why));
	else
		status = DIAG_TROUBLE;	/* said as it happened */
	if (status == DIAG_INVALID && !a->m->caught)
		diag_warnx("%s: %s %s failed: %s", s->name, method, q,
		    buf_cstr(&b));
	buf_free(&b);
	return a->m->caught ? DIAG_TROUBLE : status;
}

/* --read URI: each of its contents a line of out. */
static int
read_one(struct ask *a, const char *uri, int named, struct buf *out)
{
	struct mcp_server *s;
	const json_t *contents, *e;
	json_t *c;
	long long id;
	size_t i;
	int status;
	char q[80];

	if ((s = route(a, uri, named, &status)) == NULL)
		return status;
	diag_quote(q, sizeof(q), uri, strlen(uri));
	/* started again if it has ended since it was listed */
	if (mcp_ready(a->m, s, &a->r) != 0)
		return DIAG_TROUBLE;
	id = mcp_request(a->m, s, "resources/read", json_pack("{s:s}", "uri",
	    uri), a->m->timeout, &a->r);
	if (a->r.kind != R_RESULT)
		return unanswered(a, s, "resources/read", q, id);
	contents = json_object_get(a->r.result, "contents");
	if (!json_is_array(contents)) {
		mcp_trouble(a->m, s, &a->r, "%s: resources/read answered "
		    "without a \"contents\" array", s->name);
		return DIAG_TROUBLE;
	}
	json_array_foreach(contents, i, e) {
		if (!json_is_object(e)) {
			diag_warnx("%s: a content of %s that is not an object "
			    "is left out", s->name, q);
			continue;
		}
		c = marked(s, e);
		jsonw_stringify(out, c);
		buf_addc(out, '\n');
		json_decref(c);
	}
	return DIAG_OK;
}

/* --get-prompt NAME: the result, a line of out. */
static int
get_prompt(struct ask *a, const char *name, json_t *args, int named,
    struct buf *out)
{
	struct mcp_server *s;
	json_t *params, *c;
	long long id;
	int status;
	char q[80];

	if ((s = route(a, name, named, &status)) == NULL)
		return status;
	diag_quote(q, sizeof(q), name, strlen(name));
	if (mcp_ready(a->m, s, &a->r) != 0)
		return DIAG_TROUBLE;
	params = json_pack("{s:s}", "name", name);
	if (args != NULL && json_object_size(args) > 0)
		json_object_set(params, "arguments", args);
	id = mcp_request(a->m, s, "prompts/get", params, a->m->timeout,
	    &a->r);
	if (a->r.kind != R_RESULT)
		return unanswered(a, s, "prompts/get", q, id);
	if (!json_is_object(a->r.result) ||
	    !json_is_array(json_object_get(a->r.result, "messages"))) {
		mcp_trouble(a->m, s, &a->r, "%s: prompts/get answered without "
		    "a \"messages\" array", s->name);
		return DIAG_TROUBLE;
	}
	c = marked(s, a->r.result);
	jsonw_stringify(out, c);
	buf_addc(out, '\n');
	json_decref(c);
	return DIAG_OK;
}

/*
 * Does what mode asks of the servers of m (MCP_RUN_RESOURCES,
 * MCP_RUN_PROMPTS, MCP_RUN_READ, MCP_RUN_PROMPT), the servers those that
 * the user named when named (one, for a read or a prompt). What it gets
 * goes to out, one JSON document a line. Returns a status: 1 when a
 * server refused or had nothing to give, 3 for trouble.
 */
int
mcp_res_run(struct mcp *m, enum mcp_run_mode mode, const struct mcp_ask *q,
    int named, struct buf *out)
{
	struct ask a;
	size_t i;
	int status = DIAG_OK;

	memset(&a, 0, sizeof(a));
	a.m = m;
	a.prompts = mode == MCP_RUN_PROMPTS || mode == MCP_RUN_PROMPT;
	a.cap = a.prompts ? "prompts" : "resources";
	a.held = xcalloc(m->n + 1, sizeof(*a.held));
	a.tried = xcalloc(m->n + 1, 1);
	switch (mode) {
	case MCP_RUN_RESOURCES:
	case MCP_RUN_PROMPTS:
		status = list(&a, named, out);
		break;
	case MCP_RUN_READ:
		for (i = 0; i < q->nuris && !m->caught; i++)
			status = diag_max(status, read_one(&a, q->uris[i],
			    named && m->n == 1, out));
		break;
	case MCP_RUN_PROMPT:
		status = get_prompt(&a, q->prompt, q->args, named &&
		    m->n == 1, out);
		break;
	default:
		break;
	}
	for (i = 0; i < m->n; i++)
		json_decref(a.held[i]);
	free(a.held);
	free(a.tried);
	mcp_reply_reset(&a.r);
	buf_free(&a.r.why);
	return status;
}
