/*
 * store: the commands of llmstore(1) on a store, each given its options
 * and operands as a store_args, and store_run, which opens the store and
 * makes each command one transaction. put validates each document as
 * llmr-validate does before it stores it; prompt set checks the text.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "base/diag.h"
#include "base/io.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "contract/llmr.h"
#include "store/store.h"

/* One put: what its files share, and what it prints once committed. */
struct put {
	struct store		*s;
	const struct store_args	*a;
	struct llmr		*v;
	const char		*operand;	/* the file being read */
	const char		*message;	/* its message id */
	struct buf		 in;
	struct buf		 out;
	int			 failed;	/* one rejected: none stored */
};

/* The message id of a --batch file: its base name without ".xml". */
char *
store_batch_id(const char *file)
{
	const char *base = strrchr(file, '/');
	size_t n;
	char *id;

	base = base != NULL ? base + 1 : file;
	n = strlen(base);
	if (n > 4 && strcmp(base + n - 4, ".xml") == 0)
		n -= 4;
	id = xmalloc(n + 1);
	memcpy(id, base, n);
	id[n] = '\0';
	return id;
}

/* A name of the command line is written back as JSON: it must be UTF-8. */
static int
name_check(struct buf *why, const char *what, const char *arg)
{
	if (arg == NULL || utf8_valid(arg, strlen(arg)) == strlen(arg))
		return 0;
	buf_printf(why, "%s must be valid UTF-8, not ", what);
	store_quote(why, arg, strlen(arg));
	return -1;
}

/*
 * The names of a command line that the store would refuse: a --format
 * other than its two, -t, -m or -M empty or not UTF-8, a --batch
 * without -t or with -m, or a --batch file whose message id is not
 * UTF-8. Returns 0, or -1 with why set.
 */
static int
names_check(const struct store_args *a, struct buf *why)
{
	static const struct cmd_choice formats[] = {
		{ "llm-query", 0 }, { "llm-response", 1 }, { NULL, 0 }
	};
	const char *opt[3] = { a->topic, a->message, a->model };
	static const char *const what[3] = { "-t", "-m", "-M" };
	char *id;
	int i, bad = 0;

	if (a->format != NULL && cmd_choice_find(a->format, formats) == -1) {
		cmd_choice_why(why, "--format", a->format, formats);
		return -1;
	}
	for (i = 0; i < 3; i++)
		if (opt[i] != NULL && *opt[i] == '\0') {
			buf_printf(why, "%s must not be empty", what[i]);
			return -1;
		}
	for (i = 0; i < 3; i++)
		if (name_check(why, what[i], opt[i]) != 0)
			return -1;
	if (a->batch && a->topic == NULL)
		buf_adds(why, "put --batch needs -t TOPIC");
	else if (a->batch && a->message != NULL)
		buf_adds(why, "put --batch takes the message ids from the file "
		    "names, not -m");
	if (why->len > 0)
		return -1;
	for (i = 0; a->batch && i < a->argc && !bad; i++) {
		id = store_batch_id(a->argv[i]);
		if ((bad = utf8_valid(id, strlen(id)) != strlen(id))) {
			buf_adds(why, "put --batch: the message id of ");
			store_quote(why, a->argv[i], strlen(a->argv[i]));
			buf_adds(why, " must be valid UTF-8");
		}
		free(id);
	}
	return bad ? -1 : 0;
}

/*
 * Whether a command line keeps the rules of its command (name): the
 * names the store would refuse, then the options it needs, then the
 * count of its operands and their names. Returns 0, or -1 with what is
 * wrong in why, for the usage error.
 */
int
store_args_check(const char *name, const struct store_rules *r,
    const struct store_args *a, struct buf *why)
{
	const char *p;
	int i, min = r->min, max = r->max;

	if (names_check(a, why) != 0)
		return -1;
	for (p = a->batch ? NULL : r->need; p != NULL &&
	    (p = strstr(p, " -")) != NULL; p += 3)
		if ((p[2] == 't' ? a->topic : p[2] == 'm' ? a->message :
		    a->model) == NULL) {
			buf_adds(why, r->need);
			return -1;
		}
	if (a->batch)
		min = 1, max = INT_MAX;
	else if (r->or_message && a->message != NULL)
		min = max = 0;
	if (a->argc < min || a->argc > max) {
		buf_printf(why, "%s takes %s", name, a->batch ?
		    "one FILE or more with --batch" : r->takes);
		return -1;
	}
	for (i = 0; i < a->argc && i < 2; i++)
		if (r->names[i] != NULL &&
		    name_check(why, r->names[i], a->argv[i]) != 0)
			return -1;
	return 0;
}

