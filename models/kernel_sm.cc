#include "models/kernel_sm.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "isa/instr.h"
#include "models/kernel_sm_module.h"
#include "models/rtl_tensor_check.h"
#include "models/simulator.h"
#include "util/bits.h"

#include <tlm_utils/tlm_quantumkeeper.h>

namespace ptxfu::models {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

uint64_t LineProfile::stall_total() const { return std::accumulate(stalls.begin(), stalls.end(), uint64_t{0}); }

namespace {

// Backward liveness over the entry's instructions: a register is live
// between a write and its last read on some path. A guarded write may not
// happen, so it does not end the old value's life.
struct Liveness {
  size_t words = 0;                         // 64-bit words of one point's set
  std::vector<uint64_t> live_in, live_out;  // [(pc - entry.begin) * words + word]
};

Liveness liveness(const kernel::Kernel& k) {
  const kernel::Function& f = k.entry();
  Liveness l;
  l.words = (size_t{f.num_regs} + 63) / 64;
  const size_t words = l.words, count = size_t{f.end} - f.begin + 1;
  l.live_in.assign(count * words, 0);
  l.live_out.assign(count * words, 0);
  auto successors = [&](uint32_t pc, uint32_t out[2]) {
    const kernel::Inst& in = k.insts[pc];
    unsigned n = 0;
    const bool guarded = in.guard >= 0;
    switch (in.kind) {
      case kernel::Kind::bra:
        if (in.target >= f.begin && in.target <= f.end) out[n++] = in.target;
        if (guarded && pc < f.end) out[n++] = pc + 1;
        break;
      case kernel::Kind::ret:
      case kernel::Kind::exit:
        if (guarded && pc < f.end) out[n++] = pc + 1;
        break;
      case kernel::Kind::func_end: break;
      default:
        if (pc < f.end) out[n++] = pc + 1;
    }
    return n;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t pc = f.end + 1; pc-- > f.begin;) {
      const size_t i = pc - f.begin;
      uint64_t* out = l.live_out.data() + i * words;  // data(): words may be 0
      uint32_t next[2];
      const unsigned n = successors(pc, next);
      for (unsigned j = 0; j < n; ++j)
        for (size_t w = 0; w < words; ++w) out[w] |= l.live_in[(next[j] - f.begin) * words + w];
      std::vector<uint64_t> in(out, out + words);
      const kernel::Inst& inst = k.insts[pc];
      if (inst.guard < 0)
        for (unsigned j = 0; j < inst.num_writes; ++j) in[inst.writes[j] / 64] &= ~(uint64_t{1} << inst.writes[j] % 64);
      for (unsigned j = 0; j < inst.num_reads; ++j) in[inst.reads[j] / 64] |= uint64_t{1} << inst.reads[j] % 64;
      for (size_t w = 0; w < words; ++w)
        if (in[w] != l.live_in[i * words + w]) l.live_in[i * words + w] = in[w], changed = true;
    }
  }
  return l;
}

// The entry's registers a thread may read before it writes them (live at
// its start), and those a shuffle reads, which reads the lanes of threads
// that have exited or branched elsewhere too: a new CTA finds these cleared.
std::vector<uint32_t> registers_read_first(const kernel::Kernel& k) {
  const kernel::Function& f = k.entry();
  const Liveness l = liveness(k);
  std::vector<bool> clear(f.num_regs, false);
  for (uint32_t r = 0; r < f.num_regs; ++r) clear[r] = l.live_in[r / 64] >> (r % 64) & 1;
  for (uint32_t pc = f.begin; pc <= f.end; ++pc)
    if (k.insts[pc].kind == kernel::Kind::shfl)
      for (unsigned j = 0; j < k.insts[pc].num_reads; ++j) clear[k.insts[pc].reads[j]] = true;
  std::vector<uint32_t> regs;
  for (uint32_t r = 0; r < f.num_regs; ++r)
    if (clear[r]) regs.push_back(r);
  return regs;
}

}  // namespace

unsigned estimated_registers(const kernel::Kernel& k) {
  const kernel::Function& f = k.entry();
  if (f.num_regs == 0) return 1;
  const Liveness l = liveness(k);
  const size_t words = l.words, count = size_t{f.end} - f.begin + 1;
  // 32-bit registers live at once at the worst point; predicates have a
  // register file of their own.
  unsigned worst = 0;
  for (size_t i = 0; i < count; ++i) {
    unsigned regs = 0;
    for (uint32_t r = 0; r < f.num_regs; ++r) {
      const bool live = (l.live_in[i * words + r / 64] | l.live_out[i * words + r / 64]) >> (r % 64) & 1;
      const unsigned bits = f.reg_bits[r];
      if (live && bits != 1) regs += bits > 32 ? (bits + 31) / 32 : 1;
    }
    worst = std::max(worst, regs);
  }
  return std::clamp(worst, 1u, 255u);
}

Residency residency(const ArchConfig& c, const kernel::Kernel& k, const kernel::Launch& launch,
                    unsigned registers_per_thread) {
  Residency r;
  r.registers_per_thread = registers_per_thread;
  r.warps_per_cta = static_cast<unsigned>((launch.block.count() + 31) / 32);
  // A kernel's own reserved region (kernel.h) is the driver's reserve, not more of it.
  r.shared_per_cta = uint64_t{k.dynamic_shared_offset} - k.reserved_shared + launch.shared_bytes +
                     std::max(c.sm.reserved_shared_per_cta, k.reserved_shared);
  const uint64_t g = c.sm.register_granularity;
  const uint64_t regs_per_warp = (uint64_t{registers_per_thread} * 32 + g - 1) / g * g;
  const uint64_t regs_per_cta = regs_per_warp * r.warps_per_cta;
  struct Limit {
    uint64_t ctas;
    const char* name;
  };
  const Limit limits[] = {
      {c.sm.max_ctas, "max_ctas"},
      {c.max_warps / std::max(r.warps_per_cta, 1u), "max_warps"},
      {r.shared_per_cta ? c.sm.shared_bytes / r.shared_per_cta : c.sm.max_ctas, "shared memory"},
      {regs_per_cta ? c.sm.registers / regs_per_cta : c.sm.max_ctas, "registers"},
      {launch.grid.count(), "grid"},
  };
  const Limit* tightest = &limits[0];
  for (const Limit& l : limits)
    if (l.ctas < tightest->ctas) tightest = &l;
  if (tightest->ctas == 0) {
    const std::string why =
        std::string(tightest->name) == "max_warps"
            ? fmt::format("{} warps per CTA, the SM holds {}", r.warps_per_cta, c.max_warps)
        : std::string(tightest->name) == "shared memory"
            ? fmt::format("{} bytes of shared memory per CTA ({} dynamic, {} reserved), the SM has {}",
                          r.shared_per_cta, launch.shared_bytes, c.sm.reserved_shared_per_cta, c.sm.shared_bytes)
            : fmt::format("{} registers per CTA ({} per thread), the SM has {}", regs_per_cta, registers_per_thread,
                          c.sm.registers);
    throw ConfigError(
        fmt::format("{}: one CTA of '{}' does not fit on an SM of {}: {}", k.file, k.entry().name, c.name, why));
  }
  r.ctas = static_cast<unsigned>(std::min<uint64_t>(tightest->ctas, 1u << 20));
  r.limit = tightest->name;
  // The one SM holds a cluster's CTAs together, or cannot run the launch.
  const uint64_t cluster = kernel::cluster_shape(k, launch).count();
  if (cluster > r.ctas)
    throw ConfigError(
        fmt::format("{}: a cluster of {} CTAs of '{}' does not fit on an SM of {}: at most {} CTAs are "
                    "resident together (limited by {}), and a cluster's CTAs must be resident at once",
                    k.file, cluster, k.entry().name, c.name, r.ctas, r.limit));
  return r;
}

