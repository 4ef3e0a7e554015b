// epsilon_cli: the estimator library as a JSON-lines service (the request
// handling; main() is in epsilon_cli_main.cc, the contract in epsilon_cli.h).
#include "cli/epsilon_cli.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/format.h"
#include "core/json.h"
#include "core/quote.h"
#include "core/result.h"
#include "core/validate.h"
#include "estimators/accountants/accountant.h"
#include "estimators/accountants/accountant_registry.h"
#include "estimators/eps_from_rates.h"
#include "estimators/guess_counts/guess_count_registry.h"
#include "estimators/interval_registry.h"
#include "estimators/intervals/katz_log.h"
#include "estimators/loss_samples/loss_sample_registry.h"
#include "estimators/score_audit/one_run_scores.h"
#include "estimators/score_audit/resampling.h"
#include "estimators/score_audit/score_audit.h"
#include "estimators/score_audit/score_files.h"
#include "estimators/score_audit/score_metrics.h"
#include "estimators/sequential/sequential_audit.h"

namespace privbench {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kHelp = R"(usage: epsilon_cli batch < in.jsonl > out.jsonl
       epsilon_cli --help

Reads one JSON object per line from stdin and writes one JSON object per
line to stdout, in the same order. Every response echoes the request's "id"
(any JSON value; null if absent). A request that cannot be served gets
{"id": ..., "error": "message naming the bad field"}; later lines are still
processed; a blank line gets an error line too, so line k of the output
always answers line k of the input. Infinity is written as the string "inf".
Unknown fields are errors (they are usually typos). JSON nested deeper than
%DEPTH% levels is refused; bytes that are not UTF-8 are echoed as U+FFFD.
Counts are integers below 2^63 (sums of counts too).
Exit status: 0 when every line was answered (errors included), 1 when
writing the answers fails (e.g. a full disk), 2 on a usage error.

ops:
  {"op":"interval","method":NAME,"tp":i,"fn":i,"fp":i,"tn":i,"delta":x,"alpha":a}
      -> {"lower":x,"upper":x}
      An eps interval at confidence 1-alpha from confusion counts (members:
      tp, fn; non-members: fp, tn). Two-sided methods give [lower, upper];
      one-sided methods give a lower bound and "upper": null. NAME is any
      registered interval estimator: %INTERVALS%.
      katz_log requires delta = 0.
  {"op":"eps_from_rates","fnr":x,"fpr":x,"delta":x}
      -> {"epsilon":x}
      The smallest eps for which (fnr, fpr) lies in the privacy region
      R(eps, delta) (Kairouz et al.; Bayesian paper Eq. 1 and its mirror).
  {"op":"katz","n1":i,"n0":i,"n":i,"alpha":a}
      -> {"lower":x}
      ML-Audit's Katz-log eps lower bound at delta = 0 with n samples per
      side: max{0, log(n1/n0) - z_{alpha/2} sqrt(1/n1 - 1/n + 1/n0 - 1/n)}.
  {"op":"epsilon_star","variant":V,"train":[...],"population":[...],"delta":x}
      -> {"epsilon":x}
      Epsilon* (Negoescu et al. 2024) from training and population losses.
      V is any registered loss-sample estimator: %LOSS%.
      Optional: "quantiles_per_distribution" (default 1e6), "rate_floor",
      "rate_ceiling" (empirical; default 0.001, 0.999), "clip_lo", "clip_hi"
      (parametric; default 1e-6, 1-1e-6), "transform" ("epsilon_star_logit",
      "carlini_logit" or "identity"; parametric).
  {"op":"accountant","method":M,"sigma":x,"q":x,"steps":i,"delta":x,"orders":[...]}
      -> {"epsilon":x} (+ "order":x for the RDP methods)
      DP-SGD upper bound for `steps` steps of the Poisson-sampled Gaussian
      mechanism. M is one of: %ACCOUNTANTS%. "orders" is optional (RDP
      orders; default: a list spanning 1.01..16384). Exception:
      last_iterate_heuristic is a HEURISTIC, NOT an upper bound: the exact eps
      of releasing only the last iterate when every loss is linear (Steinke
      et al., ICLR 2025); real training can leak more.
  {"op":"calibrate","method":M,"target_epsilon":x,"q":x,"steps":i,"delta":x,"orders":[...]}
      -> {"sigma":x}
      The noise multiplier at which accountant M gives target_epsilon.
      Both: "discretization" (optional, method pld only) is the PLD
      accountant's loss-grid interval (default 1e-4).
  {"op":"one_run","m":i,"r":i,"v":i,"delta":x,"beta":x}
      -> {"lower":x}
      One-run audit eps lower bound at confidence 1-beta (Steinke, Nasr &
      Jagielski 2023, Thm 3.1): m canaries each included with probability
      1/2, r guesses, v of them correct; 0 <= v <= r <= m, delta in [0, 1),
      beta in (0, 1).
  {"op":"audit_scores","member_scores":[...],"nonmember_scores":[...],"alpha":a,"delta":x}
      -> {"auc":x,"tpr_at_fpr":[...],"intervals":[...],"gaussian_dp":[...],
          "skipped_methods":[...]}
      Audit one's own attack scores (higher = more likely a member;
      estimators/score_audit/score_audit.h): the AUC, TPR at FPR 0.001, 0.01,
      0.1 with Clopper-Pearson intervals, and for every applicable interval
      method and the Gaussian-DP bound (Nasr et al. 2023) the eps interval
      under each threshold selection: "split" and "bonferroni" (valid
      confidence statements) and "max_over_thresholds" (NOT valid: the
      threshold is chosen on the same data; marked in every row); on request
      also "bonferroni_all" (valid: every score a threshold, each interval at
      alpha / K, K = the number of scores + 1; clopper_pearson,
      clopper_pearson_one_sided and the Gaussian-DP bound only, the other
      methods skipped for it with the reason) and "multi_split" (valid: the
      median over "multi_split_count" seeded splits, default 100, of the
      split interval at alpha / 2 each, Meinshausen, Meier & Buhlmann 2009;
      its threshold and counts are one split's, the one whose lower end is
      the median, or the lower middle one for an even count, its
      level_alpha alpha / 2; it costs multi_split_count times "split"). Each side
      inline or from a file: "member_scores_path" / "nonmember_scores_path"
      (.npy float64/float32 1-D; .csv/.txt with one number per line, or one
      named column of a CSV with a header as "file.csv:column"; or a 1-D
      float dataset of an HDF5 file as "file.h5:/group/name"; see
      estimators/score_audit/score_files.h). Only the named file is read: a
      path with a NUL byte is refused, the path is resolved and must still
      end in the format's extension (a link to another kind of file is
      refused), the file must be a regular file and is read only up to its
      size when opened; errors quote at most a short prefix of a path or a
      line. Optional: "seed" (the split, an integer in [0, 2^64), default
      0), "selections" (a non-empty list), "bonferroni_grid" (your
      thresholds, else "bonferroni_quantiles" quantiles of the selection
      half, default 16), "multi_split_count" (in [1, 100000]), "methods" (a
      non-empty list; omitted: every
      registered one that applies at delta, skipping, with the reason in
      "skipped_methods", those that refuse alpha or, for bonferroni only,
      alpha / G). The split is by position: the same scores in another
      order give another (equally valid) split.
  {"op":"score_metrics","member_scores":[...],"nonmember_scores":[...]}
      -> {"auc_mann_whitney":x,"auc_hull":x,"tpr_at_fpr":[{"fpr":x,"tpr":x},...],
          "max_accuracy":{...},"raw_count_epsilon":x}
      Metrics of attack scores (estimators/score_audit/score_metrics.h):
      the AUC as Mann-Whitney (ties 1/2; audit_scores' "auc") and as the
      area of the ROC's convex hull (jax-privacy's attack_auroc); the TPR of
      the best test randomising between two thresholds at FPR exactly each
      of "fprs" (default [0.001, 0.01, 0.1]); the largest accuracy of a
      threshold test at "prevalence" (default P / (P + N)), a POINT
      ESTIMATE, with "alpha" also an upper confidence bound at 1 - alpha
      ("upper"; null without alpha); the raw-count eps, an ESTIMATE, NOT a
      confidence statement ("min_count" false positives at least, default
      50; "delta", default 0; "one_sided", default true). Scores inline or
      as *_path files, as for audit_scores.
  {"op":"one_run_scores","member_scores":[...],"nonmember_scores":[...],"alpha":a,"delta":x}
      -> {"method":M,"eps_lower":x,"mu_lower":x,"threshold":x,"m":i,"r":i,"v":i,
          "level_alpha":x,"bonferroni_k":i,"candidates":i,
          "valid_confidence_statement":b,"note":"..."}
      A one-run audit from scores (estimators/score_audit/one_run_scores.h),
      ASSUMING each of the m = P + N canaries was included independently
      with probability 1/2: the r highest scores are guessed "in", v of them
      correctly. "method": one_run (default; Steinke, Nasr & Jagielski
      2023), one_run_fdp or one_run_gaussian_dp (Mahloujifar, Melis &
      Chaudhuri 2025; mu_lower, and eps_lower only at delta > 0 under the
      Gaussian assumption). "threshold" fixed in advance, else the best of
      every number of guesses, each at alpha / m.
  {"op":"multi_split","member_scores":[...],"nonmember_scores":[...],"bound":B,"alpha":a,"delta":x}
      -> {"bound":x,"quantity":"eps"|"mu","eps_lower":x,"level_alpha":x,
          "split_bounds":[...]}
      MultiSplit (estimators/score_audit/multi_split.h): the median of
      "num_splits" (default 100, at most 100000) seeded splits' lower
      bounds, each at alpha / 2, a lower bound at confidence 1 - alpha. B:
      one_run, one_run_fdp, one_run_gaussian_dp, gaussian_dp (mu) or an
      interval method (its split lower end). Optional "seed" (default 0).
  {"op":"bootstrap","metric":NAME,"member_scores":[...],"nonmember_scores":[...]}
      -> {"estimate":x,"lower":x,"upper":x,"values":[...],"quantiles":[...],
          "levels":[...],"z0":x,"acceleration":x}
      A seeded bootstrap interval of a metric of the scores
      (estimators/score_audit/resampling.h): NAME one of %METRICS%.
      Optional: "confidence" (default 0.95) or "quantiles", "num_samples"
      (default 1000, at most 10^6), "seed", "bias_correction" (BC, default
      true), "acceleration" (BCa, default false; at most 20000 scores),
      "threads" (the values do not depend on it), and the metric's "fpr"
      (default 0.01), "prevalence", "min_count", "delta", "one_sided".
      Asymptotic, no finite-sample guarantee; for raw_count_epsilon an
      interval for the ESTIMATE, not for the mechanism's eps.
  {"op":"sequential_audit","guesses":[...],"truths":[...],"alpha":a,"delta":x,...}
      -> {"rounds":i,...,"largest_rejected_epsilon":x,"largest_rejected_mu":x,
          "epsilons":[...],"mus":[...],"state":"..."}
      Anytime-valid audit of a privacy claim from a stream of rounds
      (estimators/sequential/sequential_audit.h; Gonzalez, Dulce-Rubio,
      Ramdas & Ribero 2025): one betting e-process per null "(eps,
      delta)-DP" for each eps of "epsilons" (default 0, 0.1, ..., 10) and
      per null "mu-GDP" for each mu of "mus" (default none). A null is
      rejected once its e-value reaches 1/alpha ("rejected_at": the round;
      null if not) and stays rejected; "largest_rejected_epsilon" is the
      largest grid eps rejected together with every smaller grid eps, a
      lower bound on eps valid at level alpha at every round (null when eps
      = 0 is not rejected); likewise "largest_rejected_mu". Rounds, one kind
      per request: "guesses" + "truths" (0/1: the auditor's fair coin picks
      the neighbour, 1 = with the target, and the attack guesses it),
      "scores" + "truths" (guess = score > "threshold"), or "member_scores"
      + "nonmember_scores" (one output of each neighbour per round, scored).
      "threshold" is fixed when the audit starts. To continue, pass back the
      previous answer's "state" (alpha, delta, epsilons, mus and threshold
      may then be left out and must equal the state's when given); the
      answer is the same as if the rounds had come in one request. Optional:
      "alpha" (in (0, 1), default 0.05), "delta" (in [0, 1), default 0),
      "epsilons" (>= 0, strictly increasing), "mus" (> 0, strictly
      increasing), "threshold", "state".

