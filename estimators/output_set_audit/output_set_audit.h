// ML-Audit's estimate of an eps lower bound from a learned output set:
// Algorithm 1 of Lu et al., "A General Framework for Auditing Differentially
// Private Machine Learning", NeurIPS 2022, Sec. 4 (experiments/ml_audit/README.md).
//
//   1. draw N summaries z_i ~ tau(M(D)) and z'_i ~ tau(M(D')) (the search
//      sample);
//   2. train a classifier for p(D | z) on them (pluggable; default: L2
//      penalised logistic regression on the standardised summary and its
//      squares, experiments/ml_audit/README.md — the paper does not name its classifier);
//   3. for every threshold t over the sorted scores, S_t = {score >= t}:
//      n1 = #{z_i in S_t}, n0 = #{z'_i in S_t}; skip when n0 / N < r (the
//      minimum probability, 1/N by default); bound = Katz-log lower end
//      (estimators/intervals/katz_log.h, z_{alpha/2}); also the complement
//      set S_t^c with the roles of D and D' swapped (numerator N - n0 from
//      D', denominator N - n1 from D, skipped when (N - n1) / N < r); keep
//      the set with the largest bound;
//   4. draw N FRESH summaries of each side and report the Katz-log bound of
//      the kept set on them, divided by k when D and D' differ in k rows
//      (group privacy, Lemma 3.4).
// The fresh sample makes the final bound a single test of a set fixed in
// advance, so its one-sided failure probability is that of the Katz-log
// interval, alpha/2 (asymptotic: Katz-log coverage is approximate). Zero
// counts in the fresh sample use the Haldane-Anscombe correction of
// katz_log.h (recorded in AuditResult::haldane).
#ifndef PRIVBENCH_ESTIMATORS_OUTPUT_SET_AUDIT_OUTPUT_SET_AUDIT_H_
#define PRIVBENCH_ESTIMATORS_OUTPUT_SET_AUDIT_OUTPUT_SET_AUDIT_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/seeding.h"

namespace privbench {

// Writes `count` draws of a dim-vector summary, row-major, into *out.
using SummaryDraws = std::function<Status(int64_t count, Rng& rng, std::vector<double>* out)>;

// A classifier scoring how likely a summary came from D rather than D'.
class ScoreClassifier {
 public:
  virtual ~ScoreClassifier() = default;
  virtual std::string name() const = 0;
  // Fits on n draws of each side (row-major, `dim` columns).
  virtual Status Fit(const std::vector<double>& from_d, const std::vector<double>& from_dprime,
                     int64_t dim) = 0;
  // Larger: more likely from D.
  virtual double Score(const double* z) const = 0;
};

// "logistic_squares" (default), "logistic_linear" (no squared terms) or
// "logistic_whitened" (the summary decorrelated by the Cholesky factor of its
// pooled covariance, then as logistic_squares), with L2 penalty `l2` > 0 on the standardised
// features; errors name `classifier`.
Result<std::unique_ptr<ScoreClassifier>> MakeScoreClassifier(const std::string& name, double l2);
std::vector<std::string> ScoreClassifierNames();

struct MlAuditOptions {
  int64_t n = 1000;     // N per side (search and fresh), >= 2
  double alpha = 0.05;  // Katz-log at z_{alpha/2}
  double min_prob = 0;  // r in [0, 1); 0: 1/N
  int64_t k = 1;        // rows in which D and D' differ (group size), >= 1
  std::string classifier = "logistic_squares";
  double l2 = 1e-3;
};

struct MlAuditResult {
  double eps_lb = 0;        // fresh-sample bound / k
  double eps_lb_raw = 0;    // fresh-sample bound before dividing by k
  double search_bound = 0;  // best bound on the search sample (optimistic; not reported)
  bool complement = false;  // the kept set is S^c (D' in the numerator)
  double threshold = 0;     // the kept threshold on the score
  int64_t search_n1 = 0, search_n0 = 0;  // counts behind search_bound (numerator, denominator)
  int64_t fresh_n1 = 0, fresh_n0 = 0;    // counts behind eps_lb_raw (numerator, denominator)
  bool haldane = false;                  // a fresh count was 0
  std::string classifier;
};

// Algorithm 1 as above; `dim` is the summary's length.
Result<MlAuditResult> RunMlAudit(int64_t dim, const SummaryDraws& draw_d,
                                 const SummaryDraws& draw_dprime, const MlAuditOptions& options,
                                 Rng& rng);

// Step 3 alone on given scores (exposed for tests): the best set.
struct BestSet {
  double bound = 0;
  bool complement = false;
  double threshold = 0;
  int64_t n1 = 0, n0 = 0;
};
Result<BestSet> SearchThreshold(std::vector<double> scores_d, std::vector<double> scores_dprime,
                                double alpha, double min_prob);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_OUTPUT_SET_AUDIT_OUTPUT_SET_AUDIT_H_
