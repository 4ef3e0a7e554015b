// TrainDpSgdBatched against TrainDpSgd: K models trained together must be
// the K models trained one at a time (same seeds: same batches and noise),
// up to the float32 rounding of batched matrix products; and what it does
// not cover is refused naming the argument.
#include "mechanisms/dpsgd_batched.h"

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "mechanisms/testing.h"

namespace privbench {
namespace {

DpSgdConfig Base(bool priv) {
  DpSgdConfig c;
  c.private_training = priv;
  c.noise_multiplier = 0.7;
  c.clip_norm = 0.5;
  c.batch_size = 40;
  c.epochs = 3;
  c.learning_rate = 0.1;
  c.momentum = 0.9;
  c.weight_decay = 1e-3;
  return c;
}

std::vector<DpModel> Models(const ModelSpec& spec, int k) {
  std::vector<DpModel> v;
  for (int i = 0; i < k; ++i) v.push_back(DpModel::Create(spec, 100 + i).value());
  return v;
}

std::vector<DpSgdConfig> Seeded(const DpSgdConfig& c, int k) {
  std::vector<DpSgdConfig> v(k, c);
  for (int i = 0; i < k; ++i) v[i].seed = 7 + static_cast<uint64_t>(i);
  return v;
}

void ExpectSameAsOneAtATime(const ModelSpec& spec, const DpSgdConfig& c, int64_t n) {
  const testing::Blobs data = testing::TwoBlobs(n, 6, 2.0, 9);
  const int k = 5;
  std::vector<DpModel> batched = Models(spec, k);
  Result<std::vector<TrainingRecord>> recs =
      TrainDpSgdBatched(batched, data.x, data.y, Seeded(c, k));
  ASSERT_TRUE(recs.ok()) << recs.message();
  std::vector<DpModel> single = Models(spec, k);
  const std::vector<DpSgdConfig> configs = Seeded(c, k);
  for (int i = 0; i < k; ++i) {
    Result<TrainingRecord> r = TrainDpSgd(single[i], data.x, data.y, configs[i]);
    ASSERT_TRUE(r.ok()) << r.message();
    const TrainingRecord& b = (*recs)[i];
    EXPECT_EQ(b.steps, r->steps);
    EXPECT_EQ(b.empty_batches, r->empty_batches) << "model " << i;
    EXPECT_EQ(b.mean_batch_size, r->mean_batch_size) << "model " << i;
    EXPECT_EQ(b.seed, r->seed);
    ASSERT_EQ(b.loss_per_epoch.size(), r->loss_per_epoch.size());
    for (size_t e = 0; e < b.loss_per_epoch.size(); ++e) {
      EXPECT_NEAR(b.loss_per_epoch[e], r->loss_per_epoch[e], 1e-5)
          << "model " << i << " epoch " << e;
    }
    for (size_t p = 0; p < single[i].parameters().size(); ++p) {
      const double diff =
          (batched[i].parameters()[p] - single[i].parameters()[p]).abs().max().item<double>();
      EXPECT_LT(diff, 1e-4) << "model " << i << " parameter " << p;  // measured <= 5.3e-6
    }
  }
  // Different seeds train different models (the streams are per model).
  EXPECT_FALSE(at::allclose(batched[0].parameters()[0], batched[1].parameters()[0]));
}

TEST(DpSgdBatched, PrivateTanhMlpEqualsOneAtATime) {
  ExpectSameAsOneAtATime(MlpSpec("mlp", 6, {8}, Activation::kTanh, 2), Base(true), 200);
}

TEST(DpSgdBatched, PrivateReluMlpWithTwoHiddenLayersEqualsOneAtATime) {
  DpSgdConfig c = Base(true);
  c.momentum = 0.0;
  c.weight_decay = 0.0;
  ExpectSameAsOneAtATime(MlpSpec("mlp", 6, {8, 5}, Activation::kRelu, 3), c, 200);
}

TEST(DpSgdBatched, NonPrivateEqualsOneAtATimeIncludingSkippedEmptyBatches) {
  DpSgdConfig c = Base(false);
  c.batch_size = 2;  // q = 0.02 on 100 rows: some batches are empty
  c.epochs = 2;
  ExpectSameAsOneAtATime(MlpSpec("mlp", 6, {4}, Activation::kTanh, 2), c, 100);
}

TEST(DpSgdBatched, PrivateEmptyBatchesStillReleaseNoise) {
  DpSgdConfig c = Base(true);
  c.batch_size = 2;
  c.epochs = 2;
  ExpectSameAsOneAtATime(MlpSpec("lr", 6, {}, Activation::kTanh, 2), c, 100);
}

TEST(DpSgdBatched, RefusesWhatItDoesNotCover) {
  const testing::Blobs data = testing::TwoBlobs(100, 6, 2.0, 9);
  const ModelSpec mlp = MlpSpec("mlp", 6, {4}, Activation::kTanh, 2);
  auto refused = [&](std::vector<DpModel> models, std::vector<DpSgdConfig> configs,
                     const std::string& names) {
    Result<std::vector<TrainingRecord>> r = TrainDpSgdBatched(models, data.x, data.y, configs);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.message().find(names), std::string::npos) << r.message();
  };
  refused({}, {}, "models");
  refused(Models(mlp, 2), Seeded(Base(true), 3), "configs: 3 configs for 2 models");
  DpSgdConfig shuffle = Base(true);
  shuffle.sampling = Sampling::kShuffle;
  refused(Models(mlp, 2), Seeded(shuffle, 2), "Poisson");
  DpSgdConfig micro = Base(true);
  micro.num_microbatches = 4;
  refused(Models(mlp, 2), Seeded(micro, 2), "num_microbatches");
  DpSgdConfig adam = Base(true);
  adam.optimizer = OptimizerKind::kAdam;
  refused(Models(mlp, 2), Seeded(adam, 2), "momentum SGD");
  std::vector<DpSgdConfig> differ = Seeded(Base(true), 2);
  differ[1].learning_rate = 0.2;
  refused(Models(mlp, 2), differ, "configs[1] differs");
  std::vector<DpModel> mixed = Models(mlp, 1);
  mixed.push_back(DpModel::Create(MlpSpec("mlp", 6, {5}, Activation::kTanh, 2), 1).value());
  refused(std::move(mixed), Seeded(Base(true), 2), "models[1]");
  ModelSpec no_activation = mlp;  // Linear Linear: not what the backward covers
  no_activation.layers = {LayerSpec::Linear(6, 4), LayerSpec::Linear(4, 2)};
  std::vector<DpModel> linear_linear;
  linear_linear.push_back(DpModel::Create(no_activation, 1).value());
  refused(std::move(linear_linear), Seeded(Base(true), 1), "Linear (activation Linear)*");
  std::vector<DpModel> cnn;
  cnn.push_back(DpModel::Create(FashionMnistCnnSpec(), 1).value());
  const testing::Blobs images = testing::TwoBlobs(20, 784, 2.0, 1);
  Result<std::vector<TrainingRecord>> r =
      TrainDpSgdBatched(cnn, images.x, images.y, Seeded(Base(true), 1));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("MLPs of the form"), std::string::npos) << r.message();
}

