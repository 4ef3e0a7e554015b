// Number formatting for tables, claims and messages: one place, so every
// table of the suite prints numbers the same way.
#ifndef PRIVBENCH_CORE_FORMAT_H_
#define PRIVBENCH_CORE_FORMAT_H_

#include <string>

namespace privbench {

// Shortest decimal text that round-trips `x` ("1.5", "1e-05", "nan", "inf").
std::string FormatDouble(double x);

// `digits` significant digits, printf's %.*g ("0.123", "1.23e+04"); "nan",
// "inf", "-inf" for non-finite values.
std::string FormatSignificant(double x, int digits = 3);

// `digits` digits after the point, printf's %.*f; "nan", "inf", "-inf" for
// non-finite values.
std::string FormatFixed(double x, int digits);

// x rounded to `decimals` (0-8) decimal places, then printed by FormatDouble
// (so 0.25 stays "0.25", not "0.2500"); non-finite values as FormatDouble.
std::string FormatRounded(double x, int decimals);

}  // namespace privbench

#endif  // PRIVBENCH_CORE_FORMAT_H_
