// The datasets of study ml_audit (docs/studies.md D1; ML-Audit, Lu et al.,
// NeurIPS 2022, Sec. 5): iris and breast cancer from the CSV files that ship
// with scikit-learn (Debian's python3-sklearn, sklearn/datasets/data/), and
// UCI Adult (data_scripts/adult.h, training split). Credit, banknote and
// thoracic are not available offline (their rows in docs/studies.md D1 say
// so) and are rejected by the --datasets flag.
//
// Preprocessing: binary labels (iris: setosa = 1 vs the rest, the usual
// binarisation; breast cancer: benign = 1; Adult: income > 50K = 1); every
// feature min-max scaled to [-1, 1] with the clean data's range. The box
// [-1, 1]^d and the ball of the largest row norm are then the data bounds of
// the mechanisms' proofs (fixed before poisoning, the same for D and D').
//
// Files are checked against pinned SHA-256 digests (scikit-learn 1.2.1's
// copies; Adult's UCI digests): a mismatch is an error naming the file.
#ifndef PRIVBENCH_EXPERIMENTS_ML_AUDIT_DATA_H_
#define PRIVBENCH_EXPERIMENTS_ML_AUDIT_DATA_H_

#include <string>
#include <vector>

#include "core/result.h"
#include "mechanisms/classical/data.h"

namespace privbench {

struct AuditDataset {
  std::string name;        // iris | breast_cancer | adult
  std::string provenance;  // e.g. "sklearn-1.2.1 iris.csv (setosa vs rest)"
  std::string source;      // directory read
  std::string checksums;
  BinaryData data;
  DataBounds bounds;
};

std::vector<std::string> AuditDatasetNames();  // the offline ones

// Loads and preprocesses `name` from `data_dir` (empty: PRIVBENCH_DATA_DIR,
// then the default places). Errors name the dataset and the file.
Result<AuditDataset> LoadAuditDataset(const std::string& name, const std::string& data_dir);

// Parses a scikit-learn CSV ("n,d,names..." header, then n rows of d
// features and an integer class); exposed for tests.
Result<BinaryData> ParseSklearnCsv(const std::string& text, const std::string& file,
                                   int positive_class);

// Min-max scales every feature to [-1, 1] in place.
void ScaleToUnitBox(BinaryData* data);

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_ML_AUDIT_DATA_H_
