// The output of the example study: /counts, /numbers/empirical_epsilon
// (checked by verify against claims.json) and the claim that the estimate
// lies within four standard errors of eps. The claim's statement and source
// come from claims.json; this code supplies only holds and the evidence.
#ifndef PRIVBENCH_TESTS_EXAMPLE_STUDY_REPORT_H_
#define PRIVBENCH_TESTS_EXAMPLE_STUDY_REPORT_H_

#include "core/result.h"
#include "results/h5_file.h"
#include "tests/example_study/compute.h"
#include "tests/example_study/config.h"

namespace privbench::example_study {

// What the computation hands the report (every study's report.h names its
// own Config and Results and declares this one entry point).
using Results = ResponseCounts;

Status WriteReport(const Config& config, const Results& results, ResultWriter& out);

}  // namespace privbench::example_study

#endif  // PRIVBENCH_TESTS_EXAMPLE_STUDY_REPORT_H_
