// score_metrics.h against computations written here from the definitions:
// the hull by jax-privacy's dominance rule (O(n^3) over every triple), the
// randomised TPR by every pair of ROC points, the accuracy bound by every ROC
// point with Boost's Beta quantiles, the raw-count estimate by every ROC
// point; jax-privacy's documented example; and the errors.
#include "estimators/score_audit/score_metrics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/distributions/beta.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/seeding.h"

namespace privbench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// n draws of N(mean, 1), rounded to `grid` (so that scores tie) when grid > 0.
std::vector<double> Scores(int n, double mean, double grid, Rng& rng) {
  boost::random::normal_distribution<double> normal(mean, 1.0);
  std::vector<double> x(n);
  for (double& v : x) {
    v = normal(rng);
    if (grid > 0) v = std::round(v / grid) * grid;
  }
  return x;
}

RocCurve Roc(const std::vector<double>& m, const std::vector<double>& n) {
  return ComputeRoc(m, n).value();
}

// jax-privacy's _pareto_frontier rule, verbatim, in its own coordinates:
// points (fn, tn) by increasing threshold; point i stays unless some j < i <
// k and a in [0, 1] have x_i = (1-a) x_j + a x_k and y_i <= (1-a) y_j + a y_k.
std::vector<std::pair<int64_t, int64_t>> BruteHullFnTn(const RocCurve& roc) {
  std::vector<std::pair<int64_t, int64_t>> pts;  // (fn, tn), thresholds increasing
  for (auto it = roc.points.rbegin(); it != roc.points.rend(); ++it) {
    pts.push_back({it->counts.fn, it->counts.tn});
  }
  std::vector<std::pair<int64_t, int64_t>> kept;
  for (size_t i = 0; i < pts.size(); ++i) {
    bool dominated = false;
    for (size_t j = 0; j < i && !dominated; ++j) {
      for (size_t k = i + 1; k < pts.size() && !dominated; ++k) {
        const double xj = pts[j].first, xi = pts[i].first, xk = pts[k].first;
        const double yj = pts[j].second, yi = pts[i].second, yk = pts[k].second;
        if (xj == xk) {
          dominated = xi == xj && yi <= std::max(yj, yk);
        } else if (xj <= xi && xi <= xk) {
          const double a = (xi - xj) / (xk - xj);
          dominated = yi <= (1 - a) * yj + a * yk + 1e-9;
        }
      }
    }
    if (!dominated) kept.push_back(pts[i]);
  }
  return kept;
}

// The largest TPR of a test randomising between two ROC points with FPR
// exactly fpr (every pair).
double BruteRandomisedTpr(const RocCurve& roc, double fpr) {
  double best = 0;
  const auto& p = roc.points;
  for (size_t a = 0; a < p.size(); ++a) {
    for (size_t b = 0; b < p.size(); ++b) {
      const double fa = p[a].fpr(), fb = p[b].fpr();
      if (fa == fpr) best = std::max(best, p[a].tpr());
      if (fa < fpr && fpr < fb) {
        const double q = (fpr - fa) / (fb - fa);
        best = std::max(best, (1 - q) * p[a].tpr() + q * p[b].tpr());
      }
    }
  }
  return best;
}

TEST(RocHull, MatchesJaxPrivacysDominanceRule) {
  for (uint64_t seed = 0; seed < 60; ++seed) {
    Rng rng = MakeRng(11, {seed});
    const int P = 1 + static_cast<int>(seed % 13), N = 1 + static_cast<int>(seed % 17);
    const double grid = seed % 3 == 0 ? 0.0 : 0.5;  // ties in two thirds of the cases
    const std::vector<double> m = Scores(P, seed % 2 ? 1.0 : -0.5, grid, rng);
    const std::vector<double> n = Scores(N, 0.0, grid, rng);
    const RocCurve roc = Roc(m, n);
    const std::vector<OperatingPoint> hull = RocHull(roc);
    std::vector<std::pair<int64_t, int64_t>> got;
    for (auto it = hull.rbegin(); it != hull.rend(); ++it) {
      got.push_back({it->counts.fn, it->counts.tn});
    }
    EXPECT_EQ(got, BruteHullFnTn(roc)) << "seed " << seed;
  }
}

