/*
 * store: seed 001's objects in an SQLite file (see store.h): the schema,
 * the plumbing over SQLite, opening a store and its transactions. The
 * rest is in lib/store_*.c (see store_int.h).
 */
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <sqlite3.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/io.h"
#include "base/jsonw.h"
#include "base/sha256.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "contract/llmr.h"
#include "store/store.h"
#include "store/store_int.h"

/* How long a command waits for another that holds the store (ms). */
#define STORE_BUSY_MS	60000

static const char schema_sql[] =
    "PRAGMA application_id = 1280068947;"
    "PRAGMA user_version = 1;"
    "CREATE TABLE blob ("
    " hash TEXT PRIMARY KEY NOT NULL,"
    " size INTEGER NOT NULL,"
    " data BLOB NOT NULL);"
    "CREATE TABLE attachment ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " hash TEXT NOT NULL UNIQUE,"
    " topic_id TEXT NOT NULL,"
    " message_id TEXT NOT NULL UNIQUE,"
    " xml_content TEXT,"
    " xml_blob TEXT,"
    " format TEXT NOT NULL CHECK (format IN ('llm-query', 'llm-response')),"
    " version INTEGER NOT NULL,"
    " created_at INTEGER NOT NULL,"
    " size INTEGER NOT NULL,"
    " CHECK ((xml_content IS NULL) <> (xml_blob IS NULL)));"
    "CREATE INDEX attachment_topic ON attachment (topic_id, id);"
    "CREATE INDEX attachment_blob ON attachment (xml_blob)"
    " WHERE xml_blob IS NOT NULL;"
    "CREATE TABLE subject ("
    " topic_id TEXT NOT NULL,"
    " id TEXT NOT NULL,"
    " description TEXT NOT NULL,"
    " message_count INTEGER NOT NULL,"
    " created_at INTEGER NOT NULL,"
    " last_seen_at INTEGER NOT NULL,"
    " archived INTEGER NOT NULL,"
    " source_xml_hash TEXT,"
    " last_seq INTEGER NOT NULL,"
    " last_pos INTEGER NOT NULL,"
    " PRIMARY KEY (topic_id, id)) WITHOUT ROWID;"
    "CREATE INDEX subject_recent ON subject (topic_id, last_seq DESC,"
    " last_pos);"
    "CREATE TABLE subject_keyword ("
    " topic_id TEXT NOT NULL,"
    " subject_id TEXT NOT NULL,"
    " term TEXT NOT NULL,"
    " seq INTEGER NOT NULL,"
    " PRIMARY KEY (topic_id, subject_id, term)) WITHOUT ROWID;"
    "CREATE TABLE subject_range ("
    " topic_id TEXT NOT NULL,"
    " subject_id TEXT NOT NULL,"
    " start INTEGER NOT NULL,"
    " \"end\" INTEGER NOT NULL);"
    "CREATE INDEX subject_range_subject ON subject_range (topic_id,"
    " subject_id);"
    "CREATE TABLE keyword ("
    " topic_id TEXT NOT NULL,"
    " term TEXT NOT NULL,"
    " frequency INTEGER NOT NULL,"
    " score REAL,"
    " created_at INTEGER NOT NULL,"
    " last_seen INTEGER NOT NULL,"
    " source_xml_hash TEXT,"
    " last_seq INTEGER NOT NULL,"
    " last_pos INTEGER NOT NULL,"
    " PRIMARY KEY (topic_id, term)) WITHOUT ROWID;"
    "CREATE INDEX keyword_recent ON keyword (topic_id, last_seq DESC,"
    " last_pos);"
    "CREATE TABLE keyword_subject ("
    " topic_id TEXT NOT NULL,"
    " term TEXT NOT NULL,"
    " subject_id TEXT NOT NULL,"
    " seq INTEGER NOT NULL,"
    " PRIMARY KEY (topic_id, term, subject_id)) WITHOUT ROWID;"
    "CREATE TABLE summary ("
    " topic_id TEXT NOT NULL,"
    " version INTEGER NOT NULL,"
    " update_text TEXT NOT NULL,"
    " subjects TEXT NOT NULL,"
    " keywords TEXT NOT NULL,"
    " created_at INTEGER NOT NULL,"
    " updated_at INTEGER NOT NULL,"
    " change_reason TEXT,"
    " source_xml_hash TEXT,"
    " PRIMARY KEY (topic_id, version));"
    "CREATE TABLE template ("
    " model_id TEXT NOT NULL,"
    " version INTEGER NOT NULL,"
    " prompt_text TEXT NOT NULL,"
    " xml_schema_version INTEGER NOT NULL,"
    " created_at INTEGER NOT NULL,"
    " updated_at INTEGER NOT NULL,"
    " active INTEGER NOT NULL,"
    " PRIMARY KEY (model_id, version));"
    "CREATE UNIQUE INDEX template_active ON template (model_id) WHERE active;";

