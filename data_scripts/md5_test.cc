#include "data_scripts/md5.h"

#include <gtest/gtest.h>

#include <string>

namespace privbench {
namespace {

// RFC 1321 Appendix A.5 test suite.
TEST(Md5Test, Rfc1321TestSuite) {
  EXPECT_EQ(Md5Hex(""), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(Md5Hex("a"), "0cc175b9c0f1b6a831c399e269772661");
  EXPECT_EQ(Md5Hex("abc"), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(Md5Hex("message digest"), "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(Md5Hex("abcdefghijklmnopqrstuvwxyz"), "c3fcd3d76192e4007dfb496cca67e13b");
  EXPECT_EQ(Md5Hex("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
            "d174ab98d277d9f5a5611c2c9f419d9f");
  EXPECT_EQ(Md5Hex("1234567890123456789012345678901234567890123456789012345678901234567890123456"
                   "7890"),
            "57edf4a22be3c955ac49da2e2107b67a");
}

TEST(Md5Test, IncrementalEqualsOneShotAtEverySplit) {
  std::string message;
  for (int i = 0; i < 150; ++i) message.push_back(static_cast<char>((i * 53 + 7) & 0xff));
  for (size_t len : {0u, 1u, 55u, 56u, 63u, 64u, 65u, 120u, 150u}) {
    const std::string m = message.substr(0, len);
    const std::string expected = Md5Hex(m);
    for (size_t split = 0; split <= len; ++split) {
      Md5 h;
      h.Update(m.substr(0, split));
      h.Update(m.substr(split));
      EXPECT_EQ(h.FinishHex(), expected) << "len " << len << " split " << split;
    }
  }
}

}  // namespace
}  // namespace privbench
