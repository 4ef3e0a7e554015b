#include "experiments/epsilon_star_gof/transform_shape.h"

#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include "core/stats.h"
#include "estimators/loss_samples/loss_transform.h"
#include "results/table_builder.h"

namespace privbench::epsilon_star_gof {

double SampleSkewness(const std::vector<double>& x) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (x.size() < 3) return nan;
  double mean = 0.0;
  for (double v : x) mean += v;
  mean /= static_cast<double>(x.size());
  double m2 = 0.0, m3 = 0.0;
  for (double v : x) {
    const double d = v - mean;
    m2 += d * d;
    m3 += d * d * d;
  }
  m2 /= static_cast<double>(x.size());
  m3 /= static_cast<double>(x.size());
  return m2 > 0.0 ? m3 / std::pow(m2, 1.5) : nan;
}

Result<std::vector<TransformShape>> MeasureTransformShape(const std::vector<double>& train,
                                                          const std::vector<double>& population) {
  PB_ASSIGN_OR_RETURN(TransformedLosses app_b,
                      ApplyLossTransform(LossTransform::kEpsilonStarLogit, train, population));
  PB_ASSIGN_OR_RETURN(TransformedLosses carlini,
                      ApplyLossTransform(LossTransform::kCarliniLogit, train, population));
  std::vector<TransformShape> out(2);
  const std::vector<const std::vector<double>*> raw = {&train, &population};
  const std::vector<const std::vector<double>*> a = {&app_b.train, &app_b.population};
  const std::vector<const std::vector<double>*> c = {&carlini.train, &carlini.population};
  for (size_t s = 0; s < 2; ++s) {
    out[s].skew_raw = SampleSkewness(*raw[s]);
    out[s].skew_app_b = SampleSkewness(*a[s]);
    out[s].skew_carlini = SampleSkewness(*c[s]);
    out[s].corr_app_b = Correlation(*raw[s], *a[s]);
    out[s].corr_carlini = Correlation(*raw[s], *c[s]);
  }
  return out;
}

namespace {

const std::vector<std::pair<std::string, double TransformShape::*>>& Fields() {
  static const std::vector<std::pair<std::string, double TransformShape::*>> fields = {
      {"skew_raw", &TransformShape::skew_raw},         {"skew_app_b", &TransformShape::skew_app_b},
      {"skew_carlini", &TransformShape::skew_carlini}, {"corr_app_b", &TransformShape::corr_app_b},
      {"corr_carlini", &TransformShape::corr_carlini},
  };
  return fields;
}

}  // namespace

Status WriteTransformShape(const std::vector<TransformShapeRow>& rows,
                           const std::string& dataset_label, ResultWriter& out) {
  TableBuilder table(
      "transform_shape", "What each transform does to the losses (Epsilon* App. B.2, Fig. 6)",
      "Data: " + dataset_label +
          ". Per model and loss set: sample skewness g1 of the raw cross-entropy losses, of the "
          "App. B transform as restored (joint min/max normalisation, +1, exp(-x), logit) and "
          "of Carlini et al.'s logit(exp(-loss)) (no joint normalisation); corr_*: Pearson's "
          "correlation of each transform with the raw loss. A correlation near -1 means the "
          "transform is almost affine: a Normal fitted after it is a Normal fitted to the raw, "
          "skewed losses.",
      {{"model", Column::Type::kString},
       {"loss_set", Column::Type::kString},
       {"repetition", Column::Type::kInt},
       {"skew_raw", Column::Type::kDouble},
       {"skew_app_b", Column::Type::kDouble},
       {"skew_carlini", Column::Type::kDouble},
       {"corr_app_b", Column::Type::kDouble},
       {"corr_carlini", Column::Type::kDouble}});
  std::map<std::string, std::pair<double, int64_t>> sums;  // "<model>_<set>_<field>"
  for (const TransformShapeRow& r : rows) {
    const TransformShape& x = r.shape;
    table.Row({r.model, r.loss_set, r.repetition, x.skew_raw, x.skew_app_b, x.skew_carlini,
               x.corr_app_b, x.corr_carlini});
    for (const auto& [name, field] : Fields()) {
      auto& s = sums[r.model + "_" + r.loss_set + "_" + name];
      s.first += x.*field;
      ++s.second;
    }
  }
  for (const auto& [key, s] : sums) {
    PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/transform_shape_" + key,
                                       s.first / static_cast<double>(s.second)));
  }
  PB_ASSIGN_OR_RETURN(const SummaryTable built, table.Build());
  return out.WriteTable(built);
}

}  // namespace privbench::epsilon_star_gof
