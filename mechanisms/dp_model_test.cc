#include "mechanisms/dp_model.h"

#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <torch/csrc/autograd/autograd.h>

#include <cmath>
#include <limits>

#include "mechanisms/testing.h"
#include "mechanisms/torch_boundary.h"

namespace privbench {
namespace {

TEST(DpModelTest, ArchitecturesHaveTheDocumentedSizes) {
  // Adult: Linear(108->128) Tanh Linear(128->2).
  auto adult = DpModel::Create(AdultMlpSpec(108), 1);
  ASSERT_TRUE(adult.ok()) << adult.message();
  EXPECT_EQ(adult->num_parameters(), 108 * 128 + 128 + 128 * 2 + 2);
  EXPECT_EQ(DescribeModel(adult->spec()), "Linear(108->128) Tanh Linear(128->2)");
  // Purchase: three hidden layers of 100 (Epsilon* §4.1).
  auto purchase = DpModel::Create(PurchaseMlpSpec(600, 100), 1);
  ASSERT_TRUE(purchase.ok()) << purchase.message();
  EXPECT_EQ(purchase->num_parameters(), 600 * 100 + 100 + 2 * (100 * 100 + 100) + 100 * 100 + 100);
  // TF Privacy tutorial CNN: 1040 + 8224 + 16416 + 330.
  auto cnn = DpModel::Create(FashionMnistCnnSpec(), 1);
  ASSERT_TRUE(cnn.ok()) << cnn.message();
  EXPECT_EQ(cnn->num_parameters(), 26010);
  auto lr = DpModel::Create(LogisticRegressionSpec(600, 100), 1);
  ASSERT_TRUE(lr.ok());
  EXPECT_EQ(lr->num_parameters(), 60100);
}

TEST(DpModelTest, ForwardShapesAndFlatInputs) {
  auto cnn = DpModel::Create(FashionMnistCnnSpec(), 3);
  ASSERT_TRUE(cnn.ok());
  torch::Tensor flat = testing::NormalTensor({5, 784}, 1);
  auto logits = Logits(*cnn, flat);
  ASSERT_TRUE(logits.ok()) << logits.message();
  EXPECT_EQ(TensorShapeText(*logits), "(5, 10)");
  auto logits4 = Logits(*cnn, flat.view({5, 1, 28, 28}));
  ASSERT_TRUE(logits4.ok());
  EXPECT_TRUE(at::allclose(*logits, *logits4));
  // The trace records one input and one output per trainable layer.
  ForwardTrace trace;
  cnn->Forward(flat.view({5, 1, 28, 28}), &trace);
  ASSERT_EQ(trace.inputs.size(), 4u);
  EXPECT_EQ(TensorShapeText(trace.outputs[0]), "(5, 16, 14, 14)");
  EXPECT_EQ(TensorShapeText(trace.outputs[1]), "(5, 32, 5, 5)");
  EXPECT_EQ(TensorShapeText(trace.inputs[2]), "(5, 512)");
}

TEST(DpModelTest, MaxPoolMatchesLibTorchValuesAndGradients) {
  // The model's max pooling (channels-last forward, NCHW backward) against
  // at::max_pool2d, on kernels/strides with and without overlap.
  for (int64_t k : {2, 3}) {
    for (int64_t s : {1, 2}) {
      ModelSpec spec;
      spec.name = "pool";
      spec.input_shape = {2, 9, 9};
      spec.num_classes = 3;
      spec.layers = {LayerSpec::Conv2d(2, 3, 3, 1, 1), LayerSpec::MaxPool2d(k, s),
                     LayerSpec::Flatten()};
      const int64_t out = (9 - k) / s + 1;
      spec.layers.push_back(LayerSpec::Linear(3 * out * out, 3));
      DpModel model = DpModel::Create(spec, 4).value();
      const torch::Tensor x = testing::NormalTensor({4, 2, 9, 9}, 3);
      const auto& p = model.parameters();
      const torch::Tensor z =
          at::conv2d(x, p[0], p[1], at::IntArrayRef{1, 1}, at::IntArrayRef{1, 1});
      const torch::Tensor want =
          at::linear(at::max_pool2d(z, {k, k}, {s, s}).flatten(1), p[2], p[3]);
      const torch::Tensor got = model.Forward(x);
      EXPECT_TRUE(at::equal(got, want)) << "k=" << k << " s=" << s;
      const auto g_want = torch::autograd::grad({want.pow(2).sum()}, {p[0]});
      const auto g_got = torch::autograd::grad({got.pow(2).sum()}, {p[0]});
      EXPECT_TRUE(at::allclose(g_got[0], g_want[0], 1e-5, 1e-6)) << "k=" << k << " s=" << s;
    }
  }
}

TEST(DpModelTest, SeedDeterminesInitialisation) {
  auto a = DpModel::Create(AdultMlpSpec(10, 8), 7);
  auto b = DpModel::Create(AdultMlpSpec(10, 8), 7);
  auto c = DpModel::Create(AdultMlpSpec(10, 8), 8);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  for (size_t i = 0; i < a->parameters().size(); i += 2) {
    EXPECT_TRUE(at::equal(a->parameters()[i], b->parameters()[i]));
    EXPECT_FALSE(at::equal(a->parameters()[i], c->parameters()[i]));
    // Glorot-uniform bound sqrt(6 / (fan_in + fan_out)).
    const auto& w = a->parameters()[i];
    const double limit = std::sqrt(6.0 / static_cast<double>(w.size(0) + w.size(1)));
    EXPECT_LE(w.abs().max().item<double>(), limit);
    EXPECT_EQ(a->parameters()[i + 1].abs().max().item<double>(), 0.0);  // zero bias
  }
}

TEST(DpModelTest, CloneIsIndependent) {
  DpModel a = DpModel::Create(AdultMlpSpec(4, 3), 1).value();
  DpModel b = a.Clone().value();
  {
    at::NoGradGuard g;
    b.parameters()[0].add_(1.0);
  }
  EXPECT_FALSE(at::equal(a.parameters()[0], b.parameters()[0]));
  ASSERT_TRUE(a.SetParameters(b.parameters()).ok());
  EXPECT_TRUE(at::equal(a.parameters()[0], b.parameters()[0]));
  EXPECT_EQ(a.SetParameters({}).message(), "SetParameters: expected 4 tensors, got 0");
}

TEST(DpModelTest, PerExampleLossesAreCrossEntropyInDouble) {
  auto created = DpModel::Create(LogisticRegressionSpec(3, 4), 2);
  ASSERT_TRUE(created.ok());
  DpModel* model = &created.value();
  torch::Tensor x = testing::NormalTensor({6, 3}, 5);
  torch::Tensor y = testing::RandomLabels(6, 4, 5);
  auto losses = PerExampleLosses(*model, x, y);
  ASSERT_TRUE(losses.ok()) << losses.message();
  EXPECT_EQ(losses->scalar_type(), torch::kDouble);
  torch::Tensor logits =
      at::linear(x, model->parameters()[0], model->parameters()[1]).detach().to(torch::kDouble);
  for (int64_t i = 0; i < 6; ++i) {
    const double lse = logits[i].exp().sum().log().item<double>();
    const double want = lse - logits[i][y[i].item<int64_t>()].item<double>();
    EXPECT_NEAR((*losses)[i].item<double>(), want, 1e-6);
  }
  // A confident correct prediction keeps a tiny positive loss (float32
  // log-softmax would round it to 0 and break Epsilon*'s transform).
  ASSERT_TRUE(
      model->SetParameters({torch::zeros({4, 3}), torch::tensor({20.f, 0.f, 0.f, 0.f})}).ok());
  auto tiny = PerExampleLosses(*model, x.narrow(0, 0, 1), torch::tensor({0}, torch::kLong));
  ASSERT_TRUE(tiny.ok());
  EXPECT_NEAR((*tiny)[0].item<double>(), 3 * std::exp(-20.0), 1e-15);
  EXPECT_GT((*tiny)[0].item<double>(), 0.0);
  auto acc = Accuracy(*model, x, torch::zeros({6}, torch::kLong));
  ASSERT_TRUE(acc.ok());
  EXPECT_EQ(*acc, 1.0);
}

TEST(DpModelTest, RefusesBadSpecs) {
  ModelSpec spec = AdultMlpSpec(10, 8);
  spec.layers[2] = LayerSpec::Linear(9, 2);
  EXPECT_EQ(DpModel::Create(spec, 0).message(),
            "layer 2 (Linear(9->2)) expects input shape (9), got (8)");
  spec = LogisticRegressionSpec(5, 3);
  spec.num_classes = 4;
  EXPECT_EQ(DpModel::Create(spec, 0).message(), "the last layer must output (4) logits, got (3)");
  EXPECT_EQ(DpModel::Create(LogisticRegressionSpec(5, 1), 0).message(),
            "num_classes must be >= 2, got 1");
  spec = FashionMnistCnnSpec();
  spec.input_shape = {1, 4, 4};
  EXPECT_EQ(DpModel::Create(spec, 0).message(),
            "layer 3 (Conv2d(16->32, k4, s2, p0)): kernel larger than the padded input "
            "(16, 1, 1)");
}

TEST(DpModelTest, RefusesBadInputs) {
  auto model = DpModel::Create(AdultMlpSpec(4, 3), 0);
  ASSERT_TRUE(model.ok());
  torch::Tensor x = testing::NormalTensor({5, 4}, 1);
  EXPECT_EQ(Logits(*model, testing::NormalTensor({5, 3}, 1)).message(),
            "x must have shape (N, 4), got (5, 3)");
  x[3][1] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(Logits(*model, x).message(), "x contains a non-finite value in row 3");
  x[3][1] = 0.0f;
  EXPECT_EQ(Accuracy(*model, x, torch::tensor({0, 1, 0, 1}, torch::kLong)).message(),
            "y must have shape (5), one label per row of x, got (4)");
  EXPECT_EQ(Accuracy(*model, x, torch::tensor({0, 1, 0, 2, 1}, torch::kLong)).message(),
            "labels must be in [0, 2), got 2 in row 3");
  EXPECT_EQ(Accuracy(*model, x, torch::zeros({5}, torch::kFloat)).message(),
            "y must hold integer labels");
  EXPECT_EQ(Logits(*model, torch::zeros({0, 4})).message(), "x must have at least one row, got 0");
  auto cnn = DpModel::Create(FashionMnistCnnSpec(), 0);
  ASSERT_TRUE(cnn.ok());
  EXPECT_EQ(Logits(*cnn, torch::zeros({2, 783})).message(),
            "x must have shape (N, 1, 28, 28) or (N, 784), got (2, 783)");
}

}  // namespace
}  // namespace privbench
