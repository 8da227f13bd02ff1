/*
 * mcp_read: what mcp-run reads: the servers' configuration (a file, or
 * --server NAME=COMMAND), the tool calls of its input records, and the
 * messages a server sends. None of it starts anything.
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
#include "mcp/mcp_int.h"

/* The variables a server inherits from us, where we have them. */
static const char *const inherited[] = {
	"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL",
	"TZ", "TMPDIR"
};

/* A configuration being read: its text, and where its values are. */
struct conf {
	struct mcp		*m;
	struct src		 src;
	struct jsonx_locator	 loc;
	size_t			 top;	/* the offset of its value */
	int			 failed;	/* how many faults were reported */
};

static void	conf_fail(struct conf *, const char *, const char *, ...)
		    __attribute__((format(printf, 3, 4)));

void
mcp_init(struct mcp *m)
{
	memset(m, 0, sizeof(*m));
	m->timeout = MCP_TIMEOUT;
	m->proto = MCP_PROTO_AUTO;
	m->max_line = MCP_MAX_LINE;
}

/* An error at the value the JSON Pointer ptr names ("" the whole). */
static void
conf_fail(struct conf *c, const char *ptr, const char *fmt, ...)
{
	struct diag_loc loc;
	va_list ap;

	src_loc(&c->src, jsonx_locate(&c->loc, c->top, ptr), &loc);
	loc.path = ptr;
	va_start(ap, fmt);
	diag_vat(DIAG_ERROR, &loc, "mcp-config", fmt, ap);
	va_end(ap);
	c->failed++;
}

/* Appends "/" and key to a JSON Pointer, with ~ and / escaped. */
static void
ptr_add(struct buf *p, const char *key)
{
	buf_addc(p, '/');
	for (; *key != '\0'; key++) {
		if (*key == '~')
			buf_adds(p, "~0");
		else if (*key == '/')
			buf_adds(p, "~1");
		else
			buf_addc(p, *key);
	}
}

/* Whether a JSON number is a whole number that a double holds exactly. */
static char *
dupn(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static int
whole(double d)
{
	return d >= -9007199254740992.0 && d <= 9007199254740992.0 &&
	    d == (double)(long long)d;
}

/* Frees what a server holds; it must not be running. */
void
mcp_server_clear(struct mcp_server *s)
{
	size_t i;

	for (i = 0; s->argv != NULL && s->argv[i] != NULL; i++)
		free(s->argv[i]);
	for (i = 0; s->env != NULL && s->env[i] != NULL; i++)
		free(s->env[i]);
	for (i = 0; s->headers != NULL && s->headers[i] != NULL; i++)
		free(s->headers[i]);
	free(s->argv);
	free(s->env);
	free(s->headers);
	free(s->cwd);
	free(s->url);
	free(s->unusable);
	free(s->name);
	buf_free(&s->wbuf);
	buf_free(&s->rbuf);
	buf_free(&s->ebuf);
	json_decref(s->tools);
	json_decref(s->caps);
	memset(s, 0, sizeof(*s));
}

/* FNV-1a of a server's name: its slot in the index. */
static size_t
name_hash(const char *name)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *name != '\0'; name++)
		h = (h ^ (unsigned char)*name) * 1099511628211ULL;
	return (size_t)h;
}

/* Puts server i in the index, which has room for it. */
static void
index_put(struct mcp *m, size_t i)
{
	size_t h;

	for (h = name_hash(m->v[i].name); m->slots[h & (m->nslots - 1)] != 0;
	    h++)
		continue;
	m->slots[h & (m->nslots - 1)] = i + 1;
}

/*
 * Indexes the servers by name anew, in a table at most half full, so
 * that declaring and finding them takes a time that grows with their
 * number, not with its square.
 */
static void
index_servers(struct mcp *m)
{
	size_t i;

	if (m->nslots < 2 * (m->n + 1)) {
		free(m->slots);
		for (m->nslots = m->nslots > 0 ? m->nslots : 16;
		    m->nslots < 2 * (m->n + 1); m->nslots *= 2)
			continue;
		m->slots = xcalloc(m->nslots, sizeof(*m->slots));
	} else
		memset(m->slots, 0, m->nslots * sizeof(*m->slots));
	for (i = 0; i < m->n; i++)
		index_put(m, i);
}

