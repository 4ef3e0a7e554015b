// Study C4 epsilon_star_gof: KS goodness of fit of 1..20-component Gaussian
// mixtures to the transformed losses of Adult models trained with and
// without DP (Negoescu et al., "Epsilon*", PPAI-24, App. B.2, Fig. 6;
// README.md). What is run and written: run.h; claims: report.h.
//
//   bazel run //experiments/epsilon_star_gof [-- --scale=paper]
#include <algorithm>
#include <string>

#include "core/flags.h"
#include "core/result.h"
#include "data_scripts/adult.h"
#include "estimators/accountants/accountant.h"
#include "experiments/epsilon_star_gof/compute.h"
#include "experiments/epsilon_star_gof/config.h"
#include "experiments/epsilon_star_gof/run.h"
#include "experiments/lib/framework/study.h"
#include "experiments/lib/framework/sweep.h"
#include "mechanisms/device.h"

namespace privbench::epsilon_star_gof {
namespace {

Config Defaults(Scale scale) {
  Config c;
  switch (scale) {
    case Scale::kPaper:
      c.n_eval = {100, 200, 300, 400, 500, 600, 700, 800, 900, 1000};
      break;
    case Scale::kQuick:
      c.repetitions = 3;
      c.n_eval = {100, 500, 1000};
      break;
    case Scale::kTest:
      c.n_train = 2000;
      c.n_population = 1000;
      c.repetitions = 1;
      c.baseline_epochs = 1;
      c.dp_epochs = 1;
      c.n_eval = {100, 200};
      c.max_components = 3;
      break;
  }
  return c;
}

void RegisterModelFlags(FlagSet& f, Config& c) {
  f.AddString("data_dir", &c.data_dir,
              "directory with adult.data and adult.test (empty: PRIVBENCH_DATA_DIR, then the "
              "fallbacks of data_scripts/data_files.h, then the vendored copy)")
      .ExistingDirectoryOrEmpty();
  f.AddInt("n_train", &c.n_train, "training rows: -1 = all 32,561, else the first n_train")
      .Range(-1, kAdultTrainRows);
  f.AddInt("n_population", &c.n_population,
           "population rows: -1 = all 16,281, else the first n_population")
      .Range(-1, kAdultPopulationRows);
  f.AddInt("repetitions", &c.repetitions,
           "models per type (each with its own splits and fit/sample seeds)")
      .Min(1);
  f.AddInt("baseline_epochs", &c.baseline_epochs, "epochs of the non-private model (lost)").Min(1);
  f.AddInt("dp_epochs", &c.dp_epochs, "epochs of the DP-SGD model (lost)").Min(1);
  f.AddDouble("dp_epsilon", &c.dp_epsilon,
              "target eps of the DP-SGD model (lost); in (0, 1e4], the noise calibration's "
              "range (kMaxCalibratedEpsilon)")
      .Above(0)
      .Max(kMaxCalibratedEpsilon);
  f.AddDouble("delta", &c.delta, "delta of the DP model; 0 = 1/n_train (the paper's 1/n)")
      .Min(0)
      .Below(1);
  f.AddDouble("clip_norm", &c.clip_norm, "DP-SGD clip norm C (lost; paper grid 1,10,30)")
      .Above(0)
      .Finite();
  f.AddInt("num_microbatches", &c.num_microbatches,
           "TF Privacy microbatches of the DP model; 0 = per-example clipping")
      .Min(0);
  f.AddString("calibration_rule", &c.calibration_rule,
              "sigma for dp_epsilon: tf_privacy_0_5_1 (paper's library) or sound (equal for "
              "per-example clipping)")
      .OneOf({"tf_privacy_0_5_1", "sound"});
  f.AddInt("batch_size", &c.batch_size, "expected (Poisson) batch size of both models").Min(1);
  f.AddDouble("learning_rate", &c.learning_rate, "SGD learning rate (paper: 0.01)")
      .Above(0)
      .Finite();
  f.AddDouble("momentum", &c.momentum, "SGD momentum (paper: 0.9)").Min(0).Below(1);
  f.AddInt("hidden", &c.hidden, "hidden Tanh units of the Adult MLP").Min(1);
  f.AddString("device", &c.device,
              "where DP-SGD trains: cpu, or cuda (LibTorch's CUDA backend, loaded at run time; "
              "same batches and noise as on the CPU)")
      .OneOf({"cpu", "cuda"});
}

void RegisterFitFlags(FlagSet& f, Config& c) {
  f.AddIntList("n_eval", &c.n_eval, "evaluation-set sizes, increasing (paper: 100..1000)")
      .NonEmpty()
      .Min(2);
  f.AddInt("max_components", &c.max_components, "mixtures with k = 1..max_components (paper 20)")
      .Min(1);
  f.AddInt("max_iterations", &c.max_iterations, "EM iterations at most (sklearn default 100)")
      .Min(1);
  f.AddDouble("tolerance", &c.tolerance,
              "EM stops when the mean log-likelihood per point changes less (sklearn 1e-3)")
      .Min(0)
      .Finite();
  f.AddDoubleList("variance_floors", &c.variance_floors,
                  "EM lower bounds on component variances; the first is the primary analysis "
                  "(sklearn reg_covar 1e-6), the others sensitivity analyses")
      .NonEmpty()
      .Above(0)
      .Finite();
  f.AddString("init", &c.init, "EM initialisation: quantile or kmeans++")
      .OneOf({"quantile", "kmeans++"});
  f.AddString("ks_method", &c.ks_method,
              "primary two-sample KS p-value: exact (SciPy's default at these sizes) or "
              "asymptotic")
      .OneOf({"exact", "asymptotic"});
  f.AddDouble("significance", &c.significance, "the paper's threshold 0.05").OpenRange(0, 1);
  f.AddBool("population_losses", &c.population_losses,
            "also test the transformed population losses (extra; the paper shows training)");
  f.AddBool("carlini_analysis", &c.carlini_analysis,
            "also test Carlini et al.'s logit(exp(-loss)) without the App. B normalisation "
            "(extra analysis)");
}

void RegisterFlags(FlagSet& f, Config& c) {
  RegisterModelFlags(f, c);
  RegisterFitFlags(f, c);
  RegisterSweepFlags(f, &c.sweep);
}

// Rules across fields (each field's own range is declared with its flag).
Status Validate(const Config& c) {
  PB_ASSIGN_OR_RETURN(const ComputeDevice device, ParseDevice(c.device));
  PB_RETURN_IF_ERROR(EnsureDevice(device));  // --device=cuda without a GPU: exit 2
  // -1 (all rows) or a positive count: the one value the flag's range lets
  // through that is neither.
  if (c.n_train == 0) return Error("n_train must be -1 (all) or >= 1, got 0");
  if (c.n_population == 0) return Error("n_population must be -1 (all) or >= 1, got 0");
  if (c.num_microbatches > c.batch_size) {
    return Error("num_microbatches must be <= batch_size (" + std::to_string(c.batch_size) +
                 "), got " + std::to_string(c.num_microbatches));
  }
  // n_eval increasing, variance floors distinct.
  PB_RETURN_IF_ERROR(MakeGofOptions(c).status());
  // Every tested loss set must leave max_components values to fit on.
  const int64_t train_rows = c.n_train == -1 ? kAdultTrainRows : c.n_train;
  const int64_t population_rows = c.n_population == -1 ? kAdultPopulationRows : c.n_population;
  const int64_t smallest = c.population_losses ? std::min(train_rows, population_rows) : train_rows;
  if (c.n_eval.back() + c.max_components > smallest) {
    return Error("n_eval must leave max_components (" + std::to_string(c.max_components) +
                 ") of the " + std::to_string(smallest) +
                 " losses of the smallest tested set to fit on, got n_eval " +
                 std::to_string(c.n_eval.back()));
  }
  if (c.batch_size > train_rows) {
    return Error("batch_size must be <= the training rows (" + std::to_string(train_rows) +
                 "), got " + std::to_string(c.batch_size));
  }
  return ParseShard(c.sweep.shard).status();
}

}  // namespace
}  // namespace privbench::epsilon_star_gof

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::epsilon_star_gof;
  Study<Config> study;
  study.info = {"epsilon_star_gof",
                "Negoescu et al., Epsilon*: Privacy Metric for Machine Learning Models (PPAI-24)",
                "App. B.2, Fig. 6; experiments/epsilon_star_gof/README.md",
                "KS goodness of fit of 1..20-component Gaussian mixtures to transformed losses "
                "of Adult models with and without DP"};
  study.defaults = Defaults;
  study.register_flags = RegisterFlags;
  study.validate = Validate;
  study.run = RunGofStudy;
  return RunStudyMain(study, argc, argv);
}
