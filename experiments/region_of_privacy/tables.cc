// The study's summary tables (report.h): Table 1, its rotated form and the
// region of privacy.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/format.h"
#include "experiments/region_of_privacy/report.h"
#include "results/table_builder.h"

namespace privbench {
namespace region_of_privacy {

std::string Percent(double fraction) { return FormatDouble(100 * fraction); }

namespace {

// The tables' column types: the noise level as printed, then numbers.
constexpr Column::Type kText = Column::Type::kString, kReal = Column::Type::kDouble;

Result<SummaryTable> Table1(const Config& c, const std::vector<double>& noise, const Aggregates& a,
                            const std::string& provenance, const std::string& setup) {
  TableBuilder t(
      "table1",
      "Table 1 re-run: accuracy, attack TPR and eps upper bounds at each training noise "
      "(Erlingsson et al. Table 1; " +
          provenance + ")",
      setup +
          " Rows: noise multiplier sigma. train_accuracy_pct: training accuracy (%); "
          "accuracy_rel_baseline_pct: its ratio to the non-private model's (%), the paper's "
          "'Accuracy'; population_accuracy_pct: accuracy on the non-members (%); "
          "attack_tpr_pct: Yeom loss-threshold attack TPR (%) at " +
          Percent(c.target_fpr) +
          "% FPR, threshold chosen on the same non-member sample; eps_*: upper bounds at "
          "delta = " +
          FormatDouble(c.delta) +
          " for the noise actually used (RDP with Table 1's orders, and with the default "
          "orders).",
      {{"noise_multiplier", kText},
       {"train_accuracy_pct", kReal},
       {"accuracy_rel_baseline_pct", kReal},
       {"population_accuracy_pct", kReal},
       {"attack_tpr_pct", kReal},
       {"eps_naive", kReal},
       {"eps_advanced", kReal},
       {"eps_rdp", kReal},
       {"eps_rdp_default_orders", kReal}});
  // No upper bound without privacy.
  t.Row({"non-private", 100 * a.base_acc.mean, 100.0, 100 * a.base_population_accuracy,
         100 * a.base_tpr.mean, NAN, NAN, NAN, NAN});
  for (size_t i = 0; i < noise.size(); ++i) {
    t.Row({NoiseText(noise[i]), 100 * a.acc_mean[i], 100 * a.acc_rel[i], 100 * a.pacc_mean[i],
           100 * a.tpr_mean[i], a.eps_naive[i], a.eps_adv[i], a.eps_rdp[i], a.eps_rdp_def[i]});
  }
  return t.Build();
}

Result<SummaryTable> RotatedTable(const Config& c, const std::vector<double>& noise,
                                  const Aggregates& a, const std::string& provenance,
                                  const std::string& setup) {
  TableBuilder t(
      "rotated",
      "The rotated table (Sec. 3): at equal training noise, every analysis' eps upper bound "
      "next to the attack's success (" +
          provenance + ")",
      setup +
          " Rows: one trained noise level; the models (and so the attack) are the same "
          "across the columns, only the analysis changes. train_loss: mean training "
          "cross-entropy (the paper's noise proxy); eps_*: upper bounds at delta = " +
          FormatDouble(c.delta) +
          " (zCDP as J&E, without sampling amplification; RDP with Table 1's orders); "
          "attack_tpr_pct and members_recovered: Yeom attack at " +
          Percent(c.target_fpr) + "% FPR (mean TPR in %, mean count of the " +
          std::to_string(c.n_train) +
          " members flagged); eps_lower_target_fpr: Prop. 3 at the mean advantage TPR - FPR "
          "of that operating point (Table 2's lower bound).",
      {{"noise_multiplier", kText},
       {"train_loss", kReal},
       {"eps_naive", kReal},
       {"eps_advanced", kReal},
       {"eps_zcdp", kReal},
       {"eps_rdp", kReal},
       {"attack_tpr_pct", kReal},
       {"members_recovered", kReal},
       {"eps_lower_target_fpr", kReal}});
  for (size_t i = 0; i < noise.size(); ++i) {
    t.Row({NoiseText(noise[i]), a.loss_mean[i], a.eps_naive[i], a.eps_adv[i], a.eps_zcdp[i],
           a.eps_rdp[i], 100 * a.tpr_mean[i], a.recovered[i], a.eps_lo_target[i]});
  }
  return t.Build();
}

Result<SummaryTable> RegionTable(const Config& c, const std::vector<double>& noise,
                                 const Aggregates& a, const std::string& provenance,
                                 const std::string& setup) {
  TableBuilder t(
      "region",
      "Region of privacy (Sec. 5.3, Fig. 1-2): attack lower bound vs RDP upper bound (" +
          provenance + ")",
      setup +
          " best_advantage: mean over repetitions of max over thresholds of TPR - FPR "
          "(threshold chosen with the labels, Sec. 5.3-5.4); null_best_advantage_mean / _q95: "
          "what that maximum is (mean, 95% quantile of one repetition) when members and "
          "non-members are indistinguishable, at these sample sizes: advantages at this level "
          "are not evidence of leakage; eps_lower_best: Prop. 3 at the mean best advantage; "
          "eps_lower_target_fpr: Prop. 3 at the " +
          Percent(c.target_fpr) +
          "% FPR point; eps_upper_rdp: the smaller RDP bound of the two order lists; ratio: "
          "upper / lower (the width of the region).",
      {{"noise_multiplier", kText},
       {"best_advantage", kReal},
       {"null_best_advantage_mean", kReal},
       {"null_best_advantage_q95", kReal},
       {"eps_lower_best", kReal},
       {"eps_lower_target_fpr", kReal},
       {"eps_upper_rdp", kReal},
       {"ratio", kReal}});
  // Without privacy there is no upper bound (infinite) and so no ratio.
  t.Row({"non-private", a.base_best, a.null_mean, a.null_q95, a.base_eps_best, a.base_eps_target,
         INFINITY, NAN});
  for (size_t i = 0; i < noise.size(); ++i) {
    const double ratio = a.eps_lo_best[i] > 0 ? a.eps_rdp_best[i] / a.eps_lo_best[i] : INFINITY;
    t.Row({NoiseText(noise[i]), a.best_mean[i], a.null_mean, a.null_q95, a.eps_lo_best[i],
           a.eps_lo_target[i], a.eps_rdp_best[i], ratio});
  }
  return t.Build();
}

}  // namespace

Result<std::vector<SummaryTable>> SummaryTables(const Config& c, const std::vector<double>& noise,
                                                const Aggregates& a, const std::string& provenance,
                                                const std::string& setup) {
  PB_ASSIGN_OR_RETURN(SummaryTable table1, Table1(c, noise, a, provenance, setup));
  PB_ASSIGN_OR_RETURN(SummaryTable rotated, RotatedTable(c, noise, a, provenance, setup));
  PB_ASSIGN_OR_RETURN(SummaryTable region, RegionTable(c, noise, a, provenance, setup));
  return std::vector<SummaryTable>{table1, rotated, region};
}

}  // namespace region_of_privacy
}  // namespace privbench
