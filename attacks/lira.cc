#include "attacks/lira.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "core/seeding.h"
#include "core/stats.h"
#include "numerics/normal.h"

namespace privbench {
namespace {

constexpr double kLogSqrt2Pi = 0.91893853320467274178;

double LogNormalPdf(double x, double mu, double s) {
  const double z = (x - mu) / s;
  return -0.5 * z * z - std::log(s) - kLogSqrt2Pi;
}

// Population standard deviation (NumPy's np.std, as the references use),
// floored at kMinLiraStd.
double FlooredStd(const std::vector<double>& x) {
  const double m = Mean(x);
  double ss = 0.0;
  for (double v : x) ss += (v - m) * (v - m);
  return std::max(std::sqrt(ss / static_cast<double>(x.size())), kMinLiraStd);
}

double Location(const std::vector<double>& x, LiraLocation location) {
  return location == LiraLocation::kMedian ? Median(x) : Mean(x);
}

LiraGaussians FitOne(const std::vector<double>& in, const std::vector<double>& out,
                     LiraLocation location) {
  LiraGaussians g;
  g.n_in = static_cast<int64_t>(in.size());
  g.n_out = static_cast<int64_t>(out.size());
  if (!in.empty()) {
    g.mu_in = Location(in, location);
    g.s_in = FlooredStd(in);
  }
  g.mu_out = Location(out, location);
  g.s_out = FlooredStd(out);
  return g;
}

std::vector<int64_t> AllModels(int64_t m) {
  std::vector<int64_t> v(static_cast<size_t>(m));
  std::iota(v.begin(), v.end(), 0);
  return v;
}

// The IN and OUT phi of point p over `models`.
void Split(const ShadowScores& s, const std::vector<int64_t>& models, int64_t p,
           std::vector<double>* in, std::vector<double>* out) {
  in->clear();
  out->clear();
  for (int64_t m : models) {
    const size_t i = static_cast<size_t>(m * s.points + p);
    (s.is_in[i] ? in : out)->push_back(s.phi[i]);
  }
}

// Weight of one point: fit on `fit`, score the test shadows.
PointWeight WeighPoint(const ShadowScores& s, const std::vector<int64_t>& fit,
                       const std::vector<int64_t>& test, int64_t p, const SelectWorstOptions& o) {
  std::vector<double> in, out;
  Split(s, fit, p, &in, &out);
  PointWeight w{std::numeric_limits<double>::quiet_NaN(), 0.0};
  if (in.empty() || out.empty()) return w;
  const LiraGaussians g = FitOne(in, out, o.location);
  Split(s, test, p, &in, &out);
  if (in.empty() || out.empty()) return w;
  for (double& v : in) v = LiraOnlineScore(g, v);
  for (double& v : out) v = LiraOnlineScore(g, v);
  w.weight =
      o.weight == SelectionWeight::kAuc ? MannWhitneyAuc(in, out) : BestBalancedAccuracy(in, out);
  w.gap = Mean(in) - Mean(out);
  return w;
}

}  // namespace

Result<std::vector<double>> LogitScaledConfidence(const std::vector<double>& logits,
                                                  const std::vector<int64_t>& labels,
                                                  int64_t num_classes) {
  if (num_classes < 2) return Error("num_classes must be >= 2, got " + std::to_string(num_classes));
  const size_t n = labels.size();
  if (logits.size() != n * static_cast<size_t>(num_classes)) {
    return Error(
        "logits must have labels.size() * num_classes = " + std::to_string(n * num_classes) +
        " entries, got " + std::to_string(logits.size()));
  }
  std::vector<double> phi(n);
  for (size_t i = 0; i < n; ++i) {
    if (labels[i] < 0 || labels[i] >= num_classes) {
      return Error("labels[" + std::to_string(i) + "] = " + std::to_string(labels[i]) +
                   " is outside [0, num_classes)");
    }
    const double* z = &logits[i * num_classes];
    double top = -std::numeric_limits<double>::infinity();
    for (int64_t k = 0; k < num_classes; ++k) {
      if (!std::isfinite(z[k])) return Error("logits row " + std::to_string(i) + " is not finite");
      if (k != labels[i]) top = std::max(top, z[k]);
    }
    double sum = 0.0;
    for (int64_t k = 0; k < num_classes; ++k) {
      if (k != labels[i]) sum += std::exp(z[k] - top);
    }
    phi[i] = z[labels[i]] - (top + std::log(sum));
  }
  return phi;
}

Result<std::vector<uint8_t>> BalancedHalves(int64_t shadows, int64_t pool_size, uint64_t seed) {
  if (shadows < 2 || shadows % 2 != 0) {
    return Error("shadows must be even and >= 2, got " + std::to_string(shadows));
  }
  if (pool_size < 1) return Error("pool_size must be >= 1, got " + std::to_string(pool_size));
  std::vector<uint8_t> keep(static_cast<size_t>(shadows * pool_size), 0);
  std::vector<int64_t> order(static_cast<size_t>(shadows));
  for (int64_t p = 0; p < pool_size; ++p) {
    std::iota(order.begin(), order.end(), 0);
    Rng rng = MakeRng(seed, {static_cast<uint64_t>(p)});
    // Fisher-Yates with our own index draws (std::shuffle is not portable).
    for (int64_t i = shadows - 1; i > 0; --i) {
      const int64_t j = static_cast<int64_t>(rng() % static_cast<uint64_t>(i + 1));
      std::swap(order[i], order[j]);
    }
    for (int64_t i = 0; i < shadows / 2; ++i) keep[order[i] * pool_size + p] = 1;
  }
  return keep;
}

Status ShadowScores::Validate() const {
  if (models < 1 || points < 1) return Error("shadow scores need >= 1 model and >= 1 point");
  const size_t n = static_cast<size_t>(models * points);
  if (phi.size() != n) return Error("phi must have models * points entries");
  if (is_in.size() != n) return Error("is_in must have models * points entries");
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(phi[i])) return Error("phi[" + std::to_string(i) + "] is not finite");
    if (is_in[i] > 1) return Error("is_in[" + std::to_string(i) + "] must be 0 or 1");
  }
  return Status::Ok();
}

