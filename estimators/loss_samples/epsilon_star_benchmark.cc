// Paper-scale speed and memory of Epsilon* (requirement: "n = 10^6
// and the 2-million-point evaluation run in <= 1 s per value on one core,
// holding memory to O(n)"; Negoescu et al., PPAI-24, App. B.1).
//
// Draws n train losses ~ Gamma(1, 1) and n population losses ~
// Gamma(1 + d, 1) (study B3's setting), then times each registered
// estimator (validation, copies, sorts, transform, fit and the 2m-point
// sweep: everything a study pays per value) over --repeats runs and prints
// the median seconds per value, its ratio to the 1 s target, and the peak
// resident set size (getrusage ru_maxrss) before and after. The exact
// variant (Boost Gamma CDF/quantile callables) is timed once for reference.
//
//   bazel run //estimators/loss_samples:epsilon_star_benchmark -- --repeats=5
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <boost/random/gamma_distribution.hpp>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "core/flags.h"
#include "core/seeding.h"
#include "estimators/loss_samples/empirical.h"
#include "estimators/loss_samples/epsilon_star_options.h"
#include "estimators/loss_samples/exact.h"
#include "estimators/loss_samples/loss_sample_registry.h"
#include "estimators/loss_samples/parametric.h"

namespace privbench {
namespace {

double PeakRssMiB() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux: KiB
}

// Current resident set size (VmRSS), MiB; -1 if unavailable.
double CurrentRssMiB() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return -1.0;
  long pages_total = 0, pages_resident = 0;
  const int got = std::fscanf(f, "%ld %ld", &pages_total, &pages_resident);
  std::fclose(f);
  if (got != 2) return -1.0;
  return static_cast<double>(pages_resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) /
         (1024.0 * 1024.0);
}

