// Speed of the coverage studies (STUDIES.md B6, B7):
//
//   bazel run //experiments:coverage_benchmark [-- --trials_per_setting=40 --threads=2]
//
// The issue requires "B6 must be cheap enough to run 10,000 trials per
// setting at paper scale". For every setting of the bayes_coverage paper
// configuration (the default (FPR, FNR) pairs x n of coverage_sim.h,
// alpha = 0.1, delta = 1e-5) this runs `trials_per_setting` Monte-Carlo
// trials exactly as the study does (draw counts, then EVERY registered
// interval estimator) on `threads` threads, and prints the measured
// trials/second, the mean time of each estimator per call, and the
// projected wall time of the paper scale (settings x paper_trials trials)
// and of the quick scale. It then does the same for katz_coverage (four
// ratio bounds per trial). Figures are measured on this machine, now;
// nothing is asserted.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "core/flags.h"
#include "core/seeding.h"
#include "experiments/coverage_sim.h"
#include "experiments/framework/study.h"

namespace privbench {
namespace {

using Clock = std::chrono::steady_clock;
double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

std::string Duration(double s) {
  char buf[64];
  if (s < 120) {
    std::snprintf(buf, sizeof(buf), "%.1f s", s);
  } else if (s < 7200) {
    std::snprintf(buf, sizeof(buf), "%.1f min", s / 60);
  } else {
    std::snprintf(buf, sizeof(buf), "%.2f h", s / 3600);
  }
  return buf;
}

int Main(int argc, char** argv) {
  int64_t per_setting = 40, threads = 2, paper_trials = 10000, quick_trials = 500;
  int64_t katz_trials = 20000, katz_paper_trials = 50000, katz_quick_trials = 5000;
  FlagSet flags("coverage_benchmark", "Throughput of the bayes_coverage / katz_coverage studies");
  flags.AddInt("trials_per_setting", &per_setting, "B6 trials measured per setting");
  flags.AddInt("threads", &threads, "worker threads");
  flags.AddInt("paper_trials", &paper_trials, "B6 paper-scale trials per setting (projection)");
  flags.AddInt("quick_trials", &quick_trials, "B6 quick-scale trials per setting (projection)");
  flags.AddInt("katz_trials", &katz_trials, "B7 trials measured per setting");
  flags.AddInt("katz_paper_trials", &katz_paper_trials, "B7 paper-scale trials per setting");
  flags.AddInt("katz_quick_trials", &katz_quick_trials, "B7 quick-scale trials per setting");
  if (const auto exit_code = flags.ParseForMain(argc, argv)) return *exit_code;
  if (per_setting < 1 || threads < 1 || paper_trials < 1 || quick_trials < 1 || katz_trials < 1 ||
      katz_paper_trials < 1 || katz_quick_trials < 1) {
    std::fprintf(stderr, "coverage_benchmark: every count must be >= 1\n");
    return 2;
  }

  const double alpha = 0.1, delta = 1e-5;
  auto methods_or = MakeCoverageMethods(delta);
  if (!methods_or.ok()) {
    std::fprintf(stderr, "coverage_benchmark: %s\n", methods_or.message().c_str());
    return 1;
  }
  const std::vector<CoverageMethod>& methods = *methods_or;
  const size_t M = methods.size();
  std::printf("bayes_coverage (B6) paper configuration: every registered estimator (%zu):", M);
  for (const auto& m : methods) std::printf(" %s", m.label.c_str());
  std::printf("\nalpha = %g, delta = %g, %lld trials measured per setting on %lld threads\n\n",
              alpha, delta, static_cast<long long>(per_setting), static_cast<long long>(threads));
  std::printf("%-34s %10s %12s |", "setting", "trials/s", "ms/trial/thr");
  for (const auto& m : methods) std::printf(" %9.9s", m.name.c_str());
  std::printf("   (mean ms per call)\n");

  double paper_seconds = 0.0, quick_seconds = 0.0, total_measured = 0.0;
  int64_t settings = 0;
  for (const RatePair& pair : DefaultCoverageRatePairs()) {
    for (int64_t n : DefaultCoverageTrialCounts()) {
      std::vector<double> method_seconds(M * per_setting, 0.0);
      const auto t0 = Clock::now();
      Status st = ParallelFor(per_setting, static_cast<int>(threads), [&](int64_t t) -> Status {
        const ConfusionCounts c = DrawConfusionCounts(
            pair.fnr, pair.fpr, n / 2, n - n / 2,
            DeriveSeed(12345, {static_cast<uint64_t>(settings), static_cast<uint64_t>(t)}));
        for (size_t m = 0; m < M; ++m) {
          const auto a = Clock::now();
          auto r = methods[m].estimator->Estimate(c, methods[m].delta, alpha);
          method_seconds[m * per_setting + t] = Seconds(a, Clock::now());
          if (!r.ok()) return r.status();
        }
        return Status::Ok();
      });
      const double wall = Seconds(t0, Clock::now());
      if (!st.ok()) {
        std::fprintf(stderr, "coverage_benchmark: %s\n", st.message().c_str());
        return 1;
      }
      const double rate = per_setting / wall;
      paper_seconds += paper_trials / rate;
      quick_seconds += quick_trials / rate;
      total_measured += wall;
      char label[64];
      std::snprintf(label, sizeof(label), "FPR %g FNR %g n %lld", pair.fpr, pair.fnr,
                    static_cast<long long>(n));
      double thread_ms = 0.0;
      std::vector<double> per_method(M, 0.0);
      for (size_t m = 0; m < M; ++m) {
        for (int64_t t = 0; t < per_setting; ++t)
          per_method[m] += method_seconds[m * per_setting + t];
        thread_ms += per_method[m];
        per_method[m] = 1e3 * per_method[m] / per_setting;
      }
      std::printf("%-34s %10.1f %12.2f |", label, rate, 1e3 * thread_ms / per_setting);
      for (size_t m = 0; m < M; ++m) std::printf(" %9.3f", per_method[m]);
      std::printf("\n");
      ++settings;
    }
  }
  std::printf("\nB6 settings: %lld; measured %.1f s in total\n", static_cast<long long>(settings),
              total_measured);
  std::printf(
      "B6 projected paper scale (%lld settings x %lld trials = %lld trials, %lld threads): "
      "%s\n",
      static_cast<long long>(settings), static_cast<long long>(paper_trials),
      static_cast<long long>(settings * paper_trials), static_cast<long long>(threads),
      Duration(paper_seconds).c_str());
  std::printf("B6 projected quick scale (%lld settings x %lld trials): %s\n\n",
              static_cast<long long>(settings), static_cast<long long>(quick_trials),
              Duration(quick_seconds).c_str());

  // B7: the four ratio bounds (no Bayesian integrals: microseconds).
  const std::vector<std::pair<double, double>> ratio_pairs = {
      {0.5, 0.05}, {0.9, 0.1}, {0.05, 0.005}, {0.99, 0.01}, {0.2, 0.2}};
  const std::vector<int64_t> ratio_n = {100, 1000, 10000};
  auto k_or = MakeRatioBoundConstants(0.05);
  if (!k_or.ok()) return 1;
  const RatioBoundConstants k = *k_or;
  double katz_paper = 0.0, katz_quick = 0.0;
  int64_t ratio_settings = 0;
  std::atomic<int64_t> sink{0};
  const auto kt0 = Clock::now();
  for (const auto& [p1, p0] : ratio_pairs) {
    for (int64_t n : ratio_n) {
      const auto t0 = Clock::now();
      const int64_t chunks = threads;
      Status st = ParallelFor(chunks, static_cast<int>(threads), [&](int64_t chunk) -> Status {
        int64_t local = 0;
        for (int64_t t = chunk; t < katz_trials; t += chunks) {
          int64_t n1, n0;
          DrawRatioCounts(
              p1, p0, n,
              DeriveSeed(7, {static_cast<uint64_t>(ratio_settings), static_cast<uint64_t>(t)}), &n1,
              &n0);
          const std::vector<double> b = RatioLowerBoundsUnchecked(n1, n0, n, k);
          local += b[0] > 0.0;
        }
        sink += local;
        return Status::Ok();
      });
      if (!st.ok()) return 1;
      const double rate = katz_trials / Seconds(t0, Clock::now());
      katz_paper += katz_paper_trials / rate;
      katz_quick += katz_quick_trials / rate;
      ++ratio_settings;
    }
  }
  const double katz_rate = ratio_settings * katz_trials / Seconds(kt0, Clock::now());
  std::printf("katz_coverage (B7): %.0f trials/s on %lld threads (4 bounds per trial)\n", katz_rate,
              static_cast<long long>(threads));
  std::printf("B7 projected paper scale (%lld settings x %lld trials): %s; quick (x %lld): %s\n",
              static_cast<long long>(ratio_settings), static_cast<long long>(katz_paper_trials),
              Duration(katz_paper).c_str(), static_cast<long long>(katz_quick_trials),
              Duration(katz_quick).c_str());
  return sink.load() >= 0 ? 0 : 1;
}

}  // namespace
}  // namespace privbench

int main(int argc, char** argv) { return privbench::Main(argc, argv); }