struct mcp_server *
mcp_find(struct mcp *m, const char *name)
{
	size_t h, at;

	if (m->nslots == 0)
		return NULL;
	for (h = name_hash(name); (at = m->slots[h & (m->nslots - 1)]) != 0;
	    h++)
		if (strcmp(m->v[at - 1].name, name) == 0)
			return &m->v[at - 1];
	return NULL;
}

static struct mcp_server *
add_server(struct mcp *m, const char *name, const char *file)
{
	struct mcp_server *s;

	if (m->n == m->cap) {
		m->cap = m->cap > 0 ? 2 * m->cap : 8;
		m->v = xreallocarray(m->v, m->cap, sizeof(*m->v));
	}
	s = &m->v[m->n++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	s->file = file;
	s->ch.pid = -1;
	s->ch.in = s->ch.out = s->ch.err = -1;
	if (m->nslots < 2 * (m->n + 1))
		index_servers(m);
	else
		index_put(m, m->n - 1);
	return s;
}

/*
 * The string member key of server object o, or NULL: absent (quietly),
 * or not a string or holding a NUL byte (reported).
 */
static const char *
conf_string(struct conf *c, const json_t *o, const char *q, const char *ptr,
    const char *key)
{
	struct buf p = BUF_INIT;
	const json_t *v;
	const char *s = NULL;

	if ((v = json_object_get(o, key)) == NULL)
		return NULL;
	buf_adds(&p, ptr);
	ptr_add(&p, key);
	if (!json_is_string(v))
		conf_fail(c, buf_cstr(&p), "server %s: \"%s\" must be a "
		    "string, not %s", q, key, jsonx_typename(v));
	else if (strlen(json_string_value(v)) != json_string_length(v))
		conf_fail(c, buf_cstr(&p), "server %s: \"%s\" holds a NUL "
		    "character", q, key);
	else
		s = json_string_value(v);
	buf_free(&p);
	return s;
}

/* The "args" of server object o after command: argv, or NULL (said). */
static char **
conf_argv(struct conf *c, const json_t *o, const char *q, const char *ptr,
    const char *command)
{
	struct buf p = BUF_INIT;
	const json_t *args, *v;
	char **argv;
	size_t i, n;

	args = json_object_get(o, "args");
	if (args != NULL && !json_is_array(args)) {
		buf_adds(&p, ptr);
		ptr_add(&p, "args");
		conf_fail(c, buf_cstr(&p), "server %s: \"args\" must be an "
		    "array of strings, not %s", q, jsonx_typename(args));
		buf_free(&p);
		return NULL;
	}
	n = json_array_size(args);
	argv = xcalloc(n + 2, sizeof(*argv));
	argv[0] = xstrdup(command);
	json_array_foreach(args, i, v) {
		if (json_is_string(v) &&
		    strlen(json_string_value(v)) == json_string_length(v)) {
			argv[i + 1] = xstrdup(json_string_value(v));
			continue;
		}
		buf_reset(&p);
		buf_printf(&p, "%s/args/%zu", ptr, i);
		if (json_is_string(v))
			conf_fail(c, buf_cstr(&p), "server %s: args[%zu] holds "
			    "a NUL character", q, i);
		else
			conf_fail(c, buf_cstr(&p), "server %s: args[%zu] must "
			    "be a string, not %s", q, i, jsonx_typename(v));
		break;
	}
	buf_free(&p);
	if (i < n) {
		for (i = 0; argv[i] != NULL; i++)
			free(argv[i]);
		free(argv);
		return NULL;
	}
	return argv;
}

/* The "env" of server object o as "NAME=VALUE"s; NULL when none or bad. */
static char **
conf_env(struct conf *c, const json_t *o, const char *q, const char *ptr)
{
	struct buf p = BUF_INIT, kq = BUF_INIT;
	const json_t *env, *v;
	const char *key;
	char **out, kb[80];
	size_t n = 0, i;

	if ((env = json_object_get(o, "env")) == NULL)
		return NULL;
	buf_adds(&p, ptr);
	ptr_add(&p, "env");
	if (!json_is_object(env)) {
		conf_fail(c, buf_cstr(&p), "server %s: \"env\" must be an "
		    "object of strings, not %s", q, jsonx_typename(env));
		buf_free(&p);
		return NULL;
	}
	out = xcalloc(json_object_size(env) + 1, sizeof(*out));
	json_object_foreach((json_t *)env, key, v) {
		buf_reset(&kq);
		buf_adds(&kq, buf_cstr(&p));
		ptr_add(&kq, key);
		diag_quote(kb, sizeof(kb), key, strlen(key));
		if (*key == '\0' || strchr(key, '=') != NULL)
			conf_fail(c, buf_cstr(&kq), "server %s: env %s is not "
			    "a variable's name", q, kb);
		else if (!json_is_string(v))
			conf_fail(c, buf_cstr(&kq), "server %s: env %s must be "
			    "a string, not %s", q, kb, jsonx_typename(v));
		else if (strlen(json_string_value(v)) != json_string_length(v))
			conf_fail(c, buf_cstr(&kq), "server %s: env %s holds a "
			    "NUL character", q, kb);
		else {
			out[n] = xmalloc(strlen(key) + json_string_length(v) +
			    2);
			sprintf(out[n++], "%s=%s", key, json_string_value(v));
			continue;
		}
		break;
	}
	buf_free(&p);
	buf_free(&kq);
	if (n < json_object_size(env)) {
		for (i = 0; i < n; i++)
			free(out[i]);
		free(out);
		return NULL;
	}
	return out;
}

/* One member of "mcpServers": the server declared, or reported. */
static void
conf_server(struct conf *c, const char *name, const json_t *o)
{
	struct buf p = BUF_INIT;
	struct mcp_server *s;
	const json_t *type;
	const char *command, *cwd;
	char q[80], tq[80];
	char **argv, **env;
	int before = c->failed;

	buf_adds(&p, "/mcpServers");
	ptr_add(&p, name);
	diag_quote(q, sizeof(q), name, strlen(name));
	if (*name == '\0') {
		conf_fail(c, buf_cstr(&p), "a server's name is empty");
		goto out;
	}
	if (!json_is_object(o)) {
		conf_fail(c, buf_cstr(&p), "server %s must be an object, not "
		    "%s", q, jsonx_typename(o));
		goto out;
	}
	if (mcp_find(c->m, name) != NULL) {
		conf_fail(c, buf_cstr(&p), "server %s is declared twice", q);
		goto out;
	}
	if ((type = json_object_get(o, "type")) != NULL) {
		if (!json_is_string(type) || strcmp(json_string_value(type),
		    "stdio") != 0) {
			ptr_add(&p, "type");
			if (!json_is_string(type))
				conf_fail(c, buf_cstr(&p), "server %s: \"type\" "
				    "must be a string, not %s", q,
				    jsonx_typename(type));
			else
				conf_fail(c, buf_cstr(&p), "server %s: type %s "
				    "is not supported: mcp-run speaks stdio "
				    "only", q, diag_quote(tq, sizeof(tq),
				    json_string_value(type),
				    json_string_length(type)));
			goto out;
		}
	}
	command = conf_string(c, o, q, buf_cstr(&p), "command");
	if (command == NULL && c->failed == before)
		conf_fail(c, buf_cstr(&p), "server %s has no \"command\" string",
		    q);
	else if (command != NULL && *command == '\0') {
		ptr_add(&p, "command");
		conf_fail(c, buf_cstr(&p), "server %s: \"command\" is empty", q);
	}
	cwd = conf_string(c, o, q, buf_cstr(&p), "cwd");
	if (c->failed != before)
		goto out;
	if ((argv = conf_argv(c, o, q, buf_cstr(&p), command)) == NULL)
		goto out;
	env = conf_env(c, o, q, buf_cstr(&p));
	if (c->failed != before) {
		for (size_t i = 0; argv[i] != NULL; i++)
			free(argv[i]);
		free(argv);
		goto out;
	}
	s = add_server(c->m, name, c->src.name);
	s->argv = argv;
	s->env = env;
	s->cwd = cwd != NULL ? xstrdup(cwd) : NULL;
out:
	buf_free(&p);
}

/*
 * Declares the servers of the configuration text (len bytes) of file.
 * Every fault is reported at its place; returns 0, or -1 when there was
 * one (and then no server of the file is declared).
 */
int
mcp_config_load(struct mcp *m, const char *file, const char *text,
    size_t len)
{
	struct conf c;
	struct jsonx_error err;
	struct diag_loc loc;
	const json_t *servers;
	const char *name;
	json_t *doc, *v;
	size_t end, had = m->n, i;

	memset(&c, 0, sizeof(c));
	c.m = m;
	src_init(&c.src, file, text, len);
	c.top = jsonx_skip_ws(text, len, c.src.start);
	if ((doc = jsonx_parse(text, len, c.top, &end, &err)) == NULL) {
		if (err.first != JSONX_NOPOS) {
			src_loc(&c.src, err.first, &loc);
			jsonx_dup_text(&err, loc.line, loc.col);
		}
		src_loc(&c.src, err.offset, &loc);
		loc.path = NULL;
		diag_at(DIAG_ERROR, &loc, err.rule, "%s", err.text);
		return -1;
	}
	jsonx_locator_init(&c.loc, text, len);
	if ((end = jsonx_skip_ws(text, len, end)) < len) {
		src_loc(&c.src, end, &loc);
		loc.path = NULL;
		diag_at(DIAG_ERROR, &loc, "json-syntax", "invalid JSON: text "
		    "after the configuration");
		c.failed++;
	} else if (!json_is_object(doc))
		conf_fail(&c, "", "the configuration must be an object, not %s",
		    jsonx_typename(doc));
	else if ((servers = json_object_get(doc, "mcpServers")) == NULL)
		conf_fail(&c, "", "the configuration has no \"mcpServers\" "
		    "object");
	else if (!json_is_object(servers))
		conf_fail(&c, "/mcpServers", "\"mcpServers\" must be an object, "
		    "not %s", jsonx_typename(servers));
	else
		json_object_foreach((json_t *)servers, name, v)
			conf_server(&c, name, v);
	jsonx_locator_free(&c.loc);
	json_decref(doc);
	if (!c.failed)
		return 0;
	for (i = had; i < m->n; i++)
		mcp_server_clear(&m->v[i]);
	m->n = had;
	index_servers(m);
	return -1;
}

/*
 * -c FILE: declares the servers of the configuration file path. Returns a
 * status: 2 for a configuration with a fault, 3 for a file not read.
 */
int
mcp_config_file(struct mcp *m, const char *path)
{
	struct buf text = BUF_INIT;
	int status = DIAG_OK;

	if (io_read_text(path, &text) != DIAG_OK)
		status = DIAG_TROUBLE;
	else if (mcp_config_load(m, io_name(path), text.data, text.len) != 0)
		status = DIAG_USAGE;
	buf_free(&text);
	return status;
}

/* The names of --protocol, for cmd_choice: auto, or one revision's era. */
const struct cmd_choice mcp_protocols[] = {
	{ "auto", MCP_PROTO_AUTO }, { MCP_MODERN_VERSION, MCP_PROTO_MODERN },
	{ MCP_LEGACY_VERSION, MCP_PROTO_LEGACY }, { NULL, 0 }
};

/* --protocol VERSION: auto, or one revision's era. Returns 0, or -1. */
int
mcp_proto_arg(struct mcp *m, const char *arg)
{
	int v;

	if ((v = cmd_choice_find(arg, mcp_protocols)) == -1)
		return -1;
	m->proto = v;
	return 0;
}

/*
 * The words of s, split at blanks (no shell: no quotes, no expansion),
 * as a NULL-ended array whose count is *n (0: the array is NULL).
 */
char **
mcp_words(const char *s, size_t *n)
{
	const char *p = s, *w;
	char **argv = NULL;

	*n = 0;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		for (w = p; *p != '\0' && *p != ' ' && *p != '\t'; p++)
			continue;
		argv = xreallocarray(argv, *n + 2, sizeof(*argv));
		argv[(*n)++] = dupn(w, (size_t)(p - w));
		argv[*n] = NULL;
	}
	return argv;
}

