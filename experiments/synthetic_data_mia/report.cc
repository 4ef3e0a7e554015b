#include "experiments/synthetic_data_mia/report.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "experiments/synthetic_data_mia/claims.h"
#include "results/evidence.h"
#include "results/table_builder.h"

namespace privbench {
namespace synthetic_data_mia {
namespace {

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
  if (r.perfect_test.size() == r.cases.size()) {
    PB_RETURN_IF_ERROR(out.WriteDoubles("/cases/perfect_test_eps_lower", r.perfect_test));
  }
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
      per_attack["judged_ceiling"].push_back(o.judged_ceiling);
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
  std::vector<double> wb_ceiling, dcr_ceiling;
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
    wb_ceiling.push_back(w.attacks[0].judged_ceiling);
    dcr_ceiling.push_back(w.attacks[1].judged_ceiling);
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
  PB_RETURN_IF_ERROR(out.WriteDoubles("/worst_case/white_box_ceiling", wb_ceiling));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/worst_case/dcr_ceiling", dcr_ceiling));
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
      "Annamalai et al. (-1: not audited); the best black-box AUC; the black-box audits' "
      "ceiling (the largest bound they could report at their sample size); the perfect-test "
      "bound of the worst-case white-box audit (the median Gaussian-DP eps(delta) of an exact "
      "likelihood-ratio test at the best fixed threshold, with the same releases; -1: its "
      "trade-off is not Gaussian)" +
          not_run,
      {{"synthesizer", Column::Type::kString},
       {"epsilon", Column::Type::kDouble},
       {"black_box_eps_lower", Column::Type::kDouble},
       {"white_box_adult_eps_lower", Column::Type::kDouble},
       {"worst_case_eps_lower", Column::Type::kDouble},
       {"best_black_box_auc", Column::Type::kDouble},
       {"black_box_ceiling", Column::Type::kDouble},
       {"perfect_test_eps_lower", Column::Type::kDouble}});
  const std::vector<CaseBounds> b = BoundsByCase(r);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const bool black_box = AnyBlackBoxRan(r), white_box = Ran(r, "white_box");
  for (size_t c = 0; c < r.cases.size(); ++c) {
    t.Row({r.cases[c].synthesizer, r.cases[c].guarantee.epsilon, black_box ? b[c].black_box : nan,
           white_box ? b[c].white_box_adult : nan, b[c].worst_case, black_box ? b[c].best_auc : nan,
           black_box ? b[c].black_box_ceiling : nan, b[c].perfect_test});
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

Status WriteSweepArrays(const Results& r, ResultWriter& out) {
  const OutlierSweep& w = r.sweep;
  std::vector<std::string> kinds, adversary;
  std::vector<double> scores, auc, seconds;
  std::vector<int64_t> records, case_index, target_index;
  for (const Target& t : w.targets) {
    kinds.push_back(t.kind);
    scores.push_back(t.outlier_score);
    records.insert(records.end(), t.record.begin(), t.record.end());
  }
  for (const GameResult& g : w.games) {
    case_index.push_back(g.case_index);
    target_index.push_back(g.target_index);
    adversary.push_back(g.adversary);
    seconds.push_back(g.seconds);
    for (const AttackOutcome& o : g.attacks) auc.push_back(o.auc);
  }
  const std::string p = "/outlier_sweep/";
  PB_RETURN_IF_ERROR(out.WriteStrings(p + "targets/kind", kinds));
  PB_RETURN_IF_ERROR(out.WriteDoubles(p + "targets/outlier_score", scores));
  PB_RETURN_IF_ERROR(out.WriteDoubles(p + "targets/exposure", TargetExposure(w)));
  PB_RETURN_IF_ERROR(
      out.WriteInts(p + "targets/records", records,
                    {w.targets.size(), w.targets.empty() ? 0 : w.targets.front().record.size()}));
  PB_RETURN_IF_ERROR(out.WriteInts(p + "removed_duplicates", {w.removed_duplicates}));
  PB_RETURN_IF_ERROR(out.WriteInts(p + "cases", w.cases));
  PB_RETURN_IF_ERROR(out.WriteStrings(p + "attack_names", w.attacks));
  PB_RETURN_IF_ERROR(out.WriteInts(p + "games/case_index", case_index));
  PB_RETURN_IF_ERROR(out.WriteInts(p + "games/target_index", target_index));
  PB_RETURN_IF_ERROR(out.WriteStrings(p + "games/adversary", adversary));
  PB_RETURN_IF_ERROR(out.WriteDoubles(p + "games/seconds", seconds));
  return out.WriteDoubles(p + "games/auc", auc, {w.games.size(), w.attacks.size()});
}

Status WriteSweepTable(const Results& r, ResultWriter& out) {
  TableBuilder t("outlier_sweep", "Exposure of the outlier sweep's targets",
                 "per target of the outlier sweep (outliers_leak_more's unit): its kind, outlier "
                 "score (mean Hamming distance to its 5 nearest in the scored sample) and "
                 "exposure, the mean AUC over its sweep games (/outlier_sweep: cases, "
                 "adversaries, attacks) and their number",
                 {{"target", Column::Type::kInt},
                  {"kind", Column::Type::kString},
                  {"outlier_score", Column::Type::kDouble},
                  {"exposure", Column::Type::kDouble},
                  {"games", Column::Type::kInt}});
  const std::vector<double> exposure = TargetExposure(r.sweep);
  for (size_t i = 0; i < r.sweep.targets.size(); ++i) {
    const int64_t games = std::count_if(
        r.sweep.games.begin(), r.sweep.games.end(),
        [&](const GameResult& g) { return g.target_index == static_cast<int64_t>(i); });
    t.Row({static_cast<int64_t>(i), r.sweep.targets[i].kind, r.sweep.targets[i].outlier_score,
           exposure[i], games});
  }
  PB_ASSIGN_OR_RETURN(const SummaryTable built, t.Build());
  return out.WriteTable(built);
}

Status WriteBugPowerArrays(const Results& r, ResultWriter& out) {
  std::vector<int64_t> index, replicates, quick_trials, paper_trials;
  std::vector<std::string> attack, law;
  std::vector<double> quick, quick_se, paper, paper_se;
  for (const BugPower& p : r.bug_power) {
    index.push_back(p.worst_case);
    attack.push_back(p.attack);
    law.push_back(p.law);
    replicates.push_back(p.quick.replicates);
    quick_trials.push_back(p.quick.trials);
    quick.push_back(p.quick.probability);
    quick_se.push_back(p.quick.standard_error);
    paper_trials.push_back(p.paper.trials);
    paper.push_back(p.paper.probability);
    paper_se.push_back(p.paper.standard_error);
  }
  PB_RETURN_IF_ERROR(out.WriteInts("/bug_power/worst_case_index", index));
  PB_RETURN_IF_ERROR(out.WriteStrings("/bug_power/attack", attack));
  PB_RETURN_IF_ERROR(out.WriteStrings("/bug_power/law", law));
  PB_RETURN_IF_ERROR(out.WriteInts("/bug_power/replicates", replicates));
  PB_RETURN_IF_ERROR(out.WriteInts("/bug_power/quick_trials", quick_trials));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/bug_power/quick_probability", quick));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/bug_power/quick_se", quick_se));
  PB_RETURN_IF_ERROR(out.WriteInts("/bug_power/paper_trials", paper_trials));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/bug_power/paper_probability", paper));
  return out.WriteDoubles("/bug_power/paper_se", paper_se);
}

Status WriteBugPowerTable(const Results& r, ResultWriter& out) {
  TableBuilder t(
      "bug_power", "Detection probability of each planted bug",
      "per planted bug: the probability that its worst-case audit flags it with the quick "
      "and the paper scale's releases per side (the largest over the attacks whose power is "
      "known: the white-box one under its exact law where the law is known, else both attacks "
      "under the plug-in law of this run's scores; /bug_power), and whether this run flagged it",
      {{"synthesizer", Column::Type::kString},
       {"bug", Column::Type::kString},
       {"attributes", Column::Type::kInt},
       {"quick_probability", Column::Type::kDouble},
       {"paper_probability", Column::Type::kDouble},
       {"flagged", Column::Type::kInt}});
  for (const BugDetection& d : BugDetections(r)) {
    const WorstCaseResult& w = r.worst_case[static_cast<size_t>(d.worst_case)];
    t.Row({w.spec.synthesizer, w.spec.bug, w.attributes, d.quick, d.paper, d.flagged ? 1 : 0});
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

Status WriteArrays(const Results& r, ResultWriter& out) {
  PB_RETURN_IF_ERROR(WriteTargetsAndCases(r, out));
  PB_RETURN_IF_ERROR(WriteGameArrays(r, out));
  PB_RETURN_IF_ERROR(WriteWorstCaseArrays(r, out));
  PB_RETURN_IF_ERROR(WriteSweepArrays(r, out));
  PB_RETURN_IF_ERROR(WriteBugPowerArrays(r, out));
  return WriteCostArrays(r, out);
}

Status WriteTables(const Results& r, ResultWriter& out) {
  PB_RETURN_IF_ERROR(WriteGamesTable(r, out));
  PB_RETURN_IF_ERROR(WriteByCaseTable(r, out));
  PB_RETURN_IF_ERROR(WriteWorstCaseTable(r, out));
  PB_RETURN_IF_ERROR(WriteBugPowerTable(r, out));
  PB_RETURN_IF_ERROR(WriteSweepTable(r, out));
  return WriteCostTable(r, out);
}

// The claims (claims.h), each with its undecidable mark where it applies.
Status WriteClaims(const Config& c, const Results& r, ResultWriter& out) {
  PB_RETURN_IF_ERROR(WriteJudgedClaim(FixedBeatsRandomClaim(r, c.alpha), out));
  PB_RETURN_IF_ERROR(WriteJudgedClaim(FeaturesBeatDcrClaim(r, c.alpha), out));
  PB_RETURN_IF_ERROR(MarkIfUndecidable(r, "synthetic_data_mia_features_beat_dcr", out));
  PB_RETURN_IF_ERROR(WriteJudgedClaim(OutliersLeakMoreClaim(r, c.alpha), out));
  PB_RETURN_IF_ERROR(MarkIfUndecidable(r, "synthetic_data_mia_outliers_leak_more", out));
  PB_RETURN_IF_ERROR(WriteJudgedClaim(NoViolationClaim(r, c.alpha), out));
  PB_RETURN_IF_ERROR(out.WriteClaim(BugsFlaggedClaim(r)));
  PB_RETURN_IF_ERROR(WriteJudgedClaim(BlackBoxFarBelowClaim(r), out));
  PB_RETURN_IF_ERROR(MarkIfUndecidable(r, "synthetic_data_mia_black_box_far_below", out));
  return out.WriteClaim(CostClaim(r));
}

}  // namespace

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
  PB_RETURN_IF_ERROR(WriteArrays(r, out));
  PB_RETURN_IF_ERROR(WriteTables(r, out));
  return WriteClaims(c, r, out);
}

}  // namespace synthetic_data_mia
}  // namespace privbench
