// The rows of wmma (wmma.load, wmma.store, wmma.mma) and the rules that judge them.
#include "isa/tensor_rows.h"

#include <fmt/format.h>

#include <string>

namespace ptxfu::isa::tensor_rows {
namespace {

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
struct WmmaForm : SharedWords {
  std::string_view op, frag;  // "load" "a"; "mma" ""
  bool rounding = false, bad_space = false;
  bool cta = false;  // .shared::cta, from PTX ISA 7.8
  std::string_view shape;
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
    if (read_shared_word(x, f)) continue;
    if (x == "row" || x == "col") {
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
      f.foreign = foreign_word(x, fmt::format("wmma.{}", f.op));
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

}  // namespace

bool check_wmma(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err) {
  WmmaForm f;
  read_wmma(st, f);
  if (f.op == "mma") return check_wmma_mma(st, f, caps, regs, err);
  return check_wmma_ldst(st, f, caps, regs, err);
}

}  // namespace ptxfu::isa::tensor_rows
