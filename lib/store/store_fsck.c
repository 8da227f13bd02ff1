/* store: fsck, SQLite's integrity check and the checks of every object. */
#include <stdarg.h>
#include <string.h>

#include <sqlite3.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/sha256.h"
#include "store/store_int.h"

static void
problem(struct fsck *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
problem(struct fsck *f, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	if (f->file != NULL) {
		struct diag_loc loc = { f->file, f->line, 1, NULL };

		diag_at(DIAG_ERROR, &loc, "import", "at the end: %s",
		    buf_cstr(&b));
	} else
		diag_warnx("%s: fsck: %s", f->s->path, buf_cstr(&b));
	buf_free(&b);
	f->problems++;
}

static int
fsck_integrity(struct fsck *f)
{
	sqlite3_stmt *q;
	int rc;

	if ((q = store_prepare(f->s, "PRAGMA integrity_check")) == NULL)
		return DIAG_TROUBLE;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *p = store_col_str(q, 0), *nl;

		if (strcmp(p, "ok") == 0)
			continue;
		for (; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
			if ((nl = strchr(p, '\n')) == NULL)
				nl = p + strlen(p);
			if (nl > p && strncmp(p, "*** in database ", 16) != 0)
				problem(f, "SQLite integrity_check: %.*s",
				    (int)(nl - p), p);
		}
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? DIAG_OK : store_db_fail(f->s);
}

static int
fsck_blobs(struct fsck *f)
{
	char hash[SHA256_HEX];
	sqlite3_stmt *q;
	int rc;

	if ((q = store_prepare(f->s, "SELECT hash, size, data FROM blob"
	    " ORDER BY hash")) == NULL)
		return DIAG_TROUBLE;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const void *data = sqlite3_column_blob(q, 2);
		size_t n = store_col_len(q, 2);
		const char *hb = store_col_str(q, 0);

		if (!store_is_hash(hb, strlen(hb)))
			hb = store_qs(f->s, 0, hb);

		if (sha256_hex(data != NULL ? data : "", n, hash) != 0 ||
		    strcmp(hash, store_col_str(q, 0)) != 0)
			problem(f, "blob %s: its bytes hash to %s", hb, hash);
		if (sqlite3_column_int64(q, 1) != (long long)n)
			problem(f, "blob %s: size is %lld, its bytes are %zu",
			    hb, (long long)sqlite3_column_int64(q, 1), n);
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? DIAG_OK : store_db_fail(f->s);
}

static int
fsck_attachments(struct fsck *f)
{
	struct buf line = BUF_INIT;
	char hash[SHA256_HEX];
	struct att a;
	sqlite3_stmt *q;
	int rc;

	if ((q = store_prepare(f->s, "SELECT a.hash, a.topic_id, a.message_id,"
	    " a.xml_content, a.xml_blob, a.format, a.version, a.created_at,"
	    " a.size, b.size,"
	    " length(b.data), b.hash IS NOT NULL FROM attachment AS a"
	    " LEFT JOIN blob AS b ON b.hash = a.xml_blob ORDER BY a.id"))
	    == NULL)
		return DIAG_TROUBLE;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *h = store_col_str(q, 0), *hs, *ms;
		long long has;

		store_att_from_row(&a, q);
		/* (quoted in the messages unless they are plain) */
		hs = store_is_hash(h, strlen(h)) ? h : store_qs(f->s, 1, h);
		ms = store_qs(f->s, 0, a.message);
		if (a.content != NULL && a.blob != NULL)
			problem(f, "attachment %s (message %s): both "
			    "xmlContent and xmlBlob", hs, ms);
		else if (a.content == NULL && a.blob == NULL)
			problem(f, "attachment %s (message %s): neither "
			    "xmlContent nor xmlBlob", hs, ms);
		else if (a.content != NULL) {
			if ((long long)a.content_len != a.size)
				problem(f, "attachment %s (message %s): "
				    "size is %lld, its XML has %zu bytes", hs,
				    ms, a.size, a.content_len);
			if (a.content_len > STORE_INLINE_MAX)
				problem(f, "attachment %s (message %s): "
				    "inline XML of %zu bytes, over %d", hs,
				    ms, a.content_len,
				    STORE_INLINE_MAX);
		} else if (!sqlite3_column_int(q, 11))
			problem(f, "attachment %s (message %s): blob %s is "
			    "missing", hs, ms, a.blob);
		else {
			has = sqlite3_column_int64(q, 10);
			if (has != a.size)
				problem(f, "attachment %s (message %s): "
				    "size is %lld, its XML has %lld bytes", hs,
				    ms, a.size, has);
			if (has <= STORE_INLINE_MAX)
				problem(f, "attachment %s (message %s): "
				    "a blob of %lld bytes, not over %d", hs,
				    ms, has, STORE_INLINE_MAX);
		}
		buf_reset(&line);
		if (store_att_line(&line, &a, NULL, hash) == 0 &&
		    strcmp(hash, h))
			problem(f, "attachment %s (message %s): its fields "
			    "hash to %s", hs, ms, hash);
	}
	sqlite3_finalize(q);
	buf_free(&line);
	return rc == SQLITE_DONE ? DIAG_OK : store_db_fail(f->s);
}

