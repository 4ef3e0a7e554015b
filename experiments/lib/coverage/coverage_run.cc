#include "experiments/lib/coverage/coverage_run.h"

#include <cmath>
#include <limits>

#include "core/format.h"
#include "core/progress.h"
#include "core/seeding.h"
#include "core/stats.h"
#include "experiments/lib/framework/study.h"

namespace privbench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Copies one trial's output into the run at (setting s, trial t).
Status StoreTrial(const CoverageResults& r, const CoverageTrial& trial, int64_t s, int64_t t,
                  CoverageRun& run) {
  const int64_t u = s * run.trials + t;
  for (size_t i = 0; i < 2; ++i) run.counts[i][u] = trial.counts[i];
  if (trial.lower.size() != r.methods.size() || trial.upper.size() != r.methods.size()) {
    return Error("internal error: a trial gave " + std::to_string(trial.lower.size()) +
                 " lower ends for " + std::to_string(r.methods.size()) + " methods");
  }
  for (size_t m = 0; m < r.methods.size(); ++m) {
    const bool two_sided = !r.methods[m].one_sided;
    if (std::isnan(trial.lower[m]) || (two_sided && std::isnan(trial.upper[m]))) {
      return Error("internal error: NaN bound from " + r.methods[m].name);
    }
    run.data[m].lower[u] = trial.lower[m];
    if (two_sided) run.data[m].upper[u] = trial.upper[m];
  }
  return Status::Ok();
}

}  // namespace

double NominalSe(double nominal, int64_t trials) {
  return std::sqrt(nominal * (1.0 - nominal) / static_cast<double>(trials));
}

double ObservedSe(double coverage, int64_t trials) {
  return std::sqrt(coverage * (1.0 - coverage) / static_cast<double>(trials));
}

CoverageClass ClassifyCoverage(double coverage, double nominal, int64_t trials,
                               double threshold_se) {
  const double band = threshold_se * NominalSe(nominal, trials);
  if (coverage < nominal - band) return CoverageClass::kUnder;
  if (coverage > nominal + band) return CoverageClass::kOver;
  return CoverageClass::kNear;
}

const char* CoverageClassName(CoverageClass c) {
  switch (c) {
    case CoverageClass::kUnder:
      return "under";
    case CoverageClass::kNear:
      return "near";
    case CoverageClass::kOver:
      return "over";
  }
  return "?";
}

std::vector<CoverageSetting> MakeCoverageSettings(const CoverageNames& names,
                                                  const std::vector<double>& x,
                                                  const std::vector<double>& y,
                                                  const std::vector<int64_t>& ns) {
  std::vector<CoverageSetting> settings;
  for (size_t p = 0; p < x.size(); ++p) {
    for (int64_t n : ns) {
      const std::string label = "(" + names.x_label + " " + FormatDouble(x[p]) + ", " +
                                names.y_label + " " + FormatDouble(y[p]) + ", " + names.n + " " +
                                std::to_string(n) + ")";
      settings.push_back({static_cast<int64_t>(p), x[p], y[p], n, label});
    }
  }
  return settings;
}

IntervalStats SummarizeIntervals(const std::vector<double>& lower, const std::vector<double>& upper,
                                 double truth) {
  IntervalStats s;
  const size_t t = lower.size();
  const bool two_sided = !upper.empty();
  s.trials = static_cast<int64_t>(t);
  s.truth = truth;
  int64_t covered = 0, low = 0, high = 0, infinite = 0, finite = 0, vacuous = 0;
  double sum_lower = 0.0, sum_width = 0.0, sum_clipped = 0.0, sum_clipped_covering = 0.0;
  std::vector<double> clipped(t);
  for (size_t i = 0; i < t; ++i) {
    const bool covers = lower[i] <= truth && (!two_sided || truth <= upper[i]);
    clipped[i] = 0.0 > lower[i] ? 0.0 : lower[i];
    covered += covers;
    low += truth < lower[i];
    high += two_sided && truth > upper[i];
    vacuous += lower[i] <= 0.0;
    sum_lower += lower[i];
    sum_clipped += clipped[i];
    if (covers) sum_clipped_covering += clipped[i];
    if (!two_sided) continue;
    if (std::isinf(upper[i])) {
      ++infinite;
    } else {
      ++finite;
      sum_width += upper[i] - lower[i];
    }
  }
  const double n = static_cast<double>(t);
  s.coverage = covered / n;
  s.se = ObservedSe(s.coverage, s.trials);
  s.miss_low = low / n;
  s.miss_high = high / n;
  s.mean_lower = sum_lower / n;
  s.median_lower = Median(lower);
  s.frac_infinite = infinite / n;
  s.mean_width = two_sided && finite > 0 ? sum_width / finite : kNaN;
  s.mean_clipped = sum_clipped / n;
  s.median_clipped = Median(std::move(clipped));
  s.frac_vacuous = vacuous / n;
  s.mean_clipped_covering = covered > 0 ? sum_clipped_covering / covered : kNaN;
  return s;
}

std::vector<double> Row(const std::vector<double>& v, int64_t s, int64_t t) {
  return std::vector<double>(v.begin() + s * t, v.begin() + (s + 1) * t);
}

Result<CoverageRun> RunCoverageTrials(const CoverageResults& r, int64_t trials,
                                      const CoverageTrialFn& trial, uint64_t seed, int threads,
                                      bool quiet) {
  const int64_t S = static_cast<int64_t>(r.settings.size()), T = trials;
  const size_t M = r.methods.size();
  CoverageRun run;
  run.trials = T;
  for (auto& counts : run.counts) counts.assign(S * T, 0);
  run.data.resize(M);
  for (size_t m = 0; m < M; ++m) {
    run.data[m].lower.assign(S * T, 0.0);
    if (!r.methods[m].one_sided) run.data[m].upper.assign(S * T, 0.0);
  }
  ProgressReporter progress(r.names.study, S * T, quiet);
  PB_RETURN_IF_ERROR(ParallelFor(S * T, threads, [&](int64_t unit) -> Status {
    const int64_t s = unit / T, t = unit % T;
    CoverageTrial out;
    out.lower.assign(M, 0.0);
    out.upper.assign(M, 0.0);
    PB_RETURN_IF_ERROR(trial(r.settings[s], t,
                             DeriveSeed(seed, {static_cast<uint64_t>(s), static_cast<uint64_t>(t)}),
                             out));
    PB_RETURN_IF_ERROR(StoreTrial(r, out, s, t, run));
    progress.Advance();
    return Status::Ok();
  }));
  return run;
}

void SummarizeCoverage(const CoverageTruthFn& truth, CoverageResults* r) {
  const int64_t T = r->run.trials;
  for (size_t m = 0; m < r->methods.size(); ++m) {
    const CoverageMethod& method = r->methods[m];
    MethodRun& d = r->run.data[m];
    d.stats.clear();
    d.classes.clear();
    for (size_t s = 0; s < r->settings.size(); ++s) {
      const std::vector<double> up = method.one_sided ? std::vector<double>() : Row(d.upper, s, T);
      d.stats.push_back(SummarizeIntervals(Row(d.lower, s, T), up, truth(method, r->settings[s])));
      d.classes.push_back(ClassifyCoverage(d.stats.back().coverage, method.nominal, T));
    }
  }
}

}  // namespace privbench
