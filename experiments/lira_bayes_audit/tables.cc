// Study lira_bayes_audit: its summary tables (/summary/*): Table 2, width reductions vs
// Clopper-Pearson, accuracies, attacks on the same shadows.
#include <cmath>
#include <string>

#include "core/format.h"
#include "core/stats.h"
#include "experiments/lira_bayes_audit/report.h"
#include "results/table_builder.h"

namespace privbench {
namespace lira_bayes_audit {
namespace {

// "(lower, upper)" to three decimals, as the width_reduction table prints it.
std::string IntervalText(const IntervalRow& r) {
  return "(" + FormatFixed(r.lower, 3) + ", " +
         (std::isinf(r.upper) ? std::string("inf") : FormatFixed(r.upper, 3)) + ")";
}

// A valid selection makes the Bayesian interval a valid credible statement (posterior mass), not a
// frequentist confidence interval.
std::string ValidSelectionText(const IntervalRow& row) {
  if (!IsValidSelection(row.selection)) return "no (threshold chosen on the data)";
  return row.method == "bayesian" ? "yes (credible interval)" : "yes";
}

}  // namespace

double Reduction(const std::vector<IntervalRow>& rows, const std::string& method) {
  const IntervalRow* m = Find(rows, "max_lower", method);
  const IntervalRow* cp = Find(rows, "max_lower", "clopper_pearson");
  if (m == nullptr || cp == nullptr) return std::nan("");
  const double wm = m->upper - m->lower, wc = cp->upper - cp->lower;
  if (std::isinf(wc) || std::isinf(wm)) return std::nan("");
  return 100.0 * (wm / wc - 1.0);
}

Result<SummaryTable> Table2(const AuditResult& r) {
  TableBuilder t(
      "table2", "Table 2 analogue: eps intervals from LiRA on worst-case challenge points",
      StandIn(r) +
          " One row per setting, threshold selection and interval estimator; the counts at the "
          "threshold (flag member iff online LiRA score >= threshold) let anyone recompute "
          "the interval (delta = " +
          FormatSignificant(r.accounting.delta, 3) +
          ", equal-tailed at level_alpha). max_lower is the paper's selection (not a valid "
          "confidence statement); split_half and bonferroni are valid selections.",
      {StringColumn("setting"), StringColumn("selection"), StringColumn("method"),
       DoubleColumn("threshold"), IntColumn("tp"), IntColumn("fn"), IntColumn("fp"),
       IntColumn("tn"), DoubleColumn("lower"), DoubleColumn("upper"), DoubleColumn("width"),
       DoubleColumn("level_alpha"), IntColumn("thresholds_considered"),
       StringColumn("valid_selection")});
  for (const SettingResult& s : r.settings) {
    for (const IntervalRow& row : s.rows) {
      t.Row({row.setting, row.selection, row.method, row.threshold, row.counts.tp, row.counts.fn,
             row.counts.fp, row.counts.tn, row.lower, row.upper, row.upper - row.lower,
             row.level_alpha, row.thresholds_considered, ValidSelectionText(row)});
    }
  }
  return t.Build();
}

Result<SummaryTable> AccuracyTable(const AuditResult& r) {
  TableBuilder t(
      "accuracy", "Models and attack per setting",
      StandIn(r) +
          " Mean test accuracy of the target and shadow models, the targets' training accuracy, "
          "the AUC of online and offline LiRA over the trials, and the RDP eps.",
      {StringColumn("setting"), DoubleColumn("target_test_accuracy"),
       DoubleColumn("target_train_accuracy"), DoubleColumn("shadow_test_accuracy"),
       DoubleColumn("auc_online_lira"), DoubleColumn("auc_offline_lira"), DoubleColumn("eps_rdp")});
  for (const SettingResult& s : r.settings) {
    t.Row({s.setting.name, Mean(s.target_test_accuracy), Mean(s.target_train_accuracy),
           Mean(s.shadow_test_accuracy), s.table.roc.auc, TrialAuc(s.trials.offline, s.trials.bits),
           s.setting.private_training ? r.accounting.epsilon : kInf});
  }
  return t.Build();
}

Result<SummaryTable> ReductionTable(const AuditResult& r) {
  TableBuilder t(
      "width_reduction",
      "Interval widths at the paper's selection and reductions vs Clopper-Pearson",
      StandIn(r) +
          " Reduction = width / CP width - 1 in percent (NaN where a width is infinite); "
          "the paper reports -40% to -48% for the Bayesian interval on CIFAR-10.",
      {StringColumn("setting"), StringColumn("method"), StringColumn("interval"),
       DoubleColumn("width"), DoubleColumn("reduction_vs_cp_pct")});
  for (const SettingResult& s : r.settings) {
    for (const IntervalRow& row : s.rows) {
      if (row.selection != "max_lower") continue;
      t.Row({s.setting.name, row.method, IntervalText(row), row.upper - row.lower,
             Reduction(s.rows, row.method)});
    }
  }
  return t.Build();
}

// LiRA online / offline and RMIA on the same shadows, full and few references (compute.h): one row
// per setting and attack.
Result<SummaryTable> AttackTable(const AuditResult& r) {
  TableBuilder t(
      "attacks", "LiRA and RMIA from the same shadow (reference) models",
      StandIn(r) +
          " One row per setting and attack over the trials' scores (estimators/score_audit): "
          "references = reference models per trial (all: every shadow online, its OUT half "
          "offline; k: the k lowest-index OUT shadows of the challenge point); TPR at FPR <= "
          "0.1%, 1%, 10% (empirical); one-sided Clopper-Pearson eps lower ends (alpha, delta "
          "of the study) with a split-half, a Bonferroni-quantile (valid) and the "
          "max-over-thresholds selection (NOT a valid confidence statement); the Gaussian-DP "
          "mu and eps lower bounds (split). RMIA: gamma = 1, a tuned on shadow 0 (offline_a).",
      {StringColumn("setting"), StringColumn("name"), StringColumn("attack"),
       IntColumn("references"), DoubleColumn("offline_a"), DoubleColumn("auc"),
       DoubleColumn("tpr_at_fpr_0.1pct"), DoubleColumn("tpr_at_fpr_1pct"),
       DoubleColumn("tpr_at_fpr_10pct"), DoubleColumn("eps_lower_split"),
       DoubleColumn("eps_lower_bonferroni"), DoubleColumn("eps_lower_max_over_thresholds"),
       DoubleColumn("gdp_mu_lower_split"), DoubleColumn("gdp_eps_lower_split")});
  for (const SettingResult& s : r.settings) {
    for (const AttackSummary& a : s.attack_summaries) {
      const int64_t refs = a.references > 0                               ? a.references
                           : a.attack.find("online") != std::string::npos ? s.shadows.models
                                                                          : s.shadows.models / 2;
      const auto tpr = [&](size_t i) {
        return i < a.tpr_at_fpr.size() ? a.tpr_at_fpr[i] : std::nan("");
      };
      t.Row({a.setting, a.name, a.attack, refs,
             a.attack.rfind("rmia", 0) == 0 ? s.offline_a : std::nan(""), a.auc, tpr(0), tpr(1),
             tpr(2), a.eps_split, a.eps_bonferroni, a.eps_max, a.gdp_mu_split, a.gdp_eps_split});
    }
  }
  return t.Build();
}

}  // namespace lira_bayes_audit
}  // namespace privbench
