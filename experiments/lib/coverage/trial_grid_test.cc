#include "experiments/lib/coverage/trial_grid.h"

#include <atomic>
#include <cstdint>
#include <vector>

#include "core/seeding.h"
#include "gtest/gtest.h"

namespace privbench {
namespace {

TEST(PairMajorGrid, EverySampleSizeOfAPairBeforeTheNextPair) {
  const std::vector<GridPoint> g = PairMajorGrid(2, {10, 20, 30});
  ASSERT_EQ(g.size(), 6u);
  EXPECT_EQ(g[0].pair, 0);
  EXPECT_EQ(g[0].n, 10);
  EXPECT_EQ(g[2].n, 30);
  EXPECT_EQ(g[3].pair, 1);
  EXPECT_EQ(g[3].n, 10);
  EXPECT_TRUE(PairMajorGrid(0, {10}).empty());
}

// Seeds of every (setting, trial), setting-major, on `threads` threads.
std::vector<uint64_t> TrialSeeds(int64_t settings, int64_t trials, int threads) {
  std::vector<uint64_t> seeds(settings * trials, 0);
  const Status s = ForEachTrial("test", settings, trials, 99, threads, true,
                                [&](int64_t st, int64_t t, uint64_t seed) -> Status {
                                  seeds[st * trials + t] = seed;
                                  return Status::Ok();
                                });
  EXPECT_TRUE(s.ok()) << s.message();
  return seeds;
}

TEST(ForEachTrial, EveryTrialOnceWithItsDerivedSeed) {
  const std::vector<uint64_t> seeds = TrialSeeds(3, 4, 1);
  for (uint64_t s = 0; s < 3; ++s) {
    for (uint64_t t = 0; t < 4; ++t) EXPECT_EQ(seeds[s * 4 + t], DeriveSeed(99, {s, t}));
  }
  EXPECT_EQ(TrialSeeds(3, 4, 3), seeds);  // independent of the thread count
}

TEST(ForEachTrial, ReturnsTheFirstFailureInTrialOrder) {
  std::atomic<int64_t> calls{0};
  const Status s =
      ForEachTrial("test", 2, 5, 1, 2, true, [&](int64_t st, int64_t t, uint64_t) -> Status {
        ++calls;
        if (t >= 3) {
          return Error("fail " + std::to_string(st) + "," + std::to_string(t));
        }
        return Status::Ok();
      });
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "fail 0,3");
  EXPECT_EQ(calls.load(), 10);
}

}  // namespace
}  // namespace privbench
