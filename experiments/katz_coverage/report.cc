#include "experiments/katz_coverage/report.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "core/format.h"
#include "experiments/lib/coverage/coverage_class.h"
#include "results/h5_array.h"

namespace privbench::katz_coverage {
namespace {

// ML-Audit's claims about the Katz-log and Clopper-Pearson ratio bounds,
// each judged against the 3 se0 band of coverage_class.h.
class Claims {
 public:
  Claims(const KatzCoverageConfig& c, const std::vector<RatioSetting>& settings,
         const std::vector<RatioMethod>& methods, const std::vector<RatioMethodData>& data)
      : c_(c), settings_(settings), methods_(methods), data_(data) {
    for (size_t m = 0; m < methods.size(); ++m) index_[methods[m].name] = m;
  }

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
  double Se0(double nominal) const { return NominalSe(nominal, c_.trials); }
  std::string Band(size_t m) const {
    const double nom = methods_[m].nominal;
    return methods_[m].name + " nominal " + FormatFixed(nom, 3) +
           ", 3 se0 = " + FormatFixed(3 * Se0(nom), 4);
  }
  std::string Cov(size_t m, size_t s) const { return FormatFixed(data_[m].stats[s].coverage, 4); }
  // BetterCoverage() at one matched level: katz method k against CP method
  // cp; adds the settings judged to *total and returns how many were better.
  int BetterAtLevel(const std::string& kn, const std::string& cn, int* total,
                    std::string* detail) const;
  // Tighter()'s note on the bounds at the most extreme outcomes, n1 = N_max
  // with n0 = 1 and n0 = 0.
  std::string CeilingNote(size_t k, size_t cp, size_t cps) const;

