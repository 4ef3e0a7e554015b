#include "experiments/synthetic_data_mia/report.h"

#include <algorithm>
#include <array>
#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/stats.h"
#include "results/evidence.h"
#include "results/table_builder.h"

namespace privbench {
namespace synthetic_data_mia {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool Ran(const Results& r, const std::string& attack) {
  return std::find(r.attacks.begin(), r.attacks.end(), attack) != r.attacks.end();
}
bool AnyBlackBoxRan(const Results& r) {
  return std::any_of(r.attacks.begin(), r.attacks.end(),
                     [](const std::string& a) { return !IsWhiteBox(a); });
}

// The outcome of `attack` in game g (which ran it).
const AttackOutcome& OutcomeOf(const GameResult& g, const std::string& attack) {
  return *std::find_if(g.attacks.begin(), g.attacks.end(),
                       [&](const AttackOutcome& o) { return o.attack == attack; });
}

std::string Joined(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& a : names) list += (list.empty() ? "" : ", ") + a;
  return list;
}

// "; attacks run (--attacks): a, b" when the games ran only some attacks,
// else "".
std::string AttacksRunNote(const Results& r) {
  return r.attacks == AttackNames() ? "" : "; attacks run (--attacks): " + Joined(r.attacks);
}

// A claim the games' attacks cannot decide: holds = 0, the reason as evidence.
JudgedClaim UndecidableClaim(const std::string& id, const std::string& reason) {
  return {ClaimEvidence(id, false, reason), false, 0.0};
}

bool IsTwoWay(const std::string& synthesizer) {
  return synthesizer == "chow_liu" || synthesizer == "mst" || synthesizer == "privbayes";
}

std::string CaseLabel(const CaseSpec& s) {
  return s.synthesizer +
         (s.guarantee.is_private() ? " eps " + FormatSignificant(s.guarantee.epsilon, 3) : "") +
         (s.bug.empty() ? "" : " [" + s.bug + "]");
}

// Per (case, target, attack) the game of each adversary, when both ran.
struct AdversaryPair {
  const GameResult* fixed = nullptr;
  const GameResult* random = nullptr;
};
std::vector<AdversaryPair> AdversaryPairs(const Results& r) {
  std::map<std::pair<int64_t, int64_t>, AdversaryPair> pairs;
  for (const GameResult& g : r.games) {
    AdversaryPair& p = pairs[{g.case_index, g.target_index}];
    (g.adversary == "fixed" ? p.fixed : p.random) = &g;
  }
  std::vector<AdversaryPair> out;
  for (const auto& [key, p] : pairs) {
    if (p.fixed != nullptr && p.random != nullptr) out.push_back(p);
  }
  return out;
}

Status WriteTargetsAndCases(const Results& r, ResultWriter& out) {
  std::vector<std::string> kinds;
  std::vector<double> scores;
  std::vector<int64_t> records;
  for (const Target& t : r.targets) {
    kinds.push_back(t.kind);
    scores.push_back(t.outlier_score);
    records.insert(records.end(), t.record.begin(), t.record.end());
  }
  PB_RETURN_IF_ERROR(out.WriteStrings("/targets/kind", kinds));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/targets/outlier_score", scores));
  PB_RETURN_IF_ERROR(out.WriteInts("/targets/removed_duplicates", {r.removed_duplicates}));
  PB_RETURN_IF_ERROR(
      out.WriteInts("/targets/records", records,
                    {r.targets.size(), r.targets.empty() ? 0 : r.targets.front().record.size()}));
  std::vector<std::string> names, bugs;
  std::vector<double> eps, delta, rho, mu;
  for (const CaseSpec& s : r.cases) {
    names.push_back(s.synthesizer);
    bugs.push_back(s.bug);
    eps.push_back(s.guarantee.epsilon);
    delta.push_back(s.audit_delta);
    rho.push_back(s.guarantee.rho);
    mu.push_back(s.guarantee.mu);
  }
  PB_RETURN_IF_ERROR(out.WriteStrings("/cases/synthesizer", names));
  PB_RETURN_IF_ERROR(out.WriteStrings("/cases/bug", bugs));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/cases/epsilon", eps));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/cases/delta", delta));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/cases/rho", rho));
  return out.WriteDoubles("/cases/mu", mu);
}

