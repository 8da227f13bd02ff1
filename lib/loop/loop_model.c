/*
 * loop_model: the model's command, run without a shell with the prompt
 * on its standard input, its answer handed on as it comes (a call in it
 * may run while it still writes: its output then waits in the pipe), its
 * standard error passed to ours as it comes (kept, the last of it, for
 * -q's message).
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/proc.h"
#include "base/xalloc.h"
#include "loop/loop_int.h"

#define READ_SIZE	65536
#define ERR_KEEP	4096	/* bytes of its standard error kept */

/* Keeps the last ERR_KEEP bytes of its standard error. */
static void
keep_err(struct loop_answer *a, const char *s, size_t n)
{
	size_t drop;

	if (n >= ERR_KEEP) {
		buf_reset(&a->err);
		buf_add(&a->err, s + n - ERR_KEEP, ERR_KEEP);
		return;
	}
	if (a->err.len + n > ERR_KEEP) {
		drop = a->err.len + n - ERR_KEEP;
		memmove(a->err.data, a->err.data + drop, a->err.len - drop);
		a->err.len -= drop;
	}
	buf_add(&a->err, s, n);
}

/*
 * Runs the model's command on prompt; fn gets its output as it comes
 * and returns -1 to have it stopped. 0 when it ran (a says how), -1
 * when it could not be started (errno says why), 1 after a stop signal
 * (the command ended).
 */
int
loop_model(struct loop *l, const struct buf *prompt, loop_feed_fn *fn,
    void *arg, struct loop_answer *a)
{
	struct proc_child ch, *set[1];
	struct pollfd pf[4];
	char *chunk;
	size_t woff = 0;
	ssize_t r;
	int n, i, rc = 0, ended = 0;

	memset(&a->res, 0, sizeof(a->res));
	a->bytes = 0;
	a->nonblank = a->stopped = a->started = 0;
	buf_reset(&a->err);
	if (proc_spawn(l->o->model, NULL, NULL, &ch) != 0)
		return -1;
	a->started = 1;
	chunk = xmalloc(READ_SIZE);
	if (prompt->len == 0)
		proc_close_in(&ch);
	while (!ended) {
		n = 0;
		if (ch.in >= 0) {
			pf[n].fd = ch.in;
			pf[n++].events = POLLOUT;
		}
		if (ch.out >= 0) {
			pf[n].fd = ch.out;
			pf[n++].events = POLLIN;
		}
		if (ch.err >= 0) {
			pf[n].fd = ch.err;
			pf[n++].events = POLLIN;
		}
		pf[n].fd = proc_wakefd();
		pf[n++].events = POLLIN;
		/* with its output closed, its end comes as SIGCHLD */
		if (poll(pf, (nfds_t)n, ch.out < 0 && ch.err < 0 ? 100 : -1)
		    == -1 && errno != EINTR)
			break;
		if (proc_caught()) {
			rc = 1;
			break;
		}
		for (i = 0; i < n; i++) {
			if (pf[i].revents == 0)
				continue;
			if (pf[i].fd == proc_wakefd())
				proc_woken();
			else if (pf[i].fd == ch.in) {
				r = proc_write(ch.in, prompt->data + woff,
				    prompt->len - woff);
				if (r > 0)
					woff += (size_t)r;
				/* a command that reads no more is its own */
				if (r < 0 && errno != EAGAIN)
					woff = prompt->len;
				if (woff == prompt->len)
					proc_close_in(&ch);
			} else if (pf[i].fd == ch.out) {
				r = read(ch.out, chunk, READ_SIZE);
				if (r == 0 || (r < 0 && errno != EAGAIN &&
				    errno != EINTR)) {
					close(ch.out);
					ch.out = -1;
				} else if (r > 0) {
					a->bytes += (size_t)r;
					if (!a->nonblank &&
					    !loop_blank(chunk, (size_t)r))
						a->nonblank = 1;
					if (fn(arg, chunk, (size_t)r) != 0) {
						a->stopped = 1;
						goto stop;
					}
				}
			} else if (pf[i].fd == ch.err) {
				r = read(ch.err, chunk, READ_SIZE);
				if (r == 0 || (r < 0 && errno != EAGAIN &&
				    errno != EINTR)) {
					close(ch.err);
					ch.err = -1;
				} else if (r > 0) {
					keep_err(a, chunk, (size_t)r);
					if (!l->o->quiet)
						(void)!write(2, chunk,
						    (size_t)r);
				}
			}
		}
		if (ch.out < 0 && ch.err < 0 && proc_reaped(&ch, &a->res))
			ended = 1;
	}
stop:
	/* its pipes closed first: proc_end has nothing to drain */
	proc_close(&ch);
	if (!ended) {
		set[0] = &ch;
		proc_end(set, 1, 0, 0.5, NULL, NULL, &a->res);
	}
	free(chunk);
	return rc;
}