const char *const store_sql[Q_NQ] = {
	[Q_ATT_BY_MSG] = "SELECT hash, topic_id, format, xml_content, xml_blob,"
	    " size FROM attachment WHERE message_id = ?1",
	[Q_BLOB_ADD] = "INSERT OR IGNORE INTO blob (hash, size, data)"
	    " VALUES (?1, ?2, ?3)",
	[Q_ATT_ADD] = "INSERT INTO attachment (id, hash, topic_id, message_id,"
	    " xml_content, xml_blob, format, version, created_at, size)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
	[Q_PREV_RESPONSE] = "SELECT id FROM attachment WHERE topic_id = ?1"
	    " AND format = 'llm-response' AND id < ?2 ORDER BY id DESC LIMIT 1",
	[Q_SUBJECT_GET] = "SELECT last_seq, last_pos, (SELECT max(rowid) FROM"
	    " subject_range WHERE topic_id = ?1 AND subject_id = ?2)"
	    " FROM subject WHERE topic_id = ?1 AND id = ?2",
	[Q_SUBJECT_PUT] = "INSERT INTO subject (topic_id, id, message_count,"
	    " created_at, last_seen_at, source_xml_hash, last_seq, last_pos,"
	    " description, archived)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 0)"
	    " ON CONFLICT (topic_id, id) DO UPDATE SET"
	    " description = excluded.description,"
	    " message_count = message_count + excluded.message_count,"
	    " last_seen_at = excluded.last_seen_at,"
	    " last_seq = excluded.last_seq, last_pos = excluded.last_pos",
	[Q_SUBJECT_KEYWORD] = "INSERT OR IGNORE INTO subject_keyword (topic_id,"
	    " subject_id, term, seq) VALUES (?1, ?2, ?3, ?4)",
	[Q_RANGE_ADD] = "INSERT INTO subject_range (topic_id, subject_id, start,"
	    " \"end\") VALUES (?1, ?2, ?3, ?4)",
	[Q_RANGE_EXTEND] = "UPDATE subject_range SET \"end\" = ?2"
	    " WHERE rowid = ?1",
	[Q_KEYWORD_PUT] = "INSERT INTO keyword (topic_id, term, frequency,"
	    " created_at, last_seen, source_xml_hash, last_seq, last_pos, score)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
	    " ON CONFLICT (topic_id, term) DO UPDATE SET"
	    " frequency = frequency + excluded.frequency,"
	    " score = excluded.score, last_seen = excluded.last_seen,"
	    " last_seq = excluded.last_seq, last_pos = excluded.last_pos",
	[Q_KEYWORD_SUBJECT] = "INSERT OR IGNORE INTO keyword_subject (topic_id,"
	    " term, subject_id, seq) VALUES (?1, ?2, ?3, ?4)",
	[Q_SUMMARY_LAST] = "SELECT coalesce(max(version), 0) FROM summary"
	    " WHERE topic_id = ?1",
	[Q_SUMMARY_ADD] = "INSERT INTO summary (topic_id, version, update_text,"
	    " subjects, keywords, created_at, updated_at, change_reason,"
	    " source_xml_hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7, ?8)",
	[Q_BLOB_GET] = "SELECT data FROM blob WHERE hash = ?1",
	[Q_SUBJECT_KEYWORDS] = "SELECT term FROM subject_keyword WHERE"
	    " topic_id = ?1 AND subject_id = ?2 ORDER BY seq",
	[Q_SUBJECT_RANGES] = "SELECT start, \"end\" FROM subject_range WHERE"
	    " topic_id = ?1 AND subject_id = ?2 ORDER BY rowid",
	[Q_KEYWORD_SUBJECTS] = "SELECT subject_id FROM keyword_subject WHERE"
	    " topic_id = ?1 AND term = ?2 ORDER BY seq",
};

