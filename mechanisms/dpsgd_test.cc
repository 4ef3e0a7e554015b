#include "mechanisms/dpsgd.h"

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <regex>
#include <string>
#include <vector>

#include "mechanisms/testing.h"

namespace privbench {
namespace {

DpSgdConfig BaseConfig() {
  DpSgdConfig c;
  c.noise_multiplier = 1.0;
  c.clip_norm = 1.0;
  c.batch_size = 20;
  c.epochs = 2;
  c.learning_rate = 0.1;
  c.momentum = 0.9;
  c.seed = 42;
  return c;
}

TEST(DpSgdTest, RefusesBadConfigurations) {
  DpModel model = DpModel::Create(LogisticRegressionSpec(4, 2), 0).value();
  const testing::Blobs data = testing::TwoBlobs(500, 4, 4.0, 1);
  auto message = [&](auto edit) {
    DpSgdConfig c = BaseConfig();
    edit(c);
    return TrainDpSgd(model, data.x, data.y, c).message();
  };
  EXPECT_EQ(message([](DpSgdConfig& c) { c.batch_size = 600; }),
            "batch_size 600 exceeds the dataset size 500");
  EXPECT_EQ(message([](DpSgdConfig& c) { c.batch_size = 0; }), "batch_size must be >= 1, got 0");
  EXPECT_EQ(message([](DpSgdConfig& c) { c.clip_norm = 0; }),
            "clip_norm must be finite and > 0, got 0");
  EXPECT_EQ(message([](DpSgdConfig& c) { c.noise_multiplier = -1; }),
            "noise_multiplier must be finite and >= 0, got -1");
  EXPECT_EQ(message([](DpSgdConfig& c) { c.learning_rate = std::nan(""); }),
            "learning_rate must be finite and > 0, got nan");
  EXPECT_EQ(message([](DpSgdConfig& c) { c.momentum = 1.0; }), "momentum must be in [0, 1), got 1");
  EXPECT_EQ(message([](DpSgdConfig& c) { c.epochs = 0; }), "epochs must be >= 1, got 0");
  EXPECT_EQ(message([](DpSgdConfig& c) { c.threads = -2; }), "threads must be >= 0, got -2");
  EXPECT_EQ(message([](DpSgdConfig& c) { c.weight_decay = -1e-5; }),
            "weight_decay must be finite and >= 0, got -1e-05");
  EXPECT_EQ(message([](DpSgdConfig& c) {
              c.sampling = Sampling::kShuffle;
              c.num_microbatches = 3;
            }),
            "num_microbatches 3 does not divide the batch size 20");
  EXPECT_EQ(message([](DpSgdConfig& c) { c.num_microbatches = 32; }),
            "num_microbatches 32 exceeds the expected batch size 20");
  EXPECT_EQ(message([](DpSgdConfig& c) {
              c.noise_multiplier = 1e308;
              c.clip_norm = 10;
            }),
            "noise_multiplier * clip_norm must be finite, got inf");
  // Non-private training ignores the privacy parameters.
  EXPECT_TRUE(TrainDpSgd(model, data.x, data.y,
                         [] {
                           DpSgdConfig c = BaseConfig();
                           c.private_training = false;
                           c.clip_norm = 0;
                           return c;
                         }())
                  .ok());
  // Bad data.
  EXPECT_EQ(TrainDpSgd(model, data.x.narrow(1, 0, 3), data.y, BaseConfig()).message(),
            "x must have shape (N, 4), got (500, 3)");
  EXPECT_EQ(TrainDpSgd(model, data.x, data.y.narrow(0, 0, 10), BaseConfig()).message(),
            "y must have shape (500), one label per row of x, got (10)");
  EXPECT_EQ(ParseSampling("uniform").message(),
            "sampling must be \"poisson\" or \"shuffle\", got \"uniform\"");
}

TEST(DpSgdTest, NanFeatureIsRefusedBeforeTraining) {
  DpModel model = DpModel::Create(LogisticRegressionSpec(4, 2), 0).value();
  testing::Blobs data = testing::TwoBlobs(100, 4, 4.0, 1);
  data.x[17][2] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(TrainDpSgd(model, data.x, data.y, BaseConfig()).message(),
            "x contains a non-finite value in row 17");
}

TEST(DpSgdTest, DivergenceIsReportedWithTheStep) {
  const std::regex pattern(
      "(NaN loss|non-finite loss -?inf|non-finite (noisy )?gradient) at step ([0-9]+) of "
      "([0-9]+) \\(epoch ([0-9]+)\\)");
  const testing::Blobs data = testing::TwoBlobs(200, 4, 4.0, 1);
  for (bool priv : {false, true}) {
    SCOPED_TRACE(priv ? "private" : "non-private");
    DpModel model = DpModel::Create(MlpSpec("mlp", 4, {8}, Activation::kRelu, 2), 1).value();
    DpSgdConfig c = BaseConfig();
    c.private_training = priv;
    c.clip_norm = 1e30;
    c.noise_multiplier = 0.0;
    c.learning_rate = 1e36;  // diverges within a few steps
    c.epochs = 5;
    auto r = TrainDpSgd(model, data.x, data.y, c);
    ASSERT_FALSE(r.ok());
    std::smatch m;
    ASSERT_TRUE(std::regex_match(r.message(), m, pattern)) << r.message();
    EXPECT_GE(std::stoi(m[3]), 2) << r.message();  // step 1 starts from finite weights
  }
  // Poisoned (finite but huge) features in two rows of different labels: one
  // of them is misclassified, its gradient blows the weight up, and the
  // next visit overflows the logits.
  testing::Blobs poisoned = testing::TwoBlobs(200, 4, 4.0, 2);
  poisoned.x[5][0] = 3e37f;
  poisoned.x[6][0] = 3e37f;
  DpModel model = DpModel::Create(LogisticRegressionSpec(4, 2), 1).value();
  DpSgdConfig c = BaseConfig();
  c.private_training = false;
  c.sampling = Sampling::kShuffle;
  c.epochs = 10;
  auto r = TrainDpSgd(model, poisoned.x, poisoned.y, c);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(std::regex_match(r.message(), pattern)) << r.message();
}

TEST(DpSgdTest, SameSeedGivesIdenticalWeights) {
  const testing::Blobs data = testing::TwoBlobs(300, 6, 3.0, 3);
  for (Sampling s : {Sampling::kPoisson, Sampling::kShuffle}) {
    for (int64_t m : {0, 4}) {
      auto train = [&](uint64_t seed) {
        DpModel model = DpModel::Create(MlpSpec("mlp", 6, {5}, Activation::kTanh, 2), 9).value();
        DpSgdConfig c = BaseConfig();
        c.sampling = s;
        c.num_microbatches = m;
        c.seed = seed;
        auto r = TrainDpSgd(model, data.x, data.y, c);
        EXPECT_TRUE(r.ok()) << r.message();
        return testing::Snapshot(model);
      };
      const auto a = train(5), b = train(5), d = train(6);
      for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_TRUE(at::equal(a[i], b[i])) << SamplingName(s) << " m=" << m;
        EXPECT_FALSE(at::equal(a[i], d[i])) << SamplingName(s) << " m=" << m;
      }
    }
  }
}

TEST(DpSgdTest, NonPrivateTrainingLearnsASeparableProblem) {
  // Bayes accuracy Phi(3) = 0.9987 at separation 6.
  const testing::Blobs train = testing::TwoBlobs(1000, 5, 6.0, 4);
  const testing::Blobs test = testing::TwoBlobs(1000, 5, 6.0, 5);
  for (Sampling s : {Sampling::kPoisson, Sampling::kShuffle}) {
    DpModel model = DpModel::Create(AdultMlpSpec(5, 16), 1).value();
    DpSgdConfig c = BaseConfig();
    c.private_training = false;
    c.sampling = s;
    c.epochs = 5;
    auto r = TrainDpSgd(model, train.x, train.y, c);
    ASSERT_TRUE(r.ok()) << r.message();
    EXPECT_GE(Accuracy(model, test.x, test.y).value(), 0.98) << SamplingName(s);
    EXPECT_LT(r->loss_per_epoch.back(), r->loss_per_epoch.front());
    EXPECT_FALSE(r->eps_reportable);
  }
  // DP-SGD at moderate noise still learns it (sigma = 1, C = 1, batch 50).
  DpModel model = DpModel::Create(LogisticRegressionSpec(5, 2), 1).value();
  DpSgdConfig c = BaseConfig();
  c.batch_size = 50;
  c.epochs = 5;
  auto r = TrainDpSgd(model, train.x, train.y, c);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_GE(Accuracy(model, test.x, test.y).value(), 0.95);
}

TEST(DpSgdTest, AdamFollowsTfOneAndLearns) {
  // TF1 Adam's first step from zero state: m = (1-b1) g, v = (1-b2) g^2,
  // step = lr sqrt(1-b2)/(1-b1), so theta moves by lr g / (|g| + eps') with
  // eps' = eps / sqrt(1-b2): about lr * sign(g).
  DpSgdConfig adam;
  adam.optimizer = OptimizerKind::kAdam;
  adam.learning_rate = 0.01;
  torch::Tensor theta = torch::zeros({3}, torch::kFloat64);
  internal::Optimizer opt({theta}, adam);
  opt.Step({torch::tensor({2.0, -0.5, 1e-3}, torch::kFloat64)});
  const double eps_hat = 1e-8 / std::sqrt(1 - 0.999);
  EXPECT_NEAR(theta[0].item<double>(), -0.01 * 2.0 / (2.0 + eps_hat), 1e-12);
  EXPECT_NEAR(theta[1].item<double>(), 0.01 * 0.5 / (0.5 + eps_hat), 1e-12);
  EXPECT_NEAR(theta[2].item<double>(), -0.01 * 1e-3 / (1e-3 + eps_hat), 1e-12);
  EXPECT_EQ(ParseOptimizer("adam").value(), OptimizerKind::kAdam);
  EXPECT_EQ(ParseOptimizer("sgd").message(), "optimizer must be momentum_sgd or adam, got 'sgd'");

  // DP-SGD with Adam (J&E's DPAdamGaussianOptimizer) learns the toy problem.
  const testing::Blobs train = testing::TwoBlobs(1000, 5, 6.0, 4);
  const testing::Blobs test = testing::TwoBlobs(1000, 5, 6.0, 5);
  DpModel model = DpModel::Create(LogisticRegressionSpec(5, 2), 1).value();
  DpSgdConfig c = BaseConfig();
  c.optimizer = OptimizerKind::kAdam;
  c.batch_size = 50;
  c.epochs = 5;
  auto r = TrainDpSgd(model, train.x, train.y, c);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->optimizer, "adam");
  EXPECT_GE(Accuracy(model, test.x, test.y).value(), 0.95);
  c.adam_beta2 = 1.0;
  EXPECT_NE(TrainDpSgd(model, train.x, train.y, c).message().find("adam_beta2"), std::string::npos);
}

