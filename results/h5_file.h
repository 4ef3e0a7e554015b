// Study result files: HDF5, written atomically, with provenance.
//
// Layout of every file written here (readable from h5py without our code):
//   /meta                      group; attributes: format_version, study, paper,
//                              section, description, config (full effective
//                              configuration, "name = value" lines), seed,
//                              scale, git_commit, git_dirty (stamped into the
//                              binary at build time, core/provenance.h),
//                              command_line, library_versions, start_time,
//                              end_time, duration_seconds, cpu_seconds (the
//                              process's, while the file was open), checksum (below),
//                              plus any the study adds
//   /summary/<table>/          one group per summary table: one 1-D dataset per
//                              column (float64, int64 or UTF-8 strings, equal
//                              lengths); attributes "columns" (comma-separated
//                              order), "title", "caption"
//   /claims/<id>               one group per qualitative claim: attributes
//                              "statement", "source", "holds" (1/0),
//                              "evidence" (the numbers behind the verdict)
//   anything else              raw per-trial data (e.g. /<attack>/<estimator>/eps_lo)
//
// Integrity (format_version 2): /meta's "checksum" is "sha256:<hex>" of
// every group, dataset (shape and values) and attribute in name order,
// except the checksum itself; ResultReader::Open recomputes it and refuses a
// file that does not match (a bit flip is an error, not a table). Files of
// format_version 1 have no checksum and are read as before.
//
// Atomicity: the file is built in memory (HDF5's core driver) and written
// by Commit() under a temporary name in the destination directory, then
// renamed onto the final name after an fsync; an interrupted or failed run
// (a full disk included) leaves no partial file behind. Temporaries of
// processes killed while committing are removed by the next writer in that
// directory; readers never list them (they do not end in .h5).
// Object modification times are not recorded, so two runs with the same
// seed differ only in /meta's times (and so its checksum).
#ifndef PRIVBENCH_RESULTS_H5_FILE_H_
#define PRIVBENCH_RESULTS_H5_FILE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"

namespace privbench {

// Provenance of one study run, stored in /meta.
struct RunMeta {
  std::string study;        // the study's name: its folder under experiments/
  std::string paper;        // e.g. "Zanella-Beguelin et al., Bayesian Estimation of DP (ICML 2023)"
  std::string section;      // e.g. "Sec. 3.2; Table 1"
  std::string description;  // one line
  std::string config_text;  // FlagSet::ConfigText()
  std::string scale;        // "quick", "paper" or "test"
  uint64_t seed = 0;
  std::string command_line;
};

// A column of a summary table.
struct Column {
  std::string name;
  std::vector<double> doubles;  // exactly one of the three is used
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
  static Column Doubles(std::string name, std::vector<double> v) {
    Column c;
    c.name = std::move(name);
    c.doubles = std::move(v);
    return c;
  }
  static Column Ints(std::string name, std::vector<int64_t> v) {
    Column c;
    c.name = std::move(name);
    c.ints = std::move(v);
    return c;
  }
  static Column Strings(std::string name, std::vector<std::string> v) {
    Column c;
    c.name = std::move(name);
    c.strings = std::move(v);
    return c;
  }
  enum class Type { kDouble, kInt, kString };
  Type type() const {
    if (!strings.empty()) return Type::kString;
    if (!ints.empty()) return Type::kInt;
    return Type::kDouble;
  }
  size_t size() const { return strings.size() + ints.size() + doubles.size(); }
};

struct SummaryTable {
  std::string name;  // group name under /summary
  std::string title;
  std::string caption;  // what the rows are, units, caveats (e.g. surrogate data)
  std::vector<Column> columns;
};

// A qualitative claim of a paper and whether this run reproduces it.
struct Claim {
  std::string id;         // group name under /claims
  std::string statement;  // the claim as the paper makes it
  std::string source;     // paper and section
  bool holds = false;
  std::string evidence;  // the numbers behind the verdict
};

// What a study's report code writes for a claim its claims.json declares:
// the verdict and the numbers behind it. The statement, source and
// criterion come from the declaration (ResultWriter::DeclareClaims), never
// from the report code.
inline Claim ClaimEvidence(std::string id, bool holds, std::string evidence) {
  Claim c;
  c.id = std::move(id);
  c.holds = holds;
  c.evidence = std::move(evidence);
  return c;
}

// A claim as its study's claims.json declares it (the statement and source
// a result file carries for it; experiments/lib/framework/declared_claims.h).
struct DeclaredClaim {
  std::string statement;
  std::string source;
  std::string criterion;  // how the study judges it, in words (may be empty)
};

class ResultWriter {
 public:
  // Starts "<final_path>" in memory (the directory must exist and be
  // writable; Commit() writes it via "<final_path>.tmp.<pid>") and writes
  // /meta's start attributes. Fails with a message
  // naming the path if the directory is missing or unwritable.
  static Result<std::unique_ptr<ResultWriter>> Create(const std::string& final_path,
                                                      const RunMeta& meta);
  ~ResultWriter();  // removes the temporary file unless Commit() succeeded
  ResultWriter(const ResultWriter&) = delete;
  ResultWriter& operator=(const ResultWriter&) = delete;

