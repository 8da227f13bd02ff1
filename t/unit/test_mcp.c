/*
 * Unit tests of lib/mcp's reading: a configuration (good, and each fault
 * at its place), a configuration file, --protocol, --server NAME=COMMAND,
 * the environment a server gets, the calls of input records in both
 * forms, the messages a server may send, each kind and each way of not
 * being JSON-RPC, what the answer to the server/discover probe says of
 * the server's era, many servers found by name, and the read loop with
 * servers that end leaving their output held, or write too long a line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/diag.h"
#include "base/proc.h"
#include "mcp/mcp.h"
#include "unit.h"

/* Loads text as the configuration "c.json"; its diagnostics in *err. */
static int
load(struct mcp *m, const char *text, const char **err)
{
	int rc;

	unit_capture_begin();
	rc = mcp_config_load(m, "c.json", text, strlen(text));
	*err = unit_capture_end();
	return rc;
}

static void
test_config(void)
{
	struct mcp m;
	const char *err;

	mcp_init(&m);
	unit_long(load(&m, "{\"mcpServers\": {\"b\": {\"command\": \"node\", "
	    "\"args\": [\"x.js\", \"--stdio\"], \"env\": {\"K\": \"v\"}, "
	    "\"cwd\": \"/tmp\", \"disabled\": false}, \"a\": {\"type\": "
	    "\"stdio\", \"command\": \"a\"}}, \"other\": 1}", &err), 0,
	    "a configuration of two servers");
	unit_str(err, "", "silently");
	unit_long((long)m.n, 2, "both declared");
	mcp_sort(&m);
	unit_str(m.v[0].name, "a", "sorted by name");
	unit_ok(m.v[0].argv[1] == NULL && m.v[0].env == NULL &&
	    m.v[0].cwd == NULL, "a: its command alone");
	unit_str(m.v[1].argv[0], "node", "b: its command");
	unit_str(m.v[1].argv[2], "--stdio", "its arguments after it");
	unit_ok(m.v[1].argv[3] == NULL, "and no more");
	unit_str(m.v[1].env[0], "K=v", "its environment");
	unit_str(m.v[1].cwd, "/tmp", "its directory");
	unit_str(m.v[1].file, "c.json", "where it was declared");
	unit_ok(mcp_find(&m, "b") == &m.v[1], "found by name");
	unit_ok(mcp_find(&m, "c") == NULL, "an unknown name is not");

	unit_long(load(&m, "{\"mcpServers\": {\"b\": {\"command\": \"x\"}, "
	    "\"c\": {\"command\": \"x\"}}}", &err), -1, "b again");
	unit_str(err, "c.json:1:22: error: server \"b\" is declared twice\n",
	    "is declared twice");
	unit_long((long)m.n, 2, "and c of the same file is not declared");

	unit_long(load(&m, "{\"mcpServers\": {\"d\": {\"command\": \"x\", "
	    "\"args\": [\"a\\u0000b\"]}}}", &err), 0, "a NUL in an argument");
	unit_str(err, "", "is not said at once");
	unit_str(mcp_find(&m, "d")->unusable, "d: c.json:1:48: args[0] holds "
	    "a NUL character", "but kept, to be said when d is needed");
	unit_long(load(&m, "{\"mcpServers\": {\"e\": {\"command\": \"x\\u0000\"}}}",
	    &err), 0, "a NUL in the command");
	unit_str(mcp_find(&m, "e")->unusable, "e: c.json:1:34: \"command\" "
	    "holds a NUL character", "is kept too");
	unit_long(load(&m, "\xEF\xBB\xBF{\"mcpServers\": []}", &err), -1,
	    "a byte order mark, and servers in an array");
	unit_str(err, "c.json:1:16: error: \"mcpServers\" must be an object, "
	    "not an array\n", "columns count from after the mark");
	unit_long(load(&m, "", &err), -1, "an empty file");
	unit_ok(strncmp(err, "c.json:1:1: error: invalid JSON: ", 33) == 0,
	    "is not JSON");
	mcp_free(&m);
	unit_long((long)m.n, 0, "all freed");
}