Work bounds (every request is answered in bounded time; beyond a bound the
request is refused with an error naming the argument):
  epsilon_star: quantiles_per_distribution <= 1e8 (parametric: <= 1e7).
  accountant pld: q = 1 is the exact Gaussian-DP closed form at any steps;
      for q < 1, steps whose composed loss grid would overflow 64-bit
      indices are refused (naming steps); the rdp methods take any steps.
      discretization >= 1e-5; for q < 1, delta <= 1 - 1e-6 (the grid's
      masses are accurate to 1e-6) unless eps is 0 by the total-variation bound.
  calibrate: target_epsilon <= 1e4; pld discretization >= 1e-4.
  accountant last_iterate_heuristic: steps < 2^53 and the binomial variance
      steps*q*(1-q) <= 1e7 (about 1 s at the bound).
  sequential_audit: epsilons and mus at most 10000 values each; rounds
      times hypotheses (grid values) at most 1e9 per request.
  audit_scores multi_split, multi_split: at most 100000 splits, each the
      work of one split audit (with every method about 1.2 s per split at
      10^3 scores a side, mostly the Bayesian methods; clopper_pearson
      about 0.03 s).
  bootstrap: num_samples <= 10^6 metric evaluations; acceleration (a
      jackknife, P + N more) at most 20000 scores.

