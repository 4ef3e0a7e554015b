#include "attacks/poisoning/poisoning.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <functional>
#include <numeric>
#include <random>

#include "core/seeding.h"
#include "mechanisms/classical/logistic_regression.h"
#include "numerics/linalg.h"
#include "numerics/logistic.h"

namespace privbench {

std::string NeighbourModeName(NeighbourMode mode) {
  return mode == NeighbourMode::kReplace ? "replace" : "add";
}

std::vector<std::string> PoisoningAttackNames() {
  return {"influence", "ma", "clipbkd", "swapx", "nb_flip", "nb_mean", "rf_flip"};
}

std::vector<double> CornerDistances(const BinaryData& data, const DataBounds& b) {
  std::vector<double> dist(data.n(), 0.0);
  for (int64_t i = 0; i < data.n(); ++i) {
    for (int64_t j = 0; j < data.d; ++j) {
      const double t = std::min(data.row(i)[j] - b.lo[j], b.hi[j] - data.row(i)[j]);
      dist[i] += t * t;
    }
  }
  return dist;
}

std::vector<double> Corner(const double* x, const DataBounds& b, bool far) {
  std::vector<double> c(b.lo.size());
  for (size_t j = 0; j < c.size(); ++j) {
    const bool near_lo = x[j] - b.lo[j] <= b.hi[j] - x[j];
    c[j] = (near_lo != far) ? b.lo[j] : b.hi[j];
  }
  return c;
}

void ProjectIntoBounds(const DataBounds& b, std::vector<double>* x) {
  for (size_t j = 0; j < x->size(); ++j) (*x)[j] = std::clamp((*x)[j], b.lo[j], b.hi[j]);
  const double norm = Norm2(*x);
  if (norm > b.radius) {
    for (double& v : *x) v *= b.radius / norm;
  }
}

namespace {

// Keys for NearestNeighbourL1: kKeys projections of the rows on fixed
// random sign vectors w (|w . (a - b)| <= ||a - b||_1), row-major, and the
// rounding slack that makes them safe bounds on computed sums: the computed
// keys and L1 sums are within (d + 2) DBL_EPSILON (1 + max ||x||_1) of the
// exact ones, so a key gap >= best + slack proves a computed sum >= best.
constexpr int64_t kKeys = 3;

std::vector<double> ProjectionKeys(const BinaryData& data, double* slack) {
  std::mt19937_64 rng(20231121);  // any signs are exact; fixed for speed's repeatability
  std::vector<double> w(kKeys * data.d);
  for (double& v : w) v = (rng() >> 63) != 0 ? 1.0 : -1.0;
  std::vector<double> keys(data.n() * kKeys, 0.0);
  double most = 0;
  for (int64_t i = 0; i < data.n(); ++i) {
    const double* r = data.row(i);
    double norm = 0;
    for (int64_t j = 0; j < data.d; ++j) norm += std::fabs(r[j]);
    most = std::max(most, norm);
    for (int64_t k = 0; k < kKeys; ++k) {
      double s = 0;
      for (int64_t j = 0; j < data.d; ++j) s += w[k * data.d + j] * r[j];
      keys[i * kKeys + k] = s;
    }
  }
  *slack = 8.0 * static_cast<double>(data.d + 2) * DBL_EPSILON * (1 + 2 * most);
  return keys;
}

// The L1 distance of rows a and b summed in feature order (the naive scan's
// double), or a value >= best once the partial sum reaches best.
double L1Below(const double* a, const double* b, int64_t d, double best) {
  double s = 0;
  for (int64_t j = 0; j < d && s < best; ++j) s += std::fabs(a[j] - b[j]);
  return s;
}

}  // namespace

std::vector<double> NearestNeighbourL1(const BinaryData& data) {
  const int64_t n = data.n(), d = data.d;
  double slack = 0;
  const std::vector<double> keys = ProjectionKeys(data, &slack);
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return keys[a * kKeys] < keys[b * kKeys]; });
  std::vector<double> x(n * d), key(n * kKeys);  // in key order, for locality
  for (int64_t p = 0; p < n; ++p) {
    std::copy_n(data.row(order[p]), d, x.data() + p * d);
    std::copy_n(keys.data() + order[p] * kKeys, kKeys, key.data() + p * kKeys);
  }
  auto pruned = [&](int64_t p, int64_t q, double best) {
    for (int64_t k = 1; k < kKeys; ++k) {
      if (std::fabs(key[p * kKeys + k] - key[q * kKeys + k]) >= best + slack) return true;
    }
    return false;
  };
  std::vector<double> nn(n, INFINITY);
  for (int64_t p = 0; p < n; ++p) {
    double best = INFINITY;
    // Walk outwards along the first key, nearer first; the walk ends once
    // the gap on both sides reaches best + slack (it grows along a side).
    for (int64_t lo = p - 1, hi = p + 1; lo >= 0 || hi < n;) {
      const double gap_lo = lo >= 0 ? key[p * kKeys] - key[lo * kKeys] : INFINITY;
      const double gap_hi = hi < n ? key[hi * kKeys] - key[p * kKeys] : INFINITY;
      if (std::min(gap_lo, gap_hi) >= best + slack) break;
      const int64_t q = gap_lo <= gap_hi ? lo-- : hi++;
      if (!pruned(p, q, best)) best = std::min(best, L1Below(&x[p * d], &x[q * d], d, best));
    }
    nn[order[p]] = best;
  }
  return nn;
}

