/*
 * loop: llm-loop's run. The thread (its file read, locked and continued),
 * the user's message, and the iterations: each one's prompt made of the
 * system prompt, the tools' prompt and the serialized thread; the model's
 * answer read as it streams by toolcall's reader, its calls approved and
 * run on the servers of struct mcp, every event added to the thread as
 * it happens; summaries of old iterations past --max-prompt.
 */
#include <sys/file.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/cmd.h"
#include "base/diag.h"
#include "base/io.h"
#include "base/jsonw.h"
#include "base/proc.h"
#include "base/xalloc.h"
#include "json/jsonx.h"
#include "loop/loop_int.h"
#include "mcp/mcp.h"
#include "thread/thread.h"
#include "toolcall/toolcall.h"

#define ARGS_SHOWN	60	/* bytes of a call's arguments on a line */

static const char summary_ask[] =
    "Summarise the thread above for your own later use: the user's "
    "requests, what was done, what was found, what remains. Write only "
    "the summary.\n";

/* Writes all of s to fd: 0, or -1 with errno. */
static int
write_all(int fd, const char *s, size_t n)
{
	ssize_t r;

	while (n > 0) {
		if ((r = write(fd, s, n)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		s += r;
		n -= (size_t)r;
	}
	return 0;
}

/*
 * Adds an event (a JSON line, newline ended) to the thread: its file with
 * one write, so that a line is whole whatever ends us; the prompt's
 * events; -o events' output. 0, or -1 (trouble, said).
 */
int
loop_add(struct loop *l, const char *s, size_t n)
{
	if (l->fd >= 0 && write_all(l->fd, s, n) != 0) {
		diag_warn("%s", l->o->thread);
		l->status = DIAG_TROUBLE;
		l->stop = 1;
		return -1;
	}
	buf_add(&l->events, s, n);
	l->added++;
	if (l->o->output == LOOP_OUT_EVENTS && (cmd_write(s, n) != DIAG_OK ||
	    cmd_flush() != DIAG_OK)) {
		l->status = DIAG_TROUBLE;
		l->stop = 1;
		return -1;
	}
	return 0;
}

/* An event made here: its JSON (a reference taken), a line added. */
int
loop_add_json(struct loop *l, json_t *ev)
{
	struct buf b = BUF_INIT;
	int rc;

	jsonw_stringify(&b, ev);
	buf_addc(&b, '\n');
	json_decref(ev);
	rc = loop_add(l, b.data, b.len);
	buf_free(&b);
	return rc;
}

static int	drain(struct loop *);

/* The reader's prose as it comes: to standard output, with -o prose. */
void
loop_prose(void *arg, const char *s, size_t n)
{
	struct loop *l = arg;

	/* the calls read before this prose run before it is shown */
	if (!l->summarising && l->pending.len > 0)
		drain(l);
	if (l->summarising || l->o->output != LOOP_OUT_PROSE || l->stop)
		return;
	/* an answer's shown prose begins with its first line of text */
	if (l->shown == 0)
		while (n > 0 && (*s == '\n' || *s == '\r')) {
			s++;
			n--;
		}
	if (n == 0)
		return;
	l->shown = s[n - 1];
	if (cmd_write(s, n) != DIAG_OK || cmd_flush() != DIAG_OK) {
		l->status = DIAG_TROUBLE;
		l->stop = 1;
	}
}

/* An answer's prose shown ends its line, so that the next is apart. */
static void
prose_end(struct loop *l)
{
	if (l->shown != 0 && l->shown != '\n')
		loop_prose(l, "\n", 1);
	l->shown = 0;
}

static int	serialize(struct loop *, const char *, size_t, struct buf *);

int
loop_blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' &&
		    s[i] != '\r')
			return 0;
	return 1;
}

/*
 * The thread's file: opened (made when new), locked, read into
 * l->events, its highest iteration into l->last. A status.
 */
