// How much each loss transform of study C4 (Negoescu et al., "Epsilon*",
// PPAI-24, App. B.2, Fig. 6; README.md) changes the shape of the
// losses it is fitted to: Pearson's correlation of the transformed with the
// raw per-example losses, and the sample skewness before and after.
//   App. B (as restored: normalise with the joint min and max of training
//     and population losses, add 1, exp(-x), logit; loss_transform.h
//     kEpsilonStarLogit): on Adult losses it is almost affine (correlation
//     with the raw loss about -0.999), so a Normal fitted after it is a
//     Normal fitted to the raw, right-skewed cross-entropy losses;
//   Carlini et al.'s logit(exp(-loss)) (kCarliniLogit), without the joint
//     normalisation: strongly non-linear near loss 0, it removes the skew.
#ifndef PRIVBENCH_EXPERIMENTS_EPSILON_STAR_GOF_TRANSFORM_SHAPE_H_
#define PRIVBENCH_EXPERIMENTS_EPSILON_STAR_GOF_TRANSFORM_SHAPE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "results/h5_file.h"

namespace privbench::epsilon_star_gof {

// The moment coefficient of skewness g1 = m3 / m2^(3/2) (NaN for fewer than
// 3 values or zero variance).
double SampleSkewness(const std::vector<double>& x);

// One loss sample (a model's training or population losses).
struct TransformShape {
  double skew_raw = 0.0, skew_app_b = 0.0, skew_carlini = 0.0;
  double corr_app_b = 0.0, corr_carlini = 0.0;  // with the raw losses
};

// Both transforms fitted on (train, population) as the study fits them;
// [0] = training losses, [1] = population losses.
Result<std::vector<TransformShape>> MeasureTransformShape(const std::vector<double>& train,
                                                          const std::vector<double>& population);

// One row per (model, loss set, repetition) and its labels.
struct TransformShapeRow {
  std::string model, loss_set;
  int64_t repetition = 0;
  TransformShape shape;
};
// Table "transform_shape" (every row) and the means over repetitions per
// (model, loss set) under /numbers/transform_shape_<model>_<set>_<field>.
Status WriteTransformShape(const std::vector<TransformShapeRow>& rows,
                           const std::string& dataset_label, ResultWriter& out);

}  // namespace privbench::epsilon_star_gof

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_GOF_TRANSFORM_SHAPE_H_
