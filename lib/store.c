/* store: seed 001's objects in an SQLite file (see store.h). */
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

#include "buf.h"
#include "diag.h"
#include "io.h"
#include "jsonw.h"
#include "llmr.h"
#include "sha256.h"
#include "store.h"
#include "utf8.h"
#include "xalloc.h"

/* The characters of a name that a diagnostic need not quote. */
#define HEX_ALNUM	"0123456789abcdefABCDEFghijklmnopqrstuvwxyz" \
	"GHIJKLMNOPQRSTUVWXYZ"

/* The places of pairs in one response (see pair()). */
#define STORE_PLACES	1048576LL

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

/* The statements, prepared once per store and kept. */
enum {
	Q_ATT_BY_MSG, Q_BLOB_ADD, Q_ATT_ADD, Q_PREV_RESPONSE, Q_SUBJECT_GET,
	Q_SUBJECT_PUT, Q_SUBJECT_KEYWORD, Q_RANGE_ADD, Q_RANGE_EXTEND,
	Q_KEYWORD_PUT, Q_KEYWORD_SUBJECT, Q_SUMMARY_LAST,
	Q_SUMMARY_ADD, Q_BLOB_GET, Q_SUBJECT_KEYWORDS,
	Q_SUBJECT_RANGES, Q_KEYWORD_SUBJECTS, Q_NQ
};

static const char *const sql[Q_NQ] = {
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

/*
 * The keywords and subjects the puts of a transaction touched, kept in
 * memory and written once, at commit: a batch whose responses name the
 * same keywords again and again writes each keyword's row once, not once
 * per occurrence. Entries are found by "topic NUL name" in an index
 * (a JSON object whose values are their places in the array).
 */
struct range {
	long long	 start;
	long long	 end;
};

struct touch {
	char		*key;		/* topic NUL name */
	size_t		 topic_len;
	size_t		 name_len;
	long long	 count;		/* occurrences (keyword), responses
					   (subject) to add */
	long long	 created;	/* for a new row: the first put's */
	char		 source[SHA256_HEX];
	long long	 seen;		/* the last put's time */
	long long	 seq;		/* the last response, as stored */
	long long	 pos;		/* the place in it */
	long long	 put_seq;	/* the last response of the transaction */
	double		 score;		/* keyword: the last confidence */
	char		*desc;		/* subject: the last description */
	size_t		 desc_len;
	int		 found;		/* subject: the topic has it */
	long long	 range_rowid;	/* subject: its last stored range */
	long long	 range_end;	/* the new end of that range */
	int		 range_moved;
	struct range	*ranges;	/* new ranges */
	size_t		 nranges;
};

struct touches {
	json_t		*index;
	struct touch	*v;
	size_t		 n;
	size_t		 size;
};

/* A subject and a keyword of it: places in the touches; the first place
 * in the order of the store where the transaction met them. */
struct pair {
	size_t		 subject;
	size_t		 keyword;
	long long	 seq;
};

/* What a topic's puts in the transaction need of the ones before them. */
struct topic_state {
	long long	 prev;		/* its last response, or 0 */
	long long	 version;	/* its last summary version */
};

struct store {
	sqlite3		*db;
	char		*path;
	sqlite3_stmt	*q[Q_NQ];
	int		 in_tx;
	struct touches	 keywords;	/* what the transaction's puts did */
	struct touches	 subjects;
	struct pair	*pairs;		/* and the pairs they made */
	size_t		 npairs;
	size_t		 pairs_size;
	json_t		*topics;	/* topic: its place in topic_v */
	struct topic_state *topic_v;
	size_t		 ntopics;
	struct timespec	 busy_since;	/* when the current wait began */
	struct buf	 quoted[3];	/* names quoted for diagnostics */
	int		 checking;	/* in fsck */
	int		 damage;	/* SQLite found the file damaged */
};

static int	touches_flush(struct store *);
static void	touches_drop(struct store *);
static void	jesc(struct buf *, const char *, size_t);
static const char *qs(struct store *, int, const char *);
static int	is_hash(const char *, size_t);
static void	jstr(struct buf *, const char *, size_t);

/* ------------------------------------------------------------ plumbing */

/* SQLite's complaint; for a file it could not open, the system's. */
static int
db_fail(struct store *s)
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
static sqlite3_stmt *
stmt(struct store *s, int id)
{
	sqlite3_stmt *q = s->q[id];

	if (q == NULL) {
		if (sqlite3_prepare_v3(s->db, sql[id], -1,
		    SQLITE_PREPARE_PERSISTENT, &s->q[id], NULL) != SQLITE_OK) {
			db_fail(s);
			return NULL;
		}
		return s->q[id];
	}
	sqlite3_reset(q);
	return q;
}

/* A statement for one use; NULL reported. */
static sqlite3_stmt *
prepare(struct store *s, const char *text)
{
	sqlite3_stmt *q;

	if (sqlite3_prepare_v2(s->db, text, -1, &q, NULL) != SQLITE_OK) {
		db_fail(s);
		return NULL;
	}
	return q;
}

static void
bind_text(sqlite3_stmt *q, int i, const char *p, size_t n)
{
	if (p == NULL)
		sqlite3_bind_null(q, i);
	else
		sqlite3_bind_text64(q, i, p, n, SQLITE_STATIC, SQLITE_UTF8);
}

static void
bind_str(sqlite3_stmt *q, int i, const char *p)
{
	bind_text(q, i, p, p != NULL ? strlen(p) : 0);
}

static void
bind_buf(sqlite3_stmt *q, int i, const struct buf *b)
{
	bind_text(q, i, b->len > 0 ? b->data : "", b->len);
}

static const char *
col_str(sqlite3_stmt *q, int i)
{
	const char *p = (const char *)sqlite3_column_text(q, i);

	return p != NULL ? p : "";
}

static size_t
col_len(sqlite3_stmt *q, int i)
{
	return (size_t)sqlite3_column_bytes(q, i);
}

/* Steps a statement that returns no row. */
static int
step_done(struct store *s, sqlite3_stmt *q)
{
	int rc = sqlite3_step(q);

	sqlite3_reset(q);
	if (rc != SQLITE_DONE)
		return db_fail(s);
	return DIAG_OK;
}

static int
exec(struct store *s, const char *text)
{
	if (sqlite3_exec(s->db, text, NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(s);
	return DIAG_OK;
}

/* Milliseconds since the epoch, or $LLMSTORE_NOW when it is set. */
static long long
now_ms(void)
{
	const char *env = getenv("LLMSTORE_NOW");
	struct timespec ts;

	if (env != NULL && *env != '\0' &&
	    strspn(env, "0123456789") == strlen(env) && strlen(env) <= 15)
		return strtoll(env, NULL, 10);
	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int
writes(FILE *out, const struct buf *b)
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
		return db_fail(s);	/* (db_fail tells CANTOPEN apart) */
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
	status = exec(s, b.data);
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
		if (exec(s, "PRAGMA page_size = 32768") != DIAG_OK ||
		    exec(s, "BEGIN IMMEDIATE") != DIAG_OK)
			return DIAG_TROUBLE;
		if ((rc = pragma_int(s, "PRAGMA application_id", &app)) !=
		    SQLITE_OK || (rc = pragma_int(s, "SELECT count(*) FROM "
		    "sqlite_schema", &tables)) != SQLITE_OK) {
			exec(s, "ROLLBACK");
			return not_ours(s, rc);
		}
		if (app == 0 && tables == 0) {
			if (exec(s, schema_sql) != DIAG_OK) {
				exec(s, "ROLLBACK");
				return DIAG_TROUBLE;
			}
			ver = STORE_SCHEMA;
			app = STORE_APPLICATION_ID;
		} else if (app == 0) {
			exec(s, "ROLLBACK");
			return not_ours(s, SQLITE_OK);
		} else
			pragma_int(s, "PRAGMA user_version", &ver);
		if (exec(s, "COMMIT") != DIAG_OK)
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
		return db_fail(s);
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
	if (create && (exec(s, "PRAGMA journal_mode = WAL") != DIAG_OK ||
	    exec(s, "PRAGMA synchronous = FULL") != DIAG_OK))
		return DIAG_TROUBLE;
	/* Up to 8 MiB of pages: the indexes of a large store stay. */
	if (exec(s, "PRAGMA cache_size = -8192") != DIAG_OK)
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
	touches_drop(s);
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
	if (exec(s, write ? "BEGIN IMMEDIATE" : "BEGIN") != DIAG_OK)
		return DIAG_TROUBLE;
	s->in_tx = 1;
	return DIAG_OK;
}

int
store_commit(struct store *s)
{
	if (touches_flush(s) != DIAG_OK || exec(s, "COMMIT") != DIAG_OK)
		return DIAG_TROUBLE;
	touches_drop(s);
	s->in_tx = 0;
	return DIAG_OK;
}

void
store_rollback(struct store *s)
{
	if (s->in_tx)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	touches_drop(s);
	s->in_tx = 0;
}

/* ------------------------------------------------------------- objects */

/* An attachment's fields, as the seed names them. */
struct att {
	const char	*topic;
	const char	*message;
	const char	*content;	/* inline XML, or NULL */
	size_t		 content_len;
	const char	*blob;		/* the blob's hash, or NULL */
	const char	*format;
	long long	 version;
	long long	 created;
	long long	 size;
};

/* The attachment as a JSON object without its hash (what is hashed). */
static void
att_json(struct buf *b, const struct att *a)
{
	buf_adds(b, "{\"$type$\":\"XMLMessageAttachment\",\"topicId\":");
	jstr(b, a->topic, strlen(a->topic));
	buf_adds(b, ",\"messageId\":");
	jstr(b, a->message, strlen(a->message));
	if (a->content != NULL) {
		buf_adds(b, ",\"xmlContent\":");
		jstr(b, a->content, a->content_len);
	}
	if (a->blob != NULL) {
		buf_adds(b, ",\"xmlBlob\":");
		jstr(b, a->blob, strlen(a->blob));
	}
	buf_adds(b, ",\"format\":");
	jstr(b, a->format, strlen(a->format));
	buf_printf(b, ",\"version\":%lld,\"createdAt\":%lld,\"size\":%lld}",
	    a->version, a->created, a->size);
}

/* Appends the attachment's line; hash in out when out is not NULL. */
static int
att_line(struct buf *b, const struct att *a, const char *stored,
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
static void
att_from_row(struct att *a, sqlite3_stmt *q)
{
	a->topic = col_str(q, 1);
	a->message = col_str(q, 2);
	a->content = sqlite3_column_type(q, 3) == SQLITE_NULL ? NULL :
	    col_str(q, 3);
	a->content_len = col_len(q, 3);
	a->blob = sqlite3_column_type(q, 4) == SQLITE_NULL ? NULL :
	    col_str(q, 4);
	a->format = col_str(q, 5);
	a->version = sqlite3_column_int64(q, 6);
	a->created = sqlite3_column_int64(q, 7);
	a->size = sqlite3_column_int64(q, 8);
}

#define ATT_COLUMNS	"hash, topic_id, message_id, xml_content, xml_blob," \
	" format, version, created_at, size"

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
static void
jesc(struct buf *b, const char *s, size_t n)
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

static void
jstr(struct buf *b, const char *s, size_t n)
{
	buf_addc(b, '"');
	jesc(b, s, n);
	buf_addc(b, '"');
}

/* A name quoted for a diagnostic (store_quote), in the buffer of slot. */
static const char *
qs(struct store *s, int slot, const char *p)
{
	buf_reset(&s->quoted[slot]);
	store_quote(&s->quoted[slot], p, strlen(p));
	return buf_cstr(&s->quoted[slot]);
}

static void
array_add_unique(json_t *a, const char *s, size_t n)
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

static void
write_str_array(struct buf *b, const json_t *a)
{
	size_t i;
	json_t *v;

	buf_addc(b, '[');
	json_array_foreach(a, i, v) {
		if (i > 0)
			buf_addc(b, ',');
		jstr(b, json_string_value(v), json_string_length(v));
	}
	buf_addc(b, ']');
}

/* -------------------------------------------------------------- ingest */

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
	return (x->second_len > y->second_len) - (x->second_len < y->second_len);
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

		if ((q = stmt(s, keywords ? Q_KEYWORD_SUBJECT :
		    Q_SUBJECT_KEYWORD)) == NULL)
			return DIAG_TROUBLE;
		bind_text(q, 1, rows[i].first, topic_len);
		bind_text(q, 2, rows[i].first + topic_len + 1,
		    rows[i].first_len - topic_len - 1);
		bind_text(q, 3, rows[i].second, rows[i].second_len);
		sqlite3_bind_int64(q, 4, rows[i].seq);
		if (step_done(s, q) != DIAG_OK)
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
	if ((q = stmt(s, Q_SUBJECT_GET)) == NULL)
		return NULL;
	bind_str(q, 1, g->d->topic);
	bind_buf(q, 2, &g->name);
	if ((rc = sqlite3_step(q)) != SQLITE_ROW && rc != SQLITE_DONE) {
		db_fail(s);
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
		    qs(g->s, 0, g->name.data));
	else if (e->found && sub->is_new && e->put_seq != g->seq)
		diag_at(DIAG_WARNING, &loc, "is-new", "subject %s is marked "
		    "isNew=\"true\" but the topic has it already",
		    qs(g->s, 0, g->name.data));

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

	if ((q = stmt(s, id)) == NULL)
		return DIAG_TROUBLE;
	bind_text(q, 1, e->key, e->topic_len);
	bind_text(q, 2, e->key + e->topic_len + 1, e->name_len);
	sqlite3_bind_int64(q, 3, e->count);
	sqlite3_bind_int64(q, 4, e->created);
	sqlite3_bind_int64(q, 5, e->seen);
	bind_str(q, 6, e->source);
	sqlite3_bind_int64(q, 7, e->seq);
	sqlite3_bind_int64(q, 8, e->pos);
	if (id == Q_KEYWORD_PUT)
		sqlite3_bind_double(q, 9, e->score);
	else
		bind_text(q, 9, e->desc, e->desc_len);
	return step_done(s, q);
}

/* Writes the keywords and subjects the transaction touched. */
static int
touches_flush(struct store *s)
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
			if ((q = stmt(s, Q_RANGE_EXTEND)) == NULL)
				return DIAG_TROUBLE;
			sqlite3_bind_int64(q, 1, e->range_rowid);
			sqlite3_bind_int64(q, 2, e->range_end);
			if (step_done(s, q) != DIAG_OK)
				return DIAG_TROUBLE;
		}
		for (j = 0; j < e->nranges; j++) {
			r = &e->ranges[j];
			if ((q = stmt(s, Q_RANGE_ADD)) == NULL)
				return DIAG_TROUBLE;
			bind_text(q, 1, e->key, e->topic_len);
			bind_text(q, 2, e->key + e->topic_len + 1,
			    e->name_len);
			sqlite3_bind_int64(q, 3, r->start);
			sqlite3_bind_int64(q, 4, r->end);
			if (step_done(s, q) != DIAG_OK)
				return DIAG_TROUBLE;
		}
	}
	return pairs_flush(s);
}

