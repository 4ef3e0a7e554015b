// multi_split.h: several bounds on the same splits give each bound's own
// MultiSplit (the same seeds, levels and medians); the errors name the split
// and the bound. (MultiSplit of one bound: resampling_test.)
#include "estimators/score_audit/multi_split.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/seeding.h"

namespace privbench {
namespace {

void ExpectError(const Status& s, const std::string& prefix) {
  ASSERT_FALSE(s.ok()) << prefix;
  EXPECT_EQ(s.message().rfind(prefix, 0), 0u) << s.message();
}

// Bound k of a split: a function of the seed and the level, distinct per k.
double Value(uint64_t seed, double level, size_t k) {
  return static_cast<double>((seed >> (8 * k)) % 1000) * level + static_cast<double>(k);
}

TEST(MultiSplitEach, EachBoundIsItsOwnMultiSplit) {
  for (int64_t b : {1, 4, 7}) {
    MultiSplitOptions o;
    o.alpha = 0.2;
    o.num_splits = b;
    o.seed = 11;
    int64_t calls = 0;
    const SplitBounds three = [&](uint64_t seed, double level) -> Result<std::vector<double>> {
      ++calls;
      return std::vector<double>{Value(seed, level, 0), Value(seed, level, 1),
                                 Value(seed, level, 2)};
    };
    const std::vector<MultiSplitResult> each = MultiSplitEach(three, 3, o).value();
    EXPECT_EQ(calls, b);  // one call per split for all three bounds
    ASSERT_EQ(each.size(), 3u);
    for (size_t k = 0; k < 3; ++k) {
      const SplitBound alone = [k](uint64_t seed, double level) -> Result<double> {
        return Value(seed, level, k);
      };
      const MultiSplitResult want = MultiSplit(alone, o).value();
      EXPECT_EQ(each[k].bound, want.bound) << k;
      EXPECT_EQ(each[k].split_bounds, want.split_bounds) << k;
      EXPECT_EQ(each[k].level_alpha, 0.1);
      EXPECT_EQ(each[k].split_bounds.front(), Value(DeriveSeed(11, {3, 0}), 0.1, k));
    }
  }
}

TEST(MultiSplitEach, ErrorsNameTheSplitAndTheBound) {
  MultiSplitOptions o;
  o.num_splits = 3;
  const SplitBounds two = [](uint64_t, double) -> Result<std::vector<double>> {
    return std::vector<double>{1.0, 2.0};
  };
  ExpectError(MultiSplitEach(two, 3, o).status(), "split 0: 2 bounds, expected 3");
  ExpectError(MultiSplitEach(two, 0, o).status(), "count must be >= 1");
  int64_t calls = 0;
  const SplitBounds inf_later = [&](uint64_t, double) -> Result<std::vector<double>> {
    return std::vector<double>{1.0, ++calls == 2 ? std::numeric_limits<double>::infinity() : 0.0};
  };
  ExpectError(MultiSplitEach(inf_later, 2, o).status(), "split 1, bound 1: not finite, got inf");
  const SplitBounds fails = [](uint64_t, double) -> Result<std::vector<double>> {
    return Error("no halves");
  };
  ExpectError(MultiSplitEach(fails, 2, o).status(), "split 0: no halves");
  o.num_splits = 0;
  ExpectError(MultiSplitEach(two, 2, o).status(), "num_splits");
  o = {};
  o.alpha = 0.0;
  ExpectError(MultiSplitEach(two, 2, o).status(), "alpha");
}

}  // namespace
}  // namespace privbench
