/*
 * jsschema_pcre: PCRE2, loaded with dlopen the first time a pattern is
 * compiled. Linked in, it costs the start-up of every run of every tool
 * that links lib/schema (t/bench/README), though most runs compile no
 * pattern: the built-in schema of jsonresp-check has none.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "schema/jsschema_pcre.h"

#define PCRE2_SONAME	"libpcre2-8.so.0"

struct jss_pcre jss_pcre;

static int	 tried;
static char	*why;		/* why it could not be loaded, or NULL */

static void
forget(void)
{
	free(why);
	why = NULL;
}

/*
 * Keeps the reason of the failure, the dynamic loader's, for as long as
 * the process runs (freed at its exit, so that a leak checker sees no
 * block left behind).
 */
static void
failed(const char *what)
{
	struct buf b = BUF_INIT;
	const char *e = dlerror();

	buf_printf(&b, "cannot load libpcre2-8 (%s)", e != NULL ? e : what);
	why = buf_cstr(&b);
	(void)atexit(forget);
}

/* The symbol name of h into *fn; -1, with why set, when missing. */
static int
sym(void *h, const char *name, void *fn, size_t size)
{
	void *p;

	dlerror();
	if ((p = dlsym(h, name)) == NULL) {
		failed(name);
		return -1;
	}
	/* POSIX guarantees the conversion that ISO C leaves out */
	memcpy(fn, &p, size);
	return 0;
}

/*
 * The member m of jss_pcre from the function f of pcre2.h, by the name
 * the header gives it (pcre2_compile is pcre2_compile_8). sizeof holds
 * the member's type to the header's prototype without evaluating the
 * assignment, so that nothing refers to the function itself.
 */
#define NAME(f)		NAME_(f)
#define NAME_(f)	#f
#define SYM(h, m, f)	((void)sizeof(jss_pcre.m = f), \
	sym((h), NAME(f), &jss_pcre.m, sizeof(jss_pcre.m)))

int
jss_pcre_load(void)
{
	const char *file = getenv("LLMKIT_LIBPCRE2");
	void *h;

	if (tried)
		return why == NULL ? 0 : -1;
	tried = 1;
	if (file == NULL || *file == '\0')
		file = PCRE2_SONAME;
	if ((h = dlopen(file, RTLD_LAZY | RTLD_LOCAL)) == NULL) {
		failed(file);
		return -1;
	}
	if (SYM(h, compile, pcre2_compile) != 0 ||
	    SYM(h, code_free, pcre2_code_free) != 0 ||
	    SYM(h, compile_context_create, pcre2_compile_context_create) != 0 ||
	    SYM(h, compile_context_free, pcre2_compile_context_free) != 0 ||
	    SYM(h, set_parens_nest_limit, pcre2_set_parens_nest_limit) != 0 ||
	    SYM(h, get_error_message, pcre2_get_error_message) != 0 ||
	    SYM(h, jit_compile, pcre2_jit_compile) != 0 ||
	    SYM(h, match_context_create, pcre2_match_context_create) != 0 ||
	    SYM(h, match_context_copy, pcre2_match_context_copy) != 0 ||
	    SYM(h, match_context_free, pcre2_match_context_free) != 0 ||
	    SYM(h, set_match_limit, pcre2_set_match_limit) != 0 ||
	    SYM(h, set_depth_limit, pcre2_set_depth_limit) != 0 ||
	    SYM(h, set_callout, pcre2_set_callout) != 0 ||
	    SYM(h, match_data_create, pcre2_match_data_create) != 0 ||
	    SYM(h, match_data_create_from_pattern,
	    pcre2_match_data_create_from_pattern) != 0 ||
	    SYM(h, match_data_free, pcre2_match_data_free) != 0 ||
	    SYM(h, match, pcre2_match) != 0 ||
	    SYM(h, jit_stack_create, pcre2_jit_stack_create) != 0 ||
	    SYM(h, jit_stack_assign, pcre2_jit_stack_assign) != 0 ||
	    SYM(h, jit_stack_free, pcre2_jit_stack_free) != 0) {
		dlclose(h);
		memset(&jss_pcre, 0, sizeof(jss_pcre));
		return -1;
	}
	/* never closed: loaded once for the life of the process */
	return 0;
}

const char *
jss_pcre_trouble(void)
{
	return why;
}