namespace {

std::vector<int64_t> SortedBy(const std::vector<double>& key, bool descending) {
  std::vector<int64_t> order(key.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return descending ? key[a] > key[b] : key[a] < key[b];
  });
  return order;
}

std::vector<int64_t> RandomOrder(int64_t n, uint64_t seed) {
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  Rng rng = MakeRng(seed, {1});
  for (int64_t i = n - 1; i > 0; --i) {
    std::swap(order[i], order[static_cast<int64_t>(rng() % static_cast<uint64_t>(i + 1))]);
  }
  return order;
}

// The non-private model and its Hessian's Cholesky factor: what the
// influence of a row is measured against.
struct Model {
  LogisticProblem problem;
  std::vector<double> w;
  SquareMatrix hessian_factor;
  double radius = 1;
};

Result<Model> FitModel(const BinaryData& data, const DataBounds& bounds, double lambda) {
  Model m;
  m.problem = LrProblem(data, bounds, lambda);
  m.radius = bounds.radius;
  PB_ASSIGN_OR_RETURN(LogisticFit fit, FitLogistic(m.problem, {}, {}));
  m.w = fit.w;
  PB_ASSIGN_OR_RETURN(m.hessian_factor, Cholesky(LogisticHessian(m.problem, m.w)));
  return m;
}

// ||H^-1 grad loss(x, y)|| (Koh & Liang 2017's influence on the parameters).
double Influence(const Model& m, const std::vector<double>& x, int y) {
  std::vector<double> z = LrFeatures(x.data(), static_cast<int64_t>(x.size()), m.radius);
  const double s = y == 1 ? 1.0 : -1.0;
  const double c = -s * Sigmoid(-s * Dot(z.data(), m.w.data(), m.problem.m));
  for (double& v : z) v *= c;
  CholeskySolve(m.hessian_factor, &z);
  return Norm2(z);
}

std::vector<double> ClassMean(const BinaryData& data, int label) {
  std::vector<double> mean(data.d, 0.0);
  double count = 0;
  for (int64_t i = 0; i < data.n(); ++i) {
    if (data.y[i] != label) continue;
    count += 1;
    for (int64_t j = 0; j < data.d; ++j) mean[j] += data.row(i)[j];
  }
  for (double& v : mean) v /= std::max(count, 1.0);
  return mean;
}

// ||H^-1 grad loss|| -> the first-order pull of (x, y) on the parameters
// along the unit vector u: u . (-H^-1 grad loss(x, y)) (Ma, Zhu & Hsu 2019's
// objective, the distance to their target, to first order).
double TargetPull(const Model& m, const std::vector<double>& u, const std::vector<double>& x,
                  int y) {
  std::vector<double> z = LrFeatures(x.data(), static_cast<int64_t>(x.size()), m.radius);
  const double s = y == 1 ? 1.0 : -1.0;
  const double c = s * Sigmoid(-s * Dot(z.data(), m.w.data(), m.problem.m));
  for (double& v : z) v *= c;
  CholeskySolve(m.hessian_factor, &z);
  return Dot(u.data(), z.data(), m.problem.m);
}

