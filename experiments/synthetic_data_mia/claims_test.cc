// Tests of the claims' building blocks and rules (claims.h) on hand-made
// Results: each rule can hold, fail and be inconclusive.
#include "experiments/synthetic_data_mia/claims.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "experiments/synthetic_data_mia/compute.h"

namespace privbench::synthetic_data_mia {
namespace {

// P(U >= u) by enumerating every split of the pooled values (midranks).
double BruteForceUpperTail(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<double> pooled = x;
  pooled.insert(pooled.end(), y.begin(), y.end());
  auto rank_sum = [&](unsigned mask) {
    double s = 0;
    for (size_t i = 0; i < pooled.size(); ++i) {
      if (!(mask >> i & 1u)) continue;
      double less = 0, equal = 0;
      for (double v : pooled) less += v < pooled[i], equal += v == pooled[i];
      s += less + (equal + 1) / 2;
    }
    return s;
  };
  const double observed = rank_sum((1u << x.size()) - 1);
  double hits = 0, total = 0;
  for (unsigned mask = 0; mask < (1u << pooled.size()); ++mask) {
    if (static_cast<size_t>(__builtin_popcount(mask)) != x.size()) continue;
    total += 1;
    hits += rank_sum(mask) >= observed - 1e-9;
  }
  return hits / total;
}

TEST(RankSum, ExactTailsAgainstEnumeration) {
  // Separated: U = n_x n_y, p = 1 / C(4, 2).
  RankSumTest t = ExactRankSumTest({3, 4}, {1, 2});
  EXPECT_DOUBLE_EQ(t.u, 4.0);
  EXPECT_NEAR(t.p_greater, 1.0 / 6, 1e-12);
  EXPECT_NEAR(t.p_less, 1.0, 1e-12);
  // With ties and NaN (dropped), against every split.
  const std::vector<double> x = {0.5, 0.7, 0.7, 0.9, std::nan("")}, y = {0.5, 0.6, 0.7, 0.2, 0.3};
  t = ExactRankSumTest(x, y);
  EXPECT_EQ(t.n_x, 4);
  EXPECT_EQ(t.n_y, 5);
  EXPECT_NEAR(t.p_greater, BruteForceUpperTail({0.5, 0.7, 0.7, 0.9}, y), 1e-12);
  EXPECT_NEAR(t.p_less, BruteForceUpperTail(y, {0.5, 0.7, 0.7, 0.9}), 1e-12);
  // All tied: no evidence either way.
  t = ExactRankSumTest({1, 1}, {1, 1, 1});
  EXPECT_DOUBLE_EQ(t.p_greater, 1.0);
  EXPECT_DOUBLE_EQ(t.p_less, 1.0);
  EXPECT_DOUBLE_EQ(ExactRankSumTest({}, {1}).p_greater, 1.0);
}

// A sweep of n outliers and n random targets, one game each with one
// attack of AUC `outlier_auc + t * step` (outliers) or `random_auc + ...`.
Results Sweep(int n, double outlier_auc, double random_auc) {
  Results r;
  r.cases = {MakeCase("chow_liu", 1.0, 1e-5, "").value()};
  r.targets = {{"outlier", {0}, 1.0}};
  r.sweep.attacks = {"dcr_hamming"};
  r.sweep.cases = {0};
  for (int t = 0; t < 2 * n; ++t) {
    const bool outlier = t < n;
    r.sweep.targets.push_back({outlier ? "outlier" : "random", {t}, outlier ? 5.0 : 1.0});
    GameResult g;
    g.target_index = t;
    g.adversary = "fixed";
    AttackOutcome o;
    o.attack = "dcr_hamming";
    o.auc = (outlier ? outlier_auc : random_auc) + 0.001 * (t % n);
    g.attacks = {o, o};
    g.attacks[1].auc += 0.01;
    r.sweep.games.push_back(g);
  }
  return r;
}

TEST(Outliers, JudgedOverTargets) {
  const std::vector<double> e = TargetExposure(Sweep(2, 0.6, 0.5).sweep);
  EXPECT_NEAR(e[0], 0.605, 1e-12);  // mean over the game's two attacks
  EXPECT_NEAR(e[3], 0.506, 1e-12);
  const JudgedClaim holds = OutliersLeakMoreClaim(Sweep(20, 0.6, 0.5), 0.05);
  EXPECT_TRUE(holds.claim.holds) << holds.claim.evidence;
  EXPECT_FALSE(holds.inconclusive);
  EXPECT_DOUBLE_EQ(holds.holds_fraction, 1.0);
  const JudgedClaim reverse = OutliersLeakMoreClaim(Sweep(20, 0.5, 0.6), 0.05);
  EXPECT_FALSE(reverse.claim.holds);
  EXPECT_FALSE(reverse.inconclusive);
  // Two against two cannot go below p = 1/6: inconclusive however separated.
  const JudgedClaim small = OutliersLeakMoreClaim(Sweep(2, 0.9, 0.5), 0.05);
  EXPECT_FALSE(small.claim.holds);
  EXPECT_TRUE(small.inconclusive);
  EXPECT_NE(small.claim.evidence.find("p = 0.1667"), std::string::npos) << small.claim.evidence;
}

// Pairs of games (fixed, random) per (case, target): `n` pairs on a DP case
// and `n` on a non-private one, each attack's bound from the given ones.
Results FixedRandomPairs(int n, double dp_black, double dp_white, double np_black) {
  Results r;
  r.cases = {MakeCase("independent_laplace", 1.0, 1e-5, "").value(),
             MakeCase("independent", 1.0, 1e-5, "").value()};
  r.targets = {{"outlier", {0}, 1.0}};
  for (int64_t c = 0; c < 2; ++c) {
    for (int t = 0; t < n; ++t) {
      for (const char* adversary : {"fixed", "random"}) {
        const bool fixed = std::string(adversary) == "fixed";
        GameResult g;
        g.case_index = c;
        g.target_index = t;
        g.adversary = adversary;
        AttackOutcome black, white;
        black.attack = "dcr_hamming";
        white.attack = "white_box";
        black.cp_eps_lower = fixed ? (c == 0 ? dp_black : np_black) : 0.1;
        white.cp_eps_lower = fixed ? dp_white : 0.1;
        g.attacks = {black, white};
        r.games.push_back(g);
      }
    }
  }
  return r;
}

TEST(FixedRandom, OneUnitPerGamePairPerStratum) {
  const std::vector<StratumTest> s = FixedRandomStrata(FixedRandomPairs(10, 0.5, 0.05, 0.1));
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].test.greater, 10);  // black-box, DP
  EXPECT_EQ(s[1].test.less, 10);     // white-box, DP
  EXPECT_EQ(s[2].test.pairs, 10);    // black-box, non-private: all tied
  EXPECT_EQ(s[2].test.greater + s[2].test.less, 0);
}