Accuracy ranges (beyond them the request is refused, naming the argument):
  interval bayesian, bayesian_one_sided: alpha >= 1e-6 (the posterior CDF is
      computed to ~1e-9, so smaller tail masses are not resolved).
  one_run: m <= 2^53.
  audit_scores: at most 1000 bonferroni thresholds (bonferroni_grid length,
      bonferroni_quantiles), and alpha / G >= 1e-300 (bonferroni_all: alpha /
      K >= 1e-300); every selection evaluates every ROC point up to 1025
      points, else the corners of the ROC's steps, which give the same
      largest lower end for the rate-box methods and gaussian_dp;
      max_over_thresholds and bonferroni_all search every corner exactly for
      those (branch and bound), split and the other methods evaluate at most
      the 1025 corners with the largest approximate lower end, so a whole
      audit with every method takes about 7 s plus sorting the scores; score files at most 1 GiB and 2^27
      scores (text: lines of at most 64 KiB; HDF5: a dataset within 16x the
      file's size, chunks of at most 64 MiB, gzip, lzf, shuffle and
      fletcher32 filters only, every compressed chunk checked before it is
      decompressed).
)";

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string HelpText() {
  std::string h = kHelp;
  auto replace = [&](const std::string& key, const std::string& value) {
    const auto pos = h.find(key);
    if (pos != std::string::npos) h.replace(pos, key.size(), value);
  };
  replace("%INTERVALS%", JoinNames(AllIntervalEstimatorNames()));
  replace("%LOSS%", JoinNames(AllLossSampleEstimatorNames()));
  replace("%ACCOUNTANTS%", JoinNames(AllAccountantNames()));
  replace("%DEPTH%", std::to_string(kMaxJsonDepth));
  replace("%METRICS%", JoinNames(ScoreMetricNames()));
  return h;
}

// A JSON value as an error message shows it: at most 80 bytes of its text.
std::string Shown(const Json& v) {
  const std::string text = v.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text.size() <= 80) return text;
  return text.substr(0, 77) + "... (" + std::to_string(text.size()) + " bytes)";
}

// Every error line is bounded, whatever a message quotes (a backstop: the
// library's messages quote at most short prefixes already).
std::string Bounded(const std::string& message) {
  constexpr size_t kMax = 2048;
  if (message.size() <= kMax) return message;
  return message.substr(0, kMax) + "... (" + std::to_string(message.size()) + " bytes)";
}

Json Number(double x) {
  if (std::isinf(x)) return x > 0 ? Json("inf") : Json("-inf");
  return Json(x);
}

// Field access with messages naming the field.
class Request {
 public:
  explicit Request(const Json& j) : j_(j) {}

  Status CheckFields(const std::set<std::string>& required, const std::set<std::string>& optional) {
    for (const auto& name : required) {
      if (!j_.contains(name)) return Error("missing field '" + name + "'");
    }
    for (auto it = j_.begin(); it != j_.end(); ++it) {
      const std::string& k = it.key();
      if (k == "id" || k == "op" || required.count(k) || optional.count(k)) continue;
      return Error("unknown field " + QuoteText(k) + " for op " +
                   QuoteText(j_["op"].get<std::string>()));
    }
    return Status::Ok();
  }
  bool Has(const std::string& name) const { return j_.contains(name); }

  Result<double> Double(const std::string& name) const {
    const Json& v = j_.at(name);
    if (!v.is_number()) return Error(name + " must be a number, got " + Shown(v));
    return v.get<double>();
  }
  Result<int64_t> Int(const std::string& name) const {
    const Json& v = j_.at(name);
    // JSON integers above 2^63 - 1 parse as unsigned: they do not fit.
    if (v.is_number_unsigned() &&
        v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Error(name + " must be an integer below 2^63, got " + Shown(v));
    }
    if (v.is_number_integer()) return v.get<int64_t>();
    if (v.is_number_float()) {
      const double d = v.get<double>();
      if (std::isfinite(d) && d == std::floor(d) && std::abs(d) < 9e15) {
        return static_cast<int64_t>(d);
      }
    }
    return Error(name + " must be an integer, got " + Shown(v));
  }
  // An integer in [0, 2^64) (seeds).
  Result<uint64_t> Uint64(const std::string& name) const {
    const Json& v = j_.at(name);
    if (v.is_number_unsigned()) return v.get<uint64_t>();
    if (v.is_number_integer() && v.get<int64_t>() >= 0)
      return static_cast<uint64_t>(v.get<int64_t>());
    if (v.is_number_float()) {
      const double d = v.get<double>();
      if (d >= 0 && d < 9e15 && d == std::floor(d)) return static_cast<uint64_t>(d);
    }
    return Error(name + " must be an integer in [0, 2^64), got " + Shown(v));
  }
  Result<bool> Bool(const std::string& name) const {
    const Json& v = j_.at(name);
    if (!v.is_boolean()) return Error(name + " must be true or false, got " + Shown(v));
    return v.get<bool>();
  }
  Result<std::string> String(const std::string& name) const {
    const Json& v = j_.at(name);
    if (!v.is_string()) return Error(name + " must be a string, got " + Shown(v));
    return v.get<std::string>();
  }
  Result<std::vector<std::string>> Strings(const std::string& name) const {
    const Json& v = j_.at(name);
    if (!v.is_array()) return Error(name + " must be an array of strings");
    std::vector<std::string> out;
    for (size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_string()) {
        return Error(name + "[" + std::to_string(i) + "] must be a string, got " + Shown(v[i]));
      }
      out.push_back(v[i].get<std::string>());
    }
    return out;
  }
  // An array of integers (integral numbers such as 1.0 count, as for Int).
  Result<std::vector<int64_t>> Ints(const std::string& name) const {
    const Json& v = j_.at(name);
    if (!v.is_array()) return Error(name + " must be an array of integers");
    std::vector<int64_t> out;
    out.reserve(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      const std::string element = name + "[" + std::to_string(i) + "]";
      const Json& x = v[i];
      if (x.is_number_integer() && !x.is_number_unsigned()) {
        out.push_back(x.get<int64_t>());
      } else if (x.is_number_unsigned() && x.get<uint64_t>() <= uint64_t{1} << 62) {
        out.push_back(static_cast<int64_t>(x.get<uint64_t>()));
      } else if (x.is_number_float() && std::isfinite(x.get<double>()) &&
                 x.get<double>() == std::floor(x.get<double>()) &&
                 std::abs(x.get<double>()) < 9e15) {
        out.push_back(static_cast<int64_t>(x.get<double>()));
      } else {
        return Error(element + " must be an integer, got " + Shown(x));
      }
    }
    return out;
  }
  Result<std::vector<double>> Doubles(const std::string& name) const {
    const Json& v = j_.at(name);
    if (!v.is_array()) return Error(name + " must be an array of numbers");
    std::vector<double> out;
    out.reserve(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_number()) {
        return Error(name + "[" + std::to_string(i) + "] must be a number, got " + Shown(v[i]));
      }
      out.push_back(v[i].get<double>());
    }
    return out;
  }

 private:
  const Json& j_;
};