namespace {

uint64_t now_cycles() { return to_cycles(sc_time_stamp()); }

// The distinct values of v[0, n), in order, at its front; their count. Lanes
// mostly access in address order: then one pass, without the sort.
unsigned distinct(uint64_t* v, unsigned n) {
  if (n == 0) return 0;
  unsigned k = 1;
  for (unsigned i = 1; i < n; ++i) {
    if (v[i] == v[k - 1]) continue;
    if (v[i] < v[k - 1]) {  // out of order: sort
      std::sort(v, v + n);
      return static_cast<unsigned>(std::unique(v, v + n) - v);
    }
    v[k++] = v[i];
  }
  return k;
}

// How many transactions a warp's access needs: distinct lines for global,
// local, const and param memory; the worst bank conflict for shared memory.
unsigned transactions(const kernel::StepResult& r, const kernel::Inst& in, const MemoryTiming& m) {
  const uint32_t lanes = r.executed;
  if (lanes == 0) return 1;
  const unsigned bytes = std::max(1u, unsigned{in.access_bytes} * in.vec);
  if (r.space == kernel::Space::shared) {
    const uint64_t banks = m.shared_banks, bank_mask = (banks & (banks - 1)) == 0 ? banks - 1 : 0;
    // A wide access moves at most banks * 4 bytes per pass.
    const unsigned passes = static_cast<unsigned>((uint64_t{util::popcount32(lanes)} * bytes + 4 * m.shared_banks - 1) /
                                                  (4 * m.shared_banks));
    if (bytes <= 4 && bank_mask != 0) {  // (the config keeps banks at most 64)
      // One word a lane, and no bank asked for two words (a broadcast or a
      // conflict-free access, what tiled kernels do): one pass, no sort.
      uint64_t word_of_bank[64];
      uint64_t banks_seen = 0;
      bool conflict = false;
      for (unsigned lane = 0; lane < 32 && !conflict; ++lane) {
        if (!(lanes >> lane & 1)) continue;
        const uint64_t w = r.addresses[lane] / 4;
        if (w != (r.addresses[lane] + bytes - 1) / 4) conflict = true;  // straddles two words
        const uint64_t b = w & bank_mask;
        if (!(banks_seen >> b & 1)) {
          banks_seen |= uint64_t{1} << b;
          word_of_bank[b] = w;
        } else if (word_of_bank[b] != w) {
          conflict = true;
        }
      }
      if (!conflict) return std::max(1u, passes);
    }
    // Words per bank, distinct ones: lanes reading one word share it.
    uint64_t words[32 * 4];  // at most 16 bytes a lane
    unsigned n = 0;
    for (unsigned lane = 0; lane < 32; ++lane)
      if (lanes >> lane & 1)
        for (uint64_t w = r.addresses[lane] / 4; w <= (r.addresses[lane] + bytes - 1) / 4 && n < 128; ++w)
          words[n++] = w;
    n = distinct(words, n);
    uint8_t per_bank[64] = {};  // at most 128 words
    unsigned worst = 1;
    for (unsigned i = 0; i < n; ++i)
      worst = std::max(worst, unsigned{++per_bank[bank_mask ? words[i] & bank_mask : words[i] % banks]});
    return std::max(worst, passes);
  }
  const int line_shift = __builtin_ctzll(m.line_bytes);  // a power of two (the config checks)
  // Lanes mostly access in address order: count the lines as they come.
  uint64_t prev = 0;
  unsigned count = 0;
  bool ordered = true;
  for (unsigned lane = 0; lane < 32 && ordered; ++lane) {
    if (!(lanes >> lane & 1)) continue;
    const uint64_t first = r.addresses[lane] >> line_shift, last = (r.addresses[lane] + bytes - 1) >> line_shift;
    ordered = (count == 0 || first >= prev) && last - first < 2;
    if (ordered) count += (count == 0 || first != prev) + (last != first), prev = last;
  }
  if (ordered) return count;
  uint64_t lines[64];
  unsigned n = 0;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(lanes >> lane & 1)) continue;
    const uint64_t first = r.addresses[lane] >> line_shift, last = (r.addresses[lane] + bytes - 1) >> line_shift;
    for (uint64_t l = first; l <= last && n < 64; ++l) lines[n++] = l;
  }
  return distinct(lines, n);
}

// Whether a shared access reached a peer CTA's shared memory: an address
// at or above kClusterRankStride names a rank of the cluster.
bool remote_shared(const kernel::StepResult& r) {
  if (r.space != kernel::Space::shared) return false;
  for (unsigned lane = 0; lane < 32; ++lane)
    if (r.executed >> lane & 1 && r.addresses[lane] >= kernel::kClusterRankStride) return true;
  return false;
}

Unit unit_of_inst(const kernel::Inst& in) {
  switch (in.unit()) {
    case kernel::Unit::pipe: return Unit::alu;  // refined by the form's timing for arithmetic
    case kernel::Unit::memory: return Unit::lsu;
    case kernel::Unit::branch: return Unit::branch;
    case kernel::Unit::warp: return Unit::warp;
    case kernel::Unit::tensor: return Unit::tensor;
  }
  return Unit::alu;
}

}  // namespace