static int
thread_open(struct loop *l)
{
	const char *name = l->o->thread;
	struct buf check = BUF_INIT;
	struct diag_loc loc;
	json_error_t je;
	json_t *ev, *it;
	char *s;
	size_t i, n, start;
	unsigned long lineno = 0;
	int flags = O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC;
	int fd, rc = DIAG_OK;
	FILE *fp;

	l->last = -1;
	if (name == NULL)
		return DIAG_OK;
	if (l->o->dry_run)
		flags = O_RDONLY | O_CLOEXEC;
	else if (l->o->message == NULL)
		flags &= ~O_CREAT;	/* --resume: a thread that is */
	if ((fd = open(name, flags, 0666)) < 0) {
		if (errno == ENOENT && (l->o->dry_run || l->o->message ==
		    NULL))
			return DIAG_OK;
		diag_warn("%s", name);
		return DIAG_TROUBLE;
	}
	if (!l->o->dry_run && flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno == EWOULDBLOCK)
			diag_warnx("%s: in use by another llm-loop", name);
		else
			diag_warn("%s", name);
		close(fd);
		return DIAG_TROUBLE;
	}
	if ((fp = fdopen(dup(fd), "r")) == NULL || io_slurp(fp,
	    &l->events) != 0) {
		diag_warn("%s", name);
		if (fp != NULL)
			fclose(fp);
		close(fd);
		return DIAG_TROUBLE;
	}
	fclose(fp);
	s = l->events.data;
	n = l->events.len;
	for (i = start = 0; i < n && rc == DIAG_OK; i = start) {
		lineno++;
		while (i < n && s[i] != '\n')
			i++;
		if (loop_blank(s + start, i - start)) {
			start = i < n ? i + 1 : n;
			continue;
		}
		ev = jsonx_load(s + start, i - start, JSON_REJECT_DUPLICATES,
		    &je);
		loc.file = name;
		loc.line = lineno;
		loc.col = je.column > 0 ? (unsigned long)je.column : 1;
		loc.path = NULL;
		if (ev == NULL) {
			diag_at(DIAG_ERROR, &loc, "thread-json", "not a thread "
			    "event: %s", je.text);
			rc = DIAG_INVALID;
		} else if (!json_is_object(ev)) {
			loc.col = 1;
			diag_at(DIAG_ERROR, &loc, "thread-event", "not a thread "
			    "event: not an object");
			rc = DIAG_INVALID;
		} else if (json_is_integer(it = json_object_get(ev,
		    "iteration")) && json_integer_value(it) > l->last)
			l->last = (long)json_integer_value(it);
		else if (json_is_real(it) && json_real_value(it) > l->last &&
		    json_real_value(it) < 1e15)
			l->last = (long)json_real_value(it);
		json_decref(ev);
		start = i < n ? i + 1 : n;
	}
	if (rc == DIAG_OK && n > 0 && s[n - 1] != '\n') {
		/* a last line left open by another writer: closed */
		buf_addc(&l->events, '\n');
		if (!l->o->dry_run && write_all(fd, "\n", 1) != 0) {
			diag_warn("%s", name);
			rc = DIAG_TROUBLE;
		}
	}
	if (rc == DIAG_OK) {
		/* a thread that cannot be a prompt is refused before use */
		rc = serialize(l, l->events.data, l->events.len, &check);
		buf_free(&check);
		l->checked = 1;
	}
	if (rc != DIAG_OK) {
		close(fd);
		return rc;
	}
	if (l->o->dry_run)
		close(fd);
	else
		l->fd = fd;
	return DIAG_OK;
}

/* The serialized thread of the events text (len bytes) into out. */
static int
serialize(struct loop *l, const char *text, size_t len, struct buf *out)
{
	struct thread_opts to;
	struct thread_doc doc;
	char *mem = NULL;
	size_t memlen = 0;
	FILE *fp;
	int rc;

	memset(&to, 0, sizeof(to));
	to.file = l->o->thread != NULL ? l->o->thread : "<thread>";
	thread_init(&doc);
	/* the thread's warnings were said once, when it was read */
	diag_setquiet(l->checked);
	rc = thread_serialize(&doc, len > 0 ? text : "", len, &to);
	diag_setquiet(0);
	if (rc == DIAG_OK) {
		if ((fp = open_memstream(&mem, &memlen)) == NULL) {
			diag_warn("memory");
			rc = DIAG_TROUBLE;
		} else {
			/* thread-serialize's, with its newline */
			if (thread_write(&doc, fp) != 0 || fputc('\n', fp) ==
			    EOF)
				rc = DIAG_TROUBLE;
			if (fclose(fp) != 0)
				rc = DIAG_TROUBLE;
			buf_add(out, mem, memlen);
			free(mem);
		}
	}
	thread_free(&doc);
	return rc;
}

