#include "models/exec_unit.h"

#include "exec/execute.h"

namespace ptxfu::models {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

ExecUnit::ExecUnit(sc_core::sc_module_name name, Unit kind, bool trace)
    : sc_module(name),
      socket("socket"),
      busy("busy"),
      in_flight("in_flight"),
      kind_(kind),
      trace_(trace),
      responses_("responses") {
  socket.register_b_transport(this, &ExecUnit::b_transport);
  socket.register_nb_transport_fw(this, &ExecUnit::nb_transport_fw);
  SC_HAS_PROCESS(ExecUnit);
  SC_METHOD(respond);
  sensitive << responses_.get_event();
  dont_initialize();
  SC_METHOD(update_trace);
  sensitive << trace_event_;
  dont_initialize();
}

void ExecUnit::compute(WarpOp& op) {
  const ProgramInstr& pi = *op.instr;
  if (pi.kind == InstrKind::mov) {
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      if (op.active_mask >> lane & 1) op.result[lane] = op.src[lane][0];
    return;
  }
  exec::execute_lanes(pi.instr, op.src, kWarpSize, op.active_mask, op.carry_in, op.result, op.carry_out);
}

// Timing shared by both styles: the unit starts the instruction on arrival
// (the dispatcher only sends when the unit is free), is busy for its
// occupancy and delivers the result `latency` cycles after the start.
void ExecUnit::accept(WarpOp& op, uint64_t arrival_cycle) {
  occupancy_.start(op, arrival_cycle);
  const uint64_t start = op.issue_cycle;
  compute(op);
  if (trace_) {
    const uint64_t now = to_cycles(sc_time_stamp());
    trace_changes_.insert({start, {1, 1}});
    trace_changes_.insert({op.free_cycle, {-1, 0}});
    trace_changes_.insert({op.done_cycle, {0, -1}});
    trace_event_.notify(
        kCycle * static_cast<double>(trace_changes_.begin()->first - std::min(now, trace_changes_.begin()->first)));
  }
}

void ExecUnit::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  WarpOp& op = op_of(trans);
  const uint64_t arrival = to_cycles(sc_time_stamp() + delay);
  accept(op, arrival);
  delay += kCycle * static_cast<double>(op.done_cycle - arrival);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

tlm::tlm_sync_enum ExecUnit::nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_time& delay) {
  if (phase == tlm::END_RESP) return tlm::TLM_COMPLETED;
  if (phase != tlm::BEGIN_REQ) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return tlm::TLM_COMPLETED;
  }
  WarpOp& op = op_of(trans);
  const uint64_t arrival = to_cycles(sc_time_stamp() + delay);
  accept(op, arrival);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  responses_.notify(trans, kCycle * static_cast<double>(op.done_cycle - to_cycles(sc_time_stamp())));
  // The request phase lasts while the unit is occupied: END_REQ is the
  // backpressure that tells the dispatcher when it may send the next one.
  phase = tlm::END_REQ;
  delay = kCycle * static_cast<double>(op.free_cycle - to_cycles(sc_time_stamp()));
  return tlm::TLM_UPDATED;
}

void ExecUnit::respond() {
  while (tlm::tlm_generic_payload* trans = responses_.get_next_transaction()) {
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_time delay = sc_core::SC_ZERO_TIME;
    socket->nb_transport_bw(*trans, phase, delay);  // the initiator answers END_RESP on the forward path
  }
}

void ExecUnit::update_trace() {
  const uint64_t now = to_cycles(sc_time_stamp());
  while (!trace_changes_.empty() && trace_changes_.begin()->first <= now) {
    busy_depth_ += trace_changes_.begin()->second.busy_delta;
    flight_ = static_cast<uint32_t>(static_cast<int>(flight_) + trace_changes_.begin()->second.flight_delta);
    trace_changes_.erase(trace_changes_.begin());
  }
  busy.write(busy_depth_ > 0);
  in_flight.write(flight_);
  if (!trace_changes_.empty()) trace_event_.notify(kCycle * static_cast<double>(trace_changes_.begin()->first - now));
}

}  // namespace ptxfu::models
