// Test-only builders of small categorical domains and tables (see
// categorical.h), shared by the tests of the synthesizers, the attacks on
// synthetic data and the synthetic-data study.
#ifndef PRIVBENCH_DATA_SCRIPTS_CATEGORICAL_TESTING_H_
#define PRIVBENCH_DATA_SCRIPTS_CATEGORICAL_TESTING_H_

#include <cstdint>
#include <string>
#include <vector>

#include "data_scripts/categorical.h"

namespace privbench {

// Attributes "a0", "a1", ... with the given sizes; the values of attribute j
// are labelled label_prefix + "0", label_prefix + "1", ..., label_prefix +
// std::to_string(sizes[j] - 1).
CategoricalDomain NumberedDomain(const std::vector<int32_t>& sizes,
                                 const std::string& label_prefix = "");

// A table of d attributes holding `rows` in order (unchecked: see
// CheckTable).
CategoricalTable TableOf(int64_t d, const std::vector<std::vector<int32_t>>& rows);

}  // namespace privbench

#endif  // PRIVBENCH_DATA_SCRIPTS_CATEGORICAL_TESTING_H_