Result<Json> Interval(Request& r) {
  PB_RETURN_IF_ERROR(r.CheckFields({"method", "tp", "fn", "fp", "tn", "delta", "alpha"}, {}));
  PB_ASSIGN_OR_RETURN(std::string method, r.String("method"));
  PB_ASSIGN_OR_RETURN(auto est, MakeIntervalEstimator(method, "method"));
  ConfusionCounts c;
  PB_ASSIGN_OR_RETURN(c.tp, r.Int("tp"));
  PB_ASSIGN_OR_RETURN(c.fn, r.Int("fn"));
  PB_ASSIGN_OR_RETURN(c.fp, r.Int("fp"));
  PB_ASSIGN_OR_RETURN(c.tn, r.Int("tn"));
  PB_ASSIGN_OR_RETURN(double delta, r.Double("delta"));
  PB_ASSIGN_OR_RETURN(double alpha, r.Double("alpha"));
  PB_ASSIGN_OR_RETURN(EpsInterval e, est->Estimate(c, delta, alpha));
  Json out;
  out["lower"] = Number(e.lower);
  out["upper"] = e.upper ? Number(*e.upper) : Json(nullptr);
  return out;
}

Result<Json> EpsFromRatesOp(Request& r) {
  PB_RETURN_IF_ERROR(r.CheckFields({"fnr", "fpr", "delta"}, {}));
  PB_ASSIGN_OR_RETURN(double fnr, r.Double("fnr"));
  PB_ASSIGN_OR_RETURN(double fpr, r.Double("fpr"));
  PB_ASSIGN_OR_RETURN(double delta, r.Double("delta"));
  PB_ASSIGN_OR_RETURN(double eps, EpsFromRates(fnr, fpr, delta));
  Json out;
  out["epsilon"] = Number(eps);
  return out;
}

Result<Json> Katz(Request& r) {
  PB_RETURN_IF_ERROR(r.CheckFields({"n1", "n0", "n", "alpha"}, {}));
  PB_ASSIGN_OR_RETURN(int64_t n1, r.Int("n1"));
  PB_ASSIGN_OR_RETURN(int64_t n0, r.Int("n0"));
  PB_ASSIGN_OR_RETURN(int64_t n, r.Int("n"));
  PB_ASSIGN_OR_RETURN(double alpha, r.Double("alpha"));
  PB_ASSIGN_OR_RETURN(double lower, KatzLogEpsLowerBound(n1, n0, n, alpha));
  Json out;
  out["lower"] = Number(lower);
  return out;
}

// The library names its samples as the Python API does (train_losses,
// population_losses); this op's fields are "train" and "population", so
// its errors name those.
std::string RenameSampleArguments(std::string message) {
  for (const auto& [library, field] : {std::pair<std::string, std::string>{"train_losses", "train"},
                                       {"population_losses", "population"}}) {
    for (size_t at = message.find(library); at != std::string::npos;
         at = message.find(library, at + field.size())) {
      message.replace(at, library.size(), field);
    }
  }
  return message;
}

Result<Json> EpsilonStar(Request& r) {
  PB_RETURN_IF_ERROR(r.CheckFields({"variant", "train", "population", "delta"},
                                   {"quantiles_per_distribution", "rate_floor", "rate_ceiling",
                                    "clip_lo", "clip_hi", "transform"}));
  PB_ASSIGN_OR_RETURN(std::string variant, r.String("variant"));
  PB_ASSIGN_OR_RETURN(auto est, MakeLossSampleEstimator(variant, "variant"));
  PB_ASSIGN_OR_RETURN(std::vector<double> train, r.Doubles("train"));
  PB_ASSIGN_OR_RETURN(std::vector<double> population, r.Doubles("population"));
  EpsilonStarOptions opt;
  PB_ASSIGN_OR_RETURN(opt.delta, r.Double("delta"));
  if (r.Has("quantiles_per_distribution")) {
    PB_ASSIGN_OR_RETURN(opt.quantiles_per_distribution, r.Int("quantiles_per_distribution"));
  }
  if (r.Has("rate_floor")) {
    PB_ASSIGN_OR_RETURN(opt.rate_floor, r.Double("rate_floor"));
  }
  if (r.Has("rate_ceiling")) {
    PB_ASSIGN_OR_RETURN(opt.rate_ceiling, r.Double("rate_ceiling"));
  }
  if (r.Has("clip_lo")) {
    PB_ASSIGN_OR_RETURN(opt.clip_lo, r.Double("clip_lo"));
  }
  if (r.Has("clip_hi")) {
    PB_ASSIGN_OR_RETURN(opt.clip_hi, r.Double("clip_hi"));
  }
  if (r.Has("transform")) {
    PB_ASSIGN_OR_RETURN(std::string t, r.String("transform"));
    PB_ASSIGN_OR_RETURN(opt.transform, ParseLossTransform(t));
  }
  Result<double> eps = est->Estimate(train, population, opt);
  if (!eps.ok()) return Error(RenameSampleArguments(eps.message()));
  Json out;
  out["epsilon"] = Number(*eps);
  return out;
}

Result<DpSgdAccounting> Setting(Request& r, const Accountant& acc) {
  DpSgdAccounting s;
  PB_ASSIGN_OR_RETURN(s.q, r.Double("q"));
  PB_ASSIGN_OR_RETURN(s.steps, r.Int("steps"));
  PB_ASSIGN_OR_RETURN(s.delta, r.Double("delta"));
  if (r.Has("orders")) {
    PB_ASSIGN_OR_RETURN(s.orders, r.Doubles("orders"));
    PB_RETURN_IF_ERROR(CheckRequestedOrders(acc, s.orders));
  }
  if (r.Has("discretization")) {
    PB_ASSIGN_OR_RETURN(std::string method, r.String("method"));
    if (method != "pld") return Error("discretization applies to method pld only");
    PB_ASSIGN_OR_RETURN(s.discretization, r.Double("discretization"));
    PB_RETURN_IF_ERROR(CheckPositive("discretization", s.discretization));
  }
  return s;
}

Result<Json> AccountantOp(Request& r) {
  PB_RETURN_IF_ERROR(
      r.CheckFields({"method", "sigma", "q", "steps", "delta"}, {"orders", "discretization"}));
  PB_ASSIGN_OR_RETURN(std::string method, r.String("method"));
  PB_ASSIGN_OR_RETURN(auto acc, MakeAccountant(method, "method"));
  PB_ASSIGN_OR_RETURN(DpSgdAccounting s, Setting(r, *acc));
  PB_ASSIGN_OR_RETURN(s.sigma, r.Double("sigma"));
  PB_ASSIGN_OR_RETURN(AccountantResult res, acc->Epsilon(s));
  Json out;
  out["epsilon"] = Number(res.epsilon);
  if (res.order) out["order"] = Number(*res.order);
  return out;
}

Result<Json> Calibrate(Request& r) {
  PB_RETURN_IF_ERROR(r.CheckFields({"method", "target_epsilon", "q", "steps", "delta"},
                                   {"orders", "discretization"}));
  PB_ASSIGN_OR_RETURN(std::string method, r.String("method"));
  PB_ASSIGN_OR_RETURN(auto acc, MakeAccountant(method, "method"));
  PB_ASSIGN_OR_RETURN(DpSgdAccounting s, Setting(r, *acc));
  PB_ASSIGN_OR_RETURN(double target, r.Double("target_epsilon"));
  PB_ASSIGN_OR_RETURN(double sigma, CalibrateSigma(*acc, target, s));
  Json out;
  out["sigma"] = Number(sigma);
  return out;
}

