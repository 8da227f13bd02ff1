/*
 * jsschema_pcre: PCRE2, loaded with dlopen the first time a pattern is
 * compiled. Linked in, it costs the start-up of every run of every tool
 * that links lib/schema (t/bench/README), though most runs compile no
 * pattern: the built-in schema of jsonresp-check has none.
 */
#include <stddef.h>

#include "base/dlib.h"
#include "schema/jsschema_pcre.h"

struct jss_pcre jss_pcre;

static struct dlib libpcre = {
	"libpcre2-8.so.0", "LLMKIT_LIBPCRE2", "libpcre2-8", 0, NULL
};

/*
 * The member m of jss_pcre from the function f of pcre2.h, by the name
 * the header gives it (pcre2_compile is pcre2_compile_8). sizeof holds
 * the member's type to the header's prototype without evaluating the
 * assignment, so that nothing refers to the function itself.
 */
#define NAME(f)		NAME_(f)
#define NAME_(f)	#f
#define FN(m, f)	{ NAME(f), &jss_pcre.m, sizeof(jss_pcre.m = f) }

static const struct dlib_fn fns[] = {
	FN(compile, pcre2_compile),
	FN(code_free, pcre2_code_free),
	FN(compile_context_create, pcre2_compile_context_create),
	FN(compile_context_free, pcre2_compile_context_free),
	FN(set_parens_nest_limit, pcre2_set_parens_nest_limit),
	FN(get_error_message, pcre2_get_error_message),
	FN(jit_compile, pcre2_jit_compile),
	FN(match_context_create, pcre2_match_context_create),
	FN(match_context_copy, pcre2_match_context_copy),
	FN(match_context_free, pcre2_match_context_free),
	FN(set_match_limit, pcre2_set_match_limit),
	FN(set_depth_limit, pcre2_set_depth_limit),
	FN(set_callout, pcre2_set_callout),
	FN(match_data_create, pcre2_match_data_create),
	FN(match_data_create_from_pattern,
	    pcre2_match_data_create_from_pattern),
	FN(match_data_free, pcre2_match_data_free),
	FN(match, pcre2_match),
	FN(jit_stack_create, pcre2_jit_stack_create),
	FN(jit_stack_assign, pcre2_jit_stack_assign),
	FN(jit_stack_free, pcre2_jit_stack_free),
};

int
jss_pcre_load(void)
{
	return dlib_load(&libpcre, fns, sizeof(fns) / sizeof(fns[0]));
}

const char *
jss_pcre_trouble(void)
{
	return libpcre.why;
}
