// resampling.h: MultiSplit's median and levels on callbacks whose values are
// known, its named bounds against the functions they name; the bootstrap's
// replicates rebuilt from the documented seeding, its percentile, BC and BCa
// levels recomputed here (the jackknife too), the same bytes at every
// thread count; and the errors.
#include "estimators/score_audit/resampling.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/seeding.h"
#include "estimators/interval_registry.h"
#include "estimators/score_audit/one_run_scores.h"
#include "estimators/score_audit/score_audit.h"

namespace privbench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<double> Scores(int n, double mean, Rng& rng) {
  boost::random::normal_distribution<double> normal(mean, 1.0);
  std::vector<double> x(n);
  for (double& v : x) v = normal(rng);
  return x;
}

void ExpectError(const Status& s, const std::string& prefix) {
  ASSERT_FALSE(s.ok()) << prefix;
  EXPECT_EQ(s.message().rfind(prefix, 0), 0u) << s.message();
}

// A split "bound" that is a known function of the split's index: the seeds
// are DeriveSeed(seed, {3, j}).
TEST(MultiSplit, MedianOfTheSplitsAtHalfTheLevel) {
  for (int64_t b : {1, 2, 5, 100}) {
    MultiSplitOptions o;
    o.alpha = 0.1;
    o.num_splits = b;
    o.seed = 7;
    std::vector<double> levels;
    const SplitBound bound = [&](uint64_t seed, double level) -> Result<double> {
      levels.push_back(level);
      for (int64_t j = 0; j < b; ++j) {
        if (seed == DeriveSeed(7, {3, static_cast<uint64_t>(j)})) return (j * 37 % b) * 0.5;
      }
      return Error("unexpected seed");
    };
    const MultiSplitResult r = MultiSplit(bound, o).value();
    ASSERT_EQ(r.split_bounds.size(), static_cast<size_t>(b));
    std::vector<double> sorted = r.split_bounds;
    std::sort(sorted.begin(), sorted.end());
    const double median =
        b % 2 ? sorted[b / 2] : (sorted[b / 2 - 1] + sorted[b / 2]) / 2;  // NumPy's median
    EXPECT_EQ(r.bound, median);
    EXPECT_EQ(r.level_alpha, 0.05);
    for (double l : levels) EXPECT_EQ(l, 0.05);
  }
}

TEST(MultiSplit, NamedBoundsAreTheLibrarysSplits) {
  Rng rng = MakeRng(31, {0});
  const std::vector<double> m = Scores(120, 2.0, rng), n = Scores(100, 0.0, rng);
  const double delta = 1e-5, level = 0.025;
  for (uint64_t seed : {5, 6}) {
    const ScoreHalves h = SplitScoreHalves(m, n, seed).value();
    const auto cp = MakeIntervalEstimator("clopper_pearson").value();
    EXPECT_EQ(SplitBoundByName("clopper_pearson", m, n, delta).value()(seed, level).value(),
              SelectSplit(*cp, h, delta, level).value().lower);
    EXPECT_EQ(SplitBoundByName("gaussian_dp", m, n, delta).value()(seed, level).value(),
              GaussianDpSplit(h, delta, level).value().mu_lower);
    OneRunScoreOptions o;
    o.method = OneRunMethod::kOneRunGaussianDp;
    o.delta = delta;
    EXPECT_EQ(SplitBoundByName("one_run_gaussian_dp", m, n, delta).value()(seed, level).value(),
              OneRunSplitBound(m, n, o, seed, level).value());
  }
  MultiSplitOptions o;
  o.num_splits = 9;
  const MultiSplitResult r = MultiSplit(SplitBoundByName("one_run", m, n, 0.0).value(), o).value();
  EXPECT_GT(r.bound, 0.5);
  EXPECT_EQ(r.bound, MultiSplit(SplitBoundByName("one_run", m, n, 0.0).value(), o).value().bound);
}

