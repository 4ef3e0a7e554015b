// epsilon_cli batch < requests.jsonl > responses.jsonl; see epsilon_cli.h.
#include <cstdio>
#include <iostream>
#include <string>

#include "cli/epsilon_cli.h"

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "--help" || mode == "-h" || mode == "help") {
    const std::string help = privbench::EpsilonCliHelp();
    if (std::fputs(help.c_str(), stdout) < 0 || std::fflush(stdout) != 0) return 1;
    return 0;
  }
  if (mode != "batch" || argc > 2) {
    std::fprintf(stderr, "epsilon_cli: usage: epsilon_cli batch < in.jsonl (see --help)\n");
    return 2;
  }
  std::ios::sync_with_stdio(false);
  return privbench::ServeBatch(std::cin, stdout);
}
