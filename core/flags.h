// Typed command-line parameters for studies and tools.
//
// Every parameter of a study is registered here against a field of its
// config struct, so `--help` lists them all with their current (scale)
// defaults and `--name=value` overrides any of them. Unknown flags and
// malformed values are errors (the caller exits with code 2).
//
//   FlagSet flags("epsilon_star_identical", "Epsilon* Fig. 4 ...");
//   flags.AddInt("repetitions", &config.repetitions, "repetitions per n").Min(1);
//   flags.AddDouble("alpha", &config.alpha, "significance").OpenRange(0, 1);
//   ParseOutcome out = flags.Parse(argc, argv);
//   Status valid = flags.Validate();  // every declared constraint
//
// A parameter's constraints (ranges, allowed values) are declared with the
// parameter, once: Validate() checks them against the current values (after
// the scale's defaults and the command line) with messages that name the
// parameter ("alpha must be in (0, 1), got 1.5"), and --help shows them. A
// study's own Validate() then holds only rules across several fields.
//
// The entries of every list parameter must be distinct (--epsilons=4,4 would
// run the same case twice): Validate() refuses a repeated entry, naming the
// parameter and both positions, unless the parameter declares otherwise:
// PairedWith() for two lists read position by position (their pairs must be
// distinct), DistinctGroupsOf(k) for a list read k entries at a time (its
// groups must be distinct), EntriesMayRepeat() where repeats mean something.
#ifndef PRIVBENCH_CORE_FLAGS_H_
#define PRIVBENCH_CORE_FLAGS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace privbench {

enum class ParseOutcome { kOk, kHelp, kError };

class FlagSet;

// The constraints of one registered parameter, declared by chaining on the
// value Add*() returns. Numeric constraints apply to every element of a list
// parameter (the message names the element: "n[2] must be >= 1, got 0");
// NaN fails every numeric constraint.
class FlagRules {
 public:
  FlagRules(FlagSet* flags, size_t index) : flags_(flags), index_(index) {}
  FlagRules& Range(double lo, double hi);      // lo <= x <= hi
  FlagRules& OpenRange(double lo, double hi);  // lo < x < hi
  FlagRules& Min(double lo);                   // x >= lo
  FlagRules& Above(double lo);                 // x > lo
  FlagRules& Max(double hi);                   // x <= hi
  FlagRules& Below(double hi);                 // x < hi
  FlagRules& Finite();                         // not NaN, not +-inf
  FlagRules& Probability() { return Range(0.0, 1.0); }
  // Strings (or every element of a list): one of `allowed`.
  FlagRules& OneOf(std::vector<std::string> allowed);
  // Strings and lists: not empty.
  FlagRules& NonEmpty();
  // Lists: entries may repeat (opts out of the default distinct-entries
  // check; say in the help why repeats are meaningful).
  FlagRules& EntriesMayRepeat();
  // Lists: this list and list `other` are read position by position; the
  // pairs (this[i], other[i]) must be distinct, the entries of each list may
  // repeat. Declared on one of the two.
  FlagRules& PairedWith(const std::string& other);
  // Lists: read k entries at a time; the groups must be distinct.
  FlagRules& DistinctGroupsOf(size_t k);
  // Strings: `check(text)` is Ok (e.g. a parser's status); `description`
  // goes into --help. Its error, prefixed with the parameter's name, is the
  // parameter's error (exit 2 before any work).
  FlagRules& Satisfies(std::string description, std::function<Status(const std::string&)> check);
  // Strings naming an input directory: empty (the study's default, e.g. a
  // fallback search) or an existing directory. A missing path or a regular
  // file is refused up front, naming the parameter.
  FlagRules& ExistingDirectoryOrEmpty();
  // Strings naming a directory the run creates and writes (mkdir -p): empty
  // (the default), an existing directory, or a missing path whose nearest
  // existing ancestor is a writable directory. A regular file on the path or
  // an unwritable ancestor is refused up front, naming the parameter.
  FlagRules& CreatableDirectoryOrEmpty();

 private:
  FlagRules& Numeric(std::string description, std::function<bool(double)> holds);
  FlagSet* flags_;
  size_t index_;
};

