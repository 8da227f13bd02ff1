/*
 * jsontree NAME FILE: writes C source defining the JSON value of FILE as
 * the steps that build its jansson tree (lib/json/jsontree.h),
 *   const struct jsontree_op embed_NAME_tree[];
 *   const size_t embed_NAME_tree_len;
 * FILE read as jsonresp-check reads a schema: every number a double,
 * U+0000 in a string kept, a key again refused. Strings are written as
 * C literals whose bytes are those of the value, numbers as hexadecimal
 * floating constants, which keep every bit. Built and run at build time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "json/jsontree.h"

/* s (n bytes) as a C string literal, any byte but printable ASCII octal */
static void
literal(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i;

	putchar('"');
	for (i = 0; i < n; i++)
		if (u[i] >= 0x20 && u[i] < 0x7f && u[i] != '"' &&
		    u[i] != '\\' && u[i] != '?')
			putchar(u[i]);
		else
			printf("\\%03o", u[i]);
	putchar('"');
}

static void
step(const char *type, const char *key, size_t keylen)
{
	printf("\t{ %s, ", type);
	if (key != NULL)
		literal(key, keylen);
	else
		printf("NULL");
	printf(", %zu, ", keylen);
}

/* v and what it holds, its key given when it is a member; -1 too deep */
static int
emit(const json_t *v, const char *key, size_t keylen, int depth)
{
	const char *k;
	json_t *m;
	size_t i;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
	case JSON_ARRAY:
		if (depth == JSONTREE_MAX_DEPTH)
			return -1;
		step(json_is_object(v) ? "JSONTREE_OBJECT" : "JSONTREE_ARRAY",
		    key, keylen);
		printf("NULL, 0, 0 },\n");
		if (json_is_object(v)) {
			json_object_foreach((json_t *)v, k, m)
				/* jansson refuses a key holding U+0000 */
				if (emit(m, k, strlen(k), depth + 1) != 0)
					return -1;
		} else {
			json_array_foreach(v, i, m)
				if (emit(m, NULL, 0, depth + 1) != 0)
					return -1;
		}
		printf("\t{ JSONTREE_END, NULL, 0, NULL, 0, 0 },\n");
		return 0;
	case JSON_STRING:
		step("JSONTREE_STRING", key, keylen);
		literal(json_string_value(v), json_string_length(v));
		printf(", %zu, 0 },\n", json_string_length(v));
		return 0;
	case JSON_REAL:
		step("JSONTREE_REAL", key, keylen);
		printf("NULL, 0, %a },\n", json_real_value(v));
		return 0;
	case JSON_TRUE:
		step("JSONTREE_TRUE", key, keylen);
		break;
	case JSON_FALSE:
		step("JSONTREE_FALSE", key, keylen);
		break;
	default:
		step("JSONTREE_NULL", key, keylen);
		break;
	}
	printf("NULL, 0, 0 },\n");
	return 0;
}

int
main(int argc, char *argv[])
{
	json_error_t e;
	json_t *v;

	if (argc != 3) {
		fprintf(stderr, "usage: jsontree NAME FILE\n");
		return 2;
	}
	v = json_load_file(argv[2], JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL |
	    JSON_ALLOW_NUL | JSON_REJECT_DUPLICATES, &e);
	if (v == NULL) {
		fprintf(stderr, "jsontree: %s:%d:%d: %s\n", argv[2], e.line,
		    e.column, e.text);
		return 1;
	}
	printf("/* Generated from %s by tools/jsontree; do not edit. */\n",
	    argv[2]);
	printf("#include \"json/jsontree.h\"\n\n");
	printf("const struct jsontree_op embed_%s_tree[] = {\n", argv[1]);
	if (emit(v, NULL, 0, 0) != 0) {
		fprintf(stderr, "jsontree: %s: nested deeper than %d levels\n",
		    argv[2], JSONTREE_MAX_DEPTH);
		json_decref(v);
		return 1;
	}
	printf("};\nconst size_t embed_%s_tree_len =\n"
	    "    sizeof(embed_%s_tree) / sizeof(embed_%s_tree[0]);\n",
	    argv[1], argv[1], argv[1]);
	json_decref(v);
	return fflush(stdout) != 0 || ferror(stdout) ? 1 : 0;
}
