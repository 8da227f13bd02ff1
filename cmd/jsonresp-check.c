/*
 * jsonresp-check: reads a model's JSON responses (a document per file, or
 * one per line with --lines) and checks each against seed 002's response
 * schema, or against the Draft-07 schema given with --schema. Each error
 * names the file, line and column of the offending value; a valid
 * response whose danger level is critical or emergency exits 4 or 5.
 */

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "config.h"
#include "buf.h"
#include "diag.h"
#include "embed.h"
#include "io.h"
#include "jsonx.h"
#include "jsschema.h"
#include "utf8.h"
#include "xalloc.h"

static void	usage(void) __attribute__((noreturn));

enum {
	OPT_ERRORS = 256, OPT_FEEDBACK, OPT_FIND, OPT_LINES, OPT_NO_FORMAT,
	OPT_PRINT_PROMPT, OPT_PRINT_SCHEMA, OPT_REF_MAP, OPT_SCHEMA,
	OPT_STRICT, OPT_VERSION
};

static const struct option longopts[] = {
	{ "errors",		required_argument,	NULL, OPT_ERRORS },
	{ "feedback",		no_argument,		NULL, OPT_FEEDBACK },
	{ "find",		no_argument,		NULL, OPT_FIND },
	{ "help",		no_argument,		NULL, 'h' },
	{ "lines",		no_argument,		NULL, OPT_LINES },
	{ "no-format",		no_argument,		NULL, OPT_NO_FORMAT },
	{ "print-prompt",	no_argument,		NULL, OPT_PRINT_PROMPT },
	{ "print-schema",	no_argument,		NULL, OPT_PRINT_SCHEMA },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "ref-map",		required_argument,	NULL, OPT_REF_MAP },
	{ "schema",		required_argument,	NULL, OPT_SCHEMA },
	{ "strict",		no_argument,		NULL, OPT_STRICT },
	{ "version",		no_argument,		NULL, OPT_VERSION },
	{ NULL,			0,			NULL, 0 }
};

static const char synopsis[] =
    "usage: jsonresp-check [-hq] [--errors=json|text] [--feedback] "
    "[--find] [--lines]\n"
    "                      [--no-format] [--print-prompt] "
    "[--print-schema]\n"
    "                      [--ref-map URI=DIR] [--schema FILE] "
    "[--strict] [FILE ...]\n";

static const char feedback_head[] = "\xE2\x9A\xA0\xEF\xB8\x8F Your previous "
    "response did not match the required JSON schema. Please review the "
    "schema carefully and provide a response that strictly follows it. "
    "Errors: ";

struct check {
	const struct jsschema	*schema;
	int			 seed;		/* the built-in schema */
	int			 lines;
	int			 find;
	int			 strict;
	int			 feedback;
};

/* A problem found in a document, reported when the document is done. */
struct problem {
	size_t		 off;		/* where, in the operand */
	size_t		 i;		/* the order it was found in */
	struct diag_loc	 loc;
	char		*rule;
	char		*instance;	/* JSON Pointer, or NULL */
	char		*keyword;
	char		*msg;
};

/* One document of an operand: where it is, what it is made of. */
struct doc {
	const char	*file;
	const char	*s;		/* the operand's text */
	size_t		 n;
	size_t		 start;		/* where the document's text starts */
	unsigned long	 line;		/* its line, with --lines; else 0 */
	struct buf	 errors;	/* for --feedback, ", "-joined */
	struct jsonx_locator loc;	/* where JSON Pointers lead */
	struct utf8_cursor cur;		/* lines and columns, in one pass */
	struct utf8_cursor mark;	/* the cursor at the document's start */
	int		 marked;	/* mark is set for this document */
	struct problem	*probs;		/* the document's problems so far */
	size_t		 nprobs;
	size_t		 probcap;
};

/*
 * The line and column of byte off of the document's operand: the cursor
 * moves on from the last position asked for, so that positions asked in
 * order cost one pass over the text; one before it starts again from the
 * document's start, not the operand's. The cursor is moved only when a
 * position is asked for, so that valid documents cost no counting.
 */
