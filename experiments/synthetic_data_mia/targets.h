// The target records of study synthetic_data_mia and the population the
// private datasets are drawn from.
//
// Targets (the review's "Practical challenges": Stadler et al. 2022 and
// Houssiau et al. 2022 attack outliers):
//  - "outlier": the records of a scored subset of the pool with the largest
//    outlier score, the mean Hamming distance to their k nearest neighbours
//    in that subset (rare value combinations);
//  - "random": records drawn uniformly from the same subset;
//  - "canary": a crafted record (its score: against the scored subset) taking, in every attribute,
//  the value rarest
//    in the pool (ties: the first in the domain's order); possibly a record
//    that occurs nowhere, the worst case a black-box attack can be handed.
// The population (the adversary's auxiliary data and the source of every
// D-) is the pool minus every record equal to a target, so a target is
// never in the adversary's data, not even as a duplicate.
#ifndef PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_TARGETS_H_
#define PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_TARGETS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "data_scripts/categorical.h"
#include "experiments/synthetic_data_mia/config.h"

namespace privbench {
namespace synthetic_data_mia {

struct Target {
  std::string kind;             // "outlier", "random", "canary"
  std::vector<int32_t> record;  // d codes
  double outlier_score = 0;     // mean Hamming distance to the k nearest in the scored subset
};

struct TargetSetup {
  std::vector<Target> targets;     // outliers, then random ones, then the canary
  CategoricalTable population;     // the pool without any record equal to a target
  int64_t removed_duplicates = 0;  // pool rows removed for equalling a target
};

// Mean Hamming distance of each row of `table` to its k nearest other rows
// (k < n).
std::vector<double> OutlierScores(const CategoricalTable& table, int64_t k);

// The rarest value of every attribute in `pool`.
std::vector<int32_t> RarestValueCanary(const CategoricalTable& pool,
                                       const CategoricalDomain& domain);

// Scores config.outlier_pool rows of the pool drawn with the seed, takes the
// top config.outlier_targets and config.random_targets others at random,
// plus the canary. Errors name the flag: more targets than scored records,
// outlier_pool above the pool, knn_k >= outlier_pool.
Result<TargetSetup> ChooseTargets(const CategoricalTable& pool, const CategoricalDomain& domain,
                                  const Config& config, uint64_t seed);

}  // namespace synthetic_data_mia
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_TARGETS_H_
