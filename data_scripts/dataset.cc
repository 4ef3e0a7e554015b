#include "data_scripts/dataset.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/validate.h"

namespace privbench {

namespace {
Status CheckSplit(const char* split, const std::vector<float>& x, const std::vector<int64_t>& y,
                  const Dataset& d) {
  const auto n = static_cast<int64_t>(y.size());
  if (static_cast<int64_t>(x.size()) != n * d.num_features) {
    return Error(std::string(split) + "_x has " + std::to_string(x.size()) + " values, expected " +
                 std::to_string(n) + " rows x " + std::to_string(d.num_features) + " features");
  }
  for (int64_t i = 0; i < n; ++i) {
    if (y[i] < 0 || y[i] >= d.num_classes) {
      return Error(std::string(split) + "_y[" + std::to_string(i) + "] must be in [0, " +
                   std::to_string(d.num_classes) + "), got " + std::to_string(y[i]));
    }
  }
  for (size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i])) {
      return Error(std::string(split) + "_x[" + std::to_string(i) + "] must be finite, got " +
                   FormatDouble(x[i]));
    }
  }
  return Status::Ok();
}
}  // namespace

Status CheckDataset(const Dataset& d) {
  if (d.provenance.empty()) return Error("dataset provenance must be set");
  PB_RETURN_IF_ERROR(CheckPositiveCount("num_features", d.num_features));
  PB_RETURN_IF_ERROR(CheckPositiveCount("num_classes", d.num_classes));
  if (!d.feature_names.empty() && static_cast<int64_t>(d.feature_names.size()) != d.num_features) {
    return Error("feature_names has " + std::to_string(d.feature_names.size()) +
                 " entries, expected " + std::to_string(d.num_features));
  }
  PB_RETURN_IF_ERROR(CheckSplit("train", d.train_x, d.train_y, d));
  PB_RETURN_IF_ERROR(CheckSplit("population", d.population_x, d.population_y, d));
  return Status::Ok();
}

std::vector<int64_t> LabelCounts(const std::vector<int64_t>& labels, int64_t num_classes) {
  std::vector<int64_t> counts(static_cast<size_t>(std::max<int64_t>(num_classes, 0)), 0);
  for (int64_t y : labels) {
    if (y >= 0 && y < num_classes) ++counts[static_cast<size_t>(y)];
  }
  return counts;
}

Result<Dataset> HeadSubset(const Dataset& d, int64_t n_train, int64_t n_population) {
  PB_RETURN_IF_ERROR(CheckNonNegativeCount("n_train", n_train));
  PB_RETURN_IF_ERROR(CheckNonNegativeCount("n_population", n_population));
  if (n_train > d.n_train()) {
    return Error("n_train must be <= " + std::to_string(d.n_train()) + " (rows in " + d.name +
                 " train), got " + std::to_string(n_train));
  }
  if (n_population > d.n_population()) {
    return Error("n_population must be <= " + std::to_string(d.n_population()) + " (rows in " +
                 d.name + " population), got " + std::to_string(n_population));
  }
  Dataset out;
  out.name = d.name;
  out.provenance = d.provenance;
  out.is_surrogate = d.is_surrogate;
  out.num_features = d.num_features;
  out.num_classes = d.num_classes;
  out.train_x.assign(d.train_x.begin(), d.train_x.begin() + n_train * d.num_features);
  out.train_y.assign(d.train_y.begin(), d.train_y.begin() + n_train);
  out.population_x.assign(d.population_x.begin(),
                          d.population_x.begin() + n_population * d.num_features);
  out.population_y.assign(d.population_y.begin(), d.population_y.begin() + n_population);
  out.feature_names = d.feature_names;
  out.source = d.source;
  out.checksums = d.checksums;
  out.notes = d.notes;
  out.notes.push_back("head subset: first " + std::to_string(n_train) + " train and " +
                      std::to_string(n_population) + " population rows");
  return out;
}

namespace {
void DescribeSplit(std::ostringstream& os, const char* split, const std::vector<float>& x,
                   const std::vector<int64_t>& y, int64_t num_classes) {
  const auto counts = LabelCounts(y, num_classes);
  int64_t min_count = counts.empty() ? 0 : *std::min_element(counts.begin(), counts.end());
  int64_t max_count = counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
  double sum = 0.0, nonzero = 0.0;
  float lo = x.empty() ? 0.0f : x[0], hi = lo;
  for (float v : x) {
    sum += v;
    nonzero += (v != 0.0f);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  const double denom = x.empty() ? 1.0 : static_cast<double>(x.size());
  os << "  " << split << ": " << y.size() << " rows; label counts min " << min_count << " max "
     << max_count;
  if (num_classes == 2 && !y.empty()) {
    os << " (positive rate " << FormatDouble(static_cast<double>(counts[1]) / y.size()) << ")";
  }
  os << "; features mean " << FormatDouble(sum / denom) << ", nonzero fraction "
     << FormatDouble(nonzero / denom) << ", range [" << lo << ", " << hi << "]\n";
}
}  // namespace

std::string DescribeDataset(const Dataset& d) {
  std::ostringstream os;
  os << d.name << " [provenance: " << d.provenance << (d.is_surrogate ? ", SURROGATE" : "")
     << "]\n";
  os << "  features: " << d.num_features << ", classes: " << d.num_classes << "\n";
  DescribeSplit(os, "train", d.train_x, d.train_y, d.num_classes);
  DescribeSplit(os, "population", d.population_x, d.population_y, d.num_classes);
  os << "  source: " << d.source << "\n";
  if (!d.checksums.empty()) {
    std::istringstream lines(d.checksums);
    std::string line;
    while (std::getline(lines, line)) os << "  verified: " << line << "\n";
  }
  for (const auto& note : d.notes) os << "  note: " << note << "\n";
  return os.str();
}

}  // namespace privbench
