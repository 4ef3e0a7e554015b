#include "results/verify_lib.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "core/files.h"
#include "core/flags.h"
#include "core/format.h"
#include "core/json.h"
#include "core/validate.h"
#include "results/h5_file.h"
#include "results/shelf.h"

namespace privbench {

namespace {

// The claim's "inconclusive" attribute (absent or 0: judged; 1: inconclusive)
// and, when 1, its "holds_fraction" in [0, 1]; anything else (NaN, 0.5, a
// string, a missing or out-of-range fraction) is an error naming the file and
// the claim, never a verdict.
Result<std::optional<double>> InconclusiveFraction(const ResultReader& f, const std::string& g) {
  if (!f.HasAttribute(g, "inconclusive")) return std::optional<double>();
  PB_ASSIGN_OR_RETURN(double inconclusive, f.ReadDoubleAttribute(g, "inconclusive"));
  if (inconclusive == 0.0) return std::optional<double>();
  if (inconclusive != 1.0) {
    return Error(f.path() + ": claim '" + g + "': inconclusive must be 0 or 1, got " +
                 FormatSignificant(inconclusive, 6));
  }
  PB_ASSIGN_OR_RETURN(double fraction, f.ReadDoubleAttribute(g, "holds_fraction"));
  if (!(fraction >= 0.0 && fraction <= 1.0)) {
    return Error(f.path() + ": claim '" + g + "': holds_fraction must be in [0, 1], got " +
                 FormatSignificant(fraction, 6));
  }
  return std::optional<double>(fraction);
}

// The claim group's optional attribute undecidable (integer 0 or 1).
Result<bool> UndecidableFlag(const ResultReader& f, const std::string& g) {
  if (!f.HasAttribute(g, "undecidable")) return false;
  PB_ASSIGN_OR_RETURN(int64_t flag, f.ReadIntAttribute(g, "undecidable"));
  if (flag != 0 && flag != 1) {
    return Error(f.path() + ": claim '" + g + "': undecidable must be 0 or 1, got " +
                 std::to_string(flag));
  }
  return flag == 1;
}

std::string Strip(std::string s) {
  while (!s.empty() && (s.back() == '%' || s.back() == ' ')) s.pop_back();
  while (!s.empty() && s.front() == ' ') s.erase(s.begin());
  return s;
}

std::string FormatNumber(double x) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[64];
  if (x != 0.0 && (std::abs(x) >= 1e5 || std::abs(x) < 1e-3)) {
    std::snprintf(buf, sizeof(buf), "%.4g", x);
  } else {
    std::snprintf(buf, sizeof(buf), "%.4f", x);
  }
  return buf;
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string MdField(std::string s) {
  for (size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.replace(i, 1, "\\|");
  for (char& c : s) {
    if (c == '\n') c = ' ';
  }
  return s;
}

int ScaleRank(const std::string& s) {
  if (s == "test") return 0;
  if (s == "quick") return 1;
  if (s == "paper") return 2;
  return -1;
}

}  // namespace

Result<double> ParsePrinted(const std::string& text) {
  const std::string s = Strip(text);
  auto v = ParseDouble(s);
  if (!v.ok()) return Error("published value must be a printed number, got '" + text + "'");
  return *v;
}

double PrintedHalfUnit(const std::string& text) {
  const std::string s = Strip(text);
  const auto e = s.find_first_of("eE");
  const std::string mantissa = s.substr(0, e);
  const int exponent = e == std::string::npos ? 0 : std::atoi(s.c_str() + e + 1);
  const auto dot = mantissa.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(mantissa.size() - dot - 1);
  return 0.5 * std::pow(10.0, exponent - decimals);
}

Result<std::vector<PublishedEntry>> ParsePublishedList(const std::string& json_text) {
  nlohmann::json doc;
  try {
    doc = ParseJsonStrict<nlohmann::json>(json_text);  // a repeated key is an error
  } catch (const std::exception& e) {
    return Error(std::string("published list is not valid JSON: ") + e.what());
  }
  if (!doc.is_array()) return Error("published list must be a JSON array of entries");
  std::vector<PublishedEntry> out;
  std::map<std::string, int> seen;
  for (size_t i = 0; i < doc.size(); ++i) {
    const auto& j = doc[i];
    const std::string where = "entry " + std::to_string(i);
    auto str = [&](const char* key, bool required) -> Result<std::string> {
      if (!j.contains(key)) {
        if (required) return Error(where + ": missing field '" + key + "'");
        return std::string();
      }
      if (!j[key].is_string()) return Error(where + ": field '" + key + "' must be a string");
      return j[key].get<std::string>();
    };
    PublishedEntry e;
    PB_ASSIGN_OR_RETURN(e.id, str("id", true));
    const std::string at = "entry '" + e.id + "'";
    if (seen[e.id]++) return Error(at + ": duplicate id");
    PB_ASSIGN_OR_RETURN(e.study, str("study", true));
    PB_ASSIGN_OR_RETURN(e.quantity, str("quantity", true));
    PB_ASSIGN_OR_RETURN(e.source, str("source", true));
    PB_ASSIGN_OR_RETURN(e.kind, str("kind", true));
    PB_ASSIGN_OR_RETURN(e.h5, str("h5", true));
    PB_ASSIGN_OR_RETURN(e.finding, str("finding", false));
    PB_ASSIGN_OR_RETURN(e.lost_parameters, str("lost_parameters", false));
    PB_ASSIGN_OR_RETURN(e.note, str("note", false));
    PB_ASSIGN_OR_RETURN(e.requires_dataset, str("requires_dataset", false));
    PB_ASSIGN_OR_RETURN(e.dataset_command, str("dataset_command", false));
    PB_ASSIGN_OR_RETURN(e.out_of_scope, str("out_of_scope", false));
    if (!e.dataset_command.empty() && e.requires_dataset.empty()) {
      return Error(at + ": dataset_command needs requires_dataset");
    }
    PB_ASSIGN_OR_RETURN(std::string scale, str("min_scale", false));
    if (!scale.empty()) e.min_scale = scale;
    if (ScaleRank(e.min_scale) < 1) return Error(at + ": min_scale must be quick or paper");
    if (e.kind == "number") {
      PB_ASSIGN_OR_RETURN(e.published_text, str("published", true));
      PB_ASSIGN_OR_RETURN(double v, ParsePrinted(e.published_text));
      (void)v;
      if (j.contains("tolerance")) e.tolerance = j["tolerance"].get<double>();
      if (j.contains("rel_tolerance")) e.rel_tolerance = j["rel_tolerance"].get<double>();
      if (!(e.tolerance >= 0 && e.rel_tolerance >= 0)) {
        return Error(at + ": tolerances must be >= 0");
      }
    } else if (e.kind == "claim") {
      PB_ASSIGN_OR_RETURN(e.published_text, str("published", false));
      if (e.h5.rfind("/claims/", 0) != 0) return Error(at + ": a claim's h5 must be /claims/<id>");
    } else if (e.kind == "sensitivity") {
      // A declared variant of a claim under another reading: the study writes
      // it (its statement comes from here) and the report shows it; VerifyAll
      // gives it no verdict.
      if (e.h5.rfind("/claims/", 0) != 0) {
        return Error(at + ": a sensitivity claim's h5 must be /claims/<id>");
      }
    } else {
      return Error(at + ": kind must be number, claim or sensitivity, got '" + e.kind + "'");
    }
    out.push_back(std::move(e));
  }
  return out;
}

Status CheckUniqueIds(const std::vector<PublishedEntry>& entries) {
  std::map<std::string, int> seen;
  for (const auto& e : entries) {
    if (seen[e.id]++) return Error("duplicate published-number id '" + e.id + "'");
  }
  return Status::Ok();
}

namespace {

// The verdict of a comparable number `got` against the published `want`:
// within max(tolerance, rel_tolerance * |want|, half a printed unit) it
// reproduces; otherwise a documented finding, a scale below min_scale, or a
// mismatch.
void JudgeNumber(const PublishedEntry& e, double got, double want, bool scale_too_small,
                 const std::string& scale, Verdict& v) {
  const double tol =
      std::max({e.tolerance, e.rel_tolerance * std::abs(want), PrintedHalfUnit(e.published_text)});
  v.reproduced = FormatNumber(got);
  const double diff = got - want;
  const bool ok = std::isinf(want) ? (got == want) : std::abs(diff) <= tol;
  std::ostringstream detail;
  detail << "|diff| " << FormatNumber(std::abs(diff)) << " vs tolerance " << FormatNumber(tol);
  if (ok) {
    v.verdict = "reproduced";
    if (!e.finding.empty()) detail << "; note: " << e.finding;
  } else if (!e.finding.empty()) {
    v.verdict = "FINDING";
    detail << "; " << e.finding;
  } else if (scale_too_small) {
    v.verdict = "needs paper scale";
    detail << " (at scale " << scale << ")";
  } else {
    v.verdict = "MISMATCH";
    v.failure = true;
  }
  if (!e.note.empty()) detail << "; " << e.note;
  v.detail = detail.str();
}

// The verdict of a claim entry (a group with holds 0/1, evidence and,
// for claims judged by a test on random data, inconclusive); false when the
// file could not give one (malformed, missing).
bool JudgeClaim(const PublishedEntry& e, const ResultReader& f, const std::string& scale,
                bool scale_too_small, Verdict& v) {
  const std::string g = e.h5;
  if (f.Exists(g) && f.Shape(g).ok()) {
    v.verdict = "malformed";
    v.detail = g + " is a dataset; a claim is a group whose attribute holds is 0 or 1";
    v.failure = true;
    return false;
  }
  auto holds = f.ReadClaimHolds(g);
  if (!holds.ok() && f.Exists(g)) {
    // Present but not an integer 0/1 (e.g. NaN): an error, never a verdict.
    v.verdict = "malformed";
    v.detail = holds.message();
    v.failure = true;
    return false;
  }
  if (!holds.ok()) {
    v.verdict = scale_too_small ? "needs paper scale" : "missing";
    v.detail = holds.message();
    v.failure = !scale_too_small;
    return false;
  }
  v.reproduced = *holds ? "holds" : "does not hold";
  v.detail = f.ReadStringAttribute(g, "evidence").value_or("");
  // Below its min_scale a claim is not judged either way: what the
  // smaller run shows goes into the detail.
  if (scale_too_small) {
    v.verdict = "needs paper scale";
    v.detail =
        std::string(*holds ? "holds" : "does not hold") + " at scale " + scale + ": " + v.detail;
  } else {
    v.verdict = *holds ? "reproduced" : "not reproduced";
  }
  // A claim judged on random data whose test could not decide either
  // way at the study's replicates (attribute inconclusive = 1, with the
  // fraction of replicates / seeds on which it held): neither verdict.
  auto judged = InconclusiveFraction(f, g);
  if (!judged.ok()) {
    v.verdict = "malformed";
    v.detail = judged.message();
    v.failure = true;
    return false;
  }
  if (judged->has_value()) {
    v.reproduced = "holds on " + FormatSignificant(100.0 * **judged, 3) + "% of replicates";
    if (scale_too_small) {
      // Still "needs paper scale", but the smaller run's test decided
      // neither way: say so rather than "does not hold".
      v.detail = "inconclusive at scale " + scale + ": " +
                 f.ReadStringAttribute(g, "evidence").value_or("");
    } else {
      v.verdict = "inconclusive";
    }
  }
  // A claim the study's data cannot decide at all (attribute undecidable =
  // 1; the evidence says why): inconclusive too, never a verdict either way.
  auto undecidable = UndecidableFlag(f, g);
  if (!undecidable.ok()) {
    v.verdict = "malformed";
    v.detail = undecidable.message();
    v.failure = true;
    return false;
  }
  if (!scale_too_small && *undecidable) {
    v.verdict = "inconclusive";
    v.reproduced = "cannot be decided on these data";
  }
  if (!e.note.empty()) v.detail += "; " + e.note;
  return true;
}

}  // namespace

namespace {

// The file that judges a study's entries: its paper-scale shelf file when
// one exists (refused files are an error naming them), else its file in
// raw_dir.
struct StudyFile {
  std::unique_ptr<ResultReader> reader;
  std::string judged_from;  // DescribeResultFile
  std::string error;        // set when there is no reader
  bool present = false;     // the file exists (an error is then "malformed")
  bool shelf = false;
};

StudyFile OpenStudyFile(const std::string& study, const std::string& raw_dir,
                        const std::string& shelf_root) {
  StudyFile out;
  const std::string shelf = shelf_root.empty() ? "" : ShelfPath(shelf_root, study);
  if (!shelf.empty() && FileExists(shelf)) {
    out.present = out.shelf = true;
    auto r = OpenShelfFile(shelf, study);
    if (!r.ok()) {
      out.error = r.message();
      return out;
    }
    out.reader = std::move(r).value();
    out.judged_from =
        DescribeResultFile("experiments/" + study + "/paper/" + study + ".h5", *out.reader);
    return out;
  }
  const std::string path = raw_dir + "/" + study + ".h5";
  out.present = FileExists(path);
  auto r = ResultReader::Open(path);
  if (!r.ok()) {
    out.error = r.message();
    return out;
  }
  out.reader = std::move(r).value();
  out.judged_from = DescribeResultFile("results/raw/" + study + ".h5", *out.reader);
  return out;
}

}  // namespace

std::vector<Verdict> VerifyAll(const std::vector<PublishedEntry>& entries,
                               const std::string& raw_dir, const std::string& shelf_root) {
  std::map<std::string, StudyFile> files;
  std::vector<Verdict> out;
  for (const PublishedEntry& e : entries) {
    if (e.kind == "sensitivity") continue;  // declared for the study's writer, not judged
    Verdict v;
    v.entry_id = e.id;
    v.study = e.study;
    v.quantity = e.quantity;
    v.source = e.source;
    v.published = e.kind == "claim" && e.published_text.empty() ? "(claim)" : e.published_text;
    v.lost_parameters = e.lost_parameters;
    if (!files.count(e.study)) files[e.study] = OpenStudyFile(e.study, raw_dir, shelf_root);
    const StudyFile& study_file = files[e.study];
    if (!e.out_of_scope.empty()) {
      // Needs what privbench cannot provide (e.g. pretrained weights): said,
      // never judged.
      v.verdict = "out of scope";
      v.detail = e.out_of_scope;
      out.push_back(v);
      continue;
    }
    if (!study_file.reader && study_file.present) {
      // There but unreadable (damaged, checksum mismatch, not a regular
      // file, a refused shelf file): an error, never "missing" (which
      // --allow_missing forgives).
      v.verdict = "malformed";
      v.detail = study_file.error;
      v.failure = true;
      out.push_back(v);
      continue;
    }
    if (!study_file.reader) {
      v.verdict = "missing";
      v.detail = "run `bazel run //experiments/" + e.study + "` (" + study_file.error + ")";
      v.failure = true;
      out.push_back(v);
      continue;
    }
    v.judged_from = study_file.judged_from;
    const ResultReader& f = *study_file.reader;
    // A file without a valid /meta scale cannot be judged at all (it used to
    // turn every claim into "needs paper scale").
    auto checked_scale = f.Scale();
    if (!checked_scale.ok()) {
      v.verdict = "malformed";
      v.detail = checked_scale.message();
      v.failure = true;
      out.push_back(v);
      continue;
    }
    const std::string scale = *checked_scale;
    const bool scale_too_small = ScaleRank(scale) < ScaleRank(e.min_scale);
    const std::string provenance =
        f.ReadStringAttribute("/meta", "dataset_provenance").value_or("");
    const bool other_data = !e.requires_dataset.empty() && provenance != e.requires_dataset;
    auto other_data_verdict = [&](Verdict& verdict) {
      verdict.verdict = "surrogate data";
      verdict.failure = false;
      verdict.detail = "the published value is about " + e.requires_dataset + "; this run used " +
                       (provenance.empty() ? std::string("unrecorded data") : provenance) +
                       ", so it is shown, not compared" +
                       (e.dataset_command.empty() ? ""
                                                  : " (to judge it on " + e.requires_dataset +
                                                        ": " + e.dataset_command + ")") +
                       (verdict.detail.empty() ? "" : "; " + verdict.detail);
    };
    if (e.kind == "claim") {
      if (JudgeClaim(e, f, scale, scale_too_small, v) && other_data) other_data_verdict(v);
      out.push_back(v);
      continue;
    }
    auto values = f.ReadDoubles(e.h5);
    if (!values.ok() || values->size() != 1) {
      // Present but not one number (a string, two values, a group): the
      // file's fault at any scale, never "missing" or "needs paper scale".
      const bool present = f.Exists(e.h5);
      v.verdict = present ? "malformed" : scale_too_small ? "needs paper scale" : "missing";
      v.detail = values.ok()
                     ? e.h5 + " holds " + std::to_string(values->size()) + " values, not one number"
                     : values.message();
      v.failure = present || !scale_too_small;
      out.push_back(v);
      continue;
    }
    const double got = (*values)[0];
    const double want = ParsePrinted(e.published_text).value();
    // A value that cannot be compared (NaN, or infinite against a finite
    // published number) is the file's fault at a scale where the entry is
    // judged or awaiting paper scale: never a FINDING or MISMATCH with
    // "|diff| nan", nor a "needs paper scale" that hides it. (Surrogate-data
    // entries, shown but never compared, still show it: their stand-in data
    // may have no finite value, e.g. an interval end at +inf.)
    if (!std::isfinite(got) && !(std::isinf(want) && got == want) && !other_data) {
      v.verdict = "malformed";
      v.reproduced = FormatNumber(got);
      v.detail = e.h5 + " holds " + FormatNumber(got) + ", which cannot be compared with " +
                 e.published_text;
      v.failure = true;
      out.push_back(v);
      continue;
    }
    JudgeNumber(e, got, want, scale_too_small, scale, v);
    if (other_data) other_data_verdict(v);
    out.push_back(v);
  }
  for (Verdict& v : out) {
    if (v.verdict != "needs paper scale") continue;
    v.detail += "; no paper-scale shelf file: `tools/shelve.sh " + v.study +
                "` produces experiments/" + v.study + "/paper/" + v.study + ".h5";
  }
  return out;
}

std::string VerdictsMarkdown(const std::vector<Verdict>& verdicts) {
  std::ostringstream out;
  out << "| study | quantity | source | published | reproduced | verdict | detail | "
         "parameters the paper lost (our choice) | judged from |\n";
  out << "|---|---|---|---|---|---|---|---|---|\n";
  for (const Verdict& v : verdicts) {
    out << "| " << MdField(v.study) << " | " << MdField(v.quantity) << " | " << MdField(v.source)
        << " | " << MdField(v.published) << " | " << MdField(v.reproduced) << " | "
        << MdField(v.verdict) << " | " << MdField(v.detail) << " | " << MdField(v.lost_parameters)
        << " | " << MdField(v.judged_from) << " |\n";
  }
  return out.str();
}

std::string VerdictsCsv(const std::vector<Verdict>& verdicts) {
  std::ostringstream out;
  out << "id,study,quantity,source,published,reproduced,verdict,detail,lost_parameters,"
         "judged_from\n";
  for (const Verdict& v : verdicts) {
    out << CsvField(v.entry_id) << "," << CsvField(v.study) << "," << CsvField(v.quantity) << ","
        << CsvField(v.source) << "," << CsvField(v.published) << "," << CsvField(v.reproduced)
        << "," << CsvField(v.verdict) << "," << CsvField(v.detail) << ","
        << CsvField(v.lost_parameters) << "," << CsvField(v.judged_from) << "\n";
  }
  return out.str();
}

Result<std::vector<std::string>> FindClaimDeclarations(const std::string& spec) {
  std::vector<std::string> files;
  size_t start = 0;
  while (start <= spec.size()) {
    const size_t comma = std::min(spec.find(',', start), spec.size());
    const std::string item = spec.substr(start, comma - start);
    start = comma + 1;
    if (item.empty()) continue;
    if (IsRegularFile(item)) {
      files.push_back(item);
      continue;
    }
    if (!IsDirectory(item)) {
      return Error("--list: '" + item + "' is neither a claims file nor a directory");
    }
    PB_ASSIGN_OR_RETURN(std::vector<std::string> subdirs, ListSubdirectories(item));
    size_t found = 0;
    for (const std::string& sub : subdirs) {
      const std::string file = item + "/" + sub + "/claims.json";
      if (IsRegularFile(file)) {
        files.push_back(file);
        ++found;
      }
    }
    if (found == 0) return Error("--list: no <study>/claims.json under '" + item + "'");
  }
  if (files.empty()) return Error("--list names no claims file");
  return files;
}

}  // namespace privbench
