/*
 * jsontree: a JSON value compiled in as the steps that build its jansson
 * tree, so that a tool has the tree of data it always needs (the
 * built-in schema of jsonresp-check) without reading its text: jansson's
 * reading of the 6.5 KB schema cost seven times the building of its
 * tree, in every run. tools/jsontree writes the steps from a data/ file,
 * read as jsonresp-check reads a schema (every number a double, U+0000
 * in a string kept, a key again refused), so that the tree built is the
 * one the text gives.
 */
#ifndef LLMKIT_JSONTREE_H
#define LLMKIT_JSONTREE_H

#include <stddef.h>

#include <jansson.h>

/* Deeper values are refused by tools/jsontree. */
#define JSONTREE_MAX_DEPTH	64

enum jsontree_type {
	JSONTREE_OBJECT,	/* opens an object: its members follow */
	JSONTREE_ARRAY,		/* opens an array: its elements follow */
	JSONTREE_END,		/* closes the last object or array opened */
	JSONTREE_STRING,
	JSONTREE_REAL,
	JSONTREE_TRUE,
	JSONTREE_FALSE,
	JSONTREE_NULL
};

/*
 * One step, in the order of the text: a value (an object or array
 * opened, its members or elements, then its END), with its key when it
 * is a member.
 */
struct jsontree_op {
	enum jsontree_type	 type;
	const char		*key;	/* a member's, or NULL */
	size_t			 keylen;
	const char		*s;	/* a string's bytes, UTF-8 */
	size_t			 len;
	double			 x;	/* a number */
};

json_t	*jsontree_build(const struct jsontree_op *, size_t);

/* data/llm-response.schema.json (see lib/base/embed.h) as a tree. */
extern const struct jsontree_op	embed_llm_response_schema_tree[];
extern const size_t		embed_llm_response_schema_tree_len;

#endif
