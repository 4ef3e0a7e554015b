#include "mechanisms/dp_model.h"

#include <ATen/ATen.h>
#include <torch/csrc/autograd/custom_function.h>

#include <algorithm>
#include <boost/random/uniform_real_distribution.hpp>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/seeding.h"
#include "core/validate.h"
#include "mechanisms/torch_boundary.h"

namespace privbench {

LayerSpec LayerSpec::Linear(int64_t in, int64_t out) {
  LayerSpec s;
  s.kind = LayerKind::kLinear;
  s.in = in;
  s.out = out;
  return s;
}

LayerSpec LayerSpec::Conv2d(int64_t in, int64_t out, int64_t kernel, int64_t stride,
                            int64_t padding) {
  LayerSpec s;
  s.kind = LayerKind::kConv2d;
  s.in = in;
  s.out = out;
  s.kernel = kernel;
  s.stride = stride;
  s.padding = padding;
  return s;
}

LayerSpec LayerSpec::Act(Activation activation) {
  LayerSpec s;
  s.kind = LayerKind::kActivation;
  s.activation = activation;
  return s;
}

LayerSpec LayerSpec::MaxPool2d(int64_t kernel, int64_t stride) {
  LayerSpec s;
  s.kind = LayerKind::kMaxPool2d;
  s.kernel = kernel;
  s.stride = stride;
  return s;
}

LayerSpec LayerSpec::AvgPool2d(int64_t kernel, int64_t stride) {
  LayerSpec s = MaxPool2d(kernel, stride);
  s.kind = LayerKind::kAvgPool2d;
  return s;
}

LayerSpec LayerSpec::Flatten() {
  LayerSpec s;
  s.kind = LayerKind::kFlatten;
  return s;
}

std::string DescribeModel(const ModelSpec& spec) {
  std::string s;
  auto n = [](int64_t v) { return std::to_string(v); };
  for (const LayerSpec& l : spec.layers) {
    if (!s.empty()) s += " ";
    switch (l.kind) {
      case LayerKind::kLinear:
        s += "Linear(" + n(l.in) + "->" + n(l.out) + ")";
        break;
      case LayerKind::kConv2d:
        s += "Conv2d(" + n(l.in) + "->" + n(l.out) + ", k" + n(l.kernel) + ", s" + n(l.stride) +
             ", p" + n(l.padding) + ")";
        break;
      case LayerKind::kActivation:
        s += l.activation == Activation::kTanh ? "Tanh" : "ReLU";
        break;
      case LayerKind::kMaxPool2d:
        s += "MaxPool2d(k" + n(l.kernel) + ", s" + n(l.stride) + ")";
        break;
      case LayerKind::kAvgPool2d:
        s += "AvgPool2d(k" + n(l.kernel) + ", s" + n(l.stride) + ")";
        break;
      case LayerKind::kFlatten:
        s += "Flatten";
        break;
    }
  }
  return s;
}

ModelSpec LogisticRegressionSpec(int64_t input_dim, int64_t num_classes) {
  ModelSpec spec;
  spec.name = "logistic_regression";
  spec.input_shape = {input_dim};
  spec.num_classes = num_classes;
  spec.layers = {LayerSpec::Linear(input_dim, num_classes)};
  return spec;
}

ModelSpec MlpSpec(std::string name, int64_t input_dim, const std::vector<int64_t>& hidden,
                  Activation activation, int64_t num_classes) {
  ModelSpec spec;
  spec.name = std::move(name);
  spec.input_shape = {input_dim};
  spec.num_classes = num_classes;
  int64_t width = input_dim;
  for (int64_t h : hidden) {
    spec.layers.push_back(LayerSpec::Linear(width, h));
    spec.layers.push_back(LayerSpec::Act(activation));
    width = h;
  }
  spec.layers.push_back(LayerSpec::Linear(width, num_classes));
  return spec;
}

ModelSpec AdultMlpSpec(int64_t input_dim, int64_t hidden) {
  return MlpSpec("adult_mlp", input_dim, {hidden}, Activation::kTanh, 2);
}

ModelSpec PurchaseMlpSpec(int64_t input_dim, int64_t num_classes) {
  return MlpSpec("purchase_mlp", input_dim, {100, 100, 100}, Activation::kTanh, num_classes);
}

ModelSpec FashionMnistCnnSpec(Activation activation) {
  ModelSpec spec;
  spec.name = "fashion_mnist_cnn";
  spec.input_shape = {1, 28, 28};
  spec.num_classes = 10;
  spec.layers = {
      LayerSpec::Conv2d(1, 16, 8, 2, 3),
      LayerSpec::Act(activation),
      LayerSpec::MaxPool2d(2, 1),
      LayerSpec::Conv2d(16, 32, 4, 2, 0),
      LayerSpec::Act(activation),
      LayerSpec::MaxPool2d(2, 1),
      LayerSpec::Flatten(),
      LayerSpec::Linear(512, 32),
      LayerSpec::Act(activation),
      LayerSpec::Linear(32, 10),
  };
  return spec;
}

ModelSpec BayesPaperCnnSpec(int64_t num_classes, int64_t input_channels, int64_t input_side) {
  // Spatial sides after each layer (the comments give them for 1 x 28 x 28).
  const int64_t conv1 = (input_side + 2 * 3 - 8) / 2 + 1;
  const int64_t pooled = (conv1 - 2 - 2 - 2) / 2;
  ModelSpec spec;
  spec.name = "bayes_paper_cnn";
  spec.input_shape = {input_channels, input_side, input_side};
  spec.num_classes = num_classes;
  const LayerSpec tanh = LayerSpec::Act(Activation::kTanh);
  spec.layers = {LayerSpec::Conv2d(input_channels, 128, 8, 2, 3),  // -> 128 x 14 x 14
                 tanh,
                 LayerSpec::MaxPool2d(3, 1),            // -> 128 x 12 x 12
                 LayerSpec::Conv2d(128, 256, 3, 1, 0),  // -> 256 x 10 x 10
                 tanh,
                 LayerSpec::Conv2d(256, 256, 3, 1, 0),  // -> 256 x 8 x 8
                 tanh,
                 LayerSpec::AvgPool2d(2, 2),  // -> 256 x 4 x 4
                 LayerSpec::Flatten(),
                 LayerSpec::Linear(256 * pooled * pooled, num_classes)};
  return spec;
}

namespace {

std::string ShapeText(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + ")";
}

// Propagates the per-example shape through the layers, checking each;
// records each layer's output shape in `shapes` if non-null.
Status CheckSpec(const ModelSpec& spec, std::vector<std::vector<int64_t>>* shapes = nullptr) {
  if (spec.num_classes < 2) {
    return Error("num_classes must be >= 2, got " + std::to_string(spec.num_classes));
  }
  if (spec.input_shape.empty()) return Error("input_shape must be non-empty");
  for (int64_t d : spec.input_shape) {
    if (d < 1) return Error("input_shape must be positive, got " + ShapeText(spec.input_shape));
  }
  if (spec.layers.empty()) return Error("a model needs at least one layer");
  std::vector<int64_t> shape = spec.input_shape;
  for (size_t i = 0; i < spec.layers.size(); ++i) {
    const LayerSpec& l = spec.layers[i];
    const std::string where =
        "layer " + std::to_string(i) + " (" + DescribeModel(ModelSpec{"", {}, 2, {l}}) + ")";
    switch (l.kind) {
      case LayerKind::kLinear:
        if (l.in < 1 || l.out < 1) return Error(where + ": sizes must be >= 1");
        if (shape.size() != 1 || shape[0] != l.in) {
          return Error(where + " expects input shape (" + std::to_string(l.in) + "), got " +
                       ShapeText(shape));
        }
        shape = {l.out};
        break;
      case LayerKind::kConv2d: {
        if (l.in < 1 || l.out < 1 || l.kernel < 1 || l.stride < 1 || l.padding < 0) {
          return Error(where + ": channels, kernel and stride must be >= 1, padding >= 0");
        }
        if (shape.size() != 3 || shape[0] != l.in) {
          return Error(where + " expects input shape (" + std::to_string(l.in) + ", H, W), got " +
                       ShapeText(shape));
        }
        const int64_t h = (shape[1] + 2 * l.padding - l.kernel) / l.stride + 1;
        const int64_t w = (shape[2] + 2 * l.padding - l.kernel) / l.stride + 1;
        if (shape[1] + 2 * l.padding < l.kernel || shape[2] + 2 * l.padding < l.kernel) {
          return Error(where + ": kernel larger than the padded input " + ShapeText(shape));
        }
        shape = {l.out, h, w};
        break;
      }
      case LayerKind::kActivation:
        break;
      case LayerKind::kMaxPool2d:
      case LayerKind::kAvgPool2d: {
        if (l.kernel < 1 || l.stride < 1) return Error(where + ": kernel and stride must be >= 1");
        if (shape.size() != 3 || shape[1] < l.kernel || shape[2] < l.kernel) {
          return Error(where + " expects input shape (C, H, W) with H, W >= " +
                       std::to_string(l.kernel) + ", got " + ShapeText(shape));
        }
        shape = {shape[0], (shape[1] - l.kernel) / l.stride + 1,
                 (shape[2] - l.kernel) / l.stride + 1};
        break;
      }
      case LayerKind::kFlatten: {
        int64_t n = 1;
        for (int64_t d : shape) n *= d;
        shape = {n};
        break;
      }
    }
    if (shapes != nullptr) shapes->push_back(shape);
  }
  if (shape.size() != 1 || shape[0] != spec.num_classes) {
    return Error("the last layer must output (" + std::to_string(spec.num_classes) +
                 ") logits, got " + ShapeText(shape));
  }
  return Status::Ok();
}

}  // namespace

Result<std::vector<std::vector<int64_t>>> LayerOutputShapes(const ModelSpec& spec) {
  std::vector<std::vector<int64_t>> shapes;
  PB_RETURN_IF_ERROR(CheckSpec(spec, &shapes));
  return shapes;
}

namespace {

torch::Tensor GlorotUniform(const std::vector<int64_t>& shape, int64_t fan_in, int64_t fan_out,
                            Rng& rng) {
  const double limit = std::sqrt(6.0 / static_cast<double>(fan_in + fan_out));
  boost::random::uniform_real_distribution<double> u(-limit, limit);
  torch::Tensor w = torch::empty(shape, torch::kFloat);
  float* p = w.data_ptr<float>();
  for (int64_t i = 0; i < w.numel(); ++i) p[i] = static_cast<float>(u(rng));
  return w;
}

constexpr int64_t kEvalChunk = 4096;

// Max pooling without padding. LibTorch 1.13's max_pool2d forward kernel (measured then)
// for NCHW tensors is ~10x slower here than its channels-last kernel
// (21 ms vs 2 ms for the CNN's first pooling at batch 256), and letting
// autograd differentiate through format conversions is slow too. So: the
// forward pools a channels-last copy (values and argmax indices, which are
// format-independent flat h*W + w positions), the backward scatters with
// the NCHW max_pool2d_with_indices_backward kernel. Same values and
// gradients as at::max_pool2d.
class MaxPool2dFunction : public torch::autograd::Function<MaxPool2dFunction> {
 public:
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& input,
                               int64_t kernel, int64_t stride) {
    auto [out, indices] =
        at::max_pool2d_with_indices(input.contiguous(at::MemoryFormat::ChannelsLast),
                                    {kernel, kernel}, {stride, stride}, {0, 0}, {1, 1}, false);
    indices = indices.contiguous();
    ctx->save_for_backward({input, indices});
    ctx->saved_data["kernel"] = kernel;
    ctx->saved_data["stride"] = stride;
    return out.contiguous();
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    const torch::autograd::variable_list saved = ctx->get_saved_variables();
    const int64_t k = ctx->saved_data["kernel"].toInt();
    const int64_t s = ctx->saved_data["stride"].toInt();
    torch::Tensor grad_input = at::max_pool2d_with_indices_backward(
        grads[0].contiguous(), saved[0], {k, k}, {s, s}, {0, 0}, {1, 1}, false, saved[1]);
    return {grad_input, torch::Tensor(), torch::Tensor()};
  }
};

}  // namespace

