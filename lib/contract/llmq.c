/* llmq: <llmQuery> documents: their parts, the contract's checks, writing. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/jsonw.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "contract/contract.h"
#include "contract/llmq.h"
#include "json/jsonx.h"
#include "xml/xmlesc.h"

/* The members of a context object, and their pointers alone or in a line. */
enum { M_TOPIC, M_COUNT, M_SUBJECTS, M_KEYWORDS };

static const char *const member[] = {
	"topicId", "messageCount", "activeSubjects", "recentKeywords"
};
static const char *const member_what[] = {
	"\"topicId\"", "\"messageCount\"", "\"activeSubjects\"",
	"\"recentKeywords\""
};
static const char *const member_path[2][4] = {
	{ "/topicId", "/messageCount", "/activeSubjects", "/recentKeywords" },
	{ "/context/topicId", "/context/messageCount",
	  "/context/activeSubjects", "/context/recentKeywords" }
};

void
llmq_init(struct llmq *q)
{
	memset(q, 0, sizeof(*q));
	q->no_topic = "";
}

static void
list_free(struct llmq_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->item[i]);
	free(l->item);
	free(l->len);
	memset(l, 0, sizeof(*l));
}

void
llmq_free(struct llmq *q)
{
	free(q->message.s);
	free(q->topic.s);
	list_free(&q->subjects);
	list_free(&q->keywords);
	llmq_init(q);
}

/*
 * Reports an error about a value: at byte at of it when it is raw text of
 * an input, at its start in any other input, and as a "tool: message"
 * line when it came from the command line.
 */
