#include "results/tables_lib.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace privbench {

namespace {
std::string Escape(std::string s) {
  for (size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.replace(i, 1, "\\|");
  for (char& c : s) {
    if (c == '\n') c = ' ';
  }
  return s;
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string Cell(const Column& c, size_t row, bool full_precision) {
  switch (c.type()) {
    case Column::Type::kString:
      return c.strings[row];
    case Column::Type::kInt:
      return std::to_string(c.ints[row]);
    case Column::Type::kDouble: {
      if (!full_precision) return FormatCell(c.doubles[row]);
      char buf[40];
      std::snprintf(buf, sizeof(buf), "%.17g", c.doubles[row]);
      return buf;
    }
  }
  return "";
}
}  // namespace

std::string FormatCell(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[40];
  const double a = std::abs(x);
  if (a != 0.0 && (a >= 1e6 || a < 1e-3)) {
    std::snprintf(buf, sizeof(buf), "%.4g", x);
  } else {
    std::snprintf(buf, sizeof(buf), "%.4g", x);
  }
  return buf;
}

std::string TableMarkdown(const SummaryTable& t) {
  std::ostringstream out;
  out << "### " << (t.title.empty() ? t.name : t.title) << "\n\n";
  if (!t.caption.empty()) out << t.caption << "\n\n";
  out << "|";
  for (const Column& c : t.columns) out << " " << Escape(c.name) << " |";
  out << "\n|";
  for (size_t i = 0; i < t.columns.size(); ++i) out << "---|";
  out << "\n";
  const size_t rows = t.columns.empty() ? 0 : t.columns.front().size();
  for (size_t r = 0; r < rows; ++r) {
    out << "|";
    for (const Column& c : t.columns) out << " " << Escape(Cell(c, r, false)) << " |";
    out << "\n";
  }
  return out.str();
}

std::string TableCsv(const SummaryTable& t) {
  std::ostringstream out;
  for (size_t i = 0; i < t.columns.size(); ++i)
    out << (i ? "," : "") << CsvField(t.columns[i].name);
  out << "\n";
  const size_t rows = t.columns.empty() ? 0 : t.columns.front().size();
  for (size_t r = 0; r < rows; ++r) {
    for (size_t i = 0; i < t.columns.size(); ++i) {
      out << (i ? "," : "") << CsvField(Cell(t.columns[i], r, true));
    }
    out << "\n";
  }
  return out.str();
}

Result<std::string> StudyMarkdown(const ResultReader& f) {
  auto attr = [&](const char* name) { return f.ReadStringAttribute("/meta", name).value_or("?"); };
  // The scale decides how verdicts read: a file without a valid one is refused.
  PB_ASSIGN_OR_RETURN(std::string scale, f.Scale());
  std::ostringstream out;
  out << "# " << attr("study") << "\n\n"
      << attr("description") << "\n\n"
      << "- Reproduces: " << attr("paper") << ", " << attr("section") << "\n"
      << "- Scale: " << scale << "; seed " << attr("seed") << "; commit " << attr("git_commit")
      << (f.ReadIntAttribute("/meta", "git_dirty").value_or(0) ? " (uncommitted changes)" : "")
      << "\n"
      << "- Run: " << attr("start_time") << " to " << attr("end_time") << " ("
      << FormatCell(f.ReadDoubleAttribute("/meta", "duration_seconds").value_or(NAN)) << " s)\n"
      << "- Libraries: " << attr("library_versions") << "\n\n";
  PB_ASSIGN_OR_RETURN(auto tables, f.ReadAllTables());
  for (const SummaryTable& t : tables) out << TableMarkdown(t) << "\n";
  PB_ASSIGN_OR_RETURN(auto claims, f.ReadAllClaims());
  if (!claims.empty()) {
    out << "### Claims\n\n| claim | source | verdict | evidence |\n|---|---|---|---|\n";
    for (const Claim& c : claims) {
      out << "| " << Escape(c.statement) << " | " << Escape(c.source) << " | "
          << (c.holds ? "reproduced" : "not reproduced") << " | " << Escape(c.evidence) << " |\n";
    }
    out << "\n";
  }
  out << "<details><summary>Configuration</summary>\n\n```\n"
      << attr("config") << "```\n"
      << "</details>\n";
  return out.str();
}

}  // namespace privbench
