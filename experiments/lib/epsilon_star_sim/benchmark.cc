// Paper-scale speed of the Epsilon* simulation studies (the targets below):
//  (1) "n = 10^6 and the 2-million-point evaluation in <= 1 s per value on
//      one core, memory O(n)", measured in the study setting: samples drawn
//      as the studies draw them (timed separately), then one value per
//      registered estimator computed the way the studies compute it
//      (SortedSamples: sort once, fit once, one 2m-point sweep per value),
//      both from scratch (sort or fit included) and as the marginal cost of
//      a further value on the same samples; peak RSS against the input size.
//  (2) "B2 + B3 at paper scale in <= 15 min on 2 cores": one repetition of
//      every (setting, n) of the paper configurations (B2: n in {1e3..1e6};
//      B3: d = 0..5 x n), run with EvaluateUnit exactly as the studies run a
//      unit (both analyses, every estimator), plus every exact evaluation
//      the studies make; the full wall time is projected as
//      (repetitions x sum of unit times + sum of exact times) / 2 threads,
//      bounded below by the longest single task.
// Times are CPU seconds of this process on one thread (the better "one
// core" figure on a shared machine) and wall seconds.
//
// (Negoescu et al., PPAI-24, App. B.1; experiments/epsilon_star_{identical,distance}/README.md.)
//
//   bazel run //experiments/lib/epsilon_star_sim:epsilon_star_sim_benchmark --
//     [--repeats=3 --slice=false]
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "core/flags.h"
#include "core/format.h"
#include "core/seeding.h"
#include "core/stats.h"
#include "estimators/loss_samples/epsilon_star_options.h"
#include "estimators/loss_samples/loss_sample_registry.h"
#include "experiments/lib/epsilon_star_sim/estimation_config.h"
#include "experiments/lib/epsilon_star_sim/replicates.h"
#include "experiments/lib/epsilon_star_sim/windows.h"
#include "simulations/loss_models.h"

namespace privbench {
namespace {

double PeakRssMiB() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux: KiB
}

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
  double wall = 0.0, cpu = 0.0;
};
Elapsed Since(const Clock& a) {
  const Clock b = Clock::Now();
  return {std::chrono::duration<double>(b.wall - a.wall).count(), b.cpu - a.cpu};
}

int Fail(const std::string& what) {
  std::fprintf(stderr, "epsilon_star_sim_benchmark: %s\n", what.c_str());
  return 1;
}

