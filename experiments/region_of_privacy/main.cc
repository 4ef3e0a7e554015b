// Study C1 region_of_privacy: Erlingsson, Mironov, Raghunathan & Song 2019,
// "That which we call private", Sec. 3-5, Tables 1-2, Fig. 1-2
// (README.md).
//
//   bazel run //experiments/region_of_privacy [-- --scale=paper --threads=2]
//
// Jayaraman & Evans' Purchase-100 logistic regression (config.h) trained with
// DP-SGD at the five noise multipliers of Table 1 and without privacy, R
// repetitions each; per model the loss-threshold attack's Prop. 3 lower
// bounds (compute.h) against the naive, advanced, zCDP and RDP upper bounds
// of the noise actually used; the study file is report.h's.
//
// Sweep (experiments/lib/framework/sweep.h): one unit per (noise level,
// repetition), the baseline included (parts.h); --shard=i/n runs every n-th
// unit, parts go to <parts_dir>/region_of_privacy.<config key>/ (another
// configuration or seed starts a fresh directory), a rerun skips complete
// units, and the study file is assembled when every part exists.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "experiments/lib/framework/study.h"
#include "experiments/lib/framework/sweep.h"
#include "experiments/region_of_privacy/compute.h"
#include "experiments/region_of_privacy/config.h"
#include "experiments/region_of_privacy/data.h"
#include "experiments/region_of_privacy/parts.h"
#include "experiments/region_of_privacy/report.h"
#include "mechanisms/device.h"

