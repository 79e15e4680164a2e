#include "isa/async_forms.h"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace ptxfu::isa {
namespace {

using Words = std::vector<std::string_view>;

// Judges a row's own rule that its data cannot say (a word that needs an
// operand, an operand that needs a target); true when it holds.
struct Ctx;
using Hook = bool (*)(const Ctx&, std::string& message);

enum Flags : uint8_t {
  kPtxFirst = 1,      // the PTX version's message before the target's
  kInstruction = 2,   // the target's message is "Instruction 'X' not supported on .target 'sm_NN'"
  kArchSpecific = 4,  // only the 'a' and 'f' targets
};

// One instruction form. `groups`: "class=.w1 .w2; class!=.w3" (a '!' marks
// a required group; words of a group exclude each other). `operands`:
// patterns separated by ';', each operand a set of kinds (see kinds_fit):
// q 64-bit register, w 32-bit, h 16-bit, p predicate, i integer immediate,
// a address, x [handle, {coordinates}], v vector, _ the sink.
// `messages`: "class=text; .word=text" for words of a class the row does
// not take ({0}: the word, {1}: the name); `rules`: "a>b=text": a word of
// class a needs one of class b.
struct Row {
  std::string_view prefix, name, groups, operands;
  uint16_t sm = 0, ptx = 0;
  uint8_t flags = 0;
  std::string_view messages = {}, rules = {};
  Hook hook = nullptr;
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

constexpr std::string_view kMbSem = "sem=.release .relaxed; scope=.cta .cluster; ";
constexpr std::string_view kMbSpace = "space=.shared .shared::cta .shared::cluster; type!=.b64";
constexpr std::string_view kMbRules =
    "scope>sem=Modifier '{0}' requires order with '{1}' instruction; "
    "sem>scope=Modifier '{0}' requires scope with '{1}' instruction";
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
    {"mbarrier.arrive", "mbarrier.arrive", kMbArrive, "q_,a;q_,a,wi", 80, 70, kPtxFirst, kSpaceWrong, kMbRules, arrive_rules},
    {"mbarrier.arrive_drop", "mbarrier.arrive_drop", kMbArrive, "q_,a;q_,a,wi", 80, 70, kPtxFirst, kSpaceWrong, kMbRules,
     arrive_rules},
    {"mbarrier.arrive.expect_tx", "mbarrier.arrive.expect_tx", kMbArriveTx, "q_,a,wi", 90, 80, kPtxFirst, kSpaceWrong,
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
    {".shared::cta", "", 0, 78, "Feature '::cta'"},
    {".shared::cluster", "", 90, 80, "Feature '.shared::cluster'"},
    {".cluster", "", 90, 78, "Feature '.cluster scope'"},
    {".release", "mbarrier", 0, 80, "Modifier '{0}' on '{1}'"},
    {".acquire", "mbarrier", 0, 80, "Modifier '{0}' on '{1}'"},
    {".relaxed", "mbarrier.arrive", 90, 86, "Modifier '{0}' on '{1}'", true},
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
  std::vector<std::string_view> prefix;
  std::vector<Group> groups;
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

Words words_of(std::string_view mnemonic) {
  Words out;
  size_t start = 0;
  while (start < mnemonic.size()) {
    const size_t dot = mnemonic.find('.', start + 1);
    out.push_back(mnemonic.substr(start, dot == std::string_view::npos ? dot : dot - start));
    start = dot == std::string_view::npos ? mnemonic.size() : dot;
  }
  return out;
}

const std::vector<ParsedRow>& parsed_rows() {
  static const std::vector<ParsedRow> rows = [] {
    std::vector<ParsedRow> out;
    for (const Row& r : kRows) {
      ParsedRow p{&r, words_of(r.prefix), {}};
      for (std::string_view g : split(r.groups, ';')) {
        const size_t eq = g.find('=');
        Group group{trim(g.substr(0, eq)), split(g.substr(eq + 1), ' ')};
        if (!group.cls.empty() && group.cls.back() == '!') group.cls.remove_suffix(1), group.required = true;
        p.groups.push_back(std::move(group));
      }
      out.push_back(std::move(p));
    }
    return out;
  }();
  return rows;
}

// Words ptxas knows in every instruction, by class, beyond those the rows take.
constexpr std::string_view kVocabulary[][2] = {
    {"type",
     ".b8 .b16 .b32 .b64 .b128 .u8 .u16 .u32 .u64 .s8 .s16 .s32 .s64 .f16 .f16x2 .bf16 .bf16x2 .f32 .f64 .pred"},
    {"space", ".global .shared .local .const .param .shared::cta .shared::cluster"},
    {"sem", ".relaxed .acquire .release .acq_rel .sc .weak .volatile"},
    {"scope", ".cta .cluster .gpu .sys"},
};

// The class of a word some row takes, or empty.
std::string_view class_of(std::string_view w) {
  for (const auto& [cls, words] : kVocabulary) {
    const size_t at = words.find(w);
    if (at != std::string_view::npos && (at + w.size() == words.size() || words[at + w.size()] == ' ')) return cls;
  }
  for (const ParsedRow& p : parsed_rows())
    for (const Group& g : p.groups)
      if (std::find(g.words.begin(), g.words.end(), w) != g.words.end()) return g.cls;
  return {};
}

// The row whose prefix is longest among those the mnemonic starts with.
const ParsedRow* select_row(const Words& words) {
  const ParsedRow* best = nullptr;
  for (const ParsedRow& p : parsed_rows()) {
    if (p.prefix.size() > words.size() || !std::equal(p.prefix.begin(), p.prefix.end(), words.begin())) continue;
    if (!best || p.prefix.size() > best->prefix.size()) best = &p;
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

std::string fill(std::string_view pattern, std::string_view word, std::string_view name) {
  return fmt::format(fmt::runtime(pattern), word, name);
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
        if (form == OperandForm::indexed) return true;
        break;
      case 'v':
        if (form == OperandForm::vector) return true;
        break;
      case '_':
        if (form == OperandForm::plain && text == "_") return true;
        break;
      case 'i':
        if (form == OperandForm::plain && classify_literal(text) == LiteralKind::integer) return true;
        break;
      default: {
        if (form != OperandForm::plain) break;
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

bool operands_fit(const Row& r, const Statement& st, const RegisterTable* regs) {
  for (std::string_view pattern : split(r.operands, ';')) {
    const auto kinds = split(pattern, ',');
    if (kinds.size() != st.num_operands) continue;
    bool ok = true;
    for (unsigned k = 0; k < st.num_operands && ok; ++k) ok = operand_fits(st, k, kinds[k], regs);
    if (ok) return true;
  }
  return r.operands.empty() && st.num_operands == 0;
}

std::string format_ptx(uint16_t v) { return fmt::format("{}.{}", v / 10, v % 10); }

bool arch_specific_target(const Capabilities& caps) {
  const char last = caps.target_name.empty() ? '\0' : caps.target_name.back();
  return last == 'a' || last == 'f';
}

bool check_gate(const Row& r, const Capabilities& caps, std::string& message) {
  const bool target_ok = caps.sm >= r.sm && (!(r.flags & kArchSpecific) || arch_specific_target(caps));
  const bool ptx_ok = caps.ptx >= r.ptx;
  if (!ptx_ok && (target_ok || (r.flags & kPtxFirst))) {
    message = fmt::format("Feature '{}' requires PTX ISA .version {} or later", r.name, format_ptx(r.ptx));
    return false;
  }
  if (target_ok) return true;
  message = (r.flags & kInstruction)
                ? fmt::format("Instruction '{}' not supported on .target '{}'", r.name, caps.target_name)
                : fmt::format("Feature '{}' requires .target sm_{} or higher", r.name, r.sm);
  return false;
}

// Which group of the row takes `w`, or -1.
int group_of(const ParsedRow& p, std::string_view w) {
  for (size_t g = 0; g < p.groups.size(); ++g)
    if (std::find(p.groups[g].words.begin(), p.groups[g].words.end(), w) != p.groups[g].words.end())
      return static_cast<int>(g);
  return -1;
}

// The gates of the words the row takes, in the table's order (ptxas's).
bool check_word_gates(const ParsedRow& p, const Words& words, const Capabilities& caps, std::string& message) {
  const Row& r = *p.row;
  for (const WordGate& g : kWordGates)
    for (std::string_view w : words) {
      if (g.word != w || r.name.rfind(g.only, 0) != 0 || group_of(p, w) < 0) continue;
      const std::string subject = fill(g.subject, w, r.name);
      const std::string ptx = fmt::format("{} requires PTX ISA .version {} or later", subject, format_ptx(g.ptx));
      const std::string target = fmt::format("{} requires .target sm_{} or higher", subject, g.sm);
      if (caps.sm < g.sm && (g.target_first || caps.ptx >= g.ptx))
        message = target;
      else if (caps.ptx < g.ptx)
        message = ptx;
      if (!message.empty()) return false;
    }
  return true;
}

// Words no row knows, and the types: what ptxas judges before the target.
bool check_words_early(const ParsedRow& p, const Words& words, std::string& message) {
  for (std::string_view w : words)
    if (class_of(w).empty()) {
      message = fmt::format("Unknown modifier '{}'", w);
      return false;
    }
  for (const Group& g : p.groups) {
    if (g.cls != "type") continue;
    int n = 0;
    for (std::string_view w : words) n += class_of(w) == "type";
    bool all_in = true;
    for (std::string_view w : words)
      if (class_of(w) == "type") all_in &= std::find(g.words.begin(), g.words.end(), w) != g.words.end();
    if ((g.required && n == 0) || !all_in || n > 1) {
      message = fmt::format("Unexpected instruction types specified for '{}'", p.row->name);
      return false;
    }
  }
  return true;
}

// Words of a class the row does not take, two of one group, a required
// group missing, and the rules between classes.
bool check_words(const ParsedRow& p, const Words& words, std::string& message) {
  const Row& r = *p.row;
  std::vector<std::string_view> seen(p.groups.size());
  for (std::string_view w : words) {
    const int g = group_of(p, w);
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

bool judge(const ParsedRow& p, const Words& words, const Statement& st, const Capabilities& caps,
           const RegisterTable* regs, std::string& message) {
  const Row& r = *p.row;
  if (!check_words_early(p, words, message)) return false;
  if (!operands_fit(r, st, regs)) {
    message = fmt::format("Arguments mismatch for instruction '{}'", r.name);
    return false;
  }
  if (!check_gate(r, caps, message) || !check_word_gates(p, words, caps, message)) return false;
  if (r.hook != nullptr && !r.hook(Ctx{r, st, words, caps, regs}, message)) return false;
  return check_words(p, words, message);
}

}  // namespace

bool is_async_statement(const Statement& st) {
  const std::string_view m = st.mnemonic.text;
  for (std::string_view op : {"mbarrier"})
    if (m == op || (m.size() > op.size() && m.substr(0, op.size()) == op && m[op.size()] == '.')) return true;
  return false;
}

bool check_async_statement(const Statement& st, const Capabilities& caps, const RegisterTable* regs, Diagnostic& err) {
  const Words all = words_of(st.mnemonic.text);
  std::string message;
  const ParsedRow* p = select_row(all);
  if (p == nullptr) {
    message = fmt::format("Not a name of any known instruction: '{}'", all[0]);
    for (size_t k = 1; k < all.size(); ++k)
      if (class_of(all[k]).empty()) {
        message = fmt::format("Unknown modifier '{}'", all[k]);
        break;
      }
  } else {
    const Words words(all.begin() + static_cast<std::ptrdiff_t>(p->prefix.size()), all.end());
    if (judge(*p, words, st, caps, regs, message)) return true;
  }
  err = {st.mnemonic.column, message, st.mnemonic.line};
  return false;
}

}  // namespace ptxfu::isa
