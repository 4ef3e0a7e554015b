// Parameters of study one_run_audit (docs/studies.md, one_run_audit).
#ifndef PRIVBENCH_EXPERIMENTS_ONE_RUN_AUDIT_CONFIG_H_
#define PRIVBENCH_EXPERIMENTS_ONE_RUN_AUDIT_CONFIG_H_

#include <cstdint>
#include <string>
#include <vector>

namespace privbench {
namespace one_run_audit {

struct Config {
  std::vector<double> epsilons;  // target eps (RDP-calibrated noise), one run each
  bool nonprivate = true;        // also one run without DP (eps = inf)
  int64_t canaries = 500;        // m, per canary type
  int64_t n_base = 2000;         // Adult training rows that are not canaries
  int64_t batch_size = 250;      // expected (Poisson)
  int64_t epochs = 10;
  double learning_rate = 0.1;
  double clip_norm = 1.0;
  std::string device = "cpu";    // where DP-SGD trains: cpu | cuda (mechanisms/device.h)
  double dirac_value = 10.0;     // the white-box canary's value on its own feature
  double delta = 1e-5;           // of the accountant and of the audit
  double beta = 0.05;            // failure probability of the audit (Bonferroni over k pairs)
  std::vector<int64_t> k_plus;   // guesses "in" (highest scores), paired with k_minus
  std::vector<int64_t> k_minus;  // guesses "out" (lowest scores)
  std::string data_dir;          // Adult directory ("" = the vendored copy)
};

}  // namespace one_run_audit
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_ONE_RUN_AUDIT_CONFIG_H_
