/*
 * fuzz_thread: thread_serialize on any bytes, plainly, with --strict
 * and a response prefix, and with --keep-summarized. A document it
 * accepts must be well-formed XML (expat decides), the strict one must
 * be the plain one plus the prefix, and the folded one must hold the
 * lines of the kept one, each event written once or left out; anything
 * else aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <expat.h>

#include "base/diag.h"
#include "thread/thread.h"
#include "xml/xmlp.h"

#define PREFIX	"Based on the above thread, I will now"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static FILE	*devnull;

/* Shows why a document the serializer accepted is not XML, then aborts. */
static void
not_xml(const char *text, size_t n)
{
	XML_Parser p = xmlp_create();

	diag_setquiet(0);
	fprintf(stderr, "fuzz_thread: accepted input gave bad XML:\n%.*s\n",
	    (int)n, text);
	xmlp_parse_buffer(p, text, n, "<output>");
	XML_ParserFree(p);
	abort();
}

/* The plain document, holes filled, as thread_write writes it. */
static void
check_plain(struct thread_doc *doc)
{
	char *text = NULL;
	size_t n = 0;
	XML_Parser p;
	FILE *mem;

	if ((mem = open_memstream(&text, &n)) == NULL)
		abort();
	if (thread_write(doc, mem) != 0 || fclose(mem) != 0)
		abort();
	p = xmlp_create();
	if (xmlp_parse_buffer(p, text, n, "<output>") != DIAG_OK)
		not_xml(text, n);
	XML_ParserFree(p);
	free(text);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data;
	struct thread_opts plain = { "<fuzz>", NULL, 0, 0, 0 };
	struct thread_opts strict = { "<fuzz>", PREFIX, sizeof(PREFIX) - 1, 1,
	    0 };
	struct thread_opts keep = { "<fuzz>", NULL, 0, 0, 1 };
	struct thread_doc a, b, k;
	unsigned char *seen;
	size_t i;
	int ra, rb, rk;

	if (devnull == NULL) {
		diag_setquiet(1);
		if ((devnull = fopen("/dev/null", "w")) == NULL)
			abort();
	}
	thread_init(&a);
	ra = thread_serialize(&a, in, size, &plain);
	if (ra != DIAG_OK && ra != DIAG_INVALID)
		abort();
	if (ra == DIAG_OK) {
		if (thread_write(&a, devnull) != 0)
			abort();
		check_plain(&a);
	}

	thread_init(&b);
	rb = thread_serialize(&b, in, size, &strict);
	if (rb != DIAG_OK && rb != DIAG_INVALID)
		abort();
	if (rb == DIAG_OK) {
		if (thread_write(&b, devnull) != 0)
			abort();
		/* strict accepts less, and adds only "\n" PREFIX */
		if (ra != DIAG_OK || a.nholes != b.nholes ||
		    b.text.len != a.text.len + 1 + strlen(PREFIX) ||
		    memcmp(a.text.data, b.text.data, a.text.len) != 0 ||
		    b.text.data[a.text.len] != '\n' ||
		    memcmp(b.text.data + a.text.len + 1, PREFIX,
		    strlen(PREFIX)) != 0)
			abort();
	}

	thread_init(&k);
	rk = thread_serialize(&k, in, size, &keep);
	if (rk != DIAG_OK && rk != DIAG_INVALID)
		abort();
	if (rk == DIAG_OK)
		check_plain(&k);
	/* the fold refuses more (fractions), and writes a subset, each once */
	if (ra == DIAG_OK) {
		if (rk != DIAG_OK || k.text.len != a.text.len ||
		    memcmp(k.text.data, a.text.data, a.text.len) != 0 ||
		    k.nevs != a.nevs || k.norder != k.nevs ||
		    a.norder + a.folded != a.nevs || a.events > k.events)
			abort();
		seen = calloc(a.nevs + 1, 1);
		if (seen == NULL)
			abort();
		for (i = 0; i < a.norder; i++) {
			if (a.order[i] >= a.nevs || seen[a.order[i]] ||
			    a.evs[a.order[i]].out)
				abort();
			seen[a.order[i]] = 1;
		}
		free(seen);
	}
	thread_free(&a);
	thread_free(&b);
	thread_free(&k);
	return 0;
}