static void
report(const struct llmq_src *src, size_t at, const char *rule,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
report(const struct llmq_src *src, size_t at, const char *rule,
    const char *fmt, ...)
{
	struct diag_loc loc;
	struct buf msg = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	if (src->in == NULL)
		diag_warnx("%s", buf_cstr(&msg));
	else {
		src_loc(&src->in->src, src->off + (src->raw ? at : 0), &loc);
		loc.path = src->path;
		diag_at(DIAG_ERROR, &loc, rule, "%s", buf_cstr(&msg));
	}
	buf_free(&msg);
}

/*
 * How messages name a value, into name (emptied first): its what, then on
 * the command line the value quoted (when quote is set and src's too), or
 * else the number of the argument.
 */
static const char *
name_of(const struct llmq_src *src, int quote, const char *s, size_t n,
    struct buf *name)
{
	char q[80];

	buf_reset(name);
	if (src->in == NULL && src->quote && quote)
		buf_printf(name, "%s %s", src->what,
		    diag_quote(q, sizeof(q), s, n));
	else if (src->in == NULL && src->argn > 0)
		buf_printf(name, "%s (argument %d)", src->what, src->argn);
	else
		buf_adds(name, src->what);
	return buf_cstr(name);
}

/*
 * Whether s is UTF-8 that XML 1.0 can hold: 0, or -1 when it is not, the
 * first problem reported (invalid UTF-8 with its byte offset; a character
 * XML forbids: a C0 control other than tab, newline and carriage return,
 * U+FFFE, U+FFFF).
 */
int
llmq_check_text(const char *s, size_t n, const struct llmq_src *src)
{
	const unsigned char *u = (const unsigned char *)s;
	struct buf name = BUF_INIT;
	size_t i = 0, len;
	uint32_t cp;

	while (i < n) {
		if (u[i] >= 0x20 && u[i] < 0x80) {
			i++;
			continue;
		}
		if ((len = utf8_decode(s + i, n - i, &cp)) == 0) {
			if (src->in != NULL && src->raw)
				report(src, i, "utf8", "invalid UTF-8: byte "
				    "0x%02x at byte offset %zu", u[i],
				    src->in->base + src->off + i);
			else
				report(src, i, "utf8", "%s is not valid UTF-8: "
				    "byte 0x%02x at byte offset %zu",
				    name_of(src, 0, s, n, &name), u[i], i);
			break;
		}
		if (!xmlesc_allowed(cp)) {
			report(src, i, "xml-char", "%s holds U+%04X, a "
			    "character XML 1.0 forbids",
			    name_of(src, 1, s, n, &name), (unsigned)cp);
			break;
		}
		i += len;
	}
	buf_free(&name);
	return i < n ? -1 : 0;
}

/* The length of the white space character at s (JavaScript's trim()), or 0. */
static size_t
space_at(const char *s, size_t n)
{
	uint32_t cp;
	size_t len;

	if ((len = utf8_decode(s, n, &cp)) == 0)
		return 0;
	switch (cp) {
	case 0x09: case 0x0A: case 0x0B: case 0x0C: case 0x0D: case 0x20:
	case 0xA0: case 0x1680: case 0x2028: case 0x2029: case 0x202F:
	case 0x205F: case 0x3000: case 0xFEFF:
		return len;
	}
	return cp >= 0x2000 && cp <= 0x200A ? len : 0;
}

/*
 * Where s (n bytes of UTF-8) starts without the white space around it,
 * white space as JavaScript's String.prototype.trim() sees it (tab, line
 * feed, vertical tab, form feed, carriage return, the space separators
 * of Unicode, U+2028, U+2029, U+FEFF); *len gets what is left.
 */
size_t
llmq_trim(const char *s, size_t n, size_t *len)
{
	size_t a = 0, b = n, c, k;

	while (a < n && (k = space_at(s + a, n - a)) > 0)
		a += k;
	while (b > a) {
		for (c = b - 1; c > a && ((unsigned char)s[c] & 0xC0) == 0x80;
		    c--)
			;
		if (space_at(s + c, b - c) != b - c)
			break;
		b = c;
	}
	*len = b - a;
	return a;
}

/* Sets a text part to a copy of s; src is where it came from. */
void
llmq_set_text(struct llmq_text *t, const char *s, size_t n,
    const struct llmq_src *src)
{
	free(t->s);
	t->s = xmalloc(n + 1);
	if (n > 0)
		memcpy(t->s, s, n);
	t->s[n] = '\0';
	t->len = n;
	t->src = *src;
}

/*
 * Sets the count from a command-line argument: decimal digits only, no
 * sign or space, at most CONTRACT_COUNT_MAX. Returns 0, or -1 (reported).
 */
int
llmq_set_count(struct llmq *q, const char *arg, const struct llmq_src *src)
{
	unsigned long long v = 0;
	struct buf name = BUF_INIT;
	char *end = NULL;
	size_t n = strlen(arg);
	int r = -1;

	if (llmq_check_text(arg, n, src) != 0)
		return -1;
	name_of(src, 1, arg, n, &name);
	if (arg[0] >= '0' && arg[0] <= '9') {
		errno = 0;
		v = strtoull(arg, &end, 10);
	}
	if (end == NULL || *end != '\0')
		report(src, 0, "bad-count", "%s is not a non-negative integer",
		    buf_cstr(&name));
	else if (errno == ERANGE || v > CONTRACT_COUNT_MAX)
		report(src, 0, "bad-count", "%s is more than %llu",
		    buf_cstr(&name), CONTRACT_COUNT_MAX);
	else {
		q->count = v;
		q->count_set = 1;
		q->count_src = *src;
		r = 0;
	}
	buf_free(&name);
	return r;
}

static void
list_push(struct llmq_list *l, const char *s, size_t n)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 8;
		l->item = xreallocarray(l->item, l->cap, sizeof(*l->item));
		l->len = xreallocarray(l->len, l->cap, sizeof(*l->len));
	}
	l->item[l->n] = xmalloc(n + 1);
	memcpy(l->item[l->n], s, n);
	l->item[l->n][n] = '\0';
	l->len[l->n] = n;
	l->n++;
}

/*
 * Adds one item to a list, trimmed of white space. Returns 0, or -1
 * (reported) when it is not text XML can hold, is empty or white space
 * only, or holds a comma, which would split it in the document.
 */