/* Adds text to out as a part of the prompt: newline ended, then "\n". */
static void
part(struct buf *out, const char *s, size_t n)
{
	if (n == 0)
		return;
	buf_add(out, s, n);
	if (s[n - 1] != '\n')
		buf_addc(out, '\n');
	buf_addc(out, '\n');
}

/* The prompt of an iteration into out. A status. */
static int
prompt(struct loop *l, struct buf *out)
{
	buf_reset(out);
	if (l->o->system != NULL)
		part(out, l->o->system, l->o->system_len);
	if (l->have_tools)
		part(out, l->tools_prompt.data, l->tools_prompt.len);
	return serialize(l, l->events.data, l->events.len, out);
}

/* Who lists each tool of the list (the first server that does). */
static void
servers_of(struct loop *l, const struct buf *list)
{
	json_t *doc, *t, *name, *server;
	size_t i;

	doc = jsonx_load(list->data, list->len, 0, NULL);
	json_array_foreach(json_object_get(doc, "tools"), i, t) {
		name = json_object_get(t, "name");
		server = json_object_get(json_object_get(t, "_meta"),
		    "llmkit/server");
		if (json_is_string(name) && json_is_string(server) &&
		    json_object_get(l->servers, json_string_value(name)) ==
		    NULL)
			json_object_set(l->servers, json_string_value(name),
			    server);
	}
	json_decref(doc);
}

/* The servers' tools: their definitions, the prompt, who lists each. */
static int
tools(struct loop *l)
{
	struct buf list = BUF_INIT;
	char err[512];
	int rc = DIAG_OK;

	l->servers = json_object();
	if (l->m->n == 0)
		return DIAG_OK;
	if (mcp_list_tools(l->m, &list) != 0) {
		buf_free(&list);
		return DIAG_TROUBLE;
	}
	if (tooldefs_load_text(&l->defs, "<tools/list>", list.data, list.len,
	    err, sizeof(err)) != 0) {
		diag_warnx("%s", err);
		rc = DIAG_TROUBLE;
	} else if (l->defs.n > 0) {
		l->have_tools = 1;
		servers_of(l, &list);
		if (tooldefs_prompt(&l->defs, l->o->format,
		    &l->tools_prompt) != 0) {
			diag_warnx("--format %s cannot be taught",
			    tooldefs_markup_name(l->o->format));
			rc = DIAG_TROUBLE;
		}
	}
	buf_free(&list);
	return rc;
}

/* The server a call goes to, as its approval names it. */
static const char *
server_of(struct loop *l, const json_t *rec, const char *tool)
{
	const json_t *s = json_object_get(rec, "serverName");

	/* "local", the seed's, is no server's name unless one has it */
	if (json_is_string(s) && (strcmp(json_string_value(s), "local") != 0
	    || mcp_find(l->m, "local") != NULL))
		return json_string_value(s);
	s = json_object_get(l->servers, tool);
	return json_is_string(s) ? json_string_value(s) : "?";
}

/* A call's line on standard error, as it ends. */
static void
call_line(struct loop *l, const char *server, const char *tool,
    const json_t *args, const char *how, double secs)
{
	struct buf b = BUF_INIT;

	if (l->o->quiet)
		return;
	buf_printf(&b, "%s: ", diag_progname());
	diag_escape(&b, server, strlen(server), 0);
	buf_adds(&b, ": ");
	diag_escape(&b, tool, strlen(tool), 0);
	buf_addc(&b, ' ');
	loop_shorten(&b, args, ARGS_SHOWN);
	buf_printf(&b, " -> %s (%.2f s)\n", how, secs);
	fwrite(b.data, 1, b.len, stderr);
	buf_free(&b);
}

/* The error event of a call that did not run. */
static int
refused(struct loop *l, const json_t *rec, const char *server,
    const char *tool, const char *why, int recoverable)
{
	json_t *ev = json_object(), *id;

	id = rec != NULL ? json_object_get(rec, "toolCallId") : NULL;

	json_object_set_new(ev, "type", json_string("error"));
	if (id != NULL)
		json_object_set(ev, "toolCallId", id);
	if (tool != NULL) {
		json_object_set_new(ev, "toolName", json_string(tool));
		json_object_set_new(ev, "serverName", json_string(server));
	}
	json_object_set_new(ev, "error", json_string(why));
	json_object_set_new(ev, "recoverable", json_boolean(recoverable));
	json_object_set_new(ev, "iteration", json_integer(l->iter));
	return loop_add_json(l, ev);
}

