/*
 * fuzz_jsonx_engines: any bytes read by jsonx under both engines, jansson
 * (LLMKIT_JSON=jansson) and simdjson, which the fuzzers link in, so that
 * it reads from the first byte (and declines to jansson what it does not
 * read alike). Read as one value from each of up to 16 offsets that the
 * first byte picks, and as a sequence (jsonx_seq): both must give the
 * same tree (by json_equal, and the doubles' bits and the keys' order),
 * the same end or start, or the same error (offset, rule, code and
 * text). And read whole by jsonx_load, with jansson's flags that the
 * first byte's low five bits give, under each engine: the same tree as
 * json_loadb's and the same json_error_t, success or not. Anything else
 * aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "json/jsimd.h"
#include "json/jsonx.h"
#include "json/jsonx_simd.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);


/* Whether a and b are the same tree: types, doubles' bits, keys' order. */
static int
same_tree(json_t *a, json_t *b)
{
	void *i, *j;
	double x, y;
	size_t k;

	if (!json_equal(a, b) || json_typeof(a) != json_typeof(b))
		return 0;
	switch (json_typeof(a)) {
	case JSON_OBJECT:
		for (i = json_object_iter(a), j = json_object_iter(b);
		    i != NULL; i = json_object_iter_next(a, i),
		    j = json_object_iter_next(b, j))
			if (j == NULL || strcmp(json_object_iter_key(i),
			    json_object_iter_key(j)) != 0 ||
			    !same_tree(json_object_iter_value(i),
			    json_object_iter_value(j)))
				return 0;
		return 1;
	case JSON_ARRAY:
		for (k = 0; k < json_array_size(a); k++)
			if (!same_tree(json_array_get(a, k),
			    json_array_get(b, k)))
				return 0;
		return 1;
	case JSON_REAL:
		x = json_real_value(a);
		y = json_real_value(b);
		return memcmp(&x, &y, sizeof(x)) == 0;
	default:
		return 1;
	}
}

static void
use(const char *engine)
{
	if (setenv("LLMKIT_JSON", engine, 1) != 0)
		abort();
	jsimd_reset();
	jsonx_simd_reset();
}

/* The same error, field by field. */
static int
same_error(const struct jsonx_error *a, const struct jsonx_error *b)
{
	return a->offset == b->offset && a->first == b->first &&
	    a->code == b->code && strcmp(a->rule, b->rule) == 0 &&
	    strcmp(a->key, b->key) == 0 && strcmp(a->text, b->text) == 0;
}

/* One value from off, both ways. */
static void
one(const char *s, size_t n, size_t off)
{
	struct jsonx_error e1, e2;
	size_t end1 = 0, end2 = 0;
	json_t *v1, *v2;

	memset(&e1, 0, sizeof(e1));
	memset(&e2, 0, sizeof(e2));
	use("jansson");
	v1 = jsonx_parse(s, n, off, &end1, &e1);
	use("simdjson");
	v2 = jsonx_parse(s, n, off, &end2, &e2);
	if ((v1 == NULL) != (v2 == NULL))
		abort();
	if (v1 != NULL && (!same_tree(v1, v2) || end1 != end2))
		abort();
	if (v1 == NULL && !same_error(&e1, &e2))
		abort();
	json_decref(v1);
	json_decref(v2);
}

/* The values of a sequence, both ways, in step. */
static void
sequence(const char *s, size_t n)
{
	struct jsonx_seq q1, q2;
	struct jsonx_error e1, e2;
	size_t start1, start2;
	json_t *v1, *v2;
	int r1, r2;

	jsonx_seq_init(&q1, s, n);
	jsonx_seq_init(&q2, s, n);
	do {
		memset(&e1, 0, sizeof(e1));
		memset(&e2, 0, sizeof(e2));
		v1 = v2 = NULL;
		start1 = start2 = 0;
		use("jansson");
		r1 = jsonx_seq_next(&q1, &v1, &start1, &e1);
		use("simdjson");
		r2 = jsonx_seq_next(&q2, &v2, &start2, &e2);
		if (r1 != r2 || q1.off != q2.off)
			abort();
		if (r1 > 0 && (start1 != start2 || !same_tree(v1, v2)))
			abort();
		if (r1 < 0 && !same_error(&e1, &e2))
			abort();
		json_decref(v1);
		json_decref(v2);
	} while (r1 > 0);
}

/* jansson's json_error_t, the same field by field. */
static int
same_jerror(const json_error_t *a, const json_error_t *b)
{
	return strcmp(a->text, b->text) == 0 &&
	    json_error_code(a) == json_error_code(b) && a->line == b->line &&
	    a->column == b->column && a->position == b->position &&
	    strcmp(a->source, b->source) == 0;
}

/* The whole text by jsonx_load under engine, as json_loadb reads it. */
static void
load(const char *engine, const char *s, size_t n, size_t flags)
{
	json_error_t e1, e2;
	json_t *v1, *v2;

	memset(&e1, 0, sizeof(e1));
	memset(&e2, 0, sizeof(e2));
	v1 = json_loadb(s, n, flags, &e1);
	use(engine);
	v2 = jsonx_load(s, n, flags, &e2);
	if ((v1 == NULL) != (v2 == NULL) || !same_jerror(&e1, &e2))
		abort();
	if (v1 != NULL && !same_tree(v1, v2))
		abort();
	json_decref(v1);
	json_decref(v2);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data + 1;
	size_t n, off, step;

	if (size == 0)
		return 0;
	n = size - 1;
	/*
	 * the first byte: how far apart the offsets read from are (0: the
	 * start alone), at most 16 of them
	 */
	step = data[0] == 0 ? n + 1 : data[0];
	if (step < n / 16)
		step = n / 16;
	for (off = 0; off < n; off += step)
		one(s, n, off);
	one(s, n, n);
	sequence(s, n);
	/*
	 * REJECT_DUPLICATES, DISABLE_EOF_CHECK, DECODE_ANY,
	 * DECODE_INT_AS_REAL, ALLOW_NUL
	 */
	load("jansson", s, n, data[0] & 0x1f);
	load("simdjson", s, n, data[0] & 0x1f);
	return 0;
}
