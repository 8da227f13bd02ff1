/*
 * loadso: the floor of a process's start, and what loading one shared
 * object adds to it. With no operand it does nothing and links nothing
 * but the C library; with FILE it loads FILE with dlopen (RTLD_LAZY), as
 * the tools load their simdjson engines, and exits: 0 when loaded, 1
 * with the loader's message when not.
 *
 *	loadso [FILE]
 */
#include <dlfcn.h>
#include <stdio.h>

int
main(int argc, char *argv[])
{
	if (argc > 1 && dlopen(argv[1], RTLD_LAZY | RTLD_LOCAL) == NULL) {
		fprintf(stderr, "loadso: %s\n", dlerror());
		return 1;
	}
	return 0;
}
