/*
 * mcp_config: the servers mcp-run may speak to, as the editors' files
 * declare them (the "mcpServers" of Claude, Cursor, Windsurf and Gemini
 * CLI, VS Code's "servers", Zed's "context_servers"; JSON with comments
 * and trailing commas) or --server does, their ${...} expanded, found by
 * name. An entry that cannot be used keeps the reason, said only when
 * the server is needed: the other servers of its file work.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/io.h"
#include "base/src.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "json/jsonx.h"
#include "mcp/mcp.h"
#include "mcp/mcp_int.h"

#define MAX_TIMEOUT_MS	86400000.0	/* a server's "timeout", as -T's */

/* The variables a server inherits from us, where we have them. */
static const char *const inherited[] = {
	"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL",
	"TZ", "TMPDIR"
};

/* The members that hold a file's servers, and the editors that use them. */
static const char *const tables[] = {
	"mcpServers",		/* Claude, Cursor, Windsurf, Gemini CLI */
	"servers",		/* VS Code's mcp.json */
	"context_servers"	/* Zed */
};

/* A configuration being read: its text, and where its values are. */
struct conf {
	struct mcp		*m;
	struct src		 src;	/* the text as written, for places */
	struct jsonx_locator	 loc;	/* over the text as parsed */
	size_t			 top;	/* the offset of its value */
	int			 failed;	/* how many faults were reported */
	int			 gemini;	/* .gemini/settings.json: url is SSE */
};

/* One server entry being read, and its first fault. */
struct entry {
	struct conf	*c;
	const char	*name;
	struct buf	 ptr;		/* its JSON Pointer */
	struct buf	 why;		/* "NAME: FILE:LINE:COL: fault", or empty */
};

