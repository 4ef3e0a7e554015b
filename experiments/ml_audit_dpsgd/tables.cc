// The study's summary tables (report.h): every audit's eps_lb, the noise
// calibration, the detection ceiling.
#include <set>
#include <string>
#include <utility>

#include "core/format.h"
#include "estimators/intervals/katz_log.h"
#include "experiments/ml_audit_dpsgd/report.h"
#include "results/table_builder.h"

namespace privbench {
namespace ml_audit_dpsgd {

// Every audit's eps_lb beside its cell's median over replicates.
Result<SummaryTable> EpsLbTable(const std::vector<AuditRow>& rows,
                                const std::vector<double>& median) {
  TableBuilder t(
      "eps_lb", "ML-Audit of DP-SGD on Fashion-MNIST: eps lower bounds",
      "Algorithm 1 (learned set, Katz-log at z_{alpha/2}, fresh N per side), bound divided by "
      "the group size g, the add/remove distance of D and D' (pair append: k copies added, g = "
      "k; flip_replace: k rows replaced by x*, labelled 1 - y* in D and y* in D', g = 2k); "
      "fresh_n1 / fresh_n0: the fresh counts behind the bound (numerator / denominator side); "
      "eps_lb_median: the median of eps_lb over the cell's replicates (what ML-Audit Sec. 5 "
      "reports)",
      {{"attack", Column::Type::kString},
       {"pair", Column::Type::kString},
       {"eps_th", Column::Type::kDouble},
       {"k", Column::Type::kInt},
       {"group", Column::Type::kInt},
       {"replicate", Column::Type::kInt},
       {"sigma", Column::Type::kDouble},
       {"eps_lb", Column::Type::kDouble},
       {"eps_lb_median", Column::Type::kDouble},
       {"fresh_n1", Column::Type::kInt},
       {"fresh_n0", Column::Type::kInt},
       {"search_bound", Column::Type::kDouble}});
  for (size_t i = 0; i < rows.size(); ++i) {
    const AuditRow& r = rows[i];
    t.Row({r.attack, r.pair, r.eps_th, r.k, r.group, r.replicate, r.sigma, r.result.eps_lb,
           median[i], r.result.fresh_n1, r.result.fresh_n0, r.result.search_bound});
  }
  return t.Build();
}

Result<SummaryTable> AccountingTable(const Config& c, const std::vector<Calibration>& cal) {
  TableBuilder t("accounting", "DP-SGD noise calibrated to each eps_th",
                 "RDP accountant of the Poisson-sampled Gaussian mechanism (add/remove), delta = " +
                     FormatDouble(c.delta) +
                     ", per-example clipping at C = " + FormatDouble(c.clip_norm) +
                     ", on D (n_train = " + std::to_string(c.n_train) + ")",
                 {{"eps_th", Column::Type::kDouble},
                  {"sigma", Column::Type::kDouble},
                  {"eps_rdp", Column::Type::kDouble},
                  {"q", Column::Type::kDouble},
                  {"steps", Column::Type::kInt}});
  for (const Calibration& x : cal) t.Row({x.eps_th, x.sigma, x.eps_rdp, x.q, x.steps});
  return t.Build();
}

Result<SummaryTable> CeilingTable(const Config& c) {
  TableBuilder t("detection_ceiling",
                 "Largest eps_lb N models per side can show (ML-Audit Cor. 4.0.1)",
                 "ln N - z sqrt(1 - 1/N), divided by the group size g (k appended copies; 2k "
                 "for the flip_replace pair); z = z_{alpha/2} (used) and z_{alpha/4} (the other "
                 "reading of Algorithm 1's line 12)",
                 {{"N", Column::Type::kInt},
                  {"k", Column::Type::kInt},
                  {"group", Column::Type::kInt},
                  {"ceiling_z_alpha_2", Column::Type::kDouble},
                  {"ceiling_z_alpha_4", Column::Type::kDouble}});
  std::set<std::pair<int64_t, int64_t>> seen;  // (k, g)
  for (int64_t k : c.k) {
    for (const std::string& a : SplitNames(c.attacks)) {
      const int64_t g = GroupSize(c, a, k);
      if (!seen.insert({k, g}).second) continue;
      PB_ASSIGN_OR_RETURN(const double ca, KatzLogCeiling(c.n, c.alpha));
      PB_ASSIGN_OR_RETURN(const double cb, KatzLogCeiling(c.n, c.alpha / 2));
      t.Row({c.n, k, g, ca / static_cast<double>(g), cb / static_cast<double>(g)});
    }
  }
  return t.Build();
}

}  // namespace ml_audit_dpsgd
}  // namespace privbench
