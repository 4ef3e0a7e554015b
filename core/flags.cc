#include "core/flags.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "core/files.h"
#include "core/validate.h"

namespace privbench {

Result<int64_t> ParseInt(const std::string& text) {
  if (text.empty()) return Error("expected an integer, got an empty value");
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno == ERANGE) return Error("integer out of range: '" + text + "'");
  if (end != text.c_str() + text.size()) return Error("expected an integer, got '" + text + "'");
  return static_cast<int64_t>(v);
}

Result<double> ParseDouble(const std::string& text) {
  if (text.empty()) return Error("expected a number, got an empty value");
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return Error("expected a number, got '" + text + "'");
  if (errno == ERANGE && (v > 1 || v < -1)) return Error("number out of range: '" + text + "'");
  return v;
}

namespace {
std::vector<std::string> SplitComma(const std::string& text) {
  std::vector<std::string> parts;
  std::string cur;
  std::istringstream in(text);
  while (std::getline(in, cur, ',')) parts.push_back(cur);
  if (!text.empty() && text.back() == ',') parts.push_back("");
  return parts;
}
template <typename T>
std::string JoinList(const std::vector<T>& xs) {
  std::string out;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (i) out += ",";
    if constexpr (std::is_same_v<T, double>) {
      out += FormatDouble(xs[i]);
    } else {
      out += std::to_string(xs[i]);
    }
  }
  return out;
}
}  // namespace

FlagSet::FlagSet(std::string program, std::string description)
    : program_(std::move(program)), description_(std::move(description)) {}

FlagSet::Flag FlagSet::MakeFlag(std::string name, std::string type, std::string help,
                                std::function<Status(const std::string&)> set,
                                std::function<std::string()> get) {
  Flag f;
  f.name = std::move(name);
  f.type = std::move(type);
  f.help = std::move(help);
  f.set = std::move(set);
  f.get = std::move(get);
  return f;
}

FlagRules FlagSet::Add(Flag flag) {
  index_[flag.name] = flags_.size();
  flags_.push_back(std::move(flag));
  return FlagRules(this, flags_.size() - 1);
}

namespace {
std::string ElementName(const std::string& name, bool is_list, size_t i) {
  return is_list ? name + "[" + std::to_string(i) + "]" : name;
}
template <typename T>
std::function<std::vector<double>()> AsNumbers(const T* target) {
  return [target] { return std::vector<double>{static_cast<double>(*target)}; };
}
template <typename T>
std::function<std::vector<double>()> ListAsNumbers(const std::vector<T>* target) {
  return [target] { return std::vector<double>(target->begin(), target->end()); };
}
template <typename T>
std::function<std::vector<std::string>()> ListAsTexts(const std::vector<T>* target) {
  return [target] {
    std::vector<std::string> out;
    for (const T& x : *target) {
      if constexpr (std::is_same_v<T, double>) {
        out.push_back(FormatDouble(x));
      } else {
        out.push_back(std::to_string(x));
      }
    }
    return out;
  };
}
}  // namespace

FlagRules& FlagRules::Numeric(std::string description, std::function<bool(double)> holds) {
  FlagSet::Flag& f = flags_->flags_[index_];
  f.constraint_text.push_back(description);
  const FlagSet* owner = flags_;
  const size_t index = index_;
  f.checks.push_back([owner, index, description, holds]() -> Status {
    const FlagSet::Flag& g = owner->flags_[index];
    const std::vector<double> xs = g.numbers();
    const std::vector<std::string> shown = g.texts();
    for (size_t i = 0; i < xs.size(); ++i) {
      if (!holds(xs[i])) {
        return Error(ElementName(g.name, g.is_list, i) + " must be " + description + ", got " +
                     shown[i]);
      }
    }
    return Status::Ok();
  });
  return *this;
}

