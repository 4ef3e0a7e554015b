#include "experiments/lib/epsilon_star_sweep/sweep_main.h"

#include <cstdio>
#include <optional>

#include "experiments/lib/epsilon_star_sweep/sweep_study.h"

namespace privbench {

EpsilonStarSweepConfig DefaultSweepGrid(Scale scale, const SweepGridOfStudy& own) {
  EpsilonStarSweepConfig s;  // the paper's grid (§4.1)
  s.baseline_epochs = own.baseline_epochs;
  s.baseline_batch_size = own.baseline_batch_size;
  s.target_eps = {1, 3, 10, 100};
  s.clip_norms = {1, 10, 30};
  s.batch_sizes = own.batch_sizes;
  s.microbatches = {1, 32};
  s.dp_epochs = 10;
  s.repetitions = 5;
  s.epsilon_star_quantiles = 1000000;
  if (scale == Scale::kQuick) {
    s.target_eps = {1, 10};
    s.clip_norms = {1};
    s.repetitions = 2;
  } else if (scale == Scale::kTest) {
    s.baseline_epochs = own.test_baseline_epochs;
    s.baseline_batch_size = 64;
    s.target_eps = {10};
    s.clip_norms = {1};
    s.batch_sizes = {64};
    s.microbatches = {32};
    s.dp_epochs = 1;
    s.repetitions = 2;
    s.epsilon_star_quantiles = 1000;
  }
  return s;
}

Status ValidateSweepStudy(const SweepStudyConfig& c) {
  PB_RETURN_IF_ERROR(ValidateEpsilonStarSweep(c.grid, c.sweep));
  if (c.n_train == 0) return Error("n_train must be -1 or >= 1, got 0");
  if (c.n_population == 0) return Error("n_population must be -1 or >= 1, got 0");
  return Status::Ok();
}

std::string SweepReductionsText(Scale scale, const std::string& reductions, int64_t quantiles) {
  if (scale == Scale::kPaper) return "none (the paper's grid)";
  return std::string(scale == Scale::kQuick ? "quick scale: " : "test scale: ") + reductions +
         "; Epsilon* quantiles per distribution " + std::to_string(quantiles);
}

Status RunSweepAndReport(const SweepStudy& study, epsilon_star_sweep::StudyClaims claims,
                         const SweepStudyConfig& c, const std::string& reductions,
                         const SweepData& data, StudyContext& ctx) {
  const Dataset& d = data.dataset;
  if (!data.choice.empty() && !ctx.quiet()) {
    std::fprintf(stderr, "%s: data %s (%lld / %lld rows): %s\n", study.name.c_str(),
                 d.provenance.c_str(), static_cast<long long>(d.n_train()),
                 static_cast<long long>(d.n_population()), data.choice.c_str());
  }
  PB_ASSIGN_OR_RETURN(std::optional<epsilon_star_sweep::Results> results,
                      RunEpsilonStarSweep(study, c.grid, c.sweep, d, ctx));
  if (!results) return Status::Ok();  // shard incomplete or plan only: no study file
  results->claims = claims;
  results->reductions = reductions;
  results->dataset_choice = data.choice;
  return epsilon_star_sweep::WriteReport(c.grid, *results, ctx.out());
}

}  // namespace privbench
