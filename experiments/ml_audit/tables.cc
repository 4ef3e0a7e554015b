// Study ml_audit: its summary tables (/summary/*): the datasets read, every
// audit's eps lower bound and its median over replicates (ML-Audit Sec. 5),
// and the detection ceiling (Cor. 4.0.1).
#include <algorithm>
#include <map>
#include <tuple>

#include "estimators/intervals/katz_log.h"
#include "experiments/ml_audit/report.h"
#include "results/table_builder.h"

namespace privbench::ml_audit {
// One row per dataset read (rows and features after preprocessing,
// provenance, checksums) and one per unavailable one.
Result<SummaryTable> DatasetTable(const Config&, const Results& results) {
  TableBuilder table(
      "datasets", "Datasets of this run (ML-Audit Sec. 5 grid)",
      "One row per dataset: read (rows and features after preprocessing, provenance, verified "
      "checksums) or unavailable (a downloadable UCI dataset whose files were not found; it has "
      "no audit rows in this run).",
      {StringColumn("dataset"), StringColumn("status"), IntColumn("rows"), IntColumn("features"),
       StringColumn("provenance"), StringColumn("checksums")});
  for (const DatasetInfo& d : results.datasets) {
    table.Row({d.name, "read", d.rows, d.features, d.provenance, d.checksums});
  }
  for (const std::string& u : results.unavailable) {
    table.Row(
        {u, "unavailable", 0, 0,
         "files not found: not audited (fetch with data_scripts/download_uci_audit.py --datasets " +
             u + ")",
         ""});
  }
  return table.Build();
}

Result<SummaryTable> EpsLbTable(const Config&, const Results& results) {
  const AuditTable& t = results.audits;
  TableBuilder table(
      "eps_lb", "ML-Audit eps lower bounds per audit (Lu et al. Sec. 5, Figs. 2-4)",
      "One row per (dataset, case, eps_th, k, replicate). eps_lb is the Katz-log bound of the "
      "fresh sample divided by k; guarantee is the per-copy eps the mechanism promises against "
      "this neighbour (2 eps_th for replacements audited on an add/remove mechanism); fresh "
      "n1/n0 are the counts behind eps_lb (numerator, denominator).",
      {StringColumn("dataset"), StringColumn("case"), StringColumn("role"), DoubleColumn("eps_th"),
       IntColumn("k"), IntColumn("replicate"), DoubleColumn("guarantee"), DoubleColumn("eps_lb"),
       IntColumn("fresh_n1"), IntColumn("fresh_n0"), DoubleColumn("search_bound")});
  for (size_t r = 0; r < t.rows(); ++r) {
    table.Row({t.S("dataset", r), t.S("case", r), t.S("role", r), t.D("eps", r), t.I("k", r),
               t.I("replicate", r), t.D("guarantee", r), t.D("eps_lb", r), t.I("fresh_n1", r),
               t.I("fresh_n0", r), t.D("search_bound", r)});
  }
  return table.Build();
}

// The paper's report: the median over replicates of each (dataset, case,
// eps_th, k) audit, with the largest replicate beside it.
Result<SummaryTable> MedianEpsLbTable(const Config&, const Results& results) {
  const AuditTable& t = results.audits;
  using Key = std::tuple<std::string, std::string, double, int64_t>;
  std::map<Key, std::vector<size_t>> groups;
  std::vector<Key> order;  // first appearance
  for (size_t r = 0; r < t.rows(); ++r) {
    Key key = std::make_tuple(t.S("dataset", r), t.S("case", r), t.D("eps", r), t.I("k", r));
    if (!groups.count(key)) order.push_back(key);
    groups[key].push_back(r);
  }
  TableBuilder table(
      "median_eps_lb",
      "Median eps_lb over replicates (ML-Audit Sec. 5: 3 replicates, median reported)",
      "One row per (dataset, case, eps_th, k); eps_lb per copy; guarantee per copy.",
      {StringColumn("dataset"), StringColumn("case"), StringColumn("role"), DoubleColumn("eps_th"),
       IntColumn("k"), IntColumn("replicates"), DoubleColumn("guarantee"),
       DoubleColumn("median_eps_lb"), DoubleColumn("max_eps_lb")});
  for (const Key& key : order) {
    const std::vector<size_t>& rows = groups[key];
    std::vector<double> lb;
    for (size_t r : rows) lb.push_back(t.D("eps_lb", r));
    std::sort(lb.begin(), lb.end());
    const size_t m = lb.size();
    table.Row({std::get<0>(key), std::get<1>(key), t.S("role", rows[0]), std::get<2>(key),
               std::get<3>(key), m, t.D("guarantee", rows[0]),
               m % 2 ? lb[m / 2] : 0.5 * (lb[m / 2 - 1] + lb[m / 2]), lb.back()});
  }
  return table.Build();
}

Result<SummaryTable> CeilingTable(const Config& c, const Results&) {
  TableBuilder table(
      "detection_ceiling", "Detection ceiling (ML-Audit Cor. 4.0.1) at this run's N values, per k",
      "ln N - z sqrt(1 - 1/N), divided by k: the largest eps_lb the audit can show. z_{alpha/2} "
      "is the default reading of Algorithm 1; line 12 passes alpha/2 to the bound, which could "
      "be read as z_{alpha/4} (shown for comparison).",
      {IntColumn("N"), IntColumn("k"), DoubleColumn("ceiling_z_alpha_2"),
       DoubleColumn("ceiling_z_alpha_4")});
  // The audit cases' N and, when it differs, the bug cases' N (--bug_n).
  std::vector<int64_t> sizes = {c.n};
  if (c.bug_n != c.n) sizes.push_back(c.bug_n);
  for (int64_t size : sizes) {
    PB_ASSIGN_OR_RETURN(const double a, KatzLogCeiling(size, c.alpha));
    PB_ASSIGN_OR_RETURN(const double b, KatzLogCeiling(size, c.alpha / 2));
    for (int64_t k : c.k)
      table.Row({size, k, a / static_cast<double>(k), b / static_cast<double>(k)});
  }
  return table.Build();
}

}  // namespace privbench::ml_audit
