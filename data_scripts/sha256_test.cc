#include "data_scripts/sha256.h"

#include <gtest/gtest.h>

#include <string>

namespace privbench {
namespace {

// Example vectors of FIPS 180-4 (NIST CSRC "Cryptographic Standards and
// Guidelines: Examples with Intermediate Values", SHA-256) and the
// empty-message digest.
TEST(Sha256Test, Fips180Vectors) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(
      Sha256Hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
                "klmnopqrlmnopqrsmnopqrstnopqrstu"),
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  EXPECT_EQ(Sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Padding boundaries: 55, 56, 63, 64 and 65 bytes straddle the length field.
TEST(Sha256Test, IncrementalEqualsOneShotAtEverySplit) {
  std::string message;
  for (int i = 0; i < 200; ++i) message.push_back(static_cast<char>((i * 37 + 11) & 0xff));
  for (size_t len : {0u, 1u, 55u, 56u, 63u, 64u, 65u, 119u, 120u, 128u, 200u}) {
    const std::string m = message.substr(0, len);
    const std::string expected = Sha256Hex(m);
    for (size_t split = 0; split <= len; ++split) {
      Sha256 h;
      h.Update(m.substr(0, split));
      h.Update(m.substr(split));
      EXPECT_EQ(h.FinishHex(), expected) << "len " << len << " split " << split;
    }
  }
}

}  // namespace
}  // namespace privbench
