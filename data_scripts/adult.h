// UCI Adult (Becker & Kohavi 1996) as used by Epsilon* §4.1 and
// the Adult studies (experiments/<study>/README.md): the UCI split, 32,561 training rows
// (adult.data) and 16,281 population rows (adult.test), binary label income > 50K.
//
// Preprocessing (fitted on the training rows only, applied to both splits):
//  - the 6 numeric columns (age, fnlwgt, education-num, capital-gain,
//    capital-loss, hours-per-week) are standardised with the training mean
//    and the training standard deviation (population form, divisor n, as
//    sklearn's StandardScaler);
//  - the 8 categorical columns (workclass, education, marital-status,
//    occupation, relationship, race, sex, native-country) are one-hot
//    encoded with the categories seen in training, sorted by byte value;
//    a population value never seen in training is encoded as all zeros
//    (counted and reported in Dataset::notes; 0 for the UCI files);
//  - missing values "?" are kept as their own category ("workclass=?"),
//    not dropped, so the row counts stay the UCI ones.
// Feature order: the 6 numeric columns, then the one-hot blocks in column
// order: 6 + 102 = 108 features for the UCI files.
//
// File checks: both files must have the pinned SHA-256 and MD5 (the UCI
// originals; MD5s as published with the UCI files), every data line must
// have 15 comma-separated fields with integer numerics and a known label
// ("<=50K"/">50K" in adult.data, with a trailing period in adult.test), blank
// lines may only end a file, adult.test's first line "|1x3 Cross validator"
// is skipped, and the record counts must be exactly 32,561 and 16,281.
// Errors name the file and line:
//   "adult.data line 123: expected 15 comma-separated fields, got 14".
#ifndef PRIVBENCH_DATA_SCRIPTS_ADULT_H_
#define PRIVBENCH_DATA_SCRIPTS_ADULT_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "data_scripts/data_files.h"
#include "data_scripts/dataset.h"

namespace privbench {

inline constexpr int64_t kAdultTrainRows = 32561;
inline constexpr int64_t kAdultPopulationRows = 16281;
inline constexpr int kAdultNumericColumns = 6;
inline constexpr int kAdultCategoricalColumns = 8;

// Digests of the UCI originals (also those of the decompressed vendored copy
// in data_scripts/adult/).
inline PinnedDigests AdultTrainDigests() {
  return {"5b00264637dbfec36bdeaab5676b0b309ff9eb788d63554ca0a249491c86603d",
          "5d7c39d7b8804f071cdd1f2a7c460872"};
}
inline PinnedDigests AdultTestDigests() {
  return {"a2a9044bc167a35b2361efbabec64e89d69ce82d9790d2980119aac5fd7e9c05",
          "35238206dfdf7f1fe215bbb874adecdc"};
}

// Where the vendored copy data_scripts/adult/ is: in the runfiles of the
// running binary (a data dependency of //data_scripts:adult, so found by
// `bazel run`, `bazel test` and a binary started from bazel-bin/), and under
// $BUILD_WORKSPACE_DIRECTORY (`bazel run`).
std::vector<std::string> VendoredAdultDirs();

struct AdultOptions {
  // Directory holding adult.data and adult.test (a program's flag); empty:
  // PRIVBENCH_DATA_DIR, else the vendored gzip copy (data_files.h).
  std::string data_dir;
  // Digests the files must have. Leave at the UCI pins; tests override them
  // to load deliberately modified copies and reach the parser's checks.
  PinnedDigests train_digests = AdultTrainDigests();
  PinnedDigests test_digests = AdultTestDigests();
  // Where to look for adult.data.gz / adult.test.gz when neither data_dir
  // nor PRIVBENCH_DATA_DIR is given; their decompressed bytes must match
  // the same digests.
  std::vector<std::string> vendored_dirs = VendoredAdultDirs();
  // The flag that sets data_dir, named in errors.
  std::string data_dir_flag = kDefaultDataDirFlag;
};

// Loads, verifies and preprocesses Adult. provenance "uci-adult".
Result<Dataset> LoadAdult(const AdultOptions& options = {});

// One parsed line of adult.data / adult.test.
struct AdultRecord {
  std::array<double, kAdultNumericColumns> numeric;
  std::array<std::string, kAdultCategoricalColumns> categorical;
  int64_t label;  // 1 iff income > 50K
};

// The two files' parsed records, verified as LoadAdult verifies them (for
// loaders that encode Adult differently, e.g. adult_categorical.h).
struct AdultRecords {
  std::vector<AdultRecord> train;  // adult.data, 32,561 records
  std::vector<AdultRecord> test;   // adult.test, 16,281 records
  std::string source;              // directory read (and whether the vendored copy)
  std::string checksums;           // one "file sha256=... md5=... (verified)" line per file
};
Result<AdultRecords> LoadAdultRecords(const AdultOptions& options = {});

// Parses the text of one file (`file_name` is used in messages;
// `is_test_file` selects adult.test's comment line and label periods).
// Does not check the record count.
Result<std::vector<AdultRecord>> ParseAdultFile(std::string_view text, std::string_view file_name,
                                                bool is_test_file);

}  // namespace privbench

#endif  // PRIVBENCH_DATA_SCRIPTS_ADULT_H_