// jax-privacy's documented example (CanaryScoreAuditor's docstring):
// non-members 0..99, members 9.5..108.5: TPR at FPR 0.01 rounds to 0.11 and
// the AUROC is 0.595. The Mann-Whitney AUC, by counting: member i beats
// min(100, i + 10) non-members, 5905 of 10^4 pairs.
TEST(ScoreAuc, JaxPrivacysDocumentedExample) {
  std::vector<double> m, n;
  for (int i = 0; i < 100; ++i) {
    n.push_back(i);
    m.push_back(i + 9.5);
  }
  EXPECT_NEAR(ScoreAuc(m, n, AucConvention::kHull).value(), 0.595, 1e-12);
  EXPECT_NEAR(ScoreAuc(m, n, AucConvention::kMannWhitney).value(), 0.5905, 1e-12);
  EXPECT_NEAR(RandomisedTprAtFpr(m, n, 0.01).value(), 0.11, 0.005);
  EXPECT_NEAR(RandomisedTprAtFpr(m, n, 0.01).value(), BruteRandomisedTpr(Roc(m, n), 0.01), 1e-12);
}

TEST(ScoreAuc, HullAreaIsTheBestRandomisedTprIntegrated) {
  for (uint64_t seed = 0; seed < 30; ++seed) {
    Rng rng = MakeRng(12, {seed});
    const std::vector<double> m = Scores(5 + static_cast<int>(seed), 0.7, 0.25, rng);
    const std::vector<double> n = Scores(7 + static_cast<int>(seed % 5), 0.0, 0.25, rng);
    const RocCurve roc = Roc(m, n);
    // Trapezoids of the brute-force randomised TPR at every ROC FPR (the
    // hull is linear between them).
    std::vector<double> f;
    for (const auto& p : roc.points) f.push_back(p.fpr());
    std::sort(f.begin(), f.end());
    f.erase(std::unique(f.begin(), f.end()), f.end());
    double area = 0;
    for (size_t i = 1; i < f.size(); ++i) {
      area += (f[i] - f[i - 1]) *
              (BruteRandomisedTpr(roc, f[i]) + BruteRandomisedTpr(roc, f[i - 1])) / 2;
    }
    const double hull = ScoreAuc(m, n, AucConvention::kHull).value();
    EXPECT_NEAR(hull, area, 1e-12) << seed;
    EXPECT_GE(hull + 1e-15, ScoreAuc(m, n, AucConvention::kMannWhitney).value());
    EXPECT_GE(hull, 0.5 - 1e-15);
  }
}

TEST(ScoreAuc, ClosedForms) {
  // Separated: 1 both ways. Reversed: Mann-Whitney 0, the hull's diagonal 1/2.
  const std::vector<double> low = {0, 1, 2}, high = {5, 6};
  EXPECT_EQ(ScoreAuc(high, low, AucConvention::kMannWhitney).value(), 1.0);
  EXPECT_EQ(ScoreAuc(high, low, AucConvention::kHull).value(), 1.0);
  EXPECT_EQ(ScoreAuc(low, high, AucConvention::kMannWhitney).value(), 0.0);
  EXPECT_EQ(ScoreAuc(low, high, AucConvention::kHull).value(), 0.5);
  // All tied: 1/2 both ways.
  EXPECT_EQ(ScoreAuc({1, 1}, {1, 1, 1}, AucConvention::kHull).value(), 0.5);
  EXPECT_EQ(ScoreAuc({1, 1}, {1, 1, 1}, AucConvention::kMannWhitney).value(), 0.5);
}

TEST(RandomisedTprAtFpr, EveryPairOfRocPoints) {
  for (uint64_t seed = 0; seed < 40; ++seed) {
    Rng rng = MakeRng(13, {seed});
    const std::vector<double> m = Scores(3 + static_cast<int>(seed % 11), 1.0, 0.3, rng);
    const std::vector<double> n = Scores(4 + static_cast<int>(seed % 9), 0.0, 0.3, rng);
    const RocCurve roc = Roc(m, n);
    for (double fpr : {0.0, 0.01, 0.1, 0.25, 1.0 / 3.0, 0.5, 0.9, 1.0}) {
      EXPECT_NEAR(RandomisedTprAtFpr(m, n, fpr).value(), BruteRandomisedTpr(roc, fpr), 1e-12)
          << "seed " << seed << " fpr " << fpr;
    }
  }
}

// Boost's Beta quantile, an independent route to the Clopper-Pearson limit.
double CpUpper(int64_t k, int64_t n, double s) {
  if (k == n) return 1.0;
  return boost::math::quantile(
      boost::math::complement(boost::math::beta_distribution<double>(k + 1.0, n - k + 0.0), s));
}

