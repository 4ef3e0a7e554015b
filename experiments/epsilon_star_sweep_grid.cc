#include "experiments/epsilon_star_sweep_grid.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

#include "core/validate.h"
#include "experiments/framework/sweep.h"

namespace privbench {

void RegisterSweepFlags(FlagSet& flags, EpsilonStarSweepConfig& c) {
  flags.AddIntList("baseline_epochs", &c.baseline_epochs,
                   "epochs of the non-private baselines (paper: Adult 1,5,10,20; "
                   "Purchase-100 10,50,100)");
  flags.AddInt("baseline_batch_size", &c.baseline_batch_size,
               "batch size of the baselines (lost in the paper)");
  flags.AddDoubleList("target_eps", &c.target_eps, "DP-SGD target eps (paper: 1,3,10,100)");
  flags.AddDoubleList("clip_norms", &c.clip_norms, "DP-SGD clip norms C (paper: 1,10,30)");
  flags.AddIntList("batch_sizes", &c.batch_sizes,
                   "DP-SGD batch sizes (paper: Adult 64,512; Purchase-100 256,1024)");
  flags.AddIntList("microbatches", &c.microbatches,
                   "DP-SGD numbers of microbatches, TF Privacy's num_microbatches (paper: 1,32)");
  flags.AddInt("dp_epochs", &c.dp_epochs, "epochs of every DP-SGD run (lost in the paper)");
  flags.AddInt("repetitions", &c.repetitions, "models per configuration (paper: 5)");
  flags.AddDouble("learning_rate", &c.learning_rate, "SGD learning rate (paper: 0.01)");
  flags.AddDouble("momentum", &c.momentum, "SGD momentum (paper: 0.9)");
  flags.AddString("sampling", &c.sampling,
                  "batch sampling of every run: poisson (what the accountant assumes) or "
                  "shuffle (no eps is reported)");
  flags.AddDouble("delta", &c.delta,
                  "DP delta; 0 means 1/n_train (the paper's 1/n; lost in extraction)");
  flags.AddString("calibration_rule", &c.calibration_rule,
                  "noise calibration: tf_privacy_0_5_1 (the paper's library: microbatched runs "
                  "accounted with sigma) or sound (sigma/2 for microbatches of size > 1)");
  flags.AddInt("epsilon_star_quantiles", &c.epsilon_star_quantiles,
               "Epsilon* thresholds per distribution (library default and paper: 1e6)");
  flags.AddString("shard", &c.shard, "run the units k with k mod n == i (--shard=i/n)");
  flags.AddString("parts_dir", &c.parts_dir,
                  "directory of the per-unit parts (empty: <workspace>/results/parts)");
  flags.AddBool("merge_only", &c.merge_only,
                "assemble the study file from existing parts without training");
  flags.AddBool("plan_only", &c.plan_only,
                "print the units, the calibrated noise and a projected run time; no training, "
                "no study file");
}

namespace {

Status CheckList(const std::string& name, size_t size) {
  if (size == 0) return Error(name + " must list at least one value");
  return Status::Ok();
}

template <typename T>
Status CheckDistinct(const std::string& name, const std::vector<T>& v) {
  std::set<T> s(v.begin(), v.end());
  if (s.size() != v.size()) return Error(name + " must not repeat a value");
  return Status::Ok();
}

}  // namespace

Status ValidateSweepConfig(const EpsilonStarSweepConfig& c) {
  for (int64_t e : c.baseline_epochs) {
    if (e < 1) return Error("baseline_epochs must be >= 1, got " + std::to_string(e));
  }
  PB_RETURN_IF_ERROR(CheckDistinct("baseline_epochs", c.baseline_epochs));
  PB_RETURN_IF_ERROR(CheckPositiveCount("baseline_batch_size", c.baseline_batch_size));
  // The DP lists may all be empty (baselines only) but not partly.
  const bool any_dp = !c.target_eps.empty() || !c.clip_norms.empty() || !c.batch_sizes.empty() ||
                      !c.microbatches.empty();
  if (any_dp) {
    PB_RETURN_IF_ERROR(CheckList("target_eps", c.target_eps.size()));
    PB_RETURN_IF_ERROR(CheckList("clip_norms", c.clip_norms.size()));
    PB_RETURN_IF_ERROR(CheckList("batch_sizes", c.batch_sizes.size()));
    PB_RETURN_IF_ERROR(CheckList("microbatches", c.microbatches.size()));
  }
  if (c.baseline_epochs.empty() && !any_dp) {
    return Error("baseline_epochs and target_eps are both empty: nothing to train");
  }
  for (double e : c.target_eps) {
    if (!(std::isfinite(e) && e > 0.0)) {
      return Error("target_eps must be finite and > 0, got " + FormatDouble(e));
    }
  }
  PB_RETURN_IF_ERROR(CheckDistinct("target_eps", c.target_eps));
  for (double v : c.clip_norms) {
    if (!(std::isfinite(v) && v > 0.0)) {
      return Error("clip_norms must be finite and > 0, got " + FormatDouble(v));
    }
  }
  PB_RETURN_IF_ERROR(CheckDistinct("clip_norms", c.clip_norms));
  for (int64_t b : c.batch_sizes) {
    if (b < 1) return Error("batch_sizes must be >= 1, got " + std::to_string(b));
  }
  PB_RETURN_IF_ERROR(CheckDistinct("batch_sizes", c.batch_sizes));
  for (int64_t m : c.microbatches) {
    if (m < 1) {
      return Error("microbatches must be >= 1 (TF Privacy's num_microbatches), got " +
                   std::to_string(m));
    }
    if (c.sampling == "shuffle") {
      for (int64_t b : c.batch_sizes) {
        if (b % m != 0) {
          return Error("microbatches " + std::to_string(m) + " must divide every batch size " +
                       "with sampling=shuffle, got batch size " + std::to_string(b));
        }
      }
    }
  }
  PB_RETURN_IF_ERROR(CheckDistinct("microbatches", c.microbatches));
  PB_RETURN_IF_ERROR(CheckPositiveCount("dp_epochs", c.dp_epochs));
  PB_RETURN_IF_ERROR(CheckPositiveCount("repetitions", c.repetitions));
  if (c.repetitions > 1000) {
    return Error("repetitions must be <= 1000, got " + std::to_string(c.repetitions));
  }
  PB_RETURN_IF_ERROR(CheckPositive("learning_rate", c.learning_rate));
  if (!std::isfinite(c.learning_rate)) {
    return Error("learning_rate must be finite, got " + FormatDouble(c.learning_rate));
  }
  if (!(c.momentum >= 0.0 && c.momentum < 1.0)) {
    return Error("momentum must be in [0, 1), got " + FormatDouble(c.momentum));
  }
  if (c.sampling != "poisson" && c.sampling != "shuffle") {
    return Error("sampling must be poisson or shuffle, got '" + c.sampling + "'");
  }
  if (!(c.delta >= 0.0 && c.delta < 1.0)) {
    return Error("delta must be in [0, 1) (0: 1/n_train), got " + FormatDouble(c.delta));
  }
  if (c.calibration_rule != "tf_privacy_0_5_1" && c.calibration_rule != "sound") {
    return Error("calibration_rule must be tf_privacy_0_5_1 or sound, got '" + c.calibration_rule +
                 "'");
  }
  if (c.epsilon_star_quantiles < 1 || c.epsilon_star_quantiles > 1000000000) {
    return Error("epsilon_star_quantiles must be in [1, 1e9], got " +
                 std::to_string(c.epsilon_star_quantiles));
  }
  PB_RETURN_IF_ERROR(ParseShard(c.shard).status());
  if (c.merge_only && c.plan_only) return Error("merge_only and plan_only exclude each other");
  return Status::Ok();
}

std::string ShortNumber(double x) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.6g", x);
  return buf;
}

