// What the study file's three parts share: report.cc (WriteReport and the raw
// data), claims.cc (the verdicts) and tables.cc (/summary/*); layout: report.h.
#ifndef PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_REPORT_INTERNAL_H_
#define PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_REPORT_INTERNAL_H_

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/lib/framework/judged_claim.h"
#include "experiments/lira_bayes_audit/report.h"
#include "results/h5_file.h"

namespace privbench {
namespace lira_bayes_audit {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// report.cc: whether the data is CIFAR-10; what the data is, for captions and
// evidence (the Fashion-MNIST stand-in, or CIFAR-10).
bool OnCifar10(const AuditResult& r);
std::string StandIn(const AuditResult& r);

// claims.cc: split_half and bonferroni, the selections that make an interval
// a valid statement (max_lower chooses the threshold on the data).
bool IsValidSelection(const std::string& selection);
// The row of a selection and method, or nullptr.
const IntervalRow* Find(const std::vector<IntervalRow>& rows, const std::string& selection,
                        const std::string& method);
// Mann-Whitney AUC of scores over the trials (NaN without both members and
// non-members).
double TrialAuc(const std::vector<double>& scores, const std::vector<uint8_t>& bits);

// A claim's verdict; undecidable: these data cannot make it fail (the claim
// group gets the attribute undecidable = 1).
struct Verdict {
  Claim claim;
  bool undecidable = false;
};
Verdict WidthOrder(const AuditResult& r);
Claim BayesFinite(const AuditResult& r);
Claim NoDpLeaksMore(const AuditResult& r);
Verdict ValidBelowEps(const AuditResult& r, double eps, double delta);
Claim DpAccuracyLower(const AuditResult& r);
JudgedClaim RmiaBeatsOfflineLira(const AuditResult& r);

// tables.cc: width / CP width - 1 in percent at the paper's selection (NaN
// where a width is infinite or a row is missing).
double Reduction(const std::vector<IntervalRow>& rows, const std::string& method);
Result<SummaryTable> Table2(const AuditResult& r);
Result<SummaryTable> ReductionTable(const AuditResult& r);
Result<SummaryTable> AccuracyTable(const AuditResult& r);
Result<SummaryTable> AttackTable(const AuditResult& r);

}  // namespace lira_bayes_audit
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_REPORT_INTERNAL_H_
