// Models trained by DP-SGD (docs/studies.md, "Studies that train models"), written as an explicit
// sequence of layers so that the per-example gradient engine
// (mechanisms/per_example_grads.h) can see every trainable layer's input
// activation a_k and output z_k: LibTorch's C++ API (2.11) has neither
// functorch/vmap nor module hooks, so the model records them itself
// (ForwardTrace) and one backward pass of the summed loss gives dL/dz_k.
//
// Computes: logits of a classifier (cross-entropy over num_classes logits,
// used uniformly, also for the binary Adult task), per-example
// cross-entropy losses (in float64, because Epsilon* transforms losses near
// 0), accuracy.
//
// Architectures (factories below):
//  - LogisticRegressionSpec(d, K): one Linear(d -> K) layer, softmax
//    cross-entropy (multinomial; K = 2 for a binary task). Jayaraman &
//    Evans' Purchase-100 logistic regression (experiments/region_of_privacy/README.md).
//  - AdultMlpSpec(d, hidden = 128): Linear(d -> 128) Tanh Linear(128 -> 2).
//    The Epsilon* paper (§4.1) says only that Adult follows "previously
//    reported benchmark DNN architectures (Shokri et al. 2017)". The one
//    locally trained tabular network of Shokri et al. (their Purchase/Texas
//    target model) is, to our reading of that paper (Shokri, Stronati, Song &
//    Shmatikov, "Membership Inference Attacks Against Machine Learning
//    Models", IEEE S&P 2017), a fully connected network with one hidden layer of
//    128 Tanh units and a softmax output; we use it for Adult. The width is a
//    parameter.
//  - PurchaseMlpSpec(d = 600, K = 100): three hidden layers of 100 Tanh
//    units (Epsilon* §4.1: "three layers, each of 100 nodes"; Tanh as in
//    Shokri et al.'s Purchase model; the activation is a parameter of
//    MlpSpec).
//  - FashionMnistCnnSpec(): the TensorFlow Privacy MNIST tutorial CNN
//    (mnist_dpsgd_tutorial_keras), input 1x28x28:
//      Conv2d(1 -> 16, 8x8, stride 2, padding 3 = Keras "same")  -> 16x14x14
//      act, MaxPool2d(2, stride 1)                               -> 16x13x13
//      Conv2d(16 -> 32, 4x4, stride 2, no padding = "valid")      -> 32x5x5
//      act, MaxPool2d(2, stride 1)                               -> 32x4x4
//      Flatten -> Linear(512 -> 32), act, Linear(32 -> 10)
//    26,010 parameters. The activation defaults to Tanh (tempered sigmoids
//    train better than ReLU under DP-SGD: Papernot et al. 2021); ReLU is the
//    tutorial's choice and available.
//  - BayesPaperCnnSpec(K): the CNN of the Bayesian estimation paper's
//    LiRA audit (Zanella-Beguelin et al., "Bayesian Estimation of
//    Differential Privacy", ICML 2023, Sec. 4.2: 4 layers, tanh, average and
//    max pooling; the layers as in its public code) on 1x28x28 inputs:
//      Conv2d(1 -> 128, 8x8, stride 2, padding 3), tanh -> 128x14x14
//      MaxPool2d(3, stride 1)                          -> 128x12x12
//      Conv2d(128 -> 256, 3x3), tanh                   -> 256x10x10
//      Conv2d(256 -> 256, 3x3), tanh                   -> 256x8x8
//      AvgPool2d(2, stride 2), Flatten                 -> 4,096
//      Linear(4096 -> K)
//    934,538 parameters for K = 10. BayesPaperCnnSpec(K, C, S) takes C x S x
//    S inputs (defaults 1 x 28 x 28: the layers above): the paper's own
//    CIFAR-10 model is BayesPaperCnnSpec(10, 3, 32), as its public code
//    (Conv2d(3 -> 128, ...), ..., Linear(6400 -> 10)): 128x16x16, 128x14x14,
//    256x12x12, 256x10x10, 256x5x5 -> Linear(6400 -> K), 973,962 parameters
//    for K = 10. The spatial sizes are floor divisions, as LibTorch's; a side
//    too small for the layers gives a spec DpModel::Create refuses.
//
// Initialisation (deterministic, independent of LibTorch's global RNG and
// thread-safe): Keras defaults, since the papers trained with TF/Keras:
// Glorot-uniform weights U(-l, l), l = sqrt(6 / (fan_in + fan_out))
// (convolutions: fan = channels * k * k), zero biases; drawn with
// Boost.Random from MakeRng(seed, {layer index}).
//
// Tensors are float32 on the CPU. Inputs x have shape (N, input_shape...);
// a flat (N, prod(input_shape)) tensor is reshaped; any floating or integer
// dtype is converted to float32. Labels y are integers in [0, num_classes).
#ifndef PRIVBENCH_MECHANISMS_DP_MODEL_H_
#define PRIVBENCH_MECHANISMS_DP_MODEL_H_

#include <torch/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace privbench {

enum class Activation { kTanh, kRelu };

enum class LayerKind { kLinear, kConv2d, kActivation, kMaxPool2d, kFlatten, kAvgPool2d };

