// Typed command-line parameters for studies and tools.
//
// Every parameter of a study is registered here against a field of its
// config struct, so `--help` lists them all with their current (scale)
// defaults and `--name=value` overrides any of them. Unknown flags and
// malformed values are errors (the caller exits with code 2).
//
//   FlagSet flags("epsilon_star_identical", "Epsilon* Fig. 4 ...");
//   flags.AddInt("repetitions", &config.repetitions, "repetitions per n");
//   ParseOutcome out = flags.Parse(argc, argv);
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

class FlagSet {
 public:
  FlagSet(std::string program, std::string description);

  void AddInt(const std::string& name, int64_t* target, const std::string& help);
  void AddDouble(const std::string& name, double* target, const std::string& help);
  void AddString(const std::string& name, std::string* target, const std::string& help);
  void AddBool(const std::string& name, bool* target, const std::string& help);
  // Comma-separated lists: --n=1000,10000.
  void AddIntList(const std::string& name, std::vector<int64_t>* target, const std::string& help);
  void AddDoubleList(const std::string& name, std::vector<double>* target, const std::string& help);

  // Parses argv[1..]: --name=value, --name value, --flag (bools), --help.
  // On kError, error() holds the message; on kHelp the caller prints Help().
  ParseOutcome Parse(int argc, const char* const* argv);
  const std::string& error() const { return error_; }

  // Parse() for a tool's main(): after --help prints Help() to stdout and
  // returns 0; on an error prints "<program>: error: <message>" to stderr
  // and returns 2; returns nullopt when the tool should go on.
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
  struct Flag {
    std::string name;
    std::string type;
    std::string help;
    std::function<Status(const std::string&)> set;
    std::function<std::string()> get;
    bool is_bool = false;
  };
  void Add(Flag flag);

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

}  // namespace privbench

#endif  // PRIVBENCH_CORE_FLAGS_H_
