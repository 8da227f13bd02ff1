/*
 * diag: diagnostics on stderr, in text, JSON lines or GitHub's workflow
 * commands, and status helpers.
 */
#include <errno.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/jsonw.h"
#include "base/utf8.h"
#include "base/xalloc.h"

static const char	*progname = "llmkit";
static enum diag_format	 format;
static int		 quiet;
static unsigned long	 counts[2];

/* What xalloc says when memory runs out: an error like any other. */
_Static_assert(DIAG_TROUBLE == 3, "xalloc_die exits with DIAG_TROUBLE");

static void
diag_oom(void)
{
	diag_warnx("out of memory");
}

void
diag_setprogname(const char *argv0)
{
	const char *p = strrchr(argv0, '/');

	progname = p != NULL ? p + 1 : argv0;
	xalloc_setoom(diag_oom);
}

const char *
diag_progname(void)
{
	return progname;
}

void
diag_setformat(enum diag_format f)
{
	format = f;
}

/* diag_setformat for JSON (on) or text. */
void
diag_setjson(int on)
{
	format = on ? DIAG_FMT_JSON : DIAG_FMT_TEXT;
}

void
diag_setquiet(int on)
{
	quiet = on;
}

unsigned long
diag_count(enum diag_severity sev)
{
	return counts[sev];
}

/* The higher of two statuses, which is the one a tool returns. */
int
diag_max(int a, int b)
{
	return a > b ? a : b;
}

/*
 * Appends s[0..n) fit for a terminal and for JSON: each byte that is not
 * part of a UTF-8 character becomes U+FFFD; each control character (C0,
 * DEL, C1) is written as JSON writes it (\n, \t, \u001b, \u007f, \u0085);
 * with flags, a backslash and a double quote are escaped too (both make
 * the inside of a JSON string). DIAG_ESC_PERCENT writes %, CR and LF as a
 * GitHub workflow command's data needs them (%25, %0D, %0A, which GitHub
 * turns back into the characters), and DIAG_ESC_PROPERTY also : and , as
 * its property values do (%3A, %2C).
 */
void
diag_escape(struct buf *b, const char *s, size_t n, int flags)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0, len;
	uint32_t cp;

	while (i < n) {
		if ((len = utf8_decode(s + i, n - i, &cp)) == 0) {
			buf_add(b, "\xEF\xBF\xBD", 3);
			i++;
			continue;
		}
		if ((flags & DIAG_ESC_PERCENT) && (cp == '%' || cp == '\r' ||
		    cp == '\n' || ((flags & DIAG_ESC_PROPERTY) &&
		    (cp == ':' || cp == ','))))
			buf_printf(b, "%%%02X", (unsigned)cp);
		else if (cp == '\\' && (flags & DIAG_ESC_BACKSLASH))
			buf_add(b, "\\\\", 2);
		else if (cp == '"' && (flags & DIAG_ESC_QUOTE))
			buf_add(b, "\\\"", 2);
		else if (cp == '\n')
			buf_add(b, "\\n", 2);
		else if (cp == '\t')
			buf_add(b, "\\t", 2);
		else if (cp == '\r')
			buf_add(b, "\\r", 2);
		else if (cp == '\b')
			buf_add(b, "\\b", 2);
		else if (cp == '\f')
			buf_add(b, "\\f", 2);
		else if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0)) {
			buf_add(b, "\\u00", 4);
			buf_addc(b, hex[cp >> 4]);
			buf_addc(b, hex[cp & 0xF]);
		} else
			buf_add(b, s + i, len);
		i += len;
	}
}

/* A JSON string member: ,"name":"value" with value escaped. */
static void
member(struct buf *b, const char *name, const char *s, size_t n)
{
	buf_printf(b, ",\"%s\":\"", name);
	diag_escape(b, s, n, DIAG_ESC_JSON);
	buf_addc(b, '"');
}

/*
 * The --errors=json object of an item, without a newline: file, line,
 * column, severity, rule, message, then path and keywordLocation when
 * the item has them.
 */
void
diag_item_json(struct buf *b, const char *file, const struct diag_item *it)
{
	const char *msg = it->message != NULL ? it->message : "";

	buf_adds(b, "{\"file\":\"");
	diag_escape(b, file, strlen(file), DIAG_ESC_JSON);
	buf_printf(b, "\",\"line\":%lu,\"column\":%lu,\"severity\":\"%s\"",
	    it->line, it->col, it->severity == DIAG_ERROR ? "error" :
	    "warning");
	member(b, "rule", it->rule, strlen(it->rule));
	member(b, "message", msg, strlen(msg));
	if (it->path != NULL)
		member(b, "path", it->path, strlen(it->path));
	if (it->keyword != NULL)
		member(b, "keywordLocation", it->keyword, strlen(it->keyword));
	buf_addc(b, '}');
}

