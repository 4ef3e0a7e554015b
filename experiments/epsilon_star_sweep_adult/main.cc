// Study C2 epsilon_star_sweep_adult: the privacy-utility landscape of Adult
// models, Epsilon* vs AUROC, baselines vs DP-SGD (Negoescu et al.,
// "Epsilon*: Privacy Metric for Machine Learning Models", PPAI-24, §4,
// Fig. 2; README.md).
//
//   bazel run //experiments/epsilon_star_sweep_adult               # quick
//   bazel run //experiments/epsilon_star_sweep_adult -- --scale=paper --plan_only
//   bazel run //experiments/epsilon_star_sweep_adult -- --scale=paper --shard=0/4 ...
//
// Data: UCI Adult, the UCI split (data_scripts/adult.h: 32,561 training
// rows, 16,281 population rows; the paper says 16,280). Model: AdultMlpSpec
// (Linear(108->128) Tanh Linear(128->2); the paper's "benchmark DNN
// architecture (Shokri et al. 2017)"). Grid (paper scale, §4.1): baselines
// of 1, 5, 10, 20 epochs; DP-SGD to eps 1, 3, 10, 100 at delta = 1/n with
// clip norm 1, 10, 30, batch 64, 512, microbatches 1, 32; momentum SGD
// (0.9, lr 0.01); 5 models each: 52 configurations, 260 models. Per model
// and sharding: experiments/lib/epsilon_star_sweep/. Quick scale keeps the data
// and all four baselines and reduces the DP grid and the repetitions (/meta
// quick_scale_reductions); test scale is a few-second smoke run on a subset.
// Claims (§4.2 on Fig. 2): experiments/lib/epsilon_star_sweep/claims.h; the
// study file: experiments/lib/epsilon_star_sweep/report.h (WriteReport).
#include <string>

#include "data_scripts/adult.h"
#include "experiments/lib/epsilon_star_sweep/report.h"
#include "experiments/lib/epsilon_star_sweep/sweep_study.h"

namespace privbench::epsilon_star_sweep_adult {
namespace {

constexpr char kStudy[] = "epsilon_star_sweep_adult";

struct Config {
  EpsilonStarSweepConfig grid;
  SweepFlags sweep;
  std::string data_dir;       // adult.data / adult.test; empty: PRIVBENCH_DATA_DIR, vendored
  int64_t n_train = -1;       // -1: all 32,561 rows; else the first n_train rows
  int64_t n_population = -1;  // -1: all 16,281 rows; else the first n_population rows
};

Config Defaults(Scale scale) {
  Config c;
  EpsilonStarSweepConfig& s = c.grid;  // the paper's grid (§4.1)
  s.baseline_epochs = {1, 5, 10, 20};
  s.baseline_batch_size = 64;
  s.target_eps = {1, 3, 10, 100};
  s.clip_norms = {1, 10, 30};
  s.batch_sizes = {64, 512};
  s.microbatches = {1, 32};
  s.dp_epochs = 10;
  s.repetitions = 5;
  s.epsilon_star_quantiles = 1000000;
  if (scale == Scale::kQuick) {
    s.target_eps = {1, 10};
    s.clip_norms = {1};
    s.repetitions = 2;
  } else if (scale == Scale::kTest) {
    c.n_train = 2000;
    c.n_population = 1000;
    s.baseline_epochs = {1, 5};
    s.target_eps = {10};
    s.clip_norms = {1};
    s.batch_sizes = {64};
    s.microbatches = {32};
    s.dp_epochs = 1;
    s.repetitions = 2;
    s.epsilon_star_quantiles = 1000;
  }
  return c;
}

void RegisterFlags(FlagSet& flags, Config& c) {
  RegisterEpsilonStarSweepFlags(flags, &c.grid);
  RegisterSweepFlags(flags, &c.sweep);
  flags
      .AddString("data_dir", &c.data_dir,
                 "directory with adult.data and adult.test (empty: PRIVBENCH_DATA_DIR, then "
                 "the vendored copy)")
      .ExistingDirectoryOrEmpty();
  flags.AddInt("n_train", &c.n_train, "training rows: -1 = all 32,561, else the first n_train")
      .Range(-1, kAdultTrainRows);
  flags
      .AddInt("n_population", &c.n_population,
              "population rows: -1 = all 16,281, else the first n_population")
      .Range(-1, kAdultPopulationRows);
}

Status Validate(const Config& c) {
  PB_RETURN_IF_ERROR(ValidateEpsilonStarSweep(c.grid, c.sweep));
  // FlagRules cannot exclude 0 inside [-1, max].
  if (c.n_train == 0) return Error("n_train must be -1 (all) or >= 1, got 0");
  if (c.n_population == 0) return Error("n_population must be -1 (all) or >= 1, got 0");
  return Status::Ok();
}

// What quick and test scale leave out of the paper's grid.
std::string Reductions(const Config& c, Scale scale) {
  if (scale == Scale::kPaper) return "none (the paper's grid)";
  return std::string(scale == Scale::kQuick ? "quick scale: " : "test scale: ") +
         GridReductions(c.grid, Defaults(Scale::kPaper).grid) + "; data " +
         (c.n_train < 0
              ? std::string("all rows")
              : std::to_string(c.n_train) + " / " + std::to_string(c.n_population) + " rows") +
         "; Epsilon* quantiles per distribution " + std::to_string(c.grid.epsilon_star_quantiles);
}

Status Run(const Config& c, StudyContext& ctx) {
  AdultOptions opts;
  opts.data_dir = c.data_dir;
  PB_ASSIGN_OR_RETURN(Dataset data, LoadAdult(opts));
  if (c.n_train > 0 || c.n_population > 0) {
    PB_ASSIGN_OR_RETURN(data,
                        HeadSubset(data, c.n_train > 0 ? c.n_train : data.n_train(),
                                   c.n_population > 0 ? c.n_population : data.n_population()));
  }
  const SweepStudy study{kStudy, SweepModel::kAdultMlp, SweepUtility::kAuroc,
                         "AUROC of the predicted probability of income > 50K on the population set",
                         data.provenance};
  PB_ASSIGN_OR_RETURN(auto results, RunEpsilonStarSweep(study, c.grid, c.sweep, data, ctx));
  if (!results) return Status::Ok();  // shard incomplete or plan only: no study file
  results->claims = epsilon_star_sweep::StudyClaims::kAdult;
  results->reductions = Reductions(c, ctx.scale());
  return epsilon_star_sweep::WriteReport(c.grid, *results, ctx.out());
}

}  // namespace
}  // namespace privbench::epsilon_star_sweep_adult

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::epsilon_star_sweep_adult;
  Study<Config> study;
  study.info = {
      kStudy, "Negoescu et al., Epsilon*: Privacy Metric for Machine Learning Models (PPAI-24)",
      "Sec. 4, Fig. 2; experiments/epsilon_star_sweep_adult/README.md",
      "Privacy-utility landscape of Adult models: Epsilon* vs AUROC, baselines vs DP-SGD"};
  study.defaults = Defaults;
  study.register_flags = RegisterFlags;
  study.validate = Validate;
  study.run = Run;
  return RunStudyMain(study, argc, argv);
}
