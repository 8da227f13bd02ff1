/*
 * embed: data the tools need at run time, compiled in from data/ (and
 * installed under $(datadir)/llmkit/ for users to read). data/a-b.txt
 * becomes embed_a_b, NUL-terminated, with embed_a_b_len its length;
 * names in data/ use hyphens and dots, never underscores.
 */
#ifndef LLMKIT_EMBED_H
#define LLMKIT_EMBED_H

#include <stddef.h>

/* Seed 000, section 7: the system prompt that asks for <llmResponse>. */
extern const char	embed_llm_response_prompt[];
extern const size_t	embed_llm_response_prompt_len;

/* Seed 002: its response format as a JSON Schema (Draft-07). */
extern const char	embed_llm_response_schema[];
extern const size_t	embed_llm_response_schema_len;

/* Seed 002: the system instructions that ask for that format. */
extern const char	embed_jsonresp_prompt[];
extern const size_t	embed_jsonresp_prompt_len;

/* The Draft-04, -06 and -07 meta-schemas, resolved offline. */
extern const char	embed_json_schema_draft_04[];
extern const size_t	embed_json_schema_draft_04_len;
extern const char	embed_json_schema_draft_06[];
extern const size_t	embed_json_schema_draft_06_len;

extern const char	embed_json_schema_draft_07[];
extern const size_t	embed_json_schema_draft_07_len;

#endif
