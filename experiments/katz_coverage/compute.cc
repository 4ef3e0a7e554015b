#include "experiments/katz_coverage/compute.h"

#include <algorithm>
#include <array>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <exception>
#include <limits>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xoperation.hpp>
#include <xtensor/xview.hpp>

#include "core/format.h"
#include "core/stats.h"
#include "core/validate.h"
#include "estimators/intervals/katz_log.h"
#include "estimators/rate_intervals.h"
#include "experiments/lib/coverage/trial_grid.h"
#include "simulations/ratio_draws.h"

namespace privbench::katz_coverage {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Upper p quantile of N(0, 1).
double ZUpper(double p) {
  return boost::math::quantile(boost::math::complement(boost::math::normal(), p));
}

// log(p1_lo / p0_hi) with each Clopper-Pearson limit one-sided at
// `one_sided` significance: ClopperPearsonRate(k, n, s) is two-sided at s,
// i.e. one-sided at s/2 per end.
double CpRatio(int64_t n1, int64_t n0, int64_t n, double one_sided) {
  const double p1_lo = ClopperPearsonRate(n1, n, 2.0 * one_sided).lo;
  const double p0_hi = ClopperPearsonRate(n0, n, 2.0 * one_sided).hi;
  if (p1_lo <= 0.0) return -kInf;
  return std::log(p1_lo) - std::log(p0_hi);
}

std::string BoundsFailure(int64_t n1, int64_t n0, int64_t n, const std::exception& e) {
  return "ratio bounds failed at n1=" + std::to_string(n1) + " n0=" + std::to_string(n0) +
         " n=" + std::to_string(n) + ": " + e.what();
}

// A run of `methods` methods with every count and bound (setting, trial)
// zero.
RatioRun ZeroRatioRun(int64_t settings, int64_t trials, size_t methods) {
  const std::array<size_t, 2> shape = {static_cast<size_t>(settings), static_cast<size_t>(trials)};
  RatioRun run;
  run.data.resize(methods);
  for (auto& d : run.data) d.bounds = xt::zeros<double>(shape);
  run.n1 = xt::zeros<int64_t>(shape);
  run.n0 = xt::zeros<int64_t>(shape);
  return run;
}

// The four bounds of one trial: through the validated RatioLowerBounds when
// `validate` (the first trial of each setting), else the unchecked path.
Result<std::vector<double>> TrialBounds(const RatioCounts& counts, int64_t n, bool validate,
                                        double alpha, const RatioBoundConstants& k) {
  if (validate) return RatioLowerBounds(counts.n1, counts.n0, n, alpha);
  try {
    return RatioLowerBoundsUnchecked(counts.n1, counts.n0, n, k);
  } catch (const std::exception& e) {  // Boost.Math evaluation errors
    return Error(BoundsFailure(counts.n1, counts.n0, n, e));
  }
}
}  // namespace

std::vector<RatioPair> DefaultRatioPairs() {
  return {{0.5, 0.05}, {0.9, 0.1}, {0.05, 0.005}, {0.99, 0.01}, {0.2, 0.2}};
}

std::vector<int64_t> DefaultSamplesPerSide() { return {100, 1000, 10000}; }

double RatioSetting::target() const { return std::log(p1) - std::log(p0); }

std::string RatioSetting::Label() const {
  return "(p1 " + FormatDouble(p1) + ", p0 " + FormatDouble(p0) + ", N " + std::to_string(n) + ")";
}

std::vector<RatioSetting> MakeRatioSettings(const Config& c) {
  std::vector<RatioSetting> settings;
  for (const GridPoint& g : PairMajorGrid(c.p1.size(), c.n)) {
    settings.push_back({g.pair, c.p1[g.pair], c.p0[g.pair], g.n});
  }
  return settings;
}

Result<std::vector<RatioMethod>> MakeRatioMethods(double alpha) {
  PB_RETURN_IF_ERROR(CheckAlpha(alpha));
  return std::vector<RatioMethod>{
      {"katz_log", "Katz-log two-sided interval at significance alpha, lower end (ML-Audit Eps_LB)",
       1.0 - alpha / 2, false},
      {"katz_log_one_sided", "Katz-log lower bound with z_alpha (one-sided level 1 - alpha)",
       1.0 - alpha, false},
      {"clopper_pearson_ratio",
       "log(p1_lo / p0_hi), each Clopper-Pearson limit one-sided at alpha/2 (union bound)",
       1.0 - alpha, true},
      {"clopper_pearson_ratio_strict",
       "log(p1_lo / p0_hi), each Clopper-Pearson limit one-sided at alpha/4 (union bound)",
       1.0 - alpha / 2, true},
  };
}

Result<RatioBoundConstants> MakeRatioBoundConstants(double alpha) {
  PB_RETURN_IF_ERROR(CheckAlpha(alpha));
  return RatioBoundConstants{alpha, ZUpper(alpha / 2), ZUpper(alpha)};
}

