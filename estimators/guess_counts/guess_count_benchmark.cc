// Speed of the guess-count estimators: one_run's lower bound for up to
// m = 10^6 canaries (target: well under a second; <= 100 ms here), at
// delta = 0 and with the delta term. Prints medians and the ratio to the
// target. `bazel run //estimators/guess_counts:guess_count_benchmark`.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "estimators/guess_counts/guess_count_registry.h"

int main() {
  using namespace privbench;
  constexpr double kTargetMs = 100.0;
  auto est = std::move(MakeGuessCountEstimator("one_run")).value();
  const GuessCounts cases[] = {{1000, 100, 90},
                               {100000, 10000, 7000},
                               {1000000, 1000000, 600000},
                               {1000000, 100000, 90000},
                               {1000000, 1000, 1000}};
  std::printf("one_run lower bound, beta = 0.05 (target <= %.0f ms)\n", kTargetMs);
  for (const GuessCounts& c : cases) {
    for (double delta : {0.0, 1e-5}) {
      std::vector<double> ms;
      double eps = 0;
      for (int rep = 0; rep < 5; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        eps = est->LowerBound(c, delta, 0.05).value();
        const auto t1 = std::chrono::steady_clock::now();
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      }
      std::nth_element(ms.begin(), ms.begin() + 2, ms.end());
      std::printf("  %-28s delta=%-6g eps_lower=%.6f  %8.3f ms  ratio %.3f\n", c.ToString().c_str(),
                  delta, eps, ms[2], ms[2] / kTargetMs);
    }
  }
  return 0;
}
