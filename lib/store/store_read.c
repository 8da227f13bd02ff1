/*
 * store: what the commands read (ls, cat, context, summary, keywords,
 * subjects, trace) and what they change besides put (rm, archive).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sqlite3.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/io.h"
#include "base/jsonw.h"
#include "json/jsonx.h"
#include "store/store_int.h"

/* One line of ls: an attachment without its content. */
static int
att_ls_line(struct store *s, struct buf *b, sqlite3_stmt *q, int export)
{
	struct att a;

	(void)s;
	(void)export;
	store_att_from_row(&a, q);
	buf_reset(b);
	store_att_line(b, &a, store_col_str(q, 0), NULL);
	buf_addc(b, '\n');
	return DIAG_OK;
}

int
store_ls(struct store *s, const char *topic, const char *message,
    const char *format, FILE *out)
{
	sqlite3_stmt *q;

	q = store_prepare(s, "SELECT " ATT_COLUMNS " FROM attachment"
	    " WHERE (?1 IS NULL OR topic_id = ?1)"
	    " AND (?2 IS NULL OR message_id = ?2)"
	    " AND (?3 IS NULL OR format = ?3) ORDER BY id");
	if (q == NULL)
		return DIAG_TROUBLE;
	store_bind_str(q, 1, topic);
	store_bind_str(q, 2, message);
	store_bind_str(q, 3, format);
	return store_lines(s, q, att_ls_line, 0, out);
}

/* The XML of an attachment (by hash or message id) or of a blob. */
int
store_cat(struct store *s, const char *hash, const char *message, FILE *out)
{
	sqlite3_stmt *q, *b;
	int rc, status = DIAG_OK;

	q = store_prepare(s,
	    message != NULL ? "SELECT xml_content, xml_blob FROM"
	    " attachment WHERE message_id = ?1" : "SELECT xml_content,"
	    " xml_blob FROM attachment WHERE hash = ?1 UNION ALL"
	    " SELECT NULL, hash FROM blob WHERE hash = ?1 LIMIT 1");
	if (q == NULL)
		return DIAG_TROUBLE;
	store_bind_str(q, 1, message != NULL ? message : hash);
	if ((rc = sqlite3_step(q)) == SQLITE_DONE) {
		if (message != NULL)
			diag_warnx("no message %s", store_qs(s, 0, message));
		else
			diag_warnx("no attachment %s",
			    strspn(hash, HEX_ALNUM) == strlen(hash) ? hash :
			    store_qs(s, 0, hash));
		status = DIAG_INVALID;
	} else if (rc != SQLITE_ROW)
		status = store_db_fail(s);
	else if (sqlite3_column_type(q, 0) != SQLITE_NULL) {
		if (io_write(store_col_str(q, 0), store_col_len(q, 0),
		    out) != 0)
			status = DIAG_TROUBLE;
	} else if ((b = store_stmt(s, Q_BLOB_GET)) == NULL)
		status = DIAG_TROUBLE;
	else {
		store_bind_str(b, 1, store_col_str(q, 1));
		if ((rc = sqlite3_step(b)) == SQLITE_ROW) {
			if (io_write(sqlite3_column_blob(b, 0),
			    store_col_len(b, 0), out) != 0)
				status = DIAG_TROUBLE;
		} else if (rc == SQLITE_DONE) {
			diag_warnx("%s: blob %s is missing", s->path,
			    store_col_str(q, 1));
			status = DIAG_TROUBLE;
		} else
			status = store_db_fail(s);
		sqlite3_reset(b);
	}
	sqlite3_finalize(q);
	return status;
}

/* Deletes a message's attachment, and its blob when no other uses it. */
int
store_rm(struct store *s, const char *message)
{
	sqlite3_stmt *q;
	int rc, status;

	q = store_prepare(s, "DELETE FROM attachment WHERE message_id = ?1"
	    " RETURNING xml_blob");
	if (q == NULL)
		return DIAG_TROUBLE;
	store_bind_str(q, 1, message);
	rc = sqlite3_step(q);
	if (rc == SQLITE_DONE) {
		sqlite3_finalize(q);
		diag_warnx("no message %s", store_qs(s, 0, message));
		return DIAG_INVALID;
	}
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(q);
		return store_db_fail(s);
	}
	if (sqlite3_column_type(q, 0) == SQLITE_NULL) {
		sqlite3_finalize(q);
		return DIAG_OK;
	}
	{
		sqlite3_stmt *d;
		char blob[SHA256_HEX];

		snprintf(blob, sizeof(blob), "%s", store_col_str(q, 0));
		while ((rc = sqlite3_step(q)) == SQLITE_ROW)
			continue;
		sqlite3_finalize(q);
		if (rc != SQLITE_DONE)
			return store_db_fail(s);
		if ((d = store_prepare(s, "DELETE FROM blob WHERE hash = ?1"
		    " AND NOT EXISTS (SELECT 1 FROM attachment"
		    " WHERE xml_blob = ?1)")) == NULL)
			return DIAG_TROUBLE;
		store_bind_str(d, 1, blob);
		status = store_step_done(s, d);
		sqlite3_finalize(d);
	}
	return status;
}