  const KatzCoverageConfig& c_;
  const std::vector<RatioSetting>& settings_;
  const std::vector<RatioMethod>& methods_;
  const std::vector<RatioMethodData>& data_;
  std::map<std::string, size_t> index_;
};

Claim Claims::KatzValid() const {
  Claim cl{"katz_coverage_katz_valid",
           "The Katz-log lower bound (ML-Audit's Eps_LB: lower end of the two-sided 1-alpha "
           "interval) is a valid lower confidence bound on log(p1/p0): its coverage reaches "
           "its nominal level 1 - alpha/2",
           "ML-Audit Sec. 4 ('with high probability, eps* >= eps_lb'), Sec. 4.2 point 3, "
           "Lemma A.3",
           false, ""};
  const size_t k = Index("katz_log");
  std::string per, bad;
  int under = 0;
  for (size_t s = 0; s < settings_.size(); ++s) {
    const bool u = data_[k].classes[s] == CoverageClass::kUnder;
    under += u;
    per += (per.empty() ? "" : "; ") + settings_[s].Label() + " " + Cov(k, s);
    if (u) bad += (bad.empty() ? "" : "; ") + settings_[s].Label() + " " + Cov(k, s);
  }
  cl.holds = under == 0;
  cl.evidence = "criterion: coverage >= nominal - 3 se0 in every setting (" + Band(k) +
                "). Under-covers in " + std::to_string(under) + " of " +
                std::to_string(settings_.size()) + (bad.empty() ? "" : ": " + bad) +
                ". Per setting: " + per;
  return cl;
}

int Claims::BetterAtLevel(const std::string& kn, const std::string& cn, int* total,
                          std::string* detail) const {
  const size_t k = Index(kn), cp = Index(cn);
  const double nom = methods_[k].nominal;
  int level_good = 0;
  std::string bad;
  for (size_t s = 0; s < settings_.size(); ++s) {
    const double dk = std::abs(data_[k].stats[s].coverage - nom);
    const double dc = std::abs(data_[cp].stats[s].coverage - nom);
    const bool ok = data_[k].classes[s] != CoverageClass::kUnder && dk <= dc;
    level_good += ok;
    ++*total;
    if (!ok) {
      bad += (bad.empty() ? "" : "; ") + settings_[s].Label() + " " + kn + " " + Cov(k, s) +
             " vs " + cn + " " + Cov(cp, s);
    }
  }
  *detail += " At level " + FormatFixed(nom, 3) + " (" + kn + " vs " + cn + "): better in " +
             std::to_string(level_good) + " of " + std::to_string(settings_.size()) +
             (bad.empty() ? "" : "; not better: " + bad) + ".";
  return level_good;
}

Claim Claims::BetterCoverage() const {
  Claim cl{"katz_coverage_katz_better_coverage",
           "The Katz-log interval for the ratio of binomial proportions has far better "
           "coverage properties than Clopper-Pearson intervals bounding numerator and "
           "denominator separately",
           "ML-Audit Sec. 4.2, point 3 (simulations in the Appendix, not in our text)", false, ""};
  int good = 0, total = 0;
  std::string detail;
  good += BetterAtLevel("katz_log", "clopper_pearson_ratio_strict", &total, &detail);
  good += BetterAtLevel("katz_log_one_sided", "clopper_pearson_ratio", &total, &detail);
  cl.holds = good == total;
  cl.evidence =
      "criterion: at each matched nominal level, in every setting the Katz bound does "
      "not under-cover (>= nominal - 3 se0) and |coverage - nominal| is no larger "
      "than the Clopper-Pearson bound's." +
      detail;
  return cl;
}

std::string Claims::CeilingNote(size_t k, size_t cp, size_t cps) const {
  // The detection ceiling at the largest N (table detection_ceiling).
  const int64_t n_max = *std::max_element(c_.n.begin(), c_.n.end());
  std::string ceiling;
  for (int64_t n0 : {int64_t{1}, int64_t{0}}) {
    auto b = RatioLowerBounds(n_max, n0, n_max, c_.alpha);
    if (!b.ok() || n0 > n_max) continue;
    ceiling += " At n1 = N = " + std::to_string(n_max) + ", n0 = " + std::to_string(n0) +
               ": katz_log " + FormatFixed((*b)[k], 3) + " vs CP " + FormatFixed((*b)[cp], 3) +
               " (strict " + FormatFixed((*b)[cps], 3) + ").";
  }
  return ceiling;
}

Claim Claims::Tighter() const {
  Claim cl{"katz_coverage_katz_tighter",
           "Bounding the ratio directly (Katz-log) gives a larger eps lower bound than "
           "Clopper-Pearson bounds on numerator and denominator separately, which are highly "
           "suboptimal",
           "ML-Audit Sec. 4.2, point 3", false, ""};
  const size_t k = Index("katz_log"), cp = Index("clopper_pearson_ratio");
  const size_t cps = Index("clopper_pearson_ratio_strict");
  int wins = 0, total = 0, strict_wins = 0;
  std::string per;
  for (size_t s = 0; s < settings_.size(); ++s) {
    if (!(settings_[s].target() > 0.0)) continue;
    ++total;
    const RatioCoverageStats& a = data_[k].stats[s];
    const RatioCoverageStats& b = data_[cp].stats[s];
    const bool win = a.mean_eps_bound >= b.mean_eps_bound && a.frac_vacuous <= b.frac_vacuous;
    wins += win;
    strict_wins += a.mean_eps_bound >= data_[cps].stats[s].mean_eps_bound;
    per += (per.empty() ? "" : "; ") + settings_[s].Label() + " target " +
           FormatFixed(settings_[s].target(), 3) + ": katz_log " +
           FormatFixed(a.mean_eps_bound, 3) + " (vacuous " + FormatFixed(100 * a.frac_vacuous, 1) +
           "%, coverage " + Cov(k, s) + ") vs CP " + FormatFixed(b.mean_eps_bound, 3) +
           " (vacuous " + FormatFixed(100 * b.frac_vacuous, 1) + "%, coverage " + Cov(cp, s) + ")" +
           (win ? "" : " [CP tighter]");
  }
  cl.holds = total > 0 && wins == total;
  cl.evidence =
      "criterion: in every setting with log(p1/p0) > 0, katz_log's mean eps bound "
      "(mean of max{0, bound}) is >= clopper_pearson_ratio's and it is vacuous no "
      "more often. Holds in " +
      std::to_string(wins) + " of " + std::to_string(total) +
      " (against the level-matched "
      "clopper_pearson_ratio_strict: larger mean bound in " +
      std::to_string(strict_wins) + " of " + std::to_string(total) + ")." +
      CeilingNote(k, cp, cps) + " Per setting: " + per;
  return cl;
}

Claim Claims::CpConservative() const {
  Claim cl{"katz_coverage_cp_conservative",
           "Clopper-Pearson bounds on numerator and denominator separately are conservative: "
           "the ratio bound over-covers its nominal level",
           "ML-Audit Sec. 4.2, point 3 ('highly suboptimal because it separately bounds the "
           "numerator and denominator')",
           false, ""};
  const size_t cp = Index("clopper_pearson_ratio");
  int under = 0, over = 0;
  std::string per;
  for (size_t s = 0; s < settings_.size(); ++s) {
    under += data_[cp].classes[s] == CoverageClass::kUnder;
    over += data_[cp].classes[s] == CoverageClass::kOver;
    per += (per.empty() ? "" : "; ") + settings_[s].Label() + " " + Cov(cp, s) + " (" +
           CoverageClassName(data_[cp].classes[s]) + ")";
  }
  const int total = static_cast<int>(settings_.size());
  cl.holds = under == 0 && 2 * over > total;
  cl.evidence =
      "criterion: never below nominal - 3 se0 and above nominal + 3 se0 in more than "
      "half of the settings (" +
      Band(cp) + "). Over in " + std::to_string(over) + " of " + std::to_string(total) +
      ", under in " + std::to_string(under) + ". Per setting: " + per;
  return cl;
}

// The words the two coverage tables' captions start with.
std::string CommonCaption(const KatzCoverageConfig& c) {
  return std::to_string(c.trials) +
         " Monte-Carlo trials per setting; N samples per side; alpha = " + FormatDouble(c.alpha) +
         "; target = log(p1/p0) (the eps lower bound at delta = 0). "
         "Nominal one-sided levels: katz_log 1-alpha/2 (lower end of a two-sided interval, "
         "asymptotic), katz_log_one_sided 1-alpha (asymptotic), clopper_pearson_ratio >= "
         "1-alpha (union of two one-sided alpha/2 limits, exact), clopper_pearson_ratio_strict "
         ">= 1-alpha/2 (alpha/4 each). ";
}

// Long table: one row per (setting, method).
SummaryTable LongCoverageTable(const KatzCoverageConfig& c,
                               const std::vector<RatioSetting>& settings,
                               const std::vector<RatioMethod>& methods,
                               const std::vector<RatioMethodData>& data) {
  std::vector<double> p1, p0, target, nominal, cov, se, mean, med, vac, mean_cov;
  std::vector<int64_t> n;
  std::vector<std::string> method, cls;
  for (size_t s = 0; s < settings.size(); ++s) {
    for (size_t m = 0; m < methods.size(); ++m) {
      const RatioCoverageStats& st = data[m].stats[s];
      p1.push_back(settings[s].p1);
      p0.push_back(settings[s].p0);
      n.push_back(settings[s].n);
      target.push_back(settings[s].target());
      method.push_back(methods[m].name);
      nominal.push_back(methods[m].nominal);
      cov.push_back(st.coverage);
      se.push_back(st.se);
      cls.push_back(CoverageClassName(data[m].classes[s]));
      mean.push_back(st.mean_eps_bound);
      med.push_back(st.median_eps_bound);
      vac.push_back(st.frac_vacuous);
      mean_cov.push_back(st.mean_eps_bound_covering);
    }
  }
  return {
      "coverage",
      "Coverage and tightness of lower bounds on log(p1/p0)",
      CommonCaption(c) +
          "coverage = fraction of trials with bound <= target (bound not clipped at 0; a "
          "-inf bound from n1 = 0 covers); se = sqrt(c(1-c)/trials); class under/over = "
          "more than 3 sqrt(nominal(1-nominal)/trials) below/above nominal. "
          "mean_eps_bound = mean of max{0, bound} (what an auditor reports, nats); "
          "frac_vacuous = fraction with bound <= 0; mean_eps_bound_covering = mean of "
          "max{0, bound} over the covering trials only.",
      {Column::Doubles("p1", p1), Column::Doubles("p0", p0), Column::Ints("N", n),
       Column::Doubles("target", target), Column::Strings("method", method),
       Column::Doubles("nominal", nominal), Column::Doubles("coverage", cov),
       Column::Doubles("se", se), Column::Strings("class", cls),
       Column::Doubles("mean_eps_bound", mean), Column::Doubles("median_eps_bound", med),
       Column::Doubles("frac_vacuous", vac), Column::Doubles("mean_eps_bound_covering", mean_cov)}};
}

// Wide table: coverage and mean bound per setting, two columns per method.
SummaryTable WideCoverageTable(const KatzCoverageConfig& c,
                               const std::vector<RatioSetting>& settings,
                               const std::vector<RatioMethod>& methods,
                               const std::vector<RatioMethodData>& data) {
  std::vector<double> p1, p0, target;
  std::vector<int64_t> n;
  for (const RatioSetting& st : settings) {
    p1.push_back(st.p1);
    p0.push_back(st.p0);
    n.push_back(st.n);
    target.push_back(st.target());
  }
  std::vector<Column> cols = {Column::Doubles("p1", p1), Column::Doubles("p0", p0),
                              Column::Ints("N", n), Column::Doubles("target", target)};
  for (size_t m = 0; m < methods.size(); ++m) {
    std::vector<double> cov, mean;
    for (size_t s = 0; s < settings.size(); ++s) {
      cov.push_back(data[m].stats[s].coverage);
      mean.push_back(data[m].stats[s].mean_eps_bound);
    }
    cols.push_back(Column::Doubles(methods[m].name + " coverage", cov));
    cols.push_back(Column::Doubles(methods[m].name + " mean bound", mean));
  }
  return {"coverage_by_method", "Coverage and mean eps bound per setting and method",
          CommonCaption(c) + "'<method> mean bound' = mean of max{0, bound} in nats.", cols};
}

// The largest bound each method can show with N samples per side (ML-Audit
// Corollary 4.0.1 for Katz; Algorithm 1 skips n0/N < r).
SummaryTable CeilingTable(const KatzCoverageConfig& c, const std::vector<RatioMethod>& methods,
                          const std::vector<CeilingRow>& ceiling) {
  std::vector<int64_t> n_col, n0_col;
  std::vector<double> corollary;
  std::vector<std::vector<double>> cols(methods.size());
  for (const CeilingRow& row : ceiling) {
    n_col.push_back(row.n);
    n0_col.push_back(row.n0);
    corollary.push_back(row.corollary);
    for (size_t m = 0; m < methods.size(); ++m) cols[m].push_back(row.bounds[m]);
  }
  std::vector<Column> table = {Column::Ints("N", n_col), Column::Ints("n1", n_col),
                               Column::Ints("n0", n0_col),
                               Column::Doubles("corollary_4.0.1", corollary)};
  for (size_t m = 0; m < methods.size(); ++m) {
    table.push_back(Column::Doubles(methods[m].name, cols[m]));
  }
  return {"detection_ceiling", "Largest lower bound on log(p1/p0) each method can give",
          "Bounds at the most extreme outcomes n1 = N with n0 = 1 (ML-Audit Corollary 4.0.1: "
          "ln(N) - z_{alpha/2} sqrt(1 - 1/N), the Katz bound there) and n0 = 0 (Katz uses the "
          "Haldane-Anscombe correction; Algorithm 1 skips n0/N below its minimum probability "
          "r). alpha = " +
              FormatDouble(c.alpha) + "; nats. Deterministic, not Monte-Carlo.",
          table};
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
  return out.SetAttribute(
      "/settings", "description",
      "one row per (pair, N) setting, pair-major; n = samples per side; target = log(p1/p0)");
}

// /bounds/<method>/...: the bounds [S, T] and the per-setting statistics.
Status WriteMethodBounds(ResultWriter& out, const RatioMethod& method, const RatioMethodData& d) {
  const std::string g = "/bounds/" + method.name;
  PB_RETURN_IF_ERROR(WriteArray(out, g + "/log_ratio_lo", d.bounds));
  std::vector<double> cov, se, mean, med, vac, mean_cov;
  std::vector<std::string> cls;
  for (size_t s = 0; s < d.stats.size(); ++s) {
    const RatioCoverageStats& st = d.stats[s];
    cov.push_back(st.coverage);
    se.push_back(st.se);
    mean.push_back(st.mean_eps_bound);
    med.push_back(st.median_eps_bound);
    vac.push_back(st.frac_vacuous);
    mean_cov.push_back(st.mean_eps_bound_covering);
    cls.push_back(CoverageClassName(d.classes[s]));
  }
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/coverage", cov));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/coverage_se", se));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/mean_eps_bound", mean));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/median_eps_bound", med));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/frac_vacuous", vac));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/mean_eps_bound_covering", mean_cov));
  PB_RETURN_IF_ERROR(out.WriteStrings(g + "/coverage_class", cls));
  PB_RETURN_IF_ERROR(out.SetAttribute(g, "nominal", method.nominal));
  PB_RETURN_IF_ERROR(out.SetAttribute(g, "description", method.description));
  return out.SetAttribute(g, "guaranteed", static_cast<int64_t>(method.guaranteed));
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

