/*
 * mcp_ask: what a server may ask of its client, answered. ping;
 * roots/list, with the --root directories; elicitation/create in form
 * mode, asked of the person at the terminal field by field, or accepted
 * with the schema's defaults, or declined (--elicit); sampling/create-
 * Message, by running the --sampling command with the messages as its
 * prompt on its standard input, as llm-retry runs a model. The client
 * declares only the capabilities these back (mcp_client_caps).
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/jsonw.h"
#include "base/proc.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "mcp/mcp.h"
#include "mcp/mcp_int.h"

#define TRIES		5		/* answers to one field before cancel */
#define SAMPLE_MAX	((size_t)16 << 20)	/* a sampling answer's bytes */

const struct cmd_choice mcp_elicits[] = {
	{ "ask", MCP_ELICIT_ASK },
	{ "defaults", MCP_ELICIT_DEFAULTS },
	{ "decline", MCP_ELICIT_DECLINE },
	{ NULL, 0 }
};

/* Whether there is a terminal to ask a person on. */
static int
have_tty(void)
{
	int fd;

	if ((fd = open("/dev/tty", O_RDWR | O_CLOEXEC)) == -1)
		return 0;
	close(fd);
	return 1;
}

/*
 * The client's capabilities, a new object: those that are backed.
 * Elicitation is declared when it can be answered: with the defaults,
 * or asked of a person at a terminal that there is.
 */
json_t *
mcp_client_caps(const struct mcp *m)
{
	json_t *caps = json_object();

	if (m->nroots > 0)
		json_object_set_new(caps, "roots", json_pack("{s:b}",
		    "listChanged", 0));
	if (m->elicit == MCP_ELICIT_DEFAULTS ||
	    (m->elicit == MCP_ELICIT_ASK && have_tty()))
		json_object_set_new(caps, "elicitation", json_pack("{s:{}}",
		    "form"));
	if (m->sampling != NULL)
		json_object_set_new(caps, "sampling", json_object());
	return caps;
}

/*
 * --root DIR: its absolute path, kept for roots/list as a file: URI.
 * 0, or -1 with err filled (DIR cannot be resolved).
 */
int
mcp_root_arg(struct mcp *m, const char *dir, char *err, size_t errlen)
{
	char *abs;
	char q[80];

	if ((abs = realpath(dir, NULL)) == NULL) {
		snprintf(err, errlen, "--root %s: %s", diag_quote(q, sizeof(q),
		    dir, strlen(dir)), strerror(errno));
		return -1;
	}
	m->roots = xreallocarray(m->roots, m->nroots + 1, sizeof(*m->roots));
	m->roots[m->nroots++] = abs;
	return 0;
}

/* --sampling CMD: its words (no shell). 0, or -1 with err filled. */
int
mcp_sampling_arg(struct mcp *m, const char *cmd, char *err, size_t errlen)
{
	char **argv;
	size_t n, i;

	if ((argv = mcp_words(cmd, &n)) == NULL) {
		snprintf(err, errlen, "--sampling wants a command");
		return -1;
	}
	for (i = 0; m->sampling != NULL && m->sampling[i] != NULL; i++)
		free(m->sampling[i]);
	free(m->sampling);
	m->sampling = argv;
	return 0;
}

