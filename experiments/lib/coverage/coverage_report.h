// What the coverage studies' reports share: per method and setting, the
// coverage, its standard error and its class (coverage_class.h) written the
// same way; the class counts behind their verdicts; the headline numbers
// /numbers/<study>_<method>_{min_coverage,settings_under}; and the evidence
// text of a list of settings.
#ifndef PRIVBENCH_EXPERIMENTS_LIB_COVERAGE_COVERAGE_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_LIB_COVERAGE_COVERAGE_REPORT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/lib/coverage/coverage_class.h"
#include "results/evidence.h"
#include "results/h5_file.h"

namespace privbench {

// One numeric field of every setting's statistics, in setting order.
template <class Stats>
std::vector<double> StatField(const std::vector<Stats>& stats, double Stats::*field) {
  std::vector<double> v;
  for (const Stats& st : stats) v.push_back(st.*field);
  return v;
}

// Position of every method by its name.
template <class Method>
std::map<std::string, size_t> IndexByName(const std::vector<Method>& methods) {
  std::map<std::string, size_t> index;
  for (size_t m = 0; m < methods.size(); ++m) index[methods[m].name] = m;
  return index;
}

// How many settings fall in each coverage class.
struct ClassCounts {
  int64_t under = 0, near = 0, over = 0;
  int64_t total() const { return under + near + over; }
};
ClassCounts CountClasses(const std::vector<CoverageClass>& classes);

// The verdict on a conservative method: under in no setting, over in more
// than half of them.
bool OverCoversMost(const ClassCounts& counts);

// "under" / "near" / "over" per setting.
std::vector<std::string> CoverageClassNames(const std::vector<CoverageClass>& classes);

// A method's headline numbers: its minimum coverage over the settings and
// the number of settings classed "under".
struct MethodNumbers {
  double min_coverage = 1.0;
  int64_t settings_under = 0;
};
MethodNumbers CountMethodNumbers(const std::vector<double>& coverage,
                                 const std::vector<CoverageClass>& classes);

// Writes <prefix>_min_coverage and <prefix>_settings_under (as doubles).
Status WriteMethodNumbers(ResultWriter& out, const std::string& prefix,
                          const MethodNumbers& numbers);

// Writes <group>/coverage, <group>/coverage_se and <group>/coverage_class,
// one entry per setting; Stats has the fields coverage and se.
template <class Stats>
Status WriteGradedCoverage(ResultWriter& out, const std::string& group,
                           const std::vector<Stats>& stats,
                           const std::vector<CoverageClass>& classes) {
  PB_RETURN_IF_ERROR(out.WriteDoubles(group + "/coverage", StatField(stats, &Stats::coverage)));
  PB_RETURN_IF_ERROR(out.WriteDoubles(group + "/coverage_se", StatField(stats, &Stats::se)));
  return out.WriteStrings(group + "/coverage_class", CoverageClassNames(classes));
}

// Starts the next item of an evidence list: "; " unless the list is empty.
void Separate(Evidence& list);

// Appends "<label> <coverage> (<class>)" as the next item of `list`.
void AppendCoverage(Evidence& list, const std::string& label, double coverage,
                    CoverageClass coverage_class);

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIB_COVERAGE_COVERAGE_REPORT_H_
