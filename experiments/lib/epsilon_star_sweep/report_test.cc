#include "experiments/lib/epsilon_star_sweep/report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "experiments/lib/epsilon_star_sweep/claims.h"
#include "results/report_file_testing.h"

namespace privbench::epsilon_star_sweep {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(SweepReport, SummariseSkipsNonFinite) {
  MinMeanMax s = Summarise({1.0, kNaN, 3.0});
  EXPECT_EQ(s.count, 2);
  EXPECT_DOUBLE_EQ(s.mean, 2.0);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 3.0);
  EXPECT_TRUE(std::isnan(Summarise({kNaN}).mean));
  EXPECT_EQ(Summarise({}).count, 0);
}

TEST(SweepReport, ParetoFrontier) {
  // x: Epsilon* (lower better), y: utility (higher better).
  //   0: (0.1, 0.5)  frontier
  //   1: (0.2, 0.4)  dominated by 0
  //   2: (0.3, 0.9)  frontier
  //   3: (0.5, 0.95) frontier
  //   4: (0.5, 0.95) duplicate of 3: kept
  //   5: (1.0, 0.96) frontier (the top point)
  //   6: (0.2, 0.55) frontier, strictly below the segment 0-2 -> not convex
  //   7: NaN         never
  std::vector<double> x = {0.1, 0.2, 0.3, 0.5, 0.5, 1.0, 0.2, kNaN};
  std::vector<double> y = {0.5, 0.4, 0.9, 0.95, 0.95, 0.96, 0.55, 0.99};
  const auto f = ParetoFrontier(x, y);
  EXPECT_EQ(f, (std::vector<bool>{true, false, true, true, true, true, true, false}));
  const auto h = ConvexParetoFrontier(x, y);
  // Hull of (0.1,.5) (0.2,.55) (0.3,.9) (0.5,.95) (1,.96): (0.2,.55) lies
  // below the chord from (0.1,.5) to (0.3,.9) (which is at .7 there).
  EXPECT_EQ(h, (std::vector<bool>{true, false, true, true, true, true, false, false}));
}

TEST(SweepReport, ConvexFrontierDropsPointsBelowChord) {
  // (0,0) (1,0.1) (2,1): the middle point is non-dominated but below the chord.
  EXPECT_EQ(ConvexParetoFrontier({0, 1, 2}, {0, 0.1, 1}), (std::vector<bool>{true, false, true}));
  // Collinear points are kept.
  EXPECT_EQ(ConvexParetoFrontier({0, 1, 2}, {0, 0.5, 1}), (std::vector<bool>{true, true, true}));
}

TEST(SweepReport, Pearson) {
  EXPECT_NEAR(PearsonOfModels({1, 2, 3, 4}, {2, 4, 6, 8}), 1.0, 1e-15);
  EXPECT_NEAR(PearsonOfModels({1, 2, 3, 4}, {8, 6, 4, 2}), -1.0, 1e-15);
  EXPECT_TRUE(std::isnan(PearsonOfModels({1, 2}, {1, 2})));        // fewer than 3
  EXPECT_TRUE(std::isnan(PearsonOfModels({1, 1, 1}, {1, 2, 3})));  // constant
}

// Three configurations (baselines of 1 and 5 epochs, one DP), two
// repetitions, Epsilon* variants parametric and the common window.
struct Fixture {
  EpsilonStarSweepConfig config;
  std::vector<SweepPoint> points;
  std::vector<PointAccounting> accounting;
  std::vector<ModelUnit> units;
  Dataset data;
  SweepStudy study{"s", SweepModel::kAdultMlp, SweepUtility::kAuroc, "AUROC", "uci-adult"};
  Results results;
  ModelTable& table = results.models;

  Fixture() {
    config.baseline_epochs = {1, 5};
    config.target_eps = {1};
    config.clip_norms = {1};
    config.batch_sizes = {64};
    config.microbatches = {32};
    config.repetitions = 2;
    points = BuildSweepGrid(config);
    accounting.resize(points.size());
    for (auto& a : accounting) a.delta = 1e-3;
    accounting[2].eps_sound = 2.0;
    accounting[2].eps_tf_privacy_0_5_1 = 1.0;
    units = MakeUnits(points, 2, 1000);
    data.train_y.assign(1000, 0);
    results.study = study;
    results.dataset = &data;
    results.points = points;
    results.accounting = accounting;
    results.variants = {{"parametric", "parametric", {}}, {kCommonWindowVariant, "parametric", {}}};
    // Epsilon* per model (configuration, repetition): baselines rise, DP lowest.
    const std::vector<double> es = {0.10, 0.12, 0.20, 0.22, 0.05, kNaN};
    const std::vector<double> cw = {0.5, 0.6, 0.7, 0.8, 0.1, kNaN};
    for (size_t k = 0; k < units.size(); ++k) {
      table.config_index.push_back(units[k].point);
      table.repetition.push_back(units[k].rep);
      table.unit_ids.push_back(units[k].unit.id);
      for (const std::string& f : UnitScalarFields()) table.fields[f].push_back(0.5);
      table.fields["epsilon_star_parametric"].push_back(es[k]);
      table.fields[std::string("epsilon_star_") + kCommonWindowVariant].push_back(cw[k]);
      table.fields["utility"][k] = 0.6 + 0.1 * units[k].point;
      table.fields["eps_reportable"][k] = units[k].point == 2 ? 1.0 : kNaN;
      table.fields["diverged"][k] = std::isnan(es[k]) ? 1.0 : 0.0;
    }
    table.fields["utility"][5] = kNaN;
  }
};

