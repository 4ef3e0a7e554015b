#include "experiments/published_examples/lira_table2.h"

#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/format.h"
#include "estimators/confusion_counts.h"
#include "experiments/published_examples/compute.h"
#include "results/table_builder.h"

namespace privbench::published_examples {
namespace {

struct Printed {
  const char* dataset;
  const char* setting;
  const char* method;
  const char* lower;
  const char* upper;
};

// Table 2's finite intervals, as printed (inputs of the check).
constexpr Printed kTable2[] = {
    {"cifar10", "no_dp", "clopper_pearson", "1.8", "5.3"},
    {"cifar10", "no_dp", "jeffreys", "1.9", "5.0"},
    {"cifar10", "no_dp", "bayesian", "2.2", "4.5"},
    {"cifar10", "dp_eps8", "clopper_pearson", "0.23", "7.7"},
    {"cifar10", "dp_eps8", "jeffreys", "0.43", "6.0"},
    {"cifar10", "dp_eps8", "bayesian", "1.1", "5.0"},
    {"sst2", "no_dp", "bayesian", "4.0", "9.2"},
    {"sst2", "dp_eps8", "bayesian", "0.12", "8.5"},
};

// Printed lower bounds, including those of intervals with an infinite upper end.
constexpr Printed kLowerBounds[] = {
    {"sst2", "no_dp", "jeffreys", "3.57", "inf"},
};

// Half a unit of the last printed digit ("0.23" -> 0.005).
double HalfUnit(const std::string& text) {
  const size_t dot = text.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(text.size() - dot - 1);
  return 0.5 * std::pow(10.0, -decimals);
}

double Value(const std::string& text) { return std::strtod(text.c_str(), nullptr); }

const Printed* FindCp(const Printed& p) {
  for (const Printed& q : kTable2) {
    if (std::string(q.dataset) == p.dataset && std::string(q.setting) == p.setting &&
        std::string(q.method) == "clopper_pearson") {
      return &q;
    }
  }
  return nullptr;
}

void WidthRange(const Printed& p, double* w, double* lo, double* hi) {
  const double l = Value(p.lower), u = Value(p.upper);
  *w = u - l;
  *lo = (u - HalfUnit(p.upper)) - (l + HalfUnit(p.lower));
  *hi = (u + HalfUnit(p.upper)) - (l - HalfUnit(p.lower));
}

}  // namespace

Result<Table2Widths> ComputeTable2Widths() {
  Table2Widths t;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const Printed& p : kTable2) {
    double w, wlo, whi;
    WidthRange(p, &w, &wlo, &whi);
    t.dataset.push_back(p.dataset);
    t.setting.push_back(p.setting);
    t.method.push_back(p.method);
    t.printed_lower.push_back(p.lower);
    t.printed_upper.push_back(p.upper);
    t.width.push_back(w);
    t.width_min.push_back(wlo);
    t.width_max.push_back(whi);
    const Printed* cp = FindCp(p);
    if (cp == nullptr) {
      t.reduction_pct.push_back(nan);
      t.reduction_min_pct.push_back(nan);
      t.reduction_max_pct.push_back(nan);
      continue;
    }
    double c, clo, chi;
    WidthRange(*cp, &c, &clo, &chi);
    t.reduction_pct.push_back(100.0 * (w / c - 1.0));
    t.reduction_min_pct.push_back(100.0 * (wlo / chi - 1.0));
    t.reduction_max_pct.push_back(100.0 * (whi / clo - 1.0));
  }
  return t;
}

Result<Table2Ceilings> ComputeTable2Ceilings() {
  ConfusionCounts perfect;
  perfect.tp = 512;
  perfect.tn = 512;
  PB_ASSIGN_OR_RETURN(EveryEstimator every, EstimateWithEvery(perfect, 1e-5, 0.1));
  Table2Ceilings c;
  c.method = every.method;
  c.lower = every.lower;
  c.upper = every.upper;
  auto check = [&](const Printed& p) {
    for (size_t i = 0; i < c.method.size(); ++i) {
      if (c.method[i] != p.method) continue;
      const bool below = Value(p.lower) <= c.lower[i];
      c.printed_below_ceiling = c.printed_below_ceiling && below;
      c.evidence += std::string(p.dataset) + " " + p.setting + " " + p.method + " " + p.lower +
                    (below ? " <= " : " > ") + FormatFixed(c.lower[i], 3) + "; ";
    }
  };
  for (const Printed& p : kTable2) check(p);
  for (const Printed& p : kLowerBounds) check(p);
  return c;
}

