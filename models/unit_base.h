// What every execution unit of a sub-partition shares: the TLM-2.0 target
// socket and both protocols, the occupancy books, the results of the exact
// core and the VCD signals. A unit (the C++ pipe, the RTL in the loop, later
// a load/store or a branch unit) is a subclass that says how long an
// instruction takes and how its results are made.
//
// Loosely timed: b_transport takes the instruction at the annotated time and
// adds the cycles until its result to the delay.
// Approximately timed: BEGIN_REQ is answered at once with END_REQ, delayed
// until the unit can take the next instruction (backpressure); BEGIN_RESP
// goes back when the result is out, and the initiator ends it with END_RESP
// on the forward path.
#pragma once
#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_target_socket.h>

#include <map>
#include <systemc>
#include <tlm>

#include "models/warp_op.h"

namespace ptxfu::models {

class UnitBase : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<UnitBase> socket;  // warp instructions in
  // Driven only when tracing (sc_trace, VCD):
  sc_core::sc_signal<bool> busy;           // the unit is occupied
  sc_core::sc_signal<uint32_t> in_flight;  // instructions started whose results are not out

  Unit unit_kind() const { return kind_; }
  uint64_t busy_cycles() const { return occupancy_.busy_cycles; }
  uint64_t warp_instructions() const { return occupancy_.warp_instructions; }

 protected:
  // `loosely_timed`: whether the unit serves b_transport; a unit that only
  // knows when a result is out once it is (finish()) cannot.
  UnitBase(sc_core::sc_module_name name, Unit kind, bool trace, bool loosely_timed);

  // The cycles from the start of `op` to its result when that is known at the
  // start; the default is the configured latency of the form. A subclass
  // may decide it per instruction (a cache hit or miss).
  virtual unsigned latency(const WarpOp& op) const { return op.timing.latency; }
  // Makes the results of `op`, which starts in cycle op.issue_cycle. Returns
  // true when they are in `op` and out at op.done_cycle; false when the
  // subclass calls finish() later (approximately timed only). The default
  // only times it (kernel::step computed it at issue).
  virtual bool execute(WarpOp& op, tlm::tlm_generic_payload& trans);
  // A result that execute() left for later is out at `done_cycle`, not
  // before the current time: BEGIN_RESP then.
  void finish(tlm::tlm_generic_payload& trans, uint64_t done_cycle);

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  bool accept(tlm::tlm_generic_payload& trans, WarpOp& op, uint64_t arrival_cycle);
  void respond();  // AT: BEGIN_RESP
  void trace(uint64_t cycle, int busy_delta, int flight_delta);
  void update_trace();  // applies the occupancy changes due now

  Unit kind_;
  bool trace_;
  bool loosely_timed_;
  Occupancy occupancy_;
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> responses_;
  struct Change {
    int busy_delta;
    int flight_delta;
  };
  std::multimap<uint64_t, Change> trace_changes_;
  sc_core::sc_event trace_event_;
  int busy_depth_ = 0;
  uint32_t flight_ = 0;
};

}  // namespace ptxfu::models