int
llmq_add_item(struct llmq_list *l, const char *s, size_t n,
    const struct llmq_src *src)
{
	struct buf name = BUF_INIT;
	const char *comma;
	size_t start, len;
	int r = -1;

	l->set = 1;
	if (llmq_check_text(s, n, src) != 0)
		return -1;
	name_of(src, 1, s, n, &name);
	start = llmq_trim(s, n, &len);
	if (n == 0)
		report(src, 0, "empty-item", "%s is empty", buf_cstr(&name));
	else if (len == 0)
		report(src, 0, "empty-item", "%s is white space only",
		    buf_cstr(&name));
	else if ((comma = memchr(s + start, ',', len)) != NULL)
		report(src, (size_t)(comma - s), "item-comma",
		    "%s contains a comma", buf_cstr(&name));
	else {
		list_push(l, s + start, len);
		r = 0;
	}
	buf_free(&name);
	return r;
}

/*
 * Adds the items of a comma-separated list, each trimmed. A list that is
 * empty or white space only has no items (and still sets the list); an
 * item that is empty, as in "a,,b" or "a,", is an error. Returns 0, or -1
 * when anything was reported (the good items are added all the same).
 */
int
llmq_add_items(struct llmq_list *l, const char *s, size_t n,
    const struct llmq_src *src)
{
	struct buf name = BUF_INIT;
	const char *comma;
	size_t start, len, at = 0, piece, k = 1;
	int bad = 0;

	l->set = 1;
	if (llmq_check_text(s, n, src) != 0)
		return -1;
	llmq_trim(s, n, &len);
	if (len == 0)
		return 0;
	name_of(src, 1, s, n, &name);
	for (;; k++) {
		comma = memchr(s + at, ',', n - at);
		piece = comma != NULL ? (size_t)(comma - (s + at)) : n - at;
		start = at + llmq_trim(s + at, piece, &len);
		if (len == 0) {
			report(src, at, "empty-item", "item %zu of %s is empty",
			    k, buf_cstr(&name));
			bad = 1;
		} else
			list_push(l, s + start, len);
		if (comma == NULL)
			break;
		at += piece + 1;
	}
	buf_free(&name);
	return bad ? -1 : 0;
}

/* A member of a JSON object, reported at its value when mistyped. */
static void
mistyped(struct llmq_input *in, size_t at, const char *path,
    const char *what, const char *want, const json_t *v)
{
	struct llmq_src src = { in, at, 0, what, path, 0, 0 };

	report(&src, 0, "field-type", "%s must be %s, found %s", what, want,
	    jsonx_typename(v));
}

/* The count from a JSON number: an integer from 0 to CONTRACT_COUNT_MAX. */
static int
json_count(struct llmq *q, const json_t *v, const struct llmq_src *src)
{
	struct buf num = BUF_INIT;
	double d = json_number_value(v);
	int r = 0;

	jsonw_number(&num, d);
	if (d < 0 || d != floor(d)) {
		report(src, 0, "bad-count", "%s %s is not a non-negative "
		    "integer", src->what, buf_cstr(&num));
		r = -1;
	} else if (d > (double)CONTRACT_COUNT_MAX) {
		report(src, 0, "bad-count", "%s %s is more than %llu",
		    src->what, buf_cstr(&num), CONTRACT_COUNT_MAX);
		r = -1;
	} else {
		q->count = (unsigned long long)d;
		q->count_set = 1;
		q->count_src = *src;
	}
	buf_free(&num);
	return r;
}

/* A list member: an array of strings, each an item. */
static int
json_list(struct llmq_list *l, struct llmq_input *in, size_t at,
    int m, int nested, const json_t *v)
{
	struct llmq_src src = { in, at, 0, member_what[m],
	    member_path[nested][m], 0, 0 };
	char what[96], path[96];
	const json_t *e;
	size_t i;
	int bad = 0;

	if (!json_is_array(v)) {
		mistyped(in, at, src.path, src.what, "an array", v);
		return -1;
	}
	l->set = 1;
	l->src = src;
	for (i = 0; i < json_array_size(v); i++) {
		e = json_array_get(v, i);
		snprintf(what, sizeof(what), "\"%s\" item at index %zu",
		    member[m], i);
		snprintf(path, sizeof(path), "%s/%zu",
		    member_path[nested][m], i);
		src.off = jsonx_element(in->src.s, in->src.n, at, i);
		src.what = what;
		src.path = path;
		if (!json_is_string(e)) {
			mistyped(in, src.off, path, what, "a string", e);
			bad = 1;
		} else if (llmq_add_item(l, json_string_value(e),
		    json_string_length(e), &src) != 0)
			bad = 1;
	}
	return bad ? -1 : 0;
}

