/*
 * dlib: a library loaded when first needed (see dlib.h).
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/dlib.h"

/* The libraries that failed, whose reasons are freed at exit. */
static struct dlib *failed[8];
static size_t nfailed;

static void
forget(void)
{
	while (nfailed > 0) {
		free(failed[--nfailed]->why);
		failed[nfailed]->why = NULL;
	}
}

/*
 * Keeps why d cannot be loaded, the dynamic loader's reason or else what,
 * for as long as the process runs (freed at its exit, so that a leak
 * checker sees no block left behind).
 */
static void
fail(struct dlib *d, const char *what)
{
	struct buf b = BUF_INIT;
	const char *e = dlerror();

	buf_printf(&b, "cannot load %s (%s)", d->label, e != NULL ? e : what);
	d->why = buf_cstr(&b);
	if (nfailed == 0)
		(void)atexit(forget);
	if (nfailed < sizeof(failed) / sizeof(failed[0]))
		failed[nfailed++] = d;
}

/*
 * 0 once d is loaded and each of its n functions found, -1 when it
 * cannot be, for ever after: d->why says why, and no function is set.
 */
int
dlib_load(struct dlib *d, const struct dlib_fn *fns, size_t n)
{
	const char *file;
	void *h, *sym;
	size_t i;

	if (d->tried)
		return d->why == NULL ? 0 : -1;
	d->tried = 1;
	if ((file = getenv(d->env)) == NULL || *file == '\0')
		file = d->soname;
	if ((h = dlopen(file, RTLD_LAZY | RTLD_LOCAL)) == NULL) {
		fail(d, file);
		return -1;
	}
	for (i = 0; i < n; i++) {
		dlerror();
		if ((sym = dlsym(h, fns[i].name)) == NULL) {
			fail(d, fns[i].name);
			while (i > 0) {
				i--;
				memset(fns[i].fn, 0, fns[i].size);
			}
			dlclose(h);
			return -1;
		}
		/* POSIX guarantees the conversion that ISO C leaves out */
		memcpy(fns[i].fn, &sym, fns[i].size);
	}
	return 0;
}
