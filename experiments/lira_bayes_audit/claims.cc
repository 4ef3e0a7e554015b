// Study lira_bayes_audit: the verdicts of its claims (statements, sources and criteria in
// claims.json) and the lookups they share with the tables.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "attacks/lira.h"
#include "core/stats.h"
#include "estimators/interval_registry.h"
#include "experiments/lira_bayes_audit/report.h"
#include "results/evidence.h"

namespace privbench {
namespace lira_bayes_audit {

bool IsValidSelection(const std::string& s) { return s == "split_half" || s == "bonferroni"; }

const IntervalRow* Find(const std::vector<IntervalRow>& rows, const std::string& selection,
                        const std::string& method) {
  for (const IntervalRow& r : rows) {
    if (r.selection == selection && r.method == method) return &r;
  }
  return nullptr;
}

double TrialAuc(const std::vector<double>& scores, const std::vector<uint8_t>& bits) {
  std::vector<double> m, n;
  for (size_t i = 0; i < bits.size(); ++i) (bits[i] ? m : n).push_back(scores[i]);
  return m.empty() || n.empty() ? std::nan("") : MannWhitneyAuc(m, n);
}

std::vector<std::string> ClaimIds() {
  return {"lira_bayes_audit_width_order",       "lira_bayes_audit_bayes_finite",
          "lira_bayes_audit_nodp_leaks_more",   "lira_bayes_audit_valid_below_eps",
          "lira_bayes_audit_dp_accuracy_lower", kRmiaClaim};
}

namespace {

// "(lower, upper)" for claim evidence.
std::string IntervalEvidence(const IntervalRow& r) {
  return Evidence() << "(" << r.lower << ", " << r.upper << ")";
}

// A method's index in the ROC table, methods.size() when absent.
size_t MethodIndex(const RocTable& t, const std::string& method) {
  return std::find(t.methods.begin(), t.methods.end(), method) - t.methods.begin();
}

double WidthAt(const RocTable& t, size_t method, size_t point) {
  return t.upper[method][point] - t.lower[method][point];
}

// How often the widths are ordered when the three methods are compared at the same ROC threshold
// (every threshold where all three are finite).
std::string CommonThresholdWidths(const AuditResult& r) {
  int64_t finite = 0, bj = 0, jc = 0;
  for (const SettingResult& s : r.settings) {
    const RocTable& t = s.table;
    const size_t b = MethodIndex(t, "bayesian"), j = MethodIndex(t, "jeffreys");
    const size_t cp = MethodIndex(t, "clopper_pearson");
    if (std::max({b, j, cp}) == t.methods.size()) continue;  // a method is absent
    for (size_t p = 0; p < t.roc.points.size(); ++p) {
      const double wb = WidthAt(t, b, p), wj = WidthAt(t, j, p), wc = WidthAt(t, cp, p);
      if (!std::isfinite(wb) || !std::isfinite(wj) || !std::isfinite(wc)) continue;
      ++finite;
      bj += wb < wj;
      jc += wj < wc;
    }
  }
  return Evidence() << "at a common threshold (all " << finite
                    << " ROC thresholds where the three are finite): Bayesian narrower than "
                       "Jeffreys at "
                    << bj << ", Jeffreys narrower than CP at " << jc;
}

// Whether a method's interval at the paper's selection was picked by the tie rule alone: its lower
// end is 0 at every ROC threshold, so "the largest lower end" selects nothing and Better()'s
// documented tie rule (the smallest upper end) decides. Such an interval says nothing about the
// width ordering the paper reports.
bool PickedByTieRule(const SettingResult& s, const std::string& method) {
  const size_t k = MethodIndex(s.table, method);
  if (k == s.table.methods.size()) return false;
  const std::vector<double>& lower = s.table.lower[k];
  return std::none_of(lower.begin(), lower.end(), [](double l) { return l > 0; });
}

// The largest lower end row x's method could report at its trials: its interval at perfect counts
// (every member flagged, no non-member), at the row's level and delta. A lower end is monotone in
// the counts, so no threshold gives more; a row whose ceiling is at most eps cannot fail the
// validity check whatever the model does.
double LowerEndCeiling(const IntervalRow& x, double delta) {
  auto m = MakeIntervalEstimator(x.method);
  if (!m.ok()) return kInf;  // unknown: treat as testable
  ConfusionCounts perfect;
  perfect.tp = x.counts.positives();
  perfect.tn = x.counts.negatives();
  auto e = (*m)->Estimate(perfect, delta, x.level_alpha);
  return e.ok() ? e->lower : kInf;
}

const AttackScores* FindAttack(const SettingResult& s, const std::string& name) {
  for (const AttackScores& a : s.attacks) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

// One setting's comparison at every k: full-sample AUCs and the block sign test (blocks: BlockAucs,
// B of them).
std::vector<SignTest> CompareFewReferences(const SettingResult& s, int64_t blocks, Evidence& ev) {
  std::vector<SignTest> tests;
  for (int64_t k : kFewReferenceCounts) {
    const std::string ks = "_k" + std::to_string(k);
    const AttackScores* rmia = FindAttack(s, "rmia_offline" + ks);
    const AttackScores* lira = FindAttack(s, "lira_offline" + ks);
    if (rmia == nullptr || lira == nullptr) continue;
    const SignTest t = PairedSignTest(BlockAucs(rmia->scores, s.trials.bits, blocks),
                                      BlockAucs(lira->scores, s.trials.bits, blocks));
    ev << s.setting.name << ", k = " << k << ": AUC RMIA " << TrialAuc(rmia->scores, s.trials.bits)
       << " vs offline LiRA " << TrialAuc(lira->scores, s.trials.bits) << "; per block (" << blocks
       << " blocks), RMIA's AUC higher in " << SignTestText(t) << ". ";
    tests.push_back(t);
  }
  return tests;
}

}  // namespace

// Bayesian narrower than Jeffreys narrower than CP at the paper's selection, per setting, over the
// three pairs (Bayesian-Jeffreys, Jeffreys-CP and Bayesian-CP) whose widths are finite and neither
// interval of which was picked by the tie rule alone. With no such pair the claim cannot be decided
// on these data (the SST-2 pattern of Table 2: CP and Jeffreys (0, inf) at the Bayesian interval's
// threshold).
Verdict WidthOrder(const AuditResult& r) {
  bool holds = true;
  int compared = 0, tied = 0;
  Evidence ev;
  const auto compare = [&](const SettingResult& s, const IntervalRow& a, const IntervalRow& b) {
    const double wa = a.upper - a.lower, wb = b.upper - b.lower;
    if (!std::isfinite(wa) || !std::isfinite(wb)) return;
    if (PickedByTieRule(s, a.method) || PickedByTieRule(s, b.method)) {
      ++tied;
      return;
    }
    ++compared;
    holds = holds && wa < wb;
  };
  for (const SettingResult& s : r.settings) {
    const IntervalRow* b = Find(s.rows, "max_lower", "bayesian");
    const IntervalRow* j = Find(s.rows, "max_lower", "jeffreys");
    const IntervalRow* cp = Find(s.rows, "max_lower", "clopper_pearson");
    if (b == nullptr || j == nullptr || cp == nullptr) continue;
    ev << s.setting.name << ": Bayesian " << IntervalEvidence(*b) << " at FPR " << b->counts.fpr()
       << ", Jeffreys " << IntervalEvidence(*j) << ", CP " << IntervalEvidence(*cp);
    for (const char* method : {"jeffreys", "clopper_pearson"}) {
      if (PickedByTieRule(s, method)) {
        ev << "; " << method << "'s lower end is 0 at all " << s.table.roc.points.size()
           << " thresholds, so its interval is picked by the tie rule (smallest upper end), "
              "not by the paper's selection";
      }
    }
    if (b->counts.fpr() >= 1.0) {
      ev << "; the Bayesian interval's own threshold flags every non-member (FPR = 1: a "
            "worse-than-chance test chosen by maximising the lower end, the selection bias of "
            "the split and Bonferroni rows)";
    }
    ev << ". ";
    // The ordering implies Bayesian narrower than CP too: that pair is decided where Jeffreys'
    // interval is infinite (e.g. seed 7's no-DP setting) and counts like the adjacent ones.
    compare(s, *b, *j);
    compare(s, *j, *cp);
    compare(s, *b, *cp);
  }
  ev << compared << " finite pairs decided by the paper's selection, " << tied
     << " decided by the tie rule alone (not counted); " << CommonThresholdWidths(r) << ". "
     << StandIn(r);
  if (compared == 0) {
    ev << " No pair is decided by the paper's selection: the width ordering cannot be tested "
          "on these data (like Table 2's SST-2 rows, where CP and Jeffreys are (0, inf) and only "
          "the Bayesian interval is finite).";
  }
  return {ClaimEvidence("lira_bayes_audit_width_order", holds && compared > 0, ev), compared == 0};
}

// Wherever CP gives (0, inf), the Bayesian interval is finite (all ROC points).
Claim BayesFinite(const AuditResult& r) {
  int64_t trivial = 0, finite = 0, points = 0;
  for (const SettingResult& s : r.settings) {
    const RocTable& t = s.table;
    const size_t cp = MethodIndex(t, "clopper_pearson"), b = MethodIndex(t, "bayesian");
    if (std::max(cp, b) == t.methods.size()) {  // a method is absent
      return ClaimEvidence("lira_bayes_audit_bayes_finite", true, "");
    }
    for (size_t p = 0; p < t.roc.points.size(); ++p) {
      ++points;
      if (t.lower[cp][p] > 0 || std::isfinite(t.upper[cp][p])) continue;
      ++trivial;
      finite += std::isfinite(t.upper[b][p]);
    }
  }
  return ClaimEvidence(
      "lira_bayes_audit_bayes_finite", trivial > 0 && finite == trivial,
      Evidence() << "over " << points << " ROC thresholds of both settings, CP gives (0, inf) at "
                 << trivial << "; the Bayesian interval is finite at " << finite << " of them"
                 << (trivial == 0 ? " (no trivial CP interval: the claim is not tested)" : "")
                 << ". " << StandIn(r));
}

// Bayesian lower end (paper's selection): without DP (settings[0]) above eps = 8 (settings[1]).
Claim NoDpLeaksMore(const AuditResult& r) {
  const IntervalRow* a = Find(r.settings[0].rows, "max_lower", "bayesian");
  const IntervalRow* b = Find(r.settings[1].rows, "max_lower", "bayesian");
  if (a == nullptr || b == nullptr) {
    return ClaimEvidence("lira_bayes_audit_nodp_leaks_more", false, "");
  }
  Evidence ev;
  ev << "Bayesian at the paper's selection: " << r.settings[0].setting.name << " "
     << IntervalEvidence(*a) << ", " << r.settings[1].setting.name << " " << IntervalEvidence(*b)
     << "; other methods:";
  for (const IntervalRow& x : r.settings[0].rows) {
    const IntervalRow* y = Find(r.settings[1].rows, x.selection, x.method);
    if (y != nullptr && x.method != "bayesian") {
      ev << " " << x.method << "/" << x.selection << " " << x.lower << " vs " << y->lower << ";";
    }
  }
  ev << " " << StandIn(r);
  return ClaimEvidence("lira_bayes_audit_nodp_leaks_more", a->lower > b->lower, ev);
}

// Every lower end at eps = 8 with a valid selection at most eps, judged over the rows that could
// exceed it (LowerEndCeiling above eps, or that did); undecidable when none could.
Verdict ValidBelowEps(const AuditResult& r, double eps, double delta) {
  bool holds = true;
  int rows = 0, testable = 0;
  Evidence ev;
  for (const IntervalRow& x : r.settings[1].rows) {
    if (!IsValidSelection(x.selection)) continue;
    ++rows;
    const double ceiling = LowerEndCeiling(x, delta);
    testable += ceiling > eps || x.lower > eps;
    holds = holds && x.lower <= eps;
    ev << x.method << "/" << x.selection << " " << x.lower << " (ceiling " << ceiling << "); ";
  }
  ev << testable << " of " << rows << " rows could exceed the theoretical eps " << eps
     << " (RDP accountant) at all (ceiling: the method's lower end at perfect counts at its "
        "trials)";
  if (testable == 0) ev << ": none, so the check cannot fail on these data (undecidable)";
  ev << ". " << StandIn(r);
  return {ClaimEvidence("lira_bayes_audit_valid_below_eps", holds && testable > 0, ev),
          testable == 0};
}

// DP costs accuracy: the mean target test accuracy is lower at eps = 8.
Claim DpAccuracyLower(const AuditResult& r) {
  const double a = Mean(r.settings[0].target_test_accuracy);
  const double b = Mean(r.settings[1].target_test_accuracy);
  return ClaimEvidence("lira_bayes_audit_dp_accuracy_lower", b < a,
                       Evidence() << "mean target test accuracy: " << r.settings[0].setting.name
                                  << " " << 100 * a << "%, " << r.settings[1].setting.name << " "
                                  << 100 * b << "%. " << StandIn(r));
}

// RMIA with few (1, 2, 4) OUT references beats offline LiRA with the same references (the RMIA
// paper's offline comparison), judged on the non-private setting: per k, the AUC of each of B =
// min(16, members, non-members) disjoint blocks of trials (independent target models), an exact
// one-sided sign test, Bonferroni over the 3 k (JudgeAllGreater at alpha = 0.05): holds / does not
// hold each with error probability <= 5%, else inconclusive. The DP setting is reported, not judged
// (both attacks are near chance there).
JudgedClaim RmiaBeatsOfflineLira(const AuditResult& r) {
  constexpr double kAlpha = 0.05;
  constexpr int64_t kBlocks = 16;
  Evidence ev;
  std::vector<SignTest> judged;
  for (const SettingResult& s : r.settings) {
    const int64_t members = std::accumulate(s.trials.bits.begin(), s.trials.bits.end(), int64_t{0});
    const int64_t non = static_cast<int64_t>(s.trials.bits.size()) - members;
    const int64_t blocks = std::min({kBlocks, members, non});
    if (blocks < 1 || s.attacks.empty()) continue;
    std::vector<SignTest> tests = CompareFewReferences(s, blocks, ev);
    if (!s.setting.private_training) judged = std::move(tests);
  }
  const SignVerdict v = JudgeAllGreater(judged, kAlpha);
  ev << "Judged on the non-private setting: one-sided exact sign tests over blocks, level "
     << kAlpha << " / " << judged.size()
     << " each (JudgeAllGreater); holds or fails each with error probability <= 0.05, else "
        "inconclusive. "
     << (OnCifar10(r) ? "CIFAR-10 and this study's models" : "Fashion-MNIST and an MLP")
     << " stand in for the RMIA paper's CIFAR-10 / CINIC-10 / Purchase-100 models: shown, not "
        "compared with its numbers.";
  return {ClaimEvidence(kRmiaClaim, v.holds, ev), judged.empty() || v.inconclusive,
          v.holds_fraction};
}

}  // namespace lira_bayes_audit
}  // namespace privbench
