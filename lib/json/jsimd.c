/*
 * jsimd: loading the simdjson engines when they pay (see jsimd.h).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_SIMDJSON
#include <dlfcn.h>
#endif

#include "base/buf.h"
#include "json/jsimd.h"

#ifdef HAVE_SIMDJSON

enum mode { UNREAD, AUTO, JANSSON, SIMDJSON };

static enum mode mode;
static size_t offered;
static void *handle;
static int failed;

/*
 * The shared object from the folder of the running binary (a build
 * tree's bin/), else from where make install puts it; NULL when neither
 * loads. Never closed: what the engines return may point into it.
 * Bound lazily: RTLD_NOW would bind every function that libstdc++ and
 * simdjson call among themselves, a third of the symbols looked up in
 * loading them (3,134 against 2,034), most of which a reading never calls.
 */
static void *
load(void)
{
	struct buf path = BUF_INIT;
	void *h = NULL;
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
		buf_add(&path, JSIMD_SO, strlen(JSIMD_SO));
		h = dlopen(buf_cstr(&path), RTLD_LAZY | RTLD_LOCAL);
	}
	buf_free(&path);
	if (h == NULL)
		h = dlopen(LLMKIT_PKGLIBDIR "/" JSIMD_SO, RTLD_LAZY | RTLD_LOCAL);
	return h;
}

void *
jsimd_sym(const char *name)
{
	return handle != NULL ? dlsym(handle, name) : NULL;
}

int
jsimd_ready(size_t n, int linked)
{
	const char *env;

	if (mode == UNREAD) {
		env = getenv("LLMKIT_JSON");
		mode = env == NULL ? AUTO : strcmp(env, "jansson") == 0 ?
		    JANSSON : strcmp(env, "simdjson") == 0 ? SIMDJSON : AUTO;
	}
	if (mode == JANSSON)
		return 0;
	if (linked || handle != NULL)
		return 1;
	if (failed)
		return 0;
	if (mode == AUTO) {
		offered = n < SIZE_MAX - offered ? offered + n : SIZE_MAX;
		if (offered < JSIMD_LOAD_MIN)
			return 0;
	}
	if ((handle = load()) == NULL)
		failed = 1;
	return handle != NULL;
}

void
jsimd_reset(void)
{
	mode = UNREAD;
	offered = 0;
}

#else /* !HAVE_SIMDJSON: jansson reads everything */

int
jsimd_ready(size_t n, int linked)
{
	return 0;
}

void *
jsimd_sym(const char *name)
{
	return NULL;
}

void
jsimd_reset(void)
{
}

#endif
