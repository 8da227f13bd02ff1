/*
 * tcsimd_load: the functions of tcsimd.h, which give a JSON text to the
 * simdjson reader (lib/toolcall/tcsimd.cc) once lib/json/jsimd has it
 * ready: in the kit's shared object of engines, loaded when the JSON
 * offered to them comes to JSIMD_LOAD_MIN bytes, or linked in. Until
 * then, and in a build without it (configure --with-simdjson=no), every
 * function declines and jansson reads: the output is the same, only its
 * speed differs.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "base/buf.h"
#include "base/jsonw.h"
#include "json/jsimd.h"
#include "toolcall/tcsimd.h"
#include "toolcall/tcsimd_int.h"

#ifdef HAVE_SIMDJSON

/* Linked in, or else (a null address) loaded from the kit's engines. */
#pragma weak tcsimd_open

static const struct tcsimd_host host = {
	buf_grow, buf_add, buf_addu, jsonw_string, jsonw_number
};

/* The reader to give n more bytes to, or NULL when jansson reads them. */
static const struct tcsimd_reader *
ready(size_t n)
{
	static const struct tcsimd_reader *reader;
	const struct tcsimd_reader *(*open)(int, const struct tcsimd_host *);
	void *sym;

	if (reader != NULL || !jsimd_ready(n, tcsimd_open != NULL))
		return reader;
	if (tcsimd_open != NULL)
		open = tcsimd_open;
	else if ((sym = jsimd_sym("tcsimd_open")) != NULL)
		/* POSIX guarantees the conversion that ISO C leaves out */
		memcpy(&open, &sym, sizeof(open));
	else
		return NULL;
	return reader = open(TCSIMD_ABI, &host);
}

int
tcsimd_hermes(const char *s, size_t n, struct buf *name, struct buf *args)
{
	const struct tcsimd_reader *r = ready(n);

	return r != NULL ? r->hermes(s, n, name, args) : 0;
}

int
tcsimd_object(const char *s, size_t n, struct buf *args)
{
	const struct tcsimd_reader *r = ready(n);

	return r != NULL ? r->object(s, n, args) : 0;
}

int
tcsimd_chunk(const char *s, size_t n, struct tcsimd_delta *c)
{
	const struct tcsimd_reader *r = ready(n);

	if (r != NULL)
		return r->chunk(s, n, c);
	memset(c, 0, sizeof(*c));
	return 0;
}

#else /* !HAVE_SIMDJSON: jansson reads everything */

int
tcsimd_hermes(const char *s, size_t n, struct buf *name, struct buf *args)
{
	return 0;
}

int
tcsimd_object(const char *s, size_t n, struct buf *args)
{
	return 0;
}

int
tcsimd_chunk(const char *s, size_t n, struct tcsimd_delta *c)
{
	memset(c, 0, sizeof(*c));
	return 0;
}

#endif
