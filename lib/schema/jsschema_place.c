/*
 * jsschema_place: the types a compiled schema allows at a place of a
 * value: the root, a member of an object, an item of an array, reached
 * through "$ref", "allOf", "anyOf" and "oneOf" (toolcall-parse types
 * the text of a tool call's arguments with it).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/xalloc.h"
#include "schema/jsschema.h"
#include "schema/jsschema_int.h"
#include "schema/jsschema_regex.h"

/* ---- places: the types a schema allows at a member of a value ---- */

/*
 * A place is a set of alternatives (what anyOf and oneOf split), each a
 * conjunction of the nodes that apply there together (what $ref and
 * allOf join). Both are bounded: past the bounds, alternatives and nodes
 * are left out, and the types found are those of the rest.
 */
#define PLACE_ALTS	64
#define PLACE_NODES	256

struct alt {
	const struct node	**v;
	size_t			  n;
};

struct jsschema_place {
	struct alt	*a;
	size_t		 n;
	int		 any;		/* an alternative no schema constrains */
};

static int
alt_add(struct alt *a, const struct node *x)
{
	size_t i;

	if (x == NULL || a->n == PLACE_NODES)
		return 0;
	for (i = 0; i < a->n; i++)
		if (a->v[i] == x)
			return 0;
	if (a->v == NULL)
		a->v = xcalloc(PLACE_NODES, sizeof(*a->v));
	a->v[a->n++] = x;
	return 1;
}

static struct alt
alt_copy(const struct alt *a)
{
	struct alt c;

	c.v = xcalloc(PLACE_NODES, sizeof(*c.v));
	memcpy(c.v, a->v, a->n * sizeof(*c.v));
	c.n = a->n;
	return c;
}

/*
 * Follows the nodes of a from index i on: their references and allOf
 * join a; anyOf and oneOf split it into one alternative per branch (per
 * pair of branches when a node has both). a is then p's, or freed.
 */
static void
place_expand(struct jsschema_place *p, struct alt *a, size_t i)
{
	const struct node *x;
	struct alt c;
	size_t j, k, na, no;

	for (; i < a->n; i++) {
		x = a->v[i];
		if (x->kind != NODE_OBJECT)
			continue;
		alt_add(a, x->ref);
		alt_add(a, x->dref);
		for (j = 0; j < x->nallof; j++)
			alt_add(a, x->allof[j].n);
		if (x->nanyof == 0 && x->noneof == 0)
			continue;
		na = x->nanyof > 0 ? x->nanyof : 1;
		no = x->noneof > 0 ? x->noneof : 1;
		for (j = 0; j < na; j++)
			for (k = 0; k < no && p->n < PLACE_ALTS; k++) {
				c = alt_copy(a);
				if (x->nanyof > 0)
					alt_add(&c, x->anyof[j].n);
				if (x->noneof > 0)
					alt_add(&c, x->oneof[k].n);
				place_expand(p, &c, i + 1);
			}
		free(a->v);
		return;
	}
	if (p->n == PLACE_ALTS) {
		free(a->v);
		return;
	}
	p->a = xreallocarray(p->a, p->n + 1, sizeof(*p->a));
	p->a[p->n++] = *a;
}

/* The place a conjunction c of nodes makes, added to p. */
static void
place_add(struct jsschema_place *p, struct alt *c)
{
	if (c->n == 0) {
		p->any = 1;
		free(c->v);
		return;
	}
	place_expand(p, c, 0);
}

struct jsschema_place *
jsschema_place_root(const struct jsschema *js)
{
	struct jsschema_place *p = xcalloc(1, sizeof(*p));
	struct alt c = { NULL, 0 };

	alt_add(&c, js->root);
	place_add(p, &c);
	return p;
}

/* The nodes that apply to member key (len bytes) of a value at x. */
static void
member_nodes(const struct node *x, const char *key, size_t len,
    struct alt *c)
{
	size_t k;
	long pi;
	int own = 0;

	if ((pi = jss_prop_find(x, key, len)) >= 0) {
		alt_add(c, x->props[pi].n);
		own = 1;
	}
	for (k = 0; k < x->npprops; k++)
		if (jsschema_regex_search(x->pprops[k].re, key, len) == 1) {
			alt_add(c, x->pprops[k].c.n);
			own = 1;
		}
	if (!own)
		alt_add(c, x->addprops.n);
}

/* The nodes that apply to item idx of a value at x. */
static void
item_nodes(const struct node *x, size_t idx, struct alt *c)
{
	if (x->items_array)
		alt_add(c, idx < x->nitems ? x->itemv[idx].n : x->additem.n);
	else
		alt_add(c, x->items.n);
}

/* The place one step down from p: member key (len bytes), or item idx. */
static struct jsschema_place *
place_step(const struct jsschema_place *p, const char *key, size_t len,
    size_t idx)
{
	struct jsschema_place *q = xcalloc(1, sizeof(*q));
	const struct node *x;
	struct alt c;
	size_t i, j;

	q->any = p->any;
	for (i = 0; i < p->n; i++) {
		c.v = NULL;
		c.n = 0;
		for (j = 0; j < p->a[i].n; j++) {
			x = p->a[i].v[j];
			if (x->kind != NODE_OBJECT)
				continue;
			if (key != NULL)
				member_nodes(x, key, len, &c);
			else
				item_nodes(x, idx, &c);
		}
		place_add(q, &c);
	}
	return q;
}

struct jsschema_place *
jsschema_place_member(const struct jsschema_place *p, const char *key,
    size_t len)
{
	return place_step(p, key, len, 0);
}

struct jsschema_place *
jsschema_place_item(const struct jsschema_place *p, size_t idx)
{
	return place_step(p, NULL, 0, idx);
}

/* The types node x allows, "number" counting "integer" in. */
static unsigned
node_types(const struct node *x)
{
	unsigned t = JSSCHEMA_T_ALL, e = 0;
	size_t i;

	if (x->kind == NODE_FALSE)
		return 0;
	if (x->kind == NODE_TRUE)
		return JSSCHEMA_T_ALL;
	if (x->types != 0)
		t = x->types | (x->types & T_NUMBER ? T_INTEGER : 0);
	if (x->enumv != NULL) {
		for (i = 0; i < json_array_size(x->enumv); i++)
			e |= jss_inst_type(json_array_get(x->enumv, i));
		t &= e;
	}
	if (x->constv != NULL)
		t &= jss_inst_type(x->constv);
	return t;
}

unsigned
jsschema_place_types(const struct jsschema_place *p)
{
	unsigned t = p->any ? JSSCHEMA_T_ALL : 0, c;
	size_t i, j;

	for (i = 0; i < p->n; i++) {
		c = JSSCHEMA_T_ALL;
		for (j = 0; j < p->a[i].n; j++)
			c &= node_types(p->a[i].v[j]);
		t |= c;
	}
	return t;
}

void
jsschema_place_free(struct jsschema_place *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->n; i++)
		free(p->a[i].v);
	free(p->a);
	free(p);
}