TEST(DpSgdTest, UpdateOfOneNoiselessStepIsBoundedByTheClipNorm) {
  // One step (shuffle, batch = N), lr 1, no momentum, no noise: the update
  // is sum_j clip(g_j) / m, of norm <= C; with huge inputs every microbatch
  // is clipped.
  const testing::Blobs data = testing::TwoBlobs(64, 8, 2.0, 6);
  const torch::Tensor x = data.x * 100.0;
  for (int64_t m : {0, 1, 8, 64}) {
    DpModel model = DpModel::Create(MlpSpec("mlp", 8, {6}, Activation::kTanh, 2), 2).value();
    const auto before = testing::Snapshot(model);
    DpSgdConfig c = BaseConfig();
    c.sampling = Sampling::kShuffle;
    c.batch_size = 64;
    c.epochs = 1;
    c.num_microbatches = m;
    c.noise_multiplier = 0.0;
    c.clip_norm = 0.5;
    c.learning_rate = 1.0;
    c.momentum = 0.0;
    auto r = TrainDpSgd(model, x, data.y, c);
    ASSERT_TRUE(r.ok()) << r.message();
    ASSERT_EQ(r->steps, 1);
    const double norm = testing::ParameterChange(model, before).norm().item<double>();
    EXPECT_LE(norm, 0.5 * (1 + 1e-5)) << "m = " << m;
    EXPECT_GT(norm, 0.0);
    if (m == 1) {
      EXPECT_NEAR(norm, 0.5, 1e-5);  // one clipped vector: exactly C
    }
  }
}