// Part (1).
int PerValue(int64_t n, int64_t repeats, uint64_t seed, double d) {
  const EstimationConfig paper = DefaultEstimationConfig(Scale::kPaper);
  const EpsilonStarOptions options = PrimaryOptions(paper);
  const SimSetting setting{GammaLoss{1.0, 1.0, 0.0}, GammaLoss{1.0 + d, 1.0, 0.0}, n};
  std::printf(
      "(1) one Epsilon* value at paper scale: n = %lld per sample, m = %lld quantiles "
      "per distribution (%lld thresholds); train %s, population %s\n",
      static_cast<long long>(n), static_cast<long long>(options.quantiles_per_distribution),
      static_cast<long long>(2 * options.quantiles_per_distribution),
      GammaLossText(setting.train).c_str(), GammaLossText(setting.population).c_str());
  std::printf("    options: %s\n", EpsilonStarOptionsText(options).c_str());
  const double rss0 = PeakRssMiB();
  const double input_mib = 2.0 * static_cast<double>(n) * sizeof(double) / (1024.0 * 1024.0);

  std::vector<double> sampling, sorting;
  std::vector<std::string> names = AllLossSampleEstimatorNames();
  std::vector<std::vector<double>> scratch(names.size()), marginal(names.size());
  std::vector<double> value(names.size());
  for (int64_t r = 0; r < repeats; ++r) {
    Rng rng = MakeRng(seed, {static_cast<uint64_t>(r)});
    Clock t = Clock::Now();
    std::vector<double> train = DrawGammaLosses(setting.train, n, rng);
    std::vector<double> population = DrawGammaLosses(setting.population, n, rng);
    sampling.push_back(Since(t).cpu);
    t = Clock::Now();
    auto created = SortedSamples::Create(train, population);
    if (!created.ok()) return Fail(created.message());
    SortedSamples samples = std::move(created).value();
    const double sort_cpu = Since(t).cpu;
    sorting.push_back(sort_cpu);
    for (size_t e = 0; e < names.size(); ++e) {
      // First value of this estimator on these samples (includes the fit
      // for the parametric variant), then a second one (another window:
      // the marginal cost of one more value, as the common-window analysis).
      t = Clock::Now();
      auto v1 = samples.Estimate(names[e], options);
      const double first = Since(t).cpu;
      if (!v1.ok()) return Fail(v1.message());
      value[e] = *v1;
      EpsilonStarOptions other = CommonWindowOptions(paper);
      t = Clock::Now();
      auto v2 = samples.Estimate(names[e], other);
      const double second = Since(t).cpu;
      if (!v2.ok()) return Fail(v2.message());
      // From scratch = what a study pays for one value from raw samples:
      // the sort (shared by the sample-order estimators) plus the first value.
      scratch[e].push_back(first + sort_cpu);
      marginal[e].push_back(second);
    }
  }
  const double rss1 = PeakRssMiB();
  std::printf("    sampling (not part of a value): %.3f s CPU for 2 x %lld Gamma draws\n",
              Median(sampling), static_cast<long long>(n));
  std::printf("    sort of both samples (once per pair, shared): %.3f s CPU\n", Median(sorting));
  for (size_t e = 0; e < names.size(); ++e) {
    const double s = Median(scratch[e]);
    std::printf(
        "    %-10s Epsilon* = %.4f  sort + first value (incl. any fit) %.3f s CPU (ratio to "
        "the 1 s target %.2f); a further value on the same samples %.3f s CPU (ratio "
        "%.2f)\n",
        names[e].c_str(), value[e], s, s / 1.0, Median(marginal[e]), Median(marginal[e]) / 1.0);
  }
  std::printf(
      "    peak RSS %.1f MiB before the samples, %.1f MiB after (+%.1f MiB = %.2f x the "
      "%.1f MiB of input; sorted copies of both samples: 1 x) -> memory O(n), no "
      "O(m) buffers\n",
      rss0, rss1, rss1 - rss0, (rss1 - rss0) / input_mib, input_mib);
  return 0;
}

// Part (2).
struct Task {
  std::string what;
  double cpu = 0.0, wall = 0.0;
  int64_t times = 1;  // how many times the full study runs it
};

// Measures units and exact evaluations as the studies run them.
class SliceTimer {
 public:
  SliceTimer(const EstimationConfig& paper, std::vector<SimAnalysis> analyses)
      : paper_(paper), analyses_(std::move(analyses)), names_(AllLossSampleEstimatorNames()) {}

  // One unit (train Gamma(1, 1) against `pop`, n losses each); false on error.
  bool Unit(const std::string& label, const GammaLoss& pop, int64_t n, uint64_t seed) {
    UnitTiming timing;
    const Clock t = Clock::Now();
    auto v = EvaluateUnit(SimSetting{train_, pop, n}, seed, names_, analyses_, &timing);
    const Elapsed e = Since(t);
    if (!v.ok()) {
      Fail(v.message());
      return false;
    }
    tasks_.push_back({label + " n=" + std::to_string(n), e.cpu, e.wall, paper_.repetitions});
    std::printf("    unit %-28s %.3f s CPU (wall s: sampling %.3f, sort %.3f, %zu values %.3f)\n",
                tasks_.back().what.c_str(), e.cpu, timing.sampling, timing.sorting,
                analyses_.size() * names_.size(), timing.estimating);
    return true;
  }

  // One exact evaluation on the window `w` of the primary options.
  bool Exact(const std::string& label, const GammaLoss& pop, EpsilonStarWindow w) {
    const Clock t = Clock::Now();
    auto v = ExactGammaEpsilonStar(train_, pop, ExactOptionsForWindow(analyses_[0].options, w));
    const Elapsed e = Since(t);
    if (!v.ok()) {
      Fail(v.message());
      return false;
    }
    tasks_.push_back({label, e.cpu, e.wall, 1});
    std::printf("    exact %-27s %.3f s CPU (value %.4f)\n", label.c_str(), e.cpu, *v);
    return true;
  }

