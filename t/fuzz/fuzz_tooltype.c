/*
 * fuzz_tooltype: lib/toolcall with tool definitions (issue 16), on any
 * schema and any stream. The input is a schema's text, a NUL byte, then a
 * model's output. A schema that tooldefs would take (JSON, an object or a
 * boolean, compiled as 2020-12) becomes tool "t"; a bit of the input's
 * hash adds tool "u", defined without a schema. The stream is read in
 * plain mode and in thread mode, validated and with no_validate, each
 * whole and in pieces whose sizes come from the hash. Then: the pieces
 * change nothing; every line is JSON of its kind; every call names a
 * defined tool, and every call of "t" validates against the schema (the
 * issue's promise: a call validates, or it is an error); thread ids
 * count the calls written; no_validate writes every call the validated run wrote, the same
 * bytes, and the calls that fail the schema besides, exactly as many as
 * the validated run reported schema errors; and thread mode writes the
 * calls of plain mode. A bit of the hash reads the stream in every
 * format at once (auto), so that the arguments of the JSON dialects are
 * typed too; Python literals and JSON inside strings are values where
 * the schema wants no string. Thread mode's message events have their
 * content, its error events name the tool when the call named one.
 * Anything else aborts; ASan's leak check covers the frees.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/diag.h"
#include "schema/jsschema.h"
#include "toolcall/toolcall.h"
#include "toolcall/tooldefs.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* As tooldefs_load reads a definition file. */
#define SCHEMA_FLAGS	(JSON_DECODE_ANY | JSON_REJECT_DUPLICATES)

/* How a validated thread run reports a call that fails the schema. */
#define SCHEMA_ERROR	"the arguments of \"t\" do not match its schema"

/* One run's output. */
struct out {
	char	*s;
	size_t	 len;
	int	 status;
	unsigned long errors;
};

/* One call of an output: its tool, its arguments and its line. */
struct call {
	const char *name;
	json_t	*args;
	const char *line;
	size_t	 len;
};

struct calls {
	json_t	*lines;		/* the parsed lines, kept for the calls */
	struct call *v;
	size_t	 n;
	size_t	 schema_errors;	/* thread mode's error events of SCHEMA_ERROR */
};

static void
fail(const char *why, const char *s, size_t n)
{
	fprintf(stderr, "fuzz_tooltype: %s\n%.*s\n", why, (int)n, s);
	abort();
}

static void
differ(const char *why, const char *mode, const struct out *a,
    const struct out *b)
{
	fprintf(stderr, "fuzz_tooltype: %s (%s)\n"
	    "whole (status %d, %lu errors):\n%.*s\n"
	    "pieces (status %d, %lu errors):\n%.*s\n", why, mode,
	    a->status, a->errors, (int)a->len, a->s, b->status, b->errors,
	    (int)b->len, b->s);
	abort();
}

