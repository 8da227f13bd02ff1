/* num: numbers given on the command line. */
#ifndef LLMKIT_NUM_H
#define LLMKIT_NUM_H

#include <stddef.h>

size_t		num_size(const char *);
long long	num_whole(const char *, long long, long long, const char **);
int		num_seconds(const char *, double, double *);
int		num_hexval(int);

#endif