static void
test_server_arg(void)
{
	struct mcp m;
	char err[128];

	mcp_init(&m);
	unit_long(mcp_server_arg(&m, "e=node  x.js\tstdio ", err, sizeof(err)),
	    0, "--server with blanks");
	unit_str(m.v[0].name, "e", "its name");
	unit_str(m.v[0].argv[0], "node", "its command");
	unit_str(m.v[0].argv[1], "x.js", "words split at spaces");
	unit_str(m.v[0].argv[2], "stdio", "and tabs");
	unit_ok(m.v[0].argv[3] == NULL, "the blanks at the end are no word");
	unit_long(mcp_server_arg(&m, "e=other", err, sizeof(err)), -1,
	    "the same name again");
	unit_str(err, "server \"e\" is declared twice", "is refused");
	unit_long(mcp_server_arg(&m, "=x", err, sizeof(err)), -1,
	    "no name");
	unit_str(err, "--server wants NAME=COMMAND or NAME=URL, not \"=x\"",
	    "is refused");
	unit_long(mcp_server_arg(&m, "x", err, sizeof(err)), -1, "no =");
	unit_long(mcp_server_arg(&m, "x= \t", err, sizeof(err)), -1,
	    "no command");
	unit_long((long)m.n, 1, "none of them declared");
	mcp_free(&m);
}

/* -c FILE read whole, each way it can fail; --protocol's values. */
static void
test_config_file(void)
{
	static const char good[] =
	    "{\"mcpServers\": {\"e\": {\"command\": \"node\"}}}";
	static const char bad[] = "{\"mcpServers\": {\"b\": {}}, \"servers\": 1}";
	struct mcp m;
	char path[sizeof(UNIT_TMPNAME)];
	const char *err;

	mcp_init(&m);
	unit_tmpfile(path, good, strlen(good));
	unit_long(mcp_config_file(&m, path), DIAG_OK, "a configuration file");
	unit_long((long)m.n, 1, "its server declared");
	unlink(path);
	unit_tmpfile(path, bad, strlen(bad));
	unit_capture_begin();
	unit_long(mcp_config_file(&m, path), DIAG_USAGE, "one with a fault");
	err = unit_capture_end();
	unit_ok(strstr(err, ": error: ") != NULL, "the fault reported");
	unit_long((long)m.n, 1, "and none of its servers declared");
	unlink(path);
	unit_capture_begin();
	unit_long(mcp_config_file(&m, path), DIAG_TROUBLE,
	    "one that cannot be read");
	err = unit_capture_end();
	unit_ok(strstr(err, path) != NULL, "named in its diagnostic");
	unit_long(mcp_proto_arg(&m, MCP_LEGACY_VERSION), 0, "--protocol "
	    MCP_LEGACY_VERSION);
	unit_long(m.proto, MCP_PROTO_LEGACY, "pins the legacy era");
	unit_long(mcp_proto_arg(&m, MCP_MODERN_VERSION), 0, "--protocol "
	    MCP_MODERN_VERSION);
	unit_long(m.proto, MCP_PROTO_MODERN, "pins the modern era");
	unit_long(mcp_proto_arg(&m, "auto"), 0, "--protocol auto");
	unit_long(m.proto, MCP_PROTO_AUTO, "negotiates");
	unit_long(mcp_proto_arg(&m, "2024-11-05"), -1, "another revision");
	unit_long(m.proto, MCP_PROTO_AUTO, "leaves it as it was");
	mcp_free(&m);
}

