#include "experiments/lib/coverage/coverage_class.h"

#include <cmath>

namespace privbench {

double NominalSe(double nominal, int64_t trials) {
  return std::sqrt(nominal * (1.0 - nominal) / static_cast<double>(trials));
}

double ObservedSe(double coverage, int64_t trials) {
  return std::sqrt(coverage * (1.0 - coverage) / static_cast<double>(trials));
}

CoverageClass ClassifyCoverage(double coverage, double nominal, int64_t trials,
                               double threshold_se) {
  const double band = threshold_se * NominalSe(nominal, trials);
  if (coverage < nominal - band) return CoverageClass::kUnder;
  if (coverage > nominal + band) return CoverageClass::kOver;
  return CoverageClass::kNear;
}

const char* CoverageClassName(CoverageClass c) {
  switch (c) {
    case CoverageClass::kUnder:
      return "under";
    case CoverageClass::kNear:
      return "near";
    case CoverageClass::kOver:
      return "over";
  }
  return "?";
}

}  // namespace privbench
