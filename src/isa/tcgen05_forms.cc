#include "isa/tcgen05_forms.h"
#include "isa/tensor_rows.h"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace ptxfu::isa {
namespace {

using tensor_rows::fail;
using tensor_rows::listed;

// The targets with tcgen05 (ptxas 13.0 has no sm_101a; ptxfu's sm_101
// names stand with sm_110's, which CUDA 13 renamed them to).
constexpr std::string_view kTcgen05Targets = "sm_100a sm_100f sm_101a sm_101f sm_103a sm_103f sm_110a sm_110f";
constexpr std::string_view kArchTargets = "sm_100a sm_101a sm_103a sm_110a";  // the 'a' targets alone
constexpr uint16_t kTcgen05Ptx = 86;

// One tcgen05 instruction. `takes`: every word it takes (the required ones
// too). `early`/`late`: required groups "w1 w2=name; ..." ptxas asks for
// before the target / after it, in its order. `operands`: patterns ';'
// apart, one letter an operand (see kind_fits). `shapes`: the shape words,
// each named in the target's message before anything else.
struct Row {
  std::string_view op, name, takes, type, early, late, operands;
  std::string_view targets = kTcgen05Targets;
  std::string_view shapes = {};
};

// Operand letters: t a tensor-memory address ([32-bit register]); s an
// address of any register width; A a descriptor or a tensor-memory address;
// q a 64-bit register or immediate; w a 32-bit one; p a predicate or
// immediate; v a vector of 32-bit registers; V the same, written "Vector
// expected" when scalar; i an immediate; h a 16-bit register.
// clang-format off
constexpr Row kRows[] = {
    {"alloc", "tcgen05.alloc", ".cta_group::1 .cta_group::2 .sync .aligned .shared::cta", ".b32", "",
     ".cta_group::1 .cta_group::2=.cta_group; .sync=.sync; .aligned=.aligned", "s,w"},
    {"dealloc", "tcgen05.dealloc", ".cta_group::1 .cta_group::2 .sync .aligned", ".b32", "",
     ".cta_group::1 .cta_group::2=.cta_group; .sync=.sync; .aligned=.aligned", "w,w"},
    {"relinquish_alloc_permit", "tcgen05.relinquish_alloc_permit", ".cta_group::1 .cta_group::2 .sync .aligned", "", "",
     ".cta_group::1 .cta_group::2=.cta_group; .sync=.sync; .aligned=.aligned", ""},
    {"ld", "tcgen05.ld", ".sync .aligned .16x64b .16x128b .16x256b .32x32b .16x32bx2 .x1 .x2 .x4 .x8 .x16 .x32 .x64 .x128 "
     ".pack::16b", ".b32", "", ".sync=.sync", "V,t;V,t,i", kTcgen05Targets,
     ".16x64b .16x128b .16x256b .32x32b .16x32bx2"},
    {"st", "tcgen05.st", ".sync .aligned .16x64b .16x128b .16x256b .32x32b .16x32bx2 .x1 .x2 .x4 .x8 .x16 .x32 .x64 .x128 "
     ".unpack::16b", ".b32", "", ".sync=.sync", "t,V;t,i,V", kTcgen05Targets,
     ".16x64b .16x128b .16x256b .32x32b .16x32bx2"},
    {"wait", "tcgen05.wait", ".wait::ld .wait::st .sync .aligned", "", ".wait::ld .wait::st=.wait::<ld/st>; .aligned=.aligned",
     ".sync=.sync", ""},
    {"commit", "tcgen05.commit", ".cta_group::1 .cta_group::2 .mbarrier::arrive::one .shared::cluster .multicast::cluster",
     ".b64", "", ".cta_group::1 .cta_group::2=.cta_group; .mbarrier::arrive::one=.completion_mechanism", "s;s,h"},
    {"cp", "tcgen05.cp", ".cta_group::1 .cta_group::2 .128x256b .4x256b .128x128b .64x128b .32x128b .warpx2::02_13 "
     ".warpx2::01_23 .warpx4 .b8x16 .b6x16_p32 .b4x16_p64", "", "", ".cta_group::1 .cta_group::2=.cta_group", "s,q",
     kTcgen05Targets, ".128x256b .4x256b .128x128b .64x128b .32x128b"},
    {"shift", "tcgen05.shift", ".cta_group::1 .cta_group::2 .down", "", "",
     ".cta_group::1 .cta_group::2=.cta_group; .down=.down", "s", kArchTargets},
    {"fence", "tcgen05.fence", ".fence::before_thread_sync .fence::after_thread_sync", "",
     ".fence::before_thread_sync .fence::after_thread_sync=.fence::<before/after>_thread_sync", "", ""},
    {"mma", "tcgen05.mma", ".cta_group::1 .cta_group::2 .kind::f16 .kind::tf32 .kind::f8f6f4 .kind::i8 .kind::mxf8f6f4 "
     ".kind::mxf4 .kind::mxf4nvf4 .sp .block_scale .scale_vec::1X .scale_vec::2X .scale_vec::4X .block16 .block32 "
     ".collector::a::fill .collector::a::use .collector::a::lastuse .collector::a::discard", "", "",
     ".cta_group::1 .cta_group::2=.cta_group; .kind::f16 .kind::tf32 .kind::f8f6f4 .kind::i8 .kind::mxf8f6f4 .kind::mxf4 "
     ".kind::mxf4nvf4=.kind",
     "t,A,q,w,p;t,A,q,w,v,p;t,A,q,w,p,i;t,A,q,w,v,p,i;t,A,q,w,t,t,p;"
     "t,A,q,t,w,p;t,A,q,t,w,v,p;t,A,q,t,w,p,i;t,A,q,t,w,v,p,i;t,A,q,t,w,t,t,p"},
    {"mma.ws", "tcgen05.mma.ws", ".cta_group::1 .kind::f16 .kind::tf32 .kind::f8f6f4 .kind::i8 .sp "
     ".collector::b0::fill .collector::b0::use .collector::b0::lastuse .collector::b0::discard .collector::b1::fill "
     ".collector::b1::use .collector::b1::lastuse .collector::b1::discard .collector::b2::fill .collector::b2::use "
     ".collector::b2::lastuse .collector::b2::discard .collector::b3::fill .collector::b3::use .collector::b3::lastuse "
     ".collector::b3::discard", "", "",
     ".cta_group::1 .cta_group::2=.cta_group; .kind::f16 .kind::tf32 .kind::f8f6f4 .kind::i8 .kind::mxf8f6f4 .kind::mxf4 "
     ".kind::mxf4nvf4=.kind",
     "t,A,q,w,p;t,A,q,w,p,q;t,A,q,t,w,p;t,A,q,t,w,p,q"},
};
// clang-format on

// Words ptxas knows in any instruction (a word neither here nor in a row is
// "Unknown modifier").
constexpr std::string_view kKnownWords =
    ".sync .aligned .satfinite .sat .ftz .rn .rz .rm .rp .rna .relu .shared .global .local .const .param .shared::cta "
    ".shared::cluster .b8 .b16 .b32 .b64 .b128 .u8 .u16 .u32 .u64 .s8 .s16 .s32 .s64 .f16 .f32 .f64 .bf16 .tf32 "
    ".e4m3 .e5m2 .up";
constexpr std::string_view kTypeWords =
    ".b8 .b16 .b32 .b64 .b128 .u8 .u16 .u32 .u64 .s8 .s16 .s32 .s64 .f16 .f32 .f64 .bf16 .tf32 .e4m3 .e5m2";
constexpr std::string_view kSpaceWords = ".shared .global .local .const .param .shared::cta .shared::cluster";
constexpr std::string_view kRoundingWords = ".rn .rz .rm .rp .rna";

// Words of which a statement takes one, and how ptxas names the group when
// it finds two (empty: by the second word).
struct WordGroup {
  std::string_view words, name;
};
constexpr WordGroup kGroups[] = {
    {".cta_group::1 .cta_group::2", ""},
    {".kind::", ".kind"},
    {".collector::", ".collector_usage"},
    {".scale_vec::1X .scale_vec::2X .scale_vec::4X .block16 .block32", ".scale_vec_size"},
    {".16x64b .16x128b .16x256b .32x32b .16x32bx2 .128x256b .4x256b .128x128b .64x128b .32x128b", "matrix shape"},
    {".x1 .x2 .x4 .x8 .x16 .x32 .x64 .x128", ".num"},
    {".warpx2::02_13 .warpx2::01_23 .warpx4", ""},
};

// The group `w` belongs to, or null (a prefix ending in "::" takes every word it begins).
const WordGroup* group_of(std::string_view w) {
  for (const WordGroup& g : kGroups) {
    const bool prefix = g.words.size() > 2 && g.words.substr(g.words.size() - 2) == "::";
    if (prefix ? w.substr(0, g.words.size()) == g.words : listed(g.words, w)) return &g;
  }
  return nullptr;
}

// The mnemonic's words after "tcgen05", each with its dot.
std::vector<std::string_view> words_of(std::string_view m) {
  std::vector<std::string_view> out;
  size_t at = m.find('.');
  while (at != std::string_view::npos) {
    const size_t next = m.find('.', at + 1);
    out.push_back(m.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at));
    at = next;
  }
  return out;
}

