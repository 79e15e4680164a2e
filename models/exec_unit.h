// One execution unit (FMA, ALU, FP64 or MUFU pipe) of a sub-partition: a
// TLM-2.0 target. Loosely timed: b_transport annotates the completion time.
// Approximately timed: BEGIN_REQ is answered with END_REQ when the unit can
// accept the next instruction (backpressure), BEGIN_RESP comes at completion
// and the initiator ends it with END_RESP. Another implementation (the RTL
// co-simulation) can stand behind the same socket.
#pragma once
#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "models/warp_op.h"

namespace ptxfu::models {

class ExecUnit : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<ExecUnit> socket;  // warp instructions in

  ExecUnit(sc_core::sc_module_name name, Unit kind, bool trace);

  Unit unit_kind() const { return kind_; }
  uint64_t busy_cycles() const { return occupancy_.busy_cycles; }
  uint64_t warp_instructions() const { return occupancy_.warp_instructions; }
  // Occupancy signals for sc_trace (VCD); driven only when tracing.
  sc_core::sc_signal<bool> busy;
  sc_core::sc_signal<uint32_t> in_flight;

 protected:
  // Computes the active lanes' results; the default runs the exact core.
  virtual void compute(WarpOp& op);

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void accept(WarpOp& op, uint64_t arrival_cycle);
  void respond();       // AT: BEGIN_RESP at completion
  void update_trace();  // applies scheduled occupancy changes

  Unit kind_;
  bool trace_;
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
