#include "experiments/lib/epsilon_star_sim/replicates.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <numeric>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xview.hpp>

#include "core/format.h"
#include "core/progress.h"
#include "core/seeding.h"
#include "core/validate.h"
#include "estimators/loss_samples/empirical.h"
#include "estimators/loss_samples/loss_sample_registry.h"
#include "experiments/lib/framework/study.h"

namespace privbench {

Result<SortedSamples> SortedSamples::Create(std::vector<double> train,
                                            std::vector<double> population) {
  PB_RETURN_IF_ERROR(CheckFiniteSamples("train_losses", train));
  PB_RETURN_IF_ERROR(CheckFiniteSamples("population_losses", population));
  std::sort(train.begin(), train.end());
  std::sort(population.begin(), population.end());
  return SortedSamples(std::move(train), std::move(population));
}

Result<double> SortedSamples::Parametric(const EpsilonStarOptions& options) {
  const int key = static_cast<int>(options.transform);
  auto it = fits_.find(key);
  if (it == fits_.end()) {
    PB_ASSIGN_OR_RETURN(ParametricFits fits,
                        FitParametricEpsilonStar(train_, population_, options.transform));
    it = fits_.emplace(key, fits).first;
  }
  const ParametricFits& f = it->second;
  // The same checks and messages as the registered estimator.
  if (!(f.train.sd > 0.0)) {
    return Error(
        "train_losses: the parametric variant needs transformed losses that are "
        "not all equal (fitted sd is 0)");
  }
  if (!(f.population.sd > 0.0)) {
    return Error(
        "population_losses: the parametric variant needs transformed losses that "
        "are not all equal (fitted sd is 0)");
  }
  return EpsilonStarOfNormals(f.train, f.population, options);
}

Result<double> SortedSamples::Estimate(const std::string& name, const EpsilonStarOptions& options) {
  PB_RETURN_IF_ERROR(ValidateEpsilonStarOptions(options));
  Result<double> r = Error("");
  try {
    if (name == "empirical") {
      r = EmpiricalEpsilonStarSorted(train_, population_, options);
    } else if (name == "parametric") {
      r = Parametric(options);
    } else {
      PB_ASSIGN_OR_RETURN(auto est, MakeLossSampleEstimator(name));
      r = est->Estimate(train_, population_, options);
    }
  } catch (const std::exception& e) {
    return Error(name + " failed (" + EpsilonStarOptionsText(options) + "): " + e.what());
  }
  PB_ASSIGN_OR_RETURN(double eps, std::move(r));
  if (!std::isfinite(eps) || eps < 0.0) {
    return Error("internal error in " + name + " (" + EpsilonStarOptionsText(options) +
                 "): Epsilon* = " + FormatDouble(eps));
  }
  return eps;
}

namespace {
double SecondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

Result<std::vector<std::vector<double>>> EvaluateUnit(const SimSetting& setting, uint64_t seed,
                                                      const std::vector<std::string>& estimators,
                                                      const std::vector<SimAnalysis>& analyses,
                                                      UnitTiming* timing) {
  PB_RETURN_IF_ERROR(CheckGammaLoss("train", setting.train));
  PB_RETURN_IF_ERROR(CheckGammaLoss("population", setting.population));
  if (setting.n < 1) return Error("n must be >= 1, got " + std::to_string(setting.n));
  auto t0 = std::chrono::steady_clock::now();
  Rng rng(seed);
  std::vector<double> train = DrawGammaLosses(setting.train, setting.n, rng);
  std::vector<double> population = DrawGammaLosses(setting.population, setting.n, rng);
  if (timing != nullptr) timing->sampling = SecondsSince(t0);
  t0 = std::chrono::steady_clock::now();
  PB_ASSIGN_OR_RETURN(SortedSamples samples,
                      SortedSamples::Create(std::move(train), std::move(population)));
  if (timing != nullptr) timing->sorting = SecondsSince(t0);
  t0 = std::chrono::steady_clock::now();
  std::vector<std::vector<double>> values(analyses.size(),
                                          std::vector<double>(estimators.size(), 0.0));
  for (size_t a = 0; a < analyses.size(); ++a) {
    for (size_t e = 0; e < estimators.size(); ++e) {
      PB_ASSIGN_OR_RETURN(values[a][e], samples.Estimate(estimators[e], analyses[a].options));
    }
  }
  if (timing != nullptr) timing->estimating = SecondsSince(t0);
  return values;
}

Result<ReplicateValues> RunReplicates(const std::vector<SimSetting>& settings, int64_t repetitions,
                                      uint64_t base_seed,
                                      const std::vector<std::string>& estimators,
                                      const std::vector<SimAnalysis>& analyses, int threads,
                                      bool quiet, const std::string& progress_label) {
  if (repetitions < 1) {
    return Error("repetitions must be >= 1, got " + std::to_string(repetitions));
  }
  const int64_t S = static_cast<int64_t>(settings.size());
  ReplicateValues out = xt::zeros<double>(
      {settings.size(), analyses.size(), estimators.size(), static_cast<size_t>(repetitions)});
  // Units ordered largest n first, so that no thread is left with a big
  // unit at the end; results go to their (setting, repetition) slot.
  std::vector<int64_t> order(static_cast<size_t>(S * repetitions));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return settings[static_cast<size_t>(a / repetitions)].n >
           settings[static_cast<size_t>(b / repetitions)].n;
  });
  ProgressReporter progress(progress_label, S * repetitions, quiet);
  PB_RETURN_IF_ERROR(
      ParallelFor(static_cast<int64_t>(order.size()), threads, [&](int64_t i) -> Status {
        const int64_t unit = order[static_cast<size_t>(i)];
        const int64_t s = unit / repetitions, r = unit % repetitions;
        const uint64_t seed =
            DeriveSeed(base_seed, {static_cast<uint64_t>(s), static_cast<uint64_t>(r)});
        PB_ASSIGN_OR_RETURN(auto values, EvaluateUnit(settings[static_cast<size_t>(s)], seed,
                                                      estimators, analyses));
        for (size_t a = 0; a < analyses.size(); ++a) {
          for (size_t e = 0; e < estimators.size(); ++e) {
            out(static_cast<size_t>(s), a, e, static_cast<size_t>(r)) = values[a][e];
          }
        }
        progress.Advance();
        return Status::Ok();
      }));
  progress.Finish();
  return out;
}

