// N-dimensional arrays (xtensor) in study result files.
//
// A study that computes on a grid (settings x repetitions, FPR x FNR, ...)
// keeps it as an xt::xtensor and writes it here as one HDF5 dataset of the
// same shape (row-major, float64 or int64), so that h5py reads it back as an
// array of that shape. The bytes in the file are those of
// ResultWriter::WriteDoubles / WriteInts with the array's shape: an array
// written here and the same values written as a flat vector with that shape
// give identical datasets.
#ifndef PRIVBENCH_RESULTS_H5_ARRAY_H_
#define PRIVBENCH_RESULTS_H5_ARRAY_H_

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>
#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xeval.hpp>
#include <xtensor/xexpression.hpp>

#include "core/result.h"
#include "results/h5_file.h"

namespace privbench {

// Writes any xtensor expression of doubles or integers as a dataset of its
// shape (a 0-d expression becomes a 1-element 1-D dataset). Integer
// expressions are stored as int64, floating ones as float64.
template <class E>
Status WriteArray(ResultWriter& out, const std::string& path, const xt::xexpression<E>& array) {
  using Value = std::decay_t<typename E::value_type>;
  static_assert(std::is_arithmetic_v<Value>, "WriteArray writes numbers only");
  const auto& a = array.derived_cast();
  std::vector<uint64_t> shape(a.shape().begin(), a.shape().end());
  if (shape.empty()) shape.push_back(1);
  if constexpr (std::is_floating_point_v<Value>) {
    std::vector<double> flat(a.begin(), a.end());  // row-major traversal
    return out.WriteDoubles(path, flat, shape);
  } else {
    std::vector<int64_t> flat(a.begin(), a.end());
    return out.WriteInts(path, flat, shape);
  }
}

// Reads a float64 (T = double) or int64 (T = int64_t) dataset with its
// shape. Errors name the file and the dataset (ResultReader's messages).
template <class T>
Result<xt::xarray<T>> ReadArray(const ResultReader& in, const std::string& path) {
  static_assert(std::is_same_v<T, double> || std::is_same_v<T, int64_t>,
                "ReadArray reads float64 (double) or int64 datasets");
  PB_ASSIGN_OR_RETURN(std::vector<uint64_t> shape, in.Shape(path));
  std::vector<T> flat;
  if constexpr (std::is_same_v<T, double>) {
    PB_ASSIGN_OR_RETURN(flat, in.ReadDoubles(path));
  } else {
    PB_ASSIGN_OR_RETURN(flat, in.ReadInts(path));
  }
  std::vector<size_t> xshape(shape.begin(), shape.end());
  uint64_t count = 1;
  for (uint64_t d : shape) count *= d;
  if (count != flat.size()) {
    return Error(in.path() + ": " + path + " holds " + std::to_string(flat.size()) +
                 " values but its shape has " + std::to_string(count));
  }
  return xt::xarray<T>(xt::adapt(std::move(flat), xshape));
}

}  // namespace privbench

#endif  // PRIVBENCH_RESULTS_H5_ARRAY_H_