Result<Json> OneRun(Request& r) {
  PB_RETURN_IF_ERROR(r.CheckFields({"m", "r", "v", "delta", "beta"}, {}));
  GuessCounts c;
  PB_ASSIGN_OR_RETURN(c.m, r.Int("m"));
  PB_ASSIGN_OR_RETURN(c.r, r.Int("r"));
  PB_ASSIGN_OR_RETURN(c.v, r.Int("v"));
  PB_ASSIGN_OR_RETURN(double delta, r.Double("delta"));
  PB_ASSIGN_OR_RETURN(double beta, r.Double("beta"));
  PB_ASSIGN_OR_RETURN(auto est, MakeGuessCountEstimator("one_run"));
  PB_ASSIGN_OR_RETURN(double lower, est->LowerBound(c, delta, beta));
  Json out;
  out["lower"] = Number(lower);
  return out;
}

Result<ScoreAuditOptions> AuditOptions(Request& r) {
  ScoreAuditOptions o;
  PB_ASSIGN_OR_RETURN(o.alpha, r.Double("alpha"));
  PB_ASSIGN_OR_RETURN(o.delta, r.Double("delta"));
  if (r.Has("seed")) {
    PB_ASSIGN_OR_RETURN(o.seed, r.Uint64("seed"));
  }
  if (r.Has("selections")) {
    PB_ASSIGN_OR_RETURN(const std::vector<std::string> names, r.Strings("selections"));
    o.selections.clear();
    for (const std::string& name : names) {
      PB_ASSIGN_OR_RETURN(const ThresholdSelection sel, ParseThresholdSelection(name));
      o.selections.push_back(sel);
    }
  }
  if (r.Has("bonferroni_grid")) {
    PB_ASSIGN_OR_RETURN(o.bonferroni_grid, r.Doubles("bonferroni_grid"));
  }
  if (r.Has("bonferroni_quantiles")) {
    PB_ASSIGN_OR_RETURN(o.bonferroni_quantiles, r.Int("bonferroni_quantiles"));
  }
  if (r.Has("multi_split_count")) {
    PB_ASSIGN_OR_RETURN(o.multi_split_count, r.Int("multi_split_count"));
  }
  if (r.Has("methods")) {
    PB_ASSIGN_OR_RETURN(o.methods, r.Strings("methods"));
    // The library reads an empty list as "every method"; a request names
    // that by leaving the field out, as for selections.
    if (o.methods.empty()) {
      return Error("methods must be non-empty (leave it out for every applicable method)");
    }
  }
  return o;
}

Json SelectionRow(ThresholdSelection selection, double threshold, const ConfusionCounts& c,
                  double level_alpha, int64_t considered, bool valid) {
  Json row;
  row["selection"] = std::string(ThresholdSelectionName(selection));
  row["threshold"] = Number(threshold);
  row["counts"] = {{"tp", c.tp}, {"fn", c.fn}, {"fp", c.fp}, {"tn", c.tn}};
  row["level_alpha"] = level_alpha;
  row["thresholds_considered"] = considered;
  row["valid_confidence_statement"] = valid;
  return row;
}

Json AuditJson(const ScoreAudit& a) {
  Json out;
  out["auc"] = a.roc.auc;
  out["tpr_at_fpr"] = Json::array();
  for (const TprAtFpr& t : a.tpr_at_fpr) {
    out["tpr_at_fpr"].push_back({{"max_fpr", t.max_fpr},
                                 {"threshold", Number(t.point.threshold)},
                                 {"tpr", t.tpr},
                                 {"tpr_lower", t.tpr_lower},
                                 {"tpr_upper", t.tpr_upper}});
  }
  out["intervals"] = Json::array();
  for (const AuditInterval& i : a.intervals) {
    Json row = SelectionRow(i.selection, i.threshold, i.counts, i.level_alpha,
                            i.thresholds_considered, i.valid_confidence_statement);
    row["method"] = i.method;
    row["lower"] = Number(i.lower);
    row["upper"] = Number(i.upper);
    if (!i.note.empty()) row["note"] = i.note;
    out["intervals"].push_back(row);
  }
  out["gaussian_dp"] = Json::array();
  for (const GaussianDpBound& g : a.gaussian_dp) {
    Json row = SelectionRow(g.selection, g.threshold, g.counts, g.level_alpha,
                            g.thresholds_considered, g.valid_confidence_statement);
    row["mu_lower"] = Number(g.mu_lower);
    row["eps_lower"] = g.eps_lower.has_value() ? Number(*g.eps_lower) : Json(nullptr);
    if (!g.note.empty()) row["note"] = g.note;
    out["gaussian_dp"].push_back(row);
  }
  out["skipped_methods"] = Json::array();
  for (const SkippedMethod& m : a.skipped_methods) {
    out["skipped_methods"].push_back({{"method", m.method}, {"reason", m.reason}});
  }
  return out;
}

// One side's scores: inline (`name`) or from a file (`name`_path: .npy,
// .csv, .txt or "file.h5:/dataset", estimators/score_audit/score_files.h),
// exactly one of them.
Result<std::vector<double>> Scores(Request& r, const std::string& name) {
  const std::string path_field = name + "_path";
  if (r.Has(name) == r.Has(path_field)) {
    return Error("give exactly one of " + name + " and " + path_field);
  }
  if (r.Has(name)) return r.Doubles(name);
  PB_ASSIGN_OR_RETURN(const std::string path, r.String(path_field));
  return ReadScoreFile(path, path_field);
}

Result<Json> AuditScoresOp(Request& r) {
  PB_RETURN_IF_ERROR(r.CheckFields(
      {"alpha", "delta"},
      {"member_scores", "nonmember_scores", "member_scores_path", "nonmember_scores_path", "seed",
       "selections", "bonferroni_grid", "bonferroni_quantiles", "multi_split_count", "methods"}));
  PB_ASSIGN_OR_RETURN(const std::vector<double> members, Scores(r, "member_scores"));
  PB_ASSIGN_OR_RETURN(const std::vector<double> nonmembers, Scores(r, "nonmember_scores"));
  PB_ASSIGN_OR_RETURN(const ScoreAuditOptions options, AuditOptions(r));
  PB_ASSIGN_OR_RETURN(const ScoreAudit audit, AuditScores(members, nonmembers, options));
  return AuditJson(audit);
}

// ---- Score metrics (score_metrics.h), one-run bounds from scores
// (one_run_scores.h), MultiSplit and the bootstrap (resampling.h): the
// answers carry the keys of the Python functions (privbench.max_accuracy,
// one_run_epsilon, multi_split, bootstrap_ci). ----

// The optional fields every score op takes besides its own: the two sides,
// inline or as files.
std::set<std::string> WithScoreFields(std::set<std::string> fields) {
  fields.insert(
      {"member_scores", "nonmember_scores", "member_scores_path", "nonmember_scores_path"});
  return fields;
}

Json Optional(const std::optional<double>& x) { return x ? Json(*x) : Json(nullptr); }

Json PointJson(const OperatingPoint& p) {
  return {{"threshold", Number(p.threshold)},
          {"tp", p.counts.tp},
          {"fn", p.counts.fn},
          {"fp", p.counts.fp},
          {"tn", p.counts.tn}};
}

