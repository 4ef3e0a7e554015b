#include "data_scripts/purchase100.h"

#include <algorithm>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "core/seeding.h"
#include "core/validate.h"
#include "data_scripts/data_files.h"
#include "data_scripts/purchase100_surrogate.h"

namespace privbench {

namespace {
constexpr int64_t kEpsilonStarTrain = 208731;
constexpr int64_t kEpsilonStarTotal = 208731 + 102809;
constexpr uint64_t kSplitStream = 0;
constexpr const char* kRemedy =
    "re-fetch it with `/usr/bin/python3 data_scripts/download_purchase100.py --target-dir DIR`";

bool IsHex64(std::string_view s) {
  if (s.size() != 64) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

// The directory search of LoadPurchase100 / Purchase100Present: the named
// directory or PRIVBENCH_DATA_DIR, no default place.
DataDirSearch Purchase100Search(const Purchase100Options& options,
                                std::vector<std::string> required_files) {
  DataDirSearch search;
  search.name = "purchase100";
  search.explicit_dir = options.data_dir;
  search.flag = options.data_dir_flag;
  search.required_files = std::move(required_files);
  search.how_to_get =
      "the real Purchase-100 cannot be downloaded offline: fetch it with "
      "`/usr/bin/python3 data_scripts/download_purchase100.py --target-dir DIR` where there is "
      "internet, or use MakePurchase100Surrogate";
  return search;
}
}  // namespace

Result<std::string> ManifestDigest(std::string_view manifest, std::string_view file_name) {
  size_t pos = 0;
  int line_number = 0;
  while (pos < manifest.size()) {
    size_t end = manifest.find('\n', pos);
    if (end == std::string_view::npos) end = manifest.size();
    std::string_view line = manifest.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    if (line.size() < 67 || !IsHex64(line.substr(0, 64)) || line[64] != ' ' ||
        (line[65] != ' ' && line[65] != '*')) {
      return Error(std::string(kPurchase100Manifest) + " line " + std::to_string(line_number) +
                   ": expected '<64 lower-case hex digits>  <file name>'");
    }
    if (line.substr(66) == file_name) return std::string(line.substr(0, 64));
  }
  return Error(std::string(kPurchase100Manifest) + " has no entry for " + std::string(file_name));
}

Status ParsePurchase100(std::string_view text, std::string_view file_name,
                        std::vector<uint8_t>* features, std::vector<int64_t>* labels) {
  const std::string file(file_name);
  features->clear();
  labels->clear();
  int64_t line_number = 0;
  int64_t first_blank_line = 0;
  size_t pos = 0;
  std::vector<uint8_t> row(kPurchase100Features);
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) {
      if (first_blank_line == 0) first_blank_line = line_number;
      continue;
    }
    if (first_blank_line != 0) {
      return Error(file + " line " + std::to_string(first_blank_line) +
                   ": blank line inside the data (blank lines may only end the file)");
    }
    const std::string where = file + " line " + std::to_string(line_number) + ": ";
    // Count fields first for a precise message.
    const int64_t fields = 1 + std::count(line.begin(), line.end(), ',');
    if (fields != 1 + kPurchase100Features) {
      return Error(where + "expected " + std::to_string(1 + kPurchase100Features) +
                   " comma-separated fields (label + 600 features), got " + std::to_string(fields));
    }
    const size_t comma = line.find(',');
    const std::string_view label_text = line.substr(0, comma);
    int64_t label = 0;
    bool label_ok = !label_text.empty() && label_text.size() <= 3;
    for (char c : label_text) {
      if (c < '0' || c > '9') label_ok = false;
      label = label * 10 + (c - '0');
    }
    if (!label_ok || label < 1 || label > kPurchase100Classes) {
      return Error(where + "label must be an integer in 1..100, got '" +
                   std::string(label_text.substr(0, 20)) + "'");
    }
    size_t p = comma + 1;
    for (int64_t j = 0; j < kPurchase100Features; ++j) {
      const size_t next = (j + 1 < kPurchase100Features) ? line.find(',', p) : line.size();
      const std::string_view f = line.substr(p, next - p);
      if (f == "1") {
        row[j] = 1;
      } else if (f == "0") {
        row[j] = 0;
      } else {
        return Error(where + "feature " + std::to_string(j + 1) + " must be 0 or 1, got '" +
                     std::string(f.substr(0, 20)) + "'");
      }
      p = next + 1;
    }
    features->insert(features->end(), row.begin(), row.end());
    labels->push_back(label - 1);
  }
  return Status::Ok();
}

