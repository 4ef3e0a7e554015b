// Configuration of study ml_audit (README.md).
#ifndef PRIVBENCH_EXPERIMENTS_ML_AUDIT_CONFIG_H_
#define PRIVBENCH_EXPERIMENTS_ML_AUDIT_CONFIG_H_

#include <cstdint>
#include <string>
#include <vector>

#include "experiments/lib/framework/sweep.h"

namespace privbench::ml_audit {

struct Config {
  // Comma-separated lists (SplitList):
  std::string datasets;  // iris, breast_cancer, adult, banknote, credit, thoracic
  // Downloadable datasets (banknote, credit, thoracic) run when their files
  // are found and are otherwise listed as unavailable (/meta
  // datasets_unavailable, table datasets); paper scale names all three.
  std::string optional_datasets;
  std::string mechanisms;   // which mechanisms' cases run
  std::string attacks;      // which attacks' cases run
  std::string roles;        // audit, bug1, bug2, weakened
  std::vector<double> eps;  // eps_th grid
  std::vector<int64_t> k;   // group sizes (copies of the poison)
  int64_t replicates = 1;
  int64_t n = 1000;  // N draws per side, search and fresh sample each
  // N of the bug cases (bug1, bug2): cheap draws, so the paper's N at every
  // scale but test.
  int64_t bug_n = 10000;
  double alpha = 0.05;
  double min_prob = 0;  // r; 0 means 1/N
  std::string classifier = "logistic_whitened";
  double classifier_l2 = 1e-3;
  double weakened_factor = 0.5;  // noise scale factor of the weakened mechanisms
  double false_failure = 1e-3;   // the validity test's allowed false-failure probability
  std::string data_dir;
  SweepFlags sweep;
};

// "a,b,c" -> {"a", "b", "c"} (empty items dropped).
inline std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  std::string item;
  for (char ch : text + ",") {
    if (ch == ',') {
      if (!item.empty()) out.push_back(item);
      item.clear();
    } else {
      item += ch;
    }
  }
  return out;
}

}  // namespace privbench::ml_audit

#endif  // PRIVBENCH_EXPERIMENTS_ML_AUDIT_CONFIG_H_
