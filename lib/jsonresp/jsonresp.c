/* jsonresp: seed 002's response checks, feedback and prompt. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/embed.h"
#include "base/io.h"
#include "base/src.h"
#include "base/xalloc.h"
#include "check/verdict.h"
#include "json/jsontree.h"
#include "json/jsonx.h"
#include "jsonresp/jsonresp.h"
#include "schema/jsschema.h"

static const char feedback_head[] = "\xE2\x9A\xA0\xEF\xB8\x8F Your previous "
    "response did not match the required JSON schema. Please review the "
    "schema carefully and provide a response that strictly follows it. "
    "Errors: ";

/* Where a problem of the list is, until it is placed. */
struct jsonresp_at {
	size_t	off;		/* in the source */
	size_t	i;		/* its item in the list */
};

struct jsonresp {
	struct jsonresp_opts	 o;
	struct diag_list	 diags;		/* in the order found */
	struct jsonresp_at	*at;		/* one per item of diags */
	size_t			 atcap;
	struct jsonx_locator	 loc;		/* where JSON Pointers lead */
	int			 located;	/* loc is set up for src */
	struct src		*src;		/* the document's */
	size_t			 base;		/* src's byte offset in its file */
	unsigned long		 line;		/* src's first line in its file */
	struct buf		 clean;		/* the accepted text, with clean */
	struct jsschema_result	 notes;		/* formats as annotations */
};

struct jsonresp *
jsonresp_new(const struct jsonresp_opts *o)
{
	struct jsonresp *jr = xcalloc(1, sizeof(*jr));

	jr->o = *o;
	return jr;
}

void
jsonresp_free(struct jsonresp *jr)
{
	if (jr == NULL)
		return;
	diag_list_free(&jr->diags);
	jsschema_result_free(&jr->notes);
	buf_free(&jr->clean);
	free(jr->at);
	free(jr);
}

/* The problems of the last document, in the order they were found. */
const struct diag_list *
jsonresp_diags(const struct jsonresp *jr)
{
	return &jr->diags;
}

/* Item i of the list is at byte off of the source. */
static void
note(struct jsonresp *jr, size_t i, size_t off)
{
	if (i >= jr->atcap) {
		jr->atcap = jr->diags.cap > i ? jr->diags.cap : i + 1;
		jr->at = xreallocarray(jr->at, jr->atcap, sizeof(*jr->at));
	}
	jr->at[i].off = off;
	jr->at[i].i = i;
}

/*
 * The offset of the value at a JSON Pointer in the document at byte at.
 * The locator is set up on the first use: a valid document needs none.
 */
static size_t
locate(struct jsonresp *jr, size_t at, const char *ptr)
{
	if (!jr->located) {
		jsonx_locator_init(&jr->loc, jr->src->s, jr->src->n);
		jr->located = 1;
	}
	return jsonx_locate(&jr->loc, at, ptr);
}

/* An error about the whole document, at byte off. */
static void
problem(struct jsonresp *jr, size_t off, const char *rule, const char *msg)
{
	diag_list_add(&jr->diags, DIAG_ERROR, 0, 0, rule, NULL, "%s", msg);
	note(jr, jr->diags.n - 1, off);
}

static int
cmp_at(const void *a, const void *b)
{
	const struct jsonresp_at *p = a, *q = b;

	if (p->off != q->off)
		return p->off < q->off ? -1 : 1;
	return p->i < q->i ? -1 : p->i > q->i;
}

/*
 * Gives every problem its line and column, counted in the order of the
 * text: one pass however many there are and wherever they are. The list
 * keeps the order they were found in.
 */
static void
place(struct jsonresp *jr, struct src *src)
{
	struct diag_item *it;
	struct diag_loc loc;
	size_t i;

	if (jr->diags.n == 0)
		return;
	qsort(jr->at, jr->diags.n, sizeof(*jr->at), cmp_at);
	for (i = 0; i < jr->diags.n; i++) {
		src_loc(src, jr->at[i].off, &loc);
		it = &jr->diags.v[jr->at[i].i];
		it->line = loc.line;
		it->col = loc.col;
	}
}

/* A member of an object by a path of keys, or NULL. */
static const json_t *
dig(const json_t *v, const char *a, const char *b)
{
	v = json_object_get(v, a);
	return b != NULL ? json_object_get(v, b) : v;
}

