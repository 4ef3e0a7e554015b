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
#include "data_scripts/dataset.h"
#include "experiments/lib/framework/study.h"
#include "experiments/lira_bayes_audit/config.h"
#include "experiments/lira_bayes_audit/training.h"

namespace privbench {
namespace lira_bayes_audit {

// The audit's data: pool_size random training images (seed-derived) and
// test_size random test images of the dataset --dataset names, as the model
// sees them: Fashion-MNIST pixels / 255; CIFAR-10 pixels / 255, then
// standardised per channel, as the paper's public code
// (microsoft/responsible-ai-toolbox-privacy, experiments/scripts/
// upload-dataset.py, CIFAR10Normalized: ToTensor, then Normalize with the
// training set's channel means and standard deviations,
// data_scripts/cifar10.h). The paper's text does not describe its
// preprocessing; the code is followed.
struct LoadedData {
  AuditData data;
  std::vector<int64_t> pool_rows;  // index of each pool point among the training images
  std::vector<int64_t> test_rows;  // index of each test row among the 10,000 (RMIA's z)
  std::string provenance, source, checksums;
  std::string preprocessing;  // what was done to the pixels, for /meta
};
Result<LoadedData> LoadAuditData(const Config& c, uint64_t seed);

// LoadAuditData's second half: the rows of `d` (the dataset c.dataset
// names, as its loader returns it) drawn and preprocessed.
Result<LoadedData> PrepareAuditData(const Dataset& d, const Config& c, uint64_t seed);

// Training images of a --dataset value: 50,000 for cifar10, else 60,000
// (Fashion-MNIST).
int64_t TrainImages(const std::string& dataset);

// The start-up check of --dataset=cifar10 (main.cc's Validate, exit 2): the
// six converted files and SHA256SUMS are where --data_dir or
// PRIVBENCH_DATA_DIR say, else an error naming --data_dir and
// `python3 data_scripts/download_cifar10.py DIR`. OK for Fashion-MNIST,
// whose loader reports a missing directory when the run starts.
Status CheckDatasetFound(const Config& c);

Status RunAudit(const Config& c, StudyContext& ctx);

}  // namespace lira_bayes_audit
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_RUN_H_