Status WriteGameArrays(const Results& r, ResultWriter& out) {
  const size_t games = r.games.size(), attacks = r.attacks.size();
  std::vector<int64_t> case_index, target_index;
  std::vector<std::string> adversary;
  std::vector<double> seconds;
  std::map<std::string, std::vector<double>> per_attack;
  std::map<std::string, std::vector<double>> eps_lower;
  std::map<std::string, std::vector<int64_t>> applies;
  std::vector<double> scores;
  for (const GameResult& g : r.games) {
    case_index.push_back(g.case_index);
    target_index.push_back(g.target_index);
    adversary.push_back(g.adversary);
    seconds.push_back(g.seconds);
    for (const AttackOutcome& o : g.attacks) {
      per_attack["auc"].push_back(o.auc);
      per_attack["tpr_at_fpr_01"].push_back(o.tpr_at_fpr_01);
      per_attack["privacy_gain"].push_back(o.privacy_gain);
      per_attack["cp_eps_lower"].push_back(o.cp_eps_lower);
      per_attack["mu_lower"].push_back(o.mu_lower);
      per_attack["gdp_eps_lower"].push_back(o.gdp_eps_lower);
      scores.insert(scores.end(), o.test_scores.begin(), o.test_scores.end());
    }
  }
  // Methods: the union over games (katz_log applies at delta = 0 only).
  for (size_t gi = 0; gi < games; ++gi) {
    for (const std::string& m : r.games[gi].attacks.front().methods) {
      eps_lower[m].assign(games * attacks, 0.0);
      applies[m].assign(games, 0);
    }
  }
  for (size_t gi = 0; gi < games; ++gi) {
    for (size_t a = 0; a < attacks; ++a) {
      const AttackOutcome& o = r.games[gi].attacks[a];
      for (size_t m = 0; m < o.methods.size(); ++m) {
        eps_lower[o.methods[m]][gi * attacks + a] = o.eps_lower[m];
        applies[o.methods[m]][gi] = 1;
      }
    }
  }
  PB_RETURN_IF_ERROR(out.WriteInts("/games/case_index", case_index));
  PB_RETURN_IF_ERROR(out.WriteInts("/games/target_index", target_index));
  PB_RETURN_IF_ERROR(out.WriteStrings("/games/adversary", adversary));
  PB_RETURN_IF_ERROR(out.WriteStrings("/games/attack_names", r.attacks));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/games/seconds", seconds));
  for (const auto& [name, values] : per_attack) {
    PB_RETURN_IF_ERROR(out.WriteDoubles("/games/" + name, values, {games, attacks}));
  }
  for (const auto& [method, values] : eps_lower) {
    PB_RETURN_IF_ERROR(out.WriteDoubles("/games/eps_lower/" + method, values, {games, attacks}));
    PB_RETURN_IF_ERROR(out.WriteInts("/games/method_applies/" + method, applies[method]));
  }
  const size_t releases = games == 0 ? 0 : scores.size() / (games * attacks);
  return out.WriteDoubles("/games/test_scores", scores, {games, attacks, releases});
}

