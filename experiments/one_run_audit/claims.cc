// The study's claims (report.h): the bound below the accountants, growing
// with eps, white-box canaries tighter.
#include <cmath>
#include <string>

#include "core/format.h"
#include "experiments/one_run_audit/report.h"
#include "results/evidence.h"

namespace privbench {
namespace one_run_audit {
namespace {

// Indices of the runs with a finite target eps, in run order.
std::vector<size_t> Finite(const std::vector<RunResult>& runs) {
  std::vector<size_t> f;
  for (size_t i = 0; i < runs.size(); ++i) {
    if (std::isfinite(runs[i].target_epsilon)) f.push_back(i);
  }
  return f;
}

}  // namespace

Claim BelowAccountantClaim(const std::vector<RunResult>& runs) {
  bool holds = true;
  Evidence evidence;
  for (size_t i : Finite(runs)) {
    const RunResult& r = runs[i];
    for (int t = 0; t < kCanaryTypes; ++t) {
      const bool ok = r.audits[t].best_lower <= r.eps_pld && r.eps_pld <= r.eps_rdp;
      holds = holds && ok;
      evidence << (evidence.str().empty() ? "" : "; ") << "eps " << r.target_epsilon << " "
               << kCanaryTypeNames[t] << ": lower " << r.audits[t].best_lower << " <= pld "
               << r.eps_pld << " <= rdp " << r.eps_rdp << (ok ? "" : " VIOLATED");
    }
  }
  if (Finite(runs).empty()) evidence << "no finite eps level";
  return ClaimEvidence("one_run_audit_below_accountant", holds && !Finite(runs).empty(), evidence);
}

Claim GrowsWithEpsClaim(const std::vector<RunResult>& runs) {
  const std::vector<size_t> f = Finite(runs);
  if (f.size() < 2) {
    return ClaimEvidence("one_run_audit_grows_with_eps", false, "needs two finite eps levels");
  }
  const double lo = runs[f.front()].audits[1].best_lower;
  const double hi = runs[f.back()].audits[1].best_lower;
  bool holds = hi > lo;
  Evidence evidence;
  evidence << "white-box: eps " << runs[f.front()].target_epsilon << " -> " << lo << ", eps "
           << runs[f.back()].target_epsilon << " -> " << hi << " (every finite level:";
  for (size_t k = 0; k < f.size(); ++k) {
    evidence << (k ? ", " : " ") << runs[f[k]].target_epsilon << " -> "
             << runs[f[k]].audits[1].best_lower;
    if (k > 0 && runs[f[k]].audits[1].best_lower == runs[f[k - 1]].audits[1].best_lower) {
      evidence << " (tie)";
    }
  }
  evidence << ")";
  for (const RunResult& r : runs) {
    if (std::isfinite(r.target_epsilon)) continue;
    holds = holds && r.audits[1].best_lower >= hi;
    evidence << ", non-private -> " << r.audits[1].best_lower;
  }
  evidence << "; input-space:";
  for (size_t i = 0; i < runs.size(); ++i) {
    evidence << (i ? ", eps " : " eps ") << runs[i].target_epsilon << " -> "
             << runs[i].audits[0].best_lower;
  }
  return ClaimEvidence("one_run_audit_grows_with_eps", holds, evidence);
}

Claim WhiteBoxTighterClaim(const std::vector<RunResult>& runs) {
  double sum_in = 0, sum_wb = 0;
  Evidence evidence;
  for (const RunResult& r : runs) {
    sum_in += r.audits[0].best_lower;
    sum_wb += r.audits[1].best_lower;
    evidence << "eps " << r.target_epsilon << ": white-box " << r.audits[1].best_lower
             << " vs input-space " << r.audits[0].best_lower << "; ";
  }
  evidence << "sum " << sum_wb << " vs " << sum_in;
  const bool last =
      !runs.empty() && runs.back().audits[1].best_lower > runs.back().audits[0].best_lower;
  return ClaimEvidence("one_run_audit_white_box_tighter", !runs.empty() && sum_wb > sum_in && last,
                       evidence);
}

}  // namespace one_run_audit
}  // namespace privbench
