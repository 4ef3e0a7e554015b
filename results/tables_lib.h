// Rendering of study result files as Markdown and CSV. Pure
// functions of the HDF5 files: /meta provenance, every /summary/<table>,
// every /claims/<id>.
#ifndef PRIVBENCH_RESULTS_TABLES_LIB_H_
#define PRIVBENCH_RESULTS_TABLES_LIB_H_

#include <string>

#include "core/result.h"
#include "results/h5_file.h"

namespace privbench {

// "1.234", "0.0001235", "4.5e+08", "inf".
std::string FormatCell(double x);

std::string TableMarkdown(const SummaryTable& table);
std::string TableCsv(const SummaryTable& table);

// The whole study: provenance, tables, claims.
Result<std::string> StudyMarkdown(const ResultReader& file);

}  // namespace privbench

#endif  // PRIVBENCH_RESULTS_TABLES_LIB_H_
