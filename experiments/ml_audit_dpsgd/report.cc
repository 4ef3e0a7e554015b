#include "experiments/ml_audit_dpsgd/report.h"

#include <map>
#include <string>
#include <tuple>

#include "results/table_builder.h"

namespace privbench {
namespace ml_audit_dpsgd {
namespace {

constexpr const char* kLostParameters =
    "ML-Audit's appendix (DP-SGD hyperparameters, the shadow attack's settings, Lemma A.3) is "
    "not in our text of the paper; ours, after Jagielski et al.'s public Fashion-MNIST audit "
    "(experiments/ml_audit_dpsgd/README.md): classes 0 vs 1, n_train of their training rows (5990 "
    "at paper scale, "
    "about half; not 6000 so that D' with up to 8 poison copies takes the same step count), "
    "x/255 flattened, MLP 784-32-2 (Tanh), DP-SGD with per-example clipping C = 1, Poisson "
    "sampling, batch 250, 24 epochs, lr 0.15, no momentum, sigma from the RDP accountant at "
    "delta = 1e-5; shadow poison appended k times (add/remove); ClipBKD pair and label: "
    "below; shadow poison: 4 non-private shadow models, 50 normalised "
    "ascent steps of L2 "
    "length 0.5 in [0,1]^784 from a random training row, label kept; vector tau: 8 test "
    "probes; classifier: L2-penalised (1e-3) logistic regression on the standardised summary "
    "and its squares; r = 1/N; Katz-log at z_{alpha/2}; 3 replicates (median reported, Sec. 5); "
    "quick scale: 990 rows, 6 epochs, N = 100, 1 replicate, 2 shadow models of 20 steps";

std::string LostParameters(const Config& c) {
  return std::string(kLostParameters) + "; this run's ClipBKD pair: " +
         (c.clipbkd_pair == "flip_replace"
              ? "flip_replace (D's last k rows replaced by x*, labelled 1 - y* in D and y* in "
                "D', Jagielski et al.'s public code; group size 2k)"
              : "append (k copies labelled y* added to D; group size k)") +
         ", y* least likely at x* under the mean of " + std::to_string(c.clipbkd_label_models) +
         (c.clipbkd_label_from == "dp" ? " DP-SGD models at each eps_th's sigma"
                                       : " non-private models");
}

// /audits/...: one entry per audit, the raw data behind the eps_lb table.
Status WriteAuditRows(ResultWriter& out, const std::vector<AuditRow>& rows,
                      const std::vector<double>& median) {
  std::vector<double> eps, sigma, lb, raw, search, threshold;
  std::vector<int64_t> k, dim, sn1, sn0, fn1, fn0, comp, haldane, rep, group;
  std::vector<std::string> attack, clf, pair;
  for (const AuditRow& r : rows) {
    rep.push_back(r.replicate), group.push_back(r.group), pair.push_back(r.pair);
    eps.push_back(r.eps_th), sigma.push_back(r.sigma), lb.push_back(r.result.eps_lb);
    raw.push_back(r.result.eps_lb_raw), search.push_back(r.result.search_bound);
    threshold.push_back(r.result.threshold), k.push_back(r.k), dim.push_back(r.summary_dim);
    sn1.push_back(r.result.search_n1), sn0.push_back(r.result.search_n0);
    fn1.push_back(r.result.fresh_n1), fn0.push_back(r.result.fresh_n0);
    comp.push_back(r.result.complement), haldane.push_back(r.result.haldane);
    attack.push_back(r.attack), clf.push_back(r.result.classifier);
  }
  PB_RETURN_IF_ERROR(out.WriteDoubles("/audits/eps_th", eps));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/audits/sigma", sigma));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/audits/eps_lb", lb));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/audits/eps_lb_raw", raw));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/audits/search_bound", search));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/audits/threshold", threshold));
  PB_RETURN_IF_ERROR(out.WriteInts("/audits/k", k));
  PB_RETURN_IF_ERROR(out.WriteInts("/audits/group", group));
  PB_RETURN_IF_ERROR(out.WriteStrings("/audits/pair", pair));
  PB_RETURN_IF_ERROR(out.WriteInts("/audits/replicate", rep));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/audits/eps_lb_median", median));
  PB_RETURN_IF_ERROR(out.WriteInts("/audits/summary_dim", dim));
  PB_RETURN_IF_ERROR(out.WriteInts("/audits/search_n1", sn1));
  PB_RETURN_IF_ERROR(out.WriteInts("/audits/search_n0", sn0));
  PB_RETURN_IF_ERROR(out.WriteInts("/audits/fresh_n1", fn1));
  PB_RETURN_IF_ERROR(out.WriteInts("/audits/fresh_n0", fn0));
  PB_RETURN_IF_ERROR(out.WriteInts("/audits/complement", comp));
  PB_RETURN_IF_ERROR(out.WriteInts("/audits/haldane", haldane));
  PB_RETURN_IF_ERROR(out.WriteStrings("/audits/attack", attack));
  return out.WriteStrings("/audits/classifier", clf);
}

Status WriteAudits(ResultWriter& out, const std::vector<AuditRow>& rows) {
  std::map<std::tuple<std::string, double, int64_t>, double> cell_median;
  for (const AuditRow& m : MedianRows(rows)) {
    cell_median[{m.attack, m.eps_th, m.k}] = m.result.eps_lb;
  }
  std::vector<double> median;
  for (const AuditRow& r : rows) median.push_back(cell_median[{r.attack, r.eps_th, r.k}]);
  PB_RETURN_IF_ERROR(WriteAuditRows(out, rows, median));
  PB_ASSIGN_OR_RETURN(const SummaryTable table, EpsLbTable(rows, median));
  return out.WriteTable(table);
}

