#include "experiments/lib/coverage/trial_grid.h"

#include "core/progress.h"
#include "core/seeding.h"
#include "experiments/lib/framework/study.h"

namespace privbench {

std::vector<GridPoint> PairMajorGrid(size_t pairs, const std::vector<int64_t>& ns) {
  std::vector<GridPoint> grid;
  for (size_t p = 0; p < pairs; ++p) {
    for (int64_t n : ns) grid.push_back({static_cast<int64_t>(p), n});
  }
  return grid;
}

Status ForEachTrial(const std::string& label, int64_t settings, int64_t trials, uint64_t seed,
                    int threads, bool quiet, const TrialFn& trial) {
  ProgressReporter progress(label, settings * trials, quiet);
  return ParallelFor(settings * trials, threads, [&](int64_t unit) -> Status {
    const int64_t s = unit / trials, t = unit % trials;
    PB_RETURN_IF_ERROR(
        trial(s, t, DeriveSeed(seed, {static_cast<uint64_t>(s), static_cast<uint64_t>(t)})));
    progress.Advance();
    return Status::Ok();
  });
}

}  // namespace privbench
