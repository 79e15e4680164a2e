#include "models/rtl_half_unit.h"

#include <algorithm>

#include <fmt/format.h>

#include "exec/execute.h"
#include "isa/forms.h"
#include "models/rtl_form.h"

namespace ptxfu::models {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

namespace {

std::string hex(uint64_t v, unsigned bits) { return fmt::format("0x{:0{}x}", v, bits / 4); }

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

const cosim::Form* RtlHalfUnit::rtl_form(const ProgramInstr& pi) {
  auto it = forms_.find(&pi);
  if (it != forms_.end()) return it->second.get();
  std::unique_ptr<cosim::Form> f;
  if (pi.kind == InstrKind::arithmetic) {
    auto form = std::make_unique<cosim::Form>();
    std::string error;
    if (cosim::make_form(isa::spell(pi.instr), *form, error) && form->unit == cosim::UnitKind::hfma2)
      f = std::move(form);
  }
  return forms_.emplace(&pi, std::move(f)).first->second.get();
}

bool RtlHalfUnit::execute(WarpOp& op, tlm::tlm_generic_payload& trans) {
  const ProgramInstr& pi = *op.instr;
  const cosim::Form* form = rtl_form(pi);
  if (!form) {
    execute_on_core(op);
    return true;
  }
  // To the RTL: the exact core's answer is kept for the scoreboard.
  const uint32_t tag = next_tag_;
  next_tag_ = (next_tag_ + 1) % slots_.size();
  Slot& s = slots_[tag];
  s.trans = &trans;
  s.form = form;
  s.accept_cycle = op.issue_cycle;
  uint32_t carry = 0;
  exec::execute_lanes(pi.instr, op.src, kWarpSize, op.active_mask, op.carry_in, s.golden, carry);
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
    while (queued_.empty() && in_flight_.empty()) wait(work_);
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
  in_flight_.push_back(tag);
  if (!lanes_[0]->in_ready.read()) {  // cannot happen with out_ready_i high: the beat is lost
    ++stats_.latency_mismatches;
    stats_.report(fmt::format("# cycle {}: the RTL's in_ready_o is low with out_ready_i high", cycle));
  }
  const Slot& s = slots_[tag];
  const cosim::Form& f = *s.form;
  const WarpOp& op = op_of(*s.trans);
  const uint64_t mask = f.lanes == 1 ? 0xffffu : 0xffffffffu;
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
      port[static_cast<size_t>(f.port[k])] = static_cast<uint32_t>(op.src[t][k] & mask);
    lanes_[t]->a.write(port[0]);
    lanes_[t]->b.write(port[1]);
    lanes_[t]->c.write(port[2]);
  }
}

void RtlHalfUnit::sample(uint64_t cycle) {
  const HalfPipeLane& l0 = *lanes_[0];
  if (!l0.out_valid.read()) return;
  const uint32_t tag = l0.tag_out.read() % slots_.size();
  Slot& s = slots_[tag];
  const auto it = std::find(in_flight_.begin(), in_flight_.end(), tag);
  if (!s.trans || it == in_flight_.end()) {
    ++stats_.mismatches;
    stats_.report(fmt::format("# cycle {}: the RTL produced a beat (tag {}) nothing is waiting for", cycle + 1, tag));
    return;
  }
  in_flight_.erase(it);
  WarpOp& op = op_of(*s.trans);
  const cosim::Form& f = *s.form;
  const uint64_t mask = f.lanes == 1 ? 0xffffu : 0xffffffffu;
  const unsigned bits = f.lanes * 16;
  for (unsigned t = 0; t < kWarpSize; ++t) {
    if (!(op.active_mask >> t & 1)) continue;
    const HalfPipeLane& l = *lanes_[t];
    const uint64_t rtl = l.out_valid.read() ? (l.result.read() & mask) : ~uint64_t{0};
    op.result[0][t] = rtl;  // the warp gets what the RTL computed
    ++stats_.lanes_checked;
    if (rtl != s.golden[t]) {
      ++stats_.mismatches;
      std::string srcs;
      for (unsigned k = 0; k < f.num_src; ++k) srcs += " " + hex(op.src[t][k] & mask, bits);
      // A comment line, then the instruction as `ptxfu eval` reads it.
      stats_.report(fmt::format("# warp {} pc {} thread {}: rtl {} core {}\n{}{}", op.warp, op.pc, t, hex(rtl, bits),
                                hex(s.golden[t], bits), f.mnemonic, srcs));
    }
  }
  ++stats_.instructions;
  const uint64_t out_cycle = cycle + 1;  // visible from the posedge at k + 1/2
  const uint64_t latency = out_cycle - s.accept_cycle;
  if (latency != op.timing.latency) {
    ++stats_.latency_mismatches;
    stats_.report(fmt::format("# warp {} pc {} {}: RTL latency {} cycles, configured {}", op.warp, op.pc, f.mnemonic,
                              latency, op.timing.latency));
  }
  finish(*s.trans, out_cycle);  // BEGIN_RESP at k + 1
  s.trans = nullptr;
}

void RtlHalfUnit::watchdog(uint64_t cycle) {
  while (!in_flight_.empty() && cycle + 1 - slots_[in_flight_.front()].accept_cycle > kWatchdogCycles) {
    Slot& s = slots_[in_flight_.front()];
    in_flight_.pop_front();
    WarpOp& op = op_of(*s.trans);
    for (unsigned t = 0; t < kWarpSize; ++t)
      if (op.active_mask >> t & 1) op.result[0][t] = s.golden[t];
    ++stats_.instructions;
    ++stats_.latency_mismatches;
    stats_.report(fmt::format("# warp {} pc {} {}: no RTL result after {} cycles (configured {}); the core's is used",
                              op.warp, op.pc, s.form->mnemonic, kWatchdogCycles, op.timing.latency));
    finish(*s.trans, cycle + 1);
    s.trans = nullptr;
  }
}

}  // namespace ptxfu::models
