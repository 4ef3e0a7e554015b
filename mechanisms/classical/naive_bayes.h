// Differentially private Gaussian naive Bayes, Vaidya, Shafiq, Basu & Hong,
// "Differentially Private Naive Bayes Classification", WI-IAT 2013, as
// audited by ML-Audit (Lu et al., NeurIPS 2022, Sec. 5; experiments/ml_audit/README.md).
//
// Adjacency: ADD_REMOVE (one row added or removed changes one class count
// by 1 and that class's sums). Assumes every feature j lies in [lo_j, hi_j]
// (width w_j), bounds fixed before seeing D (data.h) and the same for D and
// D'. Laplace-noised sufficient statistics, the budget split in three
// (Vaidya et al.): per class c (classes compose in parallel, since a row
// belongs to one class)
//   counts:  n~_c = n_c + Lap(1 / (eps/3))                  (sensitivity 1)
//   sums:    S~_cj = sum_i (x_ij - lo_j) + Lap(w_j / (eps/(3d)))  (w_j)
//            mean_cj = lo_j + S~_cj / max(n~_c, 1)
//   squares: Q~_cj = sum_i (x_ij - m_cj)^2 + Lap(s_cj / (eps/(3d))),
//            m_cj = mean_cj clamped to [lo_j, hi_j], s_cj = max(m_cj - lo_j,
//            hi_j - m_cj)^2 (one row moves the sum by at most s_cj once the
//            released m_cj is fixed); var_cj = max(Q~_cj, 0) / max(n~_c, 1).
// So the mechanism is eps-DP by composition and post-processing. Noise is
// added to the sums, never to the means with a scale w_j / n_c: a scale
// built from the true count differs between D and D', and the privacy loss
// of two Laplace laws of different scales is unbounded in their tails (an
// earlier version did that; on iris at eps 0.1 its loss exceeded eps on 8%
// of the draws). diffprivlib 0.5.2 likewise noises the sums and divides by
// its noisy counts.
//
// Summary tau: the means and variances of both classes and the prior of
// class 1, max(n~_1, 0) / (max(n~_0, 0) + max(n~_1, 0)) (2 * 2d + 1 values).
//
// Variant "expose_counts" (the library's bug 1, experiments/ml_audit/README.md): the
// noisy counts are rescaled to sum to n and exposed in tau (2 more values).
// Their sum reveals n, so add/remove neighbours are told apart with
// certainty: eps is unbounded.
#ifndef PRIVBENCH_MECHANISMS_CLASSICAL_NAIVE_BAYES_H_
#define PRIVBENCH_MECHANISMS_CLASSICAL_NAIVE_BAYES_H_

#include <cstdint>
#include <vector>

#include "core/seeding.h"
#include "mechanisms/classical/data.h"
#include "mechanisms/classical/mechanism.h"

namespace privbench {

// One class's exact statistics: its count and, per feature, the sum of
// x - lo and the sum of x^2 (rows clamped into the bounds).
struct NbClassStatistics {
  double count = 0;
  std::vector<double> shifted_sum, square_sum;
};
NbClassStatistics NbStatisticsOf(const BinaryData& data, const DataBounds& bounds, int label);

// sum_i (x_ij - m)^2 over the class's rows, from its statistics.
double NbSquareDeviation(const NbClassStatistics& stats, const DataBounds& bounds, int64_t j,
                         double m);

// The Laplace sensitivity of the squared deviations around a released mean
// m (clamped into the box): max(m - lo_j, hi_j - m)^2.
double NbSquareSensitivity(const DataBounds& bounds, int64_t j, double m);

// One release of the noisy statistics of one class.
struct NbRelease {
  double noisy_count = 0;
  std::vector<double> noisy_shifted_sum, mean;                       // S~ and the mean
  std::vector<double> exact_square_dev, noisy_square_dev, variance;  // sum (x - m)^2, Q~
};
NbRelease DrawNbRelease(const NbClassStatistics& stats, const DataBounds& bounds, double eps,
                        Rng& rng);

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_CLASSICAL_NAIVE_BAYES_H_
