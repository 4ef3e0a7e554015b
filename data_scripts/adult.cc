#include "data_scripts/adult.h"

#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>

#include "data_scripts/idx.h"

namespace privbench {

namespace {

constexpr int kFields = 15;
// Column positions in the UCI files (adult.names).
constexpr std::array<int, kAdultNumericColumns> kNumericIndex = {0, 2, 4, 10, 11, 12};
constexpr std::array<const char*, kAdultNumericColumns> kNumericNames = {
    "age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week"};
constexpr std::array<int, kAdultCategoricalColumns> kCategoricalIndex = {1, 3, 5, 6, 7, 8, 9, 13};
const std::array<std::string, kAdultCategoricalColumns>& CategoricalNames() {
  static const std::array<std::string, kAdultCategoricalColumns> names = {
      "workclass", "education", "marital-status", "occupation", "relationship",
      "race",      "sex",       "native-country"};
  return names;
}
constexpr int kLabelIndex = 14;

constexpr const char* kRemedy =
    "re-download it with `/usr/bin/python3 data_scripts/download_adult.py --target-dir DIR`";
constexpr const char* kHowToGet =
    "fetch the files with `/usr/bin/python3 data_scripts/download_adult.py --target-dir DIR`";
// data_scripts/adult/ inside a binary's runfiles tree (workspace "privbench").
constexpr const char* kVendoredRunfilesPath = "privbench/data_scripts/adult";

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

std::string Quote(std::string_view s) {
  constexpr size_t kMax = 40;
  std::string out = "'" + std::string(s.substr(0, kMax)) + "'";
  if (s.size() > kMax) out += "...";
  return out;
}

}  // namespace

Result<std::vector<AdultRecord>> ParseAdultFile(std::string_view text, std::string_view file_name,
                                                bool is_test_file) {
  const std::string file(file_name);
  const std::string positive = is_test_file ? ">50K." : ">50K";
  const std::string negative = is_test_file ? "<=50K." : "<=50K";
  std::vector<AdultRecord> records;
  int64_t line_number = 0;
  int64_t first_blank_line = 0;  // first blank line of the current blank run
  size_t pos = 0;
  std::vector<std::string_view> fields;
  fields.reserve(kFields + 1);
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (is_test_file && line_number == 1 && !line.empty() && line.front() == '|') continue;
    if (Trim(line).empty()) {
      if (first_blank_line == 0) first_blank_line = line_number;
      continue;
    }
    if (first_blank_line != 0) {
      return Error(file + " line " + std::to_string(first_blank_line) +
                   ": blank line inside the data (blank lines may only end the file)");
    }
    const std::string where = file + " line " + std::to_string(line_number) + ": ";
    fields.clear();
    size_t start = 0;
    while (true) {
      const size_t comma = line.find(',', start);
      if (comma == std::string_view::npos) {
        fields.push_back(Trim(line.substr(start)));
        break;
      }
      fields.push_back(Trim(line.substr(start, comma - start)));
      start = comma + 1;
    }
    if (fields.size() != kFields) {
      return Error(where + "expected " + std::to_string(kFields) + " comma-separated fields, got " +
                   std::to_string(fields.size()));
    }
    AdultRecord r;
    for (int c = 0; c < kAdultNumericColumns; ++c) {
      const std::string_view f = fields[kNumericIndex[c]];
      int64_t value = 0;
      const auto res = std::from_chars(f.data(), f.data() + f.size(), value);
      if (f.empty() || res.ec != std::errc() || res.ptr != f.data() + f.size()) {
        return Error(where + kNumericNames[c] + " must be an integer, got " + Quote(f));
      }
      if (value < 0) {
        return Error(where + kNumericNames[c] + " must be >= 0, got " + std::to_string(value));
      }
      r.numeric[c] = static_cast<double>(value);
    }
    for (int c = 0; c < kAdultCategoricalColumns; ++c) {
      const std::string_view f = fields[kCategoricalIndex[c]];
      if (f.empty()) return Error(where + CategoricalNames()[c] + " is empty");
      r.categorical[c] = std::string(f);
    }
    const std::string_view label = fields[kLabelIndex];
    if (label == positive) {
      r.label = 1;
    } else if (label == negative) {
      r.label = 0;
    } else {
      return Error(where + "income must be '" + negative + "' or '" + positive + "', got " +
                   Quote(label));
    }
    records.push_back(std::move(r));
  }
  return records;
}

