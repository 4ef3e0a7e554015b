#include "experiments/lib/coverage/coverage_report.h"

#include <algorithm>
#include <utility>

namespace privbench {
namespace {

// One statistic of every setting, in setting order.
std::vector<double> StatField(const std::vector<IntervalStats>& stats,
                              double IntervalStats::*field) {
  std::vector<double> v;
  for (const IntervalStats& st : stats) v.push_back(st.*field);
  return v;
}

std::vector<std::string> CoverageClassNames(const std::vector<CoverageClass>& classes) {
  std::vector<std::string> names;
  for (CoverageClass c : classes) names.push_back(CoverageClassName(c));
  return names;
}

// /settings/{pair_index,<x>,<y>,n}.
Status WriteSettings(ResultWriter& out, const CoverageResults& r) {
  std::vector<int64_t> pair, n;
  std::vector<double> x, y;
  for (const CoverageSetting& st : r.settings) {
    pair.push_back(st.pair);
    x.push_back(st.x);
    y.push_back(st.y);
    n.push_back(st.n);
  }
  PB_RETURN_IF_ERROR(out.WriteInts("/settings/pair_index", pair));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/" + r.names.x, x));
  PB_RETURN_IF_ERROR(out.WriteDoubles("/settings/" + r.names.y, y));
  return out.WriteInts("/settings/n", n);
}

// /<group>/<method>/...: the ends [S, T], the graded coverage and `stats`.
Status WriteMethod(ResultWriter& out, const CoverageResults& r, size_t m,
                   const std::vector<StatDataset>& stats) {
  const CoverageNames& names = r.names;
  const std::string g = names.group + "/" + r.methods[m].name;
  const std::vector<uint64_t> shape = {r.settings.size(), static_cast<uint64_t>(r.run.trials)};
  const MethodRun& d = r.run.data[m];
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/" + names.lower, d.lower, shape));
  if (!r.methods[m].one_sided) {
    PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/" + names.upper, d.upper, shape));
  }
  PB_RETURN_IF_ERROR(
      out.WriteDoubles(g + "/coverage", StatField(d.stats, &IntervalStats::coverage)));
  PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/coverage_se", StatField(d.stats, &IntervalStats::se)));
  PB_RETURN_IF_ERROR(out.WriteStrings(g + "/coverage_class", CoverageClassNames(d.classes)));
  for (const StatDataset& st : stats) {
    PB_RETURN_IF_ERROR(out.WriteDoubles(g + "/" + st.name, StatField(d.stats, st.field)));
  }
  return Status::Ok();
}

// /numbers/<study>_<method>_{min_coverage,settings_under} (as doubles).
Status WriteNumbers(ResultWriter& out, const CoverageResults& r, size_t m) {
  const MethodRun& d = r.run.data[m];
  double min_coverage = 1.0;
  for (const IntervalStats& st : d.stats) min_coverage = std::min(min_coverage, st.coverage);
  const std::string prefix = "/numbers/" + r.names.study + "_" + r.methods[m].name;
  PB_RETURN_IF_ERROR(out.WriteScalar(prefix + "_min_coverage", min_coverage));
  return out.WriteScalar(prefix + "_settings_under",
                         static_cast<double>(CountClasses(d.classes).under));
}

}  // namespace

Status WriteCoverageRun(ResultWriter& out, const CoverageResults& r,
                        const std::string& trials_description,
                        const std::vector<StatDataset>& stats) {
  PB_RETURN_IF_ERROR(WriteSettings(out, r));
  const std::vector<uint64_t> shape = {r.settings.size(), static_cast<uint64_t>(r.run.trials)};
  for (size_t i = 0; i < 2; ++i) {
    PB_RETURN_IF_ERROR(out.WriteInts("/trials/" + r.names.counts[i], r.run.counts[i], shape));
  }
  PB_RETURN_IF_ERROR(SetAttributes(out, "/trials", {{"description", trials_description}}));
  std::vector<std::string> names;
  for (size_t m = 0; m < r.methods.size(); ++m) {
    names.push_back(r.methods[m].name);
    PB_RETURN_IF_ERROR(WriteMethod(out, r, m, stats));
    PB_RETURN_IF_ERROR(WriteNumbers(out, r, m));
  }
  return out.WriteStrings("/methods/name", names);
}

CoverageColumn LabelColumn() {
  return {{"method", Column::Type::kString},
          [](const CoverageMethod& m, const IntervalStats&) { return Cell(m.label); }};
}

CoverageColumn StatColumn(std::string name, double IntervalStats::*field) {
  return {{std::move(name), Column::Type::kDouble},
          [field](const CoverageMethod&, const IntervalStats& st) { return Cell(st.*field); }};
}

std::vector<CoverageColumn> StatColumns(const std::vector<StatDataset>& stats) {
  std::vector<CoverageColumn> columns;
  for (const StatDataset& st : stats) columns.push_back(StatColumn(st.name, st.field));
  return columns;
}

Result<SummaryTable> LongCoverageTable(const CoverageResults& r, const TableText& text,
                                       const std::vector<CoverageColumn>& before,
                                       const std::vector<CoverageColumn>& after) {
  std::vector<ColumnSpec> specs = {{r.names.x, Column::Type::kDouble},
                                   {r.names.y, Column::Type::kDouble},
                                   {r.names.n, Column::Type::kInt}};
  for (const CoverageColumn& c : before) specs.push_back(c.spec);
  specs.insert(specs.end(), {{"coverage", Column::Type::kDouble},
                             {"se", Column::Type::kDouble},
                             {"class", Column::Type::kString}});
  for (const CoverageColumn& c : after) specs.push_back(c.spec);
  TableBuilder t(text.name, text.title, text.caption, std::move(specs));
  for (size_t s = 0; s < r.settings.size(); ++s) {
    const CoverageSetting& set = r.settings[s];
    for (size_t m = 0; m < r.methods.size(); ++m) {
      const IntervalStats& st = r.run.data[m].stats[s];
      std::vector<Cell> row = {set.x, set.y, set.n};
      for (const CoverageColumn& c : before) row.push_back(c.cell(r.methods[m], st));
      row.insert(row.end(), {st.coverage, st.se, CoverageClassName(r.run.data[m].classes[s])});
      for (const CoverageColumn& c : after) row.push_back(c.cell(r.methods[m], st));
      t.Row(row);
    }
  }
  return t.Build();
}

Result<SummaryTable> WideCoverageTable(const CoverageResults& r, const TableText& text,
                                       const std::string& truth_name,
                                       const std::vector<double>& truth,
                                       const std::vector<MethodColumn>& columns,
                                       bool two_sided_only) {
  TableBuilder t(text.name, text.title, text.caption,
                 {{r.names.x, Column::Type::kDouble},
                  {r.names.y, Column::Type::kDouble},
                  {r.names.n, Column::Type::kInt},
                  {truth_name, Column::Type::kDouble}});
  for (size_t s = 0; s < r.settings.size(); ++s) {
    t.Row({r.settings[s].x, r.settings[s].y, r.settings[s].n, truth[s]});
  }
  PB_ASSIGN_OR_RETURN(SummaryTable table, t.Build());
  // The method columns are appended whole (a TableBuilder row has a fixed
  // number of cells).
  for (size_t m = 0; m < r.methods.size(); ++m) {
    if (two_sided_only && r.methods[m].one_sided) continue;
    for (const MethodColumn& c : columns) {
      table.columns.push_back(
          Column::Doubles(r.methods[m].label + c.suffix, StatField(r.run.data[m].stats, c.field)));
    }
  }
  return table;
}

std::map<std::string, size_t> IndexByName(const std::vector<CoverageMethod>& methods) {
  std::map<std::string, size_t> index;
  for (size_t m = 0; m < methods.size(); ++m) index[methods[m].name] = m;
  return index;
}

ClassCounts CountClasses(const std::vector<CoverageClass>& classes) {
  ClassCounts counts;
  for (CoverageClass c : classes) {
    counts.under += c == CoverageClass::kUnder;
    counts.near += c == CoverageClass::kNear;
    counts.over += c == CoverageClass::kOver;
  }
  return counts;
}

bool OverCoversMost(const ClassCounts& counts) {
  return counts.under == 0 && 2 * counts.over > counts.total();
}

void Separate(Evidence& list) {
  if (!list.str().empty()) list << "; ";
}

std::string CoverageList(const std::vector<CoverageSetting>& settings, const MethodRun& d,
                         const std::vector<size_t>& which) {
  Evidence list;
  for (size_t s : which) {
    Separate(list);
    list << settings[s].label << " " << d.stats[s].coverage << " ("
         << CoverageClassName(d.classes[s]) << ")";
  }
  return list;
}

std::string CoverageList(const std::vector<CoverageSetting>& settings, const MethodRun& d) {
  std::vector<size_t> all(settings.size());
  for (size_t s = 0; s < all.size(); ++s) all[s] = s;
  return CoverageList(settings, d, all);
}

}  // namespace privbench
