/*
 * fuzz_tooldefs: lib/tooldefs on any definition file (issue 25). The
 * input is the text of a tools file, written as d/t.json in a directory
 * of the harness's own that also holds d/pt.json (a schema a tool may
 * refer to), d/fifo (a FIFO no writer opens) and, beside d/, secret.json.
 * tooldefs_load reads it, and tooldefs_prompt writes the prompt, twice,
 * in each markup. Then: every tool kept has a name that is not empty and
 * holds no control character, found by its length and bytes; the prompt
 * is the same bytes twice, holds each tool's heading (its name escaped)
 * in order, never holds the secret unless the input does, and grows with
 * the input, no faster; and each tool's example call, read back by
 * lib/toolcall with these definitions, is one call of that tool, without
 * an error. In every other markup the example is read back by its
 * dialect's parser (lib/tcdialect, lib/pylit) as one call of that tool,
 * and for the dialects toolcall-parse reads, by lib/toolcall under that
 * --format too; a JSON markup leaves no tool out. A FIFO that blocked,
 * or a prompt that grew exponentially, shows as a timeout. Anything else
 * aborts; ASan's leak check covers the frees.
 */
#include <sys/stat.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/utf8.h"
#include "toolcall/pylit.h"
#include "toolcall/tcdialect.h"
#include "toolcall/toolcall.h"
#include "toolcall/tooldefs.h"
#include "xml/xmlesc.h"

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
 * Text s (n bytes) read by lib/toolcall under --format format, with the
 * definitions defs: one call of tool name, without an error.
 */
static void
read_by_toolcall(const struct tooldefs *defs, int format, const char *name,
    const char *s, size_t n)
{
	struct toolcall_opts opts;
	unsigned long errors = diag_count(DIAG_ERROR);
	struct toolcall *t;
	const char *nl;
	json_t *call;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	memset(&opts, 0, sizeof(opts));
	opts.max_size = TOOLCALL_MAX_SIZE;
	opts.tools = defs;
	opts.no_validate = 1;
	opts.format = format;
	if ((f = open_memstream(&out, &len)) == NULL)
		abort();
	if ((t = toolcall_new(&opts, f, "<example>")) == NULL)
		abort();
	if (toolcall_feed(t, s, n) != 0 || toolcall_end(t) != 0)
		abort();
	toolcall_free(t);
	if (fclose(f) != 0)
		abort();
	if (diag_count(DIAG_ERROR) != errors)
		fail("the example is not read back without an error", s, n);
	nl = memchr(out, '\n', len);
	if (nl == NULL || nl != out + len - 1)
		fail("the example is not one call", out, len);
	if ((call = json_loadb(out, len, JSON_ALLOW_NUL, NULL)) == NULL)
		fail("the example's call is no JSON", out, len);
	if (!json_is_string(json_object_get(call, "tool_name")) ||
	    strcmp(json_string_value(json_object_get(call, "tool_name")),
	    name) != 0)
		fail("the example calls another tool", out, len);
	json_decref(call);
	free(out);
}

#define DS_BAR		"\xef\xbd\x9c"
#define DS_LOW		"\xe2\x96\x81"

/* The markup of the reader's section around a call, which no parser reads. */
static const struct {
	const char	*pre, *post;
} section[TOOLDEFS_NMARKUPS] = {
	[TCD_INVOKE] = { "<minimax:tool_call>\n", "</minimax:tool_call>\n" },
	[TCD_DEEPSEEK] = { "<" DS_BAR "tool" DS_LOW "calls" DS_LOW "begin"
	    DS_BAR ">", "<" DS_BAR "tool" DS_LOW "calls" DS_LOW "end" DS_BAR
	    ">\n" },
	[TCD_KIMI] = { "<|tool_calls_section_begin|>\n",
	    "<|tool_calls_section_end|>\n" },
};

/*
 * Tool d's example in its own prompt in markup m, a dialect or pythonic:
 * read back by the markup's parser as one call of d; for the dialects
 * toolcall-parse reads, by lib/toolcall too. A tool left out of the
 * prompt is left out of a markup that can hold any name never.
 */