KernelSm::KernelSm(sc_core::sc_module_name name, const SimJob& job, bool record)
    : sc_module(name),
      job_(job),
      config_(*job.config),
      kernel_(*job.kernel),
      record_(record),
      memory_(kernel::make_memory(kernel_, job.launch)),
      residency_(residency(config_, kernel_, job.launch,
                           job.registers_per_thread ? job.registers_per_thread : estimated_registers(kernel_))),
      cluster_(kernel::cluster_shape(kernel_, job.launch)),
      request_ends_("request_ends"),
      responses_("responses") {
  const unsigned n_parts = config_.sub_partitions;
  for (unsigned i = 0; i < n_parts * kNumUnits; ++i) {
    sockets.push_back(std::make_unique<Socket>(fmt::format("socket_{}", i).c_str()));
    sockets.back()->register_nb_transport_bw(this, &KernelSm::nb_transport_bw);
  }
  FormTimings timing_for(config_);
  for (const kernel::Inst& in : kernel_.insts) {
    lands_later_ = lands_later_ || kernel::lands_later(in.kind);
    PcInfo info;
    if (in.kind == kernel::Kind::arith) {
      info.timing = timing_for(in.form);
    } else if (in.kind == kernel::Kind::mma || in.kind == kernel::Kind::wgmma) {
      // wgmma: each warp's 16 rows on its sub-partition's unit, at the mma rates (parameters, not measured)
      const kernel::tensor::TensorOp& op = kernel_.tensor_ops[in.tensor_op];
      const bool wg = in.kind == kernel::Kind::wgmma;
      info.timing = config_.mma_timing(wg ? 64 : op.layout.m, op.layout.n, op.layout.k,
                                       kernel::tensor::multiply_adds(op), op.inst.a, op.inst.d);
    } else {
      info.timing = config_.units[static_cast<size_t>(unit_of_inst(in))];
      if (in.kind == kernel::Kind::cluster_bar && in.bar_wait && config_.memory.cluster_barrier)
        info.timing.latency = config_.memory.cluster_barrier;
    }
    info.regs_begin = static_cast<uint32_t>(pc_regs_.size());
    info.num_reads = in.num_reads;
    info.num_writes = in.num_writes;
    pc_regs_.insert(pc_regs_.end(), in.reads.begin(), in.reads.end());
    pc_regs_.insert(pc_regs_.end(), in.writes.begin(), in.writes.end());
    const bool arith = in.kind == kernel::Kind::arith;
    info.reads_carry = arith && isa::reads_carry(in.form);
    info.writes_carry = arith && isa::writes_carry(in.form);
    info.memory_path = kernel::row(in.kind).memory_path;
    info.control = kernel::row(in.kind).control;
    info.constant_bank = kernel::reads_constant_bank(in);
    if (info.constant_bank)  // a constant-cache hit: the config's const (or param) latency, no unit occupied
      info.timing.latency = in.space == kernel::Space::const_ ? config_.memory.constant : config_.memory.param;
    pcs_.push_back(info);
  }
  read_first_ = registers_read_first(kernel_);
  lines_.resize(kernel_.insts.size());
  for (size_t i = 0; i < lines_.size(); ++i) {
    lines_[i].unit = pcs_[i].timing.unit;
    lines_[i].constant_bank = pcs_[i].constant_bank;
  }
  for (size_t i = 0; job.rtl_half && i < kernel_.insts.size(); ++i) {
    const kernel::Inst& in = kernel_.insts[i];
    bool plain =
        in.kind == kernel::Kind::arith && pcs_[i].timing.unit == Unit::fma && in.num_dst == 1 && in.num_src <= 4;
    for (unsigned k = 0; k < in.num_src; ++k)
      plain &= in.src[k].kind == kernel::Operand::Kind::reg || in.src[k].kind == kernel::Operand::Kind::imm;
    rtl_checked_.push_back(plain);
  }
  if (job.rtl_tensor) tensor_check_ = std::make_unique<RtlTensorCheck>(kernel_, config_.caps.sm, job.rtl_tensor_broken);
  if (job.racecheck) racecheck_ = std::make_unique<kernel::RaceChecker>(kernel_);
  parts_.resize(n_parts);
  slots_.resize(size_t{config_.max_warps});
  watch_.resize(slots_.size());
  board_stride_ = slots_.size();
  pos_of_.resize(slots_.size());
  grid_ctas_ = job.launch.grid.count();
  SC_HAS_PROCESS(KernelSm);
  SC_THREAD(run);
}

KernelSm::~KernelSm() = default;

RtlTensorStats KernelSm::rtl_tensor_stats() { return tensor_check_ ? tensor_check_->finish() : RtlTensorStats{}; }

const kernel::RaceReport* KernelSm::races() const { return racecheck_ ? &racecheck_->report() : nullptr; }

bool KernelSm::fail(std::string message) {
  if (error_.empty()) error_ = std::move(message);
  return false;
}

bool KernelSm::finished() const { return !error_.empty() || (next_cta_ == grid_ctas_ && ctas_.empty()); }

bool KernelSm::launch_one() {
  const uint64_t per = cluster_.count();
  if (next_cta_ >= grid_ctas_ || ctas_.size() + per > residency_.ctas) return false;
  auto cluster = std::make_shared<kernel::Cluster>();  // the whole cluster at once: its CTAs are resident together
  cluster->shape = cluster_;
  cluster->ctas.assign(per, nullptr);
  cluster->is_explicit = per > 1 || kernel_.explicit_cluster;
  for (uint64_t rank = 0; rank < per; ++rank) {
    const kernel::Dim3 id = kernel::cta_in_launch_order(job_.launch.grid, cluster_, next_cta_);
    if (rank == 0) cluster->id = {id.x / cluster_.x, id.y / cluster_.y, id.z / cluster_.z};
    CtaSlot c;
    if (spare_ctas_.empty()) {
      c.cta = std::make_unique<kernel::Cta>(kernel_, job_.launch, id, 0);
    } else {
      c.cta = std::move(spare_ctas_.back());
      spare_ctas_.pop_back();
      c.cta->restart(id, kernel_.straight_line ? nullptr : &read_first_);  // a program's registers are its output
    }
    c.cta->join(cluster, static_cast<uint32_t>(rank));
    place(std::move(c));
    ++next_cta_;
  }
  return true;
}

void KernelSm::place(CtaSlot c) {
  c.cta->warp_slots = config_.max_warps;
  c.cta->arch_sm = config_.caps.sm;
  c.cta->block_observer = tensor_check_.get();
  c.cta->globaltimer_ns_per_cycle = 1000.0 / config_.async.clock_mhz;
  c.cta->bulk_latency = config_.async.bulk_latency;
  c.live_warps = c.cta->warps.size();
  const size_t cta_index = ctas_.size();
  size_t free_slot = 0;
  for (kernel::Warp& w : c.cta->warps) {
    while (slots_[free_slot].used) ++free_slot;  // residency() leaves room for every warp
    Slot& s = slots_[free_slot];
    s = Slot{};
    s.index = free_slot;
    s.used = true;
    s.cta = cta_index;
    s.warp = &w;
    s.part = static_cast<unsigned>(free_slot % config_.sub_partitions);
    ++parts_[s.part].by_reason[static_cast<size_t>(s.reason)];
    grow_registers(free_slot, static_cast<uint32_t>(w.regs.size() / 32));
    pos_of_[free_slot] = static_cast<uint32_t>(parts_[s.part].warps.size());
    parts_[s.part].warps.push_back(free_slot);
    wake(free_slot);
    c.slots.push_back(free_slot);
  }
  ctas_.push_back(std::move(c));
}

