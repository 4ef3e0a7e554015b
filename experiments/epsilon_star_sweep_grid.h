// The configuration grid of the Epsilon* privacy-utility sweeps (Negoescu
// et al., "Epsilon*: Privacy Metric for Machine Learning Models", PPAI-24,
// §4.1 "Privacy strategies", Figs. 1-2; STUDIES.md C2
// `epsilon_star_sweep_adult` and C3 `epsilon_star_sweep_purchase`), and the
// torch-free analysis the two studies share (aggregates, Pareto frontiers).
//
// A "configuration" (the paper's "experiment", a privacy strategy with its
// hyperparameters) is either
//   - a BASELINE: non-private momentum SGD for e epochs (paper: e in
//     {1, 5, 10, 20} for Adult, {10, 50, 100} for Purchase-100), or
//   - a DP run: DP-SGD calibrated to a target eps (paper: {1, 3, 10, 100})
//     with clip norm C in {1, 10, 30}, batch size B in {64, 512} (Adult) or
//     {256, 1024} (Purchase-100), and m in {1, 32} microbatches (TensorFlow
//     Privacy's num_microbatches: m = 1 clips the mean gradient of the whole
//     batch), for dp_epochs epochs (lost in the paper; a parameter).
// The paper's grids: 4 + 4*3*2*2 = 52 configurations for Adult, 3 + 48 = 51
// for Purchase-100, each repeated five times on fixed data ("we fixed the
// training and non-training data sets ... repeated the experiments for each
// strategy five times"). Order: baselines by epochs, then DP by (eps, C, B, m)
// in the order the lists are given.
//
// Pareto frontier (§4.2): the paper defines it as the convex hull of the
// strategies "taken in a direction that improves the privacy or the
// utility". We compute both the non-dominated set (no other configuration
// has lower-or-equal Epsilon* AND higher-or-equal utility, one of them
// strictly) and its convex subset (the non-dominated points on the upper-left
// convex hull: no convex combination of two others is better in both).
#ifndef PRIVBENCH_EXPERIMENTS_EPSILON_STAR_SWEEP_GRID_H_
#define PRIVBENCH_EXPERIMENTS_EPSILON_STAR_SWEEP_GRID_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/flags.h"
#include "core/result.h"
#include "core/seeding.h"

namespace privbench {

// Every parameter the two studies share; each is a command-line parameter
// of the same name (RegisterSweepFlags).
struct EpsilonStarSweepConfig {
  // The grid.
  std::vector<int64_t> baseline_epochs;
  int64_t baseline_batch_size = 64;  // lost in the paper
  std::vector<double> target_eps;
  std::vector<double> clip_norms;
  std::vector<int64_t> batch_sizes;
  std::vector<int64_t> microbatches;  // TF Privacy num_microbatches (>= 1)
  int64_t dp_epochs = 10;             // lost in the paper
  int64_t repetitions = 5;
  // Training.
  double learning_rate = 0.01;
  double momentum = 0.9;
  std::string sampling = "poisson";  // every run: "poisson" or "shuffle"
  // Accounting. delta = 0 means delta = 1/n_train (the paper's "delta = 1/n"
  // reading; the exact expression was lost in extraction).
  double delta = 0.0;
  // Which rule turns the target eps into the trained noise multiplier:
  //   "tf_privacy_0_5_1": the paper's library: a microbatched run is
  //     accounted like a per-example one with noise multiplier sigma;
  //   "sound": accounting noise multiplier sigma/2 for microbatches of
  //     (expected) size > 1 (mechanisms/dpsgd.h), so the run really is
  //     (target eps, delta)-DP.
  std::string calibration_rule = "tf_privacy_0_5_1";
  // Epsilon*: thresholds per distribution (library default 1e6, the paper's).
  int64_t epsilon_star_quantiles = 1000000;
  // Sweep mechanics (not part of the unit configuration).
  std::string shard = "0/1";
  std::string parts_dir;  // empty: DefaultPartsDir()
  bool merge_only = false;
  bool plan_only = false;
};

// Registers every field above.
void RegisterSweepFlags(FlagSet& flags, EpsilonStarSweepConfig& c);
// Messages name the parameter ("repetitions must be >= 1, got 0").
Status ValidateSweepConfig(const EpsilonStarSweepConfig& c);

// One configuration of the grid.
struct SweepPoint {
  bool private_training = false;
  int64_t epochs = 0;
  int64_t batch_size = 0;
  double target_eps = 0.0;       // DP only (0 for baselines)
  double clip_norm = 0.0;        // DP only
  int64_t num_microbatches = 0;  // DP only
  std::string id;     // file-name safe: "baseline_epochs=5", "dp_eps=1_clip=10_batch=64_mb=32"
  std::string label;  // "baseline, 5 epochs", "DP eps=1, C=10, B=64, m=32"
  std::string kind() const { return private_training ? "dp" : "baseline"; }
};

// Baselines (by the order of baseline_epochs), then DP (eps, C, B, m nested).
std::vector<SweepPoint> BuildSweepGrid(const EpsilonStarSweepConfig& c);

// Shortest decimal text of a double with at most 6 significant digits
// ("1", "0.5", "1e-05").
std::string ShortNumber(double x);

// A unit's seed depends on its configuration's id through StableHash
// (core/seeding.h), not on its position in the grid, so a configuration
// trains the same models in any grid that contains it.

// Mean, minimum and maximum of the finite values (count = how many); all NaN
// when there are none.
struct MinMeanMax {
  double mean = 0.0;
  double min = 0.0;
  double max = 0.0;
  int64_t count = 0;
};
MinMeanMax Summarise(const std::vector<double>& values);

// Non-dominated points for "lower x is better, higher y is better": i is
// kept unless some j has x_j <= x_i and y_j >= y_i with one inequality
// strict. Points with a non-finite coordinate are never on the frontier and
// never dominate. Exact duplicates are all kept.
std::vector<bool> ParetoFrontier(const std::vector<double>& x, const std::vector<double>& y);

// The non-dominated points that lie on the upper-left convex hull (the
// paper's convex-hull frontier): points of ParetoFrontier() strictly below
// the segment joining their two neighbours on the frontier are dropped.
std::vector<bool> ConvexParetoFrontier(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_SWEEP_GRID_H_
