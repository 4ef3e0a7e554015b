#include "experiments/lib/coverage/coverage_run.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/seeding.h"
#include "gtest/gtest.h"

namespace privbench {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

const CoverageNames kNames = {"toy", "p", "q", "P", "Q", "N", {"a", "b"}, "/m", "lo", "hi"};

TEST(CoverageSe, Formulas) {
  EXPECT_DOUBLE_EQ(NominalSe(0.9, 100), std::sqrt(0.9 * 0.1 / 100));
  EXPECT_DOUBLE_EQ(ObservedSe(0.5, 400), 0.025);
  EXPECT_EQ(ObservedSe(1.0, 10), 0.0);
}

TEST(ClassifyCoverage, ThreeNominalSeBand) {
  // nominal 0.9, 100 trials: se0 = 0.03, band = 0.09.
  EXPECT_EQ(ClassifyCoverage(0.9, 0.9, 100), CoverageClass::kNear);
  EXPECT_EQ(ClassifyCoverage(0.82, 0.9, 100), CoverageClass::kNear);
  EXPECT_EQ(ClassifyCoverage(0.80, 0.9, 100), CoverageClass::kUnder);
  EXPECT_EQ(ClassifyCoverage(1.0, 0.9, 100), CoverageClass::kOver);
  EXPECT_EQ(ClassifyCoverage(0.95, 0.9, 100, 1.0), CoverageClass::kOver);
}

TEST(CoverageClassName, Names) {
  EXPECT_EQ(std::string(CoverageClassName(CoverageClass::kUnder)), "under");
  EXPECT_EQ(std::string(CoverageClassName(CoverageClass::kNear)), "near");
  EXPECT_EQ(std::string(CoverageClassName(CoverageClass::kOver)), "over");
}

TEST(MakeCoverageSettings, PairMajorWithLabels) {
  const auto s = MakeCoverageSettings(kNames, {0.5, 0.25}, {0.05, 0.2}, {10, 20, 30});
  ASSERT_EQ(s.size(), 6u);
  EXPECT_EQ(s[2].pair, 0);
  EXPECT_EQ(s[2].n, 30);
  EXPECT_EQ(s[3].pair, 1);
  EXPECT_EQ(s[3].x, 0.25);
  EXPECT_EQ(s[3].y, 0.2);
  EXPECT_EQ(s[0].label, "(P 0.5, Q 0.05, N 10)");
  EXPECT_TRUE(MakeCoverageSettings(kNames, {}, {}, {10}).empty());
}

TEST(SummarizeIntervals, TwoSided) {
  // truth 1: covered, above the truth, below the truth, infinite and covering.
  const IntervalStats s = SummarizeIntervals({0.5, 1.5, 0.0, 0.8}, {2.0, 3.0, 0.9, kInf}, 1.0);
  EXPECT_EQ(s.trials, 4);
  EXPECT_EQ(s.truth, 1.0);
  EXPECT_DOUBLE_EQ(s.coverage, 0.5);
  EXPECT_DOUBLE_EQ(s.se, std::sqrt(0.25 / 4));
  EXPECT_DOUBLE_EQ(s.miss_low, 0.25);
  EXPECT_DOUBLE_EQ(s.miss_high, 0.25);
  EXPECT_DOUBLE_EQ(s.frac_infinite, 0.25);
  EXPECT_DOUBLE_EQ(s.mean_width, (1.5 + 1.5 + 0.9) / 3);
  EXPECT_DOUBLE_EQ(s.mean_lower, 2.8 / 4);
  EXPECT_DOUBLE_EQ(s.median_lower, 0.65);  // mean of the two middle values
  EXPECT_DOUBLE_EQ(s.frac_vacuous, 0.25);  // the lower end 0
  EXPECT_DOUBLE_EQ(s.mean_clipped_covering, (0.5 + 0.8) / 2);
}

TEST(SummarizeIntervals, OneSidedHasNoWidth) {
  const IntervalStats s = SummarizeIntervals({0.5, 2.0, 0.1}, {}, 1.0);
  EXPECT_DOUBLE_EQ(s.coverage, 2.0 / 3);
  EXPECT_EQ(s.miss_high, 0.0);
  EXPECT_EQ(s.frac_infinite, 0.0);
  EXPECT_TRUE(std::isnan(s.mean_width));
  EXPECT_DOUBLE_EQ(s.median_lower, 0.5);
}

TEST(SummarizeIntervals, ClippedLowerBound) {
  // target 1: covering -inf, 0.5, 1.0; missing 2.0.
  const IntervalStats s = SummarizeIntervals({-kInf, 0.5, 1.0, 2.0}, {}, 1.0);
  EXPECT_DOUBLE_EQ(s.coverage, 0.75);
  EXPECT_DOUBLE_EQ(s.frac_vacuous, 0.25);
  EXPECT_DOUBLE_EQ(s.mean_clipped, 3.5 / 4);
  EXPECT_DOUBLE_EQ(s.median_clipped, 0.75);
  EXPECT_DOUBLE_EQ(s.mean_clipped_covering, 1.5 / 3);
  EXPECT_EQ(s.mean_lower, -kInf);
  EXPECT_TRUE(std::isnan(SummarizeIntervals({2.0}, {}, 1.0).mean_clipped_covering));
}

TEST(Row, SliceOfASettingMajorArray) {
  EXPECT_EQ(Row({1, 2, 3, 4, 5, 6}, 1, 3), (std::vector<double>{4, 5, 6}));
}

// A toy study: two settings, a one-sided and a two-sided method whose ends
// are the trial's seed mod 10 around the target x.
CoverageResults Toy() {
  CoverageResults r;
  r.names = kNames;
  r.settings = MakeCoverageSettings(kNames, {1.0, 2.0}, {0.5, 0.5}, {10});
  r.methods = {{"one", "one", "", true, 0.9}, {"two", "two (x)", "", false, 0.8}};
  return r;
}

Status ToyTrial(const CoverageSetting& st, int64_t t, uint64_t seed, CoverageTrial& out) {
  const double d = static_cast<double>(seed % 10) / 10 - 0.5;
  out.counts = {static_cast<int64_t>(seed % 7), t};
  out.lower = {st.x + d, st.x + d - 0.2};
  out.upper = {kInf, st.x + d + 0.2};
  return Status::Ok();
}

TEST(RunCoverageTrials, EveryTrialWithItsDerivedSeedOnAnyThreads) {
  const CoverageResults r = Toy();
  auto one = RunCoverageTrials(r, 4, ToyTrial, 99, 1, true);
  auto three = RunCoverageTrials(r, 4, ToyTrial, 99, 3, true);
  ASSERT_TRUE(one.ok()) << one.message();
  ASSERT_TRUE(three.ok()) << three.message();
  EXPECT_EQ(one->trials, 4);
  for (uint64_t s = 0; s < 2; ++s) {
    for (uint64_t t = 0; t < 4; ++t) {
      const uint64_t seed = DeriveSeed(99, {s, t});
      EXPECT_EQ(one->counts[0][s * 4 + t], static_cast<int64_t>(seed % 7));
      EXPECT_EQ(one->counts[1][s * 4 + t], static_cast<int64_t>(t));
    }
  }
  EXPECT_EQ(one->counts, three->counts);
  for (size_t m = 0; m < 2; ++m) {
    EXPECT_EQ(one->data[m].lower, three->data[m].lower);
    EXPECT_EQ(one->data[m].upper, three->data[m].upper);
  }
  EXPECT_TRUE(one->data[0].upper.empty());  // one-sided: no upper ends
  EXPECT_EQ(one->data[1].upper.size(), 8u);
}

TEST(RunCoverageTrials, ANanBoundIsAnError) {
  auto nan = RunCoverageTrials(
      Toy(), 3,
      [](const CoverageSetting&, int64_t, uint64_t, CoverageTrial& out) -> Status {
        out.lower[1] = std::nan("");
        return Status::Ok();
      },
      1, 2, true);
  EXPECT_FALSE(nan.ok());
  EXPECT_EQ(nan.message(), "internal error: NaN bound from two");
}

TEST(SummarizeCoverage, EachMethodAgainstItsTruthAndNominalLevel) {
  CoverageResults r = Toy();
  auto run = RunCoverageTrials(r, 20, ToyTrial, 5, 2, true);
  ASSERT_TRUE(run.ok());
  r.run = std::move(*run);
  SummarizeCoverage([](const CoverageMethod& m, const CoverageSetting& s) { return s.x; }, &r);
  for (size_t m = 0; m < 2; ++m) {
    const MethodRun& d = r.run.data[m];
    ASSERT_EQ(d.classes.size(), 2u);
    for (size_t s = 0; s < 2; ++s) {
      const std::vector<double> up = m == 0 ? std::vector<double>() : Row(d.upper, s, 20);
      EXPECT_EQ(d.stats[s].coverage,
                SummarizeIntervals(Row(d.lower, s, 20), up, r.settings[s].x).coverage);
      EXPECT_EQ(d.stats[s].truth, r.settings[s].x);
      EXPECT_EQ(d.classes[s], ClassifyCoverage(d.stats[s].coverage, r.methods[m].nominal, 20));
    }
  }
}

}  // namespace
}  // namespace privbench