// /accounting/... and the table "accounting": sigma calibrated per eps_th.
Status WriteAccounting(ResultWriter& out, const Config& c, const std::vector<Calibration>& cal) {
  std::vector<double> eps, sigma, rdp, q;
  std::vector<int64_t> steps;
  for (const Calibration& x : cal) {
    eps.push_back(x.eps_th), sigma.push_back(x.sigma), rdp.push_back(x.eps_rdp);
    q.push_back(x.q), steps.push_back(x.steps);
  }
  PB_RETURN_IF_ERROR(out.WriteDoubles("/accounting/eps_th", eps));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/accounting/sigma", sigma));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/accounting/eps_rdp", rdp));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/accounting/q", q));
  PB_RETURN_IF_ERROR(out.WriteInts("/accounting/steps", steps));
  PB_ASSIGN_OR_RETURN(const SummaryTable table, AccountingTable(c, cal));
  return out.WriteTable(table);
}

Status WriteCeiling(ResultWriter& out, const Config& c) {
  PB_ASSIGN_OR_RETURN(const SummaryTable table, CeilingTable(c));
  return out.WriteTable(table);
}

Status WritePoisons(ResultWriter& out, const Config& c, const Poisons& p,
                    const std::vector<Calibration>& cal) {
  std::vector<double> eps, prob;
  std::vector<int64_t> y;
  for (size_t e = 0; e < p.clipbkd_labels.size(); ++e) {
    eps.push_back(cal.at(e).eps_th), y.push_back(p.clipbkd_labels[e].y);
    prob.push_back(p.clipbkd_labels[e].prob);
  }
  PB_RETURN_IF_ERROR(out.WriteDoubles("/poisons/clipbkd_label/eps_th", eps));
  PB_RETURN_IF_ERROR(out.WriteInts("/poisons/clipbkd_label/y", y));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/poisons/clipbkd_label/prob", prob));
  PB_RETURN_IF_ERROR(out.WriteStrings("/poisons/clipbkd_label/from",
                                      std::vector<std::string>(y.size(), c.clipbkd_label_from)));
  std::vector<double> x(p.clipbkd.x.begin(), p.clipbkd.x.end());
  x.insert(x.end(), p.shadow.x.begin(), p.shadow.x.end());
  PB_RETURN_IF_ERROR(out.WriteDoubles("/poisons/x", x, {2, p.clipbkd.x.size()}));
  PB_RETURN_IF_ERROR(out.WriteStrings("/poisons/name", {"clipbkd", "shadow"}));
  PB_RETURN_IF_ERROR(out.WriteInts("/poisons/y", {p.clipbkd.y, p.shadow.y}));
  PB_RETURN_IF_ERROR(
      out.WriteInts("/poisons/source_row", {p.clipbkd.source_row, p.shadow.source_row}));
  return out.WriteDoubles("/poisons/clean_prob", {p.clipbkd.clean_prob, p.shadow.clean_prob});
}

// /probes/rep_<r>/eps_<i>/<side>: every model's probe vector.
Status WriteProbes(ResultWriter& out, const Config& c, const Pools& pools) {
  const std::vector<Side> sides = Sides(c);
  const uint64_t dim = static_cast<uint64_t>(ProbeDim(c.test_probes));
  for (const auto& [key, v] : pools) {
    PB_RETURN_IF_ERROR(out.WriteDoubles("/probes/rep_" + std::to_string(std::get<0>(key)) +
                                            "/eps_" + std::to_string(std::get<1>(key)) + "/" +
                                            sides[std::get<2>(key)].Name(),
                                        v, {v.size() / dim, dim}));
  }
  return Status::Ok();
}

}  // namespace

Status WriteReport(const Config& c, const Results& results, ResultWriter& out) {
  PB_RETURN_IF_ERROR(SetAttributes(out, "/meta",
                                   {{"lost_parameters", LostParameters(c)},
                                    {"clipbkd_pair", c.clipbkd_pair},
                                    {"clipbkd_label_from", c.clipbkd_label_from},
                                    {"device", c.device},
                                    {"dataset_provenance", "fashion-mnist"},
                                    {"torch_version", results.torch_version},
                                    {"sweep_part_versions", results.part_versions}}));
  PB_RETURN_IF_ERROR(WriteProbes(out, c, results.pools));
  PB_RETURN_IF_ERROR(WritePoisons(out, c, results.poisons, results.calibration));
  PB_RETURN_IF_ERROR(WriteAccounting(out, c, results.calibration));
  PB_RETURN_IF_ERROR(WriteCeiling(out, c));
  PB_RETURN_IF_ERROR(WriteAudits(out, results.rows));
  for (const JudgedClaim& claim : AuditClaims(c, results.rows)) {
    PB_RETURN_IF_ERROR(WriteJudgedClaim(claim, out));
  }
  if (ValidityClaim(c, results.rows).undecidable) {
    PB_RETURN_IF_ERROR(SetAttributes(out, "/claims/ml_audit_dpsgd_validity", {{"undecidable", 1}}));
  }
  return Status::Ok();
}

}  // namespace ml_audit_dpsgd
}  // namespace privbench
