// UCI Adult as a categorical table over a PUBLIC domain, for the
// synthetic-data study (experiments/synthetic_data_mia): 13 attributes.
//
// The domain is fixed without looking at the records (synthesizers must
// never read it from the private sample):
//  - the 8 categorical columns keep the value lists of UCI's adult.names
//    (plus "?" for missing where the UCI files use it: workclass,
//    occupation, native-country), in adult.names order; native-country is
//    collapsed to {United-States, Mexico, other, ?} ("other": every further
//    country adult.names lists);
//  - the numeric columns are cut at round, public bin edges: age (-inf,25),
//    [25,35), [35,45), [45,55), [55,65), [65,inf); capital-gain {0, 1-4999,
//    >= 5000}; capital-loss {0, > 0}; hours-per-week [1,20), [20,35),
//    [35,41), [41,50), [50,inf) (adult.data requires >= 1); fnlwgt (a census weight) and
//    education-num (a copy of education) are dropped;
//  - income {<=50K, >50K}.
// A value outside adult.names' lists is an error naming the file, the line
// and the column (the pinned checksums make this unreachable for the UCI
// files; it guards modified copies).
#ifndef PRIVBENCH_DATA_SCRIPTS_ADULT_CATEGORICAL_H_
#define PRIVBENCH_DATA_SCRIPTS_ADULT_CATEGORICAL_H_

#include <string>
#include <vector>

#include "core/result.h"
#include "data_scripts/adult.h"
#include "data_scripts/categorical.h"

namespace privbench {

// The 13-attribute public domain above.
CategoricalDomain AdultCategoricalDomain();

// Codes of each record under AdultCategoricalDomain(); `file_name` names
// errors ("adult.data line 7: native-country 'Atlantis' is not in
// adult.names").
Result<CategoricalTable> DiscretiseAdult(const std::vector<AdultRecord>& records,
                                         const std::string& file_name);

struct AdultCategorical {
  CategoricalDomain domain;
  CategoricalTable train;  // adult.data's 32,561 records
  CategoricalTable test;   // adult.test's 16,281 records
  std::string source, checksums;
};

// Loads and verifies the UCI files (adult.h) and discretises both.
Result<AdultCategorical> LoadAdultCategorical(const AdultOptions& options = {});

}  // namespace privbench

#endif  // PRIVBENCH_DATA_SCRIPTS_ADULT_CATEGORICAL_H_