void KernelSm::pending_retirements(uint64_t& next) const {
  if (exited_ctas_ == 0) return;
  for (const CtaSlot& c : ctas_) {
    if (c.live_warps > 0) continue;
    bool outstanding = false;
    for (size_t s : c.slots) outstanding |= slots_[s].outstanding > 0;
    if (!outstanding) next = std::min(next, c.retire_at);
  }
}

void KernelSm::keep_registers(const kernel::Cta& cta) {
  const uint32_t regs = kernel_.entry().num_regs;
  final_registers_.resize(cta.warps.size());
  for (const kernel::Warp& w : cta.warps) {
    auto& out = final_registers_[w.index];
    out.assign(regs, std::vector<uint64_t>(kWarpSize));
    for (uint32_t r = 0; r < regs && (size_t{r} + 1) * kWarpSize <= w.regs.size(); ++r)
      for (unsigned lane = 0; lane < kWarpSize; ++lane) out[r][lane] = w.regs[size_t{r} * kWarpSize + lane];
  }
}

void KernelSm::retire_and_launch(uint64_t t, uint64_t& next) {
  for (size_t i = 0; exited_ctas_ > 0 && i < ctas_.size();) {
    CtaSlot& c = ctas_[i];
    bool outstanding = c.live_warps > 0;
    for (size_t k = 0; k < c.slots.size() && !outstanding; ++k) outstanding = slots_[c.slots[k]].outstanding > 0;
    if (outstanding) {
      ++i;
      continue;
    }
    if (c.retire_at > t) {  // loosely timed: the results are known, not yet out
      next = std::min(next, c.retire_at);
      ++i;
      continue;
    }
    end_cycle_ = std::max(end_cycle_, c.retire_at);
    if (kernel_.straight_line) keep_registers(*c.cta);
    for (size_t s : c.slots) {
      end_reason(slots_[s], t);
      auto& warps = parts_[slots_[s].part].warps;
      warps.erase(std::find(warps.begin(), warps.end(), s));
      if (parts_[slots_[s].part].last == s) parts_[slots_[s].part].last = kNone;
      slots_[s].used = false;
    }
    for (Part& part : parts_) {  // places moved: the last issuer's (or it left), the parked warps'
      if (part.last_pos != kNone) {
        const auto it = std::find(part.warps.begin(), part.warps.end(), part.last);
        part.last_pos = it == part.warps.end() ? kNone : static_cast<size_t>(it - part.warps.begin());
      }
      for (size_t pos = 0; pos < part.warps.size(); ++pos) pos_of_[part.warps[pos]] = static_cast<uint32_t>(pos);
      part.parked = 0;
      part.park_until = kNever;
    }
    ++ctas_done_;
    --exited_ctas_;
    c.cta->leave_cluster();  // a peer that reads its shared memory now faults, as after ~Cta
    spare_ctas_.push_back(std::move(c.cta));
    // The CTAs behind it move down one place: the slots name them by index.
    ctas_.erase(ctas_.begin() + static_cast<std::ptrdiff_t>(i));
    for (size_t j = i; j < ctas_.size(); ++j)
      for (size_t s : ctas_[j].slots) slots_[s].cta = j;
  }
  // CTAs launched now issue from the next cycle.
  while (launch_one()) next = std::min(next, t + 1);
}

void KernelSm::wait_until(uint64_t when, uint64_t t, uint64_t& until, bool& known) {
  if (when == kNever)
    known = false;
  else if (when > t)
    until = std::min(until, when);
}

WarpStall KernelSm::check(Slot& s, uint64_t t, uint64_t& until, bool& known) const {
  until = kNever;
  known = true;
  const kernel::Warp& w = *s.warp;
  if (w.done()) return WarpStall::idle;
  // A barrier ends when another warp arrives, a held branch when its unit
  // answers: complete() then wakes the warp (wake()).
  if (w.waiting()) return w.async_wait ? WarpStall::memory : WarpStall::barrier;
  if (s.holds > 0) return WarpStall::control;
  auto later = [&](uint64_t when) { wait_until(when, t, until, known); };
  if (s.resume_at > t) {
    later(s.resume_at);
    return s.suspended ? WarpStall::barrier : WarpStall::control;
  }
  const uint32_t pc = w.pc();
  const WarpStall operands = check_operands(s, pc, t, until, known);
  if (operands != WarpStall::not_selected) return operands;
  if (pcs_[pc].constant_bank) return WarpStall::not_selected;  // ready: it needs no unit
  const uint64_t free_at = parts_[s.part].unit_free_at[static_cast<size_t>(pcs_[pc].timing.unit)];
  if (free_at > t) {
    later(free_at);  // a unit only gets busier: the warp waits at least until then
    return WarpStall::pipe_busy;
  }
  return WarpStall::not_selected;  // ready
}

template <typename F>
void KernelSm::for_each_operand(const Slot& s, uint32_t pc, F&& ready) const {
  const size_t slot = s.index;
  const uint32_t base = s.warp->frames.back().reg_base;
  const PcInfo& info = pcs_[pc];
  const size_t consumer = static_cast<size_t>(info.timing.dep);
  auto need_state = [&](const RegisterState& reg_state, bool read) {
    uint64_t at = reg_state.ready_at;
    if (read && reg_state.writer && at != kNever) at = std::max(at, reg_state.written_at + reg_state.writer[consumer]);
    ready(at, reg_state.from_memory);
  };
  auto need = [&](uint32_t reg, bool read) {
    const size_t r = size_t{base} + reg;
    if (r < s.num_regs) need_state(board_[r * board_stride_ + slot], read);
  };
  const uint32_t* regs = pc_regs_.data() + info.regs_begin;  // no element when the kernel has no registers
  for (unsigned i = 0; i < info.num_reads; ++i) need(regs[i], true);
  for (unsigned i = 0; i < info.num_writes; ++i) need(regs[info.num_reads + i], false);
  // The carry flag is a register like the others, the dependency table included.
  if (info.reads_carry || info.writes_carry) need_state(s.carry, info.reads_carry);
}

KernelSm::OperandWait KernelSm::operand_wait(const Slot& s, uint32_t pc) const {
  uint64_t memory_at = 0, dependency_at = 0;  // (locals, not `wait`'s: kept in registers)
  for_each_operand(s, pc, [&](uint64_t at, bool from_memory) {
    uint64_t& last = from_memory ? memory_at : dependency_at;
    last = std::max(last, at);
  });
  return {memory_at, dependency_at};  // kNever, the largest, stays
}

