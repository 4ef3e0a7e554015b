// Test helper of the studies' report tests: write a report into the test's
// temporary directory with a callback, commit it and open it again, so a
// test can read back the datasets, tables and claims a WriteReport wrote.
#ifndef PRIVBENCH_RESULTS_REPORT_FILE_TESTING_H_
#define PRIVBENCH_RESULTS_REPORT_FILE_TESTING_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "results/h5_file.h"

namespace privbench::testing {

// <$TEST_TMPDIR or /tmp>/<name>.h5 written by write(writer) (a study's
// WriteReport), committed and opened; nullptr (after a test failure naming
// the step) if any step fails.
template <typename Write>
std::unique_ptr<ResultReader> WriteAndReadBack(const std::string& study, const std::string& name,
                                               Write write) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(tmp ? tmp : "/tmp") + "/" + name + ".h5";
  RunMeta meta;
  meta.study = study;
  auto w = ResultWriter::Create(path, meta);
  EXPECT_TRUE(w.ok()) << w.message();
  if (!w.ok()) return nullptr;
  const Status written = write(**w);
  EXPECT_TRUE(written.ok()) << written.message();
  const Status committed = (*w)->Commit();
  EXPECT_TRUE(committed.ok()) << committed.message();
  if (!written.ok() || !committed.ok()) return nullptr;
  auto r = ResultReader::Open(path);
  EXPECT_TRUE(r.ok()) << r.message();
  if (!r.ok()) return nullptr;
  return std::move(r).value();
}

// The column names of a summary table, in order.
inline std::vector<std::string> ColumnNames(const SummaryTable& table) {
  std::vector<std::string> names;
  for (const Column& c : table.columns) names.push_back(c.name);
  return names;
}

}  // namespace privbench::testing

#endif  // PRIVBENCH_RESULTS_REPORT_FILE_TESTING_H_
