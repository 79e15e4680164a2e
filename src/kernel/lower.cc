// The lowering pass (lower.h): the operands and each PTX statement of a
// function to an `Inst`, by the rows of kLowerings.
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "isa/lexer.h"
#include "isa/module.h"
#include "isa/opcodes.h"
#include "isa/target_options.h"
#include "kernel/kernel.h"
#include "kernel/lower.h"

namespace ptxfu::kernel::loading {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The pieces of `s` between `sep`s, as they are (empty ones too).
std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

// Splits "a, b ,c" at commas (no nesting inside the pieces we split), trimmed,
// empty pieces dropped.
std::vector<std::string_view> split_commas(std::string_view s) {
  std::vector<std::string_view> out;
  for (const std::string_view piece : split(s, ','))
    if (!trim(piece).empty()) out.push_back(trim(piece));
  return out;
}

struct SRegName {
  std::string_view name;
  SReg reg;
  uint8_t bits;
  bool vector;  // takes .x/.y/.z
};
constexpr SRegName kSRegs[] = {
    {"%tid", SReg::tid, 32, true},
    {"%ntid", SReg::ntid, 32, true},
    {"%ctaid", SReg::ctaid, 32, true},
    {"%nctaid", SReg::nctaid, 32, true},
    {"%laneid", SReg::laneid, 32, false},
    {"%warpid", SReg::warpid, 32, false},
    {"%nwarpid", SReg::nwarpid, 32, false},
    {"%smid", SReg::smid, 32, false},
    {"%nsmid", SReg::nsmid, 32, false},
    {"%gridid", SReg::gridid, 64, false},
    {"%clock", SReg::clock, 32, false},
    {"%clock_hi", SReg::clock_hi, 32, false},
    {"%clock64", SReg::clock64, 64, false},
    {"%lanemask_eq", SReg::lanemask_eq, 32, false},
    {"%lanemask_le", SReg::lanemask_le, 32, false},
    {"%lanemask_lt", SReg::lanemask_lt, 32, false},
    {"%lanemask_ge", SReg::lanemask_ge, 32, false},
    {"%lanemask_gt", SReg::lanemask_gt, 32, false},
    {"%dynamic_smem_size", SReg::dynamic_smem_size, 32, false},
    {"%total_smem_size", SReg::total_smem_size, 32, false},
    {"%reserved_smem_offset_begin", SReg::reserved_smem_begin, 32, false},
    {"%reserved_smem_offset_end", SReg::reserved_smem_end, 32, false},
    {"%reserved_smem_offset_cap", SReg::reserved_smem_cap, 32, false},
    {"%reserved_smem_offset_0", SReg::reserved_smem_0, 32, false},
    {"%reserved_smem_offset_1", SReg::reserved_smem_1, 32, false},
    {"%globaltimer", SReg::globaltimer, 64, false},
    {"%globaltimer_lo", SReg::globaltimer_lo, 32, false},
    {"%globaltimer_hi", SReg::globaltimer_hi, 32, false},
    {"%clusterid", SReg::clusterid, 32, true},
    {"%nclusterid", SReg::nclusterid, 32, true},
    {"%cluster_ctaid", SReg::cluster_ctaid, 32, true},
    {"%cluster_nctaid", SReg::cluster_nctaid, 32, true},
    {"%cluster_ctarank", SReg::cluster_ctarank, 32, false},
    {"%cluster_nctarank", SReg::cluster_nctarank, 32, false},
    {"%is_explicit_cluster", SReg::is_explicit_cluster, 1, false},
};

// Qualifiers of ld/st/atom/red that do not change values.
constexpr std::string_view kIgnoredQualifiers[] = {"weak",
                                                   "volatile",
                                                   "relaxed",
                                                   "acquire",
                                                   "release",
                                                   "acq_rel",
                                                   "sc",
                                                   "mmio",
                                                   "cta",
                                                   "gpu",
                                                   "sys",
                                                   "cluster",
                                                   "ca",
                                                   "cg",
                                                   "cs",
                                                   "lu",
                                                   "cv",
                                                   "wb",
                                                   "wt",
                                                   "nc",
                                                   "L1::evict_normal",
                                                   "L1::evict_unchanged",
                                                   "L1::evict_first",
                                                   "L1::evict_last",
                                                   "L1::no_allocate",
                                                   "L2::evict_normal",
                                                   "L2::evict_first",
                                                   "L2::evict_last",
                                                   "L2::cache_hint",
                                                   "L2::64B",
                                                   "L2::128B",
                                                   "L2::256B",
                                                   "unified",
                                                   "noftz",
                                                   "aligned",
                                                   "sync",
                                                   "uni"};

bool ignored_qualifier(std::string_view w) {
  return std::find(std::begin(kIgnoredQualifiers), std::end(kIgnoredQualifiers), w) != std::end(kIgnoredQualifiers);
}

std::optional<Space> space_word(std::string_view w) {
  if (w == "global") return Space::global;
  // shared::cluster: a .shared::cluster address reaches a peer CTA's shared memory (kClusterRankStride)
  if (w == "shared" || w == "shared::cta" || w == "shared::cluster") return Space::shared;
  if (w == "local") return Space::local;
  if (w == "param" || w == "param::entry" || w == "param::func") return Space::param;
  if (w == "const") return Space::const_;
  return std::nullopt;
}

bool is_table_opcode(std::string_view word) {
  for (const isa::OpInfo& o : isa::kOps)
    if (o.name == word) return true;
  return false;
}

}  // namespace

void Lowerer::note(uint8_t& n, std::vector<uint32_t>& list, uint32_t slot) {
  for (unsigned i = 0; i < n; ++i)
    if (list[i] == slot) return;
  if (n < kMaxRegsPerInst) {
    list.push_back(slot);
    ++n;
  }
}

Operand Lowerer::reg_operand(const Symbol& s, unsigned bits) {
  Operand o;
  o.kind = Operand::Kind::reg;
  o.reg = s.slot;
  o.reg_bits = s.bits;
  o.bits = static_cast<uint8_t>(bits);
  return o;
}

