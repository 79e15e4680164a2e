// The FMA unit of a sub-partition with the reference half-precision RTL
// (rtl_ref/ptxfu_hfma2.sv, verilated as SystemC) in the loop: a UnitBase like
// ExecUnit, with the same socket, protocol, books and trace signals, so the
// dispatcher cannot tell them apart. Half-precision add/sub/mul/fma forms the
// RTL implements (f16, f16x2, bf16, bf16x2 with .ftz .sat .relu .oob, round to
// nearest even; the mapping is cosim/rtl_form.h's, fed with the decoded
// instruction) run on the RTL; every other
// form falls back to the exact core with the configured timing, exactly as in
// ExecUnit.
//
// One verilated instance per thread of the warp (32, each two 16-bit lanes):
// the whole warp enters in the cycle the instruction is accepted, so the
// cycles from acceptance to the RTL's out_valid are directly comparable with
// the configured latency (which counts from the start of the instruction).
// The RTL's results are out when it says so (UnitBase::finish, BEGIN_RESP
// then), and they are what the warp's registers receive. The co-simulation's
// one scoreboard (cosim/scoreboard.h) compares every active thread with
// exec::execute_lanes and the RTL latency with the configured one.
//
// Clocking: a clock of period kCycle (posedge at k + 1/2) that runs only while
// beats are queued or in flight (clock gating: an empty pipe has no state to
// advance), so a simulation still ends when no events remain. Within cycle k
// the inputs are driven at k + 1/4, sampled by the RTL at k + 1/2, outputs
// read at k + 3/4 and BEGIN_RESP sent at k + 1. NUM_STAGES >= 1 only.
//
// Only the approximately-timed style: b_transport cannot wait for a clocked
// RTL, and UnitBase answers it with TLM_GENERIC_ERROR_RESPONSE (validate()
// rejects LT jobs).
#pragma once
#include <array>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include <systemc>
#include <tlm>

#include "cosim/rtl_form.h"
#include "cosim/scoreboard.h"
#include "models/rtl_cosim_stats.h"
#include "models/rtl_half_pipe.h"
#include "models/unit_base.h"

namespace ptxfu::models {

class RtlHalfUnit final : public UnitBase {
 public:
  // Throws ConfigError when this build has no model with `stages`.
  RtlHalfUnit(sc_core::sc_module_name name, unsigned stages, bool broken, bool trace);
  ~RtlHalfUnit() override;

  // What the scoreboard saw, with the unit's own protocol reports.
  RtlCosimStats stats() const;

 private:
  struct Slot {
    tlm::tlm_generic_payload* trans = nullptr;
    const cosim::Form* form = nullptr;
    uint64_t accept_cycle = 0;
    uint64_t golden[kWarpSize] = {};  // the core's results, should the RTL not answer
  };

  // Half-precision forms go to the RTL (finished when it answers), the rest
  // to the exact core.
  bool execute(WarpOp& op, tlm::tlm_generic_payload& trans) override;
  // The RTL form of a decoded instruction; null when the RTL does not run it.
  const cosim::Form* rtl_form(const isa::Instr& instr);
  void clock();  // the gated clock, input drive and output sampling
  void drive(uint64_t cycle);
  void sample(uint64_t cycle);
  void watchdog(uint64_t cycle);

  HalfPipeShared shared_;
  std::vector<std::unique_ptr<HalfPipeLane>> lanes_;
  std::vector<std::unique_ptr<sc_core::sc_module>> pipes_;
  std::map<const isa::Instr*, std::unique_ptr<cosim::Form>> forms_;  // null: not an RTL form
  std::array<Slot, 1u << kHalfPipeTagBits> slots_{};
  uint32_t next_tag_ = 0;
  std::deque<uint32_t> queued_;  // tags accepted, not yet driven
  // An instruction the RTL has not answered this many cycles after
  // acceptance is completed with the core's results and reported.
  static constexpr uint64_t kWatchdogCycles = 64;
  sc_core::sc_event work_;
  cosim::Scoreboard board_{kHalfPipeTagBits};  // the beats driven, not yet out, oldest first
  RtlCosimStats protocol_;                     // handshake errors the scoreboard cannot see
};

}  // namespace ptxfu::models