WarpStall KernelSm::check_operands(Slot& s, uint32_t pc, uint64_t t, uint64_t& until, bool& known) const {
  if (s.operands_pc != pc) {
    s.operands = operand_wait(s, pc);
    s.operands_pc = pc;
  }
  const OperandWait& wait = s.operands;
  if (wait.memory_at == kNever || wait.dependency_at == kNever) return check_operands_now(s, pc, t, until, known);
  // The reason holds until the last register of its kind is ready (memory
  // goes before dependency), not only until the first: look again then.
  if (wait.memory_at > t) {
    until = std::min(until, wait.memory_at);
    return WarpStall::memory;
  }
  if (wait.dependency_at > t) {
    until = std::min(until, wait.dependency_at);
    return WarpStall::dependency;
  }
  return WarpStall::not_selected;
}

WarpStall KernelSm::check_operands_now(const Slot& s, uint32_t pc, uint64_t t, uint64_t& until, bool& known) const {
  auto later = [&](uint64_t when) { wait_until(when, t, until, known); };
  bool dep = false, mem = false;
  uint64_t mem_last = 0, dep_last = 0;  // when the last register of each kind is ready
  for_each_operand(s, pc, [&](uint64_t at, bool from_memory) {
    if (at <= t) return;
    later(at);
    (from_memory ? mem : dep) = true;
    uint64_t& last = from_memory ? mem_last : dep_last;
    last = std::max(last, at);
  });
  if (!dep && !mem) return WarpStall::not_selected;
  // The reason holds until the last register of its kind is ready (memory
  // goes before dependency), not only until the first: look again then.
  // (Unknown cycles, approximately timed, are looked at every cycle.)
  if (known) until = mem ? mem_last : dep_last;
  return mem ? WarpStall::memory : WarpStall::dependency;
}

size_t KernelSm::consider(size_t slot, uint64_t t) {
  Watch& watch = watch_[slot];
  Slot& s = slots_[slot];
  uint64_t until = kNever;
  bool known = true;
  set_reason(s, check(s, t, until, known), t);
  const bool ready = s.reason == WarpStall::not_selected;
  watch.recheck_at = known && !ready ? until : 0;
  watch.wake = until;
  // check() looks at the unit last: past it, only the unit can hold the warp.
  const bool unit = (ready || s.reason == WarpStall::pipe_busy) && !pcs_[s.warp->pc()].constant_bank;
  watch.ready_unit = unit ? static_cast<uint8_t>(pcs_[s.warp->pc()].timing.unit) : kNoUnit;
  return ready ? slot : kNone;
}

bool KernelSm::look_at_unit(const Part& part, size_t slot, uint64_t t) {
  Watch& watch = watch_[slot];
  Slot& s = slots_[slot];
  const uint64_t free_at = part.unit_free_at[watch.ready_unit];
  const bool ready = free_at <= t;
  const WarpStall reason = ready ? WarpStall::not_selected : WarpStall::pipe_busy;
  if (s.reason != reason) set_reason(s, reason, t);
  // As check() and consider(): a unit busy until a cycle not known yet
  // (approximately timed) is looked at again every cycle.
  watch.recheck_at = ready || free_at == kNever ? 0 : free_at;
  watch.wake = ready ? kNever : free_at;
  return ready;
}

void KernelSm::unpark(Part& part, uint64_t t) {
  uint64_t until = kNever;
  for (uint64_t bits = part.parked; bits != 0; bits &= bits - 1) {
    const unsigned pos = static_cast<unsigned>(__builtin_ctzll(bits));
    const uint64_t at = watch_[part.warps[pos]].recheck_at;
    if (at <= t)
      part.parked &= ~(uint64_t{1} << pos);
    else
      until = std::min(until, at);
  }
  part.park_until = until;
}

size_t KernelSm::pick(Part& part, uint64_t t) {
  const size_t n = part.warps.size();
  size_t chosen = kNone, chosen_pos = kNone;
  // A warp blocked until a known cycle stays blocked, for the same reason,
  // until then: nothing it waits for can come sooner. Up to 64 warps, such
  // warps are parked (a bit each), and the loop passes over them as a mask.
  // A warp whose registers were free and that has not issued since waits
  // only for its unit: look_at_unit() instead of check().
  const bool masks = n <= 64;
  auto visit = [&](size_t pos) {
    const size_t slot = part.warps[pos];
    const Watch& watch = watch_[slot];
    if (watch.recheck_at > t) return;
    const bool ready = watch.ready_unit != kNoUnit ? look_at_unit(part, slot, t) : consider(slot, t) != kNone;
    if (ready && chosen == kNone) chosen = slot, chosen_pos = pos;
    if (masks && watch.recheck_at > t) {
      part.parked |= uint64_t{1} << pos;
      part.park_until = std::min(part.park_until, watch.recheck_at);
    }
  };
  const size_t last_pos = part.last_pos;
  if (masks) {
    if (t >= part.park_until) unpark(part, t);
    const uint64_t all = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
    uint64_t todo = all & ~part.parked;
    // Visits the positions of `bits` in ascending order.
    auto visit_all = [&](uint64_t bits) {
      for (; bits != 0; bits &= bits - 1) visit(static_cast<size_t>(__builtin_ctzll(bits)));
    };
    if (config_.scheduler == SchedulerPolicy::gto) {
      // GTO: the last warp, then the oldest.
      if (last_pos != kNone) {
        if (todo >> last_pos & 1) visit(last_pos);
        todo &= ~(uint64_t{1} << last_pos);
      }
      visit_all(todo);
    } else {
      // LRR: round-robin after the last.
      const size_t start = last_pos != kNone ? (last_pos + 1) % n : 0;
      const uint64_t from_start = todo & ~((uint64_t{1} << start) - 1);
      visit_all(from_start);
      visit_all(todo & ~from_start);
    }
  } else if (config_.scheduler == SchedulerPolicy::gto) {
    if (last_pos != kNone) visit(last_pos);
    for (size_t pos = 0; pos < n; ++pos)
      if (pos != last_pos) visit(pos);
  } else {
    const size_t start = last_pos != kNone ? (last_pos + 1) % n : 0;
    for (size_t i = 0, pos = start; i < n; ++i, pos = pos + 1 == n ? 0 : pos + 1) visit(pos);
  }
  picked_pos_ = chosen_pos;
  return chosen;
}

uint64_t KernelSm::earliest_wake() const {
  uint64_t next = kNever;
  for (const Part& part : parts_)
    for (size_t slot : part.warps) next = std::min(next, watch_[slot].wake);
  return next;
}

