/* sha256: hashes with Nettle's SHA-256, written as hex. */
#include <string.h>

#include <nettle/sha2.h>

#include "base/sha256.h"

/* The hash of n bytes at p as hex in out. */
int
sha256_hex(const void *p, size_t n, char out[SHA256_HEX])
{
	static const char hex[] = "0123456789abcdef";
	struct sha256_ctx ctx;
	uint8_t md[SHA256_DIGEST_SIZE];
	size_t i;

	sha256_init(&ctx);
	sha256_update(&ctx, n, p);
	sha256_digest(&ctx, sizeof(md), md);
	for (i = 0; i < sizeof(md); i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 15];
	}
	out[2 * sizeof(md)] = '\0';
	return 0;
}

/* Whether s is a hash as sha256_hex writes it. */
int
sha256_ishex(const char *s)
{
	return strlen(s) == 64 && strspn(s, "0123456789abcdef") == 64;
}
