// Neighbour search by poisoning for auditing classical DP learners
// (ML-Audit, Lu et al., NeurIPS 2022, Secs. 3 and 5; experiments/ml_audit/README.md).
// A poisoning designs one row (x*, y*) inside the constraint set C (the
// data bounds fixed before poisoning, mechanisms/classical/data.h) and the
// rows it takes the place of; MakeNeighbour builds D' from it:
//   replace: the first k rows of `order` are replaced by (x*, y*) (a
//            replace-one neighbour at k = 1, a group of k replacements);
//   add:     k copies of (x*, y*) are appended (an add/remove neighbour at
//            k = 1, a group of k additions).
// Attacks (each states which row it moves and where):
//   influence (logistic regression; the paper's attack): fit the non-private
//     L2 logistic regression; take the row nearest a corner of the bounding
//     box, keep its label, start x* at the mean of the opposite class and
//     run projected gradient ascent on the influence ||H^-1 grad loss(x*,
//     y*)||_2, projecting into the box and the ball of radius R;
//   ma (Ma, Zhu & Hsu, "Data Poisoning against Differentially-Private
//     Learners", IJCAI 2019; the paper's ablation): coefficient targeting —
//     a target theta_t perpendicular to the non-private theta_hat (seeded
//     random direction, same norm); (x*, y*) in C maximises the first-order
//     move of theta towards theta_t, u . (-H^-1 grad loss(x*, y*)), by
//     projected gradient ascent (both labels, started at each class mean);
//     it replaces a seeded random row;
//   clipbkd (Jagielski, Ullman & Oprea, NeurIPS 2020): x* = the direction of
//     least variance of the rows (smallest eigenvector of their covariance)
//     scaled to the median row norm, projected into C; y* the label the
//     non-private logistic regression finds least likely at x*; the replaced
//     rows are a seeded random order;
//   swapx: a seeded random row moved onto a random row of the opposite
//     class, label kept;
//   nb_flip (naive Bayes prior + mean attack, Lu et al. Sec. 5): the row
//     nearest a corner of the box with its label flipped, x kept;
//   nb_mean (mean-only): the row nearest a corner moved to the opposite
//     (farthest) corner, label kept;
//   rf_flip (random forest): the most isolated row (largest L1 distance to
//     its nearest neighbour) with its label flipped, x unchanged.
// The DP-SGD attacks (ClipBKD for networks, shadow-adversarial) are in
// attacks/dpsgd_poisoning.
#ifndef PRIVBENCH_ATTACKS_POISONING_POISONING_H_
#define PRIVBENCH_ATTACKS_POISONING_POISONING_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "mechanisms/classical/data.h"

namespace privbench {

struct Poison {
  std::string attack;
  std::vector<double> x;       // x*
  int y = 0;                   // y*
  std::vector<int64_t> order;  // rows replaced, first first (replace mode)
  double influence = 0;        // ||H^-1 grad loss|| of (x*, y*) (every attack; for comparison)
};

enum class NeighbourMode { kReplace, kAdd };
std::string NeighbourModeName(NeighbourMode mode);  // "replace" | "add"

std::vector<std::string> PoisoningAttackNames();

// Designs the attack on D. `lambda` is the logistic regression's
// regulariser (0: 1/n) used by the attacks that fit one; `seed` drives the
// random choices. Errors name `attack`.
Result<Poison> DesignPoison(const std::string& attack, const BinaryData& data,
                            const DataBounds& bounds, double lambda, uint64_t seed);

// D' as above; k >= 1 (replace: k <= n).
Result<BinaryData> MakeNeighbour(const BinaryData& data, const Poison& poison, NeighbourMode mode,
                                 int64_t k);

// Helpers (exposed for tests).
// Per-row squared distance to the nearest corner of the box.
std::vector<double> CornerDistances(const BinaryData& data, const DataBounds& bounds);
// The corner nearest x (farthest if `far`).
std::vector<double> Corner(const double* x, const DataBounds& bounds, bool far);
// x projected into the box, then scaled into the ball of the bounds.
void ProjectIntoBounds(const DataBounds& bounds, std::vector<double>* x);
// Per row, the L1 distance to its nearest other row (infinity when n = 1),
// the same doubles as the naive O(n^2 d) scan summing in feature order
// (rf_flip's isolation score): a search outwards in the order of a random
// sign projection (a lower bound on L1 distances, with a rounding slack),
// pruned by two more projections and by partial sums.
std::vector<double> NearestNeighbourL1(const BinaryData& data);

}  // namespace privbench

#endif  // PRIVBENCH_ATTACKS_POISONING_POISONING_H_
