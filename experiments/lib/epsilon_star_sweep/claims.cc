#include "experiments/lib/epsilon_star_sweep/claims.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <tuple>

#include "core/format.h"

namespace privbench {

namespace {

constexpr char kAdultSource[] = "Epsilon* paper §4.2, Fig. 2";
constexpr char kAdultId[] = "epsilon_star_sweep_adult_";
constexpr char kPurchaseSource[] = "Epsilon* paper §4.2, Fig. 1";

std::string Num(double x) { return FormatSignificant(x, 3); }

// all_below_0_3: the largest Epsilon* of any model (baselines and DP).
void AdultAllBelow(const SweepOutcome& o, int iv, const std::string& suffix,
                   const std::string& variant, const std::string& data, ClaimSet* out) {
  const bool zero = suffix.size() >= std::strlen(kDeltaZeroSuffix) &&
                    suffix.compare(suffix.size() - std::strlen(kDeltaZeroSuffix), std::string::npos,
                                   kDeltaZeroSuffix) == 0;
  const int ie = o.EstimatorIndex(zero ? std::string("empirical") + kDeltaZeroSuffix : "empirical");
  double max_all = -1, max_dp = -1, max_base = -1, max_emp = -1;
  std::string where_all;
  int64_t models = 0, at_or_above = 0;
  for (size_t i = 0; i < o.points.size(); ++i) {
    for (size_t r = 0; r < o.epsilon_star[i][iv].size(); ++r) {
      const double v = o.epsilon_star[i][iv][r];
      if (!std::isfinite(v)) continue;
      ++models;
      if (v >= 0.3) ++at_or_above;
      if (v > max_all) {
        max_all = v;
        where_all = o.points[i].label + ", repetition " + std::to_string(r);
      }
      double& m = o.points[i].private_training ? max_dp : max_base;
      m = std::max(m, v);
      if (ie >= 0 && std::isfinite(o.epsilon_star[i][ie][r])) {
        max_emp = std::max(max_emp, o.epsilon_star[i][ie][r]);
      }
    }
  }
  out->numbers.emplace_back("/numbers/adult" + suffix + "_max_model_epsilon_star", max_all);
  out->claims.push_back({kAdultId + std::string("all_below_0_3") + suffix,
                         "All Adult model instances have Epsilon* below 0.3 (" + variant + ")",
                         kAdultSource, models > 0 && max_all < 0.3,
                         "largest Epsilon* over " + std::to_string(models) + " models: " +
                             Num(max_all) + " (" + where_all + "); " + std::to_string(at_or_above) +
                             " models at or above 0.3; largest DP model " + Num(max_dp) +
                             ", largest baseline model " + Num(max_base) +
                             "; the empirical variant's largest " + Num(max_emp) + "; " + data});
}

// baselines_rise_with_epochs: the baselines' mean Epsilon* by epochs.
void AdultBaselinesRise(const SweepOutcome& o, int iv, const std::string& suffix,
                        const std::string& variant, const std::string& data, ClaimSet* out) {
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
  std::string ev;
  for (size_t k = 0; k < base.size(); ++k) {
    ev += (k ? ", " : "") + std::to_string(base[k].first) + " epochs " + Num(base[k].second);
    if (k > 0 && !(base[k].second > base[k - 1].second)) rises = false;
  }
  out->claims.push_back(
      {kAdultId + std::string("baselines_rise_with_epochs") + suffix,
       "Baseline Epsilon* increases with the number of training epochs (" + variant + ")",
       kAdultSource, rises,
       "mean Epsilon* of the baselines: " + ev + " (strictly increasing required); " + data});
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
    for (double v : o.epsilon_star[i][iv]) {
      if (!std::isfinite(v)) continue;
      ++c.dp_models;
      if (v < c.min_base5_model) ++c.dp_models_below;
    }
  }
  return c;
}

// dp_below_baselines_5plus.
void AdultDpBelowBaselines(const SweepOutcome& o, int iv, const std::string& suffix,
                           const std::string& variant, const std::string& data, ClaimSet* out) {
  const DpVsBaselines c = CompareDpWithBaselines(o, iv);
  if (c.dp_configs == 0 || !c.have_base5) return;
  const std::string num = "/numbers/adult" + suffix + "_";
  out->numbers.emplace_back(num + "max_dp_config_epsilon_star_mean", c.max_dp_mean);
  out->numbers.emplace_back(num + "min_baseline_5plus_epsilon_star_mean", c.min_base5_mean);
  out->claims.push_back(
      {kAdultId + std::string("dp_below_baselines_5plus") + suffix,
       "DP models have lower Epsilon* than baseline models trained for 5 or more epochs (" +
           variant + ")",
       kAdultSource, c.max_dp_mean < c.min_base5_mean,
       "criterion: largest mean Epsilon* of a DP configuration < smallest mean of the "
       "baselines with >= 5 epochs: " +
           Num(c.max_dp_mean) + " (" + c.max_dp_label + ") vs " + Num(c.min_base5_mean) + " (" +
           c.min_base5_label + "); " + std::to_string(c.dp_configs_below) + " of " +
           std::to_string(c.dp_configs) +
           " DP configurations below; model level: " + std::to_string(c.dp_models_below) + " of " +
           std::to_string(c.dp_models) + " DP models below the smallest such baseline model (" +
           Num(c.min_base5_model) + "); " + data});
}

}  // namespace

