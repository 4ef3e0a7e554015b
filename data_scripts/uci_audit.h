// The three UCI datasets of ML-Audit's grid that privbench cannot ship
// (Lu et al., NeurIPS 2022, Sec. 5; experiments/ml_audit/README.md): banknote, credit and
// thoracic. Users fetch them with data_scripts/download_uci_audit.py (pinned
// SHA-256 of each UCI original); without them the datasets are unavailable
// and loading fails naming that script. No stand-in exists.
//
// Formats (UCI repository dataset pages, cross-checked against public
// loaders that pin the same files, e.g. JackDunnNZ/UCIData.jl's
// banknote-authentication.jl and thoracic-surgery.jl):
//  - banknote (Lohweg 2013): data_banknote_authentication.txt, 1,372 rows
//    "variance,skewness,curtosis,entropy,class" of the wavelet-transformed
//    images, comma-separated, no header; class is an integer 0 or 1 (UCI
//    does not name the classes: the label is the column as is).
//  - thoracic (Zieba et al. 2013): ThoraricSurgery.arff (UCI's spelling),
//    an ARFF file of 470 rows and 17 attributes DGN, PRE4, PRE5, PRE6, PRE7,
//    PRE8, PRE9, PRE10, PRE11, PRE14, PRE17, PRE19, PRE25, PRE30, PRE32,
//    AGE, Risk1Yr. PRE4, PRE5, AGE are numeric; DGN, PRE6, PRE14 nominal
//    and one-hot encoded in the order the header declares their values
//    (feature "DGN=DGN3", ...); the {T,F} attributes become 1/0. Label:
//    Risk1Yr = T (death within one year of the surgery) is 1.
//  - credit (Yeh & Lien 2009): "default of credit card clients.xls", an
//    Excel 97 workbook of 30,000 clients; download_uci_audit.py converts it
//    to default_of_credit_card_clients.csv (header "ID,LIMIT_BAL,...,
//    default payment next month", then 25 integers a row) and writes
//    default_of_credit_card_clients.sha256 (sha256sum format: the .xls and
//    the CSV digests). The loader checks the record's .xls digest against
//    the pin and the CSV against the record. Features: the 23 columns
//    X1..X23 (LIMIT_BAL .. PAY_AMT6; the ID column is dropped). Label:
//    "default payment next month" = 1 (default).
// All three become a Dataset with the rows in `train` (file order), no
// population, num_classes = 2 and the raw feature values; the study scales
// them (ml_audit min-max scales every feature to [-1, 1], as for iris).
// Parsing is strict: a wrong field count, a value that is not a number (or
// not a declared nominal value), a label outside {0, 1}, a missing value
// "?" or a row count other than the published one is an error naming the
// file and line ("data_banknote_authentication.txt line 7: ...").
#ifndef PRIVBENCH_DATA_SCRIPTS_UCI_AUDIT_H_
#define PRIVBENCH_DATA_SCRIPTS_UCI_AUDIT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "data_scripts/data_files.h"
#include "data_scripts/dataset.h"

namespace privbench {

// banknote, credit, thoracic.
std::vector<std::string> UciAuditNames();
bool IsUciAuditName(const std::string& name);

// What one dataset is read from and what it must hold.
struct UciAuditFiles {
  std::string original;  // the UCI file, as download_uci_audit.py pins it
  std::string sha256;    // its pinned SHA-256
  std::string csv;       // credit: the converted CSV; empty otherwise
  std::string record;    // credit: the digest record; empty otherwise
  int64_t rows = 0;      // published row count
};
Result<UciAuditFiles> UciAuditFilesOf(const std::string& name);

struct UciAuditOptions {
  // Explicit directory (the study's --data_dir); empty: PRIVBENCH_DATA_DIR
  // (DIR/uci, then DIR). There is no default place.
  std::string data_dir;
  std::string flag = kDefaultDataDirFlag;
  // For tests only: the SHA-256 the original must have and the row count
  // (empty / 0: the pinned ones).
  std::string sha256;
  int64_t rows = 0;
};

// True if the directory search finds `name`'s files (whether they pass
// their checks is for LoadUciAudit to say).
bool UciAuditFilesFound(const std::string& name, const UciAuditOptions& options);

// Finds, verifies and parses `name`. Errors name the file, and a missing
// file says to run data_scripts/download_uci_audit.py.
Result<Dataset> LoadUciAudit(const std::string& name, const UciAuditOptions& options);

// The parsers (exposed for tests): `file` names the file in errors.
Result<Dataset> ParseBanknote(std::string_view text, const std::string& file);
Result<Dataset> ParseThoracicArff(std::string_view text, const std::string& file);
Result<Dataset> ParseCreditCsv(std::string_view text, const std::string& file);

}  // namespace privbench

#endif  // PRIVBENCH_DATA_SCRIPTS_UCI_AUDIT_H_
