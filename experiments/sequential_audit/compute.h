// Study sequential_audit: what is computed (README.md in this folder).
//
// QUESTION ([GDRR] = González, Dulce-Rubio, Ramdas & Ribero, "Sequentially
// Auditing Differential Privacy", NeurIPS 2025, arXiv:2509.07055): does an
// anytime-valid sequential test of a claimed guarantee (i) keep its type I
// error at alpha on correct mechanisms whenever it stops, and (ii) detect
// planted violations from far fewer mechanism outputs than batch audits of
// a size fixed in advance ("from 50K to a few hundred examples"), and
// (iii) catch a DP-SGD implementation bug within one training run?
//
// MECHANISMS (1-D, sensitivity 1 unless said: the query is 1 on the
// neighbour with the target, 0 without it; MechanismCases()):
//   correct, on the boundary of their claim for the threshold rule below:
//     rr_correct         randomized response at eps (outputs a bit), claim (eps, 0)-DP
//     gaussian_correct   x + N(0, 1/mu^2), claim mu-GDP (Dong, Roth & Su 2022)
//   correct, inside the claim:
//     laplace_correct    x + Laplace(1/eps), claim (eps, 0)-DP
//   planted violations (bug classes [GDRR] Sec. 1 names: "missing constants"):
//     laplace_half_scale         x + Laplace(1/(2 eps)): the scale's factor 2 dropped
//                                (true eps 2 eps), claim (eps, 0)-DP
//     gaussian_double_sensitivity 2x + N(0, 1/mu^2): the query's sensitivity is 2 but the
//                                noise was calibrated to 1 (true mu 2 mu), claim mu-GDP
// [GDRR]'s text names its mechanism families (additive noise, DP-SGD) but
// not these exact parameters; they are this study's choice.
//
// THE AUDITS. The rule is pre-registered: an output above 0.5 (the midpoint
// of the claimed mechanism's two means) is guessed "with the target". It is
// the best fixed threshold for every correct case here, and on rr_correct and
// gaussian_correct it attains the null's bound tau exactly
// (estimators/sequential/sequential_audit.h, WHAT IS TESTED): the hardest
// correct mechanisms for the type I claim.
//  - sequential: pair rounds (one output of each neighbour per round, 2
//    outputs), the e-process of the case's claim (SequentialAuditor with
//    that one null), stopped at its first crossing of 1/alpha;
//  - batch (fixed size n per neighbour, 2n outputs): the counts at the
//    same threshold; rejects the (eps, 0) claim when the one-sided
//    Clopper-Pearson lower bound on eps at level alpha exceeds eps, and the
//    mu-GDP claim when Nasr et al.'s mu lower bound (one-sided
//    Clopper-Pearson upper limits on FPR and FNR at alpha/2 each;
//    estimators/score_audit/score_audit.h) exceeds mu.
// Both are level-alpha tests of the same claim from the same statistic; the
// batch test must fix n before seeing data, the sequential one need not.
#ifndef PRIVBENCH_EXPERIMENTS_SEQUENTIAL_AUDIT_COMPUTE_H_
#define PRIVBENCH_EXPERIMENTS_SEQUENTIAL_AUDIT_COMPUTE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/seeding.h"
#include "experiments/sequential_audit/config.h"

namespace privbench {
namespace sequential_audit {

enum class NoiseKind { kRandomizedResponse, kLaplace, kGaussian };
enum class ClaimKind { kPureDp, kGaussianDp };  // (eps, 0)-DP, or mu-GDP

struct MechanismCase {
  std::string name;
  bool correct = true;  // satisfies its claim
  NoiseKind noise = NoiseKind::kLaplace;
  double sensitivity = 1.0;  // the query's value on the neighbour with the target
  double parameter = 1.0;    // RR: eps; Laplace: scale; Gaussian: sigma
  ClaimKind claim = ClaimKind::kPureDp;
  double claimed = 1.0;         // the claim's eps or mu
  double true_parameter = 1.0;  // the mechanism's actual eps (pure DP) or mu (GDP)
  std::string description;
};

inline constexpr double kThreshold = 0.5;  // the pre-registered rule: output > 0.5 guesses "in"

// The five cases above, from the config's claimed eps and mu.
std::vector<MechanismCase> MechanismCases(const Config& c);

// One output of the case's mechanism on the neighbour with (with_target) or
// without the target.
double SampleOutput(const MechanismCase& m, bool with_target, Rng& rng);

// Exact rates of the threshold rule: P(out > 0.5) with and without the target.
struct RuleRates {
  double tpr = 0.0;
  double fpr = 0.0;
};
RuleRates ExactRuleRates(const MechanismCase& m);
// The claim's bound tau on TPR - FPR (sequential_audit.h, WHAT IS TESTED).
double ClaimTau(const MechanismCase& m);

// Sequential audits of one case.
struct SequentialRuns {
  std::vector<int64_t> rejected_at;  // per replication: pair round of rejection, 0 = never
  std::vector<double> trace;         // replication 0: ln K after each of its first rounds
  int64_t max_rounds = 0;            // rounds each replication was watched for
};
Result<SequentialRuns> RunSequential(const MechanismCase& m, int64_t replications,
                                     int64_t max_rounds, int64_t trace_rounds, double alpha,
                                     uint64_t seed, int64_t case_index);

// Batch audits of one case at n outputs per neighbour.
struct BatchRuns {
  int64_t n = 0;
  int64_t rejections = 0;
  int64_t replications = 0;
};
Result<BatchRuns> RunBatch(const MechanismCase& m, int64_t n, int64_t replications, double alpha,
                           uint64_t seed, int64_t case_index);

// Whether the batch test rejects the claim from one sample's counts.
// fp of n without the target above the threshold, tp of n with it.
Result<bool> BatchRejects(const MechanismCase& m, int64_t tp, int64_t fp, int64_t n, double alpha);
// Nasr et al.'s mu lower bound from the counts at level alpha.
double GaussianDpMuLower(int64_t tp, int64_t fp, int64_t n, double alpha);

// Median of rejection rounds, a never-rejected replication counting as
// +inf; +inf when at least half never rejected.
double MedianRounds(const std::vector<int64_t>& rejected_at);

}  // namespace sequential_audit
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_SEQUENTIAL_AUDIT_COMPUTE_H_
