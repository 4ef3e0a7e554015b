#include "experiments/katz_coverage/report.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "core/format.h"
#include "experiments/lib/coverage/coverage_report.h"
#include "results/evidence.h"
#include "results/table_builder.h"

namespace privbench::katz_coverage {
namespace {

// ML-Audit's claims about the Katz-log and Clopper-Pearson ratio bounds,
// each judged against the 3 se0 band of experiments/lib/coverage/coverage_run.h.
class Claims {
 public:
  Claims(const Config& c, const Results& r)
      : c_(c),
        settings_(r.settings),
        methods_(r.methods),
        data_(r.run.data),
        index_(IndexByName(methods_)) {}

  // The ML-Audit bound never under-covers.
  Claim KatzValid() const;
  // Like-for-like: Katz closer to the common nominal level than CP, and not
  // under-covering.
  Claim BetterCoverage() const;
  // Katz (ML-Audit's bound) tighter than the prior-work CP bound.
  Claim Tighter() const;
  // The CP ratio bound is conservative.
  Claim CpConservative() const;

 private:
  size_t Index(const std::string& name) const { return index_.at(name); }
  const IntervalStats& Stats(size_t m, size_t s) const { return data_[m].stats[s]; }
  CoverageClass Class(size_t m, size_t s) const { return data_[m].classes[s]; }
  double Cov(size_t m, size_t s) const { return Stats(m, s).coverage; }
  // "katz_log nominal 0.975, 3 se0 = 0.006623"
  Evidence Band(size_t m) const {
    const double nom = methods_[m].nominal;
    return Evidence() << methods_[m].name << " nominal " << nom
                      << ", 3 se0 = " << 3 * NominalSe(nom, c_.trials);
  }
  // BetterCoverage() at one matched level: katz method k against CP method
  // cp; adds the settings judged to *total and returns how many were better.
  int BetterAtLevel(const std::string& kn, const std::string& cn, int* total,
                    Evidence* detail) const;
  // Tighter()'s note on the bounds at the most extreme outcomes, n1 = N_max
  // with n0 = 1 and n0 = 0.
  Evidence CeilingNote(size_t k, size_t cp, size_t cps) const;

