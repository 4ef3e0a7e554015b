// How close can an audit of study ml_audit get (README.md,
// "Limits of the LR and NB audits")? For the two mechanisms whose output law
// is known in closed form once the data are fixed, this tool compares, on the
// same poisoned neighbours the study builds:
//   max_loss: the largest privacy loss the neighbour pair can show at all,
//     sup_o ln p_D(o) / p_D'(o): for lr_output (Chaudhuri et al. 2011,
//     Alg. 1) ||w* - w*'|| / s with s = noise_factor * 2 / (n lambda eps),
//     because the noise density is proportional to exp(-||b|| / s); for naive
//     Bayes (Vaidya et al. 2013; naive_bayes.h) the sum over its Laplace-noised
//     counts, shifted sums and squared deviations of |centre - centre'| /
//     scale (the last at the worst released mean);
//   oracle: ML-Audit's Algorithm 1 (estimators/output_set_audit) on the 1-d summary
//     ln p_D(o) - ln p_D'(o), the exact log-likelihood ratio: the best set any
//     classifier could find (Neyman-Pearson), so the most any audit of this
//     neighbour pair can certify with N draws per side (naive Bayes: on the
//     noisy counts, sums and squared deviations, of which the study's summary
//     is a function, so an upper bound for it);
//   learned: Algorithm 1 on the study's summary with its default classifier;
//   rho_any (lr_output only): lambda / lambda_min(H), H the Hessian of the
//     non-private objective: to first order no replace-one neighbour of D
//     can show a loss above rho_any * eps / noise_factor;
//   rho (lr_output): max_loss * noise_factor / eps, the fraction of the
//     worst-case sensitivity 2 / (n lambda) the attack's neighbour realises;
//   rho_flat (lr_output): rho of the best of four poisons aimed along H's
//     flattest eigenvector (both signs and labels), exact refits;
//   target (lr_output only): Algorithm 1 on the 1-d summary w . z(x*), the
//     model's score on the poisoned point (the paper's prediction summary).
// The bounds are per copy at k = 1 (one poisoned row).
//
//   bazel build --config=ci //experiments/ml_audit:optimal_audit
//   bazel-bin/experiments/ml_audit/optimal_audit [--n=1000] [--factor=0.5]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "attacks/poisoning/poisoning.h"
#include "core/flags.h"
#include "core/seeding.h"
#include "estimators/output_set_audit/output_set_audit.h"
#include "experiments/ml_audit/compute.h"
#include "experiments/ml_audit/config.h"
#include "experiments/ml_audit/data.h"
#include "mechanisms/classical/logistic_regression.h"
#include "mechanisms/classical/mechanism.h"
#include "mechanisms/classical/naive_bayes.h"
#include "numerics/linalg.h"
#include "numerics/logistic.h"