/* Appends the first column of each row as a JSON string array. */
static int
column_array(struct store *s, struct buf *b, sqlite3_stmt *q)
{
	int rc, n = 0;

	buf_addc(b, '[');
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (n++ > 0)
			buf_addc(b, ',');
		store_jstr(b, store_col_str(q, 0), store_col_len(q, 0));
	}
	buf_addc(b, ']');
	return rc == SQLITE_DONE ? DIAG_OK : store_db_fail(s);
}

void
store_empty_context(const char *topic, FILE *out)
{
	struct buf b = BUF_INIT;

	buf_adds(&b, "{\"topicId\":");
	store_jstr(&b, topic, strlen(topic));
	buf_adds(&b, ",\"messageCount\":0,\"activeSubjects\":[],"
	    "\"recentKeywords\":[]}\n");
	io_write(b.data, b.len, out);
	buf_free(&b);
}

/* What llmq-encode --context reads: the topic's memory, most recent first. */
int
store_context(struct store *s, const char *topic, FILE *out)
{
	struct buf b = BUF_INIT;
	sqlite3_stmt *q;
	long long count = 0;
	int status = DIAG_TROUBLE;

	if ((q = store_prepare(s, "SELECT count(*) FROM attachment WHERE"
	    " topic_id = ?1")) == NULL)
		return DIAG_TROUBLE;
	store_bind_str(q, 1, topic);
	if (sqlite3_step(q) == SQLITE_ROW)
		count = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	buf_adds(&b, "{\"topicId\":");
	store_jstr(&b, topic, strlen(topic));
	buf_printf(&b, ",\"messageCount\":%lld,\"activeSubjects\":", count);
	/* Names with a comma are left out: llmq-encode joins the items of
	 * a list with ", ", and refuses them. */
	if ((q = store_prepare(s,
	    "SELECT id FROM subject WHERE topic_id = ?1 AND"
	    " NOT archived AND instr(id, ',') = 0"
	    " ORDER BY last_seq DESC, last_pos LIMIT 20")) == NULL)
		goto out;
	store_bind_str(q, 1, topic);
	status = column_array(s, &b, q);
	sqlite3_finalize(q);
	if (status != DIAG_OK)
		goto out;
	buf_adds(&b, ",\"recentKeywords\":");
	if ((q = store_prepare(s, "SELECT term FROM keyword WHERE topic_id = ?1"
	    " AND instr(term, ',') = 0"
	    " ORDER BY last_seq DESC, last_pos LIMIT 50")) == NULL) {
		status = DIAG_TROUBLE;
		goto out;
	}
	store_bind_str(q, 1, topic);
	status = column_array(s, &b, q);
	sqlite3_finalize(q);
	if (status != DIAG_OK)
		goto out;
	buf_adds(&b, "}\n");
	status = store_writes(out, &b);
out:
	buf_free(&b);
	return status;
}

void
store_member_str(struct buf *b, const char *name, sqlite3_stmt *q, int col)
{
	if (sqlite3_column_type(q, col) == SQLITE_NULL)
		return;
	buf_printf(b, ",\"%s\":", name);
	store_jstr(b, store_col_str(q, col), store_col_len(q, col));
}

void
store_member_int(struct buf *b, const char *name, sqlite3_stmt *q, int col)
{
	buf_printf(b, ",\"%s\":%lld", name,
	    (long long)sqlite3_column_int64(q, col));
}

void
store_seen_reset(struct seen *z)
{
	json_decref(z->set);
	json_decref(z->list);
	z->set = json_object();
	z->list = json_array();
}

/* Adds the strings of a stored array; those new to z also go in fresh. */
static void
seen_add(struct seen *z, const char *text, size_t n, json_t *fresh)
{
	json_t *a = jsonx_load(text, n, 0, NULL), *v;
	size_t i;

	json_array_foreach(a, i, v) {
		if (!json_is_string(v) || json_object_getn(z->set,
		    json_string_value(v), json_string_length(v)) != NULL)
			continue;
		json_object_setn(z->set, json_string_value(v),
		    json_string_length(v), json_true());
		json_array_append(z->list, v);
		if (fresh != NULL)
			json_array_append(fresh, v);
	}
	json_decref(a);
}

