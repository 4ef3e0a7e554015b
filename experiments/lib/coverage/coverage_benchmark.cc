#include "experiments/lib/coverage/coverage_benchmark.h"

#include <chrono>
#include <cstdio>

#include "core/flags.h"
#include "core/format.h"

namespace privbench {
namespace {

std::string Duration(double s) {
  if (s < 120) return FormatFixed(s, 1) + " s";
  if (s < 7200) return FormatFixed(s / 60, 1) + " min";
  return FormatFixed(s / 3600, 2) + " h";
}

}  // namespace

Status MeasureCoverageGrid(const CoverageResults& design, const CoverageTrialFn& trial,
                           const CoverageBenchmark& o, const std::string& detail_header,
                           const SettingDetail& detail) {
  std::printf("%s: %zu methods,", design.names.study.c_str(), design.methods.size());
  for (const CoverageMethod& m : design.methods) std::printf(" %s", m.label.c_str());
  std::printf("\n%lld trials measured per setting on %lld threads\n\n%-36s %10s %s\n",
              static_cast<long long>(o.trials), static_cast<long long>(o.threads), "setting",
              "trials/s", detail_header.c_str());
  double measured = 0.0, paper = 0.0, quick = 0.0;
  CoverageResults one = design;
  for (size_t s = 0; s < design.settings.size(); ++s) {
    one.settings = {design.settings[s]};
    const auto t0 = std::chrono::steady_clock::now();
    PB_RETURN_IF_ERROR(
        RunCoverageTrials(one, o.trials, trial, 12345 + s, o.threads, true).status());
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double rate = o.trials / wall;
    measured += wall;
    paper += o.paper_trials / rate;
    quick += o.quick_trials / rate;
    std::printf("%-36s %10.1f %s\n", design.settings[s].label.c_str(), rate,
                detail ? detail(s).c_str() : "");
  }
  const auto settings = static_cast<long long>(design.settings.size());
  std::printf("\nsettings: %lld; measured %.1f s in total\n", settings, measured);
  std::printf("projected paper scale (%lld settings x %lld trials, %lld threads): %s\n", settings,
              static_cast<long long>(o.paper_trials), static_cast<long long>(o.threads),
              Duration(paper).c_str());
  std::printf("projected quick scale (%lld settings x %lld trials): %s\n", settings,
              static_cast<long long>(o.quick_trials), Duration(quick).c_str());
  return Status::Ok();
}

int CoverageBenchmarkMain(int argc, char** argv, const std::string& description,
                          CoverageBenchmark o,
                          const std::function<Status(const CoverageBenchmark&)>& run) {
  FlagSet flags("benchmark", description);
  flags.AddInt("trials_per_setting", &o.trials, "trials measured per setting").Min(1);
  flags.AddInt("threads", &o.threads, "worker threads").Min(1);
  flags.AddInt("paper_trials", &o.paper_trials, "paper-scale trials per setting").Min(1);
  flags.AddInt("quick_trials", &o.quick_trials, "quick-scale trials per setting").Min(1);
  if (const auto exit_code = flags.ParseForMain(argc, argv)) return *exit_code;
  if (Status s = run(o); !s.ok()) {
    std::fprintf(stderr, "benchmark: %s\n", s.message().c_str());
    return 1;
  }
  return 0;
}

}  // namespace privbench
