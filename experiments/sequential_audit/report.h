// What study sequential_audit writes (results/raw/sequential_audit.h5), from
// WriteReport; C cases (compute.h), R_c replications of case c, G batch
// sizes, V = 2 DP-SGD variants of D runs of T steps each:
//   /settings          attributes: alpha, threshold, claimed_epsilon,
//                      claimed_mu, dpsgd_* (the DP-SGD setup), batch_sizes
//   /cases/<case>/rejected_at [R_c]  pair round of rejection (0 = never)
//   /cases/<case>/trace [<= trace_rounds]  replication 0's ln K per round
//   /cases/<case>/batch/{n,rejections} [G]   (batch_replications each)
//   /cases/<case>      attributes: description, claim ("eps-DP"/"mu-GDP"),
//                      claimed, true_parameter, correct, tpr, fpr, tau,
//                      replications, max_rounds
//   /dpsgd/<variant>/{rejected_at,canary_steps,correct_guesses} [D],
//          largest_rejected_mu [D] (NaN: none), train_accuracy [D],
//          trace [D, T] (ln K of the per-step claim); attribute claimed_mu
//   /numbers/{median_outputs,batch_outputs}_<violation>, type1_rate_<correct case>,
//          dpsgd_bug_median_detection_step
//   /summary/{type1,detection,batch_power,dpsgd}   tables.cc
//   /claims/sequential_audit_{type1_controlled,detects_few_hundred,
//          orders_below_batch,dpsgd_bug_within_one_run}   claims.cc
#ifndef PRIVBENCH_EXPERIMENTS_SEQUENTIAL_AUDIT_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_SEQUENTIAL_AUDIT_REPORT_H_

#include <vector>

#include "core/result.h"
#include "experiments/sequential_audit/compute.h"
#include "experiments/sequential_audit/config.h"
#include "experiments/sequential_audit/dpsgd_case.h"
#include "results/h5_file.h"

namespace privbench {
namespace sequential_audit {

struct CaseResults {
  MechanismCase mechanism;
  RuleRates rates;  // exact, of the threshold rule
  double tau = 0;   // the claim's bound on TPR - FPR
  SequentialRuns sequential;
  std::vector<BatchRuns> batch;  // one per config.batch_sizes
};

struct Results {
  std::vector<CaseResults> cases;
  std::vector<DpsgdRun> dpsgd_correct, dpsgd_bug;
};

// Outputs the sequential test consumed to reject, at the median replication
// (2 per pair round; +inf when at least half never rejected).
double MedianOutputs(const CaseResults& r);
// Outputs (2n) of the smallest batch size whose batch test rejected in at
// least half of its replications; +inf if none did.
double BatchOutputsToDetect(const CaseResults& r);
// P(Binomial(R, alpha) >= k): how surprising k rejections in R audits are if
// the type I error is exactly alpha.
double BinomialUpperTail(int64_t k, int64_t replications, double alpha);
int64_t Rejections(const std::vector<int64_t>& rejected_at);

// claims.cc: verdicts and evidence (statements: claims.json).
inline constexpr double kFalseFailure = 0.001;  // per correct case, of the type I claim
Claim Type1ControlledClaim(const Config& c, const Results& r);
Claim DetectsFewHundredClaim(const Results& r);
Claim OrdersBelowBatchClaim(const Results& r);
Claim DpsgdBugWithinOneRunClaim(const Config& c, const Results& r);

// tables.cc
Result<SummaryTable> Type1Table(const Config& c, const Results& r);
Result<SummaryTable> DetectionTable(const Config& c, const Results& r);
Result<SummaryTable> BatchPowerTable(const Config& c, const Results& r);
Result<SummaryTable> DpsgdTable(const Config& c, const Results& r);

Status WriteReport(const Config& config, const Results& results, ResultWriter& out);

}  // namespace sequential_audit
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_SEQUENTIAL_AUDIT_REPORT_H_