const Row* row_of(const std::vector<std::string_view>& w) {
  if (w.empty()) return nullptr;
  std::string_view op = w[0].substr(1);
  op = op.substr(0, op.find("::"));
  if (op == "mma" && w.size() > 1 && w[1] == ".ws") op = "mma.ws";  // .ws right after mma, nowhere else
  for (const Row& r : kRows)
    if (r.op == op) return &r;
  return nullptr;
}

struct Form {
  const Row& row;
  const Statement& st;
  std::vector<std::string_view> words;  // after the instruction's own word
  const Capabilities& caps;
  const RegisterTable* regs;
  bool has(std::string_view w) const { return std::find(words.begin(), words.end(), w) != words.end(); }
  std::string_view first_in(std::string_view list) const {
    for (std::string_view w : words)
      if (listed(list, w)) return w;
    return {};
  }
};

// Whether some row takes `w` (ptxas knows it in tcgen05).
bool any_row_takes(std::string_view w) {
  for (const Row& r : kRows)
    if (listed(r.takes, w)) return true;
  return false;
}

bool has_target(std::string_view targets, const Capabilities& caps) { return listed(targets, caps.target_name); }

// An operand's register: its kind and width, or none (an immediate, a name).
std::optional<RegType> reg_of(const Form& f, std::string_view text) {
  if (!f.regs || text.empty() || text[0] != '%') return std::nullopt;
  return f.regs->lookup(text);
}

