#include "mechanisms/per_example_grads.h"

#include <ATen/ATen.h>
#include <torch/csrc/autograd/autograd.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/validate.h"
#include "mechanisms/torch_boundary.h"

namespace privbench {

Microbatching Microbatching::PerExample() { return Microbatching(); }

Result<Microbatching> Microbatching::Contiguous(int64_t batch_size, int64_t num_microbatches) {
  PB_RETURN_IF_ERROR(CheckPositiveCount("batch_size", batch_size));
  PB_RETURN_IF_ERROR(CheckPositiveCount("num_microbatches", num_microbatches));
  if (batch_size % num_microbatches != 0) {
    return Error("num_microbatches " + std::to_string(num_microbatches) +
                 " does not divide the batch size " + std::to_string(batch_size));
  }
  if (num_microbatches == batch_size) return PerExample();
  Microbatching mb;
  mb.per_example_ = false;
  mb.num_microbatches_ = num_microbatches;
  const int64_t b = batch_size / num_microbatches;
  mb.group_of_.resize(batch_size);
  for (int64_t i = 0; i < batch_size; ++i) mb.group_of_[i] = i / b;
  return mb;
}

Result<Microbatching> Microbatching::Groups(std::vector<int64_t> group_of,
                                            int64_t num_microbatches) {
  PB_RETURN_IF_ERROR(CheckPositiveCount("num_microbatches", num_microbatches));
  for (size_t i = 0; i < group_of.size(); ++i) {
    if (group_of[i] < 0 || group_of[i] >= num_microbatches) {
      return Error("group_of[" + std::to_string(i) + "] must be in [0, " +
                   std::to_string(num_microbatches) + "), got " + std::to_string(group_of[i]));
    }
  }
  Microbatching mb;
  mb.per_example_ = false;
  mb.num_microbatches_ = num_microbatches;
  mb.group_of_ = std::move(group_of);
  return mb;
}

// Where each row of the batch goes in the zero-padded (m, bmax) layout.
struct MicrobatchLayout {
  int64_t batch = 0;
  int64_t m = 0;
  int64_t bmax = 0;
  bool per_example = false;
  bool identity = false;       // row i sits at padded position i (no copy needed)
  torch::Tensor pad_index;     // (B) int64, if !identity
  torch::Tensor group_of;      // (B) int64, if !per_example
  torch::Tensor row_scale;     // (B, 1) float32: 1/|G_j(i)|; undefined if all sizes are 1
  double uniform_scale = 1.0;  // used instead of row_scale when all sizes are equal

  MicrobatchLayout(const Microbatching& mb, int64_t batch_size, const torch::Device& device)
      : batch(batch_size) {
    if (mb.per_example()) {
      per_example = true;
      identity = true;
      m = batch_size;
      bmax = 1;
      return;
    }
    m = mb.num_microbatches_;
    const std::vector<int64_t>& g = mb.group_of_;
    std::vector<int64_t> counts(m, 0);
    for (int64_t j : g) ++counts[j];
    bmax = std::max<int64_t>(1, *std::max_element(counts.begin(), counts.end()));
    std::vector<int64_t> fill(m, 0);
    std::vector<int64_t> pad(batch_size);
    identity = true;
    for (int64_t i = 0; i < batch_size; ++i) {
      pad[i] = g[i] * bmax + fill[g[i]]++;
      identity = identity && pad[i] == i;
    }
    identity = identity && m * bmax == batch_size;
    group_of = torch::tensor(g, torch::kLong).to(device);
    if (!identity) pad_index = torch::tensor(pad, torch::kLong).to(device);
    bool equal = true;
    for (int64_t c : counts) equal = equal && c == counts[0];
    if (equal) {
      uniform_scale = 1.0 / static_cast<double>(counts[0]);
    } else {
      std::vector<float> scale(batch_size);
      for (int64_t i = 0; i < batch_size; ++i) scale[i] = 1.0f / static_cast<float>(counts[g[i]]);
      row_scale = torch::tensor(scale, torch::kFloat).unsqueeze(1).to(device);
    }
  }