  // Both exact windows the studies evaluate per distribution (the common
  // window equals the rate window by default).
  bool ExactBoth(const std::string& label, const GammaLoss& pop) {
    return Exact(label + " rate window", pop, EpsilonStarWindow::kRate) &&
           Exact(label + " clip window", pop, EpsilonStarWindow::kClip);
  }

  void PrintProjection() const {
    double total = 0.0, longest = 0.0;
    int64_t count = 0;
    for (const Task& t : tasks_) {
      total += t.cpu * static_cast<double>(t.times);
      longest = std::max(longest, t.cpu);
      count += t.times;
    }
    const double projected = std::max(total / 2.0, longest);
    std::printf(
        "    projected full paper-scale B2 + B3: %lld tasks, %.1f s CPU in all -> %.1f s "
        "wall on 2 cores (%.1f min; ratio to the 15 min target %.3f). Assumes the 2 "
        "threads share the tasks evenly (ParallelFor hands out units largest n first).\n",
        static_cast<long long>(count), total, projected, projected / 60.0, projected / 900.0);
  }

  const GammaLoss& train() const { return train_; }

 private:
  EstimationConfig paper_;
  std::vector<SimAnalysis> analyses_;
  std::vector<std::string> names_;
  GammaLoss train_{1.0, 1.0, 0.0};
  std::vector<Task> tasks_;
};

int Slice(uint64_t seed) {
  const EstimationConfig paper = DefaultEstimationConfig(Scale::kPaper);
  SliceTimer timer(
      paper, {{"primary", PrimaryOptions(paper)}, {"common_window", CommonWindowOptions(paper)}});
  std::printf(
      "\n(2) measured slice of B2 + B3 at paper scale: n = {1e3, 1e4, 1e5, 1e6}, %lld "
      "repetitions, m = %lld, d = 0..5; one repetition of every (setting, n), every "
      "exact evaluation\n",
      static_cast<long long>(paper.repetitions),
      static_cast<long long>(paper.quantiles_per_distribution));
  // B2: train = population.
  for (int64_t n : paper.n) {
    if (!timer.Unit("B2", timer.train(), n, DeriveSeed(seed, {2, static_cast<uint64_t>(n)}))) {
      return 1;
    }
  }
  if (!timer.ExactBoth("B2", timer.train())) return 1;
  for (double d : DefaultDistances(Scale::kPaper)) {
    const GammaLoss pop{1.0 + d, 1.0, 0.0};
    const std::string label = "B3 d=" + FormatDouble(d);
    for (int64_t n : paper.n) {
      if (!timer.Unit(label, pop, n, DeriveSeed(seed, {3, static_cast<uint64_t>(n)}))) return 1;
    }
    if (!timer.ExactBoth(label, pop)) return 1;
  }
  timer.PrintProjection();
  return 0;
}

int Main(int argc, char** argv) {
  int64_t n = 1000000, repeats = 3, seed = 20240226;
  double d = 1.0;
  bool per_value = true, slice = true;
  FlagSet flags("epsilon_star_sim_benchmark",
                "Paper-scale speed of the Epsilon* simulation studies (B2, B3).");
  flags.AddInt("n", &n, "losses per sample for part (1)").Min(2);
  flags.AddInt("repeats", &repeats, "timed repetitions of part (1) (median reported)").Min(1);
  flags.AddInt("seed", &seed, "base seed");
  flags.AddDouble("d", &d, "part (1): population Gamma(1 + d, 1), train Gamma(1, 1)").Min(0);
  flags.AddBool("per_value", &per_value, "run part (1)");
  flags.AddBool("slice", &slice, "run part (2)");
  if (const auto exit_code = flags.ParseForMain(argc, argv)) return *exit_code;
  if (per_value && PerValue(n, repeats, static_cast<uint64_t>(seed), d) != 0) return 1;
  if (slice && Slice(static_cast<uint64_t>(seed)) != 0) return 1;
  return 0;
}

}  // namespace
}  // namespace privbench

int main(int argc, char** argv) { return privbench::Main(argc, argv); }
