// Runs kernels and straight-line programs on modelled SMs. The jobs of one
// simulate() are elaborated together and run side by side; simulate() may be
// called again and again in one process, with any configs.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "kernel/kernel.h"
#include "kernel/racecheck.h"
#include "models/config.h"
#include "models/kernel_sm.h"
#include "models/rtl_cosim_stats.h"

namespace ptxfu::models {

struct SimJob {
  const ArchConfig* config = nullptr;
  // What runs: a kernel launch, or a straight-line program
  // (kernel::load_straight_line) as one CTA of `threads` threads.
  const kernel::Kernel* kernel = nullptr;
  kernel::Launch launch;                // a kernel's grid, block, arguments, dynamic shared memory
  unsigned registers_per_thread = 0;    // 0 is estimated_registers()
  uint64_t max_cycles = 1'000'000'000;  // a run that has not ended by then is an error
  // A straight-line program's CTA: `warps` warps of `threads` threads (0:
  // warps * 32; otherwise the last warp has threads - (warps - 1) * 32
  // lanes and the others are inactive).
  unsigned warps = 1;
  unsigned threads = 0;
  bool all_registers = false;  // straight-line: report every warp's registers (SimResult::registers), not only warp 0's
  TimingStyle style = TimingStyle::loosely_timed;
  uint64_t quantum_cycles = 10000;
  std::string vcd_path;        // pipe occupancy waveforms (sc_trace), empty: none
  std::string kanata_path;     // pipeline log for the Konata viewer, empty: none
  bool record_issues = false;  // SimResult::issues (bench --form measures issue-to-issue distances)
  // In-model RTL co-simulation (models/rtl_half_unit.h): every sub-partition's
  // FMA unit runs the half-precision forms on the verilated rtl_ref HFMA2 and
  // checks them. Approximately timed only. rtl_stages 0: the configured
  // latency of fma.rn.f16x2; rtl_broken: the PTXFU_BREAK_ROUNDING copy (tests).
  bool rtl_half = false;
  unsigned rtl_stages = 0;
  bool rtl_broken = false;
  // The tensor core's blocks on the verilated block FMA
  // (models/rtl_tensor_check.h): every block the engine computes for an
  // mma or wmma.mma is computed again by the RTL model of its numerics
  // row's parameters and compared. Either timing style. rtl_tensor_broken:
  // the PTXFU_BREAK_ALIGNMENT copy (tests; sm_80's f16 -> f32 block only).
  bool rtl_tensor = false;
  bool rtl_tensor_broken = false;
  // Memory that outlives the launch (a host API's device memory and module
  // variables): buffers placed by their owner, away from what make_memory
  // places. simulate() moves them into the launch's memory, where the kernel
  // reads and writes them in place, and back into these vectors however it
  // leaves; SimResult::memory holds the rest.
  std::vector<std::vector<kernel::Buffer>*> lent_buffers;
  // `ptxfu sim --racecheck` (kernel/racecheck.h): watch shared memory for
  // hazards between warps and cp.async destinations used before their wait
  // (SimResult::races). Off: the issue path tests one null pointer.
  bool racecheck = false;
};

struct UnitStats {
  uint64_t busy_cycles = 0;  // summed over sub-partitions
  double utilisation = 0;    // busy / (cycles * sub-partitions)
  uint64_t warp_instructions = 0;
};

struct SimResult {
  uint64_t cycles = 0;
  uint64_t warp_instructions = 0;
  double ipc = 0;  // warp-instructions per cycle, whole SM
  std::array<UnitStats, static_cast<size_t>(Unit::kCount)> units{};
  std::array<uint64_t, static_cast<size_t>(WarpStall::kCount)> stalls{};  // issue-less sub-partition cycles
  double host_seconds = 0;
  uint64_t simulated_cycles = 0;    // SystemC's time when the simulation ended, in cycles (every job's)
  std::vector<IssueRecord> issues;  // every warp-instruction's issue, if record_issues (issue order)
  bool rtl_half = false;            // the job ran with the RTL in the loop
  RtlCosimStats rtl_cosim;          // summed over sub-partitions
  bool rtl_tensor = false;          // the job ran with the block FMA RTL checking the tensor core
  RtlTensorStats rtl_tensor_cosim;
  bool ok = true;  // false: `error` says why the kernel stopped (a fault, the cycle limit, a deadlock)
  std::string error;
  uint64_t ctas = 0;  // CTAs run to completion
  Residency residency;
  kernel::Memory memory;           // the buffers after the run
  std::vector<LineProfile> lines;  // per kernel instruction
  // A straight-line program's registers at its end, by the entry's register
  // slots (Function::reg_names): warp 0's, and every warp's if all_registers.
  std::vector<std::vector<uint64_t>> warp0_registers;         // [register][lane]
  std::vector<std::vector<std::vector<uint64_t>>> registers;  // [warp][register][lane]
  bool racecheck = false;                                     // the job ran with the race checker
  kernel::RaceReport races;                                   // what it found (racecheck)
};

// The threads of the job's CTA.
inline unsigned cta_threads(const SimJob& job) { return job.threads ? job.threads : job.warps * 32; }

// Validates a job before elaboration (warp count against the config, ...);
// throws ConfigError with a clear message.
void validate(const SimJob& job);
// A straight-line program's CTA (SimJob::warps, SimJob::threads) against the config.
void validate_warps(const ArchConfig& config, unsigned warps, unsigned threads);

// The NUM_STAGES the job's RTL co-simulation uses (rtl_stages, or the
// configured latency of fma.rn.f16x2).
unsigned rtl_stages_for(const SimJob& job);

// Elaborates every job as an independent SM, runs them together and returns
// one result per job. Each call has a SystemC context of its own; calls from
// several threads run one at a time.
std::vector<SimResult> simulate(const std::vector<SimJob>& jobs);

}  // namespace ptxfu::models