namespace {

Result<std::vector<AdultRecord>> ReadVerifyParse(const std::string& dir, const std::string& name,
                                                 const PinnedDigests& digests, bool is_test,
                                                 int64_t expected_rows, bool gzipped,
                                                 std::string* checksums) {
  const std::string path = JoinPath(dir, gzipped ? name + ".gz" : name);
  PB_ASSIGN_OR_RETURN(std::string bytes, ReadFileBytes(path));
  if (gzipped) {
    // The vendored copy: the pinned digests are those of the decompressed file.
    PB_ASSIGN_OR_RETURN(bytes, Gunzip(bytes, path, int64_t{64} << 20));
  }
  PB_RETURN_IF_ERROR(VerifyDigests(name, path, bytes, digests, kRemedy));
  PB_ASSIGN_OR_RETURN(const ComputedDigests computed, ComputeDigests(bytes));
  checksums->append(DescribeDigests(name, computed) + " (verified)\n");
  PB_ASSIGN_OR_RETURN(auto records, ParseAdultFile(bytes, name, is_test));
  if (static_cast<int64_t>(records.size()) != expected_rows) {
    return Error(name + ": expected " + std::to_string(expected_rows) + " records, got " +
                 std::to_string(records.size()));
  }
  return records;
}

// The directory LoadAdult reads and whether it holds the gzip copy.
struct AdultFiles {
  std::string dir;
  bool gzipped = false;
};

// A named directory (options.data_dir, PRIVBENCH_DATA_DIR) holds the plain
// UCI files; the default is the vendored gzip copy.
Result<AdultFiles> FindAdultFiles(const AdultOptions& options) {
  DataDirSearch search;
  search.name = "adult";
  search.explicit_dir = options.data_dir;
  search.flag = options.data_dir_flag;
  search.how_to_get = kHowToGet;
  AdultFiles files;
  files.gzipped = options.data_dir.empty() && !DataDirEnvironmentSet();
  if (files.gzipped) {
    search.required_files = {"adult.data.gz", "adult.test.gz"};
    search.defaults = options.vendored_dirs;
  } else {
    search.required_files = {"adult.data", "adult.test"};
  }
  PB_ASSIGN_OR_RETURN(files.dir, FindDataDir(search));
  return files;
}

}  // namespace

std::vector<std::string> VendoredAdultDirs() {
  std::vector<std::string> dirs;
  if (const char* runfiles = std::getenv("RUNFILES_DIR"); runfiles != nullptr && *runfiles) {
    dirs.push_back(JoinPath(runfiles, kVendoredRunfilesPath));
  }
  char exe[4096];
  if (const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof(exe) - 1); n > 0) {
    dirs.push_back(
        JoinPath(std::string(exe, static_cast<size_t>(n)) + ".runfiles", kVendoredRunfilesPath));
  }
  if (const char* ws = std::getenv("BUILD_WORKSPACE_DIRECTORY"); ws != nullptr && *ws != '\0') {
    dirs.push_back(JoinPath(ws, "data_scripts/adult"));
  }
  dirs.push_back("data_scripts/adult");  // the working directory of `bazel test`
  return dirs;
}

Result<AdultRecords> LoadAdultRecords(const AdultOptions& options) {
  PB_ASSIGN_OR_RETURN(const AdultFiles files, FindAdultFiles(options));
  AdultRecords r;
  r.source = files.gzipped ? files.dir + " (vendored gzip copy)" : files.dir;
  PB_ASSIGN_OR_RETURN(r.train,
                      ReadVerifyParse(files.dir, "adult.data", options.train_digests, false,
                                      kAdultTrainRows, files.gzipped, &r.checksums));
  PB_ASSIGN_OR_RETURN(r.test, ReadVerifyParse(files.dir, "adult.test", options.test_digests, true,
                                              kAdultPopulationRows, files.gzipped, &r.checksums));
  return r;
}

