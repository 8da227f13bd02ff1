/*
 * fuzz_mcp: what mcp-run reads, on any bytes. The first byte chooses:
 * 'c' a configuration file, 'm' a line a server wrote, anything else an
 * input record. A configuration accepted must declare only servers with
 * a name and a command free of NULs, and one refused must declare none;
 * a message must be of the kind its members make it; a call must have a
 * tool's name and an id. Anything else aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "diag.h"
#include "jsonx.h"
#include "mcp.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz_mcp: %s\n", what);
		abort();
	}
}

static void
config(const char *s, size_t n)
{
	struct mcp m;
	char **env;
	size_t i, j;
	int rc;

	mcp_init(&m);
	rc = mcp_config_load(&m, "c.json", s, n);
	check(rc == 0 || m.n == 0, "a refused file declared a server");
	for (i = 0; i < m.n; i++) {
		check(m.v[i].name[0] != '\0', "a server without a name");
		check(m.v[i].argv != NULL && m.v[i].argv[0][0] != '\0',
		    "a server without a command");
		env = mcp_environment(&m.v[i]);
		for (j = 0; env[j] != NULL; j++) {
			check(strchr(env[j], '=') > env[j],
			    "an environment entry without a name");
			free(env[j]);
		}
		free(env);
	}
	mcp_sort(&m);
	for (i = 1; i < m.n; i++)
		check(strcmp(m.v[i - 1].name, m.v[i].name) < 0,
		    "servers out of order, or twice");
	mcp_free(&m);
}

static void
message(const char *s, size_t n)
{
	struct mcp_msg m;

	if (mcp_msg_parse(&m, s, n) != 0)
		check(m.kind == MCP_MSG_BAD && m.why[0] != '\0',
		    "a bad message without a reason");
	else if (m.kind == MCP_MSG_RESPONSE)
		check(m.id != NULL && (m.result == NULL) != (m.error == NULL) &&
		    (m.result == NULL || !json_is_null(m.id)),
		    "a response of the wrong shape");
	else if (m.kind == MCP_MSG_REQUEST)
		check(m.method != NULL && m.id != NULL && !json_is_null(m.id),
		    "a request of the wrong shape");
	else
		check(m.kind == MCP_MSG_NOTIFICATION && m.method != NULL &&
		    m.id == NULL, "a notification of the wrong shape");
	mcp_msg_free(&m);
}

static void
record(const char *s, size_t n)
{
	struct jsonx_error err;
	struct mcp_call c;
	const char *ptr;
	char msg[256];
	json_t *v;
	size_t end;
	int rc;

	if ((v = jsonx_parse(s, n, jsonx_skip_ws(s, n, 0), &end, &err)) ==
	    NULL)
		return;
	rc = mcp_call_read(&c, v, 42, msg, sizeof(msg), &ptr);
	if (rc == 1) {
		check(c.tool != NULL && c.tool[0] != '\0', "a call without "
		    "a tool");
		check(c.id != NULL && c.id[0] != '\0', "a call without an id");
		check(c.args != NULL, "a call without arguments");
		mcp_call_free(&c);
	} else if (rc == -1)
		check(msg[0] != '\0' && ptr != NULL && (ptr[0] == '\0' ||
		    ptr[0] == '/'), "a bad record without a message");
	else
		check(rc == 0, "an unknown verdict");
	json_decref(v);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data + 1;

	if (size == 0)
		return 0;
	diag_setquiet(1);
	if (data[0] == 'c')
		config(s, size - 1);
	else if (data[0] == 'm')
		message(s, size - 1);
	else
		record(s, size - 1);
	return 0;
}