std::vector<Claim> RatioClaims(const KatzCoverageConfig& c,
                               const std::vector<RatioSetting>& settings,
                               const std::vector<RatioMethod>& methods,
                               const std::vector<RatioMethodData>& data) {
  const Claims claims(c, settings, methods, data);
  return {claims.KatzValid(), claims.BetterCoverage(), claims.Tighter(), claims.CpConservative()};
}

std::vector<SummaryTable> RatioTables(const KatzCoverageConfig& c,
                                      const std::vector<RatioSetting>& settings,
                                      const std::vector<RatioMethod>& methods,
                                      const std::vector<RatioMethodData>& data,
                                      const std::vector<CeilingRow>& ceiling) {
  return {LongCoverageTable(c, settings, methods, data),
          WideCoverageTable(c, settings, methods, data), CeilingTable(c, methods, ceiling)};
}

RatioNumbers CountRatioNumbers(const RatioMethodData& d) {
  RatioNumbers n;
  for (size_t s = 0; s < d.stats.size(); ++s) {
    n.min_coverage = std::min(n.min_coverage, d.stats[s].coverage);
    n.settings_under += d.classes[s] == CoverageClass::kUnder;
  }
  return n;
}

Status WriteRatioRawData(ResultWriter& out, const KatzCoverageConfig& c,
                         const std::vector<RatioSetting>& settings,
                         const std::vector<RatioMethod>& methods, const RatioRun& run) {
  if (run.n1.shape()[0] != settings.size() || run.n1.shape()[1] != static_cast<size_t>(c.trials)) {
    return Error("internal error: the trial table is not (settings x trials)");
  }
  PB_RETURN_IF_ERROR(WriteSettings(out, settings));
  PB_RETURN_IF_ERROR(WriteArray(out, "/trials/n1", run.n1));
  PB_RETURN_IF_ERROR(WriteArray(out, "/trials/n0", run.n0));
  PB_RETURN_IF_ERROR(
      out.SetAttribute("/trials", "description",
                       "[setting, trial]: n1 ~ Bin(n, p1) then n0 ~ Bin(n, p0), "
                       "boost::random::binomial_distribution on std::mt19937_64 seeded with "
                       "DeriveSeed(seed, {setting, trial})"));
  std::vector<std::string> names, desc;
  std::vector<double> nominal;
  for (size_t m = 0; m < methods.size(); ++m) {
    names.push_back(methods[m].name);
    desc.push_back(methods[m].description);
    nominal.push_back(methods[m].nominal);
    PB_RETURN_IF_ERROR(WriteMethodBounds(out, methods[m], run.data[m]));
  }
  PB_RETURN_IF_ERROR(out.WriteStrings("/methods/name", names));
  PB_RETURN_IF_ERROR(out.WriteStrings("/methods/description", desc));
  return out.WriteDoubles("/methods/nominal", nominal);
}

