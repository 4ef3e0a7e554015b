// The example study of the README's "Adding a study": randomized response on
// one bit, its empirical epsilon against the eps it was run at. It lives in
// a test package and is built with privbench_study like every study, so its
// :results_test proves that a study made this way reaches figures, tables,
// verify and the report page with no edit outside its folder.
//
//   bazel run //tests/example_study -- --scale=test --output_dir=/tmp/x
#include "core/flags.h"
#include "experiments/lib/framework/study.h"
#include "tests/example_study/compute.h"
#include "tests/example_study/config.h"
#include "tests/example_study/report.h"

namespace privbench::example_study {
namespace {

Config Defaults(Scale scale) {
  Config c;
  if (scale == Scale::kTest) c.trials = 20000;
  return c;
}

void RegisterFlags(FlagSet& f, Config& c) {
  f.AddDouble("eps", &c.eps, "epsilon of the randomized response").Above(0).Finite();
  f.AddInt("trials", &c.trials, "releases per input bit").Min(100);
}

Status Validate(const Config&) { return Status::Ok(); }

Status Run(const Config& c, StudyContext& ctx) {
  return WriteReport(c, SimulateRandomizedResponse(c, ctx.seed()), ctx.out());
}

}  // namespace
}  // namespace privbench::example_study

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::example_study;
  Study<Config> study;
  study.info = {"example_study", "Dwork & Roth, The Algorithmic Foundations of DP (2014)",
                "Sec. 3.2", "Randomized response on one bit: empirical epsilon vs eps"};
  study.defaults = Defaults;
  study.register_flags = RegisterFlags;
  study.validate = Validate;
  study.run = Run;
  return RunStudyMain(study, argc, argv);
}
