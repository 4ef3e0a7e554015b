// The outlier sweep of study synthetic_data_mia (compute.h RunOutlierSweep):
// the games of outliers_leak_more, one unit per target.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/progress.h"
#include "core/seeding.h"
#include "experiments/synthetic_data_mia/compute.h"

namespace privbench {
namespace synthetic_data_mia {
namespace {

bool IsTwoWay(const std::string& synthesizer) {
  return synthesizer == "chow_liu" || synthesizer == "mst" || synthesizer == "privbayes";
}

// The main config with the sweep's targets, releases, attacks and
// adversaries in place of the main grid's.
Config SweepConfig(const Config& c) {
  Config s = c;
  s.outlier_targets = c.sweep_outliers;
  s.random_targets = c.sweep_randoms;
  s.canary_target = false;
  s.train_datasets = c.sweep_train_datasets;
  s.test_datasets = c.sweep_test_datasets;
  s.attacks = SweepAttacks(c);
  s.adversaries = c.sweep_adversaries;
  return s;
}

}  // namespace

std::vector<int64_t> SweepCases(const Config& c, const std::vector<CaseSpec>& cases) {
  std::vector<int64_t> out;
  for (size_t k = 0; k < cases.size(); ++k) {
    const CaseSpec& s = cases[k];
    if (!IsTwoWay(s.synthesizer) || !s.bug.empty()) continue;
    const bool listed = std::find(c.sweep_epsilons.begin(), c.sweep_epsilons.end(),
                                  s.guarantee.epsilon) != c.sweep_epsilons.end();
    if (!s.guarantee.is_private() || listed) out.push_back(static_cast<int64_t>(k));
  }
  return out;
}

std::vector<std::string> SweepAttacks(const Config& c) {
  std::vector<std::string> out;
  for (const std::string& a : SelectedAttacks(c)) {
    const bool listed =
        std::find(c.sweep_attacks.begin(), c.sweep_attacks.end(), a) != c.sweep_attacks.end();
    if (listed && !IsWhiteBox(a)) out.push_back(a);
  }
  return out;
}

bool OutlierSweepPlan::runs_games() const {
  return !sweep.targets.empty() && !sweep.attacks.empty();
}

Result<OutlierSweepPlan> PlanOutlierSweep(const GameInputs& in, const CategoricalTable& pool,
                                          const std::vector<CaseSpec>& cases) {
  OutlierSweepPlan plan;
  plan.config = SweepConfig(*in.config);
  const Config& c = plan.config;
  OutlierSweep& sweep = plan.sweep;
  sweep.cases = SweepCases(*in.config, cases);
  sweep.attacks = c.attacks;
  sweep.train_datasets = c.train_datasets;
  sweep.test_datasets = c.test_datasets;
  if (c.outlier_targets + c.random_targets == 0) return plan;
  PB_ASSIGN_OR_RETURN(plan.setup, ChooseTargets(pool, *in.domain, c, in.seed));
  sweep.targets = plan.setup.targets;
  sweep.removed_duplicates = plan.setup.removed_duplicates;
  return plan;
}

GameInputs SweepGameInputs(const GameInputs& in, const OutlierSweepPlan& plan) {
  GameInputs g = in;
  g.config = &plan.config;
  g.population = &plan.setup.population;
  g.targets = &plan.setup.targets;
  g.seed = DeriveSeed(in.seed, {StableHash("outlier_sweep")});
  return g;
}

Result<OutlierSweep> RunOutlierSweep(const GameInputs& in, const CategoricalTable& pool,
                                     const std::vector<CaseSpec>& cases, bool quiet) {
  PB_ASSIGN_OR_RETURN(const OutlierSweepPlan plan, PlanOutlierSweep(in, pool, cases));
  OutlierSweep sweep = plan.sweep;
  if (!plan.runs_games()) return sweep;
  const GameInputs g = SweepGameInputs(in, plan);
  const std::vector<std::string>& adversaries = plan.config.adversaries;
  ProgressReporter progress(
      "synthetic_data_mia outlier sweep",
      static_cast<int64_t>(sweep.cases.size() * sweep.targets.size() * adversaries.size()), quiet);
  for (int64_t k : sweep.cases) {
    for (size_t t = 0; t < sweep.targets.size(); ++t) {
      for (const std::string& adversary : adversaries) {
        PB_ASSIGN_OR_RETURN(GameResult game, RunGame(g, cases[static_cast<size_t>(k)], k,
                                                     static_cast<int64_t>(t), adversary));
        sweep.games.push_back(std::move(game));
        progress.Advance(1);
      }
    }
  }
  return sweep;
}

}  // namespace synthetic_data_mia
}  // namespace privbench
