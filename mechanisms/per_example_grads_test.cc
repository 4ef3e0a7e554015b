#include "mechanisms/per_example_grads.h"

#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <torch/csrc/autograd/autograd.h>

#include <cmath>
#include <string>
#include <vector>

#include "mechanisms/testing.h"

namespace privbench {
namespace {

// Relative agreement of the vectorised engine with the autograd loop:
// float32 arithmetic in different orders.
constexpr double kRelTol = 1e-5;

double MaxRelDiff(const torch::Tensor& a, const torch::Tensor& b) {
  const double scale = std::max(b.to(torch::kDouble).abs().max().item<double>(), 1e-30);
  return (a.to(torch::kDouble) - b.to(torch::kDouble)).abs().max().item<double>() / scale;
}

// Compares ComputeClippedGradientSum against ComputeClippedGradientSumLoop
// at a clip norm equal to the median microbatch norm (so some microbatches
// are clipped and some are not).
void ExpectMatchesLoop(const DpModel& model, const torch::Tensor& x, const torch::Tensor& y,
                       const Microbatching& mb, const std::string& label,
                       ConvNorms conv_norms = ConvNorms::kAuto) {
  SCOPED_TRACE(label);
  auto unclipped = ComputeClippedGradientSumLoop(model, x, y, mb, 1e30);
  ASSERT_TRUE(unclipped.ok()) << unclipped.message();
  const torch::Tensor nonzero = unclipped->norms.masked_select(unclipped->norms > 0);
  const double clip = nonzero.median().item<double>();
  auto ref = ComputeClippedGradientSumLoop(model, x, y, mb, clip);
  auto vec = ComputeClippedGradientSum(model, x, y, mb, clip, conv_norms);
  ASSERT_TRUE(ref.ok()) << ref.message();
  ASSERT_TRUE(vec.ok()) << vec.message();
  ASSERT_EQ(vec->norms.size(0), ref->norms.size(0));
  EXPECT_LT(MaxRelDiff(vec->norms, ref->norms), kRelTol) << vec->norms << ref->norms;
  EXPECT_NEAR(vec->loss_sum, ref->loss_sum, 1e-5 * std::abs(ref->loss_sum));
  ASSERT_EQ(vec->sum.size(), model.parameters().size());
  for (size_t p = 0; p < vec->sum.size(); ++p) {
    EXPECT_EQ(vec->sum[p].sizes(), model.parameters()[p].sizes());
    EXPECT_LT(MaxRelDiff(vec->sum[p], ref->sum[p]), kRelTol) << "parameter " << p;
  }
  // Some microbatches were clipped, some not: the comparison exercised both.
  EXPECT_GT((ref->norms > clip * 1.0001).sum().item<int64_t>(), 0);
}

TEST(PerExampleGradsTest, MlpPerExampleMatchesAutogradLoop) {
  auto model = DpModel::Create(MlpSpec("mlp", 6, {7, 5}, Activation::kTanh, 3), 11);
  ASSERT_TRUE(model.ok());
  const torch::Tensor x = testing::NormalTensor({12, 6}, 1);
  const torch::Tensor y = testing::RandomLabels(12, 3, 1);
  ExpectMatchesLoop(*model, x, y, Microbatching::PerExample(), "per-example");
}

TEST(PerExampleGradsTest, CnnPerExampleMatchesAutogradLoop) {
  auto model = DpModel::Create(FashionMnistCnnSpec(), 12);
  ASSERT_TRUE(model.ok());
  const torch::Tensor x = testing::NormalTensor({6, 1, 28, 28}, 2);
  const torch::Tensor y = testing::RandomLabels(6, 10, 2);
  ExpectMatchesLoop(*model, x, y, Microbatching::PerExample(), "cnn per-example");
  auto relu = DpModel::Create(FashionMnistCnnSpec(Activation::kRelu), 12);
  ASSERT_TRUE(relu.ok());
  ExpectMatchesLoop(*relu, x, y, Microbatching::PerExample(), "relu cnn per-example");
}

// Average pooling (the Bayesian paper's CNN, experiments/lira_bayes_audit/README.md): values are
// the window means and the per-example gradients match the autograd loop.
TEST(PerExampleGradsTest, AvgPoolCnnMatchesAutogradLoop) {
  ModelSpec spec;
  spec.name = "avgpool_cnn";
  spec.input_shape = {1, 8, 8};
  spec.num_classes = 3;
  spec.layers = {LayerSpec::Conv2d(1, 4, 3, 1, 0), LayerSpec::Act(Activation::kTanh),
                 LayerSpec::AvgPool2d(2, 2), LayerSpec::Flatten(), LayerSpec::Linear(36, 3)};
  auto model = DpModel::Create(spec, 5);
  ASSERT_TRUE(model.ok()) << model.message();
  EXPECT_EQ(DescribeModel(spec),
            "Conv2d(1->4, k3, s1, p0) Tanh AvgPool2d(k2, s2) Flatten Linear(36->3)");
  const torch::Tensor x = testing::NormalTensor({5, 1, 8, 8}, 3);
  const torch::Tensor y = testing::RandomLabels(5, 3, 3);
  ExpectMatchesLoop(*model, x, y, Microbatching::PerExample(), "avgpool per-example");
  ModelSpec pool_only = spec;
  pool_only.layers = {LayerSpec::AvgPool2d(2, 2), LayerSpec::Flatten(), LayerSpec::Linear(16, 3)};
  auto p = DpModel::Create(pool_only, 1);
  ASSERT_TRUE(p.ok());
  ModelSpec bad = spec;
  bad.layers = {LayerSpec::AvgPool2d(9, 1), LayerSpec::Flatten(), LayerSpec::Linear(1, 3)};
  EXPECT_FALSE(DpModel::Create(bad, 1).ok());  // kernel larger than the input
}

TEST(PerExampleGradsTest, MicrobatchesMatchAutogradLoop) {
  // Layer 1 (40 -> 30) takes the Gram path (b (din + dout) < din dout),
  // layer 2 (30 -> 3) the materialising path.
  auto mlp = DpModel::Create(MlpSpec("mlp", 40, {30}, Activation::kTanh, 3), 13);
  ASSERT_TRUE(mlp.ok());
  const torch::Tensor x = testing::NormalTensor({12, 40}, 3);
  const torch::Tensor y = testing::RandomLabels(12, 3, 3);
  ExpectMatchesLoop(*mlp, x, y, Microbatching::Contiguous(12, 3).value(), "contiguous m=3");
  ExpectMatchesLoop(*mlp, x, y, Microbatching::Contiguous(12, 6).value(), "contiguous m=6");
  // Unequal sizes with an empty microbatch (Poisson-style random groups).
  const std::vector<int64_t> groups = {2, 0, 2, 2, 4, 0, 2, 1, 4, 2, 0, 1};
  ExpectMatchesLoop(*mlp, x, y, Microbatching::Groups(groups, 5).value(), "groups");
  // At most one example per microbatch, but not per-example.
  ExpectMatchesLoop(*mlp, x.narrow(0, 0, 3), y.narrow(0, 0, 3),
                    Microbatching::Groups({3, 0, 1}, 4).value(), "singletons");

  auto cnn = DpModel::Create(FashionMnistCnnSpec(), 14);
  ASSERT_TRUE(cnn.ok());
  const torch::Tensor xc = testing::NormalTensor({12, 1, 28, 28}, 4);
  const torch::Tensor yc = testing::RandomLabels(12, 10, 4);
  ExpectMatchesLoop(*cnn, xc, yc, Microbatching::Contiguous(12, 4).value(), "cnn m=4");
  ExpectMatchesLoop(*cnn, xc, yc, Microbatching::Groups(groups, 5).value(), "cnn groups");
}

// Both ways to a convolution's norms (ghost norm and materialised
// gradients, per_example_grads.h) agree with the loop on their own, with
// strides, padding, pooling, microbatches of unequal size (padding rows)
// and an empty microbatch.
TEST(PerExampleGradsTest, ConvGhostNormAndMaterialisedBothMatchAutogradLoop) {
  auto cnn = DpModel::Create(FashionMnistCnnSpec(), 17);
  ASSERT_TRUE(cnn.ok());
  const torch::Tensor x = testing::NormalTensor({12, 1, 28, 28}, 7);
  const torch::Tensor y = testing::RandomLabels(12, 10, 7);
  const std::vector<int64_t> groups = {2, 0, 2, 2, 4, 0, 2, 1, 4, 2, 0, 1};
  for (ConvNorms way : {ConvNorms::kGhostNorm, ConvNorms::kMaterialise}) {
    const std::string name = way == ConvNorms::kGhostNorm ? "ghost" : "materialised";
    ExpectMatchesLoop(*cnn, x, y, Microbatching::PerExample(), name + " per-example", way);
    ExpectMatchesLoop(*cnn, x, y, Microbatching::Contiguous(12, 4).value(), name + " m=4", way);
    ExpectMatchesLoop(*cnn, x, y, Microbatching::Groups(groups, 5).value(), name + " groups", way);
  }
}

// The ghost-norm path in many small chunks (one microbatch each) gives the
// norms and sums of one chunk, on padded unequal microbatches too.
TEST(PerExampleGradsTest, ConvGhostNormChunksAgree) {
  auto cnn = DpModel::Create(FashionMnistCnnSpec(), 19);
  ASSERT_TRUE(cnn.ok());
  const torch::Tensor x = testing::NormalTensor({12, 1, 28, 28}, 9);
  const torch::Tensor y = testing::RandomLabels(12, 10, 9);
  const std::vector<int64_t> groups = {2, 0, 2, 2, 4, 0, 2, 1, 4, 2, 0, 1};
  for (const Microbatching& mb :
       {Microbatching::PerExample(), Microbatching::Groups(groups, 5).value()}) {
    const ClippedGradientSum one = internal::ClippedGradientSumUnchecked(
        *cnn, x, y, mb, 0.5, ConvNorms::kGhostNorm, int64_t{1} << 30);
    const ClippedGradientSum many =
        internal::ClippedGradientSumUnchecked(*cnn, x, y, mb, 0.5, ConvNorms::kGhostNorm, 1);
    EXPECT_LT(MaxRelDiff(many.norms, one.norms), 1e-6);
    for (size_t p = 0; p < one.sum.size(); ++p) {
      EXPECT_LT(MaxRelDiff(many.sum[p], one.sum[p]), 1e-6) << "parameter " << p;
      EXPECT_FALSE(many.sum[p].requires_grad()) << "parameter " << p;
    }
  }
}

// The Bayesian paper's CNN under the mixed rule: its first convolution
// materialised, the other two by ghost norm; the result matches the loop.
TEST(PerExampleGradsTest, PaperCnnMixedRuleMatchesAutogradLoop) {
  const ModelSpec spec = BayesPaperCnnSpec(10);
  EXPECT_EQ(DescribeGradientNorms(spec, 1),
            "layer 0 materialised; layer 3 ghost norm; layer 5 ghost norm; layer 9 ghost norm");
  // Microbatches of 8: layer 3 has 2 (8 * 100)^2 > 256 * 1152 and
  // materialises, layer 5 still 2 (8 * 64)^2 = 524,288 < 256 * 2304.
  EXPECT_EQ(DescribeGradientNorms(spec, 8),
            "layer 0 materialised; layer 3 materialised; layer 5 ghost norm; layer 9 ghost norm");
  EXPECT_EQ(DescribeGradientNorms(spec, 1, ConvNorms::kGhostNorm),
            "layer 0 ghost norm; layer 3 ghost norm; layer 5 ghost norm; layer 9 ghost norm");
  auto model = DpModel::Create(spec, 18);
  ASSERT_TRUE(model.ok());
  const torch::Tensor x = testing::NormalTensor({4, 1, 28, 28}, 8);
  const torch::Tensor y = testing::RandomLabels(4, 10, 8);
  ExpectMatchesLoop(*model, x, y, Microbatching::PerExample(), "paper cnn per-example");
}

TEST(PerExampleGradsTest, OneMicrobatchClipsTheBatchMeanOnce) {
  // TF Privacy num_microbatches = 1: the mean gradient of the whole batch is
  // clipped once. Checked against plain autograd of the mean loss.
  auto model = DpModel::Create(MlpSpec("mlp", 5, {4}, Activation::kTanh, 2), 15);
  ASSERT_TRUE(model.ok());
  const torch::Tensor x = testing::NormalTensor({8, 5}, 5, 3.0);
  const torch::Tensor y = testing::RandomLabels(8, 2, 5);
  const torch::Tensor loss = internal::SummedCrossEntropy(model->Forward(x), y) / 8.0;
  std::vector<torch::Tensor> g = torch::autograd::grad({loss}, model->parameters());
  double sq = 0.0;
  for (const auto& t : g) sq += t.to(torch::kDouble).pow(2).sum().item<double>();
  const double norm = std::sqrt(sq);
  const double clip = norm / 4.0;
  auto cs = ComputeClippedGradientSum(*model, x, y, Microbatching::Contiguous(8, 1).value(), clip);
  ASSERT_TRUE(cs.ok()) << cs.message();
  ASSERT_EQ(cs->norms.size(0), 1);
  EXPECT_NEAR(cs->norms[0].item<double>(), norm, 1e-5 * norm);
  for (size_t p = 0; p < g.size(); ++p) {
    EXPECT_LT(MaxRelDiff(cs->sum[p], g[p] * (clip / norm)), kRelTol);
  }
}

TEST(PerExampleGradsTest, ClippingBoundsEveryContribution) {
  // Large inputs make every gradient far larger than C: each microbatch
  // contributes exactly norm C, so ||S|| <= m C.
  auto model = DpModel::Create(MlpSpec("mlp", 10, {8}, Activation::kTanh, 4), 16);
  ASSERT_TRUE(model.ok());
  const torch::Tensor x = testing::NormalTensor({32, 10}, 6, 50.0);
  const torch::Tensor y = testing::RandomLabels(32, 4, 6);
  const double clip = 0.01;
  for (int64_t m : {1, 4, 32}) {
    auto cs =
        ComputeClippedGradientSum(*model, x, y, Microbatching::Contiguous(32, m).value(), clip);
    ASSERT_TRUE(cs.ok());
    double sq = 0.0;
    for (const auto& t : cs->sum) sq += t.to(torch::kDouble).pow(2).sum().item<double>();
    EXPECT_LE(std::sqrt(sq), m * clip * (1 + 1e-6)) << "m = " << m;
    EXPECT_GT(cs->norms.min().item<double>(), clip);
  }
  // Per-example with C = 1: one example's clipped gradient has norm 1.
  auto one = ComputeClippedGradientSum(*model, x.narrow(0, 0, 1), y.narrow(0, 0, 1),
                                       Microbatching::PerExample(), 1e-3);
  ASSERT_TRUE(one.ok());
  double sq = 0.0;
  for (const auto& t : one->sum) sq += t.to(torch::kDouble).pow(2).sum().item<double>();
  EXPECT_NEAR(std::sqrt(sq), 1e-3, 1e-8);
}

TEST(PerExampleGradsTest, RefusesBadInput) {
  EXPECT_EQ(Microbatching::Contiguous(10, 3).message(),
            "num_microbatches 3 does not divide the batch size 10");
  EXPECT_EQ(Microbatching::Contiguous(10, 0).message(), "num_microbatches must be >= 1, got 0");
  EXPECT_EQ(Microbatching::Groups({0, 3}, 3).message(), "group_of[1] must be in [0, 3), got 3");
  EXPECT_TRUE(Microbatching::Contiguous(10, 10)->per_example());
  auto model = DpModel::Create(LogisticRegressionSpec(3, 2), 0);
  ASSERT_TRUE(model.ok());
  const torch::Tensor x = testing::NormalTensor({4, 3}, 1);
  const torch::Tensor y = testing::RandomLabels(4, 2, 1);
  EXPECT_EQ(ComputeClippedGradientSum(*model, x, y, Microbatching::PerExample(), 0.0).message(),
            "clip_norm must be finite and > 0, got 0");
  EXPECT_EQ(ComputeClippedGradientSum(*model, x, y, Microbatching::Contiguous(2, 1).value(), 1.0)
                .message(),
            "the microbatching assigns 2 rows, but the batch has 4");
  EXPECT_EQ(
      ComputeClippedGradientSumLoop(*model, x.narrow(1, 0, 2), y, Microbatching::PerExample(), 1.0)
          .message(),
      "x must have shape (N, 3), got (4, 2)");
}

}  // namespace
}  // namespace privbench
