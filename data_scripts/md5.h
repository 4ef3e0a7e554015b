// MD5 (RFC 1321, Rivest 1992), used only to compare dataset files with the
// MD5 digests their publishers give (UCI Adult, Zalando's Fashion-MNIST).
//
// MD5 is broken for collision resistance, so privbench never relies on it
// alone: every pinned file also has a SHA-256 digest (sha256.h). Checked
// against the RFC 1321 §A.5 test suite in md5_test.cc.
#ifndef PRIVBENCH_DATA_SCRIPTS_MD5_H_
#define PRIVBENCH_DATA_SCRIPTS_MD5_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "data_scripts/hash_blocks.h"

namespace privbench {

// Incremental MD5: Update() any number of times, then Finish() once.
class Md5 {
 public:
  Md5();
  void Update(const void* data, size_t size);
  void Update(std::string_view data) { Update(data.data(), data.size()); }
  std::array<uint8_t, 16> Finish();
  // Finish() as 32 lower-case hex characters.
  std::string FinishHex();

 private:
  void Compress(const uint8_t* block);

  std::array<uint32_t, 4> state_;
  HashBlockBuffer blocks_;
};

// MD5 of `data` as lower-case hex.
std::string Md5Hex(std::string_view data);

}  // namespace privbench

#endif  // PRIVBENCH_DATA_SCRIPTS_MD5_H_
