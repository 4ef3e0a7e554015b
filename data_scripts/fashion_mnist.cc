#include "data_scripts/fashion_mnist.h"

#include <array>

#include "data_scripts/data_files.h"
#include "data_scripts/idx.h"

namespace privbench {

namespace {

struct FileSpec {
  const char* name;              // without .gz
  int rank;                      // IDX rank: 3 images, 1 labels
  int64_t rows;                  // first dimension
  PinnedDigests payload;         // decompressed IDX: SHA-256 (ours), MD5 (upstream)
  const char* debian_gz_sha256;  // dataset-fashion-mnist 0.0~git20200523.55506a9-1
  const char* zalando_gz_md5;    // github.com/zalandoresearch/fashion-mnist README
};

const std::array<FileSpec, 4>& Specs() {
  static const std::array<FileSpec, 4> specs = {{
      {"train-images-idx3-ubyte",
       3,
       kFashionMnistTrainRows,
       {"c59f468a2f672dc815687fe0f83887768d799fd8a3f3276145d20f83aa44d888",
        "f4a8712d7a061bf5bd6d2ca38dc4d50a"},
       "b0564c3eedabfbf835052cff8503ea422014ce006caf5b757f851416ee8300c7",
       "8d4fb7e6c68d591d4c3dfef9ec88bf0d"},
      {"train-labels-idx1-ubyte",
       1,
       kFashionMnistTrainRows,
       {"bad3541b69d912435c50bb6ba87bec294ff4f6a2e1246121d8633921760443d9",
        "9018921c3c673c538a1fc5bad174d6f9"},
       "0ae29f65d86684f32d1b9c85147786c547b9c6aebcaf235f0400a0cce308b056",
       "25c81989df183df01b3e8a0aad5dffbe"},
      {"t10k-images-idx3-ubyte",
       3,
       kFashionMnistPopulationRows,
       {"5b4141f0afbad91edebe8549f8fcffe087ea10ca49f1dbef5c9a5cd8815ce37b",
        "8181f5470baa50b63fa0f6fddb340f0a"},
       "cc1d090a38ace84dfa1aa66e3ada7c336ef481a96936906477e6dd344da56eaa",
       "bef4ecab320f06d8554ea6380940ec79"},
      {"t10k-labels-idx1-ubyte",
       1,
       kFashionMnistPopulationRows,
       {"0402a96d92fd2663957122ceb108a494c5af83dab82d92729df917d7dec38c34",
        "15d484375f8d13e6eb1aabb0c3f46965"},
       "8d3605d196f4be44669e46906da9733c8131fef761fdbfec72c424d5222f1a05",
       "bb300cfdad3c16e7a12a480ee83cd310"},
  }};
  return specs;
}

constexpr const char* kRemedy =
    "reinstall the Debian package (apt-get install --reinstall dataset-fashion-mnist) or "
    "re-download the files from github.com/zalandoresearch/fashion-mnist";

Result<IdxArray> LoadFile(const std::string& dir, const FileSpec& spec, std::string* checksums) {
  const std::string gz_name = std::string(spec.name) + ".gz";
  const std::string path = JoinPath(dir, gz_name);
  PB_ASSIGN_OR_RETURN(std::string gz, ReadFileBytes(path));
  PB_ASSIGN_OR_RETURN(const ComputedDigests gz_digests, ComputeDigests(gz));
  PB_ASSIGN_OR_RETURN(std::string payload, Gunzip(gz, path));
  PB_RETURN_IF_ERROR(VerifyDigests(std::string(spec.name) + " (decompressed " + gz_name + ")", path,
                                   payload, spec.payload, kRemedy));
  std::string packaging = "unrecognised .gz packaging";
  if (gz_digests.sha256 == spec.debian_gz_sha256) packaging = "Debian dataset-fashion-mnist .gz";
  if (gz_digests.md5 == spec.zalando_gz_md5) packaging = "Zalando original .gz";
  checksums->append(std::string(spec.name) + " payload sha256=" + spec.payload.sha256 +
                    " md5=" + spec.payload.md5 + " (verified); " + gz_name +
                    " sha256=" + gz_digests.sha256 + " (" + packaging + ")\n");
  PB_ASSIGN_OR_RETURN(IdxArray idx, ParseIdxUbyte(payload, gz_name, spec.rank));
  if (idx.dims[0] != spec.rows ||
      (spec.rank == 3 && (idx.dims[1] != kFashionMnistSide || idx.dims[2] != kFashionMnistSide))) {
    std::string shape;
    for (size_t r = 0; r < idx.dims.size(); ++r) {
      shape += (r ? " x " : "") + std::to_string(idx.dims[r]);
    }
    return Error(gz_name + ": dimensions " + shape + ", expected " + std::to_string(spec.rows) +
                 (spec.rank == 3 ? " x 28 x 28" : ""));
  }
  return idx;
}

}  // namespace

Result<Dataset> LoadFashionMnist(const FashionMnistOptions& options) {
  std::vector<std::string> required;
  for (const auto& spec : Specs()) required.push_back(std::string(spec.name) + ".gz");
  DataDirSearch search;
  search.name = "fashion-mnist";
  search.explicit_dir = options.data_dir;
  search.flag = options.data_dir_flag;
  search.required_files = required;
  search.defaults = {kFashionMnistDebianDir};
  search.how_to_get =
      "or install Debian's dataset-fashion-mnist package, or put the four .gz files from "
      "github.com/zalandoresearch/fashion-mnist in DIR";
  PB_ASSIGN_OR_RETURN(const std::string dir, FindDataDir(search));
  Dataset d;
  d.name = "fashion-mnist";
  d.provenance = "fashion-mnist";
  d.source = dir;
  d.num_features = kFashionMnistSide * kFashionMnistSide;
  d.num_classes = 10;
  std::array<IdxArray, 4> files;
  for (size_t i = 0; i < files.size(); ++i) {
    PB_ASSIGN_OR_RETURN(files[i], LoadFile(dir, Specs()[i], &d.checksums));
  }
  auto fill = [&](const IdxArray& images, const IdxArray& labels, const char* label_file,
                  std::vector<float>* x, std::vector<int64_t>* y) -> Status {
    x->resize(images.data.size());
    float* out = x->data();
    for (size_t i = 0; i < images.data.size(); ++i) out[i] = images.data[i] / 255.0f;
    y->resize(labels.data.size());
    for (size_t i = 0; i < labels.data.size(); ++i) {
      if (labels.data[i] >= 10) {
        return Error(std::string(label_file) + ": label " + std::to_string(i) +
                     " must be in [0, 10), got " + std::to_string(labels.data[i]));
      }
      (*y)[i] = labels.data[i];
    }
    return Status::Ok();
  };
  PB_RETURN_IF_ERROR(
      fill(files[0], files[1], "train-labels-idx1-ubyte.gz", &d.train_x, &d.train_y));
  PB_RETURN_IF_ERROR(
      fill(files[2], files[3], "t10k-labels-idx1-ubyte.gz", &d.population_x, &d.population_y));
  d.notes.push_back("train = 60,000 training images, population = 10,000 test images");
  d.notes.push_back("pixels row-major 28 x 28, scaled to [0, 1] as byte / 255");
  PB_RETURN_IF_ERROR(CheckDataset(d));
  return d;
}

}  // namespace privbench
