/* ptab: a table keyed by pointer, grown as it fills. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/ptab.h"
#include "base/xalloc.h"

/* A pointer's bits mixed (the finalizer of MurmurHash3's 64 bits). */
size_t
ptab_hash(const void *p)
{
	unsigned long long x = (unsigned long long)(uintptr_t)p;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (size_t)x;
}

/*
 * The slot of key k, made (holding NULL) when k is new; the table is kept
 * at most half full, so that a probe is short.
 */
void **
ptab_slot(struct ptab *t, const void *k)
{
	const void **ok = t->k;
	void **ov = t->v;
	size_t oc = t->cap, i, j;

	if ((t->n + 1) * 2 > t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->k = xcalloc(t->cap, sizeof(*t->k));
		t->v = xcalloc(t->cap, sizeof(*t->v));
		for (i = 0; i < oc; i++) {
			if (ok[i] == NULL)
				continue;
			for (j = ptab_hash(ok[i]) & (t->cap - 1);
			    t->k[j] != NULL; j = (j + 1) & (t->cap - 1))
				;
			t->k[j] = ok[i];
			t->v[j] = ov[i];
		}
		free(ok);
		free(ov);
	}
	for (i = ptab_hash(k) & (t->cap - 1); t->k[i] != NULL;
	    i = (i + 1) & (t->cap - 1))
		if (t->k[i] == k)
			return &t->v[i];
	t->k[i] = k;
	t->n++;
	return &t->v[i];
}

/* The value of key k, or NULL. */
void *
ptab_get(const struct ptab *t, const void *k)
{
	size_t i;

	if (t->cap == 0)
		return NULL;
	for (i = ptab_hash(k) & (t->cap - 1); t->k[i] != NULL;
	    i = (i + 1) & (t->cap - 1))
		if (t->k[i] == k)
			return t->v[i];
	return NULL;
}

void
ptab_free(struct ptab *t)
{
	free(t->k);
	free(t->v);
	memset(t, 0, sizeof(*t));
}
