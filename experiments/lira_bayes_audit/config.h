// Parameters of study lira_bayes_audit (README.md); defaults per
// scale and flags in main.cc.
#ifndef PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_CONFIG_H_
#define PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_CONFIG_H_

#include <cstdint>
#include <string>

#include "experiments/lib/framework/sweep.h"

namespace privbench {
namespace lira_bayes_audit {

inline constexpr const char* kStudy = "lira_bayes_audit";

struct Config {
  // fashion_mnist (the offline stand-in) | cifar10 (the paper's data, fetched by
  // data_scripts/download_cifar10.py).
  std::string dataset = "fashion_mnist";
  std::string data_dir;       // the dataset's files (empty: PRIVBENCH_DATA_DIR, then
                              // Debian's Fashion-MNIST; CIFAR-10 has no default place)
  int64_t pool_size = 1024;   // candidate points D, drawn from the training images
  int64_t test_size = 1000;   // accuracy rows, drawn from the 10,000 test images
  int64_t shadows = 32;       // M, each on a balanced random half of the pool
  int64_t trials = 256;       // N: one target model per challenge point
  double fit_fraction = 0.8;  // SelectWorst's fit:test split of the shadows
  std::string selection_weight = "accuracy";  // or "auc"
  std::string location = "median";            // LiRA location: median | mean
  std::string model = "mlp";                  // mlp | paper_cnn
  int64_t hidden = 32;                        // mlp hidden units
  int64_t epochs = 20;
  int64_t batch_size = 64;        // expected (Poisson) batch size
  double learning_rate = 0.05;    // non-private momentum SGD
  double dp_learning_rate = 0.5;  // DP-SGD momentum SGD
  double momentum = 0.9;
  double clip_norm = 1.0;       // per-example clipping norm C
  std::string device = "cpu";   // where DP-SGD trains: cpu | cuda (mechanisms/device.h)
  double target_epsilon = 8.0;  // DP setting: eps of the RDP accountant
  double delta = 1e-5;
  double alpha = 0.1;                  // intervals at confidence / credibility 1 - alpha
  int64_t bonferroni_thresholds = 32;  // G fixed thresholds of the Bonferroni variant
  int64_t models_per_unit = 8;         // models trained by one sweep unit
  SweepFlags sweep;
};

}  // namespace lira_bayes_audit
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_CONFIG_H_
