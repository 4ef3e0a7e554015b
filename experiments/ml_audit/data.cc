#include "experiments/ml_audit/data.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/flags.h"
#include "data_scripts/adult.h"
#include "data_scripts/data_files.h"
#include "data_scripts/uci_audit.h"

namespace privbench::ml_audit {
namespace {

struct SklearnFile {
  std::string file;
  PinnedDigests digests;
  int positive_class;
  std::string what;
};

// scikit-learn 1.2.1 (Debian bookworm's python3-sklearn) copies.
Result<SklearnFile> SklearnFileOf(const std::string& name) {
  if (name == "iris") {
    return SklearnFile{"iris.csv",
                       {"f13ffa8fdd56fd8e6c8d16d4081a3fbd3114bcd0aae4256c43205169cd9d1449",
                        "d69a16ea6136ccb02a7c37c66375ebba"},
                       0,
                       "setosa (1) vs versicolor and virginica (0)"};
  }
  if (name == "breast_cancer") {
    return SklearnFile{"breast_cancer.csv",
                       {"fed3eb72d0575ef6192293f5093c6e801b1476b577d0386bf4455504522172ed",
                        "36ef90874abc87f4b4a8554dcc17cf6f"},
                       1,
                       "benign (1) vs malignant (0)"};
  }
  return Error("datasets: unknown dataset '" + name + "' (offline: iris, breast_cancer, adult)");
}

std::vector<std::string> Split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string field;
  while (std::getline(ss, field, ',')) out.push_back(field);
  return out;
}

Result<AuditDataset> LoadSklearn(const std::string& name, const std::string& data_dir) {
  PB_ASSIGN_OR_RETURN(SklearnFile f, SklearnFileOf(name));
  DataDirSearch search;
  search.name = "sklearn";
  search.explicit_dir = data_dir;
  search.required_files = {f.file};
  search.defaults = {"/usr/lib/python3/dist-packages/sklearn/datasets/data"};
  search.how_to_get = "install Debian's python3-sklearn (tools/setup.sh)";
  PB_ASSIGN_OR_RETURN(std::string dir, FindDataDir(search));
  const std::string path = JoinPath(dir, f.file);
  PB_ASSIGN_OR_RETURN(std::string bytes, ReadFileBytes(path));
  PB_RETURN_IF_ERROR(VerifyDigests(f.file, path, bytes, f.digests,
                                   "use scikit-learn 1.2.1's copy (Debian's python3-sklearn)"));
  AuditDataset ds;
  ds.name = name;
  ds.provenance = "scikit-learn 1.2.1 " + f.file + ": " + f.what;
  ds.source = dir;
  PB_ASSIGN_OR_RETURN(ComputedDigests digests, ComputeDigests(bytes));
  ds.checksums = DescribeDigests(f.file, digests);
  PB_ASSIGN_OR_RETURN(ds.data, ParseSklearnCsv(bytes, f.file, f.positive_class));
  return ds;
}

// A loader's training rows as the study's binary data; `labels` says which
// label is 1.
AuditDataset FromDataset(const std::string& name, const Dataset& d, const std::string& labels) {
  AuditDataset ds;
  ds.name = name;
  ds.provenance = d.provenance + " " + labels;
  ds.source = d.source;
  ds.checksums = d.checksums;
  ds.data.d = d.num_features;
  ds.data.x.assign(d.train_x.begin(), d.train_x.end());
  for (int64_t label : d.train_y) ds.data.y.push_back(static_cast<int>(label));
  return ds;
}

Result<AuditDataset> LoadAdultAudit(const std::string& data_dir) {
  AdultOptions options;
  options.data_dir = data_dir;
  PB_ASSIGN_OR_RETURN(Dataset adult, LoadAdult(options));
  return FromDataset("adult", adult, "training split (income > 50K = 1)");
}

// Label conventions: data_scripts/uci_audit.h.
Result<AuditDataset> LoadUciAuditForStudy(const std::string& name, const std::string& data_dir) {
  UciAuditOptions options;
  options.data_dir = data_dir;
  PB_ASSIGN_OR_RETURN(Dataset uci, LoadUciAudit(name, options));
  return FromDataset(name, uci,
                     name == "banknote" ? "(the file's class 1 = 1)"
                     : name == "credit" ? "(default payment next month = 1)"
                                        : "(Risk1Yr = T = 1)");
}

}  // namespace

