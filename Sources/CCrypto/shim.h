#ifndef FOLIO_CCRYPTO_SHIM_H
#define FOLIO_CCRYPTO_SHIM_H

#include <openssl/evp.h>

// PBKDF2 with HMAC-SHA256, as WebCrypto's deriveKey({name: "PBKDF2", hash: "SHA-256"}) computes
// it. 1 on success.
static inline int folio_pbkdf2_sha256(const char *password, int passwordLength, const unsigned char *salt, int saltLength,
                                      int iterations, unsigned char *key, int keyLength) {
    return PKCS5_PBKDF2_HMAC(password, passwordLength, salt, saltLength, iterations, EVP_sha256(), keyLength, key);
}

// AES-256-GCM with a 12-byte nonce and a 16-byte tag, as WebCrypto's AES-GCM decrypts it:
// `sealed` receives the ciphertext (as long as the plaintext) followed by the tag. 1 on success.
static inline int folio_aes256gcm_seal(const unsigned char *key, const unsigned char *nonce,
                                       const unsigned char *plain, int plainLength, unsigned char *sealed) {
    EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new();
    if (!context) return 0;
    int ok = EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), NULL, NULL, NULL)
        && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, 12, NULL)
        && EVP_EncryptInit_ex(context, NULL, NULL, key, nonce);
    int written = 0, tail = 0;
    if (ok && plainLength > 0) ok = EVP_EncryptUpdate(context, sealed, &written, plain, plainLength);
    if (ok) ok = EVP_EncryptFinal_ex(context, sealed + written, &tail);
    if (ok) ok = EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, sealed + written + tail);
    EVP_CIPHER_CTX_free(context);
    return ok;
}

#endif
