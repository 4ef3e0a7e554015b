// PrivBayes of Zhang, Cormode, Procopiuc, Srivastava & Xiao, "PrivBayes:
// Private Data Release via Bayesian Networks", ACM Trans. Database Syst.
// 42(4), 2017 (SIGMOD 2014), with degree k = 1: every attribute has at most
// one parent, so the Bayesian network is a tree and the tree model's
// sampler (tree_model.h) applies.
//
// Adjacency: ADD/REMOVE one record. Accounting: pure epsilon-DP, basic
// composition of two parts with beta = options.privbayes_structure_share
// (the paper's 0.3 by default):
//  1. Structure (beta epsilon). The first attribute (the root) is drawn
//     uniformly, independently of the data (the paper's random first
//     attribute). Then d - 1 greedy steps: among the pairs (X, P) with X not
//     yet placed and P placed, pick one by the exponential mechanism with
//     score I(X; P), the empirical mutual information in bits, and
//     epsilon_step = beta epsilon / (d - 1); X's parent is P. Sensitivity:
//     the paper's sensitivity of mutual information for n records (Lemma 1
//     of the SIGMOD 2014 paper, restated in the journal version) in its
//     general, non-binary case, S(I) = (2/n) log2((n + 1)/2) + ((n - 1)/n)
//     log2((n + 1)/(n - 1)), used for every pair (it dominates the binary
//     case's (1/n) log2 n + ((n - 1)/n) log2(n / (n - 1))). The lemma is
//     stated for datasets of a fixed size n; under add/remove we read n as
//     the private data's size |D| (a reading: n itself then depends on the
//     data, which the lemma does not cover), and n = 2's value when n < 2.
//  2. Counts ((1 - beta) epsilon). The root's 1-way counts and the d - 1
//     joint counts of (parent, child), each cell + Laplace(b). Adding or
//     removing a row changes each of these d tables by 1 in one cell: L1
//     sensitivity d, so b = d / ((1 - beta) epsilon). (The paper releases
//     normalised distributions under replace-one adjacency, L1 sensitivity
//     2/n per table, and reads the first attributes' distribution off the
//     first joint; we measure counts and the root's 1-way table too, hence
//     d tables rather than d - 1.)
// Then consistent conditionals from the noisy tables (tree_model.h instead
// of the paper's clamp-and-normalise of each table separately, which is
// also post-processing) and ancestral sampling from the root. All noisy
// tables are reported; structure = the (parent, child) edges in the order
// chosen. guarantee(): epsilon, delta = 0.
//
// Planted bug domain_from_data: only the values occurring in the data are
// measured and sampled (marginals.h). With d = 1 there is no structure
// search and the beta share is not spent.
#ifndef PRIVBENCH_MECHANISMS_SYNTHETIC_PRIVBAYES_H_
#define PRIVBENCH_MECHANISMS_SYNTHETIC_PRIVBAYES_H_

#include <cstdint>
#include <memory>

#include "mechanisms/synthetic/synthesizer.h"

namespace privbench {

// The general (non-binary) sensitivity of mutual information in bits for n
// records (Zhang et al.), with n = 2's value for n < 2.
double PrivBayesMutualInformationSensitivity(int64_t n);

// The binary-attribute case of the same lemma, (1/n) log2 n + ((n - 1)/n)
// log2(n / (n - 1)), for comparison (n >= 2).
double PrivBayesBinaryMutualInformationSensitivity(int64_t n);

// The Laplace scale b of the d noisy count tables.
double PrivBayesLaplaceScale(int64_t d, double epsilon, double structure_share);

// "privbayes". Options are validated by MakeSynthesizer.
std::unique_ptr<Synthesizer> MakePrivBayesSynthesizer(const SynthesizerOptions& options);

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_SYNTHETIC_PRIVBAYES_H_
