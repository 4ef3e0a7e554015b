// The configuration of study C1 `region_of_privacy` (Erlingsson, Mironov,
// Raghunathan & Song 2019, "That which we call private", Sec. 3-5;
// README.md): every field is a command-line parameter (main.cc
// registers them, with their constraints, and sets each scale's defaults).
//
// The paper's setting is Jayaraman & Evans' Purchase-100 multinomial logistic
// regression (docs/studies.md, "Accounting reference: DP-SGD"): 10,000 training
// records, expected batch 200 (q = 0.02), 100 epochs = 5,000 steps, learning
// rate 0.01, per-example clipping at C = 1, L2 penalty 1e-5 as weight decay,
// delta = 1e-5, trained at the noise multipliers of Table 1.
#ifndef PRIVBENCH_EXPERIMENTS_REGION_OF_PRIVACY_CONFIG_H_
#define PRIVBENCH_EXPERIMENTS_REGION_OF_PRIVACY_CONFIG_H_

#include <cstdint>
#include <string>
#include <vector>

#include "experiments/lib/framework/sweep.h"

namespace privbench {
namespace region_of_privacy {

inline constexpr const char kStudy[] = "region_of_privacy";

struct Config {
  std::string data = "auto";  // auto | purchase100 | surrogate
  std::string data_dir;       // Purchase-100 directory (empty: PRIVBENCH_DATA_DIR, fallbacks)
  int64_t surrogate_model_seed = 0;
  int64_t n_train = 10000;
  int64_t n_population = 10000;
  std::vector<double> noise_multipliers = {136.67, 13.76, 6.99, 1.06, 0.44};
  int64_t repetitions = 5;
  int64_t epochs = 100;
  int64_t batch_size = 200;
  double learning_rate = 0.01;
  std::string optimizer = "adam";  // J&E's code: TF Privacy DPAdamGaussianOptimizer
  double momentum = 0.9;
  double clip_norm = 1.0;
  double weight_decay = 1e-5;
  std::string device = "cpu";  // where DP-SGD trains: cpu | cuda (mechanisms/device.h)
  double delta = 1e-5;
  double target_fpr = 0.05;
  SweepFlags sweep;  // --shard, --parts_dir, --merge_only
};

}  // namespace region_of_privacy
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_REGION_OF_PRIVACY_CONFIG_H_
