/*
 * embed: data the tools need at run time, compiled in from data/ (and
 * installed under $(datadir)/llmkit/ for users to read). data/a-b.txt
 * becomes embed_a_b, NUL-terminated, with embed_a_b_len its length;
 * names in data/ use hyphens, never underscores.
 */
#ifndef LLMKIT_EMBED_H
#define LLMKIT_EMBED_H

#include <stddef.h>

/* Seed 000, section 7: the system prompt that asks for <llmResponse>. */
extern const char	embed_llm_response_prompt[];
extern const size_t	embed_llm_response_prompt_len;

#endif