std::vector<double> RatioLowerBoundsUnchecked(int64_t n1, int64_t n0, int64_t n,
                                              const RatioBoundConstants& k) {
  return {KatzLogInterval(n1, n, n0, n, k.z_half_alpha).lo,
          KatzLogInterval(n1, n, n0, n, k.z_alpha).lo, CpRatio(n1, n0, n, k.alpha / 2),
          CpRatio(n1, n0, n, k.alpha / 4)};
}

Result<std::vector<double>> RatioLowerBounds(int64_t n1, int64_t n0, int64_t n, double alpha) {
  PB_ASSIGN_OR_RETURN(RatioBoundConstants k, MakeRatioBoundConstants(alpha));
  // KatzLogEpsLowerBound validates the counts.
  PB_ASSIGN_OR_RETURN(double eps_lb, KatzLogEpsLowerBound(n1, n0, n, alpha));
  std::vector<double> b;
  try {
    b = RatioLowerBoundsUnchecked(n1, n0, n, k);
  } catch (const std::exception& e) {  // Boost.Math evaluation errors
    return Error(BoundsFailure(n1, n0, n, e));
  }
  const double clipped = std::max(0.0, b[0]);
  if (!(std::abs(clipped - eps_lb) <= 1e-12 * std::max(1.0, eps_lb))) {
    return Error("internal error: katz_log bound " + FormatDouble(clipped) +
                 " disagrees with KatzLogEpsLowerBound " + FormatDouble(eps_lb));
  }
  for (double x : b) {
    if (std::isnan(x)) return Error("internal error: NaN ratio bound");
  }
  return b;
}

RatioCoverageStats SummarizeRatioBounds(const xt::xtensor<double, 1>& bounds, double target) {
  RatioCoverageStats s;
  s.trials = static_cast<int64_t>(bounds.size());
  const xt::xtensor<double, 1> eps = xt::maximum(0.0, bounds);  // the reported eps bound
  const xt::xtensor<bool, 1> covers = bounds <= target;
  const double covered = static_cast<double>(xt::count_nonzero(covers)());
  const double n = static_cast<double>(s.trials);
  s.coverage = covered / n;
  s.se = ObservedSe(s.coverage, s.trials);
  s.mean_eps_bound = xt::sum(eps)() / n;
  s.median_eps_bound = Median(std::vector<double>(eps.begin(), eps.end()));
  s.frac_vacuous = static_cast<double>(xt::count_nonzero(bounds <= 0.0)()) / n;
  s.mean_eps_bound_covering = covered > 0 ? xt::sum(xt::where(covers, eps, 0.0))() / covered : kNaN;
  return s;
}

Result<RatioRun> RunRatioTrials(const Config& c, const std::vector<RatioSetting>& settings,
                                const std::vector<RatioMethod>& methods, uint64_t seed, int threads,
                                bool quiet) {
  const int64_t S = static_cast<int64_t>(settings.size());
  const int64_t T = c.trials;
  PB_ASSIGN_OR_RETURN(RatioBoundConstants k, MakeRatioBoundConstants(c.alpha));
  RatioRun run = ZeroRatioRun(S, T, methods.size());
  PB_RETURN_IF_ERROR(ForEachTrial(
      "katz_coverage", S, T, seed, threads, quiet,
      [&](int64_t s, int64_t t, uint64_t trial_seed) -> Status {
        const RatioSetting& st = settings[s];
        const RatioCounts counts = DrawRatioCounts(st.p1, st.p0, st.n, trial_seed);
        run.n1(s, t) = counts.n1;
        run.n0(s, t) = counts.n0;
        PB_ASSIGN_OR_RETURN(const std::vector<double> b,
                            TrialBounds(counts, st.n, /*validate=*/t == 0, c.alpha, k));
        for (size_t m = 0; m < methods.size(); ++m) {
          if (std::isnan(b[m])) return Error("internal error: NaN bound from " + methods[m].name);
          run.data[m].bounds(s, t) = b[m];
        }
        return Status::Ok();
      }));
  return run;
}

void SummarizeRatioCoverage(const std::vector<RatioSetting>& settings,
                            const std::vector<RatioMethod>& methods, int64_t trials,
                            RatioRun* run) {
  const int64_t T = trials;
  for (size_t m = 0; m < methods.size(); ++m) {
    RatioMethodData& d = run->data[m];
    for (size_t s = 0; s < settings.size(); ++s) {
      d.stats.push_back(
          SummarizeRatioBounds(xt::view(d.bounds, s, xt::all()), settings[s].target()));
      d.classes.push_back(ClassifyCoverage(d.stats.back().coverage, methods[m].nominal, T));
    }
  }
}

Result<std::vector<CeilingRow>> DetectionCeiling(const Config& c) {
  std::vector<CeilingRow> rows;
  for (int64_t n : c.n) {
    for (int64_t n0 : {int64_t{1}, int64_t{0}}) {
      if (n0 > n) continue;
      CeilingRow row;
      row.n = n;
      row.n0 = n0;
      PB_ASSIGN_OR_RETURN(row.bounds, RatioLowerBounds(n, n0, n, c.alpha));
      PB_ASSIGN_OR_RETURN(row.corollary, KatzLogCeiling(n, c.alpha));
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

}  // namespace privbench::katz_coverage