int
store_fsck_templates(struct fsck *f)
{
	sqlite3_stmt *q;
	int rc;

	if ((q = store_prepare(f->s, "SELECT model_id, sum(active != 0) FROM"
	    " template GROUP BY model_id HAVING sum(active != 0) != 1"
	    " ORDER BY model_id")) == NULL)
		return DIAG_TROUBLE;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW)
		problem(f, "model %s: %lld active prompt templates",
		    store_qs(f->s, 0, store_col_str(q, 0)),
		    (long long)sqlite3_column_int64(q, 1));
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? DIAG_OK : store_db_fail(f->s);
}

int
store_fsck_summaries(struct fsck *f)
{
	sqlite3_stmt *q;
	struct buf topic = BUF_INIT;
	long long want = 1, v;
	int rc;

	if ((q = store_prepare(f->s, "SELECT topic_id, version FROM summary"
	    " ORDER BY topic_id, version")) == NULL)
		return DIAG_TROUBLE;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (topic.data == NULL ||
		    strcmp(topic.data, store_col_str(q, 0))) {
			buf_reset(&topic);
			buf_adds(&topic, store_col_str(q, 0));
			buf_addc(&topic, '\0');
			want = 1;
		}
		v = sqlite3_column_int64(q, 1);
		for (; want < v; want++)
			problem(f, "topic %s: summary version %lld is "
			    "missing", store_qs(f->s, 0, topic.data), want);
		want = v + 1;
	}
	sqlite3_finalize(q);
	buf_free(&topic);
	return rc == SQLITE_DONE ? DIAG_OK : store_db_fail(f->s);
}

/* A text column, or NULL when it is NULL; its length in *n. */
static const char *
col_opt(sqlite3_stmt *q, int i, size_t *n)
{
	*n = store_col_len(q, i);
	return sqlite3_column_type(q, i) == SQLITE_NULL ? NULL :
	    store_col_str(q, i);
}

/* The words of an attachment, a keyword or subject, a summary and a
 * template in the messages of import and fsck. */
void
store_obj_attachment(struct check *c, const char *hash, size_t hn,
    const char *message, size_t mn)
{
	buf_reset(&c->obj);
	buf_adds(&c->obj, "attachment ");
	if (store_is_hash(hash, hn))
		buf_add(&c->obj, hash, hn);
	else
		store_quote(&c->obj, hash, hn);
	buf_adds(&c->obj, " (message ");
	store_quote(&c->obj, message, mn);
	buf_addc(&c->obj, ')');
}

void
store_obj_named(struct check *c, const char *what, const char *name, size_t n,
    const char *topic, size_t tn)
{
	store_check_obj(c, what, name, n, " of topic ");
	store_quote(&c->obj, topic, tn);
}

