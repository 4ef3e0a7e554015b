// The two-phase sharded sweep of study lira_bayes_audit (README.md)
// on the framework's sweep machinery (experiments/lib/framework/sweep.h).
//
// Phase 1 trains the shadow models of both settings (units of
// models_per_unit models, parts "<parts_dir>/lira_bayes_audit.shadows.<key>"),
// each part holding the models' phi on every pool point (not the models).
// When every shadow part exists, SelectWorst picks each setting's challenge
// points and the game is planned; phase 2 trains the target models (one per
// trial; parts "lira_bayes_audit.targets.<key>", the key covering the
// selection too), each part holding phi of its trials' challenge points.
// When both phases are complete the study file is assembled and written.
//
// With --shard=i/n a process runs its share of the pending units of the
// current phase and ends without a study file while other shards' units are
// pending: a cluster runs the array job until the file appears (twice when
// nothing was computed yet: once per phase); --merge_only assembles only.
#ifndef PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_RUN_H_
#define PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_RUN_H_

#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/lib/framework/study.h"
#include "experiments/lira_bayes_audit/config.h"
#include "experiments/lira_bayes_audit/training.h"

namespace privbench {
namespace lira_bayes_audit {

// The audit's data: pool_size random training images (seed-derived) and
// test_size random test images of Fashion-MNIST.
struct LoadedData {
  AuditData data;
  std::vector<int64_t> pool_rows;  // index of each pool point among the 60,000
  std::vector<int64_t> test_rows;  // index of each test row among the 10,000 (RMIA's z)
  std::string provenance, source, checksums;
};
Result<LoadedData> LoadAuditData(const Config& c, uint64_t seed);

Status RunAudit(const Config& c, StudyContext& ctx);

}  // namespace lira_bayes_audit
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_RUN_H_
