#include "estimators/score_audit/score_audit.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/seeding.h"
#include "estimators/accountants/gaussian_dp.h"
#include "estimators/interval_registry.h"

namespace privbench {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
using S = ThresholdSelection;

// Brute force over every ROC point with the tie rule: larger lower end, then
// smaller upper end (+inf for one-sided methods), then the first point.
struct BestPoint {
  size_t index = 0;
  double lower = -1, upper = kInf;
};
BestPoint BestRocPoint(const std::string& method, const RocCurve& roc, double delta, double level) {
  auto m = MakeIntervalEstimator(method).value();
  BestPoint best;
  for (size_t i = 0; i < roc.points.size(); ++i) {
    const EpsInterval e = m->Estimate(roc.points[i].counts, delta, level).value();
    const double hi = e.upper ? *e.upper : kInf;
    if (e.lower > best.lower || (e.lower == best.lower && hi < best.upper)) {
      best = {i, e.lower, hi};
    }
  }
  return best;
}

ScoreAuditOptions Options(std::vector<std::string> methods, std::vector<S> selections,
                          double alpha = 0.05, double delta = 1e-5, uint64_t seed = 0) {
  ScoreAuditOptions o;
  o.alpha = alpha;
  o.delta = delta;
  o.seed = seed;
  o.methods = std::move(methods);
  o.selections = std::move(selections);
  return o;
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// n draws of N(mean, 1).
std::vector<double> Gaussian(int64_t n, double mean, Rng& rng) {
  boost::random::normal_distribution<double> normal(mean, 1.0);
  std::vector<double> x(static_cast<size_t>(n));
  for (double& v : x) v = normal(rng);
  return x;
}

// ---- Hand-checked cases ----

// members 5, 3, 1; non-members 4 and nine 0s. Thresholds +inf, 5, 4, 3, 1, 0.
const std::vector<double> kMembers = {5, 3, 1};
const std::vector<double> kNonmembers = {4, 0, 0, 0, 0, 0, 0, 0, 0, 0};

TEST(ScoreAuditTest, RocAucAndTprAtFprByHand) {
  const double alpha = 0.05;
  const ScoreAudit a =
      AuditScores(kMembers, kNonmembers, Options({"clopper_pearson"}, {S::kMaxOverThresholds}))
          .value();
  // (threshold, tp, fp): fn = 3 - tp, tn = 10 - fp.
  const std::vector<std::vector<double>> want = {{kInf, 0, 0}, {5, 1, 0}, {4, 1, 1},
                                                 {3, 2, 1},    {1, 3, 1}, {0, 3, 10}};
  ASSERT_EQ(a.roc.points.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    const OperatingPoint& p = a.roc.points[i];
    EXPECT_EQ(p.threshold, want[i][0]) << i;
    EXPECT_EQ(p.counts.tp, want[i][1]) << i;
    EXPECT_EQ(p.counts.fn, 3 - want[i][1]) << i;
    EXPECT_EQ(p.counts.fp, want[i][2]) << i;
    EXPECT_EQ(p.counts.tn, 10 - want[i][2]) << i;
  }
  // Mann-Whitney over 30 pairs: 5 beats all 10; 3 and 1 each beat the nine 0s.
  EXPECT_NEAR(a.roc.auc, 28.0 / 30.0, 1e-15);

  ASSERT_EQ(a.tpr_at_fpr.size(), 3u);
  // FPR <= 0.001 and <= 0.01 allow no false positive: threshold 5, TPR 1/3.
  for (int i = 0; i < 2; ++i) {
    const TprAtFpr& t = a.tpr_at_fpr[static_cast<size_t>(i)];
    EXPECT_EQ(t.point.threshold, 5.0);
    EXPECT_NEAR(t.tpr, 1.0 / 3.0, 1e-15);
    // Clopper-Pearson, k = 1 of 3: the lower end solves 1 - (1 - x)^3 = alpha/2, the upper
    // end I_x(2, 2) = 3x^2 - 2x^3 = 1 - alpha/2.
    EXPECT_NEAR(t.tpr_lower, 1.0 - std::pow(1.0 - alpha / 2, 1.0 / 3.0), 1e-12);
    const double u = t.tpr_upper;
    EXPECT_NEAR(3 * u * u - 2 * u * u * u, 1.0 - alpha / 2, 1e-12);
  }
  // FPR <= 0.1 allows the 4: threshold 1 flags every member, TPR = 1, CP [(alpha/2)^(1/3), 1].
  EXPECT_EQ(a.tpr_at_fpr[2].max_fpr, 0.1);
  EXPECT_EQ(a.tpr_at_fpr[2].point.threshold, 1.0);
  EXPECT_EQ(a.tpr_at_fpr[2].tpr, 1.0);
  EXPECT_NEAR(a.tpr_at_fpr[2].tpr_lower, std::pow(alpha / 2, 1.0 / 3.0), 1e-12);
  EXPECT_EQ(a.tpr_at_fpr[2].tpr_upper, 1.0);
}

TEST(ScoreAuditTest, AucCountsTiesAsOneHalf) {
  // members 2, 1; non-members 2, 1: pairs 2>1, 2=2, 1=1, 1<2 -> (1 + 1/2 + 1/2) / 4.
  const ScoreAudit a =
      AuditScores({2, 1}, {2, 1}, Options({"clopper_pearson"}, {S::kMaxOverThresholds})).value();
  EXPECT_NEAR(a.roc.auc, 0.5, 1e-15);
  ASSERT_EQ(a.roc.points.size(), 3u);  // +inf, 2, 1: ties never split
  EXPECT_EQ(a.roc.points[1].counts.tp, 1);
  EXPECT_EQ(a.roc.points[1].counts.fp, 1);
}

TEST(ScoreAuditTest, MaxOverThresholdsIsTheBestRocPointAndLabelledInvalid) {
  const double alpha = 0.1, delta = 1e-3;
  const ScoreAudit a = AuditScores(kMembers, kNonmembers,
                                   Options({"clopper_pearson", "clopper_pearson_one_sided"},
                                           {S::kMaxOverThresholds}, alpha, delta))
                           .value();
  ASSERT_EQ(a.intervals.size(), 2u);
  for (const AuditInterval& row : a.intervals) {
    const auto [best, best_lo, best_hi] = BestRocPoint(row.method, a.roc, delta, alpha);
    EXPECT_EQ(row.threshold, a.roc.points[best].threshold) << row.method;
    EXPECT_EQ(row.lower, best_lo) << row.method;
    EXPECT_EQ(row.upper, best_hi) << row.method;
    EXPECT_EQ(row.level_alpha, alpha);
    EXPECT_EQ(row.thresholds_considered, 6);
    EXPECT_FALSE(row.valid_confidence_statement);
    EXPECT_TRUE(Contains(row.note, "NOT a valid confidence statement")) << row.note;
  }
  EXPECT_EQ(a.intervals[1].upper, kInf);  // one-sided
  ASSERT_EQ(a.gaussian_dp.size(), 1u);
  EXPECT_FALSE(a.gaussian_dp[0].valid_confidence_statement);
}

TEST(ScoreAuditTest, UserGridBonferroniUsesAlphaOverGOnAllScores) {
  const double alpha = 0.1, delta = 1e-3;
  ScoreAuditOptions o = Options({"clopper_pearson"}, {S::kBonferroni}, alpha, delta);
  o.bonferroni_grid = std::vector<double>{0.5, 2.0, 4.5};
  const ScoreAudit a = AuditScores(kMembers, kNonmembers, o).value();
  EXPECT_EQ(a.bonferroni_grid, *o.bonferroni_grid);
  EXPECT_EQ(a.bonferroni_grid_source, "user grid");
  ASSERT_EQ(a.intervals.size(), 1u);
  const AuditInterval& row = a.intervals[0];
  EXPECT_EQ(row.level_alpha, alpha / 3);
  EXPECT_EQ(row.thresholds_considered, 3);
  EXPECT_TRUE(row.valid_confidence_statement);
  EXPECT_TRUE(Contains(row.note, "user grid, intervals on all the scores")) << row.note;
  EXPECT_TRUE(Contains(a.gaussian_dp[0].note, "bonferroni grid: user grid"))
      << a.gaussian_dp[0].note;
  auto m = MakeIntervalEstimator("clopper_pearson").value();
  double best_lo = -1;
  for (double t : *o.bonferroni_grid) {
    const OperatingPoint p = AtThreshold(kMembers, kNonmembers, t).value();
    best_lo = std::max(best_lo, m->Estimate(p.counts, delta, alpha / 3).value().lower);
  }
  EXPECT_EQ(row.lower, best_lo);
  const OperatingPoint p = AtThreshold(kMembers, kNonmembers, row.threshold).value();
  EXPECT_EQ(row.counts.ToString(), p.counts.ToString());  // counts of all the scores
}

TEST(ScoreAuditTest, SplitAndQuantileGridUseSeparateHalves) {
  Rng rng = MakeRng(1, {0});
  const std::vector<double> m = Gaussian(41, 1.0, rng), n = Gaussian(60, 0.0, rng);
  ScoreAuditOptions o = Options({}, {S::kSplit, S::kBonferroni, S::kMaxOverThresholds});
  o.seed = 3;
  o.bonferroni_quantiles = 5;
  const ScoreAudit a = AuditScores(m, n, o).value();
  // delta > 0: katz_log is skipped, and said so.
  ASSERT_EQ(a.skipped_methods.size(), 1u);
  EXPECT_EQ(a.skipped_methods[0].method, "katz_log");
  EXPECT_TRUE(Contains(a.skipped_methods[0].reason, "delta = 0 only"));
  const size_t nm = a.methods.size();
  EXPECT_EQ(nm, AllIntervalEstimatorNames().size() - 1);
  ASSERT_EQ(a.intervals.size(), 3 * nm);
  ASSERT_EQ(a.gaussian_dp.size(), 3u);
  const ScoreHalves h = SplitScoreHalves(m, n, 3).value();
  EXPECT_EQ(h.select_member.size(), 20u);  // floor(41 / 2)
  EXPECT_EQ(h.audit_member.size(), 21u);
  EXPECT_EQ(h.select_nonmember.size(), 30u);
  EXPECT_EQ(a.bonferroni_grid, CalibrationQuantileGrid(h, 5).value());
  EXPECT_TRUE(std::is_sorted(a.bonferroni_grid.begin(), a.bonferroni_grid.end()));
  for (size_t i = 0; i < nm; ++i) {
    const AuditInterval& split = a.intervals[i];
    const AuditInterval& grid = a.intervals[nm + i];
    const AuditInterval& max = a.intervals[2 * nm + i];
    EXPECT_EQ(split.selection, S::kSplit);
    EXPECT_EQ(grid.selection, S::kBonferroni);
    EXPECT_EQ(max.selection, S::kMaxOverThresholds);
    for (const AuditInterval* r : {&split, &grid}) {  // intervals on the audit half
      EXPECT_EQ(r->counts.positives(), 21);
      EXPECT_EQ(r->counts.negatives(), 30);
      EXPECT_TRUE(r->valid_confidence_statement);
    }
    EXPECT_EQ(split.level_alpha, 0.05);
    EXPECT_EQ(grid.level_alpha, 0.05 / 5);
    EXPECT_EQ(grid.thresholds_considered, 5);
    EXPECT_EQ(split.thresholds_considered,
              static_cast<int64_t>(
                  ComputeRoc(h.select_member, h.select_nonmember).value().points.size()));
    EXPECT_EQ(max.counts.positives(), 41);
    EXPECT_EQ(max.thresholds_considered, static_cast<int64_t>(a.roc.points.size()));
  }
}

// The split's Gaussian-DP row: the threshold of largest mu_lower at level
// alpha / K_select (K_select = 20 + 30 + 1) among every point of the
// selection half's ROC (first on a tie), its mu_lower at alpha on the audit
// half.
TEST(ScoreAuditTest, SplitGaussianDpChoosesAtAlphaOverKOnTheSelectionHalf) {
  Rng rng = MakeRng(1, {0});  // data on which the choice at alpha differs
  const std::vector<double> m = Gaussian(41, 1.0, rng), n = Gaussian(60, 0.0, rng);
  const double alpha = 0.1, delta = 0.05;
  const ScoreAudit a = AuditScores(m, n, Options({}, {S::kSplit}, alpha, delta, 3)).value();
  ASSERT_EQ(a.gaussian_dp.size(), 1u);
  const ScoreHalves h = SplitScoreHalves(m, n, 3).value();
  const RocCurve select = ComputeRoc(h.select_member, h.select_nonmember).value();
  const double level = alpha / 51;
  size_t best = 0;
  double best_mu = -1;
  for (size_t i = 0; i < select.points.size(); ++i) {
    const double mu = GaussianDpAtCounts(select.points[i].counts, delta, level).value().mu_lower;
    if (mu > best_mu) best = i, best_mu = mu;
  }
  const GaussianDpBound& row = a.gaussian_dp[0];
  EXPECT_EQ(row.threshold, select.points[best].threshold);
  const ConfusionCounts audit =
      AtThreshold(h.audit_member, h.audit_nonmember, row.threshold).value().counts;
  EXPECT_EQ(row.counts.ToString(), audit.ToString());
  EXPECT_EQ(row.level_alpha, alpha);
  EXPECT_EQ(row.mu_lower, GaussianDpAtCounts(audit, delta, alpha).value().mu_lower);
  EXPECT_EQ(row.thresholds_considered, static_cast<int64_t>(select.points.size()));
  // The library function of the same choice agrees.
  EXPECT_EQ(GaussianDpSplit(h, delta, alpha).value().mu_lower, row.mu_lower);
}

// ---- Bad input ----

TEST(ScoreAuditTest, BadInputErrorsNameTheArgument) {
  const ScoreAuditOptions ok = Options({"clopper_pearson"}, {S::kSplit, S::kBonferroni});
  EXPECT_EQ(AuditScores({}, {1.0}, ok).message(), "member_scores must be non-empty");
  EXPECT_EQ(AuditScores({1.0}, {}, ok).message(), "nonmember_scores must be non-empty");
  EXPECT_EQ(AuditScores({1.0, NAN}, {1.0}, ok).message(),
            "member_scores[1] must be finite, got nan");
  EXPECT_TRUE(Contains(AuditScores({1.0, 2.0}, {0.0, kInf}, ok).message(), "nonmember_scores[1]"));
  auto with = [&](auto edit) {
    ScoreAuditOptions o = ok;
    edit(o);
    return AuditScores({1, 2, 3}, {0, 1, 2}, o).message();
  };
  EXPECT_TRUE(Contains(with([](auto& o) { o.alpha = 0; }), "alpha"));
  EXPECT_TRUE(Contains(with([](auto& o) { o.alpha = 1.5; }), "alpha"));
  EXPECT_TRUE(Contains(with([](auto& o) { o.delta = 1.0; }), "delta"));
  EXPECT_TRUE(Contains(with([](auto& o) { o.delta = -1e-9; }), "delta"));
  EXPECT_EQ(with([](auto& o) { o.selections.clear(); }), "selections must be non-empty");
  EXPECT_TRUE(Contains(with([](auto& o) {
                         o.selections = {S::kSplit, S::kSplit};
                       }),
                       "selections must not repeat"));
  EXPECT_EQ(with([](auto& o) { o.bonferroni_grid = std::vector<double>{}; }),
            "bonferroni_grid must be non-empty");
  EXPECT_EQ(with([](auto& o) {
              o.bonferroni_grid = std::vector<double>{0.0, NAN};
            }),
            "bonferroni_grid[1] must be finite, got nan");
  EXPECT_TRUE(Contains(with([](auto& o) {
                         o.bonferroni_grid = std::vector<double>{1.0, 0.5};
                       }),
                       "bonferroni_grid must be ascending"));
  EXPECT_TRUE(Contains(with([](auto& o) { o.bonferroni_quantiles = 0; }), "bonferroni_quantiles"));
  EXPECT_TRUE(Contains(with([](auto& o) { o.methods = {"nope"}; }), "methods"));
  EXPECT_TRUE(Contains(with([](auto& o) { o.methods = {"katz_log"}; }), "katz_log"));
  EXPECT_TRUE(Contains(with([](auto& o) {
                         o.methods = {"jeffreys", "jeffreys"};
                       }),
                       "methods must not repeat"));
  // A split needs a member and a non-member in each half.
  const std::string one_member = AuditScores({1.0}, {0.0, 1.0, 2.0}, ok).message();
  EXPECT_TRUE(Contains(one_member, "split") && Contains(one_member, "member_scores")) << one_member;
  const std::string one_non = AuditScores({1.0, 2.0}, {0.0}, ok).message();
  EXPECT_TRUE(Contains(one_non, "split") && Contains(one_non, "nonmember_scores")) << one_non;
  // ... but one score a side is fine where nothing is split.
  EXPECT_TRUE(
      AuditScores({1.0}, {0.0}, Options({"clopper_pearson"}, {S::kMaxOverThresholds})).ok());
}

// The work bound: at most kMaxBonferroniThresholds thresholds, refused
// before any method runs (so the refusal itself is fast), whether or not
// "bonferroni" is among the selections; the bound itself is accepted.
TEST(ScoreAuditTest, BonferroniGridHasAWorkBound) {
  EXPECT_EQ(kMaxBonferroniThresholds, 1000);
  ScoreAuditOptions o = Options({"clopper_pearson"}, {S::kBonferroni});
  std::vector<double> grid(100000);
  for (size_t i = 0; i < grid.size(); ++i) grid[i] = static_cast<double>(i);
  o.bonferroni_grid = grid;
  EXPECT_EQ(AuditScores({1, 2, 3}, {0, 1, 2}, o).message(),
            "bonferroni_grid must have at most 1000 thresholds (the work bound: every method "
            "runs at each), got 100000");
  grid.resize(1001);
  o.bonferroni_grid = grid;
  EXPECT_TRUE(Contains(AuditScores({1, 2, 3}, {0, 1, 2}, o).message(), "at most 1000"));
  grid.resize(1000);
  o.bonferroni_grid = grid;
  const Result<ScoreAudit> at_bound = AuditScores({1, 2, 3}, {0, 1, 2}, o);
  ASSERT_TRUE(at_bound.ok()) << at_bound.message();
  EXPECT_EQ(at_bound->bonferroni_grid.size(), 1000u);

  o.bonferroni_grid.reset();
  o.bonferroni_quantiles = 1001;
  EXPECT_EQ(AuditScores({1, 2, 3}, {0, 1, 2}, o).message(),
            "bonferroni_quantiles must be in [1, 1000] (the work bound: every method runs at "
            "each threshold), got 1001");
  o.selections = {S::kSplit};  // validated even when bonferroni is not requested
  EXPECT_TRUE(Contains(AuditScores({1, 2, 3}, {0, 1, 2}, o).message(), "bonferroni_quantiles"));
  o.selections = {S::kBonferroni};
  o.bonferroni_quantiles = 1000;
  EXPECT_TRUE(AuditScores({1, 2, 3, 4}, {0, 1, 2, 3}, o).ok());
}

TEST(ScoreAuditTest, KatzLogRunsAtDeltaZeroAndGaussianDpEpsIsNotReported) {
  const ScoreAudit a =
      AuditScores(kMembers, kNonmembers, Options({}, {S::kMaxOverThresholds}, 0.05, 0.0)).value();
  EXPECT_TRUE(a.skipped_methods.empty());
  EXPECT_EQ(a.methods, AllIntervalEstimatorNames());
  ASSERT_EQ(a.gaussian_dp.size(), 1u);
  EXPECT_FALSE(a.gaussian_dp[0].eps_lower.has_value());
  EXPECT_TRUE(Contains(a.gaussian_dp[0].note, "delta = 0")) << a.gaussian_dp[0].note;
}

// ---- Seeding ----

void ExpectSameAudit(const ScoreAudit& a, const ScoreAudit& b) {
  ASSERT_EQ(a.intervals.size(), b.intervals.size());
  for (size_t i = 0; i < a.intervals.size(); ++i) {
    const AuditInterval &x = a.intervals[i], &y = b.intervals[i];
    EXPECT_EQ(x.method, y.method);
    EXPECT_EQ(x.threshold, y.threshold);
    EXPECT_EQ(x.counts.ToString(), y.counts.ToString());
    EXPECT_EQ(x.lower, y.lower);
    EXPECT_EQ(x.upper, y.upper);
  }
  ASSERT_EQ(a.gaussian_dp.size(), b.gaussian_dp.size());
  for (size_t i = 0; i < a.gaussian_dp.size(); ++i) {
    EXPECT_EQ(a.gaussian_dp[i].threshold, b.gaussian_dp[i].threshold);
    EXPECT_EQ(a.gaussian_dp[i].mu_lower, b.gaussian_dp[i].mu_lower);
    EXPECT_EQ(a.gaussian_dp[i].eps_lower, b.gaussian_dp[i].eps_lower);
  }
  EXPECT_EQ(a.bonferroni_grid, b.bonferroni_grid);
}

TEST(ScoreAuditTest, SameSeedSameAuditOtherSeedOtherHalves) {
  Rng rng = MakeRng(2, {0});
  const std::vector<double> m = Gaussian(60, 1.5, rng), n = Gaussian(60, 0.0, rng);
  const ScoreAuditOptions o =
      Options({"clopper_pearson", "jeffreys_one_sided"}, {S::kSplit, S::kBonferroni});
  ScoreAuditOptions other = o;
  other.seed = 1;
  const ScoreAudit a = AuditScores(m, n, o).value();
  ExpectSameAudit(a, AuditScores(m, n, o).value());
  // Another seed draws other halves (so its rows may differ).
  const ScoreHalves h0 = SplitScoreHalves(m, n, 0).value(), h1 = SplitScoreHalves(m, n, 1).value();
  EXPECT_NE(h0.select_member, h1.select_member);
  EXPECT_NE(h0.select_nonmember, h1.select_nonmember);
  const ScoreAudit b = AuditScores(m, n, other).value();
  EXPECT_NE(a.bonferroni_grid, b.bonferroni_grid);
}

// ---- Gaussian DP ----

TEST(ScoreAuditTest, GaussianDpAtCountsByHand) {
  // fp = 0 of N and fn = 0 of N: each one-sided upper limit at level a/2 is 1 - (a/2)^(1/N), so
  // mu_lower = -2 Phi^-1(1 - (a/2)^(1/N)).
  const double a = 0.05, delta = 1e-5;
  const GaussianDpBound b = GaussianDpAtCounts({100, 0, 0, 100}, delta, a).value();
  const double u = 1.0 - std::pow(a / 2, 1.0 / 100);
  EXPECT_NEAR(b.fpr_upper, u, 1e-14);
  EXPECT_NEAR(b.fnr_upper, u, 1e-14);
  const double mu = -2 * boost::math::quantile(boost::math::normal(), u);
  EXPECT_NEAR(b.mu_lower, mu, 1e-12);
  EXPECT_NEAR(*b.eps_lower, GaussianDpEpsilon(mu, delta).value(), 1e-9);
  // A worse-than-chance threshold: mu_lower clamps at 0 and so does eps.
  const GaussianDpBound worse = GaussianDpAtCounts({10, 90, 90, 10}, delta, a).value();
  EXPECT_EQ(worse.mu_lower, 0.0);
  EXPECT_EQ(*worse.eps_lower, 0.0);
  // Everybody flagged: FPR_u = 1, mu_lower = 0.
  EXPECT_EQ(GaussianDpAtCounts({100, 0, 100, 0}, delta, a).value().mu_lower, 0.0);
  EXPECT_FALSE(GaussianDpAtCounts({100, 0, 0, 100}, 0.0, a).value().eps_lower.has_value());
  EXPECT_TRUE(Contains(GaussianDpAtCounts({100, 0, 0, 100}, 1.0, a).message(), "delta"));
  EXPECT_TRUE(Contains(GaussianDpAtCounts({100, 0, 0, 100}, delta, 0.0).message(), "alpha"));
}

}  // namespace
}  // namespace privbench