/* A refused call: its error event, naming it, and its line. */
static void
refuse(struct loop *l, const json_t *rec, const char *server,
    const char *tool, const json_t *args, double t0)
{
	struct buf why = BUF_INIT;
	const char *id;

	id = json_string_value(json_object_get(rec, "toolCallId"));
	buf_printf(&why, "the user refused this call: %s: %s (%s)", server,
	    tool, id != NULL ? id : "?");
	if (refused(l, rec, server, tool, buf_cstr(&why), 1) == 0)
		call_line(l, server, tool, args, "refused", proc_now() - t0);
	buf_free(&why);
}

/* A tool_call of the answer: approved, run, its outcome added. */
static void
call(struct loop *l, json_t *rec)
{
	struct mcp_outcome o;
	struct mcp_call c;
	const json_t *args = json_object_get(rec, "args");
	const char *tool, *server, *ptr, *how;
	char err[256];
	double t0;

	tool = json_string_value(json_object_get(rec, "toolName"));
	if (tool == NULL || args == NULL)
		return;
	server = server_of(l, rec, tool);
	t0 = proc_now();
	/* what no server can run is refused by the routing, unasked */
	switch (mcp_find(l->m, server) == NULL ? LOOP_RUN :
	    loop_approve(l, server, tool, args)) {
	case LOOP_RUN:
		break;
	case LOOP_REFUSED:
		refuse(l, rec, server, tool, args, t0);
		return;
	case LOOP_QUIT:
		if (proc_caught()) {
			l->stop = 1;
			return;
		}
		refuse(l, rec, server, tool, args, t0);
		if (l->stop)
			return;
		if (refused(l, NULL, NULL, NULL, "the user ended the loop", 0)
		    == 0)
			l->status = DIAG_INVALID;
		l->stop = 1;
		return;
	}
	if (mcp_call_read(&c, rec, l->added, err, sizeof(err), &ptr) != 1)
		return;
	memset(&o, 0, sizeof(o));
	t0 = proc_now();
	mcp_call_run(l->m, &c, &o);
	if (o.record.len == 0 || l->m->caught) {
		/* the thread says what became of the call */
		refused(l, rec, server, tool, "the call was cancelled: "
		    "llm-loop was stopped", 1);
		l->stop = 1;
	} else if (loop_add(l, o.record.data, o.record.len) == 0) {
		how = o.status == DIAG_OK ? "ok" : "error";
		call_line(l, o.server != NULL ? o.server : server, tool, args,
		    how, proc_now() - t0);
	}
	mcp_call_free(&c);
	buf_free(&o.record);
	buf_free(&o.message);
}

/* One record of the reader's (a line, newline ended). */
static void
record(struct loop *l, const char *s, size_t n)
{
	json_t *rec;
	const char *type, *text;

	if ((rec = jsonx_load(s, n, 0, NULL)) == NULL)
		return;
	type = json_string_value(json_object_get(rec, "type"));
	if (type == NULL)
		type = "";
	if (strcmp(type, "message") == 0 && (text = json_string_value(
	    json_object_get(rec, "content"))) != NULL) {
		if (l->prose.len > 0)
			buf_addc(&l->prose, '\n');
		buf_adds(&l->prose, text);
	}
	if (l->summarising) {
		json_decref(rec);
		return;
	}
	if (loop_add(l, s, n) != 0) {
		json_decref(rec);
		return;
	}
	if (strcmp(type, "tool_call") == 0) {
		l->calls++;
		call(l, rec);
	} else if (strcmp(type, "error") == 0) {
		l->calls++;
		if (!l->o->quiet && (text = json_string_value(
		    json_object_get(rec, "error"))) != NULL)
			diag_warnx("not run: %s", text);
	}
	json_decref(rec);
}

