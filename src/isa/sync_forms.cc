#include "isa/sync_forms.h"

#include <array>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

namespace ptxfu::isa {
namespace {

// How ptxas names a target or version that falls short: "Feature 'X'
// requires ...", "Modifier 'X' requires ...", or "Instruction 'X' not
// supported on .target 'sm_NN'" (with "Feature 'X'" for the version).
enum class Gate : uint8_t { feature, modifier, instruction };
enum class Operands : uint8_t { none, elect, setmaxnreg, tensormap, immediate, address, cp_async };

// The order in which ptxas judges a row's parts, where it is not the usual
// (target, PTX version, qualifiers, operands).
enum Order : uint8_t {
  kKeysLead = 1,       // the keys come first, in order (barrier.cluster.arrive)
  kOperandsFirst = 2,  // the operands before anything else (elect)
  kPtxFirst = 4,       // the PTX version before the target
  kSpacesInOrder = 8,  // groups 1 and 2 are the destination and source state spaces, in that order
};

// One qualifier position: one of `words`, or none where `missing` is empty
// (else ptxas's message; {0} stands for the row's first group's word).
// `early`: judged before the target (setmaxnreg's direction and type).
struct Group {
  std::array<std::string_view, 5> words{};
  std::string_view missing = {};
  bool early = false;
};

struct SyncRow {
  std::string_view opcode;               // the mnemonic's first word
  std::array<std::string_view, 3> keys;  // words that select the row, anywhere after it
  std::string_view name;                 // ptxas's name of the instruction; {0}: the first group's word
  std::array<Group, 5> groups;
  Operands operands = Operands::none;
  uint16_t sm = 0, ptx = 0;
  bool arch_specific = false;  // only the sm_90a-like targets ('a' or 'f')
  Gate gate = Gate::feature;
  std::string_view feature = {};  // the X of the gate's message
  std::string_view illegal = {};  // a foreign word's message ({0}: the word); empty: "Illegal modifier"
  uint8_t order = 0;              // Order bits
};

constexpr Group kScopes{{".cta", ".cluster", ".gpu", ".sys"}, "Scope modifier required for instruction 'fence'"};
constexpr std::string_view kSpaceCount = "Unexpected number of state spaces specified in instruction 'cp.async'";
constexpr Group kSems{{".sc", ".acq_rel", ".release", ".acquire"}};

// ptxas 13.0's verdicts (tb/unit/isa/data/sync_forms.ptxas) decide every row.
// clang-format off
const SyncRow kRows[] = {
    {"fence", {}, "fence", {{kSems, kScopes}}, Operands::none, 0, 60},
    {"fence", {".mbarrier_init"}, "fence",
     {{{{".release"}, "Modifier '.mbarrier_init' requires modifier 'order'"},
       {{".cluster"}, "Modifier '.mbarrier_init' requires modifier 'scope'"}}},
     Operands::none, 90, 80, false, Gate::feature, ".op_restrict",
     "Modifier '.mbarrier_init' cannot be combined with modifier '{0}'"},
    {"fence", {".proxy"}, "fence.proxy",
     {{{{".alias", ".async"}, ".proxykind modifier required for instruction 'fence.proxy'"}}},
     Operands::none, 0, 75, false, Gate::modifier, ".alias"},
    {"fence", {".proxy", ".async"}, "fence.proxy", {{{{".global", ".shared::cta", ".shared::cluster"}}}},
     Operands::none, 90, 80, false, Gate::modifier, ".async"},
    {"fence", {".proxy", ".tensormap::generic"}, "fence.proxy",
     {{{{".release", ".acquire"}, ".acquire/.release modifier required for instruction 'fence.proxy'"},
       {{".cta", ".cluster", ".gpu", ".sys"}, "Modifier '{0}' requires scope with 'fence.proxy' instruction"}}},
     Operands::tensormap, 90, 83, false, Gate::instruction, "fence.proxy with unidirection proxy fence", {},
     kPtxFirst},
    {"membar", {}, "membar", {{{{".cta", ".gl", ".sys"}, "Membar level required for instruction 'membar'"}}}},
    {"elect", {}, "elect", {{{{".sync"}, ".sync modifier required for instruction 'elect'"}}},
     Operands::elect, 90, 80, false, Gate::feature, "elect", {}, kOperandsFirst | kPtxFirst},
    {"setmaxnreg", {}, "setmaxnreg{0}",
     {{{{".inc", ".dec"}, "Not a name of any known instruction: 'setmaxnreg'", true},
       {{".aligned"}, ".aligned modifier required for instruction 'setmaxnreg{0}'"},
       {{".sync"}, ".sync modifier required for instruction 'setmaxnreg{0}'"},
       {{".u32"}, "Unexpected instruction types specified for 'setmaxnreg{0}'", true}}},
     Operands::setmaxnreg, 90, 80, true, Gate::instruction, "setmaxnreg{0}", {}, kPtxFirst},
    {"griddepcontrol", {}, "griddepcontrol",
     {{{{".launch_dependents", ".wait"},
        "'.launch_dependents' or '.wait' modifier required for instruction 'griddepcontrol'"}}},
     Operands::none, 90, 78, false, Gate::modifier, "{0}"},
    {"barrier", {".cluster", ".arrive"}, "barrier.cluster.arrive", {{{{".release", ".relaxed"}}, {{".aligned"}}}},
     Operands::none, 90, 78, false, Gate::feature, "barrier.cluster.arrive", {}, kKeysLead | kPtxFirst},
    {"barrier", {".cluster", ".wait"}, "barrier.cluster.wait", {{{{".acquire"}}, {{".aligned"}}}},
     Operands::none, 90, 78, false, Gate::feature, "barrier.cluster.wait", {}, kKeysLead | kPtxFirst},
    {"cp", {".async"}, "cp.async",
     {{{{".ca", ".cg"}, "'.ca or .cg' modifier required for instruction 'cp.async'"},
       {{".shared", ".shared::cta"}, kSpaceCount}, {{".global"}, kSpaceCount}, {{".L2::cache_hint"}},
       {{".L2::64B", ".L2::128B", ".L2::256B"}}}},
     Operands::cp_async, 80, 70, false, Gate::feature, "cp.async", {}, kKeysLead | kOperandsFirst | kSpacesInOrder | kPtxFirst},
    {"cp", {".async", ".commit_group"}, "cp.async.commit_group", {}, Operands::none, 80, 70, false, Gate::feature,
     "cp.async.commit_group", {}, kKeysLead | kOperandsFirst | kPtxFirst},
    {"cp", {".async", ".wait_group"}, "cp.async.wait_group", {}, Operands::immediate, 80, 70, false, Gate::feature,
     "cp.async.wait_group", {}, kKeysLead | kOperandsFirst | kPtxFirst},
    {"cp", {".async", ".wait_all"}, "cp.async.wait_all", {}, Operands::none, 80, 70, false, Gate::feature,
     "cp.async.wait_all", {}, kKeysLead | kOperandsFirst | kPtxFirst},
    {"cp", {".async", ".mbarrier", ".arrive"}, "cp.async.mbarrier.arrive",
     {{{{".noinc"}}, {{".shared", ".shared::cta"}},
       {{".b64"}, "Unexpected instruction types specified for 'cp.async.mbarrier.arrive'", true}}},
     Operands::address, 80, 70, false, Gate::feature, "cp.async.mbarrier.arrive",
     "State space incorrect for instruction 'cp.async.mbarrier.arrive'", kKeysLead | kOperandsFirst | kPtxFirst},
};
// clang-format on

// Words that need more than their row: a newer target or PTX version.
struct WordGate {
  std::string_view name, word;
  uint16_t sm, ptx;
  std::string_view target_message, ptx_message;
};
const WordGate kWordGates[] = {
    {"fence", ".cluster", 90, 78, "Feature '.cluster scope' requires .target sm_90 or higher", ""},
    {"barrier.cluster.arrive", ".release", 0, 80, "",
     "Modifier '.release' on 'barrier.cluster.arrive' requires PTX ISA .version 8.0 or later"},
    {"barrier.cluster.arrive", ".relaxed", 0, 80, "",
     "Modifier '.relaxed' on 'barrier.cluster.arrive' requires PTX ISA .version 8.0 or later"},
    {"barrier.cluster.wait", ".acquire", 0, 80, "",
     "Modifier '.acquire' on 'barrier.cluster.wait' requires PTX ISA .version 8.0 or later"},
    {"cp.async", ".L2::64B", 0, 74, "", "Feature 'cache prefetching' requires PTX ISA .version 7.4 or later"},
    {"cp.async", ".L2::128B", 0, 74, "", "Feature 'cache prefetching' requires PTX ISA .version 7.4 or later"},
    {"cp.async", ".L2::256B", 0, 74, "", "Feature 'cache prefetching' requires PTX ISA .version 7.4 or later"},
    {"cp.async", ".L2::cache_hint", 0, 74, "", "Modifier '.L2::cache_hint' requires PTX ISA .version 7.4 or later"},
    {"cp.async.mbarrier.arrive", ".shared::cta", 0, 78, "", "Feature '::cta' requires PTX ISA .version 7.8 or later"},
};

bool has(const std::vector<std::string_view>& words, std::string_view w) {
  for (size_t k = 1; k < words.size(); ++k)
    if (words[k] == w) return true;
  return false;
}

// The row with the most keys all present, or null.
const SyncRow* select_row(const std::vector<std::string_view>& words) {
  const SyncRow* best = nullptr;
  int best_keys = -1;
  for (const SyncRow& r : kRows) {
    if (r.opcode != words[0]) continue;
    int n = 0;
    bool all = true;
    for (auto k : r.keys)
      if (!k.empty()) all &= has(words, k), ++n;
    if (all && n > best_keys) best = &r, best_keys = n;
  }
  return best;
}

std::string fill(std::string_view pattern, std::string_view word) { return fmt::format(fmt::runtime(pattern), word); }

std::string format_ptx(uint16_t v) { return fmt::format("{}.{}", v / 10, v % 10); }

bool arch_specific_target(const Capabilities& caps) {
  const char last = caps.target_name.empty() ? '\0' : caps.target_name.back();
  return last == 'a' || last == 'f';
}

bool check_target(const SyncRow& r, std::string_view first, const Capabilities& caps, std::string& message) {
  const std::string feature = fill(r.feature, first);
  const char* kind = r.gate == Gate::modifier ? "Modifier" : "Feature";
  const bool target_ok = caps.sm >= r.sm && (!r.arch_specific || arch_specific_target(caps));
  const bool ptx_ok = caps.ptx >= r.ptx;
  if (!ptx_ok && (target_ok || (r.order & kPtxFirst))) {
    message = fmt::format("{} '{}' requires PTX ISA .version {} or later", kind, feature, format_ptx(r.ptx));
    return false;
  }
  if (!target_ok) {
    message = r.gate == Gate::instruction
                  ? fmt::format("Instruction '{}' not supported on .target '{}'", feature, caps.target_name)
                  : fmt::format("{} '{}' requires .target sm_{} or higher", kind, feature, r.sm);
    return false;
  }
  return true;
}

bool known_word(std::string_view w) {
  for (const SyncRow& r : kRows) {
    if (std::find(r.keys.begin(), r.keys.end(), w) != r.keys.end()) return true;
    for (const Group& g : r.groups)
      if (std::find(g.words.begin(), g.words.end(), w) != g.words.end()) return true;
  }
  return false;
}

bool type_word(std::string_view w) {
  return w.size() >= 3 && (w[1] == 'u' || w[1] == 's' || w[1] == 'b' || w[1] == 'f') && w[2] >= '1' && w[2] <= '9';
}

// The groups ptxas judges before the target: present, and no other type
// where the group is a type.
bool check_early_groups(const SyncRow& r, const std::vector<std::string_view>& words, std::string_view first,
                        std::string& message) {
  for (const Group& g : r.groups) {
    if (!g.early) continue;
    bool present = false, foreign_type = false;
    for (size_t k = 1; k < words.size(); ++k) {
      const bool in = std::find(g.words.begin(), g.words.end(), words[k]) != g.words.end();
      present |= in;
      foreign_type |= !in && type_word(g.words[0]) && type_word(words[k]);
    }
    if (!present || foreign_type) {
      message = fill(g.missing, first);
      return false;
    }
  }
  return true;
}

// Each word after the opcode and the keys in one group, each group at most
// once, the required ones present.
bool check_groups(const SyncRow& r, const std::vector<std::string_view>& words, std::string_view first,
                  std::string& message) {
  std::array<std::string_view, 5> seen{};
  size_t dst_at = 0, src_at = 0;  // where the state spaces stand (kSpacesInOrder)
  const std::string name = fill(r.name, first);
  for (size_t k = 1; k < words.size(); ++k) {
    const std::string_view w = words[k];
    if (std::find(r.keys.begin(), r.keys.end(), w) != r.keys.end()) {
      if (!(r.order & kKeysLead) || (k - 1 < r.keys.size() && r.keys[k - 1] == w)) continue;
      message = fmt::format("Unknown modifier '{}'", w);
      return false;
    }
    size_t g = 0;
    while (g < r.groups.size() &&
           (w.empty() || std::find(r.groups[g].words.begin(), r.groups[g].words.end(), w) == r.groups[g].words.end()))
      ++g;
    if (g == r.groups.size()) {
      message = !known_word(w)      ? fmt::format("Unknown modifier '{}'", w)
                : r.illegal.empty() ? fmt::format("Illegal modifier '{}' for instruction '{}'", w, name)
                                    : fill(r.illegal, w);
      return false;
    }
    if (!seen[g].empty()) {
      message = fmt::format("Modifier '{}' cannot be combined with modifier '{}'", seen[g], w);
      return false;
    }
    seen[g] = w;
    if (g == 1) dst_at = k;
    if (g == 2) src_at = k;
  }
  // ptxas counts the state spaces before it asks for the cache operator.
  static constexpr size_t kUsual[] = {0, 1, 2, 3, 4}, kSpacesFirst[] = {1, 2, 0, 3, 4};
  for (size_t g : (r.order & kSpacesInOrder) ? kSpacesFirst : kUsual) {
    if (!seen[g].empty() || r.groups[g].missing.empty()) continue;
    message = fill(r.groups[g].missing, seen[0]);
    return false;
  }
  if ((r.order & kSpacesInOrder) && src_at < dst_at) {
    message = fmt::format("State space incorrect for instruction '{}'", name);
    return false;
  }
  return true;
}

// cp.async [dst], [src], size{, src-size}{, cache-policy}: the policy (a
// 64-bit register) only with .L2::cache_hint; `values`: the size's too.
bool check_cp_async(const Statement& st, std::string_view cache, const RegisterTable* regs, bool values,
                    std::string& message) {
  const bool hint = st.mnemonic.text.find(".L2::cache_hint") != std::string_view::npos;
  const unsigned n = st.num_operands;
  const auto wide = [&](unsigned k) {
    const auto reg = regs ? regs->lookup(st.operands[k].text) : std::nullopt;
    return reg && reg->bits == 64;
  };
  if (n == 5 && !hint) {
    message = ".L2::cache_hint modifier required for instruction 'cp.async' with 5 arguments";
    return false;
  }
  const bool kinds = n >= (hint ? 4u : 3u) && n <= 5 && st.forms[0] == OperandForm::address &&
                     st.forms[1] == OperandForm::address &&
                     classify_literal(st.operands[2].text) == LiteralKind::integer && (hint || n < 4 || !wide(3));
  if (!kinds) {
    message = "Arguments mismatch for instruction 'cp.async'";
    return false;
  }
  if (!values) return true;
  const std::string size(st.operands[2].text);
  const unsigned long bytes = std::strtoul(size.c_str(), nullptr, 0);
  const bool ok = cache == ".cg" ? bytes == 16 : bytes == 4 || bytes == 8 || bytes == 16;
  if (!ok)
    message = fmt::format("Argument 2 of instruction 'cp.async': unexpected value '{}', expected to be {}", size,
                          cache == ".cg" ? "16" : "4 or 8 or 16");
  return ok;
}

bool check_operands(const SyncRow& r, const Statement& st, std::string_view first, const RegisterTable* regs,
                    bool values, std::string& message) {
  const std::string name = fill(r.name, first);
  switch (r.operands) {
    case Operands::none:
      if (st.num_operands == 0) return true;
      break;
    case Operands::elect: {  // d|p, membermask
      if (st.num_operands != 2) break;
      if (st.forms[0] == OperandForm::pair) return true;
      const auto reg = regs ? regs->lookup(st.operands[0].text) : std::nullopt;
      if (st.forms[0] != OperandForm::plain || (reg && reg->kind == RegKind::predicate)) break;
      message = "Predicate output expected for instruction 'elect'";
      return false;
    }
    case Operands::setmaxnreg: {  // a register count: a multiple of 8 in [24, 256]
      if (st.num_operands != 1 || classify_literal(st.operands[0].text) != LiteralKind::integer) break;
      const std::string text(st.operands[0].text);
      const unsigned long n = std::strtoul(text.c_str(), nullptr, 0);
      if (n % 8 == 0 && n >= 24 && n <= 256) return true;
      message = fmt::format("Argument 1 of instruction '{}': unexpected value '{}', expected to be multiple of 8", name,
                            text);
      return false;
    }
    case Operands::immediate:
      if (st.num_operands == 1 && classify_literal(st.operands[0].text) == LiteralKind::integer) return true;
      break;
    case Operands::address:
      if (st.num_operands == 1 && st.forms[0] == OperandForm::address) return true;
      break;
    case Operands::cp_async: return check_cp_async(st, first, regs, values, message);
    case Operands::tensormap: {  // .release: none; .acquire: [a], size
      const unsigned want = first == ".acquire" ? 2 : 0;
      if (st.num_operands == want) return want == 0 || st.forms[0] == OperandForm::address;
      message = fmt::format("{} modifier required for instruction 'fence.proxy' with {} arguments", first, want);
      return false;
    }
  }
  message = fmt::format("Arguments mismatch for instruction '{}'", name);
  return false;
}

// What ptxas calls a statement no row takes: the opcode and the key after it.
std::string unknown_name(const std::vector<std::string_view>& words) {
  std::string name(words[0]);
  if (words.size() > 1)
    for (const SyncRow& r : kRows)
      if (r.opcode == words[0] && r.keys[0] == words[1]) return name + std::string(words[1]);
  return name;
}

bool judge(const SyncRow& r, const std::vector<std::string_view>& words, const Statement& st, const Capabilities& caps,
           const RegisterTable* regs, std::string& message) {
  std::string_view first;
  for (size_t k = 1; k < words.size() && first.empty(); ++k)
    for (auto w : r.groups[0].words)
      if (!w.empty() && w == words[k]) first = w;
  if (!check_early_groups(r, words, first, message)) return false;
  if ((r.order & kOperandsFirst) && !check_operands(r, st, first, regs, false, message)) return false;
  // A gate named by the first group's word needs that word first.
  if (fill(r.feature, first).empty() && !check_groups(r, words, first, message)) return false;
  if (!check_target(r, first, caps, message)) return false;
  // cp.async's size before its state spaces, once the cache operator is known
  if (r.operands == Operands::cp_async && !first.empty() && !check_operands(r, st, first, regs, true, message))
    return false;
  const std::string name = fill(r.name, first);
  for (const WordGate& g : kWordGates) {
    if (g.name != name || !has(words, g.word)) continue;
    if (caps.sm < g.sm) message = g.target_message;
    if (caps.sm >= g.sm && caps.ptx < g.ptx) message = g.ptx_message;
    if (!message.empty()) return false;
  }
  return check_groups(r, words, first, message) && check_operands(r, st, first, regs, true, message);
}

}  // namespace

bool is_sync_statement(const Statement& st) {
  const std::string_view m = st.mnemonic.text;
  for (std::string_view op : {"fence", "membar", "elect", "setmaxnreg", "griddepcontrol"})
    if (m == op || (m.size() > op.size() && m.substr(0, op.size()) == op && m[op.size()] == '.')) return true;
  if (m == "cp.async" || (m.rfind("cp.async.", 0) == 0 && m.rfind("cp.async.bulk", 0) != 0)) return true;
  return m == "barrier.cluster" || m.rfind("barrier.cluster.", 0) == 0;
}

bool check_sync_statement(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err) {
  const auto words = mnemonic_words(st.mnemonic.text);
  std::string message;
  const SyncRow* r = select_row(words);
  if (r == nullptr) {
    message = fmt::format("Not a name of any known instruction: '{}'", unknown_name(words));
  } else if (judge(*r, words, st, caps, regs, message)) {
    return true;
  }
  err = {st.mnemonic.column, message, st.mnemonic.line};
  return false;
}

std::vector<std::string_view> mnemonic_words(std::string_view mnemonic) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start < mnemonic.size()) {
    const size_t dot = mnemonic.find('.', start + 1);
    out.push_back(mnemonic.substr(start, dot == std::string_view::npos ? dot : dot - start));
    start = dot == std::string_view::npos ? mnemonic.size() : dot;
  }
  return out;
}

}  // namespace ptxfu::isa