static uint32_t
next(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/* Feeds the stream whole (seed 0) or in pieces of sizes from the seed. */
static void
run(const struct toolcall_opts *opts, const char *in, size_t n,
    uint32_t seed, struct out *o)
{
	unsigned long errors = diag_count(DIAG_ERROR);
	struct toolcall *t;
	size_t at = 0, k;
	uint32_t x = seed;
	FILE *f;

	memset(o, 0, sizeof(*o));
	if ((f = open_memstream(&o->s, &o->len)) == NULL)
		abort();
	if ((t = toolcall_new(opts, f, "<fuzz>")) == NULL)
		abort();
	while (at < n) {
		k = seed == 0 ? n : 1 + next(&x) % ((seed >> 24) + 2);
		if (k > n - at)
			k = n - at;
		if (toolcall_feed(t, in + at, k) != 0)
			abort();
		at += k;
	}
	if (toolcall_end(t) != 0)
		abort();
	o->status = toolcall_status(t);
	o->errors = diag_count(DIAG_ERROR) - errors;
	toolcall_free(t);
	if (fclose(f) != 0)
		abort();
	if (o->status != DIAG_OK && o->status != DIAG_INVALID)
		abort();
	if ((o->status == DIAG_INVALID) != (o->errors > 0))
		fail("a status that does not match the errors", o->s, o->len);
	if (o->len > 0 && o->s[o->len - 1] != '\n')
		fail("output does not end with a newline", o->s, o->len);
}

static int
same(const struct out *a, const struct out *b)
{
	return a->len == b->len && memcmp(a->s, b->s, a->len) == 0 &&
	    a->status == b->status && a->errors == b->errors;
}

static int
valid(const struct jsschema *js, const json_t *args)
{
	struct jsschema_result r;

	if (jsschema_validate(js, args, &r) == 0)
		return 1;
	jsschema_result_free(&r);
	return 0;
}

/* Whether j's member key is a string equal to s. */
static int
is_str(const json_t *j, const char *key, const char *s)
{
	const char *v = json_string_value(json_object_get(j, key));

	return v != NULL && strcmp(v, s) == 0;
}

/*
 * Reads every line of a run: a call of plain mode, or thread mode's
 * tool_call or error event (validated: whether the run validated). Each
 * call must name a defined tool, and with validation each call of "t"
 * must validate.
 */
static void
read_calls(const struct out *o, int thread, int validated,
    const struct tooldefs *defs, long iteration, struct calls *c)
{
	const char *p, *nl, *name;
	json_t *j;
	json_error_t e;
	size_t len;
	char want[64];

	memset(c, 0, sizeof(*c));
	if ((c->lines = json_array()) == NULL)
		abort();
	for (p = o->s; p < o->s + o->len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(o->s + o->len - p));
		len = (size_t)(nl - p);
		/* integers exactly, but past int64 (JSON text) as reals,
		 * and then every number is (the iteration too) */
		if ((j = json_loadb(p, len, JSON_ALLOW_NUL, &e)) == NULL)
			j = json_loadb(p, len, JSON_ALLOW_NUL |
			    JSON_DECODE_INT_AS_REAL, &e);
		if (j == NULL || !json_is_object(j))
			fail("not a JSON object", p, len);
		json_array_append_new(c->lines, j);
		if (thread && is_str(j, "type", "message")) {
			if (json_object_size(j) != 4 ||
			    !is_str(j, "role", "assistant") ||
			    json_string_length(json_object_get(j,
			    "content")) == 0 ||
			    json_number_value(json_object_get(j,
			    "iteration")) != (double)iteration)
				fail("a bad message event", p, len);
			continue;
		}
		if (thread && is_str(j, "type", "error")) {
			/* its tool named when the call named one */
			if (json_object_size(j) != 4 + (json_object_get(j,
			    "toolName") != NULL) ||
			    (json_object_get(j, "toolName") != NULL &&
			    !json_is_string(json_object_get(j, "toolName"))) ||
			    !json_is_string(json_object_get(j, "error")) ||
			    json_object_get(j, "recoverable") != json_true() ||
			    json_number_value(json_object_get(j,
			    "iteration")) != (double)iteration)
				fail("a bad error event", p, len);
			if (strncmp(json_string_value(json_object_get(j,
			    "error")), SCHEMA_ERROR, strlen(SCHEMA_ERROR)) == 0)
				c->schema_errors++;
			continue;
		}
		if (thread) {
			snprintf(want, sizeof(want), "call-%ld-%zu", iteration,
			    c->n + 1);
			if (json_object_size(j) != 6 ||
			    !is_str(j, "type", "tool_call") ||
			    !json_is_string(json_object_get(j, "serverName")) ||
			    !is_str(j, "toolCallId", want) ||
			    json_number_value(json_object_get(j,
			    "iteration")) != (double)iteration)
				fail("a bad tool_call event (its id counts "
				    "the calls written)", p, len);
		} else if (json_object_size(j) != 3 ||
		    !json_is_string(json_object_get(j, "server_name")))
			fail("a call without its members", p, len);
		name = json_string_value(json_object_get(j, thread ?
		    "toolName" : "tool_name"));
		if (name == NULL || tooldefs_find(defs, name,
		    strlen(name)) == NULL)
			fail("a call to a tool that is not defined", p, len);
		c->v = realloc(c->v, (c->n + 1) * sizeof(*c->v));
		if (c->v == NULL)
			abort();
		c->v[c->n].name = name;
		c->v[c->n].args = json_object_get(j, thread ? "args" :
		    "arguments");
		c->v[c->n].line = p;
		c->v[c->n].len = len;
		if (!json_is_object(c->v[c->n].args))
			fail("arguments that are not an object", p, len);
		if (validated && strcmp(name, "t") == 0 &&
		    !valid(defs->v[0].js, c->v[c->n].args))
			fail("a call written that does not validate", p, len);
		c->n++;
	}
}

static void
calls_free(struct calls *c)
{
	json_decref(c->lines);
	free(c->v);
}

/*
 * no_validate (nv) writes the calls of the validated run (v), the same
 * bytes in plain mode and the same arguments in thread mode (whose ids
 * count the calls written), and between them the calls of "t" that fail
 * the schema: as many as v reported.
 */