Status WriteWorstCaseArrays(const Results& r, ResultWriter& out) {
  std::vector<std::string> names, bugs;
  std::vector<int64_t> attributes, flagged, bug_audit;
  std::vector<double> eps, mu, wb, dcr, wb_mu, wb_gdp, dcr_gdp, wb_scores, dcr_scores;
  for (const WorstCaseResult& w : r.worst_case) {
    wb_scores.insert(wb_scores.end(), w.attacks[0].test_scores.begin(),
                     w.attacks[0].test_scores.end());
    dcr_scores.insert(dcr_scores.end(), w.attacks[1].test_scores.begin(),
                      w.attacks[1].test_scores.end());
    names.push_back(w.spec.synthesizer);
    bugs.push_back(w.spec.bug);
    attributes.push_back(w.attributes);
    flagged.push_back(w.flagged ? 1 : 0);
    bug_audit.push_back(w.bug_audit ? 1 : 0);
    eps.push_back(w.spec.guarantee.epsilon);
    mu.push_back(w.spec.guarantee.mu);
    wb.push_back(w.attacks[0].cp_eps_lower);
    dcr.push_back(w.attacks[1].cp_eps_lower);
    wb_mu.push_back(w.attacks[0].mu_lower);
    wb_gdp.push_back(w.attacks[0].gdp_eps_lower);
    dcr_gdp.push_back(w.attacks[1].gdp_eps_lower);
  }
  PB_RETURN_IF_ERROR(out.WriteStrings("/worst_case/synthesizer", names));
  PB_RETURN_IF_ERROR(out.WriteStrings("/worst_case/bug", bugs));
  PB_RETURN_IF_ERROR(out.WriteInts("/worst_case/attributes", attributes));
  PB_RETURN_IF_ERROR(out.WriteInts("/worst_case/flagged", flagged));
  PB_RETURN_IF_ERROR(out.WriteInts("/worst_case/bug_audit", bug_audit));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/worst_case/epsilon", eps));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/worst_case/mu", mu));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/worst_case/white_box_eps_lower", wb));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/worst_case/dcr_eps_lower", dcr));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/worst_case/white_box_mu_lower", wb_mu));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/worst_case/white_box_gdp_eps_lower", wb_gdp));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/worst_case/dcr_gdp_eps_lower", dcr_gdp));
  const uint64_t w = r.worst_case.size(), releases = w == 0 ? 0 : wb_scores.size() / w;
  PB_RETURN_IF_ERROR(out.WriteDoubles("/worst_case/white_box_scores", wb_scores, {w, releases}));
  return out.WriteDoubles("/worst_case/dcr_scores", dcr_scores, {w, releases});
}

Status WriteCostArrays(const Results& r, ResultWriter& out) {
  std::vector<std::string> names;
  std::vector<double> seconds, slopes;
  for (const CostResult& c : r.cost) {
    names.push_back(c.synthesizer);
    seconds.insert(seconds.end(), c.seconds_per_release.begin(), c.seconds_per_release.end());
    slopes.push_back(c.slope);
  }
  if (r.cost.empty()) return Status::Ok();
  PB_RETURN_IF_ERROR(out.WriteStrings("/cost/synthesizer", names));
  PB_RETURN_IF_ERROR(out.WriteInts("/cost/sizes", r.cost.front().sizes));
  PB_RETURN_IF_ERROR(
      out.WriteDoubles("/cost/seconds", seconds, {r.cost.size(), r.cost.front().sizes.size()}));
  return out.WriteDoubles("/cost/slope", slopes);
}

Status WriteGamesTable(const Results& r, ResultWriter& out) {
  TableBuilder t("games", "Membership games against synthetic Adult data",
                 "one row per (synthesizer at eps, target, adversary, attack): the test releases' "
                 "AUC, TPR at FPR <= 0.1, privacy gain 1 - (TPR - FPR), and the eps lower bounds "
                 "under the valid split selection at alpha (eps_lower: one-sided Clopper-Pearson; "
                 "mu_lower and its eps at the case's delta: Gaussian-DP, 0 at delta = 0; every "
                 "method's end: /games/eps_lower), beside the synthesizer's eps and mu "
                 "(mu: Gaussian histograms only); no white_box rows for the non-private "
                 "synthesizers, which release no noisy statistic (their /games arrays hold a "
                 "constant score there)",
                 {{"synthesizer", Column::Type::kString},
                  {"epsilon", Column::Type::kDouble},
                  {"mu", Column::Type::kDouble},
                  {"target", Column::Type::kString},
                  {"adversary", Column::Type::kString},
                  {"attack", Column::Type::kString},
                  {"auc", Column::Type::kDouble},
                  {"tpr_at_fpr_01", Column::Type::kDouble},
                  {"privacy_gain", Column::Type::kDouble},
                  {"eps_lower", Column::Type::kDouble},
                  {"mu_lower", Column::Type::kDouble},
                  {"gdp_eps_lower", Column::Type::kDouble}});
  for (const GameResult& g : r.games) {
    const CaseSpec& s = r.cases[static_cast<size_t>(g.case_index)];
    const Target& target = r.targets[static_cast<size_t>(g.target_index)];
    for (const AttackOutcome& o : g.attacks) {
      if (IsWhiteBox(o.attack) && !s.guarantee.is_private()) continue;  // nothing released
      t.Row({s.synthesizer, s.guarantee.epsilon, s.guarantee.mu,
             target.kind + " " + std::to_string(g.target_index), g.adversary, o.attack, o.auc,
             o.tpr_at_fpr_01, o.privacy_gain, o.cp_eps_lower, o.mu_lower, o.gdp_eps_lower});
    }
  }
  PB_ASSIGN_OR_RETURN(const SummaryTable built, t.Build());
  return out.WriteTable(built);
}

