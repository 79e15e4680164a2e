// The rows of ld and st with their ordering, cache and eviction qualifiers,
// multimem, st.async and red.async, createpolicy, prefetch/prefetchu,
// applypriority and discard, with their hooks.
#include "isa/async_rows.h"

#include <cstring>
#include <iterator>
#include <string>

#include <fmt/format.h>

namespace ptxfu::isa::async_rows {
namespace {

using namespace std::string_view_literals;

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

// ptxas 13.0's verdicts (tb/unit/isa/data/sync_forms.ptxas) decide every row.
// clang-format off
const Row kRows[] = {
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
};
// clang-format on

}  // namespace

RowSpan memory_rows() { return {std::begin(kRows), std::end(kRows)}; }

}  // namespace ptxfu::isa::async_rows