static void
check_markup(const struct tooldefs *defs, const struct tooldef *d, int m)
{
	struct tooldefs one = { (struct tooldef *)d, 1, NULL, 1 };
	struct buf p = BUF_INIT;
	struct tcd_call c;
	struct pylit_call *calls;
	struct pylit_error pe;
	const char *ex, *at, *s, *pre = section[m].pre, *post = section[m].post;
	size_t n, len, end, ncalls;

	tooldefs_prompt(&one, m, &p);
	buf_cstr(&p);
	if (strstr(p.data, "\n# Tools\n") == NULL) {
		if (m == TCD_HERMES || m == TCD_LLAMA3)
			fail("a JSON markup left a tool out", d->name,
			    strlen(d->name));
		goto out;
	}
	for (ex = NULL, at = p.data; (at = strstr(at, "\nExample:\n\n")) !=
	    NULL; at++)
		ex = at + 11;
	if (ex == NULL)
		fail("no example", p.data, p.len);
	n = p.len - (size_t)(ex - p.data);
	if (strncmp(ex, "(None: ", 7) == 0)
		goto out;
	if (m == TCD_QWEN3 || m == TCD_INVOKE || m == TCD_GLM ||
	    m == TCD_HERMES)
		read_by_toolcall(defs, m, d->name, ex, n);
	if (pre != NULL) {
		if (n < strlen(pre) + strlen(post) ||
		    strncmp(ex, pre, strlen(pre)) != 0 ||
		    memcmp(ex + n - strlen(post), post, strlen(post)) != 0)
			fail("the example is not in its section", ex, n);
		ex += strlen(pre);
		n -= strlen(pre) + strlen(post);
	}
	if (m == TOOLDEFS_PYTHONIC) {
		if (pylit_calls(ex, n, 0, &end, &calls, &ncalls, &pe) != 0)
			fail(pe.text, ex, n);
		if (ncalls != 1 || end != n - 1 || calls[0].namelen !=
		    strlen(d->name) || memcmp(ex + calls[0].name, d->name,
		    calls[0].namelen) != 0)
			fail("the pythonic example is not one call of its tool",
			    ex, n);
		pylit_calls_free(calls, ncalls);
		goto out;
	}
	if (tcd_parse(m, ex, n, &c) != 0)
		fail(c.err, ex, n);
	s = tcd_name(&c, ex, &len);
	if (len != strlen(d->name) || memcmp(s, d->name, len) != 0)
		fail("the example calls another tool", ex, n);
	if (c.json != NULL && !json_is_object(c.json))
		fail("the example's arguments are no object", ex, n);
	tcd_call_free(&c);
out:
	buf_free(&p);
}

/*
 * Tool d's example in its own prompt, read back with all the definitions:
 * one call of d, no error. Its prompt is its description, its parameters
 * and then the example, which is last.
 */
static void
check_example(const struct tooldefs *defs, const struct tooldef *d)
{
	struct tooldefs one = { (struct tooldef *)d, 1, NULL, 1 };
	struct buf p = BUF_INIT, head = BUF_INIT;
	const char *at;
	size_t nd = strlen(d->name);

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
	read_by_toolcall(defs, TOOLCALL_FMT_TOOL, d->name, at,
	    (size_t)(p.data + p.len - at));
out:
	buf_free(&p);
	buf_free(&head);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tooldefs defs = { NULL, 0, NULL, 0 };
	struct buf p = BUF_INIT, again = BUF_INIT, h = BUF_INIT;
	const char *from;
	char err[1024];
	size_t i, n, at;
	int m;

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
	for (m = 0; m < TOOLDEFS_NMARKUPS; m++) {
		buf_reset(&p);
		buf_reset(&again);
		tooldefs_prompt(&defs, m, &p);
		tooldefs_prompt(&defs, m, &again);
		if (p.len != again.len || memcmp(p.data, again.data, p.len) != 0)
			fail("two prompts of the same definitions differ",
			    p.data, p.len);
		if (has(p.data, p.len, SECRET) &&
		    !has((const char *)data, size, "SECRET"))
			fail("the secret beside the directory reached the "
			    "prompt", p.data, p.len);
		if (p.len > 8192 + defs.n * 2 * 65536 + 200 * size)
			fail("the prompt grew faster than its input", p.data,
			    4096);
		for (i = 0; m > 0 && i < defs.n; i++)
			check_markup(&defs, &defs.v[i], m);
	}
	buf_reset(&p);
	tooldefs_prompt(&defs, TOOLDEFS_TOOL, &p);
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