// Per case: the largest judged bound of the black-box attacks on the Adult
// targets (both adversaries) and the worst-case white-box one.
struct CaseBounds {
  double black_box = 0, white_box_adult = 0, worst_case = -1, best_auc = 0;
};
std::vector<CaseBounds> BoundsByCase(const Results& r) {
  std::vector<CaseBounds> b(r.cases.size());
  for (const GameResult& g : r.games) {
    CaseBounds& cb = b[static_cast<size_t>(g.case_index)];
    const CaseSpec& s = r.cases[static_cast<size_t>(g.case_index)];
    for (const AttackOutcome& o : g.attacks) {
      double& slot = IsWhiteBox(o.attack) ? cb.white_box_adult : cb.black_box;
      slot = std::max(slot, JudgedBound(o, s));
      if (!IsWhiteBox(o.attack)) cb.best_auc = std::max(cb.best_auc, o.auc);
    }
  }
  for (const WorstCaseResult& w : r.worst_case) {
    if (w.bug_audit) continue;  // the main grid's audits only
    for (size_t c = 0; c < r.cases.size(); ++c) {
      const CaseSpec& s = r.cases[c];
      if (w.spec.bug.empty() && s.bug.empty() && w.spec.synthesizer == s.synthesizer &&
          w.spec.guarantee.epsilon == s.guarantee.epsilon &&
          w.attributes == static_cast<int64_t>(r.targets.front().record.size())) {
        b[c].worst_case = JudgedBound(w.attacks[0], w.spec);
      }
    }
  }
  return b;
}

Status WriteByCaseTable(const Results& r, ResultWriter& out) {
  // Columns of a kind of attack the games did not run hold NaN.
  const std::string not_run = r.attacks == AttackNames()
                                  ? ""
                                  : " (NaN: no attack of that kind run" + AttacksRunNote(r) + ")";
  TableBuilder t(
      "by_case", "Black-box, white-box and worst-case eps lower bounds per synthesizer",
      "per synthesizer at eps: the largest judged eps lower bound (Clopper-Pearson, "
      "split selection; the Gaussian-DP eps(delta) where the test's trade-off is Gaussian: "
      "Gaussian histograms, MST's white-box test) over the "
      "Adult targets, both adversaries and the black-box attacks; the same for the "
      "white-box attack on Adult; and the white-box bound on the worst-case pair of "
      "Annamalai et al. (-1: not audited); the best black-box AUC" +
          not_run,
      {{"synthesizer", Column::Type::kString},
       {"epsilon", Column::Type::kDouble},
       {"black_box_eps_lower", Column::Type::kDouble},
       {"white_box_adult_eps_lower", Column::Type::kDouble},
       {"worst_case_eps_lower", Column::Type::kDouble},
       {"best_black_box_auc", Column::Type::kDouble}});
  const std::vector<CaseBounds> b = BoundsByCase(r);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const bool black_box = AnyBlackBoxRan(r), white_box = Ran(r, "white_box");
  for (size_t c = 0; c < r.cases.size(); ++c) {
    t.Row({r.cases[c].synthesizer, r.cases[c].guarantee.epsilon, black_box ? b[c].black_box : nan,
           white_box ? b[c].white_box_adult : nan, b[c].worst_case,
           black_box ? b[c].best_auc : nan});
  }
  PB_ASSIGN_OR_RETURN(const SummaryTable built, t.Build());
  return out.WriteTable(built);
}

