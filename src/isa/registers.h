// Register declarations of a PTX file (.reg lines) and operand checks of a
// statement against its decoded form.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

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

class RegisterTable {
 public:
  // Parses the part of a `.reg` directive after ".reg": ".b32 %r<8>, %x".
  bool declare(std::string_view text, unsigned column, Diagnostic& err);
  std::optional<RegType> lookup(std::string_view name) const;

 private:
  std::unordered_map<std::string, RegType> names_;
  std::unordered_map<std::string, std::pair<unsigned, RegType>> ranges_;  // prefix -> (count, type)
};

// A .reg type name without the dot; nullopt if unknown.
std::optional<RegType> reg_type(std::string_view type);

// Checks the statement's operands (destination first) against the form:
// register widths where `regs` knows them, and which immediates are allowed.
bool check_operands(const Instr& in, const Statement& st, const RegisterTable* regs, Diagnostic& err);

}  // namespace ptxfu::isa
