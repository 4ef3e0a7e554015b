// Speed of study bayes_coverage (B6; README.md):
//
//   bazel run //experiments/bayes_coverage:benchmark [-- --threads=2 ...]
//
// For every setting of the paper configuration (the default (FPR, FNR)
// pairs x n of compute.h, alpha = 0.1, delta = 1e-5) this runs
// `trials_per_setting` Monte-Carlo trials exactly as the study does (draw
// counts, then EVERY registered interval estimator) on `threads` threads,
// and prints the measured trials/second, the mean time of each estimator
// per call, and the projected wall time of the paper scale (settings x
// paper_trials trials, 10,000 per setting) and of the quick scale.
// Figures are measured on this machine, now; nothing is asserted.
#include <atomic>
#include <cstdio>
#include <string>
#include <vector>

#include "core/flags.h"
#include "core/format.h"
#include "core/seeding.h"
#include "experiments/bayes_coverage/compute.h"
#include "experiments/lib/coverage/grid_projection.h"
#include "experiments/lib/framework/study.h"
#include "simulations/confusion_draws.h"

namespace privbench::bayes_coverage {
namespace {

struct Options {
  int64_t per_setting = 40, threads = 2, paper_trials = 10000, quick_trials = 500;
};

void RegisterFlags(FlagSet& flags, Options& o) {
  flags.AddInt("trials_per_setting", &o.per_setting, "B6 trials measured per setting").Min(1);
  flags.AddInt("threads", &o.threads, "worker threads").Min(1);
  flags.AddInt("paper_trials", &o.paper_trials, "B6 paper-scale trials per setting (projection)")
      .Min(1);
  flags.AddInt("quick_trials", &o.quick_trials, "B6 quick-scale trials per setting (projection)")
      .Min(1);
}

// B6, one setting: `per_setting` trials on `threads` threads; prints one
// table row and adds to *p.
Status MeasureB6Setting(const Options& o, const std::vector<CoverageMethod>& methods,
                        const RatePair& pair, int64_t n, Projection* p) {
  const double alpha = 0.1;
  const size_t M = methods.size();
  const int64_t per_setting = o.per_setting;
  std::vector<double> method_seconds(M * per_setting, 0.0);
  const auto t0 = Clock::now();
  PB_RETURN_IF_ERROR(ParallelFor(per_setting, static_cast<int>(o.threads), [&](int64_t t) {
    const ConfusionCounts c = DrawConfusionCounts(
        pair.fnr, pair.fpr, n / 2, n - n / 2,
        DeriveSeed(12345, {static_cast<uint64_t>(p->settings), static_cast<uint64_t>(t)}));
    for (size_t m = 0; m < M; ++m) {
      const auto a = Clock::now();
      auto r = methods[m].estimator->Estimate(c, methods[m].delta, alpha);
      method_seconds[m * per_setting + t] = Seconds(a, Clock::now());
      if (!r.ok()) return r.status();
    }
    return Status::Ok();
  }));
  const double wall = Seconds(t0, Clock::now());
  const double rate = per_setting / wall;
  p->paper_seconds += o.paper_trials / rate;
  p->quick_seconds += o.quick_trials / rate;
  p->measured += wall;
  char label[64];
  std::snprintf(label, sizeof(label), "FPR %g FNR %g n %lld", pair.fpr, pair.fnr,
                static_cast<long long>(n));
  double thread_ms = 0.0;
  std::vector<double> per_method(M, 0.0);
  for (size_t m = 0; m < M; ++m) {
    for (int64_t t = 0; t < per_setting; ++t) per_method[m] += method_seconds[m * per_setting + t];
    thread_ms += per_method[m];
    per_method[m] = 1e3 * per_method[m] / per_setting;
  }
  std::printf("%-34s %10.1f %12.2f |", label, rate, 1e3 * thread_ms / per_setting);
  for (size_t m = 0; m < M; ++m) std::printf(" %9.3f", per_method[m]);
  std::printf("\n");
  ++p->settings;
  return Status::Ok();
}

Status BenchmarkB6(const Options& o) {
  const double alpha = 0.1, delta = 1e-5;
  PB_ASSIGN_OR_RETURN(std::vector<CoverageMethod> methods, MakeCoverageMethods(delta));
  std::printf("bayes_coverage (B6) paper configuration: every registered estimator (%zu):",
              methods.size());
  for (const auto& m : methods) std::printf(" %s", m.label.c_str());
  std::printf("\nalpha = %g, delta = %g, %lld trials measured per setting on %lld threads\n\n",
              alpha, delta, static_cast<long long>(o.per_setting),
              static_cast<long long>(o.threads));
  std::printf("%-34s %10s %12s |", "setting", "trials/s", "ms/trial/thr");
  for (const auto& m : methods) std::printf(" %9.9s", m.name.c_str());
  std::printf("   (mean ms per call)\n");
  Projection p;
  for (const RatePair& pair : DefaultCoverageRatePairs()) {
    for (int64_t n : DefaultCoverageTrialCounts()) {
      PB_RETURN_IF_ERROR(MeasureB6Setting(o, methods, pair, n, &p));
    }
  }
  const auto settings = static_cast<long long>(p.settings);
  std::printf("\nB6 settings: %lld; measured %.1f s in total\n", settings, p.measured);
  std::printf(
      "B6 projected paper scale (%lld settings x %lld trials = %lld trials, %lld threads): "
      "%s\n",
      settings, static_cast<long long>(o.paper_trials),
      static_cast<long long>(p.settings * o.paper_trials), static_cast<long long>(o.threads),
      Duration(p.paper_seconds).c_str());
  std::printf("B6 projected quick scale (%lld settings x %lld trials): %s\n\n", settings,
              static_cast<long long>(o.quick_trials), Duration(p.quick_seconds).c_str());
  return Status::Ok();
}

int Main(int argc, char** argv) {
  Options o;
  FlagSet flags("benchmark", "Throughput of the bayes_coverage study and its projected wall times");
  RegisterFlags(flags, o);
  if (const auto exit_code = flags.ParseForMain(argc, argv)) return *exit_code;
  if (Status s = BenchmarkB6(o); !s.ok()) {
    std::fprintf(stderr, "benchmark: %s\n", s.message().c_str());
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace privbench::bayes_coverage

int main(int argc, char** argv) { return privbench::bayes_coverage::Main(argc, argv); }
