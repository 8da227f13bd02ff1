/*
 * mcp_run: what mcp-run does once its options are read. The tool calls of
 * its input, one JSON record a line, run in input order and their events
 * written; or the servers' tools, or their names, or what mcp_res asks of
 * them; then the servers' shutdown.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "base/diag.h"
#include "base/src.h"
#include "base/xalloc.h"
#include "json/jsonx.h"
#include "mcp/mcp.h"

#define READ_SIZE	65536

/*
 * A call of -j's in flight: its line (a copy, for its diagnostics), its
 * record, and the job that runs it.
 */
struct slot {
	char		*text;
	size_t		 len;
	const char	*name;
	unsigned long	 lineno;
	size_t		 off;		/* of the record in text */
	json_t		*v;
	struct mcp_call	 c;
	struct mcp_outcome o;
	struct mcp_job	*job;
};

/* The run over the input: its calls are numbered across operands. */
struct run {
	struct mcp	*m;
	int		 unbuffered;
	unsigned long	 calls;		/* read so far, in all operands */
	struct slot	*ring;		/* -j's calls in input order */
	size_t		 head;		/* the oldest */
	size_t		 n;		/* how many are in flight */
	int		 status;	/* of the calls ended so far */
};

/*
 * A server's line (of its standard error, or a log message) on ours,
 * "NAME: TEXT", control characters escaped: the note of the tools.
 */
void
mcp_say(void *arg, const char *server, const char *text, size_t len)
{
	struct buf line = BUF_INIT;

	(void)arg;
	diag_escape(&line, server, strlen(server), 0);
	buf_adds(&line, ": ");
	diag_escape(&line, text, len, 0);
	buf_addc(&line, '\n');
	fwrite(line.data, 1, line.len, stderr);
	buf_free(&line);
}

/* A diagnostic at the value that ptr names in the record at off of src. */
static void
at(struct src *src, size_t off, const char *ptr, const char *rule,
    const char *msg)
{
	struct jsonx_locator l;
	struct diag_loc loc;

	jsonx_locator_init(&l, src->s, src->n);
	src_loc(src, jsonx_locate(&l, off, ptr), &loc);
	jsonx_locator_free(&l);
	loc.path = *ptr != '\0' ? ptr : NULL;
	diag_at(DIAG_ERROR, &loc, rule, "%s", msg);
}

/*
 * What became of call c of the record at off of src: its diagnostic
 * said, its event written. Its status.
 */
static int
outcome(struct run *r, struct src *src, size_t off, const struct mcp_call *c,
    struct mcp_outcome *o)
{
	struct buf text = BUF_INIT;
	char msg[256];
	int rc;

	if (o->status == DIAG_INVALID && o->refused)
		at(src, off, o->ptr, "mcp-refused", buf_cstr(&o->message));
	else if (o->status == DIAG_INVALID) {
		diag_quote(msg, sizeof(msg), c->tool, strlen(c->tool));
		buf_printf(&text, "tool %s on %s failed: %s", msg, o->server,
		    buf_cstr(&o->message));
		at(src, off, c->ptr_tool, "mcp-failed", buf_cstr(&text));
		buf_free(&text);
	}
	if (cmd_write(o->record.data, o->record.len) != DIAG_OK ||
	    (r->unbuffered && cmd_flush() != DIAG_OK))
		o->status = DIAG_TROUBLE;
	rc = o->status;
	buf_free(&o->record);
	buf_free(&o->message);
	return rc;
}

/* The outcome of the call of slot sl, which is done; the slot emptied. */
static int
slot_end(struct run *r, struct slot *sl)
{
	struct src src;
	int rc;

	src_init(&src, sl->name, sl->text, sl->len);
	src_setrecord(&src, sl->lineno);
	rc = outcome(r, &src, sl->off, &sl->c, &sl->o);
	mcp_job_free(r->m, sl->job);
	mcp_call_free(&sl->c);
	json_decref(sl->v);
	free(sl->text);
	memset(sl, 0, sizeof(*sl));
	return rc;
}

/*
 * Writes the outcomes of the calls that are done: from the oldest, in
 * input order, up to the first still running; with --unordered, each.
 */
static void
drain_slots(struct run *r)
{
	struct mcp *m = r->m;
	struct slot *sl;
	size_t i;

	mcp_jobs_settle(m);
	if (m->unordered)
		for (i = 0; i < r->n; i++) {
			sl = &r->ring[(r->head + i) % m->parallel];
			if (sl->job != NULL && mcp_job_done(sl->job))
				r->status = diag_max(r->status,
				    slot_end(r, sl));
		}
	/* from the oldest: those done are written, those written let go */
	while (r->n > 0) {
		sl = &r->ring[r->head];
		if (sl->job != NULL && !mcp_job_done(sl->job))
			break;
		if (sl->job != NULL)
			r->status = diag_max(r->status, slot_end(r, sl));
		r->head = (r->head + 1) % m->parallel;
		r->n--;
	}
}

