// Study synthetic_data_mia (F1; README.md in this folder): membership
// inference against synthetic tabular data and privacy audits of DP
// synthesizers, the generative half of Hafner & Sun, "Empirical Privacy
// Evaluations of Generative and Predictive Machine Learning Models - A
// review and challenges for practice" (arXiv:2411.12451), with the attacks of
// Stadler, Oprisanu & Troncoso (USENIX Security 2022) and Houssiau et al.'s
// TAPAS (2022) and the worst-case audits of Annamalai, Ganev & De Cristofaro
// (USENIX Security 2024).
//
//   bazel run //experiments/synthetic_data_mia [-- --scale=paper --shard=0/4]
//
// A sharded, resumable sweep (experiments/lib/framework/sweep.h): one unit
// per game, worst-case audit and outlier-sweep game, each writing a part;
// the parts merged (with the cost measurement) give the study file
// (parts.h). Method: compute.h; targets: targets.h; output and claims
// (results/raw/synthetic_data_mia.h5): report.h. Data: Adult (vendored UCI
// copy) over a public 13-attribute domain (data_scripts/adult_categorical.h).
#include <string>
#include <vector>

#include "data_scripts/adult_categorical.h"
#include "experiments/lib/framework/study.h"
#include "experiments/lib/framework/sweep.h"
#include "experiments/synthetic_data_mia/compute.h"
#include "experiments/synthetic_data_mia/config.h"
#include "experiments/synthetic_data_mia/parts.h"
#include "experiments/synthetic_data_mia/report.h"
#include "mechanisms/synthetic/synthesizer.h"

