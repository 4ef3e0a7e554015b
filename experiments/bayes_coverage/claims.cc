// Study bayes_coverage: the verdicts of its seven claims (statements and
// sources in claims.json) on the Monte-Carlo coverage of the nominal
// 1 - alpha eps intervals. Coverage claims are judged against the band
// nominal +- 3 se0, se0 = sqrt(nominal (1 - nominal) / trials)
// (experiments/lib/coverage/coverage_run.h); the diagonal claim against the
// large-n limit of diagonal_limit.h (Bayesian paper, Sec. 3.2-3.4).
#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "experiments/bayes_coverage/diagonal_limit.h"
#include "experiments/bayes_coverage/report.h"
#include "experiments/lib/coverage/coverage_report.h"
#include "results/evidence.h"

namespace privbench::bayes_coverage {

std::vector<DiagonalRow> DiagonalRows(const Config& c, const Results& r) {
  std::map<std::string, size_t> index = IndexByName(r.methods);
  std::map<int64_t, int64_t> largest_n;  // pair -> n
  for (const CoverageSetting& st : r.settings)
    largest_n[st.pair] = std::max(largest_n[st.pair], st.n);
  std::map<double, CoverageLimit> limits;  // by rho
  std::vector<DiagonalRow> rows;
  for (size_t s = 0; s < r.settings.size(); ++s) {
    const CoverageSetting& st = r.settings[s];
    if (st.x != st.y || !(st.x + st.y < 1.0)) continue;  // (x, y) = (FPR, FNR)
    const double rho = DiagonalTermCorrelation(st.x);
    if (!limits.count(rho)) limits[rho] = DiagonalCoverageLimit(c.alpha, rho);
    for (const bool one : {false, true}) {
      const std::string name = one ? "bayesian_one_sided" : "bayesian";
      if (!index.count(name)) continue;
      const IntervalStats& stats = r.run.data[index[name]].stats[s];
      DiagonalRow row{s, name, rho, stats.coverage, stats.se};
      row.limit_independent = (one ? IndependentOneSidedLimit : IndependentTwoSidedLimit)(c.alpha);
      row.limit = one ? limits[rho].one_sided : limits[rho].two_sided;
      row.limit_se = std::sqrt(row.limit * (1 - row.limit) / static_cast<double>(c.trials));
      row.largest_n = st.n == largest_n[st.pair];
      rows.push_back(row);
    }
  }
  return rows;
}

namespace {

const MethodRun* Find(const Results& r, const std::string& name) {
  const std::map<std::string, size_t> index = IndexByName(r.methods);
  auto it = index.find(name);
  return it == index.end() ? nullptr : &r.run.data[it->second];
}

// "nominal 0.9, 3 se0 = ... with se0 = sqrt(nominal(1-nominal)/T)".
std::string Band(const Config& c) {
  const double nominal = 1.0 - c.alpha;
  return Evidence() << "nominal " << nominal << ", 3 se0 = " << 3 * NominalSe(nominal, c.trials)
                    << " with se0 = sqrt(nominal(1-nominal)/" << c.trials << ")";
}

// "Over-covers" (Sec. 2.6, 3.2): no setting under, and over in more than half.
Claim OverCovers(const Config& c, const Results& r, const std::string& id,
                 const std::string& method) {
  const MethodRun* d = Find(r, method);
  if (!d) return ClaimEvidence(id, false, "method '" + method + "' is not registered");
  const ClassCounts counts = CountClasses(d->classes);
  size_t argmin = 0;
  for (size_t s = 1; s < d->stats.size(); ++s) {
    if (d->stats[s].coverage < d->stats[argmin].coverage) argmin = s;
  }
  return ClaimEvidence(
      id, OverCoversMost(counts),
      Evidence() << "criterion: coverage never below nominal - 3 se0 and above nominal + 3 se0 in "
                    "more than half of the settings ("
                 << Band(c) << "). " << method << ": over in " << counts.over << " of "
                 << counts.total() << ", under in " << counts.under << "; minimum "
                 << d->stats[argmin].coverage << " at " << r.settings[argmin].label
                 << ". Per setting: " << CoverageList(r.settings, *d));
}

// "Near nominal" (Sec. 3.2-3.3) in every setting whose true eps is > 0.
Claim NearNominal(const Config& c, const Results& r, const std::string& id,
                  const std::string& method) {
  const MethodRun* d = Find(r, method);
  if (!d) return ClaimEvidence(id, false, "method '" + method + "' is not registered");
  std::vector<size_t> positive, misses;
  int under = 0, over = 0;
  for (size_t s = 0; s < r.settings.size(); ++s) {
    if (!(d->stats[s].truth > 0.0)) continue;
    positive.push_back(s);
    if (d->classes[s] != CoverageClass::kNear) misses.push_back(s);
    under += d->classes[s] == CoverageClass::kUnder;
    over += d->classes[s] == CoverageClass::kOver;
  }
  Evidence e;
  e << "criterion: |coverage - nominal| <= 3 se0 in every setting with true eps > 0 (" << Band(c)
    << "). " << method << ": within in " << positive.size() - misses.size() << " of "
    << positive.size() << " settings (under in " << under << ", over in " << over << ")";
  if (!misses.empty()) e << "; outside: " << CoverageList(r.settings, *d, misses);
  e << ". Per setting: " << CoverageList(r.settings, *d, positive);
  return ClaimEvidence(id, !positive.empty() && misses.empty(), e);
}

// The paired widths of the Bayesian interval b against method m at setting s.
PairedWidths VsBayesian(const Config& c, const MethodRun& b, const MethodRun& m, size_t s) {
  const int64_t t = c.trials;
  return ComparePairedWidths(Row(b.lower, s, t), Row(b.upper, s, t), Row(m.lower, s, t),
                             Row(m.upper, s, t));
}

// One setting of Narrowest(): appends its text to *per and the other
// two-sided methods narrower than bayesian to *others; returns whether
// bayesian is narrower than both clopper_pearson (cp) and jeffreys (j).
bool NarrowestAt(const Config& c, const Results& r, size_t s, const MethodRun& b,
                 const MethodRun& cp, const MethodRun& j, Evidence* per, Evidence* others) {
  const PairedWidths vs_cp = VsBayesian(c, b, cp, s), vs_j = VsBayesian(c, b, j, s);
  auto narrower = [](const PairedWidths& p) {
    return p.both_finite > 0 && p.frac_infinite_a <= p.frac_infinite_b && p.mean_a < p.mean_b;
  };
  const bool win = narrower(vs_cp) && narrower(vs_j);
  Separate(*per);
  *per << r.settings[s].label << ": bayesian " << vs_cp.mean_a << " vs CP " << vs_cp.mean_b
       << " (paired over " << vs_cp.both_finite << "), bayesian " << vs_j.mean_a << " vs Jeffreys "
       << vs_j.mean_b << ", infinite " << 100 * vs_cp.frac_infinite_a << "/"
       << 100 * vs_cp.frac_infinite_b << "/" << 100 * vs_j.frac_infinite_b << "%"
       << (win ? "" : " [NOT narrower]");
  for (size_t m = 0; m < r.methods.size(); ++m) {
    const std::string& name = r.methods[m].name;
    if (r.methods[m].one_sided || name == "bayesian" || name == "clopper_pearson" ||
        name == "jeffreys") {
      continue;
    }
    const PairedWidths p = VsBayesian(c, b, r.run.data[m], s);
    if (p.both_finite > 0 && p.mean_b < p.mean_a) {
      Separate(*others);
      *others << r.methods[m].label << " at " << r.settings[s].label << " (" << p.mean_b << " vs "
              << p.mean_a << ", coverage " << r.run.data[m].stats[s].coverage << ")";
    }
  }
  return win;
}

// Sec. 3.4: Bayesian narrower than Clopper-Pearson and Jeffreys in every
// setting (paired: no more infinite intervals, smaller mean width over the
// trials where both are finite).
Claim Narrowest(const Config& c, const Results& r) {
  const std::string id = "bayes_coverage_bayes_narrowest";
  const MethodRun *b = Find(r, "bayesian"), *cp = Find(r, "clopper_pearson"),
                  *j = Find(r, "jeffreys");
  if (!b || !cp || !j) {
    return ClaimEvidence(id, false, "bayesian, clopper_pearson or jeffreys is not registered");
  }
  size_t wins = 0;
  Evidence per, others;
  for (size_t s = 0; s < r.settings.size(); ++s) {
    wins += NarrowestAt(c, r, s, *b, *cp, *j, &per, &others);
  }
  return ClaimEvidence(
      id, wins == r.settings.size(),
      Evidence() << "criterion: in every setting the Bayesian interval has no larger a fraction of "
                    "infinite intervals and a smaller mean width over the trials where both are "
                    "finite, against both clopper_pearson and jeffreys. Narrower in "
                 << wins << " of " << r.settings.size()
                 << " settings. Mean widths (infinite % bayesian/CP/Jeffreys): " << per.str()
                 << ". Other registered two-sided methods narrower than bayesian: "
                 << (others.str().empty() ? "none" : others.str()));
}

// At true eps = 0 the equal-tailed interval's lower end is > 0, so it misses.
Claim ChancePoint(const Config& c, const Results& r) {
  const std::string id = "bayes_coverage_bayes_eps0_miss";
  const MethodRun* b = Find(r, "bayesian");
  if (!b) return ClaimEvidence(id, false, "bayesian is not registered");
  size_t zero = 0, under = 0;
  Evidence per;
  for (size_t s = 0; s < r.settings.size(); ++s) {
    if (b->stats[s].truth != 0.0) continue;
    ++zero;
    under += b->classes[s] == CoverageClass::kUnder;
    Separate(per);  // the Bayesian, one-sided and Clopper-Pearson coverage there
    per << r.settings[s].label << ": coverage " << b->stats[s].coverage << ", median lower end "
        << b->stats[s].median_lower;
    if (const MethodRun* o = Find(r, "bayesian_one_sided")) {
      per << ", one-sided coverage " << o->stats[s].coverage << " (median bound "
          << o->stats[s].median_lower << ")";
    }
    if (const MethodRun* cp = Find(r, "clopper_pearson")) {
      per << ", clopper_pearson coverage " << cp->stats[s].coverage;
    }
  }
  if (zero == 0) {
    return ClaimEvidence(
        id, false, "not evaluated: no setting has true eps = 0 (add the pair FPR = FNR = 0.5)");
  }
  return ClaimEvidence(id, under == zero,
                       Evidence() << "criterion: Bayesian two-sided coverage below nominal - 3 "
                                     "se0 in every setting with true eps = 0 ("
                                  << Band(c) << "); under in " << under << " of " << zero << ". "
                                  << per.str());
}

// At the largest n of every diagonal pair, the measured coverage is within
// 3 sqrt(limit (1 - limit) / trials) of the large-n limit at the terms' rho.
Claim DiagonalLimit(const Config& c, const Results& r) {
  const std::string id = "bayes_coverage_bayes_diagonal_limit";
  int64_t judged = 0, agree = 0;
  Evidence per;
  for (const DiagonalRow& row : DiagonalRows(c, r)) {
    if (!row.largest_n) continue;
    ++judged;
    const bool ok = std::abs(row.coverage - row.limit) <= 3 * row.limit_se;
    agree += ok;
    Separate(per);
    per << row.method << " " << r.settings[row.setting].label << ": measured " << row.coverage
        << " (se " << row.se << ") vs limit " << row.limit << " at rho " << row.rho
        << " (rho = 0: " << row.limit_independent << ")" << (ok ? "" : " DISAGREES");
  }
  if (judged == 0) {
    return ClaimEvidence(id, false, "not evaluated: no diagonal setting with true eps > 0");
  }
  return ClaimEvidence(id, agree == judged,
                       Evidence() << "criterion: at the largest n of every diagonal pair, "
                                     "|coverage - limit at the terms' correlation rho| <= 3 "
                                     "sqrt(limit (1 - limit) / trials) for both the two-sided "
                                     "interval and the one-sided bound; "
                                  << agree << " of " << judged << " agree (" << c.trials
                                  << " trials): " << per.str());
}

}  // namespace

std::vector<Claim> CoverageClaims(const Config& c, const Results& r) {
  return {
      OverCovers(c, r, "bayes_coverage_cp_overcovers", "clopper_pearson"),
      OverCovers(c, r, "bayes_coverage_jeffreys_overcovers", "jeffreys"),
      NearNominal(c, r, "bayes_coverage_bayes_near_nominal", "bayesian"),
      NearNominal(c, r, "bayes_coverage_bayes_lower_near_nominal", "bayesian_one_sided"),
      Narrowest(c, r),
      ChancePoint(c, r),
      DiagonalLimit(c, r),
  };
}

}  // namespace privbench::bayes_coverage
