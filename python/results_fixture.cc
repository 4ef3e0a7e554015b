// Test fixture for privbench.results (python/src/privbench/results.py):
// writes a small result file with the writer every study uses
// (results/h5_file.h), so that the Python reader is tested on the real
// layout: /meta, a summary table with float, int and string columns, two
// claims, and raw data (a 2-D dataset and a scalar).
//
//   results_fixture <output.h5>
#include <cstdio>
#include <string>
#include <vector>

#include "core/result.h"
#include "results/h5_file.h"

namespace privbench {
namespace {

Status Write(const std::string& path) {
  RunMeta meta;
  meta.study = "python_fixture";
  meta.paper = "none (test fixture of the Python reader)";
  meta.section = "-";
  meta.description = "fixture for //python:privbench_test";
  meta.config_text = "n = 3";
  meta.scale = "test";
  meta.seed = 7;
  meta.command_line = "results_fixture";
  PB_ASSIGN_OR_RETURN(auto writer, ResultWriter::Create(path, meta));
  SummaryTable table;
  table.name = "widths";
  table.title = "Fixture table";
  table.caption = "three rows";
  table.columns = {Column::Strings("method", {"clopper_pearson", "jeffreys", "bayesian"}),
                   Column::Ints("n", {100, 200, 300}),
                   Column::Doubles("width", {0.5, 0.25, 0.125})};
  PB_RETURN_IF_ERROR(writer->WriteTable(table));
  PB_RETURN_IF_ERROR(
      writer->WriteClaim({"narrowest", "Bayesian is narrowest", "fixture", true, "0.125 < 0.25"}));
  PB_RETURN_IF_ERROR(
      writer->WriteClaim({"widest", "CP is widest by 3x", "fixture", false, "0.5 / 0.125 = 4"}));
  PB_RETURN_IF_ERROR(writer->WriteDoubles("/raw/eps_lo", {1, 2, 3, 4, 5, 6}, {2, 3}));
  PB_RETURN_IF_ERROR(writer->WriteScalar("/raw/total", 21.0));
  return writer->Commit();
}

}  // namespace
}  // namespace privbench

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: results_fixture <output.h5>\n");
    return 2;
  }
  const privbench::Status s = privbench::Write(argv[1]);
  if (!s.ok()) {
    std::fprintf(stderr, "results_fixture: %s\n", s.message().c_str());
    return 1;
  }
  return 0;
}
