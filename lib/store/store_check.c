/*
 * store: the checks of an object's fields that import makes before it
 * stores one and fsck makes on what is stored.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include <jansson.h>
#include <sqlite3.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/jsonw.h"
#include "base/utf8.h"
#include "contract/llmr.h"
#include "json/jsonx.h"
#include "store/store_int.h"

void
store_check_free(struct check *c)
{
	buf_free(&c->obj);
	buf_free(&c->tmp);
	buf_free(&c->quoted);
	llmr_free(c->v);
}

void
store_flaw(struct check *c, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	struct diag_loc loc = { c->file, c->line, 1, NULL };
	va_list ap;

	buf_add(&b, c->obj.data, c->obj.len);
	buf_adds(&b, ": ");
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	if (c->file != NULL)
		diag_at(DIAG_ERROR, &loc, "import", "%s", buf_cstr(&b));
	else {
		diag_warnx("%s: fsck: %s", c->s->path, buf_cstr(&b));
		(*c->problems)++;
	}
	buf_free(&b);
	c->flaws++;
}

/* Text quoted for a message (store_quote), valid until the next call. */
static const char *
cq(struct check *c, const char *p, size_t n)
{
	buf_reset(&c->quoted);
	store_quote(&c->quoted, p, n);
	return buf_cstr(&c->quoted);
}

/* Sets the words of the object: what, and its name quoted. */
void
store_check_obj(struct check *c, const char *what, const char *name, size_t n,
    const char *after)
{
	buf_reset(&c->obj);
	buf_adds(&c->obj, what);
	if (name != NULL) {
		buf_addc(&c->obj, ' ');
		store_quote(&c->obj, name, n);
	}
	buf_adds(&c->obj, after);
}

/* Whether p is a SHA-256 in hex, as the store writes hashes. */
int
store_is_hash(const char *p, size_t n)
{
	return n == SHA256_HEX - 1 && strspn(p, "0123456789abcdef") == n;
}

/* Text: valid UTF-8 without NUL (an import's strings always are). */
static void
check_text(struct check *c, const char *field, const char *p, size_t n)
{
	if (utf8_valid(p, n) != n)
		store_flaw(c, "%s is not valid UTF-8", field);
	else if (memchr(p, '\0', n) != NULL)
		store_flaw(c, "%s holds a NUL byte", field);
}

/* A topic, message id or model (any text, not empty), or with normal
 * set a subject name or term, which must be as store_normalize makes it. */
void
store_check_name(struct check *c, const char *field, const char *p, size_t n,
    int normal)
{
	size_t i, len;
	uint32_t cp;
	int flaws = c->flaws;

	if (n == 0) {
		store_flaw(c, "%s is empty", field);
		return;
	}
	check_text(c, field, p, n);
	if (!normal || c->flaws > flaws)
		return;
	/* a name from an XML attribute, as context hands it to llmq-encode */
	for (i = 0; i < n; i += len) {
		if ((len = utf8_decode(p + i, n - i, &cp)) == 0)
			len = 1;
		else if ((cp < 0x20 && cp != '\t' && cp != '\n' &&
		    cp != '\r') || cp == 0xFFFE || cp == 0xFFFF) {
			store_flaw(c,
			    "%s %s holds U+%04X, which XML cannot hold", field,
			    cq(c, p, n), (unsigned)cp);
			return;
		}
	}
	store_normalize(&c->tmp, p, n);
	if (c->tmp.len != n || memcmp(c->tmp.data, p, n) != 0) {
		struct buf want = BUF_INIT;

		store_quote(&want, c->tmp.data, c->tmp.len);
		store_flaw(c, "%s %s is not normalised (%s)", field,
		    cq(c, p, n), buf_cstr(&want));
		buf_free(&want);
	}
}

static void
check_range(struct check *c, const char *field, long long v, long long lo,
    long long hi)
{
	if (v < lo || v > hi)
		store_flaw(c, "%s %lld is outside %lld-%lld", field, v, lo, hi);
}

static void
check_time(struct check *c, const char *field, long long v)
{
	check_range(c, field, v, 0, STORE_TIME_MAX);
}

static void
check_seq(struct check *c, const char *field, long long seq, long long pos)
{
	check_range(c, field, seq, 1, STORE_SEQ_MAX);
	if (pos >= 0)
		check_range(c, "lastPos", pos, 0, STORE_PLACES - 1);
}

/* A sourceXmlHash or xmlBlob, which may be missing (NULL). */
void
store_check_hash(struct check *c, const char *field, const char *p, size_t n)
{
	if (p != NULL && !store_is_hash(p, n))
		store_flaw(c,
		    "%s %s is not a SHA-256 hash (64 lowercase hexadecimal "
		    "digits)",
		    field, cq(c, p, n));
}

static void
check_score(struct check *c, double v)
{
	struct buf num = BUF_INIT;

	if (!(v >= 0 && v <= 1)) {
		jsonw_number(&num, v);
		store_flaw(c, "score %s is outside 0.0-1.0", buf_cstr(&num));
	}
	buf_free(&num);
}

/* The XML of an attachment: a valid document of its format, as put
 * takes it; the first error is told. */
