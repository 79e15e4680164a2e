// Register declarations of a PTX file (.reg lines) and operand checks of a
// statement against its decoded form.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "isa/statement.h"

namespace ptxfu::isa {

// What kind of value a register was declared for: bit-size types (.b32)
// fit any operand of their width, integer types integer operands, float
// types float operands.
enum class RegKind : uint8_t { bits, integer, floating, predicate };

struct RegType {
  unsigned bits;
  RegKind kind;
};

// Registers in nested scopes: a `{ }` block may declare names that hide
// outer ones and vanish at its end, as in PTX.
class RegisterTable {
 public:
  RegisterTable() : frames_(1) {}
  // Parses the part of a `.reg` directive after ".reg": ".b32 %r<8>, %x".
  bool declare(std::string_view text, unsigned column, Diagnostic& err);
  // Declares `name` (or name0..name<count-1> when count > 0) in the innermost
  // scope; false if that scope already has it.
  bool declare(std::string_view name, unsigned count, RegType type);
  std::optional<RegType> lookup(std::string_view name) const;
  void push_scope() { frames_.emplace_back(); }
  void pop_scope() {
    if (frames_.size() > 1) frames_.pop_back();
  }

 private:
  struct Frame {
    std::unordered_map<std::string, RegType> names;
    std::unordered_map<std::string, std::pair<unsigned, RegType>> ranges;  // prefix -> (count, type)
  };
  std::vector<Frame> frames_;
};

// A .reg type name without the dot; nullopt if unknown.
std::optional<RegType> reg_type(std::string_view type);

// Checks the statement's operands (destination first) against the form:
// register widths where `regs` knows them, and which immediates are allowed.
bool check_operands(const Instr& in, const Statement& st, const RegisterTable* regs, Diagnostic& err);

}  // namespace ptxfu::isa
