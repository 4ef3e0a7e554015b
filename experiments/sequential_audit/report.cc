// Study sequential_audit: WriteReport wires the raw data, numbers, tables
// (tables.cc) and claims (claims.cc) into the result file (layout: report.h).
#include "experiments/sequential_audit/report.h"

#include <cmath>
#include <limits>
#include <string>

#include "results/table_builder.h"

namespace privbench {
namespace sequential_audit {

namespace {

constexpr const char* kLostParameters =
    "The paper's mechanisms and DP-SGD runs are specified by family, not by parameters "
    "reproduced here; ours: randomized response, Laplace and Gaussian mechanisms on a "
    "sensitivity-1 query with two planted missing-constant bugs (Laplace scale halved, "
    "Gaussian sensitivity 2 calibrated as 1), a pre-registered threshold rule instead of the "
    "paper's online-learned kernel (MMD) witness, the betting e-process of "
    "estimators/sequential/sequential_audit.h (online Newton step, bet cap 1/2 where the "
    "paper's code uses 1/4), batch audits of the same statistic (Clopper-Pearson, Nasr et "
    "al.'s mu bound) where the paper compares other batch auditors at 50,000 samples; DP-SGD: "
    "logistic regression on synthetic rows with a Dirac-feature canary, one game round per "
    "step, the bug = noise calibrated to the averaged gradient";

Status WriteSettings(const Config& c, ResultWriter& out) {
  PB_RETURN_IF_ERROR(SetAttributes(out, "/meta", {{"lost_parameters", kLostParameters}}));
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/batch_sizes", c.batch_sizes));
  return SetAttributes(out, "/settings",
                       {{"alpha", c.alpha},
                        {"threshold", kThreshold},
                        {"claimed_epsilon", c.claimed_epsilon},
                        {"claimed_mu", c.claimed_mu},
                        {"batch_replications", c.batch_replications},
                        {"dpsgd_runs", c.dpsgd_runs},
                        {"dpsgd_steps", c.dpsgd_steps},
                        {"dpsgd_rows", c.dpsgd_rows},
                        {"dpsgd_features", c.dpsgd_features},
                        {"dpsgd_batch_size", c.dpsgd_batch_size},
                        {"dpsgd_noise_multiplier", c.dpsgd_noise_multiplier},
                        {"dpsgd_clip_norm", c.dpsgd_clip_norm},
                        {"dpsgd_learning_rate", c.dpsgd_learning_rate},
                        {"dpsgd_dirac_value", c.dpsgd_dirac_value}});
}

Status WriteCase(const CaseResults& cr, ResultWriter& out) {
  const MechanismCase& m = cr.mechanism;
  const std::string g = "/cases/" + m.name;
  PB_RETURN_IF_ERROR(out.WriteInts(g + "/rejected_at", cr.sequential.rejected_at));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/trace", cr.sequential.trace));
  std::vector<int64_t> n, rejections;
  for (const BatchRuns& b : cr.batch) n.push_back(b.n), rejections.push_back(b.rejections);
  PB_RETURN_IF_ERROR(out.WriteInts(g + "/batch/n", n));
  PB_RETURN_IF_ERROR(out.WriteInts(g + "/batch/rejections", rejections));
  return SetAttributes(out, g,
                       {{"description", m.description},
                        {"claim", m.claim == ClaimKind::kPureDp ? "eps-DP" : "mu-GDP"},
                        {"claimed", m.claimed},
                        {"true_parameter", m.true_parameter},
                        {"correct", static_cast<int64_t>(m.correct)},
                        {"tpr", cr.rates.tpr},
                        {"fpr", cr.rates.fpr},
                        {"tau", cr.tau},
                        {"replications", static_cast<int64_t>(cr.sequential.rejected_at.size())},
                        {"max_rounds", cr.sequential.max_rounds}});
}

Status WriteDpsgd(const Config& c, const std::string& variant, const std::vector<DpsgdRun>& runs,
                  ResultWriter& out) {
  const std::string g = "/dpsgd/" + variant;
  std::vector<int64_t> at, canary, correct;
  std::vector<double> mu, accuracy, trace;
  for (const DpsgdRun& r : runs) {
    at.push_back(r.rejected_at);
    canary.push_back(r.canary_steps);
    correct.push_back(r.correct_guesses);
    mu.push_back(r.largest_rejected_mu.value_or(std::numeric_limits<double>::quiet_NaN()));
    accuracy.push_back(r.final_train_accuracy);
    trace.insert(trace.end(), r.trace.begin(), r.trace.end());
  }
  PB_RETURN_IF_ERROR(out.WriteInts(g + "/rejected_at", at));
  PB_RETURN_IF_ERROR(out.WriteInts(g + "/canary_steps", canary));
  PB_RETURN_IF_ERROR(out.WriteInts(g + "/correct_guesses", correct));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/largest_rejected_mu", mu));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/train_accuracy", accuracy));
  PB_RETURN_IF_ERROR(
      out.WriteDoubles(g + "/trace", trace, {runs.size(), static_cast<uint64_t>(c.dpsgd_steps)}));
  return SetAttributes(out, g, {{"claimed_mu", 1.0 / c.dpsgd_noise_multiplier}});
}

Status WriteNumbers(const Results& r, ResultWriter& out) {
  for (const CaseResults& cr : r.cases) {
    const std::string name = cr.mechanism.name;
    if (cr.mechanism.correct) {
      const double n = static_cast<double>(cr.sequential.rejected_at.size());
      PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/type1_rate_" + name,
                                         n > 0 ? Rejections(cr.sequential.rejected_at) / n : 0));
    } else {
      PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/median_outputs_" + name, MedianOutputs(cr)));
      PB_RETURN_IF_ERROR(
          out.WriteScalar("/numbers/batch_outputs_" + name, BatchOutputsToDetect(cr)));
    }
  }
  std::vector<int64_t> bug;
  for (const DpsgdRun& run : r.dpsgd_bug) bug.push_back(run.rejected_at);
  return out.WriteScalar("/numbers/dpsgd_bug_median_detection_step", MedianRounds(bug));
}

}  // namespace

Status WriteReport(const Config& c, const Results& r, ResultWriter& out) {
  PB_RETURN_IF_ERROR(WriteSettings(c, out));
  for (const CaseResults& cr : r.cases) PB_RETURN_IF_ERROR(WriteCase(cr, out));
  PB_RETURN_IF_ERROR(WriteDpsgd(c, DpsgdVariantName(DpsgdVariant::kCorrect), r.dpsgd_correct, out));
  PB_RETURN_IF_ERROR(WriteDpsgd(c, DpsgdVariantName(DpsgdVariant::kNoiseOnMean), r.dpsgd_bug, out));
  PB_RETURN_IF_ERROR(WriteNumbers(r, out));
  for (auto table : {Type1Table, DetectionTable, BatchPowerTable, DpsgdTable}) {
    PB_ASSIGN_OR_RETURN(const SummaryTable t, table(c, r));
    PB_RETURN_IF_ERROR(out.WriteTable(t));
  }
  PB_RETURN_IF_ERROR(out.WriteClaim(Type1ControlledClaim(c, r)));
  PB_RETURN_IF_ERROR(out.WriteClaim(DetectsFewHundredClaim(r)));
  PB_RETURN_IF_ERROR(out.WriteClaim(OrdersBelowBatchClaim(r)));
  return out.WriteClaim(DpsgdBugWithinOneRunClaim(c, r));
}

}  // namespace sequential_audit
}  // namespace privbench