ClaimSet AdultClaims(const SweepOutcome& o, int variant, const std::string& suffix,
                     const std::string& variant_text, const std::string& data) {
  ClaimSet out;
  if (variant < 0) return out;
  AdultAllBelow(o, variant, suffix, variant_text, data, &out);
  AdultBaselinesRise(o, variant, suffix, variant_text, data, &out);
  AdultDpBelowBaselines(o, variant, suffix, variant_text, data, &out);
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
  std::string ev;
  for (size_t k = 0; k < base.size(); ++k) {
    const auto& [epochs, es, acc] = base[k];
    ev += (k ? ", " : "") + std::to_string(epochs) + " epochs: Epsilon* " + Num(es) +
          ", test accuracy " + Num(100 * acc) + "%";
    if (k > 0 && !(es > std::get<1>(base[k - 1]) && acc > std::get<2>(base[k - 1]))) {
      rises = false;
    }
  }
  out->claims.push_back(
      {"epsilon_star_sweep_purchase_baselines_rise_with_epochs",
       "More training epochs increase both the test accuracy and Epsilon* of the baselines "
       "(parametric Epsilon*, clip window [1e-6, 1-1e-6])",
       kPurchaseSource, rises,
       "means over repetitions (both must increase strictly): " + ev + "; " + data});
}

// dp_below_1 on one variant: every DP model below Epsilon* 1.
void PurchaseDpBelowOne(const SweepOutcome& o, int iv, const std::string& suffix,
                        const std::string& text, const std::string& data, ClaimSet* out) {
  if (iv < 0) return;
  double max_dp = -1;
  std::string where;
  int64_t dp_models = 0, at_or_above = 0;
  for (size_t i = 0; i < o.points.size(); ++i) {
    if (!o.points[i].private_training) continue;
    for (size_t r = 0; r < o.epsilon_star[i][iv].size(); ++r) {
      const double v = o.epsilon_star[i][iv][r];
      if (!std::isfinite(v)) continue;
      ++dp_models;
      if (v >= 1.0) ++at_or_above;
      if (v > max_dp) {
        max_dp = v;
        where = o.points[i].label + ", repetition " + std::to_string(r);
      }
    }
  }
  if (dp_models == 0) return;
  out->numbers.emplace_back("/numbers/purchase" + suffix + "_max_dp_model_epsilon_star", max_dp);
  out->claims.push_back(
      {"epsilon_star_sweep_purchase_dp_below_1" + suffix,
       "Every model trained with DP has Epsilon* below 1 (" + text + ")", kPurchaseSource,
       max_dp < 1.0,
       "largest Epsilon* over " + std::to_string(dp_models) + " DP models: " + Num(max_dp) + " (" +
           where + "); " + std::to_string(at_or_above) + " at or above 1; " + data +
           (o.diverged_models > 0
                ? "; " + std::to_string(o.diverged_models) + " diverged models excluded"
                : std::string())});
}

}  // namespace