/* --list-servers and --list-tools NAME: the names listed, and kept. */
static void
test_names(void)
{
	struct mcp m;
	struct buf out = BUF_INIT;
	char *some[] = { (char *)"c", (char *)"a", (char *)"c" };
	char *unknown[] = { (char *)"a", (char *)"x" };
	const char *err;
	char msg[128];

	mcp_init(&m);
	unit_long(load(&m, "{\"mcpServers\": {\"c\": {\"command\": \"x\"}, "
	    "\"a\\nb\": {\"command\": \"x\"}, \"b\": {\"command\": \"x\"}, "
	    "\"a\": {\"command\": \"x\"}}}", &err), 0, "four servers");
	unit_long(mcp_server_arg(&m, "\xff\xc0=x", msg, sizeof(msg)), -1,
	    "a --server name that is not UTF-8");
	unit_str(msg, "--server: the name \"\xEF\xBF\xBD\xEF\xBF\xBD\" is not "
	    "UTF-8", "is refused, its bytes shown as U+FFFD");
	unit_long(mcp_server_arg(&m, "\xc3\xa9t\xc3\xa9=x", msg, sizeof(msg)),
	    0, "a --server name of accented letters is taken");
	mcp_sort(&m);
	unit_capture_begin();
	unit_long((long)mcp_list_servers(&m, &out), 1, "one name left out");
	err = unit_capture_end();
	unit_mem(out.data, out.len, "a\nb\nc\n\xc3\xa9t\xc3\xa9\n",
	    "the others, a line each");
	unit_str(err, "test_mcp: server \"a\\nb\" is not listed: its name "
	    "holds a control character\n", "said, escaped");
	unit_ok(mcp_keep(&m, unknown, 2) == unknown[1], "x is no server's name");
	unit_long((long)m.n, 5, "and every server is kept");
	unit_ok(mcp_keep(&m, some, 3) == NULL, "c and a, c twice");
	unit_long((long)m.n, 2, "are kept");
	unit_ok(strcmp(m.v[0].name, "a") == 0 && strcmp(m.v[1].name, "c") ==
	    0, "in their order");
	buf_free(&out);
	mcp_free(&m);
}

static void
test_environment(void)
{
	struct mcp_server s;
	char *declared[] = { (char *)"TZ=Asia/Tokyo", (char *)"KEY=k", NULL };
	char **env;
	size_t i;
	struct buf all = BUF_INIT;

	memset(&s, 0, sizeof(s));
	setenv("HOME", "/home/u", 1);
	setenv("TZ", "UTC", 1);
	setenv("LLMKIT_SECRET", "s", 1);
	unsetenv("TMPDIR");
	s.env = declared;
	env = mcp_environment(&s);
	for (i = 0; env[i] != NULL; i++) {
		buf_adds(&all, env[i]);
		buf_addc(&all, '\n');
		free(env[i]);
	}
	free(env);
	unit_ok(strstr(buf_cstr(&all), "HOME=/home/u\n") != NULL,
	    "HOME is inherited");
	unit_ok(strstr(buf_cstr(&all), "LLMKIT_SECRET") == NULL,
	    "another variable is not");
	unit_ok(strstr(buf_cstr(&all), "TMPDIR") == NULL,
	    "nor one that is not set");
	unit_ok(strstr(buf_cstr(&all), "TZ=UTC") == NULL,
	    "a declared one replaces ours");
	unit_ok(strstr(buf_cstr(&all), "TZ=Asia/Tokyo\nKEY=k\n") != NULL,
	    "the declared ones come last, in order");
	buf_free(&all);
}

/* The record last read, which the call's strings point into. */
static json_t *rec;

/* Reads text as an input record: 1 call, 0 passed over, -1 bad. */
static int
record(struct mcp_call *c, const char *text, unsigned long k, char *err,
    const char **ptr)
{
	json_decref(rec);
	rec = json_loads(text, JSON_DECODE_INT_AS_REAL | JSON_ALLOW_NUL, NULL);
	if (rec == NULL)
		unit_bail("json_loads");
	return mcp_call_read(c, rec, k, err, 128, ptr);
}

