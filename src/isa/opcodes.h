// The PTX instructions outside the instruction table (data movement, control
// flow, synchronisation, tensor core, video, ...). `check` reads their
// syntax and resolves their operands; it does not decide their legality,
// but for the tensor-core rows of tensor_forms.h.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace ptxfu::isa {

// Whether `opcode` (the word before the first dot: "ld", "bra") names one of
// them.
bool is_other_instruction(std::string_view opcode);

// Whether `name` is a PTX special register (%tid, %laneid, %clock64, ...),
// with or without a component (%tid.x).
bool is_special_register(std::string_view name);

struct SpecialRegister {
  std::string_view name;
  unsigned bits;             // of the value, or of each component; 1: a predicate
  bool vector;               // read by component (%tid.x); the bare name is a .v4 vector
  uint16_t sm = 0, ptx = 0;  // the target and PTX version it needs (0: any)
};
// The row of a special register (a component, %tid.x, is a scalar row of its
// own); nullopt when `name` is none.
std::optional<SpecialRegister> special_register(std::string_view name);

}  // namespace ptxfu::isa
