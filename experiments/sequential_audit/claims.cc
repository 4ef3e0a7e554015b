// Study sequential_audit: the verdicts of its claims (statements, sources and
// criteria in claims.json) and the counting they share with the tables.
#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <limits>
#include <string>

#include "core/format.h"
#include "experiments/sequential_audit/report.h"
#include "results/evidence.h"

namespace privbench {
namespace sequential_audit {

int64_t Rejections(const std::vector<int64_t>& rejected_at) {
  int64_t k = 0;
  for (int64_t t : rejected_at) k += t > 0;
  return k;
}

double MedianOutputs(const CaseResults& r) { return 2 * MedianRounds(r.sequential.rejected_at); }

double BatchOutputsToDetect(const CaseResults& r) {
  for (const BatchRuns& b : r.batch) {
    if (2 * b.rejections >= b.replications && b.replications > 0) return 2.0 * b.n;
  }
  return std::numeric_limits<double>::infinity();
}

double BinomialUpperTail(int64_t k, int64_t replications, double alpha) {
  if (k <= 0) return 1.0;
  const boost::math::binomial law(static_cast<double>(replications), alpha);
  return boost::math::cdf(boost::math::complement(law, static_cast<double>(k - 1)));
}

namespace {

std::string ClaimText(const MechanismCase& m) {
  return m.claim == ClaimKind::kPureDp ? "eps=" + FormatSignificant(m.claimed, 4)
                                       : "mu=" + FormatSignificant(m.claimed, 4);
}

}  // namespace

Claim Type1ControlledClaim(const Config& c, const Results& r) {
  bool holds = true;
  int64_t correct_cases = 0;
  Evidence evidence;
  for (const CaseResults& cr : r.cases) {
    if (!cr.mechanism.correct) continue;
    ++correct_cases;
    const int64_t k = Rejections(cr.sequential.rejected_at);
    const int64_t n = static_cast<int64_t>(cr.sequential.rejected_at.size());
    const double p = BinomialUpperTail(k, n, c.alpha);
    holds = holds && p >= kFalseFailure;
    evidence << cr.mechanism.name << " (" << ClaimText(cr.mechanism) << ", TPR-FPR "
             << cr.rates.tpr - cr.rates.fpr << " vs tau " << cr.tau << "): " << k << "/" << n
             << " rejected within " << cr.sequential.max_rounds << " pair rounds, P(Bin(" << n
             << ", " << c.alpha << ") >= " << k << ") = " << p << "; ";
  }
  const int64_t k = Rejections([&] {
    std::vector<int64_t> v;
    for (const DpsgdRun& run : r.dpsgd_correct) v.push_back(run.rejected_at);
    return v;
  }());
  evidence << "DP-SGD engine, correct: " << k << "/" << static_cast<int64_t>(r.dpsgd_correct.size())
           << " runs rejected the per-step claim";
  return ClaimEvidence("sequential_audit_type1_controlled", holds && correct_cases > 0, evidence);
}

Claim DetectsFewHundredClaim(const Results& r) {
  bool holds = true;
  int64_t violations = 0;
  Evidence evidence;
  for (const CaseResults& cr : r.cases) {
    if (cr.mechanism.correct) continue;
    ++violations;
    const double outputs = MedianOutputs(cr);
    holds = holds && outputs <= 1000;
    evidence << cr.mechanism.name << " (claims " << ClaimText(cr.mechanism) << ", truly "
             << cr.mechanism.true_parameter << "): median " << outputs << " outputs ("
             << Rejections(cr.sequential.rejected_at) << "/"
             << static_cast<int64_t>(cr.sequential.rejected_at.size()) << " detected within "
             << 2 * cr.sequential.max_rounds << "); ";
  }
  return ClaimEvidence("sequential_audit_detects_few_hundred", holds && violations > 0, evidence);
}

Claim OrdersBelowBatchClaim(const Results& r) {
  bool holds = true;
  int64_t violations = 0;
  Evidence evidence;
  for (const CaseResults& cr : r.cases) {
    if (cr.mechanism.correct) continue;
    ++violations;
    const double seq = MedianOutputs(cr), batch = BatchOutputsToDetect(cr);
    holds = holds && std::isfinite(seq) && seq * 10 <= batch;
    evidence << cr.mechanism.name << ": sequential median " << seq
             << " outputs, batch (smallest size detecting in half its audits) " << batch
             << " outputs, ratio " << batch / seq << "; ";
  }
  evidence << "a batch audit at the paper's 50,000 outputs would use 50000";
  return ClaimEvidence("sequential_audit_orders_below_batch", holds && violations > 0, evidence);
}

Claim DpsgdBugWithinOneRunClaim(const Config& c, const Results& r) {
  std::vector<int64_t> bug;
  for (const DpsgdRun& run : r.dpsgd_bug) bug.push_back(run.rejected_at);
  std::vector<int64_t> correct;
  for (const DpsgdRun& run : r.dpsgd_correct) correct.push_back(run.rejected_at);
  const double median = MedianRounds(bug);
  const int64_t detected = Rejections(bug), false_alarms = Rejections(correct);
  const double p = BinomialUpperTail(false_alarms, static_cast<int64_t>(correct.size()), c.alpha);
  const bool holds = !bug.empty() && detected == static_cast<int64_t>(bug.size()) &&
                     median <= static_cast<double>(c.dpsgd_steps) && p >= kFalseFailure;
  Evidence evidence;
  evidence << "noise_on_mean: " << detected << "/" << static_cast<int64_t>(bug.size())
           << " runs rejected the per-step claim mu=" << 1.0 / c.dpsgd_noise_multiplier
           << " within one run of " << c.dpsgd_steps << " steps, median at step " << median
           << "; correct engine: " << false_alarms << "/" << static_cast<int64_t>(correct.size())
           << " runs rejected, P(Bin >= that) = " << p;
  return ClaimEvidence("sequential_audit_dpsgd_bug_within_one_run", holds, evidence);
}

}  // namespace sequential_audit
}  // namespace privbench