Operand Lowerer::source(Inst& in, std::string_view text, unsigned bits, bool floating, bool symbols) {
  text = trim(text);
  Operand o;
  o.bits = static_cast<uint8_t>(bits);
  if (text.empty()) fail(*tok_, "missing operand");
  if (text[0] == '!') {
    o = source(in, text.substr(1), 1, false);
    if (o.kind != Operand::Kind::reg || o.reg_bits != 1) fail(*tok_, "'!' applies to predicate registers only");
    o.negated = true;
    return o;
  }
  uint64_t v;
  if (isa::classify_literal(text) != isa::LiteralKind::none) {
    if (!isa::literal_bits(text, bits == 1 ? 64 : bits, floating, v))
      fail(*tok_, fmt::format("immediate '{}' does not fit this operand", text));
    o.kind = Operand::Kind::imm;
    o.value = bits == 1 ? (v != 0) : v;
    return o;
  }
  if (text == "WARP_SZ") {
    o.kind = Operand::Kind::imm;
    o.value = 32;
    return o;
  }
  if (text[0] == '%') {
    const std::string_view base = text.substr(0, text.find('.'));
    for (const SRegName& r : kSRegs) {
      if (r.name != base) continue;
      o.kind = Operand::Kind::sreg;
      o.sreg = r.reg;
      if (r.vector) {
        const std::string_view comp = base.size() < text.size() ? text.substr(base.size() + 1) : "";
        if (comp != "x" && comp != "y" && comp != "z")
          fail(*tok_, fmt::format("special register '{}' needs .x, .y or .z", text));
        o.component = static_cast<uint8_t>(comp[0] - 'x');
      }
      return o;
    }
    if (isa::is_special_register(text)) fail(*tok_, fmt::format("special register '{}' is not supported", text));
  }
  const auto s = lookup(text);
  if (!s) fail(*tok_, fmt::format("Unknown symbol '{}'", text));
  if (s->kind == Symbol::Kind::reg) {
    note(in.num_reads, in.reads, s->slot);
    return reg_operand(*s, bits);
  }
  if (symbols && (s->kind == Symbol::Kind::var || s->kind == Symbol::Kind::function)) {
    o.kind = Operand::Kind::imm;
    if (s->kind == Symbol::Kind::function) {
      if (s->slot == kNoPc) fail(*tok_, fmt::format("'{}' has no body in this module", text));
      o.value = kCodeBase + 16 * uint64_t{s->slot};
    } else {
      o.value = s->address;  // an .extern .shared array: tagged until Resolver::finish()
    }
    return o;
  }
  if (symbols && s->kind == Symbol::Kind::kernel_param) {  // its address in param space (cvta.param makes it generic)
    o.kind = Operand::Kind::imm;
    o.value = s->address;
    return o;
  }
  fail(*tok_, fmt::format("'{}' cannot be an operand here", text));
}

Operand Lowerer::dest(Inst& in, std::string_view text, unsigned bits, bool sign_extend) {
  text = trim(text);
  Operand o;
  if (text == "_") {
    o.kind = Operand::Kind::sink;
    o.bits = static_cast<uint8_t>(bits);
    return o;
  }
  const auto s = lookup(text);
  if (!s || s->kind != Symbol::Kind::reg)
    fail(*tok_, s ? fmt::format("'{}' is not a register", text) : fmt::format("Unknown symbol '{}'", text));
  if (bits > 1 && s->bits == 1) fail(*tok_, fmt::format("'{}' is a predicate; expected a {}-bit register", text, bits));
  if (bits == 1 && s->bits != 1) fail(*tok_, fmt::format("'{}' is not a predicate", text));
  note(in.num_writes, in.writes, s->slot);
  o = reg_operand(*s, bits);
  o.sign_extend = sign_extend && s->bits > bits;
  return o;
}

Operand Lowerer::vector(Inst& in, std::string_view text, unsigned elem_bits, bool is_dest, bool floating) {
  text = trim(text);
  if (text.size() < 2 || text.front() != '{' || text.back() != '}') fail(*tok_, "expected a vector {a, b, ...}");
  Operand o;
  o.kind = Operand::Kind::vector;
  o.reg = static_cast<uint32_t>(k_.elements.size());
  const auto parts = split_commas(text.substr(1, text.size() - 2));
  if (parts.size() != 2 && parts.size() != 4 && parts.size() != 8) fail(*tok_, "a vector has 2, 4 or 8 elements");
  for (std::string_view p : parts)
    k_.elements.push_back(is_dest ? dest(in, p, elem_bits) : source(in, p, elem_bits, floating));
  o.count = static_cast<uint32_t>(parts.size());
  o.bits = static_cast<uint8_t>(std::min(64u, elem_bits * o.count));
  return o;
}

Address Lowerer::address(Inst& in, std::string_view text, Space space) {
  text = trim(text);
  if (text.size() < 2 || text.front() != '[' || text.back() != ']') fail(*tok_, "expected an address [...]");
  std::string body;
  for (char c : text.substr(1, text.size() - 2))
    if (!std::isspace(static_cast<unsigned char>(c))) body += c;
  Address a;
  std::string_view base = body;
  int64_t offset = 0;
  if (const size_t plus = body.find('+', 1); plus != std::string::npos) {
    base = std::string_view(body).substr(0, plus);
    uint64_t v;
    if (!isa::literal_bits(std::string_view(body).substr(plus + 1), 64, false, v)) fail(*tok_, "bad address offset");
    offset = static_cast<int64_t>(v);
  } else if (const size_t minus = body.find('-', 1); minus != std::string::npos) {
    base = std::string_view(body).substr(0, minus);
    uint64_t v;
    if (!isa::literal_bits(std::string_view(body).substr(minus), 64, false, v)) fail(*tok_, "bad address offset");
    offset = static_cast<int64_t>(v);
  }
  uint64_t v;
  if (isa::literal_bits(base, 64, false, v)) {
    a.offset = static_cast<int64_t>(v) + offset;
    return a;
  }
  const auto s = lookup(base);
  if (!s) fail(*tok_, fmt::format("Unknown symbol '{}'", base));
  switch (s->kind) {
    case Symbol::Kind::reg:
      if (s->bits != 32 && s->bits != 64) fail(*tok_, "an address register must be 32 or 64 bits wide");
      a.has_reg = true;
      a.reg = s->slot;
      a.reg_bits = s->bits;
      a.offset = offset;
      note(in.num_reads, in.reads, s->slot);
      if (space == Space::param) fail(*tok_, "a .param access through a register is not supported; name the parameter");
      return a;
    case Symbol::Kind::kernel_param:
    case Symbol::Kind::frame_param:
      if (space != Space::param)
        fail(*tok_, fmt::format("'{}' is a .param; the access must be ld.param/st.param", base));
      a.param = s->kind == Symbol::Kind::kernel_param ? Address::Param::kernel : Address::Param::frame;
      a.offset = static_cast<int64_t>(s->address) + offset;
      return a;
    case Symbol::Kind::var: {
      uint64_t addr = s->address;  // an .extern .shared array: tagged until Resolver::finish()
      if (space == Space::generic) {
        if (s->space == Space::shared) addr += kSharedWindow;
        if (s->space == Space::local) addr += kLocalWindow;
      } else if (space != s->space) {
        fail(*tok_, fmt::format("'{}' is a .{} variable, not .{}", base, name(s->space), name(space)));
      }
      a.offset = static_cast<int64_t>(addr) + offset;
      return a;
    }
    default: fail(*tok_, fmt::format("'{}' is not an address", base));
  }
}

