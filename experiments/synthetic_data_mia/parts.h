// The sharded, resumable sweep of study synthetic_data_mia (F1; README.md in
// this folder; the framework: experiments/lib/framework/sweep.h): the study's
// work as independent units, each writing one part, and the merge of the
// parts into the study's Results (report.h).
//
// UNITS, in run (and merge) order; each is deterministic in the seed and
// the configuration, and computes exactly what the one-process study
// computed for it (compute.h):
//   game=<synthesizer>[_eps=<eps>]_target=<t>_adversary=<a>
//       one membership game of the main grid (RunGame): per case (the
//       non-private synthesizers carry no eps), target and adversary;
//   worst=<w>_<synthesizer>_eps=<eps>_d=<attributes>_bug=<bug or none>
//       worst-case audit w (WorstCasePlans, RunWorstCase) and, for a planted
//       bug, its detection power (BugPowerRows);
//   sweep=<synthesizer>[_eps=<eps>]_target=<t>_adversary=<a>
//       one game of the outlier sweep (PlanOutlierSweep, SweepGameInputs).
// The unit id's first word is its kind (tools/shelve.sh keeps the cheapest
// unit of each kind as a sample the shelf test re-runs). A unit runs on one
// thread (RunSweep runs --threads units at once); its numbers do not depend
// on the threads. The merge adds what needs no releases: the perfect-test
// bounds (PerfectTestBounds) and the cost measurement (MeasureCost: about a
// second of timings, nothing a part could check; timed after the units, as
// the one-process study timed it after its games).
//
// A PART holds its unit's results, every number at full precision:
//   game and sweep units: /game/{case_index,target_index,adversary,seconds},
//       /game/attack_names [A], /game/{auc,tpr_at_fpr_01,privacy_gain,
//       cp_eps_lower,mu_lower,gdp_eps_lower,judged_ceiling} [A],
//       /game/methods/<attack>, /game/eps_lower/<attack> [methods], and, for
//       the main grid's games only (the sweep's keep their AUCs) and only
//       with --keep_test_scores (off at paper scale), the test scores
//       /game/test_scores [A, R];
//   worst units: /worst_case/{attributes,bug_audit,best_cp_eps_lower,
//       flagged}, its two attacks as above under /worst_case/ (scores
//       included), /bug_power/{attack,law} [P] and
//       /bug_power/{quick,paper}_{trials,replicates,probability,
//       standard_error} [P] (P = 0 but for a planted bug).
// A game's wall time is in /game/seconds, which the shelf check's data
// digest leaves out with every dataset named *seconds* (results/h5_file.h
// DataDigest).
#ifndef PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_PARTS_H_
#define PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_PARTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "data_scripts/categorical.h"
#include "experiments/lib/framework/sweep.h"
#include "experiments/synthetic_data_mia/compute.h"
#include "experiments/synthetic_data_mia/config.h"
#include "experiments/synthetic_data_mia/report.h"
#include "experiments/synthetic_data_mia/targets.h"
#include "results/h5_file.h"

namespace privbench {
namespace synthetic_data_mia {

// What one unit computes.
struct UnitJob {
  enum class Kind { kGame, kWorstCase, kSweepGame };
  Kind kind = Kind::kGame;
  int64_t index = 0;      // main case (games), worst-case audit
  int64_t target = 0;     // target index (games)
  std::string adversary;  // (games)
};

// The study's plan: its cases, targets, worst-case audits and outlier sweep,
// its units and the sweep configuration text. Holds the population and the
// targets the games point into: not copied or moved once made (MakePlan
// fills one in place).
struct StudyPlan {
  Config config;
  uint64_t seed = 0;
  const CategoricalDomain* domain = nullptr;
  std::vector<CaseSpec> cases;
  TargetSetup setup;  // the main targets and the population
  std::vector<WorstCasePlan> worst_case;
  OutlierSweepPlan sweep;
  std::vector<UnitJob> jobs;  // jobs[k] is the work of sweep_plan.run_order[k]
  SweepPlan sweep_plan;       // config text and units (merge order: run order)

  StudyPlan() = default;
  StudyPlan(const StudyPlan&) = delete;
  StudyPlan& operator=(const StudyPlan&) = delete;
};

// Everything a part depends on, as "name = value" lines: the seed, the data
// (their checksums) and every configuration field but the run-only ones
// (--data_dir, the sweep's flags) and the cost measurement's (made at the
// merge). Parts are kept per this text (sweep.h PartsDirectory): any other
// setting or seed starts afresh.
std::string SweepConfigText(const Config& c, uint64_t seed, const std::string& data_checksums);

// The unit id of a game of case `spec` ("game" or "sweep"), target t,
// adversary a.
std::string GameUnitId(const std::string& kind, const CaseSpec& spec, int64_t target,
                       const std::string& adversary);

// Plans the study on `pool` (Adult's training records) over `domain`:
// targets (ChooseTargets), cases (MainCases), worst-case audits
// (WorstCasePlans), the outlier sweep (PlanOutlierSweep) and the units in
// the order above. `domain` must outlive the plan.
Status MakePlan(const Config& c, uint64_t seed, const CategoricalTable& pool,
                const CategoricalDomain& domain, const std::string& data_checksums,
                StudyPlan* plan);

// The inputs of the main grid's games and audits (pointers into plan).
GameInputs MainInputs(const StudyPlan& plan, int threads);

// Runs unit k of plan.sweep_plan.run_order and writes its part.
Status RunUnit(const StudyPlan& plan, int64_t k, ResultWriter& part);

// The study's Results from every part, in run order (parts[k] is unit k's),
// with the perfect-test bounds and the cost measurement; errors name a part
// whose content does not fit the plan.
Result<Results> MergeParts(const StudyPlan& plan, const SweepParts& parts);

}  // namespace synthetic_data_mia
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_PARTS_H_
