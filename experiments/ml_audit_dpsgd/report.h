// What study D2 `ml_audit_dpsgd` (README.md) writes, from WriteReport.
//
// Layout of results/raw/ml_audit_dpsgd.h5:
//   /meta {lost_parameters,dataset_provenance,torch_version,sweep_part_versions}
//   /accounting/{eps_th,sigma,eps_rdp,q,steps}     per eps_th (RDP, delta)
//   /meta attributes clipbkd_pair, clipbkd_label_from (the run's choices)
//   /poisons/{name,y,clean_prob,source_row}, /poisons/x  [2, 784]
//   /poisons/clipbkd_label/{eps_th,y,prob,from}  ClipBKD's y* per eps_th
//   /probes/rep_<r>/eps_<i>/<side>  [2N, m + 3] every model's probe vector
//                            (models.h)
//   /audits/...              one row per replicate x eps_th x attack x k
//                            (pair, group: the bound's divisor)
//                            (Algorithm 1's result with the counts behind
//                            every bound; eps_lb_median: its cell's median
//                            over replicates, what the paper reports)
//   /summary/{eps_lb,detection_ceiling,accounting}, /claims/...
// Claims (verdicts and evidence; statements and criteria: claims.json):
//   ml_audit_dpsgd_validity: eps_lb <= eps_th beyond the stated failure
//     probability, eps_lb the bound divided by the group size (the
//     add/remove distance of D and D': k, or 2k for ClipBKD's flip_replace
//     pair; compute.h). Every replicate's audit counts (not the medians). The
//     audits of one (eps_th, poison, k, replicate) cell share their models
//     (clipbkd and clipbkd_vec), so per cell the chance that any of its g
//     audits exceeds is <= g alpha/2 (union bound; each is a one-sided
//     Katz-log test at alpha/2, asymptotic); cells, replicates included,
//     are independent (own models and seeds); allowed: the 1 -
//     false_failure quantile of Bin(cells, min(1, g alpha/2)) cells with an
//     exceedance.
//   The other claims read the median over replicates (MedianRows).
//   ml_audit_dpsgd_grows_with_eps: for every (attack, k), the bound at
//     each next larger eps_th is larger (ML-Audit Fig. 8: detected risk
//     rises with eps_th up to the ceiling ln N - z_{alpha/2} sqrt(1 - 1/N),
//     Cor. 4.0.1), judged by a sign test over those steps (steps where both
//     bounds are 0 dropped); the best bound per eps_th is the evidence.
//   ml_audit_dpsgd_shadow_beats_clipbkd: shadow >= clipbkd (scalar tau) on
//     FMNIST (Sec. 5: "the shadow adversarial attack outperforms ClipBKD on
//     FMNIST").
//   ml_audit_dpsgd_vector_tau_helps: clipbkd_vec >= clipbkd (Sec. 5: "a
//     moderate improvement on FMNIST").
//   The two comparisons: over the (eps_th, k) cells where either bound is
//   positive, the first > the second, judged by a sign test. Every sign
//   test: exact, one-sided, level 0.05; holds when significant, does not
//   hold when significant the other way, inconclusive otherwise (at quick
//   scale, with N = 100 and one replicate, bounds are mostly 0 and single
//   positive cells decided the old rules, which flipped with the seed).
#ifndef PRIVBENCH_EXPERIMENTS_ML_AUDIT_DPSGD_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_ML_AUDIT_DPSGD_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/lib/framework/judged_claim.h"
#include "experiments/ml_audit_dpsgd/compute.h"
#include "experiments/ml_audit_dpsgd/config.h"
#include "results/h5_file.h"

namespace privbench {
namespace ml_audit_dpsgd {

// What the sweep and the audits hand the report.
struct Results {
  std::vector<Calibration> calibration;  // sigma per eps_th
  Poisons poisons;
  Pools pools;                 // every model's probe vector
  std::vector<AuditRow> rows;  // replicate x eps_th x attack x k, RunAudits' order
  std::string torch_version;   // /meta torch_version
  std::string part_versions;   // /meta sweep_part_versions
};

Status WriteReport(const Config& config, const Results& results, ResultWriter& out);

// Exposed for the claims' unit test:
// Largest a with P[Bin(trials, p) > a] <= beta.
// claims.cc: the validity claim over the audits that could have failed
// (their g eps_th below the largest Katz-log lower end, or that did): with
// none, it is undecidable on these data, never a pass.
struct ValidityVerdict {
  Claim claim;
  bool undecidable = false;
};
ValidityVerdict ValidityClaim(const Config& c, const std::vector<AuditRow>& rows);

// tables.cc: every audit's eps_lb beside its cell's median over replicates
// (`median`, one per row); the noise calibrated to each eps_th; the
// detection ceiling per (k, group size).
Result<SummaryTable> EpsLbTable(const std::vector<AuditRow>& rows,
                                const std::vector<double>& median);
Result<SummaryTable> AccountingTable(const Config& c, const std::vector<Calibration>& cal);
Result<SummaryTable> CeilingTable(const Config& c);

int64_t AllowedExceedances(int64_t trials, double p, double beta);

// One row per (attack, eps_th, k): the first replicate's row with eps_lb
// replaced by the median over its replicates (Sec. 5), replicate = -1.
std::vector<AuditRow> MedianRows(const std::vector<AuditRow>& rows);

// The four claims, in the order above: validity definite (inconclusive 0,
// holds_fraction 1 or 0), the three comparisons judged by exact one-sided
// sign tests at level 0.05 (inconclusive when the test decides neither way).
std::vector<JudgedClaim> AuditClaims(const Config& c, const std::vector<AuditRow>& rows);

}  // namespace ml_audit_dpsgd
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_ML_AUDIT_DPSGD_REPORT_H_
