// The payload of one warp instruction on its way through a unit: the form,
// 32 lanes of operands and results, and the timing the unit reports back.
// It travels as the data of a tlm_generic_payload.
#pragma once
#include <cstdint>

#include <systemc>

#include "models/config.h"
#include "models/program.h"

namespace ptxfu::models {

inline constexpr unsigned kWarpSize = 32;
inline const sc_core::sc_time kCycle(1, sc_core::SC_NS);  // the model counts in cycles of 1 ns

struct WarpOp {
  const ProgramInstr* instr = nullptr;
  uint32_t warp = 0;
  uint32_t pc = 0;
  uint32_t active_mask = 0xffffffffu;
  uint64_t src[kWarpSize][4] = {};  // per lane, per source operand
  uint32_t carry_in = 0;            // one bit per lane
  uint64_t result[kWarpSize] = {};
  uint32_t carry_out = 0;
  Timing timing;                    // resolved by the dispatcher from the config
  // Filled by the unit, in cycles since the start of the simulation.
  uint64_t issue_cycle = 0;
  uint64_t free_cycle = 0;  // the unit accepts its next instruction then
  uint64_t done_cycle = 0;  // the result may be consumed then
};

}  // namespace ptxfu::models