Status WriteWorstCaseTable(const Results& r, ResultWriter& out) {
  TableBuilder t(
      "worst_case", "Worst-case audits and planted bugs",
      "the neighbouring pair D- = {r0}, D+ = {r0, target} (the target differs from r0 "
      "in every attribute) on the first `attributes` attributes; white-box "
      "(Neyman-Pearson with D- known) and dcr_hamming audited at alpha/2 each; "
      "flagged: the judged bound (one-sided Clopper-Pearson; Gaussian-DP where the test's "
      "trade-off is Gaussian: Gaussian histograms, MST's white-box test) "
      "exceeds the claimed eps",
      {{"synthesizer", Column::Type::kString},
       {"bug", Column::Type::kString},
       {"attributes", Column::Type::kInt},
       {"epsilon", Column::Type::kDouble},
       {"mu", Column::Type::kDouble},
       {"white_box_eps_lower", Column::Type::kDouble},
       {"dcr_eps_lower", Column::Type::kDouble},
       {"white_box_mu_lower", Column::Type::kDouble},
       {"white_box_gdp_eps_lower", Column::Type::kDouble},
       {"dcr_gdp_eps_lower", Column::Type::kDouble},
       {"flagged", Column::Type::kInt}});
  for (const WorstCaseResult& w : r.worst_case) {
    t.Row({w.spec.synthesizer, w.spec.bug.empty() ? std::string("none") : w.spec.bug, w.attributes,
           w.spec.guarantee.epsilon, w.spec.guarantee.mu, w.attacks[0].cp_eps_lower,
           w.attacks[1].cp_eps_lower, w.attacks[0].mu_lower, w.attacks[0].gdp_eps_lower,
           w.attacks[1].gdp_eps_lower, w.flagged ? 1 : 0});
  }
  PB_ASSIGN_OR_RETURN(const SummaryTable built, t.Build());
  return out.WriteTable(built);
}

Status WriteCostTable(const Results& r, ResultWriter& out) {
  if (r.cost.empty()) return Status::Ok();
  std::vector<ColumnSpec> columns = {{"synthesizer", Column::Type::kString}};
  for (int64_t n : r.cost.front().sizes) {
    columns.push_back({"seconds_n" + std::to_string(n), Column::Type::kDouble});
  }
  columns.push_back({"slope", Column::Type::kDouble});
  TableBuilder t("cost", "Cost of one release against the private dataset size N",
                 "median wall-clock seconds of one synthesizer run (fit on N records, sample N "
                 "rows) at eps 1, and the least-squares slope of log time on log N; the review's "
                 "audit of every record costs N x (T x O_M(N) + O_B(T)). Timing: machine-dependent",
                 columns);
  for (const CostResult& c : r.cost) {
    std::vector<Cell> row = {c.synthesizer};
    for (double s : c.seconds_per_release) row.push_back(s);
    row.push_back(c.slope);
    t.Row(row);
  }
  PB_ASSIGN_OR_RETURN(const SummaryTable built, t.Build());
  return out.WriteTable(built);
}

// Sets undecidable = 1 on the claim group when the games lack an attack it
// needs (UndecidableReason); nothing otherwise.
Status MarkIfUndecidable(const Results& r, const std::string& id, ResultWriter& out) {
  if (UndecidableReason(r, id).empty()) return Status::Ok();
  return SetAttributes(out, "/claims/" + id, {{"undecidable", 1}});
}

}  // namespace

std::string UndecidableReason(const Results& r, const std::string& id) {
  std::vector<std::string> needed;
  if (id == "synthetic_data_mia_features_beat_dcr") {
    needed = {"histogram_logistic", "queries_logistic", "dcr_hamming"};
  } else if (id == "synthetic_data_mia_black_box_far_below") {
    for (const std::string& a : AttackNames()) {
      if (!IsWhiteBox(a)) needed.push_back(a);
    }
  } else if (id == "synthetic_data_mia_outliers_leak_more") {
    if (AnyBlackBoxRan(r)) return "";
    return "undecidable: needs at least one black-box attack (any but white_box); the games "
           "ran only (--attacks): " +
           Joined(r.attacks);
  }
  std::vector<std::string> missing;
  for (const std::string& a : needed) {
    if (!Ran(r, a)) missing.push_back(a);
  }
  if (missing.empty()) return "";
  return "undecidable: needs the attacks " + Joined(needed) +
         "; not run (--attacks): " + Joined(missing);
}