// Projected gradient ascent on f over C (central differences).
std::vector<double> Ascent(const std::function<double(const std::vector<double>&)>& f,
                           const DataBounds& b, std::vector<double> x) {
  ProjectIntoBounds(b, &x);
  std::vector<double> best = x;
  double best_value = f(x), step = 0.1 * b.radius;
  const double h = 1e-5 * b.radius;
  for (int it = 0; it < 200 && step > 1e-6 * b.radius; ++it) {
    std::vector<double> g(x.size());
    for (size_t j = 0; j < x.size(); ++j) {
      std::vector<double> up = x, down = x;
      up[j] += h;
      down[j] -= h;
      g[j] = (f(up) - f(down)) / (2 * h);
    }
    const double gn = Norm2(g);
    if (gn == 0) break;
    std::vector<double> next = x;
    for (size_t j = 0; j < x.size(); ++j) next[j] += step * g[j] / gn;
    ProjectIntoBounds(b, &next);
    const double v = f(next);
    if (v > best_value) {
      best_value = v;
      best = next;
      x = next;
    } else {
      step *= 0.5;
    }
  }
  return best;
}

std::vector<double> LeastVarianceDirection(const BinaryData& data) {
  const int64_t d = data.d;
  std::vector<double> mean(d, 0.0);
  for (int64_t i = 0; i < data.n(); ++i)
    for (int64_t j = 0; j < d; ++j) mean[j] += data.row(i)[j] / static_cast<double>(data.n());
  SquareMatrix cov(d);
  for (int64_t i = 0; i < data.n(); ++i)
    for (int64_t r = 0; r < d; ++r)
      for (int64_t s = 0; s < d; ++s)
        cov.at(r, s) += (data.row(i)[r] - mean[r]) * (data.row(i)[s] - mean[s]);
  const Eigen e = SymmetricEigen(cov);
  std::vector<double> v(d);
  for (int64_t j = 0; j < d; ++j) v[j] = e.vectors.at(j, 0);
  return v;
}

double MedianRowNorm(const BinaryData& data) {
  std::vector<double> norms(data.n());
  for (int64_t i = 0; i < data.n(); ++i) {
    norms[i] = std::sqrt(Dot(data.row(i), data.row(i), data.d));
  }
  std::nth_element(norms.begin(), norms.begin() + data.n() / 2, norms.end());
  return norms[data.n() / 2];
}

Poison CornerAttack(const BinaryData& data, const DataBounds& b, bool flip) {
  Poison p;
  p.order = SortedBy(CornerDistances(data, b), false);
  const int64_t i = p.order[0];
  if (flip) {  // the paper flips the label of the row nearest a corner, x kept
    p.x.assign(data.row(i), data.row(i) + data.d);
    p.y = 1 - data.y[i];
  } else {  // and moves that row to the farthest corner for the mean-only attack
    p.x = Corner(data.row(i), b, true);
    p.y = data.y[i];
  }
  return p;
}

// Ma, Zhu & Hsu (IJCAI 2019), coefficient targeting, one poisoned row: the
// target theta_t is a seeded random direction made perpendicular to the
// non-private theta_hat and scaled to its norm; the row (x*, y*) in C
// maximises the first-order move of theta towards theta_t (TargetPull along
// u = (theta_t - theta_hat) / ||.||), by projected gradient ascent from the
// mean of each class, for both labels; it replaces a seeded random row.
Poison MaAttack(const BinaryData& data, const DataBounds& b, const Model& m, uint64_t seed) {
  const int64_t dim = m.problem.m;
  Rng rng = MakeRng(seed, {2});
  std::normal_distribution<double> gauss(0.0, 1.0);
  std::vector<double> t(dim), u(dim);
  for (double& v : t) v = gauss(rng);
  const double ww = Dot(m.w.data(), m.w.data(), dim), tw = Dot(t.data(), m.w.data(), dim);
  for (int64_t j = 0; j < dim; ++j) t[j] -= ww > 0 ? tw / ww * m.w[j] : 0.0;
  const double tn = Norm2(t), wn = std::sqrt(ww);
  for (int64_t j = 0; j < dim; ++j) u[j] = t[j] / tn * (wn > 0 ? wn : 1.0) - m.w[j];
  const double un = Norm2(u);
  for (double& v : u) v /= un;
  Poison p;
  double best = -INFINITY;
  for (int y : {0, 1}) {
    for (int start : {0, 1}) {
      auto f = [&](const std::vector<double>& x) { return TargetPull(m, u, x, y); };
      std::vector<double> x = Ascent(f, b, ClassMean(data, start));
      if (f(x) > best) {
        best = f(x);
        p.x = x;
        p.y = y;
      }
    }
  }
  p.order = RandomOrder(data.n(), seed);
  return p;
}

