// The generic matcher of the async rows (async_rows.h): it parses each row's
// data once, picks the row a statement names and judges the statement's
// words, gates and operands against it in ptxas's order.
#include "isa/async_forms.h"
#include "isa/async_rows.h"
#include "isa/sync_forms.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

namespace ptxfu::isa {
namespace async_rows {

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
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

bool mismatch(const Ctx& c, std::string& message) {
  message = fmt::format("Arguments mismatch for instruction '{}'", c.row.name);
  return false;
}

bool listed(std::string_view list, std::string_view w) {
  for (size_t at = list.find(w); at != std::string_view::npos; at = list.find(w, at + 1))
    if ((at + w.size() == list.size() || list[at + w.size()] == ' ') && (at == 0 || list[at - 1] == ' ')) return true;
  return false;
}

std::string_view first_of(const Ctx& c, std::initializer_list<std::string_view> among) {
  for (std::string_view w : c.words)
    if (std::find(among.begin(), among.end(), w) != among.end()) return w;
  return {};
}

namespace {

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
    for (RowSpan family : {copy_rows(), memory_rows(), texture_rows()})
      for (const Row& r : family) {
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

}  // namespace

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

namespace {

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
}  // namespace async_rows

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
  using namespace async_rows;
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