ClaimSet PurchaseClaims(const SweepOutcome& o, const std::string& data) {
  ClaimSet out;
  PurchaseBaselines(o, data, &out);
  const std::string delta = ", Epsilon* delta " + FormatSignificant(o.epsilon_star_delta, 4);
  const std::string zero = ", Epsilon* delta 0 (sensitivity)";
  PurchaseDpBelowOne(o, o.EstimatorIndex("parametric"), "",
                     "parametric Epsilon*, clip window [1e-6, 1-1e-6]" + delta, data, &out);
  PurchaseDpBelowOne(o, o.EstimatorIndex(kCommonWindowVariant), "_common_window",
                     "parametric Epsilon*, clip window [0.001, 0.999]" + delta, data, &out);
  PurchaseDpBelowOne(o, o.EstimatorIndex(std::string("parametric") + kDeltaZeroSuffix),
                     kDeltaZeroSuffix, "parametric Epsilon*, clip window [1e-6, 1-1e-6]" + zero,
                     data, &out);
  PurchaseDpBelowOne(o, o.EstimatorIndex(kCommonWindowVariant + std::string(kDeltaZeroSuffix)),
                     std::string("_common_window") + kDeltaZeroSuffix,
                     "parametric Epsilon*, clip window [0.001, 0.999]" + zero, data, &out);
  return out;
}

Status WriteClaimSet(const ClaimSet& set, ResultWriter& w) {
  for (const auto& [path, value] : set.numbers) PB_RETURN_IF_ERROR(w.WriteScalar(path, value));
  for (const Claim& c : set.claims) PB_RETURN_IF_ERROR(w.WriteClaim(c));
  return Status::Ok();
}

namespace {

// The Epsilon* deltas the claims are judged at: the study's (the paper's
// choice, no id suffix) and delta = 0 (kDeltaZeroSuffix, sensitivity).
std::vector<std::pair<std::string, std::string>> DeltaVariants(const SweepOutcome& o) {
  return {{"", "Epsilon* delta " + FormatSignificant(o.epsilon_star_delta, 4)},
          {kDeltaZeroSuffix, "Epsilon* delta 0 (sensitivity)"}};
}

// "data uci-adult, 32561 training / 16281 population rows".
std::string DataText(const Dataset& d) {
  return "data " + d.provenance + ", " + std::to_string(d.n_train()) + " training / " +
         std::to_string(d.n_population()) + " population rows";
}

}  // namespace

Status WriteAdultResults(const SweepOutcome& o, const EpsilonStarSweepConfig& c,
                         const Dataset& data, const std::string& reductions, ResultWriter& w) {
  const std::string data_text = DataText(data);
  for (const auto& [suffix, delta] : DeltaVariants(o)) {
    PB_RETURN_IF_ERROR(WriteClaimSet(
        AdultClaims(o, o.EstimatorIndex(std::string("parametric") + suffix), suffix,
                    "parametric Epsilon*, clip window [1e-6, 1-1e-6], " + delta, data_text),
        w));
    PB_RETURN_IF_ERROR(WriteClaimSet(
        AdultClaims(o, o.EstimatorIndex(kCommonWindowVariant + suffix),
                    std::string("_common_window") + suffix,
                    "parametric Epsilon*, clip window [0.001, 0.999], " + delta, data_text),
        w));
  }
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "quick_scale_reductions", reductions));
  return w.SetAttribute(
      "/meta", "lost_parameters",
      SharedLostParameters(c, data.n_train()) +
          "; Adult architecture (the paper cites Shokri et al.'s benchmark DNN): "
          "Linear(108->128) Tanh Linear(128->2) (mechanisms/dp_model.h AdultMlpSpec); "
          "preprocessing (not described): standardised numeric columns, one-hot categoricals "
          "(data_scripts/adult.h); population rows 16,281 (UCI adult.test; the paper says "
          "16,280); utility AUROC ranked by the logit difference (= by the predicted "
          "probability); " +
          reductions);
}

Status WritePurchaseResults(const SweepOutcome& o, const EpsilonStarSweepConfig& c,
                            const Dataset& data, const std::string& choice,
                            const std::string& reductions, ResultWriter& w) {
  const std::string data_text =
      DataText(data) + (data.is_surrogate ? " (SURROGATE, not the paper's data)" : "");
  PB_RETURN_IF_ERROR(WriteClaimSet(PurchaseClaims(o, data_text), w));
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "dataset_choice", choice));
  PB_RETURN_IF_ERROR(w.SetAttribute("/meta", "quick_scale_reductions", reductions));
  return w.SetAttribute(
      "/meta", "lost_parameters",
      SharedLostParameters(c, data.n_train()) +
          "; data: the paper's ~311k-row Purchase-100 version (208,731 / 102,809 split) is not "
          "the published 197,324-row file: real data is split with the paper's ratio, offline "
          "the purchase100-surrogate is used (" +
          data.provenance +
          " here); baselines train for fixed epochs (the paper: 'trained until the training "
          "accuracy was 100%'); hidden activation Tanh (Shokri et al.'s Purchase model); " +
          reductions);
}

}  // namespace privbench