/*
 * The rules of seed 002 that JSON Schema cannot state, on the form's
 * fields: unique ids, options for selection fields, min < max for scales.
 * Each broken rule is added to l with the JSON Pointer of the value as
 * its path, in the order of the fields; line and column are left 0.
 */
void
jsonresp_seed_rules(const json_t *root, struct diag_list *l)
{
	const json_t *fields = dig(dig(root, "content", "form"), "fields",
	    NULL);
	const json_t *f, *id, *type, *opts, *min, *max, *first;
	struct diag_item *it;
	json_t *seen;
	char ptr[96], quoted[112];
	const char *t;
	size_t i;

	/* each id -> the index of the first field that has it */
	seen = json_object();
	json_array_foreach(fields, i, f) {
		id = json_object_get(f, "id");
		it = NULL;
		if (!json_is_string(id))
			;
		else if ((first = json_object_getn(seen, json_string_value(id),
		    json_string_length(id))) != NULL) {
			snprintf(ptr, sizeof(ptr),
			    "/content/form/fields/%zu/id", i);
			it = diag_list_add(l, DIAG_ERROR, 0, 0,
			    "seed-unique-id", ptr, "field id %s is already the "
			    "id of field %lld", diag_quote(quoted,
			    sizeof(quoted), json_string_value(id),
			    json_string_length(id)),
			    (long long)json_integer_value(first));
			it->prefix = 1;
		} else
			json_object_setn_new(seen, json_string_value(id),
			    json_string_length(id),
			    json_integer((json_int_t)i));
		type = json_object_get(f, "type");
		t = json_is_string(type) ? json_string_value(type) : "";
		snprintf(ptr, sizeof(ptr), "/content/form/fields/%zu", i);
		it = NULL;
		if (strcmp(t, "radio") == 0 || strcmp(t, "checkbox") == 0 ||
		    strcmp(t, "select") == 0) {
			opts = json_object_get(f, "options");
			if (!json_is_array(opts) || json_array_size(opts) == 0)
				it = diag_list_add(l, DIAG_ERROR, 0, 0,
				    "seed-options", ptr, "a %s field needs a "
				    "non-empty \"options\" array of "
				    "{\"value\", \"label\"}", t);
		} else if (strcmp(t, "scale") == 0) {
			min = json_object_get(f, "min");
			max = json_object_get(f, "max");
			if (!json_is_number(min) || !json_is_number(max))
				it = diag_list_add(l, DIAG_ERROR, 0, 0,
				    "seed-scale", ptr, "a scale field needs "
				    "numeric \"min\" and \"max\"");
			else if (json_number_value(min) >=
			    json_number_value(max)) {
				snprintf(ptr, sizeof(ptr),
				    "/content/form/fields/%zu/min", i);
				it = diag_list_add(l, DIAG_ERROR, 0, 0,
				    "seed-scale", ptr, "a scale's min %g is "
				    "not below its max %g",
				    json_number_value(min),
				    json_number_value(max));
			}
		}
		if (it != NULL)
			it->prefix = 1;
	}
	json_decref(seen);
}

/*
 * The exit status a valid response's danger level asks for: DIAG_OK,
 * DIAG_CRITICAL or DIAG_EMERGENCY. When there is a level, the warning
 * that names it is appended to msg.
 */
int
jsonresp_safety(const json_t *root, struct buf *msg)
{
	const char *l = json_string_value(dig(root, "safety",
	    "danger_level"));
	int status;

	if (l == NULL)
		return DIAG_OK;
	if (strcmp(l, "emergency") == 0)
		status = DIAG_EMERGENCY;
	else if (strcmp(l, "critical") == 0)
		status = DIAG_CRITICAL;
	else
		status = DIAG_OK;
	buf_printf(msg, "danger_level is \"%s\"%s", l,
	    status == DIAG_CRITICAL ? ": administrators should be told "
	    "(status 4)" : status == DIAG_EMERGENCY ? ": show crisis "
	    "resources, block the conversation (status 5)" : "");
	return status;
}

/*
 * A response wrapped in one Markdown code fence (```json or ```) in
 * s[*a..*b): 1, with the inside in *a and *b; 0 when it is not fenced.
 */
