#include "experiments/epsilon_star_sim.h"

#include <algorithm>
#include <boost/random/gamma_distribution.hpp>
#include <chrono>
#include <cmath>
#include <exception>
#include <numeric>
#include <sstream>
#include <utility>

#include "core/progress.h"
#include "core/validate.h"
#include "estimators/loss_samples/empirical.h"
#include "estimators/loss_samples/loss_sample_registry.h"
#include "estimators/loss_samples/loss_transform.h"
#include "experiments/framework/study.h"

namespace privbench {

std::string GammaLossText(const GammaLoss& g) {
  std::string s = "Gamma(shape " + FormatDouble(g.shape) + ", scale " + FormatDouble(g.scale) + ")";
  if (g.offset != 0.0) s += " + " + FormatDouble(g.offset);
  return s;
}

Status CheckGammaLoss(const std::string& name, const GammaLoss& g) {
  PB_RETURN_IF_ERROR(CheckPositive(name + "_shape", g.shape));
  PB_RETURN_IF_ERROR(CheckPositive(name + "_scale", g.scale));
  return CheckFinite(name + "_offset", g.offset);
}

Result<KnownLossDistribution> KnownGammaLoss(const GammaLoss& g) {
  PB_ASSIGN_OR_RETURN(KnownLossDistribution base, GammaLossDistribution(g.shape, g.scale));
  if (g.offset == 0.0) return base;
  const double off = g.offset;
  KnownLossDistribution d;
  d.cdf = [base, off](double x) { return base.cdf(x - off); };
  d.survival = [base, off](double x) { return base.survival(x - off); };
  d.quantile = [base, off](double p) { return base.quantile(p) + off; };
  return d;
}

std::vector<double> DrawGammaLosses(const GammaLoss& g, int64_t n, Rng& rng) {
  boost::random::gamma_distribution<double> dist(g.shape, g.scale);
  std::vector<double> x(static_cast<size_t>(n));
  for (double& v : x) v = dist(rng) + g.offset;
  return x;
}

EpsilonStarWindow WindowOfEstimator(std::string_view name) {
  return name == "parametric" ? EpsilonStarWindow::kClip : EpsilonStarWindow::kRate;
}

std::string_view WindowName(EpsilonStarWindow w) {
  return w == EpsilonStarWindow::kClip ? "clip_window" : "rate_window";
}

std::string WindowText(const EpsilonStarOptions& o, EpsilonStarWindow w) {
  if (w == EpsilonStarWindow::kClip) {
    return "[" + FormatDouble(o.clip_lo) + ", " + FormatDouble(o.clip_hi) + "]";
  }
  return "(" + FormatDouble(o.rate_floor) + ", " + FormatDouble(o.rate_ceiling) + ")";
}

EpsilonStarOptions ExactOptionsForWindow(const EpsilonStarOptions& options, EpsilonStarWindow w) {
  EpsilonStarOptions o = options;
  if (w == EpsilonStarWindow::kClip) {
    o.rate_floor = options.clip_lo;
    o.rate_ceiling = options.clip_hi;
  }
  return o;
}

Result<double> ExactGammaEpsilonStar(const GammaLoss& train, const GammaLoss& population,
                                     const EpsilonStarOptions& options) {
  PB_RETURN_IF_ERROR(CheckGammaLoss("train", train));
  PB_RETURN_IF_ERROR(CheckGammaLoss("population", population));
  PB_ASSIGN_OR_RETURN(KnownLossDistribution t, KnownGammaLoss(train));
  PB_ASSIGN_OR_RETURN(KnownLossDistribution p, KnownGammaLoss(population));
  return ExactEpsilonStar(t, p, options);
}

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
  ReplicateValues out(
      settings.size(),
      std::vector<std::vector<std::vector<double>>>(
          analyses.size(),
          std::vector<std::vector<double>>(
              estimators.size(), std::vector<double>(static_cast<size_t>(repetitions), 0.0))));
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
            out[static_cast<size_t>(s)][a][e][static_cast<size_t>(r)] = values[a][e];
          }
        }
        progress.Advance();
        return Status::Ok();
      }));
  progress.Finish();
  return out;
}

EstimationConfig DefaultEstimationConfig(Scale scale) {
  EstimationConfig c;
  c.repetitions = 10;
  switch (scale) {
    case Scale::kQuick:
      c.n = {1000, 10000};
      c.quantiles_per_distribution = 100000;
      break;
    case Scale::kPaper:
      c.n = {1000, 10000, 100000, 1000000};
      c.quantiles_per_distribution = 1000000;
      break;
    case Scale::kTest:
      c.n = {200, 3000};
      c.repetitions = 3;
      c.quantiles_per_distribution = 2000;
      break;
  }
  return c;
}

std::vector<double> DefaultDistances(Scale scale) {
  if (scale == Scale::kTest) return {0, 1, 5};
  return {0, 1, 2, 3, 4, 5};
}

