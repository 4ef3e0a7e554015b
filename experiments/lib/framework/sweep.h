// Sharded, resumable sweeps (trained-model studies C1-C4).
//
// A sweep is a list of independent work units, each with a stable id
// ("sigma=13.76_rep=2"). Every unit writes its own HDF5 part,
//   <parts_dir>/<study>.<config key>/<unit id>.h5,
// where the config key is a hash of the sweep configuration: a rerun with
// any other parameter (or seed) starts a fresh directory, and only a resumed
// identical configuration reuses parts.
// atomically (results/h5_file.h: temporary name, fsync, rename), so a part
// either exists complete or not at all. RunSweep:
//   - runs the units of this shard (--shard=i/n: unit k belongs to shard
//     k mod n), so a Slurm array job (one task per shard) or several local
//     processes can share a sweep;
//   - skips every unit whose part already exists (its /meta sweep_config
//     is compared with ours as well, so even a hash collision can never
//     reuse a part of another configuration), and refuses a part made by
//     another git commit, naming both commits and the fix (remove the parts
//     directory or choose another --parts_dir): its layout or numbers may
//     differ. Parts of the same commit are reused whatever their
//     uncommitted-changes flag (a rebuild of that commit, or development in
//     a dirty tree, must still resume; uncommitted edits are not detected);
//   - reports progress (done/total, rate, ETA).
// Killing a sweep loses at most the units in flight; rerunning redoes only
// those. When every part exists, OpenSweepParts() reads them back for the
// study to assemble its results/raw/<study>.h5.
//
// Every sweep study runs the same skeleton, RunSweepStudy(): plan (the
// units and the configuration text), run this shard's units into parts,
// and, once every part exists, merge them into the study file; the shared
// flags (--shard, --parts_dir, --merge_only) are declared once, by
// RegisterSweepFlags().
#ifndef PRIVBENCH_EXPERIMENTS_LIB_FRAMEWORK_SWEEP_H_
#define PRIVBENCH_EXPERIMENTS_LIB_FRAMEWORK_SWEEP_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/flags.h"
#include "core/result.h"
#include "experiments/lib/framework/study.h"
#include "results/h5_file.h"

