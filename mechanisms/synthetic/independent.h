// Independent histograms: every attribute sampled independently from its
// (noisy) 1-way marginal. The baseline generative model of the synthetic-
// data membership studies (Stadler, Oprisanu & Troncoso, "Synthetic Data --
// Anonymisation Groundhog Day", USENIX Security 2022: IndHist; its DP
// variant adds Laplace noise to each histogram).
//
// Adjacency: ADD/REMOVE one record. Adding or removing a row changes each
// of the d 1-way marginals by 1 in one cell.
//  - "independent": exact 1-way counts (non-private; guarantee epsilon =
//    +inf; no measurements reported).
//  - "independent_laplace": each cell + Laplace(b). The d histograms
//    together have L1 sensitivity d, so b = d / epsilon is epsilon-DP (the
//    Laplace mechanism, Dwork, McSherry, Nissim & Smith, TCC 2006).
//    Planted bug laplace_half_scale: b = d / (2 epsilon) (2 epsilon-DP,
//    while epsilon is claimed).
//  - "independent_gaussian": each cell + N(0, sigma^2). L2 sensitivity
//    sqrt(d), so sigma^2 = d / (2 rho) is rho-zCDP (Bun & Steinke, TCC
//    2016, Prop. 1.6) and, being one Gaussian mechanism with sensitivity /
//    sigma = sqrt(2 rho), mu-GDP with mu = sqrt(2 rho) (Dong, Roth & Su,
//    JRSS-B 2022). guarantee(): rho, mu and the study's (epsilon, delta).
// Planted bugs of the two noisy ones, on the first attribute's marginal only
// (the others keep their noise): first_marginal_noise_fraction f < 1 gives it
// f times its scale (on one attribute: eps / f-DP, or rho / f^2-zCDP, while
// eps or rho is claimed); double_spent_marginal measures it twice, each copy
// at its share eps / d (rho / d) of the budget, both released and the
// histogram built from their mean: that step's share is spent twice (on one
// attribute: 2 eps-DP or 2 rho-zCDP; the Gaussian white-box mu^2 is then
// 2 / sigma^2 = 4 rho).
// Post-processing: each noisy histogram is clamped at 0 and normalised; if
// nothing is left, the attribute is sampled uniformly over its values.
// Planted bug domain_from_data: only the values occurring in the data are
// measured and sampled (marginals.h: ValueSupport).
#ifndef PRIVBENCH_MECHANISMS_SYNTHETIC_INDEPENDENT_H_
#define PRIVBENCH_MECHANISMS_SYNTHETIC_INDEPENDENT_H_

#include <cstdint>
#include <memory>

#include "mechanisms/synthetic/synthesizer.h"

namespace privbench {

// Laplace scale b of independent_laplace for d attributes.
double IndependentLaplaceScale(int64_t d, double epsilon, bool half_scale);

// Gaussian sigma of independent_gaussian for d attributes.
double IndependentGaussianSigma(int64_t d, double rho);

// noise kNone: "independent"; kLaplace: "independent_laplace"; kGaussian:
// "independent_gaussian". Options are validated by MakeSynthesizer.
std::unique_ptr<Synthesizer> MakeIndependentSynthesizer(MarginalNoise noise,
                                                        const SynthesizerOptions& options);

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_SYNTHETIC_INDEPENDENT_H_