// The register inside "[%r1+4]".
std::string_view base_of(std::string_view address) {
  std::string_view s = address.substr(1, address.size() - 2);
  const size_t plus = s.find_first_of("+-");
  s = s.substr(0, plus);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  return s;
}

bool is_immediate(std::string_view text) { return classify_literal(text) == LiteralKind::integer; }

// Whether a register (or immediate) may stand for a scalar of `bits` bits.
bool scalar_fits(const Form& f, std::string_view text, unsigned bits, bool immediate_ok) {
  if (is_immediate(text)) return immediate_ok;
  const auto r = reg_of(f, text);
  if (!r) return f.regs == nullptr || text[0] != '%';
  return r->kind != RegKind::predicate && r->kind != RegKind::floating && r->bits == bits;
}

// Whether the vector's elements are 32-bit registers.
bool vector_fits(const Form& f, std::string_view text) {
  std::vector<std::string_view> e(vector_elements(text, nullptr, 0));
  vector_elements(text, e.data(), static_cast<unsigned>(e.size()));
  for (std::string_view x : e) {
    const auto r = reg_of(f, x);
    if (r && (r->kind == RegKind::predicate || r->bits != 32)) return false;
  }
  return true;
}

// Whether operand k fits kind `c`: `late` adds what ptxas asks after the
// target (an address register's width, a vector where a scalar stands, an
// immediate where a register must be).
bool kind_fits(const Form& f, unsigned k, char c, bool late) {
  std::string_view t = f.st.operands[k].text;
  const OperandForm form = f.st.forms[k];
  const bool address = form == OperandForm::address;
  switch (c) {
    case 't':
    case 's':
      if (!address) return false;
      if (c == 't' && late) {  // a 32-bit register, no immediate address
        const auto r = reg_of(f, base_of(t));
        return !is_immediate(base_of(t)) && (!r || r->bits == 32);
      }
      return true;
    case 'A': return address ? kind_fits(f, k, 't', late) : form == OperandForm::plain && scalar_fits(f, t, 64, true);
    case 'q': return form == OperandForm::plain && scalar_fits(f, t, 64, true);
    case 'w': return form == OperandForm::plain && scalar_fits(f, t, 32, true);
    case 'p': {  // !%p too
      if (form != OperandForm::plain && form != OperandForm::negated) return false;
      if (form == OperandForm::negated) t.remove_prefix(1);
      const auto r = reg_of(f, t);
      return is_immediate(t) || (r ? r->kind == RegKind::predicate : !f.regs);
    }
    case 'i': return form == OperandForm::plain && is_immediate(t);
    case 'h': return form == OperandForm::plain && (late ? !is_immediate(t) : true) && scalar_fits(f, t, 16, true);
    case 'v':
    case 'V':
      if (form == OperandForm::vector) return vector_fits(f, t);
      return !late && form == OperandForm::plain && !is_immediate(t) && scalar_fits(f, t, 32, false);
  }
  return false;
}

// The row's patterns, each as its operand letters; an mma's with the
// metadata address after B (.sp) or without, as the statement is (ptxas's
// first look at an .sp statement takes both), and with
// .block_scale of a block-scaled kind only those ending in the scale addresses.
std::vector<std::string> patterns_of(const Form& f, bool early = false) {
  std::vector<std::string> all(1), out;
  for (char ch : f.row.operands) {
    if (ch == ';')
      all.emplace_back();
    else if (ch != ',')
      all.back() += ch;
  }
  const bool mma = f.row.op.substr(0, 3) == "mma";
  const bool scaled = f.has(".block_scale") && !f.first_in(".kind::mxf8f6f4 .kind::mxf4 .kind::mxf4nvf4").empty();
  for (std::string& p : all)
    if (!mma || (((p.size() > 3 && p[3] == 't') == f.has(".sp") || (early && f.has(".sp"))) &&
                 (!scaled || (p.size() > 3 && p.substr(p.size() - 3) == "ttp"))))
      out.push_back(std::move(p));
  return out;
}

