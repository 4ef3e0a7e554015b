#include "data_scripts/data_files.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "data_scripts/digests.h"

namespace privbench {

Result<ComputedDigests> ComputeDigests(std::string_view bytes) {
  ComputedDigests digests;
  PB_ASSIGN_OR_RETURN(digests.sha256, Sha256Hex(bytes));
  PB_ASSIGN_OR_RETURN(digests.md5, Md5Hex(bytes));
  return digests;
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
  PB_ASSIGN_OR_RETURN(const std::string sha, Sha256Hex(bytes));
  if (sha != expected.sha256) {
    return Error(where + ": SHA-256 mismatch: expected " + expected.sha256 + ", got " + sha +
                 "; the file is corrupt, truncated or a different version" + suffix);
  }
  if (!expected.md5.empty()) {
    PB_ASSIGN_OR_RETURN(const std::string md5, Md5Hex(bytes));
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

bool DataDirEnvironmentSet() {
  const char* env = std::getenv(kDataDirEnvVar);
  return env != nullptr && *env != '\0';
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

// Where FindDataDir looks, and how that source is described in its error.
struct Candidates {
  std::vector<std::string> dirs;
  std::string source;
};

Candidates CandidatesFor(const DataDirSearch& search) {
  if (!search.explicit_dir.empty()) {
    return {{search.explicit_dir}, search.flag + "=" + search.explicit_dir};
  }
  if (DataDirEnvironmentSet()) {
    const std::string env = std::getenv(kDataDirEnvVar);
    return {{JoinPath(env, search.name), env}, std::string(kDataDirEnvVar) + "=" + env};
  }
  return {search.defaults,
          "the default places (neither " + search.flag + " nor " + kDataDirEnvVar + " is set)"};
}

}  // namespace

Result<std::string> FindDataDir(const DataDirSearch& search) {
  const Candidates candidates = CandidatesFor(search);
  for (const auto& dir : candidates.dirs) {
    if (HasAll(dir, search.required_files)) {
      // Absolute, so that Dataset::source says where the data really came from.
      std::unique_ptr<char, void (*)(void*)> real(::realpath(dir.c_str(), nullptr), &std::free);
      return real ? std::string(real.get()) : dir;
    }
  }
  std::vector<std::string> searched;
  for (const auto& dir : candidates.dirs) {
    std::vector<std::string> missing;
    for (const auto& f : search.required_files) {
      if (!IsRegularFile(JoinPath(dir, f))) missing.push_back(f);
    }
    searched.push_back(dir + (IsDirectory(dir) ? " (missing " + Join(missing, ", ") + ")"
                                               : " (no such directory)"));
  }
  std::string message = search.name + " data not found: need " + Join(search.required_files, ", ") +
                        "; searched " + candidates.source + ": " + Join(searched, "; ");
  if (candidates.dirs.empty()) {
    message = search.name + " data not found: neither " + search.flag + " nor " + kDataDirEnvVar +
              " is set, and " + search.name + " has no default place";
  }
  message += ". Pass the directory with " + search.flag + "=DIR or set " + kDataDirEnvVar +
             "=DIR (the files in DIR or in DIR/" + search.name + ")";
  if (!search.how_to_get.empty()) message += "; " + search.how_to_get;
  return Error(message);
}

}  // namespace privbench
