// Parameters of study ml_audit_dpsgd (README.md); defaults and
// flags in main.cc.
#ifndef PRIVBENCH_EXPERIMENTS_ML_AUDIT_DPSGD_CONFIG_H_
#define PRIVBENCH_EXPERIMENTS_ML_AUDIT_DPSGD_CONFIG_H_

#include <cstdint>
#include <string>
#include <vector>

#include "experiments/lib/framework/sweep.h"

namespace privbench::ml_audit_dpsgd {

struct Config {
  std::vector<double> eps;  // claimed eps_th (sigma calibrated to each)
  std::vector<int64_t> k;   // copies of the poison
  std::string attacks = "clipbkd,clipbkd_vec,shadow";
  int64_t n = 100;  // N: models per side for the search, and N fresh ones
  // Independent repetitions of every audit (own models and seeds); the
  // paper (Sec. 5) runs 3 and reports the median.
  int64_t replicates = 3;
  double delta = 1e-5;
  double alpha = 0.05;
  double false_failure = 0.001;  // validity test's false-failure probability
  std::string classifier = "logistic_squares";
  double classifier_l2 = 1e-3;
  // Data (Fashion-MNIST, two classes).
  std::string data_dir;
  int64_t class_a = 0, class_b = 1;
  int64_t n_train = 6000;
  int64_t test_probes = 8;
  // DP-SGD.
  int64_t hidden = 32;
  std::string activation = "tanh";  // of the hidden layer: tanh, relu
  double learning_rate = 0.15;
  double momentum = 0.0;
  double clip_norm = 1.0;
  int64_t batch_size = 250;
  int64_t epochs = 24;
  std::string device = "cpu";  // where DP-SGD trains: cpu | cuda (mechanisms/device.h)
  // ClipBKD's neighbour pair: "append" (D' = D + k copies labelled y*,
  // add/remove at distance k) or "flip_replace" (Jagielski et al.'s pair:
  // D's last k rows replaced by (x*, 1 - y*) in D and (x*, y*) in D',
  // distance 2k). The shadow poison is always appended.
  std::string clipbkd_pair = "append";
  // Where y* comes from: "nonprivate" (the mean of clipbkd_label_models
  // non-private networks) or "dp" (the mean of clipbkd_label_models
  // DP-SGD networks at each eps_th's sigma: one label per eps_th).
  std::string clipbkd_label_from = "nonprivate";
  // ClipBKD: networks whose mean prediction at x* picks y*.
  int64_t clipbkd_label_models = 8;
  // Shadow-adversarial poison.
  int64_t shadow_models = 4;
  int64_t shadow_steps = 50;
  double shadow_step = 0.5;
  int64_t models_per_unit = 25;
  bool plan_only = false;
  SweepFlags sweep;
};

}  // namespace privbench::ml_audit_dpsgd

#endif  // PRIVBENCH_EXPERIMENTS_ML_AUDIT_DPSGD_CONFIG_H_
