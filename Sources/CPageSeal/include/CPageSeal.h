#ifndef OHK_PAGE_SEAL_H
#define OHK_PAGE_SEAL_H

#include <stddef.h>
#include <stdint.h>

/// AES-256-GCM for the pages of an encrypted store, on BoringSSL's AEAD interface as swift-crypto builds it into every
/// program that uses Crypto: a key set up once and used by every thread (swift-crypto's Swift API sets a key up again
/// for every call and copies the page three times, which was most of the cost of a sealed page).
typedef struct ohk_page_key ohk_page_key;

/// A key for AES-256-GCM with 16-byte tags, from its 32 bytes; NULL if BoringSSL refuses it.
ohk_page_key *ohk_page_key_new(const uint8_t *key);
void ohk_page_key_free(ohk_page_key *key);

/// Seals `length` bytes of `in` into `out` (which may be `in`), the tag into `tag` (16 bytes). 1 on success.
int ohk_page_seal(const ohk_page_key *key, uint8_t *out, uint8_t *tag, const uint8_t *nonce, size_t nonce_length,
                  const uint8_t *in, size_t length, const uint8_t *ad, size_t ad_length);

/// Opens `length` bytes of `in` into `out` (which must not be `in`: on failure BoringSSL clears `out`) with its 16-byte
/// `tag`. 1 when it authenticates, 0 otherwise.
int ohk_page_open(const ohk_page_key *key, uint8_t *out, const uint8_t *nonce, size_t nonce_length,
                  const uint8_t *in, size_t length, const uint8_t *tag, const uint8_t *ad, size_t ad_length);

#endif