const std::vector<Lowerer::Row>& Lowerer::rows() {
  // Operand counts: the most PTX's syntax gives the opcode, or what the
  // executor takes where that is fewer (ld/st: no cache policy); each
  // lowering narrows them by qualifier.
  // One row per line (clang-format would pack them).
  // clang-format off
  static const std::vector<Row> kLowerings = {
      // every mov form, the table's pack/unpack rows included: lanes are moved here
      {"mov", Kind::mov, 2, 2, &Lowerer::mov},
      {"cvta", Kind::cvta, 2, 2, &Lowerer::cvta},
      {"ld", Kind::ld, 2, 2, &Lowerer::load_store},
      {"ldu", Kind::ld, 2, 2, &Lowerer::load_store},
      {"st", Kind::st, 2, 2, &Lowerer::load_store},
      {"atom", Kind::atom, 3, 5, &Lowerer::atomic},
      {"red", Kind::red, 2, 3, &Lowerer::atomic},
      {"bra", Kind::bra, 1, 1, &Lowerer::branch},
      {"call", Kind::call, 1, 4, &Lowerer::call},
      {"ret", Kind::ret, 0, 0, &Lowerer::nothing},
      {"exit", Kind::exit, 0, 0, &Lowerer::nothing},
      {"bar", Kind::bar, 1, 4, &Lowerer::barrier},  // bar.warp.sync: Kind::warp_sync
      {"barrier", Kind::bar, 0, 4, &Lowerer::barrier},  // 0: barrier.cluster
      {"shfl", Kind::shfl, 4, 5, &Lowerer::warp_op},
      {"vote", Kind::vote, 2, 3, &Lowerer::warp_op},
      {"match", Kind::match, 3, 3, &Lowerer::warp_op},
      {"redux", Kind::redux, 3, 3, &Lowerer::warp_op},
      {"activemask", Kind::activemask, 1, 1, &Lowerer::warp_op},
      {"membar", Kind::fence, 0, 0, &Lowerer::nothing},
      {"fence", Kind::fence, 0, 2, &Lowerer::nothing},
      {"prefetch", Kind::nop, 1, 1, &Lowerer::nothing},
      {"prefetchu", Kind::nop, 1, 1, &Lowerer::nothing},
      {"nanosleep", Kind::nop, 1, 1, &Lowerer::nothing},
      // the tensor-core instructions (kernel/tensor_lower.cc); wmma's second word picks
      // wmma_load, wmma_store or mma
      {"mma", Kind::mma, 4, 8, &Lowerer::tensor},  // 8: with block scaling
      {"wmma", Kind::mma, 2, 4, &Lowerer::tensor},
      {"ldmatrix", Kind::ldmatrix, 2, 2, &Lowerer::tensor},
      {"stmatrix", Kind::stmatrix, 2, 2, &Lowerer::tensor},
      {"movmatrix", Kind::movmatrix, 2, 2, &Lowerer::tensor},
      // wgmma.mma_async (Kind::wgmma) and wgmma.fence/commit_group/wait_group (Kind::wgmma_sync)
      {"wgmma", Kind::wgmma, 0, 8, &Lowerer::wgmma},
      // the asynchronous copies, mbarriers and warp-level synchronisation (kernel/async_lower.cc);
      // cp.async's second word picks async_commit, async_wait or async_arrive
      {"cp", Kind::async_copy, 0, 5, &Lowerer::async_copy},
      {"mbarrier", Kind::mbarrier, 1, 4, &Lowerer::mbarrier},
      {"elect", Kind::elect, 2, 2, &Lowerer::elect},
      {"mapa", Kind::mapa, 3, 3, &Lowerer::mapa},
      // texture and surface objects (kernel/texture.h)
      {"tex", Kind::tex, 2, 2, &Lowerer::texture},
      {"suld", Kind::suld, 2, 2, &Lowerer::texture},
      {"sust", Kind::sust, 2, 2, &Lowerer::texture},
  };
  // clang-format on
  return kLowerings;
}

namespace {

const Lowerer::Row* row_of(std::string_view opcode) {
  for (const Lowerer::Row& r : Lowerer::rows())
    if (r.opcode == opcode) return &r;
  return nullptr;
}

// "mov, cvta, ld, ...": what the executor covers besides the table's arithmetic.
std::string covered_opcodes() {
  std::string s;
  for (const Lowerer::Row& r : Lowerer::rows()) s += (s.empty() ? "" : ", ") + std::string(r.opcode);
  return s;
}

}  // namespace

void Lowerer::guard(Inst& in, const isa::Statement& st) {
  if (st.guard.text.empty()) return;
  tok_ = &st.guard;
  const auto g = lookup(st.guard.text);
  if (!g || g->kind != Symbol::Kind::reg || g->bits != 1)
    fail(st.guard, "Predicate expression expected");  // ptxas 13.0's words
  in.guard = static_cast<int32_t>(g->slot);
  in.guard_negated = st.guard_negated;
  note(in.num_reads, in.reads, g->slot);
}