int
jsonresp_unfence(const char *s, size_t *a, size_t *b)
{
	size_t i = jsonx_skip_ws(s, *b, *a), e = *b, k;

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

static void
nul_error(struct jsonx_error *err, size_t off)
{
	err->code = json_error_unknown;
	err->offset = off;
	err->first = JSONX_NOPOS;
	err->key[0] = '\0';
	snprintf(err->rule, sizeof(err->rule), "json-syntax");
	snprintf(err->text, sizeof(err->text), "invalid JSON: NUL byte");
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
json_t *
jsonresp_find(const char *s, size_t a, size_t b, size_t *at,
    struct jsonx_error *err)
{
	const char *nul;
	json_t *v;
	size_t off, end;

	if ((nul = memchr(s + a, '\0', b - a)) != NULL)
		b = (size_t)(nul - s) + 1;
	for (off = a; off < b; ) {
		if (s[off] == '\0') {
			nul_error(err, off);
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
		/* a NUL ends the text: nothing after it is read */
		if (strcmp(err->rule, "json-syntax") != 0 ||
		    (err->offset < b && s[err->offset] == '\0'))
			return NULL;
		off = err->offset > off ? err->offset : off + 1;
	}
	err->rule[0] = '\0';
	return NULL;
}

/*
 * A JSON error noted, with its places counted as ours are: a repeated
 * key names the line and column of its first place in the file, and a
 * byte that is not UTF-8 its offset in the file, not in the line.
 */
static void
json_problem(struct jsonresp *jr, struct jsonx_error *err)
{
	struct diag_loc loc;

	if (err->first != JSONX_NOPOS) {
		src_loc(jr->src, err->first, &loc);
		jsonx_dup_text(err, loc.line, loc.col);
	}
	if (strcmp(err->rule, "utf8") == 0)
		snprintf(err->text, sizeof(err->text), "invalid UTF-8: byte "
		    "0x%02x at byte offset %zu",
		    (unsigned char)jr->src->s[err->offset],
		    jr->base + err->offset);
	problem(jr, err->offset, err->rule, err->text);
}

/*
 * The document of s[*a..b) as jansson reads it, with *a moved to its
 * start: the first value, with find; else the whole text, which holds
 * nothing but white space after the value. NULL, the problem noted, when
 * there is none.
 */
static json_t *
read_doc(struct jsonresp *jr, const char *s, size_t *a, size_t b)
{
	struct jsonx_error err;
	json_t *v;
	size_t end, i;

	if (jr->o.find) {
		if ((v = jsonresp_find(s, *a, b, a, &err)) != NULL)
			return v;
		if (err.rule[0] != '\0')
			json_problem(jr, &err);
		else
			problem(jr, *a, "find", "no JSON object or array "
			    "found");
		return NULL;
	}
	if ((v = jsonx_parse(s, b, *a, &end, &err)) == NULL) {
		/* jansson ran out of text: say so apart from bad syntax */
		if (err.code == json_error_premature_end_of_input)
			problem(jr, err.offset, "truncated", "truncated: the "
			    "JSON document ends before it is complete");
		else
			json_problem(jr, &err);
		return NULL;
	}
	if ((i = jsonx_skip_ws(s, b, end)) < b) {
		problem(jr, i, "json-syntax", s[i] == '\0' ? "invalid JSON: "
		    "NUL byte" : "invalid JSON: text after the end of the "
		    "document");
		json_decref(v);
		return NULL;
	}
	return v;
}

/*
 * The formats that the schema's dialect makes annotations and that the
 * document fails: warnings, which change no status.
 */
static void
add_notes(struct jsonresp *jr, struct jsschema_result *notes, size_t at)
{
	struct jsschema_error *e;
	struct diag_item *it;
	size_t i;

	for (i = 0; i < notes->nerrors; i++) {
		e = &notes->errors[i];
		it = diag_list_add(&jr->diags, DIAG_WARNING, 0, 0, "format",
		    e->instance, "%s: --assert-format makes it an error",
		    e->message);
		it->keyword = xstrdup(e->keyword);
		it->prefix = 1;
		note(jr, jr->diags.n - 1, locate(jr, at, e->instance));
	}
	jsschema_result_free(notes);
}

/* The value v at byte at: its schema's errors, then the seed's rules. */
static int
validate_errors(struct jsonresp *jr, const json_t *v, size_t at)
{
	struct jsschema_result res = { NULL, 0 };
	struct jsschema_error *e;
	struct diag_item *it;
	struct buf msg = BUF_INIT;
	size_t i, n0;
	int status = DIAG_OK, r;

	if ((r = jsschema_validate_notes(jr->o.schema, v, &res,
	    &jr->notes)) != 0) {
		for (i = 0; i < res.nerrors; i++) {
			e = &res.errors[i];
			it = diag_list_add(&jr->diags, DIAG_ERROR, 0, 0,
			    "schema", e->instance, "%s", e->message);
			it->keyword = xstrdup(e->keyword);
			it->prefix = 1;
			note(jr, jr->diags.n - 1,
			    locate(jr, at, e->instance));
		}
		/* -1: a format not checked (no libidn2, no PCRE2) */
		status = r == -1 ? DIAG_TROUBLE : DIAG_INVALID;
	}
	jsschema_result_free(&res);
	if (status == DIAG_TROUBLE)
		return status;
	if (!jr->o.seed)
		return status;
	n0 = jr->diags.n;
	jsonresp_seed_rules(v, &jr->diags);
	for (i = n0; i < jr->diags.n; i++)
		note(jr, i, locate(jr, at, jr->diags.v[i].path));
	if (status == DIAG_INVALID || jr->diags.n > n0)
		return DIAG_INVALID;
	status = jsonresp_safety(v, &msg);
	if (msg.len > 0) {
		diag_list_add(&jr->diags, DIAG_WARNING, 0, 0, "danger-level",
		    NULL, "%s", buf_cstr(&msg));
		note(jr, jr->diags.n - 1,
		    locate(jr, at, "/safety/danger_level"));
	}
	buf_free(&msg);
	return status;
}

/*
 * The value v at byte at: a warning when, checked against seed 002's
 * schema, it is itself a JSON Schema; its schema's errors, then the
 * seed's rules; then the warnings of the formats that are annotations.
 */
static int
validate(struct jsonresp *jr, const json_t *v, size_t at)
{
	const char *d;
	int status;

	/* checked against the response format, a schema is a mistake */
	if (jr->o.seed && (d = jsschema_uri_dialect(json_string_value(
	    json_object_get(v, "$schema")))) != NULL) {
		diag_list_add(&jr->diags, DIAG_WARNING, 0, 0, "schema-operand",
		    "/$schema", "this is a JSON Schema (%s), not a response: "
		    "to check documents against it, give it as --schema FILE",
		    d)->prefix = 1;
		note(jr, jr->diags.n - 1, locate(jr, at, "/$schema"));
	}
	status = validate_errors(jr, v, at);
	add_notes(jr, &jr->notes, at);
	return status;
}

/*
 * Appends the JSON value that starts at s[a] and ends by b without the
 * white space between its tokens: a value read whole, so that strings
 * and brackets are balanced, and a container ends it at its last
 * bracket (with find, prose may follow it). Strings, numbers and their
 * escapes are copied as written.
 */
static void
compact(struct buf *out, const char *s, size_t a, size_t b)
{
	size_t i, run, depth = 0;

	for (i = a; i < b; ) {
		switch (s[i]) {
		case ' ':
		case '\t':
		case '\n':
		case '\r':
			i++;
			continue;
		case '"':
			for (run = i + 1; s[run] != '"'; run++)
				if (s[run] == '\\')
					run++;
			buf_add(out, s + i, run + 1 - i);
			i = run + 1;
			break;
		case '{':
		case '[':
			depth++;
			buf_addc(out, s[i++]);
			continue;
		case '}':
		case ']':
			depth--;
			buf_addc(out, s[i++]);
			break;
		default:
			buf_addc(out, s[i++]);
			continue;
		}
		if (depth == 0)
			break;
	}
}

/*
 * Checks the document of src (from src->start to its end): the status,
 * DIAG_OK to DIAG_EMERGENCY, and its problems, placed, in
 * jsonresp_diags. src is borrowed for the call.
 */
int
jsonresp_check(struct jsonresp *jr, struct src *src)
{
	const char *s = src->s;
	size_t a, b = src->n, i;
	json_t *v = NULL;
	int status = DIAG_INVALID, fenced;

	diag_list_clear(&jr->diags);
	buf_reset(&jr->clean);
	jr->src = src;
	jr->line = src->line;
	a = jsonx_skip_ws(s, b, src->start);
	if (a == b) {
		problem(jr, a, "empty", "empty input: no JSON document");
		goto out;
	}
	i = a;
	fenced = !jr->o.find && jsonresp_unfence(s, &a, &b);
	if (fenced && jr->o.strict) {
		problem(jr, i, "fence", "the response is wrapped in a "
		    "Markdown code fence (--strict)");
		goto out;
	}
	a = jsonx_skip_ws(s, b, a);
	if ((v = read_doc(jr, s, &a, b)) != NULL)
		status = validate(jr, v, a);
	if (jr->o.clean && status != DIAG_INVALID && status != DIAG_TROUBLE)
		compact(&jr->clean, s, a, b);
out:
	place(jr, src);
	if (jr->located)
		jsonx_locator_free(&jr->loc);
	jr->located = 0;
	jr->src = NULL;
	json_decref(v);
	return status;
}

/*
 * A line of JSON lines as a source of its own, on line lineno of its
 * file. Only the file's first line may start with a byte order mark: on
 * a later one those bytes are the line's own, and take a column.
 */
static void
line_src(struct src *src, const char *name, const char *s, size_t n,
    unsigned long lineno)
{
	src_init(src, name, s, n);
	src_setrecord(src, lineno);
}

/*
 * --lines: each line of fp is a document, checked (a blank one skipped)
 * and then handed to report, one line at a time, so that memory grows
 * with the longest line and not with the input. A line that holds a
 * NUL byte ends at it, as a file does, and the rest of it is skipped
 * (verdict_lines_next): the next line is read. Returns the highest
 * status of the lines, or DIAG_TROUBLE (said) when fp cannot be read.
 */
int
jsonresp_lines(struct jsonresp *jr, FILE *fp, const char *name,
    jsonresp_report_fn *report, void *arg)
{
	struct verdict_lines r;
	struct src src;
	const char *line;
	size_t n;
	unsigned long lineno;
	int status = DIAG_OK, st, more;

	verdict_lines_init(&r, fileno(fp));
	for (lineno = 1; (more = verdict_lines_next(&r, &line, &n,
	    &jr->base)) == 1;
	    lineno++) {
		line_src(&src, name, line, n, lineno);
		if (jsonx_skip_ws(line, n, src.start) == n)
			continue;
		st = jsonresp_check(jr, &src);
		status = diag_max(status, st);
		if (report(jr, st, arg) != 0)
			break;
	}
	if (more == -1) {
		diag_warn("%s", name);
		status = DIAG_TROUBLE;
	}
	jr->base = 0;
	verdict_lines_free(&r);
	return status;
}

/*
 * Seed 002's correction message for the last document, on one line: its
 * errors in the order found, ", "-joined, each "POINTER: MESSAGE" as the
 * diagnostics write it, input quoted and escaped as they do.
 */
void
jsonresp_feedback(struct buf *b, const struct jsonresp *jr)
{
	const struct diag_item *it;
	size_t i;
	int first = 1;

	buf_adds(b, feedback_head);
	for (i = 0; i < jr->diags.n; i++) {
		it = &jr->diags.v[i];
		if (it->severity != DIAG_ERROR)
			continue;
		if (!first)
			buf_adds(b, ", ");
		first = 0;
		if (it->prefix && it->path != NULL && *it->path != '\0') {
			diag_escape(b, it->path, strlen(it->path),
			    DIAG_ESC_BACKSLASH);
			buf_adds(b, ": ");
		}
		diag_escape(b, it->message, strlen(it->message), 0);
	}
	buf_addc(b, '\n');
}

/*
 * -o json: the last document, accepted, as one line of compact JSON;
 * nothing when it was refused (or the checker does not keep it).
 */
void
jsonresp_clean(struct buf *b, const struct jsonresp *jr)
{
	if (jr->clean.len == 0)
		return;
	buf_add(b, jr->clean.data, jr->clean.len);
	buf_addc(b, '\n');
}

/*
 * -o report: the last document's record (lib/verdict), its problems in
 * the order found.
 */
void
jsonresp_report(struct buf *b, const struct jsonresp *jr, const char *file,
    int lines, int status)
{
	verdict_open(b, file, lines ? jr->line : 0, status, jr->diags.v,
	    jr->diags.n);
	verdict_close(b);
}

/* -o junit's testcase of the last document, as jsonresp_report's record. */
void
jsonresp_junit(struct buf *b, const struct jsonresp *jr, const char *file,
    int lines, int status)
{
	verdict_junit_case(b, file, lines ? jr->line : 0, status, jr->diags.v,
	    jr->diags.n);
}

/*
 * Appends the text of the schema file (or standard input for "-") to b:
 * DIAG_OK, or DIAG_TROUBLE, said, when it cannot be read or is no
 * regular file, so that a FIFO, a device or a directory is never waited
 * on or read for ever.
 */
int
jsonresp_schema_read(const char *file, struct buf *b)
{
	const char *why;
	FILE *fp;
	int status;

	if (strcmp(file, "-") == 0)
		return io_read(file, b);
	if ((fp = jsschema_fopen(file, &why)) == NULL) {
		diag_warnx("%s: %s", file, why);
		return DIAG_TROUBLE;
	}
	status = DIAG_OK;
	if (io_slurp(fp, b) != 0) {
		diag_warn("%s", file);
		status = DIAG_TROUBLE;
	}
	return diag_max(status, io_close(fp, file));
}

/* The schema's text as JSON; NULL, said with its place, when it is not. */
static json_t *
schema_json(const char *file, const char *text, size_t len)
{
	json_error_t je;
	json_t *v;

	v = jsonx_load(text, len, JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL |
	    JSON_ALLOW_NUL | JSON_REJECT_DUPLICATES, &je);
	if (v == NULL)
		diag_warnx("%s:%d:%d: the schema is not JSON: %s", file,
		    je.line, je.column > 0 ? je.column : 1, je.text);
	return v;
}

/*
 * Compiles the schema v read from file, whose references resolve against
 * the file's location (not for "-"); NULL, said, when it cannot, with
 * errno ELIBACC when that is trouble (PCRE2, which a pattern needs,
 * cannot be loaded) and EINVAL when it is the schema's fault. Takes the
 * reference to v.
 */
static struct jsschema *
schema_compile(const char *file, json_t *v, const struct jsschema_opts *jo)
{
	struct jsschema *s;
	char err[512], *uri;
	int e;

	uri = strcmp(file, "-") != 0 ? jsschema_file_uri(file) : NULL;
	s = jsschema_compile(v, uri, jo, err, sizeof(err));
	e = errno == ELIBACC ? ELIBACC : EINVAL;
	free(uri);
	json_decref(v);
	if (s == NULL) {
		diag_warnx("%s: %s", file, err);
		errno = e;
	}
	return s;
}

/* Reads and compiles a schema (see schema_compile). */
struct jsschema *
jsonresp_schema(const char *file, const char *text, size_t len,
    const struct jsschema_opts *jo)
{
	json_t *v;

	if ((v = schema_json(file, text, len)) == NULL) {
		errno = EINVAL;
		return NULL;
	}
	return schema_compile(file, v, jo);
}

/*
 * The built-in schema compiled, its tree built from the steps compiled
 * in (lib/json/jsontree.h), the tree its text gives (t/unit/
 * test_jsonresp holds them equal) at a seventh of the cost of reading
 * the text: a good part of a run on one answer.
 */
struct jsschema *
jsonresp_builtin_schema(const struct jsschema_opts *jo)
{
	json_t *v;

	if ((v = jsontree_build(embed_llm_response_schema_tree,
	    embed_llm_response_schema_tree_len)) == NULL)
		xalloc_die();
	return schema_compile(JSONRESP_SCHEMA_NAME, v, jo);
}

/* The schema's text, where the lint's findings are placed. */
struct lintat {
	struct src		 src;
	struct jsonx_locator	 loc;
	size_t			 top;
	enum diag_severity	 sev;
	const struct jsonresp_lint *opts;
	size_t			 n;	/* the findings said */
};

/* Whether --keyword declared the keyword name (its lists split at commas). */
static int
declared(const struct jsonresp_lint *o, const char *name)
{
	size_t i, len = strlen(name);
	const char *p, *e;

	for (i = 0; i < o->nkeywords; i++)
		for (p = o->keywords[i]; ; p = e + 1) {
			if ((e = strchr(p, ',')) == NULL)
				e = p + strlen(p);
			if ((size_t)(e - p) == len && memcmp(p, name, len) == 0)
				return 1;
			if (*e == '\0')
				break;
		}
	return 0;
}

/*
 * The offset of the key whose value is at off, found back over the colon
 * and the key's quotes; off itself when the text there is not so.
 */
static size_t
key_offset(const char *s, size_t off)
{
	size_t i = off, n;

	while (i > 0 && strchr(" \t\r\n", s[i - 1]) != NULL)
		i--;
	if (i == 0 || s[--i] != ':')
		return off;
	while (i > 0 && strchr(" \t\r\n", s[i - 1]) != NULL)
		i--;
	if (i == 0 || s[--i] != '"')
		return off;
	while (i > 0) {
		i--;
		if (s[i] != '"')
			continue;
		/* a quote after an odd number of backslashes is escaped */
		for (n = 0; n < i && s[i - 1 - n] == '\\'; n++)
			;
		if (n % 2 == 0)
			return i;
	}
	return off;
}

static void
lint_said(void *arg, const struct jsschema_lint *f)
{
	struct lintat *a = arg;
	struct diag_loc loc;
	size_t off;

	if (strcmp(f->rule, "unknown-keyword") == 0 &&
	    declared(a->opts, f->name))
		return;
	a->n++;
	off = jsonx_locate(&a->loc, a->top, f->keyword);
	src_loc(&a->src, key_offset(a->src.s, off), &loc);
	diag_schema(a->sev, &loc, f->rule, f->pointer, f->keyword,
	    f->message);
}

/*
 * The lint of the user's schema js, read from text: each finding a
 * warning at the schema's FILE:LINE:COL, or with o->strict an error; an
 * unknown keyword that o->keywords declares is no finding. How many
 * there were.
 */
size_t
jsonresp_schema_lint(const char *file, const char *text, size_t len,
    const struct jsschema *js, const struct jsonresp_lint *o)
{
	struct lintat a;

	src_init(&a.src, strcmp(file, "-") == 0 ? "<stdin>" : file, text,
	    len);
	jsonx_locator_init(&a.loc, text, len);
	a.top = jsonx_skip_ws(text, len, a.src.start);
	a.sev = o->strict ? DIAG_ERROR : DIAG_WARNING;
	a.opts = o;
	a.n = 0;
	(void)jsschema_lint(js, lint_said, &a);
	jsonx_locator_free(&a.loc);
	return a.n;
}

/*
 * Seed 002's system prompt with the schema in place of {{SCHEMA}}: the
 * template's line ends the schema's last line.
 */
void
jsonresp_prompt(struct buf *b, const char *schema, size_t len)
{
	static const char mark[] = "{{SCHEMA}}";
	const char *tpl = embed_jsonresp_prompt;
	const char *at = strstr(tpl, mark);

	if (at == NULL) {
		buf_adds(b, tpl);
		return;
	}
	buf_add(b, tpl, (size_t)(at - tpl));
	while (len > 0 && schema[len - 1] == '\n')
		len--;
	buf_add(b, schema, len);
	buf_adds(b, at + sizeof(mark) - 1);
}

/*
 * The prompt for a user's schema, read from file: what holds for any
 * schema (one JSON document; no prose and no fence around it, unless
 * find says that the document is looked for in prose), the schema's
 * title and description when its root has them, and the schema as
 * written. Seed 002's rules are not there: they are about its own
 * response format. DIAG_OK, or DIAG_USAGE, said, when the schema is not
 * JSON.
 */
int
jsonresp_user_prompt(struct buf *b, const char *file, const char *schema,
    size_t len, int find)
{
	const char *t, *d;
	json_t *v;

	if ((v = schema_json(file, schema, len)) == NULL)
		return DIAG_USAGE;
	if (find)
		buf_adds(b, "You answer every message with one JSON document "
		    "that follows the JSON\nSchema below exactly. Prose may "
		    "come before or after it: the first\nJSON object or array "
		    "in your answer is the document, so write no other\n"
		    "before it.\n");
	else
		buf_adds(b, "You answer every message with one JSON document, "
		    "and nothing else: no\nprose before or after it, no "
		    "Markdown code fence around it. The document\nmust follow "
		    "the JSON Schema below exactly.\n");
	t = json_string_value(json_object_get(v, "title"));
	d = json_string_value(json_object_get(v, "description"));
	if (t != NULL || d != NULL)
		buf_addc(b, '\n');
	if (t != NULL)
		buf_printf(b, "Title: %s\n", t);
	if (d != NULL)
		buf_printf(b, "Description: %s\n", d);
	buf_adds(b, "\nThe schema:\n\n");
	while (len > 0 && schema[len - 1] == '\n')
		len--;
	buf_add(b, schema, len);
	buf_addc(b, '\n');
	json_decref(v);
	return DIAG_OK;
}