// The first of the row's patterns the operands fit (late), or empty.
std::string fitting_pattern(const Form& f, bool late) {
  for (const std::string& p : patterns_of(f)) {
    bool ok = p.size() == f.st.num_operands;
    for (unsigned k = 0; ok && k < f.st.num_operands; ++k) ok = kind_fits(f, k, p[k], late);
    if (ok) return p.empty() ? std::string(" ") : p;
  }
  return {};
}

// ptxas's first look: the last operand of a kind a pattern of the
// statement's length ends with, each other of a kind some pattern at least
// as long has there.
bool operands_fit_early(const Form& f) {
  const auto patterns = patterns_of(f, true);
  const unsigned n = f.st.num_operands;
  bool last = false;
  for (const std::string& p : patterns) last |= p.size() == n && (n == 0 || kind_fits(f, n - 1, p[n - 1], false));
  if (!last) return false;
  for (unsigned k = 0; k + 1 < n; ++k) {
    bool ok = false;
    for (const std::string& p : patterns) ok |= p.size() >= n && kind_fits(f, k, p[k], false);
    if (!ok) return false;
  }
  return true;
}

bool mismatch(const Form& f, Diagnostic& err) {
  return fail(err, f.st.mnemonic, fmt::format("Arguments mismatch for instruction '{}'", f.row.name));
}

// "Illegal vector size: N": mma's vectors have 1, 2, 4 or 8 elements, ld's
// and st's at most 128.
bool vector_sizes(const Form& f, Diagnostic& err) {
  const bool mma = f.row.op.substr(0, 3) == "mma";
  for (unsigned k = 0; k < f.st.num_operands; ++k) {
    if (f.st.forms[k] != OperandForm::vector) continue;
    const unsigned n = vector_elements(f.st.operands[k].text, nullptr, 0);
    if (mma ? n != 1 && n != 2 && n != 4 && n != 8 : n > 128)
      return fail(err, f.st.operands[k], fmt::format("Illegal vector size: {}", n));
  }
  return true;
}

// A required group none of the words is in: "X modifier required".
bool required_groups(const Form& f, std::string_view groups, Diagnostic& err) {
  while (!groups.empty()) {
    const size_t semi = groups.find(';');
    std::string_view g = groups.substr(0, semi);
    while (!g.empty() && g.front() == ' ') g.remove_prefix(1);
    const size_t eq = g.find('=');
    if (f.first_in(g.substr(0, eq)).empty())
      return fail(err, f.st.mnemonic,
                  fmt::format("{} modifier required for instruction '{}'", g.substr(eq + 1), f.row.name));
    groups = semi == std::string_view::npos ? std::string_view() : groups.substr(semi + 1);
  }
  return true;
}

bool check_late(const Form& f, Diagnostic& err);

// Two words of one group, or one word twice (but .sync, which ptxas lets
// repeat, and the types, the state spaces and cp's format pair, which it
// judges later).
bool repeated_words(const Form& f, Diagnostic& err) {
  for (size_t j = 1; j < f.words.size(); ++j) {
    const std::string_view w = f.words[j];
    const WordGroup* g = group_of(w);
    for (size_t i = 0; i < j; ++i) {
      const bool same =
          f.words[i] == w && w != ".sync" && !listed(kTypeWords, w) && !listed(kSpaceWords, w) && f.row.op != "cp";
      if (!same && !(g && group_of(f.words[i]) == g)) continue;
      return fail(err, f.st.mnemonic,
                  fmt::format("Multiple {} modifiers specified", g && !g->name.empty() ? g->name : w));
    }
  }
  return true;
}

// A sink '_' in a vector: ld's result ("discard mode"), anything else's source.
bool sinks(const Form& f, Diagnostic& err) {
  for (unsigned k = 0; k < f.st.num_operands; ++k) {
    const std::string_view t = f.st.operands[k].text;
    if (f.st.forms[k] != OperandForm::vector) continue;
    std::vector<std::string_view> e(vector_elements(t, nullptr, 0));
    vector_elements(t, e.data(), static_cast<unsigned>(e.size()));
    if (std::find(e.begin(), e.end(), "_") == e.end()) continue;
    return fail(err, f.st.operands[k],
                f.row.op == "ld" ? "Result discard mode is not allowed for instruction 'ld'"
                                 : "Sink '_' not allowed as a source operand");
  }
  return true;
}