static void
check_xml(struct check *c, const char *xml, size_t n, const char *format)
{
	const struct diag_item *d;
	struct llmr_opts opts;
	size_t nd, i;
	int query = strcmp(format, "llm-query") == 0;

	if (strcmp(format, "llm-query") != 0 &&
	    strcmp(format, "llm-response") != 0)
		return;
	if (c->v == NULL)
		c->v = llmr_new();
	memset(&opts, 0, sizeof(opts));
	opts.file = "xml";
	opts.type = query ? LLMR_QUERY : LLMR_RESPONSE;
	if (llmr_check(c->v, xml, n, &opts) == DIAG_OK &&
	    llmr_doc(c->v) != NULL)
		return;
	d = llmr_diags(c->v, &nd);
	for (i = 0; i < nd && d[i].severity != DIAG_ERROR; i++)
		continue;
	if (i == nd)
		store_flaw(c, "its XML is not a valid %s document", query ?
		    "<llmQuery>" : "<llmResponse>");
	else
		store_flaw(c,
		    "its XML is not a valid %s document: %lu:%lu: %s%s%s",
		    query ? "<llmQuery>" : "<llmResponse>", d[i].line, d[i].col,
		    d[i].path != NULL ? d[i].path : "",
		    d[i].path != NULL ? ": " : "", d[i].message);
}

/* A summary's update: what put keeps of a summaryUpdate, trimmed. */
static void
check_update(struct check *c, const char *p, size_t n)
{
	if (n == 0)
		store_flaw(c, "update is empty");
	else if (strchr(" \t\r\n", p[0]) != NULL ||
	    strchr(" \t\r\n", p[n - 1]) != NULL)
		store_flaw(c, "update is not trimmed of white space");
	else
		check_text(c, "update", p, n);
}

void
store_check_attachment(struct check *c, const char *topic, size_t tn,
    const char *message, size_t mn, long long created, long long seq,
    const char *xml, size_t xn, const char *format)
{
	store_check_name(c, "topicId", topic, tn, 0);
	store_check_name(c, "messageId", message, mn, 0);
	check_time(c, "createdAt", created);
	check_seq(c, "seq", seq, -1);
	if (xml != NULL)
		check_xml(c, xml, xn, format);
}

void
store_check_keyword(struct check *c, const char *topic, size_t tn,
    const char *term, size_t kn, long long freq, const double *score,
    long long created, long long seen, const char *src, size_t sn,
    long long seq, long long pos)
{
	store_check_name(c, "topicId", topic, tn, 0);
	store_check_name(c, "term", term, kn, 1);
	check_range(c, "frequency", freq, 1, STORE_COUNT_MAX);
	if (score != NULL)
		check_score(c, *score);
	check_time(c, "createdAt", created);
	check_time(c, "lastSeen", seen);
	store_check_hash(c, "sourceXmlHash", src, sn);
	check_seq(c, "lastSeq", seq, pos);
}

void
store_check_subject(struct check *c, const char *topic, size_t tn,
    const char *id, size_t in, const char *desc, size_t dn, long long count,
    long long created, long long seen, const char *src, size_t sn,
    long long seq, long long pos)
{
	store_check_name(c, "topic", topic, tn, 0);
	store_check_name(c, "id", id, in, 1);
	check_text(c, "description", desc, dn);
	check_range(c, "messageCount", count, 1, STORE_COUNT_MAX);
	check_time(c, "createdAt", created);
	check_time(c, "lastSeenAt", seen);
	store_check_hash(c, "sourceXmlHash", src, sn);
	check_seq(c, "lastSeq", seq, pos);
}

void
store_check_time_range(struct check *c, long long start, long long end)
{
	check_time(c, "time range start", start);
	check_time(c, "time range end", end);
	if (start > end)
		store_flaw(c, "time range %lld-%lld ends before it starts",
		    start, end);
}

void
store_check_summary(struct check *c, const char *topic, size_t tn, long long v,
    const char *update, size_t un, long long created, long long updated,
    const char *reason, size_t rn, const char *src, size_t sn)
{
	store_check_name(c, "topic", topic, tn, 0);
	check_range(c, "version", v, 1, STORE_SEQ_MAX);
	check_update(c, update, un);
	check_time(c, "createdAt", created);
	check_time(c, "updatedAt", updated);
	if (reason != NULL)
		check_text(c, "changeReason", reason, rn);
	store_check_hash(c, "sourceXmlHash", src, sn);
}

void
store_check_template(struct check *c, const char *model, size_t mn,
    const char *text, size_t n, long long v, long long xv, long long created,
    long long updated)
{
	store_check_name(c, "modelId", model, mn, 0);
	if (n == 0)
		store_flaw(c, "promptText is empty");
	else
		check_text(c, "promptText", text, n);
	check_range(c, "version", v, 1, STORE_SEQ_MAX);
	check_range(c, "xmlSchemaVersion", xv, 1, LLONG_MAX);
	check_time(c, "createdAt", created);
	check_time(c, "updatedAt", updated);
}

/* The names of a JSON array (a summary's subjects or keywords, stored). */
void
store_check_name_array(struct check *c, const char *field, const char *text,
    size_t n)
{
	json_t *a = jsonx_load(text, n, 0, NULL), *v;
	size_t i;

	if (!json_is_array(a)) {
		store_flaw(c, "%s is not a JSON array", field);
		json_decref(a);
		return;
	}
	json_array_foreach(a, i, v) {
		if (!json_is_string(v)) {
			store_flaw(c, "%s is not an array of strings", field);
			break;
		}
		store_check_name(c, field, json_string_value(v),
		    json_string_length(v), 1);
	}
	json_decref(a);
}