/* Forgets what the transaction touched. */
static void
touches_drop(struct store *s)
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
	if ((q = stmt(s, Q_PREV_RESPONSE)) == NULL)
		return NULL;
	bind_str(q, 1, topic);
	sqlite3_bind_int64(q, 2, seq);
	if ((rc = sqlite3_step(q)) == SQLITE_ROW)
		t->prev = sqlite3_column_int64(q, 0);
	sqlite3_reset(q);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		db_fail(s);
		return NULL;
	}
	if ((q = stmt(s, Q_SUMMARY_LAST)) == NULL)
		return NULL;
	bind_str(q, 1, topic);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		t->version = sqlite3_column_int64(q, 0);
	sqlite3_reset(q);
	if (rc != SQLITE_ROW) {
		db_fail(s);
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
	if ((q = stmt(s, Q_SUMMARY_ADD)) == NULL)
		return DIAG_TROUBLE;
	buf_reset(&g->text);
	write_str_array(&g->text, g->subjects);
	buf_reset(&g->text2);
	write_str_array(&g->text2, g->terms);
	bind_str(q, 1, g->d->topic);
	sqlite3_bind_int64(q, 2, ++g->topic->version);
	bind_text(q, 3, p, (size_t)(end - p));
	bind_buf(q, 4, &g->text);
	bind_buf(q, 5, &g->text2);
	sqlite3_bind_int64(q, 6, g->now);
	bind_buf(q, 7, &g->term);
	bind_str(q, 8, g->d->hash);
	return step_done(s, q);
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
	    qs(g->s, 0, buf_cstr(name)));
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
		array_add_unique(g.subjects, g.name.data, g.name.len);
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
			array_add_unique(g.terms, g.term.data, g.term.len);
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
		return col_len(q, 3) == d->len &&
		    memcmp(col_str(q, 3), d->xml, d->len) == 0;
	return sha256_hex(d->xml, d->len, hash) == 0 &&
	    strcmp(hash, col_str(q, 4)) == 0;
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

	if ((q = stmt(s, Q_ATT_BY_MSG)) == NULL)
		return DIAG_TROUBLE;
	bind_str(q, 1, d->message);
	if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (strcmp(col_str(q, 1), d->topic) == 0 &&
		    strcmp(col_str(q, 2), format) == 0 && same_xml(s, q, d)) {
			snprintf(d->hash, sizeof(d->hash), "%s", col_str(q, 0));
			status = DIAG_OK;
		} else {
			diag_warnx("message %s is already stored "
			    "(attachment %s)", qs(s, 0, d->message),
			    col_str(q, 0));
			status = DIAG_INVALID;
		}
		sqlite3_reset(q);
		return status;
	}
	sqlite3_reset(q);
	if (rc != SQLITE_DONE)
		return db_fail(s);

	memset(&a, 0, sizeof(a));
	a.topic = d->topic;
	a.message = d->message;
	a.format = format;
	a.version = 1;
	a.created = now_ms();
	a.size = (long long)d->len;
	if (d->len <= STORE_INLINE_MAX) {
		a.content = d->xml;
		a.content_len = d->len;
	} else {
		if (sha256_hex(d->xml, d->len, blob) != 0)
			goto crypto;
		a.blob = blob;
		if ((q = stmt(s, Q_BLOB_ADD)) == NULL)
			return DIAG_TROUBLE;
		bind_str(q, 1, blob);
		sqlite3_bind_int64(q, 2, (long long)d->len);
		sqlite3_bind_blob64(q, 3, d->xml, d->len, SQLITE_STATIC);
		if (step_done(s, q) != DIAG_OK)
			return DIAG_TROUBLE;
	}
	if (att_line(&line, &a, NULL, d->hash) != 0)
		goto crypto;
	buf_free(&line);
	if ((q = stmt(s, Q_ATT_ADD)) == NULL)
		return DIAG_TROUBLE;
	sqlite3_bind_null(q, 1);
	bind_str(q, 2, d->hash);
	bind_str(q, 3, a.topic);
	bind_str(q, 4, a.message);
	bind_text(q, 5, a.content, a.content_len);
	bind_str(q, 6, a.blob);
	bind_str(q, 7, a.format);
	sqlite3_bind_int64(q, 8, a.version);
	sqlite3_bind_int64(q, 9, a.created);
	sqlite3_bind_int64(q, 10, a.size);
	if (step_done(s, q) != DIAG_OK)
		return DIAG_TROUBLE;
	seq = sqlite3_last_insert_rowid(s->db);
	if (seq > STORE_SEQ_MAX) {
		/* reached only after an import of places at the limit */
		diag_warnx("%s: the store is full: no place after %lld is left "
		    "for message %s", s->path, STORE_SEQ_MAX,
		    qs(s, 0, d->message));
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

/* ------------------------------------------------------------- reading */

int
store_ls(struct store *s, const char *topic, const char *message,
    const char *format, FILE *out)
{
	struct buf line = BUF_INIT;
	struct att a;
	sqlite3_stmt *q;
	int rc, status = DIAG_OK;

	q = prepare(s, "SELECT " ATT_COLUMNS " FROM attachment"
	    " WHERE (?1 IS NULL OR topic_id = ?1)"
	    " AND (?2 IS NULL OR message_id = ?2)"
	    " AND (?3 IS NULL OR format = ?3) ORDER BY id");
	if (q == NULL)
		return DIAG_TROUBLE;
	bind_str(q, 1, topic);
	bind_str(q, 2, message);
	bind_str(q, 3, format);
	while (status == DIAG_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
		att_from_row(&a, q);
		buf_reset(&line);
		att_line(&line, &a, col_str(q, 0), NULL);
		buf_addc(&line, '\n');
		status = writes(out, &line);
	}
	if (status == DIAG_OK && rc != SQLITE_DONE)
		status = db_fail(s);
	sqlite3_finalize(q);
	buf_free(&line);
	return status;
}

/* The XML of an attachment (by hash or message id) or of a blob. */
int
store_cat(struct store *s, const char *hash, const char *message, FILE *out)
{
	sqlite3_stmt *q, *b;
	int rc, status = DIAG_OK;

	q = prepare(s, message != NULL ? "SELECT xml_content, xml_blob FROM"
	    " attachment WHERE message_id = ?1" : "SELECT xml_content,"
	    " xml_blob FROM attachment WHERE hash = ?1 UNION ALL"
	    " SELECT NULL, hash FROM blob WHERE hash = ?1 LIMIT 1");
	if (q == NULL)
		return DIAG_TROUBLE;
	bind_str(q, 1, message != NULL ? message : hash);
	if ((rc = sqlite3_step(q)) == SQLITE_DONE) {
		if (message != NULL)
			diag_warnx("no message %s", qs(s, 0, message));
		else
			diag_warnx("no attachment %s",
			    strspn(hash, HEX_ALNUM) == strlen(hash) ? hash :
			    qs(s, 0, hash));
		status = DIAG_INVALID;
	} else if (rc != SQLITE_ROW)
		status = db_fail(s);
	else if (sqlite3_column_type(q, 0) != SQLITE_NULL) {
		if (io_write(col_str(q, 0), col_len(q, 0), out) != 0)
			status = DIAG_TROUBLE;
	} else if ((b = stmt(s, Q_BLOB_GET)) == NULL)
		status = DIAG_TROUBLE;
	else {
		bind_str(b, 1, col_str(q, 1));
		if ((rc = sqlite3_step(b)) == SQLITE_ROW) {
			if (io_write(sqlite3_column_blob(b, 0), col_len(b, 0),
			    out) != 0)
				status = DIAG_TROUBLE;
		} else if (rc == SQLITE_DONE) {
			diag_warnx("%s: blob %s is missing", s->path,
			    col_str(q, 1));
			status = DIAG_TROUBLE;
		} else
			status = db_fail(s);
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

	q = prepare(s, "DELETE FROM attachment WHERE message_id = ?1"
	    " RETURNING xml_blob");
	if (q == NULL)
		return DIAG_TROUBLE;
	bind_str(q, 1, message);
	rc = sqlite3_step(q);
	if (rc == SQLITE_DONE) {
		sqlite3_finalize(q);
		diag_warnx("no message %s", qs(s, 0, message));
		return DIAG_INVALID;
	}
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(q);
		return db_fail(s);
	}
	if (sqlite3_column_type(q, 0) == SQLITE_NULL) {
		sqlite3_finalize(q);
		return DIAG_OK;
	}
	{
		sqlite3_stmt *d;
		char blob[SHA256_HEX];

		snprintf(blob, sizeof(blob), "%s", col_str(q, 0));
		while ((rc = sqlite3_step(q)) == SQLITE_ROW)
			continue;
		sqlite3_finalize(q);
		if (rc != SQLITE_DONE)
			return db_fail(s);
		if ((d = prepare(s, "DELETE FROM blob WHERE hash = ?1 AND NOT"
		    " EXISTS (SELECT 1 FROM attachment WHERE xml_blob = ?1)"))
		    == NULL)
			return DIAG_TROUBLE;
		bind_str(d, 1, blob);
		status = step_done(s, d);
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
		jstr(b, col_str(q, 0), col_len(q, 0));
	}
	buf_addc(b, ']');
	return rc == SQLITE_DONE ? DIAG_OK : db_fail(s);
}

void
store_empty_context(const char *topic, FILE *out)
{
	struct buf b = BUF_INIT;

	buf_adds(&b, "{\"topicId\":");
	jstr(&b, topic, strlen(topic));
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

	if ((q = prepare(s, "SELECT count(*) FROM attachment WHERE"
	    " topic_id = ?1")) == NULL)
		return DIAG_TROUBLE;
	bind_str(q, 1, topic);
	if (sqlite3_step(q) == SQLITE_ROW)
		count = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	buf_adds(&b, "{\"topicId\":");
	jstr(&b, topic, strlen(topic));
	buf_printf(&b, ",\"messageCount\":%lld,\"activeSubjects\":", count);
	/* Names with a comma are left out: llmq-encode joins the items of
	 * a list with ", ", and refuses them. */
	if ((q = prepare(s, "SELECT id FROM subject WHERE topic_id = ?1 AND"
	    " NOT archived AND instr(id, ',') = 0"
	    " ORDER BY last_seq DESC, last_pos LIMIT 20")) == NULL)
		goto out;
	bind_str(q, 1, topic);
	status = column_array(s, &b, q);
	sqlite3_finalize(q);
	if (status != DIAG_OK)
		goto out;
	buf_adds(&b, ",\"recentKeywords\":");
	if ((q = prepare(s, "SELECT term FROM keyword WHERE topic_id = ?1"
	    " AND instr(term, ',') = 0"
	    " ORDER BY last_seq DESC, last_pos LIMIT 50")) == NULL) {
		status = DIAG_TROUBLE;
		goto out;
	}
	bind_str(q, 1, topic);
	status = column_array(s, &b, q);
	sqlite3_finalize(q);
	if (status != DIAG_OK)
		goto out;
	buf_adds(&b, "}\n");
	status = writes(out, &b);
out:
	buf_free(&b);
	return status;
}

static void
member_str(struct buf *b, const char *name, sqlite3_stmt *q, int col)
{
	if (sqlite3_column_type(q, col) == SQLITE_NULL)
		return;
	buf_printf(b, ",\"%s\":", name);
	jstr(b, col_str(q, col), col_len(q, col));
}

static void
member_int(struct buf *b, const char *name, sqlite3_stmt *q, int col)
{
	buf_printf(b, ",\"%s\":%lld", name,
	    (long long)sqlite3_column_int64(q, col));
}

/* Strings seen, in the order first seen: a set beside a list. */
struct seen {
	json_t	*set;
	json_t	*list;
};

static void
seen_reset(struct seen *z)
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
	json_t *a = json_loadb(text, n, 0, NULL), *v;
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
static int
summary_line(struct store *s, struct buf *b, sqlite3_stmt *row,
    struct seen *subj, struct seen *kw)
{
	struct seen all_s = { NULL, NULL }, all_k = { NULL, NULL };
	char *topic = strdup(col_str(row, 0));
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
	jesc(b, topic, tl);
	buf_printf(b, "-v%lld\",\"topic\":", v);
	jstr(b, topic, tl);
	if (subj != NULL) {
		member_str(b, "update", row, 2);
		buf_adds(b, ",\"newSubjects\":");
		fresh = json_array();
		seen_add(subj, col_str(row, 7), col_len(row, 7), fresh);
		write_str_array(b, fresh);
		json_decref(fresh);
		buf_adds(b, ",\"newKeywords\":");
		fresh = json_array();
		seen_add(kw, col_str(row, 8), col_len(row, 8), fresh);
		write_str_array(b, fresh);
		json_decref(fresh);
	} else if ((q = prepare(s, "SELECT update_text, subjects, keywords"
	    " FROM summary WHERE topic_id = ?1 AND version <= ?2"
	    " ORDER BY version")) == NULL)
		status = DIAG_TROUBLE;
	else {
		seen_reset(&all_s);
		seen_reset(&all_k);
		bind_str(q, 1, topic);
		sqlite3_bind_int64(q, 2, v);
		buf_adds(b, ",\"content\":\"");
		while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
			if (n++ > 0)
				buf_adds(b, "\\n");
			jesc(b, col_str(q, 0), col_len(q, 0));
			seen_add(&all_s, col_str(q, 1), col_len(q, 1), NULL);
			seen_add(&all_k, col_str(q, 2), col_len(q, 2), NULL);
		}
		if (rc != SQLITE_DONE)
			status = db_fail(s);
		sqlite3_finalize(q);
		buf_adds(b, "\",\"subjects\":");
		write_str_array(b, all_s.list);
		buf_adds(b, ",\"keywords\":");
		write_str_array(b, all_k.list);
		json_decref(all_s.set);
		json_decref(all_s.list);
		json_decref(all_k.set);
		json_decref(all_k.list);
	}
	buf_printf(b, ",\"version\":%lld", v);
	if (v > 1) {
		buf_adds(b, ",\"previousVersion\":\"");
		jesc(b, topic, tl);
		buf_printf(b, "-v%lld\"", v - 1);
	}
	member_int(b, "createdAt", row, 3);
	member_int(b, "updatedAt", row, 4);
	member_str(b, "changeReason", row, 5);
	member_str(b, "sourceXmlHash", row, 6);
	buf_adds(b, "}\n");
	free(topic);
	return status;
}