static struct diag_loc
where(struct doc *d, size_t off)
{
	struct diag_loc loc = { d->file, 1, 1, NULL };

	if (!d->marked) {
		utf8_cursor_at(&d->cur, d->start, &loc.line, &loc.col);
		d->mark = d->cur;
		d->marked = 1;
	}
	if (off < d->cur.off && off >= d->mark.off)
		d->cur = d->mark;
	utf8_cursor_at(&d->cur, off, &loc.line, &loc.col);
	return loc;
}

/* Notes a problem at byte off; flush() reports them. */
static void
problem(struct doc *d, size_t off, const char *rule, const char *instance,
    const char *keyword, const char *msg)
{
	struct problem *p;

	if (d->nprobs == d->probcap) {
		d->probcap = d->probcap ? 2 * d->probcap : 16;
		d->probs = xreallocarray(d->probs, d->probcap,
		    sizeof(*d->probs));
	}
	p = &d->probs[d->nprobs];
	p->off = off;
	p->i = d->nprobs++;
	p->rule = xstrdup(rule);
	p->instance = instance != NULL ? xstrdup(instance) : NULL;
	p->keyword = xstrdup(keyword != NULL ? keyword : "");
	p->msg = xstrdup(msg);
}

static int
cmp_off(const void *a, const void *b)
{
	const struct problem *p = a, *q = b;

	if (p->off != q->off)
		return p->off < q->off ? -1 : 1;
	return p->i < q->i ? -1 : p->i > q->i;
}

static int
cmp_found(const void *a, const void *b)
{
	const struct problem *p = a, *q = b;

	return p->i < q->i ? -1 : p->i > q->i;
}

/*
 * Reports the document's problems in the order they were found, their
 * lines and columns counted in the order of the text (one pass however
 * many there are and wherever they are), and adds each to the feedback.
 */
static void
flush(struct doc *d)
{
	struct problem *p;
	size_t i;

	if (d->nprobs == 0)
		return;
	qsort(d->probs, d->nprobs, sizeof(*d->probs), cmp_off);
	for (i = 0; i < d->nprobs; i++)
		d->probs[i].loc = where(d, d->probs[i].off);
	qsort(d->probs, d->nprobs, sizeof(*d->probs), cmp_found);
	for (i = 0; i < d->nprobs; i++) {
		p = &d->probs[i];
		if (p->instance != NULL)
			diag_schema(DIAG_ERROR, &p->loc, p->rule, p->instance,
			    p->keyword, p->msg);
		else
			diag_at(DIAG_ERROR, &p->loc, p->rule, "%s", p->msg);
		/* the feedback quotes input as the diagnostics do: escaped */
		if (d->errors.len > 0)
			buf_adds(&d->errors, ", ");
		if (p->instance != NULL && *p->instance != '\0') {
			diag_escape(&d->errors, p->instance,
			    strlen(p->instance), DIAG_ESC_BACKSLASH);
			buf_adds(&d->errors, ": ");
		}
		diag_escape(&d->errors, p->msg, strlen(p->msg), 0);
		free(p->rule);
		free(p->instance);
		free(p->keyword);
		free(p->msg);
	}
	d->nprobs = 0;
}

/* The offset of the value at a JSON Pointer in the document at off. */
static size_t
locate(struct doc *d, size_t off, const char *ptr)
{
	return jsonx_locate(&d->loc, off, ptr);
}

/* A member of an object by a path of keys, or NULL. */
static json_t *
dig(json_t *v, const char *a, const char *b)
{
	v = json_object_get(v, a);
	return b != NULL ? json_object_get(v, b) : v;
}

/*
 * The rules of seed 002 that JSON Schema cannot state, on the form's
 * fields: unique ids, options for selection fields, min < max for scales.
 */