/* ------------------------------------------------------------ plumbing */

/* SQLite's complaint; for a file it could not open, the system's. */
int
store_db_fail(struct store *s)
{
	int e = sqlite3_system_errno(s->db), rc = sqlite3_errcode(s->db);

	if (s->checking && (rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB)) {
		/* for fsck, damage found in the file, not trouble */
		diag_warnx("%s: fsck: %s", s->path, sqlite3_errmsg(s->db));
		s->damage++;
	} else if (rc == SQLITE_CANTOPEN && e != 0)
		diag_warnx("%s: %s", s->path, strerror(e));
	else
		diag_warnx("%s: %s", s->path, sqlite3_errmsg(s->db));
	return DIAG_TROUBLE;
}

/* A prepared statement of the cache, reset (the caller binds every
 * parameter); NULL reported. */
sqlite3_stmt *
store_stmt(struct store *s, int id)
{
	sqlite3_stmt *q = s->q[id];

	if (q == NULL) {
		if (sqlite3_prepare_v3(s->db, store_sql[id], -1,
		    SQLITE_PREPARE_PERSISTENT, &s->q[id], NULL) != SQLITE_OK) {
			store_db_fail(s);
			return NULL;
		}
		return s->q[id];
	}
	sqlite3_reset(q);
	return q;
}

/* A statement for one use; NULL reported. */
sqlite3_stmt *
store_prepare(struct store *s, const char *text)
{
	sqlite3_stmt *q;

	if (sqlite3_prepare_v2(s->db, text, -1, &q, NULL) != SQLITE_OK) {
		store_db_fail(s);
		return NULL;
	}
	return q;
}

void
store_bind_text(sqlite3_stmt *q, int i, const char *p, size_t n)
{
	if (p == NULL)
		sqlite3_bind_null(q, i);
	else
		sqlite3_bind_text64(q, i, p, n, SQLITE_STATIC, SQLITE_UTF8);
}

void
store_bind_str(sqlite3_stmt *q, int i, const char *p)
{
	store_bind_text(q, i, p, p != NULL ? strlen(p) : 0);
}

void
store_bind_buf(sqlite3_stmt *q, int i, const struct buf *b)
{
	store_bind_text(q, i, b->len > 0 ? b->data : "", b->len);
}

const char *
store_col_str(sqlite3_stmt *q, int i)
{
	const char *p = (const char *)sqlite3_column_text(q, i);

	return p != NULL ? p : "";
}

size_t
store_col_len(sqlite3_stmt *q, int i)
{
	return (size_t)sqlite3_column_bytes(q, i);
}

/* Steps a statement that returns no row. */
int
store_step_done(struct store *s, sqlite3_stmt *q)
{
	int rc = sqlite3_step(q);

	sqlite3_reset(q);
	if (rc != SQLITE_DONE)
		return store_db_fail(s);
	return DIAG_OK;
}

int
store_exec(struct store *s, const char *text)
{
	if (sqlite3_exec(s->db, text, NULL, NULL, NULL) != SQLITE_OK)
		return store_db_fail(s);
	return DIAG_OK;
}