/* A path as a file: URI, its bytes outside the unreserved set escaped. */
static void
file_uri(struct buf *b, const char *path)
{
	const unsigned char *p;

	buf_adds(b, "file://");
	for (p = (const unsigned char *)path; *p != '\0'; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/-._~", *p) != NULL)
			buf_addc(b, (char)*p);
		else
			buf_printf(b, "%%%02X", *p);
}

static void
add_root(json_t *list, const char *path)
{
	struct buf b = BUF_INIT;
	const char *base;

	file_uri(&b, path);
	base = strrchr(path, '/');
	base = base != NULL && base[1] != '\0' ? base + 1 : path;
	json_array_append_new(list, json_pack("{s:s,s:s}", "uri",
	    buf_cstr(&b), "name", base));
	buf_free(&b);
}

/*
 * The roots: the --root directories, or, for a server that asks without
 * the capability declared, the current directory.
 */
static json_t *
roots(const struct mcp *m)
{
	json_t *list = json_array();
	char *cwd;
	size_t i;

	for (i = 0; i < m->nroots; i++)
		add_root(list, m->roots[i]);
	if (m->nroots == 0 && (cwd = getcwd(NULL, 0)) != NULL) {
		add_root(list, cwd);
		free(cwd);
	}
	return json_pack("{s:o}", "roots", list);
}

/* The terminal, for the questions of elicitation. */
struct tty {
	FILE		*in;
	FILE		*out;
};

/* Writes server text to the terminal, its control characters escaped. */
static void
tty_text(struct tty *t, const char *s, size_t len)
{
	struct buf b = BUF_INIT;

	diag_escape(&b, s, len, 0);
	fwrite(b.data, 1, b.len, t->out);
	buf_free(&b);
}

static void
tty_json_text(struct tty *t, const json_t *v)
{
	if (json_is_string(v))
		tty_text(t, json_string_value(v), json_string_length(v));
}

/* A line from the terminal, without its newline; -1 at its end. */
static int
tty_line(struct tty *t, struct buf *line)
{
	int c;

	fflush(t->out);
	buf_reset(line);
	while ((c = getc(t->in)) != EOF && c != '\n')
		if (line->len < 4096)
			buf_addc(line, (char)c);
	if (c == EOF && line->len == 0)
		return -1;
	while (line->len > 0 && (line->data[line->len - 1] == '\r' ||
	    line->data[line->len - 1] == ' '))
		line->len--;
	buf_cstr(line);
	return 0;
}

/* The choices of an enum field: enum, or oneOf/anyOf of const + title. */
static const json_t *
choices(const json_t *f, int *titled)
{
	const json_t *e;

	*titled = 0;
	if (json_is_array(e = json_object_get(f, "enum")))
		return e;
	if (json_is_array(e = json_object_get(f, "oneOf")) ||
	    json_is_array(e = json_object_get(f, "anyOf"))) {
		*titled = 1;
		return e;
	}
	return NULL;
}

/* The value of choice c of a list (const of a titled one). */
static const json_t *
choice_value(const json_t *c, int titled)
{
	return titled ? json_object_get(c, "const") : c;
}

/*
 * Reads one choice from text: its number in the list, or its value, or
 * (titled) its title. NULL when none matches.
 */
static const json_t *
pick(const json_t *list, int titled, const char *text)
{
	const json_t *c, *v, *title;
	char *end;
	long n;
	size_t i;

	n = strtol(text, &end, 10);
	if (*text != '\0' && *end == '\0' && n >= 1 &&
	    (size_t)n <= json_array_size(list))
		return choice_value(json_array_get(list, (size_t)n - 1), titled);
	json_array_foreach(list, i, c) {
		v = choice_value(c, titled);
		title = titled ? json_object_get(c, "title") : NULL;
		if ((json_is_string(v) && strcmp(json_string_value(v), text) ==
		    0) || (json_is_string(title) &&
		    strcasecmp(json_string_value(title), text) == 0))
			return v;
	}
	return NULL;
}

/*
 * Shows a field's choices: " 1) Superman 2) ...", by their titles, or
 * the enumNames of the older form, or their values.
 */
static void
show_choices(struct tty *t, const json_t *f, const json_t *list, int titled)
{
	const json_t *c, *label, *names = json_object_get(f, "enumNames");
	size_t i;

	json_array_foreach(list, i, c) {
		label = titled ? json_object_get(c, "title") :
		    json_is_string(json_array_get(names, i)) ?
		    json_array_get(names, i) : c;
		if (!json_is_string(label))
			label = choice_value(c, titled);
		fprintf(t->out, " %zu) ", i + 1);
		if (json_is_string(label))
			tty_json_text(t, label);
	}
}

/*
 * What text says for field f of type type, in *v (a new reference): 0,
 * or -1 with the reason in why.
 */
static int
read_value(const json_t *f, const char *type, const char *text, json_t **v,
    struct buf *why)
{
	const json_t *list, *items, *c, *min, *max;
	char *end, *copy, *tok, *save;
	double d;
	long long ll = 0;
	size_t len = strlen(text);
	int titled;

	*v = NULL;
	if (strcmp(type, "boolean") == 0) {
		if (strcasecmp(text, "y") == 0 || strcasecmp(text, "yes") == 0 ||
		    strcasecmp(text, "true") == 0)
			*v = json_true();
		else if (strcasecmp(text, "n") == 0 ||
		    strcasecmp(text, "no") == 0 ||
		    strcasecmp(text, "false") == 0)
			*v = json_false();
		else
			buf_adds(why, "answer yes or no");
	} else if (strcmp(type, "integer") == 0 ||
	    strcmp(type, "number") == 0) {
		errno = 0;
		if (strcmp(type, "integer") == 0) {
			ll = strtoll(text, &end, 10);
			d = (double)ll;
		} else
			d = strtod(text, &end);
		min = json_object_get(f, "minimum");
		max = json_object_get(f, "maximum");
		if (*text == '\0' || *end != '\0' || errno != 0 || !isfinite(d))
			buf_printf(why, "answer %s", strcmp(type, "integer") ==
			    0 ? "a whole number" : "a number");
		else if (json_is_number(min) && d < json_number_value(min))
			buf_printf(why, "answer %g or more",
			    json_number_value(min));
		else if (json_is_number(max) && d > json_number_value(max))
			buf_printf(why, "answer %g or less",
			    json_number_value(max));
		else
			*v = strcmp(type, "integer") == 0 ? json_integer(ll) :
			    json_real(d);
	} else if (strcmp(type, "array") == 0) {
		items = json_object_get(f, "items");
		if ((list = choices(items, &titled)) == NULL) {
			buf_adds(why, "this list has no choices to pick from");
			return -1;
		}
		*v = json_array();
		copy = xstrdup(text);
		for (tok = strtok_r(copy, ",", &save); tok != NULL;
		    tok = strtok_r(NULL, ",", &save)) {
			while (*tok == ' ')
				tok++;
			if ((c = pick(list, titled, tok)) == NULL) {
				buf_printf(why, "%s is not one of the choices",
				    tok);
				break;
			}
			json_array_append(*v, (json_t *)c);
		}
		free(copy);
		min = json_object_get(f, "minItems");
		max = json_object_get(f, "maxItems");
		if (why->len == 0 && json_is_number(min) &&
		    (double)json_array_size(*v) < json_number_value(min))
			buf_printf(why, "pick at least %g",
			    json_number_value(min));
		else if (why->len == 0 && json_is_number(max) &&
		    (double)json_array_size(*v) > json_number_value(max))
			buf_printf(why, "pick at most %g",
			    json_number_value(max));
		if (why->len > 0) {
			json_decref(*v);
			*v = NULL;
		}
	} else if ((list = choices(f, &titled)) != NULL) {
		if ((c = pick(list, titled, text)) == NULL)
			buf_adds(why, "pick one of the choices, by its number");
		else
			*v = json_incref((json_t *)c);
	} else {
		min = json_object_get(f, "minLength");
		max = json_object_get(f, "maxLength");
		if (json_is_number(min) && (double)utf8_count(text, len) <
		    json_number_value(min))
			buf_printf(why, "answer at least %g characters",
			    json_number_value(min));
		else if (json_is_number(max) && (double)utf8_count(text, len) >
		    json_number_value(max))
			buf_printf(why, "answer at most %g characters",
			    json_number_value(max));
		else
			*v = json_string(text);
		if (*v == NULL && why->len == 0)
			buf_adds(why, "answer in UTF-8");
	}
	return *v != NULL ? 0 : -1;
}

static int
required(const json_t *schema, const char *name)
{
	const json_t *r;
	size_t i;

	json_array_foreach(json_object_get(schema, "required"), i, r)
		if (json_is_string(r) && strcmp(json_string_value(r), name) ==
		    0)
			return 1;
	return 0;
}

/*
 * Asks the person at terminal t for the fields of schema: the content
 * of an "accept", or NULL with *action "decline" or "cancel".
 */
static json_t *
ask_fields(struct tty *t, const char *server, const json_t *params,
    const char **action)
{
	const json_t *schema, *props, *f, *type, *def, *list;
	struct buf line = BUF_INIT, why = BUF_INIT;
	json_t *content, *v;
	const char *name, *ty;
	int titled, tries;

	schema = json_object_get(params, "requestedSchema");
	props = json_object_get(schema, "properties");
	content = json_object();
	*action = "cancel";
	tty_text(t, server, strlen(server));
	fputs(" asks: ", t->out);
	tty_json_text(t, json_object_get(params, "message"));
	fputs("\n(an empty answer takes the default; end of input cancels)\n",
	    t->out);
	json_object_foreach((json_t *)props, name, f) {
		type = json_object_get(f, "type");
		ty = json_is_string(type) ? json_string_value(type) : "string";
		def = json_object_get(f, "default");
		for (tries = 0; tries < TRIES; tries++) {
			fputs("  ", t->out);
			if (json_is_string(json_object_get(f, "title")))
				tty_json_text(t, json_object_get(f, "title"));
			else
				tty_text(t, name, strlen(name));
			fprintf(t->out, " (%s", strcmp(ty, "boolean") == 0 ?
			    "yes/no" : ty);
			if (json_is_number(json_object_get(f, "minimum")) &&
			    json_is_number(json_object_get(f, "maximum")))
				fprintf(t->out, ", %g to %g", json_number_value(
				    json_object_get(f, "minimum")),
				    json_number_value(json_object_get(f,
				    "maximum")));
			fputs(required(schema, name) ? ", required)" : ")",
			    t->out);
			if (json_is_string(json_object_get(f,
			    "description"))) {
				fputs(" - ", t->out);
				tty_json_text(t, json_object_get(f,
				    "description"));
			}
			if ((list = choices(strcmp(ty, "array") == 0 ?
			    json_object_get(f, "items") : f, &titled)) != NULL)
				show_choices(t, f, list, titled);
			if (def != NULL) {
				fputs(" [", t->out);
				if (json_is_string(def))
					tty_json_text(t, def);
				else {
					buf_reset(&why);
					jsonw_stringify(&why, def);
					tty_text(t, why.data, why.len);
				}
				fputs("]", t->out);
			}
			fputs(": ", t->out);
			if (tty_line(t, &line) == -1)
				goto cancel;
			if (line.len == 0 && def != NULL) {
				json_object_set(content, name, (json_t *)def);
				break;
			}
			if (line.len == 0 && !required(schema, name))
				break;
			buf_reset(&why);
			if (line.len == 0)
				buf_adds(&why, "an answer is required");
			else if (read_value(f, ty, buf_cstr(&line), &v,
			    &why) == 0) {
				json_object_set_new(content, name, v);
				break;
			}
			fputs("  ", t->out);
			tty_text(t, why.data, why.len);
			fputs("\n", t->out);
		}
		if (tries == TRIES)
			goto cancel;
	}
	fputs("Send? [Y]es, [n]o (decline), [c]ancel: ", t->out);
	if (tty_line(t, &line) == -1)
		goto cancel;
	if (line.len == 0 || strcasecmp(buf_cstr(&line), "y") == 0 ||
	    strcasecmp(buf_cstr(&line), "yes") == 0) {
		*action = "accept";
		goto out;
	}
	if (strcasecmp(buf_cstr(&line), "n") == 0 ||
	    strcasecmp(buf_cstr(&line), "no") == 0)
		*action = "decline";
cancel:
	json_decref(content);
	content = NULL;
out:
	fputs("\n", t->out);
	fflush(t->out);
	buf_free(&line);
	buf_free(&why);
	return content;
}

/*
 * The schema's defaults, for --elicit defaults: accepted when every
 * required field has one, else NULL (declined: nobody can fill it).
 */
static json_t *
defaults(const json_t *params, const char **missing)
{
	const json_t *schema, *props, *f, *def;
	const char *name;
	json_t *content = json_object();

	schema = json_object_get(params, "requestedSchema");
	props = json_object_get(schema, "properties");
	*missing = NULL;
	json_object_foreach((json_t *)props, name, f) {
		if ((def = json_object_get(f, "default")) != NULL)
			json_object_set(content, name, (json_t *)def);
		else if (required(schema, name) && *missing == NULL)
			*missing = name;
	}
	if (*missing != NULL) {
		json_decref(content);
		return NULL;
	}
	return content;
}

static json_t *
elicit(struct mcp *m, struct mcp_server *s, const json_t *params,
    json_t **error)
{
	const json_t *mode = json_object_get(params, "mode");
	const char *action = "decline", *missing;
	struct tty t;
	json_t *content = NULL, *out;
	int fd;

	if (mode != NULL && (!json_is_string(mode) ||
	    strcmp(json_string_value(mode), "form") != 0)) {
		*error = json_pack("{s:i,s:s}", "code", -32602, "message",
		    "mcp-run answers elicitation in form mode only");
		return NULL;
	}
	if (!json_is_object(json_object_get(json_object_get(params,
	    "requestedSchema"), "properties"))) {
		*error = json_pack("{s:i,s:s}", "code", -32602, "message",
		    "requestedSchema has no \"properties\" object");
		return NULL;
	}
	switch (m->elicit) {
	case MCP_ELICIT_DEFAULTS:
		if ((content = defaults(params, &missing)) != NULL)
			action = "accept";
		else
			diag_warnx("%s: elicitation declined: the required "
			    "field \"%s\" has no default", s->name, missing);
		break;
	case MCP_ELICIT_ASK:
		if ((fd = open("/dev/tty", O_RDWR | O_CLOEXEC)) == -1 ||
		    (t.in = fdopen(fd, "r")) == NULL) {
			if (fd != -1)
				close(fd);
			diag_warnx("%s: elicitation declined: no terminal to "
			    "ask on (--elicit defaults accepts the defaults)",
			    s->name);
			break;
		}
		if ((fd = open("/dev/tty", O_WRONLY | O_CLOEXEC)) == -1 ||
		    (t.out = fdopen(fd, "w")) == NULL) {
			if (fd != -1)
				close(fd);
			fclose(t.in);
			break;
		}
		content = ask_fields(&t, s->name, params, &action);
		fclose(t.in);
		fclose(t.out);
		break;
	default:
		break;
	}
	out = json_pack("{s:s}", "action", action);
	if (content != NULL)
		json_object_set_new(out, "content", content);
	return out;
}

/* The prompt of a sampling request: its system prompt and messages. */
static void
sample_prompt(struct buf *b, const json_t *params)
{
	const json_t *msgs, *msg, *c, *text, *sys;
	size_t i, n;

	sys = json_object_get(params, "systemPrompt");
	if (json_is_string(sys)) {
		buf_add(b, json_string_value(sys), json_string_length(sys));
		buf_adds(b, "\n\n");
	}
	msgs = json_object_get(params, "messages");
	n = json_array_size(msgs);
	json_array_foreach(msgs, i, msg) {
		c = json_object_get(msg, "content");
		text = json_object_get(c, "text");
		if (n > 1 && json_is_string(json_object_get(msg, "role")))
			buf_printf(b, "%s: ", json_string_value(
			    json_object_get(msg, "role")));
		if (json_is_string(text))
			buf_add(b, json_string_value(text),
			    json_string_length(text));
		else
			buf_adds(b, "(content that is not text)");
		buf_adds(b, i + 1 < n ? "\n\n" : "\n");
	}
}

static json_t *
sample(struct mcp *m, struct mcp_server *s, const json_t *params,
    json_t **error)
{
	struct buf prompt = BUF_INIT, out = BUF_INIT, why = BUF_INIT;
	struct proc_result res;
	json_t *result = NULL;
	int rc;

	if (!json_is_array(json_object_get(params, "messages"))) {
		*error = json_pack("{s:i,s:s}", "code", -32602, "message",
		    "sampling/createMessage without a \"messages\" array");
		return NULL;
	}
	sample_prompt(&prompt, params);
	rc = proc_run(m->sampling, prompt.data, prompt.len, &out, SAMPLE_MAX,
	    m->timeout, &res);
	if (rc == PROC_NOEXEC || rc == PROC_ERROR)
		buf_printf(&why, "--sampling: cannot run %s: %s",
		    m->sampling[0], strerror(errno));
	else if (rc == PROC_CAUGHT)
		buf_adds(&why, "interrupted");
	else if (res.timed_out)
		buf_printf(&why, "--sampling: %s gave no answer within %g s",
		    m->sampling[0], m->timeout);
	else if (res.too_long)
		buf_printf(&why, "--sampling: %s wrote more than %zu bytes",
		    m->sampling[0], SAMPLE_MAX);
	else if (res.signo != 0)
		buf_printf(&why, "--sampling: %s was killed by signal %d",
		    m->sampling[0], res.signo);
	else if (res.status != 0)
		buf_printf(&why, "--sampling: %s exited with status %d",
		    m->sampling[0], res.status);
	else if (out.len == 0)
		buf_printf(&why, "--sampling: %s wrote nothing",
		    m->sampling[0]);
	else if ((result = json_pack("{s:s,s:{s:s,s:s%},s:s,s:s}", "role",
	    "assistant", "content", "type", "text", "text", out.data,
	    out.len, "model", m->sampling[0], "stopReason", "endTurn")) ==
	    NULL)
		buf_printf(&why, "--sampling: %s wrote what is not UTF-8",
		    m->sampling[0]);
	if (result == NULL) {
		diag_warnx("%s: sampling refused: %s", s->name,
		    buf_cstr(&why));
		*error = json_pack("{s:i,s:s}", "code", -32603, "message",
		    buf_cstr(&why));
	}
	buf_free(&prompt);
	buf_free(&out);
	buf_free(&why);
	return result;
}

/*
 * The answer to request method of server s: its result (a new
 * reference), or NULL with *error set (a new JSON-RPC error object).
 * The time it took (a person, a command) is added to m->paused, so that
 * the request waited on meanwhile does not lose it.
 */
json_t *
mcp_ask(struct mcp *m, struct mcp_server *s, const char *method,
    const json_t *params, json_t **error)
{
	double t = proc_now();
	json_t *result = NULL;

	*error = NULL;
	if (strcmp(method, "ping") == 0)
		result = json_object();
	else if (strcmp(method, "roots/list") == 0)
		result = roots(m);
	else if (strcmp(method, "elicitation/create") == 0 &&
	    m->elicit != MCP_ELICIT_DECLINE)
		result = elicit(m, s, params, error);
	else if (strcmp(method, "elicitation/create") == 0)
		result = json_pack("{s:s}", "action", "decline");
	else if (strcmp(method, "sampling/createMessage") == 0 &&
	    m->sampling != NULL)
		result = sample(m, s, params, error);
	else
		*error = json_pack("{s:i,s:s}", "code", -32601, "message",
		    "Method not found");
	m->paused += proc_now() - t;
	return result;
}
