#include "core/files.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace privbench {

bool IsDirectory(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool IsRegularFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool FileExists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

Status MakeDirs(const std::string& path) {
  if (path.empty() || IsDirectory(path)) return Status::Ok();
  const auto slash = path.find_last_of('/');
  if (slash != std::string::npos && slash > 0) PB_RETURN_IF_ERROR(MakeDirs(path.substr(0, slash)));
  if (mkdir(path.c_str(), 0777) != 0 && errno != EEXIST) {
    return Error("cannot create directory '" + path + "': " + std::strerror(errno));
  }
  return Status::Ok();
}

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error("cannot read '" + path + "'");
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

Status WriteFileAtomic(const std::string& path, const std::string& contents) {
  const std::string temp = path + ".tmp." + std::to_string(getpid());
  const int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return Error("cannot write '" + temp + "': " + std::strerror(errno));
  size_t done = 0;
  while (done < contents.size()) {
    const ssize_t n = write(fd, contents.data() + done, contents.size() - done);
    if (n < 0) {
      close(fd);
      std::remove(temp.c_str());
      return Error("cannot write '" + temp + "': " + std::strerror(errno));
    }
    done += static_cast<size_t>(n);
  }
  const bool synced = fsync(fd) == 0;
  close(fd);
  if (!synced || std::rename(temp.c_str(), path.c_str()) != 0) {
    std::remove(temp.c_str());
    return Error("cannot replace '" + path + "'");
  }
  return Status::Ok();
}

Result<std::vector<std::string>> ListFiles(const std::string& dir, const std::string& suffix) {
  DIR* d = opendir(dir.c_str());
  if (!d) return Error("cannot list directory '" + dir + "'");
  std::vector<std::string> out;
  while (const dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        IsRegularFile(dir + "/" + name)) {
      out.push_back(name);
    }
  }
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

Result<std::vector<std::string>> ListSubdirectories(const std::string& dir) {
  DIR* d = opendir(dir.c_str());
  if (!d) return Error("cannot list directory '" + dir + "'");
  std::vector<std::string> out;
  while (const dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != ".." && IsDirectory(dir + "/" + name)) out.push_back(name);
  }
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace privbench
