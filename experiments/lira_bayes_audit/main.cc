// Study lira_bayes_audit (README.md): the Bayesian paper's own
// end-to-end audit (Zanella-Beguelin et al., "Bayesian Estimation of
// Differential Privacy", ICML 2023, Sec. 4, Table 2, App. A.1) on
// Fashion-MNIST, standing in for CIFAR-10 and SST-2 (not available offline),
// or, with --dataset=cifar10, on CIFAR-10 itself (fetched by
// data_scripts/download_cifar10.py).
//
//   bazel run //experiments/lira_bayes_audit [-- --scale=paper --shard=i/n]
//   bazel run //experiments/lira_bayes_audit -- --scale=paper --dataset=cifar10 --data_dir=DIR
//
// Shadow models on balanced random halves of a pool, LiRA (Carlini et al.
// 2022) as the attack, worst-case challenge points by SelectWorst (Alg. 3),
// the IND-MIA game (Experiment 2) with one target model per trial, for a
// non-private and a DP-SGD (eps = 8, delta = 1e-5) pipeline; eps intervals
// of every registered interval estimator at the threshold the paper selects
// and at two valid selections (compute.h). Sharded two-phase sweep: run.h.
//
// Output (results/raw/lira_bayes_audit.h5) and claims: report.h.
#include <cmath>
#include <string>

#include "estimators/accountants/accountant.h"
#include "experiments/lib/framework/study.h"
#include "experiments/lib/framework/sweep.h"
#include "experiments/lira_bayes_audit/config.h"
#include "experiments/lira_bayes_audit/run.h"
#include "mechanisms/device.h"