Inst Lowerer::instruction(const isa::Statement& st) {
  Inst in;
  in.line = st.mnemonic.line;
  in.column = st.mnemonic.column;
  in.mnemonic = st.mnemonic.text;
  tok_ = &st.mnemonic;
  guard(in, st);
  const Words words = split(st.mnemonic.text, '.');
  if (const Row* row = row_of(words[0])) {
    in.kind = row->kind;
    expect_operands(st, row->min_operands, row->max_operands);
    (this->*row->lower)(in, st, words);
  } else if (is_table_opcode(words[0])) {
    in.kind = Kind::arith;
    arith(in, st);
  } else if (words[0] == "tcgen05") {  // legality and numerics only (issue 23): say where those are
    fail(st.mnemonic, fmt::format("'{}' is not supported by the kernel executor: tcgen05 (sm_100a's tensor memory "
                                  "and fifth-generation tensor core) is checked for legality by `ptxfu check`, and "
                                  "its matrix numerics are the sm_100 rows of the matrix API (ptxfu.mma, "
                                  "docs/mma.md); the kernel model does not run it",
                                  st.mnemonic.text));
  } else {
    fail(st.mnemonic, fmt::format("'{}' is not supported by the kernel executor (it covers the instruction table's "
                                  "arithmetic and {})",
                                  st.mnemonic.text, covered_opcodes()));
  }
  return in;
}

void Lowerer::nothing(Inst&, const isa::Statement&, const Words&) {}

void Lowerer::only_qualifiers(const isa::Statement& st, const Words& words, size_t first,
                              std::initializer_list<std::string_view> known) {
  for (size_t i = first; i < words.size(); ++i) {
    const std::string_view w = words[i];
    if (std::find(known.begin(), known.end(), w) != known.end() || ignored_qualifier(w)) continue;
    fail(st.mnemonic,
         fmt::format("'{}': qualifier '.{}' is not supported by the kernel executor", st.mnemonic.text, w));
  }
}

void Lowerer::expect_operands(const isa::Statement& st, unsigned lo, unsigned hi) {
  if (st.num_operands < lo || st.num_operands > hi)
    fail(st.mnemonic, fmt::format("Arguments mismatch for instruction '{}'", st.mnemonic.text));
}

void Lowerer::arith(Inst& in, const isa::Statement& st) {
  isa::Diagnostic d;
  if (st.num_operands == 0 ||
      !isa::check_form(st.mnemonic.text, st.num_operands - 1, k_.caps, st.mnemonic.column, in.form, d))
    fail(isa::SourceLoc{st.mnemonic.line, d.column ? d.column : st.mnemonic.column},
         d.message.empty() ? "Arguments mismatch" : d.message);
  const isa::FormRow& row = *in.form.row;
  in.pipe = row.pipe;
  const bool floating = isa::is_float(in.form.type);
  const bool sign = isa::info(in.form.type).cls == isa::TypeClass::signed_int;
  tok_ = &st.operands[0];
  const std::string_view d0 = st.operands[0].text;
  const size_t bar = d0.find('|');
  switch (row.dest) {
    case isa::Operand::pred_pair:
      in.dst[0] = dest(in, d0.substr(0, bar), 1);
      if (bar != std::string_view::npos) in.dst[1] = dest(in, d0.substr(bar + 1), 1);
      break;
    case isa::Operand::reg_pred:
      if (bar == std::string_view::npos) fail(st.operands[0], "expected d|p");
      in.dst[0] = dest(in, d0.substr(0, bar), isa::dest_bits(in.form), sign);
      in.dst[1] = dest(in, d0.substr(bar + 1), 1);
      break;
    default: in.dst[0] = dest(in, d0, isa::dest_bits(in.form), sign); break;
  }
  in.num_dst = in.dst[1].kind == Operand::Kind::none ? 1 : 2;
  in.num_src = static_cast<uint8_t>(st.num_operands - 1);
  if (in.num_src > 5) fail(st.mnemonic, "too many sources");
  for (unsigned k = 0; k < in.num_src; ++k) {
    tok_ = &st.operands[k + 1];
    const isa::Operand kind = row.src[k];
    const bool pred = kind == isa::Operand::pred;
    const isa::Type t = (k > 0 && row.shape == isa::Shape::convert) || (row.shape == isa::Shape::select && k == 2)
                            ? in.form.type2
                            : in.form.type;
    const bool src_float = row.shape == isa::Shape::convert ? isa::is_float(in.form.type2) : floating;
    in.src[k] = source(in, st.operands[k + 1].text, pred ? 1 : isa::src_bits(in.form, k),
                       pred ? false : (kind == isa::Operand::imm ? false : (isa::is_float(t) || src_float)));
  }
}

isa::Type Lowerer::data_type(const isa::Statement& st, const Words& words) {
  const auto t = isa::find_type(words.back());
  if (!t) fail(st.mnemonic, fmt::format("'{}' needs a type suffix", st.mnemonic.text));
  return *t;
}

void Lowerer::mov(Inst& in, const isa::Statement& st, const Words& words) {
  expect_operands(st, 2, 2);
  const isa::Type t = data_type(st, words);
  const unsigned bits = t == isa::Type::pred ? 1 : isa::info(t).bits;
  const bool floating = isa::is_float(t);
  const isa::Token& d = st.operands[0];
  const isa::Token& s = st.operands[1];
  in.num_dst = in.num_src = 1;
  if (st.forms[0] == isa::OperandForm::vector) {  // unpack
    tok_ = &d;
    const unsigned n = static_cast<unsigned>(split_commas(d.text).size());
    in.dst[0] = vector(in, d.text, bits / std::max(1u, n), true, false);
    tok_ = &s;
    in.src[0] = source(in, s.text, bits, floating);
    return;
  }
  tok_ = &d;
  in.dst[0] = dest(in, d.text, bits);
  tok_ = &s;
  if (st.forms[1] == isa::OperandForm::vector) {  // pack
    const unsigned n = static_cast<unsigned>(split_commas(s.text).size());
    in.src[0] = vector(in, s.text, bits / std::max(1u, n), false, false);
    return;
  }
  in.src[0] = source(in, s.text, bits, floating, true);
}

