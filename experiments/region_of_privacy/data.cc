#include "experiments/region_of_privacy/data.h"

#include <utility>

#include "core/seeding.h"
#include "data_scripts/purchase100.h"
#include "data_scripts/purchase100_surrogate.h"

namespace privbench {
namespace region_of_privacy {

namespace {

Purchase100Options RealOptions(const Config& c, uint64_t seed, int64_t rep) {
  Purchase100Options o;
  o.data_dir = c.data_dir;
  o.n_train = c.n_train;
  o.n_population = c.n_population;
  o.seed = DeriveSeed(seed, {0, static_cast<uint64_t>(rep)});
  return o;
}

SurrogateOptions SurrogateFor(const Config& c, uint64_t seed, int64_t rep) {
  SurrogateOptions o;
  o.n_train = c.n_train;
  o.n_population = c.n_population;
  o.seed = static_cast<uint64_t>(c.surrogate_model_seed);
  o.sample_stream = DeriveSeed(seed, {0, static_cast<uint64_t>(rep)});
  return o;
}

}  // namespace

void DataCache::Put(int64_t rep, Dataset d) {
  std::lock_guard<std::mutex> lock(mu_);
  cache_[rep] = std::make_shared<const Dataset>(std::move(d));
}

Result<std::shared_ptr<const Dataset>> DataCache::Get(int64_t rep) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = cache_.find(rep);
  if (it != cache_.end()) return it->second;
  Result<Dataset> d = real_ ? LoadPurchase100(RealOptions(c_, seed_, rep))
                            : MakePurchase100Surrogate(SurrogateFor(c_, seed_, rep));
  if (!d.ok()) return d.status();
  auto p = std::make_shared<const Dataset>(std::move(d).value());
  cache_[rep] = p;
  return p;
}

Result<DataChoice> ResolveData(const Config& c, uint64_t seed, DataCache* real_cache) {
  DataChoice choice;
  if (c.data == "surrogate") {
    choice.resolution = "--data=surrogate: purchase100-surrogate";
    return choice;
  }
  if (c.data == "auto" && !Purchase100Present(RealOptions(c, seed, 0))) {
    choice.resolution =
        "--data=auto: no real Purchase-100 file found (data_scripts/download_purchase100.py "
        "fetches it); using purchase100-surrogate";
    return choice;
  }
  Result<Dataset> d = LoadPurchase100(RealOptions(c, seed, 0));
  if (d.ok()) {
    choice.real = true;
    choice.resolution = "--data=" + c.data + ": real Purchase-100 loaded (" + d->provenance + ")";
    real_cache->Put(0, std::move(d).value());
    return choice;
  }
  return Error("--data=" + c.data +
               ": the real Purchase-100 is present but did not load: " + d.message());
}

}  // namespace region_of_privacy
}  // namespace privbench