// What ptxas judges before the target: unknown and repeated words, .sync
// where the row has none, the type, the early groups and the operands' kinds.
bool check_early(const Form& f, Diagnostic& err) {
  for (size_t i = 0; i < f.words.size(); ++i) {  // wait's and fence's own word only first
    const std::string_view w = f.words[i];
    const bool own_word = w.substr(0, 7) == ".wait::" || w.substr(0, 8) == ".fence::";
    if ((!any_row_takes(w) && !listed(kKnownWords, w)) || (i > 0 && own_word))
      return fail(err, f.st.mnemonic, fmt::format("Unknown modifier '{}'", w));
  }
  if (!repeated_words(f, err)) return false;
  for (std::string_view w : {".sync", ".satfinite"})
    if (f.has(w) && !listed(f.row.takes, w))
      return fail(err, f.st.mnemonic, fmt::format("Illegal modifier '{}' for instruction '{}'", w, f.row.name));
  std::string_view type;
  unsigned types = 0;
  for (std::string_view w : f.words)
    if (listed(kTypeWords, w)) type = w, ++types;
  if (type != f.row.type || types > 1)
    return fail(err, f.st.mnemonic, fmt::format("Unexpected instruction types specified for '{}'", f.row.name));
  if (!required_groups(f, f.row.early, err)) return false;
  if (!vector_sizes(f, err)) return false;
  if (!operands_fit_early(f)) return mismatch(f, err);
  if (f.row.op == "commit" && f.has(".multicast::cluster") && f.st.num_operands != 2) return mismatch(f, err);
  return true;
}

// The family's PTX version and targets.
bool check_gates(const Form& f, Diagnostic& err) {
  if (f.caps.ptx < kTcgen05Ptx)
    return fail(err, f.st.mnemonic,
                fmt::format("Feature '{}' requires PTX ISA .version {}.{} or later", f.row.name, kTcgen05Ptx / 10,
                            kTcgen05Ptx % 10));
  if (!has_target(f.row.targets, f.caps))
    return fail(err, f.st.mnemonic,
                fmt::format("Instruction '{}' not supported on .target '{}'", f.row.name, f.caps.target_name));
  return true;
}

bool check_tcgen05(const Form& f, Diagnostic& err) {
  const std::string_view shape = f.row.shapes.empty() ? std::string_view() : f.first_in(f.row.shapes);
  if (!shape.empty() && !has_target(kTcgen05Targets, f.caps))
    return fail(err, f.st.mnemonic,
                fmt::format("Feature '{}' not supported on .target '{}'", shape, f.caps.target_name));
  return check_early(f, err) && check_gates(f, err) && check_late(f, err);
}

// ---- after the target: each instruction's own rules -----------------------

bool illegal(const Form& f, std::string_view w, Diagnostic& err) {
  return fail(err, f.st.mnemonic, fmt::format("Illegal modifier '{}' for instruction '{}'", w, f.row.name));
}

// State spaces: one at most, of those the row takes.
bool foreign_spaces(const Form& f, Diagnostic& err) {
  if (std::count_if(f.words.begin(), f.words.end(), [](std::string_view w) { return listed(kSpaceWords, w); }) > 1)
    return fail(err, f.st.mnemonic,
                fmt::format("Unexpected number of state spaces specified in instruction '{}'", f.row.name));
  for (std::string_view w : f.words) {
    if (listed(f.row.takes, w)) continue;
    if (listed(kSpaceWords, w)) {
      if (f.row.op == "alloc")
        return fail(err, f.st.mnemonic,
                    w == ".global" ? std::string("State space incorrect for instruction 'tcgen05.alloc'")
                                   : std::string("State space incorrect for instruction 'tcgen05.alloc', expected "
                                                 "'.shared::cta'"));
      if (f.row.op == "commit")
        return fail(err, f.st.mnemonic, "State space incorrect for instruction 'tcgen05.commit'");
      return fail(err, f.st.mnemonic,
                  fmt::format("No state space qualifier expected for instruction '{}'", f.row.name));
    }
  }
  return true;
}

// Other words the row does not take (known to ptxas elsewhere).
bool foreign_words(const Form& f, Diagnostic& err) {
  for (std::string_view w : f.words) {
    if (listed(f.row.takes, w) || listed(kTypeWords, w)) continue;
    if (listed(kRoundingWords, w))
      return fail(err, f.st.mnemonic, fmt::format("Illegal rounding modifier for instruction '{}'", f.row.name));
    return illegal(f, w, err);
  }
  return true;
}

// alloc's column count: a power of 2 in [32, 512]; dealloc's a multiple of 32.
bool columns_rule(const Form& f, Diagnostic& err) {
  const std::string_view t = f.st.operands[1].text;
  if (!is_immediate(t)) return true;
  uint64_t v = 0;
  literal_bits(t, 32, false, v);
  if (f.row.op == "dealloc") {
    if (v % 32 == 0) return true;
    return fail(err, f.st.operands[1],
                fmt::format("Argument 1 of instruction 'tcgen05.dealloc': unexpected value '{}', expected to be "
                            "multiple of 32",
                            t));
  }
  if (v < 32 || v > 512)
    return fail(err, f.st.operands[1],
                fmt::format("Argument 1 of instruction 'tcgen05.alloc': value '{}' out of range, expected to be in "
                            "range [32..512]",
                            t));
  if ((v & (v - 1)) != 0)
    return fail(err, f.st.operands[1], "Argument 1 of 'tcgen05.alloc' instruction: value must be power of 2");
  return true;
}

