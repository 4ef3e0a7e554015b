// TrainAndScore and DescribeArchitecture on CIFAR-10-shaped data: the paper's
// CNN built for 3 x 32 x 32 inputs trains (one DP-SGD and one non-private
// step) and scores; the MLP takes 3,072 inputs; the Fashion-MNIST CNN is the
// one of before.
#include "experiments/lira_bayes_audit/training.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "mechanisms/dp_model.h"

namespace privbench {
namespace lira_bayes_audit {
namespace {

// n pool and n test images C x S x S of standard normal values, labels i % 10.
AuditData Synthetic(int64_t channels, int64_t side, int64_t n) {
  AuditData d;
  d.num_features = channels * side * side;
  d.num_classes = 10;
  d.input_shape = {channels, side, side};
  std::mt19937_64 rng(7);
  std::normal_distribution<float> normal;
  for (int64_t i = 0; i < n * d.num_features; ++i) {
    d.pool_x.push_back(normal(rng));
    d.test_x.push_back(normal(rng));
  }
  for (int64_t i = 0; i < n; ++i) {
    d.pool_y.push_back(i % 10);
    d.test_y.push_back((i + 3) % 10);
  }
  return d;
}

std::string Value(const ModelScores& s, const std::string& key) {
  for (const auto& kv : s.record) {
    if (kv.first == key) return kv.second;
  }
  return "";
}

TEST(TrainingTest, PaperCnnTrainsOneStepOnThreeChannelImages) {
  const AuditData data = Synthetic(3, 32, 8);
  TrainSpec spec;
  spec.model = "paper_cnn";
  spec.epochs = 1;
  spec.batch_size = 8;  // q = 1: one step over the 8 training rows
  for (bool dp : {false, true}) {
    spec.private_training = dp;
    spec.noise_multiplier = dp ? 1.0 : 0.0;
    spec.learning_rate = 0.05;
    auto r = TrainAndScore(data, {0, 1, 2, 3, 4, 5, 6, 7}, {0, 5}, spec, 11, 12);
    ASSERT_TRUE(r.ok()) << r.message();
    EXPECT_EQ(Value(*r, "steps"), "1");
    EXPECT_EQ(Value(*r, "private_training"), dp ? "true" : "false");
    ASSERT_EQ(r->phi.size(), 2u);
    for (double v : r->phi) EXPECT_TRUE(std::isfinite(v));
    ASSERT_EQ(r->test_prob.size(), 8u);
    for (double p : r->test_prob) EXPECT_TRUE(p > 0.0 && p < 1.0) << p;
    EXPECT_GE(r->test_accuracy, 0.0);
    EXPECT_LE(r->test_accuracy, 1.0);
  }
}

TEST(TrainingTest, ArchitecturesFollowTheInputShape) {
  TrainSpec cnn;
  cnn.model = "paper_cnn";
  auto cifar = DescribeArchitecture(Synthetic(3, 32, 1), cnn);
  ASSERT_TRUE(cifar.ok()) << cifar.message();
  // The public code's CIFAR-10 model: Conv2d(3, 128, 8, 2, 3) ... Linear(6400, 10).
  EXPECT_EQ(cifar->first.rfind("Conv2d(3->128", 0), 0u) << cifar->first;
  EXPECT_NE(cifar->first.find("Linear(6400->10)"), std::string::npos) << cifar->first;
  EXPECT_EQ(cifar->second, 24704 + 295168 + 590080 + 64010);  // 973,962
  // Fashion-MNIST: the 1 x 28 x 28 CNN of before, the default spec unchanged.
  auto fmnist = DescribeArchitecture(Synthetic(1, 28, 1), cnn);
  ASSERT_TRUE(fmnist.ok()) << fmnist.message();
  EXPECT_EQ(fmnist->first, DescribeModel(BayesPaperCnnSpec(10)));
  EXPECT_NE(fmnist->first.find("Linear(4096->10)"), std::string::npos) << fmnist->first;
  EXPECT_EQ(fmnist->second, 934538);
  TrainSpec mlp;
  mlp.hidden = 8;
  auto flat = DescribeArchitecture(Synthetic(3, 32, 1), mlp);
  ASSERT_TRUE(flat.ok()) << flat.message();
  EXPECT_EQ(flat->first, "Linear(3072->8) Tanh Linear(8->10)");
  EXPECT_EQ(flat->second, 3072 * 8 + 8 + 8 * 10 + 10);
}

TEST(TrainingTest, PaperCnnNeedsSquareImagesOfTheFeatureCount) {
  TrainSpec cnn;
  cnn.model = "paper_cnn";
  AuditData flat = Synthetic(3, 32, 1);
  flat.input_shape.clear();
  auto r = DescribeArchitecture(flat, cnn);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("paper_cnn needs square images C x S x S of num_features = 3072"),
            std::string::npos)
      << r.message();
  AuditData wrong = Synthetic(3, 32, 1);
  wrong.input_shape = {1, 28, 28};
  EXPECT_FALSE(DescribeArchitecture(wrong, cnn).ok());
}

}  // namespace
}  // namespace lira_bayes_audit
}  // namespace privbench
