#include "data_scripts/digests.h"

#include <gtest/gtest.h>

#include <string>

namespace privbench {
namespace {

std::string Sha(const std::string& data) {
  auto r = Sha256Hex(data);
  EXPECT_TRUE(r.ok()) << r.message();
  return r.value_or("");
}

std::string Md5(const std::string& data) {
  auto r = Md5Hex(data);
  EXPECT_TRUE(r.ok()) << r.message();
  return r.value_or("");
}

// Example vectors of FIPS 180-4 (NIST CSRC "Cryptographic Standards and
// Guidelines: Examples with Intermediate Values", SHA-256) and the
// empty-message digest.
TEST(DigestsTest, Sha256Fips180Vectors) {
  EXPECT_EQ(Sha(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
                "klmnopqrlmnopqrsmnopqrstnopqrstu"),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  EXPECT_EQ(Sha(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// RFC 1321 Appendix A.5 test suite.
TEST(DigestsTest, Md5Rfc1321TestSuite) {
  EXPECT_EQ(Md5(""), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(Md5("a"), "0cc175b9c0f1b6a831c399e269772661");
  EXPECT_EQ(Md5("abc"), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(Md5("message digest"), "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(Md5("abcdefghijklmnopqrstuvwxyz"), "c3fcd3d76192e4007dfb496cca67e13b");
  EXPECT_EQ(Md5("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
            "d174ab98d277d9f5a5611c2c9f419d9f");
  EXPECT_EQ(Md5("1234567890123456789012345678901234567890123456789012345678901234567890123456"
                "7890"),
            "57edf4a22be3c955ac49da2e2107b67a");
}

// Bytes that are not text (NUL, high bit) are hashed as bytes (digests from
// Python's hashlib).
TEST(DigestsTest, BinaryInput) {
  const std::string bytes("\x00\xff\x80\x01", 4);
  EXPECT_EQ(Sha(bytes), "6509423fd9da5c225d2f8619ffae394b40f9f7686fee55a38c54b1424ac65f46");
  EXPECT_EQ(Md5(bytes), "07c9943760f82725398c2a77dd39b92f");
}

}  // namespace
}  // namespace privbench
