// The execution units of a sub-partition, as data: one row per unit. A row's
// name is its key under `units:` in a config, its module name in traces and
// its key in `--json` and in sweep metrics; the config loader, the simulator
// and the command line read the rows and spell no unit themselves.
//
// Which unit runs an instruction of the table is the table's `Pipe` column
// (src/isa/table.cc), mapped to a unit here, row by row.
#pragma once
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>

#include "isa/table.h"

namespace ptxfu::models {

enum class Unit : uint8_t { fma, alu, fp64, mufu, conv, lsu, branch, warp, tensor, kCount };
inline constexpr size_t kNumUnits = static_cast<size_t>(Unit::kCount);

struct UnitRow {
  Unit unit;
  std::string_view name;
};
inline constexpr UnitRow kUnits[] = {
    {Unit::fma, "fma"},    // FP32 add/mul/fma; half precision where `half_precision` names it; IMAD
    {Unit::alu, "alu"},    // INT32 add/logic/shift, compares, min/max; mov
    {Unit::fp64, "fp64"},  // FP64
    {Unit::mufu, "mufu"},  // transcendentals, popc/clz/brev
    {Unit::conv, "conv"},  // conversions where the hardware has a unit of its own (F2F, F2I, I2F, FRND)
    // The units a kernel's other instructions run on (models/kernel_sm.h):
    {Unit::lsu, "lsu"},        // ld/st/atom/red/fence; latency by state space (the config's `memory:`)
    {Unit::branch, "branch"},  // bra/call/ret/exit
    {Unit::warp, "warp"},      // shfl/vote/match/redux/activemask/bar
    {Unit::tensor, "tensor"},  // mma.sync/movmatrix; an mma's occupancy from the config's `tensor:` rates
};

constexpr bool unit_rows_in_order() {
  if (std::size(kUnits) != kNumUnits) return false;
  for (size_t i = 0; i < std::size(kUnits); ++i)
    if (static_cast<size_t>(kUnits[i].unit) != i) return false;
  return true;
}
static_assert(unit_rows_in_order(), "kUnits has one row per Unit, in the enum's order");

constexpr std::string_view name(Unit u) { return kUnits[static_cast<size_t>(u)].name; }

// The unit whose row has `name`; nullopt when none.
constexpr std::optional<Unit> unit_named(std::string_view name) {
  for (const UnitRow& r : kUnits)
    if (r.name == name) return r.unit;
  return std::nullopt;
}

// Which unit runs each class of the instruction table. Pipe::fp16 (the
// half-precision forms) and Pipe::multi (forms that are instruction
// sequences on hardware) have no unit of their own: the config's
// `half_precision` and `multi_instruction` name it, with their lanes and
// latency, and the class stays the form's latency class whatever unit it
// occupies (ArchConfig::pipe_timing).
struct PipeRow {
  isa::Pipe pipe;
  std::optional<Unit> unit;
};
inline constexpr PipeRow kPipeUnits[] = {
    {isa::Pipe::fma, Unit::fma},      {isa::Pipe::alu, Unit::alu},   {isa::Pipe::fp64, Unit::fp64},
    {isa::Pipe::mufu, Unit::mufu},    {isa::Pipe::conv, Unit::conv}, {isa::Pipe::fp16, std::nullopt},
    {isa::Pipe::multi, std::nullopt},
};

constexpr bool every_pipe_has_one_row() {
  for (size_t p = 0; p < static_cast<size_t>(isa::Pipe::kCount); ++p) {
    unsigned rows = 0;
    for (const PipeRow& r : kPipeUnits) rows += static_cast<size_t>(r.pipe) == p;
    if (rows != 1) return false;
  }
  return true;
}
static_assert(every_pipe_has_one_row(), "kPipeUnits maps every isa::Pipe exactly once");

constexpr std::optional<Unit> unit_of(isa::Pipe pipe) {
  for (const PipeRow& r : kPipeUnits)
    if (r.pipe == pipe) return r.unit;
  return std::nullopt;
}

}  // namespace ptxfu::models
