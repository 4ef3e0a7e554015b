// Study katz_coverage (README.md): is the Katz-log bound on a ratio
// of binomial proportions better than a Clopper-Pearson ratio bound?
//
//   bazel run //experiments/katz_coverage [-- --scale=paper --trials=20000
//       --p1=0.5,0.9 --p0=0.05,0.1 --n=100,1000 --alpha=0.05]
//
// ML-Audit (Lu et al., NeurIPS 2022) Sec. 4.2, point 3: "All previous
// auditing works use Clopper-Pearson intervals for p1^ and p0^ to determine
// the lower bound. This method is highly suboptimal because it separately
// bounds the numerator and denominator. We identify instead the Katz-log
// confidence interval to directly bound the ratio of binomial proportions
// [...], see Lemma A.3. This has far better coverage properties in our
// simulations, as shown in the Appendix." The appendix (Lemma A.3 and the
// simulations) is not in our text of the paper, so the simulation design
// is ours (/meta lost_parameters).
//
// For each true (p1, p0) = (P[M(D) in S], P[M(D') in S]) and N samples per
// side, `trials` repetitions draw n1 ~ Bin(N, p1), n0 ~ Bin(N, p0) (seed
// DeriveSeed(seed, {setting, trial})) and compute four lower bounds on the
// target log(p1/p0) (the eps lower bound at delta = 0; ML-Audit Sec. 4 sets
// delta = 0, and the Katz interval has no delta, so this study has no delta
// parameter). Methods and coverage definitions: compute.h and
// experiments/lib/coverage/coverage_run.h.
// The study's main comparison is katz_log (ML-Audit's Eps_LB, one-sided level
// 1 - alpha/2) against clopper_pearson_ratio (the prior-work union bound,
// level >= 1 - alpha); katz_log_one_sided and clopper_pearson_ratio_strict
// give like-for-like pairs at the same nominal level.
//
// Output (results/raw/katz_coverage.h5) and claims: report.h.
#include <string>
#include <vector>

#include "experiments/katz_coverage/compute.h"
#include "experiments/katz_coverage/config.h"
#include "experiments/katz_coverage/report.h"
#include "experiments/lib/framework/study.h"

namespace privbench::katz_coverage {
namespace {

Config Defaults(Scale scale) {
  Config c;
  for (const RatioPair& p : DefaultRatioPairs()) {
    c.p1.push_back(p.p1);
    c.p0.push_back(p.p0);
  }
  c.n = DefaultSamplesPerSide();
  switch (scale) {
    case Scale::kQuick:
      c.trials = 5000;
      break;
    case Scale::kPaper:
      c.trials = 50000;
      break;
    case Scale::kTest:
      c.n = {100, 1000};
      c.trials = 200;
      break;
  }
  return c;
}

void RegisterFlags(FlagSet& flags, Config& c) {
  flags.AddDoubleList("p1", &c.p1, "true P[M(D) in S], paired with --p0 by position")
      .NonEmpty()
      .Above(0)
      .Max(1)
      .PairedWith("p0");
  flags.AddDoubleList("p0", &c.p0, "true P[M(D') in S], paired with --p1 by position")
      .NonEmpty()
      .Above(0)
      .Max(1);
  flags.AddIntList("n", &c.n, "Monte-Carlo samples per side (N)").NonEmpty().Range(1, 2e9);
  flags.AddInt("trials", &c.trials, "repetitions per (pair, N) setting").Min(1);
  flags
      .AddDouble("alpha", &c.alpha,
                 "significance: katz_log is the lower end of a two-sided 1-alpha interval")
      .OpenRange(0, 1);
}

// The one rule the flags cannot state: p1 and p0 are paired.
Status Validate(const Config& c) {
  if (c.p0.size() != c.p1.size()) {
    return Error("p0 must have as many entries as p1 (" + std::to_string(c.p1.size()) + "), got " +
                 std::to_string(c.p0.size()));
  }
  return Status::Ok();
}

Status Run(const Config& c, StudyContext& ctx) {
  PB_ASSIGN_OR_RETURN(const Results r,
                      ComputeRatioCoverage(c, ctx.seed(), ctx.threads(), ctx.quiet()));
  return WriteReport(c, r, ctx.out());
}

}  // namespace
}  // namespace privbench::katz_coverage

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::katz_coverage;
  Study<Config> study;
  study.info = {"katz_coverage",
                "Lu et al., A General Framework for Auditing Differentially Private Machine "
                "Learning (ML-Audit, NeurIPS 2022)",
                "Sec. 4.2 point 3, Lemma A.3; experiments/katz_coverage/README.md",
                "Coverage and tightness of Katz-log vs Clopper-Pearson bounds on log(p1/p0)"};
  study.defaults = Defaults;
  study.register_flags = RegisterFlags;
  study.validate = Validate;
  study.run = Run;
  return RunStudyMain(study, argc, argv);
}
