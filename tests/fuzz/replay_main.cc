// Runs a libFuzzer target's LLVMFuzzerTestOneInput once on every file of the
// directories (or files) given as arguments: the seed corpus as a regression
// test in the default (GCC) build, where libFuzzer itself is not available.
// Exits 1 if an argument cannot be read or holds no files, and if any input
// takes longer than --per_input_seconds=S (default 20): a slow input is a
// failure, as libFuzzer's -timeout makes it in fuzzing builds.
#include <dirent.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_target.h"

namespace {

std::vector<std::string> FilesOf(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return {};
  if (!S_ISDIR(st.st_mode)) return {path};
  std::vector<std::string> out;
  if (DIR* d = opendir(path.c_str())) {
    while (const dirent* e = readdir(d)) {
      if (e->d_name[0] != '.') out.push_back(path + "/" + e->d_name);
    }
    closedir(d);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  double limit_seconds = 20.0;
  const std::string flag = "--per_input_seconds=";
  int runs = 0, slow = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind(flag, 0) == 0) {
      limit_seconds = std::atof(arg.c_str() + flag.size());
      if (!(limit_seconds > 0)) {
        std::fprintf(stderr, "--per_input_seconds must be > 0, got '%s'\n", arg.c_str());
        return 2;
      }
      continue;
    }
    for (const std::string& file : FilesOf(arg)) {
      std::ifstream in(file, std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
      const auto start = std::chrono::steady_clock::now();
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (seconds > limit_seconds) {
        std::fprintf(stderr, "SLOW INPUT %s: %.1f s (limit %.1f s per input)\n", file.c_str(),
                     seconds, limit_seconds);
        ++slow;
      }
      ++runs;
    }
  }
  std::printf("replayed %d inputs, %d over the per-input time limit\n", runs, slow);
  return runs > 0 && slow == 0 ? 0 : 1;
}