TEST(FixedRandom, BlackBoxEstablishesWhiteBoxOnlyRefutes) {
  // Black box for the fixed adversary in 10 of 10 DP pairs (p = 2^-10),
  // nothing elsewhere: holds.
  JudgedClaim j = FixedBeatsRandomClaim(FixedRandomPairs(10, 0.5, 0.1, 0.1), 0.05);
  EXPECT_TRUE(j.claim.holds) << j.claim.evidence;
  // The white-box stratum alone: inconclusive.
  j = FixedBeatsRandomClaim(FixedRandomPairs(10, 0.1, 0.5, 0.1), 0.05);
  EXPECT_FALSE(j.claim.holds);
  EXPECT_TRUE(j.inconclusive);
  // A significant reversal anywhere, white box included: does not hold.
  j = FixedBeatsRandomClaim(FixedRandomPairs(10, 0.5, 0.05, 0.1), 0.05);
  EXPECT_FALSE(j.claim.holds);
  EXPECT_FALSE(j.inconclusive);
  // Too few pairs for alpha / 3: 4 of 4 gives p = 1/16 > 0.0167.
  j = FixedBeatsRandomClaim(FixedRandomPairs(4, 0.5, 0.1, 0.5), 0.05);
  EXPECT_TRUE(j.inconclusive);
}

// One game of a Laplace case at eps 1 with two attacks whose ceilings are
// `ceilings` and bounds `bounds`.
Results ViolationGames(const std::vector<double>& ceilings, const std::vector<double>& bounds) {
  Results r;
  r.cases = {MakeCase("independent_laplace", 1.0, 1e-5, "").value()};
  r.targets = {{"outlier", {0}, 1.0}};
  GameResult g;
  for (size_t a = 0; a < ceilings.size(); ++a) {
    AttackOutcome o;
    o.attack = "dcr_hamming";
    o.judged_ceiling = ceilings[a];
    o.cp_eps_lower = bounds[a];
    g.attacks.push_back(o);
  }
  r.games = {g};
  return r;
}

TEST(NoViolation, OnlyAuditsThatCouldExceedAreJudged) {
  const ViolationCount v = CountViolations(ViolationGames({0.8, 2.57}, {0.5, 0.2}));
  EXPECT_EQ(v.audits, 2);
  EXPECT_EQ(v.could_exceed, 1);
  EXPECT_EQ(v.exceed, 0);
  JudgedClaim j = NoViolationClaim(ViolationGames({0.8, 0.9}, {0.5, 0.2}), 0.05);
  EXPECT_TRUE(j.inconclusive);  // no audit could have failed
  EXPECT_FALSE(j.claim.holds);
  j = NoViolationClaim(ViolationGames({0.8, 2.57}, {0.5, 0.2}), 0.05);
  EXPECT_TRUE(j.claim.holds);
  EXPECT_NE(j.claim.evidence.find("1 of 2 audits"), std::string::npos) << j.claim.evidence;
  j = NoViolationClaim(ViolationGames({2.57}, {1.5}), 1e-6);
  EXPECT_FALSE(j.claim.holds);
  EXPECT_FALSE(j.inconclusive);
}

