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

/*
 * The meta-schemas of Draft-04, -06, -07, 2019-09 and 2020-12 (with the
 * meta-schemas of their vocabularies), resolved offline.
 */
extern const char	embed_json_schema_draft_04[];
extern const size_t	embed_json_schema_draft_04_len;
extern const char	embed_json_schema_draft_06[];
extern const size_t	embed_json_schema_draft_06_len;
extern const char	embed_json_schema_draft_07[];
extern const size_t	embed_json_schema_draft_07_len;
extern const char	embed_json_schema_2019_09[];
extern const size_t	embed_json_schema_2019_09_len;
extern const char	embed_json_schema_2019_09_meta_applicator[];
extern const size_t	embed_json_schema_2019_09_meta_applicator_len;
extern const char	embed_json_schema_2019_09_meta_content[];
extern const size_t	embed_json_schema_2019_09_meta_content_len;
extern const char	embed_json_schema_2019_09_meta_core[];
extern const size_t	embed_json_schema_2019_09_meta_core_len;
extern const char	embed_json_schema_2019_09_meta_format[];
extern const size_t	embed_json_schema_2019_09_meta_format_len;
extern const char	embed_json_schema_2019_09_meta_meta_data[];
extern const size_t	embed_json_schema_2019_09_meta_meta_data_len;
extern const char	embed_json_schema_2019_09_meta_validation[];
extern const size_t	embed_json_schema_2019_09_meta_validation_len;
extern const char	embed_json_schema_2020_12[];
extern const size_t	embed_json_schema_2020_12_len;
extern const char	embed_json_schema_2020_12_meta_applicator[];
extern const size_t	embed_json_schema_2020_12_meta_applicator_len;
extern const char	embed_json_schema_2020_12_meta_content[];
extern const size_t	embed_json_schema_2020_12_meta_content_len;
extern const char	embed_json_schema_2020_12_meta_core[];
extern const size_t	embed_json_schema_2020_12_meta_core_len;
extern const char	embed_json_schema_2020_12_meta_format_annotation[];
extern const size_t	embed_json_schema_2020_12_meta_format_annotation_len;
extern const char	embed_json_schema_2020_12_meta_meta_data[];
extern const size_t	embed_json_schema_2020_12_meta_meta_data_len;
extern const char	embed_json_schema_2020_12_meta_unevaluated[];
extern const size_t	embed_json_schema_2020_12_meta_unevaluated_len;
extern const char	embed_json_schema_2020_12_meta_validation[];
extern const size_t	embed_json_schema_2020_12_meta_validation_len;

#endif
