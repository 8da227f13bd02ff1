/*
 * store_int: what the parts of lib/store share and no caller of store.h
 * sees: the store itself, the statements it keeps, the plumbing over
 * SQLite, the objects' JSON, and the checks that import and fsck make.
 * The parts: store.c (opening, transactions), store_obj.c (objects as
 * JSON), store_ingest.c (put), store_read.c (what the commands read),
 * store_prompt.c (prompt templates), store_check.c (the checks of
 * fields), store_fsck.c and store_export.c (export, import); and
 * store_run.c, llmstore's commands on them, which needs none of this.
 */
#ifndef LLMKIT_STORE_INT_H
#define LLMKIT_STORE_INT_H

#include <stdio.h>
#include <time.h>

#include <jansson.h>
#include <sqlite3.h>

#include "base/buf.h"
#include "base/sha256.h"
#include "contract/llmr.h"
#include "store/store.h"

/* The characters of a name that a diagnostic need not quote. */
#define HEX_ALNUM	"0123456789abcdefABCDEFghijklmnopqrstuvwxyz" \
	"GHIJKLMNOPQRSTUVWXYZ"

/* The places of pairs in one response (see pair()). */
#define STORE_PLACES	1048576LL

/* The statements, prepared once per store and kept. */
enum {
	Q_ATT_BY_MSG, Q_BLOB_ADD, Q_ATT_ADD, Q_PREV_RESPONSE, Q_SUBJECT_GET,
	Q_SUBJECT_PUT, Q_SUBJECT_KEYWORD, Q_RANGE_ADD, Q_RANGE_EXTEND,
	Q_KEYWORD_PUT, Q_KEYWORD_SUBJECT, Q_SUMMARY_LAST,
	Q_SUMMARY_ADD, Q_BLOB_GET, Q_SUBJECT_KEYWORDS,
	Q_SUBJECT_RANGES, Q_KEYWORD_SUBJECTS, Q_NQ
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

#define ATT_COLUMNS	"hash, topic_id, message_id, xml_content, xml_blob," \
	" format, version, created_at, size"

/* Strings seen, in the order first seen: a set beside a list. */
struct seen {
	json_t	*set;
	json_t	*list;
};

#define SUMMARY_COLUMNS	"topic_id, version, update_text, created_at," \
	" updated_at, change_reason, source_xml_hash, subjects, keywords"

#define KEYWORD_COLUMNS	"topic_id, term, frequency, score, created_at," \
	" last_seen, source_xml_hash, last_seq, last_pos"

#define SUBJECT_COLUMNS	"topic_id, id, description, message_count," \
	" created_at, last_seen_at, archived, source_xml_hash, last_seq," \
	" last_pos"

#define TEMPLATE_COLUMNS "model_id, version, prompt_text, xml_schema_version," \
	" created_at, updated_at, active"

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

struct fsck {
	struct store	*s;
	int		 problems;
	const char	*file;		/* for import: its input, */
	unsigned long	 line;		/* and the line after its last */
};

extern const char *const store_sql[Q_NQ];	/* the statements */

/* store.c: the plumbing over SQLite */
int		 store_db_fail(struct store *);
sqlite3_stmt	*store_stmt(struct store *, int);
sqlite3_stmt	*store_prepare(struct store *, const char *);
void		 store_bind_text(sqlite3_stmt *, int, const char *, size_t);
void		 store_bind_str(sqlite3_stmt *, int, const char *);
void		 store_bind_buf(sqlite3_stmt *, int, const struct buf *);
const char	*store_col_str(sqlite3_stmt *, int);
size_t		 store_col_len(sqlite3_stmt *, int);
int		 store_step_done(struct store *, sqlite3_stmt *);
int		 store_exec(struct store *, const char *);
long long	 store_now_ms(void);
int		 store_writes(FILE *, const struct buf *);

/* store_obj.c: objects as JSON, names quoted for diagnostics */
int		 store_att_line(struct buf *, const struct att *, const char *,
		    char[SHA256_HEX]);
void		 store_att_from_row(struct att *, sqlite3_stmt *);
void		 store_att_bind(sqlite3_stmt *, const char *,
		    const struct att *);
void		 store_jesc(struct buf *, const char *, size_t);
void		 store_jstr(struct buf *, const char *, size_t);
const char	*store_qs(struct store *, int, const char *);
void		 store_array_add_unique(json_t *, const char *, size_t);
void		 store_write_str_array(struct buf *, const json_t *);

/* store_ingest.c: what the puts of a transaction touched */
int		 store_touches_flush(struct store *);
void		 store_touches_drop(struct store *);

/* store_read.c: the lines of the listings */
typedef int	 store_line_fn(struct store *, struct buf *, sqlite3_stmt *,
		    int);

void		 store_member_str(struct buf *, const char *, sqlite3_stmt *,
		    int);
void		 store_member_int(struct buf *, const char *, sqlite3_stmt *,
		    int);
void		 store_seen_reset(struct seen *);
int		 store_summary_line(struct store *, struct buf *,
		    sqlite3_stmt *, struct seen *, struct seen *);
store_line_fn	 store_keyword_line, store_subject_line;
int		 store_lines(struct store *, sqlite3_stmt *, store_line_fn *,
		    int, FILE *);
int		 store_listing(struct store *, const char *, const char *,
		    store_line_fn *, FILE *);

/* store_prompt.c */
store_line_fn	 store_template_line;

/* store_check.c: the checks of import and fsck */
void		 store_check_free(struct check *);
void		 store_flaw(struct check *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
void		 store_check_obj(struct check *, const char *, const char *,
		    size_t, const char *);
int		 store_is_hash(const char *, size_t);
void		 store_check_name(struct check *, const char *, const char *,
		    size_t, int);
void		 store_check_hash(struct check *, const char *, const char *,
		    size_t);
void		 store_check_attachment(struct check *, const char *, size_t,
		    const char *, size_t, long long, long long, const char *,
		    size_t, const char *);
void		 store_check_keyword(struct check *, const char *, size_t,
		    const char *, size_t, long long, const double *, long long,
		    long long, const char *, size_t, long long, long long);
void		 store_check_subject(struct check *, const char *, size_t,
		    const char *, size_t, const char *, size_t, long long,
		    long long, long long, const char *, size_t, long long,
		    long long);
void		 store_check_time_range(struct check *, long long, long long);
void		 store_check_summary(struct check *, const char *, size_t,
		    long long, const char *, size_t, long long, long long,
		    const char *, size_t, const char *, size_t);
void		 store_check_template(struct check *, const char *, size_t,
		    const char *, size_t, long long, long long, long long,
		    long long);
void		 store_check_name_array(struct check *, const char *,
		    const char *, size_t);

/* store_fsck.c: what import checks at its end too */
int		 store_fsck_templates(struct fsck *);
int		 store_fsck_summaries(struct fsck *);
void		 store_obj_attachment(struct check *, const char *, size_t,
		    const char *, size_t);
void		 store_obj_named(struct check *, const char *, const char *,
		    size_t, const char *, size_t);
void		 store_obj_summary(struct check *, const char *, size_t,
		    long long);
void		 store_obj_template(struct check *, const char *, size_t,
		    long long);

#endif
