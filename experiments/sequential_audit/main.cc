// Study sequential_audit (README.md in this folder): anytime-valid
// sequential auditing of claimed privacy guarantees (González, Dulce-Rubio,
// Ramdas & Ribero, "Sequentially Auditing Differential Privacy", NeurIPS
// 2025, arXiv:2509.07055) against batch audits of fixed size.
//
//   bazel run //experiments/sequential_audit [-- --scale=paper]
//
// Type I error on correct mechanisms, outputs needed to detect planted
// violations (sequential and batch), and the steps of one DP-SGD training run
// needed to catch a noise-calibration bug in privbench's engine. Method:
// compute.h and dpsgd_case.h; output and claims: report.h.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/progress.h"
#include "experiments/lib/framework/study.h"
#include "experiments/sequential_audit/compute.h"
#include "experiments/sequential_audit/config.h"
#include "experiments/sequential_audit/dpsgd_case.h"
#include "experiments/sequential_audit/report.h"

namespace privbench {
namespace sequential_audit {
namespace {

Config Defaults(Scale scale) {
  Config c;
  c.batch_sizes = {25, 50, 100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600};
  switch (scale) {
    case Scale::kQuick:
      break;
    case Scale::kPaper:
      c.null_replications = 10000;
      c.detect_replications = 1000;
      c.batch_replications = 1000;
      c.dpsgd_runs = 100;
      c.dpsgd_steps = 2000;
      break;
    case Scale::kTest:
      c.null_replications = 100;
      c.null_rounds = 2000;
      c.detect_replications = 30;
      c.detect_max_rounds = 5000;
      c.batch_sizes = {50, 200, 800, 3200};
      c.batch_replications = 30;
      c.trace_rounds = 300;
      c.dpsgd_runs = 3;
      c.dpsgd_steps = 100;
      c.dpsgd_rows = 300;
      c.dpsgd_batch_size = 30;
      break;
  }
  return c;
}

void RegisterFlags(FlagSet& flags, Config& c) {
  flags.AddDouble("alpha", &c.alpha, "level of every audit").OpenRange(0, 1);
  flags
      .AddDouble("claimed_epsilon", &c.claimed_epsilon,
                 "eps of the (eps, 0)-DP claims (randomized response, Laplace)")
      .Above(0)
      .Max(20);
  flags.AddDouble("claimed_mu", &c.claimed_mu, "mu of the mu-GDP claims (Gaussian)")
      .Above(0)
      .Max(20);
  flags
      .AddInt("null_replications", &c.null_replications,
              "sequential audits per correct mechanism (type I error)")
      .Range(1, 1000000);
  flags.AddInt("null_rounds", &c.null_rounds, "pair rounds each type I audit is watched for")
      .Range(1, 10000000);
  flags
      .AddInt("detect_replications", &c.detect_replications,
              "sequential audits per planted violation")
      .Range(1, 1000000);
  flags
      .AddInt("detect_max_rounds", &c.detect_max_rounds,
              "pair rounds after which a detection audit gives up")
      .Range(1, 10000000);
  flags
      .AddIntList("batch_sizes", &c.batch_sizes,
                  "batch audit sizes, outputs per neighbour, increasing")
      .NonEmpty()
      .Range(1, 10000000);
  flags.AddInt("batch_replications", &c.batch_replications, "batch audits per size and mechanism")
      .Range(1, 1000000);
  flags.AddInt("trace_rounds", &c.trace_rounds, "rounds of replication 0's e-process kept")
      .Range(0, 1000000);
  flags.AddInt("dpsgd_runs", &c.dpsgd_runs, "DP-SGD training runs per variant").Range(1, 100000);
  flags.AddInt("dpsgd_steps", &c.dpsgd_steps, "steps of one DP-SGD training run").Range(1, 1000000);
  flags.AddInt("dpsgd_rows", &c.dpsgd_rows, "synthetic training rows").Range(2, 1000000);
  flags.AddInt("dpsgd_features", &c.dpsgd_features, "features of the rows (the canary adds one)")
      .Range(1, 10000);
  flags.AddInt("dpsgd_batch_size", &c.dpsgd_batch_size, "expected Poisson batch size").Min(1);
  flags
      .AddDouble("dpsgd_noise_multiplier", &c.dpsgd_noise_multiplier,
                 "sigma; the audited per-step claim is (1/sigma)-GDP")
      .Above(0)
      .Max(1e3);
  flags.AddDouble("dpsgd_clip_norm", &c.dpsgd_clip_norm, "per-example clipping norm C")
      .Above(0)
      .Max(1e3);
  flags.AddDouble("dpsgd_learning_rate", &c.dpsgd_learning_rate, "plain SGD learning rate")
      .Above(0)
      .Max(1e3);
  flags.AddDouble("dpsgd_dirac_value", &c.dpsgd_dirac_value, "the canary's value on its feature")
      .Above(0)
      .Max(1e6);
}

Status Validate(const Config& c) {
  for (size_t i = 1; i < c.batch_sizes.size(); ++i) {
    if (c.batch_sizes[i] <= c.batch_sizes[i - 1]) {
      return Error("batch_sizes must increase: batch_sizes[" + std::to_string(i) +
                   "] = " + std::to_string(c.batch_sizes[i]) + " after " +
                   std::to_string(c.batch_sizes[i - 1]));
    }
  }
  if (c.dpsgd_batch_size > c.dpsgd_rows) {
    return Error("dpsgd_batch_size " + std::to_string(c.dpsgd_batch_size) + " exceeds dpsgd_rows " +
                 std::to_string(c.dpsgd_rows));
  }
  return Status::Ok();
}

Status Run(const Config& c, StudyContext& ctx) {
  const std::vector<MechanismCase> cases = MechanismCases(c);
  ProgressReporter progress("sequential_audit", static_cast<int64_t>(cases.size()) + 2,
                            ctx.quiet());
  Results results;
  for (size_t k = 0; k < cases.size(); ++k) {
    CaseResults cr;
    cr.mechanism = cases[k];
    cr.rates = ExactRuleRates(cases[k]);
    cr.tau = ClaimTau(cases[k]);
    const bool correct = cases[k].correct;
    PB_ASSIGN_OR_RETURN(
        cr.sequential,
        RunSequential(cases[k], correct ? c.null_replications : c.detect_replications,
                      correct ? c.null_rounds : c.detect_max_rounds, c.trace_rounds, c.alpha,
                      ctx.seed(), static_cast<int64_t>(k)));
    for (int64_t n : c.batch_sizes) {
      PB_ASSIGN_OR_RETURN(BatchRuns b, RunBatch(cases[k], n, c.batch_replications, c.alpha,
                                                ctx.seed(), static_cast<int64_t>(k)));
      cr.batch.push_back(b);
    }
    results.cases.push_back(std::move(cr));
    progress.Advance(1);
  }
  PB_ASSIGN_OR_RETURN(results.dpsgd_correct, RunDpsgdAudits(c, DpsgdVariant::kCorrect, ctx.seed()));
  progress.Advance(1);
  PB_ASSIGN_OR_RETURN(results.dpsgd_bug, RunDpsgdAudits(c, DpsgdVariant::kNoiseOnMean, ctx.seed()));
  progress.Advance(1);
  return WriteReport(c, results, ctx.out());
}

}  // namespace
}  // namespace sequential_audit
}  // namespace privbench

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::sequential_audit;
  Study<Config> study;
  study.info = {"sequential_audit",
                "González, Dulce-Rubio, Ramdas & Ribero, Sequentially Auditing Differential "
                "Privacy (NeurIPS 2025)",
                "Sec. 1 and the DP-SGD experiment; experiments/sequential_audit/README.md",
                "type I error, outputs to detect violations (sequential vs batch), DP-SGD bug "
                "within one run"};
  study.defaults = Defaults;
  study.register_flags = RegisterFlags;
  study.validate = Validate;
  study.run = Run;
  return RunStudyMain(study, argc, argv);
}
