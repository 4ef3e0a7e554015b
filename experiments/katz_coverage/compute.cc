#include "experiments/katz_coverage/compute.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <exception>
#include <limits>
#include <string>
#include <utility>

#include "core/format.h"
#include "core/validate.h"
#include "estimators/intervals/katz_log.h"
#include "estimators/rate_intervals.h"
#include "simulations/ratio_draws.h"

namespace privbench::katz_coverage {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

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

double LogRatio(const CoverageSetting& s) { return std::log(s.x) - std::log(s.y); }

Result<std::vector<CoverageMethod>> MakeRatioMethods(double alpha) {
  PB_RETURN_IF_ERROR(CheckAlpha(alpha));
  // name, label, description, one-sided, nominal level, delta, guaranteed
  return std::vector<CoverageMethod>{
      {"katz_log", "katz_log",
       "Katz-log two-sided interval at significance alpha, lower end (ML-Audit Eps_LB)", true,
       1.0 - alpha / 2, 0.0, false},
      {"katz_log_one_sided", "katz_log_one_sided",
       "Katz-log lower bound with z_alpha (one-sided level 1 - alpha)", true, 1.0 - alpha, 0.0,
       false},
      {"clopper_pearson_ratio", "clopper_pearson_ratio",
       "log(p1_lo / p0_hi), each Clopper-Pearson limit one-sided at alpha/2 (union bound)", true,
       1.0 - alpha, 0.0, true},
      {"clopper_pearson_ratio_strict", "clopper_pearson_ratio_strict",
       "log(p1_lo / p0_hi), each Clopper-Pearson limit one-sided at alpha/4 (union bound)", true,
       1.0 - alpha / 2, 0.0, true},
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

Result<Results> RatioDesign(const Config& c) {
  Results r;
  r.names = {"katz_coverage", "p1",      "p0",           "p1", "p0", "N",
             {"n1", "n0"},    "/bounds", "log_ratio_lo", ""};
  r.settings = MakeCoverageSettings(r.names, c.p1, c.p0, c.n);
  PB_ASSIGN_OR_RETURN(r.methods, MakeRatioMethods(c.alpha));
  return r;
}

Result<CoverageTrialFn> RatioTrial(double alpha) {
  PB_ASSIGN_OR_RETURN(const RatioBoundConstants k, MakeRatioBoundConstants(alpha));
  return CoverageTrialFn([alpha, k](const CoverageSetting& st, int64_t t, uint64_t trial_seed,
                                    CoverageTrial& out) -> Status {
    const RatioCounts counts = DrawRatioCounts(st.x, st.y, st.n, trial_seed);
    out.counts = {counts.n1, counts.n0};
    PB_ASSIGN_OR_RETURN(out.lower, TrialBounds(counts, st.n, /*validate=*/t == 0, alpha, k));
    return Status::Ok();
  });
}

Result<Results> ComputeRatioCoverage(const Config& c, uint64_t seed, int threads, bool quiet) {
  PB_ASSIGN_OR_RETURN(Results r, RatioDesign(c));
  PB_ASSIGN_OR_RETURN(const CoverageTrialFn trial, RatioTrial(c.alpha));
  PB_ASSIGN_OR_RETURN(r.run, RunCoverageTrials(r, c.trials, trial, seed, threads, quiet));
  SummarizeCoverage([](const CoverageMethod&, const CoverageSetting& s) { return LogRatio(s); },
                    &r);
  PB_ASSIGN_OR_RETURN(r.ceiling, DetectionCeiling(c));
  return r;
}

}  // namespace privbench::katz_coverage
