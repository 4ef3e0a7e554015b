#include "estimators/loss_samples/empirical.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "estimators/loss_samples/ecdf_sweep.h"
#include "estimators/loss_samples/factories.h"
#include "estimators/loss_samples/loss_sample_estimator.h"

namespace privbench {

double EmpiricalEpsilonStarSorted(const std::vector<double>& sorted_train,
                                  const std::vector<double>& sorted_population,
                                  const EpsilonStarOptions& options) {
  const int64_t nt = static_cast<int64_t>(sorted_train.size());
  const int64_t np = static_cast<int64_t>(sorted_population.size());
  const double inv_nt = 1.0 / static_cast<double>(nt);
  const double inv_np = 1.0 / static_cast<double>(np);
  const double lo = options.rate_floor, hi = options.rate_ceiling;
  EpsilonStarMax best(options.delta);
  SweepEcdfGrid(sorted_train, sorted_population, options.quantiles_per_distribution,
                [&](double /*tau*/, int64_t pop_le, int64_t train_le) {
                  const double fpr = static_cast<double>(pop_le) * inv_np;
                  const double fnr = static_cast<double>(nt - train_le) * inv_nt;
                  if (!(fpr > lo && fpr < hi && fnr > lo && fnr < hi)) return;
                  best.Add(fpr, static_cast<double>(np - pop_le) * inv_np, fnr,
                           static_cast<double>(train_le) * inv_nt);
                });
  return best.Value();
}

namespace {

class EmpiricalEpsilonStar final : public LossSampleEstimator {
 public:
  std::string_view name() const override { return "empirical"; }
  std::string_view description() const override {
    return "Epsilon* from the eCDFs of the train and population losses at 2m quantile "
           "thresholds, rates kept in (rate_floor, rate_ceiling) (Epsilon* Def. 2, App. B.1)";
  }

 protected:
  Result<double> EstimateImpl(const std::vector<double>& train_losses,
                              const std::vector<double>& population_losses,
                              const EpsilonStarOptions& options) const override {
    std::vector<double> train = train_losses, population = population_losses;
    return EstimateOwnedImpl(train, population, options);
  }
  // Sorts the handed-over samples in place: no copy of its own.
  Result<double> EstimateOwnedImpl(std::vector<double>& train_losses,
                                   std::vector<double>& population_losses,
                                   const EpsilonStarOptions& options) const override {
    std::sort(train_losses.begin(), train_losses.end());
    std::sort(population_losses.begin(), population_losses.end());
    return EmpiricalEpsilonStarSorted(train_losses, population_losses, options);
  }
};

}  // namespace

std::unique_ptr<LossSampleEstimator> MakeEmpiricalEpsilonStar() {
  return std::make_unique<EmpiricalEpsilonStar>();
}

}  // namespace privbench
