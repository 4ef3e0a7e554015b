#include "attacks/dpsgd_poisoning/dpsgd_poisoning.h"

#include <algorithm>
#include <string>

#include "core/stats.h"
#include "mechanisms/torch_boundary.h"

namespace privbench {
namespace {

double MedianRowNorm(const torch::Tensor& x) {
  torch::Tensor norms = x.to(torch::kDouble).norm(2, 1);
  return Median({norms.data_ptr<double>(), norms.data_ptr<double>() + norms.numel()});
}

std::vector<float> ToFloats(const torch::Tensor& t) {
  torch::Tensor c = t.to(torch::kFloat).contiguous();
  return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

Status CheckNetworks(const std::vector<DpModel>& networks, const std::string& what) {
  if (networks.empty()) return Error(what + ": at least one network is needed");
  for (const DpModel& m : networks) {
    if (m.spec().num_classes != 2) return Error(what + ": the networks must have 2 classes");
  }
  return Status::Ok();
}

}  // namespace

Result<torch::Tensor> Probabilities(const DpModel& model, const torch::Tensor& x) {
  PB_ASSIGN_OR_RETURN(torch::Tensor logits, Logits(model, x));
  return torch::softmax(logits.to(torch::kDouble), 1);
}

Result<NetworkPoison> ClipBkdPoison(const torch::Tensor& x, const std::vector<DpModel>& networks) {
  PB_RETURN_IF_ERROR(CheckNetworks(networks, "ClipBkdPoison"));
  if (x.dim() != 2 || x.size(0) < 2) return Error("ClipBkdPoison: x must hold at least 2 rows");
  return GuardTorch("ClipBkdPoison", [&]() -> Result<NetworkPoison> {
    const int64_t n = x.size(0), d = x.size(1);
    torch::Tensor xd = x.to(torch::kDouble);
    torch::Tensor centred = xd - xd.mean(0, true);
    torch::Tensor cov = centred.t().mm(centred) / static_cast<double>(n - 1);
    auto [values, vectors] = at::linalg_eigh(cov, "L");
    torch::Tensor v = vectors.select(1, 0);  // eigenvalues ascending
    NetworkPoison p;
    p.x = ToFloats(v * MedianRowNorm(x));
    torch::Tensor at =
        torch::from_blob(p.x.data(), {1, d}, torch::kFloat).clone();  // x* as the networks see it
    PB_ASSIGN_OR_RETURN(const LabelChoice label, LeastLikelyLabel(at, networks));
    p.y = label.y;
    p.clean_prob = label.prob;
    return p;
  });
}

Result<LabelChoice> LeastLikelyLabel(const torch::Tensor& at,
                                     const std::vector<DpModel>& networks) {
  PB_RETURN_IF_ERROR(CheckNetworks(networks, "LeastLikelyLabel"));
  if (at.dim() != 2 || at.size(0) != 1) return Error("LeastLikelyLabel: `at` must be one row");
  return GuardTorch("LeastLikelyLabel", [&]() -> Result<LabelChoice> {
    double mean0 = 0;  // mean P_0(at)
    for (const DpModel& m : networks) {
      PB_ASSIGN_OR_RETURN(torch::Tensor prob, Probabilities(m, at));
      mean0 += prob[0][0].item<double>() / static_cast<double>(networks.size());
    }
    LabelChoice c;
    c.y = mean0 <= 0.5 ? 0 : 1;
    c.prob = c.y == 0 ? mean0 : 1 - mean0;
    return c;
  });
}

Result<NetworkPoison> ShadowAdversarialPoison(const torch::Tensor& x, const torch::Tensor& y,
                                              int64_t source_row,
                                              const std::vector<DpModel>& shadows,
                                              const ShadowAscent& a) {
  PB_RETURN_IF_ERROR(CheckNetworks(shadows, "ShadowAdversarialPoison"));
  if (x.dim() != 2 || source_row < 0 || source_row >= x.size(0) || y.numel() != x.size(0)) {
    return Error("ShadowAdversarialPoison: source_row must be a row of x (and y one label a row)");
  }
  if (a.steps < 0 || !(a.step > 0) || !(a.lo <= a.hi)) {
    return Error("ShadowAdversarialPoison: need steps >= 0, step > 0 and lo <= hi");
  }
  return GuardTorch("ShadowAdversarialPoison", [&]() -> Result<NetworkPoison> {
    NetworkPoison p;
    p.source_row = source_row;
    p.y = y[source_row].item<int64_t>();
    torch::Tensor target = torch::full({1}, p.y, torch::kLong);
    torch::Tensor z = x[source_row].unsqueeze(0).clone();
    for (int64_t step = 0; step < a.steps; ++step) {
      torch::Tensor zg = z.detach().requires_grad_(true);
      torch::Tensor loss = torch::zeros({}, torch::kFloat);
      for (const DpModel& m : shadows) {
        loss = loss + torch::nn::functional::cross_entropy(m.Forward(zg), target);
      }
      loss.backward();
      torch::Tensor g = zg.grad();
      const double norm = g.norm().item<double>();
      if (!(norm > 0)) break;
      z = (z + g * (a.step / norm)).clamp(a.lo, a.hi).detach();
    }
    p.x = ToFloats(z);
    double mean = 0;
    for (const DpModel& m : shadows) {
      PB_ASSIGN_OR_RETURN(torch::Tensor prob, Probabilities(m, z));
      mean += prob[0][p.y].item<double>() / static_cast<double>(shadows.size());
    }
    p.clean_prob = mean;
    return p;
  });
}

}  // namespace privbench