  // (B, rest...) -> (m, bmax, rest...), zero rows for padding.
  torch::Tensor Pad(const torch::Tensor& t) const {
    std::vector<int64_t> shape = {m, bmax};
    for (int64_t d = 1; d < t.dim(); ++d) shape.push_back(t.size(d));
    if (identity) return t.reshape(shape);
    std::vector<int64_t> flat = {m * bmax};
    for (int64_t d = 1; d < t.dim(); ++d) flat.push_back(t.size(d));
    return at::zeros(flat, t.options()).index_copy_(0, pad_index, t).view(shape);
  }

  // Rows scaled by 1/|G_j(i)| (microbatch MEAN gradients).
  torch::Tensor ScaleRows(const torch::Tensor& t) const {
    if (row_scale.defined()) {
      std::vector<int64_t> shape(t.dim(), 1);
      shape[0] = batch;
      return t * row_scale.view(shape);
    }
    return uniform_scale == 1.0 ? t : t * uniform_scale;
  }

  // Per-microbatch values (m) -> per-row values (B).
  torch::Tensor ToRows(const torch::Tensor& per_group) const {
    return per_example ? per_group : per_group.index_select(0, group_of);
  }
  // Per-row values (B) -> per-microbatch sums (m).
  torch::Tensor SumRows(const torch::Tensor& per_row) const {
    if (per_example) return per_row;
    return at::zeros({m}, per_row.options()).index_add_(0, group_of, per_row);
  }
  // Per-row vectors (B, n) -> per-microbatch sums (m, n).
  torch::Tensor SumRowBlocks(const torch::Tensor& per_row) const {
    if (per_example) return per_row;
    return at::zeros({m, per_row.size(1)}, per_row.options()).index_add_(0, group_of, per_row);
  }
};

namespace internal {

torch::Tensor SummedCrossEntropy(const torch::Tensor& logits, const torch::Tensor& y) {
  return at::nll_loss(at::log_softmax(logits, 1), y, {}, at::Reduction::Sum);
}

namespace {

// What the clipped sum needs of one trainable layer: its input rows and
// scaled output gradients (the weighted-backward layers) or its materialised
// microbatch gradients.
struct LayerStash {
  torch::Tensor a, ds;   // Linear, and Conv2d by ghost norm
  torch::Tensor gw, gb;  // Conv2d materialised: (m, Cout Cin k k), (m, Cout)
};

// Squared microbatch gradient norms of a Linear layer (see the header).
torch::Tensor LinearSquaredNorms(const LayerSpec& l, const torch::Tensor& a,
                                 const torch::Tensor& ds, const MicrobatchLayout& lay) {
  if (lay.bmax == 1) return lay.SumRows(ds.pow(2).sum(1) * (a.pow(2).sum(1) + 1.0));
  const torch::Tensor ap = lay.Pad(a);   // (m, bmax, din)
  const torch::Tensor dp = lay.Pad(ds);  // (m, bmax, dout)
  if (LinearUsesGhostNorm(l, lay.bmax)) {
    const torch::Tensor ga = at::bmm(ap, ap.transpose(1, 2)) + 1.0;
    const torch::Tensor gd = at::bmm(dp, dp.transpose(1, 2));
    return (ga * gd).sum({1, 2});
  }
  const torch::Tensor gw = at::bmm(dp.transpose(1, 2), ap);  // (m, dout, din)
  return gw.pow(2).sum({1, 2}) + dp.sum(1).pow(2).sum(1);
}

// (c bmax, n, T) per-row matrices -> (c, n, bmax T): a microbatch's
// members side by side along the positions.
torch::Tensor MembersAlongPositions(const torch::Tensor& t, int64_t c, int64_t bmax) {
  if (bmax == 1) return t;
  const int64_t n = t.size(1), positions = t.size(2);
  return t.view({c, bmax, n, positions}).transpose(1, 2).reshape({c, n, bmax * positions});
}

// Squared microbatch gradient norms of a Conv2d layer without forming the
// gradients (ghost norm): with U_j (Cin k k x bT) the unfolded inputs and
// D_j (Cout x bT) the output gradients of microbatch j's members side by
// side, ||D_j U_j^T||_F^2 = <U_j^T U_j, D_j^T D_j>_F, plus the bias part
// ||D_j 1||^2. Done in chunks of microbatches: per chunk at most about
// `chunk_floats` floats of unfolded inputs, output gradients and the three
// (bT x bT) products.
torch::Tensor ConvGhostSquaredNorms(const LayerSpec& l, const torch::Tensor& a,
                                    const torch::Tensor& ds, const MicrobatchLayout& lay,
                                    int64_t chunk_floats) {
  const int64_t h = a.size(2), w = a.size(3), positions = ds.size(2) * ds.size(3);
  const int64_t unfolded = l.in * l.kernel * l.kernel, bt = lay.bmax * positions;
  const int64_t chunk = std::max<int64_t>(1, chunk_floats / (bt * (unfolded + l.out + 3 * bt)));
  const torch::Tensor ap = lay.Pad(a);   // (m, bmax, Cin, H, W)
  const torch::Tensor dp = lay.Pad(ds);  // (m, bmax, Cout, OH, OW)
  std::vector<torch::Tensor> parts;
  for (int64_t j0 = 0; j0 < lay.m; j0 += chunk) {
    const int64_t c = std::min(chunk, lay.m - j0);
    const torch::Tensor rows = ap.narrow(0, j0, c).reshape({c * lay.bmax, l.in, h, w});
    const torch::Tensor u =
        MembersAlongPositions(at::im2col(rows, {l.kernel, l.kernel}, {1, 1}, {l.padding, l.padding},
                                         {l.stride, l.stride}),
                              c, lay.bmax);  // (c, Cin k k, bT)
    const torch::Tensor g = MembersAlongPositions(
        dp.narrow(0, j0, c).reshape({c * lay.bmax, l.out, positions}), c, lay.bmax);
    const torch::Tensor gram_u = at::bmm(u.transpose(1, 2), u);  // (c, bT, bT)
    const torch::Tensor gram_g = at::bmm(g.transpose(1, 2), g);
    parts.push_back((gram_u * gram_g).sum({1, 2}) + g.sum(2).pow(2).sum(1));
  }
  return at::cat(parts);
}

// Microbatch gradients of a Conv2d layer, materialised for all j at once as
// the weight gradient of a GROUPED convolution (Rochette et al. 2019):
// microbatches become channel groups, members the batch. Runs on LibTorch's
// oneDNN convolution kernels. Returns the squared norms.
torch::Tensor ConvMaterialisedSquaredNorms(const LayerSpec& l, const torch::Tensor& a,
                                           const torch::Tensor& ds, const MicrobatchLayout& lay,
                                           LayerStash* stash) {
  const int64_t h = a.size(2), w = a.size(3), oh = ds.size(2), ow = ds.size(3);
  const torch::Tensor ag = lay.Pad(a).transpose(0, 1).reshape({lay.bmax, lay.m * l.in, h, w});
  const torch::Tensor dg = lay.Pad(ds).transpose(0, 1).reshape({lay.bmax, lay.m * l.out, oh, ow});
  const torch::Tensor shape_only =
      at::empty({lay.m * l.out, l.in, l.kernel, l.kernel}, a.options());
  stash->gw =
      std::get<1>(at::convolution_backward(dg, ag, shape_only, c10::nullopt, {l.stride, l.stride},
                                           {l.padding, l.padding}, {1, 1}, false, {0, 0}, lay.m,
                                           {false, true, false}))
          .view({lay.m, -1});                    // (m, Cout Cin k k)
  stash->gb = lay.SumRowBlocks(ds.sum({2, 3}));  // (m, Cout)
  return at::linalg_vector_norm(stash->gw, 2, at::IntArrayRef{1}, false, c10::nullopt).square() +
         stash->gb.pow(2).sum(1);
}

// One layer's clipped sum sum_j c_j g_j, appended as (weight, bias):
// weighted-backward layers get one product with the clip factors folded
// into the output gradients (c_rows: (B) per-row factors); materialised
// ones the weighted sum of their microbatch gradients (c: (m)).
void AppendClippedSum(const LayerSpec& l, const LayerStash& st, const torch::Tensor& weight,
                      const torch::Tensor& c, const torch::Tensor& c_rows,
                      std::vector<torch::Tensor>* sum) {
  if (st.gw.defined()) {
    const torch::Tensor cc = c.unsqueeze(1);
    sum->push_back((st.gw * cc).sum(0).view(weight.sizes()));
    sum->push_back((st.gb * cc).sum(0));
    return;
  }
  if (l.kind == LayerKind::kLinear) {
    const torch::Tensor dc = st.ds * c_rows.unsqueeze(1);
    sum->push_back(dc.t().mm(st.a));
    sum->push_back(dc.sum(0));
    return;
  }
  const torch::Tensor dc = st.ds * c_rows.view({-1, 1, 1, 1});
  sum->push_back(std::get<1>(at::convolution_backward(
      dc, st.a, weight, c10::nullopt, {l.stride, l.stride}, {l.padding, l.padding}, {1, 1}, false,
      {0, 0}, 1, {false, true, false})));
  sum->push_back(dc.sum({0, 2, 3}));
}

}  // namespace

ClippedGradientSum ClippedGradientSumUnchecked(const DpModel& model, const torch::Tensor& x,
                                               const torch::Tensor& y,
                                               const Microbatching& microbatching, double clip_norm,
                                               ConvNorms conv_norms, int64_t ghost_chunk_floats) {
  const MicrobatchLayout lay(microbatching, x.size(0), x.device());
  ForwardTrace trace;
  torch::Tensor loss = SummedCrossEntropy(model.Forward(x, &trace), y);
  // dL/dz_k for every trainable layer; the weight gradients are not computed.
  std::vector<torch::Tensor> out_grads = torch::autograd::grad({loss}, trace.outputs);
  // Memory: the layer outputs are not needed any more, and each layer's
  // input and output gradient is released as soon as its stash has what
  // the clipped sum needs (materialised layers keep only their gradients).
  const size_t num_layers = trace.outputs.size();
  trace.outputs.clear();

  std::vector<LayerStash> stash(num_layers);
  torch::Tensor sq = at::zeros({lay.m}, x.options());
  const std::vector<LayerSpec>& layers = model.spec().layers;
  for (size_t k = 0; k < num_layers; ++k) {
    const LayerSpec& l = layers[model.trainable_layers()[k]];
    const torch::Tensor a = std::move(trace.inputs[k]);
    const torch::Tensor ds = lay.ScaleRows(std::exchange(out_grads[k], torch::Tensor()));
    if (l.kind == LayerKind::kConv2d &&
        !ConvUsesGhostNorm(l, ds.size(2) * ds.size(3), lay.bmax, conv_norms)) {
      sq += ConvMaterialisedSquaredNorms(l, a, ds, lay, &stash[k]);
      continue;
    }
    sq += l.kind == LayerKind::kLinear ? LinearSquaredNorms(l, a, ds, lay)
                                       : ConvGhostSquaredNorms(l, a, ds, lay, ghost_chunk_floats);
    stash[k].a = a;
    stash[k].ds = ds;
  }
  ClippedGradientSum out;
  const torch::Tensor norms = sq.clamp_min(0.0).sqrt();
  // TF Privacy's factor C / max(||g||, C): exactly 1 when ||g|| <= C.
  const torch::Tensor c = clip_norm / norms.clamp_min(clip_norm);
  const torch::Tensor c_rows = lay.ToRows(c);
  const std::vector<torch::Tensor>& params = model.parameters();
  // The sums are values, not part of any graph (the weight-gradient
  // convolution would otherwise record one that keeps its inputs alive).
  const at::NoGradGuard no_grad;
  for (size_t k = 0; k < stash.size(); ++k) {
    AppendClippedSum(layers[model.trainable_layers()[k]], stash[k], params[2 * k], c, c_rows,
                     &out.sum);
  }
  out.norms = norms.to(torch::kDouble);
  out.loss_sum = loss.item<double>();
  return out;
}

ClippedGradientSum ClippedGradientSumLoopUnchecked(const DpModel& model, const torch::Tensor& x,
                                                   const torch::Tensor& y,
                                                   const Microbatching& microbatching,
                                                   double clip_norm) {
  const int64_t batch = x.size(0);
  const int64_t m = microbatching.num_microbatches(batch);
  std::vector<std::vector<int64_t>> members(m);
  for (int64_t i = 0; i < batch; ++i) {
    members[microbatching.per_example() ? i : microbatching.group_of()[i]].push_back(i);
  }
  const std::vector<torch::Tensor>& params = model.parameters();
  ClippedGradientSum out;
  for (const torch::Tensor& p : params) out.sum.push_back(at::zeros_like(p));
  std::vector<double> norms(m, 0.0);
  for (int64_t j = 0; j < m; ++j) {
    if (members[j].empty()) continue;
    const torch::Tensor idx = torch::tensor(members[j], torch::kLong).to(x.device());
    const torch::Tensor loss =
        SummedCrossEntropy(model.Forward(x.index_select(0, idx)), y.index_select(0, idx));
    out.loss_sum += loss.item<double>();
    const torch::Tensor mean_loss = loss / static_cast<double>(members[j].size());
    std::vector<torch::Tensor> g = torch::autograd::grad({mean_loss}, params);
    double sq = 0.0;
    for (const torch::Tensor& t : g) sq += t.to(torch::kDouble).pow(2).sum().item<double>();
    norms[j] = std::sqrt(sq);
    const double c = clip_norm / std::max(norms[j], clip_norm);
    for (size_t p = 0; p < g.size(); ++p) out.sum[p] += c * g[p];
  }
  out.norms = torch::tensor(norms, torch::kDouble);
  return out;
}

}  // namespace internal

bool LinearUsesGhostNorm(const LayerSpec& layer, int64_t microbatch_rows) {
  return microbatch_rows == 1 || microbatch_rows * (layer.in + layer.out) < layer.in * layer.out;
}

bool ConvUsesGhostNorm(const LayerSpec& layer, int64_t positions, int64_t microbatch_rows,
                       ConvNorms choice) {
  if (choice != ConvNorms::kAuto) return choice == ConvNorms::kGhostNorm;
  const int64_t t = microbatch_rows * positions;
  return 2 * t * t < layer.in * layer.kernel * layer.kernel * layer.out;
}

std::string DescribeGradientNorms(const ModelSpec& spec, int64_t microbatch_rows,
                                  ConvNorms conv_norms) {
  const Result<std::vector<std::vector<int64_t>>> shapes = LayerOutputShapes(spec);
  if (!shapes.ok()) return "invalid model: " + shapes.message();
  std::string out;
  for (size_t i = 0; i < spec.layers.size(); ++i) {
    const LayerSpec& l = spec.layers[i];
    if (!l.trainable()) continue;
    const bool ghost =
        l.kind == LayerKind::kLinear
            ? LinearUsesGhostNorm(l, microbatch_rows)
            : ConvUsesGhostNorm(l, (*shapes)[i][1] * (*shapes)[i][2], microbatch_rows, conv_norms);
    out += (out.empty() ? "" : "; ") + std::string("layer ") + std::to_string(i) + " " +
           (ghost ? "ghost norm" : "materialised");
  }
  return out;
}

namespace {

Result<ClippedGradientSum> Checked(const char* where, const DpModel& model, const torch::Tensor& x,
                                   const torch::Tensor& y, const Microbatching& microbatching,
                                   double clip_norm, bool loop, ConvNorms conv_norms) {
  PB_RETURN_IF_ERROR(CheckPositive("clip_norm", clip_norm));
  PB_ASSIGN_OR_RETURN(torch::Tensor xs, model.PrepareInputs(x));
  PB_ASSIGN_OR_RETURN(torch::Tensor ys, model.PrepareLabels(y, xs.size(0)));
  if (!microbatching.per_example() &&
      static_cast<int64_t>(microbatching.group_of().size()) != xs.size(0)) {
    return Error("the microbatching assigns " + std::to_string(microbatching.group_of().size()) +
                 " rows, but the batch has " + std::to_string(xs.size(0)));
  }
  return GuardTorch(where, [&]() -> Result<ClippedGradientSum> {
    return loop ? internal::ClippedGradientSumLoopUnchecked(model, xs, ys, microbatching, clip_norm)
                : internal::ClippedGradientSumUnchecked(model, xs, ys, microbatching, clip_norm,
                                                        conv_norms);
  });
}

}  // namespace

Result<ClippedGradientSum> ComputeClippedGradientSum(const DpModel& model, const torch::Tensor& x,
                                                     const torch::Tensor& y,
                                                     const Microbatching& microbatching,
                                                     double clip_norm, ConvNorms conv_norms) {
  return Checked("ComputeClippedGradientSum", model, x, y, microbatching, clip_norm, false,
                 conv_norms);
}

Result<ClippedGradientSum> ComputeClippedGradientSumLoop(const DpModel& model,
                                                         const torch::Tensor& x,
                                                         const torch::Tensor& y,
                                                         const Microbatching& microbatching,
                                                         double clip_norm) {
  return Checked("ComputeClippedGradientSumLoop", model, x, y, microbatching, clip_norm, true,
                 ConvNorms::kAuto);
}

}  // namespace privbench