// K models whose pass would not fit are refused before training, naming K.
TEST(DpSgdBatched, RefusesAPassThatDoesNotFitInMemory) {
  const ModelSpec spec = MlpSpec("d2", 784, {32}, Activation::kTanh, 2);  // 25,186 parameters
  // 4 * (4 * 25,186 + (250 + 6 sqrt(250) + 1) * 2 (784 + 64 + 32 + 4)) bytes per model.
  const uint64_t one = internal::BatchedPassBytes(spec, 25186, 1, 250);
  EXPECT_NEAR(static_cast<double>(one),
              4.0 * (4 * 25186 + (251 + 6 * std::sqrt(250.0)) * 2 * 884.0), 4.0);
  EXPECT_NEAR(static_cast<double>(internal::BatchedPassBytes(spec, 25186, 1000, 250)),
              1000.0 * static_cast<double>(one), 1000.0);  // linear in K
  EXPECT_TRUE(internal::CheckBatchedPassFits(100, 200, 8).ok());
  EXPECT_TRUE(internal::CheckBatchedPassFits(100, 0, 8).ok());  // unknown: not checked
  const Status refused = internal::CheckBatchedPassFits(uint64_t{3} << 30, uint64_t{4} << 30, 512);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.message(),
            "models: K = 512 models per pass do not fit in memory (about 3072 MiB needed, 4096 "
            "MiB available; this check allows half); pass fewer models at a time");
}

}  // namespace
}  // namespace privbench
