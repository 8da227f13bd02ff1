/* store: the system prompt templates of each model, versioned. */
#include <string.h>

#include <sqlite3.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/io.h"
#include "store/store_int.h"

/* Columns: model_id, version, prompt_text, xml_schema_version,
 * created_at, updated_at, active. */
int
store_template_line(struct store *s, struct buf *b, sqlite3_stmt *q, int export)
{
	buf_reset(b);
	buf_adds(b, "{\"$type$\":\"SystemPromptTemplate\"");
	store_member_str(b, "modelId", q, 0);
	if (export)
		store_member_str(b, "promptText", q, 2);
	store_member_int(b, "xmlSchemaVersion", q, 3);
	store_member_int(b, "version", q, 1);
	store_member_int(b, "createdAt", q, 4);
	store_member_int(b, "updatedAt", q, 5);
	buf_adds(b, sqlite3_column_int64(q, 6) ? ",\"active\":true" :
	    ",\"active\":false");
	if (!export)
		buf_printf(b, ",\"size\":%zu", store_col_len(q, 2));
	buf_adds(b, "}\n");
	(void)s;
	return DIAG_OK;
}

/* The new template's line goes in out, for the caller to write once the
 * transaction is committed. */
int
store_prompt_set(struct store *s, const char *model, long xml_version,
    const char *text, size_t len, struct buf *out)
{
	sqlite3_stmt *q;
	long long now = store_now_ms();
	int status;

	if ((q = store_prepare(s,
	    "UPDATE template SET active = 0, updated_at = ?2"
	    " WHERE model_id = ?1 AND active")) == NULL)
		return DIAG_TROUBLE;
	store_bind_str(q, 1, model);
	sqlite3_bind_int64(q, 2, now);
	status = store_step_done(s, q);
	sqlite3_finalize(q);
	if (status != DIAG_OK)
		return status;
	if ((q = store_prepare(s, "INSERT INTO template (model_id, version,"
	    " prompt_text, xml_schema_version, created_at, updated_at, active)"
	    " SELECT ?1, coalesce(max(version), 0) + 1, ?2, ?3, ?4, ?4, 1"
	    " FROM template WHERE model_id = ?1 RETURNING " TEMPLATE_COLUMNS))
	    == NULL)
		return DIAG_TROUBLE;
	store_bind_str(q, 1, model);
	store_bind_text(q, 2, text, len);
	sqlite3_bind_int64(q, 3, xml_version);
	sqlite3_bind_int64(q, 4, now);
	if (sqlite3_step(q) != SQLITE_ROW)
		status = store_db_fail(s);
	else
		status = store_template_line(s, out, q, 0);
	sqlite3_finalize(q);
	return status;
}

int
store_prompt_get(struct store *s, const char *model, long version, FILE *out)
{
	sqlite3_stmt *q;
	int rc, status = DIAG_OK;

	if ((q = store_prepare(s, "SELECT prompt_text FROM template WHERE"
	    " model_id = ?1 AND (?2 = 0 AND active OR version = ?2)")) == NULL)
		return DIAG_TROUBLE;
	store_bind_str(q, 1, model);
	sqlite3_bind_int64(q, 2, version);
	if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (io_write(store_col_str(q, 0), store_col_len(q, 0),
		    out) != 0)
			status = DIAG_TROUBLE;
	} else if (rc == SQLITE_DONE) {
		if (version == 0)
			diag_warnx("no prompt template for model %s",
			    store_qs(s, 0, model));
		else
			diag_warnx("no version %ld of the prompt template for "
			    "model %s", version, store_qs(s, 0, model));
		status = DIAG_INVALID;
	} else
		status = store_db_fail(s);
	sqlite3_finalize(q);
	return status;
}

int
store_prompt_ls(struct store *s, const char *model, FILE *out)
{
	return store_listing(s,
	    "SELECT " TEMPLATE_COLUMNS " FROM template WHERE"
	    " ?1 IS NULL OR model_id = ?1 ORDER BY model_id, version",
	    model, store_template_line, out);
}

