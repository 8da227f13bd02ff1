/*
 * mcp_read: what mcp-run reads beside its configuration (mcp_config): the
 * tool calls of its input records, and the messages a server sends. None
 * of it starts anything.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/io.h"
#include "base/jsonw.h"
#include "base/src.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "json/jsonx.h"
#include "mcp/mcp.h"

/* Whether a JSON number is a whole number that a double holds exactly. */
static int
whole(double d)
{
	return d >= -9007199254740992.0 && d <= 9007199254740992.0 &&
	    d == (double)(long long)d;
}

/* Sets msg and ptr for a bad record; -1. */
static int
bad(char *err, size_t errlen, const char **ptr, const char *p,
    const char *msg, const json_t *v)
{
	if (v != NULL)
		snprintf(err, errlen, "%s, not %s", msg, jsonx_typename(v));
	else
		snprintf(err, errlen, "%s", msg);
	*ptr = p;
	return -1;
}

/*
 * One input record rec: a call of toolcall-parse's plain form
 * ({"server_name","tool_name","arguments"}) or of its thread form (a
 * tool_call event); ordinal is the call's place in the whole input, for
 * the toolCallId of a call that has none. Returns 1 with c filled (free
 * it with mcp_call_free), 0 for another event of a thread (passed over),
 * or -1 with the fault in err and *ptr the JSON Pointer of its place.
 */
int
mcp_call_read(struct mcp_call *c, json_t *rec, unsigned long ordinal,
    char *err, size_t errlen, const char **ptr)
{
	const json_t *type, *v, *it = NULL, *id = NULL;
	const char *kt, *ks, *ka;
	double iter = 0;

	memset(c, 0, sizeof(*c));
	*ptr = "";
	if (!json_is_object(rec))
		return bad(err, errlen, ptr, "", "a call must be an object",
		    rec);
	if ((type = json_object_get(rec, "type")) != NULL) {
		if (!json_is_string(type))
			return bad(err, errlen, ptr, "/type",
			    "\"type\" must be a string", type);
		if (strcmp(json_string_value(type), "tool_call") != 0)
			return 0;
		kt = "toolName";
		ks = "serverName";
		ka = "args";
		id = json_object_get(rec, "toolCallId");
		if (id != NULL && !json_is_string(id))
			return bad(err, errlen, ptr, "/toolCallId",
			    "\"toolCallId\" must be a string", id);
		if ((it = json_object_get(rec, "iteration")) != NULL) {
			iter = json_number_value(it);
			if (!json_is_number(it) || iter < 0 || !whole(iter))
				return bad(err, errlen, ptr, "/iteration",
				    "\"iteration\" must be a whole number "
				    "from 0", json_is_number(it) ? NULL : it);
		}
	} else {
		kt = "tool_name";
		ks = "server_name";
		ka = "arguments";
	}
	c->ptr_tool = type != NULL ? "/toolName" : "/tool_name";
	c->ptr_server = type != NULL ? "/serverName" : "/server_name";
	v = json_object_get(rec, kt);
	if (!json_is_string(v)) {
		snprintf(err, errlen, "a call must have a \"%s\" string%s%s",
		    kt, v != NULL ? ", not " : "",
		    v != NULL ? jsonx_typename(v) : "");
		*ptr = v != NULL ? c->ptr_tool : "";
		return -1;
	}
	if (json_string_length(v) == 0 ||
	    utf8_plain(json_string_value(v), json_string_length(v)) !=
	    json_string_length(v))
		return bad(err, errlen, ptr, c->ptr_tool,
		    json_string_length(v) == 0 ? "the tool's name is empty" :
		    "the tool's name holds a control character", NULL);
	c->tool = json_string_value(v);
	if ((v = json_object_get(rec, ks)) != NULL) {
		if (!json_is_string(v)) {
			snprintf(err, errlen, "\"%s\" must be a string, not %s",
			    ks, jsonx_typename(v));
			*ptr = c->ptr_server;
			return -1;
		}
		/* a server is named whole: "a\u0000b" is never "a" */
		if (strlen(json_string_value(v)) != json_string_length(v))
			return bad(err, errlen, ptr, c->ptr_server,
			    "the server's name holds a NUL character", NULL);
		c->server = json_string_value(v);
	}
	if ((c->args = json_object_get(rec, ka)) == NULL) {
		snprintf(err, errlen, "a call must have \"%s\"", ka);
		return -1;
	}
	json_incref(c->args);
	if (id != NULL)
		c->id = xstrdup(json_string_value(id));
	else {
		c->id = xmalloc(64);
		snprintf(c->id, 64, "call-%lld-%lu", (long long)iter, ordinal);
	}
	c->iteration = json_incref((json_t *)it);
	return 1;
}

void
mcp_call_free(struct mcp_call *c)
{
	json_decref(c->args);
	json_decref(c->iteration);
	free(c->id);
	memset(c, 0, sizeof(*c));
}

static int
msg_bad(struct mcp_msg *m, const char *why)
{
	snprintf(m->why, sizeof(m->why), "%s", why);
	m->kind = MCP_MSG_BAD;
	return -1;
}

/*
 * Whether the number at off of s is written as an integer: JSON-RPC
 * compares ids by type and value, and every number is read as a double.
 */
static int
integer_text(const char *s, size_t n, size_t off)
{
	if (off < n && s[off] == '-')
		off++;
	if (off >= n || s[off] < '0' || s[off] > '9')
		return 0;
	while (off < n && s[off] >= '0' && s[off] <= '9')
		off++;
	return off == n || (s[off] != '.' && s[off] != 'e' && s[off] != 'E');
}

