// The score auditor's "multi_split" selection (score_audit.h): each row
// recomputed by brute force from SplitScoreHalves with the derived seeds
// DeriveSeed(seed, {3, j}) (the median of the lower ends, of the upper ends,
// the representative split's threshold and counts), the same medians as
// resampling.h's MultiSplitByName, the other selections' rows unchanged by
// it, its level skips and its errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "core/seeding.h"
#include "estimators/accountants/gaussian_dp.h"
#include "estimators/interval_registry.h"
#include "estimators/score_audit/resampling.h"
#include "estimators/score_audit/score_audit.h"

namespace privbench {
namespace {

using S = ThresholdSelection;

std::vector<double> Gaussian(int64_t n, double mean, double grid, Rng& rng) {
  boost::random::normal_distribution<double> normal(mean, 1.0);
  std::vector<double> x(static_cast<size_t>(n));
  for (double& v : x) v = grid > 0 ? std::round(normal(rng) / grid) * grid : normal(rng);
  return x;
}

double MedianOf(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  const size_t h = x.size() / 2;
  return x.size() % 2 ? x[h] : (x[h - 1] + x[h]) / 2;
}

// Ordered by value, ties by index: the one at position floor((S - 1) / 2).
size_t Representative(const std::vector<double>& x) {
  std::vector<size_t> order(x.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return x[a] < x[b] || (x[a] == x[b] && a < b); });
  return order[(x.size() - 1) / 2];
}

bool SameCounts(const ConfusionCounts& a, const ConfusionCounts& b) {
  return a.tp == b.tp && a.fn == b.fn && a.fp == b.fp && a.tn == b.tn;
}

struct Case {
  int64_t members, nonmembers;
  double grid;  // > 0: scores rounded to it (ties)
  int64_t splits;
  std::vector<std::string> methods;
};

// Every row against SelectSplit and GaussianDpSplit on each split's halves.
void ExpectBruteForce(const Case& c, uint64_t data_seed) {
  Rng rng = MakeRng(data_seed, {0});
  const std::vector<double> m = Gaussian(c.members, 1.0, c.grid, rng);
  const std::vector<double> n = Gaussian(c.nonmembers, 0.0, c.grid, rng);
  const double alpha = 0.1, delta = 1e-5;
  const uint64_t seed = 17;
  ScoreAuditOptions o;
  o.alpha = alpha;
  o.delta = delta;
  o.seed = seed;
  o.methods = c.methods;
  o.selections = {S::kMultiSplit};
  o.multi_split_count = c.splits;
  const ScoreAudit a = AuditScores(m, n, o).value();
  ASSERT_EQ(a.intervals.size(), c.methods.size());
  ASSERT_EQ(a.gaussian_dp.size(), 1u);
  std::vector<ScoreHalves> halves;
  for (int64_t j = 0; j < c.splits; ++j) {
    halves.push_back(
        SplitScoreHalves(m, n, DeriveSeed(seed, {3, static_cast<uint64_t>(j)})).value());
  }
  for (size_t k = 0; k < c.methods.size(); ++k) {
    const auto method = MakeIntervalEstimator(c.methods[k]).value();
    std::vector<AuditInterval> rows;
    std::vector<double> lower, upper;
    for (const ScoreHalves& h : halves) {
      rows.push_back(SelectSplit(*method, h, delta, alpha / 2).value());
      lower.push_back(rows.back().lower);
      upper.push_back(rows.back().upper);
    }
    const AuditInterval& got = a.intervals[k];
    const size_t r = Representative(lower);
    EXPECT_EQ(got.method, c.methods[k]);
    EXPECT_EQ(got.selection, S::kMultiSplit);
    EXPECT_EQ(got.lower, MedianOf(lower)) << c.methods[k];
    EXPECT_EQ(got.upper, MedianOf(upper)) << c.methods[k];
    EXPECT_EQ(got.threshold, rows[r].threshold);
    EXPECT_TRUE(SameCounts(got.counts, rows[r].counts));
    EXPECT_EQ(got.thresholds_considered, rows[r].thresholds_considered);
    EXPECT_EQ(got.level_alpha, alpha / 2);
    EXPECT_TRUE(got.valid_confidence_statement);
    EXPECT_NE(got.note.find("representative split " + std::to_string(r) + " "), std::string::npos)
        << got.note;
    // resampling.h's MultiSplit of the same bound at the audit's seed.
    MultiSplitOptions mo;
    mo.alpha = alpha;
    mo.num_splits = c.splits;
    mo.seed = seed;
    EXPECT_EQ(got.lower, MultiSplitByName(c.methods[k], m, n, delta, mo).value().result.bound);
  }
  std::vector<GaussianDpBound> gdp;
  std::vector<double> mu;
  for (const ScoreHalves& h : halves) {
    gdp.push_back(GaussianDpSplit(h, delta, alpha / 2).value());
    mu.push_back(gdp.back().mu_lower);
  }
  const GaussianDpBound& g = a.gaussian_dp[0];
  const size_t r = Representative(mu);
  EXPECT_EQ(g.selection, S::kMultiSplit);
  EXPECT_EQ(g.mu_lower, MedianOf(mu));
  ASSERT_TRUE(g.eps_lower.has_value());
  EXPECT_EQ(*g.eps_lower, g.mu_lower == 0 ? 0.0 : GaussianDpEpsilon(g.mu_lower, delta).value());
  EXPECT_EQ(g.threshold, gdp[r].threshold);
  EXPECT_TRUE(SameCounts(g.counts, gdp[r].counts));
  EXPECT_EQ(g.fpr_upper, gdp[r].fpr_upper);
  EXPECT_EQ(g.fnr_upper, gdp[r].fnr_upper);
  EXPECT_EQ(g.level_alpha, alpha / 2);
  EXPECT_TRUE(g.valid_confidence_statement);
  MultiSplitOptions mo;
  mo.alpha = alpha;
  mo.num_splits = c.splits;
  mo.seed = seed;
  const NamedMultiSplit named = MultiSplitByName("gaussian_dp", m, n, delta, mo).value();
  EXPECT_EQ(g.mu_lower, named.result.bound);
  EXPECT_EQ(g.eps_lower, named.eps_lower);
}

TEST(ScoreAuditMultiSplit, EachRowIsTheMedianOfItsSplitsRecomputedByBruteForce) {
  // Odd and even S; ties; a two-sided, a one-sided and a Bayesian method.
  ExpectBruteForce({60, 50, 0.0, 7, {"clopper_pearson", "jeffreys_one_sided"}}, 1);
  ExpectBruteForce({41, 64, 0.25, 8, {"clopper_pearson", "bayesian"}}, 2);
  // Halves of 750 scores a side: ROCs beyond 1025 points (the corners).
  ExpectBruteForce({1500, 1500, 0.0, 3, {"clopper_pearson_one_sided"}}, 3);
}

// Adding "multi_split" changes no other row, and it is not a default.
TEST(ScoreAuditMultiSplit, OtherSelectionsAreUnchanged) {
  const std::vector<S> defaults = ScoreAuditOptions{}.selections;
  EXPECT_EQ(std::count(defaults.begin(), defaults.end(), S::kMultiSplit), 0);
  Rng rng = MakeRng(4, {0});
  const std::vector<double> m = Gaussian(80, 1.5, 0.0, rng), n = Gaussian(90, 0.0, 0.0, rng);
  ScoreAuditOptions o;
  o.delta = 1e-5;
  o.seed = 9;
  o.methods = {"clopper_pearson", "jeffreys"};
  o.selections = {S::kSplit, S::kBonferroni, S::kMaxOverThresholds, S::kBonferroniAll};
  const ScoreAudit before = AuditScores(m, n, o).value();
  o.selections = {S::kMultiSplit, S::kSplit, S::kBonferroni, S::kMaxOverThresholds,
                  S::kBonferroniAll};
  o.multi_split_count = 5;
  const ScoreAudit after = AuditScores(m, n, o).value();
  ASSERT_EQ(after.intervals.size(), before.intervals.size() + 2);
  for (size_t i = 0; i < before.intervals.size(); ++i) {
    const AuditInterval &x = before.intervals[i], &y = after.intervals[i + 2];
    EXPECT_EQ(x.selection, y.selection);
    EXPECT_EQ(x.method, y.method);
    EXPECT_EQ(x.lower, y.lower);
    EXPECT_EQ(x.upper, y.upper);
    EXPECT_EQ(x.threshold, y.threshold);
    EXPECT_EQ(x.note, y.note);
  }
  for (size_t i = 0; i < before.gaussian_dp.size(); ++i) {
    EXPECT_EQ(before.gaussian_dp[i].mu_lower, after.gaussian_dp[i + 1].mu_lower);
    EXPECT_EQ(before.gaussian_dp[i].note, after.gaussian_dp[i + 1].note);
  }
  EXPECT_EQ(after.intervals[0].selection, S::kMultiSplit);
  // The same rows whatever else is asked for.
  o.selections = {S::kMultiSplit};
  const ScoreAudit alone = AuditScores(m, n, o).value();
  EXPECT_EQ(alone.intervals[1].lower, after.intervals[1].lower);
  EXPECT_EQ(alone.intervals[1].note, after.intervals[1].note);
  EXPECT_EQ(alone.gaussian_dp[0].mu_lower, after.gaussian_dp[0].mu_lower);
}

TEST(ScoreAuditMultiSplit, NameLevelSkipAndErrors) {
  EXPECT_EQ(ThresholdSelectionName(S::kMultiSplit), "multi_split");
  EXPECT_EQ(ParseThresholdSelection("multi_split").value(), S::kMultiSplit);
  const std::vector<double> m = {3, 4, 5, 6, 7, 8}, n = {0, 1, 2, 3.5, 4.5, 1.5};
  ScoreAuditOptions o;
  o.selections = {S::kMultiSplit};
  o.methods = {"clopper_pearson", "bayesian"};
  o.multi_split_count = 3;
  // bayesian accepts alpha = 1.5e-6 but not alpha / 2 (its floor is 1e-6).
  o.alpha = 1.5e-6;
  const ScoreAudit a = AuditScores(m, n, o).value();
  ASSERT_EQ(a.intervals.size(), 1u);
  EXPECT_EQ(a.intervals[0].method, "clopper_pearson");
  ASSERT_EQ(a.skipped_methods.size(), 1u);
  EXPECT_EQ(a.skipped_methods[0].method, "bayesian");
  EXPECT_EQ(a.skipped_methods[0].reason.rfind("multi_split only: its level alpha / 2 = 7.5e-07", 0),
            0u)
      << a.skipped_methods[0].reason;
  o.alpha = 0.05;
  for (int64_t bad : {int64_t{0}, kMaxMultiSplits + 1}) {
    o.multi_split_count = bad;
    const Status s = AuditScores(m, n, o).status();
    EXPECT_EQ(s.message().rfind("multi_split_count must be in [1, 100000]", 0), 0u) << s.message();
  }
  o.multi_split_count = 3;
  o.alpha = 1e-300;
  EXPECT_EQ(AuditScores(m, n, o).status().message().rfind(
                "alpha / 2 must be >= 1e-300 for multi_split", 0),
            0u);
  o.alpha = 0.05;
  EXPECT_EQ(AuditScores({1.0}, n, o).status().message().rfind("split: each half needs a member", 0),
            0u);
}

}  // namespace
}  // namespace privbench