void Lowerer::load_store(Inst& in, const isa::Statement& st, const Words& words) {
  const bool store = words[0] == "st";
  expect_operands(st, 2, 2);
  const isa::Type t = data_type(st, words);
  for (size_t i = 1; i + 1 < words.size(); ++i) {
    const std::string_view w = words[i];
    if (const auto sp = space_word(w)) {
      in.space = *sp;
    } else if (w == "v2" || w == "v4") {
      in.vec = static_cast<uint8_t>(w[1] - '0');
    } else if (!ignored_qualifier(w)) {
      fail(st.mnemonic,
           fmt::format("'{}': qualifier '.{}' is not supported by the kernel executor", st.mnemonic.text, w));
    }
  }
  const unsigned bits = isa::info(t).bits;
  if (t == isa::Type::pred || bits > 64 || isa::info(t).lanes > 2)
    fail(st.mnemonic,
         fmt::format("'{}': type .{} is not supported by the kernel executor", st.mnemonic.text, isa::name(t)));
  if (store && in.space == Space::const_) fail(st.mnemonic, "st.const: constant memory is read-only");
  in.access_bytes = static_cast<uint8_t>(bits / 8);
  in.load_signed = isa::info(t).cls == isa::TypeClass::signed_int;
  in.pipe = isa::Pipe::alu;
  const isa::Token& a = st.operands[store ? 0 : 1];
  const isa::Token& v = st.operands[store ? 1 : 0];
  tok_ = &a;
  in.addr = address(in, a.text, in.space);
  tok_ = &v;
  const bool floating = isa::is_float(t);
  if (in.vec > 1) {
    if (st.forms[store ? 1 : 0] != isa::OperandForm::vector) fail(v, "a vector access takes a vector operand {...}");
    Operand o = vector(in, v.text, bits, !store, floating);
    if (o.count != in.vec) fail(v, fmt::format("expected {} elements", unsigned{in.vec}));
    (store ? in.src[0] : in.dst[0]) = o;
  } else if (store) {
    in.src[0] = source(in, v.text, bits, floating);
  } else {
    in.dst[0] = dest(in, v.text, bits, in.load_signed);
  }
  in.num_dst = store ? 0 : 1;
  in.num_src = store ? 1 : 0;
}

void Lowerer::atomic(Inst& in, const isa::Statement& st, const Words& words) {
  const bool red = words[0] == "red";
  const isa::Type t = data_type(st, words);
  std::optional<AtomOp> aop;
  static constexpr std::pair<std::string_view, AtomOp> kOps[] = {
      {"add", AtomOp::add},  {"min", AtomOp::min}, {"max", AtomOp::max},  {"inc", AtomOp::inc},   {"dec", AtomOp::dec},
      {"and", AtomOp::and_}, {"or", AtomOp::or_},  {"xor", AtomOp::xor_}, {"exch", AtomOp::exch}, {"cas", AtomOp::cas}};
  for (size_t i = 1; i + 1 < words.size(); ++i) {
    const std::string_view w = words[i];
    bool known = false;
    for (const auto& [n, o] : kOps)
      if (w == n) aop = o, known = true;
    if (known) continue;
    if (const auto sp = space_word(w)) {
      in.space = *sp;
      continue;
    }
    if (!ignored_qualifier(w))
      fail(st.mnemonic,
           fmt::format("'{}': qualifier '.{}' is not supported by the kernel executor", st.mnemonic.text, w));
  }
  if (!aop) fail(st.mnemonic, fmt::format("'{}' names no operation", st.mnemonic.text));
  in.atom = *aop;
  if (in.space != Space::generic && in.space != Space::global && in.space != Space::shared)
    fail(st.mnemonic, fmt::format("'{}': atomics work on .global and .shared memory", st.mnemonic.text));
  const unsigned bits = isa::info(t).bits;
  in.access_bytes = static_cast<uint8_t>(bits / 8);
  // The combining operation, as a form of the table (the arithmetic is the core's).
  std::string form;
  const std::string_view tn = isa::name(t);
  switch (*aop) {
    case AtomOp::add:
      if (t == isa::Type::f32)
        form = "add.rn.ftz.f32";  // PTX: atom.add.f32 flushes subnormal inputs and results
      else if (t == isa::Type::f64 || t == isa::Type::f16 || t == isa::Type::f16x2 || t == isa::Type::bf16 ||
               t == isa::Type::bf16x2)
        form = fmt::format("add.rn.{}", tn);
      else if (t == isa::Type::u32 || t == isa::Type::s32 || t == isa::Type::u64 || t == isa::Type::s64)
        form = fmt::format("add.{}", tn);
      break;
    case AtomOp::min:
    case AtomOp::max:
      if (t == isa::Type::u32 || t == isa::Type::s32 || t == isa::Type::u64 || t == isa::Type::s64 ||
          t == isa::Type::f32 || t == isa::Type::f64)
        form = fmt::format("{}.{}", *aop == AtomOp::min ? "min" : "max", tn);
      break;
    case AtomOp::and_:
    case AtomOp::or_:
    case AtomOp::xor_:
      if (t == isa::Type::b32 || t == isa::Type::b64)
        form = fmt::format("{}.{}", *aop == AtomOp::and_ ? "and" : *aop == AtomOp::or_ ? "or" : "xor", tn);
      break;
    case AtomOp::inc:
    case AtomOp::dec:
      if (t == isa::Type::u32) form = "-";
      break;
    case AtomOp::exch:
    case AtomOp::cas:
      if (t == isa::Type::b32 || t == isa::Type::b64 || t == isa::Type::u32 || t == isa::Type::u64 ||
          t == isa::Type::s32 || t == isa::Type::s64 || t == isa::Type::f32 || t == isa::Type::f64)
        form = "-";
      break;
  }
  if (form.empty())
    fail(st.mnemonic, fmt::format("'{}': this operation and type are not an atomic PTX has", st.mnemonic.text));
  if (form != "-") {
    isa::Diagnostic d;
    const isa::Capabilities caps = isa::capabilities_of(isa::newest_target(), isa::kNewestPtx);
    if (!isa::check_form(form, 2, caps, 1, in.form, d))
      fail(st.mnemonic, fmt::format("'{}': {}", st.mnemonic.text, d.message));
  }
  const unsigned nsrc = *aop == AtomOp::cas ? 2 : 1;
  expect_operands(st, red ? 1 + nsrc : 2 + nsrc, red ? 1 + nsrc : 2 + nsrc);
  unsigned k = 0;
  if (!red) {
    tok_ = &st.operands[0];
    in.dst[0] = dest(in, st.operands[0].text, bits);
    in.num_dst = 1;
    k = 1;
  }
  tok_ = &st.operands[k];
  in.addr = address(in, st.operands[k].text, in.space);
  for (unsigned s = 0; s < nsrc; ++s) {
    tok_ = &st.operands[k + 1 + s];
    in.src[s] = source(in, st.operands[k + 1 + s].text, bits, isa::is_float(t) && isa::info(t).lanes == 1);
  }
  in.num_src = static_cast<uint8_t>(nsrc);
}

