#include "experiments/region_of_privacy/training.h"

#include <torch/types.h>
#include <torch/version.h>

#include "mechanisms/dp_model.h"
#include "mechanisms/dpsgd.h"
#include "mechanisms/math_threads.h"
#include "mechanisms/torch_boundary.h"

namespace privbench {
namespace region_of_privacy {

namespace {

// Copies of the dataset's rows as tensors (the Dataset stays torch-free).
Result<std::pair<torch::Tensor, torch::Tensor>> ToTensors(const std::vector<float>& x,
                                                          const std::vector<int64_t>& y,
                                                          int64_t num_features) {
  return GuardTorch("TrainModel", [&]() -> Result<std::pair<torch::Tensor, torch::Tensor>> {
    const int64_t n = static_cast<int64_t>(y.size());
    torch::Tensor xt =
        torch::from_blob(const_cast<float*>(x.data()), {n, num_features}, torch::kFloat).clone();
    torch::Tensor yt = torch::from_blob(const_cast<int64_t*>(y.data()), {n}, torch::kLong).clone();
    return std::make_pair(xt, yt);
  });
}

Result<std::vector<double>> ToVector(const torch::Tensor& t) {
  return GuardTorch("TrainModel", [&]() -> Result<std::vector<double>> {
    torch::Tensor c = t.to(torch::kDouble).contiguous();
    const double* p = c.data_ptr<double>();
    return std::vector<double>(p, p + c.numel());
  });
}

}  // namespace

Result<TrainOutcome> TrainModel(const Dataset& dataset, const TrainOptions& o,
                                ProgressReporter* progress) {
  PB_RETURN_IF_ERROR(CheckDataset(dataset));
  SetMathThreads(1);
  if (dataset.n_train() < 1 || dataset.n_population() < 1) {
    return Error("dataset must have at least one training and one population row");
  }
  PB_ASSIGN_OR_RETURN(auto train,
                      ToTensors(dataset.train_x, dataset.train_y, dataset.num_features));
  PB_ASSIGN_OR_RETURN(auto population,
                      ToTensors(dataset.population_x, dataset.population_y, dataset.num_features));
  PB_ASSIGN_OR_RETURN(DpModel model, DpModel::Create(LogisticRegressionSpec(dataset.num_features,
                                                                            dataset.num_classes),
                                                     o.init_seed));
  DpSgdConfig config;
  config.private_training = o.private_training;
  config.noise_multiplier = o.private_training ? o.noise_multiplier : 0.0;
  config.clip_norm = o.clip_norm;
  config.num_microbatches = 0;  // per-example clipping
  config.sampling = Sampling::kPoisson;
  config.batch_size = o.batch_size;
  config.epochs = o.epochs;
  config.learning_rate = o.learning_rate;
  PB_ASSIGN_OR_RETURN(config.optimizer, ParseOptimizer(o.optimizer));
  config.momentum = o.momentum;
  config.weight_decay = o.weight_decay;
  config.seed = o.train_seed;
  config.threads = 1;
  config.device = o.device;
  PB_ASSIGN_OR_RETURN(TrainingRecord record,
                      TrainDpSgd(model, train.first, train.second, config, progress));

  TrainOutcome out;
  PB_ASSIGN_OR_RETURN(out.train_accuracy, Accuracy(model, train.first, train.second));
  PB_ASSIGN_OR_RETURN(out.population_accuracy,
                      Accuracy(model, population.first, population.second));
  PB_ASSIGN_OR_RETURN(torch::Tensor train_losses,
                      PerExampleLosses(model, train.first, train.second));
  PB_ASSIGN_OR_RETURN(torch::Tensor population_losses,
                      PerExampleLosses(model, population.first, population.second));
  PB_ASSIGN_OR_RETURN(out.train_losses, ToVector(train_losses));
  PB_ASSIGN_OR_RETURN(out.population_losses, ToVector(population_losses));
  out.loss_per_epoch = record.loss_per_epoch;
  out.q = record.q;
  out.steps = record.steps;
  out.accounting_noise_multiplier = record.accounting_noise_multiplier;
  out.eps_reportable = record.eps_reportable;
  out.sampling = record.sampling;
  out.architecture = record.architecture;
  out.record_metadata = record.Metadata();
  return out;
}

std::string TorchVersion() { return std::string("libtorch ") + TORCH_VERSION; }

}  // namespace region_of_privacy
}  // namespace privbench
