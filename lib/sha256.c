/* sha256: hashes through libcrypto's EVP interface, written as hex. */
#include <string.h>

#include <openssl/evp.h>

#include "sha256.h"

/* The hash of n bytes at p as hex in out; -1 if libcrypto fails. */
int
sha256_hex(const void *p, size_t n, char out[SHA256_HEX])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0, i;

	if (EVP_Digest(p, n, md, &len, EVP_sha256(), NULL) != 1 || len != 32) {
		out[0] = '\0';
		return -1;
	}
	for (i = 0; i < len; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 15];
	}
	out[2 * len] = '\0';
	return 0;
}

/* Whether s is a hash as sha256_hex writes it. */
int
sha256_ishex(const char *s)
{
	return strlen(s) == 64 && strspn(s, "0123456789abcdef") == 64;
}
