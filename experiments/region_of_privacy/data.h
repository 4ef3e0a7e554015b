// The data of study C1 `region_of_privacy` (README.md): the real
// Purchase-100 (data_scripts/purchase100.h) when it loads (--data=auto, the
// default, or --data=purchase100), else MakePurchase100Surrogate
// ("purchase100-surrogate" in every caption). Each repetition draws fresh
// training and population (non-member) records, shared by that repetition's
// noise levels.
#ifndef PRIVBENCH_EXPERIMENTS_REGION_OF_PRIVACY_DATA_H_
#define PRIVBENCH_EXPERIMENTS_REGION_OF_PRIVACY_DATA_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "core/result.h"
#include "data_scripts/dataset.h"
#include "experiments/region_of_privacy/config.h"

namespace privbench {
namespace region_of_privacy {

struct DataChoice {
  bool real = false;       // real Purchase-100, else the surrogate
  std::string resolution;  // how --data was resolved, for /meta
};

// One dataset per repetition (fresh train / population records), loaded
// once per process and shared by that repetition's units; thread-safe.
class DataCache {
 public:
  DataCache(const Config& c, uint64_t seed, bool real) : c_(c), seed_(seed), real_(real) {}
  void Put(int64_t rep, Dataset d);
  Result<std::shared_ptr<const Dataset>> Get(int64_t rep);

 private:
  const Config& c_;
  uint64_t seed_;
  bool real_;
  std::mutex mu_;
  std::map<int64_t, std::shared_ptr<const Dataset>> cache_;
};

// --data=auto uses the real data when its file is present (its
// repetition-0 split is put into `real_cache`) and the surrogate only when
// it is absent: a present but corrupt or unverifiable file is an error,
// never a silent fallback.
Result<DataChoice> ResolveData(const Config& c, uint64_t seed, DataCache* real_cache);

}  // namespace region_of_privacy
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_REGION_OF_PRIVACY_DATA_H_
