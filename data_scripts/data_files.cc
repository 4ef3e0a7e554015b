#include "data_scripts/data_files.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "data_scripts/md5.h"
#include "data_scripts/sha256.h"

namespace privbench {

ComputedDigests ComputeDigests(std::string_view bytes) {
  return ComputedDigests{Sha256Hex(bytes), Md5Hex(bytes)};
}

Result<std::string> ReadFileBytes(const std::string& path) {
  if (IsDirectory(path)) return Error("cannot read " + path + ": it is a directory");
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return Error("cannot open " + path + ": " + std::strerror(errno));
  std::string bytes;
  char buffer[1 << 16];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), f.get())) > 0) bytes.append(buffer, n);
  if (std::ferror(f.get())) return Error("error reading " + path + ": " + std::strerror(errno));
  return bytes;
}

Status VerifyDigests(std::string_view label, const std::string& path, std::string_view bytes,
                     const PinnedDigests& expected, std::string_view remedy) {
  if (expected.sha256.empty()) {
    return Error(std::string(label) + ": no pinned SHA-256 digest to verify " + path + " against");
  }
  const std::string where =
      std::string(label) + " (" + path + ", " + std::to_string(bytes.size()) + " bytes)";
  const std::string suffix = remedy.empty() ? std::string() : "; " + std::string(remedy);
  const std::string sha = Sha256Hex(bytes);
  if (sha != expected.sha256) {
    return Error(where + ": SHA-256 mismatch: expected " + expected.sha256 + ", got " + sha +
                 "; the file is corrupt, truncated or a different version" + suffix);
  }
  if (!expected.md5.empty()) {
    const std::string md5 = Md5Hex(bytes);
    if (md5 != expected.md5) {
      return Error(where + ": MD5 mismatch: expected " + expected.md5 + ", got " + md5 + suffix);
    }
  }
  return Status::Ok();
}

std::string DescribeDigests(std::string_view label, const ComputedDigests& digests) {
  return std::string(label) + " sha256=" + digests.sha256 + " md5=" + digests.md5;
}

std::string JoinPath(std::string_view a, std::string_view b) {
  if (a.empty()) return std::string(b);
  std::string out(a);
  if (out.back() != '/') out.push_back('/');
  out.append(b);
  return out;
}

std::vector<std::string> DefaultFallbackDirs(std::string_view name) {
  std::vector<std::string> dirs;
  const std::string rel = JoinPath("../shared/data", name);
  if (const char* ws = std::getenv("BUILD_WORKSPACE_DIRECTORY"); ws != nullptr && *ws != '\0') {
    dirs.push_back(JoinPath(ws, rel));
  }
  dirs.push_back(rel);
  dirs.push_back(JoinPath("/work/shared/data", name));
  return dirs;
}

namespace {
bool HasAll(const std::string& dir, const std::vector<std::string>& files) {
  if (!IsDirectory(dir)) return false;
  for (const auto& f : files) {
    if (!IsRegularFile(JoinPath(dir, f))) return false;
  }
  return true;
}

std::string Join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out.append(sep);
    out.append(items[i]);
  }
  return out;
}
}  // namespace

Result<std::string> FindDataDir(std::string_view name, const std::string& explicit_dir,
                                const std::vector<std::string>& required_files,
                                const std::vector<std::string>& fallbacks,
                                std::string_view how_to_get) {
  std::vector<std::string> candidates;
  std::string source;
  if (!explicit_dir.empty()) {
    candidates = {explicit_dir};
    source = "the given directory";
  } else if (const char* env = std::getenv(kDataDirEnvVar); env != nullptr && *env != '\0') {
    candidates = {JoinPath(env, name), std::string(env)};
    source = std::string(kDataDirEnvVar) + "=" + env;
  } else {
    candidates = fallbacks;
    source = "the fallback directories (" + std::string(kDataDirEnvVar) + " is not set)";
  }
  for (const auto& dir : candidates) {
    if (HasAll(dir, required_files)) {
      // Absolute, so that Dataset::source says where the data really came from.
      std::unique_ptr<char, void (*)(void*)> real(::realpath(dir.c_str(), nullptr), &std::free);
      return real ? std::string(real.get()) : dir;
    }
  }
  std::vector<std::string> searched;
  for (const auto& dir : candidates) {
    std::vector<std::string> missing;
    for (const auto& f : required_files) {
      if (!IsRegularFile(JoinPath(dir, f))) missing.push_back(f);
    }
    searched.push_back(dir + (IsDirectory(dir) ? " (missing " + Join(missing, ", ") + ")"
                                               : " (no such directory)"));
  }
  std::string message = std::string(name) + " data not found: need " + Join(required_files, ", ") +
                        "; searched " + source + ": " + Join(searched, "; ");
  if (!how_to_get.empty()) message += ". " + std::string(how_to_get);
  return Error(message);
}

}  // namespace privbench
