// The sweep parts of study C1 `region_of_privacy` (README.md):
// one part per (noise level, repetition) unit, written by RunUnit after
// training one model (training.h) and read back, with the attack computed
// (compute.h), by ReadModels. The parts directory is keyed by
// SweepConfigText (experiments/lib/framework/sweep.h), so a run with any other
// setting or seed starts a fresh directory.
#ifndef PRIVBENCH_EXPERIMENTS_REGION_OF_PRIVACY_PARTS_H_
#define PRIVBENCH_EXPERIMENTS_REGION_OF_PRIVACY_PARTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/lib/framework/sweep.h"
#include "experiments/region_of_privacy/compute.h"
#include "experiments/region_of_privacy/config.h"
#include "experiments/region_of_privacy/data.h"
#include "results/h5_file.h"

namespace privbench {
namespace region_of_privacy {

// Everything a part depends on (not the list of levels or repetitions:
// those are in the unit ids, so adding repetitions reuses the parts).
std::string SweepConfigText(const Config& c, uint64_t seed, const DataChoice& data);

// Trains the model of unit `key` (noise: SortedNoise) on its repetition's
// data and writes losses, accuracies and the training record into `part`.
// Common random numbers: every level of a repetition starts from the same
// weights and sees the same batches and standard-normal draws.
Status RunUnit(const Config& c, uint64_t seed, const std::vector<double>& noise, const UnitKey& key,
               DataCache& cache, ResultWriter& part);

// Reads every part (parts[u] is the part of keys[u]) into models[level][rep]
// with its attack; errors if a part's sizes differ from the config or the
// parts mix datasets. Sets *unit_seconds_total to the training time summed
// in unit order.
Result<ModelGrid> ReadModels(const Config& c, const std::vector<UnitKey>& keys,
                             const SweepParts& parts, double* unit_seconds_total);

}  // namespace region_of_privacy
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_REGION_OF_PRIVACY_PARTS_H_
