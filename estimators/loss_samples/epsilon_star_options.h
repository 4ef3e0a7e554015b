// Epsilon* (Negoescu et al., "Epsilon*: Privacy Metric for Machine Learning
// Models", PPAI-24): definition, options shared by all its variants, and
// the running maximum every variant uses.
//
// Definition 2 / Eq. 7 (restored in docs/studies.md A6; the extraction lost the
// formula). The membership test flags "member" when loss <= tau. Over
// thresholds tau_i,
//   FPR_i = P_population(loss <= tau_i)    (Eq. 5: tau_i is the alpha_i
//                                           quantile of the population /
//                                           non-training losses, FPR_i = alpha_i)
//   FNR_i = P_train(loss > tau_i)          (Eq. 6)
//   Epsilon* = max_i log max{ 1, (1-delta-FPR_i)/FNR_i, (1-delta-FNR_i)/FPR_i }.
// Only the two "better than chance" constraints of Theorem 3 enter (the
// worse-than-chance ones, Eqs. 12-13, are not part of Definition 2; compare
// estimators/eps_from_rates.h, which has all four). Epsilon* >= 0 always.
//
// Thresholds (App. B.1): "1 million equally spaced quantiles of the training
// distribution and 1 million equally spaced quantiles of the non-training
// distribution", i.e. 2 million points. We use the m interior levels
//   alpha_k = k / (m + 1),  k = 1..m,   m = quantiles_per_distribution,
// of each distribution (levels 0 and 1 would give infinite quantiles for
// the parametric and exact variants). For a population threshold FPR = alpha_k
// exactly; for a train threshold FNR = 1 - alpha_k exactly.
//
// Rate windows: "for numerical stability, we remove FNR and FPR values
// outside the interval (0.001, 0.999) for the empirical Epsilon* and outside
// the interval [lost in extraction] for the parametric Epsilon*" (App. B.1;
// footnote 2 of Sec. 3.1). A threshold enters the maximum only if BOTH of its
// rates lie in the window; if none does, Epsilon* = 0 (the "1" term).
//   empirical, exact: open window (rate_floor, rate_ceiling), default
//                     (0.001, 0.999) from the paper;
//   parametric:       closed window [clip_lo, clip_hi], default
//                     [1e-6, 1 - 1e-6] (our choice, docs/studies.md A6: the value
//                     was lost; report it with every result).
// Rules (ours; the messages name the argument): the window must contain 1/2
// (rates near 0 and near 1 are both noisy, since the numerators are 1 - rate;
// a window that excludes 1/2 trims the centre, which is never noisy):
//   rate_floor in [0, 0.5), rate_ceiling in (0.5, 1],
//   clip_lo in (0, 0.5), clip_hi in (0.5, 1).
// The parametric window is closed and excludes 0 and 1 because its rates are
// continuous functions of the threshold and the supremum sits on the window
// boundary (see parametric.h).
#ifndef PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_EPSILON_STAR_OPTIONS_H_
#define PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_EPSILON_STAR_OPTIONS_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "core/result.h"
#include "estimators/loss_samples/loss_transform.h"

namespace privbench {

struct EpsilonStarOptions {
  // The delta of Definitions 1-2, in [0, 1). The paper recommends delta < 1/n
  // for n training records.
  double delta = 0.0;
  // m: equally spaced quantile levels per distribution (2m thresholds in
  // all), in [1, 1e8] (kMaxQuantilesPerDistribution). Paper: 10^6.
  int64_t quantiles_per_distribution = 1000000;
  // Empirical and exact variants: keep thresholds with both rates in the
  // OPEN interval (rate_floor, rate_ceiling). Paper: (0.001, 0.999).
  double rate_floor = 0.001;
  double rate_ceiling = 0.999;
  // Parametric variant: keep thresholds with both rates in the CLOSED
  // interval [clip_lo, clip_hi]; 0 < clip_lo < 0.5 < clip_hi < 1. The paper
  // lost the value; default per docs/studies.md A6.
  double clip_lo = 1e-6;
  double clip_hi = 1.0 - 1e-6;
  // Parametric variant only: monotone transform applied before the fit.
  LossTransform transform = LossTransform::kEpsilonStarLogit;
};

// Validates every field (each variant validates the whole struct, used
// fields or not, so that a bad configuration fails the same way everywhere).
Status ValidateEpsilonStarOptions(const EpsilonStarOptions& options);

// "delta=0 quantiles_per_distribution=1000000 rate_floor=0.001 ..." for
// result-file metadata and error messages.
std::string EpsilonStarOptionsText(const EpsilonStarOptions& options);

// Upper limit of quantiles_per_distribution: the work bound (the parametric
// variant evaluates 2m thresholds, ~6 s at 1e8 where 1e9 took 61 s); it
// also keeps the k * n products of the grid index arithmetic inside int64
// for any sample that fits in memory.
inline constexpr int64_t kMaxQuantilesPerDistribution = 100000000;

// The parametric variant's own, tighter work bound: it evaluates 2m normal
// quantile thresholds at ~0.1-0.2 us each, so 1e8 took 6-21 s per request
// (machine-dependent) and 1e7 takes ~0.6-2 s. The paper uses 1e6.
inline constexpr int64_t kMaxParametricQuantilesPerDistribution = 10000000;

// Running maximum of the two ratio terms of Eq. 7.
class EpsilonStarMax {
 public:
  explicit EpsilonStarMax(double delta) : delta_(delta) {}

  // One threshold. Rates must be > 0; the complements 1 - FPR and 1 - FNR
  // are passed separately so that callers can supply them without
  // cancellation (e.g. from a survival function or an exact count).
  void Add(double fpr, double one_minus_fpr, double fnr, double one_minus_fnr) {
    const double term1 = (one_minus_fpr - delta_) / fnr;
    const double term2 = (one_minus_fnr - delta_) / fpr;
    best_ = std::max(best_, std::max(term1, term2));
    ++count_;
  }
  // max{1, terms seen so far}.
  double best_ratio() const { return best_; }
  // log(best_ratio()) >= 0.
  double Value() const { return std::log(best_); }
  // Number of thresholds added.
  int64_t count() const { return count_; }

 private:
  double delta_;
  double best_ = 1.0;
  int64_t count_ = 0;
};

// alpha_k = k / (m + 1).
inline double QuantileLevel(int64_t k, int64_t m) {
  return static_cast<double>(k) / static_cast<double>(m + 1);
}
// 1 - alpha_k = (m + 1 - k) / (m + 1), without cancellation.
inline double QuantileLevelComplement(int64_t k, int64_t m) {
  return static_cast<double>(m + 1 - k) / static_cast<double>(m + 1);
}

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_EPSILON_STAR_OPTIONS_H_
