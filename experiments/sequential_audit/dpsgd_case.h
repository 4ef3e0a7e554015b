// Study sequential_audit, its DP-SGD case: a sequential audit of each STEP
// of privbench's DP-SGD engine (mechanisms/dpsgd.h, internal::DpSgdStep)
// from the steps of one training run ([GDRR] = González, Dulce-Rubio, Ramdas
// & Ribero, NeurIPS 2025: "identifies DP-SGD privacy violations in under one
// training run").
//
// SETUP. Logistic regression (LogisticRegressionSpec(d + 1, 2)) on
// dpsgd_rows synthetic rows: d standard-normal features, label 1[x.w* + e >
// 0] (w* = 1/sqrt(d), e ~ N(0, 1)), and a (d+1)-th feature that is 0 on every
// row. The canary row is dirac_value on that feature alone; its label is 1 at
// odd steps and 0 at even ones (CANARY below). Each
// step: a Poisson batch of the rows (q = batch_size / rows, the engine's
// BatchSampler), plus the canary when a fair coin says so (the round's
// truth); per-example clipping to C, Gaussian noise, momentum 0 and no weight
// decay, so the step's update is -lr times the released gradient.
//
// WHAT IS OBSERVED. s = +-[change of W[1, d] - W[0, d]] * B / (lr sqrt(2) C)
// (+ at odd steps, - at even ones), B the normaliser (the expected batch
// size). No base row touches column d, so s = (the canary's clipped
// contribution projected on +-(e_{0,d} - e_{1,d})/sqrt 2, in units of C; at
// most 1) + N(0, sigma^2) noise: each
// step is a Gaussian mechanism of sensitivity <= 1 and noise sigma in these
// units, i.e. (1/sigma)-GDP, given every earlier step (fresh noise, fresh
// coin). That per-step claim, mu = 1/sigma, is the audited null; the round
// is a game round with the pre-registered rule s > 1/2.
//
// CANARY. With a fixed label the model learns the canary: its loss, hence
// its gradient, shrinks below the clipping norm and the signal fades (with
// the bug below, within a few hundred steps). The canary's column of W starts
// at 0 and its label alternates by step parity, fixed in advance: W[1, d] -
// W[0, d] stays near 0, the canary's
// gradient far above C (clipped) and its contribution near
// dirac / sqrt(dirac^2 + 1) of the maximum, at every step.
//
// THE BUG (variant "noise_on_mean"): the noise std is calibrated as if the
// noise were added to the averaged gradient: sigma C / B is passed where
// the engine adds noise to the clipped SUM (before dividing by B), so the
// averaged gradient carries noise sigma C / B^2 instead of sigma C / B.
// The code path is the engine's own step; only the noise std passed in
// differs, which is how this bug arises in a training loop built on such a
// step. Per step it is (B/sigma)-GDP while claiming 1/sigma.
#ifndef PRIVBENCH_EXPERIMENTS_SEQUENTIAL_AUDIT_DPSGD_CASE_H_
#define PRIVBENCH_EXPERIMENTS_SEQUENTIAL_AUDIT_DPSGD_CASE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/sequential_audit/config.h"

namespace privbench {
namespace sequential_audit {

enum class DpsgdVariant { kCorrect, kNoiseOnMean };
std::string DpsgdVariantName(DpsgdVariant v);  // "correct", "noise_on_mean"

// The per-step mu grid audited (the claim 1/sigma among them).
std::vector<double> DpsgdMuGrid(const Config& c);

struct DpsgdRun {
  int64_t steps = 0;
  int64_t canary_steps = 0;  // steps whose coin included the canary
  int64_t correct_guesses = 0;
  int64_t rejected_at = 0;  // step at which the per-step claim 1/sigma was rejected; 0 = never
  std::optional<double> largest_rejected_mu;  // per step, the prefix rule
  std::vector<double> trace;                  // ln K of the claim after each step
  double final_train_accuracy = 0.0;
};

// config.dpsgd_runs training runs of the variant, each audited step by step.
Result<std::vector<DpsgdRun>> RunDpsgdAudits(const Config& c, DpsgdVariant variant, uint64_t seed);

}  // namespace sequential_audit
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_SEQUENTIAL_AUDIT_DPSGD_CASE_H_
