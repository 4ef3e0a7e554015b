#include "data_scripts/idx.h"

#include <zlib.h>

#include <cstdio>
#include <cstring>

namespace privbench {

namespace {
std::string Hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%08x", v);
  return buf;
}
uint32_t BigEndian32(const unsigned char* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}
}  // namespace

Result<IdxArray> ParseIdxUbyte(std::string_view bytes, std::string_view name, int expected_rank) {
  const std::string file(name);
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  if (bytes.size() < 4) {
    return Error(file + ": too short for an IDX header (" + std::to_string(bytes.size()) +
                 " bytes)");
  }
  const uint32_t magic = BigEndian32(p);
  const uint32_t expected_magic = 0x00000800u | static_cast<uint32_t>(expected_rank);
  if (magic != expected_magic) {
    return Error(file + ": bad IDX magic number " + Hex32(magic) + ", expected " +
                 Hex32(expected_magic) + " (unsigned bytes, rank " + std::to_string(expected_rank) +
                 ")");
  }
  const size_t header = 4 + 4 * static_cast<size_t>(expected_rank);
  if (bytes.size() < header) {
    return Error(file + ": truncated IDX header (" + std::to_string(bytes.size()) + " bytes)");
  }
  IdxArray out;
  uint64_t total = 1;
  for (int r = 0; r < expected_rank; ++r) {
    const uint32_t dim = BigEndian32(p + 4 + 4 * r);
    out.dims.push_back(dim);
    total *= dim;
    if (total > (uint64_t{1} << 40)) return Error(file + ": IDX dimensions are implausibly large");
  }
  if (bytes.size() - header != total) {
    std::string shape;
    for (size_t r = 0; r < out.dims.size(); ++r) {
      shape += (r ? " x " : "") + std::to_string(out.dims[r]);
    }
    return Error(file + ": IDX payload has " + std::to_string(bytes.size() - header) +
                 " bytes, expected " + std::to_string(total) + " for dimensions " + shape);
  }
  out.data.assign(p + header, p + bytes.size());
  return out;
}

Result<std::string> Gunzip(std::string_view compressed, std::string_view name,
                           size_t max_output_bytes) {
  const std::string file(name);
  z_stream zs;
  std::memset(&zs, 0, sizeof(zs));
  // 16 + MAX_WBITS: gzip wrapper only.
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) return Error(file + ": zlib init failed");
  std::string out;
  char buffer[1 << 16];
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  zs.avail_in = static_cast<uInt>(compressed.size());
  int ret = Z_OK;
  while (true) {
    zs.next_out = reinterpret_cast<Bytef*>(buffer);
    zs.avail_out = sizeof(buffer);
    ret = inflate(&zs, Z_NO_FLUSH);
    if (ret != Z_OK && ret != Z_STREAM_END) break;
    out.append(buffer, sizeof(buffer) - zs.avail_out);
    if (out.size() > max_output_bytes) {
      inflateEnd(&zs);
      return Error(file + ": decompressed size exceeds " + std::to_string(max_output_bytes) +
                   " bytes");
    }
    if (ret == Z_STREAM_END) {
      if (zs.avail_in == 0) break;
      // Concatenated gzip members.
      if (inflateReset(&zs) != Z_OK) break;
      continue;
    }
    if (zs.avail_in == 0 && zs.avail_out != 0) {
      ret = Z_BUF_ERROR;  // input ended before the stream did
      break;
    }
  }
  const std::string zmsg = zs.msg ? zs.msg : "";
  inflateEnd(&zs);
  if (ret != Z_STREAM_END) {
    if (ret == Z_BUF_ERROR) return Error(file + ": truncated gzip stream");
    return Error(file + ": corrupt gzip stream" + (zmsg.empty() ? "" : " (" + zmsg + ")"));
  }
  return out;
}

Result<std::string> Gzip(std::string_view data) {
  z_stream zs;
  std::memset(&zs, 0, sizeof(zs));
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    return Error("zlib deflate init failed");
  }
  std::string out(deflateBound(&zs, static_cast<uLong>(data.size())) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  const int ret = deflate(&zs, Z_FINISH);
  const size_t written = out.size() - zs.avail_out;
  deflateEnd(&zs);
  if (ret != Z_STREAM_END) return Error("gzip compression failed");
  out.resize(written);
  return out;
}

}  // namespace privbench