FlagRules& FlagRules::Range(double lo, double hi) {
  return Numeric("in [" + FormatDouble(lo) + ", " + FormatDouble(hi) + "]",
                 [lo, hi](double x) { return x >= lo && x <= hi; });
}
FlagRules& FlagRules::OpenRange(double lo, double hi) {
  return Numeric("in (" + FormatDouble(lo) + ", " + FormatDouble(hi) + ")",
                 [lo, hi](double x) { return x > lo && x < hi; });
}
FlagRules& FlagRules::Min(double lo) {
  return Numeric(">= " + FormatDouble(lo), [lo](double x) { return x >= lo; });
}
FlagRules& FlagRules::Above(double lo) {
  return Numeric("> " + FormatDouble(lo), [lo](double x) { return x > lo; });
}
FlagRules& FlagRules::Max(double hi) {
  return Numeric("<= " + FormatDouble(hi), [hi](double x) { return x <= hi; });
}
FlagRules& FlagRules::Below(double hi) {
  return Numeric("< " + FormatDouble(hi), [hi](double x) { return x < hi; });
}
FlagRules& FlagRules::Finite() {
  return Numeric("finite", [](double x) { return std::isfinite(x); });
}

FlagRules& FlagRules::OneOf(std::vector<std::string> allowed) {
  FlagSet::Flag& f = flags_->flags_[index_];
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  f.constraint_text.push_back("one of " + list);
  const FlagSet* owner = flags_;
  const size_t index = index_;
  f.checks.push_back([owner, index, allowed, list]() -> Status {
    const FlagSet::Flag& g = owner->flags_[index];
    const std::vector<std::string> xs = g.texts();
    for (size_t i = 0; i < xs.size(); ++i) {
      if (std::find(allowed.begin(), allowed.end(), xs[i]) == allowed.end()) {
        return Error(ElementName(g.name, g.is_list, i) + " must be one of " + list + ", got '" +
                     xs[i] + "'");
      }
    }
    return Status::Ok();
  });
  return *this;
}

FlagRules& FlagRules::Satisfies(std::string description,
                                std::function<Status(const std::string&)> check) {
  FlagSet::Flag& f = flags_->flags_[index_];
  f.constraint_text.push_back(std::move(description));
  const FlagSet* owner = flags_;
  const size_t index = index_;
  f.checks.push_back([owner, index, check = std::move(check)]() -> Status {
    const FlagSet::Flag& g = owner->flags_[index];
    for (const std::string& text : g.texts()) {
      if (Status s = check(text); !s.ok()) return Error(g.name + ": " + s.message());
    }
    return Status::Ok();
  });
  return *this;
}

namespace {
// The nearest existing ancestor of a missing `path` ("." for a relative path
// with no existing prefix).
std::string NearestExistingAncestor(std::string path) {
  while (!path.empty() && !FileExists(path)) {
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    const size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    path = slash == 0 ? "/" : path.substr(0, slash);
  }
  return path.empty() ? "." : path;
}
}  // namespace

Status CheckExistingDirectory(const std::string& path) {
  if (path.empty() || IsDirectory(path)) return Status::Ok();
  return Error("'" + path + "' is " + (FileExists(path) ? "not a directory" : "missing") +
               " (expected an existing directory, or empty for the default)");
}

Status CheckCreatableDirectory(const std::string& path) {
  if (path.empty() || IsDirectory(path)) return Status::Ok();
  if (FileExists(path)) {
    return Error("'" + path + "' is not a directory (expected a directory, or empty)");
  }
  const std::string ancestor = NearestExistingAncestor(path);
  if (!IsDirectory(ancestor)) {
    return Error("'" + path + "' cannot be created: '" + ancestor + "' is not a directory");
  }
  if (access(ancestor.c_str(), W_OK | X_OK) != 0) {
    return Error("'" + path + "' cannot be created: '" + ancestor + "' is not writable");
  }
  return Status::Ok();
}

FlagRules& FlagRules::ExistingDirectoryOrEmpty() {
  flags_->flags_[index_].has_directory_rule = true;
  return Satisfies("empty (the default) or an existing directory", CheckExistingDirectory);
}

FlagRules& FlagRules::CreatableDirectoryOrEmpty() {
  flags_->flags_[index_].has_directory_rule = true;
  return Satisfies("empty (the default), an existing directory or one mkdir -p can create",
                   CheckCreatableDirectory);
}