JudgedClaim FixedBeatsRandomClaim(const Results& r, double alpha) {
  std::vector<double> fixed, random;
  // Wins of the fixed adversary by kind: [white-box DP, black-box DP, non-private].
  int64_t wins[3] = {0, 0, 0};
  for (const AdversaryPair& p : AdversaryPairs(r)) {
    const CaseSpec& s = r.cases[static_cast<size_t>(p.fixed->case_index)];
    for (size_t a = 0; a < p.fixed->attacks.size(); ++a) {
      fixed.push_back(JudgedBound(p.fixed->attacks[a], s));
      random.push_back(JudgedBound(p.random->attacks[a], s));
      if (fixed.back() > random.back()) {
        ++wins[!s.guarantee.is_private() ? 2 : IsWhiteBox(p.fixed->attacks[a].attack) ? 0 : 1];
      }
    }
  }
  const SignTest test = PairedSignTest(fixed, random);
  const SignVerdict v = JudgeAllGreater({test}, alpha);
  Evidence e;
  e << "judged eps lower bound, fixed D- vs random D- over " << fixed.size()
    << " (case, target, attack) pairs: fixed larger in " << test.greater << ", smaller in "
    << test.less << ", tied in " << static_cast<int64_t>(fixed.size()) - test.greater - test.less
    << " (one-sided sign test p = " << test.p_greater
    << "); the fixed adversary's wins: " << wins[0]
    << " white-box on DP synthesizers (the exact likelihood ratio with D- known, "
    << "against the population-based approximation), " << wins[1]
    << " black-box on DP synthesizers, " << wins[2] << " on the non-private ones"
    << AttacksRunNote(r);
  return {ClaimEvidence("synthetic_data_mia_fixed_beats_random", v.holds, e.str()), v.inconclusive,
          v.holds_fraction};
}

JudgedClaim FeaturesBeatDcrClaim(const Results& r, double alpha) {
  const std::string id = "synthetic_data_mia_features_beat_dcr";
  if (const std::string why = UndecidableReason(r, id); !why.empty()) {
    return UndecidableClaim(id, why);
  }
  std::vector<SignTest> tests;
  Evidence e;
  e << "AUC over (case, target, adversary) games:";
  for (const char* attack : {"histogram_logistic", "queries_logistic"}) {
    std::vector<double> feature, dcr;
    for (const GameResult& g : r.games) {
      feature.push_back(OutcomeOf(g, attack).auc);
      dcr.push_back(OutcomeOf(g, "dcr_hamming").auc);
    }
    tests.push_back(PairedSignTest(feature, dcr));
    e << " " << attack << " above dcr_hamming in " << tests.back().greater << ", below in "
      << tests.back().less << " of " << feature.size() << " (p = " << tests.back().p_greater
      << ");";
  }
  const SignVerdict v = JudgeAllGreater(tests, alpha);
  return {ClaimEvidence(id, v.holds, e.str()), v.inconclusive, v.holds_fraction};
}

JudgedClaim OutliersLeakMoreClaim(const Results& r, double alpha) {
  const std::string id = "synthetic_data_mia_outliers_leak_more";
  if (const std::string why = UndecidableReason(r, id); !why.empty()) {
    return UndecidableClaim(id, why);
  }
  // Per (2-way case, adversary, black-box attack): the outlier targets' mean
  // AUC against the random targets'.
  std::map<std::tuple<int64_t, std::string, std::string>, std::array<double, 4>> cells;
  std::vector<double> sum(r.targets.size(), 0.0), count(r.targets.size(), 0.0);
  for (const GameResult& g : r.games) {
    if (!IsTwoWay(r.cases[static_cast<size_t>(g.case_index)].synthesizer)) continue;
    const std::string& kind = r.targets[static_cast<size_t>(g.target_index)].kind;
    for (const AttackOutcome& o : g.attacks) {
      if (IsWhiteBox(o.attack)) continue;
      sum[static_cast<size_t>(g.target_index)] += o.auc;
      count[static_cast<size_t>(g.target_index)] += 1;
      auto& cell = cells[{g.case_index, g.adversary, o.attack}];  // {out sum, out n, random sum, n}
      if (kind == "outlier") cell[0] += o.auc, cell[1] += 1;
      if (kind == "random") cell[2] += o.auc, cell[3] += 1;
    }
  }
  std::vector<double> outlier, random;
  for (const auto& [key, cell] : cells) {
    if (cell[1] > 0 && cell[3] > 0) {
      outlier.push_back(cell[0] / cell[1]);
      random.push_back(cell[2] / cell[3]);
    }
  }
  const SignTest test = PairedSignTest(outlier, random);
  const SignVerdict v = JudgeAllGreater({test}, alpha);
  Evidence e;
  e << "mean black-box AUC of the outlier targets vs the random ones over " << outlier.size()
    << " (chow_liu/mst/privbayes case, adversary, attack) cells: outliers higher in "
    << test.greater << ", lower in " << test.less << " (one-sided sign test p = " << test.p_greater
    << "); per target over those games:";
  for (size_t t = 0; t < r.targets.size(); ++t) {
    e << " " << r.targets[t].kind << " (outlier score " << r.targets[t].outlier_score << ") "
      << (count[t] > 0 ? sum[t] / count[t] : 0.0) << ";";
  }
  e << AttacksRunNote(r);
  return {ClaimEvidence(id, v.holds, e.str()), v.inconclusive, v.holds_fraction};
}

