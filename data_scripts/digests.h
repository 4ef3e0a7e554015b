// SHA-256 (FIPS 180-4) and MD5 (RFC 1321) of byte strings, computed by
// OpenSSL's libcrypto (EVP one-shot digests, //third_party:crypto), used to
// verify dataset files against pinned digests (data_files.h).
//
// MD5 is only compared with the digests publishers give (UCI Adult,
// Zalando's Fashion-MNIST); it is broken for collision resistance, so every
// pinned file also has a SHA-256. A libcrypto that refuses an algorithm (MD5
// under a FIPS-only configuration) gives an Error, never a wrong digest.
#ifndef PRIVBENCH_DATA_SCRIPTS_DIGESTS_H_
#define PRIVBENCH_DATA_SCRIPTS_DIGESTS_H_

#include <string>
#include <string_view>

#include "core/result.h"

namespace privbench {

// Lower-case hex digests of `data`: 64 characters for SHA-256, 32 for MD5.
Result<std::string> Sha256Hex(std::string_view data);
Result<std::string> Md5Hex(std::string_view data);

}  // namespace privbench

#endif  // PRIVBENCH_DATA_SCRIPTS_DIGESTS_H_
