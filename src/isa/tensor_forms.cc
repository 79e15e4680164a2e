#include "isa/tensor_forms.h"

#include <fmt/format.h>

#include <string>

#include "isa/features.h"
#include "isa/tcgen05_forms.h"

namespace ptxfu::isa {
namespace {

constexpr TensorGate kNoGate{};
constexpr TensorGate kFp8{"mma with FP8 floating point type", 89, 84};
constexpr TensorGate kFp8Acc16{"mma with FP8 floating point type and FP16 accumulation", 89, 87};
constexpr TensorGate kFp8K16{"mma with FP8 floating point type and .m16n8k16 shape", 89, 87};
constexpr TensorGate kBf16{".bf16", 80, 70, true};
constexpr TensorGate kTf32{".tf32", 80, 70, true};
constexpr TensorGate kSparse{"Sparse MMA", 80, 71};
constexpr TensorGate kOrdered{".sp::ordered_metadata", 80, 85};
// FP8 sparse mma with .f16 accumulators: sm_120a and sm_121a only (ptxas 13.0)
constexpr TensorGate kSparseFp8Acc16{
    "mma with with F16 accumulator and F8 floating point type", 120, 87, false, "sm_120a sm_121a", true};
// .kind::f8f6f4 (PTX 8.6): the architecture- and family-specific targets from sm_100 on; with the
// FP6 and FP4 types, sm_120a and sm_121a only (PTX 8.7).
constexpr TensorGate kKindF8f6f4{
    ".kind::f8f6f4", 100, 86, false,
    "sm_100a sm_100f sm_101a sm_103a sm_103f sm_110a sm_110f sm_120a sm_120f sm_121a sm_121f"};
constexpr TensorGate kFp6Fp4{"mma with with FP6/FP4 floating point type", 120, 87, false, "sm_120a sm_121a", true};
constexpr std::string_view kF8f6f4Types = "e4m3 e5m2 e3m2 e2m3 e2m1";

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
    {"m8n8k32",
     "s4 u4",
     "s32",
     1,
     1,
     0,
     2,
     false,
     false,
     kMmaSatfinite | kMmaBitOpIgnored,
     "mma",
     {{".m8n8k32", 75, 65}}},
    {"m16n8k32",
     "s4 u4",
     "s32",
     2,
     1,
     0,
     4,
     false,
     false,
     kMmaSatfinite | kMmaBitOpIgnored,
     "mma",
     {{".m16n8k32", 80, 70}}},
    {"m16n8k64",
     "s4 u4",
     "s32",
     4,
     2,
     0,
     4,
     false,
     false,
     kMmaSatfinite | kMmaBitOpIgnored,
     "mma",
     {{".m16n8k64", 80, 70}}},
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

// Type names an mma may spell; others are modifiers.
constexpr std::string_view kTypeNames =
    "f16 bf16 tf32 f32 f64 s8 u8 s4 u4 b1 s32 u32 b32 e4m3 e5m2 e2m1 e3m2 e2m3 b8 b16 b64 u16 s16 u64 s64 f16x2 bf16x2";
constexpr std::string_view kRoundings = "rn rz rm rp rna rs";
constexpr std::string_view kForeignModifiers =
    "ftz sat relu approx full wide hi lo cc NaN xorsign abs oob trans shared global volatile relaxed acquire release";
constexpr std::string_view kSubWord = "bf16 tf32 s4 u4 b1";  // ptxas's fifth mma type pattern

bool listed(std::string_view list, std::string_view word) {
  while (!list.empty()) {
    const size_t space = list.find(' ');
    if (list.substr(0, space) == word) return true;
    if (space == std::string_view::npos) break;
    list.remove_prefix(space + 1);
  }
  return false;
}

bool fail(Diagnostic& err, const Token& at, std::string message) {
  err = {at.column, std::move(message), at.line};
  return false;
}

// "Feature 'x' requires ..." where `caps` lack the gate; empty when they have it.
std::string gate_error(const TensorGate& g, const Capabilities& caps, std::string_view kind = "Feature",
                       std::string_view on = "") {
  if (g.name.empty()) return {};
  if (g.target_first && caps.sm < g.min_sm)
    return fmt::format("{} '{}'{} requires .target sm_{} or higher", kind, g.name, on, g.min_sm);
  if (caps.ptx < g.min_ptx)
    return fmt::format("{} '{}'{} requires PTX ISA .version {} or later", kind, g.name, on,
                       format_ptx_version(g.min_ptx));
  if (!g.targets.empty() ? !listed(g.targets, caps.target_name) : caps.sm < g.min_sm)
    return g.targets.empty() ? fmt::format("{} '{}'{} requires .target sm_{} or higher", kind, g.name, on, g.min_sm)
                             : fmt::format("{} '{}' not supported on .target '{}'",
                                           g.instruction ? "Instruction" : kind, g.name, caps.target_name);
  return {};
}

// The mnemonic's words after the opcode.
struct Words {
  std::string_view list[24];
  unsigned n = 0;
};
Words split(std::string_view mnemonic) {
  Words w;
  size_t dot = mnemonic.find('.');
  while (dot != std::string_view::npos && w.n < 24) {
    const size_t next = mnemonic.find('.', dot + 1);
    w.list[w.n++] = mnemonic.substr(dot + 1, next == std::string_view::npos ? next : next - dot - 1);
    dot = next;
  }
  return w;
}

bool is_mma_shape(std::string_view w) {
  for (const MmaRow& r : kMma)
    if (r.shape == w) return true;
  return false;
}

// What an operand element must be: the register kinds and width one
// fragment register of that type takes (a bit-size .b32 fits any 32-bit
// register; .s32 integer ones, .f16x2 and .f32 ...).
struct ElementKind {
  unsigned bits;
  bool integer;   // integer registers fit
  bool floating;  // float registers fit
};
ElementKind element_of(std::string_view type) {
  if (type == "f64") return {64, false, true};
  if (type == "f32") return {32, false, true};
  if (type == "s32") return {32, true, false};
  if (type == "f16" || type == "bf16" || type == "tf32") return {32, false, false};
  return {32, true, true};  // the packed A and B types are .b32
}

// Checks the registers of one operand (vector elements or a scalar): one
// width across a vector, and each of the kind `want`.
bool check_elements(const Token& op, OperandForm form, const ElementKind& want, const RegisterTable* regs,
                    std::string_view instr, Diagnostic& err) {
  if (form == OperandForm::address || form == OperandForm::group || form == OperandForm::pair)
    return fail(err, op, fmt::format("Arguments mismatch for instruction '{}'", instr));
  if (!regs) return true;
  std::string_view e[8];
  const unsigned n = form == OperandForm::vector ? vector_elements(op.text, e, 8) : (e[0] = op.text, 1u);
  unsigned first_bits = 0;
  for (unsigned i = 0; i < n && i < 8; ++i) {
    const auto r = regs->lookup(e[i]);
    if (!r) continue;  // an immediate or a sink
    const unsigned bits = r->kind == RegKind::predicate ? 1 : r->bits;
    if (first_bits && bits != first_bits) return fail(err, op, "Incompatible elements of vector expression");
    first_bits = bits;
  }
  for (unsigned i = 0; i < n && i < 8; ++i) {
    const auto r = regs->lookup(e[i]);
    if (!r) continue;
    const bool kind_ok = r->kind == RegKind::bits || (r->kind == RegKind::integer && want.integer) ||
                         (r->kind == RegKind::floating && want.floating);
    if (r->bits != want.bits || !kind_ok)
      return fail(err, op, fmt::format("Arguments mismatch for instruction '{}'", instr));
  }
  return true;
}

unsigned elements_in(const Statement& st, unsigned k) {
  return st.forms[k] == OperandForm::vector ? vector_elements(st.operands[k].text, nullptr, 0) : 1;
}

// An mma mnemonic, read into its parts.
struct MmaForm {
  bool sync = false, aligned = false, satfinite = false, popc = false;
  std::string_view bitop;     // "xor", "and" or empty
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
    if (x == "sync") {
      f.sync = true;
    } else if (x == "aligned") {
      f.aligned = true;
    } else if (x == "kind::f8f6f4") {
      f.kinds += 1;
      f.kind = x;
    } else if (x == "sp" || x == "sp::ordered_metadata") {
      f.sparse = i == 0;
      f.ordered = x != "sp";
    } else if (x == "satfinite") {
      f.satfinite = true;
    } else if (x == "popc") {
      f.popc = true;
    } else if (x == "xor" || x == "and") {
      f.bitop = x;
    } else if (x == "row" || x == "col") {
      if (f.num_layouts < 3) f.layouts[f.num_layouts++] = x;
    } else if (is_mma_shape(x)) {
      if (f.num_shapes < 2) f.shapes[f.num_shapes++] = x;
    } else if (listed(kTypeNames, x)) {
      if (f.num_types < 6) f.types[f.num_types++] = x;
    } else if (listed(kRoundings, x)) {
      f.rounding = x;
    } else if (f.foreign.empty()) {  // reported after the types' own target needs
      f.foreign = listed(kForeignModifiers, x) ? fmt::format("Illegal modifier '.{}' for instruction 'mma'", x)
                                               : fmt::format("Unknown modifier '.{}'", x);
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

// The row's own rules: layouts, the C and D types, satfinite and the bit operation.
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

bool is_block_scale(const Statement& st);
bool check_block_scale(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err);

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
      f.foreign = listed(kForeignModifiers, x) ? fmt::format("Illegal modifier '.{}' for instruction 'mma'", x)
                                               : fmt::format("Unknown modifier '.{}'", x);
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

// ldmatrix / stmatrix / movmatrix: the words of one mnemonic.
struct MatrixForm {
  bool sync = false, aligned = false, trans = false, cta = false, other_space = false;
  std::string_view shape, num, type, extra_type;
};

bool read_matrix(const Statement& st, std::string_view instr, MatrixForm& f, Diagnostic& err) {
  const Words w = split(st.mnemonic.text);
  for (unsigned i = 0; i < w.n; ++i) {
    const std::string_view x = w.list[i];
    if (x == "sync") {
      f.sync = true;
    } else if (x == "aligned") {
      f.aligned = true;
    } else if (x == "trans") {
      f.trans = true;
    } else if (x == "m8n8" || x == "m16n8") {
      f.shape = x;
    } else if (x == "x1" || x == "x2" || x == "x4") {
      f.num = x;
    } else if (x == "shared" || x == "shared::cta") {
      f.cta |= x == "shared::cta";
    } else if (x == "global" || x == "local" || x == "const" || x == "param" || x == "shared::cluster") {
      f.other_space = true;
    } else if (listed(kTypeNames, x)) {
      (f.type.empty() ? f.type : f.extra_type) = x;
    } else {
      return fail(err, st.mnemonic, fmt::format("Unknown modifier '.{}'", x));
    }
  }
  (void)instr;
  return true;
}

// "Feature '.m16n8' not supported on .target 'sm_90'": a shape of the
// architecture-specific targets from sm_100 on.
bool specific_target(const Capabilities& caps) {
  const char last = caps.target_name.empty() ? ' ' : caps.target_name.back();
  return caps.sm >= 100 && (last == 'a' || last == 'f');
}

bool check_ldst_matrix(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err,
                       bool store) {
  const std::string_view instr = store ? "stmatrix" : "ldmatrix";
  MatrixForm f;
  if (!read_matrix(st, instr, f, err)) return false;
  if (f.shape == "m16n8" && !specific_target(caps))
    return fail(err, st.mnemonic, fmt::format("Feature '.m16n8' not supported on .target '{}'", caps.target_name));
  const bool b16 = f.type == "b16" || f.type == "b8";
  if (!f.extra_type.empty() || (!f.type.empty() && !b16) || (store && f.type.empty()))
    return fail(err, st.mnemonic, fmt::format("Unexpected instruction types specified for '{}'", instr));
  const unsigned vec = store ? 1 : 0, addr = store ? 0 : 1;
  if (st.num_operands != 2 || st.forms[addr] != OperandForm::address)
    return fail(err, st.mnemonic, fmt::format("Arguments mismatch for instruction '{}'", instr));
  const unsigned n = elements_in(st, vec);
  if (n != 1 && n != 2 && n != 4) return fail(err, st.operands[vec], fmt::format("Illegal vector size: {}", n));
  if (!check_elements(st.operands[vec], st.forms[vec], {32, true, true}, regs, instr, err)) return false;
  const TensorGate gate = store ? TensorGate{"stmatrix", 90, 78, true} : TensorGate{"ldmatrix", 75, 65};
  if (std::string e = gate_error(gate, caps); !e.empty()) return fail(err, st.mnemonic, std::move(e));
  if (f.cta && caps.ptx < 78) return fail(err, st.mnemonic, "Feature '::cta' requires PTX ISA .version 7.8 or later");
  if (!f.sync) return fail(err, st.mnemonic, fmt::format(".sync modifier required for instruction '{}'", instr));
  if (!f.aligned) return fail(err, st.mnemonic, fmt::format(".aligned modifier required for instruction '{}'", instr));
  if (f.shape.empty())
    return fail(err, st.mnemonic, fmt::format("Shape modifier required for instruction '{}'", instr));
  if (f.shape != "m8n8")
    return fail(err, st.mnemonic, fmt::format("Illegal matrix shape '.{}' for instruction '{}'", f.shape, instr));
  if (f.num.empty()) return fail(err, st.mnemonic, fmt::format(".num modifier required for instruction '{}'", instr));
  if (f.other_space) return fail(err, st.mnemonic, fmt::format("State space incorrect for instruction '{}'", instr));
  if (f.type.empty())
    return fail(err, st.mnemonic,
                fmt::format("Unexpected number of instruction types specified for {} with shape '.m8n8'", instr));
  if (f.type != "b16")
    return fail(err, st.mnemonic, fmt::format("Incorrect instruction type specified for {} with shape '.m8n8'", instr));
  const unsigned want = static_cast<unsigned>(f.num[1] - '0');
  if (st.forms[vec] != OperandForm::vector || n != want)
    return fail(err, st.operands[vec],
                fmt::format("Vector of size {} is expected for argument {} of instruction '{}'", want, vec, instr));
  return true;
}

bool check_movmatrix(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err) {
  MatrixForm f;
  if (!read_matrix(st, "movmatrix", f, err)) return false;
  if (f.shape == "m16n8" && !specific_target(caps))
    return fail(err, st.mnemonic, fmt::format("Feature '.m16n8' not supported on .target '{}'", caps.target_name));
  if (f.type != "b16" || !f.extra_type.empty())
    return fail(err, st.mnemonic, "Unexpected instruction types specified for 'movmatrix'");
  if (st.num_operands != 2) return fail(err, st.mnemonic, "Arguments mismatch for instruction 'movmatrix'");
  for (unsigned k = 0; k < 2; ++k)
    if (st.forms[k] != OperandForm::vector &&
        !check_elements(st.operands[k], st.forms[k], {32, true, true}, regs, "movmatrix", err))
      return false;
  if (std::string e = gate_error({"movmatrix", 75, 78}, caps); !e.empty()) return fail(err, st.mnemonic, std::move(e));
  for (unsigned k = 0; k < 2; ++k)
    if (st.forms[k] == OperandForm::vector)
      return fail(err, st.operands[k], "Vector operand is not allowed for instruction 'movmatrix'");
  if (!f.sync) return fail(err, st.mnemonic, ".sync modifier required for instruction 'movmatrix'");
  if (!f.aligned) return fail(err, st.mnemonic, ".aligned modifier required for instruction 'movmatrix'");
  if (!f.trans) return fail(err, st.mnemonic, ".trans modifier required for instruction 'movmatrix'");
  if (f.shape != "m8n8")
    return fail(
        err, st.mnemonic,
        fmt::format("Illegal matrix shape '{}{}' for instruction 'movmatrix'", f.shape.empty() ? "" : ".", f.shape));
  return true;
}

// wgmma.mma_async (sm_90a; PTX ISA 9.1, "Asynchronous Warpgroup Level Matrix
// Multiply-Accumulate"): D of N/2 32-bit registers (N/4 with .f16), A a
// descriptor or four registers, B a descriptor, then scale-d and the
// immediates the type family takes.
struct WgmmaRow {
  std::string_view k;      // "k16"
  std::string_view ab;     // A and B types (mixed within the list)
  std::string_view d;      // D types
  bool int_n;              // N from the integer list (8, 16, 24, 32, 48, 64, ..., 256), else every multiple of 8
  bool n_unknown;          // an N it does not take is "Unknown modifier" to ptxas, not "Illegal matrix shape"
  bool scale_imms;         // imm-scale-a, imm-scale-b (-1 or 1)
  bool trans_imms;         // imm-trans-a, imm-trans-b (0 or 1)
  uint8_t mods;            // MmaMods: satfinite, the bit operation (.and.popc only)
  std::string_view name;   // how ptxas names the family in messages
  std::string_view mixed;  // the name where A and B differ
};
// clang-format off
constexpr WgmmaRow kWgmma[] = {
    {"k16", "f16", "f16 f32", false, false, true, true, kMmaPlain, "wgmma.mma_async with floating point types", ""},
    {"k16", "bf16", "f32", false, false, true, true, kMmaPlain, "wgmma.mma_async with floating point types", ""},
    {"k8", "tf32", "f32", false, false, true, false, kMmaPlain, "wgmma.mma_async with floating point types", ""},
    {"k32", "e4m3 e5m2", "f16 f32", false, false, true, false, kMmaPlain, "wgmma.mma_async with FP8 types", ""},
    {"k32", "s8 u8", "s32", true, false, false, false, kMmaSatfinite, "wgmma.mma_async with integer types",
     "wgmma.mma_async with mixed integer types"},
    {"k256", "b1", "s32", true, true, false, false, kMmaBitOp, "wgmma.mma_async with boolean type", ""},
};
// clang-format on
constexpr TensorGate kWgmmaGate{"WGMMA", 90, 80};

struct WgmmaForm {
  bool sync = false, aligned = false, satfinite = false, popc = false;  // .aligned is optional here
  std::string_view bitop, shape;
  unsigned n = 0, shapes = 0;
  std::string_view k;
  std::string_view types[4];
  unsigned num_types = 0;
  std::string foreign;   // the first word wgmma does not take
  bool unknown = false;  // ... and PTX has no such modifier at all
  bool rounding = false;
};

// "m64n16k16" -> n 16, k "k16"; false when it is no wgmma shape.
bool wgmma_shape(std::string_view w, unsigned& n, std::string_view& k) {
  if (w.substr(0, 4) != "m64n") return false;
  const size_t kpos = w.find('k');
  if (kpos == std::string_view::npos || kpos <= 4) return false;
  unsigned v = 0;
  for (char c : w.substr(4, kpos - 4)) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  n = v;
  k = w.substr(kpos);
  return v % 8 == 0 && v >= 8 && v <= 256;
}

void read_wgmma(std::string_view mnemonic, WgmmaForm& f) {
  const Words w = split(mnemonic);
  for (unsigned i = 1; i < w.n; ++i) {  // after "mma_async"
    const std::string_view x = w.list[i];
    unsigned n = 0;
    std::string_view k;
    if (x == "sync") {
      f.sync = true;
    } else if (x == "aligned") {
      f.aligned = true;
    } else if (x == "satfinite") {
      f.satfinite = true;
    } else if (x == "popc") {
      f.popc = true;
    } else if (x == "xor" || x == "and") {
      f.bitop = x;
    } else if (wgmma_shape(x, n, k)) {
      f.n = n, f.k = k, f.shape = x, ++f.shapes;
    } else if (listed(kTypeNames, x)) {
      if (f.num_types < 4) f.types[f.num_types] = x;
      ++f.num_types;
    } else if (listed(kRoundings, x)) {
      f.rounding = true;
    } else if (f.foreign.empty()) {
      f.foreign = listed(kForeignModifiers, x)
                      ? fmt::format("Illegal modifier '.{}' for instruction 'wgmma.mma_async'", x)
                      : fmt::format("Unknown modifier '.{}'", x);
      f.unknown = !listed(kForeignModifiers, x);
    }
  }
}

const WgmmaRow* wgmma_row(const WgmmaForm& f) {
  if (f.num_types != 3) return nullptr;
  for (const WgmmaRow& r : kWgmma)
    if (listed(r.ab, f.types[1]) && listed(r.ab, f.types[2]) && listed(r.d, f.types[0]) &&
        (r.ab != "f16" || f.types[1] == f.types[2]))
      return &r;
  return nullptr;
}

bool wgmma_n_legal(const WgmmaRow& r, unsigned n) { return !r.int_n || n <= 32 || n % 16 == 0; }

// The immediates: imm-scale-a/b -1 or 1, imm-trans-a/b 0 or 1.
bool wgmma_immediates(const Statement& st, const WgmmaRow& r, std::string_view name, unsigned first, Diagnostic& err) {
  for (unsigned k = first; k < st.num_operands; ++k) {
    const std::string_view v = st.operands[k].text;
    const bool scale = r.scale_imms && k < first + 2;
    const bool ok = scale ? (v == "1" || v == "-1") : (v == "0" || v == "1");
    if (!ok)
      return fail(err, st.operands[k],
                  fmt::format("Argument {} of instruction '{}': unexpected value '{}', expected to be {}", k, name, v,
                              scale ? "-1 or 1" : "0 or 1"));
  }
  return true;
}

// Whether a form of the family ptxas calls `name` takes `count` operands
// with A in registers (`a_regs`) or a descriptor.
bool wgmma_count_of(std::string_view name, unsigned count, bool a_regs) {
  for (const WgmmaRow& r : kWgmma) {
    if (r.name != name && r.mixed != name) continue;
    const unsigned most = 4 + (r.scale_imms ? 2 : 0) + (r.trans_imms ? 2 : 0);
    if (count == most - (r.trans_imms && a_regs ? 1 : 0)) return true;
  }
  return false;
}

// How many operands, and each of the kind and width it must be.
bool wgmma_operand_kinds(const Statement& st, const WgmmaForm& f, const WgmmaRow& r, const RegisterTable* regs,
                         std::string_view name, Diagnostic& err) {
  const bool a_regs = st.num_operands > 1 && st.forms[1] == OperandForm::vector;
  const unsigned most = 4 + (r.scale_imms ? 2 : 0) + (r.trans_imms ? 2 : 0);
  const unsigned want = most - (r.trans_imms && a_regs ? 1 : 0);
  const auto mismatch = [&](std::string_view who) {
    return fail(err, st.mnemonic, fmt::format("Arguments mismatch for instruction '{}'", who));
  };
  // A count some form of the family (ptxas's name) takes: ptxas names the family.
  if (st.num_operands != want)
    return mismatch(wgmma_count_of(name, st.num_operands, a_regs) ? name : "wgmma.mma_async");
  if (st.forms[0] != OperandForm::vector) return mismatch("wgmma.mma_async");
  if (!check_elements(st.operands[0], st.forms[0], element_of(f.types[0]), regs, "wgmma.mma_async", err)) return false;
  if (a_regs ? !check_elements(st.operands[1], st.forms[1], {32, true, true}, regs, "wgmma.mma_async", err)
             : !check_elements(st.operands[1], st.forms[1], {64, true, true}, regs, "wgmma.mma_async", err))
    return false;
  if (!check_elements(st.operands[2], st.forms[2], {64, true, true}, regs, "wgmma.mma_async", err)) return false;
  if (regs) {
    const auto p = regs->lookup(st.operands[3].text);
    const bool imm = classify_literal(st.operands[3].text) == LiteralKind::integer;
    if (!imm && (!p || p->kind != RegKind::predicate)) return mismatch("wgmma.mma_async");
  }
  return true;
}

// The sizes of D and a register A, and the immediates' values.
bool wgmma_operand_values(const Statement& st, const WgmmaForm& f, const WgmmaRow& r, std::string_view name,
                          Diagnostic& err) {
  const bool a_regs = st.forms[1] == OperandForm::vector;
  const unsigned dregs = f.n / (f.types[0] == "f16" ? 4 : 2);
  if (elements_in(st, 0) != dregs)
    return fail(err, st.operands[0], fmt::format("Argument vector size mismatch for instruction '{}'", name));
  if (a_regs && elements_in(st, 1) != 4)
    return fail(err, st.operands[1], fmt::format("Argument vector size mismatch for instruction '{}'", name));
  return wgmma_immediates(st, r, name, 4, err);
}

// The form's target needs: mixed integer types (PTX 8.4), the family's PTX
// version, and sm_90a.
bool wgmma_gates(const Statement& st, const Capabilities& caps, std::string_view name, bool mixed, Diagnostic& err) {
  if (mixed && caps.ptx < 84)
    return fail(err, st.mnemonic, "Feature 'WGMMA with mixed integer types' requires PTX ISA .version 8.4 or later");
  const std::string feature = fmt::format("WGMMA{}", name.substr(std::string_view("wgmma.mma_async").size()));
  if (caps.ptx < kWgmmaGate.min_ptx)
    return fail(err, st.mnemonic,
                fmt::format("Feature '{}' requires PTX ISA .version {} or later", feature,
                            format_ptx_version(kWgmmaGate.min_ptx)));
  if (caps.target_name != "sm_90a")
    return fail(err, st.mnemonic,
                fmt::format("Instruction '{}' not supported on .target '{}'", name, caps.target_name));
  return true;
}

bool check_wgmma_mma(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err) {
  WgmmaForm f;
  read_wgmma(st.mnemonic.text, f);
  if (f.unknown) return fail(err, st.mnemonic, f.foreign);
  for (unsigned i = 0; i < f.num_types && i < 4; ++i) {
    const TensorGate* g = f.types[i] == "bf16" ? &kBf16 : f.types[i] == "tf32" ? &kTf32 : nullptr;
    if (g && caps.sm < g->min_sm) return fail(err, st.mnemonic, gate_error(*g, caps));
  }
  if (!f.sync) return fail(err, st.mnemonic, ".sync modifier required for instruction 'wgmma.mma_async'");
  const WgmmaRow* r = wgmma_row(f);
  if (r && r->n_unknown && f.shapes && !wgmma_n_legal(*r, f.n))
    return fail(err, st.mnemonic, fmt::format("Unknown modifier '.{}'", f.shape));
  if (!r || (!f.bitop.empty() && !(r->mods & kMmaBitOp)) || (f.popc && !(r->mods & kMmaBitOp)))
    return fail(err, st.mnemonic, "Unexpected instruction types specified for 'wgmma.mma_async'");
  const bool mixed = !r->mixed.empty() && f.types[1] != f.types[2];
  const std::string_view name = mixed ? r->mixed : r->name;
  if (!wgmma_operand_kinds(st, f, *r, regs, name, err)) return false;
  if (!f.foreign.empty()) return fail(err, st.mnemonic, f.foreign);
  if (!wgmma_gates(st, caps, name, mixed, err)) return false;
  if (f.rounding) return fail(err, st.mnemonic, "Illegal rounding modifier for instruction 'wgmma.mma_async'");
  if (f.satfinite && !(r->mods & kMmaSatfinite))
    return fail(err, st.mnemonic, fmt::format("Illegal modifier '.satfinite' for instruction '{}'", name));
  if ((r->mods & kMmaBitOp) && (f.bitop != "and" || !f.popc))
    return fail(
        err, st.mnemonic,
        fmt::format("Incorrect operations specified for wgmma.mma_async with boolean type with shape '.{}'", f.shape));
  if (f.shapes == 0) return fail(err, st.mnemonic, "Shape modifier required for instruction 'wgmma.mma_async'");
  if (f.k != r->k || !wgmma_n_legal(*r, f.n))
    return fail(err, st.mnemonic, fmt::format("Illegal matrix shape '.{}' for instruction '{}'", f.shape, name));
  return wgmma_operand_values(st, f, *r, name, err);
}

// wgmma.fence, wgmma.commit_group, wgmma.wait_group N.
bool check_wgmma_sync(const Statement& st, const Capabilities& caps, std::string_view instr, Diagnostic& err) {
  const Words w = split(st.mnemonic.text);
  bool sync = false, types = false;
  for (unsigned i = 1; i < w.n; ++i) {
    if (w.list[i] == "sync")
      sync = true;
    else if (w.list[i] != "aligned")
      types = true;
  }
  if (types) return fail(err, st.mnemonic, fmt::format("Unexpected instruction types specified for '{}'", instr));
  if (!sync) return fail(err, st.mnemonic, fmt::format(".sync modifier required for instruction '{}'", instr));
  const bool wait = instr == "wgmma.wait_group";
  const bool ok = wait ? st.num_operands == 1 && classify_literal(st.operands[0].text) == LiteralKind::integer
                       : st.num_operands == 0;
  if (!ok) return fail(err, st.mnemonic, fmt::format("Arguments mismatch for instruction '{}'", instr));
  if (caps.ptx < kWgmmaGate.min_ptx)
    return fail(err, st.mnemonic,
                fmt::format("Feature '{}' requires PTX ISA .version {} or later", kWgmmaGate.name,
                            format_ptx_version(kWgmmaGate.min_ptx)));
  if (caps.target_name != "sm_90a")
    return fail(err, st.mnemonic,
                fmt::format("Instruction '{}' not supported on .target '{}'", instr, caps.target_name));
  return true;
}

bool check_wgmma(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err) {
  const Words w = split(st.mnemonic.text);
  const std::string_view what = w.n ? w.list[0] : "";
  if (what == "mma_async") return check_wgmma_mma(st, caps, regs, err);
  const std::string instr = fmt::format("wgmma.{}", what);
  return check_wgmma_sync(st, caps, instr, err);
}

// wmma (PTX ISA 9.1, "Warp Level Matrix Multiply-Accumulate Instructions"):
// one row per shape and A/B type family, with the registers each fragment
// holds. f16's wmma.mma spells only .dtype.ctype.
struct WmmaRow {
  std::string_view shape;
  std::string_view ab;     // A and B types
  std::string_view accs;   // C and D types
  uint8_t a, b, c16, c32;  // fragment registers (C/D: with .f16, with 32- or 64-bit accumulators)
  uint8_t mods;            // MmaMods: .satfinite, the bit operations
  bool sub_byte;           // A row-major and B column-major only
  bool rounding;           // the f64 form takes .rn/.rz/.rm/.rp
  TensorGate gate;
};
// clang-format off
constexpr WmmaRow kWmma[] = {
    {"m16n16k16", "f16", "f16 f32", 8, 8, 4, 8, kMmaPlain, false, false, {"wmma", 70, 60}},
    {"m32n8k16", "f16", "f16 f32", 8, 8, 4, 8, kMmaPlain, false, false, {"wmma", 70, 61}},
    {"m8n32k16", "f16", "f16 f32", 8, 8, 4, 8, kMmaPlain, false, false, {"wmma", 70, 61}},
    {"m16n16k16", "bf16", "f32", 4, 4, 0, 8, kMmaPlain, false, false, kBf16},
    {"m32n8k16", "bf16", "f32", 8, 2, 0, 8, kMmaPlain, false, false, kBf16},
    {"m8n32k16", "bf16", "f32", 2, 8, 0, 8, kMmaPlain, false, false, kBf16},
    {"m16n16k16", "s8 u8", "s32", 2, 2, 0, 8, kMmaSatfinite, false, false, {"wmma", 72, 63}},
    {"m32n8k16", "s8 u8", "s32", 4, 1, 0, 8, kMmaSatfinite, false, false, {"wmma", 72, 63}},
    {"m8n32k16", "s8 u8", "s32", 1, 4, 0, 8, kMmaSatfinite, false, false, {"wmma", 72, 63}},
    {"m16n16k8", "tf32", "f32", 4, 4, 0, 8, kMmaPlain, false, false, kTf32},
    {"m8n8k4", "f64", "f64", 1, 1, 0, 2, kMmaPlain, false, true, {"wmma with double types", 80, 70}},
    {"m8n8k32", "s4 u4", "s32", 1, 1, 0, 2, kMmaSatfinite, true, false, {"wmma", 75, 63}},
    {"m8n8k128", "b1", "s32", 1, 1, 0, 2, kMmaBitOp, true, false, {"wmma", 75, 63}},
};
// clang-format on
constexpr TensorGate kWmmaAnd{".and", 80, 71};

// A wmma mnemonic, read: wmma.load.a / wmma.store.d / wmma.mma and the rest.
struct WmmaForm {
  std::string_view op, frag;  // "load" "a"; "mma" ""
  bool sync = false, aligned = false, satfinite = false, popc = false, rounding = false, bad_space = false;
  bool cta = false;  // .shared::cta, from PTX ISA 7.8
  std::string_view bitop, shape;
  std::string_view layouts[3];
  unsigned num_layouts = 0;
  std::string_view types[5];
  unsigned num_types = 0;
  std::string foreign;
};

void read_wmma(const Statement& st, WmmaForm& f) {
  const Words w = split(st.mnemonic.text);
  f.op = w.n ? w.list[0] : "";
  unsigned i = 1;
  if (f.op != "mma" && w.n > 1 && w.list[1].size() == 1) f.frag = w.list[i++];
  for (; i < w.n; ++i) {
    const std::string_view x = w.list[i];
    if (x == "sync") {
      f.sync = true;
    } else if (x == "aligned") {
      f.aligned = true;
    } else if (x == "satfinite") {
      f.satfinite = true;
    } else if (x == "popc") {
      f.popc = true;
    } else if (x == "xor" || x == "and") {
      f.bitop = x;
    } else if (x == "row" || x == "col") {
      if (f.num_layouts < 3) f.layouts[f.num_layouts++] = x;
    } else if (x == "global" || x == "shared" || x == "shared::cta") {
      f.cta |= x == "shared::cta";
    } else if (x == "local" || x == "const" || x == "param" || x == "shared::cluster") {
      f.bad_space = true;
    } else if (listed(kTypeNames, x)) {
      if (f.num_types < 5) f.types[f.num_types] = x;
      ++f.num_types;
    } else if (listed(kRoundings, x)) {
      f.rounding = true;
    } else if (x.size() > 4 && x[0] == 'm' && x.find('k') != std::string_view::npos && f.shape.empty()) {
      f.shape = x;
    } else if (f.foreign.empty()) {
      f.foreign = listed(kForeignModifiers, x)
                      ? fmt::format("Illegal modifier '.{}' for instruction 'wmma.{}'", x, f.op)
                      : fmt::format("Unknown modifier '.{}'", x);
    }
  }
}

const WmmaRow* wmma_row(std::string_view shape, std::string_view ab) {
  for (const WmmaRow& r : kWmma)
    if (r.shape == shape && listed(r.ab, ab)) return &r;
  return nullptr;
}
bool wmma_shape_known(std::string_view shape) {
  for (const WmmaRow& r : kWmma)
    if (r.shape == shape) return true;
  return false;
}

// Integer A and B fragments take no float registers here (mma's do), but
// for the sub-byte ones in loads and stores (measured, ptxas 13.0).
ElementKind wmma_kind(std::string_view type, std::string_view instr) {
  const bool no_float = listed("s8 u8", type) || (instr == "wmma.mma" && listed("s4 u4 b1", type));
  return no_float ? ElementKind{32, true, false} : element_of(type);
}

// One fragment operand: a vector of `want` registers of `type`'s kind.
bool wmma_fragment(const Statement& st, unsigned k, std::string_view type, unsigned want, const RegisterTable* regs,
                   std::string_view instr, Diagnostic& err) {
  const Token& op = st.operands[k];
  const unsigned n = elements_in(st, k);
  if (n != 1 && n != 2 && n != 4 && n != 8) return fail(err, op, fmt::format("Illegal vector size: {}", n));
  if (!check_elements(op, st.forms[k], wmma_kind(type, instr), regs, instr, err)) return false;
  if (st.forms[k] != OperandForm::vector) return fail(err, op, fmt::format("Vector expected for argument {}", k));
  if (n != want) return fail(err, op, fmt::format("Argument vector size mismatch for instruction '{}'", instr));
  return true;
}

std::string wmma_gate_error(const WmmaRow& r, const Capabilities& caps) { return gate_error(r.gate, caps); }

bool check_wmma_ldst(const Statement& st, const WmmaForm& f, const Capabilities& caps, const RegisterTable* regs,
                     Diagnostic& err) {
  const bool load = f.op == "load";
  if (load ? !(f.frag == "a" || f.frag == "b" || f.frag == "c") : f.frag != "d")
    return fail(err, st.mnemonic, fmt::format("Unknown modifier '.{}'", f.op));
  const std::string instr = fmt::format("wmma.{}.{}", f.op, f.frag);
  if (!f.foreign.empty()) return fail(err, st.mnemonic, f.foreign);
  if (f.num_types != 1)
    return fail(err, st.mnemonic, fmt::format("Unexpected instruction types specified for '{}'", instr));
  const std::string_view t = f.types[0];
  const bool acc = f.frag == "c" || f.frag == "d";
  if (!acc && t == "f32") return fail(err, st.mnemonic, fmt::format("Illegal type for {}", instr));
  // ptxas's patterns: the fragment's types, the sub-byte types only with their shapes.
  if (!listed(acc ? "f16 f32 s32 f64" : "f16 bf16 s8 u8 tf32 f64 s4 u4 b1", t) ||
      (!acc && listed("s4 u4 b1", t) != (f.shape == "m8n8k32" || f.shape == "m8n8k128")))
    return fail(err, st.mnemonic, fmt::format("Unexpected instruction types specified for '{}'", instr));
  const unsigned frag = load ? 0 : 1, addr = load ? 1 : 0;
  if (st.num_operands < 2 || st.num_operands > 3 || st.forms[addr] != OperandForm::address)
    return fail(err, st.mnemonic, fmt::format("Arguments mismatch for instruction '{}'", instr));
  if (elements_in(st, frag) <= 8 &&
      !check_elements(st.operands[frag], st.forms[frag], wmma_kind(t, instr), regs, instr, err))
    return false;
  if (!f.sync) return fail(err, st.mnemonic, fmt::format(".sync modifier required for instruction '{}'", instr));
  if (!f.aligned) return fail(err, st.mnemonic, fmt::format(".aligned modifier required for instruction '{}'", instr));
  if (f.num_layouts == 0)
    return fail(err, st.mnemonic, fmt::format("layout modifier required for instruction '{}'", instr));
  if (f.bad_space) return fail(err, st.mnemonic, fmt::format("State space incorrect for instruction '{}'", instr));
  const WmmaRow* r = nullptr;
  for (const WmmaRow& row : kWmma)
    if (row.shape == f.shape && (acc ? listed(row.accs, t) : listed(row.ab, t))) r = r ? r : &row;
  if (!r)
    return fail(err, st.mnemonic,
                wmma_shape_known(f.shape)
                    ? fmt::format("Incorrect instruction type specified for {} with shape '.{}'", instr, f.shape)
                    : fmt::format("Illegal type for {}", instr));
  if (r->sub_byte && f.frag == "a" && f.layouts[0] != "row")
    return fail(err, st.mnemonic, fmt::format("Illegal alayout '.{}' for instruction '{}'", f.layouts[0], instr));
  if (r->sub_byte && f.frag == "b" && f.layouts[0] != "col")
    return fail(err, st.mnemonic, fmt::format("Illegal alayout '.{}' for instruction '{}'", f.layouts[0], instr));
  if (std::string e = wmma_gate_error(*r, caps); !e.empty()) return fail(err, st.mnemonic, std::move(e));
  if (f.cta && caps.ptx < 78) return fail(err, st.mnemonic, "Feature '::cta' requires PTX ISA .version 7.8 or later");
  const unsigned want = f.frag == "a" ? r->a : f.frag == "b" ? r->b : t == "f16" ? r->c16 : r->c32;
  if (!wmma_fragment(st, frag, t, want, regs, instr, err)) return false;
  if (st.num_operands == 3 && !check_elements(st.operands[2], st.forms[2], {32, true, false}, regs, instr, err))
    return false;
  return true;
}

bool check_wmma_mma(const Statement& st, const WmmaForm& f, const Capabilities& caps, const RegisterTable* regs,
                    Diagnostic& err) {
  if (!f.foreign.empty()) return fail(err, st.mnemonic, f.foreign);
  if (!f.sync) return fail(err, st.mnemonic, ".sync modifier required for instruction 'wmma.mma'");
  if (!f.aligned) return fail(err, st.mnemonic, ".aligned modifier required for instruction 'wmma.mma'");
  if (f.num_layouts == 0)
    return fail(err, st.mnemonic, "'.alayout.blayout' modifier required for instruction 'wmma.mma'");
  if (f.num_layouts == 1) return fail(err, st.mnemonic, "'.blayout' modifier required for instruction 'wmma.mma'");
  // d.c (f16) or d.a.b.c
  const bool two = f.num_types == 2;
  const std::string_view d = f.types[0], c = f.types[two ? 1 : 3];
  const std::string_view a = two ? "f16" : f.types[1], b = two ? "f16" : f.types[2];
  const WmmaRow* r = (two || f.num_types == 4) ? wmma_row(f.shape, a) : nullptr;
  if (!r || !listed(r->ab, b) || (a != b && !listed("s8 u8 s4 u4", a)) || !listed(r->accs, d) || !listed(r->accs, c) ||
      (two != (r->ab == "f16")) || (r->ab == "f16" ? false : d != c))
    return fail(err, st.mnemonic, "Unexpected instruction types specified for 'wmma.mma'");
  if (st.num_operands != 4) return fail(err, st.mnemonic, "Arguments mismatch for instruction 'wmma.mma'");
  // .satfinite on the float forms: taken until PTX ISA 6.5 dropped it.
  if (f.satfinite && !(r->mods & kMmaSatfinite) && (caps.ptx >= 65 || !listed("f16 f32", d)))
    return fail(err, st.mnemonic,
                "Instruction ''wmma.mma' with floating point type' with '.satfinite' is not supported starting from "
                "PTX ISA version 6.5");
  if (f.rounding && !r->rounding) return fail(err, st.mnemonic, "Illegal rounding modifier for instruction 'wmma.mma'");
  if ((r->mods & kMmaBitOp) ? (f.bitop.empty() || !f.popc) : (!f.bitop.empty() || f.popc))
    return fail(err, st.mnemonic, "Unexpected instruction types specified for 'wmma.mma'");
  if (r->sub_byte && f.layouts[0] != "row")
    return fail(err, st.mnemonic, fmt::format("Illegal alayout '.{}' for instruction 'wmma.mma'", f.layouts[0]));
  if (r->sub_byte && f.layouts[1] != "col")
    return fail(err, st.mnemonic, fmt::format("Illegal blayout '.{}' for instruction 'wmma.mma'", f.layouts[1]));
  if (std::string e = wmma_gate_error(*r, caps); !e.empty()) return fail(err, st.mnemonic, std::move(e));
  if (f.bitop == "and")
    if (std::string e = gate_error(kWmmaAnd, caps, "Modifier", " on 'wmma.mma'"); !e.empty())
      return fail(err, st.mnemonic, std::move(e));
  const std::string_view types[4] = {d, a, b, c};
  const unsigned want[4] = {d == "f16" ? r->c16 : r->c32, r->a, r->b, c == "f16" ? r->c16 : r->c32};
  for (unsigned k = 0; k < 4; ++k)
    if (!wmma_fragment(st, k, types[k], want[k], regs, "wmma.mma", err)) return false;
  return true;
}

bool check_wmma(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err) {
  WmmaForm f;
  read_wmma(st, f);
  if (f.op == "mma") return check_wmma_mma(st, f, caps, regs, err);
  return check_wmma_ldst(st, f, caps, regs, err);
}

}  // namespace

const MmaRow* mma_rows_begin() { return std::begin(kMma); }
const MmaRow* mma_rows_end() { return std::end(kMma); }

bool is_tensor_statement(const Statement& st) {
  const std::string_view m = st.mnemonic.text;
  const std::string_view op = m.substr(0, m.find('.'));
  const Words w = split(m);
  if (op == "mma") return true;
  if (op == "tcgen05") return is_tcgen05_statement(st);
  if (op == "ldmatrix" || op == "stmatrix") {
    for (unsigned i = 0; i < w.n; ++i)
      if (w.list[i] == "m16n16" || w.list[i] == "m8n16" || w.list[i].find("x16") != std::string_view::npos)
        return false;
    return true;
  }
  if (op == "wgmma") {
    const std::string_view what = w.n ? w.list[0] : "";
    return what == "mma_async" || what == "fence" || what == "commit_group" || what == "wait_group";
  }
  if (op == "wmma") {
    const std::string_view what = w.n ? w.list[0] : "";
    return what == "load" || what == "store" || what == "mma";
  }
  return op == "movmatrix";
}

bool check_tensor_statement(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err) {
  const std::string_view m = st.mnemonic.text;
  const std::string_view op = m.substr(0, m.find('.'));
  if (op == "mma") return check_mma(st, caps, regs, err);
  if (op == "tcgen05") return check_tcgen05_statement(st, caps, regs, err);
  if (op == "movmatrix") return check_movmatrix(st, caps, regs, err);
  if (op == "wgmma") return check_wgmma(st, caps, regs, err);
  if (op == "wmma") return check_wmma(st, caps, regs, err);
  return check_ldst_matrix(st, caps, regs, err, op == "stmatrix");
}

}  // namespace ptxfu::isa
