#include "models/sub_partition.h"

#include <algorithm>
#include <cstring>
#include <iterator>

#include <tlm_utils/tlm_quantumkeeper.h>

namespace ptxfu::models {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

namespace {

uint64_t now_cycles() { return to_cycles(sc_time_stamp()); }
sc_time cycles(uint64_t n) { return kCycle * static_cast<double>(n); }

}  // namespace

std::vector<Timing> program_timings(const ArchConfig& config, const Program& program) {
  FormTimings timing_for(config);
  std::vector<Timing> timings;
  timings.reserve(program.code.size());
  for (const ProgramInstr& pi : program.code)
    timings.push_back(pi.kind == InstrKind::arithmetic ? timing_for(pi.instr)
                                                       : config.units[static_cast<size_t>(Unit::alu)]);
  return timings;
}

SubPartition::SubPartition(sc_core::sc_module_name name, const ArchConfig& config, const Program& program,
                           const std::vector<Timing>& timings, std::vector<uint32_t> warp_ids, unsigned cta_threads,
                           TimingStyle style, uint64_t quantum_cycles, bool record)
    : sc_module(name),
      config_(config),
      program_(program),
      timing_(timings),
      warp_ids_(std::move(warp_ids)),
      cta_threads_(cta_threads),
      style_(style),
      quantum_cycles_(quantum_cycles),
      record_(record),
      request_ends_("request_ends"),
      responses_("responses") {
  for (auto& s : unit_sockets) s.register_nb_transport_bw(this, &SubPartition::nb_transport_bw);
  const size_t regs = program_.registers.size();
  for (uint32_t id : warp_ids_) {
    Warp w;
    w.id = id;
    w.values.assign(regs * kWarpSize, 0);
    w.ready_at.assign(regs + 1, 0);
    w.written_at.assign(regs + 1, 0);
    w.writer.assign(regs + 1, nullptr);
    // The lanes of the warp that are threads of the CTA.
    const uint64_t first = uint64_t{id} * kWarpSize;
    const uint64_t lanes = cta_threads > first ? std::min<uint64_t>(cta_threads - first, kWarpSize) : 0;
    w.simt.reset(0, lanes >= kWarpSize ? ~uint32_t{0} : static_cast<uint32_t>((uint64_t{1} << lanes) - 1));
    warps_.push_back(std::move(w));
  }
  if (config_.scheduler == SchedulerPolicy::lrr && !warps_.empty()) last_warp_ = warps_.size() - 1;
  SC_HAS_PROCESS(SubPartition);
  SC_THREAD(run);
}

bool SubPartition::finished_issuing() const {
  for (const auto& w : warps_)
    if (w.simt.pc() < program_.code.size()) return false;
  return true;
}

uint64_t SubPartition::readable_at(const Warp& warp, size_t r, const Timing& consumer) const {
  const unsigned* row = warp.writer[r];
  if (row == nullptr) return warp.ready_at[r];
  return std::max(warp.ready_at[r], warp.written_at[r] + row[static_cast<size_t>(consumer.dep)]);
}

int SubPartition::pick(uint64_t t, Stall& reason, uint64_t& next) const {
  const size_t n = warps_.size();
  const size_t carry = program_.registers.size();
  bool any_pipe = false, any_dep = false;
  next = kNever;
  auto later = [&](uint64_t when) {
    if (when > t) next = std::min(next, when);
  };
  // GTO tries the last warp first, then the oldest; LRR starts after the last.
  const size_t first =
      config_.scheduler == SchedulerPolicy::lrr ? (last_warp_ + 1) % std::max<size_t>(n, 1) : last_warp_;
  for (size_t k = 0; k < n; ++k) {
    size_t w = (first + k) % n;
    if (config_.scheduler == SchedulerPolicy::gto && k > 0) w = k - (k <= last_warp_ ? 1 : 0);
    const Warp& warp = warps_[w];
    const uint32_t pc = warp.simt.pc();
    if (pc >= program_.code.size()) continue;
    const ProgramInstr& pi = program_.code[pc];
    bool deps = true;
    for (unsigned d = 0; d < pi.num_dest; ++d) {  // write-after-write
      if (pi.dest[d] == kSink) continue;
      deps &= warp.ready_at[pi.dest[d]] <= t;
      later(warp.ready_at[pi.dest[d]]);
    }
    for (unsigned s = 0; s < pi.num_src; ++s) {  // read-after-write, by producer and consumer class
      if (pi.src[s].kind != SourceOperand::Kind::reg) continue;
      const uint64_t at = readable_at(warp, pi.src[s].reg, timing_[pc]);
      deps &= at <= t;
      later(at);
    }
    if (pi.reads_carry || pi.writes_carry) {
      const uint64_t at = pi.reads_carry ? readable_at(warp, carry, timing_[pc]) : warp.ready_at[carry];
      deps &= at <= t;
      later(at);
    }
    const size_t unit = static_cast<size_t>(timing_[pc].unit);
    const bool unit_free = unit_free_at_[unit] <= t;
    later(unit_free_at_[unit]);
    if (deps && unit_free) return static_cast<int>(w);
    (deps ? any_pipe : any_dep) = true;
  }
  reason = any_pipe ? Stall::pipe_busy : any_dep ? Stall::dependency : Stall::no_ready_warp;
  return -1;
}

SubPartition::Txn* SubPartition::acquire() {
  if (free_.empty()) {
    pool_.push_back(std::make_unique<Txn>());
    Txn* t = pool_.back().get();
    free_.push_back(t);
  }
  Txn* t = free_.back();
  free_.pop_back();
  return t;
}

void SubPartition::release(Txn& txn) {
  --outstanding_;
  free_.push_back(&txn);
}

void SubPartition::issue(size_t w, uint64_t t) {
  Warp& warp = warps_[w];
  const uint32_t pc = warp.simt.pc();
  const ProgramInstr& pi = program_.code[pc];
  Txn& txn = *acquire();
  WarpOp& op = txn.op();
  txn.warp = w;
  txn.request_ended = txn.responded = false;
  op.instr = &pi;
  op.warp = warp.id;
  op.pc = pc;
  op.active_mask = warp.simt.active_mask();
  op.timing = timing_[pc];
  op.carry_in = warp.carry;
  op.carry_out = 0;
  for (unsigned s = 0; s < pi.num_src; ++s) {
    const SourceOperand& o = pi.src[s];
    switch (o.kind) {
      case SourceOperand::Kind::reg: {
        std::memcpy(op.src[s], &warp.values[o.reg * kWarpSize], sizeof op.src[s]);
        break;
      }
      case SourceOperand::Kind::imm: std::fill(std::begin(op.src[s]), std::end(op.src[s]), o.value); break;
      case SourceOperand::Kind::special: {
        const SpecialContext context{warp.id, cta_threads_, config_.max_warps, t};
        for (unsigned lane = 0; lane < kWarpSize; ++lane) op.src[s][lane] = special_value(o.special, context, lane);
        break;
      }
    }
  }
  warp.simt.advance(pc + 1);
  ++warp_instructions_;
  ++outstanding_;
  last_warp_ = w;
  last_issue_end_ = t + 1;
  const size_t unit = static_cast<size_t>(op.timing.unit);

  set_writer(warp, pi, timing_[pc], t);
  if (style_ == TimingStyle::loosely_timed) {
    sc_time delay = cycles(t) - sc_time_stamp();
    unit_sockets[unit]->b_transport(txn, delay);
    unit_free_at_[unit] = op.free_cycle;
    set_ready(warp, pi, op.done_cycle);
    complete(txn, op.done_cycle);  // operands were read at issue: writing now is safe
    release(txn);
    return;
  }
  // Approximately timed: nothing is known until the unit says so.
  unit_free_at_[unit] = kNever;
  set_ready(warp, pi, kNever);
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_time delay = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum status = unit_sockets[unit]->nb_transport_fw(txn, phase, delay);
  if (status == tlm::TLM_UPDATED && phase == tlm::END_REQ) request_ends_.notify(txn, delay);
}

void SubPartition::set_ready(Warp& warp, const ProgramInstr& pi, uint64_t cycle) {
  for (unsigned d = 0; d < pi.num_dest; ++d)
    if (pi.dest[d] != kSink) warp.ready_at[pi.dest[d]] = cycle;
  if (pi.writes_carry) warp.ready_at[program_.registers.size()] = cycle;
}

void SubPartition::set_writer(Warp& warp, const ProgramInstr& pi, const Timing& t, uint64_t issued) {
  for (unsigned d = 0; d < pi.num_dest; ++d) {
    if (pi.dest[d] == kSink) continue;
    warp.written_at[pi.dest[d]] = issued;
    warp.writer[pi.dest[d]] = config_.dependency_table[static_cast<size_t>(t.dep)].data();
  }
  if (pi.writes_carry) {
    warp.written_at[program_.registers.size()] = issued;
    warp.writer[program_.registers.size()] = config_.dependency_table[static_cast<size_t>(t.dep)].data();
  }
}

void SubPartition::complete(Txn& txn, uint64_t cycle) {
  Warp& warp = warps_[txn.warp];
  const WarpOp& op = txn.op();
  const ProgramInstr& pi = *op.instr;
  for (unsigned d = 0; d < pi.num_dest; ++d) {
    if (pi.dest[d] == kSink) continue;
    uint64_t* r = &warp.values[pi.dest[d] * kWarpSize];
    if (op.active_mask == ~uint32_t{0}) {
      std::memcpy(r, op.result[d], sizeof op.result[d]);
      continue;
    }
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      if (op.active_mask >> lane & 1) r[lane] = op.result[d][lane];
  }
  if (pi.writes_carry) warp.carry = (warp.carry & ~op.active_mask) | (op.carry_out & op.active_mask);
  last_done_ = std::max(last_done_, cycle);
  if (record_)
    records_.push_back({records_.size(), op.warp, op.pc, op.timing.unit, op.issue_cycle, op.free_cycle, op.done_cycle});
}

tlm::tlm_sync_enum SubPartition::nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                                 sc_time& delay) {
  if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  responses_.notify(trans, delay);
  return tlm::TLM_ACCEPTED;  // END_RESP follows on the forward path when the dispatcher takes it
}

