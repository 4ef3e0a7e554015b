// The standard main() of a study: a typed config with a quick, a paper and
// a test scale; every field a command-line parameter; one HDF5 file out.
//
//   bazel run //experiments:foo -- --scale=paper --seed=7 --n=100000
//
// RunStudyMain():
//   1. reads --scale (quick by default) and installs that scale's defaults;
//   2. registers the common parameters (--scale, --seed, --output_dir,
//      --threads, --quiet) and the study's own, then parses argv:
//      --help prints every parameter with its current value (exit 0); an
//      unknown parameter or malformed value is an error (exit 2);
//   3. validates the config (a bad value is an error naming it, exit 2);
//      with --print_config, prints the configuration text /meta would
//      record and exits 0 (the paper-scale shelf check compares it);
//   4. opens <output_dir>/<study>.h5 atomically (an unwritable directory is
//      exit 2) and logs config, seed and git commit on stderr;
//   5. runs the study (a failure is exit 1, and no file is left behind);
//   6. commits the file (exit 0) — unless the study called
//      ctx.SkipOutput(reason), which exits 0 with no file (sharded sweeps).
// Default output_dir: $BUILD_WORKSPACE_DIRECTORY/results/raw under
// `bazel run`, else ./results/raw; created if missing.
#ifndef PRIVBENCH_EXPERIMENTS_LIB_FRAMEWORK_STUDY_H_
#define PRIVBENCH_EXPERIMENTS_LIB_FRAMEWORK_STUDY_H_

#include <cstdint>
#include <functional>
#include <string>

#include "core/flags.h"
#include "core/result.h"
#include "results/h5_file.h"

namespace privbench {

enum class Scale { kQuick, kPaper, kTest };
Result<Scale> ParseScale(const std::string& text);
std::string ScaleName(Scale scale);

struct StudyInfo {
  std::string name;         // file name <name>.h5 and the study's id in tables
  std::string paper;        // e.g. "Zanella-Beguelin et al., Bayesian Estimation of DP (ICML 2023)"
  std::string section;      // e.g. "Sec. 3.4, Fig. 4"
  std::string description;  // one line
};

// What a running study can use.
class StudyContext {
 public:
  StudyContext(ResultWriter* out, uint64_t seed, Scale scale, int threads, bool quiet)
      : out_(out), seed_(seed), scale_(scale), threads_(threads), quiet_(quiet) {}
  ResultWriter& out() { return *out_; }
  uint64_t seed() const { return seed_; }
  Scale scale() const { return scale_; }
  int threads() const { return threads_; }
  bool quiet() const { return quiet_; }  // suppress progress lines

  // Ends the run successfully WITHOUT writing <study>.h5 (e.g. one shard of a
  // sweep whose other shards are still pending). RunStudyMain prints the
  // reason and exits 0; nothing is left behind.
  void SkipOutput(std::string reason) { skip_reason_ = std::move(reason); }
  const std::string& skip_reason() const { return skip_reason_; }

 private:
  ResultWriter* out_;
  uint64_t seed_;
  Scale scale_;
  int threads_;
  bool quiet_;
  std::string skip_reason_;
};

template <typename Config>
struct Study {
  StudyInfo info;
  // Defaults of each scale.
  std::function<Config(Scale)> defaults;
  // Registers every field of the config as a parameter.
  std::function<void(FlagSet&, Config&)> register_flags;
  // Checks the values; errors name the parameter.
  std::function<Status(const Config&)> validate;
  // Runs the study, writing into ctx.out().
  std::function<Status(const Config&, StudyContext&)> run;
};

namespace internal {
// The non-template part of RunStudyMain, driven through type-erased hooks.
struct StudyHooks {
  std::function<void(Scale)> install_defaults;
  std::function<void(FlagSet&)> register_flags;
  std::function<Status()> validate;
  std::function<Status(StudyContext&)> run;
};
int RunStudyMainImpl(const StudyInfo& info, const StudyHooks& hooks, int argc,
                     const char* const* argv);
}  // namespace internal

template <typename Config>
int RunStudyMain(const Study<Config>& study, int argc, const char* const* argv) {
  Config config;
  internal::StudyHooks hooks;
  hooks.install_defaults = [&](Scale s) { config = study.defaults(s); };
  hooks.register_flags = [&](FlagSet& flags) { study.register_flags(flags, config); };
  hooks.validate = [&]() { return study.validate(config); };
  hooks.run = [&](StudyContext& ctx) { return study.run(config, ctx); };
  return internal::RunStudyMainImpl(study.info, hooks, argc, argv);
}

// Default directory for result files (see above).
std::string DefaultResultsDir();

// Runs fn(i) for i in [0, n) on `threads` threads. Work is handed out by an
// atomic counter; callers store results by index, so the output does not
// depend on scheduling. The first error (lowest i) is returned.
Status ParallelFor(int64_t n, int threads, const std::function<Status(int64_t)>& fn);

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIB_FRAMEWORK_STUDY_H_
