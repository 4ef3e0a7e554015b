// Tests of what an audit can show at its sample size (power.h): ceilings,
// flag regions, detection probabilities against brute-force replicated
// audits, the perfect-test bound against an earlier review's simulated medians.
#include "experiments/synthetic_data_mia/power.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/seeding.h"
#include "estimators/score_audit/score_audit.h"

namespace privbench::synthetic_data_mia {
namespace {

AuditJudge Cp(double alpha, double eps) { return {false, alpha, 0.0, eps}; }
AuditJudge Gdp(double alpha, double delta, double eps) { return {true, alpha, delta, eps}; }

// The ceilings: one-sided Clopper-Pearson at alpha = 0.05 on 100 +
// 100 scores (50 a side audited): ln((1 - h) / h), h = 1 - 0.025^(1/50),
// 2.57; the worst case's 1,000 + 1,000 at alpha / 2: 4.73.
TEST(Ceiling, ClopperPearsonCeilingsOfTheGamesAndTheWorstCase) {
  const double h50 = 1 - std::pow(0.025, 1.0 / 50), h500 = 1 - std::pow(0.0125, 1.0 / 500);
  EXPECT_NEAR(JudgedCeiling(Cp(0.05, 1), 100, 100).value(), std::log((1 - h50) / h50), 1e-9);
  EXPECT_NEAR(JudgedCeiling(Cp(0.05, 1), 100, 100).value(), 2.57, 0.005);
  EXPECT_NEAR(JudgedCeiling(Cp(0.025, 1), 1000, 1000).value(), std::log((1 - h500) / h500), 1e-9);
  EXPECT_NEAR(JudgedCeiling(Cp(0.025, 1), 1000, 1000).value(), 4.73, 0.005);
  // More releases, a higher ceiling; the Gaussian-DP one is that of
  // mu = 2 Phi^-1(1 - h) at delta.
  EXPECT_GT(JudgedCeiling(Cp(0.05, 1), 1000, 1000).value(),
            JudgedCeiling(Cp(0.05, 1), 100, 100).value());
  EXPECT_GT(JudgedCeiling(Gdp(0.05, 1e-5, 1), 100, 100).value(), 5.0);
  EXPECT_FALSE(JudgedCeiling(Cp(0.05, 1), 1, 100).ok());
}

// The region's flagged counts are exactly those whose judged bound exceeds
// eps (every count checked on a small audit half, both judges).
TEST(Region, FlagsExactlyTheCountsAboveEps) {
  for (const AuditJudge& j : {Cp(0.05, 0.5), Gdp(0.05, 1e-3, 0.3), Cp(0.2, 0.05)}) {
    const int64_t m_in = 23, m_out = 17;
    auto region = MakeFlagRegion(j, m_in, m_out);
    ASSERT_TRUE(region.ok()) << region.message();
    int64_t flagged = 0;
    for (int64_t fp = 0; fp <= m_out; ++fp) {
      for (int64_t fn = 0; fn <= m_in; ++fn) {
        ConfusionCounts c;
        c.tp = m_in - fn;
        c.fn = fn;
        c.fp = fp;
        c.tn = m_out - fp;
        const bool want = JudgeAtCounts(j, c).value() > j.epsilon;
        const bool got = fn <= region->below[fp] || fn >= region->above[fp];
        EXPECT_EQ(got, want) << "fp " << fp << " fn " << fn << " gdp " << j.gaussian_dp;
        flagged += want;
      }
    }
    EXPECT_GT(flagged, 0);
  }
}

// FlagProbability is the exact binomial sum: against direct enumeration.
TEST(Region, FlagProbabilityIsTheBinomialSum) {
  const AuditJudge j = Cp(0.05, 0.4);
  auto region = MakeFlagRegion(j, 12, 15);
  ASSERT_TRUE(region.ok());
  const double fpr = 0.1, fnr = 0.3;
  double want = 0;
  for (int fp = 0; fp <= 15; ++fp) {
    for (int fn = 0; fn <= 12; ++fn) {
      const double p = std::exp(std::lgamma(16) - std::lgamma(fp + 1) - std::lgamma(16 - fp) +
                                fp * std::log(fpr) + (15 - fp) * std::log(1 - fpr) +
                                std::lgamma(13) - std::lgamma(fn + 1) - std::lgamma(13 - fn) +
                                fn * std::log(fnr) + (12 - fn) * std::log(1 - fnr));
      if (fn <= region->below[fp] || fn >= region->above[fp]) want += p;
    }
  }
  EXPECT_NEAR(FlagProbability(*region, fpr, fnr), want, 1e-12);
  EXPECT_GT(want, 0.0);
}

// The law's survival and draws agree (Laplace cell: the atoms at +-1 hold
// P(x <= 0) and P(x >= 1)).
TEST(Law, LaplaceCellSurvivalHasTheAtoms) {
  ScoreLaw law;
  law.kind = ScoreLaw::Kind::kLaplaceCell;
  law.b = 0.5;
  EXPECT_DOUBLE_EQ(Survival(law, false, -1.0), 1.0);
  EXPECT_NEAR(Survival(law, false, 1.0), 0.5 * std::exp(-2.0), 1e-15);  // P(x >= 1), c = 0
  EXPECT_NEAR(Survival(law, true, 1.0), 0.5, 1e-15);                    // P(x >= 1), c = 1
  EXPECT_NEAR(Survival(law, false, -0.999999), 0.5, 1e-6);              // P(x > 0), c = 0
  EXPECT_DOUBLE_EQ(Survival(law, true, 1.5), 0.0);
  // Statistical: 20,000 draws; the share at the top atom within 5 sd
  // (sd <= 0.0036) of 0.5 e^-2 (fixed seed: deterministic).
  Rng rng(5);
  int top = 0;
  for (int i = 0; i < 20000; ++i) top += DrawScore(law, false, rng) == 1.0;
  EXPECT_NEAR(top / 20000.0, 0.5 * std::exp(-2.0), 5 * 0.0036);
  ScoreLaw e;
  e.kind = ScoreLaw::Kind::kEmpirical;
  e.member = {1, 2, 3, 4};
  e.nonmember = {0, 0, 1, 5};
  EXPECT_DOUBLE_EQ(Survival(e, true, 2.5), 0.5);
  EXPECT_DOUBLE_EQ(Survival(e, false, 1.0), 0.5);
}

// The detection probability against brute force: `replicates` split audits
// by the score auditor itself (AuditScores, split selection, one method) on
// scores drawn from the law; the flag share has sd <= 0.5 / sqrt(R). The
// two estimates must agree within 4 combined sd (false-failure probability
// about 6e-5 by the normal approximation; fixed seeds: deterministic).
double BruteForceFlagShare(const ScoreLaw& law, const AuditJudge& j, int64_t n, int replicates) {
  int flagged = 0;
  for (int r = 0; r < replicates; ++r) {
    Rng rng = MakeRng(99, {static_cast<uint64_t>(r)});
    std::vector<double> in, out;
    for (int64_t i = 0; i < n; ++i) in.push_back(DrawScore(law, true, rng));
    for (int64_t i = 0; i < n; ++i) out.push_back(DrawScore(law, false, rng));
    ScoreAuditOptions o;
    o.alpha = j.alpha;
    o.delta = j.delta;
    o.selections = {ThresholdSelection::kSplit};
    o.methods = {"clopper_pearson_one_sided"};
    o.seed = DeriveSeed(7, {static_cast<uint64_t>(r)});
    const ScoreAudit a = AuditScores(in, out, o).value();
    const double bound =
        j.gaussian_dp ? a.gaussian_dp.front().eps_lower.value_or(0.0) : a.intervals.front().lower;
    flagged += bound > j.epsilon;
  }
  return static_cast<double>(flagged) / replicates;
}

TEST(Power, AgreesWithBruteForceAudits) {
  ScoreLaw gauss;
  gauss.mu = 0.7136;  // MST without the noise scaling at eps 1 (13 attributes)
  ScoreLaw laplace;
  laplace.kind = ScoreLaw::Kind::kLaplaceCell;
  laplace.b = 0.75;  // Laplace at 3/4 of its scale on one attribute, eps 1
  struct Case {
    ScoreLaw law;
    AuditJudge judge;
  };
  for (const Case& c : {Case{gauss, Gdp(0.025, 1e-5, 1.0)}, Case{laplace, Cp(0.025, 1.0)}}) {
    const int replicates = 200;
    auto power = AuditDetectionPower(c.law, c.judge, 400, replicates, 3);
    ASSERT_TRUE(power.ok()) << power.message();
    const double brute = BruteForceFlagShare(c.law, c.judge, 400, replicates);
    const double sd = std::sqrt(0.25 / replicates + power->standard_error * power->standard_error);
    EXPECT_NEAR(power->probability, brute, 4 * sd) << "gdp " << c.judge.gaussian_dp;
    EXPECT_GT(power->probability, 0.02);
    EXPECT_LT(power->probability, 0.98);
  }
}

// With no difference between the sides nothing is flagged; more releases
// flag a real difference more often.
TEST(Power, GrowsWithReleasesAndVanishesWithoutSignal) {
  ScoreLaw law;
  law.mu = 0.0;
  EXPECT_LT(AuditDetectionPower(law, Gdp(0.05, 1e-5, 1.0), 200, 10, 1)->probability, 1e-3);
  law.mu = 0.7;
  const double small = AuditDetectionPower(law, Gdp(0.05, 1e-5, 1.0), 200, 20, 1)->probability;
  const double large = AuditDetectionPower(law, Gdp(0.05, 1e-5, 1.0), 2000, 20, 1)->probability;
  EXPECT_LT(small, large);
  EXPECT_FALSE(AuditDetectionPower(law, Gdp(0.05, 1e-5, 1.0), 1, 20, 1).ok());
  EXPECT_FALSE(AuditDetectionPower(law, Gdp(0.05, 1e-5, 1.0), 200, 0, 1).ok());
}

// The perfect-test bound at 5,000 releases a side (alpha / 2 = 0.025, delta
// 1e-5): an earlier review's simulated medians of the split audit are 0.38 eps
// (Gaussian histograms, eps 1: mu = sqrt(2 rho), rho = 0.0305566) and 0.64
// eps (MST, eps 10: mu = sqrt(4 rho / 3), rho = 1.7827); the best fixed
// threshold can only do better, by a little. It grows with the releases
// and is 0 without signal.
TEST(PerfectTest, AboveTheSplitMediansOfTheIssue) {
  const double gauss_1 = PerfectTestBound(std::sqrt(2 * 0.0305566), 0.025, 1e-5, 5000).value();
  EXPECT_GT(gauss_1, 0.38);
  EXPECT_LT(gauss_1, 0.55);
  const double mst_10 = PerfectTestBound(std::sqrt(4 * 1.7827 / 3), 0.025, 1e-5, 5000).value();
  EXPECT_GT(mst_10, 6.4);
  EXPECT_LT(mst_10, 7.0);
  EXPECT_LT(PerfectTestBound(std::sqrt(2 * 0.0305566), 0.025, 1e-5, 1000).value(), gauss_1);
  EXPECT_EQ(PerfectTestBound(0.0, 0.025, 1e-5, 1000).value(), 0.0);
  EXPECT_FALSE(PerfectTestBound(1.0, 0.025, 0.0, 1000).ok());
}

}  // namespace
}  // namespace privbench::synthetic_data_mia