void SubPartition::drain_events(uint64_t now) {
  while (tlm::tlm_generic_payload* p = request_ends_.get_next_transaction()) {
    Txn& txn = static_cast<Txn&>(*p);
    unit_free_at_[static_cast<size_t>(txn.op().timing.unit)] = now;
    txn.request_ended = true;
    if (txn.responded) release(txn);
  }
  while (tlm::tlm_generic_payload* p = responses_.get_next_transaction()) {
    Txn& txn = static_cast<Txn&>(*p);
    Warp& warp = warps_[txn.warp];
    const ProgramInstr& pi = *txn.op().instr;
    set_ready(warp, pi, now);
    complete(txn, now);
    tlm::tlm_phase phase = tlm::END_RESP;
    sc_time delay = sc_core::SC_ZERO_TIME;
    unit_sockets[static_cast<size_t>(txn.op().timing.unit)]->nb_transport_fw(*p, phase, delay);
    txn.responded = true;
    if (txn.request_ended) release(txn);
  }
}

void SubPartition::run() {
  if (warps_.empty()) return;
  Stall reason = Stall::no_ready_warp;
  uint64_t next = 0;
  if (style_ == TimingStyle::loosely_timed) {
    tlm_utils::tlm_quantumkeeper qk;
    qk.set_global_quantum(cycles(quantum_cycles_));
    qk.reset();
    uint64_t t = 0;
    while (!finished_issuing()) {
      unsigned issued = 0;
      for (; issued < config_.issue_width; ++issued) {
        const int w = pick(t, reason, next);
        if (w < 0) break;
        issue(static_cast<size_t>(w), t);
      }
      const uint64_t advance = issued ? 1 : (next == kNever ? 1 : next - t);
      if (!issued) stalls_[static_cast<size_t>(reason)] += advance;
      t += advance;
      qk.set(cycles(t) - sc_time_stamp());
      if (qk.need_sync()) qk.sync();
    }
    return;
  }
  // Approximately timed: one decision per cycle in simulated time; when
  // nothing can issue, sleep until a unit or a result reports back.
  while (!finished_issuing()) {
    const uint64_t t = now_cycles();
    drain_events(t);
    unsigned issued = 0;
    for (; issued < config_.issue_width; ++issued) {
      const int w = pick(t, reason, next);
      if (w < 0) break;
      issue(static_cast<size_t>(w), t);
    }
    if (issued) {
      wait(kCycle);
    } else {
      // A unit or a result reports back, or a result reaches its consumer
      // class (the config's dependencies) with nothing to report.
      if (next != kNever)
        wait(cycles(next - t), request_ends_.get_event() | responses_.get_event());
      else
        wait(request_ends_.get_event() | responses_.get_event());
      stalls_[static_cast<size_t>(reason)] += now_cycles() - t;
    }
  }
  while (outstanding_ > 0) {
    drain_events(now_cycles());
    if (outstanding_ > 0) wait(request_ends_.get_event() | responses_.get_event());
  }
}

}  // namespace ptxfu::models
