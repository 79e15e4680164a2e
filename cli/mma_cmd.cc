#include "cli/mma_cmd.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "ptxfu/ptxfu.hpp"

namespace ptxfu::cli {
namespace {

struct Matrix {
  int rows = 0, cols = 0;
  std::vector<uint64_t> v;  // row-major
};

// "0x3c00" or "3c00" -> its value; false for anything else or more than 64 bits.
bool parse_hex(std::string_view t, uint64_t* out) {
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t.remove_prefix(2);
  while (t.size() > 1 && t[0] == '0') t.remove_prefix(1);
  if (t.empty() || t.size() > 16) return false;
  uint64_t v = 0;
  for (char ch : t) {
    const int d = ch >= '0' && ch <= '9'   ? ch - '0'
                  : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                  : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                           : -1;
    if (d < 0) return false;
    v = v << 4 | static_cast<uint64_t>(d);
  }
  *out = v;
  return true;
}

// One line's elements appended to m; throws with FILE:LINE:COLUMN.
void read_row(const std::string& path, unsigned line_no, std::string_view line, unsigned bits, std::string_view type,
              Matrix* m) {
  const auto where = [&](std::size_t at) { return fmt::format("{}:{}:{}: ", path, line_no, at + 1); };
  int count = 0;
  std::size_t last = 0;
  for (std::size_t at = 0; at < line.size();) {
    if (line[at] == ' ' || line[at] == '\t' || line[at] == '\r') {
      ++at;
      continue;
    }
    std::size_t end = at;
    while (end < line.size() && line[end] != ' ' && line[end] != '\t' && line[end] != '\r') ++end;
    const std::string_view tok = line.substr(at, end - at);
    uint64_t v = 0;
    if (!parse_hex(tok, &v))
      throw std::runtime_error(where(at) + fmt::format("expected a hexadecimal bit pattern, found '{}'", tok));
    if (bits < 64 && (v >> bits))
      throw std::runtime_error(where(at) + fmt::format("0x{:x} does not fit in {} bits ({})", v, bits, type));
    m->v.push_back(v);
    ++count, last = at;
    at = end;
  }
  if (m->rows > 0 && count != m->cols)
    throw std::runtime_error(
        where(count > m->cols ? last : line.size()) +
        fmt::format("row {} has {} elements; the rows above have {}", m->rows + 1, count, m->cols));
  m->cols = count;
  ++m->rows;
}

Matrix read_matrix(const std::string& path, unsigned bits, std::string_view type) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  Matrix m;
  std::string line;
  for (unsigned line_no = 1; std::getline(in, line); ++line_no) {
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    read_row(path, line_no, line, bits, type, &m);
  }
  if (in.bad()) throw std::runtime_error(fmt::format("{}: read error", path));
  if (m.rows == 0) throw std::runtime_error(fmt::format("{}: no rows (a matrix needs at least one)", path));
  return m;
}

std::string format_matrix(const std::vector<uint64_t>& d, int rows, int cols, unsigned bits) {
  std::string text;
  const unsigned digits = (bits + 3) / 4;
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j)
      text += fmt::format("{}0x{:0{}x}", j ? " " : "", d[std::size_t(i) * cols + j], digits);
    text += '\n';
  }
  return text;
}

// Writes `text` to `path` through a temporary beside it, renamed into
// place once complete: a reader never sees half a matrix.
void write_atomically(const std::string& path, const std::string& text) {
  std::string tmp = path + ".tmp.XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) throw std::runtime_error(fmt::format("{}: cannot create a temporary: {}", path, std::strerror(errno)));
  std::FILE* f = ::fdopen(fd, "wb");
  const bool ok = f && std::fwrite(text.data(), 1, text.size(), f) == text.size() && std::fflush(f) == 0;
  const bool closed = f ? std::fclose(f) == 0 : ::close(fd) == 0;
  if (!ok || !closed || std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(tmp.c_str());
    throw std::runtime_error(fmt::format("{}: cannot write: {}", path, why));
  }
}

// The shape check's message names A, B or C: prefix that matrix's file.
[[noreturn]] void shape_error(const MmaCmdOptions& o, const Error& e) {
  const std::string msg = e.what();
  const std::string& path = msg[0] == 'A' ? o.a_path : msg[0] == 'B' ? o.b_path : o.c_path;
  throw std::runtime_error(fmt::format("{}: {}", path, msg));
}

}  // namespace

int run_mma(const MmaCmdOptions& o, std::ostream& out, std::ostream& err) {
  try {
    const MmaInstruction inst(o.instruction, o.target);
    const Matrix a = read_matrix(o.a_path, inst.a_bits(), inst.a_type());
    const Matrix b = read_matrix(o.b_path, inst.b_bits(), inst.b_type());
    const Matrix c = read_matrix(o.c_path, inst.c_bits(), inst.c_type());
    try {
      inst.check_shapes(a.rows, a.cols, b.rows, b.cols, c.rows, c.cols, o.matmul);
    } catch (const Error& e) {
      shape_error(o, e);
    }
    const std::vector<uint64_t> d = inst.matmul(a.rows, b.cols, a.cols, a.v, b.v, c.v);
    const std::string text = format_matrix(d, c.rows, c.cols, inst.d_bits());
    if (o.out_path.empty() || o.out_path == "-")
      out << text << std::flush;
    else
      write_atomically(o.out_path, text);
    return 0;
  } catch (const std::exception& e) {
    err << "ptxfu mma: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace ptxfu::cli