// Worst-case bug audits with their power rows.
Results BugAudits(double paper_power, bool counterpart_flagged) {
  Results r;
  r.targets = {{"outlier", {0}, 1.0}};
  for (const char* bug : {"", "laplace_half_scale"}) {
    WorstCaseResult w;
    w.spec = MakeCase("independent_laplace", 1.0, 1e-5, bug).value();
    w.attributes = 1;
    w.bug_audit = true;
    w.flagged = std::string(bug).empty() ? counterpart_flagged : true;
    w.attacks.resize(2);
    r.worst_case.push_back(w);
  }
  BugPower low, high;
  low.worst_case = high.worst_case = 1;
  low.attack = "dcr_hamming";
  high.attack = "white_box";
  low.paper.probability = 0.1;
  high.paper.probability = paper_power;
  high.quick.probability = 0.3;
  r.bug_power = {low, high};
  return r;
}

TEST(Bugs, EachBugNeedsPowerAtPaperScale) {
  const std::vector<BugDetection> d = BugDetections(BugAudits(0.95, false));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_DOUBLE_EQ(d[0].paper, 0.95);  // the larger row
  EXPECT_DOUBLE_EQ(d[0].quick, 0.3);
  EXPECT_TRUE(BugsFlaggedClaim(BugAudits(0.95, false)).holds);
  EXPECT_FALSE(BugsFlaggedClaim(BugAudits(0.85, false)).holds);
  EXPECT_FALSE(BugsFlaggedClaim(BugAudits(0.95, true)).holds);  // a correct one flagged
  Results none = BugAudits(0.95, false);
  none.bug_power.clear();  // no power: NaN fails
  EXPECT_FALSE(BugsFlaggedClaim(none).holds);
}

// black_box_far_below on one Gaussian-histogram case at eps 10: black-box
// bound `black` (ceiling `ceiling`), worst case `worst`, perfect test
// `perfect`.
Results FarBelow(double black, double ceiling, double worst, double perfect) {
  Results r;
  r.cases = {MakeCase("independent_gaussian", 10.0, 1e-5, "").value()};
  r.targets = {{"outlier", std::vector<int32_t>(13, 0), 1.0}};
  r.perfect_test = {perfect};
  GameResult g;
  for (const std::string& a : AttackNames()) {
    AttackOutcome o;
    o.attack = a;
    o.gdp_eps_lower = IsWhiteBox(a) ? 0.0 : black;
    o.judged_ceiling = ceiling;
    g.attacks.push_back(o);
  }
  r.games = {g};
  WorstCaseResult w;
  w.spec = r.cases[0];
  w.attributes = 13;
  w.attacks.resize(2);
  w.attacks[0].attack = "white_box";
  w.attacks[0].gdp_eps_lower = worst;
  r.worst_case = {w};
  return r;
}

TEST(FarBelow, AgainstThePerfectTest) {
  JudgedClaim j = BlackBoxFarBelowClaim(FarBelow(0.5, 5.0, 7.0, 8.5));
  EXPECT_TRUE(j.claim.holds) << j.claim.evidence;
  EXPECT_NE(j.claim.evidence.find("worst / perfect 0.8235"), std::string::npos) << j.claim.evidence;
  // Black box not far below (0.3 eps), or the worst case short of half the
  // perfect test (0.24): does not hold.
  j = BlackBoxFarBelowClaim(FarBelow(3.0, 5.0, 7.0, 8.5));
  EXPECT_FALSE(j.claim.holds);
  EXPECT_FALSE(j.inconclusive);
  j = BlackBoxFarBelowClaim(FarBelow(0.5, 5.0, 2.0, 8.5));
  EXPECT_FALSE(j.claim.holds);
  EXPECT_FALSE(j.inconclusive);
  // A black-box ceiling below 0.25 eps, or no positive perfect-test bound:
  // that part cannot be decided, inconclusive...
  EXPECT_TRUE(BlackBoxFarBelowClaim(FarBelow(0.5, 2.0, 7.0, 8.5)).inconclusive);
  EXPECT_TRUE(BlackBoxFarBelowClaim(FarBelow(0.5, 5.0, 7.0, 0.0)).inconclusive);
  // ...unless a decided part fails (worst case below the black box).
  j = BlackBoxFarBelowClaim(FarBelow(0.5, 5.0, 0.4, 0.0));
  EXPECT_FALSE(j.claim.holds);
  EXPECT_FALSE(j.inconclusive);
}

}  // namespace
}  // namespace privbench::synthetic_data_mia
