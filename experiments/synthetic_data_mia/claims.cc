#include "experiments/synthetic_data_mia/claims.h"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/format.h"
#include "core/stats.h"
#include "results/evidence.h"

namespace privbench {
namespace synthetic_data_mia {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

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

// A claim the games' attacks cannot decide: holds = 0, the reason as evidence.
JudgedClaim UndecidableClaim(const std::string& id, const std::string& reason) {
  return {ClaimEvidence(id, false, reason), false, 0.0};
}

// Per (case, target) the game of each adversary, when both ran.
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

// The largest judged bound over the attacks of one kind (white-box or not)
// in game g; -1 when it ran none of that kind.
double BestOfKind(const GameResult& g, const CaseSpec& s, bool white_box) {
  double best = -1;
  for (const AttackOutcome& o : g.attacks) {
    if (IsWhiteBox(o.attack) == white_box) best = std::max(best, JudgedBound(o, s));
  }
  return best;
}

// Median of x, 0 when empty.
double MedianOr0(const std::vector<double>& x) { return x.empty() ? 0.0 : Median(x); }

// The exact permutation distribution of the sum of `k` of the integer
// scores `w` (every k-subset equally likely): counts[s] / C(n, k).
std::vector<double> SubsetSumDistribution(const std::vector<int64_t>& w, int64_t k) {
  int64_t top = 0;
  for (int64_t x : w) top += x;
  std::vector<std::vector<double>> ways(static_cast<size_t>(k + 1),
                                        std::vector<double>(static_cast<size_t>(top + 1), 0.0));
  ways[0][0] = 1;
  for (size_t i = 0; i < w.size(); ++i) {
    for (int64_t j = std::min<int64_t>(k, static_cast<int64_t>(i) + 1); j >= 1; --j) {
      std::vector<double>& to = ways[static_cast<size_t>(j)];
      const std::vector<double>& from = ways[static_cast<size_t>(j - 1)];
      for (int64_t s = top; s >= w[i]; --s) to[s] += from[static_cast<size_t>(s - w[i])];
    }
  }
  std::vector<double> p = ways[static_cast<size_t>(k)];
  double total = 0;
  for (double x : p) total += x;
  for (double& x : p) x /= total;
  return p;
}

}  // namespace

bool Ran(const Results& r, const std::string& attack) {
  return std::find(r.attacks.begin(), r.attacks.end(), attack) != r.attacks.end();
}

bool AnyBlackBoxRan(const Results& r) {
  return std::any_of(r.attacks.begin(), r.attacks.end(),
                     [](const std::string& a) { return !IsWhiteBox(a); });
}

std::string AttacksRunNote(const Results& r) {
  return r.attacks == AttackNames() ? "" : "; attacks run (--attacks): " + Joined(r.attacks);
}

std::string CaseLabel(const CaseSpec& s) {
  return s.synthesizer +
         (s.guarantee.is_private() ? " eps " + FormatSignificant(s.guarantee.epsilon, 3) : "") +
         (s.bug.empty() ? "" : " [" + s.bug + "]");
}

std::vector<CaseBounds> BoundsByCase(const Results& r) {
  std::vector<CaseBounds> b(r.cases.size());
  for (const GameResult& g : r.games) {
    CaseBounds& cb = b[static_cast<size_t>(g.case_index)];
    const CaseSpec& s = r.cases[static_cast<size_t>(g.case_index)];
    for (const AttackOutcome& o : g.attacks) {
      double& slot = IsWhiteBox(o.attack) ? cb.white_box_adult : cb.black_box;
      slot = std::max(slot, JudgedBound(o, s));
      if (IsWhiteBox(o.attack)) continue;
      cb.best_auc = std::max(cb.best_auc, o.auc);
      cb.black_box_ceiling = std::max(cb.black_box_ceiling, o.judged_ceiling);
    }
  }
  for (size_t c = 0; c < r.cases.size() && r.perfect_test.size() == r.cases.size(); ++c) {
    b[c].perfect_test = r.perfect_test[c];
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

std::string UndecidableReason(const Results& r, const std::string& id) {
  std::vector<std::string> needed;
  if (id == "synthetic_data_mia_features_beat_dcr") {
    needed = {"histogram_logistic", "queries_logistic", "dcr_hamming"};
  } else if (id == "synthetic_data_mia_black_box_far_below") {
    for (const std::string& a : AttackNames()) {
      if (!IsWhiteBox(a)) needed.push_back(a);
    }
  } else if (id == "synthetic_data_mia_outliers_leak_more") {
    if (!r.sweep.attacks.empty()) return "";
    return "undecidable: the outlier sweep needs at least one black-box attack of its "
           "sweep_attacks among those run (--attacks): " +
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

RankSumTest ExactRankSumTest(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<std::pair<double, bool>> pooled;  // (value, from x)
  for (double v : x) {
    if (!std::isnan(v)) pooled.push_back({v, true});
  }
  for (double v : y) {
    if (!std::isnan(v)) pooled.push_back({v, false});
  }
  RankSumTest t;
  for (const auto& p : pooled) (p.second ? t.n_x : t.n_y) += 1;
  if (t.n_x == 0 || t.n_y == 0) return t;
  std::sort(pooled.begin(), pooled.end());
  // Twice the midranks: a tie over sorted positions i..j-1 has midrank
  // (i + 1 + j) / 2.
  std::vector<int64_t> rank2(pooled.size());
  int64_t observed = 0;
  for (size_t i = 0; i < pooled.size();) {
    size_t j = i;
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    for (size_t k = i; k < j; ++k) rank2[k] = static_cast<int64_t>(i + 1 + j);
    i = j;
  }
  for (size_t k = 0; k < pooled.size(); ++k) observed += pooled[k].second ? rank2[k] : 0;
  const std::vector<double> p = SubsetSumDistribution(rank2, t.n_x);
  t.p_greater = t.p_less = 0;
  for (size_t s = 0; s < p.size(); ++s) {
    if (static_cast<int64_t>(s) >= observed) t.p_greater += p[s];
    if (static_cast<int64_t>(s) <= observed) t.p_less += p[s];
  }
  t.p_greater = std::min(1.0, t.p_greater);
  t.p_less = std::min(1.0, t.p_less);
  t.u = static_cast<double>(observed) / 2 - static_cast<double>(t.n_x * (t.n_x + 1)) / 2;
  return t;
}

std::vector<double> TargetExposure(const OutlierSweep& sweep) {
  std::vector<double> sum(sweep.targets.size(), 0.0), count(sweep.targets.size(), 0.0);
  for (const GameResult& g : sweep.games) {
    for (const AttackOutcome& o : g.attacks) {
      sum[static_cast<size_t>(g.target_index)] += o.auc;
      count[static_cast<size_t>(g.target_index)] += 1;
    }
  }
  std::vector<double> out;
  for (size_t t = 0; t < sum.size(); ++t) out.push_back(count[t] > 0 ? sum[t] / count[t] : kNan);
  return out;
}

std::vector<StratumTest> FixedRandomStrata(const Results& r) {
  // [black-box DP, white-box DP, black-box non-private] x {fixed, random}.
  std::vector<double> units[3][2];
  for (const AdversaryPair& p : AdversaryPairs(r)) {
    const CaseSpec& s = r.cases[static_cast<size_t>(p.fixed->case_index)];
    const bool dp = s.guarantee.is_private();
    for (const bool white_box : {false, true}) {
      if (white_box && !dp) continue;  // nothing released
      const double fixed = BestOfKind(*p.fixed, s, white_box);
      const double random = BestOfKind(*p.random, s, white_box);
      if (fixed < 0 || random < 0) continue;  // no attack of that kind ran
      const int k = !dp ? 2 : white_box ? 1 : 0;
      units[k][0].push_back(fixed);
      units[k][1].push_back(random);
    }
  }
  const char* names[3] = {"black-box, DP synthesizers", "white-box, DP synthesizers",
                          "black-box, non-private synthesizers"};
  std::vector<StratumTest> out;
  for (int k = 0; k < 3; ++k) {
    out.push_back({names[k], k != 1, PairedSignTest(units[k][0], units[k][1])});
  }
  return out;
}

SignVerdict FixedRandomVerdict(const std::vector<StratumTest>& strata, double alpha) {
  int64_t tested = 0, greater = 0, untied = 0;
  for (const StratumTest& s : strata) tested += s.test.pairs > 0;
  const double level = alpha / static_cast<double>(std::max<int64_t>(1, tested));
  bool established = false, refuted = false;
  for (const StratumTest& s : strata) {
    refuted = refuted || s.test.p_less <= level;
    if (!s.black_box) continue;
    established = established || s.test.p_greater <= level;
    greater += s.test.greater;
    untied += s.test.greater + s.test.less;
  }
  SignVerdict v;
  v.holds = established && !refuted;
  v.inconclusive = !v.holds && !refuted;
  v.holds_fraction = untied > 0 ? static_cast<double>(greater) / static_cast<double>(untied) : 0.0;
  return v;
}

ViolationCount CountViolations(const Results& r) {
  ViolationCount v;
  auto count = [&](const AttackOutcome& o, const CaseSpec& s, bool game) {
    const bool could = o.judged_ceiling > s.guarantee.epsilon;
    ++v.audits;
    v.could_exceed += could;
    v.exceed += JudgedBound(o, s) > s.guarantee.epsilon;
    (game ? v.game_audits : v.worst_audits) += 1;
    (game ? v.game_could_exceed : v.worst_could_exceed) += could;
  };
  for (const GameResult& g : r.games) {
    const CaseSpec& s = r.cases[static_cast<size_t>(g.case_index)];
    if (!s.guarantee.is_private() || !s.bug.empty()) continue;
    for (const AttackOutcome& o : g.attacks) count(o, s, true);
  }
  for (const WorstCaseResult& w : r.worst_case) {
    if (!w.spec.bug.empty()) continue;
    for (const AttackOutcome& o : w.attacks) count(o, w.spec, false);
  }
  return v;
}

std::vector<BugDetection> BugDetections(const Results& r) {
  std::vector<BugDetection> out;
  for (size_t i = 0; i < r.worst_case.size(); ++i) {
    const WorstCaseResult& w = r.worst_case[i];
    if (!w.bug_audit || w.spec.bug.empty()) continue;
    BugDetection d{static_cast<int64_t>(i), kNan, kNan, w.flagged};
    for (const BugPower& p : r.bug_power) {
      if (p.worst_case != d.worst_case) continue;
      d.quick = std::isnan(d.quick) ? p.quick.probability : std::max(d.quick, p.quick.probability);
      d.paper = std::isnan(d.paper) ? p.paper.probability : std::max(d.paper, p.paper.probability);
    }
    out.push_back(d);
  }
  return out;
}

JudgedClaim FixedBeatsRandomClaim(const Results& r, double alpha) {
  const std::vector<StratumTest> strata = FixedRandomStrata(r);
  const SignVerdict v = FixedRandomVerdict(strata, alpha);
  Evidence e;
  e << "largest judged eps lower bound per game, fixed D- vs random D-, one unit per (case, "
       "target) game pair, sign tests at alpha / "
    << std::count_if(strata.begin(), strata.end(),
                     [](const StratumTest& s) { return s.test.pairs > 0; })
    << ":";
  for (const StratumTest& s : strata) {
    e << " " << s.name << ": fixed larger in " << s.test.greater << ", smaller in " << s.test.less
      << " of " << s.test.pairs << " (p = " << s.test.p_greater << ", reverse p = " << s.test.p_less
      << ");";
  }
  e << " verdict from the black-box strata (the white-box one compares the exact likelihood ratio "
       "with a Gaussian approximation: it can refute, not establish)"
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

namespace {

// The main grid's per-target mean black-box AUC under the 2-way models (for
// reference beside the sweep: it includes the canary).
std::string MainGridExposure(const Results& r) {
  std::vector<double> sum(r.targets.size(), 0.0), count(r.targets.size(), 0.0);
  for (const GameResult& g : r.games) {
    const std::string& name = r.cases[static_cast<size_t>(g.case_index)].synthesizer;
    if (name != "chow_liu" && name != "mst" && name != "privbayes") continue;
    for (const AttackOutcome& o : g.attacks) {
      if (IsWhiteBox(o.attack)) continue;
      sum[static_cast<size_t>(g.target_index)] += o.auc;
      count[static_cast<size_t>(g.target_index)] += 1;
    }
  }
  Evidence e;
  e << "main grid, mean black-box AUC per target under chow_liu/mst/privbayes:";
  for (size_t t = 0; t < r.targets.size(); ++t) {
    e << " " << r.targets[t].kind << " (outlier score " << r.targets[t].outlier_score << ") "
      << (count[t] > 0 ? sum[t] / count[t] : 0.0) << ";";
  }
  return e.str();
}

// The sweep's design, for the evidence.
std::string SweepDesign(const Results& r) {
  std::vector<std::string> cases;
  for (int64_t k : r.sweep.cases) cases.push_back(CaseLabel(r.cases[static_cast<size_t>(k)]));
  std::vector<std::string> adversaries;
  for (const GameResult& g : r.sweep.games) {
    if (std::find(adversaries.begin(), adversaries.end(), g.adversary) == adversaries.end()) {
      adversaries.push_back(g.adversary);
    }
  }
  return "cases " + Joined(cases) + "; adversaries " + Joined(adversaries) + "; attacks " +
         Joined(r.sweep.attacks) + "; " + std::to_string(r.sweep.train_datasets) + " / " +
         std::to_string(r.sweep.test_datasets) + " releases per game";
}

}  // namespace

JudgedClaim OutliersLeakMoreClaim(const Results& r, double alpha) {
  const std::string id = "synthetic_data_mia_outliers_leak_more";
  if (const std::string why = UndecidableReason(r, id); !why.empty()) {
    return UndecidableClaim(id, why);
  }
  const std::vector<double> exposure = TargetExposure(r.sweep);
  std::vector<double> outlier, random;
  for (size_t t = 0; t < r.sweep.targets.size(); ++t) {
    (r.sweep.targets[t].kind == "outlier" ? outlier : random).push_back(exposure[t]);
  }
  const RankSumTest test = ExactRankSumTest(outlier, random);
  const bool holds = test.p_greater <= alpha, refuted = test.p_less <= alpha;
  const double pairs = static_cast<double>(test.n_x * test.n_y);
  Evidence e;
  e << "one unit per target: its mean AUC over the outlier sweep's games (" << SweepDesign(r)
    << "): " << test.n_x << " outliers (median " << MedianOr0(outlier) << ") vs " << test.n_y
    << " random records (median " << MedianOr0(random) << "); Mann-Whitney U = " << test.u << " of "
    << pairs << ", exact one-sided p = " << test.p_greater
    << " (outliers higher), reverse p = " << test.p_less << ", each at alpha = " << alpha << "; "
    << MainGridExposure(r) << AttacksRunNote(r);
  return {ClaimEvidence(id, holds, e.str()), !holds && !refuted, pairs > 0 ? test.u / pairs : 0.0};
}

JudgedClaim NoViolationClaim(const Results& r, double alpha) {
  const ViolationCount v = CountViolations(r);
  // Each audit exceeds with probability <= alpha; the 0.999 quantile of
  // Binomial(could_exceed, alpha) (independent audits) bounds the count.
  const double allowed =
      v.could_exceed == 0
          ? 0.0
          : boost::math::quantile(boost::math::binomial(static_cast<double>(v.could_exceed), alpha),
                                  0.999);
  const bool decided = v.could_exceed > 0;
  const bool holds = decided && static_cast<double>(v.exceed) <= allowed;
  Evidence e;
  e << v.could_exceed << " of " << v.audits
    << " audits of correct DP synthesizers could exceed the claimed eps (judged-bound ceiling at "
       "their sample size above eps: "
    << v.game_could_exceed << " of " << v.game_audits << " games' audits, " << v.worst_could_exceed
    << " of " << v.worst_audits << " worst-case ones); " << v.exceed
    << " exceed it (allowed: " << allowed << ", the 0.999 quantile of Binomial(" << v.could_exceed
    << ", " << alpha << "))" << (decided ? "" : "; no audit could fail: inconclusive")
    << AttacksRunNote(r);
  return {
      ClaimEvidence("synthetic_data_mia_no_violation", holds, e.str()), !decided,
      decided ? 1.0 - static_cast<double>(v.exceed) / static_cast<double>(v.could_exceed) : 0.0};
}

Claim BugsFlaggedClaim(const Results& r) {
  const std::vector<BugDetection> bugs = BugDetections(r);
  bool holds = !bugs.empty();
  Evidence e;
  e << "detection probability (paper: " << kPaperWorstCaseTrials
    << ", quick: " << kQuickWorstCaseTrials
    << " releases per side; required at paper scale: " << kBugPowerRequired << "):";
  for (const BugDetection& d : bugs) {
    const WorstCaseResult& w = r.worst_case[static_cast<size_t>(d.worst_case)];
    holds = holds && d.paper >= kBugPowerRequired;  // NaN (no power) fails
    e << " " << CaseLabel(w.spec) << " on " << w.attributes << " attribute(s): paper " << d.paper
      << ", quick " << d.quick << " (";
    for (const BugPower& p : r.bug_power) {
      if (p.worst_case != d.worst_case) continue;
      e << p.attack << ", " << p.law << ": " << p.paper.probability << " +- "
        << p.paper.standard_error << " / " << p.quick.probability << " +- "
        << p.quick.standard_error << "; ";
    }
    e << "this run: " << (d.flagged ? "flagged" : "not flagged") << ");";
  }
  e << " correct counterparts in this run:";
  for (const WorstCaseResult& w : r.worst_case) {
    if (!w.bug_audit || !w.spec.bug.empty()) continue;
    holds = holds && !w.flagged;
    e << " " << CaseLabel(w.spec) << " on " << w.attributes
      << " attribute(s): " << (w.flagged ? "flagged" : "not flagged") << ";";
  }
  return ClaimEvidence("synthetic_data_mia_bugs_flagged", holds, e.str());
}

namespace {

// One part of black_box_far_below: decided (it had cases to judge) and held.
struct Part {
  bool decided = false, held = false;
};

}  // namespace

JudgedClaim BlackBoxFarBelowClaim(const Results& r) {
  const std::string id = "synthetic_data_mia_black_box_far_below";
  if (const std::string why = UndecidableReason(r, id); !why.empty()) {
    return UndecidableClaim(id, why);
  }
  const std::vector<CaseBounds> b = BoundsByCase(r);
  std::vector<double> black, worst_eps, worst_perfect;
  Part below, close, above{false, true};
  Evidence e;
  for (size_t c = 0; c < r.cases.size(); ++c) {
    const CaseSpec& s = r.cases[c];
    const double eps = s.guarantee.epsilon;
    if (!s.guarantee.is_private() || b[c].worst_case < 0) continue;
    if (b[c].black_box_ceiling >= 0.25 * eps) black.push_back(b[c].black_box / eps);
    worst_eps.push_back(b[c].worst_case / eps);
    if (b[c].perfect_test > 0) worst_perfect.push_back(b[c].worst_case / b[c].perfect_test);
    above = {true, above.held && b[c].worst_case >= b[c].black_box};
    e << CaseLabel(s) << ": black-box " << b[c].black_box << " (ceiling " << b[c].black_box_ceiling
      << "), worst-case white-box " << b[c].worst_case << " (/ eps " << b[c].worst_case / eps
      << "; perfect test " << b[c].perfect_test;
    if (b[c].perfect_test > 0) e << ", worst / perfect " << b[c].worst_case / b[c].perfect_test;
    e << "); ";
  }
  below = {!black.empty(), !black.empty() && Median(black) < 0.25};
  close = {!worst_perfect.empty(), !worst_perfect.empty() && Median(worst_perfect) >= 0.5};
  e << "median black-box / eps over the " << black.size()
    << " DP cases whose black-box ceiling reaches 0.25 eps: " << MedianOr0(black)
    << " (far below: < 0.25); median worst-case / perfect-test bound over the "
    << worst_perfect.size()
    << " Gaussian-trade-off cases with a positive one: " << MedianOr0(worst_perfect)
    << " (close: >= 0.5); median worst-case / eps " << MedianOr0(worst_eps)
    << " (reported); worst case >= black box in every DP case: " << (above.held ? "yes" : "no");
  const Part parts[] = {below, close, above};
  bool all = true, failed = false;
  double held = 0;
  for (const Part& p : parts) {
    all = all && p.decided && p.held;
    failed = failed || (p.decided && !p.held);
    held += p.decided && p.held;
  }
  if (!all && !failed) e << "; a part cannot be decided at this sample size: inconclusive";
  return {ClaimEvidence(id, all, e.str()), !all && !failed, held / 3.0};
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

}  // namespace synthetic_data_mia
}  // namespace privbench
