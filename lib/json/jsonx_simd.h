/*
 * jsonx_simd: between jsonx (lib/json/jsonx.c, C, in every build) and
 * its simdjson engine (lib/json/jsonx_simd.cc, C++, in the kit's shared
 * object of engines, lib/json/jsimd.h). The engine reads an array or
 * object with simdjson's DOM parser and builds of it the tree that
 * json_loadb builds with the flags given, or declines: it calls nothing of
 * jansson or libllmkit directly, so that any binary of the kit can load
 * it, whatever jansson it links; jsonx hands it jansson's constructors.
 */
#ifndef LLMKIT_JSONX_SIMD_H
#define LLMKIT_JSONX_SIMD_H

#include <stddef.h>

#include <jansson.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Changed whenever either struct below changes: another is refused. */
#define JSONX_SIMD_ABI	2

/* jansson's functions, each returning NULL or -1 when out of memory. */
struct jsonx_simd_host {
	json_t	*(*object)(void);
	json_t	*(*array)(void);
	json_t	*(*string)(const char *, size_t);	/* no UTF-8 check */
	json_t	*(*integer)(json_int_t);
	json_t	*(*real)(double);
	json_t	*(*boolean)(int);
	json_t	*(*null)(void);
	/* key (no UTF-8 check) and value, whose reference it takes */
	int	 (*set)(json_t *, const char *, size_t, json_t *);
	int	 (*append)(json_t *, json_t *);	/* takes the reference */
	size_t	 (*size)(const json_t *);	/* an object's */
	void	 (*decref)(json_t *);
};

/*
 * parse: the array or object that is the whole of s (n bytes, from its
 * '[' or '{' to its closing bracket), as json_loadb reads it with flags,
 * of which it honours JSON_DECODE_INT_AS_REAL (without it an integer
 * that fits json_int_t is an integer, any other number a double) and
 * JSON_ALLOW_NUL (without it a string holding U+0000 is declined), and
 * ignores the others (a repeated key is always declined; the text around
 * the value is the caller's); or NULL, declined: for any error, and
 * wherever jansson reads it otherwise or refuses it (a key that repeats
 * or holds a NUL, a number out of the range of a double, nesting deeper
 * than 2048 levels, an integer past 2^64, or past json_int_t without
 * JSON_DECODE_INT_AS_REAL). The text must not hold an integer -0, which
 * simdjson reads as 0: jsonx looks for one first.
 */
struct jsonx_simd_engine {
	json_t	*(*parse)(const char *s, size_t n, size_t flags);
};

/*
 * The engine, building through h (kept: it must live as long as the
 * process), or NULL when abi is not its JSONX_SIMD_ABI.
 */
const struct jsonx_simd_engine *jsonx_simd_open(int abi,
    const struct jsonx_simd_host *h);

/* The values jsonx has had the engine read in this process (for tests). */
extern unsigned long jsonx_simd_reads;

/*
 * Forgets the bytes the engine has looked at in vain, after which jsonx
 * stops giving it values (for tests and fuzzers, which run on and on).
 */
void	jsonx_simd_reset(void);

#ifdef __cplusplus
}
#endif

#endif
