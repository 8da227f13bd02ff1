/*
 * jsontree: the jansson tree of a value compiled in (see jsontree.h).
 */
#include <stddef.h>

#include <jansson.h>

#include "json/jsontree.h"

/*
 * The value that the n steps from op build, a new reference; NULL when
 * out of memory. The steps are tools/jsontree's: balanced, no deeper
 * than JSONTREE_MAX_DEPTH, one value at the top.
 */
json_t *
jsontree_build(const struct jsontree_op *op, size_t n)
{
	/* the objects and arrays open, each attached once it closes */
	struct {
		json_t			*v;
		const struct jsontree_op *at;
	} open[JSONTREE_MAX_DEPTH];
	const struct jsontree_op *at;
	size_t depth = 0;
	json_t *v, *parent;

	for (; n > 0; n--, op++) {
		at = op;
		switch (op->type) {
		case JSONTREE_OBJECT:
		case JSONTREE_ARRAY:
			v = op->type == JSONTREE_OBJECT ? json_object() :
			    json_array();
			if (v == NULL || depth == JSONTREE_MAX_DEPTH) {
				json_decref(v);
				goto fail;
			}
			open[depth].v = v;
			open[depth++].at = op;
			continue;
		case JSONTREE_END:
			if (depth == 0)
				goto fail;
			v = open[--depth].v;
			at = open[depth].at;
			break;
		case JSONTREE_STRING:
			v = json_stringn_nocheck(op->s, op->len);
			break;
		case JSONTREE_REAL:
			v = json_real(op->x);
			break;
		case JSONTREE_TRUE:
			v = json_true();
			break;
		case JSONTREE_FALSE:
			v = json_false();
			break;
		default:
			v = json_null();
			break;
		}
		if (v == NULL)
			goto fail;
		if (depth == 0) {
			if (n == 1)
				return v;
			json_decref(v);
			break;
		}
		parent = open[depth - 1].v;
		/* both take the reference, and drop it when they fail */
		if (json_is_object(parent) ? json_object_setn_new_nocheck(parent,
		    at->key, at->keylen, v) : json_array_append_new(parent, v))
			goto fail;
	}
fail:
	while (depth > 0)
		json_decref(open[--depth].v);
	return NULL;
}
