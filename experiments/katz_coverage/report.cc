#include "experiments/katz_coverage/report.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "core/format.h"
#include "experiments/lib/coverage/coverage_class.h"
#include "experiments/lib/coverage/coverage_report.h"
#include "results/evidence.h"
#include "results/h5_array.h"
#include "results/table_builder.h"

namespace privbench::katz_coverage {
namespace {

// ML-Audit's claims about the Katz-log and Clopper-Pearson ratio bounds,
// each judged against the 3 se0 band of coverage_class.h.
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
  const RatioCoverageStats& Stats(size_t m, size_t s) const { return data_[m].stats[s]; }
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
  const std::vector<RatioSetting>& settings_;
  const std::vector<RatioMethod>& methods_;
  const std::vector<RatioMethodData>& data_;
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
    per << settings_[s].Label() << " " << Cov(k, s);
    if (u) {
      Separate(bad);
      bad << settings_[s].Label() << " " << Cov(k, s);
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
      bad << settings_[s].Label() << " " << kn << " " << Cov(k, s) << " vs " << cn << " "
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
    if (!(settings_[s].target() > 0.0)) continue;
    ++total;
    const RatioCoverageStats& a = Stats(k, s);
    const RatioCoverageStats& b = Stats(cp, s);
    const bool win = a.mean_eps_bound >= b.mean_eps_bound && a.frac_vacuous <= b.frac_vacuous;
    wins += win;
    strict_wins += a.mean_eps_bound >= Stats(cps, s).mean_eps_bound;
    Separate(per);
    per << settings_[s].Label() << " target " << settings_[s].target() << ": katz_log "
        << a.mean_eps_bound << " (vacuous " << 100 * a.frac_vacuous << "%, coverage " << a.coverage
        << ") vs CP " << b.mean_eps_bound << " (vacuous " << 100 * b.frac_vacuous << "%, coverage "
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
  Evidence per;
  for (size_t s = 0; s < settings_.size(); ++s) {
    AppendCoverage(per, settings_[s].Label(), Cov(cp, s), Class(cp, s));
  }
  return ClaimEvidence("katz_coverage_cp_conservative", OverCoversMost(counts),
                       Evidence() << "criterion: never below nominal - 3 se0 and above nominal + "
                                     "3 se0 in more than half of the settings ("
                                  << Band(cp).str() << "). Over in " << counts.over << " of "
                                  << counts.total() << ", under in " << counts.under
                                  << ". Per setting: " << per.str());
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
Result<SummaryTable> LongCoverageTable(const Config& c, const Results& r) {
  TableBuilder t(
      "coverage", "Coverage and tightness of lower bounds on log(p1/p0)",
      CommonCaption(c) +
          "coverage = fraction of trials with bound <= target (bound not clipped at 0; a "
          "-inf bound from n1 = 0 covers); se = sqrt(c(1-c)/trials); class under/over = "
          "more than 3 sqrt(nominal(1-nominal)/trials) below/above nominal. "
          "mean_eps_bound = mean of max{0, bound} (what an auditor reports, nats); "
          "frac_vacuous = fraction with bound <= 0; mean_eps_bound_covering = mean of "
          "max{0, bound} over the covering trials only.",
      {{"p1", Column::Type::kDouble},
       {"p0", Column::Type::kDouble},
       {"N", Column::Type::kInt},
       {"target", Column::Type::kDouble},
       {"method", Column::Type::kString},
       {"nominal", Column::Type::kDouble},
       {"coverage", Column::Type::kDouble},
       {"se", Column::Type::kDouble},
       {"class", Column::Type::kString},
       {"mean_eps_bound", Column::Type::kDouble},
       {"median_eps_bound", Column::Type::kDouble},
       {"frac_vacuous", Column::Type::kDouble},
       {"mean_eps_bound_covering", Column::Type::kDouble}});
  for (size_t s = 0; s < r.settings.size(); ++s) {
    const RatioSetting& set = r.settings[s];
    for (size_t m = 0; m < r.methods.size(); ++m) {
      const RatioCoverageStats& st = r.run.data[m].stats[s];
      t.Row({set.p1, set.p0, set.n, set.target(), r.methods[m].name, r.methods[m].nominal,
             st.coverage, st.se, CoverageClassName(r.run.data[m].classes[s]), st.mean_eps_bound,
             st.median_eps_bound, st.frac_vacuous, st.mean_eps_bound_covering});
    }
  }
  return t.Build();
}

// Wide table: coverage and mean bound per setting, two columns per method
// after the setting's own.
Result<SummaryTable> WideCoverageTable(const Config& c, const Results& r) {
  TableBuilder t("coverage_by_method", "Coverage and mean eps bound per setting and method",
                 CommonCaption(c) + "'<method> mean bound' = mean of max{0, bound} in nats.",
                 {{"p1", Column::Type::kDouble},
                  {"p0", Column::Type::kDouble},
                  {"N", Column::Type::kInt},
                  {"target", Column::Type::kDouble}});
  for (const RatioSetting& st : r.settings) t.Row({st.p1, st.p0, st.n, st.target()});
  PB_ASSIGN_OR_RETURN(SummaryTable table, t.Build());
  // One column per method each (TableBuilder's rows have a fixed number of
  // cells).
  for (size_t m = 0; m < r.methods.size(); ++m) {
    const std::vector<RatioCoverageStats>& stats = r.run.data[m].stats;
    table.columns.push_back(Column::Doubles(r.methods[m].name + " coverage",
                                            StatField(stats, &RatioCoverageStats::coverage)));
    table.columns.push_back(Column::Doubles(r.methods[m].name + " mean bound",
                                            StatField(stats, &RatioCoverageStats::mean_eps_bound)));
  }
  return table;
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

Status WriteSettings(ResultWriter& out, const std::vector<RatioSetting>& settings) {
  std::vector<int64_t> pair, n;
  std::vector<double> p1, p0, target;
  for (const RatioSetting& st : settings) {
    pair.push_back(st.pair);
    p1.push_back(st.p1);
    p0.push_back(st.p0);
    n.push_back(st.n);
    target.push_back(st.target());
  }
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/pair_index", pair));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/p1", p1));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/p0", p0));
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/n", n));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/target", target));
  return SetAttributes(
      out, "/settings",
      {{"description",
        "one row per (pair, N) setting, pair-major; n = samples per side; target = "
        "log(p1/p0)"}});
}