/*
 * Waits until a call of -j's is done, and writes what is done: 0, or -1
 * after a stop signal.
 */
static int
await_slot(struct run *r)
{
	if (mcp_jobs_wait(r->m) != 0)
		return -1;
	drain_slots(r);
	return 0;
}

/*
 * Starts call c of record v (at off of src) as one of -j's, once there
 * is room among them. The status so far of those that ended.
 */
static int
start(struct run *r, struct src *src, size_t off, json_t *v,
    struct mcp_call *c)
{
	struct mcp *m = r->m;
	struct slot *sl;
	int rc;

	if (r->ring == NULL)
		r->ring = xcalloc(m->parallel, sizeof(*r->ring));
	drain_slots(r);
	while (r->n == m->parallel && !m->caught)
		if (await_slot(r) != 0)
			break;
	if (m->caught) {
		mcp_call_free(c);
		json_decref(v);
		return DIAG_OK;
	}
	sl = &r->ring[(r->head + r->n) % m->parallel];
	sl->text = xmemdup(src->s, src->n);
	sl->len = src->n;
	sl->name = src->name;
	sl->lineno = src->line;
	sl->off = off;
	sl->v = v;
	sl->c = *c;
	memset(&sl->o, 0, sizeof(sl->o));
	sl->job = mcp_job_start(m, &sl->c, &sl->o);
	r->n++;
	drain_slots(r);
	rc = r->status;
	r->status = DIAG_OK;
	return rc;
}

/* One input line: its call run and its event written. A status. */
static int
one_line(struct run *r, struct src *src)
{
	struct jsonx_error err;
	struct diag_loc loc;
	struct mcp_outcome o;
	struct mcp_call c;
	const char *ptr;
	char msg[256];
	json_t *v;
	size_t off, end;
	int rc;

	off = jsonx_skip_ws(src->s, src->n, src->start);
	if (off == src->n)
		return DIAG_OK;
	if ((v = jsonx_parse(src->s, src->n, off, &end, &err)) == NULL ||
	    (end = jsonx_skip_ws(src->s, src->n, end)) < src->n) {
		if (v != NULL) {
			err.offset = end;
			err.first = JSONX_NOPOS;
			snprintf(err.rule, sizeof(err.rule), "json-syntax");
			snprintf(err.text, sizeof(err.text), "invalid JSON: "
			    "text after the record");
		} else
			jsonx_end_noun(&err, "line");
		if (err.first != JSONX_NOPOS) {
			src_loc(src, err.first, &loc);
			jsonx_dup_text(&err, loc.line, loc.col);
		}
		src_loc(src, err.offset, &loc);
		loc.path = NULL;
		diag_at(DIAG_ERROR, &loc, err.rule, "%s", err.text);
		json_decref(v);
		return DIAG_INVALID;
	}
	rc = mcp_call_read(&c, v, r->calls + 1, msg, sizeof(msg), &ptr);
	if (rc <= 0) {
		if (rc < 0)
			at(src, off, ptr, "mcp-call", msg);
		json_decref(v);
		return rc < 0 ? DIAG_INVALID : DIAG_OK;
	}
	r->calls++;
	if (r->m->parallel > 1)
		return start(r, src, off, v, &c);
	memset(&o, 0, sizeof(o));
	mcp_call_run(r->m, &c, &o);
	rc = outcome(r, src, off, &c, &o);
	mcp_call_free(&c);
	json_decref(v);
	return rc;
}

/*
 * Adds the n bytes read at p to the lines of in. A line with a NUL byte
 * ends just after it (its newline is put there), and the rest of it, to
 * its own newline, is passed over as it comes (*skip says so): the NUL is
 * reported at its place, the next line is read, and a line of NULs
 * without end costs no memory.
 */
static void
add_read(struct buf *in, const char *p, size_t n, int *skip)
{
	const char *e = p + n, *nul, *nl;

	while (p < e) {
		if (*skip) {
			if ((nl = memchr(p, '\n', (size_t)(e - p))) == NULL)
				return;
			p = nl + 1;
			*skip = 0;
			continue;
		}
		if ((nul = memchr(p, '\0', (size_t)(e - p))) == NULL) {
			buf_add(in, p, (size_t)(e - p));
			return;
		}
		nl = memchr(p, '\n', (size_t)(nul - p));
		if (nl != NULL) {
			buf_add(in, p, (size_t)(nl - p) + 1);
			p = nl + 1;
			continue;
		}
		buf_add(in, p, (size_t)(nul - p) + 1);
		buf_addc(in, '\n');
		p = nul + 1;
		*skip = 1;
	}
}

