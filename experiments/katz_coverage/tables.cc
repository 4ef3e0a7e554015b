// Study katz_coverage: its summary tables (/summary/*): the Monte-Carlo
// coverage of the lower bounds on log(p1/p0) at each method's one-sided
// nominal level and the mean clipped bound max{0, bound} (long and wide),
// and the detection ceiling, the largest bound N samples per side can give
// (ML-Audit Corollary 4.0.1: ln(N) - z_{alpha/2} sqrt(1 - 1/N) for Katz).
#include <string>
#include <utility>

#include "core/format.h"
#include "experiments/katz_coverage/report.h"
#include "results/table_builder.h"

namespace privbench::katz_coverage {

std::vector<double> Targets(const Results& r) {
  std::vector<double> target;
  for (const CoverageSetting& st : r.settings) target.push_back(LogRatio(st));
  return target;
}

std::vector<StatDataset> ClippedStats() {
  return {{"mean_eps_bound", &IntervalStats::mean_clipped},
          {"median_eps_bound", &IntervalStats::median_clipped},
          {"frac_vacuous", &IntervalStats::frac_vacuous},
          {"mean_eps_bound_covering", &IntervalStats::mean_clipped_covering}};
}

namespace {

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
  return WideCoverageTable(
      r,
      {"coverage_by_method", "Coverage and mean eps bound per setting and method",
       CommonCaption(c) + "'<method> mean bound' = mean of max{0, bound} in nats."},
      "target", Targets(r),
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
                 {IntColumn("N"),
                  IntColumn("n1"),
                  IntColumn("n0"),
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

}  // namespace

Result<std::vector<SummaryTable>> RatioTables(const Config& c, const Results& r) {
  std::vector<SummaryTable> tables;
  for (auto make : {LongRatioTable, WideRatioTable, CeilingTable}) {
    PB_ASSIGN_OR_RETURN(SummaryTable t, make(c, r));
    tables.push_back(std::move(t));
  }
  return tables;
}

}  // namespace privbench::katz_coverage