/* The reader's whole records: each used, in order. */
static int
drain(struct loop *l)
{
	char *s = l->pending.data, *nl;
	size_t off = 0, n;

	while (!l->stop && off < l->pending.len &&
	    (nl = memchr(s + off, '\n', l->pending.len - off)) != NULL) {
		n = (size_t)(nl - (s + off)) + 1;
		record(l, s + off, n);
		off += n;
	}
	if (off > 0) {
		memmove(s, s + off, l->pending.len - off);
		l->pending.len -= off;
	}
	return l->stop ? -1 : 0;
}

struct feed {
	struct loop	*l;
	struct toolcall	*tc;
};

static int
feed(void *arg, const char *s, size_t n)
{
	struct feed *f = arg;

	if (toolcall_feed(f->tc, s, n) != 0)
		return -1;
	return drain(f->l);
}

/*
 * One answer of the model to prompt p, read as it comes: 0 when it
 * gave one (its events added), 1 when the command failed (said), or a
 * trouble status; l->stop set for the run's end.
 */
static int
answer(struct loop *l, const struct buf *p, long attempt)
{
	struct toolcall_opts to;
	struct loop_answer a;
	struct feed f;
	struct diag_list dl = DIAG_LIST_INIT;
	int rc, unchecked;

	memset(&to, 0, sizeof(to));
	to.thread = 1;
	to.iteration = l->iter;
	to.format = l->o->format;
	to.begins = l->o->begins;
	to.max_size = TOOLCALL_MAX_SIZE;
	to.tools = l->have_tools && !l->summarising ? &l->defs : NULL;
	to.sink = &l->pending;
	to.diags = &dl;
	to.prose = loop_prose;
	to.prose_arg = l;
	f.l = l;
	f.tc = toolcall_new(&to, NULL, "<answer>");
	memset(&a, 0, sizeof(a));
	buf_reset(&l->pending);
	buf_reset(&l->prose);
	rc = loop_model(l, p, feed, &f, &a);
	if (rc == 0 && !a.stopped && !l->stop) {
		toolcall_end(f.tc);
		drain(l);
	}
	/* a call's arguments not checked (a library its schema needs
	 * cannot be loaded): its error event is written, nothing runs */
	unchecked = toolcall_status(f.tc) == DIAG_TROUBLE;
	toolcall_free(f.tc);
	diag_list_free(&dl);
	prose_end(l);
	if (rc < 0) {
		diag_warn("%s", l->o->model[0]);
		l->status = DIAG_TROUBLE;
		l->stop = 1;
		rc = DIAG_TROUBLE;
	} else if (rc > 0 || l->stop) {
		l->stop = 1;	/* a stop signal, or the run's end */
		rc = DIAG_OK;
	}
	else if (a.res.signo != 0 || a.res.status != 0 || !a.nonblank) {
		/* with -q, what it said before what became of it */
		if (l->o->quiet && a.err.len > 0)
			fwrite(a.err.data, 1, a.err.len, stderr);
		if (a.res.signo != 0)
			diag_warnx("the model's command is ended by signal "
			    "%d (attempt %ld of %ld)", a.res.signo, attempt,
			    l->o->retries + 1);
		else if (a.res.status != 0)
			diag_warnx("the model's command exits %d (attempt "
			    "%ld of %ld)", a.res.status, attempt,
			    l->o->retries + 1);
		else
			diag_warnx("the model's command writes nothing "
			    "(attempt %ld of %ld)", attempt,
			    l->o->retries + 1);
		rc = 1;
	} else if (unchecked) {
		diag_warnx("a call's arguments could not be checked: the "
		    "loop stops");
		l->status = DIAG_TROUBLE;
		l->stop = 1;
		rc = DIAG_TROUBLE;
	}
	buf_free(&a.err);
	return rc;
}

/*
 * An answer to p, with the retries: 0 with an answer, or the run's
 * status set and l->stop.
 */
static int
answer_retried(struct loop *l, const struct buf *p)
{
	double wait = l->o->delay;
	unsigned long before;
	long attempt;
	int rc;

	for (attempt = 1;; attempt++) {
		before = l->added;
		if ((rc = answer(l, p, attempt)) != 1)
			return rc;
		if (attempt > l->o->retries)
			break;
		/* what the failed answer added keeps its ids: a new number */
		if (l->added != before && !l->summarising)
			l->iter++;
		if (proc_sleep(wait) != 0) {
			l->stop = 1;
			return DIAG_OK;
		}
		wait *= 2;
	}
	diag_warnx("no answer from the model's command after %ld attempt%s",
	    attempt, attempt == 1 ? "" : "s");
	l->status = DIAG_TROUBLE;
	l->stop = 1;
	return DIAG_TROUBLE;
}

