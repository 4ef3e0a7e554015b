// Study ml_audit_dpsgd (docs/studies.md D2): ML-Audit (Lu et al., "A General
// Framework for Auditing Differentially Private Machine Learning", NeurIPS
// 2022, Sec. 5) against DP-SGD on two Fashion-MNIST classes.
//
// First step: the detection ceiling ln N - z_{alpha/2} sqrt(1 - 1/N)
// (ML-Audit Corollary 4.0.1) of every claimed eps_th at N draws per side.
#include <cstdint>
#include <vector>

#include "core/result.h"
#include "estimators/intervals/katz_log.h"
#include "experiments/framework/study.h"

namespace privbench {
namespace {

struct Config {
  std::vector<double> eps;
  int64_t n = 100;
  double alpha = 0.05;
};

Config Defaults(Scale scale) {
  Config c;
  c.eps = {1, 4, 16};
  if (scale == Scale::kPaper) c.n = 500;
  if (scale == Scale::kTest) c.n = 20;
  return c;
}

void RegisterFlags(FlagSet& flags, Config& c) {
  flags.AddDoubleList("eps", &c.eps, "claimed eps_th of DP-SGD").NonEmpty().Above(0).Finite();
  flags.AddInt("n", &c.n, "N: models per side").Range(2, 1e7);
  flags.AddDouble("alpha", &c.alpha, "Katz-log significance (z_{alpha/2})").OpenRange(0, 1);
}

Status Validate(const Config&) { return Status::Ok(); }

Status Run(const Config& c, StudyContext& ctx) {
  PB_ASSIGN_OR_RETURN(double ceiling, KatzLogCeiling(c.n, c.alpha));
  PB_RETURN_IF_ERROR(ctx.out().WriteDoubles("/eps_th", c.eps));
  return ctx.out().WriteScalar("/detection_ceiling", ceiling);
}

}  // namespace
}  // namespace privbench

int main(int argc, char** argv) {
  using namespace privbench;
  Study<Config> study;
  study.info = {"ml_audit_dpsgd",
                "Lu et al., A General Framework for Auditing Differentially Private Machine "
                "Learning (ML-Audit, NeurIPS 2022)",
                "Sec. 5 (DP-SGD); docs/studies.md D2",
                "ML-Audit of DP-SGD on Fashion-MNIST with ClipBKD and shadow poisoning"};
  study.defaults = Defaults;
  study.register_flags = RegisterFlags;
  study.validate = Validate;
  study.run = Run;
  return RunStudyMain(study, argc, argv);
}