static void
test_calls(void)
{
	struct mcp_call c;
	const char *ptr;
	char err[128];

	unit_long(record(&c, "{\"server_name\":\"s\",\"tool_name\":\"t\","
	    "\"arguments\":{\"a\":1}}", 7, err, &ptr), 1, "a plain call");
	unit_str(c.tool, "t", "its tool");
	unit_str(c.server, "s", "its server");
	unit_str(c.id, "call-0-7", "its id made from its number");
	unit_ok(c.iteration == NULL, "no iteration: 0");
	unit_ok(json_is_object(c.args), "its arguments kept");
	unit_str(c.ptr_tool, "/tool_name", "where its tool is");
	mcp_call_free(&c);

	unit_long(record(&c, "{\"type\":\"tool_call\",\"toolName\":\"t\","
	    "\"args\":{},\"toolCallId\":\"x-1\",\"iteration\":3}", 1, err, &ptr),
	    1, "a thread event");
	unit_str(c.id, "x-1", "its own id");
	unit_ok(json_number_value(c.iteration) == 3, "its iteration");
	unit_ok(c.server == NULL, "no server named");
	unit_str(c.ptr_server, "/serverName", "where a server would be");
	mcp_call_free(&c);

	unit_long(record(&c, "{\"type\":\"tool_call\",\"toolName\":\"t\","
	    "\"args\":{},\"iteration\":2}", 5, err, &ptr), 1,
	    "a thread event without an id");
	unit_str(c.id, "call-2-5", "gets one of its iteration");
	mcp_call_free(&c);

	unit_long(record(&c, "{\"type\":\"message\",\"role\":\"user\"}", 1,
	    err, &ptr), 0, "another event is passed over");
	unit_long(record(&c, "{\"tool_name\":\"t\"}", 1, err, &ptr), -1,
	    "a call without arguments");
	unit_str(err, "a call must have \"arguments\"", "is refused");
	unit_str(ptr, "", "at the record");
	unit_long(record(&c, "{\"tool_name\":1,\"arguments\":{}}", 1, err,
	    &ptr), -1, "a tool's name that is a number");
	unit_str(err, "a call must have a \"tool_name\" string, not a number",
	    "is refused");
	unit_str(ptr, "/tool_name", "at the name");
	unit_long(record(&c, "{\"type\":\"tool_call\",\"toolName\":\"t\","
	    "\"args\":{},\"iteration\":1.5}", 1, err, &ptr), -1,
	    "an iteration of 1.5");
	unit_str(err, "\"iteration\" must be a whole number from 0",
	    "is refused");
	unit_long(record(&c, "{\"type\":\"tool_call\",\"toolName\":\"t\","
	    "\"args\":{},\"iteration\":1e300}", 1, err, &ptr), -1,
	    "an iteration beyond any whole number");
	unit_long(record(&c, "{\"tool_name\":\"a\\u0000b\",\"arguments\":{}}",
	    1, err, &ptr), -1, "a tool's name with a NUL");
	unit_str(err, "the tool's name holds a control character",
	    "is refused");
	unit_str(ptr, "/tool_name", "at the tool's name");
	unit_long(record(&c, "{\"tool_name\":\"a\\nb\",\"arguments\":{}}",
	    1, err, &ptr), -1, "a tool's name with a newline");
	unit_str(err, "the tool's name holds a control character",
	    "is refused too");
	unit_long(record(&c, "{\"tool_name\":\"a\\u001b[2Jb\","
	    "\"arguments\":{}}", 1, err, &ptr), -1, "a tool's name with ESC");
	unit_str(err, "the tool's name holds a control character",
	    "is refused too");
	unit_long(record(&c, "{\"server_name\":\"s\\u0000x\",\"tool_name\":"
	    "\"t\",\"arguments\":{}}", 1, err, &ptr), -1,
	    "a server's name with a NUL");
	unit_str(err, "the server's name holds a NUL character", "is refused");
	unit_str(ptr, "/server_name", "at the server's name");
	json_decref(rec);
	rec = NULL;
}

