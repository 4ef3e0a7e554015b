// The study's claims and the numbers verify reads (report.h).
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/format.h"
#include "experiments/region_of_privacy/report.h"
#include "results/evidence.h"

namespace privbench {
namespace region_of_privacy {

std::vector<std::pair<std::string, double>> VerifyNumbers(const std::vector<double>& noise,
                                                          const Aggregates& a) {
  std::vector<std::pair<std::string, double>> n;
  for (size_t i = 0; i < noise.size(); ++i) {
    const std::string k = "sigma" + NoiseText(noise[i]);
    n.emplace_back("acc_rel_pct_" + k, 100.0 * a.acc_rel[i]);
    n.emplace_back("train_acc_pct_" + k, 100.0 * a.acc_mean[i]);
    n.emplace_back("tpr_pct_" + k, 100.0 * a.tpr_mean[i]);
    n.emplace_back("eps_lower_target_fpr_" + k, a.eps_lo_target[i]);
    n.emplace_back("eps_lower_best_" + k, a.eps_lo_best[i]);
    n.emplace_back("eps_naive_" + k, a.eps_naive[i]);
    n.emplace_back("eps_advanced_" + k, a.eps_adv[i]);
    n.emplace_back("eps_rdp_" + k, a.eps_rdp[i]);
    n.emplace_back("eps_rdp_default_orders_" + k, a.eps_rdp_def[i]);
  }
  n.emplace_back("baseline_train_acc_pct", 100.0 * a.base_acc.mean);
  n.emplace_back("baseline_tpr_pct", 100.0 * a.base_tpr.mean);
  return n;
}
Result<std::vector<JudgedClaim>> Claims(const Config& c, const std::vector<double>& noise,
                                        const Aggregates& a, const std::string& provenance) {
  PB_ASSIGN_OR_RETURN(RiseCheck accuracy, CheckRisesAsNoiseFalls(noise, a.acc_mean, a.acc_se,
                                                                 "training accuracy (%)", 100.0));
  PB_ASSIGN_OR_RETURN(
      TrendCheck tpr,
      CheckTrendRisesAsNoiseFalls(noise, a.tpr_mean, a.tpr_se,
                                  "attack TPR at " + Percent(c.target_fpr) + "% FPR (%)", 100.0,
                                  kTrendTestAlpha, std::max<int64_t>(c.repetitions - 1, 0)));
  PB_ASSIGN_OR_RETURN(OrderCheck mean_below_rdp,
                      CheckBelow(noise, a.eps_lo_best, a.eps_rdp_best,
                                 "Prop. 3 lower bound (mean best advantage)", "RDP upper bound"));
  PB_ASSIGN_OR_RETURN(OrderCheck rep_below_rdp,
                      CheckBelow(noise, a.eps_lo_best_max_rep, a.eps_rdp_best,
                                 "largest single-repetition lower bound", "RDP upper bound"));
  PB_ASSIGN_OR_RETURN(OrderCheck rdp_below_adv,
                      CheckBelow(noise, a.eps_rdp, a.eps_adv, "RDP", "advanced"));
  PB_ASSIGN_OR_RETURN(OrderCheck rdp_below_naive,
                      CheckBelow(noise, a.eps_rdp, a.eps_naive, "RDP", "naive"));
  PB_ASSIGN_OR_RETURN(OrderCheck pld_below_rdp, CheckBelow(noise, a.eps_pld, a.eps_rdp_best, "PLD",
                                                           "RDP (best of both order lists)"));
  PB_ASSIGN_OR_RETURN(OrderCheck lower_below_pld,
                      CheckBelow(noise, a.eps_lo_best, a.eps_pld,
                                 "Prop. 3 lower bound (mean best advantage)", "PLD upper bound"));
  // Definite claims: inconclusive 0, holds_fraction 1 or 0 (= holds).
  auto definite = [](Claim claim) {
    const double fraction = claim.holds ? 1.0 : 0.0;
    return JudgedClaim{std::move(claim), false, fraction};
  };
  return std::vector<JudgedClaim>{
      definite(ClaimEvidence("region_of_privacy_accuracy_rises", accuracy.holds,
                             Evidence() << accuracy.evidence << " Data: " << provenance << ".")),
      JudgedClaim{ClaimEvidence("region_of_privacy_tpr_rises", tpr.holds,
                                Evidence() << tpr.evidence << " Data: " << provenance << "."),
                  tpr.inconclusive, tpr.holds_fraction},
      definite(ClaimEvidence(
          "region_of_privacy_region_nonempty", mean_below_rdp.holds && rep_below_rdp.holds,
          Evidence() << mean_below_rdp.evidence << " " << rep_below_rdp.evidence)),
      definite(ClaimEvidence(
          "region_of_privacy_refined_tighter", rdp_below_adv.holds && rdp_below_naive.holds,
          Evidence() << rdp_below_adv.evidence << " " << rdp_below_naive.evidence)),
      definite(ClaimEvidence(
          "region_of_privacy_pld_tighter", pld_below_rdp.holds && lower_below_pld.holds,
          Evidence() << pld_below_rdp.evidence << " " << lower_below_pld.evidence))};
}

}  // namespace region_of_privacy
}  // namespace privbench
