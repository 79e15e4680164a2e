// Register declarations of a PTX file (.reg lines) and operand checks of a
// statement against its decoded form.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "isa/statement.h"

namespace ptxfu::isa {

class RegisterTable {
 public:
  // Parses the part of a `.reg` directive after ".reg": ".b32 %r<8>, %x".
  bool declare(std::string_view text, unsigned column, Diagnostic& err);
  // Width in bits of a declared register (1 for .pred).
  std::optional<unsigned> width(std::string_view name) const;

 private:
  std::unordered_map<std::string, unsigned> names_;
  std::unordered_map<std::string, std::pair<unsigned, unsigned>> ranges_;  // prefix -> (count, width)
};

// Width in bits of a .reg type name without the dot; nullopt if unknown.
std::optional<unsigned> reg_type_bits(std::string_view type);

// Checks the statement's operands (destination first) against the form:
// register widths where `regs` knows them, and which immediates are allowed.
bool check_operands(const Instr& in, const Statement& st, const RegisterTable* regs, Diagnostic& err);

}  // namespace ptxfu::isa