static void
seed_rules(struct doc *d, json_t *root, size_t at)
{
	json_t *fields = dig(dig(root, "content", "form"), "fields", NULL);
	json_t *f, *id, *type, *opts, *min, *max, *seen, *first;
	char ptr[96], msg[256], quoted[112];
	const char *t;
	size_t i;

	/* each id -> the index of the first field that has it */
	seen = json_object();
	json_array_foreach(fields, i, f) {
		id = json_object_get(f, "id");
		if (!json_is_string(id))
			;
		else if ((first = json_object_getn(seen, json_string_value(id),
		    json_string_length(id))) != NULL) {
			snprintf(ptr, sizeof(ptr),
			    "/content/form/fields/%zu/id", i);
			snprintf(msg, sizeof(msg), "field id %s is already the "
			    "id of field %lld", diag_quote(quoted,
			    sizeof(quoted), json_string_value(id),
			    json_string_length(id)),
			    (long long)json_integer_value(first));
			problem(d, locate(d, at, ptr), "seed-unique-id", ptr,
			    "", msg);
		} else
			json_object_setn_new(seen, json_string_value(id),
			    json_string_length(id),
			    json_integer((json_int_t)i));
		type = json_object_get(f, "type");
		t = json_is_string(type) ? json_string_value(type) : "";
		snprintf(ptr, sizeof(ptr), "/content/form/fields/%zu", i);
		if (strcmp(t, "radio") == 0 || strcmp(t, "checkbox") == 0 ||
		    strcmp(t, "select") == 0) {
			opts = json_object_get(f, "options");
			if (!json_is_array(opts) || json_array_size(opts) == 0) {
				snprintf(msg, sizeof(msg), "a %s field needs a "
				    "non-empty \"options\" array of "
				    "{\"value\", \"label\"}", t);
				problem(d, locate(d, at, ptr),
				    "seed-options", ptr, "", msg);
			}
		} else if (strcmp(t, "scale") == 0) {
			min = json_object_get(f, "min");
			max = json_object_get(f, "max");
			if (!json_is_number(min) || !json_is_number(max)) {
				problem(d, locate(d, at, ptr),
				    "seed-scale", ptr, "", "a scale field "
				    "needs numeric \"min\" and \"max\"");
			} else if (json_number_value(min) >=
			    json_number_value(max)) {
				snprintf(ptr, sizeof(ptr),
				    "/content/form/fields/%zu/min", i);
				snprintf(msg, sizeof(msg), "a scale's min %g "
				    "is not below its max %g",
				    json_number_value(min),
				    json_number_value(max));
				problem(d, locate(d, at, ptr),
				    "seed-scale", ptr, "", msg);
			}
		}
	}
	json_decref(seen);
}

/* The exit status a valid response's danger level asks for. */
static int
safety(struct doc *d, json_t *root, size_t at)
{
	json_t *level = dig(root, "safety", "danger_level");
	const char *l = json_string_value(level);
	struct diag_loc loc;
	int status;

	if (l == NULL)
		return DIAG_OK;
	if (strcmp(l, "emergency") == 0)
		status = DIAG_EMERGENCY;
	else if (strcmp(l, "critical") == 0)
		status = DIAG_CRITICAL;
	else
		status = DIAG_OK;
	loc = where(d, locate(d, at, "/safety/danger_level"));
	diag_at(DIAG_WARNING, &loc, "danger-level", "danger_level is \"%s\"%s",
	    l, status == DIAG_CRITICAL ? ": administrators should be told "
	    "(status 4)" : status == DIAG_EMERGENCY ? ": show crisis "
	    "resources, block the conversation (status 5)" : "");
	return status;
}

/*
 * The span of a response wrapped in one Markdown code fence (```json or
 * ```): 1 and the inside in *a, *b; 0 when it is not fenced.
 */