/*
 * A Summary from the row (SUMMARY_COLUMNS) of its version: the seed's
 * object, whose content is the updates of versions 1 to this one joined
 * by newlines, and whose subjects and keywords are theirs. For export:
 * the update of this version alone, and the subjects and keywords that
 * no version before it had (subj and kw: those of the versions before,
 * which the caller keeps).
 */
int
store_summary_line(struct store *s, struct buf *b, sqlite3_stmt *row,
    struct seen *subj, struct seen *kw)
{
	struct seen all_s = { NULL, NULL }, all_k = { NULL, NULL };
	char *topic = strdup(store_col_str(row, 0));
	long long v = sqlite3_column_int64(row, 1);
	json_t *fresh;
	size_t tl, n = 0;
	sqlite3_stmt *q;
	int rc, status = DIAG_OK;

	if (topic == NULL) {
		diag_warnx("%s: out of memory", s->path);
		return DIAG_TROUBLE;
	}
	tl = strlen(topic);
	buf_reset(b);
	buf_adds(b, "{\"$type$\":\"Summary\",\"id\":\"");
	store_jesc(b, topic, tl);
	buf_printf(b, "-v%lld\",\"topic\":", v);
	store_jstr(b, topic, tl);
	if (subj != NULL) {
		store_member_str(b, "update", row, 2);
		buf_adds(b, ",\"newSubjects\":");
		fresh = json_array();
		seen_add(subj, store_col_str(row, 7), store_col_len(row, 7),
		    fresh);
		store_write_str_array(b, fresh);
		json_decref(fresh);
		buf_adds(b, ",\"newKeywords\":");
		fresh = json_array();
		seen_add(kw, store_col_str(row, 8), store_col_len(row, 8),
		    fresh);
		store_write_str_array(b, fresh);
		json_decref(fresh);
	} else if ((q = store_prepare(s, "SELECT update_text, subjects,"
	    " keywords FROM summary WHERE topic_id = ?1 AND version <= ?2"
	    " ORDER BY version")) == NULL)
		status = DIAG_TROUBLE;
	else {
		store_seen_reset(&all_s);
		store_seen_reset(&all_k);
		store_bind_str(q, 1, topic);
		sqlite3_bind_int64(q, 2, v);
		buf_adds(b, ",\"content\":\"");
		while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
			if (n++ > 0)
				buf_adds(b, "\\n");
			store_jesc(b, store_col_str(q, 0), store_col_len(q, 0));
			seen_add(&all_s, store_col_str(q, 1),
			    store_col_len(q, 1), NULL);
			seen_add(&all_k, store_col_str(q, 2),
			    store_col_len(q, 2), NULL);
		}
		if (rc != SQLITE_DONE)
			status = store_db_fail(s);
		sqlite3_finalize(q);
		buf_adds(b, "\",\"subjects\":");
		store_write_str_array(b, all_s.list);
		buf_adds(b, ",\"keywords\":");
		store_write_str_array(b, all_k.list);
		json_decref(all_s.set);
		json_decref(all_s.list);
		json_decref(all_k.set);
		json_decref(all_k.list);
	}
	buf_printf(b, ",\"version\":%lld", v);
	if (v > 1) {
		buf_adds(b, ",\"previousVersion\":\"");
		store_jesc(b, topic, tl);
		buf_printf(b, "-v%lld\"", v - 1);
	}
	store_member_int(b, "createdAt", row, 3);
	store_member_int(b, "updatedAt", row, 4);
	store_member_str(b, "changeReason", row, 5);
	store_member_str(b, "sourceXmlHash", row, 6);
	buf_adds(b, "}\n");
	free(topic);
	return status;
}

int
store_summary(struct store *s, const char *topic, long version, FILE *out)
{
	struct buf b = BUF_INIT;
	sqlite3_stmt *q;
	int rc, status = DIAG_OK;

	if ((q = store_prepare(s,
	    "SELECT " SUMMARY_COLUMNS " FROM summary WHERE"
	    " topic_id = ?1 AND (?2 = 0 OR version = ?2)"
	    " ORDER BY version DESC LIMIT 1")) == NULL)
		return DIAG_TROUBLE;
	store_bind_str(q, 1, topic);
	sqlite3_bind_int64(q, 2, version);
	if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if ((status = store_summary_line(s, &b, q, NULL, NULL)) ==
		    DIAG_OK)
			status = store_writes(out, &b);
	} else if (rc == SQLITE_DONE) {
		if (version == 0)
			diag_warnx("no summary of topic %s",
			    store_qs(s, 0, topic));
		else
			diag_warnx("topic %s has no summary version %ld",
			    store_qs(s, 0, topic), version);
		status = DIAG_INVALID;
	} else
		status = store_db_fail(s);
	sqlite3_finalize(q);
	buf_free(&b);
	return status;
}