namespace privbench {
namespace synthetic_data_mia {
namespace {

Config Defaults(Scale scale) {
  Config c;
  switch (scale) {
    case Scale::kQuick:
      break;
    case Scale::kPaper:
      // Annamalai et al.'s grid and sizes (2,000 shadow / 2,000 test).
      c.epsilons = {1, 2, 4, 10};
      c.train_datasets = 2000;
      c.test_datasets = 2000;
      c.keep_test_scores = false;
      c.outlier_targets = 5;
      c.random_targets = 5;
      c.worst_case_trials = kPaperWorstCaseTrials;
      c.queries = 1000;
      // the outlier sweep at 50 + 50 targets, every eps, all seven
      // black-box attacks (the adversary and releases per game as below).
      c.sweep_outliers = 50;
      c.sweep_randoms = 50;
      c.sweep_epsilons = {1, 2, 4, 10};
      c.sweep_train_datasets = 500;
      c.sweep_test_datasets = 500;
      c.sweep_attacks = {
          "dcr_hamming",         "dcr_l2",           "naive_logistic", "histogram_logistic",
          "correlations_forest", "queries_logistic", "queries_forest"};
      break;
    case Scale::kTest:
      c.synthesizers = {"independent", "independent_laplace", "independent_gaussian", "mst"};
      c.epsilons = {4};
      c.n_records = 200;
      c.n_synthetic = 200;
      c.train_datasets = 40;
      c.test_datasets = 40;
      c.outlier_targets = 1;
      c.random_targets = 1;
      c.outlier_pool = 300;
      c.queries = 30;
      c.worst_case_trials = 200;
      c.cost_sizes = {100, 200};
      c.cost_repeats = 3;
      // a small outlier sweep (mst at eps 4) and few power replicates.
      c.sweep_outliers = 2;
      c.sweep_randoms = 2;
      c.sweep_epsilons = {4};
      c.sweep_train_datasets = 20;
      c.sweep_test_datasets = 20;
      c.bug_power_replicates = 5;
      break;
  }
  return c;
}

void RegisterFlags(FlagSet& flags, Config& c) {
  flags.AddStringList("synthesizers", &c.synthesizers, "synthesizers (mechanisms/synthetic)")
      .NonEmpty()
      .OneOf(AllSynthesizerNames());
  // A subnormal eps (1e-320) made a noise scale infinite at run time.
  flags
      .AddDoubleList("epsilons", &c.epsilons,
                     "eps of the DP synthesizers (beyond the range a noise scale is not a finite "
                     "positive double)")
      .Range(1e-300, 1e300);
  flags.AddDouble("delta", &c.delta, "delta of the zCDP synthesizers and their audits")
      .OpenRange(0, 1);
  flags
      .AddInt("n_records", &c.n_records,
              "private dataset size (at most half of adult.data's 32,561 records)")
      .Range(2, 16280);
  flags.AddInt("n_synthetic", &c.n_synthetic, "synthetic rows per release").Range(1, 1000000);
  flags.AddInt("train_datasets", &c.train_datasets, "shadow releases per game (even)")
      .Range(4, 1000000);
  flags.AddInt("test_datasets", &c.test_datasets, "test releases per game (even)")
      .Range(4, 1000000);
  flags.AddBool("keep_test_scores", &c.keep_test_scores,
                "keep every test release's score in /games/test_scores (off at paper scale)");
  flags.AddInt("outlier_targets", &c.outlier_targets, "outlier targets").Min(0);
  flags.AddInt("random_targets", &c.random_targets, "random targets").Min(0);
  flags.AddBool("canary_target", &c.canary_target, "also the crafted rarest-value canary");
  flags.AddInt("knn_k", &c.knn_k, "k of the outlier score").Min(1);
  flags.AddInt("outlier_pool", &c.outlier_pool, "records scored for outlyingness").Min(2);
  flags.AddInt("queries", &c.queries, "targeted counting queries per target").Range(1, 100000);
  flags.AddStringList("adversaries", &c.adversaries, "fixed (TAPAS) and/or random (Stadler)")
      .NonEmpty()
      .OneOf({"fixed", "random"});
  flags
      .AddStringList("attacks", &c.attacks,
                     "attacks the membership games run (default all); a claim needing one left "
                     "out is written undecidable; the worst-case audits always run white_box "
                     "and dcr_hamming")
      .NonEmpty()
      .OneOf(AttackNames());
  flags.AddDouble("alpha", &c.alpha, "1 - confidence of every interval").OpenRange(0, 1);
  flags.AddInt("worst_case_trials", &c.worst_case_trials, "worst-case releases per side")
      .Range(2, 10000000);
  flags.AddDouble("bug_epsilon", &c.bug_epsilon, "eps of the planted-bug audits")
      .Range(1e-300, 1e300);
  flags.AddIntList("cost_sizes", &c.cost_sizes, "dataset sizes timed").NonEmpty().Range(2, 30000);
  flags.AddInt("cost_repeats", &c.cost_repeats, "timed runs per size").Range(1, 10000);
  flags.AddString("data_dir", &c.data_dir, "directory of adult.data/adult.test ('' = vendored)");
  RegisterSweepFlags(flags, &c.sweep);
}

Status Validate(const Config& c) {
  if (c.train_datasets % 2 != 0 || c.test_datasets % 2 != 0) {
    return Error("train_datasets and test_datasets must be even (half of them hold the target)");
  }
  if (c.outlier_targets + c.random_targets + (c.canary_target ? 1 : 0) == 0) {
    return Error("outlier_targets + random_targets + canary_target must give at least one target");
  }
  if (c.knn_k >= c.outlier_pool) return Error("knn_k must be below outlier_pool");
  if (c.outlier_targets + c.random_targets > c.outlier_pool) {
    return Error("outlier_targets + random_targets must be at most outlier_pool");
  }
  // Every case is made (and its noise calibrated) before any work.
  if (Result<std::vector<CaseSpec>> cases = MainCases(c); !cases.ok()) {
    return Error("synthesizers, epsilons and delta give no valid case: " + cases.message());
  }
  return Status::Ok();
}

// The study as a sweep (parts.h): this shard's units into parts, then, once
// every part exists, their merge into the study file.
Status Run(const Config& c, StudyContext& ctx) {
  AdultOptions options;
  options.data_dir = c.data_dir;
  PB_ASSIGN_OR_RETURN(const AdultCategorical adult, LoadAdultCategorical(options));
  if (c.n_records > adult.train.n() / 2) return Error("n_records exceeds half of Adult's rows");
  StudyPlan plan;
  PB_RETURN_IF_ERROR(MakePlan(c, ctx.seed(), adult.train, adult.domain, adult.checksums, &plan));
  auto run_unit = [&](int64_t k, const SweepUnit&, ResultWriter& part) {
    return RunUnit(plan, k, part);
  };
  auto merge = [&](const SweepParts& parts, const SweepOptions&) -> Status {
    PB_ASSIGN_OR_RETURN(const Results r, MergeParts(plan, parts));
    PB_RETURN_IF_ERROR(ctx.out().SetAttribute("/meta", "sweep_part_versions",
                                              DescribePartVersions(parts).description));
    return WriteReport(c, r, ctx.out());
  };
  return RunSweepStudy("synthetic_data_mia", plan.sweep_plan, c.sweep, ctx, run_unit, merge);
}

}  // namespace
}  // namespace synthetic_data_mia
}  // namespace privbench

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::synthetic_data_mia;
  Study<Config> study;
  study.info = {"synthetic_data_mia",
                "Hafner & Sun, Empirical Privacy Evaluations of Generative and Predictive Machine "
                "Learning Models - A review and challenges for practice (arXiv:2411.12451)",
                "Sections 'Shadow modeling and attack logic', 'Membership inference attacks "
                "against tabular data synthesizers', 'Privacy audits', 'Practical challenges'",
                "membership inference on synthetic Adult data and audits of DP synthesizers"};
  study.defaults = Defaults;
  study.register_flags = RegisterFlags;
  study.validate = Validate;
  study.run = Run;
  return RunStudyMain(study, argc, argv);
}
