#include "experiments/synthetic_data_mia/parts.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "data_scripts/adult_categorical.h"
#include "experiments/lib/framework/sweep.h"
#include "experiments/synthetic_data_mia/compute.h"
#include "experiments/synthetic_data_mia/config.h"
#include "experiments/synthetic_data_mia/report.h"
#include "experiments/synthetic_data_mia/targets.h"
#include "results/h5_file.h"
#include "results/report_file_testing.h"

namespace privbench::synthetic_data_mia {
namespace {

const AdultCategorical& Adult() {
  static const AdultCategorical* adult = [] {
    auto loaded = LoadAdultCategorical();
    EXPECT_TRUE(loaded.ok()) << loaded.message();
    return new AdultCategorical(std::move(loaded).value());
  }();
  return *adult;
}

// The paper scale's grid (main.cc Defaults).
Config PaperConfig() {
  Config c;
  c.epsilons = {1, 2, 4, 10};
  c.outlier_targets = 5;
  c.random_targets = 5;
  c.sweep_outliers = 50;
  c.sweep_randoms = 50;
  c.sweep_epsilons = {1, 2, 4, 10};
  return c;
}

// A configuration small enough to run every kind of unit in seconds.
Config TinyConfig() {
  Config c;
  c.synthesizers = {"chow_liu", "independent_gaussian", "mst"};
  c.epsilons = {4};
  c.n_records = 80;
  c.n_synthetic = 80;
  c.train_datasets = 12;
  c.test_datasets = 12;
  c.outlier_targets = 1;
  c.random_targets = 1;
  c.outlier_pool = 200;
  c.queries = 10;
  c.worst_case_trials = 30;
  c.bug_power_replicates = 2;
  c.sweep_outliers = 1;
  c.sweep_randoms = 1;
  c.sweep_epsilons = {4};
  c.sweep_train_datasets = 8;
  c.sweep_test_datasets = 8;
  c.cost_sizes = {40, 80};
  c.cost_repeats = 1;
  return c;
}

std::string Kind(const std::string& id) { return id.substr(0, id.find_first_of("_=")); }

TEST(Plan, PaperScaleUnitsOfEachKind) {
  StudyPlan plan;
  const Status made = MakePlan(PaperConfig(), 20231121, Adult().train, Adult().domain, "x", &plan);
  ASSERT_TRUE(made.ok()) << made.message();
  const std::vector<SweepUnit>& units = plan.sweep_plan.run_order;
  ASSERT_EQ(units.size(), plan.jobs.size());
  // 18 cases x 11 targets x 2 adversaries; 16 DP cases + 9 planted-bug
  // audits; 9 two-way cases x 100 targets x the fixed adversary.
  std::vector<std::string> kinds;
  std::vector<int64_t> counts;
  std::set<std::string> ids;
  for (const SweepUnit& u : units) {
    ids.insert(u.id);
    if (kinds.empty() || kinds.back() != Kind(u.id)) {
      kinds.push_back(Kind(u.id));
      counts.push_back(0);
    }
    ++counts.back();
  }
  EXPECT_EQ(ids.size(), units.size());
  EXPECT_EQ(kinds, (std::vector<std::string>{"game", "worst", "sweep"}));
  EXPECT_EQ(counts, (std::vector<int64_t>{396, 25, 900}));
  EXPECT_EQ(units.front().id, "game=independent_target=0_adversary=fixed");
  EXPECT_EQ(units[1].id, "game=independent_target=0_adversary=random");
  EXPECT_EQ(units[395].id, "game=mst_eps=10_target=10_adversary=random");
  EXPECT_EQ(units[396].id, "worst=0_independent_laplace_eps=1_d=13_bug=none");
  EXPECT_EQ(units[420].id, "worst=24_independent_gaussian_eps=1_d=1_bug=double_spent_marginal");
  EXPECT_EQ(units[421].id, "sweep=chow_liu_target=0_adversary=fixed");
  EXPECT_EQ(units.back().id, "sweep=mst_eps=10_target=99_adversary=fixed");
  const UnitJob& last_game = plan.jobs[395];
  EXPECT_EQ(last_game.kind, UnitJob::Kind::kGame);
  EXPECT_EQ(last_game.index, 17);
  EXPECT_EQ(last_game.target, 10);
  EXPECT_EQ(last_game.adversary, "random");
}

TEST(Plan, ConfigTextKeysEverySettingButTheRunOnlyOnes) {
  const Config c = TinyConfig();
  const std::string base = SweepConfigText(c, 1, "x");
  EXPECT_NE(SweepConfigText(c, 2, "x"), base);
  EXPECT_NE(SweepConfigText(c, 1, "y"), base);
  for (auto edit : std::vector<void (*)(Config&)>{[](Config& x) { x.epsilons = {5}; },
                                                  [](Config& x) { x.attacks = {"dcr_l2"}; },
                                                  [](Config& x) { x.sweep_train_datasets = 10; },
                                                  [](Config& x) { x.bug_power_replicates = 3; },
                                                  [](Config& x) { x.canary_target = false; },
                                                  [](Config& x) { x.keep_test_scores = false; }}) {
    Config other = c;
    edit(other);
    EXPECT_NE(SweepConfigText(other, 1, "x"), base);
  }
  Config run_only = c;
  run_only.data_dir = "/elsewhere";
  run_only.sweep.shard = "1/2";
  run_only.sweep.parts_dir = "/tmp/p";
  run_only.cost_repeats = 2;  // timed at the merge
  EXPECT_EQ(SweepConfigText(run_only, 1, "x"), base);
}

// The old one-process study (before the sweep): every game, audit, sweep
// game and cost measurement in one loop, on two threads.
Result<Results> OneProcess(const Config& c, uint64_t seed, TargetSetup* setup) {
  const AdultCategorical& adult = Adult();
  PB_ASSIGN_OR_RETURN(*setup, ChooseTargets(adult.train, adult.domain, c, seed));
  Results r;
  PB_ASSIGN_OR_RETURN(r.cases, MainCases(c));
  r.targets = setup->targets;
  r.attacks = SelectedAttacks(c);
  r.removed_duplicates = setup->removed_duplicates;
  r.data_provenance = "uci-adult";
  GameInputs in{&c, &adult.domain, &setup->population, &setup->targets, seed, 2};
  for (size_t k = 0; k < r.cases.size(); ++k) {
    for (size_t t = 0; t < r.targets.size(); ++t) {
      for (const std::string& a : c.adversaries) {
        PB_ASSIGN_OR_RETURN(GameResult g, RunGame(in, r.cases[k], static_cast<int64_t>(k),
                                                  static_cast<int64_t>(t), a));
        r.games.push_back(std::move(g));
      }
    }
  }
  PB_ASSIGN_OR_RETURN(const std::vector<WorstCasePlan> plans,
                      WorstCasePlans(c, r.cases, adult.domain));
  for (size_t k = 0; k < plans.size(); ++k) {
    PB_ASSIGN_OR_RETURN(WorstCaseResult w, RunWorstCase(in, plans[k].spec, plans[k].attributes,
                                                        static_cast<int64_t>(k)));
    w.bug_audit = plans[k].bug_audit;
    r.worst_case.push_back(std::move(w));
  }
  PB_ASSIGN_OR_RETURN(r.sweep, RunOutlierSweep(in, adult.train, r.cases, true));
  PB_ASSIGN_OR_RETURN(r.bug_power, PlantedBugPower(in, r.worst_case));
  PB_ASSIGN_OR_RETURN(r.perfect_test, PerfectTestBounds(in, r.cases));
  for (const std::string& name : c.synthesizers) {
    PB_ASSIGN_OR_RETURN(CostResult cost, MeasureCost(in, name));
    r.cost.push_back(std::move(cost));
  }
  return r;
}

// The data digest of the study file of `r` (results/h5_file.h DataDigest).
std::string Digest(const Config& c, const Results& r, const std::string& name) {
  auto file = testing::WriteAndReadBack("synthetic_data_mia", name,
                                        [&](ResultWriter& out) { return WriteReport(c, r, out); });
  if (file == nullptr) return "";
  auto digest = file->DataDigest();
  EXPECT_TRUE(digest.ok()) << digest.message();
  return digest.ok() ? digest.value() : "";
}

SweepOptions Options(const StudyPlan& plan, const std::string& dir, const std::string& shard) {
  SweepOptions o;
  o.study = "synthetic_data_mia";
  o.parts_dir = dir;
  o.config_text = plan.sweep_plan.config_text;
  o.shard = ParseShard(shard).value();
  o.threads = 2;
  o.quiet = true;
  return o;
}

Result<SweepReport> RunShard(const StudyPlan& plan, const std::string& dir,
                             const std::string& shard) {
  return RunSweep(
      plan.sweep_plan.run_order, Options(plan, dir, shard),
      [&](int64_t k, const SweepUnit&, ResultWriter& part) { return RunUnit(plan, k, part); });
}

// Two shards' parts merged give the one-process study's numbers: the same
// data in the study file (timings aside: the cost measurement, made at the
// merge, is copied).
TEST(Merge, ShardsMergedEqualTheOneProcessStudy) {
  const Config c = TinyConfig();
  const uint64_t seed = 5;
  TargetSetup setup;
  auto one = OneProcess(c, seed, &setup);
  ASSERT_TRUE(one.ok()) << one.message();
  StudyPlan plan;
  ASSERT_TRUE(MakePlan(c, seed, Adult().train, Adult().domain, "x", &plan).ok());
  const std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/merge";
  auto first = RunShard(plan, dir, "0/2");
  ASSERT_TRUE(first.ok()) << first.message();
  EXPECT_FALSE(first.value().all_complete());
  auto second = RunShard(plan, dir, "1/2");
  ASSERT_TRUE(second.ok()) << second.message();
  EXPECT_TRUE(second.value().all_complete());
  EXPECT_EQ(first.value().ran + second.value().ran, second.value().total);
  auto again = RunShard(plan, dir, "0/1");  // resumed: every part is reused
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(again.value().ran, 0);
  auto parts = OpenSweepParts(plan.sweep_plan.run_order, Options(plan, dir, "0/1"));
  ASSERT_TRUE(parts.ok()) << parts.message();
  auto merged = MergeParts(plan, parts.value());
  ASSERT_TRUE(merged.ok()) << merged.message();
  Results& m = merged.value();
  ASSERT_EQ(m.games.size(), one.value().games.size());
  ASSERT_EQ(m.worst_case.size(), one.value().worst_case.size());
  ASSERT_EQ(m.sweep.games.size(), one.value().sweep.games.size());
  EXPECT_GT(m.bug_power.size(), 0u);
  EXPECT_EQ(m.bug_power.size(), one.value().bug_power.size());
  EXPECT_EQ(m.perfect_test, one.value().perfect_test);
  ASSERT_EQ(m.cost.size(), c.synthesizers.size());
  EXPECT_EQ(m.cost[1].sizes, c.cost_sizes);
  m.cost = one.value().cost;
  const std::string want = Digest(c, one.value(), "one_process");
  EXPECT_FALSE(want.empty());
  EXPECT_EQ(Digest(c, m, "merged"), want);
  // A part of another unit is refused, naming it.
  SweepParts swapped = std::move(parts).value();
  std::swap(swapped[0], swapped[1]);
  auto refused = MergeParts(plan, swapped);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("holds another game"), std::string::npos) << refused.message();
}

// Without --keep_test_scores (paper scale) the parts and the study keep no
// test scores and every other number is the same.
TEST(Merge, WithoutTestScoresTheOtherNumbersAreTheSame) {
  Config c = TinyConfig();
  c.synthesizers = {"independent_gaussian"};
  const uint64_t seed = 5;
  std::vector<Results> merged;
  for (bool keep : {true, false}) {
    c.keep_test_scores = keep;
    StudyPlan plan;
    ASSERT_TRUE(MakePlan(c, seed, Adult().train, Adult().domain, "x", &plan).ok());
    const std::string dir =
        std::string(std::getenv("TEST_TMPDIR")) + (keep ? "/keep" : "/no_scores");
    auto ran = RunShard(plan, dir, "0/1");
    ASSERT_TRUE(ran.ok()) << ran.message();
    auto parts = OpenSweepParts(plan.sweep_plan.run_order, Options(plan, dir, "0/1"));
    ASSERT_TRUE(parts.ok()) << parts.message();
    auto r = MergeParts(plan, parts.value());
    ASSERT_TRUE(r.ok()) << r.message();
    merged.push_back(std::move(r).value());
  }
  ASSERT_EQ(merged[0].games.size(), merged[1].games.size());
  ASSERT_FALSE(merged[0].games.empty());
  for (size_t g = 0; g < merged[0].games.size(); ++g) {
    for (size_t a = 0; a < merged[0].games[g].attacks.size(); ++a) {
      const AttackOutcome &kept = merged[0].games[g].attacks[a],
                          &dropped = merged[1].games[g].attacks[a];
      EXPECT_EQ(kept.test_scores.size(), static_cast<size_t>(c.test_datasets));
      EXPECT_TRUE(dropped.test_scores.empty());
      EXPECT_EQ(kept.auc, dropped.auc);
      EXPECT_EQ(kept.eps_lower, dropped.eps_lower);
    }
  }
  c.keep_test_scores = false;
  auto file = testing::WriteAndReadBack("synthetic_data_mia", "no_scores", [&](ResultWriter& out) {
    return WriteReport(c, merged[1], out);
  });
  ASSERT_NE(file, nullptr);
  auto shape = file->Shape("/games/test_scores");
  ASSERT_TRUE(shape.ok()) << shape.message();
  EXPECT_EQ(shape.value().back(), 0u);
}

}  // namespace
}  // namespace privbench::synthetic_data_mia