void FlagSet::DefaultDirectoryRules(const std::vector<std::string>& except) {
  for (size_t i = 0; i < flags_.size(); ++i) {
    const Flag& f = flags_[i];
    const std::string suffix = "_dir";
    const bool is_dir = f.name.size() > suffix.size() &&
                        f.name.compare(f.name.size() - suffix.size(), suffix.size(), suffix) == 0;
    const bool skip = std::find(except.begin(), except.end(), f.name) != except.end();
    if (f.type == "string" && is_dir && !f.has_directory_rule && !skip) {
      FlagRules(this, i).ExistingDirectoryOrEmpty();
    }
  }
}

FlagRules& FlagRules::NonEmpty() {
  FlagSet::Flag& f = flags_->flags_[index_];
  f.constraint_text.push_back("non-empty");
  const FlagSet* owner = flags_;
  const size_t index = index_;
  f.checks.push_back([owner, index]() -> Status {
    const FlagSet::Flag& g = owner->flags_[index];
    const std::vector<std::string> xs = g.texts();
    if (xs.empty() || (!g.is_list && xs[0].empty())) return Error(g.name + " must be non-empty");
    return Status::Ok();
  });
  return *this;
}

FlagRules& FlagRules::EntriesMayRepeat() {
  flags_->flags_[index_].entries_may_repeat = true;
  return *this;
}

FlagRules& FlagRules::PairedWith(const std::string& other) {
  flags_->flags_[index_].paired_with = other;
  return *this;
}

FlagRules& FlagRules::DistinctGroupsOf(size_t k) {
  flags_->flags_[index_].group = std::max<size_t>(k, 1);
  return *this;
}

namespace {
std::string Tuple(const std::vector<std::string>& parts) {
  std::string out = "(";
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out + ")";
}
}  // namespace

// A list's repeated entry (or group, or pair with its partner list) is an
// error naming the parameter and the two positions.
Status FlagSet::CheckDistinct(const Flag& f) const {
  if (!f.is_list || f.entries_may_repeat) return Status::Ok();
  for (const Flag& g : flags_) {
    if (g.paired_with == f.name) return Status::Ok();  // g checks the pairs
  }
  std::vector<std::vector<std::string>> keys;
  const std::vector<std::string> xs = f.texts();
  const Flag* partner = nullptr;
  if (!f.paired_with.empty()) {
    const auto it = index_.find(f.paired_with);
    if (it == index_.end()) return Error(f.name + " is paired with unknown --" + f.paired_with);
    partner = &flags_[it->second];
    const std::vector<std::string> ys = partner->texts();
    for (size_t i = 0; i < std::min(xs.size(), ys.size()); ++i) keys.push_back({xs[i], ys[i]});
  } else {
    for (size_t i = 0; i + f.group <= xs.size(); i += f.group) {
      keys.emplace_back(xs.begin() + static_cast<std::ptrdiff_t>(i),
                        xs.begin() + static_cast<std::ptrdiff_t>(i + f.group));
    }
  }
  std::map<std::vector<std::string>, size_t> first;
  for (size_t i = 0; i < keys.size(); ++i) {
    const auto [it, fresh] = first.emplace(keys[i], i);
    if (fresh) continue;
    const std::string where =
        " (positions " + std::to_string(it->second) + " and " + std::to_string(i) + ")";
    if (partner != nullptr) {
      return Error(f.name + " and " + partner->name + " give the pair " + Tuple(keys[i]) +
                   " twice" + where + "; each pair must be distinct");
    }
    if (f.group > 1) {
      return Error(f.name + " repeats the group " + Tuple(keys[i]) + where + "; each group of " +
                   std::to_string(f.group) + " must be distinct");
    }
    return Error(f.name + " lists '" + keys[i][0] + "' twice" + where +
                 "; each entry must be distinct");
  }
  return Status::Ok();
}

Status FlagSet::Validate() const {
  for (const auto& f : flags_) {
    for (const auto& check : f.checks) PB_RETURN_IF_ERROR(check());
    PB_RETURN_IF_ERROR(CheckDistinct(f));
  }
  return Status::Ok();
}

