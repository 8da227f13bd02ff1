/*
 * ptab: an open-addressing table keyed by pointer, for the walks over a
 * JSON tree that must meet each value once (jansson's values are their
 * own identity); and the hash of a pointer, for tables of one's own.
 */
#ifndef LLMKIT_PTAB_H
#define LLMKIT_PTAB_H

#include <stddef.h>

struct ptab {
	const void	**k;
	void		**v;
	size_t		 cap, n;
};

size_t	 ptab_hash(const void *);
void	*ptab_get(const struct ptab *, const void *);
void	**ptab_slot(struct ptab *, const void *);
void	 ptab_free(struct ptab *);

#endif
