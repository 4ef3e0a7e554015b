// Parameters of study sequential_audit (README.md in this folder): sequential
// (anytime-valid) auditing of claimed privacy guarantees against batch
// audits of fixed size, on additive-noise mechanisms and on DP-SGD steps.
#ifndef PRIVBENCH_EXPERIMENTS_SEQUENTIAL_AUDIT_CONFIG_H_
#define PRIVBENCH_EXPERIMENTS_SEQUENTIAL_AUDIT_CONFIG_H_

#include <cstdint>
#include <vector>

namespace privbench {
namespace sequential_audit {

struct Config {
  double alpha = 0.05;  // level of every audit (sequential and batch)
  double claimed_epsilon =
      1.0;                  // the (eps, 0)-DP claims of the Laplace and randomized-response cases
  double claimed_mu = 1.0;  // the mu-GDP claims of the Gaussian cases
  // Type I error: independent sequential audits of each correct mechanism,
  // each watched for up to null_rounds pair rounds.
  int64_t null_replications = 1000;
  int64_t null_rounds = 10000;
  // Detection: independent sequential audits of each planted violation, each
  // stopped at its rejection or after detect_max_rounds pair rounds.
  int64_t detect_replications = 200;
  int64_t detect_max_rounds = 20000;
  // Batch audits: outputs per neighbour, n in batch_sizes, batch_replications
  // independent audits at each n.
  std::vector<int64_t> batch_sizes;
  int64_t batch_replications = 200;
  // Rounds kept of the first replication's log-wealth, for the figure.
  int64_t trace_rounds = 2000;
  // DP-SGD: logistic regression on synthetic rows, one canary row included
  // at each step with probability 1/2; dpsgd_runs training runs per variant.
  int64_t dpsgd_runs = 20;
  int64_t dpsgd_steps = 500;       // steps of one training run
  int64_t dpsgd_rows = 1000;       // base (non-canary) rows
  int64_t dpsgd_features = 10;     // base features (the canary has its own extra one)
  int64_t dpsgd_batch_size = 100;  // expected batch size (Poisson, q = batch/rows)
  double dpsgd_noise_multiplier = 1.0;
  double dpsgd_clip_norm = 1.0;
  double dpsgd_learning_rate = 0.1;
  double dpsgd_dirac_value = 10.0;  // the canary's value on its own feature
};

}  // namespace sequential_audit
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_SEQUENTIAL_AUDIT_CONFIG_H_