Result<Poison> Design(const std::string& attack, const BinaryData& data, const DataBounds& b,
                      const Model& model, uint64_t seed) {
  Poison p;
  if (attack == "influence") {
    p.order = SortedBy(CornerDistances(data, b), false);
    p.y = data.y[p.order[0]];
    p.x = Ascent([&](const std::vector<double>& x) { return Influence(model, x, p.y); }, b,
                 ClassMean(data, 1 - p.y));
  } else if (attack == "ma") {
    p = MaAttack(data, b, model, seed);
  } else if (attack == "clipbkd") {
    p.x = LeastVarianceDirection(data);
    const double scale = MedianRowNorm(data);
    for (double& v : p.x) v *= scale;
    ProjectIntoBounds(b, &p.x);
    const std::vector<double> z = LrFeatures(p.x.data(), data.d, b.radius);
    p.y = Sigmoid(Dot(z.data(), model.w.data(), model.problem.m)) < 0.5 ? 1 : 0;
    p.order = RandomOrder(data.n(), seed);
  } else if (attack == "swapx") {
    p.order = RandomOrder(data.n(), seed);
    p.y = data.y[p.order[0]];
    std::vector<int64_t> others;
    for (int64_t i : RandomOrder(data.n(), seed + 1)) {
      if (data.y[i] != p.y) others.push_back(i);
    }
    if (others.empty()) return Error("attack swapx needs rows of both classes");
    p.x.assign(data.row(others[0]), data.row(others[0]) + data.d);
  } else if (attack == "nb_flip" || attack == "nb_mean") {
    p = CornerAttack(data, b, attack == "nb_flip");
  } else if (attack == "rf_flip") {
    p.order = SortedBy(NearestNeighbourL1(data), true);
    p.x.assign(data.row(p.order[0]), data.row(p.order[0]) + data.d);
    p.y = 1 - data.y[p.order[0]];
  } else {
    return Error(
        "attack must be one of influence, ma, clipbkd, swapx, nb_flip, nb_mean, rf_flip; got '" +
        attack + "'");
  }
  p.attack = attack;
  return p;
}

}  // namespace

Result<Poison> DesignPoison(const std::string& attack, const BinaryData& data,
                            const DataBounds& bounds, double lambda, uint64_t seed) {
  PB_RETURN_IF_ERROR(CheckBinaryData(data));
  PB_ASSIGN_OR_RETURN(Model model, FitModel(data, bounds, lambda));
  PB_ASSIGN_OR_RETURN(Poison p, Design(attack, data, bounds, model, seed));
  p.influence = Influence(model, p.x, p.y);
  return p;
}

Result<BinaryData> MakeNeighbour(const BinaryData& data, const Poison& poison, NeighbourMode mode,
                                 int64_t k) {
  if (k < 1) return Error("k must be >= 1, got " + std::to_string(k));
  if (static_cast<int64_t>(poison.x.size()) != data.d) return Error("poison has the wrong width");
  BinaryData out = data;
  if (mode == NeighbourMode::kAdd) {
    for (int64_t c = 0; c < k; ++c) out.Append(poison.x, poison.y);
    return out;
  }
  if (k > static_cast<int64_t>(poison.order.size())) {
    return Error("k must be <= the rows the attack may replace (" +
                 std::to_string(poison.order.size()) + "), got " + std::to_string(k));
  }
  for (int64_t c = 0; c < k; ++c) {
    const int64_t i = poison.order[c];
    std::copy(poison.x.begin(), poison.x.end(), out.row(i));
    out.y[i] = poison.y;
  }
  return out;
}

}  // namespace privbench