Claim NoViolationClaim(const Results& r, double alpha) {
  int64_t audits = 0, exceed = 0;
  for (const GameResult& g : r.games) {
    const CaseSpec& s = r.cases[static_cast<size_t>(g.case_index)];
    if (!s.guarantee.is_private() || !s.bug.empty()) continue;
    for (const AttackOutcome& o : g.attacks) {
      ++audits;
      exceed += JudgedBound(o, s) > s.guarantee.epsilon;
    }
  }
  for (const WorstCaseResult& w : r.worst_case) {
    if (!w.spec.bug.empty()) continue;
    for (const AttackOutcome& o : w.attacks) {
      ++audits;
      exceed += JudgedBound(o, w.spec) > w.spec.guarantee.epsilon;
    }
  }
  // Each audit exceeds with probability <= alpha; the 0.999 quantile of
  // Binomial(audits, alpha) (independent audits) bounds the count.
  const double allowed =
      audits == 0
          ? 0.0
          : boost::math::quantile(boost::math::binomial(static_cast<double>(audits), alpha), 0.999);
  return ClaimEvidence("synthetic_data_mia_no_violation", exceed <= allowed,
                       Evidence() << exceed << " of " << audits
                                  << " audits of correct DP synthesizers exceed the claimed eps "
                                     "(allowed: "
                                  << allowed << ", the 0.999 quantile of Binomial(" << audits
                                  << ", " << alpha << "))" << AttacksRunNote(r));
}

Claim BugsFlaggedClaim(const Results& r) {
  bool holds = true;
  Evidence e;
  for (const WorstCaseResult& w : r.worst_case) {
    const bool in_bug_setting =
        !w.spec.bug.empty() ||
        w.attributes != static_cast<int64_t>(r.targets.front().record.size());
    if (!in_bug_setting && w.spec.bug.empty()) continue;
    const bool expected = !w.spec.bug.empty();
    holds = holds && w.flagged == expected;
    e << CaseLabel(w.spec) << " on " << w.attributes
      << " attribute(s): " << (w.flagged ? "flagged" : "not flagged")
      << " (Clopper-Pearson eps lower: white-box " << w.attacks[0].cp_eps_lower << ", dcr "
      << w.attacks[1].cp_eps_lower << "; Gaussian-DP eps(delta): white-box "
      << w.attacks[0].gdp_eps_lower << ", dcr " << w.attacks[1].gdp_eps_lower << "); ";
  }
  return ClaimEvidence("synthetic_data_mia_bugs_flagged", holds, e.str());
}

