/*
 * fuzz_store.h: what the harnesses of lib/store share: fail() (report and
 * abort, the harness named by FUZZ_NAME) and export() (a store's whole
 * export in a malloc'd string).
 */
#ifndef LLMKIT_FUZZ_STORE_H
#define LLMKIT_FUZZ_STORE_H

#include <stdio.h>
#include <stdlib.h>

#include "base/diag.h"
#include "store/store.h"

static void
fail(const char *why)
{
	fprintf(stderr, "%s: %s\n", FUZZ_NAME, why);
	abort();
}

static char *
export(struct store *s, size_t *n)
{
	char *text = NULL;
	FILE *fp = open_memstream(&text, n);

	if (fp == NULL)
		fail("open_memstream");
	if (store_begin(s, 0) != DIAG_OK || store_export(s, fp) != DIAG_OK)
		fail("export failed");
	store_rollback(s);
	if (fclose(fp) != 0)
		fail("fclose");
	return text;
}

#endif