TEST(MultiSplit, BadInputNamesTheArgument) {
  const SplitBound zero = [](uint64_t, double) -> Result<double> { return 0.0; };
  MultiSplitOptions o;
  o.alpha = 1.0;
  ExpectError(MultiSplit(zero, o).status(), "alpha");
  o = {};
  o.num_splits = 0;
  ExpectError(MultiSplit(zero, o).status(), "num_splits");
  o.num_splits = kMaxMultiSplits + 1;
  ExpectError(MultiSplit(zero, o).status(), "num_splits");
  o = {};
  const SplitBound fails = [](uint64_t, double) -> Result<double> { return Error("no"); };
  ExpectError(MultiSplit(fails, o).status(), "split 0: no");
  const SplitBound nan = [](uint64_t, double) -> Result<double> { return kNaN; };
  ExpectError(MultiSplit(nan, o).status(), "split 0: not finite");
  const std::vector<double> ok = {1, 2, 3}, empty;
  ExpectError(SplitBoundByName("clopper", ok, ok, 0.0).status(), "bound");
  ExpectError(SplitBoundByName("one_run", empty, ok, 0.0).status(), "member_scores");
  ExpectError(SplitBoundByName("one_run", ok, ok, 1.0).status(), "delta");
}

const ScoreMetric kAuc = MakeScoreMetric("auc_mann_whitney", {}).value();

bool SameBytes(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

TEST(Bootstrap, ReplicatesFollowTheDocumentedSeedingAtAnyThreadCount) {
  Rng rng = MakeRng(32, {0});
  const std::vector<double> m = Scores(40, 1.0, rng), n = Scores(30, 0.0, rng);
  BootstrapOptions o;
  o.num_samples = 50;
  o.seed = 99;
  const BootstrapResult r1 = Bootstrap(m, n, kAuc, o).value();
  for (int64_t b = 0; b < o.num_samples; ++b) {
    Rng g(DeriveSeed(99, {4, static_cast<uint64_t>(b)}));
    std::vector<double> rm(m.size()), rn(n.size());
    boost::random::uniform_int_distribution<size_t> pm(0, m.size() - 1), pn(0, n.size() - 1);
    for (double& x : rm) x = m[pm(g)];
    for (double& x : rn) x = n[pn(g)];
    EXPECT_EQ(r1.replicates[b], kAuc(rm, rn).value()) << b;
  }
  o.threads = 3;
  const BootstrapResult r3 = Bootstrap(m, n, kAuc, o).value();
  EXPECT_TRUE(SameBytes(r1.replicates, r3.replicates));
  EXPECT_TRUE(SameBytes(r1.values, r3.values));
  o.seed = 100;
  EXPECT_FALSE(SameBytes(r1.replicates, Bootstrap(m, n, kAuc, o).value().replicates));
}

double Phi(double z) { return boost::math::cdf(boost::math::normal(), z); }
double PhiInv(double p) { return boost::math::quantile(boost::math::normal(), p); }

// Type-7 quantile, written again.
double Type7(std::vector<double> x, double p) {
  std::sort(x.begin(), x.end());
  const double h = p * (x.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(h)), hi = std::min(lo + 1, x.size() - 1);
  return x[lo] + (h - lo) * (x[hi] - x[lo]);
}

TEST(Bootstrap, PercentileBcAndBcaLevels) {
  Rng rng = MakeRng(33, {0});
  const std::vector<double> m = Scores(25, 0.8, rng), n = Scores(20, 0.0, rng);
  BootstrapOptions o;
  o.num_samples = 400;
  o.quantiles = ConfidenceQuantiles(0.9);
  ASSERT_NEAR(o.quantiles[0], 0.05, 1e-15);
  ASSERT_NEAR(o.quantiles[1], 0.95, 1e-15);
  o.bias_correction = false;
  const BootstrapResult pct = Bootstrap(m, n, kAuc, o).value();
  EXPECT_EQ(pct.z0, 0.0);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(pct.levels[i], o.quantiles[i]);
    EXPECT_NEAR(pct.values[i], Type7(pct.replicates, o.quantiles[i]), 1e-15);
  }
  EXPECT_EQ(pct.estimate, kAuc(m, n).value());
  // BC: z0 from the smoothed share of replicates below the estimate.
  o.bias_correction = true;
  const BootstrapResult bc = Bootstrap(m, n, kAuc, o).value();
  EXPECT_TRUE(SameBytes(bc.replicates, pct.replicates));
  const double below = std::count_if(bc.replicates.begin(), bc.replicates.end(),
                                     [&](double v) { return v < bc.estimate; });
  const double z0 = PhiInv((below + 1) / (400 + 2.0));
  EXPECT_NEAR(bc.z0, z0, 1e-12);
  // BCa: the jackknife over all 45 scores, recomputed.
  o.acceleration = true;
  const BootstrapResult bca = Bootstrap(m, n, kAuc, o).value();
  std::vector<double> theta;
  for (size_t i = 0; i < m.size(); ++i) {
    std::vector<double> rest = m;
    rest.erase(rest.begin() + i);
    theta.push_back(kAuc(rest, n).value());
  }
  for (size_t i = 0; i < n.size(); ++i) {
    std::vector<double> rest = n;
    rest.erase(rest.begin() + i);
    theta.push_back(kAuc(m, rest).value());
  }
  double mean = 0, num = 0, den = 0;
  for (double t : theta) mean += t / theta.size();
  for (double t : theta) num += std::pow(mean - t, 3), den += std::pow(mean - t, 2);
  const double a = num / (6 * std::pow(den, 1.5));
  EXPECT_NEAR(bca.acceleration, a, 1e-12);
  ASSERT_NE(a, 0.0);
  for (size_t i = 0; i < 2; ++i) {
    const double zq = PhiInv(o.quantiles[i]);
    const double level_bc = Phi(z0 + (z0 + zq));
    const double level_bca = Phi(z0 + (z0 + zq) / (1 - a * (z0 + zq)));
    EXPECT_NEAR(bc.levels[i], level_bc, 1e-12);
    EXPECT_NEAR(bca.levels[i], level_bca, 1e-12);
    EXPECT_NEAR(bc.values[i], Type7(bc.replicates, level_bc), 1e-12);
    EXPECT_NEAR(bca.values[i], Type7(bca.replicates, level_bca), 1e-12);
  }
  EXPECT_LT(bca.values[0], bca.estimate);
  EXPECT_GT(bca.values[1], bca.estimate);
}

