#include "results/h5_file.h"

#include <fcntl.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <boost/version.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <numeric>
#include <sstream>
#include <xtensor/xtensor_config.hpp>

#include "core/provenance.h"

namespace privbench {

namespace {

// RAII for an HDF5 identifier.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t get() const { return id_; }
  bool ok() const { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

// HDF5 prints an error stack on stderr by default; we report errors ourselves.
void SilenceHdf5() {
  static const bool silenced = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    return true;
  }();
  (void)silenced;
}

double NowSeconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
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
  const std::string temp = final_path + ".tmp." + std::to_string(getpid());
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  // Oldest format that has what we use: maximally readable by h5py builds.
  H5Pset_libver_bounds(fapl, H5F_LIBVER_EARLIEST, H5F_LIBVER_LATEST);
  const hid_t file = H5Fcreate(temp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  H5Pclose(fapl);
  if (file < 0) return Error("cannot create result file '" + temp + "'");
  std::unique_ptr<ResultWriter> w(new ResultWriter(final_path, temp, file));
  w->start_seconds_ = NowSeconds();
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
  PB_RETURN_IF_ERROR(w->SetAttribute("/meta", "format_version", int64_t{1}));
  PB_RETURN_IF_ERROR(w->SetAttribute("/meta", "git_dirty", int64_t{BuildDirty() ? 1 : 0}));
  // The seed as text too: uint64 seeds above 2^63 do not fit an int64.
  PB_RETURN_IF_ERROR(w->SetAttribute("/meta", "seed", std::to_string(meta.seed)));
  return w;
}

ResultWriter::~ResultWriter() {
  if (file_ >= 0) H5Fclose(file_);
  if (!committed_) std::remove(temp_path_.c_str());
}

Result<int64_t> ResultWriter::EnsureGroup(const std::string& path) {
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
  Handle g(group, H5Gclose);
  const std::string name = path.substr(path.find_last_of('/') + 1);
  if (H5Lexists(g.get(), name.c_str(), H5P_DEFAULT) > 0) {
    return Error("dataset '" + path + "' written twice");
  }
  Handle space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
  Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  H5Pset_obj_track_times(dcpl.get(), 0);
  Handle ds(H5Dcreate2(g.get(), name.c_str(), file_type, space.get(), H5P_DEFAULT, dcpl.get(),
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
  Handle g(group, H5Gclose);
  const std::string name = path.substr(path.find_last_of('/') + 1);
  if (H5Lexists(g.get(), name.c_str(), H5P_DEFAULT) > 0) {
    return Error("dataset '" + path + "' written twice");
  }
  std::vector<const char*> ptrs;
  for (const auto& s : values) ptrs.push_back(s.c_str());
  const hsize_t dims[1] = {values.size()};
  Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose);
  Handle type(Utf8StringType(), H5Tclose);
  Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  H5Pset_obj_track_times(dcpl.get(), 0);
  Handle ds(H5Dcreate2(g.get(), name.c_str(), type.get(), space.get(), H5P_DEFAULT, dcpl.get(),
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
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle attr(H5Acreate2(obj, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!attr.ok() || H5Awrite(attr.get(), type, data) < 0) {
    return Error("cannot write attribute '" + name + "' on '" + where + "'");
  }
  return Status::Ok();
}
}  // namespace

// Opens (creating it as a group if missing) the object at `object_path` and
// writes one scalar attribute of `type` from `data`.
Status ResultWriter::WriteScalarAttribute(const std::string& object_path, const std::string& name,
                                          int64_t type, const void* data) {
  if (file_ < 0) return Error("result file already committed");
  if (object_path != "/" && H5Lexists(file_, object_path.c_str(), H5P_DEFAULT) <= 0) {
    PB_ASSIGN_OR_RETURN(int64_t g, EnsureGroup(object_path));
    H5Gclose(g);
  }
  Handle obj(OpenObject(file_, object_path), H5Oclose);
  if (!obj.ok()) return Error("no object '" + object_path + "' for attribute '" + name + "'");
  return WriteAttribute(obj.get(), name, type, data, object_path);
}

Status ResultWriter::SetAttribute(const std::string& object_path, const std::string& name,
                                  const std::string& value) {
  Handle type(Utf8StringType(), H5Tclose);
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
  PB_RETURN_IF_ERROR(SetAttribute(group, "statement", claim.statement));
  PB_RETURN_IF_ERROR(SetAttribute(group, "source", claim.source));
  PB_RETURN_IF_ERROR(SetAttribute(group, "holds", int64_t{claim.holds ? 1 : 0}));
  return SetAttribute(group, "evidence", claim.evidence);
}

Status ResultWriter::Commit() {
  if (file_ < 0) return Error("result file already committed");
  const double end = NowSeconds();
  PB_RETURN_IF_ERROR(SetAttribute("/meta", "end_time", IsoTime(end)));
  PB_RETURN_IF_ERROR(SetAttribute("/meta", "duration_seconds", end - start_seconds_));
  const herr_t flushed = H5Fflush(file_, H5F_SCOPE_GLOBAL);
  const herr_t closed = H5Fclose(file_);
  file_ = -1;
  if (flushed < 0 || closed < 0) return Error("cannot close result file '" + temp_path_ + "'");
  const int fd = open(temp_path_.c_str(), O_RDONLY);
  if (fd < 0 || fsync(fd) != 0) {
    if (fd >= 0) close(fd);
    return Error("cannot fsync result file '" + temp_path_ + "'");
  }
  close(fd);
  if (std::rename(temp_path_.c_str(), final_path_.c_str()) != 0) {
    return Error("cannot rename '" + temp_path_ + "' to '" + final_path_ + "'");
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
  if (access(path.c_str(), R_OK) != 0) return Error("result file '" + path + "' not found");
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return Error("'" + path + "' is not a readable HDF5 file");
  return std::unique_ptr<ResultReader>(new ResultReader(path, file));
}

ResultReader::~ResultReader() {
  if (file_ >= 0) H5Fclose(file_);
}

bool ResultReader::Exists(const std::string& path) const {
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
  Handle ds(H5Dopen2(file_, path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!ds.ok()) return Error(path_ + ": '" + path + "' is not a dataset");
  Handle space(H5Dget_space(ds.get()), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  std::vector<hsize_t> dims(std::max(rank, 0));
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  return std::vector<uint64_t>(dims.begin(), dims.end());
}

namespace {
template <typename T>
Result<std::vector<T>> ReadNumeric(hid_t file, const std::string& file_path,
                                   const std::string& path, hid_t mem_type, H5T_class_t want) {
  Handle ds(H5Dopen2(file, path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!ds.ok()) return Error(file_path + ": no dataset '" + path + "'");
  Handle type(H5Dget_type(ds.get()), H5Tclose);
  const H5T_class_t cls = H5Tget_class(type.get());
  if (cls != H5T_INTEGER && cls != H5T_FLOAT) {
    return Error(file_path + ": dataset '" + path + "' is not numeric");
  }
  (void)want;
  Handle space(H5Dget_space(ds.get()), H5Sclose);
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  std::vector<T> out(static_cast<size_t>(std::max<hssize_t>(n, 0)));
  if (n > 0 && H5Dread(ds.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0) {
    return Error(file_path + ": cannot read dataset '" + path + "'");
  }
  return out;
}
}  // namespace

Result<std::vector<double>> ResultReader::ReadDoubles(const std::string& path) const {
  if (!Exists(path)) return Error(path_ + ": no dataset '" + path + "'");
  return ReadNumeric<double>(file_, path_, path, H5T_NATIVE_DOUBLE, H5T_FLOAT);
}

Result<std::vector<int64_t>> ResultReader::ReadInts(const std::string& path) const {
  if (!Exists(path)) return Error(path_ + ": no dataset '" + path + "'");
  return ReadNumeric<int64_t>(file_, path_, path, H5T_NATIVE_INT64, H5T_INTEGER);
}

Result<std::vector<std::string>> ResultReader::ReadStrings(const std::string& path) const {
  if (!Exists(path)) return Error(path_ + ": no dataset '" + path + "'");
  Handle ds(H5Dopen2(file_, path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!ds.ok()) return Error(path_ + ": no dataset '" + path + "'");
  Handle ftype(H5Dget_type(ds.get()), H5Tclose);
  if (H5Tget_class(ftype.get()) != H5T_STRING || !H5Tis_variable_str(ftype.get())) {
    return Error(path_ + ": dataset '" + path + "' is not a variable-length string dataset");
  }
  Handle space(H5Dget_space(ds.get()), H5Sclose);
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  std::vector<char*> raw(static_cast<size_t>(std::max<hssize_t>(n, 0)), nullptr);
  Handle mtype(Utf8StringType(), H5Tclose);
  if (n > 0 && H5Dread(ds.get(), mtype.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, raw.data()) < 0) {
    return Error(path_ + ": cannot read dataset '" + path + "'");
  }
  std::vector<std::string> out;
  for (char* s : raw) out.emplace_back(s ? s : "");
  if (n > 0) H5Dvlen_reclaim(mtype.get(), space.get(), H5P_DEFAULT, raw.data());
  return out;
}

Result<std::string> ResultReader::ReadStringAttribute(const std::string& object_path,
                                                      const std::string& name) const {
  if (!Exists(object_path) && object_path != "/") {
    return Error(path_ + ": no object '" + object_path + "'");
  }
  Handle obj(H5Oopen(file_, object_path.c_str(), H5P_DEFAULT), H5Oclose);
  if (!obj.ok() || H5Aexists(obj.get(), name.c_str()) <= 0) {
    return Error(path_ + ": no attribute '" + name + "' on '" + object_path + "'");
  }
  Handle attr(H5Aopen(obj.get(), name.c_str(), H5P_DEFAULT), H5Aclose);
  Handle ftype(H5Aget_type(attr.get()), H5Tclose);
  if (H5Tget_class(ftype.get()) != H5T_STRING) {
    return Error(path_ + ": attribute '" + name + "' on '" + object_path + "' is not a string");
  }
  if (H5Tis_variable_str(ftype.get())) {
    Handle mtype(Utf8StringType(), H5Tclose);
    char* raw = nullptr;
    if (H5Aread(attr.get(), mtype.get(), &raw) < 0) {
      return Error(path_ + ": cannot read attribute '" + name + "'");
    }
    std::string out = raw ? raw : "";
    H5free_memory(raw);
    return out;
  }
  const size_t size = H5Tget_size(ftype.get());
  std::string out(size, '\0');
  if (H5Aread(attr.get(), ftype.get(), out.data()) < 0) {
    return Error(path_ + ": cannot read attribute '" + name + "'");
  }
  out.erase(std::find(out.begin(), out.end(), '\0'), out.end());
  return out;
}

Result<double> ResultReader::ReadDoubleAttribute(const std::string& object_path,
                                                 const std::string& name) const {
  if (!Exists(object_path) && object_path != "/") {
    return Error(path_ + ": no object '" + object_path + "'");
  }
  Handle obj(H5Oopen(file_, object_path.c_str(), H5P_DEFAULT), H5Oclose);
  if (!obj.ok() || H5Aexists(obj.get(), name.c_str()) <= 0) {
    return Error(path_ + ": no attribute '" + name + "' on '" + object_path + "'");
  }
  Handle attr(H5Aopen(obj.get(), name.c_str(), H5P_DEFAULT), H5Aclose);
  double v = 0.0;
  if (H5Aread(attr.get(), H5T_NATIVE_DOUBLE, &v) < 0) {
    return Error(path_ + ": attribute '" + name + "' on '" + object_path + "' is not numeric");
  }
  return v;
}

Result<int64_t> ResultReader::ReadIntAttribute(const std::string& object_path,
                                               const std::string& name) const {
  PB_ASSIGN_OR_RETURN(double v, ReadDoubleAttribute(object_path, name));
  return static_cast<int64_t>(v);
}

Result<std::vector<std::string>> ResultReader::ListGroup(const std::string& group_path) const {
  if (!Exists(group_path) && group_path != "/") {
    return Error(path_ + ": no group '" + group_path + "'");
  }
  Handle g(H5Gopen2(file_, group_path.c_str(), H5P_DEFAULT), H5Gclose);
  if (!g.ok()) return Error(path_ + ": '" + group_path + "' is not a group");
  std::vector<std::string> names;
  auto collect = [](hid_t, const char* name, const H5L_info_t*, void* data) -> herr_t {
    static_cast<std::vector<std::string>*>(data)->emplace_back(name);
    return 0;
  };
  H5Literate(g.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, collect, &names);
  std::sort(names.begin(), names.end());
  return names;
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
    Handle ds(H5Dopen2(file_, path.c_str(), H5P_DEFAULT), H5Dclose);
    if (!ds.ok()) return Error(path_ + ": table '" + name + "' lacks column '" + col + "'");
    Handle type(H5Dget_type(ds.get()), H5Tclose);
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
  }
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
    PB_ASSIGN_OR_RETURN(int64_t holds, ReadIntAttribute(g, "holds"));
    c.holds = holds != 0;
    PB_ASSIGN_OR_RETURN(c.evidence, ReadStringAttribute(g, "evidence"));
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace privbench
