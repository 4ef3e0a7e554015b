// Study sequential_audit: its summary tables (/summary/*).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/format.h"
#include "experiments/sequential_audit/report.h"
#include "results/table_builder.h"

namespace privbench {
namespace sequential_audit {

namespace {

std::string ClaimName(const MechanismCase& m) {
  return (m.claim == ClaimKind::kPureDp ? "eps-DP, eps = " : "mu-GDP, mu = ") +
         FormatDouble(m.claimed);
}

double Median(std::vector<double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

Result<SummaryTable> Type1Table(const Config& c, const Results& r) {
  TableBuilder t("type1", "Type I error of the sequential test on correct mechanisms",
                 "Each replication: pair rounds of the mechanism, the pre-registered rule "
                 "output > 0.5, the e-process of the claim watched for max_rounds rounds; "
                 "rejected: replications whose e-process ever reached 1/alpha = " +
                     FormatDouble(1 / c.alpha) +
                     ". tpr_minus_fpr: the rule's exact advantage; tau: the claim's bound "
                     "(equal: the mechanism is on the claim's boundary). binomial_p: P(Bin(R, "
                     "alpha) >= rejected), the claim fails below " +
                     FormatDouble(kFalseFailure) + ".",
                 {{"mechanism", Column::Type::kString},
                  {"claim", Column::Type::kString},
                  {"tpr_minus_fpr", Column::Type::kDouble},
                  {"tau", Column::Type::kDouble},
                  {"replications", Column::Type::kInt},
                  {"max_rounds", Column::Type::kInt},
                  {"rejected", Column::Type::kInt},
                  {"rejection_rate", Column::Type::kDouble},
                  {"alpha", Column::Type::kDouble},
                  {"binomial_p", Column::Type::kDouble}});
  for (const CaseResults& cr : r.cases) {
    if (!cr.mechanism.correct) continue;
    const int64_t n = static_cast<int64_t>(cr.sequential.rejected_at.size());
    const int64_t k = Rejections(cr.sequential.rejected_at);
    t.Row({cr.mechanism.name, ClaimName(cr.mechanism), cr.rates.tpr - cr.rates.fpr, cr.tau, n,
           cr.sequential.max_rounds, k, n > 0 ? static_cast<double>(k) / n : 0.0, c.alpha,
           BinomialUpperTail(k, n, c.alpha)});
  }
  return t.Build();
}

Result<SummaryTable> DetectionTable(const Config& c, const Results& r) {
  TableBuilder t(
      "detection", "Outputs needed to detect each planted violation: sequential vs batch",
      "outputs = mechanism runs consumed (a pair round uses 2, a batch audit of n per "
      "neighbour 2n). sequential: the median over replications of the outputs at rejection "
      "(inf when at least half never rejected within max_outputs); batch: the smallest "
      "size of the grid whose level-alpha batch test (one-sided Clopper-Pearson eps bound, "
      "or Nasr et al.'s mu bound, at the same threshold) rejected in at least half of its " +
          std::to_string(c.batch_replications) +
          " audits. The paper's batch baselines used 50,000 outputs.",
      {{"mechanism", Column::Type::kString},
       {"claim", Column::Type::kString},
       {"true_parameter", Column::Type::kDouble},
       {"tpr_minus_fpr", Column::Type::kDouble},
       {"tau", Column::Type::kDouble},
       {"replications", Column::Type::kInt},
       {"max_outputs", Column::Type::kInt},
       {"detected", Column::Type::kInt},
       {"sequential_median_outputs", Column::Type::kDouble},
       {"batch_outputs_to_detect", Column::Type::kDouble},
       {"batch_over_sequential", Column::Type::kDouble}});
  for (const CaseResults& cr : r.cases) {
    if (cr.mechanism.correct) continue;
    const double seq = MedianOutputs(cr), batch = BatchOutputsToDetect(cr);
    t.Row({cr.mechanism.name, ClaimName(cr.mechanism), cr.mechanism.true_parameter,
           cr.rates.tpr - cr.rates.fpr, cr.tau,
           static_cast<int64_t>(cr.sequential.rejected_at.size()), 2 * cr.sequential.max_rounds,
           Rejections(cr.sequential.rejected_at), seq, batch, batch / seq});
  }
  return t.Build();
}

Result<SummaryTable> BatchPowerTable(const Config& c, const Results& r) {
  TableBuilder t("batch_power", "Batch audits of fixed size: rejection rate per size",
                 "Each row: " + std::to_string(c.batch_replications) +
                     " independent batch audits of n outputs per neighbour at level alpha = " +
                     FormatDouble(c.alpha) +
                     "; on a correct mechanism the rate is the batch test's type I error.",
                 {{"mechanism", Column::Type::kString},
                  {"correct", Column::Type::kString},
                  {"n_per_neighbour", Column::Type::kInt},
                  {"outputs", Column::Type::kInt},
                  {"rejected", Column::Type::kInt},
                  {"rejection_rate", Column::Type::kDouble}});
  for (const CaseResults& cr : r.cases) {
    for (const BatchRuns& b : cr.batch) {
      t.Row({cr.mechanism.name, cr.mechanism.correct ? "yes" : "no", b.n, 2 * b.n, b.rejections,
             b.replications > 0 ? static_cast<double>(b.rejections) / b.replications : 0.0});
    }
  }
  return t.Build();
}

Result<SummaryTable> DpsgdTable(const Config& c, const Results& r) {
  TableBuilder t(
      "dpsgd", "Sequential audit of DP-SGD steps (privbench's engine) within one training run",
      "Logistic regression, " + std::to_string(c.dpsgd_rows) +
          " synthetic rows, Poisson batches of " + std::to_string(c.dpsgd_batch_size) +
          " expected, sigma = " + FormatDouble(c.dpsgd_noise_multiplier) +
          ", C = " + FormatDouble(c.dpsgd_clip_norm) +
          "; one canary included per step by a fair coin; each step one game round on the "
          "canary coordinate's update, the claim: each step is (1/sigma)-GDP. noise_on_mean: "
          "the noise std calibrated to the averaged gradient (sigma C / B), a bug. "
          "largest_rejected_mu: the median over runs of the per-step mu lower bound at the end "
          "(prefix rule; 0 when none).",
      {{"variant", Column::Type::kString},
       {"runs", Column::Type::kInt},
       {"steps_per_run", Column::Type::kInt},
       {"claimed_mu_per_step", Column::Type::kDouble},
       {"runs_rejected", Column::Type::kInt},
       {"median_rejection_step", Column::Type::kDouble},
       {"median_largest_rejected_mu", Column::Type::kDouble},
       {"mean_train_accuracy", Column::Type::kDouble}});
  for (const auto* runs : {&r.dpsgd_correct, &r.dpsgd_bug}) {
    std::vector<int64_t> at;
    std::vector<double> mu;
    double accuracy = 0;
    for (const DpsgdRun& run : *runs) {
      at.push_back(run.rejected_at);
      mu.push_back(run.largest_rejected_mu.value_or(0.0));
      accuracy += run.final_train_accuracy;
    }
    const int64_t n = static_cast<int64_t>(runs->size());
    t.Row({DpsgdVariantName(runs == &r.dpsgd_correct ? DpsgdVariant::kCorrect
                                                     : DpsgdVariant::kNoiseOnMean),
           n, c.dpsgd_steps, 1.0 / c.dpsgd_noise_multiplier, Rejections(at), MedianRounds(at),
           Median(mu), n > 0 ? accuracy / n : 0.0});
  }
  return t.Build();
}

}  // namespace sequential_audit
}  // namespace privbench