namespace privbench {
namespace {

// The largest lower end of `method` over every ROC point (the exhaustive
// search the candidates replace).
double ExhaustiveLowerEnd(const std::string& method, const RocCurve& roc, double delta,
                          double alpha) {
  auto m = MakeIntervalEstimator(method).value();
  double best = -1.0;
  for (const OperatingPoint& p : roc.points) {
    best = std::max(best, m->Estimate(p.counts, delta, alpha).value().lower);
  }
  return best;
}

double ExhaustiveMuLower(const RocCurve& roc, double delta, double alpha) {
  double best = -1.0;
  for (const OperatingPoint& p : roc.points) {
    best = std::max(best, GaussianDpAtCounts(p.counts, delta, alpha).value().mu_lower);
  }
  return best;
}

// Split and max_over_thresholds evaluated every method at
// every ROC point (10^4 scores a side with the default methods: 45.7 s; 2
// members against 10^6 non-members: 35.9 s with one method).
TEST(ScoreAuditTest, SplitAndMaxOverThresholdsHaveAWorkBound) {
  Rng rng(DeriveSeed(37, {7}));
  const std::vector<double> members = Gaussian(2, 3.0, rng), many = Gaussian(1000000, 0.0, rng);
  const ScoreAudit few =
      AuditScores(members, many,
                  Options({"clopper_pearson"}, {S::kSplit, S::kMaxOverThresholds}, 0.05, 1e-5))
          .value();
  for (const AuditInterval& row : few.intervals) {
    EXPECT_LE(row.thresholds_considered, 8) << row.note;  // the corners of a 2-member ROC
    EXPECT_TRUE(Contains(row.note, "corners")) << row.note;
  }
  const double delta = 1e-5, alpha = 0.05;
  const std::vector<double> m = Gaussian(10000, 1.0, rng), n = Gaussian(10000, 0.0, rng);
  const ScoreAudit a =
      AuditScores(m, n, Options({}, {S::kSplit, S::kMaxOverThresholds}, alpha, delta)).value();
  // The split ranks ~10^4 corners and keeps 1025; max_over_thresholds does
  // so for the methods without a bound over counts (the Bayesian ones and
  // katz_log) and searches every corner exactly for the others.
  for (const AuditInterval& row : a.intervals) {
    const bool exact = row.selection == S::kMaxOverThresholds &&
                       MakeIntervalEstimator(row.method).value()->bounds_over_counts();
    if (!exact) {
      EXPECT_LE(row.thresholds_considered, kMaxCandidateThresholds) << row.method;
      EXPECT_TRUE(Contains(row.note, "largest approximate lower end")) << row.note;
      continue;
    }
    EXPECT_GT(row.thresholds_considered, kMaxCandidateThresholds) << row.method;
    EXPECT_TRUE(Contains(row.note, "searched exactly by branch and bound")) << row.note;
    EXPECT_EQ(row.lower, ExhaustiveLowerEnd(row.method, a.roc, delta, alpha)) << row.method;
  }
  EXPECT_LE(a.gaussian_dp[0].thresholds_considered, kMaxCandidateThresholds);  // split
  EXPECT_EQ(a.gaussian_dp[1].mu_lower, ExhaustiveMuLower(a.roc, delta, alpha));
}

// The corners give the exhaustive maximum for the rate-box methods and the
// Gaussian-DP bound (the proof in score_audit.h), here on a ROC of 2,401
// points with few corners, separated and worse-than-chance alike.
TEST(ScoreAuditTest, CornersGiveTheExhaustiveLowerEndOfRateBoxMethods) {
  Rng rng(DeriveSeed(37, {8}));
  for (const double shift : {4.0, -4.0, 0.5}) {
    std::vector<double> m = Gaussian(1200, shift, rng), n = Gaussian(1200, 0.0, rng);
    if (shift == 0.5) {  // many corners in the middle, a long run at each end
      for (double& x : m) x = std::round(x * 4) / 4;
    }
    const double delta = 0.0, alpha = 0.05;
    const ScoreAudit a = AuditScores(m, n,
                                     Options({"clopper_pearson", "clopper_pearson_one_sided",
                                              "jeffreys", "jeffreys_one_sided"},
                                             {S::kMaxOverThresholds}, alpha, delta))
                             .value();
    ASSERT_GT(a.roc.points.size(), static_cast<size_t>(kMaxCandidateThresholds));
    for (const AuditInterval& row : a.intervals) {
      EXPECT_LT(row.thresholds_considered, static_cast<int64_t>(a.roc.points.size()));
      EXPECT_EQ(row.lower, ExhaustiveLowerEnd(row.method, a.roc, delta, alpha))
          << row.method << " shift " << shift << ": " << row.note;
    }
    EXPECT_EQ(a.gaussian_dp[0].mu_lower, ExhaustiveMuLower(a.roc, delta, alpha));
  }
}

// The quantile grid's interpolation overflowed between
// -1e308 and 1e308 ("bonferroni_grid[8] must be finite, got inf").
TEST(ScoreAuditTest, QuantileGridOfExtremeScoresIsFinite) {
  std::vector<double> x;
  for (int i = 0; i < 10; ++i) x.insert(x.end(), {1e308, -1e308});
  const Result<ScoreAudit> a = AuditScores(x, x, Options({"clopper_pearson"}, {S::kBonferroni}));
  ASSERT_TRUE(a.ok()) << a.message();
  for (double t : a->bonferroni_grid) EXPECT_TRUE(std::isfinite(t)) << t;
}

// At alpha / G below the Bayesian methods' 1e-6 the
// default audit failed; the method is now left out of bonferroni alone.
TEST(ScoreAuditTest, AMethodRefusingAlphaOverGIsSkippedForBonferroniOnly) {
  Rng rng(DeriveSeed(37, {10}));
  const std::vector<double> m = Gaussian(40, 1.0, rng), n = Gaussian(40, 0.0, rng);
  for (const auto& [alpha, g] : {std::pair{5e-4, 1000}, std::pair{1e-5, 16}}) {
    ScoreAuditOptions o = Options({}, {S::kSplit, S::kBonferroni}, alpha, 1e-5);
    o.bonferroni_quantiles = g;
    const Result<ScoreAudit> a = AuditScores(m, n, o);
    ASSERT_TRUE(a.ok()) << a.message();
    int skipped = 0;
    for (const SkippedMethod& s : a->skipped_methods) {
      if (Contains(s.reason, "bonferroni only")) {
        ++skipped;
        EXPECT_TRUE(Contains(s.method, "bayesian")) << s.method;
      }
    }
    EXPECT_EQ(skipped, 2);
    int bayesian_split = 0, bayesian_grid = 0;
    for (const AuditInterval& r : a->intervals) {
      if (!Contains(r.method, "bayesian")) continue;
      (r.selection == S::kSplit ? bayesian_split : bayesian_grid) += 1;
    }
    EXPECT_EQ(bayesian_split, 2);
    EXPECT_EQ(bayesian_grid, 0);
  }
}

// Alpha = 1e-100 failed in every selection (Boost's
// inverse Beta in the Gaussian-DP bound gave up).
TEST(ScoreAuditTest, TinyAlphaIsAnswered) {
  Rng rng(DeriveSeed(37, {11}));
  const std::vector<double> m = Gaussian(50, 2.0, rng), n = Gaussian(50, 0.0, rng);
  for (double alpha : {1e-100, 1e-300}) {
    std::vector<S> selections = {S::kSplit, S::kMaxOverThresholds};
    if (alpha > 1e-299) selections.push_back(S::kBonferroni);
    const Result<ScoreAudit> a = AuditScores(m, n, Options({}, selections, alpha, 1e-5));
    ASSERT_TRUE(a.ok()) << a.message();
    for (const GaussianDpBound& g : a->gaussian_dp) {
      EXPECT_TRUE(std::isfinite(g.mu_lower) && g.mu_lower >= 0.0) << g.mu_lower;
    }
    for (const AuditInterval& r : a->intervals) EXPECT_GE(r.lower, 0.0) << r.method;
  }
  // alpha / G below 1e-300 is refused up front, naming both.
  EXPECT_TRUE(Contains(AuditScores(m, n, Options({}, {S::kBonferroni}, 1e-300)).message(),
                       "alpha / G must be >= 1e-300 for bonferroni, got alpha=1e-300 over G=16"));
}

// The split is by position,
// so the same scores in another order give another split; everything else
// is order-free, and passing the scores sorted makes the audit order-free.
TEST(ScoreAuditTest, OnlyTheSplitDependsOnTheInputOrder) {
  Rng rng(DeriveSeed(37, {14}));
  std::vector<double> m = Gaussian(200, 1.0, rng), n = Gaussian(200, 0.0, rng);
  std::vector<double> m2(m.rbegin(), m.rend()), n2(n.rbegin(), n.rend());
  const ScoreAuditOptions o = Options({"clopper_pearson"}, {S::kSplit, S::kMaxOverThresholds});
  const ScoreAudit a = AuditScores(m, n, o).value(), b = AuditScores(m2, n2, o).value();
  EXPECT_EQ(a.roc.auc, b.roc.auc);
  EXPECT_EQ(a.intervals[1].lower, b.intervals[1].lower);  // max_over_thresholds
  EXPECT_NE(a.intervals[0].counts.tp + a.intervals[0].counts.fp * 1000,
            b.intervals[0].counts.tp + b.intervals[0].counts.fp * 1000);
  std::sort(m.begin(), m.end());
  std::sort(n.begin(), n.end());
  std::sort(m2.begin(), m2.end());
  std::sort(n2.begin(), n2.end());
  EXPECT_EQ(AuditScores(m, n, o).value().intervals[0].lower,
            AuditScores(m2, n2, o).value().intervals[0].lower);
}

}  // namespace
}  // namespace privbench

