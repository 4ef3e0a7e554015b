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

Status WriteResults(const Config& c, const ResponseCounts& r, ResultWriter& out);

}  // namespace privbench::example_study

#endif  // PRIVBENCH_TESTS_EXAMPLE_STUDY_REPORT_H_
