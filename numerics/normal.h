// The standard normal distribution's log-CDF, accurate in both tails: what
// LiRA's Gaussian likelihoods and the exact Gaussian-DP trade-off need where
// Phi(z) underflows (z < -38) or rounds to 1 (z > 8).
#ifndef PRIVBENCH_NUMERICS_NORMAL_H_
#define PRIVBENCH_NUMERICS_NORMAL_H_

namespace privbench {

// Phi(z) = P(Z <= z), Z ~ N(0, 1) (erfc; 0 or 1 where it under/overflows).
double NormalCdf(double z);

// ln Phi(z): erfc above z = -30, below it the asymptotic Mills-ratio series
// (relative error < 1e-15 there); log1p near 1. -inf only for z = -inf.
double LogNormalCdf(double z);

}  // namespace privbench

#endif  // PRIVBENCH_NUMERICS_NORMAL_H_