TEST(Bootstrap, BadInputNamesTheArgument) {
  const std::vector<double> ok = {1, 2, 3}, empty, nan = {kNaN};
  BootstrapOptions o;
  ExpectError(Bootstrap(empty, ok, kAuc, o).status(), "member_scores");
  ExpectError(Bootstrap(ok, nan, kAuc, o).status(), "nonmember_scores[0]");
  o.num_samples = 0;
  ExpectError(Bootstrap(ok, ok, kAuc, o).status(), "num_samples");
  o = {};
  o.quantiles = {};
  ExpectError(Bootstrap(ok, ok, kAuc, o).status(), "quantiles");
  o.quantiles = {0.5, 1.0};
  ExpectError(Bootstrap(ok, ok, kAuc, o).status(), "quantiles[1]");
  o = {};
  o.threads = 0;
  ExpectError(Bootstrap(ok, ok, kAuc, o).status(), "threads");
  o = {};
  o.bias_correction = false;
  o.acceleration = true;
  ExpectError(Bootstrap(ok, ok, kAuc, o).status(), "acceleration");
  o = {};
  o.acceleration = true;
  const std::vector<double> big(kMaxJackknifeScores, 1.0);
  ExpectError(Bootstrap(big, ok, kAuc, o).status(), "acceleration");
  // The metric's own error comes back with where it happened.
  o = {};
  const ScoreMetric fails_on_resamples = [&](const std::vector<double>& m,
                                             const std::vector<double>&) -> Result<double> {
    if (m == ok) return 1.0;
    return Error("bad");
  };
  ExpectError(Bootstrap(ok, ok, fails_on_resamples, o).status(), "bootstrap replicate ");
  const ScoreMetric always_fails = [](const std::vector<double>&,
                                      const std::vector<double>&) -> Result<double> {
    return Error("bad");
  };
  ExpectError(Bootstrap(ok, ok, always_fails, o).status(), "the metric on the scores: bad");
  // One score a side with acceleration: the jackknife leaves a side empty.
  o.acceleration = true;
  ExpectError(Bootstrap({1.0}, {2.0}, kAuc, o).status(), "jackknife");
}

}  // namespace
}  // namespace privbench