bool KernelSm::issue_cycle(uint64_t t, uint64_t& next) {
  bool any = false;
  for (Part& part : parts_) {
    for (unsigned k = 0; k < config_.issue_width && !part.warps.empty(); ++k) {
      const size_t chosen = pick(part, t);
      if (chosen == kNone) break;
      part.last_pos = picked_pos_;
      issue(chosen, t);
      part.issued_cycle = t;
      set_reason(slots_[chosen], WarpStall::kCount, t);  // issued
      wake(chosen);
      any = true;
      if (!error_.empty()) return any;
    }
  }
  // Only a cycle without any issue needs the next one that may change
  // (every warp was looked at once in it): each warp's last look says when.
  if (!any) next = std::min(next, earliest_wake());
  return any;
}

void KernelSm::account(uint64_t n) {
  constexpr size_t kIssued = static_cast<size_t>(WarpStall::kCount), kIdle = static_cast<size_t>(WarpStall::idle);
  for (const Part& part : parts_) {
    // With issue_width > 1 the warp that issued may be looked at again in
    // the same cycle and take another reason: the cycle still had an issue.
    if (part.by_reason[kIssued] > 0 || part.issued_cycle == now_) continue;
    // The most advanced warp's reason (the enum's order); idle when none
    // waits (exited warps wait for their CTA as idle).
    size_t best = 0;
    while (best < kIdle && part.by_reason[best] == 0) ++best;
    stalls_[best] += n;
  }
}

void KernelSm::end_reason(Slot& s, uint64_t t) {
  const size_t r = static_cast<size_t>(s.reason);
  if (s.reason != WarpStall::idle && s.reason != WarpStall::kCount) lines_[s.stall_pc].stalls[r] += t - s.stall_since;
  --parts_[s.part].by_reason[r];
}

void KernelSm::set_reason(Slot& s, WarpStall reason, uint64_t t) {
  if (reason == s.reason && reason != WarpStall::barrier && reason != WarpStall::kCount && !s.warp->done() &&
      s.stall_pc == s.warp->pc())
    return;  // the same wait goes on
  end_reason(s, t);
  ++parts_[s.part].by_reason[static_cast<size_t>(reason)];
  s.reason = reason;
  s.stall_since = t;
  if (reason == WarpStall::barrier || (reason == WarpStall::memory && s.warp->async_wait))
    s.stall_pc = s.barrier_pc;
  else if (reason != WarpStall::idle && reason != WarpStall::kCount)
    s.stall_pc = s.warp->pc();
}

void KernelSm::set_timing(Timing& t, const kernel::Inst& in, const kernel::StepResult& r) const {
  t = pcs_[r.pc].timing;  // in place: a copy through a temporary costs a store-forwarding stall per issue
  if (t.unit == Unit::lsu && !pcs_[r.pc].constant_bank &&
      (in.kind == kernel::Kind::ld || in.kind == kernel::Kind::st || in.kind == kernel::Kind::atom ||
       in.kind == kernel::Kind::red || in.kind == kernel::Kind::async_copy))
    t.interval *= transactions(r, in, config_.memory);
}

void KernelSm::prefetch_operands(const Slot& s) const {
  const kernel::Warp& w = *s.warp;
  if (w.done()) return;
  const PcInfo& info = pcs_[w.pc()];
  const uint32_t base = w.frames.back().reg_base;
  const uint32_t* regs = pc_regs_.data() + info.regs_begin;  // no element when the kernel has no registers
  for (unsigned i = 0; i < unsigned{info.num_reads} + info.num_writes; ++i)
    if (size_t{base} + regs[i] < s.num_regs)
      __builtin_prefetch(&board_[(size_t{base} + regs[i]) * board_stride_ + s.index]);
}

void KernelSm::grow_registers(size_t slot, uint32_t regs) {
  Slot& s = slots_[slot];
  if (regs <= s.num_regs) return;
  const size_t n = board_stride_;
  if (size_t{regs} * n > board_.size()) board_.resize(size_t{regs} * n);  // register-major: entries stay in place
  for (size_t r = s.num_regs; r < regs; ++r) board_[r * n + slot] = RegisterState{};
  s.num_regs = regs;
}

KernelSm::Txn* KernelSm::acquire() {
  if (free_.empty()) {
    pool_.push_back(std::make_unique<Txn>());
    free_.push_back(pool_.back().get());
  }
  Txn* t = free_.back();
  free_.pop_back();
  return t;
}

void KernelSm::release(Txn& txn) {
  --outstanding_;
  free_.push_back(&txn);
}