#define SUMMARY_COLUMNS	"topic_id, version, update_text, created_at," \
	" updated_at, change_reason, source_xml_hash, subjects, keywords"

int
store_summary(struct store *s, const char *topic, long version, FILE *out)
{
	struct buf b = BUF_INIT;
	sqlite3_stmt *q;
	int rc, status = DIAG_OK;

	if ((q = prepare(s, "SELECT " SUMMARY_COLUMNS " FROM summary WHERE"
	    " topic_id = ?1 AND (?2 = 0 OR version = ?2)"
	    " ORDER BY version DESC LIMIT 1")) == NULL)
		return DIAG_TROUBLE;
	bind_str(q, 1, topic);
	sqlite3_bind_int64(q, 2, version);
	if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if ((status = summary_line(s, &b, q, NULL, NULL)) == DIAG_OK)
			status = writes(out, &b);
	} else if (rc == SQLITE_DONE) {
		if (version == 0)
			diag_warnx("no summary of topic %s", qs(s, 0, topic));
		else
			diag_warnx("topic %s has no summary version %ld",
			    qs(s, 0, topic), version);
		status = DIAG_INVALID;
	} else
		status = db_fail(s);
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

	if ((q = stmt(s, id)) == NULL)
		return DIAG_TROUBLE;
	bind_text(q, 1, col_str(row, topic), col_len(row, topic));
	bind_text(q, 2, col_str(row, name), col_len(row, name));
	return column_array(s, b, q);
}

