#include "experiments/ml_audit_dpsgd/report.h"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "core/format.h"
#include "core/stats.h"
#include "estimators/intervals/katz_log.h"
#include "results/evidence.h"
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

// One audit: "clipbkd eps 1 k 4 rep 0: 0.1234 (n1/n0)".
std::string AuditText(const AuditRow& r) {
  return Evidence() << r.attack << " eps " << r.eps_th << " k " << r.k << " rep " << r.replicate
                    << ": " << r.result.eps_lb << " (" << r.result.fresh_n1 << "/"
                    << r.result.fresh_n0 << ")";
}

// The largest probability delta adds to an output set by group privacy,
// g e^{(g-1) eps_th} delta (g the group size: k, or 2k for the flip pair),
// over the audits that can exceed eps_th at all (g eps_th below the
// detection ceiling).
double GroupDelta(const Config& c, const std::vector<AuditRow>& rows, double ceiling) {
  double group_delta = 0;
  for (const AuditRow& r : rows) {
    const double kk = static_cast<double>(r.group);
    if (kk * r.eps_th < ceiling) {
      group_delta = std::max(group_delta, kk * std::exp((kk - 1) * r.eps_th) * c.delta);
    }
  }
  return group_delta;
}

// Whether an audit could report eps_lb > eps_th at all: its bound is at
// most the largest Katz-log lower end at n trials (KatzLogLargestLowerBound)
// divided by its group size g, so only audits with g eps_th below it can
// fail the validity check.
bool CanExceed(const AuditRow& r, double largest) {
  return static_cast<double>(r.group) * r.eps_th < largest;
}

// The validity claim over the audits that could have failed (CanExceed, or
// that did): with none, it is undecidable on these data, never a pass.
struct ValidityVerdict {
  Claim claim;
  bool undecidable = false;
};

ValidityVerdict ValidityClaim(const Config& c, const std::vector<AuditRow>& rows) {
  // Cells (eps_th, poison, k, replicate) have their own models:
  // independent. The audits of one cell (clipbkd and clipbkd_vec) share
  // theirs. Only audits that could exceed eps_th (CanExceed) are judged.
  const double ceiling = KatzLogCeiling(c.n, c.alpha).value_or(0);
  const double largest =
      KatzLogLargestLowerBound(c.n, c.alpha).value_or(std::numeric_limits<double>::infinity());
  using Key = std::tuple<double, std::string, int64_t, int64_t>;
  std::map<Key, int64_t> cells;
  std::set<Key> exceeded;
  std::string list;
  int64_t exceed = 0, g = 0, testable = 0;
  for (const AuditRow& r : rows) {
    // An exceedance counts wherever it is (above the ceiling it would be a
    // bug of the bound itself); otherwise only audits that could exceed.
    const bool exceeds = r.result.eps_lb > r.eps_th + 1e-12;
    if (!CanExceed(r, largest) && !exceeds) continue;
    ++testable;
    const Key key = std::make_tuple(r.eps_th, PoisonOf(r.attack), r.k, r.replicate);
    g = std::max(g, ++cells[key]);
    if (exceeds) {
      ++exceed;
      exceeded.insert(key);
      list += "; " + AuditText(r);
    }
  }
  const int64_t m = static_cast<int64_t>(cells.size());
  const double p = std::min(1.0, static_cast<double>(g) * c.alpha / 2);
  // DP-SGD is (eps_th, delta)-DP; D and D' at add/remove distance g (k
  // appended copies; 2k for the flip_replace pair) give (g eps_th, g
  // e^{(g-1) eps_th} delta) by group privacy, and eps_lb is the bound / g,
  // so it is compared with eps_th. The check treats eps_th as pure: say how
  // much probability delta adds where an audit can exceed eps_th at all.
  const int64_t allowed = AllowedExceedances(m, p, c.false_failure);
  ValidityVerdict v;
  // With no judged cell, or an allowance that admits every judged cell
  // exceeding, no outcome can fail the check.
  v.undecidable = testable == 0 || allowed >= m;
  Evidence ev;
  ev << testable << " of " << rows.size()
     << " audits could have exceeded eps_th at all (g eps_th below the largest Katz-log lower end "
     << largest << " at " << c.n << " trials; the others cannot fail whatever the models do)";
  if (testable == 0) {
    ev << ": none, so validity is not tested on these data (undecidable)";
  } else {
    if (v.undecidable) {
      ev << "; their " << m << " cells are within the allowance " << allowed
         << " even if all exceed, so validity is not tested on these data (undecidable)";
    }
    ev << ", in " << m << " independent (eps_th, poison, k, replicate) cells of at most " << g
       << " audits; a cell exceeds with probability <= " << p << " (alpha/2 = " << c.alpha / 2
       << " per audit); cells with an exceedance: " << exceeded.size() << " (audits: " << exceed
       << "); allowed " << allowed << " (Bin(" << m << ", " << p << ") at 1 - " << c.false_failure
       << ")";
  }
  ev << "; eps_lb = bound / g, g the add/remove distance of D and D' (ClipBKD pair "
     << c.clipbkd_pair << ": g = " << (c.clipbkd_pair == "flip_replace" ? "2k" : "k")
     << "; shadow: g = k); delta = " << c.delta
     << " is not in this count: by group privacy it adds g e^{(g-1) eps_th} delta, at most "
     << GroupDelta(c, rows, ceiling)
     << ", to an output set's probability where eps_lb can exceed eps_th" << list;
  v.claim = ClaimEvidence("ml_audit_dpsgd_validity",
                          !v.undecidable && static_cast<int64_t>(exceeded.size()) <= allowed, ev);
  return v;
}