namespace privbench::ml_audit {
namespace {

struct Setting {
  std::string dataset, mechanism, attack;
  NeighbourMode mode = NeighbourMode::kReplace;
  double eps = 1, factor = 1;
  int64_t n = 1000;
};

Result<double> Audit(int64_t dim, const SummaryDraws& d, const SummaryDraws& dp, int64_t n,
                     const std::string& classifier, uint64_t seed) {
  MlAuditOptions o;
  o.n = n;
  o.classifier = classifier;
  Rng rng(seed);
  PB_ASSIGN_OR_RETURN(MlAuditResult r, RunMlAudit(dim, d, dp, o, rng));
  return r.eps_lb;
}

// The study's own summary and classifier on the real mechanism.
Result<double> Learned(const AuditDataset& ds, const BinaryData& dprime, const Poison& poison,
                       const Setting& s) {
  MechanismOptions mo;
  mo.eps = s.eps;
  mo.noise_factor = s.factor;
  PB_ASSIGN_OR_RETURN(auto mech, MakeClassicalMechanism(s.mechanism, mo));
  PB_ASSIGN_OR_RETURN(std::shared_ptr<SummarySampler> a,
                      mech->Prepare(ds.data, ds.bounds, poison.x));
  PB_ASSIGN_OR_RETURN(std::shared_ptr<SummarySampler> b,
                      mech->Prepare(dprime, ds.bounds, poison.x));
  return Audit(a->dim(), DrawsOf(a.get()), DrawsOf(b.get()), s.n, Config().classifier, 11);
}

// Draws from one side of lr_output (centre c) mapped to a 1-d summary.
SummaryDraws LrDraws(std::vector<double> c, double scale,
                     std::function<double(const std::vector<double>&)> summary) {
  return [c, scale, summary](int64_t count, Rng& rng, std::vector<double>* out) -> Status {
    const int64_t m = static_cast<int64_t>(c.size());
    std::vector<double> o(m);
    out->resize(count);
    for (int64_t i = 0; i < count; ++i) {
      DrawGammaNormVector(rng, m, scale, o.data());
      for (int64_t j = 0; j < m; ++j) o[j] += c[j];
      (*out)[i] = summary(o);
    }
    return Status::Ok();
  };
}

// rho of the best of a few poisons aimed at H's flattest direction v (x* =
// +-R v's feature part projected into C, both labels, replacing the row the
// attack replaced), by an exact refit: does any poison get near rho_any?
Result<double> FlatProbe(const AuditDataset& ds, const Poison& poison, const LogisticProblem& p,
                         const std::vector<double>& w) {
  const Eigen e = SymmetricEigen(LogisticHessian(p, w));
  const int64_t lo = std::min_element(e.values.begin(), e.values.end()) - e.values.begin();
  double best = 0;
  for (double sign : {-1.0, 1.0}) {
    for (int y : {0, 1}) {
      Poison q = poison;
      q.x.assign(ds.data.d, 0.0);
      for (int64_t j = 0; j < ds.data.d; ++j)
        q.x[j] = sign * ds.bounds.radius * e.vectors.at(j, lo);
      ProjectIntoBounds(ds.bounds, &q.x);
      q.y = y;
      PB_ASSIGN_OR_RETURN(BinaryData dp, MakeNeighbour(ds.data, q, NeighbourMode::kReplace, 1));
      PB_ASSIGN_OR_RETURN(LogisticFit f, FitLogistic(LrProblem(dp, ds.bounds, 0), {}, {}));
      std::vector<double> diff(w.size());
      for (size_t j = 0; j < w.size(); ++j) diff[j] = w[j] - f.w[j];
      best = std::max(best, Norm2(diff) * static_cast<double>(ds.data.n()) * p.lambda / 2);
    }
  }
  return best;
}

Status LrOutputRow(const AuditDataset& ds, const BinaryData& dprime, const Poison& poison,
                   const Setting& s) {
  const LogisticProblem p = LrProblem(ds.data, ds.bounds, 0), q = LrProblem(dprime, ds.bounds, 0);
  PB_ASSIGN_OR_RETURN(LogisticFit w, FitLogistic(p, {}, {}));
  PB_ASSIGN_OR_RETURN(LogisticFit wp, FitLogistic(q, {}, {}));
  const double scale = s.factor * 2 / (static_cast<double>(ds.data.n()) * p.lambda * s.eps);
  std::vector<double> diff(w.w.size());
  for (size_t j = 0; j < diff.size(); ++j) diff[j] = w.w[j] - wp.w[j];
  const double max_loss = Norm2(diff) / scale;
  // First-order bound for ANY replacement: ||dw|| <= ||H^-1|| ||g_new - g_old|| / n
  // <= 2 / (n lambda_min(H)), so the loss is at most eps / factor times
  // rho_any = lambda / lambda_min(H) (1 when the data add no curvature).
  const std::vector<double> ev = SymmetricEigen(LogisticHessian(p, w.w)).values;
  const double rho_any = p.lambda / *std::min_element(ev.begin(), ev.end());
  PB_ASSIGN_OR_RETURN(const double rho_flat, FlatProbe(ds, poison, p, w.w));
  auto dist = [](const std::vector<double>& a, const std::vector<double>& b) {
    double t = 0;
    for (size_t j = 0; j < a.size(); ++j) t += (a[j] - b[j]) * (a[j] - b[j]);
    return std::sqrt(t);
  };
  const std::vector<double> cw = w.w, cwp = wp.w;
  auto llr = [=](const std::vector<double>& o) { return (dist(o, cwp) - dist(o, cw)) / scale; };
  const std::vector<double> z = LrFeatures(poison.x.data(), ds.data.d, ds.bounds.radius);
  auto score = [z](const std::vector<double>& o) {
    return Dot(o.data(), z.data(), static_cast<int64_t>(z.size()));
  };
  PB_ASSIGN_OR_RETURN(double oracle, Audit(1, LrDraws(cw, scale, llr), LrDraws(cwp, scale, llr),
                                           s.n, "logistic_linear", 7));
  PB_ASSIGN_OR_RETURN(double target, Audit(1, LrDraws(cw, scale, score), LrDraws(cwp, scale, score),
                                           s.n, "logistic_linear", 9));
  PB_ASSIGN_OR_RETURN(double learned, Learned(ds, dprime, poison, s));
  std::printf("%-13s %-10s %-9s %5.2f %4.2f %7lld %9.3f %9.3f %9.3f %9.3f %8.3f %8.3f %8.3f\n",
              s.dataset.c_str(), s.mechanism.c_str(), s.attack.c_str(), s.eps, s.factor,
              static_cast<long long>(s.n), max_loss, oracle, learned, target,
              max_loss * s.factor / s.eps, rho_any, rho_flat);
  return Status::Ok();
}

// Naive Bayes (naive_bayes.h) releases, per class, a noisy count, noisy
// shifted sums and noisy squared deviations around the released means; the
// summary is a function of the release, so the release's exact
// log-likelihood ratio bounds what any test on the summary can show. Given a
// release the means m are fixed, so both datasets' squared deviations are
// centred at Q(m) and Q'(m) with the same Laplace scale.
struct NbPair {
  NbClassStatistics d[2], dp[2];
  DataBounds bounds;
  double eps = 1;  // effective: eps / noise_factor
  double Feature() const { return eps / 3 / static_cast<double>(bounds.lo.size()); }
};

double NbLlr(const NbPair& p, const NbRelease (&r)[2]) {
  const double ef = p.Feature();
  double t = 0;
  for (int c = 0; c < 2; ++c) {
    t +=
        (std::fabs(r[c].noisy_count - p.dp[c].count) - std::fabs(r[c].noisy_count - p.d[c].count)) *
        p.eps / 3;
    for (size_t j = 0; j < r[c].mean.size(); ++j) {
      const double w = p.bounds.hi[j] - p.bounds.lo[j];
      const double sum = r[c].noisy_shifted_sum[j];
      t += (std::fabs(sum - p.dp[c].shifted_sum[j]) - std::fabs(sum - p.d[c].shifted_sum[j])) * ef /
           w;
      const double m = std::clamp(r[c].mean[j], p.bounds.lo[j], p.bounds.hi[j]);
      const double q = r[c].noisy_square_dev[j];
      t += (std::fabs(q - NbSquareDeviation(p.dp[c], p.bounds, j, m)) -
            std::fabs(q - NbSquareDeviation(p.d[c], p.bounds, j, m))) *
           ef / NbSquareSensitivity(p.bounds, j, m);
    }
  }
  return t;
}

// sup over releases of the log-likelihood ratio: the counts' and sums' shifts
// over their scales plus, per feature, the largest shift of the squared
// deviations over their scale across released means on a 2001-point grid.
double NbMaxLoss(const NbPair& p) {
  const double ef = p.Feature();
  double loss = 0;
  for (int c = 0; c < 2; ++c) {
    loss += std::fabs(p.d[c].count - p.dp[c].count) * p.eps / 3;
    for (size_t j = 0; j < p.bounds.lo.size(); ++j) {
      const double lo = p.bounds.lo[j], w = p.bounds.hi[j] - lo;
      loss += std::fabs(p.d[c].shifted_sum[j] - p.dp[c].shifted_sum[j]) * ef / w;
      double worst = 0;
      for (int g = 0; g <= 2000; ++g) {
        const double m = lo + w * g / 2000.0;
        worst = std::max(worst, std::fabs(NbSquareDeviation(p.d[c], p.bounds, j, m) -
                                          NbSquareDeviation(p.dp[c], p.bounds, j, m)) /
                                    NbSquareSensitivity(p.bounds, j, m));
      }
      loss += worst * ef;
    }
  }
  return loss;
}

Status NbRow(const AuditDataset& ds, const BinaryData& dprime, const Poison& poison,
             const Setting& s) {
  auto pair = std::make_shared<NbPair>();
  pair->bounds = ds.bounds;
  pair->eps = s.eps / s.factor;
  for (int c = 0; c < 2; ++c) {
    pair->d[c] = NbStatisticsOf(ds.data, ds.bounds, c);
    pair->dp[c] = NbStatisticsOf(dprime, ds.bounds, c);
  }
  auto draws = [pair](bool neighbour) -> SummaryDraws {
    return [pair, neighbour](int64_t count, Rng& rng, std::vector<double>* out) -> Status {
      out->resize(count);
      for (int64_t i = 0; i < count; ++i) {
        const NbClassStatistics* stats = neighbour ? pair->dp : pair->d;
        const NbRelease r[2] = {DrawNbRelease(stats[0], pair->bounds, pair->eps, rng),
                                DrawNbRelease(stats[1], pair->bounds, pair->eps, rng)};
        (*out)[i] = NbLlr(*pair, r);
      }
      return Status::Ok();
    };
  };
  PB_ASSIGN_OR_RETURN(double oracle,
                      Audit(1, draws(false), draws(true), s.n, "logistic_linear", 7));
  PB_ASSIGN_OR_RETURN(double learned, Learned(ds, dprime, poison, s));
  std::printf("%-13s %-10s %-9s %5.2f %4.2f %7lld %9.3f %9.3f %9.3f %9s\n", s.dataset.c_str(),
              s.mechanism.c_str(), s.attack.c_str(), s.eps, s.factor, static_cast<long long>(s.n),
              NbMaxLoss(*pair), oracle, learned, "-");
  return Status::Ok();
}

Status Run(const std::string& datasets, const std::vector<double>& eps_grid, double factor,
           int64_t n) {
  std::printf("%-13s %-10s %-9s %5s %4s %7s %9s %9s %9s %9s %8s %8s %8s\n", "dataset", "mechanism",
              "attack", "eps", "fac", "N", "max_loss", "oracle", "learned", "target", "rho",
              "rho_any", "rho_flat");
  for (const std::string& name : SplitList(datasets)) {
    PB_ASSIGN_OR_RETURN(AuditDataset ds, LoadAuditDataset(name, ""));
    for (const char* attack : {"influence", "nb_flip"}) {
      const bool lr = std::string(attack) == "influence";
      PB_ASSIGN_OR_RETURN(Poison poison, DesignPoison(attack, ds.data, ds.bounds, 0, 5));
      const NeighbourMode mode = lr ? NeighbourMode::kReplace : NeighbourMode::kAdd;
      PB_ASSIGN_OR_RETURN(BinaryData dprime, MakeNeighbour(ds.data, poison, mode, 1));
      for (double eps : eps_grid) {
        for (double f : {1.0, factor}) {
          const Setting s{name, lr ? "lr_output" : "nb", attack, mode, eps, f, n};
          PB_RETURN_IF_ERROR(lr ? LrOutputRow(ds, dprime, poison, s)
                                : NbRow(ds, dprime, poison, s));
        }
      }
    }
  }
  return Status::Ok();
}

}  // namespace
}  // namespace privbench::ml_audit

int main(int argc, char** argv) {
  using namespace privbench;
  using namespace privbench::ml_audit;
  std::string datasets = "iris,breast_cancer";
  std::vector<double> eps = {0.5, 2, 8};
  double factor = 0.5;
  int64_t n = 1000;
  FlagSet flags("optimal_audit",
                "max privacy loss and the exact-likelihood-ratio audit vs ML-Audit's learned one");
  flags.AddString("datasets", &datasets, "offline datasets").NonEmpty();
  flags.AddDoubleList("eps", &eps, "claimed eps values");
  flags.AddDouble("factor", &factor, "noise factor of the weakened mechanism").OpenRange(0, 1);
  flags.AddInt("n", &n, "N per side").Range(2, 1e7);
  if (auto code = flags.ParseForMain(argc, argv)) return *code;
  Status st = Run(datasets, eps, factor, n);
  if (!st.ok()) {
    std::fprintf(stderr, "optimal_audit: error: %s\n", st.message().c_str());
    return 1;
  }
  return 0;
}
