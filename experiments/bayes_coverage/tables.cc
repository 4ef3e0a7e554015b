// Study bayes_coverage: its summary tables (/summary/*): the Monte-Carlo
// coverage of every registered eps interval at the true eps of
// docs/studies.md A1 (long and wide), the mean widths, the coverage classes
// (band nominal +- 3 se0) and the Bayesian interval on the diagonal against
// its large-n limit G(1 - alpha/2) - G(alpha/2), G(w) = w - w ln w
// (diagonal_limit.h; the paper's Sec. 3.2 nominal coverage is posterior mass).
#include <algorithm>
#include <string>
#include <utility>

#include "core/format.h"
#include "experiments/bayes_coverage/report.h"
#include "experiments/lib/coverage/coverage_report.h"
#include "results/table_builder.h"

namespace privbench::bayes_coverage {

std::vector<double> TrueEpsAtDelta(const Config& c, const Results& r) {
  std::vector<double> truth;
  for (const CoverageSetting& st : r.settings) truth.push_back(TrueEps(st, c.delta));
  return truth;
}

namespace {

// The words every table caption starts with.
std::string CommonCaption(const Config& c) {
  const std::string level = FormatFixed(100 * (1.0 - c.alpha), 0) + "%";
  return std::to_string(c.trials) +
         " Monte-Carlo trials per setting; n = total membership trials "
         "(n/2 members, n/2 non-members); nominal " +
         level + " (alpha = " + FormatDouble(c.alpha) + "), delta = " + FormatDouble(c.delta) +
         " (methods that require delta = 0 run at 0, "
         "against the truth at delta = 0). ";
}

const char* Kind(const CoverageMethod& m) { return m.one_sided ? "one-sided" : "two-sided"; }

// Long table: one row per (setting, method).
Result<SummaryTable> LongTable(const Config& c, const Results& r) {
  const CoverageColumn kind = {
      StringColumn("kind"),
      [](const CoverageMethod& m, const IntervalStats&) { return Cell(Kind(m)); }};
  return LongCoverageTable(
      r,
      {"coverage", "Empirical coverage of the true eps, every registered estimator",
       CommonCaption(c) +
           "coverage = fraction of trials with lower <= true eps <= upper (one-sided: lower <= "
           "true eps); se = sqrt(c(1-c)/trials); class: under/over if coverage is below/above "
           "nominal by more than 3 sqrt(nominal(1-nominal)/trials), else near. miss_low = "
           "fraction with the interval entirely above the truth, miss_high = entirely below "
           "(an equal-tailed interval aims at alpha/2 each). mean_width = mean of upper - "
           "lower over the FINITE intervals (NaN for one-sided methods or when all are "
           "infinite); frac_infinite = fraction with upper = +inf. Widths and eps in nats."},
      {LabelColumn(), kind, StatColumn("true_eps", &IntervalStats::truth)},
      StatColumns({{"miss_low", &IntervalStats::miss_low},
                   {"miss_high", &IntervalStats::miss_high},
                   {"mean_width", &IntervalStats::mean_width},
                   {"frac_infinite", &IntervalStats::frac_infinite},
                   {"median_lower", &IntervalStats::median_lower}}));
}

// Wide table: coverage per setting, one column per method.
Result<SummaryTable> CoverageByMethodTable(const Config& c, const Results& r) {
  const double nominal = 1.0 - c.alpha;
  return WideCoverageTable(
      r,
      {"coverage_by_method",
       "Coverage per setting and method (nominal " + FormatFixed(100 * nominal, 0) + "%)",
       CommonCaption(c) +
           "Monte-Carlo se at the nominal level: " + FormatFixed(NominalSe(nominal, c.trials), 4) +
           ". true_eps is at the study's delta; katz_log-like methods are scored "
           "at delta = 0 (identical to 4 decimals unless delta is large)."},
      "true_eps", TrueEpsAtDelta(c, r), {{"", &IntervalStats::coverage}},
      /*two_sided_only=*/false);
}

// Wide table: mean width and fraction infinite per setting, two columns per
// two-sided method.
Result<SummaryTable> WidthByMethodTable(const Config& c, const Results& r) {
  return WideCoverageTable(
      r,
      {"width_by_method", "Mean width of the two-sided intervals (nats)",
       CommonCaption(c) + "<method> = mean of upper - lower over the finite intervals (NaN if "
                          "none); '<method> inf' = fraction of intervals with upper = +inf."},
      "true_eps", TrueEpsAtDelta(c, r),
      {{"", &IntervalStats::mean_width}, {" inf", &IntervalStats::frac_infinite}},
      /*two_sided_only=*/true);
}

// Classes per method, with the range of its coverage over the settings.
Result<SummaryTable> ClassTable(const Config& c, const Results& r) {
  TableBuilder t(
      "coverage_classes", "How often each method under-, near- or over-covers",
      CommonCaption(c) + "Counts of the " + std::to_string(r.settings.size()) +
          " settings per class (threshold 3 nominal se, see 'coverage'); min/max coverage over "
          "settings. The chance-point settings (true eps = 0) are included.",
      {StringColumn("method"), StringColumn("kind"), IntColumn("under"), IntColumn("near"),
       IntColumn("over"), DoubleColumn("min_coverage"), DoubleColumn("max_coverage")});
  for (size_t m = 0; m < r.methods.size(); ++m) {
    const MethodRun& d = r.run.data[m];
    const ClassCounts k = CountClasses(d.classes);
    double lo = 1.0, hi = 0.0;
    for (const IntervalStats& st : d.stats)
      lo = std::min(lo, st.coverage), hi = std::max(hi, st.coverage);
    t.Row({r.methods[m].label, Kind(r.methods[m]), k.under, k.near, k.over, lo, hi});
  }
  return t.Build();
}

// The diagonal settings against the large-n limit: one row per (setting,
// Bayesian method), z = (coverage - limit_at_rho) / limit_se.
Result<SummaryTable> DiagonalLimitTable(const Config& c, const Results& r) {
  TableBuilder t(
      "diagonal_limit",
      "Bayesian interval on the diagonal FPR = FNR: measured coverage vs the large-n limit",
      CommonCaption(c) +
          "Where the two terms of eps are equal at the truth, the posterior of eps is the "
          "maximum of two estimates and the equal-tailed interval's coverage tends to "
          "G(1 - alpha/2) - G(alpha/2), G(w) = w - w ln w, and the one-sided bound's to "
          "1 - alpha + alpha ln(alpha), for independent terms (limit_rho0); with the "
          "terms' correlation rho = 2r(1-r)/(r^2+(1-r)^2) at FPR = FNR = r, by quadrature "
          "(limit_at_rho; experiments/bayes_coverage/README.md). The paper's nominal coverage "
          "is posterior mass, not frequentist coverage. se = Monte-Carlo standard error of the "
          "measured coverage; z = (coverage - limit_at_rho) / sqrt(limit (1 - limit) / trials).",
      {DoubleColumn("fpr_equals_fnr"), IntColumn("n"), StringColumn("method"), DoubleColumn("rho"),
       DoubleColumn("coverage"), DoubleColumn("se"), DoubleColumn("limit_rho0"),
       DoubleColumn("limit_at_rho"), DoubleColumn("z")});
  for (const DiagonalRow& row : DiagonalRows(c, r)) {
    const CoverageSetting& st = r.settings[row.setting];
    t.Row({/*fpr_equals_fnr=*/st.x, st.n, row.method, row.rho, row.coverage, row.se,
           row.limit_independent, row.limit, (row.coverage - row.limit) / row.limit_se});
  }
  return t.Build();
}

}  // namespace

Result<std::vector<SummaryTable>> CoverageTables(const Config& c, const Results& r) {
  std::vector<SummaryTable> tables;
  for (auto make :
       {LongTable, CoverageByMethodTable, WidthByMethodTable, ClassTable, DiagonalLimitTable}) {
    PB_ASSIGN_OR_RETURN(SummaryTable t, make(c, r));
    tables.push_back(std::move(t));
  }
  return tables;
}

}  // namespace privbench::bayes_coverage
