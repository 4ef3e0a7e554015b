// The LibTorch boundary of the mechanisms/ package: every public function
// that calls LibTorch runs its body through GuardTorch(), which turns a
// c10::Error (or any other std::exception LibTorch lets through) into a
// privbench::Error naming the function, so nothing throws across the
// library boundary (the project's rule: errors are values, never exceptions;
// core/result.h).
//
// Also: TensorShapeText() for messages ("(500, 784)").
#ifndef PRIVBENCH_MECHANISMS_TORCH_BOUNDARY_H_
#define PRIVBENCH_MECHANISMS_TORCH_BOUNDARY_H_

#include <c10/util/Exception.h>
#include <torch/types.h>

#include <exception>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "core/result.h"

namespace privbench {

// "(500, 784)": the sizes of a tensor, for error messages.
inline std::string TensorShapeText(const torch::Tensor& t) {
  if (!t.defined()) return "(undefined)";
  std::string s = "(";
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (d > 0) s += ", ";
    s += std::to_string(t.size(d));
  }
  return s + ")";
}

// Runs `body` (returning Result<T> or Status) and converts exceptions thrown
// by LibTorch into an Error "LibTorch error in <where>: <message>".
template <typename F>
auto GuardTorch(std::string_view where, F&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const c10::Error& e) {
    return Error("LibTorch error in " + std::string(where) + ": " + e.what_without_backtrace());
  } catch (const std::exception& e) {
    return Error("error in " + std::string(where) + ": " + e.what());
  }
}

}  // namespace privbench

#endif  // PRIVBENCH_MECHANISMS_TORCH_BOUNDARY_H_
