// An independent timing oracle for kernels and straight-line programs: a
// plain cycle-by-cycle scheduler, written apart from models/kernel_sm.cc,
// that steps the functional executor and applies the timing rules the
// README states (residency, slots and sub-partitions, GTO/LRR, issue width,
// the scoreboard with the dependency table, unit occupancy, memory latency
// by state space with the hit share, coalescing and bank conflicts,
// branches and barriers that hold a warp). The kernel tests
// (kernel_timing_oracle_test.cc) and the straight-line ones
// (tb/model/timing_oracle_test.cc) hold the SM model to it.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "kernel/kernel.h"
#include "models/config.h"

namespace ptxfu::kernel::testing {

struct OracleRun {
  uint64_t cycles = ~uint64_t{0};  // never ended (a fault or 5e7 cycles): all ones
  uint64_t warp_instructions = 0;
  std::array<uint64_t, models::kNumUnits> busy{};  // occupancy cycles per unit
  // Every warp's registers when its CTA retired, in retirement order (for a
  // straight-line program: warp order); %clock reads hold their issue cycles.
  std::vector<std::vector<uint64_t>> warp_registers;
};

OracleRun run_oracle(const models::ArchConfig& c, const Kernel& k, const Launch& l);

}  // namespace ptxfu::kernel::testing