static int
unfence(const char *s, size_t n, size_t *a, size_t *b)
{
	size_t i = jsonx_skip_ws(s, n, *a), e = *b, k;

	while (e > i && (s[e - 1] == ' ' || s[e - 1] == '\t' ||
	    s[e - 1] == '\n' || s[e - 1] == '\r'))
		e--;
	if (e - i < 6 || memcmp(s + i, "```", 3) != 0 ||
	    memcmp(s + e - 3, "```", 3) != 0)
		return 0;
	k = i + 3;
	if (e - k >= 4 && strncasecmp(s + k, "json", 4) == 0)
		k += 4;
	while (k < e && (s[k] == ' ' || s[k] == '\t'))
		k++;
	if (k < e && s[k] == '\r')
		k++;
	if (k >= e || s[k] != '\n')
		return 0;
	*a = k + 1;
	*b = e - 3;
	return 1;
}

/*
 * --find: the first value that reads whole from a '{' or '[' of s[a..b),
 * its start in *at. After a reading that fails on the syntax the search
 * goes on from the place where it failed, so that no text is read again
 * and again (one from each '{' or '[' of it made --find quadratic); one
 * that fails otherwise (a duplicate key, nesting too deep, a number out
 * of range, invalid UTF-8, a NUL byte) has found a document, which is
 * refused: NULL with err filled. NULL with an empty err->rule: nothing
 * found.
 */
static json_t *
find(struct doc *d, size_t a, size_t b, size_t *at, struct jsonx_error *err)
{
	const char *s = d->s, *nul;
	json_t *v;
	size_t off, end;

	err->rule[0] = '\0';
	if ((nul = memchr(s + a, '\0', b - a)) != NULL)
		b = (size_t)(nul - s) + 1;
	for (off = a; off < b; ) {
		if (s[off] == '\0') {
			err->offset = off;
			snprintf(err->rule, sizeof(err->rule), "json-syntax");
			snprintf(err->text, sizeof(err->text),
			    "invalid JSON: NUL byte");
			return NULL;
		}
		if (s[off] != '{' && s[off] != '[') {
			off++;
			continue;
		}
		if ((v = jsonx_parse(s, b, off, &end, err)) != NULL) {
			*at = off;
			return v;
		}
		if (strcmp(err->rule, "json-syntax") != 0 ||
		    strcmp(err->text, "invalid JSON: NUL byte") == 0)
			return NULL;
		off = err->offset > off ? err->offset : off + 1;
	}
	err->rule[0] = '\0';
	return NULL;
}

/* Checks one document, s[a..b) of the operand. */
static int
check_doc(const struct check *c, struct doc *d, size_t a, size_t b)
{
	struct jsschema_result res = { NULL, 0 };
	struct jsonx_error err;
	json_t *v = NULL;
	size_t end, i, at;
	int status = DIAG_OK, fenced;

	buf_reset(&d->errors);
	/* the documents come in order: this one starts after the last */
	d->start = a;
	d->marked = 0;
	a = jsonx_skip_ws(d->s, b, a);
	if (a == b) {
		problem(d, a, "empty", NULL, NULL, "empty input: no JSON "
		    "document");
		status = DIAG_INVALID;
		goto out;
	}
	i = a;
	fenced = !c->find && unfence(d->s, b, &a, &b);
	if (fenced && c->strict) {
		problem(d, i, "fence", NULL, NULL, "the response is wrapped in "
		    "a Markdown code fence (--strict)");
		status = DIAG_INVALID;
		goto out;
	}
	a = jsonx_skip_ws(d->s, b, a);
	if (c->find) {
		if ((v = find(d, a, b, &a, &err)) == NULL) {
			if (err.rule[0] != '\0')
				problem(d, err.offset, err.rule, NULL, NULL,
				    err.text);
			else
				problem(d, a, "find", NULL, NULL, "no JSON "
				    "object or array found");
			status = DIAG_INVALID;
			goto out;
		}
	} else if ((v = jsonx_parse(d->s, b, a, &end, &err)) == NULL) {
		/* jansson ran out of text: say so apart from bad syntax */
		if (err.code == json_error_premature_end_of_input)
			problem(d, err.offset, "truncated", NULL, NULL,
			    "truncated: the JSON document ends before it is "
			    "complete");
		else
			problem(d, err.offset, err.rule, NULL, NULL, err.text);
		status = DIAG_INVALID;
		goto out;
	} else if ((i = jsonx_skip_ws(d->s, b, end)) < b) {
		problem(d, i, "json-syntax", NULL, NULL, d->s[i] == '\0' ?
		    "invalid JSON: NUL byte" : "invalid JSON: text after the "
		    "end of the document");
		status = DIAG_INVALID;
		goto out;
	}
	at = a;
	if (jsschema_validate(c->schema, v, &res) != 0) {
		for (i = 0; i < res.nerrors; i++)
			problem(d, locate(d, at, res.errors[i].instance),
			    "schema", res.errors[i].instance,
			    res.errors[i].keyword, res.errors[i].message);
		status = DIAG_INVALID;
	}
	if (c->seed) {
		seed_rules(d, v, at);
		if (d->nprobs > 0)
			status = DIAG_INVALID;
		else
			status = safety(d, v, at);
	}
out:
	flush(d);
	if (status == DIAG_INVALID && c->feedback) {
		fputs(feedback_head, stdout);
		fwrite(d->errors.data, 1, d->errors.len, stdout);
		putchar('\n');
	}
	jsschema_result_free(&res);
	json_decref(v);
	return status;
}

