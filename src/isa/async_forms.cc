#include "isa/async_forms.h"
#include "isa/sync_forms.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

namespace ptxfu::isa {
namespace {

using namespace std::string_view_literals;

using Words = std::vector<std::string_view>;

// Judges a row's own rule that its data cannot say (a word that needs an
// operand, an operand that needs a target); true when it holds.
struct Ctx;
std::string_view class_of(std::string_view w);
std::string_view trim(std::string_view s);
using Hook = bool (*)(const Ctx&, std::string& message);

enum Flags : uint8_t {
  kPtxFirst = 1,       // the PTX version's message before the target's
  kInstruction = 2,    // the target's message is "Instruction 'X' not supported on .target 'sm_NN'"
  kArchSpecific = 4,   // only the 'a' and 'f' targets
  kOperandsLate = 8,   // the operands after the gates
  kHookFirst = 16,     // the row's hook before its words are judged
  kWordsFirst = 32,    // the words before the gates
  kMissingFirst = 64,  // a missing required group before a word the row does not take
  kTwoTypes = 128,     // two types: the result's and the coordinates' (tex, tld4)
};

// One instruction form. `groups`: "class=.w1 .w2; class!=.w3" (a '!' marks
// a required group; words of a group exclude each other). `operands`:
// patterns separated by ';', each operand a set of kinds (see kinds_fit):
// q 64-bit register, w 32-bit, h 16-bit, p predicate, i integer immediate,
// a address, x [handle, {coordinates}], v vector, _ the sink.
// `messages`: "class=text; .word=text" for words of a class the row does
// not take ({0}: the word, {1}: the name); `rules`: "a>b=text": a word of
// class a needs one of class b. `spaces`: the destination and source state
// spaces that select the row among those of its prefix ("dst src").
// `subject`: how the gates name the row, where not "Feature '{name}'".
struct Row {
  std::string_view prefix, name, groups, operands;
  uint16_t sm = 0, ptx = 0;
  uint8_t flags = 0;
  std::string_view messages = {}, rules = {};
  Hook hook = nullptr;
  std::string_view spaces = {}, subject = {};
  std::string_view key = {};  // a word anywhere after the prefix that selects the row
};

struct Ctx {
  const Row& row;
  const Statement& st;
  const Words& words;  // the qualifiers after the prefix
  const Capabilities& caps;
  const RegisterTable* regs;
  bool has(std::string_view w) const { return std::find(words.begin(), words.end(), w) != words.end(); }
};

// mbarrier.arrive: .noComplete needs the count; the count without it needs
// sm_90; a barrier in another CTA's memory (.shared::cluster) takes no state.
bool arrive_rules(const Ctx& c, std::string& message) {
  const bool count = c.st.num_operands == 3;
  if (c.has(".noComplete") && !count) {
    message = fmt::format("Illegal modifier '.noComplete' for instruction '{} without count argument'", c.row.name);
    return false;
  }
  const bool tx = c.row.name.find(".expect_tx") != std::string_view::npos;
  if (count && !c.has(".noComplete") && !tx && c.caps.sm < 90) {
    message = fmt::format(
        "Feature '{} with count argument and without '.noComplete' modifier' requires .target sm_90 or higher",
        c.row.name);
    return false;
  }
  if (c.has(".shared::cluster") && c.st.operands[0].text != "_") {
    message = fmt::format("Sink '_' is expected as a destination operand for instruction '{}' with '.shared::cluster'",
                          c.row.name);
    return false;
  }
  return true;
}

// "{c, ...}" of "[handle, {c, ...}]".
std::string_view coordinates(std::string_view indexed) {
  const size_t open = indexed.find('{'), close = indexed.rfind('}');
  return indexed.substr(open, close - open + 1);
}

// Qualifiers that each add an operand at the end: the multicast mask, the
// cache policy, the copy mask.
constexpr std::string_view kExtraWords[] = {".multicast::cluster", ".L2::cache_hint", ".cp_mask"};

unsigned extra_operands(const Ctx& c) {
  unsigned n = 0;
  for (std::string_view w : kExtraWords) n += c.has(w);
  return n;
}

// The fewest operands any of the row's patterns has.
unsigned min_operands(const Row& r) {
  unsigned best = 99, n = 1;
  for (char ch : r.operands) {
    if (ch == ',') ++n;
    if (ch == ';') best = std::min(best, n), n = 1;
  }
  return r.operands.empty() ? 0 : std::min(best, n);
}

bool mismatch(const Ctx& c, std::string& message) {
  message = fmt::format("Arguments mismatch for instruction '{}'", c.row.name);
  return false;
}

// A bulk copy: one operand for each of its extra qualifiers.
bool bulk_rules(const Ctx& c, std::string& message) {
  if (c.st.num_operands != min_operands(c.row) + extra_operands(c)) return mismatch(c, message);
  return true;
}

// A bulk copy into the CTA's own shared memory came in PTX 8.6.
bool bulk_cta_rules(const Ctx& c, std::string& message) {
  if (c.caps.ptx < 86) {
    message = fmt::format(
        "Feature '{} with destination state space as .shared::cta' requires PTX ISA .version 8.6 or later", c.row.name);
    return false;
  }
  return bulk_rules(c, message);
}

unsigned dims_of(const Ctx& c) {
  for (std::string_view w : c.words)
    if (w.size() == 3 && w[0] == '.' && w[1] >= '1' && w[1] <= '5' && w[2] == 'd')
      return static_cast<unsigned>(w[1] - '0');
  return 0;
}

// A tensor copy: its dimension, the coordinates (one per dimension), and
// for .im2col from 3d on the offsets (dimension - 2 of them) as an operand.
bool tensor_rules(const Ctx& c, std::string& message) {
  // .cta_group::2 (a CTA pair's shared memory): PTX 8.6, the sm_100 family's 'a'/'f' targets
  constexpr std::string_view kPairTargets[] = {"sm_100a", "sm_100f", "sm_101a", "sm_101f",
                                               "sm_103a", "sm_103f", "sm_110a", "sm_110f"};
  if (c.has(".cta_group::2") && c.caps.ptx < 86) {
    message = fmt::format("Modifier '.cta_group::2' on '{}' requires PTX ISA .version 8.6 or later", c.row.name);
    return false;
  }
  if (c.has(".cta_group::2") &&
      std::find(std::begin(kPairTargets), std::end(kPairTargets), c.caps.target_name) == std::end(kPairTargets)) {
    message = fmt::format("Feature '.cta_group::2' not supported on .target '{}'", c.caps.target_name);
    return false;
  }
  const unsigned dims = dims_of(c);
  if (dims == 0) {
    message = fmt::format(".dim modifier required for instruction '{}'", c.row.name);
    return false;
  }
  const bool im2col = c.has(".im2col");
  const std::string_view mode = im2col ? ".im2col" : c.has(".im2col_no_offs") ? ".im2col_no_offs" : "";
  if (!mode.empty() && dims < 3) {
    message = fmt::format("Modifier '.{}d' cannot be combined with modifier '{}'", dims, mode);
    return false;
  }
  const unsigned offsets = im2col && dims >= 3 ? 1 : 0;
  if (c.st.num_operands != min_operands(c.row) + extra_operands(c) + offsets) return mismatch(c, message);
  for (unsigned k = 0; k < c.st.num_operands; ++k) {
    if (c.st.forms[k] != OperandForm::indexed) continue;
    const std::string_view t = c.st.operands[k].text;
    if (vector_elements(coordinates(t), nullptr, 0) != dims) {
      message = fmt::format("Argument {} of instruction '{}': Argument vector size mismatch", k + 1, c.row.name);
      return false;
    }
  }
  if (offsets &&
      (c.st.forms[c.st.num_operands - 1 - extra_operands(c)] != OperandForm::vector ||
       vector_elements(c.st.operands[c.st.num_operands - 1 - extra_operands(c)].text, nullptr, 0) != dims - 2))
    return mismatch(c, message);
  return true;
}

bool tensor_cta_rules(const Ctx& c, std::string& message) {
  if (c.caps.ptx < 86) {
    message = fmt::format(
        "Feature '{} with destination state space as .shared::cta' requires PTX ISA .version 8.6 or later", c.row.name);
    return false;
  }
  return tensor_rules(c, message);
}

// The types each reduction takes, into global memory and into another
// CTA's shared memory (.shared::cluster).
struct Reduction {
  std::string_view op, global, cluster;
};
constexpr Reduction kReductions[] = {
    {".add", ".u32 .s32 .u64 .f32 .f64 .f16 .bf16", ".u32 .s32 .u64"},
    {".min", ".u32 .s32 .u64 .s64 .f16 .bf16", ".u32 .s32"},
    {".max", ".u32 .s32 .u64 .s64 .f16 .bf16", ".u32 .s32"},
    {".inc", ".u32", ".u32"},
    {".dec", ".u32", ".u32"},
    {".and", ".b32 .b64", ".b32"},
    {".or", ".b32 .b64", ".b32"},
    {".xor", ".b32 .b64", ".b32"},
};

bool listed(std::string_view list, std::string_view w) {
  for (size_t at = list.find(w); at != std::string_view::npos; at = list.find(w, at + 1))
    if ((at + w.size() == list.size() || list[at + w.size()] == ' ') && (at == 0 || list[at - 1] == ' ')) return true;
  return false;
}

// cp.reduce.async.bulk: the type the operation takes; .noftz with a 16-bit
// float add, never with min or max.
bool reduce_rules(const Ctx& c, std::string& message) {
  std::string_view type;
  const Reduction* red = nullptr;
  for (std::string_view w : c.words) {
    if (class_of(w) == "type") type = w;
    for (const Reduction& r : kReductions)
      if (r.op == w) red = &r;
  }
  if (red == nullptr) {
    message = fmt::format("Reduction operation is required for instruction '{}'", c.row.name);
    return false;
  }
  if (!listed(red->global, type)) {
    message = fmt::format("Incorrect type '{}' for operation '{}' in instruction '{}'", type, red->op, c.row.name);
    return false;
  }
  const bool half = type == ".f16" || type == ".bf16";
  if (c.has(".noftz") && red->op != ".add") {
    message = fmt::format("Illegal modifier '.noftz' for instruction '{}' with '{}'", c.row.name, red->op);
    return false;
  }
  if (half && red->op == ".add" && !c.has(".noftz")) {
    message = fmt::format("Modifier '.noftz' required for instruction '{}' with type '{}' and operation '.add'",
                          c.row.name, type);
    return false;
  }
  if (c.row.spaces == ".shared::cluster .shared::cta" && !listed(red->cluster, type)) {
    message = type == ".s64"
                  ? "Illegal type for cp.reduce.async.bulk with .shared::cluster destination state space"
                  : fmt::format("Illegal reduction operation for instruction '{}.shared::cluster.shared::cta{}'",
                                c.row.name, type);
    return false;
  }
  return c.st.num_operands == min_operands(c.row) + extra_operands(c) || mismatch(c, message);
}

// cp.reduce.async.bulk.tensor: the tensor's rules, and an operation.
bool reduce_tensor_rules(const Ctx& c, std::string& message) {
  bool op = false;
  for (const Reduction& r : kReductions) op |= c.has(r.op);
  if (!op) {
    message = fmt::format("Reduction operation is required for instruction '{}'", c.row.name);
    return false;
  }
  return tensor_rules(c, message);
}

// createpolicy: the second priority (evict_unchanged or evict_first) after the first.
bool policy_rules(const Ctx& c, std::string& message) {
  int n = 0;
  for (std::string_view w : c.words) {
    if (w.rfind(".L2::evict_", 0) != 0 || n++ == 0) continue;
    if (w != ".L2::evict_unchanged" && w != ".L2::evict_first") {
      message = fmt::format("Unsupported modifier '.{}' as secondary_priority for instruction '{}'",
                            w.substr(w.rfind("::") + 2), c.row.name);
      return false;
    }
  }
  if (c.st.num_operands == 2 && c.st.forms[1] == OperandForm::plain &&
      classify_literal(c.st.operands[1].text) == LiteralKind::floating) {
    uint64_t bits = 0;
    literal_bits(c.st.operands[1].text, 32, true, bits);
    float f = 0;
    const auto b32 = static_cast<uint32_t>(bits);
    static_assert(sizeof f == sizeof b32);
    std::memcpy(&f, &b32, sizeof f);
    if (!(f > 0.0F && f <= 1.0F)) {
      message = fmt::format(
          "Argument 2 of instruction '{}': value '{:.6f}' out of range, expected to be in range (0.000000 .. 1.000000]",
          c.row.name, f);
      return false;
    }
  }
  return true;
}

// applypriority and discard work on 128-byte lines.
bool line_rules(const Ctx& c, std::string& message) {
  if (c.st.num_operands != 2) return mismatch(c, message);
  const std::string_view size = c.st.operands[1].text;
  uint64_t v = 0;
  if (literal_bits(size, 64, false, v) && v == 128) return true;
  message = fmt::format("Argument 2 of instruction '{}': unexpected value '{}', expected to be 128", c.row.name, size);
  return false;
}

// prefetch: an eviction priority only in global memory (or generic).
bool prefetch_rules(const Ctx& c, std::string& message) {
  if (c.has(".local") && (c.has(".L2::evict_last") || c.has(".L2::evict_normal"))) {
    message = "State space incorrect for feature 'cache eviction priority'";
    return false;
  }
  return true;
}

std::string_view first_of(const Ctx& c, std::initializer_list<std::string_view> among) {
  for (std::string_view w : c.words)
    if (std::find(among.begin(), among.end(), w) != among.end()) return w;
  return {};
}

// The last part of a '::' qualifier with its dot: ".evict_last" of ".L1::evict_last".
std::string last_part(std::string_view w) { return "." + std::string(w.substr(w.rfind("::") + 2)); }

// ld and st: how the memory order, scope, state space, cache operator and
// eviction priorities combine.
bool memory_order_rules(const Ctx& c, std::string& message) {
  const std::string_view name = c.row.name;
  const std::string_view sem = first_of(c, {".weak"sv, ".relaxed"sv, ".acquire"sv, ".release"sv, ".volatile"sv});
  const std::string_view scope = first_of(c, {".cta"sv, ".cluster"sv, ".gpu"sv, ".sys"sv});
  const std::string_view space = first_of(
      c, {".global"sv, ".shared"sv, ".local"sv, ".const"sv, ".param"sv, ".shared::cta"sv, ".shared::cluster"sv});
  const std::string_view vec = first_of(c, {".v2"sv, ".v4"sv, ".v8"sv});
  if (c.has(".mmio")) {
    if (space == ".shared")
      message = "Modifier '.mmio' cannot be applied to '.shared' space";
    else if (sem != ".relaxed")
      message = fmt::format("Modifier '.mmio' requires modifier '.relaxed' for instruction '{}'", name);
    else if (scope.empty())
      message = fmt::format("Modifier '.mmio' requires scope with '{}' instruction", name);
    else if (scope != ".sys")
      message = fmt::format("Modifier '.mmio' cannot be combined with modifier '{}'", scope);
    else if (!vec.empty())
      message = fmt::format("Modifier '.mmio' cannot be combined with modifier '{}'", vec);
    return message.empty();
  }
  const bool ordered = sem == ".relaxed" || sem == ".acquire" || sem == ".release";
  if (!scope.empty() && sem.empty())
    message = fmt::format("Modifier '{}' requires memory order with '{}' instruction", scope, name);
  else if (ordered && scope.empty())
    message = fmt::format("Modifier '{}' requires scope with '{}' instruction", sem, name);
  else if (!ordered && !sem.empty() && !scope.empty())
    message = fmt::format("Modifier '{}' cannot be combined with modifier '{}'", sem, scope);
  else if (sem != ".weak" && !sem.empty() && (space == ".local" || space == ".param" || space == ".const"))
    message = fmt::format("Modifier '{}' cannot be applied to '{}' space", sem, space);
  return message.empty();
}

bool cache_rules(const Ctx& c, std::string& message) {
  if (c.words.size() <= 2 && !c.has(".nc")) {  // a space and a type, or less: nothing to combine
    bool cache = false;
    for (std::string_view w : c.words) cache |= class_of(w) == "cache";
    if (!cache) return true;
  }
  const std::string_view name = c.row.name;
  const std::string_view sem = first_of(c, {".relaxed"sv, ".acquire"sv, ".release"sv, ".volatile"sv});
  const std::string_view cache = first_of(c, {".ca"sv, ".cg"sv, ".cs"sv, ".lu"sv, ".cv"sv, ".wb"sv, ".wt"sv});
  const std::string_view space = first_of(
      c, {".global"sv, ".shared"sv, ".local"sv, ".const"sv, ".param"sv, ".shared::cta"sv, ".shared::cluster"sv});
  const std::string_view l1 = first_of(
      c, {".L1::evict_normal", ".L1::evict_unchanged", ".L1::evict_first", ".L1::evict_last", ".L1::no_allocate"});
  const bool nc = c.has(".nc");
  if (!sem.empty() && (!cache.empty() || nc))
    message = fmt::format("Modifier '{}' cannot be combined with modifier '{}'", sem, nc ? ".nc" : cache);
  else if (nc && space != ".global")
    message = "Modifier '.nc' requires .global space";
  else if (nc && !cache.empty() && cache != ".ca" && cache != ".cg" && cache != ".cs")
    message = fmt::format("Illegal cache operation for instruction '{}.nc'", name);
  else if (!l1.empty() && space == ".shared")
    message =
        fmt::format("Modifier '{}' cannot be applied to '.shared' space for instruction '{}'", last_part(l1), name);
  else if (!l1.empty() && !cache.empty())
    message = fmt::format("Modifier '{}' cannot be combined with modifier '{}'", last_part(l1), cache);
  return message.empty();
}

// ld/st with none of the order, scope, eviction, prefetch or policy words
// (what nvcc writes on every other line): only .nc, .b128 and the operand
// count can be wrong.
bool plain_ld_st_rules(const Ctx& c, std::string& message) {
  if (!cache_rules(c, message)) return false;
  const unsigned data = c.row.name == "ld" ? 0 : 1;  // the register operand
  const auto reg = c.regs && c.has(".b128") ? c.regs->lookup(c.st.operands[data].text) : std::nullopt;
  if (reg && c.st.forms[data] == OperandForm::plain && reg->bits != 128) return mismatch(c, message);
  if (c.st.num_operands == 3) {
    message = fmt::format(".L2::cache_hint modifier required for instruction '{}' with 3 arguments", c.row.name);
    return false;
  }
  return true;
}

bool ld_st_rules(const Ctx& c, std::string& message) {
  bool plain = true;
  for (std::string_view w : c.words) {
    const std::string_view cls = class_of(w);
    plain &= w.find(':') == std::string_view::npos && cls != "sem" && cls != "scope" && w != ".mmio";
  }
  if (plain) return plain_ld_st_rules(c, message);
  const std::string_view name = c.row.name;
  const std::string_view l2 = first_of(c, {".L2::evict_first"sv, ".L2::evict_last"sv, ".L2::evict_normal"sv});
  const std::string_view vec = first_of(c, {".v2"sv, ".v4"sv, ".v8"sv});
  const std::string_view type = first_of(c, {".b64"sv, ".u64"sv, ".s64"sv, ".f64"sv});
  if (!l2.empty() && !(vec == ".v8" && type.empty()) && !(vec == ".v4" && !type.empty())) {
    message = fmt::format("Instruction '{}' requires '.v8.b32/.v4.b64' type with '{}' modifier.", name, l2);
    return false;
  }
  const unsigned data = c.row.name == "ld" ? 0 : 1;  // the register operand
  const auto reg = c.regs ? c.regs->lookup(c.st.operands[data].text) : std::nullopt;
  if (c.has(".b128") && c.st.num_operands > data && c.st.forms[data] == OperandForm::plain && reg && reg->bits != 128)
    return mismatch(c, message);
  int l1 = 0;
  for (std::string_view w : c.words) l1 += w.rfind(".L1::", 0) == 0;
  if (l1 > 1) {
    message = fmt::format("Duplicate '.L1::eviction_priority' modifier specified for instruction '{}'", name);
    return false;
  }
  if (!memory_order_rules(c, message) || !cache_rules(c, message)) return false;
  if (first_of(c, {".L2::64B"sv, ".L2::128B"sv, ".L2::256B"sv}).size() && c.has(".shared")) {
    message = "State space incorrect for feature 'cache prefetching'";
    return false;
  }
  if (c.has(".L2::cache_hint") && c.st.num_operands != 3) return mismatch(c, message);
  if (c.st.num_operands == 3 && !c.has(".L2::cache_hint")) {  // the policy follows both operands
    message = fmt::format(".L2::cache_hint modifier required for instruction '{}' with 3 arguments", name);
    return false;
  }
  return true;
}

// multimem: the orders each takes (with a scope, but .weak), the operation
// and the types it takes (ld_reduce, red); vectors of floats only.
struct MultimemReduction {
  std::string_view op, ld_reduce, red;
};
constexpr MultimemReduction kMultimemReductions[] = {
    {".add", ".u32 .s32 .u64 .f32 .f16x2 .bf16x2 .f64", ".u32 .s32 .u64 .f32 .f16x2 .bf16x2 .f64"},
    {".min", ".u32 .s32 .u64 .f16x2 .bf16x2", ".u32 .s32 .u64"},
    {".max", ".u32 .s32 .u64 .f16x2 .bf16x2", ".u32 .s32 .u64"},
    {".and", ".b32 .b64", ".b32 .b64"},
    {".or", ".b32 .b64", ".b32 .b64"},
    {".xor", ".b32 .b64", ".b32 .b64"},
    {".inc", "", ""},
    {".dec", "", ""},
};

bool multimem_rules(const Ctx& c, std::string& message) {
  const std::string_view name = c.row.name;
  const std::string_view sem =
      first_of(c, {".weak"sv, ".relaxed"sv, ".acquire"sv, ".release"sv, ".acq_rel"sv, ".sc"sv});
  const std::string_view scope = first_of(c, {".cta"sv, ".cluster"sv, ".gpu"sv, ".sys"sv});
  const std::string_view allowed = name == "multimem.ld_reduce" ? ".weak .relaxed .acquire"
                                   : name == "multimem.st"      ? ".weak .relaxed .release"
                                                                : ".relaxed .release";
  if (!scope.empty() && sem.empty())
    message = fmt::format("Modifier '{}' requires order with '{}' instruction", scope, name);
  else if (!sem.empty() && sem != ".weak" && scope.empty())
    message = fmt::format("Modifier '{}' requires scope with '{}' instruction", sem, name);
  else if (!sem.empty() && !listed(allowed, sem))
    message = fmt::format("Illegal modifier '{}' for instruction '{}'", sem, name);
  else if (sem == ".weak" && !scope.empty())
    message = fmt::format("Modifier '.weak' cannot be combined with modifier '{}'", scope);
  if (!message.empty()) return false;
  std::string_view type;
  for (std::string_view w : c.words)
    if (class_of(w) == "type") type = w;
  const bool floating = type == ".f32" || type == ".f16x2" || type == ".bf16x2";
  if (first_of(c, {".v2"sv, ".v4"sv, ".v8"sv}).size() && !floating) {
    message = fmt::format("Vector qualifier is not allowed for instruction '{}'", name);
    return false;
  }
  if (name == "multimem.st") return true;
  const MultimemReduction* red = nullptr;
  for (const MultimemReduction& r : kMultimemReductions)
    if (c.has(r.op)) red = &r;
  if (red == nullptr) {
    message = fmt::format("Reduction operation is required for instruction '{}'", name);
    return false;
  }
  const std::string_view types = name == "multimem.ld_reduce" ? red->ld_reduce : red->red;
  if (red->ld_reduce.empty()) {
    message = fmt::format("Illegal reduction operation for instruction '{}'", name);
    return false;
  }
  if (!listed(types, type)) {
    message = fmt::format("Incorrect type '{}' for operation '{}' in instruction '{}'", type, red->op, name);
    return false;
  }
  return true;
}

// st.async and red.async: the scope picks the memory (.cluster: another
// CTA's shared memory, with an mbarrier; .sys/.gpu: global memory, from
// sm_100, without one); .release (sm_100) only into global memory.
bool async_scope_rules(const Ctx& c, std::string_view sem, std::string& message) {
  const std::string_view name = c.row.name;
  const std::string_view scope = first_of(c, {".cta"sv, ".cluster"sv, ".gpu"sv, ".sys"sv});
  const std::string_view space = first_of(c, {".global"sv, ".shared::cta"sv, ".shared::cluster"sv});
  const bool cm = c.has(".mbarrier::complete_tx::bytes");
  const std::string illegal_cm =
      fmt::format("Illegal modifier '.mbarrier::complete_tx::bytes' for instruction '{}' with '{{}}'", name);
  const bool wide = scope == ".sys" || scope == ".gpu";
  if (sem == ".release") {
    if (scope == ".cta" || scope == ".cluster")
      message = fmt::format("Illegal modifier '{}' for instruction '{}' with '.release'", scope, name);
    else if (space == ".shared::cta" || space == ".shared::cluster")
      message = fmt::format("Illegal modifier '{}' for instruction '{}' with '.release'", space, name);
    else if (cm)
      message = fmt::format(fmt::runtime(illegal_cm), wide ? scope : ".global");
    else if (c.caps.sm < 100)
      message = "Feature 'st.async/red.async with .release modifier' requires .target sm_100 or higher";
    else if (scope.empty())
      message = fmt::format("Modifier '.release' requires scope with '{}' instruction", name);
    return message.empty();
  }
  if (wide && (space == ".shared::cta" || space == ".shared::cluster"))
    message = fmt::format("Modifier '{}' requires '.global' space for instruction '{}'", scope, name);
  else if (wide && cm)
    message = fmt::format(fmt::runtime(illegal_cm), scope);
  else if (scope == ".cluster" && !space.empty() && space != ".shared::cluster")
    message = fmt::format("Modifier '.cluster' requires '.shared::cluster' space for instruction '{}'", name);
  else if (scope == ".cluster" && !cm)
    message = fmt::format("Modifier '.cluster' requires modifier '.completion_mechanism' for instruction '{}'", name);
  else if (space == ".global" && cm)
    message = fmt::format(fmt::runtime(illegal_cm), ".global");
  else if (space == ".shared::cluster" && !cm)
    message =
        fmt::format("Modifier '.shared::cluster' requires modifier '.completion_mechanism' for instruction '{}'", name);
  else if (space == ".global" && c.caps.sm < 100)
    message = "Feature 'st.async/red.async with .global state space' requires .target sm_100 or higher";
  else if (sem == ".weak" && !scope.empty())
    message = fmt::format("Modifier '.weak' cannot be combined with modifier '{}'", scope);
  return message.empty();
}

bool st_async_rules(const Ctx& c, std::string& message) {
  const std::string_view sem = first_of(c, {".weak"sv, ".relaxed"sv, ".release"sv});
  if (!async_scope_rules(c, sem, message)) return false;
  if (sem == ".relaxed") {
    message = "Illegal modifier '.relaxed' for instruction 'st.async'";
    return false;
  }
  if (c.has(".v4") && first_of(c, {".b64"sv, ".u64"sv, ".s64"sv, ".f64"sv}).size()) {
    message = "Vector type too large, exceeds 128 bit limit";
    return false;
  }
  return true;
}

// red.async: an order (.relaxed, or .release), the operation and its types.
bool red_async_rules(const Ctx& c, std::string& message) {
  const std::string_view name = c.row.name;
  const std::string_view sem = first_of(c, {".relaxed"sv, ".release"sv});
  const std::string_view scope = first_of(c, {".cta"sv, ".cluster"sv, ".gpu"sv, ".sys"sv});
  if (!async_scope_rules(c, sem, message)) return false;
  if (sem.empty())
    message = fmt::format("order modifier required for instruction '{}'", name);
  else if (sem == ".relaxed" && scope.empty())
    message = fmt::format("Modifier '.relaxed' requires scope with '{}' instruction", name);
  else if (scope == ".cta")
    message = fmt::format("Illegal modifier '.cta' for instruction '{}'", name);
  if (!message.empty()) return false;
  struct Op {
    std::string_view op, types;
  };
  static constexpr Op kOps[] = {
      {".inc", ".u32"}, {".dec", ".u32"}, {".min", ".u32 .s32"}, {".max", ".u32 .s32"}, {".add", ".u32 .s32 .u64 .s64"},
      {".and", ".b32"}, {".or", ".b32"},  {".xor", ".b32"},      {".exch", ""}};
  const Op* op = nullptr;
  for (const Op& o : kOps)
    if (c.has(o.op)) op = &o;
  std::string_view type;
  for (std::string_view w : c.words)
    if (class_of(w) == "type") type = w;
  const auto value = c.regs ? c.regs->lookup(c.st.operands[1].text) : std::nullopt;
  const unsigned bits = first_of(c, {".u64"sv, ".s64"sv, ".b64"sv}).empty() ? 32 : 64;
  if (value && value->bits != bits) return mismatch(c, message);
  if (op == nullptr)
    message = fmt::format("Reduction operation is required for instruction '{}'", name);
  else if (op->types.empty())
    message = fmt::format("Illegal reduction operation for instruction '{}'", name);
  else if (!listed(op->types, type))
    message = fmt::format("Incorrect type '{}' for operation '{}' in instruction '{}'", type, op->op, name);
  return message.empty();
}

// tensormap.replace: each field, the type its value has (a register of that
// width, or for the enumerations an immediate), whether an ordinal (the
// dimension, 0..4) comes first, and the largest immediate.
struct TensormapField {
  std::string_view field;
  unsigned bits;
  bool ordinal, immediate;
};
constexpr TensormapField kTensormapFields[] = {
    {".global_address", 64, false, false}, {".rank", 32, false, false},
    {".box_dim", 32, true, false},         {".global_dim", 32, true, false},
    {".global_stride", 64, true, false},   {".element_stride", 32, true, false},
    {".elemtype", 32, false, true},        {".interleave_layout", 32, false, true},
    {".swizzle_mode", 32, false, true},    {".swizzle_atomicity", 32, false, true},
    {".fill_mode", 32, false, true},
};

bool tensormap_rules(const Ctx& c, std::string& message) {
  constexpr std::string_view kName = "tensormap.replace";
  const TensormapField* f = nullptr;
  for (const TensormapField& t : kTensormapFields)
    if (c.has(t.field)) f = &t;
  if (f == nullptr) return true;  // the missing field is the words' to name
  const unsigned type_bits = c.has(".b64") ? 64 : 32;
  if (f->immediate && type_bits != 32) {
    message = fmt::format("Illegal modifier '{}' for instruction '{}' with type '.b64'", f->field, kName);
    return false;
  }
  const unsigned want = 2 + (f->ordinal ? 1 : 0);
  if (c.st.num_operands != want || type_bits != f->bits) return mismatch(c, message);
  const Token& value = c.st.operands[want - 1];
  const auto reg = c.regs ? c.regs->lookup(value.text) : std::nullopt;
  uint64_t v = 0;
  if (f->ordinal) {
    const std::string_view ord = c.st.operands[1].text;
    if (!literal_bits(ord, 64, false, v)) return mismatch(c, message);
    if (v > 4) {
      message = fmt::format(
          "Argument 1 of instruction '{}': value '{}' expected to be in range [0..4] when {} "
          "modifier is used.",
          kName, ord, f->field);
      return false;
    }
  }
  if (f->immediate) {
    if (!literal_bits(value.text, 64, false, v)) {
      message = "Integer constant expression expected";
      return false;
    }
    const unsigned top = c.caps.sm >= 100 ? 15 : 12;
    if (f->field == ".elemtype" && v > top) {
      message = fmt::format(
          "Argument 1 of instruction '{}': value '{}' expected to be in range [0..{}] when .elemtype "
          "modifier is used.",
          kName, value.text, top);
      return false;
    }
    return true;
  }
  if (!reg || reg->bits != f->bits) return mismatch(c, message);
  return true;
}

// Textures and surfaces: the handle (a .texref/.surfref name, or a 64-bit
// register), how many coordinates each geometry reads, and their types.
struct Geometry {
  std::string_view word;
  unsigned coordinates;
  bool array, cube;
};
constexpr Geometry kGeometries[] = {
    {".1d", 1, false, false},  {".2d", 2, false, false},   {".3d", 4, false, false},
    {".a1d", 2, true, false},  {".a2d", 4, true, false},   {".cube", 4, false, true},
    {".acube", 4, true, true}, {".2dms", 4, false, false}, {".a2dms", 4, true, false},
};

const Geometry* geometry_of(const Ctx& c) {
  for (const Geometry& g : kGeometries)
    if (c.has(g.word)) return &g;
  return nullptr;
}

// The first and second type words: the result's and the coordinates'.
std::pair<std::string_view, std::string_view> types_of(const Ctx& c) {
  std::pair<std::string_view, std::string_view> t;
  for (std::string_view w : c.words)
    if (class_of(w) == "type") (t.first.empty() ? t.first : t.second) = w;
  return t;
}

// A register fits a type: no float register for an integer, no integer register for a float.
bool kind_fits(const Ctx& c, std::string_view reg, std::string_view type) {
  const auto r = c.regs ? c.regs->lookup(reg) : std::nullopt;
  if (!r) return true;
  return r->kind == RegKind::bits || (r->kind == RegKind::floating) == (type == ".f32");
}

bool handle_fits(const Ctx& c, std::string_view operand) {
  const std::string_view inner = operand.substr(1, operand.find_first_of(",]") - 1);
  const auto r = c.regs ? c.regs->lookup(trim(inner)) : std::nullopt;
  return !r || r->bits == 64;
}

// tex and tld4: .v4 results, coordinates for the geometry, the array index
// an integer, cubes read floats, multisampled textures integers.
bool texture_rules(const Ctx& c, std::string& message) {
  if (c.st.num_operands < 2) return mismatch(c, message);
  const std::string_view op = c.row.name;
  const Geometry* g = geometry_of(c);
  const auto [dtype, ctype] = types_of(c);
  if (g && g->array && ctype == ".f32") {
    message = fmt::format("Array index in the '{}' instruction has unexpected type. Expecting type .u32", op);
    return false;
  }
  if (op == "tld4" && ctype != ".f32") {
    message = "Unexpected instruction types specified for 'tld4'";
    return false;
  }
  if (op == "tld4" && first_of(c, {".r"sv, ".g"sv, ".b"sv, ".a"sv}).empty()) {
    message = "Component modifier required for instruction 'tld4'";
    return false;
  }
  std::string_view texels = c.st.operands[0].text;
  if (c.st.forms[0] == OperandForm::vector_pair) {
    if (c.caps.ptx < 71) {
      message = "Feature 'Texture instruction with optional predicate result' requires PTX ISA .version 7.1 or later";
      return false;
    }
    const std::string_view pred = trim(texels.substr(texels.rfind('|') + 1));
    const auto reg = c.regs ? c.regs->lookup(pred) : std::nullopt;
    if (reg && reg->kind != RegKind::predicate) {
      message = "Predicate output expected for instruction 'tex'";
      return false;
    }
    texels = texels.substr(0, texels.rfind('}') + 1);
  }
  std::string_view e[8];
  const unsigned n = std::min(vector_elements(texels, e, 8), 8u);
  for (unsigned k = 0; k < n; ++k)
    if (!kind_fits(c, e[k], dtype)) return mismatch(c, message);
  const std::string_view at = c.st.operands[1].text;
  if (dtype == ".f16" || c.st.forms[1] != OperandForm::indexed || !handle_fits(c, at)) return mismatch(c, message);
  if (at.find(',') < at.find('{') - 2) return mismatch(c, message);  // [tex, sampler, {..}]: not in unified mode
  if (!c.has(".v4")) {
    message = fmt::format("Instruction '{}{}' requires .v4 type", op, dtype);
    return false;
  }
  if (g && g->cube && ctype != ".f32") {
    message = "Floating-point coordinates required";
    return false;
  }
  if (g && (g->word == ".2dms" || g->word == ".a2dms") && ctype != ".s32") {
    message = "Integer coordinates require .s32 instruction type";
    return false;
  }
  if (g && vector_elements(coordinates(at), nullptr, 0) < g->coordinates) {
    message = fmt::format("Operand vector size doesn't match geometry for instruction '{}'", op);
    return false;
  }
  return true;
}

// sured: the type each operation takes (.inc and .xor: any).
bool surface_reduction(const Ctx& c, std::string& message) {
  struct Op {
    std::string_view op, types;
  };
  static constexpr Op kOps[] = {{".add", ".u32 .s32 .u64"},
                                {".min", ".u32 .s32 .u64 .s64"},
                                {".max", ".u32 .s32 .u64 .s64"},
                                {".and", ".b32"},
                                {".or", ".b32"},
                                {".inc", ""},
                                {".xor", ""}};
  const std::string_view type = types_of(c).first;
  for (const Op& o : kOps) {
    if (!c.has(o.op) || c.row.name == "sured.p") continue;
    if (o.types.empty()) return true;
    if (type == ".b64" || type == ".f32")
      message = fmt::format("Unexpected instruction types specified for '{}'", c.row.name);
    else if (!listed(o.types, type))
      message = fmt::format("Incorrect type '{}' for operation '{}' in instruction '{}'", type, o.op, c.row.name);
    else if ((o.op == ".min" || o.op == ".max") && (type == ".u64" || type == ".s64") && c.caps.ptx < 81)
      message = "Feature '64-bit min/max operation on sured.b' requires PTX ISA .version 8.1 or later";
    return message.empty();
  }
  return true;
}

// suld, sust, sured: a clamp mode (sured may leave it out), integer
// coordinates for the geometry, at most 128 bits.
bool surface_rules(const Ctx& c, std::string& message) {
  if (c.st.num_operands < 2) return mismatch(c, message);
  const bool red = c.row.name.rfind("sured", 0) == 0;
  const unsigned at = c.row.name.rfind("suld", 0) == 0 ? 1 : 0;
  if (!red && first_of(c, {".trap"sv, ".clamp"sv, ".zero"sv}).empty()) {
    message = fmt::format("Clamp modifier required for instruction '{}'", c.row.name);
    return false;
  }
  if (c.st.forms[at] != OperandForm::indexed || !handle_fits(c, c.st.operands[at].text)) return mismatch(c, message);
  if (c.has(".v4") && c.has(".b64")) {
    message = "Vector type too large, exceeds 128 bit limit";
    return false;
  }
  std::string_view e[8];
  const unsigned n = std::min(vector_elements(coordinates(c.st.operands[at].text), e, 8), 8u);
  for (unsigned k = 0; k < n; ++k) {
    const auto r = c.regs ? c.regs->lookup(e[k]) : std::nullopt;
    if (r && r->kind == RegKind::floating) return mismatch(c, message);
  }
  const Geometry* g = geometry_of(c);
  if (g && n < g->coordinates) return mismatch(c, message);
  return !red || surface_reduction(c, message);
}

// txq and suq: the handle, a name or a 64-bit register.
bool query_rules(const Ctx& c, std::string& message) {
  if (c.st.num_operands < 2 || c.st.forms[1] != OperandForm::address) return mismatch(c, message);
  const std::string_view h = c.st.operands[1].text;
  const auto r = c.regs ? c.regs->lookup(trim(h.substr(1, h.size() - 2))) : std::nullopt;
  return !(r && r->bits != 64) || mismatch(c, message);
}

constexpr std::string_view kMbRules =
    "scope>sem=Modifier '{0}' requires order with '{1}' instruction; "
    "sem>scope=Modifier '{0}' requires scope with '{1}' instruction";
constexpr std::string_view kBulkLoad =
    "space=.shared::cluster .shared::cta .global; cm!=.mbarrier::complete_tx::bytes; mc=.multicast::cluster; "
    "hint=.L2::cache_hint";
constexpr std::string_view kBulkLoadCta =
    "space=.shared::cluster .shared::cta .global; cm!=.mbarrier::complete_tx::bytes; hint=.L2::cache_hint";
constexpr std::string_view kBulkLoadOps = "a,a,wi,a;a,a,wi,a,hq;a,a,wi,a,h,q";
constexpr std::string_view kTensorLoad =
    "space=.shared::cluster .shared::cta .global; dim=.1d .2d .3d .4d .5d; mode=.tile .im2col; "
    "cm!=.mbarrier::complete_tx::bytes; mc=.multicast::cluster; hint=.L2::cache_hint; cg=.cta_group::1 .cta_group::2";
constexpr std::string_view kTensorLoadOps = "a,x,a;a,x,a,vhq;a,x,a,vhq,hq;a,x,a,v,h,q";
constexpr std::string_view kPolicy =
    "prio!=.L2::evict_last .L2::evict_normal .L2::evict_first .L2::evict_unchanged; "
    "second=.L2::evict_unchanged .L2::evict_first; type!=.b64";
constexpr std::string_view kPolicyRange =
    "space=.global; prio!=.L2::evict_last .L2::evict_normal .L2::evict_first .L2::evict_unchanged; "
    "second=.L2::evict_unchanged .L2::evict_first; type!=.b64";
constexpr std::string_view kPolicyMessages =
    "l1evict=Modifier 'cache eviction priority' requires cache level L2 with '{1}' instruction";
constexpr std::string_view kPrefetchMessages =
    "space=State space incorrect for instruction '{1}'; .shared::cta=Illegal modifier '::cta' for instruction '{1}'; "
    ".L2::evict_first=Illegal modifier '.evict_first' for instruction '{1}'; "
    "!level=Cache level modifier required for instruction '{1}'";
constexpr std::string_view kLdGroups =
    "sem=.weak .relaxed .acquire .volatile; space=.global .shared .local .const .param .shared::cta .shared::cluster; "
    "nc=.nc; cache=.ca .cg .cs .lu .cv; pf=.L2::64B .L2::128B .L2::256B; l1=.L1::evict_normal .L1::evict_unchanged "
    ".L1::evict_first .L1::evict_last .L1::no_allocate; l2=.L2::evict_first .L2::evict_last .L2::evict_normal; "
    "hint=.L2::cache_hint; vec=.v2 .v4 .v8; mmio=.mmio; scope=.cta .cluster .gpu .sys; type!=.b8 .b16 .b32 .b64 "
    ".b128 .u8 .u16 .u32 .u64 .s8 .s16 .s32 .s64 .f32 .f64";
constexpr std::string_view kStGroups =
    "sem=.weak .relaxed .release .volatile; space=.global .shared .local .param .shared::cta .shared::cluster; "
    "cache=.wb .cg .cs .wt; l1=.L1::evict_normal .L1::evict_unchanged .L1::evict_first .L1::evict_last "
    ".L1::no_allocate; l2=.L2::evict_first .L2::evict_last .L2::evict_normal; hint=.L2::cache_hint; vec=.v2 .v4 .v8; "
    "mmio=.mmio; scope=.cta .cluster .gpu .sys; type!=.b8 .b16 .b32 .b64 .b128 .u8 .u16 .u32 .u64 .s8 .s16 .s32 .s64 "
    ".f32 .f64";
constexpr std::string_view kMultimem =
    "sem=.weak .relaxed .acquire .release .acq_rel .sc; scope=.cta .cluster .gpu .sys; space=.global; "
    "op=.add .min .max .and .or .xor .inc .dec; vec=.v2 .v4 .v8; type=.u32 .s32 .u64 .b32 .b64 .f32 .f64 .f16x2 "
    ".bf16x2 .f16 .bf16";
constexpr std::string_view kMultimemSt =
    "sem=.weak .relaxed .acquire .release .acq_rel .sc; scope=.cta .cluster .gpu .sys; space=.global; "
    "vec=.v2 .v4 .v8; type!=.u32 .s32 .u64 .s64 .b32 .b64 .f32 .f64 .f16x2 .bf16x2";
constexpr std::string_view kTensormap =
    "mode!=.tile; field!=.global_address .rank .box_dim .global_dim .global_stride .element_stride .elemtype "
    ".interleave_layout .swizzle_mode .swizzle_atomicity .fill_mode; space=.global .shared::cta; size!=.b1024; "
    "type!=.b32 .b64";
constexpr std::string_view kSurface =
    "geom!=.1d .2d .3d .a1d .a2d; clamp=.trap .clamp .zero; vec=.v2 .v4; type!=.b8 .b16 .b32 .b64";
constexpr std::string_view kSured =
    "op!=.add .min .max .and .or .inc .xor; geom!=.1d .2d .3d .a1d .a2d .cube; clamp=.trap .clamp .zero; "
    "type!=.u32 .s32 .b32 .u64 .s64 .b64 .f32";
constexpr std::string_view kSpaceWrong = "space=State space incorrect for instruction '{1}'";
constexpr std::string_view kMbInit =
    "space=State space incorrect for instruction '{1}'; .shared::cluster=Illegal modifier '::cluster' for "
    "instruction '{1}'";
constexpr std::string_view kMbArrive =
    "sem=.release .relaxed; scope=.cta .cluster; space=.shared .shared::cta .shared::cluster; type!=.b64; "
    "mode=.noComplete";
constexpr std::string_view kMbArriveTx =
    "sem=.release .relaxed; scope=.cta .cluster; space=.shared .shared::cta .shared::cluster; type!=.b64";
constexpr std::string_view kMbTx =
    "sem=.relaxed; scope=.cta .cluster; space=.shared .shared::cta .shared::cluster; type!=.b64";
constexpr std::string_view kMbWait =
    "sem=.acquire .relaxed; scope=.cta .cluster; space=.shared .shared::cta; type!=.b64";
constexpr std::string_view kMbWaitMessages =
    "space=State space incorrect for instruction '{1}'; .shared::cluster=Illegal modifier '::cluster' for "
    "instruction '{1}'";

// ptxas 13.0's verdicts (tb/unit/isa/data/sync_forms.ptxas) decide every row.
// clang-format off
const Row kRows[] = {
    {"mbarrier.init", "mbarrier.init", "space=.shared .shared::cta; type!=.b64", "a,wi", 80, 70, kPtxFirst, kMbInit},
    {"mbarrier.inval", "mbarrier.inval", "space=.shared .shared::cta; type!=.b64", "a", 80, 70, kPtxFirst, kMbInit},
    {"mbarrier.arrive", "mbarrier.arrive", kMbArrive, "q_,a;q_,a,wi", 80, 70, kPtxFirst | kHookFirst, kSpaceWrong, kMbRules, arrive_rules},
    {"mbarrier.arrive_drop", "mbarrier.arrive_drop", kMbArrive, "q_,a;q_,a,wi", 80, 70, kPtxFirst | kHookFirst, kSpaceWrong, kMbRules,
     arrive_rules},
    {"mbarrier.arrive.expect_tx", "mbarrier.arrive.expect_tx", kMbArriveTx, "q_,a,wi", 90, 80, kPtxFirst | kHookFirst, kSpaceWrong,
     kMbRules, arrive_rules},
    {"mbarrier.arrive_drop.expect_tx", "mbarrier.arrive_drop.expect_tx", kMbArriveTx, "q_,a,wi", 90, 80, kPtxFirst,
     kSpaceWrong, kMbRules, arrive_rules},
    {"mbarrier.expect_tx", "mbarrier.expect_tx", kMbTx, "a,wi", 90, 80, kPtxFirst, kSpaceWrong, kMbRules},
    {"mbarrier.complete_tx", "mbarrier.complete_tx", kMbTx, "a,wi", 90, 80, kPtxFirst, kSpaceWrong, kMbRules},
    {"mbarrier.test_wait", "mbarrier.test_wait", kMbWait, "p,a,qi", 80, 70, kPtxFirst, kMbWaitMessages, kMbRules},
    {"mbarrier.test_wait.parity", "mbarrier.test_wait.parity", kMbWait, "p,a,wi", 80, 71, kPtxFirst, kMbWaitMessages,
     kMbRules},
    {"mbarrier.try_wait", "mbarrier.try_wait", kMbWait, "p,a,qi;p,a,qi,wi", 90, 78, kPtxFirst, kMbWaitMessages, kMbRules},
    {"mbarrier.try_wait.parity", "mbarrier.try_wait.parity", kMbWait, "p,a,wi;p,a,wi,wi", 90, 78, kPtxFirst,
     kMbWaitMessages, kMbRules},
    {"mbarrier.pending_count", "mbarrier.pending_count", "type!=.b64", "w,q", 80, 70, kPtxFirst,
     "space=No state space qualifier expected for instruction '{1}'"},
    {"cp.async.bulk", "cp.async.bulk", kBulkLoad, kBulkLoadOps, 90, 80, 0, {}, {}, bulk_rules,
     ".shared::cluster .global"},
    {"cp.async.bulk", "cp.async.bulk", kBulkLoadCta, kBulkLoadOps, 90, 80, 0,
     ".multicast::cluster=Illegal modifier '{0}' for instruction '{1}' with '.shared::cta.global'", {},
     bulk_cta_rules, ".shared::cta .global"},
    {"cp.async.bulk", "cp.async.bulk", kBulkLoadCta, kBulkLoadOps, 90, 80, 0,
     ".multicast::cluster=Illegal modifier '{0}' for instruction '{1}' with '.shared::cluster.shared::cta'", {},
     bulk_rules, ".shared::cluster .shared::cta"},
    {"cp.async.bulk", "cp.async.bulk", "space=.global .shared::cta; cm!=.bulk_group; hint=.L2::cache_hint; "
     "mask=.cp_mask", "a,a,wi;a,a,wi,qh", 90, 80, 0, {}, {}, bulk_rules, ".global .shared::cta"},
    {"cp.async.bulk.prefetch", "cp.async.bulk.prefetch", "level!=.L2; space!=.global; hint=.L2::cache_hint",
     "a,wi;a,wi,q", 90, 80, 0, {}, {}, bulk_rules},
    {"cp.async.bulk.commit_group", "cp.async.bulk.commit_group", "", "", 90, 80},
    {"cp.async.bulk.wait_group", "cp.async.bulk.wait_group", "", "i", 90, 80},
    {"cp.async.bulk.wait_group.read", "cp.async.bulk.wait_group", "", "i", 90, 80, kOperandsLate, {}, {}, nullptr,
     {}, "Modifier '.read'"},
    {"cp.async.bulk.tensor", "cp.async.bulk.tensor", kTensorLoad, kTensorLoadOps, 90, 80, 0, {}, {}, tensor_rules,
     ".shared::cluster .global"},
    {"cp.async.bulk.tensor", "cp.async.bulk.tensor", kTensorLoad, kTensorLoadOps, 90, 80, 0, {}, {},
     tensor_cta_rules, ".shared::cta .global"},
    {"cp.async.bulk.tensor", "cp.async.bulk.tensor", "space=.global .shared::cta; dim=.1d .2d .3d .4d .5d; "
     "mode=.tile .im2col_no_offs; cm!=.bulk_group; hint=.L2::cache_hint", "x,a;x,a,q", 90, 80, 0, {}, {},
     tensor_rules, ".global .shared::cta"},
    {"cp.reduce.async.bulk", "cp.reduce.async.bulk", "space=.global .shared::cta; cm!=.bulk_group; "
     "hint=.L2::cache_hint; op=.add .min .max .inc .dec .and .or .xor; ftz=.noftz; type!=.u32 .s32 .u64 .s64 .b32 "
     ".b64 .f32 .f64 .f16 .bf16", "a,a,wi;a,a,wi,q", 90, 80, 0, {}, {}, reduce_rules, ".global .shared::cta"},
    {"cp.reduce.async.bulk", "cp.reduce.async.bulk", "space=.shared::cluster .shared::cta; "
     "cm!=.mbarrier::complete_tx::bytes; op=.add .min .max .inc .dec .and .or .xor; type!=.u32 .s32 .u64 .s64 .b32 "
     ".b64", "a,a,wi,a", 90, 80, 0, "!type=Arguments mismatch for instruction '{1}'", {}, reduce_rules,
     ".shared::cluster .shared::cta"},
    {"cp.reduce.async.bulk.tensor", "cp.reduce.async.bulk.tensor", "space=.global .shared::cta; "
     "dim=.1d .2d .3d .4d .5d; op=.add .min .max .inc .dec .and .or .xor; mode=.tile .im2col_no_offs; "
     "cm!=.bulk_group; hint=.L2::cache_hint; type=", "x,a;x,a,q", 90, 80, 0, {}, {}, reduce_tensor_rules,
     ".global .shared::cta"},
    {"createpolicy.fractional", "createpolicy.fractional", kPolicy, "q;q,f", 80, 74, kHookFirst, kPolicyMessages, {},
     policy_rules},
    {"createpolicy.range", "createpolicy.range", kPolicyRange, "q,a,wi,wi", 80, 74,
     kHookFirst, kPolicyMessages, {}, policy_rules},
    {"createpolicy.cvt", "createpolicy.cvt", "level!=.L2; type!=.b64", "q,q", 80, 74, 0,
     "!level=.L2 modifier required for instruction '{1}'"},
    {"prefetch", "prefetch", "space=.global .local; level!=.L1 .L2 .L2::evict_last .L2::evict_normal", "a", 0, 0,
     kWordsFirst, kPrefetchMessages, {}, prefetch_rules},
    {"prefetch", "prefetch", "space=.const .param; tensormap=.tensormap", "a", 90, 80, kWordsFirst,
     ".global=Modifier '.tensormap' cannot be applied to '.global' space for instruction '{1}'; "
     "level=Multiple cache operation modifiers specified", {}, nullptr, {}, "Modifier '.tensormap'", ".tensormap"},
    {"prefetchu", "prefetchu", "level!=.L1", "a", 0, 0, kWordsFirst,
     "space=State space incorrect for instruction '{1}'; !level=Cache level modifier required for instruction '{1}'"},
    {"applypriority", "applypriority", "space=.global; level=.L2; prio!=.L2::evict_normal", "a,i", 80, 74, kHookFirst | kMissingFirst,
     "space=State space incorrect for instruction '{1}'; evict=Unsupported modifier '{2}' for instruction '{1}'; "
     "!prio=cache eviction priority modifier required for instruction '{1}'", {}, line_rules},
    {"discard", "discard", "space=.global; level!=.L2", "a,i", 80, 74, kHookFirst | kMissingFirst,
     "space=State space incorrect for instruction '{1}'; !level=.L2 modifier required for instruction '{1}'", {},
     line_rules},
    {"ld", "ld", kLdGroups, "rv,a;rv,a,q", 0, 0, kHookFirst, {}, {}, ld_st_rules},
    {"st", "st", kStGroups, "a,rvn;a,rvn,q", 0, 0, kHookFirst, "space=State space incorrect for instruction '{1}'",
     {}, ld_st_rules},
    {"multimem.ld_reduce", "multimem.ld_reduce", kMultimem, "rv,a", 90, 81, kHookFirst, kSpaceWrong, {},
     multimem_rules},
    {"multimem.st", "multimem.st", kMultimemSt, "a,rvn", 90, 81, kHookFirst, kSpaceWrong, {}, multimem_rules},
    {"multimem.red", "multimem.red", kMultimem, "a,rvn", 90, 81, kHookFirst, kSpaceWrong, {}, multimem_rules},
    {"st.async", "st.async", "sem=.weak .relaxed .release; mmio=.mmio; scope=.cta .cluster .gpu .sys; "
     "space=.global .shared::cta .shared::cluster; cm=.mbarrier::complete_tx::bytes; vec=.v2 .v4; "
     "type!=.b32 .b64 .u32 .s32 .u64 .s64 .f32 .f64", "a,rvn,a;a,rvn", 90, 81, kHookFirst,
     "!type=Arguments mismatch for instruction '{1}'", {}, st_async_rules},
    {"red.async", "red.async", "sem=.relaxed .release; scope=.cta .cluster .gpu .sys; "
     "space=.global .shared::cta .shared::cluster; cm=.mbarrier::complete_tx::bytes; "
     "op=.inc .dec .min .max .add .and .or .xor .exch; type!=.u32 .s32 .u64 .s64 .b32 .b64", "a,rn,a;a,rn", 90, 81,
     kHookFirst, ".cas=Illegal modifier '{0}' for instruction '{1}'", {}, red_async_rules},
    {"tensormap.replace", "tensormap.replace", kTensormap, "a,rni;a,i,rn", 90, 83,
     kPtxFirst | kInstruction | kArchSpecific | kHookFirst,
     "!mode=.tile modifier required for instruction '{1}'; !size=Tensormap size modifier required for instruction "
     "'{1}'; .im2col=Illegal modifier '.tile' for instruction '{1}'; .swizzle_atomicity=Illegal modifier '{0}' for "
     "instruction '{1}'", {}, tensormap_rules},
    {"tensormap.replace", "tensormap.replace.swizzle_atomicity", kTensormap, "a,rni;a,i,rn", 100, 86,
     kPtxFirst | kInstruction | kArchSpecific | kHookFirst,
     "!mode=.tile modifier required for instruction 'tensormap.replace'; !size=Tensormap size modifier required for "
     "instruction 'tensormap.replace'", {}, tensormap_rules, {}, {}, ".swizzle_atomicity"},
    {"tex", "tex", "geom!=.1d .2d .3d .a1d .a2d .cube .acube .2dms .a2dms; mode=.base .level .grad; vec=.v2 .v4; "
     "type!=.f32 .s32 .u32 .f16; ctype=.f32 .s32", "vV,x;vV,x,rvf;vV,x,rvf,rvf;vV,x,rvf,rvf,rvf", 0, 0, kHookFirst | kTwoTypes, {}, {},
     texture_rules},
    {"tld4", "tld4", "comp=.r .g .b .a; geom!=.2d .a2d .cube .acube; vec=.v2 .v4; type!=.f32 .s32 .u32; ctype=.f32 .s32",
     "v,x;v,x,rv",
     0, 0, kHookFirst | kTwoTypes, {}, {}, texture_rules},
    {"txq", "txq", "level=.level; query!=.width .height .depth .channel_data_type .channel_order .normalized_coords "
     ".filter_mode .addr_mode_0 .addr_mode_1 .addr_mode_2 .array_size .num_mipmap_levels .num_samples; type!=.b32",
     "r,a;r,a,r", 0, 0, kHookFirst, "!query=Query modifier required for instruction '{1}'", {}, query_rules},
    {"suq", "suq", "query!=.width .height .depth .channel_data_type .channel_order .array_size .memory_layout; "
     "type!=.b32", "r,a", 0, 0, kHookFirst,
     "!query=Query modifier required for instruction '{1}'; txquery=Illegal query modifier for instruction '{1}'", {},
     query_rules},
    {"suld.b", "suld.b", kSurface, "rv,x", 0, 0, kHookFirst, {}, {}, surface_rules},
    {"sust.b", "sust.b", kSurface, "x,rvn", 0, 0, kHookFirst, {}, {}, surface_rules},
    {"sust.p", "sust.p", kSurface, "x,rvn", 0, 0, kHookFirst, {}, {}, surface_rules},
    {"sured", "sured.b", kSured, "x,rn", 0, 0, kHookFirst, {}, {}, surface_rules},
    {"sured.b", "sured.b", kSured, "x,rn", 0, 0, kHookFirst, {}, {}, surface_rules},
    {"sured.p", "sured.p", kSured, "x,rn", 0, 0, kHookFirst, {}, {}, surface_rules},
    {"cp.async.bulk.prefetch.tensor", "cp.async.bulk.prefetch.tensor", "dim=.1d .2d .3d .4d .5d; level!=.L2; "
     "space!=.global; mode=.tile .im2col; hint=.L2::cache_hint", "x;x,vq;x,v,q", 90, 80, 0, {}, {}, tensor_rules},
};
// clang-format on

// A word that needs more than its row: a newer PTX version or target.
struct WordGate {
  std::string_view word, only;  // only: the rows whose name starts so (empty: any)
  uint16_t sm, ptx;
  std::string_view subject;  // "Feature '::cta'", "Modifier '.release' on '{1}'"
  bool target_first = false;
};
const WordGate kWordGates[] = {
    {".shared::cluster", "ld", 90, 78, "Feature '::cluster'"},
    {".shared::cluster", "st", 90, 78, "Feature '::cluster'"},
    {".mmio", "ld", 0, 82, "Feature '.mmio'"},
    {".mmio", "st", 0, 82, "Feature '.mmio'"},
    {".L2::cache_hint", "ld", 80, 74, "Modifier '.L2::cache_hint'", true},
    {".L2::cache_hint", "st", 80, 74, "Modifier '.L2::cache_hint'", true},
    {".L2::256B", "ld", 80, 0, "Modifier '.L2::256B'"},
    {".L2::64B", "ld", 0, 74, "Feature 'cache prefetching'"},
    {".L2::128B", "ld", 0, 74, "Feature 'cache prefetching'"},
    {".L2::256B", "ld", 0, 74, "Feature 'cache prefetching'"},
    {".L1::evict_normal", "ld", 0, 74, "Modifier '{2}' on '{1}'"},
    {".L1::evict_unchanged", "ld", 0, 74, "Modifier '{2}' on '{1}'"},
    {".L1::evict_first", "ld", 0, 74, "Modifier '{2}' on '{1}'"},
    {".L1::evict_last", "ld", 0, 74, "Modifier '{2}' on '{1}'"},
    {".L1::no_allocate", "ld", 0, 74, "Modifier '{2}' on '{1}'"},
    {".L1::evict_normal", "st", 0, 74, "Modifier '{2}' on '{1}'"},
    {".L1::evict_unchanged", "st", 0, 74, "Modifier '{2}' on '{1}'"},
    {".L1::evict_first", "st", 0, 74, "Modifier '{2}' on '{1}'"},
    {".L1::evict_last", "st", 0, 74, "Modifier '{2}' on '{1}'"},
    {".L1::no_allocate", "st", 0, 74, "Modifier '{2}' on '{1}'"},
    {".shared::cta", "", 0, 78, "Feature '::cta'"},
    {".cp_mask", "cp.async.bulk", 100, 86, "Feature '.cp_mask'", true},
    {".L2::evict_last", "prefetch", 80, 74, "Modifier 'cache eviction priority' on '{1}'"},
    {".L2::evict_normal", "prefetch", 80, 74, "Modifier 'cache eviction priority' on '{1}'"},
    {".shared::cluster", "mbarrier", 90, 80, "Feature '.shared::cluster'"},
    {".cluster", "", 90, 78, "Feature '.cluster scope'", true},
    {".release", "mbarrier", 0, 80, "Modifier '{0}' on '{1}'"},
    {".acquire", "mbarrier", 0, 80, "Modifier '{0}' on '{1}'"},
    {".relaxed", "mbarrier.arrive", 90, 86, "Modifier '{0}' on '{1}'", true},
    {".relaxed", "mbarrier.arrive_drop", 90, 86, "Modifier '{0}' on '{1}'", true},
    {".relaxed", "mbarrier.test_wait", 90, 86, "Modifier '{0}' on '{1}'", true},
    {".relaxed", "mbarrier.try_wait", 90, 86, "Modifier '{0}' on '{1}'", true},
};

struct Group {
  std::string_view cls;
  std::vector<std::string_view> words;
  bool required = false;
};
struct ParsedRow {
  const Row* row;
  std::vector<std::string_view> prefix, spaces;
  std::vector<Group> groups;
  std::vector<std::vector<std::string_view>> patterns;  // the operand patterns, each a kind set per operand
  unsigned min_operands = 0;
  std::unordered_map<std::string_view, int> group_index;  // word -> the first group that takes it
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  while (!s.empty()) {
    const size_t k = s.find(sep);
    const std::string_view part = trim(s.substr(0, k));
    if (!part.empty()) out.push_back(part);
    if (k == std::string_view::npos) break;
    s.remove_prefix(k + 1);
  }
  return out;
}

const std::vector<ParsedRow>& parsed_rows() {
  static const std::vector<ParsedRow> rows = [] {
    std::vector<ParsedRow> out;
    for (const Row& r : kRows) {
      ParsedRow p{&r, mnemonic_words(r.prefix), split(r.spaces, ' '), {}, {}, 0, {}};
      for (std::string_view pattern : split(r.operands, ';')) p.patterns.push_back(split(pattern, ','));
      for (std::string_view g : split(r.groups, ';')) {
        const size_t eq = g.find('=');
        Group group{trim(g.substr(0, eq)), split(g.substr(eq + 1), ' ')};
        if (!group.cls.empty() && group.cls.back() == '!') group.cls.remove_suffix(1), group.required = true;
        for (std::string_view w : group.words) p.group_index.emplace(w, static_cast<int>(p.groups.size()));
        p.groups.push_back(std::move(group));
      }
      out.push_back(std::move(p));
    }
    return out;
  }();
  return rows;
}

// What ptxas says when a required group is missing, by class.
constexpr std::string_view kMissing =
    "cm=.completion_mechanism modifier required for instruction '{1}'; "
    "space=State space modifier required for instruction '{1}'; level=.level modifier required for instruction '{1}'";

// Words ptxas knows in every instruction, by class, beyond those the rows take.
constexpr std::string_view kVocabulary[][2] = {
    {"type",
     ".b8 .b16 .b32 .b64 .b128 .u8 .u16 .u32 .u64 .s8 .s16 .s32 .s64 .f16 .f16x2 .bf16 .bf16x2 .f32 .f64 .pred"},
    {"space", ".global .shared .local .const .param .shared::cta .shared::cluster"},
    {"sem", ".relaxed .acquire .release .acq_rel .sc .weak .volatile"},
    {"scope", ".cta .cluster .gpu .sys"},
    {"level", ".L1 .L2"},
    {"evict", ".L2::evict_last .L2::evict_normal .L2::evict_first .L2::evict_unchanged"},
    {"pf", ".L2::64B .L2::128B .L2::256B"},
    {"atom", ".cas .exch .inc .dec"},
    {"txquery",
     ".normalized_coords .filter_mode .addr_mode_0 .addr_mode_1 .addr_mode_2 .num_mipmap_levels "
     ".num_samples"},
    {"geom", ".cube .acube .2dms .a2dms"},
    {"l1evict", ".L1::evict_last .L1::evict_normal .L1::evict_first .L1::evict_unchanged .L1::no_allocate"},
};

// The class of a word some row takes, or empty (built once: every ld and st asks).
std::string_view class_of(std::string_view w) {
  static const std::unordered_map<std::string_view, std::string_view> classes = [] {
    std::unordered_map<std::string_view, std::string_view> out;
    for (const auto& [cls, words] : kVocabulary)
      for (std::string_view v : split(words, ' ')) out.emplace(v, cls);
    for (const ParsedRow& p : parsed_rows())
      for (const Group& g : p.groups)
        for (std::string_view v : g.words) out.emplace(v, g.cls);
    return out;
  }();
  const auto it = classes.find(w);
  return it == classes.end() ? std::string_view() : it->second;
}

// The row whose prefix is longest among those the mnemonic starts with and,
// among rows of one prefix, whose state spaces are the mnemonic's (else the
// first of them, with `spaces_wrong`).
const ParsedRow* select_row(const Words& words, bool& spaces_wrong) {
  const ParsedRow* best = nullptr;
  Words spaces;
  for (std::string_view w : words)
    if (class_of(w) == "space") spaces.push_back(w);
  spaces_wrong = false;
  static const std::unordered_map<std::string_view, std::vector<const ParsedRow*>> kByOpcode = [] {
    std::unordered_map<std::string_view, std::vector<const ParsedRow*>> out;
    for (const ParsedRow& p : parsed_rows()) out[p.prefix[0]].push_back(&p);
    return out;
  }();
  const auto it = kByOpcode.find(words[0]);
  if (it == kByOpcode.end()) return nullptr;
  for (const ParsedRow* row : it->second) {
    const ParsedRow& p = *row;
    if (p.prefix.size() > words.size() || !std::equal(p.prefix.begin(), p.prefix.end(), words.begin())) continue;
    const bool fits = p.spaces.empty() || p.spaces == spaces;
    const bool keyed = !p.row->key.empty();
    if (keyed && std::find(words.begin() + 1, words.end(), p.row->key) == words.end()) continue;
    if (best && !best->row->key.empty() && !keyed) continue;
    if (best && keyed && best->row->key.empty()) best = nullptr;
    if (best && p.prefix.size() < best->prefix.size()) continue;
    if (best && p.prefix.size() == best->prefix.size() && (!fits || !spaces_wrong)) continue;
    best = &p;
    spaces_wrong = !fits;
  }
  return best;
}

// A row's text for `key` in "key=text; key=text", or empty.
std::string_view lookup(std::string_view table, std::string_view key) {
  for (std::string_view e : split(table, ';')) {
    const size_t eq = e.find('=');
    if (trim(e.substr(0, eq)) == key) return e.substr(eq + 1);
  }
  return {};
}

// {0}: the word, {1}: the row's name, {2}: the word's last part (".evict_last" of ".L2::evict_last").
std::string fill(std::string_view pattern, std::string_view word, std::string_view name) {
  const size_t colons = word.rfind("::");
  const std::string last =
      colons == std::string_view::npos ? std::string(word) : "." + std::string(word.substr(colons + 2));
  return fmt::format(fmt::runtime(pattern), word, name, last);
}

// The coordinates of [handle, {c, ...}]: 32-bit registers or immediates.
bool coordinates_fit(std::string_view text, const RegisterTable* regs) {
  std::string_view e[8];
  const unsigned n = std::min(vector_elements(coordinates(text), e, 8), 8u);
  for (unsigned k = 0; k < n; ++k) {
    if (classify_literal(e[k]) == LiteralKind::integer || (regs == nullptr && !e[k].empty() && e[k][0] == '%'))
      continue;
    const auto reg = regs ? regs->lookup(e[k]) : std::nullopt;
    if (!reg || reg->bits != 32) return false;
  }
  return true;
}

bool operand_fits(const Statement& st, unsigned k, std::string_view kinds, const RegisterTable* regs) {
  const OperandForm form = st.forms[k];
  const std::string_view text = st.operands[k].text;
  for (char c : kinds) {
    switch (c) {
      case 'a':
        if (form == OperandForm::address) return true;
        break;
      case 'x':
        if (form == OperandForm::indexed && coordinates_fit(text, regs)) return true;
        break;
      case 'v':
        if (form == OperandForm::vector) return true;
        break;
      case 'V':  // a vector and a predicate: {d, e, f, g}|p
        if (form == OperandForm::vector_pair) return true;
        break;
      case '_':
        if (form == OperandForm::plain && text == "_") return true;
        break;
      case 'i':
        if (form == OperandForm::plain && classify_literal(text) == LiteralKind::integer) return true;
        break;
      case 'r':  // any register but a predicate
        if (regs == nullptr && form == OperandForm::plain && !text.empty() && text[0] == '%') return true;
        if (const auto reg = regs ? regs->lookup(text) : std::nullopt;
            form == OperandForm::plain && reg && reg->kind != RegKind::predicate)
          return true;
        break;
      case 'n':  // any immediate
        if (form == OperandForm::plain && classify_literal(text) != LiteralKind::none) return true;
        break;
      case 'f':  // a float: an immediate, or a 32-bit register
        if (form == OperandForm::plain && classify_literal(text) == LiteralKind::floating) return true;
        if (regs == nullptr && form == OperandForm::plain && !text.empty() && text[0] == '%') return true;
        if (const auto reg = regs ? regs->lookup(text) : std::nullopt; reg && reg->bits == 32) return true;
        break;
      default: {
        if (form != OperandForm::plain) break;
        if (regs == nullptr && !text.empty() && text[0] == '%') return true;  // loose statements: no declarations
        const auto reg = regs ? regs->lookup(text) : std::nullopt;
        if (!reg) break;
        if (c == 'p' && reg->kind == RegKind::predicate) return true;
        const unsigned bits = c == 'q' ? 64 : c == 'w' ? 32 : c == 'h' ? 16 : 0;
        if (reg->kind != RegKind::predicate && reg->bits == bits) return true;
      }
    }
  }
  return false;
}

// Whether the operands fit one of the row's patterns; `early`: those there
// are fit a pattern's first operands (ptxas counts them later).
// `exact`: set when a pattern of exactly the statement's length fits (the
// early look then answers the late one too).
bool operands_fit(const ParsedRow& p, const Statement& st, const RegisterTable* regs, bool early,
                  bool* exact = nullptr) {
  const Row& r = *p.row;
  bool any = false;
  for (const auto& kinds : p.patterns) {
    if (early ? kinds.size() < st.num_operands : kinds.size() != st.num_operands) continue;
    bool ok = true;
    for (unsigned k = 0; k < st.num_operands && ok; ++k) ok = operand_fits(st, k, kinds[k], regs);
    if (ok && exact) *exact |= kinds.size() == st.num_operands;
    any |= ok;
    if (ok && (!exact || *exact)) return true;
  }
  if (st.num_operands == 0 && r.operands.empty() && exact) *exact = true;
  return any || (st.num_operands == 0 && (early || r.operands.empty()));
}

std::string format_ptx(uint16_t v) { return fmt::format("{}.{}", v / 10, v % 10); }

bool arch_specific_target(const Capabilities& caps) {
  const char last = caps.target_name.empty() ? '\0' : caps.target_name.back();
  return last == 'a' || last == 'f';
}

bool check_gate(const Row& r, const Capabilities& caps, std::string& message) {
  const bool target_ok = caps.sm >= r.sm && (!(r.flags & kArchSpecific) || arch_specific_target(caps));
  const bool ptx_ok = caps.ptx >= r.ptx;
  const std::string subject = r.subject.empty() ? fmt::format("Feature '{}'", r.name) : std::string(r.subject);
  if (!ptx_ok && (target_ok || (r.flags & kPtxFirst))) {
    message = fmt::format("{} requires PTX ISA .version {} or later", subject, format_ptx(r.ptx));
    return false;
  }
  if (target_ok) return true;
  message = (r.flags & kInstruction)
                ? fmt::format("Instruction '{}' not supported on .target '{}'", r.name, caps.target_name)
                : fmt::format("{} requires .target sm_{} or higher", subject, r.sm);
  return false;
}

// Which group of the row takes `w`, or -1.
int group_of(const ParsedRow& p, std::string_view w) {
  const auto it = p.group_index.find(w);
  return it == p.group_index.end() ? -1 : it->second;
}

// The gates of the words the row takes, in the table's order (ptxas's).
bool check_word_gates(const ParsedRow& p, const Words& words, const Capabilities& caps, std::string& message) {
  static const std::unordered_map<std::string_view, bool> kGated = [] {
    std::unordered_map<std::string_view, bool> out;
    for (const WordGate& g : kWordGates) out.emplace(g.word, true);
    return out;
  }();
  bool any = false;
  for (std::string_view w : words) any |= kGated.count(w) != 0;
  if (!any) return true;
  const Row& r = *p.row;
  for (const WordGate& g : kWordGates)
    for (std::string_view w : words) {
      const bool row_of_gate =
          g.only.empty() || r.name == g.only ||
          (r.name.size() > g.only.size() && r.name.rfind(g.only, 0) == 0 && r.name[g.only.size()] == '.');
      if (g.word != w || !row_of_gate || group_of(p, w) < 0) continue;
      const std::string subject = fill(g.subject, w, r.name);
      const std::string ptx = fmt::format("{} requires PTX ISA .version {} or later", subject, format_ptx(g.ptx));
      const std::string target = fmt::format("{} requires .target sm_{} or higher", subject, g.sm);
      if (message.empty() && caps.sm < g.sm && (g.target_first || caps.ptx >= g.ptx))
        message = target;
      else if (caps.ptx < g.ptx)
        message = ptx;
      if (!message.empty()) return false;
    }
  return true;
}

// Words no row knows, and the types: what ptxas judges before the target.
bool check_words_early(const ParsedRow& p, const Words& words, std::string& message) {
  int n = 0;
  bool all_in = true;
  for (std::string_view w : words) {
    const std::string_view cls = class_of(w);
    if (cls.empty()) {
      message = fmt::format("Unknown modifier '{}'", w);
      return false;
    }
    if (cls != "type") continue;
    ++n;
    const int at = group_of(p, w);
    all_in &= at >= 0 && p.groups[static_cast<size_t>(at)].cls == "type";
  }
  for (const Group& g : p.groups) {
    if (g.cls != "type") continue;
    if ((g.required && n == 0) || !all_in || n > ((p.row->flags & kTwoTypes) ? 2 : 1)) {
      const std::string_view text = lookup(p.row->messages, "!type");
      message = text.empty() ? fmt::format("Unexpected instruction types specified for '{}'", p.row->name)
                             : fill(text, "", p.row->name);
      return false;
    }
  }
  return true;
}

// A required group none of the words is in (the words of no group aside).
bool check_missing(const ParsedRow& p, const Words& words, std::string& message) {
  for (const Group& g : p.groups) {
    if (!g.required || g.cls == "type" || (g.cls == "space" && !p.spaces.empty())) continue;
    bool present = false;
    for (std::string_view w : words) present |= std::find(g.words.begin(), g.words.end(), w) != g.words.end();
    if (present) continue;
    std::string_view text = lookup(p.row->messages, fmt::format("!{}", g.cls));
    if (text.empty()) text = lookup(kMissing, g.cls);
    message = fill(text, g.words[0], p.row->name);
    return false;
  }
  return true;
}

// Words of a class the row does not take, two of one group, a required
// group missing, and the rules between classes.
bool check_words(const ParsedRow& p, const Words& words, std::string& message) {
  const Row& r = *p.row;
  std::vector<std::string_view> seen(p.groups.size());
  if ((r.flags & kMissingFirst) && !check_missing(p, words, message)) return false;
  for (std::string_view w : words) {
    int g = group_of(p, w);
    for (size_t h = g < 0 ? p.groups.size() : static_cast<size_t>(g) + 1;
         g >= 0 && !seen[g].empty() && h < p.groups.size(); ++h)
      if (std::find(p.groups[h].words.begin(), p.groups[h].words.end(), w) != p.groups[h].words.end())
        g = static_cast<int>(h);  // a word two groups take: the next one (createpolicy's second priority)
    if (!p.spaces.empty() && g >= 0 && p.groups[g].cls == "space") continue;  // the row's own pair
    if (g < 0) {
      std::string_view text = lookup(r.messages, w);
      if (text.empty()) text = lookup(r.messages, class_of(w));
      if (text.empty()) text = "Illegal modifier '{0}' for instruction '{1}'";
      message = fill(text, w, r.name);
      return false;
    }
    if (!seen[g].empty()) {
      message = fmt::format("Modifier '{}' cannot be combined with modifier '{}'", seen[g], w);
      return false;
    }
    seen[g] = w;
  }
  for (size_t g = 0; g < p.groups.size(); ++g) {
    if (!seen[g].empty() || !p.groups[g].required || p.groups[g].cls == "type") continue;
    if (p.groups[g].cls == "space" && !p.spaces.empty()) continue;
    std::string_view text = lookup(r.messages, fmt::format("!{}", p.groups[g].cls));
    if (text.empty()) text = lookup(kMissing, p.groups[g].cls);
    message = fill(text, p.groups[g].words[0], r.name);
    return false;
  }
  for (std::string_view rule : split(r.rules, ';')) {
    const size_t gt = rule.find('>'), eq = rule.find('=');
    const std::string_view a = trim(rule.substr(0, gt)), b = trim(rule.substr(gt + 1, eq - gt - 1));
    std::string_view wa;
    bool has_b = false;
    for (size_t g = 0; g < p.groups.size(); ++g) {
      if (p.groups[g].cls == a && !seen[g].empty()) wa = seen[g];
      if (p.groups[g].cls == b && !seen[g].empty()) has_b = true;
    }
    if (!wa.empty() && !has_b) {
      message = fill(rule.substr(eq + 1), wa, r.name);
      return false;
    }
  }
  return true;
}

// [handle, {coordinates}]: at most five, each a 32-bit register or an immediate.
bool check_coordinates(const Statement& st, std::string& message) {
  for (unsigned k = 0; k < st.num_operands; ++k) {
    if (st.forms[k] != OperandForm::indexed) continue;
    const std::string_view t = st.operands[k].text;
    const unsigned n = vector_elements(coordinates(t), nullptr, 0);
    if (n > 5) {
      message = fmt::format("Illegal vector size: {}", n);
      return false;
    }
  }
  return true;
}

bool judge(const ParsedRow& p, bool spaces_wrong, const Words& words, const Statement& st, const Capabilities& caps,
           const RegisterTable* regs, std::string& message) {
  const Row& r = *p.row;
  const Ctx c{r, st, words, caps, regs};
  if (!check_words_early(p, words, message) || !check_coordinates(st, message)) return false;
  // the extra qualifiers' operands stand last: registers, not addresses
  const bool last_plain = st.num_operands > 0 && st.forms[st.num_operands - 1] == OperandForm::plain;
  bool exact = false;
  const bool early =
      spaces_wrong || (operands_fit(p, st, regs, true, &exact) && (extra_operands(c) == 0 || last_plain));
  if (!early && !(r.flags & kOperandsLate)) return mismatch(c, message);
  if ((r.flags & kWordsFirst) && !check_words(p, words, message)) return false;
  if (!check_gate(r, caps, message) || !check_word_gates(p, words, caps, message)) return false;
  if (spaces_wrong) {
    message = fmt::format("State space incorrect for instruction '{}'", r.name);
    return false;
  }
  if (!early) return mismatch(c, message);
  if ((r.flags & kHookFirst) && !r.hook(c, message)) return false;
  if (!check_words(p, words, message)) return false;
  if (r.hook != nullptr && !(r.flags & kHookFirst) && !r.hook(c, message)) return false;
  return exact || operands_fit(p, st, regs, false) || mismatch(c, message);
}

}  // namespace

bool is_async_statement(const Statement& st) {
  const std::string_view m = st.mnemonic.text;
  // one look at the first word: most statements are none of these
  static const std::unordered_map<std::string_view, bool> kFirstWords = {
      {"ld", true},       {"st", true},        {"mbarrier", true},      {"cp", true},      {"createpolicy", true},
      {"prefetch", true}, {"prefetchu", true}, {"applypriority", true}, {"discard", true}, {"multimem", true},
      {"red", true},      {"tensormap", true}, {"tex", true},           {"tld4", true},    {"txq", true},
      {"suq", true},      {"suld", true},      {"sust", true},          {"sured", true}};
  if (kFirstWords.find(m.substr(0, m.find('.'))) == kFirstWords.end()) return false;
  if (m == "ld" || m == "st" || m.rfind("ld.", 0) == 0 || m.rfind("st.", 0) == 0) return true;
  for (std::string_view op :
       {"mbarrier", "cp.async.bulk", "cp.reduce.async.bulk", "createpolicy", "prefetch", "prefetchu", "applypriority",
        "discard", "multimem", "red.async", "tensormap.replace", "tex", "tld4", "txq", "suq", "suld", "sust", "sured"})
    if (m == op || (m.size() > op.size() && m.substr(0, op.size()) == op && m[op.size()] == '.')) return true;
  return false;
}

bool check_async_statement(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err) {
  const Words all = mnemonic_words(st.mnemonic.text);
  std::string message;
  bool spaces_wrong = false;
  const ParsedRow* p = select_row(all, spaces_wrong);
  if (p == nullptr) {
    message = fmt::format("Not a name of any known instruction: '{}'", all[0]);
    for (size_t k = 1; k < all.size(); ++k)
      if (class_of(all[k]).empty()) {
        message = fmt::format("Unknown modifier '{}'", all[k]);
        break;
      }
  } else {
    const Words words(all.begin() + static_cast<std::ptrdiff_t>(p->prefix.size()), all.end());
    if (judge(*p, spaces_wrong, words, st, caps, regs, message)) return true;
  }
  err = {st.mnemonic.column, message, st.mnemonic.line};
  return false;
}

}  // namespace ptxfu::isa