void RegisterEstimationFlags(FlagSet& flags, EstimationConfig& c) {
  flags.AddIntList("n", &c.n, "losses per sample (train and population each), increasing");
  flags.AddInt("repetitions", &c.repetitions, "independent samples per setting (paper: 10)");
  flags.AddDouble("delta", &c.delta, "delta of Epsilon* (paper's simulations: not stated)");
  flags.AddInt("quantiles_per_distribution", &c.quantiles_per_distribution,
               "m equally spaced quantile levels per distribution, 2m thresholds (paper: 1e6)");
  flags.AddDouble("rate_floor", &c.rate_floor,
                  "empirical and exact variants keep rates in (rate_floor, rate_ceiling) "
                  "(paper: 0.001)");
  flags.AddDouble("rate_ceiling", &c.rate_ceiling, "see rate_floor (paper: 0.999)");
  flags.AddDouble("clip_lo", &c.clip_lo,
                  "parametric variant keeps rates in [clip_lo, clip_hi] (paper: lost)");
  flags.AddDouble("clip_hi", &c.clip_hi, "see clip_lo");
  flags.AddString("transform", &c.transform,
                  "parametric loss transform: epsilon_star_logit (App. B), carlini_logit or "
                  "identity");
  flags.AddDouble("common_lo", &c.common_lo,
                  "secondary analysis: every estimator on the window [common_lo, common_hi]");
  flags.AddDouble("common_hi", &c.common_hi, "see common_lo");
}

Status ValidateEstimationConfig(const EstimationConfig& c) {
  if (c.n.empty()) return Error("n must list at least one sample size");
  for (size_t i = 0; i < c.n.size(); ++i) {
    if (c.n[i] < 2 || c.n[i] > 1000000000) {
      return Error("n must be in [2, 1e9] (the parametric fit needs two losses), got " +
                   std::to_string(c.n[i]));
    }
    if (i > 0 && c.n[i] <= c.n[i - 1]) {
      return Error("n must be strictly increasing, got " + std::to_string(c.n[i - 1]) + " before " +
                   std::to_string(c.n[i]));
    }
  }
  if (c.repetitions < 2 || c.repetitions > 1000000) {
    return Error("repetitions must be in [2, 1e6] (a standard deviation needs two), got " +
                 std::to_string(c.repetitions));
  }
  PB_RETURN_IF_ERROR(ParseLossTransform(c.transform).status());
  PB_RETURN_IF_ERROR(ValidateEpsilonStarOptions(PrimaryOptions(c)));
  if (!(c.common_lo > 0.0 && c.common_lo < 0.5)) {
    return Error("common_lo must be in (0, 0.5), got " + FormatDouble(c.common_lo));
  }
  if (!(c.common_hi > 0.5 && c.common_hi < 1.0)) {
    return Error("common_hi must be in (0.5, 1), got " + FormatDouble(c.common_hi));
  }
  return Status::Ok();
}

std::string EstimationSizesText(const EstimationConfig& c, Scale scale) {
  std::string ns;
  for (size_t i = 0; i < c.n.size(); ++i) ns += (i ? "," : "") + std::to_string(c.n[i]);
  return "delta of the simulations (not stated): " + FormatDouble(c.delta) + "; n = {" + ns +
         "} at scale " + ScaleName(scale) + " (paper: 1e3..1e6), " + std::to_string(c.repetitions) +
         " repetitions; quantiles_per_distribution m = " +
         std::to_string(c.quantiles_per_distribution) +
         " (paper: 1e6; at n <= m the empirical value does not depend on m, and the "
         "exact and parametric variants evaluate the window ends, so m = 1e5 and 1e6 gave "
         "equal values at quick scale)";
}

EpsilonStarOptions PrimaryOptions(const EstimationConfig& c) {
  EpsilonStarOptions o;
  o.delta = c.delta;
  o.quantiles_per_distribution = c.quantiles_per_distribution;
  o.rate_floor = c.rate_floor;
  o.rate_ceiling = c.rate_ceiling;
  o.clip_lo = c.clip_lo;
  o.clip_hi = c.clip_hi;
  o.transform = ParseLossTransform(c.transform).value_or(LossTransform::kEpsilonStarLogit);
  return o;
}

EpsilonStarOptions CommonWindowOptions(const EstimationConfig& c) {
  EpsilonStarOptions o = PrimaryOptions(c);
  o.rate_floor = o.clip_lo = c.common_lo;
  o.rate_ceiling = o.clip_hi = c.common_hi;
  return o;
}

double Mean(const std::vector<double>& x) {
  double s = 0.0;
  for (double v : x) s += v;
  return s / static_cast<double>(x.size());
}

double SampleSd(const std::vector<double>& x) {
  const double m = Mean(x);
  double ss = 0.0;
  for (double v : x) ss += (v - m) * (v - m);
  return std::sqrt(ss / static_cast<double>(x.size() - 1));
}

PairedDifference Paired(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> d(a.size());
  for (size_t i = 0; i < a.size(); ++i) d[i] = a[i] - b[i];
  PairedDifference p;
  p.mean = Mean(d);
  const double se = SampleSd(d) / std::sqrt(static_cast<double>(d.size()));
  p.t = se > 0.0 ? p.mean / se : 0.0;
  return p;
}

std::string Fmt(double x, int digits) {
  std::ostringstream s;
  s.precision(digits);
  s << x;
  return s.str();
}

}  // namespace privbench
