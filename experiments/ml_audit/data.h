// The datasets of study ml_audit (README.md; ML-Audit, Lu et al.,
// NeurIPS 2022, Sec. 5): iris and breast cancer from the CSV files that ship
// with scikit-learn (Debian's python3-sklearn, sklearn/datasets/data/), and
// UCI Adult (data_scripts/adult.h, training split); banknote, credit and
// thoracic from the UCI files a user fetched with
// data_scripts/download_uci_audit.py (data_scripts/uci_audit.h: formats,
// encodings, pinned digests). Those three are unavailable offline: a run
// naming one without its files fails (exit 2) naming that script.
//
// Preprocessing: binary labels (iris: setosa = 1 vs the rest, the usual
// binarisation; breast cancer: benign = 1; Adult: income > 50K = 1;
// banknote: the file's class 1 = 1; credit: default next month = 1;
// thoracic: Risk1Yr = T, death within a year, = 1); every
// feature min-max scaled to [-1, 1] with the clean data's range. The box
// [-1, 1]^d and the ball of the largest row norm are then the data bounds of
// the mechanisms' proofs (fixed before poisoning, the same for D and D').
//
// Files are checked against pinned SHA-256 digests (scikit-learn 1.2.1's
// copies; Adult's and the other UCI files' digests): a mismatch is an error
// naming the file.
#ifndef PRIVBENCH_EXPERIMENTS_ML_AUDIT_DATA_H_
#define PRIVBENCH_EXPERIMENTS_ML_AUDIT_DATA_H_

#include <string>
#include <vector>

#include "core/result.h"
#include "mechanisms/classical/data.h"

namespace privbench::ml_audit {

struct AuditDataset {
  std::string name;        // one of AuditDatasetNames()
  std::string provenance;  // e.g. "sklearn-1.2.1 iris.csv (setosa vs rest)"
  std::string source;      // directory read
  std::string checksums;
  BinaryData data;
  DataBounds bounds;
};

// Every dataset the study reads: iris, breast_cancer, adult (offline), then
// banknote, credit, thoracic (once downloaded).
std::vector<std::string> AuditDatasetNames();

// True unless `name` is one of the downloadable ones and its files are not
// found (a file that is found but fails its checks counts as present: the
// load reports it).
bool AuditDatasetPresent(const std::string& name, const std::string& data_dir);

// The datasets a run reads: every one of `datasets`, then those of
// `optional` whose files are found (AuditDatasetPresent); `unavailable` lists
// the others of `optional`, which the run reports, never skips silently.
struct DatasetSelection {
  std::vector<std::string> run;
  std::vector<std::string> unavailable;
};
DatasetSelection SelectDatasets(const std::vector<std::string>& datasets,
                                const std::vector<std::string>& optional,
                                const std::string& data_dir);

// Loads and preprocesses `name` from `data_dir` (empty: PRIVBENCH_DATA_DIR,
// then the default places). Errors name the dataset and the file.
Result<AuditDataset> LoadAuditDataset(const std::string& name, const std::string& data_dir);

// Parses a scikit-learn CSV ("n,d,names..." header, then n rows of d
// features and an integer class); exposed for tests.
Result<BinaryData> ParseSklearnCsv(const std::string& text, const std::string& file,
                                   int positive_class);

// Min-max scales every feature to [-1, 1] in place.
void ScaleToUnitBox(BinaryData* data);

}  // namespace privbench::ml_audit

#endif  // PRIVBENCH_EXPERIMENTS_ML_AUDIT_DATA_H_
