// The rate windows of the Epsilon* simulation studies B2 and B3 (Negoescu
// et al., PPAI-24, App. B.1, Figs. 4-5; experiments/epsilon_star_{identical,distance}/README.md).
//
// Each estimator reads ONE rate window from EpsilonStarOptions: the
// empirical variant (and any variant not listed in WindowOfEstimator) the
// open window (rate_floor, rate_ceiling), the parametric variant the closed
// window [clip_lo, clip_hi]. The exact value depends on the window (for
// separated distributions the supremum sits on the window boundary), so an
// estimator's bias is measured against the exact value on ITS window:
// ExactOptionsForWindow() gives the exact variant's options for either, and
// ExactWindows lists the three exact references the studies compute (rate,
// clip and common window).
#ifndef PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SIM_WINDOWS_H_
#define PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SIM_WINDOWS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "estimators/loss_samples/epsilon_star_options.h"
#include "simulations/loss_models.h"

namespace privbench {

// Which window of EpsilonStarOptions an estimator uses: kClip for
// "parametric", kRate for every other name (the empirical variant and, by
// default, any newly registered one).
enum class EpsilonStarWindow { kRate, kClip };
EpsilonStarWindow WindowOfEstimator(std::string_view name);
std::string_view WindowName(EpsilonStarWindow w);  // "rate_window" / "clip_window"
// "(0.001, 0.999)" for kRate, "[1e-06, 0.999999]" for kClip.
std::string WindowText(const EpsilonStarOptions& options, EpsilonStarWindow w);
// Options of the exact variant on the given window of `options` (the exact
// variant reads (rate_floor, rate_ceiling) and evaluates the window's end
// thresholds, so its open-window value equals the closed-window supremum).
EpsilonStarOptions ExactOptionsForWindow(const EpsilonStarOptions& options, EpsilonStarWindow w);

// The exact references of the two analyses: window 0 "rate_window" and
// 1 "clip_window" of the primary options, 2 "common_window" (the rate
// window of the common-window options). A window equal to an earlier one
// (by default common = rate) is computed once: source[w] is the first
// window with the same (rate_floor, rate_ceiling), and Distinct() lists the
// windows to compute.
struct ExactWindows {
  std::vector<std::string> names;
  std::vector<EpsilonStarOptions> options;
  std::vector<size_t> source;
  std::vector<size_t> Distinct() const;
};
ExactWindows MakeExactWindows(const EpsilonStarOptions& primary, const EpsilonStarOptions& common);

// The exact Epsilon* of train against each of `populations` on every window:
// [window][population]. Each distinct window is computed once (a window
// equal to an earlier one gets its values); the (population, window) jobs
// run on `threads` threads with a progress line labelled `label`.
Result<std::vector<std::vector<double>>> ExactReferences(const GammaLoss& train,
                                                         const std::vector<GammaLoss>& populations,
                                                         const ExactWindows& windows, int threads,
                                                         bool quiet, const std::string& label);

// Index into ExactWindows of the reference of `estimator` in analysis
// `analysis` (0 primary: the estimator's own window; 1 common: window 2).
size_t ReferenceWindow(size_t analysis, std::string_view estimator);

// The window `estimator` reads in analysis `analysis` (the common-window
// analysis sets both windows equal, so its rate window stands for both).
EpsilonStarWindow AnalysisWindow(size_t analysis, std::string_view estimator);

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SIM_WINDOWS_H_
