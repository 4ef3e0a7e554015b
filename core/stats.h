// Descriptive statistics of samples, shared by every study and benchmark.
// Each returns NaN for a sample too small for it (empty; one value for the
// standard deviation and the correlation) instead of failing.
#ifndef PRIVBENCH_CORE_STATS_H_
#define PRIVBENCH_CORE_STATS_H_

#include <vector>

namespace privbench {

// Arithmetic mean, summed in index order (so the bytes do not depend on a
// library's summation).
double Mean(const std::vector<double>& x);

// Sample standard deviation (divisor n - 1).
double SampleSd(const std::vector<double>& x);

// Median: the middle value, or the mean of the two middle values.
double Median(std::vector<double> x);

// The p-quantile (p in [0, 1]) with linear interpolation between order
// statistics (Hyndman & Fan type 7, NumPy's default); NaN for p outside
// [0, 1].
double Quantile(std::vector<double> x, double p);

// Pearson's correlation of two samples of equal length (NaN if the lengths
// differ or either sample is constant).
double Correlation(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace privbench

#endif  // PRIVBENCH_CORE_STATS_H_
