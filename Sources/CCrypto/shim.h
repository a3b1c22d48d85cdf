// OpenSSL's libcrypto (Debian: libssl-dev), for SHA-256 content hashes through the EVP interface.
#include <openssl/evp.h>
