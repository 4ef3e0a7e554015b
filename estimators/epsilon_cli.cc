// epsilon_cli: the estimator library as a JSON-lines service.
//
//   epsilon_cli batch < requests.jsonl > responses.jsonl
//   epsilon_cli --help
//
// One JSON object per input line; one JSON object per output line, in the
// same order, echoing the input's "id". A bad line yields
// {"id": ..., "error": "message"} and processing continues. Infinity is
// written as the string "inf"; one-sided methods return "upper": null.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "core/result.h"
#include "core/validate.h"
#include "estimators/accountants/accountant.h"
#include "estimators/accountants/accountant_registry.h"
#include "estimators/eps_from_rates.h"
#include "estimators/interval_registry.h"
#include "estimators/intervals/katz_log.h"
#include "estimators/loss_samples/loss_sample_registry.h"

namespace privbench {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kHelp = R"(usage: epsilon_cli batch < in.jsonl > out.jsonl
       epsilon_cli --help

Reads one JSON object per line from stdin and writes one JSON object per
line to stdout, in the same order. Every response echoes the request's "id"
(any JSON value; null if absent). A request that cannot be served gets
{"id": ..., "error": "message naming the bad field"}; later lines are still
processed. Infinity is written as the string "inf". Unknown fields are
errors (they are usually typos).

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
      orders; default: a list spanning 1.01..16384).
  {"op":"calibrate","method":M,"target_epsilon":x,"q":x,"steps":i,"delta":x,"orders":[...]}
      -> {"sigma":x}
      The noise multiplier at which accountant M gives target_epsilon.
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
  return h;
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
      return Error("unknown field '" + k + "' for op '" + j_["op"].get<std::string>() + "'");
    }
    return Status::Ok();
  }
  bool Has(const std::string& name) const { return j_.contains(name); }

  Result<double> Double(const std::string& name) const {
    const Json& v = j_.at(name);
    if (!v.is_number()) return Error(name + " must be a number, got " + v.dump());
    return v.get<double>();
  }
  Result<int64_t> Int(const std::string& name) const {
    const Json& v = j_.at(name);
    if (v.is_number_integer()) return v.get<int64_t>();
    if (v.is_number_float()) {
      const double d = v.get<double>();
      if (std::isfinite(d) && d == std::floor(d) && std::abs(d) < 9e15) {
        return static_cast<int64_t>(d);
      }
    }
    return Error(name + " must be an integer, got " + v.dump());
  }
  Result<std::string> String(const std::string& name) const {
    const Json& v = j_.at(name);
    if (!v.is_string()) return Error(name + " must be a string, got " + v.dump());
    return v.get<std::string>();
  }
  Result<std::vector<double>> Doubles(const std::string& name) const {
    const Json& v = j_.at(name);
    if (!v.is_array()) return Error(name + " must be an array of numbers");
    std::vector<double> out;
    out.reserve(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_number()) {
        return Error(name + "[" + std::to_string(i) + "] must be a number, got " + v[i].dump());
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
  PB_ASSIGN_OR_RETURN(double eps, est->Estimate(train, population, opt));
  Json out;
  out["epsilon"] = Number(eps);
  return out;
}

Result<DpSgdAccounting> Setting(Request& r) {
  DpSgdAccounting s;
  PB_ASSIGN_OR_RETURN(s.q, r.Double("q"));
  PB_ASSIGN_OR_RETURN(s.steps, r.Int("steps"));
  PB_ASSIGN_OR_RETURN(s.delta, r.Double("delta"));
  if (r.Has("orders")) {
    PB_ASSIGN_OR_RETURN(s.orders, r.Doubles("orders"));
  }
  return s;
}

Result<Json> AccountantOp(Request& r) {
  PB_RETURN_IF_ERROR(r.CheckFields({"method", "sigma", "q", "steps", "delta"}, {"orders"}));
  PB_ASSIGN_OR_RETURN(std::string method, r.String("method"));
  PB_ASSIGN_OR_RETURN(auto acc, MakeAccountant(method, "method"));
  PB_ASSIGN_OR_RETURN(DpSgdAccounting s, Setting(r));
  PB_ASSIGN_OR_RETURN(s.sigma, r.Double("sigma"));
  PB_ASSIGN_OR_RETURN(AccountantResult res, acc->Epsilon(s));
  Json out;
  out["epsilon"] = Number(res.epsilon);
  if (res.order) out["order"] = Number(*res.order);
  return out;
}

Result<Json> Calibrate(Request& r) {
  PB_RETURN_IF_ERROR(
      r.CheckFields({"method", "target_epsilon", "q", "steps", "delta"}, {"orders"}));
  PB_ASSIGN_OR_RETURN(std::string method, r.String("method"));
  PB_ASSIGN_OR_RETURN(auto acc, MakeAccountant(method, "method"));
  PB_ASSIGN_OR_RETURN(DpSgdAccounting s, Setting(r));
  PB_ASSIGN_OR_RETURN(double target, r.Double("target_epsilon"));
  PB_ASSIGN_OR_RETURN(double sigma, CalibrateSigma(*acc, target, s));
  Json out;
  out["sigma"] = Number(sigma);
  return out;
}

// One request line -> one response object.
Json Serve(const std::string& line, int64_t line_number) {
  Json response;
  Json request;
  try {
    request = Json::parse(line);
  } catch (const std::exception& e) {
    response["id"] = nullptr;
    response["error"] = "line " + std::to_string(line_number) + ": invalid JSON: " + e.what();
    return response;
  }
  response["id"] = request.is_object() && request.contains("id") ? request["id"] : Json(nullptr);
  if (!request.is_object()) {
    response["error"] = "line " + std::to_string(line_number) + ": expected a JSON object";
    return response;
  }
  Result<Json> result = Error("");
  try {
    Request r(request);
    if (!request.contains("op") || !request["op"].is_string()) {
      result = Error(
          "missing field 'op' (a string: interval, eps_from_rates, katz, "
          "epsilon_star, accountant, calibrate)");
    } else {
      const std::string op = request["op"].get<std::string>();
      if (op == "interval") {
        result = Interval(r);
      } else if (op == "eps_from_rates") {
        result = EpsFromRatesOp(r);
      } else if (op == "katz") {
        result = Katz(r);
      } else if (op == "epsilon_star") {
        result = EpsilonStar(r);
      } else if (op == "accountant") {
        result = AccountantOp(r);
      } else if (op == "calibrate") {
        result = Calibrate(r);
      } else {
        result = Error("unknown op '" + op + "' (see epsilon_cli --help)");
      }
    }
  } catch (const std::exception& e) {
    result = Error(std::string("internal error: ") + e.what());
  }
  if (!result.ok()) {
    response["error"] = result.message();
    return response;
  }
  for (auto it = result->begin(); it != result->end(); ++it) response[it.key()] = it.value();
  return response;
}

}  // namespace
}  // namespace privbench

int main(int argc, char** argv) {
  using namespace privbench;
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "--help" || mode == "-h" || mode == "help") {
    std::fputs(HelpText().c_str(), stdout);
    return 0;
  }
  if (mode != "batch" || argc > 2) {
    std::fprintf(stderr, "epsilon_cli: usage: epsilon_cli batch < in.jsonl (see --help)\n");
    return 2;
  }
  std::ios::sync_with_stdio(false);
  std::string line;
  int64_t line_number = 0;
  while (std::getline(std::cin, line)) {
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank lines
    std::cout << Serve(line, line_number).dump() << '\n' << std::flush;
  }
  return 0;
}
