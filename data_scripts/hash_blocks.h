// What MD5 (md5.h) and SHA-256 (sha256.h) share: both are Merkle-Damgard
// hashes over 64-byte blocks, so the buffering of Update, the padding of
// Finish (0x80, zeros up to 56 mod 64, then the 64-bit message length in
// bits: little-endian for MD5, RFC 1321 §3.1-3.2; big-endian for SHA-256,
// FIPS 180-4 §5.1.1) and the hex form of a digest are one piece of code.
#ifndef PRIVBENCH_DATA_SCRIPTS_HASH_BLOCKS_H_
#define PRIVBENCH_DATA_SCRIPTS_HASH_BLOCKS_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace privbench {

class HashBlockBuffer {
 public:
  enum class LengthOrder { kLittleEndian, kBigEndian };

  // Hands every complete 64-byte block to compress(const uint8_t* block)
  // and keeps the rest for the next call.
  template <typename Compress>
  void Update(const void* data, size_t size, Compress compress) {
    const auto* p = static_cast<const uint8_t*>(data);
    total_bytes_ += size;
    if (buffered_ > 0) {
      const size_t take = std::min(size, buffer_.size() - buffered_);
      std::memcpy(buffer_.data() + buffered_, p, take);
      buffered_ += take;
      p += take;
      size -= take;
      if (buffered_ < buffer_.size()) return;
      compress(buffer_.data());
      buffered_ = 0;
    }
    while (size >= 64) {
      compress(p);
      p += 64;
      size -= 64;
    }
    std::memcpy(buffer_.data(), p, size);
    buffered_ = size;
  }

  // Appends the padding and the bit length, compressing the last block(s).
  template <typename Compress>
  void Pad(LengthOrder order, Compress compress) {
    const uint64_t bit_length = total_bytes_ * 8;
    uint8_t pad[72] = {0x80};
    const size_t pad_len = (buffered_ < 56) ? 56 - buffered_ : 120 - buffered_;
    for (int i = 0; i < 8; ++i) {
      const int shift = order == LengthOrder::kLittleEndian ? 8 * i : 56 - 8 * i;
      pad[pad_len + i] = static_cast<uint8_t>(bit_length >> shift);
    }
    Update(pad, pad_len + 8, compress);
  }

 private:
  std::array<uint8_t, 64> buffer_{};
  size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
};

// Lower-case hex of a digest.
template <size_t N>
std::string HexDigest(const std::array<uint8_t, N>& digest) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out(2 * N, '0');
  for (size_t i = 0; i < N; ++i) {
    out[2 * i] = kDigits[digest[i] >> 4];
    out[2 * i + 1] = kDigits[digest[i] & 0xf];
  }
  return out;
}

}  // namespace privbench

#endif  // PRIVBENCH_DATA_SCRIPTS_HASH_BLOCKS_H_
