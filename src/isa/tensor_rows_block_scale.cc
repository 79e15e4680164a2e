// The rows of mma with block scaling (.block_scale, .kind::mxf8f6f4,
// .kind::mxf4, .kind::mxf4nvf4) and the rules that judge them.
#include "isa/tensor_rows.h"

#include <fmt/format.h>

#include <string>

namespace ptxfu::isa::tensor_rows {
namespace {

// mma with block scaling (PTX ISA 9.1, "Block Scaling for mma.sync"; sm_120a
// and sm_121a): d, a, b, c, scale-a-data, {byte-id-a, thread-id-a},
// scale-b-data, {byte-id-b, thread-id-b}. The checks follow ptxas 13.0's
// order: the type patterns and operand kinds on every target, then the
// target, then the row of (shape, scale type), its .kind and .scale_vec, the
// fragments and the selectors' values.
constexpr TensorGate kBlockScale{"mma with block scale", 120, 87, false, "sm_120a sm_121a", true};

// One block-scaled row: the shape, its scale types, the kinds it takes and
// how the kind and scale vector sizes pair.
struct BlockScaleRow {
  std::string_view shape;
  std::string_view stypes;  // scale types that find this row
  std::string_view kinds;   // kinds it takes
  std::string_view ab;      // A and B types
  uint8_t a, b;             // A and B fragment registers
};
constexpr BlockScaleRow kBlockScaleRows[] = {
    {"m16n8k32", "ue8m0", "kind::mxf8f6f4", kF8f6f4Types, 4, 2},
    {"m16n8k64", "ue8m0 ue4m3", "kind::mxf4 kind::mxf4nvf4", "e2m1", 4, 2},
};

struct BlockScaleForm {
  bool sync = false, aligned = false, satfinite = false, rounding = false;
  unsigned kinds = 0, block_scales = 0;
  std::string_view kind, vec, sparse;
  std::string foreign;
  bool relu = false;
  std::string_view shapes[2];
  unsigned num_shapes = 0;
  std::string_view layouts[3];
  unsigned num_layouts = 0;
  std::string_view types[6];
  unsigned num_types = 0;
};

bool is_kind_word(std::string_view x) {
  return x == "kind::f8f6f4" || x == "kind::mxf8f6f4" || x == "kind::mxf4" || x == "kind::mxf4nvf4";
}

void read_block_scale(const Statement& st, BlockScaleForm& f) {
  const Words w = split(st.mnemonic.text);
  for (unsigned i = 0; i < w.n; ++i) {
    const std::string_view x = w.list[i];
    if (x == "sync") {
      f.sync = true;
    } else if (x == "aligned") {
      f.aligned = true;
    } else if (is_kind_word(x)) {
      f.kinds += 1, f.kind = x;
    } else if (x == "block_scale") {
      f.block_scales += 1;
    } else if (x == "scale_vec::1X" || x == "scale_vec::2X" || x == "scale_vec::4X") {
      f.vec = x;
    } else if (i == 0 && (x == "sp" || x == "sp::ordered_metadata")) {
      f.sparse = x;
    } else if (x == "satfinite") {
      f.satfinite = true;
    } else if (x == "row" || x == "col") {
      if (f.num_layouts < 3) f.layouts[f.num_layouts++] = x;
    } else if (is_mma_shape(x) || x == "m16n8k128") {
      if (f.num_shapes < 2) f.shapes[f.num_shapes++] = x;
    } else if (listed(kTypeNames, x) || x == "ue8m0" || x == "ue4m3") {
      if (f.num_types < 6) f.types[f.num_types++] = x;
    } else if (listed(kRoundings, x)) {
      f.rounding = true;
    } else if (f.foreign.empty()) {
      f.foreign = foreign_word(x, "mma");
      f.relu = x == "relu";
    }
  }
}

// ptxas's type patterns for block scaling: f32 d and c, A and B of the
// FP8/FP6/FP4 types, and a scale type (or e4m3, which it knows there too).
bool block_scale_types_known(const BlockScaleForm& f) {
  if (f.num_types != 5 || f.satfinite) return false;
  const std::string_view d = f.types[0], a = f.types[1], b = f.types[2], c = f.types[3], s = f.types[4];
  return d == "f32" && c == "f32" && listed(kF8f6f4Types, a) && listed(kF8f6f4Types, b) &&
         listed("ue8m0 ue4m3 e4m3", s);
}

// The register width of an operand's (first) register: 0 for none (an immediate).
unsigned register_bits(std::string_view text, const RegisterTable* regs, RegKind* kind = nullptr) {
  const auto r = regs ? regs->lookup(text) : std::nullopt;
  if (!r) return 0;
  if (kind) *kind = r->kind;
  return r->kind == RegKind::predicate ? 1 : r->bits;
}

// What ptxas checks of the operands on every target: their number, vector
// sizes, the register widths of the fragments and scale data, the selectors'
// first element.
bool block_scale_operands(const Statement& st, const RegisterTable* regs, Diagnostic& err) {
  const Token& at = st.mnemonic;
  if (st.num_operands != 8) return fail(err, at, "Arguments mismatch for instruction 'mma'");
  for (unsigned k = 0; k < 8; ++k) {
    const unsigned n = elements_in(st, k);
    if (n != 1 && n != 2 && n != 4 && n != 8)
      return fail(err, st.operands[k], fmt::format("Illegal vector size: {}", n));
  }
  for (unsigned k = 0; k < 4; ++k) {
    std::string_view e[8];
    const unsigned n = st.forms[k] == OperandForm::vector ? vector_elements(st.operands[k].text, e, 8)
                                                          : (e[0] = st.operands[k].text, 1u);
    for (unsigned i = 0; i < n && i < 8; ++i)
      if (regs && regs->lookup(e[i]) && register_bits(e[i], regs) != 32)
        return fail(err, st.operands[k], "Arguments mismatch for instruction 'mma'");
  }
  for (unsigned k : {4u, 6u}) {
    std::string_view e[8];
    const unsigned n = st.forms[k] == OperandForm::vector ? vector_elements(st.operands[k].text, e, 8)
                                                          : (e[0] = st.operands[k].text, 1u);
    for (unsigned i = 0; i < n && i < 8; ++i)
      if (regs && register_bits(e[i], regs) != 32)
        return fail(err, st.operands[k], "Arguments mismatch for instruction 'mma'");
    std::string_view sel[2];
    if (st.forms[k + 1] != OperandForm::vector || vector_elements(st.operands[k + 1].text, sel, 2) < 1)
      return fail(err, st.operands[k + 1], "Arguments mismatch for instruction 'mma'");
    const unsigned bits = register_bits(sel[0], regs);
    if (bits != 0 && bits != 16) return fail(err, st.operands[k + 1], "Arguments mismatch for instruction 'mma'");
  }
  return true;
}

const BlockScaleRow* block_scale_row(const BlockScaleForm& f) {
  for (const BlockScaleRow& r : kBlockScaleRows)
    if (r.shape == f.shapes[0] && listed(r.stypes, f.types[4]) && listed(r.ab, f.types[1]) && listed(r.ab, f.types[2]))
      return &r;
  return nullptr;
}

// The row's .kind: ptxas's message where the form's kind does not fit it
// (the mxf4 kinds on another shape are judged after .scale_vec).
bool mxf4_kind(const BlockScaleForm& f) { return f.kind == "kind::mxf4" || f.kind == "kind::mxf4nvf4"; }
std::string block_scale_kind_error(const BlockScaleForm& f, const BlockScaleRow* r) {
  if (mxf4_kind(f) && f.shapes[0] != "m16n8k64") return {};
  if (r && listed(r->kinds, f.kind)) return {};
  if (r && r->shape == "m16n8k32" && f.kind.empty()) return ".kind::mxf8f6f4 modifier required for instruction 'mma'";
  if (r && r->shape == "m16n8k32" && f.kind == "kind::f8f6f4")
    return "Illegal modifier '.kind::f8f6f4' for instruction 'mma'";
  return fmt::format("Incorrect instruction type specified for mma with shape '.{}'", f.shapes[0]);
}

// .scale_vec against the kind and the scale type (Table 36).
std::string block_scale_vec_error(const BlockScaleForm& f) {
  const std::string_view s = f.types[4];
  if (f.kind == "kind::mxf8f6f4") {
    if (!f.vec.empty() && f.vec != "scale_vec::1X")
      return fmt::format("Illegal modifier '.{}' for instruction 'mma'", f.vec);
    return {};
  }
  if (f.kind == "kind::mxf4") {
    if (!f.vec.empty() && f.vec != "scale_vec::2X")
      return fmt::format("Modifier '.{}' cannot be combined with modifier '.kind::mxf4'", f.vec);
    if (s == "ue4m3") return "Illegal modifier '.kind::mxf4' for instruction 'mma' with type '.ue4m3'";
    return {};
  }
  if (f.vec.empty()) return ".scale_vec_size modifier required for instruction 'mma'";
  if (f.vec == "scale_vec::1X") return "Illegal modifier '.scale_vec::1X' for instruction 'mma'";
  if (f.vec == "scale_vec::4X" && s == "ue8m0")
    return "Illegal modifier '.scale_vec::4X' for instruction 'mma' with type '.ue8m0'";
  if (f.vec == "scale_vec::2X" && s == "ue4m3")
    return "Illegal modifier '.scale_vec::2X' for instruction 'mma' with type '.ue4m3'";
  return {};
}

// The selectors' values (Table 37): byte-id by the scale vector size,
// thread-id-a 0..1, thread-id-b 0..3; registers are taken as they come.
bool block_scale_selectors(const Statement& st, const BlockScaleForm& f, const RegisterTable* regs, Diagnostic& err) {
  const std::string_view vec = f.vec.empty() ? (f.kind == "kind::mxf8f6f4" ? "scale_vec::1X" : "scale_vec::2X") : f.vec;
  for (unsigned k : {5u, 7u}) {
    std::string_view sel[4];
    const unsigned n = vector_elements(st.operands[k].text, sel, 4);
    if (n != 2) return fail(err, st.operands[k], "Argument vector size mismatch for instruction 'mma'");
    RegKind k0 = RegKind::bits, k1 = RegKind::bits;
    const bool r0 = register_bits(sel[0], regs, &k0) != 0, r1 = register_bits(sel[1], regs, &k1) != 0;
    if (r0 && r1 && (k0 == RegKind::floating) != (k1 == RegKind::floating))
      return fail(err, st.operands[k], "Vector with elements of different types are not allowed in mma instruction");
    if (!r0 && r1 && k1 == RegKind::floating)
      return fail(err, st.operands[k], "Vector with elements of different types are not allowed in mma instruction");
    uint64_t v = 0;
    const auto value = [&](std::string_view t, int64_t& out) {
      if (!literal_bits(t, 64, false, v)) return false;
      out = static_cast<int64_t>(v);
      return true;
    };
    int64_t byte = 0, thread = 0;
    if (!r0 && value(sel[0], byte)) {
      const bool bad = vec == "scale_vec::1X"   ? (byte < 0 || byte > 3)
                       : vec == "scale_vec::2X" ? (byte != 0 && byte != 2)
                                                : byte != 0;
      if (bad)
        return fail(
            err, st.operands[k],
            vec == "scale_vec::1X"
                ? fmt::format(
                      "Argument {} of instruction 'mma': value '{}' out of range, expected to be in range [0..3]", k,
                      sel[0])
                : fmt::format("Argument {} of instruction 'mma': unexpected value '{}', expected to be {}", k, sel[0],
                              vec == "scale_vec::2X" ? "0 or 2" : "0"));
    }
    const int64_t top = k == 5 ? 1 : 3;
    if (!r1 && value(sel[1], thread) && (thread < 0 || thread > top))
      return fail(
          err, st.operands[k],
          fmt::format("Argument {} of instruction 'mma': value '{}' out of range, expected to be in range [0..{}]", k,
                      sel[1], top));
  }
  return true;
}

// The fragments against the row: vectors of its sizes, A and B not float.
bool block_scale_fragments(const Statement& st, const BlockScaleRow& r, const RegisterTable* regs, Diagnostic& err) {
  for (unsigned k = 0; k < 4; ++k)
    if (st.forms[k] != OperandForm::vector)
      return fail(err, st.operands[k], fmt::format("Vector expected for argument {}", k));
  const unsigned want[4] = {4, r.a, r.b, 4};
  for (unsigned k = 0; k < 4; ++k)
    if (elements_in(st, k) != want[k])
      return fail(err, st.operands[k], "Argument vector size mismatch for instruction 'mma'");
  for (unsigned k = 1; k < 3; ++k)
    if (!check_elements(st.operands[k], st.forms[k], {32, true, false}, regs, "mma", err)) return false;
  return true;
}

}  // namespace

bool check_block_scale(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err) {
  BlockScaleForm f;
  read_block_scale(st, f);
  const Token& at = st.mnemonic;
  if (f.foreign.rfind("Unknown", 0) == 0) return fail(err, at, f.foreign);
  if (!f.sparse.empty()) {
    if (std::string e = gate_error(kOrdered, caps); !e.empty()) return fail(err, at, std::move(e));
    return fail(err, at, fmt::format("Illegal modifier '.{}' for instruction 'mma'", f.sparse));
  }
  if (f.relu && caps.ptx < 70) return fail(err, at, "Feature '.relu' requires PTX ISA .version 7.0 or later");
  if (!f.foreign.empty()) return fail(err, at, f.foreign);
  if (f.block_scales > 1) return fail(err, at, "Multiple .block_scale modifiers specified");
  if (f.kinds > 1) return fail(err, at, "Multiple .kind modifiers specified");
  if (!f.sync) return fail(err, at, ".sync modifier required for instruction 'mma'");
  for (unsigned i = 0; i < f.num_types; ++i)
    if (f.types[i] == "bf16" && caps.sm < 80) return fail(err, at, gate_error(kBf16, caps));
  if (f.num_types == 4) return fail(err, at, "Arguments mismatch for instruction 'mma'");
  if (!block_scale_types_known(f)) return fail(err, at, "Unexpected instruction types specified for 'mma'");
  if (!block_scale_operands(st, regs, err)) return false;
  const BlockScaleRow* r = f.num_shapes == 1 ? block_scale_row(f) : nullptr;
  if (std::string e = gate_error(r ? kBlockScale : kFp6Fp4, caps); !e.empty()) return fail(err, at, std::move(e));
  if (!f.aligned) return fail(err, at, ".aligned modifier required for instruction 'mma'");
  if (f.num_shapes > 1) return fail(err, at, "Multiple matrix shape modifiers specified");
  if (f.num_shapes == 0) return fail(err, at, "Shape modifier required for instruction 'mma'");
  if (f.num_layouts == 0) return fail(err, at, "'.alayout.blayout' modifier required for instruction 'mma'");
  if (f.num_layouts == 1) return fail(err, at, "'.blayout' modifier required for instruction 'mma'");
  if (f.layouts[0] != "row")
    return fail(err, at, fmt::format("Illegal alayout '.{}' for instruction 'mma'", f.layouts[0]));
  if (f.layouts[1] != "col")
    return fail(err, at, fmt::format("Illegal blayout '.{}' for instruction 'mma'", f.layouts[1]));
  if (std::string e = block_scale_kind_error(f, r); !e.empty()) return fail(err, at, std::move(e));
  if (std::string e = block_scale_vec_error(f); !e.empty()) return fail(err, at, std::move(e));
  if (mxf4_kind(f) && f.shapes[0] != "m16n8k64")
    return fail(err, at, fmt::format("Illegal matrix shape '.{}' for instruction 'mma'", f.shapes[0]));
  if (f.rounding) return fail(err, at, "Illegal rounding modifier for instruction 'mma'");
  return block_scale_fragments(st, *r, regs, err) && block_scale_selectors(st, f, regs, err);
}

bool is_block_scale(const Statement& st) {
  const Words w = split(st.mnemonic.text);
  for (unsigned i = 0; i < w.n; ++i)
    if (w.list[i] == "block_scale" || w.list[i].substr(0, 11) == "scale_vec::" || w.list[i].substr(0, 8) == "kind::mx")
      return true;
  return false;
}

}  // namespace ptxfu::isa::tensor_rows