void Lowerer::cvta(Inst& in, const isa::Statement& st, const Words& words) {
  expect_operands(st, 2, 2);
  const bool to = words.size() > 1 && words[1] == "to";
  const size_t si = to ? 2 : 1;
  if (words.size() != si + 2) fail(st.mnemonic, fmt::format("'{}': expected cvta{{.to}}.space.u64", st.mnemonic.text));
  const auto sp = space_word(words[si]);
  if (!sp || (*sp == Space::param && to))
    fail(st.mnemonic, fmt::format("'{}': unsupported state space", st.mnemonic.text));
  if (words[si + 1] != "u64") fail(st.mnemonic, "cvta: only 64-bit addresses (.u64) are supported");
  in.space = *sp;
  in.uni = to;  // cvta.to: generic -> space
  tok_ = &st.operands[0];
  in.dst[0] = dest(in, st.operands[0].text, 64);
  tok_ = &st.operands[1];
  in.src[0] = source(in, st.operands[1].text, 64, false, true);
  in.num_dst = in.num_src = 1;
}

void Lowerer::branch(Inst& in, const isa::Statement& st, const Words& words) {
  in.uni = words.size() > 1 && words[1] == "uni";
  expect_operands(st, 1, 1);
  const auto target = symbols_.label(trim(st.operands[0].text));
  if (!target) fail(st.operands[0], fmt::format("'{}' is not a label of this function", st.operands[0].text));
  in.target = *target;
}

void Lowerer::call(Inst& in, const isa::Statement& st, const Words& words) {
  in.uni = words.size() > 1 && words[1] == "uni";
  unsigned k = 0;
  std::vector<std::string_view> rets, args;
  auto group = [&](const isa::Token& t) {
    const std::string_view s = trim(t.text);
    return split_commas(s.substr(1, s.size() - 2));
  };
  if (k < st.num_operands && st.forms[k] == isa::OperandForm::group) rets = group(st.operands[k++]);
  if (k >= st.num_operands) fail(st.mnemonic, "call: expected a function");
  const isa::Token& target = st.operands[k++];
  if (k < st.num_operands && st.forms[k] == isa::OperandForm::group) args = group(st.operands[k++]);
  tok_ = &target;
  const auto s = lookup(trim(target.text));
  if (!s) fail(target, fmt::format("Unknown symbol '{}'", target.text));
  if (s->kind == Symbol::Kind::function) {
    if (s->slot == kNoPc && trim(target.text) == "vprintf") in.builtin = Builtin::vprintf;
    if (s->slot == kNoPc && in.builtin == Builtin::none)
      fail(target, fmt::format("'{}' has no body in this module", target.text));
    in.target = s->slot;
  } else if (s->kind == Symbol::Kind::reg && s->bits == 64) {
    in.src[0] = source(in, target.text, 64, false);
    in.num_src = 1;
  } else {
    fail(target, fmt::format("'{}' is neither a function nor a 64-bit register", target.text));
  }
  in.first_arg = static_cast<uint32_t>(k_.call_params.size());
  auto param = [&](std::string_view name, const isa::Token& t) {
    const auto p = lookup(name);
    if (!p || p->kind != Symbol::Kind::frame_param)
      fail(t, fmt::format("call argument '{}' must be a .param declared in the calling function", name));
    k_.call_params.push_back({static_cast<uint32_t>(p->address), static_cast<uint32_t>(p->bytes)});
  };
  for (std::string_view a : args) param(a, st.operands[k - 1]);
  for (std::string_view r : rets) param(r, st.operands[0]);
  in.num_args = static_cast<uint32_t>(args.size());
  in.num_rets = static_cast<uint32_t>(rets.size());
  if (in.builtin == Builtin::vprintf && (args.size() != 2 || rets.size() > 1))
    fail(st.mnemonic, fmt::format("call to 'vprintf' passes {} arguments and {} return values; it takes 2 (the "
                                  "format and the argument buffer) and 1",
                                  args.size(), rets.size()));
  if (in.target != kNoPc) {
    const isa::Function& f = symbols_.definition(in.target);
    if (f.params.size() != args.size() || f.returns.size() != rets.size())
      fail(st.mnemonic, fmt::format("call to '{}' passes {} arguments and {} return values; it takes {} and {}", f.name,
                                    args.size(), rets.size(), f.params.size(), f.returns.size()));
  }
}

void Lowerer::barrier(Inst& in, const isa::Statement& st, const Words& words) {
  if (words.size() == 3 && words[1] == "warp" && words[2] == "sync") {  // bar.warp.sync membermask
    in.kind = Kind::warp_sync;
    expect_operands(st, 1, 1);
    tok_ = &st.operands[0];
    in.src[0] = source(in, st.operands[0].text, 32, false);
    in.num_src = 1;
    return;
  }
  if (words.size() > 1 && words[1] == "cluster") return cluster_barrier(in, st, words);
  std::string_view mode;
  for (size_t i = 1; i < words.size(); ++i) {
    if (words[i] == "sync" || words[i] == "arrive")
      mode = words[i];
    else if (words[i] != "aligned")
      fail(st.mnemonic, fmt::format("'{}' is not supported by the kernel executor", st.mnemonic.text));
  }
  if (mode.empty()) fail(st.mnemonic, fmt::format("'{}' is not supported by the kernel executor", st.mnemonic.text));
  in.bar_wait = mode == "sync";
  expect_operands(st, in.bar_wait ? 1 : 2, 2);
  for (unsigned k = 0; k < st.num_operands; ++k) {
    tok_ = &st.operands[k];
    in.src[k] = source(in, st.operands[k].text, 32, false);
  }
  in.num_src = static_cast<uint8_t>(st.num_operands);
}

