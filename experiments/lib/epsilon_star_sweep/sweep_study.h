// The sweep both Epsilon* privacy-utility studies run (Negoescu et al.,
// "Epsilon*: Privacy Metric for Machine Learning Models", PPAI-24, §4,
// Figs. 1-2; C2 `epsilon_star_sweep_adult`, C3 `epsilon_star_sweep_purchase`,
// their README.md): train every configuration of the grid
// (plan.h) `repetitions` times, measure each model's privacy by Epsilon* and
// its utility (compute.h), and read back what the report of the
// privacy-utility landscape is written from (report.h).
//
// One work unit = one (configuration, repetition) = one model, run through
// the framework's sweep skeleton (experiments/lib/framework/sweep.h
// RunSweepStudy: sharded with --shard=i/n, resumable: one atomic part per
// unit under <parts_dir>/<study>.<config key>/, the key a hash of
// everything a unit depends on besides its id (plan.h UnitConfigText) but
// not of the grid lists or the repetition count, so a paper-scale run
// reuses the units a quick run already trained; --merge_only assembles; a
// shard that leaves the sweep incomplete ends with ctx.SkipOutput and no
// study file). Units run most expensive first; the study file lists them
// in (configuration, repetition) order.
#ifndef PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SWEEP_SWEEP_STUDY_H_
#define PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SWEEP_SWEEP_STUDY_H_

#include <optional>

#include "core/result.h"
#include "data_scripts/dataset.h"
#include "experiments/lib/epsilon_star_sweep/plan.h"
#include "experiments/lib/epsilon_star_sweep/report.h"
#include "experiments/lib/framework/study.h"
#include "experiments/lib/framework/sweep.h"

namespace privbench {

// Runs this shard's units of the sweep over `dataset` (training rows vs
// population rows) and, when every unit's part exists, reads the parts back:
// returns what the report is written from (report.h Results, all but the
// study's own fields: claims, reductions, dataset_choice), the study then
// calls epsilon_star_sweep::WriteReport. Returns nullopt after
// ctx.SkipOutput() when the sweep is still incomplete (other shards pending)
// or with --plan_only (which prints the plan and trains nothing; the plan is
// also printed before a paper-scale run). --merge_only never trains (error
// listing the missing units if some are missing). `dataset` must outlive
// the returned Results.
Result<std::optional<epsilon_star_sweep::Results>> RunEpsilonStarSweep(
    const SweepStudy& study, const EpsilonStarSweepConfig& config, const SweepFlags& flags,
    const Dataset& dataset, StudyContext& ctx);

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SWEEP_SWEEP_STUDY_H_
