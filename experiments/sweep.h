// Sharded, resumable sweeps (trained-model studies C1-C4).
//
// A sweep is a list of independent work units, each with a stable id
// ("sigma=13.76_rep=2"). Every unit writes its own HDF5 part,
//   <parts_dir>/<study>/<unit id>.h5,
// atomically (results/h5_file.h: temporary name, fsync, rename), so a part
// either exists complete or not at all. RunSweep:
//   - runs the units of this shard (--shard=i/n: unit k belongs to shard
//     k mod n), so a Slurm array job (one task per shard) or several local
//     processes can share a sweep;
//   - skips every unit whose part already exists and was made with the
//     same sweep configuration (a part made with a different
//     configuration is an error, never silently reused);
//   - reports progress (done/total, rate, ETA).
// Killing a sweep loses at most the units in flight; rerunning redoes only
// those. When every part exists, MergeSweep() reads them back for the
// study to assemble its results/raw/<study>.h5.
#ifndef PRIVBENCH_EXPERIMENTS_SWEEP_H_
#define PRIVBENCH_EXPERIMENTS_SWEEP_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
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
  std::string parts_dir;    // parts go to <parts_dir>/<study>/
  std::string config_text;  // the sweep configuration; parts must match it
  Shard shard;
  int threads = 1;  // units run concurrently (each may use its own threads)
  bool quiet = false;
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
// units (e.g. "12 of 52 units missing: ...; run the remaining shards").
// Warns on stderr (unless quiet) when the parts come from different code
// versions (DescribePartVersions).
Result<std::vector<std::unique_ptr<ResultReader>>> OpenSweepParts(
    const std::vector<SweepUnit>& units, const SweepOptions& options);

// The code versions (git commit, uncommitted changes) that made the parts:
// "52 parts, all from commit <c>", or, when they differ, each version with
// its count. A sweep resumed across code changes mixes versions (parts are
// keyed by the sweep configuration, not by the code): OpenSweepParts then
// warns on stderr, and the studies record the description in /meta
// sweep_part_versions.
struct PartVersions {
  std::string description;
  bool mixed = false;  // more than one version made the parts
};
PartVersions DescribePartVersions(const std::vector<std::unique_ptr<ResultReader>>& parts);

// The path of a unit's part.
std::string PartPath(const SweepOptions& options, const SweepUnit& unit);

// Default parts directory: $BUILD_WORKSPACE_DIRECTORY/results/parts.
std::string DefaultPartsDir();

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_SWEEP_H_
