// The header of a .npy file (NumPy's format, numpy/lib/format.py): a Python
// literal dict such as
//   {'descr': '<f8', 'fortran_order': False, 'shape': (3,), }
// parsed as the literal it is (not searched for substrings): exactly the
// keys 'descr' (a string), 'fortran_order' (True or False) and 'shape' (a
// tuple of non-negative integers: "()", "(3,)", "(2, 3)"), each exactly once
// (numpy's literal_eval would let a repeated key's last value win; a
// repeated key is refused here), in any order, separated by commas with an
// optional trailing comma, then only whitespace (numpy pads with spaces and
// ends with a newline). Strings are in single or double quotes without
// backslash escapes. Anything else is an error quoting at most a short
// prefix of the header.
#ifndef PRIVBENCH_ESTIMATORS_SCORE_AUDIT_NPY_HEADER_H_
#define PRIVBENCH_ESTIMATORS_SCORE_AUDIT_NPY_HEADER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace privbench {

struct NpyHeader {
  std::string descr;  // e.g. "<f8"
  bool fortran_order = false;
  std::vector<uint64_t> shape;  // each entry < 2^63
};

// Errors start with "the .npy header".
Result<NpyHeader> ParseNpyHeader(std::string_view text);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_SCORE_AUDIT_NPY_HEADER_H_
