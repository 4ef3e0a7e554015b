// The computation of study D2 `ml_audit_dpsgd` (README.md):
// ML-Audit's Algorithm 1 (estimators/output_set_audit/output_set_audit.h; Lu et al., NeurIPS
// 2022, Sec. 4) against DP-SGD (Sec. 5, "DP-SGD") on two Fashion-MNIST
// classes (models.h).
//
// Mechanism: DP-SGD with sigma calibrated by the RDP accountant of the
// Poisson-sampled Gaussian mechanism (add/remove adjacency) so that the run
// on D is (eps_th, delta)-DP, q = batch_size / n_train, T = ceil(epochs /
// q). Neighbour pairs (SideInsertion, models.h PoisonedRows):
//  - append (shadow always; clipbkd with --clipbkd_pair=append): D = the
//    n_train rows, D' = D plus k copies of the poison labelled y*. The engine
//    samples D' at batch_size / (n_train + k) (lower) for the same T
//    (Validate refuses an n_train at which T would change), so its run is
//    at least as private. Group size k: (k eps_th, k e^{(k-1) eps_th}
//    delta)-DP.
//  - flip_replace (clipbkd with --clipbkd_pair=flip_replace; Jagielski et
//    al.'s public Fashion-MNIST pair): D = the rows with the last k replaced
//    by (x*, 1 - y*), D' = the same with (x*, y*). Both hold n_train rows:
//    the same q and T, both runs (eps_th, delta)-DP as calibrated. Each
//    replaced row is a removal plus an addition, so D and D' are at
//    add/remove distance 2k: group size 2k, (2k eps_th, 2k e^{(2k-1)
//    eps_th} delta)-DP.
// Algorithm 1 divides its bound by the group size (GroupSize), so every
// eps_lb is per add/remove row and the validity claim compares it with
// eps_th itself (equivalently, the raw bound with group size x eps_th).
//
// ClipBKD's y*: from non-private networks (DesignClipBkd), or with
// --clipbkd_label_from=dp from clipbkd_label_models DP-SGD networks on D's
// rows at each eps_th's sigma (one y* per eps_th; ML-Audit Sec. 4.1, step 2
// allows averaging DP outputs), seeded DeriveSeed(seed, {13, e}).
//
// Sides: for every poison the attacks need and every k, a D side and a D'
// side (above). Each side trains 2N models per eps_th and
// replicate: N for the search and N fresh (Algorithm 1 draws them in that
// order). Model j of a side at eps index e in replicate r is seeded
// DeriveSeed(seed, {e, code, k, j, r}) (code: 1 clipbkd D', 2 shadow D',
// 3 clipbkd D, 4 shadow D), so results do not depend on threads, shards or
// the selection of other sides. Every (eps_th, poison, k, replicate) has
// its own D and D' models, so its audits are independent of the other
// cells' given the data and the poisons (designed once per seed; the
// validity claim's binomial count needs it); the two ClipBKD summaries
// share their models (report.h). Replicates repeat the audit as the paper
// does (Sec. 5: three, the median reported).
//
// Summaries tau of a model, from its probe vector (models.h):
//   clipbkd:     P_{y*}(x*) - P_{y*}(0)                  (Jagielski et al.; ML-Audit Sec. 5)
//   clipbkd_vec: (P_{y*}(x*), P_{y*}(0), P_{y*}(t_1..m))  (ML-Audit Sec. 4.1's vector tau)
//   shadow:      P_{y*}(x*) of the shadow poison          (Nasr et al. 2021)
#ifndef PRIVBENCH_EXPERIMENTS_ML_AUDIT_DPSGD_COMPUTE_H_
#define PRIVBENCH_EXPERIMENTS_ML_AUDIT_DPSGD_COMPUTE_H_

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/result.h"
#include "estimators/output_set_audit/output_set_audit.h"
#include "experiments/ml_audit_dpsgd/config.h"
#include "experiments/ml_audit_dpsgd/models.h"

