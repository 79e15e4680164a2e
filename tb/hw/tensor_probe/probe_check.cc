#include "probe_check.h"

#include <fmt/format.h>

#include <cctype>
#include <fstream>
#include <functional>
#include <ptxfu/ptxfu.hpp>
#include <sstream>
#include <stdexcept>

namespace ptxfu::probe_check {
namespace {

// A cursor over one line, for file:line:column errors.
struct Line {
  const std::string& path;
  int number;
  const std::string& text;
  std::size_t at = 0;

  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error(fmt::format("{}:{}:{}: {}", path, number, at + 1, why));
  }
  std::string word() {
    while (at < text.size() && text[at] == ' ') ++at;
    const std::size_t start = at;
    while (at < text.size() && text[at] != ' ') ++at;
    if (start == at) fail("expected another field");
    return text.substr(start, at - start);
  }
  bool done() {
    while (at < text.size() && text[at] == ' ') ++at;
    return at == text.size();
  }
  uint64_t hex() {
    const std::size_t start = (done(), at);
    const std::string w = word();
    uint64_t v = 0;
    if (w.size() > 16) at = start, fail("hex value longer than 64 bits: '" + w + "'");
    for (char ch : w) {
      const int digit = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
      if (digit < 0) at = start, fail("not a hex digit in '" + w + "'");
      v = v << 4 | uint64_t(digit);
    }
    return v;
  }
  // "key=value" -> value, the key checked.
  std::string keyed(const std::string& key) {
    const std::size_t start = (done(), at);
    const std::string w = word();
    if (w.compare(0, key.size() + 1, key + "=") != 0) at = start, fail("expected " + key + "=...");
    return w.substr(key.size() + 1);
  }
  static bool decimal(const std::string& v) {
    return !v.empty() && v.size() < 10 && v.find_first_not_of("0123456789") == std::string::npos;
  }
  int number_of(const std::string& key) {
    const std::string v = keyed(key);
    if (!decimal(v)) fail(key + " is not a number: '" + v + "'");
    return std::stoi(v);
  }
  std::size_t count() {
    const std::string v = word();
    if (!decimal(v)) fail("not a number: '" + v + "'");
    return std::stoul(v);
  }
};

// Returns the declared tile count.
std::size_t read_header(Line& l, ProbeForm* f) {
  if (l.word() != "form") l.at = 0, l.fail("expected 'form ID INSTRUCTION m= n= k= a= c= d= tiles='");
  f->id = l.word();
  f->instruction = l.word();
  f->m = l.number_of("m"), f->n = l.number_of("n"), f->k = l.number_of("k");
  f->a_type = l.keyed("a"), f->c_type = l.keyed("c"), f->d_type = l.keyed("d");
  return std::size_t(l.number_of("tiles"));
}

void read_matrix(Line& l, char tag, std::size_t count, std::vector<uint64_t>* out) {
  const std::string w = l.word();
  if (w.size() != 1 || w[0] != tag) l.at = 0, l.fail(fmt::format("expected the {} line", tag));
  out->clear();
  while (!l.done()) out->push_back(l.hex());
  if (out->size() != count) l.fail(fmt::format("{} has {} elements, expected {}", tag, out->size(), count));
}

}  // namespace

ProbeForm parse_numerics(const std::string& text, const std::string& path) {
  ProbeForm f;
  f.path = path;
  std::istringstream in(text);
  std::string s;
  int number = 0;
  bool have_header = false, ended = false;
  std::size_t declared = 0;
  const char tags[4] = {'A', 'B', 'C', 'D'};
  while (std::getline(in, s)) {
    Line l{path, ++number, s};
    if (s.empty() || s[0] == '#') continue;
    if (ended) l.fail("text after 'end'");
    if (!have_header) {
      declared = read_header(l, &f);
      have_header = true;
      continue;
    }
    const std::string w = l.word();
    if (w == "end") {
      if (l.count() != f.tiles.size() || f.tiles.size() != declared)
        l.fail(fmt::format("{} tiles read, the file declares {}", f.tiles.size(), declared));
      ended = true;
      continue;
    }
    if (w != "tile") l.at = 0, l.fail("expected 'tile INDEX KIND' or 'end N'");
    ProbeTile t;
    t.index = int(l.count());
    t.kind = l.word();
    if (!l.done()) {
      const std::string meta = l.keyed("meta");
      if (meta.size() != 1 || !std::isxdigit(static_cast<unsigned char>(meta[0]))) l.fail("meta is one hex digit");
      t.meta = int(std::stoul(meta, nullptr, 16));
    }
    const std::size_t sizes[4] = {std::size_t(f.m) * f.k, std::size_t(f.k) * f.n, std::size_t(f.m) * f.n,
                                  std::size_t(f.m) * f.n};
    std::vector<uint64_t>* mats[4] = {&t.a, &t.b, &t.c, &t.d};
    for (int i = 0; i < 4; ++i) {
      if (!std::getline(in, s))
        throw std::runtime_error(fmt::format("{}:{}: the file ends inside a tile", path, number));
      Line ml{path, ++number, s};
      read_matrix(ml, tags[i], sizes[i], mats[i]);
    }
    f.tiles.push_back(std::move(t));
  }
  if (!have_header) throw std::runtime_error(path + ": no 'form' line");
  if (!ended) throw std::runtime_error(fmt::format("{}:{}: no 'end' line: the file is cut short", path, number));
  return f;
}

ProbeForm read_numerics(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_numerics(text.str(), path);
}

