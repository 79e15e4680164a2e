#include "models/unit_base.h"

#include "exec/execute.h"

namespace ptxfu::models {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

namespace {

// The delay from now until `t`, never negative.
sc_time until(const sc_time& t) {
  const sc_time& now = sc_time_stamp();
  return t > now ? t - now : sc_core::SC_ZERO_TIME;
}

}  // namespace

UnitBase::UnitBase(sc_core::sc_module_name name, Unit kind, bool trace, bool loosely_timed)
    : sc_module(name),
      socket("socket"),
      busy("busy"),
      in_flight("in_flight"),
      kind_(kind),
      trace_(trace),
      loosely_timed_(loosely_timed),
      responses_("responses") {
  socket.register_b_transport(this, &UnitBase::b_transport);
  socket.register_nb_transport_fw(this, &UnitBase::nb_transport_fw);
  SC_HAS_PROCESS(UnitBase);
  SC_METHOD(respond);
  sensitive << responses_.get_event();
  dont_initialize();
  SC_METHOD(update_trace);
  sensitive << trace_event_;
  dont_initialize();
}

bool UnitBase::execute(WarpOp&, tlm::tlm_generic_payload&) { return true; }

// Both styles: the unit starts the instruction on arrival (the dispatcher
// only sends when the unit is free) and is busy for its occupancy.
bool UnitBase::accept(tlm::tlm_generic_payload& trans, WarpOp& op, uint64_t arrival_cycle) {
  occupancy_.start(op, arrival_cycle, op.timing.occupancy(), latency(op));
  const bool done = execute(op, trans);
  if (trace_) {
    trace(op.issue_cycle, 1, 1);
    trace(op.free_cycle, -1, 0);
    if (done) trace(op.done_cycle, 0, -1);
  }
  return done;
}

void UnitBase::finish(tlm::tlm_generic_payload& trans, uint64_t done_cycle) {
  WarpOp& op = op_of(trans);
  Occupancy::finish(op, done_cycle);
  if (trace_) trace(op.done_cycle, 0, -1);
  responses_.notify(trans, until(at_cycle(op.done_cycle)));
}

void UnitBase::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  if (!loosely_timed_) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    SC_REPORT_ERROR(name(), "this unit needs the approximately-timed style (nb_transport)");
    return;
  }
  WarpOp& op = op_of(trans);
  const uint64_t arrival = to_cycles(sc_time_stamp() + delay);
  if (!accept(trans, op, arrival)) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    SC_REPORT_ERROR(name(), "a result left for later in b_transport");
    return;
  }
  delay += at_cycle(op.done_cycle - arrival);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

tlm::tlm_sync_enum UnitBase::nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_time& delay) {
  if (phase == tlm::END_RESP) return tlm::TLM_COMPLETED;
  if (phase != tlm::BEGIN_REQ) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return tlm::TLM_COMPLETED;
  }
  WarpOp& op = op_of(trans);
  const uint64_t now = to_cycles(sc_time_stamp());
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  if (accept(trans, op, now + to_cycles(delay))) responses_.notify(trans, until(at_cycle(op.done_cycle)));
  // The request phase lasts while the unit is occupied: END_REQ is the
  // backpressure that tells the dispatcher when it may send the next one.
  phase = tlm::END_REQ;
  delay = at_cycle(op.free_cycle - now);
  return tlm::TLM_UPDATED;
}

void UnitBase::respond() {
  while (tlm::tlm_generic_payload* trans = responses_.get_next_transaction()) {
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_time delay = sc_core::SC_ZERO_TIME;
    socket->nb_transport_bw(*trans, phase, delay);  // the initiator answers END_RESP on the forward path
  }
}

void UnitBase::trace(uint64_t cycle, int busy_delta, int flight_delta) {
  trace_changes_.insert({cycle, {busy_delta, flight_delta}});
  trace_event_.notify(until(at_cycle(trace_changes_.begin()->first)));
}

void UnitBase::update_trace() {
  const uint64_t now = to_cycles(sc_time_stamp());
  while (!trace_changes_.empty() && trace_changes_.begin()->first <= now) {
    busy_depth_ += trace_changes_.begin()->second.busy_delta;
    flight_ = static_cast<uint32_t>(static_cast<int>(flight_) + trace_changes_.begin()->second.flight_delta);
    trace_changes_.erase(trace_changes_.begin());
  }
  busy.write(busy_depth_ > 0);
  in_flight.write(flight_);
  if (!trace_changes_.empty()) trace_event_.notify(until(at_cycle(trace_changes_.begin()->first)));
}

}  // namespace ptxfu::models