/* Columns: KEYWORD_COLUMNS. */
static int
keyword_line(struct store *s, struct buf *b, sqlite3_stmt *q, int export)
{
	buf_reset(b);
	buf_adds(b, "{\"$type$\":\"Keyword\"");
	member_str(b, "topicId", q, 0);
	member_str(b, "term", q, 1);
	member_int(b, "frequency", q, 2);
	buf_adds(b, ",\"subjects\":");
	if (values(s, b, Q_KEYWORD_SUBJECTS, q, 0, 1) != DIAG_OK)
		return DIAG_TROUBLE;
	if (sqlite3_column_type(q, 3) != SQLITE_NULL) {
		buf_adds(b, ",\"score\":");
		jsonw_number(b, sqlite3_column_double(q, 3));
	}
	member_int(b, "createdAt", q, 4);
	member_int(b, "lastSeen", q, 5);
	member_str(b, "sourceXmlHash", q, 6);
	if (export) {
		member_int(b, "lastSeq", q, 7);
		member_int(b, "lastPos", q, 8);
	}
	buf_adds(b, "}\n");
	return DIAG_OK;
}

#define KEYWORD_COLUMNS	"topic_id, term, frequency, score, created_at," \
	" last_seen, source_xml_hash, last_seq, last_pos"

/* Columns: SUBJECT_COLUMNS. */
static int
subject_line(struct store *s, struct buf *b, sqlite3_stmt *q, int export)
{
	sqlite3_stmt *r;
	int rc, n = 0;

	buf_reset(b);
	buf_adds(b, "{\"$type$\":\"Subject\"");
	member_str(b, "id", q, 1);
	member_str(b, "topic", q, 0);
	member_str(b, "description", q, 2);
	buf_adds(b, ",\"keywords\":");
	if (values(s, b, Q_SUBJECT_KEYWORDS, q, 0, 1) != DIAG_OK ||
	    (r = stmt(s, Q_SUBJECT_RANGES)) == NULL)
		return DIAG_TROUBLE;
	buf_adds(b, ",\"timeRanges\":[");
	bind_text(r, 1, col_str(q, 0), col_len(q, 0));
	bind_text(r, 2, col_str(q, 1), col_len(q, 1));
	while ((rc = sqlite3_step(r)) == SQLITE_ROW)
		buf_printf(b, "%s{\"start\":%lld,\"end\":%lld}", n++ ? "," : "",
		    (long long)sqlite3_column_int64(r, 0),
		    (long long)sqlite3_column_int64(r, 1));
	if (rc != SQLITE_DONE)
		return db_fail(s);
	buf_addc(b, ']');
	member_int(b, "messageCount", q, 3);
	member_int(b, "createdAt", q, 4);
	member_int(b, "lastSeenAt", q, 5);
	buf_adds(b, sqlite3_column_int64(q, 6) ? ",\"archived\":true" :
	    ",\"archived\":false");
	member_str(b, "sourceXmlHash", q, 7);
	if (export) {
		member_int(b, "lastSeq", q, 8);
		member_int(b, "lastPos", q, 9);
	}
	buf_adds(b, "}\n");
	return DIAG_OK;
}

#define SUBJECT_COLUMNS	"topic_id, id, description, message_count," \
	" created_at, last_seen_at, archived, source_xml_hash, last_seq," \
	" last_pos"

/* Runs q (topic bound by the caller) and writes each row as line() does. */
static int
lines(struct store *s, sqlite3_stmt *q, int (*line)(struct store *,
    struct buf *, sqlite3_stmt *, int), int export, FILE *out)
{
	struct buf b = BUF_INIT;
	int rc, status = DIAG_OK;

	while (status == DIAG_OK && (rc = sqlite3_step(q)) == SQLITE_ROW)
		if ((status = line(s, &b, q, export)) == DIAG_OK)
			status = writes(out, &b);
	if (status == DIAG_OK && rc != SQLITE_DONE)
		status = db_fail(s);
	sqlite3_finalize(q);
	buf_free(&b);
	return status;
}

/* The lines of a query with one text (or NULL) bound as ?1. */
static int
listing(struct store *s, const char *text, const char *arg,
    int (*line)(struct store *, struct buf *, sqlite3_stmt *, int), FILE *out)
{
	sqlite3_stmt *q;

	if ((q = prepare(s, text)) == NULL)
		return DIAG_TROUBLE;
	bind_str(q, 1, arg);
	return lines(s, q, line, 0, out);
}

int
store_keywords(struct store *s, const char *topic, FILE *out)
{
	return listing(s, "SELECT " KEYWORD_COLUMNS " FROM keyword WHERE"
	    " topic_id = ?1 ORDER BY last_seq DESC, last_pos", topic,
	    keyword_line, out);
}

int
store_subjects(struct store *s, const char *topic, FILE *out)
{
	return listing(s, "SELECT " SUBJECT_COLUMNS " FROM subject WHERE"
	    " topic_id = ?1 ORDER BY last_seq DESC, last_pos", topic,
	    subject_line, out);
}

