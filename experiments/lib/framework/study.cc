#include "experiments/lib/framework/study.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <vector>

#include "core/files.h"
#include "core/provenance.h"
#include "core/threads.h"
#include "experiments/lib/framework/declared_claims.h"

namespace privbench {

Result<Scale> ParseScale(const std::string& text) {
  if (text == "quick" || text.empty()) return Scale::kQuick;
  if (text == "paper") return Scale::kPaper;
  if (text == "test") return Scale::kTest;
  return Error("scale must be quick, paper or test, got '" + text + "'");
}

std::string ScaleName(Scale scale) {
  switch (scale) {
    case Scale::kQuick:
      return "quick";
    case Scale::kPaper:
      return "paper";
    case Scale::kTest:
      return "test";
  }
  return "?";
}

std::string DefaultResultsDir() {
  const char* ws = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  return std::string(ws ? ws : ".") + "/results/raw";
}

namespace {

std::string JoinArgs(int argc, const char* const* argv) {
  std::string out;
  for (int i = 0; i < argc; ++i) out += (i ? " " : "") + std::string(argv[i]);
  return out;
}

}  // namespace

namespace internal {

int RunStudyMainImpl(const StudyInfo& info, const StudyHooks& hooks, int argc,
                     const char* const* argv) {
  const std::string prog = info.name;
  auto usage_error = [&](const std::string& msg) {
    std::fprintf(stderr, "%s: error: %s\n", prog.c_str(), msg.c_str());
    return 2;
  };

  auto scale = ParseScale(FlagSet::PeekValue(argc, argv, "scale"));
  if (!scale.ok()) return usage_error(scale.message());
  hooks.install_defaults(*scale);

  std::string scale_text = ScaleName(*scale);
  int64_t seed = 20231121;
  std::string output_dir = DefaultResultsDir();
  int64_t threads = 2;
  bool quiet = false;
  FlagSet flags(prog, info.description + "\nReproduces: " + info.paper + ", " + info.section);
  flags
      .AddString("scale", &scale_text,
                 "quick (default; minutes), paper (the paper's sizes) "
                 "or test (tiny, for smoke tests)")
      .OneOf({"quick", "paper", "test"});
  flags.AddInt("seed", &seed, "base seed; per-unit seeds derive from it (SplitMix64)").Min(0);
  flags.AddString("output_dir", &output_dir, "directory for <study>.h5").NonEmpty();
  flags.AddInt("threads", &threads, "worker threads").Min(1);
  flags.AddBool("quiet", &quiet, "no progress lines on stderr");
  bool print_config = false;
  flags.AddBool("print_config", &print_config,
                "print the effective configuration (as /meta config records it) and exit; "
                "runs and writes nothing");
  hooks.register_flags(flags);
  // A study's *_dir parameter without a declared directory rule names an
  // input directory: empty or existing, checked before any work (exit 2).
  // output_dir is checked below (its default is created).
  flags.DefaultDirectoryRules({"output_dir"});

  switch (flags.Parse(argc, argv)) {
    case ParseOutcome::kHelp:
      std::printf("%s", flags.Help().c_str());
      return 0;
    case ParseOutcome::kError:
      return usage_error(flags.error());
    case ParseOutcome::kOk:
      break;
  }
  // Each parameter's own constraints, then the study's rules across fields.
  if (Status s = flags.Validate(); !s.ok()) return usage_error(s.message());
  if (Status s = hooks.validate(); !s.ok()) return usage_error(s.message());
  if (print_config) {
    std::printf("%s", flags.ConfigText().c_str());
    return 0;
  }

  if (output_dir == DefaultResultsDir()) {
    if (Status s = MakeDirs(output_dir); !s.ok()) return usage_error(s.message());
  }
  // Before any work: the directory must exist (a file or a missing path is
  // refused naming the flag, never found out after the study ran).
  if (!IsDirectory(output_dir)) {
    return usage_error("--output_dir: '" + output_dir + "' is " +
                       (FileExists(output_dir) ? "not a directory" : "missing"));
  }
  RunMeta meta;
  meta.study = info.name;
  meta.paper = info.paper;
  meta.section = info.section;
  meta.description = info.description;
  meta.config_text = flags.ConfigText();
  meta.scale = ScaleName(*scale);
  meta.seed = static_cast<uint64_t>(seed);
  meta.command_line = JoinArgs(argc, argv);
  const std::string path = output_dir + "/" + info.name + ".h5";
  auto writer = ResultWriter::Create(path, meta);
  if (!writer.ok()) return usage_error(writer.message());
  if (const std::optional<std::string> json = DeclaredClaimsJson(info.name)) {
    auto declared = ParseDeclaredClaims(info.name, *json);
    if (!declared.ok()) {
      std::fprintf(stderr, "%s: error in the study's claims.json: %s\n", prog.c_str(),
                   declared.message().c_str());
      return 1;
    }
    writer.value()->DeclareClaims(std::move(*declared));
  }

  std::fprintf(stderr, "%s: scale=%s seed=%lld commit=%s%s\n%s", prog.c_str(), meta.scale.c_str(),
               static_cast<long long>(seed), BuildCommit().c_str(),
               BuildDirty() ? " (uncommitted changes)" : "", meta.config_text.c_str());
  StudyContext ctx(writer.value().get(), meta.seed, *scale, static_cast<int>(threads), quiet);
  if (Status s = hooks.run(ctx); !s.ok()) {
    std::fprintf(stderr, "%s: failed: %s (no result file written)\n", prog.c_str(),
                 s.message().c_str());
    return 1;
  }
  if (!ctx.skip_reason().empty()) {
    std::fprintf(stderr, "%s: no result file written: %s\n", prog.c_str(),
                 ctx.skip_reason().c_str());
    return 0;  // the writer's destructor removes its temporary file
  }
  if (Status s = writer.value()->Commit(); !s.ok()) {
    std::fprintf(stderr, "%s: failed: %s\n", prog.c_str(), s.message().c_str());
    return 1;
  }
  std::fprintf(stderr, "%s: wrote %s\n", prog.c_str(), path.c_str());
  return 0;
}

}  // namespace internal

Status ParallelFor(int64_t n, int threads, const std::function<Status(int64_t)>& fn) {
  std::atomic<int64_t> next{0};
  std::mutex mu;
  int64_t first_error_index = n;
  Status first_error;
  auto worker = [&] {
    for (int64_t i = next.fetch_add(1); i < n; i = next.fetch_add(1)) {
      Status s = fn(i);
      if (!s.ok()) {
        std::lock_guard<std::mutex> lock(mu);
        if (i < first_error_index) {
          first_error_index = i;
          first_error = s;
        }
      }
    }
  };
  const int t = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(threads, n)));
  RunOnThreads(t - 1, worker);
  return first_error;
}

}  // namespace privbench