/* Parses text as a line of a server's: its kind, or MCP_MSG_BAD. */
static int
msg(const char *text, struct mcp_msg *m)
{
	int kind;

	mcp_msg_parse(m, text, strlen(text));
	kind = m->kind;
	return kind;
}

static void
test_messages(void)
{
	static const struct {
		const char	*line;
		const char	*why;
	} bad[] = {
		{ "garbage", "not JSON" },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}} x",
		    "text after the message" },
		{ "[1]", "not an object" },
		{ "{\"id\":1,\"result\":{}}", "no \"jsonrpc\": \"2.0\"" },
		{ "{\"jsonrpc\":\"1.0\",\"id\":1,\"result\":{}}",
		    "no \"jsonrpc\": \"2.0\"" },
		{ "{\"jsonrpc\":\"2.0\",\"id\":[],\"result\":{}}",
		    "an \"id\" that is neither a number nor a string" },
		{ "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":1}",
		    "\"params\" that are neither an object nor an array" },
		{ "{\"jsonrpc\":\"2.0\",\"method\":1}",
		    "a \"method\" that is not a string" },
		{ "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"m\"}",
		    "a request whose \"id\" is null" },
		{ "{\"jsonrpc\":\"2.0\",\"result\":{}}",
		    "neither a \"method\" nor an \"id\"" },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1}",
		    "a response without one of \"result\" and \"error\"" },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"error\":{}}",
		    "a response without one of \"result\" and \"error\"" },
		{ "{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":{}}",
		    "a result whose \"id\" is null" },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1.5,"
		    "\"message\":\"m\"}}", "an \"error\" without an integer "
		    "\"code\" and a \"message\" string" },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1}}",
		    "an \"error\" without an integer \"code\" and a \"message\" "
		    "string" },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"result\":{}}",
		    "not JSON" },
	};
	struct mcp_msg m;
	size_t i;

	unit_long(msg("{\"result\":{\"content\":[]},\"jsonrpc\":\"2.0\","
	    "\"id\":3}", &m), MCP_MSG_RESPONSE, "a result");
	unit_ok(json_number_value(m.id) == 3 && json_is_object(m.result) &&
	    m.error == NULL, "its id and result");
	unit_long(m.id_integer, 1, "its id written as an integer");
	mcp_msg_free(&m);
	unit_long(msg("{\"jsonrpc\":\"2.0\",\"id\":3.0,\"result\":{}}", &m),
	    MCP_MSG_RESPONSE, "a result whose id is 3.0");
	unit_long(m.id_integer, 0, "its id is no integer");
	mcp_msg_free(&m);
	unit_long(msg("{\"jsonrpc\":\"2.0\",\"id\":3e0,\"result\":{}}", &m),
	    MCP_MSG_RESPONSE, "a result whose id is 3e0");
	unit_long(m.id_integer, 0, "its id is no integer either");
	mcp_msg_free(&m);
	unit_long(msg("{\"id\" : -12 ,\"jsonrpc\":\"2.0\",\"id2\":1.5,"
	    "\"result\":{}}", &m), MCP_MSG_RESPONSE, "an id of -12, blanks "
	    "around it");
	unit_long(m.id_integer, 1, "is an integer");
	mcp_msg_free(&m);
	unit_long(msg("{\"jsonrpc\":\"2.0\",\"id\":\"3\",\"result\":{}}", &m),
	    MCP_MSG_RESPONSE, "a result whose id is the string \"3\"");
	unit_long(m.id_integer, 0, "is no integer");
	mcp_msg_free(&m);
	{
		struct buf deep = BUF_INIT;
		int k;

		buf_adds(&deep, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":");
		for (k = 0; k < 3000; k++)
			buf_addc(&deep, '[');
		for (k = 0; k < 3000; k++)
			buf_addc(&deep, ']');
		buf_addc(&deep, '}');
		unit_long(msg(buf_cstr(&deep), &m), MCP_MSG_BAD,
		    "a result nested 3,000 deep");
		unit_str(m.why, "nested too deep", "says so, not \"not JSON\"");
		mcp_msg_free(&m);
		buf_free(&deep);
	}
	unit_long(msg("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":"
	    "-32700,\"message\":\"Parse error\"}}", &m), MCP_MSG_RESPONSE,
	    "an error about a request the server could not read");
	unit_ok(json_is_object(m.error), "its error");
	mcp_msg_free(&m);
	unit_long(msg("{\"jsonrpc\":\"2.0\",\"id\":\"p1\",\"method\":\"ping\"}",
	    &m), MCP_MSG_REQUEST, "a request with a string id");
	unit_str(m.method, "ping", "its method");
	mcp_msg_free(&m);
	unit_long(msg(" {\"jsonrpc\":\"2.0\",\"method\":\"notifications/"
	    "message\",\"params\":{\"level\":\"info\",\"data\":\"x\"}} ", &m),
	    MCP_MSG_NOTIFICATION, "a notification, blanks around it");
	unit_ok(json_is_object(m.params), "its params");
	mcp_msg_free(&m);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		unit_long(msg(bad[i].line, &m), MCP_MSG_BAD,
		    unit_fmt("not JSON-RPC: %s", bad[i].line));
		unit_str(m.why, bad[i].why, "says why");
		mcp_msg_free(&m);
	}
}

