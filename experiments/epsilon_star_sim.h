// Shared code of the Epsilon* simulation studies B2 `epsilon_star_identical`
// and B3 `epsilon_star_distance` (Negoescu et al., "Epsilon*: Privacy Metric
// for Machine Learning Models", PPAI-24, App. B.1, Figs. 4-5; STUDIES.md
// A6, B2, B3) and of //experiments:epsilon_star_sim_benchmark.
//
// What is simulated: train losses ~ Gamma(k_t, theta_t) (+ offset_t) and
// population (non-training) losses ~ Gamma(k_p, theta_p) (+ offset_p), n of
// each, drawn with Boost.Random from per-unit seeds; on every pair of
// samples every registered loss-sample estimator (loss_sample_registry.h)
// is evaluated under one or more option sets ("analyses"); the exact
// Epsilon* of the two known distributions (exact.h) is the reference.
//
// Windows. Each estimator reads ONE rate window from EpsilonStarOptions:
// the empirical variant (and any variant not listed in WindowOfEstimator)
// the open window (rate_floor, rate_ceiling), the parametric variant the
// closed window [clip_lo, clip_hi]. The exact value depends on the window
// (for separated distributions the supremum sits on the window boundary),
// so an estimator's bias is measured against the exact value on ITS window:
// ExactOptionsForWindow() gives the exact variant's options for either.
//
// Speed (the paper-scale targets): each pair of samples is sorted
// once and the parametric fit is computed once per transform; every
// (estimator, options) value is then one O(n + m) sweep (SortedSamples).
// The fast paths give exactly the values of LossSampleEstimator::Estimate
// on the sorted samples (epsilon_star_sim_test.cc checks this).
#ifndef PRIVBENCH_EXPERIMENTS_EPSILON_STAR_SIM_H_
#define PRIVBENCH_EXPERIMENTS_EPSILON_STAR_SIM_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/flags.h"
#include "core/result.h"
#include "core/seeding.h"
#include "estimators/loss_samples/epsilon_star_options.h"
#include "estimators/loss_samples/exact.h"
#include "estimators/loss_samples/parametric.h"
#include "experiments/framework/study.h"

