/* store: export to JSON lines, and import of what export writes. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sqlite3.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/io.h"
#include "base/sha256.h"
#include "base/utf8.h"
#include "json/jsonx.h"
#include "store/store_int.h"

static int
blob_line(struct store *s, struct buf *b, sqlite3_stmt *q, int export)
{
	const void *data = sqlite3_column_blob(q, 2);

	(void)s;
	(void)export;
	buf_reset(b);
	buf_adds(b, "{\"$type$\":\"BLOB\"");
	store_member_str(b, "hash", q, 0);
	store_member_int(b, "size", q, 1);
	buf_adds(b, ",\"data\":");
	store_jstr(b, data != NULL ? data : "", store_col_len(q, 2));
	buf_adds(b, "}\n");
	return DIAG_OK;
}

static int
attachment_export_line(struct store *s, struct buf *b, sqlite3_stmt *q,
    int export)
{
	struct att a;

	(void)s;
	(void)export;
	buf_reset(b);
	store_att_from_row(&a, q);
	store_att_line(b, &a, store_col_str(q, 0), NULL);
	b->len--;
	buf_printf(b, ",\"seq\":%lld}\n", (long long)sqlite3_column_int64(q,
	    9));
	return DIAG_OK;
}

static int
export_summaries(struct store *s, FILE *out)
{
	struct seen subj = { NULL, NULL }, kw = { NULL, NULL };
	struct buf b = BUF_INIT, topic = BUF_INIT;
	sqlite3_stmt *q;
	int rc, status = DIAG_OK;

	if ((q = store_prepare(s, "SELECT " SUMMARY_COLUMNS " FROM summary"
	    " ORDER BY topic_id, version")) == NULL)
		return DIAG_TROUBLE;
	while (status == DIAG_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (subj.set == NULL || topic.len != store_col_len(q, 0) ||
		    memcmp(topic.data, store_col_str(q, 0), topic.len) != 0) {
			buf_reset(&topic);
			buf_add(&topic, store_col_str(q, 0),
			    store_col_len(q, 0));
			store_seen_reset(&subj);
			store_seen_reset(&kw);
		}
		if ((status = store_summary_line(s, &b, q, &subj, &kw)) ==
		    DIAG_OK)
			status = store_writes(out, &b);
	}
	if (status == DIAG_OK && rc != SQLITE_DONE)
		status = store_db_fail(s);
	sqlite3_finalize(q);
	json_decref(subj.set);
	json_decref(subj.list);
	json_decref(kw.set);
	json_decref(kw.list);
	buf_free(&b);
	buf_free(&topic);
	return status;
}

/* Everything, one JSON object a line, in an order import can read back. */
int
store_export(struct store *s, FILE *out)
{
	static const struct {
		const char	*sql;
		int		(*line)(struct store *, struct buf *,
				    sqlite3_stmt *, int);
	} parts[] = {
		{ "SELECT hash, size, data FROM blob ORDER BY hash", blob_line },
		{ "SELECT " ATT_COLUMNS ", id FROM attachment ORDER BY id",
		    attachment_export_line },
		{ "SELECT " TEMPLATE_COLUMNS " FROM template"
		    " ORDER BY model_id, version", store_template_line },
		{ "SELECT " SUBJECT_COLUMNS " FROM subject"
		    " ORDER BY topic_id, id", store_subject_line },
		{ "SELECT " KEYWORD_COLUMNS " FROM keyword"
		    " ORDER BY topic_id, term", store_keyword_line },
	};
	static const char head[] = "{\"$type$\":\"llmstore\",\"version\":1}\n";
	sqlite3_stmt *q;
	size_t i;
	int status;

	if (io_write(head, sizeof(head) - 1, out) != 0)
		return DIAG_TROUBLE;
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if ((q = store_prepare(s, parts[i].sql)) == NULL)
			return DIAG_TROUBLE;
		if ((status = store_lines(s, q, parts[i].line, 1, out)) !=
		    DIAG_OK)
			return status;
	}
	return export_summaries(s, out);
}

/* One line of an import, for its messages. */
struct line {
	struct store	*s;
	const char	*file;
	unsigned long	 no;
	json_t		*o;
	struct buf	 tmp;
	struct buf	 tmp2;
	struct check	 ck;		/* the checks of the fields */
};