/*
 * --server NAME=COMMAND: COMMAND split at blanks into the command and its
 * arguments. Returns 0, or -1 with the message in err (errlen bytes).
 */
int
mcp_server_arg(struct mcp *m, const char *arg, char *err, size_t errlen)
{
	struct mcp_server *s;
	const char *eq = strchr(arg, '=');
	char q[80], *name;
	char **argv = NULL;
	size_t n = 0;

	if (eq != NULL)
		argv = mcp_words(eq + 1, &n);
	if (eq == NULL || eq == arg || n == 0) {
		snprintf(err, errlen, "--server wants NAME=COMMAND, not %s",
		    diag_quote(q, sizeof(q), arg, strlen(arg)));
		goto fail;
	}
	if (utf8_valid(arg, (size_t)(eq - arg)) < (size_t)(eq - arg)) {
		snprintf(err, errlen, "--server: the name %s is not UTF-8",
		    diag_quote(q, sizeof(q), arg, (size_t)(eq - arg)));
		goto fail;
	}
	name = dupn(arg, (size_t)(eq - arg));
	if (mcp_find(m, name) != NULL) {
		snprintf(err, errlen, "server %s is declared twice",
		    diag_quote(q, sizeof(q), name, strlen(name)));
		free(name);
		goto fail;
	}
	s = add_server(m, name, NULL);
	free(name);
	if (n == 1 && (strncmp(argv[0], "http://", 7) == 0 ||
	    strncmp(argv[0], "https://", 8) == 0)) {
		s->transport = MCP_HTTP;
		s->url = argv[0];
		free(argv);
		return 0;
	}
	s->argv = argv;
	return 0;
fail:
	while (n > 0)
		free(argv[--n]);
	free(argv);
	return -1;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const struct mcp_server *)a)->name,
	    ((const struct mcp_server *)b)->name);
}

