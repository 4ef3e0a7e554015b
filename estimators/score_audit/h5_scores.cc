#include "estimators/score_audit/h5_scores.h"

#include <hdf5.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <new>

#include "core/hdf5_guard.h"
#include "core/quote.h"

namespace privbench {

namespace {

constexpr int64_t kMaxValues = int64_t{1} << 27;  // 1 GiB of float64
constexpr size_t kMaxFloatBytes = 16;

std::string FormatBytes(double bytes) {
  return std::to_string(static_cast<uint64_t>(bytes)) + " bytes";
}

// Why H5Fopen failed: HDF5's file lock held by a writer, or not HDF5 at all.
Error OpenFailure(const ScoreFile& file, const std::string& what) {
  if (flock(file.fd(), LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
    return Error(what +
                 ": the file is locked by another process that has it open for writing "
                 "(HDF5's file lock, e.g. an h5py.File opened with 'w' or 'a'): close it there "
                 "and retry, or, if nothing writes it, set HDF5_USE_FILE_LOCKING=FALSE");
  }
  flock(file.fd(), LOCK_UN);
  return Error(what + " is not a readable HDF5 file");
}

// The file HDF5 opened is the one OpenScoreFile checked.
Status CheckSameFile(hid_t f, const ScoreFile& file, const std::string& what) {
  void* handle = nullptr;
  struct stat st;
  if (H5Fget_vfd_handle(f, H5P_DEFAULT, &handle) < 0 || handle == nullptr ||
      fstat(*static_cast<int*>(handle), &st) != 0) {
    return Error(what + ": cannot check which file HDF5 opened");
  }
  if (st.st_dev != file.device() || st.st_ino != file.inode()) {
    return Error(what + ": the file changed while it was being opened");
  }
  return Status::Ok();
}

// Every component of `dataset` exists and is a hard link.
Status CheckHardLinks(hid_t file, const std::string& dataset, const std::string& what) {
  if (dataset.size() < 2 || dataset[0] != '/') {
    return Error(what + ": the dataset must be an absolute path such as /scores, got " +
                 QuoteText(dataset));
  }
  size_t at = 1;
  while (at <= dataset.size()) {
    size_t end = dataset.find('/', at);
    if (end == std::string::npos) end = dataset.size();
    const std::string so_far = dataset.substr(0, end);
    if (end == at) return Error(what + ": empty component in dataset path " + QuoteText(dataset));
    if (H5Lexists(file, so_far.c_str(), H5P_DEFAULT) <= 0) {
      return Error(what + ": no dataset " + QuoteText(dataset) + " in the file (" +
                   QuoteText(so_far) + " does not exist)");
    }
    H5L_info_t link;
    if (H5Lget_info(file, so_far.c_str(), &link, H5P_DEFAULT) < 0) {
      return Error(what + ": cannot read the link " + QuoteText(so_far));
    }
    if (link.type != H5L_TYPE_HARD) {
      return Error(what + ": " + QuoteText(so_far) + " is " +
                   (link.type == H5L_TYPE_EXTERNAL ? "an external" : "a soft") +
                   " link; score datasets are read through hard links only");
    }
    at = end + 1;
  }
  return Status::Ok();
}

// What CheckDataset learnt: the value count and the bounds of the storage.
struct DatasetShape {
  size_t values = 0;
  size_t type_bytes = 0;
  double cap = 0.0;  // the most bytes the read may decompress or allocate
  hsize_t file_size = 0;
};

Result<DatasetShape> CheckTypeAndShape(hid_t ds, const std::string& what) {
  Hdf5Handle type(H5Dget_type(ds), H5Tclose);
  if (H5Tget_class(type.get()) != H5T_FLOAT) {
    return Error(what + " is not a floating-point dataset; scores must be float64, float32 " +
                 "or float16");
  }
  DatasetShape shape;
  shape.type_bytes = H5Tget_size(type.get());
  if (shape.type_bytes == 0 || shape.type_bytes > kMaxFloatBytes) {
    return Error(what + " has a " + std::to_string(shape.type_bytes) +
                 "-byte float type; scores must be float64, float32 or float16");
  }
  Hdf5Handle space(H5Dget_space(ds), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank != 1) {
    return Error(what + " has " + std::to_string(rank) +
                 " dimensions; scores must be a 1-D dataset");
  }
  PB_ASSIGN_OR_RETURN(shape.values,
                      BoundedDatasetCount(space.get(), kMaxValues, what, "a score file may hold"));
  return shape;
}

// 1-D, floating point, data in this file, within the allocation cap.
Result<DatasetShape> CheckDataset(hid_t ds, hid_t dcpl, const std::string& what) {
  PB_ASSIGN_OR_RETURN(DatasetShape shape, CheckTypeAndShape(ds, what));
  PB_RETURN_IF_ERROR(CheckOwnStorage(dcpl, what, "score datasets must hold their own data"));
  PB_ASSIGN_OR_RETURN(const Hdf5LoadCap cap, Hdf5LoadCapOf(ds, what));
  shape.file_size = cap.file_size;
  shape.cap = cap.bytes;
  const double need = static_cast<double>(shape.values) * sizeof(double);
  if (need > shape.cap) {
    return Error(what + " declares " + std::to_string(shape.values) + " values in a file of " +
                 std::to_string(shape.file_size) +
                 " bytes; at most 16 times the file's size is loaded");
  }
  return shape;
}

// h5py's LZF filter (registered in a process that imported h5py).
constexpr H5Z_filter_t kLzfFilter = 32000;

struct Filter {
  H5Z_filter_t id = 0;
  std::vector<unsigned> values;  // the client data (cd_values)
  bool compresses() const { return id == H5Z_FILTER_DEFLATE || id == kLzfFilter; }
};

// The filter pipeline, in writing order; only filters whose output size is
// bounded (checked below) are accepted.
Result<std::vector<Filter>> FilterPipeline(hid_t dcpl, const std::string& what) {
  const int count = H5Pget_nfilters(dcpl);
  if (count < 0) return Error(what + ": cannot read its filter pipeline");
  std::vector<Filter> out;
  for (int i = 0; i < count; ++i) {
    unsigned flags = 0, config = 0, values[16] = {0};
    size_t nvalues = 16;
    char name[64] = {0};
    Filter f;
    f.id = H5Pget_filter2(dcpl, static_cast<unsigned>(i), &flags, &nvalues, values, sizeof(name),
                          name, &config);
    if (f.id != H5Z_FILTER_DEFLATE && f.id != H5Z_FILTER_SHUFFLE && f.id != H5Z_FILTER_FLETCHER32 &&
        f.id != kLzfFilter) {
      return Error(what + " is stored with the filter " + QuoteText(name) + " (id " +
                   std::to_string(f.id) +
                   "); score datasets may use gzip (deflate), lzf, shuffle and fletcher32 only "
                   "(the others' output is not checked)");
    }
    f.values.assign(values, values + std::min<size_t>(nvalues, 16));
    out.push_back(std::move(f));
  }
  return out;
}

// Shuffle reorders bytes by its stored element size: that must be the
// dataset's (HDF5 sets it so).
Status CheckFilterParameters(const std::vector<Filter>& pipeline, size_t type_bytes,
                             const std::string& what) {
  for (const Filter& f : pipeline) {
    if (f.id == H5Z_FILTER_SHUFFLE && (f.values.empty() || f.values[0] != type_bytes)) {
      return Error(what + "'s shuffle filter declares another element size than the dataset's");
    }
  }
  return Status::Ok();
}

// The size `data` inflates to, refused beyond `limit` (counted in a 64 KiB
// scratch buffer: nothing of that size is allocated).
Result<size_t> InflatedSize(const unsigned char* data, size_t size, size_t limit,
                            const std::string& chunk) {
  z_stream z{};
  if (inflateInit(&z) != Z_OK) return Error(chunk + ": zlib failed to start");
  std::vector<unsigned char> scratch(size_t{1} << 16);
  z.next_in = const_cast<unsigned char*>(data);
  z.avail_in = static_cast<uInt>(size);
  int status = Z_OK;
  while (status == Z_OK) {
    z.next_out = scratch.data();
    z.avail_out = static_cast<uInt>(scratch.size());
    status = inflate(&z, Z_NO_FLUSH);
    if (z.total_out > limit) status = Z_MEM_ERROR;
  }
  const uLong total = z.total_out;
  inflateEnd(&z);
  if (status == Z_MEM_ERROR) {
    return Error(chunk + " inflates to more than its " + std::to_string(limit) +
                 " bytes (a decompression bomb); refused before reading");
  }
  if (status != Z_STREAM_END) return Error(chunk + " is not a complete gzip (deflate) stream");
  return static_cast<size_t>(total);
}

// The size an LZF stream (liblzf's format, as h5py's filter writes it)
// decodes to, counted without decoding; refused beyond `limit`.
Result<size_t> LzfSize(const unsigned char* in, size_t size, size_t limit,
                       const std::string& chunk) {
  size_t i = 0, out = 0;
  while (i < size) {
    const unsigned c = in[i++];
    if (c < 32) {  // a literal run of c + 1 bytes
      if (i + c + 1 > size) return Error(chunk + " is not a complete LZF stream");
      i += c + 1;
      out += c + 1;
    } else {  // a back reference of (c >> 5) + 2 bytes (+ an extra length byte)
      size_t len = c >> 5;
      if (len == 7 && i < size) len += in[i++];
      if (i >= size) return Error(chunk + " is not a complete LZF stream");
      const size_t back = ((c & 0x1fu) << 8) + in[i++] + 1;
      if (back > out) return Error(chunk + " is not a valid LZF stream");
      out += len + 2;
    }
    if (out > limit) {
      return Error(chunk + " decompresses to more than its " + std::to_string(limit) +
                   " bytes (a decompression bomb); refused before reading");
    }
  }
  return out;
}

// One stored chunk: its filters undone in reverse, sizes only. A
// decompression must come first (after checksums): shuffle applied after
// compressing is refused.
Status CheckChunkStream(const std::vector<unsigned char>& raw, unsigned mask,
                        const std::vector<Filter>& pipeline, size_t limit,
                        const std::string& chunk) {
  size_t len = raw.size();
  bool transformed = false, decompressed = false;
  for (size_t k = pipeline.size(); k-- > 0;) {
    if (k < 32 && (mask & (1u << k)) != 0) continue;  // skipped for this chunk
    const Filter& f = pipeline[k];
    if (f.id == H5Z_FILTER_FLETCHER32) {
      if (len < 4) return Error(chunk + " is shorter than its checksum");
      len -= 4;
    } else if (!f.compresses()) {
      transformed = true;
    } else if (decompressed || transformed) {
      return Error(chunk + " is compressed twice or shuffled after compression; score " +
                   "datasets use shuffle before compressing, as h5py writes them");
    } else {
      PB_ASSIGN_OR_RETURN(len, f.id == kLzfFilter ? LzfSize(raw.data(), len, limit, chunk)
                                                  : InflatedSize(raw.data(), len, limit, chunk));
      decompressed = true;
    }
  }
  // HDF5 copies a whole chunk out of the decoded buffer: a shorter one
  // would be read past its end.
  if (len != limit) {
    return Error(chunk + " decodes to " + std::to_string(len) + " bytes, not its chunk's " +
                 std::to_string(limit));
  }
  return Status::Ok();
}

// Chunked storage: the chunk size and the decompressed total bounded, and
// every stored chunk checked to hold (or decode to) exactly its chunk's
// size, before anything is read.
Status CheckChunks(hid_t ds, hid_t dcpl, const DatasetShape& shape, const std::string& what) {
  if (H5Pget_layout(dcpl) != H5D_CHUNKED || shape.values == 0) return Status::Ok();
  hsize_t chunk = 0;
  if (H5Pget_chunk(dcpl, 1, &chunk) != 1 || chunk == 0) {
    return Error(what + ": cannot read its chunk shape");
  }
  const double chunk_bytes = static_cast<double>(chunk) * static_cast<double>(shape.type_bytes);
  if (chunk_bytes > static_cast<double>(kMaxH5ChunkBytes)) {
    return Error(what + " is stored in chunks of " + std::to_string(chunk) + " values (" +
                 FormatBytes(chunk_bytes) + "), more than the 64 MiB a chunk may have");
  }
  const hsize_t positions = (static_cast<hsize_t>(shape.values) + chunk - 1) / chunk;
  if (static_cast<double>(positions) * chunk_bytes > shape.cap) {
    return Error(what + " decompresses to " +
                 FormatBytes(static_cast<double>(positions) * chunk_bytes) + " in a file of " +
                 std::to_string(shape.file_size) +
                 " bytes; at most 16 times the file's size is loaded");
  }
  PB_ASSIGN_OR_RETURN(const std::vector<Filter> pipeline, FilterPipeline(dcpl, what));
  PB_RETURN_IF_ERROR(CheckFilterParameters(pipeline, shape.type_bytes, what));
  if (positions > static_cast<hsize_t>(kMaxH5CheckedChunks)) {
    return Error(what + " is stored in " + std::to_string(positions) +
                 " chunks; at most 65536 chunks are checked (rewrite it with larger chunks)");
  }
  const size_t limit = static_cast<size_t>(chunk_bytes);
  for (hsize_t k = 0; k < positions; ++k) {
    const hsize_t offset = k * chunk;
    unsigned mask = 0;
    haddr_t address = 0;
    hsize_t stored = 0;
    if (H5Dget_chunk_info_by_coord(ds, &offset, &mask, &address, &stored) < 0) {
      return Error(what + ": cannot read the index of chunk " + std::to_string(k));
    }
    if (stored == 0) continue;  // never written: the fill value
    const std::string name = what + ": chunk " + std::to_string(k);
    if (pipeline.empty()) {  // HDF5 copies a whole chunk out of what is stored
      if (stored != limit) {
        return Error(name + " stores " + std::to_string(stored) + " bytes, not its chunk's " +
                     std::to_string(limit));
      }
      continue;
    }
    if (stored > shape.file_size || stored > limit + limit / 16 + 1024) {
      return Error(name + " claims " + std::to_string(stored) + " stored bytes, more than its " +
                   std::to_string(limit) + " bytes could take compressed");
    }
    std::vector<unsigned char> raw(static_cast<size_t>(stored));
    uint32_t filters = 0;
    if (H5Dread_chunk(ds, H5P_DEFAULT, &offset, &filters, raw.data()) < 0) {
      return Error(name + " cannot be read");
    }
    PB_RETURN_IF_ERROR(CheckChunkStream(raw, filters, pipeline, limit, name));
  }
  return Status::Ok();
}

}  // namespace

Result<std::vector<double>> ReadH5Scores(const ScoreFile& file, const std::string& dataset,
                                         const std::string& what) {
  SilenceHdf5();
  const std::string& path = file.resolved();
  if (H5Fis_hdf5(path.c_str()) <= 0) return Error(what + " is not an HDF5 file");
  Hdf5Handle f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!f.ok()) return OpenFailure(file, what);
  PB_RETURN_IF_ERROR(CheckSameFile(f.get(), file, what));
  PB_RETURN_IF_ERROR(CheckHardLinks(f.get(), dataset, what));
  H5O_info_t info;
  if (H5Oget_info_by_name2(f.get(), dataset.c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT) < 0 ||
      info.type != H5O_TYPE_DATASET) {
    return Error(what + ": " + QuoteText(dataset) + " is not a dataset");
  }
  Hdf5Handle ds(H5Dopen2(f.get(), dataset.c_str(), H5P_DEFAULT), H5Dclose);
  if (!ds.ok()) return Error(what + ": cannot open dataset " + QuoteText(dataset));
  Hdf5Handle dcpl(H5Dget_create_plist(ds.get()), H5Pclose);
  if (!dcpl.ok()) return Error("cannot read the storage properties of " + what);
  PB_ASSIGN_OR_RETURN(const DatasetShape shape, CheckDataset(ds.get(), dcpl.get(), what));
  PB_RETURN_IF_ERROR(CheckChunks(ds.get(), dcpl.get(), shape, what));
  std::vector<double> out;
  try {
    out.resize(shape.values);
  } catch (const std::bad_alloc&) {
    return Error(what + ": out of memory (" + std::to_string(shape.values) + " values)");
  }
  if (shape.values > 0 &&
      H5Dread(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0) {
    return Error(what + ": cannot read dataset " + QuoteText(dataset));
  }
  return out;
}

}  // namespace privbench
