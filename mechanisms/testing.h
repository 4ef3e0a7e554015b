// Test-only helpers for mechanisms/: deterministic synthetic data.
#ifndef PRIVBENCH_MECHANISMS_TESTING_H_
#define PRIVBENCH_MECHANISMS_TESTING_H_

#include <ATen/ATen.h>
#include <torch/types.h>

#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/seeding.h"
#include "mechanisms/dp_model.h"

namespace privbench {
namespace testing {

// Standard normal float32 tensor of the given shape from MakeRng(seed, {0}).
inline torch::Tensor NormalTensor(const std::vector<int64_t>& shape, uint64_t seed,
                                  double scale = 1.0) {
  Rng rng = MakeRng(seed, {0});
  boost::random::normal_distribution<double> normal(0.0, scale);
  torch::Tensor t = torch::empty(shape, torch::kFloat);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = static_cast<float>(normal(rng));
  return t;
}

// Uniform labels in [0, num_classes) from MakeRng(seed, {1}).
inline torch::Tensor RandomLabels(int64_t n, int64_t num_classes, uint64_t seed) {
  Rng rng = MakeRng(seed, {1});
  boost::random::uniform_int_distribution<int64_t> pick(0, num_classes - 1);
  std::vector<int64_t> y(n);
  for (int64_t& v : y) v = pick(rng);
  return torch::tensor(y, torch::kLong);
}

struct Blobs {
  torch::Tensor x;  // (n, d) float32
  torch::Tensor y;  // (n) int64
};

// Two Gaussian blobs N(+-separation/2 * 1/sqrt(d) * ones, I), balanced
// classes: linearly separable up to Bayes error Phi(-separation/2).
inline Blobs TwoBlobs(int64_t n, int64_t d, double separation, uint64_t seed) {
  Blobs b;
  b.x = NormalTensor({n, d}, seed);
  std::vector<int64_t> y(n);
  float* p = b.x.data_ptr<float>();
  const double shift = separation / 2.0 / std::sqrt(static_cast<double>(d));
  for (int64_t i = 0; i < n; ++i) {
    y[i] = i % 2;
    for (int64_t j = 0; j < d; ++j) p[i * d + j] += static_cast<float>(y[i] ? shift : -shift);
  }
  b.y = torch::tensor(y, torch::kLong);
  return b;
}

// Detached copies of a model's parameters.
inline std::vector<torch::Tensor> Snapshot(const DpModel& model) {
  std::vector<torch::Tensor> out;
  for (const auto& p : model.parameters()) out.push_back(p.detach().clone());
  return out;
}

// All parameters now minus `before`, flattened, float64.
inline torch::Tensor ParameterChange(const DpModel& model,
                                     const std::vector<torch::Tensor>& before) {
  std::vector<torch::Tensor> parts;
  for (size_t i = 0; i < before.size(); ++i) {
    parts.push_back(
        (model.parameters()[i].detach().to(torch::kDouble) - before[i].to(torch::kDouble))
            .flatten());
  }
  return at::cat(parts);
}

}  // namespace testing
}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_TESTING_H_
