// Study C3 epsilon_star_sweep_purchase: the privacy-utility landscape of
// Purchase-100 models, Epsilon* vs test accuracy, baselines vs DP-SGD
// (Negoescu et al., "Epsilon*: Privacy Metric for Machine Learning Models",
// PPAI-24, §4, Fig. 1; README.md).
//
//   bazel run //experiments/epsilon_star_sweep_purchase               # quick
//   bazel run //experiments/epsilon_star_sweep_purchase -- --scale=paper --plan_only
//
// Data: the real Purchase-100 if LoadPurchase100 finds it (--data_dir or
// PRIVBENCH_DATA_DIR; data_scripts/download_purchase100.py), split with the
// paper's 208,731 : 102,809 ratio (data_scripts/purchase100.h); otherwise,
// or with --dataset=surrogate, the offline stand-in purchase100-surrogate
// (data_scripts/purchase100_surrogate.h) at the paper's sizes 208,731 /
// 102,809 (paper scale). Every table and figure then says
// "purchase100-surrogate", and the verify entries about the real data show
// our value as "surrogate data".
// Model: PurchaseMlpSpec, three hidden layers of 100 Tanh units ("three
// layers, each of 100 nodes", trained to overfit). Grid (§4.1): baselines of
// 10, 50, 100 epochs; DP-SGD to eps 1, 3, 10, 100 with clip norm 1, 10, 30,
// batch 256, 1024, microbatches 1, 32; momentum SGD (0.9, lr 0.01); 5
// models each: 51 configurations, 255 models. Per model and sharding:
// experiments/lib/epsilon_star_sweep/. Quick scale: a 10,000 / 10,000 subset
// (surrogate: generated at that size), the three baselines, a reduced DP
// grid, two repetitions (/meta quick_scale_reductions). Test scale: seconds.
// Published numbers and claims (§4.2): experiments/lib/epsilon_star_sweep/claims.h;
// the study file: experiments/lib/epsilon_star_sweep/report.h (WriteReport).
#include <cstdio>
#include <string>

#include "data_scripts/purchase100.h"
#include "data_scripts/purchase100_surrogate.h"
#include "experiments/lib/epsilon_star_sweep/report.h"
#include "experiments/lib/epsilon_star_sweep/sweep_study.h"

