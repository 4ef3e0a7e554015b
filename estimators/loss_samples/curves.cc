#include "estimators/loss_samples/curves.h"

#include <algorithm>
#include <exception>
#include <string>
#include <utility>

#include "core/validate.h"
#include "estimators/loss_samples/ecdf_sweep.h"
#include "estimators/loss_samples/epsilon_star_options.h"

namespace privbench {

Status ValidateEpsilonStarCurveOptions(const EpsilonStarCurveOptions& o) {
  PB_RETURN_IF_ERROR(CheckDelta(o.delta));
  if (o.quantiles_per_distribution < 1 ||
      o.quantiles_per_distribution > kMaxQuantilesPerDistribution) {
    return Error("quantiles_per_distribution must be in [1, " +
                 std::to_string(kMaxQuantilesPerDistribution) + "], got " +
                 std::to_string(o.quantiles_per_distribution));
  }
  if (!(o.rate_floor > 0.0 && o.rate_floor < 1.0)) {
    return Error("rate_floor must be in (0, 1), got " + FormatDouble(o.rate_floor));
  }
  return Status::Ok();
}

namespace {

// Appends one point unless a rate is below the floor.
void Append(EpsilonStarCurve* c, double delta, double floor, double tau, double fpr,
            double one_minus_fpr, double fnr, double one_minus_fnr) {
  if (fpr < floor || fnr < floor) return;
  c->threshold.push_back(tau);
  c->fpr.push_back(fpr);
  c->fnr.push_back(fnr);
  c->term1.push_back((one_minus_fpr - delta) / fnr);
  c->term2.push_back((one_minus_fnr - delta) / fpr);
}

// Walks the m grid thresholds of one known distribution in ascending order,
// skipping levels whose own rate is below the floor (their points would be
// dropped anyway).
class KnownGridCursor {
 public:
  // is_population: the level's rate is FPR = a (else FNR = 1 - a).
  KnownGridCursor(const KnownLossDistribution& d, const char* which, bool is_population, int64_t m,
                  double floor)
      : d_(d), which_(which), is_population_(is_population), m_(m), floor_(floor) {}

  // Moves to the next level; false when exhausted.
  Result<bool> Next() {
    while (++k_ <= m_) {
      level_ = QuantileLevel(k_, m_);
      level_c_ = QuantileLevelComplement(k_, m_);
      if ((is_population_ ? level_ : level_c_) < floor_) continue;
      PB_ASSIGN_OR_RETURN(tau_, EvaluateKnownQuantile(d_, which_, level_));
      return true;
    }
    return false;
  }
  double tau() const { return tau_; }
  double level() const { return level_; }
  double level_complement() const { return level_c_; }

 private:
  const KnownLossDistribution& d_;
  const char* which_;
  bool is_population_;
  int64_t m_;
  double floor_;
  int64_t k_ = 0;
  double tau_ = 0.0, level_ = 0.0, level_c_ = 0.0;
};

Result<EpsilonStarCurve> ExactCurveImpl(const KnownLossDistribution& train,
                                        const KnownLossDistribution& population,
                                        const EpsilonStarCurveOptions& o) {
  EpsilonStarCurve c;
  KnownGridCursor pop(population, "population", true, o.quantiles_per_distribution, o.rate_floor);
  KnownGridCursor trn(train, "train", false, o.quantiles_per_distribution, o.rate_floor);
  PB_ASSIGN_OR_RETURN(bool pop_live, pop.Next());
  PB_ASSIGN_OR_RETURN(bool trn_live, trn.Next());
  bool have_last = false;
  double last = 0.0;
  while (pop_live || trn_live) {
    const bool take_pop = pop_live && (!trn_live || pop.tau() <= trn.tau());
    KnownGridCursor& cur = take_pop ? pop : trn;
    const double tau = cur.tau();
    if (!have_last || tau != last) {
      if (take_pop) {  // FPR = level exactly
        PB_ASSIGN_OR_RETURN(KnownTails t, EvaluateKnownTails(train, "train", tau));
        Append(&c, o.delta, o.rate_floor, tau, cur.level(), cur.level_complement(), t.sf, t.cdf);
      } else {  // FNR = 1 - level exactly
        PB_ASSIGN_OR_RETURN(KnownTails p, EvaluateKnownTails(population, "population", tau));
        Append(&c, o.delta, o.rate_floor, tau, p.cdf, p.sf, cur.level_complement(), cur.level());
      }
      have_last = true;
      last = tau;
    }
    if (take_pop) {
      PB_ASSIGN_OR_RETURN(pop_live, pop.Next());
    } else {
      PB_ASSIGN_OR_RETURN(trn_live, trn.Next());
    }
  }
  return c;
}

}  // namespace

Result<EpsilonStarCurve> ExactEpsilonStarCurve(const KnownLossDistribution& train,
                                               const KnownLossDistribution& population,
                                               const EpsilonStarCurveOptions& options) {
  PB_RETURN_IF_ERROR(CheckKnownLossDistribution(train, "train"));
  PB_RETURN_IF_ERROR(CheckKnownLossDistribution(population, "population"));
  PB_RETURN_IF_ERROR(ValidateEpsilonStarCurveOptions(options));
  try {
    return ExactCurveImpl(train, population, options);
  } catch (const std::exception& e) {
    return Error(std::string("exact Epsilon* curve failed: ") + e.what());
  }
}

Result<EpsilonStarCurve> EmpiricalEpsilonStarCurve(const std::vector<double>& train_losses,
                                                   const std::vector<double>& population_losses,
                                                   const EpsilonStarCurveOptions& options) {
  PB_RETURN_IF_ERROR(CheckFiniteSamples("train_losses", train_losses));
  PB_RETURN_IF_ERROR(CheckFiniteSamples("population_losses", population_losses));
  PB_RETURN_IF_ERROR(ValidateEpsilonStarCurveOptions(options));
  std::vector<double> train = train_losses, population = population_losses;
  std::sort(train.begin(), train.end());
  std::sort(population.begin(), population.end());
  const int64_t nt = static_cast<int64_t>(train.size());
  const int64_t np = static_cast<int64_t>(population.size());
  EpsilonStarCurve c;
  SweepEcdfGrid(train, population, options.quantiles_per_distribution,
                [&](double tau, int64_t pop_le, int64_t train_le) {
                  Append(&c, options.delta, options.rate_floor, tau,
                         static_cast<double>(pop_le) / static_cast<double>(np),
                         static_cast<double>(np - pop_le) / static_cast<double>(np),
                         static_cast<double>(nt - train_le) / static_cast<double>(nt),
                         static_cast<double>(train_le) / static_cast<double>(nt));
                });
  return c;
}

}  // namespace privbench
