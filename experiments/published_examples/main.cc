// Study published_examples: every published number of the estimator library
// and the accountant table (README.md and B8), computed from the
// papers' own inputs (compute.h): the Bayesian paper's worked example,
// footnote 1 and perfect attack (Zanella-Béguelin et al., ICML 2023, Sec.
// 2.4-3.2), the privacy-estimates README example, ML-Audit Corollary 4.0.1,
// and Erlingsson et al.'s Tables 1 and 2.
//
//   bazel run //experiments/published_examples
//
// Output: report.h. The published values live only in
// experiments/published_examples/claims.json; this study never copies them.
#include "experiments/lib/framework/study.h"
#include "experiments/published_examples/compute.h"
#include "experiments/published_examples/config.h"
#include "experiments/published_examples/report.h"

namespace privbench::published_examples {
namespace {

Status Run(const Config& c, StudyContext& ctx) {
  PB_ASSIGN_OR_RETURN(const Results examples, ComputeExamples());
  return WriteReport(c, examples, ctx.out());
}

}  // namespace
}  // namespace privbench::published_examples

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::published_examples;
  Study<Config> study;
  study.info = {"published_examples",
                "Bayesian estimation of DP (Zanella-Beguelin et al. 2023); ML-Audit (Lu et al. "
                "2022); That which we call private (Erlingsson et al. 2019)",
                "Bayesian paper Sec. 2.4-3.2, ML-Audit Cor. 4.0.1, Erlingsson et al. Tables 1-2 "
                "(experiments/published_examples/README.md and B8)",
                "Every published number of the estimator library and the accountant table"};
  study.defaults = [](Scale) { return Config{}; };
  study.register_flags = [](FlagSet&, Config&) {};
  study.validate = [](const Config&) { return Status::Ok(); };
  study.run = Run;
  return RunStudyMain(study, argc, argv);
}