int
store_archive(struct store *s, const char *topic, const char *subject,
    int archived)
{
	struct buf id = BUF_INIT;
	sqlite3_stmt *q;
	int status;

	store_normalize(&id, subject, strlen(subject));
	if ((q = prepare(s, "UPDATE subject SET archived = ?3 WHERE"
	    " topic_id = ?1 AND id = ?2")) == NULL) {
		buf_free(&id);
		return DIAG_TROUBLE;
	}
	bind_str(q, 1, topic);
	bind_buf(q, 2, &id);
	sqlite3_bind_int(q, 3, archived);
	status = step_done(s, q);
	sqlite3_finalize(q);
	if (status == DIAG_OK && sqlite3_changes(s->db) == 0) {
		diag_warnx("topic %s has no subject %s", qs(s, 0, topic),
		    qs(s, 1, buf_cstr(&id)));
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
	if ((q = prepare(s, "SELECT k.topic_id, k.term, k.source_xml_hash,"
	    " a.message_id, a.format, a.created_at FROM keyword k"
	    " LEFT JOIN attachment a ON a.hash = k.source_xml_hash"
	    " WHERE k.term = ?1 AND (?2 IS NULL OR k.topic_id = ?2)"
	    " ORDER BY k.topic_id")) == NULL) {
		buf_free(&t);
		return DIAG_TROUBLE;
	}
	bind_buf(q, 1, &t);
	bind_str(q, 2, topic);
	while (status == DIAG_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
		n++;
		buf_reset(&b);
		buf_adds(&b, "{\"topicId\":");
		jstr(&b, col_str(q, 0), col_len(q, 0));
		buf_adds(&b, ",\"term\":");
		jstr(&b, col_str(q, 1), col_len(q, 1));
		buf_adds(&b, ",\"sourceXmlHash\":");
		if (sqlite3_column_type(q, 2) == SQLITE_NULL)
			buf_adds(&b, "null");
		else
			jstr(&b, col_str(q, 2), col_len(q, 2));
		if (sqlite3_column_type(q, 3) == SQLITE_NULL)
			buf_adds(&b, ",\"messageId\":null,\"format\":null,"
			    "\"createdAt\":null}\n");
		else {
			member_str(&b, "messageId", q, 3);
			member_str(&b, "format", q, 4);
			member_int(&b, "createdAt", q, 5);
			buf_adds(&b, "}\n");
		}
		status = writes(out, &b);
	}
	if (status == DIAG_OK && rc != SQLITE_DONE)
		status = db_fail(s);
	else if (status == DIAG_OK && n == 0) {
		diag_warnx("no keyword %s", qs(s, 0, buf_cstr(&t)));
		status = DIAG_INVALID;
	}
	sqlite3_finalize(q);
	buf_free(&t);
	buf_free(&b);
	return status;
}

/* ------------------------------------------------------------- prompts */

/* Columns: model_id, version, prompt_text, xml_schema_version,
 * created_at, updated_at, active. */
static int
template_line(struct store *s, struct buf *b, sqlite3_stmt *q, int export)
{
	buf_reset(b);
	buf_adds(b, "{\"$type$\":\"SystemPromptTemplate\"");
	member_str(b, "modelId", q, 0);
	if (export)
		member_str(b, "promptText", q, 2);
	member_int(b, "xmlSchemaVersion", q, 3);
	member_int(b, "version", q, 1);
	member_int(b, "createdAt", q, 4);
	member_int(b, "updatedAt", q, 5);
	buf_adds(b, sqlite3_column_int64(q, 6) ? ",\"active\":true" :
	    ",\"active\":false");
	if (!export)
		buf_printf(b, ",\"size\":%zu", col_len(q, 2));
	buf_adds(b, "}\n");
	(void)s;
	return DIAG_OK;
}

#define TEMPLATE_COLUMNS "model_id, version, prompt_text, xml_schema_version," \
	" created_at, updated_at, active"

/* The new template's line goes in out, for the caller to write once the
 * transaction is committed. */
int
store_prompt_set(struct store *s, const char *model, long xml_version,
    const char *text, size_t len, struct buf *out)
{
	sqlite3_stmt *q;
	long long now = now_ms();
	int status;

	if ((q = prepare(s, "UPDATE template SET active = 0, updated_at = ?2"
	    " WHERE model_id = ?1 AND active")) == NULL)
		return DIAG_TROUBLE;
	bind_str(q, 1, model);
	sqlite3_bind_int64(q, 2, now);
	status = step_done(s, q);
	sqlite3_finalize(q);
	if (status != DIAG_OK)
		return status;
	if ((q = prepare(s, "INSERT INTO template (model_id, version,"
	    " prompt_text, xml_schema_version, created_at, updated_at, active)"
	    " SELECT ?1, coalesce(max(version), 0) + 1, ?2, ?3, ?4, ?4, 1"
	    " FROM template WHERE model_id = ?1 RETURNING " TEMPLATE_COLUMNS))
	    == NULL)
		return DIAG_TROUBLE;
	bind_str(q, 1, model);
	bind_text(q, 2, text, len);
	sqlite3_bind_int64(q, 3, xml_version);
	sqlite3_bind_int64(q, 4, now);
	if (sqlite3_step(q) != SQLITE_ROW)
		status = db_fail(s);
	else
		status = template_line(s, out, q, 0);
	sqlite3_finalize(q);
	return status;
}

int
store_prompt_get(struct store *s, const char *model, long version, FILE *out)
{
	sqlite3_stmt *q;
	int rc, status = DIAG_OK;

	if ((q = prepare(s, "SELECT prompt_text FROM template WHERE"
	    " model_id = ?1 AND (?2 = 0 AND active OR version = ?2)")) == NULL)
		return DIAG_TROUBLE;
	bind_str(q, 1, model);
	sqlite3_bind_int64(q, 2, version);
	if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (io_write(col_str(q, 0), col_len(q, 0), out) != 0)
			status = DIAG_TROUBLE;
	} else if (rc == SQLITE_DONE) {
		if (version == 0)
			diag_warnx("no prompt template for model %s",
			    qs(s, 0, model));
		else
			diag_warnx("no version %ld of the prompt template for "
			    "model %s", version, qs(s, 0, model));
		status = DIAG_INVALID;
	} else
		status = db_fail(s);
	sqlite3_finalize(q);
	return status;
}

int
store_prompt_ls(struct store *s, const char *model, FILE *out)
{
	return listing(s, "SELECT " TEMPLATE_COLUMNS " FROM template WHERE"
	    " ?1 IS NULL OR model_id = ?1 ORDER BY model_id, version", model,
	    template_line, out);
}

/* -------------------------------------------------------------- checks */

/*
 * The checks of the fields of an object that import makes before it
 * stores one, and fsck on what is stored: what put itself would never
 * write. Each flaw is reported as "OBJECT: message", for import at the
 * line of its input, for fsck as one of its problems.
 */
struct check {
	struct store	*s;
	const char	*file;		/* import: its input; fsck: NULL */
	unsigned long	 line;
	int		*problems;	/* fsck: its count */
	struct buf	 obj;		/* the object, in words */
	struct buf	 tmp;
	struct buf	 quoted;
	struct llmr	*v;		/* for the XML, made when needed */
	int		 flaws;
};

static void
check_free(struct check *c)
{
	buf_free(&c->obj);
	buf_free(&c->tmp);
	buf_free(&c->quoted);
	llmr_free(c->v);
}

