/*
 * dlib: a library loaded with dlopen the first time a run needs it, not
 * linked in, since linked each costs the start of every run of every tool
 * that links it (t/bench/README): libidn2 and PCRE2 in lib/schema,
 * libcurl in lib/mcp. An environment variable names another file to load
 * (a path, or a name the dynamic loader looks for as dlopen(3) does),
 * which the tests point at a file that is not there. Loaded once, bound
 * lazily, never closed; one thread: the state is not locked.
 */
#ifndef LLMKIT_DLIB_H
#define LLMKIT_DLIB_H

#include <stddef.h>

/* A function of the library, by its name, and where its address goes. */
struct dlib_fn {
	const char	*name;
	void		*fn;	/* a function pointer, size bytes */
	size_t		 size;
};

struct dlib {
	const char	*soname;	/* what is loaded by default */
	const char	*env;		/* the variable that names another */
	const char	*label;		/* its name in the reason */
	int		 tried;
	char		*why;		/* "cannot load LABEL (REASON)" */
};

int	dlib_load(struct dlib *, const struct dlib_fn *, size_t);

#endif