  const Config& c_;
  const std::vector<CoverageSetting>& settings_;
  const std::vector<CoverageMethod>& methods_;
  const std::vector<MethodRun>& data_;
  std::map<std::string, size_t> index_;
};

Claim Claims::KatzValid() const {
  const size_t k = Index("katz_log");
  Evidence per, bad;
  int under = 0;
  for (size_t s = 0; s < settings_.size(); ++s) {
    const bool u = Class(k, s) == CoverageClass::kUnder;
    under += u;
    Separate(per);
    per << settings_[s].label << " " << Cov(k, s);
    if (u) {
      Separate(bad);
      bad << settings_[s].label << " " << Cov(k, s);
    }
  }
  Evidence e;
  e << "criterion: coverage >= nominal - 3 se0 in every setting (" << Band(k).str()
    << "). Under-covers in " << under << " of " << settings_.size();
  if (!bad.str().empty()) e << ": " << bad.str();
  e << ". Per setting: " << per.str();
  return ClaimEvidence("katz_coverage_katz_valid", under == 0, e);
}

int Claims::BetterAtLevel(const std::string& kn, const std::string& cn, int* total,
                          Evidence* detail) const {
  const size_t k = Index(kn), cp = Index(cn);
  const double nom = methods_[k].nominal;
  int level_good = 0;
  Evidence bad;
  for (size_t s = 0; s < settings_.size(); ++s) {
    const double dk = std::abs(Cov(k, s) - nom);
    const double dc = std::abs(Cov(cp, s) - nom);
    const bool ok = Class(k, s) != CoverageClass::kUnder && dk <= dc;
    level_good += ok;
    ++*total;
    if (!ok) {
      Separate(bad);
      bad << settings_[s].label << " " << kn << " " << Cov(k, s) << " vs " << cn << " "
          << Cov(cp, s);
    }
  }
  *detail << " At level " << nom << " (" << kn << " vs " << cn << "): better in " << level_good
          << " of " << settings_.size();
  if (!bad.str().empty()) *detail << "; not better: " << bad.str();
  *detail << ".";
  return level_good;
}

Claim Claims::BetterCoverage() const {
  int good = 0, total = 0;
  Evidence e;
  e << "criterion: at each matched nominal level, in every setting the Katz bound does "
       "not under-cover (>= nominal - 3 se0) and |coverage - nominal| is no larger "
       "than the Clopper-Pearson bound's.";
  good += BetterAtLevel("katz_log", "clopper_pearson_ratio_strict", &total, &e);
  good += BetterAtLevel("katz_log_one_sided", "clopper_pearson_ratio", &total, &e);
  return ClaimEvidence("katz_coverage_katz_better_coverage", good == total, e);
}

Evidence Claims::CeilingNote(size_t k, size_t cp, size_t cps) const {
  // The detection ceiling at the largest N (table detection_ceiling).
  const int64_t n_max = *std::max_element(c_.n.begin(), c_.n.end());
  Evidence ceiling;
  for (int64_t n0 : {int64_t{1}, int64_t{0}}) {
    auto b = RatioLowerBounds(n_max, n0, n_max, c_.alpha);
    if (!b.ok() || n0 > n_max) continue;
    ceiling << " At n1 = N = " << n_max << ", n0 = " << n0 << ": katz_log " << (*b)[k] << " vs CP "
            << (*b)[cp] << " (strict " << (*b)[cps] << ").";
  }
  return ceiling;
}

Claim Claims::Tighter() const {
  const size_t k = Index("katz_log"), cp = Index("clopper_pearson_ratio");
  const size_t cps = Index("clopper_pearson_ratio_strict");
  int wins = 0, total = 0, strict_wins = 0;
  Evidence per;
  for (size_t s = 0; s < settings_.size(); ++s) {
    if (!(LogRatio(settings_[s]) > 0.0)) continue;
    ++total;
    const IntervalStats& a = Stats(k, s);
    const IntervalStats& b = Stats(cp, s);
    const bool win = a.mean_clipped >= b.mean_clipped && a.frac_vacuous <= b.frac_vacuous;
    wins += win;
    strict_wins += a.mean_clipped >= Stats(cps, s).mean_clipped;
    Separate(per);
    per << settings_[s].label << " target " << LogRatio(settings_[s]) << ": katz_log "
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
                 << " (against the level-matched clopper_pearson_ratio_strict: larger mean bound "
                    "in "
                 << strict_wins << " of " << total << ")." << CeilingNote(k, cp, cps).str()
                 << " Per setting: " << per.str());
}

Claim Claims::CpConservative() const {
  const size_t cp = Index("clopper_pearson_ratio");
  const ClassCounts counts = CountClasses(data_[cp].classes);
  return ClaimEvidence("katz_coverage_cp_conservative", OverCoversMost(counts),
                       Evidence() << "criterion: never below nominal - 3 se0 and above nominal + "
                                     "3 se0 in more than half of the settings ("
                                  << Band(cp).str() << "). Over in " << counts.over << " of "
                                  << counts.total() << ", under in " << counts.under
                                  << ". Per setting: " << CoverageList(settings_, data_[cp]));
}

// The statistics of the clipped bound max{0, bound} the study reports, in
// /bounds/<method>/ and the long table.
std::vector<StatDataset> ClippedStats() {
  return {{"mean_eps_bound", &IntervalStats::mean_clipped},
          {"median_eps_bound", &IntervalStats::median_clipped},
          {"frac_vacuous", &IntervalStats::frac_vacuous},
          {"mean_eps_bound_covering", &IntervalStats::mean_clipped_covering}};
}

// The words the two coverage tables' captions start with.
std::string CommonCaption(const Config& c) {
  return std::to_string(c.trials) +
         " Monte-Carlo trials per setting; N samples per side; alpha = " + FormatDouble(c.alpha) +
         "; target = log(p1/p0) (the eps lower bound at delta = 0). "
         "Nominal one-sided levels: katz_log 1-alpha/2 (lower end of a two-sided interval, "
         "asymptotic), katz_log_one_sided 1-alpha (asymptotic), clopper_pearson_ratio >= "
         "1-alpha (union of two one-sided alpha/2 limits, exact), clopper_pearson_ratio_strict "
         ">= 1-alpha/2 (alpha/4 each). ";
}

// Long table: one row per (setting, method).
Result<SummaryTable> LongRatioTable(const Config& c, const Results& r) {
  const CoverageColumn nominal = {
      {"nominal", Column::Type::kDouble},
      [](const CoverageMethod& m, const IntervalStats&) { return Cell(m.nominal); }};
  return LongCoverageTable(
      r,
      {"coverage", "Coverage and tightness of lower bounds on log(p1/p0)",
       CommonCaption(c) +
           "coverage = fraction of trials with bound <= target (bound not clipped at 0; a "
           "-inf bound from n1 = 0 covers); se = sqrt(c(1-c)/trials); class under/over = "
           "more than 3 sqrt(nominal(1-nominal)/trials) below/above nominal. "
           "mean_eps_bound = mean of max{0, bound} (what an auditor reports, nats); "
           "frac_vacuous = fraction with bound <= 0; mean_eps_bound_covering = mean of "
           "max{0, bound} over the covering trials only."},
      {StatColumn("target", &IntervalStats::truth), LabelColumn(), nominal},
      StatColumns(ClippedStats()));
}

// Wide table: coverage and mean bound per setting, two columns per method
// after the setting's own.
Result<SummaryTable> WideRatioTable(const Config& c, const Results& r) {
  std::vector<double> target;
  for (const CoverageSetting& st : r.settings) target.push_back(LogRatio(st));
  return WideCoverageTable(
      r,
      {"coverage_by_method", "Coverage and mean eps bound per setting and method",
       CommonCaption(c) + "'<method> mean bound' = mean of max{0, bound} in nats."},
      "target", target,
      {{" coverage", &IntervalStats::coverage}, {" mean bound", &IntervalStats::mean_clipped}},
      /*two_sided_only=*/false);
}

// The largest bound each method can show with N samples per side (ML-Audit
// Corollary 4.0.1 for Katz; Algorithm 1 skips n0/N < r): the extreme
// outcome's columns, then one column per method.
Result<SummaryTable> CeilingTable(const Config& c, const Results& r) {
  TableBuilder t("detection_ceiling", "Largest lower bound on log(p1/p0) each method can give",
                 "Bounds at the most extreme outcomes n1 = N with n0 = 1 (ML-Audit Corollary "
                 "4.0.1: ln(N) - z_{alpha/2} sqrt(1 - 1/N), the Katz bound there) and n0 = 0 "
                 "(Katz uses the Haldane-Anscombe correction; Algorithm 1 skips n0/N below its "
                 "minimum probability r). alpha = " +
                     FormatDouble(c.alpha) + "; nats. Deterministic, not Monte-Carlo.",
                 {{"N", Column::Type::kInt},
                  {"n1", Column::Type::kInt},
                  {"n0", Column::Type::kInt},
                  {"corollary_4.0.1", Column::Type::kDouble}});
  for (const CeilingRow& row : r.ceiling) t.Row({row.n, row.n, row.n0, row.corollary});
  PB_ASSIGN_OR_RETURN(SummaryTable table, t.Build());
  for (size_t m = 0; m < r.methods.size(); ++m) {
    std::vector<double> bounds;
    for (const CeilingRow& row : r.ceiling) bounds.push_back(row.bounds[m]);
    table.columns.push_back(Column::Doubles(r.methods[m].name, bounds));
  }
  return table;
}

// /settings, /trials, /methods, /bounds and /numbers (layout in report.h).
Status WriteRawData(const Results& r, ResultWriter& out) {
  PB_RETURN_IF_ERROR(
      WriteCoverageRun(out, r,
                       "[setting, trial]: n1 ~ Bin(n, p1) then n0 ~ Bin(n, p0), "
                       "boost::random::binomial_distribution on std::mt19937_64 seeded with "
                       "DeriveSeed(seed, {setting, trial})",
                       ClippedStats()));
  std::vector<std::string> desc;
  std::vector<double> target, nominal;
  for (const CoverageSetting& st : r.settings) target.push_back(LogRatio(st));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/target", target));
  PB_RETURN_IF_ERROR(
      SetAttributes(out, "/settings",
                    {{"description",
                      "one row per (pair, N) setting, pair-major; n = samples per side; target = "
                      "log(p1/p0)"}}));
  for (const CoverageMethod& m : r.methods) {
    desc.push_back(m.description);
    nominal.push_back(m.nominal);
    PB_RETURN_IF_ERROR(SetAttributes(out, "/bounds/" + m.name,
                                     {{"nominal", m.nominal},
                                      {"description", m.description},
                                      {"guaranteed", int64_t{m.guaranteed}}}));
  }
  PB_RETURN_IF_ERROR(out.WriteStrings("/methods/description", desc));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/methods/nominal", nominal));
  // Every ceiling bound.
  for (const CeilingRow& row : r.ceiling) {
    for (size_t m = 0; m < r.methods.size(); ++m) {
      PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/katz_coverage_ceiling_" + r.methods[m].name +
                                             "_N" + std::to_string(row.n) + "_n0_" +
                                             std::to_string(row.n0),
                                         row.bounds[m]));
    }
  }
  return Status::Ok();
}

