#include "experiments/bayes_coverage/compute.h"

#include <cmath>
#include <limits>
#include <utility>

#include "core/format.h"
#include "core/stats.h"
#include "core/validate.h"
#include "estimators/eps_from_rates.h"
#include "estimators/interval_registry.h"
#include "experiments/lib/coverage/trial_grid.h"
#include "simulations/confusion_draws.h"

namespace privbench::bayes_coverage {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
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

std::string CoverageSetting::Label() const {
  return "(FPR " + FormatDouble(fpr) + ", FNR " + FormatDouble(fnr) + ", n " + std::to_string(n) +
         ")";
}

std::vector<CoverageSetting> MakeCoverageSettings(const Config& c) {
  std::vector<CoverageSetting> settings;
  for (const GridPoint& g : PairMajorGrid(c.fpr.size(), c.n)) {
    settings.push_back({g.pair, c.fpr[g.pair], c.fnr[g.pair], g.n});
  }
  return settings;
}

Result<std::vector<CoverageMethod>> MakeCoverageMethods(double delta) {
  PB_RETURN_IF_ERROR(CheckDelta(delta));
  std::vector<CoverageMethod> methods;
  for (const std::string& name : AllIntervalEstimatorNames()) {
    PB_ASSIGN_OR_RETURN(auto est, MakeIntervalEstimator(name));
    CoverageMethod m;
    m.name = name;
    m.one_sided = est->one_sided();
    const bool zero = est->requires_zero_delta();
    m.delta = zero ? 0.0 : delta;
    m.label = zero && delta != 0.0 ? name + " (delta=0)" : name;
    m.estimator = std::move(est);
    methods.push_back(std::move(m));
  }
  return methods;
}

bool IntervalCovers(double lower, const double* upper, double truth) {
  if (!(lower <= truth)) return false;
  return upper == nullptr || truth <= *upper;
}

IntervalCoverageStats SummarizeIntervals(const std::vector<double>& lower,
                                         const std::vector<double>& upper, double truth) {
  IntervalCoverageStats s;
  const size_t t = lower.size();
  const bool two_sided = !upper.empty();
  s.trials = static_cast<int64_t>(t);
  int64_t covered = 0, low = 0, high = 0, finite = 0;
  double sum_lower = 0.0, sum_width = 0.0;
  for (size_t i = 0; i < t; ++i) {
    const double* up = two_sided ? &upper[i] : nullptr;
    if (IntervalCovers(lower[i], up, truth)) ++covered;
    if (truth < lower[i]) ++low;
    if (two_sided && truth > upper[i]) ++high;
    sum_lower += lower[i];
    if (two_sided) {
      if (std::isinf(upper[i])) {
        ++s.infinite;
      } else {
        ++finite;
        sum_width += upper[i] - lower[i];
      }
    }
  }
  const double n = static_cast<double>(t);
  s.coverage = covered / n;
  s.se = ObservedSe(s.coverage, s.trials);
  s.miss_low = low / n;
  s.miss_high = high / n;
  s.mean_lower = sum_lower / n;
  s.median_lower = Median(lower);
  s.frac_infinite = s.infinite / n;
  s.mean_width = two_sided && finite > 0 ? sum_width / finite : kNaN;
  return s;
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

std::vector<double> Row(const std::vector<double>& v, int64_t s, int64_t t) {
  return std::vector<double>(v.begin() + s * t, v.begin() + (s + 1) * t);
}

Result<CoverageRun> RunCoverageTrials(const Config& c, const std::vector<CoverageSetting>& settings,
                                      const std::vector<CoverageMethod>& methods, uint64_t seed,
                                      int threads, bool quiet) {
  const int64_t S = static_cast<int64_t>(settings.size());
  const int64_t T = c.trials;
  const size_t M = methods.size();
  CoverageRun run;
  run.data.resize(M);
  for (size_t m = 0; m < M; ++m) {
    run.data[m].lower.assign(S * T, 0.0);
    if (!methods[m].one_sided) run.data[m].upper.assign(S * T, 0.0);
  }
  run.fn.resize(S * T);
  run.fp.resize(S * T);
  PB_RETURN_IF_ERROR(ForEachTrial(
      "bayes_coverage", S, T, seed, threads, quiet,
      [&](int64_t s, int64_t t, uint64_t trial_seed) -> Status {
        const int64_t u = s * T + t;
        const CoverageSetting& st = settings[s];
        const ConfusionCounts counts =
            DrawConfusionCounts(st.fnr, st.fpr, st.positives(), st.negatives(), trial_seed);
        run.fn[u] = counts.fn;
        run.fp[u] = counts.fp;
        for (size_t m = 0; m < M; ++m) {
          PB_ASSIGN_OR_RETURN(EpsInterval r,
                              methods[m].estimator->Estimate(counts, methods[m].delta, c.alpha));
          run.data[m].lower[u] = r.lower;
          if (r.upper) run.data[m].upper[u] = *r.upper;
        }
        return Status::Ok();
      }));
  return run;
}

void SummarizeCoverage(const Config& c, const std::vector<CoverageSetting>& settings,
                       const std::vector<CoverageMethod>& methods, CoverageRun* run) {
  const int64_t S = static_cast<int64_t>(settings.size());
  const int64_t T = c.trials;
  const double nominal = 1.0 - c.alpha;
  for (size_t m = 0; m < methods.size(); ++m) {
    MethodData& d = run->data[m];
    for (int64_t s = 0; s < S; ++s) {
      const double truth =
          EpsFromRatesUnchecked(settings[s].fnr, settings[s].fpr, methods[m].delta);
      d.truth.push_back(truth);
      const std::vector<double> up =
          methods[m].one_sided ? std::vector<double>() : Row(d.upper, s, T);
      d.stats.push_back(SummarizeIntervals(Row(d.lower, s, T), up, truth));
      d.classes.push_back(ClassifyCoverage(d.stats.back().coverage, nominal, T));
    }
  }
}

}  // namespace privbench::bayes_coverage
