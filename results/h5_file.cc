#include "results/h5_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <hdf5.h>
#include <openssl/evp.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <boost/version.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <mutex>
#include <new>
#include <numeric>
#include <set>
#include <sstream>
#include <xtensor/xtensor_config.hpp>

#include "core/hdf5_guard.h"
#include "core/provenance.h"

namespace privbench {

namespace {

// The most values one dataset may hold for a reader to load it: sizes come
// from the file, and a damaged or hostile file must not make us allocate
// terabytes (2^28 float64 values are 2 GiB).
constexpr hssize_t kMaxDatasetValues = hssize_t{1} << 28;
// The format written and read: version 2 carries /meta's checksum.
constexpr int64_t kFormatVersion = 2;
// Deeper group nesting is refused.
constexpr int kMaxGroupDepth = 32;

double NowSeconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// User plus system CPU time of the whole process so far.
double ProcessCpuSeconds() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0.0;
  auto seconds = [](const timeval& t) { return t.tv_sec + 1e-6 * t.tv_usec; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

std::string IsoTime(double seconds) {
  std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// Splits "/a/b/c" into {"a", "b", "c"}.
std::vector<std::string> SplitPath(const std::string& path) {
  std::vector<std::string> parts;
  std::stringstream in(path);
  std::string part;
  while (std::getline(in, part, '/')) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

std::string ParentOf(const std::string& path) {
  const auto pos = path.find_last_of('/');
  return pos == 0 || pos == std::string::npos ? "/" : path.substr(0, pos);
}

hid_t Utf8StringType() {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, H5T_VARIABLE);
  H5Tset_cset(t, H5T_CSET_UTF8);
  return t;
}

// ---------------------------------------------------- reading, bounded

// The number of values of a dataset or attribute, refused past
// kMaxDatasetValues. `what` names it for messages.
Result<size_t> BoundedCount(hid_t space, const std::string& what) {
  return BoundedDatasetCount(space, kMaxDatasetValues, what, "a reader loads");
}

// A dataset must hold its data in this file: external raw storage (which
// could point at /etc/passwd) and virtual datasets (data from other files)
// are refused, and so is a dataset whose n values would need more memory
// than the load cap (core/hdf5_guard.h: kHdf5AllocationPerFileByte times the
// file's size; a result file stores its datasets contiguously and
// uncompressed, so its values take no more memory than the file has bytes,
// strings a pointer and a std::string each), e.g. a sparse chunked dataset
// declaring 2^28 values in an 81 KB file.
Status CheckDatasetSource(hid_t ds, size_t n, double bytes_per_value, const std::string& what) {
  Hdf5Handle dcpl(H5Dget_create_plist(ds), H5Pclose);
  if (!dcpl.ok()) return Error("cannot read the storage properties of " + what);
  PB_RETURN_IF_ERROR(CheckOwnStorage(dcpl.get(), what, "result files hold their own data"));
  PB_ASSIGN_OR_RETURN(const Hdf5LoadCap cap, Hdf5LoadCapOf(ds, what));
  const double need = static_cast<double>(n) * bytes_per_value;
  if (need > cap.bytes) {
    return Error(what + " declares " + std::to_string(n) + " values (" +
                 std::to_string(static_cast<uint64_t>(need)) + " bytes to load) in a file of " +
                 std::to_string(cap.file_size) + " bytes; a reader loads at most " +
                 std::to_string(static_cast<int>(kHdf5AllocationPerFileByte)) +
                 " times the file's size");
  }
  return Status::Ok();
}

// All values of a numeric dataset converted to T (mem_type).
template <typename T>
Result<std::vector<T>> ReadNumericValues(hid_t ds, hid_t mem_type, const std::string& what) {
  Hdf5Handle space(H5Dget_space(ds), H5Sclose);
  PB_ASSIGN_OR_RETURN(size_t n, BoundedCount(space.get(), what));
  PB_RETURN_IF_ERROR(CheckDatasetSource(ds, n, sizeof(T), what));
  std::vector<T> out;
  try {
    out.resize(n);
  } catch (const std::bad_alloc&) {
    return Error("out of memory reading " + what + " (" + std::to_string(n) + " values)");
  }
  if (n > 0 && H5Dread(ds, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0) {
    return Error("cannot read " + what);
  }
  return out;
}

// All values of a variable-length string dataset.
Result<std::vector<std::string>> ReadStringValues(hid_t ds, const std::string& what) {
  Hdf5Handle ftype(H5Dget_type(ds), H5Tclose);
  if (H5Tget_class(ftype.get()) != H5T_STRING || H5Tis_variable_str(ftype.get()) <= 0) {
    return Error(what + " is not a variable-length string dataset");
  }
  Hdf5Handle space(H5Dget_space(ds), H5Sclose);
  PB_ASSIGN_OR_RETURN(size_t n, BoundedCount(space.get(), what));
  PB_RETURN_IF_ERROR(CheckDatasetSource(ds, n, sizeof(char*) + sizeof(std::string), what));
  std::vector<char*> raw;
  std::vector<std::string> out;
  try {
    raw.assign(n, nullptr);
    out.reserve(n);
  } catch (const std::bad_alloc&) {
    return Error("out of memory reading " + what + " (" + std::to_string(n) + " strings)");
  }
  Hdf5Handle mtype(Utf8StringType(), H5Tclose);
  if (n > 0 && H5Dread(ds, mtype.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, raw.data()) < 0) {
    return Error("cannot read " + what);
  }
  for (char* p : raw) out.emplace_back(p ? p : "");
  if (n > 0) H5Dvlen_reclaim(mtype.get(), space.get(), H5P_DEFAULT, raw.data());
  return out;
}

// A scalar attribute's value, by class: a string, an int64 or a double.
struct AttributeValue {
  H5T_class_t cls = H5T_NO_CLASS;
  std::string text;
  int64_t integer = 0;
  double real = 0.0;
};

Result<AttributeValue> ReadAttributeValue(hid_t attr, const std::string& what) {
  Hdf5Handle space(H5Aget_space(attr), H5Sclose);
  if (H5Sget_simple_extent_npoints(space.get()) != 1) return Error(what + " is not a scalar");
  Hdf5Handle ftype(H5Aget_type(attr), H5Tclose);
  AttributeValue v;
  v.cls = H5Tget_class(ftype.get());
  if (v.cls == H5T_INTEGER) {
    if (H5Aread(attr, H5T_NATIVE_INT64, &v.integer) < 0) return Error("cannot read " + what);
  } else if (v.cls == H5T_FLOAT) {
    if (H5Aread(attr, H5T_NATIVE_DOUBLE, &v.real) < 0) return Error("cannot read " + what);
  } else if (v.cls == H5T_STRING && H5Tis_variable_str(ftype.get()) > 0) {
    Hdf5Handle mtype(Utf8StringType(), H5Tclose);
    char* raw = nullptr;
    if (H5Aread(attr, mtype.get(), &raw) < 0) return Error("cannot read " + what);
    v.text = raw ? raw : "";
    H5free_memory(raw);
  } else if (v.cls == H5T_STRING) {
    const size_t size = H5Tget_size(ftype.get());
    if (size == 0 || size > (size_t{1} << 24)) return Error(what + " has a bad string size");
    v.text.assign(size, '\0');
    if (H5Aread(attr, ftype.get(), v.text.data()) < 0) return Error("cannot read " + what);
    v.text.erase(std::find(v.text.begin(), v.text.end(), '\0'), v.text.end());
  } else {
    return Error(what + " has an unsupported type");
  }
  return v;
}

// Sorted names of the links in a group, or of an object's attributes.
std::vector<std::string> LinkNames(hid_t group) {
  std::vector<std::string> names;
  auto collect = [](hid_t, const char* name, const H5L_info_t*, void* data) -> herr_t {
    static_cast<std::vector<std::string>*>(data)->emplace_back(name);
    return 0;
  };
  H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect, &names);
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> AttributeNames(hid_t obj) {
  std::vector<std::string> names;
  auto collect = [](hid_t, const char* name, const H5A_info_t*, void* data) -> herr_t {
    static_cast<std::vector<std::string>*>(data)->emplace_back(name);
    return 0;
  };
  H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect, &names);
  std::sort(names.begin(), names.end());
  return names;
}

// ------------------------------------------------------------ checksum

// The /meta attribute holding the digest of everything else in the file.
constexpr char kChecksumAttribute[] = "checksum";

// SHA-256 (OpenSSL) over length-prefixed, tagged fields.
class Sha256 {
 public:
  Sha256() : ctx_(EVP_MD_CTX_new()) { EVP_DigestInit_ex(ctx_, EVP_sha256(), nullptr); }
  ~Sha256() { EVP_MD_CTX_free(ctx_); }
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void Field(char tag, const void* data, size_t size) {
    const uint64_t n = size;
    EVP_DigestUpdate(ctx_, &tag, 1);
    EVP_DigestUpdate(ctx_, &n, sizeof(n));
    if (size > 0) EVP_DigestUpdate(ctx_, data, size);
  }
  void Field(char tag, const std::string& s) { Field(tag, s.data(), s.size()); }
  std::string Hex() {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    EVP_DigestFinal_ex(ctx_, md, &size);
    static const char kDigits[] = "0123456789abcdef";
    std::string out = "sha256:";
    for (unsigned int i = 0; i < size; ++i) {
      out += kDigits[md[i] >> 4];
      out += kDigits[md[i] & 15];
    }
    return out;
  }

 private:
  EVP_MD_CTX* ctx_;
};

Status DigestAttributes(hid_t obj, const std::string& path, Sha256& d) {
  for (const std::string& name : AttributeNames(obj)) {
    if (path == "/meta" && name == kChecksumAttribute) continue;
    Hdf5Handle attr(H5Aopen(obj, name.c_str(), H5P_DEFAULT), H5Aclose);
    if (!attr.ok()) return Error("cannot open attribute '" + name + "' on '" + path + "'");
    PB_ASSIGN_OR_RETURN(
        AttributeValue v,
        ReadAttributeValue(attr.get(), "attribute '" + name + "' on '" + path + "'"));
    d.Field('a', name);
    if (v.cls == H5T_INTEGER) {
      d.Field('i', &v.integer, sizeof(v.integer));
    } else if (v.cls == H5T_FLOAT) {
      d.Field('f', &v.real, sizeof(v.real));
    } else {
      d.Field('s', v.text);
    }
  }
  return Status::Ok();
}

Status DigestDataset(hid_t ds, const std::string& path, Sha256& d) {
  const std::string what = "dataset '" + path + "'";
  Hdf5Handle space(H5Dget_space(ds), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0 || rank > 32) return Error(what + " has a bad rank");
  std::vector<hsize_t> dims(rank);
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  d.Field('r', dims.data(), dims.size() * sizeof(hsize_t));
  Hdf5Handle type(H5Dget_type(ds), H5Tclose);
  const H5T_class_t cls = H5Tget_class(type.get());
  if (cls == H5T_FLOAT) {
    PB_ASSIGN_OR_RETURN(auto v, ReadNumericValues<double>(ds, H5T_NATIVE_DOUBLE, what));
    d.Field('F', v.data(), v.size() * sizeof(double));
  } else if (cls == H5T_INTEGER) {
    PB_ASSIGN_OR_RETURN(auto v, ReadNumericValues<int64_t>(ds, H5T_NATIVE_INT64, what));
    d.Field('I', v.data(), v.size() * sizeof(int64_t));
  } else {
    PB_ASSIGN_OR_RETURN(auto v, ReadStringValues(ds, what));
    for (const std::string& x : v) d.Field('S', x);
  }
  return Status::Ok();
}

// A wall-clock measurement (a dataset or table column whose name contains
// "seconds": train_seconds, gof_seconds, a table's seconds column), which
// no rerun repeats.
bool IsTiming(const std::string& name) { return name.find("seconds") != std::string::npos; }

// Every group, dataset and attribute under `group`, in name order (the
// /meta group and the timings left out when skip_meta).
Status DigestGroup(hid_t group, const std::string& path, int depth, bool skip_meta, Sha256& d) {
  if (depth > kMaxGroupDepth) return Error("groups nested deeper than 32 at '" + path + "'");
  PB_RETURN_IF_ERROR(DigestAttributes(group, path, d));
  for (const std::string& name : LinkNames(group)) {
    const std::string child = (path == "/" ? "" : path) + "/" + name;
    if (skip_meta && (child == "/meta" || IsTiming(name))) continue;
    H5L_info_t link;
    if (H5Lget_info(group, name.c_str(), &link, H5P_DEFAULT) < 0 || link.type != H5L_TYPE_HARD) {
      return Error("'" + child + "' is not a hard link");
    }
    Hdf5Handle obj(H5Oopen(group, name.c_str(), H5P_DEFAULT), H5Oclose);
    if (!obj.ok()) return Error("cannot open '" + child + "'");
    // Each object of a result file has exactly one name. An object linked
    // twice (a hard-link DAG whose traversal doubles per level, or a cycle)
    // is refused, so every reader visits each object once.
    H5O_info_t info;
    if (H5Oget_info2(obj.get(), &info, H5O_INFO_BASIC) < 0) {
      return Error("cannot read the object header of '" + child + "'");
    }
    if (info.rc != 1) {
      return Error("'" + child + "' has " + std::to_string(info.rc) +
                   " hard links; every object of a result file has exactly one");
    }
    const H5I_type_t type = H5Iget_type(obj.get());
    if (type == H5I_GROUP) {
      d.Field('G', child);
      PB_RETURN_IF_ERROR(DigestGroup(obj.get(), child, depth + 1, skip_meta, d));
    } else if (type == H5I_DATASET) {
      d.Field('D', child);
      PB_RETURN_IF_ERROR(DigestDataset(obj.get(), child, d));
      PB_RETURN_IF_ERROR(DigestAttributes(obj.get(), child, d));
    } else {
      return Error("'" + child + "' is neither a group nor a dataset");
    }
  }
  return Status::Ok();
}

// "sha256:<hex>" of the file's whole content except /meta's checksum (or,
// with skip_meta, except all of /meta).
Result<std::string> ContentDigest(hid_t file, bool skip_meta = false) {
  Hdf5Handle root(H5Gopen2(file, "/", H5P_DEFAULT), H5Gclose);
  if (!root.ok()) return Error("cannot open the root group");
  Sha256 d;
  PB_RETURN_IF_ERROR(DigestGroup(root.get(), "/", 0, skip_meta, d));
  return d.Hex();
}

// ------------------------------------------------- temporary files

// Removes "<name>.h5.tmp.<pid>" files in `dir` left by processes that are
// gone (killed during Commit's write): the pid is not alive and nobody holds
// the file's lock (Commit holds it while writing). Once per directory and
// process.
void RemoveStaleTemporaries(const std::string& dir) {
  static std::mutex mu;
  static std::set<std::string> done;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!done.insert(dir).second) return;
  }
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return;
  while (const dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    const auto pos = name.rfind(".h5.tmp.");
    if (pos == std::string::npos) continue;
    const std::string pid_text = name.substr(pos + 8);
    if (pid_text.empty() || pid_text.size() > 9 ||
        pid_text.find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    const pid_t pid = static_cast<pid_t>(std::stol(pid_text));
    if (pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH) continue;  // alive
    const std::string path = dir + "/" + name;
    const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW);
    if (fd < 0) continue;
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) unlink(path.c_str());
    close(fd);
  }
  closedir(d);
}

// Writes `image` to `path` (created, locked while written, fsynced).
// On any failure the file is removed and the message says why (errno).
Status WriteImage(const std::string& path, const std::string& image) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Error("cannot create '" + path + "': " + std::strerror(errno));
  flock(fd, LOCK_EX);
  size_t done = 0;
  int err = 0;
  while (done < image.size()) {
    const ssize_t n = write(fd, image.data() + done, image.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      err = n < 0 ? errno : ENOSPC;
      break;
    }
    done += static_cast<size_t>(n);
  }
  if (err == 0 && fsync(fd) != 0) err = errno;
  if (close(fd) != 0 && err == 0) err = errno;
  if (err != 0) {
    unlink(path.c_str());
    return Error("cannot write result file '" + path + "': " + std::strerror(err));
  }
  return Status::Ok();
}

}  // namespace

