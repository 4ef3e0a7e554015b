// SHA-256 (FIPS 180-4, "Secure Hash Standard", 2015, §6.2), used to verify
// dataset files against pinned digests (data_scripts/README.md).
//
// A self-contained implementation so that the data loaders need no crypto
// library; it is checked against the FIPS 180-4 / NIST CSRC example vectors
// in sha256_test.cc. Not hardened against side channels: it hashes public
// data files, nothing secret.
#ifndef PRIVBENCH_DATA_SCRIPTS_SHA256_H_
#define PRIVBENCH_DATA_SCRIPTS_SHA256_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "data_scripts/hash_blocks.h"

namespace privbench {

// Incremental SHA-256: Update() any number of times, then Finish() once.
class Sha256 {
 public:
  Sha256();
  void Update(const void* data, size_t size);
  void Update(std::string_view data) { Update(data.data(), data.size()); }
  // The 32-byte digest. The object must not be updated afterwards.
  std::array<uint8_t, 32> Finish();
  // Finish() as 64 lower-case hex characters.
  std::string FinishHex();

 private:
  void Compress(const uint8_t* block);

  std::array<uint32_t, 8> state_;
  HashBlockBuffer blocks_;
};

// SHA-256 of `data` as lower-case hex.
std::string Sha256Hex(std::string_view data);

}  // namespace privbench

#endif  // PRIVBENCH_DATA_SCRIPTS_SHA256_H_
