// The FMA unit of a sub-partition with the reference half-precision RTL
// (rtl_ref/ptxfu_hfma2.sv, verilated as SystemC) in the loop: the same
// target socket and approximately-timed protocol as ExecUnit, so the
// dispatcher cannot tell them apart. Half-precision add/sub/mul/fma forms the
// RTL implements (f16, f16x2, bf16, bf16x2 with .ftz .sat .relu .oob, round to
// nearest even; the mapping is tb/cosim/form.cc's) run on the RTL; every other
// form falls back to the exact core with the configured timing, exactly as in
// ExecUnit.
//
// One verilated instance per thread of the warp (32, each two 16-bit lanes):
// the whole warp enters in the cycle the instruction is accepted, so the
// cycles from acceptance to the RTL's out_valid are directly comparable with
// the configured latency (which counts from the start of the instruction).
// BEGIN_RESP is sent when the RTL's results are out, and the RTL's results
// are what the warp's registers receive. A lockstep scoreboard compares every
// active thread with exec::execute_lanes and the RTL latency with the
// configured one.
//
// Clocking: a clock of period kCycle (posedge at k + 1/2) that runs only while
// beats are queued or in flight (clock gating: an empty pipe has no state to
// advance), so a simulation still ends when no events remain. Within cycle k
// the inputs are driven at k + 1/4, sampled by the RTL at k + 1/2, outputs
// read at k + 3/4 and BEGIN_RESP sent at k + 1. NUM_STAGES >= 1 only.
//
// Only the approximately-timed style: b_transport cannot wait for a clocked
// RTL, and answers TLM_GENERIC_ERROR_RESPONSE (validate() rejects LT jobs).
#pragma once
#include <array>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "models/rtl_cosim_stats.h"
#include "models/rtl_half_pipe.h"
#include "models/warp_op.h"

namespace ptxfu::cosim {
struct Form;
}

namespace ptxfu::models {

class RtlHalfUnit : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<RtlHalfUnit> socket;  // the same socket as ExecUnit's

  // Throws ConfigError when this build has no model with `stages`.
  RtlHalfUnit(sc_core::sc_module_name name, unsigned stages, bool broken);
  ~RtlHalfUnit() override;

  Unit unit_kind() const { return Unit::fma; }
  uint64_t busy_cycles() const { return occupancy_.busy_cycles; }
  uint64_t warp_instructions() const { return occupancy_.warp_instructions; }
  const RtlCosimStats& stats() const { return stats_; }

 private:
  struct Slot {
    tlm::tlm_generic_payload* trans = nullptr;
    const cosim::Form* form = nullptr;
    uint64_t accept_cycle = 0;
    uint64_t golden[kWarpSize] = {};
  };

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  const cosim::Form* rtl_form(const ProgramInstr& pi);
  void clock();  // the gated clock, input drive and output sampling
  void drive(uint64_t cycle);
  void sample(uint64_t cycle);
  void watchdog(uint64_t cycle);
  void respond();  // BEGIN_RESP

  HalfPipeShared shared_;
  std::vector<std::unique_ptr<HalfPipeLane>> lanes_;
  std::vector<std::unique_ptr<sc_core::sc_module>> pipes_;
  std::map<const ProgramInstr*, std::unique_ptr<cosim::Form>> forms_;  // null: not an RTL form
  std::array<Slot, 1u << kHalfPipeTagBits> slots_{};
  uint32_t next_tag_ = 0;
  std::deque<uint32_t> queued_;     // tags accepted, not yet driven
  std::deque<uint32_t> in_flight_;  // tags driven, not yet out, oldest first
  // An instruction the RTL has not answered this many cycles after
  // acceptance is completed with the core's results and reported.
  static constexpr uint64_t kWatchdogCycles = 64;
  sc_core::sc_event work_;
  Occupancy occupancy_;
  RtlCosimStats stats_;
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> responses_;
};

}  // namespace ptxfu::models
