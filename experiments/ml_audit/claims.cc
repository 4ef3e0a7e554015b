// Study ml_audit: the verdicts of its claims (statements, sources and
// criteria in claims.json), judged from the /audits rows. Each row's eps_lb
// is the Katz-log lower bound of its fresh counts over k (ML-Audit
// Algorithm 1); a claim that picks one audit out of m recomputes the pick's
// bound at alpha / m (Bonferroni).
#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <functional>
#include <set>
#include <utility>

#include "estimators/intervals/katz_log.h"
#include "experiments/ml_audit/report.h"
#include "results/evidence.h"

namespace privbench::ml_audit {

int64_t AllowedExceedances(int64_t audits, double p, double beta) {
  if (audits <= 0) return 0;
  const boost::math::binomial_distribution<double> bin(static_cast<double>(audits), p);
  int64_t a = 0;
  while (a < audits && boost::math::cdf(bin, static_cast<double>(a)) < 1 - beta) ++a;
  return a;
}

namespace {

using Match = std::vector<std::pair<std::string, std::string>>;

// Rows whose string columns equal `match` and that satisfy `also`.
std::vector<size_t> Rows(const AuditTable& t, const Match& match,
                         const std::function<bool(size_t)>& also = nullptr) {
  std::vector<size_t> out;
  for (size_t r = 0; r < t.rows(); ++r) {
    bool ok = true;
    for (const auto& [column, value] : match) ok = ok && t.S(column, r) == value;
    if (ok && (!also || also(r))) out.push_back(r);
  }
  return out;
}

// Rows r and q audit the same dataset, eps_th and replicate.
bool SameCell(const AuditTable& t, size_t r, size_t q) {
  return t.S("dataset", q) == t.S("dataset", r) && t.D("eps", q) == t.D("eps", r) &&
         t.I("replicate", q) == t.I("replicate", r);
}

// " a; b; c": a list's items after its colon.
std::string ListText(const std::vector<std::string>& items) {
  std::string s;
  for (const std::string& item : items) s += (s.empty() ? " " : "; ") + item;
  return s;
}

// One audit: "iris lr_output.influence.replace eps 2 k 1: eps_lb 0.1234 (n1/n0)".
std::string AuditText(const AuditTable& t, size_t r) {
  return Evidence() << t.S("dataset", r) << " " << t.S("case", r) << " eps " << t.D("eps", r)
                    << " k " << t.I("k", r) << ": eps_lb " << t.D("eps_lb", r) << " ("
                    << t.I("fresh_n1", r) << "/" << t.I("fresh_n0", r) << ")";
}

// The exceedances m audits of a correct mechanism may show (each with
// probability <= alpha/2), and its text.
int64_t Allowed(int64_t audits, const Config& c) {
  return AllowedExceedances(audits, c.alpha / 2, c.false_failure);
}
std::string AllowanceText(int64_t audits, const Config& c) {
  return Evidence() << "allowed " << Allowed(audits, c) << " (Bin(" << audits << ", " << c.alpha / 2
                    << ") at 1 - " << c.false_failure << ")";
}

// Row r's per-copy bound recomputed from its fresh counts at `alpha`: at
// alpha / m a mechanism keeping its guarantee passes a pick among m audits
// with probability <= alpha / 2.
double BoundAt(const AuditTable& t, size_t r, double alpha) {
  return KatzLogEpsLowerBound(t.I("fresh_n1", r), t.I("fresh_n0", r), t.I("n", r), alpha)
             .value_or(0) /
         static_cast<double>(t.I("k", r));
}

// Whether audit row r could report eps_lb above its guarantee at all: its
// per-copy bound is at most the largest Katz-log lower end at its n trials
// (KatzLogLargestLowerBound; the paper's ceiling is that only for alpha
// near 0.05) over k. An unreadable row counts as able to exceed.
bool CanExceedGuarantee(const AuditTable& t, size_t r, const Config& c) {
  const auto largest = KatzLogLargestLowerBound(t.I("n", r), c.alpha);
  return !largest.ok() || t.D("guarantee", r) < *largest / static_cast<double>(t.I("k", r));
}

// Validity over the audits of correct mechanisms that could have failed
// (CanExceedGuarantee, or that did exceed): with none it is undecidable on
// these data (ValidityUndecidable), never a pass.
struct ValidityCount {
  int64_t correct = 0, judged = 0, exceed = 0, allowed = 0;
  std::string list;  // the first six exceedances
  // No outcome can fail the check (with none judged, allowed is 0).
  bool undecidable() const { return allowed >= judged; }
};

ValidityCount CountValidity(const AuditTable& t, const Config& c) {
  ValidityCount n;
  for (size_t r : Rows(t, {}, [&](size_t r) {
         return t.D("noise_factor", r) == 1.0 && t.S("variant", r).empty();  // a correct mechanism
       })) {
    ++n.correct;
    const bool exceeds = t.D("eps_lb", r) > t.D("guarantee", r) + 1e-12;
    if (!exceeds && !CanExceedGuarantee(t, r, c)) continue;
    ++n.judged;
    if (exceeds && ++n.exceed <= 6) {
      n.list += Evidence() << "; " << AuditText(t, r) << " > guarantee " << t.D("guarantee", r);
    }
  }
  n.allowed = Allowed(n.judged, c);
  return n;
}

Claim ValidityClaim(const AuditTable& t, const Config& c) {
  const ValidityCount n = CountValidity(t, c);
  Evidence ev;
  ev << n.judged << " of " << n.correct
     << " audits of correct mechanisms could have exceeded their guarantee at all (the "
        "largest Katz-log lower end at their n trials, over k, above it; the others cannot "
        "fail)";
  if (n.judged == 0) {
    ev << ": none, so validity is not tested on these data (undecidable)";
  } else if (n.undecidable()) {
    ev << "; the allowance " << n.allowed << " admits all " << n.judged
       << " exceeding, so validity is not tested on these data (undecidable)";
  } else {
    ev << ", each exceeding with probability <= alpha/2 = " << c.alpha / 2 << "; " << n.exceed
       << " exceed; " << AllowanceText(n.judged, c) << n.list;
  }
  return ClaimEvidence("ml_audit_validity", !n.undecidable() && n.exceed <= n.allowed, ev);
}

// Bug 1: every naive-Bayes exposed-counts audit's bound before / k near the ceiling.
Claim Bug1Claim(const AuditTable& t, const Config& c) {
  const double ceiling = KatzLogCeiling(c.bug_n, c.alpha).value_or(0);
  const std::vector<size_t> rows = Rows(t, {{"role", "bug1"}});
  Evidence evidence;
  evidence << "ceiling ln N - z_{alpha/2} sqrt(1 - 1/N) = " << ceiling << " at N = " << c.bug_n
           << ", 0.85 x ceiling = " << 0.85 * ceiling;
  bool all = !rows.empty();
  for (size_t r : rows) {
    const bool ok = t.D("eps_lb_raw", r) >= 0.85 * ceiling;
    all = all && ok;
    evidence << "; " << AuditText(t, r) << " raw " << t.D("eps_lb_raw", r) << (ok ? "" : " LOW");
  }
  return ClaimEvidence("ml_audit_bug1_detected", all, evidence);
}

// Bug 2: the forest's replace-one flips exceed eps_th, its add/remove audits do not.
Claim Bug2Claim(const AuditTable& t, const Config& c) {
  const std::vector<size_t> flip =
      Rows(t, {{"role", "bug2"}}, [&](size_t r) { return t.D("eps", r) <= 2; });
  const double alpha_flip = c.alpha / static_cast<double>(std::max<size_t>(1, flip.size()));
  bool exceeds = false;
  std::vector<std::string> flips, adds;
  for (size_t r : flip) {
    const double corrected = BoundAt(t, r, alpha_flip);
    const bool over = corrected > t.D("eps", r);
    exceeds = exceeds || over;
    flips.push_back(Evidence() << AuditText(t, r) << " [" << corrected << "]"
                               << (over ? " EXCEEDS eps_th" : ""));
  }
  int64_t add_exceed = 0;
  for (size_t r : Rows(t, {{"role", "audit"}, {"mechanism", "rf"}, {"attack", "rf_flip"}})) {
    const bool ok = t.D("eps_lb", r) <= t.D("eps", r);
    add_exceed += ok ? 0 : 1;
    adds.push_back(AuditText(t, r) + (ok ? "" : " exceeds"));
  }
  const int64_t m = static_cast<int64_t>(adds.size());
  return ClaimEvidence("ml_audit_bug2_detected", exceeds && m > 0 && add_exceed <= Allowed(m, c),
                       Evidence() << "add/remove audits exceeding eps_th: " << add_exceed << " of "
                                  << m << ", " << AllowanceText(m, c)
                                  << "; replace-one label flip (bound at alpha / " << flip.size()
                                  << " in brackets):" << ListText(flips)
                                  << "; add/remove copies:" << ListText(adds));
}

// An unflagged weakened mechanism: the largest per-copy loss its neighbour
// pairs can show to any test, relative to the guarantee.
std::string UnflaggedText(const AuditTable& t, const std::string& m) {
  const std::vector<size_t> rows = Rows(t, {{"role", "weakened"}, {"mechanism", m}},
                                        [&](size_t r) { return !std::isnan(t.D("max_loss", r)); });
  const auto ratio = [&](size_t r) { return t.D("max_loss", r) / t.D("guarantee", r); };
  Evidence evidence;
  evidence << m << " NOT flagged at any eps_th";
  if (rows.empty()) return evidence;
  const size_t r = *std::max_element(rows.begin(), rows.end(),
                                     [&](size_t a, size_t b) { return ratio(a) < ratio(b); });
  return evidence
         << " (the largest per-copy loss its neighbour pairs can show to any test, at most "
         << ratio(r) << " x the guarantee, e.g. " << t.S("dataset", r) << " eps " << t.D("eps", r)
         << " k " << t.I("k", r) << ": " << t.D("max_loss", r)
         << (ratio(r) <= 1 ? ": beyond any test on these neighbours)" : ")");
}

// Each weakened mechanism flagged: some bound at alpha / (its audits) above the guarantee.
Claim WeakenedClaim(const AuditTable& t, const Config& c) {
  const std::vector<size_t> weakened = Rows(t, {{"role", "weakened"}});
  std::map<std::string, int64_t> audits;  // per mechanism
  for (size_t r : weakened) ++audits[t.S("mechanism", r)];
  std::set<std::string> flagged;
  std::vector<std::string> items;
  for (size_t r : weakened) {
    const std::string& m = t.S("mechanism", r);
    const double corrected = BoundAt(t, r, c.alpha / static_cast<double>(audits[m]));
    if (corrected > t.D("guarantee", r) && flagged.insert(m).second) {
      items.push_back(Evidence() << "flagged: " << AuditText(t, r) << " [at alpha / " << audits[m]
                                 << ": " << corrected << "]");
    }
  }
  for (const auto& [m, count] : audits) {
    if (!flagged.count(m)) items.push_back(UnflaggedText(t, m));
  }
  return ClaimEvidence(
      "ml_audit_weakened_flagged", !audits.empty() && flagged.size() == audits.size(),
      Evidence() << flagged.size() << " of " << audits.size()
                 << " weakened mechanisms flagged (bound at alpha / the mechanism's audit count "
                    "in brackets):"
                 << ListText(items)
                 << ". An unflagged case may be beyond any test: optimal_audit (this study's "
                    "package) prints the largest privacy loss its neighbour pair can show and "
                    "the exact-likelihood-ratio audit (experiments/ml_audit/README.md, limits).");
}

// The eps lower bounds of attacks a and b (first, second) over matched
// audits of neighbour mode `mode` (same dataset, mechanism, eps, k,
// replicate); pairs where both are 0 are skipped.
using Bounds = std::pair<std::vector<double>, std::vector<double>>;
Bounds MatchedBounds(const AuditTable& t, const std::string& mechanism, const std::string& a,
                     const std::string& b, const std::string& mode) {
  const auto audits = [&](const std::string& attack) {
    return Rows(t,
                {{"role", "audit"}, {"mechanism", mechanism}, {"attack", attack}, {"mode", mode}});
  };
  const std::vector<size_t> seconds = audits(b);
  std::vector<double> first, second;
  for (size_t r : audits(a)) {
    for (size_t q : seconds) {
      if (!SameCell(t, r, q) || t.I("k", q) != t.I("k", r)) continue;
      if (t.D("eps_lb", r) == 0 && t.D("eps_lb", q) == 0) continue;
      first.push_back(t.D("eps_lb", r));
      second.push_back(t.D("eps_lb", q));
    }
  }
  return {first, second};
}

// The matched audits where the first attack's bound >= the second's.
int Wins(const Bounds& bounds) {
  int wins = 0;
  for (size_t i = 0; i < bounds.first.size(); ++i) wins += bounds.first[i] >= bounds.second[i];
  return wins;
}

// Holds when, for both logistic regressions and every attack pair (a, b),
// a's eps_lb >= b's in >= 75% of the matched replace audits.
Claim OrderClaim(const AuditTable& t, std::string id,
                 const std::vector<std::pair<std::string, std::string>>& pairs) {
  bool holds = true;
  std::vector<std::string> items;
  for (const std::string m : {"lr_output", "lr_objective"}) {
    for (const auto& [a, b] : pairs) {
      const Bounds bounds = MatchedBounds(t, m, a, b, "replace");
      const int wins = Wins(bounds), total = static_cast<int>(bounds.first.size());
      const bool ok = total > 0 && wins >= 0.75 * total;
      holds = holds && ok;
      items.push_back(Evidence() << m << " " << a << " >= " << b << " in " << wins << "/" << total
                                 << (ok ? "" : " (fails)"));
    }
  }
  return ClaimEvidence(std::move(id), holds,
                       Evidence() << "matched replace audits (same dataset, eps_th, k, replicate; "
                                     "pairs both 0 skipped) where the first attack's eps_lb >= "
                                     "the second's:"
                                  << ListText(items));
}

// The forest near min(eps_th, ceiling) up to eps_th = 2, then plateaus (Fig. 2).
Claim ForestShapeClaim(const AuditTable& t, const Config& c) {
  const double ceiling = KatzLogCeiling(c.n, c.alpha).value_or(0);
  bool holds = true;
  std::vector<std::string> items;
  for (size_t r : Rows(t, {{"role", "audit"}, {"mechanism", "rf"}, {"attack", "rf_flip"}},
                       [&](size_t r) { return t.I("k", r) == 1; })) {
    const double eps = t.D("eps", r), target = std::min(eps, ceiling), lb = t.D("eps_lb", r);
    const bool ok = eps <= 2 ? lb >= 0.5 * target : lb <= 0.75 * target;
    holds = holds && ok;
    items.push_back(AuditText(t, r) + (ok ? "" : " (fails)"));
  }
  return ClaimEvidence(
      "ml_audit_rf_near_bound_then_plateau", !items.empty() && holds,
      Evidence() << "k = 1 add/remove flip audits, ceiling " << ceiling << ":" << ListText(items));
}

// The influence poison's influence >= ClipBKD's, per dataset.
Claim InfluenceClaim(const AuditTable& t) {
  bool holds = true;
  std::vector<std::string> items;
  std::set<std::string> seen;
  for (size_t r : Rows(t, {{"role", "audit"}, {"attack", "influence"}})) {
    // One line per dataset: both logistic regressions share the poisons.
    if (!seen.insert(t.S("dataset", r)).second) continue;
    const std::vector<size_t> clipbkd = Rows(t, {{"attack", "clipbkd"},
                                                 {"mechanism", t.S("mechanism", r)},
                                                 {"dataset", t.S("dataset", r)}});
    if (clipbkd.empty()) continue;
    const size_t q = clipbkd.front();
    holds = holds && t.D("influence", r) >= t.D("influence", q);
    items.push_back(Evidence() << t.S("dataset", r) << ": influence attack " << t.D("influence", r)
                               << " vs ClipBKD " << t.D("influence", q));
  }
  return ClaimEvidence("ml_audit_influence_highest", !items.empty() && holds,
                       "influence of the poison:" + ListText(items));
}

// Group privacy: a large k helps at the smallest eps_th, k = 1 at the largest.
Claim GroupClaim(const AuditTable& t, const Config& c) {
  if (c.eps.size() < 2 || c.k.size() < 2) {
    return ClaimEvidence("ml_audit_group_tradeoff", false,
                         "needs at least two eps_th and two k values");
  }
  const double lo = *std::min_element(c.eps.begin(), c.eps.end());
  const double hi = *std::max_element(c.eps.begin(), c.eps.end());
  // One pre-set group size, the largest: comparing k = 1 with the best of
  // several k > 1 would favour the group side by the selection alone.
  const int64_t k_max = *std::max_element(c.k.begin(), c.k.end());
  int small_ok = 0, small_total = 0, large_ok = 0, large_total = 0;
  for (size_t r : Rows(t, {{"role", "audit"}}, [&](size_t r) {
         return t.I("k", r) == 1 && (t.D("eps", r) == lo || t.D("eps", r) == hi);
       })) {
    const double eps = t.D("eps", r), single = t.D("eps_lb", r);
    double group = 0;
    for (size_t q : Rows(t, {{"role", "audit"}, {"case", t.S("case", r)}},
                         [&](size_t q) { return SameCell(t, r, q) && t.I("k", q) == k_max; })) {
      group = t.D("eps_lb", q);
    }
    if (group == 0 && single == 0) continue;
    if (eps == lo) ++small_total, small_ok += group >= single;
    if (eps == hi) ++large_total, large_ok += single >= group;
  }
  const bool holds = small_total > 0 && large_total > 0 && small_ok * 2 >= small_total &&
                     large_ok * 2 >= large_total;
  return ClaimEvidence(
      "ml_audit_group_tradeoff", holds,
      Evidence() << "(dataset, case, replicate) audits with a positive bound: k = " << k_max
                 << " >= k = 1 at eps_th = " << lo << " in " << small_ok << "/" << small_total
                 << ", k = 1 >= k = " << k_max << " at eps_th = " << hi << " in " << large_ok << "/"
                 << large_total);
}

}  // namespace

bool ValidityUndecidable(const AuditTable& table, const Config& c) {
  return CountValidity(table, c).undecidable();
}

// The prior (flip) vs mean-only attack on naive Bayes, judged on the paper's
// replacements (Sec. 4.1: a poisoning relabels or moves an existing row) by
// an exact one-sided sign test over the matched audits (ties dropped) at
// level 0.05: holds when the flip's bound is larger significantly often,
// does not hold when it is smaller significantly often, inconclusive
// otherwise. The appended-copy audits of the mechanism's own adjacency are
// reported beside it: there the mean-only corner lands on the box's far
// corner, whose coordinates at the lower bound add nothing to the noised
// sums of x - lo (README.md, quick-scale departures).
JudgedClaim NbPriorBeatsMeanClaim(const AuditTable& table) {
  const auto [flip, mean] = MatchedBounds(table, "nb", "nb_flip", "nb_mean", "replace");
  const SignTest test = PairedSignTest(flip, mean);
  const SignVerdict verdict = JudgeAllGreater({test}, kNbSignTestAlpha);
  const Bounds added = MatchedBounds(table, "nb", "nb_flip", "nb_mean", "add");
  return {ClaimEvidence(
              "ml_audit_nb_prior_beats_mean", verdict.holds,
              Evidence() << "matched replace audits (same dataset, eps_th, k, "
                            "replicate; pairs both 0 skipped) where nb_flip's eps_lb "
                            "> nb_mean's: "
                         << SignTestText(test) << ", exact sign test at level " << kNbSignTestAlpha
                         << (verdict.inconclusive ? " (inconclusive: the test decides neither way)"
                                                  : "")
                         << " (appended copies, not judged: nb_flip >= nb_mean in " << Wins(added)
                         << "/" << added.first.size() << ")"),
          verdict.inconclusive, verdict.holds_fraction};
}

std::vector<Claim> AuditClaims(const AuditTable& t, const Config& c) {
  return {ValidityClaim(t, c),
          Bug1Claim(t, c),
          Bug2Claim(t, c),
          WeakenedClaim(t, c),
          OrderClaim(t, "ml_audit_beats_clipbkd_swapx",
                     {{"influence", "clipbkd"}, {"influence", "swapx"}}),
          OrderClaim(t, "ml_audit_ablation_order", {{"influence", "ma"}, {"ma", "clipbkd"}}),
          NbPriorBeatsMeanClaim(t).claim,
          ForestShapeClaim(t, c),
          InfluenceClaim(t),
          GroupClaim(t, c)};
}

}  // namespace privbench::ml_audit
