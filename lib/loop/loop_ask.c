/*
 * loop_ask: whether a call runs. In order: --yes; an --allow pattern
 * that SERVER:TOOL matches (fnmatch(3); a pattern without ':' names a
 * server, all its tools); an "always" answered earlier in the run; else
 * a person asked on the terminal (/dev/tty), the question and the answer
 * added to the thread. Without a terminal the call is refused.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/jsonw.h"
#include "base/proc.h"
#include "base/xalloc.h"
#include "loop/loop_int.h"

#define ANSWER_MAX	64	/* bytes of an answer read */

/* The compact JSON of v, at most max bytes: "..." at a cut. */
void
loop_shorten(struct buf *out, const json_t *v, size_t max)
{
	struct buf all = BUF_INIT;
	size_t cut;

	jsonw_stringify(&all, v);
	if (all.len <= max) {
		buf_add(out, all.data, all.len);
		buf_free(&all);
		return;
	}
	cut = max;
	while (cut > 0 && ((unsigned char)all.data[cut] & 0xC0) == 0x80)
		cut--;
	buf_add(out, all.data, cut);
	buf_adds(out, "...");
	buf_free(&all);
}

static int
allowed(const struct loop *l, const char *rule)
{
	struct buf pat = BUF_INIT;
	const char *p;
	size_t i;

	for (i = 0; i < l->o->nallow; i++) {
		p = l->o->allow[i];
		if (strchr(p, ':') != NULL) {
			if (fnmatch(p, rule, 0) == 0)
				return 1;
			continue;
		}
		/* a server's name: every tool of its */
		buf_reset(&pat);
		buf_adds(&pat, p);
		buf_adds(&pat, ":*");
		if (fnmatch(buf_cstr(&pat), rule, 0) == 0) {
			buf_free(&pat);
			return 1;
		}
	}
	buf_free(&pat);
	for (i = 0; i < l->nalways; i++)
		if (strcmp(l->always[i], rule) == 0)
			return 1;
	return 0;
}

/* The terminal, opened once: its descriptor, or -1 without one. */
static int
tty(struct loop *l)
{
	if (l->tty == -1) {
		l->tty = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
		if (l->tty < 0)
			l->tty = -2;
	}
	return l->tty >= 0 ? l->tty : -1;
}

/*
 * A line from the terminal into line (its first ANSWER_MAX bytes): 0,
 * 1 at its end, -1 after a stop signal.
 */
static int
read_answer(int fd, struct buf *line)
{
	struct pollfd pf[2];
	char c;
	ssize_t r;

	buf_reset(line);
	for (;;) {
		pf[0].fd = fd;
		pf[0].events = POLLIN;
		pf[1].fd = proc_wakefd();
		pf[1].events = POLLIN;
		if (poll(pf, 2, -1) == -1 && errno != EINTR)
			return 1;
		if (pf[1].revents != 0)
			proc_woken();
		if (proc_caught())
			return -1;
		if (pf[0].revents == 0)
			continue;
		if ((r = read(fd, &c, 1)) < 0 && (errno == EINTR ||
		    errno == EAGAIN))
			continue;
		if (r <= 0)
			return 1;
		if (c == '\n')
			return 0;
		if (line->len < ANSWER_MAX)
			buf_addc(line, c);
	}
}

/* The answer's word: "yes", "no", "always", "quit", or NULL. */
static const char *
word(const struct buf *line)
{
	static const char *const words[] = { "yes", "no", "always", "quit" };
	char w[ANSWER_MAX + 1];
	size_t i, n = 0, b = 0, e = line->len;

	while (b < e && isspace((unsigned char)line->data[b]))
		b++;
	while (e > b && isspace((unsigned char)line->data[e - 1]))
		e--;
	for (i = b; i < e; i++)
		w[n++] = (char)tolower((unsigned char)line->data[i]);
	w[n] = '\0';
	if (n == 0)
		return NULL;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if ((n == 1 && w[0] == words[i][0]) || strcmp(w, words[i]) ==
		    0)
			return words[i];
	return NULL;
}

/* An event of the person's: the question, or the answer. */
static int
person_event(struct loop *l, const char *type, const char *key,
    const char *text)
{
	return loop_add_json(l, json_pack("{s:s,s:s,s:I}", "type", type, key,
	    text, "iteration", (json_int_t)l->iter));
}

enum loop_verdict
loop_approve(struct loop *l, const char *server, const char *tool,
    const json_t *args)
{
	struct buf rule = BUF_INIT, q = BUF_INIT, line = BUF_INIT;
	const char *w = NULL;
	enum loop_verdict v = LOOP_REFUSED;
	int fd, r;

	buf_printf(&rule, "%s:%s", server, tool);
	if (l->o->yes || allowed(l, buf_cstr(&rule))) {
		v = LOOP_RUN;
		goto out;
	}
	if ((fd = tty(l)) < 0) {
		diag_warnx("%s: %s: refused: no --allow or --yes allows it, "
		    "and there is no terminal to ask", server, tool);
		goto out;
	}
	buf_printf(&q, "Run %s: %s ", server, tool);
	jsonw_stringify(&q, args);
	buf_adds(&q, "?");
	if (person_event(l, "human_input_requested", "question",
	    buf_cstr(&q)) != 0) {
		v = LOOP_QUIT;
		goto out;
	}
	buf_reset(&q);
	buf_printf(&q, "%s: %s: %s ", diag_progname(), server, tool);
	jsonw_stringify(&q, args);
	buf_adds(&q, "\n");
	(void)!write(fd, q.data, q.len);
	for (;;) {
		static const char ask[] = "Run it? [y]es, [n]o, [a]lways for "
		    "this tool, [q]uit: ";

		(void)!write(fd, ask, sizeof(ask) - 1);
		if ((r = read_answer(fd, &line)) < 0) {
			v = LOOP_QUIT;
			goto out;
		}
		if (r > 0) {
			(void)!write(fd, "\n", 1);
			w = "no";
			break;
		}
		if ((w = word(&line)) != NULL)
			break;
	}
	if (person_event(l, "human_input_received", "response", w) != 0) {
		v = LOOP_QUIT;
		goto out;
	}
	if (strcmp(w, "yes") == 0)
		v = LOOP_RUN;
	else if (strcmp(w, "always") == 0) {
		l->always = xreallocarray(l->always, l->nalways + 1,
		    sizeof(*l->always));
		l->always[l->nalways++] = xstrdup(buf_cstr(&rule));
		v = LOOP_RUN;
	} else if (strcmp(w, "quit") == 0)
		v = LOOP_QUIT;
out:
	buf_free(&rule);
	buf_free(&q);
	buf_free(&line);
	return v;
}

void
loop_ask_free(struct loop *l)
{
	size_t i;

	for (i = 0; i < l->nalways; i++)
		free(l->always[i]);
	free(l->always);
	l->always = NULL;
	l->nalways = 0;
	if (l->tty >= 0)
		close(l->tty);
	l->tty = -1;
}
