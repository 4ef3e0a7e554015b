#include "results/table_builder.h"

#include <string>
#include <utility>
#include <vector>

namespace privbench {
namespace {

std::string TypeName(Column::Type t) {
  switch (t) {
    case Column::Type::kDouble:
      return "double";
    case Column::Type::kInt:
      return "int64";
    case Column::Type::kString:
      return "string";
  }
  return "unknown";
}

}  // namespace

Column::Type Cell::type() const {
  if (std::holds_alternative<double>(value_)) return Column::Type::kDouble;
  if (std::holds_alternative<int64_t>(value_)) return Column::Type::kInt;
  return Column::Type::kString;
}

TableBuilder::TableBuilder(std::string name, std::string title, std::string caption,
                           std::vector<ColumnSpec> columns) {
  table_.name = std::move(name);
  table_.title = std::move(title);
  table_.caption = std::move(caption);
  for (const ColumnSpec& spec : columns) {
    Column c;
    c.name = spec.name;
    table_.columns.push_back(std::move(c));
    specs_types_.push_back(spec.type);
  }
}

void TableBuilder::Row(std::initializer_list<Cell> cells) { Row(std::vector<Cell>(cells)); }

void TableBuilder::Row(const std::vector<Cell>& cells) {
  if (!error_.empty()) return;
  // The error's text is made only on an error, not for every row.
  auto where = [&] { return "table '" + table_.name + "' row " + std::to_string(rows_); };
  if (cells.size() != table_.columns.size()) {
    error_ = where() + ": " + std::to_string(cells.size()) + " cells for " +
             std::to_string(table_.columns.size()) + " columns";
    return;
  }
  size_t i = 0;
  for (const Cell& cell : cells) {
    Column& column = table_.columns[i];
    const Column::Type want = specs_types_[i++];
    if (cell.type() != want) {
      error_ = where() + ", column '" + column.name + "': a " + TypeName(cell.type()) +
               " cell in a " + TypeName(want) + " column";
      return;
    }
    switch (want) {
      case Column::Type::kDouble:
        column.doubles.push_back(cell.as_double());
        break;
      case Column::Type::kInt:
        column.ints.push_back(cell.as_int());
        break;
      case Column::Type::kString:
        column.strings.push_back(cell.as_string());
        break;
    }
  }
  ++rows_;
}

Result<SummaryTable> TableBuilder::Build() const {
  if (!error_.empty()) return Error(error_);
  return table_;
}

Status SetAttributes(ResultWriter& out, const std::string& object_path,
                     std::initializer_list<Attribute> attributes) {
  for (const Attribute& a : attributes) {
    switch (a.value.type()) {
      case Column::Type::kDouble:
        PB_RETURN_IF_ERROR(out.SetAttribute(object_path, a.name, a.value.as_double()));
        break;
      case Column::Type::kInt:
        PB_RETURN_IF_ERROR(out.SetAttribute(object_path, a.name, a.value.as_int()));
        break;
      case Column::Type::kString:
        PB_RETURN_IF_ERROR(out.SetAttribute(object_path, a.name, a.value.as_string()));
        break;
    }
  }
  return Status::Ok();
}

}  // namespace privbench
