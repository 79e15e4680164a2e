// The rows of mbarrier, the bulk and tensor copies (cp.async.bulk and its
// tensor, prefetch and reduce forms) and tensormap.replace, with their hooks.
#include "isa/async_rows.h"

#include <algorithm>
#include <iterator>
#include <string>

#include <fmt/format.h>

namespace ptxfu::isa::async_rows {
namespace {

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

// The fewest operands any of the row's patterns has.
unsigned min_operands(const Row& r) {
  unsigned best = 99, n = 1;
  for (char ch : r.operands) {
    if (ch == ',') ++n;
    if (ch == ';') best = std::min(best, n), n = 1;
  }
  return r.operands.empty() ? 0 : std::min(best, n);
}

// A bulk copy: one operand for each of its extra qualifiers.
bool bulk_rules(const Ctx& c, std::string& message) {
  if (c.st.num_operands != min_operands(c.row) + extra_operands(c)) return mismatch(c, message);
  return true;
}

// A bulk or tensor copy into the CTA's own shared memory came in PTX 8.6.
bool cta_destination_ptx(const Ctx& c, std::string& message) {
  if (c.caps.ptx >= 86) return true;
  message = fmt::format(
      "Feature '{} with destination state space as .shared::cta' requires PTX ISA .version 8.6 or later", c.row.name);
  return false;
}

bool bulk_cta_rules(const Ctx& c, std::string& message) {
  return cta_destination_ptx(c, message) && bulk_rules(c, message);
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
  return cta_destination_ptx(c, message) && tensor_rules(c, message);
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
constexpr std::string_view kTensormap =
    "mode!=.tile; field!=.global_address .rank .box_dim .global_dim .global_stride .element_stride .elemtype "
    ".interleave_layout .swizzle_mode .swizzle_atomicity .fill_mode; space=.global .shared::cta; size!=.b1024; "
    "type!=.b32 .b64";
// The mbarrier forms' messages for a state space they do not take.
constexpr std::string_view kMbSpaceMessages =
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

// ptxas 13.0's verdicts (tb/unit/isa/data/sync_forms.ptxas) decide every row.
// clang-format off
const Row kRows[] = {
    {"mbarrier.init", "mbarrier.init", "space=.shared .shared::cta; type!=.b64", "a,wi", 80, 70, kPtxFirst, kMbSpaceMessages},
    {"mbarrier.inval", "mbarrier.inval", "space=.shared .shared::cta; type!=.b64", "a", 80, 70, kPtxFirst, kMbSpaceMessages},
    {"mbarrier.arrive", "mbarrier.arrive", kMbArrive, "q_,a;q_,a,wi", 80, 70, kPtxFirst | kHookFirst, kSpaceWrong, kMbRules, arrive_rules},
    {"mbarrier.arrive_drop", "mbarrier.arrive_drop", kMbArrive, "q_,a;q_,a,wi", 80, 70, kPtxFirst | kHookFirst, kSpaceWrong, kMbRules,
     arrive_rules},
    {"mbarrier.arrive.expect_tx", "mbarrier.arrive.expect_tx", kMbArriveTx, "q_,a,wi", 90, 80, kPtxFirst | kHookFirst, kSpaceWrong,
     kMbRules, arrive_rules},
    {"mbarrier.arrive_drop.expect_tx", "mbarrier.arrive_drop.expect_tx", kMbArriveTx, "q_,a,wi", 90, 80, kPtxFirst,
     kSpaceWrong, kMbRules, arrive_rules},
    {"mbarrier.expect_tx", "mbarrier.expect_tx", kMbTx, "a,wi", 90, 80, kPtxFirst, kSpaceWrong, kMbRules},
    {"mbarrier.complete_tx", "mbarrier.complete_tx", kMbTx, "a,wi", 90, 80, kPtxFirst, kSpaceWrong, kMbRules},
    {"mbarrier.test_wait", "mbarrier.test_wait", kMbWait, "p,a,qi", 80, 70, kPtxFirst, kMbSpaceMessages, kMbRules},
    {"mbarrier.test_wait.parity", "mbarrier.test_wait.parity", kMbWait, "p,a,wi", 80, 71, kPtxFirst, kMbSpaceMessages,
     kMbRules},
    {"mbarrier.try_wait", "mbarrier.try_wait", kMbWait, "p,a,qi;p,a,qi,wi", 90, 78, kPtxFirst, kMbSpaceMessages, kMbRules},
    {"mbarrier.try_wait.parity", "mbarrier.try_wait.parity", kMbWait, "p,a,wi;p,a,wi,wi", 90, 78, kPtxFirst,
     kMbSpaceMessages, kMbRules},
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
    {"cp.async.bulk.prefetch.tensor", "cp.async.bulk.prefetch.tensor", "dim=.1d .2d .3d .4d .5d; level!=.L2; "
     "space!=.global; mode=.tile .im2col; hint=.L2::cache_hint", "x;x,vq;x,v,q", 90, 80, 0, {}, {}, tensor_rules},
    {"tensormap.replace", "tensormap.replace", kTensormap, "a,rni;a,i,rn", 90, 83,
     kPtxFirst | kInstruction | kArchSpecific | kHookFirst,
     "!mode=.tile modifier required for instruction '{1}'; !size=Tensormap size modifier required for instruction "
     "'{1}'; .im2col=Illegal modifier '.tile' for instruction '{1}'; .swizzle_atomicity=Illegal modifier '{0}' for "
     "instruction '{1}'", {}, tensormap_rules},
    {"tensormap.replace", "tensormap.replace.swizzle_atomicity", kTensormap, "a,rni;a,i,rn", 100, 86,
     kPtxFirst | kInstruction | kArchSpecific | kHookFirst,
     "!mode=.tile modifier required for instruction 'tensormap.replace'; !size=Tensormap size modifier required for "
     "instruction 'tensormap.replace'", {}, tensormap_rules, {}, {}, ".swizzle_atomicity"},
};
// clang-format on

}  // namespace

RowSpan copy_rows() { return {std::begin(kRows), std::end(kRows)}; }

}  // namespace ptxfu::isa::async_rows
