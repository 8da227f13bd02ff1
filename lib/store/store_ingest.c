/*
 * store: put, and what a response brings: its keywords, subjects and their
 * pairs, time ranges and summary version, gathered over a transaction and
 * written at its commit.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sqlite3.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/sha256.h"
#include "base/xalloc.h"
#include "contract/llmr.h"
#include "store/store_int.h"

static void
touches_clear(struct touches *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->v[i].key);
		free(t->v[i].desc);
		free(t->v[i].ranges);
	}
	free(t->v);
	json_decref(t->index);
	memset(t, 0, sizeof(*t));
}

/* The key of (topic, name) in b: the two joined by a NUL. */
static void
touch_key(struct buf *b, const char *topic, const struct buf *name)
{
	buf_reset(b);
	buf_adds(b, topic);
	buf_addc(b, '\0');
	buf_add(b, name->data, name->len);
}

/* The entry of a key, made when there is none; *made says which. */
static struct touch *
touch_get(struct touches *t, const struct buf *key, size_t topic_len,
    int *made)
{
	json_t *at;
	struct touch *e;

	if (t->index == NULL)
		t->index = json_object();
	if ((at = json_object_getn(t->index, key->data, key->len)) != NULL) {
		*made = 0;
		return &t->v[json_integer_value(at)];
	}
	if (t->n == t->size) {
		t->size = t->size ? 2 * t->size : 64;
		t->v = xreallocarray(t->v, t->size, sizeof(*t->v));
	}
	e = &t->v[t->n];
	memset(e, 0, sizeof(*e));
	e->key = xmemdup(key->data, key->len);
	e->topic_len = topic_len;
	e->name_len = key->len - topic_len - 1;
	if (json_object_setn_new(t->index, key->data, key->len,
	    json_integer((json_int_t)t->n)) != 0)
		xalloc_die();
	t->n++;
	*made = 1;
	return e;
}

/* What one response brings. */
struct ingest {
	struct store		*s;
	const struct store_doc	*d;
	struct topic_state	*topic;
	size_t			 subject;	/* its place in the touches */
	long long		 seq;		/* the attachment's id */
	long long		 now;
	long long		 place;		/* of a pair in the response */
	json_t			*subjects;	/* ids, for the summary */
	json_t			*terms;
	struct buf		 name;
	struct buf		 term;
	struct buf		 key;
	struct buf		 text;
	struct buf		 text2;
};

static int
pair_cmp(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->subject != y->subject)
		return x->subject < y->subject ? -1 : 1;
	if (x->keyword != y->keyword)
		return x->keyword < y->keyword ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Leaves each pair once, at its first place. */
static void
pairs_compact(struct store *s)
{
	size_t i, n = 0;

	if (s->npairs == 0)
		return;
	qsort(s->pairs, s->npairs, sizeof(*s->pairs), pair_cmp);
	for (i = 0; i < s->npairs; i++)
		if (n == 0 || s->pairs[n - 1].subject != s->pairs[i].subject ||
		    s->pairs[n - 1].keyword != s->pairs[i].keyword)
			s->pairs[n++] = s->pairs[i];
	s->npairs = n;
}

/*
 * Adds a pair for the list tables (the keywords of a subject, the
 * subjects of a keyword), in the order of the store: the attachment, then
 * the place in it. The pairs are written at commit; one the transaction
 * made before, or one the store has, keeps its place. Pairs met again and
 * again are folded now and then, so that memory goes with the pairs, not
 * with the occurrences.
 */
static void
pair(struct ingest *g, size_t subject, size_t keyword)
{
	struct store *s = g->s;
	struct pair *p;

	if (s->npairs == s->pairs_size) {
		pairs_compact(s);
		if (s->npairs >= s->pairs_size / 2) {
			s->pairs_size = s->pairs_size ? 2 * s->pairs_size :
			    1024;
			s->pairs = xreallocarray(s->pairs, s->pairs_size,
			    sizeof(*s->pairs));
		}
	}
	p = &s->pairs[s->npairs++];
	p->subject = subject;
	p->keyword = keyword;
	p->seq = g->seq * STORE_PLACES + g->place++;
}