/* The era the probe's answer (JSON text, "result" or "error") says. */
static enum mcp_era
probe(const char *text)
{
	json_t *doc;
	enum mcp_era era;

	if ((doc = json_loads(text, 0, NULL)) == NULL)
		unit_bail("json_loads");
	era = mcp_discover_era(json_object_get(doc, "result"),
	    json_object_get(doc, "error"));
	json_decref(doc);
	return era;
}

/*
 * The answers to server/discover: a server of 2026-07-28, one of the 2025
 * era, and the -32022 errors, of a server that speaks only revisions of
 * the 2026 era other than ours among them: no reference server sends it.
 */
static void
test_probe(void)
{
	static const struct {
		const char	*answer;
		enum mcp_era	 era;
	} t[] = {
		{ "{\"result\":{\"supportedVersions\":[\"2026-07-28\"]}}",
		    MCP_ERA_MODERN },
		{ "{\"result\":{\"supportedVersions\":[\"2027-03-01\","
		    "\"2026-07-28\"]}}", MCP_ERA_MODERN },
		{ "{\"result\":{\"supportedVersions\":[\"2027-03-01\"]}}",
		    MCP_ERA_LEGACY },
		{ "{\"result\":{}}", MCP_ERA_LEGACY },
		{ "{\"error\":{\"code\":-32601,\"message\":\"Method not "
		    "found\"}}", MCP_ERA_LEGACY },
		{ "{\"error\":{\"code\":-32022,\"message\":\"Unsupported "
		    "protocol version: 2026-07-28\",\"data\":{\"supported\":"
		    "[\"2027-03-01\",\"2027-09-01\"],\"requested\":"
		    "\"2026-07-28\"}}}", MCP_ERA_NONE },
		{ "{\"error\":{\"code\":-32022,\"message\":\"x\",\"data\":"
		    "{\"supported\":[]}}}", MCP_ERA_NONE },
		{ "{\"error\":{\"code\":-32022,\"message\":\"x\",\"data\":"
		    "{\"supported\":[\"2027-03-01\",\"2025-06-18\"]}}}",
		    MCP_ERA_LEGACY },
		{ "{\"error\":{\"code\":-32022,\"message\":\"x\",\"data\":"
		    "{\"supported\":[\"2026-07-28\"]}}}", MCP_ERA_MODERN },
		{ "{\"error\":{\"code\":-32022,\"message\":\"x\"}}",
		    MCP_ERA_LEGACY },
		{ "{\"error\":{\"code\":-32022,\"message\":\"x\",\"data\":"
		    "{\"supported\":\"2027-03-01\"}}}", MCP_ERA_LEGACY },
	};
	json_t *v;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		unit_long(probe(t[i].answer), t[i].era, t[i].answer);

	v = json_loads("{\"code\":-32022,\"message\":\"x\",\"data\":"
	    "{\"supported\":[\"2027-03-01\"]}}", 0, NULL);
	unit_ok(json_equal(mcp_unsupported(v), json_object_get(
	    json_object_get(v, "data"), "supported")),
	    "the supported revisions of a -32022 error");
	json_decref(v);
	v = json_loads("{\"code\":-32601,\"message\":\"x\",\"data\":"
	    "{\"supported\":[\"2027-03-01\"]}}", 0, NULL);
	unit_ok(mcp_unsupported(v) == NULL, "none in another error");
	json_decref(v);

	v = json_string("2024-11-05");
	unit_ok(mcp_legacy_version(v), "2024-11-05 is of the 2025 era");
	json_decref(v);
	v = json_string("2026-07-28");
	unit_ok(!mcp_legacy_version(v), "2026-07-28 is not");
	json_decref(v);
	unit_ok(!mcp_legacy_version(NULL), "nor is nothing");
}