TEST(MaxAccuracy, EveryRocPoint) {
  for (uint64_t seed = 0; seed < 40; ++seed) {
    Rng rng = MakeRng(14, {seed});
    const std::vector<double> m = Scores(2 + static_cast<int>(seed % 23), 0.8, 0.2, rng);
    const std::vector<double> n = Scores(3 + static_cast<int>(seed % 19), 0.0, 0.2, rng);
    const RocCurve roc = Roc(m, n);
    const int64_t P = m.size(), N = n.size();
    for (std::optional<double> prevalence : {std::optional<double>(), std::optional<double>(0.3)}) {
      const double pi = prevalence.value_or(static_cast<double>(P) / (P + N));
      double acc = 0, upper = 0;
      for (const auto& p : roc.points) {
        acc = std::max(acc, pi * p.tpr() + (1 - pi) * (1 - p.fpr()));
        upper = std::max(
            upper, pi * CpUpper(p.counts.tp, P, 0.05) + (1 - pi) * CpUpper(p.counts.tn, N, 0.05));
      }
      const MaxAccuracy got = MaxAccuracyOfScores(m, n, {prevalence, 0.1}).value();
      EXPECT_NEAR(got.accuracy, acc, 1e-12) << seed;
      EXPECT_NEAR(*got.upper, upper, 1e-10) << seed;
      EXPECT_NEAR(got.tpr_upper, CpUpper(got.upper_point->counts.tp, P, 0.05), 1e-10);
      EXPECT_EQ(got.prevalence, pi);
      EXPECT_FALSE(MaxAccuracyOfScores(m, n, {prevalence, std::nullopt}).value().upper);
    }
  }
}

// The pruned search equals every point on a large sample too (the grid and
// Hoeffding shortcuts are exact).
TEST(MaxAccuracy, PrunedUpperBoundIsExactOnALargeSample) {
  Rng rng = MakeRng(15, {0});
  const std::vector<double> m = Scores(3000, 0.1, 0.0, rng), n = Scores(2000, 0.0, 0.0, rng);
  const RocCurve roc = Roc(m, n);
  double upper = 0;
  for (const auto& p : roc.points) {
    upper = std::max(
        upper, 0.5 * CpUpper(p.counts.tp, 3000, 0.025) + 0.5 * CpUpper(p.counts.tn, 2000, 0.025));
  }
  EXPECT_NEAR(*MaxAccuracyOfScores(m, n, {0.5, 0.05}).value().upper, upper, 1e-10);
}

// The raw-count estimate by its definition: the sup over randomised tests
// with fp >= min_count of log(TPR - delta) - log(FPR), attained at a ROC
// point or at fp = min_count (BruteRandomisedTpr there).
double BruteRaw(const std::vector<double>& m, const std::vector<double>& n, int64_t min_count,
                double delta) {
  const RocCurve roc = Roc(m, n);
  const int64_t N = n.size();
  if (min_count >= N) return 0;
  const double f = static_cast<double>(min_count) / N;
  double best = 0;
  const double t = BruteRandomisedTpr(roc, f);
  if (t > delta) best = std::max(best, std::log(t - delta) - std::log(f));
  for (const auto& p : roc.points) {
    if (p.counts.fp >= min_count && p.tpr() > delta) {
      best = std::max(best, std::log(p.tpr() - delta) - std::log(p.fpr()));
    }
  }
  return best;
}

std::vector<double> Negated(const std::vector<double>& x) {
  std::vector<double> y;
  for (double v : x) y.push_back(-v);
  return y;
}

TEST(RawCountEpsilon, DefinitionOneAndTwoSided) {
  for (uint64_t seed = 0; seed < 40; ++seed) {
    Rng rng = MakeRng(16, {seed});
    const std::vector<double> m = Scores(10 + static_cast<int>(seed % 30), 1.2, 0.1, rng);
    const std::vector<double> n = Scores(12 + static_cast<int>(seed % 25), 0.0, 0.1, rng);
    for (int64_t min_count : {1, 3, 10, 1000}) {
      for (double delta : {0.0, 0.01, 0.2}) {
        const double one = RawCountEpsilon(m, n, {min_count, delta, true}).value();
        EXPECT_NEAR(one, BruteRaw(m, n, min_count, delta), 1e-12)
            << seed << " " << min_count << " " << delta;
        // The reverse test is the forward one on negated scores with the sides swapped.
        const double reverse = BruteRaw(Negated(n), Negated(m), min_count, delta);
        EXPECT_NEAR(RawCountEpsilon(m, n, {min_count, delta, false}).value(),
                    std::max(one, reverse), 1e-12);
      }
    }
  }
}