std::string LibraryVersions() {
  unsigned maj = 0, min = 0, rel = 0;
  H5get_libversion(&maj, &min, &rel);
  std::ostringstream out;
  out << "boost " << BOOST_VERSION / 100000 << "." << BOOST_VERSION / 100 % 1000 << "."
      << BOOST_VERSION % 100 << "; hdf5 " << maj << "." << min << "." << rel << "; xtensor "
      << XTENSOR_VERSION_MAJOR << "." << XTENSOR_VERSION_MINOR << "." << XTENSOR_VERSION_PATCH
      << "; compiler " << __VERSION__;
  return out.str();
}

// ------------------------------------------------------------------ writer

ResultWriter::ResultWriter(std::string final_path, std::string temp_path, int64_t file_id)
    : final_path_(std::move(final_path)), temp_path_(std::move(temp_path)), file_(file_id) {}

Result<std::unique_ptr<ResultWriter>> ResultWriter::Create(const std::string& final_path,
                                                           const RunMeta& meta) {
  SilenceHdf5();
  const std::string dir = ParentOf(final_path.front() == '/' ? final_path : "./" + final_path);
  if (access(dir.c_str(), W_OK) != 0) {
    return Error("results directory '" + dir + "' does not exist or is not writable");
  }
  RemoveStaleTemporaries(dir);
  const std::string temp = final_path + ".tmp." + std::to_string(getpid());
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  // Oldest format that has what we use: maximally readable by h5py builds.
  H5Pset_libver_bounds(fapl, H5F_LIBVER_EARLIEST, H5F_LIBVER_LATEST);
  // The file is built in memory (HDF5's core driver, no backing store) and
  // Commit() writes its image with plain write/fsync/rename: a full disk is
  // then an error we report, never a failed flush inside HDF5 (which kept
  // the file open and crashed at exit).
  H5Pset_fapl_core(fapl, size_t{1} << 20, 0);
  const hid_t file = H5Fcreate(temp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  H5Pclose(fapl);
  if (file < 0) return Error("cannot create result file '" + temp + "'");
  std::unique_ptr<ResultWriter> w(new ResultWriter(final_path, temp, file));
  w->start_seconds_ = NowSeconds();
  w->start_cpu_seconds_ = ProcessCpuSeconds();
  const struct {
    const char* name;
    std::string value;
  } attrs[] = {
      {"study", meta.study},
      {"paper", meta.paper},
      {"section", meta.section},
      {"description", meta.description},
      {"config", meta.config_text},
      {"scale", meta.scale},
      {"git_commit", BuildCommit()},
      {"command_line", meta.command_line},
      {"library_versions", LibraryVersions()},
      {"start_time", IsoTime(w->start_seconds_)},
  };
  for (const auto& a : attrs) PB_RETURN_IF_ERROR(w->SetAttribute("/meta", a.name, a.value));
  // Version 2: /meta carries the content checksum (version 1 files have none).
  PB_RETURN_IF_ERROR(w->SetAttribute("/meta", "format_version", kFormatVersion));
  PB_RETURN_IF_ERROR(w->SetAttribute("/meta", "git_dirty", int64_t{BuildDirty() ? 1 : 0}));
  // The seed as text too: uint64 seeds above 2^63 do not fit an int64.
  PB_RETURN_IF_ERROR(w->SetAttribute("/meta", "seed", std::to_string(meta.seed)));
  return w;
}

ResultWriter::~ResultWriter() {
  SilenceHdf5();
  if (file_ >= 0) H5Fclose(file_);
  if (!committed_) std::remove(temp_path_.c_str());
}

Result<int64_t> ResultWriter::EnsureGroup(const std::string& path) {
  SilenceHdf5();
  if (file_ < 0) return Error("result file already committed");
  hid_t current = H5Gopen2(file_, "/", H5P_DEFAULT);
  std::string so_far;
  for (const std::string& part : SplitPath(path)) {
    so_far += "/" + part;
    hid_t next;
    if (H5Lexists(current, part.c_str(), H5P_DEFAULT) > 0) {
      next = H5Gopen2(current, part.c_str(), H5P_DEFAULT);
    } else {
      hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
      H5Pset_obj_track_times(gcpl, 0);
      next = H5Gcreate2(current, part.c_str(), H5P_DEFAULT, gcpl, H5P_DEFAULT);
      H5Pclose(gcpl);
    }
    H5Gclose(current);
    if (next < 0) return Error("cannot create group '" + so_far + "' in " + temp_path_);
    current = next;
  }
  return static_cast<int64_t>(current);
}

Status ResultWriter::WriteNumeric(const std::string& path, const void* data, int64_t mem_type,
                                  int64_t file_type, size_t count,
                                  const std::vector<uint64_t>& shape) {
  std::vector<hsize_t> dims(shape.begin(), shape.end());
  if (dims.empty()) dims.push_back(count);
  const hsize_t total =
      std::accumulate(dims.begin(), dims.end(), hsize_t{1}, std::multiplies<hsize_t>());
  if (total != count) {
    return Error("dataset '" + path + "': shape holds " + std::to_string(total) + " values but " +
                 std::to_string(count) + " were given");
  }
  PB_ASSIGN_OR_RETURN(int64_t group, EnsureGroup(ParentOf(path)));
  Hdf5Handle g(group, H5Gclose);
  const std::string name = path.substr(path.find_last_of('/') + 1);
  if (H5Lexists(g.get(), name.c_str(), H5P_DEFAULT) > 0) {
    return Error("dataset '" + path + "' written twice");
  }
  Hdf5Handle space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
  Hdf5Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  H5Pset_obj_track_times(dcpl.get(), 0);
  Hdf5Handle ds(H5Dcreate2(g.get(), name.c_str(), file_type, space.get(), H5P_DEFAULT, dcpl.get(),
                           H5P_DEFAULT),
                H5Dclose);
  if (!ds.ok()) return Error("cannot create dataset '" + path + "'");
  if (count > 0 && H5Dwrite(ds.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) {
    return Error("cannot write dataset '" + path + "'");
  }
  return Status::Ok();
}

Status ResultWriter::WriteDoubles(const std::string& path, const std::vector<double>& values,
                                  const std::vector<uint64_t>& shape) {
  return WriteNumeric(path, values.data(), H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, values.size(), shape);
}

Status ResultWriter::WriteInts(const std::string& path, const std::vector<int64_t>& values,
                               const std::vector<uint64_t>& shape) {
  return WriteNumeric(path, values.data(), H5T_NATIVE_INT64, H5T_STD_I64LE, values.size(), shape);
}

Status ResultWriter::WriteScalar(const std::string& path, double value) {
  return WriteDoubles(path, {value});
}

Status ResultWriter::WriteStrings(const std::string& path, const std::vector<std::string>& values) {
  PB_ASSIGN_OR_RETURN(int64_t group, EnsureGroup(ParentOf(path)));
  Hdf5Handle g(group, H5Gclose);
  const std::string name = path.substr(path.find_last_of('/') + 1);
  if (H5Lexists(g.get(), name.c_str(), H5P_DEFAULT) > 0) {
    return Error("dataset '" + path + "' written twice");
  }
  std::vector<const char*> ptrs;
  for (const auto& s : values) ptrs.push_back(s.c_str());
  const hsize_t dims[1] = {values.size()};
  Hdf5Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose);
  Hdf5Handle type(Utf8StringType(), H5Tclose);
  Hdf5Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  H5Pset_obj_track_times(dcpl.get(), 0);
  Hdf5Handle ds(H5Dcreate2(g.get(), name.c_str(), type.get(), space.get(), H5P_DEFAULT, dcpl.get(),
                           H5P_DEFAULT),
                H5Dclose);
  if (!ds.ok()) return Error("cannot create dataset '" + path + "'");
  if (!values.empty() &&
      H5Dwrite(ds.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data()) < 0) {
    return Error("cannot write dataset '" + path + "'");
  }
  return Status::Ok();
}

namespace {
// Opens a group or dataset for attribute writing.
hid_t OpenObject(hid_t file, const std::string& path) {
  return H5Oopen(file, path.c_str(), H5P_DEFAULT);
}

Status WriteAttribute(hid_t obj, const std::string& name, hid_t type, const void* data,
                      const std::string& where) {
  if (H5Aexists(obj, name.c_str()) > 0) H5Adelete(obj, name.c_str());
  Hdf5Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Hdf5Handle attr(H5Acreate2(obj, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                  H5Aclose);
  if (!attr.ok() || H5Awrite(attr.get(), type, data) < 0) {
    return Error("cannot write attribute '" + name + "' on '" + where + "'");
  }
  return Status::Ok();
}
}  // namespace

Status RecomputeChecksum(const std::string& path) {
  SilenceHdf5();
  Hdf5Handle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
  if (!file.ok()) return Error("'" + path + "' is not a writable HDF5 file");
  PB_ASSIGN_OR_RETURN(const std::string digest, ContentDigest(file.get()));
  Hdf5Handle meta(OpenObject(file.get(), "/meta"), H5Oclose);
  if (!meta.ok()) return Error(path + ": no /meta group");
  Hdf5Handle type(Utf8StringType(), H5Tclose);
  const char* ptr = digest.c_str();
  return WriteAttribute(meta.get(), kChecksumAttribute, type.get(), &ptr, "/meta");
}

// Opens (creating it as a group if missing) the object at `object_path` and
// writes one scalar attribute of `type` from `data`.
Status ResultWriter::WriteScalarAttribute(const std::string& object_path, const std::string& name,
                                          int64_t type, const void* data) {
  SilenceHdf5();
  if (file_ < 0) return Error("result file already committed");
  if (object_path != "/" && H5Lexists(file_, object_path.c_str(), H5P_DEFAULT) <= 0) {
    PB_ASSIGN_OR_RETURN(int64_t g, EnsureGroup(object_path));
    H5Gclose(g);
  }
  Hdf5Handle obj(OpenObject(file_, object_path), H5Oclose);
  if (!obj.ok()) return Error("no object '" + object_path + "' for attribute '" + name + "'");
  return WriteAttribute(obj.get(), name, type, data, object_path);
}

Status ResultWriter::SetAttribute(const std::string& object_path, const std::string& name,
                                  const std::string& value) {
  Hdf5Handle type(Utf8StringType(), H5Tclose);
  const char* ptr = value.c_str();
  return WriteScalarAttribute(object_path, name, type.get(), &ptr);
}

Status ResultWriter::SetAttribute(const std::string& object_path, const std::string& name,
                                  double value) {
  return WriteScalarAttribute(object_path, name, H5T_NATIVE_DOUBLE, &value);
}

Status ResultWriter::SetAttribute(const std::string& object_path, const std::string& name,
                                  int64_t value) {
  return WriteScalarAttribute(object_path, name, H5T_NATIVE_INT64, &value);
}

Status ResultWriter::WriteTable(const SummaryTable& table) {
  if (table.name.empty() || table.name.find('/') != std::string::npos) {
    return Error("summary table name must be a non-empty group name, got '" + table.name + "'");
  }
  if (table.columns.empty()) return Error("summary table '" + table.name + "' has no columns");
  const std::string group = "/summary/" + table.name;
  std::string order;
  const size_t rows = table.columns.front().size();
  for (const Column& c : table.columns) {
    if (c.size() != rows) {
      return Error("summary table '" + table.name + "': column '" + c.name + "' has " +
                   std::to_string(c.size()) + " rows, expected " + std::to_string(rows));
    }
    const std::string path = group + "/" + c.name;
    switch (c.type()) {
      case Column::Type::kDouble:
        PB_RETURN_IF_ERROR(WriteDoubles(path, c.doubles));
        break;
      case Column::Type::kInt:
        PB_RETURN_IF_ERROR(WriteInts(path, c.ints));
        break;
      case Column::Type::kString:
        PB_RETURN_IF_ERROR(WriteStrings(path, c.strings));
        break;
    }
    order += (order.empty() ? "" : ",") + c.name;
  }
  PB_RETURN_IF_ERROR(SetAttribute(group, "columns", order));
  PB_RETURN_IF_ERROR(SetAttribute(group, "title", table.title));
  return SetAttribute(group, "caption", table.caption);
}

Status ResultWriter::WriteClaim(const Claim& claim) {
  if (claim.id.empty() || claim.id.find('/') != std::string::npos) {
    return Error("claim id must be a non-empty group name, got '" + claim.id + "'");
  }
  const std::string group = "/claims/" + claim.id;
  std::string statement = claim.statement, source = claim.source;
  if (claims_declared_) {
    const auto declared = declared_claims_.find(claim.id);
    if (declared == declared_claims_.end()) {
      return Error("claim '" + claim.id +
                   "' is not declared in the study's claims.json (an entry of kind \"claim\" "
                   "with h5 \"/claims/" +
                   claim.id + "\")");
    }
    if (!claim.statement.empty() || !claim.source.empty()) {
      return Error("claim '" + claim.id +
                   "' carries its own statement or source; both come from the study's "
                   "claims.json, so the report code supplies only holds and evidence "
                   "(ClaimEvidence)");
    }
    statement = declared->second.statement;
    source = declared->second.source;
    if (!declared->second.criterion.empty()) {
      PB_RETURN_IF_ERROR(SetAttribute(group, "criterion", declared->second.criterion));
    }
  }
  PB_RETURN_IF_ERROR(SetAttribute(group, "statement", statement));
  PB_RETURN_IF_ERROR(SetAttribute(group, "source", source));
  PB_RETURN_IF_ERROR(SetAttribute(group, "holds", int64_t{claim.holds ? 1 : 0}));
  return SetAttribute(group, "evidence", claim.evidence);
}

// The variables that pin LibTorch's CPU numerics (third_party/
// libtorch_cpu_numerics.cc sets them in every program that links LibTorch;
// a study without LibTorch shows them unset), as "NAME=value; ...".
static std::string CpuNumericsSettings() {
  std::string out;
  for (const char* name : {"MKL_CBWR", "ATEN_CPU_CAPABILITY", "PRIVBENCH_ONEDNN"}) {
    const char* value = std::getenv(name);
    if (!out.empty()) out += "; ";
    out += std::string(name) + "=" + (value ? value : "unset");
  }
  return out;
}

Status ResultWriter::Commit() {
  SilenceHdf5();
  if (file_ < 0) return Error("result file already committed");
  const double end = NowSeconds();
  PB_RETURN_IF_ERROR(SetAttribute("/meta", "end_time", IsoTime(end)));
  PB_RETURN_IF_ERROR(SetAttribute("/meta", "duration_seconds", end - start_seconds_));
  // The whole process's CPU time while the file was open (all its threads;
  // concurrent sweep parts of one process each count the others' too).
  PB_RETURN_IF_ERROR(
      SetAttribute("/meta", "cpu_seconds", ProcessCpuSeconds() - start_cpu_seconds_));
  PB_RETURN_IF_ERROR(SetAttribute("/meta", "cpu_numerics", CpuNumericsSettings()));
  PB_ASSIGN_OR_RETURN(std::string digest, ContentDigest(file_));
  PB_RETURN_IF_ERROR(SetAttribute("/meta", kChecksumAttribute, digest));
  std::string image;
  const ssize_t size =
      H5Fflush(file_, H5F_SCOPE_GLOBAL) < 0 ? -1 : H5Fget_file_image(file_, nullptr, 0);
  if (size > 0) {
    image.resize(static_cast<size_t>(size));
    if (H5Fget_file_image(file_, image.data(), image.size()) != size) image.clear();
  }
  H5Fclose(file_);  // in memory: nothing can fail on disk here
  file_ = -1;
  if (image.empty()) return Error("cannot build result file '" + temp_path_ + "' in memory");
  PB_RETURN_IF_ERROR(WriteImage(temp_path_, image));
  if (std::rename(temp_path_.c_str(), final_path_.c_str()) != 0) {
    const int err = errno;
    std::remove(temp_path_.c_str());
    return Error("cannot rename '" + temp_path_ + "' to '" + final_path_ +
                 "': " + std::strerror(err));
  }
  committed_ = true;
  const int dir = open(
      ParentOf(final_path_.front() == '/' ? final_path_ : "./" + final_path_).c_str(), O_RDONLY);
  if (dir >= 0) {
    fsync(dir);
    close(dir);
  }
  return Status::Ok();
}

// ------------------------------------------------------------------ reader

Result<std::unique_ptr<ResultReader>> ResultReader::Open(const std::string& path) {
  SilenceHdf5();
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || access(path.c_str(), R_OK) != 0) {
    return Error("result file '" + path + "' not found");
  }
  // A FIFO or device named *.h5 would block H5Fopen forever.
  if (!S_ISREG(st.st_mode)) return Error("'" + path + "' is not a regular file");
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return Error("'" + path + "' is not a readable HDF5 file");
  std::unique_ptr<ResultReader> reader(new ResultReader(path, file));
  PB_RETURN_IF_ERROR(reader->VerifyChecksum());
  return reader;
}

Status ResultReader::VerifyChecksum() const {
  auto version = ReadIntAttribute("/meta", "format_version");
  if (!version.ok()) {
    return Error(version.message() + " (not a privbench result file, or a damaged one)");
  }
  if (*version != kFormatVersion) {
    // Version 1 files (before checksums) are no longer read: a file could
    // otherwise skip every integrity check by claiming to be one.
    return Error(path_ + ": format_version " + std::to_string(*version) +
                 " is not read (this reader reads version " + std::to_string(kFormatVersion) +
                 ", whose checksum it verifies; rerun the study to rewrite the file)");
  }
  auto stored = ReadStringAttribute("/meta", kChecksumAttribute);
  if (!stored.ok()) return Error(stored.message() + " (the file is damaged)");
  auto computed = ContentDigest(file_);
  if (!computed.ok()) return Error(path_ + ": damaged: " + computed.message());
  if (*computed != *stored) {
    return Error(path_ + ": checksum mismatch, the file is damaged (/meta checksum " + *stored +
                 ", content " + *computed + ")");
  }
  return Status::Ok();
}

Result<std::string> ResultReader::DataDigest() const {
  auto digest = ContentDigest(file_, /*skip_meta=*/true);
  if (!digest.ok()) return Error(path_ + ": damaged: " + digest.message());
  return digest;
}

ResultReader::~ResultReader() {
  SilenceHdf5();
  if (file_ >= 0) H5Fclose(file_);
}

bool ResultReader::Exists(const std::string& path) const {
  SilenceHdf5();
  // H5Lexists needs every intermediate link to exist.
  std::string so_far;
  for (const std::string& part : SplitPath(path)) {
    so_far += "/" + part;
    if (H5Lexists(file_, so_far.c_str(), H5P_DEFAULT) <= 0) return false;
  }
  return true;
}

Result<std::vector<uint64_t>> ResultReader::Shape(const std::string& path) const {
  if (!Exists(path)) return Error(path_ + ": no dataset '" + path + "'");
  Hdf5Handle ds(H5Dopen2(file_, path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!ds.ok()) return Error(path_ + ": '" + path + "' is not a dataset");
  Hdf5Handle space(H5Dget_space(ds.get()), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0 || rank > 32) return Error(path_ + ": dataset '" + path + "' has a bad rank");
  std::vector<hsize_t> dims(rank);
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  return std::vector<uint64_t>(dims.begin(), dims.end());
}

namespace {
// A numeric dataset read as T; float data is refused where integers are
// wanted (it would be truncated silently).
template <typename T>
Result<std::vector<T>> ReadNumeric(hid_t file, const std::string& file_path,
                                   const std::string& path, hid_t mem_type, bool integer) {
  Hdf5Handle ds(H5Dopen2(file, path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!ds.ok()) return Error(file_path + ": no dataset '" + path + "'");
  Hdf5Handle type(H5Dget_type(ds.get()), H5Tclose);
  const H5T_class_t cls = H5Tget_class(type.get());
  if (cls != H5T_INTEGER && !(cls == H5T_FLOAT && !integer)) {
    return Error(file_path + ": dataset '" + path + "' is not " +
                 (integer ? "an integer dataset" : "numeric"));
  }
  auto values = ReadNumericValues<T>(ds.get(), mem_type, "dataset '" + path + "'");
  if (!values.ok()) return Error(file_path + ": " + values.message());
  return values;
}
}  // namespace

Result<std::vector<double>> ResultReader::ReadDoubles(const std::string& path) const {
  if (!Exists(path)) return Error(path_ + ": no dataset '" + path + "'");
  return ReadNumeric<double>(file_, path_, path, H5T_NATIVE_DOUBLE, false);
}

Result<std::vector<int64_t>> ResultReader::ReadInts(const std::string& path) const {
  if (!Exists(path)) return Error(path_ + ": no dataset '" + path + "'");
  return ReadNumeric<int64_t>(file_, path_, path, H5T_NATIVE_INT64, true);
}

Result<std::vector<std::string>> ResultReader::ReadStrings(const std::string& path) const {
  if (!Exists(path)) return Error(path_ + ": no dataset '" + path + "'");
  Hdf5Handle ds(H5Dopen2(file_, path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!ds.ok()) return Error(path_ + ": no dataset '" + path + "'");
  auto values = ReadStringValues(ds.get(), "dataset '" + path + "'");
  if (!values.ok()) return Error(path_ + ": " + values.message());
  return values;
}

namespace {
Result<AttributeValue> ReadAttribute(hid_t file, const std::string& file_path,
                                     const std::string& object_path, const std::string& name) {
  Hdf5Handle obj(H5Oopen(file, object_path.c_str(), H5P_DEFAULT), H5Oclose);
  if (!obj.ok() || H5Aexists(obj.get(), name.c_str()) <= 0) {
    return Error(file_path + ": no attribute '" + name + "' on '" + object_path + "'");
  }
  Hdf5Handle attr(H5Aopen(obj.get(), name.c_str(), H5P_DEFAULT), H5Aclose);
  auto v = ReadAttributeValue(attr.get(), "attribute '" + name + "' on '" + object_path + "'");
  if (!v.ok()) return Error(file_path + ": " + v.message());
  return v;
}
}  // namespace

Result<std::string> ResultReader::ReadStringAttribute(const std::string& object_path,
                                                      const std::string& name) const {
  if (!Exists(object_path) && object_path != "/") {
    return Error(path_ + ": no object '" + object_path + "'");
  }
  PB_ASSIGN_OR_RETURN(AttributeValue v, ReadAttribute(file_, path_, object_path, name));
  if (v.cls != H5T_STRING) {
    return Error(path_ + ": attribute '" + name + "' on '" + object_path + "' is not a string");
  }
  return v.text;
}

Result<double> ResultReader::ReadDoubleAttribute(const std::string& object_path,
                                                 const std::string& name) const {
  if (!Exists(object_path) && object_path != "/") {
    return Error(path_ + ": no object '" + object_path + "'");
  }
  PB_ASSIGN_OR_RETURN(AttributeValue v, ReadAttribute(file_, path_, object_path, name));
  if (v.cls == H5T_INTEGER) return static_cast<double>(v.integer);
  if (v.cls != H5T_FLOAT) {
    return Error(path_ + ": attribute '" + name + "' on '" + object_path + "' is not numeric");
  }
  return v.real;
}

bool ResultReader::HasAttribute(const std::string& object_path, const std::string& name) const {
  if (!Exists(object_path) && object_path != "/") return false;
  Hdf5Handle obj(H5Oopen(file_, object_path.c_str(), H5P_DEFAULT), H5Oclose);
  return obj.ok() && H5Aexists(obj.get(), name.c_str()) > 0;
}

Result<int64_t> ResultReader::ReadIntAttribute(const std::string& object_path,
                                               const std::string& name) const {
  if (!Exists(object_path) && object_path != "/") {
    return Error(path_ + ": no object '" + object_path + "'");
  }
  PB_ASSIGN_OR_RETURN(AttributeValue v, ReadAttribute(file_, path_, object_path, name));
  // A float (NaN, 0.5) is not silently truncated to an integer.
  if (v.cls != H5T_INTEGER) {
    return Error(path_ + ": attribute '" + name + "' on '" + object_path + "' is not an integer");
  }
  return v.integer;
}

Result<std::string> ResultReader::Scale() const {
  PB_ASSIGN_OR_RETURN(std::string scale, ReadStringAttribute("/meta", "scale"));
  if (scale != "test" && scale != "quick" && scale != "paper") {
    return Error(path_ + ": /meta scale must be test, quick or paper, got '" + scale + "'");
  }
  return scale;
}

Result<std::vector<std::string>> ResultReader::ListGroup(const std::string& group_path) const {
  if (!Exists(group_path) && group_path != "/") {
    return Error(path_ + ": no group '" + group_path + "'");
  }
  Hdf5Handle g(H5Gopen2(file_, group_path.c_str(), H5P_DEFAULT), H5Gclose);
  if (!g.ok()) return Error(path_ + ": '" + group_path + "' is not a group");
  return LinkNames(g.get());
}

Result<SummaryTable> ResultReader::ReadTable(const std::string& name) const {
  const std::string group = "/summary/" + name;
  SummaryTable t;
  t.name = name;
  PB_ASSIGN_OR_RETURN(t.title, ReadStringAttribute(group, "title"));
  PB_ASSIGN_OR_RETURN(t.caption, ReadStringAttribute(group, "caption"));
  PB_ASSIGN_OR_RETURN(std::string order, ReadStringAttribute(group, "columns"));
  std::stringstream in(order);
  std::string col;
  while (std::getline(in, col, ',')) {
    const std::string path = group + "/" + col;
    if (col.empty() || !Exists(path)) {
      return Error(path_ + ": table '" + name + "' lacks column '" + col + "'");
    }
    PB_ASSIGN_OR_RETURN(std::vector<uint64_t> shape, Shape(path));
    if (shape.size() != 1) {
      return Error(path_ + ": table '" + name + "': column '" + col + "' is not 1-D");
    }
    Hdf5Handle ds(H5Dopen2(file_, path.c_str(), H5P_DEFAULT), H5Dclose);
    Hdf5Handle type(H5Dget_type(ds.get()), H5Tclose);
    const H5T_class_t cls = H5Tget_class(type.get());
    if (cls == H5T_STRING) {
      PB_ASSIGN_OR_RETURN(auto v, ReadStrings(path));
      t.columns.push_back(Column::Strings(col, std::move(v)));
    } else if (cls == H5T_INTEGER) {
      PB_ASSIGN_OR_RETURN(auto v, ReadInts(path));
      t.columns.push_back(Column::Ints(col, std::move(v)));
    } else {
      PB_ASSIGN_OR_RETURN(auto v, ReadDoubles(path));
      t.columns.push_back(Column::Doubles(col, std::move(v)));
    }
    // Column::size() counts the one vector in use: equal lengths are what
    // the renderers index by.
    if (t.columns.back().size() != shape[0] || t.columns.back().size() != t.columns[0].size()) {
      return Error(path_ + ": table '" + name + "': column '" + col + "' has " +
                   std::to_string(t.columns.back().size()) + " rows, column '" + t.columns[0].name +
                   "' has " + std::to_string(t.columns[0].size()));
    }
  }
  if (t.columns.empty()) return Error(path_ + ": table '" + name + "' has no columns");
  return t;
}

Result<std::vector<SummaryTable>> ResultReader::ReadAllTables() const {
  std::vector<SummaryTable> out;
  if (!Exists("/summary")) return out;
  PB_ASSIGN_OR_RETURN(auto names, ListGroup("/summary"));
  for (const auto& n : names) {
    PB_ASSIGN_OR_RETURN(SummaryTable t, ReadTable(n));
    out.push_back(std::move(t));
  }
  return out;
}

Result<bool> ResultReader::ReadClaimHolds(const std::string& claim_group) const {
  PB_ASSIGN_OR_RETURN(int64_t holds, ReadIntAttribute(claim_group, "holds"));
  if (holds != 0 && holds != 1) {
    return Error(path_ + ": claim '" + claim_group + "': holds must be 0 or 1, got " +
                 std::to_string(holds));
  }
  return holds == 1;
}

Result<std::vector<Claim>> ResultReader::ReadAllClaims() const {
  std::vector<Claim> out;
  if (!Exists("/claims")) return out;
  PB_ASSIGN_OR_RETURN(auto ids, ListGroup("/claims"));
  for (const auto& id : ids) {
    const std::string g = "/claims/" + id;
    Claim c;
    c.id = id;
    PB_ASSIGN_OR_RETURN(c.statement, ReadStringAttribute(g, "statement"));
    PB_ASSIGN_OR_RETURN(c.source, ReadStringAttribute(g, "source"));
    PB_ASSIGN_OR_RETURN(c.holds, ReadClaimHolds(g));
    PB_ASSIGN_OR_RETURN(c.evidence, ReadStringAttribute(g, "evidence"));
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace privbench