/*
 * The message of an item as the line form shows it: "[PATH: ]MESSAGE",
 * the path there when the item asks for it (prefix), a backslash in it
 * written \\; both escaped by diag_escape with flags.
 */
void
diag_item_message(struct buf *b, const struct diag_item *it, int flags)
{
	const char *msg = it->message != NULL ? it->message : "";

	if (it->prefix && it->path != NULL && *it->path != '\0') {
		diag_escape(b, it->path, strlen(it->path),
		    flags | DIAG_ESC_BACKSLASH);
		buf_adds(b, ": ");
	}
	diag_escape(b, msg, strlen(msg), flags);
}

/*
 * The line form of an item, without a newline:
 * "FILE:LINE:COL: error: [PATH: ]MESSAGE", a backslash in the file
 * written \\ too.
 */
void
diag_item_text(struct buf *b, const char *file, const struct diag_item *it)
{
	diag_escape(b, file, strlen(file), DIAG_ESC_BACKSLASH);
	buf_printf(b, ":%lu:%lu: %s: ", it->line, it->col,
	    it->severity == DIAG_ERROR ? "error" : "warning");
	diag_item_message(b, it, 0);
}

/*
 * The --errors=github form of an item, without a newline: a GitHub
 * Actions workflow command, "::error file=F,line=L,col=C,title=RULE::M"
 * (::warning for a warning), which a runner turns into an annotation on
 * the file's line. M is the line form's message, the path before it as
 * there; %, CR and LF are escaped everywhere as GitHub documents, and :
 * and , in the properties, so that the file is named exactly (GitHub
 * undoes the escapes); any other control character is written as
 * diag_escape writes it, as in the line form.
 */
void
diag_item_github(struct buf *b, const char *file, const struct diag_item *it)
{
	const int prop = DIAG_ESC_PERCENT | DIAG_ESC_PROPERTY;

	buf_printf(b, "::%s file=", it->severity == DIAG_ERROR ? "error" :
	    "warning");
	diag_escape(b, file, strlen(file), prop);
	buf_printf(b, ",line=%lu,col=%lu,title=", it->line, it->col);
	diag_escape(b, it->rule, strlen(it->rule), prop);
	buf_adds(b, "::");
	diag_item_message(b, it, DIAG_ESC_PERCENT);
}

/*
 * Reports a problem in input data. The rule is a short stable name
 * ("json-syntax", "missing-field") shown only in JSON mode and as the
 * title of a GitHub annotation. The whole line is built first so that it
 * reaches stderr in one write.
 * Whatever comes from the input (the file name, the paths, and as a
 * safeguard the message) is escaped with diag_escape: no control
 * character or invalid UTF-8 reaches the terminal, and every line of
 * --errors=json is valid JSON. The JSON form never repeats the location
 * in the message: the path is a member of its own.
 */
void
diag_item(const char *file, const struct diag_item *it)
{
	struct buf line = BUF_INIT;

	counts[it->severity]++;
	if (quiet)
		return;
	if (format == DIAG_FMT_JSON)
		diag_item_json(&line, file, it);
	else if (format == DIAG_FMT_GITHUB)
		diag_item_github(&line, file, it);
	else
		diag_item_text(&line, file, it);
	buf_addc(&line, '\n');
	fwrite(line.data, 1, line.len, stderr);
	buf_free(&line);
}

void
diag_at(enum diag_severity sev, const struct diag_loc *loc, const char *rule,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vat(sev, loc, rule, fmt, ap);
	va_end(ap);
}

/* diag_at with its arguments in a va_list. */
void
diag_vat(enum diag_severity sev, const struct diag_loc *loc, const char *rule,
    const char *fmt, va_list ap)
{
	struct diag_item it;
	struct buf msg = BUF_INIT;

	buf_vprintf(&msg, fmt, ap);
	memset(&it, 0, sizeof(it));
	it.severity = sev;
	it.line = loc->line;
	it.col = loc->col;
	it.rule = rule;
	it.path = loc->path;
	it.message = buf_cstr(&msg);
	diag_item(loc->file, &it);
	buf_free(&msg);
}

/*
 * A JSON Schema error: the line form puts the instance's JSON Pointer
 * before the message; the JSON form has it as path, beside the schema's
 * keywordLocation.
 */
void
diag_schema(enum diag_severity sev, const struct diag_loc *loc,
    const char *rule, const char *instance, const char *keyword,
    const char *msg)
{
	struct diag_item it;

	memset(&it, 0, sizeof(it));
	it.severity = sev;
	it.line = loc->line;
	it.col = loc->col;
	it.rule = rule;
	it.path = instance;
	it.keyword = keyword;
	it.message = msg;
	it.prefix = 1;
	diag_item(loc->file, &it);
}

static char *
dup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