/*
 * One line a server wrote (len bytes, its newline taken off): a response,
 * a request or a notification of JSON-RPC 2.0. Returns 0, or -1 with
 * m->kind MCP_MSG_BAD and m->why saying what is wrong. The values point
 * into m->doc: free it with mcp_msg_free.
 */
int
mcp_msg_parse(struct mcp_msg *m, const char *line, size_t len)
{
	struct jsonx_error err;
	const json_t *v;
	size_t start, end;

	memset(m, 0, sizeof(*m));
	start = jsonx_skip_ws(line, len, 0);
	if ((m->doc = jsonx_parse(line, len, start, &end, &err)) == NULL)
		return msg_bad(m, strcmp(err.rule, "json-depth") == 0 ?
		    "nested too deep" : "not JSON");
	if (jsonx_skip_ws(line, len, end) != len)
		return msg_bad(m, "text after the message");
	if (!json_is_object(m->doc))
		return msg_bad(m, "not an object");
	v = json_object_get(m->doc, "jsonrpc");
	if (!json_is_string(v) || strcmp(json_string_value(v), "2.0") != 0)
		return msg_bad(m, "no \"jsonrpc\": \"2.0\"");
	m->id = json_object_get(m->doc, "id");
	if (m->id != NULL && !json_is_string(m->id) &&
	    !json_is_number(m->id) && !json_is_null(m->id))
		return msg_bad(m, "an \"id\" that is neither a number nor a "
		    "string");
	if (json_is_number(m->id))
		m->id_integer = integer_text(line, len,
		    jsonx_member(line, len, start, "id"));
	m->params = json_object_get(m->doc, "params");
	if (m->params != NULL && !json_is_object(m->params) &&
	    !json_is_array(m->params))
		return msg_bad(m, "\"params\" that are neither an object nor "
		    "an array");
	if ((v = json_object_get(m->doc, "method")) != NULL) {
		if (!json_is_string(v))
			return msg_bad(m, "a \"method\" that is not a string");
		m->method = json_string_value(v);
		if (m->id != NULL && json_is_null(m->id))
			return msg_bad(m, "a request whose \"id\" is null");
		m->kind = m->id != NULL ? MCP_MSG_REQUEST :
		    MCP_MSG_NOTIFICATION;
		return 0;
	}
	m->result = json_object_get(m->doc, "result");
	m->error = json_object_get(m->doc, "error");
	if (m->id == NULL)
		return msg_bad(m, "neither a \"method\" nor an \"id\"");
	if ((m->result == NULL) == (m->error == NULL))
		return msg_bad(m, "a response without one of \"result\" and "
		    "\"error\"");
	if (m->result != NULL && json_is_null(m->id))
		return msg_bad(m, "a result whose \"id\" is null");
	if (m->error != NULL) {
		v = json_object_get(m->error, "code");
		if (!json_is_object(m->error) || !json_is_number(v) ||
		    !whole(json_number_value(v)) ||
		    !json_is_string(json_object_get(m->error, "message")))
			return msg_bad(m, "an \"error\" without an integer "
			    "\"code\" and a \"message\" string");
	}
	m->kind = MCP_MSG_RESPONSE;
	return 0;
}

void
mcp_msg_free(struct mcp_msg *m)
{
	json_decref(m->doc);
	m->doc = NULL;
}

/* The revisions of the 2025 era that a server may answer initialize with. */
static const char *const legacy_versions[] = {
	"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"
};

/* Whether v (a JSON value) is a revision of the 2025 era we speak. */
int
mcp_legacy_version(const json_t *v)
{
	size_t i;

	for (i = 0; i < sizeof(legacy_versions) / sizeof(legacy_versions[0]);
	    i++)
		if (json_is_string(v) &&
		    strcmp(json_string_value(v), legacy_versions[i]) == 0)
			return 1;
	return 0;
}

/* Whether the array a holds the string v. */
static int
holds(const json_t *a, const char *v)
{
	const json_t *e;
	size_t i;

	json_array_foreach(a, i, e)
		if (json_is_string(e) && strcmp(json_string_value(e), v) == 0)
			return 1;
	return 0;
}

/*
 * The "supported" array of an UnsupportedProtocolVersion error (-32022),
 * or NULL when error is another error or has none.
 */
const json_t *
mcp_unsupported(const json_t *error)
{
	const json_t *sup;

	if (json_number_value(json_object_get(error, "code")) != -32022)
		return NULL;
	sup = json_object_get(json_object_get(error, "data"), "supported");
	return json_is_array(sup) ? sup : NULL;
}

/*
 * What the answer to the server/discover probe (its result, or its
 * error) says: MCP_ERA_MODERN when the server speaks 2026-07-28;
 * MCP_ERA_NONE for a -32022 error whose "supported" names no revision we
 * speak; otherwise MCP_ERA_LEGACY, initialize is to be tried.
 */
enum mcp_era
mcp_discover_era(const json_t *result, const json_t *error)
{
	const json_t *sup, *e;
	size_t i;

	if (result != NULL)
		return holds(json_object_get(result, "supportedVersions"),
		    MCP_MODERN_VERSION) ? MCP_ERA_MODERN : MCP_ERA_LEGACY;
	if ((sup = mcp_unsupported(error)) == NULL)
		return MCP_ERA_LEGACY;
	json_array_foreach(sup, i, e)
		if (mcp_legacy_version(e))
			return MCP_ERA_LEGACY;
	return holds(sup, MCP_MODERN_VERSION) ? MCP_ERA_MODERN : MCP_ERA_NONE;
}