void
store_obj_summary(struct check *c, const char *topic, size_t tn, long long v)
{
	buf_reset(&c->obj);
	buf_reset(&c->tmp);
	buf_add(&c->tmp, topic, tn);
	buf_printf(&c->tmp, "-v%lld", v);
	store_check_obj(c, "summary", c->tmp.data, c->tmp.len, "");
}

void
store_obj_template(struct check *c, const char *model, size_t mn, long long v)
{
	buf_reset(&c->obj);
	buf_printf(&c->obj, "version %lld of the prompt template of model ",
	    v);
	store_quote(&c->obj, model, mn);
}

/* The tables that fsck_fields reads, one query each. */
enum {
	F_ATTACHMENT, F_KEYWORD, F_KEYWORD_SUBJECT, F_SUBJECT,
	F_SUBJECT_KEYWORD, F_RANGE, F_SUMMARY, F_TEMPLATE, F_N
};

static const char *const fields_sql[F_N] = {
	[F_ATTACHMENT] = "SELECT a.hash, a.message_id, a.topic_id,"
	    " a.xml_content, b.data, a.format, a.created_at, a.id"
	    " FROM attachment AS a LEFT JOIN blob AS b ON b.hash = a.xml_blob"
	    " ORDER BY a.id",
	[F_KEYWORD] = "SELECT " KEYWORD_COLUMNS " FROM keyword"
	    " ORDER BY topic_id, term",
	[F_KEYWORD_SUBJECT] = "SELECT topic_id, term, subject_id"
	    " FROM keyword_subject ORDER BY topic_id, term, seq",
	[F_SUBJECT] = "SELECT " SUBJECT_COLUMNS " FROM subject"
	    " ORDER BY topic_id, id",
	[F_SUBJECT_KEYWORD] = "SELECT topic_id, subject_id, term"
	    " FROM subject_keyword ORDER BY topic_id, subject_id, seq",
	[F_RANGE] = "SELECT topic_id, subject_id, start, \"end\""
	    " FROM subject_range ORDER BY topic_id, subject_id, rowid",
	[F_SUMMARY] = "SELECT topic_id, version, update_text, subjects,"
	    " keywords, created_at, updated_at, change_reason, source_xml_hash"
	    " FROM summary ORDER BY topic_id, version",
	[F_TEMPLATE] = "SELECT " TEMPLATE_COLUMNS " FROM template"
	    " ORDER BY model_id, version",
};

