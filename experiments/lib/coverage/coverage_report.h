// What the coverage studies' reports share (the statistics: coverage_run.h):
// the raw data and per-method statistics they write, the long and wide
// summary tables, the class counts behind their verdicts and the evidence
// text of a list of settings. Each study adds its own columns, attributes,
// tables and claims.
//
// WriteCoverageRun writes, for S settings, T trials and a study's names
// (CoverageNames):
//   /settings/{pair_index,<x>,<y>,n}              [S]
//   /trials/<counts[0]>, /trials/<counts[1]>      [S, T] int64, with a description
//   /methods/name                                 one row per method
//   /<group>/<method>/<lower>                     [S, T]
//   /<group>/<method>/<upper>                     [S, T] (two-sided methods only)
//   /<group>/<method>/{coverage,coverage_se,coverage_class}  [S]
//   /<group>/<method>/<dataset>                   [S] each statistic the study lists
//   /numbers/<study>_<method>_{min_coverage,settings_under}  the minimum coverage
//                                                 over the settings and the
//                                                 number of settings "under"
#ifndef PRIVBENCH_EXPERIMENTS_LIB_COVERAGE_COVERAGE_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_LIB_COVERAGE_COVERAGE_REPORT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/lib/coverage/coverage_run.h"
#include "results/evidence.h"
#include "results/h5_file.h"
#include "results/table_builder.h"

namespace privbench {

// Position of every method by its name.
std::map<std::string, size_t> IndexByName(const std::vector<CoverageMethod>& methods);

// A statistic written per method as /<group>/<method>/<name>.
struct StatDataset {
  std::string name;
  double IntervalStats::*field;
};

// Writes the datasets of the header comment.
Status WriteCoverageRun(ResultWriter& out, const CoverageResults& r,
                        const std::string& trials_description,
                        const std::vector<StatDataset>& stats);

// A summary table's name, title and caption.
struct TableText {
  std::string name, title, caption;
};

// A column of the long table: its name and type, and its cell in the row of
// a method in a setting.
struct CoverageColumn {
  ColumnSpec spec;
  std::function<Cell(const CoverageMethod&, const IntervalStats&)> cell;
};
// The column "method" of the methods' labels; the column of one statistic,
// and those of several.
CoverageColumn LabelColumn();
CoverageColumn StatColumn(std::string name, double IntervalStats::*field);
std::vector<CoverageColumn> StatColumns(const std::vector<StatDataset>& stats);

// The long table, one row per (setting, method), setting-major: the columns
// <x>, <y>, <n>, then `before`, coverage, se, class, then `after`.
Result<SummaryTable> LongCoverageTable(const CoverageResults& r, const TableText& text,
                                       const std::vector<CoverageColumn>& before,
                                       const std::vector<CoverageColumn>& after);

// A statistic of every method in a column "<label><suffix>" of the wide table.
struct MethodColumn {
  std::string suffix;
  double IntervalStats::*field;
};

// The wide table, one row per setting: <x>, <y>, <n>, the column
// `truth_name` with the values `truth`, then for every method (every
// two-sided one if two_sided_only), in method order, one column per entry of
// `columns`.
Result<SummaryTable> WideCoverageTable(const CoverageResults& r, const TableText& text,
                                       const std::string& truth_name,
                                       const std::vector<double>& truth,
                                       const std::vector<MethodColumn>& columns,
                                       bool two_sided_only);

// How many settings fall in each coverage class.
struct ClassCounts {
  int64_t under = 0, near = 0, over = 0;
  int64_t total() const { return under + near + over; }
};
ClassCounts CountClasses(const std::vector<CoverageClass>& classes);

// The verdict on a conservative method: under in no setting, over in more
// than half of them.
bool OverCoversMost(const ClassCounts& counts);

// Starts the next item of an evidence list: "; " unless the list is empty.
void Separate(Evidence& list);

// "<label> <coverage> (<class>); ..." of a method's run d at the settings
// `which` (all settings when omitted).
std::string CoverageList(const std::vector<CoverageSetting>& settings, const MethodRun& d,
                         const std::vector<size_t>& which);
std::string CoverageList(const std::vector<CoverageSetting>& settings, const MethodRun& d);

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIB_COVERAGE_COVERAGE_REPORT_H_
