#include "cosim/checker.h"

namespace ptxfu::cosim {

Checker::Checker(Unit& unit, Golden golden, const Form& form, uint64_t seed, double stall_rate)
    : unit_(unit),
      golden_(std::move(golden)),
      form_(form),
      board_(unit.tag_bits()),
      rng_(seed ^ 0x5eedc0517ull),
      stall_rate_(stall_rate),
      lane_mask_(lane_mask(form)) {}

// Ports from the PTX operands; ports the form does not read, and lane 1 of a
// scalar form, get random bits: the unit must ignore them.
Beat Checker::beat_of(const Vector& v) {
  Beat b;
  b.ctrl = form_.ctrl;
  const uint64_t filler = rng_();
  b.a = static_cast<uint32_t>(filler);
  b.b = static_cast<uint32_t>(filler >> 32);
  b.c = static_cast<uint32_t>(rng_());
  for (unsigned i = 0; i < form_.num_src; ++i) {
    uint32_t* port = form_.port[i] == Port::a ? &b.a : form_.port[i] == Port::b ? &b.b : &b.c;
    *port = (*port & ~lane_mask_) | (v.src[i] & lane_mask_);
  }
  b.tag = static_cast<uint32_t>(issued_);
  return b;
}

void Checker::tick(const Beat* in, bool& accepted) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const bool out_ready = stall_rate_ <= 0.0 || u(rng_) >= stall_rate_;
  Response r;
  bool out_valid = false;
  accepted = unit_.cycle(in, out_ready, r, out_valid);
  if (out_valid) board_.arrive(r.tag, unit_.cycles() - 1, &r.result);  // the cycle that just ended
}

bool Checker::step(const Vector& v) {
  const uint64_t src[3] = {v.src[0] & lane_mask_, v.src[1] & lane_mask_, v.src[2] & lane_mask_};
  return step(v, static_cast<uint32_t>(golden_(form_.instr, src)));
}

bool Checker::step(const Vector& v, uint32_t expected) {
  ExpectedThread thread;
  for (unsigned k = 0; k < 3; ++k) thread.src[k] = v.src[k] & lane_mask_;
  thread.expected = expected;
  Expected e;
  e.form = &form_;
  e.latency = unit_.latency();
  e.at_least = stall_rate_ > 0.0;  // bubbles and backpressure only delay
  const Beat beat = beat_of(v);
  e.tag = beat.tag;

  if (stall_rate_ > 0.0) {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    while (u(rng_) < stall_rate_) {  // input bubbles
      bool dummy;
      tick(nullptr, dummy);
    }
  }
  // A zero-stage unit can return the beat in the cycle it is accepted, so it
  // is expected before the cycle and withdrawn if the unit was not ready.
  for (;;) {
    e.issued = unit_.cycles();
    board_.issue(e, &thread);
    bool accepted = false;
    tick(&beat, accepted);
    if (accepted) break;
    board_.withdraw();
  }
  ++issued_;
  return board_.beats_failed() == 0;
}

bool Checker::finish() {
  const uint64_t limit = unit_.cycles() + 16 * (unit_.latency() + 1) + 10000;
  while (board_.pending() != 0 && unit_.cycles() < limit) {
    bool dummy;
    tick(nullptr, dummy);
  }
  while (board_.pending() != 0) board_.give_up(unit_.cycles(), "no result within the drain limit");
  return board_.beats_failed() == 0;
}

}  // namespace ptxfu::cosim
