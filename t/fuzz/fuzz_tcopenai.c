/*
 * fuzz_tcopenai: lib/tcopenai on any bytes, fed whole, one byte at a
 * time, and in pieces whose sizes come from a hash of the input. The
 * three must tell the same events, in the same order, and end with the
 * same status; a text or reasoning is never empty and always valid
 * UTF-8; a call has a name and an arguments object; a problem has a
 * rule, a line and a column from 1 and a message of one line, and the
 * call of an error has no arguments; the status is 1 exactly when an
 * error was told. Anything else aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "jsonw.h"
#include "tcopenai.h"
#include "utf8.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

struct log {
	struct buf	out;
	unsigned long	errors;
};

static int
on_text(void *arg, const char *s, size_t n)
{
	struct log *l = arg;

	if (n == 0 || utf8_valid(s, n) != n)
		abort();
	buf_adds(&l->out, "text ");
	jsonw_string(&l->out, s, n);
	buf_addc(&l->out, '\n');
	return 0;
}

static int
on_reasoning(void *arg, const char *s, size_t n)
{
	struct log *l = arg;

	if (n == 0 || utf8_valid(s, n) != n)
		abort();
	buf_adds(&l->out, "reasoning ");
	jsonw_string(&l->out, s, n);
	buf_addc(&l->out, '\n');
	return 0;
}

static void
put_call(struct buf *b, const struct tcopenai_call *c)
{
	if (c->line == 0 || c->col == 0 || c->name == NULL ||
	    c->text == NULL || (c->id != NULL && c->idlen == 0))
		abort();
	buf_printf(b, "%lu:%lu ", c->line, c->col);
	jsonw_string(b, c->name, c->namelen);
	if (c->id != NULL)
		jsonw_string(b, c->id, c->idlen);
	jsonw_string(b, c->text, c->textlen);
}

static int
on_call(void *arg, const struct tcopenai_call *c)
{
	struct log *l = arg;

	if (!json_is_object(c->args) || c->namelen == 0)
		abort();
	buf_adds(&l->out, "call ");
	put_call(&l->out, c);
	jsonw_exact(&l->out, c->args);
	buf_addc(&l->out, '\n');
	return 0;
}

static int
on_diag(void *arg, const struct tcopenai_diag *d)
{
	struct log *l = arg;

	if (d->line == 0 || d->col == 0 || d->rule == NULL ||
	    d->rule[0] == '\0' || d->message == NULL ||
	    d->message[0] == '\0' || strchr(d->message, '\n') != NULL ||
	    (d->path != NULL && d->path[0] != '/') ||
	    (d->call != NULL && d->call->args != NULL))
		abort();
	if (d->severity == DIAG_ERROR)
		l->errors++;
	buf_printf(&l->out, "%d %lu:%lu %s %s %s", (int)d->severity,
	    d->line, d->col, d->rule, d->path != NULL ? d->path : "-",
	    d->message);
	if (d->call != NULL)
		put_call(&l->out, d->call);
	buf_addc(&l->out, '\n');
	return 0;
}

/*
 * What the reader tells of n bytes at s, fed in pieces: whole when step
 * is 0, else of sizes 1 to step, picked by h.
 */
static void
run(const uint8_t *s, size_t n, size_t step, uint32_t h, struct log *l)
{
	struct tcopenai_cb cb = { on_text, on_reasoning, on_call, on_diag,
	    NULL };
	struct tcopenai *r;
	size_t i, k;

	memset(l, 0, sizeof(*l));
	cb.arg = l;
	r = tcopenai_new(&cb);
	if (step == 0)
		tcopenai_feed(r, (const char *)s, n);
	else
		for (i = 0; i < n; i += k) {
			h = h * 1103515245u + 12345u;
			k = 1 + (h >> 16) % step;
			if (k > n - i)
				k = n - i;
			tcopenai_feed(r, (const char *)s + i, k);
		}
	tcopenai_end(r);
	if ((tcopenai_status(r) != 0) != (l->errors != 0))
		abort();
	buf_printf(&l->out, "status %d\n", tcopenai_status(r));
	tcopenai_free(r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct log whole, bytes, pieces;
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < size; i++)
		h = (h ^ data[i]) * 16777619u;
	run(data, size, 0, h, &whole);
	run(data, size, 1, h, &bytes);
	run(data, size, 1 + h % 97, h, &pieces);
	if (bytes.out.len != whole.out.len || pieces.out.len !=
	    whole.out.len || memcmp(bytes.out.data, whole.out.data,
	    whole.out.len) != 0 || memcmp(pieces.out.data, whole.out.data,
	    whole.out.len) != 0)
		abort();
	buf_free(&whole.out);
	buf_free(&bytes.out);
	buf_free(&pieces.out);
	return 0;
}
