/*
 * fuzz_tooldefs: lib/tooldefs on any definition file (issue 25). The
 * input is the text of a tools file, written as d/t.json in a directory
 * of the harness's own that also holds d/pt.json (a schema a tool may
 * refer to), d/fifo (a FIFO no writer opens) and, beside d/, secret.json.
 * tooldefs_load reads it, and tooldefs_prompt writes the prompt, twice.
 * Then: every tool kept has a name that is not empty and holds no control
 * character, found by its length and bytes; the prompt is the same bytes
 * twice, holds each tool's heading (its name escaped) in order, never
 * holds the secret unless the input does, and grows with the input, no
 * faster; and each tool's example call, read back by lib/toolcall with
 * these definitions, is one call of that tool, without an error. A FIFO
 * that blocked, or a prompt that grew exponentially, shows as a timeout.
 * Anything else aborts; ASan's leak check covers the frees.
 */
#include <sys/stat.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "buf.h"
#include "diag.h"
#include "toolcall.h"
#include "tooldefs.h"
#include "utf8.h"
#include "xmlesc.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define SECRET	"SECRET-7f3a9c"

static char	 top[] = "/tmp/fuzz-tooldefs-XXXXXX";
static char	 file[sizeof(top) + 16];

static void
fail(const char *why, const char *s, size_t n)
{
	fprintf(stderr, "fuzz_tooldefs: %s\n%.*s\n", why, (int)n, s);
	abort();
}

static void
put(const char *path, const void *s, size_t n)
{
	FILE *fp;

	if ((fp = fopen(path, "w")) == NULL ||
	    fwrite(s, 1, n, fp) != n || fclose(fp) != 0)
		abort();
}

/* The directory, once: d/ with pt.json and a FIFO, secret.json beside. */
static void
setup(void)
{
	static const char pt[] = "{\"type\": \"object\", \"properties\": "
	    "{\"x\": {\"type\": \"number\"}}}";
	static const char secret[] = "{\"description\": \"" SECRET "\", "
	    "\"default\": \"" SECRET "\"}";
	char path[sizeof(top) + 32];

	if (file[0] != '\0')
		return;
	if (mkdtemp(top) == NULL)
		abort();
	snprintf(path, sizeof(path), "%s/d", top);
	if (mkdir(path, 0700) == -1)
		abort();
	snprintf(path, sizeof(path), "%s/d/pt.json", top);
	put(path, pt, sizeof(pt) - 1);
	snprintf(path, sizeof(path), "%s/secret.json", top);
	put(path, secret, sizeof(secret) - 1);
	snprintf(path, sizeof(path), "%s/d/fifo", top);
	if (mkfifo(path, 0600) == -1)
		abort();
	snprintf(file, sizeof(file), "%s/d/t.json", top);
}

/* Whether s (n bytes) holds needle. */
static int
has(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle), i;

	for (i = 0; k <= n && i <= n - k; i++)
		if (memcmp(s + i, needle, k) == 0)
			return 1;
	return 0;
}

/* The last place of needle in s (n bytes), or NULL. */
static const char *
last(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle), i;

	for (i = n >= k ? n - k + 1 : 0; i > 0; i--)
		if (memcmp(s + i - 1, needle, k) == 0)
			return s + i - 1;
	return NULL;
}

/*
 * Tool d's example in its own prompt, read back with all the definitions:
 * one call of d, no error. Its prompt is its description, its parameters
 * and then the example, which is last.
 */