namespace privbench {
namespace ml_audit_dpsgd {

std::vector<std::string> AttackNames();   // clipbkd, clipbkd_vec, shadow
std::vector<std::string> PairNames();     // append, flip_replace
std::vector<std::string> LabelSources();  // nonprivate, dp
// The non-empty items of a comma-separated list.
std::vector<std::string> SplitNames(const std::string& text);
// The poison an attack inserts: "clipbkd" or "shadow".
std::string PoisonOf(const std::string& attack);

struct Calibration {
  double eps_th = 0, sigma = 0, eps_rdp = 0, q = 0;
  int64_t steps = 0;
};
// T = ceil(epochs * n / batch_size).
int64_t Steps(const Config& c, int64_t n);
Result<std::vector<Calibration>> Calibrate(const Config& c);

struct Side {
  std::string poison;  // "clipbkd", "shadow"
  int64_t k = 1;
  // D (no poison; flip_replace: k copies labelled 1 - y* in place of the
  // last rows), else D' (k copies labelled y*, appended or in place).
  bool clean = false;
  std::string Name() const;  // "D_clipbkd_k4", "Dprime_clipbkd_k4"
};
std::vector<Side> Sides(const Config& c);

// The neighbour pair of a poison: "append", or c.clipbkd_pair for clipbkd.
std::string PairOf(const Config& c, const std::string& poison);
// Add/remove rows in which D and D' of an attack at k differ: k (append),
// 2k (flip_replace). Algorithm 1's bound is divided by it.
int64_t GroupSize(const Config& c, const std::string& attack, int64_t k);

struct Unit {
  size_t replicate = 0, eps_index = 0, side_index = 0;
  int64_t first = 0, count = 0;  // models [first, first + count) of 2N
  std::string id;
};
std::vector<Unit> Units(const Config& c);

struct Poisons {
  PoisonPoint clipbkd, shadow;  // clipbkd.y: the non-private networks' label
  // ClipBKD's y* per eps_th, with its mean probability at x* under the
  // networks that chose it (nonprivate: clipbkd's, at every eps_th).
  std::vector<ClipBkdLabel> clipbkd_labels;
  // clipbkd with the label of eps index e.
  PoisonPoint ClipBkdAt(size_t e) const;
};
TrainSpec BaseSpec(const Config& c);
Result<Poisons> DesignPoisons(const AuditData& d, const Config& c,
                              const std::vector<Calibration>& cal, uint64_t seed);

// The poison copies in the training set of a side's models at eps index e.
Insertion SideInsertion(const Config& c, const Side& side, const Poisons& p, size_t e);

// The probe vectors (count x ProbeDim, row-major) of a unit's models.
Result<std::vector<double>> RunUnit(const AuditData& d, const Poisons& p, const Config& c,
                                    const std::vector<Calibration>& cal, const Unit& u,
                                    uint64_t seed);

// Summaries of `models` probe vectors for an attack; *dim gets tau's length.
std::vector<double> Summaries(const std::string& attack, const std::vector<double>& probes,
                              int64_t probe_dim, int64_t* dim);

// Probe vectors per (replicate, eps index, side index), 2N rows each.
using PoolKey = std::tuple<size_t, size_t, size_t>;
using Pools = std::map<PoolKey, std::vector<double>>;

struct AuditRow {
  double eps_th = 0, sigma = 0;
  std::string attack;
  int64_t k = 1;
  int64_t group = 1;            // GroupSize: the bound is divided by it
  std::string pair = "append";  // PairOf the attack's poison
  int64_t replicate = 0;
  int64_t summary_dim = 0;
  MlAuditResult result;
};
// Algorithm 1 for every replicate x eps_th x attack x k.
Result<std::vector<AuditRow>> RunAudits(const Config& c, const std::vector<Calibration>& cal,
                                        const Pools& pools, uint64_t seed);

}  // namespace ml_audit_dpsgd
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_ML_AUDIT_DPSGD_COMPUTE_H_
