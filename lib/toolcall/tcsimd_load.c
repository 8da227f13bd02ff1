/*
 * tcsimd_load: the functions of tcsimd.h, which give a JSON text to the
 * simdjson reader (lib/toolcall/tcsimd.cc) once that pays. simdjson is
 * C++: loading it with libstdc++ costs a process more than a millisecond
 * (t/bench/README, start-up), more than jansson takes over an agent
 * turn's few calls. So the reader is a shared object, tcsimd.so, loaded
 * once the JSON texts offered since the process started come to
 * TCSIMD_LOAD_MIN bytes; before that, when it cannot be loaded, and in a
 * build without it (configure --with-simdjson=no), every function
 * declines and jansson reads: the output is the same, only its speed
 * differs. A binary that links the reader in (the fuzzers, test_tcsimd)
 * uses it from the first byte. One thread: the state is not locked.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_SIMDJSON
#include <dlfcn.h>
#endif

#include "base/buf.h"
#include "base/jsonw.h"
#include "toolcall/tcsimd.h"
#include "toolcall/tcsimd_int.h"

#ifdef HAVE_SIMDJSON

/*
 * The bytes of JSON text that jansson reads before the reader is loaded.
 * Loading costs about what jansson takes over 50 KB more than simdjson
 * (t/bench/README, start-up), but jansson's first bytes also count
 * against a large stream, which must stay within a few percent of a
 * reader linked in: a third of that, four times an agent turn's few
 * calls. A single text this long loads the reader at once.
 */
#define TCSIMD_LOAD_MIN	((size_t)16 << 10)

/* The reader's file name, beside the binary or in LLMKIT_PKGLIBDIR. */
#define TCSIMD_SO	"tcsimd.so"

/* Linked in, or else (a null address) loaded from tcsimd.so. */
#pragma weak tcsimd_open

static const struct tcsimd_host host = {
	buf_grow, buf_add, buf_addu, jsonw_string, jsonw_number
};

static const struct tcsimd_reader *reader;
static size_t offered;
static int tried;

/* The reader of the shared object at path, or NULL. */
static const struct tcsimd_reader *
open_at(const char *path)
{
	const struct tcsimd_reader *(*open)(int, const struct tcsimd_host *);
	const struct tcsimd_reader *r;
	void *h, *sym;

	if ((h = dlopen(path, RTLD_NOW | RTLD_LOCAL)) == NULL)
		return NULL;
	if ((sym = dlsym(h, "tcsimd_open")) == NULL) {
		dlclose(h);
		return NULL;
	}
	/* POSIX guarantees the conversion that ISO C leaves out */
	memcpy(&open, &sym, sizeof(open));
	if ((r = open(TCSIMD_ABI, &host)) == NULL)
		dlclose(h);
	/* else never closed: the strings of a chunk are the reader's */
	return r;
}

/*
 * The reader from the folder of the running binary (a build tree's
 * bin/), else from where make install puts it; NULL when neither loads.
 */
static const struct tcsimd_reader *
load(void)
{
	const struct tcsimd_reader *r = NULL;
	struct buf path = BUF_INIT;
	ssize_t n;
	size_t dir;

	for (;;) {
		buf_grow(&path, path.cap + 256);
		n = readlink("/proc/self/exe", path.data, path.cap);
		if (n < 0 || (size_t)n < path.cap)
			break;
	}
	for (dir = n > 0 ? (size_t)n : 0; dir > 0; dir--)
		if (path.data[dir - 1] == '/')
			break;
	if (dir > 0) {
		path.len = dir;
		buf_add(&path, TCSIMD_SO, strlen(TCSIMD_SO));
		r = open_at(buf_cstr(&path));
	}
	buf_free(&path);
	if (r == NULL)
		r = open_at(LLMKIT_PKGLIBDIR "/" TCSIMD_SO);
	return r;
}

/* The reader to give n more bytes to, or NULL when jansson reads them. */
static const struct tcsimd_reader *
ready(size_t n)
{
	if (reader != NULL || tried)
		return reader;
	if (tcsimd_open != NULL) {
		tried = 1;
		return reader = tcsimd_open(TCSIMD_ABI, &host);
	}
	offered = n < SIZE_MAX - offered ? offered + n : SIZE_MAX;
	if (offered < TCSIMD_LOAD_MIN)
		return NULL;
	tried = 1;
	return reader = load();
}

int
tcsimd_hermes(const char *s, size_t n, struct buf *name, struct buf *args)
{
	const struct tcsimd_reader *r = ready(n);

	return r != NULL ? r->hermes(s, n, name, args) : 0;
}

int
tcsimd_object(const char *s, size_t n, struct buf *args)
{
	const struct tcsimd_reader *r = ready(n);

	return r != NULL ? r->object(s, n, args) : 0;
}

int
tcsimd_chunk(const char *s, size_t n, struct tcsimd_delta *c)
{
	const struct tcsimd_reader *r = ready(n);

	if (r != NULL)
		return r->chunk(s, n, c);
	memset(c, 0, sizeof(*c));
	return 0;
}

#else /* !HAVE_SIMDJSON: jansson reads everything */

int
tcsimd_hermes(const char *s, size_t n, struct buf *name, struct buf *args)
{
	return 0;
}

int
tcsimd_object(const char *s, size_t n, struct buf *args)
{
	return 0;
}

int
tcsimd_chunk(const char *s, size_t n, struct tcsimd_delta *c)
{
	memset(c, 0, sizeof(*c));
	return 0;
}

#endif
