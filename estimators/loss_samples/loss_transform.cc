#include "estimators/loss_samples/loss_transform.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/validate.h"

namespace privbench {

std::string_view LossTransformName(LossTransform transform) {
  switch (transform) {
    case LossTransform::kIdentity:
      return "identity";
    case LossTransform::kEpsilonStarLogit:
      return "epsilon_star_logit";
    case LossTransform::kCarliniLogit:
      return "carlini_logit";
  }
  return "invalid";
}

namespace {

constexpr char kTransformChoices[] = "identity, epsilon_star_logit or carlini_logit";

// Cross-entropy losses for kCarliniLogit: the error names the element.
Status CheckNonNegative(const char* name, const std::vector<double>& losses) {
  for (size_t i = 0; i < losses.size(); ++i) {
    if (!(losses[i] >= 0.0)) {
      return Error(std::string(name) + "[" + std::to_string(i) +
                   "] must be >= 0 for transform carlini_logit (a cross-entropy loss), got " +
                   FormatDouble(losses[i]));
    }
  }
  return Status::Ok();
}

}  // namespace

Result<LossTransform> ParseLossTransform(std::string_view name) {
  for (LossTransform t : kAllLossTransforms) {
    if (LossTransformName(t) == name) return t;
  }
  return Error(std::string("transform must be ") + kTransformChoices + ", got '" +
               std::string(name) + "'");
}

Status CheckLossTransform(LossTransform transform) {
  for (LossTransform t : kAllLossTransforms) {
    if (t == transform) return Status::Ok();
  }
  return Error(std::string("transform must be ") + kTransformChoices + ", got enum value " +
               std::to_string(static_cast<int>(transform)));
}

Result<LossTransformMap> LossTransformMap::Fit(LossTransform transform,
                                               const std::vector<double>& train_losses,
                                               const std::vector<double>& population_losses) {
  PB_RETURN_IF_ERROR(CheckLossTransform(transform));
  PB_RETURN_IF_ERROR(CheckFiniteSamples("train_losses", train_losses));
  PB_RETURN_IF_ERROR(CheckFiniteSamples("population_losses", population_losses));
  if (transform == LossTransform::kCarliniLogit) {
    PB_RETURN_IF_ERROR(CheckNonNegative("train_losses", train_losses));
    PB_RETURN_IF_ERROR(CheckNonNegative("population_losses", population_losses));
  }
  const auto [tmin, tmax] = std::minmax_element(train_losses.begin(), train_losses.end());
  const auto [pmin, pmax] = std::minmax_element(population_losses.begin(), population_losses.end());
  return LossTransformMap(transform, std::min(*tmin, *pmin), std::max(*tmax, *pmax));
}

double LossTransformMap::Apply(double loss) const {
  if (transform_ == LossTransform::kIdentity) return loss;
  if (transform_ == LossTransform::kCarliniLogit) {
    const double l = std::max(loss, kMinCarliniLoss);
    return -l - std::log(-std::expm1(-l));  // logit(exp(-l))
  }
  // Step 1, computed on halves so that max - min cannot overflow for
  // finite losses of opposite sign near DBL_MAX (halving is exact for
  // normal numbers). The degenerate range max == min maps every loss to 0.
  const double half_range = 0.5 * max_ - 0.5 * min_;
  const double x = half_range > 0.0 ? (0.5 * loss - 0.5 * min_) / half_range : 0.0;
  const double u = x + 1.0;               // step 2
  return -u - std::log(-std::expm1(-u));  // steps 3-4: logit(exp(-u))
}

Result<TransformedLosses> ApplyLossTransform(LossTransform transform,
                                             const std::vector<double>& train_losses,
                                             const std::vector<double>& population_losses) {
  PB_ASSIGN_OR_RETURN(LossTransformMap map,
                      LossTransformMap::Fit(transform, train_losses, population_losses));
  TransformedLosses out;
  out.decreasing = map.decreasing();
  out.train.reserve(train_losses.size());
  out.population.reserve(population_losses.size());
  for (double l : train_losses) out.train.push_back(map.Apply(l));
  for (double l : population_losses) out.population.push_back(map.Apply(l));
  if (transform == LossTransform::kCarliniLogit) {
    for (const auto* sample : {&train_losses, &population_losses}) {
      out.clamped += std::count_if(sample->begin(), sample->end(),
                                   [](double l) { return l < kMinCarliniLoss; });
    }
  }
  return out;
}

}  // namespace privbench