void KernelSm::issue(size_t slot, uint64_t t) {
  Slot& s = slots_[slot];
  s.operands_pc = kNoPc;
  s.suspended = false;
  kernel::Warp& w = *s.warp;
  kernel::Cta& cta = *ctas_[s.cta].cta;
  const uint32_t reg_base = w.frames.back().reg_base;
  Txn& txn = *acquire();
  WarpOp& op = txn.op();
  op.rtl_form = nullptr;
  const uint32_t pc = w.pc();
  if (!rtl_checked_.empty() && rtl_checked_[pc]) {
    // The RTL unit computes this form again from its operands, read before
    // the executor writes the destination, and checks it against the core.
    const kernel::Inst& in = kernel_.insts[pc];
    op.rtl_form = &in.form;
    for (unsigned k = 0; k < in.num_src; ++k) {
      const kernel::Operand& o = in.src[k];
      const uint64_t mask = o.bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << o.bits) - 1;
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        op.src[k][lane] = o.kind == kernel::Operand::Kind::imm
                              ? o.value
                              : w.regs[(size_t{reg_base} + o.reg) * kWarpSize + lane] & mask;
    }
  }
  if (tensor_check_ && kernel_.insts[pc].kind == kernel::Kind::mma) tensor_check_->at(pc, w.index, cta.ctaid);
  kernel::step(w, cta, memory_, t, step_);
  const kernel::StepResult& r = step_;
  if (r.status == kernel::StepResult::Status::error) {
    free_.push_back(&txn);
    fail(r.error);
    return;
  }
  if (racecheck_) racecheck_->observe(cta, w, r);
  const kernel::Inst& in = *r.inst;
  if (r.status == kernel::StepResult::Status::exited && --ctas_[s.cta].live_warps == 0) ++exited_ctas_;
  if (w.regs.size() / 32 > s.num_regs)
    grow_registers(slot, static_cast<uint32_t>(w.regs.size() / 32));  // a call's frame
  prefetch_operands(s);
  ++warp_instructions_;
  LineProfile& line = lines_[r.pc];
  ++line.warp_instructions;
  line.active_lanes += r.active_lanes;
  Part& part = parts_[s.part];
  part.last = slot;

  ++outstanding_;
  ++s.outstanding;
  txn.slot = slot;
  txn.part = s.part;
  txn.reg_base = reg_base;
  txn.inst = &in;
  txn.released.clear();
  txn.request_ended = txn.responded = false;
  op.warp = static_cast<uint32_t>(slot);
  op.pc = r.pc;
  op.active_mask = r.executed;
  set_timing(op.timing, in, r);
  op.access = {};
  const unsigned* row = config_.dependency_table[static_cast<size_t>(op.timing.dep)].data();
  const PcInfo& info = pcs_[r.pc];
  const uint32_t* writes = pc_regs_.data() + info.regs_begin + info.num_reads;
  for (unsigned i = 0; i < info.num_writes; ++i) {
    const size_t reg = size_t{reg_base} + writes[i];
    if (reg >= s.num_regs) continue;
    RegisterState& state = board_[reg * board_stride_ + slot];
    state.written_at = t;
    state.writer = row;
  }
  if (info.writes_carry) {
    s.carry.written_at = t;
    s.carry.writer = row;
  }
  if (info.constant_bank) {  // no unit: its result is out after the constant cache's latency
    op.issue_cycle = op.free_cycle = t;
    op.done_cycle = t + op.timing.latency;
    complete(txn, op.done_cycle);
    release(txn);
    return;
  }
  if (op.timing.unit == Unit::lsu && in.kind != kernel::Kind::fence && in.kind != kernel::Kind::nop &&
      in.kind != kernel::Kind::async_commit && in.kind != kernel::Kind::async_wait)
    op.access = {true, r.space, in.kind == kernel::Kind::atom || in.kind == kernel::Kind::red, remote_shared(r)};
  const bool cluster_bar = in.kind == kernel::Kind::cluster_bar;
  if (in.kind == kernel::Kind::bar || cluster_bar || in.kind == kernel::Kind::async_wait) {
    s.at_barrier = (in.kind == kernel::Kind::bar || cluster_bar) && w.waiting();
    s.barrier_pc = r.pc;
  }
  // Its copies land when the unit says (complete()); not before.
  txn.async_first = r.async_first;
  txn.async_count = r.async_count;
  if (r.async_count > 0) cta.time_copies(r.async_first, r.async_count, kernel::kLandsNotYet);
  if (r.mbar_incomplete && in.kind == kernel::Kind::mbarrier && in.mbar == kernel::MBarrierOp::try_wait) {
    // Suspended until the phase completes (settle_async wakes it) or the time limit: the config's, or
    // the suspendTimeHint in cycles if that is shorter.
    uint64_t limit = config_.async.try_wait_suspend;
    if (r.suspend_hint_ns > 0)
      limit =
          std::min<uint64_t>(limit, std::max<uint64_t>(1, static_cast<uint64_t>(static_cast<double>(r.suspend_hint_ns) *
                                                                                config_.async.clock_mhz / 1000.0)));
    s.suspended = true;
    s.barrier_pc = r.pc;
    s.resume_at = std::max(s.resume_at, t + limit);
  }
  // Warps this step released from a barrier (by arriving last, or by
  // exiting: kernel::step settles barriers only then) go on when its result
  // is out; barrier.cluster releases the warps of every CTA of the cluster.
  auto release_waiters = [&](const CtaSlot& c) {
    for (size_t other : c.slots)
      if (slots_[other].at_barrier && !slots_[other].warp->waiting()) {
        slots_[other].at_barrier = false;
        txn.released.push_back(other);
      }
  };
  if (in.kind == kernel::Kind::bar || cluster_bar || r.status == kernel::StepResult::Status::exited) {
    if (cluster_.count() > 1 && (cluster_bar || r.status == kernel::StepResult::Status::exited)) {
      for (const CtaSlot& c : ctas_)
        if (c.cta->cluster == cta.cluster) release_waiters(c);
    } else {
      release_waiters(ctas_[s.cta]);
    }
  }
  const size_t unit = static_cast<size_t>(op.timing.unit);
  Socket& socket = *sockets[s.part * kNumUnits + unit];

  if (job_.style == TimingStyle::loosely_timed) {
    sc_time delay = at_cycle(t - now_cycles());  // the thread's time is a whole cycle, at most t
    socket->b_transport(txn, delay);
    part.unit_free_at[unit] = op.free_cycle;
    complete(txn, op.done_cycle);
    release(txn);
    return;
  }
  part.unit_free_at[unit] = kNever;
  complete(txn, kNever, true);  // nothing is known until the unit answers
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_time delay = sc_core::SC_ZERO_TIME;
  if (socket->nb_transport_fw(txn, phase, delay) == tlm::TLM_UPDATED && phase == tlm::END_REQ)
    request_ends_.notify(txn, delay);
}

void KernelSm::complete(Txn& txn, uint64_t cycle, bool pending) {
  Slot& s = slots_[txn.slot];
  s.operands_pc = kNoPc;  // its registers change
  const PcInfo& info = pcs_[txn.op().pc];
  const uint64_t ready = pending ? kNever : cycle;
  const uint32_t* writes = pc_regs_.data() + info.regs_begin + info.num_reads;
  for (unsigned i = 0; i < info.num_writes; ++i) {
    const size_t r = size_t{txn.reg_base} + writes[i];
    if (r >= s.num_regs) continue;
    RegisterState& state = board_[r * board_stride_ + txn.slot];
    state.ready_at = ready;
    state.from_memory = info.memory_path;
  }
  if (info.writes_carry) s.carry.ready_at = ready;
  // A warp goes on after the latest of the branches and barriers that hold it.
  auto hold = [&](size_t slot) {
    Slot& w = slots_[slot];
    wake(slot);  // what it waited for without a known cycle is here
    if (pending) {
      ++w.holds;
      return;
    }
    w.resume_at = std::max(w.resume_at, cycle);
    if (job_.style == TimingStyle::approximately_timed) --w.holds;
  };
  if (info.control) hold(txn.slot);
  for (size_t other : txn.released) hold(other);
  if (pending) return;
  if (txn.async_count > 0) ctas_[s.cta].cta->time_copies(txn.async_first, txn.async_count, cycle);
  --s.outstanding;
  CtaSlot& c = ctas_[s.cta];
  c.retire_at = std::max(c.retire_at, cycle);
  if (record_)
    records_.push_back({records_.size(), txn.op().warp, txn.op().pc, txn.op().timing.unit, txn.op().issue_cycle,
                        txn.op().free_cycle, txn.op().done_cycle});
}

tlm::tlm_sync_enum KernelSm::nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_time& delay) {
  if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  responses_.notify(trans, delay);
  return tlm::TLM_ACCEPTED;
}