std::vector<SweepPoint> BuildSweepGrid(const EpsilonStarSweepConfig& c) {
  std::vector<SweepPoint> points;
  for (int64_t e : c.baseline_epochs) {
    SweepPoint p;
    p.private_training = false;
    p.epochs = e;
    p.batch_size = c.baseline_batch_size;
    p.id = "baseline_epochs=" + std::to_string(e);
    p.label = "baseline, " + std::to_string(e) + (e == 1 ? " epoch" : " epochs");
    points.push_back(p);
  }
  for (double eps : c.target_eps) {
    for (double clip : c.clip_norms) {
      for (int64_t b : c.batch_sizes) {
        for (int64_t m : c.microbatches) {
          SweepPoint p;
          p.private_training = true;
          p.epochs = c.dp_epochs;
          p.batch_size = b;
          p.target_eps = eps;
          p.clip_norm = clip;
          p.num_microbatches = m;
          p.id = "dp_eps=" + ShortNumber(eps) + "_clip=" + ShortNumber(clip) +
                 "_batch=" + std::to_string(b) + "_mb=" + std::to_string(m);
          p.label = "DP eps=" + ShortNumber(eps) + ", C=" + ShortNumber(clip) +
                    ", B=" + std::to_string(b) + ", m=" + std::to_string(m);
          points.push_back(p);
        }
      }
    }
  }
  return points;
}

