// Study ml_audit (README.md): every audit case (mechanism x attack x
// neighbour mode) on every dataset, over the eps_th x k x replicate grid,
// with ML-Audit's Algorithm 1 (estimators/output_set_audit/output_set_audit.h).
//
// Cases (AuditCases): role "audit" pairs each correct mechanism with its
// attacks in the neighbour mode of its own adjacency (replace for the
// logistic regressions, add for naive Bayes and the forest); "bug1" is naive
// Bayes exposing its noisy counts, audited with added copies of the corner
// flip; "bug2" is the forest audited with the replace-one label flip;
// "weakened" is each mechanism with every noise scale multiplied by
// --weakened_factor, attacked with its strongest attack.
//
// The guarantee an audit checks (README.md here): eps_th when the
// neighbour is of the mechanism's own adjacency; 2 eps_th when an
// add/remove mechanism is audited with replacements (one replacement is two
// add/remove steps). Each bound is per copy (divided by k), so it is
// compared with the per-copy guarantee.
#ifndef PRIVBENCH_EXPERIMENTS_ML_AUDIT_COMPUTE_H_
#define PRIVBENCH_EXPERIMENTS_ML_AUDIT_COMPUTE_H_

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "attacks/poisoning/poisoning.h"
#include "core/result.h"
#include "estimators/output_set_audit/output_set_audit.h"
#include "experiments/ml_audit/config.h"
#include "experiments/ml_audit/data.h"
#include "mechanisms/classical/mechanism.h"

namespace privbench::ml_audit {

struct AuditCase {
  std::string id;  // e.g. "lr_output.influence.replace"
  std::string mechanism;
  std::string variant;  // "" or "expose_counts"
  std::string attack;
  NeighbourMode mode = NeighbourMode::kReplace;
  double noise_factor = 1.0;
  std::string role;  // audit | bug1 | bug2 | weakened
};

// The draws of tau(M(D)) from a prepared sampler, as Algorithm 1 takes them
// (the sampler must outlive the draws): each request of count draws is one
// SummarySampler::DrawMany (lr_objective solves them together; the same rng
// stream and order as count single draws).
SummaryDraws DrawsOf(SummarySampler* sampler);

// The case table, filtered by the config's mechanisms, attacks and roles.
std::vector<AuditCase> AuditCases(const Config& config);

// The per-copy guarantee factor of a case (1 or 2, see above).
double GuaranteeFactor(const AuditCase& c);

// One audit: a cell of the grid.
struct AuditCell {
  double eps = 0;
  int64_t k = 1, replicate = 0;
  int64_t n = 0;         // N per side of this audit
  double guarantee = 0;  // per copy
  double eps_lb = 0, eps_lb_raw = 0, search_bound = 0, threshold = 0;
  int64_t search_n1 = 0, search_n0 = 0, fresh_n1 = 0, fresh_n0 = 0;
  bool complement = false, haldane = false;
  // lr_output only (NaN otherwise): the largest per-copy privacy loss this
  // neighbour pair can show to any test, ||w*(D) - w*(D')|| / (s k) with s
  // the noise's scale (README.md, limits): an audit above it is
  // impossible, and a guarantee above it cannot be caught on this pair.
  double max_loss = NAN;
};

struct UnitResult {
  std::string dataset;
  AuditCase audit_case;
  Poison poison;
  int64_t replaced_row = -1;  // order[0]
  int64_t summary_dim = 0;
  std::string mechanism_description;
  std::string classifier;
  std::vector<AuditCell> cells;  // eps-major, then k, then replicate
  double seconds = 0;
};

// Runs every cell of one (dataset, case) unit. Seeds: DeriveSeed(seed,
// {StableHash(unit id), cell index}); the forest's row-to-tree assignment
// from DeriveSeed(seed, {StableHash(dataset)}) (the same for D and D').
Result<UnitResult> RunAuditUnit(const AuditDataset& ds, const AuditCase& c, const Config& config,
                                uint64_t seed);

std::string UnitId(const std::string& dataset, const AuditCase& c);

}  // namespace privbench::ml_audit

#endif  // PRIVBENCH_EXPERIMENTS_ML_AUDIT_COMPUTE_H_
