#include "experiments/lib/epsilon_star_sweep/claims.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>

#include "results/evidence.h"

namespace privbench::epsilon_star_sweep {

namespace {

constexpr char kAdultId[] = "epsilon_star_sweep_adult_";

// "<configuration label>, repetition <r>": where a model is.
std::string Where(const SweepPoint& p, size_t repetition) {
  return Evidence() << p.label << ", repetition " << repetition;
}

// Calls visit(i, r, v) for every finite Epsilon* v of variant iv (repetition
// r of configuration i).
template <typename F>
void ForEachModel(const SweepOutcome& o, int iv, F visit) {
  for (size_t i = 0; i < o.points.size(); ++i) {
    for (size_t r = 0; r < o.epsilon_star[i][iv].size(); ++r) {
      if (std::isfinite(o.epsilon_star[i][iv][r])) visit(i, r, o.epsilon_star[i][iv][r]);
    }
  }
}

// The largest of some models' Epsilon* (-1 if none), where it is, and how
// many models are at or above `bound`.
struct Largest {
  explicit Largest(double at_least) : bound(at_least) {}
  double bound, max = -1;
  std::string where;
  int64_t models = 0, at_or_above = 0;
  void Add(const SweepPoint& p, size_t r, double v) {
    ++models;
    if (v >= bound) ++at_or_above;
    if (v > max) {
      max = v;
      where = Where(p, r);
    }
  }
};

// all_below_0_3: the largest Epsilon* of any model (baselines and DP).
void AdultAllBelow(const SweepOutcome& o, int iv, const std::string& suffix,
                   const std::string& data, ClaimSet* out) {
  const bool zero = suffix.find(kDeltaZeroSuffix) != std::string::npos;
  const int ie = o.EstimatorIndex(zero ? std::string("empirical") + kDeltaZeroSuffix : "empirical");
  Largest all(0.3);
  double max_dp = -1, max_base = -1, max_emp = -1;
  ForEachModel(o, iv, [&](size_t i, size_t r, double v) {
    all.Add(o.points[i], r, v);
    double& m = o.points[i].private_training ? max_dp : max_base;
    m = std::max(m, v);
    if (ie >= 0 && std::isfinite(o.epsilon_star[i][ie][r])) {
      max_emp = std::max(max_emp, o.epsilon_star[i][ie][r]);
    }
  });
  out->numbers.emplace_back("/numbers/adult" + suffix + "_max_model_epsilon_star", all.max);
  out->claims.push_back(ClaimEvidence(
      kAdultId + std::string("all_below_0_3") + suffix, all.models > 0 && all.max < 0.3,
      Evidence() << "largest Epsilon* over " << all.models << " models: " << all.max << " ("
                 << all.where << "); " << all.at_or_above
                 << " models at or above 0.3; largest DP model " << max_dp
                 << ", largest baseline model " << max_base << "; the empirical variant's largest "
                 << max_emp << "; " << data));
}

// baselines_rise_with_epochs: the baselines' mean Epsilon* by epochs.
void AdultBaselinesRise(const SweepOutcome& o, int iv, const std::string& suffix,
                        const std::string& data, ClaimSet* out) {
  std::vector<std::pair<int64_t, double>> base;  // (epochs, mean)
  for (size_t i = 0; i < o.points.size(); ++i) {
    if (o.points[i].private_training) continue;
    const MinMeanMax s = Summarise(o.epsilon_star[i][iv]);
    base.emplace_back(o.points[i].epochs, s.mean);
    out->numbers.emplace_back("/numbers/adult" + suffix + "_baseline_epochs_" +
                                  std::to_string(o.points[i].epochs) + "_epsilon_star_mean",
                              s.mean);
  }
  std::sort(base.begin(), base.end());
  if (base.size() < 2) return;
  bool rises = true;
  Evidence ev;
  ev << "mean Epsilon* of the baselines: ";
  for (size_t k = 0; k < base.size(); ++k) {
    ev << (k ? ", " : "") << base[k].first << " epochs " << base[k].second;
    if (k > 0 && !(base[k].second > base[k - 1].second)) rises = false;
  }
  ev << " (strictly increasing required); " << data;
  out->claims.push_back(
      ClaimEvidence(kAdultId + std::string("baselines_rise_with_epochs") + suffix, rises, ev));
}

// The DP configurations against the baselines of >= 5 epochs.
struct DpVsBaselines {
  double max_dp_mean = -1, min_base5_mean = std::numeric_limits<double>::infinity();
  double min_base5_model = std::numeric_limits<double>::infinity();
  std::string max_dp_label, min_base5_label;
  int64_t dp_models = 0, dp_models_below = 0, dp_configs = 0, dp_configs_below = 0;
  bool have_base5 = false;
};

DpVsBaselines CompareDpWithBaselines(const SweepOutcome& o, int iv) {
  DpVsBaselines c;
  for (size_t i = 0; i < o.points.size(); ++i) {
    const MinMeanMax s = Summarise(o.epsilon_star[i][iv]);
    if (s.count == 0 || o.points[i].private_training || o.points[i].epochs < 5) continue;
    c.have_base5 = true;
    if (s.mean < c.min_base5_mean) {
      c.min_base5_mean = s.mean;
      c.min_base5_label = o.points[i].label;
    }
    c.min_base5_model = std::min(c.min_base5_model, s.min);
  }
  for (size_t i = 0; i < o.points.size(); ++i) {
    const MinMeanMax s = Summarise(o.epsilon_star[i][iv]);
    if (s.count == 0 || !o.points[i].private_training) continue;
    ++c.dp_configs;
    if (s.mean < c.min_base5_mean) ++c.dp_configs_below;
    if (s.mean > c.max_dp_mean) {
      c.max_dp_mean = s.mean;
      c.max_dp_label = o.points[i].label;
    }
  }
  ForEachModel(o, iv, [&](size_t i, size_t, double v) {
    if (!o.points[i].private_training) return;
    ++c.dp_models;
    if (v < c.min_base5_model) ++c.dp_models_below;
  });
  return c;
}

// dp_below_baselines_5plus.
void AdultDpBelowBaselines(const SweepOutcome& o, int iv, const std::string& suffix,
                           const std::string& data, ClaimSet* out) {
  const DpVsBaselines c = CompareDpWithBaselines(o, iv);
  if (c.dp_configs == 0 || !c.have_base5) return;
  const std::string num = "/numbers/adult" + suffix + "_";
  out->numbers.emplace_back(num + "max_dp_config_epsilon_star_mean", c.max_dp_mean);
  out->numbers.emplace_back(num + "min_baseline_5plus_epsilon_star_mean", c.min_base5_mean);
  out->claims.push_back(ClaimEvidence(
      kAdultId + std::string("dp_below_baselines_5plus") + suffix, c.max_dp_mean < c.min_base5_mean,
      Evidence() << "criterion: largest mean Epsilon* of a DP configuration < smallest mean of "
                    "the baselines with >= 5 epochs: "
                 << c.max_dp_mean << " (" << c.max_dp_label << ") vs " << c.min_base5_mean << " ("
                 << c.min_base5_label << "); " << c.dp_configs_below << " of " << c.dp_configs
                 << " DP configurations below; model level: " << c.dp_models_below << " of "
                 << c.dp_models << " DP models below the smallest such baseline model ("
                 << c.min_base5_model << "); " << data));
}

}  // namespace

ClaimSet AdultClaims(const SweepOutcome& o, int variant, const std::string& suffix,
                     const std::string& data) {
  ClaimSet out;
  if (variant < 0) return out;
  AdultAllBelow(o, variant, suffix, data, &out);
  AdultBaselinesRise(o, variant, suffix, data, &out);
  AdultDpBelowBaselines(o, variant, suffix, data, &out);
  return out;
}

namespace {

// The baselines' numbers and baselines_rise_with_epochs (Epsilon* and test
// accuracy both rise).
void PurchaseBaselines(const SweepOutcome& o, const std::string& data, ClaimSet* out) {
  const int ip = o.EstimatorIndex("parametric");
  const int ic = o.EstimatorIndex(kCommonWindowVariant);
  std::vector<std::tuple<int64_t, double, double>> base;  // epochs, Epsilon*, accuracy
  for (size_t i = 0; i < o.points.size(); ++i) {
    if (o.points[i].private_training) continue;
    const MinMeanMax es = Summarise(o.epsilon_star[i][ip]);
    const MinMeanMax acc = Summarise(o.population_accuracy[i]);
    const std::string e = std::to_string(o.points[i].epochs);
    if (ic >= 0) {
      out->numbers.emplace_back(
          "/numbers/purchase_common_window_baseline_epochs_" + e + "_epsilon_star_mean",
          Summarise(o.epsilon_star[i][ic]).mean);
    }
    out->numbers.emplace_back(
        "/numbers/purchase_baseline_epochs_" + e + "_epsilon_star_parametric_mean", es.mean);
    out->numbers.emplace_back("/numbers/purchase_baseline_epochs_" + e + "_test_accuracy_percent",
                              100.0 * acc.mean);
    base.emplace_back(o.points[i].epochs, es.mean, acc.mean);
  }
  std::sort(base.begin(), base.end());
  if (base.size() < 2) return;
  bool rises = true;
  Evidence ev;
  ev << "means over repetitions (both must increase strictly): ";
  for (size_t k = 0; k < base.size(); ++k) {
    const auto& [epochs, es, acc] = base[k];
    ev << (k ? ", " : "") << epochs << " epochs: Epsilon* " << es << ", test accuracy " << 100 * acc
       << "%";
    if (k > 0 && !(es > std::get<1>(base[k - 1]) && acc > std::get<2>(base[k - 1]))) {
      rises = false;
    }
  }
  ev << "; " << data;
  out->claims.push_back(
      ClaimEvidence("epsilon_star_sweep_purchase_baselines_rise_with_epochs", rises, ev));
}

// dp_below_1 on one variant: every DP model below Epsilon* 1.
void PurchaseDpBelowOne(const SweepOutcome& o, int iv, const std::string& suffix,
                        const std::string& data, ClaimSet* out) {
  if (iv < 0) return;
  Largest dp(1.0);
  ForEachModel(o, iv, [&](size_t i, size_t r, double v) {
    if (o.points[i].private_training) dp.Add(o.points[i], r, v);
  });
  if (dp.models == 0) return;
  out->numbers.emplace_back("/numbers/purchase" + suffix + "_max_dp_model_epsilon_star", dp.max);
  Evidence ev;
  ev << "largest Epsilon* over " << dp.models << " DP models: " << dp.max << " (" << dp.where
     << "); " << dp.at_or_above << " at or above 1; " << data;
  if (o.diverged_models > 0) ev << "; " << o.diverged_models << " diverged models excluded";
  out->claims.push_back(
      ClaimEvidence("epsilon_star_sweep_purchase_dp_below_1" + suffix, dp.max < 1.0, ev));
}

}  // namespace

ClaimSet PurchaseClaims(const SweepOutcome& o, const std::string& data) {
  ClaimSet out;
  PurchaseBaselines(o, data, &out);
  // The parametric Epsilon* on its default clip window [1e-6, 1-1e-6] and on
  // the common window [0.001, 0.999], at the study's Epsilon* delta and at
  // delta 0 (sensitivity).
  for (const std::string delta : {"", kDeltaZeroSuffix}) {
    PurchaseDpBelowOne(o, o.EstimatorIndex("parametric" + delta), delta, data, &out);
    PurchaseDpBelowOne(o, o.EstimatorIndex(kCommonWindowVariant + delta), "_common_window" + delta,
                       data, &out);
  }
  return out;
}

}  // namespace privbench::epsilon_star_sweep
