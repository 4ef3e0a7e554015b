#include "experiments/lib/epsilon_star_sweep/plan.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "core/flags.h"
#include "core/seeding.h"

namespace privbench {
namespace {

EpsilonStarSweepConfig PaperAdult() {
  EpsilonStarSweepConfig c;
  c.baseline_epochs = {1, 5, 10, 20};
  c.target_eps = {1, 3, 10, 100};
  c.clip_norms = {1, 10, 30};
  c.batch_sizes = {64, 512};
  c.microbatches = {1, 32};
  return c;
}

// Epsilon* §4.1: "52 experiments for Adult" and "51 for Purchase-100".
TEST(SweepPlan, PaperCountsOfConfigurations) {
  EpsilonStarSweepConfig adult = PaperAdult();
  EXPECT_EQ(BuildSweepGrid(adult).size(), 52u);
  EpsilonStarSweepConfig purchase = adult;
  purchase.baseline_epochs = {10, 50, 100};
  purchase.batch_sizes = {256, 1024};
  EXPECT_EQ(BuildSweepGrid(purchase).size(), 51u);
}

TEST(SweepPlan, OrderIdsAndLabels) {
  EpsilonStarSweepConfig c = PaperAdult();
  c.dp_epochs = 7;
  c.baseline_batch_size = 128;
  c.target_eps = {1, 3, 10, 100, 1e-5, 0.5};
  const auto g = BuildSweepGrid(c);
  EXPECT_EQ(g[0].id, "baseline_epochs=1");
  EXPECT_EQ(g[0].label, "baseline, 1 epoch");
  EXPECT_EQ(g[1].label, "baseline, 5 epochs");
  EXPECT_FALSE(g[0].private_training);
  EXPECT_EQ(g[0].batch_size, 128);
  EXPECT_EQ(g[3].epochs, 20);
  EXPECT_EQ(g[4].id, "dp_eps=1_clip=1_batch=64_mb=1");
  EXPECT_EQ(g[5].id, "dp_eps=1_clip=1_batch=64_mb=32");
  EXPECT_EQ(g[6].id, "dp_eps=1_clip=1_batch=512_mb=1");
  EXPECT_EQ(g[51].id, "dp_eps=100_clip=30_batch=512_mb=32");
  EXPECT_EQ(g[51].label, "DP eps=100, C=30, B=512, m=32");
  EXPECT_EQ(g[51].epochs, 7);
  EXPECT_EQ(g[52].id, "dp_eps=1e-05_clip=1_batch=64_mb=1");
  EXPECT_EQ(g[64].id, "dp_eps=0.5_clip=1_batch=64_mb=1");
  std::set<std::string> ids;
  for (const auto& p : g) ids.insert(p.id);
  EXPECT_EQ(ids.size(), g.size());
}

// Each parameter's own constraints are declared with its flag.
std::string FlagError(const std::vector<std::string>& args) {
  EpsilonStarSweepConfig c = PaperAdult();
  FlagSet flags("test", "test");
  RegisterEpsilonStarSweepFlags(flags, &c);
  std::vector<const char*> argv = {"test"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  if (flags.Parse(static_cast<int>(argv.size()), argv.data()) != ParseOutcome::kOk) {
    return flags.error();
  }
  return flags.Validate().ok() ? "" : flags.Validate().message();
}

TEST(SweepPlan, FlagConstraints) {
  EXPECT_EQ(FlagError({}), "");
  for (const std::string name :
       {"repetitions=0", "repetitions=1001", "target_eps=1,-1", "target_eps=inf", "clip_norms=0",
        "microbatches=0", "batch_sizes=0", "baseline_epochs=0", "baseline_batch_size=0",
        "dp_epochs=0", "delta=1", "delta=-0.1", "calibration_rule=tf2", "sampling=random",
        "momentum=1", "learning_rate=0", "epsilon_star_quantiles=0"}) {
    const std::string flag = name.substr(0, name.find('='));
    EXPECT_NE(FlagError({"--" + name}).find(flag), std::string::npos) << name;
  }
  EXPECT_EQ(FlagError({"--calibration_rule=sound", "--sampling=shuffle", "--delta=0.5"}), "");
}

TEST(SweepPlan, RulesAcrossFields) {
  const EpsilonStarSweepConfig c = PaperAdult();
  const SweepFlags sweep;
  EXPECT_TRUE(ValidateEpsilonStarSweep(c, sweep).ok());
  auto msg = [&](const EpsilonStarSweepConfig& x, const SweepFlags& s) {
    return ValidateEpsilonStarSweep(x, s).message();
  };
  {
    auto x = c;
    x.clip_norms = {};
    EXPECT_NE(msg(x, sweep).find("clip_norms"), std::string::npos);
  }
  {
    auto x = c;
    x.sampling = "shuffle";
    x.microbatches = {3};
    EXPECT_NE(msg(x, sweep).find("divide"), std::string::npos);
  }
  {
    auto x = c;
    x.baseline_epochs = {5, 5};
    EXPECT_NE(msg(x, sweep).find("baseline_epochs"), std::string::npos);
    x = c;
    x.target_eps = {1, 1};
    EXPECT_NE(msg(x, sweep).find("target_eps"), std::string::npos);
  }
  {
    SweepFlags s;
    s.shard = "2/2";
    EXPECT_NE(msg(c, s).find("shard"), std::string::npos);
    s.shard = "x";
    EXPECT_NE(msg(c, s).find("shard"), std::string::npos);
  }
  {
    auto x = c;
    SweepFlags s;
    s.merge_only = true;
    x.plan_only = true;
    EXPECT_NE(msg(x, s).find("exclude"), std::string::npos);
  }
  {
    auto x = c;  // baselines only is fine
    x.target_eps = x.clip_norms = {};
    x.batch_sizes = x.microbatches = {};
    EXPECT_TRUE(ValidateEpsilonStarSweep(x, sweep).ok());
    x.baseline_epochs = {};
    EXPECT_FALSE(ValidateEpsilonStarSweep(x, sweep).ok());
  }
}

TEST(SweepPlan, StableHashIsFnv1a) {
  // Unit seeds derive from StableHash of the configuration id (FNV-1a 64).
  EXPECT_EQ(StableHash(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(StableHash("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_NE(StableHash("dp_eps=1"), StableHash("dp_eps=10"));
}

TEST(SweepPlan, UnitsRunMostExpensiveFirstAndMergeInGridOrder) {
  EpsilonStarSweepConfig c;
  c.baseline_epochs = {1, 20};
  c.target_eps = {1};
  c.clip_norms = {1};
  c.batch_sizes = {64};
  c.microbatches = {32};
  c.dp_epochs = 10;
  const auto points = BuildSweepGrid(c);
  const auto units = MakeUnits(points, 2, 1000);
  ASSERT_EQ(units.size(), 6u);
  EXPECT_EQ(units[0].unit.id, "baseline_epochs=1_rep=0");
  EXPECT_EQ(units[1].unit.id, "baseline_epochs=1_rep=1");
  EXPECT_EQ(units[5].unit.id, "dp_eps=1_clip=1_batch=64_mb=32_rep=1");
  EXPECT_EQ(units[5].point, 2);
  EXPECT_EQ(units[5].rep, 1);
  // Costs: 20 epochs (20000 + 2000) > DP 10 epochs x 1.5 (15000 + 2000) > 1 epoch.
  const SweepPlan plan = MakeSweepPlan("text", units);
  EXPECT_EQ(plan.config_text, "text");
  std::vector<std::string> run;
  for (const SweepUnit& u : plan.run_order) run.push_back(u.id);
  EXPECT_EQ(run, (std::vector<std::string>{"baseline_epochs=20_rep=0", "baseline_epochs=20_rep=1",
                                           "dp_eps=1_clip=1_batch=64_mb=32_rep=0",
                                           "dp_eps=1_clip=1_batch=64_mb=32_rep=1",
                                           "baseline_epochs=1_rep=0", "baseline_epochs=1_rep=1"}));
  ASSERT_EQ(plan.merge_order.size(), units.size());
  for (size_t k = 0; k < units.size(); ++k) EXPECT_EQ(plan.merge_order[k].id, units[k].unit.id);
}

TEST(SweepPlan, StepsAndDelta) {
  EpsilonStarSweepConfig c;
  SweepPoint p;
  p.epochs = 2;
  p.batch_size = 64;
  EXPECT_EQ(StepsOf(p, c, 1000), 32);  // ceil(2000 / 64)
  c.sampling = "shuffle";
  EXPECT_EQ(StepsOf(p, c, 1000), 30);  // 2 * floor(1000 / 64)
  EXPECT_DOUBLE_EQ(EffectiveDelta(c, 1000), 1e-3);
  c.delta = 1e-5;
  EXPECT_DOUBLE_EQ(EffectiveDelta(c, 1000), 1e-5);
}

TEST(SweepPlan, VariantsEndWithTheCommonWindowThenRepeatAtDeltaZero) {
  EpsilonStarOptions defaults;
  defaults.quantiles_per_distribution = 1000;
  defaults.delta = 1e-4;
  const auto v = MakeVariants(defaults);
  ASSERT_GE(v.size(), 6u);
  ASSERT_EQ(v.size() % 2, 0u);
  const size_t half = v.size() / 2;
  std::set<std::string> names;
  for (const auto& e : v) names.insert(e.name);
  EXPECT_TRUE(names.count("parametric") && names.count("empirical"));
  EXPECT_TRUE(names.count("parametric_delta0") && names.count("empirical_delta0"));
  const EpsilonStarVariant& common = v[half - 1];
  EXPECT_EQ(common.name, kCommonWindowVariant);
  EXPECT_EQ(common.estimator, "parametric");
  EXPECT_EQ(common.options.clip_lo, defaults.rate_floor);
  EXPECT_EQ(common.options.clip_hi, defaults.rate_ceiling);
  EXPECT_EQ(common.options.quantiles_per_distribution, 1000);
  for (size_t i = 0; i < half; ++i) {
    EXPECT_EQ(v[i].options.delta, 1e-4) << v[i].name;
    EXPECT_EQ(v[half + i].name, v[i].name + kDeltaZeroSuffix);
    EXPECT_EQ(v[half + i].estimator, v[i].estimator);
    EXPECT_EQ(v[half + i].options.delta, 0.0);
    EXPECT_EQ(v[half + i].options.clip_lo, v[i].options.clip_lo);
  }
}

// The delta of Epsilon*: the DP delta by default (the paper, after
// Definition 2), else a number in [0, 1); anything else is refused with a
// message naming the parameter.
TEST(SweepPlan, EpsilonStarDeltaDefaultsToTheDpDeltaAndIsRefusedOutsideUnitInterval) {
  EpsilonStarSweepConfig c;
  ASSERT_EQ(c.epsilon_star_delta, "dp");
  EXPECT_DOUBLE_EQ(*EpsilonStarDelta(c, 1000), 1e-3);
  c.delta = 1e-5;
  EXPECT_DOUBLE_EQ(*EpsilonStarDelta(c, 1000), 1e-5);
  c.epsilon_star_delta = "0";
  EXPECT_EQ(*EpsilonStarDelta(c, 1000), 0.0);
  c.epsilon_star_delta = "0.25";
  EXPECT_EQ(*EpsilonStarDelta(c, 1000), 0.25);
  for (const char* bad : {"1", "1.5", "-0.1", "nan", "inf", "", "dpx", "0.1x"}) {
    c.epsilon_star_delta = bad;
    const Result<double> r = EpsilonStarDelta(c, 1000);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find("epsilon_star_delta"), std::string::npos) << bad;
    EpsilonStarSweepConfig paper = PaperAdult();
    paper.epsilon_star_delta = bad;
    EXPECT_FALSE(ValidateEpsilonStarSweep(paper, SweepFlags()).ok()) << bad;
  }
  EXPECT_TRUE(ValidateEpsilonStarSweep(PaperAdult(), SweepFlags()).ok());
}

TEST(SweepPlan, UnitTextIgnoresGridListsAndRepetitions) {
  Dataset d;
  d.provenance = "uci-adult";
  d.checksums = "adult.data sha256=00";
  d.train_y = {0, 1, 0, 1};
  d.population_y = {0, 1};
  const auto variants = MakeVariants(EpsilonStarOptions());
  EpsilonStarSweepConfig quick = PaperAdult(), paper = PaperAdult();
  quick.target_eps = {1, 10};
  quick.repetitions = 2;
  const std::string a = UnitConfigText("s", quick, d, variants, "Linear(2->2)", 7);
  EXPECT_EQ(a, UnitConfigText("s", paper, d, variants, "Linear(2->2)", 7));
  EXPECT_NE(a, UnitConfigText("s", paper, d, variants, "Linear(2->2)", 8));
  paper.dp_epochs = 11;
  EXPECT_NE(a, UnitConfigText("s", paper, d, variants, "Linear(2->2)", 7));
  EXPECT_NE(a.find("delta = 0.25\n"), std::string::npos);
  EXPECT_NE(a.find("dataset_identity = adult.data sha256=00\n"), std::string::npos);
}

TEST(SweepPlan, GridReductionsText) {
  EpsilonStarSweepConfig paper = PaperAdult(), quick = PaperAdult();
  quick.target_eps = {1, 10};
  quick.clip_norms = {1};
  quick.repetitions = 2;
  EXPECT_EQ(GridReductions(quick, paper),
            "target_eps {1,10} of {1,3,10,100}; clip_norms {1} of {1,10,30}; batch_sizes "
            "{64,512} of {64,512}; microbatches {1,32} of {1,32}; baseline_epochs {1,5,10,20} of "
            "{1,5,10,20}; repetitions 2 of 5; dp_epochs 10");
}

TEST(SweepPlan, PlanTextNamesTheBinaryInItsPackage) {
  EpsilonStarSweepConfig c = PaperAdult();
  c.repetitions = 2;
  c.target_eps = {1};
  c.clip_norms = {1};
  c.batch_sizes = {64};
  c.microbatches = {32};
  c.baseline_epochs = {1};
  const auto points = BuildSweepGrid(c);
  std::vector<PointAccounting> acc(points.size());
  acc[1].noise_multiplier = 1.25;
  PlanPrintout p;
  p.study = "epsilon_star_sweep_adult";
  p.config = &c;
  p.points = &points;
  p.accounting = &acc;
  p.units = 4;
  const std::string text = PlanText(p);
  EXPECT_NE(text.find("2 configurations x 2 repetitions = 4 units"), std::string::npos);
  EXPECT_NE(text.find("sigma 1.25"), std::string::npos);
  EXPECT_NE(text.find("#SBATCH --array=0-3"), std::string::npos);
  EXPECT_NE(text.find("bazel-bin/experiments/epsilon_star_sweep_adult/epsilon_star_sweep_adult "
                      "--scale=quick --threads=1 --shard=${SLURM_ARRAY_TASK_ID}/4"),
            std::string::npos);
  EXPECT_EQ(text.find("projected"), std::string::npos);  // no probe
  Probe probe;
  probe.step_seconds = {{"baseline_b64_m0", 0.001}, {"dp_b64_m32", 0.002}};
  probe.eval_seconds = 1.0;
  p.probe = &probe;
  EXPECT_NE(PlanText(p).find("projected"), std::string::npos);
  EXPECT_EQ(KindKey(points[1]), "dp_b64_m32");
  EXPECT_EQ(Hours(30), "30 s");
  EXPECT_EQ(Hours(600), "10.0 min");
  EXPECT_EQ(Hours(36000), "10.0 h");
}

}  // namespace
}  // namespace privbench
