#include "CPageSeal.h"

// BoringSSL's AEAD functions, as swift-crypto's vendored copy names them (its symbols carry the CCryptoBoringSSL_
// prefix). They are linked from swift-crypto's CCryptoBoringSSL target, which every user of Crypto links; declared here
// because that target is not a product of swift-crypto. A swift-crypto that renamed them would fail to link, never
// run wrongly.
typedef struct evp_aead_st EVP_AEAD;
typedef struct evp_aead_ctx_st EVP_AEAD_CTX;
extern const EVP_AEAD *CCryptoBoringSSL_EVP_aead_aes_256_gcm(void);
extern EVP_AEAD_CTX *CCryptoBoringSSL_EVP_AEAD_CTX_new(const EVP_AEAD *aead, const uint8_t *key, size_t key_len, size_t tag_len);
extern void CCryptoBoringSSL_EVP_AEAD_CTX_free(EVP_AEAD_CTX *ctx);
extern int CCryptoBoringSSL_EVP_AEAD_CTX_seal_scatter(const EVP_AEAD_CTX *ctx, uint8_t *out, uint8_t *out_tag, size_t *out_tag_len,
                                                      size_t max_out_tag_len, const uint8_t *nonce, size_t nonce_len,
                                                      const uint8_t *in, size_t in_len, const uint8_t *extra_in, size_t extra_in_len,
                                                      const uint8_t *ad, size_t ad_len);
extern int CCryptoBoringSSL_EVP_AEAD_CTX_open_gather(const EVP_AEAD_CTX *ctx, uint8_t *out, const uint8_t *nonce, size_t nonce_len,
                                                     const uint8_t *in, size_t in_len, const uint8_t *in_tag, size_t in_tag_len,
                                                     const uint8_t *ad, size_t ad_len);

ohk_page_key *ohk_page_key_new(const uint8_t *key) {
    return (ohk_page_key *)CCryptoBoringSSL_EVP_AEAD_CTX_new(CCryptoBoringSSL_EVP_aead_aes_256_gcm(), key, 32, 16);
}

void ohk_page_key_free(ohk_page_key *key) {
    if (key) CCryptoBoringSSL_EVP_AEAD_CTX_free((EVP_AEAD_CTX *)key);
}

int ohk_page_seal(const ohk_page_key *key, uint8_t *out, uint8_t *tag, const uint8_t *nonce, size_t nonce_length,
                  const uint8_t *in, size_t length, const uint8_t *ad, size_t ad_length) {
    size_t tag_length = 0;
    int done = CCryptoBoringSSL_EVP_AEAD_CTX_seal_scatter((const EVP_AEAD_CTX *)key, out, tag, &tag_length, 16, nonce, nonce_length,
                                                          in, length, NULL, 0, ad, ad_length);
    return done == 1 && tag_length == 16;
}

int ohk_page_open(const ohk_page_key *key, uint8_t *out, const uint8_t *nonce, size_t nonce_length,
                  const uint8_t *in, size_t length, const uint8_t *tag, const uint8_t *ad, size_t ad_length) {
    return CCryptoBoringSSL_EVP_AEAD_CTX_open_gather((const EVP_AEAD_CTX *)key, out, nonce, nonce_length, in, length, tag, 16, ad, ad_length);
}