// The hull's TPR at each of "fprs" (default: audit_scores' levels).
Result<Json> TprAtFprRows(Request& r, const std::vector<double>& m, const std::vector<double>& n) {
  std::vector<double> fprs(std::begin(kAuditFprLevels), std::end(kAuditFprLevels));
  if (r.Has("fprs")) {
    PB_ASSIGN_OR_RETURN(fprs, r.Doubles("fprs"));
  }
  for (size_t i = 0; i < fprs.size(); ++i) {
    if (!(fprs[i] >= 0.0 && fprs[i] <= 1.0)) {
      return Error("fprs[" + std::to_string(i) + "] must be in [0, 1], got " +
                   FormatDouble(fprs[i]));
    }
  }
  PB_ASSIGN_OR_RETURN(const RocCurve roc, ComputeRoc(m, n));
  const std::vector<OperatingPoint> hull = RocHull(roc);
  Json rows = Json::array();
  for (double f : fprs) {
    PB_ASSIGN_OR_RETURN(const double tpr, HullTprAtFpr(hull, f));
    rows.push_back({{"fpr", f}, {"tpr", tpr}});
  }
  return rows;
}

Result<Json> MaxAccuracyJson(Request& r, const std::vector<double>& m,
                             const std::vector<double>& n) {
  MaxAccuracyOptions o;
  if (r.Has("prevalence")) {
    PB_ASSIGN_OR_RETURN(o.prevalence, r.Double("prevalence"));
  }
  if (r.Has("alpha")) {
    PB_ASSIGN_OR_RETURN(o.alpha, r.Double("alpha"));
  }
  PB_ASSIGN_OR_RETURN(const MaxAccuracy a, MaxAccuracyOfScores(m, n, o));
  Json out;
  out["accuracy"] = a.accuracy;
  out["prevalence"] = a.prevalence;
  out["point"] = PointJson(a.point);
  out["upper"] = Optional(a.upper);
  out["upper_point"] = a.upper_point ? PointJson(*a.upper_point) : Json(nullptr);
  out["tpr_upper"] = a.upper ? Json(a.tpr_upper) : Json(nullptr);
  out["tnr_upper"] = a.upper ? Json(a.tnr_upper) : Json(nullptr);
  return out;
}

// "min_count", "delta", "one_sided" (raw_count_epsilon's, with its defaults).
Result<RawCountOptions> RawCountFields(Request& r) {
  RawCountOptions o;
  if (r.Has("min_count")) {
    PB_ASSIGN_OR_RETURN(o.min_count, r.Int("min_count"));
  }
  if (r.Has("delta")) {
    PB_ASSIGN_OR_RETURN(o.delta, r.Double("delta"));
  }
  if (r.Has("one_sided")) {
    PB_ASSIGN_OR_RETURN(o.one_sided, r.Bool("one_sided"));
  }
  return o;
}

Result<Json> ScoreMetricsOp(Request& r) {
  PB_RETURN_IF_ERROR(r.CheckFields(
      {}, WithScoreFields({"fprs", "prevalence", "alpha", "min_count", "delta", "one_sided"})));
  PB_ASSIGN_OR_RETURN(const std::vector<double> m, Scores(r, "member_scores"));
  PB_ASSIGN_OR_RETURN(const std::vector<double> n, Scores(r, "nonmember_scores"));
  Json out;
  PB_ASSIGN_OR_RETURN(const double mann_whitney, ScoreAuc(m, n, AucConvention::kMannWhitney));
  PB_ASSIGN_OR_RETURN(const double hull, ScoreAuc(m, n, AucConvention::kHull));
  out["auc_mann_whitney"] = mann_whitney;
  out["auc_hull"] = hull;
  PB_ASSIGN_OR_RETURN(out["tpr_at_fpr"], TprAtFprRows(r, m, n));
  PB_ASSIGN_OR_RETURN(out["max_accuracy"], MaxAccuracyJson(r, m, n));
  PB_ASSIGN_OR_RETURN(const RawCountOptions raw, RawCountFields(r));
  PB_ASSIGN_OR_RETURN(const double eps_hat, RawCountEpsilon(m, n, raw));
  out["raw_count_epsilon"] = eps_hat;
  return out;
}

Result<Json> OneRunScoresOp(Request& r) {
  PB_RETURN_IF_ERROR(r.CheckFields({"alpha", "delta"}, WithScoreFields({"method", "threshold"})));
  PB_ASSIGN_OR_RETURN(const std::vector<double> m, Scores(r, "member_scores"));
  PB_ASSIGN_OR_RETURN(const std::vector<double> n, Scores(r, "nonmember_scores"));
  OneRunScoreOptions o;
  PB_ASSIGN_OR_RETURN(o.alpha, r.Double("alpha"));
  PB_ASSIGN_OR_RETURN(o.delta, r.Double("delta"));
  if (r.Has("method")) {
    PB_ASSIGN_OR_RETURN(const std::string method, r.String("method"));
    PB_ASSIGN_OR_RETURN(o.method, ParseOneRunMethod(method));
  }
  if (r.Has("threshold")) {
    PB_ASSIGN_OR_RETURN(o.threshold, r.Double("threshold"));
  }
  PB_ASSIGN_OR_RETURN(const OneRunScoreBound b, OneRunFromScores(m, n, o));
  Json out;
  out["method"] = std::string(OneRunMethodName(b.method));
  out["eps_lower"] = Optional(b.eps_lower);
  out["mu_lower"] = Optional(b.mu_lower);
  out["threshold"] = Number(b.threshold);
  out["m"] = b.counts.m;
  out["r"] = b.counts.r;
  out["v"] = b.counts.v;
  out["level_alpha"] = b.level_alpha;
  out["bonferroni_k"] = b.bonferroni_k;
  out["candidates"] = b.candidates;
  out["valid_confidence_statement"] = b.valid_confidence_statement;
  out["note"] = b.note;
  return out;
}

Result<Json> MultiSplitOp(Request& r) {
  PB_RETURN_IF_ERROR(
      r.CheckFields({"bound", "alpha", "delta"}, WithScoreFields({"num_splits", "seed"})));
  PB_ASSIGN_OR_RETURN(const std::vector<double> m, Scores(r, "member_scores"));
  PB_ASSIGN_OR_RETURN(const std::vector<double> n, Scores(r, "nonmember_scores"));
  PB_ASSIGN_OR_RETURN(const std::string bound, r.String("bound"));
  PB_ASSIGN_OR_RETURN(const double delta, r.Double("delta"));
  MultiSplitOptions o;
  PB_ASSIGN_OR_RETURN(o.alpha, r.Double("alpha"));
  if (r.Has("num_splits")) {
    PB_ASSIGN_OR_RETURN(o.num_splits, r.Int("num_splits"));
  }
  if (r.Has("seed")) {
    PB_ASSIGN_OR_RETURN(o.seed, r.Uint64("seed"));
  }
  PB_ASSIGN_OR_RETURN(const NamedMultiSplit a, MultiSplitByName(bound, m, n, delta, o));
  Json out;
  out["bound"] = a.result.bound;
  out["quantity"] = a.bounds_mu ? "mu" : "eps";
  out["eps_lower"] = Optional(a.eps_lower);
  out["level_alpha"] = a.result.level_alpha;
  out["split_bounds"] = a.result.split_bounds;
  return out;
}

