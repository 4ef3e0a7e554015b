#include "experiments/lib/coverage/coverage_report.h"

#include <algorithm>

namespace privbench {

ClassCounts CountClasses(const std::vector<CoverageClass>& classes) {
  ClassCounts counts;
  for (CoverageClass c : classes) {
    counts.under += c == CoverageClass::kUnder;
    counts.near += c == CoverageClass::kNear;
    counts.over += c == CoverageClass::kOver;
  }
  return counts;
}

bool OverCoversMost(const ClassCounts& counts) {
  return counts.under == 0 && 2 * counts.over > counts.total();
}

std::vector<std::string> CoverageClassNames(const std::vector<CoverageClass>& classes) {
  std::vector<std::string> names;
  for (CoverageClass c : classes) names.push_back(CoverageClassName(c));
  return names;
}

MethodNumbers CountMethodNumbers(const std::vector<double>& coverage,
                                 const std::vector<CoverageClass>& classes) {
  MethodNumbers numbers;
  for (double c : coverage) numbers.min_coverage = std::min(numbers.min_coverage, c);
  numbers.settings_under = CountClasses(classes).under;
  return numbers;
}

Status WriteMethodNumbers(ResultWriter& out, const std::string& prefix,
                          const MethodNumbers& numbers) {
  PB_RETURN_IF_ERROR(out.WriteScalar(prefix + "_min_coverage", numbers.min_coverage));
  return out.WriteScalar(prefix + "_settings_under", static_cast<double>(numbers.settings_under));
}

void Separate(Evidence& list) {
  if (!list.str().empty()) list << "; ";
}

void AppendCoverage(Evidence& list, const std::string& label, double coverage,
                    CoverageClass coverage_class) {
  Separate(list);
  list << label << " " << coverage << " (" << CoverageClassName(coverage_class) << ")";
}

}  // namespace privbench