static void
check_nv(const struct calls *nv, const struct out *nvo, const struct calls *v,
    const struct out *vo, int thread, const struct jsschema *js)
{
	size_t i, k = 0, failing = 0;
	const struct call *a, *b;

	for (i = 0; i < nv->n; i++) {
		a = &nv->v[i];
		if (k < v->n && strcmp(a->name, v->v[k].name) == 0 &&
		    json_equal(a->args, v->v[k].args) && (thread ||
		    (a->len == v->v[k].len && memcmp(a->line, v->v[k].line,
		    a->len) == 0))) {
			k++;
			continue;
		}
		if (strcmp(a->name, "t") != 0 || valid(js, a->args))
			fail("a call of no_validate's missing when validated",
			    a->line, a->len);
		failing++;
	}
	if (k != v->n) {
		b = &v->v[k];
		fail("a validated call that no_validate does not write",
		    b->line, b->len);
	}
	if (vo->errors != nvo->errors + failing || vo->status < nvo->status)
		fail("validation reported other than the calls it kept out",
		    vo->s, vo->len);
	if (thread && v->schema_errors != failing)
		fail("schema errors that are not the calls kept out", vo->s,
		    vo->len);
}

/* Thread mode's calls are plain mode's: the same tools and arguments. */
static void
check_thread(const struct calls *plain, const struct calls *thread)
{
	size_t i;

	if (plain->n != thread->n)
		fail("thread mode wrote another number of calls", NULL, 0);
	for (i = 0; i < plain->n; i++)
		if (strcmp(plain->v[i].name, thread->v[i].name) != 0 ||
		    !json_equal(plain->v[i].args, thread->v[i].args))
			fail("a call that differs in thread mode",
			    thread->v[i].line, thread->v[i].len);
}

static const char *const mode_names[4] = {
	"plain", "plain, no_validate", "thread", "thread, no_validate"
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char tname[] = "t", uname[] = "u", file[] = "<fuzz>";
	const char *in = (const char *)data, *nul, *s;
	struct toolcall_opts opts;
	struct jsschema_opts jo;
	struct tooldef v[2];
	struct tooldefs defs;
	struct out whole[4], cut;
	struct calls calls[4];
	uint32_t h = 2166136261u;
	json_t *schema;
	char err[512];
	size_t i, n;
	int m;

	diag_setquiet(1);
	if ((nul = memchr(in, '\0', size)) == NULL)
		return 0;
	s = nul + 1;
	n = size - (size_t)(s - in);
	for (i = 0; i < size; i++)
		h = (h ^ data[i]) * 16777619u;
	if ((schema = json_loadb(in, (size_t)(nul - in), SCHEMA_FLAGS,
	    NULL)) == NULL)
		return 0;
	if (!json_is_object(schema) && !json_is_boolean(schema)) {
		json_decref(schema);
		return 0;
	}
	memset(&jo, 0, sizeof(jo));
	jo.draft = JSSCHEMA_DRAFT2020;
	memset(v, 0, sizeof(v));
	v[0].name = tname;
	v[0].file = file;
	v[0].schema = schema;
	if ((v[0].js = jsschema_compile(schema, NULL, &jo, err,
	    sizeof(err))) == NULL) {
		json_decref(schema);
		return 0;
	}
	v[1].name = uname;
	v[1].file = file;
	defs.v = v;
	defs.n = 1 + (h & 1);
	defs.index = json_pack("{s:i}", "t", 0);
	if (defs.n > 1)
		json_object_set_new(defs.index, "u", json_integer(1));

	for (m = 0; m < 4; m++) {
		memset(&opts, 0, sizeof(opts));
		opts.max_size = TOOLCALL_MAX_SIZE;
		opts.tools = &defs;
		opts.no_validate = m & 1;
		opts.thread = m >> 1;
		opts.iteration = (long)(h >> 1) % 4;
		/* the JSON dialects' arguments too, typed where they are */
		opts.format = (h >> 3) & 1 ? TOOLCALL_FMT_AUTO :
		    TOOLCALL_FMT_TOOL;
		run(&opts, s, n, 0, &whole[m]);
		run(&opts, s, n, h < 2 ? h + 2 : h, &cut);
		if (!same(&whole[m], &cut))
			differ("pieces changed the output", mode_names[m],
			    &whole[m], &cut);
		free(cut.s);
		read_calls(&whole[m], m >> 1, !(m & 1), &defs,
		    opts.iteration, &calls[m]);
	}
	check_nv(&calls[1], &whole[1], &calls[0], &whole[0], 0,
	    v[0].js);
	check_nv(&calls[3], &whole[3], &calls[2], &whole[2], 1,
	    v[0].js);
	check_thread(&calls[0], &calls[2]);
	check_thread(&calls[1], &calls[3]);
	for (m = 0; m < 4; m++) {
		calls_free(&calls[m]);
		free(whole[m].s);
	}
	jsschema_free(v[0].js);
	json_decref(defs.index);
	json_decref(schema);
	return 0;
}
