#include "experiments/published_examples/compute.h"

#include <cmath>
#include <iterator>
#include <limits>

#include "estimators/accountants/accountant.h"
#include "estimators/accountants/accountant_registry.h"
#include "estimators/interval_registry.h"
#include "estimators/intervals/bayesian.h"
#include "estimators/intervals/katz_log.h"
#include "estimators/rate_box_method.h"
#include "estimators/rate_intervals.h"
#include "estimators/summary_bounds.h"

namespace privbench::published_examples {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

Result<EpsInterval> Interval(const std::string& method, const ConfusionCounts& c, double delta,
                             double alpha) {
  PB_ASSIGN_OR_RETURN(auto est, MakeIntervalEstimator(method));
  return est->Estimate(c, delta, alpha);
}

}  // namespace

Result<EveryEstimator> EstimateWithEvery(const ConfusionCounts& c, double delta, double alpha) {
  EveryEstimator out;
  for (const std::string& name : AllIntervalEstimatorNames()) {
    PB_ASSIGN_OR_RETURN(auto est, MakeIntervalEstimator(name));
    out.method.push_back(name);
    if (est->requires_zero_delta() && delta != 0.0) {
      out.lower.push_back(kNan);
      out.upper.push_back(kNan);
      out.kind.push_back("n/a: defined for delta = 0 only");
      continue;
    }
    PB_ASSIGN_OR_RETURN(EpsInterval r, est->Estimate(c, delta, alpha));
    out.lower.push_back(r.lower);
    out.upper.push_back(r.upper.value_or(kNan));
    out.kind.push_back(r.upper ? "two-sided" : "one-sided lower bound");
  }
  return out;
}

Result<PaperIntervals> EstimatePaperIntervals(const ConfusionCounts& c, double delta,
                                              double alpha) {
  PaperIntervals out;
  for (const char* m : {"bayesian", "jeffreys", "clopper_pearson"}) {
    PB_ASSIGN_OR_RETURN(EpsInterval r, Interval(m, c, delta, alpha));
    if (!r.upper) return Error(std::string(m) + " gave no upper end");
    out.method.push_back(m);
    out.interval.push_back(r);
  }
  return out;
}

Result<WorkedExample> ComputeWorkedExample() {
  const ConfusionCounts c{/*tp=*/65, /*fn=*/35, /*fp=*/25, /*tn=*/75};
  const double delta = 0.05, alpha = 0.05;
  WorkedExample out;
  PB_ASSIGN_OR_RETURN(out.every, EstimateWithEvery(c, delta, alpha));
  PB_ASSIGN_OR_RETURN(out.paper, EstimatePaperIntervals(c, delta, alpha));
  PB_ASSIGN_OR_RETURN(BayesianEpsPosterior post, BayesianEpsPosterior::Create(c, delta));
  const RateBox box = MakeRateBox(c, alpha / 2, &JeffreysRate);
  PB_ASSIGN_OR_RETURN(EpsInterval j, Interval("jeffreys", c, delta, alpha));
  out.rectangle_mass = 100.0 * post.BoxMass(box);
  out.region_mass = 100.0 * (post.Cdf(*j.upper) - post.Cdf(j.lower));
  return out;
}

FootnoteOne ComputeFootnoteOne() {
  const ConfusionCounts c{/*tp=*/90, /*fn=*/10, /*fp=*/0, /*tn=*/100};
  const double delta = 1e-5, alpha = 0.1;
  FootnoteOne out;
  out.box = MakeRateBox(c, alpha / 2, &ClopperPearsonRate);
  out.corner = EpsFromRatesUnchecked(out.box.fnr_hi, out.box.fpr_hi, delta);
  out.exact_min = MinEpsOverBox(out.box, delta);
  out.dropped_term = std::log((1.0 - delta - 0.0) / out.box.fnr_hi);
  return out;
}

Result<PerfectAttack> ComputePerfectAttack() {
  const double delta = 1e-5, alpha = 0.1;
  PerfectAttack out;
  for (int64_t n : {1000, 2000}) {
    const ConfusionCounts c{n / 2, 0, 0, n / 2};
    for (const char* m : {"clopper_pearson", "clopper_pearson_one_sided", "jeffreys_one_sided",
                          "bayesian_one_sided"}) {
      PB_ASSIGN_OR_RETURN(EpsInterval r, Interval(m, c, delta, alpha));
      out.method.push_back(m);
      out.trials.push_back(n);
      out.lower.push_back(r.lower);
    }
  }
  return out;
}

Result<ReadmeExample> ComputeReadmeExample() {
  const ConfusionCounts c{/*tp=*/487, /*fn=*/0, /*fp=*/512, /*tn=*/1};
  const double delta = 1e-5, alpha = 0.1;
  ReadmeExample out;
  PB_ASSIGN_OR_RETURN(out.every, EstimateWithEvery(c, delta, alpha));
  PB_ASSIGN_OR_RETURN(out.paper, EstimatePaperIntervals(c, delta, alpha));
  return out;
}

Result<CeilingAndAdvantage> ComputeCeilingAndAdvantage() {
  CeilingAndAdvantage out;
  PB_ASSIGN_OR_RETURN(out.katz_ceiling, KatzLogCeiling(10000, 0.05));
  // Table 2 translates Table 1's attack TPR at 5% FPR with Prop. 3.
  out.attack_tpr = {0.05, 0.053, 0.056, 0.078, 0.089};
  out.noise_multiplier = {"136.67", "13.76", "6.99", "1.06", "0.44"};
  for (double tpr : out.attack_tpr) {
    PB_ASSIGN_OR_RETURN(double eps, EpsFromAdvantage(tpr - 0.05, 1e-5));
    out.eps_lower.push_back(eps);
  }
  return out;
}

Result<AccountantTable> ComputeAccountantTable() {
  const double sigmas[] = {136.67, 13.76, 6.99, 1.06, 0.44};
  DpSgdAccounting setting;
  setting.q = 0.02;      // batch 200 of 10,000
  setting.steps = 5000;  // 100 epochs
  setting.delta = 1e-5;
  setting.orders = TableOneRdpOrders();
  AccountantTable out;
  for (int64_t row = 0; row < static_cast<int64_t>(std::size(sigmas)); ++row) {
    setting.sigma = sigmas[row];
    for (const std::string& name : UpperBoundAccountantNames()) {
      PB_ASSIGN_OR_RETURN(auto acc, MakeAccountant(name));
      PB_ASSIGN_OR_RETURN(AccountantResult r, acc->Epsilon(setting));
      out.row.push_back(row + 1);
      out.noise_multiplier.push_back(sigmas[row]);
      out.accountant.push_back(name);
      out.epsilon.push_back(r.epsilon);
      out.rdp_order.push_back(r.order.value_or(kNan));
    }
  }
  return out;
}

Result<Examples> ComputeExamples() {
  Examples out;
  PB_ASSIGN_OR_RETURN(out.worked, ComputeWorkedExample());
  out.footnote1 = ComputeFootnoteOne();
  PB_ASSIGN_OR_RETURN(out.perfect, ComputePerfectAttack());
  PB_ASSIGN_OR_RETURN(out.readme, ComputeReadmeExample());
  PB_ASSIGN_OR_RETURN(out.ceiling, ComputeCeilingAndAdvantage());
  PB_ASSIGN_OR_RETURN(out.accountants, ComputeAccountantTable());
  return out;
}

}  // namespace privbench::published_examples