// The level of the sign tests that judge the comparative claims.
constexpr double kSignTestAlpha = 0.05;

// A claim judged by one exact one-sided sign test (judged_claim.h): the
// evidence gets the test and, when it decides neither way, says so.
JudgedClaim SignJudgedClaim(std::string id, const SignTest& test, Evidence evidence,
                            const std::string& note) {
  const SignVerdict v = JudgeAllGreater({test}, kSignTestAlpha);
  evidence << "; judged by an exact sign test at level " << kSignTestAlpha << ": "
           << SignTestText(test)
           << (v.inconclusive ? " (inconclusive: the test decides neither way)" : "") << note;
  return {ClaimEvidence(std::move(id), v.holds, evidence), v.inconclusive, v.holds_fraction};
}

// Grows with eps_th: for every (attack, k), each step to the next larger
// eps_th is a pair (bound at the larger, bound at the smaller; pairs where
// both are 0 dropped), judged by a sign test of "larger"; the best median
// bound per eps_th is the evidence.
JudgedClaim GrowsClaim(const Config& c, const std::vector<AuditRow>& rows,
                       const std::string& note) {
  std::map<double, double> best;
  std::map<std::pair<std::string, int64_t>, std::map<double, double>> by_attack;
  for (const AuditRow& r : rows) {
    best[r.eps_th] = std::max(best[r.eps_th], r.result.eps_lb);
    by_attack[{r.attack, r.k}][r.eps_th] = r.result.eps_lb;
  }
  std::vector<double> higher, lower;
  for (const auto& [key, per_eps] : by_attack) {
    for (auto it = per_eps.begin(); it != per_eps.end() && std::next(it) != per_eps.end(); ++it) {
      const double lo = it->second, hi = std::next(it)->second;
      if (lo <= 0 && hi <= 0) continue;
      higher.push_back(hi);
      lower.push_back(lo);
    }
  }
  Evidence evidence;
  evidence << "best median eps_lb (over " << c.replicates
           << " replicates) over attacks and k per eps_th:";
  const char* sep = " ";
  for (const auto& [eps, lb] : best) {
    evidence << sep << eps << ": " << lb;
    sep = ", ";
  }
  const double ceiling = KatzLogCeiling(c.n, c.alpha).value_or(0);
  evidence << "; ceiling ln N - z_{alpha/2} sqrt(1 - 1/N) = " << ceiling << " at N = " << c.n
           << " (per row: / group size); steps to the next eps_th per (attack, k) with a "
              "positive bound: "
           << higher.size();
  return SignJudgedClaim("ml_audit_dpsgd_grows_with_eps", PairedSignTest(higher, lower),
                         std::move(evidence), note);
}

// `a` above `b` over the (eps_th, k) cells where either bound is positive,
// judged by a sign test; the sums are reported.
JudgedClaim CompareClaim(const std::vector<AuditRow>& rows, const std::string& a,
                         const std::string& b, std::string id, const std::string& note) {
  std::map<std::pair<double, int64_t>, std::pair<double, double>> cells;
  std::set<std::pair<double, int64_t>> seen_a, seen_b;
  for (const AuditRow& r : rows) {
    if (r.attack == a)
      cells[{r.eps_th, r.k}].first = r.result.eps_lb, seen_a.insert({r.eps_th, r.k});
    if (r.attack == b)
      cells[{r.eps_th, r.k}].second = r.result.eps_lb, seen_b.insert({r.eps_th, r.k});
  }
  std::vector<double> first, second;
  double sum_a = 0, sum_b = 0;
  for (const auto& [key, v] : cells) {
    if (!seen_a.count(key) || !seen_b.count(key)) continue;
    if (v.first <= 0 && v.second <= 0) continue;
    first.push_back(v.first);
    second.push_back(v.second);
    sum_a += v.first;
    sum_b += v.second;
  }
  return SignJudgedClaim(std::move(id), PairedSignTest(first, second),
                         Evidence() << "median eps_lb over replicates, " << a << " vs " << b
                                    << " over the " << first.size()
                                    << " (eps_th, k) cells with a positive bound; sum of eps_lb "
                                    << sum_a << " vs " << sum_b,
                         note);
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
  PB_ASSIGN_OR_RETURN(const SummaryTable table, t.Build());
  return out.WriteTable(table);
}

// One row per (k, group size) the audits use: append k, flip_replace 2k.
Status WriteCeiling(ResultWriter& out, const Config& c) {
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
  PB_ASSIGN_OR_RETURN(const SummaryTable table, t.Build());
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

std::vector<JudgedClaim> AuditClaims(const Config& c, const std::vector<AuditRow>& rows) {
  const std::vector<AuditRow> medians = MedianRows(rows);
  // Every eps_lb is per add/remove row (bound / group size), so attacks on
  // different pairs compare; the evidence names ClipBKD's.
  const std::string note = "; ClipBKD: " + c.clipbkd_pair + " pair (group " +
                           (c.clipbkd_pair == "flip_replace" ? "2k" : "k") + "), y* from " +
                           c.clipbkd_label_from + " models; shadow: appended (group k)";
  const Claim validity = ValidityClaim(c, rows).claim;
  return {JudgedClaim{validity, false, validity.holds ? 1.0 : 0.0}, GrowsClaim(c, medians, note),
          CompareClaim(medians, "shadow", "clipbkd", "ml_audit_dpsgd_shadow_beats_clipbkd", note),
          CompareClaim(medians, "clipbkd_vec", "clipbkd", "ml_audit_dpsgd_vector_tau_helps", note)};
}

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
