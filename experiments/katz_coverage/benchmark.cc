// Speed of study katz_coverage (B7; README.md):
//
//   bazel run //experiments/katz_coverage:benchmark [-- --threads=2 ...]
//
// The four ratio bounds per trial over the default (p1, p0) x N grid:
// trials/second on `threads` threads and the projected paper- and
// quick-scale wall times.
// Figures are measured on this machine, now; nothing is asserted.
#include <atomic>
#include <cstdio>
#include <string>
#include <vector>

#include "core/flags.h"
#include "core/format.h"
#include "core/seeding.h"
#include "experiments/katz_coverage/compute.h"
#include "experiments/lib/coverage/grid_projection.h"
#include "experiments/lib/framework/study.h"
#include "simulations/ratio_draws.h"

namespace privbench::katz_coverage {
namespace {

struct Options {
  int64_t threads = 2;
  int64_t katz_trials = 20000, katz_paper_trials = 50000, katz_quick_trials = 5000;
};

void RegisterFlags(FlagSet& flags, Options& o) {
  flags.AddInt("threads", &o.threads, "worker threads").Min(1);
  flags.AddInt("katz_trials", &o.katz_trials, "B7 trials measured per setting").Min(1);
  flags.AddInt("katz_paper_trials", &o.katz_paper_trials, "B7 paper-scale trials per setting")
      .Min(1);
  flags.AddInt("katz_quick_trials", &o.katz_quick_trials, "B7 quick-scale trials per setting")
      .Min(1);
}

// B7: the four ratio bounds (no Bayesian integrals: microseconds).
Status BenchmarkB7(const Options& o) {
  PB_ASSIGN_OR_RETURN(const RatioBoundConstants k, MakeRatioBoundConstants(0.05));
  Projection p;
  std::atomic<int64_t> sink{0};
  const auto kt0 = Clock::now();
  for (const RatioPair& pair : DefaultRatioPairs()) {
    for (int64_t n : DefaultSamplesPerSide()) {
      const auto t0 = Clock::now();
      const int64_t chunks = o.threads;
      PB_RETURN_IF_ERROR(ParallelFor(chunks, static_cast<int>(o.threads), [&](int64_t chunk) {
        int64_t local = 0;
        for (int64_t t = chunk; t < o.katz_trials; t += chunks) {
          const RatioCounts c = DrawRatioCounts(
              pair.p1, pair.p0, n,
              DeriveSeed(7, {static_cast<uint64_t>(p.settings), static_cast<uint64_t>(t)}));
          const std::vector<double> b = RatioLowerBoundsUnchecked(c.n1, c.n0, n, k);
          local += b[0] > 0.0;
        }
        sink += local;
        return Status::Ok();
      }));
      const double rate = o.katz_trials / Seconds(t0, Clock::now());
      p.paper_seconds += o.katz_paper_trials / rate;
      p.quick_seconds += o.katz_quick_trials / rate;
      ++p.settings;
    }
  }
  const double katz_rate = p.settings * o.katz_trials / Seconds(kt0, Clock::now());
  std::printf("katz_coverage (B7): %.0f trials/s on %lld threads (4 bounds per trial)\n", katz_rate,
              static_cast<long long>(o.threads));
  std::printf("B7 projected paper scale (%lld settings x %lld trials): %s; quick (x %lld): %s\n",
              static_cast<long long>(p.settings), static_cast<long long>(o.katz_paper_trials),
              Duration(p.paper_seconds).c_str(), static_cast<long long>(o.katz_quick_trials),
              Duration(p.quick_seconds).c_str());
  return sink.load() >= 0 ? Status::Ok() : Error("impossible negative count");
}

int Main(int argc, char** argv) {
  Options o;
  FlagSet flags("benchmark", "Throughput of the katz_coverage study and its projected wall times");
  RegisterFlags(flags, o);
  if (const auto exit_code = flags.ParseForMain(argc, argv)) return *exit_code;
  if (Status s = BenchmarkB7(o); !s.ok()) {
    std::fprintf(stderr, "benchmark: %s\n", s.message().c_str());
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace privbench::katz_coverage

int main(int argc, char** argv) { return privbench::katz_coverage::Main(argc, argv); }