void KernelSm::drain_events(uint64_t now) {
  while (tlm::tlm_generic_payload* p = request_ends_.get_next_transaction()) {
    Txn& txn = static_cast<Txn&>(*p);
    parts_[txn.part].unit_free_at[static_cast<size_t>(txn.op().timing.unit)] = now;
    txn.request_ended = true;
    if (txn.responded) release(txn);
  }
  while (tlm::tlm_generic_payload* p = responses_.get_next_transaction()) {
    Txn& txn = static_cast<Txn&>(*p);
    complete(txn, now);
    tlm::tlm_phase phase = tlm::END_RESP;
    sc_time delay = sc_core::SC_ZERO_TIME;
    (*sockets[txn.part * kNumUnits + static_cast<size_t>(txn.op().timing.unit)])->nb_transport_fw(*p, phase, delay);
    txn.responded = true;
    if (txn.request_ended) release(txn);
  }
}

void KernelSm::run() {
  if (job_.style == TimingStyle::loosely_timed)
    run_loosely_timed();
  else
    run_approximately_timed();
  // A run stopped early (an error, the cycle limit) still has resident warps.
  for (CtaSlot& c : ctas_)
    for (size_t s : c.slots) set_reason(slots_[s], WarpStall::idle, now_);
}

namespace {

// A warp held at barrier.cluster.wait: how many threads of the cluster have
// arrived, in the words of compute-sanitizer's synccheck.
std::string cluster_barrier_note(const kernel::Cta& cta, const kernel::Warp& w) {
  if (w.barrier != kernel::kClusterBarrier) return "";
  uint64_t live = 0, arrived = 0;
  for (const kernel::Cta* c : cta.cluster->ctas)
    if (c)
      for (const kernel::Warp& x : c->warps) {
        const uint32_t alive = x.valid & ~x.exited;
        live += static_cast<unsigned>(__builtin_popcount(alive));
        arrived += static_cast<unsigned>(__builtin_popcount(x.cluster_arrived & alive));
      }
  const kernel::Dim3& id = cta.cluster->id;
  return fmt::format(
      ": Barrier error detected. barrier.cluster.wait in cluster ({},{},{}) waits for {} threads; {} have arrived, "
      "the others never reach barrier.cluster.arrive",
      id.x, id.y, id.z, live, arrived);
}

std::string cycle_limit_message(const kernel::Kernel& k, uint64_t limit, const kernel::Cta& cta,
                                const kernel::Warp& w) {
  const kernel::Inst& in = k.insts[w.pc()];
  return fmt::format("{}: error: cycle limit of {} reached (--max-cycles); warp {} of block ({},{},{}) was at '{}'{}",
                     k.where(in), limit, w.index, cta.ctaid.x, cta.ctaid.y, cta.ctaid.z, in.mnemonic,
                     cluster_barrier_note(cta, w));
}

}  // namespace

std::string KernelSm::cycle_limit_error() const {
  for (const CtaSlot& c : ctas_)  // a hung mbarrier wait is the likelier story: it comes first
    for (const kernel::Warp& w : c.cta->warps)
      if (!w.done() && w.mbar_wait >= 0)
        return cycle_limit_message(kernel_, job_.max_cycles, *c.cta, w) + ": " + c.cta->mbarrier_waits();
  for (const CtaSlot& c : ctas_)
    for (const kernel::Warp& w : c.cta->warps)
      if (!w.done()) return cycle_limit_message(kernel_, job_.max_cycles, *c.cta, w);
  return fmt::format("{}: error: cycle limit of {} reached (--max-cycles)", kernel_.file, job_.max_cycles);
}

void KernelSm::settle_async(uint64_t t) {
  if (!lands_later_) return;
  for (CtaSlot& c : ctas_) {
    kernel::Cta& cta = *c.cta;
    if (cta.async_pending() && cta.settle_async(t))
      for (size_t slot : c.slots) wake(slot);  // a cp.async wait ended: its warp is looked at again
    if (!cta.async_error.empty()) {
      fail(fmt::format("{}: error: {}", kernel_.file, cta.async_error));
      return;
    }
    if (cta.mbarrier_completions == c.mbarrier_completions) continue;
    c.mbarrier_completions = cta.mbarrier_completions;
    for (size_t slot : c.slots) {  // a phase completed: suspended try_waits resume
      Slot& s = slots_[slot];
      if (!s.suspended || s.resume_at <= t) continue;
      s.resume_at = t;
      wake(slot);
    }
  }
}

void KernelSm::async_next(uint64_t t, uint64_t& next) const {
  if (!lands_later_) return;
  for (const CtaSlot& c : ctas_)
    if (c.cta->async_pending()) next = std::min(next, c.cta->next_async_event(t));
}

void KernelSm::run_loosely_timed() {
  tlm_utils::tlm_quantumkeeper qk;
  qk.set_global_quantum(at_cycle(job_.quantum_cycles));
  qk.reset();
  uint64_t t = 0;
  uint64_t next = kNever;
  while (true) {
    // As in the approximately-timed loop: CTAs whose results are all out
    // retire at the start of the cycle, and new ones issue in it.
    next = kNever;
    now_ = t;
    retire_and_launch(t, next);
    if (finished()) break;
    settle_async(t);
    if (!error_.empty()) return;
    const bool issued = issue_cycle(t, next);
    if (!error_.empty()) return;
    pending_retirements(next);
    async_next(t, next);
    if (!issued && next == kNever) {
      fail(fmt::format("{}: error: deadlock: every live warp waits at a barrier that cannot complete", kernel_.file));
      return;
    }
    const uint64_t advance = issued ? 1 : std::max<uint64_t>(next - t, 1);
    account(advance);
    t += advance;
    now_ = t;
    if (t > job_.max_cycles) {
      fail(cycle_limit_error());
      return;
    }
    qk.set(at_cycle(t) - sc_time_stamp());
    if (qk.need_sync()) qk.sync();
  }
}

void KernelSm::run_approximately_timed() {
  uint64_t next = kNever;
  while (!finished()) {
    const uint64_t t = now_cycles();
    now_ = t;
    drain_events(t);
    next = kNever;
    retire_and_launch(t, next);
    if (finished()) break;
    settle_async(t);
    if (!error_.empty()) return;
    const bool issued = issue_cycle(t, next);
    if (!error_.empty()) return;
    async_next(t, next);
    if (!issued && outstanding_ == 0 && next == kNever) {
      fail(fmt::format("{}: error: deadlock: every live warp waits at a barrier that cannot complete", kernel_.file));
      return;
    }
    if (issued) {
      account(1);
      wait(kCycle);
    } else {
      // Until a unit reports, or a known cycle comes (a dependency-table
      // delay) that no unit reports.
      if (next == kNever)
        wait(request_ends_.get_event() | responses_.get_event());
      else
        wait(at_cycle(next - t), request_ends_.get_event() | responses_.get_event());
      account(now_cycles() - t);
    }
    now_ = now_cycles();
    if (now_cycles() > job_.max_cycles) {
      fail(cycle_limit_error());
      return;
    }
  }
}

}  // namespace ptxfu::models
