// Study ml_audit (README.md): ML-Audit (Lu et al., "A General
// Framework for Auditing Differentially Private Machine Learning", NeurIPS
// 2022, Secs. 3-5) on the classical DP learners of mechanisms/classical/:
// logistic regression with output and objective perturbation, Gaussian naive
// Bayes and the random forest, attacked by the poisonings of
// attacks/poisoning/ and estimated with Algorithm 1
// (estimators/output_set_audit/output_set_audit.h).
//
//   bazel run //experiments/ml_audit [-- --scale=paper --eps=0.5,2 --k=1,4
//       --mechanisms=nb,rf --shard=0/4]
//
// The grid is a sharded, resumable sweep (experiments/lib/framework/sweep.h):
// one unit per (dataset, case) runs every eps_th x k x replicate audit.
// Cases, guarantees and seeds: compute.h; the output layout and the claims:
// report.h. Quick scale: iris and breast cancer, N = 1000, eps_th {0.5, 2,
// 8}, k {1, 4}, one replicate, and the paper's N = 10,000 for the two bug
// cases (--bug_n; their draws cost seconds); paper scale: + Adult, N = 10,000, the nine
// eps_th of the paper, k {1, 2, 4, 8}, 3 replicates, and banknote, credit and
// thoracic when their files are found (--optional_datasets; fetched with
// data_scripts/download_uci_audit.py): a missing one is reported in /meta
// datasets_unavailable, the table "datasets" and on stderr, never dropped
// silently; naming one in --datasets makes it required (exit 2 if absent).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/format.h"
#include "data_scripts/uci_audit.h"
#include "experiments/lib/framework/study.h"
#include "experiments/lib/framework/sweep.h"
#include "experiments/ml_audit/compute.h"
#include "experiments/ml_audit/config.h"
#include "experiments/ml_audit/data.h"
#include "experiments/ml_audit/report.h"
#include "mechanisms/classical/mechanism.h"

