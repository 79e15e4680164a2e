// The rows of mma.sync and its sparse forms (mma.sp, mma.sp::ordered_metadata)
// and of .kind::f8f6f4, with the reader and rules that judge them.
#include "isa/tensor_rows.h"

#include <fmt/format.h>

#include <iterator>
#include <string>

namespace ptxfu::isa {
namespace tensor_rows {
namespace {

constexpr TensorGate kFp8{"mma with FP8 floating point type", 89, 84};
constexpr TensorGate kFp8Acc16{"mma with FP8 floating point type and FP16 accumulation", 89, 87};
constexpr TensorGate kFp8K16{"mma with FP8 floating point type and .m16n8k16 shape", 89, 87};
constexpr TensorGate kSparse{"Sparse MMA", 80, 71};
// FP8 sparse mma with .f16 accumulators: sm_120a and sm_121a only (ptxas 13.0)
constexpr TensorGate kSparseFp8Acc16{
    "mma with with F16 accumulator and F8 floating point type", 120, 87, false, "sm_120a sm_121a", true};
// .kind::f8f6f4 (PTX 8.6): the architecture- and family-specific targets from sm_100 on; with the
// FP6 and FP4 types, sm_120a and sm_121a only (PTX 8.7).
constexpr TensorGate kKindF8f6f4{
    ".kind::f8f6f4", 100, 86, false,
    "sm_100a sm_100f sm_101a sm_103a sm_103f sm_110a sm_110f sm_120a sm_120f sm_121a sm_121f"};

// mma.sync (PTX ISA 9.1, "Matrix multiply-accumulate operation using mma
// instruction"): fragment sizes from its "Matrix Fragments" sections; the
// targets and versions as ptxas 13.0 checks them (sm_70 forms: PTX ISA,
// ptxas 13.0 assembles nothing older than sm_75).
// clang-format off
constexpr MmaRow kMma[] = {
    // shape, A/B types, C/D types, a, b, c16, c32, any layout, mixed acc, mods, layout name, gates
    {"m8n8k4", "f16", "f16 f32", 2, 2, 4, 8, true, true, kMmaPlain, "mma", {{".m8n8k4", 70, 64}}},
    {"m16n8k8", "f16", "f16 f32", 2, 1, 2, 4, false, false, kMmaPlain, "mma", {{".m16n8k8", 75, 65}}},
    {"m16n8k16", "f16", "f16 f32", 4, 2, 2, 4, false, false, kMmaPlain, "mma", {{".m16n8k16", 80, 70}}},
    {"m16n8k8", "bf16", "f32", 2, 1, 0, 4, false, false, kMmaPlain, "mma", {kBf16}},
    {"m16n8k16", "bf16", "f32", 4, 2, 0, 4, false, false, kMmaPlain, "mma", {kBf16}},
    {"m16n8k4", "tf32", "f32", 2, 1, 0, 4, false, false, kMmaPlain, "mma", {kTf32}},
    {"m16n8k8", "tf32", "f32", 4, 2, 0, 4, false, false, kMmaPlain, "mma", {kTf32}},
    {"m8n8k4", "f64", "f64", 1, 1, 0, 2, false, false, kMmaPlain | kMmaASizeIsArguments | kMmaBSizeIsArguments, "mma with double types", {{".m8n8k4 with double types", 80, 70}}},
    {"m16n8k4", "f64", "f64", 2, 1, 0, 4, false, false, kMmaPlain | kMmaASizeIsArguments | kMmaBSizeIsArguments, "mma", {{".m16n8k4 with double types", 90, 78}}},
    {"m16n8k8", "f64", "f64", 4, 2, 0, 4, false, false, kMmaPlain | kMmaASizeIsArguments | kMmaBSizeIsArguments, "mma", {{".m16n8k8 with double types", 90, 78}}},
    {"m16n8k16", "f64", "f64", 8, 4, 0, 4, false, false, kMmaPlain | kMmaASizeIsArguments | kMmaBSizeIsArguments, "mma", {{".m16n8k16 with double types", 90, 78}}},
    {"m8n8k16", "s8 u8", "s32", 1, 1, 0, 2, false, false, kMmaSatfinite, "mma", {{".m8n8k16", 75, 65}}},
    {"m16n8k16", "s8 u8", "s32", 2, 1, 0, 4, false, false, kMmaSatfinite, "mma", {{".m16n8k16", 80, 70}}},
    {"m16n8k32", "s8 u8", "s32", 4, 2, 0, 4, false, false, kMmaSatfinite, "mma", {{".m16n8k32", 80, 70}}},
    {"m8n8k32", "s4 u4", "s32", 1, 1, 0, 2, false, false, kMmaSatfinite | kMmaBitOpIgnored, "mma", {{".m8n8k32", 75, 65}}},
    {"m16n8k32", "s4 u4", "s32", 2, 1, 0, 4, false, false, kMmaSatfinite | kMmaBitOpIgnored, "mma", {{".m16n8k32", 80, 70}}},
    {"m16n8k64", "s4 u4", "s32", 4, 2, 0, 4, false, false, kMmaSatfinite | kMmaBitOpIgnored, "mma", {{".m16n8k64", 80, 70}}},
    {"m8n8k128", "b1", "s32", 1, 1, 0, 2, false, false, kMmaBitOp | kMmaASizeIsArguments | kMmaBSizeIsArguments, "mma", {{".m8n8k128", 75, 70}}},
    {"m16n8k128", "b1", "s32", 2, 1, 0, 4, false, false, kMmaBitOp | kMmaBSizeIsArguments, "mma", {{".m16n8k128", 80, 70}}},
    {"m16n8k256", "b1", "s32", 4, 2, 0, 4, false, false, kMmaBitOp, "mma", {{".m16n8k256", 80, 70}}},
    {"m16n8k32", "e4m3 e5m2", "f32", 4, 2, 0, 4, false, false, kMmaPlain, "mma", {kFp8}},
    {"m16n8k32", "e4m3 e5m2", "f16", 4, 2, 2, 0, false, false, kMmaPlain, "mma", {kFp8, kFp8Acc16}},
    // B: ptxas 13.0 takes a vector of any size here (0), though the fragment is one register
    {"m16n8k16", "e4m3 e5m2", "f32", 2, 0, 0, 4, false, false, kMmaPlain, "mma", {kFp8, kFp8K16}},
    {"m16n8k16", "e4m3 e5m2", "f16", 2, 0, 2, 0, false, false, kMmaPlain, "mma", {kFp8, kFp8K16, kFp8Acc16}},
    // mma.sp: A's fragment holds the kept half of each row of K
    {"m16n8k16", "f16", "f16 f32", 2, 2, 2, 4, false, false, kMmaPlain, "mma", {kSparse}, true, 3},
    {"m16n8k32", "f16", "f16 f32", 4, 4, 2, 4, false, false, kMmaPlain, "mma", {kSparse}, true, 1},
    {"m16n8k16", "bf16", "f32", 2, 2, 0, 4, false, false, kMmaPlain, "mma", {kBf16, kSparse}, true, 3},
    {"m16n8k32", "bf16", "f32", 4, 4, 0, 4, false, false, kMmaPlain, "mma", {kBf16, kSparse}, true, 1},
    {"m16n8k8", "tf32", "f32", 2, 2, 0, 4, false, false, kMmaPlain, "mma", {kTf32, kSparse}, true, 3},
    {"m16n8k16", "tf32", "f32", 4, 4, 0, 4, false, false, kMmaPlain, "mma", {kTf32, kSparse}, true, 1},
    {"m16n8k32", "s8 u8", "s32", 2, 2, 0, 4, false, false, kMmaSatfinite, "mma", {kSparse}, true, 1},
    {"m16n8k64", "s8 u8", "s32", 4, 4, 0, 4, false, false, kMmaSatfinite, "mma", {kSparse}, true, 0},
    {"m16n8k64", "s4 u4", "s32", 2, 2, 0, 4, false, false, kMmaSatfinite, "mma", {kSparse}, true, 1},
    {"m16n8k128", "s4 u4", "s32", 4, 4, 0, 4, false, false, kMmaSatfinite, "mma", {kSparse}, true, 0},
    {"m16n8k64", "e4m3 e5m2", "f32", 4, 4, 0, 4, false, false, kMmaPlain, "mma", {kFp8, kSparse}, true, 0},
    {"m16n8k64", "e4m3 e5m2", "f16", 4, 4, 2, 0, false, false, kMmaOrderedOnly, "mma", {kFp8, kSparseFp8Acc16, kSparse}, true, 0},
    // .kind::f8f6f4: A and B each of the FP8, FP6 and FP4 types
    {"m16n8k32", kF8f6f4Types, "f32", 4, 2, 0, 4, false, false, kMmaPlain, "mma", {}, false, 0, "kind::f8f6f4"},
    {"m16n8k32", kF8f6f4Types, "f16", 4, 2, 2, 0, false, false, kMmaPlain, "mma", {kFp8Acc16}, false, 0, "kind::f8f6f4"},
    {"m16n8k16", kF8f6f4Types, "f32", 2, 0, 0, 4, false, false, kMmaPlain, "mma", {kFp8K16}, false, 0, "kind::f8f6f4"},
    {"m16n8k16", kF8f6f4Types, "f16", 2, 0, 2, 0, false, false, kMmaPlain, "mma", {kFp8K16, kFp8Acc16}, false, 0, "kind::f8f6f4"},
};
// clang-format on

// The .and bit operation came after .xor.
constexpr TensorGate kAndGate{".and", 80, 71};

constexpr std::string_view kSubWord = "bf16 tf32 s4 u4 b1";  // ptxas's fifth mma type pattern

// An mma mnemonic, read into its parts.
struct MmaForm : SharedWords {
  std::string_view rounding;  // the f64 forms take one
  bool sparse = false;        // mma.sp
  bool ordered = false;       // mma.sp::ordered_metadata
  std::string_view kind;      // .kind::f8f6f4
  unsigned kinds = 0;
  std::string foreign;  // the error of the first word mma does not take
  bool relu = false;    // that word is .relu, which is newer than some versions
  std::string_view shapes[2];
  unsigned num_shapes = 0;
  std::string_view layouts[3];
  unsigned num_layouts = 0;
  std::string_view types[6];
  unsigned num_types = 0;
};

// Sorts the words; a word mma does not take is the first error.
bool read_mma(const Statement& st, MmaForm& f, Diagnostic& err) {
  const Words w = split(st.mnemonic.text);
  for (unsigned i = 0; i < w.n; ++i) {
    const std::string_view x = w.list[i];
    if (read_shared_word(x, f)) continue;
    if (x == "kind::f8f6f4") {
      f.kinds += 1;
      f.kind = x;
    } else if (x == "sp" || x == "sp::ordered_metadata") {
      f.sparse = i == 0;
      f.ordered = x != "sp";
    } else if (x == "row" || x == "col") {
      if (f.num_layouts < 3) f.layouts[f.num_layouts++] = x;
    } else if (is_mma_shape(x)) {
      if (f.num_shapes < 2) f.shapes[f.num_shapes++] = x;
    } else if (listed(kTypeNames, x)) {
      if (f.num_types < 6) f.types[f.num_types++] = x;
    } else if (listed(kRoundings, x)) {
      f.rounding = x;
    } else if (f.foreign.empty()) {  // reported after the types' own target needs
      f.foreign = foreign_word(x, "mma");
      f.relu = x == "relu";
    }
  }
  if (f.num_layouts > 2) return fail(err, st.mnemonic, "Parsing error near '.row': too many layout specifiers");
  return true;
}

// ptxas's type patterns for mma (d, a, b, c), before it looks at the shape:
// a type list outside all of them is "Unexpected instruction types".
bool mma_types_known(const MmaForm& f) {
  if (f.num_types != 4) return false;
  const std::string_view d = f.types[0], a = f.types[1], b = f.types[2], c = f.types[3];
  const bool integer = d == "s32" && c == "s32";
  if ((f.satfinite || !f.bitop.empty() || f.popc) && !integer) return false;
  auto both = [&](std::string_view list) { return listed(list, a) && listed(list, b); };
  if (!f.kind.empty() || listed("e3m2 e2m3 e2m1", a) || listed("e3m2 e2m3 e2m1", b))
    return both(kF8f6f4Types) && d == c && listed("f16 f32", d);
  if (a == "f16" && b == "f16") return listed("f16 f32", d) && listed("f16 f32", c);
  if (both("e4m3 e5m2")) return d == c && listed("f16 f32", d);
  if (a == "f64") return b == "f64" && c == "f64" && d == "f64";
  if (both("s8 u8")) return integer && f.bitop.empty() && !f.popc;
  return both(kSubWord) && d == c && listed("f32 s32", d);
}

// The target needs of the types themselves, checked before the form's own.
std::string mma_type_gate(const MmaForm& f, const Capabilities& caps) {
  for (unsigned i = 0; i < f.num_types; ++i) {
    const std::string_view t = f.types[i];
    if (t == "bf16" && caps.sm < 80) return gate_error(kBf16, caps);
    if (t == "tf32" && caps.sm < 80) return gate_error(kTf32, caps);
  }
  return {};
}

// The row of the shape whose A type is the form's (nullptr: none).
const MmaRow* mma_row(const MmaForm& f) {
  const MmaRow* first = nullptr;
  for (const MmaRow& r : kMma) {
    if (r.sparse != f.sparse || r.kind != f.kind || r.shape != f.shapes[0] || !listed(r.ab, f.types[1])) continue;
    if (listed(r.cd, f.types[3])) return &r;  // the row of its accumulator, where there are several
    if (!first) first = &r;
  }
  return first;
}

// mma.sp's metadata e (a 32-bit register) and sparsity selector f (an
// integer immediate).
bool mma_sparse_operands(const Statement& st, const RegisterTable* regs, Diagnostic& err) {
  const Token& e = st.operands[4];
  const auto r = regs ? regs->lookup(e.text) : std::nullopt;
  const bool e_ok =
      regs ? r && r->bits == 32 && r->kind != RegKind::predicate : classify_literal(e.text) == LiteralKind::none;
  if (st.forms[4] != OperandForm::plain || !e_ok || classify_literal(st.operands[5].text) != LiteralKind::integer)
    return fail(err, st.mnemonic, "Arguments mismatch for instruction 'mma'");
  return true;
}

// Operands before the shape is known: four of them, vectors of a size PTX
// has, registers of the types' widths and kinds.
bool mma_operands_known(const Statement& st, const MmaForm& f, const RegisterTable* regs, Diagnostic& err) {
  if (st.num_operands != (f.sparse ? 6u : 4u))
    return fail(err, st.mnemonic, "Arguments mismatch for instruction 'mma'");
  if (f.sparse && !mma_sparse_operands(st, regs, err)) return false;
  for (unsigned k = 0; k < 4; ++k) {
    const unsigned n = elements_in(st, k);
    if (n != 1 && n != 2 && n != 4 && n != 8)
      return fail(err, st.operands[k], fmt::format("Illegal vector size: {}", n));
  }
  for (unsigned k = 0; k < 4; ++k) {
    const std::string_view type = f.types[k == 0 ? 0 : k == 3 ? 3 : k];
    if (!check_elements(st.operands[k], st.forms[k], element_of(type), regs, "mma", err)) return false;
  }
  return true;
}

// The row's own rules that ptxas applies before the row's target needs:
// layouts, the B, C and D types, the bit operation.
bool mma_row_rules(const Statement& st, const MmaForm& f, const MmaRow& r, Diagnostic& err) {
  const std::string_view d = f.types[0], b = f.types[2], c = f.types[3];
  if (!r.any_layout && f.layouts[0] != "row")
    return fail(err, st.mnemonic,
                fmt::format("Illegal alayout '.{}' for instruction '{}'", f.layouts[0], r.layout_name));
  if (!r.any_layout && f.layouts[1] != "col")
    return fail(err, st.mnemonic,
                fmt::format("Illegal blayout '.{}' for instruction '{}'", f.layouts[1], r.layout_name));
  if (!listed(r.ab, b) || !listed(r.cd, c) || !listed(r.cd, d))
    return fail(err, st.mnemonic,
                fmt::format("Incorrect instruction type specified for mma with shape '.{}'", f.shapes[0]));
  if (f.satfinite && !(r.mods & kMmaSatfinite))
    return fail(err, st.mnemonic, "Illegal modifier '.satfinite' for instruction 'mma'");
  if (f.popc && f.bitop.empty())
    return fail(err, st.mnemonic, "Illegal reduction operation for instruction 'mma.s32.s32'");
  if ((r.mods & kMmaBitOp) && (f.bitop.empty() || !f.popc))
    return fail(err, st.mnemonic,
                fmt::format("Unexpected number of operations specified for mma with shape '.{}'", f.shapes[0]));
  if (!(r.mods & (kMmaBitOp | kMmaBitOpIgnored)) && !f.bitop.empty())
    return fail(err, st.mnemonic, "Illegal reduction operation for instruction 'mma.s32.s32'");
  return true;
}

// The rules ptxas applies after the row's target needs: one accumulator
// type, the rounding of the f64 forms, .satfinite.
bool mma_late_rules(const Statement& st, const MmaForm& f, const MmaRow& r, Diagnostic& err) {
  const std::string_view d = f.types[0], c = f.types[3];
  if (d != c && !(r.mixed_acc && d == "f32"))
    return fail(err, st.mnemonic,
                fmt::format(".dtype must be '.{0}' when .ctype is '.{0}' for 'mma' instruction with shape '.{1}'", c,
                            f.shapes[0]));
  if (!f.rounding.empty() && d != "f64")
    return fail(err, st.mnemonic, "Illegal rounding modifier for instruction 'mma'");
  return true;
}

// Each operand a vector of the row's fragment size.
bool mma_fragments(const Statement& st, const MmaForm& f, const MmaRow& r, Diagnostic& err) {
  const std::string_view size_error = r.sparse ? "Argument vector size mismatch for instruction 'Sparse mma'"
                                               : "Argument vector size mismatch for instruction 'mma'";
  auto acc = [&](std::string_view t) -> unsigned { return t == "f16" ? r.c16 : r.c32; };
  const unsigned want[4] = {acc(f.types[0]), r.a, r.b, acc(f.types[3])};
  for (unsigned k = 0; k < 4; ++k)
    if (st.forms[k] != OperandForm::vector)
      return fail(err, st.operands[k], fmt::format("Vector expected for argument {}", k));
  for (unsigned k = 0; k < 4; ++k)
    if (want[k] != 0 && elements_in(st, k) != want[k])
      return fail(err, st.operands[k],
                  (k == 1 && (r.mods & kMmaASizeIsArguments)) || (k == 2 && (r.mods & kMmaBSizeIsArguments))
                      ? std::string("Arguments mismatch for instruction 'mma'")
                      : std::string(size_error));
  if (r.sparse) {  // the sparsity selector
    uint64_t v = 0;
    const std::string_view sel = st.operands[5].text;
    if (!literal_bits(sel, 64, false, v) || v > r.selector_max)
      return fail(err, st.operands[5],
                  fmt::format("Argument 6 of instruction 'Sparse mma': value '{}' out of range, expected to be in "
                              "range [0..{}]",
                              sel, r.selector_max));
  }
  return true;
}

// The targets the A and B types need: FP6/FP4 (sm_120a, with .kind::f8f6f4)
// or FP8; one .kind at most, first.
bool mma_type_targets(const Statement& st, const MmaForm& f, const Capabilities& caps, Diagnostic& err) {
  const std::string_view a = f.types[1], b = f.types[2];
  std::string e;
  if (f.kinds > 1) {
    e = "Multiple .kind modifiers specified";
  } else if (listed("e3m2 e2m3 e2m1", a) || listed("e3m2 e2m3 e2m1", b)) {
    e = gate_error(kFp6Fp4, caps);
    if (e.empty() && f.kind.empty()) e = ".kind::f8f6f4 modifier required for instruction 'mma'";
  } else if (listed("e4m3 e5m2", a) || listed("e4m3 e5m2", b)) {
    e = gate_error(kFp8, caps);
  }
  return e.empty() || fail(err, st.mnemonic, std::move(e));
}

}  // namespace

bool is_mma_shape(std::string_view w) {
  for (const MmaRow& r : kMma)
    if (r.shape == w) return true;
  return false;
}

bool check_mma(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err) {
  if (is_block_scale(st)) return check_block_scale(st, caps, regs, err);
  MmaForm f;
  if (!read_mma(st, f, err)) return false;
  if (f.relu && caps.ptx < 70) return fail(err, st.mnemonic, "Feature '.relu' requires PTX ISA .version 7.0 or later");
  if (std::string g = mma_type_gate(f, caps); !g.empty()) return fail(err, st.mnemonic, std::move(g));
  if (!f.foreign.empty()) return fail(err, st.mnemonic, f.foreign);
  if (!f.sync) return fail(err, st.mnemonic, ".sync modifier required for instruction 'mma'");
  if (!mma_types_known(f)) return fail(err, st.mnemonic, "Unexpected instruction types specified for 'mma'");
  if (!mma_operands_known(st, f, regs, err)) return false;
  if (f.ordered)
    if (std::string e = gate_error(kOrdered, caps); !e.empty()) return fail(err, st.mnemonic, std::move(e));
  if (!mma_type_targets(st, f, caps, err)) return false;
  if (!f.aligned) return fail(err, st.mnemonic, ".aligned modifier required for instruction 'mma'");
  if (f.num_shapes > 1) return fail(err, st.mnemonic, "Multiple matrix shape modifiers specified");
  if (f.num_shapes == 0) return fail(err, st.mnemonic, "Shape modifier required for instruction 'mma'");
  if (f.num_layouts == 0) return fail(err, st.mnemonic, "'.alayout.blayout' modifier required for instruction 'mma'");
  if (f.num_layouts == 1) return fail(err, st.mnemonic, "'.blayout' modifier required for instruction 'mma'");
  const MmaRow* r = mma_row(f);
  if (!r)
    return fail(err, st.mnemonic,
                fmt::format("Incorrect instruction type specified for mma with shape '.{}'", f.shapes[0]));
  if (!mma_row_rules(st, f, *r, err)) return false;
  if (f.bitop == "and" && (r->mods & kMmaBitOp))
    if (std::string e = gate_error(kAndGate, caps, "Modifier", " on 'mma'"); !e.empty())
      return fail(err, st.mnemonic, std::move(e));
  for (const TensorGate& g : r->gates)
    if (std::string e = gate_error(g, caps); !e.empty()) return fail(err, st.mnemonic, std::move(e));
  if (!f.kind.empty())
    if (std::string e = gate_error(kKindF8f6f4, caps); !e.empty()) return fail(err, st.mnemonic, std::move(e));
  if ((r->mods & kMmaOrderedOnly) && !f.ordered)
    return fail(err, st.mnemonic, "Illegal modifier '.sp' for instruction 'mma'");
  return mma_late_rules(st, f, *r, err) && mma_fragments(st, f, *r, err);
}

}  // namespace tensor_rows

const MmaRow* mma_rows_begin() { return std::begin(tensor_rows::kMma); }
const MmaRow* mma_rows_end() { return std::end(tensor_rows::kMma); }

}  // namespace ptxfu::isa