TEST(SweepReport, BuildOutcome) {
  Fixture fx;
  auto o = BuildOutcome(fx.config, fx.results);
  ASSERT_TRUE(o.ok()) << o.message();
  EXPECT_EQ(o->estimators, (std::vector<std::string>{"parametric", kCommonWindowVariant}));
  EXPECT_EQ(o->EstimatorIndex(kCommonWindowVariant), 1);
  EXPECT_EQ(o->EstimatorIndex("empirical"), -1);
  EXPECT_EQ(o->diverged_models, 1);
  EXPECT_DOUBLE_EQ(o->delta, 1e-3);
  EXPECT_DOUBLE_EQ(o->epsilon_star[1][0][1], 0.22);
  EXPECT_DOUBLE_EQ(o->utility[2][0], 0.8);
  // Means (Epsilon*, utility): (0.11, 0.6), (0.21, 0.7), (0.05, 0.8): the DP
  // configuration dominates both baselines.
  EXPECT_EQ(o->pareto, (std::vector<bool>{false, false, true}));
  EXPECT_EQ(o->pareto_convex, (std::vector<bool>{false, false, true}));
  fx.results.variants.erase(fx.results.variants.begin());
  EXPECT_FALSE(BuildOutcome(fx.config, fx.results).ok());
}

TEST(SweepReport, AdultClaims) {
  Fixture fx;
  auto o = BuildOutcome(fx.config, fx.results);
  ASSERT_TRUE(o.ok());
  const ClaimSet s = AdultClaims(*o, 0, "", "data d");
  ASSERT_EQ(s.claims.size(), 3u);
  EXPECT_EQ(s.claims[0].id, "epsilon_star_sweep_adult_all_below_0_3");
  EXPECT_TRUE(s.claims[0].holds);
  EXPECT_NE(s.claims[0].evidence.find("largest Epsilon* over 5 models: 0.22 (baseline, 5 epochs, "
                                      "repetition 1)"),
            std::string::npos);
  EXPECT_EQ(s.claims[1].id, "epsilon_star_sweep_adult_baselines_rise_with_epochs");
  EXPECT_TRUE(s.claims[1].holds);
  EXPECT_EQ(s.claims[2].id, "epsilon_star_sweep_adult_dp_below_baselines_5plus");
  EXPECT_TRUE(s.claims[2].holds);
  EXPECT_EQ(s.numbers[0].first, "/numbers/adult_max_model_epsilon_star");
  EXPECT_DOUBLE_EQ(s.numbers[0].second, 0.22);
  const ClaimSet w = AdultClaims(*o, 1, "_common_window", "data d");
  ASSERT_EQ(w.claims.size(), 3u);
  EXPECT_EQ(w.claims[0].id, "epsilon_star_sweep_adult_all_below_0_3_common_window");
  EXPECT_FALSE(w.claims[0].holds);  // 0.8 >= 0.3
  EXPECT_EQ(w.numbers[0].first, "/numbers/adult_common_window_max_model_epsilon_star");
  EXPECT_TRUE(AdultClaims(*o, -1, "", "").claims.empty());
}

TEST(SweepReport, PurchaseClaims) {
  Fixture fx;
  auto o = BuildOutcome(fx.config, fx.results);
  ASSERT_TRUE(o.ok());
  const ClaimSet s = PurchaseClaims(*o, "data d");
  ASSERT_EQ(s.claims.size(), 3u);
  EXPECT_EQ(s.claims[0].id, "epsilon_star_sweep_purchase_baselines_rise_with_epochs");
  EXPECT_FALSE(s.claims[0].holds);  // population accuracy is flat (0.5)
  EXPECT_EQ(s.claims[1].id, "epsilon_star_sweep_purchase_dp_below_1");
  EXPECT_TRUE(s.claims[1].holds);
  EXPECT_NE(s.claims[1].evidence.find("1 diverged models excluded"), std::string::npos);
  EXPECT_EQ(s.claims[2].id, "epsilon_star_sweep_purchase_dp_below_1_common_window");
  bool found = false;
  for (const auto& [path, value] : s.numbers) {
    if (path == "/numbers/purchase_baseline_epochs_5_test_accuracy_percent") {
      found = true;
      EXPECT_DOUBLE_EQ(value, 50.0);
    }
  }
  EXPECT_TRUE(found);
}

