#include "models/rtl_half_unit.h"

#include <fmt/format.h>

#include "exec/execute.h"

namespace ptxfu::models {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

namespace {

std::string join(const std::vector<unsigned>& v) {
  std::string s;
  for (unsigned x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s.empty() ? "none" : s;
}

}  // namespace

RtlHalfUnit::RtlHalfUnit(sc_core::sc_module_name name, unsigned stages, bool broken, bool trace)
    : UnitBase(name, Unit::fma, trace, false) {
  for (unsigned t = 0; t < kWarpSize; ++t) {
    lanes_.push_back(std::make_unique<HalfPipeLane>());
    const std::string n = fmt::format("thread{}", t);
    pipes_.push_back(make_hfma2_pipe(n.c_str(), stages, broken, shared_, *lanes_.back()));
    if (!pipes_.back())
      throw ConfigError(fmt::format("this build has no {}HFMA2 RTL model with NUM_STAGES={} (it has: {})",
                                    broken ? "broken " : "", stages, join(hfma2_pipe_stages(broken))));
  }
  if (stages == 0) throw ConfigError("the in-model RTL co-simulation needs NUM_STAGES >= 1");
  shared_.out_ready.write(true);
  SC_HAS_PROCESS(RtlHalfUnit);
  SC_THREAD(clock);
}

RtlHalfUnit::~RtlHalfUnit() = default;

const cosim::Form* RtlHalfUnit::rtl_form(const isa::Instr& instr) {
  auto it = forms_.find(&instr);
  if (it != forms_.end()) return it->second.get();
  auto form = std::make_unique<cosim::Form>();
  std::string error;
  if (!cosim::make_form(instr, *form, error) || form->unit != cosim::UnitKind::hfma2) form.reset();
  return forms_.emplace(&instr, std::move(form)).first->second.get();
}

RtlCosimStats RtlHalfUnit::stats() const {
  RtlCosimStats s;
  s.instructions = board_.beats_checked() + board_.beats_missing();
  s.lanes_checked = board_.threads_checked();
  s.mismatches = board_.value_mismatches();
  s.latency_mismatches = board_.timing_mismatches();
  for (const cosim::Mismatch& m : board_.first_mismatches()) s.report(cosim::Scoreboard::report(m));
  s.merge(protocol_);
  return s;
}

bool RtlHalfUnit::execute(WarpOp& op, tlm::tlm_generic_payload& trans) {
  const cosim::Form* form = op.rtl_form ? rtl_form(*op.rtl_form) : nullptr;
  if (!form) return true;  // not a form of the HFMA2: timed only
  // To the RTL: the exact core's answer is kept for the scoreboard.
  const uint32_t tag = next_tag_;
  next_tag_ = (next_tag_ + 1) % slots_.size();
  Slot& s = slots_[tag];
  s.trans = &trans;
  s.form = form;
  s.accept_cycle = op.issue_cycle;
  uint32_t carry = 0;
  const uint64_t* sources[] = {op.src[0], op.src[1], op.src[2], op.src[3]};
  exec::execute_lanes(*op.rtl_form, sources, kWarpSize, op.active_mask, 0, s.golden, carry);
  queued_.push_back(tag);
  work_.notify(sc_core::SC_ZERO_TIME);
  return false;
}

void RtlHalfUnit::clock() {
  // Reset pulse before the first cycle's drive point (k + 1/4).
  const sc_time q = kCycle / 4;
  shared_.rst_n.write(false);
  wait(kCycle / 20);
  shared_.clk.write(true);
  wait(kCycle / 20);
  shared_.clk.write(false);
  wait(kCycle / 20);
  shared_.rst_n.write(true);
  for (;;) {
    while (queued_.empty() && board_.pending() == 0) wait(work_);
    // Next drive point: k + 1/4 of the current cycle, or of the next one.
    // A copy on purpose: sc_time_stamp() refers to the kernel's clock, which moves at wait().
    const sc_time now = sc_time_stamp();  // NOLINT(performance-unnecessary-copy-initialization)
    uint64_t k = to_cycles(now);
    if (now > kCycle * static_cast<double>(k) + q) ++k;
    wait(kCycle * static_cast<double>(k) + q - now);
    drive(k);
    wait(q);
    shared_.clk.write(true);  // posedge at k + 1/2: the RTL takes the beat
    wait(q);
    sample(k);  // k + 3/4
    watchdog(k);
    wait(q);
    shared_.clk.write(false);  // k + 1
  }
}

void RtlHalfUnit::drive(uint64_t cycle) {
  if (queued_.empty() || slots_[queued_.front()].accept_cycle > cycle) {
    shared_.in_valid.write(false);
    return;
  }
  const uint32_t tag = queued_.front();
  queued_.pop_front();
  if (!lanes_[0]->in_ready.read()) {  // cannot happen with out_ready_i high: the beat is lost
    ++protocol_.latency_mismatches;
    protocol_.report(fmt::format("# cycle {}: the RTL's in_ready_o is low with out_ready_i high", cycle));
  }
  const Slot& s = slots_[tag];
  const cosim::Form& f = *s.form;
  const WarpOp& op = op_of(*s.trans);
  const uint64_t mask = cosim::lane_mask(f);
  cosim::Expected e;  // what the scoreboard waits for
  cosim::ExpectedThread threads[kWarpSize];
  e.form = &f;
  e.tag = tag;
  e.issued = s.accept_cycle;
  e.latency = op.timing.latency;
  e.threads = kWarpSize;
  e.active = static_cast<uint32_t>(op.active_mask);
  e.where = fmt::format("warp {} pc {}", op.warp, op.pc);
  shared_.in_valid.write(true);
  shared_.tag.write(tag);
  shared_.op.write(f.ctrl.op);
  shared_.fmt.write(f.ctrl.bf16);
  shared_.ftz.write(f.ctrl.ftz);
  shared_.sat.write(f.ctrl.sat);
  shared_.relu.write(f.ctrl.relu);
  shared_.oob.write(f.ctrl.oob);
  for (unsigned t = 0; t < kWarpSize; ++t) {
    uint32_t port[3] = {0, 0, 0};
    for (unsigned k = 0; k < f.num_src; ++k)
      port[static_cast<size_t>(f.port[k])] = static_cast<uint32_t>(op.src[k][t] & mask);
    lanes_[t]->a.write(port[0]);
    lanes_[t]->b.write(port[1]);
    lanes_[t]->c.write(port[2]);
    for (unsigned k = 0; k < f.num_src; ++k) threads[t].src[k] = static_cast<uint32_t>(op.src[k][t] & mask);
    threads[t].expected = static_cast<uint32_t>(s.golden[t]);
  }
  board_.issue(e, threads);
}

void RtlHalfUnit::sample(uint64_t cycle) {
  const HalfPipeLane& l0 = *lanes_[0];
  if (!l0.out_valid.read()) return;
  const uint64_t out_cycle = cycle + 1;  // visible from the posedge at k + 1/2
  uint32_t got[kWarpSize];
  for (unsigned t = 0; t < kWarpSize; ++t) {
    const HalfPipeLane& l = *lanes_[t];
    got[t] = l.out_valid.read() ? l.result.read() : ~uint32_t{0};
  }
  const cosim::Expected* e = board_.arrive(l0.tag_out.read(), out_cycle, got);
  if (e == nullptr) return;  // a beat nothing waits for: the scoreboard reports it
  Slot& s = slots_[e->tag];
  finish(*s.trans, out_cycle);  // BEGIN_RESP at k + 1
  s.trans = nullptr;
}

void RtlHalfUnit::watchdog(uint64_t cycle) {
  while (board_.oldest() != nullptr && cycle + 1 - board_.oldest()->issued > kWatchdogCycles) {
    const cosim::Expected* e =
        board_.give_up(cycle + 1, fmt::format("no RTL result after {} cycles (configured {}); the core's is used",
                                              kWatchdogCycles, board_.oldest()->latency));
    Slot& s = slots_[e->tag];
    finish(*s.trans, cycle + 1);
    s.trans = nullptr;
  }
}

}  // namespace ptxfu::models