// The metric's parameters (ScoreMetricParams; privbench.bootstrap_ci's
// keyword parameters, with their defaults).
Result<ScoreMetricParams> MetricParams(Request& r) {
  ScoreMetricParams p;
  if (r.Has("fpr")) {
    PB_ASSIGN_OR_RETURN(p.fpr, r.Double("fpr"));
  }
  if (r.Has("prevalence")) {
    PB_ASSIGN_OR_RETURN(p.prevalence, r.Double("prevalence"));
  }
  PB_ASSIGN_OR_RETURN(p.raw_count, RawCountFields(r));
  return p;
}

Result<BootstrapOptions> BootstrapFields(Request& r) {
  BootstrapOptions o;
  if (r.Has("confidence") && r.Has("quantiles")) {
    return Error("give at most one of confidence and quantiles");
  }
  if (r.Has("quantiles")) {
    PB_ASSIGN_OR_RETURN(o.quantiles, r.Doubles("quantiles"));
  } else {
    // (1 - c) / 2 and 1 - (1 - c) / 2, as privbench.bootstrap_ci computes
    // them (at the default 0.95 the first is 0.025000000000000022).
    double c = 0.95;
    if (r.Has("confidence")) {
      PB_ASSIGN_OR_RETURN(c, r.Double("confidence"));
    }
    if (!(c > 0.0 && c < 1.0)) {
      return Error("confidence must be in (0, 1), got " + FormatDouble(c));
    }
    o.quantiles = ConfidenceQuantiles(c);
  }
  if (r.Has("num_samples")) {
    PB_ASSIGN_OR_RETURN(o.num_samples, r.Int("num_samples"));
  }
  if (r.Has("seed")) {
    PB_ASSIGN_OR_RETURN(o.seed, r.Uint64("seed"));
  }
  if (r.Has("bias_correction")) {
    PB_ASSIGN_OR_RETURN(o.bias_correction, r.Bool("bias_correction"));
  }
  if (r.Has("acceleration")) {
    PB_ASSIGN_OR_RETURN(o.acceleration, r.Bool("acceleration"));
  }
  if (r.Has("threads")) {
    PB_ASSIGN_OR_RETURN(const int64_t threads, r.Int("threads"));
    if (threads < 1 || threads > 1024) {
      return Error("threads must be in [1, 1024], got " + std::to_string(threads));
    }
    o.threads = static_cast<int>(threads);
  }
  return o;
}

Result<Json> BootstrapOp(Request& r) {
  PB_RETURN_IF_ERROR(r.CheckFields(
      {"metric"}, WithScoreFields({"confidence", "quantiles", "num_samples", "seed",
                                   "bias_correction", "acceleration", "threads", "fpr",
                                   "prevalence", "min_count", "delta", "one_sided"})));
  PB_ASSIGN_OR_RETURN(const std::vector<double> m, Scores(r, "member_scores"));
  PB_ASSIGN_OR_RETURN(const std::vector<double> n, Scores(r, "nonmember_scores"));
  PB_ASSIGN_OR_RETURN(const std::string name, r.String("metric"));
  PB_ASSIGN_OR_RETURN(const ScoreMetricParams params, MetricParams(r));
  PB_ASSIGN_OR_RETURN(const ScoreMetric metric, MakeScoreMetric(name, params));
  PB_ASSIGN_OR_RETURN(const BootstrapOptions o, BootstrapFields(r));
  PB_ASSIGN_OR_RETURN(const BootstrapResult b, Bootstrap(m, n, metric, o));
  Json out;
  out["estimate"] = b.estimate;
  out["lower"] = b.values.front();
  out["upper"] = b.values.back();
  out["values"] = b.values;
  out["quantiles"] = b.quantiles;
  out["levels"] = b.levels;
  out["z0"] = b.z0;
  out["acceleration"] = b.acceleration;
  return out;
}

// The optional fields of a sequential_audit request, as the library takes them.
Result<SequentialAuditRequest> SequentialRequest(Request& r) {
  SequentialAuditRequest q;
  const std::pair<const char*, std::optional<double>*> numbers[] = {
      {"alpha", &q.alpha}, {"delta", &q.delta}, {"threshold", &q.threshold}};
  for (const auto& [name, field] : numbers) {
    if (!r.Has(name)) continue;
    PB_ASSIGN_OR_RETURN(*field, r.Double(name));
  }
  if (r.Has("state")) {
    PB_ASSIGN_OR_RETURN(q.state, r.String("state"));
  }
  const std::pair<const char*, std::optional<std::vector<double>>*> doubles[] = {
      {"epsilons", &q.epsilons},
      {"mus", &q.mus},
      {"scores", &q.scores},
      {"member_scores", &q.member_scores},
      {"nonmember_scores", &q.nonmember_scores}};
  for (const auto& [name, field] : doubles) {
    if (!r.Has(name)) continue;
    PB_ASSIGN_OR_RETURN(*field, r.Doubles(name));
  }
  for (const auto& [name, field] : {std::pair{"guesses", &q.guesses}, {"truths", &q.truths}}) {
    if (!r.Has(name)) continue;
    PB_ASSIGN_OR_RETURN(*field, r.Ints(name));
  }
  return q;
}

Json VerdictRows(const char* parameter, const std::vector<NullVerdict>& verdicts) {
  Json rows = Json::array();
  for (const NullVerdict& v : verdicts) {
    rows.push_back({{parameter, v.parameter},
                    {"tau", v.bounds.tau},
                    {"p0", v.bounds.p0},
                    {"e_value", Number(v.e_value)},
                    {"rejected_at", v.rejected_at > 0 ? Json(v.rejected_at) : Json(nullptr)}});
  }
  return rows;
}

Result<Json> SequentialAuditOp(Request& r) {
  PB_RETURN_IF_ERROR(
      r.CheckFields({}, {"alpha", "delta", "epsilons", "mus", "threshold", "state", "guesses",
                         "truths", "scores", "member_scores", "nonmember_scores"}));
  PB_ASSIGN_OR_RETURN(const SequentialAuditRequest request, SequentialRequest(r));
  PB_ASSIGN_OR_RETURN(const SequentialAuditResponse a, RunSequentialAudit(request));
  const SequentialAuditReport& report = a.report;
  Json out;
  out["alpha"] = a.options.alpha;
  out["delta"] = a.options.delta;
  out["threshold"] = Optional(a.options.threshold);
  out["rounds"] = report.rounds;
  out["game_rounds"] = report.game_rounds;
  out["correct_guesses"] = report.correct_guesses;
  out["pair_rounds"] = report.pair_rounds;
  out["pair_difference_sum"] = report.pair_difference_sum;
  out["largest_rejected_epsilon"] = Optional(report.largest_rejected_epsilon);
  out["largest_rejected_mu"] = Optional(report.largest_rejected_mu);
  out["epsilons"] = VerdictRows("epsilon", report.dp);
  out["mus"] = VerdictRows("mu", report.gdp);
  out["state"] = a.state;
  return out;
}