namespace privbench {

struct Shard {
  int64_t index = 0;  // i in --shard=i/n
  int64_t count = 1;  // n
  bool Owns(int64_t unit) const { return unit % count == index; }
};
// Parses "i/n" with 0 <= i < n; errors name --shard.
Result<Shard> ParseShard(const std::string& text);

struct SweepUnit {
  std::string id;  // file-name safe: [A-Za-z0-9._=+-]
};

struct SweepOptions {
  std::string study;        // the study's name
  std::string parts_dir;    // parts go to PartsDirectory(*this)
  std::string config_text;  // the sweep configuration; parts must match it
  Shard shard;
  int threads = 1;  // units run concurrently (each may use its own threads)
  bool quiet = false;
  std::string scale;  // recorded in each part's /meta with the seed, the shard, the
  uint64_t seed = 0;  // host and the Slurm job (SLURM_ARRAY_JOB_ID_TASK_ID or SLURM_JOB_ID)
  // Non-empty: run exactly these units (ids of the plan, any shard) and
  // nothing else, e.g. the paper-scale shelf check re-running a stored unit.
  std::vector<std::string> only_units;
  // Non-empty: parts made by these commits (comma-separated, each a prefix
  // of at least 7 hex digits of one) are reused as if made by ours, e.g. a long run resumed from
  // the parts a previous commit made and committed; the merge records the mixed versions and the
  // shelf check re-runs a sample of units with this code.
  std::string accept_parts_from;
};

struct SweepReport {
  int64_t total = 0;     // units in the sweep
  int64_t owned = 0;     // units of this shard
  int64_t skipped = 0;   // already complete, not redone
  int64_t ran = 0;       // computed now
  int64_t complete = 0;  // parts present after the run (all shards)
  bool all_complete() const { return complete == total; }
};

// Writes one unit's results into `part` (a ResultWriter whose /meta holds the
// study, unit id and sweep configuration). Must be deterministic in the unit.
using UnitFn = std::function<Status(int64_t unit_index, const SweepUnit& unit, ResultWriter& part)>;

// Runs the units of this shard that are not yet complete.
Result<SweepReport> RunSweep(const std::vector<SweepUnit>& units, const SweepOptions& options,
                             const UnitFn& run_unit);

// Opens every part (in unit order) once all exist; errors list the missing
// units (e.g. "12 of 52 units missing: ...; run the remaining shards") or
// name a part of another configuration or commit.
// Warns on stderr (unless quiet) when the parts come from different code
// versions (DescribePartVersions).
Result<std::vector<std::unique_ptr<ResultReader>>> OpenSweepParts(
    const std::vector<SweepUnit>& units, const SweepOptions& options);

// The code versions (git commit, uncommitted changes) that made the parts:
// "52 parts, all from commit <c>", or, when they differ, each version with
// its count; then, for parts that recorded it, where they were made: "; made
// by shard 0/32 on node17 (Slurm job 4711_0): 2 parts, ..."; then the
// units' time in all: "; units' wall time 812 s in all (sum over parts)". Parts of
// another commit are refused (RunSweep, OpenSweepParts), so versions mix only
// in their uncommitted-changes flag (or in parts read without those checks):
// OpenSweepParts then warns on stderr, and the studies record the
// description in /meta sweep_part_versions.
struct PartVersions {
  std::string description;
  bool mixed = false;  // more than one version made the parts
};
PartVersions DescribePartVersions(const std::vector<std::unique_ptr<ResultReader>>& parts);

// <parts_dir>/<study>.<12 hex digits of StableHash(config_text)>: the
// directory of this configuration's parts.
std::string PartsDirectory(const SweepOptions& options);

// The path of a unit's part: PartsDirectory(options)/<unit id>.h5.
std::string PartPath(const SweepOptions& options, const SweepUnit& unit);

// ---------------------------------------------------------------------------
// The skeleton every sweep study runs.

// The flags every sweep study shares; a study's config holds one and
// registers it with RegisterSweepFlags (constraints included).
struct SweepFlags {
  std::string shard = "0/1";      // --shard=i/n
  std::string parts_dir;          // empty: DefaultPartsDir()
  bool merge_only = false;        // assemble from existing parts, run nothing
  std::string units;              // --units=id,...: run only these units, write no study file
  std::string accept_parts_from;  // --accept_parts_from=<commit>[,...]: reuse those commits' parts
};
void RegisterSweepFlags(FlagSet& flags, SweepFlags* sweep);

// What a sweep study plans before it runs anything.
struct SweepPlan {
  std::string config_text;             // everything a unit's result depends on
  std::vector<SweepUnit> run_order;    // shard assignment: unit k of this list
                                       // belongs to shard k mod n
  std::vector<SweepUnit> merge_order;  // order of the parts handed to merge;
                                       // empty: run_order
};

using SweepParts = std::vector<std::unique_ptr<ResultReader>>;
using MergeFn = std::function<Status(const SweepParts& parts, const SweepOptions& options)>;

// Runs the sweep of `study` (its name: ctx's study) for this shard, then
// merges: unless flags.merge_only, runs this shard's pending units with
// run_unit (index k into plan.run_order); if other shards' units are still
// pending, ends the run without a study file (ctx.SkipOutput, exit 0);
// otherwise opens every part in merge order and calls merge, which writes
// the study file through ctx.out().
Status RunSweepStudy(const std::string& study, const SweepPlan& plan, const SweepFlags& flags,
                     StudyContext& ctx, const UnitFn& run_unit, const MergeFn& merge);

// The options RunSweepStudy uses (for a study that needs the parts' paths
// before it runs, e.g. to count pending units).
Result<SweepOptions> MakeSweepOptions(const std::string& study, const SweepPlan& plan,
                                      const SweepFlags& flags, const StudyContext& ctx);

// Units of this shard whose parts do not exist yet.
int64_t PendingUnits(const std::vector<SweepUnit>& units, const SweepOptions& options);

// Default parts directory: $BUILD_WORKSPACE_DIRECTORY/results/parts/<the
// first 12 hex digits of the binary's commit> (results/parts when the commit
// is unknown), so each commit's sweeps resume only their own parts.
std::string DefaultPartsDir();

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIB_FRAMEWORK_SWEEP_H_
