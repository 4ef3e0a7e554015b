// MST of McKenna, Miklau & Sheldon, "Winning the NIST Contest: A scalable
// and general approach to differentially private synthetic data", Journal
// of Privacy and Confidentiality 11(3), 2021, following the public code
// (mechanisms/mst.py of github.com/ryan112358/private-pgm), written anew.
//
// Adjacency: ADD/REMOVE one record. Accounting: rho-zCDP (Bun & Steinke,
// TCC 2016), the budget split in thirds, composed additively:
//  (a) the d 1-way marginals, each + N(0, sigma_1^2) per cell with
//      sigma_1 = sqrt(3 / (2 rho)) * sqrt(d). Each marginal has L2
//      sensitivity 1, so each costs 1 / (2 sigma_1^2) = rho / (3 d): rho / 3
//      in all. (The public code divides sigma by unit-L2-norm measurement
//      weights 1 / sqrt(k): the same sigma * sqrt(k) per marginal.)
//  (b) the tree: d - 1 rounds of the exponential mechanism, Kruskal-style,
//      each over the pairs (a, b) not yet connected, quality q(a, b) = the
//      L1 distance between the data's 2-way counts of (a, b) and their
//      estimate from the noisy 1-way marginals alone (the product of the
//      post-processed 1-way distributions times the estimated total, which
//      is the model Private-PGM fits to 1-way measurements, up to its
//      projection step). Adding or removing a row moves one cell of the
//      data's table by 1 and leaves the estimate (post-processing of (a))
//      fixed, so q has sensitivity 1; each round picks a pair with
//      probability proportional to exp(eps_r q / 2) with eps_r =
//      sqrt(8 (rho / 3) / (d - 1)), i.e. eps_r^2 / 8-zCDP per round
//      (Cesar & Rogers 2021): rho / 3 in all.
//  (c) the d - 1 2-way marginals of the tree, each + N(0, sigma_2^2) per
//      cell with sigma_2 = sqrt(3 / (2 rho)) * sqrt(d - 1): rho / 3.
// Then the tree model (tree_model.h) fitted to all measurements stands in
// for Private-PGM's mirror descent, rooted at attribute 0, and ancestral
// sampling. All measurements (a) and (c) are reported; structure = the
// oriented tree. guarantee(): rho, the study's (epsilon, delta) as given;
// mu = 0 (the exponential mechanism makes it no Gaussian mechanism).
//
// Deviations from the public code: no domain compression (the code merges
// the values whose noisy 1-way count is below 3 sigma into one value before
// selection, and splits them uniformly again after sampling); a tree model
// instead of Private-PGM's estimation; with d = 1 the (b) and (c) thirds are
// not spent.
//
// Planted bugs: mst_unscaled_noise: sigma = sqrt(3 / (2 rho)) for every
// marginal (not scaled by sqrt(count)), so (a) spends d rho / 3 and (c)
// (d - 1) rho / 3 while rho is claimed. domain_from_data: only the values
// occurring in the data are measured and sampled (marginals.h).
#ifndef PRIVBENCH_MECHANISMS_SYNTHETIC_MST_H_
#define PRIVBENCH_MECHANISMS_SYNTHETIC_MST_H_

#include <cstdint>
#include <memory>

#include "mechanisms/synthetic/synthesizer.h"

namespace privbench {

struct MstCalibration {
  double sigma_one_way = 0.0;      // sigma_1 of (a)
  double sigma_two_way = 0.0;      // sigma_2 of (c); 0 when d = 1
  double selection_epsilon = 0.0;  // eps_r of each round of (b); 0 when d = 1
  int64_t rounds = 0;              // d - 1
};

// The noise of MST on d attributes with budget rho (unscaled_noise: the
// planted bug).
MstCalibration MstNoise(int64_t d, double rho, bool unscaled_noise);

// "mst". Options are validated by MakeSynthesizer.
std::unique_ptr<Synthesizer> MakeMstSynthesizer(const SynthesizerOptions& options);

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_SYNTHETIC_MST_H_
