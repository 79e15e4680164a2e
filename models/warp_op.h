// The payload of one warp instruction on its way through a unit: the form,
// 32 lanes of operands and results, and the timing the unit reports back.
// It travels as an extension of a tlm_generic_payload (WarpOpExtension).
#pragma once
#include <cstdint>
#include <cstdlib>
#include <vector>

#include <systemc>
#include <tlm>

#include "kernel/kernel.h"
#include "models/config.h"

namespace ptxfu::models {

inline constexpr unsigned kWarpSize = 32;
inline const sc_core::sc_time kCycle(1, sc_core::SC_NS);  // the model counts in cycles of 1 ns

// A kernel's memory instruction, for the load/store unit's latency.
struct MemoryAccess {
  bool is_access = false;  // false: not a memory access (a fence takes the unit's latency)
  kernel::Space space = kernel::Space::global;
  bool atomic = false;
  bool remote = false;  // shared: some lane reached a peer CTA's shared memory (.shared::cluster)
};

struct WarpOp {
  // kernel::step executed the instruction at issue; units time it. With
  // --rtl-half, `rtl_form` is the form an RTL unit computes again from `src`
  // (the operands the executor read) and checks; nullptr: timed only.
  const isa::Instr* rtl_form = nullptr;
  MemoryAccess access;  // lsu only
  uint32_t warp = 0;
  uint32_t pc = 0;
  uint32_t active_mask = 0xffffffffu;
  uint64_t src[4][kWarpSize] = {};  // rtl_form: per source operand, per lane (the executors' layout)
  Timing timing;                    // resolved by the dispatcher from the config
  // Filled by the unit, in cycles since the start of the simulation.
  uint64_t issue_cycle = 0;
  uint64_t free_cycle = 0;  // the unit accepts its next instruction then
  uint64_t done_cycle = 0;  // the result may be consumed then
};

// Cycles and times in integers (the time's value in units of the
// resolution): no floating point, no rounding, on every issue.
inline uint64_t to_cycles(const sc_core::sc_time& t) { return t.value() / kCycle.value(); }
// The first cycles from a table: sc_time makes a time from its value only
// out of line, and every issue asks for one or two short delays.
inline sc_core::sc_time at_cycle(uint64_t n) {
  constexpr uint64_t kTabled = 1024;
  static const std::vector<sc_core::sc_time> tabled = [] {
    std::vector<sc_core::sc_time> v;
    for (uint64_t i = 0; i < kTabled; ++i) v.push_back(sc_core::sc_time::from_value(i * kCycle.value()));
    return v;
  }();
  return n < kTabled ? tabled[n] : sc_core::sc_time::from_value(n * kCycle.value());
}

// A warp instruction on a generic payload. The payload's command is
// TLM_IGNORE_COMMAND with no data: what to do is in the extension, as the
// TLM-2.0 standard provides for commands that are not reads or writes.
struct WarpOpExtension : tlm::tlm_extension<WarpOpExtension> {
  WarpOp op;
  tlm::tlm_extension_base* clone() const override { return new WarpOpExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override { op = static_cast<const WarpOpExtension&>(other).op; }
};

// A dispatcher's pooled payload: a generic payload that owns its warp
// instruction (an extension it frees with itself), with the phases seen.
struct WarpOpPayload : tlm::tlm_generic_payload {
  WarpOpPayload() : ext(new WarpOpExtension) {
    set_extension(ext);
    set_command(tlm::TLM_IGNORE_COMMAND);
  }
  WarpOp& op() { return ext->op; }
  WarpOpExtension* ext;
  bool request_ended = false;  // END_REQ seen
  bool responded = false;      // BEGIN_RESP seen
};

// The warp instruction a generic payload carries; a payload without one is a
// wiring error.
inline WarpOp& op_of(tlm::tlm_generic_payload& trans) {
  WarpOpExtension* e = trans.get_extension<WarpOpExtension>();
  if (!e) {
    SC_REPORT_FATAL("ptxfu/warp_op", "a transaction without a WarpOpExtension reached an execution unit");
    std::abort();  // whatever the report handler's actions are
  }
  return e->op;
}

// A unit's books. An instruction arriving at `arrival` starts when the unit
// is free and holds it for its occupancy; its result is due `latency` cycles
// after the start. The latency is per instruction, not per unit: a memory
// access's depends on the state space and on a hit or a miss, and a clocked
// implementation (the RTL) or a memory system may only know it when the
// result is out (finish()). Results may so come out in another order than
// the instructions went in. Every unit implementation keeps its books here.
struct Occupancy {
  uint64_t busy_until = 0;
  uint64_t busy_cycles = 0;
  uint64_t warp_instructions = 0;

  void start(WarpOp& op, uint64_t arrival, unsigned occupancy, unsigned latency) {
    const uint64_t start = arrival > busy_until ? arrival : busy_until;
    busy_until = start + occupancy;
    op.issue_cycle = start;
    op.free_cycle = busy_until;
    op.done_cycle = start + latency;
    busy_cycles += occupancy;
    ++warp_instructions;
  }
  // With the configured timing of the form.
  void start(WarpOp& op, uint64_t arrival) { start(op, arrival, op.timing.occupancy(), op.timing.latency); }
  // The result of a started instruction is out at `done` (not before its
  // start), whatever latency start() expected.
  static void finish(WarpOp& op, uint64_t done) { op.done_cycle = done > op.issue_cycle ? done : op.issue_cycle; }
};

}  // namespace ptxfu::models
