// The C++ half of a study's paper-scale shelf check (results/shelf_check.py
// drives it; results/shelf.h says what the shelf is):
//
//   shelf_tool describe <study> <shelf file>
//       opens the file as the study's shelf file (OpenShelfFile: checksum,
//       study, scale, configuration flags) and prints its seed on the first
//       line, "sweep" or "single" on the second (a sweep's merged file
//       records sweep_part_versions), then its configuration without the
//       run-only flags;
//   shelf_tool config
//       prints the configuration text read on stdin without the run-only
//       flags (to compare with a binary's --print_config);
//   shelf_tool digest <file>...
//       prints "<DataDigest> <file>" for each result file (checksum verified).
//
// Exit status: 0, 1 on a refused or unreadable file (the message names it),
// 2 on a usage error.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>

#include "results/h5_file.h"
#include "results/shelf.h"

namespace {

using privbench::OpenShelfFile;
using privbench::ResultConfig;
using privbench::ResultReader;

int Fail(const std::string& message) {
  std::fprintf(stderr, "shelf_tool: error: %s\n", message.c_str());
  return 1;
}

int Describe(const std::string& study, const std::string& path) {
  auto file = OpenShelfFile(path, study);
  if (!file.ok()) return Fail(file.message());
  auto seed = (*file)->ReadStringAttribute("/meta", "seed");
  auto config = (*file)->ReadStringAttribute("/meta", "config");
  if (!seed.ok() || !config.ok()) return Fail(path + ": /meta lacks its seed or config");
  const bool sweep = (*file)->ReadStringAttribute("/meta", "sweep_part_versions").ok();
  std::printf("%s\n%s\n%s", seed->c_str(), sweep ? "sweep" : "single",
              ResultConfig(*config).c_str());
  return 0;
}

int Digest(int argc, char** argv) {
  for (int i = 2; i < argc; ++i) {
    auto file = ResultReader::Open(argv[i]);
    if (!file.ok()) return Fail(file.message());
    auto digest = (*file)->DataDigest();
    if (!digest.ok()) return Fail(digest.message());
    std::printf("%s %s\n", digest->c_str(), argv[i]);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "describe" && argc == 4) return Describe(argv[2], argv[3]);
  if (mode == "config" && argc == 2) {
    const std::string text{std::istreambuf_iterator<char>(std::cin), {}};
    std::printf("%s", ResultConfig(text).c_str());
    return 0;
  }
  if (mode == "digest" && argc > 2) return Digest(argc, argv);
  std::fprintf(stderr,
               "usage: shelf_tool describe <study> <file> | shelf_tool config < text | "
               "shelf_tool digest <file>...\n");
  return 2;
}