std::vector<std::string> AuditDatasetNames() {
  std::vector<std::string> names = {"iris", "breast_cancer", "adult"};
  for (const std::string& name : UciAuditNames()) names.push_back(name);
  return names;
}

bool AuditDatasetPresent(const std::string& name, const std::string& data_dir) {
  if (!IsUciAuditName(name)) return true;
  UciAuditOptions options;
  options.data_dir = data_dir;
  return UciAuditFilesFound(name, options);
}

DatasetSelection SelectDatasets(const std::vector<std::string>& datasets,
                                const std::vector<std::string>& optional,
                                const std::string& data_dir) {
  DatasetSelection s;
  s.run = datasets;
  for (const std::string& name : optional) {
    (AuditDatasetPresent(name, data_dir) ? s.run : s.unavailable).push_back(name);
  }
  return s;
}

Result<BinaryData> ParseSklearnCsv(const std::string& text, const std::string& file,
                                   int positive_class) {
  std::stringstream in(text);
  std::string line;
  if (!std::getline(in, line)) return Error(file + ": empty file");
  const std::vector<std::string> header = Split(line);
  if (header.size() < 2) return Error(file + " line 1: expected 'n,d,...'");
  PB_ASSIGN_OR_RETURN(int64_t n, ParseInt(header[0]));
  PB_ASSIGN_OR_RETURN(int64_t d, ParseInt(header[1]));
  if (n < 1 || d < 1) return Error(file + " line 1: n and d must be >= 1");
  BinaryData data;
  data.d = d;
  for (int64_t i = 0; i < n; ++i) {
    const std::string where = file + " line " + std::to_string(i + 2);
    if (!std::getline(in, line))
      return Error(where + ": missing (header says " + header[0] + " rows)");
    const std::vector<std::string> fields = Split(line);
    if (static_cast<int64_t>(fields.size()) != d + 1) {
      return Error(where + ": expected " + std::to_string(d + 1) + " fields, got " +
                   std::to_string(fields.size()));
    }
    std::vector<double> row(d);
    for (int64_t j = 0; j < d; ++j) {
      Result<double> v = ParseDouble(fields[j]);
      if (!v.ok()) return Error(where + ": " + v.message());
      row[j] = *v;
    }
    PB_ASSIGN_OR_RETURN(int64_t label, ParseInt(fields[d]));
    data.Append(row, label == positive_class ? 1 : 0);
  }
  return data;
}

void ScaleToUnitBox(BinaryData* data) {
  for (int64_t j = 0; j < data->d; ++j) {
    double lo = INFINITY, hi = -INFINITY;
    for (int64_t i = 0; i < data->n(); ++i) {
      lo = std::min(lo, data->row(i)[j]);
      hi = std::max(hi, data->row(i)[j]);
    }
    for (int64_t i = 0; i < data->n(); ++i) {
      double& v = data->row(i)[j];
      v = hi > lo ? 2 * (v - lo) / (hi - lo) - 1 : 0.0;
    }
  }
}

Result<AuditDataset> LoadAuditDataset(const std::string& name, const std::string& data_dir) {
  Result<AuditDataset> ds = name == "adult"        ? LoadAdultAudit(data_dir)
                            : IsUciAuditName(name) ? LoadUciAuditForStudy(name, data_dir)
                                                   : LoadSklearn(name, data_dir);
  if (!ds.ok()) return Error("dataset " + name + ": " + ds.message());
  AuditDataset out = std::move(ds).value();
  ScaleToUnitBox(&out.data);
  PB_RETURN_IF_ERROR(CheckBinaryData(out.data));
  out.bounds = BoundsOf(out.data);
  return out;
}

}  // namespace privbench::ml_audit
