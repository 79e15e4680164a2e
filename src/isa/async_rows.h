// What the async rows (async_rows_copy.cc, async_rows_memory.cc,
// async_rows_texture.cc: data and their hooks) and the matcher that reads
// them (async_forms.cc) share. Internal to src/isa; not installed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "isa/decode.h"
#include "isa/registers.h"
#include "isa/statement.h"

namespace ptxfu::isa::async_rows {

using Words = std::vector<std::string_view>;

// Judges a row's own rule that its data cannot say (a word that needs an
// operand, an operand that needs a target); true when it holds.
struct Ctx;
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
// patterns separated by ';', each operand a set of kinds (see operand_fits):
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

// One family's rows, in the order the matcher meets them (among rows of one
// prefix, the first whose state spaces fit wins).
struct RowSpan {
  const Row* first;
  const Row* last;
  const Row* begin() const { return first; }
  const Row* end() const { return last; }
};
RowSpan copy_rows();     // mbarrier, bulk and tensor copies and reductions, tensormap.replace
RowSpan memory_rows();   // ld/st, multimem, st.async/red.async, createpolicy, prefetch, applypriority, discard
RowSpan texture_rows();  // tex, tld4, txq, suq, suld, sust, sured

inline constexpr std::string_view kSpaceWrong = "space=State space incorrect for instruction '{1}'";

// For the hooks (defined in async_forms.cc).
std::string_view trim(std::string_view s);
// The class of a word some row takes, or empty.
std::string_view class_of(std::string_view w);
// "{c, ...}" of "[handle, {c, ...}]".
std::string_view coordinates(std::string_view indexed);
// How many operands the qualifiers that each add one at the end add.
unsigned extra_operands(const Ctx& c);
// Sets ptxas's "Arguments mismatch" message; false.
bool mismatch(const Ctx& c, std::string& message);
// Whether `w` is one of the space-separated words of `list`.
bool listed(std::string_view list, std::string_view w);
// The first of the statement's words that is among `among`, or empty.
std::string_view first_of(const Ctx& c, std::initializer_list<std::string_view> among);

}  // namespace ptxfu::isa::async_rows
