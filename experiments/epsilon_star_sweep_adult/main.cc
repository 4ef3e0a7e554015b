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
// study file: experiments/lib/epsilon_star_sweep/report.h (WriteReport); the
// flags, run and report all sweeps share: sweep_main.h (RunSweepStudyMain).
#include <string>
#include <utility>

#include "data_scripts/adult.h"
#include "experiments/lib/epsilon_star_sweep/sweep_main.h"

namespace privbench::epsilon_star_sweep_adult {
namespace {

// data_dir: adult.data / adult.test; n_train, n_population: -1 = all rows
// (32,561 / 16,281), else the first n_train / n_population rows.
using Config = SweepStudyConfig;

Config Defaults(Scale scale) {
  Config c;
  c.grid = DefaultSweepGrid(scale, {/*baseline_epochs=*/{1, 5, 10, 20}, /*baseline_batch_size=*/64,
                                    /*batch_sizes=*/{64, 512}, /*test_baseline_epochs=*/{1, 5}});
  if (scale == Scale::kTest) {
    c.n_train = 2000;
    c.n_population = 1000;
  }
  return c;
}

void RegisterDataFlags(FlagSet& flags, Config& c) {
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

Result<SweepData> LoadData(const Config& c) {
  AdultOptions opts;
  opts.data_dir = c.data_dir;
  PB_ASSIGN_OR_RETURN(Dataset data, LoadAdult(opts));
  if (c.n_train > 0 || c.n_population > 0) {
    PB_ASSIGN_OR_RETURN(data,
                        HeadSubset(data, c.n_train > 0 ? c.n_train : data.n_train(),
                                   c.n_population > 0 ? c.n_population : data.n_population()));
  }
  return SweepData{std::move(data), ""};
}

// What quick and test scale leave out of the paper's grid and data.
std::string Reductions(const Config& c, const EpsilonStarSweepConfig& paper) {
  return GridReductions(c.grid, paper) + "; data " +
         (c.n_train < 0
              ? std::string("all rows")
              : std::to_string(c.n_train) + " / " + std::to_string(c.n_population) + " rows");
}

}  // namespace
}  // namespace privbench::epsilon_star_sweep_adult

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::epsilon_star_sweep_adult;
  SweepStudyMain<Config> m;
  m.info = {"epsilon_star_sweep_adult",
            "Negoescu et al., Epsilon*: Privacy Metric for Machine Learning Models (PPAI-24)",
            "Sec. 4, Fig. 2; experiments/epsilon_star_sweep_adult/README.md",
            "Privacy-utility landscape of Adult models: Epsilon* vs AUROC, baselines vs DP-SGD"};
  m.model = SweepModel::kAdultMlp;
  m.utility = SweepUtility::kAuroc;
  m.utility_label = "AUROC of the predicted probability of income > 50K on the population set";
  m.claims = epsilon_star_sweep::StudyClaims::kAdult;
  m.defaults = Defaults;
  m.register_data_flags = RegisterDataFlags;
  m.load_data = LoadData;
  m.reductions = Reductions;
  return RunSweepStudyMain(m, argc, argv);
}
