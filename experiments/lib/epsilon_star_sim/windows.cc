#include "experiments/lib/epsilon_star_sim/windows.h"

#include <utility>

#include "core/format.h"
#include "core/progress.h"
#include "experiments/lib/framework/study.h"

namespace privbench {

EpsilonStarWindow WindowOfEstimator(std::string_view name) {
  return name == "parametric" ? EpsilonStarWindow::kClip : EpsilonStarWindow::kRate;
}

std::string_view WindowName(EpsilonStarWindow w) {
  return w == EpsilonStarWindow::kClip ? "clip_window" : "rate_window";
}

std::string WindowText(const EpsilonStarOptions& o, EpsilonStarWindow w) {
  if (w == EpsilonStarWindow::kClip) {
    return "[" + FormatDouble(o.clip_lo) + ", " + FormatDouble(o.clip_hi) + "]";
  }
  return "(" + FormatDouble(o.rate_floor) + ", " + FormatDouble(o.rate_ceiling) + ")";
}

EpsilonStarOptions ExactOptionsForWindow(const EpsilonStarOptions& options, EpsilonStarWindow w) {
  EpsilonStarOptions o = options;
  if (w == EpsilonStarWindow::kClip) {
    o.rate_floor = options.clip_lo;
    o.rate_ceiling = options.clip_hi;
  }
  return o;
}

std::vector<size_t> ExactWindows::Distinct() const {
  std::vector<size_t> out;
  for (size_t w = 0; w < source.size(); ++w) {
    if (source[w] == w) out.push_back(w);
  }
  return out;
}

ExactWindows MakeExactWindows(const EpsilonStarOptions& primary, const EpsilonStarOptions& common) {
  ExactWindows x;
  x.names = {"rate_window", "clip_window", "common_window"};
  x.options = {ExactOptionsForWindow(primary, EpsilonStarWindow::kRate),
               ExactOptionsForWindow(primary, EpsilonStarWindow::kClip),
               ExactOptionsForWindow(common, EpsilonStarWindow::kRate)};
  x.source.resize(x.options.size());
  for (size_t w = 0; w < x.options.size(); ++w) {
    x.source[w] = w;
    for (size_t u = 0; u < w; ++u) {
      if (x.options[u].rate_floor == x.options[w].rate_floor &&
          x.options[u].rate_ceiling == x.options[w].rate_ceiling) {
        x.source[w] = x.source[u];
        break;
      }
    }
  }
  return x;
}

Result<std::vector<std::vector<double>>> ExactReferences(const GammaLoss& train,
                                                         const std::vector<GammaLoss>& populations,
                                                         const ExactWindows& windows, int threads,
                                                         bool quiet, const std::string& label) {
  const std::vector<size_t> distinct = windows.Distinct();
  std::vector<std::pair<size_t, size_t>> jobs;  // (population, window)
  for (size_t i = 0; i < populations.size(); ++i) {
    for (size_t w : distinct) jobs.push_back({i, w});
  }
  std::vector<std::vector<double>> exact(windows.options.size(),
                                         std::vector<double>(populations.size(), 0.0));
  ProgressReporter progress(label, static_cast<int64_t>(jobs.size()), quiet);
  PB_RETURN_IF_ERROR(
      ParallelFor(static_cast<int64_t>(jobs.size()), threads, [&](int64_t j) -> Status {
        const auto [i, w] = jobs[static_cast<size_t>(j)];
        PB_ASSIGN_OR_RETURN(exact[w][i],
                            ExactGammaEpsilonStar(train, populations[i], windows.options[w]));
        progress.Advance();
        return Status::Ok();
      }));
  for (size_t w = 0; w < exact.size(); ++w) exact[w] = exact[windows.source[w]];
  return exact;
}

size_t ReferenceWindow(size_t analysis, std::string_view estimator) {
  if (analysis == 1) return 2;
  return WindowOfEstimator(estimator) == EpsilonStarWindow::kClip ? 1 : 0;
}

EpsilonStarWindow AnalysisWindow(size_t analysis, std::string_view estimator) {
  return analysis == 1 ? EpsilonStarWindow::kRate : WindowOfEstimator(estimator);
}

}  // namespace privbench
