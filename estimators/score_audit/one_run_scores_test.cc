// one_run_scores.h against a search over EVERY ROC point with the
// guess-count estimators (so the candidate restriction and the shortcuts
// are checked too), the fixed-threshold counts by hand, the split rebuilt
// from its documented seeding, and the errors.
#include "estimators/score_audit/one_run_scores.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "core/seeding.h"
#include "estimators/accountants/gaussian_dp.h"
#include "estimators/guess_counts/guess_count_registry.h"
#include "estimators/guess_counts/one_run_fdp.h"
#include "estimators/roc/roc.h"

namespace privbench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
using M = OneRunMethod;

std::vector<double> Scores(int n, double mean, double grid, Rng& rng) {
  boost::random::normal_distribution<double> normal(mean, 1.0);
  std::vector<double> x(n);
  for (double& v : x) {
    v = normal(rng);
    if (grid > 0) v = std::round(v / grid) * grid;
  }
  return x;
}

// The method's bound (eps, or mu for the Gaussian curve) at counts and level.
double BoundAt(M method, const GuessCounts& c, double delta, double level) {
  if (method == M::kOneRunGaussianDp) return OneRunGaussianDpMuLowerBound(c, level).value();
  return MakeGuessCountEstimator(OneRunMethodName(method))
      .value()
      ->LowerBound(c, delta, level)
      .value();
}

// The largest bound over every ROC point at level alpha / m.
double Exhaustive(M method, const std::vector<double>& m, const std::vector<double>& n,
                  double delta, double level) {
  const RocCurve roc = ComputeRoc(m, n).value();
  const int64_t total = m.size() + n.size();
  double best = 0;
  for (const OperatingPoint& p : roc.points) {
    best = std::max(best,
                    BoundAt(method, {total, p.counts.tp + p.counts.fp, p.counts.tp}, delta, level));
  }
  return best;
}

double Value(M method, const OneRunScoreBound& b) {
  return method == M::kOneRunGaussianDp ? *b.mu_lower : *b.eps_lower;
}

// Candidates (run ends) and shortcuts lose nothing against every point, for
// every method, with and without delta, ties and no ties. For one_run at
// delta = 0 this is proven (one_run_scores.h); otherwise it is checked here.
TEST(OneRunFromScores, EqualsTheBestOfEveryRocPoint) {
  int positive = 0, cases = 0;
  for (uint64_t seed = 0; seed < 12; ++seed) {
    Rng rng = MakeRng(21, {seed});
    const int P = 30 + static_cast<int>(seed * 7 % 50), N = 25 + static_cast<int>(seed * 5 % 60);
    const double grid = seed % 2 ? 0.25 : 0.0;
    const std::vector<double> m = Scores(P, 2.0 + 0.2 * (seed % 4), grid, rng);
    const std::vector<double> n = Scores(N, 0.0, grid, rng);
    for (M method : {M::kOneRun, M::kOneRunFdp, M::kOneRunGaussianDp}) {
      for (double delta : {0.0, 1e-5}) {
        OneRunScoreOptions o;
        o.method = method;
        o.delta = delta;
        o.alpha = 0.1;
        const OneRunScoreBound b = OneRunFromScores(m, n, o).value();
        const double level = 0.1 / (P + N);
        EXPECT_EQ(b.bonferroni_k, P + N);
        EXPECT_EQ(b.level_alpha, level);
        EXPECT_TRUE(b.valid_confidence_statement);
        const double want = Exhaustive(method, m, n, delta, level);
        EXPECT_NEAR(Value(method, b), want, 1e-12)
            << OneRunMethodName(method) << " seed " << seed << " delta " << delta;
        // The reported counts give the reported bound.
        EXPECT_EQ(BoundAt(method, b.counts, delta, level), Value(method, b));
        ++cases;
        if (want > 0) ++positive;
      }
    }
  }
  EXPECT_GT(positive, cases * 2 / 3);  // the comparison is not of zeros
}

