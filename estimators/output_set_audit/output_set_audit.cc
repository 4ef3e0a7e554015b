#include "estimators/output_set_audit/output_set_audit.h"

#include <algorithm>
#include <cmath>

#include "core/format.h"
#include "estimators/intervals/katz_log.h"
#include "numerics/linalg.h"
#include "numerics/logistic.h"

namespace privbench {
namespace {

// Decorrelation of the summary: u = L^-1 (z - mean), L the Cholesky factor
// of the pooled covariance over both samples plus a ridge of 1e-12 of its
// mean diagonal (so constant coordinates stay 0). A combination of
// coordinates nearly constant on each side but different between them (two
// exposed counts summing to n on D and to n + 1 on D') becomes a coordinate
// of unit scale a penalised classifier can use; under per-coordinate
// standardisation it stays hidden under the coordinates' own spread. Cost:
// O(rows dim^2 / 2) for the covariance (register-tiled, logistic.h) and per
// whitened row, O(dim^3 / 3) once for the factor.
class Whitening {
 public:
  Status Fit(const std::vector<double>& d1, const std::vector<double>& d0, int64_t dim) {
    dim_ = dim;
    LogisticProblem centred;
    centred.m = dim;
    centred.x = d1;
    centred.x.insert(centred.x.end(), d0.begin(), d0.end());
    const int64_t rows = static_cast<int64_t>(centred.x.size()) / dim;
    centred.sign.assign(rows, 1.0);
    mean_.assign(dim, 0.0);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < dim; ++j) mean_[j] += centred.x[i * dim + j];
    for (double& v : mean_) v /= static_cast<double>(rows);
    double diagonal = 0;
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < dim; ++j) {
        double& v = centred.x[i * dim + j];
        v -= mean_[j];
        diagonal += v * v;
      }
    }
    diagonal /= static_cast<double>(rows * dim);
    if (!(diagonal > 0)) return Error("classifier: every summary coordinate is constant");
    centred.lambda = 1e-12 * diagonal;
    PB_ASSIGN_OR_RETURN(factor_, Cholesky(WeightedGram(centred, std::vector<double>(rows, 1.0))));
    return Status::Ok();
  }
  int64_t out_dim() const { return dim_; }
  void Apply(const double* z, double* u) const {  // forward substitution
    for (int64_t k = 0; k < dim_; ++k) {
      double t = z[k] - mean_[k];
      for (int64_t j = 0; j < k; ++j) t -= factor_.at(k, j) * u[j];
      u[k] = t / factor_.at(k, k);
    }
  }
  std::vector<double> ApplyAll(const std::vector<double>& z) const {
    const int64_t n = static_cast<int64_t>(z.size()) / dim_;
    std::vector<double> u(z.size());
    for (int64_t i = 0; i < n; ++i) Apply(&z[i * dim_], &u[i * dim_]);
    return u;
  }

 private:
  int64_t dim_ = 1;
  std::vector<double> mean_;
  SquareMatrix factor_;
};

class LogisticClassifier : public ScoreClassifier {
 public:
  LogisticClassifier(bool squares, bool whiten, double l2)
      : squares_(squares), whiten_(whiten), l2_(l2) {}
  std::string name() const override {
    return std::string(whiten_    ? "logistic_whitened"
                       : squares_ ? "logistic_squares"
                                  : "logistic_linear") +
           " (L2 " + FormatDouble(l2_) + ")";
  }
  Status Fit(const std::vector<double>& raw1, const std::vector<double>& raw0,
             int64_t raw_dim) override {
    if (!whiten_) return FitOn(raw1, raw0, raw_dim);
    PB_RETURN_IF_ERROR(whitening_.Fit(raw1, raw0, raw_dim));
    return FitOn(whitening_.ApplyAll(raw1), whitening_.ApplyAll(raw0), whitening_.out_dim());
  }
  double Score(const double* raw) const override {
    std::vector<double> phi(Features());
    if (whiten_) {
      std::vector<double> u(dim_);
      whitening_.Apply(raw, u.data());
      Map(u.data(), phi.data());
    } else {
      Map(raw, phi.data());
    }
    return Dot(phi.data(), w_.data(), Features());
  }

