// Verification of published numbers and claims against study result files.
//
// The lists are declarative: each study declares its published numbers and
// claims once, in experiments/<study>/claims.json (FindClaimDeclarations
// finds them; no study is named here); each entry is one of
//   kind "number": a published value, given as the string printed in the
//     paper ("6.25", "3.5e8"), checked against a scalar the study wrote at
//     `h5` within max(tolerance, rel_tolerance * |published|, half a unit of
//     the last printed digit);
//   kind "claim": a qualitative claim; `h5` names a /claims/<id> group whose
//     "holds" attribute the study computed from its raw data;
//   kind "sensitivity": a variant of a declared claim under another reading
//     (e.g. Epsilon* delta = 0): declared so that the study may write it
//     (with this statement) and the report show it; ParsePublishedList
//     returns it, VerifyAll gives it no verdict.
// Optional fields: "finding" (a documented reason why the paper's number is
// not expected to reproduce: a miss is then reported as FINDING, not a
// failure), "lost_parameters" (what the paper's text lost and what we
// chose), "min_scale" ("quick" default, or "paper": only checkable at the
// paper's scale; below it a number that misses and any claim get "needs
// paper scale", with what the smaller run showed in the detail), "requires_dataset" (e.g.
// "purchase100": the number is about that real dataset; a study run on other data — its /meta
// attribute "dataset_provenance", e.g. "purchase100-surrogate" — gets the verdict "surrogate data"
// with its own value shown, never a pass or a failure; "dataset_command" says how to get that
// dataset), "out_of_scope" (why privbench cannot judge the entry, e.g. it needs pretrained
// weights: verdict "out of scope", never a failure), "note".
//
// Verdicts: reproduced | FINDING | MISMATCH | not reproduced (claims: a
// finding, never a failure) | inconclusive (a claim on random data whose
// /claims/<id> group has the attribute inconclusive = 1: its test at the
// study's replicates decided neither way; holds_fraction = the fraction of
// replicates or seeds on which it held; never a failure) | missing | needs
// paper scale | surrogate data | out of scope |
// malformed (the file lacks a valid /meta scale, or a claim's "holds" is not
// an integer 0 or 1; a damaged file fails to open and is "missing"). The run
// fails (exit 1) on MISMATCH, malformed, or on missing when the study should
// have run.
#ifndef PRIVBENCH_RESULTS_VERIFY_LIB_H_
#define PRIVBENCH_RESULTS_VERIFY_LIB_H_

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace privbench {

struct PublishedEntry {
  std::string id;
  std::string study;
  std::string quantity;
  std::string source;
  std::string kind;  // "number" or "claim"
  std::string published_text;
  double tolerance = 0.0;
  double rel_tolerance = 0.0;
  std::string h5;
  std::string finding;
  std::string lost_parameters;
  std::string min_scale = "quick";
  std::string requires_dataset;
  std::string dataset_command;  // how to get requires_dataset (shown with "surrogate data")
  std::string out_of_scope;     // why privbench cannot judge it (verdict "out of scope")
  std::string note;
};

// Parses and validates the JSON list (messages name the entry and field).
// The one parser of claims.json: verify and the study binaries
// (experiments/lib/framework/declared_claims.h) both use it.
Result<std::vector<PublishedEntry>> ParsePublishedList(const std::string& json_text);

// Numeric value of a printed number ("6.25", "3.5e8", "8%"), and the
// half-unit of its last printed digit (0.005 for "6.25"; 0.05e8 for "3.5e8").
Result<double> ParsePrinted(const std::string& text);
double PrintedHalfUnit(const std::string& text);

struct Verdict {
  std::string entry_id;
  std::string study;
  std::string quantity;
  std::string source;
  std::string published;
  std::string reproduced;  // formatted value, or claim evidence
  std::string verdict;     // see above
  std::string detail;      // tolerance used, finding text, evidence
  std::string lost_parameters;
  std::string judged_from;  // the file, its scale, commit and date (shelf.h)
  bool failure = false;
};

// The claims.json files that `spec` names: a comma-separated list of
// files and directories; a directory stands for every <dir>/<sub>/claims.json
// (one level down, sorted by <sub>), so `experiments` finds every study's
// declaration. An item that is neither, or a directory holding none, is an
// error naming it.
Result<std::vector<std::string>> FindClaimDeclarations(const std::string& spec);

// Ids must be unique across all lists.
Status CheckUniqueIds(const std::vector<PublishedEntry>& entries);

// Checks every entry against its study's file: the paper-scale shelf file
// <shelf_root>/<study>/paper/<study>.h5 when it exists (results/shelf.h;
// every entry of that study is then judged from it, and a refused shelf
// file makes them "malformed"), else <raw_dir>/<study>.h5. An empty
// shelf_root reads raw_dir only.
std::vector<Verdict> VerifyAll(const std::vector<PublishedEntry>& entries,
                               const std::string& raw_dir, const std::string& shelf_root = "");

// Markdown and CSV renderings of the verdict table.
std::string VerdictsMarkdown(const std::vector<Verdict>& verdicts);
std::string VerdictsCsv(const std::vector<Verdict>& verdicts);

}  // namespace privbench

#endif  // PRIVBENCH_RESULTS_VERIFY_LIB_H_