/* The checks of one row of the table t. */
static void
fields_row(struct check *c, int t, sqlite3_stmt *q)
{
	const char *a, *b, *x, *src;
	size_t an, bn, xn, sn;
	double score;

	a = col_opt(q, 0, &an);
	b = col_opt(q, 1, &bn);
	if (a == NULL)
		a = "";
	if (b == NULL)
		b = "";
	switch (t) {
	case F_ATTACHMENT:
		store_obj_attachment(c, a, an, b, bn);
		/* the inline XML, or the blob's (none when it is missing) */
		if ((x = col_opt(q, 3, &xn)) == NULL &&
		    sqlite3_column_type(q, 4) != SQLITE_NULL) {
			x = sqlite3_column_blob(q, 4);
			xn = store_col_len(q, 4);
			if (x == NULL)
				x = "";
		}
		store_check_attachment(c, store_col_str(q, 2),
		    store_col_len(q, 2), b, bn, sqlite3_column_int64(q, 6),
		    sqlite3_column_int64(q, 7), x, xn, store_col_str(q, 5));
		break;
	case F_KEYWORD:
		store_obj_named(c, "keyword", b, bn, a, an);
		score = sqlite3_column_double(q, 3);
		src = col_opt(q, 6, &sn);
		store_check_keyword(c, a, an, b, bn, sqlite3_column_int64(q, 2),
		    sqlite3_column_type(q, 3) == SQLITE_NULL ? NULL : &score,
		    sqlite3_column_int64(q, 4), sqlite3_column_int64(q, 5),
		    src, sn, sqlite3_column_int64(q, 7),
		    sqlite3_column_int64(q, 8));
		break;
	case F_KEYWORD_SUBJECT:
	case F_SUBJECT_KEYWORD:
		store_obj_named(c,
		    t == F_KEYWORD_SUBJECT ? "keyword" : "subject", b, bn, a,
		    an);
		store_check_name(c,
		    t == F_KEYWORD_SUBJECT ? "subject" : "keyword",
		    store_col_str(q, 2), store_col_len(q, 2), 1);
		break;
	case F_SUBJECT:
		store_obj_named(c, "subject", b, bn, a, an);
		src = col_opt(q, 7, &sn);
		store_check_subject(c, a, an, b, bn, store_col_str(q, 2),
		    store_col_len(q, 2), sqlite3_column_int64(q, 3),
		    sqlite3_column_int64(q, 4), sqlite3_column_int64(q, 5), src,
		    sn, sqlite3_column_int64(q, 8), sqlite3_column_int64(q, 9));
		break;
	case F_RANGE:
		store_obj_named(c, "subject", b, bn, a, an);
		store_check_time_range(c, sqlite3_column_int64(q, 2),
		    sqlite3_column_int64(q, 3));
		break;
	case F_SUMMARY:
		store_obj_summary(c, a, an, sqlite3_column_int64(q, 1));
		x = col_opt(q, 7, &xn);
		src = col_opt(q, 8, &sn);
		store_check_summary(c, a, an, sqlite3_column_int64(q, 1),
		    store_col_str(q, 2), store_col_len(q, 2),
		    sqlite3_column_int64(q, 5), sqlite3_column_int64(q, 6), x,
		    xn, src, sn);
		store_check_name_array(c, "subject", store_col_str(q, 3),
		    store_col_len(q, 3));
		store_check_name_array(c, "keyword", store_col_str(q, 4),
		    store_col_len(q, 4));
		break;
	case F_TEMPLATE:
		store_obj_template(c, a, an, sqlite3_column_int64(q, 1));
		store_check_template(c, a, an, store_col_str(q, 2),
		    store_col_len(q, 2), sqlite3_column_int64(q, 1),
		    sqlite3_column_int64(q, 3), sqlite3_column_int64(q, 4),
		    sqlite3_column_int64(q, 5));
		break;
	}
}

/* What import would have refused: the checks of every field. */
static int
fsck_fields(struct fsck *f)
{
	struct check c;
	sqlite3_stmt *q;
	int t, rc = SQLITE_DONE, status = DIAG_OK;

	memset(&c, 0, sizeof(c));
	c.s = f->s;
	c.problems = &f->problems;
	for (t = 0; t < F_N && status == DIAG_OK; t++) {
		if ((q = store_prepare(f->s, fields_sql[t])) == NULL) {
			status = DIAG_TROUBLE;
			break;
		}
		while ((rc = sqlite3_step(q)) == SQLITE_ROW)
			fields_row(&c, t, q);
		sqlite3_finalize(q);
		if (rc != SQLITE_DONE)
			status = store_db_fail(f->s);
	}
	store_check_free(&c);
	return status;
}

/* Checks everything that the schema cannot; DIAG_INVALID on a problem. */
int
store_fsck(struct store *s)
{
	static int (*const checks[])(struct fsck *) = {
		fsck_integrity, fsck_blobs, fsck_attachments,
		store_fsck_templates, store_fsck_summaries, fsck_fields
	};
	struct fsck f = { s, 0, NULL, 0 };
	size_t i;
	int damage, trouble = 0;

	/* A check that SQLite stops on damage in the file has found a
	 * problem; the others still run. */
	s->checking = 1;
	for (i = 0; i < sizeof(checks) / sizeof(checks[0]) && !trouble; i++) {
		damage = s->damage;
		if (checks[i](&f) != DIAG_OK && s->damage == damage)
			trouble = 1;
	}
	s->checking = 0;
	if (trouble)
		return DIAG_TROUBLE;
	return f.problems + s->damage > 0 ? DIAG_INVALID : DIAG_OK;
}

