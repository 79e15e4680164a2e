// The rows of wgmma.mma_async and the rules that judge it, and those of
// wgmma.fence, .commit_group and .wait_group.
#include "isa/tensor_rows.h"

#include <fmt/format.h>

#include <string>

namespace ptxfu::isa::tensor_rows {
namespace {

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

struct WgmmaForm : SharedWords {  // .aligned is optional here
  std::string_view shape;
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
    if (read_shared_word(x, f)) continue;
    if (wgmma_shape(x, n, k)) {
      f.n = n, f.k = k, f.shape = x, ++f.shapes;
    } else if (listed(kTypeNames, x)) {
      if (f.num_types < 4) f.types[f.num_types] = x;
      ++f.num_types;
    } else if (listed(kRoundings, x)) {
      f.rounding = true;
    } else if (f.foreign.empty()) {
      f.foreign = foreign_word(x, "wgmma.mma_async");
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

}  // namespace

bool check_wgmma(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err) {
  const Words w = split(st.mnemonic.text);
  const std::string_view what = w.n ? w.list[0] : "";
  if (what == "mma_async") return check_wgmma_mma(st, caps, regs, err);
  const std::string instr = fmt::format("wgmma.{}", what);
  return check_wgmma_sync(st, caps, instr, err);
}

}  // namespace ptxfu::isa::tensor_rows