xt::xtensor<double, 1> Repetitions(const ReplicateValues& v, size_t s, size_t a, size_t e) {
  return xt::view(v, s, a, e, xt::all());
}

xt::xtensor<double, 2> ValuesOf(const ReplicateValues& v, size_t a, size_t e) {
  return xt::view(v, xt::all(), a, e, xt::all());
}

// xtensor's sum reducer adds along the axis in index order from 0, as
// core/stats.h's loops do, so the bytes are those of Mean and SampleSd.
ReplicateMoments Moments(const ReplicateValues& v) {
  ReplicateMoments m;
  const double r = static_cast<double>(v.shape()[3]);
  m.mean = xt::sum(v, {3}) / r;
  const auto deviation = v - xt::view(m.mean, xt::all(), xt::all(), xt::all(), xt::newaxis());
  m.sd = xt::sqrt(xt::sum(deviation * deviation, {3}) / (r - 1.0));
  if (v.shape()[3] < 2) m.sd.fill(std::numeric_limits<double>::quiet_NaN());
  return m;
}

PairedDifference Paired(const xt::xtensor<double, 1>& a, const xt::xtensor<double, 1>& b) {
  const xt::xtensor<double, 1> d = a - b;
  const double n = static_cast<double>(d.size());
  PairedDifference p;
  p.mean = xt::sum(d)() / n;
  const xt::xtensor<double, 1> deviation = d - p.mean;
  const double se = std::sqrt(xt::sum(deviation * deviation)() / (n - 1.0)) / std::sqrt(n);
  p.t = se > 0.0 ? p.mean / se : 0.0;
  return p;
}

Result<ClaimEstimators> FindClaimEstimators(const std::vector<std::string>& names) {
  auto emp = std::find(names.begin(), names.end(), "empirical");
  auto par = std::find(names.begin(), names.end(), "parametric");
  if (emp == names.end() || par == names.end()) {
    return Error("the claims compare the registered estimators 'empirical' and 'parametric'");
  }
  ClaimEstimators c;
  c.empirical = static_cast<size_t>(emp - names.begin());
  c.parametric = static_cast<size_t>(par - names.begin());
  return c;
}

}  // namespace privbench