MinMeanMax Summarise(const std::vector<double>& values) {
  MinMeanMax s;
  double sum = 0.0;
  s.min = std::numeric_limits<double>::infinity();
  s.max = -std::numeric_limits<double>::infinity();
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    sum += v;
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
    ++s.count;
  }
  if (s.count == 0) {
    s.mean = s.min = s.max = std::numeric_limits<double>::quiet_NaN();
  } else {
    s.mean = sum / static_cast<double>(s.count);
  }
  return s;
}

std::vector<bool> ParetoFrontier(const std::vector<double>& x, const std::vector<double>& y) {
  const size_t n = std::min(x.size(), y.size());
  std::vector<bool> keep(n, false);
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(y[i])) continue;
    bool dominated = false;
    for (size_t j = 0; j < n && !dominated; ++j) {
      if (j == i || !std::isfinite(x[j]) || !std::isfinite(y[j])) continue;
      dominated = x[j] <= x[i] && y[j] >= y[i] && (x[j] < x[i] || y[j] > y[i]);
    }
    keep[i] = !dominated;
  }
  return keep;
}

std::vector<bool> ConvexParetoFrontier(const std::vector<double>& x, const std::vector<double>& y) {
  const std::vector<bool> front = ParetoFrontier(x, y);
  // Distinct frontier coordinates, by increasing x (then y increases too).
  std::vector<std::pair<double, double>> pts;
  for (size_t i = 0; i < front.size(); ++i) {
    if (front[i]) pts.emplace_back(x[i], y[i]);
  }
  std::sort(pts.begin(), pts.end());
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  // Upper hull (monotone chain): drop a middle point strictly below the
  // segment joining its neighbours.
  std::vector<std::pair<double, double>> hull;
  for (const auto& c : pts) {
    while (hull.size() >= 2) {
      const auto& a = hull[hull.size() - 2];
      const auto& b = hull[hull.size() - 1];
      const double cross =
          (b.first - a.first) * (c.second - a.second) - (b.second - a.second) * (c.first - a.first);
      if (cross > 0.0) {
        hull.pop_back();
      } else {
        break;
      }
    }
    hull.push_back(c);
  }
  std::set<std::pair<double, double>> on_hull(hull.begin(), hull.end());
  std::vector<bool> keep(front.size(), false);
  for (size_t i = 0; i < front.size(); ++i) {
    keep[i] = front[i] && on_hull.count({x[i], y[i]}) > 0;
  }
  return keep;
}

}  // namespace privbench