namespace privbench::ml_audit {
namespace {

Config Defaults(Scale scale) {
  Config c;
  c.mechanisms = "lr_output,lr_objective,nb,rf";
  c.attacks = "influence,ma,clipbkd,swapx,nb_flip,nb_mean,rf_flip";
  c.roles = "audit,bug1,bug2,weakened,library";
  switch (scale) {
    case Scale::kQuick:
      c.datasets = "iris,breast_cancer";
      c.eps = {0.5, 2, 8};
      c.k = {1, 4};
      c.n = 1000;
      break;
    case Scale::kPaper:
      c.datasets = "iris,breast_cancer,adult";
      c.optional_datasets = "banknote,credit,thoracic";  // when downloaded
      c.eps = {0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 50};
      c.k = {1, 2, 4, 8};
      c.replicates = 3;
      c.n = 10000;
      break;
    case Scale::kTest:
      c.datasets = "iris";
      c.eps = {0.5, 8};
      c.k = {1, 2};
      c.n = 300;
      c.bug_n = 300;
      break;
  }
  return c;
}

void RegisterFlags(FlagSet& flags, Config& c) {
  flags
      .AddString("datasets", &c.datasets,
                 "comma-separated datasets (offline: iris, breast_cancer, adult; once fetched "
                 "with data_scripts/download_uci_audit.py: banknote, credit, thoracic)")
      .NonEmpty();
  flags.AddString("optional_datasets", &c.optional_datasets,
                  "downloadable datasets run when their files are found, else reported as "
                  "unavailable (/meta datasets_unavailable, table datasets)");
  flags.AddString("mechanisms", &c.mechanisms, "comma-separated mechanisms whose cases run")
      .NonEmpty();
  flags.AddString("attacks", &c.attacks, "comma-separated attacks whose cases run").NonEmpty();
  flags
      .AddString("roles", &c.roles,
                 "comma-separated case roles (audit, bug1, bug2, weakened, library)")
      .NonEmpty();
  flags.AddDoubleList("eps", &c.eps, "claimed eps_th of the mechanisms")
      .NonEmpty()
      .Above(0)
      .Finite();
  flags.AddIntList("k", &c.k, "copies of the poison (group size)").NonEmpty().Range(1, 64);
  flags.AddInt("replicates", &c.replicates, "audits per (case, eps_th, k)").Range(1, 100);
  flags.AddInt("n", &c.n, "N: draws per side for the search and again for the fresh bound")
      .Range(2, 1e7);
  flags.AddInt("bug_n", &c.bug_n, "N per side for the bug cases (bug1, bug2)").Range(2, 1e7);
  flags.AddDouble("alpha", &c.alpha, "Katz-log significance (z_{alpha/2})").OpenRange(0, 1);
  flags.AddDouble("min_prob", &c.min_prob, "r: the set's least D' probability (0: 1/N)")
      .Range(0, 0.5);
  flags.AddString("classifier", &c.classifier, "the audit's classifier")
      .OneOf({"logistic_squares", "logistic_linear", "logistic_whitened"});
  flags.AddDouble("classifier_l2", &c.classifier_l2, "the classifier's L2 penalty")
      .Above(0)
      .Finite();
  flags.AddDouble("weakened_factor", &c.weakened_factor, "noise scale factor of weakened cases")
      .OpenRange(0, 1);
  flags.AddDouble("false_failure", &c.false_failure, "validity test's false-failure probability")
      .OpenRange(0, 1);
  flags.AddString("data_dir", &c.data_dir, "directory of the dataset files (default: see data.h)")
      .ExistingDirectoryOrEmpty();
  RegisterSweepFlags(flags, &c.sweep);
}

// Rules across fields, and the data files (a checksum mismatch is bad input).
Status CheckList(const std::string& flag, const std::string& text,
                 const std::vector<std::string>& allowed) {
  for (const std::string& item : SplitList(text)) {
    if (std::find(allowed.begin(), allowed.end(), item) == allowed.end()) {
      std::string names;
      for (const std::string& a : allowed) names += (names.empty() ? "" : ", ") + a;
      return Error(flag + ": unknown name '" + item + "' (valid: " + names + ")");
    }
  }
  if (SplitList(text).empty()) return Error(flag + " must name at least one");
  return Status::Ok();
}

DatasetSelection Selection(const Config& c) {
  return SelectDatasets(SplitList(c.datasets), SplitList(c.optional_datasets), c.data_dir);
}

Status Validate(const Config& c) {
  PB_RETURN_IF_ERROR(CheckList("datasets", c.datasets, AuditDatasetNames()));
  for (const std::string& name : SplitList(c.optional_datasets)) {
    if (!IsUciAuditName(name)) {
      return Error("optional_datasets: '" + name +
                   "' is not a downloadable dataset (banknote, credit, thoracic)");
    }
    const std::vector<std::string> named = SplitList(c.datasets);
    if (std::find(named.begin(), named.end(), name) != named.end()) {
      return Error("optional_datasets: '" + name + "' is also in --datasets");
    }
  }
  PB_RETURN_IF_ERROR(CheckList("mechanisms", c.mechanisms, ClassicalMechanismNames()));
  PB_RETURN_IF_ERROR(CheckList("attacks", c.attacks, PoisoningAttackNames()));
  PB_RETURN_IF_ERROR(CheckList("roles", c.roles, {"audit", "bug1", "bug2", "weakened", "library"}));
  if (AuditCases(c).empty()) {
    return Error("mechanisms, attacks and roles select no audit case");
  }
  for (const std::string& name : Selection(c).run) {
    Result<AuditDataset> ds = LoadAuditDataset(name, c.data_dir);
    if (!ds.ok()) return Error("datasets: " + ds.message());
  }
  return Status::Ok();
}

std::string PlanText(const Config& c, uint64_t seed, const std::vector<AuditDataset>& data,
                     const std::string& unavailable) {
  std::string s = "ml_audit seed=" + std::to_string(seed) + " n=" + std::to_string(c.n) +
                  " bug_n=" + std::to_string(c.bug_n) + " alpha=" + FormatDouble(c.alpha) +
                  " r=" + FormatDouble(c.min_prob) + " classifier=" + c.classifier +
                  " l2=" + FormatDouble(c.classifier_l2) +
                  " weakened=" + FormatDouble(c.weakened_factor) +
                  " replicates=" + std::to_string(c.replicates) + " eps=";
  for (double e : c.eps) s += FormatDouble(e) + ",";
  s += " k=";
  for (int64_t k : c.k) s += std::to_string(k) + ",";
  for (const AuditDataset& d : data) s += " " + d.name + "[" + d.checksums + "]";
  return s + " unavailable=" + unavailable;
}

Status Run(const Config& c, StudyContext& ctx) {
  const DatasetSelection selection = Selection(c);
  std::string unavailable;
  for (const std::string& u : selection.unavailable) {
    unavailable += (unavailable.empty() ? "" : ",") + u;
    std::fprintf(stderr, "ml_audit: dataset %s unavailable (files not found): not audited\n",
                 u.c_str());
  }
  std::vector<AuditDataset> data;
  for (const std::string& name : selection.run) {
    PB_ASSIGN_OR_RETURN(AuditDataset ds, LoadAuditDataset(name, c.data_dir));
    data.push_back(std::move(ds));
  }
  const std::vector<AuditCase> cases = AuditCases(c);
  struct Job {
    size_t dataset;
    AuditCase audit_case;
  };
  std::vector<Job> jobs;
  SweepPlan plan;
  plan.config_text = PlanText(c, ctx.seed(), data, unavailable);
  for (size_t d = 0; d < data.size(); ++d) {
    for (const AuditCase& a : cases) {
      jobs.push_back({d, a});
      plan.run_order.push_back({UnitId(data[d].name, a)});
    }
  }
  auto run_unit = [&](int64_t i, const SweepUnit&, ResultWriter& part) -> Status {
    const Job& job = jobs[static_cast<size_t>(i)];
    PB_ASSIGN_OR_RETURN(UnitResult r,
                        RunAuditUnit(data[job.dataset], job.audit_case, c, ctx.seed()));
    return WriteAuditRows(part, UnitRows(r));
  };
  auto merge = [&](const SweepParts& parts, const SweepOptions&) -> Status {
    Results results;
    for (const auto& part : parts) {
      PB_ASSIGN_OR_RETURN(AuditTable t, ReadAuditRows(*part));
      AppendRows(t, &results.audits);
    }
    for (const AuditDataset& d : data) {
      results.datasets.push_back({d.name, d.provenance, d.checksums, d.data.n(), d.data.d});
    }
    results.unavailable = selection.unavailable;
    results.part_versions = DescribePartVersions(parts).description;
    return WriteReport(c, results, ctx.out());
  };
  return RunSweepStudy("ml_audit", plan, c.sweep, ctx, run_unit, merge);
}

}  // namespace
}  // namespace privbench::ml_audit

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::ml_audit;
  Study<Config> study;
  study.info = {"ml_audit",
                "Lu et al., A General Framework for Auditing Differentially Private Machine "
                "Learning (ML-Audit, NeurIPS 2022)",
                "Secs. 3-5, Algorithm 1, Figs. 2-4; experiments/ml_audit/README.md",
                "Auditing classical DP learners: poisoning, a learned output set and Katz-log "
                "lower bounds"};
  study.defaults = Defaults;
  study.register_flags = RegisterFlags;
  study.validate = Validate;
  study.run = Run;
  return RunStudyMain(study, argc, argv);
}