/* Many servers: each found by its name, after each way the list changes. */
static void
test_index(void)
{
	struct mcp m;
	struct buf conf = BUF_INIT;
	char name[32], arg[64], err[128], *keep[] = { (char *)"s2999",
	    (char *)"c17" };
	const char *diags;
	int i, found = 0;

	mcp_init(&m);
	for (i = 0; i < 3000; i++) {
		snprintf(arg, sizeof(arg), "s%d=x", i);
		if (mcp_server_arg(&m, arg, err, sizeof(err)) != 0)
			break;
	}
	unit_long(i, 3000, "3,000 servers by --server");
	buf_adds(&conf, "{\"mcpServers\": {");
	for (i = 0; i < 3000; i++)
		buf_printf(&conf, "%s\"c%d\": {\"command\": \"x\"}",
		    i > 0 ? ", " : "", i);
	buf_adds(&conf, "}}");
	unit_long(load(&m, buf_cstr(&conf), &diags), 0, "3,000 by a file");
	buf_reset(&conf);
	buf_adds(&conf, "{\"mcpServers\": {\"new\": {\"command\": \"x\"}, "
	    "\"s1500\": {\"command\": \"x\"}}}");
	unit_long(load(&m, buf_cstr(&conf), &diags), -1,
	    "a file that declares one of them again");
	unit_str(diags, "c.json:1:51: error: server \"s1500\" is declared "
	    "twice\n", "is refused at its place");
	unit_ok(mcp_find(&m, "new") == NULL, "and none of it is declared");
	unit_long(mcp_server_arg(&m, "c2999=x", err, sizeof(err)), -1,
	    "--server with a name of the file");
	unit_str(err, "server \"c2999\" is declared twice", "is refused");
	mcp_sort(&m);
	for (i = 0; i < 3000; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		found += mcp_find(&m, name) != NULL &&
		    strcmp(mcp_find(&m, name)->name, name) == 0;
		snprintf(name, sizeof(name), "c%d", i);
		found += mcp_find(&m, name) != NULL &&
		    strcmp(mcp_find(&m, name)->name, name) == 0;
	}
	unit_long(found, 6000, "sorted, each is found by its name");
	unit_ok(mcp_find(&m, "s3000") == NULL && mcp_find(&m, "") == NULL,
	    "and no other name");
	unit_ok(mcp_keep(&m, keep, 2) == NULL && m.n == 2, "two kept");
	unit_ok(mcp_find(&m, "c17") == &m.v[0] && mcp_find(&m, "s2999") ==
	    &m.v[1] && mcp_find(&m, "s0") == NULL, "are found, the rest not");
	buf_free(&conf);
	mcp_free(&m);
	unit_ok(mcp_find(&m, "c17") == NULL, "nor once freed");
}

