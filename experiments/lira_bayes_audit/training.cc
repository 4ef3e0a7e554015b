#include "experiments/lira_bayes_audit/training.h"

#include <torch/types.h>
#include <torch/version.h>

#include <cmath>

#include "attacks/lira.h"
#include "mechanisms/dp_model.h"
#include "mechanisms/dpsgd.h"
#include "mechanisms/math_threads.h"
#include "mechanisms/torch_boundary.h"

namespace privbench {
namespace lira_bayes_audit {
namespace {

Result<ModelSpec> MakeSpec(const AuditData& data, const TrainSpec& spec) {
  if (spec.model == "mlp") {
    return MlpSpec("audit_mlp", data.num_features, {spec.hidden}, Activation::kTanh,
                   data.num_classes);
  }
  if (spec.model == "paper_cnn") {
    const std::vector<int64_t>& s = data.input_shape;
    if (s.size() != 3 || s[1] != s[2] || s[0] * s[1] * s[2] != data.num_features) {
      return Error("paper_cnn needs square images C x S x S of num_features = " +
                   std::to_string(data.num_features) + " values (input_shape)");
    }
    return BayesPaperCnnSpec(data.num_classes, s[0], s[1]);  // dp_model.h
  }
  return Error("model must be mlp or paper_cnn, got \"" + spec.model + "\"");
}

// Rows `rows` of a row-major matrix as a tensor (copied).
torch::Tensor Rows(const std::vector<float>& x, int64_t features,
                   const std::vector<int64_t>& rows) {
  const int64_t n = static_cast<int64_t>(x.size()) / features;
  torch::Tensor all = torch::from_blob(const_cast<float*>(x.data()), {n, features}, torch::kFloat);
  torch::Tensor idx = torch::from_blob(const_cast<int64_t*>(rows.data()),
                                       {static_cast<int64_t>(rows.size())}, torch::kLong);
  return all.index_select(0, idx).clone();
}

torch::Tensor Labels(const std::vector<int64_t>& y, const std::vector<int64_t>& rows) {
  std::vector<int64_t> out;
  out.reserve(rows.size());
  for (int64_t r : rows) out.push_back(y[static_cast<size_t>(r)]);
  return torch::tensor(out, torch::kLong);
}

std::vector<int64_t> AllRows(int64_t n) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = i;
  return v;
}

DpSgdConfig MakeDpSgdConfig(const TrainSpec& spec, uint64_t train_seed) {
  DpSgdConfig config;
  config.private_training = spec.private_training;
  config.noise_multiplier = spec.private_training ? spec.noise_multiplier : 0.0;
  config.clip_norm = spec.clip_norm;
  config.num_microbatches = 0;  // per-example clipping
  config.sampling = Sampling::kPoisson;
  config.batch_size = spec.batch_size;
  config.epochs = spec.epochs;
  config.learning_rate = spec.learning_rate;
  config.optimizer = OptimizerKind::kMomentumSgd;
  config.momentum = spec.momentum;
  config.seed = train_seed;
  config.threads = 1;
  config.device = spec.device;
  return config;
}

// phi of the scored rows: one batched forward pass (Logits runs in chunks
// without gradients), then the logit-scaled confidence.
Result<std::vector<double>> ScoreRows(const DpModel& model, const std::vector<float>& features,
                                      const std::vector<int64_t>& y, int64_t num_features,
                                      int64_t num_classes, const std::vector<int64_t>& rows) {
  torch::Tensor x = Rows(features, num_features, rows);
  PB_ASSIGN_OR_RETURN(torch::Tensor logits, Logits(model, x));
  torch::Tensor d = logits.to(torch::kDouble).contiguous();
  std::vector<double> flat(d.data_ptr<double>(), d.data_ptr<double>() + d.numel());
  std::vector<int64_t> labels;
  for (int64_t r : rows) labels.push_back(y[static_cast<size_t>(r)]);
  return LogitScaledConfidence(flat, labels, num_classes);
}

// The true-class softmax probability of every test row (RMIA's population
// points): sigmoid of phi, as ProbFromPhi in compute.h.
Result<std::vector<double>> TestProbabilities(const DpModel& model, const AuditData& data) {
  const std::vector<int64_t> rows = AllRows(static_cast<int64_t>(data.test_y.size()));
  PB_ASSIGN_OR_RETURN(
      std::vector<double> phi,
      ScoreRows(model, data.test_x, data.test_y, data.num_features, data.num_classes, rows));
  for (double& v : phi) v = 1.0 / (1.0 + std::exp(-v));
  return phi;
}

}  // namespace

Result<ModelScores> TrainAndScore(const AuditData& data, const std::vector<int64_t>& train_rows,
                                  const std::vector<int64_t>& score_rows, const TrainSpec& spec,
                                  uint64_t init_seed, uint64_t train_seed) {
  SetMathThreads(1);
  for (int64_t r : train_rows) {
    if (r < 0 || r >= data.pool_size()) return Error("train row out of the pool");
  }
  for (int64_t r : score_rows) {
    if (r < 0 || r >= data.pool_size()) return Error("scored row out of the pool");
  }
  PB_ASSIGN_OR_RETURN(ModelSpec model_spec, MakeSpec(data, spec));
  PB_ASSIGN_OR_RETURN(DpModel model, DpModel::Create(model_spec, init_seed));
  return GuardTorch("TrainAndScore", [&]() -> Result<ModelScores> {
    torch::Tensor x = Rows(data.pool_x, data.num_features, train_rows);
    torch::Tensor y = Labels(data.pool_y, train_rows);
    PB_ASSIGN_OR_RETURN(TrainingRecord record,
                        TrainDpSgd(model, x, y, MakeDpSgdConfig(spec, train_seed)));
    ModelScores out;
    out.record = record.Metadata();
    PB_ASSIGN_OR_RETURN(out.phi, ScoreRows(model, data.pool_x, data.pool_y, data.num_features,
                                           data.num_classes, score_rows));
    PB_ASSIGN_OR_RETURN(out.test_prob, TestProbabilities(model, data));
    PB_ASSIGN_OR_RETURN(out.train_accuracy, Accuracy(model, x, y));
    const std::vector<int64_t> test_rows = AllRows(static_cast<int64_t>(data.test_y.size()));
    PB_ASSIGN_OR_RETURN(out.test_accuracy,
                        Accuracy(model, Rows(data.test_x, data.num_features, test_rows),
                                 Labels(data.test_y, test_rows)));
    return out;
  });
}

Result<std::pair<std::string, int64_t>> DescribeArchitecture(const AuditData& data,
                                                             const TrainSpec& spec) {
  PB_ASSIGN_OR_RETURN(ModelSpec model_spec, MakeSpec(data, spec));
  PB_ASSIGN_OR_RETURN(DpModel model, DpModel::Create(model_spec, 0));
  return std::make_pair(DescribeModel(model_spec), model.num_parameters());
}

std::string TorchVersion() { return std::string("libtorch ") + TORCH_VERSION; }

}  // namespace lira_bayes_audit
}  // namespace privbench