 private:
  Status FitOn(const std::vector<double>& d1, const std::vector<double>& d0, int64_t dim) {
    dim_ = dim;
    const int64_t n1 = static_cast<int64_t>(d1.size()) / dim,
                  n0 = static_cast<int64_t>(d0.size()) / dim;
    Standardise(d1, d0, n1, n0);
    LogisticProblem p;
    p.m = Features();
    p.lambda = l2_;
    p.x.reserve((n1 + n0) * p.m);
    std::vector<double> phi(p.m);
    for (int64_t i = 0; i < n1 + n0; ++i) {
      Map(i < n1 ? &d1[i * dim] : &d0[(i - n1) * dim], phi.data());
      p.x.insert(p.x.end(), phi.begin(), phi.end());
      p.sign.push_back(i < n1 ? 1.0 : -1.0);
    }
    PB_ASSIGN_OR_RETURN(LogisticFit fit, FitLogistic(p, {}, {}, 1e-7));
    w_ = fit.w;
    return Status::Ok();
  }
  int64_t Features() const { return (squares_ ? 2 * dim_ : dim_) + 1; }
  // Means and standard deviations of each feature and each square over both
  // samples (a constant feature gets sd 1).
  void Standardise(const std::vector<double>& d1, const std::vector<double>& d0, int64_t n1,
                   int64_t n0) {
    const int64_t f = squares_ ? 2 * dim_ : dim_;
    mean_.assign(f, 0.0);
    sd_.assign(f, 0.0);
    auto raw = [&](int64_t i, int64_t j) {
      const double v = i < n1 ? d1[i * dim_ + j % dim_] : d0[(i - n1) * dim_ + j % dim_];
      return j < dim_ ? v : v * v;
    };
    const double total = static_cast<double>(n1 + n0);
    for (int64_t i = 0; i < n1 + n0; ++i)
      for (int64_t j = 0; j < f; ++j) mean_[j] += raw(i, j) / total;
    for (int64_t i = 0; i < n1 + n0; ++i)
      for (int64_t j = 0; j < f; ++j) sd_[j] += std::pow(raw(i, j) - mean_[j], 2) / total;
    for (double& s : sd_) s = s > 1e-24 ? std::sqrt(s) : 1.0;
  }
  void Map(const double* z, double* phi) const {
    for (int64_t j = 0; j < dim_; ++j) {
      phi[j] = (z[j] - mean_[j]) / sd_[j];
      if (squares_) phi[dim_ + j] = (z[j] * z[j] - mean_[dim_ + j]) / sd_[dim_ + j];
    }
    phi[Features() - 1] = 1.0;
  }

  bool squares_, whiten_;
  double l2_;
  Whitening whitening_;
  int64_t dim_ = 0;  // after whitening, if any
  std::vector<double> mean_, sd_, w_;
};

std::vector<double> ScoreAll(const ScoreClassifier& c, const std::vector<double>& z, int64_t dim) {
  std::vector<double> s(z.size() / dim);
  for (size_t i = 0; i < s.size(); ++i) s[i] = c.Score(&z[i * dim]);
  return s;
}

int64_t CountAtLeast(const std::vector<double>& sorted, double t) {
  return static_cast<int64_t>(sorted.end() - std::lower_bound(sorted.begin(), sorted.end(), t));
}

}  // namespace

std::vector<std::string> ScoreClassifierNames() {
  return {"logistic_squares", "logistic_linear", "logistic_whitened"};
}

Result<std::unique_ptr<ScoreClassifier>> MakeScoreClassifier(const std::string& name, double l2) {
  if (!(l2 > 0) || !std::isfinite(l2)) return Error("l2 must be > 0, got " + FormatDouble(l2));
  if (name == "logistic_squares" || name == "logistic_linear" || name == "logistic_whitened") {
    return std::unique_ptr<ScoreClassifier>(
        new LogisticClassifier(name != "logistic_linear", name == "logistic_whitened", l2));
  }
  return Error(
      "classifier must be one of logistic_squares, logistic_linear, logistic_whitened; got '" +
      name + "'");
}