namespace {

bool is_nan(const std::string& type, uint64_t v) {
  if (type == "f16") return (v & 0x7c00) == 0x7c00 && (v & 0x3ff) != 0;
  if (type == "f32") return (v & 0x7f800000) == 0x7f800000 && (v & 0x7fffff) != 0;
  if (type == "f64") return (v & 0x7ff0000000000000ULL) == 0x7ff0000000000000ULL && (v & 0xfffffffffffffULL) != 0;
  return false;
}

using Compute = std::function<std::vector<uint64_t>(const ProbeTile&)>;

Agreement compare(const ProbeForm& f, const std::string& reference, const Compute& compute) {
  Agreement g;
  g.reference = reference;
  for (const ProbeTile& t : f.tiles) {
    const std::vector<uint64_t> want = compute(t);
    std::size_t ok = 0;
    for (std::size_t e = 0; e < t.d.size(); ++e) {
      if (want[e] == t.d[e]) {
        ++ok;
        continue;
      }
      if (is_nan(f.d_type, want[e]) && is_nan(f.d_type, t.d[e])) ++g.both_nan;
      if (g.first.size() < 5)
        g.first.push_back(fmt::format("tile {} ({}) D[{}][{}]: GPU {:#x}, {} {:#x}", t.index, t.kind, e / f.n, e % f.n,
                                      t.d[e], reference, want[e]));
    }
    ++g.tiles, g.tiles_matched += ok == t.d.size();
    g.elements += t.d.size(), g.elements_matched += ok;
  }
  return g;
}

// The PTX ISA's single-bit mma: D = C + popc(row of A op column of B), s32 wrapping.
std::vector<uint64_t> b1_reference(const ProbeForm& f, const ProbeTile& t, bool xor_op) {
  std::vector<uint64_t> d(std::size_t(f.m) * f.n);
  for (int i = 0; i < f.m; ++i) {
    for (int j = 0; j < f.n; ++j) {
      uint32_t s = uint32_t(t.c[std::size_t(i) * f.n + j]);
      for (int k = 0; k < f.k; ++k) {
        const uint64_t x = t.a[std::size_t(i) * f.k + k] & 1, y = t.b[std::size_t(k) * f.n + j] & 1;
        s += uint32_t(xor_op ? x ^ y : x & y);
      }
      d[std::size_t(i) * f.n + j] = s;
    }
  }
  return d;
}

std::string replace_once(std::string s, const std::string& from, const std::string& to) {
  const std::size_t at = s.find(from);
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

// mma.sp: the two readings, each through the engine's dense m16n8k(K/2).
std::vector<Agreement> sparse_readings(const ProbeForm& f, const std::string& target) {
  std::string dense = replace_once(f.instruction, "mma.sp::ordered_metadata.sync", "mma.sync");
  dense = replace_once(dense, fmt::format("k{}", f.k), fmt::format("k{}", f.k / 2));
  const MmaInstruction inst(dense, target);
  auto as_dense = [&](const ProbeTile& t) { return inst.matmul(f.m, f.n, f.k, t.a, t.b, t.c); };
  auto compressed = [&](const ProbeTile& t) {
    const int half = f.k / 2, idx[2] = {t.meta & 3, (t.meta >> 2) & 3};
    std::vector<uint64_t> a(std::size_t(f.m) * half), b(std::size_t(half) * f.n);
    for (int q = 0; q < half; ++q) {
      const int col = 4 * (q / 2) + idx[q % 2];
      for (int i = 0; i < f.m; ++i) a[std::size_t(i) * half + q] = t.a[std::size_t(i) * f.k + col];
      for (int j = 0; j < f.n; ++j) b[std::size_t(q) * f.n + j] = t.b[std::size_t(col) * f.n + j];
    }
    return inst.mma(a, b, t.c);
  };
  return {compare(f, "engine, dense A as two " + inst.shape(), as_dense),
          compare(f, "engine, stored A as one " + inst.shape(), compressed)};
}

}  // namespace

FormReport check_form(const ProbeForm& f, const std::string& target) {
  FormReport r;
  r.id = f.id, r.instruction = f.instruction;
  const bool b1_xor = f.instruction.find(".xor.popc") != std::string::npos;
  try {
    if (f.a_type == "b1") {
      r.readings.push_back(compare(f, "host b1", [&](const ProbeTile& t) { return b1_reference(f, t, b1_xor); }));
    } else if (f.instruction.rfind("mma.sp", 0) == 0) {
      for (const ProbeTile& t : f.tiles)
        if (t.meta < 0) throw std::runtime_error(fmt::format("{}: tile {} has no meta=", f.path, t.index));
      r.readings = sparse_readings(f, target);
    } else {
      const MmaInstruction inst(f.instruction, target);
      if (inst.m() != f.m || inst.n() != f.n || inst.k() != f.k)
        throw std::runtime_error(fmt::format("{}: the header's shape is not {}'s", f.path, inst.shape()));
      r.readings.push_back(compare(f, "engine", [&](const ProbeTile& t) { return inst.mma(t.a, t.b, t.c); }));
    }
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  return r;
}

std::string describe(const FormReport& r) {
  if (!r.error.empty()) return r.id + ": not compared: " + r.error + "\n";
  std::string out;
  for (const Agreement& g : r.readings) {
    out += fmt::format("{}: {} {}/{} tiles, {}/{} elements", r.id, g.reference, g.tiles_matched, g.tiles,
                       g.elements_matched, g.elements);
    if (g.both_nan) out += fmt::format(" ({} mismatches are NaN against NaN)", g.both_nan);
    out += "\n";
    for (const std::string& m : g.first) out += "    " + m + "\n";
  }
  return out;
}

}  // namespace ptxfu::probe_check