/*
 * Reads a context object, the value obj that starts at byte off of in,
 * into q: "topicId" (a string), "messageCount" (a number that is an
 * integer), "activeSubjects" and "recentKeywords" (arrays of strings), all
 * optional; other members are ignored. nested: it is the "context" of a
 * --from-json line, which changes the JSON Pointers. Returns 0, or -1
 * when a problem was reported; then q->no_topic is NULL when the topic
 * could not be read, so that its absence is not reported again.
 */
int
llmq_read_context(struct llmq *q, struct llmq_input *in, size_t off,
    const json_t *obj, int nested)
{
	struct llmq_src src = { in, off, 0, NULL, NULL, 0, 0 };
	const json_t *v;
	size_t at;
	int bad = 0;

	if (!json_is_object(obj)) {
		if (nested)
			mistyped(in, off, "/context", "\"context\"",
			    "an object", obj);
		else {
			src.path = "";
			report(&src, 0, "not-object", "expected an object, "
			    "found %s", jsonx_typename(obj));
		}
		q->no_topic = NULL;
		return -1;
	}
	if ((v = json_object_get(obj, member[M_TOPIC])) != NULL) {
		at = jsonx_member(in->src.s, in->src.n, off, member[M_TOPIC]);
		src.off = at;
		src.what = member_what[M_TOPIC];
		src.path = member_path[nested][M_TOPIC];
		if (json_is_string(v))
			llmq_set_text(&q->topic, json_string_value(v),
			    json_string_length(v), &src);
		else {
			mistyped(in, at, src.path, src.what, "a string", v);
			q->no_topic = NULL;
			bad = 1;
		}
	}
	if ((v = json_object_get(obj, member[M_COUNT])) != NULL) {
		at = jsonx_member(in->src.s, in->src.n, off, member[M_COUNT]);
		src.off = at;
		src.what = member_what[M_COUNT];
		src.path = member_path[nested][M_COUNT];
		if (!json_is_number(v)) {
			mistyped(in, at, src.path, src.what, "a number", v);
			bad = 1;
		} else if (json_count(q, v, &src) != 0)
			bad = 1;
	}
	if ((v = json_object_get(obj, member[M_SUBJECTS])) != NULL &&
	    json_list(&q->subjects, in, jsonx_member(in->src.s, in->src.n, off,
	    member[M_SUBJECTS]), M_SUBJECTS, nested, v) != 0)
		bad = 1;
	if ((v = json_object_get(obj, member[M_KEYWORDS])) != NULL &&
	    json_list(&q->keywords, in, jsonx_member(in->src.s, in->src.n, off,
	    member[M_KEYWORDS]), M_KEYWORDS, nested, v) != 0)
		bad = 1;
	return bad ? -1 : 0;
}

/*
 * Reads one --from-json query, the value v that starts at byte off of in:
 * an object with "userMessage" (a string) and "context" (an object, as
 * llmq_read_context reads it); other members are ignored. Returns 0, or
 * -1 when a problem was reported. The contract is llmq_check's to check.
 */
