#include "experiments/ml_audit_dpsgd/models.h"

#include <torch/torch.h>
#include <torch/version.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "attacks/dpsgd_poisoning/dpsgd_poisoning.h"
#include "core/seeding.h"
#include "data_scripts/fashion_mnist.h"
#include "mechanisms/dp_model.h"
#include "mechanisms/dpsgd.h"
#include "mechanisms/math_threads.h"
#include "mechanisms/torch_boundary.h"

namespace privbench {
namespace ml_audit_dpsgd {
namespace {

torch::Tensor Rows(const std::vector<float>& x, int64_t n, int64_t d) {
  return torch::from_blob(const_cast<float*>(x.data()), {n, d}, torch::kFloat).clone();
}

torch::Tensor Labels(const std::vector<int64_t>& y) {
  return torch::from_blob(const_cast<int64_t*>(y.data()), {static_cast<int64_t>(y.size())},
                          torch::kLong)
      .clone();
}

// Seeded choice of `count` indices of `pool` without replacement, in draw order.
std::vector<int64_t> Choose(std::vector<int64_t> pool, int64_t count, Rng& rng) {
  for (int64_t i = 0; i < count; ++i) {
    std::uniform_int_distribution<int64_t> u(i, static_cast<int64_t>(pool.size()) - 1);
    std::swap(pool[static_cast<size_t>(i)], pool[static_cast<size_t>(u(rng))]);
  }
  pool.resize(static_cast<size_t>(count));
  return pool;
}

std::vector<int64_t> ClassRows(const std::vector<int64_t>& y, int64_t a, int64_t b) {
  std::vector<int64_t> rows;
  for (size_t i = 0; i < y.size(); ++i) {
    if (y[i] == a || y[i] == b) rows.push_back(static_cast<int64_t>(i));
  }
  return rows;
}

DpSgdConfig SgdConfig(const TrainSpec& s, uint64_t seed) {
  DpSgdConfig c;
  c.private_training = s.private_training;
  c.noise_multiplier = s.private_training ? s.noise_multiplier : 0.0;
  c.clip_norm = s.clip_norm;
  c.num_microbatches = 0;
  c.sampling = Sampling::kPoisson;
  c.batch_size = s.batch_size;
  c.epochs = s.epochs;
  c.learning_rate = s.learning_rate;
  c.optimizer = OptimizerKind::kMomentumSgd;
  c.momentum = s.momentum;
  c.seed = DeriveSeed(seed, {1});
  c.threads = 1;
  c.device = s.device;
  return c;
}

// One model trained on (x, y) as `spec` says.
Result<DpModel> Train(const torch::Tensor& x, const torch::Tensor& y, const TrainSpec& spec,
                      uint64_t seed) {
  SetMathThreads(1);
  PB_ASSIGN_OR_RETURN(DpModel model,
                      DpModel::Create(MlpSpec("fmnist_mlp", x.size(1), {spec.hidden},
                                              spec.relu ? Activation::kRelu : Activation::kTanh, 2),
                                      DeriveSeed(seed, {2})));
  PB_RETURN_IF_ERROR(TrainDpSgd(model, x, y, SgdConfig(spec, seed)).status());
  return model;
}

// Softmax probabilities (n, 2) at the rows of x.
}  // namespace

Result<AuditData> LoadAuditData(const DataOptions& o) {
  if (o.class_a == o.class_b || o.class_a < 0 || o.class_b < 0 || o.class_a > 9 || o.class_b > 9) {
    return Error("classes must name two different Fashion-MNIST classes in 0..9");
  }
  FashionMnistOptions fo;
  fo.data_dir = o.data_dir;
  fo.data_dir_flag = "data_dir";
  PB_ASSIGN_OR_RETURN(Dataset ds, LoadFashionMnist(fo));
  const std::vector<int64_t> train = ClassRows(ds.train_y, o.class_a, o.class_b);
  const std::vector<int64_t> test = ClassRows(ds.population_y, o.class_a, o.class_b);
  if (o.n_train < 2 || o.n_train > static_cast<int64_t>(train.size())) {
    return Error("n_train must be in [2, " + std::to_string(train.size()) + "], got " +
                 std::to_string(o.n_train));
  }
  if (o.test_probes < 0 || o.test_probes > static_cast<int64_t>(test.size())) {
    return Error("test_probes out of range");
  }
  Rng rng = MakeRng(o.seed, {101});
  AuditData d;
  d.checksums = ds.checksums;
  const int64_t f = ds.num_features;
  d.num_features = f;
  for (int64_t r : Choose(train, o.n_train, rng)) {
    const float* row = ds.train_x.data() + r * f;
    d.x.insert(d.x.end(), row, row + f);
    d.y.push_back(ds.train_y[static_cast<size_t>(r)] == o.class_b ? 1 : 0);
  }
  for (int64_t r : Choose(test, o.test_probes, rng)) {
    const float* row = ds.population_x.data() + r * f;
    d.probes_x.insert(d.probes_x.end(), row, row + f);
  }
  return d;
}

namespace {

PoisonPoint FromNetworkPoison(const std::string& attack, const NetworkPoison& n) {
  PoisonPoint p;
  p.attack = attack;
  p.x = n.x;
  p.y = n.y;
  p.source_row = n.source_row;
  p.clean_prob = n.clean_prob;
  return p;
}

}  // namespace

Result<PoisonPoint> DesignClipBkd(const AuditData& d, const TrainSpec& spec, int64_t label_models,
                                  uint64_t seed) {
  if (label_models < 1) return Error("clipbkd_label_models must be >= 1");
  return GuardTorch("DesignClipBkd", [&]() -> Result<PoisonPoint> {
    SetMathThreads(1);
    torch::Tensor x = Rows(d.x, d.n(), d.num_features);
    TrainSpec clean = spec;
    clean.private_training = false;
    std::vector<DpModel> networks;
    for (int64_t m = 0; m < label_models; ++m) {
      PB_ASSIGN_OR_RETURN(DpModel model,
                          Train(x, Labels(d.y), clean, DeriveSeed(seed, {201, uint64_t(m)})));
      networks.push_back(std::move(model));
    }
    PB_ASSIGN_OR_RETURN(NetworkPoison p, ClipBkdPoison(x, networks));
    return FromNetworkPoison("clipbkd", p);
  });
}

Result<PoisonPoint> DesignShadow(const AuditData& d, const TrainSpec& spec, const ShadowOptions& o,
                                 uint64_t seed) {
  return GuardTorch("DesignShadow", [&]() -> Result<PoisonPoint> {
    SetMathThreads(1);
    torch::Tensor x = Rows(d.x, d.n(), d.num_features);
    torch::Tensor y = Labels(d.y);
    TrainSpec clean = spec;
    clean.private_training = false;
    std::vector<DpModel> shadows;
    for (int64_t s = 0; s < o.models; ++s) {
      PB_ASSIGN_OR_RETURN(DpModel m, Train(x, y, clean, DeriveSeed(seed, {301, uint64_t(s)})));
      shadows.push_back(std::move(m));
    }
    Rng rng = MakeRng(seed, {302});
    const int64_t row = std::uniform_int_distribution<int64_t>(0, d.n() - 1)(rng);
    ShadowAscent a;
    a.steps = o.steps;
    a.step = o.step;
    PB_ASSIGN_OR_RETURN(NetworkPoison p, ShadowAdversarialPoison(x, y, row, shadows, a));
    return FromNetworkPoison("shadow", p);
  });
}

Result<ClipBkdLabel> DpLeastLikelyLabel(const AuditData& d, const TrainSpec& spec,
                                        const std::vector<float>& x_star, int64_t models,
                                        uint64_t seed) {
  if (models < 1) return Error("clipbkd_label_models must be >= 1");
  if (static_cast<int64_t>(x_star.size()) != d.num_features) {
    return Error("DpLeastLikelyLabel: x* must have num_features values");
  }
  return GuardTorch("DpLeastLikelyLabel", [&]() -> Result<ClipBkdLabel> {
    SetMathThreads(1);
    torch::Tensor x = Rows(d.x, d.n(), d.num_features);
    torch::Tensor y = Labels(d.y);
    std::vector<DpModel> networks;
    for (int64_t m = 0; m < models; ++m) {
      PB_ASSIGN_OR_RETURN(DpModel model, Train(x, y, spec, DeriveSeed(seed, {uint64_t(m)})));
      networks.push_back(std::move(model));
    }
    PB_ASSIGN_OR_RETURN(const privbench::LabelChoice c,
                        LeastLikelyLabel(Rows(x_star, 1, d.num_features), networks));
    return ClipBkdLabel{c.y, c.prob};
  });
}

Result<TrainingRows> PoisonedRows(const AuditData& d, const Insertion& ins) {
  TrainingRows t{d.x, d.y};
  if (ins.poison == nullptr || ins.k <= 0) return t;
  const int64_t f = d.num_features;
  if (static_cast<int64_t>(ins.poison->x.size()) != f) {
    return Error("PoisonedRows: the poison must have num_features values");
  }
  if (ins.placement == Placement::kAppend) {
    for (int64_t i = 0; i < ins.k; ++i) {
      t.x.insert(t.x.end(), ins.poison->x.begin(), ins.poison->x.end());
      t.y.push_back(ins.label);
    }
    return t;
  }
  if (ins.k >= d.n()) {
    return Error("k: replacing " + std::to_string(ins.k) + " of " + std::to_string(d.n()) +
                 " rows leaves none of D");
  }
  for (int64_t r = d.n() - ins.k; r < d.n(); ++r) {
    std::copy(ins.poison->x.begin(), ins.poison->x.end(), t.x.begin() + r * f);
    t.y[static_cast<size_t>(r)] = ins.label;
  }
  return t;
}

Result<std::vector<double>> TrainAndProbe(const AuditData& d, const Insertion& insertion,
                                          const TrainSpec& spec, const PoisonPoint& clipbkd,
                                          const PoisonPoint& shadow, uint64_t seed) {
  PB_ASSIGN_OR_RETURN(const TrainingRows rows, PoisonedRows(d, insertion));
  return GuardTorch("TrainAndProbe", [&]() -> Result<std::vector<double>> {
    const int64_t f = d.num_features;
    torch::Tensor x = Rows(rows.x, rows.n(), f);
    torch::Tensor y = Labels(rows.y);
    PB_ASSIGN_OR_RETURN(DpModel model, Train(x, y, spec, seed));
    const int64_t m = static_cast<int64_t>(d.probes_x.size()) / f;
    torch::Tensor probes = torch::cat(
        {Rows(clipbkd.x, 1, f), torch::zeros({1, f}), Rows(d.probes_x, m, f), Rows(shadow.x, 1, f)},
        0);
    PB_ASSIGN_OR_RETURN(torch::Tensor prob, Probabilities(model, probes));
    std::vector<double> out;
    for (int64_t i = 0; i < m + 2; ++i) out.push_back(prob[i][clipbkd.y].item<double>());
    out.push_back(prob[m + 2][shadow.y].item<double>());
    return out;
  });
}

std::string TorchVersion() { return std::string("libtorch ") + TORCH_VERSION; }

}  // namespace ml_audit_dpsgd
}  // namespace privbench