namespace privbench {
namespace lira_bayes_audit {
namespace {

// Flag ranges: beyond them training overflows (2^63 gave non-finite
// weights and an error only at run time).
constexpr double kMaxLearningRate = 1e3;
constexpr double kMaxClipNorm = 1e3;

// The defaults of a scale on a dataset (--dataset is read before the flags,
// as --scale: CIFAR-10's paper-scale pool is its 50,000 training images).
Config Defaults(Scale scale, const std::string& dataset) {
  Config c;
  if (!dataset.empty()) c.dataset = dataset;
  switch (scale) {
    case Scale::kQuick:
      break;  // config.h: MLP on a 1,024-image pool, 32 shadows, 256 trials
    case Scale::kPaper:
      // The paper's sizes (Sec. 4.1-4.2): 512 shadows, 1,024 trials, 50 epochs,
      // DP-SGD as the public code (batch 512, lr 0.5, clip 2.6), the paper's
      // CNN (adapted to 1x28x28 on Fashion-MNIST), a pool of the full
      // training set (60,000 Fashion-MNIST or 50,000 CIFAR-10 images).
      c.model = "paper_cnn";
      c.pool_size = TrainImages(c.dataset);
      c.test_size = 10000;
      c.shadows = 512;
      c.trials = 1024;
      c.epochs = 50;
      c.batch_size = 512;
      c.dp_learning_rate = 0.5;
      c.clip_norm = 2.6;
      c.models_per_unit = 4;
      break;
    case Scale::kTest:
      c.pool_size = 128;
      c.test_size = 100;
      c.shadows = 8;
      c.trials = 16;
      c.hidden = 8;
      c.epochs = 3;
      c.batch_size = 16;
      c.bonferroni_thresholds = 4;
      c.models_per_unit = 4;
      break;
  }
  return c;
}

void RegisterFlags(FlagSet& f, Config& c) {
  f.AddString("dataset", &c.dataset,
              "fashion_mnist (the offline stand-in) | cifar10 (the paper's data; fetch it with "
              "`python3 data_scripts/download_cifar10.py DIR`)")
      .OneOf({"fashion_mnist", "cifar10"});
  f.AddString("data_dir", &c.data_dir,
              "the dataset's directory (empty: PRIVBENCH_DATA_DIR, then Debian's path for "
              "Fashion-MNIST; CIFAR-10 has no default place)")
      .ExistingDirectoryOrEmpty();
  f.AddInt("pool_size", &c.pool_size,
           "candidate points D (from the 60,000 Fashion-MNIST or 50,000 CIFAR-10 training "
           "images)")
      .Range(8, 60000);
  f.AddInt("test_size", &c.test_size, "accuracy rows (from the 10,000 test images)")
      .Range(1, 10000);
  f.AddInt("shadows", &c.shadows, "shadow models M, even, >= 4 (paper 512)");
  f.AddInt("trials", &c.trials, "trials N = challenge points, even, >= 2 (paper 1,024)");
  f.AddDouble("fit_fraction", &c.fit_fraction, "SelectWorst's fit share of the shadows (0.8)");
  f.AddString("selection_weight", &c.selection_weight, "SelectWorst weight")
      .OneOf({"accuracy", "auc"});
  f.AddString("location", &c.location, "LiRA Gaussian location").OneOf({"median", "mean"});
  f.AddString("model", &c.model,
              "mlp (one hidden layer) | paper_cnn (the paper's CNN, on 1x28x28 or 3x32x32)")
      .OneOf({"mlp", "paper_cnn"});
  f.AddInt("hidden", &c.hidden, "hidden units of the MLP").Min(1);
  f.AddInt("epochs", &c.epochs, "training epochs").Min(1);
  f.AddInt("batch_size", &c.batch_size, "expected Poisson batch size").Min(1);
  f.AddDouble("learning_rate", &c.learning_rate,
              "non-private learning rate, in (0, 1e3] (larger steps overflow the float training)")
      .Above(0)
      .Max(kMaxLearningRate);
  f.AddDouble("dp_learning_rate", &c.dp_learning_rate,
              "DP-SGD learning rate, in (0, 1e3] (larger steps overflow the float training)")
      .Above(0)
      .Max(kMaxLearningRate);
  f.AddDouble("momentum", &c.momentum, "SGD momentum").Min(0).Below(1);
  f.AddDouble("clip_norm", &c.clip_norm,
              "per-example clipping norm, in (0, 1e3] (the noise scales with it: larger "
              "norms overflow the float training)")
      .Above(0)
      .Max(kMaxClipNorm);
  f.AddString("device", &c.device,
              "where DP-SGD trains: cpu, or cuda (LibTorch's CUDA backend, loaded at run time; "
              "same batches and noise as on the CPU)")
      .OneOf({"cpu", "cuda"});
  f.AddDouble("target_epsilon", &c.target_epsilon,
              "eps of the DP setting, in (0, 1e4] (the noise calibration's range)")
      .Above(0)
      .Max(kMaxCalibratedEpsilon);
  f.AddDouble("delta", &c.delta, "delta of the accountant and the intervals").OpenRange(0, 1);
  f.AddDouble("alpha", &c.alpha, "intervals at level 1 - alpha").OpenRange(0, 1);
  f.AddInt("bonferroni_thresholds", &c.bonferroni_thresholds,
           "thresholds G fixed from the shadows for the Bonferroni selection")
      .Min(1);
  f.AddInt("models_per_unit", &c.models_per_unit, "models per sweep unit").Min(1);
  RegisterSweepFlags(f, &c.sweep);
}

// The rules the flags cannot state; each message names the argument.
Status Validate(const Config& c) {
  PB_ASSIGN_OR_RETURN(const ComputeDevice device, ParseDevice(c.device));
  PB_RETURN_IF_ERROR(EnsureDevice(device));  // --device=cuda without a GPU: exit 2
  if (c.shadows < 4 || c.shadows % 2 != 0) {
    return Error("shadows must be even and >= 4 (every point IN for exactly half), got " +
                 std::to_string(c.shadows));
  }
  if (c.trials < 2 || c.trials % 2 != 0) {
    return Error("trials must be even and >= 2 (split into two halves), got " +
                 std::to_string(c.trials));
  }
  if (!(c.fit_fraction > 0.0 && c.fit_fraction < 1.0)) {
    return Error("fit_fraction must be in (0, 1), got " + std::to_string(c.fit_fraction));
  }
  const int64_t fit = static_cast<int64_t>(std::llround(c.fit_fraction * c.shadows));
  if (fit < 2 || c.shadows - fit < 2) {
    return Error("fit_fraction " + std::to_string(c.fit_fraction) + " of " +
                 std::to_string(c.shadows) +
                 " shadows must leave at least 2 fit and 2 test shadows (SelectWorst)");
  }
  if (c.pool_size > TrainImages(c.dataset)) {
    return Error("pool_size must be at most " + std::to_string(TrainImages(c.dataset)) +
                 " (the training images of --dataset=" + c.dataset + "), got " +
                 std::to_string(c.pool_size));
  }
  if (c.trials > c.pool_size / 2) {
    return Error("trials must be at most pool_size / 2 = " + std::to_string(c.pool_size / 2) +
                 ", got " + std::to_string(c.trials));
  }
  if (c.batch_size >= c.pool_size / 2) {
    return Error("batch_size must be < pool_size / 2 (sampling rate q < 1), got " +
                 std::to_string(c.batch_size));
  }
  PB_RETURN_IF_ERROR(ParseShard(c.sweep.shard).status());
  return CheckDatasetFound(c);  // CIFAR-10 missing: exit 2 naming the download command
}

}  // namespace
}  // namespace lira_bayes_audit
}  // namespace privbench

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::lira_bayes_audit;
  Study<Config> study;
  study.info = {kStudy,
                "Zanella-Beguelin et al., Bayesian Estimation of Differential Privacy (ICML 2023)",
                "Sec. 2.4, 4, Table 2, Fig. 1, App. A.1; experiments/lira_bayes_audit/README.md",
                "LiRA with shadow models on SelectWorst challenge points, one target per trial; "
                "eps intervals of every estimator with the paper's and two valid threshold "
                "selections (Fashion-MNIST stand-in, or CIFAR-10 with --dataset=cifar10)"};
  const std::string dataset = FlagSet::PeekValue(argc, argv, "dataset");
  study.defaults = [dataset](Scale scale) { return Defaults(scale, dataset); };
  study.register_flags = RegisterFlags;
  study.validate = Validate;
  study.run = RunAudit;
  return RunStudyMain(study, argc, argv);
}