/* A pair as it is written: the names of both sides. */
struct pair_row {
	const char	*first;		/* topic NUL name, of the side */
	size_t		 first_len;	/* ordered first */
	const char	*second;	/* the other side's name */
	size_t		 second_len;
	long long	 seq;
};

static int
pair_row_cmp(const void *a, const void *b)
{
	const struct pair_row *x = a, *y = b;
	size_t n = x->first_len < y->first_len ? x->first_len : y->first_len;
	int c = memcmp(x->first, y->first, n);

	if (c != 0 || x->first_len != y->first_len)
		return c != 0 ? c : x->first_len < y->first_len ? -1 : 1;
	n = x->second_len < y->second_len ? x->second_len : y->second_len;
	if ((c = memcmp(x->second, y->second, n)) != 0)
		return c;
	return (x->second_len > y->second_len) -
	    (x->second_len < y->second_len);
}

/*
 * Writes the pairs of the transaction to one list table, in the order of
 * its key (a b-tree fills fastest so): the keywords of each subject, or
 * (keywords set) the subjects of each keyword.
 */
static int
pairs_write(struct store *s, struct pair_row *rows, int keywords)
{
	const struct touch *a, *b;
	sqlite3_stmt *q;
	size_t i;

	for (i = 0; i < s->npairs; i++) {
		a = &s->subjects.v[s->pairs[i].subject];
		b = &s->keywords.v[s->pairs[i].keyword];
		if (keywords) {
			const struct touch *t = a;

			a = b;
			b = t;
		}
		rows[i].first = a->key;
		rows[i].first_len = a->topic_len + 1 + a->name_len;
		rows[i].second = b->key + b->topic_len + 1;
		rows[i].second_len = b->name_len;
		rows[i].seq = s->pairs[i].seq;
	}
	qsort(rows, s->npairs, sizeof(*rows), pair_row_cmp);
	for (i = 0; i < s->npairs; i++) {
		size_t topic_len = strlen(rows[i].first);

		if ((q = store_stmt(s, keywords ? Q_KEYWORD_SUBJECT :
		    Q_SUBJECT_KEYWORD)) == NULL)
			return DIAG_TROUBLE;
		store_bind_text(q, 1, rows[i].first, topic_len);
		store_bind_text(q, 2, rows[i].first + topic_len + 1,
		    rows[i].first_len - topic_len - 1);
		store_bind_text(q, 3, rows[i].second, rows[i].second_len);
		sqlite3_bind_int64(q, 4, rows[i].seq);
		if (store_step_done(s, q) != DIAG_OK)
			return DIAG_TROUBLE;
	}
	return DIAG_OK;
}

static int
pairs_flush(struct store *s)
{
	struct pair_row *rows;
	int status;

	if (s->npairs == 0)
		return DIAG_OK;
	pairs_compact(s);
	rows = xreallocarray(NULL, s->npairs, sizeof(*rows));
	status = pairs_write(s, rows, 0);
	if (status == DIAG_OK)
		status = pairs_write(s, rows, 1);
	free(rows);
	return status;
}

/* The subject's entry, read from the store the first time. */
static struct touch *
subject_touch(struct ingest *g)
{
	struct store *s = g->s;
	struct touch *e;
	sqlite3_stmt *q;
	size_t topic_len = strlen(g->d->topic);
	int made, rc;

	touch_key(&g->key, g->d->topic, &g->name);
	e = touch_get(&s->subjects, &g->key, topic_len, &made);
	if (!made)
		return e;
	if ((q = store_stmt(s, Q_SUBJECT_GET)) == NULL)
		return NULL;
	store_bind_str(q, 1, g->d->topic);
	store_bind_buf(q, 2, &g->name);
	if ((rc = sqlite3_step(q)) != SQLITE_ROW && rc != SQLITE_DONE) {
		store_db_fail(s);
		return NULL;
	}
	if (rc == SQLITE_ROW) {
		e->found = 1;
		e->seq = sqlite3_column_int64(q, 0);
		e->pos = sqlite3_column_int64(q, 1);
		e->range_rowid = sqlite3_column_int64(q, 2);
	}
	sqlite3_reset(q);
	e->created = g->now;
	memcpy(e->source, g->d->hash, SHA256_HEX);
	return e;
}

