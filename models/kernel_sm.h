// One SM running a whole PTX kernel: CTAs launched as the config's limits
// allow, warps spread over the sub-partitions, each sub-partition issuing
// from its warps by the config's policy onto its units through TLM-2.0.
//
// Execution is functional-first, as in GPGPU-Sim: when a warp-instruction
// issues, kernel::step computes its effect on every active lane with the
// exact core, and the unit it is sent to decides only when its results may
// be used (the configured latency, a memory access's latency by state space).
// A register scoreboard holds dependent instructions back; branches hold
// their warp until they resolve; bar.sync holds a warp until its CTA's
// last warp arrives.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/kernel.h"
#include "models/config.h"

namespace ptxfu::models {

// Loosely timed: b_transport with temporal decoupling (fast); approximately
// timed: nb_transport with four phases (a clocked unit such as the RTL can
// answer). The issue decisions are the same, so both give the same cycles.
enum class TimingStyle { loosely_timed, approximately_timed };

// One warp-instruction's issue, recorded when asked for (Kanata, bench --form).
struct IssueRecord {
  uint64_t id;
  uint32_t warp, pc;
  Unit unit;
  uint64_t issue_cycle, free_cycle, done_cycle;
};

// Why a warp did not issue in a cycle. Per instruction (the profile) every
// resident warp that did not issue counts one cycle of its reason; per
// sub-partition a cycle without any issue counts the reason of its most
// advanced warp (pipe_busy before dependency before the others).
enum class WarpStall : uint8_t {
  pipe_busy,     // ready, but its unit is occupied
  dependency,    // waits for a register written by an arithmetic instruction
  memory,        // waits for a register written by a load, atomic or shuffle
  control,       // its last branch, call or return has not resolved
  barrier,       // waits at bar.sync for the other warps of its CTA
  not_selected,  // ready, but another warp of its sub-partition issued
  idle,          // (sub-partition only) no resident warp
  kCount
};
inline constexpr std::string_view kWarpStallNames[] = {"pipe_busy", "dependency",   "memory", "control",
                                                       "barrier",   "not_selected", "idle"};
static_assert(std::size(kWarpStallNames) == static_cast<size_t>(WarpStall::kCount));

// What one PTX instruction did over the whole run.
struct LineProfile {
  Unit unit = Unit::alu;       // the unit it runs on
  bool constant_bank = false;  // none: a constant-bank read (kernel::reads_constant_bank)
  uint64_t warp_instructions = 0;
  uint64_t active_lanes = 0;  // summed over its warp-instructions (the SIMT stack's lanes, guard aside)
  std::array<uint64_t, static_cast<size_t>(WarpStall::kCount)> stalls{};  // warp-cycles spent waiting to issue it
  uint64_t stall_total() const;
};

// How many CTAs of the kernel the SM holds at once, and what limits it.
struct Residency {
  unsigned ctas = 0;  // resident CTAs at most
  std::string limit;  // "max_ctas", "max_warps", "shared memory", "registers" or "grid"
  unsigned warps_per_cta = 0;
  unsigned registers_per_thread = 0;
  uint64_t shared_per_cta = 0;  // bytes, with the driver's reserve
};

// The residency the config allows for `launch` of `k`, each CTA using
// `registers_per_thread` registers per thread. Throws ConfigError when one
// CTA does not fit at all.
Residency residency(const ArchConfig& config, const kernel::Kernel& k, const kernel::Launch& launch,
                    unsigned registers_per_thread);

// The 32-bit registers per thread a kernel is assumed to use: the most
// registers of its entry live at once (a liveness analysis of the PTX
// registers; 64-bit ones count twice, predicates not at all), at most 255.
// ptxas allocates after its own optimisations, so this is an estimate;
// `--regs-per-thread` replaces it.
unsigned estimated_registers(const kernel::Kernel& k);

}  // namespace ptxfu::models