TEST(OneRunFromScores, FixedThresholdCountsByHand) {
  const std::vector<double> m = {5, 4, 4, 3, 1}, n = {4, 2, 0, -1};
  OneRunScoreOptions o;
  o.threshold = 4.0;  // in: members 5, 4, 4 and non-member 4
  o.alpha = 0.05;
  for (M method : {M::kOneRun, M::kOneRunFdp, M::kOneRunGaussianDp}) {
    o.method = method;
    const OneRunScoreBound b = OneRunFromScores(m, n, o).value();
    EXPECT_EQ(b.counts.m, 9);
    EXPECT_EQ(b.counts.r, 4);
    EXPECT_EQ(b.counts.v, 3);
    EXPECT_EQ(b.bonferroni_k, 1);
    EXPECT_EQ(b.level_alpha, 0.05);
    EXPECT_EQ(Value(method, b), BoundAt(method, {9, 4, 3}, 0.0, 0.05));
  }
  o.threshold = kInf;  // no guess
  EXPECT_EQ(*OneRunFromScores(m, n, o).value().mu_lower, 0.0);
}

TEST(OneRunFromScores, GaussianEpsIsTheMusProfileAtDeltaAboveZero) {
  Rng rng = MakeRng(22, {0});
  const std::vector<double> m = Scores(300, 3.0, 0, rng), n = Scores(300, 0.0, 0, rng);
  OneRunScoreOptions o;
  o.method = M::kOneRunGaussianDp;
  o.delta = 1e-5;
  const OneRunScoreBound b = OneRunFromScores(m, n, o).value();
  ASSERT_GT(*b.mu_lower, 0.5);
  EXPECT_EQ(*b.eps_lower, GaussianDpEpsilon(*b.mu_lower, 1e-5).value());
  o.delta = 0;
  const OneRunScoreBound b0 = OneRunFromScores(m, n, o).value();
  EXPECT_EQ(*b0.mu_lower, *b.mu_lower);  // mu does not depend on delta
  EXPECT_FALSE(b0.eps_lower.has_value());
}

// Beyond kMaxOneRunFdpCandidates candidates the f-DP search is reduced (and
// says so); the bound is still the method's at the reported counts.
TEST(OneRunFromScores, FdpCandidateReductionIsReported) {
  Rng rng = MakeRng(23, {0});
  const std::vector<double> m = Scores(4000, 1.0, 0, rng), n = Scores(4000, 0.0, 0, rng);
  OneRunScoreOptions o;
  o.method = M::kOneRunGaussianDp;
  const OneRunScoreBound b = OneRunFromScores(m, n, o).value();
  EXPECT_EQ(b.candidates, kMaxOneRunFdpCandidates);
  EXPECT_NE(b.note.find("reduced"), std::string::npos);
  EXPECT_GT(*b.mu_lower, 0.3);
  EXPECT_EQ(*b.mu_lower, BoundAt(M::kOneRunGaussianDp, b.counts, 0, b.level_alpha));
  o.method = M::kOneRun;  // exhaustive over its candidates
  const OneRunScoreBound s = OneRunFromScores(m, n, o).value();
  EXPECT_GT(s.candidates, kMaxOneRunFdpCandidates);
  EXPECT_EQ(s.note.find("reduced"), std::string::npos);
}