FlagRules FlagSet::AddInt(const std::string& name, int64_t* target, const std::string& help) {
  Flag f = MakeFlag(
      name, "int", help,
      [target](const std::string& v) -> Status {
        PB_ASSIGN_OR_RETURN(*target, ParseInt(v));
        return Status::Ok();
      },
      [target] { return std::to_string(*target); });
  f.numbers = AsNumbers(target);
  f.texts = [target] { return std::vector<std::string>{std::to_string(*target)}; };
  return Add(std::move(f));
}

FlagRules FlagSet::AddDouble(const std::string& name, double* target, const std::string& help) {
  Flag f = MakeFlag(
      name, "float", help,
      [target](const std::string& v) -> Status {
        PB_ASSIGN_OR_RETURN(*target, ParseDouble(v));
        return Status::Ok();
      },
      [target] { return FormatDouble(*target); });
  f.numbers = AsNumbers(target);
  f.texts = [target] { return std::vector<std::string>{FormatDouble(*target)}; };
  return Add(std::move(f));
}

FlagRules FlagSet::AddString(const std::string& name, std::string* target,
                             const std::string& help) {
  Flag f = MakeFlag(
      name, "string", help,
      [target](const std::string& v) -> Status {
        *target = v;
        return Status::Ok();
      },
      [target] { return *target; });
  f.numbers = [] { return std::vector<double>{}; };
  f.texts = [target] { return std::vector<std::string>{*target}; };
  return Add(std::move(f));
}

FlagRules FlagSet::AddBool(const std::string& name, bool* target, const std::string& help) {
  Flag f = MakeFlag(
      name, "bool", help,
      [target](const std::string& v) -> Status {
        if (v == "true" || v == "1" || v.empty()) {
          *target = true;
        } else if (v == "false" || v == "0") {
          *target = false;
        } else {
          return Error("expected true or false, got '" + v + "'");
        }
        return Status::Ok();
      },
      [target] { return std::string(*target ? "true" : "false"); });
  f.is_bool = true;
  f.numbers = [] { return std::vector<double>{}; };
  f.texts = [target] { return std::vector<std::string>{*target ? "true" : "false"}; };
  return Add(std::move(f));
}

FlagRules FlagSet::AddIntList(const std::string& name, std::vector<int64_t>* target,
                              const std::string& help) {
  Flag f = MakeFlag(
      name, "int list", help,
      [target](const std::string& v) -> Status {
        std::vector<int64_t> out;
        for (const auto& part : SplitComma(v)) {
          PB_ASSIGN_OR_RETURN(int64_t x, ParseInt(part));
          out.push_back(x);
        }
        if (out.empty()) return Error("expected a comma-separated list, got an empty value");
        *target = out;
        return Status::Ok();
      },
      [target] { return JoinList(*target); });
  f.numbers = ListAsNumbers(target);
  f.texts = ListAsTexts(target);
  f.is_list = true;
  return Add(std::move(f));
}

FlagRules FlagSet::AddDoubleList(const std::string& name, std::vector<double>* target,
                                 const std::string& help) {
  Flag f = MakeFlag(
      name, "float list", help,
      [target](const std::string& v) -> Status {
        std::vector<double> out;
        for (const auto& part : SplitComma(v)) {
          PB_ASSIGN_OR_RETURN(double x, ParseDouble(part));
          out.push_back(x);
        }
        if (out.empty()) return Error("expected a comma-separated list, got an empty value");
        *target = out;
        return Status::Ok();
      },
      [target] { return JoinList(*target); });
  f.numbers = ListAsNumbers(target);
  f.texts = ListAsTexts(target);
  f.is_list = true;
  return Add(std::move(f));
}

FlagRules FlagSet::AddStringList(const std::string& name, std::vector<std::string>* target,
                                 const std::string& help) {
  Flag f = MakeFlag(
      name, "string list", help,
      [target](const std::string& v) -> Status {
        std::vector<std::string> out = SplitComma(v);
        if (out.empty()) return Error("expected a comma-separated list, got an empty value");
        *target = out;
        return Status::Ok();
      },
      [target] {
        std::string joined;
        for (const auto& s : *target) joined += (joined.empty() ? "" : ",") + s;
        return joined;
      });
  f.numbers = [] { return std::vector<double>{}; };
  f.texts = [target] { return *target; };
  f.is_list = true;
  return Add(std::move(f));
}