namespace privbench::epsilon_star_sweep_purchase {
namespace {

constexpr char kStudy[] = "epsilon_star_sweep_purchase";
// Epsilon* §4.1's split of its (~311k-row) Purchase-100.
constexpr int64_t kPaperTrain = 208731;
constexpr int64_t kPaperPopulation = 102809;

struct Config {
  EpsilonStarSweepConfig grid;
  SweepFlags sweep;
  std::string dataset = "auto";  // auto | real | surrogate
  std::string data_dir;
  int64_t n_train = -1;       // -1: paper sizes (surrogate) / the paper's ratio (real data)
  int64_t n_population = -1;  // -1: as n_train
  int64_t data_seed = 0;      // surrogate model and records / real-data split shuffle
};

Config Defaults(Scale scale) {
  Config c;
  EpsilonStarSweepConfig& s = c.grid;  // the paper's grid (§4.1)
  s.baseline_epochs = {10, 50, 100};
  s.baseline_batch_size = 256;
  s.target_eps = {1, 3, 10, 100};
  s.clip_norms = {1, 10, 30};
  s.batch_sizes = {256, 1024};
  s.microbatches = {1, 32};
  s.dp_epochs = 10;
  s.repetitions = 5;
  s.epsilon_star_quantiles = 1000000;
  if (scale == Scale::kQuick) {
    c.n_train = c.n_population = 10000;
    s.target_eps = {1, 10};
    s.clip_norms = {1};
    s.repetitions = 2;
  } else if (scale == Scale::kTest) {
    c.n_train = c.n_population = 1000;
    s.baseline_epochs = {1, 3};
    s.baseline_batch_size = 64;
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
      .AddString("dataset", &c.dataset,
                 "auto (real Purchase-100 if found, else the surrogate), real, or surrogate")
      .OneOf({"auto", "real", "surrogate"});
  flags
      .AddString("data_dir", &c.data_dir,
                 "directory with dataset_purchase and SHA256SUMS (empty: PRIVBENCH_DATA_DIR, "
                 "then the fallbacks)")
      .ExistingDirectoryOrEmpty();
  flags
      .AddInt("n_train", &c.n_train,
              "training rows: -1 = the paper's 208,731 (surrogate) or its ratio of the real rows")
      .Range(-1, 1e7);
  flags
      .AddInt("n_population", &c.n_population,
              "population rows: -1 = the paper's 102,809 (surrogate) or the rest of the real "
              "rows")
      .Range(-1, 1e7);
  flags.AddInt("data_seed", &c.data_seed, "surrogate generator seed / real-data split seed").Min(0);
}

Status Validate(const Config& c) {
  PB_RETURN_IF_ERROR(ValidateEpsilonStarSweep(c.grid, c.sweep));
  // FlagRules cannot exclude 0 inside [-1, 1e7].
  if (c.n_train == 0) return Error("n_train must be -1 or >= 1, got 0");
  if (c.n_population == 0) return Error("n_population must be -1 or >= 1, got 0");
  return Status::Ok();
}

// The data and how it was chosen.
Result<Dataset> LoadData(const Config& c, std::string* choice) {
  if (c.dataset != "surrogate") {
    Purchase100Options o;
    o.data_dir = c.data_dir;
    o.n_train = c.n_train;
    o.n_population = c.n_population;
    o.seed = static_cast<uint64_t>(c.data_seed);
    auto real = LoadPurchase100(o);
    if (real.ok()) {
      *choice = "real Purchase-100 (" + c.dataset + ")";
      return real;
    }
    if (c.dataset == "real") return Error("--dataset=real: " + real.message());
    *choice = "auto: real Purchase-100 not available (" + real.message().substr(0, 300) +
              "); purchase100-surrogate used";
  } else {
    *choice = "surrogate requested (--dataset=surrogate)";
  }
  SurrogateOptions s;
  s.n_train = c.n_train > 0 ? c.n_train : kPaperTrain;
  s.n_population = c.n_population > 0 ? c.n_population : kPaperPopulation;
  s.seed = static_cast<uint64_t>(c.data_seed);
  return MakePurchase100Surrogate(s);
}

// What quick and test scale leave out of the paper's grid.
std::string Reductions(const Config& c, Scale scale) {
  if (scale == Scale::kPaper) return "none (the paper's grid)";
  return std::string(scale == Scale::kQuick ? "quick scale: " : "test scale: ") + "data " +
         std::to_string(c.n_train) + " training / " + std::to_string(c.n_population) +
         " population rows (paper 208,731 / 102,809); " +
         GridReductions(c.grid, Defaults(Scale::kPaper).grid) +
         "; Epsilon* quantiles per distribution " + std::to_string(c.grid.epsilon_star_quantiles);
}

Status Run(const Config& c, StudyContext& ctx) {
  std::string choice;
  PB_ASSIGN_OR_RETURN(Dataset data, LoadData(c, &choice));
  if (!ctx.quiet()) {
    std::fprintf(stderr, "%s: data %s (%lld / %lld rows): %s\n", kStudy, data.provenance.c_str(),
                 static_cast<long long>(data.n_train()),
                 static_cast<long long>(data.n_population()), choice.c_str());
  }
  const SweepStudy study{kStudy, SweepModel::kPurchaseMlp, SweepUtility::kAccuracy,
                         "test accuracy (on the population set)", data.provenance};
  PB_ASSIGN_OR_RETURN(auto results, RunEpsilonStarSweep(study, c.grid, c.sweep, data, ctx));
  if (!results) return Status::Ok();  // shard incomplete or plan only: no study file
  results->claims = epsilon_star_sweep::StudyClaims::kPurchase;
  results->reductions = Reductions(c, ctx.scale());
  results->dataset_choice = choice;
  return epsilon_star_sweep::WriteReport(c.grid, *results, ctx.out());
}

}  // namespace
}  // namespace privbench::epsilon_star_sweep_purchase

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::epsilon_star_sweep_purchase;
  Study<Config> study;
  study.info = {kStudy,
                "Negoescu et al., Epsilon*: Privacy Metric for Machine Learning Models (PPAI-24)",
                "Sec. 4, Fig. 1; experiments/epsilon_star_sweep_purchase/README.md",
                "Privacy-utility landscape of Purchase-100 models: Epsilon* vs test accuracy, "
                "baselines vs DP-SGD"};
  study.defaults = Defaults;
  study.register_flags = RegisterFlags;
  study.validate = Validate;
  study.run = Run;
  return RunStudyMain(study, argc, argv);
}