/* The column values of a cached statement (topic, name bound) in b. */
static int
values(struct store *s, struct buf *b, int id, sqlite3_stmt *row, int topic,
    int name)
{
	sqlite3_stmt *q;

	if ((q = store_stmt(s, id)) == NULL)
		return DIAG_TROUBLE;
	store_bind_text(q, 1, store_col_str(row, topic),
	    store_col_len(row, topic));
	store_bind_text(q, 2, store_col_str(row, name),
	    store_col_len(row, name));
	return column_array(s, b, q);
}

/* Columns: KEYWORD_COLUMNS. */
int
store_keyword_line(struct store *s, struct buf *b, sqlite3_stmt *q, int export)
{
	buf_reset(b);
	buf_adds(b, "{\"$type$\":\"Keyword\"");
	store_member_str(b, "topicId", q, 0);
	store_member_str(b, "term", q, 1);
	store_member_int(b, "frequency", q, 2);
	buf_adds(b, ",\"subjects\":");
	if (values(s, b, Q_KEYWORD_SUBJECTS, q, 0, 1) != DIAG_OK)
		return DIAG_TROUBLE;
	if (sqlite3_column_type(q, 3) != SQLITE_NULL) {
		buf_adds(b, ",\"score\":");
		jsonw_number(b, sqlite3_column_double(q, 3));
	}
	store_member_int(b, "createdAt", q, 4);
	store_member_int(b, "lastSeen", q, 5);
	store_member_str(b, "sourceXmlHash", q, 6);
	if (export) {
		store_member_int(b, "lastSeq", q, 7);
		store_member_int(b, "lastPos", q, 8);
	}
	buf_adds(b, "}\n");
	return DIAG_OK;
}

/* Columns: SUBJECT_COLUMNS. */
int
store_subject_line(struct store *s, struct buf *b, sqlite3_stmt *q, int export)
{
	sqlite3_stmt *r;
	int rc, n = 0;

	buf_reset(b);
	buf_adds(b, "{\"$type$\":\"Subject\"");
	store_member_str(b, "id", q, 1);
	store_member_str(b, "topic", q, 0);
	store_member_str(b, "description", q, 2);
	buf_adds(b, ",\"keywords\":");
	if (values(s, b, Q_SUBJECT_KEYWORDS, q, 0, 1) != DIAG_OK ||
	    (r = store_stmt(s, Q_SUBJECT_RANGES)) == NULL)
		return DIAG_TROUBLE;
	buf_adds(b, ",\"timeRanges\":[");
	store_bind_text(r, 1, store_col_str(q, 0), store_col_len(q, 0));
	store_bind_text(r, 2, store_col_str(q, 1), store_col_len(q, 1));
	while ((rc = sqlite3_step(r)) == SQLITE_ROW)
		buf_printf(b, "%s{\"start\":%lld,\"end\":%lld}", n++ ? "," : "",
		    (long long)sqlite3_column_int64(r, 0),
		    (long long)sqlite3_column_int64(r, 1));
	if (rc != SQLITE_DONE)
		return store_db_fail(s);
	buf_addc(b, ']');
	store_member_int(b, "messageCount", q, 3);
	store_member_int(b, "createdAt", q, 4);
	store_member_int(b, "lastSeenAt", q, 5);
	buf_adds(b, sqlite3_column_int64(q, 6) ? ",\"archived\":true" :
	    ",\"archived\":false");
	store_member_str(b, "sourceXmlHash", q, 7);
	if (export) {
		store_member_int(b, "lastSeq", q, 8);
		store_member_int(b, "lastPos", q, 9);
	}
	buf_adds(b, "}\n");
	return DIAG_OK;
}

/* Runs q (topic bound by the caller) and writes each row as line() does. */
int
store_lines(struct store *s, sqlite3_stmt *q, int (*line)(struct store *,
    struct buf *, sqlite3_stmt *, int), int export, FILE *out)
{
	struct buf b = BUF_INIT;
	int rc, status = DIAG_OK;

	while (status == DIAG_OK && (rc = sqlite3_step(q)) == SQLITE_ROW)
		if ((status = line(s, &b, q, export)) == DIAG_OK)
			status = store_writes(out, &b);
	if (status == DIAG_OK && rc != SQLITE_DONE)
		status = store_db_fail(s);
	sqlite3_finalize(q);
	buf_free(&b);
	return status;
}