/* Whether the checks of the line's object found a flaw since flaws. */
static int
flawed(struct line *l, int flaws)
{
	return l->ck.flaws > flaws;
}

/* Checks each name of an array member (checked to hold strings). */
static void
check_names(struct line *l, const char *member, const char *field)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(l->o, member), i, e)
		store_check_name(&l->ck, field, json_string_value(e),
		    json_string_length(e), 1);
}

static int
bad(struct line *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
bad(struct line *l, const char *fmt, ...)
{
	struct diag_loc loc = { l->file, l->no, 1, NULL };
	struct buf msg = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	diag_at(DIAG_ERROR, &loc, "import", "%s", buf_cstr(&msg));
	buf_free(&msg);
	return DIAG_INVALID;
}

/* A hash of an import for a message: quoted unless it is one. */
static const char *
hq(struct line *l, const char *h)
{
	return store_is_hash(h, strlen(h)) ? h : store_qs(l->s, 2, h);
}

/* The members of one object, checked; NULL (reported) when missing. */
static const char *
get_str(struct line *l, const char *name, int optional, size_t *len)
{
	json_t *v = json_object_get(l->o, name);

	if (v == NULL && optional)
		return NULL;
	if (!json_is_string(v)) {
		bad(l, "\"%s\" must be a string", name);
		return NULL;
	}
	if (len != NULL)
		*len = json_string_length(v);
	return json_string_value(v);
}

static int
get_int(struct line *l, const char *name, long long *out)
{
	json_t *v = json_object_get(l->o, name);

	if (!json_is_integer(v)) {
		bad(l, "\"%s\" must be a whole number", name);
		return -1;
	}
	*out = json_integer_value(v);
	return 0;
}

static int
get_bool(struct line *l, const char *name, int *out)
{
	json_t *v = json_object_get(l->o, name);

	if (!json_is_boolean(v)) {
		bad(l, "\"%s\" must be true or false", name);
		return -1;
	}
	*out = json_is_true(v);
	return 0;
}

/* An array of strings, written as stored, in b. */
static int
get_strs(struct line *l, const char *name, struct buf *b)
{
	json_t *v = json_object_get(l->o, name), *e;
	size_t i;

	if (!json_is_array(v)) {
		bad(l, "\"%s\" must be an array of strings", name);
		return -1;
	}
	json_array_foreach(v, i, e)
		if (!json_is_string(e)) {
			bad(l, "\"%s\" must be an array of strings", name);
			return -1;
		}
	buf_reset(b);
	store_write_str_array(b, v);
	return 0;
}

/*
 * Runs an INSERT of an import and finalizes it; an object that the store
 * has already (what, as printf makes it) is a bad line.
 */
static int
inserted(struct line *l, sqlite3_stmt *q, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
inserted(struct line *l, sqlite3_stmt *q, const char *fmt, ...)
{
	va_list ap;
	int rc = sqlite3_step(q), code = sqlite3_finalize(q);

	if (rc == SQLITE_DONE)
		return DIAG_OK;
	if (code != SQLITE_CONSTRAINT)
		return store_db_fail(l->s);
	buf_reset(&l->tmp);
	va_start(ap, fmt);
	buf_vprintf(&l->tmp, fmt, ap);
	va_end(ap);
	return bad(l, "%s is already in the store", buf_cstr(&l->tmp));
}

static int
import_blob(struct line *l)
{
	char hash[SHA256_HEX];
	const char *h, *data;
	long long size;
	size_t n;
	sqlite3_stmt *q;

	if ((h = get_str(l, "hash", 0, NULL)) == NULL ||
	    get_int(l, "size", &size) != 0 ||
	    (data = get_str(l, "data", 0, &n)) == NULL)
		return DIAG_INVALID;
	if (sha256_hex(data, n, hash) != 0 || strcmp(hash, h) != 0)
		return bad(l, "blob %s: its data hashes to %s", hq(l, h), hash);
	if (size != (long long)n)
		return bad(l, "blob %s: size is %lld, its data has %zu bytes",
		    hq(l, h), size, n);
	if ((q = store_stmt(l->s, Q_BLOB_ADD)) == NULL)
		return DIAG_TROUBLE;
	store_bind_str(q, 1, h);
	sqlite3_bind_int64(q, 2, size);
	sqlite3_bind_blob64(q, 3, data, n, SQLITE_STATIC);
	return store_step_done(l->s, q);
}

static int
import_attachment(struct line *l)
{
	char hash[SHA256_HEX];
	struct att a;
	const char *h;
	long long seq, blob_size = -1;
	sqlite3_stmt *q;
	int rc, flaws;

	memset(&a, 0, sizeof(a));
	if ((h = get_str(l, "hash", 0, NULL)) == NULL ||
	    (a.topic = get_str(l, "topicId", 0, NULL)) == NULL ||
	    (a.message = get_str(l, "messageId", 0, NULL)) == NULL ||
	    (a.format = get_str(l, "format", 0, NULL)) == NULL ||
	    get_int(l, "version", &a.version) != 0 ||
	    get_int(l, "createdAt", &a.created) != 0 ||
	    get_int(l, "size", &a.size) != 0 || get_int(l, "seq", &seq) != 0)
		return DIAG_INVALID;
	a.content = get_str(l, "xmlContent", 1, &a.content_len);
	a.blob = get_str(l, "xmlBlob", 1, NULL);
	if (json_object_get(l->o, "xmlContent") != NULL && a.content == NULL)
		return DIAG_INVALID;
	if (json_object_get(l->o, "xmlBlob") != NULL && a.blob == NULL)
		return DIAG_INVALID;
	if (!store_is_hash(h, strlen(h))) {
		store_obj_attachment(&l->ck, h, strlen(h), a.message,
		    strlen(a.message));
		store_flaw(&l->ck, "hash is not a SHA-256 hash (64 lowercase "
		    "hexadecimal digits)");
		return DIAG_INVALID;
	}
	if ((a.content != NULL) == (a.blob != NULL))
		return bad(l, "attachment %s: exactly one of xmlContent and "
		    "xmlBlob must be there", h);
	if (strcmp(a.format, "llm-query") != 0 &&
	    strcmp(a.format, "llm-response") != 0)
		return bad(l, "attachment %s: format must be llm-query or "
		    "llm-response", h);
	if (a.version != 1)
		return bad(l, "attachment %s: version %lld is not supported",
		    h, a.version);
	if (a.content != NULL && ((long long)a.content_len != a.size ||
	    a.size > STORE_INLINE_MAX))
		return bad(l, "attachment %s: size is %lld, its XML has %zu "
		    "bytes", h, a.size, a.content_len);
	store_obj_attachment(&l->ck, h, strlen(h), a.message,
	    strlen(a.message));
	flaws = l->ck.flaws;
	if (a.blob != NULL) {
		store_check_hash(&l->ck, "xmlBlob", a.blob, strlen(a.blob));
		if (flawed(l, flaws))
			return DIAG_INVALID;
		if ((q = store_stmt(l->s, Q_BLOB_GET)) == NULL)
			return DIAG_TROUBLE;
		store_bind_str(q, 1, a.blob);
		if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
			blob_size = store_col_len(q, 0);
			if (blob_size == a.size && a.size > STORE_INLINE_MAX)
				store_check_attachment(&l->ck, a.topic,
				    strlen(a.topic), a.message,
				    strlen(a.message), a.created, seq,
				    sqlite3_column_blob(q, 0),
				    (size_t)blob_size, a.format);
		}
		sqlite3_reset(q);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			return store_db_fail(l->s);
		if (blob_size < 0)
			return bad(l, "attachment %s: blob %s is not in the "
			    "store", h, a.blob);
		if (blob_size != a.size || a.size <= STORE_INLINE_MAX)
			return bad(l, "attachment %s: size is %lld, its blob "
			    "has %lld bytes", h, a.size, blob_size);
	} else
		store_check_attachment(&l->ck, a.topic, strlen(a.topic),
		    a.message, strlen(a.message), a.created, seq, a.content,
		    a.content_len, a.format);
	if (flawed(l, flaws))
		return DIAG_INVALID;
	buf_reset(&l->tmp);
	if (store_att_line(&l->tmp, &a, NULL, hash) != 0 ||
	    strcmp(hash, h) != 0)
		return bad(l, "attachment %s: its fields hash to %s", h, hash);
	if ((q = store_prepare(l->s, store_sql[Q_ATT_ADD])) == NULL)
		return DIAG_TROUBLE;
	sqlite3_bind_int64(q, 1, seq);
	store_att_bind(q, h, &a);
	return inserted(l, q, "message %s (or seq %lld)",
	    store_qs(l->s, 0, a.message), seq);
}

static int
import_template(struct line *l)
{
	const char *model, *text;
	long long xv, v, created, updated;
	size_t n;
	int active, flaws;
	sqlite3_stmt *q;

	if ((model = get_str(l, "modelId", 0, NULL)) == NULL ||
	    (text = get_str(l, "promptText", 0, &n)) == NULL ||
	    get_int(l, "xmlSchemaVersion", &xv) != 0 ||
	    get_int(l, "version", &v) != 0 ||
	    get_int(l, "createdAt", &created) != 0 ||
	    get_int(l, "updatedAt", &updated) != 0 ||
	    get_bool(l, "active", &active) != 0)
		return DIAG_INVALID;
	store_obj_template(&l->ck, model, strlen(model), v);
	flaws = l->ck.flaws;
	store_check_template(&l->ck, model, strlen(model), text, n, v, xv,
	    created, updated);
	if (flawed(l, flaws))
		return DIAG_INVALID;
	if ((q = store_prepare(l->s, "INSERT INTO template (model_id, version,"
	    " prompt_text, xml_schema_version, created_at, updated_at, active)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")) == NULL)
		return DIAG_TROUBLE;
	store_bind_str(q, 1, model);
	sqlite3_bind_int64(q, 2, v);
	store_bind_text(q, 3, text, n);
	sqlite3_bind_int64(q, 4, xv);
	sqlite3_bind_int64(q, 5, created);
	sqlite3_bind_int64(q, 6, updated);
	sqlite3_bind_int(q, 7, active);
	return inserted(l, q, "version %lld (or an active template) of model "
	    "%s", v, store_qs(l->s, 0, model));
}

/*
 * Inserts each string of an array member as a row of a side table (sql
 * binds topic, name and the string); a string twice is a bad line.
 */
static int
import_list(struct line *l, const char *member, const char *text,
    const char *topic, const char *name)
{
	json_t *e;
	sqlite3_stmt *q;
	size_t i;
	int rc;

	json_array_foreach(json_object_get(l->o, member), i, e) {
		if ((q = store_prepare(l->s, text)) == NULL)
			return DIAG_TROUBLE;
		store_bind_str(q, 1, topic);
		store_bind_str(q, 2, name);
		store_bind_text(q, 3, json_string_value(e),
		    json_string_length(e));
		sqlite3_bind_int64(q, 4, (long long)i);
		if ((rc = inserted(l, q, "%s in the %s of %s",
		    store_qs(l->s, 0, json_string_value(e)), member,
		    store_qs(l->s, 1, name))) != DIAG_OK)
			return rc;
	}
	return DIAG_OK;
}

static int
import_subject(struct line *l)
{
	const char *id, *topic, *desc, *src;
	long long count, created, seen, seq, pos;
	int archived, rc, flaws;
	json_t *tr = json_object_get(l->o, "timeRanges"), *e;
	size_t i;
	sqlite3_stmt *q;

	if ((id = get_str(l, "id", 0, NULL)) == NULL ||
	    (topic = get_str(l, "topic", 0, NULL)) == NULL ||
	    (desc = get_str(l, "description", 0, NULL)) == NULL ||
	    get_strs(l, "keywords", &l->tmp) != 0 ||
	    get_int(l, "messageCount", &count) != 0 ||
	    get_int(l, "createdAt", &created) != 0 ||
	    get_int(l, "lastSeenAt", &seen) != 0 ||
	    get_bool(l, "archived", &archived) != 0 ||
	    get_int(l, "lastSeq", &seq) != 0 || get_int(l, "lastPos", &pos))
		return DIAG_INVALID;
	src = get_str(l, "sourceXmlHash", 1, NULL);
	if (json_object_get(l->o, "sourceXmlHash") != NULL && src == NULL)
		return DIAG_INVALID;
	if (!json_is_array(tr))
		return bad(l, "\"timeRanges\" must be an array of "
		    "{\"start\", \"end\"}");
	json_array_foreach(tr, i, e)
		if (!json_is_integer(json_object_get(e, "start")) ||
		    !json_is_integer(json_object_get(e, "end")))
			return bad(l, "\"timeRanges\" must be an array of "
			    "{\"start\", \"end\"}");
	store_obj_named(&l->ck, "subject", id, strlen(id), topic,
	    strlen(topic));
	flaws = l->ck.flaws;
	store_check_subject(&l->ck, topic, strlen(topic), id, strlen(id), desc,
	    strlen(desc), count, created, seen, src, src != NULL ? strlen(src) :
	    0, seq, pos);
	check_names(l, "keywords", "keyword");
	json_array_foreach(tr, i, e)
		store_check_time_range(&l->ck,
		    json_integer_value(json_object_get(e, "start")),
		    json_integer_value(json_object_get(e, "end")));
	if (flawed(l, flaws))
		return DIAG_INVALID;
	if ((q = store_prepare(l->s, "INSERT INTO subject (topic_id, id,"
	    " description, message_count, created_at, last_seen_at, archived,"
	    " source_xml_hash, last_seq, last_pos)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)")) == NULL)
		return DIAG_TROUBLE;
	store_bind_str(q, 1, topic);
	store_bind_str(q, 2, id);
	store_bind_str(q, 3, desc);
	sqlite3_bind_int64(q, 4, count);
	sqlite3_bind_int64(q, 5, created);
	sqlite3_bind_int64(q, 6, seen);
	sqlite3_bind_int(q, 7, archived);
	store_bind_str(q, 8, src);
	sqlite3_bind_int64(q, 9, seq);
	sqlite3_bind_int64(q, 10, pos);
	if ((rc = inserted(l, q, "subject %s of topic %s",
	    store_qs(l->s, 0, id), store_qs(l->s, 1, topic))) != DIAG_OK ||
	    (rc = import_list(l, "keywords", store_sql[Q_SUBJECT_KEYWORD],
	    topic, id)) != DIAG_OK)
		return rc;
	json_array_foreach(tr, i, e) {
		if ((q = store_prepare(l->s,
		    "INSERT INTO subject_range (topic_id,"
		    " subject_id, start, \"end\") VALUES (?1, ?2, ?3, ?4)")) ==
		    NULL)
			return DIAG_TROUBLE;
		store_bind_str(q, 1, topic);
		store_bind_str(q, 2, id);
		sqlite3_bind_int64(q, 3, json_integer_value(json_object_get(e,
		    "start")));
		sqlite3_bind_int64(q, 4, json_integer_value(json_object_get(e,
		    "end")));
		if ((rc = inserted(l, q, "a time range of %s",
		    store_qs(l->s, 0, id))) !=
		    DIAG_OK)
			return rc;
	}
	return DIAG_OK;
}

static int
import_keyword(struct line *l)
{
	const char *topic, *term, *src;
	long long freq, created, seen, seq, pos;
	json_t *score = json_object_get(l->o, "score");
	double value = 0;
	sqlite3_stmt *q;
	int rc, flaws;

	if ((topic = get_str(l, "topicId", 0, NULL)) == NULL ||
	    (term = get_str(l, "term", 0, NULL)) == NULL ||
	    get_int(l, "frequency", &freq) != 0 ||
	    get_strs(l, "subjects", &l->tmp) != 0 ||
	    get_int(l, "createdAt", &created) != 0 ||
	    get_int(l, "lastSeen", &seen) != 0 ||
	    get_int(l, "lastSeq", &seq) != 0 || get_int(l, "lastPos", &pos))
		return DIAG_INVALID;
	if (score != NULL && !json_is_number(score))
		return bad(l, "\"score\" must be a number");
	src = get_str(l, "sourceXmlHash", 1, NULL);
	if (json_object_get(l->o, "sourceXmlHash") != NULL && src == NULL)
		return DIAG_INVALID;
	if (score != NULL)
		value = json_number_value(score);
	store_obj_named(&l->ck, "keyword", term, strlen(term), topic,
	    strlen(topic));
	flaws = l->ck.flaws;
	store_check_keyword(&l->ck, topic, strlen(topic), term, strlen(term),
	    freq, score != NULL ? &value : NULL, created, seen, src,
	    src != NULL ? strlen(src) : 0, seq, pos);
	check_names(l, "subjects", "subject");
	if (flawed(l, flaws))
		return DIAG_INVALID;
	if ((q = store_prepare(l->s, "INSERT INTO keyword (topic_id, term,"
	    " frequency, score, created_at, last_seen, source_xml_hash,"
	    " last_seq, last_pos)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")) == NULL)
		return DIAG_TROUBLE;
	store_bind_str(q, 1, topic);
	store_bind_str(q, 2, term);
	sqlite3_bind_int64(q, 3, freq);
	if (score != NULL)
		sqlite3_bind_double(q, 4, json_number_value(score));
	sqlite3_bind_int64(q, 5, created);
	sqlite3_bind_int64(q, 6, seen);
	store_bind_str(q, 7, src);
	sqlite3_bind_int64(q, 8, seq);
	sqlite3_bind_int64(q, 9, pos);
	if ((rc = inserted(l, q, "keyword %s of topic %s",
	    store_qs(l->s, 0, term), store_qs(l->s, 1, topic))) != DIAG_OK)
		return rc;
	return import_list(l, "subjects", store_sql[Q_KEYWORD_SUBJECT], topic,
	    term);
}

static int
import_summary(struct line *l)
{
	const char *id, *topic, *update, *prev, *reason, *src;
	long long v, created, updated;
	size_t n;
	sqlite3_stmt *q;
	int flaws;

	if ((id = get_str(l, "id", 0, NULL)) == NULL ||
	    (topic = get_str(l, "topic", 0, NULL)) == NULL ||
	    (update = get_str(l, "update", 0, &n)) == NULL ||
	    get_strs(l, "newSubjects", &l->tmp) != 0 ||
	    get_strs(l, "newKeywords", &l->tmp2) != 0 ||
	    get_int(l, "version", &v) != 0 ||
	    get_int(l, "createdAt", &created) != 0 ||
	    get_int(l, "updatedAt", &updated) != 0)
		return DIAG_INVALID;
	prev = get_str(l, "previousVersion", 1, NULL);
	reason = get_str(l, "changeReason", 1, NULL);
	src = get_str(l, "sourceXmlHash", 1, NULL);
	store_obj_summary(&l->ck, topic, strlen(topic), v);
	flaws = l->ck.flaws;
	store_check_summary(&l->ck, topic, strlen(topic), v, update, n, created,
	    updated, reason, reason != NULL ? strlen(reason) : 0, src,
	    src != NULL ? strlen(src) : 0);
	check_names(l, "newSubjects", "subject");
	check_names(l, "newKeywords", "keyword");
	if (flawed(l, flaws))
		return DIAG_INVALID;
	{
		char want[64];
		size_t tl = strlen(topic);

		snprintf(want, sizeof(want), "-v%lld", v);
		if (v < 1 || strlen(id) != tl + strlen(want) ||
		    strncmp(id, topic, tl) != 0 || strcmp(id + tl, want) != 0) {
			buf_reset(&l->tmp);
			buf_adds(&l->tmp, topic);
			buf_adds(&l->tmp, want);
			return bad(l, "summary id %s is not %s",
			    store_qs(l->s, 0, id),
			    store_qs(l->s, 1, buf_cstr(&l->tmp)));
		}
		snprintf(want, sizeof(want), "-v%lld", v - 1);
		if (v == 1 ? prev != NULL : prev == NULL ||
		    strncmp(prev, topic, tl) != 0 || strcmp(prev + tl, want))
			return bad(l, "summary %s: previousVersion must be "
			    "%s", store_qs(l->s, 0, id), v == 1 ? "absent" :
			    "the version before");
	}
	if ((q = store_prepare(l->s, "INSERT INTO summary (topic_id, version,"
	    " update_text, subjects, keywords, created_at, updated_at,"
	    " change_reason, source_xml_hash)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")) == NULL)
		return DIAG_TROUBLE;
	store_bind_str(q, 1, topic);
	sqlite3_bind_int64(q, 2, v);
	store_bind_text(q, 3, update, n);
	store_bind_buf(q, 4, &l->tmp);
	store_bind_buf(q, 5, &l->tmp2);
	sqlite3_bind_int64(q, 6, created);
	sqlite3_bind_int64(q, 7, updated);
	store_bind_str(q, 8, reason);
	store_bind_str(q, 9, src);
	return inserted(l, q, "summary %s", store_qs(l->s, 0, id));
}

/* Reads export's lines into the store; the caller commits on DIAG_OK. */
int
store_import(struct store *s, const char *file, FILE *in)
{
	static const struct {
		const char	*type;
		int		(*fn)(struct line *);
	} types[] = {
		{ "BLOB", import_blob },
		{ "XMLMessageAttachment", import_attachment },
		{ "SystemPromptTemplate", import_template },
		{ "Subject", import_subject },
		{ "Keyword", import_keyword },
		{ "Summary", import_summary },
	};
	struct line l;
	char *text = NULL;
	size_t cap = 0;
	ssize_t len;
	json_error_t err;
	size_t i, n;
	const char *type;
	int status = DIAG_OK, st;

	memset(&l, 0, sizeof(l));
	l.s = s;
	l.file = file;
	l.ck.s = s;
	l.ck.file = file;
	while (status != DIAG_TROUBLE &&
	    (len = io_getline_text(&text, &cap, in)) != -1) {
		l.no++;
		l.ck.line = l.no;
		n = (size_t)len;
		if (text[n - 1] == '\n')
			n--;
		else if (text[n - 1] == '\0') {
			/*
			 * No JSON text holds one: the import ends there.
			 * Not read on to the next line, as the checkers'
			 * --lines are: an import stores all its lines or
			 * none, and holds the store's write lock while it
			 * reads, which an endless line (/dev/zero) would
			 * then hold for ever.
			 */
			struct diag_loc loc = { file, l.no, 1, NULL };

			loc.col += utf8_count(text, n - 1);
			diag_at(DIAG_ERROR, &loc, "import", "NUL byte");
			status = DIAG_INVALID;
			break;
		}
		l.o = jsonx_load(text, n,
		    JSON_REJECT_DUPLICATES, &err);
		if (l.o == NULL || !json_is_object(l.o)) {
			status = diag_max(status, bad(&l, "not a JSON object"
			    "%s%s", l.o == NULL ? ": " : "",
			    l.o == NULL ? err.text : ""));
			json_decref(l.o);
			continue;
		}
		type = get_str(&l, "$type$", 0, NULL);
		st = DIAG_INVALID;
		if (type == NULL)
			;
		else if (l.no == 1) {
			json_t *v = json_object_get(l.o, "version");

			if (strcmp(type, "llmstore") != 0 ||
			    !json_is_integer(v) || json_integer_value(v) != 1)
				bad(&l,
				    "not an llmstore export: the first line "
				    "must be {\"$type$\":\"llmstore\","
				    "\"version\":1}");
			else
				st = DIAG_OK;
		} else {
			for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
				if (strcmp(type, types[i].type) == 0)
					break;
			if (i == sizeof(types) / sizeof(types[0]))
				bad(&l, "unknown $type$ %s",
				    store_qs(s, 0, type));
			else
				st = types[i].fn(&l);
		}
		status = diag_max(status, st);
		json_decref(l.o);
		if (l.no == 1 && st != DIAG_OK)
			break;
	}
	if (status != DIAG_TROUBLE && ferror(in)) {
		diag_warn("%s", file);
		status = DIAG_TROUBLE;
	}
	/* No later put takes the id of an attachment a subject or keyword
	 * names as the one that last had it, even where that one is gone. */
	if (status == DIAG_OK && store_exec(s, "INSERT INTO sqlite_sequence"
	    " (name, seq) SELECT 'attachment', 0 WHERE NOT EXISTS (SELECT 1"
	    " FROM sqlite_sequence WHERE name = 'attachment');"
	    "UPDATE sqlite_sequence SET seq = max(seq,"
	    " (SELECT coalesce(max(last_seq), 0) FROM subject),"
	    " (SELECT coalesce(max(last_seq), 0) FROM keyword))"
	    " WHERE name = 'attachment'") != DIAG_OK)
		status = DIAG_TROUBLE;
	/* What no single line shows: one active template a model, the
	 * summary versions of a topic without a gap. */
	if (status == DIAG_OK && l.no > 0) {
		struct fsck f = { s, 0, file, l.no + 1 };

		if (store_fsck_templates(&f) != DIAG_OK ||
		    store_fsck_summaries(&f) != DIAG_OK)
			status = DIAG_TROUBLE;
		else if (f.problems > 0)
			status = DIAG_INVALID;
	}
	if (status == DIAG_OK && l.no == 0) {
		struct diag_loc loc = { file, 1, 1, NULL };

		diag_at(DIAG_ERROR, &loc, "import", "empty input: not an "
		    "llmstore export");
		status = DIAG_INVALID;
	}
	free(text);
	buf_free(&l.tmp);
	buf_free(&l.tmp2);
	store_check_free(&l.ck);
	return status;
}
