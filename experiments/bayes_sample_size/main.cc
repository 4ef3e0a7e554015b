// Study bayes_sample_size: interval endpoints against the number of samples
// (Zanella-Béguelin et al., "Bayesian Estimation of Differential Privacy",
// ICML 2023, Sec. 3.4 "Varying Number of Samples", Fig. 4; README.md
// (B4)).
//
//   bazel run //experiments/bayes_sample_size [-- --scale=test --fpr=0.3 ...]
//
// An attack with FPR = FNR = 0.4 observed on n trials (expected counts, no
// sampling); every registered interval estimator at every even n, and the
// samples needed for an estimate within +-0.15 (compute.h). Output:
// report.h. The quick and paper grids are every even n (step 2), so the
// answer is exact to the sample.
#include <string>
#include <vector>

#include "core/progress.h"
#include "experiments/bayes_sample_size/compute.h"
#include "experiments/bayes_sample_size/config.h"
#include "experiments/bayes_sample_size/report.h"
#include "experiments/lib/framework/study.h"

namespace privbench::bayes_sample_size {
namespace {

Config Defaults(Scale scale) {
  Config c;
  if (scale == Scale::kTest) {
    // Tiny: the Bayesian method needs ~560 and CP ~1500 samples, so the
    // test grid reaches past both with few points.
    c.n_min = 100;
    c.n_max = 2000;
    c.n_step = 100;
  }
  // quick = paper: every even n from 100 to 3000 costs ~10 s on 2 cores.
  return c;
}

void RegisterFlags(FlagSet& f, Config& c) {
  f.AddDouble("fpr", &c.fpr, "false positive rate of the hypothetical attack").Probability();
  f.AddDouble("fnr", &c.fnr, "false negative rate of the hypothetical attack").Probability();
  f.AddDouble("alpha", &c.alpha, "significance: intervals at confidence 1 - alpha").OpenRange(0, 1);
  f.AddDouble("delta", &c.delta, "DP delta (methods defined only at delta = 0 run at 0)")
      .Min(0)
      .Below(1);
  f.AddInt("n_min", &c.n_min, "smallest total number of samples (even; n/2 per class)").Min(2);
  f.AddInt("n_max", &c.n_max, "largest total number of samples");
  f.AddInt("n_step", &c.n_step, "grid step in total samples (even)").Min(2);
  f.AddDouble("target_half_width", &c.target_half_width,
              "half-width h of the target estimate eps +- h (width <= 2h)")
      .Above(0)
      .Finite();
}

// Evenness (not expressible as a flag constraint) and the grid's extent.
Status Validate(const Config& c) {
  if (c.n_min % 2 != 0) return Error("n_min must be even, got " + std::to_string(c.n_min));
  if (c.n_step % 2 != 0) return Error("n_step must be even, got " + std::to_string(c.n_step));
  if (c.n_max < c.n_min) {
    return Error("n_max must be >= n_min (" + std::to_string(c.n_min) + "), got " +
                 std::to_string(c.n_max));
  }
  if ((c.n_max - c.n_min) / c.n_step + 1 > 1000000) {
    return Error("n_step must give at most 1e6 grid points, got " +
                 std::to_string((c.n_max - c.n_min) / c.n_step + 1));
  }
  return Status::Ok();
}

Status Run(const Config& c, StudyContext& ctx) {
  const std::vector<int64_t> n = SampleSizeGrid(c);
  ProgressReporter progress("bayes_sample_size", static_cast<int64_t>(n.size()), ctx.quiet());
  PB_ASSIGN_OR_RETURN(SampleSizeCurves curves,
                      ComputeSampleSizeCurves(c, n, ctx.threads(), &progress));
  progress.Finish();
  return WriteReport(c, curves, ctx.out());
}

}  // namespace
}  // namespace privbench::bayes_sample_size

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::bayes_sample_size;
  Study<Config> study;
  study.info = {"bayes_sample_size",
                "Zanella-Beguelin et al., Bayesian Estimation of Differential Privacy (ICML 2023)",
                "Sec. 3.4, Fig. 4",
                "Interval endpoints of every registered estimator against the number of samples "
                "for an attack with FPR = FNR = 0.4, and the samples needed for +-0.15"};
  study.defaults = Defaults;
  study.register_flags = RegisterFlags;
  study.validate = Validate;
  study.run = Run;
  return RunStudyMain(study, argc, argv);
}
