#include "data_scripts/digests.h"

#include <openssl/err.h>
#include <openssl/evp.h>

namespace privbench {

namespace {

Result<std::string> HexDigest(const EVP_MD* (*algorithm)(), std::string_view name,
                              std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  const EVP_MD* md = algorithm();
  if (md == nullptr || EVP_Digest(data.data(), data.size(), digest, &size, md, nullptr) != 1) {
    char reason[256] = "no reason given";
    if (const unsigned long code = ERR_get_error(); code != 0) {
      ERR_error_string_n(code, reason, sizeof(reason));
    }
    ERR_clear_error();
    return Error("libcrypto cannot compute " + std::string(name) + ": " + reason);
  }
  static const char kDigits[] = "0123456789abcdef";
  std::string hex(2 * size, '0');
  for (unsigned int i = 0; i < size; ++i) {
    hex[2 * i] = kDigits[digest[i] >> 4];
    hex[2 * i + 1] = kDigits[digest[i] & 0xf];
  }
  return hex;
}

}  // namespace

Result<std::string> Sha256Hex(std::string_view data) {
  return HexDigest(&EVP_sha256, "SHA-256", data);
}

Result<std::string> Md5Hex(std::string_view data) { return HexDigest(&EVP_md5, "MD5", data); }

}  // namespace privbench
