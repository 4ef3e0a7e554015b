// The in-memory dataset every privbench loader returns: a training set and a
// disjoint population (non-member) set of dense float features with integer
// class labels, plus where the data came from and which checksums were
// verified. Free of LibTorch on purpose (fast to compile); experiments copy
// train_x / population_x into tensors themselves.
//
// Membership-inference studies (C1-C4, D2, E1: experiments/<study>/README.md) train on `train`
// and use `population` as the non-members (Epsilon* §4.1's "non-training
// (population) set").
#ifndef PRIVBENCH_DATA_SCRIPTS_DATASET_H_
#define PRIVBENCH_DATA_SCRIPTS_DATASET_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace privbench {

struct Dataset {
  // Short name: "adult", "purchase100", "fashion-mnist".
  std::string name;
  // What the rows are, for every table and figure: "uci-adult",
  // "purchase100-shokri", "purchase100-surrogate", "fashion-mnist".
  std::string provenance;
  // True for synthetic stand-ins (purchase100-surrogate).
  bool is_surrogate = false;
  int64_t num_features = 0;
  int64_t num_classes = 0;
  // Row-major n x num_features.
  std::vector<float> train_x;
  std::vector<int64_t> train_y;  // in [0, num_classes)
  std::vector<float> population_x;
  std::vector<int64_t> population_y;
  // One name per feature column (may be empty, e.g. for image pixels).
  std::vector<std::string> feature_names;
  // Directory the files were read from, or the generator's parameters.
  std::string source;
  // What was verified, one "file sha256=... md5=..." entry per line.
  std::string checksums;
  // Preprocessing facts worth recording in result metadata.
  std::vector<std::string> notes;

  int64_t n_train() const { return static_cast<int64_t>(train_y.size()); }
  int64_t n_population() const { return static_cast<int64_t>(population_y.size()); }
  const float* train_row(int64_t i) const { return train_x.data() + i * num_features; }
  const float* population_row(int64_t i) const { return population_x.data() + i * num_features; }
};

// Shapes agree (x sizes = n * num_features, feature_names empty or
// num_features long), labels lie in [0, num_classes), features are finite,
// provenance is set. Loaders call it before returning.
Status CheckDataset(const Dataset& dataset);

// Count of each label in [0, num_classes).
std::vector<int64_t> LabelCounts(const std::vector<int64_t>& labels, int64_t num_classes);

// The first n_train training rows and n_population population rows (e.g. for
// smoke tests). Error if more are asked for than exist.
Result<Dataset> HeadSubset(const Dataset& dataset, int64_t n_train, int64_t n_population);

// Multi-line human-readable summary: shapes, provenance, class balance,
// feature density/range, checksums, notes.
std::string DescribeDataset(const Dataset& dataset);

}  // namespace privbench

#endif  // PRIVBENCH_DATA_SCRIPTS_DATASET_H_