Result<BestSet> SearchThreshold(std::vector<double> s1, std::vector<double> s0, double alpha,
                                double min_prob) {
  const int64_t n = static_cast<int64_t>(s1.size());
  if (n < 2 || static_cast<int64_t>(s0.size()) != n) {
    return Error("SearchThreshold: need N >= 2 scores per side, equally many");
  }
  std::sort(s1.begin(), s1.end());
  std::sort(s0.begin(), s0.end());
  std::vector<double> cuts = s1;
  cuts.insert(cuts.end(), s0.begin(), s0.end());
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  const double r = min_prob > 0 ? min_prob : 1.0 / static_cast<double>(n);
  BestSet best;
  for (double t : cuts) {
    const int64_t a = CountAtLeast(s1, t), b = CountAtLeast(s0, t);
    if (b >= r * n) {
      PB_ASSIGN_OR_RETURN(double v, KatzLogEpsLowerBound(a, b, n, alpha));
      if (v > best.bound) best = {v, false, t, a, b};
    }
    if (n - a >= r * n) {
      PB_ASSIGN_OR_RETURN(double v, KatzLogEpsLowerBound(n - b, n - a, n, alpha));
      if (v > best.bound) best = {v, true, t, n - b, n - a};
    }
  }
  return best;
}

Result<MlAuditResult> RunMlAudit(int64_t dim, const SummaryDraws& draw_d,
                                 const SummaryDraws& draw_dprime, const MlAuditOptions& o,
                                 Rng& rng) {
  if (o.n < 2) return Error("n must be >= 2, got " + std::to_string(o.n));
  if (o.k < 1) return Error("k must be >= 1, got " + std::to_string(o.k));
  if (!(o.min_prob >= 0 && o.min_prob < 1)) {
    return Error("min_prob must be in [0, 1), got " + FormatDouble(o.min_prob));
  }
  if (!(o.alpha > 0 && o.alpha < 1)) return Error("alpha must be in (0, 1)");
  PB_ASSIGN_OR_RETURN(std::unique_ptr<ScoreClassifier> clf,
                      MakeScoreClassifier(o.classifier, o.l2));
  std::vector<double> z1, z0;
  PB_RETURN_IF_ERROR(draw_d(o.n, rng, &z1));
  PB_RETURN_IF_ERROR(draw_dprime(o.n, rng, &z0));
  PB_RETURN_IF_ERROR(clf->Fit(z1, z0, dim));
  PB_ASSIGN_OR_RETURN(BestSet best, SearchThreshold(ScoreAll(*clf, z1, dim),
                                                    ScoreAll(*clf, z0, dim), o.alpha, o.min_prob));
  MlAuditResult r;
  r.classifier = clf->name();
  r.search_bound = best.bound;
  r.complement = best.complement;
  r.threshold = best.threshold;
  r.search_n1 = best.n1;
  r.search_n0 = best.n0;
  PB_RETURN_IF_ERROR(draw_d(o.n, rng, &z1));
  PB_RETURN_IF_ERROR(draw_dprime(o.n, rng, &z0));
  int64_t in1 = 0, in0 = 0;
  for (double s : ScoreAll(*clf, z1, dim)) in1 += s >= best.threshold;
  for (double s : ScoreAll(*clf, z0, dim)) in0 += s >= best.threshold;
  r.fresh_n1 = best.complement ? o.n - in0 : in1;
  r.fresh_n0 = best.complement ? o.n - in1 : in0;
  r.haldane = r.fresh_n1 == 0 || r.fresh_n0 == 0;
  PB_ASSIGN_OR_RETURN(r.eps_lb_raw, KatzLogEpsLowerBound(r.fresh_n1, r.fresh_n0, o.n, o.alpha));
  r.eps_lb = r.eps_lb_raw / static_cast<double>(o.k);
  return r;
}

}  // namespace privbench
