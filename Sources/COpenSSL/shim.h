#include <stddef.h>
#include <openssl/evp.h>

// SHA-256 of `count` bytes into `digest` (32 bytes), through OpenSSL's EVP interface; 1 on success.
static inline int marquee_sha256(const void *bytes, size_t count, unsigned char *digest) {
    unsigned int length = 0;
    return EVP_Digest(bytes, count, digest, &length, EVP_sha256(), NULL);
}