Result<Dataset> LoadPurchase100(const Purchase100Options& options) {
  PB_RETURN_IF_ERROR(CheckPositiveCount("expected_rows", options.expected_rows));
  if (options.n_train < -1 || options.n_train == 0) {
    return Error("n_train must be >= 1 (or -1 for the default split), got " +
                 std::to_string(options.n_train));
  }
  if (options.n_population < -1) {
    return Error("n_population must be >= 0 (or -1 for the rest), got " +
                 std::to_string(options.n_population));
  }
  const int64_t rows = options.expected_rows;
  const int64_t n_train =
      options.n_train >= 0
          ? options.n_train
          : static_cast<int64_t>(
                std::llround(static_cast<double>(rows) * kEpsilonStarTrain / kEpsilonStarTotal));
  const int64_t n_population = options.n_population >= 0 ? options.n_population : rows - n_train;
  if (n_train + n_population > rows) {
    return Error("n_train + n_population must be <= " + std::to_string(rows) +
                 " (rows of Purchase-100), got " + std::to_string(n_train) + " + " +
                 std::to_string(n_population) +
                 "; Epsilon*'s 208,731 / 102,809 split needs more rows than the published "
                 "file has: scale it down or use the purchase100-surrogate");
  }

  const std::vector<std::string> required =
      options.expected_sha256.empty()
          ? std::vector<std::string>{kPurchase100File, kPurchase100Manifest}
          : std::vector<std::string>{kPurchase100File};
  PB_ASSIGN_OR_RETURN(const std::string dir, FindDataDir(Purchase100Search(options, required)));
  const std::string path = JoinPath(dir, kPurchase100File);
  std::string expected = options.expected_sha256;
  std::string expected_from = "given expected_sha256";
  if (expected.empty()) {
    PB_ASSIGN_OR_RETURN(std::string manifest, ReadFileBytes(JoinPath(dir, kPurchase100Manifest)));
    PB_ASSIGN_OR_RETURN(expected, ManifestDigest(manifest, kPurchase100File));
    expected_from = std::string("trust-on-first-use record in ") + kPurchase100Manifest;
  }
  PB_ASSIGN_OR_RETURN(std::string bytes, ReadFileBytes(path));
  PB_RETURN_IF_ERROR(VerifyDigests(kPurchase100File, path, bytes, {expected, ""}, kRemedy));

  std::vector<uint8_t> x;
  std::vector<int64_t> y;
  PB_RETURN_IF_ERROR(ParsePurchase100(bytes, kPurchase100File, &x, &y));
  bytes = std::string();  // release the text early
  if (static_cast<int64_t>(y.size()) != rows) {
    return Error(std::string(kPurchase100File) + ": expected " + std::to_string(rows) +
                 " records, got " + std::to_string(y.size()));
  }
  const auto counts = LabelCounts(y, kPurchase100Classes);
  const auto present = std::count_if(counts.begin(), counts.end(), [](int64_t c) { return c > 0; });
  if (present != kPurchase100Classes) {
    return Error(std::string(kPurchase100File) + ": only " + std::to_string(present) +
                 " of the 100 classes occur");
  }

  std::vector<int64_t> order(static_cast<size_t>(rows));
  std::iota(order.begin(), order.end(), 0);
  Rng rng = MakeRng(options.seed, {kSplitStream});
  for (int64_t i = rows - 1; i > 0; --i) {
    boost::random::uniform_int_distribution<int64_t> pick(0, i);
    std::swap(order[i], order[pick(rng)]);
  }
  Dataset d;
  d.name = "purchase100";
  d.provenance = "purchase100-shokri";
  d.num_features = kPurchase100Features;
  d.num_classes = kPurchase100Classes;
  auto take = [&](int64_t begin, int64_t n, std::vector<float>* out_x,
                  std::vector<int64_t>* out_y) {
    out_x->resize(static_cast<size_t>(n * kPurchase100Features));
    out_y->resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      const int64_t r = order[begin + i];
      std::copy(x.begin() + r * kPurchase100Features, x.begin() + (r + 1) * kPurchase100Features,
                out_x->begin() + i * kPurchase100Features);
      (*out_y)[i] = y[r];
    }
  };
  take(0, n_train, &d.train_x, &d.train_y);
  take(n_train, n_population, &d.population_x, &d.population_y);
  for (int64_t j = 0; j < kPurchase100Features; ++j) {
    char name[16];
    std::snprintf(name, sizeof(name), "item_%03d", static_cast<int>(j));
    d.feature_names.push_back(name);
  }
  d.source = dir;
  d.checksums = std::string(kPurchase100File) + " sha256=" + expected + " (verified against " +
                expected_from + "; no published digest exists)\n";
  d.notes.push_back("Shokri et al.'s Purchase-100: labels 1..100 shifted to 0..99");
  d.notes.push_back("split: shuffle with seed " + std::to_string(options.seed) + ", " +
                    std::to_string(n_train) + " train / " + std::to_string(n_population) +
                    " population of " + std::to_string(rows) + " rows");
  PB_RETURN_IF_ERROR(CheckDataset(d));
  return d;
}

bool Purchase100Present(const Purchase100Options& options) {
  return FindDataDir(Purchase100Search(options, {kPurchase100File})).ok();
}

}  // namespace privbench
