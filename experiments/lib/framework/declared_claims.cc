#include "experiments/lib/framework/declared_claims.h"

#include <map>
#include <string>
#include <utility>

#include "results/verify_lib.h"

namespace privbench {
namespace {

std::map<std::string, std::string>& Registry() {
  static auto* registry = new std::map<std::string, std::string>();
  return *registry;
}

}  // namespace

DeclaredClaimsRegistration::DeclaredClaimsRegistration(const char* study, const char* json) {
  Registry().emplace(study, json);
}

std::optional<std::string> DeclaredClaimsJson(const std::string& study) {
  const auto it = Registry().find(study);
  if (it == Registry().end()) return std::nullopt;
  return it->second;
}

Result<std::map<std::string, DeclaredClaim>> ParseDeclaredClaims(const std::string& study,
                                                                 const std::string& json) {
  auto entries = ParsePublishedList(json);
  if (!entries.ok()) return Error("claims.json of " + study + ": " + entries.message());
  const std::string prefix = "/claims/";
  std::map<std::string, DeclaredClaim> claims;
  for (const PublishedEntry& e : *entries) {
    if (e.study != study) {
      return Error("claims.json of " + study + ": entry '" + e.id + "' belongs to study '" +
                   e.study + "'");
    }
    if (e.kind != "claim" && e.kind != "sensitivity") continue;
    if (e.h5.size() == prefix.size()) {  // ParsePublishedList checked the prefix
      return Error("claims.json of " + study + ": claim '" + e.id + "' names no /claims/<group>");
    }
    DeclaredClaim claim{e.quantity, e.source, e.note};
    if (!claims.emplace(e.h5.substr(prefix.size()), std::move(claim)).second) {
      return Error("claims.json of " + study + ": claim group '" + e.h5 + "' is declared twice");
    }
  }
  return claims;
}

}  // namespace privbench
