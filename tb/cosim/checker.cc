#include "cosim/checker.h"

#include <cstdio>
#include <sstream>

namespace ptxfu::cosim {

Checker::Checker(Unit& unit, Golden golden, const Form& form, uint64_t seed, double stall_rate)
    : unit_(unit), golden_(std::move(golden)), form_(form), rng_(seed ^ 0x5eedc0517ull),
      stall_rate_(stall_rate),
      lane_mask_(form.lanes == 2 ? 0xffffffffu : 0xffffu),
      tag_mask_(unit.tag_bits() >= 32 ? 0xffffffffu : (1u << unit.tag_bits()) - 1) {}

std::string eval_line(const Form& form, const Vector& v) {
  std::string s = form.mnemonic;
  char buf[16];
  for (unsigned i = 0; i < form.num_src; ++i) {
    if (form.lanes == 2) std::snprintf(buf, sizeof buf, " 0x%08x", v.src[i]);
    else std::snprintf(buf, sizeof buf, " 0x%04x", v.src[i] & 0xffffu);
    s += buf;
  }
  return s;
}

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
  b.tag = static_cast<uint32_t>(issued_) & tag_mask_;
  return b;
}

void Checker::record(const Pending& p, uint32_t got, const std::string& what) {
  ++mismatch_count_;
  if (first_.size() < kKeep) {
    Mismatch m;
    m.vector = p.vector;
    m.expected = p.expected;
    m.got = got;
    m.issued = p.issued;
    m.arrived = unit_.cycles() - 1;   // the cycle that just ended
    m.what = what;
    first_.push_back(m);
  }
}

void Checker::retire(const Response& r) {
  if (pending_.empty()) {
    Pending ghost{Vector{}, 0, 0, 0};
    record(ghost, r.result, "output without a request");
    return;
  }
  const Pending p = pending_.front();
  pending_.pop_front();
  ++checked_;
  const uint64_t arrived = unit_.cycles() - 1;   // the cycle that just ended
  const uint32_t got = r.result & lane_mask_;
  if ((r.tag & tag_mask_) != p.tag) {
    record(p, got, "tag " + std::to_string(r.tag & tag_mask_) + " instead of " + std::to_string(p.tag));
  } else if (got != p.expected) {
    std::string lanes;
    for (unsigned l = 0; l < form_.lanes; ++l)
      if (lane(got, l) != lane(p.expected, l)) lanes += (lanes.empty() ? "lane " : ",") + std::to_string(l);
    record(p, got, "value (" + lanes + ")");
  } else if (stalled_ == 0 ? arrived != p.issued + unit_.latency()
                           : arrived < p.issued + unit_.latency()) {
    record(p, got, "latency " + std::to_string(arrived - p.issued) + " cycles, configured " +
                       std::to_string(unit_.latency()));
  }
}

void Checker::tick(const Beat* in, bool& accepted) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const bool out_ready = stall_rate_ <= 0.0 || u(rng_) >= stall_rate_;
  if (!out_ready) ++stalled_;
  Response r;
  bool out_valid = false;
  accepted = unit_.cycle(in, out_ready, r, out_valid);
  if (out_valid) retire(r);
}

bool Checker::step(const Vector& v) {
  uint64_t src[3] = {v.src[0], v.src[1], v.src[2]};
  if (form_.lanes == 1)
    for (auto& s : src) s &= 0xffffu;
  Pending p;
  p.vector = v;
  p.expected = static_cast<uint32_t>(golden_(form_.instr, src)) & lane_mask_;
  const Beat beat = beat_of(v);
  p.tag = beat.tag;

  if (stall_rate_ > 0.0) {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    while (u(rng_) < stall_rate_) {  // input bubbles
      bool dummy;
      ++stalled_;
      tick(nullptr, dummy);
    }
  }
  // A zero-stage unit can return the beat in the cycle it is accepted, so it
  // is queued before the cycle and taken back if the unit was not ready.
  for (;;) {
    p.issued = unit_.cycles();
    pending_.push_back(p);
    bool accepted = false;
    tick(&beat, accepted);
    if (accepted) break;
    pending_.pop_back();
    ++stalled_;
  }
  ++issued_;
  return mismatch_count_ == 0;
}

bool Checker::finish() {
  const uint64_t limit = unit_.cycles() + 16 * (unit_.latency() + 1) + 10000;
  while (!pending_.empty() && unit_.cycles() < limit) {
    bool dummy;
    tick(nullptr, dummy);
  }
  while (!pending_.empty()) {
    record(pending_.front(), 0, "missing: no result within the drain limit");
    pending_.pop_front();
  }
  return mismatch_count_ == 0;
}

std::string Checker::errors(unsigned max_reported) const {
  std::ostringstream os;
  char buf[96];
  const char* fmt = form_.lanes == 2 ? "0x%08x" : "0x%04x";
  unsigned shown = 0;
  for (const Mismatch& m : first_) {
    if (shown == max_reported) break;
    ++shown;
    os << eval_line(m.vector) << "\n";
    std::string exp(16, '\0'), got(16, '\0');
    std::snprintf(buf, sizeof buf, fmt, m.expected);
    exp = buf;
    std::snprintf(buf, sizeof buf, fmt, m.got);
    got = buf;
    os << "# expected " << exp << " got " << got << ": " << m.what << "; issued in cycle "
       << m.issued << ", arrived in cycle " << m.arrived << "\n";
  }
  if (mismatch_count_ > shown) {
    os << "# " << (mismatch_count_ - shown) << " further mismatch(es) not shown ("
       << mismatch_count_ << " in all)\n";
  }
  return os.str();
}

}  // namespace ptxfu::cosim