// The split rebuilt from its documentation: the pooled Fisher-Yates
// permutation, the selection half's best threshold over every ROC point at
// `level`, the audit half's counts there.
TEST(OneRunSplitBound, RebuiltFromItsDocumentedSeeding) {
  Rng data = MakeRng(24, {0});
  const std::vector<double> m = Scores(70, 2.5, 0, data), n = Scores(90, 0.0, 0, data);
  for (M method : {M::kOneRun, M::kOneRunGaussianDp}) {
    for (uint64_t seed : {1, 2, 3}) {
      const size_t P = m.size(), total = P + n.size();
      std::vector<size_t> perm(total);
      std::iota(perm.begin(), perm.end(), size_t{0});
      Rng rng(DeriveSeed(seed, {2}));
      for (size_t i = total - 1; i > 0; --i) {
        std::swap(perm[i], perm[boost::random::uniform_int_distribution<size_t>(0, i)(rng)]);
      }
      std::vector<double> sm, sn, am, an;
      for (size_t k = 0; k < total; ++k) {
        const size_t i = perm[k];
        auto& side = i < P ? (k < total / 2 ? sm : am) : (k < total / 2 ? sn : an);
        side.push_back(i < P ? m[i] : n[i - P]);
      }
      const RocCurve roc = ComputeRoc(sm, sn).value();
      const double level = 0.025;
      double best = 0, threshold = kInf;
      for (const OperatingPoint& p : roc.points) {
        const double b = BoundAt(
            method, {static_cast<int64_t>(total / 2), p.counts.tp + p.counts.fp, p.counts.tp}, 0,
            level);
        if (b > best) best = b, threshold = p.threshold;
      }
      int64_t tp = 0, fp = 0;
      for (double s : am) tp += s >= threshold;
      for (double s : an) fp += s >= threshold;
      const double want =
          BoundAt(method, {static_cast<int64_t>(total - total / 2), tp + fp, tp}, 0, level);
      OneRunScoreOptions o;
      o.method = method;
      EXPECT_EQ(OneRunSplitBound(m, n, o, seed, level).value(), want)
          << OneRunMethodName(method) << " seed " << seed;
    }
  }
}

void ExpectError(const Status& s, const std::string& prefix) {
  ASSERT_FALSE(s.ok()) << prefix;
  EXPECT_EQ(s.message().rfind(prefix, 0), 0u) << s.message();
}

TEST(OneRunFromScores, BadInputNamesTheArgument) {
  const std::vector<double> ok = {1, 2, 3}, empty, nan = {1, kNaN};
  OneRunScoreOptions o;
  ExpectError(OneRunFromScores(empty, ok, o).status(), "member_scores");
  ExpectError(OneRunFromScores(ok, nan, o).status(), "nonmember_scores[1]");
  for (double alpha : {0.0, 1.0, kNaN, -1.0}) {
    o.alpha = alpha;
    ExpectError(OneRunFromScores(ok, ok, o).status(), "alpha");
  }
  o.alpha = 1e-300;  // alpha / m below the smallest level
  ExpectError(OneRunFromScores(ok, ok, o).status(), "alpha / K");
  o = {};
  for (double delta : {1.0, -0.5, kNaN}) {
    o.delta = delta;
    ExpectError(OneRunFromScores(ok, ok, o).status(), "delta");
  }
  o = {};
  o.threshold = kNaN;
  ExpectError(OneRunFromScores(ok, ok, o).status(), "threshold");
  ExpectError(ParseOneRunMethod("steinke").status(), "method must be");
  EXPECT_EQ(ParseOneRunMethod("one_run_fdp").value(), M::kOneRunFdp);
  ExpectError(OneRunSplitBound(ok, ok, {}, 0, 0.0).status(), "alpha");
  ExpectError(OneRunSplitBound(ok, empty, {}, 0, 0.05).status(), "nonmember_scores");
  // No guess is better than chance: every bound 0, never NaN.
  o = {};
  for (M method : {M::kOneRun, M::kOneRunFdp, M::kOneRunGaussianDp}) {
    o.method = method;
    const OneRunScoreBound b = OneRunFromScores({0, 1}, {2, 3}, o).value();
    EXPECT_EQ(Value(method, b), 0.0);
    EXPECT_EQ(b.threshold, kInf);
    EXPECT_EQ(b.counts.r, 0);
  }
}

}  // namespace
}  // namespace privbench