Result<DpModel> DpModel::Create(const ModelSpec& spec, uint64_t seed) {
  PB_RETURN_IF_ERROR(CheckSpec(spec));
  return GuardTorch("DpModel::Create", [&]() -> Result<DpModel> {
    DpModel model;
    model.spec_ = spec;
    for (size_t i = 0; i < spec.layers.size(); ++i) {
      const LayerSpec& l = spec.layers[i];
      if (!l.trainable()) continue;
      Rng rng = MakeRng(seed, {static_cast<uint64_t>(i)});
      torch::Tensor w;
      if (l.kind == LayerKind::kLinear) {
        w = GlorotUniform({l.out, l.in}, l.in, l.out, rng);
      } else {
        const int64_t kk = l.kernel * l.kernel;
        w = GlorotUniform({l.out, l.in, l.kernel, l.kernel}, l.in * kk, l.out * kk, rng);
      }
      model.parameters_.push_back(w.set_requires_grad(true));
      model.parameters_.push_back(torch::zeros({l.out}, torch::kFloat).set_requires_grad(true));
      model.trainable_layers_.push_back(i);
    }
    return model;
  });
}

int64_t DpModel::num_parameters() const {
  int64_t n = 0;
  for (const torch::Tensor& p : parameters_) n += p.numel();
  return n;
}