TEST(DpSgdTest, RecordsSamplingAndAccounting) {
  const testing::Blobs data = testing::TwoBlobs(1000, 3, 2.0, 8);
  DpModel model = DpModel::Create(LogisticRegressionSpec(3, 2), 1).value();
  DpSgdConfig c = BaseConfig();
  c.batch_size = 64;
  c.epochs = 3;
  c.noise_multiplier = 1.2;
  ProgressReporter progress("train", 1, /*quiet=*/true);
  auto r = TrainDpSgd(model, data.x, data.y, c, &progress);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->sampling, "poisson");
  EXPECT_TRUE(r->sampling_matches_poisson_accountant);
  EXPECT_TRUE(r->eps_reportable);
  EXPECT_DOUBLE_EQ(r->q, 0.064);
  EXPECT_EQ(r->steps, 47);  // ceil(3 * 1000 / 64), TF Privacy's count
  EXPECT_EQ(progress.done(), 47);
  EXPECT_FALSE(r->microbatched);
  EXPECT_EQ(r->accounting_noise_multiplier, 1.2);
  EXPECT_EQ(r->gradient_normaliser, 64.0);
  EXPECT_EQ(r->loss_per_epoch.size(), 3u);
  EXPECT_NEAR(r->mean_batch_size, 64.0, 8.0);
  EXPECT_EQ(r->gradient_norms, "layer 0 ghost norm");

  c.num_microbatches = 32;  // Epsilon* grid: microbatches {1, 32}
  r = TrainDpSgd(model, data.x, data.y, c);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->microbatched);
  EXPECT_EQ(r->accounting_noise_multiplier, 0.6);
  EXPECT_EQ(r->tf_privacy_0_5_1_noise_multiplier, 1.2);
  EXPECT_EQ(r->gradient_normaliser, 32.0);
  EXPECT_EQ(r->expected_microbatch_size, 2.0);
  // Microbatches of 2 rows: 2 (3 + 2) >= 3 * 2, materialised.
  EXPECT_EQ(r->gradient_norms,
            "per step by the largest microbatch; at the expected 2 rows: layer 0 materialised");
  EXPECT_EQ(NoiseMultiplierForAccounting(0.6, c), 1.2);

  c.sampling = Sampling::kShuffle;
  c.num_microbatches = 64;  // m = B is per-example clipping
  r = TrainDpSgd(model, data.x, data.y, c);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->microbatched);
  EXPECT_EQ(r->accounting_noise_multiplier, 1.2);
  EXPECT_FALSE(r->sampling_matches_poisson_accountant);
  EXPECT_FALSE(r->eps_reportable);
  EXPECT_EQ(r->steps, 45);  // 3 * floor(1000 / 64)
  EXPECT_EQ(r->empty_batches, 0);
  EXPECT_EQ(r->mean_batch_size, 64.0);
  bool found = false;
  for (const auto& [k, v] : r->Metadata()) {
    if (k == "sampling") {
      EXPECT_EQ(v, "shuffle");
      found = true;
    }
  }
  EXPECT_TRUE(found);

  c.private_training = false;
  r = TrainDpSgd(model, data.x, data.y, c);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->accounting_noise_multiplier, 0.0);
  EXPECT_FALSE(r->eps_reportable);
  EXPECT_EQ(r->gradient_norms, "none (non-private)");
}

TEST(DpSgdTest, EmptyPoissonBatchesStillReleaseNoise) {
  // q = 1/8 on 8 examples: P(empty batch) = (7/8)^8 = 0.34; over 80 steps
  // P(no empty batch) = 0.66^80 < 1e-14.
  const testing::Blobs data = testing::TwoBlobs(8, 3, 2.0, 9);
  DpModel model = DpModel::Create(LogisticRegressionSpec(3, 2), 1).value();
  DpSgdConfig c = BaseConfig();
  c.batch_size = 1;
  c.epochs = 10;
  c.num_microbatches = 1;
  auto r = TrainDpSgd(model, data.x, data.y, c);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->steps, 80);
  EXPECT_GT(r->empty_batches, 0);
}

}  // namespace
}  // namespace privbench
