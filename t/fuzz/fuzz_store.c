/*
 * fuzz_store: lib/store's import on any input, into a store in memory.
 * When the import is refused, the store must still be empty (nothing of
 * a refused import stays) and its export the header line alone. When it
 * is taken, fsck must find nothing wrong with it (import refuses what
 * fsck would find), and the store's export must import into a second
 * empty store, whose export is the same bytes.
 * Anything else aborts; ASan's leak check covers the frees.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "store/store.h"

#define FUZZ_NAME	"fuzz_store"
#include "fuzz_store.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char head[] = "{\"$type$\":\"llmstore\",\"version\":1}\n";

/* Imports n bytes into a new store in memory; the import's status. */
static int
import(struct store **s, const char *data, size_t n)
{
	FILE *fp;
	int status;

	if (store_open(s, ":memory:", 1) != DIAG_OK)
		fail("cannot open a store in memory");
	if ((fp = fmemopen((void *)data, n, "r")) == NULL)
		fail("fmemopen");
	if (store_begin(*s, 1) != DIAG_OK)
		fail("begin");
	status = store_import(*s, "<fuzz>", fp);
	fclose(fp);
	if (status == DIAG_OK) {
		if (store_commit(*s) != DIAG_OK)
			fail("commit");
	} else
		store_rollback(*s);
	if (status == DIAG_TROUBLE)
		fail("import in memory ran into trouble");
	return status;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct store *a = NULL, *b = NULL;
	char *one, *two;
	size_t n1, n2;
	int st;

	if (size == 0)
		return 0;
	diag_setprogname("fuzz_store");
	diag_setquiet(1);
	st = import(&a, (const char *)data, size);
	one = export(a, &n1);
	if (st != DIAG_OK) {
		if (n1 != sizeof(head) - 1 || memcmp(one, head, n1) != 0)
			fail("a refused import left something in the store");
	} else {
		/* import takes nothing that fsck would find */
		if (store_fsck(a) != DIAG_OK)
			fail("fsck finds problems in what import took");
		if (import(&b, one, n1) != DIAG_OK)
			fail("an export does not import");
		two = export(b, &n2);
		if (n1 != n2 || memcmp(one, two, n1) != 0)
			fail("export, import, export: not the same bytes");
		free(two);
		store_close(b);
	}
	free(one);
	store_close(a);
	return 0;
}