// /bounds/<method>/...: the bounds [S, T] and the per-setting statistics.
Status WriteMethodBounds(ResultWriter& out, const RatioMethod& method, const RatioMethodData& d) {
  const std::string g = "/bounds/" + method.name;
  PB_RETURN_IF_ERROR(WriteArray(out, g + "/log_ratio_lo", d.bounds));
  PB_RETURN_IF_ERROR(WriteGradedCoverage(out, g, d.stats, d.classes));
  using S = RatioCoverageStats;
  PB_RETURN_IF_ERROR(
      out.WriteDoubles(g + "/mean_eps_bound", StatField(d.stats, &S::mean_eps_bound)));
  PB_RETURN_IF_ERROR(
      out.WriteDoubles(g + "/median_eps_bound", StatField(d.stats, &S::median_eps_bound)));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/frac_vacuous", StatField(d.stats, &S::frac_vacuous)));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/mean_eps_bound_covering",
                                      StatField(d.stats, &S::mean_eps_bound_covering)));
  return SetAttributes(out, g,
                       {{"nominal", method.nominal},
                        {"description", method.description},
                        {"guaranteed", int64_t{method.guaranteed}}});
}

// /settings, /trials, /methods and /bounds (layout in main.cc).
Status WriteRawData(const Config& c, const Results& r, ResultWriter& out) {
  if (r.run.n1.shape()[0] != r.settings.size() ||
      r.run.n1.shape()[1] != static_cast<size_t>(c.trials)) {
    return Error("internal error: the trial table is not (settings x trials)");
  }
  PB_RETURN_IF_ERROR(WriteSettings(out, r.settings));
  PB_RETURN_IF_ERROR(WriteArray(out, "/trials/n1", r.run.n1));
  PB_RETURN_IF_ERROR(WriteArray(out, "/trials/n0", r.run.n0));
  PB_RETURN_IF_ERROR(
      SetAttributes(out, "/trials",
                    {{"description",
                      "[setting, trial]: n1 ~ Bin(n, p1) then n0 ~ Bin(n, p0), "
                      "boost::random::binomial_distribution on std::mt19937_64 seeded with "
                      "DeriveSeed(seed, {setting, trial})"}}));
  std::vector<std::string> names, desc;
  std::vector<double> nominal;
  for (size_t m = 0; m < r.methods.size(); ++m) {
    names.push_back(r.methods[m].name);
    desc.push_back(r.methods[m].description);
    nominal.push_back(r.methods[m].nominal);
    PB_RETURN_IF_ERROR(WriteMethodBounds(out, r.methods[m], r.run.data[m]));
  }
  PB_RETURN_IF_ERROR(out.WriteStrings("/methods/name", names));
  PB_RETURN_IF_ERROR(out.WriteStrings("/methods/description", desc));
  return out.WriteDoubles("/methods/nominal", nominal);
}

// /numbers: every ceiling bound, and per method the minimum coverage and the
// number of settings under.
Status WriteNumbers(const Results& r, ResultWriter& out) {
  for (const CeilingRow& row : r.ceiling) {
    for (size_t m = 0; m < r.methods.size(); ++m) {
      PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/katz_coverage_ceiling_" + r.methods[m].name +
                                             "_N" + std::to_string(row.n) + "_n0_" +
                                             std::to_string(row.n0),
                                         row.bounds[m]));
    }
  }
  for (size_t m = 0; m < r.methods.size(); ++m) {
    const RatioMethodData& d = r.run.data[m];
    PB_RETURN_IF_ERROR(WriteMethodNumbers(
        out, "/numbers/katz_coverage_" + r.methods[m].name,
        CountMethodNumbers(StatField(d.stats, &RatioCoverageStats::coverage), d.classes)));
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
  PB_ASSIGN_OR_RETURN(SummaryTable coverage, LongCoverageTable(c, r));
  PB_ASSIGN_OR_RETURN(SummaryTable by_method, WideCoverageTable(c, r));
  PB_ASSIGN_OR_RETURN(SummaryTable ceiling, CeilingTable(c, r));
  return std::vector<SummaryTable>{std::move(coverage), std::move(by_method), std::move(ceiling)};
}

Status WriteReport(const Config& c, const Results& r, ResultWriter& out) {
  PB_RETURN_IF_ERROR(WriteRawData(c, r, out));
  PB_ASSIGN_OR_RETURN(const std::vector<SummaryTable> tables, RatioTables(c, r));
  for (const SummaryTable& t : tables) PB_RETURN_IF_ERROR(out.WriteTable(t));
  PB_RETURN_IF_ERROR(WriteNumbers(r, out));
  for (const Claim& cl : RatioClaims(c, r)) PB_RETURN_IF_ERROR(out.WriteClaim(cl));
  return SetAttributes(out, "/meta", {{"lost_parameters", kLostParameters}});
}

}  // namespace privbench::katz_coverage