void Lowerer::need_clusters(const isa::Statement& st) {
  if (k_.caps.sm < 90)
    fail(st.mnemonic, fmt::format("'{}' needs thread-block clusters: sm_90 or higher (the kernel is loaded for sm_{})",
                                  st.mnemonic.text, k_.caps.sm));
}

void Lowerer::cluster_barrier(Inst& in, const isa::Statement& st, const Words& words) {
  need_clusters(st);
  expect_operands(st, 0, 0);
  in.kind = Kind::cluster_bar;
  const bool arrive = words.size() > 2 && words[2] == "arrive", wait = words.size() > 2 && words[2] == "wait";
  if (!arrive && !wait)
    fail(st.mnemonic, fmt::format("'{}' is not supported by the kernel executor", st.mnemonic.text));
  for (size_t i = 3; i < words.size(); ++i)  // memory-order and .aligned qualifiers: the barrier orders all accesses
    if (words[i] != "release" && words[i] != "relaxed" && words[i] != "acquire" && words[i] != "aligned")
      fail(st.mnemonic, fmt::format("'{}' is not supported by the kernel executor", st.mnemonic.text));
  in.bar_wait = wait;
}

void Lowerer::mapa(Inst& in, const isa::Statement& st, const Words& words) {
  need_clusters(st);
  const isa::Type t = data_type(st, words);
  if (t != isa::Type::u32 && t != isa::Type::u64) fail(st.mnemonic, "'mapa' takes .u32 or .u64");
  bool cluster = false;
  for (size_t i = 1; i + 1 < words.size(); ++i) {
    if (words[i] != "shared::cluster")
      fail(st.mnemonic, fmt::format("'{}' is not supported by the kernel executor", st.mnemonic.text));
    cluster = true;
  }
  const unsigned bits = isa::info(t).bits;
  in.space = cluster ? Space::shared : Space::generic;
  in.num_dst = 1;
  in.num_src = 2;
  tok_ = &st.operands[0];
  in.dst[0] = dest(in, st.operands[0].text, bits);
  tok_ = &st.operands[1];
  in.src[0] = source(in, st.operands[1].text, bits, false, true);
  tok_ = &st.operands[2];
  in.src[1] = source(in, st.operands[2].text, 32, false);
}

void Lowerer::warp_op(Inst& in, const isa::Statement& st, const Words& words) {
  const std::string_view op = words[0];
  bool sync = false;
  auto operands = [&](unsigned dsts_bits, unsigned p_bits, std::initializer_list<std::pair<unsigned, bool>> srcs) {
    tok_ = &st.operands[0];
    const std::string_view d0 = st.operands[0].text;
    const size_t bar = d0.find('|');
    in.dst[0] = dest(in, d0.substr(0, bar), dsts_bits);
    in.num_dst = 1;
    if (bar != std::string_view::npos) {
      if (!p_bits) fail(st.operands[0], "this instruction has no predicate destination");
      in.dst[1] = dest(in, d0.substr(bar + 1), 1);
      in.num_dst = 2;
    }
    unsigned k = 0;
    for (const auto& [bits, floating] : srcs) {
      tok_ = &st.operands[k + 1];
      in.src[k] = source(in, st.operands[k + 1].text, bits, floating);
      ++k;
    }
    in.num_src = static_cast<uint8_t>(k);
  };
  std::vector<std::string_view> rest;
  for (size_t i = 1; i < words.size(); ++i) {
    if (words[i] == "sync")
      sync = true;
    else if (words[i] != "aligned")
      rest.push_back(words[i]);
  }
  if (op == "activemask") {
    expect_operands(st, 1, 1);
    operands(32, 0, {});
    return;
  }
  const unsigned mask_src = sync ? 1 : 0;
  if (op == "shfl") {
    if (rest.size() != 2 || rest[1] != "b32")
      fail(st.mnemonic, fmt::format("'{}': expected shfl.sync.MODE.b32", st.mnemonic.text));
    static constexpr std::pair<std::string_view, ShflMode> kModes[] = {
        {"up", ShflMode::up}, {"down", ShflMode::down}, {"bfly", ShflMode::bfly}, {"idx", ShflMode::idx}};
    bool found = false;
    for (const auto& [n, m] : kModes)
      if (rest[0] == n) in.shfl = m, found = true;
    if (!found) fail(st.mnemonic, fmt::format("'{}': unknown shuffle mode", st.mnemonic.text));
    expect_operands(st, 4 + mask_src, 4 + mask_src);
    if (sync)
      operands(32, 1, {{32, false}, {32, false}, {32, false}, {32, false}});
    else
      operands(32, 1, {{32, false}, {32, false}, {32, false}});
    return;
  }
  if (op == "vote") {
    if (rest.size() != 2) fail(st.mnemonic, fmt::format("'{}': expected vote.sync.MODE.TYPE", st.mnemonic.text));
    static constexpr std::pair<std::string_view, VoteMode> kModes[] = {
        {"all", VoteMode::all}, {"any", VoteMode::any}, {"uni", VoteMode::uni}, {"ballot", VoteMode::ballot}};
    bool found = false;
    for (const auto& [n, m] : kModes)
      if (rest[0] == n) in.vote = m, found = true;
    const bool ballot = in.vote == VoteMode::ballot;
    if (!found || rest[1] != (ballot ? "b32" : "pred"))
      fail(st.mnemonic,
           fmt::format("'{}': expected vote.sync.{{all,any,uni}}.pred or vote.sync.ballot.b32", st.mnemonic.text));
    expect_operands(st, 2 + mask_src, 2 + mask_src);
    if (sync)
      operands(ballot ? 32 : 1, 0, {{1, false}, {32, false}});
    else
      operands(ballot ? 32 : 1, 0, {{1, false}});
    return;
  }
  if (op == "match") {
    if (!sync || rest.size() != 2 || (rest[0] != "any" && rest[0] != "all") || (rest[1] != "b32" && rest[1] != "b64"))
      fail(st.mnemonic, fmt::format("'{}': expected match.{{any,all}}.sync.{{b32,b64}}", st.mnemonic.text));
    in.match_all = rest[0] == "all";
    expect_operands(st, 3, 3);
    operands(32, in.match_all ? 1 : 0, {{rest[1] == "b32" ? 32u : 64u, false}, {32, false}});
    return;
  }
  // redux.sync.op.type d, a, membermask
  if (!sync || rest.size() != 2) fail(st.mnemonic, fmt::format("'{}': expected redux.sync.OP.TYPE", st.mnemonic.text));
  const std::string_view rop = rest[0], rt = rest[1];
  const bool arith = rop == "add" || rop == "min" || rop == "max";
  const bool logic = rop == "and" || rop == "or" || rop == "xor";
  if (!((arith && (rt == "u32" || rt == "s32")) || (logic && rt == "b32")))
    fail(st.mnemonic, fmt::format("'{}' is not supported by the kernel executor", st.mnemonic.text));
  isa::Diagnostic d;
  if (!isa::check_form(fmt::format("{}.{}", rop, rt), 2, isa::capabilities_of(isa::newest_target(), isa::kNewestPtx), 1,
                       in.form, d))
    fail(st.mnemonic, d.message);
  expect_operands(st, 3, 3);
  operands(32, 0, {{32, false}, {32, false}});
}
void Lowerer::object_operand(Inst& in, const isa::Token& tok, bool floating) {
  tok_ = &tok;
  const std::string_view text = trim(tok.text);
  const size_t comma = text.find(',');
  if (text.size() < 2 || text.front() != '[' || text.back() != ']' || comma == std::string_view::npos)
    fail(tok, "expected [handle, {coordinates}]");
  const std::string_view handle = trim(text.substr(1, comma - 1));
  const auto s = lookup(handle);
  if (!s || s->kind != Symbol::Kind::reg || s->bits != 64)
    fail(tok, fmt::format("'{}': the kernel executor takes texture and surface objects (a 64-bit handle register); "
                          ".texref and .surfref variables are not supported",
                          handle));
  in.src[0] = source(in, handle, 64, false);
  const std::string_view coords = trim(text.substr(comma + 1, text.size() - comma - 2));
  if (coords.size() < 2 || coords.front() != '{' || coords.back() != '}') fail(tok, "expected {coordinates}");
  const auto parts = split_commas(coords.substr(1, coords.size() - 2));
  if (parts.size() != in.tex_dims)
    fail(tok, fmt::format("a {}d access takes {} coordinates", in.tex_dims, in.tex_dims));
  Operand o;
  o.kind = Operand::Kind::vector;
  o.reg = static_cast<uint32_t>(k_.elements.size());
  o.count = static_cast<uint32_t>(parts.size());
  o.bits = 32;
  for (std::string_view p : parts) k_.elements.push_back(source(in, p, 32, floating));
  in.src[1] = o;
  in.num_src = 2;
  // The parameter the handle was loaded from needs an object at launch.
  for (size_t i = k_.insts.size(); i-- > 0 && k_.insts[i].kind != Kind::func_end;) {
    const Inst& ld = k_.insts[i];
    if (ld.kind == Kind::ld && ld.space == Space::param && ld.addr.param == Address::Param::kernel &&
        ld.dst[0].kind == Operand::Kind::reg && ld.dst[0].reg == s->slot) {
      k_.object_params.emplace_back(static_cast<uint32_t>(ld.addr.offset), static_cast<uint32_t>(k_.insts.size()));
      break;
    }
  }
}