static void
check_example(const struct tooldefs *defs, const struct tooldef *d)
{
	struct tooldefs one = { (struct tooldef *)d, 1 };
	struct toolcall_opts opts;
	struct buf p = BUF_INIT, head = BUF_INIT;
	unsigned long errors = diag_count(DIAG_ERROR);
	struct toolcall *t;
	const char *at, *nl;
	json_t *call;
	char *out = NULL;
	size_t len = 0, nd = strlen(d->name);
	FILE *f;

	tooldefs_prompt(&one, TOOLDEFS_TOOL, &p);
	buf_adds(&head, "\nExample:\n\n<tool>\n<server_name>local</server_name>"
	    "\n<tool_name>");
	if (nd > 0 && (strchr(" \t\r\n", d->name[0]) != NULL ||
	    strchr(" \t\r\n", d->name[nd - 1]) != NULL) &&
	    strstr(d->name, "]]>") == NULL) {
		buf_adds(&head, "<![CDATA[");
		buf_adds(&head, d->name);
		buf_adds(&head, "]]>");
	} else
		xmlesc_append(&head, d->name, nd, 0, NULL);
	buf_adds(&head, "</tool_name>\n<arguments>\n");
	if ((at = last(p.data, p.len, buf_cstr(&head))) == NULL) {
		/* a name with "]]>" and white space at an end, or none */
		if (!has(p.data, p.len, "\nExample:\n\n(None: a call of this "
		    "tool would be too large to show.)\n") &&
		    strstr(d->name, "]]>") == NULL)
			fail("no example, and no line that says so", p.data,
			    p.len);
		goto out;
	}
	at += strlen("\nExample:\n\n");
	memset(&opts, 0, sizeof(opts));
	opts.max_size = TOOLCALL_MAX_SIZE;
	opts.tools = defs;
	opts.no_validate = 1;
	if ((f = open_memstream(&out, &len)) == NULL)
		abort();
	if ((t = toolcall_new(&opts, f, "<example>")) == NULL)
		abort();
	if (toolcall_feed(t, at, (size_t)(p.data + p.len - at)) != 0 ||
	    toolcall_end(t) != 0)
		abort();
	toolcall_free(t);
	if (fclose(f) != 0)
		abort();
	if (diag_count(DIAG_ERROR) != errors)
		fail("the example is not read back without an error", at,
		    (size_t)(p.data + p.len - at));
	nl = memchr(out, '\n', len);
	if (nl == NULL || nl != out + len - 1)
		fail("the example is not one call", out, len);
	if ((call = json_loadb(out, len, 0, NULL)) == NULL)
		fail("the example's call is no JSON", out, len);
	if (!json_is_string(json_object_get(call, "tool_name")) ||
	    strcmp(json_string_value(json_object_get(call, "tool_name")),
	    d->name) != 0)
		fail("the example calls another tool", out, len);
	json_decref(call);
out:
	free(out);
	buf_free(&p);
	buf_free(&head);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tooldefs defs = { NULL, 0, NULL };
	struct buf p = BUF_INIT, again = BUF_INIT, h = BUF_INIT;
	const char *from;
	char err[1024];
	size_t i, n, at;

	diag_setquiet(1);
	setup();
	put(file, data, size);
	if (tooldefs_load(&defs, file, err, sizeof(err)) != 0) {
		/* the tools before the fault stay, for the caller to free */
		if (strncmp(err, file, strlen(file)) != 0)
			fail("a message that does not name the file", err,
			    strlen(err));
		tooldefs_free(&defs);
		return 0;
	}
	for (i = 0; i < defs.n; i++) {
		n = strlen(defs.v[i].name);
		if (n == 0 || utf8_plain(defs.v[i].name, n) != n)
			fail("a tool with a bad name is kept", defs.v[i].name,
			    n);
		if (tooldefs_find(&defs, defs.v[i].name, n) != &defs.v[i])
			fail("a name that is not found as itself",
			    defs.v[i].name, n);
	}
	tooldefs_prompt(&defs, TOOLDEFS_TOOL, &p);
	tooldefs_prompt(&defs, TOOLDEFS_TOOL, &again);
	if (p.len != again.len || memcmp(p.data, again.data, p.len) != 0)
		fail("two prompts of the same definitions differ", p.data,
		    p.len);
	if (has(p.data, p.len, SECRET) &&
	    !has((const char *)data, size, "SECRET"))
		fail("the secret beside the directory reached the prompt",
		    p.data, p.len);
	if (p.len > 8192 + defs.n * 2 * 65536 + 200 * size)
		fail("the prompt grew faster than its input", p.data, 4096);
	for (i = 0, at = 0; i < defs.n; i++) {
		buf_reset(&h);
		buf_adds(&h, "\n## ");
		xmlesc_append(&h, defs.v[i].name, strlen(defs.v[i].name), 0,
		    NULL);
		buf_adds(&h, "\n\n");
		buf_cstr(&h);
		if ((from = strstr(p.data + at, h.data)) == NULL)
			fail("a tool's heading is not in the prompt, in order",
			    h.data, h.len);
		at = (size_t)(from - p.data) + h.len;
		check_example(&defs, &defs.v[i]);
	}
	tooldefs_free(&defs);
	buf_free(&p);
	buf_free(&again);
	buf_free(&h);
	return 0;
}