static void
flaw(struct check *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
flaw(struct check *c, const char *fmt, ...)
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
static void
check_obj(struct check *c, const char *what, const char *name, size_t n,
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
static int
is_hash(const char *p, size_t n)
{
	return n == SHA256_HEX - 1 && strspn(p, "0123456789abcdef") == n;
}

/* Text: valid UTF-8 without NUL (an import's strings always are). */
static void
check_text(struct check *c, const char *field, const char *p, size_t n)
{
	if (utf8_valid(p, n) != n)
		flaw(c, "%s is not valid UTF-8", field);
	else if (memchr(p, '\0', n) != NULL)
		flaw(c, "%s holds a NUL byte", field);
}

/* A topic, message id or model (any text, not empty), or with normal
 * set a subject name or term, which must be as store_normalize makes it. */
static void
check_name(struct check *c, const char *field, const char *p, size_t n,
    int normal)
{
	size_t i, len;
	uint32_t cp;
	int flaws = c->flaws;

	if (n == 0) {
		flaw(c, "%s is empty", field);
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
			flaw(c, "%s %s holds U+%04X, which XML cannot hold",
			    field, cq(c, p, n), (unsigned)cp);
			return;
		}
	}
	store_normalize(&c->tmp, p, n);
	if (c->tmp.len != n || memcmp(c->tmp.data, p, n) != 0) {
		struct buf want = BUF_INIT;

		store_quote(&want, c->tmp.data, c->tmp.len);
		flaw(c, "%s %s is not normalised (%s)", field, cq(c, p, n),
		    buf_cstr(&want));
		buf_free(&want);
	}
}

static void
check_range(struct check *c, const char *field, long long v, long long lo,
    long long hi)
{
	if (v < lo || v > hi)
		flaw(c, "%s %lld is outside %lld-%lld", field, v, lo, hi);
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
static void
check_hash(struct check *c, const char *field, const char *p, size_t n)
{
	if (p != NULL && !is_hash(p, n))
		flaw(c, "%s %s is not a SHA-256 hash (64 lowercase hexadecimal "
		    "digits)", field, cq(c, p, n));
}

static void
check_score(struct check *c, double v)
{
	struct buf num = BUF_INIT;

	if (!(v >= 0 && v <= 1)) {
		jsonw_number(&num, v);
		flaw(c, "score %s is outside 0.0-1.0", buf_cstr(&num));
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
		flaw(c, "its XML is not a valid %s document", query ?
		    "<llmQuery>" : "<llmResponse>");
	else
		flaw(c, "its XML is not a valid %s document: %lu:%lu: %s%s%s",
		    query ? "<llmQuery>" : "<llmResponse>", d[i].line,
		    d[i].col, d[i].path != NULL ? d[i].path : "",
		    d[i].path != NULL ? ": " : "", d[i].message);
}

/* A summary's update: what put keeps of a summaryUpdate, trimmed. */
static void
check_update(struct check *c, const char *p, size_t n)
{
	if (n == 0)
		flaw(c, "update is empty");
	else if (strchr(" \t\r\n", p[0]) != NULL ||
	    strchr(" \t\r\n", p[n - 1]) != NULL)
		flaw(c, "update is not trimmed of white space");
	else
		check_text(c, "update", p, n);
}

static void
check_attachment(struct check *c, const char *topic, size_t tn,
    const char *message, size_t mn, long long created, long long seq,
    const char *xml, size_t xn, const char *format)
{
	check_name(c, "topicId", topic, tn, 0);
	check_name(c, "messageId", message, mn, 0);
	check_time(c, "createdAt", created);
	check_seq(c, "seq", seq, -1);
	if (xml != NULL)
		check_xml(c, xml, xn, format);
}

static void
check_keyword(struct check *c, const char *topic, size_t tn, const char *term,
    size_t kn, long long freq, const double *score, long long created,
    long long seen, const char *src, size_t sn, long long seq, long long pos)
{
	check_name(c, "topicId", topic, tn, 0);
	check_name(c, "term", term, kn, 1);
	check_range(c, "frequency", freq, 1, STORE_COUNT_MAX);
	if (score != NULL)
		check_score(c, *score);
	check_time(c, "createdAt", created);
	check_time(c, "lastSeen", seen);
	check_hash(c, "sourceXmlHash", src, sn);
	check_seq(c, "lastSeq", seq, pos);
}

static void
check_subject(struct check *c, const char *topic, size_t tn, const char *id,
    size_t in, const char *desc, size_t dn, long long count,
    long long created, long long seen, const char *src, size_t sn,
    long long seq, long long pos)
{
	check_name(c, "topic", topic, tn, 0);
	check_name(c, "id", id, in, 1);
	check_text(c, "description", desc, dn);
	check_range(c, "messageCount", count, 1, STORE_COUNT_MAX);
	check_time(c, "createdAt", created);
	check_time(c, "lastSeenAt", seen);
	check_hash(c, "sourceXmlHash", src, sn);
	check_seq(c, "lastSeq", seq, pos);
}

static void
check_time_range(struct check *c, long long start, long long end)
{
	check_time(c, "time range start", start);
	check_time(c, "time range end", end);
	if (start > end)
		flaw(c, "time range %lld-%lld ends before it starts", start,
		    end);
}

static void
check_summary(struct check *c, const char *topic, size_t tn, long long v,
    const char *update, size_t un, long long created, long long updated,
    const char *reason, size_t rn, const char *src, size_t sn)
{
	check_name(c, "topic", topic, tn, 0);
	check_range(c, "version", v, 1, STORE_SEQ_MAX);
	check_update(c, update, un);
	check_time(c, "createdAt", created);
	check_time(c, "updatedAt", updated);
	if (reason != NULL)
		check_text(c, "changeReason", reason, rn);
	check_hash(c, "sourceXmlHash", src, sn);
}

static void
check_template(struct check *c, const char *model, size_t mn,
    const char *text, size_t n, long long v, long long xv, long long created,
    long long updated)
{
	check_name(c, "modelId", model, mn, 0);
	if (n == 0)
		flaw(c, "promptText is empty");
	else
		check_text(c, "promptText", text, n);
	check_range(c, "version", v, 1, STORE_SEQ_MAX);
	check_range(c, "xmlSchemaVersion", xv, 1, LLONG_MAX);
	check_time(c, "createdAt", created);
	check_time(c, "updatedAt", updated);
}

/* The names of a JSON array (a summary's subjects or keywords, stored). */
static void
check_name_array(struct check *c, const char *field, const char *text,
    size_t n)
{
	json_t *a = json_loadb(text, n, 0, NULL), *v;
	size_t i;

	if (!json_is_array(a)) {
		flaw(c, "%s is not a JSON array", field);
		json_decref(a);
		return;
	}
	json_array_foreach(a, i, v) {
		if (!json_is_string(v)) {
			flaw(c, "%s is not an array of strings", field);
			break;
		}
		check_name(c, field, json_string_value(v),
		    json_string_length(v), 1);
	}
	json_decref(a);
}

/* ---------------------------------------------------------------- fsck */

struct fsck {
	struct store	*s;
	int		 problems;
	const char	*file;		/* for import: its input, */
	unsigned long	 line;		/* and the line after its last */
};

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

	if ((q = prepare(f->s, "PRAGMA integrity_check")) == NULL)
		return DIAG_TROUBLE;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *p = col_str(q, 0), *nl;

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
	return rc == SQLITE_DONE ? DIAG_OK : db_fail(f->s);
}

static int
fsck_blobs(struct fsck *f)
{
	char hash[SHA256_HEX];
	sqlite3_stmt *q;
	int rc;

	if ((q = prepare(f->s, "SELECT hash, size, data FROM blob"
	    " ORDER BY hash")) == NULL)
		return DIAG_TROUBLE;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const void *data = sqlite3_column_blob(q, 2);
		size_t n = col_len(q, 2);
		const char *hb = col_str(q, 0);

		if (!is_hash(hb, strlen(hb)))
			hb = qs(f->s, 0, hb);

		if (sha256_hex(data != NULL ? data : "", n, hash) != 0 ||
		    strcmp(hash, col_str(q, 0)) != 0)
			problem(f, "blob %s: its bytes hash to %s", hb, hash);
		if (sqlite3_column_int64(q, 1) != (long long)n)
			problem(f, "blob %s: size is %lld, its bytes are %zu",
			    hb, (long long)sqlite3_column_int64(q, 1), n);
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? DIAG_OK : db_fail(f->s);
}

static int
fsck_attachments(struct fsck *f)
{
	struct buf line = BUF_INIT;
	char hash[SHA256_HEX];
	struct att a;
	sqlite3_stmt *q;
	int rc;

	if ((q = prepare(f->s, "SELECT a.hash, a.topic_id, a.message_id,"
	    " a.xml_content, a.xml_blob, a.format, a.version, a.created_at,"
	    " a.size, b.size,"
	    " length(b.data), b.hash IS NOT NULL FROM attachment AS a"
	    " LEFT JOIN blob AS b ON b.hash = a.xml_blob ORDER BY a.id"))
	    == NULL)
		return DIAG_TROUBLE;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *h = col_str(q, 0), *hs, *ms;
		long long has;

		att_from_row(&a, q);
		/* (quoted in the messages unless they are plain) */
		hs = is_hash(h, strlen(h)) ? h : qs(f->s, 1, h);
		ms = qs(f->s, 0, a.message);
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
		if (att_line(&line, &a, NULL, hash) == 0 && strcmp(hash, h))
			problem(f, "attachment %s (message %s): its fields "
			    "hash to %s", hs, ms, hash);
	}
	sqlite3_finalize(q);
	buf_free(&line);
	return rc == SQLITE_DONE ? DIAG_OK : db_fail(f->s);
}

static int
fsck_templates(struct fsck *f)
{
	sqlite3_stmt *q;
	int rc;

	if ((q = prepare(f->s, "SELECT model_id, sum(active != 0) FROM"
	    " template GROUP BY model_id HAVING sum(active != 0) != 1"
	    " ORDER BY model_id")) == NULL)
		return DIAG_TROUBLE;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW)
		problem(f, "model %s: %lld active prompt templates",
		    qs(f->s, 0, col_str(q, 0)),
		    (long long)sqlite3_column_int64(q, 1));
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? DIAG_OK : db_fail(f->s);
}

static int
fsck_summaries(struct fsck *f)
{
	sqlite3_stmt *q;
	struct buf topic = BUF_INIT;
	long long want = 1, v;
	int rc;

	if ((q = prepare(f->s, "SELECT topic_id, version FROM summary"
	    " ORDER BY topic_id, version")) == NULL)
		return DIAG_TROUBLE;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (topic.data == NULL || strcmp(topic.data, col_str(q, 0))) {
			buf_reset(&topic);
			buf_adds(&topic, col_str(q, 0));
			buf_addc(&topic, '\0');
			want = 1;
		}
		v = sqlite3_column_int64(q, 1);
		for (; want < v; want++)
			problem(f, "topic %s: summary version %lld is "
			    "missing", qs(f->s, 0, topic.data), want);
		want = v + 1;
	}
	sqlite3_finalize(q);
	buf_free(&topic);
	return rc == SQLITE_DONE ? DIAG_OK : db_fail(f->s);
}

/* A text column, or NULL when it is NULL; its length in *n. */
static const char *
col_opt(sqlite3_stmt *q, int i, size_t *n)
{
	*n = col_len(q, i);
	return sqlite3_column_type(q, i) == SQLITE_NULL ? NULL : col_str(q, i);
}

/* The words of an attachment, a keyword or subject, a summary and a
 * template in the messages of import and fsck. */
