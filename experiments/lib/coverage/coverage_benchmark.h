// The speed of a coverage study (its benchmark binary,
// experiments/<study>:benchmark): every setting of a grid runs `trials`
// Monte-Carlo trials exactly as the study does (RunCoverageTrials on the
// study's trial function, one setting at a time, on `threads` threads), and
// the measured rate of each setting projects the wall time of the paper and
// quick scales: (trials per setting at that scale) / rate, summed over the
// settings. Figures are measured on this machine, now; nothing is asserted.
#ifndef PRIVBENCH_EXPERIMENTS_LIB_COVERAGE_COVERAGE_BENCHMARK_H_
#define PRIVBENCH_EXPERIMENTS_LIB_COVERAGE_COVERAGE_BENCHMARK_H_

#include <cstdint>
#include <functional>
#include <string>

#include "core/result.h"
#include "experiments/lib/coverage/coverage_run.h"

namespace privbench {

// The benchmark's flags: --trials_per_setting, --threads, --paper_trials and
// --quick_trials (trials per setting of the two scales).
struct CoverageBenchmark {
  int64_t trials = 40, threads = 2, paper_trials = 10000, quick_trials = 500;
};

// Prints one line per setting of `design` (its label, trials/second, then
// detail(setting index) when given, after the header `detail_header`), then
// the settings' measured total and the projected paper- and quick-scale wall
// times.
using SettingDetail = std::function<std::string(size_t setting)>;
Status MeasureCoverageGrid(const CoverageResults& design, const CoverageTrialFn& trial,
                           const CoverageBenchmark& o, const std::string& detail_header = "",
                           const SettingDetail& detail = nullptr);

// The benchmark's main(): parses the flags into o (its defaults) and runs
// run(o); exit code 0, 1 when run fails, 2 for bad flags.
int CoverageBenchmarkMain(int argc, char** argv, const std::string& description,
                          CoverageBenchmark o,
                          const std::function<Status(const CoverageBenchmark&)>& run);

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIB_COVERAGE_COVERAGE_BENCHMARK_H_