// ld/st: the shape and count, the registers they move, the split offset of .16x32bx2.
struct LdShape {
  std::string_view shape;
  unsigned per;   // registers per .num
  unsigned most;  // the largest .num
};
constexpr LdShape kLdShapes[] = {
    {".16x64b", 1, 128}, {".16x128b", 2, 64}, {".16x256b", 4, 32}, {".32x32b", 1, 128}, {".16x32bx2", 1, 128},
};

bool ld_st_rules(const Form& f, Diagnostic& err) {
  const bool st = f.row.op == "st";
  const std::string_view shape = f.first_in(f.row.shapes);
  if (shape.empty())
    return fail(err, f.st.mnemonic, fmt::format("Shape modifier required for instruction '{}'", f.row.name));
  const std::string_view num = f.first_in(".x1 .x2 .x4 .x8 .x16 .x32 .x64 .x128");
  if (num.empty())
    return fail(err, f.st.mnemonic, fmt::format(".num modifier required for instruction '{}'", f.row.name));
  const LdShape* s = nullptr;
  for (const LdShape& x : kLdShapes)
    if (x.shape == shape) s = &x;
  const bool split = shape == ".16x32bx2";
  if (f.st.num_operands != (split ? 3u : 2u))
    return fail(err, f.st.mnemonic,
                fmt::format("Unexpected number of arguments specified for {} with shape '{}'", f.row.name, shape));
  if (fitting_pattern(f, true).empty()) {
    const unsigned vk = st ? f.st.num_operands - 1 : 0;
    if (f.st.forms[vk] != OperandForm::vector)
      return fail(err, f.st.operands[vk], fmt::format("Vector expected for argument {}", vk));
    return mismatch(f, err);
  }
  const unsigned n = static_cast<unsigned>(std::stoul(std::string(num.substr(2))));
  const unsigned vk = st ? f.st.num_operands - 1 : 0;
  if (vector_elements(f.st.operands[vk].text, nullptr, 0) != n * s->per)
    return fail(err, f.st.operands[vk],
                fmt::format("Argument {} of instruction '{}': Argument vector size mismatch", vk, f.row.name));
  return true;
}

// commit: .multicast::cluster adds the CTA mask.
bool commit_rules(const Form& f, Diagnostic& err) {
  const unsigned want = f.has(".multicast::cluster") ? 2 : 1;
  if (f.st.num_operands != want || fitting_pattern(f, true).empty()) return mismatch(f, err);
  return true;
}

// cp: .64x128b takes .warpx2::*, .32x128b .warpx4, the others neither; the
// formats come in pairs, destination first.
bool cp_rules(const Form& f, Diagnostic& err) {
  const std::string_view shape = f.first_in(f.row.shapes);
  if (shape.empty()) return fail(err, f.st.mnemonic, "Shape modifier required for instruction 'tcgen05.cp'");
  const std::string_view warp = f.first_in(".warpx2::02_13 .warpx2::01_23 .warpx4");
  const std::string_view want = shape == ".64x128b" ? ".warpx2" : shape == ".32x128b" ? ".warpx4" : "";
  if (want.empty() && !warp.empty())
    return fail(err, f.st.mnemonic,
                fmt::format("Modifier .warptype not allowed for instruction tcgen05.cp with shape '{}'", shape));
  if (!want.empty() && warp.empty())
    return fail(err, f.st.mnemonic,
                fmt::format("Modifier '.warptype' require for instruction tcgen05.cp with shape '{}'", shape));
  if (!want.empty() && warp.substr(0, want.size()) != want)
    return fail(err, f.st.mnemonic,
                fmt::format("Modifier {} not allowed for instruction tcgen05.cp with shape '{}'", warp, shape));
  std::vector<std::string_view> formats;
  for (std::string_view w : f.words)
    if (listed(".b8x16 .b6x16_p32 .b4x16_p64", w)) formats.push_back(w);
  if (formats.size() == 1)
    return fail(err, f.st.mnemonic, "Unexpected number of 'format conversion' modifiers specified");
  if (formats.size() == 2 && (formats[0] != ".b8x16" || formats[1] == ".b8x16"))
    return illegal(f, fmt::format("{}{}", formats[0], formats[1]), err);
  return true;
}

bool mma_rules(const Form& f, Diagnostic& err);

// An address of shared memory (not tensor memory) that is a number.
bool immediate_addresses(const Form& f, Diagnostic& err) {
  if (f.row.operands.find('s') == std::string_view::npos) return true;
  for (unsigned k = 0; k < f.st.num_operands; ++k)
    if (f.st.forms[k] == OperandForm::address && is_immediate(base_of(f.st.operands[k].text)))
      return fail(err, f.st.operands[k], "Immediate addresses allowed only for .local state space");
  return true;
}