constexpr const char* kLostParameters =
    "ML-Audit's Appendix (Lemma A.3 and the coverage simulations behind 'far better coverage "
    "properties') is not in our text of the paper. Chosen by privbench: (p1, p0) = (0.5, 0.05), "
    "(0.9, 0.1), (0.05, 0.005), (0.99, 0.01), (0.2, 0.2); N = 100, 1000, 10000 per side "
    "(ML-Audit uses N = 10000, and 500 for DP-SGD); 5000 (quick) / 50000 (paper) trials per "
    "setting; alpha = 0.05 (the paper's level); delta = 0 (the paper's simplification). "
    "katz_log follows KatzLogEpsLowerBound (z_{alpha/2}); Algorithm 1's 'Eps_LB(n1, n0, N, "
    "alpha/2)' could mean z_{alpha/4}, which the lost Lemma A.3 would settle. The values "
    "actually used are in /meta config.";

}  // namespace

std::vector<Claim> RatioClaims(const Config& c, const Results& r) {
  const Claims claims(c, r);
  return {claims.KatzValid(), claims.BetterCoverage(), claims.Tighter(), claims.CpConservative()};
}

Result<std::vector<SummaryTable>> RatioTables(const Config& c, const Results& r) {
  PB_ASSIGN_OR_RETURN(SummaryTable coverage, LongRatioTable(c, r));
  PB_ASSIGN_OR_RETURN(SummaryTable by_method, WideRatioTable(c, r));
  PB_ASSIGN_OR_RETURN(SummaryTable ceiling, CeilingTable(c, r));
  return std::vector<SummaryTable>{std::move(coverage), std::move(by_method), std::move(ceiling)};
}

Status WriteReport(const Config& c, const Results& r, ResultWriter& out) {
  PB_RETURN_IF_ERROR(WriteRawData(r, out));
  PB_ASSIGN_OR_RETURN(const std::vector<SummaryTable> tables, RatioTables(c, r));
  for (const SummaryTable& t : tables) PB_RETURN_IF_ERROR(out.WriteTable(t));
  for (const Claim& cl : RatioClaims(c, r)) PB_RETURN_IF_ERROR(out.WriteClaim(cl));
  return SetAttributes(out, "/meta", {{"lost_parameters", kLostParameters}});
}

}  // namespace privbench::katz_coverage