static int
process(const struct check *c, const char *operand)
{
	struct buf in = BUF_INIT;
	struct doc d;
	size_t start, nl, b;
	int status = DIAG_OK;

	memset(&d, 0, sizeof(d));
	d.file = io_name(operand);
	if (io_read_text(operand, &in) != DIAG_OK) {
		buf_free(&in);
		return DIAG_TROUBLE;
	}
	d.s = buf_cstr(&in);
	d.n = in.len;
	jsonx_locator_init(&d.loc, d.s, d.n);
	utf8_cursor_init(&d.cur, d.s, d.n);
	d.mark = d.cur;
	d.marked = 1;
	start = in.len >= 3 && memcmp(d.s, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
	if (!c->lines)
		status = check_doc(c, &d, start, d.n);
	else {
		for (d.line = 1; start < d.n; d.line++, start = nl + 1) {
			const char *p = memchr(d.s + start, '\n', d.n - start);

			nl = p != NULL ? (size_t)(p - d.s) : d.n;
			b = nl;
			if (jsonx_skip_ws(d.s, b, start) == b)
				continue;	/* a blank line */
			status = diag_max(status, check_doc(c, &d, start, b));
		}
	}
	jsonx_locator_free(&d.loc);
	free(d.probs);
	buf_free(&d.errors);
	buf_free(&in);
	return status;
}

/* Reads and compiles the schema; NULL, said, when it cannot. */
static struct jsschema *
load_schema(const char *file, const char *text, size_t len,
    const struct jsschema_opts *jo)
{
	struct jsschema *s;
	json_error_t je;
	json_t *v;
	char err[512];

	v = json_loadb(text, len, JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL |
	    JSON_ALLOW_NUL | JSON_REJECT_DUPLICATES, &je);
	if (v == NULL) {
		diag_warnx("%s:%d:%d: the schema is not JSON: %s", file,
		    je.line, je.column > 0 ? je.column : 1, je.text);
		return NULL;
	}
	s = jsschema_compile(v, NULL, jo, err, sizeof(err));
	json_decref(v);
	if (s == NULL)
		diag_warnx("%s: %s", file, err);
	return s;
}

int
main(int argc, char *argv[])
{
	struct jsschema_refmap *maps = NULL;
	struct jsschema_opts jo = { 0, NULL, 0 };
	struct check c = { NULL, 1, 0, 0, 0, 0 };
	struct buf text = BUF_INIT;
	const char *schema_file = NULL, *tpl, *mark;
	int ch, i, print_prompt = 0, print_schema = 0, status = DIAG_OK;
	char *eq;

	diag_setprogname(argv[0]);
	signal(SIGXFSZ, SIG_IGN);	/* a file too large: a write error */
	argv[0] = (char *)diag_progname();
	while ((ch = getopt_long(argc, argv, "hq", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			fputs(synopsis, stdout);
			fputs("exit status: 0 valid, 1 invalid, 2 usage, "
			    "3 trouble, 4 valid but critical, 5 valid but "
			    "emergency\n", stdout);
			return io_fshut(stdout, "<stdout>");
		case 'q':
			diag_setquiet(1);
			break;
		case OPT_ERRORS:
			if (diag_seterrors(optarg) != 0)
				usage();
			break;
		case OPT_FEEDBACK:
			c.feedback = 1;
			break;
		case OPT_FIND:
			c.find = 1;
			break;
		case OPT_LINES:
			c.lines = 1;
			break;
		case OPT_NO_FORMAT:
			jo.no_format = 1;
			break;
		case OPT_PRINT_PROMPT:
			print_prompt = 1;
			break;
		case OPT_PRINT_SCHEMA:
			print_schema = 1;
			break;
		case OPT_REF_MAP:
			if ((eq = strchr(optarg, '=')) == NULL ||
			    eq == optarg || eq[1] == '\0') {
				diag_warnx("--ref-map must be URI=DIR, not "
				    "\"%s\"", optarg);
				usage();
			}
			*eq = '\0';
			maps = xreallocarray(maps, jo.nrefmap + 1,
			    sizeof(*maps));
			maps[jo.nrefmap].uri = optarg;
			maps[jo.nrefmap].dir = eq + 1;
			jo.nrefmap++;
			jo.refmap = maps;
			break;
		case OPT_SCHEMA:
			schema_file = optarg;
			c.seed = 0;
			break;
		case OPT_STRICT:
			c.strict = 1;
			break;
		case OPT_VERSION:
			printf("jsonresp-check (llmkit) %s\n", LLMKIT_VERSION);
			return io_fshut(stdout, "<stdout>");
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if ((print_schema || print_prompt) && argc > 0) {
		diag_warnx("--print-%s reads no input",
		    print_prompt ? "prompt" : "schema");
		usage();
	}
	if (schema_file != NULL) {
		if (io_read(schema_file, &text) != DIAG_OK) {
			buf_free(&text);
			free(maps);
			return DIAG_TROUBLE;
		}
	} else
		buf_add(&text, embed_llm_response_schema,
		    embed_llm_response_schema_len);
	if (print_schema || print_prompt) {
		if (print_prompt) {
			/* the instructions, with the schema in its place */
			tpl = embed_jsonresp_prompt;
			mark = strstr(tpl, "{{SCHEMA}}");
			fwrite(tpl, 1, (size_t)(mark - tpl), stdout);
			/* the template's line ends the schema's last line */
			while (text.len > 0 && text.data[text.len - 1] == '\n')
				text.len--;
			fwrite(text.data, 1, text.len, stdout);
			fputs(mark + strlen("{{SCHEMA}}"), stdout);
		} else
			fwrite(text.data, 1, text.len, stdout);
		buf_free(&text);
		free(maps);
		return io_fshut(stdout, "<stdout>");
	}
	c.schema = load_schema(schema_file != NULL ? schema_file :
	    "llm-response.schema.json", text.data, text.len, &jo);
	buf_free(&text);
	if (c.schema == NULL) {
		free(maps);
		return DIAG_USAGE;
	}
	if (argc == 0)
		status = process(&c, "-");
	for (i = 0; i < argc; i++)
		status = diag_max(status, process(&c, argv[i]));
	jsschema_free((struct jsschema *)c.schema);
	free(maps);
	return diag_max(status, io_fshut(stdout, "<stdout>"));
}

static void
usage(void)
{
	fputs(synopsis, stderr);
	exit(DIAG_USAGE);
}