/* The length of the line at off of b, its newline included. */
static size_t
line_len(const struct buf *b, size_t off)
{
	const char *nl = memchr(b->data + off, '\n', b->len - off);

	return nl != NULL ? (size_t)(nl - (b->data + off)) + 1 : b->len - off;
}

/* The event of a line, or NULL; its iteration (or -1) in *it. */
static json_t *
event_of(const char *s, size_t n, long *it)
{
	json_t *ev = jsonx_load(s, n, 0, NULL), *v;

	*it = -1;
	v = json_object_get(ev, "iteration");
	if (json_is_number(v) && json_number_value(v) >= 0 &&
	    json_number_value(v) < 1e15)
		*it = (long)json_number_value(v);
	return ev;
}

/* Iteration k marked in the set seen (one byte an iteration). */
static void
mark(struct buf *seen, long k)
{
	size_t n = (size_t)k + 1;

	if (k < 0)
		return;
	while (seen->len < n)
		buf_addc(seen, 0);
	seen->data[k] = 1;
}

/*
 * Splits the prompt's events: those before the latest iteration to old
 * (their iterations to seen), the rest to keep. A summary among the old
 * lists the earlier ones by its own iteration alone: what they fold is
 * folded already, and the list stays as short as the iterations since.
 * Whether old holds an event other than a summary.
 */
static int
split(struct loop *l, struct buf *old, struct buf *keep, struct buf *seen)
{
	const json_t *type;
	json_t *ev;
	size_t off, n;
	long it, latest = -1;
	int any = 0;

	for (off = 0; off < l->events.len; off += n) {
		n = line_len(&l->events, off);
		json_decref(event_of(l->events.data + off, n, &it));
		if (it > latest)
			latest = it;
	}
	for (off = 0; off < l->events.len; off += n) {
		n = line_len(&l->events, off);
		ev = event_of(l->events.data + off, n, &it);
		if (it < 0 || it >= latest) {
			buf_add(keep, l->events.data + off, n);
			json_decref(ev);
			continue;
		}
		buf_add(old, l->events.data + off, n);
		mark(seen, it);
		type = json_object_get(ev, "type");
		if (!json_is_string(type) || strcmp(json_string_value(type),
		    "summary") != 0)
			any = 1;
		json_decref(ev);
	}
	return any;
}

/*
 * Past --max-prompt: the events of every iteration before the latest
 * are summarised by the model, the summary added to the thread, and the
 * prompt's events become the summary and the latest iteration's, as
 * thread-serialize folds them. A status.
 */
static int
summarise(struct loop *l, struct buf *p)
{
	struct buf old = BUF_INIT, keep = BUF_INIT, seen = BUF_INIT;
	struct buf sp = BUF_INIT, line = BUF_INIT;
	json_t *iters, *ev;
	size_t k;
	int rc = DIAG_OK;

	if (!split(l, &old, &keep, &seen))
		goto out;
	if ((rc = serialize(l, old.data, old.len, &sp)) != DIAG_OK)
		goto out;
	buf_adds(&sp, summary_ask);
	l->summarising = 1;
	rc = answer_retried(l, &sp);
	l->summarising = 0;
	if (rc != DIAG_OK || l->stop)
		goto out;
	iters = json_array();
	for (k = 0; k < seen.len; k++)
		if (seen.data[k])
			json_array_append_new(iters, json_integer((json_int_t)
			    k));
	/* the iteration of a summary is the last it summarises */
	ev = json_pack("{s:s,s:s#,s:o,s:I}", "type", "summary", "summary",
	    l->prose.data != NULL ? l->prose.data : "", l->prose.len,
	    "summarizedIterations", iters, "iteration",
	    (json_int_t)seen.len - 1);
	jsonw_stringify(&line, ev);
	buf_addc(&line, '\n');
	json_decref(ev);
	/* the summary first, in the place of what it leaves out */
	if (loop_add(l, line.data, line.len) == 0) {
		buf_reset(&l->events);
		buf_add(&l->events, line.data, line.len);
		buf_add(&l->events, keep.data, keep.len);
		rc = prompt(l, p);
	} else
		rc = l->status;
out:
	buf_free(&old);
	buf_free(&keep);
	buf_free(&seen);
	buf_free(&sp);
	buf_free(&line);
	return rc;
}