static void
obj_attachment(struct check *c, const char *hash, size_t hn,
    const char *message, size_t mn)
{
	buf_reset(&c->obj);
	buf_adds(&c->obj, "attachment ");
	if (is_hash(hash, hn))
		buf_add(&c->obj, hash, hn);
	else
		store_quote(&c->obj, hash, hn);
	buf_adds(&c->obj, " (message ");
	store_quote(&c->obj, message, mn);
	buf_addc(&c->obj, ')');
}

static void
obj_named(struct check *c, const char *what, const char *name, size_t n,
    const char *topic, size_t tn)
{
	check_obj(c, what, name, n, " of topic ");
	store_quote(&c->obj, topic, tn);
}

static void
obj_summary(struct check *c, const char *topic, size_t tn, long long v)
{
	buf_reset(&c->obj);
	buf_reset(&c->tmp);
	buf_add(&c->tmp, topic, tn);
	buf_printf(&c->tmp, "-v%lld", v);
	check_obj(c, "summary", c->tmp.data, c->tmp.len, "");
}

static void
obj_template(struct check *c, const char *model, size_t mn, long long v)
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
		obj_attachment(c, a, an, b, bn);
		/* the inline XML, or the blob's (none when it is missing) */
		if ((x = col_opt(q, 3, &xn)) == NULL &&
		    sqlite3_column_type(q, 4) != SQLITE_NULL) {
			x = sqlite3_column_blob(q, 4);
			xn = col_len(q, 4);
			if (x == NULL)
				x = "";
		}
		check_attachment(c, col_str(q, 2), col_len(q, 2), b, bn,
		    sqlite3_column_int64(q, 6), sqlite3_column_int64(q, 7), x,
		    xn, col_str(q, 5));
		break;
	case F_KEYWORD:
		obj_named(c, "keyword", b, bn, a, an);
		score = sqlite3_column_double(q, 3);
		src = col_opt(q, 6, &sn);
		check_keyword(c, a, an, b, bn, sqlite3_column_int64(q, 2),
		    sqlite3_column_type(q, 3) == SQLITE_NULL ? NULL : &score,
		    sqlite3_column_int64(q, 4), sqlite3_column_int64(q, 5),
		    src, sn, sqlite3_column_int64(q, 7),
		    sqlite3_column_int64(q, 8));
		break;
	case F_KEYWORD_SUBJECT:
	case F_SUBJECT_KEYWORD:
		obj_named(c, t == F_KEYWORD_SUBJECT ? "keyword" : "subject", b,
		    bn, a, an);
		check_name(c, t == F_KEYWORD_SUBJECT ? "subject" : "keyword",
		    col_str(q, 2), col_len(q, 2), 1);
		break;
	case F_SUBJECT:
		obj_named(c, "subject", b, bn, a, an);
		src = col_opt(q, 7, &sn);
		check_subject(c, a, an, b, bn, col_str(q, 2), col_len(q, 2),
		    sqlite3_column_int64(q, 3), sqlite3_column_int64(q, 4),
		    sqlite3_column_int64(q, 5), src, sn,
		    sqlite3_column_int64(q, 8), sqlite3_column_int64(q, 9));
		break;
	case F_RANGE:
		obj_named(c, "subject", b, bn, a, an);
		check_time_range(c, sqlite3_column_int64(q, 2),
		    sqlite3_column_int64(q, 3));
		break;
	case F_SUMMARY:
		obj_summary(c, a, an, sqlite3_column_int64(q, 1));
		x = col_opt(q, 7, &xn);
		src = col_opt(q, 8, &sn);
		check_summary(c, a, an, sqlite3_column_int64(q, 1),
		    col_str(q, 2), col_len(q, 2), sqlite3_column_int64(q, 5),
		    sqlite3_column_int64(q, 6), x, xn, src, sn);
		check_name_array(c, "subject", col_str(q, 3), col_len(q, 3));
		check_name_array(c, "keyword", col_str(q, 4), col_len(q, 4));
		break;
	case F_TEMPLATE:
		obj_template(c, a, an, sqlite3_column_int64(q, 1));
		check_template(c, a, an, col_str(q, 2), col_len(q, 2),
		    sqlite3_column_int64(q, 1), sqlite3_column_int64(q, 3),
		    sqlite3_column_int64(q, 4), sqlite3_column_int64(q, 5));
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
		if ((q = prepare(f->s, fields_sql[t])) == NULL) {
			status = DIAG_TROUBLE;
			break;
		}
		while ((rc = sqlite3_step(q)) == SQLITE_ROW)
			fields_row(&c, t, q);
		sqlite3_finalize(q);
		if (rc != SQLITE_DONE)
			status = db_fail(f->s);
	}
	check_free(&c);
	return status;
}


