#include "data_scripts/categorical_testing.h"

namespace privbench {

CategoricalDomain NumberedDomain(const std::vector<int32_t>& sizes,
                                 const std::string& label_prefix) {
  CategoricalDomain domain;
  domain.sizes = sizes;
  for (size_t j = 0; j < sizes.size(); ++j) {
    domain.names.push_back("a" + std::to_string(j));
    domain.labels.emplace_back();
    for (int32_t v = 0; v < sizes[j]; ++v) {
      domain.labels.back().push_back(label_prefix + std::to_string(v));
    }
  }
  return domain;
}

CategoricalTable TableOf(int64_t d, const std::vector<std::vector<int32_t>>& rows) {
  CategoricalTable table;
  table.d = d;
  for (const std::vector<int32_t>& row : rows) table.Append(row);
  return table;
}

}  // namespace privbench
