// The repeated-estimation driver of the Epsilon* simulation studies B2
// `epsilon_star_identical` and B3 `epsilon_star_distance` (Negoescu et al.,
// "Epsilon*: Privacy Metric for Machine Learning Models", PPAI-24, App. B.1,
// Figs. 4-5; experiments/epsilon_star_{identical,distance}/README.md) and of the benchmark
// //experiments/lib/epsilon_star_sim:epsilon_star_sim_benchmark.
//
// What is simulated: train losses ~ Gamma(k_t, theta_t) (+ offset_t) and
// population (non-training) losses ~ Gamma(k_p, theta_p) (+ offset_p), n of
// each, drawn with Boost.Random from per-unit seeds (simulations/
// loss_models.h); on every pair of samples every registered loss-sample
// estimator (loss_sample_registry.h) is evaluated under one or more option
// sets ("analyses"); the exact Epsilon* of the two known distributions is
// the reference (windows.h).
//
// Speed (the paper-scale targets): each pair of samples is sorted once and
// the parametric fit is computed once per transform; every (estimator,
// options) value is then one O(n + m) sweep (SortedSamples). The fast paths
// give exactly the values of LossSampleEstimator::Estimate on the sorted
// samples (replicates_test.cc checks this).
#ifndef PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SIM_REPLICATES_H_
#define PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SIM_REPLICATES_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>
#include <xtensor/xtensor.hpp>

#include "core/result.h"
#include "estimators/loss_samples/epsilon_star_options.h"
#include "estimators/loss_samples/parametric.h"
#include "simulations/loss_models.h"

namespace privbench {

// One pair of loss samples, sorted once; evaluates any registered
// estimator under any options, reusing the sort and the parametric fit.
class SortedSamples {
 public:
  // Validates both samples (non-empty, finite: messages name
  // "train_losses" / "population_losses") and sorts them.
  static Result<SortedSamples> Create(std::vector<double> train, std::vector<double> population);

  // Epsilon* of the named registered estimator (>= 0, finite). Options are
  // validated. Equal to MakeLossSampleEstimator(name)->Estimate(train(),
  // population(), options).
  Result<double> Estimate(const std::string& name, const EpsilonStarOptions& options);

  const std::vector<double>& train() const { return train_; }
  const std::vector<double>& population() const { return population_; }

 private:
  SortedSamples(std::vector<double> t, std::vector<double> p)
      : train_(std::move(t)), population_(std::move(p)) {}
  Result<double> Parametric(const EpsilonStarOptions& options);
  std::vector<double> train_, population_;
  std::map<int, ParametricFits> fits_;  // by LossTransform
};

// A grid of simulation settings evaluated `repetitions` times each.
struct SimSetting {
  GammaLoss train;
  GammaLoss population;
  int64_t n = 0;  // losses per sample (train and population each)
};
struct SimAnalysis {
  std::string name;  // e.g. "primary", "common_window"
  EpsilonStarOptions options;
};

// Time spent in one unit (seconds of wall time on the calling thread).
struct UnitTiming {
  double sampling = 0.0;    // drawing both samples
  double sorting = 0.0;     // validation and sorting
  double estimating = 0.0;  // every (analysis, estimator) value
};

// values[analysis][estimator] for one pair of samples drawn with
// MakeRng(seed) (train first, then population).
Result<std::vector<std::vector<double>>> EvaluateUnit(const SimSetting& setting, uint64_t seed,
                                                      const std::vector<std::string>& estimators,
                                                      const std::vector<SimAnalysis>& analyses,
                                                      UnitTiming* timing = nullptr);

// values(setting, analysis, estimator, repetition), an xtensor array. Unit
// (s, r) uses the seed DeriveSeed(base_seed, {s, r}); units run on
// `threads` threads, largest n first, results stored by index
// (thread-independent bytes).
using ReplicateValues = xt::xtensor<double, 4>;
Result<ReplicateValues> RunReplicates(const std::vector<SimSetting>& settings, int64_t repetitions,
                                      uint64_t base_seed,
                                      const std::vector<std::string>& estimators,
                                      const std::vector<SimAnalysis>& analyses, int threads,
                                      bool quiet, const std::string& progress_label);

// The repetitions of (setting s, analysis a, estimator e).
xt::xtensor<double, 1> Repetitions(const ReplicateValues& v, size_t s, size_t a, size_t e);

// The (settings x repetitions) values of (analysis a, estimator e).
xt::xtensor<double, 2> ValuesOf(const ReplicateValues& v, size_t a, size_t e);

// Mean and sample sd over the repetitions (axis 3), (setting, analysis,
// estimator); the same numbers as core/stats.h's Mean and SampleSd of each
// repetition vector (NaN sd for one repetition).
struct ReplicateMoments {
  xt::xtensor<double, 3> mean, sd;
};
ReplicateMoments Moments(const ReplicateValues& v);

// Paired difference a - b over the same repetitions: mean and
// t = mean / (sd / sqrt(size)) (0 when all differences are equal).
struct PairedDifference {
  double mean = 0.0;
  double t = 0.0;
};
PairedDifference Paired(const xt::xtensor<double, 1>& a, const xt::xtensor<double, 1>& b);

// Indices of the registered estimators "empirical" and "parametric" in
// `names`, which the claims of B2 and B3 compare; an error if either is
// missing.
struct ClaimEstimators {
  size_t empirical = 0, parametric = 0;
};
Result<ClaimEstimators> FindClaimEstimators(const std::vector<std::string>& names);

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SIM_REPLICATES_H_
