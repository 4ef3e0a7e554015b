// The relative membership inference attack RMIA (Zarifzadeh, Liu, Shokri &
// Nasr, "Low-Cost High-Power Membership Inference Attacks", ICML 2024,
// Sec. 3; reference code: privacytrustlab/ml_privacy_meter,
// modules/mia/attacks/rmia.py, read for the offline formula, not copied),
// in the style of attacks/lira.h: torch-free, the inputs are per-example
// probabilities of trained models (never the models).
//
// WHAT IT COMPUTES. For a target model theta, a target point x and
// population points z_1..z_Z (points that trained NO model: neither the
// target nor any reference model):
//   Pr(x | theta)  the model's softmax probability of x's true label
//                  (= sigmoid(phi) for LiRA's logit-scaled phi, lira.h),
//   Pr(x)          the marginal over reference models theta' (below),
//   LR(x, z)     = [Pr(x | theta) / Pr(x)] / [Pr(z | theta) / Pr(z)],
//   score(x)     = (1/Z) #{k : LR(x, z_k) > gamma}   in [0, 1],
// larger = more likely a member. Computed as ratio_x > gamma * ratio_z with
// ratio = Pr(.|theta) / Pr(.), so Pr(z | theta) = 0 counts as LR = +inf.
//
// THE MARGINAL Pr(.). Let P_ref(u) be the mean of Pr(u | theta') over the
// reference models that serve the target (all, or those in `ref_use`) and
// P_out(u) the mean over those of them that u did NOT train.
//  - online (the paper's main attack): Pr(x) = P_ref(x), the mean over IN
//    and OUT references. ASSUMES the references are balanced for x (x
//    trained about half of them, as in LiRA's shadow design), so that the
//    mean estimates (Pr_IN(x) + Pr_OUT(x)) / 2.
//  - offline (OUT references only, Sec. 3 "offline"): Pr_IN(x) is
//    approximated linearly from Pr_OUT(x), Pr_IN = a Pr_OUT + (1 - a), so
//      Pr(x) = ((1 + a) P_out(x) + (1 - a)) / 2,
//    the reference code's `(1 + offline_a) / 2 * mean_out + (1 - offline_a)
//    / 2`. a = 1: Pr(x) = P_out(x) (no correction); a = 0: the IN
//    probability is taken to be 1. The paper tunes a on a reference model
//    (the reference code's tune_offline_a: grid 0, 0.1, .., 1, the best AUC).
//  - population points are OUT for every reference, so Pr(z) is the offline
//    formula in BOTH modes: Pr(z) = ((1 + a) P_out(z) + (1 - a)) / 2 (the
//    reference code does the same). Consequence (tested): when every IN
//    probability satisfies Pr_IN = a Pr_OUT + (1 - a) exactly and the
//    references are balanced, online and offline scores agree.
//
// PARAMETERS. a = offline_a in [0, 1] (reference-code default 0.3; tuned in
// the paper); gamma > 0 (the paper's experiments and the reference code use
// gamma = 1: "ratios > 1.0"); Z = the number of population points (the
// resolution of the score is 1/Z).
//
// ASSUMPTIONS. Probabilities in [0, 1]; every target's marginal Pr(x) > 0
// and every population marginal Pr(z) > 0 (always so offline with a < 1).
// The population points must be non-members of every model involved.
#ifndef PRIVBENCH_ATTACKS_RMIA_H_
#define PRIVBENCH_ATTACKS_RMIA_H_

#include <cstdint>
#include <vector>

#include "core/result.h"

namespace privbench {

struct RmiaOptions {
  bool online = false;     // online: Pr(x) over IN and OUT references
  double offline_a = 0.3;  // a in [0, 1]
  double gamma = 1.0;      // > 0, finite
};

// T targets (each its own target model theta_t and point x_t), R reference
// models, Z population points; row-major arrays.
struct RmiaData {
  int64_t targets = 0;                // T >= 1
  int64_t references = 0;             // R >= 1
  int64_t population = 0;             // Z >= 1
  std::vector<double> target_prob;    // [T]     Pr(x_t | theta_t)
  std::vector<double> ref_prob;       // [T x R] Pr(x_t | theta'_r)
  std::vector<uint8_t> ref_in;        // [T x R] 1 = x_t trained theta'_r
  std::vector<double> target_z_prob;  // [T x Z] Pr(z_k | theta_t)
  std::vector<double> ref_z_prob;     // [R x Z] Pr(z_k | theta'_r)
  // [T x R] 1 = theta'_r serves target t; empty = every reference serves
  // every target. Pr(x_t) and Pr(z) of target t use only its references.
  std::vector<uint8_t> ref_use;
  // Sizes, [0, 1] probabilities, 0/1 flags; errors name the field.
  Status Validate() const;
};

// Pr(x) from one point's reference probabilities and IN flags (same length;
// offline ignores the IN ones). Errors name offline_a, ref_prob ("no OUT
// reference" offline, "no reference" online) or a zero marginal.
Result<double> RmiaMarginal(const std::vector<double>& ref_prob, const std::vector<uint8_t>& ref_in,
                            const RmiaOptions& options);

// The fraction of population ratios z with ratio_x > gamma * ratio_z.
double RmiaFraction(double ratio_x, const std::vector<double>& ratio_z, double gamma);

// score(x_t) for every target. Errors name the RmiaData field or option, or
// the target whose marginal is undefined ("target 3: no OUT reference").
Result<std::vector<double>> RmiaScores(const RmiaData& data, const RmiaOptions& options);

}  // namespace privbench

#endif  // PRIVBENCH_ATTACKS_RMIA_H_
