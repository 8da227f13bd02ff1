/* sha256: SHA-256 (FIPS 180-4) of a byte string, from Nettle. */
#ifndef LLMKIT_SHA256_H
#define LLMKIT_SHA256_H
#include <stddef.h>

#define SHA256_HEX	65	/* 64 lower-case hex digits and a NUL */

int	sha256_hex(const void *, size_t, char[SHA256_HEX]);
int	sha256_ishex(const char *);

#endif
