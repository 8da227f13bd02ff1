/* num: numbers given on the command line. */
#ifndef LLMKIT_NUM_H
#define LLMKIT_NUM_H

#include <stddef.h>

size_t	num_size(const char *);

#endif
