// Study katz_coverage: the verdicts of its four claims (statements and
// sources in claims.json) on the lower bounds of log(p1/p0) (ML-Audit, Lu et
// al. NeurIPS 2022, Sec. 4 and Sec. 4.2 point 3). Coverage is judged
// against each method's own one-sided nominal level, with the band
// nominal +- 3 se0, se0 = sqrt(nominal (1 - nominal) / trials)
// (experiments/lib/coverage/coverage_run.h); tightness by the mean of the
// clipped bound max{0, bound}.
#include <algorithm>
#include <cmath>
#include <string>

#include "experiments/katz_coverage/report.h"
#include "results/evidence.h"

namespace privbench::katz_coverage {
namespace {

size_t Index(const Results& r, const std::string& name) { return IndexByName(r.methods).at(name); }
double Cov(const Results& r, size_t m, size_t s) { return r.run.data[m].stats[s].coverage; }
bool Under(const Results& r, size_t m, size_t s) {
  return r.run.data[m].classes[s] == CoverageClass::kUnder;
}

// "katz_log nominal 0.975, 3 se0 = 0.006623"
std::string Band(const Config& c, const Results& r, size_t m) {
  const double nom = r.methods[m].nominal;
  return Evidence() << r.methods[m].name << " nominal " << nom
                    << ", 3 se0 = " << 3 * NominalSe(nom, c.trials);
}

// The ML-Audit bound never under-covers (coverage >= nominal - 3 se0).
Claim KatzValid(const Config& c, const Results& r) {
  const size_t k = Index(r, "katz_log");
  Evidence per, bad;
  int under = 0;
  for (size_t s = 0; s < r.settings.size(); ++s) {
    auto add = [&](Evidence& list) {
      Separate(list), list << r.settings[s].label << " " << Cov(r, k, s);
    };
    add(per);
    if (Under(r, k, s)) add(bad), ++under;
  }
  Evidence e;
  e << "criterion: coverage >= nominal - 3 se0 in every setting (" << Band(c, r, k)
    << "). Under-covers in " << under << " of " << r.settings.size();
  if (!bad.str().empty()) e << ": " << bad.str();
  e << ". Per setting: " << per.str();
  return ClaimEvidence("katz_coverage_katz_valid", under == 0, e);
}

// BetterCoverage() at one matched level: katz method kn against CP method
// cn; returns in how many settings it was better.
size_t BetterAtLevel(const Results& r, const std::string& kn, const std::string& cn,
                     Evidence* detail) {
  const size_t k = Index(r, kn), cp = Index(r, cn);
  const double nom = r.methods[k].nominal;
  size_t level_good = 0;
  Evidence bad;
  for (size_t s = 0; s < r.settings.size(); ++s) {
    const bool ok =
        !Under(r, k, s) && std::abs(Cov(r, k, s) - nom) <= std::abs(Cov(r, cp, s) - nom);
    level_good += ok;
    if (!ok) {
      Separate(bad);
      bad << r.settings[s].label << " " << kn << " " << Cov(r, k, s) << " vs " << cn << " "
          << Cov(r, cp, s);
    }
  }
  *detail << " At level " << nom << " (" << kn << " vs " << cn << "): better in " << level_good
          << " of " << r.settings.size();
  if (!bad.str().empty()) *detail << "; not better: " << bad.str();
  *detail << ".";
  return level_good;
}

// Like-for-like: at each matched nominal level Katz is closer to it than CP
// and does not under-cover.
Claim BetterCoverage(const Results& r) {
  size_t good = 0;
  Evidence e;
  e << "criterion: at each matched nominal level, in every setting the Katz bound does "
       "not under-cover (>= nominal - 3 se0) and |coverage - nominal| is no larger "
       "than the Clopper-Pearson bound's.";
  good += BetterAtLevel(r, "katz_log", "clopper_pearson_ratio_strict", &e);
  good += BetterAtLevel(r, "katz_log_one_sided", "clopper_pearson_ratio", &e);
  return ClaimEvidence("katz_coverage_katz_better_coverage", good == 2 * r.settings.size(), e);
}

// Tighter()'s note on the bounds at the most extreme outcomes, n1 = N_max
// with n0 = 1 and n0 = 0 (table detection_ceiling).
Evidence CeilingNote(const Config& c, size_t k, size_t cp, size_t cps) {
  const int64_t n_max = *std::max_element(c.n.begin(), c.n.end());
  Evidence ceiling;
  for (int64_t n0 : {int64_t{1}, int64_t{0}}) {
    auto b = RatioLowerBounds(n_max, n0, n_max, c.alpha);
    if (!b.ok() || n0 > n_max) continue;
    ceiling << " At n1 = N = " << n_max << ", n0 = " << n0 << ": katz_log " << (*b)[k] << " vs CP "
            << (*b)[cp] << " (strict " << (*b)[cps] << ").";
  }
  return ceiling;
}

// Katz (ML-Audit's bound) tighter than the prior-work CP bound: a larger
// mean clipped bound and vacuous no more often where log(p1/p0) > 0.
Claim Tighter(const Config& c, const Results& r) {
  const size_t k = Index(r, "katz_log"), cp = Index(r, "clopper_pearson_ratio");
  const size_t cps = Index(r, "clopper_pearson_ratio_strict");
  int wins = 0, total = 0, strict_wins = 0;
  Evidence per;
  for (size_t s = 0; s < r.settings.size(); ++s) {
    if (!(LogRatio(r.settings[s]) > 0.0)) continue;
    ++total;
    const IntervalStats& a = r.run.data[k].stats[s];
    const IntervalStats& b = r.run.data[cp].stats[s];
    const bool win = a.mean_clipped >= b.mean_clipped && a.frac_vacuous <= b.frac_vacuous;
    wins += win;
    strict_wins += a.mean_clipped >= r.run.data[cps].stats[s].mean_clipped;
    Separate(per);
    per << r.settings[s].label << " target " << LogRatio(r.settings[s]) << ": katz_log "
        << a.mean_clipped << " (vacuous " << 100 * a.frac_vacuous << "%, coverage " << a.coverage
        << ") vs CP " << b.mean_clipped << " (vacuous " << 100 * b.frac_vacuous << "%, coverage "
        << b.coverage << ")" << (win ? "" : " [CP tighter]");
  }
  return ClaimEvidence(
      "katz_coverage_katz_tighter", total > 0 && wins == total,
      Evidence() << "criterion: in every setting with log(p1/p0) > 0, katz_log's mean eps bound "
                    "(mean of max{0, bound}) is >= clopper_pearson_ratio's and it is vacuous no "
                    "more often. Holds in "
                 << wins << " of " << total
                 << " (against the level-matched clopper_pearson_ratio_strict: larger mean "
                    "bound in "
                 << strict_wins << " of " << total << ")." << CeilingNote(c, k, cp, cps).str()
                 << " Per setting: " << per.str());
}

// The CP ratio bound is conservative: never under, over in most settings.
Claim CpConservative(const Config& c, const Results& r) {
  const size_t cp = Index(r, "clopper_pearson_ratio");
  const ClassCounts counts = CountClasses(r.run.data[cp].classes);
  return ClaimEvidence("katz_coverage_cp_conservative", OverCoversMost(counts),
                       Evidence() << "criterion: never below nominal - 3 se0 and above nominal + "
                                     "3 se0 in more than half of the settings ("
                                  << Band(c, r, cp) << "). Over in " << counts.over << " of "
                                  << counts.total() << ", under in " << counts.under
                                  << ". Per setting: " << CoverageList(r.settings, r.run.data[cp]));
}

}  // namespace

std::vector<Claim> RatioClaims(const Config& c, const Results& r) {
  return {KatzValid(c, r), BetterCoverage(r), Tighter(c, r), CpConservative(c, r)};
}

}  // namespace privbench::katz_coverage
