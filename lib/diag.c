/* diag: diagnostics on stderr, in text or JSON lines, and status helpers. */
#include <errno.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "jsonw.h"
#include "utf8.h"

static const char	*progname = "llmkit";
static int		 json_mode;
static int		 quiet;
static unsigned long	 counts[2];

void
diag_setprogname(const char *argv0)
{
	const char *p = strrchr(argv0, '/');

	progname = p != NULL ? p + 1 : argv0;
}

const char *
diag_progname(void)
{
	return progname;
}

void
diag_setjson(int on)
{
	json_mode = on;
}

/*
 * The argument of a tool's --errors option: "json" or "text". Returns 0,
 * or -1 after saying what is wrong (the caller then prints its usage).
 */
int
diag_seterrors(const char *arg)
{
	if (strcmp(arg, "json") != 0 && strcmp(arg, "text") != 0) {
		diag_warnx("--errors must be json or text, not \"%s\"", arg);
		return -1;
	}
	diag_setjson(strcmp(arg, "json") == 0);
	return 0;
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
 * Reports a problem in input data. The rule is a short stable name
 * ("json-syntax", "missing-field") shown only in JSON mode, where the
 * whole line is built first so that it reaches stderr in one write.
 */
/* One diagnostic line; instance and keyword, when given, are JSON Pointers. */
static void
emit(enum diag_severity sev, const struct diag_loc *loc, const char *rule,
    const char *instance, const char *keyword, const char *msg, size_t len)
{
	struct buf line = BUF_INIT;
	const char *sevname = sev == DIAG_ERROR ? "error" : "warning";

	counts[sev]++;
	if (quiet)
		return;
	if (json_mode) {
		buf_adds(&line, "{\"file\":");
		jsonw_string(&line, loc->file, strlen(loc->file));
		buf_printf(&line, ",\"line\":%lu,\"column\":%lu,\"severity\":\"%s\"",
		    loc->line, loc->col, sevname);
		buf_adds(&line, ",\"rule\":");
		jsonw_string(&line, rule, strlen(rule));
		if (instance != NULL) {
			buf_adds(&line, ",\"instanceLocation\":");
			jsonw_string(&line, instance, strlen(instance));
			buf_adds(&line, ",\"keywordLocation\":");
			jsonw_string(&line, keyword, strlen(keyword));
		}
		buf_adds(&line, ",\"message\":");
		jsonw_string(&line, msg != NULL ? msg : "", len);
		if (loc->path != NULL) {
			buf_adds(&line, ",\"path\":");
			jsonw_string(&line, loc->path, strlen(loc->path));
		}
		buf_adds(&line, "}\n");
	} else {
		buf_printf(&line, "%s:%lu:%lu: %s: ", loc->file, loc->line,
		    loc->col, sevname);
		if (instance != NULL && *instance != '\0')
			buf_printf(&line, "%s: ", instance);
		buf_add(&line, msg, len);
		buf_addc(&line, '\n');
	}
	fwrite(line.data, 1, line.len, stderr);
	buf_free(&line);
}

void
diag_at(enum diag_severity sev, const struct diag_loc *loc, const char *rule,
    const char *fmt, ...)
{
	struct buf msg = BUF_INIT;
	va_list ap;
	int n;

	va_start(ap, fmt);
	{
		va_list aq;

		va_copy(aq, ap);
		n = vsnprintf(NULL, 0, fmt, aq);
		va_end(aq);
		if (n > 0) {
			buf_reserve(&msg, (size_t)n + 1);
			vsnprintf(msg.data, (size_t)n + 1, fmt, ap);
			msg.len = (size_t)n;
		}
	}
	va_end(ap);
	emit(sev, loc, rule, NULL, NULL, msg.data, msg.len);
	buf_free(&msg);
}

/*
 * A JSON Schema error: the text form puts the instance's JSON Pointer
 * before the message; the JSON form has instanceLocation and
 * keywordLocation members.
 */
void
diag_schema(enum diag_severity sev, const struct diag_loc *loc,
    const char *rule, const char *instance, const char *keyword,
    const char *msg)
{
	emit(sev, loc, rule, instance, keyword, msg, strlen(msg));
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
	fprintf(stderr, "%s: ", progname);
	vfprintf(stderr, fmt, ap);
	if (errnum >= 0)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
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