// Wall and CPU (this process) seconds; CPU time is the better "one core"
// figure on a shared, noisy machine.
struct Clock {
  std::chrono::steady_clock::time_point wall;
  double cpu;
  static Clock Now() {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return {std::chrono::steady_clock::now(),
            static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec)};
  }
};
struct Elapsed {
  double wall, cpu;
};
Elapsed Since(const Clock& a) {
  const Clock b = Clock::Now();
  return {std::chrono::duration<double>(b.wall - a.wall).count(), b.cpu - a.cpu};
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int Main(int argc, char** argv) {
  int64_t n = 1000000, m = 1000000, repeats = 5, seed = 20240226;
  double d = 1.0, delta = 0.0;
  bool run_exact = true, breakdown = true;
  FlagSet flags("epsilon_star_benchmark",
                "Seconds per Epsilon* value and peak RSS at paper scale (App. B.1).");
  flags.AddInt("n", &n, "losses per sample (train and population each)");
  flags.AddInt("quantiles", &m, "quantiles_per_distribution (2m thresholds)");
  flags.AddInt("repeats", &repeats, "timed runs per estimator (median reported)");
  flags.AddInt("seed", &seed, "base seed");
  flags.AddDouble("d", &d, "population shape is 1 + d (train Gamma(1, 1))");
  flags.AddDouble("delta", &delta, "delta of Epsilon*");
  flags.AddBool("exact", &run_exact, "also time the exact variant once (Boost Gamma)");
  flags.AddBool("breakdown", &breakdown, "time the stages (sort, sweep, fit) separately");
  if (const auto exit_code = flags.ParseForMain(argc, argv)) return *exit_code;
  if (n < 1 || repeats < 1) {
    std::fprintf(stderr, "n and repeats must be >= 1\n");
    return 2;
  }

  const double rss_start = PeakRssMiB();
  Rng rng = MakeRng(static_cast<uint64_t>(seed), {0});
  boost::random::gamma_distribution<double> train_dist(1.0, 1.0), pop_dist(1.0 + d, 1.0);
  std::vector<double> train(static_cast<size_t>(n)), population(static_cast<size_t>(n));
  for (double& x : train) x = train_dist(rng);
  for (double& x : population) x = pop_dist(rng);
  const double rss_data = PeakRssMiB();
  const double input_mib = 2.0 * static_cast<double>(n) * sizeof(double) / (1024.0 * 1024.0);

  EpsilonStarOptions options;
  options.delta = delta;
  options.quantiles_per_distribution = m;
  std::printf(
      "Epsilon* benchmark: n = %lld per sample, m = %lld quantiles per distribution "
      "(%lld thresholds), %lld repeats, train Gamma(1,1) vs population Gamma(%g,1)\n",
      static_cast<long long>(n), static_cast<long long>(m), static_cast<long long>(2 * m),
      static_cast<long long>(repeats), 1.0 + d);
  std::printf("options: %s\n", EpsilonStarOptionsText(options).c_str());
  std::printf(
      "peak RSS: %.1f MiB at start, %.1f MiB after drawing the samples "
      "(inputs %.1f MiB; current RSS %.1f MiB)\n",
      rss_start, rss_data, input_mib, CurrentRssMiB());

  // Parametric first: it allocates nothing per sample, so the RSS growth of
  // the later empirical run is attributable to it.
  std::vector<std::string> names = AllLossSampleEstimatorNames();
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
    return (a == "parametric") > (b == "parametric");
  });
  for (const std::string& name : names) {
    auto est = MakeLossSampleEstimator(name);
    if (!est.ok()) {
      std::fprintf(stderr, "%s\n", est.message().c_str());
      return 1;
    }
    const double rss_before = PeakRssMiB();
    std::vector<double> wall, cpu;
    double value = 0.0;
    for (int64_t r = 0; r < repeats; ++r) {
      const Clock t0 = Clock::Now();
      Result<double> eps = (*est)->Estimate(train, population, options);
      const Elapsed e = Since(t0);
      if (!eps.ok()) {
        std::fprintf(stderr, "%s: %s\n", name.c_str(), eps.message().c_str());
        return 1;
      }
      value = *eps;
      wall.push_back(e.wall);
      cpu.push_back(e.cpu);
    }
    const double rss_after = PeakRssMiB();
    std::printf(
        "%-10s Epsilon* = %.6f  median %.3f s/value wall, %.3f s CPU  "
        "ratio to 1 s target %.2f (CPU)  peak RSS %.1f MiB (+%.1f MiB over %.1f MiB "
        "before)\n",
        name.c_str(), value, Median(wall), Median(cpu), Median(cpu), rss_after,
        rss_after - rss_before, rss_before);
  }

  if (breakdown) {
    // Where the time goes (median CPU seconds over the repeats).
    std::vector<double> sort_s, sweep_s, fit_s, normals_s;
    for (int64_t r = 0; r < repeats; ++r) {
      Clock t = Clock::Now();
      std::vector<double> st = train, sp = population;
      std::sort(st.begin(), st.end());
      std::sort(sp.begin(), sp.end());
      sort_s.push_back(Since(t).cpu);
      t = Clock::Now();
      volatile double e1 = EmpiricalEpsilonStarSorted(st, sp, options);
      sweep_s.push_back(Since(t).cpu);
      t = Clock::Now();
      auto fits = FitParametricEpsilonStar(train, population, options.transform);
      fit_s.push_back(Since(t).cpu);
      t = Clock::Now();
      auto e2 = EpsilonStarOfNormals(fits->train, fits->population, options);
      normals_s.push_back(Since(t).cpu);
      (void)e1;
      (void)e2;
    }
    std::printf(
        "breakdown (median CPU s): empirical = copy+sort %.3f + sweep %.3f; "
        "parametric = transform+fit %.3f + 2m-point Normal sweep %.3f\n",
        Median(sort_s), Median(sweep_s), Median(fit_s), Median(normals_s));
  }

  if (run_exact) {
    auto train_known = GammaLossDistribution(1.0, 1.0);
    auto pop_known = GammaLossDistribution(1.0 + d, 1.0);
    const Clock t0 = Clock::Now();
    Result<double> eps = ExactEpsilonStar(*train_known, *pop_known, options);
    const Elapsed e = Since(t0);
    if (!eps.ok()) {
      std::fprintf(stderr, "exact: %s\n", eps.message().c_str());
      return 1;
    }
    std::printf(
        "%-10s Epsilon* = %.6f  %.3f s wall, %.3f s CPU (one run; Boost Gamma "
        "quantile/CDF callables; simulations only, no 1 s target)\n",
        "exact", *eps, e.wall, e.cpu);
  }
  std::printf("final peak RSS %.1f MiB, current RSS %.1f MiB\n", PeakRssMiB(), CurrentRssMiB());
  return 0;
}

}  // namespace
}  // namespace privbench

int main(int argc, char** argv) { return privbench::Main(argc, argv); }