Result<Dataset> LoadAdult(const AdultOptions& options) {
  PB_ASSIGN_OR_RETURN(AdultRecords records, LoadAdultRecords(options));
  Dataset d;
  d.name = "adult";
  d.provenance = "uci-adult";
  d.source = std::move(records.source);
  d.checksums = std::move(records.checksums);
  const std::vector<AdultRecord>& train = records.train;
  const std::vector<AdultRecord>& test = records.test;

  // Standardisation parameters from the training rows (two-pass, double).
  std::array<double, kAdultNumericColumns> mean{}, sd{};
  for (const auto& r : train) {
    for (int c = 0; c < kAdultNumericColumns; ++c) mean[c] += r.numeric[c];
  }
  for (int c = 0; c < kAdultNumericColumns; ++c) mean[c] /= static_cast<double>(train.size());
  for (const auto& r : train) {
    for (int c = 0; c < kAdultNumericColumns; ++c) {
      const double dev = r.numeric[c] - mean[c];
      sd[c] += dev * dev;
    }
  }
  for (int c = 0; c < kAdultNumericColumns; ++c) {
    sd[c] = std::sqrt(sd[c] / static_cast<double>(train.size()));
    if (!(sd[c] > 0.0)) {
      return Error(std::string("adult.data: ") + kNumericNames[c] +
                   " is constant in the training rows; cannot standardise");
    }
  }

  // Categories from the training rows, sorted (std::map order).
  std::array<std::map<std::string, int64_t>, kAdultCategoricalColumns> category_index;
  for (const auto& r : train) {
    for (int c = 0; c < kAdultCategoricalColumns; ++c) category_index[c][r.categorical[c]] = 0;
  }
  for (int c = 0; c < kAdultNumericColumns; ++c) d.feature_names.push_back(kNumericNames[c]);
  std::array<int64_t, kAdultCategoricalColumns> offset{};
  int64_t next = kAdultNumericColumns;
  for (int c = 0; c < kAdultCategoricalColumns; ++c) {
    offset[c] = next;
    for (auto& [value, index] : category_index[c]) {
      index = next++;
      d.feature_names.push_back(CategoricalNames()[c] + "=" + value);
    }
  }
  d.num_features = next;
  d.num_classes = 2;

  int64_t unseen = 0;
  std::array<int64_t, kAdultCategoricalColumns> unseen_by_column{};
  auto encode = [&](const std::vector<AdultRecord>& rows, std::vector<float>* x,
                    std::vector<int64_t>* y, bool count_unseen) {
    x->assign(rows.size() * static_cast<size_t>(d.num_features), 0.0f);
    y->resize(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      float* row = x->data() + i * d.num_features;
      for (int c = 0; c < kAdultNumericColumns; ++c) {
        row[c] = static_cast<float>((rows[i].numeric[c] - mean[c]) / sd[c]);
      }
      for (int c = 0; c < kAdultCategoricalColumns; ++c) {
        const auto it = category_index[c].find(rows[i].categorical[c]);
        if (it == category_index[c].end()) {
          if (count_unseen) {
            ++unseen;
            ++unseen_by_column[c];
          }
          continue;
        }
        row[it->second] = 1.0f;
      }
      (*y)[i] = rows[i].label;
    }
  };
  encode(train, &d.train_x, &d.train_y, false);
  encode(test, &d.population_x, &d.population_y, true);

  d.notes.push_back("train = adult.data (32,561 rows), population = adult.test (16,281 rows)");
  d.notes.push_back("label 1 = income >50K");
  d.notes.push_back(
      "numeric columns standardised with the training mean and sd (divisor n); categoricals "
      "one-hot with training categories sorted by byte value; '?' kept as its own category");
  std::string unseen_note =
      "population values of categories unseen in training (encoded as "
      "all zeros): " +
      std::to_string(unseen);
  for (int c = 0; c < kAdultCategoricalColumns; ++c) {
    if (unseen_by_column[c] > 0) {
      unseen_note += "; " + CategoricalNames()[c] + ": " + std::to_string(unseen_by_column[c]);
    }
  }
  d.notes.push_back(unseen_note);
  PB_RETURN_IF_ERROR(CheckDataset(d));
  return d;
}

}  // namespace privbench
