/*
 * toolcall: toolcall-parse(1)'s command line made into what the reader
 * takes: toolcall_format gives the TOOLCALL_FMT_ of a --format name.
 */
#include <string.h>

#include "toolcall.h"

/* The TOOLCALL_FMT_ of --format's name, or -1. */
int
toolcall_format(const char *name)
{
	static const char *const names[] = {
		"tool", "qwen3", "invoke", "glm", "hermes", "auto"
	};
	int i;

	for (i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}
