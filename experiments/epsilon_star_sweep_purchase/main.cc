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
// the study file: experiments/lib/epsilon_star_sweep/report.h (WriteReport);
// the flags, run and report all sweeps share: sweep_main.h (RunSweepStudyMain).
#include <string>
#include <utility>

#include "data_scripts/purchase100.h"
#include "data_scripts/purchase100_surrogate.h"
#include "experiments/lib/epsilon_star_sweep/sweep_main.h"

namespace privbench::epsilon_star_sweep_purchase {
namespace {

// Epsilon* §4.1's split of its (~311k-row) Purchase-100.
constexpr int64_t kPaperTrain = 208731;
constexpr int64_t kPaperPopulation = 102809;

// data_dir: dataset_purchase and SHA256SUMS; n_train: -1 = paper sizes
// (surrogate) / the paper's ratio (real data); n_population: -1 = as n_train.
struct Config : SweepStudyConfig {
  std::string dataset = "auto";  // auto | real | surrogate
  int64_t data_seed = 0;         // surrogate model and records / real-data split shuffle
};

Config Defaults(Scale scale) {
  Config c;
  c.grid = DefaultSweepGrid(scale, {/*baseline_epochs=*/{10, 50, 100}, /*baseline_batch_size=*/256,
                                    /*batch_sizes=*/{256, 1024}, /*test_baseline_epochs=*/{1, 3}});
  if (scale == Scale::kQuick) c.n_train = c.n_population = 10000;
  if (scale == Scale::kTest) c.n_train = c.n_population = 1000;
  return c;
}

void RegisterDataFlags(FlagSet& flags, Config& c) {
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

// The data and how it was chosen.
Result<SweepData> LoadData(const Config& c) {
  std::string choice;
  if (c.dataset != "surrogate") {
    Purchase100Options o;
    o.data_dir = c.data_dir;
    o.n_train = c.n_train;
    o.n_population = c.n_population;
    o.seed = static_cast<uint64_t>(c.data_seed);
    auto real = LoadPurchase100(o);
    if (real.ok()) {
      return SweepData{std::move(real).value(), "real Purchase-100 (" + c.dataset + ")"};
    }
    if (c.dataset == "real") return Error("--dataset=real: " + real.message());
    choice = "auto: real Purchase-100 not available (" + real.message().substr(0, 300) +
             "); purchase100-surrogate used";
  } else {
    choice = "surrogate requested (--dataset=surrogate)";
  }
  SurrogateOptions s;
  s.n_train = c.n_train > 0 ? c.n_train : kPaperTrain;
  s.n_population = c.n_population > 0 ? c.n_population : kPaperPopulation;
  s.seed = static_cast<uint64_t>(c.data_seed);
  PB_ASSIGN_OR_RETURN(Dataset surrogate, MakePurchase100Surrogate(s));
  return SweepData{std::move(surrogate), choice};
}

// What quick and test scale leave out of the paper's data and grid.
std::string Reductions(const Config& c, const EpsilonStarSweepConfig& paper) {
  return "data " + std::to_string(c.n_train) + " training / " + std::to_string(c.n_population) +
         " population rows (paper 208,731 / 102,809); " + GridReductions(c.grid, paper);
}

}  // namespace
}  // namespace privbench::epsilon_star_sweep_purchase

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::epsilon_star_sweep_purchase;
  SweepStudyMain<Config> m;
  m.info = {"epsilon_star_sweep_purchase",
            "Negoescu et al., Epsilon*: Privacy Metric for Machine Learning Models (PPAI-24)",
            "Sec. 4, Fig. 1; experiments/epsilon_star_sweep_purchase/README.md",
            "Privacy-utility landscape of Purchase-100 models: Epsilon* vs test accuracy, "
            "baselines vs DP-SGD"};
  m.model = SweepModel::kPurchaseMlp;
  m.utility = SweepUtility::kAccuracy;
  m.utility_label = "test accuracy (on the population set)";
  m.claims = epsilon_star_sweep::StudyClaims::kPurchase;
  m.defaults = Defaults;
  m.register_data_flags = RegisterDataFlags;
  m.load_data = LoadData;
  m.reductions = Reductions;
  return RunSweepStudyMain(m, argc, argv);
}