namespace privbench {

// Gamma(shape, scale) shifted by `offset` (support [offset, inf)).
struct GammaLoss {
  double shape = 1.0;
  double scale = 1.0;
  double offset = 0.0;
};
// "Gamma(shape 1, scale 1)" or "Gamma(shape 1, scale 1) + 2".
std::string GammaLossText(const GammaLoss& g);
// Validates shape > 0, scale > 0, offset finite; messages start with `name`
// (e.g. "train_shape must be > 0 ..." for name "train").
Status CheckGammaLoss(const std::string& name, const GammaLoss& g);
// The known distribution (Boost.Math CDF, survival, quantile; shifted).
Result<KnownLossDistribution> KnownGammaLoss(const GammaLoss& g);
// n draws (Boost.Random gamma_distribution; bytes fixed by Boost, not by
// the standard library). Precondition: g validated, n >= 0.
std::vector<double> DrawGammaLosses(const GammaLoss& g, int64_t n, Rng& rng);

// Which window of EpsilonStarOptions an estimator uses: kClip for
// "parametric", kRate for every other name (the empirical variant and, by
// default, any newly registered one).
enum class EpsilonStarWindow { kRate, kClip };
EpsilonStarWindow WindowOfEstimator(std::string_view name);
std::string_view WindowName(EpsilonStarWindow w);  // "rate_window" / "clip_window"
// "(0.001, 0.999)" for kRate, "[1e-06, 0.999999]" for kClip.
std::string WindowText(const EpsilonStarOptions& options, EpsilonStarWindow w);
// Options of the exact variant on the given window of `options` (the exact
// variant reads (rate_floor, rate_ceiling) and evaluates the window's end
// thresholds, so its open-window value equals the closed-window supremum).
EpsilonStarOptions ExactOptionsForWindow(const EpsilonStarOptions& options, EpsilonStarWindow w);

// Exact Epsilon* of two known Gamma loss distributions.
Result<double> ExactGammaEpsilonStar(const GammaLoss& train, const GammaLoss& population,
                                     const EpsilonStarOptions& options);

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

// values[setting][analysis][estimator][repetition]. Unit (s, r) uses the
// seed DeriveSeed(base_seed, {s, r}); units run on `threads` threads,
// largest n first, results stored by index (thread-independent bytes).
using ReplicateValues = std::vector<std::vector<std::vector<std::vector<double>>>>;
Result<ReplicateValues> RunReplicates(const std::vector<SimSetting>& settings, int64_t repetitions,
                                      uint64_t base_seed,
                                      const std::vector<std::string>& estimators,
                                      const std::vector<SimAnalysis>& analyses, int threads,
                                      bool quiet, const std::string& progress_label);

// The estimation parameters B2 and B3 share, each a command-line parameter
// of the same name (RegisterEstimationFlags).
struct EstimationConfig {
  std::vector<int64_t> n;    // sample sizes, strictly increasing, each in [2, 1e9]
  int64_t repetitions = 10;  // >= 2 (a standard deviation needs two)
  double delta = 0.0;        // [0, 1)
  int64_t quantiles_per_distribution = 1000000;  // m (paper: 10^6)
  double rate_floor = 0.001;                     // empirical/exact window (paper: (0.001, 0.999))
  double rate_ceiling = 0.999;
  double clip_lo = 1e-6;  // parametric window (lost; library default)
  double clip_hi = 1.0 - 1e-6;
  std::string transform = "epsilon_star_logit";  // parametric transform
  // Secondary analysis: every estimator on one common window
  // [common_lo, common_hi] (both the rate and the clip window set to it).
  double common_lo = 0.001;
  double common_hi = 0.999;
};
// The defaults of B2 and B3 at each scale (one place, also used by the
// benchmark's paper-scale projection):
//   quick: n = {1e3, 1e4}, 10 repetitions, m = 1e5 (see below);
//   paper: n = {1e3, 1e4, 1e5, 1e6}, 10 repetitions, m = 1e6 (App. B.1);
//   test:  n = {200, 3000}, 3 repetitions, m = 2000.
// Quick uses m = 10^5 instead of the paper's 10^6: with n <= m every sample
// value is an empirical threshold, and the exact and parametric variants
// evaluate the window ends explicitly, so the values do not change
// (measured: bitwise-equal estimates for m = 10^5 and 10^6 at quick scale,
// exact values equal to 1e-14) at a tenth of the cost.
EstimationConfig DefaultEstimationConfig(Scale scale);
// The distances d of B3 (paper: 0, 1, ..., 5; test: 0, 1, 5).
std::vector<double> DefaultDistances(Scale scale);
void RegisterEstimationFlags(FlagSet& flags, EstimationConfig& c);
// Messages name the parameter ("n must be >= 2, got 0").
Status ValidateEstimationConfig(const EstimationConfig& c);
// The part of /meta lost_parameters that B2 and B3 share: delta, the
// sample sizes and repetitions at `scale` against the paper's, and m.
std::string EstimationSizesText(const EstimationConfig& c, Scale scale);
// Primary analysis: each estimator on its own window.
EpsilonStarOptions PrimaryOptions(const EstimationConfig& c);
// Secondary analysis: rate and clip windows both [common_lo, common_hi].
EpsilonStarOptions CommonWindowOptions(const EstimationConfig& c);

// Mean and sample standard deviation (divisor size - 1; requires size >= 2).
double Mean(const std::vector<double>& x);
double SampleSd(const std::vector<double>& x);

// Paired difference a - b over the same repetitions: mean and
// t = mean / (sd / sqrt(size)) (0 when all differences are equal).
struct PairedDifference {
  double mean = 0.0;
  double t = 0.0;
};
PairedDifference Paired(const std::vector<double>& a, const std::vector<double>& b);

// Shortest text of a double with at most `digits` significant digits.
std::string Fmt(double x, int digits = 3);

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_SIM_H_
