/*
 * jsschema_pcre: the functions of PCRE2 (8-bit) that lib/schema calls,
 * loaded with dlopen the first time a pattern is compiled, so that no
 * run that compiles none maps the library. pcre2.h is still where the
 * types and constants come from.
 */
#ifndef LLMKIT_JSSCHEMA_PCRE_H
#define LLMKIT_JSSCHEMA_PCRE_H

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif

#include <stdint.h>

#include <pcre2.h>

/* Each member is the pcre2_ function of its name (pcre2_compile_8, ...). */
struct jss_pcre {
	pcre2_code	*(*compile)(PCRE2_SPTR, PCRE2_SIZE, uint32_t, int *,
			    PCRE2_SIZE *, pcre2_compile_context *);
	void		 (*code_free)(pcre2_code *);
	pcre2_compile_context *(*compile_context_create)(
			    pcre2_general_context *);
	void		 (*compile_context_free)(pcre2_compile_context *);
	int		 (*set_parens_nest_limit)(pcre2_compile_context *,
			    uint32_t);
	int		 (*get_error_message)(int, PCRE2_UCHAR *, PCRE2_SIZE);
	int		 (*jit_compile)(pcre2_code *, uint32_t);
	pcre2_match_context *(*match_context_create)(pcre2_general_context *);
	pcre2_match_context *(*match_context_copy)(pcre2_match_context *);
	void		 (*match_context_free)(pcre2_match_context *);
	int		 (*set_match_limit)(pcre2_match_context *, uint32_t);
	int		 (*set_depth_limit)(pcre2_match_context *, uint32_t);
	int		 (*set_callout)(pcre2_match_context *,
			    int (*)(pcre2_callout_block *, void *), void *);
	pcre2_match_data *(*match_data_create)(uint32_t,
			    pcre2_general_context *);
	pcre2_match_data *(*match_data_create_from_pattern)(
			    const pcre2_code *, pcre2_general_context *);
	void		 (*match_data_free)(pcre2_match_data *);
	int		 (*match)(const pcre2_code *, PCRE2_SPTR, PCRE2_SIZE,
			    PCRE2_SIZE, uint32_t, pcre2_match_data *,
			    pcre2_match_context *);
	pcre2_jit_stack	*(*jit_stack_create)(PCRE2_SIZE, PCRE2_SIZE,
			    pcre2_general_context *);
	void		 (*jit_stack_assign)(pcre2_match_context *,
			    pcre2_jit_callback, void *);
	void		 (*jit_stack_free)(pcre2_jit_stack *);
};

/* Set by jss_pcre_load; to be called only after it has returned 0. */
extern struct jss_pcre jss_pcre;

/*
 * 0 once PCRE2 is loaded (libpcre2-8.so.0, or the file LLMKIT_LIBPCRE2
 * names), -1 when it cannot be, for ever after: jss_pcre_trouble says
 * why. Tried once; one thread, the state is not locked.
 */
int		 jss_pcre_load(void);
/*
 * "cannot load libpcre2-8 (REASON)", the dynamic loader's reason, or NULL
 * when loading has not failed.
 */
const char	*jss_pcre_trouble(void);

#endif