/*
 * A subject of the response: one more response for it, its description,
 * the keywords it gained, and its time ranges (the last one goes on while
 * the subject was in the topic's response before this one).
 */
static int
ingest_subject(struct ingest *g, const struct llmr_subject *sub,
    long long pos)
{
	struct diag_loc loc;
	struct touch *e;
	int goes_on;

	if ((e = subject_touch(g)) == NULL)
		return DIAG_TROUBLE;
	loc.file = g->d->file;
	loc.line = sub->line;
	loc.col = sub->col;
	loc.path = NULL;
	if (!e->found && !sub->is_new)
		diag_at(DIAG_WARNING, &loc, "is-new", "subject %s is marked "
		    "isNew=\"false\" but the topic has no such subject",
		    store_qs(g->s, 0, g->name.data));
	else if (e->found && sub->is_new && e->put_seq != g->seq)
		diag_at(DIAG_WARNING, &loc, "is-new", "subject %s is marked "
		    "isNew=\"true\" but the topic has it already",
		    store_qs(g->s, 0, g->name.data));

	if (e->put_seq != g->seq) {
		e->count++;
		goes_on = g->topic->prev != 0 && e->seq == g->topic->prev;
		if (goes_on && e->nranges > 0)
			e->ranges[e->nranges - 1].end = g->now;
		else if (goes_on && e->range_rowid != 0) {
			e->range_end = g->now;
			e->range_moved = 1;
		} else {
			e->ranges = xreallocarray(e->ranges, e->nranges + 1,
			    sizeof(*e->ranges));
			e->ranges[e->nranges].start = g->now;
			e->ranges[e->nranges++].end = g->now;
		}
		e->seq = e->put_seq = g->seq;
		e->pos = pos;
	}
	e->found = 1;
	e->seen = g->now;
	free(e->desc);
	e->desc = xmemdup(sub->description.s != NULL ? sub->description.s :
	    "", sub->description.len);
	e->desc_len = sub->description.len;
	g->subject = (size_t)(e - g->s->subjects.v);
	return DIAG_OK;
}

/*
 * A keyword of the response: one more occurrence, the latest score, and
 * (the first time in this response) its place in the recent order.
 */
static int
ingest_keyword(struct ingest *g, const struct llmr_keyword *kw,
    long long pos)
{
	struct touch *e;
	int made;

	touch_key(&g->key, g->d->topic, &g->term);
	e = touch_get(&g->s->keywords, &g->key, strlen(g->d->topic), &made);
	if (made) {
		e->created = g->now;
		memcpy(e->source, g->d->hash, SHA256_HEX);
	}
	e->count++;
	e->score = kw->confidence;
	e->seen = g->now;
	if (e->seq != g->seq) {
		e->seq = g->seq;
		e->pos = pos;
	}
	pair(g, g->subject, (size_t)(e - g->s->keywords.v));
	return DIAG_OK;
}

/* The row of a keyword (Q_KEYWORD_PUT) or a subject (Q_SUBJECT_PUT). */
static int
touch_write(struct store *s, int id, const struct touch *e)
{
	sqlite3_stmt *q;

	if ((q = store_stmt(s, id)) == NULL)
		return DIAG_TROUBLE;
	store_bind_text(q, 1, e->key, e->topic_len);
	store_bind_text(q, 2, e->key + e->topic_len + 1, e->name_len);
	sqlite3_bind_int64(q, 3, e->count);
	sqlite3_bind_int64(q, 4, e->created);
	sqlite3_bind_int64(q, 5, e->seen);
	store_bind_str(q, 6, e->source);
	sqlite3_bind_int64(q, 7, e->seq);
	sqlite3_bind_int64(q, 8, e->pos);
	if (id == Q_KEYWORD_PUT)
		sqlite3_bind_double(q, 9, e->score);
	else
		store_bind_text(q, 9, e->desc, e->desc_len);
	return store_step_done(s, q);
}