Result<DpModel> DpModel::Clone() const {
  return GuardTorch("DpModel::Clone", [&]() -> Result<DpModel> {
    DpModel copy;
    copy.spec_ = spec_;
    copy.trainable_layers_ = trainable_layers_;
    for (const torch::Tensor& p : parameters_) {
      copy.parameters_.push_back(p.detach().clone().set_requires_grad(true));
    }
    return copy;
  });
}

Status DpModel::SetParameters(const std::vector<torch::Tensor>& values) {
  if (values.size() != parameters_.size()) {
    return Error("SetParameters: expected " + std::to_string(parameters_.size()) +
                 " tensors, got " + std::to_string(values.size()));
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (!values[i].defined() || values[i].sizes() != parameters_[i].sizes()) {
      return Error("SetParameters: parameter " + std::to_string(i) + " must have shape " +
                   TensorShapeText(parameters_[i]) + ", got " + TensorShapeText(values[i]));
    }
  }
  return GuardTorch("DpModel::SetParameters", [&]() -> Status {
    at::NoGradGuard no_grad;
    for (size_t i = 0; i < values.size(); ++i) {
      parameters_[i].copy_(values[i].to(torch::kFloat));
    }
    return Status::Ok();
  });
}

Status DpModel::MoveTo(const torch::Device& device) {
  return GuardTorch("DpModel::MoveTo", [&]() -> Status {
    for (torch::Tensor& p : parameters_) {
      if (p.device() != device) p = p.detach().to(device).set_requires_grad(true);
    }
    return Status::Ok();
  });
}