/* Sorts the servers by name, once they have all been declared. */
void
mcp_sort(struct mcp *m)
{
	if (m->n > 1)
		qsort(m->v, m->n, sizeof(*m->v), by_name);
	index_servers(m);
}

/*
 * Keeps the servers that the n names name, and clears the others; a name
 * given twice counts once. Returns NULL, or the first name that no server
 * has, and then every server is kept.
 */
const char *
mcp_keep(struct mcp *m, char *const names[], size_t n)
{
	struct mcp_server *s;
	unsigned char *named;
	size_t i, j, kept = 0;

	named = xcalloc(m->n + 1, 1);
	for (j = 0; j < n; j++) {
		if ((s = mcp_find(m, names[j])) == NULL) {
			free(named);
			return names[j];
		}
		named[s - m->v] = 1;
	}
	for (i = 0; i < m->n; i++) {
		if (!named[i])
			mcp_server_clear(&m->v[i]);
		else
			m->v[kept++] = m->v[i];
	}
	free(named);
	m->n = kept;
	index_servers(m);
	return NULL;
}

/*
 * The servers' names, one a line, into out, none started. A name that
 * holds a control character (a configuration's key may; --server's
 * names are UTF-8 too) is left out and reported: a line of out is always
 * a whole name, as it was declared. Returns how many were left out.
 */
