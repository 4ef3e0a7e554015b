// Speed of the accountants (the targets below):
//  - RDP eps for one setting with DefaultRdpOrders(): <= 1 ms;
//  - CalibrateSigma for the RDP accountant: <= 50 ms;
//  - PLD eps for 10,000 steps at q = 0.01: well under a second (target
//    <= 250 ms), printed beside RDP's eps.
// Part 1 runs Google Benchmark cases (per setting, per accountant); part 2
// prints a summary of medians over repeats with the ratio to each target,
// including the slowest setting of a grid. No assertions: figures only.
//
//   bazel run //estimators/accountants:accountant_benchmark
//   bazel run //estimators/accountants:accountant_benchmark -- --benchmark_filter=Calibrate
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "estimators/accountants/accountant.h"
#include "estimators/accountants/accountant_registry.h"
#include "estimators/accountants/sampled_gaussian_rdp.h"

namespace privbench {
namespace {

constexpr double kTableSigmas[] = {136.67, 13.76, 6.99, 1.06, 0.44};

DpSgdAccounting JE(double sigma) { return DpSgdAccounting{sigma, 0.02, 5000, 1e-5, {}}; }

std::unique_ptr<Accountant> Make(const std::string& name) {
  return std::move(MakeAccountant(name)).value();
}

void BM_Epsilon(benchmark::State& state, std::string name) {
  auto acc = Make(name);
  const DpSgdAccounting s = JE(kTableSigmas[state.range(0)]);
  for (auto _ : state) benchmark::DoNotOptimize(acc->Epsilon(s));
  state.SetLabel("sigma=" + std::to_string(s.sigma));
}

void BM_Calibrate(benchmark::State& state, std::string name) {
  auto acc = Make(name);
  const double targets[] = {0.05, 1.0, 10.0, 100.0};
  const double target = targets[state.range(0)];
  for (auto _ : state) benchmark::DoNotOptimize(CalibrateSigma(*acc, target, JE(1.0)));
  state.SetLabel("target_eps=" + std::to_string(target));
}

void BM_RdpOrder(benchmark::State& state) {
  const double alpha = static_cast<double>(state.range(0)) / 100.0;
  for (auto _ : state) benchmark::DoNotOptimize(SampledGaussianRdp(0.02, 1.06, alpha));
  state.SetLabel("alpha=" + std::to_string(alpha));
}

void Register() {
  for (const std::string& name : AllAccountantNames()) {
    benchmark::RegisterBenchmark(("Epsilon/" + name).c_str(), BM_Epsilon, name)
        ->DenseRange(0, 4)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("Calibrate/" + name).c_str(), BM_Calibrate, name)
        ->DenseRange(0, 3)
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::RegisterBenchmark("SampledGaussianRdp/one_order", BM_RdpOrder)
      ->Arg(101)
      ->Arg(150)
      ->Arg(450)
      ->Arg(6300)
      ->Arg(51200)
      ->Arg(1638400)
      ->Unit(benchmark::kMicrosecond);
}

// Median wall time of f over `repeats` runs, in milliseconds.
double MedianMs(const std::function<void()>& f, int repeats) {
  std::vector<double> ms;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return ms[ms.size() / 2];
}

// PLD beside RDP: 10,000 steps at q = 0.01, and TF Privacy's MNIST setting.
void PldSummary() {
  constexpr double kPldTargetMs = 250.0;
  auto rdp = Make("rdp");
  auto pld = Make("pld");
  std::printf("PLD (h = 1e-4) beside RDP (target: PLD eps <= %.0f ms)\n", kPldTargetMs);
  const auto row = [&](const char* label, const DpSgdAccounting& s) {
    const double ms = MedianMs([&] { benchmark::DoNotOptimize(pld->Epsilon(s)); }, 5);
    std::printf("  %-28s sigma=%-4g  rdp eps %8.4f  pld eps %8.4f  pld %7.1f ms  ratio %.3f\n",
                label, s.sigma, rdp->Epsilon(s)->epsilon, pld->Epsilon(s)->epsilon, ms,
                ms / kPldTargetMs);
  };
  for (double sigma : {0.8, 1.0, 2.0}) {
    row("q=0.01 T=10000 delta=1e-5", DpSgdAccounting{sigma, 0.01, 10000, 1e-5, {}});
  }
  row("MNIST q=256/60000 T=14063", DpSgdAccounting{1.1, 256.0 / 60000, 14063, 1e-5, {}});
}

void Summary() {
  constexpr double kEpsTargetMs = 1.0, kCalTargetMs = 50.0;
  auto rdp = Make("rdp");
  std::printf(
      "\n=== Summary: medians over repeats (targets: RDP eps <= %.0f ms, calibration <= "
      "%.0f ms) ===\n",
      kEpsTargetMs, kCalTargetMs);
  std::printf("J&E Purchase-100 (q=0.02, T=5000, delta=1e-5), DefaultRdpOrders() (%zu orders)\n",
              DefaultRdpOrders().size());
  for (const std::string& name : {std::string("rdp"), std::string("rdp_improved")}) {
    auto acc = Make(name);
    for (double sigma : kTableSigmas) {
      const double ms = MedianMs([&] { benchmark::DoNotOptimize(acc->Epsilon(JE(sigma))); }, 201);
      std::printf("  %-12s eps      sigma=%-7g %8.4f ms  ratio to target %.3f\n", name.c_str(),
                  sigma, ms, ms / kEpsTargetMs);
    }
  }
  PldSummary();
  // Slowest setting over a grid.
  double worst = 0;
  DpSgdAccounting worst_setting;
  for (double sigma : {0.3, 0.44, 1.0, 3.0, 10.0, 30.0, 136.67, 1000.0, 1e4}) {
    for (double q : {1e-4, 0.02, 0.3, 1.0}) {
      for (int64_t steps : {1, 100, 5000, 1000000}) {
        for (double delta : {1e-10, 1e-5}) {
          const DpSgdAccounting s{sigma, q, steps, delta, {}};
          const double ms = MedianMs([&] { benchmark::DoNotOptimize(rdp->Epsilon(s)); }, 5);
          if (ms > worst) worst = ms, worst_setting = s;
        }
      }
    }
  }
  const double worst_ms =
      MedianMs([&] { benchmark::DoNotOptimize(rdp->Epsilon(worst_setting)); }, 51);
  std::printf("  rdp          eps      slowest of 288 grid settings (%s): %.4f ms  ratio %.3f\n",
              worst_setting.ToString().c_str(), worst_ms, worst_ms / kEpsTargetMs);
  for (const std::string& name : {std::string("rdp"), std::string("rdp_improved")}) {
    auto acc = Make(name);
    double max_ms = 0;
    for (double target : {0.05, 0.5, 1.0, 10.0, 100.0}) {
      const double ms =
          MedianMs([&] { benchmark::DoNotOptimize(CalibrateSigma(*acc, target, JE(1.0))); }, 21);
      max_ms = std::max(max_ms, ms);
      std::printf("  %-12s calibrate target_eps=%-5g %8.3f ms  ratio to target %.3f\n",
                  name.c_str(), target, ms, ms / kCalTargetMs);
    }
    std::printf("  %-12s calibrate worst %.3f ms  ratio %.3f\n", name.c_str(), max_ms,
                max_ms / kCalTargetMs);
  }
}

}  // namespace
}  // namespace privbench

int main(int argc, char** argv) {
  // One-time initialisation (the ln n! table) before anything is timed.
  const auto t0 = std::chrono::steady_clock::now();
  (void)privbench::Make("rdp")->Epsilon(privbench::JE(1.0));
  const auto t1 = std::chrono::steady_clock::now();
  std::printf("first call (includes one-time ln n! table): %.3f ms\n",
              std::chrono::duration<double, std::milli>(t1 - t0).count());
  privbench::Register();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  privbench::Summary();
  return 0;
}