/*
 * Runs a call of tool with the arguments args on server s of m: its
 * status, its event line in line and its message in message.
 */
static int
run_call(struct mcp *m, const char *tool, const char *args,
    struct buf *line, struct buf *message)
{
	struct mcp_call c;
	struct mcp_outcome o;
	int status;

	memset(&c, 0, sizeof(c));
	c.tool = tool;
	c.server = "s";
	c.args = json_loads(args, 0, NULL);
	c.id = (char *)"id";
	memset(&o, 0, sizeof(o));
	mcp_call_run(m, &c, &o);
	buf_reset(line);
	buf_add(line, o.record.data, o.record.len);
	buf_reset(message);
	buf_add(message, o.message.data, o.message.len);
	status = o.status;
	json_decref(c.args);
	buf_free(&o.record);
	buf_free(&o.message);
	return status;
}

/* What a server says on its standard error, kept for test_run. */
static void
keep_note(void *arg, const char *server, const char *text, size_t len)
{
	struct buf *b = arg;

	buf_printf(b, "%s: ", server);
	buf_add(b, text, len);
	buf_addc(b, '\n');
}

/*
 * The read loop with t/mcp/sh-server.sh: a server that ends leaving a
 * child that holds its output, one that answers and ends before the next
 * call, one whose answer is longer than max_line.
 */
static void
test_run(void)
{
	struct mcp m;
	struct buf line = BUF_INIT, msg = BUF_INIT, said = BUF_INIT;
	char err[128];

	mcp_init(&m);
	m.timeout = 30;
	m.note = keep_note;
	m.note_arg = &said;
	mcp_server_arg(&m, "s=sh t/mcp/sh-server.sh", err, sizeof(err));
	unit_long(run_call(&m, "orphan", "{}", &line, &msg), DIAG_INVALID,
	    "a server that ends, leaving a child that holds its output");
	unit_str(buf_cstr(&msg), "server s exited with status 4 during the "
	    "call", "fails the call as it ends, not at the time limit");
	unit_ok(strncmp(buf_cstr(&said), "s: orphan ", 10) == 0,
	    "what it said before is read");
	unit_long(run_call(&m, "bye", "{}", &line, &msg), DIAG_OK,
	    "started again, it answers and ends");
	unit_str(buf_cstr(&line), "{\"type\":\"tool_result\",\"toolCallId\":"
	    "\"id\",\"toolName\":\"bye\",\"serverName\":\"s\",\"result\":"
	    "\"bye 2\",\"iteration\":0}\n", "its answer");
	unit_long(run_call(&m, "echo", "{}", &line, &msg), DIAG_OK,
	    "the next call");
	unit_ok(strstr(buf_cstr(&line), "\"echo 2\"") != NULL,
	    "goes to the server started again");
	m.max_line = 60;
	unit_capture_begin();
	unit_long(run_call(&m, "echo", "{}", &line, &msg), DIAG_INVALID,
	    "an answer longer than max_line");
	unit_capture_end();
	unit_str(buf_cstr(&msg), "server s wrote a line longer than "
	    "--max-line (60 bytes)", "fails its call");
	m.max_line = MCP_MAX_LINE;
	unit_long(run_call(&m, "echo", "{}", &line, &msg), DIAG_OK,
	    "and the server is started again for the next");
	mcp_shutdown(&m);
	unit_ok(!m.v[0].running, "shut down");
	buf_free(&line);
	buf_free(&msg);
	buf_free(&said);
	mcp_free(&m);
}

int
main(int argc, char *argv[])
{
	diag_setprogname("test_mcp");
	if (proc_init() == -1)
		unit_bail("proc_init");
	test_config();
	test_server_arg();
	test_config_file();
	test_names();
	test_environment();
	test_calls();
	test_messages();
	test_probe();
	test_index();
	test_run();
	unit_free();
	return unit_done();
}
