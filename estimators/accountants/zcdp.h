// zCDP accounting as Jayaraman & Evans (USENIX Security 2019) apply it to
// DP-SGD (docs/studies.md, Accounting reference).
//
// WHAT: rho = E / (2 sigma^2) with E = T q epochs, i.e. each epoch is
// counted as one Gaussian mechanism of sensitivity 1 (rho = 1/(2 sigma^2),
// Bun & Steinke 2016, Prop. 1.6) composed E times (Lemma 1.7), with NO
// amplification by sampling; converted by
//   eps = rho + 2 sqrt(rho ln(1/delta))            (Bun & Steinke 2016, Prop. 1.3).
// ASSUMPTIONS: J&E's model, reproduced as is; that_which_we_call_private
// Sec. 4 notes that it ignores sampling and is therefore weaker than RDP.
// E = T q need not be an integer.
#ifndef PRIVBENCH_ESTIMATORS_ACCOUNTANTS_ZCDP_H_
#define PRIVBENCH_ESTIMATORS_ACCOUNTANTS_ZCDP_H_

#include <cstdint>

namespace privbench {

// rho = T q / (2 sigma^2). Preconditions (unchecked): a valid setting.
double JayaramanEvansZcdpRho(double sigma, double q, int64_t steps);

// rho + 2 sqrt(rho ln(1/delta)). Preconditions (unchecked): rho >= 0, delta in (0, 1).
double ZcdpToEpsilon(double rho, double delta);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_ACCOUNTANTS_ZCDP_H_
