// Summary tables built row by row, and attributes set in one call: what a
// study's report code writes instead of hand-transposed columns
// (Column::Doubles of vectors filled in parallel loops) and chains of
// SetAttribute calls.
//
//   TableBuilder t("endpoints", "Interval endpoints", "caption ...",
//                  {{"method", Column::Type::kString}, {"n", Column::Type::kInt},
//                   {"eps_lower", Column::Type::kDouble}});
//   for (...) t.Row({label, n, lower});
//   PB_ASSIGN_OR_RETURN(SummaryTable table, t.Build());
//
// A row with the wrong number of cells, or a cell whose type is not its
// column's, is an error naming the table, the row and the column (Build()
// returns it); integers never turn into doubles silently, nor the reverse.
// The table Build() returns is the one ResultWriter::WriteTable writes, so a
// builder and hand-built columns with the same values give the same file.
#ifndef PRIVBENCH_RESULTS_TABLE_BUILDER_H_
#define PRIVBENCH_RESULTS_TABLE_BUILDER_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "core/result.h"
#include "results/h5_file.h"

namespace privbench {

// One table cell or attribute value: a double, an int64 or a string.
class Cell {
 public:
  template <typename T, typename std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Cell(T v) : value_(static_cast<double>(v)) {}  // NOLINT: implicit by design
  template <typename T,
            typename std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Cell(T v) : value_(static_cast<int64_t>(v)) {}   // NOLINT
  Cell(std::string v) : value_(std::move(v)) {}    // NOLINT
  Cell(const char* v) : value_(std::string(v)) {}  // NOLINT

  Column::Type type() const;
  double as_double() const { return std::get<double>(value_); }
  int64_t as_int() const { return std::get<int64_t>(value_); }
  const std::string& as_string() const { return std::get<std::string>(value_); }

 private:
  std::variant<double, int64_t, std::string> value_;
};

struct ColumnSpec {
  std::string name;
  Column::Type type;
};

// A column of each type, for column lists written out by hand.
inline ColumnSpec StringColumn(std::string name) {
  return {std::move(name), Column::Type::kString};
}
inline ColumnSpec DoubleColumn(std::string name) {
  return {std::move(name), Column::Type::kDouble};
}
inline ColumnSpec IntColumn(std::string name) { return {std::move(name), Column::Type::kInt}; }

class TableBuilder {
 public:
  TableBuilder(std::string name, std::string title, std::string caption,
               std::vector<ColumnSpec> columns);

  // Appends one row, a cell per column in the declared order.
  void Row(std::initializer_list<Cell> cells);
  // The same for a row whose cells are assembled at run time (e.g. one
  // column per registered method).
  void Row(const std::vector<Cell>& cells);
  size_t rows() const { return rows_; }

  // The table, or the first error a Row() met.
  Result<SummaryTable> Build() const;

 private:
  SummaryTable table_;
  std::vector<Column::Type> specs_types_;
  size_t rows_ = 0;
  std::string error_;
};

// A named attribute value (ResultWriter::SetAttributes).
struct Attribute {
  std::string name;
  Cell value;
};

// Sets every attribute on `object_path` (a missing group is created), in
// order; the first failure is returned.
Status SetAttributes(ResultWriter& out, const std::string& object_path,
                     std::initializer_list<Attribute> attributes);

}  // namespace privbench

#endif  // PRIVBENCH_RESULTS_TABLE_BUILDER_H_