class FlagSet {
 public:
  FlagSet(std::string program, std::string description);
  // Constraints refer back to their FlagSet: it stays where it was made.
  FlagSet(const FlagSet&) = delete;
  FlagSet& operator=(const FlagSet&) = delete;

  FlagRules AddInt(const std::string& name, int64_t* target, const std::string& help);
  FlagRules AddDouble(const std::string& name, double* target, const std::string& help);
  FlagRules AddString(const std::string& name, std::string* target, const std::string& help);
  FlagRules AddBool(const std::string& name, bool* target, const std::string& help);
  // Comma-separated lists: --n=1000,10000.
  FlagRules AddIntList(const std::string& name, std::vector<int64_t>* target,
                       const std::string& help);
  FlagRules AddDoubleList(const std::string& name, std::vector<double>* target,
                          const std::string& help);
  FlagRules AddStringList(const std::string& name, std::vector<std::string>* target,
                          const std::string& help);

  // Checks every declared constraint against the current values; the first
  // violation (in registration order) is the error.
  Status Validate() const;

  // Every string parameter whose name ends in "_dir" and that declared no
  // directory rule gets ExistingDirectoryOrEmpty(): a directory parameter a
  // study forgot to declare is still checked before any work. Names in
  // `except` are left alone (a caller that checks them itself).
  void DefaultDirectoryRules(const std::vector<std::string>& except = {});

  // Parses argv[1..]: --name=value, --name value, --flag (bools), --help.
  // On kError, error() holds the message; on kHelp the caller prints Help().
  ParseOutcome Parse(int argc, const char* const* argv);
  const std::string& error() const { return error_; }

  // Parse() for a tool's main(): after --help prints Help() to stdout and
  // returns 0; on an error prints "<program>: error: <message>" to stderr
  // and returns 2; returns nullopt when the tool should go on.
  // Validate() runs after a successful parse (its error also exits 2).
  std::optional<int> ParseForMain(int argc, const char* const* argv);

  // Usage text listing every flag with its current value and help.
  std::string Help() const;
  // "name = value" lines for every flag, in registration order: the full
  // effective configuration, stored in result files.
  std::string ConfigText() const;
  // Names of flags given explicitly on the command line.
  const std::vector<std::string>& explicitly_set() const { return explicitly_set_; }

  // Value of `--name=` in argv without registering it (used to read
  // --scale before the scale's defaults are installed). Empty if absent.
  static std::string PeekValue(int argc, const char* const* argv, const std::string& name);

 private:
  friend class FlagRules;
  struct Flag {
    std::string name;
    std::string type;
    std::string help;
    std::function<Status(const std::string&)> set;
    std::function<std::string()> get;
    bool is_bool = false;
    // The value as numbers (numeric flags and lists) or texts (strings and
    // every flag's elements as written), for the constraints.
    std::function<std::vector<double>()> numbers;
    std::function<std::vector<std::string>()> texts;
    bool is_list = false;
    bool has_directory_rule = false;
    // Distinct entries (lists): groups of `group` entries must differ, or,
    // with `paired_with`, the pairs with that list; none when
    // entries_may_repeat (or when the partner list checks the pairs).
    bool entries_may_repeat = false;
    size_t group = 1;
    std::string paired_with;
    std::vector<std::string> constraint_text;  // for --help
    std::vector<std::function<Status()>> checks;
  };
  static Flag MakeFlag(std::string name, std::string type, std::string help,
                       std::function<Status(const std::string&)> set,
                       std::function<std::string()> get);
  FlagRules Add(Flag flag);
  Status CheckDistinct(const Flag& f) const;

  std::string program_;
  std::string description_;
  std::vector<Flag> flags_;
  std::map<std::string, size_t> index_;
  std::vector<std::string> explicitly_set_;
  std::string error_;
};

// Parsing helpers (exposed for tests): whole-string conversions that reject
// trailing junk, overflow and empty input.
Result<int64_t> ParseInt(const std::string& text);
Result<double> ParseDouble(const std::string& text);

// The checks behind ExistingDirectoryOrEmpty() and CreatableDirectoryOrEmpty()
// (exposed for tests and for callers that check paths outside a FlagSet).
Status CheckExistingDirectory(const std::string& path);
Status CheckCreatableDirectory(const std::string& path);

}  // namespace privbench

#endif  // PRIVBENCH_CORE_FLAGS_H_