int
llmq_read_line(struct llmq *q, struct llmq_input *in, size_t off,
    const json_t *v)
{
	struct llmq_src src = { in, off, 0, NULL, "", 0, 0 };
	const json_t *m;
	size_t at;
	int bad = 0;

	q->src = src;
	if (!json_is_object(v)) {
		report(&src, 0, "not-object", "expected an object, found %s",
		    jsonx_typename(v));
		q->no_topic = NULL;
		return -1;
	}
	if ((m = json_object_get(v, "userMessage")) == NULL) {
		report(&src, 0, "missing-field",
		    "missing \"userMessage\" (a string)");
		bad = 1;
	} else {
		at = jsonx_member(in->src.s, in->src.n, off, "userMessage");
		if (!json_is_string(m)) {
			mistyped(in, at, "/userMessage", "\"userMessage\"",
			    "a string", m);
			bad = 1;
		} else {
			src.off = at;
			src.what = "\"userMessage\"";
			src.path = "/userMessage";
			llmq_set_text(&q->message, json_string_value(m),
			    json_string_length(m), &src);
		}
	}
	if ((m = json_object_get(v, "context")) == NULL) {
		q->no_topic = "no \"context\" with a \"topicId\"";
		return bad ? -1 : 0;
	}
	at = jsonx_member(in->src.s, in->src.n, off, "context");
	q->src.off = at;
	q->src.path = "/context";
	q->no_topic = "no \"topicId\" in \"context\"";
	if (llmq_read_context(q, in, at, m, 1) != 0)
		bad = 1;
	return bad ? -1 : 0;
}

static void
list_move(struct llmq_list *to, struct llmq_list *from)
{
	if (to->set || !from->set)
		return;
	list_free(to);
	*to = *from;
	memset(from, 0, sizeof(*from));
}

static void
text_move(struct llmq_text *to, struct llmq_text *from)
{
	if (to->s != NULL || from->s == NULL)
		return;
	*to = *from;
	memset(from, 0, sizeof(*from));
}

/*
 * Fills the parts q lacks with those of from, which are moved, not copied
 * (from keeps what q already had): options over a context file, member by
 * member.
 */
void
llmq_merge(struct llmq *q, struct llmq *from)
{
	text_move(&q->message, &from->message);
	text_move(&q->topic, &from->topic);
	if (!q->count_set && from->count_set) {
		q->count = from->count;
		q->count_set = 1;
		q->count_src = from->count_src;
	}
	list_move(&q->subjects, &from->subjects);
	list_move(&q->keywords, &from->keywords);
}

/* The message or the topic: XML text, not empty nor white space only. */
static int
check_text(const struct llmq_text *t, const char *rule, size_t max)
{
	struct buf name = BUF_INIT;
	size_t len, count = 0, at, i;
	int r = -1;

	if (llmq_check_text(t->s, t->len, &t->src) != 0)
		return -1;
	name_of(&t->src, 1, t->s, t->len, &name);
	llmq_trim(t->s, t->len, &len);
	if (t->len == 0)
		report(&t->src, 0, rule, "%s is empty", buf_cstr(&name));
	else if (len == 0)
		report(&t->src, 0, rule, "%s is white space only",
		    buf_cstr(&name));
	else if (max > 0 && (count = utf8_count(t->s, t->len)) > max) {
		/* at the first character too many */
		for (at = 0, i = 0; at < t->len; at++)
			if (((unsigned char)t->s[at] & 0xC0) != 0x80 &&
			    i++ == max)
				break;
		report(&t->src, at, "message-length", "%s is %zu characters "
		    "long, more than %zu", buf_cstr(&name), count, max);
	} else
		r = 0;
	buf_free(&name);
	return r;
}

static int
check_list(const struct llmq_list *l, const char *noun, const char *rule,
    size_t max)
{
	if (l->n <= max)
		return 0;
	report(&l->src, 0, rule, "too many %s%s%s: %zu, at most %zu", noun,
	    l->src.what != NULL ? " in " : "",
	    l->src.what != NULL ? l->src.what : "", l->n, max);
	return -1;
}

/*
 * Checks q against the contract (seed 000, section 1) and reports every
 * problem. With LLMQ_PARTS, the parts that are set: a message or topic
 * that is not XML text, is empty or white space only, a message over
 * CONTRACT_MESSAGE_MAX characters, too many subjects or keywords. With
 * LLMQ_NEED_TOPIC, no topic at all (unless q->no_topic is NULL). That a
 * message is there is the readers' business. Returns DIAG_OK or
 * DIAG_INVALID.
 */