// The deepest nesting of arrays and objects in `line` (outside strings),
// found without recursion; stops counting past `limit`.
int NestingDepth(const std::string& line, int limit) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char c : line) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

Result<Json> Dispatch(const Json& request) {
  Request r(request);
  if (!request.contains("op") || !request["op"].is_string()) {
    return Error(
        "missing field 'op' (a string: interval, eps_from_rates, katz, "
        "epsilon_star, accountant, calibrate, one_run, audit_scores, score_metrics, "
        "one_run_scores, multi_split, bootstrap, sequential_audit)");
  }
  const std::string op = request["op"].get<std::string>();
  if (op == "interval") return Interval(r);
  if (op == "eps_from_rates") return EpsFromRatesOp(r);
  if (op == "katz") return Katz(r);
  if (op == "epsilon_star") return EpsilonStar(r);
  if (op == "accountant") return AccountantOp(r);
  if (op == "calibrate") return Calibrate(r);
  if (op == "one_run") return OneRun(r);
  if (op == "audit_scores") return AuditScoresOp(r);
  if (op == "score_metrics") return ScoreMetricsOp(r);
  if (op == "one_run_scores") return OneRunScoresOp(r);
  if (op == "multi_split") return MultiSplitOp(r);
  if (op == "bootstrap") return BootstrapOp(r);
  if (op == "sequential_audit") return SequentialAuditOp(r);
  return Error("unknown op " + QuoteText(op) + " (see epsilon_cli --help)");
}

// The raw text of the top-level "id" value of a line that is not valid JSON
// as a whole (a number overflowing a double elsewhere, a lone surrogate),
// found by a scan that tracks strings and nesting; empty when there is none
// or the line is too broken to tell.
std::string RawTopLevelId(const std::string& line) {
  int depth = 0;
  bool expect_key = false;
  std::string found;
  int id_keys = 0;
  const auto string_end = [&](size_t open) {  // index of the closing quote, or npos
    size_t end = open + 1;
    while (end < line.size() && line[end] != '"') end += line[end] == '\\' ? 2 : 1;
    return end < line.size() ? end : std::string::npos;
  };
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '"') {
      const size_t end = string_end(i);
      if (end == std::string::npos) return "";
      const bool is_id_key =
          depth == 1 && expect_key && line.compare(i, end - i + 1, "\"id\"") == 0;
      i = end;
      if (!is_id_key) continue;
      const size_t colon = line.find_first_not_of(" \t\r", end + 1);
      if (colon == std::string::npos || line[colon] != ':') return "";
      const size_t v = line.find_first_not_of(" \t\r", colon + 1);
      if (v == std::string::npos) return "";
      size_t stop = v;
      if (line[v] == '"') {
        stop = string_end(v);
        if (stop == std::string::npos) return "";
        ++stop;
      } else {
        while (stop < line.size() &&
               std::string("+-.eE0123456789truefalsn").find(line[stop]) != std::string::npos) {
          ++stop;
        }
      }
      found = line.substr(v, stop - v);
      ++id_keys;
      expect_key = false;
      i = stop - 1;
      continue;
    }
    if (c == '{' || c == '[') {
      ++depth;
      expect_key = c == '{' && depth == 1;
    } else if (c == '}' || c == ']') {
      --depth;
    } else if (c == ',' && depth == 1) {
      expect_key = true;
    } else if (c == ':' && depth == 1) {
      expect_key = false;
    }
  }
  return id_keys == 1 ? found : "";  // a repeated "id" names no one id
}

// The id to echo for a line that did not parse: its own id where the scan
// finds one that parses on its own, else null.
Json RecoveredId(const std::string& line) {
  const std::string raw = RawTopLevelId(line);
  if (raw.empty()) return nullptr;
  try {
    return ParseJsonStrict<Json>(raw);
  } catch (const std::exception&) {
    return nullptr;
  }
}

// An id is echoed as given. An integer written without a point or an
// exponent that does not fit 64 bits (2^64) parses as a double and would
// come back as another number (1.8446744073709552e+19), so it is refused.
bool EchoableId(const Json& id, const std::string& line) {
  if (!id.is_number_float()) return true;
  return RawTopLevelId(line).find_first_of(".eE") != std::string::npos;
}

// One request line -> one response object.
Json Serve(const std::string& line, int64_t line_number) {
  Json response;
  const std::string where = "line " + std::to_string(line_number) + ": ";
  if (line.find_first_not_of(" \t\r") == std::string::npos) {
    response["id"] = nullptr;
    response["error"] = where + "blank line (expected a JSON object)";
    return response;
  }
  if (NestingDepth(line, kMaxJsonDepth) > kMaxJsonDepth) {
    response["id"] = nullptr;
    response["error"] =
        where + "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
    return response;
  }
  Json request;
  try {
    request = ParseJsonStrict<Json>(line);  // a repeated key is refused, not last-wins
  } catch (const std::exception& e) {
    response["id"] = RecoveredId(line);
    if (!EchoableId(response["id"], line)) response["id"] = nullptr;
    response["error"] = Bounded(where + "invalid JSON: " + e.what());
    return response;
  }
  response["id"] = request.is_object() && request.contains("id") ? request["id"] : Json(nullptr);
  if (!EchoableId(response["id"], line)) {
    response["error"] =
        where + "id must be a string or an integer within 64 bits, got " + Shown(response["id"]);
    response["id"] = nullptr;
    return response;
  }
  if (!request.is_object()) {
    response["error"] = where + "expected a JSON object";
    return response;
  }
  Result<Json> result = Error("");
  try {
    result = Dispatch(request);
  } catch (const std::exception& e) {
    // Nothing should reach here (every method validates the ranges in which
    // it is accurate); if a numerical routine still throws, the answer says
    // which op and that it is ours, not the request's.
    const Json& op = request.contains("op") ? request["op"] : Json(nullptr);
    result = Error("internal error in op " + Shown(op) +
                   " (please report it with this line): " + e.what());
  }
  if (!result.ok()) {
    response["error"] = Bounded(result.message());
    return response;
  }
  for (auto it = result->begin(); it != result->end(); ++it) response[it.key()] = it.value();
  return response;
}

}  // namespace

std::string EpsilonCliHelp() { return HelpText(); }

std::string ServeLine(const std::string& line, int64_t line_number) {
  // Invalid UTF-8 (in the echoed id, or quoted in a parse error) is written
  // as U+FFFD: dump() would otherwise throw.
  return Serve(line, line_number).dump(-1, ' ', false, Json::error_handler_t::replace);
}

int ServeBatch(std::istream& in, std::FILE* out) {
  std::string line;
  int64_t line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    const std::string response = ServeLine(line, line_number) + "\n";
    if (std::fwrite(response.data(), 1, response.size(), out) != response.size() ||
        std::fflush(out) != 0) {
      std::fprintf(stderr, "epsilon_cli: error: cannot write the answer to line %lld: %s\n",
                   static_cast<long long>(line_number), std::strerror(errno));
      return 1;
    }
  }
  return 0;
}

}  // namespace privbench
