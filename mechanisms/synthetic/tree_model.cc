#include "mechanisms/synthetic/tree_model.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "mechanisms/synthetic/marginals.h"

namespace privbench {
namespace {

// Mixture weights of the independence product tried in turn (header).
constexpr double kIpfMixtureWeights[] = {0.0, 1e-3, 1e-2, 1e-1, 1.0};

bool PositiveFinite(double x) { return x > 0.0 && std::isfinite(x); }

Status CheckMeasurements(const std::vector<int32_t>& sizes, const TreeMeasurements& m,
                         int64_t root) {
  const int64_t d = static_cast<int64_t>(sizes.size());
  if (d < 1) return Error("measurements: the model needs at least one attribute");
  if (root < 0 || root >= d) {
    return Error("root must be in [0, " + std::to_string(d) + "), got " + std::to_string(root));
  }
  if (static_cast<int64_t>(m.one_way.size()) != d ||
      static_cast<int64_t>(m.one_way_variance.size()) != d) {
    return Error("measurements: one_way and one_way_variance need one entry per attribute (" +
                 std::to_string(d) + ")");
  }
  for (int64_t j = 0; j < d; ++j) {
    if (m.one_way[j].empty()) continue;
    if (static_cast<int64_t>(m.one_way[j].size()) != sizes[j] ||
        !PositiveFinite(m.one_way_variance[j])) {
      return Error("measurements: the 1-way table of attribute " + std::to_string(j) + " needs " +
                   std::to_string(sizes[j]) + " cells and a positive variance");
    }
  }
  if (static_cast<int64_t>(m.edges.size()) != d - 1) {
    return Error("measurements: a spanning tree over " + std::to_string(d) + " attributes has " +
                 std::to_string(d - 1) + " edges, got " + std::to_string(m.edges.size()));
  }
  for (const TreeMeasurements::Edge& e : m.edges) {
    if (e.a < 0 || e.a >= d || e.b < 0 || e.b >= d || e.a == e.b) {
      return Error("measurements: edge (" + std::to_string(e.a) + ", " + std::to_string(e.b) +
                   ") is not a pair of distinct attributes");
    }
    if (static_cast<int64_t>(e.counts.size()) != static_cast<int64_t>(sizes[e.a]) * sizes[e.b] ||
        !PositiveFinite(e.variance)) {
      return Error("measurements: the table of edge (" + std::to_string(e.a) + ", " +
                   std::to_string(e.b) +
                   ") needs sizes[a] * sizes[b] cells and a positive "
                   "variance");
    }
  }
  return Status::Ok();
}

// Row sums (over_rows = false: column sums) of a ka x kb table.
std::vector<double> TableSums(const std::vector<double>& t, int32_t ka, int32_t kb, bool rows) {
  std::vector<double> s(static_cast<size_t>(rows ? ka : kb), 0.0);
  for (int32_t u = 0; u < ka; ++u) {
    for (int32_t v = 0; v < kb; ++v) s[rows ? u : v] += t[u * kb + v];
  }
  return s;
}

double Sum(const std::vector<double>& x) {
  double s = 0.0;
  for (double v : x) s += v;
  return s;
}

// Step 1 of the header: per attribute, the inverse-variance combination of
// its 1-way measurement and its incident edge tables' sums, as a
// distribution over its support; and the common total.
void FitMarginals(const std::vector<int32_t>& sizes, const std::vector<std::vector<char>>& support,
                  const TreeMeasurements& m, const std::vector<std::vector<int64_t>>& incident,
                  TreeModel& model) {
  const int64_t d = static_cast<int64_t>(sizes.size());
  double total_num = 0.0, total_den = 0.0;
  model.marginal.assign(static_cast<size_t>(d), {});
  for (int64_t j = 0; j < d; ++j) {
    const int32_t k = sizes[j];
    std::vector<double> acc(static_cast<size_t>(k), 0.0);
    double wsum = 0.0;
    if (!m.one_way[j].empty()) {
      const double w = 1.0 / m.one_way_variance[j];
      for (int32_t v = 0; v < k; ++v) acc[v] += w * m.one_way[j][v];
      wsum += w;
      const double wt = 1.0 / (m.one_way_variance[j] * k);
      total_num += wt * Sum(m.one_way[j]);
      total_den += wt;
    }
    for (int64_t ei : incident[j]) {
      const TreeMeasurements::Edge& e = m.edges[ei];
      const bool j_is_a = e.a == j;
      const int32_t other = sizes[j_is_a ? e.b : e.a];
      const std::vector<double> s = TableSums(e.counts, sizes[e.a], sizes[e.b], j_is_a);
      const double w = 1.0 / (e.variance * other);
      for (int32_t v = 0; v < k; ++v) acc[v] += w * s[v];
      wsum += w;
    }
    for (double& x : acc) x /= wsum;
    model.marginal[j] = ToDistribution(std::move(acc), support[j]);
  }
  for (const TreeMeasurements::Edge& e : m.edges) {
    const double wt = 1.0 / (e.variance * sizes[e.a] * sizes[e.b]);
    total_num += wt * Sum(e.counts);
    total_den += wt;
  }
  model.total = total_num / total_den;
}

}  // namespace

void TreeMeasurements::AddEdge(int64_t a, int64_t b, std::vector<double> counts, double variance) {
  Edge e;
  e.a = a;
  e.b = b;
  e.counts = std::move(counts);
  e.variance = variance;
  edges.push_back(std::move(e));
}

std::vector<std::pair<int64_t, int64_t>> TreeModel::Edges() const {
  std::vector<std::pair<int64_t, int64_t>> edges;
  for (int64_t c : order) {
    if (parent[c] >= 0) edges.emplace_back(parent[c], c);
  }
  return edges;
}

namespace {

// Iterative proportional fitting of a prepared table (every positive
// target has mass): the sweeps used, or -1 when the cap is reached first.
// A sweep scales the rows, then the columns; it has converged when the row
// sums are then still within the tolerance of their targets (the columns
// are exact). Comparing consecutive tables instead would stop falsely where
// no fit exists: there the row- and column-scaled tables converge to two
// different limits and the change between sweeps vanishes.
int Ipf(std::vector<double>& joint, const std::vector<double>& row,
        const std::vector<double>& col) {
  const int32_t kp = static_cast<int32_t>(row.size()), kc = static_cast<int32_t>(col.size());
  for (int sweep = 1; sweep <= TreeModel::kIpfSweeps; ++sweep) {
    const std::vector<double> rs = TableSums(joint, kp, kc, true);
    for (int32_t u = 0; u < kp; ++u) {
      if (rs[u] <= 0.0) continue;
      const double f = row[u] / rs[u];
      for (int32_t v = 0; v < kc; ++v) joint[u * kc + v] *= f;
    }
    const std::vector<double> cs = TableSums(joint, kp, kc, false);
    for (int32_t v = 0; v < kc; ++v) {
      if (cs[v] <= 0.0) continue;
      const double f = col[v] / cs[v];
      for (int32_t u = 0; u < kp; ++u) joint[u * kc + v] *= f;
    }
    const std::vector<double> after = TableSums(joint, kp, kc, true);
    double residual = 0.0;
    for (int32_t u = 0; u < kp; ++u) residual = std::max(residual, std::abs(after[u] - row[u]));
    if (residual < TreeModel::kIpfTolerance) return sweep;
  }
  return -1;
}

}  // namespace

int FitToMarginals(std::vector<double>& joint, const std::vector<double>& row,
                   const std::vector<double>& col) {
  const int32_t kp = static_cast<int32_t>(row.size()), kc = static_cast<int32_t>(col.size());
  std::vector<double> product(joint.size());
  for (int32_t u = 0; u < kp; ++u) {
    for (int32_t v = 0; v < kc; ++v) product[u * kc + v] = row[u] * col[v];
  }
  double total = 0.0;
  for (int32_t u = 0; u < kp; ++u) {
    for (int32_t v = 0; v < kc; ++v) {
      double& t = joint[u * kc + v];
      if (!(t > 0.0) || !std::isfinite(t) || row[u] <= 0.0 || col[v] <= 0.0) t = 0.0;
      total += t;
    }
  }
  if (total <= 0.0) {
    joint = product;
    return 0;
  }
  for (double& t : joint) t /= total;
  // Rows, then columns, with positive target and no mass: the independence
  // product, so every positive target has some mass to scale.
  const std::vector<double> rs = TableSums(joint, kp, kc, true);
  for (int32_t u = 0; u < kp; ++u) {
    if (row[u] <= 0.0 || rs[u] > 0.0) continue;
    for (int32_t v = 0; v < kc; ++v) joint[u * kc + v] = product[u * kc + v];
  }
  const std::vector<double> cs = TableSums(joint, kp, kc, false);
  for (int32_t v = 0; v < kc; ++v) {
    if (col[v] <= 0.0 || cs[v] > 0.0) continue;
    for (int32_t u = 0; u < kp; ++u) joint[u * kc + v] = product[u * kc + v];
  }
  const std::vector<double> prepared = joint;
  int used = 0;
  for (double weight : kIpfMixtureWeights) {
    for (size_t i = 0; i < joint.size(); ++i) {
      joint[i] = (1.0 - weight) * prepared[i] + weight * product[i];
    }
    const int sweeps = Ipf(joint, row, col);
    if (sweeps > 0) return used + sweeps;
    used += TreeModel::kIpfSweeps;
  }
  joint = product;  // unreachable: weight 1 converges at once
  return used;
}

Result<TreeModel> FitTreeModel(const std::vector<int32_t>& sizes,
                               const std::vector<std::vector<char>>& support_in,
                               const TreeMeasurements& m, int64_t root) {
  PB_RETURN_IF_ERROR(CheckMeasurements(sizes, m, root));
  const int64_t d = static_cast<int64_t>(sizes.size());
  std::vector<std::vector<char>> support = support_in;
  if (support.empty()) {
    for (int32_t k : sizes) support.emplace_back(static_cast<size_t>(k), 1);
  }
  std::vector<std::vector<int64_t>> incident(static_cast<size_t>(d));
  for (size_t ei = 0; ei < m.edges.size(); ++ei) {
    incident[m.edges[ei].a].push_back(static_cast<int64_t>(ei));
    incident[m.edges[ei].b].push_back(static_cast<int64_t>(ei));
  }
  TreeModel model;
  model.sizes = sizes;
  model.root = root;
  model.parent.assign(static_cast<size_t>(d), -1);
  std::vector<int64_t> parent_edge(static_cast<size_t>(d), -1);
  std::vector<char> seen(static_cast<size_t>(d), 0);
  model.order.push_back(root);
  seen[root] = 1;
  for (size_t head = 0; head < model.order.size(); ++head) {
    const int64_t x = model.order[head];
    for (int64_t ei : incident[x]) {
      const int64_t y = m.edges[ei].a == x ? m.edges[ei].b : m.edges[ei].a;
      if (seen[y]) continue;
      seen[y] = 1;
      model.parent[y] = x;
      parent_edge[y] = ei;
      model.order.push_back(y);
    }
  }
  if (static_cast<int64_t>(model.order.size()) != d) {
    return Error("measurements: the edges do not connect all " + std::to_string(d) +
                 " attributes (not a spanning tree)");
  }
  for (int64_t j = 0; j < d; ++j) {
    if (m.one_way[j].empty() && incident[j].empty()) {
      return Error("measurements: attribute " + std::to_string(j) + " is not measured");
    }
  }
  FitMarginals(sizes, support, m, incident, model);
  model.joint.assign(static_cast<size_t>(d), {});
  model.conditional.assign(static_cast<size_t>(d), {});
  for (int64_t c : model.order) {
    const int64_t p = model.parent[c];
    if (p < 0) continue;
    const TreeMeasurements::Edge& e = m.edges[parent_edge[c]];
    const int32_t kp = sizes[p], kc = sizes[c];
    std::vector<double> t(static_cast<size_t>(kp) * kc);
    for (int32_t u = 0; u < kp; ++u) {
      for (int32_t v = 0; v < kc; ++v) {
        const double x = e.a == p ? e.counts[u * kc + v] : e.counts[v * kp + u];
        t[u * kc + v] = support[p][u] && support[c][v] ? std::max(x, 0.0) : 0.0;
      }
    }
    FitToMarginals(t, model.marginal[p], model.marginal[c]);
    std::vector<double> cond(t.size());
    for (int32_t u = 0; u < kp; ++u) {
      const std::vector<double> r = ToDistribution(
          std::vector<double>(t.begin() + u * kc, t.begin() + (u + 1) * kc), support[c]);
      std::copy(r.begin(), r.end(), cond.begin() + u * kc);
    }
    model.joint[c] = std::move(t);
    model.conditional[c] = std::move(cond);
  }
  return model;
}

CategoricalTable SampleTreeModel(const TreeModel& model, int64_t n, Rng& rng) {
  const int64_t d = static_cast<int64_t>(model.sizes.size());
  // One flat buffer of CDFs: the root's marginal, then each child's
  // conditional rows.
  std::vector<int64_t> offset(static_cast<size_t>(d), 0);
  std::vector<double> cdf;
  for (int64_t c : model.order) {
    offset[c] = static_cast<int64_t>(cdf.size());
    const std::vector<double>& p = model.parent[c] < 0 ? model.marginal[c] : model.conditional[c];
    cdf.resize(cdf.size() + p.size());
    const int32_t k = model.sizes[c];
    for (size_t r = 0; r < p.size(); r += static_cast<size_t>(k)) {
      CumulativeSums(p.data() + r, k, cdf.data() + offset[c] + r);
    }
  }
  CategoricalTable out;
  out.d = d;
  out.values.resize(static_cast<size_t>(n * d));
  for (int64_t i = 0; i < n; ++i) {
    int32_t* row = out.row(i);
    for (int64_t c : model.order) {
      const int64_t p = model.parent[c];
      const int32_t k = model.sizes[c];
      const double* base = cdf.data() + offset[c] + (p < 0 ? 0 : static_cast<int64_t>(row[p]) * k);
      row[c] = DrawFromCdf(base, k, Uniform01(rng));
    }
  }
  return out;
}

Status SampleFittedTree(const std::vector<int32_t>& sizes,
                        const std::vector<std::vector<char>>& support,
                        const TreeMeasurements& measurements, int64_t root, int64_t n, Rng& rng,
                        SynthesisOutput& out) {
  PB_ASSIGN_OR_RETURN(const TreeModel model, FitTreeModel(sizes, support, measurements, root));
  out.synthetic = SampleTreeModel(model, n, rng);
  out.structure = model.Edges();
  return Status::Ok();
}

}  // namespace privbench
