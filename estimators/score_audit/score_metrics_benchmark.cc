// Speed of the score metrics (score_metrics.h) and one-run bounds
// (one_run_scores.h): seconds per call on n N(mu, 1) member and n N(0, 1)
// non-member scores, n in --n (default 10^4, 10^5, 10^6), mu = --mu
// (default 1), alpha = 0.05, delta = --delta (default 1e-5) where a method
// takes it (the one-run bounds also at delta = 0). Each call
// goes from the two score vectors to the number (validation, sort, ROC,
// hull, search). Figures: the median of --repeats calls on the calling
// thread's CPU clock, with the load average. Target (one core): every
// metric at n = 10^6 well under 1 s. Also prints each value, so that a run
// shows what the bounds are at that size.
//
//   bazel run --config=ci //estimators/score_audit:score_metrics_benchmark
//   bazel run --config=ci //estimators/score_audit:score_metrics_benchmark -- --n=1000000
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/bench_clock.h"
#include "core/flags.h"
#include "core/seeding.h"
#include "estimators/score_audit/benchmark_scores.h"
#include "estimators/score_audit/one_run_scores.h"
#include "estimators/score_audit/score_metrics.h"

namespace privbench {
namespace {

struct Config {
  std::vector<int64_t> n = {10000, 100000, 1000000};
  int64_t repeats = 3;
  double mu = 1.0;
  double delta = 1e-5;
};

using Metric = std::function<Result<double>()>;

// The named metrics on fixed scores.
std::vector<std::pair<std::string, Metric>> Metrics(const std::vector<double>& m,
                                                    const std::vector<double>& n, double d) {
  std::vector<std::pair<std::string, Metric>> out = {
      {"auc mann_whitney", [&] { return ScoreAuc(m, n, AucConvention::kMannWhitney); }},
      {"auc hull", [&] { return ScoreAuc(m, n, AucConvention::kHull); }},
      {"tpr_at_fpr 0.01", [&] { return RandomisedTprAtFpr(m, n, 0.01); }},
      {"max_accuracy",
       [&]() -> Result<double> {
         PB_ASSIGN_OR_RETURN(MaxAccuracy a, MaxAccuracyOfScores(m, n, {}));
         return a.accuracy;
       }},
      {"max_accuracy upper (alpha 0.05)",
       [&]() -> Result<double> {
         PB_ASSIGN_OR_RETURN(MaxAccuracy a, MaxAccuracyOfScores(m, n, {std::nullopt, 0.05}));
         return *a.upper;
       }},
      {"raw_count_epsilon two-sided",
       [&m, &n, d] {
         return RawCountEpsilon(m, n, {50, d, false});
       }},
  };
  for (OneRunMethod method :
       {OneRunMethod::kOneRun, OneRunMethod::kOneRunFdp, OneRunMethod::kOneRunGaussianDp}) {
    for (double delta : {0.0, d}) {
      if (method == OneRunMethod::kOneRunGaussianDp && delta == 0.0) continue;
      const std::string name =
          std::string(OneRunMethodName(method)) + " delta " + (delta == 0.0 ? "0" : "d");
      out.push_back({name, [&m, &n, method, delta]() -> Result<double> {
                       OneRunScoreOptions o;
                       o.method = method;
                       o.delta = delta;
                       PB_ASSIGN_OR_RETURN(OneRunScoreBound b, OneRunFromScores(m, n, o));
                       return *b.eps_lower;
                     }});
    }
  }
  return out;
}

int Run(const Config& c) {
  std::printf("load average: %s\n", bench::LoadAverages().c_str());
  std::printf("%-34s %9s %12s %14s\n", "metric", "n/side", "seconds", "value");
  for (int64_t n : c.n) {
    Rng rng = MakeRng(20261201, {static_cast<uint64_t>(n)});
    const std::vector<double> members = UnitGaussianScores(n, c.mu, rng);
    const std::vector<double> nonmembers = UnitGaussianScores(n, 0.0, rng);
    for (const auto& [name, metric] : Metrics(members, nonmembers, c.delta)) {
      std::vector<double> seconds;
      double value = 0.0;
      for (int64_t r = 0; r < c.repeats; ++r) {
        const double t0 = bench::ThreadCpuSeconds();
        const Result<double> v = metric();
        seconds.push_back(bench::ThreadCpuSeconds() - t0);
        if (!v.ok()) {
          std::fprintf(stderr, "%s: %s\n", name.c_str(), v.message().c_str());
          return 1;
        }
        value = *v;
      }
      std::sort(seconds.begin(), seconds.end());
      std::printf("%-34s %9lld %12.4f %14.6f\n", name.c_str(), static_cast<long long>(n),
                  seconds[seconds.size() / 2], value);
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace
}  // namespace privbench

int main(int argc, char** argv) {
  privbench::Config c;
  privbench::FlagSet flags("score_metrics_benchmark",
                           "Seconds per score metric and one-run bound by n "
                           "(estimators/score_audit/score_metrics.h, one_run_scores.h).");
  flags.AddIntList("n", &c.n, "scores per side").Min(2);
  flags.AddInt("repeats", &c.repeats, "timed calls per cell (median)").Min(1);
  flags.AddDouble("mu", &c.mu, "mean of the member scores (non-members: 0)");
  flags.AddDouble("delta", &c.delta, "delta of the one-run bounds and raw_count_epsilon")
      .Range(0, 1);
  const privbench::ParseOutcome parsed = flags.Parse(argc, argv);
  if (parsed == privbench::ParseOutcome::kHelp) return 0;
  if (parsed == privbench::ParseOutcome::kError) return 2;
  const privbench::Status valid = flags.Validate();
  if (!valid.ok()) {
    std::fprintf(stderr, "%s\n", valid.message().c_str());
    return 2;
  }
  return privbench::Run(c);
}
