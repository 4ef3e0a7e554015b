// Differentially private Gaussian naive Bayes, Vaidya, Shafiq, Basu & Hong,
// "Differentially Private Naive Bayes Classification", WI-IAT 2013, as
// audited by ML-Audit (Lu et al., NeurIPS 2022, Sec. 5; docs/studies.md D1).
//
// Adjacency: ADD_REMOVE (the library's and the paper's: one row added or
// removed changes one class count by 1 and that class's sums). Assumes every
// feature j lies in [lo_j, hi_j], bounds fixed before seeing D (data.h) and
// the same for D and D'. Budget split in three (Vaidya et al.): eps/3 to the
// class counts (Laplace, sensitivity 1), eps/3 to the means and eps/3 to
// the variances, each split evenly over the d features (eps/(3d) per
// feature; the classes compose in parallel because a row belongs to one
// class). Per class c with n_c rows: mean_cj + Laplace((hi_j - lo_j) /
// (n_c eps/(3d))), variance_cj + Laplace((hi_j - lo_j)^2 / (n_c eps/(3d)))
// (the sensitivities of the library, which uses the true n_c in the scale:
// strictly that scale is itself data-dependent, a deviation of order 1/n_c
// that no audit of this size can see).
//
// Summary tau: the noisy means and variances of both classes and the prior
// of class 1, noisy count_1 / (count_0 + count_1) with counts floored at 0
// (2 * 2d + 1 values).
//
// Variant "expose_counts" (the library's bug 1, docs/studies.md D1): the
// noisy counts are rescaled to sum to n and exposed in tau (2 more values).
// Their sum reveals n, so add/remove neighbours are told apart with
// certainty: eps is unbounded.
#ifndef PRIVBENCH_MECHANISMS_CLASSICAL_NAIVE_BAYES_H_
#define PRIVBENCH_MECHANISMS_CLASSICAL_NAIVE_BAYES_H_

#include "mechanisms/classical/mechanism.h"

#endif  // PRIVBENCH_MECHANISMS_CLASSICAL_NAIVE_BAYES_H_
