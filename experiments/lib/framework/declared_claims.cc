#include "experiments/lib/framework/declared_claims.h"

#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace privbench {
namespace {

std::map<std::string, std::string>& Registry() {
  static auto* registry = new std::map<std::string, std::string>();
  return *registry;
}

Result<std::string> StringField(const nlohmann::json& entry, const std::string& id,
                                const std::string& field, bool required) {
  if (!entry.contains(field)) {
    if (required) return Error("claims.json entry '" + id + "' has no \"" + field + "\"");
    return std::string();
  }
  if (!entry[field].is_string()) {
    return Error("claims.json entry '" + id + "': \"" + field + "\" must be a string");
  }
  return entry[field].get<std::string>();
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
  const nlohmann::json doc = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_array()) return Error("claims.json of " + study + " is not a JSON array");
  std::map<std::string, DeclaredClaim> claims;
  for (const nlohmann::json& entry : doc) {
    if (!entry.is_object() || !entry.contains("id") || !entry["id"].is_string()) {
      return Error("claims.json of " + study + ": an entry without a string \"id\"");
    }
    const std::string id = entry["id"].get<std::string>();
    PB_ASSIGN_OR_RETURN(std::string owner, StringField(entry, id, "study", true));
    if (owner != study) {
      return Error("claims.json of " + study + ": entry '" + id + "' belongs to study '" + owner +
                   "'");
    }
    PB_ASSIGN_OR_RETURN(std::string kind, StringField(entry, id, "kind", true));
    if (kind != "claim" && kind != "sensitivity") continue;
    PB_ASSIGN_OR_RETURN(std::string h5, StringField(entry, id, "h5", true));
    const std::string prefix = "/claims/";
    if (h5.compare(0, prefix.size(), prefix) != 0 || h5.size() == prefix.size()) {
      return Error("claims.json of " + study + ": claim '" + id + "' has \"h5\" '" + h5 +
                   "', not /claims/<group>");
    }
    DeclaredClaim claim;
    PB_ASSIGN_OR_RETURN(claim.statement, StringField(entry, id, "quantity", true));
    PB_ASSIGN_OR_RETURN(claim.source, StringField(entry, id, "source", true));
    PB_ASSIGN_OR_RETURN(claim.criterion, StringField(entry, id, "note", false));
    if (!claims.emplace(h5.substr(prefix.size()), std::move(claim)).second) {
      return Error("claims.json of " + study + ": claim group '" + h5 + "' is declared twice");
    }
  }
  return claims;
}

}  // namespace privbench
