#include "experiments/synthetic_data_mia/compute.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "data_scripts/adult_categorical.h"
#include "data_scripts/categorical.h"
#include "experiments/synthetic_data_mia/claims.h"
#include "experiments/synthetic_data_mia/config.h"
#include "experiments/synthetic_data_mia/report.h"
#include "experiments/synthetic_data_mia/targets.h"

namespace privbench::synthetic_data_mia {
namespace {

CategoricalDomain TwoAttributes() {
  return {{"a", "b"}, {3, 2}, {{"a0", "a1", "a2"}, {"b0", "b1"}}};
}

CategoricalTable Rows(const std::vector<std::vector<int32_t>>& rows) {
  CategoricalTable t;
  t.d = 2;
  for (const auto& r : rows) t.Append(r);
  return t;
}

TEST(Targets, OutlierScoreIsMeanDistanceToNearest) {
  // Three equal rows and one differing in both attributes.
  const CategoricalTable t = Rows({{0, 0}, {0, 0}, {0, 0}, {2, 1}});
  const std::vector<double> s = OutlierScores(t, 2);
  EXPECT_DOUBLE_EQ(s[0], 0.0);
  EXPECT_DOUBLE_EQ(s[3], 2.0);
}

TEST(Targets, CanaryTakesTheRarestValues) {
  const CategoricalTable t = Rows({{0, 0}, {0, 0}, {1, 0}, {1, 1}, {0, 0}});
  EXPECT_EQ(RarestValueCanary(t, TwoAttributes()), (std::vector<int32_t>{2, 1}));
}

TEST(Targets, PopulationExcludesEveryCopyOfATarget) {
  const CategoricalTable pool =
      Rows({{0, 0}, {0, 0}, {0, 0}, {0, 0}, {2, 1}, {1, 0}, {1, 0}, {0, 1}});
  Config c;
  c.outlier_pool = 8;
  c.knn_k = 2;
  c.outlier_targets = 1;
  c.random_targets = 0;
  c.canary_target = true;
  auto setup = ChooseTargets(pool, TwoAttributes(), c, 1);
  ASSERT_TRUE(setup.ok()) << setup.message();
  ASSERT_EQ(setup.value().targets.size(), 2u);
  EXPECT_EQ(setup.value().targets[0].kind, "outlier");
  EXPECT_EQ(setup.value().targets[0].record, (std::vector<int32_t>{2, 1}));
  // The canary (rarest values: a2, b1) is the same record: one removal.
  EXPECT_EQ(setup.value().removed_duplicates, 1);
  EXPECT_EQ(setup.value().population.n(), 7);
}

TEST(Targets, TooManyTargetsNamesTheFlags) {
  const CategoricalTable pool = Rows({{0, 0}, {0, 1}, {1, 0}});
  Config c;
  c.outlier_pool = 3;
  c.knn_k = 1;
  c.outlier_targets = 2;
  c.random_targets = 2;
  auto setup = ChooseTargets(pool, TwoAttributes(), c, 1);
  ASSERT_FALSE(setup.ok());
  EXPECT_NE(setup.message().find("outlier_targets + random_targets"), std::string::npos);
}

// The two sides of the game differ exactly by the target: odd releases hold
// D- plus the target, even ones D- alone; a random D- is n_minus distinct
// population rows (the population holds no copy of the target).
TEST(Game, OddReleasesHoldTheTargetAndEvenOnesDoNot) {
  const CategoricalTable population = Rows({{0, 0}, {1, 0}, {0, 1}, {1, 1}, {2, 0}});
  const CategoricalTable fixed = Rows({{0, 0}, {1, 1}});
  const std::vector<int32_t> target = {2, 1};
  auto holds_target = [&](const CategoricalTable& t) {
    for (int64_t i = 0; i < t.n(); ++i) {
      if (t.at(i, 0) == 2 && t.at(i, 1) == 1) return true;
    }
    return false;
  };
  for (int64_t index : {0, 1, 2, 3}) {
    Rng rng(static_cast<uint64_t>(index));
    const CategoricalTable from_fixed = ReleaseData(population, &fixed, target, 2, index, rng);
    const CategoricalTable from_random = ReleaseData(population, nullptr, target, 3, index, rng);
    const bool in = index % 2 == 1;
    EXPECT_EQ(from_fixed.n(), in ? 3 : 2);
    EXPECT_EQ(from_random.n(), in ? 4 : 3);
    EXPECT_EQ(holds_target(from_fixed), in);
    EXPECT_EQ(holds_target(from_random), in);
    EXPECT_EQ(from_fixed.at(0, 0), 0);  // D- first, unchanged
  }
}

TEST(Cases, ZcdpSynthesizersGetTheOptimalRho) {
  auto gauss = MakeCase("independent_gaussian", 1.0, 1e-2, "");
  ASSERT_TRUE(gauss.ok()) << gauss.message();
  // Canonne, Kamath & Steinke's conversion at eps 1, delta 1e-2: rho ~ 0.103.
  EXPECT_NEAR(gauss.value().options.rho, 0.103, 0.002);
  EXPECT_DOUBLE_EQ(gauss.value().audit_delta, 1e-2);
  EXPECT_NEAR(gauss.value().guarantee.mu, std::sqrt(2 * gauss.value().options.rho), 1e-12);
  auto laplace = MakeCase("independent_laplace", 1.0, 1e-2, "laplace_half_scale");
  ASSERT_TRUE(laplace.ok());
  EXPECT_DOUBLE_EQ(laplace.value().audit_delta, 0.0);
  EXPECT_TRUE(laplace.value().options.laplace_half_scale);
  auto nonprivate = MakeCase("chow_liu", 1.0, 1e-2, "");
  ASSERT_TRUE(nonprivate.ok());
  EXPECT_FALSE(nonprivate.value().guarantee.is_private());
}

TEST(Audit, SeparatedScoresGiveAPositiveBoundAndAucOne) {
  auto spec = MakeCase("independent_laplace", 1.0, 1e-5, "");
  ASSERT_TRUE(spec.ok());
  std::vector<double> scores;
  for (int i = 0; i < 400; ++i) scores.push_back(i % 2 == 1 ? 1.0 + i : -1.0 - i);
  auto o = AuditAttack("white_box", scores, 0.0, spec.value(), 0.05, 3);
  ASSERT_TRUE(o.ok()) << o.message();
  EXPECT_DOUBLE_EQ(o.value().auc, 1.0);
  EXPECT_DOUBLE_EQ(o.value().privacy_gain, 0.0);
  EXPECT_GT(o.value().cp_eps_lower, 3.0);  // ln of ~100 in / ~1 out at alpha 0.05
}

// The planted bugs are caught by the worst-case audit and the correct
// synthesizers in the same settings are not. Deterministic (fixed seed); at
// alpha = 0.001 a correct synthesizer is flagged with probability <= 0.001
// per audit, and each bug's true privacy loss is far above the claimed eps
// (half-scale Laplace: 2 eps on one attribute; unscaled MST: Gaussian mu
// about 3.5 times the correct one; domain from the data: the target's values
// appear only when it is in).
TEST(WorstCase, PlantedBugsAreFlaggedAndCorrectSynthesizersAreNot) {
  Config c;
  c.alpha = 0.001;
  c.n_synthetic = 20;
  c.worst_case_trials = 2000;
  const CategoricalDomain adult = AdultCategoricalDomain();
  GameInputs in;
  in.config = &c;
  in.domain = &adult;
  in.seed = 11;
  in.threads = 2;
  struct Expectation {
    const char* synthesizer;
    const char* bug;
    int64_t attributes;
  };
  const Expectation cases[] = {{"independent_laplace", "", 1},
                               {"independent_laplace", "laplace_half_scale", 1},
                               {"independent_laplace", "", 13},
                               {"independent_laplace", "domain_from_data", 13},
                               {"mst", "", 13},
                               {"mst", "mst_unscaled_noise", 13}};
  int64_t index = 0;
  for (const Expectation& e : cases) {
    auto spec = MakeCase(e.synthesizer, 1.0, 1e-5, e.bug);
    ASSERT_TRUE(spec.ok()) << spec.message();
    auto w = RunWorstCase(in, spec.value(), e.attributes, index++);
    ASSERT_TRUE(w.ok()) << w.message();
    EXPECT_EQ(w.value().flagged, std::string(e.bug) != "")
        << e.synthesizer << " [" << e.bug << "] on " << e.attributes
        << " attributes: Clopper-Pearson " << w.value().best_cp_eps_lower
        << ", white-box Gaussian-DP " << w.value().attacks[0].gdp_eps_lower;
  }
}

// A Results with one worst-case audit per (bug, flagged) pair.
Results WorstCaseOnly(const std::vector<std::pair<std::string, bool>>& audits) {
  Results r;
  r.targets = {{"canary", {0, 0}, 1.0}};
  for (const auto& [bug, flagged] : audits) {
    WorstCaseResult w;
    auto spec = MakeCase("independent_laplace", 1.0, 1e-5, bug);
    w.spec = spec.value();
    w.attributes = 1;
    w.flagged = flagged;
    w.bug_audit = true;
    w.attacks.resize(2);
    r.worst_case.push_back(w);
  }
  return r;
}

TEST(Claims, NoViolationCountsCorrectSynthesizersOnly) {
  Results r = WorstCaseOnly({{"laplace_half_scale", true}});
  // The bug's audits exceed eps, but only correct synthesizers count: none
  // is left, so nothing is judged.
  r.worst_case[0].attacks[0].cp_eps_lower = 5.0;
  EXPECT_FALSE(NoViolationClaim(r, 0.05).claim.holds);
  EXPECT_TRUE(NoViolationClaim(r, 0.05).inconclusive);
  r.worst_case[0].spec.bug = "";
  // 1 of 2 audits above eps: allowed by the 0.999 quantile of Binomial(2,
  // 0.05), which is 2 (P[X <= 1] = 0.9975), not by that of Binomial(2, 1e-6), 0.
  EXPECT_TRUE(NoViolationClaim(r, 0.05).claim.holds);
  EXPECT_FALSE(NoViolationClaim(r, 1e-6).claim.holds);
  EXPECT_FALSE(NoViolationClaim(r, 1e-6).inconclusive);
}

// The ceilings the audits record (power.h JudgedCeiling): an audit of 100
// + 100 scores at alpha 0.05 cannot show more than 2.57 (one-sided
// Clopper-Pearson); on the Gaussian histograms the Gaussian-DP one.
TEST(Audit, AuditsRecordTheirCeiling) {
  std::vector<double> scores;
  for (int i = 0; i < 200; ++i) scores.push_back(i % 2 == 1 ? 1.0 + i : -1.0 - i);
  auto laplace = MakeCase("independent_laplace", 10.0, 1e-5, "");
  auto o = AuditAttack("dcr_hamming", scores, 0.0, laplace.value(), 0.05, 3);
  ASSERT_TRUE(o.ok()) << o.message();
  EXPECT_NEAR(o.value().judged_ceiling, 2.57, 0.005);
  EXPECT_NEAR(o.value().cp_eps_lower, o.value().judged_ceiling, 1e-12);  // perfectly separated
  auto gauss = MakeCase("independent_gaussian", 10.0, 1e-5, "");
  auto g = AuditAttack("dcr_hamming", scores, 0.0, gauss.value(), 0.05, 3);
  ASSERT_TRUE(g.ok());
  EXPECT_NEAR(g.value().gdp_eps_lower, g.value().judged_ceiling, 1e-9);
  EXPECT_GT(g.value().judged_ceiling, o.value().judged_ceiling);
}

// The white-box laws of the worst-case pair read off a release: mu^2 = 2 rho
// (Gaussian histograms), 4 rho / 3 (MST), 4 rho for the double-spent step on
// one attribute; the Laplace cell's scale; none where no closed form holds.
TEST(WorstCase, WhiteBoxLawsOfTheWorstCasePair) {
  Config c;
  const CategoricalDomain adult = AdultCategoricalDomain();
  GameInputs in;
  in.config = &c;
  in.domain = &adult;
  auto law = [&](const char* synthesizer, const char* bug, int64_t attributes) {
    return WorstCaseWhiteBoxLaw(in, MakeCase(synthesizer, 1.0, 1e-5, bug).value(), attributes)
        .value();
  };
  const double rho = MakeCase("mst", 1.0, 1e-5, "").value().options.rho;
  EXPECT_NEAR(law("independent_gaussian", "", 13)->mu, std::sqrt(2 * rho), 1e-12);
  EXPECT_NEAR(law("mst", "", 13)->mu, std::sqrt(4 * rho / 3), 1e-12);
  EXPECT_NEAR(law("mst", "mst_unscaled_noise", 13)->mu, std::sqrt(25 * 2 * rho / 3), 1e-12);
  EXPECT_NEAR(law("independent_gaussian", "double_spent_marginal", 1)->mu, std::sqrt(4 * rho),
              1e-12);
  EXPECT_EQ(law("independent_laplace", "one_marginal_low_noise", 1)->kind,
            ScoreLaw::Kind::kLaplaceCell);
  EXPECT_DOUBLE_EQ(law("independent_laplace", "one_marginal_low_noise", 1)->b, 0.75);
  EXPECT_DOUBLE_EQ(law("independent_laplace", "laplace_half_scale", 1)->b, 0.5);
  EXPECT_FALSE(law("independent_laplace", "", 13).has_value());
  EXPECT_FALSE(law("independent_laplace", "domain_from_data", 13).has_value());
  EXPECT_FALSE(law("privbayes", "", 13).has_value());
}

// Every planted bug is audited beside its correct counterpart, none twice.
TEST(WorstCase, PlansHoldEveryBugAndEachCounterpartOnce) {
  Config c;
  const CategoricalDomain adult = AdultCategoricalDomain();
  auto plans = WorstCasePlans(c, {}, adult);
  ASSERT_TRUE(plans.ok()) << plans.message();
  std::vector<std::string> seen;
  for (const WorstCasePlan& p : plans.value()) {
    const std::string key =
        p.spec.synthesizer + "/" + p.spec.bug + "/" + std::to_string(p.attributes);
    EXPECT_EQ(std::count(seen.begin(), seen.end(), key), 0) << key;
    seen.push_back(key);
  }
  EXPECT_EQ(seen,
            (std::vector<std::string>{
                "independent_laplace//13", "independent_laplace/domain_from_data/13",
                "independent_laplace//1", "independent_laplace/laplace_half_scale/1", "mst//13",
                "mst/mst_unscaled_noise/13", "independent_laplace/one_marginal_low_noise/1",
                "independent_gaussian//1", "independent_gaussian/double_spent_marginal/1"}));
}

// The outlier sweep's cases and attacks.
TEST(Sweep, CasesAreTheTwoWayOnesAtTheListedEpsilons) {
  Config c;
  const std::vector<CaseSpec> cases = MainCases(c).value();
  std::vector<std::string> labels;
  for (int64_t k : SweepCases(c, cases)) {
    labels.push_back(cases[k].synthesizer + " " + std::to_string(cases[k].guarantee.epsilon));
  }
  EXPECT_EQ(labels,
            (std::vector<std::string>{"chow_liu inf", "privbayes 10.000000", "mst 10.000000"}));
  EXPECT_EQ(SweepAttacks(c), (std::vector<std::string>{"dcr_hamming", "dcr_l2",
                                                       "histogram_logistic", "queries_logistic"}));
  c.attacks = {"white_box", "dcr_l2"};
  EXPECT_EQ(SweepAttacks(c), (std::vector<std::string>{"dcr_l2"}));
  c.attacks = {"white_box"};
  EXPECT_TRUE(SweepAttacks(c).empty());
}

// --attacks: the games run the selected attacks in AttackNames() order
// (a repeated name once); the default is every attack.
TEST(Attacks, SelectionFollowsAttackNamesOrder) {
  Config c;
  EXPECT_EQ(c.attacks, AttackNames());
  EXPECT_EQ(SelectedAttacks(c), AttackNames());
  c.attacks = {"white_box", "dcr_hamming", "white_box"};
  EXPECT_EQ(SelectedAttacks(c), (std::vector<std::string>{"dcr_hamming", "white_box"}));
}

// Games of a Results that ran only `attacks`: one game per (target, adversary)
// of one Laplace case, every attack's AUC `auc`.
Results GamesWith(const std::vector<std::string>& attacks, double auc) {
  Results r;
  r.attacks = attacks;
  r.cases = {MakeCase("independent_laplace", 1.0, 1e-5, "").value()};
  r.targets = {{"outlier", {0, 0}, 2.0}, {"random", {1, 1}, 1.0}};
  for (int64_t t = 0; t < 2; ++t) {
    for (const char* adversary : {"fixed", "random"}) {
      GameResult g;
      g.target_index = t;
      g.adversary = adversary;
      for (const std::string& a : attacks) {
        AttackOutcome o;
        o.attack = a;
        o.auc = auc;
        g.attacks.push_back(o);
      }
      r.games.push_back(g);
    }
  }
  for (const std::string& a : attacks) {
    if (!IsWhiteBox(a)) r.sweep.attacks.push_back(a);
  }
  return r;
}

TEST(Attacks, ClaimsNeedingAnAttackNotRunAreUndecidable) {
  const std::string features = "synthetic_data_mia_features_beat_dcr";
  const std::string outliers = "synthetic_data_mia_outliers_leak_more";
  const std::string far_below = "synthetic_data_mia_black_box_far_below";
  const Results all = GamesWith(AttackNames(), 0.5);
  for (const std::string& id : {features, outliers, far_below, std::string("other")}) {
    EXPECT_EQ(UndecidableReason(all, id), "") << id;
  }
  const Results dcr = GamesWith({"dcr_hamming"}, 0.5);
  EXPECT_NE(UndecidableReason(dcr, features).find("histogram_logistic, queries_logistic"),
            std::string::npos);
  EXPECT_EQ(UndecidableReason(dcr, outliers), "");
  EXPECT_NE(UndecidableReason(dcr, far_below).find("not run (--attacks): dcr_l2"),
            std::string::npos);
  const JudgedClaim judged = FeaturesBeatDcrClaim(dcr, 0.05);
  EXPECT_FALSE(judged.claim.holds);
  EXPECT_FALSE(judged.inconclusive);
  EXPECT_EQ(judged.claim.evidence, UndecidableReason(dcr, features));
  // Without any black-box attack the best black-box bound would be 0 and
  // the claim would hold vacuously: undecidable instead.
  const Results white_box = GamesWith({"white_box"}, 0.5);
  EXPECT_NE(UndecidableReason(white_box, outliers).find("at least one black-box"),
            std::string::npos);
  EXPECT_FALSE(OutliersLeakMoreClaim(white_box, 0.05).claim.holds);
  EXPECT_FALSE(BlackBoxFarBelowClaim(white_box).claim.holds);
  EXPECT_NE(BlackBoxFarBelowClaim(white_box).claim.evidence.find("undecidable"), std::string::npos);
}

// The features-beat-dcr claim finds its attacks by name, whatever subset ran.
TEST(Attacks, FeaturesClaimReadsAttacksByName) {
  const Results r =
      GamesWith({"dcr_hamming", "histogram_logistic", "queries_logistic", "white_box"}, 0.5);
  const JudgedClaim j = FeaturesBeatDcrClaim(r, 0.05);
  EXPECT_EQ(j.claim.evidence.find("undecidable"), std::string::npos) << j.claim.evidence;
  EXPECT_NE(j.claim.evidence.find("above dcr_hamming in 0, below in 0 of 4"), std::string::npos)
      << j.claim.evidence;
}

}  // namespace
}  // namespace privbench::synthetic_data_mia