// tex.{1d,2d}.v4.{f32,s32,u32}.{f32,s32} d, [h, {x[, y]}];
// suld.b.{1d,2d}[.v2|.v4].{b8,b16,b32,b64}[.trap|.clamp|.zero] d, [h, {x[, y]}];
// sust.b.{...} [h, {x[, y]}], s; (surface x coordinates in bytes).
void Lowerer::texture(Inst& in, const isa::Statement& st, const Words& words) {
  bool coords_float = false;
  std::vector<std::string_view> types;
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string_view w = words[i];
    if (w == "1d" || w == "2d")
      in.tex_dims = static_cast<uint8_t>(w[0] - '0');
    else if (w == "v2" || w == "v4")
      in.vec = static_cast<uint8_t>(w[1] - '0');
    else if (w == "trap" || w == "clamp" || w == "zero")
      in.surface_oob = w == "trap" ? 0 : w == "clamp" ? 1 : 2;
    else if (w == "f32" || w == "s32" || w == "u32" || w == "b8" || w == "b16" || w == "b32" || w == "b64")
      types.push_back(w);
    else if (!(w == "b" && in.kind != Kind::tex))
      fail(st.mnemonic,
           fmt::format("'{}': qualifier '.{}' is not supported by the kernel executor", st.mnemonic.text, w));
  }
  const bool tex = in.kind == Kind::tex;
  if (in.tex_dims == 0 || (tex && (types.size() != 2 || in.vec != 4)) || (!tex && types.size() != 1))
    fail(st.mnemonic, fmt::format("'{}' is not supported by the kernel executor (it takes tex.{{1d,2d}}.v4.TYPE.TYPE, "
                                  "suld.b.{{1d,2d}} and sust.b.{{1d,2d}})",
                                  st.mnemonic.text));
  if (tex) {
    in.tex_int_result = types[0] != "f32";
    in.tex_int_coords = types[1] != "f32";
    coords_float = !in.tex_int_coords;
  } else {
    in.access_bytes = static_cast<uint8_t>(types[0] == "b8" ? 1 : types[0] == "b16" ? 2 : types[0] == "b32" ? 4 : 8);
  }
  in.space = Space::global;
  const bool store = in.kind == Kind::sust;
  object_operand(in, st.operands[store ? 0 : 1], coords_float);
  const unsigned bits = in.access_bytes == 8 ? 64 : 32;
  tok_ = &st.operands[store ? 1 : 0];
  std::string_view data = trim(st.operands[store ? 1 : 0].text);
  if (data.front() == '{' && data.back() == '}' && split_commas(data.substr(1, data.size() - 2)).size() == 1)
    data = trim(data.substr(1, data.size() - 2));  // nvcc's "{%r12}": one element
  const bool is_vector = data.front() == '{';
  if (store) {
    in.src[2] = is_vector ? vector(in, data, bits, false, false) : source(in, data, bits, false);
    in.num_src = 3;
  } else {
    in.dst[0] = is_vector ? vector(in, data, bits, true, tex && !in.tex_int_result) : dest(in, data, bits);
    in.num_dst = 1;
  }
  if (is_vector != (in.vec > 1)) fail(*tok_, "the data operand's shape does not match the vector qualifier");
}

}  // namespace ptxfu::kernel::loading
