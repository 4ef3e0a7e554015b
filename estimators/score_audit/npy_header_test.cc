#include "estimators/score_audit/npy_header.h"

#include <gtest/gtest.h>

#include <string>

namespace privbench {
namespace {

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(NpyHeaderTest, ReadsWhatNumpyWrites) {
  const Result<NpyHeader> h =
      ParseNpyHeader("{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }          \n");
  ASSERT_TRUE(h.ok()) << h.message();
  EXPECT_EQ(h->descr, "<f8");
  EXPECT_FALSE(h->fortran_order);
  EXPECT_EQ(h->shape, (std::vector<uint64_t>{3}));
  const Result<NpyHeader> other =
      ParseNpyHeader("{\"shape\":(2, 5),\"fortran_order\":True,\"descr\":\">f4\"}");
  ASSERT_TRUE(other.ok()) << other.message();
  EXPECT_EQ(other->shape, (std::vector<uint64_t>{2, 5}));
  EXPECT_TRUE(other->fortran_order);
  EXPECT_EQ(ParseNpyHeader("{'descr': '<f8', 'fortran_order': False, 'shape': ()}")->shape,
            std::vector<uint64_t>{});
}

// The header was searched by substring, so a repeated key
// kept its first value (numpy keeps the last) and a 'descr' inside another
// value faked the dtype; a shape beyond 2^63 wrapped.
TEST(NpyHeaderTest, ParsesTheLiteralNotSubstrings) {
  const auto error = [](const std::string& text) { return ParseNpyHeader(text).message(); };
  EXPECT_TRUE(
      Contains(error("{'descr': '<i8', 'descr': '<f8', 'fortran_order': False, 'shape': (2,), }"),
               "repeats the key 'descr'"));
  EXPECT_TRUE(
      Contains(error("{'note': \"'descr': '<f8', \", 'descr': '<i8', 'fortran_order': False, "
                     "'shape': (2,), }"),
               "has the key 'note'"));
  EXPECT_TRUE(Contains(error("{'descr': '<f8', 'fortran_order': False, 'shape': (3), }"),
                       "a 1-D shape is written '(n,)'"));
  EXPECT_TRUE(Contains(
      error("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }"),
      "a dimension below 2^63"));
  EXPECT_TRUE(Contains(error("{'descr': '<f8', 'shape': (3,), }"), "lacks the key"));
  EXPECT_TRUE(
      Contains(error("{'descr': '<f8', 'fortran_order': 0, 'shape': (3,), }"), "True or False"));
  EXPECT_TRUE(Contains(error("{'descr': '<f8', 'fortran_order': False, 'shape': (3,), } x"),
                       "only spaces after the dict"));
  EXPECT_TRUE(Contains(error("{'descr': '<\\x66', 'fortran_order': False, 'shape': (3,)}"),
                       "without escapes"));
  // Messages quote a bounded prefix of the header.
  EXPECT_LT(error("{" + std::string(100000, 'x')).size(), 400u);
}

}  // namespace
}  // namespace privbench
