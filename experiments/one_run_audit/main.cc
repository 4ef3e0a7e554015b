// Study one_run_audit (docs/studies.md, one_run_audit): auditing DP-SGD
// from ONE training run per eps (Steinke, Nasr & Jagielski, "Privacy
// Auditing with One (1) Training Run", NeurIPS 2023, Thm 3.1, Figs. 1-2).
//
//   bazel run //experiments/one_run_audit [-- --scale=paper]
//
// One run per target eps (noise calibrated by the RDP accountant) plus a
// non-private run; each run holds m input-space and m white-box canaries,
// each included with probability 1/2; the guess-count estimator one_run
// turns each (k+, k-) attack's correct guesses into an eps lower bound,
// compared with the rdp and pld accountants. Method: compute.h; output and
// claims (results/raw/one_run_audit.h5): report.h. Data: Adult (vendored
// UCI copy).
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/progress.h"
#include "data_scripts/adult.h"
#include "estimators/accountants/accountant.h"
#include "experiments/lib/framework/study.h"
#include "experiments/one_run_audit/compute.h"
#include "experiments/one_run_audit/config.h"
#include "experiments/one_run_audit/report.h"
#include "mechanisms/device.h"

namespace privbench {
namespace one_run_audit {
namespace {

Config Defaults(Scale scale) {
  Config c;
  c.epsilons = {1, 2, 4, 8, 16};
  c.k_plus = {10, 25, 50, 100, 50};
  c.k_minus = {10, 25, 50, 100, 0};
  switch (scale) {
    case Scale::kQuick:
      break;
    case Scale::kPaper:
      c.canaries = 1000;
      c.n_base = 10000;
      c.epochs = 20;
      c.k_plus = {10, 25, 50, 100, 200, 100};
      c.k_minus = {10, 25, 50, 100, 200, 0};
      break;
    case Scale::kTest:
      c.epsilons = {2, 8};
      c.canaries = 100;
      c.n_base = 300;
      c.batch_size = 50;
      c.epochs = 3;
      c.k_plus = {5, 10};
      c.k_minus = {5, 0};
      break;
  }
  return c;
}

void RegisterFlags(FlagSet& flags, Config& c) {
  flags
      .AddDoubleList("epsilons", &c.epsilons,
                     "target eps of the runs (RDP-calibrated noise), each in (0, 1e4] (the "
                     "noise calibration's range)")
      .Above(0)
      .Max(kMaxCalibratedEpsilon);
  flags.AddBool("nonprivate", &c.nonprivate, "also one run without DP (eps = inf)");
  flags.AddInt("canaries", &c.canaries, "m, canaries per type").Range(2, 100000);
  flags.AddInt("n_base", &c.n_base, "Adult training rows that are not canaries").Range(10, 30000);
  flags.AddInt("batch_size", &c.batch_size, "expected batch size (Poisson)").Min(1);
  flags.AddInt("epochs", &c.epochs, "training epochs").Range(1, 1000);
  flags
      .AddDouble("learning_rate", &c.learning_rate,
                 "momentum-SGD learning rate, in (0, 1e3] (larger steps overflow the float "
                 "training)")
      .Above(0)
      .Max(1e3);
  flags
      .AddDouble("clip_norm", &c.clip_norm,
                 "per-example clipping norm C, in (0, 1e3] (the noise scales with it: larger "
                 "norms overflow the float training)")
      .Above(0)
      .Max(1e3);
  flags
      .AddString("device", &c.device,
                 "where DP-SGD trains: cpu, or cuda (LibTorch's CUDA backend, loaded at run time; "
                 "same batches and noise as on the CPU)")
      .OneOf({"cpu", "cuda"});
  flags.AddDouble("dirac_value", &c.dirac_value, "white-box canary's value on its feature")
      .Above(0);
  flags.AddDouble("delta", &c.delta, "delta of the accountants and the audit").OpenRange(0, 1);
  flags.AddDouble("beta", &c.beta, "audit failure probability").OpenRange(0, 1);
  flags.AddIntList("k_plus", &c.k_plus, "guesses 'in', paired with --k_minus")
      .NonEmpty()
      .Min(0)
      .PairedWith("k_minus");
  flags.AddIntList("k_minus", &c.k_minus, "guesses 'out', paired with --k_plus").NonEmpty().Min(0);
  flags.AddString("data_dir", &c.data_dir, "directory of adult.data/adult.test ('' = vendored)")
      .ExistingDirectoryOrEmpty();
}

Status Validate(const Config& c) {
  PB_ASSIGN_OR_RETURN(const ComputeDevice device, ParseDevice(c.device));
  PB_RETURN_IF_ERROR(EnsureDevice(device));  // --device=cuda without a GPU: exit 2
  if (c.k_minus.size() != c.k_plus.size()) {
    return Error("k_minus must have as many entries as k_plus (" + std::to_string(c.k_plus.size()) +
                 "), got " + std::to_string(c.k_minus.size()));
  }
  for (size_t k = 0; k < c.k_plus.size(); ++k) {
    if (c.k_plus[k] + c.k_minus[k] > c.canaries || c.k_plus[k] + c.k_minus[k] == 0) {
      return Error("k_plus[" + std::to_string(k) + "] + k_minus[" + std::to_string(k) +
                   "] must be in [1, canaries=" + std::to_string(c.canaries) + "]");
    }
  }
  if (c.epsilons.empty() && !c.nonprivate) {
    return Error("epsilons must not be empty when nonprivate is false");
  }
  return Status::Ok();
}

Status Run(const Config& c, StudyContext& ctx) {
  AdultOptions options;
  options.data_dir = c.data_dir;
  PB_ASSIGN_OR_RETURN(Dataset adult, LoadAdult(options));
  if (adult.n_population() < 2 * c.canaries || adult.n_train() < c.n_base) {
    return Error("canaries and n_base exceed Adult's rows");
  }
  std::vector<double> targets = c.epsilons;
  if (c.nonprivate) targets.push_back(std::numeric_limits<double>::infinity());
  ProgressReporter progress("one_run_audit", static_cast<int64_t>(targets.size()), ctx.quiet());
  std::vector<RunResult> runs;
  for (size_t i = 0; i < targets.size(); ++i) {
    PB_ASSIGN_OR_RETURN(RunResult r, RunOne(c, adult, targets[i], ctx.seed(), i, ctx.threads()));
    runs.push_back(std::move(r));
    progress.Advance(1);
  }
  return WriteReport(c, Results{std::move(runs), adult.provenance}, ctx.out());
}

}  // namespace
}  // namespace one_run_audit
}  // namespace privbench

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::one_run_audit;
  Study<Config> study;
  study.info = {"one_run_audit",
                "Steinke, Nasr & Jagielski, Privacy Auditing with One (1) Training Run "
                "(NeurIPS 2023)",
                "Thm 3.1, Sec. 6, Figs. 1-2; experiments/one_run_audit/README.md",
                "eps lower bounds of DP-SGD from one training run per eps vs RDP and PLD"};
  study.defaults = Defaults;
  study.register_flags = RegisterFlags;
  study.validate = Validate;
  study.run = Run;
  return RunStudyMain(study, argc, argv);
}
