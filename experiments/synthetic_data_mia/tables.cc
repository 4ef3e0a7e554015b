// Study synthetic_data_mia: its summary tables (/summary/*): every game's
// audit, the bounds per synthesizer, the worst-case audits and planted bugs,
// the bugs' detection probabilities, the outlier sweep's exposure and the
// cost of one release.
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "experiments/synthetic_data_mia/claims.h"
#include "experiments/synthetic_data_mia/report.h"
#include "results/table_builder.h"

namespace privbench {
namespace synthetic_data_mia {
Result<SummaryTable> GamesTable(const Results& r) {
  TableBuilder t(
      "games", "Membership games against synthetic Adult data",
      "one row per (synthesizer at eps, target, adversary, attack): the test releases' "
      "AUC, TPR at FPR <= 0.1, privacy gain 1 - (TPR - FPR), and the eps lower bounds "
      "under the valid split selection at alpha (eps_lower: one-sided Clopper-Pearson; "
      "mu_lower and its eps at the case's delta: Gaussian-DP, 0 at delta = 0; every "
      "method's end: /games/eps_lower), beside the synthesizer's eps and mu "
      "(mu: Gaussian histograms only); no white_box rows for the non-private "
      "synthesizers, which release no noisy statistic (their /games arrays hold a "
      "constant score there)",
      {StringColumn("synthesizer"), DoubleColumn("epsilon"), DoubleColumn("mu"),
       StringColumn("target"), StringColumn("adversary"), StringColumn("attack"),
       DoubleColumn("auc"), DoubleColumn("tpr_at_fpr_01"), DoubleColumn("privacy_gain"),
       DoubleColumn("eps_lower"), DoubleColumn("mu_lower"), DoubleColumn("gdp_eps_lower")});
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
  return t.Build();
}

Result<SummaryTable> ByCaseTable(const Results& r) {
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
      {StringColumn("synthesizer"), DoubleColumn("epsilon"), DoubleColumn("black_box_eps_lower"),
       DoubleColumn("white_box_adult_eps_lower"), DoubleColumn("worst_case_eps_lower"),
       DoubleColumn("best_black_box_auc"), DoubleColumn("black_box_ceiling"),
       DoubleColumn("perfect_test_eps_lower")});
  const std::vector<CaseBounds> b = BoundsByCase(r);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const bool black_box = AnyBlackBoxRan(r), white_box = Ran(r, "white_box");
  for (size_t c = 0; c < r.cases.size(); ++c) {
    t.Row({r.cases[c].synthesizer, r.cases[c].guarantee.epsilon, black_box ? b[c].black_box : nan,
           white_box ? b[c].white_box_adult : nan, b[c].worst_case, black_box ? b[c].best_auc : nan,
           black_box ? b[c].black_box_ceiling : nan, b[c].perfect_test});
  }
  return t.Build();
}

Result<SummaryTable> WorstCaseTable(const Results& r) {
  TableBuilder t(
      "worst_case", "Worst-case audits and planted bugs",
      "the neighbouring pair D- = {r0}, D+ = {r0, target} (the target differs from r0 "
      "in every attribute) on the first `attributes` attributes; white-box "
      "(Neyman-Pearson with D- known) and dcr_hamming audited at alpha/2 each; "
      "flagged: the judged bound (one-sided Clopper-Pearson; Gaussian-DP where the test's "
      "trade-off is Gaussian: Gaussian histograms, MST's white-box test) "
      "exceeds the claimed eps",
      {StringColumn("synthesizer"), StringColumn("bug"), IntColumn("attributes"),
       DoubleColumn("epsilon"), DoubleColumn("mu"), DoubleColumn("white_box_eps_lower"),
       DoubleColumn("dcr_eps_lower"), DoubleColumn("white_box_mu_lower"),
       DoubleColumn("white_box_gdp_eps_lower"), DoubleColumn("dcr_gdp_eps_lower"),
       IntColumn("flagged")});
  for (const WorstCaseResult& w : r.worst_case) {
    t.Row({w.spec.synthesizer, w.spec.bug.empty() ? std::string("none") : w.spec.bug, w.attributes,
           w.spec.guarantee.epsilon, w.spec.guarantee.mu, w.attacks[0].cp_eps_lower,
           w.attacks[1].cp_eps_lower, w.attacks[0].mu_lower, w.attacks[0].gdp_eps_lower,
           w.attacks[1].gdp_eps_lower, w.flagged ? 1 : 0});
  }
  return t.Build();
}

Result<SummaryTable> BugPowerTable(const Results& r) {
  TableBuilder t(
      "bug_power", "Detection probability of each planted bug",
      "per planted bug: the probability that its worst-case audit flags it with the quick "
      "and the paper scale's releases per side (the largest over the attacks whose power is "
      "known: the white-box one under its exact law where the law is known, else both attacks "
      "under the plug-in law of this run's scores; /bug_power), and whether this run flagged it",
      {StringColumn("synthesizer"), StringColumn("bug"), IntColumn("attributes"),
       DoubleColumn("quick_probability"), DoubleColumn("paper_probability"), IntColumn("flagged")});
  for (const BugDetection& d : BugDetections(r)) {
    const WorstCaseResult& w = r.worst_case[static_cast<size_t>(d.worst_case)];
    t.Row({w.spec.synthesizer, w.spec.bug, w.attributes, d.quick, d.paper, d.flagged ? 1 : 0});
  }
  return t.Build();
}

Result<SummaryTable> OutlierSweepTable(const Results& r) {
  TableBuilder t("outlier_sweep", "Exposure of the outlier sweep's targets",
                 "per target of the outlier sweep (outliers_leak_more's unit): its kind, outlier "
                 "score (mean Hamming distance to its 5 nearest in the scored sample) and "
                 "exposure, the mean AUC over its sweep games (/outlier_sweep: cases, "
                 "adversaries, attacks) and their number",
                 {IntColumn("target"), StringColumn("kind"), DoubleColumn("outlier_score"),
                  DoubleColumn("exposure"), IntColumn("games")});
  const std::vector<double> exposure = TargetExposure(r.sweep);
  for (size_t i = 0; i < r.sweep.targets.size(); ++i) {
    const int64_t games = std::count_if(
        r.sweep.games.begin(), r.sweep.games.end(),
        [&](const GameResult& g) { return g.target_index == static_cast<int64_t>(i); });
    t.Row({static_cast<int64_t>(i), r.sweep.targets[i].kind, r.sweep.targets[i].outlier_score,
           exposure[i], games});
  }
  return t.Build();
}

Result<SummaryTable> CostTable(const Results& r) {
  if (r.cost.empty()) return Error("table cost: r.cost is empty (no release timed)");
  std::vector<ColumnSpec> columns = {StringColumn("synthesizer")};
  for (int64_t n : r.cost.front().sizes) {
    columns.push_back({"seconds_n" + std::to_string(n), Column::Type::kDouble});
  }
  columns.push_back(DoubleColumn("slope"));
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
  return t.Build();
}

}  // namespace synthetic_data_mia
}  // namespace privbench
