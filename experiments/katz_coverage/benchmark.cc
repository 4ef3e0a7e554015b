// Speed of study katz_coverage (B7; README.md): the study's trials (a draw
// and the four ratio bounds) over the default (p1, p0) x N grid, their
// trials/second on `threads` threads and the projected paper- and
// quick-scale wall times (experiments/lib/coverage/coverage_benchmark.h):
//
//   bazel run //experiments/katz_coverage:benchmark [-- --threads=2 ...]
#include "experiments/katz_coverage/compute.h"
#include "experiments/katz_coverage/config.h"
#include "experiments/lib/coverage/coverage_benchmark.h"

namespace privbench::katz_coverage {
namespace {

Status Benchmark(const CoverageBenchmark& o) {
  Config c;  // alpha 0.05
  for (const RatioPair& p : DefaultRatioPairs()) {
    c.p1.push_back(p.p1);
    c.p0.push_back(p.p0);
  }
  c.n = DefaultSamplesPerSide();
  PB_ASSIGN_OR_RETURN(const Results design, RatioDesign(c));
  PB_ASSIGN_OR_RETURN(const CoverageTrialFn trial, RatioTrial(c.alpha));
  return MeasureCoverageGrid(design, trial, o);
}

}  // namespace
}  // namespace privbench::katz_coverage

int main(int argc, char** argv) {
  return privbench::CoverageBenchmarkMain(
      argc, argv, "Throughput of the katz_coverage study and its projected wall times",
      {/*trials=*/20000, /*threads=*/2, /*paper_trials=*/50000, /*quick_trials=*/5000},
      privbench::katz_coverage::Benchmark);
}