Result<torch::Tensor> DpModel::PrepareInputs(const torch::Tensor& x) const {
  return GuardTorch("PrepareInputs", [&]() -> Result<torch::Tensor> {
    if (!x.defined()) return Error("x is undefined");
    int64_t per_example = 1;
    for (int64_t d : spec_.input_shape) per_example *= d;
    std::vector<int64_t> want = {x.dim() > 0 ? x.size(0) : 0};
    want.insert(want.end(), spec_.input_shape.begin(), spec_.input_shape.end());
    torch::Tensor out = x;
    if (x.dim() == 2 && x.size(1) == per_example && spec_.input_shape.size() > 1) {
      out = x.reshape(want);
    }
    if (out.dim() < 1 || out.sizes() != at::IntArrayRef(want)) {
      std::vector<int64_t> shown = want;
      std::string expected = "(N";
      for (size_t i = 1; i < shown.size(); ++i) expected += ", " + std::to_string(shown[i]);
      return Error(
          "x must have shape " + expected + ")" +
          (spec_.input_shape.size() > 1 ? " or (N, " + std::to_string(per_example) + ")" : "") +
          ", got " + TensorShapeText(x));
    }
    if (out.size(0) < 1) return Error("x must have at least one row, got 0");
    if (out.is_complex() || out.scalar_type() == torch::kBool) {
      return Error("x must be a real (floating or integer) tensor");
    }
    out = out.to(torch::kFloat).contiguous();
    torch::Tensor bad = at::isfinite(out).logical_not().reshape({out.size(0), -1}).any(1);
    if (bad.any().item<bool>()) {
      const int64_t row = bad.nonzero()[0][0].item<int64_t>();
      return Error("x contains a non-finite value in row " + std::to_string(row));
    }
    return out;
  });
}