namespace privbench {
namespace region_of_privacy {
namespace {

Config Defaults(Scale scale) {
  Config c;
  switch (scale) {
    case Scale::kPaper:
      break;  // the paper's: 5 trials of 100 epochs
    case Scale::kQuick:
      // The paper's models (100 epochs, 5,000 steps: ~12 s of CPU each), 2
      // repetitions instead of 5: 12 units.
      c.repetitions = 2;
      break;
    case Scale::kTest:
      c.n_train = c.n_population = 300;
      c.batch_size = 30;
      c.epochs = 3;
      c.repetitions = 2;
      break;
  }
  return c;
}

void RegisterFlags(FlagSet& f, Config& c) {
  f.AddString("data", &c.data,
              "auto (real Purchase-100 if it loads, else the surrogate) | purchase100 | surrogate")
      .OneOf({"auto", "purchase100", "surrogate"});
  f.AddString("data_dir", &c.data_dir,
              "directory of the real Purchase-100 (empty: PRIVBENCH_DATA_DIR, then fallbacks)")
      .ExistingDirectoryOrEmpty();
  f.AddInt("surrogate_model_seed", &c.surrogate_model_seed,
           "seed of the purchase100-surrogate generative model (0: the calibrated one)")
      .Min(0);
  f.AddInt("n_train", &c.n_train, "training (member) records per repetition (J&E: 10,000)").Min(2);
  f.AddInt("n_population", &c.n_population, "population (non-member) records for the attack")
      .Min(1);
  f.AddDoubleList("noise_multipliers", &c.noise_multipliers,
                  "DP-SGD noise multipliers (Table 1); a non-private baseline is added")
      .Above(0)
      .Finite();
  f.AddInt("repetitions", &c.repetitions, "trials per noise level (the paper averaged 5)").Min(1);
  f.AddInt("epochs", &c.epochs, "epochs; steps = ceil(epochs * n_train / batch_size)").Min(1);
  f.AddInt("batch_size", &c.batch_size, "expected batch size (Poisson rate q = batch/n_train)")
      .Min(1);
  f.AddDouble("learning_rate", &c.learning_rate, "SGD learning rate").Above(0).Finite();
  f.AddString("optimizer", &c.optimizer,
              "adam (Jayaraman & Evans' code: DPAdamGaussianOptimizer) or momentum_sgd")
      .OneOf({"adam", "momentum_sgd"});
  f.AddDouble("momentum", &c.momentum, "momentum of momentum_sgd").Min(0).Below(1);
  f.AddDouble("clip_norm", &c.clip_norm, "per-example clipping norm C").Above(0).Finite();
  f.AddDouble("weight_decay", &c.weight_decay, "L2 penalty added to the gradient (J&E: 1e-5)")
      .Min(0)
      .Finite();
  f.AddString("device", &c.device,
              "where DP-SGD trains: cpu, or cuda (LibTorch's CUDA backend, loaded at run time; "
              "same batches and noise as on the CPU)")
      .OneOf({"cpu", "cuda"});
  f.AddDouble("delta", &c.delta, "delta of the upper and lower bounds").OpenRange(0, 1);
  f.AddDouble("target_fpr", &c.target_fpr, "false-positive rate of the reported TPR (5%)")
      .OpenRange(0, 1);
  RegisterSweepFlags(f, &c.sweep);
}

// Rules across fields or elements; each flag's own range is declared above.
Status Validate(const Config& c) {
  PB_ASSIGN_OR_RETURN(const ComputeDevice device, ParseDevice(c.device));
  PB_RETURN_IF_ERROR(EnsureDevice(device));  // --device=cuda without a GPU: exit 2
  if (c.noise_multipliers.size() < 2) {
    return Error("noise_multipliers must list at least 2 values, got " +
                 std::to_string(c.noise_multipliers.size()));
  }
  std::vector<double> sorted = SortedNoise(c.noise_multipliers);
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    return Error("noise_multipliers must be distinct");
  }
  if (c.batch_size >= c.n_train) {
    return Error("batch_size must be < n_train (sampling rate q < 1), got " +
                 std::to_string(c.batch_size) + " >= " + std::to_string(c.n_train));
  }
  return ParseShard(c.sweep.shard).status();
}

Status Run(const Config& c, StudyContext& ctx) {
  const std::vector<double> noise = SortedNoise(c.noise_multipliers);
  DataCache real_cache(c, ctx.seed(), /*real=*/true),
      surrogate_cache(c, ctx.seed(), /*real=*/false);
  PB_ASSIGN_OR_RETURN(DataChoice data, ResolveData(c, ctx.seed(), &real_cache));
  if (!ctx.quiet()) std::fprintf(stderr, "%s: %s\n", kStudy, data.resolution.c_str());
  DataCache& cache = data.real ? real_cache : surrogate_cache;
  const std::vector<UnitKey> keys = MakeUnits(static_cast<int64_t>(noise.size()), c.repetitions);
  SweepPlan plan;
  plan.config_text = SweepConfigText(c, ctx.seed(), data);
  for (const UnitKey& k : keys) plan.run_order.push_back({UnitId(noise, k)});
  auto run_unit = [&](int64_t k, const SweepUnit&, ResultWriter& part) {
    return RunUnit(c, ctx.seed(), noise, keys[k], cache, part);
  };
  auto merge = [&](const SweepParts& parts, const SweepOptions& o) -> Status {
    Results results;
    results.noise = noise;
    results.real_data = data.real;
    results.data_resolution = data.resolution;
    results.parts_dir = PartsDirectory(o);
    results.part_versions = DescribePartVersions(parts).description;
    PB_ASSIGN_OR_RETURN(results.models, ReadModels(c, keys, parts, &results.unit_seconds_total));
    return WriteReport(c, results, ctx.out());
  };
  return RunSweepStudy(kStudy, plan, c.sweep, ctx, run_unit, merge);
}

}  // namespace
}  // namespace region_of_privacy
}  // namespace privbench

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::region_of_privacy;
  Study<Config> study;
  study.info = {kStudy, "That which we call private (Erlingsson, Mironov, Raghunathan & Song 2019)",
                "Sec. 3-5, Tables 1-2, Fig. 1-2; experiments/region_of_privacy/README.md",
                "Region of privacy: DP-SGD logistic regression on Purchase-100 at five noise "
                "levels, loss-threshold attack lower bounds vs naive/advanced/RDP upper bounds"};
  study.defaults = Defaults;
  study.register_flags = RegisterFlags;
  study.validate = Validate;
  study.run = Run;
  return RunStudyMain(study, argc, argv);
}