namespace {

Result<SummaryTable> WidthsTable(const Table2Widths& w) {
  TableBuilder t(
      "table2_widths",
      "Bayesian paper Table 2: widths and reductions vs Clopper-Pearson from the printed "
      "endpoints",
      "Computed from Table 2's printed interval endpoints (CIFAR-10, SST-2; no data needed). "
      "*_min / *_max: the range allowed when every endpoint is anywhere within half a unit of "
      "its last printed digit. Reduction = width / CP width - 1, in percent.",
      {{"dataset", Column::Type::kString},
       {"setting", Column::Type::kString},
       {"method", Column::Type::kString},
       {"printed_lower", Column::Type::kString},
       {"printed_upper", Column::Type::kString},
       {"width", Column::Type::kDouble},
       {"width_min", Column::Type::kDouble},
       {"width_max", Column::Type::kDouble},
       {"reduction_pct", Column::Type::kDouble},
       {"reduction_min_pct", Column::Type::kDouble},
       {"reduction_max_pct", Column::Type::kDouble}});
  for (size_t i = 0; i < w.method.size(); ++i) {
    t.Row({w.dataset[i], w.setting[i], w.method[i], w.printed_lower[i], w.printed_upper[i],
           w.width[i], w.width_min[i], w.width_max[i], w.reduction_pct[i], w.reduction_min_pct[i],
           w.reduction_max_pct[i]});
  }
  return t.Build();
}

Result<SummaryTable> CeilingsTable(const Table2Ceilings& c) {
  TableBuilder t("table2_ceilings",
                 "Detection ceilings for Table 2's 1,024 trials (perfect attack)",
                 "Interval of every registered estimator for TP = TN = 512, FP = FN = 0, alpha = "
                 "0.1, delta = 1e-5: no attack on 1,024 trials shows a larger lower bound. NaN: "
                 "one-sided upper end, or a method defined for delta = 0 only.",
                 {{"method", Column::Type::kString},
                  {"lower", Column::Type::kDouble},
                  {"upper", Column::Type::kDouble}});
  for (size_t i = 0; i < c.method.size(); ++i) t.Row({c.method[i], c.lower[i], c.upper[i]});
  return t.Build();
}

// Whether every printed lower bound is below its method's ceiling: a table
// (this check writes numbers, not claims).
Result<SummaryTable> BelowCeilingTable(const Table2Ceilings& c) {
  TableBuilder t("table2_below_ceiling",
                 "Table 2's printed lower bounds against the 1,024-trial ceilings", c.evidence,
                 {{"all_printed_lower_bounds_below_ceiling", Column::Type::kString}});
  t.Row({c.printed_below_ceiling ? "yes" : "no"});
  return t.Build();
}

}  // namespace

Status WriteTable2Checks(ResultWriter& out) {
  PB_ASSIGN_OR_RETURN(const Table2Widths w, ComputeTable2Widths());
  for (size_t i = 0; i < w.method.size(); ++i) {
    const std::string id =
        "/numbers/table2_" + w.dataset[i] + "_" + w.setting[i] + "_" + w.method[i];
    PB_RETURN_IF_ERROR(out.WriteScalar(id + "_width", w.width[i]));
    if (!std::isnan(w.reduction_pct[i]) && w.method[i] != "clopper_pearson") {
      PB_RETURN_IF_ERROR(out.WriteScalar(id + "_reduction_pct", w.reduction_pct[i]));
    }
  }
  PB_ASSIGN_OR_RETURN(const SummaryTable widths, WidthsTable(w));
  PB_RETURN_IF_ERROR(out.WriteTable(widths));
  PB_ASSIGN_OR_RETURN(const Table2Ceilings c, ComputeTable2Ceilings());
  for (size_t i = 0; i < c.method.size(); ++i) {
    if (std::isnan(c.lower[i])) continue;
    PB_RETURN_IF_ERROR(out.WriteScalar("/numbers/table2_ceiling_1024_" + c.method[i], c.lower[i]));
  }
  PB_ASSIGN_OR_RETURN(const SummaryTable ceilings, CeilingsTable(c));
  PB_RETURN_IF_ERROR(out.WriteTable(ceilings));
  PB_ASSIGN_OR_RETURN(const SummaryTable below, BelowCeilingTable(c));
  return out.WriteTable(below);
}

}  // namespace privbench::published_examples
