#include "experiments/lib/epsilon_star_sweep/compute.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "experiments/lib/epsilon_star_sweep/report.h"

namespace privbench {
namespace {

// A small separable two-class problem: label = [x0 + x1 > 0].
Dataset TinyData(int64_t n_train, int64_t n_population) {
  Dataset d;
  d.name = "tiny";
  d.provenance = "tiny";
  d.num_features = 4;
  d.num_classes = 2;
  std::mt19937_64 rng(3);
  std::normal_distribution<float> z;
  auto fill = [&](int64_t n, std::vector<float>* x, std::vector<int64_t>* y) {
    for (int64_t i = 0; i < n; ++i) {
      float s = 0;
      for (int j = 0; j < 4; ++j) {
        const float v = z(rng);
        x->push_back(v);
        if (j < 2) s += v;
      }
      y->push_back(s > 0 ? 1 : 0);
    }
  };
  fill(n_train, &d.train_x, &d.train_y);
  fill(n_population, &d.population_x, &d.population_y);
  return d;
}

EpsilonStarSweepConfig TinyGrid() {
  EpsilonStarSweepConfig c;
  c.baseline_epochs = {20};
  c.baseline_batch_size = 32;
  c.target_eps = {10};
  c.clip_norms = {1};
  c.batch_sizes = {64};
  c.microbatches = {32};
  c.dp_epochs = 1;
  c.repetitions = 1;
  c.epsilon_star_quantiles = 1000;
  return c;
}

TEST(SweepCompute, LossQuantilesAreNearestRank) {
  const auto q = LossQuantiles({3, 1, 2});
  ASSERT_EQ(q.size(), static_cast<size_t>(kLossQuantiles));
  EXPECT_EQ(q[0], 1);
  EXPECT_EQ(q[33], 1);  // ceil(0.99) = 1st
  EXPECT_EQ(q[34], 2);  // ceil(1.02) = 2nd
  EXPECT_EQ(q[50], 2);
  EXPECT_EQ(q[67], 3);
  EXPECT_EQ(q[100], 3);
}

TEST(SweepCompute, TrainingConfigOfBaselineAndDp) {
  EpsilonStarSweepConfig c = TinyGrid();
  const auto points = BuildSweepGrid(c);
  const DpSgdConfig b = TrainingConfig(points[0], c, 3.0, 9);
  EXPECT_FALSE(b.private_training);
  EXPECT_EQ(b.noise_multiplier, 0.0);
  EXPECT_EQ(b.num_microbatches, 0);
  EXPECT_EQ(b.batch_size, 32);
  EXPECT_EQ(b.epochs, 20);
  EXPECT_EQ(b.seed, 9u);
  EXPECT_EQ(b.threads, 1);
  const DpSgdConfig d = TrainingConfig(points[1], c, 3.0, 9);
  EXPECT_TRUE(d.private_training);
  EXPECT_EQ(d.noise_multiplier, 3.0);
  EXPECT_EQ(d.clip_norm, 1.0);
  EXPECT_EQ(d.num_microbatches, 32);
  EXPECT_EQ(d.sampling, Sampling::kPoisson);
  EXPECT_EQ(d.momentum, 0.9);
}

TEST(SweepCompute, CalibrationHitsTheTargetUnderEitherRule) {
  EpsilonStarSweepConfig c = TinyGrid();
  const auto points = BuildSweepGrid(c);
  auto tf = PlanAccounting(points, c, 1000);
  ASSERT_TRUE(tf.ok()) << tf.message();
  EXPECT_EQ((*tf)[0].noise_multiplier, 0.0);  // baseline
  EXPECT_EQ((*tf)[0].steps, (20 * 1000 + 31) / 32);
  const PointAccounting& a = (*tf)[1];
  EXPECT_DOUBLE_EQ(a.q, 0.064);
  EXPECT_DOUBLE_EQ(a.delta, 1e-3);
  EXPECT_NEAR(a.eps_tf_privacy_0_5_1 / 10.0, 1.0, 1e-6);
  EXPECT_DOUBLE_EQ(a.accounting_noise_multiplier, a.noise_multiplier / 2);  // microbatches of 2
  EXPECT_GT(a.eps_sound, 10.0);
  c.calibration_rule = "sound";
  auto sound = PlanAccounting(points, c, 1000);
  ASSERT_TRUE(sound.ok());
  EXPECT_NEAR((*sound)[1].eps_sound / 10.0, 1.0, 1e-6);
  EXPECT_LT((*sound)[1].eps_tf_privacy_0_5_1, 10.0);
  EXPECT_FALSE(PlanAccounting(points, c, 50).ok());  // batch 64 > 50 rows
}

TEST(SweepCompute, EvaluateMatchesTheLibrary) {
  const Dataset d = TinyData(50, 30);
  auto t = MakeTensors(d);
  ASSERT_TRUE(t.ok());
  auto model = DpModel::Create(AdultMlpSpec(4), 5);
  ASSERT_TRUE(model.ok());
  auto e = Evaluate(*model, t->train_x, t->train_y);
  ASSERT_TRUE(e.ok()) << e.message();
  auto losses = PerExampleLosses(*model, t->train_x, t->train_y);
  auto acc = Accuracy(*model, t->train_x, t->train_y);
  ASSERT_TRUE(losses.ok() && acc.ok());
  ASSERT_EQ(e->losses.size(), 50u);
  const torch::Tensor l = losses->to(torch::kDouble).contiguous();
  for (int64_t i = 0; i < 50; ++i) EXPECT_EQ(e->losses[i], l[i].item<double>());
  EXPECT_EQ(e->accuracy, *acc);
  EXPECT_TRUE(IsDivergence("loss is non-finite at step 3"));
  EXPECT_FALSE(IsDivergence("x has the wrong shape"));
}

// Runs one unit into a part file and reads it back.
Result<std::unique_ptr<ResultReader>> RunPart(const UnitInputs& u, int64_t point,
                                              const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(tmp ? tmp : "/tmp") + "/" + name + ".h5";
  RunMeta meta;
  meta.study = "compute_test";
  PB_ASSIGN_OR_RETURN(auto part, ResultWriter::Create(path, meta));
  PB_RETURN_IF_ERROR(RunModelUnit(u, point, 0, *part));
  PB_RETURN_IF_ERROR(part->Commit());
  return ResultReader::Open(path);
}

TEST(SweepCompute, OneUnitWritesEveryFieldDeterministically) {
  const Dataset d = TinyData(256, 128);
  const EpsilonStarSweepConfig c = TinyGrid();
  const SweepStudy study{"s", SweepModel::kAdultMlp, SweepUtility::kAuroc, "AUROC", "tiny"};
  const auto points = BuildSweepGrid(c);
  auto accounting = PlanAccounting(points, c, d.n_train());
  auto tensors = MakeTensors(d);
  ASSERT_TRUE(accounting.ok() && tensors.ok());
  UnitInputs u;
  u.study = &study;
  u.config = &c;
  u.dataset = &d;
  u.tensors = &*tensors;
  u.points = &points;
  u.accounting = &*accounting;
  u.options.quantiles_per_distribution = c.epsilon_star_quantiles;
  u.variants = MakeVariants(u.options);
  u.spec = SpecFor(study.model, d);
  u.seed = 11;
  for (int64_t point : {0, 1}) {
    auto a = RunPart(u, point, "a" + std::to_string(point));
    auto b = RunPart(u, point, "b" + std::to_string(point));
    ASSERT_TRUE(a.ok()) << a.message();
    ASSERT_TRUE(b.ok()) << b.message();
    std::vector<std::string> fields = UnitScalarFields();
    for (const auto& v : u.variants) fields.push_back("epsilon_star_" + v.name);
    for (const std::string& f : fields) {
      auto x = (*a)->ReadDoubles("/unit/" + f);
      ASSERT_TRUE(x.ok()) << f;
      ASSERT_EQ(x->size(), 1u) << f;
      const double y = (*b)->ReadDoubles("/unit/" + f).value()[0];
      EXPECT_TRUE((*x)[0] == y || (std::isnan((*x)[0]) && std::isnan(y))) << f;
    }
    EXPECT_EQ((*a)->ReadDoubles("/unit/diverged").value()[0], 0.0);
    EXPECT_EQ((*a)->ReadDoubles("/unit/utility").value(), (*a)->ReadDoubles("/unit/auroc").value());
    if (point == 0) {
      EXPECT_GT((*a)->ReadDoubles("/unit/auroc").value()[0], 0.75);
    }
    const auto q = (*a)->ReadDoubles("/unit/loss_quantiles_train").value();
    ASSERT_EQ(q.size(), static_cast<size_t>(kLossQuantiles));
    for (size_t k = 1; k < q.size(); ++k) EXPECT_LE(q[k - 1], q[k]);
    const double eps = (*a)->ReadDoubles("/unit/eps_tf_privacy_0_5_1").value()[0];
    if (point == 1) {
      EXPECT_NEAR(eps / 10.0, 1.0, 1e-6);
    } else {
      EXPECT_TRUE(std::isnan(eps));
    }
  }
  // The parts read back into the report's table.
  auto a0 = RunPart(u, 0, "c0");
  auto a1 = RunPart(u, 1, "c1");
  ASSERT_TRUE(a0.ok() && a1.ok());
  std::vector<std::unique_ptr<ResultReader>> parts;
  parts.push_back(std::move(a0).value());
  parts.push_back(std::move(a1).value());
  std::vector<std::string> names;
  for (const auto& v : u.variants) names.push_back(v.name);
  auto table =
      epsilon_star_sweep::ReadModelParts(parts, MakeUnits(points, 1, d.n_train()), points, names);
  ASSERT_TRUE(table.ok()) << table.message();
  EXPECT_EQ(table->unit_ids, (std::vector<std::string>{"baseline_epochs=20_rep=0",
                                                       "dp_eps=10_clip=1_batch=64_mb=32_rep=0"}));
  EXPECT_EQ(table->loss_quantiles_train.size(), 2u * kLossQuantiles);
  EXPECT_NE(table->record_dp.find("dp_eps=10_clip=1_batch=64_mb=32 rep 0: "), std::string::npos);
}

}  // namespace
}  // namespace privbench