struct LayerSpec {
  LayerKind kind = LayerKind::kLinear;
  int64_t in = 0;                             // Linear: input features; Conv2d: input channels
  int64_t out = 0;                            // Linear: output features; Conv2d: output channels
  int64_t kernel = 0;                         // Conv2d, MaxPool2d, AvgPool2d: square kernel size
  int64_t stride = 1;                         // Conv2d, MaxPool2d, AvgPool2d
  int64_t padding = 0;                        // Conv2d: zero padding on every side
  Activation activation = Activation::kTanh;  // kActivation

  static LayerSpec Linear(int64_t in, int64_t out);
  static LayerSpec Conv2d(int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t padding);
  static LayerSpec Act(Activation activation);
  static LayerSpec MaxPool2d(int64_t kernel, int64_t stride);
  // Average pooling, no padding (the Bayesian paper's CNN, experiments/lira_bayes_audit/README.md).
  static LayerSpec AvgPool2d(int64_t kernel, int64_t stride);
  static LayerSpec Flatten();

  bool trainable() const { return kind == LayerKind::kLinear || kind == LayerKind::kConv2d; }
};

struct ModelSpec {
  std::string name;                  // e.g. "adult_mlp"
  std::vector<int64_t> input_shape;  // one example: {108} or {1, 28, 28}
  int64_t num_classes = 2;
  std::vector<LayerSpec> layers;
};

// "Linear(108->128) Tanh Linear(128->2)": the architecture, for metadata.
std::string DescribeModel(const ModelSpec& spec);

ModelSpec LogisticRegressionSpec(int64_t input_dim, int64_t num_classes);
ModelSpec MlpSpec(std::string name, int64_t input_dim, const std::vector<int64_t>& hidden,
                  Activation activation, int64_t num_classes);
ModelSpec AdultMlpSpec(int64_t input_dim, int64_t hidden = 128);
ModelSpec PurchaseMlpSpec(int64_t input_dim = 600, int64_t num_classes = 100);
ModelSpec FashionMnistCnnSpec(Activation activation = Activation::kTanh);
ModelSpec BayesPaperCnnSpec(int64_t num_classes = 10, int64_t input_channels = 1,
                            int64_t input_side = 28);

// Each layer's per-example output shape (index = layer index), after
// validating the spec as DpModel::Create does.
Result<std::vector<std::vector<int64_t>>> LayerOutputShapes(const ModelSpec& spec);

// What one forward pass recorded, per trainable layer k (in order):
// its input activation a_k (detached) and its output z_k (in the graph).
struct ForwardTrace {
  std::vector<torch::Tensor> inputs;
  std::vector<torch::Tensor> outputs;
};

// A model with its parameters. Move-only: copies would alias the
// parameters; use Clone() for an independent copy.
class DpModel {
 public:
  // Validates the spec (shapes chain from input_shape to {num_classes}) and
  // initialises the parameters from `seed`.
  static Result<DpModel> Create(const ModelSpec& spec, uint64_t seed);

  DpModel(DpModel&&) = default;
  DpModel& operator=(DpModel&&) = default;
  DpModel(const DpModel&) = delete;
  DpModel& operator=(const DpModel&) = delete;

  const ModelSpec& spec() const { return spec_; }
  // Trainable parameters in layer order: W_1, b_1, W_2, b_2, ...
  const std::vector<torch::Tensor>& parameters() const { return parameters_; }
  int64_t num_parameters() const;
  // Indices into spec().layers of the trainable layers.
  const std::vector<size_t>& trainable_layers() const { return trainable_layers_; }

  // An independent deep copy.
  Result<DpModel> Clone() const;
  // Overwrites the parameters (shapes must match).
  Status SetParameters(const std::vector<torch::Tensor>& values);
  // Moves the parameters to `device` (values kept; new leaf tensors that
  // require gradients). DP-SGD trains there and moves them back to the CPU
  // (mechanisms/dpsgd.h); every other function here expects CPU tensors.
  Status MoveTo(const torch::Device& device);

  // x as float32 of shape (N, input_shape...): checks the shape and that
  // every value is finite ("x contains a non-finite value in row 17").
  Result<torch::Tensor> PrepareInputs(const torch::Tensor& x) const;
  // y as int64 of shape (n): one label in [0, num_classes) per row.
  Result<torch::Tensor> PrepareLabels(const torch::Tensor& y, int64_t n) const;

  // Logits (B, num_classes) of prepared inputs; records the trace if
  // non-null. Unchecked hot path: may throw c10::Error (callers guard).
  torch::Tensor Forward(const torch::Tensor& x, ForwardTrace* trace = nullptr) const;

 private:
  DpModel() = default;
  ModelSpec spec_;
  std::vector<torch::Tensor> parameters_;
  std::vector<size_t> trainable_layers_;
};

// Logits (N, num_classes), computed without gradients in chunks.
Result<torch::Tensor> Logits(const DpModel& model, const torch::Tensor& x);
// Cross-entropy -log softmax(logits)_y per example, float64 (N). The
// log-softmax is taken in float64, so losses near 0 keep their precision.
// Membership-inference attacks and Epsilon* use these.
Result<torch::Tensor> PerExampleLosses(const DpModel& model, const torch::Tensor& x,
                                       const torch::Tensor& y);
// Fraction of rows whose argmax logit equals the label.
Result<double> Accuracy(const DpModel& model, const torch::Tensor& x, const torch::Tensor& y);

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_DP_MODEL_H_