/* The lines of a query with one text (or NULL) bound as ?1. */
int
store_listing(struct store *s, const char *text, const char *arg,
    int (*line)(struct store *, struct buf *, sqlite3_stmt *, int), FILE *out)
{
	sqlite3_stmt *q;

	if ((q = store_prepare(s, text)) == NULL)
		return DIAG_TROUBLE;
	store_bind_str(q, 1, arg);
	return store_lines(s, q, line, 0, out);
}

int
store_keywords(struct store *s, const char *topic, FILE *out)
{
	return store_listing(s, "SELECT " KEYWORD_COLUMNS " FROM keyword WHERE"
	    " topic_id = ?1 ORDER BY last_seq DESC, last_pos", topic,
	    store_keyword_line, out);
}

int
store_subjects(struct store *s, const char *topic, FILE *out)
{
	return store_listing(s, "SELECT " SUBJECT_COLUMNS " FROM subject WHERE"
	    " topic_id = ?1 ORDER BY last_seq DESC, last_pos", topic,
	    store_subject_line, out);
}

int
store_archive(struct store *s, const char *topic, const char *subject,
    int archived)
{
	struct buf id = BUF_INIT;
	sqlite3_stmt *q;
	int status;

	store_normalize(&id, subject, strlen(subject));
	if ((q = store_prepare(s, "UPDATE subject SET archived = ?3 WHERE"
	    " topic_id = ?1 AND id = ?2")) == NULL) {
		buf_free(&id);
		return DIAG_TROUBLE;
	}
	store_bind_str(q, 1, topic);
	store_bind_buf(q, 2, &id);
	sqlite3_bind_int(q, 3, archived);
	status = store_step_done(s, q);
	sqlite3_finalize(q);
	if (status == DIAG_OK && sqlite3_changes(s->db) == 0) {
		diag_warnx("topic %s has no subject %s", store_qs(s, 0, topic),
		    store_qs(s, 1, buf_cstr(&id)));
		status = DIAG_INVALID;
	}
	buf_free(&id);
	return status;
}

/* Where each keyword of a term came from. */
int
store_trace(struct store *s, const char *term, const char *topic, FILE *out)
{
	struct buf t = BUF_INIT, b = BUF_INIT;
	sqlite3_stmt *q;
	int rc, n = 0, status = DIAG_OK;

	store_normalize(&t, term, strlen(term));
	if ((q = store_prepare(s,
	    "SELECT k.topic_id, k.term, k.source_xml_hash,"
	    " a.message_id, a.format, a.created_at FROM keyword k"
	    " LEFT JOIN attachment a ON a.hash = k.source_xml_hash"
	    " WHERE k.term = ?1 AND (?2 IS NULL OR k.topic_id = ?2)"
	    " ORDER BY k.topic_id")) == NULL) {
		buf_free(&t);
		return DIAG_TROUBLE;
	}
	store_bind_buf(q, 1, &t);
	store_bind_str(q, 2, topic);
	while (status == DIAG_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
		n++;
		buf_reset(&b);
		buf_adds(&b, "{\"topicId\":");
		store_jstr(&b, store_col_str(q, 0), store_col_len(q, 0));
		buf_adds(&b, ",\"term\":");
		store_jstr(&b, store_col_str(q, 1), store_col_len(q, 1));
		buf_adds(&b, ",\"sourceXmlHash\":");
		if (sqlite3_column_type(q, 2) == SQLITE_NULL)
			buf_adds(&b, "null");
		else
			store_jstr(&b, store_col_str(q, 2),
			    store_col_len(q, 2));
		if (sqlite3_column_type(q, 3) == SQLITE_NULL)
			buf_adds(&b, ",\"messageId\":null,\"format\":null,"
			    "\"createdAt\":null}\n");
		else {
			store_member_str(&b, "messageId", q, 3);
			store_member_str(&b, "format", q, 4);
			store_member_int(&b, "createdAt", q, 5);
			buf_adds(&b, "}\n");
		}
		status = store_writes(out, &b);
	}
	if (status == DIAG_OK && rc != SQLITE_DONE)
		status = store_db_fail(s);
	else if (status == DIAG_OK && n == 0) {
		diag_warnx("no keyword %s", store_qs(s, 0, buf_cstr(&t)));
		status = DIAG_INVALID;
	}
	sqlite3_finalize(q);
	buf_free(&t);
	buf_free(&b);
	return status;
}

