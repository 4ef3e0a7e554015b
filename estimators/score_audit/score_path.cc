#include "estimators/score_audit/score_path.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "core/quote.h"

namespace privbench {
namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string JoinExtensions(const std::vector<std::string>& extensions) {
  std::string out;
  for (size_t i = 0; i < extensions.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == extensions.size() ? " or " : ", ") + extensions[i];
  }
  return out;
}

// realpath(path), or an error naming the path.
Result<std::string> Resolve(const std::string& path, const std::string& what) {
  char* resolved = realpath(path.c_str(), nullptr);
  if (resolved == nullptr) return Error(what + ": cannot read it: " + std::strerror(errno));
  std::string out(resolved);
  std::free(resolved);
  return out;
}

}  // namespace

Status CheckScorePathText(const std::string& path, const std::string& argument) {
  const size_t nul = path.find('\0');
  if (nul != std::string::npos) {
    return Error(argument + " must not contain a NUL byte, got one at byte " + std::to_string(nul) +
                 " of " + QuotePath(path));
  }
  if (path.size() > kMaxScorePathBytes) {
    return Error(argument + " must be at most " + std::to_string(kMaxScorePathBytes) +
                 " bytes, got " + std::to_string(path.size()));
  }
  return Status::Ok();
}

std::string QuotePath(const std::string& path) { return QuoteText(path, 160); }

ScoreFile::~ScoreFile() {
  if (fd_ >= 0) close(fd_);
}

ScoreFile::ScoreFile(ScoreFile&& other) noexcept { *this = std::move(other); }

ScoreFile& ScoreFile::operator=(ScoreFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    resolved_ = std::move(other.resolved_);
    size_ = other.size_;
    position_ = other.position_;
    device_ = other.device_;
    inode_ = other.inode_;
  }
  return *this;
}

Result<size_t> ScoreFile::Read(char* buffer, size_t n, const std::string& what) {
  const int64_t left = size_ - position_;
  if (left <= 0 || n == 0) return size_t{0};
  const size_t want = static_cast<size_t>(std::min<int64_t>(left, static_cast<int64_t>(n)));
  ssize_t got;
  do {
    got = read(fd_, buffer, want);
  } while (got < 0 && errno == EINTR);
  if (got < 0) return Error(what + ": read failed: " + std::strerror(errno));
  position_ += got;
  return static_cast<size_t>(got);
}

Result<ScoreFile> OpenScoreFile(const std::string& path, const std::vector<std::string>& extensions,
                                const std::string& what) {
  PB_ASSIGN_OR_RETURN(std::string resolved, Resolve(path, what));
  bool named_right = false;
  for (const std::string& e : extensions) named_right = named_right || EndsWith(resolved, e);
  if (!named_right) {
    return Error(what + " resolves to " + QuotePath(resolved) + ", which does not end in " +
                 JoinExtensions(extensions) +
                 ": a score file is read under its own name (a symbolic link to a file of "
                 "another kind is refused)");
  }
  ScoreFile f;
  f.fd_ = open(resolved.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (f.fd_ < 0) return Error(what + ": cannot open it: " + std::strerror(errno));
  struct stat st;
  if (fstat(f.fd_, &st) != 0) return Error(what + ": cannot stat it: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return Error(what + " is not a regular file");
  f.resolved_ = std::move(resolved);
  f.size_ = static_cast<int64_t>(st.st_size);
  f.device_ = st.st_dev;
  f.inode_ = st.st_ino;
  return f;
}

}  // namespace privbench