std::string FlagSet::PeekValue(int argc, const char* const* argv, const std::string& name) {
  const std::string eq = "--" + name + "=";
  const std::string bare = "--" + name;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind(eq, 0) == 0) return a.substr(eq.size());
    if (a == bare && i + 1 < argc) return argv[i + 1];
  }
  return "";
}

ParseOutcome FlagSet::Parse(int argc, const char* const* argv) {
  explicitly_set_.clear();
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") return ParseOutcome::kHelp;
    if (arg.rfind("--", 0) != 0) {
      error_ = "unexpected argument '" + arg + "' (parameters are --name=value; see --help)";
      return ParseOutcome::kError;
    }
    std::string name = arg.substr(2);
    std::string value;
    bool has_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    auto it = index_.find(name);
    if (it == index_.end()) {
      error_ = "unknown parameter --" + name + " (see --help for the list)";
      return ParseOutcome::kError;
    }
    if (std::find(explicitly_set_.begin(), explicitly_set_.end(), name) != explicitly_set_.end()) {
      error_ = "parameter --" + name + " is given more than once";
      return ParseOutcome::kError;
    }
    Flag& flag = flags_[it->second];
    if (flag.is_bool && has_value && value.empty()) {
      // "--flag" alone means true; "--flag=" is a missing value, not true.
      error_ = "bad value for --" + name + ": expected true or false, got ''";
      return ParseOutcome::kError;
    }
    if (!has_value && !flag.is_bool) {
      if (i + 1 >= argc) {
        error_ = "parameter --" + name + " needs a value";
        return ParseOutcome::kError;
      }
      value = argv[++i];
    }
    Status s = flag.set(value);
    if (!s.ok()) {
      error_ = "bad value for --" + name + ": " + s.message();
      return ParseOutcome::kError;
    }
    explicitly_set_.push_back(name);
  }
  return ParseOutcome::kOk;
}

std::optional<int> FlagSet::ParseForMain(int argc, const char* const* argv) {
  switch (Parse(argc, argv)) {
    case ParseOutcome::kHelp:
      std::printf("%s", Help().c_str());
      return 0;
    case ParseOutcome::kError:
      std::fprintf(stderr, "%s: error: %s\n", program_.c_str(), error_.c_str());
      return 2;
    case ParseOutcome::kOk:
      break;
  }
  if (Status valid = Validate(); !valid.ok()) {
    std::fprintf(stderr, "%s: error: %s\n", program_.c_str(), valid.message().c_str());
    return 2;
  }
  return std::nullopt;
}

std::string FlagSet::Help() const {
  std::ostringstream out;
  out << "usage: " << program_ << " [--name=value ...]\n\n" << description_ << "\n\nparameters:\n";
  for (const auto& f : flags_) {
    out << "  --" << f.name << "=<" << f.type << ">  (current: " << f.get() << ")\n      "
        << f.help;
    std::vector<std::string> constraints = f.constraint_text;
    std::string partner = f.paired_with;
    for (const auto& g : flags_) {
      if (g.paired_with == f.name) partner = g.name;
    }
    if (f.is_list && !f.entries_may_repeat) {
      constraints.push_back(!partner.empty() ? "pairs with --" + partner + " distinct"
                            : f.group > 1    ? "groups of " + std::to_string(f.group) + " distinct"
                                             : "entries distinct");
    }
    for (size_t i = 0; i < constraints.size(); ++i) {
      out << (i ? ", " : " [") << constraints[i];
    }
    out << (constraints.empty() ? "" : "]") << "\n";
  }
  out << "  --help\n      print this message\n";
  return out.str();
}

std::string FlagSet::ConfigText() const {
  std::string out;
  for (const auto& f : flags_) out += f.name + " = " + f.get() + "\n";
  return out;
}

}  // namespace privbench
