// The main of both Epsilon* privacy-utility sweep studies (Negoescu et al.,
// "Epsilon*: Privacy Metric for Machine Learning Models", PPAI-24, §4,
// Figs. 1-2): C2 `epsilon_star_sweep_adult` and C3
// `epsilon_star_sweep_purchase` (their README.md). Each study's main.cc
// states what is its own (its scales, its data flags, how it loads its data,
// what its quick and test scales leave out, its model, utility and claims)
// and calls RunSweepStudyMain, which registers the shared flags, validates,
// runs the sweep (sweep_study.h RunEpsilonStarSweep) and writes the study
// file (report.h WriteReport).
#ifndef PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SWEEP_SWEEP_MAIN_H_
#define PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SWEEP_SWEEP_MAIN_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/flags.h"
#include "core/result.h"
#include "data_scripts/dataset.h"
#include "experiments/lib/epsilon_star_sweep/plan.h"
#include "experiments/lib/epsilon_star_sweep/report.h"
#include "experiments/lib/framework/study.h"
#include "experiments/lib/framework/sweep.h"

namespace privbench {

// The parameters of a sweep study: the grid (plan.h), the sweep mechanics
// (--shard, --parts_dir, ...) and the rows of its data. A study with more
// parameters derives its Config from it.
struct SweepStudyConfig {
  EpsilonStarSweepConfig grid;
  SweepFlags sweep;
  std::string data_dir;       // empty: PRIVBENCH_DATA_DIR, then the study's fallback
  int64_t n_train = -1;       // -1: the study's default rows; else >= 1
  int64_t n_population = -1;  // -1: the study's default rows; else >= 1
};

// What a study's grid has of its own (§4.1): its baselines and DP-SGD batch
// sizes at paper and quick scale, and its baselines at test scale.
struct SweepGridOfStudy {
  std::vector<int64_t> baseline_epochs;
  int64_t baseline_batch_size = 64;
  std::vector<int64_t> batch_sizes;
  std::vector<int64_t> test_baseline_epochs;
};

// The grid at `scale`. Paper (§4.1): the study's baselines; DP-SGD to
// eps 1, 3, 10, 100 with clip norm 1, 10, 30, the study's batch sizes,
// microbatches 1, 32, 10 epochs; 5 models each; 10^6 Epsilon* quantiles.
// Quick: eps 1, 10, clip norm 1, 2 models. Test: the study's test
// baselines at batch 64; eps 10, clip norm 1, batch 64, 32 microbatches,
// 1 epoch; 2 models; 1000 quantiles.
EpsilonStarSweepConfig DefaultSweepGrid(Scale scale, const SweepGridOfStudy& own);

// The data a study loaded, and how it chose it (/meta dataset_choice and a
// progress line; empty when there was no choice to make).
struct SweepData {
  Dataset dataset;
  std::string choice;
};

// What a sweep study's main.cc says of itself. Config is SweepStudyConfig
// or derives from it.
template <class Config>
struct SweepStudyMain {
  StudyInfo info;  // info.name names the study's file and its parts
  SweepModel model = SweepModel::kAdultMlp;
  SweepUtility utility = SweepUtility::kAuroc;
  std::string utility_label;  // e.g. "AUROC ... on the population set"
  epsilon_star_sweep::StudyClaims claims = epsilon_star_sweep::StudyClaims::kAdult;
  // The defaults of each scale.
  std::function<Config(Scale)> defaults;
  // The study's data flags (data_dir, n_train, n_population and any of its
  // own), registered after the grid's and the sweep's.
  std::function<void(FlagSet&, Config&)> register_data_flags;
  std::function<Result<SweepData>(const Config&)> load_data;
  // What quick or test scale leaves out of the data and of the paper's grid
  // `paper` (the paper-scale defaults'), before the Epsilon* quantiles.
  std::function<std::string(const Config&, const EpsilonStarSweepConfig& paper)> reductions;
};

// The rules across fields of the shared parameters: the grid's and the
// sweep's (ValidateEpsilonStarSweep), and n_train and n_population not 0
// (FlagRules cannot exclude 0 inside [-1, max]).
Status ValidateSweepStudy(const SweepStudyConfig& c);

// /meta quick_scale_reductions: "none (the paper's grid)" at paper scale,
// else "<scale> scale: <reductions>; Epsilon* quantiles per distribution <q>".
std::string SweepReductionsText(Scale scale, const std::string& reductions, int64_t quantiles);

// Runs this shard's units of the sweep over `data` and, once every part
// exists, writes the study file (RunEpsilonStarSweep, then WriteReport with
// the study's claims, `reductions` and the data choice); nothing when the
// sweep is incomplete or with --plan_only.
Status RunSweepAndReport(const SweepStudy& study, epsilon_star_sweep::StudyClaims claims,
                         const SweepStudyConfig& c, const std::string& reductions,
                         const SweepData& data, StudyContext& ctx);

// The study's main(): RunStudyMain on the shared flags (the grid's, the
// sweep's, then the study's data flags), ValidateSweepStudy and
// RunSweepAndReport.
template <class Config>
int RunSweepStudyMain(const SweepStudyMain<Config>& m, int argc, const char* const* argv) {
  Study<Config> study;
  study.info = m.info;
  study.defaults = m.defaults;
  study.register_flags = [&m](FlagSet& flags, Config& c) {
    RegisterEpsilonStarSweepFlags(flags, &c.grid);
    RegisterSweepFlags(flags, &c.sweep);
    m.register_data_flags(flags, c);
  };
  study.validate = [](const Config& c) { return ValidateSweepStudy(c); };
  study.run = [&m](const Config& c, StudyContext& ctx) -> Status {
    PB_ASSIGN_OR_RETURN(const SweepData data, m.load_data(c));
    const SweepStudy sweep{m.info.name, m.model, m.utility, m.utility_label,
                           data.dataset.provenance};
    const std::string reductions =
        SweepReductionsText(ctx.scale(), m.reductions(c, m.defaults(Scale::kPaper).grid),
                            c.grid.epsilon_star_quantiles);
    return RunSweepAndReport(sweep, m.claims, c, reductions, data, ctx);
  };
  return RunStudyMain(study, argc, argv);
}

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SWEEP_SWEEP_MAIN_H_
