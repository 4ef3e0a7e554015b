// Fashion-MNIST (Xiao, Rasul & Vollgraf 2017, Zalando Research) from
// Debian's package dataset-fashion-mnist (/usr/share/datasets/fashion-mnist):
// 28 x 28 grey-scale images of 10 clothing classes. Used for smoke tests
// and for the audits of experiments/ml_audit_dpsgd/README.md (ML-Audit on DP-SGD) and E1 (LiRA /
// Bayesian audit, standing in for CIFAR-10 which is out of reach offline).
//
// train = the 60,000 training images, population = the 10,000 test images.
// Features: 784 pixels, row-major, scaled to [0, 1] (byte / 255); labels
// 0..9 (T-shirt/top, Trouser, Pullover, Dress, Coat, Sandal, Shirt, Bag,
// Sneaker, Ankle boot).
//
// Files: {train,t10k}-{images-idx3,labels-idx1}-ubyte.gz. The loader checks
// the DECOMPRESSED IDX payload of each file against a pinned SHA-256 (ours)
// and the MD5 published upstream for the uncompressed files (the values
// torchvision / TFDS use), so Zalando's original .gz and Debian's
// re-compressed .gz (different .gz bytes, identical payload) both pass; the
// .gz SHA-256 is recorded in Dataset::checksums with the packaging it was
// recognised as. Then the IDX magic numbers (0x00000803 images, 0x00000801
// labels), the dimensions (60000/10000 x 28 x 28) and labels < 10 are
// checked. Any failure is an Error naming the file.
#ifndef PRIVBENCH_DATA_SCRIPTS_FASHION_MNIST_H_
#define PRIVBENCH_DATA_SCRIPTS_FASHION_MNIST_H_

#include <string>

#include "core/result.h"
#include "data_scripts/data_files.h"
#include "data_scripts/dataset.h"

namespace privbench {

inline constexpr int64_t kFashionMnistTrainRows = 60000;
inline constexpr int64_t kFashionMnistPopulationRows = 10000;
inline constexpr int64_t kFashionMnistSide = 28;

// Debian's install location (package dataset-fashion-mnist).
inline constexpr const char* kFashionMnistDebianDir = "/usr/share/datasets/fashion-mnist";

struct FashionMnistOptions {
  // Directory with the four .gz files (a program's flag); empty:
  // PRIVBENCH_DATA_DIR (<dir>/fashion-mnist or <dir>), else
  // kFashionMnistDebianDir.
  std::string data_dir;
  // The flag that sets data_dir, named in errors.
  std::string data_dir_flag = kDefaultDataDirFlag;
};

// provenance "fashion-mnist".
Result<Dataset> LoadFashionMnist(const FashionMnistOptions& options = {});

}  // namespace privbench

#endif  // PRIVBENCH_DATA_SCRIPTS_FASHION_MNIST_H_