bool check_late(const Form& f, Diagnostic& err) {
  if (!sinks(f, err) || !immediate_addresses(f, err) || !foreign_spaces(f, err)) return false;
  if (!required_groups(f, f.row.late, err)) return false;
  if (!foreign_words(f, err)) return false;
  if (f.row.op == "ld" || f.row.op == "st") return ld_st_rules(f, err);
  if (f.row.op == "cp" && !cp_rules(f, err)) return false;
  if (f.row.op == "commit") return commit_rules(f, err);
  if (f.row.op == "mma" || f.row.op == "mma.ws") return mma_rules(f, err);
  if (fitting_pattern(f, true).empty()) return mismatch(f, err);
  if (f.row.op == "alloc" || f.row.op == "dealloc") return columns_rule(f, err);
  return true;
}

// ---- tcgen05.mma -----------------------------------------------------------

// The block-scaled kinds: the scale vector sizes each takes, and the one
// ptxas supplies where the statement names none (empty: it must be named).
struct ScaledKind {
  std::string_view kind, sizes, implied;
};
constexpr ScaledKind kScaled[] = {
    {".kind::mxf8f6f4", ".scale_vec::1X .block32", ".block32"},
    {".kind::mxf4", ".scale_vec::2X .block32", ".block32"},
    {".kind::mxf4nvf4", ".scale_vec::2X .scale_vec::4X .block16 .block32", ""},
};
constexpr std::string_view kKinds =
    ".kind::f16 .kind::tf32 .kind::f8f6f4 .kind::i8 .kind::mxf8f6f4 .kind::mxf4 .kind::mxf4nvf4";
constexpr std::string_view kVecSizes = ".scale_vec::1X .scale_vec::2X .scale_vec::4X .block16 .block32";

// Target and version gates of single words.
bool mma_word_gates(const Form& f, std::string_view kind, std::string_view size, Diagnostic& err) {
  if (f.has(".sp") && (kind == ".kind::mxf4" || kind == ".kind::mxf4nvf4") && !listed(kArchTargets, f.caps.target_name))
    return fail(err, f.st.mnemonic,
                fmt::format("Feature '{} with .sp modifier' not supported on .target '{}'", kind, f.caps.target_name));
  if (kind == ".kind::i8" && !listed("sm_100a sm_110a sm_101a", f.caps.target_name))
    return fail(err, f.st.mnemonic,
                fmt::format("Feature '.kind::i8' not supported on .target '{}'", f.caps.target_name));
  if (kind == ".kind::mxf4nvf4" && f.caps.ptx < 87)
    return fail(err, f.st.mnemonic, "Feature '.kind::mxf4nvf4' requires PTX ISA .version 8.7 or later");
  if ((size == ".block16" || size == ".block32") && f.caps.ptx < 88)
    return fail(err, f.st.mnemonic, fmt::format("Feature '{}' requires PTX ISA .version 8.8 or later", size));
  if (size.substr(0, 11) == ".scale_vec:" && !listed(kArchTargets, f.caps.target_name))
    return fail(err, f.st.mnemonic,
                fmt::format("Feature '{}' not supported on .target '{}'", size, f.caps.target_name));
  return true;
}

// The kind, block scaling and the scale vector size named together.
bool mma_kind_rules(const Form& f, std::string_view kind, const ScaledKind* sk, bool scale_d, bool scale_ops,
                    Diagnostic& err) {
  const bool block_scale = f.has(".block_scale");
  if (scale_d && kind != ".kind::f16" && kind != ".kind::tf32")
    return fail(err, f.st.mnemonic,
                fmt::format("Illegal modifier '{}' for instruction '{}' with 'arg scale-inp-d-imm'", kind, f.row.name));
  if (block_scale && !sk)
    return fail(err, f.st.mnemonic, fmt::format("Modifier '{}' cannot be combined with modifier '.block_scale'", kind));
  const std::string_view named = f.first_in(kVecSizes);
  if (!named.empty() && !block_scale)
    return fail(err, f.st.mnemonic,
                fmt::format("Modifier '{}' requires modifier '.block_scale' for instruction '{}'", named, f.row.name));
  if (sk && !named.empty() && !listed(sk->sizes, named))
    return fail(err, f.st.mnemonic, fmt::format("Modifier '{}' cannot be combined with modifier '{}'", kind, named));
  if (sk && named.empty() && sk->implied.empty())
    return fail(
        err, f.st.mnemonic,
        fmt::format("Modifier '{}' requires modifier '.scale_vectorsize' for instruction '{}'", kind, f.row.name));
  if (sk && !block_scale && scale_ops)
    return fail(err, f.st.mnemonic, fmt::format(".block_scale modifier required for instruction '{}'", f.row.name));
  return true;
}