/* Checks everything that the schema cannot; DIAG_INVALID on a problem. */
int
store_fsck(struct store *s)
{
	static int (*const checks[])(struct fsck *) = {
		fsck_integrity, fsck_blobs, fsck_attachments, fsck_templates,
		fsck_summaries, fsck_fields
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

/* ------------------------------------------------------ export, import */

static int
blob_line(struct store *s, struct buf *b, sqlite3_stmt *q, int export)
{
	const void *data = sqlite3_column_blob(q, 2);

	(void)s;
	(void)export;
	buf_reset(b);
	buf_adds(b, "{\"$type$\":\"BLOB\"");
	member_str(b, "hash", q, 0);
	member_int(b, "size", q, 1);
	buf_adds(b, ",\"data\":");
	jstr(b, data != NULL ? data : "", col_len(q, 2));
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
	att_from_row(&a, q);
	att_line(b, &a, col_str(q, 0), NULL);
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

	if ((q = prepare(s, "SELECT " SUMMARY_COLUMNS " FROM summary"
	    " ORDER BY topic_id, version")) == NULL)
		return DIAG_TROUBLE;
	while (status == DIAG_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (subj.set == NULL || topic.len != col_len(q, 0) ||
		    memcmp(topic.data, col_str(q, 0), topic.len) != 0) {
			buf_reset(&topic);
			buf_add(&topic, col_str(q, 0), col_len(q, 0));
			seen_reset(&subj);
			seen_reset(&kw);
		}
		if ((status = summary_line(s, &b, q, &subj, &kw)) == DIAG_OK)
			status = writes(out, &b);
	}
	if (status == DIAG_OK && rc != SQLITE_DONE)
		status = db_fail(s);
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
		    " ORDER BY model_id, version", template_line },
		{ "SELECT " SUBJECT_COLUMNS " FROM subject"
		    " ORDER BY topic_id, id", subject_line },
		{ "SELECT " KEYWORD_COLUMNS " FROM keyword"
		    " ORDER BY topic_id, term", keyword_line },
	};
	static const char head[] = "{\"$type$\":\"llmstore\",\"version\":1}\n";
	sqlite3_stmt *q;
	size_t i;
	int status;

	if (io_write(head, sizeof(head) - 1, out) != 0)
		return DIAG_TROUBLE;
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if ((q = prepare(s, parts[i].sql)) == NULL)
			return DIAG_TROUBLE;
		if ((status = lines(s, q, parts[i].line, 1, out)) != DIAG_OK)
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
		check_name(&l->ck, field, json_string_value(e),
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
	return is_hash(h, strlen(h)) ? h : qs(l->s, 2, h);
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
	write_str_array(b, v);
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
		return db_fail(l->s);
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
	if ((q = stmt(l->s, Q_BLOB_ADD)) == NULL)
		return DIAG_TROUBLE;
	bind_str(q, 1, h);
	sqlite3_bind_int64(q, 2, size);
	sqlite3_bind_blob64(q, 3, data, n, SQLITE_STATIC);
	return step_done(l->s, q);
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
	if (!is_hash(h, strlen(h))) {
		obj_attachment(&l->ck, h, strlen(h), a.message,
		    strlen(a.message));
		flaw(&l->ck, "hash is not a SHA-256 hash (64 lowercase "
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
	obj_attachment(&l->ck, h, strlen(h), a.message, strlen(a.message));
	flaws = l->ck.flaws;
	if (a.blob != NULL) {
		check_hash(&l->ck, "xmlBlob", a.blob, strlen(a.blob));
		if (flawed(l, flaws))
			return DIAG_INVALID;
		if ((q = stmt(l->s, Q_BLOB_GET)) == NULL)
			return DIAG_TROUBLE;
		bind_str(q, 1, a.blob);
		if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
			blob_size = col_len(q, 0);
			if (blob_size == a.size && a.size > STORE_INLINE_MAX)
				check_attachment(&l->ck, a.topic,
				    strlen(a.topic), a.message,
				    strlen(a.message), a.created, seq,
				    sqlite3_column_blob(q, 0),
				    (size_t)blob_size, a.format);
		}
		sqlite3_reset(q);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			return db_fail(l->s);
		if (blob_size < 0)
			return bad(l, "attachment %s: blob %s is not in the "
			    "store", h, a.blob);
		if (blob_size != a.size || a.size <= STORE_INLINE_MAX)
			return bad(l, "attachment %s: size is %lld, its blob "
			    "has %lld bytes", h, a.size, blob_size);
	} else
		check_attachment(&l->ck, a.topic, strlen(a.topic), a.message,
		    strlen(a.message), a.created, seq, a.content,
		    a.content_len, a.format);
	if (flawed(l, flaws))
		return DIAG_INVALID;
	buf_reset(&l->tmp);
	if (att_line(&l->tmp, &a, NULL, hash) != 0 || strcmp(hash, h) != 0)
		return bad(l, "attachment %s: its fields hash to %s", h, hash);
	if ((q = prepare(l->s, sql[Q_ATT_ADD])) == NULL)
		return DIAG_TROUBLE;
	sqlite3_bind_int64(q, 1, seq);
	bind_str(q, 2, h);
	bind_str(q, 3, a.topic);
	bind_str(q, 4, a.message);
	bind_text(q, 5, a.content, a.content_len);
	bind_str(q, 6, a.blob);
	bind_str(q, 7, a.format);
	sqlite3_bind_int64(q, 8, a.version);
	sqlite3_bind_int64(q, 9, a.created);
	sqlite3_bind_int64(q, 10, a.size);
	return inserted(l, q, "message %s (or seq %lld)",
	    qs(l->s, 0, a.message), seq);
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
	obj_template(&l->ck, model, strlen(model), v);
	flaws = l->ck.flaws;
	check_template(&l->ck, model, strlen(model), text, n, v, xv, created,
	    updated);
	if (flawed(l, flaws))
		return DIAG_INVALID;
	if ((q = prepare(l->s, "INSERT INTO template (model_id, version,"
	    " prompt_text, xml_schema_version, created_at, updated_at, active)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")) == NULL)
		return DIAG_TROUBLE;
	bind_str(q, 1, model);
	sqlite3_bind_int64(q, 2, v);
	bind_text(q, 3, text, n);
	sqlite3_bind_int64(q, 4, xv);
	sqlite3_bind_int64(q, 5, created);
	sqlite3_bind_int64(q, 6, updated);
	sqlite3_bind_int(q, 7, active);
	return inserted(l, q, "version %lld (or an active template) of model "
	    "%s", v, qs(l->s, 0, model));
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
		if ((q = prepare(l->s, text)) == NULL)
			return DIAG_TROUBLE;
		bind_str(q, 1, topic);
		bind_str(q, 2, name);
		bind_text(q, 3, json_string_value(e), json_string_length(e));
		sqlite3_bind_int64(q, 4, (long long)i);
		if ((rc = inserted(l, q, "%s in the %s of %s",
		    qs(l->s, 0, json_string_value(e)), member,
		    qs(l->s, 1, name))) != DIAG_OK)
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
	obj_named(&l->ck, "subject", id, strlen(id), topic, strlen(topic));
	flaws = l->ck.flaws;
	check_subject(&l->ck, topic, strlen(topic), id, strlen(id), desc,
	    strlen(desc), count, created, seen, src, src != NULL ? strlen(src) :
	    0, seq, pos);
	check_names(l, "keywords", "keyword");
	json_array_foreach(tr, i, e)
		check_time_range(&l->ck,
		    json_integer_value(json_object_get(e, "start")),
		    json_integer_value(json_object_get(e, "end")));
	if (flawed(l, flaws))
		return DIAG_INVALID;
	if ((q = prepare(l->s, "INSERT INTO subject (topic_id, id,"
	    " description, message_count, created_at, last_seen_at, archived,"
	    " source_xml_hash, last_seq, last_pos)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)")) == NULL)
		return DIAG_TROUBLE;
	bind_str(q, 1, topic);
	bind_str(q, 2, id);
	bind_str(q, 3, desc);
	sqlite3_bind_int64(q, 4, count);
	sqlite3_bind_int64(q, 5, created);
	sqlite3_bind_int64(q, 6, seen);
	sqlite3_bind_int(q, 7, archived);
	bind_str(q, 8, src);
	sqlite3_bind_int64(q, 9, seq);
	sqlite3_bind_int64(q, 10, pos);
	if ((rc = inserted(l, q, "subject %s of topic %s", qs(l->s, 0,
	    id), qs(l->s, 1, topic))) != DIAG_OK ||
	    (rc = import_list(l, "keywords", sql[Q_SUBJECT_KEYWORD], topic,
	    id)) != DIAG_OK)
		return rc;
	json_array_foreach(tr, i, e) {
		if ((q = prepare(l->s, "INSERT INTO subject_range (topic_id,"
		    " subject_id, start, \"end\") VALUES (?1, ?2, ?3, ?4)")) ==
		    NULL)
			return DIAG_TROUBLE;
		bind_str(q, 1, topic);
		bind_str(q, 2, id);
		sqlite3_bind_int64(q, 3, json_integer_value(json_object_get(e,
		    "start")));
		sqlite3_bind_int64(q, 4, json_integer_value(json_object_get(e,
		    "end")));
		if ((rc = inserted(l, q, "a time range of %s",
		    qs(l->s, 0, id))) !=
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
	obj_named(&l->ck, "keyword", term, strlen(term), topic, strlen(topic));
	flaws = l->ck.flaws;
	check_keyword(&l->ck, topic, strlen(topic), term, strlen(term), freq,
	    score != NULL ? &value : NULL, created, seen, src, src != NULL ?
	    strlen(src) : 0, seq, pos);
	check_names(l, "subjects", "subject");
	if (flawed(l, flaws))
		return DIAG_INVALID;
	if ((q = prepare(l->s, "INSERT INTO keyword (topic_id, term,"
	    " frequency, score, created_at, last_seen, source_xml_hash,"
	    " last_seq, last_pos)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")) == NULL)
		return DIAG_TROUBLE;
	bind_str(q, 1, topic);
	bind_str(q, 2, term);
	sqlite3_bind_int64(q, 3, freq);
	if (score != NULL)
		sqlite3_bind_double(q, 4, json_number_value(score));
	sqlite3_bind_int64(q, 5, created);
	sqlite3_bind_int64(q, 6, seen);
	bind_str(q, 7, src);
	sqlite3_bind_int64(q, 8, seq);
	sqlite3_bind_int64(q, 9, pos);
	if ((rc = inserted(l, q, "keyword %s of topic %s",
	    qs(l->s, 0, term), qs(l->s, 1, topic))) != DIAG_OK)
		return rc;
	return import_list(l, "subjects", sql[Q_KEYWORD_SUBJECT], topic, term);
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
	obj_summary(&l->ck, topic, strlen(topic), v);
	flaws = l->ck.flaws;
	check_summary(&l->ck, topic, strlen(topic), v, update, n, created,
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
			return bad(l, "summary id %s is not %s", qs(l->s, 0,
			    id), qs(l->s, 1, buf_cstr(&l->tmp)));
		}
		snprintf(want, sizeof(want), "-v%lld", v - 1);
		if (v == 1 ? prev != NULL : prev == NULL ||
		    strncmp(prev, topic, tl) != 0 || strcmp(prev + tl, want))
			return bad(l, "summary %s: previousVersion must be "
			    "%s", qs(l->s, 0, id), v == 1 ? "absent" :
			    "the version before");
	}
	if ((q = prepare(l->s, "INSERT INTO summary (topic_id, version,"
	    " update_text, subjects, keywords, created_at, updated_at,"
	    " change_reason, source_xml_hash)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")) == NULL)
		return DIAG_TROUBLE;
	bind_str(q, 1, topic);
	sqlite3_bind_int64(q, 2, v);
	bind_text(q, 3, update, n);
	bind_buf(q, 4, &l->tmp);
	bind_buf(q, 5, &l->tmp2);
	sqlite3_bind_int64(q, 6, created);
	sqlite3_bind_int64(q, 7, updated);
	bind_str(q, 8, reason);
	bind_str(q, 9, src);
	return inserted(l, q, "summary %s", qs(l->s, 0, id));
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
			/* no JSON text holds one: the import ends there */
			struct diag_loc loc = { file, l.no, 1, NULL };

			loc.col += utf8_count(text, n - 1);
			diag_at(DIAG_ERROR, &loc, "import", "NUL byte");
			status = DIAG_INVALID;
			break;
		}
		l.o = json_loadb(text, n,
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
				bad(&l, "not an llmstore export: the first line "
				    "must be {\"$type$\":\"llmstore\","
				    "\"version\":1}");
			else
				st = DIAG_OK;
		} else {
			for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
				if (strcmp(type, types[i].type) == 0)
					break;
			if (i == sizeof(types) / sizeof(types[0]))
				bad(&l, "unknown $type$ %s", qs(s, 0, type));
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
	if (status == DIAG_OK && exec(s, "INSERT INTO sqlite_sequence (name,"
	    " seq) SELECT 'attachment', 0 WHERE NOT EXISTS (SELECT 1 FROM"
	    " sqlite_sequence WHERE name = 'attachment');"
	    "UPDATE sqlite_sequence SET seq = max(seq,"
	    " (SELECT coalesce(max(last_seq), 0) FROM subject),"
	    " (SELECT coalesce(max(last_seq), 0) FROM keyword))"
	    " WHERE name = 'attachment'") != DIAG_OK)
		status = DIAG_TROUBLE;
	/* What no single line shows: one active template a model, the
	 * summary versions of a topic without a gap. */
	if (status == DIAG_OK && l.no > 0) {
		struct fsck f = { s, 0, file, l.no + 1 };

		if (fsck_templates(&f) != DIAG_OK ||
		    fsck_summaries(&f) != DIAG_OK)
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
	check_free(&l.ck);
	return status;
}
