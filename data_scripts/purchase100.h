// Purchase-100 as published by Shokri et al. (2017) (privacytrustlab
// "dataset_purchase"): 197,324 shoppers x 600 binary features (bought item
// j or not), 100 classes from k-means clustering of the purchase vectors.
// Used by experiments/region_of_privacy/README.md (J&E's logistic regression, 10,000 training
// records) and C3 (Epsilon* Fig. 1) when the real data is available; the
// offline stand-in is purchase100_surrogate.h.
//
// File: <dir>/dataset_purchase, one record per line: "label,x1,...,x600"
// with label in 1..100 and x in {0, 1}; fetched and checked by
// data_scripts/download_purchase100.py, which also writes <dir>/SHA256SUMS.
//
// Checksum: no digest of dataset_purchase(.tgz) is published by its authors
// or pinned by the projects that use it (searched: ML Privacy Meter,
// EvaluatingDPML and others), so verification is TRUST-ON-FIRST-USE: the
// download script records the SHA-256 of what it fetched in SHA256SUMS and
// this loader refuses a file that no longer matches it (or
// Purchase100Options::expected_sha256, when given). Structure is checked
// strictly: exactly `expected_rows` lines (197,324), 601 fields each, labels
// 1..100 with every class present, features exactly "0" or "1".
//
// Split: rows are shuffled with `seed` (Boost.Random Fisher-Yates on
// DeriveSeed(seed, {0})) and cut into n_train training and n_population
// population rows. Epsilon* §4.1 used 208,731 / 102,809 rows of a ~311k
// version of Purchase-100 that is not the published 197,324-row file; the
// default split keeps Epsilon*'s ratio (n_train = round(197,324 * 208,731 /
// 311,540) = 132,207, population the remaining 65,117).
#ifndef PRIVBENCH_DATA_SCRIPTS_PURCHASE100_H_
#define PRIVBENCH_DATA_SCRIPTS_PURCHASE100_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "data_scripts/data_files.h"
#include "data_scripts/dataset.h"

namespace privbench {

inline constexpr int64_t kPurchase100Rows = 197324;
inline constexpr const char* kPurchase100File = "dataset_purchase";
inline constexpr const char* kPurchase100Manifest = "SHA256SUMS";

struct Purchase100Options {
  // Directory with dataset_purchase and SHA256SUMS (a program's flag);
  // empty: PRIVBENCH_DATA_DIR (<dir>/purchase100 or <dir>). There is no
  // default place (the file is neither in the repository nor in a Debian
  // package).
  std::string data_dir;
  // The flag that sets data_dir, named in errors.
  std::string data_dir_flag = kDefaultDataDirFlag;
  int64_t n_train = -1;       // -1: Epsilon*'s ratio of the rows
  int64_t n_population = -1;  // -1: all rows not used for training
  uint64_t seed = 0;          // split shuffle
  int64_t expected_rows = kPurchase100Rows;
  // SHA-256 the file must have; empty: the SHA256SUMS entry.
  std::string expected_sha256;
};

// provenance "purchase100-shokri".
Result<Dataset> LoadPurchase100(const Purchase100Options& options = {});

// True if a dataset_purchase file exists where LoadPurchase100 looks (the
// given directory, else PRIVBENCH_DATA_DIR). Studies choose the
// real data or the surrogate with this: when the file is present, every
// error of LoadPurchase100 (corrupt file, digest mismatch, malformed line,
// missing manifest) is fatal; only absence falls back to the surrogate.
bool Purchase100Present(const Purchase100Options& options = {});

// Parses dataset_purchase text into row-major bytes (n x 600, 0/1) and
// 0-based labels. Checks every line; does not check the row count.
Status ParsePurchase100(std::string_view text, std::string_view file_name,
                        std::vector<uint8_t>* features, std::vector<int64_t>* labels);

// The digest recorded for `file_name` in sha256sum-format text
// ("<64 hex>  <name>" or "<64 hex> *<name>" per line); error if absent or
// malformed.
Result<std::string> ManifestDigest(std::string_view manifest, std::string_view file_name);

}  // namespace privbench

#endif  // PRIVBENCH_DATA_SCRIPTS_PURCHASE100_H_
