// CIFAR-10 (Alex Krizhevsky, "Learning Multiple Layers of Features from Tiny
// Images", technical report, University of Toronto, 2009): 32 x 32 colour
// images of 10 classes (airplane, automobile, bird, cat, deer, dog, frog,
// horse, ship, truck). The data of the Bayesian paper's Table 2 (study E1,
// experiments/lira_bayes_audit/README.md).
//
// Files: what data_scripts/download_cifar10.py writes into DIR from the
// official python archive (cifar-10-python.tar.gz, its MD5 and the MD5 of
// every batch checked): data_batch_1.bin .. data_batch_5.bin and
// test_batch.bin in CIFAR-10's binary layout (10,000 records per file, each
// 1 label byte 0..9 and 3,072 pixel bytes: the red, green and blue planes of
// 32 x 32, row-major), and SHA256SUMS (sha256sum format), the script's
// record of the SHA-256 of every file it wrote. The loader checks, per file,
// the exact size, the SHA-256 against SHA256SUMS and every label; any failure
// is an Error naming the file (and the record, for a label). There is no
// default place and no stand-in: without --data_dir or PRIVBENCH_DATA_DIR
// (DIR/cifar10, then DIR) the error names the download command.
//
// train = the 50,000 training images (data_batch_1 .. 5 in file order),
// population = the 10,000 test images. Features: 3,072 values per image,
// channel-planar (C x H x W = 3 x 32 x 32, the order a {3, 32, 32} tensor
// reshape expects), scaled to [0, 1] as byte / 255. Per-channel
// standardisation is a study's choice: StandardizeCifar10Channels.
#ifndef PRIVBENCH_DATA_SCRIPTS_CIFAR10_H_
#define PRIVBENCH_DATA_SCRIPTS_CIFAR10_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "data_scripts/data_files.h"
#include "data_scripts/dataset.h"

namespace privbench {

inline constexpr int64_t kCifar10Channels = 3;
inline constexpr int64_t kCifar10Side = 32;
inline constexpr int64_t kCifar10Features = kCifar10Channels * kCifar10Side * kCifar10Side;
inline constexpr int64_t kCifar10Classes = 10;
inline constexpr int64_t kCifar10RowsPerBatch = 10000;
inline constexpr int64_t kCifar10TrainBatches = 5;
inline constexpr int64_t kCifar10TrainRows = kCifar10TrainBatches * kCifar10RowsPerBatch;
inline constexpr int64_t kCifar10PopulationRows = kCifar10RowsPerBatch;
// The download script's digest record (sha256sum format).
inline constexpr const char* kCifar10Manifest = "SHA256SUMS";
inline constexpr const char* kCifar10DownloadCommand =
    "python3 data_scripts/download_cifar10.py DIR";

// Per-channel (R, G, B) mean and standard deviation of the 50,000 training
// images' pixels scaled to [0, 1]: the constants the Bayesian paper's public
// code normalises CIFAR-10 with (microsoft/responsible-ai-toolbox-privacy,
// experiments/scripts/upload-dataset.py, CIFAR10Normalized).
inline constexpr std::array<double, 3> kCifar10ChannelMean = {0.49139968, 0.48215841, 0.44653091};
inline constexpr std::array<double, 3> kCifar10ChannelStd = {0.24703223, 0.24348513, 0.26158784};

struct Cifar10Options {
  // Directory with the six .bin files and SHA256SUMS (a program's flag);
  // empty: PRIVBENCH_DATA_DIR (<dir>/cifar10 or <dir>). No default place.
  std::string data_dir;
  // The flag that sets data_dir, named in errors.
  std::string data_dir_flag = kDefaultDataDirFlag;
  // For tests only: records per file (0: kCifar10RowsPerBatch).
  int64_t rows_per_batch = 0;
};

// data_batch_1.bin .. data_batch_5.bin, test_batch.bin.
std::vector<std::string> Cifar10Files();

// The directory LoadCifar10 would read (absolute), or the error that lists
// the places searched and names the flag and the download command. Cheap:
// studies call it at start-up.
Result<std::string> FindCifar10Dir(const Cifar10Options& options = {});

// provenance "cifar10".
Result<Dataset> LoadCifar10(const Cifar10Options& options = {});

// (x - mean_c) / std_c for every value of channel c (kCifar10ChannelMean,
// kCifar10ChannelStd), in place; `rows` holds whole channel-planar images.
Status StandardizeCifar10Channels(std::vector<float>* rows);

}  // namespace privbench

#endif  // PRIVBENCH_DATA_SCRIPTS_CIFAR10_H_
