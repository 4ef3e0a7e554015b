// Tests of the DP-SGD poisons on small synthetic data (20 features, 10 of
// them 0 in every row) with untrained networks: ClipBKD's x* is the
// least-variance direction at the median row norm, lies on the dead
// features, and takes the label least likely under the networks' mean; the
// shadow poison keeps its row's label, stays in the box and lowers the
// shadows' probability of its label; bad arguments are errors.
#include "attacks/dpsgd_poisoning/dpsgd_poisoning.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "gtest/gtest.h"

namespace privbench {
namespace {

constexpr int64_t kRows = 60, kDim = 20;

torch::Tensor Rows() {
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<float> u(0, 1);
  std::vector<float> x;
  for (int64_t r = 0; r < kRows; ++r) {
    for (int64_t j = 0; j < kDim; ++j) x.push_back(j < 10 ? u(rng) : 0.0f);
  }
  return torch::from_blob(x.data(), {kRows, kDim}, torch::kFloat).clone();
}

torch::Tensor Labels() { return torch::arange(kRows, torch::kLong).remainder(2); }

std::vector<DpModel> Networks(int count, int64_t classes = 2) {
  std::vector<DpModel> out;
  for (int i = 0; i < count; ++i) {
    Result<DpModel> m =
        DpModel::Create(MlpSpec("mlp", kDim, {8}, Activation::kTanh, classes), 10 + i);
    EXPECT_TRUE(m.ok()) << m.message();
    out.push_back(std::move(m).value());
  }
  return out;
}

double Variance(const torch::Tensor& x, const torch::Tensor& unit) {
  return x.to(torch::kDouble).mv(unit.to(torch::kDouble)).var().item<double>();
}

TEST(ClipBkd, LeastVarianceOnTheDeadFeaturesAtTheMedianNorm) {
  const torch::Tensor x = Rows();
  const std::vector<DpModel> nets = Networks(3);
  Result<NetworkPoison> p = ClipBkdPoison(x, nets);
  ASSERT_TRUE(p.ok()) << p.message();
  torch::Tensor v =
      torch::from_blob(const_cast<float*>(p->x.data()), {kDim}, torch::kFloat).clone();
  std::vector<double> norms;
  for (int64_t r = 0; r < kRows; ++r) norms.push_back(x[r].norm().item<double>());
  std::sort(norms.begin(), norms.end());
  const double median = 0.5 * (norms[kRows / 2 - 1] + norms[kRows / 2]);
  EXPECT_NEAR(v.norm().item<double>(), median, 1e-4 * median);
  EXPECT_LT(v.narrow(0, 0, 10).norm().item<double>(), 1e-3);  // on the dead features
  v = v / v.norm();
  torch::manual_seed(1);
  for (int t = 0; t < 20; ++t) {
    torch::Tensor u = torch::randn({kDim});
    EXPECT_LE(Variance(x, v), Variance(x, u / u.norm()) + 1e-9);
  }
  // y*: the label whose mean probability at x* over the networks is lowest.
  torch::Tensor at =
      torch::from_blob(const_cast<float*>(p->x.data()), {1, kDim}, torch::kFloat).clone();
  double mean0 = 0;
  for (const DpModel& m : nets) {
    Result<torch::Tensor> logits = Logits(m, at);
    ASSERT_TRUE(logits.ok());
    mean0 += torch::softmax(logits->to(torch::kDouble), 1)[0][0].item<double>() / 3;
  }
  EXPECT_EQ(p->y, mean0 <= 0.5 ? 0 : 1);
  EXPECT_NEAR(p->clean_prob, std::min(mean0, 1 - mean0), 1e-12);
  EXPECT_LE(p->clean_prob, 0.5);
}

TEST(ClipBkd, BadArguments) {
  EXPECT_FALSE(ClipBkdPoison(Rows(), {}).ok());
  EXPECT_FALSE(ClipBkdPoison(Rows().narrow(0, 0, 1), Networks(1)).ok());
  EXPECT_FALSE(ClipBkdPoison(Rows(), Networks(1, 3)).ok());
}

// The label rule alone, on any networks (non-private or DP-trained): the
// label of least mean probability, the same y* ClipBkdPoison picks.
TEST(LeastLikelyLabel, MeanOverTheNetworks) {
  const std::vector<DpModel> nets = Networks(4);
  Result<NetworkPoison> p = ClipBkdPoison(Rows(), nets);
  ASSERT_TRUE(p.ok()) << p.message();
  torch::Tensor at =
      torch::from_blob(const_cast<float*>(p->x.data()), {1, kDim}, torch::kFloat).clone();
  Result<LabelChoice> c = LeastLikelyLabel(at, nets);
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_EQ(c->y, p->y);
  EXPECT_EQ(c->prob, p->clean_prob);
  // A point where every network is sure: the other label is chosen.
  torch::Tensor far = at * 50;
  double mean1 = 0;
  for (const DpModel& m : nets) {
    Result<torch::Tensor> logits = Logits(m, far);
    ASSERT_TRUE(logits.ok());
    mean1 += torch::softmax(logits->to(torch::kDouble), 1)[0][1].item<double>() / 4;
  }
  Result<LabelChoice> f = LeastLikelyLabel(far, nets);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->y, mean1 < 0.5 ? 1 : 0);
  EXPECT_NEAR(f->prob, std::min(mean1, 1 - mean1), 1e-12);
  EXPECT_FALSE(LeastLikelyLabel(at, {}).ok());
  EXPECT_FALSE(LeastLikelyLabel(Rows().narrow(0, 0, 2), nets).ok());
  EXPECT_FALSE(LeastLikelyLabel(at, Networks(1, 3)).ok());
}

TEST(Shadow, AscentKeepsTheLabelStaysInTheBoxAndLowersTheProbability) {
  const torch::Tensor x = Rows(), y = Labels();
  const std::vector<DpModel> shadows = Networks(2);
  ShadowAscent none, some;
  none.steps = 0;
  some.steps = 20;
  some.hi = 0.9;
  Result<NetworkPoison> start = ShadowAdversarialPoison(x, y, 7, shadows, none);
  Result<NetworkPoison> moved = ShadowAdversarialPoison(x, y, 7, shadows, some);
  ASSERT_TRUE(start.ok() && moved.ok());
  EXPECT_EQ(moved->source_row, 7);
  EXPECT_EQ(moved->y, 1);
  EXPECT_LT(moved->clean_prob, start->clean_prob);
  for (float v : moved->x) EXPECT_TRUE(v >= 0 && v <= 0.9f) << v;
  for (int64_t j = 0; j < kDim; ++j) EXPECT_EQ(start->x[j], x[7][j].item<float>());
}

TEST(Shadow, BadArguments) {
  const torch::Tensor x = Rows(), y = Labels();
  ShadowAscent a;
  EXPECT_FALSE(ShadowAdversarialPoison(x, y, kRows, Networks(1), a).ok());
  EXPECT_FALSE(ShadowAdversarialPoison(x, y, -1, Networks(1), a).ok());
  EXPECT_FALSE(ShadowAdversarialPoison(x, y, 0, {}, a).ok());
  a.step = 0;
  EXPECT_FALSE(ShadowAdversarialPoison(x, y, 0, Networks(1), a).ok());
}

}  // namespace
}  // namespace privbench