/*
 * The calls of one operand, a line each, read with read(2) once the
 * servers have been listened to until it is readable: a server's lines
 * reach stderr while we wait for input, and a stop signal ends the wait.
 */
static int
process(FILE *fp, const char *name, void *arg)
{
	static char chunk[READ_SIZE];
	struct run *r = arg;
	struct buf in = BUF_INIT;
	struct src src;
	unsigned long lineno = 0;
	size_t off = 0, scan = 0, end;
	ssize_t n;
	char *nl;
	int status = DIAG_OK, eof = 0, skip = 0, rc;

	while (!r->m->caught && !ferror(stdout)) {
		nl = in.len > scan ? memchr(in.data + scan, '\n', in.len - scan) :
		    NULL;
		if (nl == NULL && !eof) {
			scan = in.len;
			/* the events so far reach the reader before we wait */
			if (cmd_flush() != DIAG_OK) {
				status = DIAG_TROUBLE;
				break;
			}
			if ((rc = mcp_wait(r->m, fileno(fp))) == 1) {
				drain_slots(r);	/* calls of -j's ended */
				status = diag_max(status, r->status);
				r->status = DIAG_OK;
				continue;
			}
			if (rc != 0)
				break;
			while ((n = read(fileno(fp), chunk, sizeof(chunk))) ==
			    -1 && errno == EINTR)
				continue;
			if (n < 0) {
				diag_warn("%s", name);
				status = DIAG_TROUBLE;
				break;
			}
			if (n == 0)
				eof = 1;
			add_read(&in, chunk, (size_t)n, &skip);
			continue;
		}
		if (nl == NULL && off == in.len)
			break;
		end = nl != NULL ? (size_t)(nl - in.data) + 1 : in.len;
		src_init(&src, name, in.data + off, end - off);
		src_setrecord(&src, ++lineno);
		status = diag_max(status, one_line(r, &src));
		off = scan = end;
		if (off > READ_SIZE && off * 2 > in.len) {
			memmove(in.data, in.data + off, in.len - off);
			in.len -= off;
			off = scan = 0;
		}
	}
	buf_free(&in);
	return status;
}

/* The calls still in flight after a stop signal: dropped, unwritten. */
static void
slots_free(struct run *r)
{
	struct slot *sl;
	size_t i;

	for (i = 0; i < r->n; i++) {
		sl = &r->ring[(r->head + i) % r->m->parallel];
		if (sl->job == NULL)
			continue;
		mcp_job_free(r->m, sl->job);
		mcp_call_free(&sl->c);
		json_decref(sl->v);
		free(sl->text);
		buf_free(&sl->o.record);
		buf_free(&sl->o.message);
	}
	free(r->ring);
	r->ring = NULL;
	r->n = 0;
}

/*
 * Does what mode says with the sorted servers of m: the calls of the
 * operands (argc of argv; none is standard input), their events written
 * unbuffered or not; the servers' tools; their names, none started; or
 * what ask asks of their resources and prompts, the operands then the
 * names of the servers kept. Servers that were started are shut down.
 * Returns a status; standard output is left to the caller to close.
 */
int
mcp_run(struct mcp *m, enum mcp_run_mode mode, const struct mcp_ask *ask,
    int unbuffered, int argc, char *argv[])
{
	struct run r;
	struct buf out = BUF_INIT;
	int status;

	if (mode == MCP_RUN_SERVERS) {
		status = mcp_list_servers(m, &out) > 0 ? DIAG_INVALID : DIAG_OK;
		status = diag_max(status, cmd_write(out.data, out.len));
		buf_free(&out);
		return status;
	}
	if (mode == MCP_RUN_TOOLS) {
		status = mcp_list_tools(m, &out) == 0 ? DIAG_OK : DIAG_TROUBLE;
		status = diag_max(status, cmd_write(out.data, out.len));
		buf_free(&out);
	} else if (mode != MCP_RUN_CALLS) {
		status = mcp_res_run(m, mode, ask, argc > 0, &out);
		status = diag_max(status, cmd_write(out.data, out.len));
		buf_free(&out);
	} else {
		memset(&r, 0, sizeof(r));
		r.m = m;
		r.unbuffered = unbuffered;
		status = cmd_loop(argc, argv, process, &r);
		while (r.n > 0 && !m->caught && await_slot(&r) == 0)
			continue;
		status = diag_max(status, r.status);
		slots_free(&r);
	}
	mcp_shutdown(m);
	if (m->trouble || m->caught)
		status = diag_max(status, DIAG_TROUBLE);
	return status;
}
