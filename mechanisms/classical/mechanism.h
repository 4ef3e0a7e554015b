// The interface of the classical DP learners audited by ML-Audit (Lu et al.,
// NeurIPS 2022, Sec. 5; experiments/ml_audit/README.md): a mechanism is prepared once on
// a dataset (one data pass: fits, counts, sums) and then draws the summary
// tau(M(D)) of as many independent outputs as the audit needs.
//
// Adjacency (experiments/ml_audit/README.md): each mechanism's privacy proof holds for
// one neighbour relation, declared by adjacency(): replace_one (D' replaces
// one row of D) or add_remove (D' adds or removes one row). A replace-one
// change is two add/remove steps, so an add/remove mechanism guarantees 2 eps
// against replace-one neighbours (group privacy); a replace-one mechanism
// guarantees nothing against add/remove neighbours (n itself may show).
//
// Weakened mechanisms (the auditor's bug-detection test): noise_factor < 1
// multiplies every noise scale (Laplace, Gamma norm, the exponential
// mechanism's 1/eps) by that factor, so the mechanism is about eps /
// noise_factor-DP while claiming eps.
#ifndef PRIVBENCH_MECHANISMS_CLASSICAL_MECHANISM_H_
#define PRIVBENCH_MECHANISMS_CLASSICAL_MECHANISM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/seeding.h"
#include "mechanisms/classical/data.h"

namespace privbench {

enum class Adjacency { kReplaceOne, kAddRemove };
std::string AdjacencyName(Adjacency adjacency);  // "replace_one" | "add_remove"

// Draws summaries tau(M(D)) for the dataset it was prepared on.
class SummarySampler {
 public:
  virtual ~SummarySampler() = default;
  virtual int64_t dim() const = 0;
  // One independent draw of tau(M(D)) into out[0, dim()).
  virtual Status Draw(Rng& rng, double* out) = 0;
  // k independent draws into out[0, k dim()), row by row: the same draws, in
  // the same order, from the same rng stream as k calls of Draw (a sampler
  // that solves per draw may solve them together, to within its solver's
  // tolerance of Draw's outputs). Errors name a bad argument (k >= 1, out
  // non-null).
  Status DrawMany(Rng& rng, int64_t k, double* out);

 protected:
  // DrawMany after its checks; the default calls Draw k times.
  virtual Status DrawManyChecked(Rng& rng, int64_t k, double* out);
};

struct MechanismOptions {
  double eps = 1.0;           // the claimed eps (> 0); delta = 0 for all of them
  double noise_factor = 1.0;  // 1: the correct mechanism; < 1: weakened (see above)
  // Mechanism-specific variant: "" (textbook), lr_objective:
  // "diffprivlib_0_5" (the audited library's calibration,
  // lr_objective_diffprivlib.h), nb: "expose_counts" (the
  // library's bug 1, experiments/ml_audit/README.md).
  std::string variant;
  // Logistic regression's L2 regulariser lambda; 0: 1/n (the library's
  // default C = 1 in F = C sum loss + ||w||^2 / 2).
  double lambda = 0.0;
  // Random forest: trees, and the seed of the data-independent assignment
  // of rows to trees (the same for D and D').
  int64_t trees = 10;
  uint64_t partition_seed = 0;
};

class ClassicalMechanism {
 public:
  virtual ~ClassicalMechanism() = default;
  virtual std::string name() const = 0;
  virtual Adjacency adjacency() const = 0;
  // Algorithm, citation and every option in effect, for /meta.
  virtual std::string Describe() const = 0;
  // One data pass over `data` (rows within `bounds`, which are fixed before
  // poisoning and shared by D and D'); `target_x` is the point x* whose
  // predictions are summarised (random forest; others ignore it).
  virtual Result<std::unique_ptr<SummarySampler>> Prepare(
      const BinaryData& data, const DataBounds& bounds,
      const std::vector<double>& target_x) const = 0;
};

// "lr_output", "lr_objective", "nb", "rf"; errors name the argument
// `mechanism` and list the valid names, or the bad option.
Result<std::unique_ptr<ClassicalMechanism>> MakeClassicalMechanism(const std::string& name,
                                                                   const MechanismOptions& options);
std::vector<std::string> ClassicalMechanismNames();

// Factories (one per file).
std::unique_ptr<ClassicalMechanism> MakeLrOutput(const MechanismOptions& options);
std::unique_ptr<ClassicalMechanism> MakeLrObjective(const MechanismOptions& options);
std::unique_ptr<ClassicalMechanism> MakeNaiveBayes(const MechanismOptions& options);
std::unique_ptr<ClassicalMechanism> MakeRandomForest(const MechanismOptions& options);

// A point uniform on the unit sphere of dimension m times a Gamma(m, scale)
// radius: the density proportional to exp(-||b|| / scale) of Chaudhuri et
// al.'s noise (Alg. 1-2).
void DrawGammaNormVector(Rng& rng, int64_t m, double scale, double* out);

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_CLASSICAL_MECHANISM_H_