Status WriteRatioReport(ResultWriter& out, const KatzCoverageConfig& c,
                        const std::vector<RatioSetting>& settings,
                        const std::vector<RatioMethod>& methods,
                        const std::vector<RatioMethodData>& data,
                        const std::vector<CeilingRow>& ceiling) {
  for (const SummaryTable& t : RatioTables(c, settings, methods, data, ceiling)) {
    PB_RETURN_IF_ERROR(out.WriteTable(t));
  }
  for (const CeilingRow& row : ceiling) {
    for (size_t m = 0; m < methods.size(); ++m) {
      PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/katz_coverage_ceiling_" + methods[m].name +
                                             "_N" + std::to_string(row.n) + "_n0_" +
                                             std::to_string(row.n0),
                                         row.bounds[m]));
    }
  }
  for (size_t m = 0; m < methods.size(); ++m) {
    const RatioNumbers n = CountRatioNumbers(data[m]);
    const std::string prefix = "/numbers/katz_coverage_" + methods[m].name;
    PB_RETURN_IF_ERROR(out.WriteScalar(prefix + "_min_coverage", n.min_coverage));
    PB_RETURN_IF_ERROR(
        out.WriteScalar(prefix + "_settings_under", static_cast<double>(n.settings_under)));
  }
  for (const Claim& cl : RatioClaims(c, settings, methods, data)) {
    PB_RETURN_IF_ERROR(out.WriteClaim(cl));
  }
  return out.SetAttribute("/meta", "lost_parameters", kLostParameters);
}

}  // namespace privbench::katz_coverage