TEST(ScoreMetrics, NamedMetricsAreTheFunctions) {
  Rng rng = MakeRng(17, {0});
  const std::vector<double> m = Scores(50, 1, 0, rng), n = Scores(60, 0, 0, rng);
  ScoreMetricParams params;
  params.fpr = 0.1;
  params.prevalence = 0.4;
  params.raw_count = {5, 0.01, false};
  const auto value = [&](const std::string& name) {
    return MakeScoreMetric(name, params).value()(m, n).value();
  };
  EXPECT_EQ(value("auc_mann_whitney"), ScoreAuc(m, n, AucConvention::kMannWhitney).value());
  EXPECT_EQ(value("auc_hull"), ScoreAuc(m, n, AucConvention::kHull).value());
  EXPECT_EQ(value("tpr_at_fpr"), RandomisedTprAtFpr(m, n, 0.1).value());
  EXPECT_EQ(value("max_accuracy"), MaxAccuracyOfScores(m, n, {0.4, std::nullopt}).value().accuracy);
  EXPECT_EQ(value("raw_count_epsilon"), RawCountEpsilon(m, n, {5, 0.01, false}).value());
  EXPECT_EQ(ScoreMetricNames().size(), 5u);
}

void ExpectError(const Status& s, const std::string& prefix) {
  ASSERT_FALSE(s.ok()) << prefix;
  EXPECT_EQ(s.message().rfind(prefix, 0), 0u) << s.message();
}

TEST(ScoreMetrics, BadInputNamesTheArgument) {
  const std::vector<double> ok = {1, 2, 3}, empty, nan = {1, kNaN};
  ExpectError(ScoreAuc(empty, ok, AucConvention::kHull).status(), "member_scores");
  ExpectError(ScoreAuc(ok, nan, AucConvention::kHull).status(), "nonmember_scores[1]");
  ExpectError(ParseAucConvention("roc").status(), "convention must be");
  EXPECT_EQ(ParseAucConvention("hull").value(), AucConvention::kHull);
  EXPECT_EQ(AucConventionName(AucConvention::kMannWhitney), "mann_whitney");
  ExpectError(RandomisedTprAtFpr(ok, ok, 1.5).status(), "fpr");
  ExpectError(RandomisedTprAtFpr(ok, ok, kNaN).status(), "fpr");
  ExpectError(RandomisedTprAtFpr(nan, ok, 0.1).status(), "member_scores[1]");
  ExpectError(MaxAccuracyOfScores(ok, ok, {-0.1, std::nullopt}).status(), "prevalence");
  ExpectError(MaxAccuracyOfScores(ok, ok, {std::nullopt, 1.0}).status(), "alpha");
  ExpectError(MaxAccuracyOfScores(ok, ok, {std::nullopt, 0.0}).status(), "alpha");
  ExpectError(MaxAccuracyOfScores(ok, empty, {}).status(), "nonmember_scores");
  ExpectError(RawCountEpsilon(ok, ok, {0, 0.0, true}).status(), "min_count");
  ExpectError(RawCountEpsilon(ok, ok, {1, 1.0, true}).status(), "delta");
  ExpectError(RawCountEpsilon(ok, ok, {1, -0.1, true}).status(), "delta");
  ExpectError(RawCountEpsilon(empty, ok, {}).status(), "member_scores");
  ExpectError(MakeScoreMetric("auc", {}).status(), "metric must be one of");
  ScoreMetricParams p;
  p.fpr = 2;
  ExpectError(MakeScoreMetric("tpr_at_fpr", p).status(), "fpr");
  p.raw_count.min_count = 0;
  ExpectError(MakeScoreMetric("raw_count_epsilon", p).status(), "min_count");
  // Nothing returns NaN on degenerate but valid input: one score a side, all tied.
  EXPECT_EQ(RawCountEpsilon({1}, {1}, {1, 0.0, false}).value(), 0.0);
  EXPECT_EQ(RandomisedTprAtFpr({1}, {1}, 0.0).value(), 0.0);
  EXPECT_EQ(RandomisedTprAtFpr({1}, {1}, 1.0).value(), 1.0);
  EXPECT_EQ(MaxAccuracyOfScores({1}, {1}, {}).value().accuracy, 0.5);
}

}  // namespace
}  // namespace privbench
