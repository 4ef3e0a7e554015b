#include "results/shelf.h"

#include <set>
#include <sstream>
#include <utility>

namespace privbench {

std::string ShelfPath(const std::string& shelf_root, const std::string& study) {
  return shelf_root + "/" + study + "/paper/" + study + ".h5";
}

bool IsRunOnlyFlag(const std::string& name) {
  static const std::set<std::string> kRunOnly = {
      "output_dir", "threads",           "quiet", "shard",        "parts_dir",
      "merge_only", "accept_parts_from", "units", "print_config", "data_dir",
  };
  return kRunOnly.count(name) > 0;
}

std::string ResultConfig(const std::string& config_text) {
  std::istringstream in(config_text);
  std::string line, out;
  while (std::getline(in, line)) {
    const std::string name = line.substr(0, line.find(" = "));
    if (!IsRunOnlyFlag(name)) out += line + "\n";
  }
  return out;
}

namespace {

// The first configuration flag a command line sets ("--epochs=3"), if any:
// flags other than the run-only ones, --scale and --seed.
std::string FirstConfigurationFlag(const std::string& command_line) {
  std::istringstream in(command_line);
  std::string token;
  in >> token;  // the binary
  while (in >> token) {
    if (token.rfind("--", 0) != 0) return token;  // a value given apart: not ours
    const std::string name = token.substr(2, token.find('=') - 2);
    if (name != "scale" && name != "seed" && !IsRunOnlyFlag(name)) return token;
  }
  return "";
}

}  // namespace

Result<std::unique_ptr<ResultReader>> OpenShelfFile(const std::string& path,
                                                    const std::string& study) {
  auto refused = [&](const std::string& why) {
    return Error("paper-scale shelf file " + path + " refused: " + why +
                 "; refresh it with tools/shelve.sh " + study);
  };
  auto file = ResultReader::Open(path);
  if (!file.ok()) return refused(file.message());
  const ResultReader& f = **file;
  const std::string name = f.ReadStringAttribute("/meta", "study").value_or("");
  if (name != study) return refused("it is the result file of study '" + name + "'");
  auto scale = f.Scale();
  if (!scale.ok()) return refused(scale.message());
  if (*scale != "paper") return refused("its scale is " + *scale + ", not paper");
  const std::string command = f.ReadStringAttribute("/meta", "command_line").value_or("");
  const std::string flag = FirstConfigurationFlag(command);
  if (!flag.empty()) {
    return refused("its run set " + flag + ", so its configuration is not the study's paper scale");
  }
  return std::move(file).value();
}

std::string DescribeResultFile(const std::string& display_path, const ResultReader& file) {
  const std::string scale = file.ReadStringAttribute("/meta", "scale").value_or("?");
  const std::string commit = file.ReadStringAttribute("/meta", "git_commit").value_or("unknown");
  const std::string end = file.ReadStringAttribute("/meta", "end_time").value_or("");
  return display_path + " (" + scale + " scale, commit " + commit.substr(0, 7) + ", " +
         end.substr(0, 10) + ")";
}

}  // namespace privbench
