#include "mma/matrix.h"

#include <fmt/format.h>

#include <stdexcept>
#include <string>

#include "fp/ops.h"
#include "mma/block_fma.h"

namespace ptxfu::mma {
namespace {

[[noreturn]] void fail(std::string_view name, const std::string& why) {
  throw std::invalid_argument(fmt::format("{}: {}", name, why));
}

std::vector<std::string_view> split_dots(std::string_view s) {
  std::vector<std::string_view> parts;
  for (std::size_t at = 0;;) {
    const std::size_t dot = s.find('.', at);
    parts.push_back(s.substr(at, dot == std::string_view::npos ? std::string_view::npos : dot - at));
    if (dot == std::string_view::npos) return parts;
    at = dot + 1;
  }
}

// "m16n8k16" -> {16, 8, 16}.
bool parse_shape(std::string_view t, Shape* out) {
  int v[3] = {0, 0, 0};
  const char keys[3] = {'m', 'n', 'k'};
  std::size_t at = 0;
  for (int i = 0; i < 3; ++i) {
    if (at >= t.size() || t[at] != keys[i]) return false;
    ++at;
    const std::size_t start = at;
    while (at < t.size() && t[at] >= '0' && t[at] <= '9') v[i] = v[i] * 10 + (t[at++] - '0');
    if (at == start || v[i] == 0 || v[i] > 4096) return false;
  }
  if (at != t.size()) return false;
  *out = {v[0], v[1], v[2]};
  return true;
}

int parse_target(std::string_view target) {
  if (target.substr(0, 3) != "sm_") throw std::invalid_argument(fmt::format("target '{}' is not sm_NN", target));
  std::string_view digits = target.substr(3);
  if (!digits.empty() && (digits.back() == 'a' || digits.back() == 'f')) digits.remove_suffix(1);
  int sm = 0;
  for (char ch : digits) {
    if (ch < '0' || ch > '9') throw std::invalid_argument(fmt::format("target '{}' is not sm_NN", target));
    sm = sm * 10 + (ch - '0');
  }
  if (digits.empty() || sm > 999) throw std::invalid_argument(fmt::format("target '{}' is not sm_NN", target));
  return sm;
}

Family parse_family(std::string_view name, const std::vector<std::string_view>& parts) {
  if (!parts.empty() && parts[0] == "mma" && parts.size() >= 2 && parts[1].substr(0, 2) == "sp")
    fail(name,
         "sparse mma (mma.sp) is not modelled (measured on H100: the stored values as a dense m16n8k(K/2); "
         "docs/mma.md)");
  if (parts.size() >= 2 && parts[0] == "mma" && parts[1] == "sync") return Family::mma_sync;
  if (parts.size() >= 3 && parts[0] == "wmma" && parts[1] == "mma" && parts[2] == "sync") return Family::wmma;
  if (parts.size() >= 2 && parts[0] == "wgmma" && parts[1] == "mma_async") return Family::wgmma;
  fail(name, "not a matrix multiply-accumulate (mma.sync, wmma.mma.sync or wgmma.mma_async)");
}

// d, a, b, c from the type words as the family writes them.
void assign_types(std::string_view name, Family fam, const std::vector<Elem>& t, Instruction* inst) {
  if (t.size() == 4) {
    inst->d = t[0], inst->a = t[1], inst->b = t[2], inst->c = t[3];
  } else if (t.size() == 3 && fam == Family::wgmma) {
    inst->d = t[0], inst->a = t[1], inst->b = t[2], inst->c = t[0];
  } else if (t.size() == 2 && fam == Family::wmma) {  // f16 wmma: .dtype.ctype
    inst->d = t[0], inst->a = Elem::f16, inst->b = Elem::f16, inst->c = t[1];
  } else {
    fail(name, fmt::format("expected the types d.a.b.c (wgmma: d.a.b; f16 wmma: d.c), found {} type words", t.size()));
  }
}

// Available from which sm, for the error message.
std::string where_available(Family fam, Elem in, Elem out) {
  std::string where;
  const RowTable table = numerics_rows();
  for (std::size_t i = 0; i < table.size; ++i) {
    const NumericsRow& r = table.rows[i];
    if (r.in == in && r.out == out && (r.families & static_cast<uint8_t>(fam)))
      where += fmt::format("{}sm_{}..sm_{}", where.empty() ? "" : ", ", r.sm_first, r.sm_last);
  }
  return where.empty() ? "on no target" : "on " + where;
}

// mma with block scaling: .kind::mxf4 (ue8m0, 2X) and .kind::mxf4nvf4
// (ue8m0 2X, ue4m3 4X) on e2m1 (PTX ISA 9.1, "Block Scaling for mma.sync",
// Table 36); .kind::mxf8f6f4 is checked but not modelled.
Instruction parse_scaled(std::string_view name, std::string_view kind, Instruction inst) {
  if (kind != "kind::mxf4" && kind != "kind::mxf4nvf4")
    fail(name, "block scaling is modelled for .kind::mxf4 and .kind::mxf4nvf4 (e2m1) only");
  if (inst.scale_vec == 0 && kind == "kind::mxf4") inst.scale_vec = 2;
  const bool ok = kind == "kind::mxf4" ? inst.scale_vec == 2 && inst.scale == ScaleType::ue8m0
                                       : (inst.scale_vec == 2 && inst.scale == ScaleType::ue8m0) ||
                                             (inst.scale_vec == 4 && inst.scale == ScaleType::ue4m3);
  if (!ok) fail(name, "no such pairing of .kind, .scale_vec and the scale type (PTX ISA Table 36)");
  if (inst.a != Elem::e2m1 || inst.b != Elem::e2m1 || inst.shape.m != 16 || inst.shape.n != 8 || inst.shape.k != 64)
    fail(name, "block-scaled .kind::mxf4* is m16n8k64 with e2m1 A and B");
  inst.row = find_block_scaled_row(inst.sm, inst.a, inst.d);
  if (inst.row == nullptr || inst.c != inst.d)
    fail(name, fmt::format("not available on sm_{}: block-scaled e2m1 -> f32 exists on sm_120a and sm_121a", inst.sm));
  return inst;
}

}  // namespace

Instruction parse_instruction(std::string_view name, std::string_view target) {
  Instruction inst{};
  inst.sm = parse_target(target);
  const std::vector<std::string_view> parts = split_dots(name);
  inst.family = parse_family(name, parts);
  bool have_shape = false, scaled = false, have_stype = false;
  std::string_view kind;
  std::vector<Elem> types;
  for (std::string_view p : parts) {
    Elem e;
    Shape s;
    if (parse_shape(p, &s))
      have_shape = true, inst.shape = s;
    else if (p == "satfinite")
      inst.satfinite = true;
    else if (parse_elem(p, &e))
      types.push_back(e);
    else if (p.substr(0, 6) == "kind::")
      kind = p;
    else if (p == "block_scale")
      scaled = true;
    else if (p.size() == 13 && p.substr(0, 11) == "scale_vec::")
      inst.scale_vec = p[11] - '0';
    else if (parse_scale_type(p, &inst.scale))
      have_stype = true;
  }
  if (!have_shape) fail(name, "no shape (mMnNkK)");
  assign_types(name, inst.family, types, &inst);
  if (scaled || have_stype || kind.substr(0, 8) == "kind::mx") {
    if (!scaled || !have_stype) fail(name, "a block-scaled mma needs .block_scale and a scale type (.ue8m0, .ue4m3)");
    return parse_scaled(name, kind, inst);
  }
  if (inst.a != inst.b) fail(name, "A and B of different types are not modelled");
  if (inst.satfinite && !is_integer(inst.a)) fail(name, ".satfinite is for integer types here");
  inst.row = find_row(inst.sm, inst.family, inst.a, inst.d);
  if (inst.row == nullptr) {
    fail(name, fmt::format("not available on sm_{}: {} -> {} exists {}", inst.sm, elem_name(inst.a), elem_name(inst.d),
                           where_available(inst.family, inst.a, inst.d)));
  }
  return inst;
}

namespace {

// An A or B element as the engine takes it: tf32 registers truncated.
uint64_t engine_input(const Instruction& inst, uint64_t bits) {
  return inst.row->truncate_inputs ? (bits & 0xffffffff) >> 13 : bits;
}

// C in d's type.
uint64_t engine_c(const Instruction& inst, uint64_t bits) {
  if (inst.c == inst.d || is_integer(inst.d)) return bits;
  const bool widening = format_of(inst.c)->frac_bits <= format_of(inst.d)->frac_bits;
  return fp::convert(*format_of(inst.c), *format_of(inst.d), bits,
                     fp::Policy{widening ? fp::Rounding::rz : fp::Rounding::rn});
}

void check_size(const char* what, std::size_t got, std::size_t want) {
  if (got != want) throw std::invalid_argument(fmt::format("matrix {} has {} elements, expected {}", what, got, want));
}

}  // namespace

void mma_scaled_cols(const Instruction& inst, const uint64_t* a, const uint64_t* b_cols, const uint64_t* c,
                     const uint64_t* scale_a, const uint64_t* scale_b, uint64_t* d) {
  const int m = inst.shape.m, n = inst.shape.n, k = inst.shape.k, v = inst.scale_vec;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      d[i * n + j] = block_scaled_fma(*inst.row, inst.scale, std::size_t(k), a + i * k, b_cols + j * k, scale_a + i * v,
                                      scale_b + j * v, std::size_t(v), c[i * n + j]);
}

void matmul_cols(const Instruction& inst, int m, int n, int k, const uint64_t* a, const uint64_t* b_cols,
                 const uint64_t* c, uint64_t* d, BlockObserver* observer) {
  if (inst.scale_vec > 0)
    throw std::invalid_argument(
        "a block-scaled mma needs its scale factors: it runs in the kernel model (ptxfu sim); the matrix APIs take "
        "none yet");
  const std::size_t rows = m, cols = n, kk = k;
  // The engine's operands where they differ from the caller's: tf32
  // registers truncated, C in D's type.
  std::vector<uint64_t> ta, tb, tc;
  if (inst.row->truncate_inputs) {
    ta.resize(rows * kk), tb.resize(cols * kk);
    for (std::size_t t = 0; t < ta.size(); ++t) ta[t] = engine_input(inst, a[t]);
    for (std::size_t t = 0; t < tb.size(); ++t) tb[t] = engine_input(inst, b_cols[t]);
    a = ta.data(), b_cols = tb.data();
  }
  if (inst.c != inst.d && !is_integer(inst.d)) {
    tc.resize(rows * cols);
    for (std::size_t t = 0; t < tc.size(); ++t) tc[t] = engine_c(inst, c[t]);
    c = tc.data();
  }
  block_fma_matrix(*inst.row, std::size_t(inst.shape.k), rows, cols, kk, a, b_cols, c, d, inst.satfinite, observer);
}

std::vector<uint64_t> matmul(const Instruction& inst, int m, int n, int k, const std::vector<uint64_t>& a,
                             const std::vector<uint64_t>& b, const std::vector<uint64_t>& c) {
  if (m <= 0 || n <= 0 || k <= 0 || k % inst.shape.k != 0)
    throw std::invalid_argument(
        fmt::format("matmul: K = {} is not a positive multiple of the instruction's k = {}", k, inst.shape.k));
  check_size("A", a.size(), std::size_t(m) * k);
  check_size("B", b.size(), std::size_t(k) * n);
  check_size("C", c.size(), std::size_t(m) * n);
  std::vector<uint64_t> cols(b.size()), d(std::size_t(m) * n);  // B's columns, each contiguous
  for (std::size_t t = 0; t < std::size_t(k); ++t) {
    for (int j = 0; j < n; ++j) cols[j * std::size_t(k) + t] = b[t * n + j];
  }
  matmul_cols(inst, m, n, k, a.data(), cols.data(), c.data(), d.data());
  return d;
}

std::vector<uint64_t> mma(const Instruction& inst, const std::vector<uint64_t>& a, const std::vector<uint64_t>& b,
                          const std::vector<uint64_t>& c) {
  return matmul(inst, inst.shape.m, inst.shape.n, inst.shape.k, a, b, c);
}

}  // namespace ptxfu::mma
