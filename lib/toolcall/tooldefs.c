/*
 * tooldefs: tool definitions read from the forms agents hold, each input
 * schema compiled once. The definitions may come from MCP servers, which
 * are not trusted: a tool whose name is empty or holds a control
 * character, or whose schema refers outside itself and the directory of
 * the definition file, is left out with a warning that names its server,
 * rather than refusing the whole file or reading what it names. The
 * prompt made of them is in tooldefs_prompt.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/io.h"
#include "base/src.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "json/jsonx.h"
#include "schema/jsschema.h"
#include "toolcall/tooldefs.h"

/*
 * Where a tool stands in its file, for messages: a JSON Pointer, and the
 * text of the file, for the line and column of a warning.
 */
struct at {
	const char	*file;
	char		 ptr[48];
	char		*err;
	size_t		 errlen;
	const char	*dir;		/* the file's directory */
	int		 trouble;	/* the failure is PCRE2 not loaded */
	struct src	 src;
	struct jsonx_locator loc;
};

static int	 fail(struct at *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static void	 warn_at(struct at *, const char *, const char *,
		    const char *, ...)
		    __attribute__((format(printf, 4, 5)));

/* The message "FILE: POINTER: ..." (no pointer when it is ""); -1. */
static int
fail(struct at *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = at->ptr[0] != '\0' ?
	    snprintf(at->err, at->errlen, "%s: %s: ", at->file, at->ptr) :
	    snprintf(at->err, at->errlen, "%s: ", at->file);
	if (n < 0 || (size_t)n >= at->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(at->err + n, at->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * A warning "FILE:LINE:COL: warning: ..." at the value of member of the
 * tool (its whole when NULL).
 */
static void
warn_at(struct at *at, const char *member, const char *rule,
    const char *fmt, ...)
{
	struct diag_loc loc;
	struct buf ptr = BUF_INIT;
	va_list ap;

	buf_adds(&ptr, at->ptr);
	if (member != NULL) {
		buf_addc(&ptr, '/');
		buf_adds(&ptr, member);
	}
	src_loc(&at->src, jsonx_locate(&at->loc, jsonx_skip_ws(at->src.s,
	    at->src.n, at->src.start), buf_cstr(&ptr)), &loc);
	loc.path = ptr.data;
	va_start(ap, fmt);
	diag_vat(DIAG_WARNING, &loc, rule, fmt, ap);
	va_end(ap);
	buf_free(&ptr);
}

/*
 * The text of the file at->file into text, and its JSON, or NULL with the
 * message said. The user names the file: it is read whatever it is (a
 * pipe too), as the operands are.
 */
static json_t *
read_json(struct at *at, struct buf *text)
{
	json_error_t je;
	json_t *doc;
	FILE *fp;
	int e = 0;

	if ((fp = fopen(at->file, "r")) == NULL) {
		fail(at, "%s", strerror(errno));
		return NULL;
	}
	if (io_slurp(fp, text) != 0)
		e = errno != 0 ? errno : EIO;
	fclose(fp);
	if (e != 0) {
		fail(at, "%s", strerror(e));
		return NULL;
	}
	/* a NUL in a name is the tool's fault, not the file's */
	doc = jsonx_load(text->data != NULL ? text->data : "", text->len,
	    JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &je);
	if (doc == NULL)
		snprintf(at->err, at->errlen, "%s:%d:%d: the tool definitions "
		    "are not JSON: %s", at->file, je.line,
		    je.column > 0 ? je.column : 1, je.text);
	return doc;
}

/* The server that listed tool t (in the element el), or NULL. */
static const json_t *
server_of(const json_t *t, const json_t *el)
{
	const json_t *s;

	s = json_object_get(json_object_get(t, "_meta"), "llmkit/server");
	if (!json_is_string(s))
		s = json_object_get(json_object_get(el, "_meta"),
		    "llmkit/server");
	return json_is_string(s) ? s : NULL;
}

/* "tool NAME" and " of server SERVER" when the MCP tool t says one. */
static void
tool_said(char *out, size_t size, const char *q, const json_t *t,
    const json_t *el)
{
	const json_t *s;
	char sq[80];

	if ((s = server_of(t, el)) != NULL) {
		diag_quote(sq, sizeof(sq), json_string_value(s),
		    json_string_length(s));
		snprintf(out, size, "tool %s of server %s", q, sq);
	} else
		snprintf(out, size, "tool %s", q);
}

/*
 * Adds one tool, the object t (in the element el) whose input schema is
 * schema, member of t, (or NULL): 0, or -1 with the message said. A tool
 * left out, with a warning, is 0.
 */
static int
add(struct tooldefs *defs, struct at *at, const json_t *t, const json_t *el,
    json_t *schema, const char *member, const char *uri)
{
	struct jsschema_opts opts;
	struct tooldef d;
	const struct tooldef *first;
	const json_t *v, *srv;
	const char *name;
	char q[80], who[200], msg[400];
	size_t len;

	name = json_string_value(v = json_object_get(t, "name"));
	if (name == NULL)
		return fail(at, "a tool must have a \"name\" string");
	len = json_string_length(v);
	diag_quote(q, sizeof(q), name, len);
	tool_said(who, sizeof(who), q, t, el);
	if (len == 0 || utf8_plain(name, len) != len) {
		warn_at(at, "name", "tool-name", "%s is left out: its name %s",
		    who, len == 0 ? "is empty" :
		    "holds a control character");
		return 0;
	}
	srv = server_of(t, el);
	if ((first = tooldefs_find(defs, name, len)) != NULL) {
		if (srv == NULL)
			return fail(at, "tool %s is defined twice, first in %s",
			    q, first->file);
		warn_at(at, "name", "tool-name", "%s is left out: a tool of "
		    "that name is defined before it, in %s%s%s", who,
		    first->file, first->server != NULL ? " by server " : "",
		    first->server != NULL ? first->server : "");
		return 0;
	}
	if (schema != NULL && !json_is_object(schema) &&
	    !json_is_boolean(schema)) {
		if (srv == NULL)
			return fail(at, "tool %s: the input schema must be an "
			    "object or a boolean, not %s", q,
			    jsonx_typename(schema));
		warn_at(at, member, "tool-schema", "%s is left out: its input "
		    "schema must be an object or a boolean, not %s", who,
		    jsonx_typename(schema));
		return 0;
	}
	memset(&d, 0, sizeof(d));
	if (schema != NULL) {
		memset(&opts, 0, sizeof(opts));
		opts.draft = JSSCHEMA_DRAFT2020;
		d.js = jsschema_compile_below(schema, uri, at->dir, &opts, msg,
		    sizeof(msg));
		/* trouble of ours, not the tool's: never a tool left out */
		if (d.js == NULL && errno == ELIBACC) {
			at->trouble = 1;
			return fail(at, "tool %s: the input schema does not "
			    "compile: %s", q, msg);
		}
		if (d.js == NULL && errno == EACCES) {
			warn_at(at, member, "tool-schema-ref", "%s is left "
			    "out: a reference of its input schema is refused: "
			    "%s", who, msg);
			return 0;
		}
		if (d.js == NULL && srv == NULL)
			return fail(at, "tool %s: the input schema does not "
			    "compile: %s", q, msg);
		if (d.js == NULL) {
			warn_at(at, member, "tool-schema", "%s is left out: "
			    "its input schema does not compile: %s", who, msg);
			return 0;
		}
		d.schema = json_incref(schema);
	}
	d.name = xstrdup(name);
	if (srv != NULL) {
		diag_quote(q, sizeof(q), json_string_value(srv),
		    json_string_length(srv));
		d.server = xstrdup(q);
	}
	if (defs->index == NULL)
		defs->index = json_object();
	json_object_setn_new_nocheck(defs->index, name, len,
	    json_integer((json_int_t)defs->n));
	v = json_object_get(t, "description");
	if (json_is_string(v))
		d.description = xstrdup(json_string_value(v));
	d.file = at->file;
	if (defs->n == defs->cap) {
		defs->cap = defs->cap < 16 ? 16 : defs->cap * 2;
		defs->v = xreallocarray(defs->v, defs->cap, sizeof(*defs->v));
	}
	defs->v[defs->n++] = d;
	return 0;
}

/*
 * One element of an array of tools, in any of the four forms, told by
 * its members: "function" (Chat Completions), "type" alone (Responses),
 * "input_schema" (Anthropic), "inputSchema" or neither (MCP).
 */
static int
add_element(struct tooldefs *defs, struct at *at, const json_t *t,
    const char *uri)
{
	const json_t *type, *fn;
	char q[80];
	size_t n;

	if (!json_is_object(t))
		return fail(at, "a tool must be an object, not %s",
		    jsonx_typename(t));
	type = json_object_get(t, "type");
	if (type != NULL && !(json_is_string(type) &&
	    (strcmp(json_string_value(type), "function") == 0 ||
	    strcmp(json_string_value(type), "custom") == 0))) {
		if (!json_is_string(type))
			return fail(at, "\"type\" must be a string, not %s",
			    jsonx_typename(type));
		diag_quote(q, sizeof(q), json_string_value(type),
		    json_string_length(type));
		return fail(at, "a tool of type %s is not a function and "
		    "cannot be called in XML", q);
	}
	if ((fn = json_object_get(t, "function")) != NULL) {
		if (!json_is_object(fn))
			return fail(at, "\"function\" must be an object, not "
			    "%s", jsonx_typename(fn));
		n = strlen(at->ptr);
		snprintf(at->ptr + n, sizeof(at->ptr) - n, "/function");
		return add(defs, at, fn, t, json_object_get(fn, "parameters"),
		    "parameters", uri);
	}
	if (type != NULL && json_object_get(t, "parameters") != NULL)
		return add(defs, at, t, t, json_object_get(t, "parameters"),
		    "parameters", uri);
	if (json_object_get(t, "input_schema") != NULL)
		return add(defs, at, t, t, json_object_get(t, "input_schema"),
		    "input_schema", uri);
	return add(defs, at, t, t, json_object_get(t, "inputSchema"),
	    "inputSchema", uri);
}

/* The directory of path, where its references may lead: a new string. */
static char *
dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *d;

	if (slash == NULL)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	d = xmalloc((size_t)(slash - path) + 1);
	memcpy(d, path, (size_t)(slash - path));
	d[slash - path] = '\0';
	return d;
}

/*
 * The tools of doc (the JSON of text, which at->file names), their
 * schemas' references resolved against uri and read below at->dir.
 */
static int
load_doc(struct tooldefs *defs, struct at *at, json_t *doc,
    struct buf *text, const char *uri)
{
	json_t *tools, *result;
	const char *prefix = "";
	size_t i;
	int rc = -1;

	src_init(&at->src, at->file, buf_cstr(text), text->len);
	jsonx_locator_init(&at->loc, text->data, text->len);
	tools = doc;
	if (json_is_object(doc)) {
		result = json_object_get(doc, "result");
		if (json_is_object(result) && json_object_get(doc, "tools") ==
		    NULL) {
			tools = json_object_get(result, "tools");
			prefix = "/result/tools";
		} else {
			tools = json_object_get(doc, "tools");
			prefix = "/tools";
		}
	}
	if (!json_is_array(tools)) {
		fail(at, "not tool definitions: expected an MCP tools/list "
		    "result ({\"tools\":[...]}) or the JSON-RPC response that "
		    "holds it, or an array of MCP, OpenAI Chat Completions, "
		    "OpenAI Responses or Anthropic tools");
		goto out;
	}
	for (i = 0; i < json_array_size(tools); i++) {
		snprintf(at->ptr, sizeof(at->ptr), "%s/%zu", prefix, i);
		if (add_element(defs, at, json_array_get(tools, i), uri) != 0)
			goto out;
	}
	rc = 0;
out:
	jsonx_locator_free(&at->loc);
	return rc;
}

int
tooldefs_load(struct tooldefs *defs, const char *path, char *err,
    size_t errlen)
{
	struct at at;
	struct buf text = BUF_INIT;
	json_t *doc;
	char *uri = NULL, *dir;
	int rc = -1;

	memset(&at, 0, sizeof(at));
	at.file = path;
	at.err = err;
	at.errlen = errlen;
	if ((doc = read_json(&at, &text)) == NULL) {
		buf_free(&text);
		return -1;
	}
	at.dir = dir = dir_of(path);
	if ((uri = jsschema_file_uri(path)) == NULL)
		fail(&at, "%s", strerror(errno));
	else
		rc = load_doc(defs, &at, doc, &text, uri);
	if (at.trouble)
		rc = TOOLDEFS_TROUBLE;
	free(uri);
	free(dir);
	json_decref(doc);
	buf_free(&text);
	return rc;
}

/*
 * Tools held in memory (len bytes of text, which name names in
 * messages): as tooldefs_load, but no schema may refer to any file.
 */
int
tooldefs_load_text(struct tooldefs *defs, const char *name, const char *s,
    size_t len, char *err, size_t errlen)
{
	struct at at;
	struct buf text = BUF_INIT;
	json_error_t je;
	json_t *doc;
	int rc;

	memset(&at, 0, sizeof(at));
	at.file = name;
	at.err = err;
	at.errlen = errlen;
	/* nothing is below a file: no reference reads one */
	at.dir = "/dev/null";
	buf_add(&text, s, len);
	doc = jsonx_load(len > 0 ? s : "", len, JSON_DECODE_ANY |
	    JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &je);
	if (doc == NULL) {
		snprintf(err, errlen, "%s:%d:%d: the tool definitions are not "
		    "JSON: %s", name, je.line, je.column > 0 ? je.column : 1,
		    je.text);
		buf_free(&text);
		return -1;
	}
	rc = load_doc(defs, &at, doc, &text, "file:///dev/null/tools.json");
	if (at.trouble)
		rc = TOOLDEFS_TROUBLE;
	json_decref(doc);
	buf_free(&text);
	return rc;
}

const struct tooldef *
tooldefs_find(const struct tooldefs *defs, const char *name, size_t len)
{
	const json_t *i;

	/* a name with a NUL is no tool's: each is plain text */
	if (defs->index == NULL || memchr(name, '\0', len) != NULL ||
	    (i = json_object_getn(defs->index, name, len)) == NULL)
		return NULL;
	return &defs->v[json_integer_value(i)];
}

void
tooldefs_names(const struct tooldefs *defs, struct buf *b)
{
	size_t i;

	for (i = 0; i < defs->n; i++) {
		if (i > 0)
			buf_adds(b, ", ");
		buf_adds(b, defs->v[i].name);
	}
}

void
tooldefs_free(struct tooldefs *defs)
{
	size_t i;

	for (i = 0; i < defs->n; i++) {
		free(defs->v[i].name);
		free(defs->v[i].server);
		free(defs->v[i].description);
		json_decref(defs->v[i].schema);
		jsschema_free(defs->v[i].js);
	}
	free(defs->v);
	json_decref(defs->index);
	defs->v = NULL;
	defs->n = defs->cap = 0;
	defs->index = NULL;
}