/* Writes the keywords and subjects the transaction touched. */
int
store_touches_flush(struct store *s)
{
	struct touch *e;
	struct range *r;
	sqlite3_stmt *q;
	size_t i, j;

	for (i = 0; i < s->keywords.n; i++)
		if (touch_write(s, Q_KEYWORD_PUT, &s->keywords.v[i]) != DIAG_OK)
			return DIAG_TROUBLE;
	for (i = 0; i < s->subjects.n; i++) {
		e = &s->subjects.v[i];
		if (touch_write(s, Q_SUBJECT_PUT, e) != DIAG_OK)
			return DIAG_TROUBLE;
		if (e->range_moved) {
			if ((q = store_stmt(s, Q_RANGE_EXTEND)) == NULL)
				return DIAG_TROUBLE;
			sqlite3_bind_int64(q, 1, e->range_rowid);
			sqlite3_bind_int64(q, 2, e->range_end);
			if (store_step_done(s, q) != DIAG_OK)
				return DIAG_TROUBLE;
		}
		for (j = 0; j < e->nranges; j++) {
			r = &e->ranges[j];
			if ((q = store_stmt(s, Q_RANGE_ADD)) == NULL)
				return DIAG_TROUBLE;
			store_bind_text(q, 1, e->key, e->topic_len);
			store_bind_text(q, 2, e->key + e->topic_len + 1,
			    e->name_len);
			sqlite3_bind_int64(q, 3, r->start);
			sqlite3_bind_int64(q, 4, r->end);
			if (store_step_done(s, q) != DIAG_OK)
				return DIAG_TROUBLE;
		}
	}
	return pairs_flush(s);
}

/* Forgets what the transaction touched. */
void
store_touches_drop(struct store *s)
{
	touches_clear(&s->keywords);
	touches_clear(&s->subjects);
	free(s->pairs);
	s->pairs = NULL;
	s->npairs = s->pairs_size = 0;

	json_decref(s->topics);
	s->topics = NULL;
	free(s->topic_v);
	s->topic_v = NULL;
	s->ntopics = 0;
}

/* The topic's state, read from the store the first time. */
static struct topic_state *
topic_state(struct store *s, const char *topic, long long seq)
{
	json_t *at;
	sqlite3_stmt *q;
	struct topic_state *t;
	int rc;

	if (s->topics == NULL)
		s->topics = json_object();
	if ((at = json_object_get(s->topics, topic)) != NULL)
		return &s->topic_v[json_integer_value(at)];
	s->topic_v = xreallocarray(s->topic_v, s->ntopics + 1,
	    sizeof(*s->topic_v));
	t = &s->topic_v[s->ntopics];
	memset(t, 0, sizeof(*t));
	if ((q = store_stmt(s, Q_PREV_RESPONSE)) == NULL)
		return NULL;
	store_bind_str(q, 1, topic);
	sqlite3_bind_int64(q, 2, seq);
	if ((rc = sqlite3_step(q)) == SQLITE_ROW)
		t->prev = sqlite3_column_int64(q, 0);
	sqlite3_reset(q);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		store_db_fail(s);
		return NULL;
	}
	if ((q = store_stmt(s, Q_SUMMARY_LAST)) == NULL)
		return NULL;
	store_bind_str(q, 1, topic);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		t->version = sqlite3_column_int64(q, 0);
	sqlite3_reset(q);
	if (rc != SQLITE_ROW) {
		store_db_fail(s);
		return NULL;
	}
	if (json_object_set_new(s->topics, topic,
	    json_integer((json_int_t)s->ntopics)) != 0)
		xalloc_die();
	s->ntopics++;
	return t;
}

/*
 * A new summary version. Each version keeps only what it brings (its
 * update, and the subjects and keywords of its response): the content of
 * version N, and its subjects and keywords, are gathered from versions 1
 * to N when they are read, so that a long conversation does not store its
 * summary N times over.
 */