// The operands: disable-output-lane holds 4 registers per CTA of the group,
// block scaling takes the two scale addresses, scale-input-d is 0..15.
bool mma_operands(const Form& f, std::string_view pattern, Diagnostic& err) {
  const bool pair = f.has(".cta_group::2");
  for (unsigned k = 0; k < f.st.num_operands; ++k) {
    if (f.st.forms[k] != OperandForm::vector) continue;
    if (vector_elements(f.st.operands[k].text, nullptr, 0) != (pair ? 8u : 4u))
      return fail(err, f.st.operands[k], fmt::format("Argument vector size mismatch for instruction '{}'", f.row.name));
  }
  const bool scaled_ops = pattern.size() >= 3 && pattern.substr(pattern.size() - 3) == "ttp";
  if (scaled_ops != f.has(".block_scale")) return mismatch(f, err);
  if (pattern.back() == 'i' && f.row.op == "mma" && !f.has(".kind::i8")) {  // i8's is not range-checked
    const unsigned k = f.st.num_operands - 1;
    uint64_t v = 0;
    literal_bits(f.st.operands[k].text, 64, false, v);
    const bool negative = f.st.operands[k].text[0] == '-';
    if (negative || v > 15)
      return fail(err, f.st.operands[k],
                  fmt::format("Argument {} of instruction '{}': value '{}' out of range, expected to be in range "
                              "[0..15]",
                              k, f.row.name, f.st.operands[k].text));
  }
  return true;
}

// Whether the statement has scale-input-d, as ptxas counts: one operand more
// than the form (with its disable-output-lane vector, its metadata) needs.
bool has_scale_d(const Form& f) {
  if (f.row.op != "mma") return false;
  unsigned n = f.st.num_operands - (f.has(".sp") ? 1 : 0);
  for (unsigned k = 0; k < f.st.num_operands; ++k) n -= f.st.forms[k] == OperandForm::vector;
  const unsigned k4 = 4 + (f.has(".sp") ? 1 : 0);
  return n == 6 && !(k4 < f.st.num_operands && f.st.forms[k4] == OperandForm::address);
}

bool mma_rules(const Form& f, Diagnostic& err) {
  const std::string_view kind = f.first_in(kKinds);
  const bool scale_d = has_scale_d(f) && kind != ".kind::i8";  // i8 takes it everywhere, ungated
  if (scale_d && listed("sm_110a sm_110f sm_101a sm_101f", f.caps.target_name))
    return fail(err, f.st.mnemonic,
                fmt::format("Feature 'argument scale-inp-d-imm' not supported on .target '{}'", f.caps.target_name));
  const std::string full = fitting_pattern(f, true);
  const std::string_view pattern = full;
  if (pattern.empty()) return mismatch(f, err);
  const ScaledKind* sk = nullptr;
  for (const ScaledKind& x : kScaled)
    if (x.kind == kind) sk = &x;
  if (sk && f.row.op == "mma.ws") return illegal(f, kind, err);
  const bool scale_ops = pattern.size() >= 3 && pattern.substr(pattern.size() - 3) == "ttp";
  if (!mma_kind_rules(f, kind, sk, scale_d, scale_ops, err)) return false;
  std::string_view size = f.first_in(kVecSizes);
  if (sk && size.empty()) size = sk->implied;
  if (!mma_word_gates(f, kind, size, err)) return false;
  if (sk && !f.has(".block_scale")) return illegal(f, size, err);
  return mma_operands(f, pattern, err);
}

}  // namespace

bool is_tcgen05_statement(const Statement& st) {
  const std::string_view m = st.mnemonic.text;
  return m.substr(0, 8) == "tcgen05." && row_of(words_of(m.substr(7))) != nullptr;
}

unsigned tcgen05_cta_groups(const Statement& st) {
  const std::string_view m = st.mnemonic.text;
  if (m.substr(0, 8) != "tcgen05.") return 0;
  unsigned groups = 0;
  for (std::string_view w : words_of(m.substr(7))) groups |= w == ".cta_group::1" ? 1 : w == ".cta_group::2" ? 2 : 0;
  return groups;
}

bool check_tcgen05_statement(const Statement& st, const Capabilities& caps, const RegisterTable* regs,
                             Diagnostic& err) {
  std::vector<std::string_view> w = words_of(st.mnemonic.text.substr(7));
  const Row* row = row_of(w);
  if (!row) return true;
  const std::string_view own = w[0];
  w.erase(w.begin(), w.begin() + (row->op == "mma.ws" ? 2 : 1));
  if (own.find("::") != std::string_view::npos) w.insert(w.begin(), own);  // .wait::ld, .fence::...
  const Form f{*row, st, w, caps, regs};
  return check_tcgen05(f, err);
}

}  // namespace ptxfu::isa