/* The iterations, from l->iter on. A status. */
static int
iterate(struct loop *l)
{
	struct buf p = BUF_INIT;
	long done;
	json_t *ev;
	int rc;

	for (done = 0; done < l->o->max_iter && !l->stop; done++) {
		l->iter++;
		if ((rc = prompt(l, &p)) != DIAG_OK) {
			l->status = rc;
			break;
		}
		if (l->o->max_prompt > 0 && p.len > l->o->max_prompt &&
		    (rc = summarise(l, &p)) != DIAG_OK) {
			if (l->status == DIAG_OK)
				l->status = rc;
			break;
		}
		if (l->stop)
			break;
		if (l->o->max_prompt > 0 && p.len > l->o->max_prompt)
			diag_warnx("iteration %ld: the prompt is %zu bytes, "
			    "past --max-prompt", l->iter, p.len);
		l->calls = 0;
		if (answer_retried(l, &p) != DIAG_OK || l->stop)
			break;
		if (l->calls == 0) {
			ev = json_pack("{s:s,s:s#,s:I}", "type", "completion",
			    "result", l->prose.data != NULL ? l->prose.data :
			    "", l->prose.len, "iteration",
			    (json_int_t)l->iter);
			if (loop_add_json(l, ev) == 0)
				l->status = DIAG_OK;
			buf_free(&p);
			return l->status;
		}
	}
	buf_free(&p);
	if (l->stop)
		return l->status;
	ev = json_object();
	json_object_set_new(ev, "type", json_string("error"));
	{
		char msg[96];

		snprintf(msg, sizeof(msg), "no completion after %ld "
		    "iteration%s", l->o->max_iter, l->o->max_iter == 1 ? "" :
		    "s");
		json_object_set_new(ev, "error", json_string(msg));
		json_object_set_new(ev, "recoverable", json_false());
		json_object_set_new(ev, "iteration", json_integer(l->iter));
		if (loop_add_json(l, ev) == 0) {
			diag_warnx("%s", msg);
			l->status = DIAG_INVALID;
		}
	}
	return l->status;
}

int
loop_run(struct mcp *m, const struct loop_opts *o)
{
	struct loop l;
	struct buf p = BUF_INIT;
	json_t *ev;
	int rc;

	memset(&l, 0, sizeof(l));
	l.o = o;
	l.m = m;
	l.fd = -1;
	l.tty = -1;
	if ((rc = thread_open(&l)) != DIAG_OK)
		goto out;
	if (o->message == NULL && l.events.len == 0) {
		diag_warnx("--resume: %s holds no conversation", o->thread !=
		    NULL ? o->thread : "the thread");
		rc = DIAG_USAGE;
		goto out;
	}
	if ((rc = tools(&l)) != DIAG_OK)
		goto out;
	l.iter = l.last;
	if (o->message != NULL) {
		l.iter = l.last + 1;
		ev = json_pack("{s:s,s:s,s:s#,s:I}", "type", "message", "role",
		    "user", "content", o->message, o->message_len,
		    "iteration", (json_int_t)l.iter);
		if (o->dry_run) {
			jsonw_stringify(&l.events, ev);
			buf_addc(&l.events, '\n');
			json_decref(ev);
		} else if (loop_add_json(&l, ev) != 0) {
			rc = l.status;
			goto out;
		}
	}
	if (o->dry_run) {
		if ((rc = prompt(&l, &p)) == DIAG_OK && cmd_write(p.data,
		    p.len) != DIAG_OK)
			rc = DIAG_TROUBLE;
		goto out;
	}
	rc = iterate(&l);
out:
	/* a reader of our output that has gone is a failed write: 3 */
	if (proc_caught() && !(proc_caught() == SIGPIPE && ferror(stdout))) {
		mcp_shutdown(m);
		proc_die();
	}
	mcp_shutdown(m);
	if (l.fd >= 0)
		close(l.fd);
	loop_ask_free(&l);
	tooldefs_free(&l.defs);
	json_decref(l.servers);
	buf_free(&l.events);
	buf_free(&l.tools_prompt);
	buf_free(&l.prose);
	buf_free(&l.pending);
	buf_free(&p);
	return rc;
}