size_t
mcp_list_servers(const struct mcp *m, struct buf *out)
{
	const char *name;
	char q[80];
	size_t i, len, left = 0;

	for (i = 0; i < m->n; i++) {
		name = m->v[i].name;
		len = strlen(name);
		if (utf8_plain(name, len) == len) {
			buf_add(out, name, len);
			buf_addc(out, '\n');
			continue;
		}
		diag_warnx("server %s is not listed: its name holds a control "
		    "character", diag_quote(q, sizeof(q), name, len));
		left++;
	}
	return left;
}

/*
 * The environment of a server: ours of the inherited names, then what it
 * declares on top. A NULL-terminated array to free with its strings.
 */
char **
mcp_environment(const struct mcp_server *s)
{
	char **env;
	const char *v;
	size_t n = 0, i, j, nd = 0, len;

	while (s->env != NULL && s->env[nd] != NULL)
		nd++;
	env = xcalloc(sizeof(inherited) / sizeof(inherited[0]) + nd + 1,
	    sizeof(*env));
	for (i = 0; i < sizeof(inherited) / sizeof(inherited[0]); i++) {
		len = strlen(inherited[i]);
		for (j = 0; j < nd; j++)
			if (strncmp(s->env[j], inherited[i], len) == 0 &&
			    s->env[j][len] == '=')
				break;
		if (j < nd || (v = getenv(inherited[i])) == NULL)
			continue;
		env[n] = xmalloc(len + strlen(v) + 2);
		sprintf(env[n++], "%s=%s", inherited[i], v);
	}
	for (j = 0; j < nd; j++)
		env[n++] = xstrdup(s->env[j]);
	return env;
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