Result<torch::Tensor> DpModel::PrepareLabels(const torch::Tensor& y, int64_t n) const {
  return GuardTorch("PrepareLabels", [&]() -> Result<torch::Tensor> {
    if (!y.defined()) return Error("y is undefined");
    if (y.dim() != 1 || y.size(0) != n) {
      return Error("y must have shape (" + std::to_string(n) + "), one label per row of x, got " +
                   TensorShapeText(y));
    }
    if (at::isFloatingType(y.scalar_type()) || y.is_complex() || y.scalar_type() == torch::kBool) {
      return Error("y must hold integer labels");
    }
    torch::Tensor out = y.to(torch::kLong).contiguous();
    torch::Tensor bad = (out < 0).logical_or(out >= spec_.num_classes);
    if (bad.any().item<bool>()) {
      const int64_t row = bad.nonzero()[0][0].item<int64_t>();
      return Error("labels must be in [0, " + std::to_string(spec_.num_classes) + "), got " +
                   std::to_string(out[row].item<int64_t>()) + " in row " + std::to_string(row));
    }
    return out;
  });
}

torch::Tensor DpModel::Forward(const torch::Tensor& x, ForwardTrace* trace) const {
  if (trace != nullptr) {
    trace->inputs.clear();
    trace->outputs.clear();
  }
  torch::Tensor a = x;
  size_t p = 0;
  for (const LayerSpec& l : spec_.layers) {
    switch (l.kind) {
      case LayerKind::kLinear:
      case LayerKind::kConv2d: {
        const torch::Tensor& w = parameters_[p];
        const torch::Tensor& b = parameters_[p + 1];
        p += 2;
        torch::Tensor z = l.kind == LayerKind::kLinear
                              ? at::linear(a, w, b)
                              : at::conv2d(a, w, b, {l.stride, l.stride}, {l.padding, l.padding});
        if (trace != nullptr) {
          trace->inputs.push_back(a.detach());
          trace->outputs.push_back(z);
        }
        a = z;
        break;
      }
      case LayerKind::kActivation:
        a = l.activation == Activation::kTanh ? at::tanh(a) : at::relu(a);
        break;
      case LayerKind::kMaxPool2d:
        a = MaxPool2dFunction::apply(a, l.kernel, l.stride);
        break;
      case LayerKind::kAvgPool2d:
        a = at::avg_pool2d(a, {l.kernel, l.kernel}, {l.stride, l.stride});
        break;
      case LayerKind::kFlatten:
        a = a.flatten(1);
        break;
    }
  }
  return a;
}

Result<torch::Tensor> Logits(const DpModel& model, const torch::Tensor& x) {
  PB_ASSIGN_OR_RETURN(torch::Tensor xs, model.PrepareInputs(x));
  return GuardTorch("Logits", [&]() -> Result<torch::Tensor> {
    at::NoGradGuard no_grad;
    std::vector<torch::Tensor> parts;
    for (int64_t start = 0; start < xs.size(0); start += kEvalChunk) {
      const int64_t len = std::min(kEvalChunk, xs.size(0) - start);
      parts.push_back(model.Forward(xs.narrow(0, start, len)));
    }
    torch::Tensor logits = at::cat(parts, 0);
    if (!at::isfinite(logits).all().item<bool>()) {
      return Error("the model produced non-finite logits (diverged parameters?)");
    }
    return logits;
  });
}

Result<torch::Tensor> PerExampleLosses(const DpModel& model, const torch::Tensor& x,
                                       const torch::Tensor& y) {
  PB_ASSIGN_OR_RETURN(torch::Tensor logits, Logits(model, x));
  PB_ASSIGN_OR_RETURN(torch::Tensor ys, model.PrepareLabels(y, logits.size(0)));
  return GuardTorch("PerExampleLosses", [&]() -> Result<torch::Tensor> {
    torch::Tensor logp = at::log_softmax(logits.to(torch::kDouble), 1);
    return logp.gather(1, ys.unsqueeze(1)).squeeze(1).neg();
  });
}

Result<double> Accuracy(const DpModel& model, const torch::Tensor& x, const torch::Tensor& y) {
  PB_ASSIGN_OR_RETURN(torch::Tensor logits, Logits(model, x));
  PB_ASSIGN_OR_RETURN(torch::Tensor ys, model.PrepareLabels(y, logits.size(0)));
  return GuardTorch("Accuracy", [&]() -> Result<double> {
    return logits.argmax(1).eq(ys).to(torch::kDouble).mean().item<double>();
  });
}

}  // namespace privbench
