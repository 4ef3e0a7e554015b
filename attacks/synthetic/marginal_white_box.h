// White-box membership attack on the noisy marginals a synthesizer released
// (mechanisms/synthetic/synthesizer.h: SynthesisOutput::measurements): the
// log-likelihood ratio of "target in" (D = D- + {x}) against "target out"
// (D = D-) under add/remove adjacency, the attack the synthetic-data audit
// uses for its worst-case (fixed D-) game: the likelihood-ratio test of the
// review's "Shadow modeling and attack logic" (Carlini et al. 2022) computed
// in closed form for noisy marginal queries instead of estimated from shadow
// models (the worst-case D- games of Annamalai, Ganev & De Cristofaro, USENIX
// Security 2024, audit the same add/remove step).
//
// Every released marginal t (1- or 2-way) counts the target in exactly one
// cell, the target's cell; its other cells have the same distribution in
// both worlds, so with independent noise the likelihood ratio factorises
// over measurements and involves only y_t, the noisy count of the target's
// cell, and c_t, the adversary's reference count of D- in that cell:
//  - Gaussian noise sigma_t, known D- (c_t exact):
//      LLR = sum_t ((y_t - c_t) - 1/2) / sigma_t^2;
//    under "in" LLR ~ Normal(+mu^2/2, mu^2), under "out" Normal(-mu^2/2,
//    mu^2), mu^2 = sum_t 1/sigma_t^2 (one term per measurement: each
//    touches the target once); GaussianWhiteBoxMu returns mu, so the test's
//    trade-off curve is the Gaussian-DP curve G_mu (Dong, Roth & Su 2019)
//    exactly.
//  - Laplace noise b_t, known D-: LLR = sum_t (|y_t - c_t| - |y_t - c_t - 1|) / b_t.
//  - No noise (kNone), known D-: y_t - c_t is 1 or 0; the LLR is +inf or
//    -inf (an error if the measurements disagree or y_t - c_t is neither).
// With D- known and the measurements' noises independent, this LLR is the
// Neyman-Pearson optimal test of "in" against "out" from the measurement
// values (thresholding it gives every optimal (FPR, TPR) pair): the audit
// that uses it reaches the mechanism's trade-off curve for that D- and
// target. It treats the choice of which marginals were measured as given
// (a data-dependent selection, e.g. MST's exponential-mechanism rounds,
// leaks too and is not used), and does not special-case a cell released as
// exactly 0 without noise (the planted bug domain_from_data leaves the
// cells of absent values unmeasured).
//
// Random-D- adversary (D- an unknown sample of n- records from a
// population the adversary knows through auxiliary data): c_t = n- p_t, p_t
// the target cell's frequency in the auxiliary data, with the binomial
// sampling variance v_t = n- p_t (1 - p_t) (D- as n- independent draws);
// in a GAUSSIAN APPROXIMATION y_t - c_t ~ Normal(in, s_t^2) with s_t^2 =
// noise variance + v_t (sigma^2 for Gaussian, 2 b^2 for Laplace, 0 for
// none) and LLR = sum_t ((y_t - c_t) - 1/2) / s_t^2. The sampling errors of
// different marginals of one D- are correlated; they are treated as
// independent, so this LLR is an approximation, not the optimal test.
#ifndef PRIVBENCH_ATTACKS_SYNTHETIC_MARGINAL_WHITE_BOX_H_
#define PRIVBENCH_ATTACKS_SYNTHETIC_MARGINAL_WHITE_BOX_H_

#include <cstdint>
#include <vector>

#include "core/result.h"
#include "data_scripts/categorical.h"
#include "mechanisms/synthetic/synthesizer.h"

namespace privbench {

// The adversary's reference for the target's cell of every measurement (in
// the measurements' order).
struct TargetCellReference {
  std::vector<double> count;     // c_t: reference count of D- in the target's cell
  std::vector<double> variance;  // v_t: its variance (0: D- known exactly)
};

// Fixed-D- adversary: c_t = the exact count of D- (`d_minus`, which must not
// contain the target's "in" copy) in the target's cell, v_t = 0. Errors
// name the argument: measurements (empty, attributes not 1 or 2 distinct
// in-range indices, noisy_counts of the wrong length, scale not > 0 for
// noise), target (width, codes), d_minus (width, codes; it may be empty).
Result<TargetCellReference> KnownDMinusReference(const std::vector<NoisyMarginal>& measurements,
                                                 const std::vector<int32_t>& target,
                                                 const CategoricalDomain& domain,
                                                 const CategoricalTable& d_minus);

// Random-D- adversary: c_t = n_minus p_t, v_t = n_minus p_t (1 - p_t), p_t
// the target cell's frequency in `auxiliary` (non-empty); n_minus >= 0.
Result<TargetCellReference> AuxiliaryReference(const std::vector<NoisyMarginal>& measurements,
                                               const std::vector<int32_t>& target,
                                               const CategoricalDomain& domain,
                                               const CategoricalTable& auxiliary, int64_t n_minus);

// The LLR of "in" vs "out" (higher = more likely in): exact for a known D-
// (every variance 0), the Gaussian approximation otherwise. Errors name the
// argument (as above; reference sizes must match the measurements, counts
// finite, variances >= 0; a non-finite noisy count at the target's cell).
Result<double> MarginalWhiteBoxLlr(const std::vector<NoisyMarginal>& measurements,
                                   const std::vector<int32_t>& target,
                                   const CategoricalDomain& domain,
                                   const TargetCellReference& reference);

// mu = sqrt(sum_t 1 / sigma_t^2) of Gaussian measurements (known D-): the
// LLR's separation. Errors: empty, or a measurement that is not Gaussian
// with sigma > 0.
Result<double> GaussianWhiteBoxMu(const std::vector<NoisyMarginal>& measurements);

}  // namespace privbench

#endif  // PRIVBENCH_ATTACKS_SYNTHETIC_MARGINAL_WHITE_BOX_H_