/*
 * The operand on a line of put --batch, as sha256sum(1) writes a file
 * name: a name with a newline or a backslash has them escaped as \n and
 * \\, and the line then begins with a backslash.
 */
static void
batch_line(struct buf *out, const char *hash, const char *operand)
{
	const char *p;

	if (strpbrk(operand, "\n\\") != NULL)
		buf_addc(out, '\\');
	buf_adds(out, hash);
	buf_adds(out, "  ");
	for (p = operand; *p != '\0'; p++)
		if (*p == '\n')
			buf_adds(out, "\\n");
		else if (*p == '\\')
			buf_adds(out, "\\\\");
		else
			buf_addc(out, *p);
	buf_addc(out, '\n');
}

/*
 * One file of a put: read, validated (its problems reported as
 * llmr-validate reports them), stored, and its line kept for the end. A
 * file that cannot be read is only reported; one that is rejected, or
 * that the store refuses, fails the whole put.
 */
static int
put_file(FILE *fp, const char *name, void *arg)
{
	struct put *p = arg;
	struct llmr_opts opts;
	struct store_doc d;
	int status;

	memset(&opts, 0, sizeof(opts));
	opts.file = name;
	opts.type = LLMR_ANY;
	buf_reset(&p->in);
	if (io_slurp_text(fp, &p->in) != 0) {
		diag_warn("%s", name);
		return DIAG_TROUBLE;
	}
	status = llmr_check(p->v, p->in.data != NULL ? p->in.data : "",
	    p->in.len, &opts);
	llmr_report(p->v);
	if (status == DIAG_OK && llmr_doc(p->v) == NULL)
		status = DIAG_INVALID;
	if (status == DIAG_OK) {
		memset(&d, 0, sizeof(d));
		d.file = name;
		d.topic = p->a->topic;
		d.message = p->message;
		d.xml = p->in.data != NULL ? p->in.data : "";
		d.len = p->in.len;
		d.doc = llmr_doc(p->v);
		status = store_put(p->s, &d);
	}
	if (status != DIAG_OK) {
		p->failed = 1;
		return status;
	}
	if (p->a->batch)
		batch_line(&p->out, d.hash, p->operand);
	else {
		buf_adds(&p->out, d.hash);
		buf_addc(&p->out, '\n');
	}
	return DIAG_OK;
}

/* The files of a --batch, each under the id its name gives. */
static int
put_batch(struct put *p)
{
	int i, status = DIAG_OK;
	char *id;

	for (i = 0; i < p->a->argc; i++) {
		p->operand = p->a->argv[i];
		p->message = id = store_batch_id(p->operand);
		if (*id == '\0') {
			diag_warnx("%s: no message id in the file name",
			    p->operand);
			p->failed = 1;
			status = diag_max(status, DIAG_INVALID);
		} else
			status = diag_max(status, cmd_operand(p->operand,
			    put_file, p));
		free(id);
		/* the store in trouble: nothing more can be stored */
		if (p->failed && status == DIAG_TROUBLE)
			break;
	}
	return status;
}

/*
 * put: one transaction for every file; what says "stored" is printed
 * only once it is, and nothing is stored when a file is rejected.
 */
int
store_cmd_put(struct store *s, const struct store_args *a)
{
	struct put p = { s, a, NULL, NULL, NULL, BUF_INIT, BUF_INIT, 0 };
	int status;

	if ((status = store_begin(s, 1)) != DIAG_OK)
		return status;
	p.v = llmr_new();
	if (a->batch)
		status = put_batch(&p);
	else {
		p.operand = a->argc > 0 ? a->argv[0] : "-";
		p.message = a->message;
		status = cmd_operand(p.operand, put_file, &p);
	}
	if (p.failed || p.out.len == 0)
		store_rollback(s);
	else if (store_commit(s) != DIAG_OK)
		status = DIAG_TROUBLE;
	else if (io_write(p.out.data, p.out.len, stdout) != 0)
		status = DIAG_TROUBLE;
	llmr_free(p.v);
	buf_free(&p.in);
	buf_free(&p.out);
	return status;
}

/*
 * prompt set: a template is text, never empty, valid UTF-8 without a
 * NUL byte. Its line is printed once it is stored.
 */
