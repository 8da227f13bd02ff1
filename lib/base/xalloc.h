/* xalloc: allocation that ends the process with status 3 when memory runs out. */
#ifndef LLMKIT_XALLOC_H
#define LLMKIT_XALLOC_H

#include <stddef.h>

void	 xalloc_setoom(void (*)(void));
void	 xalloc_die(void) __attribute__((noreturn));
void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xrealloc(void *, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xmemdup(const void *, size_t);

#endif
