/* store: the objects as JSON lines, and names quoted for diagnostics. */
#include <string.h>

#include <jansson.h>
#include <sqlite3.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/jsonw.h"
#include "base/sha256.h"
#include "base/utf8.h"
#include "store/store_int.h"

/* The attachment as a JSON object without its hash (what is hashed). */
static void
att_json(struct buf *b, const struct att *a)
{
	buf_adds(b, "{\"$type$\":\"XMLMessageAttachment\",\"topicId\":");
	store_jstr(b, a->topic, strlen(a->topic));
	buf_adds(b, ",\"messageId\":");
	store_jstr(b, a->message, strlen(a->message));
	if (a->content != NULL) {
		buf_adds(b, ",\"xmlContent\":");
		store_jstr(b, a->content, a->content_len);
	}
	if (a->blob != NULL) {
		buf_adds(b, ",\"xmlBlob\":");
		store_jstr(b, a->blob, strlen(a->blob));
	}
	buf_adds(b, ",\"format\":");
	store_jstr(b, a->format, strlen(a->format));
	buf_printf(b, ",\"version\":%lld,\"createdAt\":%lld,\"size\":%lld}",
	    a->version, a->created, a->size);
}

/* Appends the attachment's line; hash in out when out is not NULL. */
int
store_att_line(struct buf *b, const struct att *a, const char *stored,
    char out[SHA256_HEX])
{
	char hash[SHA256_HEX];
	size_t start = b->len;

	att_json(b, a);
	if (sha256_hex(b->data + start, b->len - start, hash) != 0)
		return -1;
	if (out != NULL)
		memcpy(out, hash, SHA256_HEX);
	b->len--;		/* the closing brace */
	buf_adds(b, ",\"hash\":\"");
	buf_adds(b, stored != NULL ? stored : hash);
	buf_adds(b, "\"}");
	return 0;
}

/* The attachment of the row "hash, topic_id, message_id, xml_content,
 * xml_blob, format, version, created_at, size" from column 0. */
void
store_att_from_row(struct att *a, sqlite3_stmt *q)
{
	a->topic = store_col_str(q, 1);
	a->message = store_col_str(q, 2);
	a->content = sqlite3_column_type(q, 3) == SQLITE_NULL ? NULL :
	    store_col_str(q, 3);
	a->content_len = store_col_len(q, 3);
	a->blob = sqlite3_column_type(q, 4) == SQLITE_NULL ? NULL :
	    store_col_str(q, 4);
	a->format = store_col_str(q, 5);
	a->version = sqlite3_column_int64(q, 6);
	a->created = sqlite3_column_int64(q, 7);
	a->size = sqlite3_column_int64(q, 8);
}

/*
 * Binds the attachment a and its hash to Q_ATT_ADD's parameters 2 to 10;
 * the caller binds the seq, 1.
 */
void
store_att_bind(sqlite3_stmt *q, const char *hash, const struct att *a)
{
	store_bind_str(q, 2, hash);
	store_bind_str(q, 3, a->topic);
	store_bind_str(q, 4, a->message);
	store_bind_text(q, 5, a->content, a->content_len);
	store_bind_str(q, 6, a->blob);
	store_bind_str(q, 7, a->format);
	sqlite3_bind_int64(q, 8, a->version);
	sqlite3_bind_int64(q, 9, a->created);
	sqlite3_bind_int64(q, 10, a->size);
}

/*
 * Trims white space (space, tab, CR, LF), lower-cases ASCII letters and
 * makes each run of white space inside one space: how terms and subject
 * names are compared.
 */
void
store_normalize(struct buf *b, const char *s, size_t n)
{
	size_t i;
	int space = 0;

	buf_reset(b);
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
			space = b->len > 0;
			continue;
		}
		if (space)
			buf_addc(b, ' ');
		space = 0;
		buf_addc(b, c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c);
	}
	buf_addc(b, '\0');
	b->len--;
}

/*
 * Appends s quoted for a diagnostic: in double quotes, with JSON's
 * escapes for quotes, backslashes and control characters, and each byte
 * that is not part of valid UTF-8 as \xHH, so that a line on standard
 * error stays one line of valid UTF-8 whatever the name holds.
 */
void
store_quote(struct buf *b, const char *s, size_t n)
{
	size_t i = 0, ok;

	buf_addc(b, '"');
	while (i < n) {
		ok = utf8_valid(s + i, n - i);
		jsonw_escape(b, s + i, ok);
		i += ok;
		if (i < n)
			buf_printf(b, "\\x%02X", (unsigned char)s[i++]);
	}
	buf_addc(b, '"');
}

/* The inside of a JSON string of output, valid JSON whatever the store
 * holds: a byte that is not UTF-8 (only a file changed by other means has
 * one) is written as U+FFFD. */
void
store_jesc(struct buf *b, const char *s, size_t n)
{
	size_t i = 0, ok;

	while (i < n) {
		ok = utf8_valid(s + i, n - i);
		jsonw_escape(b, s + i, ok);
		i += ok;
		if (i < n) {
			buf_adds(b, "\xEF\xBF\xBD");
			i++;
		}
	}
}

void
store_jstr(struct buf *b, const char *s, size_t n)
{
	buf_addc(b, '"');
	store_jesc(b, s, n);
	buf_addc(b, '"');
}

/* A name quoted for a diagnostic (store_quote), in the buffer of slot. */
const char *
store_qs(struct store *s, int slot, const char *p)
{
	buf_reset(&s->quoted[slot]);
	store_quote(&s->quoted[slot], p, strlen(p));
	return buf_cstr(&s->quoted[slot]);
}

void
store_array_add_unique(json_t *a, const char *s, size_t n)
{
	size_t i;
	json_t *v;

	json_array_foreach(a, i, v) {
		if (json_is_string(v) && json_string_length(v) == n &&
		    memcmp(json_string_value(v), s, n) == 0)
			return;
	}
	json_array_append_new(a, json_stringn(s, n));
}

void
store_write_str_array(struct buf *b, const json_t *a)
{
	size_t i;
	json_t *v;

	buf_addc(b, '[');
	json_array_foreach(a, i, v) {
		if (i > 0)
			buf_addc(b, ',');
		store_jstr(b, json_string_value(v), json_string_length(v));
	}
	buf_addc(b, ']');
}