/* Milliseconds since the epoch, or $LLMSTORE_NOW when it is set. */
long long
store_now_ms(void)
{
	const char *env = getenv("LLMSTORE_NOW");
	struct timespec ts;

	if (env != NULL && *env != '\0' &&
	    strspn(env, "0123456789") == strlen(env) && strlen(env) <= 15)
		return strtoll(env, NULL, 10);
	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int
store_writes(FILE *out, const struct buf *b)
{
	return io_write(b->data, b->len, out) == 0 ? DIAG_OK : DIAG_TROUBLE;
}

/* ------------------------------------------------------------- opening */

/*
 * SQLite's busy handler: while another command holds the store, try again
 * soon (SQLite's own handler sleeps up to 100 ms between tries, which
 * makes writers that queue slow), for up to STORE_BUSY_MS in all.
 */
static int
busy(void *arg, int count)
{
	struct store *s = arg;
	struct timespec t, nap;
	long ms;

	clock_gettime(CLOCK_MONOTONIC, &t);
	if (count == 0)
		s->busy_since = t;
	ms = (t.tv_sec - s->busy_since.tv_sec) * 1000 +
	    (t.tv_nsec - s->busy_since.tv_nsec) / 1000000;
	if (ms >= STORE_BUSY_MS)
		return 0;
	nap.tv_sec = 0;
	nap.tv_nsec = count < 50 ? 500000 : count < 500 ? 2000000 : 10000000;
	nanosleep(&nap, NULL);
	return 1;
}

static int
pragma_int(struct store *s, const char *text, long long *v)
{
	sqlite3_stmt *q;
	int rc;

	if (sqlite3_prepare_v2(s->db, text, -1, &q, NULL) != SQLITE_OK)
		return sqlite3_errcode(s->db);
	rc = sqlite3_step(q);
	*v = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
	sqlite3_finalize(q);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int
not_ours(struct store *s, int rc)
{
	if (rc != SQLITE_OK && rc != SQLITE_NOTADB)
		/* (store_db_fail tells CANTOPEN apart) */
		return store_db_fail(s);
	if (rc == SQLITE_NOTADB)
		diag_warnx("%s: not an llmstore database (%s)", s->path,
		    sqlite3_errmsg(s->db));
	else
		diag_warnx("%s: not an llmstore database", s->path);
	return DIAG_TROUBLE;
}

/*
 * The tables of the schema as empty temporary ones, for a command that
 * reads an empty file: it sees an empty store and leaves the file as it
 * is (only writers make a file a store).
 */
static int
temp_schema(struct store *s)
{
	struct buf b = BUF_INIT;
	const char *p = schema_sql, *end;
	int status;

	while ((end = strchr(p, ';')) != NULL) {
		if (strncmp(p, "CREATE TABLE ", 13) == 0) {
			buf_adds(&b, "CREATE TEMP TABLE ");
			buf_add(&b, p + 13, (size_t)(end - p - 13) + 1);
		}
		p = end + 1;
	}
	buf_addc(&b, '\0');
	status = store_exec(s, b.data);
	buf_free(&b);
	return status;
}

/*
 * Reads the header. A file without tables becomes a new store when the
 * command writes; for one that reads, it is an empty store.
 */
static int
check_store(struct store *s, int create)
{
	long long app, ver, tables;
	int rc;

	if ((rc = pragma_int(s, "PRAGMA application_id", &app)) != SQLITE_OK ||
	    (rc = pragma_int(s, "PRAGMA user_version", &ver)) != SQLITE_OK)
		return not_ours(s, rc);
	if (app == 0 && ver == 0 && !create) {
		if ((rc = pragma_int(s, "SELECT count(*) FROM sqlite_schema",
		    &tables)) != SQLITE_OK)
			return not_ours(s, rc);
		if (tables > 0)
			return not_ours(s, SQLITE_OK);
		return temp_schema(s);
	}
	if (app == 0 && ver == 0) {
		/*
		 * Pages of 32 KiB (set while the file is empty): a response
		 * of some kilobytes fits in its row's page rather than in a
		 * chain of overflow pages, which halves the pages a batch
		 * writes. No effect on a file that has tables already.
		 */
		if (store_exec(s, "PRAGMA page_size = 32768") != DIAG_OK ||
		    store_exec(s, "BEGIN IMMEDIATE") != DIAG_OK)
			return DIAG_TROUBLE;
		if ((rc = pragma_int(s, "PRAGMA application_id", &app)) !=
		    SQLITE_OK || (rc = pragma_int(s, "SELECT count(*) FROM "
		    "sqlite_schema", &tables)) != SQLITE_OK) {
			store_exec(s, "ROLLBACK");
			return not_ours(s, rc);
		}
		if (app == 0 && tables == 0) {
			if (store_exec(s, schema_sql) != DIAG_OK) {
				store_exec(s, "ROLLBACK");
				return DIAG_TROUBLE;
			}
			ver = STORE_SCHEMA;
			app = STORE_APPLICATION_ID;
		} else if (app == 0) {
			store_exec(s, "ROLLBACK");
			return not_ours(s, SQLITE_OK);
		} else
			pragma_int(s, "PRAGMA user_version", &ver);
		if (store_exec(s, "COMMIT") != DIAG_OK)
			return DIAG_TROUBLE;
	}
	if (app != STORE_APPLICATION_ID || ver < 1)
		return not_ours(s, SQLITE_OK);
	if (ver > STORE_SCHEMA) {
		diag_warnx("%s: written by a newer llmstore (schema %lld); this "
		    "one reads schema %d", s->path, ver, STORE_SCHEMA);
		return DIAG_TROUBLE;
	}
	return DIAG_OK;
}

/*
 * Whether a new file can be made where path says, errno set when not (so
 * that the message is the system's, not SQLite's "unable to open").
 */
static int
dir_writable(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int ok, e;

	if (slash == NULL)
		return access(".", W_OK | X_OK) == 0;
	if (slash == path)
		return access("/", W_OK | X_OK) == 0;
	if ((dir = strndup(path, (size_t)(slash - path))) == NULL)
		return 0;
	ok = access(dir, W_OK | X_OK) == 0;
	e = errno;
	free(dir);
	errno = e;
	return ok;
}

/*
 * Opens the database; with SQLITE_OPEN_URI in flags, as the URI of an
 * immutable file (see frozen()).
 */
static int
db_open(struct store *s, const char *path, int flags)
{
	struct buf uri = BUF_INIT;
	const unsigned char *p;
	int rc;

	if (flags & SQLITE_OPEN_URI) {
		buf_adds(&uri, "file:");
		for (p = (const unsigned char *)path; *p != '\0'; p++)
			if (strchr("/._-", *p) != NULL ||
			    (*p >= '0' && *p <= '9') ||
			    ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z'))
				buf_addc(&uri, (char)*p);
			else
				buf_printf(&uri, "%%%02X", *p);
		buf_adds(&uri, "?immutable=1");
	}
	rc = sqlite3_open_v2(flags & SQLITE_OPEN_URI ? buf_cstr(&uri) : path,
	    &s->db, flags, NULL);
	buf_free(&uri);
	if (rc != SQLITE_OK) {
		if (s->db == NULL) {
			diag_warnx("%s: out of memory", path);
			return DIAG_TROUBLE;
		}
		return store_db_fail(s);
	}
	sqlite3_extended_result_codes(s->db, 0);
	sqlite3_busy_handler(s->db, busy, s);
	return DIAG_OK;
}

/*
 * Whether a store opened read-only cannot be read because its write-ahead
 * log's index (path-shm) can neither be opened nor made, as in a
 * directory the command may not write, or on a read-only file system.
 * With no log beside it (path-wal), everything committed is in the file,
 * which is then read as immutable: no writer can be there, as none could
 * make its log either.
 */
static int
frozen(struct store *s)
{
	struct buf wal = BUF_INIT;
	struct stat st;
	long long v;
	int none, rc = pragma_int(s, "PRAGMA application_id", &v);

	/* (on a read-only file system, SQLite cannot open the missing log) */
	if (rc != SQLITE_READONLY && rc != SQLITE_CANTOPEN)
		return 0;
	buf_adds(&wal, s->path);
	buf_adds(&wal, "-wal");
	none = stat(buf_cstr(&wal), &st) != 0 && errno == ENOENT;
	buf_free(&wal);
	return none;
}

/*
 * Opens the store at path; create says whether a missing file becomes a
 * new store (commands that write) or is an error (commands that read).
 */
int
store_open(struct store **sp, const char *path, int create)
{
	struct store *s;
	struct stat st;
	int flags = SQLITE_OPEN_NOMUTEX;

	*sp = NULL;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			errno = EISDIR;
		/* a writer says why it cannot write (rather than what SQLite
		 * meets later, as the log it cannot make) */
		if (S_ISDIR(st.st_mode) || (create && access(path, W_OK) != 0 &&
		    (errno == EROFS || errno == EACCES))) {
			diag_warn("%s", path);
			return DIAG_TROUBLE;
		}
	} else if (errno != ENOENT || !create || !dir_writable(path)) {
		diag_warn("%s", path);
		return DIAG_TROUBLE;
	}
	/*
	 * Commands that only read write nothing but what SQLite tidies up
	 * on closing (a checkpoint, which removes path-wal and path-shm):
	 * they open the file read-write without creating it, which SQLite
	 * makes read-only when the file may not be written, and read-only
	 * as an immutable file when its log cannot be made (see frozen()).
	 */
	flags |= SQLITE_OPEN_READWRITE;
	if (create)
		flags |= SQLITE_OPEN_CREATE;
	if ((s = calloc(1, sizeof(*s))) == NULL ||
	    (s->path = strdup(path)) == NULL) {
		free(s);
		diag_warn("%s", path);
		return DIAG_TROUBLE;
	}
	*sp = s;
	if (db_open(s, path, flags) != DIAG_OK)
		return DIAG_TROUBLE;
	if (!create && frozen(s)) {
		sqlite3_close(s->db);
		s->db = NULL;
		if (db_open(s, path, SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_READONLY |
		    SQLITE_OPEN_URI) != DIAG_OK)
			return DIAG_TROUBLE;
	}
	if (check_store(s, create) != DIAG_OK)
		return DIAG_TROUBLE;
	/* Readers never wait for the writer; kept by the file once set. */
	if (create && (store_exec(s, "PRAGMA journal_mode = WAL") != DIAG_OK ||
	    store_exec(s, "PRAGMA synchronous = FULL") != DIAG_OK))
		return DIAG_TROUBLE;
	/* Up to 8 MiB of pages: the indexes of a large store stay. */
	if (store_exec(s, "PRAGMA cache_size = -8192") != DIAG_OK)
		return DIAG_TROUBLE;
	return DIAG_OK;
}

/* Leaves errno as it was: that of a failed write, for its report. */
void
store_close(struct store *s)
{
	int i, e = errno;

	if (s == NULL)
		return;
	for (i = 0; i < Q_NQ; i++)
		sqlite3_finalize(s->q[i]);
	if (s->in_tx)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	store_touches_drop(s);
	sqlite3_close(s->db);
	for (i = 0; i < 3; i++)
		buf_free(&s->quoted[i]);
	free(s->path);
	free(s);
	errno = e;
}

/*
 * Every command is one transaction: IMMEDIATE for a writer, so that
 * writers queue at once rather than fail on upgrading a read lock.
 */
int
store_begin(struct store *s, int write)
{
	if (store_exec(s, write ? "BEGIN IMMEDIATE" : "BEGIN") != DIAG_OK)
		return DIAG_TROUBLE;
	s->in_tx = 1;
	return DIAG_OK;
}

int
store_commit(struct store *s)
{
	if (store_touches_flush(s) != DIAG_OK ||
	    store_exec(s, "COMMIT") != DIAG_OK)
		return DIAG_TROUBLE;
	store_touches_drop(s);
	s->in_tx = 0;
	return DIAG_OK;
}

void
store_rollback(struct store *s)
{
	if (s->in_tx)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	store_touches_drop(s);
	s->in_tx = 0;
}