int
store_cmd_prompt_set(struct store *s, const struct store_args *a)
{
	struct buf text = BUF_INIT, out = BUF_INIT;
	const char *operand = a->argc > 0 ? a->argv[0] : "-";
	int status = DIAG_INVALID;

	if (io_read(operand, &text) != DIAG_OK) {
		buf_free(&text);
		return DIAG_TROUBLE;
	}
	if (text.len == 0)
		diag_warnx("%s: the prompt is empty", io_name(operand));
	else if (utf8_valid(text.data, text.len) != text.len ||
	    memchr(text.data, '\0', text.len) != NULL)
		diag_warnx("%s: the prompt is not valid UTF-8",
		    io_name(operand));
	else if ((status = store_begin(s, 1)) == DIAG_OK) {
		status = store_prompt_set(s, a->model, a->xml_version > 0 ?
		    a->xml_version : 1, text.data, text.len, &out);
		if (status == DIAG_OK)
			status = store_commit(s);
		else
			store_rollback(s);
		if (status == DIAG_OK &&
		    io_write(out.data, out.len, stdout) != 0)
			status = DIAG_TROUBLE;
	}
	buf_free(&text);
	buf_free(&out);
	return status;
}

static int
import_file(FILE *fp, const char *name, void *arg)
{
	return store_import(arg, name, fp);
}

int
store_cmd_import(struct store *s, const struct store_args *a)
{
	return cmd_operand(a->argc > 0 ? a->argv[0] : "-", import_file, s);
}

/* The commands that are one call of the store's. */
int
store_cmd_ls(struct store *s, const struct store_args *a)
{
	return store_ls(s, a->topic, a->message, a->format, stdout);
}

int
store_cmd_cat(struct store *s, const struct store_args *a)
{
	return store_cat(s, a->message == NULL ? a->argv[0] : NULL,
	    a->message, stdout);
}

int
store_cmd_rm(struct store *s, const struct store_args *a)
{
	return store_rm(s, a->message);
}

/* A conversation's first turn has no store yet: an empty context. */
int
store_cmd_context(struct store *s, const struct store_args *a)
{
	if (s == NULL) {
		store_empty_context(a->argv[0], stdout);
		return DIAG_OK;
	}
	return store_context(s, a->argv[0], stdout);
}

int
store_cmd_summary(struct store *s, const struct store_args *a)
{
	return store_summary(s, a->argv[0], a->revision, stdout);
}

int
store_cmd_keywords(struct store *s, const struct store_args *a)
{
	return store_keywords(s, a->argv[0], stdout);
}

int
store_cmd_subjects(struct store *s, const struct store_args *a)
{
	return store_subjects(s, a->argv[0], stdout);
}

int
store_cmd_archive(struct store *s, const struct store_args *a)
{
	return store_archive(s, a->argv[0], a->argv[1], !a->undo);
}

int
store_cmd_trace(struct store *s, const struct store_args *a)
{
	return store_trace(s, a->argv[0], a->topic, stdout);
}

int
store_cmd_prompt_get(struct store *s, const struct store_args *a)
{
	return store_prompt_get(s, a->model, a->revision, stdout);
}

int
store_cmd_prompt_ls(struct store *s, const struct store_args *a)
{
	return store_prompt_ls(s, a->model, stdout);
}

int
store_cmd_fsck(struct store *s, const struct store_args *a)
{
	return store_fsck(s);
}

int
store_cmd_export(struct store *s, const struct store_args *a)
{
	return store_export(s, stdout);
}

/*
 * Opens the store at a->path (NULL: $LLMSTORE, else ./llmstore.db) for
 * a command and closes it. how says what the
 * command does with it: STORE_WRITES, a write (a missing store is made);
 * STORE_OWNTX, the command begins and commits its transaction itself,
 * else it is one transaction, committed when a writer succeeds;
 * STORE_MAYBE, a missing store is given to the command as NULL.
 */
int
store_run(int how, store_cmd_fn *fn, const struct store_args *a)
{
	struct store *s = NULL;
	const char *path = a->path;
	int status, write = (how & STORE_WRITES) != 0;

	if (path == NULL)
		path = getenv("LLMSTORE");
	if (path == NULL || *path == '\0')
		path = "llmstore.db";
	if ((how & STORE_MAYBE) && access(path, F_OK) != 0 && errno == ENOENT)
		return fn(NULL, a);
	if ((status = store_open(&s, path, write)) != DIAG_OK) {
		store_close(s);
		return status;
	}
	if (how & STORE_OWNTX)
		status = fn(s, a);
	else if ((status = store_begin(s, write)) == DIAG_OK) {
		status = fn(s, a);
		if (status == DIAG_OK && write)
			status = store_commit(s);
		else
			store_rollback(s);
	}
	store_close(s);
	return status;
}
