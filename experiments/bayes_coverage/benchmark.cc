// Speed of study bayes_coverage (B6; README.md):
//
//   bazel run //experiments/bayes_coverage:benchmark [-- --threads=2 ...]
//
// For every setting of the paper configuration (the default (FPR, FNR)
// pairs x n of compute.h, alpha = 0.1, delta = 1e-5) this runs
// `trials_per_setting` Monte-Carlo trials as the study does (draw counts,
// then EVERY registered interval estimator) on `threads` threads, and
// prints the measured trials/second, the mean time of each estimator per
// call, and the projected wall time of the paper scale (10,000 trials per
// setting) and of the quick scale (experiments/lib/coverage/
// coverage_benchmark.h).
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "estimators/interval_estimator.h"
#include "estimators/interval_registry.h"
#include "experiments/bayes_coverage/compute.h"
#include "experiments/bayes_coverage/config.h"
#include "experiments/lib/coverage/coverage_benchmark.h"
#include "simulations/confusion_draws.h"

namespace privbench::bayes_coverage {
namespace {

// printf of one value into a string.
template <class T>
std::string Fixed(const char* format, T value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

Status Benchmark(const CoverageBenchmark& o) {
  Config c;  // alpha 0.1, delta 1e-5
  for (const RatePair& p : DefaultCoverageRatePairs()) {
    c.fpr.push_back(p.fpr);
    c.fnr.push_back(p.fnr);
  }
  c.n = DefaultCoverageTrialCounts();
  PB_ASSIGN_OR_RETURN(const Results design, CoverageDesign(c));
  const std::vector<CoverageMethod>& methods = design.methods;
  std::vector<std::unique_ptr<IntervalEstimator>> estimators;
  std::string header = Fixed("%12s |", "ms/trial/thr");
  for (const CoverageMethod& m : methods) {
    PB_ASSIGN_OR_RETURN(auto est, MakeIntervalEstimator(m.name));
    estimators.push_back(std::move(est));
    header += Fixed(" %9.9s", m.name.c_str());
  }
  // The study's trial (EstimatorTrial) with each call timed: seconds of
  // method m in trial t of the current setting at m * trials + t.
  std::vector<double> seconds(methods.size() * o.trials, 0.0);
  const auto trial = [&](const CoverageSetting& st, int64_t t, uint64_t seed,
                         CoverageTrial& out) -> Status {
    const ConfusionCounts counts =
        DrawConfusionCounts(st.y, st.x, Positives(st), Negatives(st), seed);
    for (size_t m = 0; m < methods.size(); ++m) {
      const auto a = std::chrono::steady_clock::now();
      PB_ASSIGN_OR_RETURN(EpsInterval e,
                          estimators[m]->Estimate(counts, methods[m].delta, c.alpha));
      seconds[m * o.trials + t] =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
      out.lower[m] = e.lower;
      if (e.upper) out.upper[m] = *e.upper;
    }
    return Status::Ok();
  };
  // Per setting: ms per trial and thread, then each method's mean ms per call.
  const auto detail = [&](size_t) {
    std::vector<double> ms(methods.size(), 0.0);
    for (size_t u = 0; u < seconds.size(); ++u) ms[u / o.trials] += 1e3 * seconds[u] / o.trials;
    double total = 0.0;
    for (double x : ms) total += x;
    std::string line = Fixed("%12.2f |", total);
    for (double x : ms) line += Fixed(" %9.3f", x);
    return line;
  };
  return MeasureCoverageGrid(design, trial, o, header, detail);
}

}  // namespace
}  // namespace privbench::bayes_coverage

int main(int argc, char** argv) {
  return privbench::CoverageBenchmarkMain(
      argc, argv, "Throughput of the bayes_coverage study and its projected wall times",
      {/*trials=*/40, /*threads=*/2, /*paper_trials=*/10000, /*quick_trials=*/500},
      privbench::bayes_coverage::Benchmark);
}
