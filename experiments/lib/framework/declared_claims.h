// A study's claims.json compiled into its binary, so that the statement and
// source of every claim a study writes come from the one declaration that
// verify, the report page, the smoke tests and the docs also read.
//
// privbench_study (experiments/lib/study.bzl) generates, from
// experiments/<study>/claims.json, a translation unit holding one
// DeclaredClaimsRegistration; RunStudyMain looks the study's registration
// up by name, parses it, and hands the entries of kind "claim" to the
// result writer: a claim the report code writes must be declared (an
// undeclared id is an error naming it), and its statement ("quantity") and
// source are the declared ones, whatever the report code passed.
#ifndef PRIVBENCH_EXPERIMENTS_LIB_FRAMEWORK_DECLARED_CLAIMS_H_
#define PRIVBENCH_EXPERIMENTS_LIB_FRAMEWORK_DECLARED_CLAIMS_H_

#include <map>
#include <optional>
#include <string>

#include "core/result.h"
#include "results/h5_file.h"

namespace privbench {

// Registers `json` (the text of a study's claims.json) under `study` at
// static-initialisation time. One per study binary; a second registration
// of the same study keeps the first (and is reported by DeclaredClaimsJson).
class DeclaredClaimsRegistration {
 public:
  DeclaredClaimsRegistration(const char* study, const char* json);
};

// The registered claims.json text of `study`, if its binary carries one.
std::optional<std::string> DeclaredClaimsJson(const std::string& study);

// The entries of kind "claim" or "sensitivity" of a claims.json text, by the name of their
// /claims/<group> in the result file ("h5"): statement (the
// entry's "quantity"), source and criterion (its "note", may be empty).
// Entries of another study, a missing field or a repeated id are errors
// naming the entry.
Result<std::map<std::string, DeclaredClaim>> ParseDeclaredClaims(const std::string& study,
                                                                 const std::string& json);

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIB_FRAMEWORK_DECLARED_CLAIMS_H_