static int
ingest_summary(struct ingest *g)
{
	const struct llmr_text *u = &g->d->doc->summary;
	struct store *s = g->s;
	sqlite3_stmt *q;
	const char *p = u->s, *end = u->s + u->len;

	while (p < end && strchr(" \t\r\n", *p) != NULL)
		p++;
	while (end > p && strchr(" \t\r\n", end[-1]) != NULL)
		end--;
	if (p == end)
		return DIAG_OK;

	buf_reset(&g->term);
	buf_adds(&g->term, "summaryUpdate of message ");
	buf_adds(&g->term, g->d->message);
	if ((q = store_stmt(s, Q_SUMMARY_ADD)) == NULL)
		return DIAG_TROUBLE;
	buf_reset(&g->text);
	store_write_str_array(&g->text, g->subjects);
	buf_reset(&g->text2);
	store_write_str_array(&g->text2, g->terms);
	store_bind_str(q, 1, g->d->topic);
	sqlite3_bind_int64(q, 2, ++g->topic->version);
	store_bind_text(q, 3, p, (size_t)(end - p));
	store_bind_buf(q, 4, &g->text);
	store_bind_buf(q, 5, &g->text2);
	sqlite3_bind_int64(q, 6, g->now);
	store_bind_buf(q, 7, &g->term);
	store_bind_str(q, 8, g->d->hash);
	return store_step_done(s, q);
}

/*
 * A subject name or term with a comma is stored, but left out of context:
 * llmq-encode joins list items with ", " and refuses an item that holds
 * one. Said at the subject's start tag (without "stored": the put may
 * still fail).
 */
static void
comma(struct ingest *g, const struct llmr_subject *sub, const char *what,
    struct buf *name)
{
	struct diag_loc loc = { g->d->file, sub->line, sub->col, NULL };

	diag_at(DIAG_WARNING, &loc, "context-comma", "%s %s holds a comma, "
	    "which llmq-encode refuses: context leaves it out", what,
	    store_qs(g->s, 0, buf_cstr(name)));
}

/* Subjects, keywords and the summary of a response, in document order. */
static int
ingest(struct store *s, const struct store_doc *d, long long seq,
    long long now)
{
	const struct llmr_doc *doc = d->doc;
	struct ingest g;
	long long kpos = 0;
	size_t i, j;
	int status = DIAG_OK;

	memset(&g, 0, sizeof(g));
	g.s = s;
	g.d = d;
	g.seq = seq;
	g.now = now;
	if ((g.topic = topic_state(s, d->topic, seq)) == NULL)
		return DIAG_TROUBLE;
	g.subjects = json_array();
	g.terms = json_array();
	for (i = 0; i < doc->nsubjects && status == DIAG_OK; i++) {
		const struct llmr_subject *sub = &doc->subjects[i];

		store_normalize(&g.name, sub->name.s, sub->name.len);
		if (g.name.len == 0)
			continue;
		store_array_add_unique(g.subjects, g.name.data, g.name.len);
		if (memchr(g.name.data, ',', g.name.len) != NULL)
			comma(&g, sub, "subject", &g.name);
		status = ingest_subject(&g, sub, (long long)i);
		for (j = 0; j < sub->nkeywords && status == DIAG_OK; j++) {
			store_normalize(&g.term, sub->keywords[j].term.s,
			    sub->keywords[j].term.len);
			if (g.term.len == 0)
				continue;
			if (memchr(g.term.data, ',', g.term.len) != NULL)
				comma(&g, sub, "keyword", &g.term);
			store_array_add_unique(g.terms, g.term.data,
			    g.term.len);
			status = ingest_keyword(&g, &sub->keywords[j], kpos++);
		}
	}
	if (status == DIAG_OK)
		status = ingest_summary(&g);
	g.topic->prev = seq;
	json_decref(g.subjects);
	json_decref(g.terms);
	buf_free(&g.name);
	buf_free(&g.term);
	buf_free(&g.key);
	buf_free(&g.text);
	buf_free(&g.text2);
	return status;
}

