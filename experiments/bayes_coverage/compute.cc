#include "experiments/bayes_coverage/compute.h"

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "core/validate.h"
#include "estimators/eps_from_rates.h"
#include "estimators/interval_estimator.h"
#include "estimators/interval_registry.h"
#include "simulations/confusion_draws.h"

namespace privbench::bayes_coverage {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One trial: draws (FN, FP) and runs every method's estimator (each at its
// delta, at significance alpha).
Result<CoverageTrialFn> EstimatorTrial(const std::vector<CoverageMethod>& methods, double alpha) {
  std::vector<std::shared_ptr<const IntervalEstimator>> estimators;  // stateless; shared
  std::vector<double> deltas;
  for (const CoverageMethod& m : methods) {
    PB_ASSIGN_OR_RETURN(auto est, MakeIntervalEstimator(m.name));
    estimators.push_back(std::move(est));
    deltas.push_back(m.delta);
  }
  return CoverageTrialFn([estimators, deltas, alpha](const CoverageSetting& st, int64_t,
                                                     uint64_t trial_seed,
                                                     CoverageTrial& out) -> Status {
    const ConfusionCounts counts =
        DrawConfusionCounts(st.y, st.x, Positives(st), Negatives(st), trial_seed);
    out.counts = {counts.fn, counts.fp};
    for (size_t m = 0; m < estimators.size(); ++m) {
      PB_ASSIGN_OR_RETURN(EpsInterval e, estimators[m]->Estimate(counts, deltas[m], alpha));
      out.lower[m] = e.lower;
      if (e.upper) out.upper[m] = *e.upper;
    }
    return Status::Ok();
  });
}

}  // namespace

std::vector<RatePair> DefaultCoverageRatePairs() {
  return {
      {0.001, 0.5},  // low-FPR corner (the target area of LiRA-style attacks)
      {0.01, 0.3},   // low-FPR corner, moderate FNR
      {0.4, 0.4},    // mid-range: balanced accuracy 60% (the pair of B4 / Fig. 4)
      {0.05, 0.05},  // strong attack on the diagonal FPR = FNR, eps about 2.94
      {0.02, 0.2},   // strong attack off the diagonal, eps about 3.69
      {0.5, 0.5},    // chance: true eps = 0
  };
}

std::vector<int64_t> DefaultCoverageTrialCounts() { return {200, 1000, 5000}; }

double TrueEps(const CoverageSetting& s, double delta) {
  return EpsFromRatesUnchecked(/*fnr=*/s.y, /*fpr=*/s.x, delta);
}

int64_t Positives(const CoverageSetting& s) { return s.n / 2; }
int64_t Negatives(const CoverageSetting& s) { return s.n - s.n / 2; }

Result<std::vector<CoverageMethod>> MakeCoverageMethods(double delta, double alpha) {
  PB_RETURN_IF_ERROR(CheckDelta(delta));
  std::vector<CoverageMethod> methods;
  for (const std::string& name : AllIntervalEstimatorNames()) {
    PB_ASSIGN_OR_RETURN(auto est, MakeIntervalEstimator(name));
    CoverageMethod m;
    m.name = name;
    m.description = std::string(est->description());
    m.one_sided = est->one_sided();
    m.nominal = 1.0 - alpha;
    const bool zero = est->requires_zero_delta();
    m.delta = zero ? 0.0 : delta;
    m.label = zero && delta != 0.0 ? name + " (delta=0)" : name;
    methods.push_back(std::move(m));
  }
  return methods;
}

PairedWidths ComparePairedWidths(const std::vector<double>& lower_a,
                                 const std::vector<double>& upper_a,
                                 const std::vector<double>& lower_b,
                                 const std::vector<double>& upper_b) {
  PairedWidths p;
  double sa = 0.0, sb = 0.0;
  int64_t inf_a = 0, inf_b = 0;
  const size_t t = lower_a.size();
  for (size_t i = 0; i < t; ++i) {
    const bool fa = std::isfinite(upper_a[i]), fb = std::isfinite(upper_b[i]);
    inf_a += !fa;
    inf_b += !fb;
    if (fa && fb) {
      ++p.both_finite;
      sa += upper_a[i] - lower_a[i];
      sb += upper_b[i] - lower_b[i];
    }
  }
  p.mean_a = p.both_finite > 0 ? sa / p.both_finite : kNaN;
  p.mean_b = p.both_finite > 0 ? sb / p.both_finite : kNaN;
  p.frac_infinite_a = t > 0 ? static_cast<double>(inf_a) / t : 0.0;
  p.frac_infinite_b = t > 0 ? static_cast<double>(inf_b) / t : 0.0;
  return p;
}

Result<Results> CoverageDesign(const Config& c) {
  Results r;
  r.names = {"bayes_coverage", "fpr",        "fnr",    "FPR",   "FNR", "n",
             {"fn", "fp"},     "/estimates", "eps_lo", "eps_hi"};
  r.settings = MakeCoverageSettings(r.names, c.fpr, c.fnr, c.n);
  PB_ASSIGN_OR_RETURN(r.methods, MakeCoverageMethods(c.delta, c.alpha));
  return r;
}

Result<Results> ComputeCoverage(const Config& c, uint64_t seed, int threads, bool quiet) {
  PB_ASSIGN_OR_RETURN(Results r, CoverageDesign(c));
  PB_ASSIGN_OR_RETURN(const CoverageTrialFn trial, EstimatorTrial(r.methods, c.alpha));
  PB_ASSIGN_OR_RETURN(r.run, RunCoverageTrials(r, c.trials, trial, seed, threads, quiet));
  SummarizeCoverage(
      [](const CoverageMethod& m, const CoverageSetting& s) { return TrueEps(s, m.delta); }, &r);
  return r;
}

}  // namespace privbench::bayes_coverage