Claim BlackBoxFarBelowClaim(const Results& r) {
  const std::string id = "synthetic_data_mia_black_box_far_below";
  if (const std::string why = UndecidableReason(r, id); !why.empty()) {
    return ClaimEvidence(id, false, why);
  }
  const std::vector<CaseBounds> b = BoundsByCase(r);
  std::vector<double> black_ratio, worst_ratio;
  bool worst_above_black = true;
  Evidence e;
  for (size_t c = 0; c < r.cases.size(); ++c) {
    const CaseSpec& s = r.cases[c];
    if (!s.guarantee.is_private() || b[c].worst_case < 0) continue;
    black_ratio.push_back(b[c].black_box / s.guarantee.epsilon);
    worst_ratio.push_back(b[c].worst_case / s.guarantee.epsilon);
    worst_above_black = worst_above_black && b[c].worst_case > b[c].black_box;
    e << CaseLabel(s) << ": black-box " << b[c].black_box << ", worst-case white-box "
      << b[c].worst_case << "; ";
  }
  // core/stats.h's Median; 0 where no DP case was audited (the claim then fails).
  const double mb = black_ratio.empty() ? 0.0 : Median(black_ratio);
  const double mw = worst_ratio.empty() ? 0.0 : Median(worst_ratio);
  e << "median bound / eps: black-box " << mb << ", worst-case " << mw;
  const bool holds = !black_ratio.empty() && worst_above_black && mb < 0.25 && mw >= 0.5;
  return ClaimEvidence(id, holds, e.str());
}

Claim CostClaim(const Results& r) {
  bool holds = !r.cost.empty();
  Evidence e;
  e << "slope of log seconds per release on log N:";
  for (const CostResult& c : r.cost) {
    holds = holds && c.slope >= 0.8;
    e << " " << c.synthesizer << " " << c.slope << ";";
  }
  return ClaimEvidence("synthetic_data_mia_cost_superlinear", holds, e.str());
}

Status WriteReport(const Config& c, const Results& r, ResultWriter& out) {
  PB_RETURN_IF_ERROR(SetAttributes(
      out, "/meta",
      {{"lost_parameters",
        "Adult only (Stadler et al. also use Texas hospital data; Annamalai et al. several "
        "sets), discretised to 13 attributes with public bin edges; n = " +
            std::to_string(c.n_records) + " records, " + std::to_string(c.train_datasets) + "/" +
            std::to_string(c.test_datasets) +
            " training/test releases per game (Stadler: 200/150 per target; TAPAS: 1,000/2,500; "
            "Annamalai: 2,000/1,000/2,000 x 5); PrivBayes of degree 1; MST with tree inference "
            "instead of Private-PGM and no domain compression; no GAN or CTGAN synthesizers"},
       {"dataset_provenance", r.data_provenance},
       {"removed_duplicates", r.removed_duplicates}}));
  PB_RETURN_IF_ERROR(WriteTargetsAndCases(r, out));
  PB_RETURN_IF_ERROR(WriteGameArrays(r, out));
  PB_RETURN_IF_ERROR(WriteWorstCaseArrays(r, out));
  PB_RETURN_IF_ERROR(WriteCostArrays(r, out));
  PB_RETURN_IF_ERROR(WriteGamesTable(r, out));
  PB_RETURN_IF_ERROR(WriteByCaseTable(r, out));
  PB_RETURN_IF_ERROR(WriteWorstCaseTable(r, out));
  PB_RETURN_IF_ERROR(WriteCostTable(r, out));
  PB_RETURN_IF_ERROR(WriteJudgedClaim(FixedBeatsRandomClaim(r, c.alpha), out));
  PB_RETURN_IF_ERROR(WriteJudgedClaim(FeaturesBeatDcrClaim(r, c.alpha), out));
  PB_RETURN_IF_ERROR(MarkIfUndecidable(r, "synthetic_data_mia_features_beat_dcr", out));
  PB_RETURN_IF_ERROR(WriteJudgedClaim(OutliersLeakMoreClaim(r, c.alpha), out));
  PB_RETURN_IF_ERROR(MarkIfUndecidable(r, "synthetic_data_mia_outliers_leak_more", out));
  PB_RETURN_IF_ERROR(out.WriteClaim(NoViolationClaim(r, c.alpha)));
  PB_RETURN_IF_ERROR(out.WriteClaim(BugsFlaggedClaim(r)));
  PB_RETURN_IF_ERROR(out.WriteClaim(BlackBoxFarBelowClaim(r)));
  PB_RETURN_IF_ERROR(MarkIfUndecidable(r, "synthetic_data_mia_black_box_far_below", out));
  return out.WriteClaim(CostClaim(r));
}

}  // namespace synthetic_data_mia
}  // namespace privbench