/* Whether a stored attachment holds exactly these bytes. */
static int
same_xml(struct store *s, sqlite3_stmt *q, const struct store_doc *d)
{
	char hash[SHA256_HEX];

	if ((long long)d->len != sqlite3_column_int64(q, 5))
		return 0;
	if (sqlite3_column_type(q, 3) != SQLITE_NULL)
		return store_col_len(q, 3) == d->len &&
		    memcmp(store_col_str(q, 3), d->xml, d->len) == 0;
	return sha256_hex(d->xml, d->len, hash) == 0 &&
	    strcmp(hash, store_col_str(q, 4)) == 0;
}

/*
 * Stores one validated document and ingests a response's analysis. A
 * message id that is stored already is no error when topic, format and
 * bytes are the same (the put is repeated): the hash is the stored one.
 */
int
store_put(struct store *s, struct store_doc *d)
{
	struct buf line = BUF_INIT;
	struct att a;
	sqlite3_stmt *q;
	char blob[SHA256_HEX];
	const char *format = d->doc->type == LLMR_QUERY ? "llm-query" :
	    "llm-response";
	long long seq;
	int rc, status = DIAG_TROUBLE;

	if ((q = store_stmt(s, Q_ATT_BY_MSG)) == NULL)
		return DIAG_TROUBLE;
	store_bind_str(q, 1, d->message);
	if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (strcmp(store_col_str(q, 1), d->topic) == 0 &&
		    strcmp(store_col_str(q, 2), format) == 0 &&
		    same_xml(s, q, d)) {
			snprintf(d->hash, sizeof(d->hash), "%s",
			    store_col_str(q, 0));
			status = DIAG_OK;
		} else {
			diag_warnx("message %s is already stored "
			    "(attachment %s)", store_qs(s, 0, d->message),
			    store_col_str(q, 0));
			status = DIAG_INVALID;
		}
		sqlite3_reset(q);
		return status;
	}
	sqlite3_reset(q);
	if (rc != SQLITE_DONE)
		return store_db_fail(s);

	memset(&a, 0, sizeof(a));
	a.topic = d->topic;
	a.message = d->message;
	a.format = format;
	a.version = 1;
	a.created = store_now_ms();
	a.size = (long long)d->len;
	if (d->len <= STORE_INLINE_MAX) {
		a.content = d->xml;
		a.content_len = d->len;
	} else {
		if (sha256_hex(d->xml, d->len, blob) != 0)
			goto crypto;
		a.blob = blob;
		if ((q = store_stmt(s, Q_BLOB_ADD)) == NULL)
			return DIAG_TROUBLE;
		store_bind_str(q, 1, blob);
		sqlite3_bind_int64(q, 2, (long long)d->len);
		sqlite3_bind_blob64(q, 3, d->xml, d->len, SQLITE_STATIC);
		if (store_step_done(s, q) != DIAG_OK)
			return DIAG_TROUBLE;
	}
	if (store_att_line(&line, &a, NULL, d->hash) != 0)
		goto crypto;
	buf_free(&line);
	if ((q = store_stmt(s, Q_ATT_ADD)) == NULL)
		return DIAG_TROUBLE;
	sqlite3_bind_null(q, 1);
	store_att_bind(q, d->hash, &a);
	if (store_step_done(s, q) != DIAG_OK)
		return DIAG_TROUBLE;
	seq = sqlite3_last_insert_rowid(s->db);
	if (seq > STORE_SEQ_MAX) {
		/* reached only after an import of places at the limit */
		diag_warnx("%s: the store is full: no place after %lld is left "
		    "for message %s", s->path, STORE_SEQ_MAX,
		    store_qs(s, 0, d->message));
		return DIAG_TROUBLE;
	}
	if (d->doc->type == LLMR_RESPONSE)
		return ingest(s, d, seq, a.created);
	return DIAG_OK;
crypto:
	buf_free(&line);
	diag_warnx("%s: SHA-256 failed", s->path);
	return DIAG_TROUBLE;
}

