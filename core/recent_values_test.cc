#include "core/recent_values.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace privbench {
namespace {

// Every lookup returns the function's value for its own key, whether the
// slot held it, held another key (evicted) or was empty; a key is computed
// again only after another key took its slot.
TEST(RecentValuesTest, ReturnsEachKeysOwnValue) {
  RecentValues<2, double, 8> recent;  // 8 slots: keys collide and evict
  int computed = 0;
  auto value = [&](uint64_t a, uint64_t b) {
    return recent.Get({a, b}, [&] {
      ++computed;
      return std::sqrt(static_cast<double>(a * 1000 + b));
    });
  };
  for (int round = 0; round < 3; ++round) {
    for (uint64_t a = 0; a < 20; ++a) {
      for (uint64_t b = 0; b < 3; ++b) {
        EXPECT_EQ(value(a, b), std::sqrt(static_cast<double>(a * 1000 + b))) << a << " " << b;
      }
    }
  }
  EXPECT_GT(computed, 60);  // 60 keys in 8 slots: evictions recompute
  computed = 0;
  EXPECT_EQ(value(7, 7), std::sqrt(7007.0));
  EXPECT_EQ(value(7, 7), std::sqrt(7007.0));
  EXPECT_EQ(computed, 1);  // the repeat is a hit
}

// Keys differing in one word, or in a double's sign or last bit, are
// different keys.
TEST(RecentValuesTest, KeysDifferInEveryWord) {
  RecentValues<3, int> recent;
  int next = 0;
  auto id = [&](uint64_t a, uint64_t b, double c) {
    return recent.Get({a, b, KeyBits(c)}, [&] { return next++; });
  };
  const int base = id(1, 2, 0.5);
  EXPECT_NE(id(1, 3, 0.5), base);
  EXPECT_NE(id(0, 2, 0.5), base);
  EXPECT_NE(id(1, 2, std::nextafter(0.5, 1.0)), base);
  EXPECT_NE(KeyBits(0.0), KeyBits(-0.0));
  EXPECT_EQ(id(1, 2, 0.5), base);
}

// A compute that throws leaves no value behind: the next lookup computes.
TEST(RecentValuesTest, AThrowingComputeStoresNothing) {
  RecentValues<1, int> recent;
  EXPECT_THROW(recent.Get({5}, []() -> int { throw std::runtime_error("no"); }),
               std::runtime_error);
  EXPECT_EQ(recent.Get({5}, [] { return 42; }), 42);
  EXPECT_EQ(recent.Get({5}, [] { return 0; }), 42);
}

}  // namespace
}  // namespace privbench
