#include "experiments/ml_audit_dpsgd/report.h"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "core/format.h"
#include "core/stats.h"
#include "estimators/intervals/katz_log.h"

namespace privbench {
namespace ml_audit_dpsgd {
namespace {

constexpr const char* kSource = "Lu et al. (ML-Audit, NeurIPS 2022) Sec. 5, Fig. 8; ";

std::string Cell(const AuditRow& r) {
  return r.attack + " eps " + FormatDouble(r.eps_th) + " k " + std::to_string(r.k) + " rep " +
         std::to_string(r.replicate) + ": " + FormatSignificant(r.result.eps_lb, 3) + " (" +
         std::to_string(r.result.fresh_n1) + "/" + std::to_string(r.result.fresh_n0) + ")";
}

Claim ValidityClaim(const Config& c, const std::vector<AuditRow>& rows) {
  // Cells (eps_th, poison, k, replicate) have their own models:
  // independent. The audits of one cell (clipbkd and clipbkd_vec) share
  // theirs.
  using Key = std::tuple<double, std::string, int64_t, int64_t>;
  std::map<Key, int64_t> cells;
  std::set<Key> exceeded;
  std::string list;
  int64_t exceed = 0, g = 0;
  for (const AuditRow& r : rows) {
    const Key key = std::make_tuple(r.eps_th, PoisonOf(r.attack), r.k, r.replicate);
    g = std::max(g, ++cells[key]);
    if (r.result.eps_lb > r.eps_th + 1e-12) {
      ++exceed;
      exceeded.insert(key);
      list += "; " + Cell(r);
    }
  }
  const int64_t m = static_cast<int64_t>(cells.size());
  const double p = std::min(1.0, static_cast<double>(g) * c.alpha / 2);
  // DP-SGD is (eps_th, delta)-DP; k copies give (k eps_th, k e^{(k-1) eps_th}
  // delta) by group privacy. The check treats eps_th as pure: say how much
  // probability delta adds where an audit can exceed eps_th at all (k eps_th
  // below the detection ceiling).
  const double ceiling = KatzLogCeiling(c.n, c.alpha).value_or(0);
  double group_delta = 0;
  for (const AuditRow& r : rows) {
    const double kk = static_cast<double>(r.k);
    if (kk * r.eps_th < ceiling) {
      group_delta = std::max(group_delta, kk * std::exp((kk - 1) * r.eps_th) * c.delta);
    }
  }
  const int64_t allowed = AllowedExceedances(m, p, c.false_failure);
  return MakeClaim(
      "ml_audit_dpsgd_validity",
      "DP-SGD, correctly implemented and calibrated by the RDP accountant, never yields "
      "eps_lb > eps_th beyond the test's failure probability",
      std::string(kSource) + "Algorithm 1; experiments/ml_audit_dpsgd/README.md",
      m > 0 && static_cast<int64_t>(exceeded.size()) <= allowed,
      std::to_string(rows.size()) + " audits in " + std::to_string(m) +
          " independent (eps_th, poison, k, replicate) cells of at most " + std::to_string(g) +
          " audits sharing their models; each audit a one-sided Katz-log test at alpha/2 = " +
          FormatDouble(c.alpha / 2) +
          " (asymptotic), so a cell exceeds with probability <= " + FormatSignificant(p, 4) +
          " (union bound); cells with an exceedance: " + std::to_string(exceeded.size()) +
          " (audits: " + std::to_string(exceed) + "); allowed " + std::to_string(allowed) +
          " = the 1 - " + FormatDouble(c.false_failure) + " quantile of Bin(" + std::to_string(m) +
          ", " + FormatSignificant(p, 4) + "); delta = " + FormatDouble(c.delta) +
          " is not in this count: by group privacy it adds k e^{(k-1) eps_th} delta, at most " +
          FormatSignificant(group_delta, 2) +
          ", to an output set's probability in the cells where eps_lb can exceed eps_th (k "
          "eps_th below the ceiling " +
          FormatSignificant(ceiling, 4) + ")" + list);
}

Claim GrowsClaim(const Config& c, const std::vector<AuditRow>& rows) {
  std::map<double, double> best;
  for (const AuditRow& r : rows) best[r.eps_th] = std::max(best[r.eps_th], r.result.eps_lb);
  bool monotone = true;
  double prev = -1;
  std::string list;
  for (const auto& [eps, lb] : best) {
    monotone = monotone && lb >= prev;
    prev = lb;
    list += (list.empty() ? "" : ", ") + FormatDouble(eps) + ": " + FormatSignificant(lb, 3);
  }
  const double ceiling = KatzLogCeiling(c.n, c.alpha).value_or(0);
  const bool holds = best.size() >= 2 && monotone && best.rbegin()->second > best.begin()->second;
  return MakeClaim("ml_audit_dpsgd_grows_with_eps",
                   "The detected eps_lb grows with eps_th, up to the detection ceiling",
                   std::string(kSource) + "Cor. 4.0.1; experiments/ml_audit_dpsgd/README.md", holds,
                   "best median eps_lb (over " + std::to_string(c.replicates) +
                       " replicates) over attacks and k per eps_th: " + list +
                       "; criterion: nondecreasing and larger at the largest eps_th than at the "
                       "smallest; ceiling ln N - z_{alpha/2} sqrt(1 - 1/N) = " +
                       FormatSignificant(ceiling, 4) + " at N = " + std::to_string(c.n));
}

// `a` >= `b` in at least half of the (eps_th, k) cells where either is positive, and in sum.
Claim CompareClaim(const std::vector<AuditRow>& rows, const std::string& a, const std::string& b,
                   std::string id, std::string statement, std::string quote) {
  std::map<std::pair<double, int64_t>, std::pair<double, double>> cells;
  std::set<std::pair<double, int64_t>> seen_a, seen_b;
  for (const AuditRow& r : rows) {
    if (r.attack == a)
      cells[{r.eps_th, r.k}].first = r.result.eps_lb, seen_a.insert({r.eps_th, r.k});
    if (r.attack == b)
      cells[{r.eps_th, r.k}].second = r.result.eps_lb, seen_b.insert({r.eps_th, r.k});
  }
  int64_t positive = 0, wins = 0;
  double sum_a = 0, sum_b = 0;
  for (const auto& [key, v] : cells) {
    if (!seen_a.count(key) || !seen_b.count(key)) continue;
    if (v.first <= 0 && v.second <= 0) continue;
    ++positive;
    wins += v.first >= v.second;
    sum_a += v.first;
    sum_b += v.second;
  }
  const bool holds = positive > 0 && wins * 2 >= positive && sum_a >= sum_b;
  return MakeClaim(std::move(id), std::move(statement),
                   std::string(kSource) + quote + "; experiments/ml_audit_dpsgd/README.md", holds,
                   "median eps_lb over replicates: " + a + " >= " + b + " in " +
                       std::to_string(wins) + " of " + std::to_string(positive) +
                       " (eps_th, k) cells with a positive bound; sum of eps_lb " +
                       FormatSignificant(sum_a, 4) + " vs " + FormatSignificant(sum_b, 4) +
                       "; criterion: at least half the cells and the sum (no cell with a "
                       "positive bound: does not hold)");
}

Status WriteAudits(ResultWriter& out, const std::vector<AuditRow>& rows) {
  std::map<std::tuple<std::string, double, int64_t>, double> median;
  for (const AuditRow& m : MedianRows(rows)) median[{m.attack, m.eps_th, m.k}] = m.result.eps_lb;
  std::vector<double> eps, sigma, lb, raw, search, threshold, med;
  std::vector<int64_t> k, dim, sn1, sn0, fn1, fn0, comp, haldane, rep;
  std::vector<std::string> attack, clf;
  for (const AuditRow& r : rows) {
    med.push_back(median[{r.attack, r.eps_th, r.k}]), rep.push_back(r.replicate);
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
  PB_RETURN_IF_ERROR(out.WriteInts("/audits/replicate", rep));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/audits/eps_lb_median", med));
  PB_RETURN_IF_ERROR(out.WriteInts("/audits/summary_dim", dim));
  PB_RETURN_IF_ERROR(out.WriteInts("/audits/search_n1", sn1));
  PB_RETURN_IF_ERROR(out.WriteInts("/audits/search_n0", sn0));
  PB_RETURN_IF_ERROR(out.WriteInts("/audits/fresh_n1", fn1));
  PB_RETURN_IF_ERROR(out.WriteInts("/audits/fresh_n0", fn0));
  PB_RETURN_IF_ERROR(out.WriteInts("/audits/complement", comp));
  PB_RETURN_IF_ERROR(out.WriteInts("/audits/haldane", haldane));
  PB_RETURN_IF_ERROR(out.WriteStrings("/audits/attack", attack));
  PB_RETURN_IF_ERROR(out.WriteStrings("/audits/classifier", clf));
  SummaryTable t;
  t.name = "eps_lb";
  t.title = "ML-Audit of DP-SGD on Fashion-MNIST: eps lower bounds";
  t.caption =
      "Algorithm 1 (learned set, Katz-log at z_{alpha/2}, fresh N per side), bound divided by "
      "k; fresh_n1 / fresh_n0: the fresh counts behind the bound (numerator / denominator "
      "side); the poison is appended k times (add/remove neighbours); eps_lb_median: the "
      "median of eps_lb over the cell's replicates (what ML-Audit Sec. 5 reports)";
  t.columns = {Column::Strings("attack", attack),
               Column::Doubles("eps_th", eps),
               Column::Ints("k", k),
               Column::Ints("replicate", rep),
               Column::Doubles("sigma", sigma),
               Column::Doubles("eps_lb", lb),
               Column::Doubles("eps_lb_median", med),
               Column::Ints("fresh_n1", fn1),
               Column::Ints("fresh_n0", fn0),
               Column::Doubles("search_bound", search)};
  return out.WriteTable(t);
}

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
  SummaryTable t;
  t.name = "accounting";
  t.title = "DP-SGD noise calibrated to each eps_th";
  t.caption = "RDP accountant of the Poisson-sampled Gaussian mechanism (add/remove), delta = " +
              FormatDouble(c.delta) + ", per-example clipping at C = " + FormatDouble(c.clip_norm) +
              ", on D (n_train = " + std::to_string(c.n_train) + ")";
  t.columns = {Column::Doubles("eps_th", eps), Column::Doubles("sigma", sigma),
               Column::Doubles("eps_rdp", rdp), Column::Doubles("q", q),
               Column::Ints("steps", steps)};
  return out.WriteTable(t);
}

Status WriteCeiling(ResultWriter& out, const Config& c) {
  std::vector<int64_t> n, k;
  std::vector<double> z2, z4;
  for (int64_t kk : c.k) {
    PB_ASSIGN_OR_RETURN(double a, KatzLogCeiling(c.n, c.alpha));
    PB_ASSIGN_OR_RETURN(double b, KatzLogCeiling(c.n, c.alpha / 2));
    n.push_back(c.n), k.push_back(kk);
    z2.push_back(a / static_cast<double>(kk)), z4.push_back(b / static_cast<double>(kk));
  }
  SummaryTable t;
  t.name = "detection_ceiling";
  t.title = "Largest eps_lb N models per side can show (ML-Audit Cor. 4.0.1)";
  t.caption =
      "ln N - z sqrt(1 - 1/N), divided by k; z = z_{alpha/2} (used) and z_{alpha/4} (the other "
      "reading of Algorithm 1's line 12)";
  t.columns = {Column::Ints("N", n), Column::Ints("k", k), Column::Doubles("ceiling_z_alpha_2", z2),
               Column::Doubles("ceiling_z_alpha_4", z4)};
  return out.WriteTable(t);
}

Status WritePoisons(ResultWriter& out, const Poisons& p) {
  std::vector<double> x(p.clipbkd.x.begin(), p.clipbkd.x.end());
  x.insert(x.end(), p.shadow.x.begin(), p.shadow.x.end());
  PB_RETURN_IF_ERROR(out.WriteDoubles("/poisons/x", x, {2, p.clipbkd.x.size()}));
  PB_RETURN_IF_ERROR(out.WriteStrings("/poisons/name", {"clipbkd", "shadow"}));
  PB_RETURN_IF_ERROR(out.WriteInts("/poisons/y", {p.clipbkd.y, p.shadow.y}));
  PB_RETURN_IF_ERROR(
      out.WriteInts("/poisons/source_row", {p.clipbkd.source_row, p.shadow.source_row}));
  return out.WriteDoubles("/poisons/clean_prob", {p.clipbkd.clean_prob, p.shadow.clean_prob});
}

}  // namespace

int64_t AllowedExceedances(int64_t trials, double p, double beta) {
  if (trials <= 0) return 0;
  if (p >= 1) return trials;
  const boost::math::binomial_distribution<double> bin(static_cast<double>(trials), p);
  int64_t a = 0;
  while (a < trials &&
         boost::math::cdf(boost::math::complement(bin, static_cast<double>(a))) > beta) {
    ++a;
  }
  return a;
}

std::vector<AuditRow> MedianRows(const std::vector<AuditRow>& rows) {
  std::map<std::tuple<std::string, double, int64_t>, std::vector<double>> lbs;
  std::vector<AuditRow> out;
  for (const AuditRow& r : rows) {
    std::vector<double>& v = lbs[{r.attack, r.eps_th, r.k}];
    if (v.empty()) out.push_back(r);
    v.push_back(r.result.eps_lb);
  }
  for (AuditRow& r : out) {
    r.result.eps_lb = Median(lbs[{r.attack, r.eps_th, r.k}]);
    r.replicate = -1;
  }
  return out;
}

std::vector<Claim> AuditClaims(const Config& c, const std::vector<AuditRow>& rows) {
  const std::vector<AuditRow> medians = MedianRows(rows);
  return {ValidityClaim(c, rows), GrowsClaim(c, medians),
          CompareClaim(medians, "shadow", "clipbkd", "ml_audit_dpsgd_shadow_beats_clipbkd",
                       "The shadow-adversarial poison detects more privacy loss than ClipBKD on "
                       "Fashion-MNIST",
                       "'the shadow adversarial attack outperforms ClipBKD on FMNIST'"),
          CompareClaim(medians, "clipbkd_vec", "clipbkd", "ml_audit_dpsgd_vector_tau_helps",
                       "ClipBKD with the vector summary (P(x*), P(0), test predictions) improves "
                       "on the scalar P(x*) - P(0) on Fashion-MNIST",
                       "'a moderate improvement on FMNIST'")};
}

Status WriteReport(ResultWriter& out, const Config& c, const std::vector<Calibration>& cal,
                   const Poisons& poisons, const Pools& pools, const std::vector<AuditRow>& rows) {
  const std::vector<Side> sides = Sides(c);
  const uint64_t dim = static_cast<uint64_t>(ProbeDim(c.test_probes));
  for (const auto& [key, v] : pools) {
    PB_RETURN_IF_ERROR(out.WriteDoubles("/probes/rep_" + std::to_string(std::get<0>(key)) +
                                            "/eps_" + std::to_string(std::get<1>(key)) + "/" +
                                            sides[std::get<2>(key)].Name(),
                                        v, {v.size() / dim, dim}));
  }
  PB_RETURN_IF_ERROR(WritePoisons(out, poisons));
  PB_RETURN_IF_ERROR(WriteAccounting(out, c, cal));
  PB_RETURN_IF_ERROR(WriteCeiling(out, c));
  PB_RETURN_IF_ERROR(WriteAudits(out, rows));
  for (const Claim& claim : AuditClaims(c, rows)) PB_RETURN_IF_ERROR(out.WriteClaim(claim));
  return Status::Ok();
}

}  // namespace ml_audit_dpsgd
}  // namespace privbench