Result<std::vector<LiraGaussians>> FitLira(const ShadowScores& shadows,
                                           const std::vector<int64_t>& models,
                                           LiraLocation location, bool online) {
  PB_RETURN_IF_ERROR(shadows.Validate());
  const std::vector<int64_t> use = models.empty() ? AllModels(shadows.models) : models;
  for (int64_t m : use) {
    if (m < 0 || m >= shadows.models) return Error("model index out of range");
  }
  std::vector<LiraGaussians> fits(static_cast<size_t>(shadows.points));
  std::vector<double> in, out;
  for (int64_t p = 0; p < shadows.points; ++p) {
    Split(shadows, use, p, &in, &out);
    if (out.empty() || (online && in.empty())) {
      return Error("point " + std::to_string(p) + " has no " + (out.empty() ? "OUT" : "IN") +
                   " shadow model");
    }
    fits[static_cast<size_t>(p)] = FitOne(in, out, location);
  }
  return fits;
}

double LiraOnlineScore(const LiraGaussians& g, double phi) {
  return LogNormalPdf(phi, g.mu_in, g.s_in) - LogNormalPdf(phi, g.mu_out, g.s_out);
}

double LiraOfflineScore(const LiraGaussians& g, double phi) {
  return LogNormalCdf((phi - g.mu_out) / g.s_out);
}

double BestBalancedAccuracy(const std::vector<double>& member, const std::vector<double>& non) {
  std::vector<std::pair<double, int>> all;
  for (double v : member) all.push_back({v, 1});
  for (double v : non) all.push_back({v, 0});
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  const double np = static_cast<double>(member.size()), nn = static_cast<double>(non.size());
  double tp = 0, fp = 0, best = 0.5;  // flag nobody: FPR 0, FNR 1
  for (size_t i = 0; i < all.size(); ++i) {
    (all[i].second ? tp : fp) += 1;
    if (i + 1 < all.size() && all[i + 1].first == all[i].first) continue;  // ties move together
    best = std::max(best, 1.0 - (fp / nn + (np - tp) / np) / 2.0);
  }
  return best;
}

double MannWhitneyAuc(const std::vector<double>& member, const std::vector<double>& non) {
  double wins = 0.0;
  for (double a : member) {
    for (double b : non) wins += a > b ? 1.0 : (a == b ? 0.5 : 0.0);
  }
  return wins / (static_cast<double>(member.size()) * static_cast<double>(non.size()));
}

Result<SelectWorstResult> SelectWorst(const ShadowScores& shadows, const SelectWorstOptions& o) {
  PB_RETURN_IF_ERROR(shadows.Validate());
  if (!(o.fit_fraction > 0.0 && o.fit_fraction < 1.0)) {
    return Error("fit_fraction must be in (0, 1), got " + std::to_string(o.fit_fraction));
  }
  if (o.k < 1 || o.k > shadows.points) {
    return Error("k must be in [1, " + std::to_string(shadows.points) + "], got " +
                 std::to_string(o.k));
  }
  SelectWorstResult r;
  r.fit_models = static_cast<int64_t>(std::llround(o.fit_fraction * shadows.models));
  if (r.fit_models < 1 || r.fit_models >= shadows.models) {
    return Error("fit_fraction " + std::to_string(o.fit_fraction) + " of " +
                 std::to_string(shadows.models) + " shadow models leaves no fit or no test model");
  }
  std::vector<int64_t> fit(static_cast<size_t>(r.fit_models)), test;
  std::iota(fit.begin(), fit.end(), 0);
  for (int64_t m = r.fit_models; m < shadows.models; ++m) test.push_back(m);
  std::vector<int64_t> candidates;
  for (int64_t p = 0; p < shadows.points; ++p) {
    r.weights.push_back(WeighPoint(shadows, fit, test, p, o));
    if (!std::isnan(r.weights.back().weight)) candidates.push_back(p);
  }
  if (static_cast<int64_t>(candidates.size()) < o.k) {
    return Error("only " + std::to_string(candidates.size()) + " of " +
                 std::to_string(shadows.points) +
                 " points have IN and OUT shadows in both the fit and the test part; k = " +
                 std::to_string(o.k) + " (use more shadow models)");
  }
  std::stable_sort(candidates.begin(), candidates.end(), [&](int64_t a, int64_t b) {
    const PointWeight &wa = r.weights[a], &wb = r.weights[b];
    if (wa.weight != wb.weight) return wa.weight > wb.weight;
    return wa.gap > wb.gap;
  });
  r.selected.assign(candidates.begin(), candidates.begin() + o.k);
  return r;
}

}  // namespace privbench