int
llmq_check(const struct llmq *q, unsigned flags)
{
	int bad = 0;

	if (flags & LLMQ_PARTS) {
		if (q->message.s != NULL && check_text(&q->message,
		    "empty-message", CONTRACT_MESSAGE_MAX) != 0)
			bad = 1;
		if (q->topic.s != NULL &&
		    check_text(&q->topic, "empty-topic", 0) != 0)
			bad = 1;
		if (check_list(&q->subjects, "subjects", "too-many-subjects",
		    CONTRACT_ACTIVE_SUBJECTS_MAX) != 0)
			bad = 1;
		if (check_list(&q->keywords, "keywords", "too-many-keywords",
		    CONTRACT_RECENT_KEYWORDS_MAX) != 0)
			bad = 1;
	}
	if ((flags & LLMQ_NEED_TOPIC) && q->topic.s == NULL &&
	    q->no_topic != NULL) {
		report(&q->src, 0, "no-topic", "no topic%s%s",
		    *q->no_topic != '\0' ? ": " : "", q->no_topic);
		bad = 1;
	}
	return bad ? DIAG_INVALID : DIAG_OK;
}

/*
 * Text escaped for the document: the five special characters as entities
 * (lib/xmlesc); a carriage return always as &#13;, which a parser would
 * otherwise turn into a newline; tab and newline as &#9; and &#10; in an
 * attribute, where a parser would turn them into spaces, and in the
 * one-line form.
 */
static void
put(struct buf *b, const char *s, size_t n, int refs)
{
	size_t i = 0, run;
	char c;

	while (i < n) {
		run = i;
		while (i < n && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			i++;
		xmlesc_append(b, s + run, i - run, XMLESC_QUOTES, NULL);
		if (i == n)
			break;
		c = s[i++];
		if (c == '\r')
			buf_add(b, "&#13;", 5);
		else if (!refs)
			buf_addc(b, c);
		else if (c == '\n')
			buf_add(b, "&#10;", 5);
		else
			buf_add(b, "&#9;", 4);
	}
}

static void
put_list(struct buf *b, const struct llmq_list *l, int refs)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (i > 0)
			buf_add(b, ", ", 2);
		put(b, l->item[i], l->len[i], refs);
	}
}

/* A newline and an indent, in the seed's layout only. */
static void
indent(struct buf *b, int oneline, const char *spaces)
{
	if (!oneline) {
		buf_addc(b, '\n');
		buf_adds(b, spaces);
	}
}

/*
 * Appends the document of a query that llmq_check has passed with
 * LLMQ_NEED_TOPIC, in the layout of the seed's example or, with
 * LLMQ_ONELINE, on one line; a newline ends it either way.
 */
void
llmq_write(const struct llmq *q, struct buf *b, unsigned flags)
{
	int one = (flags & LLMQ_ONELINE) != 0;

	buf_reserve(b, q->message.len + q->topic.len + 256);
	buf_adds(b, "<llmQuery>");
	indent(b, one, "  ");
	buf_adds(b, "<userMessage>");
	put(b, q->message.s, q->message.len, one);
	buf_adds(b, "</userMessage>");
	indent(b, one, "  ");
	buf_adds(b, "<context topicId=\"");
	put(b, q->topic.s, q->topic.len, 1);
	buf_adds(b, "\" messageCount=\"");
	buf_addu(b, q->count);
	buf_adds(b, "\">");
	indent(b, one, "    ");
	buf_adds(b, "<activeSubjects>");
	put_list(b, &q->subjects, one);
	buf_adds(b, "</activeSubjects>");
	indent(b, one, "    ");
	buf_adds(b, "<recentKeywords>");
	put_list(b, &q->keywords, one);
	buf_adds(b, "</recentKeywords>");
	indent(b, one, "  ");
	buf_adds(b, "</context>");
	indent(b, one, "");
	buf_adds(b, "</llmQuery>\n");
}