  // Datasets; `path` like "/bayesian/eps_lo" (intermediate groups created).
  // `shape` defaults to 1-D; its product must equal values.size().
  Status WriteDoubles(const std::string& path, const std::vector<double>& values,
                      const std::vector<uint64_t>& shape = {});
  Status WriteInts(const std::string& path, const std::vector<int64_t>& values,
                   const std::vector<uint64_t>& shape = {});
  Status WriteStrings(const std::string& path, const std::vector<std::string>& values);
  Status WriteScalar(const std::string& path, double value);

  // Attributes on a group or dataset (a missing group is created).
  Status SetAttribute(const std::string& object_path, const std::string& name,
                      const std::string& value);
  Status SetAttribute(const std::string& object_path, const std::string& name, double value);
  Status SetAttribute(const std::string& object_path, const std::string& name, int64_t value);

  Status WriteTable(const SummaryTable& table);
  // Writes /claims/<id>. Once DeclareClaims() was called, `claim.id` must be
  // declared (else an error naming it) and the declared statement and source
  // (and criterion, when not empty) are written: the report code supplies
  // only holds and the evidence (ClaimEvidence), and a claim that carries a
  // statement or source of its own is an error naming it (a second copy of
  // the declaration that could drift from it).
  Status WriteClaim(const Claim& claim);
  void DeclareClaims(std::map<std::string, DeclaredClaim> declared) {
    declared_claims_ = std::move(declared);
    claims_declared_ = true;
  }

  // Records end time and duration, flushes, closes, fsyncs and renames onto
  // the final path. The writer is unusable afterwards.
  Status Commit();

  const std::string& final_path() const { return final_path_; }

 private:
  ResultWriter(std::string final_path, std::string temp_path, int64_t file_id);
  Result<int64_t> EnsureGroup(const std::string& path);
  Status WriteNumeric(const std::string& path, const void* data, int64_t mem_type,
                      int64_t file_type, size_t count, const std::vector<uint64_t>& shape);
  Status WriteScalarAttribute(const std::string& object_path, const std::string& name, int64_t type,
                              const void* data);

  std::string final_path_;
  std::string temp_path_;
  int64_t file_ = -1;
  bool committed_ = false;
  double start_seconds_ = 0.0;
  double start_cpu_seconds_ = 0.0;
  bool claims_declared_ = false;
  std::map<std::string, DeclaredClaim> declared_claims_;
};

// Reads result files defensively: types are checked (a float is never
// truncated to an integer), sizes are bounded before allocating, only
// regular files are opened, and the checksum is verified on Open. Every
// error names the file.
class ResultReader {
 public:
  static Result<std::unique_ptr<ResultReader>> Open(const std::string& path);
  ~ResultReader();
  ResultReader(const ResultReader&) = delete;
  ResultReader& operator=(const ResultReader&) = delete;

  bool Exists(const std::string& path) const;
  Result<std::vector<double>> ReadDoubles(const std::string& path) const;
  Result<std::vector<int64_t>> ReadInts(const std::string& path) const;
  Result<std::vector<std::string>> ReadStrings(const std::string& path) const;
  Result<std::vector<uint64_t>> Shape(const std::string& path) const;
  Result<std::string> ReadStringAttribute(const std::string& object_path,
                                          const std::string& name) const;
  Result<double> ReadDoubleAttribute(const std::string& object_path, const std::string& name) const;
  // Whether the object exists and carries the attribute (of any type).
  bool HasAttribute(const std::string& object_path, const std::string& name) const;
  // An integer attribute (a float one is an error).
  Result<int64_t> ReadIntAttribute(const std::string& object_path, const std::string& name) const;
  // /meta's scale: "test", "quick" or "paper"; anything else is an error.
  Result<std::string> Scale() const;
  // A claim's "holds": integer 0 or 1, anything else is an error naming it.
  Result<bool> ReadClaimHolds(const std::string& claim_group) const;
  // Names of the members of a group, sorted.
  Result<std::vector<std::string>> ListGroup(const std::string& group_path) const;

  Result<SummaryTable> ReadTable(const std::string& name) const;
  Result<std::vector<SummaryTable>> ReadAllTables() const;
  Result<std::vector<Claim>> ReadAllClaims() const;

  // "sha256:<hex>" of everything in the file except the /meta group (its
  // times, commit, host and checksum) and wall-clock timings (datasets whose
  // name contains "seconds", e.g. train_seconds): two runs of the same
  // computation have the same DataDigest (the paper-scale shelf check
  // compares them).
  Result<std::string> DataDigest() const;

  const std::string& path() const { return path_; }

 private:
  ResultReader(std::string path, int64_t file_id) : path_(std::move(path)), file_(file_id) {}
  Status VerifyChecksum() const;
  std::string path_;
  int64_t file_ = -1;
};

// Rewrites /meta's checksum of the file at `path` from its present content.
// The checksum proves that a file is whole, not who wrote it: anyone can
// edit a file and reseal it this way. The tests use it to reach the readers'
// other checks with edited files; verify takes every published value,
// tolerance and criterion from the repository's claims.json, never from a
// file, so a resealed file can change measurements but not the yardstick.
Status RecomputeChecksum(const std::string& path);

// Versions of the libraries linked into every study (Boost, HDF5, xtensor,
// compiler); studies using LibTorch append theirs.
std::string LibraryVersions();

}  // namespace privbench

#endif  // PRIVBENCH_RESULTS_H5_FILE_H_
