/*
 * fuzz_put: lib/store's put on any documents, into stores in memory. The
 * input is up to 16 documents, lines "@@" between them; those that
 * llmr_check takes are put, under the ids m0, m1, ... and the topics t,
 * t, u, t, t, u, ..., once all in one transaction (as put --batch does)
 * and once each in a transaction of its own (as put does, one file after
 * another). Both stores must export the same bytes, and neither fsck
 * may find anything. Anything else aborts; ASan's leak check covers the
 * frees.
 */
#define _GNU_SOURCE		/* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "contract/llmr.h"
#include "store/store.h"

#define FUZZ_NAME	"fuzz_put"
#include "fuzz_store.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define MAX_DOCS	16

/* Puts the documents, in one transaction or (batch 0) one each. */
static struct store *
put_all(const char **doc, const size_t *len, size_t n, int batch)
{
	static const char *const topics[] = { "t", "t", "u" };
	struct llmr *v = llmr_new();
	struct llmr_opts opts;
	struct store_doc d;
	struct store *s;
	char id[16];
	size_t i;
	int st;

	if (store_open(&s, ":memory:", 1) != DIAG_OK)
		fail("cannot open a store in memory");
	if (batch && store_begin(s, 1) != DIAG_OK)
		fail("begin");
	for (i = 0; i < n; i++) {
		memset(&opts, 0, sizeof(opts));
		opts.file = "<fuzz>";
		opts.type = LLMR_ANY;
		if (llmr_check(v, doc[i], len[i], &opts) != DIAG_OK ||
		    llmr_doc(v) == NULL)
			continue;
		if (!batch && store_begin(s, 1) != DIAG_OK)
			fail("begin");
		snprintf(id, sizeof(id), "m%zu", i);
		memset(&d, 0, sizeof(d));
		d.file = opts.file;
		d.topic = topics[i % 3];
		d.message = id;
		d.xml = doc[i];
		d.len = len[i];
		d.doc = llmr_doc(v);
		if ((st = store_put(s, &d)) != DIAG_OK)
			fail(st == DIAG_TROUBLE ? "put ran into trouble" :
			    "put refused a valid document");
		if (!batch && store_commit(s) != DIAG_OK)
			fail("commit");
	}
	if (batch && store_commit(s) != DIAG_OK)
		fail("commit");
	llmr_free(v);
	return s;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *doc[MAX_DOCS], *p = (const char *)data;
	const char *end = p + size, *sep;
	size_t len[MAX_DOCS], n = 0, n1, n2;
	struct store *one, *each;
	char *a, *b;

	diag_setprogname("fuzz_put");
	diag_setquiet(1);
	setenv("LLMSTORE_NOW", "1000", 1);
	while (p < end && n < MAX_DOCS) {
		sep = memmem(p, (size_t)(end - p), "\n@@\n", 4);
		doc[n] = p;
		len[n] = sep != NULL ? (size_t)(sep - p) : (size_t)(end - p);
		n++;
		p = sep != NULL ? sep + 4 : end;
	}
	one = put_all(doc, len, n, 1);
	each = put_all(doc, len, n, 0);
	if (store_begin(one, 0) != DIAG_OK || store_fsck(one) != DIAG_OK)
		fail("fsck of the store of one transaction");
	store_rollback(one);
	if (store_begin(each, 0) != DIAG_OK || store_fsck(each) != DIAG_OK)
		fail("fsck of the store of one transaction each");
	store_rollback(each);
	a = export(one, &n1);
	b = export(each, &n2);
	if (n1 != n2 || memcmp(a, b, n1) != 0)
		fail("one transaction and one each: not the same store");
	free(a);
	free(b);
	store_close(one);
	store_close(each);
	return 0;
}
