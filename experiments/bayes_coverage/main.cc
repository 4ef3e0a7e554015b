// Study bayes_coverage (README.md): Monte-Carlo coverage of every
// registered interval estimator's nominal 1 - alpha eps interval.
//
//   bazel run //experiments/bayes_coverage [-- --scale=paper --trials=2000
//       --fpr=0.01,0.4 --fnr=0.3,0.4 --n=200,1000 --alpha=0.1 --delta=1e-5]
//
// For each true (FPR, FNR) pair and total number of membership trials n
// (n/2 members, n/2 non-members), `trials` Monte-Carlo repetitions draw
// FN ~ Bin(n/2, FNR) and FP ~ Bin(n/2, FPR) (seed DeriveSeed(seed,
// {setting, trial})); every estimator of AllIntervalEstimatorNames() builds
// its interval; the study reports empirical coverage of the true eps
// (docs/studies.md A1 at the true rates; methods with requires_zero_delta()
// run at delta = 0 against the truth at delta = 0), its Monte-Carlo standard
// error, the two tails' miss rates, and widths (mean over finite intervals
// plus the fraction infinite). Definitions: compute.h and
// experiments/lib/coverage/coverage_run.h.
//
// The Bayesian paper (Zanella-Beguelin et al., ICML 2023) states the
// expectations checked here in Sec. 2.6, 3.2 and 3.4. It reports no coverage
// simulation: the grid, n and the number of trials are our choice
// (/meta lost_parameters).
//
// Output (results/raw/bayes_coverage.h5) and claims: report.h.
#include <string>
#include <vector>

#include "experiments/bayes_coverage/compute.h"
#include "experiments/bayes_coverage/config.h"
#include "experiments/bayes_coverage/report.h"
#include "experiments/lib/framework/study.h"

namespace privbench::bayes_coverage {
namespace {

Config Defaults(Scale scale) {
  Config c;
  for (const RatePair& p : DefaultCoverageRatePairs()) {
    c.fpr.push_back(p.fpr);
    c.fnr.push_back(p.fnr);
  }
  c.n = DefaultCoverageTrialCounts();
  switch (scale) {
    case Scale::kQuick:
      c.trials = 500;
      break;
    case Scale::kPaper:
      c.trials = 10000;
      break;
    case Scale::kTest:
      c.n = {200, 1000};
      c.trials = 12;
      break;
  }
  return c;
}

void RegisterFlags(FlagSet& flags, Config& c) {
  flags.AddDoubleList("fpr", &c.fpr, "true false-positive rates, paired with --fnr by position")
      .NonEmpty()
      .OpenRange(0, 1)
      .PairedWith("fnr");
  flags.AddDoubleList("fnr", &c.fnr, "true false-negative rates, paired with --fpr by position")
      .NonEmpty()
      .OpenRange(0, 1);
  flags.AddIntList("n", &c.n, "total membership trials per experiment (even; half members)")
      .NonEmpty()
      .Range(2, 2e9);
  flags.AddInt("trials", &c.trials, "Monte-Carlo repetitions per (pair, n) setting").Min(1);
  flags.AddDouble("alpha", &c.alpha, "significance: every interval has nominal confidence 1-alpha")
      .OpenRange(0, 1);
  flags
      .AddDouble("delta", &c.delta,
                 "delta of the eps target (methods that require delta = 0 run at 0)")
      .Min(0)
      .Below(1);
}

// Rules the flags cannot state: pairing of the rate lists, even n.
Status Validate(const Config& c) {
  if (c.fnr.size() != c.fpr.size()) {
    return Error("fnr must have as many entries as fpr (" + std::to_string(c.fpr.size()) +
                 "), got " + std::to_string(c.fnr.size()));
  }
  for (int64_t n : c.n) {
    if (n % 2 != 0) {
      return Error("n must be even (half members, half non-members), got " + std::to_string(n));
    }
  }
  return Status::Ok();
}

Status Run(const Config& c, StudyContext& ctx) {
  PB_ASSIGN_OR_RETURN(const Results r, ComputeCoverage(c, ctx.seed(), ctx.threads(), ctx.quiet()));
  return WriteReport(c, r, ctx.out());
}

}  // namespace
}  // namespace privbench::bayes_coverage

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::bayes_coverage;
  Study<Config> study;
  study.info = {"bayes_coverage",
                "Zanella-Beguelin et al., Bayesian Estimation of Differential Privacy (ICML 2023)",
                "Sec. 2.6, 3.2-3.4; experiments/bayes_coverage/README.md",
                "Monte-Carlo coverage and width of every registered eps interval estimator"};
  study.defaults = Defaults;
  study.register_flags = RegisterFlags;
  study.validate = Validate;
  study.run = Run;
  return RunStudyMain(study, argc, argv);
}
