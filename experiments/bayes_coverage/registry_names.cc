// Prints AllIntervalEstimatorNames(), one per line: the smoke test of
// bayes_coverage checks that the study covered every registered estimator
// without copying the registry's list.
#include <cstdio>

#include "estimators/interval_registry.h"

int main() {
  for (const std::string& name : privbench::AllIntervalEstimatorNames()) {
    std::printf("%s\n", name.c_str());
  }
  return 0;
}