// Writes the fixture's report (with the parts' timings and loss quantiles,
// which the claims do not need) into a file of the test's temporary
// directory and opens it.
std::unique_ptr<ResultReader> WriteAndOpen(Fixture& fx, const std::string& name) {
  for (const SweepPoint& p : fx.points) fx.table.seconds_by_config[p.id] = {2.0, 2};
  fx.table.loss_quantiles_train.assign(fx.units.size() * kLossQuantiles, 0.5);
  fx.table.loss_quantiles_population.assign(fx.units.size() * kLossQuantiles, 0.7);
  return testing::WriteAndReadBack(
      "s", name, [&](ResultWriter& out) { return WriteReport(fx.config, fx.results, out); });
}

TEST(SweepReport, WriteReportAdult) {
  Fixture fx;
  fx.results.reductions = "test scale: reduced";
  auto r = WriteAndOpen(fx, "adult");
  ASSERT_NE(r, nullptr);
  auto t = r->ReadTable("configurations");
  ASSERT_TRUE(t.ok()) << t.message();
  // The variant columns are those of the variants present (no empirical).
  EXPECT_EQ(
      testing::ColumnNames(*t),
      (std::vector<std::string>{
          "configuration", "target_eps", "eps_sound", "eps_tf_privacy_0_5_1", "noise_multiplier",
          "epsilon_star_parametric_mean", "epsilon_star_parametric_min",
          "epsilon_star_parametric_max", "epsilon_star_parametric_common_window_mean",
          "epsilon_star_parametric_common_window_min", "epsilon_star_parametric_common_window_max",
          "utility_mean", "utility_min", "utility_max", "models", "pareto"}));
  EXPECT_EQ(t->columns[0].strings.size(), 3u);
  EXPECT_EQ(t->columns[14].ints, (std::vector<int64_t>{2, 2, 1}));
  EXPECT_EQ(t->columns[15].strings, (std::vector<std::string>{"", "", "yes (convex)"}));
  EXPECT_DOUBLE_EQ(t->columns[5].doubles[0], 0.11);
  auto b = r->ReadTable("baselines");
  ASSERT_TRUE(b.ok()) << b.message();
  EXPECT_EQ(b->columns[0].ints, (std::vector<int64_t>{1, 5}));
  EXPECT_TRUE(std::isnan(b->columns[4].doubles[0]));  // no empirical variant
  auto claims = r->ReadAllClaims();
  ASSERT_TRUE(claims.ok()) << claims.message();
  EXPECT_EQ(claims->size(), 6u);  // 3 claims x (default window, common window); no delta-0 variants
  EXPECT_EQ(r->ReadStringAttribute("/meta", "quick_scale_reductions").value_or(""),
            "test scale: reduced");
  EXPECT_FALSE(r->HasAttribute("/meta", "dataset_choice"));
  EXPECT_EQ(r->ReadIntAttribute("/meta", "diverged_models").value_or(-1), 1);
}

TEST(SweepReport, WriteReportPurchase) {
  Fixture fx;
  fx.results.claims = StudyClaims::kPurchase;
  fx.results.dataset_choice = "surrogate requested";
  auto r = WriteAndOpen(fx, "purchase");
  ASSERT_NE(r, nullptr);
  auto claims = r->ReadAllClaims();
  ASSERT_TRUE(claims.ok()) << claims.message();
  EXPECT_EQ(claims->size(), 3u);
  EXPECT_EQ(r->ReadStringAttribute("/meta", "dataset_choice").value_or(""), "surrogate requested");
  EXPECT_TRUE(r->Exists("/numbers/purchase_baseline_epochs_5_test_accuracy_percent"));
}

TEST(SweepReport, SharedLostParameters) {
  EpsilonStarSweepConfig c;
  const std::string s = SharedLostParameters(c, 1000);
  EXPECT_NE(s.find("1/n_train = 0.001; "), std::string::npos);
  EXPECT_NE(s.find("SGD lr 0.01, momentum 0.9"), std::string::npos);
  c.calibration_rule = "sound";
  EXPECT_NE(SharedLostParameters(c, 1000).find("twice the TF Privacy"), std::string::npos);
}

}  // namespace
}  // namespace privbench::epsilon_star_sweep
