// Monotone loss transforms applied before the parametric Epsilon* fit
// (Negoescu et al., "Epsilon*: Privacy Metric for Machine Learning Models",
// PPAI-24, Appendix B "Parametric Epsilon*", steps 1-4; docs/studies.md A6, C4).
//
// kEpsilonStarLogit (App. B), applied to the train and population losses
// JOINTLY, i.e. with one min and one max over both samples:
//   1. x = (loss - min) / (max - min)            in [0, 1]
//   2. u = x + 1                                  in [1, 2]   ("add 1")
//   3. p = exp(-u)                                in [e^-2, e^-1]
//   4. y = logit(p) = log(p / (1 - p)) = -u - log(-expm1(-u))
// so y ranges over [logit(e^-2), logit(e^-1)] = [-1.8546, -0.5413]. The map
// is strictly DECREASING in the loss: the membership test "loss <= tau"
// becomes "y >= tau'". Because of step 1 it is invariant to any affine
// rescaling a*loss + b with a > 0 of all losses. Degenerate case
// max == min (all losses equal): x is defined as 0 for every loss, so every
// transformed value is logit(e^-1).
// (Carlini et al. 2022 apply the logit to p = exp(-loss) without step 1;
// the paper's normalisation makes the map close to affine.)
//
// kCarliniLogit (Carlini et al. 2022, "Membership inference attacks from
// first principles", Sec. 4.3): the logit of the model's confidence in the
// true label, p = exp(-loss), WITHOUT the App. B normalisation:
//   y = log(p / (1 - p)) = -loss - log(-expm1(-loss)),
// strictly DECREASING in the loss and value by value (no fitted
// constants). Defined for cross-entropy losses: every loss must be >= 0. A
// loss below kMinCarliniLoss (0 in particular: p = 1 maps to +inf) is
// clamped to kMinCarliniLoss and counted (TransformedLosses::clamped). The
// goodness-of-fit study C4 found this transform, not App. B's, to behave as
// the Epsilon* paper's Fig. 6 describes.
//
// kIdentity: y = loss (increasing).
#ifndef PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_LOSS_TRANSFORM_H_
#define PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_LOSS_TRANSFORM_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace privbench {

enum class LossTransform { kIdentity, kEpsilonStarLogit, kCarliniLogit };
inline constexpr LossTransform kAllLossTransforms[] = {
    LossTransform::kIdentity, LossTransform::kEpsilonStarLogit, LossTransform::kCarliniLogit};

// kCarliniLogit's smallest loss: logit(exp(-1e-300)) = 690.8.
inline constexpr double kMinCarliniLoss = 1e-300;

// "identity", "epsilon_star_logit" or "carlini_logit" ("invalid" for an
// out-of-range enum).
std::string_view LossTransformName(LossTransform transform);
// Inverse of LossTransformName; the error names the argument "transform".
Result<LossTransform> ParseLossTransform(std::string_view name);
// Error unless `transform` is one of the enumerators.
Status CheckLossTransform(LossTransform transform);

// A transform with its data-dependent constants (the joint min and max)
// fixed, so that it can be applied value by value without allocation.
class LossTransformMap {
 public:
  // Fixes min and max over BOTH samples. Validates the transform and that
  // both samples are non-empty and finite, and for kCarliniLogit >= 0
  // (messages name "train_losses" / "population_losses").
  static Result<LossTransformMap> Fit(LossTransform transform,
                                      const std::vector<double>& train_losses,
                                      const std::vector<double>& population_losses);

  LossTransform transform() const { return transform_; }
  // True if the map reverses order (the two logit transforms).
  bool decreasing() const { return transform_ != LossTransform::kIdentity; }
  double min() const { return min_; }
  double max() const { return max_; }

  // The transformed value. Precondition: loss in [min(), max()] (values
  // outside extrapolate steps 1-4, which are defined while x > -1).
  double Apply(double loss) const;

 private:
  LossTransformMap(LossTransform t, double lo, double hi) : transform_(t), min_(lo), max_(hi) {}
  LossTransform transform_;
  double min_, max_;
};

struct TransformedLosses {
  std::vector<double> train;
  std::vector<double> population;
  bool decreasing = false;  // true: "loss <= tau" became "value >= tau'"
  int64_t clamped = 0;      // kCarliniLogit: losses below kMinCarliniLoss, both samples
};

// Fits the map on both samples and applies it to each (for studies such as
// the goodness-of-fit study C4 that need the transformed values).
Result<TransformedLosses> ApplyLossTransform(LossTransform transform,
                                             const std::vector<double>& train_losses,
                                             const std::vector<double>& population_losses);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_LOSS_TRANSFORM_H_
