// The study's claims (report.h): validity of every audit against its eps_th,
// growth with eps_th, and the two attack comparisons, each by an exact test.
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
#include "experiments/ml_audit_dpsgd/report.h"
#include "results/evidence.h"

namespace privbench {
namespace ml_audit_dpsgd {
namespace {

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

}  // namespace

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

namespace {

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

}  // namespace ml_audit_dpsgd
}  // namespace privbench
