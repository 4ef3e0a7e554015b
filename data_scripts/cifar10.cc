#include "data_scripts/cifar10.h"

#include <string_view>

#include "data_scripts/data_files.h"
#include "data_scripts/purchase100.h"  // ManifestDigest: the sha256sum-format record

namespace privbench {

namespace {

constexpr int64_t kRecordBytes = 1 + kCifar10Features;
constexpr const char* kArchive = "cifar-10-python.tar.gz";
constexpr const char* kRemedy =
    "re-create the files with `python3 data_scripts/download_cifar10.py DIR` (it verifies the "
    "official archive's published MD5 and converts it)";

DataDirSearch Cifar10Search(const Cifar10Options& options) {
  DataDirSearch search;
  search.name = "cifar10";
  search.explicit_dir = options.data_dir;
  search.flag = options.data_dir_flag;
  search.required_files = Cifar10Files();
  search.required_files.push_back(kCifar10Manifest);
  search.how_to_get = std::string("fetch, verify and convert CIFAR-10 with `") +
                      kCifar10DownloadCommand + "` and pass " + options.data_dir_flag + "=DIR";
  return search;
}

std::string WithCommas(int64_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
}

// The file's bytes, checked for size and against its SHA256SUMS entry.
Result<std::string> ReadChecked(const std::string& dir, const std::string& name,
                                std::string_view manifest, int64_t rows, std::string* checksums) {
  const std::string path = JoinPath(dir, name);
  PB_ASSIGN_OR_RETURN(std::string bytes, ReadFileBytes(path));
  const int64_t expected = rows * kRecordBytes;
  if (static_cast<int64_t>(bytes.size()) != expected) {
    return Error(name + " (" + path + "): " + WithCommas(static_cast<int64_t>(bytes.size())) +
                 " bytes, expected " + WithCommas(expected) + " (" + WithCommas(rows) +
                 " records of 1 label byte + 3,072 pixel bytes); truncated or not CIFAR-10's "
                 "binary layout; " +
                 kRemedy);
  }
  auto sha256 = ManifestDigest(manifest, name);
  if (!sha256.ok()) {
    return Error(JoinPath(dir, kCifar10Manifest) + ": " + sha256.message() + "; " + kRemedy);
  }
  PB_RETURN_IF_ERROR(VerifyDigests(name, path, bytes, {sha256.value(), ""}, kRemedy));
  checksums->append(name + " sha256=" + sha256.value() + " (verified against " + kCifar10Manifest +
                    ")\n");
  return bytes;
}

// Appends the records of one file: pixels / 255 and the label (0..9).
Status AppendRecords(const std::string& name, std::string_view bytes, std::vector<float>* x,
                     std::vector<int64_t>* y) {
  const int64_t rows = static_cast<int64_t>(bytes.size()) / kRecordBytes;
  const size_t start = x->size();
  x->resize(start + static_cast<size_t>(rows * kCifar10Features));
  float* out = x->data() + start;
  for (int64_t i = 0; i < rows; ++i) {
    const auto* record = reinterpret_cast<const unsigned char*>(bytes.data() + i * kRecordBytes);
    if (record[0] >= kCifar10Classes) {
      return Error(name + ": record " + std::to_string(i) + " has label " +
                   std::to_string(record[0]) + ", expected 0..9; " + kRemedy);
    }
    y->push_back(record[0]);
    for (int64_t j = 0; j < kCifar10Features; ++j) *out++ = record[1 + j] / 255.0f;
  }
  return Status::Ok();
}

Status LoadFile(const std::string& dir, const std::string& name, std::string_view manifest,
                int64_t rows, std::vector<float>* x, std::vector<int64_t>* y,
                std::string* checksums) {
  PB_ASSIGN_OR_RETURN(const std::string bytes, ReadChecked(dir, name, manifest, rows, checksums));
  return AppendRecords(name, bytes, x, y);
}

}  // namespace

std::vector<std::string> Cifar10Files() {
  std::vector<std::string> files;
  for (int64_t b = 1; b <= kCifar10TrainBatches; ++b) {
    files.push_back("data_batch_" + std::to_string(b) + ".bin");
  }
  files.push_back("test_batch.bin");
  return files;
}

Result<std::string> FindCifar10Dir(const Cifar10Options& options) {
  return FindDataDir(Cifar10Search(options));
}

Result<Dataset> LoadCifar10(const Cifar10Options& options) {
  if (options.rows_per_batch < 0) {
    return Error("rows_per_batch must be >= 0, got " + std::to_string(options.rows_per_batch));
  }
  const int64_t rows = options.rows_per_batch > 0 ? options.rows_per_batch : kCifar10RowsPerBatch;
  PB_ASSIGN_OR_RETURN(const std::string dir, FindCifar10Dir(options));
  PB_ASSIGN_OR_RETURN(const std::string manifest, ReadFileBytes(JoinPath(dir, kCifar10Manifest)));
  Dataset d;
  d.name = "cifar10";
  d.provenance = "cifar10";
  d.source = dir;
  d.num_features = kCifar10Features;
  d.num_classes = kCifar10Classes;
  if (auto archive = ManifestDigest(manifest, kArchive); archive.ok()) {
    d.checksums = std::string(kArchive) + " sha256=" + archive.value() + " (as recorded in " +
                  kCifar10Manifest + ")\n";
  }
  const std::vector<std::string> files = Cifar10Files();
  d.train_x.reserve(static_cast<size_t>(kCifar10TrainBatches * rows * kCifar10Features));
  for (size_t f = 0; f + 1 < files.size(); ++f) {
    PB_RETURN_IF_ERROR(
        LoadFile(dir, files[f], manifest, rows, &d.train_x, &d.train_y, &d.checksums));
  }
  d.population_x.reserve(static_cast<size_t>(rows * kCifar10Features));
  PB_RETURN_IF_ERROR(
      LoadFile(dir, files.back(), manifest, rows, &d.population_x, &d.population_y, &d.checksums));
  d.notes.push_back("train = data_batch_1..5 in file order (" + WithCommas(d.n_train()) +
                    " images), population = test_batch (" + WithCommas(d.n_population()) + ")");
  d.notes.push_back(
      "pixels channel-planar (R, G, B planes of 32 x 32, row-major), scaled to [0, 1] as "
      "byte / 255");
  PB_RETURN_IF_ERROR(CheckDataset(d));
  return d;
}

Status StandardizeCifar10Channels(std::vector<float>* rows) {
  const size_t plane = static_cast<size_t>(kCifar10Side * kCifar10Side);
  if (rows->size() % static_cast<size_t>(kCifar10Features) != 0) {
    return Error("CIFAR-10 rows must hold whole images of 3,072 values, got " +
                 std::to_string(rows->size()) + " values");
  }
  for (size_t i = 0; i < rows->size(); ++i) {
    const size_t channel = (i / plane) % static_cast<size_t>(kCifar10Channels);
    (*rows)[i] = static_cast<float>(((*rows)[i] - kCifar10ChannelMean[channel]) /
                                    kCifar10ChannelStd[channel]);
  }
  return Status::Ok();
}

}  // namespace privbench