/*
 * Adds a diagnostic to a list, the strings copied; returns it, so that
 * the caller may set prefix or keyword.
 */
struct diag_item *
diag_list_add(struct diag_list *l, enum diag_severity sev, unsigned long line,
    unsigned long col, const char *rule, const char *path, const char *fmt,
    ...)
{
	struct diag_item *it;
	struct buf msg = BUF_INIT;
	va_list ap;

	if (l->n == l->cap) {
		l->cap = l->cap < 8 ? 8 : l->cap * 2;
		l->v = xreallocarray(l->v, l->cap, sizeof(*l->v));
	}
	va_start(ap, fmt);
	buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	it = &l->v[l->n++];
	memset(it, 0, sizeof(*it));
	it->severity = sev;
	it->line = line;
	it->col = col;
	it->rule = xstrdup(rule);
	it->path = dup_or_null(path);
	it->message = xstrdup(buf_cstr(&msg));
	buf_free(&msg);
	return it;
}

/* Puts the list in document order; items at one place keep their order. */
void
diag_list_sort(struct diag_list *l)
{
	struct diag_item *tmp;
	size_t i, j;

	if (l->n < 2)
		return;
	/* insertion sort: stable, and a list is nearly in order */
	tmp = xmalloc(sizeof(*tmp));
	for (i = 1; i < l->n; i++) {
		*tmp = l->v[i];
		for (j = i; j > 0 && (l->v[j - 1].line > tmp->line ||
		    (l->v[j - 1].line == tmp->line &&
		    l->v[j - 1].col > tmp->col)); j--)
			l->v[j] = l->v[j - 1];
		l->v[j] = *tmp;
	}
	free(tmp);
}

void
diag_list_print(const struct diag_list *l, const char *file)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		diag_item(file, &l->v[i]);
}

/* Empties the list (its room is kept for the next document). */
void
diag_list_clear(struct diag_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free((char *)l->v[i].rule);
		free((char *)l->v[i].path);
		free((char *)l->v[i].keyword);
		free((char *)l->v[i].message);
	}
	l->n = 0;
}

void
diag_list_free(struct diag_list *l)
{
	diag_list_clear(l);
	free(l->v);
	l->v = NULL;
	l->cap = 0;
}

/*
 * A piece of input fit to quote in a one-line message: JSON string syntax
 * (so control characters and newlines show as escapes), cut after a whole
 * character with "..." inside the quotes when it would not fit in
 * out[size]. Returns out.
 */
const char *
diag_quote(char *out, size_t size, const char *s, size_t n)
{
	struct buf q = BUF_INIT, one = BUF_INIT;
	size_t i = 0, len;
	uint32_t cp;

	if (size < 6) {		/* room for "..." at least */
		if (size > 0)
			out[0] = '\0';
		return out;
	}
	jsonw_string(&q, s, n);
	if (q.len < size) {	/* it all fits */
		memcpy(out, buf_cstr(&q), q.len + 1);
		buf_free(&q);
		return out;
	}
	buf_reset(&q);
	buf_addc(&q, '"');
	while (i < n) {
		if ((len = utf8_decode(s + i, n - i, &cp)) == 0)
			len = 1;
		buf_reset(&one);
		jsonw_string(&one, s + i, len);
		/* what fits: the text so far, this character, a quote, NUL;
		 * or, when more is to come, "..." in place of the rest */
		if (q.len + one.len - 2 + (i + len < n ? 5 : 2) > size)
			break;
		buf_add(&q, one.data + 1, one.len - 2);
		i += len;
	}
	if (i < n)
		buf_add(&q, "...", 3);
	buf_addc(&q, '"');
	memcpy(out, q.data, q.len);
	out[q.len] = '\0';
	buf_free(&q);
	buf_free(&one);
	return out;
}

static void vwarn(int, const char *, va_list)
	__attribute__((format(printf, 2, 0)));

static void
vwarn(int errnum, const char *fmt, va_list ap)
{
	struct buf msg = BUF_INIT, line = BUF_INIT;

	/* file names and arguments in it: no raw control characters */
	buf_vprintf(&msg, fmt, ap);
	if (errnum >= 0)
		buf_printf(&msg, ": %s", strerror(errnum));
	buf_printf(&line, "%s: ", progname);
	diag_escape(&line, msg.data != NULL ? msg.data : "", msg.len, 0);
	buf_addc(&line, '\n');
	fwrite(line.data, 1, line.len, stderr);
	buf_free(&msg);
	buf_free(&line);
}

/* "tool: message", about the system or the command line. */
void
diag_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(-1, fmt, ap);
	va_end(ap);
}

/* "tool: message: strerror(errno)". */
void
diag_warn(const char *fmt, ...)
{
	int errnum = errno;
	va_list ap;

	va_start(ap, fmt);
	vwarn(errnum, fmt, ap);
	va_end(ap);
}