namespace privbench {
namespace {

// ---- bonferroni_all ----

TEST(ScoreAuditTest, BonferroniAllIsTheBestRocPointAtAlphaOverK) {
  const double alpha = 0.1, delta = 1e-3;
  EXPECT_EQ(ParseThresholdSelection("bonferroni_all").value(), S::kBonferroniAll);
  EXPECT_EQ(ThresholdSelectionName(S::kBonferroniAll), "bonferroni_all");
  const ScoreAudit a = AuditScores(kMembers, kNonmembers,
                                   Options({"clopper_pearson", "clopper_pearson_one_sided"},
                                           {S::kBonferroniAll}, alpha, delta))
                           .value();
  const double level = alpha / 14;  // K = 3 + 10 + 1
  ASSERT_EQ(a.intervals.size(), 2u);
  for (const AuditInterval& row : a.intervals) {
    const auto [best, best_lo, best_hi] = BestRocPoint(row.method, a.roc, delta, level);
    EXPECT_EQ(row.selection, S::kBonferroniAll);
    EXPECT_EQ(row.threshold, a.roc.points[best].threshold) << row.method;
    EXPECT_EQ(row.counts.ToString(), a.roc.points[best].counts.ToString());  // all the scores
    EXPECT_EQ(row.lower, best_lo) << row.method;
    EXPECT_EQ(row.upper, best_hi) << row.method;
    EXPECT_EQ(row.level_alpha, level);
    EXPECT_EQ(row.thresholds_considered, 6);
    EXPECT_TRUE(row.valid_confidence_statement);
    EXPECT_TRUE(Contains(row.note, "alpha / K")) << row.note;
  }
  // Level alpha / K rather than alpha: never above max_over_thresholds.
  const ScoreAudit max =
      AuditScores(kMembers, kNonmembers,
                  Options({"clopper_pearson"}, {S::kMaxOverThresholds}, alpha, delta))
          .value();
  EXPECT_LE(a.intervals[0].lower, max.intervals[0].lower);
  ASSERT_EQ(a.gaussian_dp.size(), 1u);
  double best_mu = -1;
  for (const OperatingPoint& p : a.roc.points) {
    best_mu = std::max(best_mu, GaussianDpAtCounts(p.counts, delta, level).value().mu_lower);
  }
  EXPECT_EQ(a.gaussian_dp[0].mu_lower, best_mu);
  EXPECT_EQ(a.gaussian_dp[0].level_alpha, level);
  EXPECT_TRUE(a.gaussian_dp[0].valid_confidence_statement);
}

// Separated scores: the best threshold flags every member and no non-member,
// fn = fp = 0 of 100 each, so mu_lower = -2 Phi^-1(1 - (a/2)^(1/100)) at
// a = alpha / K, K = 201 (GaussianDpAtCountsByHand's formula).
TEST(ScoreAuditTest, BonferroniAllGaussianDpOnSeparatedScoresByHand) {
  std::vector<double> m, n;
  for (int i = 0; i < 100; ++i) {
    m.push_back(10.0 + i);
    n.push_back(-static_cast<double>(i));
  }
  const double alpha = 0.05, delta = 1e-5;
  const ScoreAudit a =
      AuditScores(m, n, Options({"clopper_pearson"}, {S::kBonferroniAll}, alpha, delta)).value();
  const double level = alpha / 201;
  const double u = 1.0 - std::pow(level / 2, 1.0 / 100);
  const GaussianDpBound& g = a.gaussian_dp[0];
  EXPECT_EQ(g.threshold, 10.0);
  EXPECT_EQ(g.counts.fn, 0);
  EXPECT_EQ(g.counts.fp, 0);
  EXPECT_NEAR(g.fpr_upper, u, 1e-14);
  EXPECT_NEAR(g.mu_lower, -2 * boost::math::quantile(boost::math::normal(), u), 1e-12);
  // The same data at level alpha (max_over_thresholds) give a larger bound.
  EXPECT_LT(g.mu_lower, GaussianDpMaxOverThresholds(a.roc, delta, alpha).value().mu_lower);
}

// K counts every score, tied or not (the argument needs K fixed in advance):
// {2, 1} vs {2, 1} has a ROC of 3 points but K = 5.
TEST(ScoreAuditTest, BonferroniAllCountsTiedScoresInK) {
  const ScoreAudit a =
      AuditScores({2, 1}, {2, 1}, Options({"clopper_pearson"}, {S::kBonferroniAll}, 0.05, 0.0))
          .value();
  EXPECT_EQ(a.roc.points.size(), 3u);
  EXPECT_EQ(a.intervals[0].level_alpha, 0.05 / 5);
  EXPECT_EQ(BonferroniAllLevel(a.roc, 0.05).value(), 0.05 / 5);
  EXPECT_TRUE(Contains(BonferroniAllLevel(a.roc, 1e-300).message(),
                       "alpha / K must be >= 1e-300 for bonferroni_all"));
  EXPECT_TRUE(Contains(
      AuditScores({2, 1}, {2, 1}, Options({"clopper_pearson"}, {S::kBonferroniAll}, 1e-300, 0.0))
          .message(),
      "over K=5"));
}

// Only the Clopper-Pearson methods are shown to hold at thresholds taken from
// the data; the others are skipped for bonferroni_all alone.
TEST(ScoreAuditTest, BonferroniAllRunsTheClopperPearsonMethodsOnly) {
  Rng rng(DeriveSeed(34, {4}));
  const std::vector<double> m = Gaussian(60, 1.0, rng), n = Gaussian(60, 0.0, rng);
  const ScoreAudit a =
      AuditScores(m, n, Options({}, {S::kMaxOverThresholds, S::kBonferroniAll}, 0.05, 0.0)).value();
  std::vector<std::string> all_rows;
  for (const AuditInterval& r : a.intervals) {
    if (r.selection == S::kBonferroniAll) all_rows.push_back(r.method);
  }
  EXPECT_EQ(all_rows, (std::vector<std::string>{"clopper_pearson", "clopper_pearson_one_sided"}));
  int skipped = 0;
  for (const SkippedMethod& s : a.skipped_methods) {
    EXPECT_TRUE(Contains(s.reason, "bonferroni_all only")) << s.reason;
    EXPECT_FALSE(HoldsAtDataThresholds(s.method)) << s.method;
    ++skipped;
  }
  EXPECT_EQ(skipped, 5);  // jeffreys x2, bayesian x2, katz_log
  EXPECT_EQ(a.intervals.size(), AllIntervalEstimatorNames().size() + 2);
  auto jeffreys = MakeIntervalEstimator("jeffreys").value();
  EXPECT_TRUE(Contains(SelectBonferroniAll(*jeffreys, a.roc, 0.0, 0.05).message(), "jeffreys"));
}

// On a ROC of more than 1025 points: exhaustive over the corners when they
// number at most 1025 (the corner proof), never above the exhaustive maximum
// beyond.
TEST(ScoreAuditTest, BonferroniAllCandidatesKeepTheExhaustiveMaximum) {
  Rng rng(DeriveSeed(34, {5}));
  const double alpha = 0.05, delta = 1e-5;
  for (const auto& [shift, per_side] : {std::pair{4.0, 1200}, std::pair{1.0, 3000}}) {
    const std::vector<double> m = Gaussian(per_side, shift, rng), n = Gaussian(per_side, 0.0, rng);
    const ScoreAudit a =
        AuditScores(m, n, Options({"clopper_pearson"}, {S::kBonferroniAll}, alpha, delta)).value();
    const double level = alpha / (2 * per_side + 1);
    const double exhaustive = ExhaustiveLowerEnd("clopper_pearson", a.roc, delta, level);
    const double exhaustive_mu = ExhaustiveMuLower(a.roc, delta, level);
    ASSERT_GT(a.roc.points.size(), static_cast<size_t>(kMaxCandidateThresholds));
    // Few corners or thousands: every one searched exactly.
    EXPECT_TRUE(Contains(a.intervals[0].note, "searched exactly")) << a.intervals[0].note;
    EXPECT_EQ(a.intervals[0].lower, exhaustive);
    EXPECT_EQ(a.gaussian_dp[0].mu_lower, exhaustive_mu);
  }
}

// The best of the corners under BestOf's rule (the largest lower end, then
// the smallest upper end, then the earlier corner), point by point: what
// the branch and bound must return.
struct CornerBest {
  double threshold = 0.0, lower = -1.0, upper = 0.0;
};

bool InsideRun(const RocCurve& roc, size_t i) {
  if (i == 0 || i + 1 >= roc.points.size()) return false;
  const ConfusionCounts &a = roc.points[i - 1].counts, &b = roc.points[i].counts,
                        &c = roc.points[i + 1].counts;
  return (a.fp == b.fp && b.fp == c.fp) || (a.fn == b.fn && b.fn == c.fn);
}

int64_t CornerCount(const RocCurve& roc) {
  int64_t corners = 0;
  for (size_t i = 0; i < roc.points.size(); ++i) corners += InsideRun(roc, i) ? 0 : 1;
  return corners;
}

template <typename IntervalAt>
CornerBest BestCornerByHand(const RocCurve& roc, const IntervalAt& interval_at) {
  CornerBest best;
  bool found = false;
  for (size_t i = 0; i < roc.points.size(); ++i) {
    if (InsideRun(roc, i)) continue;
    const auto [lower, upper] = interval_at(roc.points[i].counts);
    if (!found || lower > best.lower || (lower == best.lower && upper < best.upper)) {
      best = CornerBest{roc.points[i].threshold, lower, upper};
      found = true;
    }
  }
  return best;
}

// The branch and bound returns the corner the point-by-point search over
// every corner returns (threshold, lower and upper end alike) for the
// rate-box methods and the Gaussian-DP bound: separated, overlapping,
// identical and worse-than-chance scores, scores with ties, three deltas.
TEST(ScoreAuditTest, BranchAndBoundReturnsThePointByPointBestCorner) {
  Rng rng(DeriveSeed(34, {11}));
  const std::vector<std::string> methods = {"clopper_pearson", "clopper_pearson_one_sided",
                                            "jeffreys", "jeffreys_one_sided"};
  int cases = 0;
  for (const double shift : {3.0, 0.7, 0.0, -1.0}) {
    for (const bool rounded : {false, true}) {
      std::vector<double> m = Gaussian(1500, shift, rng), n = Gaussian(1700, 0.0, rng);
      if (rounded) {  // ties: runs that move fn and fp together
        for (double& x : m) x = std::round(x * 300) / 300;
        for (double& x : n) x = std::round(x * 300) / 300;
      }
      for (const double delta : {0.0, 1e-5, 0.05}) {
        const double alpha = 0.05;
        const ScoreAudit a =
            AuditScores(m, n, Options(methods, {S::kMaxOverThresholds}, alpha, delta)).value();
        ASSERT_GT(a.roc.points.size(), static_cast<size_t>(kMaxCandidateThresholds));
        for (const AuditInterval& row : a.intervals) {
          auto method = MakeIntervalEstimator(row.method).value();
          const CornerBest want = BestCornerByHand(a.roc, [&](const ConfusionCounts& c) {
            const EpsInterval e = method->Estimate(c, delta, alpha).value();
            return std::pair{e.lower, e.upper.value_or(std::numeric_limits<double>::infinity())};
          });
          const std::string where = row.method + " shift " + std::to_string(shift) +
                                    (rounded ? " rounded" : "") + " delta " + std::to_string(delta);
          EXPECT_TRUE(Contains(row.note, "searched exactly")) << where;
          EXPECT_EQ(row.thresholds_considered, CornerCount(a.roc)) << where;
          EXPECT_EQ(row.threshold, want.threshold) << where;
          EXPECT_EQ(row.lower, want.lower) << where;
          EXPECT_EQ(row.upper, want.upper) << where;
          ++cases;
        }
        const CornerBest want_mu = BestCornerByHand(a.roc, [&](const ConfusionCounts& c) {
          return std::pair{GaussianDpAtCounts(c, delta, alpha).value().mu_lower,
                           std::numeric_limits<double>::infinity()};
        });
        EXPECT_EQ(a.gaussian_dp[0].threshold, want_mu.threshold) << shift << " " << delta;
        EXPECT_EQ(a.gaussian_dp[0].mu_lower, want_mu.lower) << shift << " " << delta;
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, 4 * 2 * 3 * 5);
}

// At tiny levels Boost's Beta inverse returned 0 for some lower limits
// without failing, so the limits fell as a count rose and the bound over a
// box missed a point of it; the search then returned threshold +inf with
// [0, inf] where the point-by-point search finds [0, 199.46].
TEST(ScoreAuditTest, BranchAndBoundAtTinyLevels) {
  auto cp = MakeIntervalEstimator("clopper_pearson").value();
  const EpsIntervalBound b =
      cp->BoundOverCounts({16, 12, 500, 500}, {15, 13, 500, 500}, 0, 1e-250).value();
  EXPECT_LE(b.upper_min, *cp->Estimate({16, 12, 500, 500}, 0, 1e-250).value().upper);
  std::vector<double> m, n;
  for (int j = 0; j < 22; ++j) m.push_back(25.5 + 50 * j);
  for (int j = 0; j < 1100; ++j) n.push_back(j);
  for (const double alpha : {2e-300, 1e-250, 1e-200, 1e-150}) {
    const ScoreAudit a =
        AuditScores(m, n,
                    Options({"clopper_pearson", "jeffreys"}, {S::kMaxOverThresholds}, alpha, 0.0))
            .value();
    ASSERT_GT(a.roc.points.size(), static_cast<size_t>(kMaxCandidateThresholds));
    for (const AuditInterval& row : a.intervals) {
      auto method = MakeIntervalEstimator(row.method).value();
      const CornerBest want = BestCornerByHand(a.roc, [&](const ConfusionCounts& c) {
        const EpsInterval e = method->Estimate(c, 0.0, alpha).value();
        return std::pair{e.lower, *e.upper};
      });
      EXPECT_EQ(row.threshold, want.threshold) << row.method << " alpha " << alpha;
      EXPECT_EQ(row.lower, want.lower) << row.method << " alpha " << alpha;
      EXPECT_EQ(row.upper, want.upper) << row.method << " alpha " << alpha;
    }
  }
}

// The bound over a box of counts holds at every counts in the box (lower
// ends at most lower_max, upper ends at least upper_min), for boxes below,
// across and above the band, at two levels and three deltas.
TEST(ScoreAuditTest, RateBoxBoundOverCountsHoldsInTheBox) {
  Rng rng(DeriveSeed(34, {12}));
  std::uniform_int_distribution<int64_t> count(0, 60);
  for (const std::string name :
       {"clopper_pearson", "clopper_pearson_one_sided", "jeffreys", "jeffreys_one_sided"}) {
    auto method = MakeIntervalEstimator(name).value();
    ASSERT_TRUE(method->bounds_over_counts());
    for (int trial = 0; trial < 60; ++trial) {
      const int64_t p = 60, n = 60;
      int64_t fn0 = count(rng), fn1 = count(rng), fp0 = count(rng), fp1 = count(rng);
      if (fn0 > fn1) std::swap(fn0, fn1);
      if (fp0 > fp1) std::swap(fp0, fp1);
      const double delta = trial % 3 == 0 ? 0.0 : (trial % 3 == 1 ? 1e-5 : 0.1);
      const double alpha = trial % 2 == 0 ? 0.05 : 1e-4;
      const ConfusionCounts fewest{p - fn0, fn0, fp0, n - fp0}, most{p - fn1, fn1, fp1, n - fp1};
      const EpsIntervalBound b = method->BoundOverCounts(fewest, most, delta, alpha).value();
      // The four-limit bound is the larger of the two corners' own lower
      // ends, bit for bit (rate_box_method.h).
      EXPECT_EQ(b.lower_max, std::max(method->Estimate(fewest, delta, alpha).value().lower,
                                      method->Estimate(most, delta, alpha).value().lower))
          << name << " fn " << fn0 << ".." << fn1 << " fp " << fp0 << ".." << fp1;
      for (int64_t fn = fn0; fn <= fn1; ++fn) {
        for (int64_t fp = fp0; fp <= fp1; ++fp) {
          const EpsInterval e = method->Estimate({p - fn, fn, fp, n - fp}, delta, alpha).value();
          EXPECT_LE(e.lower, b.lower_max) << name << " fn " << fn << " fp " << fp;
          EXPECT_GE(e.upper.value_or(std::numeric_limits<double>::infinity()), b.upper_min)
              << name << " fn " << fn << " fp " << fp;
        }
      }
    }
  }
  auto bayes = MakeIntervalEstimator("bayesian").value();
  EXPECT_FALSE(bayes->bounds_over_counts());
  auto cp = MakeIntervalEstimator("clopper_pearson").value();
  EXPECT_TRUE(
      Contains(bayes->BoundOverCounts({5, 5, 5, 5}, {5, 5, 5, 5}, 0, 0.05).message(), "no bound"));
  EXPECT_TRUE(Contains(cp->BoundOverCounts({5, 5, 6, 4}, {5, 5, 5, 5}, 0, 0.05).message(),
                       "fewest_errors.fp <= most_errors.fp"));
  EXPECT_TRUE(
      Contains(cp->BoundOverCounts({5, 5, 5, 5}, {5, 6, 5, 5}, 0, 0.05).message(), "same trials"));
}

}  // namespace
}  // namespace privbench
