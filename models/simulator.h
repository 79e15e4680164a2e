// Runs programs on modelled SMs. SystemC elaborates once per process, so
// every simulation a process needs is described up front and run together.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "models/config.h"
#include "models/program.h"
#include "models/sub_partition.h"

namespace ptxfu::models {

struct SimJob {
  const ArchConfig* config = nullptr;
  const Program* program = nullptr;
  unsigned warps = 1;
  TimingStyle style = TimingStyle::loosely_timed;
  uint64_t quantum_cycles = 10000;
  std::string vcd_path;     // pipe occupancy waveforms (sc_trace), empty: none
  std::string kanata_path;  // pipeline log for the Konata viewer, empty: none
};

struct UnitStats {
  uint64_t busy_cycles = 0;       // summed over sub-partitions
  double utilisation = 0;         // busy / (cycles * sub-partitions)
  uint64_t warp_instructions = 0;
};

struct SimResult {
  uint64_t cycles = 0;
  uint64_t warp_instructions = 0;
  double ipc = 0;  // warp-instructions per cycle, whole SM
  std::array<UnitStats, static_cast<size_t>(Unit::kCount)> units{};
  std::array<uint64_t, static_cast<size_t>(Stall::kCount)> stalls{};  // issue-less sub-partition cycles
  std::vector<std::vector<uint64_t>> warp0_registers;  // [register][lane]
  double host_seconds = 0;
};

// Validates a job before elaboration (warp count against the config, ...);
// throws ConfigError with a clear message.
void validate(const SimJob& job);

// Elaborates every job as an independent SM, runs them together and returns
// one result per job. May be called once per process.
std::vector<SimResult> simulate(const std::vector<SimJob>& jobs);

}  // namespace ptxfu::models