static void	conf_fail(struct conf *, const char *, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
static void	ent_fail(struct entry *, const char *, const char *, ...)
		    __attribute__((format(printf, 3, 4)));

void
mcp_init(struct mcp *m)
{
	memset(m, 0, sizeof(*m));
	m->timeout = MCP_TIMEOUT;
	m->proto = MCP_PROTO_AUTO;
	m->max_line = MCP_MAX_LINE;
	m->parallel = 1;
}

/* An error of the whole file at the value the JSON Pointer ptr names. */
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

/*
 * The first fault of entry e, at the value below it that the pointer
 * tail sub names ("" the entry), kept to be said when it is needed.
 */
static void
ent_fail(struct entry *e, const char *sub, const char *fmt, ...)
{
	struct diag_loc loc;
	struct buf p = BUF_INIT;
	va_list ap;

	if (e->why.len > 0)
		return;
	buf_adds(&p, buf_cstr(&e->ptr));
	buf_adds(&p, sub);
	src_loc(&e->c->src, jsonx_locate(&e->c->loc, e->c->top, buf_cstr(&p)),
	    &loc);
	diag_escape(&e->why, e->name, strlen(e->name), 0);
	buf_printf(&e->why, ": %s:%lu:%lu: ", loc.file, loc.line, loc.col);
	va_start(ap, fmt);
	buf_vprintf(&e->why, fmt, ap);
	va_end(ap);
	buf_free(&p);
}

static void
strv_free(char **v)
{
	size_t i;

	for (i = 0; v != NULL && v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

/* Frees what a server holds; it must not be running. */
void
mcp_server_clear(struct mcp_server *s)
{
	strv_free(s->argv);
	strv_free(s->env);
	strv_free(s->headers);
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
 * The string member key of object o (at the pointer tail sub of entry
 * e), expanded: a new string, or NULL when it is absent (quietly) or
 * cannot be used (e's fault).
 */
static char *
ent_string(struct entry *e, const json_t *o, const char *sub,
    const char *key)
{
	struct buf p = BUF_INIT, out = BUF_INIT, err = BUF_INIT;
	const json_t *v;
	char *s = NULL;

	if ((v = json_object_get(o, key)) == NULL)
		return NULL;
	buf_adds(&p, sub);
	ptr_add(&p, key);
	if (!json_is_string(v))
		ent_fail(e, buf_cstr(&p), "\"%s\" must be a string, not %s",
		    key, jsonx_typename(v));
	else if (strlen(json_string_value(v)) != json_string_length(v))
		ent_fail(e, buf_cstr(&p), "\"%s\" holds a NUL character", key);
	else if (mcp_expand(&out, json_string_value(v), e->c->src.name,
	    &err) != 0)
		ent_fail(e, buf_cstr(&p), "\"%s\": %s", key, buf_cstr(&err));
	else
		s = xstrdup(buf_cstr(&out));
	buf_free(&p);
	buf_free(&out);
	buf_free(&err);
	return s;
}

/* The "args" of object o (at sub of e) after command: argv, or NULL. */
static char **
ent_argv(struct entry *e, const json_t *o, const char *sub, char *command)
{
	struct buf p = BUF_INIT, out = BUF_INIT, err = BUF_INIT;
	const json_t *args, *v;
	char **argv;
	size_t i, n;

	args = json_object_get(o, "args");
	if (args != NULL && !json_is_array(args)) {
		buf_printf(&p, "%s/args", sub);
		ent_fail(e, buf_cstr(&p), "\"args\" must be an array of "
		    "strings, not %s", jsonx_typename(args));
		buf_free(&p);
		free(command);
		return NULL;
	}
	n = json_array_size(args);
	argv = xcalloc(n + 2, sizeof(*argv));
	argv[0] = command;
	json_array_foreach(args, i, v) {
		buf_reset(&p);
		buf_printf(&p, "%s/args/%zu", sub, i);
		buf_reset(&out);
		buf_reset(&err);
		if (!json_is_string(v))
			ent_fail(e, buf_cstr(&p), "args[%zu] must be a string, "
			    "not %s", i, jsonx_typename(v));
		else if (strlen(json_string_value(v)) != json_string_length(v))
			ent_fail(e, buf_cstr(&p), "args[%zu] holds a NUL "
			    "character", i);
		else if (mcp_expand(&out, json_string_value(v),
		    e->c->src.name, &err) != 0)
			ent_fail(e, buf_cstr(&p), "args[%zu]: %s", i,
			    buf_cstr(&err));
		else {
			argv[i + 1] = xstrdup(buf_cstr(&out));
			continue;
		}
		break;
	}
	buf_free(&p);
	buf_free(&out);
	buf_free(&err);
	if (i < n) {
		strv_free(argv);
		return NULL;
	}
	return argv;
}

/* Reads file path whole into b, quietly: 0, or -1 with errno. */
static int
slurp(const char *path, struct buf *b)
{
	char chunk[8192];
	size_t got;
	FILE *fp;
	int e;

	if ((fp = fopen(path, "r")) == NULL)
		return -1;
	while ((got = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		buf_add(b, chunk, got);
	e = ferror(fp) ? errno : 0;
	fclose(fp);
	errno = e;
	return e != 0 ? -1 : 0;
}

/*
 * The environment an entry declares: the variables of its "envFile",
 * then its "env" (of object o, at sub), which win. NULL when none, or
 * on a fault (e's).
 */
static char **
ent_env(struct entry *e, const json_t *o, const json_t *top, const char *sub)
{
	struct buf p = BUF_INIT, kq = BUF_INIT, out = BUF_INIT,
	    err = BUF_INIT, text = BUF_INIT;
	const json_t *env, *v;
	const char *key;
	char **vars = NULL, *path, kb[80];
	size_t nv = 0;
	unsigned long bad;

	if ((path = ent_string(e, top, "", "envFile")) != NULL) {
		if (slurp(path, &text) != 0)
			ent_fail(e, "/envFile", "envFile %s: %s", path,
			    strerror(errno));
		else if ((bad = mcp_dotenv(&vars, &nv, text.data, text.len)) > 0)
			ent_fail(e, "/envFile", "envFile %s:%lu: not NAME=VALUE",
			    path, bad);
		free(path);
		buf_free(&text);
	}
	if ((env = json_object_get(o, "env")) != NULL && e->why.len == 0) {
		buf_printf(&p, "%s/env", sub);
		if (!json_is_object(env))
			ent_fail(e, buf_cstr(&p), "\"env\" must be an object "
			    "of strings, not %s", jsonx_typename(env));
		json_object_foreach((json_t *)env, key, v) {
			if (e->why.len > 0)
				break;
			buf_reset(&kq);
			buf_adds(&kq, buf_cstr(&p));
			ptr_add(&kq, key);
			buf_reset(&out);
			buf_reset(&err);
			diag_quote(kb, sizeof(kb), key, strlen(key));
			if (*key == '\0' || strchr(key, '=') != NULL)
				ent_fail(e, buf_cstr(&kq), "env %s is not a "
				    "variable's name", kb);
			else if (!json_is_string(v))
				ent_fail(e, buf_cstr(&kq), "env %s must be a "
				    "string, not %s", kb, jsonx_typename(v));
			else if (strlen(json_string_value(v)) !=
			    json_string_length(v))
				ent_fail(e, buf_cstr(&kq), "env %s holds a NUL "
				    "character", kb);
			else if (mcp_expand(&out, json_string_value(v),
			    e->c->src.name, &err) != 0)
				ent_fail(e, buf_cstr(&kq), "env %s: %s", kb,
				    buf_cstr(&err));
			else
				mcp_env_add(&vars, &nv, key, strlen(key),
				    buf_cstr(&out));
		}
	}
	buf_free(&p);
	buf_free(&kq);
	buf_free(&out);
	buf_free(&err);
	if (e->why.len > 0) {
		strv_free(vars);
		return NULL;
	}
	mcp_env_dedupe(vars, &nv);
	return vars;
}

/* Whether c may be in a header's name (a token of RFC 9110). */
static int
token_char(unsigned char c)
{
	return c > 0x20 && c < 0x7f && strchr("\"(),/:;<=>?@[\\]{}", c) ==
	    NULL;
}

/* The "headers" of object o as "Name: value"s; NULL when none or bad. */
static char **
ent_headers(struct entry *e, const json_t *o)
{
	struct buf p = BUF_INIT, out = BUF_INIT, err = BUF_INIT;
	const json_t *h, *v;
	const char *key, *k;
	char **hv;
	size_t n = 0;

	if ((h = json_object_get(o, "headers")) == NULL)
		return NULL;
	if (!json_is_object(h)) {
		ent_fail(e, "/headers", "\"headers\" must be an object of "
		    "strings, not %s", jsonx_typename(h));
		return NULL;
	}
	hv = xcalloc(json_object_size(h) + 1, sizeof(*hv));
	json_object_foreach((json_t *)h, key, v) {
		buf_reset(&p);
		buf_adds(&p, "/headers");
		ptr_add(&p, key);
		buf_reset(&out);
		buf_reset(&err);
		for (k = key; token_char((unsigned char)*k); k++)
			continue;
		if (*k != '\0' || k == key) {
			diag_escape(&err, key, strlen(key), DIAG_ESC_JSON);
			ent_fail(e, buf_cstr(&p), "\"%s\" is not a header's "
			    "name", buf_cstr(&err));
		} else if (!json_is_string(v))
			ent_fail(e, buf_cstr(&p), "header \"%s\" must be a "
			    "string, not %s", key, jsonx_typename(v));
		else if (mcp_expand(&out, json_string_value(v), e->c->src.name,
		    &err) != 0)
			ent_fail(e, buf_cstr(&p), "header \"%s\": %s", key,
			    buf_cstr(&err));
		else if (strlen(json_string_value(v)) != json_string_length(v) ||
		    strpbrk(buf_cstr(&out), "\r\n") != NULL)
			ent_fail(e, buf_cstr(&p), "header \"%s\" holds a line "
			    "break or a NUL character", key);
		else {
			hv[n] = xmalloc(strlen(key) + out.len + 3);
			sprintf(hv[n++], "%s: %s", key, buf_cstr(&out));
			continue;
		}
		break;
	}
	buf_free(&p);
	buf_free(&out);
	buf_free(&err);
	if (n < json_object_size(h)) {
		strv_free(hv);
		return NULL;
	}
	return hv;
}

/* Whether url begins with http:// or https://, in any case. */
static int
web_url(const char *url)
{
	return strncasecmp(url, "http://", 7) == 0 ||
	    strncasecmp(url, "https://", 8) == 0;
}

/*
 * The address of a remote entry o: its "url", "serverUrl" (Windsurf) or
 * "httpUrl" (Gemini CLI), one of them; *key says which. NULL when it has
 * none (quietly) or a bad one (e's fault).
 */
static char *
ent_url(struct entry *e, const json_t *o, const char **key)
{
	static const char *const keys[] = { "url", "serverUrl", "httpUrl" };
	char *url = NULL, *u, at[16];
	size_t i;

	*key = NULL;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (json_object_get(o, keys[i]) == NULL)
			continue;
		if (*key != NULL) {
			ent_fail(e, "", "both \"%s\" and \"%s\" are given: give "
			    "one", *key, keys[i]);
			free(url);
			return NULL;
		}
		*key = keys[i];
		if ((u = ent_string(e, o, "", keys[i])) == NULL)
			return NULL;
		url = u;
	}
	if (url != NULL && (!web_url(url) || strpbrk(url, " \t\r\n") !=
	    NULL)) {
		snprintf(at, sizeof(at), "/%s", *key);
		ent_fail(e, at, "\"%s\" must be an http:// or https:// URL "
		    "without blanks", *key);
		free(url);
		return NULL;
	}
	return url;
}

/*
 * Gemini CLI's "timeout": the milliseconds a request to the server may
 * take, into s->timeout in seconds.
 */
static void
ent_timeout(struct entry *e, const json_t *o, struct mcp_server *s)
{
	const json_t *v;
	double ms;

	if ((v = json_object_get(o, "timeout")) == NULL)
		return;
	ms = json_number_value(v);
	if (!json_is_number(v) || ms <= 0 || ms > MAX_TIMEOUT_MS)
		ent_fail(e, "/timeout", "\"timeout\" must be a number of "
		    "milliseconds above 0, at most 86400000%s%s",
		    json_is_number(v) ? "" : ", not ",
		    json_is_number(v) ? "" : jsonx_typename(v));
	else
		s->timeout = ms / 1000;
}

/* How entry o is reached: "type", else the members it has. -1: a fault. */
static int
ent_transport(struct entry *e, const json_t *o)
{
	static const struct {
		const char	*name;
		int		 transport;
	} types[] = {
		{ "stdio", MCP_STDIO }, { "http", MCP_HTTP },
		{ "streamable-http", MCP_HTTP }, { "streamableHttp", MCP_HTTP },
		{ "sse", MCP_SSE }
	};
	const json_t *type;
	struct buf q = BUF_INIT;
	int has_cmd, has_url;
	size_t i;

	if ((type = json_object_get(o, "type")) != NULL) {
		if (!json_is_string(type)) {
			ent_fail(e, "/type", "\"type\" must be a string, not %s",
			    jsonx_typename(type));
			return -1;
		}
		for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
			if (strcmp(json_string_value(type), types[i].name) == 0)
				return types[i].transport;
		diag_escape(&q, json_string_value(type),
		    json_string_length(type), DIAG_ESC_JSON);
		ent_fail(e, "/type", "type \"%s\" is none of stdio, http, "
		    "streamable-http and sse", buf_cstr(&q));
		buf_free(&q);
		return -1;
	}
	has_cmd = json_object_get(o, "command") != NULL;
	has_url = json_object_get(o, "url") != NULL ||
	    json_object_get(o, "serverUrl") != NULL ||
	    json_object_get(o, "httpUrl") != NULL;
	if (has_cmd && has_url) {
		ent_fail(e, "", "both \"command\" and a URL are given: give "
		    "one, or \"type\"");
		return -1;
	}
	if (!has_cmd && !has_url) {
		if (json_is_string(json_object_get(o, "source")) &&
		    strcmp(json_string_value(json_object_get(o, "source")),
		    "extension") == 0)
			ent_fail(e, "", "a server of a Zed extension, which "
			    "mcp-run cannot start: give \"command\"");
		else
			ent_fail(e, "", "neither \"command\" nor \"url\" is "
			    "given");
		return -1;
	}
	if (has_cmd)
		return MCP_STDIO;
	/* Gemini CLI's "url" is the HTTP+SSE transport, its "httpUrl" HTTP */
	if (e->c->gemini && json_object_get(o, "url") != NULL)
		return MCP_SSE;
	return MCP_HTTP;
}

/* A stdio entry o: its command, arguments, environment and directory. */
static void
ent_stdio(struct entry *e, const json_t *o, struct mcp_server *s)
{
	const json_t *cmd, *in = o;
	const char *sub = "";
	char *command;

	/* Zed's older form: "command": {"path", "args", "env"} */
	if (json_is_object(cmd = json_object_get(o, "command"))) {
		in = cmd;
		sub = "/command";
		if (json_object_get(in, "path") == NULL) {
			ent_fail(e, "/command", "\"command\" must be a string, "
			    "or an object with a \"path\" string");
			return;
		}
		command = ent_string(e, in, sub, "path");
	} else if (cmd == NULL) {
		ent_fail(e, "", "a stdio server needs a \"command\" string");
		return;
	} else
		command = ent_string(e, o, "", "command");
	if (command == NULL)
		return;
	if (*command == '\0') {
		ent_fail(e, json_is_object(cmd) ? "/command/path" : "/command",
		    "\"%s\" is empty", json_is_object(cmd) ? "path" :
		    "command");
		free(command);
		return;
	}
	if ((s->argv = ent_argv(e, in, sub, command)) == NULL)
		return;
	s->env = ent_env(e, in, o, sub);
	s->cwd = ent_string(e, o, "", "cwd");
}

/* Whether entry o says it is off: "disabled": true, or Zed's "enabled". */
static int
ent_off(struct entry *e, const json_t *o)
{
	const json_t *v;

	if ((v = json_object_get(o, "disabled")) != NULL && !json_is_boolean(v))
		ent_fail(e, "/disabled", "\"disabled\" must be true or false, "
		    "not %s", jsonx_typename(v));
	else if (json_is_true(v))
		return 1;
	if ((v = json_object_get(o, "enabled")) != NULL && !json_is_boolean(v))
		ent_fail(e, "/enabled", "\"enabled\" must be true or false, "
		    "not %s", jsonx_typename(v));
	else if (json_is_false(v))
		return 1;
	return 0;
}

/*
 * One member of a server table: the server declared, usable or with the
 * reason it is not. A name declared before is a fault of the file.
 */
static void
conf_server(struct conf *c, const char *table, const char *name,
    const json_t *o)
{
	struct entry e;
	struct mcp_server *s;
	const char *key;
	char q[80];
	int t;

	memset(&e, 0, sizeof(e));
	e.c = c;
	e.name = name;
	buf_addc(&e.ptr, '/');
	buf_adds(&e.ptr, table);
	ptr_add(&e.ptr, name);
	if (mcp_find(c->m, name) != NULL) {
		conf_fail(c, buf_cstr(&e.ptr), "server %s is declared twice",
		    diag_quote(q, sizeof(q), name, strlen(name)));
		buf_free(&e.ptr);
		return;
	}
	s = add_server(c->m, name, c->src.name);
	if (*name == '\0')
		ent_fail(&e, "", "a server's name is empty");
	else if (!json_is_object(o))
		ent_fail(&e, "", "a server must be an object, not %s",
		    jsonx_typename(o));
	else if (ent_off(&e, o) && e.why.len == 0)
		s->disabled = 1;
	else if (e.why.len == 0 && (t = ent_transport(&e, o)) != -1) {
		s->transport = t;
		if (t == MCP_STDIO)
			ent_stdio(&e, o, s);
		else {
			s->url = ent_url(&e, o, &key);
			if (s->url == NULL && e.why.len == 0)
				ent_fail(&e, "", "a remote server needs a "
				    "\"url\"");
			s->headers = ent_headers(&e, o);
		}
		ent_timeout(&e, o, s);
	}
	if (e.why.len > 0) {
		/* nothing half read is left to be used */
		strv_free(s->argv);
		strv_free(s->env);
		strv_free(s->headers);
		free(s->url);
		free(s->cwd);
		s->argv = s->env = s->headers = NULL;
		s->url = s->cwd = NULL;
		s->unusable = xstrdup(buf_cstr(&e.why));
	}
	buf_free(&e.why);
	buf_free(&e.ptr);
}

/*
 * The server table servers, the member at pointer "/"table: each of its
 * servers declared. Returns 1, or 0 when there is none.
 */
static int
conf_table(struct conf *c, const char *table, const json_t *servers)
{
	struct buf p = BUF_INIT;
	const char *name;
	json_t *v;

	if (servers == NULL)
		return 0;
	if (!json_is_object(servers)) {
		buf_printf(&p, "/%s", table);
		conf_fail(c, buf_cstr(&p), "\"%s\" must be an object, not %s",
		    strchr(table, '/') != NULL ? "servers" : table,
		    jsonx_typename(servers));
		buf_free(&p);
		return 1;
	}
	json_object_foreach((json_t *)servers, name, v)
		conf_server(c, table, name, v);
	return 1;
}

/*
 * Declares the servers of the configuration text (len bytes) of file.
 * A fault of the file (not JSON, no server table, a name declared twice)
 * is reported at its place, and then none of its servers is declared:
 * -1. A fault of one entry is kept in its server (unusable): 0.
 */
int
mcp_config_load(struct mcp *m, const char *file, const char *text,
    size_t len)
{
	struct conf c;
	struct jsonx_error err;
	struct diag_loc loc;
	char *plain;
	json_t *doc;
	size_t end, had = m->n, i, found = 0;

	memset(&c, 0, sizeof(c));
	c.m = m;
	c.gemini = mcp_gemini_file(file);
	src_init(&c.src, file, text, len);
	plain = xmemdup(text, len);
	if ((end = mcp_jsonc_blank(plain, len)) < len) {
		src_loc(&c.src, end, &loc);
		loc.path = NULL;
		diag_at(DIAG_ERROR, &loc, "json-syntax", "invalid JSON: a "
		    "comment that is never closed");
		free(plain);
		return -1;
	}
	c.top = jsonx_skip_ws(plain, len, c.src.start);
	if ((doc = jsonx_parse(plain, len, c.top, &end, &err)) == NULL) {
		if (err.first != JSONX_NOPOS) {
			src_loc(&c.src, err.first, &loc);
			jsonx_dup_text(&err, loc.line, loc.col);
		}
		src_loc(&c.src, err.offset, &loc);
		loc.path = NULL;
		diag_at(DIAG_ERROR, &loc, err.rule, "%s", err.text);
		free(plain);
		return -1;
	}
	jsonx_locator_init(&c.loc, plain, len);
	if ((end = jsonx_skip_ws(plain, len, end)) < len) {
		src_loc(&c.src, end, &loc);
		loc.path = NULL;
		diag_at(DIAG_ERROR, &loc, "json-syntax", "invalid JSON: text "
		    "after the configuration");
		c.failed++;
	} else if (!json_is_object(doc))
		conf_fail(&c, "", "the configuration must be an object, not %s",
		    jsonx_typename(doc));
	else {
		for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
			found += conf_table(&c, tables[i],
			    json_object_get(doc, tables[i]));
		/* VS Code's settings.json: "mcp": {"servers": {...}} */
		found += conf_table(&c, "mcp/servers", json_object_get(
		    json_object_get(doc, "mcp"), "servers"));
		if (found == 0)
			conf_fail(&c, "", "the configuration has no "
			    "\"mcpServers\", \"servers\" or \"context_servers\" "
			    "object");
	}
	jsonx_locator_free(&c.loc);
	json_decref(doc);
	free(plain);
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
		argv[(*n)++] = xmemdup(w, (size_t)(p - w));
		argv[*n] = NULL;
	}
	return argv;
}

/*
 * --server NAME=COMMAND: COMMAND split at blanks into the command and its
 * arguments; or --server NAME=URL, a remote server at an http:// or
 * https:// URL. Returns 0, or -1 with the message in err (errlen bytes).
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
		snprintf(err, errlen, "--server wants NAME=COMMAND or NAME=URL, "
		    "not %s", diag_quote(q, sizeof(q), arg, strlen(arg)));
		goto fail;
	}
	if (utf8_valid(arg, (size_t)(eq - arg)) < (size_t)(eq - arg)) {
		snprintf(err, errlen, "--server: the name %s is not UTF-8",
		    diag_quote(q, sizeof(q), arg, (size_t)(eq - arg)));
		goto fail;
	}
	if (web_url(argv[0]) && n > 1) {
		snprintf(err, errlen, "--server: the URL %s holds a blank",
		    diag_quote(q, sizeof(q), eq + 1, strlen(eq + 1)));
		goto fail;
	}
	name = xmemdup(arg, (size_t)(eq - arg));
	if (mcp_find(m, name) != NULL) {
		snprintf(err, errlen, "server %s is declared twice",
		    diag_quote(q, sizeof(q), name, strlen(name)));
		free(name);
		goto fail;
	}
	s = add_server(m, name, NULL);
	free(name);
	if (web_url(argv[0])) {
		s->transport = MCP_HTTP;
		s->url = argv[0];
		free(argv);
	} else
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

/*
 * Sorts the servers by name, once they have all been declared, and puts
 * the disabled apart: no routing, listing or shutdown sees them.
 */
void
mcp_sort(struct mcp *m)
{
	size_t i, kept = 0, off = m->noff;

	if (m->n > 1)
		qsort(m->v, m->n, sizeof(*m->v), by_name);
	for (i = 0; i < m->n; i++)
		if (m->v[i].disabled)
			m->noff++;
	if (m->noff > off)
		m->off = xreallocarray(m->off, m->noff, sizeof(*m->off));
	for (i = 0; i < m->n; i++) {
		if (m->v[i].disabled)
			m->off[off++] = m->v[i];
		else
			m->v[kept++] = m->v[i];
	}
	m->n = kept;
	if (m->noff > 1)
		qsort(m->off, m->noff, sizeof(*m->off), by_name);
	index_servers(m);
}

/*
 * The file that declared server name disabled, or NULL when no server
 * of that name is disabled.
 */
const char *
mcp_disabled(struct mcp *m, const char *name)
{
	struct mcp_server key, *s;

	if ((s = mcp_find(m, name)) != NULL)
		return s->disabled ? s->file : NULL;
	if (m->noff == 0)
		return NULL;
	key.name = (char *)name;
	s = bsearch(&key, m->off, m->noff, sizeof(*m->off), by_name);
	return s != NULL ? s->file : NULL;
}

/*
 * Keeps the servers that the n names name, and clears the others; a name
 * given twice counts once. Returns NULL, or the first name that no server
 * has (or a disabled one has), and then every server is kept.
 */
const char *
mcp_keep(struct mcp *m, char *const names[], size_t n)
{
	struct mcp_server *s;
	unsigned char *named;
	size_t i, j, kept = 0;

	named = xcalloc(m->n + 1, 1);
	for (j = 0; j < n; j++) {
		if ((s = mcp_find(m, names[j])) == NULL || s->disabled) {
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
		if (len > 0 && utf8_plain(name, len) == len) {
			buf_add(out, name, len);
			buf_addc(out, '\n');
			continue;
		}
		if (len == 0)
			diag_warnx("a server whose name is empty is not listed");
		else
			diag_warnx("server %s is not listed: its name holds a "
			    "control character", diag_quote(q, sizeof(q), name,
			    len));
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
